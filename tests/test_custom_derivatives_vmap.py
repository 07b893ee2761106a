"""xnp.custom_jvp / xnp.custom_vjp under xnp.vmap: the batched call keeps the user's rule,
so derivatives taken outside the vmap (grad, jvp, linearize, jacfwd), inside it
(vmap(grad)), under jit, through nested vmaps and through scan/cond bodies use the rule.

Rules are deliberately different from the body's derivative (2x the tangent, clipped
cotangents, 3x the cotangent) so that differentiating the body instead would fail.
Oracles: the intended derivative in closed form / by central differences, loops over
the batch, and the rule applied per example without vmap."""

from functools import partial

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference
from tests.test_custom_derivatives import log1pexp  # body's derivative is NaN at large x
from xnp import lax

RNG = np.random.default_rng(0)


# ----------------------------------------------------------------------------- functions


@xnp.custom_jvp
def double_sin(x):
    """sin(x), with a jvp rule giving 2x the true tangent."""
    return xnp.sin(x)


@double_sin.defjvp
def _double_sin_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return double_sin(x), 2.0 * xnp.cos(x) * t


@xnp.custom_vjp
def clip_gradient(x):
    return x * 1.0


clip_gradient.defvjp(lambda x: (x * 1.0, None), lambda _, ct: (xnp.clip(ct, -1.0, 1.0),))

RES_SHAPES = []


@xnp.custom_vjp
def scaled_affine(x, w):
    """sum(sin(x) * w) with a bwd giving 3x the true cotangents; x per example, w shared."""
    return xnp.sum(xnp.sin(x) * w)


def _scaled_affine_fwd(x, w):
    # residuals: x (batched under vmap over x), w (unbatched), a constant (unbatched)
    return scaled_affine(x, w), (x, w, xnp.asarray(3.0))


def _scaled_affine_bwd(res, ct):
    x, w, k = res
    RES_SHAPES.append((x.shape, w.shape, k.shape, ct.shape))
    return k * ct * xnp.cos(x) * w, k * ct * xnp.sin(x)


scaled_affine.defvjp(_scaled_affine_fwd, _scaled_affine_bwd)


def _sum_of(f, **vmap_kw):
    return lambda *a: xnp.sum(xnp.vmap(f, **vmap_kw)(*a))


def _np(x):
    return np.asarray(x)


# ----------------------------------------------------------------------------- custom_jvp


@pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])
def test_grad_outside_vmap_uses_the_jvp_rule(wrap):
    x = RNG.normal(size=(5,))
    g = wrap(xnp.grad(_sum_of(double_sin)))(xnp.asarray(x))
    np.testing.assert_allclose(_np(g), 2.0 * np.cos(x), rtol=1e-13)
    per_example = [float(xnp.grad(double_sin)(xnp.asarray(v))) for v in x]
    np.testing.assert_allclose(_np(g), per_example, rtol=1e-13)
    np.testing.assert_allclose(_np(wrap(xnp.vmap(double_sin))(xnp.asarray(x))), np.sin(x),
                               rtol=1e-13)
    for inner in (xnp.jit(xnp.vmap(double_sin)), xnp.vmap(xnp.jit(double_sin))):
        gj = xnp.grad(lambda v: xnp.sum(inner(v)))(xnp.asarray(x))  # noqa: B023
        np.testing.assert_allclose(_np(gj), 2.0 * np.cos(x), rtol=1e-13)


