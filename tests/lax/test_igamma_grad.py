"""``xnp.lax.igamma_grad_a`` (``dP(a, x)/da``) and the derivatives of ``igamma`` /
``igammac`` in ``a``: values against a Richardson-extrapolated finite difference of
SciPy's ``gammainc`` (tests/lax/ops_special.py ``d_igamma_da``) over a grid of
``a`` in [0.1, 50] and ``x`` in [0.01, 100] covering both the series and the continued
fraction, eagerly (NumPy and XLA backends) and under jit; the domain edges; jvp/grad/vmap
of igamma and igammac in ``a``; igamma_grad_a's own derivative in ``x``."""

import numpy as np
import pytest
import scipy.special as sp

import xnp
from tests.helpers import assert_allclose
from tests.lax.ops_special import d_igamma_da
from xnp import lax

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

A, X = np.meshgrid(np.geomspace(0.1, 50, 24), np.geomspace(0.01, 100, 30), indexing="ij")
REF = d_igamma_da(A, X)
# the oracle's own error is ~1e-11 relative; the algorithm's ~1e-12 (a <= 50)
RTOL = 1e-9


def _check_grid(got, rtol=RTOL, atol=1e-300):
    np.testing.assert_allclose(np.asarray(got), REF, rtol=rtol, atol=atol)


def _run(mode, a, x):
    """igamma_grad_a eagerly (NumPy backend), under jit, or eagerly on the XLA backend."""
    if mode == "jit":
        return np.asarray(xnp.jit(lax.igamma_grad_a)(a, x))
    if mode == "eager_xla":
        with xnp.config.override(eager_backend="xla"):
            return np.asarray(lax.igamma_grad_a(xnp.asarray(a), xnp.asarray(x)))
    return np.asarray(lax.igamma_grad_a(a, x))


@pytest.mark.parametrize("mode", ["eager", "jit", "eager_xla"])
def test_float64_grid_matches_finite_differences(mode):
    got = _run(mode, A, X)
    assert got.dtype == np.float64
    _check_grid(got)


@pytest.mark.parametrize("jit", [False, True])
def test_float32_matches_finite_differences(jit):
    f = xnp.jit(lax.igamma_grad_a) if jit else lax.igamma_grad_a
    got = np.asarray(f(A.astype(np.float32), X.astype(np.float32)))
    assert got.dtype == np.float32
    # float32: cancellation in ans * (log x - digamma) + dans, and float32 underflow of
    # x^a e^-x / Γ(a) (values below ~1e-38 become 0)
    np.testing.assert_allclose(got, REF, rtol=2e-4, atol=1e-30)


def test_broadcasting_and_rank0():
    a, x = np.array([[0.5], [3.0]]), np.array([[0.2, 1.0, 7.0]])  # lax: equal ranks
    for f in (lax.igamma_grad_a, xnp.jit(lax.igamma_grad_a)):
        out = np.asarray(f(a, x))
        assert out.shape == (2, 3)
        assert_allclose(out, d_igamma_da(a, x), kind="reduction", rtol=RTOL)
        assert_allclose(f(np.float64(2.0), np.float64(3.0)), d_igamma_da(2.0, 3.0),
                        kind="reduction", rtol=RTOL)


EDGE_A = np.array([np.nan, 1.0, 0.0, -1.0, 2.0, 2.0, 2.0, np.inf, np.inf, 0.5, 1e4])
EDGE_X = np.array([1.0, np.nan, 1.0, 1.0, -1.0, 0.0, np.inf, 3.0, np.inf, 1e-300, 1e4])
# NaN outside the domain; 0 where P is constant in a (x = 0, x = inf, a = inf); tiny x,
# where P = x^a / Γ(a + 1) (1 + O(x)) gives dP/da = P (log x - ψ(a + 1)) (finite
# differences cannot resolve x^a = e^(-690 a)); a large a (accuracy ~eps * a there)
_TINY = sp.gammainc(0.5, 1e-300) * (np.log(1e-300) - sp.digamma(1.5))
EDGE_EXPECTED = np.array([np.nan, np.nan, np.nan, np.nan, np.nan, 0.0, 0.0, 0.0, np.nan,
                          _TINY, -0.003989456])


