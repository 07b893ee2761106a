"""Eager calls whose result the values decide beyond their signature (a bounds check that
raises, a result sized by the values) computed by NumPy's own function on the host values
and replayed as that call (``xnp/numpy_api/_host_calls.py``): each call of one signature
with new values gives NumPy's result or NumPy's error, eagerly; under ``jit`` the same
functions keep their primitives and agree with NumPy where they can be traced.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import xnp
from xnp.numpy_api import _replay

RNG = np.random.default_rng(7)


def _values(kind: str, shape, calls: int = 4):
    """``calls`` arrays of one signature and different values (some with no non-zero)."""
    out = []
    for k in range(calls):
        if kind == "mask":
            out.append(RNG.random(shape) < (0.0 if k == 1 else 0.5))
        elif kind == "counts":
            out.append(RNG.integers(0, 3 + 4 * k, shape))
        else:
            out.append(RNG.standard_normal(shape))
    return out


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    g = np.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype,
                                                              want.shape)
    np.testing.assert_array_equal(g, want)


# name, call on a module, the kinds of its array arguments and their shapes
CASES = [
    ("nonzero 1-d", lambda m, a: m.nonzero(a), [("mask", (7,))]),
    ("nonzero 2-d", lambda m, a: m.nonzero(a), [("mask", (3, 5))]),
    ("nonzero 0-size", lambda m, a: m.nonzero(a), [("mask", (0, 3))]),
    ("where(cond)", lambda m, a: m.where(a), [("mask", (4, 2))]),
    ("flatnonzero", lambda m, a: m.flatnonzero(a), [("mask", (2, 3))]),
    ("argwhere 2-d", lambda m, a: m.argwhere(a), [("mask", (3, 4))]),
    ("argwhere 0-d", lambda m, a: m.argwhere(a), [("mask", ())]),
    ("argwhere floats", lambda m, a: m.argwhere(a > 0.3), [("float", (6,))]),
    ("bincount", lambda m, a: m.bincount(a), [("counts", (9,))]),
    ("bincount minlength", lambda m, a: m.bincount(a, minlength=12), [("counts", (5,))]),
    ("bincount weights", lambda m, a, w: m.bincount(a, w), [("counts", (6,)), ("float", (6,))]),
    ("take", lambda m, a, i: m.take(a, i), [("float", (5,)), ("counts", (2, 3))]),
    ("take axis", lambda m, a, i: m.take(a, i, axis=1), [("float", (2, 9)), ("counts", (4,))]),
    ("take wrap", lambda m, a, i: m.take(a, i, mode="wrap"), [("float", (3,)),
                                                              ("counts", (5,))]),
    ("take clip", lambda m, a, i: m.take(a, i, axis=0, mode="clip"), [("float", (2, 2)),
                                                                       ("counts", (3,))]),
    ("take_along_axis", lambda m, a, i: m.take_along_axis(a, i % 4, axis=1),
     [("float", (3, 4)), ("counts", (3, 2))]),
    ("take_along_axis none", lambda m, a, i: m.take_along_axis(a, i, axis=None),
     [("float", (2, 4)), ("counts", (6,))]),
    ("compress", lambda m, c, a: m.compress(c, a), [("mask", (5,)), ("float", (2, 3))]),
    ("compress axis", lambda m, c, a: m.compress(c, a, axis=1), [("mask", (3,)),
                                                                  ("float", (2, 4))]),
    ("extract", lambda m, c, a: m.extract(c, a), [("mask", (2, 3)), ("counts", (2, 3))]),
    ("isin", lambda m, a, b: m.isin(a, b), [("counts", (3, 4)), ("counts", (5,))]),
    ("isin invert table", lambda m, a, b: m.isin(a, b, invert=True, kind="table"),
     [("counts", (6,)), ("counts", (2, 2))]),
    ("isin floats", lambda m, a, b: m.isin(a, b), [("float", (4,)), ("float", (3,))]),
    ("intersect1d", lambda m, a, b: m.intersect1d(a, b), [("counts", (7,)), ("counts", (5,))]),
    ("intersect1d indices", lambda m, a, b: m.intersect1d(a, b, return_indices=True),
     [("counts", (2, 4)), ("counts", (6,))]),
    ("setdiff1d", lambda m, a, b: m.setdiff1d(a, b), [("counts", (8,)), ("counts", (3,))]),
    ("setdiff1d unique", lambda m, a, b: m.setdiff1d(a, b, assume_unique=True),
     [("float", (5,)), ("float", (2,))]),
    ("setxor1d", lambda m, a, b: m.setxor1d(a, b), [("counts", (6,)), ("counts", (6,))]),
    ("union1d", lambda m, a, b: m.union1d(a, b), [("counts", (4,)), ("counts", (3,))]),
]


@pytest.mark.parametrize("name,call,kinds", CASES, ids=[c[0] for c in CASES])
def test_each_call_of_a_signature_gives_numpys_result_for_its_values(name, call, kinds):
    arg_sets = list(zip(*[_values(kind, shape) for kind, shape in kinds]))
    _replay.clear()
    for args in arg_sets:
        try:
            want = call(np, *args)
        except Exception as e:  # noqa: BLE001  (an out-of-bounds index: the same error)
            with pytest.raises(type(e), match=str(e).replace("(", r"\(").replace(")", r"\)")):
                call(xnp, *[xnp.asarray(a) for a in args])
            continue
        _same(call(xnp, *[xnp.asarray(a) for a in args]), want)


def test_out_of_bounds_indices_raise_numpys_error_on_every_call():
    a = np.arange(5.0)
    x = xnp.asarray(a)
    _replay.clear()
    for idx in ([0, 4], [1, 5], [2, 3], [-6, 0], [-5, 1]):
        i = np.array(idx)
        try:
            want = np.take(a, i)
        except IndexError as e:
            with pytest.raises(IndexError, match=str(e)):
                xnp.take(x, xnp.asarray(i))
            with pytest.raises(IndexError, match=str(e)):
                x.take(xnp.asarray(i))
            continue
        _same(xnp.take(x, xnp.asarray(i)), want)
        _same(x.take(xnp.asarray(i)), want)
    assert _replay.stats(xnp.take) == {"programs": 1, "refused": []}


def test_negative_counts_raise_xnps_message_on_every_call():
    _replay.clear()
    for v in ([1, 2], [1, -1], [0, 3], [-2, 0]):
        if min(v) < 0:
            with pytest.raises(ValueError, match="xnp.bincount: 'list' argument must have no "
                                                 "negative elements"):
                xnp.bincount(xnp.asarray(v))
            with pytest.raises(ValueError, match="must have no negative elements"):
                np.bincount(np.array(v))  # the oracle raises too
        else:
            _same(xnp.bincount(xnp.asarray(v)), np.bincount(np.array(v)))
    assert _replay.stats(xnp.bincount) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name", ["nonzero", "argwhere", "bincount", "take",
                                  "take_along_axis", "compress", "extract", "isin",
                                  "intersect1d", "setdiff1d", "setxor1d"])
def test_the_calls_replay(name):
    _replay.clear()
    x = xnp.asarray(np.arange(6) % 3)
    calls = {"nonzero": lambda: xnp.nonzero(x), "argwhere": lambda: xnp.argwhere(x),
             "bincount": lambda: xnp.bincount(x), "take": lambda: xnp.take(x, x),
             "take_along_axis": lambda: xnp.take_along_axis(x, x, axis=0),
             "compress": lambda: xnp.compress(x > 0, x), "extract": lambda: xnp.extract(x, x),
             "isin": lambda: xnp.isin(x, x[:2]), "intersect1d": lambda: xnp.intersect1d(x, x),
             "setdiff1d": lambda: xnp.setdiff1d(x, x[:3]),
             "setxor1d": lambda: xnp.setxor1d(x, x[:3])}
    for _ in range(3):
        calls[name]()
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}


def test_a_result_shaped_by_values_is_not_passed_on_by_a_replay():
    # a call that passes nonzero's result to a primitive would hold its length in the
    # primitive's parameters: it keeps its full path, and each call is right
    f = _replay.cached(lambda a: xnp.nonzero(a)[0].reshape(-1, 1) * 2)
    for k in range(4):
        m = np.arange(8) % (2 + k) == 0
        _same(f(xnp.asarray(m)), np.nonzero(m)[0].reshape(-1, 1) * 2)
    assert _replay.stats(f)["refused"] == [
        "passed reshape an array whose shape values decided"]


def test_meshgrid_replays_and_matches_numpy():
    _replay.clear()
    for n in range(1, 4):
        xs = [np.arange(n + 1.0), np.arange(3, dtype=np.int32), np.linspace(0, 1, 2)]
        for kw in ({}, {"indexing": "ij"}, {"sparse": True}, {"copy": False}):
            for k in (1, 2, 3):
                want = np.meshgrid(*xs[:k], **kw)
                got = xnp.meshgrid(*[xnp.asarray(v) for v in xs[:k]], **kw)
                assert len(got) == len(want)
                for g, w in zip(got, want):
                    _same(g, w)
                    assert np.asarray(g).flags.c_contiguous == w.flags.c_contiguous
    assert _replay.stats(xnp.meshgrid)["programs"] >= 1


@pytest.mark.parametrize("name,call,args", [
    ("take", lambda m, a, i: m.take(a, i), (np.arange(5.0), np.array([[0, 4], [2, 1]]))),
    ("take axis", lambda m, a, i: m.take(a, i, axis=1), (np.ones((2, 3)), np.array([2, 0]))),
    ("take_along_axis", lambda m, a, i: m.take_along_axis(a, i, axis=1),
     (np.arange(6.0).reshape(2, 3), np.array([[2, 0], [1, 1]]))),
    ("meshgrid", lambda m, a, b: m.meshgrid(a, b), (np.arange(3.0), np.arange(2))),
    ("meshgrid ij", lambda m, a, b: m.meshgrid(a, b, indexing="ij"),
     (np.arange(3.0), np.arange(2))),
    ("nonzero size", lambda m, a: m.nonzero(a, size=4) if m is xnp else
     tuple(np.pad(i, (0, 4 - len(i))) for i in np.nonzero(a)), (np.array([0, 3, 0, 1]),)),
    ("bincount length", lambda m, a: m.bincount(a, length=6) if m is xnp else
     np.bincount(a, minlength=6), (np.array([1, 1, 4]),)),
    ("isin", lambda m, a, b: m.isin(a, b), (np.array([[1, 5], [2, 2]]), np.array([2, 7, 1]))),
    ("isin invert", lambda m, a, b: m.isin(a, b, invert=True),
     (np.array([0.5, np.nan, 2.0]), np.array([np.nan, 0.5]))),
    ("intersect1d size", lambda m, a, b: m.intersect1d(a, b, size=2) if m is xnp else
     np.intersect1d(a, b), (np.array([3, 1, 3, 2]), np.array([2, 3, 9]))),
    ("setdiff1d size", lambda m, a, b: m.setdiff1d(a, b, size=2) if m is xnp else
     np.setdiff1d(a, b), (np.array([3, 1, 3, 2]), np.array([2, 9]))),
    ("setxor1d size", lambda m, a, b: m.setxor1d(a, b, size=3) if m is xnp else
     np.setxor1d(a, b), (np.array([3, 1, 3, 2]), np.array([2, 9]))),
    ("compress size", lambda m, c, a: m.compress(c, a, size=2) if m is xnp else
     np.compress(c, a), (np.array([True, False, True]), np.array([4.0, 5.0, 6.0]))),
])
def test_under_jit_the_same_results(name, call, args):
    want = call(np, *args)
    got = xnp.jit(lambda *a: call(xnp, *a))(*[xnp.asarray(a) for a in args])
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want):
            _same(g, w)
    else:
        _same(got, want)


@pytest.mark.parametrize("kw", [{}, {"return_index": True}, {"return_inverse": True},
                                {"return_counts": True},
                                {"return_index": True, "return_inverse": True,
                                 "return_counts": True},
                                {"axis": 0}, {"axis": 1, "return_inverse": True},
                                {"equal_nan": False}])
def test_unique_replays_with_each_calls_values(kw):
    _replay.clear()
    for k in range(4):
        a = RNG.integers(0, 2 + k, (3, 4)).astype(float)
        if k == 2:
            a[0, :2] = np.nan
        want = np.unique(a, **kw)
        got = xnp.unique(xnp.asarray(a), **kw)
        _same(got, want)
    assert _replay.stats(xnp.unique) == {"programs": 1, "refused": []}


def _raised(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the outcome compared)
        return type(e), str(e)
    return None


@pytest.mark.parametrize("dtype", [np.uint64, np.int8, np.uint8, np.bool_])
def test_bincount_casts_integer_input_as_numpy(dtype):
    _replay.clear()
    for v in ([1, 2, 2], [0, 1, 1], [1, 0, 0]):
        a = np.array(v).astype(dtype)
        _same(xnp.bincount(xnp.asarray(a)), np.bincount(a))
    big = np.array([2**63], np.uint64)  # wraps to a negative int64, as NumPy's cast
    assert _raised(np.bincount, big)[0] is ValueError
    assert _raised(xnp.bincount, xnp.asarray(big)) == (
        ValueError, "xnp.bincount: 'list' argument must have no negative elements")
    for bad in (np.array([1.0]), np.array([1j])):  # NumPy's TypeError, xnp's name
        assert _raised(np.bincount, bad)[0] is TypeError
        assert _raised(xnp.bincount, xnp.asarray(bad))[0] is TypeError
    assert _raised(np.bincount, np.array([1]), minlength=None) == (
        TypeError, "use 0 instead of None for minlength")
    assert _raised(xnp.bincount, xnp.asarray([1]), minlength=None) == (
        TypeError, "xnp.bincount: use 0 instead of None for minlength")


@pytest.mark.parametrize("value", [np.array(True), np.array(0.0), np.array(3)])
def test_nonzero_of_0d_raises_numpys_message(value):
    want = _raised(np.nonzero, value)
    for _ in range(2):
        assert _raised(xnp.nonzero, xnp.asarray(value)) == want
        assert _raised(xnp.where, xnp.asarray(value)) == want


@pytest.mark.parametrize("arr,idx,axis", [((4, 5), (2, 5), 1), ((4, 5), (4, 3), 0),
                                          ((2, 3, 4), (3, 3, 1), 2)])
def test_take_along_axis_shape_mismatch_is_numpys_index_error(arr, idx, axis):
    a, i = np.ones(arr), np.zeros(idx, np.int64)
    want = _raised(np.take_along_axis, a, i, axis=axis)
    assert want[0] is IndexError
    assert _raised(xnp.take_along_axis, xnp.asarray(a), xnp.asarray(i), axis=axis) == want
    f = xnp.jit(lambda a, i: xnp.take_along_axis(a, i, axis=axis))
    assert _raised(f, xnp.asarray(a), xnp.asarray(i)) == want


@pytest.mark.parametrize("sparse,copy", [(True, False), (False, False), (True, True),
                                         (False, True)])
def test_meshgrid_returns_numpys_sequence_type(sparse, copy):
    want = np.meshgrid(np.arange(2), np.arange(3.0), sparse=sparse, copy=copy)
    got = xnp.meshgrid(xnp.arange(2), xnp.arange(3.0), sparse=sparse, copy=copy)
    assert type(got) is type(want)
    for g, w in zip(got, want):
        _same(g, w)


def test_without_the_c_modules_the_same_results():
    # where the C modules are not built: the Python paths of today's native calls, eager
    # loops (recording's Python run_eqns), asarray, the Python bools of allclose and
    # array_equal, and histogram give NumPy's results
    code = """
