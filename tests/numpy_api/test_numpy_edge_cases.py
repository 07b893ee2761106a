"""NumPy edge cases, each against NumPy on this machine eagerly and under jit: signed zeros
(``clip``, ``nanmax``/``nanmin``, ``arange``, ``sum`` with ``initial=-0.0``), the step of
``linspace(retstep=True)``, list axes of reductions, Python bools taken as integers
(``round``, ``tile``, ``linspace``), ``full``/``full_like`` fills that NumPy casts with a
warning, and bfloat16 in ufuncs with other dtypes."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp.tracing import core

BF16 = np.dtype(ml_dtypes.bfloat16)


def assert_same(actual, expected, what=""):
    """Exactly NumPy's result: type of a scalar result, shape, dtype, values, NaN
    positions and the sign of every zero."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), what
        for a, e in zip(actual, expected):
            assert_same(a, e, what)
        return
    if isinstance(expected, np.generic):
        assert type(actual) is type(expected), f"{what}: {type(actual)} != {type(expected)}"
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype), f"{what}: {a.dtype}{a.shape} != {e.dtype}{e.shape}"
    assert a.tobytes() == e.tobytes() or (
        a.dtype.kind in "fc" and np.array_equal(a, e, equal_nan=True)
        and np.array_equal(np.signbit(a.real), np.signbit(e.real))), f"{what}: {a!r} != {e!r}"


def check(body, *args):
    """``body(xp, *args)`` with NumPy, with xnp eagerly and under ``xnp.jit`` (the args as
    arguments), compared with :func:`assert_same` (under jit a NumPy scalar result is a
    0-d array)."""
    expected = body(np, *args)
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    assert_same(body(xnp, *xargs), expected, "eager")
    jitted = xnp.jit(lambda *a: body(xnp, *a))(*xargs)
    assert_same(jitted, _zero_d(expected), "jit")


def _zero_d(expected):
    if isinstance(expected, tuple):
        return tuple(_zero_d(e) for e in expected)
    return np.asarray(expected) if isinstance(expected, np.generic) else expected


# --------------------------------------------------------------------------- signed zeros

_ZEROS = np.array([-0.0, 0.0, -1.0, 2.0, np.nan, 0.5])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("lo,hi", [(0.0, 1.0), (-0.0, 1.0), (-1.0, -0.0), (-1.0, 0.0),
                                   (-0.0, 0.0), (0.0, -0.0)])
def test_clip_keeps_an_element_equal_to_a_bound(dtype, lo, hi):
    # NumPy's clip loop keeps the input where it equals a bound: -0.0 against 0.0 stays
    check(lambda xp, x: xp.clip(x, lo, hi), _ZEROS.astype(dtype))
    check(lambda xp, x: x.clip(lo, hi), _ZEROS.astype(dtype))


@pytest.mark.parametrize("x,lo,hi", [(-0.0, -0.0, 1), (0.0, -0.0, 1), (-0.0, 0.0, 1.0),
                                     (0.0, -1.0, -0.0)])
def test_clip_python_scalars(x, lo, hi):
    assert_same(xnp.clip(x, lo, hi), np.clip(x, lo, hi))
    assert_same(xnp.jit(lambda: xnp.clip(x, lo, hi))(), np.asarray(np.clip(x, lo, hi)))


@pytest.mark.parametrize("lo_shape,hi_shape", [((4,), (4,)), ((), (4,)), ((1,), (1,)),
                                               ((3, 1), (3, 1)), ((1, 4), ()), ((1, 1), (1, 1))])
@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_clip_bound_arrays_with_signed_zeros(lo_shape, hi_shape, dtype):
    # NumPy's loop for bounds varying along the array returns the bound on a tie (its
    # float16 loop the element), for single-valued bounds the element
    x = np.array([[-0.0, 0.0, -0.0, 0.0], [0.0, -0.0, 0.5, -1.0], [np.nan, 0.0, 2.0, -0.0]],
                 dtype)
    lo = np.resize(np.array([0.0, -0.0, -0.0, 0.0], dtype), lo_shape)
    hi = np.resize(np.array([1.0, -0.0, 0.0, -0.0], dtype), hi_shape)
    check(lambda xp, x, lo, hi: xp.clip(x, lo, hi), x, lo, hi)
    check(lambda xp, x, lo, hi: xp.clip(x, lo, hi), x[0], lo.ravel()[:1], hi.ravel()[:1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nanmax_nanmin_of_signed_zeros(dtype):
    # NumPy's fmax/fmin loop over a short slice keeps the first of -0.0 and 0.0
    values = [[-0.0, 0.0], [0.0, -0.0], [np.nan, -0.0, 0.0], [np.nan, 0.0, -0.0],
              [-0.0, np.nan, 0.0, -1.0], [0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0]]
    check(lambda xp, *xs: tuple(f(x) for x in xs for f in (xp.nanmax, xp.nanmin)),
          *[np.array(v, dtype) for v in values])


@pytest.mark.parametrize("fname", ["nanmax", "nanmin"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (-1, False), (1, True), ((0, 1), False)])
def test_nanmax_nanmin_of_signed_zeros_over_the_last_axes(fname, axis, keepdims):
    x = np.array([[-0.0, 0.0], [0.0, -0.0], [np.nan, -0.0]])  # at most 8 per result
    if axis != (0, 1) and axis is not None:
        x[2, 1] = np.nan  # an all-NaN row: NaN (NumPy also warns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(lambda xp, x: getattr(xp, fname)(x, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("args,kwargs", [((-0.0, 1), {}), ((-0.0, 2, 0.5), {}),
                                         ((-0.0, -1, -0.5), {}), ((-0.0, 0.5), {}),
                                         ((-0.0, 3), {"dtype": np.float32}),
                                         ((-0.0, 3), {"dtype": np.float16}),
                                         ((np.float32(-0.0), 2), {}),
                                         ((-0.0, 3), {"dtype": np.int32})])
