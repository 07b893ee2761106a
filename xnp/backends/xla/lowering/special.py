"""Lowering rules of the special functions: CHLO ops (XLA expands them)."""

from xnp import lax
from xnp.backends.xla.lowering._core import lowering


def _chlo(name):
    def rule(ctx, x):
        return [ctx.op(name, [x])]

    return rule


for _prim, _name in [(lax.erf_p, "chlo.erf"), (lax.erfc_p, "chlo.erfc"),
                     (lax.erf_inv_p, "chlo.erf_inv"), (lax.lgamma_p, "chlo.lgamma"),
                     (lax.digamma_p, "chlo.digamma"), (lax.bessel_i1e_p, "chlo.bessel_i1e")]:
    lowering(_prim)(_chlo(_name))
