"""Eager fast path: NumPy-style calls on plain eager arrays skip the dispatch layers.

An eager ``a + b`` normally runs ``numpy_api.add`` (conversion, NEP 50 promotion,
broadcasting) -> ``lax.add`` -> ``Primitive.bind`` -> ``EvalTrace`` -> the eager
backend. When no transformation is active and the operands are already in the
form all those layers would pass through unchanged (eager arrays of one dtype (NumPy
broadcasting is xnp's), or an eager array and a small Python scalar whose dtype the array's
dtype wins under NEP 50), the result is the eager backend's native function
applied directly, which is what the layers would compute. Each backend opts in
per function and per dtype with a ``fast_ops`` table: ``name -> FastOp``; a
backend without the table (the eager XLA mode) always takes the full path.

Anything else -- a tracer, an active ``jit``/``grad``/``vmap`` (omnistaging must
record the operation), mixed dtypes or shapes, keyword arguments, a device buffer
not read to the host yet -- falls through to the full path, so the fast path
never changes a result, a dtype, a weak type or an error message.
"""

from __future__ import annotations

import functools
from typing import Callable, NamedTuple

from xnp.tracing import core
from xnp.tracing.core import Array

__all__ = ["FastOp", "binary", "unary", "getitem", "refresh"]


class FastOp(NamedTuple):
    """A backend's direct implementation of a NumPy function for some dtypes.

    ``fn(*natives)`` must return exactly what the full path returns for operands
    of one dtype in ``dtypes`` (a native array or a 0-d scalar), and raise
    ``ValueError`` for shapes that do not broadcast; ``bool_out``
    marks functions whose result is a strong bool (comparisons).
    """

    fn: Callable
    dtypes: frozenset
    bool_out: bool = False


_STATE = core._STATE
_EVAL = _STATE.trace  # the base trace: eager evaluation, no transformation active
_TABLE: list = [{}]  # the current eager backend's fast_ops
_WRAP: list = [None]  # the current eager backend's wrap_native
_NATIVE: list = [None]
_INT_KINDS = frozenset("iu")
_INEXACT_KINDS = frozenset("fc")


def refresh() -> None:
    """Re-read the current eager backend's ``fast_ops`` (called when it changes)."""
    backend = core.eager_backend()
    _TABLE[0] = getattr(backend, "fast_ops", {})
    _WRAP[0] = backend.wrap_native
    _NATIVE[0] = backend.native_type


def _scalar_fits(v, scalar) -> bool:
    """True when ``array(dtype=v.dtype) op scalar`` keeps ``v.dtype`` without overflow:
    a float with a float/complex array, or a small int (0..127 fits every integer
    dtype, negative ones only signed and inexact dtypes)."""
    t = type(scalar)
    kind = v.dtype.kind
    if t is float:
        return kind in _INEXACT_KINDS
    if t is int:
        if kind in _INEXACT_KINDS or kind == "i":
            return -128 <= scalar < 128
        return kind == "u" and 0 <= scalar < 128
    return False


def _wrap(out, weak: bool) -> Array:
    return Array(out if type(out) is _NATIVE[0] else _WRAP[0](out), weak)


def binary(name: str, *, swap: bool = False) -> Callable:
    """Decorator: a NumPy-style binary function (or operator method) ``slow`` gets the
    fast path for the backend's ``fast_ops[name]``.

    ``swap`` serves reflected operators: ``__radd__(self, o)`` computes ``add(o, self)``.
    """
    return functools.partial(_binary, name, swap)


def _binary(name: str, swap: bool, slow: Callable) -> Callable:
    state, table, native, array, fits, base = _STATE, _TABLE, _NATIVE, Array, _scalar_fits, _EVAL

    def fast(x1, x2, *args, **kwargs):
        # one flat body: this runs on every eager operator, so no helper calls
        if state.trace is base and not args and not kwargs:
            op = table[0].get(name)
            if op is not None:
                a, b = (x2, x1) if swap else (x1, x2)
                fn, dtypes, bool_out = op
                ta, tb = type(a), type(b)
                va = vb = None
                if ta is array:
                    va = a._val
                    if va is not None and va.dtype in dtypes:
                        if tb is array:
                            vb = b._val
                            if vb is not None and vb.dtype is not va.dtype and (
                                    vb.dtype != va.dtype):
                                vb = None
                            weak = a._weak and b._weak
                        elif fits(va, b):
                            vb, weak = b, a._weak
                elif tb is array:
                    vb = b._val
                    if vb is not None and vb.dtype in dtypes and fits(vb, a):
                        va, weak = a, b._weak
                if va is not None and vb is not None:
                    try:
                        out = fn(va, vb)
                    except ValueError:  # shapes do not broadcast: the full path words it
                        return slow(x1, x2)
                    return array(out if type(out) is native[0] else _WRAP[0](out),
                                 weak and not bool_out)
        return slow(x1, x2, *args, **kwargs)

    return functools.wraps(slow)(fast)


def unary(name: str) -> Callable:
    """Decorator: a NumPy-style unary function (or operator method) ``slow`` gets the
    fast path for the backend's ``fast_ops[name]``."""
    return functools.partial(_unary, name)


def _unary(name: str, slow: Callable) -> Callable:
    state, table, native, array = _STATE, _TABLE, _NATIVE, Array

    def fast(x, *args, **kwargs):
        if state.trace is _EVAL and not args and not kwargs and type(x) is array:
            op = table[0].get(name)
            v = x._val
            if op is not None and v is not None and v.dtype in op[1]:
                out = op[0](v)
                return array(out if type(out) is native[0] else _WRAP[0](out),
                             x._weak and not op[2])
        return slow(x, *args, **kwargs)

    return functools.wraps(slow)(fast)


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


def getitem(slow: Callable) -> Callable:
    """``Array.__getitem__`` with the fast path for ints, slices, None and Ellipsis (NumPy
    basic indexing: views, a 0-d copy for a full integer index, as the full path)."""

    def fast(self, idx):
        if _STATE.trace is _EVAL and _TABLE[0] and self._buf is None and _basic_index(idx):
            v = self._val
            try:
                out = v[idx]
            except IndexError:
                return slow(self, idx)  # the full path raises xnp's message
            return _wrap(out, self._weak)
        return slow(self, idx)

    return functools.wraps(slow)(fast)
