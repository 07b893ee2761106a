"""State primitives: mutable array references (refs) in the IR.

``new_ref(x)`` makes a ref holding ``x``; ``ref_get(ref, idx)`` reads ``ref[idx]``;
``ref_swap(ref, v, idx)`` writes ``v`` into ``ref[idx]`` and returns the old value;
``ref_set`` and ``ref_addupdate`` (``ref[idx] += v``) write without a result. ``idx`` is
NumPy's basic indexing (ints, static slices with steps, None, Ellipsis; traced integer
scalars) or integer-array indexing (a gather/scatter), see
:class:`xnp.tracing.state.Indexer`.

Staged (``jit``, ``make_jaxpr``, control-flow bodies) a ref is a tracer of aval
``Ref{...}`` and the jaxpr records each read and write;
:func:`xnp.tracing.jaxpr_transforms.discharge_state` rewrites them into functional updates
with each primitive's ``discharge`` rule, before lowering and before the rules of an
enclosing ``jit``/``cond``/``scan``/``while`` see the body. Unstaged (eagerly, under
``grad``/``jvp``/``vjp``/``vmap``) a ref is an :class:`xnp.tracing.state.Ref` box, and
every operation runs its discharge rule on the box's value at once: the functional
update is differentiated and batched by the rules of ``dynamic_update_slice``,
``scatter`` and ``gather``.
"""

from __future__ import annotations

import functools

import numpy as np

from xnp import config
from xnp.lax import _kit as kit
from xnp.lax import elementwise, gather_scatter, shape_ops, slicing
from xnp.tracing import core, errors
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.errors import aval_str
from xnp.tracing.state import Indexer, Ref, RefAval, indexed_shape, is_ref_aval

__all__ = ["new_ref", "new_ref_p", "ref_get", "ref_get_p", "ref_swap", "ref_swap_p",
           "ref_set", "ref_addupdate", "ref_addupdate_p", "Ref", "ArrayRef", "RefAval",
           "Indexer"]


# --------------------------------------------------------------------------- indexers


