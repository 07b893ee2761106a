"""``piecewise``: a piecewise-defined function, written with ``where`` so it traces."""

from __future__ import annotations

import numpy as np

from xnp.numpy_api import creation as _cr
from xnp.numpy_api import elementwise as _el
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import manipulation as _mp
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api._util import is_xnp

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
        there is no default) the result is 0.

    Returns
    -------
    Array
        ``x``'s shape and dtype (values are cast to it unsafely, as NumPy's assignment does).

    Raises
    ------
    ValueError
        ``len(funclist)`` is neither ``len(condlist)`` nor ``len(condlist) + 1``.
    IndexError
        A condition's shape differs from ``x``'s (NumPy: boolean-index mismatch); an empty
        condition array (NumPy reads ``condlist[0]``).

    Notes
    -----
    Differences from NumPy: each callable receives the whole ``x`` (not ``x[cond]``) and its
    result is selected with ``where``, so it must be elementwise and work on all of ``x``
    (values outside its piece are discarded, but e.g. a ``sqrt`` of negatives there may
    still warn eagerly). This makes ``piecewise`` work under ``jit``, ``vmap`` and ``grad``
    (``x`` and the conditions may be traced; ``funclist`` is static).
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
    for cond, func in zip(conds, funclist):
        value = func(x, *args, **kw) if callable(func) else func
        y = _el.where_weak(cond, _cr.astype(_cr.asarray(value), x.dtype), y)
    return y
