"""NumPy's random streams in ``xnp.random``, bit for bit against NumPy.

Every method of ``Generator`` and ``RandomState`` and every legacy module function,
called with the same arguments (array parameters given as eager xnp arrays on the
xnp side) for a fixed list of seeds, must return NumPy's numbers, dtype and shape, as
an eager xnp array where NumPy returns an array and as NumPy's scalar type where it
returns a scalar, and leave the generator in NumPy's state (the next draw agrees too).
Also: bit generators and SeedSequence, state round trips, signatures, errors, and
every public name of ``numpy.random``. The behaviour under transformations is in
test_random_numpy_jit.py.
"""

import inspect
import pickle
import warnings

import numpy as np
import pytest

import xnp as xp
from xnp import random as xr

SEEDS = [0, 1, 12345, 2**40 + 7, [3, 1, 4]]
XARRAY = type(xp.asarray(0.0))


def _np_array(x):
    return np.asarray(x)


def _xnp_array(x):
    return xp.asarray(x)


def check_same(ours, theirs):
    """``ours`` is NumPy's result ``theirs`` as xnp returns it."""
    if isinstance(theirs, np.ndarray):
        assert type(ours) is XARRAY, type(ours)
        got = np.asarray(ours)
        assert got.dtype == theirs.dtype and got.shape == theirs.shape, (got, theirs)
        np.testing.assert_array_equal(got, theirs)
    else:
        assert type(ours) is type(theirs), (type(ours), type(theirs))
        assert ours == theirs or (ours != ours and theirs != theirs)


MV_COV = [[1.0, 0.5], [0.5, 2.0]]
P5 = [0.1, 0.2, 0.3, 0.2, 0.2]

