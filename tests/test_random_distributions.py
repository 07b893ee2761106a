"""JAX-style samplers of ``xnp.random`` (``f(key, shape, ...)``).

Oracles: exact reproducibility (same key -> same bits eagerly, under jit and with
the eager XLA backend; floats to rounding, since jit and eager
execution agree only to rounding), and statistics against closed
forms with fixed keys: Kolmogorov-Smirnov tests against SciPy's CDFs plus mean and
variance within 5 standard errors (tight enough to catch a wrong location or scale:
with n = 20000 a 3% scale error fails), chi-square tests for discrete samplers.
"""

import math

import numpy as np
import pytest
from scipy import stats

import xnp
from tests.helpers import assert_allclose, sample_of
from tests.test_random_keys import run
from xnp import random as xr
from xnp.random import distributions as D

N = 20_000
KEY = xr.PRNGKey(2024)
P_MIN = 1e-3  # fixed keys: deterministic; a correct sampler passes with p ~ U(0, 1)


SAMPLERS = {
    "uniform": lambda k: D.uniform(k, (5,)),
    "uniform_f32_bounds": lambda k: D.uniform(k, (2, 3), np.float32, -2.0, 3.0),
    "uniform_bf16": lambda k: D.uniform(k, (4,), xnp.bfloat16),
    "normal": lambda k: D.normal(k, (2, 3)),
    "normal_c128": lambda k: D.normal(k, (3,), np.complex128),
    "randint": lambda k: D.randint(k, (6,), -5, 17),
    "randint_u8_full": lambda k: D.randint(k, (6,), 0, 256, np.uint8),
    "bernoulli": lambda k: D.bernoulli(k, 0.3, (6,)),
    "gumbel": lambda k: D.gumbel(k, (4,)),
    "exponential": lambda k: D.exponential(k, (4,)),
    "truncated_normal": lambda k: D.truncated_normal(k, -1.0, 0.5, (4,)),
    "categorical": lambda k: D.categorical(k, np.log([0.2, 0.3, 0.5]), shape=(5,)),
    "choice": lambda k: D.choice(k, 7, (4,)),
    "choice_p_noreplace": lambda k: D.choice(k, np.arange(5.0), (3,), replace=False,
                                             p=np.array([0.1, 0.2, 0.3, 0.2, 0.2])),
    "permutation": lambda k: D.permutation(k, np.arange(12).reshape(4, 3)),
}


# every sampler eagerly and under jit; the eager XLA backend (a compile per primitive) for
# a sample of them that keeps each kind of output (float: bfloat16 uniform, complex normal;
# uint8 integers; bool) and the Gumbel top-k sampler (all of them with --full-grid)
EAGER_XLA = sample_of(sorted(SAMPLERS), keep=[
    "uniform_bf16", "normal_c128", "randint_u8_full", "bernoulli", "choice_p_noreplace"],
    n=0)


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_same_key_same_values_everywhere(name):
    f = SAMPLERS[name]
    eager = f(KEY)
    again = f(KEY)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(again))
    for mode in ("jit", "eager_xla") if name in EAGER_XLA else ("jit",):
        # floats to rounding (XLA may contract a*b+c into an FMA); bits and ints exactly
        assert_allclose(run(mode, f, KEY), np.asarray(eager), err_msg=f"{name} {mode}")
    other = np.asarray(f(xr.PRNGKey(2025)))
    assert not np.array_equal(other, np.asarray(eager)), "a different key gave the same draws"


def test_default_dtypes():
    assert D.uniform(KEY).dtype == np.float64 and D.uniform(KEY).shape == ()
    assert D.normal(KEY, 3).dtype == np.float64
    assert D.randint(KEY, (2,), 0, 3).dtype == np.int64
    assert D.bernoulli(KEY).dtype == np.bool_
    assert D.categorical(KEY, np.zeros(3)).dtype == np.int64
    assert xr.bits(KEY).dtype == np.uint64