def _is_int_scalar(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def make_indexer(name: str, aval, idx):
    """``(Indexer, operands)`` of NumPy index ``idx`` into a ref of ``aval``."""
    items = idx if isinstance(idx, tuple) else (idx,)
    n_ell = sum(1 for i in items if i is Ellipsis)
    if n_ell > 1:
        raise IndexError(f"xnp.lax.{name}: an index can only have a single ellipsis ('...')")
    consuming = sum(1 for i in items if i is not None and i is not Ellipsis)
    if consuming > aval.ndim:
        raise IndexError(f"xnp.lax.{name}: too many indices for a ref of {aval_str(aval)}: "
                         f"{consuming} were indexed")
    expanded = []
    for i in items:
        if i is Ellipsis:
            expanded.extend([slice(None)] * (aval.ndim - consuming))
        else:
            expanded.append(i)
    expanded.extend([slice(None)] * (aval.ndim - sum(1 for i in expanded if i is not None)))
    entries, operands, axis = [], [], 0
    for i in expanded:
        if i is None:
            entries.append(("new",))
            continue
        dim = aval.shape[axis]
        if _is_int_scalar(i):
            k = int(i)
            if not -dim <= k < dim:
                raise IndexError(f"xnp.lax.{name}: index {k} is out of bounds for axis {axis} "
                                 f"with size {dim} (ref of {aval_str(aval)})")
            entries.append(("int", k % dim))
        elif isinstance(i, slice):
            for part in (i.start, i.stop, i.step):
                if part is not None and not _is_int_scalar(part):
                    raise TypeError(f"xnp.lax.{name}: slice bounds must be static integers or "
                                    f"None, got {i!r}")
            if i.step == 0:
                raise ValueError(f"xnp.lax.{name}: slice step cannot be zero")
            entries.append(("slice", *i.indices(dim)))
        else:
            try:
                a = core.aval_of(i)
            except TypeError:
                raise TypeError(f"xnp.lax.{name}: index entries must be ints, slices, None, "
                                f"Ellipsis or integer arrays, got {type(i).__name__}: "
                                f"{i!r}") from None
            if a.dtype not in kit.INTEGER:
                raise TypeError(f"xnp.lax.{name}: index arrays must have an integer dtype, got "
                                f"{aval_str(a)} (boolean masks are not supported)")
            entries.append(("dyn",) if a.ndim == 0 else ("arr",))
            operands.append(i if not isinstance(i, list) else np.asarray(i))
        axis += 1
    return Indexer(entries), operands


def _check_index_operands(name, ref: RefAval, indexer, idx_avals):
    if not isinstance(indexer, Indexer):
        raise TypeError(f"xnp.lax.{name}: indexer must be an Indexer, got {indexer!r}")
    if len(idx_avals) != indexer.n_operands:
        raise TypeError(f"xnp.lax.{name}: indexer {indexer} takes {indexer.n_operands} index "
                        f"operands, got {len(idx_avals)}")
    consuming = [e for e in indexer.entries if e[0] != "new"]
    if len(consuming) != ref.ndim:
        raise ValueError(f"xnp.lax.{name}: indexer {indexer} indexes {len(consuming)} axes of "
                         f"a ref of {aval_str(ref.inner)}")
    it = iter(idx_avals)
    for e in indexer.entries:
        if e[0] in ("dyn", "arr"):
            a = next(it)
            if a.dtype not in kit.INTEGER or (e[0] == "dyn" and a.ndim != 0):
                raise TypeError(f"xnp.lax.{name}: index operand of {aval_str(a)} for entry "
                                f"{e[0]} of {indexer}: an integer {'scalar' if e[0] == 'dyn' else 'array'}"
                                " is required")
    try:
        return indexed_shape(ref.shape, indexer, [a.shape for a in idx_avals])[0]
    except ValueError as err:
        raise ValueError(f"xnp.lax.{name}: index arrays of shapes "
                         f"{[a.shape for a in idx_avals]} do not broadcast: {err}") from None


def _ref_operand(name, ref):
    if not is_ref_aval(ref):
        raise TypeError(f"xnp.lax.{name}: the first operand must be a ref (Ref{{...}}), got "
                        f"{aval_str(ref) if isinstance(ref, ShapedArray) else ref}")
    return ref


# --------------------------------------------------------------------------- functional indexing


def _index_dtype():
    return np.dtype(np.int64 if config.get("enable_x64") else np.int32)


def _normalized(i, dim: int, dtype):
    """Integer index values ``i`` wrapped once when negative and clamped into [0, dim)."""
    i = elementwise.convert_element_type(i, dtype)
    zero = np.zeros((), dtype)
    shape = core.aval_of(i).shape
    full = (lambda v: shape_ops.broadcast_in_dim(np.asarray(v, dtype), shape, ()))
    i = elementwise.select(elementwise.lt(i, full(0) if shape else zero),
                           elementwise.add(i, full(dim) if shape else np.asarray(dim, dtype)), i)
    lo, hi = (full(0), full(max(dim - 1, 0))) if shape else (zero, np.asarray(max(dim - 1, 0),
                                                                                dtype))
    return elementwise.min(elementwise.max(i, lo), hi)


def _is_block(indexer: Indexer) -> bool:
    return not indexer.has_arrays and all(e[0] != "slice" or e[3] == 1 for e in indexer.entries)


def _block_starts(shape, indexer, operands):
    dtype = _index_dtype()
    ops = iter(operands)
    starts, sizes, axis = [], [], 0
    for e in indexer.entries:
        if e[0] == "new":
            continue
        if e[0] == "int":
            starts.append(np.asarray(e[1], dtype))
            sizes.append(1)
        elif e[0] == "dyn":
            starts.append(_normalized(next(ops), shape[axis], dtype))
            sizes.append(1)
        else:
            starts.append(np.asarray(e[1], dtype))
            sizes.append(max(e[2] - e[1], 0))
        axis += 1
    return starts, tuple(sizes)


def _flat_indices(shape, indexer, operands, out_shape, positions):
    """Row-major flat positions in an array of ``shape`` of every element of
    ``x[indexer]``, an integer array of ``out_shape``."""
    dtype = _index_dtype()
    strides = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape))]
    block_rank = len(out_shape) - sum(1 for e in indexer.entries if e[0] in ("slice", "new"))
    ops = iter(operands)
    acc = shape_ops.broadcast_in_dim(np.zeros((), dtype), out_shape, ())
    axis = 0
    for e, pos in zip(indexer.entries, positions):
        if e[0] == "new":
            continue
        dim = shape[axis]
        if e[0] == "slice":
            start, _, step = e[1:]
            n = out_shape[pos]
            # (an iota, not a constant array: a control-flow body's discharge stages no consts)
            vals = elementwise.add(elementwise.mul(shape_ops.iota(dtype, (n,)), np.asarray(
                step, dtype)), np.asarray(start, dtype))
            term = shape_ops.broadcast_in_dim(vals, out_shape, (pos,))
        elif e[0] == "int":
            term = shape_ops.broadcast_in_dim(np.asarray(e[1], dtype), out_shape, ())
        else:
            v = _normalized(next(ops), dim, dtype)
            r = core.aval_of(v).ndim
            if r == 0:
                term = shape_ops.broadcast_in_dim(v, out_shape, ())
            else:
                first = pos + block_rank - r
                term = shape_ops.broadcast_in_dim(v, out_shape, tuple(range(first, first + r)))
        term = elementwise.mul(term, shape_ops.broadcast_in_dim(
            np.asarray(strides[axis], dtype), out_shape, ()))
        acc = elementwise.add(acc, term)
        axis += 1
    return shape_ops.reshape(acc, out_shape + (1,))


