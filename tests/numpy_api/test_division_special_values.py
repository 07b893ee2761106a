"""floor_divide (``//``), remainder/mod (``%``), fmod and divmod on every pair of +-0.0,
+-1.0, +-3.5, +-inf and NaN, and integer reciprocal of 0, against NumPy: the values (NaN
positions, the signs of zeros) and dtypes eagerly and under jit, and the eager
floating-point errors, whose category and message (``divide by zero encountered in
floor_divide``: NumPy's ufunc named) are NumPy's; compiled code reports none. Also the
integer zero divisors and ``iinfo.min // -1``, and float16/bfloat16 quotients, which
NumPy's loops compute in float32."""

import builtins
import warnings

import numpy as np
import pytest

import xnp

VALUES = [0.0, -0.0, 1.0, -1.0, 3.5, -3.5, np.inf, -np.inf, np.nan]
FLOATS = [np.float16, np.float32, np.float64]
PAIRS = [(x, y) for x in VALUES for y in VALUES]

# name -> body(m, a, b) for the module m (numpy or xnp) and two arrays of m
CALLS = {
    "floor_divide": lambda m, a, b: m.floor_divide(a, b),
    "remainder": lambda m, a, b: m.remainder(a, b),
    "mod": lambda m, a, b: m.mod(a, b),
    "fmod": lambda m, a, b: m.fmod(a, b),
    "divmod": lambda m, a, b: m.divmod(a, b),
    "a // b": lambda m, a, b: a // b,
    "a % b": lambda m, a, b: a % b,
    "divmod(a, b)": lambda m, a, b: builtins.divmod(a, b),
}
FUNCTIONS = ["floor_divide", "remainder", "fmod", "divmod"]


def _outputs(res) -> list:
    return [np.asarray(r) for r in (res if isinstance(res, tuple) else (res,))]


