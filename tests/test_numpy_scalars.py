"""Eager scalars are NumPy's: where NumPy returns a NumPy scalar (``a[0]``, ``a.sum()``,
``xnp.sum(a)``, ``xnp.add(1, 2)``, ``xnp.float64(1.5)``), xnp returns that NumPy scalar, and
where NumPy returns a 0-d array (``xnp.asarray(5)``, ``xnp.where(True, 1, 2)``) xnp returns
a 0-d xnp array, printing and refusing to hash as NumPy's (README, "Scalars";
``xnp/numpy_api/_scalars.py``). Oracle: the same expression on NumPy arrays, for every
dtype; under ``jit`` values stay traced."""

import math
import operator
import pickle

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


def _kind(v):
    """What NumPy's rule gives: the scalar type for a scalar, ('array', ndim, dtype) for an
    array (an xnp array standing for NumPy's ndarray)."""
    if isinstance(v, (np.ndarray, xnp.Array)):
        return ("array", v.ndim, np.dtype(v.dtype))
    return type(v)


@pytest.mark.parametrize("dt", DTYPES)
def test_elements_and_reductions_are_numpy_scalars(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for i in range(len(n)):
        assert type(a[i]) is type(n[i]) and a[i] == n[i]
        assert hash(a[i]) == hash(n[i]) and repr(a[i]) == repr(n[i]) and str(a[i]) == str(n[i])
    assert [type(v) for v in a] == [type(v) for v in n]  # iteration
    assert repr(a) == repr(n) and str(a) == str(n)
    assert repr(a.sum()) == repr(n.sum()) and repr(xnp.sum(a)) == repr(np.sum(n))
    assert repr(a.max()) == repr(n.max()) and repr(xnp.argmax(a)) == repr(np.argmax(n))
    assert repr(xnp.asarray(n[1:2])) == repr(n[1:2]) and repr(a[:0]) == repr(n[:0])
    assert repr(xnp.asarray(n[0])) == repr(np.asarray(n[0]))  # a 0-d array prints as one


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
        z = xnp.asarray(n[i])  # a 0-d array formats its item, as NumPy's 0-d array
        assert _outcome(lambda v: format(v, ".3f"), z) == _outcome(
            lambda v: format(v, ".3f"), np.asarray(n[i]))
    assert format(a, "") == format(n, "")
    with pytest.raises(TypeError, match="unsupported format string"):
        format(a, ".2f")
    assert f"{xnp.jit(lambda t: t[0])(n)}" == f"{n[0]}"


@pytest.mark.parametrize("dt", DTYPES)
def test_scalars_as_dict_keys_and_set_members(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    assert set(a) == set(n) and len(set(a)) == len(set(n.tolist()))
    d = {a[0]: "first"}
    assert d[n[0].item()] == "first" and d[a[0]] == "first" and {n[0]: 1}[a[0]] == 1


@pytest.mark.parametrize("dt", DTYPES)
def test_scalar_conversions_and_isinstance_match_numpy(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for fn in (operator.index, math.floor, math.ceil, math.trunc, round, int, float, complex,
               bool, lambda v: round(v, 1)):
        if dt.startswith("complex") and fn in (int, float, math.floor, math.ceil, round):
            continue  # NumPy warns (ComplexWarning) or raises
        got, want = _outcome(fn, a[2]), _outcome(fn, n[2])
        assert got == want, (fn, got, want)
        if isinstance(want, tuple):
            assert got[0] is want[0]
    for t in (float, int, complex, bool, np.generic, np.number, np.integer, np.floating,
              np.inexact, np.complexfloating, np.bool_, xnp.generic, xnp.integer,
              xnp.floating, getattr(xnp, dt)):
        assert isinstance(a[0], t) == isinstance(n[0], t), t
        assert isinstance(a.sum(), t) == isinstance(n.sum(), t), t


@pytest.mark.parametrize("dt", DTYPES)
def test_scalars_mix_with_xnp_and_numpy_arrays(dt):
    n = _data(dt)
    a = xnp.asarray(n)
    for left, right, expected in [(a[0], a, n[0] + n), (n[0], a, n[0] + n), (a, n[0], n + n[0]),
                                  (a[0], 1, n[0] + 1), (a[0], a[1], n[0] + n[1])]:
        res = left + right
        if isinstance(expected, np.ndarray) and (isinstance(left, xnp.Array)
                                                 or isinstance(right, xnp.Array)):
            assert type(res) is xnp.Array and res.dtype == expected.dtype, (left, right)
            np.testing.assert_array_equal(np.asarray(res), expected)
        else:  # scalars only: NumPy's own arithmetic
            assert type(res) is type(expected) and res == expected


def _cases():
    a1, a2 = np.array([1.0, -2.0, 3.5]), np.array([[1.0, 2.0], [3.0, 4.0]])
    i1, z = np.array([3, 1, 2]), np.array(2.5)
    return [
        ("sum", lambda m, a: m.sum(a), a1), ("mean", lambda m, a: m.mean(a), a1),
        ("std", lambda m, a: m.std(a), a1), ("median", lambda m, a: m.median(a), a1),
        ("percentile", lambda m, a: m.percentile(a, 50), a1),
        ("quantile", lambda m, a: m.quantile(a, 0.5), a1),
        ("average", lambda m, a: m.average(a), a1), ("ptp", lambda m, a: m.ptp(a), a1),
        ("nanmax", lambda m, a: m.nanmax(a), a1), ("argmax", lambda m, a: m.argmax(a), a1),
        ("count_nonzero", lambda m, a: m.count_nonzero(a), a1),
        ("sum axis", lambda m, a: m.sum(a, axis=0), a1),
        ("sum keepdims", lambda m, a: m.sum(a, keepdims=True), a1),
        ("sum axis 2-d", lambda m, a: m.sum(a, axis=1), a2),
        ("all", lambda m, a: m.all(a > 0), a1), ("any", lambda m, a: m.any(a > 0), a1),
        ("dot", lambda m, a: m.dot(a, a), a1), ("vdot", lambda m, a: m.vdot(a, a), a1),
        ("inner", lambda m, a: m.inner(a, a), a1), ("matmul", lambda m, a: m.matmul(a, a), a1),
        ("einsum", lambda m, a: m.einsum("i,i", a, a), a1),
        ("tensordot", lambda m, a: m.tensordot(a, a, 1), a1),
        ("trace", lambda m, a: m.trace(a), a2), ("det", lambda m, a: m.linalg.det(a), a2),
        ("norm", lambda m, a: m.linalg.norm(a), a1),
        ("slogdet", lambda m, a: m.linalg.slogdet(a), a2),
        ("matrix_rank", lambda m, a: m.linalg.matrix_rank(a), a2),
        ("take", lambda m, a: m.take(a, 1), a1),
        ("searchsorted", lambda m, a: m.searchsorted(a, 2), i1),
        ("interp", lambda m, a: m.interp(0.5, [0.0, 1.0], [0.0, 2.0]), a1),
        ("sqrt of a sum", lambda m, a: m.sqrt(m.sum(a * a)), a1),
        ("ufunc of a 0-d array", lambda m, a: m.sin(a), z),
        ("ufunc of Python scalars", lambda m, a: m.add(1, 2), z),
        ("ufunc of Python floats", lambda m, a: m.hypot(3.0, 4.0), z),
        ("divmod", lambda m, a: m.divmod(7, 2), z), ("modf", lambda m, a: m.modf(a), z),
        ("clip", lambda m, a: m.clip(a, 0, 1), z), ("round", lambda m, a: m.round(a), z),
        ("nan_to_num", lambda m, a: m.nan_to_num(a), z),
        ("add.reduce", lambda m, a: m.add.reduce(a), a1),
        ("add.outer", lambda m, a: m.add.outer(1, 2), z),
        ("where", lambda m, a: m.where(True, 1, 2), z), ("asarray", lambda m, a: m.asarray(a), z),
        ("zeros", lambda m, a: m.zeros(()), z), ("copy", lambda m, a: m.copy(a), z),
        ("reshape", lambda m, a: m.reshape(a, ()), np.array([1.0])),
        ("squeeze", lambda m, a: m.squeeze(a), np.array([1.0])),
        ("broadcast_to", lambda m, a: m.broadcast_to(a, ()), z),
        ("real", lambda m, a: m.real(a), z), ("astype", lambda m, a: m.astype(a, m.int32), z),
        ("method sum", lambda m, a: a.sum(), a1), ("method mean", lambda m, a: a.mean(), a1),
        ("method max", lambda m, a: a.max(), a1), ("method argmin", lambda m, a: a.argmin(), a1),
        ("method var", lambda m, a: a.var(), a1), ("method dot", lambda m, a: a.dot(a), a1),
        ("method round 0-d", lambda m, a: a.round(), z), ("method take", lambda m, a: a.take(0), a1),
        ("method copy 0-d", lambda m, a: a.copy(), z), ("method reshape", lambda m, a: a.reshape(()), z),
        ("scalar type", lambda m, a: m.float32(1.5), z),
        ("scalar type of a 0-d array", lambda m, a: m.float32(a), z),
        ("scalar type of an array", lambda m, a: m.int64(a), a1),
        ("scalar type no argument", lambda m, a: m.float64(), z),
        ("scalar type from str", lambda m, a: m.int16("7"), z),
    ]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[0])
def test_numpy_scalar_rule_per_function(case):
    # each call gives what NumPy's gives: a scalar of the same type, or an array (xnp's)
    # of the same ndim and dtype; equal values
    _, fn, data = case
    want = fn(np, data)
    got = fn(xnp, xnp.asarray(data))
    if isinstance(want, tuple):
        assert type(got).__name__ == type(want).__name__ and len(got) == len(want)
        pairs = list(zip(got, want))
    else:
        pairs = [(got, want)]
    for g, w in pairs:
        assert _kind(g) == _kind(w), (g, w)
        assert not isinstance(g, np.ndarray)  # an array result is xnp's, never NumPy's
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12)


@pytest.mark.parametrize("idx", [0, -1, (1, 2), (np.int64(1), 0), (np.array(1), 0),
                                 (xnp.asarray(1), 0), (0, ...), (0, slice(None)), (..., 0),
                                 (0, None), ([0], 1), (True,), (0, [1])],
                         ids=repr)
def test_indexing_gives_a_scalar_for_one_element_only(idx):
    n = np.arange(12.0).reshape(3, 4)
    a = xnp.asarray(n)
    nidx = tuple(np.asarray(i) if isinstance(i, xnp.Array) else i for i in idx) if isinstance(
        idx, tuple) else idx
    want, got = n[nidx], a[idx]
    assert _kind(got) == _kind(want) and not isinstance(got, np.ndarray)
    np.testing.assert_array_equal(np.asarray(got), want)
    # the same on an array that lives in a jit output's buffer (the full indexing path)
    b = xnp.jit(lambda t: t + 0)(n)
    got = b[idx]
    assert _kind(got) == _kind(want)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_zero_d_arrays_index_and_stay_arrays_where_numpy_does():
    z = xnp.asarray(2.5)
    assert type(z[()]) is np.float64 and type(z[...]) is xnp.Array and z[...].ndim == 0
    assert type(z + 1) is xnp.Array  # operators of 0-d arrays keep arrays (README)
    assert repr(z) == "array(2.5)" and repr(z + 1) == "array(3.5)"


def test_out_argument_is_returned_as_given():
    a = xnp.arange(4.0)
    out = xnp.zeros(())
    r = xnp.sum(a, out=out)
    assert r is out and float(out) == 6.0
    o2 = xnp.zeros(())
    assert xnp.add(xnp.asarray(1.0), 2.0, o2) is o2 and float(o2) == 3.0
    assert xnp.add(xnp.asarray(1.0), 2.0, out=o2) is o2


def test_arrays_are_unhashable_including_zero_d():
    for x in (xnp.ones(3), xnp.ones((1,)), xnp.ones((2, 2)), xnp.asarray(1.0), xnp.zeros(()),
              xnp.jit(lambda t: t.sum())(xnp.ones(3))):
        with pytest.raises(TypeError, match="unhashable"):
            hash(x)


def test_jit_results_stay_arrays_and_tracers_keep_their_repr():
    x = xnp.arange(3.0)
    seen = []

    def f(v):
        seen.append((repr(v), type(v[0]).__name__, type(v.sum()).__name__))
        return v.sum(), v * 2, xnp.float32(v[0])

    s, y, c = xnp.jit(f)(x)
    assert seen == [("JitTracer(float64[3])", "JitTracer", "JitTracer")]
    assert type(s) is xnp.Array and repr(s) == repr(np.asarray(3.0))
    assert repr(y) == repr(np.arange(3.0) * 2) and c.dtype == np.float32
    g = xnp.grad(lambda v: xnp.sum(v * v))(x)
    np.testing.assert_array_equal(np.asarray(g), 2 * np.arange(3.0))
    assert type(xnp.grad(lambda t: t * t)(3.0)) is xnp.Array
    v = xnp.vmap(lambda r: r.sum())(xnp.ones((2, 3)))
    assert type(v) is xnp.Array and v.shape == (2,)


def test_scalar_type_calls_cast_eagerly_and_under_jit():
    assert repr(xnp.float32(1.5)) == repr(np.float32(1.5))
    assert repr(xnp.int8(-3)) == repr(np.int8(-3))
    with pytest.raises(OverflowError):
        xnp.int8(300)  # as np.int8(300)
    out = xnp.jit(lambda t: xnp.float32(t))(xnp.arange(3.0))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), np.arange(3.0, dtype=np.float32))
    names = [e.primitive.name for e in xnp.make_jaxpr(lambda t: xnp.int32(t))(1.5).eqns]
    assert names == ["convert_element_type"]
    assert isinstance(np.float64(1.0), xnp.float64) and xnp.float64 == np.float64


