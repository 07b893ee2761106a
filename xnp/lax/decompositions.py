"""Matrix decompositions (LAPACK's territory): ``cholesky``, ``triangular_solve``, ``lu``,
``qr``, ``eigh``, ``svd`` and ``eig``, with JAX's names and conventions.

Every operand is a stack of matrices: shape ``(..., m, n)`` with the batch dimensions
leading; every batch element is decomposed independently. Dtypes: float32, float64,
complex64 and complex128 (LAPACK's four); any other dtype, float16 and bfloat16
included, raises ``TypeError`` naming the primitive.

Failure: where LAPACK reports a failure for one batch element (a matrix that is not
positive definite for ``cholesky``, a non-converging ``eigh``/``svd``/``eig``), every
output of that batch element is NaN, on every backend and under ``jit`` alike (the
eager backend follows the compiled one). ``lu`` never fails: a singular matrix gives
an exactly zero pivot in ``U``. ``xnp.linalg`` turns these into NumPy's
``LinAlgError`` when it runs eagerly.

Transformation rules (jvp, transpose of ``triangular_solve`` in ``b``, batching) are in
this module, after the primitives; batching moves the batch axis to the front.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import reductions, shape_ops, slicing
from xnp.lax.padding import pad
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.ad import Zero

__all__ = ["cholesky", "triangular_solve", "lu", "qr", "eigh", "svd", "eig", "cholesky_p",
           "triangular_solve_p", "lu_p", "qr_p", "eigh_p", "svd_p", "eig_p", "LINALG_DTYPES"]

LINALG_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                                np.complex128))


def _matrix(name: str, a: ShapedArray, *, square: bool = False, what: str = "operand"):
    """``(batch shape, m, n)`` of a stack of matrices; TypeError/ValueError naming ``name``."""
    if a.ndim < 2:
        raise ValueError(f"xnp.lax.{name}: {what} must be a stack of matrices of shape "
                         f"(..., m, n), got {errors.aval_str(a)}.")
    kit.check_dtype(name, a, LINALG_DTYPES, what)
    *batch, m, n = a.shape
    if square and m != n:
        raise ValueError(f"xnp.lax.{name}: {what} must be a stack of square matrices, got "
                         f"{errors.aval_str(a)}.")
    return tuple(batch), m, n


def real_dtype(dtype) -> np.dtype:
    """float32 for float32/complex64, float64 for float64/complex128."""
    return np.dtype(np.finfo(dtype).dtype)


def complex_dtype(dtype) -> np.dtype:
    return np.result_type(dtype, np.complex64)


@R.for_primitive
def _leading_batch(prim):
    """Batching rule of a one-operand decomposition: the batch axis goes to the front
    (a new leading batch dimension); every output then has it at 0."""

    def batch(vals, dims, **params):
        (x,), (d,) = vals, dims
        outs = prim.bind(shape_ops.bdim_to_front(x, d, None), **params)
        return (outs, [0] * len(outs)) if prim.multiple_results else (outs, 0)

    return batch


# --------------------------------------------------------------------------- cholesky


def _cholesky_shape(a: ShapedArray):
    _matrix("cholesky", a, square=True)
    return a.shape


def _cholesky_dtype(a: ShapedArray):
    _matrix("cholesky", a, square=True)
    return a.dtype




def cholesky(x: Array, *, symmetrize_input: bool = True) -> Array:
    """Cholesky factor ``L`` (lower triangular, zeros above the diagonal) of each Hermitian
    positive-definite matrix in ``x`` (shape ``(..., n, n)``): ``x = L @ L^H``.

    Only the lower triangle of ``x`` is read; with ``symmetrize_input`` (the default)
    ``x`` is first replaced by ``(x + x^H) / 2``. Result: shape and dtype of ``x``.
    A matrix that is not positive definite gives an all-NaN factor (no error).

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` is not a stack of square matrices.
    """
    if symmetrize_input:
        x = symmetrize("cholesky", x)
    return cholesky_p.bind(x)


def symmetrize(name: str, x: Array) -> Array:
    """``(x + x^H) / 2`` over the last two axes (``name``: the caller, for errors)."""
    _matrix(name, core.aval_of(x), square=True)
    return ew.div(ew.add(x, M.mH(x)), M.scalar(2, core.aval_of(x).dtype))


# --------------------------------------------------------------------------- triangular_solve


def _triangular_solve_shape(a: ShapedArray, b: ShapedArray, *, left_side, lower, transpose_a,
                            conjugate_a, unit_diagonal):
    batch, m, _ = _matrix("triangular_solve", a, square=True, what="`a`")
    bbatch, bm, bn = _matrix("triangular_solve", b, what="`b`")
    if bbatch != batch:
        raise TypeError(f"xnp.lax.triangular_solve: `a` and `b` must have equal batch "
                        f"dimensions, got {errors.aval_str(a)} and {errors.aval_str(b)}.")
    k = bm if left_side else bn
    if k != m:
        side = "rows" if left_side else "columns"
        raise TypeError(f"xnp.lax.triangular_solve: `b` must have {m} {side} to match `a` "
                        f"(left_side={left_side}), got {errors.aval_str(a)} and "
                        f"{errors.aval_str(b)}.")
    return b.shape


def _triangular_solve_dtype(a: ShapedArray, b: ShapedArray, **params):
    dt = kit.same_dtype("triangular_solve", a, b)
    _matrix("triangular_solve", a, square=True, what="`a`")
    return dt




def _triangular_solve_batch(vals, dims, **params):
    size = R.batch_size(vals, dims)
    a, b = (shape_ops.bdim_to_front(v, d, size) for v, d in zip(vals, dims))
    return triangular_solve_p.bind(a, b, **params), 0




def triangular_solve(a: Array, b: Array, *, left_side: bool = False, lower: bool = False,
                     transpose_a: bool = False, conjugate_a: bool = False,
                     unit_diagonal: bool = False) -> Array:
    """Solve ``op(a) @ x = b`` (``left_side``) or ``x @ op(a) = b`` for ``x``, ``a``
    triangular.

    ``a``: shape ``(..., m, m)``; only its lower (``lower``) or upper triangle is read,
    and with ``unit_diagonal`` its diagonal is taken to be ones. ``op(a)`` is ``a``,
    transposed with ``transpose_a``, conjugated with ``conjugate_a``. ``b``: shape
    ``(..., m, n)`` (left side) or ``(..., n, m)`` with the same batch dims, or one
    dimension less (a single vector, as in JAX). Result: ``b``'s shape; equal dtypes.
    A zero on the diagonal gives inf/NaN (no error).

    Raises
    ------
    TypeError
        dtypes differ or are not float32/float64/complex64/complex128; batch dims or
        the solved dimension do not match.
    ValueError
        ``a`` is not a stack of square matrices.
    """
    a_aval, b_aval = core.aval_of(a), core.aval_of(b)
    conjugate_a = bool(conjugate_a) and a_aval.dtype in kit.COMPLEX
    singleton = b_aval.ndim == a_aval.ndim - 1
    if singleton:
        b = shape_ops.expand_dims(b, (b_aval.ndim if left_side else b_aval.ndim - 1,))
    out = triangular_solve_p.bind(a, b, left_side=bool(left_side), lower=bool(lower),
                                  transpose_a=bool(transpose_a), conjugate_a=conjugate_a,
                                  unit_diagonal=bool(unit_diagonal))
    if singleton:
        nd = core.aval_of(out).ndim
        out = shape_ops.squeeze(out, (nd - 1 if left_side else nd - 2,))
    return out


# --------------------------------------------------------------------------- lu


def _lu_shape(a: ShapedArray):
    batch, m, n = _matrix("lu", a)
    return [a.shape, batch + (min(m, n),), batch + (m,)]


def _lu_dtype(a: ShapedArray):
    _matrix("lu", a)
    return [a.dtype, np.dtype(np.int32), np.dtype(np.int32)]




def lu(x: Array):
    """LU decomposition with partial pivoting: ``(lu, pivots, permutation)``.

    ``x``: shape ``(..., m, n)``. ``lu`` (shape and dtype of ``x``) holds ``U`` on and
    above the diagonal and ``L`` (unit diagonal, not stored) below it; ``pivots``
    (int32, ``(..., min(m, n))``) are LAPACK's 0-based row interchanges (row ``i`` was
    swapped with row ``pivots[i]``); ``permutation`` (int32, ``(..., m)``) is the
    resulting row order: ``x[..., permutation, :] == L @ U``. A singular matrix is not
    an error (an exact zero on ``U``'s diagonal).

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` has rank < 2.
    """
    return tuple(lu_p.bind(x))


# --------------------------------------------------------------------------- qr


def _qr_shape(a: ShapedArray, *, full_matrices):
    batch, m, n = _matrix("qr", a)
    k = m if full_matrices else min(m, n)
    return [batch + (m, k), batch + (k, n)]


def _qr_dtype(a: ShapedArray, *, full_matrices):
    _matrix("qr", a)
    return [a.dtype, a.dtype]




def _unsupported(fname: str, arg: str, value, why: str) -> None:
    raise NotImplementedError(
        f"xnp.lax.linalg.{fname}: `{arg}={value!r}` is not supported: {why}.")


def qr(x: Array, *, pivoting: bool = False, full_matrices: bool = True, use_magma=None):
    """QR decomposition ``x = q @ r``: ``(q, r)``, ``q`` with orthonormal columns, ``r``
    upper triangular (LAPACK's geqrf sign convention, as ``numpy.linalg.qr``).

    ``x``: shape ``(..., m, n)``. With ``full_matrices``: ``q`` is ``(..., m, m)`` and
    ``r`` ``(..., m, n)``; otherwise ``k = min(m, n)`` and ``q`` is ``(..., m, k)``,
    ``r`` ``(..., k, n)``. Dtype of ``x``. ``use_magma`` (JAX's GPU solver choice) has
    no effect: LAPACK runs on the CPU.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` has rank < 2.
    NotImplementedError
        ``pivoting=True`` (column-pivoted QR has no primitive in xnp).
    """
    if pivoting:
        _unsupported("qr", "pivoting", pivoting, "column-pivoted QR (geqp3) has no primitive")
    return tuple(qr_p.bind(x, full_matrices=bool(full_matrices)))


# --------------------------------------------------------------------------- eigh


def _eigh_shape(a: ShapedArray, *, lower, sort_eigenvalues):
    batch, m, _ = _matrix("eigh", a, square=True)
    return [a.shape, batch + (m,)]


def _eigh_dtype(a: ShapedArray, *, lower, sort_eigenvalues):
    _matrix("eigh", a, square=True)
    return [a.dtype, real_dtype(a.dtype)]




def eigh(x: Array, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True, subset_by_index=None):
    """Eigendecomposition of Hermitian matrices: ``(v, w)`` with ``x @ v = v * w``.

    ``x``: shape ``(..., n, n)``; only its lower (``lower``) or upper triangle is read
    (after ``(x + x^H) / 2`` when ``symmetrize_input``). ``v``: eigenvectors as
    columns, dtype of ``x``; ``w``: real eigenvalues (float32 for float32/complex64),
    ``(..., n)``, ascending (LAPACK's order; ``sort_eigenvalues`` is accepted for
    JAX compatibility and always holds). Non-convergence gives NaN.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` is not a stack of square matrices.
    NotImplementedError
        ``subset_by_index`` is given (slice the full result instead).
    """
    if subset_by_index is not None:
        _unsupported("eigh", "subset_by_index", subset_by_index,
                     "eigh computes every eigenpair; slice v[..., lo:hi] and w[..., lo:hi]")
    if symmetrize_input:
        x = symmetrize("eigh", x)
    return tuple(eigh_p.bind(x, lower=bool(lower), sort_eigenvalues=bool(sort_eigenvalues)))


# --------------------------------------------------------------------------- svd


def _svd_shape(a: ShapedArray, *, full_matrices, compute_uv):
    batch, m, n = _matrix("svd", a)
    k = min(m, n)
    s = batch + (k,)
    if not compute_uv:
        return [s]
    if full_matrices:
        return [s, batch + (m, m), batch + (n, n)]
    return [s, batch + (m, k), batch + (k, n)]


def _svd_dtype(a: ShapedArray, *, full_matrices, compute_uv):
    _matrix("svd", a)
    s = real_dtype(a.dtype)
    return [s, a.dtype, a.dtype] if compute_uv else [s]




def svd(x: Array, *, full_matrices: bool = True, compute_uv: bool = True, subset_by_index=None,
        algorithm=None):
    """Singular value decomposition ``x = u @ diag(s) @ vh``.

    ``x``: shape ``(..., m, n)``, ``k = min(m, n)``. Returns ``(u, s, vh)`` when
    ``compute_uv`` (``u``: ``(..., m, m)`` or ``(..., m, k)`` without
    ``full_matrices``; ``vh``: ``(..., n, n)`` or ``(..., k, n)``; dtype of ``x``), else
    ``s`` alone. ``s``: real, descending, ``(..., k)``. Non-convergence gives NaN.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` has rank < 2.
    NotImplementedError
        ``subset_by_index`` or ``algorithm`` is given (one LAPACK driver, every value).
    """
    if subset_by_index is not None:
        _unsupported("svd", "subset_by_index", subset_by_index,
                     "svd computes every singular triple; slice the result instead")
    if algorithm is not None:
        _unsupported("svd", "algorithm", algorithm, "xnp has one SVD algorithm (LAPACK gesdd)")
    outs = svd_p.bind(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    if not compute_uv:
        return outs[0]
    s, u, vh = outs
    return u, s, vh


# --------------------------------------------------------------------------- eig


def _eig_shape(a: ShapedArray, *, compute_left_eigenvectors, compute_right_eigenvectors):
    batch, n, _ = _matrix("eig", a, square=True)
    n_vec = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    return [batch + (n,)] + [a.shape] * n_vec


def _eig_dtype(a: ShapedArray, *, compute_left_eigenvectors, compute_right_eigenvectors):
    _matrix("eig", a, square=True)
    n_vec = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    return [complex_dtype(a.dtype)] * (1 + n_vec)




def eig(x: Array, *, compute_left_eigenvectors: bool = True,
        compute_right_eigenvectors: bool = True, use_magma=None):
    """Eigendecomposition of general square matrices (LAPACK geev; CPU only under jit).

    ``x``: shape ``(..., n, n)``. Returns a list ``[w, vl, vr]`` without the
    eigenvector outputs not asked for: ``w`` the eigenvalues ``(..., n)``, ``vr`` the
    right eigenvectors as columns (``x @ vr = vr * w``), ``vl`` the left ones
    (``vl^H @ x = w[:, None] * vl^H``), each normalised to unit 2-norm with its largest
    component real. All complex (complex64 for float32/complex64 input); the
    eigenvalues are in LAPACK's order (not sorted). Non-convergence gives NaN.
    ``use_magma`` (JAX's GPU solver choice) has no effect: LAPACK runs on the CPU.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` is not a stack of square matrices.
    """
    return list(eig_p.bind(x, compute_left_eigenvectors=bool(compute_left_eigenvectors),
                           compute_right_eigenvectors=bool(compute_right_eigenvectors)))


# --------------------------------------------------------------------------- transformation rules
# Differentiation rules of the decompositions (:mod:`xnp.lax.decompositions`), attached
# to the primitives when that module is imported.
#
# * ``cholesky``: ``dL = L phi(L^-1 dA L^-H)`` with ``phi`` the lower triangle with a
#   halved diagonal (Murray 2016, arXiv:1602.07527); ``dA`` is the Hermitian tangent
#   the primitive reads (its lower triangle mirrored).
# * ``triangular_solve``: linear in ``b`` (jvp and transpose are solves with ``a``; the
#   transpose flips ``transpose_a``); in ``a``: ``dX = -op(a)^-1 op(dA) X`` (left side)
#   or ``-X op(dA) op(a)^-1``, ``dA`` restricted to the triangle the primitive reads.
# * ``lu``: ``dL = L tril(L^-1 P dA U^-1, -1)``, ``dU = triu(L^-1 P dA U^-1) U``
#   (de Hoog, Anderssen and Lukas); pivots and permutation have zero tangents.
# * ``qr`` (``m >= n``, reduced or square): Townsend's formula
#   (j-towns.github.io/papers/qr-derivative.pdf).
# * ``eigh``: ``dw = diag(V^H dA V)``, ``dV = V (F * V^H dA V)`` with
#   ``F_ij = 1 / (w_j - w_i)`` off the diagonal (degenerate eigenvalues give inf/NaN).
# * ``svd``: the standard formulas (Townsend, "Differentiating the SVD"), with the
#   ``m != n`` correction terms; ``full_matrices=True`` for non-square input raises
#   ``NotImplementedError`` (the extra singular vectors are not unique).
# * ``eig``: ``dw = diag(V^-1 dA V)``; eigenvectors (right, and left as the right ones of
#   ``A^H``) by non-degenerate perturbation theory, ``dV = V (F * V^-1 dA V) + V diag(c)``,
#   ``c`` keeping LAPACK's normalisation (unit norm, largest component real), as JAX's
#   rule (which JAX enables with ``enable_eigvec_derivs=True``). Degenerate eigenvalues
#   give inf/NaN; ties for the largest component are not differentiable.
#
# Rules compute with lax functions only (:mod:`xnp.lax._matrix`), so they trace again
# under any enclosing transformation.

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
    L = cholesky_p.bind(x)
    if _is_zero(t):
        return L, R.zero_like(L)
    sigma = _hermitian_tangent(t, lower=True)
    tmp = triangular_solve(L, sigma, left_side=False, lower=True, transpose_a=True,
                             conjugate_a=True)  # sigma L^-H
    inner = triangular_solve(L, tmp, left_side=True, lower=True)  # L^-1 sigma L^-H
    half_diag = ew.mul(M.select_mask(ew.eq(_eye_for(x), M.scalar(1, _dtype(x))), inner),
                       M.scalar(0.5, _dtype(x)))
    phi = ew.add(M.tril(inner, -1), half_diag)
    return L, M.matmul(L, phi)


cholesky_p = kit.primitive("cholesky", shape=_cholesky_shape, dtype=_cholesky_dtype,
                       weak_type=kit.never_weak, batch=_leading_batch, jvp=_cholesky_jvp)


# --------------------------------------------------------------------------- triangular_solve


def _op(g, transpose_a, conjugate_a):
    g = M.mT(g) if transpose_a else g
    return ew.conj(g) if conjugate_a else g


def _triangular_solve_jvp(primals, tangents, **params):
    (a, b), (ta, tb) = primals, tangents
    ans = triangular_solve_p.bind(a, b, **params)
    total = R.zero_like(ans)
    if not _is_zero(tb):
        total = R.add_tangents(total, triangular_solve_p.bind(a, tb, **params))
    if not _is_zero(ta):
        k = 1 if params["unit_diagonal"] else 0
        g = M.tril(ta, -k) if params["lower"] else M.triu(ta, k)
        g = ew.neg(_op(g, params["transpose_a"], params["conjugate_a"]))
        if params["left_side"]:  # op(a) X = b: dX = -op(a)^-1 op(dA) X
            dx = triangular_solve_p.bind(a, M.matmul(g, ans), **params)
        else:  # X op(a) = b: dX = -X op(dA) op(a)^-1
            dx = triangular_solve_p.bind(a, M.matmul(ans, g), **params)
        total = R.add_tangents(total, dx)
    return ans, total


def _triangular_solve_transpose(ct, a, b, **params):
    if R.is_undefined(a):
        raise NotImplementedError("xnp.lax.triangular_solve: transposed in `a`, in which it is "
                                  "not linear (internal error in xnp).")
    ct_b = triangular_solve_p.bind(a, ct, **dict(params, transpose_a=not params["transpose_a"]))
    return [None, ct_b]


triangular_solve_p = kit.primitive("triangular_solve", linear=True, shape=_triangular_solve_shape,
                               dtype=_triangular_solve_dtype, weak_type=kit.never_weak,
                               batch=_triangular_solve_batch,
                               jvp=_triangular_solve_jvp,
                               transpose=R.zero_ct_passthrough(_triangular_solve_transpose))


# --------------------------------------------------------------------------- lu


def lu_solve(lu, permutation, b):
    """Solve ``a @ x = b`` from ``lu, _, permutation = lax.lu(a)`` (square ``a``);
    ``b``: ``(..., m, k)`` with ``a``'s batch dims."""
    x = M.row_permutation(permutation, b)
    x = triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    return triangular_solve(lu, x, left_side=True, lower=False)


def _pad_last2(x, rows: int, cols: int):
    """Pad the last two axes at the end with ``rows`` / ``cols`` zeros."""
    nd = core.aval_of(x).ndim
    config = [(0, 0, 0)] * (nd - 2) + [(0, rows, 0), (0, cols, 0)]
    return pad(x, M.scalar(0, _dtype(x)), config)


def _lu_jvp(primals, tangents):
    (a,), (t,) = primals, tangents
    lu, pivots, permutation = lu_p.bind(a)
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
    u_eye = pad(M.eye(n - k, aval.dtype, nd - 2), M.scalar(0, aval.dtype),
                          [(0, 0, 0)] * (nd - 2) + [(k, 0, 0), (k, 0, 0)])
    u_mat = ew.add(_pad_last2(M.triu(lu_top), n - k, 0), u_eye)
    la = triangular_solve(l_mat, x, left_side=True, lower=True, unit_diagonal=True)
    lau = triangular_solve(u_mat, la, left_side=False, lower=False)
    lu_dot = ew.add(M.matmul(l_mat, M.tril(lau, -1)), M.matmul(M.triu(lau), u_mat))
    return [lu, pivots, permutation], [lu_dot] + zeros


lu_p = kit.primitive("lu", shape=_lu_shape, dtype=_lu_dtype, weak_type=kit.never_weak,
                 multiple_results=True, batch=_leading_batch, jvp=_lu_jvp)


# --------------------------------------------------------------------------- qr


def _qr_jvp(primals, tangents, *, full_matrices):
    (x,), (dx,) = primals, tangents
    *_, m, n = core.aval_of(x).shape
    q, r = qr_p.bind(x, full_matrices=full_matrices)
    if _is_zero(dx):
        return [q, r], [R.zero_like(q), R.zero_like(r)]
    if m < n or (full_matrices and m != n):
        raise NotImplementedError(
            f"xnp.lax.qr {R.NON_DIFFERENTIABLE} `x` for a {m}x{n} input with "
            f"full_matrices={full_matrices}: the extra columns of q (m < n: of r) are not "
            "unique, and JAX does not differentiate this case either. The derivative exists "
            "for m >= n with full_matrices=False, or square input.")
    dx_rinv = triangular_solve(r, dx)  # dx r^-1 (right side, upper)
    qt_dx_rinv = M.matmul(M.mH(q), dx_rinv)
    low = M.tril(qt_dx_rinv, -1)
    do = ew.sub(low, M.mH(low))  # skew-Hermitian part
    if _dtype(x) != real_dtype(_dtype(x)):  # complex: the imaginary diagonal
        imag_part = ew.sub(qt_dx_rinv, ew.convert_element_type(ew.real(qt_dx_rinv),
                                                               _dtype(x)))
        do = ew.add(do, ew.mul(_eye_for(qt_dx_rinv), imag_part))
    dq = ew.add(M.matmul(q, ew.sub(do, qt_dx_rinv)), dx_rinv)
    dr = M.matmul(ew.sub(qt_dx_rinv, do), r)
    return [q, r], [dq, dr]


qr_p = kit.primitive("qr", shape=_qr_shape, dtype=_qr_dtype, weak_type=kit.never_weak,
                 multiple_results=True, batch=_leading_batch, jvp=_qr_jvp)


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
    v, w = eigh_p.bind(x, lower=lower, sort_eigenvalues=sort_eigenvalues)
    if _is_zero(t):
        return [v, w], [R.zero_like(v), R.zero_like(w)]
    sigma = _hermitian_tangent(t, lower)
    vh_dx_v = M.matmul(M.matmul(M.mH(v), sigma), v)
    dv = M.matmul(v, ew.mul(_inverse_gaps(w, _dtype(x)), vh_dx_v))
    dw = M.diagonal(vh_dx_v)
    if _dtype(dw) != _dtype(w):
        dw = ew.real(dw)
    return [v, w], [dv, dw]


eigh_p = kit.primitive("eigh", shape=_eigh_shape, dtype=_eigh_dtype, weak_type=kit.never_weak,
                   multiple_results=True, batch=_leading_batch, jvp=_eigh_jvp)


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
    s, u, vh = svd_p.bind(a, full_matrices=False, compute_uv=True)
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


svd_p = kit.primitive("svd", shape=_svd_shape, dtype=_svd_dtype, weak_type=kit.never_weak,
                  multiple_results=True, batch=_leading_batch, jvp=_svd_jvp)


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
    lu, _, perm = lu_p.bind(v)
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
    outs = eig_p.bind(a, compute_left_eigenvectors=compute_left_eigenvectors,
                        compute_right_eigenvectors=True)
    w, vr = outs[0], outs[-1]
    primal_out = outs if compute_right_eigenvectors else outs[:-1]
    if _is_zero(da):
        return primal_out, [R.zero_like(o) for o in primal_out]
    da = ew.convert_element_type(da, _dtype(vr))
    if not (compute_left_eigenvectors or compute_right_eigenvectors):
        lu, _, perm = lu_p.bind(vr)
        return primal_out, [M.diagonal(lu_solve(lu, perm, M.matmul(da, vr)))]
    dw, dvr = _eigenvector_jvp(w, vr, da)
    tangent_out = [dw]
    if compute_left_eigenvectors:  # vl: right eigenvectors of a^H, eigenvalues conj(w)
        tangent_out.append(_eigenvector_jvp(ew.conj(w), outs[1], M.mH(da))[1])
    if compute_right_eigenvectors:
        tangent_out.append(dvr)
    return primal_out, tangent_out


eig_p = kit.primitive("eig", shape=_eig_shape, dtype=_eig_dtype, weak_type=kit.never_weak,
                  multiple_results=True, batch=_leading_batch, jvp=_eig_jvp)
