"""``piecewise``: a piecewise-defined function, written with ``where`` so it traces."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import creation as _cr
from xnp.numpy_api import elementwise as _el
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import manipulation as _mp
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api._like_layout import like_layout
from xnp.numpy_api._util import is_xnp
from xnp.tracing import core

__all__ = ["piecewise"]


def _is_condition_list(condlist, x_ndim: int) -> bool:
    """NumPy's test for "``condlist`` is already a list of conditions" (not one condition)."""
    if isinstance(condlist, (bool, int, np.bool_)):
        return False
    if is_xnp(condlist) or isinstance(condlist, np.ndarray):
        if condlist.ndim >= 1 and condlist.shape[0] == 0:  # NumPy reads condlist[0]
            raise IndexError("xnp.piecewise: index 0 is out of bounds for an empty condlist")
        return condlist.ndim >= 2 or (condlist.ndim == 1 and x_ndim == 0)
    first = condlist[0]
    return (x_ndim == 0 or isinstance(first, (list, np.ndarray))
            or (is_xnp(first) and first.ndim > 0))


def _condition(c, shape):
    c = _cr.astype(_cr.asarray(c), np.bool_)
    if c.ndim and c.shape != shape:
        raise IndexError(f"xnp.piecewise: a condition of shape {c.shape} does not match x's "
                         f"shape {shape} (NumPy's partial boolean indexing is not supported)")
    return _mp.broadcast_to(c, shape)


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a piecewise-defined function (``numpy.piecewise``).

    Parameters
    ----------
    x : array_like
        The domain; the result has its shape and dtype.
    condlist : bool array or list of bool arrays
        Conditions, each of ``x``'s shape (or 0-d, broadcast). Non-bool conditions are
        converted with ``astype(bool)``. A single array for ``x`` of rank >= 1 counts as one
        condition, as in NumPy.
    funclist : list of callables or scalars
        ``len(condlist)`` entries, or one more: the extra last entry is used where no
        condition holds. A callable is called as ``f(x, *args, **kw)``; a scalar is a
        constant. Where several conditions hold, the later one wins; where none holds (and
        there is no default) the result is 0. A Python scalar (constant or a callable's
        result) is stored as NumPy's ``y[cond] = value`` stores it, whether or not its
        condition holds anywhere: an int outside an integer ``x``'s dtype raises
        ``OverflowError``, a float is truncated into it (NaN: ``ValueError``, inf or out of
        range: ``OverflowError``), a complex into a real dtype raises ``TypeError``, a
        float overflowing a narrower float dtype warns. Under ``jit`` a Python int argument
        is checked at each call (``OverflowError``); a traced float is cast unchecked.

    Returns
    -------
    Array
        ``x``'s shape, dtype and memory order (NumPy's ``zeros_like``); array and NumPy
        scalar values are cast to the dtype unsafely, as NumPy's assignment does.

    Raises
    ------
    ValueError
        ``len(funclist)`` is neither ``len(condlist)`` nor ``len(condlist) + 1``.
    IndexError
        A condition's shape differs from ``x``'s (NumPy: boolean-index mismatch); an empty
        condition array (NumPy reads ``condlist[0]``).
    OverflowError, ValueError, TypeError
        A Python scalar value NumPy cannot store in ``x``'s dtype (above); the message
        names ``funclist[i]`` and the dtype.

    Notes
    -----
    Differences from NumPy: each callable receives the whole ``x`` (not ``x[cond]``) and its
    result is selected with ``where``, so it must be elementwise and work on all of ``x``
    (values outside its piece are discarded, but e.g. a ``sqrt`` of negatives there may
    still warn eagerly, and a Python scalar it returns is checked as above even where its
    piece is empty, for which NumPy does not call it). This makes ``piecewise`` work under
    ``jit``, ``vmap`` and ``grad`` (``x`` and the conditions may be traced; ``funclist`` is
    static).
    """
    x = _cr.asarray(x)
    if not _is_condition_list(condlist, x.ndim):
        condlist = [condlist]
    n, n2 = len(condlist), len(funclist)
    if n not in (n2, n2 - 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    conds = [_condition(c, x.shape) for c in condlist]
    if n == n2 - 1:
        none = _rd.any(_mp.stack(conds), axis=0) if conds else _cr.zeros(x.shape, np.bool_)
        conds.append(_lg.logical_not(none))
    y = _cr.zeros_like(x)
    for i, (cond, func) in enumerate(zip(conds, funclist)):
        value = func(x, *args, **kw) if callable(func) else func
        name = f"the result of funclist[{i}]" if callable(func) else f"funclist[{i}]"
        y = _el.where_weak(cond, _value(value, x.dtype, name), y)
    # NumPy fills zeros_like(x) in place: x's memory order, whatever the conditions' and
    # values' (where's own order follows them: row-major conditions give a row-major one)
    return like_layout(y, "K", x, fresh=True)


def _value(value, dtype, name):
    """``value`` as NumPy's ``y[cond] = value`` stores it into ``y`` of ``dtype``: a Python
    scalar converted by NumPy itself (an int outside an integer dtype raises
    ``OverflowError``, a float NaN ``ValueError``, a complex into a real dtype ``TypeError``,
    an overflowing float warns); anything else cast unsafely, but a Python int argument of
    ``jit`` (a weak int scalar tracer) is converted directly, so that ``jit`` checks its
    range at each call as NumPy does."""
    if type(value) in (bool, int, float, complex):  # exact: np.float64 is a float subclass
        try:
            return core.lift(np.asarray(value, dtype=dtype))
        except (OverflowError, ValueError, TypeError) as e:
            raise type(e)(f"xnp.piecewise: {name} is the Python {type(value).__name__} "
                          f"{value!r}, which NumPy cannot store in an array of dtype "
                          f"{np.dtype(dtype).name}: {e}") from None
    if isinstance(value, core.Tracer) and value.aval.weak_type and value.aval.shape == () \
            and value.aval.dtype.kind in "iu":
        return lax.convert_element_type(value, dtype)
    return _cr.astype(_cr.asarray(value), dtype)
