"""Lowering rules of the shape_ops primitives (``xnp.lax.shape_ops``)."""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import i64_array, lowering


@lowering(lax.broadcast_in_dim_p)
def _lower_broadcast_in_dim(ctx, x, *, shape, broadcast_dimensions):
    attrs = f"broadcast_dimensions = {i64_array(broadcast_dimensions)}"
    return [ctx.op("stablehlo.broadcast_in_dim", [x], attrs=attrs)]


@lowering(lax.reshape_p)
def _lower_reshape(ctx, x, *, new_sizes, dimensions):
    if dimensions is not None:
        aval = x.aval.update(shape=tuple(x.aval.shape[d] for d in dimensions))
        x = ctx.op("stablehlo.transpose", [x], aval, f"permutation = {i64_array(dimensions)}")
    return [ctx.op("stablehlo.reshape", [x])]


@lowering(lax.squeeze_p)
def _lower_squeeze(ctx, x, *, dimensions):
    return [ctx.op("stablehlo.reshape", [x])]


@lowering(lax.transpose_p)
def _lower_transpose(ctx, x, *, permutation):
    return [ctx.op("stablehlo.transpose", [x], attrs=f"permutation = {i64_array(permutation)}")]


@lowering(lax.concatenate_p)
def _lower_concatenate(ctx, *xs, dimension):
    return [ctx.op("stablehlo.concatenate", list(xs), attrs=f"dimension = {dimension} : i64")]


@lowering(lax.iota_p)
def _lower_iota(ctx, *, dtype, shape, dimension):
    (out,) = ctx.avals_out
    attrs = f"iota_dimension = {dimension} : i64"
    if dtype.kind != "c":
        return [ctx.op("stablehlo.iota", [], attrs=attrs)]
    # complex: iota of the real component type, then convert (imaginary part 0)
    real = out.update(dtype=np.dtype(np.float32 if dtype.itemsize == 8 else np.float64))
    return [ctx.convert(ctx.op("stablehlo.iota", [], real, attrs), dtype)]


@lowering(lax.rev_p)
def _lower_rev(ctx, x, *, dimensions):
    return [ctx.op("stablehlo.reverse", [x], attrs=f"dimensions = {i64_array(dimensions)}")]


@lowering(lax.pad_p)
def _lower_pad(ctx, x, pv, *, padding_config):
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    attrs = (f"edge_padding_low = {i64_array(lo)}, edge_padding_high = {i64_array(hi)}, "
             f"interior_padding = {i64_array(interior)}")
    return [ctx.op("stablehlo.pad", [x, pv], attrs=attrs)]


@lowering(lax.copy_p)
def _lower_copy(ctx, x):
    # values are immutable inside a computation: a copy is the value itself
    return [x]


@lowering(lax.stop_gradient_p)
def _lower_stop_gradient(ctx, x):
    return [x]


@lowering(lax.runtime_warning_p)
@lowering(lax.runtime_error_p)
def _lower_check(ctx, condition, **params):
    # compiled code checks nothing (xnp.lax.checks): the identity
    return [condition]