def test_python_scalar_only_calls_are_numpy_scalars_eagerly_weak_under_jit():
    # README, "Scalars": eagerly NumPy's strong np.int64; under jit the staged value is
    # weakly typed (as in JAX), so the int8 array's dtype wins there
    r = xnp.add(1, 2)
    assert type(r) is np.int64 and r == 3
    assert (r * xnp.ones(2, np.int8)).dtype == (np.add(1, 2) * np.ones(2, np.int8)).dtype
    out = xnp.jit(lambda t: xnp.add(1, 2) * t)(xnp.ones(2, np.int8))
    assert out.dtype == np.int8
    np.testing.assert_array_equal(np.asarray(out), [3, 3])


def test_state_in_a_zero_d_array_stays_an_xnp_array():
    # ``state = state + 1`` on ``xp.zeros(())`` keeps an xnp array,
    # so a jitted function updating it leaks a tracer rather than a frozen number
    state = xnp.zeros(())
    state = state + 1
    assert type(state) is xnp.Array and float(state) == 1.0


def test_scalar_results_pickle_and_have_numpy_attributes():
    a = xnp.arange(6.0)
    for s, n in ((a[1], np.arange(6.0)[1]), (a.sum(), np.arange(6.0).sum())):
        assert pickle.loads(pickle.dumps(s)) == n
        assert s.dtype == n.dtype and s.shape == () and s.ndim == 0 and s.item() == n.item()
    assert a.item(1) == 1.0 and type(a.item(1)) is float  # .item() stays a Python scalar


