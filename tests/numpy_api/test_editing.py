"""xnp.numpy_api.editing vs NumPy (eager, jit, jaxpr via check_vs_numpy): delete/insert,
resize, rollaxis, block, h/v/dsplit, unstack, select, choose (modes); in-place writers
(place, put, putmask, copyto) eagerly, under jit (write-back) and grad; trim_zeros eager
only; apply_along_axis / apply_over_axes; NumPy's error classes. piecewise's and select's
Python and NumPy scalar values (dtype, errors, warnings, eager replays, jit) and their
results' memory order."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy, grid, make_array, outcome

DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64,
                                np.complex64)]
X = np.arange(12.).reshape(3, 4)


@pytest.mark.parametrize("case", grid(obj=[0, -1, [0, 2], slice(None, None, 2), [], 7,
                                           [True, False, True], slice(1, 1)],
                                      axis=[None, 0, 1, -1], dtype=DTYPES, n=40))
def test_delete_matches_numpy(case, rng):
    x = make_array(rng, (3, 3), case.dtype)
    check_vs_numpy(lambda m, x: m.delete(x, case.obj, case.axis), x)


@pytest.mark.parametrize("case", grid(obj=[0, 2, -1, [1], [0, 3, 3], slice(0, 3), 9],
                                      values=[5, [1, 2, 3], [[1], [2], [3]], 2.7],
                                      axis=[None, 0, 1], n=50))
def test_insert_matches_numpy(case):
    x = np.arange(9).reshape(3, 3)
    check_vs_numpy(lambda m, x: m.insert(x, case.obj, case.values, case.axis), x)


def test_insert_traced_values_and_grad():
    f = xnp.jit(lambda x, v: xnp.insert(x, [1, 2], v, axis=1))
    assert_allclose(f(xnp.asarray(X), xnp.asarray([7., 8.])), np.insert(X, [1, 2], [7., 8.], 1))
    g = xnp.grad(lambda v: xnp.insert(xnp.asarray(X), 1, v, axis=0).sum())(xnp.ones(4))
    assert_allclose(g, np.ones(4))


@pytest.mark.parametrize("shape", [(), 0, 5, (2, 7), (3, 0), (-1,)])
@pytest.mark.parametrize("src", [np.arange(5), np.zeros(0), np.float32(3)])
def test_resize_matches_numpy(shape, src):
    check_vs_numpy(lambda m, a: m.resize(a, shape), src)


@pytest.mark.parametrize("shape", [(2, 3), (6,), (4,), (3, 2)])
def test_resize_returns_a_new_array(shape):
    # also when nothing is repeated (the same shape, or fewer elements): never a view
    x_np = np.arange(6.0).reshape(2, 3)
    x = xnp.asarray(x_np)
    want, got = np.resize(x_np, shape), xnp.resize(x, shape)
    assert xnp.shares_memory(got, x) is np.shares_memory(want, x_np) is False
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    got[(0,) * got.ndim] = -1.0
    assert x.tolist() == x_np.tolist()
    jitted = xnp.jit(lambda a: xnp.resize(a, shape))(x)
    assert jitted.dtype == want.dtype and jitted.tolist() == want.tolist()


@pytest.mark.parametrize("axis,start", [(0, 0), (2, 0), (0, 3), (-1, 1), (1, -3), (0, 4),
                                        (3, 0)])
def test_rollaxis_matches_numpy(axis, start):
    check_vs_numpy(lambda m, a: m.rollaxis(a, axis, start), np.zeros((2, 3, 4)))


@pytest.mark.parametrize("body", [
    lambda m, x: m.block([[x, x], [x, x]]), lambda m, x: m.block([x[0], 1, 2.5]),
    lambda m, x: m.block(x), lambda m, x: m.block(3), lambda m, x: m.block([[[x]]]),
    lambda m, x: m.block([[x[:, :2], x[:, 2:]]]), lambda m, x: m.block([x.astype(np.int8), 1]),
    lambda m, x: m.block([]), lambda m, x: m.block((x, x)), lambda m, x: m.block([[x], x]),
    lambda m, x: m.block([[x, x[0]]]), lambda m, x: m.block([[x], [x[:, :2]]])])
def test_block_matches_numpy(body):
    check_vs_numpy(body, X)


@pytest.mark.parametrize("shape", [(), (4,), (2, 4), (2, 2, 4)])
@pytest.mark.parametrize("fname", ["hsplit", "vsplit", "dsplit"])
@pytest.mark.parametrize("sections", [2, [1, 3], 3])
def test_hvd_split_match_numpy(shape, fname, sections):
    check_vs_numpy(lambda m, a: getattr(m, fname)(a, sections), np.ones(shape))


@pytest.mark.parametrize("shape,axis", [((3, 4), 0), ((3, 4), 1), ((3, 4), -1), ((0, 2), 1),
                                        ((2,), 0), ((), 0), ((2, 3), 2)])
def test_unstack_matches_numpy(shape, axis):
    check_vs_numpy(lambda m, a: m.unstack(a, axis=axis), np.arange(np.prod(shape)).reshape(shape))


@pytest.mark.parametrize("axis", [[0], (1,), np.array([1]), np.array(1), np.int32(-1), True,
                                  np.True_, (0, 1), (), 1.0, [1.0], None, "0", 5], ids=repr)
def test_unstack_axis_forms_match_numpy(axis):
    """NumPy's unstack is ``moveaxis(x, axis, 0)``: one axis as an int or a one-item sequence
    (or array); several or none raise its ValueError, a non-integer its TypeError."""
    check_vs_numpy(lambda m, a: m.unstack(a, axis=axis), np.arange(6).reshape(2, 3))


@pytest.mark.parametrize("case", grid(dtype=DTYPES, default=[0, 1.5, np.int8(3)], n=20))
def test_select_matches_numpy(case, rng):
    x = make_array(rng, (3, 4), case.dtype)
    c = rng.standard_normal((3, 4))
    check_vs_numpy(lambda m, x, c: m.select([c > 0.5, c < -0.5, c > 0], [x, x[0], x[1]],
                                            default=case.default), x, c)
    if case.dtype.kind in "fc":  # (NumPy's copyto of a Python int choice fails for unsigned)
        check_vs_numpy(lambda m, x, c: m.select([c > 0.5, c < -0.5], [x, 2],
                                                default=case.default), x, c)


@pytest.mark.parametrize("body", [lambda m, c: m.select([c], [c]),
                                  lambda m, c: m.select([], []),
                                  lambda m, c: m.select([c > 0], [c, c]),
                                  lambda m, c: m.select([c > 0], [c[:2]])])
def test_select_errors_match_numpy(body):
    check_vs_numpy(body, np.arange(3.))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("idx", [[0, 2, 1, 0], [[0], [1], [2]], [3, -1, 0, 5]])
def test_choose_matches_numpy(mode, idx):
    a = np.asarray(idx)
    jit = mode != "raise" or a.max() < 3  # a traced out-of-range index cannot raise (clipped)
    check_vs_numpy(lambda m, a: m.choose(a, [X[0], X[1].astype(np.float32), 7], mode=mode), a,
                   jit=jit, jaxpr=jit)
    check_vs_numpy(lambda m, a: m.choose(a, X[:3, :1], mode=mode), a, jit=jit, jaxpr=jit)


def test_choose_traced_index_clipped_and_grad():
    f = xnp.jit(lambda a: xnp.choose(a, [xnp.zeros(3), xnp.ones(3)]))
    assert_allclose(f(xnp.asarray([0, 1, 5])), np.array([0., 1., 1.]))
    g = xnp.grad(lambda x: xnp.choose(xnp.asarray([1, 0, 1]), [x, 2 * x]).sum())(xnp.ones(3))
    assert_allclose(g, np.array([2., 1., 2.]))
    check_vs_numpy(lambda m, a: m.choose(a, [X[0]], mode="bad"), np.zeros(4, int))
    check_vs_numpy(lambda m, a: m.choose(a * 1.0, [X[0]]), np.zeros(4, int))


# --------------------------------------------------------------------------- in place


def _inplace_vs_numpy(fn, a):
    expected = a.copy()
    fn(np, expected)
    x = xnp.asarray(a.copy())
    assert fn(xnp, x) is None
    assert_allclose(x, expected)

    def body(y):
        fn(xnp, y)
        return y * 1

    y = xnp.asarray(a.copy())
    assert_allclose(xnp.jit(body)(y), expected)
    assert_allclose(y, expected)  # jit writes the updated argument back


A = np.arange(6).reshape(2, 3)


@pytest.mark.parametrize("fn", [
    lambda m, a: m.place(a, a > 2, [10, 20]), lambda m, a: m.place(a, a > 9, []),
    lambda m, a: m.place(a, a % 2, [7.9]),
    lambda m, a: m.put(a, [0, -1], [10, 20]), lambda m, a: m.put(a, [[1, 8]], 5, mode="wrap"),
    lambda m, a: m.put(a, [-9, 8, 2], [1, 2, 3], mode="clip"), lambda m, a: m.put(a, [1], []),
    lambda m, a: m.putmask(a, a > 2, [10, 20]), lambda m, a: m.putmask(a, a < 2, 9.5),
    lambda m, a: m.copyto(a, [1, 2, 3]), lambda m, a: m.copyto(a, 7),
    lambda m, a: m.copyto(a, [[1], [2]], where=[True, False, True]),
    lambda m, a: m.copyto(a, np.float64(2.5), casting="unsafe")])
def test_inplace_writers_match_numpy(fn):
    _inplace_vs_numpy(fn, A)


@pytest.mark.parametrize("fn", [
    lambda m, a: m.place(a, a > 2, []), lambda m, a: m.place(a, [True], [1]),
    lambda m, a: m.put(a, [6], 1), lambda m, a: m.putmask(a, [True], 1),
    lambda m, a: m.copyto(a, 1.5), lambda m, a: m.copyto(a, np.ones(3)),
    lambda m, a: m.copyto(a, 1000000000000000000000), lambda m, a: m.copyto(a, np.ones(4, int))])
def test_inplace_writer_errors_match_numpy(fn):
    with pytest.raises(Exception) as info:
        fn(np, A.copy())
    with pytest.raises(type(info.value)):
        fn(xnp, xnp.asarray(A.copy()))
    with pytest.raises(TypeError):
        fn(xnp, A.copy())  # NumPy target: xnp needs an xnp array to write


def test_inplace_writers_with_traced_values_and_grad():
    def f(x, mask, v):
        y = x * 1.0
        xnp.place(y, mask, v)
        xnp.putmask(y, x > 4, 0.0)
        return (y * y).sum()

    x = np.arange(6.)
    mask = np.array([True, False, True, False, False, False])
    g = xnp.grad(xnp.jit(f), argnums=(0, 2))(xnp.asarray(x), xnp.asarray(mask),
                                              xnp.asarray([2.0, 3.0]))
    assert_allclose(g[0], np.array([0., 2., 0., 6., 8., 0.]))
    assert_allclose(g[1], np.array([4., 6.]))
    h = xnp.jit(lambda a, i, v: (xnp.put(a, i, v), a)[1])
    assert_allclose(h(xnp.zeros(4), xnp.asarray([1, -1, 9]), xnp.asarray([1., 2., 3.])),
                    np.array([0., 1., 0., 2.]))  # traced out-of-bounds writes are dropped


# --------------------------------------------------------------------------- trim, apply


@pytest.mark.parametrize("data", [[0, 0, 1, 2, 0], [0, 0], [], [[0, 0, 0], [0, 1, 0]],
                                  [[0, 0], [0, 0]]])
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_trim_zeros_matches_numpy_eagerly(data, trim, axis):
    check_vs_numpy(lambda m, a: m.trim_zeros(a, trim, axis), np.asarray(data, float), jit=False,
                   jaxpr=False)


@pytest.mark.parametrize("axis", [[0], (0,), [0, 1], (1, 0), np.array([1]), np.array(0), (),
                                  [], (0, 0), [1, -2], 1.0, [1.0], np.True_, "0", 2], ids=repr)
def test_trim_zeros_axis_forms_match_numpy(axis):
    """NumPy's ``normalize_axis_tuple`` forms: an int, or a tuple, list or array of them
    (an empty one trims nothing); a repeated axis raises its ValueError, a non-integer its
    TypeError."""
    data = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 0, 0]], float)
    check_vs_numpy(lambda m, a: m.trim_zeros(a, "fb", axis), data, jit=False, jaxpr=False)


def test_trim_zeros_errors():
    check_vs_numpy(lambda m, a: m.trim_zeros(a, "x"), np.zeros(3), jit=False, jaxpr=False)
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="trim_zeros"):
        xnp.jit(xnp.trim_zeros)(xnp.asarray([0., 1.]))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("which", range(4))
def test_apply_along_axis_matches_numpy(axis, which):
    x = np.arange(24.).reshape(2, 3, 4)

    def body(m, x):
        funcs = [lambda r: r * r.sum(), lambda r: r.max(), lambda r, s=2: m.outer(r, r) * s,
                 lambda r: m.stack([r.min(), r.mean()])]
        return m.apply_along_axis(funcs[which], axis, x)

    check_vs_numpy(body, x)


def test_apply_along_axis_zero_iteration_dims_and_over_axes():
    check_vs_numpy(lambda m, x: m.apply_along_axis(lambda r: r.sum(), 0, x), np.zeros((3, 0)))
    x = np.arange(24.).reshape(2, 3, 4)
    check_vs_numpy(lambda m, x: m.apply_over_axes(m.sum, x, [0, 2]), x)
    check_vs_numpy(lambda m, x: m.apply_over_axes(lambda a, ax: m.sum(a, ax, keepdims=True), x,
                                                  -1), x)
    check_vs_numpy(lambda m, x: m.apply_over_axes(lambda a, ax: a.sum(), x, [1]), x)


def test_apply_along_axis_eagerly_calls_func1d_per_slice_as_numpy():
    # eagerly NumPy's loop: func1d may mask, branch and convert; under jit it is traced
    a = np.array([[1.0, -2.0], [3.0, 4.0]])
    calls = []

    def masked_sum(r):
        calls.append(type(r))
        return r[r > 0].sum()

    for fn, axis in ((masked_sum, 1), (lambda r: float(r[0]) * 2, 0),
                     (lambda r: sorted(r)[:1], 1), (lambda r: r * 2 if r[0] > 0 else -r, 1)):
        calls.clear()
        got = xnp.apply_along_axis(fn, axis, xnp.asarray(a))
        want = np.apply_along_axis(fn, axis, a)
        assert type(got) is xnp.ndarray and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    calls.clear()
    xnp.apply_along_axis(masked_sum, 1, xnp.asarray(a))
    assert calls == [xnp.ndarray, xnp.ndarray]  # once per row, on xnp arrays
    out = xnp.jit(lambda t: xnp.apply_along_axis(lambda r: r.sum() * 2, 1, t))(a)
    np.testing.assert_array_equal(np.asarray(out), a.sum(1) * 2)


def test_vectorize_with_a_signature_masks_eagerly():
    a = np.array([[1.0, -2.0], [3.0, 4.0]])
    for m in (np, xnp):
        v = m.vectorize(lambda r: r[r > 0].sum(), signature="(n)->()")
        np.testing.assert_array_equal(np.asarray(v(m.asarray(a))), [1.0, 7.0])


def test_apply_along_axis_of_a_vector_is_a_0d_array_as_numpy():
    got = xnp.apply_along_axis(np.sum, 0, xnp.asarray([1.0, 2.0]))
    want = np.apply_along_axis(np.sum, 0, np.array([1.0, 2.0]))
    assert isinstance(got, xnp.ndarray) and got.ndim == want.ndim == 0 and float(got) == 3.0


# --- piecewise's and select's Python-scalar values, and their results' memory order ------

def _same_outcome(body, *args):
    """``body(np, ...)`` and ``body(xnp, ...)`` eagerly, xnp twice (the second call replays
    the eager dispatch cache's program): the same values and dtype or exception class, and
    the same warning categories. Returns xnp's last result or exception."""
    want, want_w = outcome(lambda: body(np, *args))
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    for call in ("first", "replayed"):
        got, got_w = outcome(lambda: body(xnp, *xargs))
        assert [w.category for w in got_w] == [w.category for w in want_w], (call, got_w, want_w)
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), (call, got, want)
        else:
            assert not isinstance(got, Exception), (call, got, want)
            assert_allclose(got, want, err_msg=call)
    return got


