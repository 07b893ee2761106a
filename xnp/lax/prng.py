"""Counter-based random bits: the Threefry-2x32 block cipher as one primitive.

``threefry2x32(key1, key2, x1, x2)`` encrypts the counter pairs ``(x1, x2)`` with
the key ``(key1, key2)`` using 20 rounds of Threefry-2x32 (Salmon, Moraes, Dror,
Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011; the Random123
reference and JAX's ``threefry2x32_p``). Every operand is uint32; shapes follow
lax's elementwise rule (equal, or rank-0 / size-1 dims broadcast) and both
results have the broadcast shape. All arithmetic is modulo 2**32, so the bits
are identical on every backend (eager NumPy/CuPy, eager XLA, jit).

``iota_2x32_shape(shape)`` gives the row-major element index of an array of
``shape`` as a 64-bit number split into its high and low uint32 words, the
counters that ``xnp.random`` encrypts (JAX's ``iota_2x32_shape``).

Transformation rules: batching is elementwise; the primitive is not
differentiable (its outputs are integer bits).
"""

from __future__ import annotations

import math

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.tracing import Array, ShapedArray

__all__ = ["threefry2x32", "iota_2x32_shape", "threefry2x32_p"]
# `threefry2x32_rounds` (the cipher written once, used by the backends) is not re-exported

_UINT32 = np.dtype(np.uint32)
_UINT32_ONLY = frozenset({_UINT32})
_NAMES = ("key1", "key2", "x1", "x2")


# rotation constants of the two alternating groups of 4 rounds, and the key-schedule parity
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_KEY_PARITY = 0x1BD11BDA


def threefry2x32_rounds(k1, k2, x1, x2, *, add, xor, rotate_left, const):
    """The 20 rounds of Threefry-2x32 written once for every backend.

    ``add``/``xor`` are the backend's uint32 (wrapping) operations on two values,
    ``rotate_left(v, r)`` rotates by the Python int ``r`` and ``const(c)`` makes a
    uint32 constant usable with them. Operands already have the broadcast shape.
    Returns the two output words.
    """
    ks = (k1, k2, xor(xor(k1, k2), const(_KEY_PARITY)))
    v0, v1 = add(x1, ks[0]), add(x2, ks[1])
    for group in range(5):
        for r in _ROTATIONS[group % 2]:
            v0 = add(v0, v1)
            v1 = xor(v0, rotate_left(v1, r))
        # key injection after every 4 rounds: (ks[i+1], ks[i+2] + i + 1), indices mod 3
        v0 = add(v0, ks[(group + 1) % 3])
        v1 = add(v1, add(ks[(group + 2) % 3], const(group + 1)))
    return v0, v1


def _threefry2x32_shape(k1: ShapedArray, k2: ShapedArray, x1: ShapedArray, x2: ShapedArray):
    shape = kit.broadcast_shapes("threefry2x32", k1, k2, x1, x2)
    return [shape, shape]


def _threefry2x32_dtype(k1: ShapedArray, k2: ShapedArray, x1: ShapedArray, x2: ShapedArray):
    for name, a in zip(_NAMES, (k1, k2, x1, x2)):
        kit.check_dtype("threefry2x32", a, _UINT32_ONLY, f"`{name}`")
    return [_UINT32, _UINT32]


@R.for_primitive
def _threefry2x32_batch(prim):
    batch = shape_ops.elementwise_batch.make(prim)  # two results, one batch axis

    def rule(vals, dims):
        outs, d = batch(vals, dims)
        return outs, [d, d]

    return rule


threefry2x32_p = kit.primitive(
    "threefry2x32",
    shape=_threefry2x32_shape,
    dtype=_threefry2x32_dtype,
    weak_type=kit.never_weak,
    batch=_threefry2x32_batch,
    multiple_results=True,
    differentiable="threefry2x32 outputs integer random bits",
)


def threefry2x32(key1: Array, key2: Array, x1: Array, x2: Array) -> tuple[Array, Array]:
    """Threefry-2x32 (20 rounds) of the counters ``(x1, x2)`` under the key ``(key1, key2)``.

    All four operands are uint32 arrays (rank-0 and size-1 dims broadcast, lax's
    elementwise shape rule; no rank promotion). Returns the two uint32 output
    words, each of the broadcast shape. Bits are identical on every backend.

    Known answers (Random123 ``kat_vectors``): key ``(0, 0)``, counter ``(0, 0)``
    gives ``(0x6b200159, 0x99ba4efe)``.

    Raises
    ------
    TypeError
        An operand is not uint32, or the shapes do not broadcast (names the avals).
    """
    out1, out2 = threefry2x32_p.bind(key1, key2, x1, x2)
    return out1, out2


def _row_major_iota(dtype, shape):
    flat = shape_ops.iota(dtype, (math.prod(shape),))
    return flat if len(shape) == 1 else shape_ops.reshape(flat, shape)


def iota_2x32_shape(shape) -> tuple[Array, Array]:
    """The row-major flat index of each element of an array of ``shape`` as two uint32
    arrays ``(high word, low word)`` of that shape (a 64-bit iota, x64-independent).

    ``shape`` is a static tuple of ints (``()`` gives two 0-d zeros).

    Raises
    ------
    ValueError
        The array would have more than ``2**64`` elements.
    """
    shape = kit.int_tuple("iota_2x32_shape", "shape", shape)
    size = math.prod(shape)
    if size > 2**64:
        raise ValueError(f"xnp.lax.iota_2x32_shape: shape {shape} has more than 2**64 elements.")
    zero = np.zeros((), _UINT32)
    if not shape:
        return zero, zero
    if size <= 2**32:
        return shape_ops.broadcast_in_dim(zero, shape, ()), _row_major_iota(_UINT32, shape)
    flat = _row_major_iota(np.dtype(np.uint64), shape)
    hi = ew.convert_element_type(ew.shift_right_logical(flat, np.uint64(32)), _UINT32)
    return hi, ew.convert_element_type(flat, _UINT32)
