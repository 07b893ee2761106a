"""``xnp.lax.linalg``: the matrix decompositions under JAX's ``jax.lax.linalg`` names.

The functions are those of :mod:`xnp.lax.decompositions` (one primitive each, also
exported as ``xnp.lax.cholesky`` and so on), with JAX's signatures and output
conventions:

* ``cholesky(x, *, symmetrize_input=True) -> L``
* ``eig(x, *, compute_left_eigenvectors=True, compute_right_eigenvectors=True,
  use_magma=None) -> [w, vl, vr]`` (the requested eigenvectors only)
* ``eigh(x, *, lower=True, symmetrize_input=True, sort_eigenvalues=True,
  subset_by_index=None) -> (v, w)``
* ``lu(x) -> (lu, pivots, permutation)``
* ``qr(x, *, pivoting=False, full_matrices=True, use_magma=None) -> (q, r)``
* ``svd(x, *, full_matrices=True, compute_uv=True, subset_by_index=None, algorithm=None)
  -> (u, s, vh)`` or ``s``
* ``triangular_solve(a, b, *, left_side=False, lower=False, transpose_a=False,
  conjugate_a=False, unit_diagonal=False) -> x``

Every operand is a stack of matrices ``(..., m, n)`` of float32, float64, complex64 or
complex128; each function's docstring gives its shapes, dtypes and errors. The
keywords that select another LAPACK driver (``pivoting=True``, ``subset_by_index``,
``algorithm``) raise ``NotImplementedError``; ``use_magma`` (a GPU solver choice in JAX)
has no effect. The
matrix products (``dot_general``, ``dot``) are in :mod:`xnp.lax.products`, as in JAX,
where ``lax.linalg`` holds only the decompositions. JAX's ``lu_pivots_to_permutation``,
``tridiagonal_solve``, ``schur``, ``hessenberg``, ``tridiagonal``, ``householder_product``
and ``qdwh`` have no primitive in xnp and are not offered here.
"""

from __future__ import annotations

from xnp.lax.decompositions import cholesky, eig, eigh, lu, qr, svd, triangular_solve

__all__ = ["cholesky", "eig", "eigh", "lu", "qr", "svd", "triangular_solve"]
