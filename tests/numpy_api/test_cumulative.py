"""NumPy-surface tests of ``xnp/numpy_api/cumulative.py`` against NumPy (eager, jit and
``eval_jaxpr``) over sampled grids of shapes (edge shapes included) x dtypes x axis,
plus errors, and transformation checks of the cumulative and window primitives
(jvp vs finite differences, vjp vs jvp, vmap vs a loop, ``associative_scan``)."""


import warnings

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import (
    ALL, central_difference, check_vs_numpy, covering_grid, EDGE_SHAPES, grid, make_array,
    rules_of_other_families_may_be_missing,
)
from xnp import lax

SHAPES = EDGE_SHAPES + [(5,), (2, 3), (3, 1, 4)]
AXES = [None, 0, -1, 1]


_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off


def _data(rng, shape, dtype, nan=False):
    x = make_array(rng, shape, dtype)
    if nan and np.dtype(dtype).kind in "fc" and x.size:
        x[rng.random(shape) < 0.25] = np.nan
    return x


# --------------------------------------------------------------------------- cumsum / cumprod


@pytest.mark.parametrize("fname", ["cumsum", "cumprod"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=ALL, axis=AXES, n=16, seed=7))
def test_cumsum_cumprod_match_numpy(fname, case, rng):
    x = _data(rng, case.shape, case.dtype)
    if fname == "cumprod" and x.dtype.kind in "fc":
        x = (x / 2).astype(x.dtype)  # keep products small
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis), x, kind="reduction")


@pytest.mark.parametrize("fname", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.bool_])
def test_cumsum_dtype_argument_matches_numpy(fname, dtype, rng):
    x = _data(rng, (2, 5), np.int8)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=1, dtype=dtype), x,
                   kind="reduction")


def test_cumsum_out_and_integer_wraparound():
    x = np.array([100, 100, 100], np.int8)
    check_vs_numpy(lambda xp, x: xp.cumsum(x, dtype=np.int8), x)
    out = xnp.zeros(3, np.float32)
    res = xnp.cumsum(xnp.asarray([1, 2, 3]), out=out)
    assert res is out
    np.testing.assert_array_equal(np.asarray(out), [1, 3, 6])


@pytest.mark.parametrize("fname", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("case", grid(shape=[(), (0,), (4,), (2, 3), (2, 0, 3)],
                                      dtype=[np.bool_, np.int8, np.uint16, np.float32,
                                             np.float64, np.complex128],
                                      axis=[None, 0, -1], include_initial=[False, True],
                                      n=16, seed=8))
def test_cumulative_functions_match_numpy(fname, case, rng):
    x = _data(rng, case.shape, case.dtype)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis,
                                                    include_initial=case.include_initial),
                   x, kind="reduction")


@pytest.mark.parametrize("fname", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=[np.float16, np.float64, np.int32,
                                                           np.complex64], axis=[None, 0, -1],
                                      n=8, seed=9))
def test_nancumulative_matches_numpy(fname, case, rng):
    x = _data(rng, case.shape, case.dtype, nan=True)
    check_vs_numpy(lambda xp, x: getattr(xp, fname)(x, axis=case.axis), x, kind="reduction")


def test_cumsum_of_nan_and_inf_matches_numpy():
    x = np.array([1.0, np.inf, -np.inf, 2.0, np.nan, 3.0])
    for fname in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
        check_vs_numpy(lambda xp, x: getattr(xp, fname)(x), x)


# --------------------------------------------------------------------------- diff / ediff1d


@pytest.mark.parametrize("case", grid(shape=[(0,), (1,), (5,), (2, 4), (3, 0, 2)],
                                      dtype=[np.bool_, np.uint8, np.int32, np.float16,
                                             np.float64, np.complex64],
                                      order=[0, 1, 2, 7], axis=[-1, 0], n=16, seed=10))
def test_diff_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype)
    check_vs_numpy(lambda xp, x: xp.diff(x, n=case.order, axis=case.axis), x)


