"""``xnp.lax.linalg``: the decompositions under JAX's ``lax.linalg`` names, against NumPy and
SciPy, eagerly and under ``xnp.jit``; ``xnp.lax.dot`` against ``numpy.dot``."""

import inspect

import numpy as np
import pytest
import scipy.linalg

import xnp
from xnp import lax
from xnp.lax import linalg

RTOL = {np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-10,
        np.dtype(np.complex64): 1e-4, np.dtype(np.complex128): 1e-10}
DTYPES = [np.float32, np.float64, np.complex128]
MODES = ["eager", "jit"]


def _run(mode, f, *args):
    out = (xnp.jit(f) if mode == "jit" else f)(*args)
    if isinstance(out, (list, tuple)):
        return [np.asarray(o) for o in out]
    return np.asarray(out)


def _matrix(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _hpd(rng, shape, dtype):
    a = _matrix(rng, shape, dtype)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _close(actual, expected, dtype, scale=1.0):
    tol = RTOL[np.dtype(dtype)]
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol * scale)


# --------------------------------------------------------------------------- the namespace


# JAX's lax.linalg parameters, in JAX's order (the keywords that select another LAPACK
# driver raise NotImplementedError; use_magma, a GPU solver choice, has no effect)
JAX_SIGNATURES = {
    "cholesky": (["x"], ["symmetrize_input"]),
    "eig": (["x"], ["compute_left_eigenvectors", "compute_right_eigenvectors", "use_magma"]),
    "eigh": (["x"], ["lower", "symmetrize_input", "sort_eigenvalues", "subset_by_index"]),
    "lu": (["x"], []),
    "qr": (["x"], ["pivoting", "full_matrices", "use_magma"]),
    "svd": (["x"], ["full_matrices", "compute_uv", "subset_by_index", "algorithm"]),
    "triangular_solve": (["a", "b"], ["left_side", "lower", "transpose_a", "conjugate_a",
                                      "unit_diagonal"]),
}


def test_linalg_namespace_is_the_decompositions():
    assert sorted(linalg.__all__) == sorted(JAX_SIGNATURES)
    for name, (positional, keywords) in JAX_SIGNATURES.items():
        fn = getattr(linalg, name)
        assert fn is getattr(lax, name), name  # one function, two names
        params = inspect.signature(fn).parameters.values()
        assert [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD] == positional, name
        assert [p.name for p in params if p.kind is p.KEYWORD_ONLY] == keywords, name
    # the products are not in lax.linalg (JAX's layout), but in lax
    assert not hasattr(linalg, "dot_general") and lax.dot_general and lax.dot


