"""xp implementations of the reduction primitives (``xnp.lax.reductions``).

The result keeps the operand dtype (no accumulation upcast at this level) and
follows NumPy on NaN: ``max``/``min`` propagate it, ``argmax``/``argmin`` return
the first NaN's index. An empty max/min gives the lax identity (NumPy raises;
``xnp.max`` raises before it gets here).
"""

import functools
import operator

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS
from xnp.lax.reductions import reduction_identity

__all__ = []


# (the ufunc reductions the array methods call: NumPy's methods and functions add Python
# frames of NumPy's own, which its floating-point warnings would name)
def _reduce_sum(xp, x, *, axes):
    return xp.add.reduce(x, axis=axes, dtype=x.dtype)


def _reduce_prod(xp, x, *, axes):
    return xp.multiply.reduce(x, axis=axes, dtype=x.dtype)


def _extremum(ufunc_name, kind):
    def impl(xp, x, *, axes):
        if any(x.shape[a] == 0 for a in axes):
            shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
            return xp.full(shape, reduction_identity(kind, x.dtype), dtype=x.dtype)
        return getattr(xp, ufunc_name).reduce(x, axis=axes)

    return impl


def _bitwise(ufunc_name, bool_impl):
    def impl(xp, x, *, axes):
        if x.dtype == bool:
            return bool_impl(xp, x, axes)
        return getattr(xp, ufunc_name).reduce(x, axis=axes, dtype=x.dtype)

    return impl


def _parity(xp, x, axes):
    return xp.sum(x, axis=axes, dtype=xp.int64) % 2 == 1


def _argminmax(fname):
    def impl(xp, x, *, axes, index_dtype):
        # numpy.argmax/argmin return the first extremum and the first NaN, as lax specifies
        return getattr(x, fname)(axis=axes[0]).astype(index_dtype, copy=False)

    return impl


XP_IMPLS[lax.reduce_sum_p] = _reduce_sum
XP_IMPLS[lax.reduce_prod_p] = _reduce_prod
XP_IMPLS[lax.reduce_max_p] = _extremum("maximum", "max")
XP_IMPLS[lax.reduce_min_p] = _extremum("minimum", "min")
XP_IMPLS[lax.reduce_and_p] = _bitwise("bitwise_and",
                                      lambda xp, x, axes: xp.logical_and.reduce(x, axis=axes))
XP_IMPLS[lax.reduce_or_p] = _bitwise("bitwise_or",
                                     lambda xp, x, axes: xp.logical_or.reduce(x, axis=axes))
XP_IMPLS[lax.reduce_xor_p] = _bitwise("bitwise_xor", _parity)
XP_IMPLS[lax.argmax_p] = _argminmax("argmax")
XP_IMPLS[lax.argmin_p] = _argminmax("argmin")


# the same as the array's methods, by the ufunc reductions they call (NumPy's methods run
# Python frames of NumPy's own, which its warnings would name): no Python frame in a replay
PARAM_KERNELS[lax.reduce_sum_p] = (
    lambda xp, x, *, axes: functools.partial(xp.add.reduce, axis=axes, dtype=x.dtype))
PARAM_KERNELS[lax.reduce_prod_p] = (
    lambda xp, x, *, axes: functools.partial(xp.multiply.reduce, axis=axes, dtype=x.dtype))


def _extremum_kernel(ufunc_name):
    def kernel(xp, x, *, axes):
        return None if any(x.shape[a] == 0 for a in axes) else \
            functools.partial(getattr(xp, ufunc_name).reduce, axis=axes)

    return kernel


def _bitwise_kernel(ufunc_name, bool_ufunc):
    def kernel(xp, x, *, axes):
        if x.dtype == bool:
            return functools.partial(getattr(xp, bool_ufunc).reduce, axis=axes) \
                if bool_ufunc else None
        return functools.partial(getattr(xp, ufunc_name).reduce, axis=axes, dtype=x.dtype)

    return kernel


def _argminmax_kernel(fname):
    def kernel(xp, x, *, axes, index_dtype):
        # NumPy's index dtype is intp: its result needs no conversion
        if index_dtype != np.intp:
            return None
        return operator.methodcaller(fname, axis=axes[0])

    return kernel


PARAM_KERNELS[lax.reduce_max_p] = _extremum_kernel("maximum")
PARAM_KERNELS[lax.reduce_min_p] = _extremum_kernel("minimum")
PARAM_KERNELS[lax.reduce_and_p] = _bitwise_kernel("bitwise_and", "logical_and")
PARAM_KERNELS[lax.reduce_or_p] = _bitwise_kernel("bitwise_or", "logical_or")
PARAM_KERNELS[lax.reduce_xor_p] = _bitwise_kernel("bitwise_xor", None)
PARAM_KERNELS[lax.argmax_p] = _argminmax_kernel("argmax")
PARAM_KERNELS[lax.argmin_p] = _argminmax_kernel("argmin")
