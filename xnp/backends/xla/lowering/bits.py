"""Lowering rules of the bit-level primitives (``xnp.lax.bits``): one StableHLO op each,
except ``nextafter``, which is integer arithmetic on the bits: ``chlo.next_after``
compares floats, and XLA's CPU compares treat subnormals as zero (it gives -0.0 for
``nextafter(smallest subnormal, -0.0)``, where C and NumPy give +0.0)."""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import lowering
from xnp.backends.xla.lowering.special_series import lower_via_lax

__all__ = ["nextafter"]


def _op(name):
    def rule(ctx, *xs):
        return [ctx.op(name, ctx.broadcast_operands(*xs))]

    return rule


for _prim, _name in [(lax.population_count_p, "stablehlo.popcnt"),
                     (lax.clz_p, "stablehlo.count_leading_zeros")]:
    lowering(_prim)(_op(_name))


def nextafter(x1, x2):
    """C's ``nextafter`` on the bits: a step of one ulp towards ``x2`` (down in magnitude
    where ``x2`` is smaller in magnitude or of the other sign); from ±0 the smallest
    subnormal with ``x2``'s sign; ``x2`` where equal (``-0.0`` equals ``0.0``); NaN if
    either is. Equality and zero are tested on the integer bits: XLA's CPU float
    compares treat subnormals as 0 (a NaN stays unequal to itself)."""
    idt = np.dtype(f"i{x1.dtype.itemsize}")
    magnitude_mask = np.asarray(np.iinfo(idt).max, idt)
    zero, one = np.asarray(0, idt), np.asarray(1, idt)
    b1, b2 = lax.bitcast_convert_type(x1, idt), lax.bitcast_convert_type(x2, idt)
    m1, m2 = lax.and_(b1, magnitude_mask), lax.and_(b2, magnitude_mask)
    toward_zero = lax.or_(lax.gt(m1, m2), lax.lt(lax.xor(b1, b2), zero))
    stepped = lax.add(b1, lax.select(toward_zero, np.full(x1.shape, -1, idt),
                                     np.full(x1.shape, 1, idt)))
    from_zero = lax.or_(lax.and_(b2, lax.not_(magnitude_mask)), one)
    stepped = lax.select(lax.eq(m1, zero), from_zero, stepped)
    equal = lax.or_(lax.eq(b1, b2), lax.eq(lax.or_(m1, m2), zero))
    out = lax.bitcast_convert_type(lax.select(equal, b2, stepped), x1.dtype)
    is_nan = lax.or_(lax.ne(x1, x1), lax.ne(x2, x2))
    return lax.select(is_nan, lax.add(x1, x2), out)


lowering(lax.nextafter_p)(lower_via_lax(nextafter, upcast=False))


@lowering(lax.reduce_precision_p)
def _lower_reduce_precision(ctx, x, *, exponent_bits, mantissa_bits):
    return [ctx.op("stablehlo.reduce_precision", [x],
                   attrs=f"exponent_bits = {exponent_bits} : i32, "
                         f"mantissa_bits = {mantissa_bits} : i32")]
