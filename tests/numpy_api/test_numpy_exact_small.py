"""Small agreements with NumPy: ``hypot`` eagerly equals NumPy's own loop bit for bit,
``bool / 2**63`` divides in float64, the float loop ``arctan2``/``hypot`` pick for integer
and bool operands, ``**`` with a Python exponent (bool ``** 2`` is int8), ``absolute(x, dtype=)`` picks NumPy's loop, and
``pad(mode='linear_ramp')`` equals NumPy eagerly (and to an ulp under jit)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import axes_labels, check_vs_numpy, covering_grid, family
from tests.tolerances import rtol


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16])
def test_hypot_eager_is_numpys_loop(dt):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(20000) * 10).astype(dt)
    y = rng.standard_normal(20000).astype(dt)
    x[:4] = [np.inf, -np.inf, np.nan, 0.0]
    y[:4] = [np.nan, 1.0, np.inf, 0.0]
    want = np.hypot(x, y)
    got = np.asarray(xnp.hypot(xnp.asarray(x), xnp.asarray(y)))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)  # exact: NumPy's C hypot, not a formula
    out = xnp.zeros(20000, dtype=dt)
    xnp.hypot(xnp.asarray(x), xnp.asarray(y), out=out)
    np.testing.assert_array_equal(np.asarray(out), want)
    jitted = np.asarray(xnp.jit(xnp.hypot)(xnp.asarray(x), xnp.asarray(y)))
    np.testing.assert_allclose(jitted, want, rtol=rtol(dt))


def test_hypot_scalars_and_mixed_dtypes():
    assert float(xnp.hypot(3, 4.0)) == np.hypot(3, 4.0)
    got = xnp.hypot(xnp.ones(3, dtype=xnp.float32), 2.0)
    assert got.dtype == np.hypot(np.ones(3, np.float32), 2.0).dtype
    np.testing.assert_array_equal(np.asarray(got), np.hypot(np.ones(3, np.float32), 2.0))
    g = xnp.grad(lambda v: xnp.hypot(v, 4.0))(3.0)  # the traced path keeps its derivative
    assert float(g) == pytest.approx(0.6, rel=1e-15)


@pytest.mark.parametrize("value", [2**63, 2**64 - 1, 2**70, -2**63 - 1, 3, -(2**62)])
@pytest.mark.parametrize("operand", [np.array(True), np.array([True, False])])
def test_bool_divided_by_a_big_python_int(value, operand):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for want, got in [(operand / value, xnp.asarray(operand) / value),
                          (value / operand, value / xnp.asarray(operand)),
                          (np.true_divide(operand, value), xnp.true_divide(operand, value))]:
            assert np.asarray(got).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
        jitted = xnp.jit(lambda b: b / value)(xnp.asarray(operand))
        np.testing.assert_array_equal(np.asarray(jitted), operand / value)
        if -2**63 <= value < 2**64:  # a Python int argument of jit (beyond uint64 refused)
            traced = xnp.jit(lambda b, n: b / n)(xnp.asarray(operand), value)
            np.testing.assert_array_equal(np.asarray(traced), operand / value)


_INT_LIKE = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


# 30 of the 162 pairs (every one with --full-grid): each function with each dtype on either
# side, each pair of dtype families (bool, signed, unsigned)
@pytest.mark.parametrize("case", covering_grid(
    n=30, seed=2, fname=["arctan2", "hypot"], dt1=_INT_LIKE, dt2=_INT_LIKE,
    labels=lambda c: axes_labels(c, ("fname", "dt1"), ("fname", "dt2")) + [
        ("families", family(c.dt1), family(c.dt2))]))
def test_float_loop_of_two_integer_or_bool_arrays(case):
    fname, dt1, dt2 = case.fname, case.dt1, case.dt2
    x = np.array([True, False, True]).astype(dt1)
    y = np.array([1, 0, 0]).astype(dt2)
    check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), x, y)


# 36 of the 108 cases (every one with --full-grid): each pair of function, dtype and value
@pytest.mark.parametrize("case", covering_grid(
    n=36, seed=3, fname=["arctan2", "hypot", "logaddexp"], dt=_INT_LIKE,
    value=[1, -1, 2**70, True],
    labels=lambda c: axes_labels(c, ("fname", "dt"), ("fname", "value"), ("dt", "value"))))
def test_float_loop_of_an_integer_or_bool_array_with_a_python_int(case):
    fname, dt, value = case.fname, case.dt, case.value
    # bool with an int computes in float64 (the int is the default integer); an integer
    # array picks its own loop and the int is converted to it (uint8 with -1: float16)
    x = np.array([True, False, True]).astype(dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_vs_numpy(lambda xp, a: getattr(xp, fname)(a, value), x)
        check_vs_numpy(lambda xp, a: getattr(xp, fname)(value, a), x)


_BOOL_WITH_INT = {
    "pow2": lambda xp, a: a ** 2, "pow3": lambda xp, a: a ** 3, "pow0": lambda xp, a: a ** 0,
    "power2": lambda xp, a: xp.power(a, 2), "rpow": lambda xp, a: 2 ** a,
    "add": lambda xp, a: a + 1, "radd": lambda xp, a: 1 + a, "sub": lambda xp, a: a - 1,
    "rsub": lambda xp, a: 1 - a, "mul": lambda xp, a: a * 3, "floordiv": lambda xp, a: a // 2,
    "mod": lambda xp, a: a % 2, "truediv": lambda xp, a: a / 2, "sub_bool": lambda xp, a: a - a,
    "pow_bool": lambda xp, a: a ** True, "pow_half": lambda xp, a: a ** 0.5,
}


@pytest.mark.parametrize("op", list(_BOOL_WITH_INT))
def test_bool_array_with_a_python_int_operator(op):
    # `bool_array ** 2` squares (int8), where np.power(bool_array, 2) gives int64
    check_vs_numpy(_BOOL_WITH_INT[op], np.array([True, False, True]))


@pytest.mark.parametrize("exponent", [-1, -2, 3, -1.0])
@pytest.mark.parametrize("form", ["operator", "out"])
def test_bool_array_power_in_place_refuses_the_cast_first(exponent, form):
    # NumPy checks the int64 (or float64) result's cast into the bool array before it
    # computes, so a negative int exponent is its casting TypeError, not the ValueError
    def body(xp, a):
        if form == "operator":
            a **= exponent
        else:
            xp.power(a, exponent, out=a)
        return a

    with pytest.raises(TypeError):
        body(np, np.array([True, False]))
    for fn in (lambda a: body(xnp, a), xnp.jit(lambda a: body(xnp, a))):
        # a float exponent is computed eagerly before the cast is refused (0 ** -1.0 warns)
        with warnings.catch_warnings(), pytest.raises(
                TypeError, match=r"(?=.*power)(?=.*cast)(?=.*(int64|float64))(?=.*bool)"):
            warnings.simplefilter("ignore", RuntimeWarning)
            fn(xnp.asarray([True, False]))
    with pytest.raises(TypeError, match=r"'power' output from dtype\('int64'\) to "
                                        r"dtype\('bool'\)"):
        b = xnp.asarray([True, False])
        b **= -1
    i = xnp.asarray([1, 2])  # the cast is fine: NumPy's ValueError of the computation
    with pytest.raises(ValueError, match="negative integer powers"):
        i **= -1


@pytest.mark.parametrize("dt", ["float16", "float32", "complex64", "complex128", "int8", "uint8"])
@pytest.mark.parametrize("exponent", [2, -1, 0.5, -1.0, 2.0])
@pytest.mark.parametrize("in_place", [False, True])
def test_power_operator_with_a_python_exponent(dt, exponent, in_place):
    # `**` with an exact 2, -1 or 0.5 is NumPy's square, reciprocal or sqrt (the sign of a
    # complex reciprocal's zero imaginary part shows it), in place too
    x = np.array([1, 2, 4, -3]).astype(dt)

    def body(xp, a):
        if not in_place:
            return a ** exponent
        b = a.copy()
        b **= exponent
        return b

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = body(np, x)
        except TypeError:  # NumPy's UFuncTypeError: an int array cannot hold the float result
            for fn in (lambda a: body(xnp, a), xnp.jit(lambda a: body(xnp, a))):
                with pytest.raises(TypeError, match="power"):
                    fn(xnp.asarray(x))
            return
        except (ValueError, OverflowError):  # a negative int exponent: checked below
            want = None
        check_vs_numpy(body, x)
    if dt.startswith("complex"):
        got = np.asarray(body(xnp, xnp.asarray(x)))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


_ABS_INPUTS = _ABS_INPUTS = [np.array([-3, 2], np.int8), np.array([-3, 2], np.int64), np.array([True, False]),
               np.array([200, 3], np.uint8), np.array([-1.5], np.float16),
               np.array([-1.5, 2], np.float32), np.array([-1.5, 2.0]),
               np.array([3 - 4j, 1j], np.complex64), np.array([3 - 4j, 1j])]
_ABS_DTYPES = [np.int8, np.int16, np.int64, np.uint8, np.float16, np.float32, np.float64,
               np.complex64, np.complex128, np.bool_]


@pytest.mark.parametrize("x", _ABS_INPUTS, ids=lambda a: a.dtype.name)
@pytest.mark.parametrize("dt", _ABS_DTYPES, ids=lambda d: np.dtype(d).name)
def test_absolute_dtype_selects_numpys_loop(x, dt):
    def outcome(fn):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                r = np.asarray(fn())
            return "value", r.dtype, r.tolist()
        except TypeError:  # NumPy raises UFuncTypeError, a TypeError
            return ("TypeError",)

    want = outcome(lambda: np.abs(x, dtype=dt))
    assert outcome(lambda: xnp.abs(xnp.asarray(x), dtype=dt)) == want
    assert outcome(lambda: xnp.jit(lambda v: xnp.abs(v, dtype=dt))(xnp.asarray(x))) == want


_RAMP_CASES = [((5,), 3, 0), ((5,), (2, 4), (1, -3)), ((3, 4), ((1, 2), (3, 0)), 0),
               ((3, 4), 2, ((1, 2), (5, -1))), ((2, 3, 2), ((0, 1), (2, 2), (1, 3)), 7),
               ((1,), 4, 2.5), ((4,), 10, (10, 20)), ((3, 3), 0, 0), ((2, 2), ((1, 1),), 3),
               ((3,), 2, np.float32(1.5))]


# 20 of the cases x dtypes (every one with --full-grid): every dtype, each case with an
# inexact (float, complex) and an exact (integer, bool) dtype
@pytest.mark.parametrize("case", covering_grid(
    n=20, seed=4, ramp=_RAMP_CASES, dt=[np.float64, np.float32, np.float16, np.int64, np.int8,
                                        np.uint8, np.complex128, np.bool_],
    labels=lambda c: axes_labels(c, "dt") + [
        ("ramp x inexact", repr(c.ramp), np.dtype(c.dt).kind in "fc")]))
def test_pad_linear_ramp_matches_numpy(case):
    (shape, widths, end_values), dt = case.ramp, case.dt
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(shape) * 10).astype(dt) if dt is not np.bool_ else (
        rng.standard_normal(shape) > 0)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    want = np.pad(a, widths, mode="linear_ramp", end_values=end_values)
    got = np.asarray(xnp.pad(xnp.asarray(a), widths, mode="linear_ramp", end_values=end_values))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # eagerly: NumPy's linspace step for step
    jitted = np.asarray(xnp.jit(lambda v: xnp.pad(v, widths, mode="linear_ramp",
                                                  end_values=end_values))(xnp.asarray(a)))
    assert jitted.dtype == want.dtype and jitted.shape == want.shape
    # XLA may fuse the ramp's multiply-add (one rounding fewer): an ulp of the float64 ramp
    np.testing.assert_allclose(jitted, want, rtol=4e-16 if dt in (np.float64, np.complex128) else 0,
                               atol=1e-14 if dt in (np.float64, np.complex128) else 0)


def test_pad_linear_ramp_default_end_values_and_grad():
    a = np.arange(1.0, 5.0)
    np.testing.assert_array_equal(np.asarray(xnp.pad(xnp.asarray(a), 3, mode="linear_ramp")),
                                  np.pad(a, 3, mode="linear_ramp"))
    # d/da of sum(pad): each edge value also feeds its ramp (weights k/width for k < width)
    g = xnp.grad(lambda v: xnp.sum(xnp.pad(v, (2, 3), mode="linear_ramp")))(xnp.asarray(a))
    eps, fd = 1e-6, []
    for i in range(4):
        d = np.zeros(4)
        d[i] = eps
        fd.append((np.pad(a + d, (2, 3), mode="linear_ramp").sum()
                   - np.pad(a - d, (2, 3), mode="linear_ramp").sum()) / (2 * eps))
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-7)


def test_pad_linear_ramp_errors():
    for m in (np, xnp):
        with pytest.raises(ValueError, match="can't extend empty axis 0"):
            m.pad(m.ones((0, 2)), 1, mode="linear_ramp")
    with pytest.raises(ValueError, match="end_values"):
        xnp.pad(xnp.ones(3), 1, mode="linear_ramp", end_values=[[1, 2, 3]])
    with pytest.raises(ValueError, match="unsupported keyword arguments"):
        xnp.pad(xnp.ones(3), 1, mode="linear_ramp", constant_values=1)
