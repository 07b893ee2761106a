"""A floating-point error raised by NumPy's settings (``numpy.errstate`` 'raise', or its
``RuntimeWarning`` under a warnings filter 'error') comes after the ufunc wrote ``out=`` (where
``where=`` holds) and after an in-place operator wrote its target, as NumPy's loops write
first and check the error flags after: the written values, the exception and the warnings
issued are NumPy's, also for calls the eager dispatch cache replays."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp


def _outcome(xp, body):
    """What ``body(xp)`` does: ``(exception class name or None, its message, the warnings
    issued, the values body returns after the call, raised or not)."""
    held = {}
    with warnings.catch_warnings(record=True) as issued:
        warnings.simplefilter("always")
        try:
            body(xp, held)
            error = None
        except (FloatingPointError, RuntimeWarning) as e:
            error = e
    values = [np.asarray(v).tolist() for v in held["out"]]
    return (None if error is None else type(error).__name__, str(error),
            [(w.category.__name__, str(w.message)) for w in issued], values)


def same_as_numpy(body, repeat=3):
    """``body`` run on NumPy and on xnp (``repeat`` times: later calls are replays) does the
    same thing."""
    want = _outcome(np, body)
    for _ in range(repeat):
        got = _outcome(xnp, body)
        np.testing.assert_equal(got, want)
    return want


def _f(xp, values, dtype=np.float64):
    return xp.asarray(values, dtype=dtype)


# --------------------------------------------------------------------------- ufunc out=

UFUNC_CASES = {
    "divide by zero, out=": (
        {"divide": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=o), 2),
    "out positional": (
        {"divide": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), o), 2),
    "out=(o,)": (
        {"divide": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=(o,)), 2),
    "Python scalar operand": (
        {"divide": "raise"}, lambda xp, o: xp.divide(1.0, _f(xp, [0.0, 4.0]), out=o), 2),
    "log of zero and negative": (
        {"all": "raise"}, lambda xp, o: xp.log(_f(xp, [0.0, -1.0, 1.0]), out=o), 3),
    "warn divide, raise invalid": (
        {"divide": "warn", "invalid": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 0.0, 2.0]), _f(xp, [0.0, 0.0, 1.0]), out=o), 3),
    "overflow": (
        {"over": "raise"},
        lambda xp, o: xp.power(_f(xp, [10.0, 2.0]), _f(xp, [400.0, 3.0]), out=o), 2),
    "floor_divide": (
        {"all": "raise"},
        lambda xp, o: xp.floor_divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=o), 2),
    "where=": (
        {"divide": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 2.0, 3.0]), _f(xp, [0.0, 1.0, 0.0]), out=o,
                                where=xp.asarray([True, True, False])), 3),
    "where= leaves the error out": (
        {"divide": "raise"},
        lambda xp, o: xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=o,
                                where=xp.asarray([False, True])), 2),
    "arctanh where=": (
        {"all": "raise"},
        lambda xp, o: xp.arctanh(_f(xp, [1.0, 0.5, 2.0]), out=o,
                                 where=xp.asarray([True, True, False])), 3),
}


@pytest.mark.parametrize("case", list(UFUNC_CASES))
def test_ufunc_out_is_written_before_the_error(case):
    settings, call, n = UFUNC_CASES[case]

    def body(xp, held):
        o = held["out"] = [xp.full(n, -1.0)]
        with np.errstate(**settings):
            call(xp, o[0])

    same_as_numpy(body)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_ufunc_out_of_another_dtype_is_written_before_the_error(dtype):
    def body(xp, held):
        o = xp.zeros(2, dtype=dtype)
        held["out"] = [o]
        with np.errstate(divide="raise"):
            xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=o)

    assert same_as_numpy(body)[0] == "FloatingPointError"


def test_ufunc_out_aliasing_an_input():
    def body(xp, held):
        a = _f(xp, [1.0, 2.0])
        held["out"] = [a]
        with np.errstate(divide="raise"):
            xp.divide(a, _f(xp, [0.0, 1.0]), out=a)

    same_as_numpy(body)


def test_two_output_ufunc_writes_both_outs():
    def body(xp, held):
        q, r = xp.zeros(2), xp.zeros(2)
        held["out"] = [q, r]
        with np.errstate(all="raise"):
            xp.divmod(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=(q, r))

    same_as_numpy(body)


def test_ufunc_out_under_warnings_as_errors():
    def body(xp, held):
        o = xp.zeros(2)
        held["out"] = [o]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            xp.sqrt(_f(xp, [-1.0, 4.0]), out=o)

    assert same_as_numpy(body)[0] == "RuntimeWarning"


def test_ufunc_out_errstate_call_is_unchanged():
    calls = []

    def body(xp, held):
        o = xp.zeros(2)
        held["out"] = [o]
        old = np.seterrcall(lambda kind, flag: calls.append(kind))
        try:
            with np.errstate(divide="call"):
                xp.divide(_f(xp, [1.0, 2.0]), _f(xp, [0.0, 1.0]), out=o)
        finally:
            np.seterrcall(old)

    assert same_as_numpy(body, repeat=1)[0] is None
    assert calls == ["divide by zero", "divide by zero"]


# --------------------------------------------------------------------------- a <op>= b

INPLACE_CASES = {
    "/= by zero": ({"divide": "raise"}, [1.0, 2.0], lambda a, xp: a.__itruediv__(
        _f(xp, [0.0, 1.0]))),
    "/= Python zero": ({"divide": "raise"}, [1.0, 2.0], lambda a, xp: a.__itruediv__(0.0)),
    "*= overflow": ({"over": "raise"}, [1e300, 2.0], lambda a, xp: a.__imul__(1e10)),
    "-= inf - inf": ({"invalid": "raise"}, [np.inf, 2.0], lambda a, xp: a.__isub__(
        _f(xp, [np.inf, 1.0]))),
    "**= overflow": ({"over": "raise"}, [10.0, 2.0], lambda a, xp: a.__ipow__(
        _f(xp, [400.0, 2.0]))),
    "//= integer zero": ({"divide": "raise"}, np.array([1, 2]), lambda a, xp: a.__ifloordiv__(
        xp.asarray([0, 1]))),
    "%= integer zero": ({"divide": "raise"}, np.array([5, 7]), lambda a, xp: a.__imod__(0)),
    "/= broadcast": ({"divide": "raise"}, [[1.0, 2.0], [3.0, 4.0]], lambda a, xp: a.__itruediv__(
        _f(xp, [0.0, 1.0]))),
}


@pytest.mark.parametrize("case", list(INPLACE_CASES))
def test_inplace_operator_writes_before_the_error(case):
    settings, start, update = INPLACE_CASES[case]

    def body(xp, held):
        a = xp.asarray(start)
        held["out"] = [a]
        with np.errstate(**settings):
            update(a, xp)

    assert same_as_numpy(body)[0] == "FloatingPointError"


def test_inplace_operator_statement_writes_before_the_error():
    def body(xp, held):
        a = _f(xp, [1.0, 2.0, 3.0])
        held["out"] = [a]
        with np.errstate(divide="raise"):
            a /= _f(xp, [0.0, 1.0, 2.0])

    same_as_numpy(body)


def test_inplace_operator_under_warnings_as_errors():
    def body(xp, held):
        a = _f(xp, [1.0, 2.0])
        held["out"] = [a]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            a /= _f(xp, [0.0, 1.0])

    assert same_as_numpy(body)[0] == "RuntimeWarning"


def test_calls_without_error_after_one_with_error():
    """The eager dispatch cache keeps serving the call: with and without the error."""
    for divisor in ([0.0, 1.0], [2.0, 1.0], [0.0, 1.0], [2.0, 1.0]):
        def body(xp, held, divisor=divisor):
            a, o = _f(xp, [1.0, 2.0]), xp.zeros(2)
            held["out"] = [a, o]
            with np.errstate(divide="raise"):
                try:
                    xp.divide(a, _f(xp, divisor), out=o)
                finally:
                    a /= _f(xp, divisor)

        same_as_numpy(body, repeat=2)


def test_errors_under_jit_are_not_checked():
    """Compiled code checks no floating-point error: out= is written, nothing raised."""
    @xnp.jit
    def f(a, b, o):
        xnp.divide(a, b, out=o)
        return o

    with np.errstate(divide="raise"):
        o = f(_f(xnp, [1.0, 2.0]), _f(xnp, [0.0, 1.0]), xnp.zeros(2))
    np.testing.assert_array_equal(np.asarray(o), [np.inf, 2.0])
