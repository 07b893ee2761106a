"""Slicing primitives: static ``slice``, ``dynamic_slice``, ``dynamic_update_slice``,
``gather`` and the scatter family (``scatter``, ``scatter_add``, ``scatter_mul``,
``scatter_min``, ``scatter_max``), with JAX's dimension-number structures.

Conventions (as in JAX): the index vector of ``gather``/``scatter`` indices is
always their last dimension (``index_vector_dim = indices.ndim - 1``); indices
may have any integer dtype. Out-of-bounds start indices are handled by the
``mode`` param (:class:`GatherScatterMode`):

* ``CLIP``: start indices are clamped so that the whole window is in bounds;
* ``FILL_OR_DROP``: a gather window that is not entirely in bounds gives
  ``fill_value`` (default NaN for inexact dtypes, the minimum of signed, the
  maximum of unsigned integers, True for bool); a scatter update window that is
  not entirely in bounds is dropped;
* ``PROMISE_IN_BOUNDS``: the caller promises in-bounds indices; what XLA does
  otherwise (gather clamps, scatter drops) is also what the eager backends do.

``dynamic_slice``/``dynamic_update_slice`` always clamp their start indices into
``[0, operand.shape[d] - size[d]]`` (XLA's semantics), so they never fail at run time.

Weak types: results are weak iff the operand is (and, for updates, the update).
"""

from __future__ import annotations

import enum
import operator
from typing import NamedTuple

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax.reductions import checked_bind
from xnp.lax.shape_ops import squeeze
from xnp.tracing import Array, Primitive, ShapedArray, core

__all__ = [
    "slice", "dynamic_slice", "dynamic_update_slice", "gather", "scatter", "scatter_add",
    "scatter_mul", "scatter_min", "scatter_max", "slice_in_dim", "index_in_dim",
    "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice_in_dim",
    "GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode",
    "slice_p", "dynamic_slice_p", "dynamic_update_slice_p", "gather_p", "scatter_p",
    "scatter_add_p", "scatter_mul_p", "scatter_min_p", "scatter_max_p",
]

_builtin_slice = slice


# --------------------------------------------------------------------------- shared pieces


class GatherScatterMode(enum.Enum):
    """What ``gather``/``scatter`` do with out-of-bounds start indices (see the module doc).

    ``from_any`` accepts a member, ``None`` (``FILL_OR_DROP``, as in JAX) or one of
    the strings ``"clip"``, ``"fill"``, ``"drop"``, ``"fill_or_drop"``,
    ``"promise_in_bounds"``.
    """

    CLIP = "clip"
    FILL_OR_DROP = "fill_or_drop"
    PROMISE_IN_BOUNDS = "promise_in_bounds"

    def __repr__(self):
        return f"GatherScatterMode.{self.name}"

    __str__ = __repr__

    @classmethod
    def from_any(cls, mode) -> "GatherScatterMode":
        if isinstance(mode, cls):
            return mode
        if mode is None:
            return cls.FILL_OR_DROP
        if isinstance(mode, str):
            key = mode.lower()
            if key == "clip":
                return cls.CLIP
            if key in ("fill", "drop", "fill_or_drop"):
                return cls.FILL_OR_DROP
            if key == "promise_in_bounds":
                return cls.PROMISE_IN_BOUNDS
        raise ValueError(
            f"xnp.lax: unknown gather/scatter mode {mode!r}; use 'clip', 'fill' (gather), "
            "'drop' (scatter) or 'promise_in_bounds'.")


class GatherDimensionNumbers(NamedTuple):
    """Dimension numbers of :func:`gather` (StableHLO's, with ``index_vector_dim`` last).

    offset_dims : output dims that hold the window (slice) dims, sorted.
    collapsed_slice_dims : operand dims whose slice size 1 is dropped from the output.
    start_index_map : operand dim addressed by each entry of the index vector.
    operand_batching_dims, start_indices_batching_dims : paired batch dims of the
        operand and of the indices (the operand dim is indexed by the batch position).
    """

    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple
    operand_batching_dims: tuple = ()
    start_indices_batching_dims: tuple = ()


