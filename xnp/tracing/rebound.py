"""Objects that stand for a traced value: buffers filled inside ``grad``/``vmap``, and
arrays written in place under any transformation.

A tracer cannot be written, and ``grad``, ``jvp``, ``vjp`` and ``vmap`` do not stage
constants (``y = zeros(n)`` inside their function is an eager ``Array``). When a traced
array, or such an eager array, is written in place (``y[i] = x``, ``y += x``), its memory
becomes a *cell*: a ref of the running trace (``xnp/numpy_api/_views.py``), and the
array object is *bound* to its place in the cell (:func:`bind_value`). From then on every
use of the object is a read of the ref, and every write a ref write, so the mutation is
in the program as state effects that each transformation handles by rule, and the
function is never re-run.

* A binding is any object with ``trace`` (the trace whose ref holds the value) and
  ``read()`` (the current value, on the calling thread's current trace). An object may
  have several, the innermost last (a body of a loop captures a buffer of the ``grad``
  function around it); they are kept on the object itself (its ``_scope_note`` slot,
  :class:`xnp.tracing.core.Tracer` and ``Array``) and dropped when their trace ends
  (:func:`release`).
* While any binding lives, :func:`resolve` maps a bound object to its current value:
  ``Primitive.bind``, ``asarray_for``, indexing, in-place operators, ``jit`` calls, the
  staging trace's constants and a transformed function's outputs resolve through it. An
  eager array itself is not changed: a derivative's residual that captured it before
  the write keeps the old value, as the eager computation saw it.
* Each function a transformation runs is a :class:`Scope` (:func:`push_scope`): the eager
  arrays (and the tracers of an enclosing ``jit``) made while it is the calling thread's
  innermost scope are recorded, so a write into an array made outside it (a global or a
  closure) is still refused.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from xnp.tracing import core

__all__ = ["Scope", "push_scope", "pop_scope", "current_scope", "resolve", "resolve_index",
           "bind_value", "binding_of", "bound_on", "release"]


class _Note:
    """What the scopes know about one value, kept on the value itself (its ``_scope_note``
    slot, :class:`xnp.tracing.core.Tracer` and ``Array``), so it dies with it: the scope
    that made it (None once that scope ended) and its bindings, the innermost last."""

    __slots__ = ("made_in", "bindings")

    def __init__(self, made_in):
        self.made_in = made_in
        self.bindings = []


class Scope:
    """One run of a transformed function: its trace, the eager arrays (and tracers of
    enclosing staging traces) it made.

    What a scope knows of a value is on the value (:class:`_Note`); the scope keeps weak
    references to what it made, to list them and to clear the notes when it ends. ``captured`` is None, or (for the body of a control-flow primitive, which
    captures the arrays it writes and did not make) the list of ``(array, tracer)`` pairs
    captured so far, in order (the array, and the object the body read it from);
    ``foreign_views`` (such a body only) weak references to the
    traced views the body made of arrays it did not make, which follow the array when it is
    captured."""

    __slots__ = ("trace", "created", "buffers", "captured", "foreign_views", "prev",
                 "__weakref__")

    def __init__(self, trace, prev, captures: bool = False):
        self.trace = trace
        self.created: list = []  # weak references to the values made inside
        self.buffers: list = []  # weak references to the host memory of the arrays made
        self.captured: list | None = [] if captures else None
        self.foreign_views: list = []  # (capturing scopes) weak references to views
        self.prev = prev

    def made_here(self, x) -> bool:
        note = getattr(x, "_scope_note", None)
        return note is not None and note.made_in is self

    def owns(self, buffer) -> bool:
        """Whether ``buffer`` (a NumPy array) is the memory of an array made inside."""
        # NumPy arrays take no attributes and are not hashable: the weak references are
        # searched (the latest first), as the callers then search live_arrays anyway
        for r in reversed(self.buffers):
            if r() is buffer:
                return True
        return False

    def live_arrays(self):
        out = []
        for r in self.created:
            a = r()
            if a is not None:
                out.append(a)
        return out


def current_scope():
    """The calling thread's innermost :class:`Scope`, or None."""
    return getattr(core._STATE, "scope", None)


