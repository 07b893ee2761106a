"""The NumPy functions the eager fast path (:mod:`xnp.numpy_api._fastpath`) calls directly,
each for the dtypes where its result is exactly what xnp's full eager path computes.

They apply while the eager backend computes with NumPy itself (its
``computes_with_numpy`` is true: the NumPy backend); with any other backend the fast path
is off and every call takes the full path. ``FAST_OPS`` holds the ufunc-like functions
(``fastpath.unary``/``binary``), ``FAST_CALLS`` the other calls the decorators serve:
NumPy's own view functions (``reshape``, ``transpose``) and ``asarray``/``array`` of a
NumPy array. Every other call's repeats are replays of its full path
(:mod:`xnp.numpy_api._replay`).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = ["FastOp", "FAST_OPS", "FAST_CALLS"]


class FastOp(NamedTuple):
    """A NumPy function computing what xnp's full eager path computes, for some dtypes.

    ``fn(*natives)`` must return exactly what the full path returns for operands
    of one dtype in ``dtypes`` (a native array or a 0-d scalar), and raise
    ``ValueError`` for shapes that do not broadcast; ``bool_out``
    marks functions whose result is a strong bool (comparisons).
    """

    fn: Callable
    dtypes: frozenset
    bool_out: bool = False


_INTS = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                        np.uint16, np.uint32, np.uint64))
_REAL_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_INEXACT = _REAL_FLOATS | {np.dtype(np.complex64), np.dtype(np.complex128)}
_BOOL = frozenset({np.dtype(np.bool_)})
_ORDERED = _INTS | _REAL_FLOATS | _BOOL
_FLOAT_UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos",
                "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh",
                "arccosh", "arctanh")


def _fast_ops() -> dict:
    """NumPy functions whose result on operands of one of the listed dtypes is exactly what
    xnp's full eager path computes (xnp's eager semantics are NumPy's); see
    :mod:`xnp.numpy_api._fastpath`. Left out on purpose: integer floor_divide/remainder/power
    (xnp silences or words NumPy's warnings and errors differently), bfloat16/float8
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


_ALL = frozenset(SUPPORTED_DTYPES)


def _fast_calls() -> dict:
    """NumPy calls served by the decorators of :mod:`xnp.numpy_api._fastpath` (``fast_calls``
    there), each for the dtypes where the result equals xnp's full eager path exactly."""
    return {
        "reshape": FastOp(np.ndarray.reshape, _ALL),
        "transpose": FastOp(np.ndarray.transpose, _ALL),
        "asarray": FastOp(lambda obj, copy: np.array(obj, copy=copy), _ALL),
        "array": FastOp(lambda obj, copy: np.array(obj, copy=copy), _ALL),
    }


FAST_OPS = _fast_ops()
FAST_CALLS = _fast_calls()
