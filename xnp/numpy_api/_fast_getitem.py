"""Eager fast paths of ``Array.__getitem__`` and ``Array.__setitem__`` (see
:mod:`xnp.numpy_api._fastpath`): ints, slices, None and Ellipsis (NumPy basic indexing)
and, for reads, concrete integer / bool index arrays (NumPy's advanced indexing) on an
eager array whose host value is there are NumPy's own indexing, which is what the full
path computes. Item assignments whose index and value the eager dispatch cache would key
by value (``a[i] = x`` in a loop over ``i``) are served here."""

from __future__ import annotations

from typing import Callable

import numpy as np

from xnp.numpy_api._fastpath import (_EVAL, _NATIVE, _STATE, _TABLE, _TRACING_THREADS,
                                      _served, _wrap)
from xnp.tracing import core
from xnp.tracing.array_base import FastFunc, configure_setitem
from xnp.tracing.core import Array

__all__ = ["getitem", "setitem"]


_BASIC = frozenset({int, slice, type(None), type(Ellipsis)})


def _basic_index(idx) -> bool:
    """Ints, slices, None and Ellipsis (NumPy basic indexing: views, or a 0-d copy)."""
    if type(idx) in _BASIC:
        return True
    if type(idx) is tuple:
        for i in idx:
            if type(i) not in _BASIC:
                return False
        return True
    return False


def _host_index_entry(i):
    """The host form of one advanced-index entry for NumPy's own indexing, or None when
    the entry is not a concrete integer/bool index array: an eager ``Array`` (its host
    value), a NumPy integer/bool array, a list of Python ints."""
    t = type(i)
    if t is Array:
        v = i._v
        return v if v is not None and i._dev is None and v.dtype.kind in "iub" else None
    if t is np.ndarray:
        return i if i.dtype.kind in "iub" else None
    if t is list and i:
        for e in i:
            if type(e) is not int:
                return None
        return i
    return None


def _host_index(idx):
    """``idx`` with its advanced-index entries as host arrays, or None when some entry is
    neither basic (int, slice, None, Ellipsis) nor a concrete integer/bool index array.
    NumPy indexes with it exactly as the full path does (xnp follows NumPy's indexing)."""
    if type(idx) is tuple:
        out = []
        for i in idx:
            if type(i) in _BASIC:
                out.append(i)
                continue
            h = _host_index_entry(i)
            if h is None:
                return None
            out.append(h)
        return tuple(out)
    return _host_index_entry(idx)


def getitem(slow: Callable) -> Callable:
    """``Array.__getitem__`` with the fast path for ints, slices, None and Ellipsis (NumPy
    basic indexing: views, NumPy's scalar for one element, as the full path) and for
    concrete integer / bool index arrays (NumPy's advanced indexing: a copy). The rule
    below is in C where the C module is built (``FastFunc(..., kind="getitem")``,
    ``xnp/_native/array_base.c``): no Python frame when served."""
    if FastFunc is not None:
        return _served(getitem, slow, FastFunc("__getitem__", 2, False, slow, kind="getitem"))

    def fast(self, idx):
        if (not _TRACING_THREADS or _STATE.trace is _EVAL) and _TABLE[0] and self._dev is None:
            if _basic_index(idx):
                host = idx
            else:
                host = _host_index(idx)
                if host is None:
                    return slow(self, idx)
            try:
                out = self._v[host]
            except IndexError:
                return slow(self, idx)  # the full path raises xnp's message
            if type(out) is not _NATIVE[0]:
                return out  # one element: NumPy's scalar, as NumPy's indexing
            return _wrap(out, self._weak)
        return slow(self, idx)

    return _served(getitem, slow, fast)



def _refused_after_cast(slow, x, idx, value):
    """``slow(x, idx, value)`` (the full path, which raises xnp's message) for an item
    assignment whose index NumPy refused with an IndexError, which it checks after its cast
    of the value: that cast's floating-point warnings and handler calls happened once, as
    NumPy's, so the full path's own cast is silenced."""
    with np.errstate(all="ignore"):
        return slow(x, idx, value)


def setitem(slow: Callable) -> Callable:
    """``Array.__setitem__`` with the fast path in C (``FastFunc`` of arity 3,
    ``xnp/_native/setitem.c``) for a basic index (ints, slices of ints, None, Ellipsis)
    and a Python or NumPy scalar or an eager array as the value, into an eager array's own
    writable host memory, with no transformation active: NumPy's item assignment, which is
    what the full path does there (whose signatures, keyed by the index and the scalar's
    values, would each be new in a loop). No Python frame runs, so NumPy's warnings name
    the caller's line. Anything else, and an assignment NumPy refuses before writing (the
    full path raises xnp's message), takes the full path. Without the C module: ``slow``."""
    if FastFunc is None or configure_setitem is None:
        return slow
    configure_setitem(core._SCOPES_ON, core._REBOUND_ON, _refused_after_cast)
    return _served(setitem, slow, FastFunc("__setitem__", 3, False, slow))
