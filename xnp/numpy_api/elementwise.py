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
* ``where=``: masked-out elements keep ``out``'s values; without ``out=`` they are 0
  (NumPy leaves them uninitialised, as ``empty`` does; xnp's ``empty`` is zeros too).
* ``order``: results are C-contiguous; ``order='F'`` raises ``NotImplementedError``.
  ``subok`` has no effect (xnp has no subclasses); ``signature=`` is not supported.
* Results are xnp arrays (0-d for 0-d inputs), weakly typed when every input was
  a Python scalar; comparisons and predicates return bool, never weak.

Where XLA's arithmetic differs from NumPy's, the lax primitives or the
compositions here produce NumPy's answer on every backend: integer division
and remainder by zero give 0, ``floor_divide``/``remainder`` follow Python's
floor rules (built from truncating ``lax.div``/``lax.rem``, as JAX does),
shifts by at least the bit width give 0 (or -1 for negative arithmetic shifts),
and ``maximum``/``minimum`` propagate NaN while ``fmax``/``fmin`` ignore it. The
rounding functions are in :mod:`xnp.numpy_api.rounding`.
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, binary_operands, broadcast_arrays, strong
from xnp.tracing import core
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api import _clip_operands
from xnp.numpy_api import _powers
from xnp.numpy_api import transcendental as _transcendental
from xnp.tracing.avals import canonical_dtype
from xnp.numpy_api._ufunc import (
    _INT8,
    _F16, _NoValue, _as_dtype, _binary, _binary_inexact, _bool_to_int8, _complex_ge,
    _complex_has_nan, _copy, _copysign, _dtype_of, _extras, _finish, _inexact, _is_nan,
    _no_bool_loop,
    _reject, _scalar, _truth, _unary, two_outs, _cast, ufunc_loop, real_operands,
)

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod",
    "fmod", "divmod", "power", "pow", "float_power", "negative", "positive", "absolute", "abs",
    "fabs", "sign", "square", "reciprocal", "maximum", "minimum", "fmax", "fmin", "where",
    "clip",
]


