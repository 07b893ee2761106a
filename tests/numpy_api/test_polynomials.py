"""NumPy-surface tests of ``xnp/numpy_api/polynomials.py`` against NumPy (eager, jit,
``eval_jaxpr``), errors, eager-only trimming, ``poly1d``, and grad of ``polyval`` /
``polyfit`` against finite differences."""

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import central_difference, check_vs_numpy, grid

DTYPES = [np.dtype(t) for t in (np.int32, np.int64, np.float32, np.float64, np.complex128)]


def _coeffs(rng, n, dtype):
    c = rng.integers(-4, 5, n).astype(dtype)
    if c.size and c[0] == 0:
        c[0] = 1
    return c


@pytest.mark.parametrize("case", grid(n=20, seed=1, deg=[1, 3, 6], dtypes=[
    (DTYPES[0], DTYPES[3]), (DTYPES[2], DTYPES[2]), (DTYPES[1], DTYPES[1]),
    (DTYPES[3], DTYPES[4]), (DTYPES[2], DTYPES[0])], x_shape=[(), (0,), (5,), (2, 3)]))
def test_polyval_matches_numpy(case, rng):
    p = _coeffs(rng, case.deg, case.dtypes[0])
    x = (rng.standard_normal(case.x_shape) * 2).astype(case.dtypes[1]) if case.dtypes[1].kind != "i" else rng.integers(-3, 4, case.x_shape).astype(case.dtypes[1])
    check_vs_numpy(lambda xp, p, x: xp.polyval(p, x), p, x)


@pytest.mark.parametrize("case", grid(n=24, seed=2, fname=["polyadd", "polysub", "polymul"],
                                      lens=[(1, 1), (2, 4), (5, 3)],
                                      dtypes=[(DTYPES[0], DTYPES[0]), (DTYPES[1], DTYPES[3]),
                                              (DTYPES[2], DTYPES[2]), (DTYPES[4], DTYPES[3])]))
def test_poly_arithmetic_matches_numpy(case, rng):
    a = _coeffs(rng, case.lens[0], case.dtypes[0])
    b = _coeffs(rng, case.lens[1], case.dtypes[1])
    check_vs_numpy(lambda xp, a, b: getattr(xp, case.fname)(a, b), a, b)


@pytest.mark.parametrize("lens", [(4, 2), (3, 3), (2, 4), (6, 1)])
def test_polydiv_matches_numpy(lens, rng):
    u = _coeffs(rng, lens[0], np.float64)
    v = _coeffs(rng, lens[1], np.float64)
    check_vs_numpy(lambda xp, u, v: xp.polydiv(u, v), u, v, jit=False, jaxpr=False)
    q, r = xnp.jit(xnp.polydiv)(u, v)  # jit keeps the untrimmed remainder
    wq, wr = np.polydiv(u, v)
    np.testing.assert_allclose(np.asarray(q), wq, atol=1e-12)
    np.testing.assert_allclose(np.asarray(r)[len(np.asarray(r)) - len(wr):], wr, atol=1e-12)
    check_vs_numpy(lambda xp: xp.polydiv([1, 2, 3], [1, 1]), jit=False, jaxpr=False)


@pytest.mark.parametrize("m", [0, 1, 2, 5])
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex64])
def test_polyder_polyint_match_numpy(m, dtype, rng):
    p = _coeffs(rng, 4, dtype)
    check_vs_numpy(lambda xp, p: xp.polyder(p, m), p)
    check_vs_numpy(lambda xp, p: xp.polyint(p, m), p)
    check_vs_numpy(lambda xp, p: xp.polyint(p, m, k=3.0), p)
    if m:
        check_vs_numpy(lambda xp, p: xp.polyint(p, m, k=list(range(1, m + 1))), p)


def test_polyder_polyint_errors():
    for f in (lambda xp: xp.polyder([1, 2], -1), lambda xp: xp.polyint([1, 2], -1),
              lambda xp: xp.polyint([1, 2], 3, k=[1, 2])):
        check_vs_numpy(f, jit=False)


