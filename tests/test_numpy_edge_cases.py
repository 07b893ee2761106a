"""Edge cases of NumPy functions, each against NumPy eagerly and under jit: the forms of
percentile/quantile's ``q``, empty ``matrix_rank``/``eigh``, Python ints out of a dtype's
range, ``choice`` probabilities, predicates returning Python bools, ``vectorize`` with
Python branching, ``ndarray.view``."""

import numpy as np
import pytest

import xnp
from tests.helpers import check_vs_numpy, covering_grid, grid


# 1. percentile with an integer q divides by 100 first (float64 result), as NumPy.
_Q = {"50": 50, "q1": np.int64(50), "q2": np.array([0, 50, 100]), "50.0": 50.0, "True": True,
      "1": 1}
# sampled (all with --full-grid): each function with every dtype, each q form (Python and
# NumPy ints, an array, a float, a bool) with every function taking q and every dtype
_PERCENTILE = covering_grid(
    dtype=[np.int64, np.float32, np.float64], q=list(_Q), fname=["percentile", "nanpercentile",
                                                                  "quantile", "median"],
    labels=lambda c: [(c.fname, np.dtype(c.dtype).name)] + (
        [] if c.fname == "median" else [(c.q, np.dtype(c.dtype).name), (c.fname, c.q)]),
    n=32, seed=1)


@pytest.mark.parametrize("dtype,q,fname", [(c.dtype, _Q[c.q], c.fname) for c in _PERCENTILE],
                         ids=[f"{np.dtype(c.dtype).name}-{c.q}-{c.fname}" for c in _PERCENTILE])
def test_percentile_integer_q_dtype(fname, q, dtype):
    a = np.arange(6, dtype=dtype)
    if fname == "median":
        check_vs_numpy(lambda xp, x: xp.median(x), a)
        return
    if fname == "quantile" and not isinstance(q, (bool, int)):
        q = np.asarray(q) / 100
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, q), a)


# 2. A concrete (host) q out of range raises ValueError also under jit.
@pytest.mark.parametrize("fname,q", [("percentile", 150), ("percentile", [0, 200]),
                                     ("percentile", np.float64(-1)), ("quantile", 1.5),
                                     ("nanquantile", np.array([-0.1])),
                                     ("nanpercentile", 100.5)])
def test_quantile_concrete_q_range_checked_under_jit(fname, q):
    a = np.arange(4.0)
    with pytest.raises(ValueError):
        getattr(np, fname)(a, q)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, q), a)


def test_quantile_traced_q_is_not_checked():
    # documented: a traced q cannot be range-checked; values clamp
    out = xnp.jit(lambda x, q: xnp.quantile(x, q))(xnp.arange(3.0), 2.0)
    assert float(out) == 2.0


# 3. matrix_rank of empty matrices is 0 (batched: zeros); eigh of an empty batch works.
@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 3), (2, 3, 0), (2, 0, 0),
                                   (0, 2, 2)])
@pytest.mark.parametrize("kw", [{}, {"hermitian": True}, {"tol": 0.5}, {"rtol": 0.1}])
def test_matrix_rank_empty(shape, kw):
    if kw.get("hermitian") and shape[-1] != shape[-2]:
        pytest.skip("hermitian needs square matrices")
    check_vs_numpy(lambda xp, x: xp.linalg.matrix_rank(x, **kw), np.zeros(shape))


def test_eigh_empty_batch():
    check_vs_numpy(lambda xp, x: xp.linalg.eigvalsh(x), np.zeros((0, 2, 2)))


# 4. NEP 50: a Python int outside an integer array's dtype compares mathematically and
#    true-divides in float64; arithmetic still raises OverflowError.
_BIG_INTS = [(np.uint8, 300), (np.uint8, -1), (np.int8, 255), (np.int8, -129),
             (np.int32, 2**31), (np.int64, 2**63), (np.int64, 2**64), (np.uint64, -1),
             (np.uint64, 2**64), (np.int8, 2**70), (np.uint8, 5)]
_OUT_OF_RANGE_OPS = {
    "eq": lambda xp, x, v: x == v, "ne": lambda xp, x, v: x != v,
    "lt": lambda xp, x, v: x < v, "le": lambda xp, x, v: x <= v,
    "gt": lambda xp, x, v: x > v, "ge": lambda xp, x, v: x >= v,
    "r_lt": lambda xp, x, v: v < x, "r_eq": lambda xp, x, v: v == x,
    "equal": lambda xp, x, v: xp.equal(x, v), "greater_r": lambda xp, x, v: xp.greater(v, x),
    "less_equal": lambda xp, x, v: xp.less_equal(x, v),
    "div": lambda xp, x, v: x / v, "rdiv": lambda xp, x, v: v / x,
    "true_divide": lambda xp, x, v: xp.true_divide(x, v),
    "add": lambda xp, x, v: x + v, "floor_divide": lambda xp, x, v: xp.floor_divide(x, v),
    "maximum": lambda xp, x, v: xp.maximum(x, v),
}