@pytest.mark.parametrize("in_axes", [0, 1, -1, -2])
def test_in_axes_of_a_matrix(in_axes):
    x = RNG.normal(size=(3, 4))
    f = xnp.vmap(double_sin, in_axes=in_axes, out_axes=in_axes)
    np.testing.assert_allclose(_np(f(xnp.asarray(x))), np.sin(x), rtol=1e-13)
    for g in (xnp.grad(lambda v: xnp.sum(f(v) * xnp.asarray(x))),
              xnp.jit(xnp.grad(lambda v: xnp.sum(f(v) * xnp.asarray(x))))):
        np.testing.assert_allclose(_np(g(xnp.asarray(x))), 2.0 * np.cos(x) * x, rtol=1e-13)


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning", "ignore:invalid:RuntimeWarning")
def test_log1pexp_grad_through_vmap_is_finite_where_the_body_gives_nan():
    x = np.array([-30.0, 0.0, 2.5, 40.0, 800.0])
    sigmoid = 1.0 / (1.0 + np.exp(-x))
    rule = 1.0 - 1.0 / (1.0 + np.exp(x))  # the rule's formula per example, in NumPy
    for g in (xnp.grad(_sum_of(log1pexp)), xnp.jit(xnp.grad(_sum_of(log1pexp))),
              xnp.vmap(xnp.grad(log1pexp)), xnp.jit(xnp.vmap(xnp.grad(log1pexp)))):
        np.testing.assert_allclose(_np(g(xnp.asarray(x))), rule, rtol=1e-13)
        np.testing.assert_allclose(_np(g(xnp.asarray(x))), sigmoid, rtol=1e-12, atol=1e-15)
    body = xnp.grad(lambda v: xnp.sum(xnp.vmap(log1pexp.fun)(v)))(xnp.asarray(x))
    assert np.isnan(_np(body)[-1])  # what the rule avoids
    xm = x[:4]
    fd = central_difference(_sum_of(log1pexp), xm, np.ones_like(xm))
    np.testing.assert_allclose(np.sum(sigmoid[:4]), fd, rtol=1e-7)
    # second order differentiates the rule (through the batched rule, outside and inside)
    xs = np.linspace(-3.0, 3.0, 5)
    s = 1.0 / (1.0 + np.exp(-xs))
    for h in (xnp.grad(_sum_of(xnp.grad(log1pexp))),
              xnp.grad(lambda v: xnp.sum(xnp.grad(_sum_of(log1pexp))(v)))):
        np.testing.assert_allclose(_np(h(xnp.asarray(xs))), s * (1.0 - s), rtol=1e-12)


def test_vmap_of_grad_uses_the_rule():
    x = RNG.normal(size=(4,))
    for g in (xnp.vmap(xnp.grad(double_sin)), xnp.jit(xnp.vmap(xnp.grad(double_sin))),
              xnp.vmap(xnp.jit(xnp.grad(double_sin)))):
        np.testing.assert_allclose(_np(g(xnp.asarray(x))), 2.0 * np.cos(x), rtol=1e-13)


def test_jvp_linearize_and_jacfwd_through_vmap_use_the_rule():
    x, t = RNG.normal(size=(4,)), RNG.normal(size=(4,))
    f = xnp.vmap(double_sin)
    y, ty = xnp.jvp(f, (xnp.asarray(x),), (xnp.asarray(t),))
    np.testing.assert_allclose(_np(y), np.sin(x), rtol=1e-13)
    np.testing.assert_allclose(_np(ty), 2.0 * np.cos(x) * t, rtol=1e-13)
    y, f_lin = xnp.linearize(f, xnp.asarray(x))
    np.testing.assert_allclose(_np(y), np.sin(x), rtol=1e-13)
    np.testing.assert_allclose(_np(f_lin(xnp.asarray(t))), 2.0 * np.cos(x) * t, rtol=1e-13)
    for jac in (xnp.jacfwd(f), xnp.jacrev(f), xnp.jit(xnp.jacfwd(f))):
        np.testing.assert_allclose(_np(jac(xnp.asarray(x))), np.diag(2.0 * np.cos(x)),
                                   rtol=1e-13)


def test_pytrees_and_mixed_in_axes():
    @xnp.custom_jvp
    def f(d):
        return {"s": d["a"] * d["b"], "t": (xnp.sin(d["a"]),)}

    @f.defjvp
    def f_jvp(primals, tangents):
        (d,), (td,) = primals, tangents
        # deliberately: product rule scaled by 2, sin's tangent scaled by 3
        return f(d), {"s": 2.0 * (td["a"] * d["b"] + d["a"] * td["b"]),
                      "t": (3.0 * xnp.cos(d["a"]) * td["a"],)}

    a, b = RNG.normal(size=(3,)), RNG.normal(size=(2, 3))
    vf = xnp.vmap(f, in_axes=({"a": 0, "b": 1},))

    def loss(d):
        out = vf(d)
        return xnp.sum(out["s"] ** 2) + xnp.sum(out["t"][0])

    d = {"a": xnp.asarray(a), "b": xnp.asarray(b)}
    out = vf(d)
    np.testing.assert_allclose(_np(out["s"]), (a * b).T, rtol=1e-13)
    np.testing.assert_allclose(_np(out["t"][0]), np.sin(a), rtol=1e-13)
    s = a * b  # (2, 3)
    want_a = 2.0 * np.sum(2.0 * s * b, axis=0) + 3.0 * np.cos(a)
    want_b = 2.0 * 2.0 * s * a
    for g in (xnp.grad(loss), xnp.jit(xnp.grad(loss))):
        gd = g(d)
        np.testing.assert_allclose(_np(gd["a"]), want_a, rtol=1e-12)
        np.testing.assert_allclose(_np(gd["b"]), want_b, rtol=1e-12)


