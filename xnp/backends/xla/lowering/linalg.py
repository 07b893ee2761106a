"""Lowering rules of the linear-algebra primitives.

``dot_general`` -> ``stablehlo.dot_general`` with ``precision_config`` HIGHEST by
default (NumPy-exact float32 products on accelerators, which would otherwise
use reduced-precision passes). Operands are converted to
``preferred_element_type`` first, so it is the accumulator type, as in the xp
implementation. bool products (OR of ANDs, ``numpy.dot``) are computed as int32
dots compared with 0.
"""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import lowering
from xnp.lax import _kit as kit

__all__ = []


def _dims(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


@lowering(lax.dot_general_p)
def _lower_dot_general(ctx, lhs, rhs, *, dimension_numbers, preferred_element_type,
                       precision=None):
    (lc, rc), (lb, rb) = dimension_numbers
    (out_aval,) = ctx.avals_out
    fields = []
    if lb:
        fields += [f"lhs_batching_dimensions = {_dims(lb)}",
                   f"rhs_batching_dimensions = {_dims(rb)}"]
    if lc:
        fields += [f"lhs_contracting_dimensions = {_dims(lc)}",
                   f"rhs_contracting_dimensions = {_dims(rc)}"]
    lp, rp = precision if precision is not None else ("HIGHEST", "HIGHEST")
    attrs = (f"dot_dimension_numbers = #stablehlo.dot<{', '.join(fields)}>, "
             f"precision_config = [#stablehlo<precision {lp}>, #stablehlo<precision {rp}>]")
    boolean = out_aval.dtype in kit.BOOL
    acc = np.dtype(np.int32) if boolean else out_aval.dtype
    lhs = ctx.convert(lhs, acc)
    rhs = ctx.convert(rhs, acc)
    out = ctx.op("stablehlo.dot_general", [lhs, rhs], out_aval.update(dtype=acc), attrs=attrs)
    if boolean:
        zero = ctx.broadcast_in_dim(ctx.constant(0, acc), out_aval.shape, ())
        cmp = ("comparison_direction = #stablehlo<comparison_direction NE>, "
               "compare_type = #stablehlo<comparison_type SIGNED>")
        out = ctx.op("stablehlo.compare", [out, zero], out_aval, attrs=cmp)
    return [out]
