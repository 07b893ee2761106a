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


class Scope:
    """One run of a transformed function: its trace, the eager arrays (and tracers of
    enclosing staging traces) it made, and the ids of those it rebound."""

    __slots__ = ("trace", "created", "buffers", "rebound", "prev")

    def __init__(self, trace, prev):
        self.trace = trace
        self.created: dict = {}  # id -> weak reference, for the values made inside
        self.buffers: dict = {}  # id -> weak reference, for the host memory of arrays made
        self.rebound: list = []  # ids of the values rebound (keys of _TABLE)
        self.prev = prev

    def made_here(self, x) -> bool:
        r = self.created.get(id(x))
        return r is not None and r() is x

    def owns(self, buffer) -> bool:
        """Whether ``buffer`` (a NumPy array) is the memory of an array made inside."""
        r = self.buffers.get(id(buffer))
        return r is not None and r() is buffer

    def live_arrays(self):
        out = []
        for r in self.created.values():
            a = r()
            if a is not None:
                out.append(a)
        return out


#: id(value) -> (weak reference to it, the tracer it stands for), while its scope runs
_TABLE: dict = {}


def current_scope():
    """The calling thread's innermost :class:`Scope`, or None."""
    return getattr(core._STATE, "scope", None)


def _note_created(value) -> None:
    scope = getattr(core._STATE, "scope", None)
    if scope is not None:
        scope.created[id(value)] = weakref.ref(value)
        buf = getattr(value, "_val", None)
        if type(buf) is np.ndarray:
            scope.buffers[id(buf)] = weakref.ref(buf)


def push_scope(trace) -> Scope:
    """Start recording the arrays made while ``fun`` runs on ``trace``."""
    scope = Scope(trace, current_scope())
    core._STATE.scope = scope
    core._SCOPES_ON[0] += 1
    core._NOTE_CREATED[0] = _note_created
    return scope


def pop_scope(scope: Scope) -> None:
    """End ``scope``: its rebound values are plain again (an eager array keeps the value
    it had before its first traced write, which is what a residual of a derivative
    captured before that write needs)."""
    core._STATE.scope = scope.prev
    core._SCOPES_ON[0] -= 1
    for key in scope.rebound:
        _TABLE.pop(key, None)
    core._REBOUND_ON[0] -= len(scope.rebound)
    scope.created = {}
    scope.buffers = {}
    scope.rebound = []


def resolve(x):
    """The tracer a rebound array (or rebound tracer of an enclosing staging trace) stands
    for; ``x`` itself for anything else."""
    if _TABLE:
        entry = _TABLE.get(id(x))
        if entry is not None and entry[0]() is x:
            return entry[1]
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
    key = id(x)
    _TABLE[key] = (weakref.ref(x), tracer)
    scope.rebound.append(key)
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
