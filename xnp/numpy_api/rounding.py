"""Rounding (NumPy's routine reference, "Rounding"): ``floor``, ``ceil``, ``trunc``,
``rint``, ``round``/``around``, written on ``xnp.lax``; ufunc conventions as in
:mod:`xnp.numpy_api.elementwise`. Halfway cases round to even (``rint``, ``round``); bool
and integer inputs of ``floor``/``ceil``/``trunc`` are returned as copies of their dtype
(NumPy 2); complex inputs raise ``TypeError`` (but ``rint``/``round``, each part)."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, write_out
from xnp.numpy_api._ufunc import (_F16, _as_dtype, _copy, _dtype_of, _extras, _finish,
                                  _inexact, _reject, _scalar, _unary, _zero_like_dtype)

__all__ = ["floor", "ceil", "trunc", "rint", "round", "around"]


def _integral_passthrough(fname, x):
    """floor/ceil/trunc of bool and integers return a copy in the same dtype (NumPy 2)."""
    _reject(fname, x, "c", "complex numbers have no ordering")
    return _copy(x)


def _to_integral(fname, compute, x, out, where, casting, order, dtype, subok, signature):
    _extras(fname, casting, order, subok, signature, dtype, (x,))
    x = _unary(fname, x, dtype, casting)
    if _dtype_of(x).kind in "biuc":
        return _finish(fname, _integral_passthrough(fname, x), out, where, casting)
    return _finish(fname, compute(x), out, where, casting)


def floor(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Largest integral value ``<= x``; bool and integer inputs are returned unchanged
    (copied, same dtype, as NumPy 2); complex raises ``TypeError``."""
    return _to_integral("floor", lax.floor, x, out, where, casting, order, dtype, subok,
                        signature)


def ceil(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Smallest integral value ``>= x``; bool/integers unchanged; complex raises TypeError."""
    return _to_integral("ceil", lax.ceil, x, out, where, casting, order, dtype, subok,
                        signature)


def trunc(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Round towards zero (keeps -0.0); bool/integers unchanged; complex raises TypeError."""
    return _to_integral("trunc", _trunc_composite, x, out, where, casting, order, dtype,
                        subok, signature)


def _trunc_composite(x):
    return lax.composite("trunc", _trunc, x)


def _trunc(x):
    return lax.select(lax.lt(x, _zero_like_dtype(x)), lax.ceil(x), lax.floor(x))


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
    _extras("rint", casting, order, subok, signature, dtype, (x,))
    return _finish("rint", _rint(_inexact("rint", x, dtype, casting)), out, where, casting)


_F64 = np.dtype(np.float64)


def _power_of_ten(n: int) -> float:
    """NumPy's ``power_of_ten(n)`` (``PyArray_Round``): a table up to ``1e8``, then ``1e9``
    times 10, ``n - 9`` times, in double: not always ``10.0 ** n`` (``1e23`` is one unit
    in the last place above it), and ``inf`` from ``n = 309`` on, where ``10.0 ** n``
    raises ``OverflowError``."""
    if n < 9:
        return 10.0 ** n  # (exact)
    ret = 1e9
    for _ in range(min(n, 400) - 9):  # (inf from 309 on: the rest of the loop keeps it)
        ret *= 10.0
    return ret


def _factor(f: float, dt: np.dtype):
    """NumPy's Python float ``f`` converted for a ufunc with an array of ``dt``: a constant,
    or where it overflows ``dt`` (``1e5`` for float16) a conversion (``convert_element_type``)
    from float64, whose "overflow encountered in cast" is NumPy's conversion's."""
    with np.errstate(over="ignore"):
        c = np.asarray(f, dt)
    if np.isinf(c) and np.isfinite(f):
        return lax.convert_element_type(_scalar(f, _F64), dt)
    return _scalar(c, dt)


def _scale_round(x, decimals: int, dt: np.dtype):
    """NumPy's ``rint(x * f) / f`` (``decimals > 0``) or ``rint(x / f) * f`` with ``f =
    10 ** |decimals|`` (:func:`_power_of_ten`) converted twice, once for each operation,
    as NumPy's two ufunc calls convert it (two "overflow" warnings where it overflows)."""
    f = _power_of_ten(abs(decimals))
    first, then = (lax.mul, lax.div) if decimals > 0 else (lax.div, lax.mul)
    y = lax.round(first(x, _factor(f, dt)), 1)
    return then(y, _factor(f, dt))


def _round_decimals(x, decimals: int):
    dt = _dtype_of(x)
    if dt.kind == "c":
        return lax.complex(_round_decimals(lax.real(x), decimals),
                           _round_decimals(lax.imag(x), decimals))
    if dt.kind in "iu":
        if decimals >= 0:
            return _copy(x)
        # NumPy: in float64, rint(x / 10**-d) * 10**-d, cast back to the integer dtype
        y = _scale_round(lax.convert_element_type(x, _F64), decimals, _F64)
        return lax.convert_element_type(y, dt, weak_type=x.weak_type)
    if decimals == 0:
        return lax.round(x, 1)
    return _scale_round(x, decimals, dt)


def _c_int(decimals: int) -> int:
    """``decimals`` as NumPy's C ``int`` argument takes it: ``OverflowError`` outside."""
    if not -2**63 <= decimals < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    if decimals >= 2**31:
        raise OverflowError("signed integer is greater than maximum")
    if decimals < -2**31:
        raise OverflowError("signed integer is less than minimum")
    return decimals


def round(a, decimals=0, out=None):  # noqa: A001
    """Round to ``decimals`` decimal places, halfway cases to even (NumPy's algorithm:
    ``rint(a * 10**decimals) / 10**decimals``, so results can differ from decimal
    rounding, e.g. ``round(2.675, 2) == 2.67``).

    Parameters
    ----------
    a : array_like
        Bool input gives float16 for ``decimals == 0`` and raises ``TypeError`` otherwise
        (as NumPy); integers keep their dtype (negative ``decimals`` round in float64, then
        cast back); complex rounds both parts.
    decimals : int
        Static (a Python int, also under ``jit``); may be negative. A Python bool is 0 or
        1, as NumPy takes it. NumPy's scale ``10 ** |decimals|`` overflows to ``inf`` from
        309 on, so every result is NaN (``x * inf / inf``, ``0 * inf``), with NumPy's
        "invalid value" warnings, and for integers that NaN cast back as NumPy casts it
        (``iinfo.min`` for int32/int64 on x86-64, 0 for the narrower), also under ``jit``.
    out : Array, optional
        Written in place (``same_kind`` casting).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``decimals`` is traced.
    OverflowError
        ``decimals`` is outside C's ``int`` (NumPy's argument type).
    TypeError
        Bool input with ``decimals != 0``.
    """
    decimals = _c_int(_util.static_int("round", decimals, "decimals", python_bool=True))
    x = asarray_for("round", a, "a")
    if _dtype_of(x).kind == "b":
        if decimals != 0:  # NumPy scales into a bool array: its multiply/divide refuses
            np.round(np.zeros(0, np.bool_), decimals)  # its own UFuncTypeError, as NumPy's
            raise TypeError(f"Cannot cast ufunc '{'multiply' if decimals > 0 else 'divide'}'"
                            " output from dtype('float64') to dtype('bool') with casting "
                            "rule 'same_kind'")
        x = _as_dtype("round", x, _F16)
    return write_out("round", out, _round_decimals(x, decimals))


around = round
