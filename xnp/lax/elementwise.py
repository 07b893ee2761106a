"""Elementwise primitives: arithmetic, comparisons, logical/bitwise and shifts,
exponentials, logarithms and roots, complex parts, conversions and selection (the
circular and hyperbolic functions are in :mod:`xnp.lax.trigonometric`,
``bitcast_convert_type`` in :mod:`xnp.lax.bits`).

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

import functools
import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import _strides as view_rules
from xnp.lax import shape_ops
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.core import for_primitive

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
    "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "cbrt", "tanh", "logistic",
    # complex, conversion, selection
    "real", "imag", "conj", "complex", "convert_element_type",
    "select_n", "select", "clamp",
    # primitives
    "add_p", "sub_p", "mul_p", "div_p", "rem_p", "pow_p", "integer_pow_p", "max_p", "min_p",
    "neg_p", "abs_p", "sign_p", "floor_p", "ceil_p", "round_p", "is_finite_p", "eq_p", "ne_p",
    "lt_p", "le_p", "gt_p", "ge_p", "and_p", "or_p", "xor_p", "not_p", "shift_left_p",
    "shift_right_arithmetic_p", "shift_right_logical_p", "exp_p", "exp2_p", "log_p",
    "log2_p", "log10_p", "log1p_p", "expm1_p", "sqrt_p", "rsqrt_p", "cbrt_p", "tanh_p", "logistic_p", "real_p",
    "imag_p", "conj_p", "complex_p",
    "convert_element_type_p", "select_n_p", "clamp_p",
]

_BOOL = np.dtype(np.bool_)
_INT32 = np.dtype(np.int32)
_COMPLEX_PARTS = frozenset(np.dtype(t) for t in (np.float32, np.float64))  # XLA's complex parts


def _real_dtype(dt: np.dtype) -> np.dtype:
    """The component dtype of a complex dtype (float32 for complex64)."""
    return np.finfo(dt).dtype


def _real_of_complex(dt: np.dtype) -> np.dtype:
    return _real_dtype(dt) if dt.kind == "c" else dt


# --------------------------------------------------------------------------- rule helpers
# jvp/transpose/batch rules compute with the lax wrappers below (late-bound names), so they
# trace again under any enclosing transformation (grad(grad(f)), vmap(grad(f)), ...).


def _c(x, value) -> np.ndarray:
    """A rank-0 constant of ``x``'s dtype (lax ops broadcast rank-0 operands)."""
    return np.array(value, dtype=R.aval(x).dtype)


def _to_shape(t, aval):
    """``t`` broadcast to ``aval``'s shape (a tangent of a rank-0/size-1 operand)."""
    ta = core.aval_of(t)
    if ta.shape == aval.shape:
        return t
    dims = () if ta.ndim == 0 else tuple(range(aval.ndim))
    return shape_ops.broadcast_in_dim(t, aval.shape, dims)


def _jvp(*per_operand) -> for_primitive:
    """jvp from one ``g(t, ans, *primals, **params)`` per operand (None: no derivative in
    that operand); each part is broadcast to the output shape and the parts are summed."""
    return for_primitive(lambda prim: _sum_jvp(prim, per_operand))


def _sum_jvp(prim, per_operand):
    def jvp(primals, tangents, **params):
        ans = prim.bind(*primals, **params)
        out_aval = R.aval(ans).strip_weak_type()
        total = R.Zero(out_aval)
        for g, t in zip(per_operand, tangents):
            if g is None or type(t) is R.Zero:
                continue
            total = R.add_tangents(total, _to_shape(g(t, ans, *primals, **params), out_aval))
        return ans, total

    return jvp


def _transpose(*per_operand):
    """Transpose from one ``f(ct, *args, **params)`` per operand (None: never linear there);
    each cotangent is summed back to its operand's shape (implicit broadcasting)."""

    def transpose(ct, *args, **params):
        return [shape_ops.unbroadcast(f(ct, *args, **params), a.aval)
                if f is not None and R.is_undefined(a) else None
                for f, a in zip(per_operand, args)]

    return R.zero_ct_passthrough(transpose)


