"""NumPy-surface tests of ``xnp/numpy_api/nan_functions.py`` against NumPy (eager, jit,
eval_jaxpr) over sampled grids with NaNs (incl. all-NaN slices), errors, and grad of
nanmean vs finite differences; nan_to_num's replacements (arrays, traced, warnings),
bfloat16 and memory order."""


import re
import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import (BOOL, COMPLEX, EDGE_SHAPES, FLOATING, INTEGER, central_difference,
                           check_vs_numpy, covering_pairs, grid, make_array, reduction_labels)

SHAPES = EDGE_SHAPES + [(3,), (2, 3), (2, 3, 4)]
AXES = [None, 0, -1, (0, -1)]
# NumPy's nan-functions do not treat ml_dtypes' bfloat16 as inexact (NaN is not skipped);
# xnp does, so bfloat16 has no NumPy oracle here.
REAL = BOOL + INTEGER + [d for d in FLOATING if d.name != "bfloat16"]


_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _nan_data(case, rng, all_nan_row=True):
    x = make_array(rng, case.shape, case.dtype)
    if np.dtype(case.dtype).kind in "fcV" and x.size:
        x[rng.random(case.shape) < 0.3] = np.nan
        if all_nan_row and x.ndim >= 2:
            x[0] = np.nan
    return x


# sampled (all with --full-grid): (case, function) pairs that cover helpers.reduction_labels
# (each function with each dtype family, shape, axis and keepdims, every dtype, each shape
# with each axis): 40 instead of 5 functions x 20 cases
@pytest.mark.parametrize("case,fname", covering_pairs(
    ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"], n=40, seed=11,
    labels=reduction_labels, shape=SHAPES, dtype=REAL + COMPLEX, axis=AXES,
    keepdims=[False, True]))
def test_nan_reductions_match_numpy(fname, case, rng):
    x = _nan_data(case, rng)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis, keepdims=case.keepdims),
                   x, kind="reduction")


@pytest.mark.parametrize("fname", ["nanmax", "nanmin"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=REAL, axis=AXES,
                                      keepdims=[False, True], n=20, seed=12))
def test_nanmax_nanmin_match_numpy(fname, case, rng):
    x = _nan_data(case, rng)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis, keepdims=case.keepdims),
                   x, kind="reduction")


@pytest.mark.parametrize("fname", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=REAL, axis=[None, 0, -1],
                                      keepdims=[False, True], n=16, seed=13))
def test_nanargmax_nanargmin_match_numpy(fname, case, rng):
    x = _nan_data(case, rng, all_nan_row=False)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis, keepdims=case.keepdims),
                   x, jit=False)


@pytest.mark.parametrize("fname", ["nanargmax", "nanargmin"])
def test_nanargmax_all_nan(fname):
    x = np.array([[1.0, np.nan, 3.0], [np.nan] * 3])
    with pytest.raises(ValueError, match="All-NaN"):
        getattr(xnp, fname)(x, axis=1)
    with pytest.raises(ValueError):
        getattr(np, fname)(x, axis=1)
    # under jit the check cannot run: -1 marks the all-NaN slice (as JAX)
    out = xnp.jit(lambda x: getattr(xnp, fname)(x, axis=1))(x)
    np.testing.assert_array_equal(np.asarray(out), [2 if fname == "nanargmax" else 0, -1])
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=0), x[:1], jit=False)


@pytest.mark.parametrize("kw", [{"initial": 0.5}, {"initial": -7.0}])
def test_nanmax_initial_and_where(kw):
    x = np.array([[1.0, np.nan, 3.0], [np.nan] * 3])
    check_vs_numpy(lambda xp, x: xp.nanmax(x, axis=1, **kw), x)
    check_vs_numpy(lambda xp, x: xp.nanmin(x, axis=1, **kw), x)
    check_vs_numpy(lambda xp, x: xp.nansum(x, axis=1, where=x > 1.5, **kw), x)


def test_nan_reduction_errors():
    check_vs_numpy(lambda xp, x: xp.nanmax(x), np.zeros((0,)))
    check_vs_numpy(lambda xp, x: xp.nanmax(x, axis=2), np.zeros((2, 3)))
    check_vs_numpy(lambda xp, x: xp.nanmean(x, axis=(0, 0)), np.zeros((2, 3)))
    check_vs_numpy(lambda xp, x: xp.nanvar(x, ddof=1, correction=1), np.zeros((2, 3)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.complex64,
                                   np.int32, np.bool_])
