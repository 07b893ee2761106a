"""Reductions and accumulations written into an ``out=`` of another dtype compute in the
loop NumPy resolves from ``out``'s dtype and the input's together (a float32 sum into a
float64 ``out`` adds in float64; a float64 one into float32 too, then casts), eagerly,
under ``jit`` (the ``out`` argument written back) and into a NumPy ``out``.

The data are exact in the wider loop and not in the input's dtype, so a computation in
the input's dtype gives another value: float32 integers whose sums need more than 24
bits, products beyond float32's range. (``max``/``min`` select an element: in any loop
their value is the element's, cast.)"""

import warnings

import numpy as np
import pytest

import xnp

_MEAN = 3000.0
# symmetric odd deviations: the mean is exact; their squares' sums need more than 24 bits
_DEV = np.array([1, 3, 2047, 4095, 4093, 1023], np.float64)
_VALUES = np.concatenate([_MEAN + _DEV, _MEAN - _DEV] * 40)
_BIG = np.array([2**24 + 1, 3, 2**23 + 5, 7, 2**22 + 3, 11], np.float64)


def _f32():
    return np.random.default_rng(0).permutation(_BIG).astype(np.float32).reshape(2, 3)


def _cases():
    f32 = _f32()
    var_in = _VALUES.astype(np.float32).reshape(16, 30)
    prods = np.array([[1e30, 1e30, 3.0], [1e20, 2.0, 1e25]], np.float32)
    c64 = (f32 + 1j * f32[::-1]).astype(np.complex64)
    f16 = np.array([[2048, 1, 1], [1, 1, 3]], np.float16)  # 2048 + 1 is 2048 in float16
    tiny = np.float32(1e-45)  # float32's smallest subnormal
    special = np.array([[-0.0, -0.0, -0.0], [np.inf, -0.0, 2.0], [np.nan, 1.0, 3.0],
                        [tiny, tiny, -np.inf], [3e38, 3e38, -0.0]], np.float32)
    return [
        # (function name, input, out dtype, axis); the reduced or accumulated axis
        ("sum", f32, np.float64, None), ("sum", f32, np.float64, 1),
        ("sum", f32, np.complex128, 0), ("sum", f16, np.float32, None),
        ("sum", c64, np.complex128, None), ("nansum", f32, np.float64, None),
        ("prod", prods, np.float64, None), ("prod", prods, np.float64, 1),
        ("nanprod", prods, np.float64, 1),
        ("mean", f32, np.float64, None), ("mean", var_in, np.float64, 0),
        ("nanmean", f32, np.float64, 1),
        ("var", var_in, np.float64, None), ("var", var_in, np.float64, 0),
        ("std", var_in, np.float64, None), ("nanvar", var_in, np.float64, None),
        ("nanstd", var_in, np.float64, 1),
        ("cumsum", f32, np.float64, None), ("cumsum", f32, np.float64, 1),
        ("cumprod", prods, np.float64, 1), ("nancumsum", f32, np.float64, 0),
        ("nancumprod", prods, np.complex128, 1), ("cumulative_sum", f32, np.float64, 1),
        ("cumulative_prod", prods, np.float64, 1),
        ("add.reduce", f32, np.float64, None), ("add.reduce", f32, np.float64, 0),
        ("multiply.reduce", prods, np.float64, 1), ("maximum.reduce", f32, np.float64, 0),
        ("add.accumulate", f32, np.float64, 1), ("multiply.accumulate", prods, np.float64, 1),
        # special values: signed zeros, infinities, NaN, a float32 subnormal
        ("sum", special, np.float64, 1), ("prod", special, np.float64, 1),
        ("cumsum", special, np.float64, 1), ("cumprod", special, np.float64, 1),
        ("nansum", special, np.float64, 1), ("mean", special, np.float64, 1),
        ("add.reduce", special, np.complex128, 1),
    ]


def _fn(mod, name):
    f = mod
    for part in name.split("."):
        f = getattr(f, part)
    return f


def _out_shape(name, x, axis):
    if "cum" in name or "accumulate" in name:
        return x.shape if axis is not None else (x.size,)
    return () if axis is None else tuple(n for i, n in enumerate(x.shape) if i != axis)


