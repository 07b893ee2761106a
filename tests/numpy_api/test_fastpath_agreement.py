"""The eager fast path's ``FAST_CALLS`` (reshape/transpose, asarray/array of NumPy arrays)
and the replays of the calls it no longer serves (reductions, matmul/dot, where,
concatenate, creation: served by the eager dispatch cache, ``numpy_api/_replay.py``) never
change a result: they agree with the full path on value, dtype, weak type, view-or-copy and
error, and with NumPy; transformations still record every call."""

import sys
import warnings

import numpy as np
import pytest

import xnp
from xnp.array import ArrayMethods
from xnp.numpy_api import creation, manipulation, products, reductions
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api._fast_tables import FAST_CALLS
from xnp.numpy_api._scalars import scalar_result
from tests.numpy_api.test_fastpath import DTYPES, _outcome, _same, _sample

REDUCTIONS = ["sum", "prod", "mean", "max", "amax", "min", "amin", "any", "all"]
SHAPES = [(2, 3), (), (0,), (2, 0, 3), (3, 1, 2)]
AXES = [None, 0, -1, 1, (0,), (0, -1), (), 2, (0, 0), 5]


def _full(fn):
    """``fn``'s full path: the call with the eager dispatch cache off (no replay)."""

    def call(*args, **kwargs):
        with xnp.config.override(eager_dispatch_cache=False):
            return fn(*args, **kwargs)

    return call


def _replayed(call):
    """The outcome of ``call()`` run twice: the first run records its signature, the second
    replays it (or takes the full path where the signature cannot be replayed)."""
    _outcome(call)
    return _outcome(call)


