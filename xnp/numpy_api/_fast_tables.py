"""The calls the eager fast path (:mod:`xnp.numpy_api._fastpath`) serves directly.

They apply while the eager backend computes with NumPy itself (its
``computes_with_numpy`` is true: the NumPy backend); with any other backend the fast path
is off and every call takes the full path.

``FAST_OPS`` holds the ufunc-like functions (``fastpath.unary``/``binary``): for each, the
NumPy ufunc that serves each dtype is *learnt* from the function's own full path, not
listed here. When the eager dispatch cache (:mod:`xnp.numpy_api._replay`) records a call of
the function on plain eager arrays of one dtype and the recording is exactly one NumPy
ufunc applied to the operands, with the result's weak type the fast path gives
(``fastpath.learn``), that ufunc becomes the function's kernel for that dtype
(``FastUfunc.kernels``; ``scalar_kernels`` when the other operand is a Python float or int
that the full path converted to that dtype); a dtype whose full path does anything else (a conversion first,
a check, another kernel: bfloat16 through float32, an integer division's warnings) is
never served and keeps its replays. ``FAST_CALLS`` holds the other calls the decorators
serve: NumPy's own view functions (``reshape``, ``transpose``) and ``asarray``/``array``
of a NumPy array. Every other call's repeats are replays of its full path.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = ["FastOp", "FastUfunc", "FAST_OPS", "FAST_CALLS"]


class FastOp(NamedTuple):
    """A ``FAST_CALLS`` entry: the NumPy call ``fn`` that serves the xnp function for
    arrays of the ``dtypes`` (NumPy's own view functions, ``asarray``/``array`` of a
    NumPy array: for every dtype); ``bool_out`` is unused by these calls."""

    fn: Callable
    dtypes: frozenset
    bool_out: bool = False


class FastUfunc(NamedTuple):
    """A ufunc-like function the fast path serves: ``kernels`` maps each dtype learnt from
    the function's full path on arrays of that dtype to the NumPy ufunc that computes it,
    ``scalar_kernels`` each dtype learnt from calls on an array of it and a Python float or
    int (filled by ``fastpath.learn``, emptied when an option changes); ``bool_out`` marks
    the functions whose result is a strong bool (comparisons: never weak); ``arity`` is
    the number of operands."""

    kernels: dict
    scalar_kernels: dict
    bool_out: bool
    arity: int


_BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum",
           "bitwise_and", "bitwise_or", "bitwise_xor")
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
_UNARY = ("negative", "absolute", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
          "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan",
          "arcsinh", "arccosh", "arctanh")


def _fast_ops() -> dict:
    """The ufunc-like functions with a fast path (module docstring), each with no kernel
    learnt yet."""
    ops = {name: FastUfunc({}, {}, False, 2) for name in _BINARY}
    ops.update((name, FastUfunc({}, {}, True, 2)) for name in _COMPARISONS)
    ops.update((name, FastUfunc({}, {}, False, 1)) for name in _UNARY)
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
