"""The adjugate ``adj(x) = det(x) inv(x)`` of square matrices, also where ``x`` is singular,
with a derivative of its own: the derivative of :func:`xnp.linalg.det` is
``d det(x) = tr(adj(x) dx)``, so ``det``'s second derivatives (``hessian``, ``jacfwd`` of
``grad``) are the derivative of the adjugate, finite and exact at singular matrices too.
Also the LU pivots and permutation parity that ``det`` and ``slogdet`` read.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
from xnp.numpy_api._det_arithmetic import det_from_pivots
from xnp.tracing import core
from xnp.tracing.custom_derivatives import custom_jvp

__all__ = ["adjugate", "lu_diagonal_and_parity"]


def _cast(x, dtype):
    return x if core.aval_of(x).dtype == dtype else lax.convert_element_type(x, dtype)


def lu_diagonal_and_parity(x, lu_parts=None):
    """(diagonal of U, +-1 permutation sign as x's real dtype) of ``x``'s LU."""
    lu, pivots, _ = lax.lu(x) if lu_parts is None else lu_parts
    pa = core.aval_of(pivots)
    swaps = lax.ne(pivots, lax.iota(np.dtype(np.int32), pa.shape, pa.ndim - 1))
    count = lax.reduce_sum(lax.convert_element_type(swaps, np.int32), (pa.ndim - 1,))
    odd = lax.rem(count, M.scalar(2, np.int32))
    rdt = np.finfo(core.aval_of(x).dtype).dtype
    sign = lax.sub(M.scalar(1, rdt), lax.mul(M.scalar(2, rdt), lax.convert_element_type(odd, rdt)))
    return M.diagonal(lu), sign


def adjugate(x):
    """``adj(x) = det(x) inv(x)`` of square ``x`` (..., n, n), also where ``x`` is singular
    (:func:`_adjugate`). Its derivative (:func:`_adjugate_jvp`) is the exact one at every
    matrix, singular ones included (where ``d adj = (tr(adj dx) adj - adj dx adj) / det``
    divides by zero)."""
    # the derivative rule is attached only where a transformation can see it
    return _adjugate_differentiable(x) if isinstance(x, core.Tracer) else _adjugate(x)


def _adjugate(x):
    """The adjugate from the LU factorisation.

    With ``P x = L U``: ``adj(x) = sign(P) adj(U) L^-1 P``. Let ``W`` be the inverse of ``U``
    with its zero pivots ``k1 < ... < km`` set to 1 and ``D`` the product of the nonzero
    pivots: ``adj(U) = D W`` when there is none, else the part of ``det(U) U^-1`` through
    every zero pivot, ``D W[k1,k2] ... W[k(m-1),km] W[:, k1] W[km, :]`` (rank one).
    """
    aval = core.aval_of(x)
    dt, shape, n, nb = aval.dtype, aval.shape, aval.shape[-1], aval.ndim - 2
    vec, batch, i32 = shape[:-1], tuple(range(nb)), np.dtype(np.int32)

    def full(value, dtype, shp):
        return lax.broadcast_in_dim(M.scalar(value, dtype), shp, ())

    def along(v, dims):  # a (..., n) or (...) value broadcast to the matrix shape
        return lax.broadcast_in_dim(v, shape, dims)

    def pick(mask, m):  # per row of m: the sum of its entries where mask
        return lax.reduce_sum(lax.select(mask, m, full(0, dt, shape)), (nb + 1,))

    lu, pivots, perm = lax.lu(x)
    d, sign = lu_diagonal_and_parity(x, (lu, pivots, perm))
    zpiv = lax.eq(d, M.scalar(0, dt))
    rows = along(lax.iota(i32, (n, n), 0), (nb, nb + 1))
    cols = along(lax.iota(i32, (n, n), 1), (nb, nb + 1))
    zero_col = along(zpiv, batch + (nb + 1,))  # column j is a zero pivot
    eye = lax.convert_element_type(lax.eq(rows, cols), dt)
    u1 = lax.select(lax.and_(lax.eq(rows, cols), zero_col), full(1, dt, shape), lu)
    w = lax.triangular_solve(u1, eye, left_side=True, lower=False)
    nonzero = lax.reduce_prod(lax.select(zpiv, full(1, dt, vec), d), (nb,))
    # nxt[k]: the first zero pivot after k (n if none); chain: W[k, nxt[k]] over linked k
    later = lax.and_(zero_col, lax.gt(cols, rows))
    nxt = lax.reduce_min(lax.select(later, cols, full(n, i32, shape)), (nb + 1,))
    w_next = pick(lax.eq(cols, along(nxt, batch + (nb,))), w)
    linked = lax.and_(zpiv, lax.lt(nxt, M.scalar(n, i32)))
    chain = lax.reduce_prod(lax.select(linked, w_next, full(1, dt, vec)), (nb,))
    idx = lax.iota(i32, vec, nb)
    k1 = lax.reduce_min(lax.select(zpiv, idx, full(n, i32, vec)), (nb,))
    km = lax.reduce_max(lax.select(zpiv, idx, full(-1, i32, vec)), (nb,))
    col_k1 = pick(lax.eq(cols, along(k1, batch)), w)  # W[:, k1]
    row_km = pick(lax.eq(cols, along(km, batch)), M.mT(w))  # W[km, :]
    outer = lax.mul(along(col_k1, batch + (nb,)), along(row_km, batch + (nb + 1,)))
    singular = along(lax.reduce_or(zpiv, (nb,)), batch)
    adj_u = lax.select(singular, lax.mul(outer, along(chain, batch)), w)
    adj_u = lax.mul(adj_u, along(lax.mul(nonzero, _cast(sign, dt)), batch))
    p = M.row_permutation(perm, eye)  # P x = x[perm]
    return M.matmul(adj_u, lax.triangular_solve(lu, p, left_side=True, lower=True,
                                                unit_diagonal=True))


@custom_jvp
def _adjugate_differentiable(x):
    return _adjugate(x)


@_adjugate_differentiable.defjvp
def _adjugate_jvp(primals, tangents):
    """``d adj(x)[dx]`` from the SVD ``x = U S V^H``, exact also where ``x`` is singular.

    ``x + t dx = U (S + t G) V^H`` with ``G = U^H dx V``, so ``d adj(x)[dx] =
    det(U) det(V^H) V (d adj(S)[G]) U^H`` (``adj(U) = det(U) U^H`` for unitary ``U``), and
    for the diagonal ``S``, with ``Q[i, j]`` the product of the singular values other than
    ``s_i`` and ``s_j`` (products, never quotients: no division by a zero one):
    ``d adj(S)[G][i, j] = -Q[i, j] G[i, j]`` for ``i != j`` and ``sum_{k != i} Q[i, k]
    G[k, k]`` on the diagonal (the second-order cofactors of ``S``)."""
    (x,), (t,) = primals, tangents
    aval = core.aval_of(x)
    dt, shape, n, nb = aval.dtype, aval.shape, aval.shape[-1], aval.ndim - 2
    if n < 2:  # adj of a 1x1 matrix is [[1]] (of 0x0, empty): constant
        return _adjugate_differentiable(x), lax.broadcast_in_dim(M.scalar(0, dt), shape, ())
    u, s, vh = lax.svd(x, full_matrices=False)
    rdt = core.aval_of(s).dtype
    last = nb + 1
    eye = lax.broadcast_in_dim(lax.eq(lax.iota(np.dtype(np.int32), (n, n), 0),
                                      lax.iota(np.dtype(np.int32), (n, n), 1)),
                               shape, (nb, last))
    # T[i, m] = s_m, 1 where m == i; Q = (products of T[i, m] over m < j) * (over m > j)
    tm = lax.select(eye, lax.broadcast_in_dim(M.scalar(1, rdt), shape, ()),
                    lax.broadcast_in_dim(s, shape, tuple(range(nb)) + (last,)))
    ones = lax.broadcast_in_dim(M.scalar(1, rdt), shape[:-1] + (1,), ())
    before = lax.concatenate([ones, lax.slice_in_dim(lax.cumprod(tm, last), 0, n - 1,
                                                     axis=last)], last)
    after = lax.concatenate([lax.slice_in_dim(lax.cumprod(tm, last, reverse=True), 1, n,
                                              axis=last), ones], last)
    zero = lax.broadcast_in_dim(M.scalar(0, dt), shape, ())
    q = lax.select(eye, zero, _cast(lax.mul(before, after), dt))
    g = M.matmul(M.mH(u), M.matmul(t, M.mH(vh)))
    g_diag = lax.reduce_sum(lax.select(eye, g, zero), (last,))  # G[k, k]
    on_diag = lax.reduce_sum(lax.mul(q, lax.broadcast_in_dim(g_diag, shape, tuple(range(nb))
                                                             + (last,))), (last,))
    d_adj_s = lax.select(eye, lax.broadcast_in_dim(on_diag, shape, tuple(range(nb + 1))),
                         lax.neg(lax.mul(q, g)))
    c = lax.mul(det_from_pivots(*lu_diagonal_and_parity(u)),
                det_from_pivots(*lu_diagonal_and_parity(vh)))
    out = M.matmul(M.mH(vh), M.matmul(d_adj_s, M.mH(u)))
    return _adjugate_differentiable(x), lax.mul(out, lax.broadcast_in_dim(c, shape,
                                                                         tuple(range(nb))))
