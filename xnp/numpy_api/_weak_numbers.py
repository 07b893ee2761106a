"""NumPy's conversion of Python numbers that stand beside arrays in one flat
``concatenate`` (``numpy.concatenate(items, axis=None)``, and the set operations built on
it): weak, as NEP 50 makes them, and cast into the result's dtype as NumPy casts them."""

from __future__ import annotations

import numpy as np

from xnp.numpy_api._util import result_dtype
from xnp.tracing import core, fp_warnings

__all__ = ["weak_numbers"]


def weak_numbers(fname: str, items, asarray) -> tuple[list, np.dtype | None]:
    """``(items, dtype)``: ``items`` (the operands of NumPy's ``concatenate(items,
    axis=None)``) with each Python number beside an array converted as NumPy converts it
    there, and the result's dtype. The number is weak (NEP 50), so the result's dtype is the
    arrays' where it holds the number's kind (``(int8_array, 300)`` is int8), and it is cast
    into that dtype as NumPy casts it (an int wraps; a float beyond a narrow float's range
    is an infinity, with NumPy's "overflow encountered in cast" at the user's line), as a
    1-element NumPy array. Without a number, or without an array, ``items`` as they are
    (each number is then NumPy's own array of it) and None.

    ``asarray(fname, item, argname)`` converts the items that are not numbers (the
    caller's conversion of array-likes).

    Raises
    ------
    OverflowError
        A Python int beyond int64 and uint64 (NumPy converts no larger).
    """
    items = list(items)
    numbers = [core.is_python_scalar(a) for a in items]
    if not any(numbers) or all(numbers):
        return items, None
    items = [a if n else asarray(fname, a, "arrays") for a, n in zip(items, numbers)]
    out = []
    try:
        # (an int beyond int64 is a weak int all the same: beside floats NumPy converts it)
        dt, _ = result_dtype(*(core.aval_of(0) if type(a) is int and not -2**63 <= a < 2**63
                               else core.aval_of(a) for a in items))
        empty = np.empty(0, dt)
        for a, number in zip(items, numbers):
            out.append(fp_warnings.at_user_line(np.concatenate, (empty, a), axis=None)
                       if number else a)
    except OverflowError as e:
        raise OverflowError(f"xnp.{fname}: a Python int beyond the integers NumPy converts "
                            f"(int64 and uint64): {e}") from None
    return out, dt