# 90 of the (dtype, value, op) cases (every one with --full-grid)
@pytest.mark.parametrize("case", grid(n=90, seed=8, dv=_BIG_INTS, op=sorted(_OUT_OF_RANGE_OPS)))
def test_python_int_out_of_dtype_range(case):
    (dtype, v), fn = case.dv, _OUT_OF_RANGE_OPS[case.op]
    for shape in [(3,), (), (2, 0)]:
        a = np.arange(1, 1 + int(np.prod(shape)), dtype=dtype).reshape(shape)
        check_vs_numpy(lambda xp, x: fn(xp, x, v), a, rtol=1e-15)


def test_python_int_out_of_range_compare_vmap_and_out():
    x = xnp.asarray(np.arange(6, dtype=np.uint8).reshape(2, 3))
    got = xnp.vmap(lambda r: r < 300)(x)
    np.testing.assert_array_equal(np.asarray(got), np.ones((2, 3), bool))
    out = xnp.zeros((2, 3), dtype=bool)
    xnp.greater(x, -1, out=out)
    np.testing.assert_array_equal(np.asarray(out), np.ones((2, 3), bool))


# 5. Generator.choice checks a concrete p as NumPy does (also under jit).
@pytest.mark.parametrize("p,replace", [([.5, .6, .1], True), ([-.1, .6, .5], True),
                                       ([np.nan, .5, .5], True), ([1.0, 0, 0], False),
                                       (np.array([.5, .5, 0], np.float32), True),
                                       ([.5, .5 + 1e-9, 0], True)])
def test_choice_checks_probabilities(p, replace):
    try:
        np.random.default_rng(0).choice(3, 2, replace=replace, p=p)
        np_error = None
    except ValueError as e:
        np_error = e
    calls = [lambda: xnp.random.default_rng(0).choice(3, 2, replace=replace, p=p),
             lambda: xnp.jit(lambda: xnp.random.default_rng(0).choice(
                 3, 2, replace=replace, p=p))(),
             lambda: xnp.random.default_rng(0).choice(3, 2, replace=replace,
                                                      p=xnp.asarray(p))]
    for call in calls:
        if np_error is None:
            got = np.asarray(call())
            assert got.shape == (2,) and np.all(np.asarray(p)[got] > 0)
        else:
            with pytest.raises(ValueError):
                call()


def test_choice_traced_p_is_not_checked():
    # documented: a traced p cannot be validated (the key API); the NumPy-style API runs
    # NumPy's generator on the run-time p, so the call raises NumPy's error, as eagerly
    key = xnp.random.PRNGKey(0)
    out = xnp.jit(lambda k, p: xnp.random.choice(k, 3, (2,), p=p))(key,
                                                                  xnp.asarray([.5, .6, .1]))
    assert out.shape == (2,)
    with pytest.raises(ValueError, match="choice: Probabilities do not sum to 1"):
        xnp.jit(lambda p: xnp.random.default_rng(0).choice(3, 2, p=p))(
            xnp.asarray([.5, .6, .1]))
    with pytest.raises(ValueError, match="Probabilities do not sum to 1"):
        np.random.default_rng(0).choice(3, 2, p=[.5, .6, .1])


# 6. allclose / array_equal / array_equiv return a Python bool eagerly, a traced bool
#    under jit.
_BOOL_FNS = {
    "allclose": lambda xp, x, y: xp.allclose(x, y),
    "allclose_nan": lambda xp, x, y: xp.allclose(x, y, equal_nan=True),
    "array_equal": lambda xp, x, y: xp.array_equal(x, y),
    "array_equal_nan": lambda xp, x, y: xp.array_equal(x, y, equal_nan=True),
    "array_equiv": lambda xp, x, y: xp.array_equiv(x, y),
}