# (id, call(generator, A)): A makes an array parameter (NumPy's or xnp's)
GENERATOR_CASES = [
    ("random", lambda g, A: g.random()),
    ("random_size", lambda g, A: g.random(5)),
    ("random_shape_f32", lambda g, A: g.random((2, 3), dtype=np.float32)),
    ("standard_normal", lambda g, A: g.standard_normal()),
    ("standard_normal_f32", lambda g, A: g.standard_normal((2, 2), np.float32)),
    ("standard_exponential", lambda g, A: g.standard_exponential(4)),
    ("standard_exponential_inv", lambda g, A: g.standard_exponential(3, method="inv")),
    ("standard_exponential_f32", lambda g, A: g.standard_exponential(3, dtype=np.float32)),
    ("standard_gamma", lambda g, A: g.standard_gamma(2.0)),
    ("standard_gamma_bcast", lambda g, A: g.standard_gamma(A([0.5, 2.0, 5.0]), size=(2, 3))),
    ("standard_gamma_f32", lambda g, A: g.standard_gamma(1.5, 3, dtype=np.float32)),
    ("normal", lambda g, A: g.normal()),
    ("normal_size", lambda g, A: g.normal(0, 1, (2, 3))),
    ("normal_loc", lambda g, A: g.normal(A([0.0, 10.0]), 2.0)),
    ("normal_bcast", lambda g, A: g.normal(A([[0.0], [1.0]]), A([1.0, 2.0, 3.0]))),
    ("uniform", lambda g, A: g.uniform(1, 2, 4)),
    ("uniform_bcast", lambda g, A: g.uniform(A([0.0, 1.0]), A([[2.0], [3.0]]))),
    ("integers", lambda g, A: g.integers(10)),
    ("integers_size", lambda g, A: g.integers(10, size=5)),
    ("integers_uint8", lambda g, A: g.integers(0, 5, (2,), np.uint8)),
    ("integers_endpoint", lambda g, A: g.integers(-3, 3, size=4, endpoint=True)),
    ("integers_uint8_endpoint", lambda g, A: g.integers(0, 255, 3, np.uint8, True)),
    ("integers_int32", lambda g, A: g.integers(5, size=3, dtype=np.int32)),
    ("integers_bool", lambda g, A: g.integers(0, 2, 4, dtype=bool)),
    ("integers_wide", lambda g, A: g.integers(0, 2**40, size=3)),
    ("integers_bcast", lambda g, A: g.integers(A([0, 10]), A([5, 20]), size=(3, 2))),
    ("choice_int", lambda g, A: g.choice(5, 3)),
    ("choice_scalar", lambda g, A: g.choice(A(np.arange(4.0)))),
    ("choice_no_replace", lambda g, A: g.choice(5, 3, replace=False)),
    ("choice_no_shuffle", lambda g, A: g.choice(5, 3, replace=False, shuffle=False)),
    ("choice_p", lambda g, A: g.choice(5, 3, p=P5)),
    ("choice_axis", lambda g, A: g.choice(A(np.arange(12).reshape(4, 3)), 2, axis=1)),
    ("permutation_int", lambda g, A: g.permutation(6)),
    ("permutation_2d", lambda g, A: g.permutation(A(np.arange(6).reshape(3, 2)))),
    ("permutation_axis", lambda g, A: g.permutation(A(np.arange(12).reshape(3, 4)), axis=1)),
    ("permuted", lambda g, A: g.permuted(A(np.arange(12).reshape(3, 4)))),
    ("permuted_axis", lambda g, A: g.permuted(A(np.arange(12).reshape(3, 4)), axis=1)),
    ("exponential", lambda g, A: g.exponential(2.0, 3)),
    ("exponential_bcast", lambda g, A: g.exponential(A([1.0, 2.0, 3.0]))),
    ("gumbel", lambda g, A: g.gumbel(0, 1, 2)),
    ("gumbel_bcast", lambda g, A: g.gumbel(A([0.0, 1.0]), 2.0)),
    ("gamma", lambda g, A: g.gamma(2.0, 1.5, 4)),
    ("gamma_bcast", lambda g, A: g.gamma(A([0.5, 3.0]), A([[1.0], [2.0]]))),
    ("beta", lambda g, A: g.beta(2.0, 0.7, 5)),
    ("beta_bcast", lambda g, A: g.beta(A([1.0, 2.0]), A([3.0, 4.0]))),
    ("dirichlet", lambda g, A: g.dirichlet([0.5, 2.0, 3.5], 4)),
    ("dirichlet_shape", lambda g, A: g.dirichlet(A([1.0, 1.0]), (2, 3))),
    ("poisson", lambda g, A: g.poisson()),
    ("poisson_size", lambda g, A: g.poisson(4.0, 5)),
    ("poisson_bcast", lambda g, A: g.poisson(A([0.5, 30.0, 1000.0]), size=(2, 3))),
    ("chisquare", lambda g, A: g.chisquare(3.0, 4)),
    ("standard_t", lambda g, A: g.standard_t(5.0, 4)),
    ("f", lambda g, A: g.f(5.0, 12.0, 4)),
    ("lognormal", lambda g, A: g.lognormal(0.5, 0.2, 4)),
    ("laplace", lambda g, A: g.laplace(1.0, 2.0, 4)),
    ("logistic", lambda g, A: g.logistic(1.0, 2.0, 4)),
    ("standard_cauchy", lambda g, A: g.standard_cauchy(4)),
    ("pareto", lambda g, A: g.pareto(3.0, 4)),
    ("rayleigh", lambda g, A: g.rayleigh(2.0, 4)),
    ("weibull", lambda g, A: g.weibull(1.5, 4)),
    ("geometric", lambda g, A: g.geometric(0.3, 5)),
    ("binomial", lambda g, A: g.binomial(10, 0.5)),
    ("binomial_size", lambda g, A: g.binomial(10, 0.5, 5)),
    ("binomial_bcast", lambda g, A: g.binomial(A([[10], [200]]), A([0.1, 0.5, 0.9]))),
    ("multinomial", lambda g, A: g.multinomial(20, [0.2, 0.3, 0.5])),
    ("multinomial_size", lambda g, A: g.multinomial(20, A([0.2, 0.3, 0.5]), size=(2,))),
    ("multinomial_bcast", lambda g, A: g.multinomial(A([10, 20]), [[0.5, 0.5], [0.1, 0.9]])),
    ("hypergeometric", lambda g, A: g.hypergeometric(10, 5, 7, 4)),
    ("hypergeometric_bcast", lambda g, A: g.hypergeometric(A([10, 20]), 5, 3)),
    ("negative_binomial", lambda g, A: g.negative_binomial(5, 0.5, 4)),
    ("negative_binomial_bcast", lambda g, A: g.negative_binomial(2.5, A([0.2, 0.8]))),
    ("vonmises", lambda g, A: g.vonmises(0.0, 4.0, 4)),
    ("vonmises_bcast", lambda g, A: g.vonmises(A([0.0, 1.0]), A([0.5, 100.0]))),
    ("wald", lambda g, A: g.wald(1.0, 2.0, 4)),
    ("zipf", lambda g, A: g.zipf(2.0, 5)),
    ("zipf_bcast", lambda g, A: g.zipf(A([1.5, 3.0]))),
    ("logseries", lambda g, A: g.logseries(0.6, 5)),
    ("noncentral_chisquare", lambda g, A: g.noncentral_chisquare(3.0, 2.0, 4)),
    ("noncentral_f", lambda g, A: g.noncentral_f(3.0, 20.0, 3.0, 4)),
    ("power", lambda g, A: g.power(5.0, 4)),
    ("triangular", lambda g, A: g.triangular(0.0, 1.0, 3.0, 4)),
    ("triangular_bcast", lambda g, A: g.triangular(A([0.0, 1.0]), 2.0, 4.0)),
    ("multivariate_normal", lambda g, A: g.multivariate_normal([0.0, 1.0], MV_COV, 3)),
    ("multivariate_normal_cholesky",
     lambda g, A: g.multivariate_normal(A([0.0, 1.0]), A(MV_COV), (2, 2), method="cholesky")),
    ("multivariate_normal_eigh",
     lambda g, A: g.multivariate_normal([0.0, 1.0], MV_COV, method="eigh")),
    ("multivariate_hypergeometric", lambda g, A: g.multivariate_hypergeometric([3, 5, 2], 4, 3)),
    ("multivariate_hypergeometric_count",
     lambda g, A: g.multivariate_hypergeometric(A([3, 5, 2]), 4, method="count")),
    ("multivariate_hypergeometric_marginals",
     lambda g, A: g.multivariate_hypergeometric([3, 5, 2], 6, (2,), method="marginals")),
    ("bytes", lambda g, A: g.bytes(7)),
]


