"""xp implementations of the elementwise primitives (``xnp.lax.elementwise``).

Each returns exactly the dtype and shape the primitive's rules give, with the
semantics documented in ``xnp.lax.elementwise`` (where those differ from the
NumPy ufunc of the same name the difference is handled here: integer
division truncates, shifts of signed values are logical where asked, ...).

The eager trace runs each primitive's shape/dtype rules once per operand
signature before calling these (``xnp.tracing.core``), so bad operands raise the
same TypeError/ValueError as under ``jit``.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS

__all__: list = []


def _register(prim, fn, arity: int | str | None = None):
    """``XP_IMPLS[prim] = fn`` (``arity`` documents the call shape: 1, 2, ``"1p"`` for one
    operand with params, None for anything)."""
    XP_IMPLS[prim] = fn


def _is_int(x) -> bool:
    return x.dtype.kind in "iu"


# --------------------------------------------------------------------------- arithmetic


def _int_div(xp, x, y):
    # Truncating division; x / 0 -> 0 (NumPy's floor_divide also gives 0); min / -1 wraps.
    with np.errstate(divide="ignore", over="ignore"):
        r = xp.fmod(x, y)  # sign of x; 0 where y == 0
        return xp.floor_divide(x - r, y)  # exact, so floor == trunc; 0 // 0 -> 0


def _div(xp, x, y):
    if _is_int(x):
        return _int_div(xp, x, y)
    return xp.true_divide(x, y)


def _rem(xp, x, y):
    if _is_int(x):
        with np.errstate(divide="ignore"):
            return xp.fmod(x, y)  # NumPy's integer fmod gives 0 for y == 0
    return xp.fmod(x, y)


def _pow(xp, x, y):
    if not _is_int(x):
        return xp.power(x, y)
    if x.dtype.kind == "u":
        return xp.power(x, y)
    neg = y < 0
    if not xp.count_nonzero(neg):
        return xp.power(x, y)
    # XLA's rule for negative integer exponents: x ** y rounded towards zero.
    pos = xp.power(x, xp.where(neg, 0, y).astype(x.dtype))
    odd = (y & 1).astype(bool)
    minus_one = xp.where(odd, xp.asarray(-1, x.dtype), xp.asarray(1, x.dtype))
    small = xp.where(x == 1, xp.asarray(1, x.dtype), xp.where(x == -1, minus_one, 0))
    return xp.where(neg, small, pos).astype(x.dtype)


def _integer_pow(xp, x, *, y):
    if y == 0:
        return xp.ones(x.shape, x.dtype)
    if y == 1:
        return x.copy()
    if y == 2:
        return xp.multiply(x, x)
    return xp.power(x, xp.asarray(y, x.dtype) if x.dtype.kind != "c" else y)


def _round(xp, x, *, rounding_method):
    if rounding_method == 1:
        return xp.rint(x)
    t = xp.trunc(x)
    frac = xp.abs(x - t)  # exact
    r = xp.where(frac >= 0.5, t + xp.sign(x), t).astype(x.dtype)
    return xp.copysign(r, x)  # keep the sign of zero results (-0.3 -> -0.0)


_register(lax.add_p, lambda xp, x, y: xp.add(x, y), 2)
_register(lax.sub_p, lambda xp, x, y: xp.subtract(x, y), 2)
_register(lax.mul_p, lambda xp, x, y: xp.multiply(x, y), 2)
_register(lax.div_p, _div, 2)
_register(lax.rem_p, _rem, 2)
_register(lax.pow_p, _pow, 2)
_register(lax.integer_pow_p, _integer_pow, "1p")
_register(lax.max_p, lambda xp, x, y: xp.maximum(x, y), 2)
_register(lax.min_p, lambda xp, x, y: xp.minimum(x, y), 2)
_register(lax.neg_p, lambda xp, x: xp.negative(x), 1)
_register(lax.abs_p, lambda xp, x: xp.absolute(x), 1)
_register(lax.sign_p, lambda xp, x: xp.sign(x), 1)
_register(lax.floor_p, lambda xp, x: xp.floor(x), 1)
_register(lax.ceil_p, lambda xp, x: xp.ceil(x), 1)
_register(lax.round_p, _round, "1p")
_register(lax.is_finite_p, lambda xp, x: xp.isfinite(x), 1)

# --------------------------------------------------------------------------- comparisons

_register(lax.eq_p, lambda xp, x, y: xp.equal(x, y), 2)
_register(lax.ne_p, lambda xp, x, y: xp.not_equal(x, y), 2)
_register(lax.lt_p, lambda xp, x, y: xp.less(x, y), 2)
_register(lax.le_p, lambda xp, x, y: xp.less_equal(x, y), 2)
_register(lax.gt_p, lambda xp, x, y: xp.greater(x, y), 2)
_register(lax.ge_p, lambda xp, x, y: xp.greater_equal(x, y), 2)

# --------------------------------------------------------------------------- logical, bitwise


def _signed(dt: np.dtype) -> np.dtype:
    return np.dtype(f"i{dt.itemsize}")


def _unsigned(dt: np.dtype) -> np.dtype:
    return np.dtype(f"u{dt.itemsize}")


def _shift_right_arithmetic(xp, x, y):
    if x.dtype.kind == "i":
        return xp.right_shift(x, y)  # NumPy: counts outside [0, bits) give the sign fill
    s = _signed(x.dtype)
    return xp.right_shift(x.view(s), y.view(s)).view(x.dtype)


def _shift_right_logical(xp, x, y):
    if x.dtype.kind == "u":
        return xp.right_shift(x, y)
    u = _unsigned(x.dtype)
    return xp.right_shift(x.view(u), y.view(u)).view(x.dtype)


_register(lax.and_p, lambda xp, x, y: xp.bitwise_and(x, y), 2)
_register(lax.or_p, lambda xp, x, y: xp.bitwise_or(x, y), 2)
_register(lax.xor_p, lambda xp, x, y: xp.bitwise_xor(x, y), 2)
_register(lax.not_p, lambda xp, x: xp.invert(x), 1)
# NumPy's shifts give 0 for counts outside [0, bits) (negative counts included), as XLA does
_register(lax.shift_left_p, lambda xp, x, y: xp.left_shift(x, y), 2)
_register(lax.shift_right_arithmetic_p, _shift_right_arithmetic, 2)
_register(lax.shift_right_logical_p, _shift_right_logical, 2)

# --------------------------------------------------------------------------- transcendental


def _logistic(xp, x):
    with np.errstate(over="ignore"):
        return xp.reciprocal(1 + xp.exp(-x))


def _rsqrt(xp, x):
    with np.errstate(divide="ignore"):
        return xp.reciprocal(xp.sqrt(x))


_register(lax.exp_p, lambda xp, x: xp.exp(x), 1)
_register(lax.exp2_p, lambda xp, x: xp.exp2(x), 1)
_register(lax.log_p, lambda xp, x: xp.log(x), 1)
_register(lax.log2_p, lambda xp, x: xp.log2(x), 1)
_register(lax.log10_p, lambda xp, x: xp.log10(x), 1)
_register(lax.log1p_p, lambda xp, x: xp.log1p(x), 1)
_register(lax.expm1_p, lambda xp, x: xp.expm1(x), 1)
_register(lax.sqrt_p, lambda xp, x: xp.sqrt(x), 1)
_register(lax.rsqrt_p, _rsqrt, 1)
_register(lax.cbrt_p, lambda xp, x: xp.cbrt(x), 1)
_register(lax.tanh_p, lambda xp, x: xp.tanh(x), 1)
_register(lax.sin_p, lambda xp, x: xp.sin(x), 1)
_register(lax.cos_p, lambda xp, x: xp.cos(x), 1)
_register(lax.tan_p, lambda xp, x: xp.tan(x), 1)
_register(lax.asin_p, lambda xp, x: xp.arcsin(x), 1)
_register(lax.acos_p, lambda xp, x: xp.arccos(x), 1)
_register(lax.atan_p, lambda xp, x: xp.arctan(x), 1)
_register(lax.atan2_p, lambda xp, x, y: xp.arctan2(x, y), 2)
_register(lax.sinh_p, lambda xp, x: xp.sinh(x), 1)
_register(lax.cosh_p, lambda xp, x: xp.cosh(x), 1)
_register(lax.asinh_p, lambda xp, x: xp.arcsinh(x), 1)
_register(lax.acosh_p, lambda xp, x: xp.arccosh(x), 1)
_register(lax.atanh_p, lambda xp, x: xp.arctanh(x), 1)
_register(lax.logistic_p, _logistic, 1)

# --------------------------------------------------------------------------- complex parts


def _complex(xp, x, y):
    dt = np.result_type(x.dtype, np.complex64)
    out = xp.empty(np.broadcast_shapes(x.shape, y.shape), dt)
    out.real = x
    out.imag = y
    return out


_register(lax.real_p, lambda xp, x: xp.real(x), 1)  # a view, as numpy.real
_register(lax.imag_p, lambda xp, x: xp.imag(x), 1)
_register(lax.conj_p, lambda xp, x: xp.conjugate(x), 1)
_register(lax.complex_p, _complex, 2)

# --------------------------------------------------------------------------- conversions


def _convert(xp, x, *, new_dtype, weak_type):
    if x.dtype.kind == "c" and new_dtype.kind != "c":
        if new_dtype.kind == "b":
            return x != 0
        return xp.real(x).astype(new_dtype)  # NumPy's cast without its ComplexWarning
    return x.astype(new_dtype)


def _bitcast(xp, x, *, new_dtype):
    # NumPy's view resizes the last axis; lax adds (narrower) or consumes (wider) one
    old, new = x.dtype.itemsize, new_dtype.itemsize
    if new == old:
        return x.view(new_dtype)
    if new < old:
        return xp.ascontiguousarray(x).reshape(x.shape + (1,)).view(new_dtype)
    return xp.ascontiguousarray(x).view(new_dtype).reshape(x.shape[:-1])


_register(lax.convert_element_type_p, _convert, "1p")
_register(lax.bitcast_convert_type_p, _bitcast, "1p")

# --------------------------------------------------------------------------- selection


def _select_n(xp, which, *cases):
    if len(cases) == 1:
        shape = np.broadcast_shapes(which.shape, cases[0].shape)
        return xp.broadcast_to(cases[0], shape).copy()
    if which.dtype.kind == "b":
        return xp.where(which, cases[1], cases[0])
    return xp.choose(which, cases, mode="clip")


def _clamp(xp, lo, x, hi):
    return xp.minimum(xp.maximum(x, lo), hi)


_register(lax.select_n_p, _select_n)
_register(lax.clamp_p, _clamp)
