"""Kits for transformation rules (jvp, transpose, batching), so each primitive's
rule is a line or two. Rules compute with lax functions only, so they trace
again under any enclosing transformation. This module imports no lax family (it is
the bottom layer); the kits that need shape ops (``bdim_to_front``, ``unbroadcast``,
``elementwise_batch``) live in :mod:`xnp.lax.shape_ops`.

Conventions (see :mod:`xnp.tracing.ad` and :mod:`xnp.tracing.batching`):

* ``jvp(primals, tangents, **params) -> (primal_out, tangent_out)``; a tangent
  may be ``Zero`` (symbolic).
* ``transpose(ct, *args, **params) -> list`` with ``UndefinedPrimal`` for linear
  arguments and None for the cotangents of non-linear ones.
* ``batch(vals, dims, **params) -> (out, out_dim)``.

A kit whose rule binds its own primitive again is a :class:`~xnp.tracing.core.for_primitive`
(``jvp=R.linear_unary_jvp``, ``jvp=R.defjvp(g0, g1)``): the declaration it is given to
makes the rule for the primitive being declared.
"""

from __future__ import annotations

import functools

from xnp.tracing import core
from xnp.tracing.core import for_primitive
from xnp.tracing.ad import UndefinedPrimal, Zero, add_tangents, instantiate, tangent_aval

__all__ = [
    "Zero", "UndefinedPrimal", "is_undefined", "instantiate", "add_tangents", "zero_like",
    "defjvp", "linear_unary_jvp", "linear_nary_jvp", "unary_batch",
    "reducer_batch", "aval", "zero_ct_passthrough",
    "shift_axes", "batch_size", "NON_DIFFERENTIABLE", "rule_kit", "for_primitive",
]

# A derivative JAX does not have either raises NotImplementedError saying the primitive
# "is not differentiable with respect to" the argument, with the reason; the op table's
# transform tests (tests/lax/test_transforms.py) skip on this phrase.
NON_DIFFERENTIABLE = "is not differentiable with respect to"


def rule_kit(make):
    """``make(prim, *args)`` as a kit: ``kit(*args)`` is the :class:`for_primitive` that
    makes the rule of the primitive declared with it."""

    @functools.wraps(make)
    def kit(*args, **kwargs) -> for_primitive:
        return for_primitive(lambda prim: make(prim, *args, **kwargs))

    return kit


def is_undefined(x) -> bool:
    return type(x) is UndefinedPrimal


def aval(x):
    return x.aval if type(x) in (UndefinedPrimal, Zero) else core.aval_of(x)


def zero_like(x) -> Zero:
    return Zero(tangent_aval(aval(x)))


def defjvp(*per_operand) -> for_primitive:
    """A jvp rule from one function per operand: ``g(t_i, *primals, **params)`` gives the
    output tangent's part from operand ``i`` (None: not differentiable in ``i``)."""
    return for_primitive(lambda prim: _defjvp(prim, per_operand))


def _defjvp(prim, per_operand):
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        total = Zero(tangent_aval(core.aval_of(out)))
        for g, t in zip(per_operand, tangents):
            if g is None or type(t) is Zero:
                continue
            total = add_tangents(total, g(t, *primals, **params))
        return out, total

    return jvp


@for_primitive
def linear_unary_jvp(prim):
    """jvp of a primitive linear in its (only) array operand: apply it to the tangent."""

    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        (t,) = tangents[:1]
        if type(t) is Zero:
            return out, Zero(tangent_aval(core.aval_of(out)))
        return out, prim.bind(t, *primals[1:], **params)

    return jvp


@for_primitive
def linear_nary_jvp(prim):
    """jvp of a primitive linear in all operands jointly (add, sub, concatenate):
    apply it to the tangents, zeros instantiated."""

    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if all(type(t) is Zero for t in tangents):
            return out, Zero(tangent_aval(core.aval_of(out)))
        ts = [instantiate(t) for t in tangents]
        return out, prim.bind(*ts, **params)

    return jvp


def zero_ct_passthrough(rule):
    """Wrap a transpose rule so that a symbolic-zero cotangent gives symbolic-zero
    cotangents to the linear operands (and None to the others) without calling it."""

    def transpose(ct, *args, **params):
        if type(ct) is Zero:
            return [zero_like(a) if is_undefined(a) else None for a in args]
        return rule(ct, *args, **params)

    transpose.__name__ = getattr(rule, "__name__", "transpose")
    transpose.__doc__ = rule.__doc__
    return transpose


# ----------------------------------------------------------------------------- batching


def shift_axes(axes, bdim: int) -> tuple[int, ...]:
    """``axes`` of an unbatched operand as axes of its batched value (batch axis at ``bdim``)."""
    return tuple(a + (a >= bdim) for a in axes)


def batch_size(vals, dims) -> int:
    """The batch size: the length of the first batched operand's batch axis."""
    return next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)


@for_primitive
def unary_batch(prim):
    """Batching of a primitive that maps each element/slice independently and keeps the
    batch axis where it is (elementwise unary ops)."""

    def batch(vals, dims, **params):
        return prim.bind(*vals, **params), dims[0]

    return batch


@for_primitive
def reducer_batch(prim):
    """Batching of a reduction with an ``axes`` param (reduce_*, argmax/argmin): the batch
    axis stays where it is and ``axes`` shift past it; the result's batch axis is the
    batch axis's position among the kept axes (no transpose is staged)."""

    def batch(vals, dims, *, axes, **params):
        (x,), (d,) = vals, dims
        new_axes = shift_axes(axes, d)
        out_dim = d - sum(1 for a in new_axes if a < d)
        return prim.bind(x, axes=new_axes, **params), out_dim

    return batch