def test_unbatched_argument_and_nondiff_argnums():
    @partial(xnp.custom_jvp, nondiff_argnums=(0,))
    def scale(k, x, w):
        return k * x * w

    @scale.defjvp
    def scale_jvp(k, primals, tangents):
        (x, w), (tx, tw) = primals, tangents
        return scale(k, x, w), 2.0 * k * (tx * w + x * tw)  # 2x the true tangent

    x, w = RNG.normal(size=(4, 3)), RNG.normal(size=(3,))
    f = xnp.vmap(lambda v, u: scale(1.5, v, u), in_axes=(0, None))
    np.testing.assert_allclose(_np(f(xnp.asarray(x), xnp.asarray(w))), 1.5 * x * w, rtol=1e-13)
    for g in (xnp.grad(lambda v, u: xnp.sum(f(v, u)), argnums=(0, 1)),
              xnp.jit(xnp.grad(lambda v, u: xnp.sum(f(v, u)), argnums=(0, 1)))):
        gx, gw = g(xnp.asarray(x), xnp.asarray(w))
        np.testing.assert_allclose(_np(gx), np.broadcast_to(3.0 * w, x.shape), rtol=1e-13)
        np.testing.assert_allclose(_np(gw), 3.0 * x.sum(0), rtol=1e-13)
    # only w differentiated: x's tangent is a symbolic zero inside the batched rule
    gw = xnp.grad(lambda u: xnp.sum(f(xnp.asarray(x), u)))(xnp.asarray(w))
    np.testing.assert_allclose(_np(gw), 3.0 * x.sum(0), rtol=1e-13)


def test_integer_arguments_get_zero_tangents_and_cotangents():
    @xnp.custom_jvp
    def fj(x, n):
        return x * n

    @fj.defjvp
    def fj_jvp(primals, tangents):
        (x, n), (tx, _) = primals, tangents
        return fj(x, n), 2.0 * tx * n

    @xnp.custom_vjp
    def fv(x, n):
        return x * n

    fv.defvjp(lambda x, n: (fv(x, n), n), lambda n, ct: (3.0 * ct * n, xnp.zeros_like(n)))
    x, n = RNG.normal(size=(5,)), np.arange(5)
    for f, k in ((fj, 2.0), (fv, 3.0)):
        g = xnp.grad(lambda v: xnp.sum(xnp.vmap(f)(v, xnp.asarray(n))))  # noqa: B023
        for fn in (g, xnp.jit(g)):
            np.testing.assert_allclose(_np(fn(xnp.asarray(x))), k * n, rtol=1e-13)


def test_nested_vmap_custom_jvp():
    x = RNG.normal(size=(2, 3, 4))
    f = xnp.vmap(xnp.vmap(double_sin, in_axes=1, out_axes=1), in_axes=-1, out_axes=-1)
    np.testing.assert_allclose(_np(f(xnp.asarray(x))), np.sin(x), rtol=1e-13)
    for g in (xnp.grad(lambda v: xnp.sum(f(v))), xnp.jit(xnp.grad(lambda v: xnp.sum(f(v))))):
        np.testing.assert_allclose(_np(g(xnp.asarray(x))), 2.0 * np.cos(x), rtol=1e-13)


# ----------------------------------------------------------------------------- custom_vjp


@pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])
def test_clip_gradient_through_vmap(wrap):
    x = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
    loss = lambda v: xnp.sum(5.0 * xnp.vmap(clip_gradient, in_axes=1)(v))  # noqa: E731
    np.testing.assert_allclose(_np(wrap(xnp.grad(loss))(xnp.asarray(x))), np.ones_like(x))
    np.testing.assert_allclose(_np(wrap(xnp.vmap(clip_gradient))(xnp.asarray(x))), x)
    per_ex = xnp.vmap(xnp.grad(lambda v: 5.0 * clip_gradient(v)))
    np.testing.assert_allclose(_np(wrap(per_ex)(xnp.asarray(x.ravel()))), np.ones(6))


@pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])
@pytest.mark.parametrize("x_axis", [0, 1, -1])
def test_batched_and_unbatched_residuals(wrap, x_axis):
    x, w = RNG.normal(size=(3, 4)), RNG.normal(size=(3,))
    xs = np.moveaxis(x, 1, x_axis)  # batch of 4 examples of shape (3,), batch axis x_axis
    f = xnp.vmap(scaled_affine, in_axes=(x_axis, None))
    np.testing.assert_allclose(_np(f(xnp.asarray(xs), xnp.asarray(w))),
                               np.sin(x.T) @ w, rtol=1e-13)
    loss = lambda v, u: xnp.sum(f(v, u) * xnp.arange(1.0, 5.0))  # noqa: E731
    RES_SHAPES.clear()
    gx, gw = wrap(xnp.grad(loss, argnums=(0, 1)))(xnp.asarray(xs), xnp.asarray(w))
    # bwd sees one example's residuals: x (3,), the shared w (3,), the constant ()
    assert RES_SHAPES and set(RES_SHAPES) == {((3,), (3,), (), ())}
    c = np.arange(1.0, 5.0)
    np.testing.assert_allclose(_np(gx), np.moveaxis(3.0 * c * np.cos(x) * w[:, None], 1,
                                                   x_axis), rtol=1e-13)
    np.testing.assert_allclose(_np(gw), 3.0 * np.sin(x) @ c, rtol=1e-13)
    # oracle: the rule per example, without vmap
    per = [xnp.grad(scaled_affine, argnums=(0, 1))(xnp.asarray(x[:, i]), xnp.asarray(w))
           for i in range(4)]
    np.testing.assert_allclose(_np(gw), sum(c[i] * _np(p[1]) for i, p in enumerate(per)),
                               rtol=1e-13)


def test_vmap_of_grad_custom_vjp_with_unbatched_argument():
    x, w = RNG.normal(size=(4, 3)), RNG.normal(size=(3,))
    g = xnp.vmap(xnp.grad(scaled_affine, argnums=(0, 1)), in_axes=(0, None))
    for fn in (g, xnp.jit(g)):
        gx, gw = fn(xnp.asarray(x), xnp.asarray(w))
        np.testing.assert_allclose(_np(gx), 3.0 * np.cos(x) * w, rtol=1e-13)
        np.testing.assert_allclose(_np(gw), 3.0 * np.sin(x), rtol=1e-13)


def test_custom_vjp_pytrees_symbolic_zero_cotangents_and_nondiff_argnums():
    @partial(xnp.custom_vjp, nondiff_argnums=(1,))
    def f(d, k):
        return xnp.sin(d["x"]) * k, d["x"] * d["y"]

    def fwd(d, k):
        return f(d, k), d

    def bwd(k, d, cts):
        c1, c2 = cts
        return ({"x": 2.0 * (c1 * k * xnp.cos(d["x"]) + c2 * d["y"]), "y": 2.0 * c2 * d["x"]},)

    f.defvjp(fwd, bwd)
    x, y = RNG.normal(size=(4, 2)), RNG.normal(size=(2,))
    vf = xnp.vmap(lambda d: f(d, 3.0), in_axes=({"x": 0, "y": None},))
    d = {"x": xnp.asarray(x), "y": xnp.asarray(y)}
    a, b = vf(d)
    np.testing.assert_allclose(_np(a), 3.0 * np.sin(x), rtol=1e-13)
    np.testing.assert_allclose(_np(b), x * y, rtol=1e-13)
    # only the first output is used: the second's cotangent is a symbolic zero
    for g in (xnp.grad(lambda dd: xnp.sum(vf(dd)[0])),
              xnp.jit(xnp.grad(lambda dd: xnp.sum(vf(dd)[0])))):
        gd = g(d)
        np.testing.assert_allclose(_np(gd["x"]), 6.0 * np.cos(x), rtol=1e-13)
        np.testing.assert_allclose(_np(gd["y"]), np.zeros(2), atol=0)
    gd = xnp.grad(lambda dd: xnp.sum(vf(dd)[1]))(d)
    np.testing.assert_allclose(_np(gd["x"]), 2.0 * np.broadcast_to(y, x.shape), rtol=1e-13)
    np.testing.assert_allclose(_np(gd["y"]), 2.0 * x.sum(0), rtol=1e-13)


