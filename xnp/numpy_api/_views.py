"""NumPy aliasing for traced arrays: in-place updates under every transformation.

A tracer (``jit``, ``grad``/``jvp``/``vjp``/``linearize``, ``vmap``) cannot be
written in place; ``x[idx] = v`` and ``x += y`` *rebind* it to the updated value
(functionalization: docs/architecture.md, "In-place updates and views"). NumPy's aliasing is reproduced on top of that:

* a basic-index read ``v = x[idx]`` of a tracer records ``v.view_of`` (its base,
  the index and the base's value token at read time) and registers ``v`` as a
  live view of ``x``;
* writing ``v`` writes the new value through into its base (recursively, a view
  of a view reaches the root) and rebinds ``v``;
* after a base is written, its live views are re-read from it (replay);
* reshape-family views (transpose, squeeze, expand_dims, and reshape/ravel when
  NumPy gives a view) record a read function and its inverse write function
  instead of an index (:mod:`xnp.numpy_api._shape_views`).

Everything goes through a small protocol each tracer class implements
(:class:`xnp.tracing.core.Tracer`): ``_assign(new)`` rebinds the tracer,
``_with_value(new)`` makes a new tracer of the same trace, and
``_value_token()`` names the value held now (a jaxpr variable for ``jit``, the
primal for ``jvp``, the batched value for ``vmap``), so a stale view is detected.

Refused, with ``NotImplementedError``: writing through a view of an eager array
inside a transformation (a side effect on a global), writing into a tracer of an
enclosing transformation, and writing through a view whose base was rebound by
something that does not replay views.
"""

from __future__ import annotations

import weakref

import numpy as np

from xnp import lax
from xnp.lax import state as _state
from xnp.numpy_api import _layout
from xnp.tracing import core, errors, rebound as _rebound

__all__ = ["ViewOf", "track_view", "rebind", "rebind_traced", "is_write_back_of", "adopt",
           "resolve"]

resolve = _rebound.resolve


class ViewOf:
    """``view_of`` record of a traced view: its ``base``, ``base_token`` (the base's value
    token when the view was last read; None for an eager base) and ``strides`` (the element
    strides NumPy's view would have, :mod:`xnp.numpy_api._layout`; None: unknown).

    Every view has ``read(base) -> view`` and ``write(base, new_view) -> new_base``; a
    basic-index view also has the index ``entries``, a reshape-family view (transpose,
    squeeze, expand_dims, reshape...) ``entries=None``. ``write=None`` marks a reshape whose
    view-or-copy status could not be decided (writes through it or into its base raise).
    """

    __slots__ = ("base", "entries", "base_token", "strides", "read", "write")

    def __init__(self, base, entries, base_token, strides=None, read=None, write=None):
        self.base = base
        self.entries = entries
        self.base_token = base_token
        self.strides = strides
        self.read = read
        self.write = write


def _register(base, view) -> None:
    """Record ``view`` as a live view of ``base``: weak references in ``base``'s
    annotations (``"views"``), so the list dies with the base and holds no view alive."""
    notes = base.annotations()
    refs = notes.get("views")
    if refs is None:
        notes["views"] = [weakref.ref(view)]
        return
    refs[:] = [r for r in refs if r() is not None]
    refs.append(weakref.ref(view))


def _live_views(base) -> list:
    refs = base.annotation("views")
    if not refs:
        return []
    return [v for v in (r() for r in refs) if v is not None]


def track_view(base, out, entries, *, read, write, strides=None):
    """``out`` as a view of ``base``: ``read(base)``, whose writes go back by
    ``write(base, new_view)`` (``write=None``: view-or-copy undecided, writes raise).
    ``entries`` is the index of a basic-index read ``base[entries]``; with
    ``entries=None`` (a reshape-family op) ``strides`` is the view's modelled layout
    (:mod:`xnp.numpy_api._layout`).

    A read of a tracer of the current trace that did not produce one of its tracers
    (e.g. a slice of a value with a zero tangent under ``grad``: the read runs on the
    enclosing trace) is wrapped into one, so the view can be written like its base.
    Returns the (possibly wrapped) view; eager results are returned unchanged.
    """
    if core._REBOUND_ON[0]:  # (``out`` was read from the value a rebound ``base`` stands for)
        base = _rebound.resolve(base)
    traced = isinstance(base, core.Tracer)
    if traced and base._trace is core.current_trace() and not (
            isinstance(out, core.Tracer) and out._trace is base._trace):
        out = base._with_value(out)
    if isinstance(out, core.Tracer):
        if entries is not None:
            strides = _layout.index_strides(_layout.layout(base), entries)
        out.view_of = ViewOf(base, entries, base._value_token() if traced else None,
                             strides, read, write)
        if traced:
            _register(base, out)
        if not (traced and base._trace is out._trace):
            scope = _rebound.current_scope()
            if scope is not None and scope.captured is not None and scope.trace is out._trace:
                # a control-flow body's view of an array it closes over: when the body
                # writes that array (``_capture``), the view becomes a view of its carried value
                scope.foreign_views.append(weakref.ref(out))
    return out


