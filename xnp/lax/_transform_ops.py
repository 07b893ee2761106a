"""The lax operations the AD and batching traces need (:mod:`xnp.tracing`, which may not
import lax, is handed them by ``xnp._wiring.connect``): tangent addition, zeros of an
aval, conversion to an aval, moving a batch axis, broadcasting an unbatched value along a
new axis and summing over one."""

from __future__ import annotations

import numpy as np

from xnp.lax import elementwise, reductions, shape_ops
from xnp.tracing import ShapedArray, core

__all__ = ["add_any", "zeros", "convert", "moveaxis", "broadcast_along", "sum_axis"]


def add_any(x, y):
    """Sum of two tangents/cotangents of one aval (bool-free: tangents are inexact or ints)."""
    return elementwise.add(x, y)


def zeros(aval: ShapedArray):
    """Zeros of ``aval`` (a broadcast literal, so it costs nothing to stage)."""
    return shape_ops.broadcast_in_dim(np.zeros((), aval.dtype), aval.shape, ())


def convert(x, aval: ShapedArray):
    """``x`` with ``aval``'s dtype and weak type."""
    return elementwise.convert_element_type(x, aval.dtype, aval.weak_type)


def moveaxis(x, src: int, dst: int):
    nd = core.aval_of(x).ndim
    perm = list(range(nd))
    perm.pop(src)
    perm.insert(dst, src)
    return shape_ops.transpose(x, tuple(perm))


def broadcast_along(x, size: int, axis: int):
    a = core.aval_of(x)
    shape = list(a.shape)
    shape.insert(axis, size)
    dims = tuple(i for i in range(len(shape)) if i != axis)
    return shape_ops.broadcast_in_dim(x, tuple(shape), dims)


def sum_axis(x, axis: int):
    """Sum over one axis (the transpose of ``broadcast_along``)."""
    return reductions.reduce_sum(x, (axis,))
