"""Jitted and eager results agree with NumPy where XLA would differ: float8/bfloat16
parameters of ``xnp.random``, NumPy's complex NaN sort order under ``jit``, division by a
constant (one rounding, not ``x * (1/c)``), a custom_jvp closing over a NumPy constant;
and the op table's ``special`` sampler (no RuntimeWarning, integer extremes kept)."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
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


@pytest.mark.parametrize("shape", [(0, 4), (2, 0, 3), (3, 0), (0,), (0, 0)])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex64])
def test_empty_constants_of_every_shape_compile(shape, dtype):
    """A closed-over empty NumPy array is a constant of the compiled program whatever axis
    is empty (a bool (0, 4) constant was written as a nested list, '[]', which does not
    parse): the same result as NumPy's."""
    c = np.zeros(shape, dtype)
    got = xnp.jit(lambda v: (xnp.logical_not(c), xnp.where(c, 1, 2), c + v))(np.zeros((), dtype))
    want = (np.logical_not(c), np.where(c, 1, 2), c + np.zeros((), dtype))
    for g, w in zip(got, want):
        assert np.asarray(g).shape == w.shape and np.asarray(g).dtype == w.dtype
