"""Lowering rules of the slicing primitives (``xnp.lax.slicing``).

Index operands keep ``i32`` and ``i64`` (XLA's CPU and GPU gathers and scatters
run faster on 32-bit indices, which ``numpy_api`` indexing passes whenever the
positions fit); other integer dtypes are widened first (``_index_operand``), so the
bound computations compare in a signed type that holds every bound.

Out-of-bounds handling per ``GatherScatterMode``:

* gather ``CLIP`` / ``PROMISE_IN_BOUNDS``: the StableHLO gather itself clamps
  every start index into ``[0, dim - slice_size]`` (part of the op's spec), so
  no extra clamp is emitted;
* gather ``FILL_OR_DROP`` (as JAX): an in-bounds mask of each window (all index
  entries in ``[0, dim - slice_size]``) selects between the gathered window and
  the fill value;
* scatter ``CLIP``: the indices are clamped explicitly before the op;
* scatter ``FILL_OR_DROP`` / ``PROMISE_IN_BOUNDS``: XLA skips update windows
  that are not entirely in bounds, which is the documented ``drop`` behaviour.
"""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import i64_array, lowering
from xnp.lax.slicing import GatherScatterMode, gather_fill_value
from xnp.tracing.avals import ShapedArray

__all__ = []

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)
_BOOL = np.dtype(np.bool_)
_I32_MAX = np.iinfo(np.int32).max