@pytest.mark.parametrize("kw", [{}, {"nan": 1.5, "posinf": 9.0, "neginf": -9.0}])
def test_nan_to_num(dtype, kw):
    x = np.array([np.nan, np.inf, -np.inf, 1.25, -0.0, 3.0])
    x = (x + 1j * x[::-1]) if np.dtype(dtype).kind == "c" else x
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
    check_vs_numpy(lambda xp, x: xp.nan_to_num(x, **kw), x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int32, np.bool_])
@pytest.mark.parametrize("kw", [{"nan": 1 + 0j}, {"posinf": 2j}, {"neginf": np.complex64(1j)},
                                {"nan": 2}, {"nan": np.float64(0.5)}])
def test_nan_to_num_replacement_dtype_as_numpy(dtype, kw):
    # a complex replacement does not cast 'same_kind' to a float part: NumPy's TypeError
    # (even with nothing to replace); integer and bool arrays are returned unchanged
    x = np.array([np.nan, 1.0, np.inf]).astype(dtype) if dtype not in (np.int32, np.bool_) \
        else np.array([1, 0, 2]).astype(dtype)
    check_vs_numpy(lambda xp, x: xp.nan_to_num(x, **kw), x)
    try:
        np.nan_to_num(x, **kw)
    except TypeError:
        for fn in (xnp.nan_to_num, xnp.jit(lambda a: xnp.nan_to_num(a, **kw))):
            with pytest.raises(TypeError, match=rf"^xnp\.nan_to_num: cannot cast `{list(kw)[0]}`"
                               r".* from complex\d+ to float\d+"):
                fn(xnp.asarray(x), **({} if fn is not xnp.nan_to_num else kw))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int32])
def test_nan_to_num_copy_false_writes_into_the_array(dtype):
    # NumPy writes into x (a view writes through to its base) and returns x itself
    def body(xp, base):
        view = base[::-1][:3]
        res = xp.nan_to_num(view, copy=False, nan=-7.0)
        return res, base

    x = np.array([np.nan, np.inf, -np.inf, 1.25, np.nan])
    x = (x + 1j * x[::-1]) if np.dtype(dtype).kind == "c" else x
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
    check_vs_numpy(body, x, jaxpr=False)  # make_jaxpr adds the written argument as an output
    a = xnp.asarray(x)
    assert xnp.nan_to_num(a, copy=False) is a
    n = x.copy()
    assert xnp.nan_to_num(n, copy=False) is n  # a NumPy array too, as NumPy
    np.testing.assert_array_equal(n, np.nan_to_num(x))


@pytest.mark.parametrize("value", [1.0, [np.nan, 1.0]])
def test_nan_to_num_copy_false_needs_an_array(value):
    with pytest.raises(ValueError):
        np.nan_to_num(value, copy=False)
    with pytest.raises(ValueError, match="xnp.nan_to_num: Unable to avoid copy"):
        xnp.nan_to_num(value, copy=False)


@pytest.mark.parametrize("fname", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int8, np.bool_, np.complex64])
def test_isposinf_isneginf(fname, dtype):
    x = np.array([np.nan, np.inf, -np.inf, 1.0, 0.0])
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x), x)


def test_nanmean_grad_vs_finite_differences(rng):
    x = rng.standard_normal((3, 4))
    x[0, 1] = x[2, 2] = np.nan
    mask = ~np.isnan(x)

    def f(x):
        return xnp.sum(xnp.nanmean(x, axis=0) ** 2) + xnp.nanstd(x)

    g = np.asarray(xnp.grad(f)(xnp.asarray(x)))
    assert np.all(np.isfinite(g)) and np.all(g[~mask] == 0)
    v = np.where(mask, rng.standard_normal(x.shape), 0.0)
    np.testing.assert_allclose(np.sum(g * v), central_difference(f, x, v), rtol=1e-6)


def _tie_split(x, axis, fname):
    """The closed-form gradient of ``sum(nanmax(x, axis))`` (``nanmin``): ``1/k`` on each of
    the ``k`` non-NaN elements equal to their slice's extremum, 0 elsewhere (NaN included,
    and all over an all-NaN slice)."""
    m = getattr(np, fname)(x, axis=axis, keepdims=True)
    at = (x == m) & ~np.isnan(x)
    return np.where(at, 1.0 / np.maximum(at.sum(axis=axis, keepdims=True), 1), 0.0)