def _check_numpy(res, ref_fn, *, exact=True):
    """``res`` (an ok outcome) agrees with NumPy's ``ref_fn()`` when NumPy succeeds."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = np.asarray(ref_fn())
        except Exception:  # noqa: BLE001  (NumPy accepts less or more than xnp here)
            return
    assert res[2] == ref.dtype, (res[2], ref.dtype)
    if exact:
        np.testing.assert_array_equal(res[1], ref)
    else:
        np.testing.assert_allclose(res[1].astype(ref.dtype), ref, rtol=2e-3, atol=1e-6)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reductions_replay_equals_full_path(name, dtype):
    fn = getattr(xnp, name)
    full = _full(fn)
    method = {"amax": "max", "amin": "min"}.get(name, name)
    for si, shape in enumerate(SHAPES):
        x_np = _sample(dtype, shape, si)
        x = xnp.asarray(x_np)
        for ai, axis in enumerate(AXES):
            keepdims = bool((si + ai) % 2)
            fast = _replayed(lambda: fn(x, axis, keepdims=keepdims))
            _same(fast, _outcome(lambda: full(x, axis, keepdims=keepdims)))
            if method == name:  # (the methods' errors name max/min, not amax/amin)
                _same(_replayed(lambda: getattr(x, method)(axis=axis, keepdims=keepdims)),
                      fast)
            if fast[0] == "ok" and dtype != xnp.bfloat16 and not (
                    name == "mean" and x_np.size == 0):
                exact = not (np.dtype(dtype).kind in "fc" and name in ("sum", "prod", "mean"))
                _check_numpy(fast, lambda: getattr(np, name)(x_np, axis=axis,
                                                             keepdims=keepdims), exact=exact)
    x = xnp.asarray(_sample(dtype, (2, 3), 7))
    for kwargs in ({"out": None}, {"where": None}, {"where": xnp.asarray([True, False, True])},
                   {"keepdims": 1}, {"axis": [0]}, {"bogus": None}):
        _same(_replayed(lambda: fn(x, **kwargs)), _outcome(lambda: full(x, **kwargs)))


def test_reduction_argument_forms():
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    # the Array methods pass every parameter positionally
    assert x.sum(0, None, None, True).shape == (1, 3)
    assert float(reductions.sum(x, None, None, None, False, None, None)) == 15.0
    for call in (lambda f: f(x, 0, None, None, True, 1.0),        # initial
                 lambda f: f(x, 0, np.float32),                    # dtype
                 lambda f: f(x, 0, None, None, True, None, None, 3),  # too many
                 lambda f: f(x, 0, None, None, True, keepdims=True)):  # twice
        _same(_replayed(lambda: call(xnp.sum)), _outcome(lambda: call(_full(xnp.sum))))
    w = xnp.reshape(xnp.jit(lambda t: t)(2.0), (1,))  # a weak array   # weak input: the full path decides the weak type
    for name in REDUCTIONS:
        fn = getattr(xnp, name)
        _same(_replayed(lambda: fn(w)), _outcome(lambda: _full(fn)(w)))


MATMUL_SHAPES = [((2, 3), (3, 4)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                 ((2, 2, 3), (3, 4)), ((2, 2, 3), (3,)), ((2, 3), (4,)), ((2, 3), (2, 3)),
                 ((0, 3), (3, 0)), ((2, 0), (0, 3)), ((), (3,)), ((3,), ()),
                 ((2, 2, 3), (2, 3, 2)), ((2, 3), (2, 3, 4))]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matmul_dot_replay_equals_full_path(dtype):
    inexact = np.dtype(dtype).kind in "fc" or dtype == xnp.bfloat16
    for i, (sa, sb) in enumerate(MATMUL_SHAPES):
        a_np, b_np = _sample(dtype, sa, i), _sample(dtype, sb, i + 20)
        if inexact and a_np.size:
            a_np.flat[0] = 1.0   # no NaN: BLAS paths may differ in NaN propagation order
        a, b = xnp.asarray(a_np), xnp.asarray(b_np)
        for name in ("matmul", "dot"):
            fn = getattr(xnp, name)
            fast = _replayed(lambda: fn(a, b))
            _same(fast, _outcome(lambda: _full(fn)(a, b)))
            if fast[0] == "ok" and dtype != xnp.bfloat16:
                _check_numpy(fast, lambda: getattr(np, name)(a_np, b_np), exact=not inexact)
        # the full path with NumPy's scalar rule (a product of two vectors is a scalar)
        _same(_replayed(lambda: a @ b),
              _outcome(lambda: scalar_result(ArrayMethods.__matmul__(a, b))))
        _same(_replayed(lambda: b.__rmatmul__(a)),
              _outcome(lambda: scalar_result(ArrayMethods.__rmatmul__(b, a))))
        _same(_replayed(lambda: a.dot(b)), _outcome(lambda: _full(xnp.dot)(a, b)))
    a = xnp.asarray(_sample(dtype, (2, 3), 0))
    other = xnp.asarray(_sample(np.float32, (3, 2), 1))
    for fn in (xnp.matmul, xnp.dot):
        _same(_replayed(lambda: fn(a, other)), _outcome(lambda: _full(fn)(a, other)))
        _same(_replayed(lambda: fn(a, [[1.0], [2.0], [3.0]])),
              _outcome(lambda: _full(fn)(a, [[1.0], [2.0], [3.0]])))
    _same(_replayed(lambda: xnp.matmul(a, a.T, dtype=np.complex128)),
          _outcome(lambda: _full(xnp.matmul)(a, a.T, dtype=np.complex128)))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_where_replay_equals_full_path(dtype):
    c_np = np.array([[True, False, True], [False, False, True]])
    c = xnp.asarray(c_np)
    x = xnp.asarray(_sample(dtype, (2, 3), 0))
    cases = [(c, x, xnp.asarray(_sample(dtype, (2, 3), 1))),
             (c, x, xnp.asarray(_sample(dtype, (3,), 2))),
             (xnp.asarray(c_np[0]), xnp.asarray(_sample(dtype, (2, 1), 3)),
              xnp.asarray(_sample(dtype, (), 4))),
             (xnp.asarray(True), x, x),
             (c, x, xnp.asarray(_sample(dtype, (4,), 5))),          # does not broadcast
             (c, x, xnp.asarray(_sample(np.float32, (2, 3), 6))),   # other dtype
             (xnp.asarray(np.ones((2, 3), np.int32)), x, x),        # non-bool condition
             (True, x, x)]
    cases += [(c, x, s) for s in (2.5, -1, 3, 300, True, 1j)]
    cases += [(c, s, x) for s in (2.5, -1, 0)]
    for args in cases:
        fast = _outcome(lambda: xnp.where(*args))
        _same(fast, _outcome(lambda: _full(xnp.where)(*args)))
        if fast[0] == "ok" and dtype != xnp.bfloat16:
            nargs = [np.asarray(a) if isinstance(a, xnp.Array) else a for a in args]
            _check_numpy(fast, lambda: np.where(*nargs))
    w = xnp.sin(2.0)
    for args in ((c, w, w), (c, w, 1.5), (c, w, xnp.asarray(1.0)), (c, 2, w)):
        _same(_outcome(lambda: xnp.where(*args)), _outcome(lambda: _full(xnp.where)(*args)))
    for r, e in zip(xnp.where(c), _full(xnp.where)(c)):   # the one-argument form
        np.testing.assert_array_equal(np.asarray(r), np.asarray(e))


def _same_view(fast_fn, full_fn, base):
    """Outcomes equal, and both results are views of ``base`` or both are copies."""
    fast, full = _outcome(fast_fn), _outcome(full_fn)
    _same(fast, full)
    if fast[0] == "ok":
        b = np.asarray(base)
        assert np.shares_memory(np.asarray(fast_fn()), b) == np.shares_memory(
            np.asarray(full_fn()), b)
    return fast


RESHAPES = [(-1,), (6, 2), (2, -1, 3), 12, -1, (12, 1), (5, 2), (-1, -1), (-2, 6), (2, 6.0),
            (True, 12)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reshape_transpose_fast_equals_full_path(dtype):
    base = _sample(dtype, (2, 3, 2), 0)
    x = xnp.asarray(base)
    # a transposed (non-contiguous) operand: NumPy's reshape copies, as the full path
    for src in (x, x.T, x[:, ::2]):
        for shape in RESHAPES:
            full = manipulation.reshape.__wrapped__
            fast = _same_view(lambda: xnp.reshape(src, shape), lambda: full(src, shape), x)
            if fast[0] == "ok":
                ref = np.reshape(np.asarray(src), fast[1].shape)
                np.testing.assert_array_equal(fast[1].astype(np.complex128),
                                              ref.astype(np.complex128))
                if type(shape) is tuple:
                    _same_view(lambda: src.reshape(*shape), lambda: full(src, shape), x)
                    _same_view(lambda: src.reshape(shape), lambda: full(src, shape), x)
        for axes in (None, (1, 0, 2), [2, 0, 1], (-1, 0, 1), (0, 0, 1), (0, 1), (0, 1, 5),
                     (0, 1, 2.0)):
            full = manipulation.transpose.__wrapped__
            _same_view(lambda: xnp.transpose(src, axes), lambda: full(src, axes), x)
            if type(axes) is tuple:
                _same_view(lambda: src.transpose(*axes), lambda: full(src, axes), x)
        _same_view(lambda: src.T, lambda: ArrayMethods.T.fget(src), x)
    for shape in ((), (0,), (2, 0, 3), (1,)):
        y = xnp.asarray(_sample(dtype, shape, 1))
        for new in ((-1,), (), (0, -1), (1, 1), 0):
            _same_view(lambda: y.reshape(new), lambda: manipulation.reshape.__wrapped__(y, new), y)
        _same_view(lambda: y.T, lambda: ArrayMethods.T.fget(y), y)
        _same_view(lambda: xnp.permute_dims(y), lambda: manipulation.transpose.__wrapped__(y), y)
    for kw in ({"order": "F"}, {"copy": True}, {"copy": False}):
        _same(_outcome(lambda: xnp.reshape(x, (12,), **kw)),
              _outcome(lambda: manipulation.reshape.__wrapped__(x, (12,), **kw)))


def test_views_write_through_and_keep_weak_type():
    x = xnp.asarray(np.arange(6.0))
    v = x.reshape(2, 3)
    v[1, 2] = -1.0
    t = v.T
    t[0, 0] = -2.0
    assert float(x[5]) == -1.0 and float(x[0]) == -2.0
    w = xnp.reshape(xnp.jit(lambda t: t)(2.0), (1,))  # a weak array
    assert w.weak_type and w.T.weak_type and w.reshape(1, 1).weak_type
    assert xnp.transpose(w).weak_type


def test_jit_output_views_copy_first():
    y = xnp.jit(lambda a: a * 2.0)(xnp.arange(6.0))
    v = y.reshape(2, 3)          # a jit output: the full path copies before the view
    v[0, 0] = 100.0
    assert float(y[0]) == 100.0
    z = xnp.jit(lambda a: a * 2.0)(xnp.arange(6.0).reshape(2, 3))
    tz = z.T
    tz[1, 0] = 7.0
    assert float(z[0, 1]) == 7.0
    s = xnp.jit(lambda a: a + 1.0)(xnp.arange(4.0))   # device buffer not read yet
    assert float(xnp.sum(s)) == 10.0 and float(xnp.max(s)) == 4.0


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_concatenate_replay_equals_full_path(dtype):
    a = xnp.asarray(_sample(dtype, (2, 3), 0))
    b = xnp.asarray(_sample(dtype, (1, 3), 1))
    c = xnp.asarray(_sample(dtype, (2, 2), 2))
    z = xnp.asarray(_sample(dtype, (), 3))
    e = xnp.asarray(_sample(dtype, (0, 3), 4))
    other = xnp.asarray(_sample(np.float32, (2, 3), 5))
    cases = [([a, b], 0), ((a, a), 1), ([a, c], -1), ([a, e, b], 0), ([a], 0), ([a, b], 1),
             ([a, a], 5), ([z, z], 0), ([a, b[0]], 0), ([], 0), ([a, other], 0),
             ([a, np.asarray(b)], 0), ([a, a], None), ([a, a], 1.0)]
    full = _full(xnp.concatenate)
    for arrays, axis in cases:
        fast = _replayed(lambda: xnp.concatenate(arrays, axis))
        _same(fast, _outcome(lambda: full(arrays, axis)))
        if fast[0] == "ok":
            assert not np.shares_memory(fast[1], np.asarray(arrays[0]))
            if dtype != xnp.bfloat16:
                _check_numpy(fast, lambda: np.concatenate(
                    [np.asarray(t) for t in arrays], axis))
    w = xnp.reshape(xnp.jit(lambda t: t)(2.0), (1,))  # a weak array
    for arrays in ([w, w], [w, xnp.ones(1)]):
        _same(_outcome(lambda: xnp.concat(arrays)), _outcome(lambda: full(arrays)))
    for kw in ({"dtype": np.float32}, {"casting": "no"}, {"out": None}):
        _same(_outcome(lambda: xnp.concatenate([a, b], **kw)),
              _outcome(lambda: full([a, b], **kw)))


CREATION_SHAPES = [5, (), (0,), (2, 3), (2, 0, 3), [2, 3], -1, (2, -1), 2.5, (np.int64(2),)]
CREATION_DTYPES = [None, "float32", float, int, bool, complex, np.uint8, xnp.bfloat16,
                   "S3", object, "nonsense"] + DTYPES


def _creation_outcome(fn):
    res = _outcome(fn)
    if res[0] == "ok":
        return res + (res[1].flags.writeable,)
    return res


def test_filled_arrays_replay_equal_full_path():
    for name in ("zeros", "ones", "empty"):
        fn = getattr(xnp, name)
        for shape in CREATION_SHAPES:
            for dtype in CREATION_DTYPES:
                _outcome(lambda: fn(shape, dtype))
                fast = _creation_outcome(lambda: fn(shape, dtype))
                full = _creation_outcome(lambda: _full(fn)(shape, dtype))
                if name == "empty" and fast[0] == full[0] == "ok" and fast[2].kind in "SO":
                    # NumPy's array of a dtype XLA lacks, uninitialised: no values to compare
                    assert fast[1].shape == full[1].shape and fast[2:] == full[2:]
                    continue
                _same(fast, full)
                assert fast[4:] == full[4:]
                if fast[0] == "ok" and dtype is not xnp.bfloat16 and name != "empty":
                    _check_numpy(fast, lambda: getattr(np, name)(shape, dtype))
        for kw in ({"order": "F"}, {"device": "cpu"}, {"device": "gpu"}, {"like": 1}):
            _same(_replayed(lambda: fn((2,), **kw)), _outcome(lambda: _full(fn)((2,), **kw)))
    for fill in (2, -1, 2.5, True, 1j, 300, -300, 2**70, 2**63, float("nan"), np.float32(2.5)):
        for shape in ((2, 3), (), (0,), 4, -1):
            for dtype in (None, np.int8, np.uint8, np.float32, bool, np.complex64, xnp.bfloat16,
                          "S3"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    _outcome(lambda: xnp.full(shape, fill, dtype))
                    fast = _creation_outcome(lambda: xnp.full(shape, fill, dtype))
                    full = _creation_outcome(lambda: _full(xnp.full)(shape, fill, dtype))
                _same(fast, full)
                assert fast[4:] == full[4:]
    r = xnp.zeros((2, 2))
    r[0, 0] = 1.0   # a fresh writable array
    assert float(xnp.sum(r)) == 1.0


CONVERT = [[1.0, 2.0], [[1, 2], [3, 4]], [True, 2], [], (1, 2.5), [1j, 2], 2.0, 3, True, 1j,
           [[1], [2, 3]], ["a"], [2**70], [2**63], [[[[1.0]]]], [np.float32(1.0)], (),
           np.float64(2.0), None, "abc"]


def test_asarray_array_fast_equal_full_path():
    arrays = [np.asarray(_sample(dt, (2, 3), 0)) for dt in DTYPES]
    arrays += [np.arange(6.0).reshape(2, 3).T, np.ones(3, ">f8"), np.array(["a"]),
               np.array([1, 2], dtype=object)]
    for fn in (xnp.asarray, xnp.array):
        for obj in CONVERT + arrays:
            fast = _creation_outcome(lambda: fn(obj))
            full = _creation_outcome(lambda: fn.__wrapped__(obj))
            _same(fast, full)
            assert fast[4:] == full[4:]
            if isinstance(obj, np.ndarray) and fast[0] == "ok":
                assert np.shares_memory(np.asarray(fn(obj)), obj) == np.shares_memory(
                    np.asarray(fn.__wrapped__(obj)), obj)
        x = xnp.asarray(np.arange(3.0))
        for kw in ({"dtype": np.float32}, {"copy": True}, {"copy": False}, {"order": "F"}):
            _same(_outcome(lambda: fn(x, **kw)), _outcome(lambda: fn.__wrapped__(x, **kw)))
            _same(_outcome(lambda: fn([1, 2], **kw)),
                  _outcome(lambda: fn.__wrapped__([1, 2], **kw)))
    x = xnp.asarray(np.arange(3.0))
    assert xnp.asarray(x) is x and creation.asarray.__wrapped__(x) is x
    w = xnp.jit(lambda t: t)(2.0)  # a weak 0-d array
    _same(_outcome(lambda: xnp.array(w)), _outcome(lambda: xnp.array.__wrapped__(w)))
    assert xnp.asarray(w) is w


def test_x64_off_replays_equal_full_path():
    b = xnp.asarray(np.array([True, False, True]))
    with xnp.config.override(enable_x64=False):
        for fn in (xnp.sum, xnp.prod, xnp.mean):
            _same(_replayed(lambda: fn(b)), _outcome(lambda: _full(fn)(b)))
        for fn in (xnp.zeros, xnp.ones):
            _same(_replayed(lambda: fn(3)), _outcome(lambda: _full(fn)(3)))
        _same(_replayed(lambda: xnp.full(3, 2)), _outcome(lambda: _full(xnp.full)(3, 2)))
        _same(_outcome(lambda: xnp.asarray([1, 2])),
              _outcome(lambda: xnp.asarray.__wrapped__([1, 2])))


def test_transformations_still_record_fast_calls():
    a = xnp.asarray(np.arange(6.0).reshape(2, 3))
    b = xnp.asarray(np.ones((3, 2)))
    c = xnp.asarray(np.array([True, False, True]))

    def f():
        return (xnp.sum(a), a.mean(axis=0), xnp.max(a, axis=1), a.min(), xnp.prod(a),
                xnp.any(c), xnp.all(c), a @ b, xnp.dot(a, b), xnp.where(c, a, 0.0),
                a.reshape(3, 2), a.T, xnp.transpose(a, (1, 0)), xnp.concatenate([a, a]),
                xnp.zeros(3), xnp.full(2, 1.5), xnp.asarray(np.ones(2)), xnp.array([1.0]))

    text = str(xnp.make_jaxpr(f)())
    for prim in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_or",
                 "reduce_and", "dot_general", "select_n", "reshape", "transpose",
                 "concatenate", "broadcast_in_dim"):
        assert prim in text, (prim, text)
    eager = f()
    jitted = xnp.jit(f)()
    for e, j in zip(eager, jitted):
        np.testing.assert_allclose(np.asarray(e), np.asarray(j))
        assert e.dtype == j.dtype and e.shape == j.shape

    def loss(t):
        m = b @ t.reshape(3, 2).T
        return xnp.sum(xnp.where(c, m, 0.0)) + xnp.mean(t) + xnp.max(t)

    t0 = np.arange(6.0)
    g = xnp.grad(loss)(xnp.asarray(t0))
    fd = [(float(loss(xnp.asarray(t0 + 1e-6 * np.eye(6)[i]))) - float(loss(xnp.asarray(t0))))
          / 1e-6 for i in range(6)]
    np.testing.assert_allclose(np.asarray(g), fd, atol=1e-4)

    def row(t):
        return xnp.sum(t @ b, axis=0) + t.reshape(3, 1).T.sum() + xnp.where(c, t, 1.0).max()

    bat = xnp.vmap(row)(a)
    loop = [np.asarray(row(xnp.asarray(np.asarray(a)[i]))) for i in range(2)]
    np.testing.assert_allclose(np.asarray(bat), np.stack(loop))
    jaxpr = str(xnp.make_jaxpr(xnp.vmap(row))(a))
    assert "dot_general" in jaxpr and "reduce_sum" in jaxpr and "select_n" in jaxpr


def test_eager_xla_backend_takes_the_full_path_for_calls():
    with xnp.config.override(eager_backend="xla"):
        assert fastpath._CALLS[0] == {}
        a = xnp.asarray(np.arange(6.0).reshape(2, 3))
        np.testing.assert_allclose(np.asarray(xnp.sum(a, axis=0)), [3.0, 5.0, 7.0])
        np.testing.assert_allclose(np.asarray(a @ a.T), np.arange(6.0).reshape(2, 3) @
                                   np.arange(6.0).reshape(2, 3).T)
        assert xnp.zeros(3).shape == (3,)
    assert fastpath._CALLS[0] is FAST_CALLS


def test_fast_path_is_taken(monkeypatch):
    """Each served call reaches its ``FAST_CALLS`` function (and it does not raise) for the
    dtypes the table lists, so the tests above compare the fast path, not the full one; the
    calls it no longer serves are replays of their full paths (one program each)."""
    calls = []

    def counting(name, fn):
        def wrapped(*args):
            out = fn(*args)
            calls.append(name)
            return out

        return wrapped

    for name, op in list(FAST_CALLS.items()):
        monkeypatch.setitem(FAST_CALLS, name, fastpath.FastOp(counting(name, op.fn),
                                                                      op.dtypes))
    for dtype in DTYPES:
        x = xnp.asarray(_sample(dtype, (2, 3), 0))
        x_np = _sample(dtype, (2, 3), 1)
        checks = {"reshape": lambda: x.reshape(3, 2), "transpose": lambda: xnp.transpose(x),
                  "asarray": lambda: xnp.asarray(x_np), "array": lambda: xnp.array(x_np)}
        for name, call in checks.items():
            served = np.dtype(dtype) in FAST_CALLS[name].dtypes
            del calls[:]
            out = call()
            if name == "asarray":  # served in C (xnp/_native/array_base.c): NumPy's memory
                assert np.shares_memory(np.asarray(out), x_np) == served, (dtype, out)
            else:
                assert (name in calls) == served, (name, dtype, calls)
    assert set(checks) == set(FAST_CALLS)  # every served call is checked here


def test_calls_left_to_the_dispatch_cache_replay():
    """The reductions, products, ``where``, ``concatenate``, sorts and creation functions
    replay their full path's program from the second call of a signature on."""
    from xnp.numpy_api import _replay  # noqa: PLC0415

    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    c = xnp.asarray(np.array([True, False, True]))
    calls = [(xnp.sum, (x,)), (xnp.mean, (x, 0)), (xnp.max, (x,)), (xnp.any, (c,)),
             (xnp.matmul, (x, x.T)), (xnp.dot, (x, x.T)), (xnp.where, (c, x, 0.0)),
             (xnp.concatenate, ([x, x],)), (xnp.sort, (x,)), (xnp.argsort, (x,)),
             (xnp.zeros, (3,)), (xnp.ones, ((2, 2),)), (xnp.empty, (2,)),
             (xnp.full, (2, 1.5))]
    for fn, args in calls:
        _replay.clear()
        fn(*args)
        fn(*args)
        assert _replay.stats(fn) == {"programs": 1, "refused": []}, fn


