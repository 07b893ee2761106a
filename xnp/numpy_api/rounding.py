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
        Static (a Python int, also under ``jit``); may be negative. A Python bool is 0 or
        1, as NumPy takes it.
    out : Array, optional
        Written in place (``same_kind`` casting).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``decimals`` is traced.
    """
    decimals = _util.static_int("round", decimals, "decimals", python_bool=True)
    x = asarray_for("round", a, "a")
    if _dtype_of(x).kind == "b":
        x = _as_dtype("round", x, _F16)
    return write_out("round", out, _round_decimals(x, decimals))


around = round
