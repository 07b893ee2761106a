"""``clip``'s operands (:func:`xnp.clip`), beyond the helpers it shares with the other
ufuncs (:mod:`xnp.numpy_api._ufunc`): NumPy 2's Python-int bounds beyond an integer
``a``'s range; NumPy's ``ComplexWarning`` for a complex operand cast to a real ``dtype=``
or a complex result cast into a real ``out``; the elements ``where=`` leaves out kept out
of those casts, as NumPy's masked loop never casts them (a NaN there warns nothing)."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._ufunc import _WhereDtypeError, _where_mask, warn_out_cast
from xnp.numpy_api._util import broadcast_arrays
from xnp.tracing import core

__all__ = ["numpy_bounds", "clip_bound", "where_mask", "masked_operands",
           "python_int_bounds", "before_out_cast"]


def numpy_bounds(a_min, a_max, min_, max_) -> tuple:
    """``clip``'s bounds ``(lower, upper)`` (None: no bound) by ``numpy.clip``'s rules:
    ``a_min`` and ``a_max`` both or neither (then ``min``/``max``, each None where not
    given); ``np._NoValue`` marks an argument not given.

    Raises
    ------
    TypeError
        Only one of ``a_min``/``a_max`` is given (NumPy's message, naming the other).
    ValueError
        ``min`` or ``max`` is given with ``a_min`` and ``a_max``.
    """
    missing = np._NoValue
    if a_min is missing and a_max is missing:
        return (None if min_ is missing else min_), (None if max_ is missing else max_)
    if a_min is missing or a_max is missing:
        name = "a_min" if a_min is missing else "a_max"
        raise TypeError(f"xnp.clip() missing 1 required positional argument: '{name}' "
                        f"(numpy.clip takes both a_min and a_max, or neither and the "
                        f"keywords min=/max=)")
    if min_ is not missing or max_ is not missing:
        raise ValueError("xnp.clip: Passing `min` or `max` keyword argument when `a_min` "
                         "and `a_max` are provided is forbidden.")
    return a_min, a_max


def clip_bound(x, bound, lower: bool):
    """NumPy 2: a Python int bound beyond an integer ``x``'s range on the side that cannot
    matter (a lower bound below the minimum, an upper one above the maximum) is dropped;
    on the other side it stays and raises ``OverflowError`` in the promotion."""
    dt = core.aval_of(x).dtype
    if type(bound) is int and dt.kind in "iu":
        info = np.iinfo(dt)
        if (lower and bound < info.min) or (not lower and bound > info.max):
            return None
    elif (_util.traced_int(x, bound) or (None,))[0] is bound:
        # a Python int argument of jit: limited on the side that cannot matter, so that
        # only the other side is checked against its value (xnp.tracing.python_ints)
        return _util.clamp_traced_int(bound, dt, lower=lower, upper=not lower)
    return bound


def where_mask(where):
    """None for ``where=True`` (no mask), else the bool mask NumPy's ufuncs make of
    ``where``: None is False, a non-bool array raises NumPy's ``TypeError``, anything else
    counts by the truth of its elements."""
    if where is True or (type(where) is np.bool_ and where):
        return None
    try:
        return _where_mask("clip", where)
    except _WhereDtypeError as e:
        raise TypeError(str(e)) from None


def _masked(v, mask):
    """``v`` broadcast against ``mask``, 0 where it is False."""
    aval = core.aval_of(v)
    (m, v), _ = broadcast_arrays("clip", mask, v)
    zero = core.lift(np.zeros((), aval.dtype), weak_type=aval.weak_type)
    return lax.select_n(m, zero, v)


def masked_operands(x, lo, hi, mask, dt):
    """The operands ``a``, ``min``, ``max`` (arrays or None) before their cast to ``dt``,
    each that the cast changes with 0 where ``mask`` (None: none) is False. A bound of one
    element stays as it is: its shape decides clip's ties (``clip``'s Notes)."""
    if mask is None:
        return x, lo, hi
    if core.aval_of(x).dtype != dt:
        x = _masked(x, mask)
    lo, hi = (v if v is None or core.aval_of(v).dtype == dt or core.aval_of(v).size <= 1
              else _masked(v, mask) for v in (lo, hi))
    return x, lo, hi


def python_int_bounds(a_dtype, dt, lo, hi):
    """``lo``, ``hi`` as NumPy's clip takes Python int bounds before its loop of dtype
    ``dt``: one beyond an integer ``a_dtype``'s range on the side where it cannot matter is
    dropped (None); one that remains must fit an integer ``dt`` (NumPy's OverflowError)."""
    out = []
    for v, lower in ((lo, True), (hi, False)):
        if type(v) is int:
            if a_dtype.kind in "iu":
                info = np.iinfo(a_dtype)
                v = None if (v <= info.min if lower else v >= info.max) else v
            if v is not None and dt.kind in "iu" and not \
                    np.iinfo(dt).min <= v <= np.iinfo(dt).max:
                raise OverflowError(f"Python integer {v} out of bounds for {dt}")
        out.append(v)
    return out


def before_out_cast(res, out, mask, casting):
    """``res`` ready for its cast into ``out`` (an array, a tuple of one, or None): NumPy's
    ``ComplexWarning`` for a complex ``res`` and a real or integer ``out``
    (:func:`xnp.numpy_api._ufunc.warn_out_cast`), and 0 where ``mask`` (None: none) is
    False, elements that keep ``out``'s values uncast (where ``casting`` allows the cast
    and the shapes fit: otherwise the caller raises NumPy's error)."""
    if warn_out_cast(res, out, mask, casting) is None:
        return res
    return res if mask is None else _masked(res, mask)