# --------------------------------------------------------------------------- decompositions


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_matches_numpy(mode, dtype):
    x = _hpd(np.random.default_rng(0), (2, 4, 4), dtype)
    out = _run(mode, linalg.cholesky, x)
    assert out.dtype == np.dtype(dtype) and out.shape == x.shape
    _close(out, np.linalg.cholesky(x), dtype, scale=4)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_matches_numpy(mode, dtype):
    x = _hpd(np.random.default_rng(1), (3, 3), dtype)
    v, w = _run(mode, linalg.eigh, x)
    _close(w, np.linalg.eigvalsh(x), dtype, scale=10)
    # eigenvectors up to a phase: x v = v diag(w), v unitary
    _close(x @ v, v * w, dtype, scale=10)
    _close(np.conj(v.T) @ v, np.eye(3), dtype, scale=1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_eig_matches_numpy(mode, dtype):
    x = _matrix(np.random.default_rng(2), (4, 4), dtype)
    w, vl, vr = _run(mode, linalg.eig, x)
    expected = np.linalg.eigvals(x)
    _close(np.sort_complex(w), np.sort_complex(expected), dtype, scale=10)
    _close(x @ vr, vr * w, dtype, scale=10)  # right: x vr = vr diag(w)
    _close(np.conj(vl.T) @ x, w[:, None] * np.conj(vl.T), dtype, scale=10)  # left
    (w_only,) = _run(mode, lambda a: linalg.eig(a, compute_left_eigenvectors=False,
                                                 compute_right_eigenvectors=False), x)
    _close(np.sort_complex(w_only), np.sort_complex(expected), dtype, scale=10)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_lu_matches_scipy(mode, dtype, shape):
    x = _matrix(np.random.default_rng(3), shape, dtype)
    lu_, pivots, perm = _run(mode, linalg.lu, x)
    p, l_, u = scipy.linalg.lu(x)
    k = min(shape)
    _close(np.tril(lu_, -1)[:, :k] + np.eye(shape[0], k), l_, dtype, scale=10)
    _close(np.triu(lu_)[:k], u, dtype, scale=10)
    # perm: x[perm] = L U, pivots: LAPACK's row interchanges (0-based)
    np.testing.assert_array_equal(x[perm], (p.T @ x).astype(dtype))
    np.testing.assert_array_equal(pivots, scipy.linalg.lu_factor(x)[1])
    assert pivots.dtype == np.int32 and perm.dtype == np.int32


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_qr_matches_numpy(mode, dtype, full_matrices):
    x = _matrix(np.random.default_rng(4), (2, 5, 3), dtype)
    q, r = _run(mode, lambda a: linalg.qr(a, full_matrices=full_matrices), x)
    eq, er = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    assert q.shape == eq.shape and r.shape == er.shape
    _close(q, eq, dtype, scale=10)
    _close(r, er, dtype, scale=10)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_matches_numpy(mode, dtype):
    x = _matrix(np.random.default_rng(5), (4, 3), dtype)
    u, s, vh = _run(mode, lambda a: linalg.svd(a, full_matrices=False), x)
    _close(s, np.linalg.svd(x, compute_uv=False), dtype, scale=10)
    _close((u * s) @ vh, x, dtype, scale=10)
    s_only = _run(mode, lambda a: linalg.svd(a, compute_uv=False), x)
    _close(s_only, np.linalg.svd(x, compute_uv=False), dtype, scale=10)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("left_side,lower,transpose_a", [
    (True, True, False), (False, False, True), (True, False, True)])
def test_triangular_solve_matches_scipy(mode, dtype, left_side, lower, transpose_a):
    rng = np.random.default_rng(6)
    a = _matrix(rng, (4, 4), dtype) + 4 * np.eye(4, dtype=dtype)
    b = _matrix(rng, (4, 2) if left_side else (2, 4), dtype)
    out = _run(mode, lambda a, b: linalg.triangular_solve(
        a, b, left_side=left_side, lower=lower, transpose_a=transpose_a), a, b)
    tri = np.tril(a) if lower else np.triu(a)
    op = tri.T if transpose_a else tri
    expected = np.linalg.solve(op, b) if left_side else np.linalg.solve(op.T, b.T).T
    _close(out, expected, dtype, scale=10)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("call,arg", [
    (lambda a: linalg.qr(a, pivoting=True), "pivoting=True"),
    (lambda a: linalg.eigh(a, subset_by_index=(0, 1)), r"subset_by_index=\(0, 1\)"),
    (lambda a: linalg.svd(a, subset_by_index=(0, 1)), r"subset_by_index=\(0, 1\)"),
    (lambda a: linalg.svd(a, algorithm="jacobi"), "algorithm='jacobi'"),
])
def test_other_lapack_drivers_raise(mode, call, arg):
    f = xnp.jit(call) if mode == "jit" else call
    with pytest.raises(NotImplementedError, match=rf"xnp.lax.linalg.\w+: `{arg}` is not supported"):
        f(np.eye(3))


@pytest.mark.parametrize("mode", MODES)
def test_use_magma_has_no_effect(mode):
    x = _matrix(np.random.default_rng(8), (3, 3), np.float64)
    q, r = _run(mode, lambda a: linalg.qr(a, use_magma=True), x)
    np.testing.assert_allclose(q @ r, x, rtol=1e-12, atol=1e-12)
    w = _run(mode, lambda a: linalg.eig(a, compute_left_eigenvectors=False,
                                        compute_right_eigenvectors=False, use_magma=False)[0], x)
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(x)),
                               rtol=1e-10)


