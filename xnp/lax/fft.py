"""Fast Fourier transforms: the ``fft`` primitive (``xnp.lax.fft``), with JAX's semantics.

``fft(x, fft_type, fft_lengths)`` transforms the trailing ``len(fft_lengths)`` axes
(1 to 3) of ``x``:

=========  ===================  ===================================================
fft_type   operand              result
=========  ===================  ===================================================
FFT        complex64/128        same dtype and shape; unnormalised forward DFT
IFFT       complex64/128        same dtype and shape; inverse DFT, scaled by 1/N
RFFT       float32/64           complex64/128; last axis ``n // 2 + 1``
IRFFT      complex64/128        float32/64; last axis ``fft_lengths[-1]``
=========  ===================  ===================================================

``N`` is ``prod(fft_lengths)``; ``n`` is ``fft_lengths[-1]``. Multi-axis RFFT is an
RFFT over the last axis followed by FFTs over the others; IRFFT is the inverse
order (IFFTs, then a complex-to-real transform over the last axis, which reads
only the real parts of the zero- and, for even ``n``, the Nyquist-frequency terms,
as ``numpy.fft.irfft`` does).

Transformation rules: all four are linear in the operand (jvp applies the same
transform to the tangent). Transposes use JAX's pairing ``<a, b> = Re(sum(a * b))``
(no conjugation): the DFT matrix is symmetric, so FFT and IFFT are their own
transposes. RFFT is ``slice(FFT(complex(x)))``, so its transpose is
``real(FFT(pad(ct)))`` (zero-pad the last axis back to ``n``). IRFFT reads each of
the ``n // 2 + 1`` stored frequencies once but the full spectrum uses the interior
ones twice (as the term and its conjugate partner), so with ``c_j = 1`` for the
zero frequency and (even ``n``) the Nyquist frequency and ``c_j = 2`` otherwise,
``<t, IRFFT(X)> = Re(sum_j X_j * c_j / N * conj(RFFT(t)_j))``: the transpose is
``conj(c * RFFT(ct) / N)``. Batching keeps a batch axis in front of the transformed
axes where it is and moves one inside them to the front.
"""

from __future__ import annotations

import enum
import math
import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.lax.padding import pad
from xnp.tracing import Array, ShapedArray, core, errors

__all__ = ["FftType", "fft", "fft_p"]


