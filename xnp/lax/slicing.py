"""Slicing primitives: static ``slice``, ``dynamic_slice``, ``dynamic_update_slice``,
and JAX's dimension-number structures shared with ``gather`` and the scatter family
(:mod:`xnp.lax.gather_scatter`).

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

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import _strides as view_rules
from xnp.lax.gather_scatter import (  # noqa: F401  (the dimension numbers, re-exported here)
    GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers, _int_tuple,
    _operand_and_update_weak, _operand_weak, _zeros,
    gather_fill_value, gather_p, scatter_p,
)
from xnp.lax.reductions import checked_bind
from xnp.lax.padding import concatenate, pad
from xnp.lax.shape_ops import broadcast_in_dim, squeeze
from xnp.lax import shape_ops
from xnp.tracing import Array, Primitive, ShapedArray, core, errors
from xnp.tracing.batching import moveaxis

__all__ = [
    "slice", "dynamic_slice", "dynamic_update_slice", "slice_in_dim", "index_in_dim",
    "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice_in_dim",
    "GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode",
    "slice_p", "dynamic_slice_p", "dynamic_update_slice_p",
]

_builtin_slice = slice


# --------------------------------------------------------------------------- slice


def _slice_shape(x: ShapedArray, *, start_indices, limit_indices, strides):
    name = "slice"
    n = x.ndim
    if len(start_indices) != n or len(limit_indices) != n or (
            strides is not None and len(strides) != n):
        raise TypeError(
            f"xnp.lax.{name}: start_indices={start_indices}, limit_indices={limit_indices} and "
            f"strides={strides} need one entry per dimension of operand {errors.aval_str(x)}.")
    out = []
    for d in range(n):
        s, lim = start_indices[d], limit_indices[d]
        st = 1 if strides is None else strides[d]
        if st < 1:
            raise ValueError(f"xnp.lax.{name}: strides must be >= 1, got strides={strides}.")
        if not 0 <= s <= lim <= x.shape[d]:
            raise ValueError(
                f"xnp.lax.{name}: dimension {d} needs 0 <= start <= limit <= {x.shape[d]}, got "
                f"start={s}, limit={lim} (operand {errors.aval_str(x)}).")
        out.append((lim - s + st - 1) // st)
    return tuple(out)




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


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    # pad the cotangent back with zeros; strides become interior padding
    shape = R.aval(x).shape
    out_shape = core.aval_of(ct).shape
    config = []
    for d, (n, s, m) in enumerate(zip(shape, start_indices, out_shape)):
        st = 1 if strides is None else strides[d]
        last = s + (m - 1) * st + 1 if m else s  # one past the last element taken
        config.append((s, n - last, st - 1))
    dt = core.aval_of(ct).dtype
    return [pad(ct, np.zeros((), dt), tuple(config))]


def _slice_batch(vals, dims, *, start_indices, limit_indices, strides):
    (x,), (d,) = vals, dims
    size = core.aval_of(x).shape[d]
    start = start_indices[:d] + (0,) + start_indices[d:]
    limit = limit_indices[:d] + (size,) + limit_indices[d:]
    st = None if strides is None else strides[:d] + (1,) + strides[d:]
    return slice_p.bind(x, start_indices=start, limit_indices=limit, strides=st), d


slice_p = kit.primitive("slice", view=view_rules.sliced, linear=True, shape=_slice_shape,
                        dtype=lambda x, **params: x.dtype, weak_type=_operand_weak,
                        jvp=R.linear_unary_jvp, transpose=R.zero_ct_passthrough(_slice_transpose),
                        batch=_slice_batch)


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
            f"for operand {errors.aval_str(operand)}.")
    for s in starts:
        if s.ndim != 0:
            raise TypeError(
                f"xnp.lax.{name}: start indices must be scalars, got {errors.aval_str(s)}.")
        kit.check_dtype(name, s, kit.INTEGER, "start index")


def _dynamic_slice_shape(x: ShapedArray, *starts, slice_sizes):
    name = "dynamic_slice"
    _check_start_scalars(name, x, starts)
    if len(slice_sizes) != x.ndim:
        raise TypeError(f"xnp.lax.{name}: slice_sizes={slice_sizes} needs one entry per dimension "
                        f"of operand {errors.aval_str(x)}.")
    for d, (size, n) in enumerate(zip(slice_sizes, x.shape)):
        if not 0 <= size <= n:
            raise ValueError(f"xnp.lax.{name}: slice_sizes[{d}]={size} must be in [0, {n}] for "
                             f"operand {errors.aval_str(x)}.")
    return tuple(slice_sizes)




def _dynamic_slice_transpose(ct, x, *starts, slice_sizes):
    a = R.aval(x)
    ct_x = dynamic_update_slice_p.bind(_zeros(a.shape, core.aval_of(ct).dtype), ct, *starts)
    return [ct_x] + [None] * len(starts)


def _stacked_starts(starts, sdims, size):
    """Batched scalar start indices as one ``(size, len(starts))`` index array (a common
    integer dtype; unbatched starts are broadcast)."""
    from xnp.lax.elementwise import convert_element_type  # noqa: PLC0415

    dts = {core.aval_of(s).dtype for s in starts}
    dt = dts.pop() if len(dts) == 1 else np.dtype(np.int64)
    cols = []
    for s, d in zip(starts, sdims):
        if core.aval_of(s).dtype != dt:
            s = convert_element_type(s, dt)
        s = broadcast_in_dim(s, (size, 1), () if d is None else (0,))
        cols.append(s)
    return concatenate(cols, 1)


def _dynamic_slice_batch(vals, dims, *, slice_sizes):
    x, starts = vals[0], vals[1:]
    dx, sdims = dims[0], dims[1:]
    size = R.batch_size(vals, dims)
    if all(d is None for d in sdims):
        # only the operand is batched: take the whole batch axis, starting at 0
        dt = core.aval_of(starts[0]).dtype if starts else np.dtype(np.int64)
        starts = list(starts[:dx]) + [np.zeros((), dt)] + list(starts[dx:])
        sizes = slice_sizes[:dx] + (size,) + slice_sizes[dx:]
        return dynamic_slice_p.bind(x, *starts, slice_sizes=sizes), dx
    # batched starts: a clamping gather (CLIP clamps whole windows in bounds, as here)
    n = len(slice_sizes)
    idx = _stacked_starts(starts, sdims, size)
    window = tuple(range(1, n + 1))
    if dx is None:
        dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(),
                                    start_index_map=tuple(range(n)))
        sizes = slice_sizes
    else:
        x = moveaxis(x, dx, 0)
        dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(),
                                    start_index_map=window, operand_batching_dims=(0,),
                                    start_indices_batching_dims=(0,))
        sizes = (1,) + slice_sizes
    out = gather_p.bind(x, idx, dimension_numbers=dn, slice_sizes=sizes,
                        indices_are_sorted=False, unique_indices=False,
                        mode=GatherScatterMode.CLIP, fill_value=None)
    return out, 0


dynamic_slice_p = kit.primitive("dynamic_slice", view=view_rules.same, linear=True, shape=_dynamic_slice_shape,
                            dtype=lambda x, *starts, **params: x.dtype, weak_type=_operand_weak,
                            jvp=R.linear_unary_jvp,
                            transpose=R.zero_ct_passthrough(_dynamic_slice_transpose),
                            batch=_dynamic_slice_batch)


def _start_values(name: str, start_indices) -> list:
    """Start indices as xnp scalars; Python ints take the dtype of the traced ones."""
    if type(start_indices) is Array or isinstance(start_indices, core.Tracer):
        aval = core.aval_of(start_indices)
        if aval.ndim != 1:
            raise TypeError(f"xnp.lax.{name}: start_indices must be a sequence of scalars or a "
                            f"1-D array, got {errors.aval_str(aval)}.")
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
            f"xnp.lax.{name}: update {errors.aval_str(update)} must have the operand's rank "
            f"and fit inside operand {errors.aval_str(x)}.")
    return x.shape


def _dynamic_update_slice_dtype(x, update, *starts):
    return kit.same_dtype("dynamic_update_slice", x, update)




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


def _dynamic_update_slice_jvp(primals, tangents):
    # linear jointly in (operand, update); the starts are integers (no tangent)
    x, u, *starts = primals
    tx, tu = tangents[:2]
    out = dynamic_update_slice_p.bind(x, u, *starts)
    if type(tx) is R.Zero and type(tu) is R.Zero:
        return out, R.zero_like(out)
    return out, dynamic_update_slice_p.bind(R.instantiate(tx), R.instantiate(tu), *starts)


def _dynamic_update_slice_transpose(ct, x, u, *starts):
    ushape = R.aval(u).shape
    dt = core.aval_of(ct).dtype
    ct_x = (dynamic_update_slice_p.bind(ct, _zeros(ushape, dt), *starts)
            if R.is_undefined(x) else None)
    ct_u = (dynamic_slice_p.bind(ct, *starts, slice_sizes=tuple(ushape))
            if R.is_undefined(u) else None)
    return [ct_x, ct_u] + [None] * len(starts)


def _dynamic_update_slice_batch(vals, dims):
    (x, u, *starts), (dx, du, *sdims) = vals, dims
    size = R.batch_size(vals, dims)
    x = shape_ops.bdim_to_front(x, dx, size)
    u = shape_ops.bdim_to_front(u, du, size)
    if all(d is None for d in sdims):
        dt = core.aval_of(starts[0]).dtype if starts else np.dtype(np.int64)
        return dynamic_update_slice_p.bind(x, u, np.zeros((), dt), *starts), 0
    # batched starts: a clamping scatter with the batch as paired batching dims
    n = len(starts)
    idx = _stacked_starts(starts, sdims, size)
    window = tuple(range(1, n + 1))
    dn = ScatterDimensionNumbers(update_window_dims=window, inserted_window_dims=(),
                                 scatter_dims_to_operand_dims=window, operand_batching_dims=(0,),
                                 scatter_indices_batching_dims=(0,))
    out = scatter_p.bind(x, idx, u, dimension_numbers=dn, indices_are_sorted=True,
                         unique_indices=True, mode=GatherScatterMode.CLIP)
    return out, 0


dynamic_update_slice_p = kit.primitive("dynamic_update_slice", linear=True,
                                       shape=_dynamic_update_slice_shape,
                                       dtype=_dynamic_update_slice_dtype,
                                       weak_type=_operand_and_update_weak,
                                       jvp=_dynamic_update_slice_jvp,
                                       transpose=R.zero_ct_passthrough(
                                           _dynamic_update_slice_transpose),
                                       batch=_dynamic_update_slice_batch)


def dynamic_update_slice_in_dim(operand: Array, update: Array, start_index, axis: int) -> Array:
    """:func:`dynamic_update_slice` at ``start_index`` along ``axis`` (0 elsewhere)."""
    ndim = core.aval_of(operand).ndim
    axis = operator.index(axis) % max(ndim, 1)
    starts = [0] * ndim
    starts[axis] = start_index
    return dynamic_update_slice(operand, update, starts)
