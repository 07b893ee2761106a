"""NumPy aliasing for traced arrays: in-place updates as state effects under every
transformation.

A tracer (``jit``, ``grad``/``jvp``/``vjp``/``linearize``, ``vmap``) cannot be written in
place. The first write into a traced array (``x[idx] = v``, ``x += y``, ``out=``) makes
the memory of its family (the array its views lead to, and those views) a :class:`Cell`:
a ref of the running trace (``xnp.lax.new_ref``: staged under ``jit`` and in control-flow
bodies, a box under grad/jvp/vmap), holding the root's value. Each array of the family
is *bound* to its place in the cell (a :class:`Member`, :mod:`xnp.tracing.rebound`):

* reading a bound array is ``ref_get`` of the cell and the views' read functions from the
  root down (the value is kept until the cell is written; it is bound to the same place,
  so writing it or taking a view of it is writing or viewing the array);
* writing one is a ``ref_swap`` of the root's new value, made from the new view by the
  views' write functions up to the root; every other array of the family sees it on its
  next read.

So NumPy's aliasing holds by construction, the mutation is in the program (a staged
jaxpr holds the ref equations; ``jit`` discharges them into functional updates before
compiling), and each transformation handles it by its rules for the state primitives.

A basic-index read ``v = x[idx]`` of a traced array records ``v.view_of``
(:class:`ViewOf`: the base, the index, the read and write functions) and registers ``v``
as a live view of ``x``, so that the first write anywhere in the family binds it.
Reshape-family views (transpose, squeeze, expand_dims, and reshape/ravel when NumPy gives
a view) record a read function and its inverse write function instead of an index
(:mod:`xnp.numpy_api._shape_views`).

Refused: writing a traced value into an array that lives outside the running function (a
global, a closure, a view of one, a tracer of an enclosing transformation:
``ForeignWriteError``), except inside a control-flow body, which captures it
(:func:`_capture`); writing into a family with a reshape whose view-or-copy status is
unknown (``NotImplementedError``).
"""

from __future__ import annotations

import weakref

import numpy as np

from xnp import lax
from xnp.lax import state as _state
from xnp.numpy_api import _layout
from xnp.tracing import core, errors, rebound as _rebound

__all__ = ["ViewOf", "Cell", "Member", "track_view", "rebind", "rebind_traced", "adopt",
           "resolve", "memory_root", "is_place_of"]

resolve = _rebound.resolve
binding_of = _rebound.binding_of


class ViewOf:
    """``view_of`` record of a traced view: its ``base`` and ``strides`` (the element
    strides NumPy's view would have, :mod:`xnp.numpy_api._layout`; None: unknown).

    Every view has ``read(base) -> view`` and ``write(base, new_view) -> new_base``; a
    basic-index view also has the index ``entries``, a reshape-family view (transpose,
    squeeze, expand_dims, reshape...) ``entries=None``. ``write=None`` marks a reshape whose
    view-or-copy status could not be decided (writes into its family raise while it lives).
    """

    __slots__ = ("base", "entries", "strides", "read", "write")

    def __init__(self, base, entries, strides=None, read=None, write=None):
        self.base = base
        self.entries = entries
        self.strides = strides
        self.read = read
        self.write = write


