"""``sharding_constraint``: pin a traced value's layout on the device mesh.

The ``sharding`` param is an ``xnp.sharding`` object (hashable; lax only passes it on).
Under ``jit`` the value is constrained to that layout in the SPMD program XLA
partitions; eagerly (and on the NumPy backend) the value is copied unchanged.
"""

from __future__ import annotations

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.tracing import Array

__all__ = ["with_sharding_constraint", "sharding_constraint_p"]


def _sharding_constraint_transpose(ct, x, *, sharding):
    return [sharding_constraint_p.bind(ct, sharding=sharding)]


def _sharding_constraint_batch(vals, dims, *, sharding):
    (x,), (d,) = vals, dims
    batched = getattr(sharding, "_with_batch_dim", None)
    if batched is None:
        raise NotImplementedError(
            f"xnp.vmap of xnp.lax.with_sharding_constraint with {sharding!r}: only a "
            "NamedSharding can take the batch dimension (it is left unsplit).")
    return sharding_constraint_p.bind(x, sharding=batched(d)), d


sharding_constraint_p = kit.primitive(
    "sharding_constraint", linear=True, shape=lambda x, *, sharding: x.shape,
    dtype=lambda x, *, sharding: x.dtype,
    transpose=R.zero_ct_passthrough(_sharding_constraint_transpose),
    jvp=R.linear_unary_jvp, batch=_sharding_constraint_batch)


def with_sharding_constraint(x: Array, sharding) -> Array:
    """``x``, laid out by ``sharding`` (an ``xnp.sharding.NamedSharding``) from here on in
    the jitted program: XLA's partitioner places it so, and propagates the layout to the
    computations around it. Values are unchanged; outside ``jit`` the result is a copy
    of ``x``. Differentiable (the cotangent gets the same constraint) and batchable
    (the batch dimension is not split).

    Raises
    ------
    TypeError
        ``sharding`` is not an ``xnp.sharding`` sharding.
    ValueError
        The spec is longer than ``x``'s rank, or under ``jit`` a dimension it splits is
        not divisible by its number of shards.
    """
    if not hasattr(sharding, "_tile"):
        raise TypeError("xnp.lax.with_sharding_constraint: `sharding` must be an "
                        f"xnp.sharding.NamedSharding, got {type(sharding).__name__}.")
    return sharding_constraint_p.bind(x, sharding=sharding)
