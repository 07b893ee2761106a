"""In-place writes that XLA's CPU compiler would get wrong, found before lowering.

XLA writes a ``dynamic_update_slice`` (and a ``scatter``) into its operand's buffer in
place and fuses the computation of the update into the writing loop. When the operand
reached that buffer through a reshape (a bitcast of another array's buffer) and the
update reads the same memory, the fused loop can read elements it has already
overwritten: ``y = x.reshape(3, 4).copy(); y[1:] = y[:-1] + 1`` gave a wrong last row,
and JAX's own lowering of the same program gives the same wrong values. Such a write is
lowered without the in-place fusion (``LoweringRuleContext.write_hazard``; the rules in
``slicing.py``): the update is written into a buffer of its own, then selected into the
operand.
"""

from __future__ import annotations

from xnp import lax
from xnp.tracing.jaxpr import Jaxpr, Literal

__all__ = ["write_hazards"]

#: in-place writes: (the operand's position, the update's position) among their operands
_WRITES = {lax.dynamic_update_slice_p: (0, 1), lax.scatter_p: (0, 2),
           lax.scatter_add_p: (0, 2), lax.scatter_mul_p: (0, 2), lax.scatter_min_p: (0, 2),
           lax.scatter_max_p: (0, 2)}
#: operations XLA may turn into a bitcast of their operand's buffer (``broadcast_in_dim``
#: when it only adds axes of length 1)
_RESHAPES = frozenset({lax.reshape_p, lax.squeeze_p, lax.broadcast_in_dim_p})
#: operations whose result XLA may keep in their operand's buffer
_SAME_BUFFER = frozenset({lax.copy_p}) | _RESHAPES


def _buffer_classes(jaxpr: Jaxpr):
    """Union-find of the variables XLA may keep in one buffer (a reshape and its operand,
    a copy, an in-place write and its operand, a write of the whole operand and its
    update), and the classes joined by a reshape."""
    parent: dict = {}

    def find(v):
        root = v
        while parent.get(root, root) is not root:
            root = parent[root]
        while v is not root:  # (path compression)
            parent[v], v = root, parent.get(v, v)
        return root

    reshaped = set()

    def join(a, b, by_reshape):
        if isinstance(a, Literal) or isinstance(b, Literal):
            return
        ra, rb = find(a), find(b)
        if ra is not rb:
            parent[ra] = rb
            if ra in reshaped:
                reshaped.add(rb)
        if by_reshape:
            reshaped.add(rb)

    for eqn in jaxpr.eqns:
        prim = eqn.primitive
        if prim not in _SAME_BUFFER and prim not in _WRITES:
            continue
        out = eqn.outvars[0]
        if prim in _SAME_BUFFER:
            x = eqn.invars[0]
            if not isinstance(x, Literal) and x.aval.size == out.aval.size:
                join(x, out, prim in _RESHAPES)
        elif prim in _WRITES:
            op, up = (eqn.invars[i] for i in _WRITES[prim])
            join(op, out, False)
            if not isinstance(up, Literal) and up.aval.size == out.aval.size:
                join(up, out, False)  # (XLA replaces a write of the whole by its update)
    return find, reshaped


_MAX_VISITS = 20000  # an update whose computation is larger is treated as a hazard


def _reads(v, cls, find, producer) -> bool:
    """Whether computing ``v`` reads a variable of the buffer class ``cls``."""
    stack, seen = [v], set()
    while stack:
        u = stack.pop()
        if isinstance(u, Literal) or u in seen:
            continue
        if find(u) is cls or len(seen) > _MAX_VISITS:
            return True
        seen.add(u)
        eqn = producer.get(u)
        if eqn is not None:
            stack.extend(eqn.invars)
    return False


def write_hazards(jaxpr: Jaxpr) -> set:
    """The in-place writes (equations) of ``jaxpr`` whose update reads memory that XLA may keep
    in the operand's buffer, where that buffer is also reached through a reshape."""
    find, reshaped = _buffer_classes(jaxpr)
    producer, hazards = {}, set()
    for eqn in jaxpr.eqns:
        pos = _WRITES.get(eqn.primitive)
        if pos is not None and not isinstance(eqn.invars[pos[0]], Literal):
            cls = find(eqn.invars[pos[0]])
            if cls in reshaped and _reads(eqn.invars[pos[1]], cls, find, producer):
                hazards.add(eqn)
        for o in eqn.outvars:
            producer[o] = eqn
    return hazards
