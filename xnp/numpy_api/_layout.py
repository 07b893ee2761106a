"""Memory layout of traced arrays, modelled to decide NumPy's view-or-copy for ``reshape``.

NumPy's ``reshape``/``ravel`` return a view exactly when the new shape can be
expressed with strides over the old memory (``_attempt_nocopy_reshape`` in
NumPy's ``shape.c``), otherwise a copy; writes through the result reach the base
only in the view case. A tracer has no memory, so xnp models what an eager run
would hold: :func:`layout` gives the element strides of the array NumPy would
have (``None`` when it cannot be decided) and :func:`reshape_strides` applies
NumPy's rule to them.

* eager arrays: their real strides;
* traced views (``view_of`` records, :mod:`xnp.numpy_api._views`): the strides
  derived from their base's when the view was made;
* under ``jit``, a result of a primitive whose eager implementation never returns a
  view: C-contiguous when it has at most one axis or when all its operands are
  (NumPy's ``order='K'``: ``y.T * 2`` is F-ordered), else unknown; ``jit`` arguments
  and results of view-returning primitives used internally are unknown (the eager
  arguments' layout is not part of the trace);
* ``vmap`` values whose per-example layout is not provably contiguous: unknown.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax._strides import c_strides, reshape_strides
from xnp.tracing import core, rebound, recording

__all__ = ["c_strides", "layout", "set_layout", "reshape_strides", "index_strides"]

#: the annotation (``Tracer.annotations``) of a tracer's layout set by set_layout, and of a
#: jit trace's {jaxpr variable: strides or None} memo (``Trace.annotations``)
_NOTE = "layout"
_UNSET = object()


def _is_c_contiguous(shape, strides) -> bool:
    return all(n == 1 or s == c for n, s, c in zip(shape, strides, c_strides(shape)))


def set_layout(t, strides) -> None:
    """Record ``strides`` as the layout of the tracer ``t`` (e.g. a fresh copy)."""
    if isinstance(t, core.Tracer):
        t.annotations()[_NOTE] = strides
        from xnp.tracing.partial_eval import JitTracer  # noqa: PLC0415

        if isinstance(t, JitTracer):  # results computed from t's jaxpr variable see it too
            _trace_memo(t._trace)[t.val] = strides


def _eager_strides(v: np.ndarray):
    it = v.itemsize
    if it == 0 or any(s % it for s in v.strides):
        return None
    return tuple(s // it for s in v.strides)


_UPDATES = frozenset({lax.dynamic_update_slice_p, lax.scatter_p, lax.scatter_add_p,
                      lax.scatter_mul_p, lax.scatter_min_p, lax.scatter_max_p})


def _c_layout(shape, strides) -> bool:
    return strides is not None and _is_c_contiguous(shape, strides)


def _eqn_layout(eqn, in_layouts):
    """Layouts of an equation's results from its operands' (eager xp semantics): views
    follow their operand; an updated copy keeps its operand's layout; other results
    are C-contiguous when every array operand is (NumPy's ``order='K'``: ``y.T * 2``
    is F-ordered), else unknown."""
    prim, outs = eqn.primitive, eqn.outvars
    rule = getattr(prim, "view", None)  # a view primitive's layout rule (xnp.lax._strides)
    if rule and len(outs) == 1 and eqn.invars:
        x = eqn.invars[0]
        return [rule(eqn.params, x.aval.shape, in_layouts[0], outs[0].aval.shape)]
    if prim in _UPDATES:
        ok = _c_layout(eqn.invars[0].aval.shape, in_layouts[0])
    else:
        ok = all(v.aval.size <= 1 or _c_layout(v.aval.shape, st)
                 for v, st in zip(eqn.invars, in_layouts))
    # a new array of at most one axis is contiguous whatever its operands' layout
    return [c_strides(o.aval.shape) if ok or o.aval.ndim <= 1 else None for o in outs]


def _trace_memo(tr) -> dict:
    """The {jaxpr variable: strides or None} memo of the jit trace ``tr`` (kept in the
    trace's annotations: it dies with the trace, and a trace is traced by one thread)."""
    notes = tr.annotations()
    memo = notes.get(_NOTE)
    if memo is None:
        memo = notes[_NOTE] = {}
    return memo


def _jit_layout(t):
    """Layout of a ``jit`` tracer's value, from the equations that produced it."""
    from xnp.tracing.partial_eval import Literal  # noqa: PLC0415

    tr = t._trace
    memo = _trace_memo(tr)
    consts = None

    def known(v):
        return type(v) is Literal or v in memo

    def get(v):
        return c_strides(v.aval.shape) if type(v) is Literal else memo[v]

    stack = [t.val]
    while stack:
        v = stack[-1]
        if known(v):
            stack.pop()
            continue
        eqn = tr.producer_of(v)
        if eqn is None:  # an argument (unknown layout) or a constant
            if consts is None:
                consts = tr.constants()
            memo[v] = layout(consts[v]) if v in consts else None
            stack.pop()
            continue
        pending = [u for u in eqn.invars if not known(u)]
        if pending:
            stack.extend(pending)
            continue
        for o, st in zip(eqn.outvars, _eqn_layout(eqn, [get(u) for u in eqn.invars])):
            memo[o] = st
        stack.pop()
    return get(t.val)


def layout(t):
    """Element strides of the array an eager NumPy run would hold for ``t``, or None."""
    from xnp.tracing.ad import JVPTracer  # noqa: PLC0415
    from xnp.tracing.batching import BatchTracer  # noqa: PLC0415
    from xnp.tracing.partial_eval import JitTracer  # noqa: PLC0415

    if type(t) is core.Array:
        # the unwatched read (``_v``): an array's strides are part of the eager dispatch
        # cache's signature (numpy_api/_replay.py), so a recorded call may depend on them
        v = t._v
        return _eager_strides(t._value if v is None else v)
    if isinstance(t, np.ndarray):
        return _eager_strides(t)
    if not isinstance(t, core.Tracer):
        return c_strides(np.shape(t))
    origin = getattr(rebound.binding_of(t), "origin", t)
    if origin is not t and origin is not None:  # read from a cell: the layout of the array
        return layout(origin)  # it is
    rec = getattr(t, "view_of", None)
    if rec is not None:
        return rec.strides
    st = t.annotation(_NOTE, _UNSET)
    if st is not _UNSET:
        return st
    if isinstance(t, JitTracer):
        return _jit_layout(t)
    if isinstance(t, JVPTracer):
        return layout(t.primal)  # the primal runs the same eager ops as an eager call
    if isinstance(t, BatchTracer):
        st = layout(t.val)
        if st is None or t.batch_dim is None:
            return st
        st = st[: t.batch_dim] + st[t.batch_dim + 1:]
        # a batching rule may lay its result out differently from the per-example eager op:
        # only a contiguous per-example slice is trusted
        return st if _is_c_contiguous(t.aval.shape, st) else None
    return None


def index_strides(strides, entries):
    """Strides of the basic-index view ``base[entries]`` (``_index_core._Entry`` list)."""
    if strides is None:
        return None
    out, used = [], -1
    for e in entries:
        if e.kind == "new":
            out.append(0)
        elif e.kind == "slice":
            out.append(strides[e.dim] * e.step)
        if e.dim is not None:
            used = max(used, e.dim)
    return tuple(out) + tuple(strides[used + 1:])


def f_strides(shape) -> tuple:
    """Element strides of a Fortran-contiguous (column-major) array of ``shape``."""
    return tuple(reversed(c_strides(tuple(reversed(shape)))))


def _matches(shape, strides, want) -> bool:
    return strides is not None and all(n == 1 or s == w for n, s, w in zip(shape, strides, want))


def fortran_only(x) -> bool:
    """Whether ``x`` is laid out column-major and not also row-major (NumPy's
    ``flags.fnc``; False when the layout is unknown)."""
    shape = np.shape(x) if not isinstance(x, (core.Array, core.Tracer)) else x.shape
    st = layout(x)
    return _matches(shape, st, f_strides(shape)) and not _matches(shape, st, c_strides(shape))


def memory_order(fname: str, x, order: str) -> str:
    """'F' or 'C': the element order NumPy's ``order='A'`` (and ravel's 'K') picks for
    ``x``, 'F' when it is Fortran-contiguous and not C-contiguous.

    Raises
    ------
    NotImplementedError
        ``x``'s layout is unknown (a traced ``jit`` argument): the values would depend
        on memory xnp cannot see; ``order='C'`` or ``'F'`` say which.
    """
    if isinstance(x, core.Tracer) and layout(x) is None:
        raise NotImplementedError(
            f"xnp.{fname}: order={order!r} reads the elements in memory order, which is not "
            f"known for this traced array (shape {x.shape}, e.g. a jit argument); pass "
            "order='C' or order='F'.")
    return "F" if fortran_only(x) else "C"


def with_order(x, order, source=None, *, fresh: bool = False):
    """``x`` laid out as NumPy's ``order`` asks of a result made from ``source``: 'C' row-
    major, 'F' column-major, 'A'/'K' column-major when ``source`` is (``fortran_only``),
    else ``x`` as it is. Eagerly NumPy's own copy (``x`` itself when it already has the
    layout); traced, a ``copy`` whose layout is recorded for later view-or-copy rules.
    ``fresh``: ``x`` is a new array (``zeros``, ``eye``, ...), whose strides are exactly
    those of NumPy's new array of that order, also along length-1 axes (NumPy's
    ``asfortranarray`` keeps an array whose flags already say column-major)."""
    if order in ("A", "K"):
        if source is None or not fortran_only(source):
            return x
        order = "F"
    if order not in ("C", "F"):
        return x
    shape = x.shape
    want = c_strides(shape) if order == "C" else f_strides(shape)
    if type(x) is core.Array:
        v = x._v  # unwatched: contiguity follows from shape and strides (as in layout())
        if v is None:
            v = x._value
        if fresh and _eager_strides(v) != want:
            return recording.native_call(lambda a: _new_in_order(a, order), x)
        if v.flags.c_contiguous if order == "C" else v.flags.f_contiguous:
            return x
        # (a copy: the strides, part of a replay's signature, say it is not in that order)
        return recording.native_call(np.ascontiguousarray if order == "C" else np.asfortranarray,
                                     x, view=False)
    if _matches(shape, layout(x), want):
        return x
    out = lax.copy(x)
    set_layout(out, want)
    return out


def _new_in_order(v: np.ndarray, order: str) -> np.ndarray:
    out = np.empty(v.shape, v.dtype, order=order)
    out[...] = v
    return out
