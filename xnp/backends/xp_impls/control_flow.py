"""Eager rules of the control-flow primitives (``cond``, ``while``, ``scan``).

They are ``Primitive.impl`` rules, not ``XP_IMPLS`` entries: they evaluate the body
jaxprs with ``eval_jaxpr`` on xnp arrays, so each body equation runs through the eager
backend in use (NumPy or CuPy alike), and each output keeps the weak type its aval
says (the xp table computes one weak flag for all outputs of a primitive).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax.control_flow import common
from xnp.tracing import core
from xnp.tracing.jaxpr import eval_jaxpr

__all__: list = []


def _operands(avals, args):
    return [common.as_operand(a, av) for a, av in zip(args, avals)]


def _with_avals(outs, avals):
    """Outputs as Arrays whose weak flags are exactly the avals'."""
    res = []
    for o, a in zip(outs, avals):
        o = common.as_operand(o, a)
        if type(o) is core.Array and o.weak_type != a.weak_type:
            o = core.Array(o._value, a.weak_type)
        res.append(o)
    return res


def _cond_impl(*args, branches):
    staged = common.redirect(lax.cond_p, args, {"branches": branches})
    if staged is not None:
        return staged
    index = int(np.asarray(common.as_operand(args[0])._value))
    index = min(max(index, 0), len(branches) - 1)  # out-of-range indices are clamped
    branch = branches[index]
    ops = _operands(branch.in_avals, args[1:])
    outs = eval_jaxpr(branch.jaxpr, branch.consts, *ops)
    out_avals = [a.update(weak_type=all(b.out_avals[i].weak_type for b in branches))
                 for i, a in enumerate(branch.out_avals)]
    return _with_avals(outs, out_avals)


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                  body_nconsts=body_nconsts)
    staged = common.redirect(lax.while_p, args, params)
    if staged is not None:
        return staged
    ncc, nbc = cond_nconsts, body_nconsts
    avals = list(cond_jaxpr.in_avals[:ncc]) + list(body_jaxpr.in_avals)
    vals = _operands(avals, args)
    cc, bc, carry = vals[:ncc], vals[ncc:ncc + nbc], vals[ncc + nbc:]
    while bool(eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cc, *carry)[0]):
        carry = eval_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, *bc, *carry)
    return _with_avals(carry, body_jaxpr.in_avals[nbc:])


def _stack(ys, aval, length):
    """``ys`` (one value per iteration, in index order) stacked on a new leading axis."""
    shape = (length,) + aval.shape
    if length == 0:
        return lax.broadcast_in_dim(np.zeros((), aval.dtype), shape, ())
    parts = [lax.broadcast_in_dim(y, (1,) + aval.shape, tuple(range(1, len(shape))))
             for y in ys]
    return lax.concatenate(parts, 0)


def _scan_impl(*args, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    params = dict(jaxpr=jaxpr, length=length, reverse=reverse, num_consts=num_consts,
                  num_carry=num_carry, unroll=unroll, linear=linear)
    staged = common.redirect(lax.scan_p, args, params)
    if staged is not None:
        return staged
    nc, ncar = num_consts, num_carry
    in_avals = jaxpr.in_avals
    consts = _operands(in_avals[:nc], args[:nc])
    carry = _operands(in_avals[nc:nc + ncar], args[nc:nc + ncar])
    xs = [common.as_operand(x) for x in args[nc + ncar:]]
    y_avals = jaxpr.out_avals[ncar:]
    ys = [[None] * length for _ in y_avals]
    steps = range(length - 1, -1, -1) if reverse else range(length)
    for i in steps:
        x_i = [lax.index_in_dim(x, i, 0, keepdims=False) for x in xs]
        outs = eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *consts, *carry, *x_i)
        carry = outs[:ncar]
        for j, y in enumerate(outs[ncar:]):
            ys[j][i] = y
    carry = _with_avals(carry, in_avals[nc:nc + ncar])
    stacked = [_stack(_with_avals(y, [a] * length), a, length) for y, a in zip(ys, y_avals)]
    return carry + _with_avals(stacked, [a.update(shape=(length,) + a.shape) for a in y_avals])


lax.cond_p.impl = _cond_impl
lax.while_p.impl = _while_impl
lax.scan_p.impl = _scan_impl
