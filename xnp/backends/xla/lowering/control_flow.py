"""Lowering of the control-flow primitives to StableHLO regions.

* ``cond``  -> ``stablehlo.case`` on the clamped int32 index; each branch is a region
  without arguments that uses the operands from the enclosing scope and returns its
  outputs with ``stablehlo.return``. (``case`` alone would run the *last* branch for
  any out-of-range index, negative ones included; xnp clamps into ``[0, n)`` first so
  every backend agrees.)
* ``while`` -> ``stablehlo.while`` whose loop state is (cond consts, body consts,
  carry); the consts pass through unchanged.
* ``scan``  -> ``stablehlo.while`` over (counter, consts, carry, xs, ys buffers): each
  step ``dynamic_slice``s the ``xs`` at the iteration index (``length - 1 - i`` when
  ``reverse``), runs the body and ``dynamic_update_slice``s the ``ys``. ``unroll`` is
  a hint this lowering does not use.

Host callbacks (``io_callback``) inside a body or branch run in program order: the
enclosing function's token (``FunctionBuilder.token``) is carried through the loop
state as its last element, and every ``case`` branch takes it from the enclosing scope
and returns its own as an extra result. A ``while`` whose *condition* has callbacks
computes the predicate once before the loop and then at the end of each iteration,
carried in the state (a condition region cannot return a token), so the order is
cond, body, cond, ... as eagerly.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import TOKEN, i64_array, lower_jaxpr_body, lowering
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import has_effects

__all__: list = []

_I32 = ShapedArray((), np.dtype(np.int32))
_I64 = ShapedArray((), np.dtype(np.int64))
_PRED = ShapedArray((), np.dtype(np.bool_))


def _lt(b, x, y):
    attrs = ("comparison_direction = #stablehlo<comparison_direction LT>, "
             "compare_type = #stablehlo<comparison_type SIGNED>")
    return b.op("stablehlo.compare", [x, y], [_PRED], attrs)[0]


@lowering(lax.cond_p)
def _lower_cond(ctx, index, *ops, branches):
    n = len(branches)
    if n > 1:
        lo = ctx.constant(np.asarray(0, np.int32))
        hi = ctx.constant(np.asarray(n - 1, np.int32))
        index = ctx.op("stablehlo.clamp", [lo, index, hi], _I32)
    token = ctx.b.token if any(has_effects(br) for br in branches) else None
    regions = []
    for br in branches:
        def body(b, br=br):
            b.token = token
            outs = lower_jaxpr_body(b, br.jaxpr, [], list(ops))
            return outs if token is None else outs + [b.token]

        regions.append(ctx.region([], body))
    if token is None:
        return ctx.ops("stablehlo.case", [index], ctx.avals_out, regions=regions)
    outs = ctx.ops("stablehlo.case", [index], [*ctx.avals_out, TOKEN], regions=regions)
    ctx.b.token = outs[-1]
    return outs[:-1]


@lowering(lax.while_p)
def _lower_while(ctx, *args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    n = len(args)
    avals = [a.aval for a in args]
    cond_effects = has_effects(cond_jaxpr)
    effects = cond_effects or has_effects(body_jaxpr)
    state = list(args)
    if effects:
        if cond_effects:  # the first predicate, before the loop, in the callbacks' order
            (pred,) = lower_jaxpr_body(ctx.b, cond_jaxpr.jaxpr, [],
                                       list(args[:ncc]) + list(args[ncc + nbc:]))
            state += [ctx.b.token, pred]
        else:
            state.append(ctx.b.token)
    state_avals = [v.aval for v in state]

    def cond_region(b, *st):
        if cond_effects:
            return [st[-1]]
        cc, carry = st[:ncc], st[ncc + nbc:n]
        return lower_jaxpr_body(b, cond_jaxpr.jaxpr, [], list(cc) + list(carry))

    def body_region(b, *st):
        bc, carry = st[ncc:ncc + nbc], st[ncc + nbc:n]
        if effects:
            b.token = st[n]
        outs = lower_jaxpr_body(b, body_jaxpr.jaxpr, [], list(bc) + list(carry))
        new = list(st[:ncc + nbc]) + outs
        if cond_effects:
            (pred,) = lower_jaxpr_body(b, cond_jaxpr.jaxpr, [], list(st[:ncc]) + outs)
            return new + [b.token, pred]
        return new + [b.token] if effects else new

    results = ctx.ops("stablehlo.while", state, state_avals,
                      regions=[ctx.region(state_avals, cond_region),
                               ctx.region(state_avals, body_region)])
    if effects:
        ctx.b.token = results[n]
    return results[ncc + nbc:n]


@lowering(lax.scan_p)
def _lower_scan(ctx, *args, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    nc, ncar = num_consts, num_carry
    nx = len(args) - nc - ncar
    body_jaxpr = jaxpr.jaxpr
    y_avals = [a.strip_weak_type() for a in ctx.avals_out[ncar:]]
    ys_init = []
    for a in y_avals:
        zero = ctx.constant(np.zeros((), a.dtype))
        ys_init.append(ctx.broadcast_in_dim(zero, a.shape, ()) if a.shape else zero)
    if length == 0:  # no iteration (and no valid slice of the empty xs): init and empty ys
        return list(args[nc:nc + ncar]) + ys_init
    i0 = ctx.constant(np.asarray(0, np.int64))
    effects = has_effects(jaxpr)
    state = [i0] + list(args) + ys_init + ([ctx.b.token] if effects else [])
    avals = [v.aval for v in state]
    n_ys = len(ys_init)

    def cond_region(b, i, *rest):
        n = b.constant(np.asarray(length, np.int64))
        return [_lt(b, i, n)]

    def body_region(b, i, *rest):
        consts = list(rest[:nc])
        carry = list(rest[nc:nc + ncar])
        xs = rest[nc + ncar:nc + ncar + nx]
        ys = rest[nc + ncar + nx:nc + ncar + nx + n_ys]
        if effects:
            b.token = rest[-1]
        if reverse:
            last = b.constant(np.asarray(length - 1, np.int64))
            idx = b.op("stablehlo.subtract", [last, i], [_I64])[0]
        else:
            idx = i
        zero = b.constant(np.asarray(0, np.int64))
        x_slices = []
        for x in xs:
            shape = x.aval.shape
            sizes = (1,) + shape[1:]
            piece = b.op("stablehlo.dynamic_slice", [x, idx] + [zero] * (len(shape) - 1),
                         [x.aval.update(shape=sizes)], f"slice_sizes = {i64_array(sizes)}")[0]
            x_slices.append(b.op("stablehlo.reshape", [piece],
                                 [x.aval.update(shape=shape[1:])])[0])
        outs = lower_jaxpr_body(b, body_jaxpr, [], consts + carry + x_slices)
        new_carry, new_ys = outs[:ncar], outs[ncar:]
        updated = []
        for buf, y in zip(ys, new_ys):
            shape = buf.aval.shape
            y1 = b.op("stablehlo.reshape", [y], [y.aval.update(shape=(1,) + shape[1:])])[0]
            updated.append(b.op("stablehlo.dynamic_update_slice",
                                [buf, y1, idx] + [zero] * (len(shape) - 1), [buf.aval])[0])
        one = b.constant(np.asarray(1, np.int64))
        i_next = b.op("stablehlo.add", [i, one], [_I64])[0]
        return ([i_next] + consts + list(new_carry) + list(xs) + updated
                + ([b.token] if effects else []))

    results = ctx.ops("stablehlo.while", state, avals,
                      regions=[ctx.region(avals, cond_region), ctx.region(avals, body_region)])
    if effects:
        ctx.b.token = results[-1]
    return results[1 + nc:1 + nc + ncar] + results[1 + nc + ncar + nx:1 + nc + ncar + nx + n_ys]
