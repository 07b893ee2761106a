"""The NumPy eager backend (CPU): the shared xp implementations bound to ``numpy``."""

from __future__ import annotations

import functools

import numpy as np

from xnp.backends.xp_impls import UNSUPPORTED, VIEW_PRIMITIVES, XP_IMPLS
from xnp.tracing import core, fastpath
from xnp.tracing.fastpath import FastOp

__all__ = ["NumpyBackend", "BACKEND"]

_INTS = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                        np.uint16, np.uint32, np.uint64))
_REAL_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_INEXACT = _REAL_FLOATS | {np.dtype(np.complex64), np.dtype(np.complex128)}
_BOOL = frozenset({np.dtype(np.bool_)})
_ORDERED = _INTS | _REAL_FLOATS | _BOOL
_FLOAT_UNARY = ("exp", "exp2", "expm1", "log", "log1p", "sqrt", "sin", "cos",
                "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh",
                "arccosh", "arctanh")


def _fast_ops() -> dict:
    """NumPy functions whose result on operands of one of the listed dtypes is exactly what
    xnp's full eager path computes (xnp's eager semantics are NumPy's); see
    :mod:`xnp.tracing.fastpath`. Left out on purpose: integer floor_divide/remainder/power
    (xnp silences or words NumPy's warnings and errors differently), log2/log10 (xnp
    computes them as log(x)/log(base)), bfloat16/float8
    (computed through float32 by xnp), ordering comparisons of complex numbers."""
    ops = {
        "add": FastOp(np.add, _INTS | _INEXACT | _BOOL),
        "subtract": FastOp(np.subtract, _INTS | _INEXACT),
        "multiply": FastOp(np.multiply, _INTS | _INEXACT | _BOOL),
        "divide": FastOp(np.divide, _INEXACT),
        "true_divide": FastOp(np.true_divide, _INEXACT),
        "maximum": FastOp(np.maximum, _INTS | _REAL_FLOATS),
        "minimum": FastOp(np.minimum, _INTS | _REAL_FLOATS),
        "bitwise_and": FastOp(np.bitwise_and, _INTS | _BOOL),
        "bitwise_or": FastOp(np.bitwise_or, _INTS | _BOOL),
        "bitwise_xor": FastOp(np.bitwise_xor, _INTS | _BOOL),
        "equal": FastOp(np.equal, _INTS | _INEXACT | _BOOL, True),
        "not_equal": FastOp(np.not_equal, _INTS | _INEXACT | _BOOL, True),
        "negative": FastOp(np.negative, _INTS | _INEXACT),
        "absolute": FastOp(np.absolute, _INTS | _REAL_FLOATS),
    }
    for name in ("less", "less_equal", "greater", "greater_equal"):
        ops[name] = FastOp(getattr(np, name), _ORDERED, True)
    for name in _FLOAT_UNARY:
        ops[name] = FastOp(getattr(np, name), _INEXACT)
    return ops


class NumpyBackend:
    """Eager backend on NumPy: ``impls[prim](*ndarrays, **params) -> ndarray``."""

    name = "numpy"
    native_types = (np.ndarray,)
    native_type = np.ndarray

    def __init__(self):
        self.impls = {p: functools.partial(fn, np) for p, fn in XP_IMPLS.items()}
        self.unsupported = dict(UNSUPPORTED)
        self.view_prims = frozenset(VIEW_PRIMITIVES)
        self.fast_ops = _fast_ops()

    @staticmethod
    def wrap_native(x):
        return x if type(x) is np.ndarray else np.asarray(x)

    @staticmethod
    def from_host(x: np.ndarray) -> np.ndarray:
        return x

    @staticmethod
    def to_host(x) -> np.ndarray:
        return x


BACKEND = NumpyBackend()
core.register_eager_backend(BACKEND)
fastpath.refresh()
