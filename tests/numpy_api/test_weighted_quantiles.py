"""``weights=`` of quantile, percentile, nanquantile and nanpercentile (NumPy 2's weighted
``inverted_cdf``) against NumPy's own results on this machine: values bit for bit, dtypes,
shapes, 0-d arrays where NumPy returns them, NumPy's errors and warnings; eagerly and
under ``jit`` (the value checks, negative/NaN/zero weights, are eager only, as documented).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import grid, outcome

FUNCS = ["quantile", "percentile", "nanquantile", "nanpercentile"]
_ICDF = {"method": "inverted_cdf"}


def _pct(fn, q):
    """``q`` (probabilities) as ``fn`` takes it: percentiles times 100, same Python or
    NumPy type."""
    if not fn.endswith("percentile"):
        return q
    if isinstance(q, list):
        return [v * 100 for v in q]
    return q * 100


def _outcome(call):
    """``call()``'s result (or exception) and the (category, message) of its warnings."""
    out, caught = outcome(call)
    return out, [(w.category, str(w.message)) for w in caught]


def _same(got, want, *, kind=True):
    """Equal values (NaN equal), dtype and shape; ``kind``: a NumPy scalar where NumPy's is
    one (else an array, as NumPy's 0-d arrays)."""
    if isinstance(want, Exception):
        assert isinstance(got, type(want)), (got, want)
        return
    assert not isinstance(got, Exception), (got, want)
    if kind:
        assert isinstance(got, np.generic) == isinstance(want, np.generic), (type(got), want)
    g, w = np.asarray(got), np.asarray(want)
    assert (g.dtype, g.shape) == (w.dtype, w.shape), (g, w)
    assert np.array_equal(g, w, equal_nan=True), (g, w)


def _both(fn, x, q, w, **kw):
    """NumPy's and xnp's eager results, and xnp's under jit (x, q and w traced)."""
    want = getattr(np, fn)(x, q, weights=w, **_ICDF, **kw)
    got = getattr(xnp, fn)(x, q, weights=w, **_ICDF, **kw)
    jitted = xnp.jit(lambda x, q, w: getattr(xnp, fn)(x, q, weights=w, **_ICDF, **kw))
    return want, got, jitted(x, np.asarray(q), w)


def _data(rng, shape, dtype, nans):
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) < 0.5
    x = np.round(rng.standard_normal(shape) * 4, 1).astype(dtype)  # (with ties)
    if nans and x.ndim:
        x[rng.random(shape) < 0.2] = np.nan
    return x


