"""Calls where xnp used to answer differently from NumPy, each checked against NumPy's own
result or exception on the same inputs, eagerly and under ``xnp.jit``."""

import warnings

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import check_vs_numpy, outcome

_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _numpy_error(call):
    """The exception NumPy raises for ``call()``."""
    with pytest.raises(Exception) as info:
        call()
    return info.value


# --------------------------------------------------------------------------- ndarray.var/std


@pytest.mark.parametrize("method", ["var", "std"])
@pytest.mark.parametrize("kwargs", [{"correction": 1}, {"correction": 0, "axis": 0},
                                    {"ddof": 1, "correction": 1}])
def test_ndarray_var_std_take_no_correction(method, kwargs):
    """NumPy's ndarray.var/std have no ``correction`` keyword (its functions do): TypeError
    naming the method and the keyword, eagerly and under jit."""
    x = np.arange(6.0).reshape(2, 3)
    err = _numpy_error(lambda: getattr(x, method)(**kwargs))
    assert type(err) is TypeError and "correction" in str(err)
    for run in (lambda f, v: f(v), lambda f, v: xnp.jit(f)(v)):
        with pytest.raises(TypeError, match=rf"{method}\(\) got an unexpected keyword "
                                            r"argument 'correction'"):
            run(lambda v: getattr(v, method)(**kwargs), xnp.asarray(x))
    # the functions take it, as NumPy's
    check_vs_numpy(lambda xp, v: getattr(xp, method)(v, **kwargs), x)
    check_vs_numpy(lambda xp, v: getattr(v, method)(axis=0, ddof=1), x)


# --------------------------------------------------------------------------- Python-level axes

_AXIS_FUNCTIONS = {
    "average": lambda xp, v, ax: xp.average(v, axis=ax),
    "average_weights": lambda xp, v, ax: xp.average(v, axis=ax, weights=xp.ones(v.shape)),
    "average_returned": lambda xp, v, ax: xp.average(v, axis=ax, returned=True),
    "median": lambda xp, v, ax: xp.median(v, axis=ax),
    "percentile": lambda xp, v, ax: xp.percentile(v, [25, 50], axis=ax),
    "quantile": lambda xp, v, ax: xp.quantile(v, 0.5, axis=ax, keepdims=True),
    "nanmedian": lambda xp, v, ax: xp.nanmedian(v, axis=ax),
    "nanpercentile": lambda xp, v, ax: xp.nanpercentile(v, 50, axis=ax),
    "nanquantile": lambda xp, v, ax: xp.nanquantile(v, 0.5, axis=ax),
}
#: axes NumPy's normalize_axis_tuple takes (a Python bool, a 1-element or 1-d array, a tuple
#: holding a bool) and ones it refuses (a NumPy bool, a float, a 2-d array, a repeated axis)
_AXES = {"True": True, "False": False, "array1": np.array([1]), "array10": np.array([1, 0]),
         "array0d": np.array(1), "tuple_bool": (True,), "list_bool": [False, 1],
         "numpy_bool": np.True_, "float": 1.0, "array2d": np.array([[1]]),
         "repeated": (1, True), "out_of_range": np.array([2])}


@pytest.mark.parametrize("axis", list(_AXES), ids=list(_AXES))
@pytest.mark.parametrize("fname", list(_AXIS_FUNCTIONS))
def test_python_level_functions_read_axis_as_numpy(fname, axis):
    """average, median and the quantile functions read ``axis`` with NumPy's
    normalize_axis_tuple: their result, or NumPy's exception class, eagerly and under jit."""
    f, ax = _AXIS_FUNCTIONS[fname], _AXES[axis]
    x = np.arange(6.0).reshape(2, 3)
    x[0, 1] = np.nan if fname.startswith("nan") else x[0, 1]
    check_vs_numpy(lambda xp, v: f(xp, v, ax), x)


@pytest.mark.parametrize("axis", [True, np.array([1]), (True,), [1], 1])
@pytest.mark.parametrize("fname", ["nanmedian", "nanpercentile", "nanquantile", "median"])
def test_nan_functions_of_an_empty_array_take_nanmean_axes(fname, axis):
    """Of an empty array NumPy's nan-forms return nanmean's result, whose axis is a C
    reduction's (no bool, array or list): NumPy's exception class or result."""
    check_vs_numpy(lambda xp, v: _AXIS_FUNCTIONS[fname](xp, v, axis), np.empty((0, 3)))