@pytest.mark.parametrize("case", grid(n=12, seed=3, deg=[0, 1, 3], y2d=[False, True],
                                      w=[False, True], cov=[False, True, "unscaled"]))
def test_polyfit_matches_numpy(case, rng):
    x = np.linspace(-1, 2, 12)
    y = rng.standard_normal((12, 2) if case.y2d else 12)
    w = rng.random(12) + 0.5
    check_vs_numpy(lambda xp, x, y, w: xp.polyfit(x, y, case.deg, w=w if case.w else None,
                                                  cov=case.cov), x, y, w, rtol=1e-9,
                   atol=1e-10)


def test_polyfit_full_int_data_and_errors(rng):
    x = np.arange(8)
    y = x ** 2 - 3 * x + rng.integers(0, 2, 8)
    check_vs_numpy(lambda xp, x, y: xp.polyfit(x, y, 2, full=True), x, y, rtol=1e-9,
                   atol=1e-10)
    for args in ((x, y, -1), (x.reshape(2, 4), y, 1), (x, y[:5], 1), (x[:0], y[:0], 1),
                 (x, y.reshape(2, 2, 2), 1)):
        check_vs_numpy(lambda xp, *a: xp.polyfit(*a), *args, jit=False)
    check_vs_numpy(lambda xp, x, y: xp.polyfit(x, y, 2, cov=True), x[:3], y[:3], jit=False)
    with pytest.warns(np.exceptions.RankWarning):
        xnp.polyfit(np.ones(5), np.arange(5.0), 2)


def test_polyval_polyfit_grad_vs_finite_differences(rng):
    p = rng.standard_normal(4)
    x = rng.standard_normal(5)
    v = rng.standard_normal(4)
    f = lambda c: xnp.sum(xnp.polyval(c, xnp.asarray(x)) ** 2)  # noqa: E731
    np.testing.assert_allclose(np.asarray(xnp.grad(f)(p)) @ v, central_difference(f, p, v),
                               rtol=1e-6)
    g = lambda t: xnp.sum(xnp.polyval(xnp.asarray(p), t))  # noqa: E731
    u = rng.standard_normal(5)
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(g))(x)) @ u,
                               central_difference(g, x, u), rtol=1e-6)
    xs = np.linspace(-1, 1, 9)
    ys = rng.standard_normal(9)
    h = lambda yy: xnp.sum(xnp.polyfit(xnp.asarray(xs), yy, 2) * xnp.asarray([1.0, 2.0, 3.0]))  # noqa: E731
    w = rng.standard_normal(9)
    np.testing.assert_allclose(np.asarray(xnp.grad(h)(ys)) @ w, central_difference(h, ys, w),
                               rtol=1e-6)
    k = lambda xx: xnp.sum(xnp.polyfit(xx, xnp.asarray(ys), 2))  # noqa: E731
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(k))(xs)) @ w,
                               central_difference(k, xs, w), rtol=1e-5)


@pytest.mark.parametrize("p", [[1, -3, 2], [0, 0, 1, -3, 2, 0, 0], [2.0, 0, 1], [5],
                               [0, 0], [1j, 2, 1 - 1j], np.float32([1, -6, 11, -6])])
def test_roots_matches_numpy(p):
    p = np.asarray(p)
    want = np.roots(p)
    got = np.asarray(xnp.roots(p))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(want), atol=1e-5)


def test_roots_under_jit_and_errors():
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="strip_zeros=False"):
        xnp.jit(xnp.roots)(np.array([1.0, -3, 2]))
    got = xnp.jit(lambda p: xnp.roots(p, strip_zeros=False))(np.array([1.0, -6, 11, -6]))
    np.testing.assert_allclose(np.sort(np.asarray(got).real), [1, 2, 3], atol=1e-9)
    check_vs_numpy(lambda xp, p: xp.roots(p), np.ones((2, 2)), jit=False)