def _broadcast_weights(w, shape, axis):
    """Weights given along ``axis`` (in its order) as weights of ``shape``."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(a % len(shape) for a in axes)
    w = np.transpose(w, np.argsort(axes))
    kept = [s if i in axes else 1 for i, s in enumerate(shape)]
    return np.broadcast_to(w.reshape(kept), shape).copy()


# (shape, axis) pairs: axis tuples in both orders, negative axes, 0-d
_AXES = [((7,), None), ((7,), 0), ((7,), -1), ((3, 5), None), ((3, 5), 1), ((3, 5), 0),
         ((2, 3, 4), (0, 2)), ((2, 3, 4), (2, 0)), ((2, 3, 4), -2), ((2, 3, 4), (0, 1, 2)),
         ((), None), ((4, 1), 1)]
_QS = [0.5, [0.0, 0.3, 1.0], np.float32(0.7), np.array([[0.1, 0.9], [0.5, 0.0]]), 1, 0]


@pytest.mark.parametrize("case", grid(
    n=60, fn=FUNCS, shape_axis=_AXES, dtype=[np.float64, np.float32, np.float16, np.int64,
                                              np.uint8, np.bool_],
    weights=["full", "along axis", "integers", "some zero"], q=list(range(len(_QS))),
    keepdims=[False, True]))
def test_weighted_quantiles_are_numpys(case, rng):
    (shape, axis), dtype = case.shape_axis, case.dtype
    floating = np.dtype(dtype).kind == "f"
    x = _data(rng, shape, dtype, nans=floating and case.fn.startswith("nan"))
    if case.weights == "along axis" and axis is not None:
        axes = axis if isinstance(axis, tuple) else (axis,)
        w = rng.random(tuple(shape[a] for a in axes)) + 0.1
    elif case.weights == "integers":
        w = rng.integers(1, 4, shape)
    elif case.weights == "some zero":  # (a slice of zeros only: NumPy's ValueError)
        w = (rng.random(shape) + 0.05) * (rng.random(shape) < 0.6)
    else:
        w = rng.random(shape) + 0.05
    q = _pct(case.fn, _QS[case.q])
    kw = {"axis": axis, "keepdims": case.keepdims}
    want, _ = _outcome(lambda: getattr(np, case.fn)(x, q, weights=w, **_ICDF, **kw))
    if isinstance(want, IndexError) and case.fn.startswith("nan"):
        # NumPy 2.4's nan-forms index weights given along ``axis`` unbroadcast (IndexError
        # for a multi-dimensional a); xnp gives the result of the broadcast weights
        assert case.weights == "along axis" and x.ndim > 1
        want = getattr(np, case.fn)(x, q, weights=_broadcast_weights(w, shape, axis),
                                    **_ICDF, **kw)
        _same(getattr(xnp, case.fn)(x, q, weights=w, **_ICDF, **kw), want)
        jitted = xnp.jit(lambda x, w: getattr(xnp, case.fn)(x, q, weights=w, **_ICDF, **kw))
        _same(jitted(x, w), want, kind=False)
        return
    if isinstance(want, ValueError):
        with pytest.raises(ValueError, match="Weights included NaN, inf or were all zero"), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (0/0, as NumPy's)
            getattr(xnp, case.fn)(x, q, weights=w, **_ICDF, **kw)
        return
    want, got, jitted = _both(case.fn, x, q, w, **kw)
    _same(got, want)
    _same(jitted, want, kind=False)


@pytest.mark.parametrize("fn", FUNCS)
def test_numpys_examples_and_leading_zero_weights(fn):
    x = np.array([3.0, 1.0, 2.0, 5.0])
    for w, q in [([1.0, 2.0, 0.0, 1.0], [0.0, 0.5, 1.0]), ([0.0, 0.0, 1.0, 1.0], [0.0, 1.0]),
                 ([0.0, 3.0, 0.0, 0.0], [0.0, 0.25, 1.0]), ([1, 1, 1, 1], [0.25, 0.5, 0.75])]:
        want, got, jitted = _both(fn, x, _pct(fn, q), np.asarray(w))
        _same(got, want)
        _same(jitted, want)


@pytest.mark.parametrize("fn", FUNCS)
@pytest.mark.parametrize("q", [0.1, 0.3, 0.6, 0.7, 1.0, np.float32(0.3), np.float32(0.6)])
def test_cumulative_weights_at_q_round_as_numpys(fn, q):
    # q on a running sum of weights: NumPy's summation order and casts decide the side
    x = np.arange(4.0)
    for w in ([0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [1e-17, 0.3, 0.3, 0.4]):
        want, got, jitted = _both(fn, x, _pct(fn, q), np.asarray(w))
        _same(got, want)
        _same(jitted, want)
    x = np.arange(40.0).reshape(2, 20)
    w = np.tile(np.full(20, 0.1), (2, 1))  # running sums 0.1, 0.2, 0.30000000000000004, ...
    want, got, jitted = _both(fn, x, _pct(fn, q), w, axis=1)
    _same(got, want)
    _same(jitted, want)


@pytest.mark.parametrize("fn", FUNCS)
def test_nan_slices(fn):
    nan = np.nan
    x = np.array([[1.5, nan, -2.0, 0.0, 4.0], [nan] * 5, [-0.0, 3.0, np.inf, -np.inf, 2.5],
                  [2.0, 1.0, nan, nan, 1.0]])
    w = np.array([[1.0, 9.0, 2.0, 0.0, 1.0], [1.0] * 5, [0.5, 0.5, 1.0, 1.0, 0.0],
                  [0.0, 1.0, 0.0, 3.0, 2.0]])
    # weights along the axis: NumPy's nan-forms raise IndexError (see
    # test_weighted_quantiles_are_numpys); NumPy's result with them broadcast
    for axis, q, ww, np_ww in [(1, 0.5, w, w), (1, [0.0, 0.4, 1.0], w, w), (None, 0.5, w, w),
                               (1, 0.5, w[0], np.broadcast_to(w[0], x.shape)),
                               (0, [0.2, 0.8], w[:, 0], np.broadcast_to(w[:, :1], x.shape))]:
        def call(m, ww, q=q, axis=axis):
            return getattr(m, fn)(x, _pct(fn, q), axis=axis, weights=ww, **_ICDF)

        (want, want_w), (got, got_w) = (_outcome(lambda: call(np, np_ww)),
                                        _outcome(lambda: call(xnp, ww)))
        _same(got, want)
        assert got_w == want_w  # "All-NaN slice encountered" once per all-NaN slice
        _same(xnp.jit(lambda: call(xnp, ww))(), want, kind=False)


def test_all_nan_results_are_scalars_as_numpys():
    nan = np.nan
    for m in (np, xnp):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            assert isinstance(m.quantile([1.0, nan], 0.5, weights=[1, 1], **_ICDF), np.float64)
            assert isinstance(m.nanquantile([nan, nan], 0.5, weights=[1, 1], **_ICDF),
                              np.float64)
        r = m.nanquantile([1.0, nan, 2.0], 0.5, weights=[1, 1, 1], **_ICDF)
        assert not isinstance(r, np.generic) and r.shape == () and r == 1.0
        r = m.percentile(np.arange(5), 50, weights=np.ones(5), **_ICDF)
        assert not isinstance(r, np.generic) and r.dtype == np.int64 and r == 2


@pytest.mark.parametrize("fn", FUNCS)
def test_out_keepdims_and_casting(fn):
    x = np.arange(12.0).reshape(2, 6) % 5
    w = np.tile(np.arange(6.0), (2, 1))
    q = _pct(fn, [0.2, 0.9])
    want = getattr(np, fn)(x, q, axis=1, weights=w, keepdims=True, **_ICDF)
    for out in (xnp.zeros((2, 2, 1)), np.zeros((2, 2, 1))):
        got = getattr(xnp, fn)(x, q, axis=1, weights=w, keepdims=True, out=out, **_ICDF)
        assert got is out
        _same(np.asarray(out), want)
    # NumPy assigns into out: float into int casts
    want = getattr(np, fn)(x, q, axis=1, weights=w, out=np.zeros((2, 2), np.int64), **_ICDF)
    got = getattr(xnp, fn)(x, q, axis=1, weights=w, out=xnp.zeros((2, 2), np.int64), **_ICDF)
    _same(got, want)
    jit_out = xnp.jit(lambda x, o: getattr(xnp, fn)(x, q, axis=1, weights=w, out=o, **_ICDF))
    _same(jit_out(x, xnp.zeros((2, 2))), getattr(np, fn)(x, q, axis=1, weights=w, **_ICDF))
    with pytest.raises(ValueError):  # out's shape without the kept axes: NumPy's error
        getattr(xnp, fn)(x, q, axis=1, weights=w, keepdims=True, out=xnp.zeros((2, 2)),
                         **_ICDF)


@pytest.mark.parametrize("fn", FUNCS)
def test_empty_inputs(fn):
    cases = [(np.zeros((0, 3)), 1, np.ones(3)), (np.zeros((0, 3)), 1, np.ones((0, 3))),
             (np.zeros((3, 0)), 1, np.ones((3, 0))), (np.zeros(0), None, np.ones(0)),
             (np.zeros((2, 0)), [1], np.ones((2, 0)))]
    for x, axis, w in cases:
        def call(m, x=x, axis=axis, w=w):
            return getattr(m, fn)(x, _pct(fn, 0.5), axis=axis, weights=w, **_ICDF)

        (want, want_w), (got, got_w) = _outcome(lambda: call(np)), _outcome(lambda: call(xnp))
        _same(got, want)  # nan-forms: NumPy's nanmean; otherwise an empty result or IndexError
        assert [c for c, _ in got_w] == [c for c, _ in want_w]
        if not isinstance(want, Exception):
            _same(xnp.jit(lambda: call(xnp))(), want, kind=False)


_ERRORS = {
    "method": (lambda m: m.quantile([1.0, 2.0], 0.5, weights=[1, 1]), ValueError),
    "q range before method": (lambda m: m.quantile([1.0, 2.0], 1.5, weights=[1, 1]),
                              ValueError),
    "complex a": (lambda m: m.quantile(np.ones(2, complex), 0.5, weights=[1, 1], **_ICDF),
                  TypeError),
    "axis out of range": (lambda m: m.nanquantile(np.ones(3), 0.5, axis=1, weights=np.ones(3),
                                                  **_ICDF), np.exceptions.AxisError),
    "repeated axis": (lambda m: m.quantile(np.ones((3, 4)), 0.5, axis=(1, 1),
                                           weights=np.ones(3), **_ICDF), ValueError),
    "shapes without axis": (lambda m: m.percentile(np.ones((3, 4)), 50, weights=np.ones(4),
                                                   **_ICDF), TypeError),
    "weights along axis": (lambda m: m.quantile(np.ones((3, 4)), 0.5, axis=1,
                                                weights=np.ones(3), **_ICDF), ValueError),
    "weights with a 1 axis": (lambda m: m.quantile(np.ones((3, 4)), 0.5, axis=1,
                                                   weights=np.ones((1, 4)), **_ICDF),
                              ValueError),
    "q of 3 dimensions": (lambda m: m.quantile(np.ones(3), np.full((1, 1, 1), 0.5),
                                               weights=np.ones(3), **_ICDF), ValueError),
    "empty slice": (lambda m: m.percentile(np.ones((3, 0)), 50, axis=1,
                                           weights=np.ones((3, 0)), **_ICDF), IndexError),
}
_VALUE_ERRORS = {  # checked from the values: eagerly only
    "negative": (lambda m: m.quantile(np.ones(3), 0.5, weights=np.array([1, -1, 1]),
                                      **_ICDF), ValueError),
    "NaN weight": (lambda m: m.nanquantile(np.ones(3), 0.5, weights=[1, np.nan, 1],
                                           **_ICDF), ValueError),
    "inf weight": (lambda m: m.percentile(np.ones(3), 50, weights=[1, np.inf, 1], **_ICDF),
                   ValueError),
    "zero weights": (lambda m: m.quantile(np.ones((2, 3)), 0.5, axis=1,
                                          weights=[[1, 1, 1], [0, 0, 0]], **_ICDF),
                     ValueError),
    "zero weights of the non-NaN": (lambda m: m.nanquantile(
        np.array([np.nan, 1.0, 2.0]), 0.5, weights=[1, 0, 0], **_ICDF), ValueError),
    "q array out of range": (lambda m: m.quantile(np.ones(3), m.asarray([0.5, 2.0]),
                                                  weights=np.ones(3), **_ICDF), ValueError),
}


@pytest.mark.parametrize("case", list(_ERRORS))
def test_errors_are_numpys(case):
    body, cls = _ERRORS[case]
    want, _ = _outcome(lambda: body(np))
    assert type(want) is cls or (cls is np.exceptions.AxisError and isinstance(want, cls))
    with pytest.raises(cls):
        body(xnp)
    with pytest.raises(cls):
        xnp.jit(lambda: body(xnp))()


@pytest.mark.parametrize("case", list(_VALUE_ERRORS))
def test_value_errors_are_numpys_eagerly(case):
    body, cls = _VALUE_ERRORS[case]
    want, _ = _outcome(lambda: body(np))
    assert type(want) is cls
    with pytest.raises(cls), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (0/0: NumPy's 'invalid value')
        body(xnp)
    for _ in range(2):  # a repeated call checks again
        with pytest.raises(cls), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            body(xnp)


def test_not_implemented_error_is_gone():
    got = xnp.quantile(xnp.ones(3), 0.5, method="inverted_cdf", weights=xnp.ones(3))
    assert got == 1.0


def test_complex_weights_count_by_real_part():
    x, w = np.array([3.0, 1.0, 2.0]), np.array([1 + 5j, 2 - 1j, 0 + 3j])
    with pytest.warns(np.exceptions.ComplexWarning):
        want = np.quantile(x, [0.2, 0.9], weights=w, **_ICDF)
    with pytest.warns(np.exceptions.ComplexWarning):
        got = xnp.quantile(x, [0.2, 0.9], weights=w, **_ICDF)
    _same(got, want)


def test_traced_q_and_weights_transformations():
    x = np.array([[4.0, 1.0, 3.0, 2.0], [0.5, 0.25, 1.0, 2.0]])
    w = np.array([[1.0, 0.0, 2.0, 1.0], [3.0, 1.0, 1.0, 0.5]])
    q = np.array([0.1, 0.5, 0.75])
    want = np.quantile(x, q, axis=1, weights=w, **_ICDF)
    f = xnp.jit(lambda x, q, w: xnp.quantile(x, q, axis=1, weights=w, **_ICDF))
    _same(f(x, q, w), want, kind=False)
    rows = xnp.vmap(lambda xr, wr: xnp.quantile(xr, q, weights=wr, **_ICDF))(x, w)
    _same(rows, want.T, kind=False)
    # gradients reach the picked elements
    g = xnp.grad(lambda v: xnp.quantile(v, 0.5, weights=w[0], **_ICDF))(x[0])
    picked = np.quantile(x[0], 0.5, weights=w[0], **_ICDF)
    np.testing.assert_array_equal(np.asarray(g), (x[0] == picked).astype(float))
