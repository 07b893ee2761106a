"""NumPy-surface tests of ``xnp/numpy_api/sorting.py`` against NumPy (eager, jit and
``eval_jaxpr``) over sampled grids with NaN, +-inf, +-0 and ties, plus errors and
transformation checks of the sorting primitives (jvp vs finite differences, vjp vs
jvp, vmap vs a loop)."""


import ml_dtypes
import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import (
    ALL, central_difference, check_vs_numpy, covering_grid, covering_sample, EDGE_SHAPES, family,
    FLOATING, grid, INTEGER, make_array, rules_of_other_families_may_be_missing, sample_of,
)
from xnp import lax

SHAPES = EDGE_SHAPES + [(5,), (2, 3), (3, 1, 4), (40,)]
BF16 = np.dtype(ml_dtypes.bfloat16)
# NumPy cannot sort bfloat16 with NaN (ml_dtypes' comparison); those inputs get no NaN here
# and are checked against a float32 reference separately
REAL = [d for d in INTEGER + FLOATING]


_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _data(rng, shape, dtype, nan=True):
    """Ties (rounded values), and for floats NaN/+-inf/+-0 in about a third of the entries."""
    dtype = np.dtype(dtype)
    x = make_array(rng, shape, dtype)
    if dtype.kind in "fcV" and x.size:
        base = np.round(rng.standard_normal(shape))
        vals = [np.inf, -np.inf, 0.0, -0.0] + ([np.nan] if nan and dtype != BF16 else [])
        base = np.where(rng.random(shape) < 0.35, rng.choice(vals, size=shape), base)
        if dtype.kind == "c":
            base = base + 1j * np.where(rng.random(shape) < 0.3, rng.choice(vals, size=shape),
                                        np.round(rng.standard_normal(shape)))
        x = np.asarray(base).astype(dtype)
    elif dtype.kind in "iu":
        x = (x // 5).astype(dtype)
    return x


# --------------------------------------------------------------------------- sort / argsort


@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=ALL, axis=[None, 0, -1, 1], n=20,
                                      seed=3))
def test_sort_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype)
    check_vs_numpy(lambda xp, x: xp.sort(x, axis=case.axis), x)


@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=ALL, axis=[None, 0, -1],
                                      kind=["stable", "mergesort"], n=16, seed=4))
def test_argsort_matches_numpy_stable(case, rng):
    x = _data(rng, case.shape, case.dtype)
    check_vs_numpy(lambda xp, x: xp.argsort(x, axis=case.axis, kind=case.kind), x)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.bool_])
def test_sort_descending_is_reversed_order_and_stable(dtype, rng):
    x = _data(rng, (3, 17), dtype)
    got = np.asarray(xnp.sort(x, axis=1, descending=True))
    np.testing.assert_array_equal(got, np.flip(np.sort(x, axis=1), axis=1))
    # the Array API reference (array-api-strict): a stable descending argsort
    n = x.shape[1]
    want = np.flip(n - 1 - np.argsort(np.flip(x, axis=1), axis=1, kind="stable"), axis=1)
    for f in (lambda v: xnp.argsort(v, axis=1, descending=True, stable=True),
              xnp.jit(lambda v: xnp.argsort(v, axis=1, descending=True, stable=True))):
        np.testing.assert_array_equal(np.asarray(f(x)), want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32, np.float64, np.bool_])
@pytest.mark.parametrize("n", [17, 100, 1000])
def test_argsort_default_is_stable(dtype, n, rng):
    # the Array API's argsort(x, stable=True) default; NumPy's default (quicksort) promises
    # no order for ties, so NumPy's stable result is the oracle
    x = (rng.integers(0, 3, (2, n)) * (n > 17)).astype(dtype)  # n=17: all zeros
    want = np.argsort(x, axis=-1, kind="stable")
    for f in (xnp.argsort, xnp.jit(xnp.argsort)):
        np.testing.assert_array_equal(np.asarray(f(x)), want)
    np.testing.assert_array_equal(np.asarray(xnp.argsort(x, axis=None)),
                                  np.argsort(x, axis=None, kind="stable"))
    np.testing.assert_array_equal(np.asarray(xnp.argsort(x, descending=True)),
                                  np.asarray(xnp.argsort(x, descending=True, stable=True)))
    # an explicitly unstable sort is NumPy's own
    np.testing.assert_array_equal(np.asarray(xnp.argsort(x, kind="quicksort")),
                                  np.argsort(x, kind="quicksort"))