def _jit_vs_numpy(body, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_vs_numpy(body, *args, **kwargs)


PW_DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint8, np.int32, np.uint64, np.int64,
                                   np.float16, np.float32, np.complex64, ml_dtypes.bfloat16)]
PW_PYTHON = [True, 300, -1, 127, 128, 2**63, 2**64, 1.5, -1.0, 300.0, 1e300, float("nan"),
             float("inf"), 1 + 2j, 1 + 0j]
PW_NUMPY = [np.int64(300), np.uint8(255), np.int8(-1), np.float32(1.5), np.float64(1e300),
            np.float64(np.nan), np.complex64(1j)]


@pytest.mark.parametrize("dtype", PW_DTYPES, ids=str)
@pytest.mark.parametrize("value", PW_PYTHON + PW_NUMPY, ids=repr)
def test_piecewise_scalar_values_are_stored_as_numpy_stores_them(dtype, value):
    # NumPy's y[cond] = value: a Python int out of an integer dtype raises OverflowError,
    # a NaN float ValueError, a complex into a real dtype TypeError, even where the
    # condition holds nowhere; NumPy scalars are cast unsafely (with NumPy's warnings)
    if dtype.kind == "V" and isinstance(value, np.complexfloating):
        pytest.skip("ml_dtypes' complex -> bfloat16 cast does not warn; xnp's astype does")
    x = np.arange(3).astype(dtype)
    for cond in (np.array([False, True, True]), np.zeros(3, bool)):
        _same_outcome(lambda m, x, c: m.piecewise(x, [c], [value]), x, cond)
        _same_outcome(lambda m, x, c: m.piecewise(x, [c], [7, value]), x, cond)  # the default
    _jit_vs_numpy(lambda m, x: m.piecewise(x, [x > 0], [value]), x)  # static under jit


