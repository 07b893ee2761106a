"""Ufunc and operator calls with Python float or int operands whose values change every
call (a loop over a parameter) replay one program for every value
(``_replay._ScalarGeneric``): the scalar is NumPy's weak scalar, which the program takes as
a weak 0-d float64 (int64) input.

Each call gives NumPy's result (values bit for bit, dtype, warnings, errors) whatever the
value, also values the program was not learnt from (overflow to inf in a narrow dtype,
NaN, -0.0, infinities, ints out of a dtype's range, negative exponents and shifts), and the
call that learns the program issues its warnings once. Eager only: the dispatch cache
serves eager calls; under ``jit`` a Python scalar is a weak scalar of the trace, which
nothing here changes.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import python_frames, run_threads
from xnp import ndarray_class
from xnp.numpy_api import _replay

VALUES = [0.5, 1.5, -2.25, 3.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e-320, 7.0]
UFUNCS = ["hypot", "arctan2", "logaddexp", "fmod", "copysign", "nextafter", "heaviside",
          "fmax", "float_power", "power", "remainder", "floor_divide", "ldexp", "logical_and",
          "logical_xor", "less"]
ERRSTATES = [{}, {"under": "warn"}, {"all": "raise"}]


def _call(m, name, x, v, first):
    fn = getattr(m, name)
    if name == "ldexp":  # (its second operand is an integer)
        return fn(v, x) if first else None
    return fn(x, v) if first else fn(v, x)


def _outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as e:  # noqa: BLE001  (compared with NumPy's)
            return type(e), [str(w.message) for w in caught]
    return out, [str(w.message) for w in caught]


@pytest.mark.parametrize("errstate", ERRSTATES, ids=["default", "under warn", "raise"])
@pytest.mark.parametrize("first", [True, False], ids=["array first", "float first"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32, np.complex64])
@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_of_ever_new_floats_is_numpys(name, dtype, first, errstate):
    """Beside a narrow float (float32, float16, complex64) NumPy converts the Python float
    itself (no underflow signalled; a logical ufunc tests its truth): those calls keep
    their exact keys, and must match NumPy all the same."""
    if name == "ldexp" and (not first or np.dtype(dtype).kind != "i"):
        pytest.skip("ldexp takes the float first and an integer array")
    if np.dtype(dtype).kind == "c" and name not in ("logical_and", "logical_xor", "power"):
        pytest.skip("NumPy has no complex loop for it (or no order of complex numbers)")
    _replay.clear()
    a = np.array([-3, -1, 0, 2, 5], dtype) if np.dtype(dtype).kind == "i" else \
        np.array([-2.5, -0.0, 0.0, 1.5, np.inf], dtype)
    x = xnp.asarray(a)
    for v in VALUES + [1e-8, 5e-324, 1e-300]:
        with np.errstate(**errstate):
            want, want_warnings = _outcome(lambda: _call(np, name, a, v, first))
            got, got_warnings = _outcome(lambda: _call(xnp, name, x, v, first))
        if isinstance(want, type):
            assert got is want, (name, v, got)
        else:
            got = np.asarray(got)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (name, v, got)
        assert got_warnings == want_warnings, (name, v)


# (each class of ints, ``_replay._int_class``, at its boundaries, and beyond int64)
INTS = [1, 2, -3, 0, 7, 1, -1, 31, 63, 64, 127, 128, -128, -129, 255, 256, 65504, 65505,
        2**31, -(2**40), 2**53, -(2**53), 2**53 + 1, -(2**53) - 1, 2**63 - 1, -(2**63),
        2**63, 2**64 + 5, -(2**70), 5, -2, 100]
INT_UFUNCS = ["power", "left_shift", "right_shift", "floor_divide", "remainder", "fmod",
              "gcd", "lcm", "ldexp", "true_divide", "arctan2", "copysign", "heaviside",
              "bitwise_and", "maximum", "less", "equal", "float_power", "add"]
INT_DTYPES = [np.float64, np.int64, np.bool_, np.int32, np.uint64, np.uint8, np.float32,
              np.complex128, np.int8, np.float16, np.complex64]


def _data(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([True, False, True])
    if dtype.kind in "iu":
        return np.array([0, 1, 3, 7] + ([-5] if dtype.kind == "i" else []), dtype)
    return np.array([-2.5, -0.0, 0.0, 1.5, np.inf], dtype)


def _compare_outcomes(name, v, want, want_warnings, got, got_warnings):
    if isinstance(want, type):  # (NumPy's no-loop error is a TypeError, xnp's a TypeError)
        assert got is want or (want.__mro__[1:3] == (np._core._exceptions.UFuncTypeError,
                                                     TypeError) and got is TypeError), (name, v, got)
    else:
        for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), (name, v, g, w)
    assert got_warnings == want_warnings, (name, v)


@pytest.mark.parametrize("first", [True, False], ids=["array first", "int first"])
@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("name", INT_UFUNCS)
def test_ufunc_of_ever_new_ints_is_numpys(name, dtype, first):
    """Beside int64, bool, float64 and complex128 a Python int in int64's range is an int64
    input; beside narrower integers, uint64 and narrow floats only within a range where
    NumPy's conversion is the cast's (``_replay._int_class``: no range error, no rounding
    twice); elsewhere, and beyond int64, it keeps its exact key. Each value gives NumPy's
    result, error or warnings."""
    _replay.clear()
    a = _data(dtype)
    x = xnp.asarray(a)
    fn_np, fn_x = getattr(np, name), getattr(xnp, name)
    for v in INTS:
        with np.errstate(all="warn"):
            call_np = (lambda: fn_np(a, v)) if first else (lambda: fn_np(v, a))
            call_x = (lambda: fn_x(x, v)) if first else (lambda: fn_x(v, x))
            want, want_warnings = _outcome(call_np)
            got, got_warnings = _outcome(call_x)
        _compare_outcomes(name, v, want, want_warnings, got, got_warnings)


OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
             "and_", "or_", "xor", "eq", "ne", "lt", "le", "gt", "ge"]


@pytest.mark.parametrize("kind", [int, float])
@pytest.mark.parametrize("first", [True, False], ids=["array first", "scalar first"])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_, np.int16, np.float32])
@pytest.mark.parametrize("name", OPERATORS + ["divmod"])
def test_operators_of_ever_new_scalars_are_numpys(name, dtype, first, kind):
    """``x ** v``, ``v // x``, ``x << v``, ...: the operators are their ufuncs, so a Python
    scalar operand is generic as in the ufunc's call."""
    _replay.clear()
    a = _data(dtype)
    x = xnp.asarray(a)
    op = divmod if name == "divmod" else getattr(operator, name)
    values = INTS if kind is int else VALUES + [1e-8, 5e-324, 1e-300, 2.0**70]
    for v in values:
        with np.errstate(all="warn"):
            want, want_warnings = _outcome(lambda: op(a, v) if first else op(v, a))
            got, got_warnings = _outcome(lambda: op(x, v) if first else op(v, x))
        if isinstance(want, np.bool_ | bool):  # (a comparison NumPy answers for the array)
            want = np.asarray(want)
        _compare_outcomes(name, v, want, want_warnings, got, got_warnings)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint8,
                                   np.bool_, np.float16])