def test_arange_from_minus_zero(args, kwargs):
    check(lambda xp: xp.arange(*args, **kwargs))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_sum_with_initial_minus_zero(dtype):
    # NumPy adds the elements to `initial` from -0.0 on: only -0.0 (or nothing) gives -0.0
    xs = [np.full(shape, value, dtype) for shape, value in [
        ((0,), 0.0), ((1,), -0.0), ((2,), -0.0), ((10,), -0.0), ((1,), 0.0), ((3, 4), -0.0)]]
    check(lambda xp, *xs: tuple(f(x, axis=axis, initial=-0.0) for x in xs
                                for f in (xp.sum, xp.nansum) for axis in (None, 0, -1)), *xs)


def test_sum_with_initial_minus_zero_and_where():
    x = np.array([[-0.0, 1.0, -0.0], [2.0, -0.0, -0.0]])
    where = np.array([[True, False, True], [False, True, True]])
    check(lambda xp, x, w: xp.sum(x, axis=1, initial=-0.0, where=w), x, where)
    check(lambda xp, x, w: xp.add.reduce(x, axis=1, initial=-0.0, where=w), x, where)
    check(lambda xp, x: xp.sum(x, initial=0.0), np.full(3, -0.0))
    check(lambda xp, x: xp.sum(x, initial=np.float64(-0.0)), np.full(3, -0.0))


def test_sum_with_a_traced_initial():
    x = np.full((2, 3), -0.0)
    for init in (-0.0, 0.0, 1.5):
        expected = np.sum(x, axis=1, initial=init)
        out = xnp.jit(lambda x, i: xnp.sum(x, axis=1, initial=i))(xnp.asarray(x),
                                                                  xnp.asarray(init))
        assert_same(out, expected)


@pytest.mark.parametrize("values", [[], [-1.0], [1.0], [-1.0, np.nan, 2.0]])
def test_max_min_with_initial_minus_zero(values):
    check(lambda xp, x: tuple(getattr(xp, f)(x, initial=-0.0)
                              for f in ("max", "min", "nanmax", "nanmin")), np.array(values))


# --------------------------------------------------------------------------- linspace step

@pytest.mark.parametrize("args,kwargs", [((0, 1, 5), {}), ((0, 1, 1), {}), ((0, 1, 0), {}),
                                         ((np.float32(0), 1, 5), {}),
                                         ((0, 1, 5), {"dtype": np.float32}),
                                         ((0, 1, 5), {"dtype": np.int32}),
                                         ((np.float16(0), 1, 3), {}),
                                         ((0, 1, 1), {"endpoint": False}), ((0j, 1, 3), {}),
                                         ((np.array(0.0), 1, 3), {}),
                                         ((np.array([0.0, 1.0]), 2, 5), {})])
def test_linspace_retstep_eagerly_is_numpys_step(args, kwargs):
    expected = np.linspace(*args, retstep=True, **kwargs)
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    samples, step = xnp.linspace(*xargs, retstep=True, **kwargs)
    assert_same(samples, expected[0])
    if isinstance(expected[1], np.ndarray):
        assert isinstance(step, xnp.ndarray)
    else:
        assert type(step) is type(expected[1])  # np.float64, np.float32 or the float nan
    assert_same(step, expected[1])


@pytest.mark.parametrize("start,stop,dtype", [(0.0, 1.0, np.float64), (np.float32(0), 1, None),
                                              (0.0, 2.0, np.float32)])
