"""Regression tests of small follow-up fixes: float8 parameters of ``xnp.random``,
``out=`` an eager array inside a transformation, a jitted function that updates an
argument in place called inside grad/vmap/jit, and the op table's ``special`` sampler
(no RuntimeWarning while building special values)."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import central_difference
from tests.lax.ops_elementwise import special

E4M3, E5M2 = np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2)

# --------------------------------------------------------------------------- random parameters


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), E4M3,
                                   E5M2], ids=str)
def test_random_float_parameters_keep_their_dtype(dtype):
    """Every float parameter (ml_dtypes' kind "V" ones too) is accepted; NumPy's generator
    (behind the NumPy-style API) draws as with the float64 value."""
    loc = np.array([0.5, -1.0, 2.0], dtype)
    got = xnp.random.default_rng(3).normal(xnp.asarray(loc), 2.0)
    want = xnp.random.default_rng(3).normal(xnp.asarray(loc.astype(np.float64)), 2.0)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(got), np.random.default_rng(3).normal(
        loc.astype(np.float64), 2.0))


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
    assert str(by_out_err.value) == str(setitem_err.value)
    msg = str(by_out_err.value)
    assert f"by {how}" in msg and "a global or a closure" in msg
    if how != "jit":  # under grad/vmap xnp ran the function under jit, which refused too
        assert "again under xnp.jit" in msg
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


# --------------------------------------------------------------------------- samplers


@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint8, np.float32, E4M3],
                         ids=lambda d: np.dtype(d).name)
def test_special_sampler_emits_no_warning_and_keeps_extremes(dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = special(np.random.default_rng(0), (400,), dtype)
    assert a.dtype == np.dtype(dtype)
    if np.dtype(dtype).kind in "iu":
        assert np.iinfo(dtype).max in a and np.iinfo(dtype).min in a


# --------------------------------------------------------------------------- complex order


def _complex_grid():
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]
    z = np.empty((len(vals), len(vals)), np.complex128)
    z.real, z.imag = np.array(vals)[:, None], np.array(vals)[None, :]
    return np.random.default_rng(1).permutation(z.reshape(-1))


def test_jit_sort_and_searchsorted_use_numpy_complex_nan_order():
    """``R + nanj`` (e.g. ``-inf + nanj``) sorts after every NaN-free value and before
    ``nan + Rj`` (NumPy's order), under XLA as eagerly."""
    x = _complex_grid()
    s = np.sort(x)
    for out in (xnp.jit(xnp.lax.sort)(x), xnp.lax.sort(xnp.asarray(x))):
        out = np.asarray(out)
        nan = np.isnan(out.real) | np.isnan(out.imag)
        np.testing.assert_array_equal(nan, np.isnan(s.real) | np.isnan(s.imag))
        np.testing.assert_array_equal(np.isnan(out.real), np.isnan(s.real))
        np.testing.assert_array_equal(out[~nan], s[~nan])
    for side in ("left", "right"):
        got = xnp.jit(lambda a, v, side=side: xnp.lax.searchsorted(a, v, side=side))(s, x)
        np.testing.assert_array_equal(np.asarray(got), np.searchsorted(s, x, side=side))


def test_jit_division_by_a_constant_is_exact():
    """XLA rewrites x / c as x * (1 / c) (two roundings); the lowering keeps NumPy's
    single division, so the quotients are bit-identical to NumPy's."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1000) * 100
    for c in (5, 3.0, 10, 7, 0.1, np.float32(3.0)):
        for dt in (np.float64, np.float32):
            xd = x.astype(dt)
            got = np.asarray(xnp.jit(lambda a: a / c)(xd))
            np.testing.assert_array_equal(got, xd / c)
    total = np.asarray(xnp.jit(xnp.sum)(x))  # the mean's division: by the count, exactly
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.mean)(x)), total / x.size)


def test_jitted_custom_jvp_closing_over_a_numpy_constant():
    """A custom_jvp body that closes over a NumPy array lowers (its consts are host data)."""
    w = np.array([1.0, 2.0, 3.0])

    @xnp.custom_jvp
    def f(x):
        return xnp.sum(x * w)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), xnp.sum(t * w)

    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(np.asarray(xnp.jit(f)(x)), np.sum(x * w))
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(f))(x)), w)