@pytest.mark.parametrize("fname", ["nanmax", "nanmin"])
@pytest.mark.parametrize("axis", [None, 2, -1, (1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanmax_nanmin_grad_splits_ties_as_max(fname, axis, keepdims):
    """Tied extrema share the gradient equally, as ``max``/``min``'s (JAX's rule; it was all
    given to the first one, on short innermost slices); NaN elements (and all-NaN slices)
    get 0."""
    x = np.array([[[2., 2.], [np.nan, -1.]], [[np.nan, np.nan], [-1., -1.]]])
    want = _tie_split(x, axis, fname)
    f = getattr(xnp, fname)
    g = xnp.grad(lambda v: xnp.sum(f(v, axis=axis, keepdims=keepdims)))
    for mode, fn in (("eager", g), ("jit", xnp.jit(g))):
        np.testing.assert_array_equal(np.asarray(fn(x)), want, err_msg=mode)
    jac = xnp.jacfwd(lambda v: xnp.sum(f(v, axis=axis, keepdims=keepdims)))(x)
    np.testing.assert_array_equal(np.asarray(jac), want)


@pytest.mark.parametrize("fname,ref", [("nanmax", "max"), ("nanmin", "min")])
def test_nanmax_nanmin_grad_equals_max_min_grad_without_nan(fname, ref):
    """Without NaN the gradient is exactly ``max``'s (``min``'s), eagerly and under ``jit``;
    with NaN it is that of the extremum of the other elements (-inf beside a NaN gets 1
    from ``nanmax``)."""
    for wrap in (lambda h: h, xnp.jit):
        for x in (np.array([1., 3., 3., 2., 3.]), np.array([-0.0, 0.0]),
                  np.array([[1., 2., 1.], [2., 2., 2.]]).T):
            got = wrap(xnp.grad(lambda v: xnp.sum(getattr(xnp, fname)(v, axis=-1))))(x)
            want = xnp.grad(lambda v: xnp.sum(getattr(xnp, ref)(v, axis=-1)))(x)
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        fill = -np.inf if fname == "nanmax" else np.inf  # (NaN's stand-in: not a tie)
        got = wrap(xnp.grad(getattr(xnp, fname)))(np.array([np.nan, fill]))
        np.testing.assert_array_equal(np.asarray(got), [0.0, 1.0])
    assert np.asarray(xnp.vmap(xnp.grad(getattr(xnp, fname)))(
        np.array([[4., 4.], [np.nan, 7.]]))).tolist() == [[0.5, 0.5], [0.0, 1.0]]


@pytest.mark.parametrize("fname", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype,kwargs", [(np.float64, {"axis": 0}), (np.int32, {}),
                                          (np.float32, {"where": np.ones((0, 3), bool)})])
def test_nanmax_nanmin_errors_name_numpys_fmax_fmin(fname, dtype, kwargs):
    """NumPy's nanmax/nanmin reduce with fmax/fmin, which its errors name: of an empty
    slice, and of a where mask without initial."""
    x = np.zeros((0, 3), dtype)
    with pytest.raises(ValueError) as want:
        getattr(np, fname)(x, **kwargs)
    for how, f in (("eager", getattr(xnp, fname)),
                   ("jit", xnp.jit(lambda a: getattr(xnp, fname)(a, **kwargs)))):
        with pytest.raises(ValueError, match=re.escape(str(want.value))):
            f(xnp.asarray(x), **(kwargs if how == "eager" else {}))


@pytest.mark.parametrize("body", [
    lambda xp, x: xp.nanmax(x, axis=-1), lambda xp, x: xp.nanmin(x, axis=2),
    lambda xp, x: xp.max(x.astype(np.complex128), axis=-1),
])
def test_extremum_over_a_slice_of_an_array_with_an_empty_dimension(body):
    # (2, 0) slices of four: an empty result, not a gather of size-1 windows out of nothing
    check_vs_numpy(body, np.ones((2, 0, 4), np.float16))


@pytest.mark.parametrize("fname", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [0, -1])
def test_nan_means_of_a_0d_array_take_axis_0_as_numpy_sums(fname, axis):
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=axis), np.array(1.5, np.float32))


