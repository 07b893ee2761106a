"""NumPy-surface tests of ``xnp/numpy_api/math_misc.py`` against NumPy (eager, jit,
eval_jaxpr), errors, and grads of trapezoid/sinc vs finite differences."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import (BOOL, EDGE_SHAPES, FLOATING, INTEGER, central_difference,
                           check_vs_numpy, covering_grid, make_array)

F = [d for d in FLOATING if d.name != "bfloat16"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, 1e-300, 5e-324, np.inf, -np.inf, np.nan, 3.0e300,
                    0.5, 2.0 ** -1022, 123.456])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128, np.bool_])
@pytest.mark.parametrize("kw", [{}, {"equal_nan": True}, {"rtol": 0.1, "atol": 0.0}])
def test_isclose_allclose(dtype, kw, rng):
    a = make_array(rng, (3, 4), dtype)
    b = (a + (make_array(rng, (4,), dtype) * 1e-6 if dtype != np.bool_ else False)).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        a[0, 0] = b[0, 0] = np.nan
        a[1, 1] = b[1, 1] = np.inf
    check_vs_numpy(lambda xp, a, b: xp.isclose(a, b, **kw), a, b)
    check_vs_numpy(lambda xp, a, b: xp.asarray(xp.allclose(a, b, **kw)), a, b)
    check_vs_numpy(lambda xp, a: xp.isclose(a, 1, **kw), a)
    check_vs_numpy(lambda xp, a: xp.isclose(2.5, a, **kw), a)


def test_allclose_is_boolean_array_and_errors():
    assert bool(xnp.allclose([1.0, 2.0], [1.0, 2.0 + 1e-9]))
    assert not bool(xnp.allclose([1.0, 2.0], [1.0, 2.1]))
    check_vs_numpy(lambda xp, a, b: xp.isclose(a, b), np.ones(3), np.ones(4))


@pytest.mark.parametrize("fname", ["array_equal", "array_equiv"])
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (2, 3)),
                                    ((3,), (4,)), ((0,), (0,))])
def test_array_equal_equiv(fname, shapes, rng):
    a = make_array(rng, shapes[0], np.float64)
    b = np.zeros(4) if shapes[1] == (4,) else (a[0].copy() if len(shapes[1]) < a.ndim else a.copy())
    check_vs_numpy(lambda xp, a, b: xp.asarray(getattr(xp, fname)(a, b)), a, b)
    check_vs_numpy(lambda xp, a: xp.asarray(getattr(xp, fname)(a, a + 1)), a)
    an = a.copy()
    if an.size:
        an.flat[0] = np.nan
    check_vs_numpy(lambda xp, a: xp.asarray(xp.array_equal(a, a, equal_nan=True)), an)


# sampled (all with --full-grid): every dtype (bool, each int and uint, float16/32/64) and
# every edge shape (0-d, empty, length-1 axes), each at least once
@pytest.mark.parametrize("case", covering_grid(shape=EDGE_SHAPES + [(2, 3)],
                                               dtype=BOOL + INTEGER + F, n=20, seed=31))
def test_unary_functions(case, rng):
    x = make_array(rng, case.shape, case.dtype) * (3 if case.dtype != np.bool_ else 1)
    x = x.astype(case.dtype)
    for body in [lambda xp, x: xp.sinc(x), lambda xp, x: xp.fix(x),
                 lambda xp, x: xp.iscomplex(x), lambda xp, x: xp.isreal(x),
                 lambda xp, x: xp.heaviside(x, 0.5), lambda xp, x: xp.modf(x),
                 lambda xp, x: xp.frexp(x), lambda xp, x: xp.spacing(x)]:
        check_vs_numpy(body, x, rtol=1e-5 if case.dtype == np.float32 else None)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_bit_functions_special_values(dtype):
    x = SPECIAL.astype(dtype)
    # XLA's CPU backend flushes subnormal inputs to zero under jit
    normal = x[(np.abs(x) >= np.finfo(dtype).smallest_normal) | (x == 0) | np.isnan(x)]
    for body in [lambda xp, x: xp.frexp(x), lambda xp, x: xp.modf(x),
                 lambda xp, x: xp.spacing(x), lambda xp, x: xp.fix(x),
                 lambda xp, x: xp.sinc(x)]:
        check_vs_numpy(body, x)
    check_vs_numpy(lambda xp, x: xp.heaviside(x, x[::-1]), normal)
    k = np.array([0, 1, -1, 5, -1074, 2000, -2000, 1023, -1022, 7, 3, -3, 100], np.int32)
    # eagerly exact on subnormals too; under jit XLA's CPU flushes subnormal floats
    check_vs_numpy(lambda xp, x, k: xp.ldexp(x, k), x, k, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, x, k: xp.ldexp(x, k), normal, k[:len(normal)] % 7 - 3)
    check_vs_numpy(lambda xp, x: xp.ldexp(*xp.frexp(x)), x)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_gcd_lcm(dtype, rng):
    a = rng.integers(-30 if np.dtype(dtype).kind == "i" else 0, 30, (4, 5)).astype(dtype)
    b = rng.integers(0, 30, (5,)).astype(dtype)
    a[0, 0] = b[0] = 0
    check_vs_numpy(lambda xp, a, b: xp.gcd(a, b), a, b)
    check_vs_numpy(lambda xp, a, b: xp.lcm(a, b), a, b)
    check_vs_numpy(lambda xp, a: xp.gcd(a, 12), a)


_DTYPE_KW = [np.float16, np.float32, np.float64, np.int8, np.int32, np.complex128]


@pytest.mark.parametrize("dtype", _DTYPE_KW)
@pytest.mark.parametrize("casting", ["same_kind", "safe"])
@pytest.mark.parametrize("fname, args", [
    ("modf", (np.array([1.5, -2.25, 8.0]),)),
    ("spacing", (np.array([1.0, -2.0, 1e10]),)),
    ("spacing", (np.array([1, 2], np.int8),)),
    ("frexp", (np.array([1.5, 8.0]),)),
    ("ldexp", (np.array([1.5, -2.0]), np.array([3, -1]))),
    ("ldexp", (np.array([1.5, -2.0], np.float32), np.array([3, 2], np.int32))),
    ("gcd", (np.array([12, 18, -4]), np.array([8, 4, 6]))),
    ("lcm", (np.array([12, 18, -4], np.int16), np.array([8, 4, 6], np.int16))),
])
def test_dtype_keyword_selects_numpys_loop(fname, args, dtype, casting):
    # dtype= is the computation and result dtype, or NumPy's TypeError (no loop / casting)
    def body(xp, *a):
        return getattr(xp, fname)(*a, dtype=dtype, casting=casting)

    try:
        body(np, *args)
    except TypeError:  # NumPy's private subclasses (UFuncTypeError); xnp raises TypeError
        with pytest.raises(TypeError, match=f"xnp.{fname}: "):
            body(xnp, *args)
        with pytest.raises(TypeError, match=f"xnp.{fname}: "):
            xnp.jit(lambda *a: body(xnp, *a))(*args)
        return
    check_vs_numpy(body, *args)


@pytest.mark.parametrize("fname", ["modf", "frexp"])
def test_two_output_ufuncs_where_without_out(fname):
    # NumPy's values where the mask holds; elsewhere NumPy leaves memory uninitialised and
    # xnp gives zeros (as for every ufunc's where= without out=)
    x = np.array([1.5, -2.25, 8.0])
    mask = np.array([True, False, True])
    got = getattr(xnp, fname)(xnp.asarray(x), where=xnp.asarray(mask))
    for g, w in zip(got, getattr(np, fname)(x)):
        np.testing.assert_array_equal(np.asarray(g)[mask], w[mask])
        assert (np.asarray(g)[~mask] == 0).all()


def test_integer_only_errors():
    for xp in (np, xnp):  # NumPy raises a private TypeError subclass (no loop)
        with pytest.raises(TypeError):
            xp.gcd(np.ones(3), np.ones(3))
    check_vs_numpy(lambda xp, a: xp.ldexp(a, a), np.ones(3))
    check_vs_numpy(lambda xp, a: xp.heaviside(a, a), np.ones(3, np.complex64))
    check_vs_numpy(lambda xp, a: xp.isposinf(a), np.ones(3, np.complex64))


def test_complex_predicates_and_real_if_close():
    z = np.array([1 + 0j, 2 + 1e-17j, 3 + 1j])
    for body in [lambda xp, z: xp.iscomplex(z), lambda xp, z: xp.isreal(z)]:
        check_vs_numpy(body, z)
    assert xnp.iscomplexobj(xnp.asarray(z)) and not xnp.isrealobj(z)
    assert xnp.isrealobj([1.0]) and not xnp.iscomplexobj(3)
    check_vs_numpy(lambda xp, z: xp.real_if_close(z[:2]), z, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, z: xp.real_if_close(z), z, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, z: xp.real_if_close(z[:2].real), z)
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(xnp.real_if_close)(z)


@pytest.mark.parametrize("kw", [{}, {"discont": 4.0}, {"period": 360.0}, {"axis": 0}])
def test_unwrap(kw, rng):
    p = np.cumsum(rng.standard_normal((5, 6)) * 3, axis=-1)
    if kw.get("period") == 360.0:
        p = p * 60
    check_vs_numpy(lambda xp, p: xp.unwrap(p, **kw), p, kind="reduction")
    check_vs_numpy(lambda xp, p: xp.unwrap(p, period=6), np.array([0, 5, 1, 7, 2, 9]))


@pytest.mark.parametrize("shape", [(5,), (4, 6), (3, 4, 5)])
@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_gradient(shape, edge_order, dtype, rng):
    f = make_array(rng, shape, dtype)
    check_vs_numpy(lambda xp, f: xp.gradient(f, edge_order=edge_order), f, kind="reduction")
    check_vs_numpy(lambda xp, f: xp.gradient(f, 0.5, axis=-1, edge_order=edge_order), f,
                   kind="reduction")
    if len(shape) > 1:
        check_vs_numpy(lambda xp, f: xp.gradient(f, 2.0, 3.0, axis=(0, 1)), f, kind="reduction")


@pytest.mark.parametrize("shape, edge_order, dtype", [((5,), 1, np.float64), ((5,), 2, np.int32),
                                                    ((4, 6), 2, np.float32),
                                                    ((3, 4, 5), 1, np.complex128)])
def test_gradient_coordinates(shape, edge_order, dtype, rng):
    # non-uniform coordinates per axis (NumPy's three-point formulas), evenly spaced and
    # integer coordinates (NumPy's scalar shortcut), mixed with scalar spacings
    f = make_array(rng, shape, dtype)
    coords = [np.cumsum(rng.random(n) + 0.1) for n in shape]
    check_vs_numpy(lambda xp, f, *c: xp.gradient(f, *c, edge_order=edge_order), f, *coords,
                   kind="reduction")
    even = np.arange(shape[-1]) * 3
    check_vs_numpy(lambda xp, f, c: xp.gradient(f, c, axis=-1, edge_order=edge_order), f, even,
                   kind="reduction")
    if len(shape) > 1:
        check_vs_numpy(lambda xp, f, c: xp.gradient(f, 0.5, c, axis=(0, 1)), f, coords[1],
                       kind="reduction")


def test_gradient_coordinates_grad():
    c = np.array([0.0, 1.0, 3.0, 4.0, 8.0])
    v = np.random.default_rng(4).standard_normal(5)

    def f(y):
        return xnp.sum(xnp.gradient(y, c, edge_order=2) ** 2)

    x = np.sin(np.arange(5.0))
    g = np.asarray(xnp.grad(f)(x))
    np.testing.assert_allclose(np.sum(g * v), central_difference(f, x, v), rtol=1e-6)


def test_gradient_errors():
    check_vs_numpy(lambda xp, f: xp.gradient(f, edge_order=2), np.ones(2))
    check_vs_numpy(lambda xp, f: xp.gradient(f, edge_order=3), np.ones(5))
    check_vs_numpy(lambda xp, f, c: xp.gradient(f, c), np.ones(4), np.arange(3.0))
    check_vs_numpy(lambda xp, f, c: xp.gradient(f, c), np.ones(4), np.ones((4, 1)))
    check_vs_numpy(lambda xp, f: xp.gradient(f, 1.0, 2.0), np.ones(4))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex64])
def test_trapezoid(dtype, rng):
    y = make_array(rng, (3, 5), dtype)
    x1 = np.sort(rng.random(5))
    check_vs_numpy(lambda xp, y: xp.trapezoid(y), y, kind="reduction")
    check_vs_numpy(lambda xp, y: xp.trapezoid(y, dx=0.25, axis=0), y, kind="reduction")
    check_vs_numpy(lambda xp, y, x: xp.trapezoid(y, x), y, x1, kind="reduction")
    check_vs_numpy(lambda xp, y, x: xp.trapezoid(y, x, axis=-1), y,
                   np.sort(rng.random((3, 5)), axis=1), kind="reduction")
    check_vs_numpy(lambda xp, y: xp.trapezoid(y[:, :1]), y, kind="reduction")


@pytest.mark.parametrize("sa,sb,kw", [((3,), (3,), {}), ((4, 3), (3,), {}),
                                      ((2, 4, 3), (4, 3), {}), ((3, 4), (3, 4), {"axis": 0}),
                                      ((3, 2), (2, 3), {"axisa": 0, "axisc": 0}),
                                      ((2,), (3,), {}), ((5, 2), (5, 2), {}),
                                      ((4,), (3,), {}), ((3,), (3,), {"axisa": 2})])
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_cross(sa, sb, kw, dtype, rng):
    a, b = make_array(rng, sa, dtype), make_array(rng, sb, dtype)
    check_vs_numpy(lambda xp, a, b: xp.cross(a, b, **kw), a, b)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((2,), (3,)), ((4, 3), (2,)), ((3,), (3,))])
def test_cross_of_2_vectors_warns_deprecation_as_numpy(sa, sb):
    a, b = np.arange(1.0, 1.0 + np.prod(sa)).reshape(sa), np.arange(2.0, 2.0 + sb[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = np.cross(a, b)
        got = xnp.cross(xnp.asarray(a), xnp.asarray(b))
        jitted = xnp.jit(lambda u, v: xnp.cross(u, v))(xnp.asarray(a), xnp.asarray(b))
    kinds = [(w.category, str(w.message)) for w in caught]
    want_kind = (DeprecationWarning, "Arrays of 2-dimensional vectors are deprecated. Use "
                 "arrays of 3-dimensional vectors instead. (deprecated in NumPy 2.0)")
    # NumPy's, the eager call's and the jit trace's
    assert kinds == ([want_kind] * 3 if 2 in (sa[-1], sb[-1]) else []), kinds
    for g in (got, jitted):
        assert g.dtype == want.dtype and g.tolist() == want.tolist()


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3,), (2, 2)), ((), (3,)), ((2, 1, 2), (3,)),
                                   ((0, 2), (3, 3))])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_, np.complex128])
def test_kron(sa, sb, dtype, rng):
    a, b = make_array(rng, sa, dtype), make_array(rng, sb, dtype)
    check_vs_numpy(lambda xp, a, b: xp.kron(a, b), a, b)


@pytest.mark.parametrize("fname,sa,sb", [("matvec", (3, 4), (4,)), ("matvec", (2, 3, 4), (1, 4)),
                                         ("vecmat", (4,), (4, 3)), ("vecmat", (2, 4), (5, 1, 4, 3)),
                                         ("matvec", (3, 4), (3,)), ("vecmat", (), (4, 3))])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32])
def test_matvec_vecmat(fname, sa, sb, dtype, rng):
    a, b = make_array(rng, sa, dtype), make_array(rng, sb, dtype)
    check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), a, b, kind="reduction")


def test_grads_vs_finite_differences(rng):
    y, x = rng.standard_normal((3, 6)), np.sort(rng.random(6))
    for f, at in [(lambda y: xnp.sum(xnp.trapezoid(y, x) ** 2), y),
                  (lambda x: xnp.sum(xnp.trapezoid(y, x) ** 2), x),
                  (lambda y: xnp.sum(xnp.sinc(y)), y),
                  (lambda y: xnp.sum(xnp.gradient(y, edge_order=2)[1] ** 2), y)]:
        g = np.asarray(xnp.grad(f)(xnp.asarray(at)))
        v = rng.standard_normal(at.shape)
        np.testing.assert_allclose(np.sum(g * v), central_difference(f, at, v), rtol=1e-6)


@pytest.mark.parametrize("fname", ["matvec", "vecmat"])
@pytest.mark.parametrize("s1, s2", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((), (3,)),
                                    ((4, 2, 3), (3,)), ((2, 3), (4, 3, 3))])
def test_matvec_vecmat_need_their_core_dimensions(fname, s1, s2, rng):
    # gufuncs (m,n),(n)->(m) and (n),(n,m)->(m): NumPy's ValueError for a missing core dim
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), a, b, kind="reduction")


def test_ldexp_of_bools_uses_numpys_half_loop():
    b = np.array([True, False, True])
    check_vs_numpy(lambda xp, a, k: xp.ldexp(a, k), b, b)
    check_vs_numpy(lambda xp, a, k: xp.ldexp(a, k), np.array([1.5, -2.0]), np.array([True, False]))


@pytest.mark.parametrize("name,args", [("modf", ()), ("frexp", ()), ("divmod", (2.0,))])
def test_two_output_ufuncs_write_out_pairs_as_numpy(name, args):
    # positional out1, out2; out=(out1, out2); None entries; where=; 0-d outs returned
    # as given; both forms at once raise TypeError
    x = np.array([1.5, -2.25, 8.0])
    xf, nf = getattr(xnp, name), getattr(np, name)
    dt2 = np.int32 if name == "frexp" else np.float64
    for form in ("positional", "keyword", "partial", "where"):
        n_out = (np.ones(3), np.ones(3, dt2))
        x_out = (xnp.ones(3), xnp.ones(3, dt2))
        if form == "positional":
            want, got = nf(x, *args, *n_out), xf(xnp.asarray(x), *args, *x_out)
        elif form == "keyword":
            want, got = nf(x, *args, out=n_out), xf(xnp.asarray(x), *args, out=x_out)
        elif form == "partial":
            want = nf(x, *args, out=(None, n_out[1]))
            got = xf(xnp.asarray(x), *args, out=(None, x_out[1]))
        else:
            want = nf(x, *args, out=n_out, where=x > 0)
            got = xf(xnp.asarray(x), *args, out=x_out, where=xnp.asarray(x) > 0)
        for g, w, o in zip(got, want, x_out):
            np.testing.assert_array_equal(np.asarray(g), w)
            if form != "partial" or o is x_out[1]:
                assert g is o
    z = (xnp.zeros(()), xnp.zeros((), dt2))
    r = xf(xnp.asarray(1.5), *args, *z)
    assert r[0] is z[0] and r[1] is z[1]
    with pytest.raises(TypeError, match="both a positional and keyword"):
        xf(xnp.asarray(x), *args, xnp.ones(3), None, out=(xnp.ones(3), None))
    jitted = xnp.jit(lambda v, a, b: xf(v, *args, a, b))(x, np.zeros(3), np.zeros(3, dt2))
    for g, w in zip(jitted, nf(x, *args)):
        np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("name,xdt,odt,kw", [
    ("modf", np.float64, np.float64, {}), ("modf", np.float32, np.float32, {}),
    ("modf", np.float64, np.float64, {"where": np.array([True, False, True, False])}),
    ("modf", np.int64, np.float64, {}),            # the input cast: still NumPy's float64 loop
    ("modf", np.float16, np.float16, {}),          # NumPy's float16 loop writes out2 last
    ("modf", np.int8, np.float16, {}),             # (int8's loop is float16's)
    ("modf", np.float32, np.float64, {}),          # a cast output is written back last
    ("modf", np.float64, np.float64, {"dtype": np.float32}),
    ("frexp", np.float64, np.float64, {})])
def test_two_output_ufuncs_with_one_array_for_both_outs(name, xdt, odt, kw):
    # out=(o, o): what NumPy's loop leaves there. Its float32/64 modf loop stores the
    # integral part and then the fractional one, element by element; its float16 loop and
    # outputs written back from a cast buffer end with the second output
    x = np.array([1.5, -2.25, 3.75, 4.0]).astype(xdt)
    want_o = np.zeros(4, odt)
    want = getattr(np, name)(x, out=(want_o, want_o), **kw)
    assert want[0] is want_o and want[1] is want_o
    o = xnp.zeros(4, odt)
    got = getattr(xnp, name)(xnp.asarray(x), out=(o, o), **kw)
    assert got[0] is o and got[1] is o
    np.testing.assert_array_equal(np.asarray(o), want_o)
    assert o.dtype == want_o.dtype
    jitted = xnp.jit(lambda v, o: (getattr(xnp, name)(v, out=(o, o), **kw), o)[1])
    np.testing.assert_array_equal(np.asarray(jitted(x, np.zeros(4, odt))), want_o)


_SPECIAL = [0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 1e-300]


def _with_warnings(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            out = np.asarray(call())
        except FloatingPointError as e:
            out = repr(e)
    return out, sorted({str(w.message) for w in seen})


@pytest.mark.parametrize("kw", [{}, {"rtol": 0.0}, {"atol": 0.0, "rtol": 0.0},
                                {"equal_nan": True}, {"rtol": 1e300}, {"rtol": np.inf},
                                {"atol": np.nan}, {"rtol": -1.0}])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.complex64])
@pytest.mark.parametrize("invalid", ["warn", "raise"])
def test_isclose_special_values_and_warnings_match_numpy(kw, dtype, invalid):
    # NumPy compares under errstate(invalid="ignore"): inf - inf and 0 * inf are quiet,
    # an overflowing difference warns; xnp's values and warnings are the same
    # (a non-finite tolerance: NumPy's own warning, or FloatingPointError under 'raise';
    # rtol=1e300 overflows in the narrow dtypes: 0 * inf is quiet)
    pairs = np.array([(p, q) for p in _SPECIAL for q in _SPECIAL])
    with np.errstate(over="ignore"):
        x, y = pairs[:, 0].astype(dtype), pairs[:, 1].astype(dtype)
    with np.errstate(invalid=invalid):
        _isclose_cases_match(x, y, kw)


def _isclose_cases_match(x, y, kw):
    want, want_warnings = _with_warnings(lambda: np.isclose(x, y, **kw))
    got, got_warnings = _with_warnings(lambda: xnp.isclose(xnp.asarray(x), xnp.asarray(y), **kw))
    np.testing.assert_array_equal(got, want)
    assert got_warnings == want_warnings
    if not isinstance(want, str) and x.dtype.kind != "c":
        np.testing.assert_array_equal(
            np.asarray(xnp.jit(lambda a, b: xnp.isclose(a, b, **kw))(x, y)), want)
    for s in _SPECIAL:  # a Python float on either side
        for args in ((x, s), (s, x)):
            want, want_warnings = _with_warnings(lambda: np.isclose(*args, **kw))
            got, got_warnings = _with_warnings(lambda: xnp.isclose(
                *[xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args], **kw))
            np.testing.assert_array_equal(got, want)
            assert got_warnings == want_warnings, (args, kw)
    assert xnp.allclose(np.array([1.0, np.inf]), np.array([1.0, np.inf])) is True


@pytest.mark.parametrize("kw", [{}, {"equal_nan": True}, {"rtol": 0.0, "atol": 0.0},
                                {"rtol": 0.5}])
@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, ml_dtypes.float8_e5m2])
def test_isclose_of_ml_dtypes_with_nan_is_quiet_as_numpy(kw, dtype):
    # ml_dtypes' own comparison loops raise 'invalid' at a NaN where NumPy's float loops do
    # not: NumPy's isclose of the same values in float32 warns nothing (nor of the bfloat16
    # values themselves, under its errstate), and neither does xnp's, eagerly (recorded, then
    # replayed) and under jit; the values are NumPy's float32 ones
    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, 2.0, np.nan, 1.0, 3.0, -0.0]).astype(dtype)
    y = np.array([1.0, np.nan, np.inf, np.inf, np.nan, np.nan, 1.0, 1.25, -3.0, 0.0]).astype(dtype)
    cases = [(x, y), (x, y[:1]), (x[1:2], y), (x, 2.0), (2.0, y), (np.nan, y), (x, 1)]
    with np.errstate(all="warn"):
        for args in cases:
            f32 = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args]
            xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
            want, want_w = _with_warnings(lambda: np.isclose(*f32, **kw))
            assert want_w == []
            for _ in range(2):
                got, got_w = _with_warnings(lambda: xnp.isclose(*xargs, **kw))
                np.testing.assert_array_equal(got, want)
                assert got_w == want_w, args
                all_w = _with_warnings(lambda: xnp.allclose(*xargs, **kw))
                assert all_w == (np.asarray(np.allclose(*f32, **kw)), []), args
            jitted, jit_w = _with_warnings(lambda: xnp.jit(
                lambda *a: xnp.isclose(*a, **kw))(*xargs))
            np.testing.assert_array_equal(jitted, want)
            assert jit_w == []


@pytest.mark.parametrize("a, b", [(2 ** 64 + 1, 1.5), (-2 ** 63 - 1, 1), (2 ** 70, 2.0 ** 70)])
def test_isclose_of_python_numbers_beyond_int64(a, b):
    # two Python numbers compare with Python's arithmetic, as NumPy's isclose does
    assert bool(xnp.isclose(a, b)) == bool(np.isclose(a, b))
    assert xnp.allclose(a, b) is np.allclose(a, b)


@pytest.mark.parametrize("args, kw", [
    ((np.array([True, False, True]), True), {}), ((True, False), {}),
    ((np.array([0], np.uint8), True), {"rtol": 10}),
    ((np.array([1.0, 2.0]), np.array([1.0, 2.1])), {"rtol": np.array([np.inf, 1.0])}),
    ((np.array([1.0, 2.0]), np.array([1.0, 2.1])), {"atol": [np.nan, 0.0]}),
    ((np.array([1.0, 2.0]), np.array([1.0, 2.1])), {"rtol": np.float32(np.inf)}),
])
def test_isclose_bool_operands_and_array_tolerances_are_numpys(args, kw):
    # a Python bool b is NumPy's float (isinstance(b, int)); a non-finite tolerance of any
    # form is NumPy's report, its array shown as NumPy shows it
    def run(m):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            ops = [xnp.asarray(a) if m is xnp and isinstance(a, np.ndarray) else a
                   for a in args]
            out = np.asarray(m.isclose(*ops, **kw))
        return out, [str(w.message) for w in seen]

    (want, want_w), (got, got_w) = run(np), run(xnp)
    np.testing.assert_array_equal(got, want)
    assert got_w == want_w


_E = np.array([1, 2])
_LDEXP_CASES = [
    ((3, 20), {}), ((1, 16), {}), ((0, 2**31), {}), ((2.0, 2**31), {}), ((True, 3), {}),
    ((3, True), {}), ((3, 2), {"dtype": np.float32}), ((True, 3), {"dtype": np.float32}),
    ((3, _E), {}), ((True, _E), {}), ((3, np.array([True, False])), {}),
    ((3, _E), {"dtype": np.float32}), ((True, _E), {"dtype": np.float32}),
    ((1.5, _E), {"dtype": np.float32}), ((np.array([1.5]), 2**31), {}),
    ((np.array([1.5]), -(2**31) - 1), {}), ((np.array([True]), 2**31), {}),
    ((np.array([1.5], np.float32), 2**31 - 1), {}), ((np.array([2.0]), _E.astype(np.uint64)), {}),
    ((3, np.array([True, False])), {"dtype": np.float32}), ((-7, np.array([True])),
                                                           {"dtype": np.float16}),
    ((np.array([1, 2], np.int8), 2**31), {"dtype": np.int32}),
    ((1.5, 2**63), {"dtype": np.float32}),
    ((np.array([1.5], np.float32), _E), {"dtype": np.float64}),
]


@pytest.mark.parametrize("case", range(len(_LDEXP_CASES)))
def test_ldexp_python_scalar_operands_as_numpy(case):
    """NumPy's loop choice for Python operands: a weak int mantissa beside an exponent array
    is float16 (or ``dtype=``), two Python scalars are int64/float64 (no int32 check), a
    bool mantissa is a bool; a Python int exponent beside a non-bool array must fit int32."""
    args, kw = _LDEXP_CASES[case]

    def run(m):
        xs = tuple(xnp.asarray(a) if m is xnp and isinstance(a, np.ndarray) else a for a in args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                r = np.asarray(m.ldexp(*xs, **kw))
            except Exception as e:  # noqa: BLE001  (compared with NumPy's)
                return type(e).__name__
        return r.dtype, r.tobytes()

    want = run(np)
    for _ in range(3):  # (and its replays)
        got = run(xnp)
        assert got == want or (got == "TypeError" and want == "UFuncTypeError"), (args, kw)
    # under jit: the arrays traced, the Python scalars as they are (their dtype rules and
    # range checks are decided while tracing)
    where = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    def traced(*arrays):
        full = list(args)
        for i, a in zip(where, arrays):
            full[i] = a
        return xnp.ldexp(*full, **kw)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = np.asarray(xnp.jit(traced)(*[xnp.asarray(args[i]) for i in where]))
        got = (r.dtype, r.tobytes())
    except Exception as e:  # noqa: BLE001  (compared with NumPy's)
        got = type(e).__name__
    assert got == want or (got == "TypeError" and want == "UFuncTypeError"), ("jit", args, kw)
