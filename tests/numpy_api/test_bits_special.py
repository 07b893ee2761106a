"""``xnp.nextafter``, ``xnp.bitwise_count`` and ``xnp.i0`` vs NumPy: eager, under jit and
through the jaxpr (``check_vs_numpy``), over dtypes incl. Python scalars, broadcasting
pairs and special values (±0, subnormals, ±inf, NaN, integer extremes); errors."""

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import EDGE_SHAPES, INTEGER, check_vs_numpy, grid, make_array

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_F = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]
PAIRS = [((), ()), ((3,), (3,)), ((), (2, 3)), ((3, 1), (1, 4)), ((0,), (1,))]


def _floats(rng, shape, dtype):
    a = make_array(rng, shape, dtype)
    flat = a.reshape(-1)
    if flat.size:
        tiny = float(np.finfo(dtype).smallest_subnormal)
        vals = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, 1.0,
                         float(np.finfo(dtype).max)], np.float64).astype(dtype)
        idx = rng.random(flat.size) < 0.5
        flat[idx] = rng.choice(vals, size=int(idx.sum()))
    return a


def _bits_equal(out, expected):
    out, expected = np.asarray(out), np.asarray(expected)
    assert out.dtype == expected.dtype and out.shape == expected.shape
    both_nan = np.isnan(out) & np.isnan(expected)
    u = f"u{out.dtype.itemsize}"
    assert ((out.view(u) == expected.view(u)) | both_nan).all(), (out, expected)


@pytest.mark.parametrize("case", grid(n=20, seed=1, dtype=_F, shapes=PAIRS))
def test_nextafter_matches_numpy(case):
    rng = np.random.default_rng(0)
    a, b = (_floats(rng, s, case.dtype) for s in case.shapes)
    check_vs_numpy(lambda xp, x, y: xp.nextafter(x, y), a, b, rtol=0, atol=0)
    expected = np.nextafter(a, b)
    for f in (xnp.nextafter, xnp.jit(xnp.nextafter)):
        _bits_equal(f(a, b), expected)  # signed zeros and subnormals too


def test_nextafter_signed_zeros_and_dtypes():
    z = np.array([0.0, -0.0, 0.0, -0.0])
    w = np.array([-0.0, 0.0, 0.0, -1.0])
    for dt in _F:
        for f in (xnp.nextafter, xnp.jit(xnp.nextafter)):
            _bits_equal(f(z.astype(dt), w.astype(dt)), np.nextafter(z.astype(dt), w.astype(dt)))
    for x1, x2 in [(1, 2), (np.int32(1), 2.0), (np.int8(3), np.int8(-1)), (True, False),
                   (np.float32(1), 2), (np.arange(3), np.float32(1))]:
        check_vs_numpy(lambda xp, a, b: xp.nextafter(a, b), x1, x2, rtol=0, atol=0)
    with pytest.raises(TypeError, match="nextafter"):
        xnp.nextafter(np.ones(2, np.complex64), 1.0)
    out = xnp.zeros(3)
    xnp.nextafter(np.ones(3), 2.0, out=out)
    _bits_equal(out, np.nextafter(np.ones(3), 2.0))


@pytest.mark.parametrize("case", grid(n=16, seed=2, dtype=[np.dtype(bool)] + INTEGER,
                                      shape=EDGE_SHAPES + [(2, 3)]))
def test_bitwise_count_matches_numpy(case):
    rng = np.random.default_rng(0)
    x = make_array(rng, case.shape, case.dtype)
    flat = x.reshape(-1)
    if flat.size and case.dtype.kind in "iu":
        info = np.iinfo(case.dtype)
        flat[: min(3, flat.size)] = [info.min, info.max, 0][: min(3, flat.size)]
    check_vs_numpy(lambda xp, v: xp.bitwise_count(v), x)


def test_bitwise_count_scalars_and_errors():
    for v in (7, -8, np.int8(-128), np.uint64(2**64 - 1), True):
        check_vs_numpy(lambda xp, a: xp.bitwise_count(a), v)
    check_vs_numpy(lambda xp, a: xp.bitwise_count(a), np.ones(3))  # TypeError both
    # dtype=: uint8 (NumPy's loops' result) only, another dtype NumPy's TypeError
    for dt in (np.uint8, "uint8", np.int32, np.float64, bool):
        check_vs_numpy(lambda xp, a, d=dt: xp.bitwise_count(a, dtype=d),
                       np.array([0, 3, -5, 2**40]))


@pytest.mark.parametrize("case", grid(n=16, seed=3, dtype=_F + [np.dtype(np.int32),
                                                               np.dtype(bool)],
                                      shape=EDGE_SHAPES + [(2, 3)]))
def test_i0_matches_numpy(case):
    rng = np.random.default_rng(0)
    x = make_array(rng, case.shape, case.dtype)
    if case.dtype.kind == "f":
        x = (x * 6).astype(case.dtype)
    # NumPy evaluates float16 in float16 arithmetic; xnp's i0e runs in float32
    check_vs_numpy(lambda xp, v: xp.i0(v), x, kind="reduction")


def test_i0_special_values_and_errors():
    x = np.array([0.0, -0.0, 8.0, -8.0, 30.0, 700.0, 800.0, np.inf, -np.inf, np.nan])
    check_vs_numpy(lambda xp, v: xp.i0(v), x, kind="reduction")
    check_vs_numpy(lambda xp, v: xp.i0(v), 2.5)
    check_vs_numpy(lambda xp, v: xp.i0(v), np.ones(2, np.complex128))  # TypeError both
    assert xnp.i0(np.ones(2, ml_dtypes.bfloat16)).dtype == ml_dtypes.bfloat16
