"""The collectives of ``xnp.lax.parallel`` have no ``xp`` implementation: they run only
inside ``xnp.shard_map``, which always compiles through XLA (``shard_map_p.impl``)."""

from xnp import lax
from xnp.backends.xp_impls._table import UNSUPPORTED

__all__: list[str] = []

for _p in (lax.psum_p, lax.pmax_p, lax.pmin_p, lax.all_gather_p, lax.psum_scatter_p,
           lax.ppermute_p, lax.axis_index_p):
    UNSUPPORTED[_p] = ("a collective over mesh axes; it runs only inside xnp.shard_map, "
                       "which compiles through XLA")
del _p