def _undecided(t):
    return NotImplementedError(
        f"xnp: writing through a traced reshape/ravel ({errors.aval_str(t.aval)}) or into its base "
        "while it is alive is not supported here: xnp cannot tell whether NumPy would return "
        "a view or a copy (the base is e.g. a jit/vmap argument whose memory layout is not "
        "known when tracing). Call .copy() on the reshaped array for a copy, or write into "
        "the base array by indexing it.")


def _replay_views(t, skip=None) -> None:
    """Re-read the live views of ``t`` after ``t`` was written."""
    for v in _live_views(t):
        rec = v.view_of
        if v is skip or rec is None or rec.base is not t or not v._trace.alive:
            continue
        if rec.write is None:
            raise _undecided(v)
        v._assign(rec.read(t))
        rec.base_token = t._value_token()
        _replay_views(v)


def rebind(t, new, skip=None) -> None:
    """Write ``new`` (``t``'s aval) into the traced array ``t``: rebind it, write through to
    its base if it is a view, and replay its own live views (except ``skip``).

    Raises
    ------
    xnp.errors.ForeignWriteError
        ``t`` belongs to an enclosing transformation; ``t`` is a view of an eager array.
    NotImplementedError
        ``t``'s base was rebound without replaying its views.
    """
    trace = core.current_trace()
    if t._trace is not trace:
        adopted = adopt(t, (new,))  # made inside the function that grad/vmap runs in jit
        if adopted is not None:
            rebind(adopted, new, skip)
            return
        raise errors.ForeignWriteError(
            f"xnp: in-place update of a traced array {errors.aval_str(t.aval)} that belongs to an "
            "enclosing transformation (a closure of a nested jit/grad/vmap or a lax "
            "control-flow body) is not supported; return the new value instead.",
            None if trace.staging else trace)
    rec = t.view_of
    if rec is not None:
        base = rec.base
        if not (isinstance(base, core.Tracer) and base._trace is trace):
            scope = _rebound.current_scope()
            if scope is not None and scope.captured is not None and scope.trace is trace:
                adopt(base, (new,))  # a body writes a view of an array it closes over:
                base = rec.base      # the array is captured, the view now a view of its value
        if not isinstance(base, core.Tracer):
            raise errors.ForeignWriteError(
                "xnp: writing through a view of an eager array inside a traced function is not "
                "supported (it would modify a global as a side effect); pass the array as an "
                "argument (jit writes updated arguments back) or index it outside the function.",
                None if trace.staging else trace)
        if rec.base_token is not base._value_token():
            raise NotImplementedError(
                "xnp: writing through a view of a traced array whose base was updated by an "
                "operation that does not propagate to views (e.g. out=); index the base array "
                "instead.")
        if rec.write is None:
            raise _undecided(t)
        else:
            new_base = rec.write(base, new)
        rebind(base, new_base, skip=t)
        t._assign(new)
        rec.base_token = base._value_token()
    else:
        t._assign(new)
    _replay_views(t, skip)


def is_write_back_of(x, value, entries) -> bool:
    """Whether ``x[entries] = value`` is the tail of ``x[idx] op= y``: ``value`` is a view
    ``x[entries]`` read from ``x``'s current value, already written through."""
    rec = getattr(value, "view_of", None)
    return (rec is not None and rec.base is x and rec.base_token is x._value_token()
            and rec.entries is not None
            and [e.key() for e in rec.entries] == [e.key() for e in entries])


