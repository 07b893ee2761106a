"""Elementwise functions (NumPy's ufuncs and friends), written on ``xnp.lax``.

Conventions shared by every ufunc here (stated once instead of in each docstring):

* Signature: NumPy's, ``f(x1, x2, /, out=None, *, where=True, casting='same_kind',
  order='K', dtype=None, subok=True, signature=None)`` (one operand for unary ufuncs).
* Operands: xnp arrays, NumPy arrays/scalars, Python scalars, nested sequences;
  anything else raises ``TypeError`` naming the function. Shapes broadcast as in
  NumPy; incompatible shapes raise ``ValueError`` naming the function and shapes.
* Dtypes: NumPy 2 promotion (NEP 50): Python scalars are weak and take the other
  operand's dtype (an out-of-range Python int raises ``OverflowError``). Functions
  that compute in floating point (``sin``, ``sqrt``, ...) take bool/int8/uint8 to
  float16, int16/uint16 to float32 and wider integers to float64, as NumPy does;
  ``divide`` takes all integers to float64.
* ``dtype=``: the inputs are cast to it (``casting`` rule checked, ``TypeError``
  otherwise) and the loop runs in it.
* ``out=``: written in place eagerly (``same_kind`` casting, or ``casting``);
  under ``jit`` the traced ``out`` is rebound (functionalized).
* ``where=``: needs ``out=`` (NumPy leaves masked-out elements uninitialised
  without it, which xnp cannot reproduce): ``NotImplementedError`` otherwise.
  Masked-out elements keep ``out``'s values.
* ``order``: results are C-contiguous; ``order='F'`` raises ``NotImplementedError``.
  ``subok`` has no effect (xnp has no subclasses); ``signature=`` is not supported.
* Results are xnp arrays (0-d for 0-d inputs), weakly typed when every input was
  a Python scalar; comparisons and predicates return bool, never weak.

Where XLA's arithmetic differs from NumPy's, the lax primitives or the
compositions here produce NumPy's answer on every backend: integer division
and remainder by zero give 0, ``floor_divide``/``remainder`` follow Python's
floor rules (built from truncating ``lax.div``/``lax.rem``, as JAX does),
shifts by at least the bit width give 0 (or -1 for negative arithmetic shifts),
``maximum``/``minimum`` propagate NaN while ``fmax``/``fmin`` ignore it, and
``rint``/``round`` round halfway cases to even.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, binary_operands, broadcast_arrays, write_out
from xnp.tracing import core
from xnp.tracing.avals import canonical_dtype

__all__ = [
    # arithmetic
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod",
    "fmod", "divmod", "power", "pow", "float_power", "negative", "positive", "absolute", "abs",
    "fabs", "sign", "square", "reciprocal", "maximum", "minimum", "fmax", "fmin",
    # rounding
    "floor", "ceil", "trunc", "rint", "round", "around",
    # exponents, logarithms, roots
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sqrt",
    "cbrt", "hypot",
    # trigonometric, hyperbolic
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "asin", "acos", "atan", "atan2", "asinh", "acosh",
    "atanh", "deg2rad", "rad2deg", "degrees", "radians",
    # comparisons, logic, bits
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "invert", "bitwise_invert", "left_shift", "right_shift",
    "bitwise_left_shift", "bitwise_right_shift",
    # floating-point classification and sign
    "isnan", "isinf", "isfinite", "signbit", "copysign",
    # complex
    "real", "imag", "conj", "conjugate", "angle",
    # selection
    "where", "clip",
]

_PY_SCALARS = (int, float, complex, bool)
_BOOL = np.dtype(np.bool_)
_INT8 = np.dtype(np.int8)
_F16 = np.dtype(np.float16)
_NoValue = getattr(np, "_NoValue", None)
_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))


# =========================================================================== helpers


def _extras(fname, casting, order, subok, signature):
    """Reject the ufunc keywords xnp cannot honour (see the module docstring)."""
    if casting not in ("same_kind", "unsafe", "safe", "equiv", "no"):
        raise ValueError(f"xnp.{fname}: casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe', got {casting!r}")
    if order not in ("K", "A", "C", None):
        raise NotImplementedError(f"xnp.{fname}: `order={order!r}` is not supported: xnp "
                                  "results are always C-contiguous")
    if signature is not None:
        raise NotImplementedError(f"xnp.{fname}: `signature=` is not supported; use dtype= "
                                  "or cast the inputs")


def _dtype_of(x) -> np.dtype:
    return x.dtype


_FLOAT_DTYPES: dict = {}


def _float_dtype(dt: np.dtype) -> np.dtype:
    """The dtype NumPy's float functions compute in (bool -> float16, as NumPy)."""
    key = (dt, _util.default_float())
    out = _FLOAT_DTYPES.get(key)
    if out is None:
        out = _FLOAT_DTYPES[key] = _F16 if dt.kind == "b" else _util.to_inexact_dtype(dt)
    return out


def _cast(fname, x, dt, casting, i=0):
    """``x`` cast to ``dt`` for ``dtype=``, checking the ``casting`` rule as NumPy does."""
    src = _dtype_of(x)
    if src == dt:
        return x
    if not np.can_cast(src, dt, casting):
        raise TypeError(f"xnp.{fname}: cannot cast input {i} from {src} to {dt} with casting "
                        f"rule {casting!r}")
    return lax.convert_element_type(x, dt, weak_type=False)


def _as_dtype(fname, x, dt):
    """``x`` converted to ``dt`` keeping its weak type (promotion inside a function)."""
    if _dtype_of(x) == dt:
        return x
    return lax.convert_element_type(x, dt, weak_type=x.weak_type)


def _binary(fname, x1, x2, dtype, casting):
    """Promoted, rank-broadcast operands and their dtype (``dtype=`` applied)."""
    a, b, dt = binary_operands(fname, x1, x2)
    if dtype is not None:
        dt = canonical_dtype(dtype)
        a, b = _cast(fname, a, dt, casting, 0), _cast(fname, b, dt, casting, 1)
    return a, b, dt


def _unary(fname, x, dtype, casting):
    x = asarray_for(fname, x, "x")
    if dtype is not None:
        x = _cast(fname, x, canonical_dtype(dtype), casting)
    return x