_TAKE = gather_scatter.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                              start_index_map=(0,))
_PUT = gather_scatter.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                              scatter_dims_to_operand_dims=(0,))


def index_get(x, indexer: Indexer, operands):
    """``x[indexer]`` as a functional value (``dynamic_slice`` or a flat ``gather``; ``x``
    itself for the whole array)."""
    shape = core.aval_of(x).shape
    if indexer.is_whole(shape):
        return x
    out_shape, positions = indexed_shape(shape, indexer, [core.aval_of(o).shape
                                                          for o in operands])
    if _is_block(indexer):
        starts, sizes = _block_starts(shape, indexer, operands)
        block = slicing.dynamic_slice(x, starts, sizes) if shape else x
        return shape_ops.reshape(block, out_shape)
    flat = shape_ops.reshape(x, (int(np.prod(shape, dtype=np.int64)),))
    idx = _flat_indices(shape, indexer, operands, out_shape, positions)
    return gather_scatter.gather(flat, idx, _TAKE, (1,), mode="clip")


def index_update(x, indexer: Indexer, operands, v, *, add: bool = False):
    """``x`` with ``x[indexer]`` replaced by (``add``: increased by) ``v``, functionally
    (``dynamic_update_slice`` or a flat ``scatter``/``scatter_add``; ``v`` for the whole
    array)."""
    shape = core.aval_of(x).shape
    if not add and indexer.is_whole(shape) and core.aval_of(v).shape == shape:
        return v
    out_shape, positions = indexed_shape(shape, indexer, [core.aval_of(o).shape
                                                          for o in operands])
    if _is_block(indexer):
        starts, sizes = _block_starts(shape, indexer, operands)
        if add:
            v = elementwise.add(index_get(x, indexer, operands), v)
        if not shape:
            return v
        return slicing.dynamic_update_slice(x, shape_ops.reshape(v, sizes), starts)
    n = int(np.prod(shape, dtype=np.int64))
    flat = shape_ops.reshape(x, (n,))
    idx = _flat_indices(shape, indexer, operands, out_shape, positions)
    put = gather_scatter.scatter_add if add else gather_scatter.scatter
    return shape_ops.reshape(put(flat, idx, v, _PUT, mode="clip"), shape)


# --------------------------------------------------------------------------- primitives