class ScatterDimensionNumbers(NamedTuple):
    """Dimension numbers of the scatter family (StableHLO's, ``index_vector_dim`` last).

    update_window_dims : dims of ``updates`` that are window dims, sorted.
    inserted_window_dims : operand dims with window size 1 that ``updates`` lacks.
    scatter_dims_to_operand_dims : operand dim addressed by each index-vector entry.
    operand_batching_dims, scatter_indices_batching_dims : paired batch dims.
    """

    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple
    operand_batching_dims: tuple = ()
    scatter_indices_batching_dims: tuple = ()


def _int_tuple(name: str, what: str, values) -> tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(
            f"xnp.lax.{name}: `{what}` must be a sequence of ints, got {values!r}") from None


def _operand_weak(*weak_types, **params) -> bool:
    return bool(weak_types[0])


def _operand_and_update_weak(*weak_types, **params) -> bool:
    return bool(weak_types[0]) and bool(weak_types[1])


def gather_fill_value(dtype, fill_value) -> np.ndarray:
    """The 0-d fill value of a ``FILL_OR_DROP`` gather of ``dtype``.

    ``fill_value`` if given (cast to ``dtype``); else NaN for inexact dtypes, the
    minimum of signed and the maximum of unsigned integers, True for bool.
    """
    dt = np.dtype(dtype)
    if fill_value is not None:
        return np.asarray(fill_value).astype(dt)
    if dt in kit.INEXACT:
        return np.asarray(np.nan).astype(dt)
    if dt in kit.SIGNED:
        return np.asarray(np.iinfo(dt).min, dt)
    if dt in kit.UNSIGNED:
        return np.asarray(np.iinfo(dt).max, dt)
    return np.asarray(True)


class _Ctx:
    """The avals and dimension numbers of a gather/scatter, formatted only for an error."""

    __slots__ = ("avals", "dnums")

    def __init__(self, dnums, **avals):
        self.dnums = dnums
        self.avals = avals

    def __str__(self):
        parts = [f"{k} {a.str_short()}" for k, a in self.avals.items()]
        return ", ".join(parts + [str(self.dnums)])


def _check_sorted_unique(name, what, dims, bound, context):
    if list(dims) != sorted(set(dims)) or any(d < 0 or d >= bound for d in dims):
        raise ValueError(f"xnp.lax.{name}: `{what}`={dims} must be sorted, unique and in "
                         f"[0, {bound}); {context}.")


def _check_unique(name, what, dims, bound, context):
    if len(set(dims)) != len(dims) or any(d < 0 or d >= bound for d in dims):
        raise ValueError(f"xnp.lax.{name}: `{what}`={dims} must be unique and in [0, {bound}); "
                         f"{context}.")


def _check_indices(name, indices: ShapedArray, context):
    kit.check_dtype(name, indices, kit.INTEGER, "indices")
    if indices.ndim < 1:
        raise TypeError(f"xnp.lax.{name}: indices must have rank >= 1 (the last dim is the index "
                        f"vector), got {indices.str_short()}; {context}.")


def _check_batching(name, operand, indices, obd, ibd, obd_name, ibd_name, context):
    _check_sorted_unique(name, obd_name, obd, operand.ndim, context)
    _check_unique(name, ibd_name, ibd, indices.ndim - 1, context)
    if len(obd) != len(ibd):
        raise ValueError(f"xnp.lax.{name}: `{obd_name}` and `{ibd_name}` must have equal lengths; "
                         f"{context}.")
    for od, idim in zip(obd, ibd):
        if operand.shape[od] != indices.shape[idim]:
            raise ValueError(
                f"xnp.lax.{name}: operand batching dim {od} (size {operand.shape[od]}) and indices "
                f"batching dim {idim} (size {indices.shape[idim]}) differ; {context}.")


def _check_index_map(name, what, index_map, operand, indices, obd, context):
    if len(index_map) != indices.shape[-1]:
        raise ValueError(
            f"xnp.lax.{name}: `{what}` has {len(index_map)} entries but the index vector "
            f"(last dim of indices) has {indices.shape[-1]}; {context}.")
    _check_unique(name, what, index_map, operand.ndim, context)
    if set(index_map) & set(obd):
        raise ValueError(f"xnp.lax.{name}: `{what}`={index_map} overlaps the operand batching "
                         f"dims {obd}; {context}.")