class Cell:
    """The memory of a family of arrays written in place under a transformation: a ref of
    the trace that was current when it was made (``trace``), holding the root's value;
    ``version`` counts the writes; ``undecided`` holds weak references to the family's
    reshapes whose view-or-copy status is unknown."""

    __slots__ = ("ref", "trace", "version", "undecided", "_root", "__weakref__")

    def __init__(self, value):
        self.trace = core.current_trace()
        self.ref = _state.new_ref(self._unnamed(value))
        self.version = 0
        self.undecided: list = []
        # (version, trace, value): the root's value known on a trace, a new tracer of it
        self._root = (0, self.trace, self.trace.const_tracer(value))

    def root_value(self):
        """The root's current value on the current trace: the value this trace wrote last
        (a new tracer of it), or the value read last, else a ``ref_get`` of the whole."""
        cur = core.current_trace()
        known = self._root
        if known is not None and known[0] == self.version and known[1] is cur:
            return known[2]
        value = _state.read_whole(self.ref)
        self._root = (self.version, cur, value)
        return value

    def _unnamed(self, value):
        """``value`` as a box holds it, when the box's own trace writes it: a tracer no
        array object is (so never bound: a box's reads are not resolved). A staged ref holds
        the value's variable; a body writing the cell of the function around it stages the
        write (the box is a ref the body closes over)."""
        trace = self.trace
        if trace.staging or core.current_trace() is not trace:
            return value
        return trace.const_tracer(value)

    def check_writable(self) -> None:
        for r in self.undecided:
            v = r()
            if v is not None and v._trace.alive:
                raise _undecided(v)

    def write(self, path, new) -> None:
        """Write ``new`` into the place ``path`` (views from the root) of the cell."""
        self.check_writable()
        if path:
            values = [self.root_value()]
            for rec in path[:-1]:
                values.append(rec.read(values[-1]))
            for rec, base in zip(reversed(path), reversed(values)):
                if rec.write is None:
                    raise _undecided(base)
                new = rec.write(base, new)
        _state.write_whole(self.ref, self._unnamed(new))
        self.version += 1
        cur = core.current_trace()
        if cur is self.trace:  # what this trace reads next: the value it wrote
            self._root = (self.version, cur, cur.const_tracer(new))


class Member:
    """A binding (:mod:`xnp.tracing.rebound`): an array's place in a :class:`Cell`, the
    views ``path`` from the root to it; ``origin`` is the array first bound there (its
    layout is the place's). The value read last is reused while the cell is unchanged, the
    same trace reads it and something else holds it. Both are weak references: a binding
    keeps no array alive."""

    __slots__ = ("cell", "path", "_origin", "version", "read_on", "_value")

    def __init__(self, cell: Cell, path: tuple, origin):
        self.cell = cell
        self.path = path
        self._origin = None if origin is None else weakref.ref(origin)
        self.version = -1
        self.read_on = None
        self._value = None

    @property
    def origin(self):
        return None if self._origin is None else self._origin()

    @property
    def trace(self):
        return self.cell.trace

    @property
    def memory(self):
        return self.cell

    def keep(self, value) -> None:
        """``value`` (a new tracer) is the place's current value: bind it here too."""
        self.version, self.read_on = self.cell.version, core.current_trace()
        self._value = weakref.ref(value)
        if self.path:
            value.view_of = self.path[-1]
        _rebound.bind_value(value, self)

    def read(self):
        cur = core.current_trace()
        if self.version == self.cell.version and self.read_on is cur:
            value = self._value()
            if value is not None:
                return value
        value = self.cell.root_value()
        for rec in self.path:
            value = rec.read(value)
        b = binding_of(value)
        if not (isinstance(value, core.Tracer) and value._trace is cur) or (
                b is not None and b is not self):
            value = _fresh(value)  # (a value of an enclosing trace stands for this one's)
        self.keep(value)
        return value


def _fresh(value):
    """A new tracer of the current trace for ``value`` (which is eager, or already named)."""
    const = getattr(core.current_trace(), "const_tracer", None)
    return lax.copy(value) if const is None else const(value)


def memory_root(x):
    """What ``x``'s memory belongs to: its cell when it is bound, else the array at the end
    of its chain of traced views."""
    while True:
        b = binding_of(x)
        if b is not None:
            return b.memory
        rec = getattr(x, "view_of", None)
        if rec is None:
            return x
        x = rec.base


def is_place_of(value, x):
    """The index entries of ``value``'s place when it is a basic-index view of ``x``'s
    place in the same cell (both bound), else None."""
    vm, xm = binding_of(value), binding_of(x)
    if not (isinstance(vm, Member) and isinstance(xm, Member)) or vm.cell is not xm.cell:
        return None
    if len(vm.path) != len(xm.path) + 1 or vm.path[:-1] != xm.path:
        return None
    return vm.path[-1].entries


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
    refs = base.annotation("views") if isinstance(base, core.Tracer) else None
    if not refs:
        return []
    return [v for v in (r() for r in refs) if v is not None]


