"""NumPy-surface tests of ``xnp/numpy_api/sets.py`` against NumPy: eager results
(the data-dependent sizes), ``jit`` with ``size=``/``fill_value=`` (padding and
truncation), NaN handling, ``axis``, errors and ConcretizationTypeError."""

import contextlib
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy, covering_grid, grid

DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float32,
                                np.float64, np.complex64)]
SHAPES = [(), (0,), (1,), (9,), (3, 4), (2, 0, 3)]


def _data(rng, shape, dtype, nan=True):
    """Many ties; for floats NaN and +-0 too."""
    dtype = np.dtype(dtype)
    x = rng.integers(-3, 4, size=shape)
    if dtype.kind == "b":
        return (x > 0).astype(dtype)
    if dtype.kind == "u":
        return np.abs(x).astype(dtype)
    x = x.astype(dtype)
    if dtype.kind in "fc" and x.size:
        flat = x.reshape(-1)
        flat[rng.random(flat.size) < 0.2] = np.nan if nan else 0
        flat[rng.random(flat.size) < 0.1] = -0.0
        if dtype.kind == "c":
            flat += 1j * rng.integers(0, 2, flat.size)
    return x


def _padded(want, size, fill):
    """NumPy's answer padded/truncated to ``size`` as xnp does (counts pad with 0, index
    with the first index)."""
    want = list(want) if isinstance(want, tuple) else [want]
    out = []
    for k, w in enumerate(want):
        w = w[:size]
        n = size - len(w)
        if k == 0:
            pad = np.full(n, fill if fill is not None else (w[0] if len(w) else 0), w.dtype)
        else:
            pad = np.full(n, 0 if k == len(want) - 1 else (w[0] if len(w) else 0), w.dtype)
        out.append(np.concatenate([w, pad]))
    return out


@pytest.mark.parametrize("case", grid(shape=SHAPES, dtype=DTYPES, flags=[
    (False, False, False), (True, True, True), (False, True, False), (False, False, True)],
    equal_nan=[True, False], n=40, seed=1))
def test_unique_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype)
    ri, rv, rc = case.flags
    check_vs_numpy(lambda xp, x: xp.unique(x, return_index=ri, return_inverse=rv,
                                           return_counts=rc, equal_nan=case.equal_nan),
                   x, jit=False, jaxpr=False)


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
@pytest.mark.parametrize("size,fill", [(3, None), (8, None), (8, -7), (12, 5)])
def test_unique_size_under_jit(dtype, size, fill, rng):
    x = _data(rng, (10,), dtype)
    want = np.unique(x, return_index=True, return_counts=True)
    ref = _padded(want, size, fill)
    f = xnp.jit(lambda v: xnp.unique(v, return_index=True, return_counts=True, size=size,
                                     fill_value=fill))
    for got in (f(x), xnp.unique(x, return_index=True, return_counts=True, size=size,
                                 fill_value=fill)):
        got = [np.asarray(g) for g in got]
        np.testing.assert_array_equal(got[1:], ref[1:])
        assert_allclose(got[0], ref[0])
    inv = xnp.jit(lambda v: xnp.unique(v, return_inverse=True, size=size)[1])(x)
    np.testing.assert_array_equal(np.asarray(inv), np.unique(x, return_inverse=True)[1])


@pytest.mark.parametrize("case", grid(shape=[(4, 3), (5, 2, 2), (3, 0)], dtype=[
    np.int8, np.float64, np.bool_], axis=[0, 1, -1], n=12, seed=2))
def test_unique_axis_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype, nan=False)
    x = np.concatenate([x, x[:1]], axis=0) if x.shape[0] else x
    check_vs_numpy(lambda xp, x: xp.unique(x, return_index=True, return_inverse=True,
                                           return_counts=True, axis=case.axis),
                   x, jit=False, jaxpr=False)


def test_unique_axis_size_under_jit(rng):
    x = np.array([[1, 2], [0, 5], [1, 2], [0, 5], [3, 3]])
    got = xnp.jit(lambda v: xnp.unique(v, axis=0, size=3, return_counts=True))(x)
    want = np.unique(x, axis=0, return_counts=True)
    np.testing.assert_array_equal(np.asarray(got[0]), want[0])
    np.testing.assert_array_equal(np.asarray(got[1]), want[1])


@pytest.mark.parametrize("fname", ["unique_all", "unique_counts", "unique_inverse",
                                   "unique_values"])
@pytest.mark.parametrize("dtype", [np.int16, np.float64])
def test_array_api_unique_matches_numpy(fname, dtype, rng):
    x = _data(rng, (3, 5), dtype)
    # NumPy >= 2.3 may return these unsorted (hash based); xnp returns them sorted, which
    # the Array API allows: compare with NumPy's sorted unique (NaNs distinct)
    got = getattr(xnp, fname)(x)
    flags = {"unique_all": (True, True, True), "unique_counts": (False, False, True),
             "unique_inverse": (False, True, False), "unique_values": (False, False, False)}
    ri, rv, rc = flags[fname]
    want = np.unique(x, return_index=ri, return_inverse=rv, return_counts=rc, equal_nan=False)
    assert_allclose(tuple(got) if isinstance(got, tuple) else got, want)
    api = getattr(np, fname)(x)
    if isinstance(api, tuple):
        assert type(got).__name__ == type(api).__name__ and got._fields == api._fields