@pytest.mark.parametrize("name", sorted(_BOOL_FNS))
@pytest.mark.parametrize("x,y", [(np.arange(3.0), np.arange(3.0)), (np.arange(3.0), np.ones(3)),
                                 (np.arange(3.0), np.arange(2.0)), (np.ones((2, 3)), np.ones(3)),
                                 (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
                                 (np.zeros(0), np.zeros(0))])
def test_bool_predicates_return_python_bool(name, x, y):
    fn = _BOOL_FNS[name]
    try:
        expected = fn(np, x, y)
    except ValueError:
        with pytest.raises(ValueError):
            fn(xnp, xnp.asarray(x), xnp.asarray(y))
        return
    got = fn(xnp, xnp.asarray(x), xnp.asarray(y))
    assert type(got) is bool and got == expected
    traced = xnp.jit(lambda a, b: fn(xnp, a, b))(xnp.asarray(x), xnp.asarray(y))
    assert bool(traced) == expected


# 7. vectorize of a pyfunc that branches on values: eager inputs fall back to a Python
#    loop (as NumPy); under jit the tracer error stays.
def _branchy(a, b):
    return a - b if a > b else a + b


def _branchy_pair(a, b):
    return (a * 2, float(a) + b) if a > 1 else (a, b * 1.0)


@pytest.mark.parametrize("case", [
    (dict(pyfunc=_branchy), (np.arange(4), 2)),
    (dict(pyfunc=_branchy), (np.arange(6).reshape(2, 3), np.array([[1], [2]]))),
    (dict(pyfunc=_branchy), (3, 2)),
    (dict(pyfunc=_branchy, otypes=[float]), (np.arange(4), 2)),
    (dict(pyfunc=_branchy, otypes=[float]), (np.zeros((2, 0)), 2)),
    (dict(pyfunc=_branchy_pair), (np.arange(4), 2)),
    (dict(pyfunc=lambda a, n: a.sum() if n > 0 else a.max(), signature="(k)->()",
          excluded={1}), (np.arange(6).reshape(2, 3), 1)),
    (dict(pyfunc=lambda a: a.sum() if a[0] > 0 else a.max(), signature="(k)->()"),
     (np.arange(6).reshape(2, 3),)),
])
def test_vectorize_python_branching_falls_back_eagerly(case):
    kw, args = case
    expected = np.vectorize(**kw)(*args)
    got = xnp.vectorize(**kw)(*[xnp.asarray(a) if isinstance(a, np.ndarray) else a
                                for a in args])
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(g), e)
        assert np.asarray(g).dtype == np.asarray(e).dtype


def test_vectorize_python_branching_under_jit_raises():
    with pytest.raises(xnp.errors.TracerBoolConversionError):
        xnp.jit(lambda x: xnp.vectorize(_branchy)(x, 2))(xnp.arange(4))
    with pytest.raises(xnp.errors.TracerBoolConversionError):
        xnp.vmap(lambda x: xnp.vectorize(_branchy)(x, 2))(xnp.arange(4).reshape(2, 2))


# 8. Array.view: same data, or the bits reinterpreted as a dtype of the same itemsize.
@pytest.mark.parametrize("src,dtype", [(np.float64, None), (np.float64, np.int64),
                                       (np.float64, "u8"), (np.int32, np.float32),
                                       (np.float32, np.int32), (np.uint16, np.int16),
                                       (np.int8, np.uint8), (np.float64, np.float64)])
@pytest.mark.parametrize("shape", [(4,), (), (2, 0), (2, 3)])
def test_array_view_vs_numpy(src, dtype, shape):
    a = (np.arange(int(np.prod(shape))) - 2).astype(src).reshape(shape)
    check_vs_numpy(lambda xp, x: x.view(dtype) if dtype is not None else x.view(), a)


def test_array_view_shares_memory_eagerly():
    a = xnp.arange(4.0)
    v = a.view()
    v[0] = 7.0
    b = a.view(np.int64)
    b[1] = 0
    np.testing.assert_array_equal(np.asarray(a), [7.0, 0.0, 2.0, 3.0])
    assert np.shares_memory(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("args, error", [((np.complex64,), NotImplementedError),
                                         ((None, np.ndarray), TypeError)])
def test_array_view_unsupported(args, error):
    # type=: xnp.ndarray or a subclass of it (NumPy's own class is not an xnp array type)
    with pytest.raises(error):
        xnp.arange(4.0).view(*args)
    with pytest.raises(error):
        xnp.jit(lambda x: x.view(*args))(xnp.arange(4.0))


def test_vectorize_of_python_only_functions_is_numpys_loop_eagerly():
    # hashing, dict lookups and object outputs of each element: NumPy's per-element calls
    a = np.array([1.0, 2.0, 3.0])
    for fn, kw in ((lambda x: {1.0: 10.0}.get(x, -1.0), {}),
                   (lambda x: 1.0 if x in {1.0} else 0.0, {}), (str, {"otypes": [object]})):
        want = np.vectorize(fn, **kw)(a)
        got = xnp.vectorize(fn, **kw)(xnp.asarray(a))
        assert np.asarray(got).tolist() == want.tolist() and np.asarray(got).dtype == want.dtype
    with pytest.raises(TypeError):
        xnp.jit(lambda t: xnp.vectorize(str, otypes=[object])(t))(a)