def _inexact(fname, x, dtype=None, casting="same_kind", argname="x"):
    """``x`` in the dtype NumPy's float functions compute in (ints -> float)."""
    if type(x) in _PY_SCALARS and dtype is None:
        # convert on the host: a literal, like JAX (no convert equation)
        dt = _float_dtype(core.python_scalar_dtype(x))
        return core.lift(np.asarray(x, dt), weak_type=type(x) is not bool)
    x = asarray_for(fname, x, argname)
    if dtype is not None:
        dt = canonical_dtype(dtype)
        if dt.kind not in "fcV":
            raise TypeError(f"xnp.{fname}: no loop for dtype={dt}; it needs an inexact dtype")
        return _cast(fname, x, dt, casting)
    return _as_dtype(fname, x, _float_dtype(_dtype_of(x)))


def _binary_inexact(fname, x1, x2, dtype, casting, *, default_float=False):
    """Promoted operands moved to the float dtype (ints -> float64 if ``default_float``).

    Otherwise the float dtype comes from each (non-weak) operand's own dtype, as NumPy
    picks its loop: int8 with uint8 computes in float16, not in float32 via int16.
    """
    if type(x1) not in _PY_SCALARS:
        x1 = asarray_for(fname, x1, "x1")
    if type(x2) not in _PY_SCALARS:
        x2 = asarray_for(fname, x2, "x2")
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    if dt.kind in "biu":
        if dtype is not None:
            raise TypeError(f"xnp.{fname}: no loop for dtype={dt}; it needs an inexact dtype")
        if default_float:
            dt = _util.default_float()
        else:
            strong = [_float_dtype(_dtype_of(v)) for v in (x1, x2)
                      if type(v) not in _PY_SCALARS and not v.weak_type]
            dt = np.result_type(*strong) if strong else _float_dtype(dt)
        a, b = _as_dtype(fname, a, dt), _as_dtype(fname, b, dt)
    return a, b, dt


def _finish(fname, res, out, where, casting="same_kind"):
    """Apply ``where=`` and ``out=`` to a result."""
    if where is not True and not (type(where) is np.bool_ and where):
        if out is None:
            raise NotImplementedError(
                f"xnp.{fname}: `where=` needs `out=`: NumPy leaves the masked-out elements "
                "uninitialised, which xnp does not reproduce. Pass out= (masked-out elements "
                "keep its values) or use xnp.where(mask, result, fallback).")
        target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
        res = _out_cast(fname, res, target, casting)
        mask = asarray_for(fname, where, "where")
        if _dtype_of(mask) != _BOOL:
            mask = lax.ne(mask, _zero_like_dtype(mask))
        (mask, old, new), _ = broadcast_arrays(fname, mask, target, res)
        res = lax.select_n(mask, old, new)
    elif out is None:
        return res
    elif casting != "same_kind":
        target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
        res = _out_cast(fname, res, target, casting)
    return write_out(fname, out, res)


def _out_cast(fname, res, out, casting):
    if not _util.is_xnp(out):
        raise TypeError(f"xnp.{fname}: `out` must be an xnp array, got {type(out).__name__}")
    src, dst = _dtype_of(res), _dtype_of(out)
    if src == dst:
        return res
    if not np.can_cast(src, dst, casting):
        raise TypeError(f"xnp.{fname}: cannot cast the result from {src} to `out` dtype {dst} "
                        f"with casting rule {casting!r}")
    return lax.convert_element_type(res, dst)


def _zero_like_dtype(x):
    """A 0-d zero of ``x``'s dtype (broadcasts in lax ops)."""
    return core.lift(np.zeros((), _dtype_of(x)))


def _scalar(value, dt):
    """A 0-d constant of dtype ``dt``."""
    return core.lift(np.asarray(value, dt))


def _copy(x):
    """A new array equal to ``x`` (NumPy's ufuncs never alias their input); no-op when traced."""
    if isinstance(x, core.Tracer):
        return x
    return lax.convert_element_type(x, _dtype_of(x), weak_type=x.weak_type)


def _zeros_like(x):
    """Zeros with ``x``'s shape and dtype."""
    z = _zero_like_dtype(x)
    if x.shape == ():
        return z
    return lax.broadcast_in_dim(z, x.shape, ())


def _is_nan(x):
    return lax.ne(x, x)


def _not_nan(x):
    return lax.eq(x, x)


def _reject(fname, x, kinds, what):
    """``TypeError`` (NumPy's class) if the dtype kind of ``x`` is in ``kinds``."""
    dt = _dtype_of(x)
    if dt.kind in kinds:
        raise TypeError(f"xnp.{fname}: not supported for {dt} input ({what})")


def _bool_to_int8(fname, a, b, dt):
    """NumPy has no bool loop for some integer ufuncs: bool computes in int8."""
    if dt.kind == "b":
        return _as_dtype(fname, a, _INT8), _as_dtype(fname, b, _INT8), _INT8
    return a, b, dt


# =========================================================================== arithmetic


