"""xp implementation of ``threefry2x32`` (``xnp.lax.prng``): vectorised uint32 arithmetic,
which wraps modulo 2**32 as the cipher needs. Operands are broadcast and flattened to
1-d first, so NumPy never computes on (warning-raising) scalars."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.lax.prng import threefry2x32_rounds

__all__: list = []

_U32 = np.uint32


def _rotate_left(xp, v, r: int):
    return xp.bitwise_or(xp.left_shift(v, _U32(r)), xp.right_shift(v, _U32(32 - r)))


def _threefry2x32(xp, k1, k2, x1, x2):
    arrays = xp.broadcast_arrays(k1, k2, x1, x2)
    shape = arrays[0].shape
    flat = [a.reshape(-1) for a in arrays]
    out1, out2 = threefry2x32_rounds(
        *flat, add=xp.add, xor=xp.bitwise_xor,
        rotate_left=lambda v, r: _rotate_left(xp, v, r), const=_U32)
    return [out1.reshape(shape), out2.reshape(shape)]


XP_IMPLS[lax.threefry2x32_p] = _threefry2x32