def rebind_traced(tracer, new, opname: str):
    """``tracer op= y`` under a transformation: rebind ``tracer`` to ``new`` (``op(tracer, y)``).

    NumPy's in-place rules: the result must keep ``tracer``'s shape
    (``ValueError``) and cast to its dtype with ``same_kind`` (``TypeError``).
    A view writes through to its base. A weakly typed 0-d tracer stands for a
    Python scalar, which is immutable: ``new`` is returned and nothing is rebound.
    """
    if tracer.aval.weak_type and tracer.aval.ndim == 0:
        return new
    na, ta = core.aval_of(new), tracer.aval
    if na.shape != ta.shape:
        raise ValueError(f"non-broadcastable output operand with shape {ta.shape} doesn't match "
                         f"the broadcast shape {na.shape}")
    if not np.can_cast(na.dtype, ta.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{opname}' output from {na.dtype!r} to {ta.dtype!r} "
                        "with casting rule 'same_kind'")
    if na.dtype != ta.dtype or na.weak_type != ta.weak_type:
        new = lax.convert_element_type(new, ta.dtype, weak_type=ta.weak_type)
    try:
        rebind(tracer, new)
    except ValueError as e:  # a read-only view: NumPy's words for a ufunc's output
        if str(e) != "assignment destination is read-only":
            raise
        raise ValueError("output array is read-only") from None
    return tracer


# --------------------------------------------------------------------------- rebound arrays


def _owner(v: np.ndarray) -> np.ndarray:
    while isinstance(v.base, np.ndarray):
        v = v.base
    return v


