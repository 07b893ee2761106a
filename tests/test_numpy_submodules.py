"""xnp.exceptions, xnp.dtypes, xnp.typing and xnp.testing against NumPy's."""

import typing
import warnings

import numpy as np
import pytest

import xnp


# --------------------------------------------------------------------------- exceptions


@pytest.mark.parametrize("name", np.exceptions.__all__)
def test_exceptions_are_numpys(name):
    assert getattr(xnp.exceptions, name) is getattr(np.exceptions, name)


def test_xnp_raises_and_warns_numpys_exception_classes():
    with pytest.raises(xnp.exceptions.AxisError):
        xnp.sum(xnp.ones((2, 3)), axis=2)
    with pytest.raises(xnp.exceptions.DTypePromotionError):
        xnp.promote_types("f8", "M8[s]")
    with pytest.warns(xnp.exceptions.RankWarning):
        xnp.polyfit(np.array([0.0, 1.0, 1.0, 1.0]), np.array([1.0, 2.0, 3.0, 4.0]), 3)


def test_complex_to_real_cast_warns_as_numpy():
    z = np.array([1 + 1j, 2 - 3j])
    for dt in (np.float64, np.float32, np.int32, np.float16):
        with pytest.warns(xnp.exceptions.ComplexWarning):
            ref = z.astype(dt)
        with pytest.warns(xnp.exceptions.ComplexWarning, match="discards the imaginary"):
            got = xnp.asarray(z).astype(dt)
        np.testing.assert_array_equal(np.asarray(got), ref)
        with pytest.warns(xnp.exceptions.ComplexWarning):  # once, while tracing
            got = xnp.jit(lambda t, dt=dt: xnp.astype(t, dt))(z)
        np.testing.assert_array_equal(np.asarray(got), ref)
    with warnings.catch_warnings():  # no warning where NumPy gives none
        warnings.simplefilter("error")
        for dt in (np.bool_, np.complex64):
            np.testing.assert_array_equal(np.asarray(xnp.asarray(z).astype(dt)), z.astype(dt))


# --------------------------------------------------------------------------- dtypes


@pytest.mark.parametrize("name", np.dtypes.__all__)
def test_dtype_classes_are_numpys(name):
    assert getattr(xnp.dtypes, name) is getattr(np.dtypes, name)


@pytest.mark.parametrize("dt", ["float64", "float32", "int8", "uint16", "bool", "complex64"])
def test_dtype_classes_match_xnp_arrays(dt):
    x = xnp.ones(3, dtype=dt)
    cls = type(np.dtype(dt))
    assert isinstance(x.dtype, cls) and type(xnp.dtype(dt)) is cls
    assert cls.__name__ in xnp.dtypes.__all__
    traced = []
    xnp.jit(lambda v: traced.append(isinstance(v.dtype, cls)) or v)(x)
    assert traced == [True]


# --------------------------------------------------------------------------- typing


def _annotated(x: xnp.typing.NDArray[xnp.float64], y: xnp.typing.ArrayLike,
               dtype: xnp.typing.DTypeLike = None) -> xnp.typing.NDArray[np.float64]:
    return xnp.asarray(x, dtype=dtype) + y


def test_typing_annotations_work_with_xnp_arrays():
    hints = typing.get_type_hints(_annotated)
    assert typing.get_origin(hints["x"]) is xnp.ndarray
    assert typing.get_args(hints["return"])[1] == np.dtype[np.float64]
    assert xnp.ndarray in typing.get_args(xnp.typing.ArrayLike)
    assert set(typing.get_args(np.typing.ArrayLike)) <= set(typing.get_args(xnp.typing.ArrayLike))
    assert xnp.typing.DTypeLike is np.typing.DTypeLike
    assert xnp.typing.NBitBase is np.typing.NBitBase
    out = _annotated(xnp.ones(2), 1.0)
    assert isinstance(out, xnp.ndarray)
    np.testing.assert_array_equal(np.asarray(xnp.jit(_annotated)(np.ones(2), 2.0)), [3.0, 3.0])


def test_typing_ndarray_is_for_annotations_only_as_numpys():
    with pytest.raises(TypeError):
        isinstance(xnp.ones(2), xnp.typing.NDArray[np.float64])
    with pytest.raises(TypeError):
        isinstance(np.ones(2), np.typing.NDArray[np.float64])
    assert sorted(xnp.typing.__all__) == sorted(np.typing.__all__)


