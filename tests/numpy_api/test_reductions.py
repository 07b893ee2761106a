"""NumPy-surface tests of ``xnp/numpy_api/reductions.py`` against NumPy (eager, jit and
``eval_jaxpr``), over sampled grids of shapes (edge shapes included) x dtypes x axis x
keepdims, plus where=/initial=/dtype=, NaN semantics, jaxpr texts and errors."""


import warnings

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import (ALL, BOOL, EDGE_SHAPES, FLOATING, INTEGER, axes_labels, check_vs_numpy,
                           covering_grid, covering_pairs, grid, make_array, reduction_labels)

SHAPES = EDGE_SHAPES + [(3,), (2, 3), (2, 3, 4)]
AXES = [None, 0, -1, (0, -1), ()]  # invalid combinations check NumPy's AxisError/ValueError
ORDERED = BOOL + INTEGER + FLOATING


_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _data(case, rng, *, nan=False):
    x = make_array(rng, case.shape, case.dtype)
    if nan and np.dtype(case.dtype) in FLOATING and x.size:
        x = np.array(np.round(x.astype(np.float64) * 2), dtype=case.dtype)  # ties
        x[rng.random(case.shape) < 0.2] = np.nan
    return x


def _run(fname, case, rng, nan=False, **kw):
    x = _data(case, rng, nan=nan)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis, keepdims=case.keepdims,
                                                    **kw), x, kind="reduction")


# --------------------------------------------------------------------------- grids


# sampled (all with --full-grid): 40 (case, function) pairs that cover
# helpers.reduction_labels (each function with each dtype family, shape, axis and
# keepdims, every dtype, each shape with each axis; 5 functions x 24 cases before)
@pytest.mark.parametrize("case,fname", covering_pairs(
    ["sum", "prod", "mean", "all", "any"], n=40, seed=1, labels=reduction_labels, shape=SHAPES,
    dtype=ALL, axis=AXES, keepdims=[False, True]))
def test_reduction_matches_numpy(fname, case, rng):
    _run(fname, case, rng)


# sampled (all with --full-grid): 40 pairs covering reduction_labels (5 x 20 before)
@pytest.mark.parametrize("case,fname", covering_pairs(
    ["max", "min", "amax", "amin", "ptp"], n=40, seed=2, labels=reduction_labels, shape=SHAPES,
    dtype=ORDERED, axis=AXES, keepdims=[False, True]))
def test_extremum_matches_numpy(fname, case, rng):
    _run(fname, case, rng, nan=True)


# sampled (all with --full-grid): 24 pairs covering reduction_labels (2 x 24 before)
@pytest.mark.parametrize("case,fname", covering_pairs(
    ["argmax", "argmin"], n=24, seed=3, labels=reduction_labels, shape=SHAPES, dtype=ORDERED,
    axis=[None, 0, -1], keepdims=[False, True]))
def test_argextremum_matches_numpy(fname, case, rng):
    _run(fname, case, rng, nan=True)


@pytest.mark.parametrize("fname", ["var", "std"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=ALL, axis=AXES,
                                      keepdims=[False, True], ddof=[0, 1], n=20, seed=4))
def test_var_std_match_numpy(fname, case, rng):
    _run(fname, case, rng, ddof=case.ddof)


@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=ALL, axis=[None, 0, (0, -1)],
                                      keepdims=[False, True], n=12, seed=5))
def test_count_nonzero_matches_numpy(case, rng):
    _run("count_nonzero", case, rng)


# ------------------------------------------------------------------------- dtype=, where=, initial=


@pytest.mark.parametrize("fname", ["sum", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.uint16, np.complex64, np.bool_,
                                   np.float16])
def test_sum_prod_dtype_argument(fname, dtype, rng):
    x = make_array(rng, (3, 4), np.int16)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=1, dtype=dtype), x, kind="reduction")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.complex128, np.int64])
def test_mean_dtype_argument(dtype, rng):
    x = make_array(rng, (3, 4), np.int32)
    check_vs_numpy(lambda xp, x: xp.mean(x, axis=0, dtype=dtype), x, kind="reduction")


