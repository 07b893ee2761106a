"""NumPy drop-in details of the eager elementwise ufuncs, against NumPy on this machine:

* floating-point warnings name NumPy's ufunc of the public name ("overflow encountered in
  square", not xnp's implementation's "in multiply"), with NumPy's category, on the first
  call of a signature and on its replays, naming the caller's line (this file);
* ``round``/``around`` with a huge ``decimals`` (NumPy's scale overflows to inf: NaN
  results and "invalid value" warnings, no ``OverflowError``);
* ``rad2deg``/``degrees``/``deg2rad``/``radians`` bit for bit, eagerly and under jit;
* complex special values of ``expm1``, ``reciprocal``, ``exp``, ``log1p`` ... at C99's
  special points, with NumPy's warnings (every point and function:
  tests/test_complex_special_values.py).
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp import ndarray_class
from xnp.numpy_api import _replay

_BIG = {np.float16: 6e4, np.float32: 1e38, np.float64: 1e300}


def _caught(call, mod):
    """``call(mod)``'s result (or exception) and its warnings: (category, message, file)."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            out = call(mod)  # the line every warning must name
        except Exception as e:  # noqa: BLE001  (compared with NumPy's)
            out = e
    return out, [(w.category, str(w.message), w.filename) for w in got]


def _host(out):
    if isinstance(out, tuple):
        return tuple(np.asarray(o) for o in out)
    return out if isinstance(out, Exception) else np.asarray(out)


