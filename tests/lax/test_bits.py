"""Bit-exact checks of ``xnp.lax.bits`` beyond the op table: ``reduce_precision``
against casts through narrower floats and, on random bit patterns (NaN payloads,
subnormals, overflow), the eager implementation against XLA's op; ``nextafter``
bit for bit (signed zeros, subnormals, inf, NaN) eagerly, under jit and on the eager
XLA backend; parameter errors."""

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp import lax

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

IEEE = [np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64)]
WIDTHS = [(5, 10), (8, 7), (8, 23), (4, 3), (5, 2), (2, 0), (1, 0), (11, 52), (3, 1)]


def _bits(x):
    x = np.asarray(x)
    return x.view(f"u{x.dtype.itemsize}")


def _random_bits(dtype, n, seed):
    u = np.dtype(f"u{dtype.itemsize}")
    rng = np.random.default_rng(seed)
    return rng.integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True).view(dtype)


def _same_or_both_nan(a, b):
    a, b = np.asarray(a), np.asarray(b)
    nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
    return (_bits(a) == _bits(b)) | nan


@pytest.mark.parametrize("dtype", IEEE, ids=str)
def test_reduce_precision_eager_matches_xla_bit_for_bit(dtype):
    x = _random_bits(dtype, 4000, seed=dtype.itemsize)
    for eb, mb in WIDTHS:
        eager = lax.reduce_precision(xnp.asarray(x), eb, mb)
        jitted = xnp.jit(lambda v, eb=eb, mb=mb: lax.reduce_precision(v, eb, mb))(x)
        ok = _same_or_both_nan(eager, jitted)
        assert ok.all(), (dtype, eb, mb, x[~ok][:4], np.asarray(eager)[~ok][:4])
        assert np.asarray(eager).dtype == dtype


@pytest.mark.parametrize("dtype,eb,mb,narrow", [
    (np.float32, 8, 7, ml_dtypes.bfloat16), (np.float64, 8, 7, ml_dtypes.bfloat16),
    (np.float32, 5, 10, np.float16), (np.float64, 5, 10, np.float16),
    (np.float64, 8, 23, np.float32)])
def test_reduce_precision_rounds_like_a_cast(dtype, eb, mb, narrow):
    # magnitudes inside the narrow format's normal range (it has subnormals, reduce_precision
    # flushes them), ties to even included
    rng = np.random.default_rng(0)
    x = (rng.choice([-1.0, 1.0], 500) * rng.uniform(1, 2, 500)
         * 2.0 ** rng.integers(-12, 12, 500)).astype(dtype)
    x[:4] = [np.inf, -np.inf, 0.0, -0.0]
    x[4] = np.nextafter(np.float64(1.0), 2).astype(dtype)  # below half an ulp: rounds down
    expected = x.astype(narrow).astype(dtype)
    for f in (lambda v: lax.reduce_precision(v, eb, mb),
              xnp.jit(lambda v: lax.reduce_precision(v, eb, mb))):
        np.testing.assert_array_equal(_bits(f(x)), _bits(expected))
    assert np.isnan(np.asarray(lax.reduce_precision(np.array([np.nan], dtype), eb, mb))).all()


def test_reduce_precision_overflow_and_flush():
    x = np.array([65504.0, 65520.0, 1e6, -1e6, 6.2e-5, 5e-6, -5e-6], np.float32)
    expected = np.array([65504.0, np.inf, np.inf, -np.inf, np.float16(6.2e-5), 0.0, -0.0],
                        np.float32)
    for f in (lambda v: lax.reduce_precision(v, 5, 10),
              xnp.jit(lambda v: lax.reduce_precision(v, 5, 10))):
        np.testing.assert_array_equal(_bits(f(x)), _bits(expected))


@pytest.mark.parametrize("eb,mb,exc,match", [
    (0, 10, ValueError, "exponent_bits"), (5, -1, ValueError, "mantissa_bits"),
    (5.0, 10, TypeError, "exponent_bits"), (5, True, TypeError, "mantissa_bits")])
def test_reduce_precision_param_errors(eb, mb, exc, match):
    with pytest.raises(exc, match=match):
        lax.reduce_precision(np.ones(3), eb, mb)