@pytest.mark.parametrize("fname,kw", [
    ("sum", {}), ("prod", {}), ("mean", {}), ("all", {}), ("any", {}), ("var", {}),
    ("std", {"ddof": 1}), ("max", {"initial": -5.0}), ("min", {"initial": 5.0}),
    ("sum", {"initial": 2.5, "keepdims": True}),
])
@pytest.mark.parametrize("where_shape", [(2, 3, 4), (3, 1), (4,)])
def test_where_mask(fname, kw, where_shape, rng):
    x = make_array(rng, (2, 3, 4), np.float64)
    w = rng.random(where_shape) < 0.6
    check_vs_numpy(lambda xp, x, w: getattr(xp, fname)(x, axis=(0, 2), where=w, **kw), x, w,
                   kind="reduction")


@pytest.mark.parametrize("fname,initial,dtype", [
    ("sum", 10, np.int8), ("sum", 0.5, np.int64), ("prod", 3, np.uint8),
    ("max", 100, np.int16), ("min", -3.5, np.float32), ("max", -np.inf, np.float64),
    ("sum", 1.5, np.float16),
])
@pytest.mark.parametrize("shape", [(0,), (3, 4), (2, 0, 4)])
def test_initial(fname, initial, dtype, shape, rng):
    x = make_array(rng, shape, dtype)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=0, initial=initial), x,
                   kind="reduction")


def test_out_argument(rng):
    x = make_array(rng, (3, 4), np.float64)
    out = xnp.zeros(4)
    res = xnp.sum(xnp.asarray(x), axis=0, out=out)
    assert res is out
    np.testing.assert_allclose(np.asarray(out), x.sum(0))
    idx = xnp.zeros(3, dtype=np.int64)
    xnp.argmax(xnp.asarray(x), axis=1, out=idx)
    np.testing.assert_array_equal(np.asarray(idx), x.argmax(1))


def test_array_methods(rng):
    x = make_array(rng, (3, 4), np.float32)
    for body in [lambda xp, x: x.sum(0), lambda xp, x: x.mean(axis=1, keepdims=True),
                 lambda xp, x: x.max(), lambda xp, x: x.argmin(axis=0), lambda xp, x: x.all(1),
                 lambda xp, x: x.prod(dtype=np.float64), lambda xp, x: x.min(initial=0.0)]:
        check_vs_numpy(body, x, kind="reduction")


def test_python_scalars_and_lists():
    check_vs_numpy(lambda xp: xp.sum(3), kind="reduction")
    check_vs_numpy(lambda xp: xp.mean([1, 2, 4]), kind="reduction")
    check_vs_numpy(lambda xp: xp.max([[1.5, 2.0], [0.0, -1.0]], axis=1), kind="reduction")
    check_vs_numpy(lambda xp: xp.sum(2.5) * np.ones(2, np.float32), kind="reduction")


# --------------------------------------------------------------------------- NaN and accumulation


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_nan_semantics_under_jit(dtype):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [np.nan, 2.0, 2.0, 0.0], [5.0, 5.0, -1.0, 5.0]],
                 dtype)
    check_vs_numpy(lambda xp, x: tuple(getattr(xp, f)(x, axis=axis)
                                       for f in ["max", "min", "argmax", "argmin", "ptp"]
                                       for axis in [None, 0, 1]), x, kind="reduction")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nan_propagates_in_large_reductions(dtype):
    # XLA's CPU emitter loses stablehlo.maximum's NaN semantics in large vectorized
    # reductions; the lowering must still give NumPy's NaN (and the first NaN's index).
    rng = np.random.default_rng(7)
    x = np.round(rng.standard_normal((300, 517)) * 2).astype(dtype)
    x[rng.random(x.shape) < 1e-3] = np.nan
    check_vs_numpy(lambda xp, x: tuple(getattr(xp, f)(x, axis=axis)
                                       for f in ["max", "min", "argmax", "argmin"]
                                       for axis in [None, 0, 1]), x, kind="reduction", jaxpr=False)


def test_float16_accumulates_in_float32():
    x = np.full(4096, 1.0, np.float16)  # a float16 accumulator would stop at 2048
    assert float(xnp.sum(x)) == 4096.0
    assert float(xnp.jit(xnp.sum)(x)) == 4096.0
    assert xnp.sum(x).dtype == np.float16