def _assert_same_values(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _assert_same_values(g, w)
        return
    if isinstance(want, Exception):  # the same public class (NumPy's UFuncTypeError is a
        # TypeError)
        public = next(c for c in type(want).__mro__ if c.__module__ == "builtins")
        assert isinstance(got, public), (got, want)
        return
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "V":  # ml_dtypes' floats: compared in float32 (exactly)
        got, want = got.astype(np.float32), want.astype(np.float32)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind in "fc":  # zeros' signs too
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            np.testing.assert_array_equal(np.signbit(g[w == 0]), np.signbit(w[w == 0]))


#: why the file a warning names is checked only while no subclass of xnp.ndarray exists in
#: the process (another test may have defined one in this worker): the subclass puts a
#: Python wrapper (xnp/ndarray_class.py) around every ufunc call, and NumPy's warning names
#: the innermost Python frame, the wrapper's. The fresh-process tests below check the file
#: whatever ran before, and the subclass case as a known failure.
_SUBCLASS_FRAME = ("once a subclass of xnp.ndarray exists, ufunc calls pass through a Python "
                   "wrapper whose frame NumPy's floating-point warnings name")


def _name_this_file(got, *context):
    """Each caught warning names this file (while no subclass of xnp.ndarray exists in the
    process: see _SUBCLASS_FRAME)."""
    if not ndarray_class._ACTIVE:
        assert [f for _, _, f in got] == [__file__] * len(got), (*context, got)


def _check_warnings(call, *, calls=3, same_file=True):
    """``call`` on xnp ``calls`` times (the recording, then replays) gives NumPy's values and
    NumPy's warnings (category and text), each naming this file where ``same_file``."""
    _replay.clear()  # (a loop over many signatures would make the cache skip calls)
    want_out, want = _caught(call, np)
    assert want, "NumPy warns nothing: the case tests nothing"
    for i in range(calls):
        got_out, got = _caught(call, xnp)
        _assert_same_values(_host(got_out), _host(want_out))
        assert [(c, m) for c, m, _ in got] == [(c, m) for c, m, _ in want], (i, got, want)
        if same_file:
            _name_this_file(got, i)


def _floats(dt, *values):
    with np.errstate(over="ignore"):
        return np.array(values, np.float64).astype(dt)


def _tiny(dt):
    return np.array([np.finfo(dt).smallest_subnormal, 1.0], dt)


def _underflow_warns(f, x):
    with np.errstate(under="warn"):
        return f(x)


# ------------------------------------------------------------------------------- warning names
# name -> call on the namespace ``m`` with an operand dtype ``dt``: each warns in NumPy
_UNARY = {
    "square": lambda m, dt: m.square(m.asarray(_floats(dt, _BIG[dt], 0.5, np.inf + 0))),
    "reciprocal": lambda m, dt: m.reciprocal(m.asarray(_floats(dt, 0.0, -0.0, 2.0))),
    "rad2deg": lambda m, dt: m.rad2deg(m.asarray(_floats(dt, np.finfo(dt).max, 1.0))),
    "degrees": lambda m, dt: m.degrees(m.asarray(_floats(dt, -np.finfo(dt).max, 1.0))),
    # (deg2rad/radians can only underflow, which warns under errstate(under="warn"); cbrt
    # never warns in NumPy: its NaN and inf pass through)
    "deg2rad": lambda m, dt: _underflow_warns(m.deg2rad, m.asarray(_tiny(dt))),
    "radians": lambda m, dt: _underflow_warns(m.radians, m.asarray(_tiny(dt))),
    "exp2": lambda m, dt: m.exp2(m.asarray(_floats(dt, 2000.0, 1.0))),
    "log1p": lambda m, dt: m.log1p(m.asarray(_floats(dt, -1.0, -2.0, 1.0))),
    "expm1": lambda m, dt: m.expm1(m.asarray(_floats(dt, 2000.0, 1.0))),
    "power of a Python int": lambda m, dt: m.power(m.asarray(_floats(dt, _BIG[dt], 2.0)), 2),
    "power of a Python int 3": lambda m, dt: m.power(m.asarray(_floats(dt, _BIG[dt])), 3),
    "** 2": lambda m, dt: m.asarray(_floats(dt, _BIG[dt], 2.0)) ** 2,
    "** -1": lambda m, dt: m.asarray(_floats(dt, 0.0, 2.0)) ** -1,
    "** 3": lambda m, dt: m.asarray(_floats(dt, _BIG[dt], 2.0)) ** 3,
}
_BINARY = {
    "float_power": lambda m, a, b: m.float_power(a, b),
    "true_divide": lambda m, a, b: m.true_divide(a, b),
    "divide": lambda m, a, b: m.divide(a, b),
    "remainder": lambda m, a, b: m.remainder(a, b),
    "mod": lambda m, a, b: m.mod(a, b),
    "fmod": lambda m, a, b: m.fmod(a, b),
    "divmod": lambda m, a, b: m.divmod(a, b),
    "floor_divide": lambda m, a, b: m.floor_divide(a, b),
    "logaddexp": lambda m, a, b: m.logaddexp(a, b),
    "logaddexp2": lambda m, a, b: m.logaddexp2(a, b),
    "power": lambda m, a, b: m.power(a, b),
    "/": lambda m, a, b: a / b,
    "%": lambda m, a, b: a % b,
    "//": lambda m, a, b: a // b,
}
_FLOAT_DTYPES = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dt", _FLOAT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(_UNARY))
def test_unary_warnings_name_numpys_ufunc_and_the_callers_line(name, dt):
    call = _UNARY[name]
    _check_warnings(lambda m: call(m, dt))


@pytest.mark.parametrize("dt", _FLOAT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(_BINARY))
def test_binary_warnings_name_numpys_ufunc_and_the_callers_line(name, dt):
    # every pair of 0, -1, 2.5, big, inf, -inf, NaN: division by zero, invalid, overflow
    vals = _floats(dt, 0.0, -1.0, 2.5, _BIG[dt], np.inf, -np.inf, np.nan)
    a, b = (np.array(v, vals.dtype) for v in zip(*itertools.product(vals, vals)))
    call = _BINARY[name]
    _check_warnings(lambda m: call(m, m.asarray(a), m.asarray(b)))


@pytest.mark.parametrize("call", [
    lambda m: m.float_power(0.0, -1),  # Python scalars
    lambda m: m.float_power(m.asarray([0.0, -2.0]), m.asarray([-1.0, 0.5])),
    lambda m: m.float_power(m.asarray([10], np.int8), 400),  # computed in float64
    lambda m: m.float_power(m.asarray([0j, 1e300j]), 2),
    lambda m: m.reciprocal([0.0]),  # a list
    lambda m: m.reciprocal(m.asarray([0j, complex(np.inf, np.inf)])),
    lambda m: m.reciprocal(m.asarray([0, 1], np.int8)),  # NumPy's integer loop
    lambda m: m.square(m.asarray([1e300 + 1e300j, complex(np.inf, 0)])),
    lambda m: m.square([1e300]),
    lambda m: m.power(m.asarray([1e300 + 1e300j]), 2),
    lambda m: m.rad2deg(m.asarray([30000], np.int16)) * m.asarray([1e36], np.float32),
    lambda m: m.rad2deg(m.asarray(_floats(ml_dtypes.bfloat16, 3e38, 1.0))),
    lambda m: m.ldexp(m.asarray([1.0, 2.0]), m.asarray([5000, 1], np.int32)),
    lambda m: m.ldexp(m.asarray([1.0], np.float32), 500),
    lambda m: m.true_divide(m.asarray([1, 0]), 0),
    lambda m: m.divmod(m.asarray([1, 0]), 0),
    lambda m: m.asarray([1e300, 0.0]).astype(np.float32) / 0,  # a cast, then a division
], ids=["float_power scalars", "float_power arrays", "float_power int8", "float_power complex",
        "reciprocal list", "reciprocal complex", "reciprocal int8", "square complex",
        "square list", "power complex", "rad2deg int16", "rad2deg bfloat16", "ldexp",
        "ldexp float32", "true_divide int", "divmod int", "cast"])
def test_more_warning_names(call):
    _check_warnings(call)


def _in_place(op):
    def call(m):
        a = m.asarray([_BIG[np.float64], 0.0, -1.0, np.inf])
        if op == "/=":
            a /= 0
        elif op == "*=":
            a *= 1e300
        elif op == "//=":
            a //= 0
        elif op == "%=":
            a %= 0
        elif op == "**= 2":
            a **= 2
        elif op == "**= 3":
            a **= 3
        elif op == "**= -1":
            a **= -1
        elif op == "**= 0.5":
            a **= 0.5
        return a
    return call


@pytest.mark.parametrize("op", ["/=", "*=", "//=", "%=", "**= 2", "**= 3", "**= -1", "**= 0.5"])
def test_in_place_operators_warn_as_numpy(op):
    """The text and category of every call's warnings are NumPy's (``a **= 2`` squares:
    "in square"; ``a /= 0``: "in divide"), each naming the caller's line (the replays are
    NumPy's ufunc with the array as its ``out``, called from no frame of xnp's)."""
    _check_warnings(_in_place(op))


def test_out_argument_warns_as_numpy():
    """``out=`` calls: NumPy's text and category on every call, naming the caller's line
    (the replays are NumPy's ufunc with ``out``)."""
    def call(m):
        a = m.asarray([1e300, 0.0])
        m.square(a, out=a)
        m.reciprocal(a, out=a)
        return a

    _check_warnings(call)


def test_warnings_follow_errstate():
    a = xnp.asarray([1e300, 0.0])
    _replay.clear()
    for _ in range(2):
        with np.errstate(over="raise"):
            with pytest.raises(FloatingPointError, match="overflow encountered in square"):
                xnp.square(a)
        with np.errstate(divide="raise"):
            with pytest.raises(FloatingPointError, match="divide by zero encountered in "
                                                         "reciprocal"):
                xnp.reciprocal(a)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("error")
            xnp.float_power(a, -1)
            xnp.rad2deg(a)


def test_kernels_replay_one_equation():
    """The public name's ufunc is one recorded call (a composite kernel), replayed."""
    x = xnp.asarray([1.0, 2.0])
    for fn, args in ((xnp.square, (x,)), (xnp.reciprocal, (x,)), (xnp.rad2deg, (x,)),
                     (xnp.degrees, (x,)), (xnp.deg2rad, (x,)), (xnp.radians, (x,)),
                     (xnp.float_power, (x, x)), (xnp.power, (x, 3))):
        _replay.clear()
        for _ in range(3):
            fn(*args)
        st = _replay.stats(fn)
        assert st["programs"] == 1 and not st["refused"], (fn, st)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, ml_dtypes.bfloat16,
                                np.complex64, np.complex128, np.int8, np.uint16, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_square_reciprocal_power_values_eagerly_and_under_jit(dt):
    rng = np.random.default_rng(0)
    if np.dtype(dt).kind in "iu":
        x = np.array([0, 1, 2, 3, 100, np.iinfo(dt).max], dt)
    else:
        x = rng.standard_normal(500) * 10.0 ** rng.integers(-3, 4, 500)
        x[:4] = [0.0, -0.0, np.inf, -np.inf]
        x = x.astype(dt)
        if np.dtype(dt).kind == "c":
            z = np.empty(x.shape, dt)
            z.real, z.imag = x.real, np.concatenate([x.real[:4], x.real[4:][::-1]])
            x = z
    fns = {"square": lambda m, v: m.square(v), "power 2": lambda m, v: m.power(v, 2),
           "power 3": lambda m, v: m.power(v, 3), "** 2": lambda m, v: v ** 2}
    if np.dtype(dt).kind != "i" or dt == np.int8:
        fns["reciprocal"] = lambda m, v: m.reciprocal(v)
    with np.errstate(all="ignore"):
        for name, f in fns.items():
            want = f(np, x)
            _assert_same_values(np.asarray(f(xnp, xnp.asarray(x))), want)  # bit for bit
            got = np.asarray(xnp.jit(lambda v, f=f: f(xnp, v))(xnp.asarray(x)))
            assert got.dtype == want.dtype, name
            if want.dtype.kind == "V":  # bfloat16: compared in float32
                got, want = got.astype(np.float32), want.astype(np.float32)
            if want.dtype.kind in "iu":
                np.testing.assert_array_equal(got, want, err_msg=name)
            else:  # (jit: x * x * x rounds twice; float16 subnormals keep few digits)
                rtol = {np.float16: 2e-3, ml_dtypes.bfloat16: 1e-2, np.float32: 1e-6,
                        np.complex64: 1e-6}.get(dt, 1e-13)
                atol = 1e-7 if dt == np.float16 else 0
                np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=name)