def test_linspace_retstep_under_jit_is_a_traced_0d_value(start, stop, dtype):
    expected = np.linspace(start, stop, 5, retstep=True, dtype=dtype)

    def f(a, b):
        samples, step = xnp.linspace(a, b, 5, retstep=True, dtype=dtype)
        assert isinstance(step, core.Tracer) and step.shape == ()
        return samples, step

    samples, step = xnp.jit(f)(start, stop)
    assert_same(samples, expected[0])
    assert_same(step, np.asarray(expected[1]))


# --------------------------------------------------------------------------- list axes

_REDUCTIONS = ["sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all", "std", "var",
               "count_nonzero", "ptp", "nansum", "nanprod", "nanmean", "nanmax", "nanmin",
               "nanstd", "nanvar"]


@pytest.mark.parametrize("fname", _REDUCTIONS)
@pytest.mark.parametrize("axis", [[0], [0, 1]])
def test_reduction_rejects_a_list_axis(fname, axis):
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError):
        getattr(np, fname)(x, axis=axis)
    for call in (lambda: getattr(xnp, fname)(xnp.asarray(x), axis=axis),
                 lambda: xnp.jit(lambda v: getattr(xnp, fname)(v, axis=axis))(x)):
        with pytest.raises(TypeError, match=rf"xnp\.{fname}: `axis` .*not a list"):
            call()


@pytest.mark.parametrize("fname", ["sum", "prod", "max", "min", "mean", "any", "all", "std"])
def test_array_method_rejects_a_list_axis(fname):
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError):
        getattr(x, fname)(axis=[0])
    with pytest.raises(TypeError, match="not a list"):
        getattr(xnp.asarray(x), fname)(axis=[0])


@pytest.mark.parametrize("uname", ["add", "multiply", "maximum", "logical_or"])
def test_ufunc_reduce_rejects_a_list_axis(uname):
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError):
        getattr(np, uname).reduce(x, axis=[0])
    for call in (lambda: getattr(xnp, uname).reduce(xnp.asarray(x), axis=[0]),
                 lambda: xnp.jit(lambda v: getattr(xnp, uname).reduce(v, axis=[0]))(x)):
        with pytest.raises(TypeError, match=rf"xnp\.{uname}\.reduce: `axis`"):
            call()