def _numpy(name, x, odt, axis):
    out = np.zeros(_out_shape(name, x, axis), odt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _fn(np, name)(x, axis=axis, out=out)
    return out


def _ids():
    return [f"{n}-{x.dtype}-{np.dtype(o).name}-axis{a}" for n, x, o, a in _cases()]


@pytest.mark.parametrize("case", _cases(), ids=_ids())
def test_out_of_another_dtype_computes_in_numpys_loop(case):
    name, x, odt, axis = case
    want = _numpy(name, x, odt, axis)
    # the case separates the loops: the input's own dtype gives another value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = xnp.zeros(want.shape, odt)
        res = _fn(xnp, name)(xnp.asarray(x), axis=axis, out=out)
        assert res is out
        np.testing.assert_array_equal(np.asarray(out), want)

        host = np.zeros(want.shape, odt)
        _fn(xnp, name)(xnp.asarray(x), axis=axis, out=host)
        np.testing.assert_array_equal(host, want)

        jout = xnp.zeros(want.shape, odt)
        xnp.jit(lambda a, o: _fn(xnp, name)(a, axis=axis, out=o))(xnp.asarray(x), jout)
    got = np.asarray(jout)
    if x.dtype.kind == "f" and np.any((x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)):
        # compiled code reads a subnormal input as a zero of its sign (README, "Subnormal
        # numbers (XLA:CPU)"): NumPy's result on the input so flushed
        flushed = np.where(np.abs(x) < np.finfo(x.dtype).tiny, np.copysign(0, x), x)
        want = _numpy(name, flushed.astype(x.dtype), odt, axis)
    if name.endswith(("var", "std", "mean")):  # XLA may divide through a reciprocal
        np.testing.assert_allclose(got, want, rtol=1e-15)
    else:
        np.testing.assert_array_equal(got, want)


def test_sum_into_float64_out_separates_from_float32_sum():
    """The grid's premise, on its own: NumPy's float32 sum of this data differs from the
    float64 one, and xnp's sum into a float64 ``out`` is the latter."""
    x = _f32()
    assert np.sum(x, dtype=np.float64) != np.float64(np.sum(x))
    out = xnp.zeros((), np.float64)
    xnp.sum(xnp.asarray(x), out=out)
    assert float(out) == float(np.sum(x, dtype=np.float64))


def test_explicit_dtype_wins_over_out():
    """With ``dtype=`` the loop is that dtype, whatever ``out`` is (NumPy's rule)."""
    x = _f32()
    want = np.zeros((), np.float64)
    np.sum(x, dtype=np.float32, out=want)
    out = xnp.zeros((), np.float64)
    xnp.sum(xnp.asarray(x), dtype=np.float32, out=out)
    assert float(out) == float(want)
    assert float(want) != float(np.sum(x, dtype=np.float64))


def test_reduceat_into_wider_out():
    x = _f32().ravel()
    want = np.zeros(2, np.float64)
    np.add.reduceat(x, [0, 3], out=want)
    out = xnp.zeros(2, np.float64)
    xnp.add.reduceat(xnp.asarray(x), [0, 3], out=out)
    np.testing.assert_array_equal(np.asarray(out), want)


def _mean_cases():
    return [
        # (name, input, out dtype, dtype=): NumPy's _mean sums into out, then divides it
        ("mean", np.full(3, 2**24 + 1, np.int32), np.float32, None),
        ("mean", np.array([0.5, 1.0, 0.6], np.float16), np.float64, None),
        ("mean", np.full(300, 1000, np.float16), np.float16, None),  # the sum overflows
        ("mean", np.full(12, 100, np.int8), np.float64, np.int8),  # wraps in int8
        ("mean", np.arange(12, dtype=np.float32) + 2**24, np.float64, np.float32),
        ("mean", np.array([1 + 2j, 3 - 1j]), np.complex64, None),
        ("mean", np.array([1.5, 2.5, 4.0]), np.int64, None),
        ("nanmean", np.array([2**24 + 1, np.nan, 2**24 + 2], np.float32), np.float64, None),
        # var/std: the squared deviations summed into out (with dtype=, in it), divided there
        ("var", np.arange(12, dtype=np.float32) + 2**24, np.float64, np.float32),
        ("std", np.arange(100.0), np.float16, None),  # the sum of squares overflows float16
    ]


@pytest.mark.parametrize("case", _mean_cases(), ids=lambda c: f"{c[0]}-{c[1].dtype}-"
                         f"{np.dtype(c[2]).name}-{c[3]}")
def test_mean_and_var_into_out_as_numpy(case):
    name, x, odt, dtype = case
    want = np.zeros((), odt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(np, name)(x, out=want, dtype=dtype)
        out = xnp.zeros((), odt)
        getattr(xnp, name)(xnp.asarray(x), out=out, dtype=dtype)
        jout = xnp.zeros((), odt)
        xnp.jit(lambda a, o: getattr(xnp, name)(a, out=o, dtype=dtype))(xnp.asarray(x), jout)
    np.testing.assert_array_equal(np.asarray(out), want)
    np.testing.assert_allclose(np.asarray(jout), want, rtol=1e-15)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("odt", [np.int64, np.bool_])
def test_nan_means_of_inexact_input_refuse_an_exact_out(name, odt):
    x = np.array([1.0, np.nan, 3.0])
    with pytest.raises(TypeError, match="out must be inexact"):
        getattr(np, name)(x, out=np.zeros((), odt))
    with pytest.raises(TypeError, match="out must be inexact"):
        getattr(xnp, name)(xnp.asarray(x), out=xnp.zeros((), odt))
    with pytest.raises(TypeError, match="out must be inexact"):
        xnp.jit(lambda a, o: getattr(xnp, name)(a, out=o))(xnp.asarray(x), xnp.zeros((), odt))


@pytest.mark.parametrize("ufunc", ["fmax", "fmin"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64])
def test_fmax_fmin_reduce_of_integers(ufunc, dtype):
    """Under jit the tree reduction's start value for integers is the dtype's extreme, not
    NaN cast to an integer."""
    x = np.array([[-5, -3, 7], [2, 9, -1]]).astype(dtype)
    for axis in (None, 0, 1):
        want = getattr(np, ufunc).reduce(x, axis=axis)
        f = lambda a: getattr(xnp, ufunc).reduce(a, axis=axis)  # noqa: E731
        np.testing.assert_array_equal(np.asarray(f(xnp.asarray(x))), want)
        np.testing.assert_array_equal(np.asarray(xnp.jit(f)(xnp.asarray(x))), want)
