"""``xnp.special`` against ``scipy.special``: every function on a grid of edge values
(0, -0, negative integers, ±inf, NaN, the domain ends, tiny and huge values) and random
interior points, eagerly and under ``jit``, in float32 and float64; dtypes; errors; and
the dispatch SciPy uses (``SCIPY_ARRAY_API``'s ``_get_native_func`` looks up
``xp.special.<name>``)."""

import numpy as np
import pytest
import scipy.special as sp

import xnp
from tests.helpers import assert_allclose

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INF, NAN = np.inf, np.nan
_EDGES = [0.0, -0.0, -1.0, -2.5, -3.0, 1.0, 2.0, 0.5, 1e-300, 1e-30, 0.3, 0.65, 0.99,
          1 - 1e-12, 1e-12, -20.5, -30.0, -40.0, 6.5, 9.0, -0.5, -1.5, 30.0, 40.0, INF, -INF,
          NAN]


def _values(dtype):
    rng = np.random.default_rng(0)
    tiny = np.finfo(dtype).tiny
    v = np.concatenate([_EDGES, rng.normal(0, 5, 80), rng.uniform(0, 1, 60),
                        10 ** rng.uniform(np.log10(tiny) + 1, 0, 30)])
    return v.astype(dtype)


UNARY = ["erf", "erfc", "erfinv", "gammaln", "digamma", "psi", "i0e", "i1e", "ndtr", "ndtri",
         "log_ndtr", "expit", "logit", "entr", "zeta"]
# float64 relative tolerances where XLA's expansion is looser than SciPy's (eager is SciPy's
# own ufunc or exact formulas): CHLO lgamma near its zeros at 1 and 2 (absolute ~1e-15);
# the reflection formula of zeta carries lgamma(1 - x)'s error (~1e-13 at x = -200)
_JIT_F64_RTOL = {"gammaln": 2e-3, "zeta": 1e-12}


def _check(name, out, expected, dtype, jit):
    out = np.asarray(out)
    assert out.dtype == dtype, (name, out.dtype)
    if jit and dtype == np.float64 and name in _JIT_F64_RTOL:
        np.testing.assert_allclose(out, expected, rtol=_JIT_F64_RTOL[name], atol=1e-14,
                                   err_msg=name)
        return
    assert_allclose(out, expected, kind="reduction", err_msg=f"{name} jit={jit}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_scipy(name, dtype):
    x = _values(dtype)
    expected = getattr(sp, name)(x.astype(np.float64)).astype(dtype)
    fn = getattr(xnp.special, name)
    _check(name, fn(xnp.asarray(x)), expected, dtype, jit=False)
    _check(name, xnp.jit(fn)(x), expected, dtype, jit=True)


_PAIR = np.array([0.0, -0.0, -1.0, 1.0, 2.0, 0.5, 3.7, 30.0, 1e-3, INF, -INF, NAN])
BINARY = [("xlogy", _PAIR, _PAIR), ("xlog1py", _PAIR, _PAIR), ("gammainc", _PAIR, _PAIR),
          ("gammaincc", _PAIR, _PAIR), ("zeta", _PAIR, _PAIR),
          ("polygamma", np.array([0.0, 1.0, 2.0, 3.0]), _PAIR)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,first,second", BINARY, ids=[c[0] for c in BINARY])
def test_binary_matches_scipy(name, first, second, dtype):
    a, b = (g.reshape(-1).astype(dtype) for g in np.meshgrid(first, second))
    expected = getattr(sp, name)(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
    fn = getattr(xnp.special, name)
    _check(name, fn(xnp.asarray(a), xnp.asarray(b)), expected, dtype, jit=False)
    _check(name, xnp.jit(fn)(a, b), expected, dtype, jit=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_betainc_matches_scipy(dtype):
    params = np.array([0.0, 1e-3, 0.5, 1.0, 2.5, 40.0, -1.0, INF, NAN])
    xs = np.array([0.0, 1e-12, 0.25, 0.5, 0.9, 1.0, -0.5, 1.5, NAN])
    a, b, x = (g.reshape(-1).astype(dtype) for g in np.meshgrid(params, params, xs))
    expected = sp.betainc(*(v.astype(np.float64) for v in (a, b, x))).astype(dtype)
    _check("betainc", xnp.special.betainc(a, b, x), expected, dtype, jit=False)
    _check("betainc", xnp.jit(xnp.special.betainc)(a, b, x), expected, dtype, jit=True)


def test_tails_are_accurate_under_jit():
    """The tails SciPy computes to full precision, in float64 under jit: ndtri of tiny
    and of near-1 probabilities, log_ndtr far below 0, logit at 1/2, expit's saturation."""
    p = np.array([1e-300, 1e-100, 1e-20, 1e-8, 0.3, 0.5, 0.7, 1 - 1e-10])
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.special.ndtri)(p)), sp.ndtri(p),
                               rtol=1e-13, atol=0)
    x = np.array([-1e5, -300.0, -38.0, -20.5, -19.5, -5.0, 0.0, 5.0, 7.0, 40.0])
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.special.log_ndtr)(x)), sp.log_ndtr(x),
                               rtol=1e-13, atol=0)
    q = np.array([0.5, 0.5 + 1e-10, 0.4, 0.6, 1e-200])
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.special.logit)(q)), sp.logit(q),
                               rtol=1e-13, atol=0)
    z = np.array([-2.0, -1.0, 0.0, 0.25, 0.5, 0.75, 0.999, 1.5, 2.0, -7.5, -20.0, -21.5])
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.special.zeta)(z)), sp.zeta(z),
                               rtol=1e-13, atol=1e-300)


