"""Lowering of ``sharding_constraint`` to Shardy's ``sdy.sharding_constraint``."""

from __future__ import annotations

from xnp import lax
from xnp.backends.xla.lowering._core import lowering
from xnp.backends.xla.sharding import check_divisible

__all__: list[str] = []


@lowering(lax.sharding_constraint_p)
def _lower_sharding_constraint(ctx, x, *, sharding):
    mesh = getattr(ctx.module, "mesh", None)
    if mesh is None:
        # a module for one device (the eager XLA backend's one-equation programs): the
        # layout is trivially satisfied
        return [x]
    tile = sharding._tile(x.aval.ndim)
    if tile.mesh != mesh:
        raise ValueError(
            f"xnp.lax.with_sharding_constraint: {sharding!r} is over another mesh than the "
            "jitted function's other shardings; one program runs on one mesh.")
    check_divisible("xnp.lax.with_sharding_constraint", x.aval.shape, x.aval.dtype,
                    tile.hlo(), repr(sharding))
    return [ctx.op("sdy.sharding_constraint", [x], attrs=f"sharding = {tile.sdy_text()}")]