ADVANCED_INDEXES = [
    [0, 2], [-1, 0, -1], [[0, 1], [2, 2]], [5], [],
    (slice(None), [0, 3]), (1, [0, -1]), ([0, 2], [1, 3]), ([0, 2], slice(1, 3), None),
    (Ellipsis, [3, 0]), ([0, 1], Ellipsis, [1, 2]),
    "i64", "i32", "u8", "bool", "bool-short", "neg64", "oob", "f64", "u64-big", "0d",
    ("i64", "i32"), (slice(None), "bool4"), ([True, False, True],),
]


def _index_value(spec):
    """An index spec of ADVANCED_INDEXES as the index a user writes (eager xnp arrays)."""
    host = {"i64": np.array([2, 0, 1]), "i32": np.array([[1], [0]], np.int32),
            "u8": np.array([0, 2], np.uint8), "bool": np.array([True, False, True]),
            "bool-short": np.array([True, False]), "neg64": np.array([-3, -1]),
            "oob": np.array([0, 3]), "f64": np.array([0.0, 1.0]),
            "u64-big": np.array([2 ** 63 + 1], np.uint64), "0d": np.array(1),
            "bool4": np.array([True, False, False, True])}
    if type(spec) is str:
        return xnp.asarray(host[spec])
    if type(spec) is tuple:
        return tuple(_index_value(s) if type(s) is str else s for s in spec)
    return spec


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex64], ids=str)
def test_advanced_getitem_fast_equals_full_path_and_numpy(dtype):
    """Concrete integer / bool index arrays (eager xnp arrays, NumPy arrays, int lists) take
    NumPy's own indexing on the fast path: value, dtype, weak type and error are the full
    path's, and the value is NumPy's."""
    base = _sample(dtype, (3, 4), 0)
    x = xnp.asarray(base)
    full = ArrayMethods.__getitem__
    for spec in ADVANCED_INDEXES:
        idx = _index_value(spec)
        fast = _outcome(lambda: x[idx])
        _same(fast, _outcome(lambda: full(x, idx)))
        host_idx = (tuple(np.asarray(i) if isinstance(i, xnp.Array) else i for i in idx)
                    if type(idx) is tuple else
                    np.asarray(idx) if isinstance(idx, xnp.Array) else idx)
        if fast[0] == "ok":
            np.testing.assert_array_equal(fast[1], base[host_idx])
            assert fast[2] == base[host_idx].dtype
        else:
            with pytest.raises((IndexError, TypeError, ValueError)):
                base[host_idx]
        # a NumPy index array: the same outcome as the xnp one
        _same(_outcome(lambda: x[host_idx]), _outcome(lambda: full(x, host_idx)))
    w = xnp.reshape(xnp.jit(lambda t: t)(2.0), (1,))  # a weak array keeps its weak type
    _same(_outcome(lambda: w[[0, 0]]), _outcome(lambda: full(w, [0, 0])))
    assert w[[0, 0]].weak_type
    # the result is a copy, as NumPy's advanced indexing
    r = x[[0, 1]]
    r[0, 0] = 7
    np.testing.assert_array_equal(np.asarray(x), base)


