"""In-place updates under transformations: ``out=`` an eager array inside jit/grad/vmap
(raises as ``__setitem__`` does), and a jitted function that updates an argument in place
called inside grad, vmap and another jit (against finite differences and NumPy)."""

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference

# --------------------------------------------------------------------------- out= eager array

_TRANSFORMS = {
    "jit": lambda f, x: xnp.jit(f)(x),
    "grad": lambda f, x: xnp.grad(lambda v: f(v).sum())(x),
    "vmap": lambda f, x: xnp.vmap(f)(x[None]),
}


@pytest.mark.parametrize("how", list(_TRANSFORMS))
def test_out_eager_array_inside_transformation_raises_like_setitem(how):
    x = np.linspace(0.1, 1.0, 3)
    out = xnp.zeros(3)

    def by_out(v):
        return xnp.sin(v, out=out)

    def by_setitem(v):
        out[...] = xnp.sin(v)
        return v

    with pytest.raises(NotImplementedError) as by_out_err:
        _TRANSFORMS[how](by_out, x)
    with pytest.raises(NotImplementedError) as setitem_err:
        _TRANSFORMS[how](by_setitem, x)
    # the same message, but for the function's name (vmap's message names it)
    msg = str(by_out_err.value)
    assert msg.replace("(by_out)", "(f)") == str(setitem_err.value).replace("(by_setitem)", "(f)")
    assert f"by {how}" in msg and "a global or a closure" in msg
    assert "again under xnp.jit" not in msg  # the function is never re-run
    np.testing.assert_array_equal(np.asarray(out), np.zeros_like(np.asarray(out)))
    # eagerly out= still writes in place
    res = xnp.sin(xnp.asarray(x), out=xnp.zeros(3))
    np.testing.assert_allclose(np.asarray(res), np.sin(x))


# --------------------------------------------------------------------------- nested in-place jit


@xnp.jit
def _bump(a, b):
    """Updates ``a`` in place and returns a value (``a`` is an extra output)."""
    a[1:] += b[:-1] * 2
    a *= 1.5
    return a.sum()


def _bump_np(a, b):
    a[1:] += b[:-1] * 2
    a *= 1.5
    return a.sum()


def _f(xp, bump, x):
    y = xp.sin(x)
    s = bump(y, x)
    return (y * y).sum() + s


def _g(xp, bump, x):
    """The update goes through a view of an intermediate into its base."""
    y = xp.cos(x)
    v = y[1:4]
    bump(v, x[:3] * x[:3])
    return (y * 3).sum() + (v * v).sum()


@pytest.mark.parametrize("fn", [_f, _g], ids=["intermediate", "view"])
def test_grad_of_nested_in_place_jit(fn):
    x = np.linspace(0.1, 1.0, 5)
    ref = fn(np, _bump_np, x.copy())
    for out in (fn(xnp, _bump, xnp.asarray(x)), xnp.jit(lambda v: fn(xnp, _bump, v))(x)):
        np.testing.assert_allclose(float(out), ref, rtol=1e-12)
    for grad in (xnp.grad(lambda v: fn(xnp, _bump, v)),
                 xnp.jit(xnp.grad(lambda v: fn(xnp, _bump, v)))):
        g = np.asarray(grad(x))
        for e in np.eye(5):
            fd = central_difference(lambda v: fn(np, _bump_np, v.copy()), x, e)
            np.testing.assert_allclose(g @ e, fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", [_f, _g], ids=["intermediate", "view"])
def test_vmap_of_nested_in_place_jit(fn):
    xs = np.linspace(0.1, 2.0, 15).reshape(3, 5)
    loop = [fn(np, _bump_np, r.copy()) for r in xs]
    out = xnp.vmap(lambda v: fn(xnp, _bump, v))(xs)
    np.testing.assert_allclose(np.asarray(out), loop, rtol=1e-12)


def test_outer_jit_writes_back_an_argument_updated_by_an_inner_jit():
    x = np.linspace(0.1, 1.0, 5)

    @xnp.jit
    def outer(a, b):
        return _bump(a, b) + a[0]

    a, an = xnp.asarray(np.sin(x)), np.sin(x)
    res = outer(a, x)
    ref = _bump_np(an, x) + an[0]
    np.testing.assert_allclose(float(res), ref, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(a), an, rtol=1e-12)


def test_nested_in_place_jit_on_an_eager_array_raises_like_setitem():
    x = np.linspace(0.1, 1.0, 5)
    glob = xnp.zeros(5)

    def by_jit(v):
        return _bump(glob, v) * v.sum()

    def by_setitem(v):
        glob[...] = v
        return v.sum()

    for transform in (xnp.grad, xnp.jit):
        with pytest.raises(NotImplementedError) as e_jit:
            transform(by_jit)(x)
        with pytest.raises(NotImplementedError) as e_set:
            transform(by_setitem)(x)
        assert str(e_jit.value) == str(e_set.value)
    np.testing.assert_array_equal(np.asarray(glob), np.zeros(5))