def test_float_power_values_eagerly_and_under_jit():
    a = np.array([0.0, -2.0, 2.0, 1e-3, np.inf, 7.5])
    b = np.array([-1.0, 0.5, 1e3, 2.5, -1.0, -2.0])
    # (complex: finite values; jit's complex power of an infinite base is XLA's, README)
    with np.errstate(all="ignore"):
        for x, y in ((a, b), (a.astype(np.float32), b.astype(np.int8)),
                     (a[:4] + 1j * a[:4][::-1], b[:4]), (np.array([10, 2], np.int8), 400)):
            want = np.float_power(x, y)
            y = y if type(y) is int else xnp.asarray(y)
            _assert_same_values(np.asarray(xnp.float_power(xnp.asarray(x), y)), want)
            got = np.asarray(xnp.jit(xnp.float_power)(xnp.asarray(x), y))
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-13)


def test_derivatives_through_the_composites():
    x = np.array([0.5, -1.5, 3.0])
    for f, d in ((xnp.square, 2 * x), (xnp.reciprocal, -1 / x ** 2),
                 (lambda v: xnp.power(v, 3), 3 * x ** 2),
                 (xnp.rad2deg, np.full(3, 180 / np.pi)), (xnp.radians, np.full(3, np.pi / 180)),
                 (lambda v: xnp.float_power(v, 2.0), 2 * x)):
        g = xnp.vmap(xnp.grad(f))(xnp.asarray(x))
        np.testing.assert_allclose(np.asarray(g), d, rtol=1e-12)


