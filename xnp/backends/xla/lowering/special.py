"""Lowering rules of the special functions: CHLO ops (XLA expands them); the functions
CHLO lacks, and ``polygamma``, are in :mod:`xnp.backends.xla.lowering.special_series`.

Where CHLO's value at a pole or an infinity differs from SciPy's (the eager oracle), a
select gives SciPy's:

* ``digamma(±0)``: ``∓inf`` (CHLO: NaN);
* ``zeta(x, q)`` at ``q`` a non-positive integer (±0 and -inf included) and ``x`` not
  below 1 (NaN included): inf; ``zeta(x > 1, inf) = 0``; ``zeta(inf, 1) = 1``;
  ``zeta(inf, q)`` for ``0 < q < 1`` or ``q < 0``: inf (CHLO: NaN for all of these);
  ``zeta(x < 1, q)``: NaN (CHLO: inf at some poles, e.g. ``zeta(0, 0)``).
"""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import comparison_type, float8_via_float32, lowering

__all__: list = []


def _chlo(name):
    def rule(ctx, *xs):
        return [ctx.op(name, ctx.broadcast_operands(*xs))]

    return rule


for _prim, _name in [(lax.erf_p, "chlo.erf"), (lax.erfc_p, "chlo.erfc"),
                     (lax.erf_inv_p, "chlo.erf_inv"), (lax.lgamma_p, "chlo.lgamma"),
                     (lax.bessel_i1e_p, "chlo.bessel_i1e")]:
    lowering(_prim)(float8_via_float32(_chlo(_name)))  # XLA cannot expand these for float8


class _Ops:
    """Small elementwise helpers on Values of the equation's output shape."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.aval = ctx.avals_out[0].update(weak_type=False)

    def const(self, value):
        c = self.ctx.constant(np.asarray(value, self.aval.dtype))
        return self.ctx.broadcast_in_dim(c, self.aval.shape, ())

    def cmp(self, a, b, direction):
        return self.ctx.op("stablehlo.compare", [a, b], self.aval.update(dtype=np.dtype(bool)),
                           f"comparison_direction = #stablehlo<comparison_direction "
                           f"{direction}>, compare_type = #stablehlo<comparison_type "
                           f"{comparison_type(self.aval.dtype)}>")

    def and_(self, *masks):
        out = masks[0]
        for m in masks[1:]:
            out = self.ctx.op("stablehlo.and", [out, m], m.aval)
        return out

    def select(self, mask, a, b):
        return self.ctx.op("stablehlo.select", [mask, a, b], self.aval)


@lowering(lax.digamma_p)
def _lower_digamma(ctx, x):
    o = _Ops(ctx)
    out = ctx.op("chlo.digamma", [x])
    # -1 / ±0 is ∓inf
    pole = ctx.op("stablehlo.divide", [o.const(-1), x])
    return [o.select(o.cmp(x, o.const(0), "EQ"), pole, out)]


@lowering(lax.zeta_p)
def _lower_zeta(ctx, x, q):
    x, q = ctx.broadcast_operands(x, q)
    o = _Ops(ctx)
    out = ctx.op("chlo.zeta", [x, q])
    inf, one, zero = o.const(np.inf), o.const(1), o.const(0)
    x_gt_1, x_inf = o.cmp(x, one, "GT"), o.cmp(x, inf, "EQ")
    q_integer = o.cmp(ctx.op("stablehlo.floor", [q]), q, "EQ")
    out = o.select(o.and_(x_gt_1, o.cmp(q, inf, "EQ")), zero, out)
    out = o.select(o.and_(x_inf, o.cmp(q, one, "EQ")), one, out)
    out = o.select(o.and_(x_inf, o.cmp(q, zero, "GT"), o.cmp(q, one, "LT")), inf, out)
    out = o.select(o.and_(x_inf, o.cmp(q, zero, "LT")), inf, out)
    # SciPy tests the pole before looking at x (only x < 1 is NaN first): also x = NaN
    below_1 = o.cmp(x, one, "LT")
    not_below_1 = ctx.op("stablehlo.not", [below_1], below_1.aval)
    pole = o.and_(not_below_1, o.cmp(q, zero, "LE"), q_integer)
    # x < 1 is NaN (CHLO: inf for some x < 1 at a pole q, e.g. zeta(0, 0))
    return [o.select(below_1, o.const(np.nan), o.select(pole, inf, out))]