#: binary and n-ary members of the family batch by ``shape_ops.elementwise_batch``
_binary = functools.partial(kit.binary, batch=shape_ops.elementwise_batch)
_compare = functools.partial(kit.compare, batch=shape_ops.elementwise_batch)
_PIECEWISE = "piecewise constant: zero derivative"


# --------------------------------------------------------------------------- arithmetic

def _trunc(x):
    """``x`` rounded towards zero (floating)."""
    return mul(sign(x), floor(abs(x)))


def _replace_zero(x):
    return select_n(eq(x, _c(x, 0)), x, _c(x, 1))


def _pow_jvp_x(t, ans, x, y):
    # y * x**(y-1), with 0 where y == 0 (so 0**0 has derivative 0, not NaN)
    jac = select_n(eq(y, _c(y, 0)), mul(_replace_zero(y), pow(x, sub(y, _c(y, 1)))),
                   _c(y, 0))
    return mul(t, jac)


def _pow_jvp_y(t, ans, x, y):
    # log(x) * x**y. Where x == 0 its limit as x -> 0+: 0 for y > 0 (log taken as log(1)),
    # log(0) * 0**y = -inf for y <= 0 (so x**x has derivative -inf at 0, the limit of
    # x**x (log x + 1)); NaN for a NaN y. Complex (and integer) x: log(1) at x == 0.
    if R.aval(x).dtype in kit.FLOATING:
        at_pole = and_(eq(x, _c(x, 0)), not_(gt(y, _c(y, 0))))
        return mul(t, mul(select_n(at_pole, log(_replace_zero(x)), _c(x, -np.inf)), ans))
    return mul(t, mul(log(_replace_zero(x)), ans))


def _integer_pow_jvp(t, ans, x, *, y):
    if y == 0:
        return mul(t, _c(t, 0))
    return mul(t, mul(_c(x, y), integer_pow(x, y - 1) if y != 1 else _c(x, 1)))


def _balanced_eq(x, z, y):
    """1 where x == z (halved where also y == z: ties split the tangent 0.5/0.5), else 0."""
    one = _c(z, 1)
    return div(select_n(eq(x, z), _c(z, 0), one), select_n(eq(y, z), one, _c(z, 2)))


def _abs_jvp(t, ans, x):
    if R.aval(x).dtype.kind == "c":
        # d|z| = Re(conj(z) dz) / |z|  (0 at z == 0); conj(sign(z)) where |z| is infinite
        # (1 at +-inf + yj with y finite, as abs'(inf) = 1 for reals)
        scale = div(conj(x), _replace_zero(convert_element_type(ans, R.aval(x).dtype)))
        scale = select_n(eq(ans, _c(ans, np.inf)), scale, conj(sign(x)))
        return real(mul(t, scale))
    return select_n(ge(x, _c(x, 0)), neg(t), t)  # JAX: derivative 1 at x == 0


add_p = _binary("add", kit.NUMERIC, linear=True,
                transpose=_transpose(lambda ct, x, y: ct, lambda ct, x, y: ct))
sub_p = _binary("sub", kit.NUMERIC, linear=True,
                transpose=_transpose(lambda ct, x, y: ct, lambda ct, x, y: neg(ct)))
mul_p = _binary("mul", kit.NUMERIC, linear=True,
                jvp=_jvp(lambda t, ans, x, y: mul(t, y), lambda t, ans, x, y: mul(x, t)),
                transpose=_transpose(lambda ct, x, y: mul(ct, y), lambda ct, x, y: mul(x, ct)))
div_p = _binary("div", kit.NUMERIC, linear=True,
                jvp=_jvp(lambda t, ans, x, y: div(t, y),
                         # -(x / y) / y: no overflow of y ** 2 where x / y is finite
                         lambda t, ans, x, y: neg(div(mul(t, ans), y))),
                transpose=_transpose(lambda ct, x, y: div(ct, y), None))