def test_sort_bfloat16_with_nan_puts_nan_last():
    x = np.array([3, np.nan, -1, 0, -0.0, np.inf, -np.inf, np.nan, 2], BF16)
    want = np.sort(x.astype(np.float32)).astype(BF16)
    for f in (xnp.sort, xnp.jit(xnp.sort)):
        got = np.asarray(f(x))
        np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))
    idx = np.asarray(xnp.argsort(x))
    np.testing.assert_array_equal(idx, np.argsort(x.astype(np.float32), kind="stable"))


def test_negative_zero_keeps_input_order():
    x = np.array([0.0, -0.0, 1.0, -0.0, 0.0])
    # eagerly xnp.sort is NumPy's default sort, which does not promise an order for equal
    # keys (it differs between CPUs): compare with NumPy's result on this machine
    np.testing.assert_array_equal(np.signbit(np.asarray(xnp.sort(x))), np.signbit(np.sort(x)))
    # under jit the sort is XLA's stable sort on every machine: -0.0 == 0.0 keep input order
    got = np.asarray(xnp.jit(xnp.sort)(x))
    np.testing.assert_array_equal(np.signbit(got), [False, True, True, False, False])
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.argsort)(x)), [0, 1, 3, 4, 2])


@pytest.mark.parametrize("dtype,special", [(np.float16, "none"), (BF16, "neg_nan"),
                                           (np.float32, "neg_zero"), (np.float64, "none"),
                                           (np.float64, "neg_zero"), (np.float64, "neg_nan")])
def test_sort_fast_and_exact_lowering_paths(dtype, special, rng):
    # the XLA lowering sorts float bits as integers unless -0.0 or a non-canonical NaN occurs
    x = np.round(rng.standard_normal((3, 50)) * 3).astype(np.float64)
    x[:, ::7] = np.nan
    x[:, 3::11] = np.inf
    x[:, 5::13] = -np.inf
    if special == "neg_zero":
        x[1, 4] = -0.0
    elif special == "neg_nan":
        x[2, 6] = -np.nan
    x = x.astype(dtype)
    want = np.sort(x.astype(np.float32), axis=1, kind="stable").astype(dtype)
    got = np.asarray(xnp.jit(lambda v: xnp.sort(v, axis=1))(x))
    same = (got.astype(np.float32) == want.astype(np.float32)) | (
        np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32)))
    assert same.all()
    np.testing.assert_array_equal(np.signbit(got.astype(np.float32)),
                                  np.signbit(want.astype(np.float32)))


def test_sort_nan_payloads_and_signs_all_last():
    x = np.array([np.nan, 1.0, -np.nan, -np.inf, np.nan]).astype(np.float32)
    for f in (xnp.sort, xnp.jit(xnp.sort)):
        got = np.asarray(f(x))
        np.testing.assert_array_equal(got[:2], [-np.inf, 1.0])
        assert np.isnan(got[2:]).all()


@pytest.mark.parametrize("args,exc", [
    (dict(kind="bogus"), ValueError),
    (dict(kind=3), TypeError),
    (dict(kind="stable", stable=True), ValueError),
    (dict(order="f"), ValueError),
    (dict(axis=3), np.exceptions.AxisError),
])
def test_sort_errors_match_numpy(args, exc):
    x = np.ones((2, 3))
    for fname in ("sort", "argsort"):
        with pytest.raises(exc):
            getattr(np, fname)(x, **args)
        with pytest.raises(exc):
            getattr(xnp, fname)(x, **args)


def test_sort_of_scalar():
    check_vs_numpy(lambda xp, x: xp.sort(x, axis=None), np.float64(2.0))
    check_vs_numpy(lambda xp, x: xp.sort(x), np.float64(2.0))  # AxisError, as NumPy


def test_sort_complex_matches_numpy(rng):
    for dt in (np.int8, np.uint32, np.float32, np.complex64):
        check_vs_numpy(lambda xp, x: xp.sort_complex(x), _data(rng, (2, 7), dt))
    check_vs_numpy(lambda xp, x: xp.sort_complex(x), np.float64(1.0))  # AxisError


# --------------------------------------------------------------------------- lexsort


@pytest.mark.parametrize("case", grid(shape=[(0,), (6,), (2, 5)], dtypes=[
    (np.int8, np.float64), (np.bool_, np.int64), (np.float32, np.float32, np.uint8)],
    axis=[-1, 0], n=8, seed=5))
