"""Mutable array references in the IR: ``RefAval``, the eager ``Ref`` box and ``Indexer``.

A ref is a mutable array cell. The primitives of :mod:`xnp.lax.state` (``new_ref``,
``ref_get``, ``ref_swap``, ``ref_addupdate``) read and write it through an
:class:`Indexer` (NumPy's basic indexing, and integer-array indexing). Two
representations exist:

* While staging (``jit``, ``make_jaxpr``, control-flow bodies) a ref is a tracer whose
  aval is a :class:`RefAval`; the jaxpr records the reads and writes in program order, and
  :func:`xnp.tracing.jaxpr_transforms.discharge_state` turns them into functional updates
  (``dynamic_update_slice``, ``scatter``, ``gather``) before lowering and before any rule
  of a higher-order primitive sees the jaxpr.
* Otherwise (eagerly, and under ``grad``/``jvp``/``vjp``/``vmap``, which run the function
  on concrete values) a ref is a :class:`Ref`: a Python box whose ``value`` is an array
  of the current trace. A write replaces the value by the functional update, so the
  value carries tangents or batch axes like any other, and the function runs once.

This module knows only the data; the rules live in :mod:`xnp.lax.state`, which gives
each state primitive a ``discharge`` rule (:func:`is_state_primitive`).
"""

from __future__ import annotations

import numpy as np

from xnp.tracing.avals import ShapedArray

__all__ = ["RefAval", "Ref", "Indexer", "is_ref_aval", "is_state_primitive",
           "indexed_shape", "refuse_ref_operand"]


class RefAval:
    """Abstract value of a ref to an array of aval ``inner`` (a :class:`ShapedArray`).

    Prints as ``Ref{f32[3]}``. ``shape``/``dtype`` are the referenced array's; a ref is
    not an array, so array primitives do not accept it.
    """

    __slots__ = ("inner",)

    def __init__(self, inner: ShapedArray):
        self.inner = inner

    shape = property(lambda self: self.inner.shape)
    dtype = property(lambda self: self.inner.dtype)
    ndim = property(lambda self: self.inner.ndim)
    size = property(lambda self: self.inner.size)
    weak_type = property(lambda self: self.inner.weak_type)

    def strip_weak_type(self) -> "RefAval":
        return self

    def str_short(self) -> str:
        return f"Ref{{{self.inner.str_short()}}}"

    def __eq__(self, other):
        return type(other) is RefAval and other.inner == self.inner

    def __hash__(self):
        return hash(("ref", self.inner))

    def __str__(self):
        return f"Ref{{{self.inner}}}"

    def __repr__(self):
        return f"RefAval({self.inner!r})"


def refuse_ref_operand(what: str, avals) -> None:
    """The ``TypeError`` for a ref among the ``avals`` of an operation (``what``) that takes
    arrays only."""
    i, a = next((i, a) for i, a in enumerate(avals) if type(a) is RefAval)
    raise TypeError(f"{what}: operand {i} is a ref ({a}), not an array; read its "
                    "value with ref[...] (xnp.lax.ref_get) first")


def is_ref_aval(aval) -> bool:
    """Whether ``aval`` is a :class:`RefAval`."""
    return type(aval) is RefAval


class Ref:
    """An eager ref: a box holding ``value``, an array of the trace it is used on.

    Made by ``xnp.lax.new_ref`` outside staging; ``ref_get``/``ref_swap``/
    ``ref_addupdate`` read and replace ``value`` functionally.
    """

    __slots__ = ("value", "aval", "__weakref__")

    def __init__(self, value, aval: RefAval):
        self.value = value
        self.aval = aval

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    def __repr__(self):
        return f"Ref({self.value!r})"

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"a ref ({self.aval}) is not an array; read its value "
                        "with ref[...] (xnp.lax.ref_get) first")


