"""Small matrix helpers on stacks of matrices (batch dimensions leading), written with
lax functions so they trace under every transformation: used by the decomposition
rules (:mod:`xnp.lax.decompositions`) and by ``xnp.linalg``."""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import elementwise as ew
from xnp.lax import gather_scatter as gs
from xnp.lax import products, shape_ops, slicing
from xnp.tracing import core, recording

__all__ = ["mT", "mH", "matmul", "tril", "triu", "eye", "diagonal", "scalar", "batch_ndim",
           "row_permutation", "take_along", "put_along", "select_mask", "conj_if_complex"]


def batch_ndim(x) -> int:
    return core.aval_of(x).ndim - 2


def scalar(value, dtype):
    """A rank-0 constant of ``dtype`` on the current trace."""
    return core.lift(np.array(value, dtype))


def conj_if_complex(x):
    return ew.conj(x) if core.aval_of(x).dtype in kit.COMPLEX else x


def mT(x):
    """Swap the last two axes."""
    nd = core.aval_of(x).ndim
    return shape_ops.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def mH(x):
    """Conjugate transpose over the last two axes."""
    return conj_if_complex(mT(x))


def matmul(x, y):
    """``x @ y`` for stacks with equal leading batch dims, or a matrix/vector
    ``y`` of rank ``x.ndim - 1`` (a stack of vectors)."""
    nb = core.aval_of(x).ndim - 2
    batch = tuple(range(nb))
    return products.dot_general(x, y, (((nb + 1,), (nb,)), (batch, batch)))


def _tri_mask(shape, k: int, lower: bool):
    """bool mask of shape ``(1,)*nb + (m, n)``: ``col <= row + k`` (lower) or
    ``col >= row + k`` (upper)."""
    *batch, m, n = shape
    rows = shape_ops.iota(np.dtype(np.int32), (m, n), 0)
    cols = shape_ops.iota(np.dtype(np.int32), (m, n), 1)
    shifted = ew.add(rows, scalar(k, np.int32))
    mask = ew.le(cols, shifted) if lower else ew.ge(cols, shifted)
    return shape_ops.reshape(mask, (1,) * len(batch) + (m, n))


def select_mask(mask, x):
    """``x`` where ``mask`` else 0 (``mask`` broadcasts over size-1 dims)."""
    zero = scalar(0, core.aval_of(x).dtype)
    zeros = shape_ops.broadcast_in_dim(zero, core.aval_of(x).shape, ())
    return ew.select_n(mask, zeros, x)


def _eager_triangle(x, k: int, lower: bool):
    """``tril``/``triu`` of an eager ``x`` with the mask and the zeros as constants (NumPy's
    ``tri``; so a recorded call replays as two copies and one ``select_n``, not the nine
    calls of the iota comparisons), or None: ``x`` is traced, or the constants would be too
    large for a recorded program to keep (the iota form then)."""
    a = core.aval_of(x)
    *batch, m, n = a.shape
    if type(x) is not core.Array or not core.is_eager(core.current_trace()) or max(
            m * n, a.size * a.dtype.itemsize) > recording.MAX_CONSTANT_BYTES:
        return None
    mask = np.tri(m, n, k, dtype=bool) if lower else ~np.tri(m, n, k - 1, dtype=bool)
    if batch:
        mask = mask.reshape((1,) * len(batch) + (m, n)).copy()
    zeros = np.zeros(a.shape, a.dtype)  # (C order, as the broadcast zeros of select_mask)
    return ew.select_n(core.lift(mask), core.lift(zeros), x)


def tril(x, k: int = 0):
    """Zero above the ``k``-th diagonal of the last two axes."""
    out = _eager_triangle(x, k, True)
    return select_mask(_tri_mask(core.aval_of(x).shape, k, True), x) if out is None else out


def triu(x, k: int = 0):
    """Zero below the ``k``-th diagonal of the last two axes."""
    out = _eager_triangle(x, k, False)
    return select_mask(_tri_mask(core.aval_of(x).shape, k, False), x) if out is None else out


