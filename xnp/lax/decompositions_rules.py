"""Differentiation rules of the decompositions (:mod:`xnp.lax.decompositions`), attached
to the primitives when that module is imported.

* ``cholesky``: ``dL = L phi(L^-1 dA L^-H)`` with ``phi`` the lower triangle with a
  halved diagonal (Murray 2016, arXiv:1602.07527); ``dA`` is the Hermitian tangent
  the primitive reads (its lower triangle mirrored).
* ``triangular_solve``: linear in ``b`` (jvp and transpose are solves with ``a``; the
  transpose flips ``transpose_a``); in ``a``: ``dX = -op(a)^-1 op(dA) X`` (left side)
  or ``-X op(dA) op(a)^-1``, ``dA`` restricted to the triangle the primitive reads.
* ``lu``: ``dL = L tril(L^-1 P dA U^-1, -1)``, ``dU = triu(L^-1 P dA U^-1) U``
  (de Hoog, Anderssen and Lukas); pivots and permutation have zero tangents.
* ``qr`` (``m >= n``, reduced or square): Townsend's formula
  (j-towns.github.io/papers/qr-derivative.pdf).
* ``eigh``: ``dw = diag(V^H dA V)``, ``dV = V (F * V^H dA V)`` with
  ``F_ij = 1 / (w_j - w_i)`` off the diagonal (degenerate eigenvalues give inf/NaN).
* ``svd``: the standard formulas (Townsend, "Differentiating the SVD"), with the
  ``m != n`` correction terms; ``full_matrices=True`` for non-square input raises
  ``NotImplementedError`` (the extra singular vectors are not unique).
* ``eig``: ``dw = diag(V^-1 dA V)``; eigenvectors (right, and left as the right ones of
  ``A^H``) by non-degenerate perturbation theory, ``dV = V (F * V^-1 dA V) + V diag(c)``,
  ``c`` keeping LAPACK's normalisation (unit norm, largest component real), as JAX's
  rule (which JAX enables with ``enable_eigvec_derivs=True``). Degenerate eigenvalues
  give inf/NaN; ties for the largest component are not differentiable.

Rules compute with lax functions only (:mod:`xnp.lax._matrix`), so they trace again
under any enclosing transformation.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _matrix as M
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import reductions, shape_ops, slicing
from xnp.lax import decompositions as D
from xnp.tracing import core
from xnp.tracing.ad import Zero

__all__ = ["lu_solve"]


def _is_zero(t) -> bool:
    return type(t) is Zero


def _dtype(x) -> np.dtype:
    return core.aval_of(x).dtype


def _hermitian_tangent(t, lower: bool):
    """The Hermitian matrix a primitive reading only the lower (upper) triangle sees:
    the triangle mirrored, the diagonal's imaginary part dropped."""
    s = M.tril(t) if lower else M.triu(t)
    strict = M.tril(t, -1) if lower else M.triu(t, 1)
    s = ew.add(s, M.mH(strict))
    return ew.div(ew.add(s, M.mH(s)), M.scalar(2, _dtype(t)))


def _eye_for(x, n=None):
    a = core.aval_of(x)
    return M.eye(a.shape[-1] if n is None else n, a.dtype, a.ndim - 2)


# --------------------------------------------------------------------------- cholesky


def _cholesky_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    L = D.cholesky_p.bind(x)
    if _is_zero(t):
        return L, R.zero_like(L)
    sigma = _hermitian_tangent(t, lower=True)
    tmp = D.triangular_solve(L, sigma, left_side=False, lower=True, transpose_a=True,
                             conjugate_a=True)  # sigma L^-H
    inner = D.triangular_solve(L, tmp, left_side=True, lower=True)  # L^-1 sigma L^-H
    half_diag = ew.mul(M.select_mask(ew.eq(_eye_for(x), M.scalar(1, _dtype(x))), inner),
                       M.scalar(0.5, _dtype(x)))
    phi = ew.add(M.tril(inner, -1), half_diag)
    return L, M.matmul(L, phi)


D.cholesky_p.jvp = _cholesky_jvp


# --------------------------------------------------------------------------- triangular_solve


def _op(g, transpose_a, conjugate_a):
    g = M.mT(g) if transpose_a else g
    return ew.conj(g) if conjugate_a else g


