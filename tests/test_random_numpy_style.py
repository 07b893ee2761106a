"""NumPy-style ``xnp.random``: ``default_rng``/``Generator`` and the legacy module
functions, and the dispatch between the JAX and NumPy forms of shared names.

The NumPy-style API runs NumPy's own generators, so values are checked against
NumPy's for the same call (bit for bit), plus reproducibility, statistics (KS against
SciPy's CDFs) and errors (the class NumPy raises). The full oracle grid is in
test_random_numpy_streams.py.
"""

import math

import numpy as np
import pytest
from scipy import stats

import xnp
import xnp as xp
from xnp import random as xr

N = 20_000


def _ks(x, cdf):
    assert stats.kstest(np.asarray(x, np.float64).ravel(), cdf).pvalue > 1e-3


def test_generator_reproducible_and_advancing():
    a, b = xr.default_rng(0), xr.default_rng(0)
    first = np.asarray(a.normal(size=5))
    np.testing.assert_array_equal(first, np.asarray(b.normal(size=5)))
    assert not np.array_equal(first, np.asarray(a.normal(size=5)))  # the state advanced
    assert not np.array_equal(first, np.asarray(xr.default_rng(1).normal(size=5)))
    assert xr.default_rng(a) is a
    seq = np.asarray(xr.default_rng([1, 2, 3]).random(3))
    np.testing.assert_array_equal(seq, np.asarray(xr.default_rng([1, 2, 3]).random(3)))
    assert (xr.default_rng(np.random.SeedSequence(5)).random()
            == np.random.default_rng(np.random.SeedSequence(5)).random())
    assert xr.default_rng().random(2).shape == (2,)  # OS entropy


# (method call, the same call on numpy's Generator) -> NumPy's numbers, shape and dtype
SHAPE_CASES = [
    ("random()", lambda g: g.random()),
    ("random(3)", lambda g: g.random(3)),
    ("random((2,3), float32)", lambda g: g.random((2, 3), np.float32)),
    ("standard_normal((2,2))", lambda g: g.standard_normal((2, 2))),
    ("normal(loc array)", lambda g: g.normal(np.array([0.0, 10.0]), 2.0)),
    ("normal(size=(3,2))", lambda g: g.normal(np.zeros(2), 1.0, size=(3, 2))),
    ("uniform(1, 2, 4)", lambda g: g.uniform(1, 2, 4)),
    ("integers(10, size=5)", lambda g: g.integers(10, size=5)),
    ("integers(0, 5, (2,), uint8)", lambda g: g.integers(0, 5, (2,), np.uint8)),
    ("choice(5, 3)", lambda g: g.choice(5, 3)),
    ("choice(array)", lambda g: g.choice(np.arange(4.0))),
    ("permutation(6)", lambda g: g.permutation(6)),
    ("permutation(2d)", lambda g: g.permutation(np.arange(6).reshape(3, 2))),
    ("exponential(2.0, 3)", lambda g: g.exponential(2.0, 3)),
    ("standard_exponential(2)", lambda g: g.standard_exponential(2)),
    ("gumbel(0, 1, 2)", lambda g: g.gumbel(0, 1, 2)),
]


@pytest.mark.parametrize("name,call", SHAPE_CASES, ids=[c[0] for c in SHAPE_CASES])
def test_generator_values_shapes_and_dtypes_like_numpy(name, call):
    # formerly checked shape and dtype only (xnp's own Threefry bits); now NumPy's numbers
    ours = call(xr.default_rng(3))
    theirs = call(np.random.default_rng(3))
    if isinstance(theirs, np.ndarray):
        assert type(ours) is type(xp.asarray(0)), type(ours)
    else:
        assert type(ours) is type(theirs)
    np.testing.assert_array_equal(np.asarray(ours), theirs)
    assert np.asarray(ours).dtype == np.asarray(theirs).dtype


def test_generator_statistics():
    g = xr.default_rng(11)
    _ks(g.normal(3.0, 2.0, size=N), stats.norm(3.0, 2.0).cdf)
    _ks(g.uniform(-1.0, 4.0, size=N), stats.uniform(-1.0, 5.0).cdf)
    _ks(g.exponential(0.5, size=N), stats.expon(scale=0.5).cdf)
    _ks(g.gumbel(1.0, 2.0, size=N), stats.gumbel_r(1.0, 2.0).cdf)
    _ks(g.standard_normal(N, dtype=np.float32), stats.norm().cdf)
    x = np.asarray(g.random(N))
    assert abs(x.mean() - 0.5) < 5 * math.sqrt(1 / 12 / N)
    ints = np.asarray(g.integers(1, 7, size=N, endpoint=True))
    assert ints.min() == 1 and ints.max() == 7
    counts = np.bincount(ints)[1:]
    assert stats.chisquare(counts).pvalue > 1e-3