def _run_both(make_xnp, make_np, call):
    ours_g, theirs_g = make_xnp(), make_np()
    theirs = call(theirs_g, _np_array)
    ours = call(ours_g, _xnp_array)
    check_same(ours, theirs)
    return ours_g, theirs_g


@pytest.mark.parametrize("name,call", GENERATOR_CASES, ids=[c[0] for c in GENERATOR_CASES])
def test_generator_matches_numpy(name, call):
    for seed in SEEDS:
        ours_g, theirs_g = _run_both(lambda: xr.default_rng(seed),
                                     lambda: np.random.default_rng(seed), call)
        check_same(ours_g.random(2), theirs_g.random(2))  # the same state afterwards


def test_generator_method_list_is_numpys():
    public = {n for n in dir(np.random.Generator) if not n.startswith("_")}
    covered = {c[0] for c in GENERATOR_CASES} | {"bit_generator", "spawn", "shuffle"}
    assert {n for n in public if not any(c.startswith(n) for c in covered)} == set()
    for name in public - {"bit_generator"}:
        assert (inspect.signature(getattr(xr.Generator, name))
                == inspect.signature(getattr(np.random.Generator, name))), name
        assert getattr(xr.Generator, name).__doc__


def _legacy_cases(with_tomaxint):
    cases = [
        ("rand", lambda m, A: m.rand()), ("rand_dims", lambda m, A: m.rand(2, 3)),
        ("randn", lambda m, A: m.randn(4)), ("randn_scalar", lambda m, A: m.randn()),
        ("randint", lambda m, A: m.randint(5)), ("randint_size", lambda m, A: m.randint(5, size=3)),
        ("randint_range", lambda m, A: m.randint(-3, 3, 4)),
        ("randint_uint8", lambda m, A: m.randint(0, 5, (2,), dtype=np.uint8)),
        ("randint_bcast", lambda m, A: m.randint(A([0, 3]), A([[5], [20]]))),
        ("random_integers", lambda m, A: m.random_integers(1, 6, 5)),
        ("random_sample", lambda m, A: m.random_sample((1, 2))),
        ("random", lambda m, A: m.random(2)), ("random_scalar", lambda m, A: m.random()),
        ("choice", lambda m, A: m.choice([1, 2, 3], 2)),
        ("choice_p", lambda m, A: m.choice(5, 3, replace=False, p=P5)),
        ("permutation", lambda m, A: m.permutation(5)),
        ("permutation_array", lambda m, A: m.permutation(A(np.arange(6).reshape(3, 2)))),
        ("standard_normal", lambda m, A: m.standard_normal(3)),
        ("normal", lambda m, A: m.normal(0, 1, 5)), ("normal_scalar", lambda m, A: m.normal()),
        ("normal_bcast", lambda m, A: m.normal(A([0.0, 10.0]), 2.0)),
        ("uniform", lambda m, A: m.uniform(size=2)),
        ("uniform_bcast", lambda m, A: m.uniform(A([0.0, 1.0]), 3.0)),
        ("exponential", lambda m, A: m.exponential(size=2)),
        ("gumbel", lambda m, A: m.gumbel(size=1)),
        ("beta", lambda m, A: m.beta(2.0, 0.7, 3)),
        ("binomial", lambda m, A: m.binomial(A([10, 200]), 0.3)),
        ("binomial_scalar", lambda m, A: m.binomial(10, 0.3)),
        ("bytes", lambda m, A: m.bytes(5)),
        ("chisquare", lambda m, A: m.chisquare(3.0, 3)),
        ("dirichlet", lambda m, A: m.dirichlet([0.5, 2.0], 2)),
        ("f", lambda m, A: m.f(5.0, 12.0, 3)),
        ("gamma", lambda m, A: m.gamma(A([0.5, 3.0]), 2.0)),
        ("geometric", lambda m, A: m.geometric(0.3, 4)),
        ("hypergeometric", lambda m, A: m.hypergeometric(10, 5, 7, 4)),
        ("laplace", lambda m, A: m.laplace(1.0, 2.0, 3)),
        ("logistic", lambda m, A: m.logistic(1.0, 2.0, 3)),
        ("lognormal", lambda m, A: m.lognormal(0.5, 0.2, 3)),
        ("logseries", lambda m, A: m.logseries(0.6, 4)),
        ("multinomial", lambda m, A: m.multinomial(20, [0.2, 0.3, 0.5], 2)),
        ("multivariate_normal", lambda m, A: m.multivariate_normal([0.0, 1.0], A(MV_COV), 3)),
        ("negative_binomial", lambda m, A: m.negative_binomial(5, 0.5, 4)),
        ("noncentral_chisquare", lambda m, A: m.noncentral_chisquare(3.0, 2.0, 3)),
        ("noncentral_f", lambda m, A: m.noncentral_f(3.0, 20.0, 3.0, 3)),
        ("pareto", lambda m, A: m.pareto(3.0, 3)),
        ("poisson", lambda m, A: m.poisson(A([0.5, 30.0, 1000.0]))),
        ("power", lambda m, A: m.power(5.0, 3)),
        ("rayleigh", lambda m, A: m.rayleigh(2.0, 3)),
        ("standard_cauchy", lambda m, A: m.standard_cauchy(3)),
        ("standard_exponential", lambda m, A: m.standard_exponential(3)),
        ("standard_gamma", lambda m, A: m.standard_gamma(2.0, 3)),
        ("standard_t", lambda m, A: m.standard_t(5.0, 3)),
        ("triangular", lambda m, A: m.triangular(0.0, 1.0, 3.0, 3)),
        ("vonmises", lambda m, A: m.vonmises(0.0, 4.0, 3)),
        ("wald", lambda m, A: m.wald(1.0, 2.0, 3)),
        ("weibull", lambda m, A: m.weibull(1.5, 3)),
        ("zipf", lambda m, A: m.zipf(2.0, 4)),
    ]
    if with_tomaxint:
        return cases + [("tomaxint", lambda m, A: m.tomaxint(3))]
    return cases + [("ranf", lambda m, A: m.ranf(3)), ("sample", lambda m, A: m.sample((2,)))]