def test_clip_of_ever_new_bounds_is_numpys(dtype):
    """``numpy.clip`` is the ufunc ``clip`` of its three operands: its Python bounds are
    generic too (a NaN, an inverted or out-of-range bound included)."""
    _replay.clear()
    a = _data(dtype)
    x = xnp.asarray(a)
    bounds = [(0, 1.5), (0, 2.5), (-1, 3), (-2, 4), (0.25, 0.75), (np.nan, 1.0), (5, 1),
              (-300, 300), (0, 2**40), (-np.inf, 3.5), (1, 2), (0, 100), (2.0, 3.0)]
    for lo, hi in bounds:
        with np.errstate(all="warn"):
            want, want_warnings = _outcome(lambda: np.clip(a, lo, hi))
            got, got_warnings = _outcome(lambda: xnp.clip(x, lo, hi))
        _compare_outcomes("clip", (lo, hi), want, want_warnings, got, got_warnings)


def test_negative_int_exponents_raise_on_every_generic_replay():
    """``power(int64 array, k)``: the negative exponent's ``ValueError`` is a check of the
    replayed program, whatever value it was learnt from."""
    _replay.clear()
    x = xnp.asarray(np.arange(4))
    for k in (2, 3, 4):
        np.testing.assert_array_equal(np.asarray(x ** k), np.arange(4) ** k)
    assert _replay.stats(type(x).__pow__)["programs"] >= 2
    for k in (-1, -7):
        with pytest.raises(ValueError, match="Integers to negative integer powers"):
            x ** k
    np.testing.assert_array_equal(np.asarray(x ** 5), np.arange(4) ** 5)