def _ks(samples, cdf):
    p = stats.kstest(np.asarray(samples, np.float64).ravel(), cdf).pvalue
    assert p > P_MIN, f"KS p-value {p:.2e}"


def _moments(samples, mean, var):
    x = np.asarray(samples, np.float64).ravel()
    n = x.size
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / n), (x.mean(), mean)
    # the sample variance's standard error, from the 4th central moment
    m4 = np.mean((x - x.mean()) ** 4)
    assert abs(x.var() - var) < 5 * math.sqrt(max(m4 - var**2, 1e-30) / n), (x.var(), var)


CONTINUOUS = {
    "normal": (lambda k: D.normal(k, (N,)), stats.norm()),
    "normal_f32": (lambda k: D.normal(k, (N,), np.float32), stats.norm()),
    "uniform": (lambda k: D.uniform(k, (N,), minval=-2.0, maxval=3.0), stats.uniform(-2, 5)),
    "uniform_f32": (lambda k: D.uniform(k, (N,), np.float32), stats.uniform()),
    "exponential": (lambda k: D.exponential(k, (N,)), stats.expon()),
    "gumbel": (lambda k: D.gumbel(k, (N,)), stats.gumbel_r()),
    "truncated_normal": (lambda k: D.truncated_normal(k, -1.0, 2.0, (N,)),
                         stats.truncnorm(-1.0, 2.0)),
    "normal_c128_real": (lambda k: D.normal(k, (N,), np.complex128).real,
                         stats.norm(scale=math.sqrt(0.5))),
    "normal_c128_imag": (lambda k: D.normal(k, (N,), np.complex128).imag,
                         stats.norm(scale=math.sqrt(0.5))),
}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_continuous_distribution(name):
    f, dist = CONTINUOUS[name]
    x = np.asarray(f(KEY))
    _ks(x, dist.cdf)
    _moments(x, dist.mean(), dist.var())


@pytest.mark.parametrize("method", ["cholesky", "eigh"])
def test_multivariate_normal(method):
    mean = np.array([1.0, -2.0, 0.5])
    a = np.array([[1.0, 0.0, 0.0], [0.8, 0.6, 0.0], [-0.3, 0.4, 0.5]])
    cov = a @ a.T
    x = np.asarray(D.multivariate_normal(KEY, mean, cov, (N,), method=method))
    assert x.shape == (N, 3)
    white = np.linalg.solve(a, (x - mean).T)  # N(0, I) if the covariance is right
    for row in white:
        _ks(row, stats.norm().cdf)
    np.testing.assert_allclose(np.cov(white), np.eye(3), atol=5 * math.sqrt(2 / N))
    j = xnp.jit(lambda k: D.multivariate_normal(k, mean, cov, (4,), method=method))(KEY)
    assert_allclose(j, np.asarray(D.multivariate_normal(KEY, mean, cov, (4,), method=method)),
                    kind="reduction")
    assert D.multivariate_normal(KEY, np.zeros((2, 3)), cov).shape == (2, 3)


def test_uniform_range_and_traced_bounds():
    lo = np.array([[-1.0], [10.0]])
    hi = np.array([[1.0], [10.5]])
    f = xnp.jit(lambda k, a, b: D.uniform(k, (2, 1000), minval=a, maxval=b))
    x = np.asarray(f(KEY, lo, hi))
    assert x.shape == (2, 1000)
    assert (x[0] >= -1).all() and (x[0] < 1).all() and (x[1] >= 10).all() and (x[1] < 10.5).all()
    np.testing.assert_allclose(x, np.asarray(D.uniform(KEY, (2, 1000), minval=lo, maxval=hi)),
                               rtol=1e-13)
    b = np.asarray(D.uniform(KEY, (N,), xnp.bfloat16)).astype(np.float64)
    assert (b >= 0).all() and (b < 1).all() and abs(b.mean() - 0.5) < 0.01