# ------------------------------------------------------------------------------- degrees
_ANGLE_FUNCTIONS = ["rad2deg", "degrees", "deg2rad", "radians"]


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, ml_dtypes.bfloat16,
                                ml_dtypes.float8_e4m3fn, np.int8, np.int16, np.int32, np.uint8,
                                np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", _ANGLE_FUNCTIONS)
def test_angle_conversions_are_numpys_bit_for_bit(name, dt):
    """NumPy's factors (float32: ``180.0f / pi_f``, not ``180 / pi`` rounded) and loops
    (float16 and ml_dtypes' computed in float32; ``degrees``/``radians`` of ml_dtypes'
    floats give float32), eagerly and under jit (there not on subnormal floats, which
    XLA's CPU code flushes to zero)."""
    rng = np.random.default_rng(1)
    x64 = rng.standard_normal(4000) * 10.0 ** rng.integers(-8, 12, 4000)
    x64[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e-310, 3.0]
    with np.errstate(all="ignore"):
        x = x64.astype(dt)
        want = getattr(np, name)(x)
    f = getattr(xnp, name)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        eager = np.asarray(f(xnp.asarray(x)))
        jitted = np.asarray(xnp.jit(f)(xnp.asarray(x)))
    assert eager.dtype == want.dtype and jitted.dtype == want.dtype
    np.testing.assert_array_equal(eager.view(np.uint8), want.view(np.uint8))
    w = want.astype(np.float64)
    wide = x.astype(np.float64) if x.dtype.kind in "fV" else np.ones(x.shape)
    subnormal = np.zeros(x.shape, bool)
    for v, d in ((wide, np.dtype(np.float64) if x.dtype == np.float64 else np.dtype(np.float32)),
                 (w, np.dtype(np.float64) if want.dtype == np.float64 else np.dtype(np.float32))):
        subnormal |= (v != 0) & (np.abs(v) < np.finfo(d).tiny)
    ok = ~subnormal
    np.testing.assert_array_equal(jitted[ok].view(np.uint8).reshape(ok.sum(), -1),
                                  want[ok].view(np.uint8).reshape(ok.sum(), -1))