def test_integer_sum_widens():
    x = np.full(300, 100, np.int8)
    check_vs_numpy(lambda xp, x: xp.sum(x), x)
    check_vs_numpy(lambda xp, x: xp.sum(x.astype(np.uint8)), x)
    check_vs_numpy(lambda xp, x: xp.prod(x > 0), x)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("body", [
    lambda xp, x: xp.max(xp.ones((0,))),
    lambda xp, x: xp.min(xp.ones((3, 0)), axis=1),
    lambda xp, x: xp.max(xp.ones((0, 0)), axis=1),
    lambda xp, x: xp.max(x, where=x > 0),
    lambda xp, x: xp.argmax(xp.ones((0, 3))),
    lambda xp, x: xp.argmin(xp.ones((3, 0)), axis=1),
    lambda xp, x: xp.argmax(xp.asarray(1.0), axis=1),
    lambda xp, x: xp.mean(xp.asarray(1.0), axis=0),
    lambda xp, x: xp.sum(x, axis=2),
    lambda xp, x: xp.sum(x, axis=(0, 0)),
    lambda xp, x: xp.mean(x, axis=-3),
    lambda xp, x: xp.argmax(x, axis=(0, 1)),
    lambda xp, x: xp.ptp(x > 0),
    lambda xp, x: xp.var(x, ddof=1, correction=1),
    lambda xp, x: xp.sum(x, out=xp.zeros(3)),
], ids=lambda f: "")
def test_errors_match_numpy(body, rng):
    check_vs_numpy(body, make_array(rng, (3, 4), np.float64))


def test_error_messages():
    x = xnp.ones((3, 0))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        xnp.max(x, axis=1)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        xnp.argmin(x)
    with pytest.raises(np.exceptions.AxisError, match="xnp.sum"):
        xnp.sum(x, axis=5)
    # complex: NumPy's lexicographic order, `initial`/`where` too
    # (tests/numpy_api/test_complex_order.py); `where` still needs `initial`
    with pytest.raises(ValueError, match="to use a where mask one has to specify 'initial'"):
        xnp.max(xnp.ones(3, dtype=np.complex64), where=np.array([True, False, True]))


def test_traced_axis_is_concretization_error():
    f = xnp.jit(lambda x, a: xnp.sum(x, axis=a))
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        f(np.ones((2, 3)), 1)
    assert xnp.jit(lambda x, a: xnp.sum(x, axis=a), static_argnums=1)(np.ones((2, 3)), 1).shape \
        == (2,)


# --------------------------------------------------------------------------- jaxprs


def _norm(text):
    return " ".join(str(text).split())


def test_jaxpr_sum_all_axes():
    j = xnp.make_jaxpr(lambda x: x.sum())(xnp.ones((2, 3)))
    assert _norm(j) == "{ lambda ; a:f64[2,3]. let b:f64[] = reduce_sum[axes=(0, 1)] a in (b,) }"


def test_jaxpr_prod_of_shape():  # the shape becomes a constvar
    j = xnp.make_jaxpr(lambda x: xnp.prod(xnp.array(x.shape)))(xnp.ones((3, 4)))
    assert _norm(j) == ("{ lambda a:i64[2]; b:f64[3,4]. let c:i64[] = reduce_prod[axes=(0,)] a "
                        "in (c,) }")


def test_jaxpr_argmax_and_mean():
    j = xnp.make_jaxpr(lambda x: xnp.argmax(x, axis=1))(np.ones((2, 3), np.float32))
    assert "argmax[axes=(1,) index_dtype=int64] a" in _norm(j)
    j = xnp.make_jaxpr(lambda x: xnp.mean(x, axis=0))(np.ones((2, 3)))
    assert "reduce_sum[axes=(0,)] a" in _norm(j) and "div" in _norm(j)


# --------------------------------------------------------------------------- signed zeros

