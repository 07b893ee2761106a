"""NumPy-surface tests of ``xnp/numpy_api/statistics.py`` against NumPy (eager, jit,
eval_jaxpr): average, median, every quantile method (also the NaN-ignoring and
percentile forms), cov, corrcoef; errors; grads of average/median vs finite
differences."""

import warnings

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import (BOOL, EDGE_SHAPES, INTEGER, central_difference, check_vs_numpy,
                           covering_pairs, covering_sample, grid, make_array)
from xnp.numpy_api.statistics import METHODS

REALF = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]
SHAPES = EDGE_SHAPES + [(5,), (4, 3), (2, 3, 4)]
AXES = [None, 0, -1, (0, -1)]


_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _nan(x, rng, p=0.25):
    if x.dtype.kind == "f" and x.size:
        x = x.copy()
        x[rng.random(x.shape) < p] = np.nan
    return x


@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=BOOL + INTEGER[:4] + REALF,
                                      axis=AXES, keepdims=[False, True], n=24, seed=21))
def test_average_unweighted(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    check_vs_numpy(lambda xp, x: xp.average(x, axis=case.axis, keepdims=case.keepdims), x,
                   kind="reduction")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("axis,wshape", [(None, (2, 3, 4)), (1, (3,)), ((0, 2), (2, 4)),
                                         ((2, 0), (4, 2)), (-1, (2, 3, 4))])
def test_average_weighted(dtype, axis, wshape, rng):
    x = make_array(rng, (2, 3, 4), dtype)
    w = rng.random(wshape) + 0.1
    check_vs_numpy(lambda xp, x, w: xp.average(x, axis=axis, weights=w, returned=True), x, w,
                   kind="reduction")
    check_vs_numpy(lambda xp, x, w: xp.average(x, axis=axis, weights=w, keepdims=True), x, w,
                   kind="reduction")


@pytest.mark.parametrize("body", [
    lambda xp, x: xp.average(x, weights=np.ones(3)),
    lambda xp, x: xp.average(x, axis=1, weights=np.ones(4)),
    lambda xp, x: xp.average(x, axis=0, weights=np.zeros(2)),
    lambda xp, x: xp.average(x, axis=3),
])
def test_average_errors(body, rng):
    check_vs_numpy(body, make_array(rng, (2, 3), np.float64), jit=False)


@pytest.mark.parametrize("fname", ["median", "nanmedian"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=BOOL + INTEGER[:4] + REALF,
                                      axis=AXES, keepdims=[False, True], n=30, seed=22))
def test_median_matches_numpy(fname, case, rng):
    if case.dtype == np.bool_ and fname == "nanmedian":
        pytest.skip("NumPy's nanmedian of bool raises inside its partition")
    if 0 in case.shape and isinstance(case.axis, tuple):
        pytest.skip("NumPy fails to reshape an empty array for a tuple axis (a NumPy bug)")
    x = _nan(make_array(rng, case.shape, case.dtype), rng)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis, keepdims=case.keepdims),
                   x, kind="reduction")


QS = [0.3, 0.0, 1.0, [0.0, 0.25, 0.5, 1.0], [[0.1], [0.95]]]


def _with_methods(n, seed, labels, **axes):
    """(case, method) params, ``case{i}-{method}`` (helpers.covering_pairs): about ``n``
    that cover ``labels(case, method)`` and every method with a scalar and an array q, all
    with --full-grid."""
    return covering_pairs(METHODS, n=n, seed=seed, **axes, labels=lambda c, m: [
        (m, "q", np.ndim(c.q) > 0), *labels(c, m)])


# sampled (all with --full-grid): every method with a scalar q and with an array of them;
# every shape, dtype, q and axis, each shape with each axis, each dtype with each q
@pytest.mark.parametrize("case,method", _with_methods(
    n=30, seed=23, shape=[(7,), (4, 5), (2, 3, 4), (1,)],
    dtype=[np.dtype(np.int32)] + REALF[1:], q=QS, axis=[None, 0, -1, (0, -1)],
    labels=lambda c, m: [("q", repr(c.q)), (c.shape, c.axis), (c.dtype, repr(c.q))]))
def test_quantile_methods(method, case, rng):
    x = make_array(rng, case.shape, case.dtype)
    axis = case.axis if not (isinstance(case.axis, tuple) and len(case.shape) < 2) else None
    check_vs_numpy(lambda xp, x: xp.quantile(x, case.q, axis=axis, method=method), x,
                   kind="reduction")


# sampled (all with --full-grid): every method with a scalar q and with an array of them,
# and with and without an all-NaN slice; every q, each shape with each axis, each axis with
# and without keepdims
@pytest.mark.parametrize("case,method", _with_methods(
    n=28, seed=24, shape=[(7,), (4, 5), (2, 3, 4)], q=QS[:4], axis=[None, 0, -1],
    keepdims=[False, True],
    labels=lambda c, m: [(m, "all-NaN slice", len(c.shape) > 1 and c.axis in (None, -1)),
                         ("q", repr(c.q)), (c.shape, c.axis), (c.axis, c.keepdims)]))