@fastpath.binary("add")
def add(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Elementwise ``x1 + x2``. Bool inputs give bool (logical or), as NumPy."""
    _extras("add", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _binary("add", x1, x2, dtype, casting)
    res = lax.or_(a, b) if dt.kind == "b" else lax.add(a, b)
    return _finish("add", res, out, where, casting)


@fastpath.binary("subtract")
def subtract(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``x1 - x2``. Bool inputs raise ``TypeError`` (as NumPy; use logical_xor)."""
    _extras("subtract", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _binary("subtract", x1, x2, dtype, casting)
    if dt.kind == "b":
        raise TypeError("xnp.subtract: boolean subtract (the `-` operator) is not supported; "
                        "use the bitwise_xor (`^`) or logical_xor function instead.")
    return _finish("subtract", lax.sub(a, b), out, where, casting)


@fastpath.binary("multiply")
def multiply(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``x1 * x2``. Bool inputs give bool (logical and), as NumPy."""
    _extras("multiply", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _binary("multiply", x1, x2, dtype, casting)
    res = lax.and_(a, b) if dt.kind == "b" else lax.mul(a, b)
    return _finish("multiply", res, out, where, casting)


@fastpath.binary("divide")
def divide(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """True division ``x1 / x2``. Bool and integer inputs give float64 (as NumPy);
    division by zero gives inf/NaN as IEEE (NumPy also warns eagerly). A Python int outside
    an integer operand's dtype is divided in float64 (NumPy 2), not an ``OverflowError``."""
    _extras("divide", casting, order, subok, signature, dtype, (x1, x2))
    found = _util.int_out_of_range(x1, x2, bool_as_int=True)
    if found is not None:  # float(v) is NumPy's float64 cast; with an int array -> float64
        x1, x2 = (float(x1), x2) if found[2] else (x1, float(x2))
    found = _util.traced_int(x1, x2, bool_as_int=True)
    if found is not None:  # a Python int argument of jit: float64 as float(v) above
        t = lax.convert_element_type(found[0], _util.default_float(), weak_type=True)
        x1, x2 = (t, x2) if found[2] else (x1, t)
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


def _float_floor_divmod(a, b, dt, want_div, want_mod):
    """NumPy's ``npy_divmod`` for floats, step by step (see numpy/npy_math): ``x // 0.0``
    is ``x / 0.0`` and ``x % 0.0`` is ``fmod``'s NaN; an infinite dividend gives NaN
    (``inf // 2.0``); a finite ``x`` over an infinite divisor of the other sign gives
    ``-1.0`` and the divisor (``divmod(1.0, -inf)`` is ``(-1.0, -inf)``). Floats narrower
    than float32 compute in float32, rounded once, as NumPy's half loop (and ml_dtypes')."""
    if dt.itemsize < 4:
        f32 = np.dtype(np.float32)
        q, r = _float_floor_divmod(lax.convert_element_type(a, f32),
                                   lax.convert_element_type(b, f32), f32, want_div, want_mod)
        weak = a.weak_type and b.weak_type
        return tuple(None if v is None else lax.convert_element_type(v, dt, weak_type=weak)
                     for v in (q, r))
    zero = _scalar(0, dt)
    mod = lax.rem(a, b)  # fmod: NaN where b == 0
    adjust = lax.and_(lax.ne(mod, zero), lax.ne(lax.lt(b, zero), lax.lt(mod, zero)))
    q = r = None
    if want_mod:
        r = lax.select(adjust, lax.add(mod, b), mod)
        r = lax.select(lax.eq(r, zero), _copysign(r, b), r)  # a zero remainder takes b's sign
    if want_div:
        div = lax.div(lax.sub(a, mod), b)
        div = lax.select(adjust, lax.sub(div, _scalar(1, dt)), div)
        fl = lax.floor(div)
        fl = lax.select(lax.gt(lax.sub(div, fl), _scalar(0.5, dt)), lax.add(fl, _scalar(1, dt)),
                        fl)
        true_q = lax.div(a, b)
        fl = lax.select(lax.eq(div, zero), _copysign(div, true_q), fl)  # signed zero of a / b
        q = lax.select(lax.eq(b, zero), true_q, fl)  # b == 0: a / b (inf or NaN)
    return q, r


def _floor_divmod(fname, x1, x2, dtype, casting, want_div, want_mod):
    """``(quotient or None, remainder or None)``: eagerly NumPy's loop where the backend
    has it (``lax.composite``), else the steps above with NumPy's errors."""
    a, b, dt = real_operands(fname, _binary, x1, x2, dtype, casting,
                             "complex numbers have no floor division")
    a, b, dt = _bool_to_int8(fname, a, b, dt, dtype)
    if want_div and want_mod:
        return tuple(lax.composite_multi("divmod", _divmod_steps, a, b, out_dtypes=(dt, dt)))
    if want_div:
        return lax.composite("floor_divide", _floor_divide_steps, a, b), None
    return None, lax.composite("remainder", _remainder_steps, a, b)


def _divmod_of(fname, a, b, want_div, want_mod):
    dt = _dtype_of(a)
    steps = _int_floor_divmod if dt.kind in "iu" else _float_floor_divmod
    with _numpy_errors(fname, a, b):
        return steps(a, b, dt, want_div, want_mod)


def _divmod_steps(a, b):
    return _divmod_of("divmod", a, b, True, True)


def _floor_divide_steps(a, b):
    return _divmod_of("floor_divide", a, b, True, False)[0]


def _remainder_steps(a, b):
    return _divmod_of("remainder", a, b, False, True)[1]


@contextlib.contextmanager
def _numpy_errors(fname, *operands):
    """NumPy's floating-point errors for an eager call of its ufunc ``fname`` on
    ``operands`` (a ``RuntimeWarning`` each by default; whatever ``seterr``/``errstate``
    say), then the body, the lax steps that compute the result, with floating-point errors
    ignored: theirs differ from NumPy's loop's (``fmod`` by zero in ``1.0 // 0.0``) or are
    NumPy's under another name (``divide`` for ``floor_divide``).

    NumPy's own ufunc runs on the operands' values, its result discarded, so which errors
    arise (``1.0 // 0.0`` divides by zero, ``inf // 2.0`` is invalid, ``1e308 // 1e-308``
    overflows; integer ``x // 0`` divides by zero and ``iinfo.min // -1`` overflows),
    their text (``... encountered in floor_divide``) and their handling are NumPy's.
    Reading the values keeps the call out of the eager dispatch cache. Compiled code
    (``jit``, any traced operand) reports no floating-point errors: the body just runs."""
    if not all(isinstance(x, core.Array) for x in operands):
        yield
        return
    getattr(np, fname)(*(np.asarray(x._value) for x in operands))
    with np.errstate(all="ignore"):
        yield


def floor_divide(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                 dtype=None, subok=True, signature=None):
    """Floor division ``x1 // x2`` (Python's rule: rounds towards -inf).

    Integers: ``x // 0`` is 0 and ``iinfo.min // -1`` wraps (NumPy's answers, also under
    jit). Floats: NumPy's ``divmod`` algorithm, also under jit: ``x // 0.0`` is ``x /
    0.0``, ``inf // 2.0`` is NaN and ``1.0 // -inf`` is ``-1.0`` (as Python's; the Array
    API standard allows these besides its ``floor(x1 / x2)``, ``inf`` and ``-0.0``).
    Eagerly, NumPy's floating-point errors (``divide by zero encountered in
    floor_divide``). Bool inputs give int8; complex raises ``TypeError``.
    """
    _extras("floor_divide", casting, order, subok, signature, dtype, (x1, x2))
    q, _ = _floor_divmod("floor_divide", x1, x2, dtype, casting, True, False)
    return _finish("floor_divide", q, out, where, casting)


def remainder(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Remainder with the sign of the divisor (Python's ``%``); ``x % 0`` is 0 for
    integers, NaN for floats. Bool inputs give int8; complex raises ``TypeError``."""
    _extras("remainder", casting, order, subok, signature, dtype, (x1, x2))
    _, r = _floor_divmod("remainder", x1, x2, dtype, casting, False, True)
    return _finish("remainder", r, out, where, casting)


mod = remainder


def fmod(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Remainder with the sign of the dividend (C ``fmod``); integer ``fmod(x, 0)`` is 0."""
    _extras("fmod", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = real_operands("fmod", _binary, x1, x2, dtype, casting,
                             "complex numbers have no remainder")
    a, b, dt = _bool_to_int8("fmod", a, b, dt, dtype)
    if dt.kind not in "iu":  # lax.rem is fmod: eagerly NumPy's own, errors included
        return _finish("fmod", lax.rem(a, b), out, where, casting)
    return _finish("fmod", lax.composite("fmod", _int_fmod, a, b), out, where, casting)


def _int_fmod(a, b):
    with _numpy_errors("fmod", a, b):
        return lax.rem(a, b)


def divmod(x1, x2, out1=None, out2=None, /, *, out=(None, None), where=True,  # noqa: A001
           casting="same_kind", order="K", dtype=None, subok=True, signature=None):
    """``(floor_divide(x1, x2), remainder(x1, x2))``, sharing the work.

    ``out1, out2`` positionally, or ``out=(out1, out2)`` (``None`` entries: new arrays).
    """
    _extras("divmod", casting, order, subok, signature, dtype, (x1, x2))
    if isinstance(out1, tuple) and out2 is None:  # the pair given positionally
        out1, out = None, out1
    q, r = _floor_divmod("divmod", x1, x2, dtype, casting, True, True)
    out = two_outs("divmod", out1, out2, out)
    return (_finish("divmod", q, out[0], where, casting),
            _finish("divmod", r, out[1], where, casting))


def power(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Elementwise ``x1 ** x2``.

    A Python int exponent becomes ``lax.integer_pow`` (repeated squaring, like JAX) under
    ``jit``; eagerly it is NumPy's ``power`` (its values and warnings).
    Integer bases with a negative integer exponent raise ``ValueError`` eagerly (as NumPy),
    and for a Python or NumPy exponent under ``jit`` too; under ``jit`` an xnp exponent that
    is negative gives ``x ** y`` rounded towards zero (1 for ``x == 1``, +-1 for
    ``x == -1``, else 0): compiled code does not check values. Eagerly, signed integers
    to the power of an xnp array are one call of NumPy's loop (a composite,
    ``xnp.lax.composite``), which checks and computes at once.
    Bool ** bool gives int8. Integer overflow wraps.
    """
    _extras("power", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _binary("power", x1, x2, dtype, casting)
    a, b, dt = _bool_to_int8("power", a, b, dt, dtype)
    if dt.kind in "iu" and _powers.check_exponents(a, b, x2, where, out, casting):
        return _finish("power", lax.composite("power", _powers.checked_power, a, b), out,
                       where, casting)
    if type(x2) is int and not (x2 < 0 and dt.kind in "iu"):  # (an empty result there)
        res = lax.composite("power", _powers.integer_power(x2), a, b)
        return _finish("power", res, out, where, casting)
    return _finish("power", lax.pow(a, b), out, where, casting)


pow = power  # noqa: A001  (Array API spelling)


#: the exponents ``x ** y`` computes other than as ``power(x, y)`` (:func:`_power_operator`;
#: the eager dispatch cache keeps their exact keys: ``host_dispatch``)
OPERATOR_POWER_SHORTCUTS = frozenset({2, -1, 0.5})


def _power_operator(x, y):
    """``x ** y`` for an array ``x``, as ``ndarray.__pow__``: an exact Python ``2`` squares
    (a bool array gives int8, where ``power`` gives int64), and for a float or complex ``x``
    an exact ``-1`` takes the reciprocal and ``0.5`` the square root."""
    if type(y) is int and y == 2:
        return square(x)
    if _dtype_of(x).kind in "fc":
        if type(y) is int and y == -1:
            return reciprocal(x)
        if type(y) is float and y == 0.5:
            return _transcendental.sqrt(x)
    return power(x, y)


def float_power(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
                dtype=None, subok=True, signature=None):
    """``x1 ** x2`` computed in float64 (complex128 for complex inputs), as NumPy; a
    ``dtype=`` other than those two raises ``TypeError`` (NumPy has no such loop)."""
    _extras("float_power", casting, order, subok, signature, dtype, (x1, x2))
    if dtype is not None and canonical_dtype(dtype) not in (np.float64, np.complex128):
        raise TypeError(f"xnp.float_power: no loop for dtype={canonical_dtype(dtype)}; it "
                        "computes in float64 or complex128")
    if dtype is None:  # NumPy's loops: a Python int beside an int8 array becomes a float64
        x1, x2 = _powers.float_power_operands(x1, x2)
    a, b, dt = _binary("float_power", x1, x2, dtype, casting)
    target = np.dtype(np.complex128 if dt.kind == "c" else np.float64)
    if dt.kind not in "fc" or dt.itemsize < target.itemsize:
        a, b = _as_dtype("float_power", a, target), _as_dtype("float_power", b, target)
    res = lax.composite("float_power", _powers.float_power, a, b)
    return _finish("float_power", res, out, where, casting)


@fastpath.unary("negative")
def negative(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``-x``; bool input raises ``TypeError`` (as NumPy). Unsigned wraps."""
    _extras("negative", casting, order, subok, signature, dtype, (x,))
    x = _unary("negative", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        raise TypeError("xnp.negative: the boolean negative (the `-` operator) is not "
                        "supported; use the `~` operator or the logical_not function instead.")
    return _finish("negative", lax.neg(x), out, where, casting)


def positive(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``+x`` (a copy); bool input raises ``TypeError`` (as NumPy)."""
    _extras("positive", casting, order, subok, signature, dtype, (x,))
    x = _unary("positive", x, dtype, casting)
    _reject("positive", x, "b", "no bool loop")
    return _finish("positive", _copy(x), out, where, casting)


@fastpath.unary("absolute")
def absolute(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
    """Elementwise ``|x|``. Complex input gives the real dtype; bool and unsigned are
    returned unchanged (copied); ``abs(iinfo.min)`` wraps, as NumPy.

    ``dtype=`` is the result dtype and selects NumPy's loop: complex input with a float32
    or float64 ``dtype`` runs the complex loop of that precision (``F->f``, ``D->d``) when
    the input casts to it safely, every other input the ``dtype->dtype`` loop (``casting``
    checked); a complex ``dtype`` has no loop (``TypeError``), as in NumPy."""
    _extras("absolute", casting, order, subok, signature, dtype, (x,))
    x = _unary("absolute", x, _absolute_loop(x, dtype), casting)
    res = _copy(x) if _dtype_of(x).kind in "bu" else lax.abs(x)
    return _finish("absolute", res, out, where, casting)


abs = absolute  # noqa: A001

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def _absolute_loop(x, dtype):
    """The input dtype of NumPy's ``absolute`` loop whose result is ``dtype`` (None: none
    asked): the complex loop ``F->f``/``D->d`` for an input that casts to it safely, else
    ``dtype`` itself; ``TypeError`` for a complex ``dtype`` (no loop gives one)."""
    if dtype is None:
        return None
    want = canonical_dtype(dtype)
    if want.kind == "c":
        raise TypeError(f"xnp.absolute: No loop matching the specified signature and casting "
                        f"was found for ufunc absolute (input {np.dtype(_in_dtype(x)).name}, "
                        f"dtype={want.name}: absolute of a complex number is real)")
    loop = _COMPLEX_OF.get(want)
    if loop is not None and np.can_cast(_in_dtype(x), loop, "safe") and (
            np.dtype(_in_dtype(x)).kind == "c"):
        return loop
    return want


def _in_dtype(x):
    return core.aval_of(x).dtype if _util.is_xnp(x) else np.asarray(x).dtype


def fabs(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Absolute value as a float (integers convert as for ``sin``); complex raises TypeError."""
    _extras("fabs", casting, order, subok, signature, dtype, (x,))
    x = _inexact("fabs", x, dtype, casting)
    _reject("fabs", x, "c", "use absolute for complex numbers")
    return _finish("fabs", lax.abs(x), out, where, casting)


def sign(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """-1, 0 or 1 by the sign of ``x`` (NaN stays NaN); complex: ``x / |x|`` (0 at 0).
    Bool input raises ``TypeError`` (as NumPy)."""
    _extras("sign", casting, order, subok, signature, dtype, (x,))
    x = _unary("sign", x, dtype, casting)
    _reject("sign", x, "b", "no bool loop")
    return _finish("sign", lax.sign(x), out, where, casting)


def square(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """``x * x``; bool input gives int8 (as NumPy)."""
    _extras("square", casting, order, subok, signature, dtype, (x,))
    x = _unary("square", x, dtype, casting)
    if _dtype_of(x).kind == "b":
        x = _as_dtype("square", x, _INT8)
    return _finish("square", lax.composite("square", _powers.square, x), out, where, casting)


def reciprocal(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
               subok=True, signature=None):
    """``1 / x`` in ``x``'s dtype. Integers truncate (``1 // x`` towards zero: 0 unless
    ``|x| == 1``), and integer ``1 / 0`` is NumPy's value, also under jit
    (:func:`_int_reciprocal`; eagerly with NumPy's errors, divide by zero and invalid).
    Bool input gives int8. Complex ``x`` follows NumPy's loop (Smith's division without
    special cases), so ``0j``, ``inf + infj`` and any NaN part give ``nan + nanj``."""
    _extras("reciprocal", casting, order, subok, signature, dtype, (x,))
    _no_bool_loop("reciprocal", dtype)
    x = _unary("reciprocal", x, dtype, casting)
    dt = _dtype_of(x)
    if dt.kind not in "biu":  # (ml_dtypes' floats too)
        steps = _powers.complex_reciprocal if dt.kind == "c" else _powers.float_reciprocal
        return _finish("reciprocal", lax.composite("reciprocal", steps, x), out, where,
                       casting)
    if dt.kind == "b":
        x = _as_dtype("reciprocal", x, _INT8)
    res = lax.composite("reciprocal", _int_reciprocal_steps, x)
    return _finish("reciprocal", res, out, where, casting)


def _int_reciprocal_steps(x):
    with _numpy_errors("reciprocal", x):
        return _int_reciprocal(x)


def _int_reciprocal(x):
    """Integer ``1 / x`` as NumPy's loop: truncated, and at ``x == 0`` the loop's ``1.0 /
    0`` (inf) converted to the integer dtype by the C cast, a value the platform defines
    (on x86-64: ``iinfo.min`` for 32- and 64-bit signed integers, 0 for the others), so it
    is read from NumPy's own loop once per dtype (:func:`_int_reciprocal_of_zero`)."""
    dt = _dtype_of(x)
    at_zero = _scalar(_int_reciprocal_of_zero(dt), dt)
    return lax.select(lax.eq(x, _scalar(0, dt)), at_zero, lax.div(_scalar(1, dt), x))


@functools.cache
def _int_reciprocal_of_zero(dt: np.dtype):
    """NumPy's ``reciprocal(0)`` for the integer dtype ``dt`` on this platform."""
    with np.errstate(all="ignore"):
        return np.reciprocal(np.zeros(1, dt))[0]


def _ignoring_nan(a, b, res):
    return lax.select(_is_nan(b), a, lax.select(_is_nan(a), b, res))


def _fmax(a, b):
    return _ignoring_nan(a, b, lax.max(a, b))


def _fmin(a, b):
    return _ignoring_nan(a, b, lax.min(a, b))


def _extremum(fname, x1, x2, dtype, casting, *, larger, ignore_nan, ties=None):
    """``ties``: the operand (``"first"``/``"second"``) a real float result is where they are
    equal (``-0.0`` and ``0.0``), as NumPy's ``clip`` loops take it; NaN still propagates."""
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    if dt.kind == "c":
        keep_a = _complex_ge(a, b, False) if larger else _complex_ge(b, a, False)
        nan_side = b if ignore_nan else a
        keep_a = lax.or_(_complex_has_nan(nan_side), keep_a)
        return lax.select(keep_a, a, b)
    if ties is not None and dt.kind not in "biu":
        ties = "first" if dt == _F16 else ties  # NumPy's float16 loops keep the first
        keep = {"first": lax.ge, "second": lax.gt} if larger else {"first": lax.le,
                                                                  "second": lax.lt}
        return lax.select(lax.or_(keep[ties](a, b), lax.ne(a, a)), a, b)
    if ignore_nan and dt.kind not in "biu":
        # fmax/fmin: a NaN in one operand gives the other one
        res = lax.composite(fname, _fmax if larger else _fmin, a, b)
    else:
        res = lax.max(a, b) if larger else lax.min(a, b)
    return res


@fastpath.binary("maximum")
def maximum(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise maximum; NaN in either operand gives NaN. Complex inputs compare
    lexicographically (real part first), as NumPy."""
    _extras("maximum", casting, order, subok, signature, dtype, (x1, x2))
    res = _extremum("maximum", x1, x2, dtype, casting, larger=True, ignore_nan=False)
    return _finish("maximum", res, out, where, casting)


@fastpath.binary("minimum")
def minimum(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Elementwise minimum; NaN in either operand gives NaN (complex: lexicographic)."""
    _extras("minimum", casting, order, subok, signature, dtype, (x1, x2))
    res = _extremum("minimum", x1, x2, dtype, casting, larger=False, ignore_nan=False)
    return _finish("minimum", res, out, where, casting)


def fmax(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise maximum ignoring NaN: a NaN in one operand gives the other one."""
    _extras("fmax", casting, order, subok, signature, dtype, (x1, x2))
    res = _extremum("fmax", x1, x2, dtype, casting, larger=True, ignore_nan=True)
    return _finish("fmax", res, out, where, casting)


def fmin(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Elementwise minimum ignoring NaN: a NaN in one operand gives the other one."""
    _extras("fmin", casting, order, subok, signature, dtype, (x1, x2))
    res = _extremum("fmin", x1, x2, dtype, casting, larger=False, ignore_nan=True)
    return _finish("fmin", res, out, where, casting)


# =========================================================================== selection



def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """Elementwise ``x if condition else y``; with only ``condition``, ``nonzero(condition)``.

    Parameters
    ----------
    condition : array_like
        Converted to bool (non-zero is true).
    x, y : array_like
        Promoted together (NEP 50); all three broadcast (``ValueError`` naming the shapes).
        As NumPy's ``where`` (unlike its arithmetic), a Python int outside the result
        dtype wraps (``where(True, -2, np.uint8(5))`` is ``uint8(254)``), also as a ``jit``
        argument; one outside ``[-2**63, 2**64)`` raises ``OverflowError``.
    size, fill_value : optional
        Only for the one-argument form (static output size, as in JAX's ``where``).

    Returns
    -------
    Array
        The broadcast shape and the promoted dtype of ``x`` and ``y``: the jaxpr is
        ``select_n(condition, y, x)`` (case 0 where the condition is False).
    """
    if x is None and y is None:
        from xnp.numpy_api import indexing  # noqa: PLC0415  (the one-argument form lives there)

        return indexing.nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("xnp.where: either both or neither of x and y should be given")
    if size is not None or fill_value is not None:
        raise ValueError("xnp.where: size and fill_value are only valid with the "
                         "one-argument form where(condition)")
    if type(x) is int or type(y) is int or isinstance(x, core.Tracer) or isinstance(
            y, core.Tracer):
        x, y = unsafe_int("where", x, y, "x"), unsafe_int("where", y, x, "y")
    return strong(where_weak(condition, x, y))


def unsafe_int(fname: str, v, other, argname: str, dtype=None):
    """``v`` as NumPy's ``where`` (and ``select``'s ``default``) takes an int operand: a
    Python int is cast unsafely to the result dtype (``dtype``, or NEP 50's with
    ``other``). Into an integer dtype it is held as an int64 array (uint64 from ``2**63``;
    beyond, NumPy's ``OverflowError``) and wraps (``where(True, -2, np.uint8(5))`` is 254)
    where arithmetic raises; into ml_dtypes' floats it goes through float64 (their own
    conversion refuses ints beyond int64). A Python int argument of ``jit`` (a weak int
    scalar tracer) wraps too: converted through its own dtype, which ``jit``'s range check
    does not see. Any other ``v`` is returned as it is."""
    if type(v) is int:
        if dtype is None:
            o = 0 if type(other) is int else other
            o = o if type(o) in _util._PY_SCALARS else asarray_for(
                fname, o, "x" if argname == "y" else "y")
            dtype, weak = _util.result_dtype(core.aval_of(0), core.aval_of(o))
        else:
            weak = False
        dtype = np.dtype(dtype)
        if dtype.kind not in "iu":
            if dtype.kind != "V" or -2 ** 63 <= v < 2 ** 63:
                return v  # (NumPy's conversion of it, as for any Python int)
            try:
                return core.lift(np.asarray(float(v)).astype(dtype), weak_type=weak)
            except OverflowError:
                raise OverflowError(f"xnp.{fname}: `{argname}` is the Python int {v}, too "
                                    "large to convert to float") from None
        info = np.iinfo(dtype)
        if info.min <= v <= info.max:
            return v
        if not -2 ** 63 <= v < 2 ** 64:
            raise OverflowError(f"xnp.{fname}: `{argname}` is the Python int {v}, too large "
                                "to convert to C long (NumPy holds it in int64 or uint64)")
        return core.lift(np.asarray(v).astype(dtype), weak_type=weak)
    if isinstance(v, core.Tracer) and (dtype is not None or _util.is_xnp(other)
                                       or isinstance(other, (np.ndarray, np.generic))):
        av = v.aval
        dt = np.dtype(dtype) if dtype is not None else core.aval_of(other).dtype
        if av.weak_type and av.shape == () and av.dtype.kind in "iu" and dt.kind in "iu" \
                and dt != av.dtype:
            return lax.convert_element_type(
                lax.convert_element_type(v, av.dtype), dt, weak_type=dtype is None)
    return v


def where_weak(condition, x, y):
    """:func:`where`'s three-argument form with the weak type of NEP 50's promotion kept
    (a result of two weak operands is weak): xnp's own arithmetic on a select, which
    continues in the operands' dtype as it would without one."""
    c = asarray_for("where", condition, "condition")
    a, b, _ = binary_operands("where", x, y, argnames=("x", "y"), ufunc=False)
    (c, a, b), _ = broadcast_arrays("where", _truth(c), a, b)
    return lax.select_n(c, b, a)


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue,  # noqa: A002
         max=_NoValue, where=True, casting="same_kind", order="K", dtype=None,  # noqa: A002
         subok=True, signature=None):
    """Limit values to ``[a_min, a_max]``: ``minimum(maximum(a, a_min), a_max)``
    (``numpy.clip``, its signature and its rules for the bounds).

    Parameters
    ----------
    a : array_like
        Any real numeric dtype (and bool).
    a_min, a_max : array_like or None
        The bounds, broadcast against ``a``; None means no limit on that side. Both or
        neither (then ``min``/``max`` or no bound).
    out : Array, optional
        Written in place, as in NumPy.
    min, max : array_like or None, keyword only
        The Array API names of the bounds, when ``a_min`` and ``a_max`` are not given
        (``clip(a, min=0)``); ``xnp.array_api.clip(x, min, max)`` takes them positionally.
    where, casting, dtype, order, subok, signature : keyword only
        NumPy's ufunc keywords, as for :func:`add`: ``dtype=`` casts the three operands
        to it (each under ``casting``) and computes in it; ``where=`` (a bool array,
        None is False) keeps ``out``'s elements where it is False (zero without ``out``)
        and, as NumPy, casts none of the elements it leaves out (a NaN there cast to an
        integer ``dtype``/``out`` warns nothing); ``casting`` also rules the cast of the
        result into ``out``.

    Returns
    -------
    Array
        The broadcast shape of ``a`` and the bounds; dtype by NEP 50 promotion
        over all three operands (a Python int bound outside an integer ``a``'s
        range is ignored when it cannot matter and raises ``OverflowError``
        otherwise, as in NumPy 2). A bfloat16 ``a`` with bfloat16 or Python-number
        bounds stays bfloat16, as xnp's other functions keep it; NumPy with ml_dtypes,
        which registers no bfloat16 clip loop, answers float32 whatever the bounds.

    Raises
    ------
    TypeError
        One of ``a_min``/``a_max`` is given without the other (``clip(a, 1)``,
        ``clip(a, 1, max=3)``); ``dtype=`` or ``out`` needs a cast ``casting`` does not
        allow (NumPy's message).
    ValueError
        ``min`` or ``max`` is given with ``a_min`` and ``a_max``.
    NotImplementedError
        ``signature=`` or an ``order`` other than 'K'/'A'/'C', as for :func:`add`.

    Warns
    -----
    numpy.exceptions.ComplexWarning
        Once per complex operand cast to a real or integer ``dtype=``, and once for a
        complex result cast into a real or integer ``out`` (``casting='unsafe'``), as
        NumPy warns; under ``jit`` when the function is traced, not at each call.

    Notes
    -----
    NaN in ``a`` or a bound propagates; if ``min > max`` the result is ``max``
    everywhere. Of an element and a bound equal to it (``-0.0``, ``0.0``) xnp returns what
    NumPy's clip loop does: the element for scalar bounds (``clip(-0.0, 0.0, 1)`` is
    ``-0.0``, and always for float16), the bound for bounds varying along ``a``; one bound
    is ``maximum``/``minimum``.
    """
    lo, hi = _clip_operands.numpy_bounds(a_min, a_max, min, max)
    _extras("clip", casting, order, subok, signature, dtype,
            tuple(v for v in (a, lo, hi) if v is not None))
    x = asarray_for("clip", a, "a")
    mask = _clip_operands.where_mask(where)  # None: no mask
    given = dtype is not None
    if not given and lo is not None and hi is not None:
        # NumPy's clip is one ufunc of three operands: its loop's dtype is their common
        # dtype (int8 with 0.5 and a float32 0-d array: float32), which two binary steps
        # can miss; where it differs from a's, the operands are cast to it first
        _, loop = ufunc_loop("clip", (x, lo, hi))
        if loop is not None and loop[-1] != _dtype_of(x):
            dtype = loop[-1]
    if dtype is not None:  # NumPy's loop of dtype: every operand cast to it first
        dt = canonical_dtype(dtype)
        # a Python int bound stays weak, as NumPy's loop takes it, never wrapped into the
        # dtype first (one beyond a's range where it cannot matter is dropped)
        lo, hi = _clip_operands.python_int_bounds(_dtype_of(x), dt, lo, hi)
        weak = dt.kind != "b"  # (a Python int with a bool array would promote it)
        lo, hi = (v if v is None or (weak and type(v) is int) else asarray_for("clip", v, name)
                  for v, name in ((lo, "min"), (hi, "max")))
        if given:  # the elements where= leaves out are never cast, as in NumPy
            x, lo, hi = _clip_operands.masked_operands(x, lo, hi, mask, dt)
        ops = (x, lo, hi)
        x, lo, hi = (v if v is None or (weak and type(v) is int)
                     else _cast("clip", v, dt, casting, i) for i, v in enumerate(ops))
    res = _clip_operands.before_out_cast(_clip(x, lo, hi), out, mask, casting)
    return _finish("clip", res, out, True if mask is None else mask, casting, warned=True)


def standard_clip(x, /, min=None, max=None):  # noqa: A002
    """``clip`` of the Array API standard (``xnp.array_api.clip``): ``x`` limited to
    ``[min, max]``, the bounds positional or keyword (None: no bound); :func:`clip`'s
    values and errors otherwise."""
    return clip(x, min=min, max=max)


def _clip(x, lo, hi):
    """``clip``'s result for the array ``x`` and its bounds (None: no limit)."""
    lo = None if lo is None else _clip_operands.clip_bound(x, lo, True)
    hi = None if hi is None else _clip_operands.clip_bound(x, hi, False)
    if lo is not None and hi is not None:  # the element for bounds of one value each (Notes)
        shapes = [core.aval_of(v).shape if _util.is_xnp(v) else np.shape(v) for v in (x, lo, hi)]
        many = np.prod(np.broadcast_shapes(*shapes)) > 1
        one = all(s == () or (np.prod(s) == 1 and many) for s in shapes[1:])
        steps = _clip_keeping_element if one else _clip_keeping_bound
        # one composite (eagerly NumPy's clip loop) of the operands converted as the two
        # steps convert them, where the first step's dtype is the result's
        v, low, _ = _binary("clip", x, lo, None, "same_kind")
        v, high, dt = _binary("clip", v, hi, None, "same_kind")
        if _dtype_of(low) != dt:
            return steps(x, lo, hi)
        return lax.composite("clip", steps, *_of_one_rank(v, low, high))
    res = x
    if lo is not None:
        res = _extremum("clip", res, lo, None, "same_kind", larger=True, ignore_nan=False)
    if hi is not None:
        res = _extremum("clip", res, hi, None, "same_kind", larger=False, ignore_nan=False)
    if res is x:
        res = _copy(x)
    return res


def _of_one_rank(*operands):
    """``operands`` with size-1 dims prepended to the largest rank (0-d ones stay 0-d)."""
    rank = max(len(core.aval_of(t).shape) for t in operands)
    return [_util.broadcast_to_rank(t, rank) for t in operands]


def _clip_steps(x, lo, hi, ties: str):
    """``minimum(maximum(x, lo), hi)`` keeping the operand ``ties`` names at a tie."""
    res = _extremum("clip", x, lo, None, "same_kind", larger=True, ignore_nan=False, ties=ties)
    return _extremum("clip", res, hi, None, "same_kind", larger=False, ignore_nan=False,
                     ties=ties)


def _clip_keeping_element(x, lo, hi):
    """Clip with bounds of one value each: NumPy's loop for constant bounds keeps ``x``."""
    return _clip_steps(x, lo, hi, "first")


def _clip_keeping_bound(x, lo, hi):
    """Clip with bounds varying along ``x``: NumPy's loop takes the bound at a tie."""
    return _clip_steps(x, lo, hi, "second")
