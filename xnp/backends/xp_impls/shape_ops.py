"""xp implementations of the shape_ops primitives (``xnp.lax.shape_ops``).

Views where NumPy gives views (reshape, transpose, squeeze, rev, and a
``broadcast_in_dim`` that only inserts size-1 dims), so eager code keeps
NumPy's aliasing; new writable arrays otherwise (a growing broadcast is
materialised rather than returned as NumPy's read-only broadcast view).
"""

import functools
import operator

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS


def _broadcast_in_dim(xp, x, *, shape, broadcast_dimensions):
    inter = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        inter[d] = x.shape[i]
    v = x.reshape(inter)
    if tuple(inter) == tuple(shape):
        return v  # only size-1 dims inserted: a view, as numpy.expand_dims
    out = xp.empty(shape, dtype=x.dtype)  # (a broadcast assignment: a copy of the
    out[...] = v  # broadcast view, C-contiguous, in one pass and few Python frames)
    return out


def _reshape(xp, x, *, new_sizes, dimensions):
    if dimensions is not None:
        x = x.transpose(dimensions)
    return x.reshape(new_sizes)  # (the array methods: NumPy's functions add three frames)


def _iota(xp, *, dtype, shape, dimension):
    line = xp.arange(shape[dimension], dtype=xp.int64).astype(dtype, copy=False)
    if len(shape) == 1:
        return line
    inter = [1] * len(shape)
    inter[dimension] = shape[dimension]
    out = xp.empty(shape, dtype=line.dtype)
    out[...] = line.reshape(inter)
    return out


def _pad(xp, x, pv, *, padding_config):
    out_shape = []
    src, dst = [], []
    empty = False
    for (lo, hi, interior), n in zip(padding_config, x.shape):
        size = lo + hi + n + max(n - 1, 0) * interior
        out_shape.append(size)
        step = interior + 1
        # input element i lands at lo + i * step; keep those inside [0, size)
        first = 0 if lo >= 0 else (-lo + step - 1) // step
        last = min(n - 1, (size - 1 - lo) // step)
        empty = empty or last < first
        src.append(slice(first, last + 1))
        dst.append(slice(lo + first * step, lo + last * step + 1, step))
    out = xp.empty(out_shape, dtype=x.dtype)  # (numpy.full's steps, without its frames)
    out[...] = pv
    if not empty:
        out[tuple(dst)] = x[tuple(src)]
    return out


@functools.lru_cache(maxsize=256)
def _reversing(ndim: int, dimensions: tuple) -> tuple:
    """The basic index reversing ``dimensions`` of an ``ndim``-d array (``numpy.flip``'s
    view, without its axis normalisation on every call)."""
    return tuple(slice(None, None, -1) if d in dimensions else slice(None)
                 for d in range(ndim))


XP_IMPLS[lax.broadcast_in_dim_p] = _broadcast_in_dim
XP_IMPLS[lax.reshape_p] = _reshape
XP_IMPLS[lax.squeeze_p] = lambda xp, x, *, dimensions: xp.squeeze(x, axis=dimensions)
XP_IMPLS[lax.transpose_p] = lambda xp, x, *, permutation: x.transpose(permutation)
XP_IMPLS[lax.concatenate_p] = lambda xp, *xs, dimension: xp.concatenate(xs, axis=dimension)
XP_IMPLS[lax.iota_p] = _iota
XP_IMPLS[lax.rev_p] = lambda xp, x, *, dimensions: x[_reversing(x.ndim, dimensions)]
XP_IMPLS[lax.pad_p] = _pad
XP_IMPLS[lax.copy_p] = lambda xp, x: xp.array(x, copy=True)
# eagerly a sharding constraint only copies (arrays are laid out by xnp.device_put)
XP_IMPLS[lax.sharding_constraint_p] = lambda xp, x, *, sharding: xp.array(x, copy=True)


XP_IMPLS[lax.stop_gradient_p] = lambda xp, x: x  # the identity (a view, like NumPy's asarray)


def _reshape_kernel(xp, x, *, new_sizes, dimensions):
    # (the array's own method: a replayed view costs NumPy's call and no Python frame)
    return operator.methodcaller("reshape", new_sizes) if dimensions is None else None


def _broadcast_kernel(xp, x, *, shape, broadcast_dimensions):
    inter = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        inter[d] = x.shape[i]
    return operator.methodcaller("reshape", tuple(inter)) if tuple(inter) == tuple(shape) \
        else None


PARAM_KERNELS[lax.reshape_p] = _reshape_kernel
PARAM_KERNELS[lax.broadcast_in_dim_p] = _broadcast_kernel
PARAM_KERNELS[lax.transpose_p] = (
    lambda xp, x, *, permutation: operator.methodcaller("transpose", permutation))
PARAM_KERNELS[lax.squeeze_p] = (
    lambda xp, x, *, dimensions: operator.methodcaller("squeeze", axis=dimensions))
PARAM_KERNELS[lax.rev_p] = (
    lambda xp, x, *, dimensions: operator.itemgetter(_reversing(x.ndim, dimensions)))
PARAM_KERNELS[lax.copy_p] = lambda xp, x: operator.methodcaller("copy", order="K")