@pytest.mark.parametrize("z", [[1, 2], [1.5, -2, 0.25], np.float32([1, 2]), [1j, -1j],
                               [1 + 1j, 2], [], np.array([[1.0, 2], [3, 4]])])
def test_poly_matches_numpy(z):
    check_vs_numpy(lambda xp, z: xp.poly(z), np.asarray(z), jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, z: xp.poly(z), np.ones((2, 3)), jit=False)


def test_poly_under_jit_stays_complex():
    got = xnp.jit(xnp.poly)(np.array([1j, -1j]))
    np.testing.assert_allclose(np.asarray(got), [1, 0, 1])
    got = xnp.jit(xnp.poly)(np.array([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(got), [1, -3, 2])


@pytest.mark.parametrize("coeffs, variable", [([1, -3, 3], None), ([2.5, 0, -1, 4], "t"),
                                              ([0, 0, 7], None), ([1j, 2], "z")])
def test_poly1d_str_matches_numpy(coeffs, variable):
    assert str(xnp.poly1d(coeffs, variable=variable)) == str(np.poly1d(coeffs, variable=variable))
    assert str(xnp.poly1d([1, -3, 2]) + 1) == str(np.poly1d([1, -3, 2]) + 1)


def test_poly1d_matches_numpy():
    for xp in (np, xnp):
        p = xp.poly1d([0, 1, 2, 3])
        q = xp.poly1d([1, -1])
        res = [p.coeffs, p.order, p(2.0), (p + q).coeffs, (p - q).coeffs, (q - 1).coeffs,
               (p * q).coeffs, (2 * p).coeffs, (p / 2).coeffs, (p ** 2).coeffs,
               p.deriv().coeffs, p.integ(k=1).coeffs, (p / q)[0].coeffs, (p / q)[1].coeffs,
               xp.poly1d([1, -3], r=True).coeffs, p[0], p[5], len(p), p(q).coeffs,
               xp.polyval(p, 3.0), xp.polyadd(p, q).coeffs]
        if xp is np:
            want = res
            want_roots = np.sort_complex(p.roots)
        else:
            for g, w in zip(res, want):
                np.testing.assert_allclose(np.asarray(g, dtype=complex), np.asarray(w, complex),
                                           atol=1e-12)
            np.testing.assert_allclose(np.sort_complex(np.asarray(p.roots)), want_roots,
                                       atol=1e-12)
            assert p == xnp.poly1d([1, 2, 3]) and p != q
            assert isinstance(xnp.polyadd(p, q), xnp.poly1d)


@pytest.mark.parametrize("dtype", [np.float16, "bfloat16", np.int8, np.bool_, np.float32,
                                   np.float64, np.complex128])
def test_poly_result_dtype_is_numpys(dtype):
    """NumPy's poly computes in its mintypecode of the roots' dtype: float32/64 and complex
    kept, anything else float64 (float16 was kept)."""
    dt = np.dtype(getattr(ml_dtypes, dtype) if isinstance(dtype, str) else dtype)
    roots = np.array([1, 2], dt)
    want = np.poly(roots)
    for got in (xnp.poly(xnp.asarray(roots)), xnp.poly(xnp.asarray(roots))):
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want)
    if dt.kind != "c":  # (a complex result with real roots is made real eagerly only)
        assert np.asarray(xnp.jit(xnp.poly)(roots)).dtype == want.dtype


def test_polyint_constant_beyond_int64_is_numpys_uint64():
    p = np.array([1.0, 2.0])
    want = np.polyint(p, k=2**63)
    for got in (xnp.polyint(xnp.asarray(p), k=2**63), xnp.polyint(xnp.asarray(p), k=2**63),
                xnp.jit(lambda q: xnp.polyint(q, k=2**63))(p)):
        np.testing.assert_array_equal(np.asarray(got), want)
