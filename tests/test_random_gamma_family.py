"""Gamma-family and closed-form samplers of ``xnp.random`` (JAX style and NumPy style).

Oracles: KS tests against SciPy's CDFs (p > 1e-3 with fixed keys, n = 20000) plus mean
and variance within 5 standard errors (helpers shared with test_random_distributions),
chi-square for the discrete samplers, eager == jit, vmap over keys == a loop,
NumPy's ValueErrors for concrete bad parameters and NaN / -1 under jit.
"""

import numpy as np
import pytest
from scipy import stats

import xnp
from tests.helpers import assert_allclose, grid
from tests.test_random_distributions import N, _chisquare, _ks, _moments
from xnp import random as xr

KEY = xr.PRNGKey(7)

CONTINUOUS = {
    "gamma_2.5": (lambda k: xr.gamma(k, 2.5, (N,)), stats.gamma(2.5)),
    "gamma_0.3": (lambda k: xr.gamma(k, 0.3, (N,)), stats.gamma(0.3)),
    "loggamma_exp": (lambda k: np.exp(np.asarray(xr.loggamma(k, 1.5, (N,)))), stats.gamma(1.5)),
    "beta": (lambda k: xr.beta(k, 2.0, 0.7, (N,)), stats.beta(2.0, 0.7)),
    "chisquare": (lambda k: xr.chisquare(k, 3.0, (N,)), stats.chi2(3.0)),
    "t": (lambda k: xr.t(k, 5.0, (N,)), stats.t(5.0)),
    "f": (lambda k: xr.f(k, 5.0, 12.0, (N,)), stats.f(5.0, 12.0)),
    "lognormal": (lambda k: xr.lognormal(k, 0.5, (N,)), stats.lognorm(0.5)),
    "laplace": (lambda k: xr.laplace(k, (N,)), stats.laplace()),
    "logistic": (lambda k: xr.logistic(k, (N,)), stats.logistic()),
    "pareto": (lambda k: xr.pareto(k, 5.0, (N,)), stats.pareto(5.0)),
    "rayleigh": (lambda k: xr.rayleigh(k, 2.0, (N,)), stats.rayleigh(scale=2.0)),
    "weibull_min": (lambda k: xr.weibull_min(k, 2.0, 1.5, (N,)),
                    stats.weibull_min(1.5, scale=2.0)),
    "gen_gamma": (lambda k: xr.default_rng(1).gamma(3.0, 2.0, N), stats.gamma(3.0, scale=2.0)),
    "gen_standard_t": (lambda k: xr.default_rng(2).standard_t(6.0, N), stats.t(6.0)),
    "gen_pareto": (lambda k: xr.default_rng(3).pareto(4.0, N), stats.lomax(4.0)),
    "gen_weibull": (lambda k: xr.default_rng(4).weibull(2.0, N), stats.weibull_min(2.0)),
    "gen_laplace": (lambda k: xr.default_rng(6).laplace(1.0, 2.0, N), stats.laplace(1.0, 2.0)),
}
HEAVY = {"cauchy": (lambda k: xr.cauchy(k, (N,)), stats.cauchy()),
         "gen_cauchy": (lambda k: xr.default_rng(8).standard_cauchy(N), stats.cauchy())}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_continuous(name):
    fn, dist = CONTINUOUS[name]
    x = np.asarray(fn(KEY))
    assert x.shape == (N,) and x.dtype == np.float64
    _ks(x, dist.cdf)
    _moments(x, dist.mean(), dist.var())


@pytest.mark.parametrize("name", sorted(HEAVY))
def test_heavy_tailed(name):
    fn, dist = HEAVY[name]
    _ks(np.asarray(fn(KEY)), dist.cdf)


@pytest.mark.parametrize("lam", [0.7, 4.0, 30.0])
def test_poisson(lam):
    x = np.asarray(xr.poisson(KEY, lam, (N,)))
    assert x.dtype == np.int64 and x.min() >= 0
    top = int(lam + 8 * np.sqrt(lam) + 8)
    probs = stats.poisson(lam).pmf(np.arange(top))
    probs[-1] += stats.poisson(lam).sf(top - 1)
    _chisquare(np.minimum(x, top - 1), probs)
    _moments(x, lam, lam)


def test_geometric_and_dirichlet():
    g = np.asarray(xr.geometric(KEY, 0.3, (N,)))
    assert g.dtype == np.int64 and g.min() >= 1
    top = 25
    probs = stats.geom(0.3).pmf(np.arange(top))
    probs[-1] += stats.geom(0.3).sf(top - 1)
    _chisquare(np.minimum(g, top - 1), probs)
    alpha = np.array([0.5, 2.0, 3.5])
    d = np.asarray(xr.dirichlet(KEY, alpha, (N,)))
    assert d.shape == (N, 3)
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-12)
    for i in range(3):  # marginals are Beta(alpha_i, sum - alpha_i)
        _ks(d[:, i], stats.beta(alpha[i], alpha.sum() - alpha[i]).cdf)
    gd = np.asarray(xr.default_rng(0).dirichlet([1.0, 1.0], size=(2, 5)))
    assert gd.shape == (2, 5, 2)