def test_linalg_errors_name_the_function():
    with pytest.raises(TypeError, match=r"cholesky.*int64"):
        linalg.cholesky(np.eye(3, dtype=np.int64))
    with pytest.raises((TypeError, ValueError), match="qr"):
        xnp.jit(linalg.qr)(np.ones(3))


# --------------------------------------------------------------------------- lax.dot


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                    ((2, 3), (3, 4)), ((0, 3), (3, 2))])
def test_dot_matches_numpy(mode, shapes):
    rng = np.random.default_rng(7)
    x, y = (rng.standard_normal(s) for s in shapes)
    out = _run(mode, lax.dot, x, y)
    np.testing.assert_allclose(out, np.dot(x, y), rtol=1e-12)
    assert out.shape == np.dot(x, y).shape and out.dtype == np.float64
    ints = _run(mode, lambda a, b: lax.dot(a, b, preferred_element_type=np.int64),
                x.astype(np.int32), y.astype(np.int32))
    np.testing.assert_array_equal(ints, np.dot(x.astype(np.int64), y.astype(np.int64)))


@pytest.mark.parametrize("mode", MODES)
def test_dot_rejects_other_ranks_and_sizes(mode):
    f = xnp.jit(lax.dot) if mode == "jit" else lax.dot
    with pytest.raises(TypeError, match=r"xnp.lax.dot: incompatible shapes float64\[2,3\], "
                                        r"float64\[2,3\]"):
        f(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(TypeError, match=r"float64\[2,2,2\]"):
        f(np.ones((2, 2, 2)), np.ones(2))
    with pytest.raises(TypeError, match="equal dtypes"):
        f(np.ones(2, np.float32), np.ones(2))


def _leaves(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


_IN_PLACE = {  # function of (a, b) -> its results; the LAPACK kernels computed in place
    "lapack_dpotrf_ffi": lambda a, b: linalg.cholesky(a),
    "lapack_dgetrf_ffi": lambda a, b: linalg.lu(a),
    "lapack_dgeqrf_ffi": lambda a, b: linalg.qr(a),
    "lapack_dsyevd_ffi": lambda a, b: linalg.eigh(a),
    "lapack_dgesdd_ffi": lambda a, b: linalg.svd(a),
    "lapack_dtrsm_ffi": lambda a, b: linalg.triangular_solve(a, b, left_side=True, lower=True),
}


@pytest.mark.parametrize("target", sorted(_IN_PLACE))
def test_lapack_kernels_work_in_their_operands_buffer(target):
    """Each LAPACK call declares its in-place result as aliasing its operand (no copy inside
    the kernel), and XLA copies a jit argument first: the arguments, an eager array and a
    jit output, are unchanged after the call, and the results equal the eager ones."""
    rng = np.random.default_rng(3)
    a_np = _hpd(rng, (2, 5, 5), np.float64)
    b_np = _matrix(rng, (2, 5, 3), np.float64)
    f = _IN_PLACE[target]
    want = [np.asarray(o) for o in _leaves(f(xnp.asarray(a_np), xnp.asarray(b_np)))]
    hlo = xnp.jit(f).lower(a_np, b_np).compile().as_text()
    call = [line for line in hlo.splitlines() if f'custom_call_target="{target}"' in line]
    assert call and "output_to_operand_aliasing" in call[0]
    resident = xnp.jit(lambda x, y: (x + 0, y + 0))(a_np, b_np)
    for a, b in ((xnp.asarray(a_np), xnp.asarray(b_np)), resident):
        got = xnp.jit(f)(a, b)
        for g, w in zip(_leaves(got), want):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(np.asarray(a), a_np)
        np.testing.assert_array_equal(np.asarray(b), b_np)