def test_diff_prepend_append_and_errors(rng):
    x = _data(rng, (3, 4), np.int16)
    check_vs_numpy(lambda xp, x: xp.diff(x, prepend=0, append=x[:, :2], axis=1), x)
    check_vs_numpy(lambda xp, x: xp.diff(x, axis=0, prepend=np.ones((1, 4), np.float32)), x)
    check_vs_numpy(lambda xp, x: xp.diff(x, n=-1), x)  # ValueError
    check_vs_numpy(lambda xp, x: xp.diff(x, axis=2), x)  # AxisError
    check_vs_numpy(lambda xp, x: xp.diff(x), np.float64(1.0))  # ValueError: 0-d


@pytest.mark.parametrize("kw", [{}, dict(to_begin=1), dict(to_end=[3, 4], to_begin=[-1]),
                                dict(to_begin=1.5), dict(to_end=np.array([300]))])
def test_ediff1d_matches_numpy(kw, rng):
    x = _data(rng, (2, 3), np.int8)
    check_vs_numpy(lambda xp, x: xp.ediff1d(x, **kw), x, jit=False)


# --------------------------------------------------------------------------- errors


def test_cumulative_errors_match_numpy():
    x = np.ones((2, 3))
    check_vs_numpy(lambda xp, x: xp.cumsum(x, axis=2), x)
    check_vs_numpy(lambda xp, x: xp.cumprod(x, axis=-3), x)
    check_vs_numpy(lambda xp, x: xp.cumulative_sum(x), x)  # axis required
    check_vs_numpy(lambda xp, x: xp.cumsum(x, axis=1), np.float64(2.0))  # AxisError
    check_vs_numpy(lambda xp, x: xp.cumsum(x, axis=0), np.float64(2.0))


def test_cumsum_jaxpr_text():
    text = str(xnp.make_jaxpr(lambda x: xnp.cumsum(x, axis=0))(np.zeros((2, 3), np.int8)))
    assert "convert_element_type[new_dtype=int64" in text
    assert "cumsum[axis=0 reverse=False]" in text


# --------------------------------------------------------------------------- transformations

_OWN = {"sort", "top_k", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "reduce",
        "reduce_window", "reduce_window_sum", "reduce_window_max", "reduce_window_min"}


def _other_rules_may_be_missing():
    return rules_of_other_families_may_be_missing(_OWN)


_fd = central_difference


_CUM_FUNS = {
    "cumsum": lambda x: lax.cumsum(x, axis=1),
    "cumprod": lambda x: lax.cumprod(x, axis=1, reverse=True),
    "cumprod0": lambda x: lax.cumprod(x, axis=0),
    "cummax": lambda x: lax.cummax(x, axis=1),
    "cummin": lambda x: lax.cummin(x, axis=0, reverse=True),
    "cumlogsumexp": lambda x: lax.cumlogsumexp(x, axis=1),
    "window_sum": lambda x: lax.reduce_window_sum(x, (2, 2), (1, 2), ((1, 0), (0, 1)),
                                                  base_dilation=(1, 2)),
    "window_max": lambda x: lax.reduce_window_max(x, (2, 3), (1, 1), "SAME"),
    "reduce_generic": lambda x: lax.reduce(x, 0.0, lambda a, b: a + b * 1.0, (1,)),
    "window_generic": lambda x: lax.reduce_window(x, 0.0, lambda a, b: a + b, (1, 2), (1, 1),
                                                  "VALID"),
}


@pytest.mark.parametrize("name", list(_CUM_FUNS))
def test_jvp_matches_finite_differences_and_vjp(name, rng):
    f = _CUM_FUNS[name]
    x = rng.standard_normal((4, 7))
    if name == "cumprod0":
        x[1, 2] = 0.0  # an exact zero: the tangent must not divide by it
        x[2, 3] = 0.0
    v = rng.standard_normal(x.shape)
    with _other_rules_may_be_missing():
        y, t = xnp.jvp(f, (xnp.asarray(x),), (xnp.asarray(v),))
        np.testing.assert_allclose(np.asarray(y), np.asarray(f(xnp.asarray(x))), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(t), _fd(f, x, v), rtol=1e-6, atol=1e-7)
        _, tj = xnp.jit(lambda p, q: xnp.jvp(f, (p,), (q,)))(x, v)
        np.testing.assert_allclose(np.asarray(tj), np.asarray(t), rtol=1e-10, atol=1e-12)
        if name == "window_generic":
            return  # forward mode only (the generic reduce_window has no transpose)
        u = rng.standard_normal(np.shape(y))
        (g,) = xnp.vjp(f, xnp.asarray(x))[1](xnp.asarray(u))
    lhs, rhs = np.sum(u * np.asarray(t)), np.sum(np.asarray(g) * v)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)