def test_lexsort_matches_numpy(case, rng):
    keys = [_data(rng, case.shape, dt) for dt in case.dtypes]
    check_vs_numpy(lambda xp, *ks: xp.lexsort(ks, axis=case.axis), *keys)


def test_lexsort_array_of_keys_and_errors(rng):
    keys = _data(rng, (2, 7), np.int16)
    check_vs_numpy(lambda xp, k: xp.lexsort(k), keys)
    check_vs_numpy(lambda xp, k: xp.lexsort([k, k[:2]]), keys[0])  # ValueError: shapes
    with pytest.raises(TypeError):
        xnp.lexsort([])


# --------------------------------------------------------------------------- partition


@pytest.mark.parametrize("fname", ["partition", "argpartition"])
@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4]])
def test_partition_property(fname, kth, rng):
    x = _data(rng, (3, 6), np.float64)
    got = np.asarray(getattr(xnp, fname)(x, kth, axis=1))
    vals = np.take_along_axis(x, got, 1) if fname == "argpartition" else got
    srt = np.sort(x, axis=1)
    for k in np.atleast_1d(kth) % x.shape[1]:
        np.testing.assert_array_equal(vals[:, k], srt[:, k])
        assert np.all((vals[:, :k] <= vals[:, k:k + 1]) | np.isnan(vals[:, k:k + 1]))


@pytest.mark.parametrize("kth", [6, -7, 1.5, [0, 9], True, [True], np.True_])
def test_partition_errors_match_numpy(kth):
    x = np.arange(6.0)
    check_vs_numpy(lambda xp, x: xp.partition(x, kth), x, jit=False)
    check_vs_numpy(lambda xp, x: xp.argpartition(x, kth), x, jit=False)


@pytest.mark.parametrize("kth", [[], (), np.array([], np.float64), np.array([], np.int64),
                                 np.zeros((0, 2), np.int64), [[1]], [[]], [[True]], np.array(1.0), 1.0])
@pytest.mark.parametrize("shape", [(0,), (3,), (2, 0)])
def test_partition_kth_kinds_match_numpy(kth, shape):
    # an empty list or tuple is a float64 array to NumPy, whose kth must be integers
    # (TypeError) even when there is nothing to partition; more than 1-d: ValueError
    x = np.arange(float(np.prod(shape))).reshape(shape)
    check_vs_numpy(lambda xp, x: xp.partition(x, kth), x)
    check_vs_numpy(lambda xp, x: xp.argpartition(x, kth), x)
    check_vs_numpy(lambda xp, x: x.argpartition(kth), x)


@pytest.mark.parametrize("shape, axis, kth", [((0, 3), None, 0), ((0, 3), 1, 5), ((2, 0), 1, -1),
                                             ((0,), -1, 0)])
def test_partition_of_empty_arrays_checks_no_kth(shape, axis, kth):
    # NumPy partitions nothing, whatever kth is (a bound is checked only with elements)
    x = np.zeros(shape)
    check_vs_numpy(lambda xp, x: xp.partition(x, kth, axis=axis), x)
    check_vs_numpy(lambda xp, x: xp.argpartition(x, kth, axis=axis), x)


# --------------------------------------------------------------------------- searchsorted


@pytest.mark.parametrize("case", grid(n_a=[0, 1, 2, 7, 33], dtype=[np.int32, np.uint8,
                                                                      np.float32, np.float64],
                                      v_shape=[(), (5,), (2, 3)], side=["left", "right"],
                                      n=16, seed=6))
def test_searchsorted_matches_numpy(case, rng):
    a = np.sort(_data(rng, (case.n_a,), case.dtype))
    v = _data(rng, case.v_shape, case.dtype)
    check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v, side=case.side), a, v)


# sampled (all with --full-grid): every length with one of the dtypes, each dtype at a
# short length and at one around 1024
@pytest.mark.parametrize("dtype,n", [
    (c.dtype, c.length) for c in covering_grid(
        dtype=[np.float32, np.float64], length=[3, 4, 5, 8, 1023, 1024, 1025],
        labels=lambda c: [c.length, c.dtype, (c.dtype, c.length > 8)], n=7, seed=8)])