def _bits(a):
    a = np.asarray(a)
    return a.dtype, a.shape, a.tobytes()


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int64, np.float16, np.float64,
                                   np.complex128])
def test_eager_unique_is_numpys_bit_for_bit(dtype, rng):
    """Eagerly (no ``size``) unique is NumPy's on the host value: the same bits (signed
    zeros, NaNs, complex NaNs), index dtypes and inverse shapes, for every argument form."""
    x = _data(rng, (4, 6), dtype)
    if np.dtype(dtype).kind == "c":
        x.reshape(-1)[:3] = [complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan)]
    for axis in (None, 0, 1):
        for ri, rv, rc in [(False, False, False), (True, True, True), (False, True, False)]:
            for equal_nan in (True, False):
                kw = dict(return_index=ri, return_inverse=rv, return_counts=rc, axis=axis,
                          equal_nan=equal_nan)
                got, want = xnp.unique(xnp.asarray(x), **kw), np.unique(x, **kw)
                got, want = (got, want) if ri or rv or rc else ((got,), (want,))
                want = [w.reshape(-1) if rv and axis is not None and k == 1 + ri else w
                        for k, w in enumerate(want)]  # (1-D along an axis, NumPy >= 2.0.1)
                assert [_bits(g) for g in got] == [_bits(w) for w in want], kw
    all_ = xnp.unique_all(xnp.asarray(x))
    want = np.unique(x, True, True, True, equal_nan=False)
    assert [_bits(g) for g in all_] == [_bits(w) for w in want]


def test_unique_errors_and_concretization():
    check_vs_numpy(lambda xp, x: xp.unique(x, axis=2), np.ones((2, 3)), jit=False)
    for f in (xnp.unique, xnp.unique_values, lambda v: xnp.union1d(v, v),
              lambda v: xnp.setdiff1d(v, v), lambda v: xnp.intersect1d(v, v)):
        with pytest.raises(xnp.errors.ConcretizationTypeError, match="size="):
            xnp.jit(f)(np.arange(3.0))
    with pytest.raises(ValueError):
        xnp.unique(np.arange(3), size=-1)


@pytest.mark.parametrize("case", grid(shapes=[((), (4,)), ((5,), (3,)), ((2, 3), (2, 2)),
                                              ((4,), (0,)), ((0,), (3,))],
                                      dtypes=[(np.int64, np.int64), (np.float32, np.int8),
                                              (np.uint8, np.int64), (np.complex64, np.float64),
                                              (np.bool_, np.bool_)],
                                      invert=[False, True], n=20, seed=3))
def test_isin_matches_numpy(case, rng):
    e = _data(rng, case.shapes[0], case.dtypes[0])
    t = _data(rng, case.shapes[1], case.dtypes[1])
    check_vs_numpy(lambda xp, e, t: xp.isin(e, t, invert=case.invert), e, t)


def test_isin_kind_errors_and_vmap(rng):
    check_vs_numpy(lambda xp, e: xp.isin(e, [1, 2], kind="bogus"), np.arange(3))
    check_vs_numpy(lambda xp, e: xp.isin(e, [1.0], kind="table"), np.arange(3.0))
    check_vs_numpy(lambda xp, e: xp.isin(e, [1, 5], kind="table"), np.arange(6))
    rows = rng.integers(0, 5, (4, 6))
    got = xnp.vmap(lambda r: xnp.isin(r, xnp.asarray([1, 3])))(rows)
    np.testing.assert_array_equal(np.asarray(got), np.isin(rows, [1, 3]))


SETOPS = ["intersect1d", "setdiff1d", "setxor1d", "union1d"]


# sampled (all with --full-grid): each operation with every dtype pair (mixed, bool, with
# NaN) and every shape pair (2-d input, either operand empty)
@pytest.mark.parametrize("case", covering_grid(fname=SETOPS, dtypes=[
    (np.int64, np.int64), (np.float64, np.float64), (np.int8, np.float32),
    (np.bool_, np.bool_)], shapes=[((7,), (5,)), ((2, 3), (4,)), ((0,), (3,)), ((4,), (0,))],
    labels=lambda c: [(c.fname, c.dtypes), (c.fname, c.shapes)], n=20, seed=4))
def test_set_operations_match_numpy(case, rng):
    a = _data(rng, case.shapes[0], case.dtypes[0])
    b = _data(rng, case.shapes[1], case.dtypes[1])
    want = check_vs_numpy(lambda xp, a, b: getattr(xp, case.fname)(a, b), a, b, jit=False,
                          jaxpr=False)
    size = np.asarray(want).shape[0] + 2
    got = xnp.jit(lambda a, b: getattr(xnp, case.fname)(a, b, size=size, fill_value=9))(a, b)
    assert_allclose(np.asarray(got)[:size - 2], np.asarray(want))
    assert np.all(np.asarray(got)[size - 2:] == np.asarray(9).astype(np.asarray(want).dtype))


