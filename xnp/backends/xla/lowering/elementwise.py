"""Lowering rules of the elementwise primitives."""

from xnp import lax
from xnp.backends.xla.lowering._core import comparison_type, lowering


def _nary(hlo_name):
    def rule(ctx, *xs, **params):
        return [ctx.op(hlo_name, ctx.broadcast_operands(*xs))]

    return rule


for _prim, _name in [
    (lax.add_p, "stablehlo.add"),
    (lax.sub_p, "stablehlo.subtract"),
    (lax.mul_p, "stablehlo.multiply"),
    (lax.neg_p, "stablehlo.negate"),
]:
    lowering(_prim)(_nary(_name))


def _compare(direction):
    def rule(ctx, x, y):
        x, y = ctx.broadcast_operands(x, y)
        attrs = (f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
                 f"compare_type = #stablehlo<comparison_type {comparison_type(x.aval.dtype)}>")
        return [ctx.op("stablehlo.compare", [x, y], attrs=attrs)]

    return rule


lowering(lax.gt_p)(_compare("GT"))


@lowering(lax.convert_element_type_p)
def _lower_convert(ctx, x, *, new_dtype, weak_type):
    return [ctx.op("stablehlo.convert", [x])]
