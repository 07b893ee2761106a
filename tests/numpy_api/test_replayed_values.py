"""Eager calls that used to read values in Python, and so took the full path on every call,
replayed by the eager dispatch cache (``xnp/numpy_api/_replay.py``):

* ``allclose``, ``array_equal``, ``array_equiv``: NumPy answers with a Python ``bool``; the
  full path gives a 0-d bool array and the public function its truth
  (``_util.returns_python_bool``), which a replay takes in C;
* ``histogram``, ``histogram2d``, ``histogramdd``, ``histogram_bin_edges``: the checks of
  the autodetected range and of explicit edges are native calls that each replay repeats
  on the new values (NumPy's errors), and the counts are a scatter-add.

Each call of one signature with new values must give NumPy's result (or NumPy's error),
and the calls after the first run no Python frame of xnp for the bool functions; under
``jit`` and ``vmap`` the same functions give traced results that agree with NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp.numpy_api import _replay

RNG = np.random.default_rng(11)

BOOL_CASES = [
    ("allclose", lambda m, a, b: m.allclose(a, b)),
    ("allclose tol", lambda m, a, b: m.allclose(a, b, rtol=0.5, atol=0.1)),
    ("allclose equal_nan", lambda m, a, b: m.allclose(a, b, equal_nan=True)),
    ("array_equal", lambda m, a, b: m.array_equal(a, b)),
    ("array_equal equal_nan", lambda m, a, b: m.array_equal(a, b, equal_nan=True)),
    ("array_equiv", lambda m, a, b: m.array_equiv(a, b)),
    ("array_equiv broadcast", lambda m, a, b: m.array_equiv(a, b[:1])),
]


def _pairs():
    """Argument pairs of one signature whose answers differ: equal, close, far, NaN."""
    base = RNG.standard_normal((3, 4))
    nan = base.copy()
    nan[1, 2] = np.nan
    rows = np.tile(base[:1], (3, 1))
    return [(base, base.copy()), (base, base + 1e-9), (base, base + 1.0), (nan, nan.copy()),
            (rows, rows.copy()), (base, -base), (nan, base)]


@pytest.mark.parametrize("name, call", BOOL_CASES, ids=[c[0] for c in BOOL_CASES])
def test_bool_functions_replay_with_numpy_answers(name, call):
    _replay.clear()
    for a, b in _pairs() * 2:
        got = call(xnp, xnp.asarray(a), xnp.asarray(b))
        want = call(np, a, b)
        assert type(got) is bool and type(want) is bool
        assert got == want, (a, b)
    fn = getattr(xnp, name.split()[0])
    assert _replay.stats(fn) == {"programs": 1, "refused": []}


def test_bool_functions_run_no_python_frame_on_replay(no_check):
    a, b = xnp.asarray(RNG.standard_normal(5)), xnp.asarray(RNG.standard_normal(5))
    for fn in (xnp.allclose, xnp.array_equal, xnp.array_equiv):
        fn(a, b)  # (recorded)
        fn(a, b)  # (replayed: the error state of this context looked up once)
        out, frames = python_frames(fn, a, b)
        # at most the Python kernel of a recorded primitive (isclose's select_n): no frame
        # of the function, of its bool, or of reading the array's value
        assert out is False and len(frames) <= 2, (fn.__name__, frames)
        assert not set(frames) & {"allclose", "isclose", "array_equal", "array_equiv",
                                  "_as_bool", "call", "read", "_bool", "_value"}, frames


def test_bool_functions_different_shapes_and_other_arguments():
    a = xnp.asarray(np.arange(6.0))
    assert xnp.array_equal(a, a.reshape(2, 3)) is False
    assert xnp.array_equiv(a, np.arange(3.0)) is False
    assert xnp.allclose(a, 3.0) is False and xnp.allclose(a * 0 + 3, 3) is True
    assert xnp.allclose([1.0, np.inf], [1.0, np.inf]) is True
    assert xnp.array_equal([1, 2], [1, 2]) is True
    with pytest.raises(ValueError, match="broadcast"):
        xnp.allclose(a, np.arange(4.0))


@pytest.mark.parametrize("name, call", BOOL_CASES, ids=[c[0] for c in BOOL_CASES])
def test_bool_functions_under_jit_and_vmap(name, call):
    for a, b in _pairs():
        want = call(np, a, b)
        got = xnp.jit(lambda x, y: call(xnp, x, y))(a, b)
        assert not isinstance(got, bool) and got.shape == () and bool(got) == want
        got = xnp.vmap(lambda x, y: call(xnp, x, y))(np.stack([a, a]), np.stack([b, a]))
        np.testing.assert_array_equal(np.asarray(got),
                                      [want, call(np, a, a)])


def test_bool_function_of_a_host_dtype_is_numpys():
    a = np.array(["a", "b"])
    assert xnp.array_equal(a, a.copy()) is True
    assert xnp.array_equal(xnp.asarray(a), np.array(["a", "c"])) is False


# name, NumPy-style call on a module, and the data of each call (one signature)
HIST_CASES = [
    ("histogram", lambda m, x: m.histogram(x)),
    ("histogram bins range", lambda m, x: m.histogram(x, bins=5, range=(-1, 1))),
    ("histogram edges", lambda m, x: m.histogram(x, bins=m.asarray([-2.0, -0.5, 0.0, 3.0]))),
    ("histogram weights density", lambda m, x: m.histogram(x, weights=x * x, density=True)),
    ("histogram_bin_edges", lambda m, x: m.histogram_bin_edges(x, bins=7)),
    ("histogram2d", lambda m, x: m.histogram2d(x, x[::-1], bins=4)),
    ("histogramdd", lambda m, x: m.histogramdd(x.reshape(-1, 2), bins=(3, 5))),
]


def _data(calls: int = 5):
    """float64[12] arrays: spread, constant (NumPy widens the range), on the edges."""
    out = [RNG.standard_normal(12) for _ in range(calls - 2)]
    out.append(np.full(12, 0.25))
    out.append(np.repeat([-1.0, 0.0, 1.0, 3.0], 3))
    return out


def _flat(r):
    out = []
    for p in r if isinstance(r, tuple) else (r,):
        out += list(p) if isinstance(p, list) else [p]
    return out


@pytest.mark.parametrize("name, call", HIST_CASES, ids=[c[0] for c in HIST_CASES])
def test_histograms_replay_with_numpy_results(name, call):
    _replay.clear()
    for x in _data() * 2:
        got, want = _flat(call(xnp, xnp.asarray(x))), _flat(call(np, x))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype)
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)
    fn = getattr(xnp, name.split()[0])
    assert _replay.stats(fn) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name, call", HIST_CASES, ids=[c[0] for c in HIST_CASES])
def test_histograms_under_jit(name, call):
    call_jit = xnp.jit(lambda x: call(xnp, x))  # (no range given: traced edges)
    for x in _data(3):
        got, want = _flat(call_jit(x)), _flat(call(np, x))
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=0)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_histogram_non_finite_range_raises_on_every_replay(bad):
    _replay.clear()
    good = RNG.standard_normal(6)
    for _ in range(2):
        xnp.histogram(xnp.asarray(good))
        x = good.copy()
        x[3] = bad
        with pytest.raises(ValueError, match=r"autodetected range of \[.*\] is not finite") as e:
            np.histogram(x)
        with pytest.raises(ValueError, match=r"xnp.histogram: autodetected range of "
                                             r"\[.*\] is not finite") as got:
            xnp.histogram(xnp.asarray(x))
        assert str(got.value).endswith(str(e.value))
    assert _replay.stats(xnp.histogram) == {"programs": 1, "refused": []}


def test_histogram_unsorted_edges_raise_on_every_replay():
    _replay.clear()
    x = xnp.asarray(RNG.standard_normal(6))
    for _ in range(2):
        xnp.histogram(x, bins=xnp.asarray([0.0, 1.0, 2.0]))
        with pytest.raises(ValueError, match="bins` must increase monotonically"):
            np.histogram(np.asarray(x), bins=np.array([0.0, 2.0, 1.0]))
        with pytest.raises(ValueError, match="xnp.histogram: `bins` must increase "
                                             "monotonically"):
            xnp.histogram(x, bins=xnp.asarray([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match=r"xnp.histogramdd: `bins\[1\]` must increase"):
        xnp.histogramdd(xnp.asarray(RNG.standard_normal((4, 2))),
                        bins=[np.array([0.0, 1.0]), np.array([1.0, 0.0])])


@pytest.mark.parametrize("estimator", ["auto", "fd", "doane", "scott", "stone", "rice",
                                       "sturges", "sqrt"])
def test_histogram_of_an_estimator_is_numpys_and_replays(estimator):
    # the bin count comes from the values (the result's shape): eagerly NumPy's function of
    # the data, a native call each replay repeats on the new values
    _replay.clear()
    for x in _data():
        for rng in (None, (-1.0, 2.5)):
            got = xnp.histogram(xnp.asarray(x), bins=estimator, range=rng)
            want = np.histogram(x, bins=estimator, range=rng)
            for g, w in zip(got, want):
                assert np.asarray(g).dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()
            edges = xnp.histogram_bin_edges(xnp.asarray(x), bins=estimator, range=rng)
            want = np.histogram_bin_edges(x, bins=estimator, range=rng)
            assert np.asarray(edges).tobytes() == want.tobytes()
    assert _replay.stats(xnp.histogram) == {"programs": 2, "refused": []}
    with pytest.raises(TypeError, match="xnp.histogram: Automated estimation"):
        xnp.histogram(xnp.asarray(_data()[0]), bins=estimator, weights=xnp.ones(12))


# -- NumPy's answers at the edges of these functions (found by trying to break them)


def test_histogram_edges_closed_over_under_jit_and_with_the_xla_eager_backend():
    edges = xnp.asarray([0.0, 1.0, 2.0])
    got = xnp.jit(lambda a: xnp.histogram(a, bins=edges)[0])(xnp.asarray([0.5, 1.5, 1.7]))
    np.testing.assert_array_equal(np.asarray(got), [1, 2])
    with xnp.config.override(eager_backend="xla"):
        hist, e = xnp.histogram(xnp.asarray([0.0, 0.5, 1.5]), bins=[0.0, 1.0, 2.0])
        np.testing.assert_array_equal(np.asarray(hist), [2, 1])
        with pytest.raises(ValueError, match="monotonically"):
            xnp.histogram(xnp.asarray([0.0]), bins=[0.0, 2.0, 1.0])


@pytest.mark.parametrize("call, want", [
    (lambda m: m.histogram(np.arange(3.0), bins=[]), (np.array([], np.int64), np.array([]))),
    (lambda m: m.histogram(np.arange(5.0), bins=np.array(3)), None),
    (lambda m: m.histogram_bin_edges(np.arange(5.0), bins=np.array(2)), None),
    (lambda m: m.histogram(np.r_[np.zeros(18), 1.0, 2.0], bins="auto"), None),
    (lambda m: m.histogram(np.array([0.0, 1.0, 7.0, 7.5]), bins="fd"), None),
])
def test_histogram_forms_are_numpys(call, want):
    want = call(np) if want is None else want
    got = call(xnp)
    for g, w in zip(_flat(got), _flat(want)):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def test_histogram_too_many_bins_and_bool_data():
    for call in (lambda m, a: m.histogram(a, bins=4), lambda m, a: m.histogram_bin_edges(a, 3)):
        with pytest.raises(ValueError, match="Too many bins for data range. Cannot create"):
            call(np, np.full(5, 1e16))
        for _ in range(2):  # (a replay checks again)
            with pytest.raises(ValueError, match="Too many bins for data range. Cannot create"):
                call(xnp, xnp.asarray(np.full(5, 1e16)))
    data = np.array([True, False, True, True])
    for fn, kw in (("histogram", {}), ("histogram", {"bins": "auto"}),
                   ("histogram_bin_edges", {})):
        with pytest.warns(RuntimeWarning, match="Converting input from bool to"):
            want = getattr(np, fn)(data, **kw)
        with pytest.warns(RuntimeWarning, match="Converting input from bool to"):
            got = getattr(xnp, fn)(xnp.asarray(data), **kw)
        for g, w in zip(_flat(got), _flat(want)):
            np.testing.assert_array_equal(np.asarray(g), w)


def test_histogramdd_empty_edges_raise_numpys_index_error():
    x = xnp.asarray([1.0, 2.0])
    with pytest.raises(IndexError, match="index -1 is out of bounds for axis 0 with size 0"):
        np.histogram2d(np.asarray(x), np.asarray(x), bins=[[], [0, 1]])
    with pytest.raises(IndexError, match="index -1 is out of bounds for axis 0 with size 0"):
        xnp.histogram2d(x, x, bins=[[], [0, 1]])


@pytest.mark.parametrize("call", [
    lambda m, e: m.unique(e, return_index=True, size=2),
    lambda m, e: m.unique(e, return_inverse=True, size=2),
    lambda m, e: m.unique(e.reshape(0, 2), axis=0, size=2),
    lambda m, e: m.intersect1d(e, m.asarray([1.0]), return_indices=True, size=2),
])
def test_sized_set_operations_of_empty_input_pad(call):
    e = xnp.asarray(np.zeros(0))
    for out in (call(xnp, e), xnp.jit(lambda v: call(xnp, v))(e)):
        for o in out:
            o = np.asarray(o)
            assert o.shape[0] in (0, 2) and not np.any(o)  # (padding: zeros)


def test_isin_compares_as_numpy():
    # uint64 against int64: NumPy's exact comparison (a common float64 dtype would make
    # 2**53 + 1 equal 2**53); bool taken as uint8 by the table method
    u = np.array([1, 2, 3, 2 ** 53 + 1], np.uint64)
    i = np.array([2, 5, 2 ** 53])
    b = np.array([True, False])
    for a, t, kw in ((u[:3], i[:2], {"kind": "table"}), (u, i, {}), (b, np.array([0, 3]),
                                                             {"kind": "table"}),
                     (np.array([0, 1, 2]), b, {"kind": "table", "invert": True})):
        want = np.isin(a, t, **kw)
        for _ in range(2):
            np.testing.assert_array_equal(np.asarray(xnp.isin(xnp.asarray(a), xnp.asarray(t),
                                                              **kw)), want)


@pytest.mark.parametrize("a, b", [(np.int8(44), 300), (0.1, np.float32(0.1)),
                                  (np.float16([3.0]), 3.0001), (np.int8([44]), [300]),
                                  (np.arange(3), [0, 1, 2]), (True, 1)])
def test_array_equal_takes_python_scalars_as_numpy_does(a, b):
    xa = xnp.asarray(a) if isinstance(a, (np.ndarray, np.generic)) else a
    for fn in ("array_equal", "array_equiv"):
        assert getattr(xnp, fn)(xa, b) is getattr(np, fn)(a, b)


@pytest.mark.parametrize("cond, axis", [([True, False, True, False], 1),
                                        ([True, False, True, True], 1),
                                        ([1, 0, 0, 0, 0, 1, 0], None),
                                        ([0, 0, 0, 0, 0, 0, 1], None)])
def test_compress_with_a_longer_condition_raises_only_for_a_true_past_the_axis(cond, axis):
    a = np.arange(6).reshape(2, 3)
    try:
        want = np.compress(cond, a, axis=axis)
    except IndexError as e:
        want = e
    for c in (cond, np.array(cond), xnp.asarray(cond)):
        for _ in range(2):
            if isinstance(want, IndexError):
                with pytest.raises(IndexError, match=str(want)):
                    xnp.compress(c, xnp.asarray(a), axis=axis)
            else:
                np.testing.assert_array_equal(
                    np.asarray(xnp.compress(c, xnp.asarray(a), axis=axis)), want)


@pytest.mark.parametrize("data", [np.array([0.7, 0.9, 1.0], np.float32), np.array([1, 5, 2]),
                                  np.array([0.25, 0.5, 1.0], np.float16)], ids=str)
@pytest.mark.parametrize("rng", [None, (0.7, 1), (np.float64(0.7), np.float64(1)),
                                 (np.float32(0.5), np.float32(1)), (np.float32(0.5), 1.0)],
                         ids=str)
def test_histogram_range_dtypes_are_numpys(data, rng):
    # NumPy's edges are of the range's and the data's result dtype (a NumPy scalar keeps its
    # type); histogram2d/histogramdd's are of the range's own (its linspace)
    for fn, call in (("histogram", lambda m, a: m.histogram(a, bins=3, range=rng)),
                     ("histogram2d", lambda m, a: m.histogram2d(
                         a, a, bins=2, range=None if rng is None else [rng, (0, 2)]))):
        want = call(np, data)
        got = call(xnp, xnp.asarray(data))
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.dtype == w.dtype, (fn, g.dtype, w.dtype)
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("shape, wrap", [((3, 3), False), ((5, 3), True), ((5, 3), False),
                                         ((3, 5), False), ((2, 2, 2), False)])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.bool_, np.uint8],
                         ids=str)
def test_fill_diagonal_of_eager_arrays_is_numpys(shape, wrap, dtype):
    # an eager array's diagonal is written by NumPy's item assignment (a scalar, or as many
    # values as the diagonal has; other values are cycled as NumPy's flat assignment does)
    n = min(shape) if len(shape) == 2 and not wrap else None
    for k in range(3):
        for val in (1.7 * k, np.float32(k), [1.0, 2.0], "diagonal"):
            a = (np.arange(np.prod(shape)).reshape(shape) * (k + 1)).astype(dtype)
            x = xnp.asarray(a.copy())
            if val == "diagonal":
                if n is None:
                    continue
                val_np = np.arange(n) * (k + 2.5)
                val_x = xnp.asarray(val_np)
            else:
                val_np = val_x = val
            np.fill_diagonal(a, val_np, wrap)
            assert xnp.fill_diagonal(x, val_x, wrap) is None
            np.testing.assert_array_equal(np.asarray(x), a)
    v = xnp.asarray(np.zeros((3, 3)))
    xnp.fill_diagonal(v.T, 4.0)  # (through a view: the base is written)
    np.testing.assert_array_equal(np.asarray(v), np.eye(3) * 4)
    a = (np.arange(np.prod(shape)).reshape(shape) * 2).astype(dtype)
    want = a.copy()
    np.fill_diagonal(want, 3, wrap)
    x = xnp.asarray(a)  # under jit: the traced argument rebound and written back
    assert xnp.jit(lambda m: xnp.fill_diagonal(m, 3, wrap))(x) is None
    np.testing.assert_array_equal(np.asarray(x), want)


@pytest.mark.parametrize("call", [
    lambda m, c, f: f * m.where(c, 1.0, 0.0),
    lambda m, c, f: f.astype(np.int8) + m.where(c, 1, 2),
    lambda m, c, f: f * m.select([c], [1.5]),
    lambda m, c, f: f * m.select([c, ~c], [1, 2], 0.5),
    lambda m, c, f: m.where(c, f, 1.0) * 2.0,
    lambda m, c, f: m.select([c], [f], 2.0) * 1.0,
])
def test_where_and_select_results_are_not_weak(call):
    # numpy.where(c, 1.0, 0.0) is a float64 array, which a float32 array promotes to:
    # xnp's where/select of Python scalars alone give a strong array (eagerly, replayed,
    # under jit)
    c, f = np.array([True, False, True]), np.ones(3, np.float32)
    want = call(np, c, f)
    for _ in range(2):
        got = call(xnp, xnp.asarray(c), xnp.asarray(f))
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    got = xnp.jit(lambda cc, ff: call(xnp, cc, ff))(c, f)
    assert np.asarray(got).dtype == want.dtype


@pytest.mark.parametrize("args, kw", [
    ((0, 2, 2), {"base": [2.0, 10.0]}), ((0, 2, 5), {"base": [2.0, 10.0]}),
    (([0, 1], 2, 3), {"base": [2.0, 10.0], "axis": 1}),
    ((np.float32([0, 1]), 2, 3), {}), ((np.float32([0, 1]), 2, 3), {"base": np.float32(2)}),
    ((0.0, np.array([1.0, 2.0]), 3), {"base": np.array([[2.0], [3.0]])}),
    ((np.array([0, 1]), 3, 4), {"axis": -1, "base": np.array([2.0, 10.0])}),
    ((0, 1, 3), {"base": np.array([2, 3]), "dtype": np.float32}),
    ((np.float32([0, 1]), 2, 3), {"base": np.float32([2, 3])}),
])
def test_logspace_with_an_array_base_is_numpys(args, kw):
    # an array base makes start, stop and base arrays at the rank of their broadcast (a
    # Python number at its default dtype) and gets the new axis, as NumPy's logspace
    want = np.logspace(*args, **kw)
    conv = lambda v: xnp.asarray(v) if isinstance(v, np.ndarray) else v  # noqa: E731
    for _ in range(2):
        got = np.asarray(xnp.logspace(*map(conv, args), **{k: conv(v) for k, v in kw.items()}))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)
    # under jit, the array arguments traced (Python numbers stay Python numbers)
    traced = {k: v for k, v in kw.items() if isinstance(v, np.ndarray)}
    static = {k: v for k, v in kw.items() if k not in traced}
    pos = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    def f(arrays, named):
        full = list(args)
        for i, a in zip(pos, arrays):
            full[i] = a
        return xnp.logspace(*full, **static, **named)

    got = np.asarray(xnp.jit(f)([args[i] for i in pos], traced))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("call", [
    lambda m, x, f: m.histogram(x, bins="auto", density=f)[0],
    lambda m, x, f: m.isin(x, x[:3], invert=f),
    lambda m, x, f: m.unique(m.concatenate([x, x * np.nan]), equal_nan=f),
], ids=["histogram density", "isin invert", "unique equal_nan"])
def test_a_flag_given_as_an_array_is_read_on_every_call(call):
    """A NumPy function of the values whose flag is an xnp 0-d array: the flag's value is
    the call's (a program that kept its first value would give the first call's result)."""
    _replay.clear()
    a = RNG.standard_normal(12)
    x = xnp.asarray(a)
    for flag in (False, True, False, True):
        want = call(np, a, np.asarray(flag))
        got = np.asarray(call(xnp, x, xnp.asarray(flag)))
        assert got.dtype == want.dtype and got.shape == want.shape, flag
        np.testing.assert_array_equal(got, want)
