"""Transformation rules of ``conv_general_dilated``: jvp vs central finite differences
(float64), vjp vs jvp through <u, J v> = <J^T u, v> in each operand, vmap vs a loop over
slices with lhs, rhs or both batched (several batch-axis positions, incl. negative), each
eagerly and under jit. Configurations cover strides, lhs/rhs dilation, positive and
negative padding, feature and batch groups, non-default dimension numbers and 1-3
spatial dims; values are checked against the op table's loop reference. Also: string
dimension numbers resolve as JAX's, and the jaxpr text of the primitive.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, covering_sample
from tests.lax.ops_convolution import conv_reference
from xnp import lax

H = 1e-6
B = 3

# name: (lhs shape, rhs shape, params)
CASES = {
    "1d-plain": ((2, 3, 7), (4, 3, 3), dict(window_strides=(1,), padding=((0, 0),))),
    "1d-stride-pad": ((2, 2, 9), (3, 2, 2), dict(window_strides=(2,), padding=((2, 1),))),
    "1d-negative-pad": ((1, 2, 8), (2, 2, 3),
                        dict(window_strides=(2,), padding=((-1, -2),), rhs_dilation=(2,))),
    "2d-all": ((2, 2, 6, 5), (3, 2, 2, 3),
               dict(window_strides=(2, 1), padding=((1, 2), (0, -1)), lhs_dilation=(2, 1),
                    rhs_dilation=(1, 2))),
    "2d-stride-remainder": ((1, 2, 7, 6), (2, 2, 3, 2),
                            dict(window_strides=(3, 2), padding=((0, 0), (1, 0)))),
    "2d-feature-groups": ((2, 6, 5, 5), (4, 3, 3, 2),
                          dict(window_strides=(1, 2), padding=((1, 1), (0, 1)),
                               feature_group_count=2, rhs_dilation=(2, 1))),
    "2d-depthwise-nhwc": ((2, 5, 4, 3), (3, 2, 1, 6),
                          dict(window_strides=(1, 1), padding="SAME", feature_group_count=3,
                               dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "2d-batch-groups": ((4, 3, 5, 4), (6, 3, 2, 2),
                        dict(window_strides=(2, 1), padding=((1, 0), (0, 1)),
                             batch_group_count=2, lhs_dilation=(1, 2))),
    "2d-batch-groups-mixed-dn": ((3, 4, 2, 6), (3, 2, 2, 2),
                                 dict(window_strides=(1, 1), padding=((0, 1), (1, 0)),
                                      batch_group_count=3,
                                      dimension_numbers=("HWCN", "OIHW", "CNHW"))),
    "3d": ((1, 2, 4, 3, 4), (2, 2, 2, 2, 2),
           dict(window_strides=(1, 2, 1), padding=((1, 0), (0, 1), (1, 1)),
                rhs_dilation=(1, 1, 2))),
    "window-too-large": ((2, 2, 3), (2, 2, 5), dict(window_strides=(1,), padding=((0, 0),))),
}
IDS = list(CASES)


def _conv(params):
    return lambda x, w: lax.conv_general_dilated(x, w, **params)


def _rng(*parts):
    return np.random.default_rng(abs(hash(parts)) % 2**32)


def _args(name):
    ls, rs, _ = CASES[name]
    rng = _rng(name)
    return rng.standard_normal(ls), rng.standard_normal(rs)


def _setup(name, seed):
    """The conv of case ``name``, its operands and random tangents (seeded by ``seed``)."""
    f = _conv(CASES[name][2])
    x, w = _args(name)
    rng = _rng(seed, name)
    return f, x, w, rng, rng.standard_normal(x.shape), rng.standard_normal(w.shape)


def _reference(x, w, params):
    dn = lax.conv_dimension_numbers(x.shape, w.shape, params.get("dimension_numbers"))
    nsp = x.ndim - 2
    return conv_reference(x, w, params["window_strides"], params["padding"],
                          params.get("lhs_dilation", (1,) * nsp),
                          params.get("rhs_dilation", (1,) * nsp), dn,
                          params.get("feature_group_count", 1),
                          params.get("batch_group_count", 1))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", IDS)
def test_jvp_matches_finite_differences(name, jit):
    f, x, w, _, tx, tw = _setup(name, "t")
    g = lambda p, t: xnp.jvp(f, p, t)  # noqa: E731
    out, tan = (xnp.jit(g) if jit else g)((x, w), (tx, tw))
    assert_allclose(out, _reference(x, w, CASES[name][2]), kind="reduction")
    fd = (np.asarray(f(x + H * tx, w + H * tw)) - np.asarray(f(x - H * tx, w - H * tw))) / (2 * H)
    tan = np.asarray(tan)
    assert tan.shape == fd.shape
    np.testing.assert_allclose(tan, fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", IDS)
def test_vjp_is_adjoint_of_jvp(name, jit):
    """<u, J v> = <J^T u, v> separately for the lhs and the rhs directions."""
    f, x, w, rng, tx, tw = _setup(name, "v")
    out = np.asarray(f(x, w))
    u = rng.standard_normal(out.shape)

    def pullback(x, w, u):
        return xnp.vjp(f, x, w)[1](u)

    ct_x, ct_w = (xnp.jit(pullback) if jit else pullback)(x, w, u)
    assert np.shape(ct_x) == x.shape and np.shape(ct_w) == w.shape
    jv_x = np.asarray(f(tx, w))  # bilinear: J_x v = conv(v, w), J_w v = conv(x, v)
    jv_w = np.asarray(f(x, tw))
    for jv, ct, t in ((jv_x, ct_x, tx), (jv_w, ct_w, tw)):
        lhs, rhs = float(np.sum(u * jv)), float(np.sum(np.asarray(ct) * t))
        assert abs(lhs - rhs) <= 1e-10 * (1 + abs(lhs)), (lhs, rhs)


def _vmap_cases():
    """Eagerly every configuration with every in_axes; under jit (a compile each) a sample
    (all with --full-grid): each configuration with the lhs, the rhs and both batched,
    and every in_axes position."""
    cases = [(name, axes) for name in IDS for axes in [
        (0, None), (None, 0), (0, 0), (len(CASES[name][0]), None), (None, -1), (-1, 1)]]
    jitted = covering_sample(cases, n=33, seed=7, labels=lambda c: [
        (c[0], tuple(d is not None for d in c[1])), ("in_axes", c[1])])
    for name, axes in cases:
        for jit in (False, True):
            if not jit or (name, axes) in jitted:
                yield pytest.param(name, axes, jit,
                                   id=f"{name}-{axes}-{'jit' if jit else 'eager'}")


@pytest.mark.parametrize("name,axes,jit", list(_vmap_cases()))
def test_vmap_matches_loop(name, axes, jit):
    params = CASES[name][2]
    f = _conv(params)
    x, w = _args(name)
    rng = _rng("b", name)
    members = [[rng.standard_normal(a.shape) if d is not None else a for a, d in
                zip((x, w), axes)] for _ in range(B)]
    batched = [a if d is None else np.stack([m[i] for m in members], axis=d)
               for i, (a, d) in enumerate(zip((x, w), axes))]
    expected = np.stack([_reference(*m, params) for m in members])
    g = xnp.vmap(f, in_axes=axes)
    assert_allclose(np.asarray((xnp.jit(g) if jit else g)(*batched)), expected,
                    kind="reduction")


def test_vmap_of_grad_and_grad_of_grad():
    params = CASES["2d-feature-groups"][2]
    f = _conv(params)
    x, w = _args("2d-feature-groups")
    xs = np.stack([x, 2 * x])
    loss = lambda x, w: (f(x, w) ** 2).sum()  # noqa: E731
    got = xnp.vmap(xnp.grad(loss, argnums=1), in_axes=(0, None))(xs, w)
    want = np.stack([np.asarray(xnp.grad(loss, argnums=1)(xi, w)) for xi in xs])
    assert_allclose(np.asarray(got), want, kind="reduction")
    # d/dx <grad_w loss, w> is linear in the conv's transpose: check against jvp of the grad
    v = _rng("gg").standard_normal(x.shape)
    h = lambda x: (xnp.grad(loss, argnums=1)(x, w) * w).sum()  # noqa: E731
    hv = float(np.sum(np.asarray(xnp.grad(h)(x)) * v))
    fd = (float(h(x + H * v)) - float(h(x - H * v))) / (2 * H)
    assert abs(hv - fd) <= 1e-5 * (1 + abs(fd)), (hv, fd)


def test_vmap_over_empty_batch():
    f = _conv(CASES["2d-all"][2])
    x, w = _args("2d-all")
    out = xnp.vmap(f, in_axes=(0, None))(np.zeros((0,) + x.shape), w)
    assert np.shape(out) == (0,) + np.shape(f(x, w))


def test_transpose_with_preferred_element_type_keeps_operand_dtypes():
    x = _rng("p").standard_normal((2, 3, 6)).astype(np.float16)
    w = _rng("q").standard_normal((2, 3, 2)).astype(np.float16)
    f = lambda x, w: lax.conv_general_dilated(  # noqa: E731
        x, w, (2,), ((1, 0),), preferred_element_type=np.float32)
    out, vjp_fn = xnp.vjp(f, x, w)
    assert out.dtype == np.float32
    u = np.ones(out.shape, np.float32)
    ct_x, ct_w = vjp_fn(u)
    assert ct_x.dtype == np.float16 and ct_w.dtype == np.float16
    f64 = lambda x, w: lax.conv_general_dilated(x, w, (2,), ((1, 0),))  # noqa: E731
    want_x, want_w = xnp.vjp(f64, x.astype(np.float64), w.astype(np.float64))[1](
        u.astype(np.float64))
    assert_allclose(np.asarray(ct_x), np.asarray(want_x).astype(np.float16), kind="reduction")
    assert_allclose(np.asarray(ct_w), np.asarray(want_w).astype(np.float16), kind="reduction")


def test_conv_dimension_numbers_and_jaxpr_text():
    dn = lax.conv_dimension_numbers((1, 5, 5, 3), (3, 3, 3, 8), ("NHWC", "HWIO", "NHWC"))
    assert dn == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    # the kernel spec orders the spatial dims of all three
    dn = lax.conv_dimension_numbers((1,) * 4, (1,) * 4, ("NCHW", "OIWH", "NWHC"))
    assert dn == lax.ConvDimensionNumbers((0, 1, 3, 2), (0, 1, 2, 3), (0, 3, 1, 2))
    text = str(xnp.make_jaxpr(lambda x, w: lax.conv(x, w, (1,), "VALID"))(
        np.ones((1, 2, 4), np.float32), np.ones((3, 2, 2), np.float32)))
    assert ("c:f32[1,3,3] = conv_general_dilated[\n      batch_group_count=1\n"
            "      dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 1, 2), "
            "rhs_spec=(0, 1, 2), out_spec=(0, 1, 2))\n      feature_group_count=1\n"
            "      lhs_dilation=(1,)\n      padding=((0, 0),)\n      precision=None\n"
            "      preferred_element_type=None\n      rhs_dilation=(1,)\n"
            "      window_strides=(1,)\n    ] a b") in text, text