def test_vjp_and_jacrev_through_vmap_of_custom_vjp():
    x, w = RNG.normal(size=(4, 3)), RNG.normal(size=(3,))
    f = xnp.vmap(scaled_affine, in_axes=(0, None))
    y, pull = xnp.vjp(f, xnp.asarray(x), xnp.asarray(w))
    c = RNG.normal(size=(4,))
    gx, gw = pull(xnp.asarray(c))
    np.testing.assert_allclose(_np(gx), 3.0 * c[:, None] * np.cos(x) * w, rtol=1e-13)
    np.testing.assert_allclose(_np(gw), 3.0 * c @ np.sin(x), rtol=1e-13)
    for jac in (xnp.jacrev(f, argnums=1), xnp.jit(xnp.jacrev(f, argnums=1))):
        np.testing.assert_allclose(_np(jac(xnp.asarray(x), xnp.asarray(w))), 3.0 * np.sin(x),
                                   rtol=1e-13)
    g = xnp.grad(lambda v, u: xnp.sum(xnp.jit(f)(v, u)), argnums=1)
    np.testing.assert_allclose(_np(g(xnp.asarray(x), xnp.asarray(w))), 3.0 * np.sin(x).sum(0),
                               rtol=1e-13)


def test_nested_vmap_custom_vjp():
    x, w = RNG.normal(size=(2, 3, 5)), RNG.normal(size=(3,))
    f = xnp.vmap(xnp.vmap(scaled_affine, in_axes=(0, None)), in_axes=(2, None))
    for g in (xnp.grad(lambda v, u: xnp.sum(f(v, u)), argnums=(0, 1)),
              xnp.jit(xnp.grad(lambda v, u: xnp.sum(f(v, u)), argnums=(0, 1)))):
        gx, gw = g(xnp.asarray(x), xnp.asarray(w))
        np.testing.assert_allclose(_np(gx), 3.0 * np.cos(x) * w[None, :, None], rtol=1e-13)
        np.testing.assert_allclose(_np(gw), 3.0 * np.sin(x).sum((0, 2)), rtol=1e-13)


def test_forward_mode_of_custom_vjp_under_vmap_is_a_clear_error():
    with pytest.raises(TypeError, match="forward-mode"):
        xnp.jvp(xnp.vmap(clip_gradient), (xnp.ones(3),), (xnp.ones(3),))


# ----------------------------------------------------------------------------- control flow


def test_custom_functions_in_scan_and_cond_bodies_under_vmap():
    def scan_fn(v):
        def body(c, xi):
            return c + double_sin(xi) + 5.0 * clip_gradient(xi), None
        return lax.scan(body, 0.0, v)[0]

    def cond_fn(v):
        return lax.cond(v[0] > 0, lambda u: xnp.sum(double_sin(u)),
                        lambda u: xnp.sum(5.0 * clip_gradient(u)), v)

    x = RNG.normal(size=(3, 4))
    x[1, 0] = -abs(x[1, 0])
    x[0, 0] = abs(x[0, 0])
    want_scan = 2.0 * np.cos(x) + 1.0  # clip(5) = 1
    want_cond = np.where(x[:, :1] > 0, 2.0 * np.cos(x), 1.0)
    for fn, want in ((scan_fn, want_scan), (cond_fn, want_cond)):
        loop = np.stack([_np(xnp.grad(fn)(xnp.asarray(r))) for r in x])
        np.testing.assert_allclose(loop, want, rtol=1e-13)
        for g in (xnp.grad(_sum_of(fn)), xnp.jit(xnp.grad(_sum_of(fn))),
                  xnp.vmap(xnp.grad(fn))):
            np.testing.assert_allclose(_np(g(xnp.asarray(x))), want, rtol=1e-13)
