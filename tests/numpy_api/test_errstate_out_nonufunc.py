"""Floating-point errors raised by NumPy's settings (``numpy.errstate`` 'raise', or the
``RuntimeWarning`` under a warnings filter 'error') in calls that write into an argument and
are not elementwise ufunc calls: ``out=`` of ``matmul``, ``vecdot``, ``dot``, ``sum``,
``prod``, ``mean``, ``cumsum``, ``cumprod``, ``ufunc.reduce``/``accumulate``/``reduceat``,
``ufunc.at``, ``a @= b``, and the casts of in-place operators and ufunc ``out=``. What is
written, the exception's class and message and the warnings are NumPy's own on the same
inputs, on the first call and on the calls the eager dispatch cache may replay
(``same_as_numpy`` runs xnp three times)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.numpy_api.test_errstate_out import same_as_numpy

BIG = [[1e200, 1.0], [1.0, 1e200]]


def _f(xp, values, dtype=np.float64):
    return xp.asarray(values, dtype=dtype)


def _out(xp, shape, dtype=np.float64):
    return xp.full(shape, -1.0, dtype=dtype)


def _overflowing_sums(xp):
    return _f(xp, [[1e308, 4.0], [1e308, 2.0]])


# Each case: (the call's arrays to check afterwards, made by `setup(xp)`; the call).
CASES = {
    # gufuncs and products: the whole result written, then the error
    "matmul out=": (lambda xp: [_f(xp, BIG), _out(xp, (2, 2))],
                    lambda xp, a, o: xp.matmul(a, a, out=o)),
    "matmul out= positional": (lambda xp: [_f(xp, BIG), _out(xp, (2, 2))],
                               lambda xp, a, o: xp.matmul(a, a, o)),
    "matmul stacked out=": (lambda xp: [_f(xp, [BIG, BIG]), _out(xp, (2, 2, 2))],
                            lambda xp, a, o: xp.matmul(a, a, out=o)),
    "matmul out= of float16": (lambda xp: [_f(xp, [[1e5, 1.0]]), _out(xp, (1, 1), np.float16)],
                               lambda xp, a, o: xp.matmul(a, a.T, out=o)),
    "matmul out= sharing an input": (lambda xp: [_f(xp, BIG)],
                                     lambda xp, a: xp.matmul(a, a, out=a)),
    "vecdot out=": (lambda xp: [_f(xp, BIG), _out(xp, 2)],
                    lambda xp, a, o: xp.vecdot(a, a, out=o)),
    "vecdot out= sharing an input": (lambda xp: [_f(xp, BIG)],
                                     lambda xp, a: xp.vecdot(a, a, out=a[0])),
    "dot out=": (lambda xp: [_f(xp, BIG), _out(xp, (2, 2))],
                 lambda xp, a, o: xp.dot(a, a, out=o)),
    "outer out=": (lambda xp: [_f(xp, [1e200, 1.0]), _out(xp, (2, 2))],
                   lambda xp, a, o: xp.outer(a, a, out=o)),
    "matvec out=": (lambda xp: [_f(xp, BIG), _out(xp, 2)],
                    lambda xp, a, o: xp.matvec(a, a[0], out=o)),
    "vecmat out=": (lambda xp: [_f(xp, BIG), _out(xp, 2)],
                    lambda xp, a, o: xp.vecmat(a[0], a, out=o)),
    "matmul axes= out=": (lambda xp: [_f(xp, BIG), _out(xp, (2, 2))],
                          lambda xp, a, o: xp.matmul(a, a, out=o, axes=[(0, 1)] * 3)),
    "vecdot axis= out=": (lambda xp: [_f(xp, BIG), _out(xp, 2)],
                          lambda xp, a, o: xp.vecdot(a, a, out=o, axis=0)),
    # reductions
    "sum out= 0-d": (lambda xp: [_f(xp, [1e308, 1e308, 1.0]), _out(xp, ())],
                     lambda xp, a, o: xp.sum(a, out=o)),
    "sum axis out=": (lambda xp: [_overflowing_sums(xp), _out(xp, 2)],
                      lambda xp, a, o: xp.sum(a, axis=0, out=o)),
    "sum into a NumPy array": (lambda xp: [_overflowing_sums(xp), np.full(2, -1.0)],
                               lambda xp, a, o: xp.sum(a, axis=0, out=o)),
    "sum keepdims out=": (lambda xp: [_overflowing_sums(xp), _out(xp, (1, 2))],
                          lambda xp, a, o: xp.sum(a, axis=0, out=o, keepdims=True)),
    "sum method out=": (lambda xp: [_overflowing_sums(xp), _out(xp, 2)],
                        lambda xp, a, o: a.sum(axis=0, out=o)),
    "sum out= of float16": (lambda xp: [_f(xp, [[6e4, 1.0], [6e4, 2.0]]), _out(xp, 2, np.float16)],
                            lambda xp, a, o: xp.sum(a, axis=0, out=o)),
    "sum out= sharing the input": (lambda xp: [_overflowing_sums(xp)],
                                   lambda xp, a: xp.sum(a, axis=0, out=a[0])),
    "prod out=": (lambda xp: [_f(xp, [[1e200, 1.0], [1e200, 3.0]]), _out(xp, 2)],
                  lambda xp, a, o: xp.prod(a, axis=0, out=o)),
    "mean out= keeps NumPy's sum": (lambda xp: [_overflowing_sums(xp), _out(xp, 2)],
                                    lambda xp, a, o: xp.mean(a, axis=0, out=o)),
    "mean out= 0-d": (lambda xp: [_f(xp, [1e308, 1e308, 1.0]), _out(xp, ())],
                      lambda xp, a, o: xp.mean(a, out=o)),
    "mean out= underflow in the division": (
        lambda xp: [_f(xp, [[5e-324, 1.0], [0.0, 2.0]]), _out(xp, 2)],
        lambda xp, a, o: xp.mean(a, axis=0, out=o)),
    "mean out= sharing the input": (lambda xp: [_overflowing_sums(xp)],
                                    lambda xp, a: xp.mean(a, axis=0, out=a[0])),
    "ptp out=": (lambda xp: [_f(xp, [[1e308, 1.0], [-1e308, 2.0]]), _out(xp, 2)],
                 lambda xp, a, o: xp.ptp(a, axis=0, out=o)),
    "nansum out=": (lambda xp: [_f(xp, [[1e308, 1.0], [1e308, np.nan]]), _out(xp, 2)],
                    lambda xp, a, o: xp.nansum(a, axis=0, out=o)),
    "nanprod out=": (lambda xp: [_f(xp, [[1e200, 1.0], [1e200, np.nan]]), _out(xp, 2)],
                     lambda xp, a, o: xp.nanprod(a, axis=0, out=o)),
    "nanmean out= keeps NumPy's sum": (lambda xp: [_f(xp, [[1e308, 4.0], [1e308, 2.0],
                                                            [np.nan, 2.0]]), _out(xp, 2)],
                                       lambda xp, a, o: xp.nanmean(a, axis=0, out=o)),
    "nanmean of integers out=": (lambda xp: [xp.asarray([[2**62, 1], [2**62, 2]]), _out(xp, 2)],
                                 lambda xp, a, o: xp.nanmean(a, axis=0, out=o, dtype=np.float16)),
    "multiply.reduce out=": (lambda xp: [_f(xp, [1e200, 1e200, 1.0]), _out(xp, ())],
                             lambda xp, a, o: xp.multiply.reduce(a, out=o)),
    "divide.reduce out=": (lambda xp: [_f(xp, [[1.0, 1.0], [0.0, 2.0]]), _out(xp, 2)],
                           lambda xp, a, o: xp.divide.reduce(a, out=o)),
    "subtract.reduce out= invalid": (lambda xp: [_f(xp, [[np.inf, 1.0], [np.inf, 2.0]]),
                                                 _out(xp, 2)],
                                     lambda xp, a, o: xp.subtract.reduce(a, out=o)),
    "add.reduceat out=": (lambda xp: [_f(xp, [1e308, 1e308, 1.0, 2.0]), _out(xp, 2)],
                          lambda xp, a, o: xp.add.reduceat(a, [0, 2], out=o)),
    "divide.reduceat out=": (lambda xp: [_f(xp, [1.0, 0.0, 1.0, 2.0]), _out(xp, 2)],
                             lambda xp, a, o: xp.divide.reduceat(a, [0, 2], out=o)),
    # accumulations: written as they go, also into an overlapping out
    "cumsum out=": (lambda xp: [_f(xp, [1e308, 1e308, 1.0]), _out(xp, 3)],
                    lambda xp, a, o: xp.cumsum(a, out=o)),
    "cumsum out= the input": (lambda xp: [_f(xp, [1e308, 1e308, 1.0])],
                              lambda xp, a: xp.cumsum(a, out=a)),
    "nancumsum out=": (lambda xp: [_f(xp, [1e308, np.nan, 1e308]), _out(xp, 3)],
                       lambda xp, a, o: xp.nancumsum(a, out=o)),
    "nancumprod out=": (lambda xp: [_f(xp, [1e200, np.nan, 1e200]), _out(xp, 3)],
                        lambda xp, a, o: xp.nancumprod(a, out=o)),
    "cumulative_sum out=": (lambda xp: [_f(xp, [1e308, 1e308, 1.0]), _out(xp, 3)],
                            lambda xp, a, o: xp.cumulative_sum(a, out=o)),
    "cumulative_prod out= include_initial": (
        lambda xp: [_f(xp, [1e200, 1e200]), _out(xp, 3)],
        lambda xp, a, o: xp.cumulative_prod(a, out=o, include_initial=True)),
    "cumulative_sum 2-D out= include_initial": (
        lambda xp: [_f(xp, [[1e308, 1e308], [1.0, 2.0]]), _out(xp, (2, 3))],
        lambda xp, a, o: xp.cumulative_sum(a, axis=1, out=o, include_initial=True)),
    "cumprod out=": (lambda xp: [_f(xp, [1e200, 1e200, 2.0]), _out(xp, 3)],
                     lambda xp, a, o: xp.cumprod(a, out=o)),
    "divide.accumulate out=": (lambda xp: [_f(xp, [1.0, 0.0, 2.0]), _out(xp, 3)],
                               lambda xp, a, o: xp.divide.accumulate(a, out=o)),
    "divide.accumulate out= reversed input": (
        lambda xp: [_f(xp, [1.0, 0.0, 1.0])],
        lambda xp, a: xp.divide.accumulate(a, out=a[::-1])),
    # ufunc.at: every update written, then the error (named as NumPy's loop names it)
    "divide.at": (lambda xp: [_f(xp, [1.0, 2.0, 3.0, 4.0])],
                  lambda xp, a: xp.divide.at(a, [0, 2, 3], _f(xp, [0.0, 1.0, 0.0]))),
    "divide.at Python scalar": (lambda xp: [_f(xp, [1.0, 2.0, 3.0])],
                                lambda xp, a: xp.divide.at(a, [0, 1], 0.0)),
    "divide.at repeated index": (lambda xp: [_f(xp, [1.0, 2.0, 3.0])],
                                 lambda xp, a: xp.divide.at(a, [0, 0, 1],
                                                            _f(xp, [0.0, 2.0, 0.0]))),
    "divide.at slice": (lambda xp: [_f(xp, [1.0, 2.0, 3.0])],
                        lambda xp, a: xp.divide.at(a, slice(0, 2), _f(xp, [0.0, 1.0]))),
    "divide.at 2-D": (lambda xp: [_f(xp, [[1.0, 2.0], [3.0, 4.0]])],
                      lambda xp, a: xp.divide.at(a, (0, [0, 1]), _f(xp, [0.0, 1.0]))),
    "divide.at float32 with float64": (
        lambda xp: [_f(xp, [1.0, 2.0, 3.0], np.float32)],
        lambda xp, a: xp.divide.at(a, [0, 1], _f(xp, [0.0, 1.0]))),
    "multiply.at": (lambda xp: [_f(xp, [1e10, 2.0, 3.0])],
                    lambda xp, a: xp.multiply.at(a, [0, 1], _f(xp, [1e300, 1.0]))),
    "power.at": (lambda xp: [_f(xp, [10.0, 2.0, 3.0])],
                 lambda xp, a: xp.power.at(a, [0, 1], _f(xp, [400.0, 1.0]))),
    "log.at": (lambda xp: [_f(xp, [0.0, 2.0, 3.0])], lambda xp, a: xp.log.at(a, [0, 1])),
    # in-place operators and ufunc out=
    "a @= b": (lambda xp: [_f(xp, BIG)], lambda xp, a: a.__imatmul__(_f(xp, BIG))),
    "float16 += Python float": (lambda xp: [xp.ones(3, dtype=np.float16)],
                                lambda xp, h: h.__iadd__(1e5)),
    "float16 += Python int": (lambda xp: [xp.ones(3, dtype=np.float16)],
                              lambda xp, h: h.__iadd__(100000)),
    "float16 += float64 array": (lambda xp: [xp.ones(3, dtype=np.float16)],
                                 lambda xp, h: h.__iadd__(_f(xp, [1e5, 1.0, 1.0]))),
    "add(float16, Python float, out=)": (lambda xp: [xp.ones(3, dtype=np.float16)],
                                         lambda xp, h: xp.add(h, 1e5, out=h)),
    "add(float16, float64, out=)": (lambda xp: [xp.ones(3, dtype=np.float16)],
                                    lambda xp, h: xp.add(h, _f(xp, [1e5, 1.0, 1.0]), out=h)),
    "complex64 += Python complex": (lambda xp: [_f(xp, [1.0, 2.0], np.complex64)],
                                    lambda xp, a: a.__iadd__(1e300 + 1j)),
    "float32 *= Python float": (lambda xp: [_f(xp, [1.0, 2.0], np.float32)],
                                lambda xp, a: a.__imul__(1e300)),
    "copyto float16": (lambda xp: [xp.ones(3, dtype=np.float16)],
                       lambda xp, h: xp.copyto(h, _f(xp, [1e5, 2.0, 3.0]), casting="unsafe")),
    "copyto where=": (lambda xp: [xp.ones(3, dtype=np.float16)],
                      lambda xp, h: xp.copyto(h, _f(xp, [1e5, 2.0, 3.0]), casting="unsafe",
                                              where=xp.asarray([True, False, True]))),
    "copyto Python float where=": (lambda xp: [xp.ones(3, dtype=np.float16)],
                                   lambda xp, h: xp.copyto(h, 1e5,
                                                           where=xp.asarray([False, True, True]))),
    "fill_diagonal float16": (lambda xp: [xp.ones((2, 2), dtype=np.float16)],
                              lambda xp, h: xp.fill_diagonal(h, 1e5)),
    "divide out= the input reversed": (lambda xp: [_f(xp, [1.0, 0.0, 2.0])],
                                       lambda xp, a: xp.divide(1.0, a, out=a[::-1])),
    "/= the operand reversed": (lambda xp: [_f(xp, [1.0, 0.0, 2.0])],
                                lambda xp, a: a.__itruediv__(a[::-1])),
}


def _body(case, errors):
    setup, call = CASES[case]

    def body(xp, held):
        arrays = held["out"] = setup(xp)
        errors(lambda: call(xp, *arrays))

    return body


def _raising(run):
    with np.errstate(all="raise"):
        run()


def _as_errors(run):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run()


@pytest.mark.parametrize("case", list(CASES))
def test_written_and_raised_as_numpy(case):
    assert same_as_numpy(_body(case, _raising))[0] == "FloatingPointError"


@pytest.mark.parametrize("case", ["matmul out=", "sum axis out=", "mean out= keeps NumPy's sum",
                                  "divide.accumulate out=", "divide.at", "a @= b",
                                  "float16 += Python float", "float16 += float64 array"])
def test_under_warnings_as_errors(case):
    assert same_as_numpy(_body(case, _as_errors))[0] == "RuntimeWarning"


@pytest.mark.parametrize("case", ["sum axis out=", "mean out= keeps NumPy's sum", "cumsum out=",
                                  "multiply.reduce out=", "float16 += Python float"])
def test_warnings_issued_as_numpy(case):
    """Under NumPy's default settings the same values are written, with its warnings."""
    same_as_numpy(_body(case, lambda run: run()))