def test_rad2deg_float32_factor():
    x = np.float32(1.0)
    assert xnp.rad2deg(xnp.asarray([x]))[0] == np.rad2deg(x) == np.float32(57.2957764)


# ------------------------------------------------------------------------------- round
_ROUND_INPUTS = [
    np.array([1.5, 0.0, -2.5, 0.125, 1e300, -np.inf, np.nan, 2.675]),
    np.array([1.5, -0.0, 6e4], np.float16),
    np.array([1.5, 0.0, 3.4e38, 1e-30], np.float32),
    np.array([15, -7, 0, 2**62]),
    np.array([15, 255], np.uint8),
    np.array([-128, 127], np.int8),
    np.array([1.5 + 2j, complex(np.inf, 0), 0j]),
]
_DECIMALS = [400, -400, 309, 308, -308, 40, -40, 23, 25, 5, 0, -1]
# C int's bounds: NumPy's own power_of_ten loop takes a second or two here (once for float64
# and int64 inputs)
_EXTREMES = [(k, d) for k in (0, 3) for d in (2**31 - 1, -2**31)]


@pytest.mark.parametrize("k, decimals", [
    pytest.param(k, d, id=f"{_ROUND_INPUTS[k].dtype}-{d}")
    for k, d in [(k, d) for k in range(len(_ROUND_INPUTS)) for d in _DECIMALS] + _EXTREMES])
def test_round_of_any_decimals_is_numpys(k, decimals):
    """NumPy's scale ``10 ** |decimals|`` (its power_of_ten: inf from 309 on, no
    OverflowError): values, dtypes, warnings (text and category; NumPy's name its
    fromnumeric.py, xnp's the caller's line), on the first call and on replays."""
    x = _ROUND_INPUTS[k]
    _replay.clear()
    want_out, want = _caught(lambda m: m.round(x if m is np else m.asarray(x), decimals), np)
    for _ in range(3):
        got_out, got = _caught(lambda m: m.round(m.asarray(x), decimals), xnp)
        _assert_same_values(np.asarray(got_out), want_out)
        assert [(c, m) for c, m, _ in got] == [(c, m) for c, m, _ in want], (got, want)
        _name_this_file(got)
    for fn in (xnp.around, xnp.jit(lambda v: xnp.round(v, decimals))):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = np.asarray(fn(xnp.asarray(x), decimals) if fn is xnp.around else fn(
                xnp.asarray(x)))
        np.testing.assert_array_equal(got, want_out)
        assert got.dtype == want_out.dtype