RANDOMSTATE_CASES = _legacy_cases(with_tomaxint=True)
MODULE_CASES = _legacy_cases(with_tomaxint=False)


@pytest.fixture(autouse=True)
def _quiet_random_integers():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "This function is deprecated", DeprecationWarning)
        yield


@pytest.mark.parametrize("name,call", RANDOMSTATE_CASES, ids=[c[0] for c in RANDOMSTATE_CASES])
def test_randomstate_matches_numpy(name, call):
    for seed in SEEDS[:4]:  # MT19937's seeds are ints below 2**32 or arrays
        seed = seed % 2**32
        ours, theirs = _run_both(lambda: xr.RandomState(seed),
                                 lambda: np.random.RandomState(seed), call)
        check_same(ours.random_sample(2), theirs.random_sample(2))


@pytest.mark.parametrize("name,call", MODULE_CASES, ids=[c[0] for c in MODULE_CASES])
def test_legacy_functions_match_numpy(name, call):
    for seed in (0, 7, 2**31):
        xr.seed(seed)
        np.random.seed(seed)
        check_same(call(xr, _xnp_array), call(np.random, _np_array))
        check_same(xr.rand(2), np.random.rand(2))


def test_legacy_names_and_signatures_are_numpys():
    module_only = {"get_bit_generator", "set_bit_generator", "default_rng"}
    classes = {"BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox",
               "RandomState", "SFC64", "SeedSequence"}
    submodules = {"bit_generator", "mtrand", "test"}  # numpy.random's modules, not API
    names = {n for n in dir(np.random) if not n.startswith("_")} - submodules
    assert names - set(dir(xr)) == set()
    aliases = {"ranf": "random_sample", "sample": "random_sample"}  # NumPy's: (*args, **kw)
    for name in names - module_only - classes:
        theirs = inspect.signature(getattr(np.random, aliases.get(name, name)))
        assert inspect.signature(getattr(xr, name)) == theirs, name
        assert getattr(xr, name).__doc__, name
    for name in {n for n in dir(np.random.RandomState) if not n.startswith("_")}:
        assert (inspect.signature(getattr(xr.RandomState, name))
                == inspect.signature(getattr(np.random.RandomState, name))), name
    for name in classes - {"Generator", "RandomState"}:
        assert getattr(xr, name) is getattr(np.random, name)  # NumPy's bit generators