class _StatePrimitive(core.Primitive):
    """A state primitive: outside staging its operand is a :class:`Ref` box and ``bind``
    runs the ``discharge`` rule on the box at once."""

    accepts_refs = True

    def __init__(self, name, *, discharge, no_batch, **rules):
        super().__init__(name, **rules)
        self.discharge = discharge
        self.linear = False
        self.no_batch = no_batch
        self.view = None

    def bind(self, *args, **params):
        first = args[0]
        if self is new_ref_p:
            if not core.current_trace().staging:
                return self.discharge(*args, **params)
        elif isinstance(first, Ref) and not core.current_trace().staging:
            return self.discharge(*args, **params)
        return super().bind(*args, **params)


def _prim(name, *, discharge, no_batch=None, **rules):
    """A state primitive whose eager rule (``impl``) is its ``discharge`` rule."""
    return _StatePrimitive(name, discharge=discharge, no_batch=no_batch, impl=discharge, **rules)


def _new_ref_abstract(x, **params):
    if is_ref_aval(x):
        raise TypeError(f"xnp.lax.new_ref: the operand must be an array, got a ref {x}")
    return RefAval(x)


def _get_abstract(ref, *idx, indexer):
    _ref_operand("ref_get", ref)
    shape = _check_index_operands("ref_get", ref, indexer, idx)
    return ShapedArray(shape, ref.dtype, ref.weak_type)


def _swap_abstract(ref, v, *idx, indexer, name="ref_swap"):
    _ref_operand(name, ref)
    shape = _check_index_operands(name, ref, indexer, idx)
    if is_ref_aval(v) or v.dtype != ref.dtype or v.shape != shape:
        raise TypeError(f"xnp.lax.{name}: the value must be an array of the indexed shape and "
                        f"the ref's dtype, {aval_str(ShapedArray(shape, ref.dtype))}; got "
                        f"{aval_str(v) if not is_ref_aval(v) else v} for a ref of "
                        f"{aval_str(ref.inner)} indexed by {indexer}")
    return ShapedArray(shape, ref.dtype, ref.weak_type)


def _addupdate_abstract(ref, v, *idx, indexer):
    _swap_abstract(ref, v, *idx, indexer=indexer, name="ref_addupdate")
    if ref.dtype not in kit.NUMERIC:
        raise TypeError(f"xnp.lax.ref_addupdate: the ref must have a numeric dtype, got "
                        f"{aval_str(ref.inner)}")
    return []


def _outer_ref_jvp(name):
    def jvp(primals, tangents, **params):
        if any(type(t) is not Zero for t in tangents[1:]):
            raise NotImplementedError(
                f"xnp.lax.{name}: writing a differentiated value into a ref made outside the "
                "differentiated function is not supported; make the ref inside it (or "
                "return the value instead).")
        out = (ref_get_p if name == "ref_get" else
               ref_swap_p if name == "ref_swap" else ref_addupdate_p).bind(*primals, **params)
        if name == "ref_addupdate":
            return out, []
        return out, Zero(core.aval_of(out).strip_weak_type())
    return jvp


def _outer_ref_batch(name):
    def batch(vals, dims, **params):
        if any(d is not None for d in dims):
            raise NotImplementedError(
                f"xnp.lax.{name}: under vmap, a ref made outside the mapped function can only "
                "be used with unbatched values and indices; make the ref inside it.")
        prim = (ref_get_p if name == "ref_get" else
                ref_swap_p if name == "ref_swap" else ref_addupdate_p)
        out = prim.bind(*vals, **params)
        return out, ([] if name == "ref_addupdate" else None)
    return batch


# discharge rules: on a Ref box (also the boxes discharge_state makes for staged refs)

class ArrayRef(Ref):
    """The ref :func:`new_ref` makes outside staging: a :class:`xnp.tracing.state.Ref` box
    read and written by indexing, as a staged ref is (``ref[idx]`` is :func:`ref_get`,
    ``ref[idx] = v`` :func:`ref_set`, so ``ref[idx] += v`` reads and writes). ``level``: the
    level of the trace it was made on; a transformation begun later cannot write its
    values into it (they would outlive it)."""

    __slots__ = ("level",)

    def __init__(self, value, aval, level):
        super().__init__(value, aval)
        self.level = level

    def __getitem__(self, idx):
        return ref_get(self, idx)

    def __setitem__(self, idx, value):
        ref_set(self, idx, value)