def test_reparameterised_gradients():
    z = np.asarray(D.normal(KEY, (4,)))
    grad = xnp.grad(lambda loc, scale: xnp.sum(loc + scale * D.normal(KEY, (4,))), argnums=(0, 1))
    g_loc, g_scale = grad(1.0, 2.0)
    assert float(g_loc) == 4.0
    np.testing.assert_allclose(float(g_scale), z.sum(), rtol=1e-13)
    u = np.asarray(D.uniform(KEY, (5,)))
    gu = xnp.jit(xnp.grad(lambda a, b: xnp.sum(D.uniform(KEY, (5,), minval=a, maxval=b)),
                          argnums=(0, 1)))(0.5, 2.0)
    np.testing.assert_allclose([float(g) for g in gu], [np.sum(1 - u), np.sum(u)], rtol=1e-12)


def _chisquare(values, probs):
    counts = np.bincount(np.asarray(values).ravel(), minlength=len(probs))
    assert counts.size == len(probs), "values outside the support"
    probs = np.asarray(probs)
    assert not counts[probs == 0].any(), f"a zero-probability value was drawn: {counts}"
    p = stats.chisquare(counts[probs > 0], probs[probs > 0] * counts.sum()).pvalue
    assert p > P_MIN, f"chi-square p-value {p:.2e}, counts {counts}"


def test_randint_uniform_over_range():
    x = np.asarray(D.randint(KEY, (N,), -5, 17))
    assert x.min() == -5 and x.max() == 16
    _chisquare(x + 5, np.full(22, 1 / 22))


def test_randint_bounds_edge_cases():
    full = np.asarray(D.randint(KEY, (N,), 0, 256, np.uint8))
    assert full.min() == 0 and full.max() == 255
    _chisquare(full, np.full(256, 1 / 256))
    assert (np.asarray(D.randint(KEY, (5,), 3, 3)) == 3).all()  # empty range gives minval
    assert (np.asarray(D.randint(KEY, (5,), 4, 1)) == 4).all()
    clipped = np.asarray(D.randint(KEY, (N,), -1000, 1000, np.int8))
    assert clipped.min() == -128 and clipped.max() == 127
    big = np.asarray(D.randint(KEY, (N,), -(2**63), 2**63 - 1))
    assert big.min() < -(2**61) and big.max() > 2**61
    arr = np.asarray(D.randint(KEY, (2, N), np.array([[0], [100]]), np.array([[2], [103]])))
    assert set(np.unique(arr[0])) == {0, 1} and set(np.unique(arr[1])) == {100, 101, 102}


def test_bernoulli_frequency():
    x = np.asarray(D.bernoulli(KEY, 0.3, (N,)))
    _chisquare(x.astype(np.int64), [0.7, 0.3])
    p = np.array([0.0, 1.0, 0.5])
    y = np.asarray(D.bernoulli(KEY, p, (N, 3)))
    assert not y[:, 0].any() and y[:, 1].all() and abs(y[:, 2].mean() - 0.5) < 0.02


def test_categorical_frequencies_and_shapes():
    probs = np.array([0.1, 0.2, 0.3, 0.4])
    x = np.asarray(D.categorical(KEY, np.log(probs), shape=(N,)))
    _chisquare(x, probs)
    logits = np.log(np.array([[0.9, 0.1], [0.1, 0.9], [0.5, 0.5]]))
    y = np.asarray(D.categorical(KEY, logits, axis=1, shape=(N, 3)))
    assert y.shape == (N, 3)
    np.testing.assert_allclose(y.mean(axis=0), [0.1, 0.9, 0.5], atol=0.02)
    z = np.asarray(D.categorical(KEY, logits.T, axis=0))
    assert z.shape == (3,)


