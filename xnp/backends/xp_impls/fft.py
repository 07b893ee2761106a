"""xp implementation of ``xnp.lax.fft``: ``xp.fft.fftn``/``ifftn``/``rfftn``/``irfftn`` over
the trailing ``len(fft_lengths)`` axes, cast to the primitive's dtype (NumPy computes
float32/complex64 in single precision but the cast makes the result dtype exact on
every NumPy version)."""

from __future__ import annotations

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.lax.fft import FftType

__all__: list = []

_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def _fft(xp, x, *, fft_type, fft_lengths):
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type == FftType.FFT:
        return xp.fft.fftn(x, axes=axes).astype(x.dtype, copy=False)
    if fft_type == FftType.IFFT:
        return xp.fft.ifftn(x, axes=axes).astype(x.dtype, copy=False)
    if fft_type == FftType.RFFT:
        return xp.fft.rfftn(x, axes=axes).astype(_COMPLEX_OF[x.dtype.name], copy=False)
    out = xp.fft.irfftn(x, s=fft_lengths, axes=axes)
    return out.astype(_REAL_OF[x.dtype.name], copy=False)


XP_IMPLS[lax.fft_p] = _fft