@pytest.mark.parametrize("axis", [1, (1,), True, None, 0])
def test_average_of_an_empty_result_is_a_zero_division(axis):
    """NumPy's average without weights divides a.size by the result's size: an empty result
    raises ZeroDivisionError, eagerly and under jit."""
    e = np.empty((0, 3))
    check_vs_numpy(lambda xp, v: xp.average(v, axis=axis), e)
    if axis in (1, True):
        for run in (lambda f, v: f(v), lambda f, v: xnp.jit(f)(v)):
            with pytest.raises(ZeroDivisionError, match=r"xnp\.average: division by zero"):
                run(lambda v: xnp.average(v, axis=axis, returned=True), xnp.asarray(e))


# --------------------------------------------------------------------------- vmap of no member


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_vmap_of_solve_over_an_empty_batch_checks_no_matrix(mode, dtype):
    """vmap(solve, in_axes=(None, 0)) over no right-hand side applies solve to nothing: the
    empty result of the shape and dtype a batch would have, as NumPy's solve of the stacked
    (empty) batch; a batch of one or more still raises NumPy's 'Singular matrix' eagerly."""
    a = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)  # singular
    f = xnp.vmap(xnp.linalg.solve, in_axes=(None, 0))
    run = xnp.jit(f) if mode == "jit" else f
    for b in (np.zeros((0, 2), dtype), np.zeros((0, 2, 3), dtype)):
        want = np.linalg.solve(np.broadcast_to(a, (0, 2, 2)),
                               b[..., None] if b.ndim == 2 else b)
        want = want[..., 0] if b.ndim == 2 else want
        got = run(xnp.asarray(a), xnp.asarray(b))
        assert got.shape == want.shape and got.dtype == want.dtype
    # nested: the outer batch is empty
    g = xnp.vmap(xnp.vmap(xnp.linalg.solve, in_axes=(None, 0)), in_axes=(None, 0))
    got = (xnp.jit(g) if mode == "jit" else g)(xnp.asarray(a), xnp.zeros((0, 3, 2), dtype))
    assert got.shape == (0, 3, 2) and got.dtype == dtype
    if mode == "eager":
        b = np.ones((1, 2), dtype)
        err = _numpy_error(lambda: np.linalg.solve(np.broadcast_to(a, (1, 2, 2)), b[..., None]))
        with pytest.raises(type(err), match="Singular matrix"):
            f(xnp.asarray(a), xnp.asarray(b))


# --------------------------------------------------------------------------- clip's bounds

_CLIP_CALLS = {
    "a_min_and_max": lambda xp, v: xp.clip(v, 1, max=3),
    "a_min_alone": lambda xp, v: xp.clip(v, 1),
    "a_min_keyword_alone": lambda xp, v: xp.clip(v, a_min=1),
    "a_max_keyword_alone": lambda xp, v: xp.clip(v, a_max=3),
    "a_min_and_min": lambda xp, v: xp.clip(v, a_min=1, min=2),
    "both_and_min": lambda xp, v: xp.clip(v, 1, 3, min=2),
    "both_and_max_none": lambda xp, v: xp.clip(v, 1, 3, max=None),
    "min_alone": lambda xp, v: xp.clip(v, min=1),
    "max_alone": lambda xp, v: xp.clip(v, max=3),
    "no_bound": lambda xp, v: xp.clip(v),
    "none_none": lambda xp, v: xp.clip(v, None, None),
    "both_keywords": lambda xp, v: xp.clip(v, a_min=1, a_max=3),
    "min_max_keywords": lambda xp, v: xp.clip(v, min=1, max=3),
    "method_min": lambda xp, v: v.clip(1),
    "method_min_max": lambda xp, v: v.clip(1, max=3),
    "method_a_min": lambda xp, v: v.clip(a_min=1),
    "method_a_min_a_max": lambda xp, v: v.clip(a_min=1, a_max=3),
}