@pytest.mark.parametrize("fname", ["nanmax", "nanmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("value", [2.5, -0.0, np.inf, 3])
def test_nan_extrema_of_a_0d_array_take_axis_0_as_numpy(fname, axis, value):
    """NumPy's nan-extrema reduce a 0-d array with axis 0 or -1 as with no axis (its
    ufunc reductions accept them); xnp raised AxisError."""
    for keepdims in (False, True):
        want = getattr(np, fname)(np.asarray(value), axis=axis, keepdims=keepdims)
        got = getattr(xnp, fname)(xnp.asarray(value), axis=axis, keepdims=keepdims)
        jitted = xnp.jit(lambda a: getattr(xnp, fname)(a, axis=axis, keepdims=keepdims))(
            xnp.asarray(value))
        for res in (got, jitted):
            assert np.shape(res) == np.shape(want) and np.asarray(res).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(res), want)
            assert np.signbit(np.asarray(res)) == np.signbit(want)


@pytest.mark.parametrize("fname", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("values", [[complex(np.inf, 1), 1j], [complex(1, np.inf), np.nan],
                                    [1 + 1j, complex(np.nan, 0), 2j]])
def test_complex_nan_statistics_divide_quietly_as_numpy(fname, values):
    """NumPy's nan-functions divide by the count under errstate 'ignore': an infinite
    complex total gives inf+nanj and no 'invalid' warning (xnp warned, so a warnings
    filter 'error' raised where NumPy returns)."""
    def run(m):  # (NumPy's default error settings: this module's fixture ignores them)
        with warnings.catch_warnings(record=True) as caught, np.errstate(
                divide="warn", over="warn", invalid="warn"):
            warnings.simplefilter("always")
            out = getattr(m, fname)(m.asarray(values))
        return out, sorted(str(w.message) for w in caught)

    want, want_w = run(np)
    for _ in range(3):  # recorded or not, the same each call
        got, got_w = run(xnp)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert got_w == want_w
    np.testing.assert_array_equal(np.asarray(xnp.jit(getattr(xnp, fname))(xnp.asarray(values))),
                                  want)


# --- nan_to_num's array replacements, traced replacements, bfloat16, memory order ---------

_NTN_BASE = np.array([[np.nan, np.inf, -np.inf], [1, 2, 3]], np.float32)
NTN_X = {"C": _NTN_BASE, "F": np.asfortranarray(_NTN_BASE),
         "complex": np.vectorize(complex)(_NTN_BASE, _NTN_BASE[::-1]).astype(np.complex64),
         "permuted": np.stack([_NTN_BASE, _NTN_BASE * 2]).transpose(1, 0, 2),
         "float16": _NTN_BASE.astype(np.float16), "int": np.arange(6).reshape(2, 3),
         "0d": np.array(np.nan)}
NTN_KW = [dict(nan=np.array([1, 2, 3])), dict(nan=np.array([[7], [8]])),
          dict(nan=np.arange(12.).reshape(4, 3)), dict(nan=np.array([1 + 1j, 2, 3])),
          dict(nan=[1, 2, 3]), dict(posinf=np.array([1e300, 2, 3])), dict(nan=1e300),
          dict(nan=2**70), dict(nan=np.float64(1e300)), dict(nan=np.array(1e300)),
          dict(nan=np.array([1, 2, 3], np.uint64)), dict(nan=np.array([True, False, True])),
          dict(nan=None), dict(posinf=np.array([[1, 2, 3]] * 2, np.int8), neginf=np.array([-1.])),
          dict(nan=np.array([1e300, 2, 3]), posinf=np.array([1, 2])),
          dict(nan=np.array([1, 2, 3])[None, None]), dict(nan=1j), dict(posinf=1j),
          dict(nan=np.array([70000, 1, 1])), dict(nan=10**400), dict(), dict(nan=True),
          dict(nan=np.array([2.5, 3.5, 4.5], np.float32)), dict(neginf=np.array([[1.], [2.]]))]


def _as_xnp(kw):
    return {k: xnp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}


@pytest.mark.parametrize("kw", NTN_KW, ids=lambda kw: repr(kw)[:60])
@pytest.mark.parametrize("xname", list(NTN_X))
def test_nan_to_num_replacements_are_written_as_numpys_copyto(xname, kw):
    # NumPy 2: copyto(x, value, where=mask) per replacement: an array broadcast to x's shape
    # (leading 1s dropped; ValueError otherwise), cast 'same_kind' (TypeError), a 0-d one
    # cast whole (its overflow warns even with nothing to replace), an array only where
    # used; the result is NumPy's copy of x (order 'K'): same strides
    x = NTN_X[xname]
    with np.errstate(all="warn"):
        want, want_w = helpers.outcome(lambda: np.nan_to_num(x, **kw))
        for call in ("first", "replayed"):
            for args in (_as_xnp(kw), kw):  # xnp arrays, and NumPy's own
                got, got_w = helpers.outcome(lambda: xnp.nan_to_num(xnp.asarray(x), **args))
                assert [w.category for w in got_w] == [w.category for w in want_w], call
                if isinstance(want, Exception):
                    assert isinstance(got, type(want)), (call, got)
                    continue
                helpers.assert_allclose(got, want, err_msg=call)
                assert xnp.asarray(got).strides == want.strides, call
    arrays = {k: v for k, v in kw.items() if isinstance(v, np.ndarray)}
    static = {k: v for k, v in kw.items() if k not in arrays}
    names = list(arrays)  # arrays are traced arguments under jit; the rest static
    check_vs_numpy(lambda m, x, *a: m.nan_to_num(x, **static, **dict(zip(names, a))),
                   x, *arrays.values())


def test_nan_to_num_with_a_traced_replacement_under_jit():
    x = np.array([np.nan, 1.0, np.inf, -np.inf], np.float32)
    f = xnp.jit(lambda x, n, p: xnp.nan_to_num(x, nan=n, posinf=p))
    for n, p in [(5.0, 7), (2, 1.5), (np.array([1., 2, 3, 4]), np.float64(3.0)),
                 (np.array([[9.], [8.]]), 3.0)]:
        want, _ = helpers.outcome(lambda: np.nan_to_num(x, nan=n, posinf=p))
        got, _ = helpers.outcome(lambda: f(x, n, p))
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), got
        else:
            helpers.assert_allclose(got, want)
    g = xnp.jit(lambda x, n: xnp.nan_to_num(x, nan=n))  # the value is an argument, not a constant
    for n in (5.0, 6.0):
        helpers.assert_allclose(g(x, n), np.nan_to_num(x, nan=n))
    assert g.trace_count == 1
    with pytest.raises(TypeError, match=r"xnp\.nan_to_num: cannot cast `nan` from complex128 "
                                        r"to float32"):
        f(x, 1j, 1.0)
    with pytest.raises(ValueError, match=r"xnp\.nan_to_num: could not broadcast `nan` from "
                                         r"shape \(3,\) into shape \(4,\)"):
        f(x, np.ones(3), 1.0)


@pytest.mark.parametrize("kw", [{}, {"nan": 1.5, "posinf": 9.0, "neginf": -9},
                                {"nan": np.array([1., 2, 3, 4])}, {"posinf": 1e300},
                                {"nan": 2**70}],
                         ids=repr)
def test_nan_to_num_of_bfloat16_as_numpy_on_float32(kw):
    # NumPy with ml_dtypes returns bfloat16 unchanged (bfloat16 is not np.inexact to it);
    # xnp treats it as floating: the oracle is NumPy on float32 with bfloat16's own limits
    # as the default posinf/neginf, cast to bfloat16
    bf16 = ml_dtypes.bfloat16
    x = np.array([np.nan, np.inf, -np.inf, 1.5], bf16)
    info = ml_dtypes.finfo(bf16)
    ref = dict({"posinf": float(info.max), "neginf": float(info.min)}, **kw)
    with np.errstate(all="ignore"):
        want = np.nan_to_num(x.astype(np.float32), **ref).astype(bf16)
    got = xnp.nan_to_num(xnp.asarray(x), **_as_xnp(kw))
    assert got.dtype == bf16
    np.testing.assert_array_equal(np.asarray(got).astype(np.float32), want.astype(np.float32))
    jitted = xnp.jit(lambda x: xnp.nan_to_num(x, **_as_xnp(kw)))(xnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(jitted).astype(np.float32), want.astype(np.float32))


@pytest.mark.parametrize("layout", ["F", "T", "cols", "T_rows", "permuted", "complexF"])
def test_nan_to_num_result_has_the_memory_order_of_numpys_copy(layout):
    base = np.arange(24.).reshape(4, 6)
    base[0, 0], base[1, 1] = np.nan, np.inf
    x = {"F": np.asfortranarray(base), "T": base.T, "cols": base[:, ::2], "T_rows": base.T[::2],
         "permuted": base.reshape(2, 3, 4).transpose(1, 0, 2),
         "complexF": np.asfortranarray(base + 1j)}[layout]
    for kw in ({}, {"nan": np.arange(x.shape[-1], dtype=np.float64)}):
        want = np.nan_to_num(x, **kw)
        for _ in range(2):  # the second call replays
            got = xnp.asarray(xnp.nan_to_num(xnp.asarray(x), **_as_xnp(kw)))
            helpers.assert_allclose(got, want)
            assert (got.flags.c_contiguous, got.flags.f_contiguous, got.strides) == (
                want.flags.c_contiguous, want.flags.f_contiguous, want.strides)