# --------------------------------------------------------------------------- testing


def test_testing_has_every_name_of_numpys():
    for name in np.testing.__all__:
        assert hasattr(xnp.testing, name), name
    assert xnp.testing.assert_raises is np.testing.assert_raises
    assert xnp.testing.suppress_warnings is np.testing.suppress_warnings


PASSING = [
    ("assert_equal", (xnp.arange(3), [0, 1, 2]), {}),
    ("assert_equal", ({"a": xnp.ones(2), "b": (xnp.zeros(1), 3)}, {"a": [1, 1], "b": ([0], 3)}), {}),
    ("assert_equal", (xnp.float64(1.5), 1.5), {}),
    ("assert_array_equal", (xnp.arange(4).reshape(2, 2), np.arange(4).reshape(2, 2)), {}),
    ("assert_array_equal", (xnp.array([1.0, np.nan]), [1.0, np.nan]), {}),
    ("assert_allclose", (xnp.ones(3) + 1e-9, np.ones(3)), {"rtol": 1e-7}),
    ("assert_allclose", (xnp.ones(3), xnp.ones(3)), {"strict": True}),
    ("assert_almost_equal", (xnp.asarray(1.0000001), 1.0), {"decimal": 6}),
    ("assert_approx_equal", (xnp.asarray(1.0000001), 1.0), {}),
    ("assert_array_almost_equal", (xnp.ones(2) * 1.0000001, [1.0, 1.0]), {}),
    ("assert_array_less", (xnp.zeros(2), xnp.ones(2)), {}),
    ("assert_array_almost_equal_nulp", (xnp.ones(2), np.ones(2)), {}),
    ("assert_array_max_ulp", (xnp.ones(2), np.ones(2)), {}),
    ("assert_", (xnp.asarray(True),), {}),
    ("assert_string_equal", ("abc", "abc"), {}),
]

FAILING = [
    ("assert_equal", (xnp.arange(3), [0, 1, 3]), {}),
    ("assert_array_equal", (xnp.arange(3), [0, 1, 3]), {}),
    ("assert_array_equal", (xnp.ones(3), np.ones(3, np.float32)), {"strict": True}),
    ("assert_allclose", (xnp.ones(3) * 1.1, np.ones(3)), {}),
    ("assert_almost_equal", (xnp.asarray(1.1), 1.0), {}),
    ("assert_array_less", (xnp.ones(2), xnp.ones(2)), {}),
    ("assert_", (xnp.asarray(False),), {}),
]


@pytest.mark.parametrize("name,args,kwargs", PASSING, ids=[c[0] for c in PASSING])
def test_testing_asserts_accept_xnp_arrays(name, args, kwargs):
    getattr(xnp.testing, name)(*args, **kwargs)


@pytest.mark.parametrize("name,args,kwargs", FAILING, ids=[c[0] for c in FAILING])
def test_testing_asserts_fail_with_numpys_message(name, args, kwargs):
    with pytest.raises(AssertionError) as got:
        getattr(xnp.testing, name)(*args, **kwargs)
    np_args = [np.asarray(a) if isinstance(a, xnp.ndarray) else a for a in args]
    with pytest.raises(AssertionError) as expected:
        getattr(np.testing, name)(*np_args, **kwargs)
    assert str(got.value) == str(expected.value)


def test_testing_signatures_and_docs():
    import inspect  # noqa: PLC0415

    for name in xnp.testing._COMPARING:
        ours, numpys = getattr(xnp.testing, name), getattr(np.testing, name)
        assert inspect.signature(ours) == inspect.signature(numpys), name
        assert "xnp arrays" in ours.__doc__


def test_testing_assert_raises_passes_arguments_unchanged():
    seen = []

    def f(v):
        seen.append(type(v))
        raise ValueError

    xnp.testing.assert_raises(ValueError, f, xnp.ones(2))
    assert seen == [xnp.ndarray]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xnp.testing.assert_no_warnings(lambda: xnp.ones(2) + 1)


def test_testing_on_a_tracer_raises_the_conversion_error():
    with pytest.raises(xnp.errors.TracerArrayConversionError):
        xnp.jit(lambda v: xnp.testing.assert_allclose(v, 1.0) or v)(np.ones(2))