def _dims(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


@lowering(lax.slice_p)
def _lower_slice(ctx, x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * len(start_indices)
    attrs = (f"start_indices = {i64_array(start_indices)}, limit_indices = "
             f"{i64_array(limit_indices)}, strides = {i64_array(strides)}")
    return [ctx.op("stablehlo.slice", [x], attrs=attrs)]


def _start_scalars(ctx, starts):
    """Start indices of one element type (StableHLO requires it): i64 unless they agree."""
    if len({s.aval.dtype for s in starts}) <= 1:
        return list(starts)
    return [ctx.convert(s, _I64) for s in starts]


@lowering(lax.dynamic_slice_p)
def _lower_dynamic_slice(ctx, x, *starts, slice_sizes):
    if not starts:
        return [x]
    attrs = f"slice_sizes = {i64_array(slice_sizes)}"
    return [ctx.op("stablehlo.dynamic_slice", [x, *_start_scalars(ctx, starts)], attrs=attrs)]


@lowering(lax.dynamic_update_slice_p)
def _lower_dynamic_update_slice(ctx, x, update, *starts):
    if not starts:
        return [update]
    starts = _start_scalars(ctx, starts)
    if not ctx.write_hazard:
        return [ctx.op("stablehlo.dynamic_update_slice", [x, update, *starts])]
    # (an update reading the operand's memory through a reshape: written into a buffer of
    # its own and selected into the operand, _write_hazards.py)
    aval = x.aval
    placed = ctx.op("stablehlo.dynamic_update_slice",
                    [ctx.full(0, aval.dtype, aval.shape), update, *starts])
    block = ctx.full(True, _BOOL, update.aval.shape)
    where = ctx.op("stablehlo.dynamic_update_slice",
                   [ctx.full(False, _BOOL, aval.shape), block, *starts],
                   aval.update(dtype=_BOOL))
    return [ctx.op("stablehlo.select", [where, placed, x])]


def _compare(ctx, x, y, direction):
    attrs = (f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
             "compare_type = #stablehlo<comparison_type SIGNED>")
    return ctx.op("stablehlo.compare", [x, y], x.aval.update(dtype=_BOOL), attrs)


def _index_operand(ctx, indices, operand_shape):
    """The gather/scatter index operand in the dtype the op runs on: ``i32`` or ``i64``
    kept (``i32`` only while every operand dimension's positions fit in it); a narrower
    integer becomes ``i32`` and an unsigned 32- or 64-bit one ``i64`` (as the eager
    implementations do), without changing whether an index is in bounds."""
    dt = np.dtype(indices.aval.dtype)
    if dt == _I64 or (dt == _I32 and max(operand_shape, default=0) <= _I32_MAX):
        return indices
    if dt == _U64:  # values above int64's range saturate (out of bounds) instead of wrapping
        top = ctx.broadcast_in_dim(ctx.constant(np.uint64(np.iinfo(np.int64).max)),
                                   indices.aval.shape, ())
        indices = ctx.op("stablehlo.minimum", [indices, top], indices.aval)
    fits = dt.itemsize < 4 and max(operand_shape, default=0) <= _I32_MAX
    return ctx.convert(indices, _I32 if fits else _I64)


def _bounds(ctx, idx, upper):
    """``0`` and ``upper`` (one bound per index-vector entry) broadcast to ``idx``'s shape,
    in ``idx``'s dtype (the bounds are positions of the operand, so they fit)."""
    shape, dt = idx.aval.shape, idx.aval.dtype
    lo = ctx.broadcast_in_dim(ctx.constant(np.zeros((), dt)), shape, ())
    hi = ctx.broadcast_in_dim(ctx.constant(np.asarray(upper, dt)), shape, (len(shape) - 1,))
    return lo, hi


def _in_bounds_mask(ctx, idx, upper):
    """bool[batch]: every entry of the index vector lies in ``[0, upper]``."""
    lo, hi = _bounds(ctx, idx, upper)
    ok = ctx.op("stablehlo.and", [_compare(ctx, idx, lo, "GE"), _compare(ctx, idx, hi, "LE")],
                idx.aval.update(dtype=_BOOL))
    scalar = ShapedArray((), _BOOL)
    region = ctx.region([scalar, scalar],
                        lambda b, p, q: b.op("stablehlo.and", [p, q], [scalar]))
    out = ShapedArray(idx.aval.shape[:-1], _BOOL)
    return ctx.op("stablehlo.reduce", [ok, ctx.constant(np.bool_(True))], out,
                  attrs=f"dimensions = {i64_array([idx.aval.ndim - 1])}", regions=[region])


@lowering(lax.gather_p)
def _lower_gather(ctx, operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
                  unique_indices, mode, fill_value):
    dn = dimension_numbers
    idx = _index_operand(ctx, indices, operand.aval.shape)
    ivd = idx.aval.ndim - 1
    batching = ""
    if dn.operand_batching_dims:
        batching = (f"operand_batching_dims = {_dims(dn.operand_batching_dims)}, "
                    f"start_indices_batching_dims = {_dims(dn.start_indices_batching_dims)}, ")
    attrs = (f"dimension_numbers = #stablehlo.gather<offset_dims = {_dims(dn.offset_dims)}, "
             f"collapsed_slice_dims = {_dims(dn.collapsed_slice_dims)}, {batching}"
             f"start_index_map = {_dims(dn.start_index_map)}, index_vector_dim = {ivd}>, "
             f"indices_are_sorted = {str(bool(indices_are_sorted)).lower()}, "
             f"slice_sizes = {i64_array(slice_sizes)}")
    out = ctx.op("stablehlo.gather", [operand, idx], attrs=attrs)
    if mode is not GatherScatterMode.FILL_OR_DROP or not dn.start_index_map:
        return [out]
    upper = [operand.aval.shape[d] - slice_sizes[d] for d in dn.start_index_map]
    mask = _in_bounds_mask(ctx, idx, upper)
    out_shape = ctx.avals_out[0].shape
    batch_pos = [i for i in range(len(out_shape)) if i not in dn.offset_dims]
    mask = ctx.broadcast_in_dim(mask, out_shape, batch_pos)
    fill = ctx.constant(gather_fill_value(operand.aval.dtype, fill_value))
    fill = ctx.broadcast_in_dim(fill, out_shape, ())
    return [ctx.op("stablehlo.select", [mask, out, fill])]


def _scatter_rule(combiner):
    def rule(ctx, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
             unique_indices, mode):
        dn = dimension_numbers
        idx = _index_operand(ctx, indices, operand.aval.shape)
        if mode is GatherScatterMode.CLIP and dn.scatter_dims_to_operand_dims:
            skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
            window_dims = [d for d in range(operand.aval.ndim) if d not in skipped]
            sizes = dict(zip(window_dims, (updates.aval.shape[p] for p in dn.update_window_dims)))
            upper = [operand.aval.shape[d] - sizes.get(d, 1)
                     for d in dn.scatter_dims_to_operand_dims]
            lo, hi = _bounds(ctx, idx, upper)
            idx = ctx.op("stablehlo.clamp", [lo, idx, hi], idx.aval)
        scalar = ShapedArray((), operand.aval.dtype)
        if combiner is None:
            region = ctx.region([scalar, scalar], lambda b, p, q: [q])
        else:
            name = combiner[operand.aval.dtype == _BOOL]
            region = ctx.region([scalar, scalar], lambda b, p, q: b.op(name, [p, q], [scalar]))
        batching = ""
        if dn.operand_batching_dims:
            batching = (f"input_batching_dims = {_dims(dn.operand_batching_dims)}, "
                        f"scatter_indices_batching_dims = "
                        f"{_dims(dn.scatter_indices_batching_dims)}, ")
        attrs = (f"indices_are_sorted = {str(bool(indices_are_sorted)).lower()}, "
                 f"scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = "
                 f"{_dims(dn.update_window_dims)}, inserted_window_dims = "
                 f"{_dims(dn.inserted_window_dims)}, {batching}scatter_dims_to_operand_dims = "
                 f"{_dims(dn.scatter_dims_to_operand_dims)}, index_vector_dim = "
                 f"{idx.aval.ndim - 1}>, unique_indices = {str(bool(unique_indices)).lower()}")
        if not ctx.write_hazard:
            return [ctx.op("stablehlo.scatter", [operand, idx, updates], attrs=attrs,
                           regions=[region])]
        # (updates reading the operand's memory through a reshape: scattered into a buffer
        # of their own, then combined with the operand, _write_hazards.py)
        aval = operand.aval
        placed = ctx.op("stablehlo.scatter", [ctx.full(_identity(combiner, aval.dtype),
                                                        aval.dtype, aval.shape), idx, updates],
                        attrs=attrs, regions=[region])
        if combiner is not None:
            return [ctx.op(combiner[aval.dtype == _BOOL], [operand, placed])]
        flag = ShapedArray((), _BOOL)
        where = ctx.op("stablehlo.scatter",
                       [ctx.full(False, _BOOL, aval.shape), idx,
                        ctx.full(True, _BOOL, updates.aval.shape)],
                       aval.update(dtype=_BOOL), attrs=attrs,
                       regions=[ctx.region([flag, flag], lambda b, p, q: [q])])
        return [ctx.op("stablehlo.select", [where, placed, operand])]

    return rule


def _identity(combiner, dtype):
    """The value a scatter's ``combiner`` leaves unchanged (0 for a plain scatter)."""
    if combiner is None:
        return 0
    name = combiner[0]
    if dtype == _BOOL:
        return name in ("stablehlo.multiply", "stablehlo.minimum")  # and: True, or: False
    if name == "stablehlo.add":
        return 0
    if name == "stablehlo.multiply":
        return 1
    info = np.finfo(dtype) if dtype.kind in "fc" else np.iinfo(dtype)
    big = np.inf if dtype.kind in "fc" else info.max
    small = -np.inf if dtype.kind in "fc" else info.min
    return big if name == "stablehlo.minimum" else small


# (non-bool op, bool op): StableHLO's add/multiply/max/min on i1 are or/and, spelled out here.
lowering(lax.scatter_p)(_scatter_rule(None))
lowering(lax.scatter_add_p)(_scatter_rule(("stablehlo.add", "stablehlo.or")))
lowering(lax.scatter_mul_p)(_scatter_rule(("stablehlo.multiply", "stablehlo.and")))
lowering(lax.scatter_min_p)(_scatter_rule(("stablehlo.minimum", "stablehlo.and")))
lowering(lax.scatter_max_p)(_scatter_rule(("stablehlo.maximum", "stablehlo.or")))
