"""Complex input where NumPy takes it: ``nanmedian`` (NumPy's lexicographic order, NaN in
either part ignored, NumPy's value for all-NaN slices) and ``arange`` with complex
arguments or dtype (NumPy's length rule: the smaller of the ceilings of the parts of
``(stop - start) / step``); the quantile functions of complex input raise NumPy's
TypeError. Against NumPy's results, eagerly and under ``jit``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import outcome

nan = np.nan


def _outcome(call):
    out, caught = outcome(call)
    return out, sorted({w.category.__name__ for w in caught})


def _parts(a):
    return (a.real, a.imag) if a.dtype.kind == "c" else (a,)


def _same(got, want):
    """The same exception class, or dtype, shape and values, each part's NaN and the sign
    of each part's zero (not the sign of a NaN)."""
    if isinstance(want, Exception):
        assert isinstance(got, type(want)), (got, want)
        return
    assert not isinstance(got, Exception), (got, want)
    g, w = np.asarray(got), np.asarray(want)
    assert (g.dtype, g.shape) == (w.dtype, w.shape), (g, w)
    for gp, wp in zip(_parts(g), _parts(w)):
        assert np.array_equal(gp, wp, equal_nan=True), (g, w)
        assert np.array_equal(np.signbit(gp) | np.isnan(gp), np.signbit(wp) | np.isnan(wp)), (
            g, w)


# --------------------------------------------------------------------------- nanmedian

_C = np.array([[1 + 2j, complex(nan, 1), 3 - 1j, complex(2, nan), 0.5 + 0j],
               [complex(1, nan), complex(nan, 2), nan, complex(nan, nan), nan],
               [2 + 2j, 2 - 1j, 2 + 0j, -1j, 4j],
               [1 + 1j, -1 - 1j, -0.0 + 0j, nan, 3 + 3j]])


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, False), (0, True), (-1, True),
                                            ((0, 1), False)])
@pytest.mark.parametrize("rows", [slice(None), slice(0, 1), slice(2, 3), slice(1, 2)])
def test_complex_nanmedian_is_numpys(dtype, axis, keepdims, rows):
    x = _C[rows].astype(dtype)
    call = lambda m: m.nanmedian(x, axis=axis, keepdims=keepdims)  # noqa: E731
    (want, want_w), (got, got_w) = _outcome(lambda: call(np)), _outcome(lambda: call(xnp))
    _same(got, want)
    assert got_w == want_w  # "All-NaN slice encountered"
    assert isinstance(got, np.generic) == isinstance(want, np.generic)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _same(xnp.jit(lambda x: xnp.nanmedian(x, axis=axis, keepdims=keepdims))(x), want)


@pytest.mark.parametrize("shape, axis", [((3, 700), 1), ((700,), 0), ((2, 3, 5), (0, 2)),
                                         ((4, 1), 1), ((), None)])