@pytest.mark.parametrize("mode", ["eager", "jit", "eager_xla"])
def test_domain_edges(mode):
    np.testing.assert_allclose(_run(mode, EDGE_A, EDGE_X), EDGE_EXPECTED, rtol=1e-7)


def test_dtype_errors():
    with pytest.raises(TypeError, match="igamma_grad_a"):
        lax.igamma_grad_a(np.arange(3), np.arange(3))
    with pytest.raises(TypeError, match="igamma_grad_a"):
        lax.igamma_grad_a(np.ones(2, np.float32), np.ones(2))


# --------------------------------------------------------------------------- transforms

POINTS_A = np.array([0.3, 2.0, 5.0, 1.0, 3.0, 9.0, 40.0])
POINTS_X = np.array([0.2, 1.0, 2.0, 2.5, 7.0, 20.0, 38.0])  # series and fraction branches


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("f,sign", [(lax.igamma, 1.0), (lax.igammac, -1.0)],
                         ids=["igamma", "igammac"])
def test_jvp_in_a(f, sign, jit):
    def tangent(a, x, ta, tx):
        return xnp.jvp(f, (a, x), (ta, tx))[1]

    run = xnp.jit(tangent) if jit else tangent
    ones, zeros = np.ones_like(POINTS_A), np.zeros_like(POINTS_A)
    d_da = sign * d_igamma_da(POINTS_A, POINTS_X)
    assert_allclose(run(POINTS_A, POINTS_X, ones, zeros), d_da, kind="reduction", rtol=RTOL)
    # both operands at once: the tangents add
    density = np.exp((POINTS_A - 1) * np.log(POINTS_X) - POINTS_X - sp.gammaln(POINTS_A))
    both = run(POINTS_A, POINTS_X, 2 * ones, -ones)
    assert_allclose(both, 2 * d_da - sign * density, kind="reduction", rtol=RTOL)


@pytest.mark.parametrize("jit", [False, True])
def test_grad_and_vmap_in_a(jit):
    def loss(a):
        return xnp.sum(lax.igamma(a, POINTS_X) * np.arange(1.0, 8.0))

    g = xnp.jit(xnp.grad(loss)) if jit else xnp.grad(loss)
    assert_allclose(g(POINTS_A), d_igamma_da(POINTS_A, POINTS_X) * np.arange(1.0, 8.0),
                    kind="reduction", rtol=RTOL)
    a2, x2 = POINTS_A.reshape(1, 7) * [[1.0], [1.5]], POINTS_X
    vf = xnp.vmap(lax.igamma_grad_a, in_axes=(0, None))
    out = (xnp.jit(vf) if jit else vf)(a2, x2)
    assert_allclose(out, d_igamma_da(a2, x2), kind="reduction", rtol=RTOL)


@pytest.mark.parametrize("jit", [False, True])
def test_igamma_grad_a_jvp_in_x(jit):
    # d/dx dP/da = x^(a-1) e^-x / Γ(a) (log x - ψ(a)): against the closed form and against
    # central differences of igamma_grad_a itself
    a, x = POINTS_A, POINTS_X

    def tangent(xx):
        return xnp.jvp(lambda v: lax.igamma_grad_a(a, v), (xx,), (np.ones(7),))[1]

    got = np.asarray((xnp.jit(tangent) if jit else tangent)(x))
    closed = np.exp((a - 1) * np.log(x) - x - sp.gammaln(a)) * (np.log(x) - sp.digamma(a))
    assert_allclose(got, closed, kind="reduction")
    h = 1e-5 * x
    fd = (np.asarray(lax.igamma_grad_a(a, x + h)) - np.asarray(lax.igamma_grad_a(a, x - h))) / (
        2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-9)
    # x == 0: 0 for a > 1 (the density vanishes), not NaN from 0 * log(0)
    assert np.asarray(xnp.jvp(lambda v: lax.igamma_grad_a(np.array([2.0]), v),
                              (np.zeros(1),), (np.ones(1),))[1])[0] == 0.0