# d rem(x, y) = dx - trunc(x / y) dy  (JAX's rule)
rem_p = _binary("rem", kit.REAL, jvp=_jvp(lambda t, ans, x, y: t,
                                          lambda t, ans, x, y: mul(neg(t), _trunc(div(x, y)))))
pow_p = _binary("pow", kit.NUMERIC, jvp=_jvp(_pow_jvp_x, _pow_jvp_y))
max_p = _binary("max", kit.REAL_OR_BOOL,
                jvp=_jvp(lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
                         lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x))))
min_p = _binary("min", kit.REAL_OR_BOOL,
                jvp=_jvp(lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
                         lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x))))
neg_p = kit.unary("neg", kit.NUMERIC, linear=True, transpose=_transpose(lambda ct, x: neg(ct)))
abs_p = kit.unary("abs", kit.NUMERIC, out_dtype=_real_of_complex, jvp=_jvp(_abs_jvp))
sign_p = kit.unary("sign", kit.NUMERIC, differentiable=_PIECEWISE)
floor_p = kit.unary("floor", kit.FLOATING, differentiable=_PIECEWISE)
ceil_p = kit.unary("ceil", kit.FLOATING, differentiable=_PIECEWISE)
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

    Derivatives (floating): ``y x ** (y - 1)`` in ``x``, 0 where ``y == 0``; ``log(x) x ** y``
    in ``y``, where ``x == 0`` its limit as ``x -> 0+``: 0 for ``y > 0`` (JAX's value), -inf
    for ``y <= 0`` (JAX: 0 at ``y == 0``, NaN below), so ``pow(x, x)`` has derivative -inf
    at 0. Complex ``x == 0``: 0 in ``y``, as JAX.
    """
    return pow_p.bind(x, y)


def _integer_pow_shape(x, *, y):
    return x.shape


def _integer_pow_dtype(x, *, y):
    kit.check_dtype("integer_pow", x, kit.NUMERIC)
    if y < 0 and x.dtype in kit.INTEGER:
        raise TypeError(f"xnp.lax.integer_pow: integers cannot be raised to the negative "
                        f"power y={y} (operand {errors.aval_str(x)}).")
    return x.dtype


integer_pow_p = kit.primitive("integer_pow", shape=_integer_pow_shape, dtype=_integer_pow_dtype,
                              jvp=_jvp(_integer_pow_jvp), batch=R.unary_batch)


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


round_p = kit.primitive("round", shape=_round_shape, dtype=_round_dtype,
                        differentiable=_PIECEWISE, batch=R.unary_batch)


def round(x: Array, rounding_method: int = 0) -> Array:  # noqa: A001
    """Round to an integral value (floating). ``rounding_method``: 0 rounds halfway
    cases away from zero (C ``round``), 1 to the nearest even value (``numpy.rint``)."""
    return round_p.bind(x, rounding_method=int(rounding_method))


def is_finite(x: Array) -> Array:
    """True where ``x`` is neither infinite nor NaN (floating); bool result."""
    return is_finite_p.bind(x)


# --------------------------------------------------------------------------- comparisons

eq_p = _compare("eq", kit.ALL)
ne_p = _compare("ne", kit.ALL)
lt_p = _compare("lt", kit.REAL_OR_BOOL)
le_p = _compare("le", kit.REAL_OR_BOOL)
gt_p = _compare("gt", kit.REAL_OR_BOOL)
ge_p = _compare("ge", kit.REAL_OR_BOOL)


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

_INTEGRAL = "integer or bool operands and result"
and_p = _binary("and", kit.INT_OR_BOOL, differentiable=_INTEGRAL)
or_p = _binary("or", kit.INT_OR_BOOL, differentiable=_INTEGRAL)
xor_p = _binary("xor", kit.INT_OR_BOOL, differentiable=_INTEGRAL)
not_p = kit.unary("not", kit.INT_OR_BOOL, differentiable=_INTEGRAL)
shift_left_p = _binary("shift_left", kit.INTEGER, differentiable=_INTEGRAL)
shift_right_arithmetic_p = _binary("shift_right_arithmetic", kit.INTEGER, differentiable=_INTEGRAL)
shift_right_logical_p = _binary("shift_right_logical", kit.INTEGER, differentiable=_INTEGRAL)


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

# d f(x) = f'(x) dx, written with the result ``ans`` where cheaper
exp_p = kit.unary("exp", kit.INEXACT, jvp=_jvp(lambda t, ans, x: mul(t, ans)))
exp2_p = kit.unary("exp2", kit.INEXACT,
                   jvp=_jvp(lambda t, ans, x: mul(t, mul(ans, _c(x, np.log(2.0))))))
log_p = kit.unary("log", kit.INEXACT, jvp=_jvp(lambda t, ans, x: div(t, x)))
log2_p = kit.unary("log2", kit.INEXACT,
                   jvp=_jvp(lambda t, ans, x: div(t, mul(x, _c(x, np.log(2.0))))))
log10_p = kit.unary("log10", kit.INEXACT,
                    jvp=_jvp(lambda t, ans, x: div(t, mul(x, _c(x, np.log(10.0))))))
log1p_p = kit.unary("log1p", kit.INEXACT, jvp=_jvp(lambda t, ans, x: div(t, add(x, _c(x, 1)))))
expm1_p = kit.unary("expm1", kit.INEXACT,
                    jvp=_jvp(lambda t, ans, x: mul(t, add(ans, _c(ans, 1)))))
sqrt_p = kit.unary("sqrt", kit.INEXACT,  # 2 * (inf + 0j) would be inf + nanj
                   jvp=_jvp(lambda t, ans, x: div(t, add(ans, ans))))
rsqrt_p = kit.unary("rsqrt", kit.INEXACT,
                    jvp=_jvp(lambda t, ans, x: mul(t, mul(div(ans, x), _c(x, -0.5)))))
cbrt_p = kit.unary("cbrt", kit.FLOATING,
                   jvp=_jvp(lambda t, ans, x: mul(t, mul(integer_pow(ans, -2), _c(x, 1 / 3)))))
tanh_p = kit.unary("tanh", kit.INEXACT,
                   jvp=_jvp(lambda t, ans, x: mul(t, sub(_c(ans, 1), mul(ans, ans)))))
logistic_p = kit.unary("logistic", kit.INEXACT,
                       jvp=_jvp(lambda t, ans, x: mul(t, mul(ans, sub(_c(ans, 1), ans)))))


def exp(x: Array) -> Array:
    """``e ** x`` (floating or complex)."""
    return exp_p.bind(x)


def exp2(x: Array) -> Array:
    """``2 ** x`` (floating or complex)."""
    return exp2_p.bind(x)


def log(x: Array) -> Array:
    """Natural logarithm (floating or complex); NaN for negative reals, -inf at 0."""
    return log_p.bind(x)


def log2(x: Array) -> Array:
    """Base-2 logarithm (floating or complex); NaN for negative reals, -inf at 0.

    Eagerly NumPy's ``log2``; under ``jit`` (no StableHLO op) ``log(x) * log2(e)``,
    computed in float64 for float32/float16 inputs (within 1 ulp of NumPy's)."""
    return log2_p.bind(x)


def log10(x: Array) -> Array:
    """Base-10 logarithm (floating or complex); NaN for negative reals, -inf at 0.

    Eagerly NumPy's ``log10``; under ``jit`` (no StableHLO op) ``log(x) * log10(e)``,
    computed in float64 for float32/float16 inputs (within 1 ulp of NumPy's)."""
    return log10_p.bind(x)


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


def logistic(x: Array) -> Array:
    """``1 / (1 + exp(-x))`` (floating or complex)."""
    return logistic_p.bind(x)


# --------------------------------------------------------------------------- complex parts

# all linear (over the reals); transposes as JAX's
real_p = kit.unary("real", kit.COMPLEX, out_dtype=_real_dtype, linear=True,
                   view=view_rules.complex_part,
                   transpose=_transpose(lambda ct, x: complex(ct, _c(ct, 0))))
imag_p = kit.unary("imag", kit.COMPLEX, out_dtype=_real_dtype, linear=True,
                   view=view_rules.complex_part,
                   transpose=_transpose(lambda ct, x: complex(_c(ct, 0), neg(ct))))
conj_p = kit.unary("conj", kit.COMPLEX, linear=True, transpose=_transpose(lambda ct, x: conj(ct)))
complex_p = _binary("complex", _COMPLEX_PARTS,
                    out_dtype=lambda dt: np.result_type(dt, np.complex64), linear=True,
                    transpose=_transpose(lambda ct, x, y: real(ct),
                                         lambda ct, x, y: imag(neg(ct))))


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


def _convert_dtype(x, *, new_dtype, weak_type):
    kit.check_dtype("convert_element_type", ShapedArray((), new_dtype), kit.ALL, "new_dtype")
    return new_dtype


def _convert_weak(*weak_types, new_dtype, weak_type):
    return weak_type


def _is_inexact(dt) -> bool:
    return np.dtype(dt) in kit.INEXACT


def _convert_jvp(primals, tangents, *, new_dtype, weak_type):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if type(t) is R.Zero or not (_is_inexact(new_dtype) and _is_inexact(R.aval(x).dtype)):
        return out, R.Zero(R.aval(out).strip_weak_type())  # to int/bool: no tangent
    return out, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=False)


def _convert_transpose(ct, x, *, new_dtype, weak_type):
    # complex -> real keeps the real part, so real -> complex is its transpose (and back)
    return [convert_element_type_p.bind(ct, new_dtype=x.aval.dtype, weak_type=False)]


convert_element_type_p = kit.primitive(
    "convert_element_type", shape=lambda x, **_: x.shape, dtype=_convert_dtype,
    weak_type=_convert_weak, allocates="eagerly", jvp=_convert_jvp, linear=True,
    transpose=R.zero_ct_passthrough(_convert_transpose), batch=R.unary_batch)


def convert_element_type(x: Array, new_dtype, weak_type: bool = False) -> Array:
    """Cast ``x`` to ``new_dtype`` (NumPy ``astype`` with ``unsafe`` casting).

    Shape: ``x.shape``. ``weak_type`` marks the result as coming from a Python scalar.
    complex -> real keeps the real part; anything -> bool is ``x != 0`` (NaN and
    subnormals give True). Floating (complex: its real part) -> integer truncates
    towards zero; NaN, inf and out-of-range values follow x86-64 NumPy semantics
    (on other platforms NumPy's own cast is platform-defined): eagerly NumPy's cast
    (with its RuntimeWarning), under XLA the same results built from selects rather
    than XLA's saturating convert: NaN/out-of-range give the 32- or 64-bit "integer
    indefinite" ``INT_MIN`` of C's cast, narrower targets keep its low bits (300.0 ->
    int8 44, -1.0 -> uint8 255), uint64 uses the unsigned sequence (NaN -> 2**63), and
    float8 sources (ml_dtypes' casts) give NaN -> 0 and saturate +-inf. One exception:
    NumPy's contiguous float32/float64 -> uint32 SIMD loop differs from its own scalar
    cast (which XLA follows) for NaN, -inf, x < -2**31 and x >= 2**32.
    """
    return convert_element_type_p.bind(x, new_dtype=np.dtype(new_dtype),
                                       weak_type=bool(weak_type))


# --------------------------------------------------------------------------- selection


def _select_n_shape(which, *cases):
    if not cases:
        raise TypeError("xnp.lax.select_n: needs at least one case")
    return kit.broadcast_shapes("select_n", which, *cases)


def _select_n_dtype(which, *cases):
    if which.dtype != _BOOL and which.dtype != _INT32:
        raise TypeError(f"xnp.lax.select_n: `which` must be bool or int32, got "
                        f"{errors.aval_str(which)}.")
    if which.dtype == _BOOL and len(cases) > 2:
        raise TypeError(f"xnp.lax.select_n: a bool `which` selects between at most 2 cases, "
                        f"got {len(cases)}.")
    return kit.same_dtype("select_n", *cases)


def _select_n_weak(which_weak, *case_weaks):
    return all(case_weaks)


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n_p.bind(which, *cases)
    if all(type(t) is R.Zero for t in tangents[1:]):
        return out, R.Zero(R.aval(out).strip_weak_type())
    return out, select_n_p.bind(which, *[R.instantiate(t) for t in tangents[1:]])


def _select_n_transpose(ct, which, *cases):
    zero = _c(ct, 0)
    return [None] + [
        shape_ops.unbroadcast(select_n(which, *[ct if j == i else zero for j in range(len(cases))]),
                      c.aval) if R.is_undefined(c) else None
        for i, c in enumerate(cases)]


select_n_p = kit.primitive("select_n", shape=_select_n_shape, dtype=_select_n_dtype,
                           weak_type=_select_n_weak, allocates="eagerly", jvp=_select_n_jvp,
                           linear=True, transpose=R.zero_ct_passthrough(_select_n_transpose),
                           batch=shape_ops.elementwise_batch)


def select_n(which: Array, *cases: Array) -> Array:
    """Elementwise ``cases[which]``: case 0 where ``which`` is False/0.

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
                            f"got {errors.avals_str((lo, x, hi))}.")
    return x.shape


def _clamp_dtype(lo, x, hi):
    dt = kit.same_dtype("clamp", lo, x, hi)
    kit.check_dtype("clamp", x, kit.REAL)
    return dt


def _clamp_jvp_lo(t, ans, lo, x, hi):
    return select_n(and_(gt(lo, x), lt(lo, hi)), _c(t, 0), t)


def _clamp_jvp_x(t, ans, lo, x, hi):
    # JAX's rule: the tangent passes strictly inside (lo, hi); 0 at the bounds
    return select_n(and_(gt(x, lo), lt(x, hi)), _c(t, 0), t)


def _clamp_jvp_hi(t, ans, lo, x, hi):
    # hi < max(x, lo), not JAX's hi < x: with lo > hi the result is hi for every x
    return select_n(lt(hi, max(x, lo)), _c(t, 0), t)


def _clamp_batch(vals, dims):
    """Batch axes to the front; ``x`` batched; a bound that is not an unbatched scalar is
    broadcast to ``x``'s batched shape (clamp's bounds are rank 0 or ``x``'s shape)."""
    size = R.batch_size(vals, dims)
    lo, x, hi = vals
    x = shape_ops.bdim_to_front(x, dims[1], size)
    shape = core.aval_of(x).shape
    out = []
    for b, d in ((lo, dims[0]), (hi, dims[2])):
        ba = core.aval_of(b)
        if d is None and ba.ndim == 0:
            out.append(b)
        elif d is None:
            out.append(shape_ops.broadcast_in_dim(b, shape, tuple(range(1, len(shape)))))
        else:
            b = shape_ops.bdim_to_front(b, d, size)
            out.append(shape_ops.broadcast_in_dim(b, shape, tuple(range(ba.ndim))))
    return clamp_p.bind(out[0], x, out[1]), 0


clamp_p = kit.primitive("clamp", shape=_clamp_shape, dtype=_clamp_dtype,
                        jvp=_jvp(_clamp_jvp_lo, _clamp_jvp_x, _clamp_jvp_hi), batch=_clamp_batch)


def clamp(lo: Array, x: Array, hi: Array) -> Array:
    """``min(max(x, lo), hi)`` elementwise (real dtypes); NaN propagates.

    ``lo`` and ``hi`` are rank 0 or have ``x``'s shape; all three share one dtype.
    """
    return clamp_p.bind(lo, x, hi)