def _new_ref_discharge(x):
    aval = core.aval_of(x)
    _new_ref_abstract(aval)
    if type(x) is core.Array:
        x = shape_ops.copy(x)  # the ref owns its value: later writes to x do not reach it
    elif not isinstance(x, core.Tracer):
        x = core.lift(np.array(x, dtype=aval.dtype), aval.weak_type)
    return ArrayRef(x, RefAval(aval), core.current_trace().level)


def _checked(name, ref, v, idx, indexer, rule):
    rule(ref.aval, *([core.aval_of(v)] if v is not None else []),
         *[core.aval_of(i) for i in idx], indexer=indexer)


def _own(out, ref):
    """A read of a box as a new array: never the box's value itself, nor (eagerly) NumPy's
    view of its memory, so that writing the read does not write the ref. A tracer is
    immutable: a new tracer of the same value is enough (none while ``discharge_state``
    evaluates a jaxpr, whose values no user code holds)."""
    if out is ref.value or type(out) is core.Array:
        if isinstance(out, core.Tracer):
            trace = core.current_trace()
            if trace.staging:
                return out
            const = getattr(trace, "const_tracer", None)
            if const is not None and out._trace is trace:
                return const(out)
        return shape_ops.copy(out)
    return out


def _check_foreign(name, ref, v) -> None:
    """A value of a transformation begun after ``ref`` was made is not written into it."""
    if (type(ref) is ArrayRef and isinstance(v, core.Tracer) and not v._trace.staging
            and v._trace.level > ref.level):
        raise errors.ForeignWriteError(
            f"xnp.lax.{name}: writing a value of a grad/jvp/vmap begun after the ref was "
            f"made into it ({ref.aval}) would leak the transformation's value; "
            "make the ref inside the transformed function, or return the value",
            v._trace)


def _get_discharge(ref, *idx, indexer):
    _checked("ref_get", ref, None, idx, indexer, _get_abstract)
    return _own(index_get(ref.value, indexer, list(idx)), ref)


def _swap_discharge(ref, v, *idx, indexer):
    _checked("ref_swap", ref, v, idx, indexer, _swap_abstract)
    _check_foreign("ref_swap", ref, v)
    old = index_get(ref.value, indexer, list(idx))
    ref.value = index_update(ref.value, indexer, list(idx), v)
    return old


def _addupdate_discharge(ref, v, *idx, indexer):
    _checked("ref_addupdate", ref, v, idx, indexer, _addupdate_abstract)
    _check_foreign("ref_addupdate", ref, v)
    ref.value = index_update(ref.value, indexer, list(idx), v, add=True)
    return []


new_ref_p = _prim("new_ref", abstract_eval=_new_ref_abstract,
                  differentiable="a ref made under grad/jvp is a box of a differentiated value, "
                                 "and a staged one is discharged before differentiation",
                  allocates=False, discharge=_new_ref_discharge,
                  no_batch="a ref made under vmap is a box of a batched value, and a staged one "
                           "is discharged before batching")
ref_get_p = _prim("ref_get", abstract_eval=_get_abstract, discharge=_get_discharge,
                  jvp=_outer_ref_jvp("ref_get"), batch=_outer_ref_batch("ref_get"))
ref_swap_p = _prim("ref_swap", abstract_eval=_swap_abstract, discharge=_swap_discharge,
                   jvp=_outer_ref_jvp("ref_swap"), batch=_outer_ref_batch("ref_swap"))
ref_addupdate_p = _prim("ref_addupdate", abstract_eval=_addupdate_abstract,
                        discharge=_addupdate_discharge,
                        multiple_results=True, jvp=_outer_ref_jvp("ref_addupdate"),
                        batch=_outer_ref_batch("ref_addupdate"))


# --------------------------------------------------------------------------- wrappers


