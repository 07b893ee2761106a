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
:mod:`xnp.lax.decompositions_rules`; batching moves the batch axis to the front.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.tracing import Array, Primitive, ShapedArray, core, errors

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


def _leading_batch(prim):
    """Batching rule of a one-operand decomposition: the batch axis goes to the front
    (a new leading batch dimension); every output then has it at 0."""

    def batch(vals, dims, **params):
        (x,), (d,) = vals, dims
        outs = prim.bind(R.bdim_to_front(x, d, None), **params)
        return (outs, [0] * len(outs)) if prim.multiple_results else (outs, 0)

    return batch


# --------------------------------------------------------------------------- cholesky


def _cholesky_shape(a: ShapedArray):
    _matrix("cholesky", a, square=True)
    return a.shape


def _cholesky_dtype(a: ShapedArray):
    _matrix("cholesky", a, square=True)
    return a.dtype


cholesky_p = Primitive("cholesky", shape=_cholesky_shape, dtype=_cholesky_dtype,
                       weak_type=kit.never_weak)
cholesky_p.batch = _leading_batch(cholesky_p)


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


triangular_solve_p = Primitive("triangular_solve", shape=_triangular_solve_shape,
                               dtype=_triangular_solve_dtype, weak_type=kit.never_weak)


def _triangular_solve_batch(vals, dims, **params):
    size = R.batch_size(vals, dims)
    a, b = (R.bdim_to_front(v, d, size) for v, d in zip(vals, dims))
    return triangular_solve_p.bind(a, b, **params), 0


triangular_solve_p.batch = _triangular_solve_batch


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


lu_p = Primitive("lu", shape=_lu_shape, dtype=_lu_dtype, weak_type=kit.never_weak,
                 multiple_results=True)
lu_p.batch = _leading_batch(lu_p)


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


qr_p = Primitive("qr", shape=_qr_shape, dtype=_qr_dtype, weak_type=kit.never_weak,
                 multiple_results=True)
qr_p.batch = _leading_batch(qr_p)


def qr(x: Array, *, full_matrices: bool = True):
    """QR decomposition ``x = q @ r``: ``(q, r)``, ``q`` with orthonormal columns, ``r``
    upper triangular (LAPACK's geqrf sign convention, as ``numpy.linalg.qr``).

    ``x``: shape ``(..., m, n)``. With ``full_matrices``: ``q`` is ``(..., m, m)`` and
    ``r`` ``(..., m, n)``; otherwise ``k = min(m, n)`` and ``q`` is ``(..., m, k)``,
    ``r`` ``(..., k, n)``. Dtype of ``x``.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` has rank < 2.
    """
    return tuple(qr_p.bind(x, full_matrices=bool(full_matrices)))


# --------------------------------------------------------------------------- eigh


def _eigh_shape(a: ShapedArray, *, lower, sort_eigenvalues):
    batch, m, _ = _matrix("eigh", a, square=True)
    return [a.shape, batch + (m,)]


def _eigh_dtype(a: ShapedArray, *, lower, sort_eigenvalues):
    _matrix("eigh", a, square=True)
    return [a.dtype, real_dtype(a.dtype)]


eigh_p = Primitive("eigh", shape=_eigh_shape, dtype=_eigh_dtype, weak_type=kit.never_weak,
                   multiple_results=True)
eigh_p.batch = _leading_batch(eigh_p)


def eigh(x: Array, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True):
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
    """
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


svd_p = Primitive("svd", shape=_svd_shape, dtype=_svd_dtype, weak_type=kit.never_weak,
                  multiple_results=True)
svd_p.batch = _leading_batch(svd_p)


def svd(x: Array, *, full_matrices: bool = True, compute_uv: bool = True):
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
    """
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


eig_p = Primitive("eig", shape=_eig_shape, dtype=_eig_dtype, weak_type=kit.never_weak,
                  multiple_results=True)
eig_p.batch = _leading_batch(eig_p)


def eig(x: Array, *, compute_left_eigenvectors: bool = True,
        compute_right_eigenvectors: bool = True):
    """Eigendecomposition of general square matrices (LAPACK geev; CPU only under jit).

    ``x``: shape ``(..., n, n)``. Returns a list ``[w, vl, vr]`` without the
    eigenvector outputs not asked for: ``w`` the eigenvalues ``(..., n)``, ``vr`` the
    right eigenvectors as columns (``x @ vr = vr * w``), ``vl`` the left ones
    (``vl^H @ x = w[:, None] * vl^H``), each normalised to unit 2-norm with its largest
    component real. All complex (complex64 for float32/complex64 input); the
    eigenvalues are in LAPACK's order (not sorted). Non-convergence gives NaN.

    Raises
    ------
    TypeError
        ``x`` is not float32/float64/complex64/complex128.
    ValueError
        ``x`` is not a stack of square matrices.
    """
    return list(eig_p.bind(x, compute_left_eigenvectors=bool(compute_left_eigenvectors),
                           compute_right_eigenvectors=bool(compute_right_eigenvectors)))


from xnp.lax import decompositions_rules as _rules  # noqa: E402, F401  (attaches jvp/transpose)
