"""Targeted tests of the elementwise family's jvp, transpose and batching rules: edge
cases the op-table oracles (tests/lax/test_transforms.py) do not reach (ties in max/min,
pow at 0, NaN, abs at 0, clamp at its bounds, rem), higher derivatives (grad(grad),
hessian), linear transposes with rank-0/size-1 broadcasting, vmap of comparisons and
select_n/clamp with batched and unbatched operands, and the same under jit.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose
from xnp import lax

F64 = np.float64


def _both(f):
    """``f`` eagerly and under jit."""
    return [f, xnp.jit(f)]


def _np(x):
    return np.asarray(x)


# --------------------------------------------------------------------------- jvp edge cases


@pytest.mark.parametrize("jit", [False, True])
def test_max_min_ties_split_tangent(jit):
    def f(x, y):
        return lax.max(x, y), lax.min(x, y)

    f = xnp.jit(f) if jit else f
    x = np.array([1.0, 2.0, 3.0])
    y = np.array([1.0, 0.0, 5.0])
    _, (tmax, tmin) = xnp.jvp(f, (x, y), (np.ones(3), np.zeros(3)))
    assert_allclose(_np(tmax), np.array([0.5, 1.0, 0.0]))
    assert_allclose(_np(tmin), np.array([0.5, 0.0, 1.0]))
    gx, gy = xnp.grad(lambda a, b: xnp.sum(lax.max(a, b)), argnums=(0, 1))(x, y)
    assert_allclose(_np(gx) + _np(gy), np.ones(3))
    assert_allclose(_np(gx), np.array([0.5, 1.0, 0.0]))


@pytest.mark.parametrize("f", _both(lambda x: lax.pow(x, np.array(2.5))))
def test_pow_at_zero_base(f):
    assert float(xnp.grad(f)(0.0)) == 0.0
    assert_allclose(_np(xnp.grad(f)(2.0)), 2.5 * 2.0**1.5)


def test_pow_zero_exponent_and_exponent_derivative():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 0 ** -1 computed, then masked
        gx = xnp.grad(lambda x: lax.pow(x, np.array(0.0)))(0.0)
    assert float(gx) == 0.0  # d/dx x**0 = 0, not NaN
    gy = xnp.grad(lambda y: lax.pow(np.array(0.0), y))(2.0)
    assert float(gy) == 0.0  # d/dy 0**y = 0 (log(0) replaced)
    gy = xnp.grad(lambda y: lax.pow(np.array(3.0), y))(2.0)
    assert_allclose(_np(gy), np.log(3.0) * 9.0)


def test_abs_rem_sign_floor():
    assert float(xnp.grad(lax.abs)(-2.0)) == -1.0
    assert float(xnp.grad(lax.abs)(0.0)) == 1.0  # JAX's convention
    for f in (lax.sign, lax.floor, lax.ceil, lax.round):
        assert float(xnp.grad(f)(1.3)) == 0.0
    gx, gy = xnp.grad(lambda x, y: lax.rem(x, y), argnums=(0, 1))(7.5, -2.0)
    assert float(gx) == 1.0
    assert float(gy) == 3.0  # -trunc(7.5 / -2) = 3


def test_abs_complex_jvp():
    z = np.array([3.0 + 4.0j, 0.0j])
    t = np.array([1.0 + 2.0j, 1.0 + 0.0j])
    _, tout = xnp.jvp(lax.abs, (z,), (t,))
    assert_allclose(_np(tout), np.array([(3 * 1 + 4 * 2) / 5.0, 0.0]))


def test_clamp_jvp_bounds():
    lo, hi = np.array(0.0), np.array(1.0)
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0])
    for f in _both(lambda x: lax.clamp(lo, x, hi)):
        _, t = xnp.jvp(f, (x,), (np.ones(5),))
        assert_allclose(_np(t), np.array([0.0, 0.0, 1.0, 0.0, 0.0]))  # strict, as JAX
    glo, ghi = xnp.grad(lambda a, b: xnp.sum(lax.clamp(a, x, b)), argnums=(0, 1))(lo, hi)
    assert float(glo) == 1.0 and float(ghi) == 1.0
    # lo > hi: the result is hi for every x (XLA's min(max(x, lo), hi)), so hi gets it all
    g = xnp.grad(lambda a, v, b: lax.clamp(a, v, b), argnums=(0, 1, 2))(2.0, -1.0, 1.0)
    assert [float(v) for v in g] == [0.0, 0.0, 1.0]


def test_nan_propagates_in_tangent():
    _, t = xnp.jvp(lax.sin, (np.array([np.nan, 1.0]),), (np.ones(2),))
    assert np.isnan(_np(t)[0]) and np.isfinite(_np(t)[1])


def test_non_differentiable_give_zero_tangents():
    x = np.array([1.0, -2.0])
    for f in (lambda v: lax.gt(v, np.array(0.0)), lax.is_finite):
        _, t = xnp.jvp(f, (x,), (np.ones(2),))
        assert not np.any(_np(t))
    g = xnp.grad(lambda v: xnp.sum(lax.select(lax.gt(v, np.array(0.0)), v * v, -v)))(x)
    assert_allclose(_np(g), np.array([2.0, -1.0]))


def test_convert_element_type_jvp():
    x = np.array([1.5, -2.0])
    _, t = xnp.jvp(lambda v: lax.convert_element_type(v, np.float32), (x,), (np.ones(2),))
    assert _np(t).dtype == np.float32
    _, t = xnp.jvp(lambda v: lax.convert_element_type(v, np.int32), (x,), (np.ones(2),))
    assert not np.any(_np(t))
    g = xnp.grad(lambda v: xnp.sum(lax.convert_element_type(v, np.float32) * 3))(x)
    assert_allclose(_np(g), np.full(2, 3.0))


@pytest.mark.parametrize("name,f,df", [
    ("exp2", lax.exp2, lambda x: np.log(2) * 2**x),
    ("cbrt", lax.cbrt, lambda x: np.cbrt(x) ** -2 / 3),
    ("rsqrt", lax.rsqrt, lambda x: -0.5 * x**-1.5),
    ("logistic", lax.logistic, lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    ("acosh", lax.acosh, lambda x: 1 / np.sqrt(x * x - 1)),
    ("atanh", lambda x: lax.atanh(x / 4), lambda x: 0.25 / (1 - (x / 4) ** 2)),
])
def test_unary_derivatives(name, f, df):
    x = np.array([1.5, 2.0, 3.0])
    for g in _both(xnp.vmap(xnp.grad(f))):
        assert_allclose(_np(g(x)), df(x))


def test_atan2_both_operands():
    gx, gy = xnp.grad(lax.atan2, argnums=(0, 1))(1.0, 2.0)
    assert_allclose(_np(gx), 2.0 / 5.0)
    assert_allclose(_np(gy), -1.0 / 5.0)


# --------------------------------------------------------------------------- higher order


@pytest.mark.parametrize("jit", [False, True])
def test_grad_grad_sin(jit):
    g2 = xnp.grad(xnp.grad(lax.sin))
    g2 = xnp.jit(g2) if jit else g2
    assert_allclose(_np(g2(0.7)), -np.sin(0.7))
    g3 = xnp.grad(xnp.grad(xnp.grad(lax.sin)))
    assert_allclose(_np(g3(0.7)), -np.cos(0.7))


def test_hessian_of_polynomial():
    def p(v):  # x0^3 + 2 x0 x1 + x1^2 / 2
        x0, x1 = v[0], v[1]
        return x0 * x0 * x0 + 2.0 * x0 * x1 + 0.5 * x1 * x1

    v = np.array([1.5, -0.5])
    expected = np.array([[6 * 1.5, 2.0], [2.0, 1.0]])
    for h in _both(xnp.hessian(p)):
        assert_allclose(_np(h(v)), expected)


def test_grad_grad_integer_pow_and_div():
    f = lambda x: lax.integer_pow(x, 4) / 2.0  # noqa: E731
    assert_allclose(_np(xnp.grad(xnp.grad(f))(1.5)), 6 * 1.5**2)
    assert_allclose(_np(xnp.grad(xnp.grad(lambda x: 1.0 / x))(2.0)), 2 / 8.0)


# --------------------------------------------------------------------------- transposes


def test_transpose_unbroadcasts_rank0_and_size1():
    x = np.array(2.0)
    y = np.arange(6.0).reshape(2, 3)
    z = np.ones((2, 1))
    for op in (lax.add, lax.sub, lax.mul):
        g = xnp.grad(lambda a, b: xnp.sum(op(a, b)), argnums=(0, 1))
        gx, gy = g(x, y)
        assert _np(gx).shape == () and _np(gy).shape == (2, 3)
        gz, gy = g(z, y)
        assert _np(gz).shape == (2, 1)
    _, vjp = xnp.vjp(lambda a: lax.div(a, y + 1), z)
    (ct,) = vjp(np.ones((2, 3)))
    assert_allclose(_np(ct), (1 / (y + 1)).sum(1, keepdims=True))


def test_select_n_transpose_routes_cotangent():
    which = np.array([0, 2, 1, 2], np.int32)
    a, b, c = (np.full(4, v) for v in (1.0, 2.0, 3.0))
    _, vjp = xnp.vjp(lambda a, b, c: lax.select_n(which, a, b, c), a, b, c)
    ca, cb, cc = vjp(np.array([10.0, 20.0, 30.0, 40.0]))
    assert_allclose(_np(ca), np.array([10.0, 0, 0, 0]))
    assert_allclose(_np(cb), np.array([0, 0, 30.0, 0]))
    assert_allclose(_np(cc), np.array([0, 20.0, 0, 40.0]))
    # a rank-0 case gets the sum of its selected cotangents
    g = xnp.grad(lambda s: xnp.sum(lax.select(which > 0, np.ones(4), s)))(np.array(5.0))
    assert float(g) == 1.0


def test_complex_parts_transposes():
    z = np.array([1.0 + 2.0j, -0.5j])

    def f(z):  # a real function of a complex input
        return xnp.sum(lax.real(z) * 3.0 + lax.imag(lax.conj(z)) * 2.0)

    _, vjp = xnp.vjp(f, z)
    (ct,) = vjp(np.array(1.0))
    # JAX's convention: cotangent = df/dRe - 1j df/dIm = 3 - 1j * (-2)
    assert_allclose(_np(ct), np.full(2, 3.0 + 2.0j))
    gx, gy = xnp.grad(lambda x, y: lax.real(lax.complex(x, y) * lax.complex(y, x)),
                      argnums=(0, 1))(1.0, 2.0)
    # Re((x + iy)(y + ix)) = xy - yx = 0
    assert float(gx) == 0.0 and float(gy) == 0.0


# --------------------------------------------------------------------------- batching


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (1, 0), (-1, None)])
def test_vmap_comparisons_and_select(jit, in_axes):
    rng = np.random.default_rng(0)

    def make(ax):  # per-example shape (4,), batch of 3 on axis `ax`
        if ax is None:
            return rng.standard_normal(4)
        return np.moveaxis(rng.standard_normal((3, 4)), 0, ax)

    xs, ys = make(in_axes[0]), make(in_axes[1])
    xs[0] = ys[0] if in_axes == (0, None) else xs[0]  # some ties for eq/ge

    def f(x, y):
        return lax.select(lax.lt(x, y), x, y), lax.eq(x, y), lax.ge(x, y)

    vf = xnp.vmap(f, in_axes=in_axes)
    vf = xnp.jit(vf) if jit else vf
    out = vf(xs, ys)
    ax, ay = in_axes
    for i in range(3):
        xi = xs if ax is None else np.take(xs, i, axis=ax)
        yi = ys if ay is None else np.take(ys, i, axis=ay)
        ref = (np.where(xi < yi, xi, yi), xi == yi, xi >= yi)
        for o, r in zip(out, ref):
            np.testing.assert_array_equal(_np(o)[i], r)


def test_vmap_select_unbatched_which_and_scalar_cases():
    which = np.array([True, False, True])
    xs = np.arange(6.0).reshape(2, 3)
    out = xnp.vmap(lambda x: lax.select(which, x, np.array(-1.0)))(xs)
    np.testing.assert_array_equal(_np(out), np.where(which, xs, -1.0))
    ws = np.array([True, False])
    out = xnp.vmap(lambda w, x: lax.select(w, x, np.zeros(3)))(ws, xs)  # batched scalar which
    np.testing.assert_array_equal(_np(out), np.where(ws[:, None], xs, 0.0))


@pytest.mark.parametrize("in_axes", [(None, 0, None), (0, 0, None), (0, None, 1), (None, 1, 0)])
def test_vmap_clamp(in_axes):
    rng = np.random.default_rng(1)
    shapes = {None: (), 0: (2, 3), 1: (3, 2)}
    lo = rng.standard_normal(shapes[in_axes[0]]) - 1
    x = rng.standard_normal(shapes[in_axes[1]] if in_axes[1] is not None else (3,))
    hi = rng.standard_normal(shapes[in_axes[2]]) + 1
    out = xnp.vmap(lax.clamp, in_axes=in_axes)(lo, x, hi)
    for i in range(2):
        args = [a if d is None else np.take(a, i, axis=d)
                for a, d in zip((lo, x, hi), in_axes)]
        np.testing.assert_allclose(_np(out)[i], np.clip(args[1], args[0], args[2]))


def test_vmap_unary_integer_pow_convert_bitcast_round():
    xs = np.array([[1.5, -2.5], [0.5, 3.0]])
    for f, ref in [
        (lambda v: lax.integer_pow(v, 3), xs**3),
        (lambda v: lax.round(v, 1), np.rint(xs)),
        (lambda v: lax.convert_element_type(v, np.float32), xs.astype(np.float32)),
        (lambda v: lax.bitcast_convert_type(v, np.int64), xs.view(np.int64)),
        (lambda v: lax.shift_left(lax.convert_element_type(v, np.int32), np.array(1, np.int32)),
         xs.astype(np.int32) << 1),
    ]:
        for g in _both(xnp.vmap(f, in_axes=1, out_axes=1)):
            np.testing.assert_array_equal(_np(g(xs)), ref)


def test_vmap_of_grad_and_grad_of_vmap():
    xs = np.array([0.3, 1.0, 2.0])
    g = xnp.vmap(xnp.grad(lambda x: lax.tanh(x) * lax.exp(x)))
    ref = (1 - np.tanh(xs) ** 2) * np.exp(xs) + np.tanh(xs) * np.exp(xs)
    for h in _both(g):
        assert_allclose(_np(h(xs)), ref)
    g2 = xnp.grad(lambda v: xnp.sum(xnp.vmap(lax.log1p)(v)))
    assert_allclose(_np(g2(xs)), 1 / (1 + xs))