def _element_map(v: np.ndarray, owner: np.ndarray):
    """The flat positions in ``owner`` (C-contiguous, same dtype) of ``v``'s elements, or
    None when ``v`` is not an element-aligned view of it."""
    size = owner.itemsize
    if v.dtype != owner.dtype:
        return None
    off = v.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    if off % size or any(st % size for st in v.strides):
        return None
    idx = np.full(v.shape, off // size, dtype=np.int64)
    for k, (n, st) in enumerate(zip(v.shape, v.strides)):
        shape = [1] * v.ndim
        shape[k] = n
        idx = idx + (np.arange(n, dtype=np.int64) * (st // size)).reshape(shape)
    return idx


_FLAT = _state.Indexer((("arr",),))


def _family_view(root_t, idx: np.ndarray, owner_shape):
    """A traced view of ``root_t`` (the owner's value) holding the elements at ``idx``."""
    n = int(np.prod(owner_shape, dtype=np.int64))
    ids = core.lift(idx)

    def read(base):
        return _state.index_get(lax.reshape(base, (n,)), _FLAT, [ids])

    def write(base, new):
        flat = _state.index_update(lax.reshape(base, (n,)), _FLAT, [ids], new)
        return lax.reshape(flat, owner_shape)

    return track_view(root_t, read(root_t), None, read=read, write=write)


def adopt(x, values):
    """Before writing ``values`` into the eager array ``x``: when ``values`` hold a tracer
    and ``x`` was made by the function that the current (non-staging) transformation runs,
    rebind ``x`` and every array of that function sharing its memory (NumPy views of one
    buffer) to tracers, each a traced view of the buffer's value, and return ``x``'s
    tracer; the caller then does the traced write. Otherwise None (the eager write path
    decides: constants are written in place, anything else raises)."""
    t = _rebound.resolve(x)
    if t is not x:
        return t
    if type(x) is not core.Array and not isinstance(x, core.Tracer):
        return None
    scope = _rebound.current_scope()
    trace = core.current_trace()
    if scope is not None and scope.captured is not None and scope.trace is trace:
        return _capture(x, trace, scope)
    if scope is None or trace.staging or scope.trace is not trace or not core._holds_tracer(
            tuple(values)):
        return None
    if (type(x) is core.Array and x._dev is None and isinstance(x._val, np.ndarray)
            and not x._val.flags.writeable):  # NumPy's read-only array (a real array's imag)
        raise ValueError("assignment destination is read-only")
    if not scope.made_here(x) and not (type(x) is core.Array and isinstance(x._val, np.ndarray)
                                       and scope.owns(_owner(x._val))):
        return None  # made outside the function (a global or a closure)
    const_tracer = getattr(trace, "const_tracer", None)
    if const_tracer is None:
        return None
    if isinstance(x, core.Tracer):
        return _adopt_tracer(x, trace, scope)
    if x._dev is not None:
        return None
    v = x._value
    owner = _owner(v) if isinstance(v, np.ndarray) else None
    if owner is not None and owner is not v and not scope.owns(owner):
        return None  # a view of memory made outside the function (a global): refused
    members = [x]
    if owner is not None and owner.flags.c_contiguous:
        members = [a for a in scope.live_arrays() if type(a) is core.Array and a._dev is None
                   and isinstance(a._val, np.ndarray) and _owner(a._val) is owner
                   and _rebound.resolve(a) is a]
        if not any(a is x for a in members):
            members.append(x)  # made outside the recorded paths (e.g. an eager reshape view)
        maps = [_element_map(a._val, owner) for a in members]
        if any(m is None for m in maps):
            members = [x]
    if members == [x] or len(members) == 1:
        tracer = const_tracer(core.Array(np.array(v), x.weak_type))
        _rebound.rebind_value(x, tracer, scope)
        return tracer
    root_weak = next((a.weak_type for a in members if a._val is owner), x.weak_type)
    root_t = const_tracer(core.Array(np.array(owner), root_weak))
    whole = np.arange(owner.size, dtype=np.int64).reshape(owner.shape)
    for a, m in zip(members, maps):
        if a._val is owner or (m.shape == owner.shape and np.array_equal(m, whole)):
            _rebound.rebind_value(a, root_t, scope)
        else:
            _rebound.rebind_value(a, _family_view(root_t, m, owner.shape), scope)
    return _rebound.resolve(x)


def _capture(x, trace, scope):
    """``adopt`` in the body of a control-flow primitive (a capturing scope, see
    ``lax.control_flow.common.trace_body``): ``x``, which the body did not make (an eager
    array or a tracer of an enclosing trace), is written by the body. It becomes the body's
    tracer of its value at the start of each iteration (the constant the body reads it
    as), which the writes then rebind; the loop carries it and writes the final value back
    into ``x`` afterwards. (What the staged body makes is a tracer of its own trace, which
    never comes here.)"""
    if type(x) is core.Array and x._dev is None and isinstance(x._val, np.ndarray) and (
            not x._val.flags.writeable):
        raise ValueError("assignment destination is read-only")
    rec = getattr(x, "view_of", None)
    if rec is not None and rec.write is None:
        raise _undecided(x)
    t = trace.to_tracer(x)
    _rebound.rebind_value(x, t, scope)
    scope.captured.append((x, t))
    # the views of ``x`` the body made so far were read from ``t`` (the constant of ``x``):
    # they become views of ``t``, so they see the writes into ``x`` and theirs reach it
    for r in scope.foreign_views:
        v = r()
        rec = None if v is None else v.view_of
        if rec is not None and rec.base is x:
            rec.base = t
            rec.base_token = t._value_token()
            _register(t, v)
    return t


def _adopt_tracer(x, trace, scope):
    """``adopt`` for a tracer of an enclosing trace (``y = zeros(n)`` in a function that
    grad/vmap runs inside jit): its view root and all the root's live views are rebound
    to tracers of ``trace`` that are views of the new root."""
    if x._trace is trace or not x._trace.staging:
        return None
    root = x
    while root.view_of is not None and isinstance(root.view_of.base, core.Tracer) and (
            root.view_of.base._trace is x._trace):
        root = root.view_of.base
    # a fresh tracer of root's trace for the same value: root itself becomes rebound
    copy = type(root)(root._trace, root.aval, root.val, getattr(root, "src", None))
    new_root = trace.const_tracer(copy)
    _rebound.rebind_value(root, new_root, scope)

    def follow(old, new):
        for v in _live_views(old):
            rec = v.view_of
            if rec is None or rec.base is not old or _rebound.resolve(v) is not v:
                continue
            if rec.write is None or rec.base_token is not old._value_token():
                continue  # an undecided or stale view: writes through it keep raising
            nv = track_view(new, rec.read(new), rec.entries, read=rec.read, write=rec.write,
                            strides=rec.strides)
            _rebound.rebind_value(v, nv, scope)
            follow(v, nv)

    follow(root, new_root)
    return _rebound.resolve(x)