SMALL = {
    "gamma": lambda k: xr.gamma(k, np.array([0.2, 1.0, 4.0]), (2, 3)),
    "loggamma": lambda k: xr.loggamma(k, 1e-3, (3,)),
    "beta": lambda k: xr.beta(k, 2.0, 3.0, (4,)),
    "dirichlet": lambda k: xr.dirichlet(k, np.ones(3), (2,)),
    "poisson": lambda k: xr.poisson(k, np.array([0.0, 3.0, 50.0]), (2, 3)),
    "chisquare": lambda k: xr.chisquare(k, 2.0, (3,)),
    "t": lambda k: xr.t(k, 3.0, (3,)),
    "f": lambda k: xr.f(k, 2.0, 3.0, (3,)),
    "geometric": lambda k: xr.geometric(k, 0.5, (4,)),
    "laplace": lambda k: xr.laplace(k, (3,), np.float32),
    "weibull_min": lambda k: xr.weibull_min(k, 1.0, 2.0, (3,)),
}


# 4 of the distributions, sampled with a fixed seed (every one with --full-grid): each
# case compiles and runs rejection loops eagerly, seconds per case
@pytest.mark.parametrize("name", [c.name for c in grid(n=4, seed=0, name=sorted(SMALL))])
def test_eager_jit_vmap(name):
    fn = SMALL[name]
    eager = np.asarray(fn(KEY))
    assert_allclose(xnp.jit(fn)(KEY), eager)  # floats to rounding (ulps in float32)
    keys = xr.split(KEY, 3)
    batched = np.asarray(xnp.vmap(fn)(keys))
    looped = np.stack([np.asarray(fn(keys[i])) for i in range(3)])
    assert_allclose(batched, looped)


def test_shapes_dtypes_and_invalid_parameters():
    assert xr.gamma(KEY, np.ones((2, 1)), (3, 2, 4), np.float32).dtype == np.float32
    assert xr.gamma(KEY, np.ones((2, 1)), (3, 2, 4)).shape == (3, 2, 4)
    assert xr.gamma(KEY, np.ones(4)).shape == (4,)
    assert xr.gamma(KEY, 1.0, (0, 3)).shape == (0, 3)
    assert xr.poisson(KEY, 2.0, (3,), np.int32).dtype == np.int32
    out = np.asarray(xr.gamma(KEY, np.array([-1.0, 0.0, np.nan])))
    assert np.isnan(out[0]) and out[1] == 0.0 and np.isnan(out[2])
    # a traced parameter of the NumPy-style API runs NumPy's generator on the run-time
    # value: NumPy's error, raised by the call (the key API gives NaN instead)
    with pytest.raises(ValueError, match="gamma: shape < 0"):
        xnp.jit(lambda a: xr.default_rng(0).gamma(a, 1.0))(np.array([-1.0, 2.0]))
    jitted = np.asarray(xnp.jit(lambda a: xr.gamma(KEY, a))(np.array([-1.0, 2.0])))
    assert np.isnan(jitted[0]) and jitted[1] > 0
    pj = np.asarray(xnp.jit(lambda lam: xr.poisson(KEY, lam))(np.array([-1.0, np.nan, np.inf])))
    np.testing.assert_array_equal(pj, [-1, -1, -1])


@pytest.mark.parametrize("call,pattern", [
    (lambda g: g.gamma(-1.0), "shape < 0"),
    (lambda g: g.gamma(1.0, -2.0), "scale < 0"),
    (lambda g: g.standard_gamma(np.array([1.0, -1.0])), "shape < 0"),
    (lambda g: g.beta(0.0, 1.0), "a <= 0"),
    (lambda g: g.poisson(-1.0), "lam < 0"),
    (lambda g: g.chisquare(0.0), "df <= 0"),
    (lambda g: g.standard_t(xnp.asarray(-1.0)), "df <= 0"),
    (lambda g: g.f(1.0, 0.0), "dfden <= 0"),
    (lambda g: g.lognormal(0.0, -1.0), "sigma < 0"),
    (lambda g: g.laplace(0.0, -1.0), "scale < 0"),
    (lambda g: g.pareto(0.0), "a <= 0"),
    (lambda g: g.weibull(-1.0), "a < 0"),
    (lambda g: g.geometric(1.5), "p <= 0"),
    (lambda g: g.dirichlet([1.0, -1.0]), "alpha < 0"),
])
def test_numpy_errors(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call(xr.default_rng(0))
    np_call_raises = pytest.raises(ValueError)
    with np_call_raises:
        call(np.random.default_rng(0))


def test_legacy_dispatch_and_gradient():
    xr.seed(3)
    a = np.asarray(xr.gamma(2.0, 1.0, size=5))
    xr.seed(3)
    np.testing.assert_array_equal(np.asarray(xr.gamma(2.0, 1.0, size=5)), a)
    assert xr.gamma(KEY, 2.0, (5,)).shape == (5,)
    assert xr.standard_t(3.0, size=(2, 2)).shape == (2, 2)
    assert xr.poisson(size=3).dtype == np.int64
    # implicit reparameterisation: E[dx/da] = dE[x]/da = 1 for Gamma(a, 1)
    g = xnp.jit(xnp.grad(lambda a: xnp.mean(xr.gamma(KEY, a, (N,)))))(2.0)
    assert abs(float(g) - 1.0) < 0.03
    gb = xnp.grad(lambda a: xnp.mean(xr.beta(KEY, a, 2.0, (N,))))(3.0)
    assert abs(float(gb) - 2.0 / 25.0) < 0.01  # d/da a/(a+b) = b/(a+b)**2