def test_advanced_getitem_takes_the_fast_path(monkeypatch):
    """Concrete index arrays do not reach the full indexing path (the test above then
    compares NumPy's indexing with the full path); a traced index still does."""
    import xnp.numpy_api.indexing as indexing

    seen = []
    full = indexing.getitem
    monkeypatch.setattr(indexing, "getitem", lambda x, idx: seen.append(idx) or full(x, idx))
    x = xnp.asarray(np.arange(12.0).reshape(3, 4))
    for idx in ([0, 2], xnp.asarray([1, 0]), np.array([True, False, True]), (1, [0, 3])):
        x[idx]
    assert seen == []
    np.testing.assert_array_equal(xnp.jit(lambda a, i: a[i])(x, xnp.asarray([2, 0])),
                                  np.arange(12.0).reshape(3, 4)[[2, 0]])
    assert len(seen) == 1


_METADATA = ("shape", "dtype", "ndim", "size")


def _metadata_outcomes(a):
    """``a``'s shape, dtype, ndim, size and len as served (C fast path where built) and as
    the full path computes them (``core.Array``'s properties and ``_len``, the fallback)."""
    array_module = sys.modules["xnp.array"]  # (xnp.array is NumPy's array function)
    fast = [getattr(a, name) for name in _METADATA]
    full = [type(a).__dict__[name].fget.__wrapped__(a) if hasattr(
        type(a).__dict__[name].fget, "__wrapped__") else getattr(a, name) for name in _METADATA]
    fast.append(_outcome(lambda: len(a)))
    full.append(_outcome(lambda: array_module._len(a)))
    return fast, full


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_metadata_fast_equals_full_path_and_numpy(dtype):
    # eager arrays of every rank, views, a jit output whose value was not read yet (its
    # metadata come from its aval) and one read; len() of a 0-d array is NumPy's TypeError
    for shape in ((), (0,), (3,), (2, 0, 3), (3, 1, 2)):
        ref = _sample(dtype, shape, 3)
        x = xnp.asarray(ref)
        views = [x, x.T] + ([x[..., ::2]] if x.ndim else [])
        jitted = xnp.jit(lambda t: t + t)(x)
        for a in views + [jitted]:
            a_np = np.asarray(a) if a is not jitted else np.asarray(ref)
            fast, full = _metadata_outcomes(a)
            assert fast[:4] == full[:4]
            _same(fast[4], full[4])
            assert fast[:4] == [a_np.shape, a_np.dtype, a_np.ndim, a_np.size]
            if a_np.ndim:
                assert fast[4][1] == len(a_np)
            else:
                with pytest.raises(TypeError) as np_err:
                    len(a_np)
                assert fast[4][:2] == ("raise", TypeError) and fast[4][2] == str(np_err.value)


