"""xp implementations of the cumulative primitives (``xnp.lax.cumulative``): NumPy's
``ufunc.accumulate`` in the operand's dtype (``cumsum``/``cumprod`` with
``dtype=x.dtype``, so integers wrap and nothing is upcast); ``reverse=True`` flips
the axis before and after."""

from __future__ import annotations

import functools
import operator

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS

__all__: list = []


def _accumulate(fn):
    def impl(xp, x, *, axis, reverse):
        if reverse:
            x = xp.flip(x, axis)
        out = fn(xp, x, axis)
        if reverse:
            out = xp.ascontiguousarray(xp.flip(out, axis))
        return out

    return impl


# (the array methods: NumPy's functions add frames)
XP_IMPLS[lax.cumsum_p] = _accumulate(lambda xp, x, axis: x.cumsum(axis=axis, dtype=x.dtype))
XP_IMPLS[lax.cumprod_p] = _accumulate(lambda xp, x, axis: x.cumprod(axis=axis, dtype=x.dtype))
# the same without a Python frame in a replay (forward only)
PARAM_KERNELS[lax.cumsum_p] = lambda xp, x, *, axis, reverse: None if reverse else \
    operator.methodcaller("cumsum", axis=axis, dtype=x.dtype)
PARAM_KERNELS[lax.cumprod_p] = lambda xp, x, *, axis, reverse: None if reverse else \
    operator.methodcaller("cumprod", axis=axis, dtype=x.dtype)


def _quiet(fn):
    """``fn`` without the invalid-value warning ml_dtypes' maximum/minimum give on NaN
    (NumPy's own float types do not warn there)."""

    def run(xp, x, axis):
        if x.dtype.kind != "V":  # (NumPy's own dtypes: no errstate to enter)
            return fn(xp, x, axis)
        with np.errstate(invalid="ignore"):
            return fn(xp, x, axis)

    return run


XP_IMPLS[lax.cummax_p] = _accumulate(
    _quiet(lambda xp, x, axis: xp.maximum.accumulate(x, axis=axis)))
XP_IMPLS[lax.cummin_p] = _accumulate(
    _quiet(lambda xp, x, axis: xp.minimum.accumulate(x, axis=axis)))
# the same without a Python frame in a replay, for NumPy's own dtypes (forward only)
PARAM_KERNELS[lax.cummax_p] = lambda xp, x, *, axis, reverse: None if (
    reverse or x.dtype.kind == "V") else functools.partial(xp.maximum.accumulate, axis=axis)
PARAM_KERNELS[lax.cummin_p] = lambda xp, x, *, axis, reverse: None if (
    reverse or x.dtype.kind == "V") else functools.partial(xp.minimum.accumulate, axis=axis)
XP_IMPLS[lax.cumlogsumexp_p] = _accumulate(
    lambda xp, x, axis: xp.logaddexp.accumulate(x, axis=axis))
