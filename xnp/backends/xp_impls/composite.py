"""Kernels of the composite operations (``xnp.lax.composite``) on an array module ``xp``.

``KERNELS[name] = signatures``: the composite ``name`` is computed by the array module's
function of that name, ``xp.<name>(*operands)``, which computes what its decomposition
computes (values, signed zeros, NaNs, dtype; ``tests/lax/test_composite.py``
checks each against its decomposition on grids of special values) for operands whose
dtypes are one of ``signatures`` (tuples of dtypes); other dtypes run the decomposition.
The dtypes listed are NumPy's own and bfloat16, whose loops ml_dtypes registers with
NumPy's ufuncs (NumPy with ml_dtypes is the oracle for bfloat16).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.backends.xp_impls.linalg import dot_general_kernel

__all__ = ["KERNELS", "MATRIX_KERNELS", "kernel_of"]

_FLOATS = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_BF16 = (np.dtype(ml_dtypes.bfloat16),)  # ml_dtypes' loops, registered with NumPy's ufuncs
_INTS = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                    np.uint16, np.uint32, np.uint64))
_COMPLEX = tuple(np.dtype(t) for t in (np.complex64, np.complex128))
_ALL = (np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX
_I32 = np.dtype(np.int32)


def _same(dtypes, n: int) -> frozenset:
    return frozenset((d,) * n for d in dtypes)


KERNELS = {
    "logaddexp": _same(_FLOATS + _BF16, 2),
    "logaddexp2": _same(_FLOATS + _BF16, 2),
    "hypot": _same(_FLOATS + _BF16, 2),
    "copysign": _same(_FLOATS + _BF16, 2),
    "heaviside": _same(_FLOATS + _BF16, 2),
    "fmax": _same(_FLOATS + _BF16, 2),
    "fmin": _same(_FLOATS + _BF16, 2),
    "trunc": _same(_FLOATS + _BF16, 1),
    "spacing": _same(_FLOATS, 1),
    "signbit": _same(_FLOATS + _BF16, 1),
    "isinf": _same(_FLOATS + _BF16, 1),
    "logical_and": _same(_ALL, 2),
    "logical_or": _same(_ALL, 2),
    "logical_xor": _same(_ALL, 2),
    "logical_not": _same(_ALL, 1),
    "gcd": _same(_INTS, 2),
    "lcm": _same(_INTS, 2),
    "ldexp": frozenset((f, _I32) for f in _FLOATS + _BF16),
    "frexp": _same(_FLOATS + _BF16, 1),
    "floor_divide": _same(_INTS + _FLOATS + _BF16, 2),
    "remainder": _same(_INTS + _FLOATS + _BF16, 2),
    "divmod": _same(_INTS + _FLOATS + _BF16, 2),
    "fmod": _same(_INTS, 2),
    "reciprocal": _same(_INTS, 1),
    "modf": _same(_FLOATS + _BF16, 1),
    "sinc": _same(_FLOATS, 1),
}


#: the general composites (``lax.composite_general``), by the dotted name of the array
#: module's function: LAPACK through ``numpy.linalg``, which computes single precision in
#: double and rounds the result (so within rounding of the decomposition, which
#: ``tests/lax/test_composite.py`` checks, with the same errors)
_LAPACK = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
           np.dtype(np.complex128))
MATRIX_KERNELS = {
    "linalg.solve": _same(_LAPACK, 2),
    "linalg.inv": _same(_LAPACK, 1),
}


def _kernel(xp, name: str):
    """The array module's function named ``name`` (dotted: ``linalg.solve``)."""
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _composite(xp, *operands, name, decomposition, out_dtypes):
    return _kernel(xp, name)(*operands)


def _general(fn):
    def kernel(*operands):
        out = fn(*operands)
        return list(out) if isinstance(out, tuple) else [out]
    return kernel


def _composite_general(xp, *operands, name, decomposition, out_avals):
    return _general(_kernel(xp, name))(*operands)


def kernel_of(xp, prim, params):
    """The function a recorded program calls for ``prim`` with ``params`` (no parameters):
    the kernel itself for a composite, ``linalg.dot_general_kernel`` for ``dot_general``,
    None for any other primitive."""
    if prim is lax.composite_p or prim is lax.composite_multi_p:
        return _kernel(xp, params["name"])
    if prim is lax.composite_general_p:
        return _general(_kernel(xp, params["name"]))
    if prim is lax.dot_general_p:
        return dot_general_kernel(xp, **params)
    return None


XP_IMPLS[lax.composite_p] = _composite
XP_IMPLS[lax.composite_multi_p] = _composite
XP_IMPLS[lax.composite_general_p] = _composite_general