@pytest.mark.parametrize("bitgen", ["PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"])
def test_bit_generators(bitgen):
    for seed in SEEDS:
        ours = xr.Generator(getattr(xr, bitgen)(seed))
        theirs = np.random.Generator(getattr(np.random, bitgen)(seed))
        check_same(ours.normal(size=4), theirs.normal(size=4))
        check_same(ours.integers(100, size=3), theirs.integers(100, size=3))
        assert repr(ours).startswith(f"Generator({bitgen}) at 0x")
    check_same(xr.default_rng(xr.PCG64DXSM(3)).random(3),
               np.random.default_rng(np.random.PCG64DXSM(3)).random(3))
    bg = getattr(xr, bitgen)(5)
    assert xr.default_rng(bg).bit_generator is bg


def test_seed_sequence_spawn_and_default_rng_inputs():
    ss = xr.SeedSequence(42)
    check_same(xr.default_rng(ss).random(3),
               np.random.default_rng(np.random.SeedSequence(42)).random(3))
    ours = xr.default_rng(7).spawn(3)
    theirs = np.random.default_rng(7).spawn(3)
    assert all(type(c) is xr.Generator for c in ours)
    for o, t in zip(ours, theirs):
        check_same(o.normal(size=2), t.normal(size=2))
    check_same(xr.default_rng(xp.asarray([1, 2, 3])).random(2),
               np.random.default_rng([1, 2, 3]).random(2))
    g = xr.default_rng(0)
    assert xr.default_rng(g) is g
    npg = np.random.default_rng(9)
    wrapped = xr.default_rng(npg)
    assert wrapped.bit_generator is npg.bit_generator  # shares NumPy's generator's state
    check_same(wrapped.random(2), np.random.default_rng(9).random(2))
    assert type(xr.default_rng().random()) is float  # OS entropy


def test_out_and_in_place():
    for method, kwargs in [("random", {}), ("standard_normal", {}),
                           ("standard_exponential", {}), ("standard_gamma", {"shape": 2.0})]:
        out = xp.zeros((2, 3))
        res = getattr(xr.default_rng(4), method)(out=out, **kwargs)
        assert res is out
        theirs = np.zeros((2, 3))
        getattr(np.random.default_rng(4), method)(out=theirs, **kwargs)
        np.testing.assert_array_equal(np.asarray(out), theirs)
    out32 = xp.zeros(4, dtype=np.float32)
    assert xr.default_rng(4).random(dtype=np.float32, out=out32) is out32
    np.testing.assert_array_equal(np.asarray(out32),
                                  np.random.default_rng(4).random(dtype=np.float32, out=np.zeros(
                                      4, np.float32)))
    x = xp.arange(12).reshape(3, 4)
    out = xp.zeros((3, 4), dtype=x.dtype)
    assert xr.default_rng(1).permuted(x, axis=1, out=out) is out
    np.testing.assert_array_equal(np.asarray(out),
                                  np.random.default_rng(1).permuted(np.arange(12).reshape(3, 4),
                                                                    axis=1))
    base = xp.arange(10)
    view = base[2:8]
    assert xr.default_rng(3).shuffle(view) is None  # in place, through the view
    theirs = np.arange(10)
    np.random.default_rng(3).shuffle(theirs[2:8])
    np.testing.assert_array_equal(np.asarray(base), theirs)
    m = xp.arange(12).reshape(4, 3)
    xr.default_rng(5).shuffle(m, axis=1)
    t = np.arange(12).reshape(4, 3)
    np.random.default_rng(5).shuffle(t, axis=1)
    np.testing.assert_array_equal(np.asarray(m), t)
    xr.seed(2)
    np.random.seed(2)
    a, b = xp.arange(7), np.arange(7)
    xr.shuffle(a)
    np.random.shuffle(b)
    np.testing.assert_array_equal(np.asarray(a), b)
    r = xr.RandomState(8)
    c, d = xp.arange(5.0), np.arange(5.0)
    r.shuffle(c)
    np.random.RandomState(8).shuffle(d)
    np.testing.assert_array_equal(np.asarray(c), d)


