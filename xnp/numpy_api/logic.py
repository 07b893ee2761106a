"""Comparisons, logical and bitwise functions, floating-point classification and
complex parts (NumPy ufuncs; conventions as in :mod:`xnp.numpy_api.elementwise`)."""

from __future__ import annotations

import functools
import operator

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, binary_operands
from xnp.numpy_api._shape_views import complex_part_view, read_only_view
from xnp.tracing.avals import canonical_dtype
from xnp.numpy_api._ufunc import (
    _BOOL, _INT8,
    _as_dtype, _binary, _binary_inexact, _bool_to_int8, _complex_ge, _complex_has_nan, _copy,
    _copysign, _dtype_of, _extras, _finish, _inexact, _is_nan, _reject, _scalar, _signbit_float,
    _truth, _unary, _zero_like_dtype, _zeros_like, real_operands, scalar_loop_dtype,
)
from xnp.tracing import core
from xnp.tracing.fp_warnings import at_user_line
from xnp.numpy_api import _fastpath as fastpath

__all__ = [
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "invert", "bitwise_invert", "left_shift", "right_shift",
    "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite", "signbit",
    "copysign", "real", "imag", "conj", "conjugate", "angle", "nextafter", "bitwise_count",
]


def _compare_operands(fname, x1, x2, dtype):
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.{fname}: no loop for dtype={dtype!r}; comparisons return bool")
    found = _util.int_out_of_range(x1, x2)
    if found is not None:
        # NumPy 2 (NEP 50): a Python int outside the other operand's integer dtype compares
        # mathematically; every in-range element is on one side of it, so compare
        # 0 (elements, broadcast to their shape) with +1 (int above range) or -1 (below).
        v, other, swapped = found
        zeros = lax.broadcast_in_dim(core.lift(np.zeros((), _INT8)), core.aval_of(other).shape,
                                     ())
        side = core.lift(np.asarray(1 if v > 0 else -1, _INT8))
        return (side, zeros, _INT8) if swapped else (zeros, side, _INT8)
    found = _util.traced_int(x1, x2)
    if found is not None:
        return _traced_int_operands(fname, *found)
    return binary_operands(fname, x1, x2)


def _traced_int_operands(fname, t, other, swapped):
    """Comparison operands for a weak integer tracer ``t`` (a Python int argument of jit)
    and an integer ``other``: exact for every value of ``t``, as NumPy compares an
    out-of-range Python int. ``t`` limited to ``other``'s range is compared; where it was
    outside, the pair becomes (1, 0) (every element is above ``t``) or (0, 1) (below)."""
    other = asarray_for(fname, other)
    dt = core.aval_of(other).dtype
    own, info = np.iinfo(t.aval.dtype), np.iinfo(dt)
    tc = lax.convert_element_type(_util.clamp_traced_int(t, dt), dt)
    x = other
    for outside, x_side in ((info.min > own.min and lax.lt(t, _lit(info.min, t)), 1),
                            (info.max < own.max and lax.gt(t, _lit(info.max, t)), 0)):
        if outside is not False:
            x = lax.select(outside, lax.broadcast_in_dim(_lit(x_side, dt), core.aval_of(x).shape,
                                                         ()), x)
            tc = lax.select(outside, _lit(1 - x_side, dt), tc)
    return (tc, x, dt) if swapped else (x, tc, dt)


def _lit(value, like):
    dt = like if isinstance(like, np.dtype) else like.aval.dtype
    return core.lift(np.asarray(value, dt))


def _ordered(fname, x1, x2, dtype, lax_op, swap, strict):
    """``lax_op(a, b)`` for real dtypes; NumPy's lexicographic order for complex, eagerly
    NumPy's own loop (a composite: its 'invalid value' warning where a NaN is compared)."""
    a, b, dt = _compare_operands(fname, x1, x2, dtype)
    if dt.kind == "c":
        return lax.composite(fname, _COMPLEX_ORDER[swap, strict], a, b, out_dtype=_BOOL)
    return lax_op(a, b)


#: NumPy's complex order as decompositions, by (swapped operands, strict)
_COMPLEX_ORDER = {(s, t): functools.partial(
    lambda swap, strict, a, b: _complex_ge(b, a, strict) if swap else _complex_ge(a, b, strict),
    s, t) for s in (False, True) for t in (False, True)}


