"""Op-table record of ``threefry2x32`` (``xnp.lax.prng``).

The reference is an independent scalar implementation on Python ints, written from
the Threefry-2x32 specification (Salmon et al. 2011, Random123's ``threefry.h``:
rotations R_32x2 = 13 15 26 6 17 29 16 24, key-schedule parity 0x1BD11BDA, a key
injection every 4 rounds), itself checked against Random123's known-answer vectors
in ``tests/test_random_keys.py``. Inputs are full-range uint32; shapes include the
lax broadcasting forms (rank-0 keys with array counters, size-1 dims).
"""

import numpy as np

from tests.helpers import SMALL_SHAPES, OpRecord
from xnp import lax

U32 = [np.dtype(np.uint32)]
_M = 0xFFFFFFFF
_ROT = (13, 15, 26, 6, 17, 29, 16, 24)


def threefry_scalar(k0: int, k1: int, c0: int, c1: int) -> tuple[int, int]:
    """Threefry-2x32, 20 rounds, on Python ints (Random123's threefry2x32_R(20, ...))."""
    ks = [k0, k1, 0x1BD11BDA ^ k0 ^ k1]
    x0, x1 = (c0 + ks[0]) & _M, (c1 + ks[1]) & _M
    for rnd in range(20):
        r = _ROT[rnd % 8]
        x0 = (x0 + x1) & _M
        x1 = ((x1 << r) | (x1 >> (32 - r))) & _M
        x1 ^= x0
        if rnd % 4 == 3:
            inj = rnd // 4 + 1
            x0 = (x0 + ks[inj % 3]) & _M
            x1 = (x1 + ks[(inj + 1) % 3] + inj) & _M
    return x0, x1


def threefry_reference(k0, k1, c0, c1):
    """Elementwise :func:`threefry_scalar` over broadcast uint32 arrays."""
    arrays = np.broadcast_arrays(k0, k1, c0, c1)
    out0 = np.empty(arrays[0].shape, np.uint32)
    out1 = np.empty(arrays[0].shape, np.uint32)
    for idx in np.ndindex(*out0.shape):
        out0[idx], out1[idx] = threefry_scalar(*(int(a[idx]) for a in arrays))
    return out0, out1


def full_range(rng, shape, dtype):
    return rng.integers(0, 2**32, size=shape, dtype=np.uint64).astype(dtype)


_BROADCAST = [((), (), (4,), (4,)), ((3, 1), (1, 1), (3, 4), (1, 4)), ((), (2,), (), (2,))]

RECORDS = [
    OpRecord("threefry2x32", lambda k0, k1, x0, x1: lax.threefry2x32(k0, k1, x0, x1),
             threefry_reference, 4, U32, shapes=list(SMALL_SHAPES) + _BROADCAST,
             sampler=full_range,
             errors=[
                 ((np.zeros(2, np.uint32), np.zeros(2, np.uint32), np.zeros(2, np.float32),
                   np.zeros(2, np.uint32)), TypeError, r"xnp\.lax\.threefry2x32: `x1` dtype"),
                 ((np.zeros(2, np.int32),) * 4, TypeError, r"xnp\.lax\.threefry2x32.*uint32"),
                 ((np.zeros(2, np.uint32), np.zeros(2, np.uint32), np.zeros(3, np.uint32),
                   np.zeros(3, np.uint32)), TypeError, r"xnp\.lax\.threefry2x32: incompatible"),
                 ((np.zeros(2, np.uint32), np.zeros(2, np.uint32), np.zeros((1, 2), np.uint32),
                   np.zeros(2, np.uint32)), TypeError, r"threefry2x32: operands must have equal "
                                                       r"ranks"),
             ]),
]