@pytest.mark.parametrize("value, dtype, cls", [(300, np.int8, OverflowError),
                                               (-1, np.uint8, OverflowError),
                                               (float("nan"), np.int32, ValueError),
                                               (1j, np.float32, TypeError)])
def test_piecewise_names_the_value_and_the_dtype(value, dtype, cls):
    name = np.dtype(dtype).name
    with pytest.raises(cls, match=rf"xnp\.piecewise: funclist\[1\] .*dtype {name}"):
        xnp.piecewise(xnp.arange(3, dtype=dtype), [xnp.asarray([True, False, True])],
                      [0, value])
    with pytest.raises(cls, match=rf"xnp\.piecewise: the result of funclist\[0\] .*{name}"):
        xnp.piecewise(xnp.arange(3, dtype=dtype), [xnp.asarray([True, False, True])],
                      [lambda v: value])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float32])
@pytest.mark.parametrize("value", [5, 127, 128, 300, -1, 2**63])
def test_piecewise_python_int_argument_of_jit_is_range_checked_at_each_call(dtype, value):
    x = np.arange(3, dtype=dtype)
    want, _ = outcome(lambda: np.piecewise(x, [x > 0], [value]))
    f = xnp.jit(lambda x, v: xnp.piecewise(x, [x > 0], [v]))
    for _ in range(2):
        got, _ = outcome(lambda: f(xnp.asarray(x), value))
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), got
        else:
            assert_allclose(got, want)