def _note_created(value) -> None:
    scope = getattr(core._STATE, "scope", None)
    if scope is not None and scope.captured is None and (  # (a body's own values are tracers,
            getattr(value, "_trace", None) is not scope.trace):  # as the scope trace's are)
        value._scope_note = _Note(scope)
        scope.created.append(weakref.ref(value))
        buf = getattr(value, "_val", None)
        if type(buf) is np.ndarray:
            scope.buffers.append(weakref.ref(buf))


def push_scope(trace, captures: bool = False) -> Scope:
    """Start recording the arrays made while ``fun`` runs on ``trace``; ``captures``: the
    function is a control-flow body, whose writes into arrays it did not make are captured
    (:attr:`Scope.captured`) rather than refused."""
    scope = Scope(trace, current_scope(), captures)
    core._STATE.scope = scope
    if not captures:  # (what a staging body makes is a tracer of its trace: not recorded)
        core._SCOPES_ON[0] += 1
        core._NOTE_CREATED[0] = _note_created
    return scope


def pop_scope(scope: Scope) -> None:
    """End ``scope``: the bindings to its trace's cells are dropped (an eager array keeps
    the value it had before its first traced write, which is what a residual of a
    derivative captured before that write needs)."""
    core._STATE.scope = scope.prev
    if scope.captured is None:
        core._SCOPES_ON[0] -= 1
        release(scope.trace)
    for r in scope.created:
        x = r()
        if x is not None:
            note = getattr(x, "_scope_note", None)
            if note is not None and note.made_in is scope:
                note.made_in = None
    scope.created = []
    scope.buffers = []
    if scope.captured is not None:
        scope.captured = []
        scope.foreign_views = []


def resolve(x):
    """The current value of a bound object (its innermost binding's ``read()``); ``x``
    itself for anything else."""
    if core._REBOUND_ON[0]:
        note = getattr(x, "_scope_note", None)
        if note is not None and note.bindings:
            return note.bindings[-1].read()
    return x


core._RESOLVE[0] = resolve


def resolve_index(idx):
    """An index (an entry or a tuple of entries) with bound arrays resolved."""
    if type(idx) is tuple:
        return tuple([resolve(i) for i in idx])
    return resolve(idx)


def binding_of(x):
    """``x``'s innermost binding, or None."""
    note = getattr(x, "_scope_note", None)
    if note is None or not note.bindings:
        return None
    return note.bindings[-1]


def bound_on(x, trace) -> bool:
    """Whether ``x`` was written in place on ``trace``: its innermost binding is to a cell of
    ``trace`` (an argument of a traced function that the function updated)."""
    b = binding_of(x)
    return b is not None and b.trace is trace


_BOUND = "bound"  # the annotation of a trace: [weak reference to the object, binding] pairs
_COUNT = threading.RLock()  # guards core._REBOUND_ON (reentrant: a finalizer may run inside)


def bind_value(x, binding) -> None:
    """Bind ``x`` (a tracer or an eager array) to ``binding`` until ``binding.trace`` ends
    (:func:`release`); nothing when it is already ``x``'s innermost binding."""
    note = getattr(x, "_scope_note", None)
    if note is None:
        note = x._scope_note = _Note(None)
    elif note.bindings and note.bindings[-1] is binding:
        return
    note.bindings.append(binding)
    notes = binding.trace.annotations()
    pairs = notes.get(_BOUND)
    if pairs is None:
        pairs = notes[_BOUND] = []
        weakref.finalize(binding.trace, _release_pairs, pairs)  # a trace nobody released
    pairs.append((weakref.ref(x), binding))
    with _COUNT:
        core._REBOUND_ON[0] += 1


def _release_pairs(pairs) -> None:
    for r, binding in pairs:
        x = r()
        note = None if x is None else getattr(x, "_scope_note", None)
        if note is not None and binding in note.bindings:
            note.bindings.remove(binding)
    with _COUNT:
        core._REBOUND_ON[0] -= len(pairs)
    pairs.clear()


def release(trace) -> None:
    """Drop every binding to ``trace``'s cells (the trace ended)."""
    pairs = trace.annotation(_BOUND)
    if pairs:
        _release_pairs(pairs)