def test_generic_reduce_grad_with_zeros_is_exact():
    x = np.array([[2.0, 3.0], [0.0, 4.0], [5.0, 6.0]])
    with _other_rules_may_be_missing():
        g = xnp.grad(lambda v: xnp.sum(lax.reduce(v, 1.0, lambda a, b: a * b, (0,))))(x)
    np.testing.assert_array_equal(np.asarray(g), [[0.0, 24.0], [10.0, 18.0], [0.0, 12.0]])


def test_cumprod_grad_with_zeros_is_exact():
    x = np.array([2.0, 0.0, 3.0, 4.0])
    with _other_rules_may_be_missing():
        g = xnp.grad(lambda v: lax.cumprod(v)[-1])(x)
    np.testing.assert_array_equal(np.asarray(g), [0.0, 24.0, 0.0, 0.0])


def test_cumlogsumexp_tangents_at_infinities():
    x = np.array([-np.inf, -np.inf, 0.0, np.inf])
    _, t = xnp.jvp(lambda v: lax.cumlogsumexp(v), (xnp.asarray(x),),
                   (xnp.asarray(np.ones(4)),))
    np.testing.assert_allclose(np.asarray(t), [1.0, 1.0, 1.0, 1.0])


@pytest.mark.parametrize("name", ["cumsum", "cummax", "cumlogsumexp", "window_sum",
                                  "window_max", "reduce_generic", "window_generic"])
@pytest.mark.parametrize("in_axes", [1, -1])
def test_vmap_matches_loop(name, in_axes, rng):
    f = _CUM_FUNS[name]
    x = rng.standard_normal((3, 4, 7))
    moved = np.moveaxis(x, 0, in_axes)
    rows = np.stack([np.asarray(f(xnp.asarray(x[i]))) for i in range(3)])
    for vf in (xnp.vmap(f, in_axes=in_axes), xnp.jit(xnp.vmap(f, in_axes=in_axes))):
        with _other_rules_may_be_missing():
            got = vf(moved)
        np.testing.assert_allclose(np.asarray(got), rows, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [0, 1, 5, 8])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_matches_cumsum(n, reverse, rng):
    x = rng.integers(-5, 5, (2, n))
    fn = lambda a, b: (lax.add(a[0], b[0]), lax.max(a[1], b[1]))  # noqa: E731
    for run in (lambda v: lax.associative_scan(fn, (v, v), reverse=reverse, axis=1),
                xnp.jit(lambda v: lax.associative_scan(fn, (v, v), reverse=reverse, axis=1))):
        s, m = run(xnp.asarray(x))
        flip = (lambda a: a[:, ::-1]) if reverse else (lambda a: a)
        np.testing.assert_array_equal(np.asarray(s), flip(np.cumsum(flip(x), axis=1)))
        np.testing.assert_array_equal(np.asarray(m), flip(np.maximum.accumulate(flip(x), axis=1)))


def test_cumulative_lowering_uses_reduce_window():
    text = xnp.jit(lambda x: lax.cummax(x, axis=1)).lower(np.zeros((2, 5))).as_text()
    assert "reduce_window" in text and "padding = dense<[[0, 0], [4, 0]]>" in text



@pytest.mark.parametrize("case", covering_grid(
    dtype=["float16", "bfloat16", "float32", "float64"],
    layout=[((100000,), 0), ((7, 3000), 1), ((3000, 9), 0)], n=4, seed=5))