class FftType(enum.IntEnum):
    """The kind of transform of :func:`fft` (JAX's ``jax.lax.FftType`` values)."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3

    def __repr__(self) -> str:
        return f"FftType.{self.name}"

    __str__ = __repr__


_REAL = frozenset(np.dtype(t) for t in (np.float32, np.float64))
_TO_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}
_TO_REAL = {c: r for r, c in _TO_COMPLEX.items()}


def _canonical_type(fft_type) -> FftType:
    if isinstance(fft_type, str):
        try:
            return FftType[fft_type.upper()]
        except KeyError:
            pass
    elif isinstance(fft_type, (int, np.integer)) and not isinstance(fft_type, bool):
        try:
            return FftType(int(fft_type))
        except ValueError:
            pass
    raise ValueError(f"xnp.lax.fft: `fft_type` must be one of FFT, IFFT, RFFT, IRFFT "
                     f"(an xnp.lax.FftType or its name), got {fft_type!r}.")


def _fft_shape(x: ShapedArray, *, fft_type: FftType, fft_lengths: tuple[int, ...]):
    k = len(fft_lengths)
    if not 1 <= k <= 3:
        raise ValueError(f"xnp.lax.fft: 1 to 3 `fft_lengths` are supported, got "
                         f"{fft_lengths} for {errors.aval_str(x)}.")
    if any(n < 1 for n in fft_lengths):
        raise ValueError(f"xnp.lax.fft: `fft_lengths` must be positive, got {fft_lengths}.")
    if x.ndim < k:
        raise ValueError(f"xnp.lax.fft: operand {errors.aval_str(x)} has fewer than {k} axes "
                         f"for fft_lengths={fft_lengths}.")
    lead, trailing = x.shape[:-k], x.shape[x.ndim - k:]
    expected = fft_lengths
    n = fft_lengths[-1]
    if fft_type == FftType.IRFFT:
        expected = fft_lengths[:-1] + (n // 2 + 1,)
    if trailing != expected:
        what = {FftType.IRFFT: f" (IRFFT reads n // 2 + 1 = {n // 2 + 1} frequencies of the "
                               f"last axis)"}.get(fft_type, "")
        raise ValueError(f"xnp.lax.fft: {fft_type.name} with fft_lengths={fft_lengths} needs "
                         f"trailing dimensions {expected}{what}, got operand {errors.aval_str(x)}.")
    if fft_type == FftType.RFFT:
        return lead + fft_lengths[:-1] + (n // 2 + 1,)
    if fft_type == FftType.IRFFT:
        return lead + fft_lengths
    return x.shape


def _fft_dtype(x: ShapedArray, *, fft_type: FftType, fft_lengths):
    accept = _REAL if fft_type == FftType.RFFT else kit.COMPLEX
    if x.dtype not in accept:
        needs = "float32 or float64" if fft_type == FftType.RFFT else "complex64 or complex128"
        raise TypeError(f"xnp.lax.fft: {fft_type.name} needs a {needs} operand, "
                        f"got {errors.aval_str(x)}.")
    if fft_type == FftType.RFFT:
        return _TO_COMPLEX[x.dtype]
    if fft_type == FftType.IRFFT:
        return _TO_REAL[x.dtype]
    return x.dtype


def _last_axis_config(ndim: int, high: int):
    config = [(0, 0, 0)] * ndim
    config[-1] = (0, high, 0)
    return tuple(config)


def _rfft_transpose(ct, fft_lengths):
    """``real(FFT(pad(ct)))``: the transpose of ``slice(FFT(complex(x)))``."""
    a = core.aval_of(ct)
    n = fft_lengths[-1]
    padded = pad(ct, np.zeros((), a.dtype), _last_axis_config(a.ndim, n - a.shape[-1]))
    return ew.real(fft_p.bind(padded, fft_type=FftType.FFT, fft_lengths=fft_lengths))


def _irfft_transpose(ct, fft_lengths):
    """``conj(c * RFFT(ct) / N)``, ``c`` 1 at the zero (and even-n Nyquist) frequency, else 2."""
    spectrum = fft_p.bind(ct, fft_type=FftType.RFFT, fft_lengths=fft_lengths)
    a = core.aval_of(spectrum)
    n = fft_lengths[-1]
    weights = np.full(a.shape[-1], 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    weights = (weights / math.prod(fft_lengths)).astype(a.dtype)
    scale = shape_ops.broadcast_in_dim(weights, a.shape, (a.ndim - 1,))
    return ew.conj(ew.mul(spectrum, scale))


def _fft_transpose(ct, x, *, fft_type, fft_lengths):
    if fft_type == FftType.RFFT:
        return [_rfft_transpose(ct, fft_lengths)]
    if fft_type == FftType.IRFFT:
        return [_irfft_transpose(ct, fft_lengths)]
    return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]


def _fft_batch(vals, dims, *, fft_type, fft_lengths):
    (x,), (d,) = vals, dims
    if d >= core.aval_of(x).ndim - len(fft_lengths):
        x = shape_ops.bdim_to_front(x, d, None)
        d = 0
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), d


fft_p = kit.primitive("fft", linear=True, shape=_fft_shape, dtype=_fft_dtype, batch=_fft_batch,
                      jvp=R.linear_unary_jvp, transpose=R.zero_ct_passthrough(_fft_transpose))


def fft(x: Array, fft_type, fft_lengths) -> Array:
    """Discrete Fourier transform of the trailing ``len(fft_lengths)`` axes of ``x``.

    Strict (as ``jax.lax.fft``): no padding, cropping or dtype promotion; ``xnp.fft``
    adds NumPy's ``n``/``s``, ``axes`` and ``norm``.

    Parameters
    ----------
    x : Array
        FFT/IFFT/IRFFT: complex64 or complex128; RFFT: float32 or float64.
    fft_type : FftType or str
        ``FFT``, ``IFFT``, ``RFFT`` or ``IRFFT`` (case-insensitive names accepted).
    fft_lengths : sequence of 1 to 3 positive ints
        The logical transform lengths. The trailing dims of ``x`` must equal them,
        except for IRFFT, whose last input dim is ``fft_lengths[-1] // 2 + 1``.

    Returns
    -------
    Array
        FFT/IFFT: ``x``'s shape and dtype. RFFT: complex of ``x``'s precision, last
        axis ``fft_lengths[-1] // 2 + 1``. IRFFT: real of ``x``'s precision, trailing
        dims ``fft_lengths``. IFFT and IRFFT include the ``1 / prod(fft_lengths)`` scale.

    Raises
    ------
    TypeError
        The operand dtype does not fit ``fft_type``; ``fft_lengths`` are not ints.
    ValueError
        Unknown ``fft_type``; not 1 to 3 lengths, a length below 1, or trailing dims
        that do not match ``fft_lengths``.
    """
    fft_type = _canonical_type(fft_type)
    if isinstance(fft_lengths, (int, np.integer)):
        fft_lengths = (operator.index(fft_lengths),)
    fft_lengths = kit.int_tuple("fft", "fft_lengths", fft_lengths)
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths)
