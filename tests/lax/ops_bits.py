"""Op-table records of the bit-level primitives (``xnp.lax.bits``). References are
independent of the eager implementations: Python's ``int.bit_count``/``bit_length`` on
the two's complement bits and ``numpy.nextafter``."""

import ml_dtypes
import numpy as np

from tests.helpers import FLOATING, INTEGER, SMALL_SHAPES, OpRecord
from tests.lax.ops_elementwise import special
from xnp import lax

_BINARY_SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 4), ((), (2, 3)), ((3, 1), (1, 4))]


def _per_bits(fn):
    """An integer reference from ``fn(two's complement bits as a Python int, width)``."""

    def ref(x):
        width = 8 * x.dtype.itemsize
        mask = (1 << width) - 1
        flat = [fn(int(v) & mask, width) for v in x.reshape(-1)]
        return np.array(flat, dtype=np.uint64).astype(x.dtype).reshape(x.shape)

    return ref


def _nextafter_ref(x1, x2):
    # C's nextafter (x2 where equal); NumPy's float16 loop returns x1 there
    with np.errstate(all="ignore"):
        return np.where(x1 == x2, x2, np.nextafter(x1, x2)).astype(x1.dtype)


def _moderate(rng, shape, dtype):
    """Magnitudes in [1e-3, 2e3], random signs, with ±0, ±inf, NaN mixed in."""
    a = rng.choice([-1.0, 1.0], size=shape) * rng.uniform(1, 2, shape) * 10.0 ** rng.uniform(
        -3, 3, shape)
    flat = a.reshape(-1)
    if flat.size:
        idx = rng.random(flat.size) < 0.3
        flat[idx] = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan], size=int(idx.sum()))
    return a.astype(dtype)


RECORDS = [
    OpRecord("population_count", lax.population_count, _per_bits(lambda v, w: v.bit_count()), 1,
             INTEGER, list(SMALL_SHAPES), sampler=special,
             errors=[([np.ones(3)], TypeError, "population_count"),
                     ([np.ones(3, bool)], TypeError, "integer")]),
    OpRecord("clz", lax.clz, _per_bits(lambda v, w: w - v.bit_length()), 1, INTEGER,
             list(SMALL_SHAPES), sampler=special,
             errors=[([np.ones(3)], TypeError, "clz")]),
    OpRecord("nextafter", lax.nextafter, _nextafter_ref, 2, FLOATING, _BINARY_SHAPES,
             sampler=special, rtol=0, atol=0,
             errors=[([np.ones(3, np.int32), np.ones(3, np.int32)], TypeError, "nextafter"),
                     ([np.ones(3, np.float32), np.ones(3)], TypeError, "equal dtypes"),
                     ([np.ones(3, np.complex64)] * 2, TypeError, "nextafter")]),
    # reduce_precision's rounding is checked in tests/lax/test_bits.py (its jvp is JAX's
    # straight-through rule, which finite differences of a step function cannot confirm);
    # here widths that keep every float64 value
    OpRecord("reduce_precision", lambda x: lax.reduce_precision(x, 11, 52), lambda x: x, 1,
             [np.dtype(np.float64)], list(SMALL_SHAPES), sampler=_moderate, rtol=0, atol=0,
             errors=[([np.ones(3, ml_dtypes.float8_e4m3fn)], TypeError, "reduce_precision"),
                     ([np.ones(3, np.int32)], TypeError, "reduce_precision")]),
]
