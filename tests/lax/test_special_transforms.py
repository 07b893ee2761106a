"""Transformation rules of the special functions and of scatter_mul/min/max: jvp vs
central finite differences (float64) at points the op table's generic oracles do not
pick (bessel derivatives at 0, the igamma series/continued-fraction switch), the errors
for derivatives that are not implemented, vmap vs a loop for the two-operand
functions over batch-axis combinations, and the scatter jvps with duplicate indices,
zero updates and ties; each eagerly and under jit."""

import numpy as np
import pytest
import scipy.special as sp

import xnp
from tests.helpers import assert_allclose
from xnp import lax

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

H = 1e-6


def _fd(f, args, dirs):
    plus = f(*[a + H * d for a, d in zip(args, dirs)])
    minus = f(*[a - H * d for a, d in zip(args, dirs)])
    return (np.asarray(plus) - np.asarray(minus)) / (2 * H)


def _jvp(f, args, dirs, jit):
    def run(*a):
        n = len(a) // 2
        return xnp.jvp(f, tuple(a[:n]), tuple(a[n:]))[1]

    return np.asarray((xnp.jit(run) if jit else run)(*args, *dirs))


def _check(f, args, dirs, jit, tol=1e-6):
    np.testing.assert_allclose(_jvp(f, args, dirs, jit), _fd(f, args, dirs), rtol=tol, atol=tol)


# --------------------------------------------------------------------------- special jvps


