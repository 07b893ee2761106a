"""xnp.numpy_api.matrices vs NumPy (eager, jit, jaxpr via check_vs_numpy): diagonals,
triangles, index helpers, vander, rot90; NumPy's error classes; fill_diagonal in place
(eager, under jit with write-back, under grad)."""

import re
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy, grid, make_array, outcome

MAT_SHAPES = [(0, 0), (1, 1), (3, 3), (2, 4), (4, 2), (2, 0)]
STACK_SHAPES = MAT_SHAPES + [(2, 3, 4), (3, 1, 2, 2)]
DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64,
                                np.complex64)]


@pytest.mark.parametrize("case", grid(shape=[(0,), (1,), (3,)] + MAT_SHAPES, k=[-2, 0, 1, 5],
                                      dtype=DTYPES, n=40))
def test_diag_matches_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    check_vs_numpy(lambda m, x: m.diag(x, case.k), x)
    check_vs_numpy(lambda m, x: m.diagflat(x, case.k), x)


@pytest.mark.parametrize("case", grid(shape=STACK_SHAPES, offset=[-1, 0, 2],
                                      axes=[(0, 1), (1, 0), (-1, 0), (-2, -1)], dtype=DTYPES,
                                      n=40))
def test_diagonal_and_trace_match_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    a1, a2 = case.axes
    check_vs_numpy(lambda m, x: m.diagonal(x, case.offset, a1, a2), x)
    if case.dtype != np.bool_:
        check_vs_numpy(lambda m, x: m.trace(x, case.offset, a1, a2), x, kind="reduction")
    if case.dtype.kind != "c":
        check_vs_numpy(lambda m, x: m.trace(x, case.offset, a1, a2, dtype=np.float64), x,
                       kind="reduction")


@pytest.mark.parametrize("body", [lambda m, x: m.diag(x), lambda m, x: m.diagonal(x[0, 0]),
                                  lambda m, x: m.diagonal(x, 0, 1, 1),
                                  lambda m, x: m.diagonal(x, 0, 0, 5),
                                  lambda m, x: m.tril(x[0, 0, 0]),
                                  lambda m, x: m.rot90(x, 1, (0, 0)),
                                  lambda m, x: m.rot90(x, 1, (0, 1, 2)),
                                  lambda m, x: m.rot90(x, 1, (0, 5)),
                                  lambda m, x: m.fill_diagonal(x[0, 0], 1),
                                  lambda m, x: m.vander(x),
                                  lambda m, x: m.tril_indices_from(x),
                                  lambda m, x: m.diag_indices_from(x)])
def test_errors_match_numpy(body):
    check_vs_numpy(body, np.zeros((2, 3, 4)))


@pytest.mark.parametrize("case", grid(shape=[(3,), (0,)] + STACK_SHAPES, k=[-1, 0, 2],
                                      dtype=DTYPES, n=30))
def test_tril_triu_match_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    check_vs_numpy(lambda m, x: m.tril(x, case.k), x)
    check_vs_numpy(lambda m, x: m.triu(x, case.k), x)


@pytest.mark.parametrize("k", [1.0, -1.0, np.float32(-2.0), 0.0])
def test_float_diagonal_offsets_and_negative_sizes_as_numpy(k):
    # an integral float k is NumPy's diagonal k; a negative N or M of tri is empty
    x = np.ones((3, 4))
    check_vs_numpy(lambda m, x: m.tril(x, k), x)
    check_vs_numpy(lambda m, x: m.triu(x, k), x)
    check_vs_numpy(lambda xp: xp.tri(3, 4, k))
    check_vs_numpy(lambda xp: xp.tri(-1, 2, k), jit=False)
    check_vs_numpy(lambda xp: xp.tri(2, -3), jit=False)
    for fn in (lambda: xnp.tril(xnp.ones((2, 2)), 1.5), lambda: xnp.tri(2, k=-0.5)):
        with pytest.raises(TypeError, match="integral float"):
            fn()  # (NumPy's result for these follows from its arange's steps)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (2, 2, 9)])
