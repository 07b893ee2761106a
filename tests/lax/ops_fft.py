"""Op-table records of ``xnp.lax.fft`` (every fft type; 1 to 3 transformed axes, with and
without batch dims, length-1 axes and empty batch dims).

``fft_lengths`` are taken from the operand's trailing dims (IRFFT: ``2 * (m - 1)`` for the
``even`` records, ``2 * m - 1`` for the ``odd`` ones). References are ``numpy.fft``'s
``fftn``/``ifftn``/``rfftn``/``irfftn`` over the same axes, in the primitive's dtype.
Errors: every dtype the type does not accept (incl. the float/complex of the other
kind), trailing dims that do not match, lengths below 1 (NumPy's ``n=0`` also raises
ValueError), too many lengths and unknown types.
"""

import numpy as np

from tests.helpers import COMPLEX, OpRecord
from xnp import lax

REAL = [np.dtype(np.float32), np.dtype(np.float64)]

SHAPES = {
    1: [(1,), (5,), (3, 1), (2, 0, 4), (2, 3, 8)],
    2: [(1, 1), (3, 4), (0, 3, 4), (2, 3, 5)],
    3: [(1, 1, 1), (2, 3, 4), (2, 2, 3, 4), (0, 2, 2, 3)],
}
_NUMPY = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn}
_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_REAL_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


def _lengths(shape, k, fft_type, odd=False):
    if fft_type != "IRFFT":
        return tuple(shape[len(shape) - k:])
    m = shape[-1]
    return tuple(shape[len(shape) - k:-1]) + (2 * m - 1 if odd else 2 * (m - 1),)


def _axes(x, k):
    return tuple(range(x.ndim - k, x.ndim))


def _reference(fft_type, k, odd=False):
    def ref(x):
        axes = _axes(x, k)
        if fft_type == "IRFFT":
            return np.fft.irfftn(x, s=_lengths(x.shape, k, fft_type, odd), axes=axes).astype(
                _REAL_OF[x.dtype])
        out = _NUMPY[fft_type](x, axes=axes)
        return out.astype(_COMPLEX_OF.get(x.dtype, x.dtype))

    return ref


def _fun(fft_type, k, odd=False):
    return lambda x: lax.fft(x, fft_type, _lengths(x.shape, k, fft_type, odd))


def _irfft_shapes(k, odd):
    # IRFFT with n = 2 * (m - 1) needs m >= 2; the odd form takes m >= 1
    return [s for s in SHAPES[k] if odd or s[-1] >= 2] + ([(2, 2)] if k == 1 and not odd else [])


def _records():
    out = []
    for k in (1, 2, 3):
        for t in ("FFT", "IFFT"):
            out.append(OpRecord(f"fft[{t},{k}]", fun=_fun(t, k), reference=_reference(t, k),
                                nargs=1, dtypes=COMPLEX, shapes=SHAPES[k], kind="reduction"))
        out.append(OpRecord(f"fft[RFFT,{k}]", fun=_fun("RFFT", k),
                            reference=_reference("RFFT", k), nargs=1, dtypes=REAL,
                            shapes=SHAPES[k], kind="reduction"))
        for odd in (False, True):
            out.append(OpRecord(
                f"fft[IRFFT,{k},{'odd' if odd else 'even'}]", fun=_fun("IRFFT", k, odd),
                reference=_reference("IRFFT", k, odd), nargs=1, dtypes=COMPLEX,
                shapes=_irfft_shapes(k, odd), kind="reduction"))
    return out


_c64 = np.zeros((2, 4), np.complex64)
_f32 = np.zeros((2, 4), np.float32)


def _error(i, x, fft_type, lengths, exc, pattern):
    return OpRecord(f"fft[error{i}]", fun=lambda a: lax.fft(a, fft_type, lengths),
                    reference=None, nargs=1, dtypes=[], shapes=[], errors=[([x], exc, pattern)])


_ERRORS = [
    (_f32, "FFT", (4,), TypeError,
     r"xnp\.lax\.fft: FFT needs a complex64 or complex128 operand, got float32\[2,4\]"),
    (np.zeros(4, np.float64), "IFFT", (4,), TypeError, r"IFFT.*float64\[4\]"),
    (_c64, "RFFT", (4,), TypeError,
     r"xnp\.lax\.fft: RFFT needs a float32 or float64 operand, got complex64\[2,4\]"),
    (np.zeros(4, np.float16), "RFFT", (4,), TypeError, r"RFFT.*float16\[4\]"),
    (np.zeros(3, np.float64), "IRFFT", (4,), TypeError, r"IRFFT.*float64\[3\]"),
    (np.zeros(4, np.int32), "FFT", (4,), TypeError, r"FFT.*int32\[4\]"),
    (_c64, "FFT", (5,), ValueError, r"xnp\.lax\.fft: FFT with fft_lengths=\(5,\) needs "
                                    r"trailing dimensions \(5,\), got operand complex64\[2,4\]"),
    (_f32, "RFFT", (2, 3), ValueError, r"RFFT.*\(2, 3\).*float32\[2,4\]"),
    (_c64, "IRFFT", (4,), ValueError,
     r"IRFFT.*needs trailing dimensions \(3,\).*n // 2 \+ 1.*complex64\[2,4\]"),
    (_c64, "IRFFT", (5,), ValueError, r"IRFFT.*\(3,\).*complex64\[2,4\]"),
    (np.zeros((2, 0), np.complex64), "FFT", (0,), ValueError,
     r"`fft_lengths` must be positive, got \(0,\)"),
    (np.zeros((1, 1, 1, 1), np.complex64), "FFT", (1, 1, 1, 1), ValueError,
     r"1 to 3 `fft_lengths`"),
    (np.zeros(4, np.complex64), "FFT", (1, 4), ValueError, r"complex64\[4\] has fewer than 2 axes"),
    (_c64, "DCT", (4,), ValueError,
     r"`fft_type` must be one of FFT, IFFT, RFFT, IRFFT.*'DCT'"),
    (_c64, "FFT", (4.0,), TypeError, r"`fft_lengths` must be a sequence of ints"),
]

RECORDS = _records() + [_error(i, *e) for i, e in enumerate(_ERRORS)]