def track_view(base, out, entries, *, read, write, strides=None):
    """``out`` as a view of ``base``: ``read(base)``, whose writes go back by
    ``write(base, new_view)`` (``write=None``: view-or-copy undecided, writes raise).
    ``entries`` is the index of a basic-index read ``base[entries]``; with
    ``entries=None`` (a reshape-family op) ``strides`` is the view's modelled layout
    (:mod:`xnp.numpy_api._layout`). ``out`` was read from ``base``'s current value.

    An eager read of a traced ``base`` (a constant slice under ``grad``) is made a tracer
    of the current trace, so the view can be written like its base. Returns the
    (possibly wrapped) view; eager results of eager bases are returned unchanged.
    """
    b = binding_of(base)
    cur = core.current_trace()
    if not (isinstance(out, core.Tracer) and out._trace is cur) and (
            b is not None or isinstance(base, core.Tracer) and base._trace is cur):
        # a read that ran on an enclosing trace (a constant slice under grad): a tracer
        # of this one, so that the view is written like its base
        const = getattr(cur, "const_tracer", None)
        if const is not None:
            out = const(out)
    if not isinstance(out, core.Tracer):
        return out
    if entries is not None:
        strides = _layout.index_strides(_layout.layout(base), entries)
    rec = out.view_of = ViewOf(base, entries, strides, read, write)
    if isinstance(b, Member):
        m = Member(b.cell, b.path + (rec,), out)
        m.keep(out)
        if write is None:
            b.cell.undecided.append(weakref.ref(out))
    if isinstance(base, core.Tracer):
        _register(base, out)
    if not (isinstance(base, core.Tracer) and base._trace is out._trace):
        scope = _rebound.current_scope()
        if scope is not None and scope.captured is not None and scope.trace is out._trace:
            # a control-flow body's view of an array it closes over: when the body
            # writes that array (``_capture``), the view is bound to its place too
            scope.foreign_views.append(weakref.ref(out))
    return out


def _undecided(t):
    return NotImplementedError(
        f"xnp: writing through a traced reshape/ravel ({errors.aval_str(t.aval)}) or into its base "
        "while it is alive is not supported here: xnp cannot tell whether NumPy would return "
        "a view or a copy (the base is e.g. a jit/vmap argument whose memory layout is not "
        "known when tracing). Call .copy() on the reshaped array for a copy, or write into "
        "the base array by indexing it.")


def _bind_tree(node, m: Member) -> None:
    """Bind ``node`` to ``m`` and its live views (recursively) to their places below."""
    _rebound.bind_value(node, m)
    for v in _live_views(node):
        rec = v.view_of
        if rec is None or rec.base is not node or not v._trace.alive:
            continue
        vb = binding_of(v)
        if isinstance(vb, Member) and vb.cell is m.cell:
            continue
        if rec.write is None:
            m.cell.undecided.append(weakref.ref(v))
        _bind_tree(v, Member(m.cell, m.path + (rec,), v))


def _family(t, trace):
    """``(node, path)``: going up ``t``'s chain of views, the first array that is bound, is
    not a tracer of ``trace`` (an array the running function closes over), or is the root
    of the chain; and the views' records from it down to ``t``."""
    path = []
    node = t
    while binding_of(node) is None and isinstance(node, core.Tracer) and node._trace is trace:
        rec = node.view_of
        if rec is None:
            break
        path.append(rec)
        node = rec.base
    path.reverse()
    return node, path


def _place(node, path, t):
    """The member of ``t``, at the end of ``path`` below the bound ``node``, binding ``t``
    and the views on the way."""
    m = binding_of(node)
    for k, rec in enumerate(path):
        view = t if k == len(path) - 1 else None
        for v in _live_views(node) if view is None else ():
            if v.view_of is rec:
                view = v
                break
        m = Member(m.cell, m.path + (rec,), view)
        if view is not None:
            _rebound.bind_value(view, m)
        node = view
    return m


def _foreign_error(t, trace, eager_base: bool):
    if eager_base:
        return errors.ForeignWriteError(
            "xnp: writing through a view of an eager array inside a traced function is not "
            "supported (it would modify a global as a side effect); pass the array as an "
            "argument (jit writes updated arguments back) or index it outside the function.",
            None if trace.staging else trace)
    return errors.ForeignWriteError(
        f"xnp: in-place update of a traced array {errors.aval_str(t.aval)} that belongs to an "
        "enclosing transformation (a closure of a nested jit/grad/vmap or a lax "
        "control-flow body) is not supported; return the new value instead.",
        None if trace.staging else trace)