def test_tri_and_index_helpers_match_numpy(n, m, k):
    check_vs_numpy(lambda xp: xp.tri(n, m, k))
    check_vs_numpy(lambda xp: xp.tri(n, m, k, dtype=np.int32))
    check_vs_numpy(lambda xp: xp.tril_indices(n, k, m))
    check_vs_numpy(lambda xp: xp.triu_indices(n, k, m))
    x = np.zeros((n, n if m is None else m))
    check_vs_numpy(lambda xp, x: xp.tril_indices_from(x, k), x)
    check_vs_numpy(lambda xp, x: xp.triu_indices_from(x, k), x)
    check_vs_numpy(lambda xp: xp.diag_indices(n, 3))
    check_vs_numpy(lambda xp, x: xp.diag_indices_from(x), np.zeros((n, n, n)))


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0)])
def test_tri_indices_are_contiguous_owners_as_numpy(n, m, k):
    # NumPy's are C-contiguous int64 arrays owning their memory (not nonzero's strided views)
    def layout(arrays):
        return [(a.dtype, a.strides, a.flags.c_contiguous, a.flags.owndata, a.flags.writeable)
                for a in arrays]

    for name in ("tril_indices", "triu_indices"):
        want, got = getattr(np, name)(n, k, m), getattr(xnp, name)(n, k, m)
        assert layout(got) == layout(want), name
        assert not xnp.shares_memory(got[0], got[1])
        jitted = xnp.jit(lambda: getattr(xnp, name)(n, k, m))()
        for g, w in zip(jitted, want):
            assert g.dtype == w.dtype and g.tolist() == w.tolist()
    want, got = np.diag_indices(n, 3), xnp.diag_indices(n, 3)
    assert layout(got) == layout(want) and got[0] is got[1] and want[0] is want[1]


def test_indices_select_elements():
    a = np.arange(16.).reshape(4, 4)
    np.testing.assert_array_equal(np.asarray(xnp.asarray(a)[xnp.triu_indices(4, 1)]),
                                  a[np.triu_indices(4, 1)])


@pytest.mark.parametrize("case", grid(n_=[0, 1, 4], N=[None, 0, 1, 3], increasing=[False, True],
                                      dtype=[np.dtype(t) for t in (np.bool_, np.uint8, np.int32,
                                                                   np.float32, np.float64,
                                                                   np.complex128)], n=30))
def test_vander_matches_numpy(case, rng):
    x = make_array(rng, (case.n_,), case.dtype)
    check_vs_numpy(lambda m, x: m.vander(x, case.N, case.increasing), x, kind="reduction")


def _vander_inputs(m):
    """1-D inputs of each memory order: contiguous, a column of a C matrix (strided), every
    other element, reversed, a row of an F matrix, one element, none."""
    base = m.asarray(np.arange(1.0, 13.0).reshape(3, 4))
    return [m.asarray([2.0, -3.0, 0.5, 7.0]), base[:, 1], m.asarray(np.arange(8.0))[::2],
            m.asarray(np.arange(5.0))[::-1], m.asfortranarray(base)[1], m.asarray([3.0]),
            m.asarray(np.zeros(0))]


def _layout(r):
    return (r.dtype, r.shape, r.strides, r.flags.c_contiguous, r.flags.f_contiguous,
            r.flags.owndata, r.flags.writeable)


# NumPy's vander fills one new C-contiguous array (decreasing powers through a reversed view
# of it): xnp's decreasing powers were a flipped view (negative strides, not owning memory)
@pytest.mark.parametrize("N", [None, 0, 1, 2, 5])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander_memory_order_as_numpy(N, increasing):
    for x, xx in zip(_vander_inputs(np), _vander_inputs(xnp)):
        want = np.vander(x, N, increasing)
        for _ in range(2):  # recorded, then replayed
            got = xnp.vander(xx, N, increasing)
            assert _layout(got) == _layout(want)
            np.testing.assert_array_equal(np.asarray(got), want)
        jitted = xnp.jit(lambda v: xnp.vander(v, N, increasing))(xx)
        np.testing.assert_array_equal(np.asarray(jitted), want)


# powers are NumPy's running products in the promoted dtype: integers wrap silently, floats
# overflow to inf with NumPy's "overflow encountered in accumulate" (each eager call); bool
# and small ints are int64, uint64 float64, and N=0 is an empty (n, 0) array
@pytest.mark.parametrize("x", [np.array([3, 200, -7]), np.array([3, 200, 255], np.uint8),
                               np.array([2 ** 62, 3]), np.array([3, 7], np.uint64),
                               np.array([True, False]), np.array([-3], np.int32),
                               np.array([1e200, 2.0]), np.array([1 + 1e200j, 2.0])])
@pytest.mark.parametrize("N", [0, 4, 40])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander_overflow_and_dtypes_as_numpy(x, N, increasing):
    want, want_w = outcome(lambda: np.vander(x, N, increasing))
    for _ in range(2):
        got, got_w = outcome(lambda: xnp.vander(xnp.asarray(x), N, increasing))
        assert np.asarray(got).dtype == want.dtype and _layout(got) == _layout(want)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert [(w.category, str(w.message)) for w in got_w] == [
            (w.category, str(w.message)) for w in want_w]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        jitted = xnp.jit(lambda v: xnp.vander(v, N, increasing))(xnp.asarray(x))
    assert np.asarray(jitted).dtype == want.dtype
    if np.all(np.isfinite(want)):  # (compiled: a parallel scan's rounding, and its own
        assert_allclose(jitted, want, kind="reduction")  # infinities and NaNs past overflow)