class Indexer:
    """The static part of an index into a ref of rank ``len`` of its consuming entries.

    ``entries`` is a tuple with one item per index position (Ellipsis expanded, trailing
    full slices added):

    * ``("int", k)``: a static integer, already non-negative;
    * ``("dyn",)``: a traced integer scalar, the next index operand;
    * ``("slice", start, stop, step)``: normalised by ``slice.indices``;
    * ``("new",)``: ``None`` (a new axis of length 1);
    * ``("arr",)``: an integer array, the next index operand (NumPy's advanced indexing,
      in which the integers of the same index also take part).

    Dynamic integers and array entries are wrapped once when negative and clamped into
    range (the XLA convention: no error at run time).
    """

    __slots__ = ("entries", "_hash")

    def __init__(self, entries):
        self.entries = tuple(tuple(e) for e in entries)
        self._hash = hash(self.entries)

    @property
    def n_operands(self) -> int:
        return sum(1 for e in self.entries if e[0] in ("dyn", "arr"))

    @property
    def has_arrays(self) -> bool:
        return any(e[0] == "arr" for e in self.entries)

    def is_whole(self, shape) -> bool:
        """Whether this index selects all of an array of ``shape``, in order (``ref[...]``)."""
        return len(self.entries) == len(shape) and all(
            e[0] == "slice" and e[1] == 0 and e[2] == n and e[3] == 1
            for e, n in zip(self.entries, shape))

    def __eq__(self, other):
        return type(other) is Indexer and other.entries == self.entries

    def __hash__(self):
        return self._hash

    def __str__(self):
        parts = []
        for e in self.entries:
            kind = e[0]
            if kind == "int":
                parts.append(str(e[1]))
            elif kind == "slice":
                parts.append(f"{e[1]}:{e[2]}" + (f":{e[3]}" if e[3] != 1 else ""))
            elif kind == "new":
                parts.append("None")
            else:
                parts.append("<" + kind + ">")
        return "[" + ", ".join(parts) + "]"

    __repr__ = __str__


def _slice_len(start, stop, step) -> int:
    return len(range(start, stop, step))


def indexed_shape(ref_shape, indexer: Indexer, operand_shapes):
    """``(result shape, positions)`` of ``ref[indexer]`` under NumPy's rules, with
    ``operand_shapes`` the shapes of the index operands in order. ``positions[i]`` is the
    result dim of entry ``i`` (slice, new axis) or the first dim of the broadcast
    advanced-index block (advanced entries); None for an integer of basic indexing."""
    entries = indexer.entries
    adv = indexer.has_arrays
    shapes = iter(operand_shapes)
    adv_shapes = []
    for e in entries:
        if e[0] in ("dyn", "arr"):
            s = next(shapes)
            if adv:
                adv_shapes.append(s)
        elif e[0] == "int" and adv:
            adv_shapes.append(())
    block = tuple(np.broadcast_shapes(*adv_shapes)) if adv else ()
    is_adv = [adv and e[0] in ("int", "dyn", "arr") for e in entries]
    adv_at = [i for i, a in enumerate(is_adv) if a]
    together = bool(adv_at) and adv_at == list(range(adv_at[0], adv_at[-1] + 1))
    dims, positions = [], []
    placed = False
    if adv and not together:
        dims.extend(block)
        placed = True
    for e, a in zip(entries, is_adv):
        if a:
            if not placed:
                placed = True
                positions.append(len(dims))
                dims.extend(block)
            else:
                positions.append(0 if not together else positions[adv_at[0]])
            continue
        if e[0] == "slice":
            positions.append(len(dims))
            dims.append(_slice_len(*e[1:]))
        elif e[0] == "new":
            positions.append(len(dims))
            dims.append(1)
        else:
            positions.append(None)
    return tuple(dims), positions


def is_state_primitive(prim) -> bool:
    """Whether ``prim`` reads or writes refs (it has a ``discharge`` rule)."""
    return getattr(prim, "discharge", None) is not None