SCALARS = [True, -2, 3, 300, 2**63, 2**64, 1.5, 1e300, 1 + 2j,
           np.bool_(True), np.uint8(5), np.int8(-3), np.int64(7), np.uint64(9), np.float16(1.5),
           np.float32(2.5), np.float64(3.5), np.complex64(1j),
           np.array([1, 2], np.uint8), np.array(3, np.uint8), np.array([1.5, 2], np.float32)]
_KEY_PAIRS = [(3, np.uint8(1)), (-2, np.uint8(5)), (np.uint8(5), 300), (300, np.int8(1)),
              (2**63, np.uint8(5)), (np.uint8(5), 2**64), (2**64, 3), (1e300, np.float32(1)),
              (np.float32(5), 1e300), (np.int64(7), 1.5), (True, np.uint8(1))]


def _select_body(choice, default):
    def body(m, c):
        conv = (lambda v: m.asarray(v)) if m is xnp else (lambda v: v)
        arr = (lambda v: conv(v) if isinstance(v, np.ndarray) else v)
        return m.select([c], [arr(choice)], arr(default))
    return body


_KEY_REPRS = {(repr(a), repr(b)) for a, b in _KEY_PAIRS}


@pytest.mark.parametrize("j", range(len(SCALARS)), ids=[repr(v) for v in SCALARS])
@pytest.mark.parametrize("i", range(len(SCALARS)), ids=[repr(v) for v in SCALARS])
def test_select_of_scalars_in_both_positions_matches_numpy(i, j):
    # NumPy: result_type with Python int/float/complex weak; the default cast unsafely
    # (numpy.full: a Python int wraps), each choice 'same_kind' from NumPy's array of it
    # (a Python int is int64: select([c], [3], np.uint8(1)) raises TypeError)
    choice, default = SCALARS[i], SCALARS[j]
    c = np.array([True, False])
    _same_outcome(_select_body(choice, default), c)
    if (repr(choice), repr(default)) in _KEY_REPRS or (i * len(SCALARS) + j) % 5 == 0:
        _jit_vs_numpy(_select_body(choice, default), c)  # (values closed over: static)


