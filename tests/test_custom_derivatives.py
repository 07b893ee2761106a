"""xnp.custom_jvp / xnp.custom_vjp: the user's rule is used (not the body's derivative),
eagerly and under jit, in forward and reverse mode; values against NumPy and
derivatives against finite differences."""

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference


@xnp.custom_jvp
def log1pexp(x):
    return xnp.log(1.0 + xnp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * (1.0 - 1.0 / (1.0 + xnp.exp(x)))  # stable sigmoid form


def test_custom_jvp_values_and_derivatives_match_finite_differences():
    x = np.array([-3.0, 0.0, 0.7, 4.0])
    np.testing.assert_allclose(np.asarray(log1pexp(xnp.asarray(x))), np.log1p(np.exp(x)),
                               rtol=1e-13)
    fd = central_difference(lambda v: xnp.sum(log1pexp(v)), x, np.ones_like(x))
    for g in (xnp.grad(lambda v: xnp.sum(log1pexp(v))),
              xnp.jit(xnp.grad(lambda v: xnp.sum(log1pexp(v))))):
        np.testing.assert_allclose(np.sum(np.asarray(g(xnp.asarray(x)))), fd, rtol=1e-7)
    _, t = xnp.jvp(log1pexp, (xnp.asarray(x),), (xnp.ones(4),))
    np.testing.assert_allclose(np.asarray(t), 1.0 / (1.0 + np.exp(-x)), rtol=1e-13)


def test_custom_jvp_rule_is_used_instead_of_the_body():
    @xnp.custom_jvp
    def f(x):
        return xnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), 2.0 * t

    x = xnp.asarray(0.3)
    assert float(f(x)) == pytest.approx(np.sin(0.3))
    assert float(xnp.grad(f)(x)) == 2.0
    assert float(xnp.jit(xnp.grad(f))(x)) == 2.0
    assert float(xnp.grad(xnp.jit(f))(x)) == 2.0
    np.testing.assert_allclose(np.asarray(xnp.vmap(f)(xnp.asarray([0.1, 0.2]))),
                               np.sin([0.1, 0.2]), rtol=1e-13)
    assert "custom_jvp_call" in str(xnp.make_jaxpr(f)(x))


def test_custom_jvp_nondiff_argnums():
    from functools import partial

    @partial(xnp.custom_jvp, nondiff_argnums=(0,))
    def scaled(k, x):
        return k * x

    @scaled.defjvp
    def scaled_jvp(k, primals, tangents):
        (x,), (t,) = primals, tangents
        return scaled(k, x), k * t

    assert float(xnp.grad(lambda x: scaled(3.0, x))(2.0)) == 3.0


def test_custom_vjp_rule_in_reverse_mode_and_error_in_forward_mode():
    @xnp.custom_vjp
    def clip_gradient(x):
        return x * 1.0

    def fwd(x):
        return x * 1.0, None

    def bwd(_, ct):
        return (xnp.clip(ct, -1.0, 1.0),)

    clip_gradient.defvjp(fwd, bwd)
    x = xnp.asarray([1.0, 2.0])
    g = xnp.grad(lambda v: xnp.sum(5.0 * clip_gradient(v)))(x)
    np.testing.assert_allclose(np.asarray(g), [1.0, 1.0])
    gj = xnp.jit(xnp.grad(lambda v: xnp.sum(5.0 * clip_gradient(v))))(x)
    np.testing.assert_allclose(np.asarray(gj), [1.0, 1.0])
    np.testing.assert_allclose(np.asarray(xnp.jit(clip_gradient)(x)), [1.0, 2.0])
    with pytest.raises(TypeError, match="forward-mode"):
        xnp.jvp(clip_gradient, (x,), (xnp.ones(2),))


def test_custom_vjp_matches_finite_differences_with_two_arguments():
    @xnp.custom_vjp
    def f(x, y):
        return xnp.sum(xnp.sin(x) * y)

    def fwd(x, y):
        return f(x, y), (x, y)

    def bwd(res, ct):
        x, y = res
        return ct * xnp.cos(x) * y, ct * xnp.sin(x)

    f.defvjp(fwd, bwd)
    x, y = np.array([0.2, 1.1]), np.array([2.0, -0.5])
    gx, gy = xnp.grad(f, argnums=(0, 1))(xnp.asarray(x), xnp.asarray(y))
    np.testing.assert_allclose(np.asarray(gx), np.cos(x) * y, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(gy), np.sin(x), rtol=1e-13)


def test_missing_rule_is_a_clear_error():
    f = xnp.custom_jvp(lambda x: x)
    with pytest.raises(TypeError, match="defjvp"):
        f(1.0)
    g = xnp.custom_vjp(lambda x: x)
    with pytest.raises(TypeError, match="defvjp"):
        g(1.0)