def _writable_member(t, values) -> Member:
    """The member ``t`` is written through on the current trace: its own, or a new cell's
    (the family's first write on this trace; a body captures an array it closes over,
    a grad/vmap function adopts one it made)."""
    trace = core.current_trace()
    node, path = _family(t, trace)
    b = binding_of(node)
    scope = _rebound.current_scope()
    body = scope is not None and scope.trace is trace and scope.captured is not None
    if b is not None and (b.trace is trace or body):
        # (a control-flow body writing the cell of the function around it writes its ref,
        # which the body closes over: the loop carries it, and writes it back after)
        return _place(node, path, t) if path else b
    if b is None and isinstance(node, core.Tracer) and node._trace is trace:
        if node.annotation(core.BORROWED):  # made of shared host memory (asarray of NumPy's)
            raise errors.ForeignWriteError(errors.borrowed_write_message(
                t.aval, trace.transformation),
                None if trace.staging else trace)
        _bind_tree(node, Member(Cell(node), (), node))
        return binding_of(t) or _place(node, path, t)
    if scope is not None and scope.trace is trace:
        if body:
            _capture(node, trace, scope)
            return binding_of(t) or _place(node, path, t)
        if _adopt_tracer(node, t, trace, scope, values):
            return binding_of(t) or _place(node, path, t)
    raise _foreign_error(t, trace, b is None and type(node) is core.Array)


def rebind(t, new) -> None:
    """Write ``new`` (``t``'s aval) into the traced (or bound) array ``t``: a write of its
    place in its family's cell, which every array of the family then reads.

    Raises
    ------
    xnp.errors.ForeignWriteError
        ``t`` belongs to an enclosing transformation; ``t`` is a view of an eager array.
    NotImplementedError
        ``t``'s family has a reshape whose view-or-copy status is unknown.
    ValueError
        ``t`` is a read-only view (``broadcast_to``, ``diagonal``).
    """
    m = _writable_member(t, (new,))
    m.cell.write(m.path, new)
    if isinstance(t, core.Tracer):  # (what a leaked tracer's message names as its line)
        t.src = getattr(new, "src", None) or core.source_info()


#: the annotation of a 0-d tracer that stands for a NumPy scalar (``x[i]`` of integers)
NUMPY_SCALAR = "numpy_scalar"


def rebind_traced(tracer, new, opname: str):
    """``tracer op= y`` under a transformation: write ``new`` (``op(tracer, y)``) into
    ``tracer``.

    NumPy's in-place rules: the result must keep ``tracer``'s shape
    (``ValueError``) and cast to its dtype with ``same_kind`` (``TypeError``).
    A view writes through to its base. A weakly typed 0-d tracer stands for a
    Python scalar, and one read with integer indices for a NumPy scalar; both are
    immutable: ``new`` is returned (``s += 1.5`` of an integer gives a float) and nothing
    is written.
    """
    if tracer.aval.ndim == 0 and (tracer.aval.weak_type or (
            isinstance(tracer, core.Tracer) and tracer.annotation(NUMPY_SCALAR))):
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


# --------------------------------------------------------------------------- adopted arrays


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


def _flat_view(root_t, idx: np.ndarray, owner_shape) -> ViewOf:
    """The record of a view of ``root_t`` (the owner's value) holding the elements at
    ``idx``."""
    n = int(np.prod(owner_shape, dtype=np.int64))
    ids = core.lift(idx)

    def read(base):
        return _state.index_get(lax.reshape(base, (n,)), _FLAT, [ids])

    def write(base, new):
        flat = _state.index_update(lax.reshape(base, (n,)), _FLAT, [ids], new)
        return lax.reshape(flat, owner_shape)

    return ViewOf(root_t, None, None, read, write)