def test_select_errors_name_the_function_the_choice_and_the_dtypes():
    c = [xnp.asarray([True, False])]
    with pytest.raises(TypeError, match=r"xnp\.select: cannot cast choicelist\[0\] from int64 "
                                        r"to uint8"):
        xnp.select(c, [3], np.uint8(1))
    with pytest.raises(TypeError, match=r"xnp\.select: .*common dtype"):
        xnp.select(c, [np.int64(7)], ml_dtypes.bfloat16(1))
    with pytest.raises(OverflowError, match=r"xnp\.select: `default` is the Python int"):
        xnp.select(c, [np.uint8(5)], 2**64)


@pytest.mark.parametrize("choice, default", [(3, np.uint8(1)), (300, np.int8(1)),
                                             (np.uint8(5), 300), (np.uint8(5), -1),
                                             (2**63, 3), (1.5, np.float32(1))], ids=repr)
def test_select_python_scalar_arguments_of_jit_as_numpy(choice, default):
    c = np.array([True, False])
    want, _ = outcome(lambda: np.select([c], [choice], default))
    f = xnp.jit(lambda c, a, b: xnp.select([c], [a], b))
    for _ in range(2):
        got, _ = outcome(lambda: f(xnp.asarray(c), choice, default))
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), got
        else:
            assert_allclose(got, want)


