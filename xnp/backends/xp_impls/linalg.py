"""xp implementations of the linear-algebra primitives (``xnp.lax.linalg``).

``dot_general``: ``dot`` where NumPy's dot has the same meaning; otherwise,
without batch dimensions it is ``tensordot`` (whose output
order, lhs free dims then rhs free dims, is XLA's); with batch dimensions the
operands are transposed to ``(batch, free, contracting)`` /
``(batch, contracting, free)``, flattened to 3-D and multiplied with ``matmul``.
Operands are cast to ``preferred_element_type`` first, so it is the accumulator.
"""

import math

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS

__all__ = []


def _dot_general(xp, lhs, rhs, *, dimension_numbers, preferred_element_type, precision=None):
    (lc, rc), (lb, rb) = dimension_numbers
    if lhs.dtype != preferred_element_type:
        lhs = lhs.astype(preferred_element_type)
        rhs = rhs.astype(preferred_element_type)
    if not lc:
        # no contraction: the exact products, as numpy.outer computes them (BLAS adds each
        # product to a +0 accumulator, which turns -0.0 into +0.0)
        lfree = [i for i in range(lhs.ndim) if i not in lb]
        rfree = [i for i in range(rhs.ndim) if i not in rb]
        lt = xp.transpose(lhs, list(lb) + lfree)
        rt = xp.transpose(rhs, list(rb) + rfree)
        lt = lt.reshape(lt.shape + (1,) * len(rfree))
        rt = rt.reshape(rt.shape[:len(rb)] + (1,) * len(lfree) + rt.shape[len(rb):])
        return xp.multiply(lt, rt).astype(preferred_element_type, copy=False)
    if not lb and lc == (lhs.ndim - 1,) and rc == (0,) and rhs.ndim <= 2:
        # numpy.dot's own case (N-D . 1-D or N-D . 2-D): BLAS without tensordot's overhead
        return xp.dot(lhs, rhs).astype(preferred_element_type, copy=False)
    if not lb:
        out = xp.tensordot(lhs, rhs, axes=(list(lc), list(rc)))
        # (ml_dtypes' bfloat16 matmul returns float32: cast back)
        return out.astype(preferred_element_type, copy=False)
    lfree = [i for i in range(lhs.ndim) if i not in lc and i not in lb]
    rfree = [i for i in range(rhs.ndim) if i not in rc and i not in rb]
    batch_shape = [lhs.shape[i] for i in lb]
    lfree_shape = [lhs.shape[i] for i in lfree]
    rfree_shape = [rhs.shape[i] for i in rfree]
    k = math.prod(lhs.shape[i] for i in lc)
    b = math.prod(batch_shape)
    m = math.prod(lfree_shape)
    n = math.prod(rfree_shape)
    lt = xp.transpose(lhs, list(lb) + lfree + list(lc)).reshape(b, m, k)
    rt = xp.transpose(rhs, list(rb) + list(rc) + rfree).reshape(b, k, n)
    out = xp.matmul(lt, rt)
    out = out.reshape(batch_shape + lfree_shape + rfree_shape)
    return out.astype(preferred_element_type, copy=False)


XP_IMPLS[lax.dot_general_p] = _dot_general