import sys
sys.modules['xnp._native._array_base'] = None
sys.modules['xnp._native._replay'] = None
import warnings
import numpy as np, xnp
n = np.arange(12.0).reshape(3, 4); x = xnp.asarray(n); i = xnp.asarray([0, 3, 1])
for _ in range(3):
    assert np.array_equal(np.asarray(xnp.take(x, i)), np.take(n, [0, 3, 1]))
    assert np.array_equal(np.asarray(xnp.nonzero(x > 4)[1]), np.nonzero(n > 4)[1])
    assert np.array_equal(np.asarray(xnp.bincount(i)), np.bincount([0, 3, 1]))
    assert np.array_equal(np.asarray(xnp.unique(x % 3)), np.unique(n % 3))
    assert xnp.squeeze(x) is x and xnp.asarray(x) is x
    assert np.shares_memory(np.asarray(xnp.asarray(n)), n)
    r = xnp.lax.fori_loop(0, 5, lambda k, c: c * 0.5 + 1.0, x)
    v = n.copy()
    for _ in range(5):
        v = v * 0.5 + 1.0
    assert np.array_equal(np.asarray(r), v)
    m = xnp.lax.map(lambda t: t * 2, x, batch_size=2)
    assert np.array_equal(np.asarray(m), n * 2)
    assert xnp.allclose(x, x) is True and xnp.array_equal(x, x + 1) is False
    h, e = xnp.histogram(x, bins=4)
    assert np.array_equal(np.asarray(h), np.histogram(n, bins=4)[0])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    xnp.lax.fori_loop(0, 1, lambda k, c: xnp.log(c), xnp.asarray([0.0]))
assert [x.filename for x in w] == ["<string>"], [x.filename for x in w]
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
