"""Small matrix helpers on stacks of matrices (batch dimensions leading), written with
lax functions so they trace under every transformation: used by the decomposition
rules (:mod:`xnp.lax.decompositions`) and by ``xnp.linalg``."""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import elementwise as ew
from xnp.lax import products, shape_ops, slicing
from xnp.tracing import core

__all__ = ["mT", "mH", "matmul", "tril", "triu", "eye", "diagonal", "scalar", "batch_ndim",
           "row_permutation", "select_mask", "conj_if_complex"]


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


def tril(x, k: int = 0):
    """Zero above the ``k``-th diagonal of the last two axes."""
    return select_mask(_tri_mask(core.aval_of(x).shape, k, True), x)


def triu(x, k: int = 0):
    """Zero below the ``k``-th diagonal of the last two axes."""
    return select_mask(_tri_mask(core.aval_of(x).shape, k, False), x)


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
    block = slicing.slice(x, (0,) * nb + (min(r0, m), min(c0, n)),
                          tuple(batch) + (min(r0, m) + k, min(c0, n) + k))
    flat = shape_ops.reshape(block, tuple(batch) + (k * k,))
    return slicing.slice(flat, (0,) * (nb + 1), tuple(batch) + (k * k,), (1,) * nb + (k + 1,))


def row_permutation(permutation, x):
    """``x[..., permutation, :]`` for an int ``permutation`` of shape ``(..., m)``, as a
    product with a one-hot permutation matrix (differentiable in ``x``)."""
    pa = core.aval_of(permutation)
    m = pa.shape[-1]
    nb = pa.ndim - 1
    cols = shape_ops.iota(pa.dtype, (1,) * nb + (m, m), nb + 1)
    perm = shape_ops.expand_dims(permutation, (nb + 1,))
    onehot = ew.convert_element_type(ew.eq(perm, cols), core.aval_of(x).dtype)
    return matmul(onehot, x)