@pytest.mark.parametrize("name", list(_CLIP_CALLS))
def test_clip_bounds_as_numpy(name):
    """numpy.clip takes a_min and a_max both or neither (then min=/max=), never min/max with
    them; ndarray.clip takes min/max only: NumPy's result or exception class, eagerly and
    under jit, and for the function the message names it and the argument."""
    call = _CLIP_CALLS[name]
    x = np.arange(6.0)
    check_vs_numpy(call, x)
    try:
        call(np, x)
    except (TypeError, ValueError) as err:
        argument = {"a_min_and_min": "a_max", "both_and_min": "min",
                    "both_and_max_none": "max", "a_max_keyword_alone": "a_min",
                    "method_a_min": "a_min", "method_a_min_a_max": "a_min"}.get(name, "a_max")
        for run in (lambda f, v: f(v), lambda f, v: xnp.jit(f)(v)):
            with pytest.raises(type(err), match=rf"clip.*{argument}"):
                run(lambda v: call(xnp, v), xnp.asarray(x))


# --------------------------------------------------------------------------- scalar division

_C_INF = complex(np.inf, np.nan)
_SCALAR_DIVISIONS = {
    "mean_0d": (lambda m, v: m.mean(v[0]), np.array([_C_INF, 1])),
    "mean": (lambda m, v: m.mean(v), np.array([_C_INF, 1])),
    "mean_complex64": (lambda m, v: m.mean(v), np.array([_C_INF, 1], np.complex64)),
    "mean_where": (lambda m, v: m.mean(v, where=np.array([True, False])),
                   np.array([_C_INF, 1])),
    "mean_keepdims": (lambda m, v: m.mean(v, keepdims=True), np.array([_C_INF, 1])),
    "mean_axis": (lambda m, v: m.mean(v, axis=1), np.array([[_C_INF, 1]])),
    "median": (lambda m, v: m.median(v[:1]), np.array([_C_INF, 1])),
    "average": (lambda m, v: m.average(v), np.array([_C_INF, 1])),
    "average_weights": (lambda m, v: m.average(v, weights=np.array([np.inf, 1.0])),
                        np.array([np.inf, 1.0])),
    "average_weights_float32": (
        lambda m, v: m.average(v, weights=np.array([np.inf, 1], np.float32)),
        np.array([np.inf, 1], np.float32)),
    "average_weights_complex": (lambda m, v: m.average(v, weights=np.array([np.inf, 1.0])),
                                np.array([1 + 1j, 2])),
    "average_weights_keepdims": (
        lambda m, v: m.average(v, weights=np.array([np.inf, 1.0]), keepdims=True),
        np.array([np.inf, 1.0])),
}


def _warned(call):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = call()
    return out, [(w.category, str(w.message)) for w in got], [w.filename for w in got]