def test_state_round_trips():
    g = xr.default_rng(11)
    state = g.bit_generator.state
    first = np.asarray(g.normal(size=5))
    g.bit_generator.state = state
    np.testing.assert_array_equal(np.asarray(g.normal(size=5)), first)
    for legacy in (True, False):
        r = xr.RandomState(3)
        st = r.get_state(legacy=legacy)
        drawn = np.asarray(r.randn(4))
        r.set_state(st)
        np.testing.assert_array_equal(np.asarray(r.randn(4)), drawn)
        npr = np.random.RandomState(0)
        npr.set_state(st)  # the state is NumPy's: it moves between the two
        np.testing.assert_array_equal(npr.randn(4), drawn)
    xr.seed(5)
    st = xr.get_state()
    drawn = np.asarray(xr.rand(3))
    xr.set_state(st)
    np.testing.assert_array_equal(np.asarray(xr.rand(3)), drawn)
    np.random.seed(5)
    np.testing.assert_array_equal(np.random.rand(3), drawn)
    for obj in (xr.default_rng(2), xr.RandomState(2)):
        again = pickle.loads(pickle.dumps(obj))
        assert type(again) is type(obj)
        np.testing.assert_array_equal(np.asarray(again.random(3)), np.asarray(obj.random(3)))


def test_get_and_set_bit_generator():
    saved = xr.get_bit_generator()
    try:
        assert isinstance(saved, xr.MT19937)
        xr.set_bit_generator(xr.PCG64(4))
        check_same(xr.random(3), np.random.RandomState(np.random.PCG64(4)).random(3))
        with pytest.raises(TypeError, match="set_bit_generator"):
            xr.set_bit_generator(5)
    finally:
        xr.set_bit_generator(saved)
    assert xr.get_bit_generator() is saved


@pytest.mark.parametrize("call", [
    lambda m: m.default_rng(0).normal(0, -1.0),
    lambda m: m.default_rng(0).integers(5, 5),
    lambda m: m.default_rng(0).integers(0, 300, dtype=np.uint8),
    lambda m: m.default_rng(0).choice(3, 4, replace=False),
    lambda m: m.default_rng(0).choice(3, 2, p=[0.5, 0.6, 0.1]),
    lambda m: m.default_rng(0).binomial(-1, 0.5),
    lambda m: m.default_rng(0).hypergeometric(2, 2, 5),
    lambda m: m.RandomState(0).multinomial(3, [1.5, 0.6]),
    lambda m: m.default_rng(0).vonmises(0.0, -1.0),
    lambda m: m.default_rng(0).zipf(0.5),
    lambda m: m.default_rng(0).logseries(2.0),
    lambda m: m.default_rng(0).random(dtype=np.int32),
    lambda m: m.default_rng(0).normal(np.zeros(3), 1.0, size=(2,)),
    lambda m: m.default_rng(0).multivariate_normal([0.0], [[1.0]], method="nope"),
    lambda m: m.default_rng(-1),
    lambda m: m.RandomState(-1),
    lambda m: m.RandomState(0).randint(5, 2),
    lambda m: m.RandomState(0).negative_binomial(0, 0.5),
    lambda m: m.wald(-1.0, 1.0),
    lambda m: m.power(-1.0),
    lambda m: m.triangular(2.0, 1.0, 3.0),
    lambda m: m.noncentral_f(1.0, -1.0, 1.0),
    lambda m: m.set_state("bad"),
])
def test_errors_match_numpy(call):
    with pytest.raises(Exception) as theirs:
        call(np.random)
    with pytest.raises(type(theirs.value)) as ours:
        call(xr)
    assert str(ours.value).startswith("xnp.random.")
    assert str(theirs.value) in str(ours.value)


def test_generator_requires_a_bit_generator():
    with pytest.raises(TypeError, match="xnp.random.Generator: `bit_generator`"):
        xr.Generator(0)
