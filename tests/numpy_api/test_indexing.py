"""Tests of ``xnp/numpy_api/indexing.py``: ``x[idx]``, ``x[idx] = v``, ``x.at[idx]`` and
the indexing routines, against NumPy (eager, jit, ``eval_jaxpr``); NumPy's
aliasing of basic-index views (eagerly, and functionalized under jit); data-dependent
output sizes and static indices under jit; and the lax slicing primitives with traced
indices."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy, grid, make_array
from xnp import lax

SHAPE = (4, 3, 5)
M1 = np.array([True, False, True, True])
M2 = np.array([[True, False, True], [False, False, False], [True, True, False],
               [False, True, True]])

# index expressions for an array of SHAPE; NumPy decides which raise
INDEXES = [
    0, -1, 3, (1, 2), (1, 2, 3), (-4, -3, -5), (), Ellipsis, None, (None, 0),
    slice(None), slice(1, 3), slice(None, None, 2), slice(None, None, -1), slice(3, 0, -2),
    slice(-2, None), slice(10, 20), slice(None, None, -3), (slice(None), 1), (Ellipsis, 1),
    (0, None, slice(1, None)), (Ellipsis, None), (None, Ellipsis, None),
    (1, Ellipsis, slice(None, None, -2)), (slice(None), slice(2, 0, -1), slice(None, None, 3)),
    # advanced
    [0, 2], [-1, 0, 0], np.array([[0, 1], [2, 3]]), (slice(None), [0, 2]),
    (0, slice(None), [1, 4]), ([0, 1], slice(None), [1, 2]), ([[0], [1]], [0, 1, 2]),
    (slice(1, None), [0, 2], None), (slice(None), [0, 1], None, [0, 1]),
    ([0, 1], Ellipsis, [0, 0]), (Ellipsis, [1, 0]), (np.array(1),), (slice(None), np.array(2)),
    ([],), (np.array([], dtype=np.int64),), (np.array([1, 2], dtype=np.uint8),),
    (slice(None), np.array([[2], [0]], dtype=np.int32), slice(None, None, -2)),
    ([0, 1], slice(None, None, 2), 0),
    # boolean
    M1, (M2,), (slice(None), [True, False, True]), (M1, 0), (True,), (False,), (0, True),
    (M2, [0, 4, 1, 2, 3, 0, 1][:6]),
    # errors (IndexError / ValueError / TypeError as NumPy)
    4, -5, (0, 3), [0, 4], [[0, -5]], (0, 0, 0, 0), (Ellipsis, Ellipsis), 1.0, [1.0], "a",
    slice(0, 1, 0), (slice(1.5, 2),), np.array([True, False]), ([0, 1], [0, 1, 2]),
]

EDGE = [((), ()), ((), Ellipsis), ((), None), ((), (None, Ellipsis)), ((), 0),
        ((0,), ()), ((0,), slice(None)), ((0,), []), ((0,), 0), ((0,), [0]),
        ((0,), np.zeros(0, bool)), ((2, 0, 4), 1), ((2, 0, 4), (slice(None), [])),
        ((2, 0, 4), (0, slice(None), 2)), ((2, 0, 4), (Ellipsis, [1, 3])),
        ((2, 0, 4), (slice(None), 0)), ((1,), (0, None)), ((3, 1), (slice(None), 0))]

DTYPES = [np.dtype(t) for t in (np.float64, np.int32, np.bool_, np.complex64, np.uint8)]


def _x(shape, dtype=np.float64):
    return make_array(np.random.default_rng(0), shape, dtype)


def _id(v):
    return repr(v).replace(" ", "")[:40]


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):
        yield


# --------------------------------------------------------------------------- getitem


@pytest.mark.parametrize("idx", INDEXES, ids=_id)
def test_getitem_matches_numpy(idx):
    check_vs_numpy(lambda xp, x: x[idx], _x(SHAPE))


@pytest.mark.parametrize("shape,idx", EDGE, ids=_id)
def test_getitem_edge_shapes(shape, idx):
    check_vs_numpy(lambda xp, x: x[idx], _x(shape))


@pytest.mark.parametrize("case", grid(dtype=DTYPES, idx=[1, (slice(None, None, -1), [0, 2]),
                                                         (M1,), (None, 2, Ellipsis)], n=12))
def test_getitem_dtypes(case):
    check_vs_numpy(lambda xp, x: x[case.idx], _x(SHAPE, case.dtype))


@pytest.mark.parametrize("idx", [
    np.int64(2), np.int64(-1), np.array([0, 3, -1]), np.array([[1], [2]], dtype=np.int32),
    np.array([1, 2], dtype=np.uint16)], ids=_id)
def test_getitem_traced_index(idx):
    check_vs_numpy(lambda xp, x, i: x[i], _x(SHAPE), idx)
    check_vs_numpy(lambda xp, x, i: x[1:, i % 3, ::-2], _x(SHAPE), idx)
    check_vs_numpy(lambda xp, x, i: x[i, None, :, [0, 4]], _x(SHAPE), idx)


def test_getitem_two_traced_indices():
    check_vs_numpy(lambda xp, x, i, j: x[i, :, j], _x(SHAPE), np.array([0, 3]), np.int64(-2))
    check_vs_numpy(lambda xp, x, i, j: x[i, j], _x(SHAPE), np.int64(1), np.int64(2))


def test_getitem_traced_out_of_bounds_clamps():
    x = xnp.asarray(np.arange(5.0))
    f = xnp.jit(lambda x, i: x[i])
    assert float(f(x, 10)) == 4.0 and float(f(x, -7)) == 0.0 and float(f(x, -2)) == 3.0
    g = xnp.jit(lambda x, i: x[i])
    np.testing.assert_array_equal(np.asarray(g(x, np.array([7, -1, -9, 2]))), [4.0, 4.0, 0.0, 2.0])


def test_getitem_jaxprs():
    x = np.zeros((3, 4))
    assert str(xnp.make_jaxpr(lambda x: x[1])(x)) == (
        "{ lambda ; a:f64[3,4]. let\n"
        "    b:f64[1,4] = slice[limit_indices=(2, 4) start_indices=(1, 0) strides=None] a\n"
        "    c:f64[4] = squeeze[dimensions=(0,)] b\n"
        "  in (c,) }")
    text = str(xnp.make_jaxpr(lambda x, i: x[i])(x, np.int64(1)))
    assert "dynamic_slice[slice_sizes=(1, 4)]" in text and "select_n" in text, text
    text = str(xnp.make_jaxpr(lambda x: x[::-1, None])(x))
    assert "rev[dimensions=(0,)]" in text and "broadcast_in_dim" in text, text
    text = str(xnp.make_jaxpr(lambda x: x[[0, 2], 1:])(x))
    assert "gather[" in text and "PROMISE_IN_BOUNDS" in text, text
    assert str(xnp.make_jaxpr(lambda x: x[...])(x)) == "{ lambda ; a:f64[3,4]. let  in (a,) }"


# --------------------------------------------------------------------------- setitem


def _expect(x, idx, value):
    e = x.copy()
    try:
        e[idx] = value
    except Exception as err:  # the oracle decides the class
        return None, type(err)
    return e, None


def _check_setitem(x, idx, value, traced_value=True):
    expected, err = _expect(x, idx, value)
    y = xnp.asarray(x.copy())
    z = xnp.asarray(x.copy())

    def f(y):
        y[idx] = value
        return y

    def g(y, v):
        y[idx] = v
        return y

    if err is not None:
        with pytest.raises(err):
            f(y)
        with pytest.raises(err):
            xnp.jit(f)(z)
        return
    f(y)
    assert_allclose(y, expected, err_msg=f"eager x[{idx!r}] = {value!r}")
    out = xnp.jit(f)(z)
    assert_allclose(out, expected, err_msg=f"jit x[{idx!r}] = {value!r}")
    assert_allclose(z, expected, err_msg="jit wrote the argument back")
    if traced_value and not np.isscalar(value):
        out = xnp.jit(g)(xnp.asarray(x.copy()), np.asarray(value))
        assert_allclose(out, expected, err_msg=f"jit traced value x[{idx!r}] = {value!r}")


@pytest.mark.parametrize("idx", INDEXES, ids=_id)
def test_setitem_matches_numpy(idx):
    x = _x(SHAPE)
    try:
        target_shape = np.shape(x[idx])
    except Exception:
        target_shape = (2,)
    _check_setitem(x, idx, -7.5)
    _check_setitem(x, idx, np.arange(1.0, 1.0 + np.prod(target_shape)).reshape(target_shape))
    if len(target_shape):  # broadcast a row; a leading size-1 dim is dropped as in NumPy
        row = np.arange(target_shape[-1], dtype=np.float64)
        _check_setitem(x, idx, row[None, None] if len(target_shape) == 1 else row,
                       traced_value=False)


@pytest.mark.parametrize("shape,idx", EDGE, ids=_id)
def test_setitem_edge_shapes(shape, idx):
    _check_setitem(_x(shape), idx, 3.0)


@pytest.mark.parametrize("value", [2.7, -3, True, np.array([1.9, -2.2, 3.5]), 300, [1, 2]],
                         ids=_id)
def test_setitem_casting_and_errors(value):
    x = np.zeros((4, 3), np.int8)
    _check_setitem(x, (slice(1, 3), slice(None)), value, traced_value=False)


def test_setitem_duplicates_last_wins():
    x = np.zeros(5)
    _check_setitem(x, [1, 3, 1, 1], np.array([1.0, 2.0, 3.0, 4.0]))
    _check_setitem(x, np.array([True, False, True, False, False]), np.array([7.0, 8.0]))


def test_setitem_traced_index():
    def f(x, i, v):
        x[i] = v
        return x

    x = np.arange(12.0).reshape(3, 4)
    e = x.copy()
    e[np.array([2, 0])] = 5.0
    out = xnp.jit(f)(xnp.asarray(x.copy()), np.array([2, 0]), 5.0)
    assert_allclose(out, e)
    e = x.copy()
    e[-1] = np.arange(4.0)
    assert_allclose(xnp.jit(f)(xnp.asarray(x.copy()), np.int64(-1), np.arange(4.0)), e)
    # out-of-bounds traced writes are dropped
    assert_allclose(xnp.jit(f)(xnp.asarray(x.copy()), np.int64(7), 1.0), x)


def test_setitem_jaxprs():
    def f(x):
        x[1:3] += 1.0
        return x

    text = str(xnp.make_jaxpr(f)(np.zeros((3, 4))))
    assert text.count("dynamic_update_slice") == 1 and "scatter" not in text, text

    def g(x):
        x[[0, 2]] = 1.0
        return x

    text = str(xnp.make_jaxpr(g)(np.zeros((3, 4))))
    assert "scatter[" in text, text


# --------------------------------------------------------------------------- aliasing


def test_eager_basic_indexing_gives_views():
    a = xnp.asarray(np.arange(12.0).reshape(3, 4))
    b = a[1:3]
    b[0] = 9.0
    assert np.asarray(a)[1].tolist() == [9.0] * 4
    c = a[::-1, None, 1]
    c[...] = -1.0
    assert np.asarray(a)[:, 1].tolist() == [-1.0] * 3
    d = a[0]
    d += 100.0
    assert np.asarray(a)[0, 0] == 100.0
    e = a[..., ::2][1]
    e[0] = 42.0
    assert np.asarray(a)[1, 0] == 42.0


def test_eager_copies_where_numpy_copies():
    a = xnp.asarray(np.arange(6.0))
    s = a[2]  # a scalar in NumPy
    s += 10.0
    f = a[[1, 2]]
    f[0] = -1.0
    m = a[np.asarray(a) > 3]
    m[0] = -1.0
    assert np.asarray(a).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def _alias_program(xp, x):
    x = x.copy()
    v = x[0]
    v[1] = 5.0
    w = x[:, 1]
    x[0, 1] += 1.0
    r = x[::-1]
    r[0] *= 2.0
    u = r[:, ::2]
    u += 1.0
    x[1:3] += 1.0
    return x + 0.0, v + 0.0, w + 0.0, r + 0.0, u + 0.0


def test_jit_views_follow_numpy_aliasing():
    check_vs_numpy(_alias_program, np.arange(12.0).reshape(3, 4))


def test_jit_mutating_argument_writes_back():
    def f(x):
        v = x[1:]
        v *= 10.0
        return x.sum() if hasattr(x, "sum") else x

    x = xnp.asarray(np.ones(3))
    xnp.jit(f)(x)
    assert np.asarray(x).tolist() == [1.0, 10.0, 10.0]


def test_write_into_eager_array_inside_jit_raises():
    buf = xnp.asarray(np.zeros(3))

    def f(x):
        buf[0] = x
        return x

    with pytest.raises(NotImplementedError, match="eager array"):
        xnp.jit(f)(1.0)

    def g(x):
        v = buf[1:]
        v += x
        return v

    with pytest.raises(NotImplementedError, match="view of an eager array"):
        xnp.jit(g)(1.0)


def test_write_into_enclosing_tracer_raises():
    def outer(x):
        def inner(y):
            x[0] = y
            return y

        xnp.jit(inner)(1.0)
        return x

    with pytest.raises(NotImplementedError, match="enclosing transformation"):
        xnp.jit(outer)(np.zeros(3))


def test_rebind_traced_errors():
    def grow(x):
        x += xnp.asarray(np.ones((2, 3)))
        return x

    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        xnp.jit(grow)(np.ones(3))

    def cast(x):
        x += 1.5
        return x

    with pytest.raises(TypeError, match="same_kind"):
        xnp.jit(cast)(np.ones(3, np.int64))
    assert float(xnp.jit(cast)(1)) == 2.5  # a Python-scalar argument is immutable


# --------------------------------------------------------------------------- data-dependent sizes


def test_where_nonzero_size_under_jit():
    v = np.array([1.0, -1.0, 2.0, 3.0, 4.0])
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="size argument of xnp.nonzero "
                                                                 "must be statically specified"):
        xnp.jit(lambda x: xnp.where(x > 0))(v)
    (r,) = xnp.jit(lambda x: xnp.where(x > 0, size=3))(v)
    assert np.asarray(r).tolist() == [0, 2, 3] and r.dtype == np.int64
    (r,) = xnp.jit(lambda x: xnp.where(x > 0, size=3, fill_value=-1))(np.array([1.0, -1.0, -2.0]))
    assert np.asarray(r).tolist() == [0, -1, -1]
    (r,) = xnp.where(xnp.asarray(np.array([1.0, -1.0, 2.0])) > 0)
    assert np.asarray(r).tolist() == [0, 2]


def test_indexing_needing_concrete_values_under_jit():
    def slice_traced(x):
        return xnp.ones(3)[:x.astype(np.int64)]

    msg = (r"Slice entries must be static integers. Got slice\(None, JitTracer\(int64\[\]\), "
           r"None\) at position 0")
    with pytest.raises(IndexError, match=msg):
        xnp.jit(slice_traced)(2.0)

    def mask(x):
        v = xnp.stack([x, x])
        return v[v > 0]

    with pytest.raises(xnp.errors.NonConcreteBooleanIndexError,
                       match=r"Array boolean indices must be concrete; got bool\[2\]"):
        xnp.jit(mask)(2.0)
    assert issubclass(xnp.errors.NonConcreteBooleanIndexError, IndexError)
    assert float(xnp.jit(lambda x: xnp.ones(3)[x.astype(np.int64)])(2.0)) == 1.0

    def unpack(x):
        v = xnp.stack([x, x])
        a, b = v
        return len(v), a + b

    n, s = xnp.jit(unpack)(2.0)
    assert int(n) == 2 and float(s) == 4.0


# --------------------------------------------------------------------------- .at[]


AT_CASES = [
    ("set", [1, 3, 1], np.array([1.0, 2.0, 3.0])), ("add", [1, 3, 1], np.array([1.0, 2.0, 3.0])),
    ("multiply", [0, 0, 2], 3.0), ("min", [4, 4], np.array([-1.0, -5.0])),
    ("max", (slice(None, None, 2),), 2.5), ("add", (M1[:4].tolist() + [False],), 10.0),
    ("subtract", [0, 0], 1.0), ("set", 2, 7.0), ("add", (slice(1, 4),), np.ones(3)),
]
_UFUNCS = {"set": None, "add": np.add, "multiply": np.multiply, "min": np.minimum,
           "max": np.maximum, "subtract": np.subtract}


def _at_expected(x, op, idx, value):
    e = x.copy()
    if op == "set":
        e[idx] = value
    else:
        _UFUNCS[op].at(e, idx if not isinstance(idx, list) else np.asarray(idx), value)
    return e


@pytest.mark.parametrize("op,idx,value", AT_CASES, ids=_id)
def test_at_updates_match_numpy_ufunc_at(op, idx, value):
    x = np.arange(5.0)
    expected = _at_expected(x, op, idx, value)
    xa = xnp.asarray(x.copy())
    out = getattr(xa.at[idx], op)(value)
    assert_allclose(out, expected)
    assert_allclose(xa, x)  # functional: the array itself is unchanged
    jf = xnp.jit(lambda x: getattr(x.at[idx], op)(value))
    assert_allclose(jf(xnp.asarray(x.copy())), expected)


def test_at_modes():
    x = xnp.asarray(np.arange(5.0))
    with pytest.raises(IndexError):
        x.at[7].set(1.0)
    assert_allclose(x.at[[0, 7]].set(9.0, mode="drop"), np.array([9.0, 1, 2, 3, 4]))
    assert_allclose(x.at[[0, 7]].set(9.0, mode="clip"), np.array([9.0, 1, 2, 3, 9]))
    assert_allclose(x.at[[1, 7, -1]].get(mode="fill", fill_value=-1.0), np.array([1.0, -1, 4]))
    assert_allclose(x.at[[1, 7]].get(mode="clip"), np.array([1.0, 4.0]))
    g = xnp.jit(lambda x, i: x.at[i].get(mode="fill"))
    assert_allclose(g(x, np.array([1, 9])), np.array([1.0, np.nan]))
    h = xnp.jit(lambda x, i: x.at[i].add(1.0))
    assert_allclose(h(x, np.array([0, 9, 0])), np.array([2.0, 1, 2, 3, 4]))  # OOB dropped
    assert_allclose(xnp.asarray(np.arange(3)).at[[5]].get(mode="fill"),
                    np.array([np.iinfo(np.int64).min]))


# --------------------------------------------------------------------------- routines


NZ_SHAPES = [(0,), (1,), (5,), (3, 4), (2, 0, 4), (2, 3, 2)]


@pytest.mark.parametrize("case", grid(shape=NZ_SHAPES, dtype=[np.float64, np.bool_, np.int8],
                                      n=6))
def test_nonzero_family_matches_numpy(case):
    x = make_array(np.random.default_rng(1), case.shape, case.dtype)
    if x.dtype.kind == "f":
        x[np.random.default_rng(2).random(case.shape) < 0.4] = 0
    check_vs_numpy(lambda xp, x: xp.nonzero(x), x, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, x: xp.flatnonzero(x), x, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, x: xp.argwhere(x), x, jit=False, jaxpr=False)
    n = int(np.count_nonzero(x))
    for size in (n + 2, max(n - 1, 0)):
        exp = [np.concatenate([i[:size], np.full(max(size - n, 0), -1)]) for i in np.nonzero(x)]
        got = xnp.jit(lambda x: xnp.nonzero(x, size=size, fill_value=-1))(x)
        assert_allclose(list(got), exp)
        assert_allclose(list(xnp.nonzero(xnp.asarray(x), size=size, fill_value=-1)), exp)
        fl = xnp.jit(lambda x: xnp.flatnonzero(x, size=size, fill_value=-1))(x)
        assert_allclose(fl, np.concatenate([np.flatnonzero(x)[:size],
                                            np.full(max(size - n, 0), -1)]))


def test_nonzero_errors_and_0d():
    with pytest.raises(ValueError, match="0d arrays"):
        xnp.nonzero(xnp.asarray(np.float64(1.0)))
    check_vs_numpy(lambda xp, x: xp.argwhere(x), np.array(1.0), jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, x: xp.argwhere(x), np.array(0.0), jit=False, jaxpr=False)
    r = xnp.jit(lambda x: xnp.nonzero(x, size=2, fill_value=(7, 8)))(np.eye(2))
    assert np.asarray(r[0]).tolist() == [0, 1] and np.asarray(r[1]).tolist() == [0, 1]
    r = xnp.jit(lambda x: xnp.argwhere(x, size=3, fill_value=9))(np.eye(2))
    assert np.asarray(r).tolist() == [[0, 0], [1, 1], [9, 9]]


TAKE_CASES = [
    ((5,), [0, 4, -1], None, "raise"), ((5,), [[0, 2], [1, 1]], None, "raise"),
    ((3, 4), [3, 0], 1, "raise"), ((3, 4), 2, 0, "raise"), ((3, 4), [9, -1], None, "raise"),
    ((3, 4), [5, -7], 1, "wrap"), ((3, 4), [5, -7], -1, "clip"),
    ((2, 3, 4), [[1], [0]], 2, "raise"),
    ((3, 4), [1], 2, "raise"), ((3, 0), [], 1, "raise"), ((3, 4), [True, False], 0, "raise"),
    ((3, 4), np.array([1.0]), 0, "raise"),
]


@pytest.mark.parametrize("shape,idx,axis,mode", TAKE_CASES, ids=_id)
def test_take_matches_numpy(shape, idx, axis, mode):
    check_vs_numpy(lambda xp, x: xp.take(x, idx, axis=axis, mode=mode), _x(shape))


def test_take_traced_indices_and_fill():
    x = np.arange(12.0).reshape(3, 4)
    for mode in ("raise", "wrap", "clip"):
        i = np.array([1, -2, 3]) if mode == "raise" else np.array([5, -7, 2])
        check_vs_numpy(lambda xp, x, i: xp.take(x, i, axis=1, mode=mode), x, i)
    f = xnp.jit(lambda x, i: xnp.take(x, i, axis=0, mode="fill", fill_value=-1.0))
    assert_allclose(f(x, np.array([2, 3])), np.array([x[2], [-1.0] * 4]))


ALONG = [((3, 4), [[0], [3], [-1]], 1), ((3, 4), [[1.0]], 1), ((3, 4), [[True]], 1), ((3, 4), [[0, 2, 1, 0]], 0), ((2, 3, 4), np.zeros((2, 1, 4),
         int), 1), ((3, 1), [[0, 0, 0]], 1), ((5,), [4, 0], None), ((3, 4), [[1, 2]], 1),
         ((3, 4), [[7]], 1), ((3, 4), [0], 1), ((3, 4), np.zeros((3, 0), int), 1)]


@pytest.mark.parametrize("shape,idx,axis", ALONG, ids=_id)
def test_take_along_axis_matches_numpy(shape, idx, axis):
    idx = np.asarray(idx)
    check_vs_numpy(lambda xp, x: xp.take_along_axis(x, idx, axis), _x(shape))
    try:
        np.take_along_axis(_x(shape), idx, axis)
    except Exception:
        return
    if idx.size and (idx < shape[axis if axis is not None else 0]).all():
        check_vs_numpy(lambda xp, x, i: xp.take_along_axis(x, i, axis), _x(shape), idx)


@pytest.mark.parametrize("shape,idx,axis", [a for a in ALONG if a[2] is not None and
                                            a[0] != (3, 1)][:6], ids=_id)
def test_put_along_axis_matches_numpy(shape, idx, axis):
    idx = np.asarray(idx)
    x = _x(shape)
    e = x.copy()
    try:
        np.put_along_axis(e, idx, -3.0, axis)
    except Exception as err:
        with pytest.raises(type(err)):
            xnp.put_along_axis(xnp.asarray(x.copy()), idx, -3.0, axis)
        return
    y = xnp.asarray(x.copy())
    assert xnp.put_along_axis(y, idx, -3.0, axis) is None
    assert_allclose(y, e)

    def f(y):
        xnp.put_along_axis(y, idx, -3.0, axis)
        return y

    assert_allclose(xnp.jit(f)(xnp.asarray(x.copy())), e)


@pytest.mark.parametrize("cond,shape,axis", [
    ([True, False, True], (3, 4), 0), ([False, True], (3, 4), 1), ([1, 0, 2, 0, 1], (5,), None),
    ([True] * 5, (2, 2), None), ([True, True, False, True, True], (2, 2), 1)], ids=_id)
def test_compress_matches_numpy(cond, shape, axis):
    check_vs_numpy(lambda xp, x: xp.compress(cond, x, axis=axis), _x(shape), jit=True)


def test_compress_extract_traced_need_size():
    x = np.arange(6.0)
    c = np.array([True, False, True, True, False, False])
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda x, c: xnp.compress(c, x))(x, c)
    out = xnp.jit(lambda x, c: xnp.compress(c, x, size=4, fill_value=-1.0))(x, c)
    assert np.asarray(out).tolist() == [0.0, 2.0, 3.0, -1.0]
    check_vs_numpy(lambda xp, x: xp.extract(x > 2, x), x, jit=False, jaxpr=False)
    check_vs_numpy(lambda xp, x: xp.extract(np.arange(6) > 2, x), x)
    out = xnp.jit(lambda x: xnp.extract(x > 2, x, size=2))(x)
    assert np.asarray(out).tolist() == [3.0, 4.0]


# --------------------------------------------------------------------------- lax, traced indices


def test_lax_dynamic_slice_traced_starts_clamp():
    x = np.arange(20.0).reshape(4, 5)
    f = xnp.jit(lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3)))
    for i, j in [(0, 0), (3, 4), (-1, 2), (1, 9)]:
        ci, cj = min(max(i, 0), 2), min(max(j, 0), 2)
        assert_allclose(f(x, np.int32(i), np.int64(j)), x[ci:ci + 2, cj:cj + 3])
        assert_allclose(lax.dynamic_slice(xnp.asarray(x), (i, j), (2, 3)), x[ci:ci + 2, cj:cj + 3])
    g = xnp.jit(lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 1)))
    e = x.copy()
    e[2:4, 1:3] = -1.0
    assert_allclose(g(x, -np.ones((2, 2)), np.int64(5)), e)
    assert_allclose(g(x, -np.ones((2, 2)), np.int64(2)), e)
    e = x.copy()
    e[2:4] = -1.0
    assert_allclose(lax.dynamic_update_slice_in_dim(xnp.asarray(x), -np.ones((2, 5)), 5, 0), e)
    assert_allclose(lax.dynamic_index_in_dim(xnp.asarray(x), 1, 1, keepdims=False), x[:, 1])
    assert_allclose(lax.index_in_dim(xnp.asarray(x), -1, 0, keepdims=True), x[-1:])
    assert_allclose(lax.slice_in_dim(xnp.asarray(x), 1, None, 2, axis=1), x[:, 1::2])


def test_lax_gather_scatter_traced_indices():
    from tests.lax.ops_slicing import ROW_IDX, ROWS_S, ref_gather, ref_scatter

    x = np.arange(12.0).reshape(4, 3)
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                    start_index_map=(0,))
    idx = np.array([[1], [-1], [9], [3]], dtype=np.int8)
    for mode in ("clip", "fill", "promise_in_bounds"):
        f = xnp.jit(lambda x, i: lax.gather(x, i, dn, (1, 3), mode=mode))
        ref_mode = "fill" if mode == "fill" else "clip"
        assert_allclose(f(x, idx), ref_gather(x, idx, dn, (1, 3), ref_mode))
    u = np.arange(18.0).reshape(6, 3)
    for name, fn, c in [("add", lax.scatter_add, np.add), ("set", lax.scatter, None)]:
        for mode in ("clip", "drop"):
            f = xnp.jit(lambda x, i, u: fn(x, i, u, ROWS_S, mode=mode))
            assert_allclose(f(x, ROW_IDX.astype(np.int32), u), ref_scatter(x, ROW_IDX, u, ROWS_S,
                                                                           mode, c))


def test_lax_gather_lowering_text():
    x = np.zeros((3, 4))
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                    start_index_map=(0,))
    text = xnp.jit(lambda x, i: lax.gather(x, i, dn, (1, 4), mode="fill")).lower(
        x, np.zeros((2, 1), np.int64)).as_text()
    assert "stablehlo.gather" in text and "stablehlo.select" in text, text
    sdn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))
    text = xnp.jit(lambda x, i, u: lax.scatter_add(x, i, u, sdn, mode="clip")).lower(
        x, np.zeros((2, 1), np.int64), np.zeros((2, 4))).as_text()
    assert "stablehlo.scatter" in text and "stablehlo.clamp" in text and "stablehlo.add" in text


# --------------------------------------------------------------------------- traced masks


def _masked_set(x, mask, value):
    x = x.copy()
    x[mask] = value
    return x


@pytest.mark.parametrize("case", [
    ("full mask, scalar", (3, 4), lambda x: x % 3 == 0, 7.0),
    ("full mask, NumPy scalar", (3, 4), lambda x: x > 5, np.float32(-2)),
    ("full mask, -inf", (2, 5), lambda x: x < 3, -np.inf),
    ("row mask, row value", (3, 4), lambda x: x[:, 0] > 3, np.array([1.0, 2.0, 3.0, 4.0])),
    ("row mask, scalar", (3, 4), lambda x: x[:, 0] > 3, 5),
    ("row mask, (1, 4) value", (3, 4), lambda x: x[:, 0] < 3, np.ones((1, 4))),
    ("0-d mask", (2, 3), lambda x: np.array(True), 3.0),
    ("1-tuple index", (4,), lambda x: (x > 1,), 0.5),
    ("int array, float value", (5,), lambda x: x > 1, 2.7),
], ids=lambda c: c[0])
def test_setitem_with_a_traced_mask_under_jit(case):
    # x[mask] = value under jit is NumPy's result (a select) when value has one value for
    # every selected element; the same code eagerly and with NumPy
    _, shape, make_mask, value = case
    dtype = np.int64 if "int array" in case[0] else np.float64
    x = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    mask = make_mask(x)
    want = _masked_set(x, mask, value)
    got = xnp.jit(_masked_set)(x, mask, value)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(_masked_set(xnp.asarray(x), mask, value)), want)
    text = str(xnp.make_jaxpr(_masked_set)(x, mask, value))
    assert "select" in text and "scatter" not in text


def test_setitem_with_a_traced_mask_writes_through_views_and_grads():
    def f(x, mask):
        v = x[1:]  # a view: the write reaches x
        v[mask] = 0.0
        return x

    x = np.arange(6.0)
    mask = np.array([True, False, True, False, False])
    want = x.copy()
    want[1:][mask] = 0.0
    np.testing.assert_array_equal(np.asarray(xnp.jit(f)(x.copy(), mask)), want)
    g = xnp.grad(lambda x, m: xnp.sum(f(x.copy(), m) * 2.0))(x, mask)
    np.testing.assert_array_equal(np.asarray(g), [2.0, 0.0, 2.0, 0.0, 2.0, 2.0])


def test_setitem_with_a_traced_mask_errors():
    x = np.arange(12.0).reshape(3, 4)
    with pytest.raises(xnp.errors.NonConcreteBooleanIndexError,
                       match=r"xnp.Array.__setitem__: x\[mask\] = value with a traced mask "
                             r"bool\[3,4\] into float64\[3,4\] needs a value that broadcasts "
                             r"to \(\)"):
        xnp.jit(_masked_set)(x, x > 2, np.ones(9))  # one value per selected element
    with pytest.raises(IndexError, match="boolean index did not match indexed array along "
                                         "axis 0; size of axis is 3 but size of corresponding "
                                         "boolean axis is 2"):
        xnp.jit(_masked_set)(x, np.ones(2, bool), 1.0)
    with pytest.raises(IndexError, match="too many indices"):
        xnp.jit(_masked_set)(np.ones(3), np.ones((3, 1), bool), 1.0)
    with pytest.raises(xnp.errors.NonConcreteBooleanIndexError, match="must be concrete"):
        xnp.jit(lambda v: v[v > 0])(x)  # reading stays data-dependent


@pytest.mark.parametrize("shape,mask_shape", [((1,), (0,)), ((3,), (0,)), ((2, 3), (0, 3)),
                                              ((2, 3), (2, 0)), ((1, 3), (0,)), ((3, 1), (3, 0)),
                                              ((3,), (2,))])
def test_empty_boolean_masks_select_nothing_whatever_their_shape(shape, mask_shape):
    # NumPy checks a mask's shape only when it has elements; a non-empty mismatch raises
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    mask = np.zeros(mask_shape, bool)
    try:
        want = x[mask]
    except IndexError:
        for f in (lambda: xnp.asarray(x)[xnp.asarray(mask)], lambda: xnp.jit(lambda v: v[mask])(x)):
            with pytest.raises(IndexError, match="boolean index did not match"):
                f()
        return
    for got in (xnp.asarray(x)[mask], xnp.asarray(x)[xnp.asarray(mask)],
                xnp.jit(lambda v: v[mask])(x)):
        assert got.shape == want.shape and got.dtype == want.dtype


HUGE = [0, -1, 3, 2**31, 2**31 + 3, 2**32 + 1, -2**32 + 1, 2**40, -2**40, 2**62]


def test_traced_indices_beyond_int32_stay_out_of_bounds():
    # traced int64 indices reach the gather/scatter as int32 (the dimensions fit): an index
    # that does not fit must still be out of bounds, clipped / filled / dropped as the mode
    # says, never wrapped into range
    x_np = np.arange(10.0)
    idx_np = np.array(HUGE, np.int64)
    n = x_np.size
    norm = np.where(idx_np < 0, idx_np + n, idx_np)
    in_range = (norm >= 0) & (norm < n)
    clipped = np.clip(norm, 0, n - 1)
    gather = xnp.jit(lambda a, i: a[i])
    np.testing.assert_array_equal(np.asarray(gather(x_np, idx_np)), x_np[clipped])
    fill = xnp.jit(lambda a, i: a.at[i].get(mode="fill", fill_value=-7.0))
    np.testing.assert_array_equal(np.asarray(fill(x_np, idx_np)),
                                  np.where(in_range, x_np[clipped], -7.0))
    v_np = np.arange(1.0, idx_np.size + 1.0)
    drop = xnp.jit(lambda a, i, v: a.at[i].add(v, mode="drop"))
    want = x_np.copy()
    np.add.at(want, norm[in_range], v_np[in_range])
    np.testing.assert_array_equal(np.asarray(drop(x_np, idx_np, v_np)), want)
    clip_set = xnp.jit(lambda a, i, v: a.at[i].add(v, mode="clip"))
    want = x_np.copy()
    np.add.at(want, clipped, v_np)
    np.testing.assert_array_equal(np.asarray(clip_set(x_np, idx_np, v_np)), want)
    take = xnp.jit(lambda a, i: xnp.take_along_axis(a, i, axis=1))
    a2 = np.arange(20.0).reshape(2, 10)
    i2 = np.stack([idx_np, idx_np[::-1]])
    got = np.asarray(take(a2, i2))
    n2 = np.where(i2 < 0, i2 + 10, i2)
    np.testing.assert_array_equal(got[(n2 >= 0) & (n2 < 10)],
                                  np.take_along_axis(a2, np.clip(n2, 0, 9), 1)[(n2 >= 0) & (n2 < 10)])


@pytest.mark.parametrize("idx", [True, False, (True, None), (None, True), (Ellipsis, True),
                                 np.True_, (True, True), (False, Ellipsis)], ids=repr)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_boolean_scalar_index_adds_an_axis_as_numpy(idx, shape):
    # a 0-d operand too (an eager gather of a 0-d array broadcasts its one value)
    x = np.arange(float(np.prod(shape, dtype=int))).reshape(shape) + 5.0
    check_vs_numpy(lambda xp, a: a[idx], x)
    check_vs_numpy(lambda xp, a: xp.jit(lambda t: t + 0)(a)[idx] if xp is xnp else a[idx], x,
                   jit=False, jaxpr=False)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("shape,idx,axis", [((0,), [0, 1], None), ((2, 0), [1], 1),
                                            ((0, 3), 0, None), ((0,), np.zeros(0, int), None)])
def test_take_from_an_empty_axis_matches_numpy(mode, shape, idx, axis):
    # NumPy: "cannot do a non-empty take from an empty axes." (IndexError) for every mode,
    # an empty result for empty indices; the same under jit (the sizes are static)
    x = np.zeros(shape)
    try:
        want = np.take(x, idx, axis=axis, mode=mode)
    except IndexError as e:
        assert str(e) == "cannot do a non-empty take from an empty axes."
        for f in (xnp.take, xnp.jit(xnp.take, static_argnames=("axis", "mode"))):
            with pytest.raises(IndexError, match="cannot do a non-empty take from an empty"):
                f(x, np.asarray(idx), axis=axis, mode=mode)
        return
    for f in (xnp.take, xnp.jit(xnp.take, static_argnames=("axis", "mode"))):
        got = f(x, np.asarray(idx), axis=axis, mode=mode)
        assert got.shape == want.shape and got.dtype == want.dtype


class _Ix:
    """An integer of another class: NumPy indexes with ``operator.index`` of it."""

    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


@pytest.mark.parametrize("source", ["eager", "jit output"])
@pytest.mark.parametrize("name", ["named tuple", "__index__", "(__index__, int)", "range",
                                  "(range, int)", "(slice, range)", "0-d int array",
                                  "(0-d int array, slice)", "(slice, 0-d int array)",
                                  "big-endian index array", "big-endian 0-d index array"])
def test_index_forms_numpy_accepts(name, source):
    # tuple subclasses are tuples of indices, __index__ objects integers, a range an index
    # array, a 0-d integer array an advanced index (a copy, not a view): value, scalar or
    # array, view or copy and the elements written, against NumPy
    import collections  # noqa: PLC0415

    pair = collections.namedtuple("pair", "row col")

    def index(m):
        zero_d = m.asarray(2)
        return {"named tuple": pair(0, 1), "__index__": _Ix(1), "(__index__, int)": (_Ix(1), 0),
                "range": range(2), "(range, int)": (range(2), 1),
                "(slice, range)": (slice(None), range(1, 3)), "0-d int array": zero_d,
                "(0-d int array, slice)": (zero_d, slice(1, 4)),
                "(slice, 0-d int array)": (slice(None), zero_d),
                "big-endian index array": m.asarray(np.asarray([2, 0], dtype=">i8")),
                "big-endian 0-d index array": m.asarray(np.asarray(1, dtype=">i4"))}[name]

    base = np.arange(24.0).reshape(4, 6)
    for _ in range(3):
        n = base.copy()
        x = xnp.asarray(base.copy())
        if source == "jit output":
            x = xnp.jit(lambda a: a * 1.0)(x)
        want, got = n[index(np)], x[index(xnp)]
        assert type(got) is (xnp.ndarray if isinstance(want, np.ndarray) else type(want))
        np.testing.assert_array_equal(np.asarray(got), want)
        if isinstance(want, np.ndarray):
            assert np.shares_memory(np.asarray(got), np.asarray(x)) == np.shares_memory(want, n)
        closed = index(xnp)  # (made outside: a big-endian array cannot be made traced)
        np.testing.assert_array_equal(  # the index closed over in a traced function
            np.asarray(xnp.jit(lambda a: a[closed])(x)), want)
        n[index(np)] = -1.0
        x[index(xnp)] = -1.0
        np.testing.assert_array_equal(np.asarray(x), n)