def test_shuffle_in_place():
    a = xp.arange(10)
    before = a
    assert xr.default_rng(0).shuffle(a) is None
    assert a is before and sorted(np.asarray(a).tolist()) == list(range(10))
    assert np.asarray(a).tolist() != list(range(10))
    m = xp.arange(12).reshape(4, 3)
    xr.default_rng(1).shuffle(m, axis=1)
    assert sorted(np.asarray(m)[0].tolist()) == [0, 1, 2]
    cols = np.asarray(m) % 3
    assert (cols == cols[0]).all()  # every row permuted alike
    theirs, ours = np.arange(6), np.arange(6)  # a NumPy array is shuffled as NumPy does
    np.random.default_rng(2).shuffle(theirs)
    xr.default_rng(2).shuffle(ours)
    np.testing.assert_array_equal(ours, theirs)


def test_legacy_functions_are_reproducible_after_seed():
    def draws():
        return [np.asarray(v) for v in (
            xr.rand(2, 3), xr.randn(4), xr.random(2), xr.random_sample((1, 2)),
            xr.randint(5, size=3), xr.randint(-3, 3, 4), xr.normal(0, 1, size=5),
            xr.uniform(size=2), xr.choice([1, 2, 3], 2), xr.permutation(5),
            xr.exponential(size=2), xr.standard_normal(3), xr.gumbel(size=1))]

    xr.seed(0)
    first = draws()
    xr.seed(0)
    second = draws()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    np.random.seed(0)  # NumPy's numbers (formerly only shapes and dtypes were compared)
    np.testing.assert_array_equal(first[0], np.random.rand(2, 3))
    np.testing.assert_array_equal(first[1], np.random.randn(4))
    assert isinstance(xr.rand(), float)
    x = xp.arange(5)
    xr.shuffle(x)
    assert sorted(np.asarray(x).tolist()) == list(range(5))


def test_numpy_style_via_import_xnp_as_np():
    import xnp as np_  # the brief's spelling: import xnp as np

    assert np_.random.default_rng(0).normal(size=3).shape == (3,)
    np_.random.seed(0)
    assert np_.random.rand(2, 3).shape == (2, 3)
    assert np_.random.normal(0, 1, size=5).shape == (5,)


def test_dispatch_between_jax_and_numpy_forms():
    key = xr.PRNGKey(0)
    np.testing.assert_array_equal(np.asarray(xr.normal(key, (3,))),
                                  np.asarray(xr.distributions.normal(key, (3,))))
    np.testing.assert_array_equal(np.asarray(xr.normal(key=key, shape=(3,))),
                                  np.asarray(xr.distributions.normal(key, (3,))))
    np.testing.assert_array_equal(np.asarray(xr.uniform(np.asarray(key), (2,))),
                                  np.asarray(xr.distributions.uniform(key, (2,))))
    np.testing.assert_array_equal(np.asarray(xr.randint(key, (2,), 0, 5)),
                                  np.asarray(xr.distributions.randint(key, (2,), 0, 5)))
    np.testing.assert_array_equal(np.asarray(xr.choice(key, 5, (2,))),
                                  np.asarray(xr.distributions.choice(key, 5, (2,))))
    np.testing.assert_array_equal(np.asarray(xr.permutation(key, 4)),
                                  np.asarray(xr.distributions.permutation(key, 4)))
    assert xr.normal(0.0, 1.0, 4).shape == (4,)  # NumPy: loc, scale, size
    assert xr.uniform(np.zeros(2, np.float32), 1.0).shape == (2,)
    assert xr.normal(np.zeros(2, np.int64)).shape == (2,)  # int64[2] is not key data
    assert xr.choice(np.arange(2, dtype=np.int32), 3).shape == (3,)


def test_generator_under_jit_draws_fresh_numbers_on_every_call():
    # formerly the draw was made once at trace time and baked in (the same numbers on
    # every call), then it raised; now each call runs NumPy's generator, as eagerly
    g = xr.default_rng(0)
    f = xnp.jit(lambda x: x + g.normal(size=3))
    theirs = np.random.default_rng(0)
    for _ in range(2):
        np.testing.assert_array_equal(f(xp.zeros(3)), theirs.normal(size=3))
    np.testing.assert_array_equal(g.normal(size=3), theirs.normal(size=3))
    xr.seed(1)
    h = xnp.jit(lambda: xr.rand(2))
    np.random.seed(1)
    for _ in range(2):
        np.testing.assert_array_equal(h(), np.random.rand(2))
    np.testing.assert_array_equal(xr.rand(2), np.random.rand(2))


@pytest.mark.parametrize("call", [
    lambda m: m.default_rng(0).normal(0, -1.0),
    lambda m: m.default_rng(0).integers(5, 5),
    lambda m: m.default_rng(0).integers(5, 4, endpoint=True),
    lambda m: m.default_rng(0).exponential(-2.0),
    lambda m: m.default_rng(0).choice(3, 4, replace=False),
    lambda m: m.default_rng(-1),
    lambda m: m.default_rng(0).normal(np.zeros(3), 1.0, size=(2,)),
])
def test_errors_match_numpy_class(call):
    with pytest.raises(Exception) as theirs:
        call(np.random)
    with pytest.raises(type(theirs.value)):
        call(xr)
