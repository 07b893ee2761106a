"""``xnp.polynomial`` against ``numpy.polynomial`` on the same machine: evaluation,
Vandermonde matrices, weights and ``polyvalfromroots`` for all six bases, eagerly and
under ``jit``; derivatives of evaluation against NumPy's ``deriv`` (a closed form of the
series); the classes (arithmetic, printing, ``fit``, ``roots``, ``linspace``) and the
functions that run NumPy's implementation on concrete coefficients."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from xnp.polynomial import _bases

RTOL = 1e-12
MODULES = list(_bases.BASES)
rng = np.random.default_rng(7)
X = rng.uniform(-0.9, 0.9, size=5)
C1 = rng.standard_normal(6)
C2 = rng.standard_normal((4, 3))


def _mods(module):
    return getattr(np.polynomial, module), getattr(xnp.polynomial, module)


def _close(got, want):
    # NumPy's scalar for a scalar point, as NumPy's (README, "Scalars"); else an xnp array
    if isinstance(want, np.generic):
        assert type(got) is type(want), type(got)
    else:
        assert isinstance(got, xnp.Array), type(got)
    np.testing.assert_allclose(np.asarray(got), want, rtol=RTOL, atol=1e-13)
    assert np.shape(got) == np.shape(want)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case", ["vector", "scalar", "list", "2d-tensor", "2d-no-tensor",
                                  "int-coef", "one-coef"])
def test_val_matches_numpy_eager_and_jit(module, case):
    npm, xm = _mods(module)
    name = f"{_bases.BASES[module].prefix}val"
    x, c, kw = {"vector": (X, C1, {}), "scalar": (0.3, C1, {}), "list": (list(X), C1, {}),
                "2d-tensor": (X[:3], C2, {}), "2d-no-tensor": (X[:3], C2, {"tensor": False}),
                "int-coef": (X, [1, -2, 3], {}), "one-coef": (X, [2.5], {})}[case]
    want = getattr(npm, name)(x, c, **kw)
    xin = xnp.asarray(x) if isinstance(x, np.ndarray) else x
    _close(getattr(xm, name)(xin, c, **kw), want)
    if isinstance(x, np.ndarray):
        jitted = xnp.jit(lambda v, cc: getattr(xm, name)(v, cc, **kw))
        _close(jitted(xin, xnp.asarray(np.asarray(c, float))), want)


@pytest.mark.parametrize("module", MODULES)
def test_val_eager_is_bitwise_numpy(module):
    # evaluated in NumPy's order of operations: chebval(0.3, [1, 0, 2]) is -0.64, not
    # -0.6400000000000001 as a textbook Clenshaw step gives
    npm, xm = _mods(module)
    name = f"{_bases.BASES[module].prefix}val"
    r = np.random.default_rng(11)
    cases = [(0.3, [1.0, 0.0, 2.0])] + [(r.standard_normal(4), r.standard_normal(n))
                                         for n in (1, 2, 3, 5, 8)]
    cases += [(r.standard_normal(3), r.standard_normal((4, 2))), (-1.7, [3, -1, 4, 1])]
    for x, c in cases:
        want = getattr(npm, name)(x, c)
        got = np.asarray(getattr(xm, name)(xnp.asarray(x) if np.ndim(x) else x, c))
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want), (x, c, got - want)


@pytest.mark.parametrize("module", MODULES)
def test_nd_evaluation_matches_numpy(module):
    npm, xm = _mods(module)
    p = _bases.BASES[module].prefix
    c2, c3 = rng.standard_normal((3, 4)), rng.standard_normal((2, 3, 2))
    x, y, z = X[:4], X[1:5], X[::-1][:4]
    for name, args, c in [("val2d", (x, y), c2), ("grid2d", (x, y[:2]), c2),
                          ("val3d", (x, y, z), c3), ("grid3d", (x[:2], y[:3], z), c3)]:
        want = getattr(npm, p + name)(*args, c)
        _close(getattr(xm, p + name)(*[xnp.asarray(a) for a in args], c), want)
        jitted = xnp.jit(lambda *a, f=getattr(xm, p + name): f(*a[:-1], a[-1]))
        _close(jitted(*[xnp.asarray(a) for a in args], xnp.asarray(c)), want)
    with pytest.raises(ValueError, match=f"{p}val2d: x, y are incompatible"):
        getattr(xm, p + "val2d")(xnp.asarray(x), xnp.asarray(y[:2]), c2)


@pytest.mark.parametrize("module", MODULES)
def test_vander_and_weight_match_numpy(module):
    npm, xm = _mods(module)
    p = _bases.BASES[module].prefix
    for deg in (0, 1, 5):
        _close(getattr(xm, p + "vander")(xnp.asarray(X), deg), getattr(npm, p + "vander")(X, deg))
    _close(xnp.jit(lambda v: getattr(xm, p + "vander")(v, 4))(xnp.asarray(X)),
           getattr(npm, p + "vander")(X, 4))
    _close(getattr(xm, p + "vander")(0.5, 3), getattr(npm, p + "vander")(0.5, 3))
    _close(getattr(xm, p + "vander2d")(xnp.asarray(X), xnp.asarray(X[::-1]), [2, 3]),
           getattr(npm, p + "vander2d")(X, X[::-1], [2, 3]))
    _close(getattr(xm, p + "vander3d")(xnp.asarray(X), xnp.asarray(X), xnp.asarray(X), [1, 2, 1]),
           getattr(npm, p + "vander3d")(X, X, X, [1, 2, 1]))
    with pytest.raises(ValueError, match="deg must be non-negative"):
        getattr(xm, p + "vander")(xnp.asarray(X), -1)
    if module != "polynomial":
        w = p + "weight"
        _close(getattr(xm, w)(xnp.asarray(X)), getattr(npm, w)(X))
        _close(xnp.jit(getattr(xm, w))(xnp.asarray(X)), getattr(npm, w)(X))


def test_valfromroots_matches_numpy():
    P = np.polynomial.polynomial
    r = rng.standard_normal((3, 2))
    for x, tensor in [(X, True), (X[:2], False), (0.25, True)]:
        want = P.polyvalfromroots(x, r, tensor=tensor)
        xin = xnp.asarray(x) if isinstance(x, np.ndarray) else x
        _close(xnp.polynomial.polynomial.polyvalfromroots(xin, r, tensor=tensor), want)
    with pytest.raises(ValueError, match="x.ndim must be < r.ndim"):
        xnp.polynomial.polynomial.polyvalfromroots(xnp.ones((2, 2)), r, tensor=False)


@pytest.mark.parametrize("module", MODULES)
def test_derivative_of_evaluation_is_the_derivative_series(module):
    npm, xm = _mods(module)
    p = _bases.BASES[module].prefix
    dc = getattr(npm, p + "der")(C1)  # the derivative series (NumPy's closed form)
    want = getattr(npm, p + "val")(X, dc)
    f = lambda v: getattr(xm, p + "val")(v, C1)  # noqa: E731
    _close(xnp.vmap(xnp.grad(f))(xnp.asarray(X)), want)
    _close(xnp.jit(xnp.vmap(xnp.grad(f)))(xnp.asarray(X)), want)
    # and in the coefficients: d/dc_k sum_j c_j phi_j(x) = phi_k(x), the Vandermonde row
    g = xnp.grad(lambda cc: getattr(xm, p + "val")(0.4, cc))(xnp.asarray(C1))
    _close(g, getattr(npm, p + "vander")(0.4, len(C1) - 1)[0])


@pytest.mark.parametrize("cls", ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite",
                                 "HermiteE"])
def test_classes_match_numpy(cls):
    N, X_ = getattr(np.polynomial, cls), getattr(xnp.polynomial, cls)
    coef = [1.0, -2.0, 0.5, 3.0]
    a, b = N(coef, domain=[0, 2]), X_(xnp.asarray(coef), domain=[0, 2])
    assert isinstance(b, N) and repr(b) == repr(a) and str(b) == str(a)
    for got, want in [(b + b, a + a), (b * 2, a * 2), (b * b, a * a), (b.deriv(), a.deriv()),
                      (b.integ(), a.integ()), (b ** 2, a ** 2)]:
        assert type(got) is X_ and repr(got) == repr(want)
    _close(b(xnp.asarray(X)), a(X))
    _close(b(0.7), a(0.7))
    _close(xnp.jit(lambda v: b(v))(xnp.asarray(X)), a(X))
    _close(b.roots(), a.roots())
    (xg, yg), (xw, yw) = b.linspace(7), a.linspace(7)
    _close(xg, xw)
    _close(yg, yw)
    xs = np.linspace(-1, 1, 30)
    fitted, want = X_.fit(xnp.asarray(xs), xnp.asarray(np.exp(xs)), 4), N.fit(xs, np.exp(xs), 4)
    assert type(fitted) is X_
    np.testing.assert_allclose(fitted.coef, want.coef, rtol=1e-10)


def test_host_functions_return_xnp_arrays_and_refuse_tracers():
    P, XP = np.polynomial.polynomial, xnp.polynomial.polynomial
    _close(XP.polyadd([1, 2], [3, 4, 5]), P.polyadd([1, 2], [3, 4, 5]))
    _close(XP.polyder(xnp.asarray(C1), 2), P.polyder(C1, 2))
    coef, (resid, rank, sv, rcond) = XP.polyfit(X, X ** 2, 2, full=True)
    want = P.polyfit(X, X ** 2, 2, full=True)
    _close(coef, want[0])
    _close(sv, want[1][2])
    assert rank == want[1][1]
    _close(xnp.polynomial.legendre.leggauss(4)[0], np.polynomial.legendre.leggauss(4)[0])
    with pytest.raises(TypeError, match=r"xnp.polynomial.polynomial.polyder: argument 0 is "
                                        r"traced"):
        xnp.jit(lambda c: XP.polyder(c))(xnp.asarray(C1))
    with pytest.raises(TypeError, match="xnp.polynomial.Polynomial: argument 0 is traced"):
        xnp.jit(lambda c: xnp.polynomial.Polynomial(c)(0.5))(xnp.asarray(C1))


def test_mapdomain_and_errors():
    pu, npu = xnp.polynomial.polyutils, np.polynomial.polyutils
    _close(pu.mapdomain(xnp.asarray(X), [-1, 1], [0, 4]), npu.mapdomain(X, [-1, 1], [0, 4]))
    _close(xnp.jit(lambda v: pu.mapdomain(v, [-1, 1], [0, 4]))(xnp.asarray(X)),
           npu.mapdomain(X, [-1, 1], [0, 4]))
    with pytest.raises(ValueError, match="polyval: the coefficient array c is empty"):
        xnp.polynomial.polynomial.polyval(0.5, [])
    with pytest.raises(TypeError, match="chebvander: deg must be an integer"):
        xnp.polynomial.chebyshev.chebvander(xnp.asarray(X), 2.5)
    import xnp.polynomial.hermite_e as He  # the submodules import as NumPy's do

    assert He.hermeval is xnp.polynomial.hermite_e.hermeval


def test_poly1d_value_and_repr_are_numpys():
    for coeffs in ([1, 2, 3], [1.5, 2.0], [2]):
        p, q = xnp.poly1d(coeffs), np.poly1d(coeffs)
        assert repr(p) == repr(q) and repr(p.deriv()) == repr(q.deriv())
        assert repr(p(2)) == repr(q(2))  # NumPy's scalar at a scalar point
        np.testing.assert_array_equal(np.asarray(p(xnp.asarray([1, 2]))), q(np.array([1, 2])))
    assert float(xnp.jit(lambda t: xnp.poly1d([1, 2, 3])(t))(2.0)) == 11.0


def test_bmat_of_an_xnp_array_is_numpys_matrix():
    m = np.arange(4.0).reshape(2, 2)
    got = xnp.bmat(xnp.asarray(m))
    assert type(got) is np.matrix and (got == np.bmat(m)).all()


@pytest.mark.parametrize("module", MODULES)
def test_evaluation_at_a_scalar_point_is_numpys_scalar(module):
    npm, xm = _mods(module)
    name = f"{_bases.BASES[module].prefix}val"
    want = getattr(npm, name)(0.3, C1)
    got = getattr(xm, name)(0.3, C1)
    assert type(got) is type(want) and np.isclose(got, want, rtol=RTOL)
    assert isinstance(getattr(xm, name)(xnp.asarray(X), C1), xnp.ndarray)
    assert repr(xnp.polynomial.polynomial.polyvalfromroots(2.0, [1.0, 3.0])) == repr(
        np.polynomial.polynomial.polyvalfromroots(2.0, [1.0, 3.0]))
