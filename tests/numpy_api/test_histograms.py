"""NumPy-surface tests of ``xnp/numpy_api/histograms.py`` against NumPy (eager, jit and
``eval_jaxpr`` where the output shape is static), errors, and grad/vmap of ``interp``."""

import numpy as np
import pytest

import xnp
from tests.helpers import axes_labels, central_difference, check_vs_numpy, covering_grid


# --------------------------------------------------------------------------- bincount


# sampled (all with --full-grid): each length of x (0, 1, 17) with each dtype, with and
# without weights and with each minlength; each dtype with and without weights; weights x
# minlength
@pytest.mark.parametrize("case", covering_grid(
    n_x=[0, 1, 17], dtype=[np.int8, np.uint16, np.int64, np.bool_], weights=[False, True],
    minlength=[0, 3, 25], n=12, seed=1,
    labels=lambda c: axes_labels(c, ("n_x", "dtype"), ("n_x", "weights"), ("n_x", "minlength"),
                                 ("dtype", "weights"), ("weights", "minlength"))))
def test_bincount_matches_numpy(case, rng):
    x = rng.integers(0, 9, case.n_x).astype(case.dtype)
    w = rng.standard_normal(case.n_x) if case.weights else None
    args = (x, w) if case.weights else (x,)
    check_vs_numpy(lambda xp, x, *w: xp.bincount(x, *w, minlength=case.minlength), *args,
                   jit=False, jaxpr=False)
    length = max(int(x.max()) + 1 if x.size else 0, case.minlength)
    check_vs_numpy(lambda xp, x, *w: (xp.bincount(x, *w, minlength=case.minlength)
                                      if xp is np else xp.bincount(x, *w, length=length,
                                                                   minlength=case.minlength)),
                   *args)


def test_bincount_errors_and_concretization():
    for bad in (np.array([1, -1]), np.ones((2, 2), int), np.array([1.0]), np.int64(3)):
        check_vs_numpy(lambda xp, x: xp.bincount(x), bad, jit=False)
    check_vs_numpy(lambda xp, x: xp.bincount(x, weights=[1.0]), np.array([1, 2]), jit=False)
    check_vs_numpy(lambda xp, x: xp.bincount(x, minlength=-1), np.array([1, 2]), jit=False)
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="length="):
        xnp.jit(xnp.bincount)(np.array([1, 2]))
    # under jit with `length`, values outside [0, length) are dropped
    got = xnp.jit(lambda x: xnp.bincount(x, length=3))(np.array([0, 2, 5, -1, 2]))
    np.testing.assert_array_equal(np.asarray(got), [1, 0, 2])


# --------------------------------------------------------------------------- digitize


# sampled (all with --full-grid): each shape with each dtype and with right/left, each
# dtype with increasing/decreasing bins and with right/left, order x right
@pytest.mark.parametrize("case", covering_grid(
    x_shape=[(), (0,), (7,), (2, 3)], dtype=[np.int32, np.float32, np.float64],
    order=["inc", "dec"], right=[False, True], n=12, seed=2,
    labels=lambda c: axes_labels(c, ("x_shape", "dtype"), ("x_shape", "right"),
                                 ("dtype", "order"), ("dtype", "right"), ("order", "right"))))
def test_digitize_matches_numpy(case, rng):
    x = rng.integers(-2, 6, case.x_shape).astype(case.dtype)
    bins = np.array([-1.0, 0.0, 0.0, 2.5, 4.0])
    bins = bins if case.order == "inc" else bins[::-1].copy()
    check_vs_numpy(lambda xp, x, b: xp.digitize(x, b, right=case.right), x, bins)


def test_digitize_errors():
    check_vs_numpy(lambda xp, x: xp.digitize(x, [0.0, 2.0, 1.0]), np.arange(3.0), jit=False)
    check_vs_numpy(lambda xp, x: xp.digitize(x, [0.0, 1.0]), np.arange(3.0) + 1j)
    check_vs_numpy(lambda xp, x: xp.digitize(x, [[0.0, 1.0]]), np.arange(3.0))


