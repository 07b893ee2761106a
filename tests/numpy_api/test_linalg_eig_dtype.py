"""The result dtype of ``xnp.linalg.eig``/``eigvals`` against ``numpy.linalg``'s rule.

NumPy returns real arrays when the input is real and every eigenvalue's imaginary part
is exactly 0 over the whole stack, complex ones otherwise. Eagerly xnp follows it (dtype
and values compared with NumPy's); under ``jit`` the dtype cannot depend on the values,
so the results are complex, compared with NumPy's values cast to complex.
"""

import numpy as np
import pytest

import xnp

_SYMMETRIC = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]])
_TRIANGULAR = np.array([[1.0, 2.0, 3.0], [0.0, -4.0, 5.0], [0.0, 0.0, 6.0]])
_ROTATION = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])  # +-i, 2

MATRICES = {
    "symmetric": _SYMMETRIC,
    "triangular": _TRIANGULAR,
    "rotation": _ROTATION,
    "stack_all_real": np.stack([_SYMMETRIC, _TRIANGULAR]),
    "stack_one_complex": np.stack([_SYMMETRIC, _ROTATION]),  # the rule is for the stack
    "diagonal_int": np.diag([3, 1, 2]),
}
DTYPES = ["float32", "float64", "int64"]


def _cast(a, dtype):
    if np.dtype(dtype).kind == "i":
        return np.round(a).astype(dtype)
    return a.astype(dtype)


def _sorted(w):
    # a canonical order of the eigenvalues of each matrix (real part, then imaginary)
    w = np.asarray(w).astype(np.complex128)
    return np.sort_complex(w.reshape(-1, w.shape[-1])).reshape(w.shape)


def _check_vectors(a, w, v, tol):
    # a v = v diag(w), column by column, in complex128 (eigenvectors are not unique)
    a, w, v = (np.asarray(t).astype(np.complex128) for t in (a, w, v))
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=tol, rtol=0)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1.0, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(MATRICES))
def test_eager_eig_and_eigvals_follow_numpys_dtype_rule(name, dtype):
    a = _cast(MATRICES[name], dtype)
    tol = 1e-4 if dtype == "float32" else 1e-10
    nw, nv = np.linalg.eig(a)
    w, v = xnp.linalg.eig(xnp.asarray(a))
    assert type(w) is xnp.Array and type(v) is xnp.Array
    assert w.dtype == nw.dtype and v.dtype == nv.dtype, (w.dtype, nw.dtype)
    assert w.shape == nw.shape and v.shape == nv.shape
    np.testing.assert_allclose(_sorted(w), _sorted(nw), atol=tol, rtol=tol)
    _check_vectors(a, w, v, tol)
    ev, nev = xnp.linalg.eigvals(xnp.asarray(a)), np.linalg.eigvals(a)
    assert ev.dtype == nev.dtype
    np.testing.assert_allclose(_sorted(ev), _sorted(nev), atol=tol, rtol=tol)


def test_eager_real_results_are_reals_of_the_complex_ones():
    # NumPy's real eigenvalues are the real parts (w.real), the imaginary parts being 0
    w = xnp.linalg.eigvals(xnp.asarray(_TRIANGULAR))
    assert w.dtype == np.float64
    np.testing.assert_array_equal(np.sort(np.asarray(w)), [-4.0, 1.0, 6.0])


def test_complex_input_stays_complex_as_in_numpy():
    a = _SYMMETRIC.astype(np.complex64)
    nw = np.linalg.eigvals(a)
    w = xnp.linalg.eigvals(xnp.asarray(a))
    assert nw.dtype == w.dtype == np.complex64
    np.testing.assert_allclose(_sorted(w), _sorted(nw), atol=1e-4)
    assert xnp.linalg.eig(a).eigenvectors.dtype == np.linalg.eig(a).eigenvectors.dtype


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(MATRICES))
def test_jitted_eig_is_complex_with_numpys_values(name, dtype):
    a = _cast(MATRICES[name], dtype)
    tol = 1e-4 if dtype == "float32" else 1e-10
    cdt = np.complex64 if dtype == "float32" else np.complex128
    nw = np.linalg.eig(a).eigenvalues.astype(cdt)
    w, v = xnp.jit(xnp.linalg.eig)(xnp.asarray(a))
    assert w.dtype == cdt and v.dtype == cdt
    np.testing.assert_allclose(_sorted(w), _sorted(nw), atol=tol, rtol=tol)
    _check_vectors(a, w, v, tol)
    ev = xnp.jit(xnp.linalg.eigvals)(xnp.asarray(a))
    assert ev.dtype == cdt
    np.testing.assert_allclose(_sorted(ev), _sorted(nw), atol=tol, rtol=tol)


def test_roots_keep_numpys_dtypes():
    # roots goes through the companion matrix's eigenvalues: real roots real, as NumPy
    for p in ([1.0, -3.0, 2.0], [1.0, 0.0, 1.0], [1.0, -3.0, 2.0, 0.0]):
        r, n = xnp.roots(p), np.roots(p)
        assert r.dtype == n.dtype, p
        np.testing.assert_allclose(_sorted(r), _sorted(n), atol=1e-12)