def test_one_program_serves_every_value():
    _replay.clear()
    x = xnp.asarray(np.linspace(0.0, 1.0, 7))
    for i in range(40):
        xnp.hypot(x, 0.25 * i + 0.5)
    st = _replay.stats(xnp.hypot)
    # the first value's own program and the program of any value; no refusal
    assert st == {"programs": 2, "refused": []}, st
    xi = xnp.asarray(np.arange(7))
    for i in range(40):
        xnp.left_shift(xi, i % 60)
        xi ** (i % 5 + 3)  # (2: its exact key, a square)
        xi % (i + 1)
    for fn in (xnp.left_shift, type(xi).__pow__, type(xi).__mod__):
        assert _replay.stats(fn) == {"programs": 2, "refused": []}, fn


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float16])
def test_narrow_float_arrays_share_a_program_per_class_of_float(dtype):
    """Beside float32/complex64 (float16) arrays a float that converts without overflow or
    underflow is used as its float64 array: one program for every such value (a class of
    its own per magnitude range), and NumPy's warnings for the others, which keep their
    exact keys."""
    _replay.clear()
    a = np.array([0.5, -1.25, 3.0], dtype)
    x = xnp.asarray(a)
    # class 0 (float16's range), 1 (float32's), 2 (neither) and back, twice
    values = [0.5 + 0.25 * i for i in range(12)] + [1e-6, 2e-6, 1e30, 3e30, 1e-300, 1e300,
                                                    4.5, 5.5, 1e-7, 3e-6, 2e38, 7e300]
    for v in values * 2:
        for call in (lambda m, y: m.multiply(y, v), lambda m, y: m.power(y, v),
                     lambda m, y: m.fmod(v, y) if dtype != np.complex64 else m.add(v, y)):
            with np.errstate(all="warn"):
                want, want_warnings = _outcome(lambda: call(np, a))
                got, got_warnings = _outcome(lambda: call(xnp, x))
            _compare_outcomes("call", v, want, want_warnings, got, got_warnings)
    st = _replay.stats(xnp.power)
    assert not st["refused"], st
    # the exact keys of at most a few values before each class's program is learnt, and
    # those of the floats whose conversion signals (1e-300, 1e300, 7e300; 1e30, 2e38 and
    # 1e-6 beside float16)
    assert st["programs"] <= 12, st


def test_floating_point_errors_follow_the_callers_settings_on_generic_replays():
    _replay.clear()
    x = xnp.asarray(np.ones(3, np.float32))
    for v in (0.5, 1.5, 2.5):
        xnp.hypot(x, v)
    with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
        xnp.hypot(x, 1e300)  # (the float's cast into float32, as NumPy's)
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(np.asarray(xnp.hypot(x, 1e300))).all()


def test_with_the_xla_eager_backend_floats_keep_their_exact_keys():
    """The XLA eager backend flushes subnormals and issues no floating-point warnings,
    where NumPy's conversion of the Python float keeps and reports them."""
    _replay.clear()
    a = np.array([1.0, -2.0])
    with xnp.config.override(eager_backend="xla"):
        x = xnp.asarray(a)
        for v in (0.5, 1.5, 1e-320, 2.5):
            np.testing.assert_array_equal(np.asarray(xnp.copysign(v, x)), np.copysign(v, a))
        assert _replay.stats(xnp.copysign)["programs"] <= 4


def test_a_positional_out_keeps_the_exact_path():
    """``hypot(x, v, x)`` writes into ``x``: never run twice to learn a program."""
    _replay.clear()
    a = np.arange(3.0)
    x = xnp.asarray(a.copy())
    for v in (0.5, 1.5, 2.5, 3.5):
        xnp.hypot(x, v, x)
        np.hypot(a, v, a)
        np.testing.assert_array_equal(np.asarray(x), a)


def test_generic_replays_in_threads_are_numpys():
    _replay.clear()
    a = np.linspace(-1.0, 1.0, 5)
    x = xnp.asarray(a)

    bad = []

    def work(k):
        for i in range(50):
            v = 0.37 * i - k
            if np.asarray(xnp.arctan2(x, v)).tobytes() != np.arctan2(a, v).tobytes():
                bad.append((k, v))

    run_threads(work, range(4))
    assert not bad


@pytest.mark.parametrize("call, value", [
    (xnp.hypot, 7.25), (xnp.left_shift, 9), (operator.pow, 3), (operator.pow, 2.5),
    (operator.floordiv, -7)])