# --------------------------------------------------------------------------- histogram


# sampled (all with --full-grid): each bins form (one bin, seven, explicit edges) with
# each shape, dtype, range, density and weights; each pair of range, density and weights;
# each shape with and without density and weights; then random others
@pytest.mark.parametrize("case", covering_grid(
    shape=[(0,), (1,), (40,), (5, 6)], dtype=[np.int16, np.float32, np.float64],
    bins=[1, 7, "edges"], range=[None, (-1.0, 1.5)], density=[None, True],
    weights=[False, True], n=18, seed=3,
    labels=lambda c: axes_labels(c, ("bins", "shape"), ("bins", "dtype"), ("bins", "range"),
                                 ("bins", "density"), ("bins", "weights"), ("range", "density"),
                                 ("range", "weights"), ("density", "weights"),
                                 ("shape", "density"), ("shape", "weights"))))
def test_histogram_matches_numpy(case, rng):
    a = (rng.standard_normal(case.shape) * 2).astype(case.dtype)
    bins = np.array([-2.0, -0.5, 0.0, 1.0, 3.0]) if case.bins == "edges" else case.bins
    args = (a, rng.random(case.shape)) if case.weights else (a,)
    check_vs_numpy(lambda xp, a, *w: xp.histogram(a, bins=bins, range=case.range,
                                                  density=case.density,
                                                  weights=w[0] if w else None), *args)


@pytest.mark.parametrize("bins", ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"])
def test_histogram_estimators_eager(bins, rng):
    a = rng.standard_normal(60)
    check_vs_numpy(lambda xp, a: xp.histogram(a, bins=bins), a, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, a: xp.histogram_bin_edges(a, bins=bins, range=(-1, 1)), a,
                   jit=False, jaxpr=False)
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda v: xnp.histogram(v, bins=bins))(a)


def test_histogram_edge_cases_and_errors():
    a = np.array([1.0, 1.0, 1.0])
    check_vs_numpy(lambda xp, a: xp.histogram(a, bins=3), a)  # equal min/max widen by 0.5
    check_vs_numpy(lambda xp, a: xp.histogram(a, bins=[0, 1, 2]), a)  # int edges, last closed
    for kw in (dict(bins=0), dict(bins=[2.0, 1.0]), dict(range=(2, 1)),
               dict(range=(0, np.inf)), dict(bins="bogus"), dict(bins=[[1.0, 2.0]]),
               dict(bins=2.5), dict(weights=np.ones(2))):
        check_vs_numpy(lambda xp, a: xp.histogram(a, **kw), a, jit=False)
    check_vs_numpy(lambda xp, a: xp.histogram(a), np.array([1.0, np.inf]), jit=False)


# sampled (all with --full-grid): each bins form (a count, one per axis, edges and a
# count) with and without range, density and weights; density x weights, range x density
@pytest.mark.parametrize("case", covering_grid(
    bins=[3, (2, 4), [np.array([-1.0, 0, 2]), 3]], range=[None, [(-1, 1), (-2, 2)]],
    density=[None, True], weights=[False, True], n=6, seed=4,
    labels=lambda c: axes_labels(c, ("bins", "range"), ("bins", "density"), ("bins", "weights"),
                                 ("density", "weights"), ("range", "density"))))
def test_histogram2d_and_dd_match_numpy(case, rng):
    x, y = rng.standard_normal((2, 30))
    w = rng.random(30)
    kw = dict(bins=case.bins, range=case.range, density=case.density)
    args = (x, y, w) if case.weights else (x, y)
    check_vs_numpy(lambda xp, x, y, *w: xp.histogram2d(x, y, weights=w[0] if w else None,
                                                       **kw), *args)
    s = np.stack([x, y], 1)
    check_vs_numpy(lambda xp, s: xp.histogramdd(s, **kw), s)


def test_histogramdd_three_dims_and_errors(rng):
    s = rng.standard_normal((25, 3))
    check_vs_numpy(lambda xp, s: xp.histogramdd(s, bins=(2, 3, 4)), s)
    check_vs_numpy(lambda xp, s: xp.histogramdd(s, bins=(2, 3)), s, jit=False)
    check_vs_numpy(lambda xp, s: xp.histogramdd(s, range=[(0, 1)]), s, jit=False)


