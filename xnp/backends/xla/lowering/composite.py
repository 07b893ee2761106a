"""The composite primitives have no lowering: outside eager evaluation ``bind`` runs the
decomposition (:mod:`xnp.lax.composite`), so a jaxpr never holds them."""

from xnp import lax
from xnp.backends.xla.lowering._core import UNSUPPORTED

for _p in (lax.composite_p, lax.composite_multi_p, lax.composite_general_p):
    UNSUPPORTED[_p] = ("never staged: under jit and every transformation bind runs the "
                       "composite's decomposition (xnp.lax.composite)")
del _p