def adopt(x, values) -> bool:
    """Before writing ``values`` into the eager array ``x``: whether the write is traced.

    True when ``x`` is bound (a cell holds its value), when a control-flow body writes it
    (it is captured), or when ``values`` hold a tracer and ``x`` was made by the function
    that the current (non-staging) transformation runs: then ``x`` and every array of
    that function sharing its memory (NumPy views of one buffer) become one cell's family,
    each bound to its elements of the buffer's value. False leaves the write to the eager
    path (constants are written in place, anything else raises)."""
    if binding_of(x) is not None:
        return True
    if type(x) is not core.Array:
        return False
    scope = _rebound.current_scope()
    trace = core.current_trace()
    if scope is not None and scope.captured is not None and scope.trace is trace:
        _capture(x, trace, scope)
        return True
    if scope is None or trace.staging or scope.trace is not trace or not core._holds_tracer(
            tuple(values)):
        return False
    if (x._dev is None and isinstance(x._val, np.ndarray)
            and not x._val.flags.writeable):  # NumPy's read-only array (a real array's imag)
        raise ValueError("assignment destination is read-only")
    if not scope.made_here(x) and not (isinstance(x._val, np.ndarray)
                                       and scope.owns(_owner(x._val))):
        return False  # made outside the function (a global or a closure)
    const_tracer = getattr(trace, "const_tracer", None)
    if const_tracer is None or x._dev is not None:
        return False
    v = x._value
    owner = _owner(v) if isinstance(v, np.ndarray) else None
    if owner is not None and owner is not v and not scope.owns(owner):
        return False  # a view of memory made outside the function (a global): refused
    members = [x]
    maps = None
    if owner is not None and owner.flags.c_contiguous:
        members = [a for a in scope.live_arrays() if type(a) is core.Array and a._dev is None
                   and isinstance(a._val, np.ndarray) and _owner(a._val) is owner
                   and binding_of(a) is None]
        if not any(a is x for a in members):
            members.append(x)  # made outside the recorded paths (e.g. an eager reshape view)
        maps = [_element_map(a._val, owner) for a in members]
        if any(m is None for m in maps):
            members = [x]
    if len(members) == 1:
        root_t = const_tracer(core.Array(np.array(v), x.weak_type))
        _rebound.bind_value(x, Member(Cell(root_t), (), root_t))
        return True
    root_weak = next((a.weak_type for a in members if a._val is owner), x.weak_type)
    root_t = const_tracer(core.Array(np.array(owner), root_weak))
    root = Member(Cell(root_t), (), root_t)
    _rebound.bind_value(root_t, root)
    whole = np.arange(owner.size, dtype=np.int64).reshape(owner.shape)
    for a, m in zip(members, maps):
        if a._val is owner or (m.shape == owner.shape and np.array_equal(m, whole)):
            _rebound.bind_value(a, root)
        else:
            _rebound.bind_value(a, Member(root.cell, (_flat_view(root_t, m, owner.shape),), a))
    return True


def _capture(x, trace, scope) -> None:
    """A control-flow body (a capturing scope, see ``lax.control_flow.common.trace_body``)
    writes ``x``, which it did not make (an eager array or a tracer of an enclosing trace,
    not bound to a cell): ``x`` becomes the root of a cell of the body,
    holding the body's constant of its value (the one every earlier read in the body used,
    the value at the start of each iteration). The loop carries it and writes the final
    value back into ``x`` afterwards; the views of ``x`` the body made so far are bound
    to their places."""
    if type(x) is core.Array and x._dev is None and isinstance(x._val, np.ndarray) and (
            not x._val.flags.writeable) and binding_of(x) is None:
        raise ValueError("assignment destination is read-only")
    rec = getattr(x, "view_of", None)
    if rec is not None and rec.write is None:
        raise _undecided(x)
    src = resolve(x)  # the object the body's constant of x is made from
    t = trace.to_tracer(x)
    m = Member(Cell(t), (), x)
    _bind_tree(x, m)
    scope.captured.append((x, src))
    for r in scope.foreign_views:
        v = r()
        rec = None if v is None else v.view_of
        if rec is not None and (rec.base is x or rec.base is src) and binding_of(v) is None:
            _bind_tree(v, Member(m.cell, (rec,), v))


def _adopt_tracer(node, t, trace, scope, values) -> bool:
    """A grad/vmap function writes a traced value into ``t``, below ``node`` (a tracer of an
    enclosing transformation that the function made, or an array bound to a cell of one):
    the family (from the root of ``node``'s views on that trace) becomes a cell of
    ``trace``, holding the root's current value."""
    if trace.staging or not isinstance(node, core.Tracer) or node._trace is trace:
        return False
    if not (scope.made_here(node) or scope.made_here(t)) or not core._holds_tracer(
            tuple(values)):
        return False
    root, _ = _family(node, node._trace)
    if not isinstance(root, core.Tracer):
        return False
    cell = Cell(trace.const_tracer(lax.copy(root)))  # (a new value: ``root`` itself is bound)
    _bind_tree(root, Member(cell, (), root))
    return True