_ONE_ELEMENT_SUMS = {
    "sum": lambda xp, x: xp.sum(x),
    "sum axis 1": lambda xp, x: xp.sum(x, axis=-1),
    "sum axis 0": lambda xp, x: xp.sum(x, axis=0),
    "sum no axes": lambda xp, x: xp.sum(x, axis=()),
    "sum keepdims": lambda xp, x: xp.sum(x, axis=-1, keepdims=True),
    "sum where": lambda xp, x: xp.sum(x, axis=-1, where=xp.ones(x.shape[-1:], bool)),
    "sum initial 0.0": lambda xp, x: xp.sum(x, axis=-1, initial=0.0),
    "sum initial -0.0": lambda xp, x: xp.sum(x, axis=-1, initial=-0.0),
    "sum dtype": lambda xp, x: xp.sum(x, axis=-1, dtype=xp.complex128),
    "method": lambda xp, x: x.sum(axis=-1),
    "add.reduce": lambda xp, x: xp.add.reduce(x, axis=-1),
    "nansum": lambda xp, x: xp.nansum(x, axis=-1),
    "mean": lambda xp, x: xp.mean(x, axis=-1),
    "nanmean": lambda xp, x: xp.nanmean(x, axis=-1),
    "average": lambda xp, x: xp.average(x, axis=-1),
    "einsum": lambda xp, x: xp.einsum("...i->...", x),
}


_ONE_ELEMENT_SHAPES = [(1,), (3, 1), (1, 1)]


# sampled (all with --full-grid): each pair of function, dtype and shape (a compile each)
@pytest.mark.parametrize("shape,dtype,fname", [
    pytest.param(_ONE_ELEMENT_SHAPES[c.shape], c.dtype, c.fname,
                 id=f"shape{c.shape}-{np.dtype(c.dtype).name}-{c.fname}")
    for c in covering_grid(
        shape=range(len(_ONE_ELEMENT_SHAPES)),
        dtype=[np.float64, np.float32, np.float16, np.complex64],
        fname=list(_ONE_ELEMENT_SUMS), n=64, seed=6,
        labels=lambda c: axes_labels(c, ("fname", "dtype"), ("fname", "shape"),
                                     ("dtype", "shape")))])
def test_sum_of_one_element_starts_from_plus_zero(fname, dtype, shape):
    """NumPy's sums add their elements to +0.0, so a sum of one -0.0 is 0.0 (in each part of
    a complex number); XLA compiles a sum of one element to the element itself, which must
    not show under jit."""
    body = _ONE_ELEMENT_SUMS[fname]
    x = np.full(shape, complex(-0.0, -0.0) if np.dtype(dtype).kind == "c" else -0.0, dtype)
    want = np.asarray(body(np, x))
    for how, got in (("eager", body(xnp, xnp.asarray(x))),
                     ("jit", xnp.jit(lambda a: body(xnp, a))(xnp.asarray(x)))):
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (how, got, want)
        for part in ((np.real, np.imag) if want.dtype.kind == "c" else (np.asarray,)):
            np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)),
                                          err_msg=f"{how} {fname}")
            np.testing.assert_array_equal(part(got), part(want), err_msg=f"{how} {fname}")


def _assert_same_zeros(got, want, err_msg):
    """Equal dtype, shape, values and sign bits (of each part of a complex number)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (err_msg, got, want)
    for part in ((np.real, np.imag) if want.dtype.kind == "c" else (np.asarray,)):
        np.testing.assert_array_equal(part(got), part(want), err_msg=err_msg)
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)),
                                      err_msg=err_msg)


_Z = complex(-0.0, -0.0)
_ZEROS = np.array([[_Z, complex(0.0, -0.0)], [complex(-0.0, 0.0), _Z]])


def test_complex_sum_initial_keeps_numpys_signed_zeros():
    """NumPy adds a complex sum's elements to ``initial`` from -0.0 on, in each part: where
    a part adds nothing but -0.0 (or nothing) it is that part of ``initial`` itself."""
    def body(xp, x, empty):
        where = xp.asarray([[True, False], [True, True]])
        return (xp.sum(x, axis=0, initial=_Z),
                xp.sum(x, axis=1, keepdims=True, initial=_Z, where=where),
                xp.sum(x[1], initial=np.complex64(-0.0)),  # -0.0 in the real part only
                xp.sum(empty, axis=0, initial=complex(0.0, -0.0)),
                xp.nansum(empty, initial=_Z))

    args = (_ZEROS, np.zeros((0, 2), np.complex64))
    want = body(np, *args)
    xargs = [xnp.asarray(a) for a in args]
    for how, got in (("eager", body(xnp, *xargs)),
                     ("jit", xnp.jit(lambda *a: body(xnp, *a))(*xargs))):
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same_zeros(g, w, f"{how} result {i}")


def test_real_sum_of_complex_initial_raises_type_error():
    check_vs_numpy(lambda xp, x: xp.sum(x, initial=1j), np.ones(2))
    check_vs_numpy(lambda xp, x: xp.prod(x, axis=0, initial=complex(-0.0, -0.0)),
                   np.ones((2, 2), np.int32))


@pytest.mark.parametrize("fname", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.bool_], ids=str)
@pytest.mark.parametrize("initial", [np.nan, np.inf, -np.inf, -1.5, 2.7, -0.0, 1e30, 1e19])
def test_float_initial_of_an_integer_reduction_is_numpys_int_of_it(fname, dtype, initial):
    """NumPy takes a Python float ``initial`` of an integer or bool reduction as its
    ``int()``: NaN ValueError, infinities and ints beyond a C long OverflowError, an int out
    of the loop's range OverflowError, else the truncated value (never a wrapped one)."""
    x = np.array([[1, 0, 1], [1, 1, 1]], dtype)
    check_vs_numpy(lambda xp, a: getattr(xp, fname)(a, axis=0, initial=initial), x)



