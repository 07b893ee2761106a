"""Elementwise primitives: arithmetic, comparisons, logical/bitwise and shifts,
transcendental functions, complex parts, conversions and selection.

Strict (see ``_kit``): the operands of an n-ary primitive have equal dtypes;
shapes are equal except that rank-0 operands and size-1 dimensions broadcast
(never rank promotion). Each primitive accepts one named dtype category and
raises ``TypeError`` naming ``xnp.lax.<name>`` and the operand avals otherwise.

Semantics that differ from a bare XLA op are stated in the wrapper's docstring
and are the same on every backend (eager NumPy/CuPy and the XLA lowering):

* ``div``/``rem`` on integers truncate towards zero (C, XLA); a zero divisor
  gives 0 (NumPy's answer; XLA alone would give -1 / the dividend).
* ``pow`` on integers with a negative exponent gives ``x ** y`` rounded towards
  zero: 1 for ``x == 1``, +-1 for ``x == -1``, else 0 (XLA's rule; NumPy raises).
* ``max``/``min`` propagate NaN (``numpy.maximum``).
* shifts by a count outside ``[0, bits)`` give 0 (logical, left) or the sign
  fill 0/-1 (arithmetic), as NumPy does.
* ``convert_element_type`` from floating to integer: eagerly NumPy's cast
  (platform-defined for NaN/inf/out of range); under XLA saturating, NaN -> 0.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.tracing import Array, Primitive, ShapedArray

__all__ = [
    # arithmetic
    "add", "sub", "mul", "div", "rem", "pow", "integer_pow", "max", "min", "neg", "abs",
    "sign", "floor", "ceil", "round", "is_finite",
    # comparisons
    "eq", "ne", "lt", "le", "gt", "ge",
    # logical / bitwise / shifts
    "and_", "or_", "xor", "not_", "shift_left", "shift_right_arithmetic",
    "shift_right_logical",
    # transcendental
    "exp", "exp2", "log", "log1p", "expm1", "sqrt", "rsqrt", "cbrt", "tanh", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
    "logistic",
    # complex, conversion, selection
    "real", "imag", "conj", "complex", "convert_element_type", "bitcast_convert_type",
    "select_n", "select", "clamp",
    # primitives
    "add_p", "sub_p", "mul_p", "div_p", "rem_p", "pow_p", "integer_pow_p", "max_p", "min_p",
    "neg_p", "abs_p", "sign_p", "floor_p", "ceil_p", "round_p", "is_finite_p", "eq_p", "ne_p",
    "lt_p", "le_p", "gt_p", "ge_p", "and_p", "or_p", "xor_p", "not_p", "shift_left_p",
    "shift_right_arithmetic_p", "shift_right_logical_p", "exp_p", "exp2_p", "log_p",
    "log1p_p", "expm1_p", "sqrt_p", "rsqrt_p", "cbrt_p", "tanh_p", "sin_p", "cos_p", "tan_p",
    "asin_p", "acos_p", "atan_p", "atan2_p", "sinh_p", "cosh_p", "asinh_p", "acosh_p",
    "atanh_p", "logistic_p", "real_p", "imag_p", "conj_p", "complex_p",
    "convert_element_type_p", "bitcast_convert_type_p", "select_n_p", "clamp_p",
]

_BOOL = np.dtype(np.bool_)
_INT32 = np.dtype(np.int32)
_COMPLEX_PARTS = frozenset(np.dtype(t) for t in (np.float32, np.float64))  # XLA's complex parts


def _real_dtype(dt: np.dtype) -> np.dtype:
    """The component dtype of a complex dtype (float32 for complex64)."""
    return np.finfo(dt).dtype


def _real_of_complex(dt: np.dtype) -> np.dtype:
    return _real_dtype(dt) if dt.kind == "c" else dt


# --------------------------------------------------------------------------- arithmetic

add_p = kit.binary("add", kit.NUMERIC)
sub_p = kit.binary("sub", kit.NUMERIC)
mul_p = kit.binary("mul", kit.NUMERIC)
div_p = kit.binary("div", kit.NUMERIC)
rem_p = kit.binary("rem", kit.REAL)
pow_p = kit.binary("pow", kit.NUMERIC)
max_p = kit.binary("max", kit.REAL_OR_BOOL)
min_p = kit.binary("min", kit.REAL_OR_BOOL)
neg_p = kit.unary("neg", kit.NUMERIC)
abs_p = kit.unary("abs", kit.NUMERIC, out_dtype=_real_of_complex)
sign_p = kit.unary("sign", kit.NUMERIC)
floor_p = kit.unary("floor", kit.FLOATING)
ceil_p = kit.unary("ceil", kit.FLOATING)
is_finite_p = kit.unary("is_finite", kit.FLOATING, out_dtype=lambda dt: _BOOL,
                        weak_type=kit.never_weak, differentiable="boolean output")


def add(x: Array, y: Array) -> Array:
    """``x + y`` elementwise (numeric; not bool). Integers wrap around on overflow."""
    return add_p.bind(x, y)


def sub(x: Array, y: Array) -> Array:
    """``x - y`` elementwise (numeric; not bool)."""
    return sub_p.bind(x, y)


def mul(x: Array, y: Array) -> Array:
    """``x * y`` elementwise (numeric; not bool)."""
    return mul_p.bind(x, y)


def div(x: Array, y: Array) -> Array:
    """``x / y`` elementwise (numeric).

    Integers: the quotient truncated towards zero (C and XLA semantics, not
    NumPy's floor division); ``x / 0`` is 0 and ``iinfo.min / -1`` wraps to
    ``iinfo.min``. Floats and complex: IEEE division.
    """
    return div_p.bind(x, y)


def rem(x: Array, y: Array) -> Array:
    """Remainder of truncating division, with the sign of ``x`` (C ``fmod``; integer or floating).

    Integers: ``x rem 0`` is 0 (NumPy's ``fmod``). Floats: ``fmod`` (NaN for a zero divisor).
    """
    return rem_p.bind(x, y)


def pow(x: Array, y: Array) -> Array:  # noqa: A001  (lax name)
    """``x ** y`` elementwise; equal dtypes (numeric).

    Integers: wraps on overflow; for ``y < 0`` the result is 1 where ``x == 1``,
    ``(-1) ** y`` where ``x == -1`` and 0 elsewhere (XLA's rule; ``xnp.power``
    raises for a concrete negative integer exponent, as NumPy does).
    """
    return pow_p.bind(x, y)


def _integer_pow_shape(x, *, y):
    return x.shape


def _integer_pow_dtype(x, *, y):
    kit.check_dtype("integer_pow", x, kit.NUMERIC)
    if y < 0 and x.dtype in kit.INTEGER:
        raise TypeError(f"xnp.lax.integer_pow: integers cannot be raised to the negative "
                        f"power y={y} (operand {x.str_short()}).")
    return x.dtype


integer_pow_p = Primitive("integer_pow", shape=_integer_pow_shape, dtype=_integer_pow_dtype)


def integer_pow(x: Array, y: int) -> Array:
    """``x ** y`` for a static Python int ``y`` (numeric ``x``; same dtype).

    Computed by repeated squaring under XLA. A negative ``y`` needs an inexact
    dtype (``TypeError`` for integers).
    """
    try:
        y = operator.index(y)
    except TypeError:
        raise TypeError(f"xnp.lax.integer_pow: `y` must be a Python int, got {y!r}") from None
    return integer_pow_p.bind(x, y=int(y))


def max(x: Array, y: Array) -> Array:  # noqa: A001
    """Elementwise maximum (real or bool); NaN in either operand gives NaN (``numpy.maximum``)."""
    return max_p.bind(x, y)


def min(x: Array, y: Array) -> Array:  # noqa: A001
    """Elementwise minimum (real or bool); NaN in either operand gives NaN (``numpy.minimum``)."""
    return min_p.bind(x, y)


def neg(x: Array) -> Array:
    """``-x`` elementwise (numeric; unsigned integers wrap around)."""
    return neg_p.bind(x)


def abs(x: Array) -> Array:  # noqa: A001
    """``|x|`` elementwise (numeric). Complex input gives the real dtype (complex64 -> float32).

    ``abs(iinfo.min)`` wraps to ``iinfo.min``; unsigned input is returned unchanged.
    """
    return abs_p.bind(x)


def sign(x: Array) -> Array:
    """-1, 0 or 1 by the sign of ``x`` (numeric); NaN stays NaN, -0.0 stays -0.0;
    complex: ``x / |x|`` (0 for 0)."""
    return sign_p.bind(x)


def floor(x: Array) -> Array:
    """Largest integral value ``<= x`` (floating)."""
    return floor_p.bind(x)


def ceil(x: Array) -> Array:
    """Smallest integral value ``>= x`` (floating)."""
    return ceil_p.bind(x)


def _round_shape(x, *, rounding_method):
    return x.shape


def _round_dtype(x, *, rounding_method):
    kit.check_dtype("round", x, kit.FLOATING)
    if rounding_method not in (0, 1):
        raise ValueError(f"xnp.lax.round: rounding_method must be 0 (away from zero) or 1 "
                         f"(to nearest even), got {rounding_method!r}")
    return x.dtype


round_p = Primitive("round", shape=_round_shape, dtype=_round_dtype)


def round(x: Array, rounding_method: int = 0) -> Array:  # noqa: A001
    """Round to an integral value (floating). ``rounding_method``: 0 rounds halfway
    cases away from zero (C ``round``), 1 to the nearest even value (``numpy.rint``)."""
    return round_p.bind(x, rounding_method=int(rounding_method))


def is_finite(x: Array) -> Array:
    """True where ``x`` is neither infinite nor NaN (floating); bool result."""
    return is_finite_p.bind(x)


# --------------------------------------------------------------------------- comparisons

eq_p = kit.compare("eq", kit.ALL)
ne_p = kit.compare("ne", kit.ALL)
lt_p = kit.compare("lt", kit.REAL_OR_BOOL)
le_p = kit.compare("le", kit.REAL_OR_BOOL)
gt_p = kit.compare("gt", kit.REAL_OR_BOOL)
ge_p = kit.compare("ge", kit.REAL_OR_BOOL)


def eq(x: Array, y: Array) -> Array:
    """``x == y`` elementwise (any dtype); bool, never weak. NaN compares unequal."""
    return eq_p.bind(x, y)


def ne(x: Array, y: Array) -> Array:
    """``x != y`` elementwise (any dtype); bool, never weak."""
    return ne_p.bind(x, y)


def lt(x: Array, y: Array) -> Array:
    """``x < y`` elementwise (real or bool; complex ordering is ``xnp.less``'s job)."""
    return lt_p.bind(x, y)


def le(x: Array, y: Array) -> Array:
    """``x <= y`` elementwise (real or bool)."""
    return le_p.bind(x, y)


def gt(x: Array, y: Array) -> Array:
    """``x > y`` elementwise (real or bool)."""
    return gt_p.bind(x, y)


def ge(x: Array, y: Array) -> Array:
    """``x >= y`` elementwise (real or bool)."""
    return ge_p.bind(x, y)


# --------------------------------------------------------------------------- logical, bitwise

and_p = kit.binary("and", kit.INT_OR_BOOL)
or_p = kit.binary("or", kit.INT_OR_BOOL)
xor_p = kit.binary("xor", kit.INT_OR_BOOL)
not_p = kit.unary("not", kit.INT_OR_BOOL)
shift_left_p = kit.binary("shift_left", kit.INTEGER)
shift_right_arithmetic_p = kit.binary("shift_right_arithmetic", kit.INTEGER)
shift_right_logical_p = kit.binary("shift_right_logical", kit.INTEGER)


def and_(x: Array, y: Array) -> Array:
    """Bitwise (integers) or logical (bool) AND."""
    return and_p.bind(x, y)


def or_(x: Array, y: Array) -> Array:
    """Bitwise (integers) or logical (bool) OR."""
    return or_p.bind(x, y)


def xor(x: Array, y: Array) -> Array:
    """Bitwise (integers) or logical (bool) XOR."""
    return xor_p.bind(x, y)


def not_(x: Array) -> Array:
    """Bitwise (integers) or logical (bool) NOT."""
    return not_p.bind(x)


def shift_left(x: Array, y: Array) -> Array:
    """``x << y`` (integers, equal dtypes); a count outside ``[0, bits)`` gives 0."""
    return shift_left_p.bind(x, y)


def shift_right_arithmetic(x: Array, y: Array) -> Array:
    """``x >> y`` filling with the sign bit (integers); a count outside ``[0, bits)``
    gives 0 or -1 by the sign of ``x`` (for unsigned ``x``: 0 or all ones by the top bit)."""
    return shift_right_arithmetic_p.bind(x, y)


def shift_right_logical(x: Array, y: Array) -> Array:
    """``x >> y`` filling with zeros (integers, signed ones treated as their bit pattern);
    a count outside ``[0, bits)`` gives 0."""
    return shift_right_logical_p.bind(x, y)


# --------------------------------------------------------------------------- transcendental

exp_p = kit.unary("exp", kit.INEXACT)
exp2_p = kit.unary("exp2", kit.INEXACT)
log_p = kit.unary("log", kit.INEXACT)
log1p_p = kit.unary("log1p", kit.INEXACT)
expm1_p = kit.unary("expm1", kit.INEXACT)
sqrt_p = kit.unary("sqrt", kit.INEXACT)
rsqrt_p = kit.unary("rsqrt", kit.INEXACT)
cbrt_p = kit.unary("cbrt", kit.FLOATING)
tanh_p = kit.unary("tanh", kit.INEXACT)
sin_p = kit.unary("sin", kit.INEXACT)
cos_p = kit.unary("cos", kit.INEXACT)
tan_p = kit.unary("tan", kit.INEXACT)
asin_p = kit.unary("asin", kit.INEXACT)
acos_p = kit.unary("acos", kit.INEXACT)
atan_p = kit.unary("atan", kit.INEXACT)
atan2_p = kit.binary("atan2", kit.FLOATING)
sinh_p = kit.unary("sinh", kit.INEXACT)
cosh_p = kit.unary("cosh", kit.INEXACT)
asinh_p = kit.unary("asinh", kit.INEXACT)
acosh_p = kit.unary("acosh", kit.INEXACT)
atanh_p = kit.unary("atanh", kit.INEXACT)
logistic_p = kit.unary("logistic", kit.INEXACT)


def exp(x: Array) -> Array:
    """``e ** x`` (floating or complex)."""
    return exp_p.bind(x)


def exp2(x: Array) -> Array:
    """``2 ** x`` (floating or complex)."""
    return exp2_p.bind(x)


def log(x: Array) -> Array:
    """Natural logarithm (floating or complex); NaN for negative reals, -inf at 0."""
    return log_p.bind(x)


def log1p(x: Array) -> Array:
    """``log(1 + x)``, accurate near 0 (floating or complex)."""
    return log1p_p.bind(x)


def expm1(x: Array) -> Array:
    """``exp(x) - 1``, accurate near 0 (floating or complex)."""
    return expm1_p.bind(x)


def sqrt(x: Array) -> Array:
    """Square root (floating or complex); NaN for negative reals."""
    return sqrt_p.bind(x)


def rsqrt(x: Array) -> Array:
    """``1 / sqrt(x)`` (floating or complex)."""
    return rsqrt_p.bind(x)


def cbrt(x: Array) -> Array:
    """Real cube root (floating), negative for negative ``x``."""
    return cbrt_p.bind(x)


def tanh(x: Array) -> Array:
    """Hyperbolic tangent (floating or complex)."""
    return tanh_p.bind(x)


def sin(x: Array) -> Array:
    """Sine (floating or complex; radians)."""
    return sin_p.bind(x)


def cos(x: Array) -> Array:
    """Cosine (floating or complex; radians)."""
    return cos_p.bind(x)


def tan(x: Array) -> Array:
    """Tangent (floating or complex; radians)."""
    return tan_p.bind(x)


def asin(x: Array) -> Array:
    """Inverse sine (floating or complex); NaN outside [-1, 1] for reals."""
    return asin_p.bind(x)


def acos(x: Array) -> Array:
    """Inverse cosine (floating or complex); NaN outside [-1, 1] for reals."""
    return acos_p.bind(x)


def atan(x: Array) -> Array:
    """Inverse tangent (floating or complex)."""
    return atan_p.bind(x)


def atan2(x: Array, y: Array) -> Array:
    """Angle of the point ``(y, x)``: ``atan(x / y)`` in the right quadrant (floating)."""
    return atan2_p.bind(x, y)


def sinh(x: Array) -> Array:
    """Hyperbolic sine (floating or complex)."""
    return sinh_p.bind(x)


def cosh(x: Array) -> Array:
    """Hyperbolic cosine (floating or complex)."""
    return cosh_p.bind(x)


def asinh(x: Array) -> Array:
    """Inverse hyperbolic sine (floating or complex)."""
    return asinh_p.bind(x)


def acosh(x: Array) -> Array:
    """Inverse hyperbolic cosine (floating or complex); NaN below 1 for reals."""
    return acosh_p.bind(x)


def atanh(x: Array) -> Array:
    """Inverse hyperbolic tangent (floating or complex); NaN outside [-1, 1] for reals."""
    return atanh_p.bind(x)


def logistic(x: Array) -> Array:
    """``1 / (1 + exp(-x))`` (floating or complex)."""
    return logistic_p.bind(x)


# --------------------------------------------------------------------------- complex parts

real_p = kit.unary("real", kit.COMPLEX, out_dtype=_real_dtype)
imag_p = kit.unary("imag", kit.COMPLEX, out_dtype=_real_dtype)
conj_p = kit.unary("conj", kit.COMPLEX)
complex_p = kit.binary("complex", _COMPLEX_PARTS,
                       out_dtype=lambda dt: np.result_type(dt, np.complex64))


def real(x: Array) -> Array:
    """Real part of a complex ``x``; dtype float32 (complex64) or float64 (complex128)."""
    return real_p.bind(x)


def imag(x: Array) -> Array:
    """Imaginary part of a complex ``x``; the real dtype."""
    return imag_p.bind(x)


def conj(x: Array) -> Array:
    """Complex conjugate (complex dtypes only; ``xnp.conjugate`` passes reals through)."""
    return conj_p.bind(x)


def complex(x: Array, y: Array) -> Array:  # noqa: A001
    """``x + 1j * y`` from float32 (-> complex64) or float64 (-> complex128) parts."""
    return complex_p.bind(x, y)


# --------------------------------------------------------------------------- conversions


def _convert_shape(x, *, new_dtype, weak_type):
    return x.shape


def _convert_dtype(x, *, new_dtype, weak_type):
    kit.check_dtype("convert_element_type", ShapedArray((), new_dtype), kit.ALL, "new_dtype")
    return new_dtype


def _convert_weak(*weak_types, new_dtype, weak_type):
    return weak_type


convert_element_type_p = Primitive(
    "convert_element_type", shape=_convert_shape, dtype=_convert_dtype, weak_type=_convert_weak)


def convert_element_type(x: Array, new_dtype, weak_type: bool = False) -> Array:
    """Cast ``x`` to ``new_dtype`` (NumPy ``astype`` with ``unsafe`` casting).

    Shape: ``x.shape``. ``weak_type`` marks the result as coming from a Python scalar.
    complex -> real keeps the real part; anything -> bool is ``x != 0``.
    Floating -> integer: eagerly NumPy's cast (NaN, inf and out-of-range values
    give platform-defined results, with NumPy's RuntimeWarning); under XLA the
    conversion truncates towards zero and saturates to the integer range, with
    NaN -> 0.
    """
    return convert_element_type_p.bind(x, new_dtype=np.dtype(new_dtype),
                                       weak_type=bool(weak_type))


def _bitcast_shape(x, *, new_dtype):
    return x.shape


def _bitcast_dtype(x, *, new_dtype):
    kit.check_dtype("bitcast_convert_type", x, kit.REAL)
    kit.check_dtype("bitcast_convert_type", ShapedArray((), new_dtype), kit.REAL, "new_dtype")
    if new_dtype.itemsize != x.dtype.itemsize:
        raise TypeError(
            f"xnp.lax.bitcast_convert_type: new_dtype {new_dtype} must have the bit width of "
            f"the operand {x.str_short()} ({8 * x.dtype.itemsize} bits).")
    return new_dtype


bitcast_convert_type_p = Primitive("bitcast_convert_type", shape=_bitcast_shape,
                                   dtype=_bitcast_dtype, weak_type=kit.never_weak)


def bitcast_convert_type(x: Array, new_dtype) -> Array:
    """Reinterpret the bits of ``x`` as ``new_dtype`` (real dtypes of equal bit width)."""
    return bitcast_convert_type_p.bind(x, new_dtype=np.dtype(new_dtype))


# --------------------------------------------------------------------------- selection


def _select_n_shape(which, *cases):
    if not cases:
        raise TypeError("xnp.lax.select_n: needs at least one case")
    return kit.broadcast_shapes("select_n", which, *cases)


def _select_n_dtype(which, *cases):
    if which.dtype != _BOOL and which.dtype != _INT32:
        raise TypeError(f"xnp.lax.select_n: `which` must be bool or int32, got "
                        f"{which.str_short()}.")
    if which.dtype == _BOOL and len(cases) > 2:
        raise TypeError(f"xnp.lax.select_n: a bool `which` selects between at most 2 cases, "
                        f"got {len(cases)}.")
    return kit.same_dtype("select_n", *cases)


def _select_n_weak(which_weak, *case_weaks):
    return all(case_weaks)


select_n_p = Primitive("select_n", shape=_select_n_shape, dtype=_select_n_dtype,
                       weak_type=_select_n_weak)


def select_n(which: Array, *cases: Array) -> Array:
    """Elementwise ``cases[which]``: case 0 where ``which`` is False/0 (decision D-6).

    ``which`` is bool (at most two cases) or int32; the cases have one dtype;
    shapes as for elementwise ops (equal, rank 0, or size-1 dims). An int32
    ``which`` outside ``[0, len(cases))`` is clamped into that range.
    """
    return select_n_p.bind(which, *cases)


def select(pred: Array, on_true: Array, on_false: Array) -> Array:
    """``on_true`` where ``pred`` else ``on_false``: ``select_n(pred, on_false, on_true)``."""
    return select_n_p.bind(pred, on_false, on_true)


def _clamp_shape(lo, x, hi):
    for name, b in (("lo", lo), ("hi", hi)):
        if b.shape != () and b.shape != x.shape:
            raise TypeError(f"xnp.lax.clamp: `{name}` must be a scalar or have the shape of x; "
                            f"got {lo.str_short()}, {x.str_short()}, {hi.str_short()}.")
    return x.shape


def _clamp_dtype(lo, x, hi):
    dt = kit.same_dtype("clamp", lo, x, hi)
    kit.check_dtype("clamp", x, kit.REAL)
    return dt


clamp_p = Primitive("clamp", shape=_clamp_shape, dtype=_clamp_dtype)


def clamp(lo: Array, x: Array, hi: Array) -> Array:
    """``min(max(x, lo), hi)`` elementwise (real dtypes); NaN propagates.

    ``lo`` and ``hi`` are rank 0 or have ``x``'s shape; all three share one dtype.
    """
    return clamp_p.bind(lo, x, hi)