# --------------------------------------------------------------------------- slice


def _slice_shape(x: ShapedArray, *, start_indices, limit_indices, strides):
    name = "slice"
    n = x.ndim
    if len(start_indices) != n or len(limit_indices) != n or (
            strides is not None and len(strides) != n):
        raise TypeError(
            f"xnp.lax.{name}: start_indices={start_indices}, limit_indices={limit_indices} and "
            f"strides={strides} need one entry per dimension of operand {x.str_short()}.")
    out = []
    for d in range(n):
        s, lim = start_indices[d], limit_indices[d]
        st = 1 if strides is None else strides[d]
        if st < 1:
            raise ValueError(f"xnp.lax.{name}: strides must be >= 1, got strides={strides}.")
        if not 0 <= s <= lim <= x.shape[d]:
            raise ValueError(
                f"xnp.lax.{name}: dimension {d} needs 0 <= start <= limit <= {x.shape[d]}, got "
                f"start={s}, limit={lim} (operand {x.str_short()}).")
        out.append((lim - s + st - 1) // st)
    return tuple(out)


slice_p = Primitive("slice", shape=_slice_shape, dtype=lambda x, **params: x.dtype,
                    weak_type=_operand_weak)


def slice(operand: Array, start_indices, limit_indices, strides=None) -> Array:  # noqa: A001
    """Static slice ``operand[start:limit:stride, ...]`` (one entry per dimension).

    Shape rule: ``0 <= start <= limit <= operand.shape[d]``, ``stride >= 1``; the
    result dim is ``ceil((limit - start) / stride)``. Dtype and weak type: the
    operand's. Eagerly the result is a NumPy view of the operand. All-ones
    ``strides`` are stored as ``None``.

    Raises
    ------
    TypeError
        Wrong number of entries; ValueError: bounds or strides out of range.
    """
    start = _int_tuple("slice", "start_indices", start_indices)
    limit = _int_tuple("slice", "limit_indices", limit_indices)
    if strides is not None:
        strides = _int_tuple("slice", "strides", strides)
        if all(s == 1 for s in strides) and len(strides) == len(start):
            strides = None
    return checked_bind(slice_p, operand, start_indices=start, limit_indices=limit, strides=strides)


def _from_end(index, default: int, n: int) -> int:
    """A slice bound: None -> ``default``; negative values count from the end (``n``)."""
    if index is None:
        return default
    i = operator.index(index)
    return i + n if i < 0 else i


def slice_in_dim(operand: Array, start_index, limit_index, stride: int = 1, axis: int = 0) -> Array:
    """:func:`slice` along one ``axis`` (``None`` bounds mean the whole axis)."""
    shape = core.aval_of(operand).shape
    axis = operator.index(axis) % max(len(shape), 1)
    start = [0] * len(shape)
    limit = list(shape)
    strides = [1] * len(shape)
    n = shape[axis]
    start[axis] = _from_end(start_index, 0, n)
    limit[axis] = _from_end(limit_index, n, n)
    strides[axis] = operator.index(stride)
    return slice(operand, start, limit, strides)


def index_in_dim(operand: Array, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """Element ``index`` (static, negative counts from the end) along ``axis``."""
    shape = core.aval_of(operand).shape
    axis = operator.index(axis) % max(len(shape), 1)
    index = operator.index(index)
    if not -shape[axis] <= index < shape[axis]:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {shape[axis]}")
    index %= shape[axis]
    out = slice_in_dim(operand, index, index + 1, 1, axis)
    if keepdims:
        return out
    return squeeze(out, (axis,))


# --------------------------------------------------------------------------- dynamic_slice


def _check_start_scalars(name, operand: ShapedArray, starts):
    if len(starts) != operand.ndim:
        raise TypeError(
            f"xnp.lax.{name}: needs one start index per operand dimension, got {len(starts)} "
            f"for operand {operand.str_short()}.")
    for s in starts:
        if s.ndim != 0:
            raise TypeError(f"xnp.lax.{name}: start indices must be scalars, got {s.str_short()}.")
        kit.check_dtype(name, s, kit.INTEGER, "start index")


def _dynamic_slice_shape(x: ShapedArray, *starts, slice_sizes):
    name = "dynamic_slice"
    _check_start_scalars(name, x, starts)
    if len(slice_sizes) != x.ndim:
        raise TypeError(f"xnp.lax.{name}: slice_sizes={slice_sizes} needs one entry per dimension "
                        f"of operand {x.str_short()}.")
    for d, (size, n) in enumerate(zip(slice_sizes, x.shape)):
        if not 0 <= size <= n:
            raise ValueError(f"xnp.lax.{name}: slice_sizes[{d}]={size} must be in [0, {n}] for "
                             f"operand {x.str_short()}.")
    return tuple(slice_sizes)


dynamic_slice_p = Primitive("dynamic_slice", shape=_dynamic_slice_shape,
                            dtype=lambda x, *starts, **params: x.dtype, weak_type=_operand_weak)


def _start_values(name: str, start_indices) -> list:
    """Start indices as xnp scalars; Python ints take the dtype of the traced ones."""
    if type(start_indices) is Array or isinstance(start_indices, core.Tracer):
        aval = core.aval_of(start_indices)
        if aval.ndim != 1:
            raise TypeError(f"xnp.lax.{name}: start_indices must be a sequence of scalars or a "
                            f"1-D array, got {aval.str_short()}.")
        return [squeeze(slice(start_indices, (k,), (k + 1,)), (0,)) for k in range(aval.shape[0])]
    starts = list(start_indices)
    dtypes = [core.aval_of(s).dtype for s in starts if not core.is_python_scalar(s)]
    dt = dtypes[0] if dtypes else np.dtype(np.int64)
    out = []
    for s in starts:
        if core.is_python_scalar(s):
            if type(s) is not int:
                raise TypeError(f"xnp.lax.{name}: start indices must be integers, got {s!r}.")
            s = core.lift(np.asarray(s, dt))
        elif isinstance(s, (np.ndarray, np.generic)):
            s = core.lift(np.asarray(s))
        out.append(s)
    return out


def dynamic_slice(operand: Array, start_indices, slice_sizes) -> Array:
    """Slice of static size ``slice_sizes`` at traced ``start_indices`` (one per dimension).

    ``start_indices`` is a sequence of integer scalars (Python ints or 0-d
    arrays of any integer dtype) or a 1-D integer array. Each start is clamped
    into ``[0, operand.shape[d] - slice_sizes[d]]`` (XLA semantics: never out
    of bounds, never an error at run time). Shape: ``slice_sizes``. Dtype and
    weak type: the operand's. Eagerly a NumPy view.

    Raises
    ------
    TypeError
        Wrong number of start indices, non-scalar or non-integer starts.
    ValueError
        A slice size is negative or larger than the operand dim.
    """
    starts = _start_values("dynamic_slice", start_indices)
    sizes = _int_tuple("dynamic_slice", "slice_sizes", slice_sizes)
    return checked_bind(dynamic_slice_p, operand, *starts, slice_sizes=sizes)


def dynamic_slice_in_dim(operand: Array, start_index, slice_size: int, axis: int = 0) -> Array:
    """:func:`dynamic_slice` along one ``axis`` (the other dims are taken whole)."""
    shape = core.aval_of(operand).shape
    axis = operator.index(axis) % max(len(shape), 1)
    starts = [0] * len(shape)
    starts[axis] = start_index
    sizes = list(shape)
    sizes[axis] = operator.index(slice_size)
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand: Array, index, axis: int = 0, keepdims: bool = True) -> Array:
    """Element ``index`` (traced, clamped) along ``axis``; ``keepdims`` keeps a size-1 dim."""
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    if keepdims:
        return out
    axis = operator.index(axis) % max(core.aval_of(operand).ndim, 1)
    return squeeze(out, (axis,))


# --------------------------------------------------------------------------- dynamic_update_slice


def _dynamic_update_slice_shape(x: ShapedArray, update: ShapedArray, *starts):
    name = "dynamic_update_slice"
    _check_start_scalars(name, x, starts)
    if update.ndim != x.ndim or any(u > n for u, n in zip(update.shape, x.shape)):
        raise TypeError(
            f"xnp.lax.{name}: update {update.str_short()} must have the operand's rank and fit "
            f"inside operand {x.str_short()}.")
    return x.shape


def _dynamic_update_slice_dtype(x, update, *starts):
    return kit.same_dtype("dynamic_update_slice", x, update)


dynamic_update_slice_p = Primitive(
    "dynamic_update_slice", shape=_dynamic_update_slice_shape, dtype=_dynamic_update_slice_dtype,
    weak_type=_operand_and_update_weak)


def dynamic_update_slice(operand: Array, update: Array, start_indices) -> Array:
    """``operand`` with the block ``update`` written at ``start_indices`` (functional).

    Starts as in :func:`dynamic_slice`, clamped into
    ``[0, operand.shape[d] - update.shape[d]]`` so the whole update always lands
    inside the operand. ``update`` has the operand's dtype and rank and fits
    inside it. Shape and dtype: the operand's. Eagerly a new array.

    Raises
    ------
    TypeError
        Wrong number of starts, rank or size mismatch, different dtypes.
    """
    starts = _start_values("dynamic_update_slice", start_indices)
    return checked_bind(dynamic_update_slice_p, operand, update, *starts)


def dynamic_update_slice_in_dim(operand: Array, update: Array, start_index, axis: int) -> Array:
    """:func:`dynamic_update_slice` at ``start_index`` along ``axis`` (0 elsewhere)."""
    ndim = core.aval_of(operand).ndim
    axis = operator.index(axis) % max(ndim, 1)
    starts = [0] * ndim
    starts[axis] = start_index
    return dynamic_update_slice(operand, update, starts)


# --------------------------------------------------------------------------- gather


def _gather_shape(operand: ShapedArray, indices: ShapedArray, *, dimension_numbers, slice_sizes,
                  indices_are_sorted, unique_indices, mode, fill_value):
    name = "gather"
    dn = dimension_numbers
    ctx = _Ctx(dn, operand=operand, indices=indices)
    _check_indices(name, indices, ctx)
    batch_shape = indices.shape[:-1]
    out_rank = len(batch_shape) + len(dn.offset_dims)
    _check_sorted_unique(name, "offset_dims", dn.offset_dims, out_rank, ctx)
    _check_sorted_unique(name, "collapsed_slice_dims", dn.collapsed_slice_dims, operand.ndim, ctx)
    _check_batching(name, operand, indices, dn.operand_batching_dims,
                    dn.start_indices_batching_dims, "operand_batching_dims",
                    "start_indices_batching_dims", ctx)
    if set(dn.collapsed_slice_dims) & set(dn.operand_batching_dims):
        raise ValueError(f"xnp.lax.{name}: `collapsed_slice_dims` and `operand_batching_dims` "
                         f"overlap; {ctx}.")
    _check_index_map(name, "start_index_map", dn.start_index_map, operand, indices,
                     dn.operand_batching_dims, ctx)
    if len(slice_sizes) != operand.ndim:
        raise ValueError(f"xnp.lax.{name}: slice_sizes={slice_sizes} needs one entry per operand "
                         f"dimension; {ctx}.")
    for d, (size, n) in enumerate(zip(slice_sizes, operand.shape)):
        if not 0 <= size <= n:
            raise ValueError(f"xnp.lax.{name}: slice_sizes[{d}]={size} must be in [0, {n}]; {ctx}.")
    for d in dn.collapsed_slice_dims + dn.operand_batching_dims:
        if slice_sizes[d] != 1:
            raise ValueError(f"xnp.lax.{name}: collapsed and batching dims need slice size 1, but "
                             f"slice_sizes[{d}]={slice_sizes[d]}; {ctx}.")
    skipped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window = [slice_sizes[d] for d in range(operand.ndim) if d not in skipped]
    if len(window) != len(dn.offset_dims):
        raise ValueError(
            f"xnp.lax.{name}: {len(dn.offset_dims)} offset_dims for {len(window)} window "
            f"(non-collapsed, non-batching) operand dims; {ctx}.")
    out = [0] * out_rank
    for pos, size in zip(dn.offset_dims, window):
        out[pos] = size
    batch_pos = [i for i in range(out_rank) if i not in dn.offset_dims]
    for pos, size in zip(batch_pos, batch_shape):
        out[pos] = size
    return tuple(out)


gather_p = Primitive("gather", shape=_gather_shape,
                     dtype=lambda operand, indices, **params: operand.dtype,
                     weak_type=_operand_weak)


def _canonical_dnums(cls, dimension_numbers, name):
    if not isinstance(dimension_numbers, cls):
        raise TypeError(f"xnp.lax.{name}: `dimension_numbers` must be a {cls.__name__}, got "
                        f"{dimension_numbers!r}")
    return cls(*(_int_tuple(name, f, v) for f, v in zip(cls._fields, dimension_numbers)))


def _static_fill(name, fill_value):
    if fill_value is None or core.is_python_scalar(fill_value):
        return fill_value
    if isinstance(fill_value, (np.generic, np.ndarray)) and np.ndim(fill_value) == 0:
        return np.asarray(fill_value).item()
    raise TypeError(f"xnp.lax.{name}: `fill_value` must be a static scalar (Python or NumPy), "
                    f"got {type(fill_value).__name__}")


def gather(operand: Array, start_indices: Array, dimension_numbers: GatherDimensionNumbers,
           slice_sizes, *, indices_are_sorted: bool = False, unique_indices: bool = False,
           mode=None, fill_value=None) -> Array:
    """Gather windows of ``slice_sizes`` from ``operand`` at ``start_indices`` (StableHLO gather).

    ``start_indices`` has any integer dtype and rank >= 1; its last dim is the
    index vector (``len(start_index_map)`` entries), the others are batch dims.
    Output shape: the batch dims at the positions not in ``offset_dims`` and
    the window sizes (``slice_sizes`` without collapsed and batching dims) at
    ``offset_dims``. ``mode`` (:class:`GatherScatterMode` or string; default
    ``FILL_OR_DROP``) says what out-of-bounds windows give: clamped windows
    (``"clip"``), ``fill_value`` (``"fill"``; default NaN / int min / uint max /
    True), or whatever XLA does (``"promise_in_bounds"``: clamped).
    ``indices_are_sorted``/``unique_indices`` are hints passed on to XLA.

    Raises
    ------
    TypeError
        Non-integer or rank-0 indices, bad ``dimension_numbers`` type.
    ValueError
        Dimension numbers inconsistent with the shapes (the message shows them).
    """
    dn = _canonical_dnums(GatherDimensionNumbers, dimension_numbers, "gather")
    sizes = _int_tuple("gather", "slice_sizes", slice_sizes)
    return checked_bind(gather_p, operand, start_indices, dimension_numbers=dn, slice_sizes=sizes,
                         indices_are_sorted=bool(indices_are_sorted),
                         unique_indices=bool(unique_indices),
                         mode=GatherScatterMode.from_any(mode),
                         fill_value=_static_fill("gather", fill_value))


# --------------------------------------------------------------------------- scatter


def _scatter_shape_rule(name):
    def rule(operand: ShapedArray, indices: ShapedArray, updates: ShapedArray, *,
             dimension_numbers, indices_are_sorted, unique_indices, mode):
        dn = dimension_numbers
        ctx = _Ctx(dn, operand=operand, indices=indices, updates=updates)
        _check_indices(name, indices, ctx)
        _check_sorted_unique(name, "update_window_dims", dn.update_window_dims, updates.ndim, ctx)
        _check_sorted_unique(name, "inserted_window_dims", dn.inserted_window_dims, operand.ndim,
                             ctx)
        _check_batching(name, operand, indices, dn.operand_batching_dims,
                        dn.scatter_indices_batching_dims, "operand_batching_dims",
                        "scatter_indices_batching_dims", ctx)
        if set(dn.inserted_window_dims) & set(dn.operand_batching_dims):
            raise ValueError(f"xnp.lax.{name}: `inserted_window_dims` and `operand_batching_dims` "
                             f"overlap; {ctx}.")
        _check_index_map(name, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims,
                         operand, indices, dn.operand_batching_dims, ctx)
        batch_shape = indices.shape[:-1]
        if updates.ndim != len(dn.update_window_dims) + len(batch_shape):
            raise ValueError(
                f"xnp.lax.{name}: updates must have rank len(update_window_dims) + indices.ndim - 1"
                f" = {len(dn.update_window_dims) + len(batch_shape)}; {ctx}.")
        skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
        window_operand_dims = [d for d in range(operand.ndim) if d not in skipped]
        if len(window_operand_dims) != len(dn.update_window_dims):
            raise ValueError(
                f"xnp.lax.{name}: {len(dn.update_window_dims)} update_window_dims for "
                f"{len(window_operand_dims)} window (non-inserted, non-batching) operand dims; "
                f"{ctx}.")
        for ud, od in zip(dn.update_window_dims, window_operand_dims):
            if updates.shape[ud] > operand.shape[od]:
                raise ValueError(
                    f"xnp.lax.{name}: update window dim {ud} (size {updates.shape[ud]}) is larger "
                    f"than operand dim {od} (size {operand.shape[od]}); {ctx}.")
        scatter_dims = [d for d in range(updates.ndim) if d not in dn.update_window_dims]
        if tuple(updates.shape[d] for d in scatter_dims) != tuple(batch_shape):
            raise ValueError(
                f"xnp.lax.{name}: the update scatter dims {tuple(scatter_dims)} must have the "
                f"indices' batch shape {tuple(batch_shape)}; {ctx}.")
        return operand.shape

    return rule


def _scatter_dtype_rule(name, accept):
    def rule(operand, indices, updates, **params):
        kit.check_dtype(name, operand, accept)
        return kit.same_dtype(name, operand, updates)

    return rule


def _scatter_primitive(name, accept):
    return Primitive(name, shape=_scatter_shape_rule(name), dtype=_scatter_dtype_rule(name, accept),
                     weak_type=_operand_and_update_weak)


scatter_p = _scatter_primitive("scatter", kit.ALL)
scatter_add_p = _scatter_primitive("scatter_add", kit.NUMERIC | kit.BOOL)
scatter_mul_p = _scatter_primitive("scatter_mul", kit.NUMERIC | kit.BOOL)
scatter_min_p = _scatter_primitive("scatter_min", kit.REAL_OR_BOOL)
scatter_max_p = _scatter_primitive("scatter_max", kit.REAL_OR_BOOL)


def _scatter_bind(prim, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted,
                  unique_indices, mode):
    dn = _canonical_dnums(ScatterDimensionNumbers, dimension_numbers, prim.name)
    return checked_bind(prim, operand, scatter_indices, updates, dimension_numbers=dn,
                     indices_are_sorted=bool(indices_are_sorted),
                     unique_indices=bool(unique_indices), mode=GatherScatterMode.from_any(mode))


def scatter(operand: Array, scatter_indices: Array, updates: Array,
            dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode=None) -> Array:
    """``operand`` with update windows written at ``scatter_indices`` (StableHLO scatter).

    Functional (the operand is not modified). ``scatter_indices``: any integer
    dtype, last dim the index vector. ``updates``: the operand's dtype; its
    dims not in ``update_window_dims`` equal the indices' batch dims. When
    several updates hit one element the last one wins eagerly; under XLA the
    order is implementation-defined (sequential, hence last, on CPU).
    ``mode``: ``"clip"`` clamps start indices, ``"drop"`` (default) and
    ``"promise_in_bounds"`` skip windows that are not entirely in bounds.

    Raises
    ------
    TypeError
        Non-integer or rank-0 indices, dtype mismatch.
    ValueError
        Dimension numbers inconsistent with the shapes (the message shows them).
    """
    return _scatter_bind(scatter_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_add(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but adds; duplicate indices accumulate (``numpy.add.at``).

    Numeric or bool dtypes (bool adds as logical or).
    """
    return _scatter_bind(scatter_add_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_mul(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but multiplies; duplicates accumulate (``numpy.multiply.at``)."""
    return _scatter_bind(scatter_mul_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_min(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but keeps the minimum (``numpy.minimum.at``; NaN propagates).

    Real or bool dtypes (no complex).
    """
    return _scatter_bind(scatter_min_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_max(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but keeps the maximum (``numpy.maximum.at``; NaN propagates)."""
    return _scatter_bind(scatter_max_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)