# --------------------------------------------------------------------------- var/std dtype=


_C = np.array([[1 + 2j, 3 - 1j, 0.5j], [2, -1 + 1j, 4 - 3j]])
_R = np.array([[1.5, 2.25, 3.0], [0.5, -1.0, 4.0]])


@pytest.mark.parametrize("fname", ["var", "std"])
@pytest.mark.parametrize("x, kw", [
    (_C, {"dtype": np.float64}), (_C, {"dtype": np.float32, "axis": 1}),
    (_C, {"dtype": np.int64}), (_C, {"dtype": np.int64, "axis": 0}),
    (_C, {"dtype": np.int64, "ddof": 1}), (_C, {"dtype": np.complex64, "axis": 1}),
    (_C.astype(np.complex64), {"dtype": np.float64, "keepdims": True}),
    (_C, {"dtype": np.bool_}), (_C, {"dtype": np.bool_, "axis": 1}),
    (_C, {"dtype": np.float64, "mean": _C.mean(axis=1, keepdims=True), "axis": 1}),
    (_R, {"dtype": np.float32}), (_R, {"dtype": np.int64, "axis": 1}),
    (_R, {"dtype": np.complex128}), (_R > 1, {"dtype": np.bool_}),
    (_R.astype(np.float32), {"mean": np.float64(1.0)}), (_R.astype(np.float32), {"mean": 1.0}),
    (_R.astype(np.float32), {"mean": np.ones((2, 1)), "axis": 1, "keepdims": True}),
    (np.array([[100, -100, 50]]), {"dtype": np.int8}),
    (np.array([[100, -100, 50]], np.int32), {"dtype": np.int64, "axis": 1}),
], ids=lambda v: "" if isinstance(v, np.ndarray) else "-".join(
    f"{k}={getattr(v, '__name__', type(v).__name__)}" for k, v in v.items()))