@pytest.mark.parametrize("assume_unique", [False, True])
def test_intersect1d_indices_and_assume_unique(assume_unique, rng):
    a = rng.permutation(12)[:7]
    b = rng.permutation(12)[:8]
    if not assume_unique:
        a, b = np.concatenate([a, a[:3]]), np.concatenate([b[:2], b])
    check_vs_numpy(lambda xp, a, b: xp.intersect1d(a, b, assume_unique=assume_unique,
                                                   return_indices=True), a, b,
                   jit=False, jaxpr=False)
    for fname in ("setdiff1d", "setxor1d"):
        check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b, assume_unique=assume_unique),
                       a, b, jit=False, jaxpr=False)
    want = np.intersect1d(a, b, assume_unique=assume_unique, return_indices=True)
    k = len(want[0])
    got = xnp.jit(lambda a, b: xnp.intersect1d(a, b, assume_unique=assume_unique,
                                               return_indices=True, size=k))(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)


def test_set_operations_nan():
    a = np.array([np.nan, 1.0, np.nan, 2.0])
    b = np.array([np.nan, 2.0])
    for fname in SETOPS:
        check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), a, b, jit=False, jaxpr=False)


def _set_op_outcome(call):
    """``(dtype name, values)`` or the exception class, and the warnings' categories and
    messages, of ``call()`` (every warning recorded)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            out = call()
            out = tuple((np.asarray(o).dtype.name, np.asarray(o).tolist())
                        for o in (out if isinstance(out, tuple) else (out,)))
        except Exception as e:  # noqa: BLE001  (NumPy decides the expected class)
            out = type(e)
    return out, [(w.category, str(w.message)) for w in seen]


# NumPy's union1d and setxor1d(assume_unique=True) concatenate their operands as they are,
# so a Python number beside an array is weak (union1d(int8, 300) is int8, 300 wrapping to
# 44; a float beyond float16's range is inf with NumPy's cast warning); the others make
# arrays of the number first (int64; uint64 beyond int64; NumPy's object array beyond that)
_NUMBER_CASES = [(np.int8, 5), (np.int8, 300), (np.uint8, -1), (np.uint8, 2 ** 63),
                 (np.int64, 2 ** 63), (np.uint64, -1), (np.int8, 2 ** 70), (np.int8, 5.5),
                 (np.float16, 1e6), (np.float32, 5 + 1j), (np.bool_, 5), (np.bool_, True)]
_CONCATENATING = [("union1d", {}), ("setxor1d", {"assume_unique": True})]
_OTHERS = [("setxor1d", {}), ("intersect1d", {}), ("intersect1d", {"assume_unique": True}),
           ("setdiff1d", {}), ("setdiff1d", {"assume_unique": True})]


# every case of the two operations that concatenate the number as it is; the others
# sampled (all with --full-grid)
@pytest.mark.parametrize("case", grid(op=_CONCATENATING, number=_NUMBER_CASES,
                                      first=[False, True])
                         + grid(op=_OTHERS, number=_NUMBER_CASES, first=[False, True], n=24))
def test_set_operations_with_a_python_number_as_numpy(case):
    (fname, kw), (dtype, scalar) = case.op, case.number
    a = np.array([1, 2, 3, 5] if dtype is not np.bool_ else [False, True], dtype)  # (unique)
    fn = getattr(xnp, fname)
    args = (scalar, a) if case.first else (a, scalar)
    want, want_w = _set_op_outcome(lambda: getattr(np, fname)(*args, **kw))
    xargs = [xnp.asarray(v) if isinstance(v, np.ndarray) else v for v in args]
    for _ in range(3):  # recorded, then replayed: values, errors and warnings each time
        assert _set_op_outcome(lambda: fn(*xargs, **kw)) == (want, want_w)
    if isinstance(want, type) or scalar == 2 ** 70:
        return  # (an int beyond uint64: NumPy's object array, eagerly NumPy's function)
    size = len(want[0][1]) + 1
    with pytest.warns() if want_w else _no_warning():
        got = xnp.jit(lambda x: fn(*[x if v is a else v for v in args], size=size,
                                   fill_value=0, **kw))(xnp.asarray(a))
    assert np.asarray(got).dtype.name == want[0][0]
    assert np.asarray(got).tolist()[:-1] == want[0][1]


@contextlib.contextmanager
def _no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("fname, kw", _CONCATENATING)
@pytest.mark.parametrize("pair", [(2**63, 1), (1, 2**64 - 1), (2**63, True), (2**64, 1.5),
                                  (2**64, 1), (True, 2), (1, 2.5)])
def test_concatenating_set_operations_of_two_python_numbers_as_numpy(fname, kw, pair):
    """Two Python numbers concatenate as NumPy's weak numbers: ``union1d(2**63, 1)`` is
    int64 (2**63 wrapped), ``(2**64, 1)`` NumPy's OverflowError."""
    want, want_w = _set_op_outcome(lambda: getattr(np, fname)(*pair, **kw))
    for _ in range(3):
        assert _set_op_outcome(lambda: getattr(xnp, fname)(*pair, **kw)) == (want, want_w)