UNARY = [
    ("digamma", lax.digamma, np.array([0.3, 1.0, 2.5, 7.0, -1.5])),
    ("bessel_i0e", lax.bessel_i0e, np.array([-9.0, -2.0, -1e-3, 0.4, 3.0, 8.5, 30.0])),
    ("bessel_i1e", lax.bessel_i1e, np.array([-9.0, -2.0, -1e-3, 0.4, 3.0, 8.5, 30.0])),
    ("polygamma2", lambda x: lax.polygamma(np.asarray(2.0), x), np.array([0.4, 1.5, 6.0])),
]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("name,f,x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_jvp_matches_finite_differences(name, f, x, jit):
    _check(f, [x], [np.linspace(-1, 1, x.size)], jit)


@pytest.mark.parametrize("jit", [False, True])
def test_bessel_derivatives_at_zero(jit):
    x = np.zeros(2)
    t = np.ones(2)
    assert_allclose(_jvp(lax.bessel_i0e, [x], [t], jit), np.array([-0.0, -0.0]))  # i1e(0) = 0
    assert_allclose(_jvp(lax.bessel_i1e, [x], [t], jit), np.full(2, 0.5))
    # i1e'(x) = i0e(x) - i1e(x) (sign(x) + 1/x), against SciPy away from 0
    y = np.array([-3.0, 0.5, 4.0])
    expected = sp.i0e(y) - sp.i1e(y) * (np.sign(y) + 1 / y)
    assert_allclose(_jvp(lax.bessel_i1e, [y], [np.ones(3)], jit), expected)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("f", [lax.igamma, lax.igammac], ids=["igamma", "igammac"])
def test_igamma_jvp_in_x(f, jit):
    # series (x < a or x < 1) and continued-fraction (x >= a, x >= 1) branches
    a = np.array([0.5, 2.0, 5.0, 1.0, 3.0, 9.0])
    x = np.array([0.3, 1.0, 2.0, 2.5, 7.0, 20.0])
    g = lambda xx: f(a, xx)  # noqa: E731
    _check(g, [x], [np.ones(6)], jit)
    expected = np.exp(-x + (a - 1) * np.log(x) - sp.gammaln(a))
    sign = 1 if f is lax.igamma else -1
    assert_allclose(_jvp(g, [x], [np.ones(6)], jit), sign * expected)
    # a == 1 at x == 0: density exp(-x) = 1, not NaN from 0 * log(0)
    assert_allclose(_jvp(lambda xx: f(np.ones(1), xx), [np.zeros(1)], [np.ones(1)], jit),
                    np.array([sign * 1.0]))


@pytest.mark.parametrize("jit", [False, True])
def test_zeta_jvp_in_q(jit):
    x = np.array([2.0, 3.5, 6.0])
    q = np.array([0.5, 1.0, 4.0])
    _check(lambda qq: lax.zeta(x, qq), [q], [np.ones(3)], jit)


@pytest.mark.parametrize("f,arg,pattern", [
    (lax.igamma_grad_a, 0, "igamma_grad_a.*`a`.*second derivative"),
    (lax.polygamma, 0, "polygamma is not differentiable with respect to `m`: .*integer order"),
    (lax.zeta, 0, "zeta is not differentiable with respect to `x`: .*no closed form")])
def test_unimplemented_derivatives_raise(f, arg, pattern):
    args = [np.array([2.0, 3.0]), np.array([1.5, 2.5])]
    dirs = [np.zeros(2), np.zeros(2)]
    dirs[arg] = np.ones(2)
    with pytest.raises(NotImplementedError, match=pattern):
        xnp.jvp(f, tuple(args), tuple(dirs))
    with pytest.raises(NotImplementedError, match=pattern):
        xnp.grad(lambda *a: xnp.sum(f(*a)), argnums=arg)(*args)
    # a constant first operand differentiates fine
    xnp.grad(lambda b: xnp.sum(f(args[0], b)))(args[1])


BINARY = [("igamma", lax.igamma, sp.gammainc), ("igammac", lax.igammac, sp.gammaincc),
          ("polygamma", lax.polygamma, sp.polygamma), ("zeta", lax.zeta, sp.zeta),
          ("nextafter", lax.nextafter, np.nextafter)]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("in_axes", [(0, 0), (1, None), (None, -1), (-1, 0)], ids=str)
@pytest.mark.parametrize("name,f,ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_vmap_matches_loop(name, f, ref, in_axes, jit):
    rng = np.random.default_rng(0)
    first = np.floor(rng.uniform(1, 4, (3, 3))) if name == "polygamma" else \
        rng.uniform(1.5, 5, (3, 3))
    second = rng.uniform(0.5, 6, (3, 3))
    ins = [first, second]
    args = [a if ax is not None else a[0] for a, ax in zip(ins, in_axes)]
    vf = xnp.vmap(f, in_axes=in_axes)
    out = np.asarray((xnp.jit(vf) if jit else vf)(*args))
    slices = [[np.take(a, i, axis=ax) if ax is not None else a for a, ax in zip(args, in_axes)]
              for i in range(3)]
    expected = np.stack([np.asarray(f(*s)) for s in slices])
    assert_allclose(out, expected, kind="reduction")
    assert_allclose(expected, np.stack([ref(*s) for s in slices]), kind="reduction")


# --------------------------------------------------------------------------- scatter jvps

DN = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                 scatter_dims_to_operand_dims=(0,))
IDX = np.array([[1], [3], [1], [0], [3], [3], [7]])  # duplicates and one out of bounds
OPS = {"mul": lax.scatter_mul, "min": lax.scatter_min, "max": lax.scatter_max}


def _scatter(op, **kw):
    return lambda x, u: OPS[op](x, IDX, u, DN, **kw)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("op", list(OPS))
def test_scatter_jvp_matches_finite_differences(op, jit):
    rng = np.random.default_rng(1)
    x, u = rng.normal(size=5), rng.normal(size=7)  # no ties
    dirs = [rng.normal(size=5), rng.normal(size=7)]
    _check(_scatter(op), [x, u], dirs, jit)
    _check(_scatter(op), [x, u], [dirs[0], np.zeros(7)], jit)
    _check(_scatter(op), [x, u], [np.zeros(5), dirs[1]], jit)


@pytest.mark.parametrize("jit", [False, True])
def test_scatter_mul_jvp_with_zero_updates(jit):
    rng = np.random.default_rng(2)
    x, dirs = rng.normal(size=5), [rng.normal(size=5), rng.normal(size=7)]
    for zeros in ([0], [0, 2], [1, 4, 5]):  # one zero at 1; two at 1; three at 3
        u = rng.normal(size=7)
        u[zeros] = 0.0
        _check(_scatter("mul"), [x, u], dirs, jit)


@pytest.mark.parametrize("jit", [False, True])
def test_scatter_mul_jvp_unique_indices(jit):
    idx = np.array([[1], [3], [0]])
    f = lambda x, u: lax.scatter_mul(x, idx, u, DN, unique_indices=True)  # noqa: E731
    rng = np.random.default_rng(3)
    _check(f, [rng.normal(size=5), rng.normal(size=3)],
           [rng.normal(size=5), rng.normal(size=3)], jit)


@pytest.mark.parametrize("jit", [False, True])
def test_scatter_max_min_ties_average(jit):
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    u = np.array([3.0, 4.0, 3.0, 0.0, 4.0, 1.0, 9.0])
    tx, tu = np.full(5, 10.0), np.arange(7.0)
    # position 1: updates 0 and 2 tie above x; position 3: x, updates 1 and 4 tie
    expected = np.array([10.0, (0 + 2) / 2, 10.0, (10 + 1 + 4) / 3, 10.0])
    assert_allclose(_jvp(_scatter("max"), [x, u], [tx, tu], jit), expected)
    # min: position 0: update 3 (0.0) wins alone; position 1 keeps x (2 < 3); position 3:
    # update 5 (1.0) wins alone
    expected = np.array([3.0, 10.0, 10.0, 5.0, 10.0])
    assert_allclose(_jvp(_scatter("min"), [x, u], [tx, tu], jit), expected)


@pytest.mark.parametrize("op", list(OPS))
def test_scatter_grad_and_vmap_of_jvp(op):
    rng = np.random.default_rng(4)
    x, u = rng.normal(size=5), rng.normal(size=7)
    f = _scatter(op)
    gx, gu = xnp.grad(lambda a, b: xnp.sum(f(a, b) * np.arange(5.0)), argnums=(0, 1))(x, u)
    # <grad, v> equals the jvp along v
    vx, vu = rng.normal(size=5), rng.normal(size=7)
    jv = np.sum(_jvp(f, [x, u], [vx, vu], False) * np.arange(5.0))
    assert_allclose(np.sum(np.asarray(gx) * vx) + np.sum(np.asarray(gu) * vu), jv,
                    kind="reduction")
    xs, us = rng.normal(size=(3, 5)), rng.normal(size=(3, 7))
    batched = xnp.vmap(lambda a, b: xnp.jvp(f, (a, b), (vx, vu))[1])(xs, us)
    loop = np.stack([_jvp(f, [a, b], [vx, vu], False) for a, b in zip(xs, us)])
    assert_allclose(np.asarray(batched), loop)