def test_copyto_casts_only_the_elements_written():
    """An element ``where`` leaves out is not cast: its overflow raises nothing."""
    def body(xp, held):
        h = xp.ones(3, dtype=np.float16)
        held["out"] = [h]
        with np.errstate(all="raise"):
            xp.copyto(h, _f(xp, [1e5, 2.0, 3.0]), casting="unsafe",
                      where=xp.asarray([False, True, True]))

    assert same_as_numpy(body)[0] is None


def test_calls_without_error_between_calls_with_error():
    """The eager dispatch cache keeps serving each call: with and without the error."""
    for top in (1e308, 1.0, 1e308, 1.0):
        def body(xp, held, top=top):
            a, o, c = _f(xp, [[top, 4.0], [top, 2.0]]), _out(xp, 2), _out(xp, 2)
            held["out"] = [o, c]
            with np.errstate(all="raise"):
                try:
                    xp.sum(a, axis=0, out=o)
                finally:
                    xp.matmul(a[0], _f(xp, [[top, 1.0], [1.0, 1.0]]), out=c)

        same_as_numpy(body, repeat=2)


def test_matmul_error_names_matmul_without_out():
    """xnp's eager product is NumPy's dot; its error is worded as NumPy's matmul's."""
    def body(xp, held):
        a = _f(xp, BIG)
        held["out"] = [a]
        with np.errstate(all="raise"):
            a @ a

    assert same_as_numpy(body)[1] == "overflow encountered in matmul"


def test_errors_under_jit_are_not_checked():
    """Compiled code checks no floating-point error: out= is written, nothing raised."""
    @xnp.jit
    def f(a, o, c):
        xnp.sum(a, axis=0, out=o)
        xnp.matmul(a, a, out=c)
        return o, c

    with np.errstate(all="raise"):
        o, c = f(_overflowing_sums(xnp), xnp.zeros(2), xnp.zeros((2, 2)))
    np.testing.assert_array_equal(np.asarray(o), [np.inf, 6.0])
    assert np.isinf(np.asarray(c)[0, 0])