@pytest.mark.parametrize("name", list(_SCALAR_DIVISIONS))
def test_full_reductions_divide_as_numpys_scalars(name):
    """mean/median/average of a full reduction divide NumPy scalars: the floating-point
    warnings say "in scalar divide" where NumPy's do ("in divide" where NumPy's scalar
    division defers to the ufunc, or divides arrays), with NumPy's value, on the first call
    and on replays, naming the caller's line; under jit the value."""
    f, x = _SCALAR_DIVISIONS[name]
    want, want_warnings, _ = _warned(lambda: f(np, x))
    for _ in range(3):  # the first call records, the next ones replay
        got, got_warnings, files = _warned(lambda: f(xnp, xnp.asarray(x)))
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert got_warnings == want_warnings
        if "scalar divide" in str(want_warnings) and name != "mean":  # (the fast path's own)
            assert files == [__file__] * len(files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jitted = xnp.jit(lambda v: f(xnp, v))(xnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(jitted), want)


# --------------------------------------------------------------------------- det under jit

_DETS = {
    "complex_overflow_2": np.array([[1e200 + 1e200j, 0], [0, 1e200 + 1e200j]]),
    "complex_overflow_3": np.diag([1e200 + 1e200j] * 3),
    "complex_overflow_mixed": np.array([[1e308 + 1e308j, 0], [0, 2]]),
    "complex_imaginary": np.diag([1e300, 1e300j]).astype(complex),
    "complex_swap": np.array([[1e300j, 1], [1, 1e300j]]),
    "complex_conjugates": np.diag([1e200 - 1e200j, 1e200 + 1e200j, -3]),
    "complex_underflow": np.diag([1e-300, 1e-300j]).astype(complex) * (1 + 1j),
    "complex_inf_pivot": np.diag([complex(np.inf, 1), 2]),
    "real_overflow_between": np.diag([1e200, 1e200, 1e-200]),
    "real_underflow_between": np.diag([1e-200, 1e-200, 1e200]),
    "real_signs": np.diag([-1e200, 1e200, 5.0]),
    "real_singular": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "complex_singular": np.array([[1.0, 2.0], [2.0, 4.0]]) + 0j,
}


@pytest.mark.parametrize("name", list(_DETS))
def test_det_under_jit_is_numpys_arithmetic(name):
    """linalg.det under jit computes NumPy's sign * exp(sum(log|pivot|)): a pivot product
    overflowing in between is finite, an overflowing complex determinant has NumPy's inf and
    NaN parts (a sign part NumPy computes as exactly 0 stays 0); eagerly NumPy's value."""
    a = _DETS[name]
    with np.errstate(all="ignore"):
        want = np.linalg.det(a)
    for got in (xnp.linalg.det(xnp.asarray(a)), xnp.jit(xnp.linalg.det)(xnp.asarray(a)),
                xnp.jit(xnp.vmap(xnp.linalg.det))(xnp.asarray(a[None]))[0]):
        got = np.asarray(got)
        assert got.dtype == want.dtype
        for part in (np.real, np.imag):
            g, w = part(got), part(want)
            assert np.isnan(g) == np.isnan(w) and np.isinf(g) == np.isinf(w), (got, want)
            if np.isinf(w):
                assert np.sign(g) == np.sign(w), (got, want)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_det_under_jit_of_random_matrices_is_numpys_within_rounding():
    rng = np.random.default_rng(5)
    for dtype, rtol in ((np.float64, 1e-12), (np.complex128, 1e-12), (np.float32, 2e-5),
                        (np.complex64, 2e-5)):
        a = rng.standard_normal((3, 4, 4)) + (1j * rng.standard_normal((3, 4, 4))
                                              if np.dtype(dtype).kind == "c" else 0)
        a = a.astype(dtype)
        got = xnp.jit(xnp.linalg.det)(xnp.asarray(a))
        assert np.asarray(got).dtype == dtype
        np.testing.assert_allclose(np.asarray(got), np.linalg.det(a), rtol=rtol)


# --------------------------------------------------------------------------- modf's outputs

_MODF_LAYOUTS = {
    "next": (np.s_[0:8], np.s_[1:9]),
    "previous": (np.s_[1:9], np.s_[0:8]),
    "apart": (np.s_[0:8], np.s_[5:13]),
    "interleaved": (np.s_[0:16:2], np.s_[1:17:2]),
    "strided_over_contiguous": (np.s_[0:16:2], np.s_[0:8]),
    "reversed": (np.s_[7::-1], np.s_[0:8]),
    "same_memory": (np.s_[0:8], np.s_[0:8]),
}


@pytest.mark.parametrize("where", [None, "mask"])
@pytest.mark.parametrize("dtypes", [("f8", "f8"), ("f4", "f4"), ("f2", "f2"), ("f8", "f4")])
@pytest.mark.parametrize("layout", list(_MODF_LAYOUTS))
def test_modf_into_outputs_sharing_memory(layout, dtypes, where):
    """modf(x, out=(o1, o2)) where o1 and o2 are views of one buffer: the buffer holds what
    NumPy's loop leaves there (its element order, its casts and masked writes), on the first
    call and on replays."""
    s1, s2 = _MODF_LAYOUTS[layout]
    x = (np.random.default_rng(3).standard_normal(8) * 10).astype(dtypes[0])
    kwargs = {} if where is None else {"where": x > 0}
    want = np.full(20, 7.0, dtypes[1])
    np.modf(x, out=(want[s1], want[s2]), casting="unsafe", **kwargs)
    for _ in range(3):  # the first call and later ones (each must write NumPy's answer)
        buf = xnp.asarray(np.full(20, 7.0, dtypes[1]))
        got = xnp.modf(xnp.asarray(x), out=(buf[s1], buf[s2]), casting="unsafe", **kwargs)
        np.testing.assert_array_equal(np.asarray(buf), want)
        np.testing.assert_array_equal(np.asarray(got[0]), want[s1])
        np.testing.assert_array_equal(np.asarray(got[1]), want[s2])


def test_modf_into_one_array_under_jit():
    """One array for both outputs under jit: the fractional parts, as NumPy's loop."""
    x = np.array([1.5, -2.25, 3.75, 4.5])
    want = np.zeros(4)
    np.modf(x, out=(want, want))

    def f(v, o):
        xnp.modf(v, out=(o, o))
        return o

    np.testing.assert_array_equal(np.asarray(xnp.jit(f)(xnp.asarray(x), xnp.zeros(4))), want)


@pytest.mark.parametrize("dtype", ["f8", "f4", "f2"])
@pytest.mark.parametrize("layout", list(_MODF_LAYOUTS))
def test_modf_into_views_of_one_array_under_jit(layout, dtype):
    """Under jit, views of one traced array as modf's outputs (no where=, no cast) hold
    NumPy's answer: its loop's element order."""
    s1, s2 = _MODF_LAYOUTS[layout]
    x = (np.random.default_rng(4).standard_normal(8) * 10).astype(dtype)
    want = np.full(20, 7.0, dtype)
    np.modf(x, out=(want[s1], want[s2]))

    def f(v, buf):
        xnp.modf(v, out=(buf[s1], buf[s2]))
        return buf

    got = xnp.jit(f)(xnp.asarray(x), xnp.asarray(np.full(20, 7.0, dtype)))
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("fname", ["place", "putmask"])
@pytest.mark.parametrize("values", ["f64-array", "i64-array", "f32-array", "list", "np-float64",
                                    "float"])
@pytest.mark.parametrize("target", ["float32", "int32", "float64"])
def test_place_and_putmask_cast_array_values_safely_as_numpy(fname, values, target):
    """NumPy casts ``values`` given as an array under 'safe' (TypeError otherwise) and
    converts lists and scalars as they are; the same eagerly and with the values traced
    under jit."""
    vals = {"f64-array": np.array([1.5, 2.0, 3.0]), "i64-array": np.array([1, 2, 3]),
            "f32-array": np.array([1.5, 2.0, 3.0], np.float32), "list": [1.5, 2.0, 3.0],
            "np-float64": np.float64(1.5), "float": 1.5}[values]
    mask = np.array([True, False, True])

    def run(m, v):
        a = m.zeros(3, target)
        getattr(m, fname)(a, m.asarray(mask), v)
        return a

    want = outcome(lambda: np.asarray(run(np, vals)))[0]
    xvals = xnp.asarray(vals) if isinstance(vals, np.ndarray) else vals
    got = outcome(lambda: np.asarray(run(xnp, xvals)))[0]
    if isinstance(want, Exception):
        assert type(got) is type(want) and str(got) == str(want), (got, want)
    else:
        np.testing.assert_array_equal(got, want)
    if isinstance(vals, np.ndarray):  # traced values: the same check, by dtype
        jitted = outcome(lambda: np.asarray(xnp.jit(lambda v: run(xnp, v))(xvals)))[0]
        if isinstance(want, Exception):
            assert type(jitted) is type(want) and str(jitted) == str(want)
        else:
            np.testing.assert_array_equal(jitted, want)


_PY_VALUE_WRITES = {
    "put": lambda m, a, v: m.put(a, [0, 1], v),
    "putmask": lambda m, a, v: m.putmask(a, m.asarray([True, True, False, False]), v),
    "place": lambda m, a, v: m.place(a, m.asarray([True, True, False, False]), v),
    "fill_diagonal": lambda m, a, v: m.fill_diagonal(a.reshape(2, 2), v),
    "flat": lambda m, a, v: a.flat.__setitem__([0, 1], v),
}


@pytest.mark.parametrize("values", [[1.7, 300.0], 300, 300.0, [1.7, -3.2], [-129], (2, 5),
                                    [True, False], 2.5])
@pytest.mark.parametrize("target", ["int8", "uint8", "float32", "bool"])
@pytest.mark.parametrize("fname", list(_PY_VALUE_WRITES))
def test_python_values_of_writing_functions_convert_as_numpy(fname, target, values):
    """Python numbers written by put/putmask/place/fill_diagonal/flat convert as NumPy
    converts them into the target's dtype: a number out of an integer dtype's range raises
    NumPy's OverflowError (xnp wrapped it: 300 became 44 in int8)."""
    def run(m):
        a = m.zeros(4, target)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _PY_VALUE_WRITES[fname](m, a, values)
        return np.asarray(a).copy()

    for _ in range(2):
        want, got = outcome(lambda: run(np))[0], outcome(lambda: run(xnp))[0]
        if isinstance(want, Exception):
            assert type(got) is type(want) and str(got) == str(want), (got, want)
        else:
            np.testing.assert_array_equal(got, want)