def test_dtypes_and_broadcasting():
    assert xnp.special.erf(xnp.arange(3)).dtype == np.float64
    assert xnp.special.erf(np.ones(2, np.float16)).dtype == np.float32
    assert xnp.special.erf(np.float32(1)).dtype == np.float32
    out = xnp.special.betainc(np.float32(2), 3.0, np.full((2, 1), 0.3, np.float32))
    assert out.dtype == np.float32 and out.shape == (2, 1)
    a = np.linspace(0.5, 3, 4)[:, None]
    x = np.linspace(0.1, 5, 5)
    assert_allclose(xnp.special.gammainc(a, x), sp.gammainc(a, x), kind="reduction")
    assert_allclose(xnp.jit(xnp.special.xlogy)(a, x), sp.xlogy(a, x))
    with pytest.raises(TypeError, match="complex"):
        xnp.special.erf(np.ones(2, np.complex128))
    with pytest.raises(ValueError, match="broadcast"):
        xnp.special.xlogy(np.ones(3), np.ones(4))


def test_grad_and_vmap():
    g = xnp.grad(lambda x: xnp.special.betainc(2.0, 3.0, x))(0.4)
    np.testing.assert_allclose(float(g), 0.4 * 0.6**2 / sp.beta(2.0, 3.0), rtol=1e-12)
    x = np.linspace(-3, 3, 7)
    out = xnp.vmap(xnp.special.log_ndtr)(x)
    assert_allclose(out, sp.log_ndtr(x))
    np.testing.assert_allclose(np.asarray(xnp.grad(xnp.special.ndtr)(0.3)),
                               np.exp(-0.045) / np.sqrt(2 * np.pi), rtol=1e-13)


def test_scipy_finds_the_native_functions():
    """SciPy's array-API dispatch looks up ``xp.special.<name>`` for a namespace it has no
    SciPy-like namespace for; each listed name resolves to xnp.special's function."""
    from scipy.special._support_alternative_backends import _get_native_func

    for name in xnp.special.__all__:
        assert _get_native_func(xnp, None, name) is getattr(xnp.special, name), name


@pytest.mark.parametrize("f, x, want", [
    # x * log(y) is linear in x: the slope log(y) also at x = 0 (it was 0 there)
    (lambda x: xnp.special.xlogy(x, 2.0), 0.0, np.log(2.0)),
    (lambda x: xnp.special.xlogy(x, 2.0), -0.0, np.log(2.0)),
    (lambda x: xnp.special.xlog1py(x, 1.0), 0.0, np.log(2.0)),
    (lambda y: xnp.special.xlogy(2.0, y), 3.0, 2.0 / 3.0),
    (lambda y: xnp.special.xlogy(0.0, y), 3.0, 0.0),
    (lambda x: xnp.special.xlogy(x, 0.0), 0.0, 0.0),  # (log 0's slope is not met: 0, no NaN)
    # a branch not taken contributes no 0 * inf: finite derivatives deep in the tails
    (xnp.special.log_ndtr, -10.0, None), (xnp.special.log_ndtr, -8.5, None),
    (xnp.special.log_ndtr, 3.0, None), (xnp.special.log_ndtr, -30.0, None),
    (xnp.special.ndtri, 1e-17, None), (xnp.special.ndtri, 1e-100, None),
    (xnp.special.ndtri, 0.5, None), (xnp.special.logit, 1e-17, 1e17),
    (xnp.special.logit, 0.5, 4.0), (xnp.special.entr, 2.0, -np.log(2.0) - 1),
])
def test_special_derivatives_at_special_points(f, x, want):
    """Reverse mode, forward mode and their jit agree, are finite, and match the closed
    form (or a central difference of SciPy's function where none is given)."""
    if want is None:
        ref = {xnp.special.log_ndtr: sp.log_ndtr,
               xnp.special.ndtri: sp.ndtri}[f]
        h = abs(x) * 1e-6 if x else 1e-8
        want = (ref(x + h) - ref(x - h)) / (2 * h)
    got = [xnp.grad(f)(x), xnp.jit(xnp.grad(f))(x), xnp.jvp(f, (x,), (1.0,))[1]]
    for g in got:
        assert np.isfinite(float(g))
        np.testing.assert_allclose(float(g), want, rtol=1e-5)