_BASE = np.arange(24.).reshape(4, 6) - 8
_LAYOUTS = {"C": _BASE, "F": np.asfortranarray(_BASE), "T": _BASE.T, "cols": _BASE[:, ::2],
            "T_rows": _BASE.T[::2], "vector_step": _BASE.ravel()[::3],
            "F3": np.asfortranarray(np.arange(24.).reshape(2, 3, 4)),
            "permuted": np.arange(24.).reshape(2, 3, 4).transpose(1, 0, 2)}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("body", [
    lambda m, x: m.piecewise(x, [x > 3], [1.0, 2.0]),
    lambda m, x: m.piecewise(x, [x > 3, x < 0], [lambda v: v * 2, 7, 0.0]),
    lambda m, x: m.select([x > 3, x < 1], [x, x * 2], 0.0),
    lambda m, x: m.select([x > 3], [1.0], x),
    lambda m, x: m.select([x > 3], [x.astype(m.int8)], np.int8(1)),
], ids=["piecewise", "piecewise_callable", "select", "select_default_array", "select_int8"])
def test_piecewise_and_select_results_have_numpys_memory_order(layout, body):
    # piecewise: NumPy's zeros_like(x) (order 'K'); select: NumPy's numpy.full (C order)
    x = _LAYOUTS[layout]
    want = body(np, x)
    for _ in range(2):  # the second call replays
        got = body(xnp, xnp.asarray(x))
        assert_allclose(got, want)
        flags = xnp.asarray(got).flags
        assert (flags.c_contiguous, flags.f_contiguous) == (
            want.flags.c_contiguous, want.flags.f_contiguous), layout


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("body", [
    lambda m, x, c: m.piecewise(x, [c[0]], [1.0, 2.0]),
    lambda m, x, c: m.piecewise(x, c, [lambda v: v * 2, 7.0]),
    lambda m, x, c: m.piecewise(x, c, [lambda v: v * 2, 7.0, -1.0]),
], ids=["one", "callable", "default"])
def test_piecewise_keeps_x_memory_order_whatever_the_conditions(layout, body):
    # NumPy fills zeros_like(x) in place: x's order also for row-major conditions (which
    # give a row-major `where`) of a Fortran-ordered or transposed x
    x = _LAYOUTS[layout]
    conds = [np.ascontiguousarray(x > 3), np.ascontiguousarray(x < 0)]
    want = body(np, x, conds)
    for xc in ([xnp.asarray(c) for c in conds], conds):
        for how in ("first", "replayed"):
            got = np.asarray(body(xnp, xnp.asarray(x), xc))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), how
            assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
                want.flags.c_contiguous, want.flags.f_contiguous), (layout, how)
    got = xnp.jit(lambda x, c0, c1: body(xnp, x, [c0, c1]))(x, *conds)
    assert np.asarray(got).tobytes() == want.tobytes()