def test_complex_nanmedian_shapes(rng, shape, axis):
    x = (rng.standard_normal(shape) + 1j * rng.integers(-2, 3, shape)).astype(complex)
    if x.ndim:
        x[rng.random(shape) < 0.3] = complex(nan, 1)
        x[0] = complex(2, nan)  # an all-NaN slice where the first index is a kept one
    call = lambda m: m.nanmedian(x, axis=axis)  # noqa: E731
    (want, _), (got, _) = _outcome(lambda: call(np)), _outcome(lambda: call(xnp))
    _same(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _same(xnp.jit(lambda x: xnp.nanmedian(x, axis=axis))(x), want)


def test_complex_nanmedian_out_and_empty():
    x = _C.astype(np.complex64)
    out = xnp.zeros(4, np.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert xnp.nanmedian(x, axis=1, out=out) is out
        _same(out, np.nanmedian(x, axis=1))
        for empty, axis in [(np.zeros((0, 3), complex), 0), (np.zeros((0, 3), complex), 1)]:
            _same(xnp.nanmedian(empty, axis=axis), np.nanmedian(empty, axis=axis))


@pytest.mark.parametrize("fn, q", [("nanquantile", 0.5), ("nanpercentile", 50),
                                   ("quantile", 0.5), ("percentile", [50])])
def test_complex_quantiles_raise_numpys_type_error(fn, q):
    want, _ = _outcome(lambda: getattr(np, fn)(_C, q))
    assert type(want) is TypeError
    with pytest.raises(TypeError, match="a must be an array of real numbers"):
        getattr(xnp, fn)(_C, q)
    with pytest.raises(TypeError):
        xnp.jit(lambda x: getattr(xnp, fn)(x, q))(_C)


# --------------------------------------------------------------------------- arange

_ARANGE = [
    ((1 + 2j, 5), {}), ((0, 5 + 0j), {}), ((5 + 0j,), {}), ((0, 5 + 1j), {}), ((1j, 5j), {}),
    ((0, 5, 1 + 1j), {}), ((1 + 1j, 4 + 3j, 0.5), {}), ((1 + 1j, 10 + 20j, 1 + 2j), {}),
    ((1 + 1j, 10 + 20j, 1 + 2j), {"dtype": np.complex64}), ((-0.0 + 1j, 3 + 5j, 1 + 1j), {}),
    ((0.5 + 0.5j, 3.2 + 9j, 0.7 - 1j), {}), ((0, 3 + 1e-300j, 1 + 1e-300j), {}),
    ((0, 5), {"dtype": complex}), ((0, 5, 0.5), {"dtype": np.complex64}),
    ((3,), {"dtype": "c8"}), ((0.1, 1.0, 0.1), {"dtype": complex}),
    ((2, 40, 3.3), {"dtype": "c16"}), ((np.complex64(1 + 1j), 4), {}),
    ((0, np.complex64(3)), {}), ((np.complex128(1 + 1j), 4), {}),
    ((xnp.asarray(2 + 1j), 6 + 5j), {}), ((np.array(1.5 + 1j), 5 + 9j, 0.5 + 0.25j), {}),
    # NumPy's errors and warnings
    ((1 + 1j, 3), {"dtype": float}), ((0, 3 + 0j), {"dtype": int}), ((0, 3 + 0j), {"dtype": bool}),
    ((np.complex64(1 + 1j), 4), {"dtype": float}), ((0, 5, 0j), {}),
    ((0, np.inf + 0j), {}), ((0, 5 + np.inf * 1j), {}), ((complex(nan, 1), 3), {}),
    ((0, 1 + 1j, np.inf + np.inf * 1j), {}),
    # real arguments: NumPy's underflow rule and zero steps
    ((0, 1e-320, 1e300), {}), ((0, -1e-320, 1e300), {}), ((0, 1, np.inf), {}),
    ((0, -1, np.inf), {}), ((0, 5, 0), {}), ((0, 5, 0.0), {}), ((0, 5, np.float64(0)), {}),
    ((np.float64(0), np.float64(0), 0), {}), ((0, nan, 1), {}), ((-0.0, 3), {}),
    ((-0.0, 3), {"dtype": np.float16}), ((0.1, 1, 0.2), {"dtype": np.float32}),
]


@pytest.mark.parametrize("args, kw", _ARANGE, ids=[str(i) for i in range(len(_ARANGE))])
def test_arange_is_numpys(args, kw):
    np_args = tuple(np.asarray(a) if isinstance(a, xnp.ndarray) else a for a in args)
    (want, want_w), (got, got_w) = (_outcome(lambda: np.arange(*np_args, **kw)),
                                    _outcome(lambda: xnp.arange(*args, **kw)))
    _same(got, want)
    assert got_w == want_w  # ComplexWarning, NumPy scalars' division warnings
    if not isinstance(want, Exception):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _same(xnp.jit(lambda: xnp.arange(*args, **kw))(), want)


def test_complex_arange_is_an_iota_under_jit():
    eqns = xnp.make_jaxpr(lambda: xnp.arange(1 + 1j, 10 + 20j, 1 + 2j))().eqns
    assert {"iota", "complex"} <= {e.primitive.name for e in eqns}


@pytest.mark.parametrize("args,dt", [
    ((-2.5, 3, 1.5), "u1"), ((0, 3e9, 1e9), "i1"), ((1e300, 1.0000001e300, 1e293), "i8"),
    ((1e300, 1.0000001e300, 1e293), "u8"), ((-1.5, 3), "u8"), ((-1, 3), "u1"), ((-1, 0), "u1"),
    ((np.float32(-1.5), 3), "u1"), ((np.int8(-1), 3), "u1"), ((2**63, 2**63 + 2), "i8"),
    ((2**63, 2**63 + 2), "u8"), ((250.0, 260.0), "u1"), ((-1, -3), "u1"), ((5, 0, -2), "u1"),
    ((0.5, -3.0, -1.0), "u2"), ((np.float32(2.5), 8, 2), "i2"),
    ((0, 1.5e-45, 1e-45), "bool"), ((0, 1, 0.5), "bool"), ((2,), "bool"), ((3,), "bool")])
def test_integer_and_bool_arange_first_values_are_numpys(args, dt):
    """NumPy stores the first two values by item assignment (a float through int(); out of
    the dtype's range: OverflowError) and fills the rest in the dtype's arithmetic, which
    wraps (250.0..260.0 as uint8). xnp wrapped the first values too, and made a bool range
    from an int64 one ([False, False] for 0, 1e-45)."""
    want, _ = outcome(lambda: np.arange(*args, dtype=dt))
    for got, _ in (outcome(lambda: xnp.arange(*args, dtype=dt)),
                   outcome(lambda: xnp.jit(lambda: xnp.arange(*args, dtype=dt))())):
        if isinstance(want, Exception):
            assert type(got) is type(want), (got, want)
        else:
            assert not isinstance(got, Exception), got
            np.testing.assert_array_equal(np.asarray(got), want, strict=True)