def eye(n: int, dtype, nbatch: int = 0, m: int | None = None):
    """The ``(n, m)`` identity, with ``nbatch`` leading size-1 dims."""
    m = n if m is None else m
    rows = shape_ops.iota(np.dtype(np.int32), (n, m), 0)
    cols = shape_ops.iota(np.dtype(np.int32), (n, m), 1)
    out = ew.convert_element_type(ew.eq(rows, cols), np.dtype(dtype))
    return shape_ops.reshape(out, (1,) * nbatch + (n, m))


def diagonal(x, offset: int = 0):
    """The ``offset``-th diagonal of the last two axes: shape ``(..., L)`` (a strided slice
    of the flattened square block that holds it, exact for every dtype)."""
    a = core.aval_of(x)
    *batch, m, n = a.shape
    r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
    k = max(0, min(m - r0, n - c0))
    nb = len(batch)
    start = (min(r0, m), min(c0, n))
    if start == (0, 0) and (k, k) == (m, n):  # the whole square matrix: no slice
        block = x
    else:
        block = slicing.slice(x, (0,) * nb + start, tuple(batch) + (start[0] + k, start[1] + k))
    flat = shape_ops.reshape(block, tuple(batch) + (k * k,))
    return slicing.slice(flat, (0,) * (nb + 1), tuple(batch) + (k * k,), (1,) * nb + (k + 1,))


def row_permutation(permutation, x):
    """``x[..., permutation, :]`` for an int ``permutation`` of shape ``(..., m)`` and ``x`` of
    shape ``(..., m, k)`` (batch dims broadcast): a gather, so it is exact for every value
    (``inf`` and NaN rows stay where the permutation puts them) and linear in ``x``."""
    pa, xa = core.aval_of(permutation), core.aval_of(x)
    batch = np.broadcast_shapes(pa.shape[:-1], xa.shape[:-2])
    return take_along(_broadcast_batch(x, batch, 2), _broadcast_batch(permutation, batch, 1),
                      len(batch))


def _broadcast_batch(x, batch: tuple, trailing: int):
    """``x`` broadcast to the leading dims ``batch``, its last ``trailing`` dims kept."""
    shape = core.aval_of(x).shape
    nb = len(shape) - trailing
    if tuple(shape[:nb]) == tuple(batch):
        return x
    dims = tuple(range(len(batch) - nb, len(batch) + trailing))
    return shape_ops.broadcast_in_dim(x, tuple(batch) + tuple(shape[nb:]), dims)


def take_along(x, idx, axis: int):
    """``x[b..., idx[b..., n], ...]``: entries along ``axis`` of ``x`` picked by the int ``idx``
    of shape ``x.shape[:axis] + (n,)`` (the dims before ``axis`` are shared batch dims);
    result shape ``x.shape[:axis] + (n,) + x.shape[axis + 1:]``. Indices must be in bounds."""
    xa = core.aval_of(x)
    out_shape = xa.shape[:axis] + core.aval_of(idx).shape[axis:] + xa.shape[axis + 1:]
    if 0 in xa.shape or 0 in out_shape:  # nothing to pick (no window of size 1 fits)
        return shape_ops.broadcast_in_dim(scalar(0, xa.dtype), out_shape, ())
    batch = tuple(range(axis))
    dn = gs.GatherDimensionNumbers(offset_dims=tuple(range(axis + 1, xa.ndim)),
                                   collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                   operand_batching_dims=batch, start_indices_batching_dims=batch)
    sizes = (1,) * (axis + 1) + xa.shape[axis + 1:]
    return gs.gather(x, shape_ops.expand_dims(idx, (axis + 1,)), dn, sizes,
                     mode="promise_in_bounds")


def put_along(x, idx, updates, axis: int):
    """``x`` with ``x[b..., idx[b..., n], ...] = updates[b..., n, ...]`` (the inverse of
    :func:`take_along`; with repeated indices one of the updates is kept)."""
    if 0 in core.aval_of(x).shape or 0 in core.aval_of(updates).shape:
        return x
    batch = tuple(range(axis))
    dn = gs.ScatterDimensionNumbers(update_window_dims=tuple(range(axis + 1, core.aval_of(x).ndim)),
                                    inserted_window_dims=(axis,), scatter_dims_to_operand_dims=(axis,),
                                    operand_batching_dims=batch, scatter_indices_batching_dims=batch)
    return gs.scatter(x, shape_ops.expand_dims(idx, (axis + 1,)), updates, dn,
                      mode="promise_in_bounds")


