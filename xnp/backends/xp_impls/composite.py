"""Kernels of the composite operations (``xnp.lax.composite``) on an array module ``xp``.

``KERNELS[name] = (fn, signatures)``: ``fn(xp, *operands)`` computes what the composite's
decomposition computes (values, signed zeros, NaNs, dtype; ``tests/lax/test_composite.py``
checks each against its decomposition on grids of special values) for operands whose
dtypes are one of ``signatures`` (tuples of dtypes); other dtypes run the decomposition.
Only dtypes with a loop of NumPy's own are listed (no ml_dtypes).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS

__all__ = ["KERNELS", "SIGNATURES"]

_FLOATS = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_INTS = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                    np.uint16, np.uint32, np.uint64))
_COMPLEX = tuple(np.dtype(t) for t in (np.complex64, np.complex128))
_ALL = (np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX
_I32 = np.dtype(np.int32)


def _same(dtypes, n: int) -> frozenset:
    return frozenset((d,) * n for d in dtypes)


def _ufunc(fn_name: str):
    def kernel(xp, *operands):
        return getattr(xp, fn_name)(*operands)

    return kernel


KERNELS = {
    "logaddexp": (_ufunc("logaddexp"), _same(_FLOATS, 2)),
    "logaddexp2": (_ufunc("logaddexp2"), _same(_FLOATS, 2)),
    "hypot": (_ufunc("hypot"), _same(_FLOATS, 2)),
    "copysign": (_ufunc("copysign"), _same(_FLOATS, 2)),
    "heaviside": (_ufunc("heaviside"), _same(_FLOATS, 2)),
    "fmax": (_ufunc("fmax"), _same(_FLOATS, 2)),
    "fmin": (_ufunc("fmin"), _same(_FLOATS, 2)),
    "trunc": (_ufunc("trunc"), _same(_FLOATS, 1)),
    "spacing": (_ufunc("spacing"), _same(_FLOATS, 1)),
    "signbit": (_ufunc("signbit"), _same(_FLOATS, 1)),
    "isinf": (_ufunc("isinf"), _same(_FLOATS, 1)),
    "isfinite": (_ufunc("isfinite"), _same(_FLOATS, 1)),
    "logical_and": (_ufunc("logical_and"), _same(_ALL, 2)),
    "logical_or": (_ufunc("logical_or"), _same(_ALL, 2)),
    "logical_xor": (_ufunc("logical_xor"), _same(_ALL, 2)),
    "logical_not": (_ufunc("logical_not"), _same(_ALL, 1)),
    "gcd": (_ufunc("gcd"), _same(_INTS, 2)),
    "lcm": (_ufunc("lcm"), _same(_INTS, 2)),
    "ldexp": (_ufunc("ldexp"), frozenset((f, _I32) for f in _FLOATS)),
    "frexp": (_ufunc("frexp"), _same(_FLOATS, 1)),
    "modf": (_ufunc("modf"), _same(_FLOATS, 1)),
}

#: name -> the operand-dtype signatures its kernel serves (a backend's ``kernels``)
SIGNATURES = {name: sigs for name, (_, sigs) in KERNELS.items()}


def _composite(xp, *operands, name, decomposition, out_dtypes):
    return KERNELS[name][0](xp, *operands)


XP_IMPLS[lax.composite_p] = _composite
XP_IMPLS[lax.composite_multi_p] = _composite
