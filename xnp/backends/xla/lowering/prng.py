"""Lowering of ``threefry2x32`` (``xnp.lax.prng``) as plain StableHLO integer ops
(``add``, ``xor``, ``shift_left``, ``shift_right_logical``, ``or`` on ui32), so the
bits equal the eager implementation's. Constants are rank-0 and broadcast once each."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import lowering
from xnp.lax.prng import threefry2x32_rounds

__all__: list = []


@lowering(lax.threefry2x32_p)
def _lower_threefry2x32(ctx, k1, k2, x1, x2):
    operands = ctx.broadcast_operands(k1, k2, x1, x2)
    out_aval = ctx.avals_out[0]
    shape = out_aval.shape
    consts: dict = {}

    def const(c: int):
        if c not in consts:
            consts[c] = ctx.broadcast_in_dim(ctx.constant(np.uint32(c)), shape, ())
        return consts[c]

    def binop(name):
        return lambda a, b: ctx.op(name, [a, b], out_aval)

    shl, shr, or_ = (binop(f"stablehlo.{n}")
                     for n in ("shift_left", "shift_right_logical", "or"))

    def rotate_left(v, r: int):
        return or_(shl(v, const(r)), shr(v, const(32 - r)))

    out1, out2 = threefry2x32_rounds(*operands, add=binop("stablehlo.add"),
                                     xor=binop("stablehlo.xor"), rotate_left=rotate_left,
                                     const=const)
    return [out1, out2]