def test_searchsorted_at_power_of_two_lengths_with_subnormals(n, dtype, rng):
    # the binary search runs n.bit_length() steps: lengths at and around powers of two,
    # runs of ties, subnormals of both signs, signed zeros, infinities and NaN (last)
    tiny = np.finfo(dtype).smallest_subnormal
    pool = np.array([-np.inf, -1.0, -tiny, -0.0, 0.0, tiny, 2 * tiny, 1.0, 1.0, np.inf, np.nan],
                    dtype)
    a = np.sort(rng.choice(pool, size=n))
    v = np.concatenate([pool, rng.choice(pool, size=7)]).astype(dtype)
    for side in ("left", "right"):
        check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v, side=side), a, v)


def test_searchsorted_every_short_length_with_runs_of_ties():
    # the search probes base + length // 2 with one step for every query: each length
    # 1..40, values with long runs of ties, every value and the gaps around them queried;
    # 1e3 queries into 1e5 values take the form that keys the probed values in the loop
    rng = np.random.default_rng(11)
    # lengths 1..9 and the power-of-two edges 15..17, 31..33 always; 2 of the other
    # lengths (all with --full-grid)
    lengths = sample_of(range(1, 41), keep=[*range(1, 10), 15, 16, 17, 31, 32, 33], n=2,
                        seed=11)
    # each length with both sides and both forms (few queries: the unrolled steps; many:
    # the loop), two of its four (side, form) pairs (all four with --full-grid)
    runs = covering_sample([(n, side, form) for n in lengths for side in ("left", "right")
                            for form in ("few", "many")],
                           labels=lambda r: [(r[0], r[1]), (r[0], r[2]), (r[1], r[2])],
                           n=2 * len(lengths), seed=11)
    for n in lengths:
        a = np.sort(rng.integers(0, 4, n)).astype(np.int16)
        few = np.arange(-1, 6, dtype=np.int16)  # unrolled steps
        many = np.repeat(few, 10)  # more queries than the unrolled form takes: the loop
        for side, form in [(side, form) for m, side, form in runs if m == n]:
            v = few if form == "few" else many
            check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v, side=side), a, v)
    big = np.sort(rng.standard_normal(5000))
    q = np.concatenate([big[::7], rng.standard_normal(300), [np.nan, -np.inf, np.inf]])
    huge = np.sort(np.concatenate([rng.standard_normal(10 ** 5), [np.nan] * 3]))
    q2 = np.concatenate([huge[::100], [np.nan, -np.inf, np.inf, -0.0, 5e-324]])
    for side in ("left", "right"):
        check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v, side=side), big, q)
        check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v, side=side), huge, q2)
    # complex (four keys per value), keyed after the gather, in the loop and unrolled
    c = rng.standard_normal(2000) + 1j * rng.integers(-2, 3, 2000)
    c[::97] = complex(np.nan, 1.0)
    c[::89] = complex(1.0, np.nan)
    c = np.sort(c)
    for m in (3, 65):
        qc = np.concatenate([c[::2000 // m][:m - 2], [complex(np.nan, 0.0), complex(0.0, np.nan)]])
        check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v), c, qc)


def test_searchsorted_sorter_promotion_and_scalars(rng):
    a = _data(rng, (9,), np.float32)
    sorter = np.argsort(a, kind="stable")
    v = np.array([0.5, np.nan, -np.inf, 2.0])
    check_vs_numpy(lambda xp, a, s, v: xp.searchsorted(a, v, sorter=s), a, sorter, v)
    bad = sorter.copy()
    bad[0] = 9
    check_vs_numpy(lambda xp, a, s, v: xp.searchsorted(a, v, sorter=s), a, bad, v, jit=False)
    check_vs_numpy(lambda xp, a: xp.searchsorted(a, 1), np.arange(5))
    check_vs_numpy(lambda xp, a: xp.searchsorted(a, 2.5, side="right"), np.arange(5))
    c = np.sort(_data(rng, (8,), np.complex128))
    check_vs_numpy(lambda xp, a, v: xp.searchsorted(a, v), c, _data(rng, (6,), np.complex128))


@pytest.mark.parametrize("a,v,side", [
    (np.array([0.0, 1.0], np.float32), 1e-50, "left"),       # compared in float64, as NumPy
    (np.array([1, 1.0000001], np.float32), 1.00000001, "left"),
    (np.array([1, np.inf], np.float32), 1e300, "right"),
    (np.array([1, 2, 3], np.int8), 300, "left"),              # int64, not an int8 overflow
    (np.array([1, 2, 3], np.uint64), -1, "left"),
    (np.array([1, 2, 3], np.int64), 2**63, "right"),
    (np.array([1, 5], np.int16), 3.5, "left"),
    (np.array([True, True]), 1, "right"),
])
def test_searchsorted_python_scalar_query_is_numpys_array_of_it(a, v, side):
    check_vs_numpy(lambda xp, a: xp.searchsorted(a, v, side=side), a)


def test_searchsorted_empty_with_sorter():
    empty, order = np.array([]), np.array([], dtype=np.int64)
    check_vs_numpy(lambda xp, a, s: xp.searchsorted(a, [1.0, 2.0], sorter=s), empty, order)
    check_vs_numpy(lambda xp, a, s: xp.searchsorted(a, 1.0, sorter=s), empty, order)


@pytest.mark.parametrize("a,side", [(np.ones((2, 2)), "left"), (np.float64(1), "left"),
                                    (np.ones(3), "l"), (np.ones(3), "bogus"),
                                    (np.ones(3), None), (np.ones(3), 1)])
def test_searchsorted_errors_match_numpy(a, side):
    check_vs_numpy(lambda xp, a: xp.searchsorted(a, 1.0, side=side), a)


# --------------------------------------------------------------------------- transformations

_OWN = {"sort", "top_k", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "reduce",
        "reduce_window", "reduce_window_sum", "reduce_window_max", "reduce_window_min"}


def _other_rules_may_be_missing():
    return rules_of_other_families_may_be_missing(_OWN)



_fd = central_difference


def _distinct(rng, shape):
    return rng.permutation(np.prod(shape)).reshape(shape) * 0.37 + rng.standard_normal(
        shape) * 0.01


@pytest.mark.parametrize("f", [
    lambda x: xnp.sort(x, axis=0),
    lambda x: xnp.sort(x, axis=-1, descending=True),
    lambda x: lax.sort((x[0], x[1] * x[0]), dimension=0, num_keys=1)[1],
    lambda x: lax.top_k(x, 2)[0],
], ids=["sort0", "sort-desc", "key-val", "top_k"])
def test_sort_jvp_vjp_and_jit(f, rng):
    with _other_rules_may_be_missing():
        _check_jvp_vjp(f, rng)


def _check_jvp_vjp(f, rng):
    x = _distinct(rng, (3, 5))
    v = rng.standard_normal(x.shape)
    y, t = xnp.jvp(f, (xnp.asarray(x),), (xnp.asarray(v),))
    np.testing.assert_allclose(np.asarray(t), _fd(f, x, v), rtol=1e-6, atol=1e-8)
    _, tj = xnp.jit(lambda p, q: xnp.jvp(f, (p,), (q,)))(x, v)
    np.testing.assert_allclose(np.asarray(tj), np.asarray(t), rtol=1e-12)
    u = rng.standard_normal(np.shape(y))
    (g,) = xnp.vjp(f, xnp.asarray(x))[1](xnp.asarray(u))
    np.testing.assert_allclose(np.sum(u * np.asarray(t)), np.sum(np.asarray(g) * v), rtol=1e-10)
    (gj,) = xnp.jit(lambda p, w: xnp.vjp(f, p)[1](w))(x, u)
    np.testing.assert_allclose(np.asarray(gj), np.asarray(g), rtol=1e-12)


def test_sort_grad_permutes_back():
    x = np.array([3.0, 1.0, 2.0])
    with _other_rules_may_be_missing():
        g = xnp.grad(lambda v: xnp.sum(xnp.sort(v) * xnp.asarray([1.0, 10.0, 100.0])))(x)
    np.testing.assert_array_equal(np.asarray(g), [100.0, 1.0, 10.0])


@pytest.mark.parametrize("in_axes", [1, -1])
@pytest.mark.parametrize("fname", ["sort", "argsort", "top_k", "searchsorted"])
def test_vmap_matches_loop(fname, in_axes, rng):
    x = _data(rng, (4, 6), np.float64)
    fns = {"sort": lambda r: xnp.sort(r), "argsort": lambda r: xnp.argsort(r, stable=True),
           "top_k": lambda r: lax.top_k(r, 3)[1],
           "searchsorted": lambda r: xnp.searchsorted(xnp.asarray([-1.0, 0.0, 1.0]), r)}
    f = fns[fname]
    moved = np.moveaxis(x, 0, in_axes)
    rows = [np.asarray(f(xnp.asarray(x[i]))) for i in range(x.shape[0])]
    for vf in (xnp.vmap(f, in_axes=in_axes), xnp.jit(xnp.vmap(f, in_axes=in_axes))):
        with _other_rules_may_be_missing():
            got = vf(moved)
        np.testing.assert_array_equal(np.asarray(got), np.stack(rows))


def test_jaxpr_of_sort_and_argsort():
    text = str(xnp.make_jaxpr(lambda x: xnp.argsort(x, kind="stable"))(np.zeros(3)))
    assert "sort[dimension=0 is_stable=True num_keys=1]" in text
    assert "iota" in text
    text = str(xnp.make_jaxpr(lambda x: xnp.sort(x))(np.zeros(3)))
    assert "sort[dimension=0 is_stable=False num_keys=1]" in text


# --------------------------------------------------------------------------- every kind, large


KINDS = [dict(), dict(kind="quicksort"), dict(kind="heapsort"), dict(kind="mergesort"),
         dict(kind="stable"), dict(kind="Q"), dict(kind="s"), dict(stable=True),
         dict(stable=False)]


def _is_stable(fname, kw):
    if "kind" in kw:
        return kw["kind"][0] in "msMS"
    return kw.get("stable", fname == "argsort")  # argsort's default: stable (Array API)


def _same_values(got, want):
    """Equal values, NaN equal to NaN (signs of zeros not compared: -0.0 == 0.0)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc":
        assert ((got == want) | (np.isnan(got) & np.isnan(want))).all()
    else:
        np.testing.assert_array_equal(got, want)


# sampled (all with --full-grid): every dtype, every shape/axis (the large, empty, 0-d and
# length-1 ones), each with and without ties, each dtype family with and without ties
@pytest.mark.parametrize("case", covering_grid(
    n=20, seed=5,
    dtype=[np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float16,
           np.float32, np.float64, np.complex128],
    shape_axis=[((5000,), -1), ((3, 1500), 1), ((1500, 3), 0), ((40, 70), None), ((0,), 0),
                ((), None), ((1,), -1), ((7, 3), 0)],
    ties=[True, False],
    labels=lambda c: [np.dtype(c.dtype), c.shape_axis, c.ties, (family(c.dtype), c.ties),
                      (c.shape_axis, c.ties)]))
def test_sort_and_argsort_every_kind_match_numpy(case, rng):
    dtype, (shape, axis), ties = case.dtype, case.shape_axis, case.ties
    # stable kinds (and argsort's default) give NumPy's stable indices exactly; for the
    # unstable ones NumPy promises no order of equal elements: the indices must be a
    # permutation that sorts. Eagerly (the fast path and the full path) and under jit.
    if ties:
        x = _data(rng, shape, dtype)
    else:  # distinct values (where the dtype has enough of them)
        x = make_array(rng, shape, np.dtype(dtype))
    n = x.size if axis is None else (x.shape[axis] if x.ndim else 1)
    for kw in KINDS:
        stable = _is_stable("argsort", kw)
        want_sorted = np.sort(x, axis=axis, kind="stable")
        want_idx = np.argsort(x, axis=axis, kind="stable")
        paths = {"eager": lambda v: xnp.argsort(v, axis=axis, **kw),
                 "full": lambda v: xnp.argsort.__wrapped__(v, axis=axis, **kw),
                 "jit": xnp.jit(lambda v: xnp.argsort(v, axis=axis, **kw))}
        for name, f in paths.items():
            idx = np.asarray(f(xnp.asarray(x)))
            assert idx.dtype == np.int64 and idx.shape == want_idx.shape, (name, kw)
            if stable:
                np.testing.assert_array_equal(idx, want_idx, err_msg=f"{name} {kw}")
                continue
            flat = x.reshape(-1) if axis is None or x.ndim == 0 else x
            ax = 0 if axis is None or x.ndim == 0 else axis
            np.testing.assert_array_equal(np.sort(idx, axis=ax),
                                          np.broadcast_to(
                                              np.expand_dims(np.arange(n), tuple(
                                                  i for i in range(idx.ndim) if i != ax % max(
                                                      idx.ndim, 1))), idx.shape))
            _same_values(np.take_along_axis(flat, idx, ax), want_sorted.reshape(idx.shape))
            if name == "eager":  # NumPy's own unstable sort
                np.testing.assert_array_equal(idx, np.argsort(x, axis=axis, **kw))
        if x.ndim == 0 and axis is not None:
            continue
        for name, f in {"eager": lambda v: xnp.sort(v, axis=axis, **kw),
                        "jit": xnp.jit(lambda v: xnp.sort(v, axis=axis, **kw))}.items():
            got = np.asarray(f(xnp.asarray(x)))
            # NumPy's stable sort as the oracle of the values: its default float16 sort
            # misplaces values on some AVX-512 machines (UNSAFE_DEFAULT_SORT)
            _same_values(got, np.sort(x, axis=axis, kind="stable"))
            if _is_stable("sort", kw) and got.dtype.kind == "f":
                np.testing.assert_array_equal(np.signbit(got), np.signbit(want_sorted))


@pytest.mark.parametrize("n", [2047, 2048, 5000])
def test_stable_argsort_runs_of_zeros_nan_and_infinities(n, rng):
    # long runs of -0.0/0.0, NaN (of both signs) and infinities, and a run at each end
    vals = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, 2.5])
    x = vals[rng.integers(0, len(vals), n)]
    x[:50] = -0.0
    x[-50:] = np.nan
    want = np.argsort(x, kind="stable")
    for f in (xnp.argsort, lambda v: xnp.argsort(v, stable=True), xnp.jit(xnp.argsort)):
        np.testing.assert_array_equal(np.asarray(f(x)), want)
    x2 = np.stack([x, x[::-1], np.sort(x)], axis=1)
    for axis in (0, -2, None):
        np.testing.assert_array_equal(np.asarray(xnp.argsort(x2, axis=axis)),
                                      np.argsort(x2, axis=axis, kind="stable"))


@pytest.mark.parametrize("fname", ["sort", "argsort"])
@pytest.mark.parametrize("args", [dict(axis=2), dict(axis=-3), dict(kind="bogus"),
                                  dict(kind=""), dict(axis=1.0),
                                  dict(kind="stable", stable=True), dict(order="f")])
def test_sort_fast_path_errors_are_the_full_paths(fname, args):
    # the fast path serves none of these: the full path's error, eagerly and under jit,
    # of NumPy's class
    x = xnp.asarray(np.ones((2, 3)))
    fast, full = getattr(xnp, fname), getattr(xnp, fname).__wrapped__
    outcomes = []
    for f in (lambda: fast(x, **args), lambda: full(x, **args),
              lambda: xnp.jit(lambda v: fast(v, **args))(x)):
        with pytest.raises(Exception) as info:
            f()
        outcomes.append((type(info.value), str(info.value)))
    with pytest.raises(Exception) as np_info:
        getattr(np, fname)(np.ones((2, 3)), **args)
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert issubclass(outcomes[0][0], type(np_info.value)), (outcomes[0], np_info.value)
    assert f"xnp.{fname}" in outcomes[0][1] or "axis" in outcomes[0][1]


def test_float16_sort_is_sorted_where_numpys_default_is_not():
    # NumPy 2.4's AVX-512 float16 sort leaves -0.0 before -1.0 on this pattern (on such
    # CPUs); xnp's eager and jitted sorts are sorted everywhere
    x = np.tile(np.array([-1.0, -0.0, 0.0, -1.0, 2.0, np.nan, -np.inf, -0.0], np.float16), 350)
    want = np.sort(x, kind="stable")
    for got in (xnp.sort(xnp.asarray(x)), xnp.sort(xnp.asarray(x), stable=False),
                xnp.asarray(x).__array_namespace__().sort(xnp.asarray(x)),
                xnp.jit(xnp.sort)(x), xnp.lax.sort(xnp.asarray(x))):
        _same_values(np.asarray(got), want)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_of_bfloat16_keeps_the_memory_order_as_numpy(axis):
    """ml_dtypes floats are sorted through float32 keys; the sorted copy keeps the operand's
    memory order, as numpy.sort's copy does (it was C-ordered)."""
    a = np.asfortranarray(np.random.default_rng(2).standard_normal((3, 4)).astype(
        ml_dtypes.bfloat16))
    got = xnp.sort(xnp.asarray(a), axis=axis)
    want = np.sort(a.astype(np.float32), axis=axis).astype(a.dtype)
    np.testing.assert_array_equal(np.asarray(got), want)
    assert got.flags.f_contiguous == np.sort(a, axis=axis).flags.f_contiguous