def _ref_aval_of(name, ref):
    try:
        aval = core.aval_of(ref)
    except TypeError:
        aval = None
    if not is_ref_aval(aval):
        raise TypeError(f"xnp.lax.{name}: ref must be a ref made by xnp.lax.new_ref, got "
                        f"{type(ref).__name__}: {ref!r}")
    return aval


def new_ref(x):
    """A new mutable ref holding (a copy of) the array ``x``.

    Staged, a tracer of aval ``Ref{dtype[shape]}``; otherwise a
    :class:`xnp.tracing.state.Ref` box. Refs cannot be returned from a transformed
    function or passed to one as arguments; control-flow bodies may close over them (the
    ref becomes loop-carried state).
    """
    return new_ref_p.bind(x)


def ref_get(ref, idx=()):
    """``ref[idx]``: a new array (NumPy's basic or integer-array indexing; ``()`` reads the
    whole value). Traced integer scalars and arrays are wrapped once when negative and
    clamped into range."""
    indexer, ops = make_indexer("ref_get", _ref_aval_of("ref_get", ref), idx)
    return ref_get_p.bind(ref, *ops, indexer=indexer)


def ref_swap(ref, value, idx=()):
    """Write ``value`` into ``ref[idx]`` and return the old ``ref[idx]``.

    ``value`` is broadcast to the indexed shape (NumPy's rules) and must have the ref's
    dtype (Python scalars take it). With integer arrays, when several positions repeat the order
    of the writes is unspecified under XLA.
    """
    aval = _ref_aval_of("ref_swap", ref)
    indexer, ops = make_indexer("ref_swap", aval, idx)
    return ref_swap_p.bind(ref, _as_value(value, aval, indexer, ops), *ops, indexer=indexer)


def ref_set(ref, idx, value) -> None:
    """``ref[idx] = value`` (:func:`ref_swap` without the old value)."""
    ref_swap(ref, value, idx)


@functools.lru_cache(maxsize=64)
def _whole(shape) -> Indexer:
    return Indexer(tuple(("slice", 0, n, 1) for n in shape))


def read_whole(ref):
    """``ref[...]`` (:func:`ref_get` of the whole value, ``ref``'s dtype and shape); a box's
    value is read at once, as its ``discharge`` rule would."""
    if isinstance(ref, Ref) and not core.current_trace().staging:
        return _own(ref.value, ref)
    return ref_get_p.bind(ref, indexer=_whole(core.aval_of(ref).shape))


def write_whole(ref, value) -> None:
    """``ref[...] = value`` (:func:`ref_set` of the whole value; ``value`` has the ref's
    dtype and shape); a box's value is replaced at once, as its ``discharge`` rule would."""
    if isinstance(ref, Ref) and not core.current_trace().staging:
        _check_foreign("ref_swap", ref, value)
        ref.value = value
        return
    ref_swap_p.bind(ref, value, indexer=_whole(core.aval_of(ref).shape))


def ref_addupdate(ref, idx, value) -> None:
    """``ref[idx] += value``; repeated integer-array positions accumulate
    (``numpy.add.at``). Numeric dtypes only."""
    aval = _ref_aval_of("ref_addupdate", ref)
    indexer, ops = make_indexer("ref_addupdate", aval, idx)
    ref_addupdate_p.bind(ref, _as_value(value, aval, indexer, ops), *ops, indexer=indexer)


def _as_value(value, ref_aval, indexer, ops):
    """``value`` broadcast (NumPy's rules) to the indexed shape; a Python scalar takes the
    ref's dtype. Other mismatches are left to the primitive's shape and dtype rule."""
    if core.is_python_scalar(value):
        value = core.lift(np.asarray(value, ref_aval.dtype))
    try:
        aval = core.aval_of(value)
    except TypeError:
        return value
    if is_ref_aval(aval):
        return value
    target = indexed_shape(ref_aval.shape, indexer, [core.aval_of(o).shape for o in ops])[0]
    if aval.shape != target:
        try:
            ok = np.broadcast_shapes(aval.shape, target) == target
        except ValueError:
            ok = False
        if ok:
            k = len(target) - aval.ndim
            value = shape_ops.broadcast_in_dim(value, target, tuple(range(k, len(target))))
    return value