def add(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Elementwise ``x1 + x2``. Bool inputs give bool (logical or), as NumPy."""
    _extras("add", casting, order, subok, signature)
    a, b, dt = _binary("add", x1, x2, dtype, casting)
    res = lax.or_(a, b) if dt.kind == "b" else lax.add(a, b)
    return _finish("add", res, out, where, casting)


def subtract(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``x1 - x2``. Bool inputs raise ``TypeError`` (as NumPy; use logical_xor)."""
    _extras("subtract", casting, order, subok, signature)
    a, b, dt = _binary("subtract", x1, x2, dtype, casting)
    if dt.kind == "b":
        raise TypeError("xnp.subtract: boolean subtract (the `-` operator) is not supported; "
                        "use the bitwise_xor (`^`) or logical_xor function instead.")
    return _finish("subtract", lax.sub(a, b), out, where, casting)


def multiply(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``x1 * x2``. Bool inputs give bool (logical and), as NumPy."""
    _extras("multiply", casting, order, subok, signature)
    a, b, dt = _binary("multiply", x1, x2, dtype, casting)
    res = lax.and_(a, b) if dt.kind == "b" else lax.mul(a, b)
    return _finish("multiply", res, out, where, casting)


def divide(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """True division ``x1 / x2``. Bool and integer inputs give float64 (as NumPy);
    division by zero gives inf/NaN as IEEE (NumPy also warns eagerly)."""
    _extras("divide", casting, order, subok, signature)
    a, b, _ = _binary_inexact("divide", x1, x2, dtype, casting, default_float=True)
    return _finish("divide", lax.div(a, b), out, where, casting)


true_divide = divide


def _int_floor_divmod(a, b, dt, want_div, want_mod):
    """Floor division/modulo of integers from truncating lax.div/lax.rem.

    lax gives 0 for a zero divisor (NumPy's answer); the remainder is 0 there, so no
    adjustment happens and both results stay 0.
    """
    r = lax.rem(a, b)
    q = lax.div(a, b) if want_div else None
    if dt.kind == "u":
        return q, r
    zero = _scalar(0, dt)
    # floor and trunc differ when the remainder is non-zero and its sign differs from b's
    adjust = lax.and_(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(b, zero)))
    if want_div:
        q = lax.select(adjust, lax.sub(q, _scalar(1, dt)), q)
    if want_mod:
        r = lax.select(adjust, lax.add(r, b), r)
    return q, r


def _copysign(x, s):
    """``|x|`` with the sign bit of ``s`` (floating; equal dtypes)."""
    ax = lax.abs(x)
    return lax.select(_signbit_float(s), lax.neg(ax), ax)


def _float_floor_divmod(a, b, dt, want_div, want_mod):
    """NumPy's ``npy_divmod`` for floats, step by step (see numpy/npy_math)."""
    zero = _scalar(0, dt)
    mod = lax.rem(a, b)  # fmod
    b_zero = lax.eq(b, zero)
    div = lax.div(lax.sub(a, mod), b)
    adjust = lax.and_(lax.ne(mod, zero), lax.ne(lax.lt(b, zero), lax.lt(mod, zero)))
    q = r = None
    if want_mod:
        r = lax.select(adjust, lax.add(mod, b), mod)
        r = lax.select(lax.eq(r, zero), _copysign(r, b), r)  # a zero remainder takes b's sign
        r = lax.select(b_zero, mod, r)  # b == 0: fmod's NaN
    if want_div:
        div = lax.select(adjust, lax.sub(div, _scalar(1, dt)), div)
        fl = lax.floor(div)
        fl = lax.select(lax.gt(lax.sub(div, fl), _scalar(0.5, dt)), lax.add(fl, _scalar(1, dt)),
                        fl)
        true_q = lax.div(a, b)
        fl = lax.select(lax.eq(div, zero), _copysign(div, true_q), fl)  # signed zero of a / b
        q = lax.select(b_zero, true_q, fl)  # b == 0: a / b (inf or NaN)
    return q, r


def _floor_divmod(fname, x1, x2, dtype, casting, want_div, want_mod):
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    _reject(fname, a, "c", "complex numbers have no floor division")
    a, b, dt = _bool_to_int8(fname, a, b, dt)
    if dt.kind in "iu":
        return _int_floor_divmod(a, b, dt, want_div, want_mod)
    return _float_floor_divmod(a, b, dt, want_div, want_mod)


def floor_divide(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                 dtype=None, subok=True, signature=None):
    """Floor division ``x1 // x2`` (Python's rule: rounds towards -inf).

    Integers: ``x // 0`` is 0 and ``iinfo.min // -1`` wraps (NumPy's answers, also under
    jit). Floats: NumPy's ``divmod`` algorithm (``x // 0.0`` is ``x / 0.0``). Bool inputs
    give int8; complex raises ``TypeError``.
    """
    _extras("floor_divide", casting, order, subok, signature)
    q, _ = _floor_divmod("floor_divide", x1, x2, dtype, casting, True, False)
    return _finish("floor_divide", q, out, where, casting)


def remainder(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Remainder with the sign of the divisor (Python's ``%``); ``x % 0`` is 0 for
    integers, NaN for floats. Bool inputs give int8; complex raises ``TypeError``."""
    _extras("remainder", casting, order, subok, signature)
    _, r = _floor_divmod("remainder", x1, x2, dtype, casting, False, True)
    return _finish("remainder", r, out, where, casting)


mod = remainder


def fmod(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Remainder with the sign of the dividend (C ``fmod``); integer ``fmod(x, 0)`` is 0."""
    _extras("fmod", casting, order, subok, signature)
    a, b, dt = _binary("fmod", x1, x2, dtype, casting)
    _reject("fmod", a, "c", "complex numbers have no remainder")
    a, b, dt = _bool_to_int8("fmod", a, b, dt)
    return _finish("fmod", lax.rem(a, b), out, where, casting)


def divmod(x1, x2, /, out=(None, None), *, where=True, casting="same_kind", order="K",  # noqa: A001
           dtype=None, subok=True, signature=None):
    """``(floor_divide(x1, x2), remainder(x1, x2))``, sharing the work.

    ``out``: a pair of arrays (or ``(None, None)``).
    """
    _extras("divmod", casting, order, subok, signature)
    q, r = _floor_divmod("divmod", x1, x2, dtype, casting, True, True)
    if out is None:
        out = (None, None)
    if not isinstance(out, tuple) or len(out) != 2:
        raise TypeError("xnp.divmod: `out` must be a tuple of two arrays (or None)")
    return (_finish("divmod", q, out[0], where, casting),
            _finish("divmod", r, out[1], where, casting))


def _is_concrete_negative(x) -> bool:
    """True if ``x`` holds a concrete value with a negative element (False when traced)."""
    if isinstance(x, core.Tracer):
        v = x.to_concrete_value()
        if v is None:
            return False
        return bool(np.any(np.asarray(v) < 0))
    if type(x) is core.Array:
        return bool((x._value < 0).any())
    return bool(np.any(np.asarray(x) < 0))


def power(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Elementwise ``x1 ** x2``.

    A Python int exponent becomes ``lax.integer_pow`` (repeated squaring, like JAX).
    Integer bases with a negative integer exponent raise ``ValueError`` when the exponent
    is concrete (as NumPy); under ``jit`` a traced negative exponent gives
    ``x ** y`` rounded towards zero (1 for ``x == 1``, +-1 for ``x == -1``, else 0).
    Bool ** bool gives int8. Integer overflow wraps.
    """
    _extras("power", casting, order, subok, signature)
    a, b, dt = _binary("power", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("power", a, b, dt)
    if dt.kind in "iu":
        if _is_concrete_negative(x2):
            raise ValueError("xnp.power: integers to negative integer powers are not allowed.")
    if type(x2) is int:
        return _finish("power", lax.integer_pow(a, x2), out, where, casting)
    return _finish("power", lax.pow(a, b), out, where, casting)


pow = power  # noqa: A001  (Array API spelling)


def float_power(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """``x1 ** x2`` computed in float64 (complex128 for complex inputs), as NumPy."""
    _extras("float_power", casting, order, subok, signature)
    a, b, dt = _binary("float_power", x1, x2, dtype, casting)
    target = np.dtype(np.complex128 if dt.kind == "c" else np.float64)
    if dt.kind not in "fc" or dt.itemsize < target.itemsize:
        a, b = _as_dtype("float_power", a, target), _as_dtype("float_power", b, target)
    return _finish("float_power", lax.pow(a, b), out, where, casting)


def negative(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``-x``; bool input raises ``TypeError`` (as NumPy). Unsigned wraps."""
    _extras("negative", casting, order, subok, signature)
    x = _unary("negative", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        raise TypeError("xnp.negative: the boolean negative (the `-` operator) is not "
                        "supported; use the `~` operator or the logical_not function instead.")
    return _finish("negative", lax.neg(x), out, where, casting)


def positive(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``+x`` (a copy); bool input raises ``TypeError`` (as NumPy)."""
    _extras("positive", casting, order, subok, signature)
    x = _unary("positive", x, dtype, casting)
    _reject("positive", x, "b", "no bool loop")
    return _finish("positive", _copy(x), out, where, casting)


def absolute(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``|x|``. Complex input gives the real dtype; bool and unsigned are
    returned unchanged (copied); ``abs(iinfo.min)`` wraps, as NumPy."""
    _extras("absolute", casting, order, subok, signature)
    x = _unary("absolute", x, dtype, casting)
    res = _copy(x) if _dtype_of(x).kind in "bu" else lax.abs(x)
    return _finish("absolute", res, out, where, casting)


abs = absolute  # noqa: A001


def fabs(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Absolute value as a float (integers convert as for ``sin``); complex raises TypeError."""
    _extras("fabs", casting, order, subok, signature)
    x = _inexact("fabs", x, dtype, casting)
    _reject("fabs", x, "c", "use absolute for complex numbers")
    return _finish("fabs", lax.abs(x), out, where, casting)


def sign(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """-1, 0 or 1 by the sign of ``x`` (NaN stays NaN); complex: ``x / |x|`` (0 at 0).
    Bool input raises ``TypeError`` (as NumPy)."""
    _extras("sign", casting, order, subok, signature)
    x = _unary("sign", x, dtype, casting)
    _reject("sign", x, "b", "no bool loop")
    return _finish("sign", lax.sign(x), out, where, casting)


def square(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """``x * x``; bool input gives int8 (as NumPy)."""
    _extras("square", casting, order, subok, signature)
    x = _unary("square", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        x = _as_dtype("square", x, _INT8)
    return _finish("square", lax.integer_pow(x, 2), out, where, casting)


def reciprocal(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
               subok=True, signature=None):
    """``1 / x`` in ``x``'s dtype. Integers truncate (``1 // x`` towards zero: 0 unless
    ``|x| == 1``); integer ``1 / 0`` gives 0 (NumPy's value there is platform-defined).
    Bool input gives int8."""
    _extras("reciprocal", casting, order, subok, signature)
    x = _unary("reciprocal", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        x = _as_dtype("reciprocal", x, _INT8)
    return _finish("reciprocal", lax.div(_scalar(1, _dtype_of(x)), x), out, where, casting)


def _complex_ge(a, b, strict):
    """NumPy's lexicographic complex order (``CGE``/``CGT``): reals first, then imaginary
    parts; a NaN imaginary part makes the real-part comparison fail."""
    ar, ai, br, bi = lax.real(a), lax.imag(a), lax.real(b), lax.imag(b)
    first = lax.and_(lax.gt(ar, br), lax.and_(_not_nan(ai), _not_nan(bi)))
    second = lax.and_(lax.eq(ar, br), lax.gt(ai, bi) if strict else lax.ge(ai, bi))
    return lax.or_(first, second)


def _complex_has_nan(z):
    return lax.or_(_is_nan(lax.real(z)), _is_nan(lax.imag(z)))


def _extremum(fname, x1, x2, dtype, casting, *, larger, ignore_nan):
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    if dt.kind == "c":
        keep_a = _complex_ge(a, b, False) if larger else _complex_ge(b, a, False)
        nan_side = b if ignore_nan else a
        keep_a = lax.or_(_complex_has_nan(nan_side), keep_a)
        return lax.select(keep_a, a, b)
    res = lax.max(a, b) if larger else lax.min(a, b)
    if ignore_nan and dt.kind not in "biu":
        # fmax/fmin: a NaN in one operand gives the other one
        res = lax.select(_is_nan(b), a, lax.select(_is_nan(a), b, res))
    return res


def maximum(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise maximum; NaN in either operand gives NaN. Complex inputs compare
    lexicographically (real part first), as NumPy."""
    _extras("maximum", casting, order, subok, signature)
    res = _extremum("maximum", x1, x2, dtype, casting, larger=True, ignore_nan=False)
    return _finish("maximum", res, out, where, casting)


def minimum(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise minimum; NaN in either operand gives NaN (complex: lexicographic)."""
    _extras("minimum", casting, order, subok, signature)
    res = _extremum("minimum", x1, x2, dtype, casting, larger=False, ignore_nan=False)
    return _finish("minimum", res, out, where, casting)


def fmax(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise maximum ignoring NaN: a NaN in one operand gives the other one."""
    _extras("fmax", casting, order, subok, signature)
    res = _extremum("fmax", x1, x2, dtype, casting, larger=True, ignore_nan=True)
    return _finish("fmax", res, out, where, casting)


def fmin(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise minimum ignoring NaN: a NaN in one operand gives the other one."""
    _extras("fmin", casting, order, subok, signature)
    res = _extremum("fmin", x1, x2, dtype, casting, larger=False, ignore_nan=True)
    return _finish("fmin", res, out, where, casting)


# =========================================================================== rounding


def _integral_passthrough(fname, x):
    """floor/ceil/trunc of bool and integers return a copy in the same dtype (NumPy 2)."""
    _reject(fname, x, "c", "complex numbers have no ordering")
    return _copy(x)


def floor(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Largest integral value ``<= x``; bool and integer inputs are returned unchanged
    (copied, same dtype, as NumPy 2); complex raises ``TypeError``."""
    _extras("floor", casting, order, subok, signature)
    x = _unary("floor", x, dtype, casting)
    if _dtype_of(x).kind in "biuc":
        return _finish("floor", _integral_passthrough("floor", x), out, where, casting)
    return _finish("floor", lax.floor(x), out, where, casting)


def ceil(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Smallest integral value ``>= x``; bool/integers unchanged; complex raises TypeError."""
    _extras("ceil", casting, order, subok, signature)
    x = _unary("ceil", x, dtype, casting)
    if _dtype_of(x).kind in "biuc":
        return _finish("ceil", _integral_passthrough("ceil", x), out, where, casting)
    return _finish("ceil", lax.ceil(x), out, where, casting)


def trunc(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Round towards zero (keeps -0.0); bool/integers unchanged; complex raises TypeError."""
    _extras("trunc", casting, order, subok, signature)
    x = _unary("trunc", x, dtype, casting)
    if _dtype_of(x).kind in "biuc":
        return _finish("trunc", _integral_passthrough("trunc", x), out, where, casting)
    res = lax.select(lax.lt(x, _zero_like_dtype(x)), lax.ceil(x), lax.floor(x))
    return _finish("trunc", res, out, where, casting)


def _rint(x):
    """Round half to even, floats and complex (each part)."""
    if _dtype_of(x).kind == "c":
        return lax.complex(lax.round(lax.real(x), 1), lax.round(lax.imag(x), 1))
    return lax.round(x, 1)


def rint(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Round to the nearest integral value, halfway cases to even (``0.5 -> 0``, ``1.5 -> 2``).

    Integers convert to floats as for ``sin`` (so ``rint`` of int64 is float64); complex
    inputs round both parts.
    """
    _extras("rint", casting, order, subok, signature)
    return _finish("rint", _rint(_inexact("rint", x, dtype, casting)), out, where, casting)


def _round_decimals(x, decimals: int):
    dt = _dtype_of(x)
    if dt.kind == "c":
        return lax.complex(_round_decimals(lax.real(x), decimals),
                           _round_decimals(lax.imag(x), decimals))
    if dt.kind in "iu":
        if decimals >= 0:
            return _copy(x)
        # NumPy: in float64, rint(x / 10**-d) * 10**-d, cast back to the integer dtype
        f = _scalar(10.0 ** -decimals, np.float64)
        y = lax.convert_element_type(x, np.float64)
        y = lax.mul(lax.round(lax.div(y, f), 1), f)
        return lax.convert_element_type(y, dt, weak_type=x.weak_type)
    if decimals == 0:
        return lax.round(x, 1)
    if decimals > 0:
        f = _scalar(10.0 ** decimals, dt)
        return lax.div(lax.round(lax.mul(x, f), 1), f)
    f = _scalar(10.0 ** -decimals, dt)
    return lax.mul(lax.round(lax.div(x, f), 1), f)


def round(a, decimals=0, out=None):  # noqa: A001
    """Round to ``decimals`` decimal places, halfway cases to even (NumPy's algorithm:
    ``rint(a * 10**decimals) / 10**decimals``, so results can differ from decimal
    rounding, e.g. ``round(2.675, 2) == 2.67``).

    Parameters
    ----------
    a : array_like
        Bool input gives float16 (as NumPy); integers keep their dtype (negative
        ``decimals`` round in float64, then cast back); complex rounds both parts.
    decimals : int
        Static (a Python int, also under ``jit``); may be negative.
    out : Array, optional
        Written in place (``same_kind`` casting).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``decimals`` is traced.
    """
    decimals = _util.static_int("round", decimals, "decimals")
    x = asarray_for("round", a, "a")
    if _dtype_of(x).kind == "b":
        x = _as_dtype("round", x, _F16)
    return write_out("round", out, _round_decimals(x, decimals))


around = round


# =========================================================================== exp, log, roots


def _float_unary(fname, op, x, out, where, casting, dtype, *, complex_ok=True):
    x = _inexact(fname, x, dtype, casting)
    if not complex_ok:
        _reject(fname, x, "c", "real inputs only")
    return _finish(fname, op(x), out, where, casting)


def exp(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """``e ** x`` (integers convert to float as described in the module docstring)."""
    _extras("exp", casting, order, subok, signature)
    return _float_unary("exp", lax.exp, x, out, where, casting, dtype)


def exp2(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """``2 ** x`` (float)."""
    _extras("exp2", casting, order, subok, signature)
    return _float_unary("exp2", lax.exp2, x, out, where, casting, dtype)


def expm1(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``exp(x) - 1``, accurate for small ``x`` (float)."""
    _extras("expm1", casting, order, subok, signature)
    return _float_unary("expm1", lax.expm1, x, out, where, casting, dtype)


def log(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Natural logarithm; NaN for negative reals, -inf at 0 (float)."""
    _extras("log", casting, order, subok, signature)
    return _float_unary("log", lax.log, x, out, where, casting, dtype)


def log2(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Base-2 logarithm, computed as ``log(x) / log(2)`` (may differ from NumPy in the
    last bit)."""
    _extras("log2", casting, order, subok, signature)
    x = _inexact("log2", x, dtype, casting)
    return _finish("log2", _div_by_const(lax.log(x), _LN2), out, where, casting)


def log10(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Base-10 logarithm, computed as ``log(x) / log(10)`` (may differ from NumPy in the
    last bit, e.g. ``log10(1000.0)`` can be ``2.9999999999999996``)."""
    _extras("log10", casting, order, subok, signature)
    x = _inexact("log10", x, dtype, casting)
    return _finish("log10", _div_by_const(lax.log(x), _LN10), out, where, casting)


def _div_by_const(x, c: float):
    return lax.div(x, _scalar(c, _dtype_of(x)))


def log1p(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``log(1 + x)``, accurate for small ``x`` (float)."""
    _extras("log1p", casting, order, subok, signature)
    return _float_unary("log1p", lax.log1p, x, out, where, casting, dtype)


def logaddexp(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """``log(exp(x1) + exp(x2))`` without overflow (real floats; NumPy's algorithm)."""
    _extras("logaddexp", casting, order, subok, signature)
    a, b, dt = _binary_inexact("logaddexp", x1, x2, dtype, casting)
    _reject("logaddexp", a, "c", "real inputs only")
    d = lax.sub(a, b)
    zero = _scalar(0, dt)
    res = lax.select(lax.gt(d, zero), lax.add(a, lax.log1p(lax.exp(lax.neg(d)))),
                     lax.add(b, lax.log1p(lax.exp(d))))
    res = lax.select(lax.eq(a, b), lax.add(a, _scalar(_LN2, dt)), res)  # also inf == inf
    return _finish("logaddexp", res, out, where, casting)


def logaddexp2(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """``log2(2**x1 + 2**x2)`` without overflow (real floats; NumPy's algorithm)."""
    _extras("logaddexp2", casting, order, subok, signature)
    a, b, dt = _binary_inexact("logaddexp2", x1, x2, dtype, casting)
    _reject("logaddexp2", a, "c", "real inputs only")
    d = lax.sub(a, b)
    zero = _scalar(0, dt)

    def log2_1p_exp2(t):
        return _div_by_const(lax.log1p(lax.exp2(t)), _LN2)

    res = lax.select(lax.gt(d, zero), lax.add(a, log2_1p_exp2(lax.neg(d))),
                     lax.add(b, log2_1p_exp2(d)))
    res = lax.select(lax.eq(a, b), lax.add(a, _scalar(1, dt)), res)
    return _finish("logaddexp2", res, out, where, casting)


def sqrt(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Non-negative square root; NaN for negative reals (float or complex)."""
    _extras("sqrt", casting, order, subok, signature)
    return _float_unary("sqrt", lax.sqrt, x, out, where, casting, dtype)


def cbrt(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Real cube root (negative for negative ``x``); complex raises ``TypeError``."""
    _extras("cbrt", casting, order, subok, signature)
    return _float_unary("cbrt", lax.cbrt, x, out, where, casting, dtype, complex_ok=False)


def hypot(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``sqrt(x1**2 + x2**2)`` without intermediate overflow; inf if either is inf
    (even with a NaN in the other), as C ``hypot``. Real inputs only."""
    _extras("hypot", casting, order, subok, signature)
    a, b, dt = _binary_inexact("hypot", x1, x2, dtype, casting)
    _reject("hypot", a, "c", "real inputs only")
    a, b = lax.abs(a), lax.abs(b)
    big, small = lax.max(a, b), lax.min(a, b)
    zero, one = _scalar(0, dt), _scalar(1, dt)
    t = lax.div(small, lax.select(lax.eq(big, zero), one, big))
    res = lax.mul(big, lax.sqrt(lax.add(one, lax.mul(t, t))))
    inf = _scalar(np.inf, dt)
    res = lax.select(lax.or_(lax.eq(a, inf), lax.eq(b, inf)), inf, res)
    return _finish("hypot", res, out, where, casting)


# =========================================================================== trigonometric


def sin(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Sine (radians; float or complex)."""
    _extras("sin", casting, order, subok, signature)
    return _float_unary("sin", lax.sin, x, out, where, casting, dtype)


def cos(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Cosine (radians; float or complex)."""
    _extras("cos", casting, order, subok, signature)
    return _float_unary("cos", lax.cos, x, out, where, casting, dtype)


def tan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Tangent (radians; float or complex)."""
    _extras("tan", casting, order, subok, signature)
    return _float_unary("tan", lax.tan, x, out, where, casting, dtype)


def arcsin(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse sine; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arcsin", casting, order, subok, signature)
    return _float_unary("arcsin", lax.asin, x, out, where, casting, dtype)


def arccos(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse cosine; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arccos", casting, order, subok, signature)
    return _float_unary("arccos", lax.acos, x, out, where, casting, dtype)


def arctan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse tangent (float or complex)."""
    _extras("arctan", casting, order, subok, signature)
    return _float_unary("arctan", lax.atan, x, out, where, casting, dtype)


def arctan2(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Angle of the point ``(x2, x1)`` in radians, in ``[-pi, pi]`` (real floats)."""
    _extras("arctan2", casting, order, subok, signature)
    a, b, _ = _binary_inexact("arctan2", x1, x2, dtype, casting)
    _reject("arctan2", a, "c", "real inputs only")
    return _finish("arctan2", lax.atan2(a, b), out, where, casting)


def sinh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic sine (float or complex)."""
    _extras("sinh", casting, order, subok, signature)
    return _float_unary("sinh", lax.sinh, x, out, where, casting, dtype)


def cosh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic cosine (float or complex)."""
    _extras("cosh", casting, order, subok, signature)
    return _float_unary("cosh", lax.cosh, x, out, where, casting, dtype)


def tanh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic tangent (float or complex)."""
    _extras("tanh", casting, order, subok, signature)
    return _float_unary("tanh", lax.tanh, x, out, where, casting, dtype)


def arcsinh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic sine (float or complex)."""
    _extras("arcsinh", casting, order, subok, signature)
    return _float_unary("arcsinh", lax.asinh, x, out, where, casting, dtype)


def arccosh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic cosine; NaN below 1 for real input (float or complex)."""
    _extras("arccosh", casting, order, subok, signature)
    return _float_unary("arccosh", lax.acosh, x, out, where, casting, dtype)


def arctanh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic tangent; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arctanh", casting, order, subok, signature)
    return _float_unary("arctanh", lax.atanh, x, out, where, casting, dtype)


asin = arcsin
acos = arccos
atan = arctan
atan2 = arctan2
asinh = arcsinh
acosh = arccosh
atanh = arctanh


def _scale(fname, x, factor, out, where, casting, dtype):
    x = _inexact(fname, x, dtype, casting)
    _reject(fname, x, "c", "real inputs only")
    return _finish(fname, lax.mul(x, _scalar(factor, _dtype_of(x))), out, where, casting)


def deg2rad(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Degrees to radians: ``x * (pi / 180)`` (real floats)."""
    _extras("deg2rad", casting, order, subok, signature)
    return _scale("deg2rad", x, np.pi / 180.0, out, where, casting, dtype)


def rad2deg(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Radians to degrees: ``x * (180 / pi)`` (real floats)."""
    _extras("rad2deg", casting, order, subok, signature)
    return _scale("rad2deg", x, 180.0 / np.pi, out, where, casting, dtype)


def radians(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Same as ``deg2rad``."""
    _extras("radians", casting, order, subok, signature)
    return _scale("radians", x, np.pi / 180.0, out, where, casting, dtype)


def degrees(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Same as ``rad2deg``."""
    _extras("degrees", casting, order, subok, signature)
    return _scale("degrees", x, 180.0 / np.pi, out, where, casting, dtype)


# =========================================================================== comparisons


def _compare_operands(fname, x1, x2, dtype):
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.{fname}: no loop for dtype={dtype!r}; comparisons return bool")
    return binary_operands(fname, x1, x2)


def _ordered(fname, x1, x2, dtype, lax_op, swap, strict):
    """``lax_op(a, b)`` for real dtypes; NumPy's lexicographic order for complex."""
    a, b, dt = _compare_operands(fname, x1, x2, dtype)
    if dt.kind == "c":
        return _complex_ge(b, a, strict) if swap else _complex_ge(a, b, strict)
    return lax_op(a, b)


def equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Elementwise ``x1 == x2`` (bool); NaN is unequal to everything."""
    _extras("equal", casting, order, subok, signature)
    a, b, _ = _compare_operands("equal", x1, x2, dtype)
    return _finish("equal", lax.eq(a, b), out, where, casting)


def not_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Elementwise ``x1 != x2`` (bool)."""
    _extras("not_equal", casting, order, subok, signature)
    a, b, _ = _compare_operands("not_equal", x1, x2, dtype)
    return _finish("not_equal", lax.ne(a, b), out, where, casting)


def less(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise ``x1 < x2`` (bool; complex: lexicographic, as NumPy)."""
    _extras("less", casting, order, subok, signature)
    res = _ordered("less", x1, x2, dtype, lax.lt, True, True)
    return _finish("less", res, out, where, casting)


def less_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Elementwise ``x1 <= x2`` (bool; complex: lexicographic)."""
    _extras("less_equal", casting, order, subok, signature)
    res = _ordered("less_equal", x1, x2, dtype, lax.le, True, False)
    return _finish("less_equal", res, out, where, casting)


def greater(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise ``x1 > x2`` (bool; complex: lexicographic)."""
    _extras("greater", casting, order, subok, signature)
    res = _ordered("greater", x1, x2, dtype, lax.gt, False, True)
    return _finish("greater", res, out, where, casting)


def greater_equal(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                  dtype=None, subok=True, signature=None):
    """Elementwise ``x1 >= x2`` (bool; complex: lexicographic)."""
    _extras("greater_equal", casting, order, subok, signature)
    res = _ordered("greater_equal", x1, x2, dtype, lax.ge, False, False)
    return _finish("greater_equal", res, out, where, casting)


# =========================================================================== logic and bits


def _truth(x):
    """``x != 0`` as bool (bool input unchanged)."""
    if _dtype_of(x).kind == "b":
        return x
    return lax.ne(x, _zero_like_dtype(x))


def _logical(fname, lax_op, x1, x2, dtype):
    a, b, _ = _compare_operands(fname, x1, x2, dtype)
    return lax_op(_truth(a), _truth(b))


def logical_and(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Truth-value AND (bool result; non-zero is true)."""
    _extras("logical_and", casting, order, subok, signature)
    res = _logical("logical_and", lax.and_, x1, x2, dtype)
    return _finish("logical_and", res, out, where, casting)


def logical_or(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Truth-value OR (bool result)."""
    _extras("logical_or", casting, order, subok, signature)
    res = _logical("logical_or", lax.or_, x1, x2, dtype)
    return _finish("logical_or", res, out, where, casting)


def logical_xor(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Truth-value XOR (bool result)."""
    _extras("logical_xor", casting, order, subok, signature)
    res = _logical("logical_xor", lax.xor, x1, x2, dtype)
    return _finish("logical_xor", res, out, where, casting)


def logical_not(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
                subok=True, signature=None):
    """Truth-value NOT (bool result)."""
    _extras("logical_not", casting, order, subok, signature)
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.logical_not: no loop for dtype={dtype!r}")
    x = asarray_for("logical_not", x, "x")
    return _finish("logical_not", lax.not_(_truth(x)), out, where, casting)


def _integer_operands(fname, x1, x2, dtype, casting):
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    _reject(fname, a, "fcV", "needs integer or bool inputs")
    return a, b, dt


def bitwise_and(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Bitwise AND of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_and", casting, order, subok, signature)
    a, b, _ = _integer_operands("bitwise_and", x1, x2, dtype, casting)
    return _finish("bitwise_and", lax.and_(a, b), out, where, casting)


def bitwise_or(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """Bitwise OR of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_or", casting, order, subok, signature)
    a, b, _ = _integer_operands("bitwise_or", x1, x2, dtype, casting)
    return _finish("bitwise_or", lax.or_(a, b), out, where, casting)


def bitwise_xor(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """Bitwise XOR of integers (logical for bool); floats raise ``TypeError``."""
    _extras("bitwise_xor", casting, order, subok, signature)
    a, b, _ = _integer_operands("bitwise_xor", x1, x2, dtype, casting)
    return _finish("bitwise_xor", lax.xor(a, b), out, where, casting)


def invert(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Bitwise NOT of integers (logical NOT for bool); floats raise ``TypeError``."""
    _extras("invert", casting, order, subok, signature)
    x = _unary("invert", x, dtype, casting)
    _reject("invert", x, "fcV", "needs integer or bool input")
    return _finish("invert", lax.not_(x), out, where, casting)


bitwise_not = invert
bitwise_invert = invert


def left_shift(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """``x1 << x2`` for integers (bool computes in int8); a count outside ``[0, bits)``
    gives 0, as NumPy; floats raise ``TypeError``."""
    _extras("left_shift", casting, order, subok, signature)
    a, b, dt = _integer_operands("left_shift", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("left_shift", a, b, dt)
    return _finish("left_shift", lax.shift_left(a, b), out, where, casting)


def right_shift(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """``x1 >> x2``: arithmetic for signed, logical for unsigned integers; a count outside
    ``[0, bits)`` gives 0, or -1 for negative ``x1``, as NumPy; floats raise ``TypeError``."""
    _extras("right_shift", casting, order, subok, signature)
    a, b, dt = _integer_operands("right_shift", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("right_shift", a, b, dt)
    op = lax.shift_right_logical if dt.kind == "u" else lax.shift_right_arithmetic
    return _finish("right_shift", op(a, b), out, where, casting)


bitwise_left_shift = left_shift
bitwise_right_shift = right_shift


# =========================================================================== classification


def _predicate_operand(fname, x, dtype):
    if dtype is not None and canonical_dtype(dtype) != _BOOL:
        raise TypeError(f"xnp.{fname}: no loop for dtype={dtype!r}; the result is bool")
    return asarray_for(fname, x, "x")


def isnan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """True where ``x`` is NaN (either part for complex); always False for integers/bool."""
    _extras("isnan", casting, order, subok, signature)
    x = _predicate_operand("isnan", x, dtype)
    res = _complex_has_nan(x) if _dtype_of(x).kind == "c" else _is_nan(x)
    return _finish("isnan", res, out, where, casting)


def _is_inf(x):
    return lax.eq(lax.abs(x), _scalar(np.inf, _dtype_of(x)))


def isinf(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """True where ``x`` is +-inf (either part for complex); always False for integers/bool."""
    _extras("isinf", casting, order, subok, signature)
    x = _predicate_operand("isinf", x, dtype)
    kind = _dtype_of(x).kind
    if kind == "c":
        res = lax.or_(_is_inf(lax.real(x)), _is_inf(lax.imag(x)))
    elif kind in "biu":
        res = lax.ne(x, x)
    else:
        res = _is_inf(x)
    return _finish("isinf", res, out, where, casting)


def isfinite(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """True where ``x`` is neither inf nor NaN (both parts for complex); always True
    for integers/bool."""
    _extras("isfinite", casting, order, subok, signature)
    x = _predicate_operand("isfinite", x, dtype)
    kind = _dtype_of(x).kind
    if kind == "c":
        res = lax.and_(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    elif kind in "biu":
        res = lax.eq(x, x)
    else:
        res = lax.is_finite(x)
    return _finish("isfinite", res, out, where, casting)


def _signbit_float(x):
    """The sign bit of a floating ``x`` (True for -0.0 and negative NaNs), via its bits."""
    bits = lax.bitcast_convert_type(x, np.dtype(f"i{_dtype_of(x).itemsize}"))
    return lax.lt(bits, _zero_like_dtype(bits))


def signbit(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """True where the sign bit is set (``-0.0`` included; ``x < 0`` for integers);
    complex raises ``TypeError``."""
    _extras("signbit", casting, order, subok, signature)
    x = _predicate_operand("signbit", x, dtype)
    kind = _dtype_of(x).kind
    _reject("signbit", x, "c", "complex numbers have no sign bit")
    if kind in "bu":
        res = lax.ne(x, x)
    elif kind == "i":
        res = lax.lt(x, _zero_like_dtype(x))
    else:
        res = _signbit_float(x)
    return _finish("signbit", res, out, where, casting)


def copysign(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """``|x1|`` with the sign bit of ``x2`` (real floats; integers convert as for ``sin``)."""
    _extras("copysign", casting, order, subok, signature)
    a, b, _ = _binary_inexact("copysign", x1, x2, dtype, casting)
    _reject("copysign", a, "c", "real inputs only")
    return _finish("copysign", _copysign(a, b), out, where, casting)


# =========================================================================== complex parts


def real(val):
    """Real part (the real dtype for complex input; other input is returned as is)."""
    x = asarray_for("real", val, "val")
    return lax.real(x) if _dtype_of(x).kind == "c" else x


def imag(val):
    """Imaginary part (the real dtype for complex input; zeros of ``val``'s dtype otherwise)."""
    x = asarray_for("imag", val, "val")
    return lax.imag(x) if _dtype_of(x).kind == "c" else _zeros_like(x)


def conjugate(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Complex conjugate; real input is copied unchanged (bool gives int8, as NumPy)."""
    _extras("conjugate", casting, order, subok, signature)
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


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """Elementwise ``x if condition else y``; with only ``condition``, ``nonzero(condition)``.

    Parameters
    ----------
    condition : array_like
        Converted to bool (non-zero is true).
    x, y : array_like
        Promoted together (NEP 50); all three broadcast (``ValueError`` naming the shapes).
    size, fill_value : optional
        Only for the one-argument form (static output size, as in JAX's ``where``).

    Returns
    -------
    Array
        The broadcast shape and the promoted dtype of ``x`` and ``y``: the jaxpr is
        ``select_n(condition, y, x)`` (D-6: case 0 where the condition is False).
    """
    if x is None and y is None:
        from xnp.numpy_api import indexing  # noqa: PLC0415  (the one-argument form lives there)

        return indexing.nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("xnp.where: either both or neither of x and y should be given")
    if size is not None or fill_value is not None:
        raise ValueError("xnp.where: size and fill_value are only valid with the "
                         "one-argument form where(condition)")
    c = asarray_for("where", condition, "condition")
    a, b, _ = binary_operands("where", x, y, argnames=("x", "y"))
    (c, a, b), _ = broadcast_arrays("where", _truth(c), a, b)
    return lax.select_n(c, b, a)


def _clip_bound(x, bound, lower: bool):
    """NumPy 2: a Python int bound beyond an integer ``x``'s range on the side that cannot
    matter (a lower bound below the minimum, an upper one above the maximum) is dropped;
    on the other side it stays and raises ``OverflowError`` in the promotion."""
    dt = _dtype_of(x)
    if type(bound) is int and dt.kind in "iu":
        info = np.iinfo(dt)
        if (lower and bound < info.min) or (not lower and bound > info.max):
            return None
    return bound


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue,  # noqa: A002
         **kwargs):
    """Limit values to ``[a_min, a_max]``: ``minimum(maximum(a, a_min), a_max)``.

    ``min=``/``max=`` are the NumPy 2 / Array API spellings (pass one spelling each).
    Either bound may be None (no limit). NaN in ``a`` or a bound propagates; if
    ``a_min > a_max`` the result is ``a_max`` everywhere. Promotion follows NEP 50
    over all three operands; a Python int bound outside an integer ``a``'s range is
    ignored when it cannot matter and raises ``OverflowError`` otherwise (as NumPy 2).
    Other ufunc keywords raise ``NotImplementedError``.
    """
    if kwargs:
        raise NotImplementedError(f"xnp.clip: keyword arguments {sorted(kwargs)} are not "
                                  "supported; cast the inputs or use xnp.where")
    if a_min is not _NoValue and min is not _NoValue:
        raise ValueError("xnp.clip: pass the lower bound once (a_min or min, not both)")
    if a_max is not _NoValue and max is not _NoValue:
        raise ValueError("xnp.clip: pass the upper bound once (a_max or max, not both)")
    lo = min if a_min is _NoValue else a_min
    hi = max if a_max is _NoValue else a_max
    lo = None if lo is _NoValue else lo
    hi = None if hi is _NoValue else hi
    x = asarray_for("clip", a, "a")
    lo = None if lo is None else _clip_bound(x, lo, True)
    hi = None if hi is None else _clip_bound(x, hi, False)
    res = x
    if lo is not None:
        res = _extremum("clip", res, lo, None, "same_kind", larger=True, ignore_nan=False)
    if hi is not None:
        res = _extremum("clip", res, hi, None, "same_kind", larger=False, ignore_nan=False)
    if res is x:
        res = _copy(x)
    return write_out("clip", out, res)
