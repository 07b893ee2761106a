"""xp implementations of the slicing primitives (``xnp.lax.slicing``).

``slice`` and ``dynamic_slice`` return NumPy views (basic slicing), so eager
code keeps NumPy's aliasing. ``gather`` and the scatter family are vectorized:
one coordinate array per operand dimension (start index + window offset +
batch position, broadcast to the output/updates shape) and one fancy-index
read, assignment, or unbuffered ``ufunc.at`` (duplicates accumulate).
Out-of-bounds windows follow the primitive's ``mode`` exactly as the XLA
lowering does: clamped (``CLIP``, and ``PROMISE_IN_BOUNDS`` for gather),
filled (gather ``FILL_OR_DROP``) or dropped (scatter ``FILL_OR_DROP`` and
``PROMISE_IN_BOUNDS``).
"""

import operator

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS
from xnp.lax.slicing import GatherScatterMode, gather_fill_value

_CLIP = GatherScatterMode.CLIP
_FILL = GatherScatterMode.FILL_OR_DROP


def _slice(xp, x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    return x[tuple(slice(s, e, st) for s, e, st in zip(start_indices, limit_indices, strides))]


def _clamped_starts(x_shape, starts, sizes):
    return [min(max(int(s), 0), n - k) for s, n, k in zip(starts, x_shape, sizes)]


def _dynamic_slice(xp, x, *starts, slice_sizes):
    starts = _clamped_starts(x.shape, starts, slice_sizes)
    return x[tuple(slice(s, s + k) for s, k in zip(starts, slice_sizes))]


def _dynamic_update_slice(xp, x, update, *starts):
    starts = _clamped_starts(x.shape, starts, update.shape)
    out = x.copy()
    out[tuple(slice(s, s + k) for s, k in zip(starts, update.shape))] = update
    return out


def _coords(xp, ndim, out_shape, batch_pos, starts, start_map, windows, batching):
    """Operand coordinates of every element of ``out_shape``, one array per operand dim.

    ``batch_pos``: positions of the index batch dims in ``out_shape``; ``starts``:
    int64 ``batch_shape + (K,)``; ``start_map[k]``: operand dim of entry ``k``;
    ``windows``: ``(operand_dim, out_pos)`` of window dims; ``batching``:
    ``(operand_dim, index_batch_dim)``.
    """
    rank = len(out_shape)
    bshape = [1] * rank
    for p, n in zip(batch_pos, starts.shape[:-1]):
        bshape[p] = n
    coords = [xp.zeros((1,) * rank, dtype=np.int64) for _ in range(ndim)]
    mapped = set()
    for k, d in enumerate(start_map):
        s = starts[..., k].reshape(bshape)
        coords[d] = coords[d] + s if d in mapped else s  # each dim once: no zeros + s copy
        mapped.add(d)
    for d, p in windows:
        shp = [1] * rank
        shp[p] = out_shape[p]
        coords[d] = coords[d] + xp.arange(out_shape[p], dtype=np.int64).reshape(shp)
    for d, i in batching:
        p = batch_pos[i]
        shp = [1] * rank
        shp[p] = out_shape[p]
        coords[d] = coords[d] + xp.arange(out_shape[p], dtype=np.int64).reshape(shp)
    return tuple(xp.broadcast_to(c, out_shape) for c in coords), bshape


def _bounded_starts(xp, starts, upper, mode, clip):
    """Clamp starts (``clip``) or compute the in-bounds mask of each window (else)."""
    if starts.size == 0:
        return starts, None
    upper = xp.asarray(upper, dtype=np.int64)
    lo = starts.min(axis=tuple(range(starts.ndim - 1)))
    hi = starts.max(axis=tuple(range(starts.ndim - 1)))
    if bool(xp.all(lo >= 0)) and bool(xp.all(hi <= upper)):
        return starts, None  # every window in bounds (the usual case): nothing to clamp
    clamped = xp.clip(starts, 0, xp.maximum(upper, 0))
    if clip:
        return clamped, None
    valid = xp.all((starts >= 0) & (starts <= upper), axis=-1)
    return clamped, valid


def _starts(xp, indices):
    """Index operand as int64 (NumPy's fast indexing loop takes intp indices); uint64
    values above int64's range saturate (they are out of bounds either way) instead of
    wrapping to negative positions."""
    if indices.dtype == np.uint64:
        indices = xp.minimum(indices, np.uint64(np.iinfo(np.int64).max))
    return indices.astype(np.int64, copy=False)


def _take(xp, operand, starts, dn, slice_sizes, mode):
    """The gathers of whole slices along one operand dimension ``d`` (``x[..., idx, ...]``,
    ``take_along_axis``: one start per window, ``d`` collapsed, every other dimension a
    full window or a leading batching dimension), as ``take``/``take_along_axis`` with
    clamped indices; None for any other gather (the general path below)."""
    if mode is _FILL or len(dn.start_index_map) != 1 or 0 in operand.shape:
        return None
    d = dn.start_index_map[0]
    nb = len(dn.operand_batching_dims)
    if dn.collapsed_slice_dims != (d,) or (nb and (
            d != nb or dn.operand_batching_dims != tuple(range(nb))
            or dn.start_indices_batching_dims != tuple(range(nb))
            or starts.ndim not in (nb + 1, nb + 2))):
        return None
    window = [w for w in range(operand.ndim) if w != d and w >= nb]
    if any(slice_sizes[w] != operand.shape[w] for w in window) or slice_sizes[d] != 1:
        return None
    idx = xp.clip(starts[..., 0], 0, operand.shape[d] - 1)
    if nb:  # (one index per batch element: its own axis d, then dropped)
        one = idx.ndim == nb
        idx = idx.reshape(idx.shape + (1,) * (one + len(window)))
        out = xp.take_along_axis(operand, idx, axis=d)
        if one:
            out = out.reshape(out.shape[:d] + out.shape[d + 1:])
        labels = [("b", i) for i in range(nb + 1 - one)] + [("w", j) for j in range(len(window))]
    else:
        out = xp.take(operand, idx, axis=d)
        labels = ([("w", j) for j in range(d)] + [("b", i) for i in range(idx.ndim)]
                  + [("w", j) for j in range(d, len(window))])
    rank = len(labels)
    target, b = [None] * rank, 0
    for j, p in enumerate(dn.offset_dims):
        target[p] = ("w", j)
    for p in range(rank):
        if target[p] is None:
            target[p], b = ("b", b), b + 1
    perm = [labels.index(t) for t in target]
    return out if perm == list(range(rank)) else xp.ascontiguousarray(out.transpose(perm))


def _gather(xp, operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
            unique_indices, mode, fill_value):
    dn = dimension_numbers
    starts = _starts(xp, indices)
    out = _take(xp, operand, starts, dn, slice_sizes, mode)
    if out is not None:
        return out
    batch_shape = starts.shape[:-1]
    rank = len(batch_shape) + len(dn.offset_dims)
    batch_pos = [i for i in range(rank) if i not in dn.offset_dims]
    skipped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window_dims = [d for d in range(operand.ndim) if d not in skipped]
    out_shape = [0] * rank
    for p, n in zip(batch_pos, batch_shape):
        out_shape[p] = n
    for p, d in zip(dn.offset_dims, window_dims):
        out_shape[p] = slice_sizes[d]
    upper = [operand.shape[d] - slice_sizes[d] for d in dn.start_index_map]
    starts, valid = _bounded_starts(xp, starts, upper, mode, clip=mode is not _FILL)
    coords, bshape = _coords(xp, operand.ndim, tuple(out_shape), batch_pos, starts,
                             dn.start_index_map,
                             list(zip(window_dims, dn.offset_dims)),
                             list(zip(dn.operand_batching_dims, dn.start_indices_batching_dims)))
    # a 0-d operand has no coordinates: each output element is its one value
    out = operand[coords] if coords else xp.broadcast_to(operand, tuple(out_shape)).copy()
    if valid is not None:
        fill = xp.asarray(gather_fill_value(operand.dtype, fill_value))
        out = xp.where(valid.reshape(bshape), out, fill).astype(operand.dtype, copy=False)
    return out


def _scatter(combine):
    def impl(xp, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
             unique_indices, mode):
        dn = dimension_numbers
        starts = _starts(xp, indices)
        scatter_pos = [i for i in range(updates.ndim) if i not in dn.update_window_dims]
        skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
        window_dims = [d for d in range(operand.ndim) if d not in skipped]
        window_size = dict(zip(window_dims, (updates.shape[p] for p in dn.update_window_dims)))
        upper = [operand.shape[d] - window_size.get(d, 1) for d in dn.scatter_dims_to_operand_dims]
        starts, valid = _bounded_starts(xp, starts, upper, mode, clip=mode is _CLIP)
        coords, bshape = _coords(
            xp, operand.ndim, updates.shape, scatter_pos, starts, dn.scatter_dims_to_operand_dims,
            list(zip(window_dims, dn.update_window_dims)),
            list(zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims)))
        if valid is not None and not bool(valid.all()):
            keep = xp.broadcast_to(valid.reshape(bshape), updates.shape)
            coords = tuple(c[keep] for c in coords)
            updates = updates[keep]
        out = operand.copy()
        if combine is None:
            out[coords] = updates
        else:
            getattr(xp, combine).at(out, coords, updates)
        return out

    return impl


XP_IMPLS[lax.slice_p] = _slice
# (the basic index itself: a replayed slice is NumPy's item access, no Python frame)
PARAM_KERNELS[lax.slice_p] = lambda xp, x, *, start_indices, limit_indices, strides: \
    operator.itemgetter(tuple(slice(s, e, st) for s, e, st in zip(
        start_indices, limit_indices, strides or (1,) * len(start_indices))))
XP_IMPLS[lax.dynamic_slice_p] = _dynamic_slice
XP_IMPLS[lax.dynamic_update_slice_p] = _dynamic_update_slice
XP_IMPLS[lax.gather_p] = _gather
XP_IMPLS[lax.scatter_p] = _scatter(None)
XP_IMPLS[lax.scatter_add_p] = _scatter("add")
XP_IMPLS[lax.scatter_mul_p] = _scatter("multiply")
XP_IMPLS[lax.scatter_min_p] = _scatter("minimum")
XP_IMPLS[lax.scatter_max_p] = _scatter("maximum")
