"""The kernels a replayed eager call runs for sorting, ``searchsorted``, ``nextafter``,
``pad`` and a layout copy (``xnp/backends/xp_impls``' ``PARAM_KERNELS``, and
``numpy_api/_layout.py:with_order``), and functions whose full path read a value in Python
(``polyint``'s constants, ``poly``'s roots).

Each call of one signature with new values gives NumPy's result (values, dtype, memory
order, warnings) on its first call (the full path, recorded) and on the calls after it
(replays), and a replay runs at most a frame or two of xnp's.
"""

from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp import ndarray_class
from xnp.numpy_api import _replay

RNG = np.random.default_rng(23)


def _layouts(shape, dtype):
    """Arrays of ``shape`` in C order, F order and as a strided view (new values each)."""
    def values():
        if np.dtype(dtype) == bool:
            return RNG.random(shape) < 0.5
        v = RNG.integers(-3, 4, shape) if np.dtype(dtype).kind in "iu" else RNG.standard_normal(shape)
        return np.abs(v).astype(dtype) if np.dtype(dtype).kind == "u" else v.astype(dtype)
    big = np.stack([values(), values()], axis=-1)
    return [values(), np.asfortranarray(values()), big[..., 0]]


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous


SORTS = [
    ("sort", lambda m, x: m.sort(x)),
    ("sort axis 0", lambda m, x: m.sort(x, axis=0)),
    ("sort stable", lambda m, x: m.sort(x, axis=0, kind="stable")),
    ("argsort", lambda m, x: m.argsort(x, axis=-1, kind="stable")),
    ("argsort axis 0", lambda m, x: m.argsort(x, axis=0, kind="stable")),
    ("lexsort rows", lambda m, x: m.lexsort(x)),
    ("lexsort axis 0", lambda m, x: m.lexsort((x, x > 0), axis=0)),
    ("lexsort keys of two dtypes", lambda m, x: m.lexsort((x, (x > 0.5).astype(np.int8)))),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.bool_])
@pytest.mark.parametrize("name, call", SORTS, ids=[s[0] for s in SORTS])
def test_sorts_replay_numpys_results(name, call, dtype):
    for _ in range(2):
        for a in _layouts((4, 5), dtype):
            if np.dtype(dtype).kind == "f":
                a[0, 1] = np.nan
                a[2, 2] = -0.0 if a[2, 2] == 0 else a[2, 2]
            want = call(np, a)
            _same(call(xnp, xnp.asarray(a)), want)
            got = xnp.jit(lambda v: call(xnp, v))(a)  # (values and dtype: no layout under jit)
            assert np.asarray(got).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


def test_sort_and_lexsort_of_bfloat16_keys_replay_as_on_the_full_path():
    """ml_dtypes floats are sorted by their float32 values (NumPy does not order their NaN):
    the replay's kernel sends them to the implementation that converts them."""
    for _ in range(3):
        a = RNG.standard_normal((3, 6)).astype(ml_dtypes.bfloat16)
        a[1, 2] = np.nan
        want = np.lexsort(a.astype(np.float32))
        np.testing.assert_array_equal(np.asarray(xnp.lexsort(xnp.asarray(a))), want)
        np.testing.assert_array_equal(
            np.asarray(xnp.sort(xnp.asarray(a))).astype(np.float32), np.sort(a.astype(np.float32)))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint16])
def test_searchsorted_replays_numpys_results(side, dtype):
    for _ in range(3):
        a = np.sort(RNG.integers(0, 10, 9).astype(dtype))
        v = RNG.integers(0, 11, (2, 3)).astype(dtype)
        _same(xnp.searchsorted(xnp.asarray(a), xnp.asarray(v), side=side),
              np.searchsorted(a, v, side=side))
        got = xnp.jit(lambda p, q: xnp.searchsorted(p, q, side=side))(a, v)
        np.testing.assert_array_equal(np.asarray(got), np.searchsorted(a, v, side=side))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nextafter_warns_overflow_as_numpy_on_every_call(dtype):
    big = np.finfo(dtype).max
    a = np.array([big, 1.0, 0.0, -0.0, np.nan], dtype)
    b = np.array([np.inf, 1.0, -0.0, 0.0, 1.0], dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = np.nextafter(a, b)
    assert [str(w.message) for w in caught] == ["overflow encountered in nextafter"]
    for _ in range(3):  # the full path, then replays
        with pytest.warns(RuntimeWarning, match="overflow encountered in nextafter"):
            got = xnp.nextafter(xnp.asarray(a), xnp.asarray(b))
        np.testing.assert_array_equal(np.asarray(got), want)
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(want))
    with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
        xnp.nextafter(xnp.asarray(a), xnp.asarray(b))
    got = xnp.jit(xnp.nextafter)(a, b)  # compiled code checks nothing (no warning)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("call", [
    lambda m, v: m.poly(v),
    lambda m, v: m.poly(v[:3].astype(np.float32)),
    lambda m, v: m.polyint(v),
    lambda m, v: m.polyint(v, 2),
    lambda m, v: m.polyint(v, 3, [1.0, -2.0, 0.5]),
    lambda m, v: m.polyint(v.astype(np.int32), 2, 7),
])
def test_poly_and_polyint_replay_numpys_results(call):
    _replay.clear()
    for _ in range(3):
        v = RNG.standard_normal(5)
        got, want = call(xnp, xnp.asarray(v)), call(np, v)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)
        got = xnp.jit(lambda q: call(xnp, q))(v)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6 if want.dtype == np.float32
                                   else 1e-12, atol=1e-12)
    assert _replay.stats(xnp.polyint)["refused"] == []
    assert _replay.stats(xnp.poly)["refused"] == []