def test_scalar_types_are_subclasses_of_numpys():
    for name in ("bool_", "int8", "uint32", "int64", "float16", "float32", "float64",
                 "complex64", "complex128"):
        t, n = getattr(xnp, name), getattr(np, name)
        # equal to NumPy's type and dtype; hashing as the dtype (tests/test_array_api.py)
        assert t == n and t == np.dtype(n) and hash(t) == hash(np.dtype(n))
        assert issubclass(t, n) and issubclass(n, t) and isinstance(n(1), t)
        for base in (np.generic, np.number, np.integer, np.floating, np.complexfloating,
                     float, int, complex):
            assert issubclass(t, base) == issubclass(n, base), (name, base)
    assert xnp.float64.fromhex("0x1p1") == 2.0 and xnp.float64(2.5).as_integer_ratio() == (5, 2)

    class Meters(xnp.float64):  # a user's subclass constructs its own instances, as NumPy's
        pass

    m = Meters(1.5)
    assert type(m) is Meters and m == 1.5 and isinstance(m, np.float64)


@pytest.mark.parametrize("fname,x", [("real", 2.5), ("real", np.float32(2)), ("imag", 1 + 2j),
                                     ("squeeze", np.float32(2)), ("transpose", np.float32(2)),
                                     ("permute_dims", np.int8(3))])
def test_shape_functions_of_a_scalar_give_numpys_result(fname, x):
    # NumPy calls the scalar's own attribute/method: np.real(2.5) is the float 2.5
    got, want = getattr(xnp, fname)(x), getattr(np, fname)(x)
    assert type(got) is type(want) and got == want
    assert type(xnp.reshape(np.int64(6), ())) is type(np.reshape(np.int64(6), ()))
    # an array argument keeps NumPy's 0-d array result
    assert type(getattr(xnp, fname)(xnp.asarray(x))) is xnp.ndarray