def _derivatives(f, x):
    """``f'(x)`` four ways: grad and jvp, eagerly and under ``jit``."""
    def tangent(v):
        return xnp.jvp(f, (v,), (xnp.ones_like(v),))[1]

    g = xnp.grad(f)
    return [g(x), xnp.jit(g)(x), tangent(x), xnp.jit(tangent)(x)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("p", [0.0, -0.0, 1.0])
def test_logit_derivative_is_inf_at_0_and_1(p, dtype):
    """``d logit = 1 / (p (1 - p))`` is +inf at both ends (it was NaN); the value stays
    SciPy's (``-inf``, ``-inf``, ``inf``); the second derivative ``(2p - 1) / (p (1 - p))^2``
    is -inf at 0 and +inf at 1."""
    x = dtype(p)
    for got in _derivatives(xnp.special.logit, x):
        assert np.asarray(got).dtype == dtype and float(got) == INF
    assert float(xnp.special.logit(x)) == float(sp.logit(x))
    second = xnp.grad(xnp.grad(xnp.special.logit))
    for h in (second, xnp.jit(second)):
        assert float(h(x)) == (INF if p == 1.0 else -INF)
    # beside the ends the derivative is the closed form (vmap of grad included)
    q = np.array([p, 1e-10, 0.2, 0.5, 0.9, 1 - 1e-10 if dtype == np.float64 else 0.99],
                 dtype)
    q64 = q.astype(np.float64) + 0.0  # (-0.0 is the point 0)
    want = 1 / (q64 * (1 - q64))
    for g in (xnp.vmap(xnp.grad(xnp.special.logit)), xnp.jit(xnp.vmap(xnp.grad(
            xnp.special.logit)))):
        np.testing.assert_allclose(np.asarray(g(q), np.float64), want,
                                   rtol=1e-5 if dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("x", [-1.0, -2.0, -7.0, -1e20])
def test_digamma_derivative_at_poles_is_scipys_polygamma(x, dtype):
    """At the poles ``digamma``'s derivative is ``polygamma(1, x)`` as SciPy gives it, +inf
    (it was NaN at the negative integers, where the value is NaN); the values stay SciPy's."""
    v = dtype(x)
    want = sp.polygamma(1, np.float64(v))
    assert want == INF
    for f in (xnp.special.digamma, xnp.special.psi):
        for got in _derivatives(f, v):
            assert np.asarray(got).dtype == dtype and float(got) == want
        np.testing.assert_array_equal(np.asarray(f(v)), sp.digamma(v))
        np.testing.assert_array_equal(np.asarray(xnp.jit(f)(v)), sp.digamma(v))
    # the pole at 0 and points beside the poles: SciPy's polygamma(1, x) (vmap of grad
    # included; under jit XLA's polygamma, ~3e-8 relative at -7.25 in float64)
    xs = np.array([x, 0.0, -0.0, x + 0.5, x - 0.25, 3.0], dtype)
    want = sp.polygamma(1, xs.astype(np.float64))
    g = xnp.vmap(xnp.grad(xnp.special.digamma))
    for got, rtol in ((g(xs), 1e-12), (xnp.jit(g)(xs), 1e-6)):
        np.testing.assert_allclose(np.asarray(got, np.float64), want,
                                   rtol=1e-4 if dtype == np.float32 else rtol)


def test_xlogy_xlog1py_entr_values_and_signs_are_scipys():
    x = np.array([0., -0., 3., 0., 0., 2., 0., 1.5])
    y = np.array([2., 2., 0., np.nan, 0., np.inf, -1., 0.5])
    for name in ("xlogy", "xlog1py"):
        want = getattr(sp, name)(x, y)
        for got in (getattr(xnp.special, name)(xnp.asarray(x), xnp.asarray(y)),
                    xnp.jit(getattr(xnp.special, name))(x, y)):
            np.testing.assert_array_equal(np.asarray(got), want)
            ok = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(np.asarray(got))[ok], np.signbit(want)[ok])
    e = np.array([0., 1., 2., -1., np.inf, np.nan, 1e-300])
    got, want = np.asarray(xnp.special.entr(xnp.asarray(e))), sp.entr(e)
    np.testing.assert_array_equal(got, want)
    ok = ~np.isnan(want)  # (a NaN's sign is no one's promise)
    np.testing.assert_array_equal(np.signbit(got)[ok], np.signbit(want)[ok])  # entr(0): +0.0