def _triangular_solve_jvp(primals, tangents, **params):
    (a, b), (ta, tb) = primals, tangents
    ans = D.triangular_solve_p.bind(a, b, **params)
    total = R.zero_like(ans)
    if not _is_zero(tb):
        total = R.add_tangents(total, D.triangular_solve_p.bind(a, tb, **params))
    if not _is_zero(ta):
        k = 1 if params["unit_diagonal"] else 0
        g = M.tril(ta, -k) if params["lower"] else M.triu(ta, k)
        g = ew.neg(_op(g, params["transpose_a"], params["conjugate_a"]))
        if params["left_side"]:  # op(a) X = b: dX = -op(a)^-1 op(dA) X
            dx = D.triangular_solve_p.bind(a, M.matmul(g, ans), **params)
        else:  # X op(a) = b: dX = -X op(dA) op(a)^-1
            dx = D.triangular_solve_p.bind(a, M.matmul(ans, g), **params)
        total = R.add_tangents(total, dx)
    return ans, total


def _triangular_solve_transpose(ct, a, b, **params):
    if R.is_undefined(a):
        raise NotImplementedError("xnp.lax.triangular_solve: transposed in `a`, in which it is "
                                  "not linear (internal error in xnp).")
    ct_b = D.triangular_solve_p.bind(a, ct, **dict(params, transpose_a=not params["transpose_a"]))
    return [None, ct_b]


D.triangular_solve_p.jvp = _triangular_solve_jvp
D.triangular_solve_p.transpose = R.zero_ct_passthrough(_triangular_solve_transpose)


# --------------------------------------------------------------------------- lu


def lu_solve(lu, permutation, b):
    """Solve ``a @ x = b`` from ``lu, _, permutation = lax.lu(a)`` (square ``a``);
    ``b``: ``(..., m, k)`` with ``a``'s batch dims."""
    x = M.row_permutation(permutation, b)
    x = D.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    return D.triangular_solve(lu, x, left_side=True, lower=False)


def _pad_last2(x, rows: int, cols: int):
    """Pad the last two axes at the end with ``rows`` / ``cols`` zeros."""
    nd = core.aval_of(x).ndim
    config = [(0, 0, 0)] * (nd - 2) + [(0, rows, 0), (0, cols, 0)]
    return shape_ops.pad(x, M.scalar(0, _dtype(x)), config)


def _lu_jvp(primals, tangents):
    (a,), (t,) = primals, tangents
    lu, pivots, permutation = D.lu_p.bind(a)
    zeros = [R.zero_like(pivots), R.zero_like(permutation)]
    if _is_zero(t):
        return [lu, pivots, permutation], [R.zero_like(lu)] + zeros
    aval = core.aval_of(a)
    *batch, m, n = aval.shape
    k = min(m, n)
    nd = aval.ndim
    x = M.row_permutation(permutation, t)
    lu_left = slicing.slice(lu, (0,) * nd, tuple(batch) + (m, k))
    lu_top = slicing.slice(lu, (0,) * nd, tuple(batch) + (k, n))
    l_mat = ew.add(_pad_last2(M.tril(lu_left, -1), 0, m - k), _eye_for(a, m))
    u_eye = shape_ops.pad(M.eye(n - k, aval.dtype, nd - 2), M.scalar(0, aval.dtype),
                          [(0, 0, 0)] * (nd - 2) + [(k, 0, 0), (k, 0, 0)])
    u_mat = ew.add(_pad_last2(M.triu(lu_top), n - k, 0), u_eye)
    la = D.triangular_solve(l_mat, x, left_side=True, lower=True, unit_diagonal=True)
    lau = D.triangular_solve(u_mat, la, left_side=False, lower=False)
    lu_dot = ew.add(M.matmul(l_mat, M.tril(lau, -1)), M.matmul(M.triu(lau), u_mat))
    return [lu, pivots, permutation], [lu_dot] + zeros


D.lu_p.jvp = _lu_jvp


# --------------------------------------------------------------------------- qr