def test_nanquantile_methods(method, case, rng):
    x = _nan(make_array(rng, case.shape, np.float64), rng, 0.3)
    if x.ndim > 1:
        x[0] = np.nan  # an all-NaN slice for axis=-1
    check_vs_numpy(lambda xp, x: xp.nanquantile(x, case.q, axis=case.axis, method=method,
                                                keepdims=case.keepdims), x, kind="reduction")


@pytest.mark.parametrize("fname", ["percentile", "nanpercentile"])
@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "hazen"])
def test_percentile(fname, method, rng):
    x = _nan(make_array(rng, (3, 6), np.float32), rng, 0.2 if fname[0] == "n" else 0)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, [10, 50, 99.5], axis=1, method=method),
                   x, kind="reduction")
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, np.float32(25), keepdims=True), x,
                   kind="reduction")


def test_quantile_traced_q(rng):
    x = make_array(rng, (4, 6), np.float64)
    for q in [0.2, 0.75]:
        out = xnp.jit(lambda x, q: xnp.quantile(x, q, axis=1))(x, q)
        np.testing.assert_allclose(np.asarray(out), np.quantile(x, q, axis=1), rtol=1e-12)


@pytest.mark.parametrize("body", [
    lambda xp, x: xp.quantile(x, 1.5),
    lambda xp, x: xp.quantile(x, [-0.1, 0.5]),
    lambda xp, x: xp.percentile(x, 101),
    lambda xp, x: xp.quantile(x, 0.5, method="bogus"),
    lambda xp, x: xp.quantile(x + 1j, 0.5),
    lambda xp, x: xp.median(x, axis=2),
    lambda xp, x: xp.quantile(x, 0.5, axis=(0, 0)),
])
def test_quantile_errors(body, rng):
    check_vs_numpy(body, make_array(rng, (2, 3), np.float64), jit=False)


@pytest.mark.parametrize("body", [
    lambda xp, x: xp.quantile(x, 0.5, axis=1),  # NumPy: IndexError
    lambda xp, x: xp.percentile(x, [10, 90], method="lower"),  # NumPy: IndexError
    lambda xp, x: xp.quantile(x, [0.5, 0.7], axis=0),  # an empty result, no error
])
def test_quantile_of_empty_slices_as_numpy(body):
    check_vs_numpy(body, np.zeros((3, 0)))