def test_eager_put_replays_numpys_put_on_new_values():
    """An eager ``put`` is NumPy's ``put`` writing into the array's memory, and its
    recorded call replays that write with each call's values: into a view (through to its
    base), into a jit output (its own copy first), with NumPy's errors and cycling."""
    from xnp.numpy_api import _replay

    _replay.clear()
    rng = np.random.default_rng(0)
    for k in range(12):
        a = np.arange(20.0).reshape(4, 5)
        x = xnp.asarray(a.copy())
        ind = rng.integers(-20, 20, size=3)
        v = rng.normal(size=2)
        xnp.put(x, xnp.asarray(ind), xnp.asarray(v), mode="wrap" if k % 2 else "raise")
        np.put(a, ind, v, mode="wrap" if k % 2 else "raise")
        assert np.asarray(x).tobytes() == a.tobytes()
    assert _replay.stats(xnp.put)["programs"] == 2  # (one per mode)
    base = xnp.jit(lambda: xnp.zeros(6))()  # (a jit output: written in a copy of its own)
    view = base[1:]
    for k in range(3):
        xnp.put(view, xnp.asarray([0, 2]), xnp.asarray([1.0 + k, 2.0]))
    want = np.zeros(6)
    np.put(want[1:], [0, 2], [3.0, 2.0])
    assert np.asarray(base).tobytes() == want.tobytes()
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 5"):
        xnp.put(view, xnp.asarray([0, 9]), xnp.asarray([1.0, 2.0]))


@pytest.mark.parametrize("name", ["place", "putmask", "copyto"])
def test_eager_writers_replay_numpys_function_on_new_values(name):
    """``place``, ``putmask`` and ``copyto`` eagerly are NumPy's functions writing into the
    array's memory; their recorded calls replay with each call's values (mask, values, a
    target that is a view), NumPy's casts and errors included."""
    from xnp.numpy_api import _replay

    def call(m, a, mask, vals):
        if name == "copyto":
            return m.copyto(a, vals, where=mask)
        return getattr(m, name)(a, mask, vals)

    _replay.clear()
    rng = np.random.default_rng(2)
    for _ in range(8):
        a = np.arange(24, dtype=np.int32).reshape(4, 6)
        x = xnp.asarray(a.copy())
        mask = rng.random((4, 6)) < 0.4
        vals = rng.integers(-99, 99, size=6 if name == "copyto" else 5).astype(np.int16)
        call(np, a[:, 1:] if name != "copyto" else a, mask[:, 1:] if name != "copyto"
             else mask, vals if name != "copyto" else vals)
        call(xnp, x[:, 1:] if name != "copyto" else x, xnp.asarray(
            mask[:, 1:] if name != "copyto" else mask), xnp.asarray(vals))
        assert np.asarray(x).tobytes() == a.tobytes()
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}
    x = xnp.asarray(np.zeros((4, 6), np.int32))
    bad = xnp.asarray(np.full(6, 1.5))  # (float64 into int32: NumPy's TypeError)
    with pytest.raises(TypeError, match="Cannot cast"):
        call(xnp, x, xnp.asarray(np.ones((4, 6), bool)), bad)