def _caught(fn, *args):
    """``fn(*args)`` and the set of (category, message) of the warnings it issued."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        res = fn(*args)
    return res, {(x.category, str(x.message)) for x in w}


def _assert_same(got, want, what):
    got, want = _outputs(got), _outputs(want)
    assert len(got) == len(want), what
    for g, e in zip(got, want):
        assert g.dtype == e.dtype, (what, g.dtype, e.dtype)
        np.testing.assert_array_equal(g, e, err_msg=str(what))  # NaN positions too
        np.testing.assert_array_equal(np.signbit(g), np.signbit(e), err_msg=f"sign: {what}")


def _grid(dtype):
    a = np.array([x for x, _ in PAIRS], dtype)
    b = np.array([y for _, y in PAIRS], dtype)
    return a, b


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_values_eagerly_and_under_jit_are_numpys(dtype):
    a, b = _grid(dtype)
    with np.errstate(all="ignore"):
        want = {name: body(np, a, b) for name, body in CALLS.items()}
    xa, xb = xnp.asarray(a), xnp.asarray(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name, body in CALLS.items():
            _assert_same(body(xnp, xa, xb), want[name], (name, "eager"))

    def all_calls(u, v):
        return {name: body(xnp, u, v) for name, body in CALLS.items()}

    got, caught = _caught(xnp.jit(all_calls), xa, xb)
    assert caught == set()  # compiled code reports no floating-point errors
    for name in CALLS:
        _assert_same(got[name], want[name], (name, "jit"))


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_in_place_floor_divide_and_remainder_are_numpys(dtype):
    a, b = _grid(dtype)
    for op in ("__ifloordiv__", "__imod__"):
        want, got = a.copy(), xnp.asarray(a.copy())
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            getattr(want, op)(b)
            getattr(got, op)(xnp.asarray(b))
        _assert_same(got, want, op)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(CALLS))
def test_eager_warnings_are_numpys(name, dtype):
    body = CALLS[name]
    for x, y in PAIRS:  # one element each: the errors of each pair
        a, b = np.array([x], dtype), np.array([y], dtype)
        want, want_caught = _caught(body, np, a, b)
        got, got_caught = _caught(body, xnp, xnp.asarray(a), xnp.asarray(b))
        assert got_caught == want_caught, (name, x, y)
        _assert_same(got, want, (name, x, y))
    a, b = _grid(dtype)  # every pair in one call: NumPy reports each error once
    assert _caught(body, xnp, xnp.asarray(a), xnp.asarray(b))[1] == _caught(body, np, a, b)[1]


@pytest.mark.parametrize("fname", FUNCTIONS)
def test_python_scalar_and_0d_operands_warn_as_numpy(fname):
    fn = {m: getattr(m, fname) for m in (np, xnp)}
    cases = [(np.array([1.0, np.inf, 0.0]), 0.0), (np.inf, np.array([2.0, -0.0])),
             (np.array(-3.5, np.float32), np.array(0.0, np.float32)),
             (np.array([1.0, -1.0], np.float16), -np.inf)]
    for x, y in cases:
        want, want_caught = _caught(fn[np], x, y)
        xx = xnp.asarray(x) if isinstance(x, np.ndarray) else x
        yy = xnp.asarray(y) if isinstance(y, np.ndarray) else y
        got, got_caught = _caught(fn[xnp], xx, yy)
        assert got_caught == want_caught, (fname, x, y)
        _assert_same(got, want, (fname, x, y))


@pytest.mark.parametrize("fname", FUNCTIONS)
def test_errstate_raise_and_call_see_numpys_messages(fname):
    a, b = np.array([1.0, np.inf, 0.0, 2.0]), np.array([0.0, 2.0, 0.0, -np.inf])
    for m, x, y in ((np, a, b), (xnp, xnp.asarray(a), xnp.asarray(b))):
        with m.errstate(all="raise"), pytest.raises(FloatingPointError) as exc:
            getattr(m, fname)(x, y)
        if m is np:
            want = str(exc.value)
        else:
            assert str(exc.value) == want
    called = {np: [], xnp: []}
    for m, x, y in ((np, a, b), (xnp, xnp.asarray(a), xnp.asarray(b))):
        with m.errstate(all="call", call=lambda kind, flag, m=m: called[m].append(kind)):
            getattr(m, fname)(x, y)
    assert called[xnp] == called[np]


@pytest.mark.parametrize("fname", FUNCTIONS)
def test_overflow_and_underflow_of_the_quotient_step_as_numpy(fname):
    # NumPy's loop divides a - fmod(a, b) by b: it overflows (and then inf - floor(inf) is
    # invalid) or underflows where the quotient does; the remainder alone does not
    a = np.array([1e308, 1e-308, -5e-324, 3.0, 1e300])
    b = np.array([1e-308, 1e308, 3.0, 5e-324, 1e-10])
    with np.errstate(all="warn"):
        want, want_caught = _caught(getattr(np, fname), a, b)
        got, got_caught = _caught(getattr(xnp, fname), xnp.asarray(a), xnp.asarray(b))
    assert got_caught == want_caught
    _assert_same(got, want, fname)


@pytest.mark.parametrize("fname", ["floor_divide", "remainder", "divmod"])
def test_every_call_decides_its_warnings_from_its_values(fname):
    # a call without errors and then one with the same signature: the second warns as NumPy
    a = np.array([1.0, 3.5])
    fn = getattr(xnp, fname)
    for b in (np.array([2.0, 1.0]), np.array([0.0, 1.0]), np.array([2.0, 1.0])):
        want_caught = _caught(getattr(np, fname), a, b)[1]
        assert _caught(fn, xnp.asarray(a), xnp.asarray(b))[1] == want_caught


INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", INTEGERS + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_integer_reciprocal_is_numpys(dtype):
    # NumPy's value at 0 is its loop's C conversion of 1.0 / 0 (inf) to the integer type
    x = np.array([0, 1, -1, 2]).astype(dtype) if dtype is not np.bool_ else np.array(
        [False, True])
    want, want_caught = _caught(np.reciprocal, x)
    assert want_caught  # divide by zero and invalid, encountered in reciprocal
    got, got_caught = _caught(xnp.reciprocal, xnp.asarray(x))
    assert got_caught == want_caught
    _assert_same(got, want, "eager")
    jitted, caught = _caught(xnp.jit(xnp.reciprocal), xnp.asarray(x))
    assert caught == set()
    _assert_same(jitted, want, "jit")
    nonzero = x[1:]  # no error without a zero, as NumPy
    _assert_same(xnp.reciprocal(xnp.asarray(nonzero)), np.reciprocal(nonzero), "nonzero")
    assert _caught(xnp.reciprocal, xnp.asarray(nonzero))[1] == set()


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(CALLS))
def test_integer_division_warnings_are_numpys(name, dtype):
    # a zero divisor (divide by zero), and iinfo.min // -1 (overflow) for signed integers
    signed = np.dtype(dtype).kind == "i"
    cases = [([7, 0, 5], [0, 0, 2]), ([7, 5], [3, 2])]
    if signed:
        lo = np.iinfo(dtype).min
        cases += [([lo, 6], [-1, 4]), ([lo, 1], [-1, 0])]
    for x, y in cases:
        a, b = np.array(x).astype(dtype), np.array(y).astype(dtype)
        want, want_caught = _caught(CALLS[name], np, a, b)
        got, got_caught = _caught(CALLS[name], xnp, xnp.asarray(a), xnp.asarray(b))
        assert got_caught == want_caught, (name, x, y)
        _assert_same(got, want, (name, x, y))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_narrow_floats_divide_in_float32_as_numpys_loop(dtype):
    # NumPy's half loop (and ml_dtypes') computes divmod in float32 and rounds once:
    # computing each step in float16 gave 2294.0 for -107.44 // -0.04684 (NumPy: 2292.0)
    dt = np.dtype(dtype)
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(3000) * 100).astype(dt)
    b = (rng.standard_normal(3000) * 3).astype(dt)
    with np.errstate(all="ignore"):
        want = {name: CALLS[name](np, a, b) for name in ("floor_divide", "remainder", "divmod")}
    xa, xb = xnp.asarray(a), xnp.asarray(b)
    jitted = xnp.jit(lambda u, v: {name: CALLS[name](xnp, u, v) for name in want})(xa, xb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in want:
            _assert_same(CALLS[name](xnp, xa, xb), want[name], (name, "eager"))
            _assert_same(jitted[name], want[name], (name, "jit"))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod", "power",
                                  "left_shift", "right_shift"])
def test_dtype_bool_finds_no_loop(name):
    """NumPy has no bool loop for these (bool inputs compute in int8): dtype=bool raises
    TypeError, eagerly and under jit."""
    b = np.array([True, False])
    with pytest.raises(TypeError):
        getattr(np, name)(b, b, dtype=bool)
    with pytest.raises(TypeError, match=name):
        getattr(xnp, name)(xnp.asarray(b), xnp.asarray(b), dtype=bool)
    with pytest.raises(TypeError, match=name):
        xnp.jit(lambda x: getattr(xnp, name)(x, x, dtype=bool))(xnp.asarray(b))
    with pytest.raises(TypeError, match="reciprocal"):
        xnp.reciprocal(xnp.asarray(b), dtype=bool)