def test_cummax_cummin_propagate_sparse_nan_under_jit(case):
    """A few NaN in a long axis propagate from their position on, as in NumPy's
    ``maximum.accumulate``/``minimum.accumulate`` (forward and reversed). 4 of the 12
    dtype/layout cases, covering every dtype and every layout with a fixed seed (all with
    --full-grid)."""
    import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)

    dtype, (shape, axis) = case.dtype, case.layout

    rng = np.random.default_rng(7)
    x = rng.normal(size=shape).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size, size=3)] = np.nan
    for lax_op, ufunc in ((lax.cummax, np.maximum), (lax.cummin, np.minimum)):
        for reverse in (False, True):
            got = np.asarray(xnp.jit(lambda a: lax_op(a, axis=axis, reverse=reverse))(x))
            src = np.flip(x, axis) if reverse else x
            ref = ufunc.accumulate(src.astype(np.float64), axis=axis).astype(dtype)
            ref = np.flip(ref, axis) if reverse else ref
            np.testing.assert_array_equal(got.astype(np.float64), ref.astype(np.float64))
    got = np.asarray(xnp.jit(lambda a: xnp.maximum.accumulate(a, axis=axis))(x))
    np.testing.assert_array_equal(got.astype(np.float64),
                                  np.maximum.accumulate(x, axis=axis).astype(np.float64))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128"])
def test_cumsum_keeps_the_sign_of_zeros_as_numpy(dtype):
    # NumPy's running sum starts from the first element: cumsum([-0.0, -0.0]) is
    # [-0.0, -0.0] (where sum([-0.0]) is 0.0); eagerly, under jit and on the eager XLA backend
    x = np.array([[-0.0, -0.0, 1.0, -0.0, -1.0, -0.0], [-0.0, 2.0, -2.0, -0.0, -0.0, 0.0]],
                 dtype)
    if x.dtype.kind == "c":
        x = x + np.array([-0.0, 0.0, -0.0, -0.0, 1.0, -0.0]) * 1j
    for axis in (0, 1, None):
        want = np.cumsum(x, axis=axis)
        ways = {"eager": xnp.cumsum(xnp.asarray(x), axis=axis),
                "jit": xnp.jit(lambda v: xnp.cumsum(v, axis=axis))(x)}
        with xnp.config.override(eager_backend="xla"):
            ways["eager xla"] = xnp.cumsum(xnp.asarray(x), axis=axis)
        for how, got in ways.items():
            got = np.asarray(got)
            np.testing.assert_array_equal(got, want, err_msg=f"{how} {axis}")
            for part in ((np.real,) if x.dtype.kind == "f" else (np.real, np.imag)):
                np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)),
                                              err_msg=f"{how} axis={axis} {part.__name__}")


_C = np.array([[1 + 2j, 3 - 1j, -0.5j], [2.0, -1 + 1j, 4 - 3j]])
_F = np.array([[1.5, 2.5, -3.25], [0.5, 7.75, -1.5]])


@pytest.mark.parametrize("fname", ["cumsum", "cumprod", "nancumsum", "nancumprod",
                                   "cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("src,dst", [(_F, np.int8), (_F, np.int64), (_C, np.float64),
                                     (_C, np.int32), (_C, np.bool_), (_F, np.float32)],
                         ids=["f64->i8", "f64->i64", "c128->f64", "c128->i32", "c128->bool",
                              "f64->f32"])
@pytest.mark.parametrize("out_kind", ["xnp", "numpy"])
def test_accumulations_cast_into_out_unsafely_as_numpy(fname, src, dst, out_kind):
    """NumPy's accumulations write ``out=`` with unsafe casting (the values computed in the
    input's dtype, then cast); a complex result into a real or integer ``out`` warns its
    ``ComplexWarning`` (at the user's line: this file), into bool takes the truth silently.
    Every call (the repeated ones may be replays), into an xnp or a NumPy ``out``."""
    want_out = np.zeros(src.shape, dst)
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        getattr(np, fname)(src, axis=1, out=want_out)
    want_cats = {w.category for w in want_w}
    x = xnp.asarray(src)
    for _ in range(3):
        out = xnp.zeros(src.shape, dst) if out_kind == "xnp" else np.zeros(src.shape, dst)
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            ret = getattr(xnp, fname)(x, axis=1, out=out)
        assert ret is out
        np.testing.assert_array_equal(np.asarray(out), want_out)
        assert {w.category for w in got_w} == want_cats
        assert all(w.filename == __file__ for w in got_w)
    if out_kind == "xnp":  # under jit: the values, written back into the argument
        out = xnp.zeros(src.shape, dst)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            xnp.jit(lambda a, o: getattr(xnp, fname)(a, axis=1, out=o))(x, out)
        np.testing.assert_array_equal(np.asarray(out), want_out)