def _qr_jvp(primals, tangents, *, full_matrices):
    (x,), (dx,) = primals, tangents
    *_, m, n = core.aval_of(x).shape
    q, r = D.qr_p.bind(x, full_matrices=full_matrices)
    if _is_zero(dx):
        return [q, r], [R.zero_like(q), R.zero_like(r)]
    if m < n or (full_matrices and m != n):
        raise NotImplementedError(
            f"xnp.lax.qr {R.NON_DIFFERENTIABLE} `x` for a {m}x{n} input with "
            f"full_matrices={full_matrices}: the extra columns of q (m < n: of r) are not "
            "unique, and JAX does not differentiate this case either. The derivative exists "
            "for m >= n with full_matrices=False, or square input.")
    dx_rinv = D.triangular_solve(r, dx)  # dx r^-1 (right side, upper)
    qt_dx_rinv = M.matmul(M.mH(q), dx_rinv)
    low = M.tril(qt_dx_rinv, -1)
    do = ew.sub(low, M.mH(low))  # skew-Hermitian part
    if _dtype(x) != D.real_dtype(_dtype(x)):  # complex: the imaginary diagonal
        imag_part = ew.sub(qt_dx_rinv, ew.convert_element_type(ew.real(qt_dx_rinv),
                                                               _dtype(x)))
        do = ew.add(do, ew.mul(_eye_for(qt_dx_rinv), imag_part))
    dq = ew.add(M.matmul(q, ew.sub(do, qt_dx_rinv)), dx_rinv)
    dr = M.matmul(ew.sub(qt_dx_rinv, do), r)
    return [q, r], [dq, dr]


D.qr_p.jvp = _qr_jvp


# --------------------------------------------------------------------------- eigh


def _inverse_gaps(w, dtype):
    """``F[..., i, j] = 1 / (w_j - w_i)`` off the diagonal, 0 on it (``w``: ``(..., n)``)."""
    nd = core.aval_of(w).ndim
    w = ew.convert_element_type(w, dtype)
    row = shape_ops.expand_dims(w, (nd - 1,))  # (..., 1, n)
    col = shape_ops.expand_dims(w, (nd,))  # (..., n, 1)
    eye = _eye_for(row, core.aval_of(w).shape[-1])
    gaps = ew.add(ew.sub(row, col), eye)
    return ew.sub(ew.div(M.scalar(1, dtype), gaps), eye)


def _eigh_jvp(primals, tangents, *, lower, sort_eigenvalues):
    (x,), (t,) = primals, tangents
    v, w = D.eigh_p.bind(x, lower=lower, sort_eigenvalues=sort_eigenvalues)
    if _is_zero(t):
        return [v, w], [R.zero_like(v), R.zero_like(w)]
    sigma = _hermitian_tangent(t, lower)
    vh_dx_v = M.matmul(M.matmul(M.mH(v), sigma), v)
    dv = M.matmul(v, ew.mul(_inverse_gaps(w, _dtype(x)), vh_dx_v))
    dw = M.diagonal(vh_dx_v)
    if _dtype(dw) != _dtype(w):
        dw = ew.real(dw)
    return [v, w], [dv, dw]


D.eigh_p.jvp = _eigh_jvp


# --------------------------------------------------------------------------- svd


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv):
    (a,), (da,) = primals, tangents
    *_, m, n = core.aval_of(a).shape
    if compute_uv and full_matrices and m != n:
        raise NotImplementedError(
            f"xnp.lax.svd {R.NON_DIFFERENTIABLE} `a` for u and vh with full_matrices=True "
            f"and a non-square input (got {m}x{n}): the extra singular vectors are not "
            "unique, and JAX does not differentiate this case either. Use "
            "full_matrices=False.")
    s, u, vh = D.svd_p.bind(a, full_matrices=False, compute_uv=True)
    primal_out = [s, u, vh] if compute_uv else [s]
    if _is_zero(da):
        return primal_out, [R.zero_like(o) for o in primal_out]
    dt = _dtype(a)
    ut, v = M.mH(u), M.mH(vh)
    ds_mat = M.matmul(M.matmul(ut, da), v)
    ds = M.diagonal(ds_mat)
    if _dtype(ds) != _dtype(s):
        ds = ew.real(ds)
    if not compute_uv:
        return primal_out, [ds]
    nd = core.aval_of(s).ndim
    s_row = shape_ops.expand_dims(s, (nd - 1,))  # (..., 1, k)
    s_col = M.mT(s_row)
    eye = _eye_for(s_row, core.aval_of(s).shape[-1])
    eye_r = ew.convert_element_type(eye, _dtype(s))
    s_diffs = ew.mul(ew.add(s_row, s_col), ew.sub(s_row, s_col))
    f = ew.convert_element_type(
        ew.sub(ew.div(M.scalar(1, _dtype(s)), ew.add(s_diffs, eye_r)), eye_r), dt)
    s_row_c = ew.convert_element_type(s_row, dt)
    dss = ew.mul(s_row_c, ds_mat)  # dS diag(s)
    sds = ew.mul(M.mT(s_row_c), ds_mat)  # diag(s) dS
    s_zero = ew.convert_element_type(ew.eq(s, M.scalar(0, _dtype(s))), _dtype(s))
    s_inv = ew.sub(ew.div(M.scalar(1, _dtype(s)), ew.add(s, s_zero)), s_zero)
    s_inv_mat = ew.mul(eye_r, shape_ops.expand_dims(s_inv, (nd - 1,)))
    half = M.scalar(0.5, dt)
    du_dv_diag = ew.mul(ew.mul(half, ew.sub(ds_mat, M.mH(ds_mat))),
                        ew.convert_element_type(s_inv_mat, dt))
    du = M.matmul(u, ew.add(ew.mul(f, ew.add(dss, M.mH(dss))), du_dv_diag))
    dv = M.matmul(v, ew.mul(f, ew.add(sds, M.mH(sds))))
    if m > n:
        dav = M.matmul(da, v)
        du = ew.add(du, ew.div(ew.sub(dav, M.matmul(u, M.matmul(ut, dav))), s_row_c))
    if n > m:
        dahu = M.matmul(M.mH(da), u)
        dv = ew.add(dv, ew.div(ew.sub(dahu, M.matmul(v, M.matmul(vh, dahu))), s_row_c))
    return primal_out, [ds, du, M.mH(dv)]