@fastpath.binary("equal")
def equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Elementwise ``x1 == x2`` (bool); NaN is unequal to everything."""
    _extras("equal", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = _compare_operands("equal", x1, x2, dtype)
    return _finish("equal", lax.eq(a, b), out, where, casting)


@fastpath.binary("not_equal")
def not_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Elementwise ``x1 != x2`` (bool)."""
    _extras("not_equal", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = _compare_operands("not_equal", x1, x2, dtype)
    return _finish("not_equal", lax.ne(a, b), out, where, casting)


@fastpath.binary("less")
def less(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise ``x1 < x2`` (bool; complex: lexicographic, as NumPy)."""
    _extras("less", casting, order, subok, signature, dtype, (x1, x2))
    res = _ordered("less", x1, x2, dtype, lax.lt, True, True)
    return _finish("less", res, out, where, casting)


@fastpath.binary("less_equal")
def less_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Elementwise ``x1 <= x2`` (bool; complex: lexicographic)."""
    _extras("less_equal", casting, order, subok, signature, dtype, (x1, x2))
    res = _ordered("less_equal", x1, x2, dtype, lax.le, True, False)
    return _finish("less_equal", res, out, where, casting)


@fastpath.binary("greater")
def greater(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise ``x1 > x2`` (bool; complex: lexicographic)."""
    _extras("greater", casting, order, subok, signature, dtype, (x1, x2))
    res = _ordered("greater", x1, x2, dtype, lax.gt, False, True)
    return _finish("greater", res, out, where, casting)


@fastpath.binary("greater_equal")
def greater_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                  dtype=None, subok=True, signature=None):
    """Elementwise ``x1 >= x2`` (bool; complex: lexicographic)."""
    _extras("greater_equal", casting, order, subok, signature, dtype, (x1, x2))
    res = _ordered("greater_equal", x1, x2, dtype, lax.ge, False, False)
    return _finish("greater_equal", res, out, where, casting)


# =========================================================================== logic and bits




def _logical(fname, lax_op, x1, x2, dtype):
    """NumPy's logical loops take each operand's truth value, whatever its dtype: a Python
    scalar counts as its ``bool`` (NumPy converts a Python int to C ``long`` first, so one
    outside int64 raises ``OverflowError``), and a Python int argument of ``jit`` (a weak
    integer tracer) as ``t != 0`` in its own dtype, never converted to the other's."""
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.{fname}: no loop for dtype={dtype!r}; logical functions return "
                        "bool")
    x1, x2 = _truth_of_python_scalar(fname, x1), _truth_of_python_scalar(fname, x2)
    found = _util.traced_int(x1, x2)
    if found is not None:
        t, other, swapped = found
        t, other = lax.ne(t, _lit(0, t)), _truth(asarray_for(fname, other))
        return lax_op(other, t) if not swapped else lax_op(t, other)
    a, b, _ = binary_operands(fname, x1, x2)
    return lax.composite(fname, _LOGICAL[lax_op], a, b, out_dtype=_BOOL)


def _truth_of_python_scalar(fname, x):
    """A Python scalar's truth. NumPy casts a Python float or complex to its bool loop from
    float64 (complex128): a signalling NaN's cast signals 'invalid' ("invalid value
    encountered in cast", under the caller's ``errstate``, at the user's line)."""
    t = type(x)
    if t is int and not -2**63 <= x < 2**63:
        raise OverflowError(f"xnp.{fname}: Python int {x} too large to convert to C long "
                            "(NumPy's logical loops take Python ints as int64)")
    if (t is float or t is complex) and x != x:
        at_user_line(np.asarray(x).astype, _BOOL)
    return bool(x) if t in (int, float, complex) else x


def _truth_op(lax_op):
    def decomposition(a, b):
        return lax_op(_truth(a), _truth(b))

    return decomposition


def _logical_not(x):
    return lax.not_(_truth(x))


# the decomposition of each logical operation: made once, so each is one function
_LOGICAL = {op: _truth_op(op) for op in (lax.and_, lax.or_, lax.xor)}


def logical_and(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Truth-value AND (bool result; non-zero is true)."""
    _extras("logical_and", casting, order, subok, signature, dtype, (x1, x2))
    res = _logical("logical_and", lax.and_, x1, x2, dtype)
    return _finish("logical_and", res, out, where, casting)


def logical_or(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Truth-value OR (bool result)."""
    _extras("logical_or", casting, order, subok, signature, dtype, (x1, x2))
    res = _logical("logical_or", lax.or_, x1, x2, dtype)
    return _finish("logical_or", res, out, where, casting)


def logical_xor(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Truth-value XOR (bool result)."""
    _extras("logical_xor", casting, order, subok, signature, dtype, (x1, x2))
    res = _logical("logical_xor", lax.xor, x1, x2, dtype)
    return _finish("logical_xor", res, out, where, casting)


def logical_not(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
                subok=True, signature=None):
    """Truth-value NOT (bool result)."""
    _extras("logical_not", casting, order, subok, signature, dtype, (x,))
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.logical_not: no loop for dtype={dtype!r}")
    x = asarray_for("logical_not", x, "x")
    res = lax.composite("logical_not", _logical_not, x, out_dtype=_BOOL)
    return _finish("logical_not", res, out, where, casting)


def _integer_operands(fname, x1, x2, dtype, casting):
    loop = scalar_loop_dtype(fname, x1, x2, dtype)  # (an inexact loop: before any conversion)
    if loop is not None:
        _reject(fname, np.empty(0, loop), "fcV", "needs integer or bool inputs",
                inputs=(x1, x2))
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    _reject(fname, a, "fcV", "needs integer or bool inputs", inputs=(x1, x2))
    return a, b, dt


@fastpath.binary("bitwise_and")
def bitwise_and(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Bitwise AND of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_and", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = _integer_operands("bitwise_and", x1, x2, dtype, casting)
    return _finish("bitwise_and", lax.and_(a, b), out, where, casting)


@fastpath.binary("bitwise_or")
def bitwise_or(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Bitwise OR of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_or", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = _integer_operands("bitwise_or", x1, x2, dtype, casting)
    return _finish("bitwise_or", lax.or_(a, b), out, where, casting)


@fastpath.binary("bitwise_xor")
def bitwise_xor(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Bitwise XOR of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_xor", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = _integer_operands("bitwise_xor", x1, x2, dtype, casting)
    return _finish("bitwise_xor", lax.xor(a, b), out, where, casting)


def invert(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Bitwise NOT of integers (logical NOT for bool); floats raise ``TypeError``."""
    _extras("invert", casting, order, subok, signature, dtype, (x,))
    x = _unary("invert", x, dtype, casting)
    _reject("invert", x, "fcV", "needs integer or bool input")
    return _finish("invert", lax.not_(x), out, where, casting)


bitwise_not = invert
bitwise_invert = invert


def left_shift(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """``x1 << x2`` for integers (bool computes in int8); a count outside ``[0, bits)``
    gives 0, as NumPy; floats raise ``TypeError``."""
    _extras("left_shift", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _integer_operands("left_shift", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("left_shift", a, b, dt, dtype)
    return _finish("left_shift", lax.shift_left(a, b), out, where, casting)


def right_shift(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """``x1 >> x2``: arithmetic for signed, logical for unsigned integers; a count outside
    ``[0, bits)`` gives 0, or -1 for negative ``x1``, as NumPy; floats raise ``TypeError``."""
    _extras("right_shift", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _integer_operands("right_shift", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("right_shift", a, b, dt, dtype)
    op = lax.shift_right_logical if dt.kind == "u" else lax.shift_right_arithmetic
    return _finish("right_shift", op(a, b), out, where, casting)


bitwise_left_shift = left_shift
bitwise_right_shift = right_shift


def bitwise_count(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
                  subok=True, signature=None):
    """Number of 1-bits in the absolute value of ``x`` (NumPy 2's ``bitwise_count``).

    Integer or bool ``x`` (floats and complex raise ``TypeError``); result ``uint8`` of
    ``x``'s shape. ``bitwise_count(-128 as int8)`` is 1 (``|x|`` wraps to itself).
    ``dtype=`` may only name uint8, as NumPy's loops (another dtype: ``TypeError``).
    """
    _extras("bitwise_count", casting, order, subok, signature, dtype, (x,))
    if dtype is not None and canonical_dtype(dtype, name="dtype") != np.dtype(np.uint8):
        raise TypeError(f"xnp.bitwise_count: no loop matching dtype="
                        f"{np.dtype(dtype).name}: NumPy's loops all give uint8 (No loop "
                        "matching the specified signature and casting was found for ufunc "
                        "bitwise_count)")
    x = _unary("bitwise_count", x, None, casting)
    _reject("bitwise_count", x, "fcV", "needs integer or bool input")
    # eagerly NumPy's bitwise_count ufunc (one loop); traced the steps below
    res = lax.composite("bitwise_count", _bitwise_count_steps, x, out_dtype=np.uint8)
    return _finish("bitwise_count", res, out, where, casting)


def _bitwise_count_steps(x):
    """The 1-bits of ``|x|`` (bool: of its 0 or 1) as uint8."""
    kind = _dtype_of(x).kind
    if kind == "b":
        x = lax.convert_element_type(x, np.dtype(np.uint8))
    elif kind == "i":
        x = lax.abs(x)
    return lax.convert_element_type(lax.population_count(x), np.dtype(np.uint8))


# =========================================================================== classification


def _predicate_operand(fname, x, dtype):
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.{fname}: no loop for dtype={dtype!r}; the result is bool")
    return asarray_for(fname, x, "x")


def isnan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """True where ``x`` is NaN (either part for complex); always False for integers/bool."""
    _extras("isnan", casting, order, subok, signature, dtype, (x,))
    x = _predicate_operand("isnan", x, dtype)
    res = _complex_has_nan(x) if _dtype_of(x).kind == "c" else _is_nan(x)
    return _finish("isnan", res, out, where, casting)


def _is_inf(x):
    return lax.eq(lax.abs(x), _scalar(np.inf, _dtype_of(x)))


def isinf(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """True where ``x`` is +-inf (either part for complex); always False for integers/bool."""
    _extras("isinf", casting, order, subok, signature, dtype, (x,))
    x = _predicate_operand("isinf", x, dtype)
    kind = _dtype_of(x).kind
    if kind == "c":
        res = lax.or_(_is_inf(lax.real(x)), _is_inf(lax.imag(x)))
    elif kind in "biu":
        res = lax.ne(x, x)
    else:
        res = lax.composite("isinf", _is_inf, x, out_dtype=_BOOL)
    return _finish("isinf", res, out, where, casting)


def isfinite(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """True where ``x`` is neither inf nor NaN (both parts for complex); always True
    for integers/bool."""
    _extras("isfinite", casting, order, subok, signature, dtype, (x,))
    x = _predicate_operand("isfinite", x, dtype)
    kind = _dtype_of(x).kind
    if kind == "c":
        res = lax.and_(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    elif kind in "biu":
        res = lax.eq(x, x)
    else:
        res = lax.is_finite(x)
    return _finish("isfinite", res, out, where, casting)




def signbit(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """True where the sign bit is set (``-0.0`` included; ``x < 0`` for integers);
    complex raises ``TypeError``."""
    _extras("signbit", casting, order, subok, signature, dtype, (x,))
    x = _predicate_operand("signbit", x, dtype)
    kind = _dtype_of(x).kind
    _reject("signbit", x, "c", "complex numbers have no sign bit")
    if kind in "bu":
        res = lax.ne(x, x)
    elif kind == "i":
        res = lax.lt(x, _zero_like_dtype(x))
    else:
        res = lax.composite("signbit", _signbit_float, x, out_dtype=_BOOL)
    return _finish("signbit", res, out, where, casting)


def copysign(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """``|x1|`` with the sign bit of ``x2`` (real floats; integers convert as for ``sin``)."""
    _extras("copysign", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = real_operands("copysign", _binary_inexact, x1, x2, dtype, casting,
                            "real inputs only")
    return _finish("copysign", lax.composite("copysign", _copysign, a, b), out, where,
                   casting)


def nextafter(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """The next representable float after ``x1`` towards ``x2``, elementwise.

    Follows ``numpy.nextafter``. Dtypes: real floats; integers and bool convert to the
    float NumPy picks its loop in (bool and int8 -> float16, int32/int64 -> float64;
    Python scalars are weak); complex raises ``TypeError``. Shapes broadcast. NaN if
    either is NaN; from ±0 the smallest subnormal with ``x2``'s sign; from the largest
    finite value to inf. Where ``x1 == x2`` the result is ``x2`` (``x1`` for float16, as
    NumPy's float16 loop: it matters for ``nextafter(0.0, -0.0)``).
    """
    _extras("nextafter", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = real_operands("nextafter", _binary_inexact, x1, x2, dtype, casting,
                             "real inputs only")
    res = lax.nextafter(a, b)
    if dt == np.float16:  # both zeros (bit test: XLA's CPU compares flush subnormals)
        magnitude = np.asarray(0x7FFF, np.int16)
        zero = np.asarray(0, np.int16)
        both_zero = lax.eq(lax.and_(lax.or_(lax.bitcast_convert_type(a, np.int16),
                                            lax.bitcast_convert_type(b, np.int16)),
                                    magnitude), zero)
        res = lax.select(both_zero, a, res)
    return _finish("nextafter", res, out, where, casting)


# =========================================================================== complex parts


def real(val):
    """Real part (the real dtype for complex input; other input is returned as is)."""
    x = asarray_for("real", val, "val")
    return complex_part_view(x, "real") if _dtype_of(x).kind == "c" else x


def imag(val):
    """Imaginary part (the real dtype for complex input; zeros of ``val``'s dtype otherwise,
    read-only as NumPy's: writing into them raises ``ValueError``)."""
    x = asarray_for("imag", val, "val")
    if _dtype_of(x).kind == "c":
        return complex_part_view(x, "imag")
    return read_only_view(x, _zeros_like, operator.attrgetter("imag"))  # (no Python frame)


def set_part(part, value) -> None:
    """``part[...] = value`` as the ``real``/``imag`` attribute setters of an array write
    ``part`` (a real view, or the real array itself): NumPy's setters convert ``value`` as
    an array and cast it unsafely, so a complex value's imaginary part is discarded with
    NumPy's ComplexWarning at the user's line (a cast to bool takes the truth silently; item
    assignment of a complex raises ``TypeError``) and a Python int wraps into an unsigned
    part."""
    if not _util.is_xnp(value):
        as_array = np.asarray(value)
        if as_array.dtype != object:  # (a Python int beyond int64: xnp's own conversion)
            value = as_array
    kind = value.dtype.kind if isinstance(value, np.ndarray) else (
        _dtype_of(value).kind if _util.is_xnp(value) else "O")
    if kind == "c" and _dtype_of(part).kind not in "cb":
        _util.warn_complex_to_real()
        value = real(value)
    at_user_line(part.__setitem__, ..., value)  # (a cast's warnings: the user's line)


def conjugate(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Complex conjugate; real input is copied unchanged (bool gives int8, as NumPy)."""
    _extras("conjugate", casting, order, subok, signature, dtype, (x,))
    x = _unary("conjugate", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        x = _as_dtype("conjugate", x, _INT8)
    res = lax.conj(x) if _dtype_of(x).kind == "c" else _copy(x)
    return _finish("conjugate", res, out, where, casting)


conj = conjugate


def angle(z, deg=False):
    """Counterclockwise angle from the positive real axis, in ``(-pi, pi]`` (degrees if
    ``deg``); ``arctan2(imag(z), real(z))``. Real input gives 0 or pi (in float)."""
    x = asarray_for("angle", z, "z")
    if _dtype_of(x).kind == "c":
        res = lax.atan2(lax.imag(x), lax.real(x))
    else:
        if _dtype_of(x).kind == "b":  # NumPy: arctan2(0, z) promotes bool with the int 0
            x = _as_dtype("angle", x, _util.default_int())
        x = _inexact("angle", x)
        res = lax.atan2(_zero_like_dtype(x), x)
    if deg:
        res = lax.mul(res, _scalar(180.0 / np.pi, _dtype_of(res)))
    return res


# =========================================================================== selection
