"""The NumPy functions the eager fast path (:mod:`xnp.numpy_api._fastpath`) calls directly,
each for the dtypes where its result is exactly what xnp's full eager path computes.

They apply while the eager backend computes with NumPy itself (its
``computes_with_numpy`` is true: the NumPy backend); with any other backend the fast path
is off and every call takes the full path. ``FAST_OPS`` holds the ufunc-like functions
(``fastpath.unary``/``binary``), ``FAST_CALLS`` the other calls the decorators serve
(reductions, products, ``where``, views, ``concatenate``, ``sort``/``argsort``, creation,
``asarray``).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import ml_dtypes
import numpy as np

from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = ["FastOp", "FAST_OPS", "FAST_CALLS", "RADIX_SORTED", "stable_argsort"]


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


_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_BF16 = np.dtype(ml_dtypes.bfloat16)
_NARROW = frozenset({np.dtype(np.float16), _BF16})
_NUMERIC = _INTS | _BOOL | _INEXACT | _NARROW  # not float8 (no reductions served)
_ALL = frozenset(SUPPORTED_DTYPES)


def _via_f32(reduce):
    """``reduce`` for bfloat16 as xnp computes it: in float32, cast back (float16 is
    NumPy's own float16 loop, as ``lax.reduce_sum`` defines it)."""

    def fn(v, axis, keepdims):
        if v.dtype == _BF16:
            return reduce(v.astype(_F32), axis, None, None, keepdims).astype(v.dtype)
        return reduce(v, axis, None, None, keepdims)

    return fn


def _mean(v, axis, keepdims):
    """xnp's mean: bool/integers in float64, float16/bfloat16 in float32 (cast back); the
    sum divided by the element count in that dtype. Empty inputs and an axis of a 0-d
    input go to the full path (NumPy warns / accepts what xnp rejects)."""
    if v.size == 0 or (v.ndim == 0 and axis is not None):
        raise ValueError("served by the full path")
    dt = v.dtype
    x = v.astype(_F64) if dt.kind in "biu" else v.astype(_F32) if dt in _NARROW else v
    total = np.add.reduce(x, axis, None, None, keepdims)
    if total.ndim == 0 and dt.kind == "c":  # NumPy divides the complex scalar by its intp
        return dt.type(total[()] / np.intp(v.size))  # count ("in scalar divide")
    res = np.true_divide(total, x.dtype.type(v.size // total.size))
    return res.astype(dt) if dt in _NARROW else res


def _plain(reduce):
    def fn(v, axis, keepdims):
        return reduce(v, axis, None, None, keepdims)

    return fn


def _logical(reduce):
    def fn(v, axis, keepdims):
        return reduce(v, axis, np.bool_, None, keepdims)

    return fn


def _dot(a, b):
    out = np.dot(a, b)
    return out if out.dtype == a.dtype else out.astype(a.dtype)  # ml_dtypes: float32 out


def _matmul(a, b):
    # numpy.dot's (the same values, faster on small operands) but for one product per
    # element: dot gives the product itself (-0.0 for 0 * -1), matmul's sum from +0.0 not
    if a.shape[-1] == 1:
        out = np.matmul(a, b)
        return out if out.dtype == a.dtype else out.astype(a.dtype)
    return _dot(a, b)


def _full(shape, fill, dtype):
    return np.full(shape, fill, dtype)  # its conversion is xnp's (creation._fill)


# dtypes whose stable sort in NumPy is a radix sort, faster than any other of its sorts
RADIX_SORTED = frozenset(np.dtype(t) for t in (np.bool_, np.int8, np.uint8, np.int16,
                                               np.uint16))


def stable_argsort(v, axis: int):
    """``numpy.argsort(v, axis, kind="stable")``, computed with NumPy's (vectorised)
    quicksort: a sorted order keeps equal elements together, so only the indices inside
    each run of equal values (NaN equal to NaN, ``-0.0`` to ``0.0``) need ordering, and
    when there are runs they are ordered by one more sort of ``run * n + index``, unique
    keys (``n`` the axis length). NumPy's own stable sort where it is as fast: a radix
    sort (:data:`RADIX_SORTED`), or fewer than 2048 elements. A real dtype, ``axis``
    normalised."""
    if v.dtype in RADIX_SORTED or v.size < 2048:
        return np.argsort(v, axis, kind="stable")
    perm = np.argsort(v, axis)
    n = v.shape[axis]
    if n < 2:
        return perm
    p = np.moveaxis(perm, axis, -1)
    s = np.take_along_axis(np.moveaxis(v, axis, -1), p, -1)
    tie = s[..., 1:] == s[..., :-1]
    if s.dtype.kind == "f":
        nan = np.isnan(s)
        tie |= nan[..., 1:] & nan[..., :-1]
    if not tie.any():
        return perm
    run = np.zeros(p.shape, np.int64)
    np.cumsum(~tie, axis=-1, out=run[..., 1:])
    key = run * n + p  # run < n: below n * n, int64 for n < 3e9
    key.sort(axis=-1)
    return np.moveaxis(key % n, -1, axis)


def _argsort(v, axis, stable):
    if v.ndim == 0:  # NumPy's argsort takes a 0-d input as 1-d
        v = v.reshape(1)
    if axis is None:
        v = v.reshape(-1)
        axis = 0
    elif not -v.ndim <= axis < v.ndim:
        raise ValueError("served by the full path")  # which words the AxisError
    else:
        axis %= v.ndim
    if stable:
        return stable_argsort(v, axis)
    return np.argsort(v, axis)  # NumPy's default kind: its own result


_F16 = np.dtype(np.float16)


def _sort(v, axis, stable):
    # float16 values with kind="stable": NumPy's default float16 sort can misplace values
    # on AVX-512 machines (xnp/backends/xp_impls/sorting.py, UNSAFE_DEFAULT_SORT)
    return np.sort(v, axis, kind="stable" if stable or v.dtype == _F16 else None)


def _fast_calls() -> dict:
    """NumPy calls served by the decorators of :mod:`xnp.numpy_api._fastpath` (``fast_calls``
    there), each for the dtypes where the result equals xnp's full eager path exactly.
    Left out on purpose: complex max/min (xnp raises), float8 reductions and products
    (computed through float32 by xnp; not worth a special case)."""
    return {
        "sum": FastOp(_via_f32(np.add.reduce), _NUMERIC),
        "prod": FastOp(_via_f32(np.multiply.reduce), _NUMERIC),
        "mean": FastOp(_mean, _NUMERIC),
        "max": FastOp(_plain(np.maximum.reduce), _ORDERED | _NARROW),
        "min": FastOp(_plain(np.minimum.reduce), _ORDERED | _NARROW),
        "any": FastOp(_logical(np.logical_or.reduce), _NUMERIC),
        "all": FastOp(_logical(np.logical_and.reduce), _NUMERIC),
        "matmul": FastOp(_matmul, _NUMERIC),
        "dot": FastOp(_dot, _NUMERIC),
        "where": FastOp(np.where, _ALL),
        "reshape": FastOp(np.ndarray.reshape, _ALL),
        "transpose": FastOp(np.ndarray.transpose, _ALL),
        "concatenate": FastOp(np.concatenate, _ALL),
        "sort": FastOp(_sort, _ORDERED),
        "argsort": FastOp(_argsort, _ORDERED),
        "zeros": FastOp(np.zeros, _ALL),
        "empty": FastOp(np.zeros, _ALL),  # xnp fills "uninitialised" arrays with 0
        "ones": FastOp(np.ones, _ALL),
        "full": FastOp(_full, _ALL),
        "asarray": FastOp(lambda obj, copy: np.array(obj, copy=copy), _ALL),
        "array": FastOp(lambda obj, copy: np.array(obj, copy=copy), _ALL),
    }


FAST_OPS = _fast_ops()
FAST_CALLS = _fast_calls()