D.svd_p.jvp = _svd_jvp


# --------------------------------------------------------------------------- eig


def _eigenvector_jvp(w, v, da):
    """``(dw, dv)`` for ``a v = v diag(w)`` with LAPACK's gauge: each column of ``v`` of
    unit 2-norm with its largest-magnitude component real (JAX's ``_eig_vec_jvp``).

    ``P = v^-1 dA v``: ``dw = diag(P)``; ``dv = v (F * P) + v diag(c)`` with
    ``F_ij = 1 / (w_j - w_i)`` off the diagonal (non-degenerate perturbation theory) and
    ``c_j`` fixed by the two real constraints: ``Re(v_j^H dv_j) = 0`` (unit norm) and
    ``Im(dv_kj) = 0`` at ``k = argmax_i |v_ij|`` (``v_kj`` real):
    ``c_j = -Re(v_j^H u_j) - i Im(u_kj) / v_kj``."""
    va = core.aval_of(v)
    dtype, nd = va.dtype, va.ndim
    lu, _, perm = D.lu_p.bind(v)
    p = lu_solve(lu, perm, M.matmul(da, v))
    u = M.matmul(v, ew.mul(_inverse_gaps(w, dtype), p))
    rows = nd - 2
    k = reductions.argmax(ew.abs(v), rows, np.int32)
    iota = shape_ops.iota(np.dtype(np.int32), va.shape, rows)
    mask = ew.convert_element_type(ew.eq(iota, shape_ops.expand_dims(k, (rows,))), dtype)
    norm_part = ew.real(reductions.reduce_sum(ew.mul(ew.conj(v), u), (rows,)))
    phase_part = ew.div(ew.imag(reductions.reduce_sum(ew.mul(mask, u), (rows,))),
                        ew.real(reductions.reduce_sum(ew.mul(mask, v), (rows,))))
    c = ew.complex(ew.neg(norm_part), ew.neg(phase_part))
    return M.diagonal(p), ew.add(u, ew.mul(v, shape_ops.expand_dims(c, (rows,))))


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors):
    (a,), (da,) = primals, tangents
    outs = D.eig_p.bind(a, compute_left_eigenvectors=compute_left_eigenvectors,
                        compute_right_eigenvectors=True)
    w, vr = outs[0], outs[-1]
    primal_out = outs if compute_right_eigenvectors else outs[:-1]
    if _is_zero(da):
        return primal_out, [R.zero_like(o) for o in primal_out]
    da = ew.convert_element_type(da, _dtype(vr))
    if not (compute_left_eigenvectors or compute_right_eigenvectors):
        lu, _, perm = D.lu_p.bind(vr)
        return primal_out, [M.diagonal(lu_solve(lu, perm, M.matmul(da, vr)))]
    dw, dvr = _eigenvector_jvp(w, vr, da)
    tangent_out = [dw]
    if compute_left_eigenvectors:  # vl: right eigenvectors of a^H, eigenvalues conj(w)
        tangent_out.append(_eigenvector_jvp(ew.conj(w), outs[1], M.mH(da))[1])
    if compute_right_eigenvectors:
        tangent_out.append(dvr)
    return primal_out, tangent_out


D.eig_p.jvp = _eig_jvp