@pytest.mark.parametrize("case", grid(shape=[(2, 3), (2, 3, 4), (0, 3)], k=[-1, 0, 1, 2, 3, 6],
                                      axes=[(0, 1), (1, 0), (-1, 0)], n=30))
def test_rot90_matches_numpy(case, rng):
    x = make_array(rng, case.shape, np.float32)
    check_vs_numpy(lambda m, x: m.rot90(x, case.k, case.axes), x)


@pytest.mark.parametrize("shape,val,wrap", [((3, 3), 5, False), ((5, 2), [1, 2], True),
                                            ((5, 2), [1, 2], False), ((2, 2, 2), 7.9, False),
                                            ((0, 0), 1, False), ((2, 3), [], False)])
def test_fill_diagonal_in_place(shape, val, wrap):
    expected = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    np.fill_diagonal(expected, val, wrap=wrap)
    a = xnp.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    assert xnp.fill_diagonal(a, val, wrap=wrap) is None
    assert_allclose(a, expected)

    def f(b):
        xnp.fill_diagonal(b, val, wrap=wrap)
        return b + 0

    b = xnp.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    assert_allclose(xnp.jit(f)(b), expected)
    assert_allclose(b, expected)  # jit writes the updated argument back


def _fill_outcome(m, shape, dtype, val, wrap=False):
    """The target after ``m.fill_diagonal`` (or the exception class) and the warnings'
    categories, every warning recorded."""
    a = m.zeros(shape, dtype)
    out, seen = outcome(lambda: m.fill_diagonal(a, val, wrap=wrap))
    got = type(out) if isinstance(out, Exception) else (np.asarray(a).dtype,
                                                         np.asarray(a).tolist())
    return got, [w.category for w in seen]


def _as_xnp(v):
    return xnp.asarray(v) if isinstance(v, np.ndarray) else v


_COMPLEX_VALS = [np.array([1 + 2j, 2]), np.array([[1 + 2j], [3 - 1j]]), np.array([1 + 2j, 2, 3]),
                 np.array(1 - 1j), [np.complex128(1 + 1j), 2], np.complex64(2 + 1j)]


# NumPy's a.flat[...] = val casts an array (or NumPy complex) val with its ComplexWarning into
# a real or integer a (silently into bool), whatever its length or shape: the general route
# (a val whose length is not the diagonal's, a 2-D val, a NumPy array val) warned nothing
@pytest.mark.parametrize("case", grid(val=range(len(_COMPLEX_VALS)), xnp_val=[False, True],
                                      dtype=[np.float32, np.int8, np.bool_, np.complex64],
                                      shape=[(3, 3), (5, 2), (2, 2, 2)], n=60))
def test_fill_diagonal_complex_values_warn_as_numpy(case):
    val = _COMPLEX_VALS[case.val]
    want = _fill_outcome(np, case.shape, case.dtype, val, True)
    xval = _as_xnp(val) if case.xnp_val else val
    for _ in range(2):  # recorded, then replayed (a warning's call is never replayed)
        assert _fill_outcome(xnp, case.shape, case.dtype, xval, True) == want

    def f(b):
        xnp.fill_diagonal(b, val, wrap=True)
        return b

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = xnp.jit(f)(xnp.zeros(case.shape, case.dtype))
    assert (np.asarray(got).dtype, np.asarray(got).tolist()) == want[0]
    assert [w.category for w in seen] == want[1]  # (at trace time under jit)


_EMPTY_VALS = ["abc", b"x", "1.5", 1 + 2j, [1 + 2j], np.array([1 + 2j]), [[1, 2], [3]], None,
               object(), 1000, [1000], 10 ** 30, float("nan"), [float("nan"), 1.0], np.inf,
               np.array([1e300]), [1e300], np.array(["a"]), np.array([1000]), [], 2.5]


# NumPy converts val into a's dtype as for any a.flat[...] = val, even when a has a 0-length
# axis and nothing is written: its errors and warnings (xnp returned at once, silently)
@pytest.mark.parametrize("case", grid(val=range(len(_EMPTY_VALS)),
                                      dtype=[np.float32, np.int8, np.complex64, np.bool_],
                                      shape=[(0, 0), (2, 0), (0, 0, 0)], n=80))
