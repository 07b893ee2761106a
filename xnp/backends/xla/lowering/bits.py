"""Lowering rules of the bit-level primitives (``xnp.lax.bits``): one StableHLO op each,
except ``nextafter``, which is integer arithmetic on the bits: ``chlo.next_after``
compares floats, and XLA's CPU compares treat subnormals as zero (it gives -0.0 for
``nextafter(smallest subnormal, -0.0)``, where C and NumPy give +0.0)."""

import ml_dtypes
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


def _largest_non_nan_bits(dtype: np.dtype, idt: np.dtype) -> np.ndarray:
    """The bits of ``dtype``'s largest non-NaN magnitude: inf's, or the largest finite
    value's for a type without inf (float8_e4m3fn); larger magnitudes are NaNs."""
    top = np.array(ml_dtypes.finfo(dtype).max, dtype).view(idt)
    if np.isinf(np.array(top + 1, idt).view(dtype).astype(np.float32)):
        top = top + 1
    return np.asarray(top, idt)


def nextafter(x1, x2):
    """C's ``nextafter`` on the bits: a step of one ulp away from or towards zero; from
    ±0 the smallest subnormal with ``x2``'s sign; ``x2`` where equal; NaN if either is.
    Every test is on the integer bits: XLA's CPU float compares treat subnormals as 0."""
    idt = np.dtype(f"i{x1.dtype.itemsize}")
    magnitude_mask = np.asarray(np.iinfo(idt).max, idt)
    top_bits = _largest_non_nan_bits(x1.dtype, idt)
    zero, one = np.asarray(0, idt), np.asarray(1, idt)
    b1, b2 = lax.bitcast_convert_type(x1, idt), lax.bitcast_convert_type(x2, idt)
    m1, m2 = lax.and_(b1, magnitude_mask), lax.and_(b2, magnitude_mask)
    # a key ordered as the floats are (-0 and +0 equal)
    key1 = lax.select(lax.lt(b1, zero), lax.neg(m1), m1)
    key2 = lax.select(lax.lt(b2, zero), lax.neg(m2), m2)
    away = lax.eq(lax.gt(key2, key1), lax.gt(key1, zero))  # the magnitude grows
    stepped = lax.select(away, lax.add(b1, one), lax.sub(b1, one))
    sign_of_x2 = lax.and_(b2, lax.not_(magnitude_mask))
    stepped = lax.select(lax.eq(m1, zero), lax.or_(sign_of_x2, one), stepped)
    out = lax.select(lax.eq(key1, key2), x2, lax.bitcast_convert_type(stepped, x1.dtype))
    is_nan = lax.or_(lax.gt(m1, top_bits), lax.gt(m2, top_bits))
    return lax.select(is_nan, lax.add(x1, x2), out)


lowering(lax.nextafter_p)(lower_via_lax(nextafter, upcast=False))


@lowering(lax.reduce_precision_p)
def _lower_reduce_precision(ctx, x, *, exponent_bits, mantissa_bits):
    return [ctx.op("stablehlo.reduce_precision", [x],
                   attrs=f"exponent_bits = {exponent_bits} : i32, "
                         f"mantissa_bits = {mantissa_bits} : i32")]
