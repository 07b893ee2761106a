"""xp implementations of the decompositions (``xnp.lax.decompositions``).

``numpy.linalg`` where it has the operation batched (cholesky, qr, eigh, svd, eig);
SciPy's LAPACK/BLAS wrappers per matrix otherwise (``getrf`` for lu, ``trsm`` for
triangular_solve, ``geev`` with left eigenvectors). A failure (``LinAlgError``) of one
batch element makes that element's outputs NaN, as the compiled LAPACK calls do, so
eager and ``jit`` results agree; ``xnp.linalg`` raises NumPy's errors on top.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.tracing import ShapedArray

__all__ = []


def _out_avals(prim, a, **params):
    out = prim.abstract_eval(ShapedArray(a.shape, a.dtype), **params)
    return out if isinstance(out, list) else [out]


def _per_matrix(xp, prim, fn, a, **params):
    """``fn(matrix) -> list of outputs`` over the batch dimensions of ``a``; a batch
    element whose ``fn`` raises ``LinAlgError`` gets NaN outputs."""
    avals = _out_avals(prim, a, **params)
    outs = [xp.zeros(av.shape, av.dtype) for av in avals]
    for idx in np.ndindex(a.shape[:-2]):
        try:
            res = fn(a[idx])
        except xp.linalg.LinAlgError:
            for o in outs:
                if o.dtype.kind in "fc":
                    o[idx] = np.nan
            continue
        for o, r in zip(outs, res):
            o[idx] = r
    return outs


def _batched_or_per_matrix(xp, prim, fn, a, **params):
    """``fn`` on the whole stack; if one matrix fails, per matrix with NaN for failures."""
    try:
        return fn(a)
    except xp.linalg.LinAlgError:
        return _per_matrix(xp, prim, fn, a, **params)


def _scipy_linalg(xp):
    if xp is np:
        import scipy.linalg  # noqa: PLC0415  (imported on first use: ~0.2 s)

        return scipy.linalg
    import cupyx.scipy.linalg  # noqa: PLC0415

    return cupyx.scipy.linalg


def _cholesky(xp, a):
    return _batched_or_per_matrix(xp, lax.cholesky_p, lambda x: [xp.linalg.cholesky(x)], a)[0]


def _triangular_solve(xp, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    if b.size == 0:
        return xp.zeros(b.shape, b.dtype)
    sla = _scipy_linalg(xp)
    (trsm,) = sla.get_blas_funcs(("trsm",), (a, b))
    trans = (2 if conjugate_a else 1) if transpose_a else 0
    conj_only = conjugate_a and not transpose_a  # conj(a) x = b  <=>  a conj(x) = conj(b)
    out = xp.empty(b.shape, b.dtype)
    for idx in np.ndindex(a.shape[:-2]):
        rhs = xp.conj(b[idx]) if conj_only else b[idx]
        x = trsm(1.0, a[idx], rhs, side=0 if left_side else 1, lower=int(lower),
                 trans_a=trans, diag=int(unit_diagonal))
        out[idx] = xp.conj(x) if conj_only else x
    return out


def _pivots_to_permutation(xp, pivots, m):
    perm = xp.broadcast_to(xp.arange(m, dtype=np.int32), pivots.shape[:-1] + (m,)).copy()
    for idx in np.ndindex(pivots.shape[:-1]):
        p = perm[idx]
        for i, j in enumerate(pivots[idx].tolist()):
            p[i], p[j] = p[j], p[i]
    return perm


def _lu(xp, a):
    *batch, m, n = a.shape
    k = min(m, n)
    lu = a.copy()
    pivots = xp.zeros(tuple(batch) + (k,), np.int32)
    if k:
        (getrf,) = _scipy_linalg(xp).get_lapack_funcs(("getrf",), (a,))
        for idx in np.ndindex(tuple(batch)):
            lu[idx], pivots[idx], _ = getrf(a[idx])  # a singular matrix (info > 0) is no error
    return [lu, pivots, _pivots_to_permutation(xp, pivots, m)]


def _qr(xp, a, *, full_matrices):
    q, r = xp.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    return [q, r]


def _eigh(xp, a, *, lower, sort_eigenvalues):
    def fn(x):
        w, v = xp.linalg.eigh(x, UPLO="L" if lower else "U")
        return [v, w]

    return _batched_or_per_matrix(xp, lax.eigh_p, fn, a, lower=lower,
                                  sort_eigenvalues=sort_eigenvalues)


def finite_or_nan(xp, a):
    """``a`` with each non-finite entry NaN (``a`` itself when all are finite): LAPACK's
    gesdd does not return on some matrices with an infinite entry (float32, with vectors);
    with NaN it reports non-convergence."""
    finite = xp.isfinite(a)
    if finite.all():
        return a
    return xp.where(finite, a, xp.asarray(complex(np.nan, np.nan) if a.dtype.kind == "c"
                                          else np.nan, a.dtype))


def _svd(xp, a, *, full_matrices, compute_uv):
    a = finite_or_nan(xp, a)

    def fn(x):
        if not compute_uv:
            return [xp.linalg.svd(x, compute_uv=False)]
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        return [s, u, vh]

    return _batched_or_per_matrix(xp, lax.svd_p, fn, a, full_matrices=full_matrices,
                                  compute_uv=compute_uv)


def _eig(xp, a, *, compute_left_eigenvectors, compute_right_eigenvectors):
    params = dict(compute_left_eigenvectors=compute_left_eigenvectors,
                  compute_right_eigenvectors=compute_right_eigenvectors)
    cdt = _out_avals(lax.eig_p, a, **params)[0].dtype

    def fn(x):
        if compute_left_eigenvectors:
            sla = _scipy_linalg(xp)
            res = sla.eig(x, left=True, right=compute_right_eigenvectors, check_finite=False)
            w, vl, *vr = res
            outs = [w, vl] + vr
        elif compute_right_eigenvectors:
            outs = list(xp.linalg.eig(x))
        else:
            outs = [xp.linalg.eigvals(x)]
        return [o.astype(cdt, copy=False) for o in outs]

    if compute_left_eigenvectors:  # SciPy's eig takes one matrix at a time
        return _per_matrix(xp, lax.eig_p, fn, a, **params)
    return _batched_or_per_matrix(xp, lax.eig_p, fn, a, **params)


XP_IMPLS[lax.cholesky_p] = _cholesky
XP_IMPLS[lax.triangular_solve_p] = _triangular_solve
XP_IMPLS[lax.lu_p] = _lu
XP_IMPLS[lax.qr_p] = _qr
XP_IMPLS[lax.eigh_p] = _eigh
XP_IMPLS[lax.svd_p] = _svd
XP_IMPLS[lax.eig_p] = _eig
