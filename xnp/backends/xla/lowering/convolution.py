"""Lowering of ``conv_general_dilated`` to ``stablehlo.convolution``.

``precision_config`` is HIGHEST unless the equation gives a precision (NumPy-exact
float32 on accelerators). The operands are converted to the accumulator dtype
first (``conv_accumulation_dtype``), so eager and compiled results agree: floats
narrower than 32 bits compute in float32 and round once; otherwise
``preferred_element_type`` (or the operand dtype).
Results with a zero-sized dimension are a broadcast zero (no convolution op).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import i64_array, lowering
from xnp.lax.convolution import conv_accumulation_dtype

__all__ = []


def _dims(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _dimension_numbers_attr(dn) -> str:
    lspec, rspec, ospec = dn
    return ("#stablehlo.conv<raw "
            f"input_batch_dimension = {lspec[0]}, input_feature_dimension = {lspec[1]}, "
            f"input_spatial_dimensions = {_dims(lspec[2:])}, "
            f"kernel_input_feature_dimension = {rspec[1]}, "
            f"kernel_output_feature_dimension = {rspec[0]}, "
            f"kernel_spatial_dimensions = {_dims(rspec[2:])}, "
            f"output_batch_dimension = {ospec[0]}, output_feature_dimension = {ospec[1]}, "
            f"output_spatial_dimensions = {_dims(ospec[2:])}>")


@lowering(lax.conv_general_dilated_p)
def _lower_conv(ctx, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                dimension_numbers, feature_group_count, batch_group_count, precision=None,
                preferred_element_type=None):
    (out_aval,) = ctx.avals_out
    acc = conv_accumulation_dtype(out_aval.dtype)
    if out_aval.size == 0:
        return [ctx.broadcast_in_dim(ctx.constant(np.zeros((), out_aval.dtype)), out_aval.shape,
                                     ())]
    lhs, rhs = ctx.convert(lhs, acc), ctx.convert(rhs, acc)
    lp, rp = precision if precision is not None else ("HIGHEST", "HIGHEST")
    nsp = len(window_strides)
    rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
    window = (f"window_strides = {i64_array(window_strides)}, "
              f"padding = dense<[{rows}]> : tensor<{nsp}x2xi64>, "
              f"lhs_dilation = {i64_array(lhs_dilation)}, "
              f"rhs_dilation = {i64_array(rhs_dilation)}, ")
    attrs = ((window if nsp else "")  # (no spatial dims: an empty dense literal does not parse)
             + f"dimension_numbers = {_dimension_numbers_attr(dimension_numbers)}, "
             f"feature_group_count = {feature_group_count} : i64, "
             f"batch_group_count = {batch_group_count} : i64, "
             f"precision_config = [#stablehlo<precision {lp}>, #stablehlo<precision {rp}>]")
    out = ctx.op("stablehlo.convolution", [lhs, rhs], out_aval.update(dtype=acc), attrs=attrs)
    return [ctx.convert(out, out_aval.dtype)]
