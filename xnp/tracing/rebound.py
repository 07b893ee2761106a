"""Eager arrays rebound to traced values: buffers filled inside ``grad``/``jvp``/``vmap``.

``grad``, ``jvp``, ``vjp`` and ``vmap`` run the user's function once, on concrete values,
and do not stage constants: ``y = zeros(n)`` inside it is an eager ``Array``. When the
function writes a traced value into such an array (``y[i] = x``), the array is *rebound*:
it is given a tracer of the running transformation that stands for its value from then
on (:func:`rebind_value`), and every later use of the array object is a use of that
tracer. The write itself is then the traced write (``dynamic_update_slice``/``scatter``
by rule), so the function is never re-run.

* Each function a transformation runs is a :class:`Scope` (:func:`push_scope`): the eager
  arrays (and the tracers of an enclosing ``jit``) made while it is the calling thread's
  innermost scope are recorded, so a write into an array made outside it (a global or a
  closure) is still refused.
* While the scope runs, :func:`resolve` maps a rebound value to its tracer:
  ``Primitive.bind``, ``asarray_for``, indexing, in-place operators, ``jit`` calls and the
  staging trace's constants resolve their operands through it. The eager array itself is
  not changed: a derivative's residual that captured it before the write keeps the old
  value, as the eager computation saw it. When the scope ends the mapping is dropped.
* Which arrays share memory with the written one (NumPy views of one buffer) is decided
  by :mod:`xnp.numpy_api._views`, whose policy is set with :func:`register_adopter`; its
  writer of traced arrays with NumPy's aliasing (:func:`write_in_place`) likewise.
"""

from __future__ import annotations

import weakref

import numpy as np

from xnp.tracing import core, errors

__all__ = ["Scope", "push_scope", "pop_scope", "current_scope", "resolve", "resolve_index",
           "rebind_value", "register_adopter", "adopt", "register_in_place_writer",
           "write_in_place"]


class _Note:
    """What the scopes know about one value, kept on the value itself (its ``_scope_note``
    slot, :class:`xnp.tracing.core.Tracer` and ``Array``), so it dies with it: the scope
    that made it (None once that scope ended) and the tracer it stands for (None: not
    rebound)."""

    __slots__ = ("made_in", "tracer")

    def __init__(self, made_in):
        self.made_in = made_in
        self.tracer = None


class Scope:
    """One run of a transformed function: its trace, the eager arrays (and tracers of
    enclosing staging traces) it made, and those it rebound.

    What a scope knows of a value is on the value (:class:`_Note`); the scope keeps weak
    references to what it made and rebound, to list them and to clear the notes when it
    ends. ``captured`` is None, or (for the body of a control-flow primitive, which
    captures the arrays it writes and did not make) the list of ``(array, tracer)`` pairs
    captured so far, in order; ``foreign_views`` (such a body only) weak references to the
    traced views the body made of arrays it did not make, which follow the array when it is
    captured."""

    __slots__ = ("trace", "created", "buffers", "rebound", "captured", "foreign_views", "prev",
                 "__weakref__")

    def __init__(self, trace, prev, captures: bool = False):
        self.trace = trace
        self.created: list = []  # weak references to the values made inside
        self.buffers: list = []  # weak references to the host memory of the arrays made
        self.rebound: list = []  # weak references to the values rebound
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
    if scope is not None and scope.captured is None:  # a body's own values are tracers
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
    """End ``scope``: its rebound values are plain again (an eager array keeps the value
    it had before its first traced write, which is what a residual of a derivative
    captured before that write needs)."""
    core._STATE.scope = scope.prev
    if scope.captured is None:
        core._SCOPES_ON[0] -= 1
    for r in scope.rebound:
        x = r()
        if x is not None:
            x._scope_note.tracer = None
    core._REBOUND_ON[0] -= len(scope.rebound)
    for r in scope.created:
        x = r()
        if x is not None:
            note = getattr(x, "_scope_note", None)
            if note is not None and note.made_in is scope:
                note.made_in = None
    scope.created = []
    scope.buffers = []
    scope.rebound = []
    if scope.captured is not None:
        scope.captured = []
        scope.foreign_views = []


def resolve(x):
    """The tracer a rebound array (or rebound tracer of an enclosing staging trace) stands
    for, following a tracer that is rebound in turn (a grad function's buffer written in
    a loop body); ``x`` itself for anything else."""
    if core._REBOUND_ON[0]:
        note = getattr(x, "_scope_note", None)
        while note is not None:
            t = note.tracer
            if t is None:
                break
            x = t
            note = getattr(x, "_scope_note", None)
    return x


core._RESOLVE[0] = resolve


def resolve_index(idx):
    """An index (an entry or a tuple of entries) with rebound arrays resolved."""
    if type(idx) is tuple:
        return tuple([resolve(i) for i in idx])
    return resolve(idx)


def rebind_value(x, tracer, scope: Scope) -> None:
    """Make ``x`` (an eager array, or a tracer of an enclosing staging trace, made in
    ``scope``) stand for ``tracer`` while ``scope`` runs."""
    note = getattr(x, "_scope_note", None)
    if note is None:
        note = x._scope_note = _Note(None)
    note.tracer = tracer
    scope.rebound.append(weakref.ref(x))
    core._REBOUND_ON[0] += 1


# --------------------------------------------------------------------------- NumPy's aliasing
# The tracing layer may not import ``xnp.numpy_api``, which models NumPy's views; its two
# policies are handed in by ``xnp._wiring.connect``.

_ADOPTER: list = [errors.not_connected("the adopter of eager arrays written with traced "
                                       "values", "rebound.register_adopter")]
_IN_PLACE_WRITER: list = [errors.not_connected("the in-place writer of traced arrays",
                                               "rebound.register_in_place_writer")]


def register_adopter(fn) -> None:
    """Set ``fn(x, values) -> tracer | None``: before a write of ``values`` into the eager
    array ``x``, rebind ``x`` (and the arrays sharing its memory) when the running
    function made it and ``values`` are traced; None leaves the write to the eager path
    (:mod:`xnp.numpy_api._views`'s ``adopt``: it knows NumPy's views)."""
    _ADOPTER[0] = fn


def adopt(x, values):
    """:func:`register_adopter`'s policy for writing ``values`` into the eager ``x``."""
    return _ADOPTER[0](x, values)


def register_in_place_writer(fn) -> None:
    """Set ``fn(tracer, new)``, which writes ``new`` (``tracer``'s aval) into the traced
    array ``tracer`` with NumPy's aliasing: rebinds it, writes a view through to its
    base and re-reads its live views (:mod:`xnp.numpy_api._views`'s ``rebind``)."""
    _IN_PLACE_WRITER[0] = fn


def write_in_place(tracer, new) -> None:
    """``tracer``'s value becomes ``new``, views included (:func:`register_in_place_writer`):
    a jitted function that updates a traced argument in place, called inside another
    transformation. Raises ``NotImplementedError`` where ``x[idx] = v`` would (e.g.
    ``tracer`` belongs to an enclosing transformation)."""
    _IN_PLACE_WRITER[0](tracer, new)