def test_generic_replays_run_no_python_frame(no_check, call, value):
    """The program for any float or int is found from C (the key of the arguments with each
    float 0.0 and int 0) and its scalar input made there: no Python frame of xnp."""
    _replay.clear()
    a = np.arange(1, 6) if type(value) is int else np.linspace(0.0, 1.0, 5)
    x = xnp.asarray(a)
    for i in range(4):  # (values of the class of ``value``: one program each class)
        call(x, type(value)((1 + i) * (1 if value > 0 else -1)))
    out, frames = python_frames(call, x, value)
    np.testing.assert_array_equal(np.asarray(out), call(a, value))
    # (a user subclass of xnp.ndarray, which other tests define, makes every ufunc object
    # wrap its results: xnp/ndarray_class.py's frames, not the replay's; an operator
    # called from Python is entered through its method)
    wrapping = {"wrapped", "_wrap", "_subclass_operands", "<listcomp>"} \
        if ndarray_class._ACTIVE else set()
    assert [f for f in frames if f not in wrapping] == [], frames


def test_generic_programs_are_bounded_and_not_kept_across_an_option_change(monkeypatch):
    """At most MAX_SIGNATURES generic programs per ufunc (a loop over ever-new shapes keeps
    no more), and one learnt while an option changes (enable_x64: the caches are cleared)
    is dropped: the next call is NumPy's under the new option."""
    _replay.clear()
    src = np.linspace(0.0, 1.0, _replay.MAX_SIGNATURES + 20)
    for n in range(1, _replay.MAX_SIGNATURES + 20):
        xn = xnp.asarray(src[:n])
        xnp.arctan2(xn, 0.5)
        xnp.arctan2(xn, 1.5)
    # (the exact keys and the generic ones: at most MAX_SIGNATURES each)
    assert _replay.stats(xnp.arctan2)["programs"] <= 2 * _replay.MAX_SIGNATURES

    _replay.clear()
    x = xnp.asarray(np.arange(3, dtype=np.int32))
    learn = _replay._ScalarGeneric._learn

    def learn_then_change(self, *args):
        out = learn(self, *args)
        xnp.config.update("enable_x64", False)  # (clears every cache)
        return out

    monkeypatch.setattr(_replay._ScalarGeneric, "_learn", learn_then_change)
    try:
        xnp.add(x, 0.5)
        xnp.add(x, 1.5)  # learns, and the option changes meanwhile
        assert np.asarray(xnp.add(x, 2.5)).dtype == np.float32  # (x64 off: float32)
    finally:
        xnp.config.update("enable_x64", True)


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ufuncs_of_a_signalling_nan_replay_as_their_full_path(name):
    """A logical ufunc tests a Python float's truth itself (no loop sees the float), so
    its calls keep their exact keys: a signalling NaN (bits 0x7ff0000000000001), whose
    cast in a loop signals 'invalid', gives on every call what the full path gives."""
    snan = np.frombuffer(np.array([0x7FF0000000000001], np.uint64).tobytes(), np.float64)[0]
    snan = float(snan)
    x = xnp.asarray(np.array([1.0, 0.0, 2.0]))

    def run():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = np.asarray(getattr(xnp, name)(x, snan))
        return out.tolist(), [str(w.message) for w in caught]

    with xnp.config.override(eager_dispatch_cache=False):
        want = run()
    _replay.clear()
    for v in (0.5, 1.5, 2.5):
        getattr(xnp, name)(x, v)
    for _ in range(2):
        assert run() == want


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float16, np.float64])
@pytest.mark.parametrize("name", ["power", "hypot", "maximum", "remainder", "clip"])
def test_a_signalling_nan_after_a_learnt_program_is_numpys(dtype, name):
    """NaNs are a class of their own: beside a narrow float NumPy converts a signalling NaN
    Python float without the 'invalid' signal its cast from a float64 input would give."""
    if np.dtype(dtype).kind == "c" and name in ("hypot", "remainder"):
        pytest.skip("NumPy has no complex loop for it")
    snan = float(np.frombuffer(np.array([0x7FF0000000000001], np.uint64).tobytes(),
                               np.float64)[0])
    _replay.clear()
    a = np.array([1.0, 2.5, -0.5], dtype)
    x = xnp.asarray(a)

    def call(m, y, v):
        return m.clip(y, v, 2.0) if name == "clip" else getattr(m, name)(y, v)

    for v in (1.5, 2.5, 0.75, snan, float("nan"), snan):
        for errstate in ({}, {"all": "raise"}):
            with np.errstate(**errstate):
                want, want_warnings = _outcome(lambda: call(np, a, v))
                got, got_warnings = _outcome(lambda: call(xnp, x, v))
            _compare_outcomes(name, v, want, want_warnings, got, got_warnings)