# --------------------------------------------------------------------------- interp


# sampled (all with --full-grid): each shape with each number of sample points and each
# fp dtype, each number of points with each fp dtype and with/without left/right, each fp
# dtype with/without left/right
@pytest.mark.parametrize("case", covering_grid(
    x_shape=[(), (0,), (9,), (2, 5)], n_xp=[1, 2, 6],
    fp=[np.float32, np.float64, np.complex128, np.int32], lr=[None, (-5.0, 7.0)], n=16,
    seed=5, labels=lambda c: axes_labels(c, ("x_shape", "n_xp"), ("x_shape", "fp"),
                                         ("n_xp", "fp"), ("n_xp", "lr"), ("fp", "lr"))))
def test_interp_matches_numpy(case, rng):
    x = rng.uniform(-3, 3, case.x_shape)
    xp_ = np.sort(rng.uniform(-2, 2, case.n_xp))
    fp = (rng.standard_normal(case.n_xp) * 3).astype(case.fp)
    if case.n_xp > 1:
        x = np.where(rng.random(case.x_shape) < 0.3, rng.choice(xp_, case.x_shape), x)
    kw = {} if case.lr is None else dict(left=case.lr[0], right=case.lr[1])
    check_vs_numpy(lambda xp, x, a, f: xp.interp(x, a, f, **kw), x, xp_, fp)


def test_interp_period_duplicates_and_errors(rng):
    x = rng.uniform(-400, 400, 12)
    xp_ = np.array([190.0, -190, 350, -350])
    fp = np.array([5.0, 10, 3, 4])
    check_vs_numpy(lambda xp, x, a, f: xp.interp(x, a, f, period=360), x, xp_, fp)
    check_vs_numpy(lambda xp, x: xp.interp(x, [0.0, 1.0, 1.0, 2.0], [0.0, 1.0, 3.0, 2.0]),
                   np.array([0.5, 1.0, 1.5]))
    for args in (([0.0, 1.0], [1.0]), ([], []), ([[0.0, 1.0]], [[1.0, 2.0]])):
        check_vs_numpy(lambda xp, x: xp.interp(x, *args), np.array([0.5]))
    check_vs_numpy(lambda xp, x: xp.interp(x, [0.0, 1.0], [0.0, 1.0], period=0), np.ones(2))
    check_vs_numpy(lambda xp, x: xp.interp(x, [0.0, 1.0], [0.0, 1.0]), np.ones(2) + 1j)


def test_interp_grad_and_vmap(rng):
    xp_ = np.array([-1.0, 0.0, 0.5, 2.0])
    fp = np.array([1.0, -2.0, 0.5, 3.0])
    x = np.array([-0.7, 0.2, 1.1, 1.9])
    v = rng.standard_normal(4)
    for i, arg in enumerate((x, xp_, fp)):
        def f(a, i=i):
            args = [xnp.asarray(x), xnp.asarray(xp_), xnp.asarray(fp)]
            args[i] = a
            return xnp.sum(xnp.interp(*args) * xnp.asarray([1.0, 2.0, 3.0, 4.0]))
        g = np.asarray(xnp.grad(f)(arg))
        np.testing.assert_allclose(g @ v, central_difference(f, arg, v), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(f))(arg)), g, rtol=1e-12)
    xs = rng.uniform(-2, 3, (5, 3))
    fps = rng.standard_normal((5, 4))
    got = xnp.vmap(lambda a, f: xnp.interp(a, xp_, f))(xs, fps)
    want = np.stack([np.interp(a, xp_, f) for a, f in zip(xs, fps)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
    got = xnp.jit(xnp.vmap(lambda a: xnp.interp(a, xp_, fp), in_axes=1))(xs)
    np.testing.assert_allclose(np.asarray(got), np.interp(xs.T, xp_, fp), rtol=1e-12)