def test_reduce_precision_jvp_and_batching():
    x = np.array([1.0 + 2.0**-10, 3.0, -7.5])
    t = np.array([1.0 + 2.0**-12, 0.5, 1.0])
    _, dt = xnp.jvp(lambda v: lax.reduce_precision(v, 8, 7), (x,), (t,))
    np.testing.assert_array_equal(np.asarray(dt), t.astype(ml_dtypes.bfloat16).astype(t.dtype))
    g = xnp.grad(lambda v: xnp.sum(lax.reduce_precision(v, 8, 7)))(x)
    np.testing.assert_array_equal(np.asarray(g), np.ones(3))
    xs = np.arange(6.0).reshape(2, 3) / 3
    out = xnp.vmap(lambda v: lax.reduce_precision(v, 5, 10), in_axes=1)(xs)
    np.testing.assert_array_equal(np.asarray(out), xs.T.astype(np.float16).astype(xs.dtype))


def _nextafter_table(dtype):
    info = ml_dtypes.finfo(dtype)
    vals = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, float(info.max),
                     -float(info.max), float(info.smallest_subnormal),
                     -float(info.smallest_subnormal), float(info.smallest_normal), 2.5],
                    np.float64).astype(dtype)
    return np.repeat(vals, len(vals)), np.tile(vals, len(vals))


@pytest.mark.parametrize("dtype", IEEE, ids=str)
def test_nextafter_bit_exact(dtype):
    a, b = _nextafter_table(dtype)
    with np.errstate(all="ignore"):
        # C's rule (x2 where equal); NumPy's float16 loop returns x1 there (xnp.nextafter
        # follows NumPy, see tests/numpy_api/test_bits_special.py)
        expected = np.where(a == b, b, np.nextafter(a, b))
    outs = [lax.nextafter(xnp.asarray(a), xnp.asarray(b)), xnp.jit(lax.nextafter)(a, b)]
    with xnp.config.override(eager_backend="xla"):
        outs.append(lax.nextafter(xnp.asarray(a), xnp.asarray(b)))
    for out in outs:
        ok = _same_or_both_nan(out, expected)
        assert ok.all(), (dtype, a[~ok], b[~ok], np.asarray(out)[~ok], expected[~ok])


@pytest.mark.parametrize("dtype", [np.dtype(ml_dtypes.float8_e4m3fn),
                                   np.dtype(ml_dtypes.float8_e5m2)], ids=str)
def test_nextafter_float8_every_pair(dtype):
    """All 256 x 256 bit-pattern pairs vs NumPy + ml_dtypes (no inf in e4m3fn: its
    largest finite value steps to NaN only towards NaN); NaN results compare as NaN."""
    codes = np.arange(256, dtype=np.uint8).view(dtype)
    a, b = np.repeat(codes, 256), np.tile(codes, 256)
    expected = np.nextafter(a, b)
    outs = [lax.nextafter(xnp.asarray(a), xnp.asarray(b)), xnp.jit(lax.nextafter)(a, b),
            xnp.nextafter(xnp.asarray(a), xnp.asarray(b))]
    with xnp.config.override(eager_backend="xla"):
        outs.append(lax.nextafter(xnp.asarray(a), xnp.asarray(b)))
    for out in outs:
        assert np.asarray(out).dtype == dtype
        ok = _same_or_both_nan(out, expected)
        assert ok.all(), (dtype, a[~ok], b[~ok], np.asarray(out)[~ok], expected[~ok])


def test_nextafter_batching():
    a = np.linspace(-2, 2, 12).reshape(3, 4)
    b = np.array([0.0, np.inf, -np.inf, 5.0])
    out = xnp.vmap(lax.nextafter, in_axes=(1, 0))(a, b)
    np.testing.assert_array_equal(np.asarray(out), np.nextafter(a.T, b[:, None]))


def test_population_count_clz_batching():
    x = np.array([[0, 1, -1], [127, -128, 5]], np.int8)
    for f, ref in [(lax.population_count, lambda v: [bin(int(e) & 0xFF).count("1") for e in v]),
                   (lax.clz, lambda v: [8 - (int(e) & 0xFF).bit_length() for e in v])]:
        out = np.asarray(xnp.vmap(f, in_axes=1)(x))
        expected = np.array([ref(col) for col in x.T], np.int8)
        np.testing.assert_array_equal(out, expected)
        assert out.dtype == np.int8
        # integer outputs: zero tangents through a float function of them
        xf = x.astype(np.float64)

        def g(v, f=f):
            return lax.convert_element_type(f(lax.convert_element_type(v, np.int8)), np.float64)

        _, t = xnp.jvp(g, (xf,), (np.ones_like(xf),))
        assert not np.asarray(t).any()