def test_fill_diagonal_of_an_empty_array_converts_val_as_numpy(case):
    val = _EMPTY_VALS[case.val]
    want = _fill_outcome(np, case.shape, case.dtype, val)
    for xval in {id(v): v for v in (val, _as_xnp(val))}.values():
        if isinstance(xval, np.ndarray) and xval.dtype.kind == "U" and xval is not val:
            continue  # (xnp.asarray of strings is NumPy's array)
        for _ in range(2):  # recorded, then replayed
            assert _fill_outcome(xnp, case.shape, case.dtype, xval) == want, xval
    if val is None or type(val) in (str, bytes, object) or (
            isinstance(val, np.ndarray) and val.dtype.kind == "U"):
        return  # (no such value under jit)

    def f(b):
        xnp.fill_diagonal(b, val)
        return b

    out, seen = outcome(lambda: xnp.jit(f)(xnp.zeros(case.shape, case.dtype)))
    assert (type(out) if isinstance(out, Exception) else want[0]) == want[0]
    if not isinstance(out, Exception):  # (a cast's floating-point warning: eagerly only)
        assert [w.category for w in seen if w.category is not RuntimeWarning] == [
            c for c in want[1] if c is not RuntimeWarning]


def test_fill_diagonal_conversion_errors_are_numpys():
    """NumPy's errors in its words, as the other writers of Python values give them
    (``test_dropin_differences.test_python_values_of_writing_functions_convert_as_numpy``)."""
    for val, dtype in [(1000, np.int8), (1 + 2j, np.float32), (float("nan"), np.int16)]:
        with pytest.raises(Exception) as want:
            np.fill_diagonal(np.zeros((0, 0), dtype), val)
        with pytest.raises(want.type, match=re.escape(str(want.value))):
            xnp.fill_diagonal(xnp.zeros((0, 0), dtype), val)


def test_fill_diagonal_traced_value_and_grad():
    def f(x, v):
        y = x * 1.0
        xnp.fill_diagonal(y, v)
        return (y * x).sum()

    x = np.arange(4.).reshape(2, 2)
    gx = xnp.grad(f)(xnp.asarray(x), 3.0)
    assert_allclose(gx, np.array([[3., 2.], [4., 3.]]))  # v on the diagonal, 2x elsewhere
    gv = xnp.grad(xnp.jit(f), argnums=1)(xnp.asarray(x), 3.0)  # y is constant wrt v: jit it
    assert_allclose(gv, np.float64(x[0, 0] + x[1, 1]))
    with pytest.raises(TypeError):
        xnp.fill_diagonal(np.zeros((2, 2)), 1)


def test_grad_and_vmap_of_diag_trace_tril():
    x = np.arange(9.).reshape(3, 3)
    assert_allclose(xnp.grad(lambda a: xnp.trace(a, 1))(xnp.asarray(x)), np.eye(3, k=1))
    assert_allclose(xnp.grad(lambda a: (xnp.diag(a) ** 2).sum())(xnp.asarray(x[0])), 2 * x[0])
    assert_allclose(xnp.grad(lambda a: xnp.tril(a).sum())(xnp.asarray(x)), np.tri(3))
    xs = np.arange(24.).reshape(2, 3, 4)
    assert_allclose(xnp.vmap(xnp.diagonal)(xnp.asarray(xs)), np.diagonal(xs, 0, 1, 2))
    assert_allclose(xnp.vmap(lambda v: xnp.diag(v, -1))(xnp.asarray(xs[0])),
                    np.stack([np.diag(v, -1) for v in xs[0]]))


def test_static_arguments_are_required():
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda x, k: xnp.diag(x, k))(xnp.ones(3), 1)
    assert xnp.jit(lambda x, k: xnp.tril(x, k), static_argnums=1)(xnp.ones((2, 2)), 0).shape == (
        2, 2)



def test_eager_fill_diagonal_of_other_lengths_replays_numpys():
    """The general route (a ``val`` that is not one per diagonal element) is NumPy's
    ``fill_diagonal`` eagerly, and its recorded call replays with each call's values:
    cycled, wrapped, cast (a float into an int array), into a view's base."""
    from xnp.numpy_api import _replay

    _replay.clear()
    rng = np.random.default_rng(1)
    for k in range(10):
        a = np.zeros((7, 3), np.int32)
        x = xnp.asarray(a.copy())
        val = rng.normal(scale=50, size=2)
        xnp.fill_diagonal(x, xnp.asarray(val), wrap=bool(k % 2))
        np.fill_diagonal(a, val, wrap=bool(k % 2))
        assert np.asarray(x).tobytes() == a.tobytes()
    assert _replay.stats(xnp.fill_diagonal)["programs"] == 2  # (one per wrap)
    big = xnp.asarray(np.zeros((4, 6)))
    xnp.fill_diagonal(big[:, 1:5], xnp.asarray([1.0, 2.0, 3.0]))
    want = np.zeros((4, 6))
    np.fill_diagonal(want[:, 1:5], [1.0, 2.0, 3.0])
    assert np.asarray(big).tobytes() == want.tobytes()