def test_choice_with_and_without_replacement():
    x = np.asarray(D.choice(KEY, 6, (N,)))
    _chisquare(x, np.full(6, 1 / 6))
    p = np.array([0.1, 0.5, 0.0, 0.4])
    y = np.asarray(D.choice(KEY, 4, (N,), p=p))
    _chisquare(y, p)
    a = np.arange(20).reshape(5, 4)
    rows = np.asarray(D.choice(KEY, a, (3,), replace=False))
    assert rows.shape == (3, 4) and len({r[0] for r in rows}) == 3
    np.testing.assert_array_equal(rows % 4, np.tile(np.arange(4), (3, 1)))
    cols = np.asarray(D.choice(KEY, a, (2, 2), axis=1))
    assert cols.shape == (5, 2, 2)
    w = np.asarray(D.choice(KEY, 5, (5,), replace=False, p=np.full(5, 0.2)))
    assert sorted(w.tolist()) == [0, 1, 2, 3, 4]
    with np.errstate(divide="ignore"):  # log(p) = -inf for the p == 0 entry, as intended
        firsts = np.asarray(xnp.vmap(lambda k: D.choice(k, 4, (2,), replace=False, p=p)[0])(
            xr.split(KEY, 4000)))
    _chisquare(firsts, p)


def test_permutation_properties():
    x = np.asarray(D.permutation(KEY, 10))
    assert sorted(x.tolist()) == list(range(10))
    a = np.arange(12).reshape(4, 3)
    rows = np.asarray(D.permutation(KEY, a))
    assert sorted(rows[:, 0].tolist()) == [0, 3, 6, 9]
    np.testing.assert_array_equal(rows - rows[:, :1], np.tile([0, 1, 2], (4, 1)))
    ind = np.asarray(D.permutation(KEY, a, axis=1, independent=True))
    assert all(sorted(r.tolist()) == a[i].tolist() for i, r in enumerate(ind))
    big = np.asarray(D.permutation(KEY, 5000))  # two sorting rounds
    assert sorted(big.tolist()) == list(range(5000))
    firsts = np.asarray(xnp.vmap(lambda k: D.permutation(k, 5)[0])(xr.split(KEY, 5000)))
    _chisquare(firsts, np.full(5, 0.2))


@pytest.mark.parametrize("call,exc,pattern", [
    (lambda: D.uniform(KEY, (2,), np.int32), TypeError, "uniform: `dtype`"),
    (lambda: D.normal(KEY, (2,), np.int64), TypeError, "normal: `dtype`"),
    (lambda: D.randint(KEY, (2,), 0, 3, np.float64), TypeError, "randint: `dtype`"),
    (lambda: D.uniform(KEY, (2,), minval=np.zeros(3)), ValueError, "broadcast"),
    (lambda: D.uniform(KEY, (-1,)), ValueError, "negative"),
    (lambda: D.choice(KEY, 3, (4,), replace=False), ValueError, "without replacement"),
    (lambda: D.choice(KEY, 3, (2,), p=np.ones(4) / 4), ValueError, "`p` must have shape"),
    (lambda: D.choice(KEY, 0, (2,)), ValueError, "non-empty"),
    (lambda: D.categorical(KEY, np.zeros(3), replace=False), NotImplementedError, "replace"),
    (lambda: D.categorical(KEY, np.zeros((2, 3)), shape=(4,)), ValueError, "batch shape"),
    (lambda: D.gumbel(KEY, (2,), mode="high"), NotImplementedError, "mode"),
    (lambda: D.multivariate_normal(KEY, np.zeros(2), np.eye(2), method="svd"),
     NotImplementedError, "svd"),
    (lambda: D.multivariate_normal(KEY, np.zeros(3), np.eye(2)), ValueError, r"\(\.\.\., n, n\)"),
    (lambda: xnp.jit(lambda n: D.normal(KEY, (n,)))(3), xnp.errors.ConcretizationTypeError,
     "shape"),
])
def test_errors(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()