@pytest.mark.parametrize("name", ["asfortranarray", "ascontiguousarray"])
def test_layout_copies_replay_numpys_layouts(name):
    # (eager only: a traced array's memory order is a model, tested in test_reshape_views)
    for _ in range(2):
        for a in _layouts((3, 4), np.float64) + [np.ones((3, 1)), np.ones((1, 3), order="F")]:
            x = xnp.asarray(a)
            got, want = getattr(xnp, name)(x), getattr(np, name)(a)
            _same(got, want)
            assert (got is x) == (want is a)


@pytest.mark.parametrize("call, most", [
    (lambda x, v: xnp.searchsorted(v, v), 0),
    (lambda x, v: xnp.nextafter(x, x), 0),
    (lambda x, v: xnp.asfortranarray(x), 0),
    (lambda x, v: xnp.lexsort(x), 2),  # the kernel and NumPy's lexsort dispatcher
    (lambda x, v: xnp.polyint(v), 1),
    (lambda x, v: xnp.pad(x, 1), 1),
])
def test_replays_run_few_python_frames(no_check, call, most):
    x = xnp.asarray(RNG.standard_normal((3, 4)))
    v = xnp.asarray(np.sort(RNG.standard_normal(6)))
    call(x, v)
    call(x, v)
    _, frames = python_frames(call, x, v)
    # (a user subclass of xnp.ndarray, which other tests define, makes every ufunc object
    # wrap its results: xnp/ndarray_class.py's frames, not the replay's)
    wrapping = {"wrapped", "_wrap", "_subclass_operands", "<listcomp>"} \
        if ndarray_class._ACTIVE else set()
    frames = [f for f in frames if f != "<lambda>" and f not in wrapping]
    assert len(frames) <= most, frames


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dx, db", [(np.float64, np.float64), (np.float32, np.int64),
                                    (np.int8, np.float16), (np.uint8, np.int8),
                                    (np.bool_, np.float64), (np.int64, np.uint8)])
def test_digitize_replays_numpys_results_and_errors(dx, db, right):
    """Eagerly NumPy's digitize of the values (a native call): its monotonicity check
    raises on every replay whose bins are not monotonic; under jit the searchsorted
    formulation gives the same indices."""
    _replay.clear()
    for _ in range(3):
        x = RNG.integers(-3, 8, (2, 5)).astype(dx)
        if np.dtype(dx).kind == "f":
            x[0, 0] = np.nan
        b = np.sort(RNG.integers(0 if np.dtype(db).kind == "u" else -2, 7, 4)).astype(db)
        for bins in (b, b[::-1].copy()):
            want = np.digitize(x, bins, right)
            got = xnp.digitize(xnp.asarray(x), xnp.asarray(bins), right)
            _same(got, want)
            got = xnp.jit(lambda p, q: xnp.digitize(p, q, right))(x, bins)
            np.testing.assert_array_equal(np.asarray(got), want)
        with pytest.raises(ValueError, match="xnp.digitize: bins must be monotonically"):
            xnp.digitize(xnp.asarray(x), xnp.asarray(np.array([3, 1, 2, 0]).astype(db)), right)
    assert _replay.stats(xnp.digitize)["refused"] == []


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose_replays_numpys_results_and_its_bounds_error(mode):
    """``choose``'s 'raise' check of an eager index array is an equation
    (``lax.runtime_error``), so each replay checks its own values: NumPy's ValueError for an
    entry outside the choices, NumPy's result otherwise."""
    _replay.clear()
    for _ in range(3):
        choices = [RNG.standard_normal((2, 3)) for _ in range(3)]
        for idx in (RNG.integers(0, 3, (2, 3)), RNG.integers(-4, 7, (2, 3)), np.array([1, 0, 2])):
            try:
                want = np.choose(idx, choices, mode=mode)
            except ValueError:
                with pytest.raises(ValueError, match="xnp.choose: invalid entry in choice array"):
                    xnp.choose(xnp.asarray(idx), [xnp.asarray(c) for c in choices], mode=mode)
                continue
            _same(xnp.choose(xnp.asarray(idx), [xnp.asarray(c) for c in choices], mode=mode), want)
            if mode != "raise":  # (under jit a traced index is not checked: it is clipped)
                got = xnp.jit(lambda i, *cs: xnp.choose(i, list(cs), mode=mode))(idx, *choices)
                np.testing.assert_array_equal(np.asarray(got), want)
    assert _replay.stats(xnp.choose)["refused"] == []


@pytest.mark.parametrize("v", [np.array([257, 1]), 257, np.array([257.0]), np.float32(257),
                               np.array([1], np.float16), np.array([257], np.int16), 1e-50])
def test_searchsorted_of_ml_dtypes_compares_as_numpy(v):
    """A bfloat16 ``a`` has no common dtype with an integer in NumPy's promotion; NumPy's
    searchsorted compares them all the same, as floats (257 falls between 256 and 258,
    which bfloat16 would round it to). xnp compares in float32's place (it raised
    DTypePromotionError); a Python scalar argument of jit as the scalar eagerly."""
    a = np.array([0, 256, 258, 300], ml_dtypes.bfloat16)
    want = np.searchsorted(a, v)
    xv = xnp.asarray(v) if isinstance(v, np.ndarray) else v
    for got in (xnp.searchsorted(xnp.asarray(a), xv), xnp.searchsorted(xnp.asarray(a), xv),
                xnp.jit(xnp.searchsorted)(a, v)):
        np.testing.assert_array_equal(np.asarray(got), want)
