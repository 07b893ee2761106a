"""Eager scalars: where NumPy returns a NumPy scalar (``a[0]``, ``a.sum()``, ``xnp.sum(a)``,
``xnp.float64(1.5)``), xnp returns a 0-d xnp array that hashes, prints, converts and
rounds as that NumPy scalar does (README, "Scalars"); ``repr`` of every eager array is
NumPy's. Oracle: the same expression on NumPy arrays, for every dtype."""

import math
import operator

import numpy as np
import pytest

import xnp

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def _data(dt):
    if dt == "bool":
        return np.array([True, False, True])
    return np.array([3, 0, 2, 3, 7], dtype=dt)


def _outcome(fn, x):
    """The value ``fn(x)`` gives (with its type), or the exception class it raises."""
    try:
        v = fn(x)
    except (TypeError, ValueError, OverflowError) as e:
        return type(e)
    return (type(v), v)


@pytest.mark.parametrize("dt", DTYPES)
def test_scalar_hash_repr_str_match_numpy(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for i in range(len(n)):
        assert hash(a[i]) == hash(n[i])
        assert repr(a[i]) == repr(n[i])
        assert str(a[i]) == str(n[i])
        assert f"{a[i]}" == f"{n[i]}"
    assert repr(a) == repr(n) and str(a) == str(n)
    assert repr(a.sum()) == repr(n.sum()) and repr(xnp.sum(a)) == repr(np.sum(n))
    assert repr(xnp.asarray(n[1:2])) == repr(n[1:2])
    assert repr(a[:0]) == repr(n[:0])


@pytest.mark.parametrize("dt", DTYPES)
def test_format_matches_numpy(dt):
    # format() of a scalar formats its value at its own precision (float32 0.1 with an
    # empty spec is 0.10000000149011612, as NumPy's); of an n-d array only "" works
    n = np.array([0.1, -2.5, 1e-3]).astype(dt)
    if n.dtype.kind == "c":
        n = n + np.array(0.2j, dtype=dt)
    a = xnp.asarray(n)
    for i in range(len(n)):
        for spec in ("", ".3f", "10", "e", "g", "^12"):
            assert _outcome(lambda v: format(v, spec), a[i]) == _outcome(
                lambda v: format(v, spec), n[i]), (dt, i, spec)
    assert format(a, "") == format(n, "")
    with pytest.raises(TypeError, match="unsupported format string"):
        format(a, ".2f")
    assert f"{xnp.jit(lambda t: t[0])(n)}" == f"{n[0]}"


@pytest.mark.parametrize("dt", DTYPES)
def test_scalars_as_dict_keys_and_set_members(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    assert set(a) == set(n)  # iteration gives hashable 0-d arrays, equal ones collapse
    assert len(set(a)) == len(set(n.tolist()))
    d = {a[0]: "first"}
    assert d[n[0].item()] == "first"  # found by the equal Python number
    assert d[a[0]] == "first"
    assert {n[0]: 1}[a[0]] == 1  # and an xnp scalar finds a NumPy scalar's key


@pytest.mark.parametrize("dt", DTYPES)
def test_scalar_conversions_match_numpy(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for fn in (operator.index, math.floor, math.ceil, math.trunc, round, int, float, complex,
               bool, lambda v: round(v, 1)):
        if dt.startswith("complex") and fn in (int, float, math.floor, math.ceil, round):
            continue  # NumPy warns (ComplexWarning) or raises; xnp's Array does the same
        got, want = _outcome(fn, a[2]), _outcome(fn, n[2])
        if isinstance(want, tuple) and issubclass(want[0], np.generic):
            assert isinstance(got, tuple) and type(got[1]) is xnp.Array, (fn, got)
            assert repr(got[1]) == repr(want[1]), fn  # round(x, 1): a 0-d result
        else:
            assert got == want, (fn, got, want)


@pytest.mark.parametrize("dt", DTYPES)
def test_scalars_mix_with_xnp_and_numpy_arrays(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for left, right, expected in [(a[0], a, n[0] + n), (n[0], a, n[0] + n), (a[0], n, n[0] + n),
                                  (a, n[0], n + n[0]), (a[0], 1, n[0] + 1)]:
        if dt == "bool" and type(right) is int:
            expected = n[0] + 1
        res = left + right
        assert type(res) is xnp.Array
        assert res.dtype == np.asarray(expected).dtype, (left, right)
        np.testing.assert_array_equal(np.asarray(res), expected)


def test_scalar_results_keep_array_attributes():
    a = xnp.arange(6.0)
    for s in (a[0], a.sum(), xnp.sum(a), xnp.float64(1.5), xnp.max(a)):
        assert type(s) is xnp.Array and s.shape == () and s.ndim == 0
        assert s.block_until_ready() is s and s.device == "cpu"
        assert s.__array_namespace__() is xnp.array_api
    assert a.item(1) == 1.0 and type(a.item(1)) is float  # .item() stays a Python scalar


def test_nan_scalar_hash_is_stable_per_object():
    s = xnp.asarray([np.nan])[0]
    assert hash(s) == hash(s)
    assert {s: 1}[s] == 1


def test_arrays_with_dimensions_stay_unhashable():
    for x in (xnp.ones(3), xnp.ones((1,)), xnp.ones((2, 2))):
        with pytest.raises(TypeError, match="unhashable"):
            hash(x)


def test_jit_results_print_as_eager_arrays_and_tracers_keep_their_repr():
    x = xnp.arange(3.0)
    seen = []

    def f(v):
        seen.append(repr(v))
        return v.sum(), v * 2

    s, y = xnp.jit(f)(x)
    assert seen == ["JitTracer(float64[3])"]
    assert repr(s) == repr(np.float64(3.0)) and repr(y) == repr(np.arange(3.0) * 2)
    assert hash(s) == hash(3.0)


def test_scalar_type_calls_cast_eagerly_and_under_jit():
    assert repr(xnp.float32(1.5)) == repr(np.float32(1.5))
    assert repr(xnp.int8(-3)) == repr(np.int8(-3))
    out = xnp.jit(lambda t: xnp.float32(t))(xnp.arange(3.0))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), np.arange(3.0, dtype=np.float32))
    names = [e.primitive.name for e in xnp.make_jaxpr(lambda t: xnp.int32(t))(1.5).eqns]
    assert names == ["convert_element_type"]


def test_python_scalar_only_calls_are_weak_zero_d_arrays():
    # the documented deviation (README, "Scalars"): NumPy gives int64 here
    r = xnp.add(1, 2)
    assert r.weak_type and repr(r) == "np.int64(3)"
    assert (r * xnp.ones(2, np.int8)).dtype == np.int8
    assert (xnp.add(1, 2) * np.ones(2, np.int8)).dtype == np.int8
