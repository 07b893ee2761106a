"""NumPy's conversion of Python numbers that stand beside arrays in one flat
``concatenate`` (``numpy.concatenate(items, axis=None)``, and the set operations built on
it): weak, as NEP 50 makes them, and cast into the result's dtype as NumPy casts them."""

from __future__ import annotations

import numpy as np

from xnp.numpy_api._util import result_dtype
from xnp.tracing import core, fp_warnings

__all__ = ["weak_numbers"]


def weak_numbers(fname: str, items, asarray, dtype=None, out=None, argnames=None
                 ) -> tuple[list, np.dtype | None]:
    """``(items, dtype)``: ``items`` (the operands of NumPy's ``concatenate(items,
    axis=None)``) with each Python number converted as NumPy converts it there, and the
    result's dtype. A number is weak (NEP 50), so the result's dtype is the other items'
    where it holds the number's kind (``(int8_array, 300)`` is int8; numbers only: int64,
    float64 or complex128 as their kinds, so ``(2**63, 1)`` is int64, the first wrapped), and
    it is cast into that dtype as NumPy casts it (an int wraps; a float beyond a narrow
    float's range is an infinity, with NumPy's "overflow encountered in cast" at the user's
    line), as a 1-element NumPy array. A Python bool is NumPy's bool array, not weak.

    With ``dtype=`` (or ``out``, whose dtype then is the target) NumPy casts each number
    into it from its own array (``numpy.asarray(2**63)`` is uint64) whatever ``casting``,
    where that dtype holds the number by NumPy's rule for Python scalars (an int: any
    integer or inexact dtype; a float: any inexact one; a complex: a complex one); ``dtype``
    is returned as given. Without a number, or a lone one, ``items`` as they are.

    ``asarray(fname, item, argname)`` converts the items that are not numbers (the
    caller's conversion of array-likes); ``argnames``: each item's argument name (default
    ``arrays``).

    Raises
    ------
    OverflowError
        A Python int beyond int64 and uint64 cast into an integer dtype, or beyond float64
        into a float (NumPy's message).
    """
    items = list(items)
    names = argnames or ("arrays",) * len(items)
    numbers = [type(a) in _NUMBERS for a in items]
    target = dtype if dtype is not None else getattr(out, "dtype", None)
    if target is not None:
        try:
            target = np.dtype(target)
        except TypeError:  # (not a dtype: the caller reports it)
            return items, dtype
        held = _HELD.get(target.kind, ())
        cast = _converted(fname, lambda a: np.asarray(a).astype(target))
        return [cast(a, name) if n and type(a) in held else a
                for a, n, name in zip(items, numbers, names)], dtype
    if not any(numbers) or len(items) == 1:
        return items, None
    items = [a if n else asarray(fname, a, name) for a, n, name in zip(items, numbers, names)]
    # (an int beyond int64 is a weak int all the same: NumPy converts it into the result)
    dt, _ = result_dtype(*(core.aval_of(0) if type(a) is int and not -2**63 <= a < 2**63
                           else core.aval_of(a) for a in items))
    empty = np.empty(0, dt)
    cast = _converted(fname, lambda a: np.concatenate((empty, a), axis=None))
    return [cast(a, name) if n else a for a, n, name in zip(items, numbers, names)], dt


_NUMBERS = (int, float, complex)
#: by a target dtype's kind, the Python numbers NumPy casts into it whatever ``casting``
_HELD = {"i": (int,), "u": (int,), "f": (int, float), "c": _NUMBERS}


def _converted(fname, convert):
    """``convert`` of a number at the user's line, NumPy's OverflowError named for
    ``fname``."""
    def call(a, argname):
        try:
            return fp_warnings.at_user_line(convert, a)
        except OverflowError as e:
            raise OverflowError(f"xnp.{fname}: argument `{argname}`: {e}") from None
    return call
