"""``xnp.linalg``: NumPy's ``numpy.linalg`` decompositions and solvers, on the LAPACK
primitives of :mod:`xnp.lax.decompositions`.

Common rules (each function's docstring adds its own):

* Inputs are stacks of matrices ``(..., M, N)`` (batch dimensions leading), as in
  NumPy. Integer and bool inputs compute in the default float dtype (float64);
  float32/complex64 stay single precision; float16 and bfloat16 raise ``TypeError``
  (NumPy: "array type float16 is unsupported in linalg").
* Errors NumPy raises from the data (a singular matrix in ``solve``/``inv``, a matrix
  that is not positive definite in ``cholesky``, non-convergence) are
  ``numpy.linalg.LinAlgError`` eagerly, where the values are known. Under ``jit`` the
  values are not known when the function is traced: the affected results are NaN
  (or inf) instead, as in JAX.
* Shape errors (rank < 2, non-square input) raise ``LinAlgError`` with NumPy's
  message, eagerly and under ``jit``.
* Each function (``qr`` aside) is one general composite (``xnp.lax.composite_general``):
  eagerly on the NumPy backend one call of ``numpy.linalg``'s LAPACK routine
  (``xnp/backends/xp_impls/composite.py``, ``MATRIX_KERNELS``), so an eager call replays
  as one; under ``jit``, every transformation and the eager XLA backend the lax
  decomposition written here, whose values agree within rounding and whose errors the
  kernels raise too. An inf entry (no NaN) gives NaN singular values and, in the triangle
  read, eigenvalues, as NumPy (svd's U, Vh NaN, undefined in NumPy). Eager differences
  from NumPy kept: a NaN entry gives ``cholesky``/``eigh`` NaN results (NumPy raises).
  For an inf or NaN entry ``det``/``slogdet`` give NumPy's values and warnings eagerly;
  under ``jit`` a real ``slogdet``'s sign follows NumPy's rule too (+-1: a negative pivot
  flips it, a NaN one does not).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
from xnp.lax.decompositions import lu_solve
from xnp.numpy_api import _util
from xnp.numpy_api._adjugate import adjugate, lu_diagonal_and_parity
from xnp.numpy_api._det_arithmetic import det_from_pivots
from xnp.numpy_api._util import asarray_for, broadcast_shapes, default_float, result_dtype
from xnp.tracing import ShapedArray, core
from xnp.tracing.custom_derivatives import custom_jvp
from xnp.tracing.transformations import jvp

__all__ = ["LinAlgError", "cholesky", "qr", "eigh", "eigvalsh", "eig", "eigvals", "svd",
           "svdvals", "solve", "inv", "det", "slogdet", "EighResult", "EigResult",
           "QRResult", "SVDResult", "SlogdetResult"]

LinAlgError = np.linalg.LinAlgError


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class QRResult(NamedTuple):
    Q: object
    R: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


# --------------------------------------------------------------------------- helpers

_UNSUPPORTED_KINDS = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")


def linalg_dtype(fname: str, *dtypes) -> np.dtype:
    """The dtype NumPy's linalg computes in: ints/bool -> the default float; float16 and
    bfloat16 -> ``TypeError``."""
    dt = np.dtype(dtypes[0]) if len(dtypes) == 1 else np.dtype(np.result_type(*dtypes))
    if dt.name in _UNSUPPORTED_KINDS:
        raise TypeError(f"xnp.linalg.{fname}: array type {dt.name} is unsupported in linalg")
    if dt.kind in "biu":
        return default_float()
    return dt


def cast(x, dtype):
    return x if core.aval_of(x).dtype == dtype else lax.convert_element_type(x, dtype)


def stacked(fname: str, a, argname: str = "a", *, square: bool = False, dtype=None):
    """``a`` as an xnp value of its linalg dtype; ``LinAlgError`` (NumPy's messages)
    for rank < 2 or, with ``square``, non-square matrices."""
    x = asarray_for(f"linalg.{fname}", a, argname)
    aval = core.aval_of(x)
    if aval.ndim < 2:
        raise LinAlgError(f"{aval.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if square and aval.shape[-1] != aval.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return cast(x, dtype or linalg_dtype(fname, aval.dtype))


def concrete(x):
    """The host value of ``x`` when it is known now (eager, or under eager ``grad``), else
    None (under ``jit``/``vmap``)."""
    if type(x) is core.Array:
        return np.asarray(x._value)
    if isinstance(x, core.Tracer):
        v = x.to_concrete_value()
        return None if v is None else np.asarray(v)
    return None


def _any(x, first_axis: int = 0):
    """``x`` (boolean) reduced with ``or`` over its axes from ``first_axis`` on."""
    return lax.reduce_or(x, tuple(range(first_axis, core.aval_of(x).ndim)))


def _is_nan(x):
    return lax.ne(x, x)


def _raise_where(condition, message: str) -> None:
    """``LinAlgError(message)`` eagerly if ``condition`` holds anywhere: a
    ``lax.runtime_error`` equation, so a replayed call checks again; under ``jit`` nothing
    is checked (NaN results instead, see the module's docstring)."""
    lax.runtime_error(_any(condition), message, LinAlgError)


def check_nan_where_input_finite(out, a, message: str, *, finite: bool = False) -> None:
    """``LinAlgError(message)`` where some batch element of ``out`` is NaN although its
    matrix in ``a`` (..., M, N) has no NaN (``finite``: nor an inf; LAPACK did not converge)."""
    nb = core.aval_of(a).ndim - 2
    bad = _not_finite(a) if finite else _is_nan(a)
    _raise_where(lax.and_(_any(_is_nan(out), nb), lax.not_(_any(bad, nb))), message)


def _not_finite(x):
    """Whether each entry of ``x`` is inf or NaN (``x - x`` is NaN exactly there)."""
    return _is_nan(lax.sub(x, x))


def check_singular(lu) -> None:
    """``LinAlgError("Singular matrix")`` when an LU factor has a zero pivot (what
    LAPACK's gesv reports), as ``numpy.linalg.solve``/``inv``."""
    d = M.diagonal(lu)
    _raise_where(lax.eq(d, M.scalar(0, core.aval_of(d).dtype)), "Singular matrix")


def check_converged(fname: str, value, what: str = "SVD did not converge") -> None:
    """``LinAlgError(what)`` where ``value`` has a NaN (LAPACK did not converge)."""
    _raise_where(_is_nan(value), what)


# --------------------------------------------------------------------------- decompositions


def cholesky(a, /, *, upper=False):
    """Cholesky factor of Hermitian positive-definite matrices (``numpy.linalg.cholesky``).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
        Only the lower triangle is read (the upper one with ``upper=True``).
    upper : bool
        Return the upper factor ``U`` with ``a = U^H @ U`` instead of the lower ``L``
        with ``a = L @ L^H``.

    Returns
    -------
    Array
        Shape and dtype of ``a`` (ints/bool as float64); zeros in the other triangle.

    Raises
    ------
    numpy.linalg.LinAlgError
        ``a`` has rank < 2 or is not square; eagerly, a matrix is not positive
        definite. Under ``jit`` such a matrix gives an all-NaN factor instead.
    TypeError
        float16/bfloat16 input.
    """
    x = stacked("cholesky", a, square=True)
    if upper:
        return _one("linalg.cholesky_upper", _cholesky_upper, x, core.aval_of(x))
    return _one("linalg.cholesky", _cholesky_lower, x, core.aval_of(x))


def _one(name, decomposition, x, aval):
    """The one result of the general composite ``name`` of ``x`` (eagerly the backend's
    kernel, see ``xnp.lax.composite_general``), of aval ``aval``."""
    return lax.composite_general(name, decomposition, x, out_avals=(aval,))[0]


def _cholesky_lower(x):
    """``cholesky``'s decomposition (eagerly LAPACK's potrf through
    ``numpy.linalg.cholesky``, the eager backend's kernel)."""
    out = lax.cholesky(x, symmetrize_input=False)
    check_nan_where_input_finite(out, x, "Matrix is not positive definite")
    return [out]


def _cholesky_upper(x):
    """``cholesky(x, upper=True)``'s decomposition: the lower factor of ``x``'s conjugate
    transpose, transposed back."""
    return [M.mH(_cholesky_lower(M.mH(x))[0])]


def qr(a, mode="reduced"):
    """QR decomposition ``a = Q @ R`` (``numpy.linalg.qr``), batched.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    mode : {'reduced', 'complete', 'r'}
        'reduced': ``Q`` (..., M, K), ``R`` (..., K, N) with ``K = min(M, N)``;
        'complete': ``Q`` (..., M, M), ``R`` (..., M, N); 'r': ``R`` alone (reduced).
        'raw' raises ``NotImplementedError``.

    Returns
    -------
    QRResult(Q, R) or Array
        dtype of ``a`` (ints/bool as float64). Signs follow LAPACK's geqrf, as NumPy.

    Raises
    ------
    numpy.linalg.LinAlgError
        ``a`` has rank < 2.
    ValueError
        Unknown ``mode``.
    NotImplementedError
        ``mode='raw'`` (LAPACK's packed Householder output is not exposed).
    """
    if mode == "raw":
        raise NotImplementedError("xnp.linalg.qr: mode='raw' (Householder reflectors and tau) "
                                  "is not implemented; use 'reduced', 'complete' or 'r'.")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    x = stacked("qr", a)
    q, r = lax.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def eigh(a, UPLO="L"):
    """Eigenvalues and eigenvectors of Hermitian matrices (``numpy.linalg.eigh``).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
        Only the triangle named by ``UPLO`` is read.
    UPLO : {'L', 'U'}

    Returns
    -------
    EighResult(eigenvalues, eigenvectors)
        Eigenvalues real (..., M), ascending; eigenvectors as columns, dtype of ``a``.

    Raises
    ------
    numpy.linalg.LinAlgError
        Rank < 2 or non-square; eagerly, non-convergence (NaN under ``jit``), or an inf
        entry where NumPy's LAPACK call fails (NaN eigenvalues where it does not).
    ValueError
        ``UPLO`` is not 'L' or 'U'.
    """
    lower = _uplo(UPLO)
    x = stacked("eigh", a, square=True)
    aval = core.aval_of(x)
    values = ShapedArray(aval.shape[:-1], _real(aval.dtype))
    name, decomposition = ("linalg.eigh", _eigh_lower) if lower else ("linalg.eigh_upper",
                                                                         _eigh_upper)
    w, v = lax.composite_general(name, decomposition, x, out_avals=(values, aval))
    return EighResult(w, v)


def _real(dtype) -> np.dtype:
    return np.dtype(np.finfo(dtype).dtype) if dtype.kind == "c" else dtype


def _eigh(x, lower: bool):
    """``eigh``'s decomposition, ``[eigenvalues, eigenvectors]`` (eagerly LAPACK's syevd
    through ``numpy.linalg.eigh``, the eager backend's kernel)."""
    v, w = lax.eigh(x, lower=lower, symmetrize_input=False)
    check_nan_where_input_finite(w, x, "Eigenvalues did not converge", finite=True)
    return [w, v]


def _eigh_lower(x):
    return _eigh(x, lower=True)


def _eigh_upper(x):
    return _eigh(x, lower=False)


def _eigvalsh_lower(x):
    """``eigvalsh``'s decomposition: ``eigh``'s eigenvalues (eagerly
    ``numpy.linalg.eigvalsh``, syevd without vectors, the eager backend's kernel)."""
    return _eigh(x, lower=True)[:1]


def _eigvalsh_upper(x):
    return _eigh(x, lower=False)[:1]


def _uplo(UPLO) -> bool:
    if UPLO not in ("L", "U", "l", "u"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO in ("L", "l")


def eigvalsh(a, UPLO="L"):
    """Eigenvalues of Hermitian matrices, ascending (``numpy.linalg.eigvalsh``); see
    :func:`eigh` for shapes, dtypes and errors."""
    lower = _uplo(UPLO)
    x = stacked("eigh", a, square=True)
    aval = core.aval_of(x)
    values = ShapedArray(aval.shape[:-1], _real(aval.dtype))
    if lower:
        return _one("linalg.eigvalsh", _eigvalsh_lower, x, values)
    return _one("linalg.eigvalsh_upper", _eigvalsh_upper, x, values)


def eig(a):
    """Eigenvalues and right eigenvectors of general square matrices (``numpy.linalg.eig``).

    Parameters
    ----------
    a : array_like, shape (..., M, M)

    Returns
    -------
    EigResult(eigenvalues, eigenvectors)
        Eagerly, NumPy's dtype rule: for a real input (float32; float64, integer or
        bool computed as float64) whose eigenvalues all have an imaginary part of
        exactly 0, over the whole stack, both are real (float32 or float64);
        otherwise complex (complex64 for float32/complex64 input, else complex128).
        Under ``jit`` (and ``vmap``/``grad``) the dtype cannot depend on the values,
        so the result is always complex. Eigenvectors are columns of unit norm.
        The Array API namespace's ``linalg.eig`` (``x.__array_namespace__()``) is
        always complex, as the standard requires: :func:`standard_eig`.

    Raises
    ------
    numpy.linalg.LinAlgError
        Rank < 2 or non-square; eagerly, an inf/NaN entry or non-convergence (NaN
        results under ``jit``).
    """
    x, (w, v) = _general_eig("eig", a, vectors=True)
    if _all_real(x, w):
        return EigResult(lax.real(w), lax.real(v))
    return EigResult(w, v)


def standard_eig(x, /):
    """Eigenvalues and right eigenvectors of general square matrices, always complex:
    the Array API standard's ``linalg.eig``.

    ``x`` of shape (..., M, M); returns ``EigResult(eigenvalues, eigenvectors)`` of
    shapes (..., M) and (..., M, M), complex64 for float32/complex64 input, else
    complex128, also when every eigenvalue is real (see :func:`eig` for NumPy's rule).
    Errors as :func:`eig`.
    """
    _, (w, v) = _general_eig("eig", x, vectors=True)
    return EigResult(w, v)


def _general_eig(fname: str, a, *, vectors: bool):
    """``a`` as the matrices decomposed, and ``lax.eig``'s complex results (the
    eigenvalues, and the right eigenvectors when ``vectors``)."""
    x = stacked(fname, a, square=True)
    aval = core.aval_of(x)
    cdt = np.result_type(aval.dtype, np.complex64)  # lax.eig's: complex64 or complex128
    values = ShapedArray(aval.shape[:-1], cdt)
    if vectors:
        return x, lax.composite_general("linalg.eig", _eig_vectors, x,
                                        out_avals=(values, ShapedArray(aval.shape, cdt)))
    return x, lax.composite_general("linalg.eigvals", _eig_values, x, out_avals=(values,))


def _eig(x, vectors: bool):
    """``eig``'s (``vectors``) or ``eigvals``'s decomposition: the finiteness check, geev,
    the convergence check (eagerly ``numpy.linalg.eig``/``eigvals`` made complex, the eager
    backend's kernel, which raises the same errors)."""
    _raise_where(_not_finite(x), "Array must not contain infs or NaNs")
    outs = lax.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=vectors)
    check_converged("eig", outs[0], "Eigenvalues did not converge")
    return list(outs)


def _eig_vectors(x):
    return _eig(x, vectors=True)


def _eig_values(x):
    return _eig(x, vectors=False)


def _all_real(x, w) -> bool:
    """NumPy's rule for a real ``eig``/``eigvals`` result: real matrices ``x`` and,
    eagerly, every imaginary part of the eigenvalues ``w`` exactly 0 (the whole stack)."""
    if type(w) is not core.Array or np.issubdtype(core.aval_of(x).dtype, np.complexfloating):
        return False
    return bool(np.all(np.asarray(w._value).imag == 0.0))


def eigvals(a):
    """Eigenvalues of general square matrices (``numpy.linalg.eigvals``), shape (..., M).

    Eagerly real (float32 or float64) when the input is real and every eigenvalue's
    imaginary part is exactly 0, otherwise complex, as NumPy; always complex under
    ``jit``. The Array API namespace's ``linalg.eigvals`` is always complex
    (:func:`standard_eigvals`). See :func:`eig`.
    """
    x, (w,) = _general_eig("eigvals", a, vectors=False)
    return lax.real(w) if _all_real(x, w) else w


def standard_eigvals(x, /):
    """Eigenvalues of general square matrices, always complex: the Array API
    standard's ``linalg.eigvals``; see :func:`standard_eig`."""
    return _general_eig("eigvals", x, vectors=False)[1][0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition ``a = U @ diag(S) @ Vh`` (``numpy.linalg.svd``).

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    full_matrices : bool
        ``U`` (..., M, M) and ``Vh`` (..., N, N); else (..., M, K) and (..., K, N),
        ``K = min(M, N)``.
    compute_uv : bool
        Return ``S`` alone when False.
    hermitian : bool
        Accepted for NumPy compatibility; the general SVD is computed (the same
        factorisation up to the usual sign/phase freedom of the singular vectors).

    Returns
    -------
    SVDResult(U, S, Vh) or Array
        ``S`` real, descending; ``U``/``Vh`` dtype of ``a``.

    Raises
    ------
    numpy.linalg.LinAlgError
        Rank < 2; eagerly, non-convergence or NaN input (NaN under ``jit``).
    """
    x = stacked("svd", a)
    if not compute_uv:
        return singular_values(x)
    aval = core.aval_of(x)
    *batch, m, n = aval.shape
    k = min(m, n)
    full = bool(full_matrices)
    u = ShapedArray((*batch, m, m if full else k), aval.dtype)
    vh = ShapedArray((*batch, n if full else k, n), aval.dtype)
    s = ShapedArray((*batch, k), _real(aval.dtype))
    name, decomposition = ("linalg.svd", _svd_full) if full else ("linalg.svd_reduced",
                                                                   _svd_reduced)
    return SVDResult(*lax.composite_general(name, decomposition, x, out_avals=(u, s, vh)))


def _svd(x, full_matrices: bool):
    """``svd``'s decomposition (eagerly LAPACK's gesdd through ``numpy.linalg.svd``, the
    eager backend's kernel)."""
    u, s, vh = lax.svd(x, full_matrices=full_matrices)
    _check_svd(s, x)
    return [u, s, vh]


def _check_svd(s, x) -> None:
    """NumPy's error for a NaN entry or non-convergence (an inf entry: NaN, no error)."""
    check_nan_where_input_finite(s, x, "SVD did not converge", finite=True)
    check_converged("svd", x)


def _svd_full(x):
    return _svd(x, full_matrices=True)


def _svd_reduced(x):
    return _svd(x, full_matrices=False)


def singular_values(x):
    """The singular values of the matrices ``x`` (..., M, N) of a linalg dtype, descending,
    "SVD did not converge" eagerly where one is NaN: one general composite (eagerly
    ``numpy.linalg.svd(x, compute_uv=False)``)."""
    aval = core.aval_of(x)
    s = ShapedArray(aval.shape[:-2] + (min(aval.shape[-2:]),), _real(aval.dtype))
    return _one("linalg.svdvals", _svdvals, x, s)


def _svdvals(x):
    """``singular_values``' decomposition."""
    s = lax.svd(x, compute_uv=False)
    _check_svd(s, x)
    return [s]


def svdvals(x, /):
    """Singular values, descending (``numpy.linalg.svdvals``); see :func:`svd`."""
    return svd(x, compute_uv=False)


# --------------------------------------------------------------------------- solvers


def solve(a, b):
    """Solve ``a @ x = b`` (``numpy.linalg.solve``, NumPy 2 semantics).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (M,) or (..., M, K)
        A 1-D ``b`` is one vector (for every matrix of ``a``); otherwise a stack of
        matrices; batch dimensions broadcast.

    Returns
    -------
    Array
        Shape (..., M) or (..., M, K); dtype the common linalg dtype of ``a`` and ``b``.
        Computed by LU with partial pivoting (LAPACK getrf, as NumPy's gesv).

    Raises
    ------
    numpy.linalg.LinAlgError
        ``a`` has rank < 2 or is not square; eagerly, ``a`` is singular (an exact zero
        pivot). Under ``jit`` a singular ``a`` gives inf/NaN.
    ValueError
        ``b``'s rows do not match ``a``.
    """
    xa = asarray_for("linalg.solve", a, "a")
    xb = asarray_for("linalg.solve", b, "b")
    a_in, b_in = core.aval_of(xa), core.aval_of(xb)
    dt = linalg_dtype("solve", result_dtype(core.aval_of(xa).strip_weak_type(),
                                            core.aval_of(xb).strip_weak_type())[0])
    if any(d.kind in "biu" for d in (a_in.dtype, b_in.dtype)):  # NumPy: an integer operand
        dt = np.result_type(dt, default_float())  # makes it double precision
    xa = stacked("solve", xa, square=True, dtype=dt)
    xb = cast(xb, dt)
    a_shape, b_shape = core.aval_of(xa).shape, core.aval_of(xb).shape
    m = a_shape[-1]
    if not b_shape:
        raise ValueError(
            f"xnp.linalg.solve: Input operand 1 does not have enough dimensions (has 0, "
            f"gufunc core with signature (m,m),(m)->(m) requires 1): `b` ({b_in.dtype.name}, "
            f"shape ()) must have at least one dimension")
    vector = len(b_shape) == 1
    if vector:
        xb = lax.expand_dims(xb, (1,))
        b_shape = b_shape + (1,)
    if len(b_shape) < 2 or b_shape[-2] != m:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(
            f"xnp.linalg.solve: Input operand 1 has a mismatch in its core dimension 0, with "
            f"gufunc signature {sig} (size {b_in.shape[0 if vector else -2]} is different "
            f"from {m}): `b` ({b_in.dtype.name}, shape {b_in.shape}) does not match `a` "
            f"({a_in.dtype.name}, shape {a_in.shape}), which needs {m} rows")
    batch = broadcast_shapes("linalg.solve", a_shape[:-2], b_shape[:-2],
                             operands=(("a", a_in.dtype), ("b", b_in.dtype)))
    xa = _util.broadcast_to(xa, batch + (m, m))  # computed on, not a view
    xb = _util.broadcast_to(xb, batch + b_shape[-2:])
    (x,) = lax.composite_general("linalg.solve", _solve, xa, xb, out_avals=(core.aval_of(xb),))
    return lax.squeeze(x, (len(batch) + 1,)) if vector else x


def _solve(a, b):
    """``solve``'s decomposition (eagerly LAPACK's gesv through ``numpy.linalg.solve``,
    the eager backend's kernel): LU with partial pivoting, the singularity check, two
    triangular solves."""
    lu, _, perm = lax.lu(a)
    check_singular(lu)
    return [lu_solve(lu, perm, b)]


def _inv(x):
    """The inverse through LU, without the eager singularity check."""
    *batch, n, _ = core.aval_of(x).shape
    lu, _, perm = lax.lu(x)
    eye = lax.broadcast_in_dim(M.eye(n, core.aval_of(x).dtype), tuple(batch) + (n, n),
                               (len(batch), len(batch) + 1))
    return lu, lu_solve(lu, perm, eye)


def inv(a):
    """Inverse of square matrices (``numpy.linalg.inv``).

    Parameters
    ----------
    a : array_like, shape (..., M, M)

    Returns
    -------
    Array
        Shape of ``a``; dtype its linalg dtype (ints/bool as float64).

    Raises
    ------
    numpy.linalg.LinAlgError
        Rank < 2 or non-square; eagerly, a singular matrix (inf/NaN under ``jit``).
    """
    x = stacked("inv", a, square=True)
    return lax.composite_general("linalg.inv", _checked_inv, x, out_avals=(core.aval_of(x),))[0]


def _checked_inv(x):
    """``inv``'s decomposition (eagerly ``numpy.linalg.inv``, the eager backend's kernel)."""
    lu, out = _inv(x)
    check_singular(lu)
    return [out]


def det(a):
    """Determinant (``numpy.linalg.det``) from the LU factorisation: NumPy's
    ``sign * exp(sum(log|pivot|))`` (eagerly NumPy's value; under ``jit`` its arithmetic,
    so a product of pivots that overflows in between, or an overflowing complex one, has
    NumPy's value and inf/NaN parts).

    ``a``: (..., M, M); result (...), dtype of ``a`` (ints/bool as float64). A singular
    matrix gives 0 (no error). Raises ``numpy.linalg.LinAlgError`` for rank < 2 or
    non-square input. The derivative is ``d det(a) = trace(adj(a) da)``, finite also
    where ``a`` is singular, and so are the second derivatives (``hessian``: the signed
    (M-2)-minors; the adjugate's own rule, :mod:`xnp.numpy_api._adjugate`).
    """
    x = stacked("det", a, square=True)
    aval = core.aval_of(x)
    return _one("linalg.det", _det_decomposition, x, ShapedArray(aval.shape[:-2], aval.dtype))


def _det_decomposition(x):
    """``det``'s decomposition (eagerly LAPACK's getrf through ``numpy.linalg.det``, the
    eager backend's kernel, which multiplies the pivots as ``sign * exp(sum(log|d|))``)."""
    # the derivative rule is attached only where a transformation can see it
    return [_det_differentiable(x) if isinstance(x, core.Tracer) else _det(x)]


def _det(x):
    """NumPy's ``sign * exp(sum(log|pivot|))`` from ``x``'s LU (``_det_arithmetic``)."""
    return det_from_pivots(*lu_diagonal_and_parity(x))


@custom_jvp
def _det_differentiable(x):
    return _det(x)


@_det_differentiable.defjvp
def _det_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    nb = M.batch_ndim(x)
    return _det_differentiable(x), lax.reduce_sum(lax.mul(M.mT(adjugate(x)), t), (nb, nb + 1))


def slogdet(a):
    """Sign and natural log of the absolute determinant (``numpy.linalg.slogdet``).

    ``a``: (..., M, M). Returns ``SlogdetResult(sign, logabsdet)``: ``sign`` of ``a``'s
    dtype (+-1 or 0 for real input, of unit modulus or 0 for complex), ``logabsdet``
    real (``-inf`` for a singular matrix). Raises ``numpy.linalg.LinAlgError`` for rank
    < 2 or non-square input. The derivative of ``logabsdet`` is ``tr(inv(a) da)``; at a
    singular matrix it is NaN (its one-sided limits are +inf and -inf), in forward and
    reverse mode alike.
    """
    x = stacked("slogdet", a, square=True)
    aval = core.aval_of(x)
    batch = aval.shape[:-2]
    return SlogdetResult(*lax.composite_general(
        "linalg.slogdet", _slogdet_decomposition, x,
        out_avals=(ShapedArray(batch, aval.dtype), ShapedArray(batch, _real(aval.dtype)))))


def _slogdet_decomposition(x):
    """``slogdet``'s decomposition (eagerly LAPACK's getrf through ``numpy.linalg.slogdet``,
    the eager backend's kernel)."""
    # the derivative rule is attached only where a transformation can see it
    return list(_slogdet_differentiable(x) if isinstance(x, core.Tracer) else _slogdet(x))


@custom_jvp
def _slogdet_differentiable(x):
    return _slogdet(x)


@_slogdet_differentiable.defjvp
def _slogdet_jvp(primals, tangents):
    # the chain rule through the LU pivots, NaN where the matrix is singular (there the
    # value -inf is a constant, whose tangent would be 0 while the cotangent is NaN)
    (sgn, lad), (dsgn, dlad) = jvp(_slogdet, primals, tangents)
    rdt = core.aval_of(lad).dtype
    sa = core.aval_of(sgn)
    if sa.dtype.kind != "c":
        # a real sign is piecewise constant: its tangent is a constant 0 (as JAX's), so no
        # cotangent reaches the pivots' product, where the chain rule is 0 * inf at a
        # singular matrix
        dsgn = lax.broadcast_in_dim(M.scalar(0, sa.dtype), sa.shape, ())
    scale = lax.select_n(lax.eq(lad, M.scalar(-np.inf, rdt)), M.scalar(1, rdt),
                         M.scalar(np.nan, rdt))
    return (sgn, lad), (dsgn, lax.mul(dlad, scale))


def _slogdet(x):
    dt = core.aval_of(x).dtype
    d, sign = lu_diagonal_and_parity(x)
    absd = lax.abs(d)
    rdt = core.aval_of(absd).dtype
    axis = (core.aval_of(d).ndim - 1,)
    zero = lax.eq(absd, M.scalar(0, rdt))
    safe = lax.select_n(zero, absd, M.scalar(1, rdt))
    # log of the nonzero pivots only: -inf for a singular matrix without log(0)'s
    # RuntimeWarning (NumPy's slogdet does not warn)
    singular = lax.reduce_or(zero, axis)
    logabsdet = lax.select_n(singular, lax.reduce_sum(lax.log(safe), axis),
                             M.scalar(-np.inf, rdt))
    if dt.kind == "c":
        unit = lax.select_n(zero, lax.div(d, cast(safe, dt)), M.scalar(0, dt))
    else:
        # NumPy's rule: a pivot flips the sign where it is negative, so an infinite pivot
        # counts by its sign and a NaN one as positive (the sign is +-1, not NaN)
        unit = lax.select_n(lax.lt(d, M.scalar(0, dt)), M.scalar(1, dt), M.scalar(-1, dt))
    # a singular matrix's sign is +0 (NumPy's), not the -0 of 0 * (-1)
    sgn = lax.select_n(singular, lax.mul(lax.reduce_prod(unit, axis), cast(sign, dt)),
                       M.scalar(0, dt))
    return sgn, logabsdet