def test_var_std_follow_numpys_steps_with_a_dtype(fname, x, kw):
    # NumPy's _var: the mean summed in `dtype`, the deviations from the input itself in
    # the input's and the mean's common dtype (a complex input keeps its imaginary parts),
    # |deviation|**2 summed in `dtype`: values, dtype, errors and one ComplexWarning (for a
    # complex input with a real or integer dtype and no mean given) as NumPy's
    def body(xp, x):
        return getattr(xp, fname)(x, **kw)

    seen = {}
    for mod in (np, xnp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                body(mod, mod.asarray(x))
            except TypeError:
                pass
        seen[mod] = [(r.category, r.filename) for r in w
                     if r.category is np.exceptions.ComplexWarning]
    assert [c for c, _ in seen[xnp]] == [c for c, _ in seen[np]]
    assert all(f == __file__ for _, f in seen[xnp])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        try:
            body(np, x)
        except TypeError:  # NumPy's UFuncTypeError (std's sqrt cast back into int or bool)
            with pytest.raises(TypeError, match=f"xnp.{fname}: "):
                body(xnp, x)
            with pytest.raises(TypeError, match=f"xnp.{fname}: "):
                xnp.jit(lambda v: body(xnp, v))(x)
            return
        check_vs_numpy(body, x, rtol=1e-6 if np.float32 in (kw.get("dtype"), x.dtype) else 1e-13)


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin"])
@pytest.mark.parametrize("case", ["0-d", "axis ()", "empty, axis ()", "keepdims"])
def test_complex_extrema_over_no_axis_are_numpys_copy(name, case):
    # no axis reduced (a 0-d input, axis=()): NumPy's result is a copy of the input, for
    # complex too (whose extrema over an axis are lexicographic); eagerly and under jit
    base = {"0-d": np.asarray(1 + 2j), "axis ()": np.asarray([1 + 2j, 3j, np.nan]),
            "empty, axis ()": np.zeros((0, 3), np.complex64),
            "keepdims": np.asarray([[1 - 2j, 3j]])}[case]
    kw = {} if case == "0-d" else {"axis": ()}
    if case == "keepdims":
        kw["keepdims"] = True
    want = getattr(np, name)(base, **kw)
    x = xnp.asarray(base)
    for got in (getattr(xnp, name)(x, **kw), xnp.jit(lambda a: getattr(xnp, name)(a, **kw))(x)):
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
    got = getattr(xnp, name)(x, **kw)
    assert type(got) is (xnp.ndarray if isinstance(want, np.ndarray) else type(want))
    if np.ndim(got):
        assert not np.shares_memory(np.asarray(got), np.asarray(x))


@pytest.mark.parametrize("fn, want", [
    (lambda x: xnp.sum(x), lambda x: np.ones_like(x)),
    (lambda x: xnp.mean(x), lambda x: np.full_like(x, 1 / x.size)),
    (lambda x: xnp.nansum(x), lambda x: np.ones_like(x)),
    (lambda x: xnp.sum(x, axis=0).sum(), lambda x: np.ones_like(x)),
    (lambda x: xnp.einsum("i->", x), lambda x: np.ones_like(x)),
    (lambda x: xnp.dot(x, xnp.ones_like(x)), lambda x: np.ones_like(x)),
    (lambda x: (x @ xnp.full_like(x, 3.0)), lambda x: np.full_like(x, 3.0)),
    (lambda x: xnp.median(x), lambda x: np.ones_like(x)),
])
@pytest.mark.parametrize("value", [0.0, -0.0, 2.5])
def test_derivative_of_a_sum_of_one_element_at_zero_is_one(fn, want, value):
    """A sum of one element is NumPy's sum from +0.0 (-0.0 gives 0.0), which xnp restates
    after lax's sum; the restatement keeps the derivative 1, also at the zero itself (it
    was 0 there)."""
    x = np.array([value])
    for g in (xnp.grad(fn), xnp.jit(xnp.grad(fn))):
        np.testing.assert_array_equal(np.asarray(g(x)), want(x))


@pytest.mark.parametrize("fn, added", [
    (lambda x: xnp.sum(x, initial=-0.0), [1.0, 1.0]),
    (lambda x: xnp.sum(x, initial=xnp.asarray(0.0)), [1.0, 1.0]),
    (lambda x: xnp.sum(x, initial=xnp.asarray(-0.0)), [1.0, 1.0]),
    (lambda x: xnp.nansum(x, initial=-0.0), [1.0, 1.0]),
    (lambda x: xnp.sum(x, where=xnp.asarray([True, False]), initial=-0.0), [1.0, 0.0]),
    (lambda x: xnp.add.reduce(x, initial=-0.0), [1.0, 1.0]),
    (lambda x: xnp.sum(xnp.reshape(x, (1, 2)), axis=0, initial=-0.0).sum(), [1.0, 1.0]),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_derivative_of_a_sum_with_initial_of_minus_zeros_is_one(fn, added, dtype):
    """Where only -0.0 is added to a zero ``initial``, NumPy's sum is ``initial`` itself
    (its sign included), which xnp restates after lax's sum: the derivative stays that of
    the sum (1 per element added; it was 0)."""
    x = np.array([-0.0, -0.0], dtype)
    for g in (xnp.grad(fn), xnp.jit(xnp.grad(fn))):
        np.testing.assert_array_equal(np.asarray(g(x)), np.array(added, dtype))
    tangent = xnp.jvp(fn, (x,), (np.ones(2, dtype),))[1]
    assert float(tangent) == sum(added)