def test_round_decimals_errors_are_numpys():
    x = np.array([1.5, 2.5])
    for d in (2**31, -2**31 - 1, 2**63, -2**70):
        with pytest.raises(OverflowError) as want:
            np.round(x, d)
        with pytest.raises(OverflowError) as got:
            xnp.round(xnp.asarray(x), d)
        assert str(got.value) == str(want.value)
    b = np.array([True, False])
    for d in (1, -1, 400):
        with pytest.raises(TypeError) as want:
            np.round(b, d)
        for call in (lambda: xnp.round(xnp.asarray(b), d),
                     lambda: xnp.jit(lambda v: xnp.round(v, d))(xnp.asarray(b))):
            with pytest.raises(TypeError) as got:
                call()
            assert type(got.value) is type(want.value)  # NumPy's UFuncTypeError subclass
            assert str(got.value) == str(want.value)
    _assert_same_values(np.asarray(xnp.round(xnp.asarray(b), 0)), np.round(b, 0))


# ------------------------------------------------------------------------------- complex
_C99 = [complex(math.inf, 0.0), complex(math.inf, -0.0), complex(-0.0, 0.0),
        complex(math.nan, 0.0), complex(-math.inf, math.nan), complex(math.inf, math.inf),
        complex(0.0, math.inf), complex(-math.inf, 2.5), complex(math.inf, 2.5), 0j,
        complex(-1.0, 0.0), complex(0.0, math.nan)]


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
@pytest.mark.parametrize("name", ["expm1", "reciprocal", "exp", "exp2", "log1p", "log", "tanh",
                                  "sqrt", "square", "sinh", "cosh", "arctanh"])
def test_complex_special_points_are_numpys(name, dt):
    """Each C99 special point alone: NumPy's value (both parts, zeros' signs) and its
    warnings eagerly (``expm1(inf + 0j)`` is ``inf + nanj`` with "invalid value encountered
    in expm1"); under jit NumPy's value."""
    f = getattr(xnp, name)
    for z in _C99:
        x = np.array([z], dt)
        _replay.clear()
        want_out, want = _caught(lambda m: getattr(m, name)(x if m is np else m.asarray(x)), np)
        for _ in range(2):
            got_out, got = _caught(lambda m: getattr(m, name)(m.asarray(x)), xnp)
            _assert_same_values(np.asarray(got_out), want_out)
            assert [(c, m) for c, m, _ in got] == [(c, m) for c, m, _ in want], (z, got, want)
            _name_this_file(got)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jitted = np.asarray(xnp.jit(f)(xnp.asarray(x)))
        for g, w in ((jitted.real, want_out.real), (jitted.imag, want_out.imag)):
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{name}({z})")
            ok = ~np.isnan(w)
            np.testing.assert_allclose(g[ok], w[ok], rtol=1e-6, err_msg=f"{name}({z})")
            zero = ok & (w == 0)
            np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]),
                                          err_msg=f"{name}({z})")


def test_expm1_example():
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        r = complex(xnp.expm1(xnp.asarray([complex(math.inf, 0.0)]))[0])
    assert r.real == math.inf and math.isnan(r.imag)
    assert [(w.category, str(w.message)) for w in got] == [
        (RuntimeWarning, "invalid value encountered in expm1")]



def _fresh_process(subclass: bool) -> None:
    """Warnings of a few calls, first call and replays, checked in a new interpreter (no
    subclass of xnp.ndarray exists there unless ``subclass``)."""
    code = (
        "import warnings, numpy as np, xnp\n"
        + ("class Sub(xnp.ndarray):\n    pass\n" if subclass else "")
        + "warnings.simplefilter('always')\n"
        "for i in range(3):\n"
        "    with warnings.catch_warnings(record=True) as w:\n"
        "        warnings.simplefilter('always')\n"
        "        xnp.square(xnp.asarray([1e300])); xnp.reciprocal(xnp.asarray([0.0]))\n"
        "        xnp.divide(xnp.asarray([1.0]), 0.0)\n"
        "    assert [str(x.message).rsplit(' ', 1)[-1] for x in w] == "
        "['square', 'reciprocal', 'divide'], w\n"
        "    assert {x.filename for x in w} == {'<string>'}, [x.filename for x in w]\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]


def test_warnings_name_the_callers_line_in_a_fresh_process():
    _fresh_process(subclass=False)


@pytest.mark.xfail(strict=True, reason=_SUBCLASS_FRAME)
def test_warnings_name_the_callers_line_once_a_subclass_exists():
    _fresh_process(subclass=True)