def test_metadata_and_views_are_native_when_built():
    # with the C module the getters, len and the view methods are C callables carrying
    # the full path as __wrapped__; without it, the Python paths
    native = fastpath.FastFunc is not None
    for name in _METADATA:
        fget = type(xnp.asarray(1.0)).__dict__[name].fget
        assert (type(fget) is fastpath.FastFunc) is native
        assert callable(getattr(fget, "__wrapped__", fget))
    for member in (xnp.ndarray.__len__, xnp.ndarray.reshape, xnp.ndarray.transpose,
                   xnp.ndarray.T.fget, xnp.ndarray.__getitem__):
        inner = getattr(member, "__wrapped__", None)
        served = member if type(member) is fastpath.FastFunc else None
        if native:
            assert served is not None and callable(inner), member


@pytest.mark.parametrize("call", [
    lambda m, a: m.reshape(a, 2, 12), lambda m, a: m.reshape(a, 2, 3, 4),
    lambda m, a: m.transpose(a, 1, 0), lambda m, a: a.transpose(()), lambda m, a: a.reshape(),
    lambda m, a: a.reshape(None), lambda m, a: a.transpose(None), lambda m, a: a.transpose([1, 0]),
    lambda m, a: a.transpose(1, 0), lambda m, a: a.reshape(3, 8), lambda m, a: a.reshape((8, 3)),
    lambda m, a: a[0, 0].transpose(()), lambda m, a: m.reshape(a, 24), lambda m, a: a.T,
    lambda m, a: m.reshape(a, None), lambda m, a: a.reshape(range(1, 5)),
    lambda m, a: m.reshape(a, range(2, 5)),
], ids=["fn-reshape-ints", "fn-reshape-3-ints", "fn-transpose-ints", "transpose-()",
        "reshape-nothing", "reshape-None", "transpose-None", "transpose-list", "transpose-ints",
        "reshape-ints", "reshape-tuple", "0d-transpose-()", "fn-reshape-int", "T",
        "fn-reshape-None", "reshape-range", "fn-reshape-range"])
def test_view_calls_take_numpys_arguments(call):
    # the C view fast paths serve a function's own positional arguments only, and the
    # methods' argument forms are NumPy's: results (shape, values, a view) or the error
    # class, every call (first and later ones)
    n = np.arange(24.0).reshape(4, 6)
    for _ in range(3):
        x = xnp.asarray(n.copy())
        want = _outcome(lambda: call(np, n))
        got = _outcome(lambda: call(xnp, x))
        assert got[0] == want[0], (got, want)
        if want[0] == "raise":
            assert got[1] is want[1], (got, want)
            continue
        np.testing.assert_array_equal(got[1], want[1])
        res = call(xnp, x)
        if res.ndim:
            assert np.shares_memory(np.asarray(res), np.asarray(x))
        jitted = xnp.jit(lambda a: call(xnp, a))(x)  # the same argument forms, traced
        np.testing.assert_array_equal(np.asarray(jitted), want[1])
