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

import operator

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS

__all__: list = []


def _register(prim, fn, arity: int | str | None = None):
    """``XP_IMPLS[prim] = fn`` (``arity`` documents the call shape: 1, 2, ``"1p"`` for one
    operand with params, None for anything)."""
    XP_IMPLS[prim] = fn


#: primitive -> the name of the NumPy ufunc that is its whole implementation (``xp.<name>``
#: on its operands, no params): a backend whose ``xp`` is NumPy binds the ufunc itself
UFUNC_IMPLS: dict = {}


def _ufunc(prim, name: str, arity: int):
    """``prim``'s implementation is ``xp.<name>`` on its ``arity`` operands (1 or 2)."""
    if arity == 1:
        XP_IMPLS[prim] = lambda xp, x: getattr(xp, name)(x)
    else:
        XP_IMPLS[prim] = lambda xp, x, y: getattr(xp, name)(x, y)
    UFUNC_IMPLS[prim] = name


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


_ufunc(lax.add_p, "add", 2)
_ufunc(lax.sub_p, "subtract", 2)
_ufunc(lax.mul_p, "multiply", 2)
_register(lax.div_p, _div, 2)
_register(lax.rem_p, _rem, 2)
_register(lax.pow_p, _pow, 2)

#: primitive -> the name of the NumPy ufunc that is its whole implementation for operands of
#: a dtype, or None for that dtype (the kinds ``_div``, ``_rem`` and ``_pow`` hand to one ufunc);
#: ``PARAM_KERNELS`` below: the same for primitives with parameters
DTYPE_UFUNCS: dict = {
    lax.div_p: lambda dt: None if dt.kind in "iu" else "true_divide",
    lax.rem_p: lambda dt: None if dt.kind in "iu" else "fmod",
    lax.pow_p: lambda dt: None if dt.kind == "i" else "power",
}
_register(lax.integer_pow_p, _integer_pow, "1p")
_ufunc(lax.max_p, "maximum", 2)
_ufunc(lax.min_p, "minimum", 2)
_ufunc(lax.neg_p, "negative", 1)
_ufunc(lax.abs_p, "absolute", 1)
_ufunc(lax.sign_p, "sign", 1)
_ufunc(lax.floor_p, "floor", 1)
_ufunc(lax.ceil_p, "ceil", 1)
_register(lax.round_p, _round, "1p")
_ufunc(lax.is_finite_p, "isfinite", 1)

# --------------------------------------------------------------------------- comparisons

_ufunc(lax.eq_p, "equal", 2)
_ufunc(lax.ne_p, "not_equal", 2)
_ufunc(lax.lt_p, "less", 2)
_ufunc(lax.le_p, "less_equal", 2)
_ufunc(lax.gt_p, "greater", 2)
_ufunc(lax.ge_p, "greater_equal", 2)

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


_ufunc(lax.and_p, "bitwise_and", 2)
_ufunc(lax.or_p, "bitwise_or", 2)
_ufunc(lax.xor_p, "bitwise_xor", 2)
_ufunc(lax.not_p, "invert", 1)
# NumPy's shifts give 0 for counts outside [0, bits) (negative counts included), as XLA does
_ufunc(lax.shift_left_p, "left_shift", 2)
_register(lax.shift_right_arithmetic_p, _shift_right_arithmetic, 2)
_register(lax.shift_right_logical_p, _shift_right_logical, 2)

# --------------------------------------------------------------------------- transcendental


def _logistic(xp, x):
    with np.errstate(over="ignore"):
        return xp.reciprocal(1 + xp.exp(-x))


def _rsqrt(xp, x):
    with np.errstate(divide="ignore"):
        return xp.reciprocal(xp.sqrt(x))


_ufunc(lax.exp_p, "exp", 1)
_ufunc(lax.exp2_p, "exp2", 1)
_ufunc(lax.log_p, "log", 1)
_ufunc(lax.log2_p, "log2", 1)
_ufunc(lax.log10_p, "log10", 1)
_ufunc(lax.log1p_p, "log1p", 1)
_ufunc(lax.expm1_p, "expm1", 1)
_ufunc(lax.sqrt_p, "sqrt", 1)
_register(lax.rsqrt_p, _rsqrt, 1)
_ufunc(lax.cbrt_p, "cbrt", 1)
_ufunc(lax.tanh_p, "tanh", 1)
_ufunc(lax.sin_p, "sin", 1)
_ufunc(lax.cos_p, "cos", 1)
_ufunc(lax.tan_p, "tan", 1)
_ufunc(lax.asin_p, "arcsin", 1)
_ufunc(lax.acos_p, "arccos", 1)
_ufunc(lax.atan_p, "arctan", 1)
_ufunc(lax.atan2_p, "arctan2", 2)
_ufunc(lax.sinh_p, "sinh", 1)
_ufunc(lax.cosh_p, "cosh", 1)
_ufunc(lax.asinh_p, "arcsinh", 1)
_ufunc(lax.acosh_p, "arccosh", 1)
_ufunc(lax.atanh_p, "arctanh", 1)
_register(lax.logistic_p, _logistic, 1)

# --------------------------------------------------------------------------- complex parts


def _complex(xp, x, y):
    dt = np.result_type(x.dtype, np.complex64)
    out = xp.empty(np.broadcast_shapes(x.shape, y.shape), dt)
    out.real = x
    out.imag = y
    return out


_ufunc(lax.real_p, "real", 1)  # a view, as numpy.real
_ufunc(lax.imag_p, "imag", 1)
_ufunc(lax.conj_p, "conjugate", 1)
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


def _convert_kernel(xp, x, *, new_dtype, weak_type):
    """``_convert`` for operands like ``x`` as a callable without a Python frame (the
    array's own ``astype``), so that a replay's "overflow encountered in cast" names the
    user's line; None from complex to real (``_convert`` takes the real part first)."""
    if x.dtype.kind == "c" and new_dtype.kind != "c":
        return None
    return operator.methodcaller("astype", new_dtype)


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
try:  # a bool `which` on NumPy's arrays: numpy.where in C, no Python frame (replay.c)
    from xnp._native._replay import select_where as _select_where
except ImportError:  # pragma: no cover  (built without the extension)
    _select_where = None
PARAM_KERNELS[lax.select_n_p] = lambda xp, which: (
    _select_where if _select_where is not None and xp is np and which.dtype == np.bool_
    else None)
_register(lax.clamp_p, _clamp)

PARAM_KERNELS[lax.convert_element_type_p] = _convert_kernel