@pytest.mark.parametrize("fname", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("interpolation", ["linear", "lower", None])
def test_quantile_interpolation_keyword_is_gone_as_in_numpy(fname, interpolation):
    # NumPy 2.x removed it (deprecated in 1.22): a TypeError naming the function
    with pytest.raises(TypeError) as want:
        getattr(np, fname)(np.arange(5.0), 0.5, interpolation=interpolation)
    def call(x):
        return getattr(xnp, fname)(x, 0.5, interpolation=interpolation)

    for f in (call, xnp.jit(call)):
        with pytest.raises(TypeError) as got:
            f(xnp.arange(5.0))
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_nanmedian_special_values(dtype):
    """The mean of the two middle non-NaN elements, as NumPy's: [1, inf] gives inf (not the
    interpolation's inf - inf), [-inf, inf] NaN; odd counts the middle element itself."""
    rows = np.array([[1.0, np.inf, np.nan, np.nan], [-np.inf, np.inf, np.nan, 5.0],
                     [np.nan] * 4, [3.0, np.nan, 1.0, 2.0], [np.inf, np.inf, 1.0, np.nan],
                     [-0.0, 0.0, np.nan, -0.0]], dtype)
    for axis in (None, 1, 0):
        want = np.nanmedian(rows, axis=axis)
        for got in (xnp.nanmedian(xnp.asarray(rows), axis=axis),
                    xnp.jit(lambda v: xnp.nanmedian(v, axis=axis))(xnp.asarray(rows))):
            got = np.asarray(got)
            assert got.dtype == want.dtype and got.shape == np.shape(want)
            np.testing.assert_array_equal(got, want)
    g = xnp.grad(lambda v: xnp.nanmedian(v))(xnp.asarray([3.0, np.nan, 1.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0, 0.0, 1.0])  # odd count: the middle
    g = xnp.grad(lambda v: xnp.nanmedian(v))(xnp.asarray([3.0, np.nan, 1.0]))
    np.testing.assert_array_equal(np.asarray(g), [0.5, 0.0, 0.5])  # even: the two middle ones
    g = xnp.grad(lambda v: xnp.nanmedian(v))(xnp.asarray([3.0, np.nan, 1.0, 2.0, 9.0]))
    np.testing.assert_array_equal(np.asarray(g), [0.5, 0.0, 0.0, 0.5, 0.0])


# (complex nanmedian and weighted quantiles: test_complex_order_statistics_and_ranges.py,
# test_weighted_quantiles.py)


_COV_KW = [{}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"fweights": np.arange(1, 7)},
           {"aweights": np.linspace(0.1, 1, 6)}, {"ddof": 0, "aweights": np.linspace(0.1, 1, 6)},
           {"fweights": np.arange(1, 7), "aweights": np.ones(6)}, {"dtype": np.float32}]
_COV_DTYPES = [np.float64, np.float32, np.int32, np.complex128]


# sampled (all with --full-grid): every dtype, each keyword set with complex data and with
# real data
@pytest.mark.parametrize("kw,dtype", [
    pytest.param(_COV_KW[i], _COV_DTYPES[j], id=f"{_COV_DTYPES[j].__name__}-kw{i}")
    for j, i in covering_sample(
        [(j, i) for j in range(len(_COV_DTYPES)) for i in range(len(_COV_KW))], n=18, seed=25,
        labels=lambda p: [("dtype", p[0]), (p[1], _COV_DTYPES[p[0]] == np.complex128)])])
def test_cov(kw, dtype, rng):
    m = make_array(rng, (3, 6) if not kw.get("rowvar", True) is False else (6, 3), dtype)
    check_vs_numpy(lambda xp, m: xp.cov(m, **kw), m, kind="reduction")


@pytest.mark.parametrize("m, kw", [
    (np.array([[1.0, 2.0], [3.0, 5.0]]), {"ddof": 2}),
    (np.array([[1.0, 2.0], [3.0, 5.0]]), {"ddof": 5, "aweights": [1.0, 1.0]}),
    (np.array([[1.0, 2.0], [3.0, 5.0]]), {"fweights": [1, 1], "ddof": 2}),
    (np.array([[1.0, 2.0], [3.0, 5.0]]), {"ddof": 1}), (np.ones((2, 3)), {"ddof": 3}),
    (np.zeros((2, 0)), {"ddof": 2, "rowvar": False}),  # no variables: empty, no warning
    (np.arange(12.0).reshape(3, 4), {}), (np.arange(12.0).reshape(3, 4), {"aweights": [1.0, 2, 3, 4]}),
    (np.arange(12.0).reshape(3, 4) * (1 + 0.5j), {}),
    (np.arange(12.0, dtype=np.float32).reshape(3, 4), {"dtype": np.float32})])
def test_cov_bits_and_warnings_as_numpy(m, kw):
    # NumPy multiplies by the float64 reciprocal of N - ddof (bit for bit, eagerly and under
    # jit), warning "Degrees of freedom <= 0 for slice", then "divide by zero" and
    # "invalid value" where N - ddof (or its weighted form) is not positive
    seen = {}
    for mod in (np, xnp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            seen[mod] = (np.asarray(mod.cov(mod.asarray(m), **kw)), [str(x.message) for x in w])
    for got in (seen[xnp][0], np.asarray(xnp.jit(lambda v: xnp.cov(v, **kw))(xnp.asarray(m)))):
        assert got.dtype == seen[np][0].dtype and got.shape == seen[np][0].shape
        np.testing.assert_array_equal(got, seen[np][0])
    assert seen[xnp][1] == seen[np][1]


def test_cov_corrcoef_shapes(rng):
    x, y = make_array(rng, (6,), np.float64), make_array(rng, (2, 6), np.float64)
    check_vs_numpy(lambda xp, x, y: xp.cov(x, y), x, y, kind="reduction")
    check_vs_numpy(lambda xp, x: xp.cov(x), x, kind="reduction")
    check_vs_numpy(lambda xp, x, y: xp.corrcoef(x, y), x, y, kind="reduction")
    check_vs_numpy(lambda xp, x: xp.corrcoef(x), x, kind="reduction")
    check_vs_numpy(lambda xp, y: xp.corrcoef(y, rowvar=False), y, kind="reduction")
    check_vs_numpy(lambda xp, y: xp.corrcoef(y + 1j * y[::-1]), y, kind="reduction")
    check_vs_numpy(lambda xp, x: xp.cov(x), np.ones((2, 2, 2)))


def _fd_check(f, x, rng):
    g = np.asarray(xnp.grad(f)(xnp.asarray(x)))
    v = rng.standard_normal(x.shape)
    np.testing.assert_allclose(np.sum(g * v), central_difference(f, x, v), rtol=1e-6)


def test_grad_average_median_quantile(rng):
    x = rng.standard_normal((4, 5))
    w = rng.random(5) + 0.5
    _fd_check(lambda x: xnp.sum(xnp.average(x, axis=1, weights=w) ** 2), x, rng)
    _fd_check(lambda x: xnp.sum(xnp.median(x, axis=0) ** 2), x, rng)
    _fd_check(lambda x: xnp.sum(xnp.quantile(x, [0.3, 0.8], axis=1) ** 2), x, rng)
    _fd_check(lambda x: xnp.sum(xnp.cov(x)), x, rng)