@pytest.mark.parametrize("axis", [(-1, 0), (1,)])
def test_reductions_take_a_tuple_axis(axis):
    check(lambda xp, x: tuple(getattr(xp, f)(x, axis=axis) for f in _REDUCTIONS),
          np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("fname", ["average", "median", "expand_dims"])
def test_functions_taking_a_list_axis_still_do(fname):
    check(lambda xp, x: getattr(xp, fname)(x, axis=[0, 1]), np.arange(6.0).reshape(2, 3))


# --------------------------------------------------------------------------- bools as ints

@pytest.mark.parametrize("decimals", [True, False])
def test_round_takes_a_bool_decimals(decimals):
    x = np.array([1.26, 2.5, -0.55, 7.0])
    check(lambda xp, x: xp.round(x, decimals), x)
    check(lambda xp, x: x.round(decimals), x)
    check(lambda xp, x: xp.round(x, decimals), np.array([15, 26], np.int32))


@pytest.mark.parametrize("reps", [(True,), True, (False, True), (2, True), np.True_,
                                  (np.True_, np.False_), np.array([True, True])])
def test_tile_takes_bool_counts(reps):
    check(lambda xp, x: xp.tile(x, reps), np.array([[1, 2], [3, 4]]))


@pytest.mark.parametrize("num", [True, False])
def test_linspace_takes_a_bool_num(num):
    check(lambda xp: xp.linspace(0, 1, num))
    check(lambda xp: xp.linspace(0.5, 1, num, retstep=True))


@pytest.mark.parametrize("call", [lambda xp: xp.round(xp.asarray([1.5]), np.True_),
                                  lambda xp: xp.linspace(0, 1, np.True_)])
def test_numpy_bools_stay_rejected_as_integers(call):
    with pytest.raises(TypeError):
        call(np)
    with pytest.raises(TypeError):
        call(xnp)


# --------------------------------------------------------------------------- full fills

def _warned(call, times=3):
    """Results and warning categories of ``call()`` run ``times`` times (each call
    warns: a replay of the eager dispatch cache too)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        results = [call() for _ in range(times)]
    return results, [w.category for w in seen]


@pytest.mark.parametrize("call", [
    lambda xp: xp.full_like(xp.zeros(3, xp.int32), np.nan),
    lambda xp: xp.full_like(xp.zeros(3, xp.int8), -np.inf),
    lambda xp: xp.full((2, 2), np.nan, dtype=xp.int32),
    lambda xp: xp.full(3, 1e40, dtype=xp.int16),
    lambda xp: xp.full_like(xp.zeros(3, xp.float32), 1 + 1j),
    lambda xp: xp.full_like(xp.zeros(3, xp.int64), 2.5 - 3j),
    lambda xp: xp.full((3,), 1 + 1j, dtype=xp.float32),
    lambda xp: xp.full_like(xp.zeros(3, xp.int32), np.float64(np.nan)),
    lambda xp: xp.full_like(xp.zeros(2, xp.float16), np.complex64(2 + 1j)),
], ids=["like-nan-int32", "like-inf-int8", "full-nan-int32", "full-big-int16",
        "like-complex-float32", "like-complex-int64", "full-complex-float32",
        "like-np-nan-int32", "like-np-complex-float16"])
def test_full_casts_as_numpy_with_its_warning(call):
    (expected, *_), np_categories = _warned(lambda: call(np), 1)
    assert np_categories
    results, categories = _warned(lambda: call(xnp))
    for r in results:
        assert_same(r, expected)
    assert categories == np_categories * len(results)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(xnp.jit(lambda: call(xnp))(), expected)


def test_full_nan_to_int_under_errstate_raises():
    with np.errstate(invalid="raise"):
        with pytest.raises(FloatingPointError):
            np.full(2, np.nan, dtype=np.int32)
        for _ in range(2):
            with pytest.raises(FloatingPointError):
                xnp.full_like(xnp.zeros(2, xnp.int32), np.nan)


def test_full_out_of_range_python_int_still_raises():
    with pytest.raises(OverflowError):
        np.full(2, 300, dtype=np.int8)
    with pytest.raises(OverflowError):
        xnp.full(2, 300, dtype=np.int8)
    with pytest.raises(OverflowError):
        xnp.full_like(xnp.zeros(2, np.uint8), -1)


# --------------------------------------------------------------------------- bfloat16 ufuncs

@pytest.mark.parametrize("others", [(np.float16, np.int8, np.uint8, np.float32, np.float64),
                                    (np.int16, np.int32, np.uint64, np.bool_,
                                     ml_dtypes.float8_e4m3fn)])
def test_bfloat16_with_another_dtype_as_numpys_loop(others):
    # bfloat16 with float16 or with integers wider than 8 bits: NumPy has no common dtype,
    # its ufuncs take the first loop both cast to safely (float32, or float64)
    a = np.array([1.5, -2.25, 3.0, 0.0], BF16)
    bs = [np.array([0.5, 2.0, 4.0, 1.0]).astype(other) for other in others]
    fnames = ("add", "subtract", "divide", "maximum", "less")
    check(lambda xp, a, *bs: tuple(getattr(xp, f)(*ops) for b in bs for f in fnames
                                   for ops in ((a, b), (b, a))), a, *bs)


def test_bfloat16_in_place_with_float16():
    a = np.array([1.5, 2.25], BF16)
    b = np.array([0.1, 0.2], np.float16)
    x = xnp.asarray(a.copy())
    x += xnp.asarray(b)
    a += b
    assert_same(x, a)


def test_bfloat16_with_float16_has_no_common_dtype():
    # NumPy's promotion (result_type, where, concatenate) finds none; only ufunc loops do
    a = np.ones(2, BF16)
    b = np.ones(2, np.float16)
    for call in (lambda xp: xp.result_type(a.dtype, b.dtype),
                 lambda xp: xp.where(True, xp.asarray(a), xp.asarray(b)),
                 lambda xp: xp.concatenate([xp.asarray(a), xp.asarray(b)])):
        with pytest.raises(np.exceptions.DTypePromotionError):
            call(np)
        with pytest.raises(np.exceptions.DTypePromotionError):
            call(xnp)


@pytest.mark.parametrize("name", ["add", "sin", "floor_divide", "logaddexp", "hypot", "maximum"])
def test_out_as_a_tuple_of_one(name):
    """NumPy's single-output ufuncs take ``out=(None,)`` (a new result) and ``out=(arr,)``
    (written in place and returned), also with ``where=``; eagerly and under jit."""
    nin = getattr(np, name).nin
    v = [np.array([0.5, 2.0, 3.5]), np.array([1.5, 0.25, 2.0])][:nin]
    want = getattr(np, name)(*v, out=(None,))
    np.testing.assert_array_equal(np.asarray(getattr(xnp, name)(*map(xnp.asarray, v),
                                                                out=(None,))), want)
    jitted = xnp.jit(lambda *a: getattr(xnp, name)(*a, out=(None,)))
    np.testing.assert_allclose(np.asarray(jitted(*map(xnp.asarray, v))), want, rtol=4e-15)
    out, ref = xnp.zeros(3), np.zeros(3)
    mask = np.array([True, False, True])
    got = getattr(xnp, name)(*map(xnp.asarray, v), out=(out,), where=xnp.asarray(mask))
    getattr(np, name)(*v, out=(ref,), where=mask)
    assert got is out
    np.testing.assert_array_equal(np.asarray(out), ref)
