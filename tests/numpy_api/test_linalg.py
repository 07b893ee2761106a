"""``xnp.linalg`` against ``numpy.linalg``: eager, under jit and through the jaxpr.

Non-unique outputs (Q, eigenvectors, singular vectors) are compared through
reconstructions computed in the test body with the same ``xp``; data-dependent errors
(``LinAlgError`` for singular / not positive-definite input) are raised eagerly and
give NaN/inf under jit.
"""

import functools
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import (assert_allclose, axes_labels, check_vs_numpy, covering_grid,
                           covering_sample)

F64, F32, C64, C128 = (np.dtype(t) for t in (np.float64, np.float32, np.complex64, np.complex128))
LINALG = [F32, F64, C64, C128]
SQUARE = [(3, 3), (2, 3, 3), (1, 1), (0, 0), (2, 1, 4, 4)]
RECT = [(4, 3), (3, 4), (2, 4, 3), (1, 1), (3, 3)]


def _mat(shape, dtype, seed=0, shift=True):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if shift and len(shape) >= 2 and shape[-1] == shape[-2]:
        x = x + 2 * np.eye(shape[-1])
    return x.astype(dtype)


def _spd(shape, dtype, seed=0):
    x = _mat(shape, dtype, seed).astype(np.complex128 if np.dtype(dtype).kind == "c" else F64)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _H(xp, x):
    return xp.conj(xp.swapaxes(x, -1, -2))


def _check(body, *args, **kw):
    check_vs_numpy(body, *args, kind="reduction", **kw)


# --------------------------------------------------------------------------- decompositions


# sampled (all with --full-grid): every dtype, each shape with the lower and upper factor
@pytest.mark.parametrize("case", covering_grid(
    shape=SQUARE, dtype=LINALG + [np.dtype(np.int64)], upper=[False, True], n=10,
    labels=lambda c: axes_labels(c, "dtype", ("shape", "upper"))))
def test_cholesky_matches_numpy(case):
    x = _spd(case.shape, case.dtype) if case.dtype.kind != "i" else \
        np.round(_spd(case.shape, F64) * 4).astype(np.int64)
    _check(lambda xp, a: xp.linalg.cholesky(a, upper=case.upper), x)


# sampled (all with --full-grid): every dtype, each shape in each mode
@pytest.mark.parametrize("case", covering_grid(
    shape=RECT + [(3, 0), (0, 3)], dtype=LINALG, mode=["reduced", "complete"], n=14,
    labels=lambda c: axes_labels(c, "dtype", ("shape", "mode"))))
def test_qr_reconstructs(case):
    x = _mat(case.shape, case.dtype)

    def body(xp, a):
        q, r = xp.linalg.qr(a, mode=case.mode)
        return xp.matmul(q, r), xp.abs(r), xp.matmul(_H(xp, q), q)

    _check(body, x)
    _check(lambda xp, a: xp.abs(xp.linalg.qr(a, mode="r")), x)


def test_qr_raw_and_bad_mode():
    with pytest.raises(NotImplementedError):
        xnp.linalg.qr(np.eye(2), mode="raw")
    with pytest.raises(ValueError):
        xnp.linalg.qr(np.eye(2), mode="bad")


# sampled (all with --full-grid): every dtype, each shape with each UPLO
@pytest.mark.parametrize("case", covering_grid(
    shape=SQUARE, dtype=LINALG, UPLO=["L", "U"], n=10,
    labels=lambda c: axes_labels(c, "dtype", ("shape", "UPLO"))))
def test_eigh_matches_numpy(case):
    x = _mat(case.shape, case.dtype)  # not Hermitian: only the UPLO triangle is read

    def body(xp, a):
        w, v = xp.linalg.eigh(a, UPLO=case.UPLO)
        rebuilt = xp.matmul(v * w[..., None, :].astype(a.dtype), _H(xp, v))
        return w, rebuilt, xp.linalg.eigvalsh(a, UPLO=case.UPLO)

    _check(body, x)


# sampled (all with --full-grid): every dtype, each shape with full and reduced matrices
@pytest.mark.parametrize("case", covering_grid(
    shape=RECT + [(3, 0), (2, 0, 3)], dtype=LINALG, full=[False, True], n=14,
    labels=lambda c: axes_labels(c, "dtype", ("shape", "full"))))
def test_svd_reconstructs(case):
    x = _mat(case.shape, case.dtype)

    def body(xp, a):
        u, s, vh = xp.linalg.svd(a, full_matrices=case.full)
        k = s.shape[-1]
        rebuilt = xp.matmul(u[..., :, :k] * s[..., None, :].astype(a.dtype), vh[..., :k, :])
        return s, rebuilt, xp.matmul(_H(xp, u), u), xp.linalg.svdvals(a)

    _check(body, x)
    _check(lambda xp, a: xp.linalg.svd(a, compute_uv=False), x)


def test_svd_hermitian_flag():
    x = _spd((3, 3), F64)
    _check(lambda xp, a: xp.linalg.svd(a, hermitian=True).S, x)


# sampled (all with --full-grid): every dtype, each shape real and complex
@pytest.mark.parametrize("case", covering_grid(
    shape=[(3, 3), (2, 4, 4), (1, 1), (0, 0)], dtype=LINALG, n=8,
    labels=lambda c: [c.dtype, (c.shape, c.dtype.kind)]))
def test_eig_matches_numpy(case):
    x = _mat(case.shape, case.dtype, shift=False)
    cdt = np.result_type(case.dtype, np.complex64)

    def body(xp, a):
        w, v = xp.linalg.eig(a)
        w, v = w.astype(cdt), v.astype(cdt)
        residual = xp.matmul(a.astype(cdt), v) - v * w[..., None, :]
        return xp.sort_complex(w), xp.abs(residual) < 1e-3, xp.sort_complex(
            xp.linalg.eigvals(a).astype(cdt))

    _check(body, x)


# --------------------------------------------------------------------------- solvers


# sampled (all with --full-grid): every dtype, each a shape with each b form, each a shape
# and each b form with real, complex and integer operands
@pytest.mark.parametrize("case", covering_grid(
    a=[(3, 3), (2, 3, 3), (0, 0), (1, 1)], b=["vector", "matrix", "batched"],
    dtype=LINALG + [np.dtype(np.int64)], n=16,
    labels=lambda c: [c.dtype, (c.a, c.b), (c.a, c.dtype.kind), (c.b, c.dtype.kind)]))
def test_solve_matches_numpy(case):
    a = _mat(case.a, case.dtype) if case.dtype.kind != "i" else \
        (np.arange(int(np.prod(case.a))).reshape(case.a) % 5 + 7 * np.eye(case.a[-1])).astype(
            np.int64)
    m = case.a[-1]
    bshape = {"vector": (m,), "matrix": (m, 2), "batched": (4, 1) + case.a[:-2] + (m, 2)}[case.b]
    b = _mat(bshape, F64, seed=1)
    _check(lambda xp, a, b: xp.linalg.solve(a, b), a, b)


_P2 = np.array([[0.0, 1.0], [1.0, 0.0]])
_P3 = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


@pytest.mark.parametrize("a, b", [
    (_P2, np.array([np.inf, 1.0])), (_P3, np.array([np.inf, 1.0, 2.0])),
    (_P3, np.array([1.0, np.nan, 2.0])),
    (_P3, np.array([[np.inf, 1.0], [1.0, -np.inf], [0.0, 2.0]])),
    (np.stack([_P3, _P3[::-1]]), np.array([[[np.inf], [1.0], [2.0]], [[1.0], [2.0], [-np.inf]]])),
], ids=["2x2-inf", "3x3-inf", "3x3-nan", "3x3-matrix", "batched"])
def test_solve_with_nonfinite_right_hand_side_matches_numpy(a, b):
    # pivoting reorders the rows of b: an inf or NaN row must move as LAPACK's row swaps move
    # it, without 0 * inf products reaching other rows (values and NaN positions equal to
    # the oracle's). Eagerly the oracle is NumPy's solve (xnp runs it); under jit it is
    # SciPy's getrf + getrs (laswp, two trsm), the LAPACK build the jitted program calls,
    # so the NaN propagation of its trsm kernel on this CPU is the same on both sides
    import scipy.linalg  # noqa: PLC0415

    np.testing.assert_array_equal(np.asarray(xnp.linalg.solve(a, b)), np.linalg.solve(a, b))
    a3 = a.reshape((-1,) + a.shape[-2:])
    b3 = b.reshape((a3.shape[0],) + b.shape[-2:]) if a.ndim > 2 else b[None]
    want = np.stack([scipy.linalg.lu_solve(scipy.linalg.lu_factor(m), r, check_finite=False)
                     for m, r in zip(a3, b3)]).reshape(np.linalg.solve(a, b).shape)
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.linalg.solve)(a, b)), want)


def test_lu_permutation_matches_row_swaps_batched():
    # lax.linalg.lu's permutation: rows of a in the order P @ a = L @ U, against scipy's lu
    import scipy.linalg  # noqa: PLC0415

    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 6, 6))
    for f in (xnp.lax.linalg.lu, xnp.jit(xnp.lax.linalg.lu)):
        lu, piv, perm = f(a)
        for k in range(3):
            lu_s, piv_s = scipy.linalg.lu_factor(a[k])
            np.testing.assert_array_equal(np.asarray(piv)[k], piv_s)
            assert_allclose(np.asarray(lu)[k], lu_s)
            order = np.arange(6)
            for i, j in enumerate(piv_s):
                order[[i, j]] = order[[j, i]]
            np.testing.assert_array_equal(np.asarray(perm)[k], order)


# sampled (all with --full-grid): every dtype, each shape in single and double precision
# and real and complex
@pytest.mark.parametrize("case", covering_grid(
    shape=SQUARE, dtype=LINALG, n=10,
    labels=lambda c: [c.dtype, (c.shape, c.dtype.kind), (c.shape, c.dtype.itemsize
                                                         // (2 if c.dtype.kind == "c" else 1))]))
def test_inv_det_slogdet_match_numpy(case):
    x = _mat(case.shape, case.dtype)
    _check(lambda xp, a: xp.linalg.inv(a), x)
    _check(lambda xp, a: xp.linalg.det(a), x)
    _check(lambda xp, a: tuple(xp.linalg.slogdet(a)), x)


def test_det_slogdet_of_singular_matrix():
    x = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]])
    _check(lambda xp, a: xp.linalg.det(a), x)
    _check(lambda xp, a: tuple(xp.linalg.slogdet(a)), x)
    # the singular matrix's sign is +0.0 as NumPy's (not -0.0), eagerly and under jit
    for sign, _ in (xnp.linalg.slogdet(x), xnp.jit(xnp.linalg.slogdet)(x)):
        np.testing.assert_array_equal(np.signbit(np.asarray(sign)),
                                      np.signbit(np.linalg.slogdet(x)[0]))


@pytest.mark.parametrize("fname", ["solve", "inv"])
def test_singular_raises_eagerly_and_is_not_finite_under_jit(fname):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    f = (lambda xp, a: xp.linalg.solve(a, np.ones(2))) if fname == "solve" else \
        (lambda xp, a: xp.linalg.inv(a))
    check_vs_numpy(f, a, jit=False, jaxpr=False)  # LinAlgError eagerly, as NumPy
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        f(xnp, xnp.asarray(a))
    out = np.asarray(xnp.jit(lambda a: f(xnp, a))(a))
    assert not np.isfinite(out).all()


def test_cholesky_not_positive_definite():
    a = np.stack([np.eye(2), -np.eye(2)])
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        xnp.linalg.cholesky(a)
    out = np.asarray(xnp.jit(xnp.linalg.cholesky)(a))
    np.testing.assert_array_equal(out[0], np.eye(2))
    assert np.isnan(out[1]).all()
    # NaN input: NumPy returns NaN without an error, and so does xnp
    assert np.isnan(np.asarray(xnp.linalg.cholesky(np.full((1, 1), np.nan)))).all()


@pytest.mark.parametrize("body", [
    lambda xp, a: xp.linalg.inv(a), lambda xp, a: xp.linalg.cholesky(a),
    lambda xp, a: xp.linalg.det(a), lambda xp, a: xp.linalg.eigh(a),
])
@pytest.mark.parametrize("shape,dtype", [((3,), F64), ((2, 3), F64), ((2, 2), np.float16)])
def test_shape_and_dtype_errors_match_numpy(body, shape, dtype):
    check_vs_numpy(body, np.ones(shape, dtype))


# --------------------------------------------------------------------------- least squares etc.


# sampled (all with --full-grid): each pair of shape, b's rank and dtype
@pytest.mark.parametrize("case", covering_grid(
    shape=[(5, 3), (3, 5), (4, 4), (3, 0)], bdim=[1, 2], dtype=[F64, C128, F32], n=12,
    labels=lambda c: [(c.shape, c.bdim), (c.shape, c.dtype), (c.bdim, c.dtype)]))
def test_lstsq_matches_numpy(case):
    a = _mat(case.shape, case.dtype, shift=False)
    b = _mat((case.shape[0],) + (2,) * (case.bdim - 1), case.dtype, seed=1)
    _check(lambda xp, a, b: xp.linalg.lstsq(a, b), a, b,
           rtol=1e-3 if case.dtype in (F32, C64) else None,
           atol=1e-3 if case.dtype in (F32, C64) else None)


def test_lstsq_rank_deficient_eager_matches_numpy():
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 4.0])
    check_vs_numpy(lambda xp, a, b: xp.linalg.lstsq(a, b), a, b, kind="reduction", jit=False,
                   jaxpr=False)


# sampled (all with --full-grid): every dtype, each shape with the default and a given rcond
@pytest.mark.parametrize("case", covering_grid(
    shape=RECT + [(2, 3, 0)], dtype=LINALG, rcond=[None, 1e-3], n=12,
    labels=lambda c: axes_labels(c, "dtype", ("shape", "rcond"))))
def test_pinv_and_rank_match_numpy(case):
    x = _mat(case.shape, case.dtype)
    _check(lambda xp, a: xp.linalg.pinv(a) if case.rcond is None else
           xp.linalg.pinv(a, rcond=case.rcond), x)
    if 0 not in case.shape:
        _check(lambda xp, a: xp.linalg.matrix_rank(a), x, check_dtype=False)


def test_matrix_rank_of_deficient_and_small_inputs():
    x = np.array([[1.0, 2.0], [2.0, 4.0]])
    _check(lambda xp, a: xp.linalg.matrix_rank(a), x, check_dtype=False)
    _check(lambda xp, a: xp.linalg.matrix_rank(a, tol=0.5), x, check_dtype=False)
    _check(lambda xp, a: xp.linalg.matrix_rank(a, hermitian=True), x, check_dtype=False)
    _check(lambda xp, a: xp.linalg.matrix_rank(a), np.array([0.0, 1.0]), check_dtype=False)


NORM_CASES = [
    ((5,), None, None), ((5,), 1, None), ((5,), np.inf, None), ((5,), -np.inf, None),
    ((5,), 0, None), ((5,), 3, None), ((5,), -1.5, None), ((3, 4), None, None),
    ((3, 4), "fro", None), ((3, 4), "nuc", None), ((3, 4), 2, None), ((3, 4), -2, None),
    ((3, 4), 1, None), ((3, 4), -1, None), ((3, 4), np.inf, None), ((3, 4), -np.inf, None),
    ((2, 3, 4), None, (0, 2)), ((2, 3, 4), 1, (2, 0)), ((2, 3, 4), 2, 1), ((2, 3, 4), None, None),
    ((0, 3), "fro", None),
]


# sampled (all with --full-grid): every ord/axis spec, each with and without keepdims
# and each spec's rank with each dtype, then random others
@pytest.mark.parametrize("case", covering_grid(
    spec=NORM_CASES, keepdims=[False, True], dtype=[F64, C64, np.dtype(np.int32)], n=48,
    labels=lambda c: [(repr(c.spec), c.keepdims), (len(c.spec[0]), c.dtype)]))
def test_norm_matches_numpy(case):
    shape, ord, axis = case.spec
    x = _mat(shape, case.dtype, shift=False) if case.dtype.kind != "i" else \
        np.arange(int(np.prod(shape))).reshape(shape).astype(case.dtype) - 3
    with np.errstate(divide="ignore"):  # negative ord over zeros: 0 ** ord (NumPy warns too)
        _check(lambda xp, a: xp.linalg.norm(a, ord=ord, axis=axis, keepdims=case.keepdims), x)


def test_norm_errors_match_numpy():
    x = np.ones((2, 3))
    for kw in ({"ord": "fro", "axis": 0}, {"ord": 3, "axis": (0, 1)}, {"axis": (0, 0)},
               {"axis": 2}):
        check_vs_numpy(lambda xp, a: xp.linalg.norm(a, **kw), x)


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, 2, -2, np.inf])
def test_matrix_and_vector_norm_match_numpy(ord):
    x = _mat((2, 3, 4), F64)
    _check(lambda xp, a: xp.linalg.matrix_norm(a, ord=ord, keepdims=True), x)
    if not isinstance(ord, str):
        _check(lambda xp, a: xp.linalg.vector_norm(a, ord=ord, axis=(0, 2), keepdims=True), x)
    _check(lambda xp, a: xp.linalg.vector_norm(a), x)


@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf])
def test_cond_matches_numpy(p):
    _check(lambda xp, a: xp.linalg.cond(a, p), _mat((2, 3, 3), F64))
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 0.0]])
    try:
        expected = np.linalg.cond(singular, p)
    except np.linalg.LinAlgError:  # NumPy's SVD of the NaN inverse ('nuc'): xnp raises too
        with pytest.raises(np.linalg.LinAlgError):
            xnp.linalg.cond(singular, p)
        expected = np.inf
    got = float(xnp.jit(lambda a: xnp.linalg.cond(a, p))(singular))
    if p == -2:
        assert abs(got) < 1e-15 and abs(expected) < 1e-15
    else:
        assert got > 1e15 and expected > 1e15
    for empty in (np.zeros((0, 0)), np.zeros((2, 3, 0))):  # NumPy's error, not an IndexError
        with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
            xnp.linalg.cond(empty, p)


# --------------------------------------------------------------------------- products


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -3])
def test_matrix_power_matches_numpy(n):
    _check(lambda xp, a: xp.linalg.matrix_power(a, n), _mat((2, 3, 3), F64))
    if n >= 0:
        ints = np.arange(18).reshape(2, 3, 3) % 4
        _check(lambda xp, a: xp.linalg.matrix_power(a, n), ints)


def test_multi_dot_matches_numpy():
    shapes = [(6,), (6, 3), (3, 8), (8, 2), (2,)]
    arrs = [_mat(s, F64, seed=i) for i, s in enumerate(shapes)]
    _check(lambda xp, *xs: xp.linalg.multi_dot(list(xs)), *arrs)
    _check(lambda xp, *xs: xp.linalg.multi_dot(list(xs)), *arrs[1:4])
    _check(lambda xp, *xs: xp.linalg.multi_dot(list(xs)), *arrs[1:3])
    check_vs_numpy(lambda xp, a: xp.linalg.multi_dot([a]), arrs[1])


def test_cross_trace_diagonal_outer_match_numpy():
    a, b = _mat((4, 3), F64), _mat((2, 1, 3), F64, seed=1)
    _check(lambda xp, a, b: xp.linalg.cross(a, b), a, b)
    _check(lambda xp, a, b: xp.linalg.cross(a, b, axis=0), a.T, a.T[:, ::-1])
    check_vs_numpy(lambda xp, a: xp.linalg.cross(a, a), np.ones((2, 2)))
    x = _mat((2, 3, 4), C128)
    for k in (-2, 0, 1, 5):
        _check(lambda xp, a: xp.linalg.trace(a, offset=k), x)
        _check(lambda xp, a: xp.linalg.diagonal(a, offset=k), x)
    _check(lambda xp, a: xp.linalg.trace(np.arange(9).reshape(3, 3), dtype=np.float32), x)
    _check(lambda xp, a, b: xp.linalg.outer(a, b), a[0], b[0, 0])
    check_vs_numpy(lambda xp, a: xp.linalg.outer(a, a), a)


def test_tensorinv_tensorsolve_match_numpy():
    a = _mat((4, 6), F64, shift=False) + np.eye(4, 6) * 3
    a = np.concatenate([a, _mat((2, 6), F64, seed=2)]).reshape(6, 2, 3)
    _check(lambda xp, a: xp.linalg.tensorinv(a, ind=1), a)
    b = _mat((6,), F64, seed=3)
    _check(lambda xp, a, b: xp.linalg.tensorsolve(a, b), a, b)


def test_namespace_reexports():
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot", "LinAlgError"):
        assert hasattr(xnp.linalg, name)
    assert xnp.linalg.LinAlgError is np.linalg.LinAlgError


# --------------------------------------------------------------------------- differentiation


@pytest.mark.parametrize("fname,fun", [
    ("det", lambda a: xnp.linalg.det(a)),
    ("slogdet", lambda a: xnp.linalg.slogdet(a).logabsdet),
    ("inv", lambda a: xnp.sum(xnp.linalg.inv(a) ** 2)),
    ("solve", lambda a: xnp.sum(xnp.linalg.solve(a, xnp.arange(3.0)))),
    ("norm-nuc", lambda a: xnp.linalg.norm(a, "nuc")),
    ("eigvalsh", lambda a: xnp.sum(xnp.linalg.eigvalsh(a + a.T) ** 3)),
    ("cholesky", lambda a: xnp.sum(xnp.linalg.cholesky(a @ a.T + 3 * xnp.eye(3)))),
    ("pinv", lambda a: xnp.sum(xnp.linalg.pinv(a))),
    ("cholesky-upper", lambda a: xnp.sum(xnp.linalg.cholesky(a @ a.T + 3 * xnp.eye(3),
                                                              upper=True))),
    ("norm", lambda a: xnp.linalg.norm(a)),
    ("cond", lambda a: xnp.linalg.cond(a)),
    ("lstsq", lambda a: xnp.sum(xnp.linalg.lstsq(a, xnp.arange(3.0))[0])),
])
@pytest.mark.parametrize("jit", [False, True])
def test_grad_matches_central_differences(fname, fun, jit):
    x = _mat((3, 3), F64)
    v = _mat((3, 3), F64, seed=5, shift=False)
    g = xnp.grad(xnp.jit(fun) if jit else fun)(xnp.asarray(x))
    h = 1e-6
    fd = (float(fun(xnp.asarray(x + h * v))) - float(fun(xnp.asarray(x - h * v)))) / (2 * h)
    assert_allclose(np.sum(np.asarray(g) * v), np.asarray(fd), rtol=1e-6, atol=1e-6,
                    err_msg=fname)


# NumPy's SVD of a matrix with an inf entry and no NaN: NaN singular values (U and Vh are
# whatever gesdd left, and with vectors it does not return on some such matrices, this
# float32 one among them: only compute_uv=False is asked of NumPy here); matrix_rank 0,
# cond inf, norm(a, 2) NaN, pinv zeros or NaN; a NaN entry raises "SVD did not converge".
_INF_ENTRY = [((3, 3), (0, 0)), ((3, 3), (1, 1)), ((2, 3), (1, 2)), ((3, 2), (0, 1)),
              ((1, 1), (0, 0)), ((2, 4, 4), (1, 2, 2))]


def _svd_family(xp, a):
    u, s, vh = xp.linalg.svd(a)
    _, s_reduced, _ = xp.linalg.svd(a, full_matrices=False)
    return (xp.linalg.svd(a, compute_uv=False), xp.linalg.svdvals(a), s, s_reduced,
            xp.linalg.matrix_rank(a), xp.linalg.cond(a), xp.linalg.cond(a, -2)), \
        (u, vh, xp.linalg.pinv(a))


def _check_svd_family(a, got, want):
    values, (u, vh, pinv) = got
    for g, w in zip(values, want, strict=True):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5)  # (jit: XLA's gesdd calls)
    m, n = a.shape[-2:]
    assert u.shape == a.shape[:-2] + (m, m) and vh.shape == a.shape[:-2] + (n, n)
    assert pinv.shape == a.shape[:-2] + (n, m)
    for v in (u, vh, pinv):  # NumPy's are undefined there: finite or NaN, never inf
        assert not np.isinf(np.asarray(v)).any()
    bad = ~np.isfinite(a).all(axis=(-2, -1))
    assert np.all(np.isnan(np.asarray(pinv)[bad]) | (np.asarray(pinv)[bad] == 0))


# sampled (all with --full-grid): every dtype, each entry position real and complex, and
# float32 (3, 3) (NumPy's svd of the all-ones matrix with an inf does not return)
@pytest.mark.parametrize("shape, pos, dtype", [
    pytest.param(*_INF_ENTRY[i], LINALG[j], id=f"shape{i}-pos{i}-dtype{j}")
    for i, j in covering_sample(
        [(i, j) for i in range(len(_INF_ENTRY)) for j in range(len(LINALG))], n=12,
        labels=lambda c: [("dtype", c[1]), (c[0], LINALG[c[1]].kind)],
        keep=lambda c: c == (0, 0))])
def test_svd_of_a_matrix_with_an_infinite_entry_has_nan_singular_values(shape, pos, dtype):
    a = _mat(shape, dtype, shift=False)
    a[pos] = np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = np.linalg.svd(a, compute_uv=False)
        want = (s, s, s, s, np.linalg.matrix_rank(a), np.linalg.cond(a), np.linalg.cond(a, -2))
        _check_svd_family(a, _svd_family(xnp, a), want)
        _check_svd_family(a, xnp.jit(functools.partial(_svd_family, xnp))(a), want)
        a[pos] = np.nan
        for f in (lambda: xnp.linalg.svd(a), lambda: xnp.linalg.svd(a, compute_uv=False),
                  lambda: xnp.linalg.matrix_rank(a), lambda: xnp.linalg.pinv(a)):
            with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
                f()
    if dtype == F32 and shape == (3, 3):
        a = np.ones((3, 3), F32)  # NumPy's svd(a) does not return
        a[0, 0] = np.inf
        assert np.isnan(np.asarray(xnp.linalg.svd(a).S)).all()


def test_svd_kernel_and_decomposition_agree_on_infinite_entries(monkeypatch):
    # eagerly the kernel (one gesdd call) and the decomposition (every composite's kernel
    # taken away) give the same NaN singular values, ranks and condition numbers
    from xnp.backends.numpy import BACKEND
    from xnp.numpy_api import _replay

    a = _mat((3, 4, 4), F64, shift=False)
    a[0, 1, 2] = -np.inf
    want = np.linalg.svd(a, compute_uv=False)
    want = (want, want, want, want, np.linalg.matrix_rank(a), np.linalg.cond(a),
            np.linalg.cond(a, -2))
    _replay.clear()
    with xnp.config.override(eager_dispatch_cache=False):
        monkeypatch.setattr(BACKEND, "kernels", {})
        _check_svd_family(a, _svd_family(xnp, a), want)
        a[2, 0, 0] = np.nan
        with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
            xnp.linalg.svd(a, compute_uv=False)
    _replay.clear()


_EIGH_INF = [(1, (0, 0)), (2, (0, 0)), (2, (1, 0)), (2, (0, 1)), (3, (0, 0)), (3, (1, 0)),
             (3, (0, 2)), (3, (1, 1)), (4, (2, 1))]


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("n, pos", _EIGH_INF)
def test_eigh_of_a_matrix_with_an_infinite_entry(n, pos, uplo):
    # NumPy: a 1x1 matrix's eigenvalue is its entry; an inf in the triangle read gives NaN
    # eigenvalues or, for some such matrices (by position and values), "Eigenvalues did not
    # converge" (eagerly the same; NaN under jit); an inf in the other triangle is ignored
    a = _mat((n, n), F64, shift=False)
    a = a + a.T
    a[pos] = np.inf
    for dtype in (F64, C64):
        x = a.astype(dtype)
        for name in ("eigvalsh", "eigh"):
            fn = functools.partial(getattr(xnp.linalg, name), UPLO=uplo)
            try:
                want = getattr(np.linalg, name)(x, UPLO=uplo)
                want = want[0] if name == "eigh" else want
                calls = (fn, xnp.jit(fn))
            except np.linalg.LinAlgError as e:
                with pytest.raises(np.linalg.LinAlgError, match=str(e)):
                    fn(x)
                want = np.full(n, np.nan, np.finfo(dtype).dtype)
                calls = (xnp.jit(fn),)
            for f in calls:
                got = f(x)
                w = np.asarray(got[0] if name == "eigh" else got)
                assert w.dtype == want.dtype
                np.testing.assert_allclose(w, want, rtol=1e-5)
                if name == "eigh":
                    assert not np.isinf(np.asarray(got[1])).any()
    stack = np.stack([a, np.eye(n)])
    try:
        want = np.linalg.eigvalsh(stack, UPLO=uplo)
    except np.linalg.LinAlgError:
        return
    np.testing.assert_allclose(np.asarray(xnp.linalg.eigvalsh(stack, UPLO=uplo)), want)


@pytest.mark.parametrize("da,db", [("int8", "float32"), ("bool", "complex64"),
                                   ("complex64", "int16"), ("float32", "float32")])
def test_solve_dtype_is_numpys_for_integer_operands(da, db):
    # NumPy's linalg computes in double precision when an operand is an integer or bool
    check_vs_numpy(lambda xp, a, b: xp.linalg.solve(a, b),
                   (np.eye(2) * 2).astype(da), np.ones(2, db))


def test_solve_with_a_0d_b_raises_numpys_error():
    check_vs_numpy(lambda xp, a, b: xp.linalg.solve(a, b), np.eye(3), np.asarray(1.0))


_NONFINITE = {
    "inf-middle": [[1.0, 2.0, 0.0], [2.0, np.inf, 1.0], [0.0, 1.0, 3.0]],
    "inf-first": [[np.inf, 2.0, 0.0], [2.0, 1.0, 1.0], [0.0, 1.0, 3.0]],
    "inf-off-diagonal": [[1.0, np.inf], [np.inf, 1.0]],
    "-inf": [[1.0, 2.0], [-np.inf, 1.0]],
    "nan": [[1.0, np.nan], [1.0, 1.0]],
    "nan-3x3": [[1.0, 2.0, 0.0], [2.0, np.nan, 1.0], [0.0, 1.0, 3.0]],
    "all-inf": [[np.inf, np.inf], [np.inf, np.inf]],
}


def _caught(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f()
    return out, [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("dtype", [F64, F32])
@pytest.mark.parametrize("case", sorted(_NONFINITE))
def test_slogdet_and_det_of_nonfinite_matrices_match_numpy(case, dtype):
    # NumPy's real sign is +-1 here (a negative pivot flips it, NaN does not): eagerly
    # NumPy's values and warnings ("invalid value encountered in slogdet", by category
    # and count), under jit the same values (no warnings: compiled code checks nothing)
    a = np.array(_NONFINITE[case], dtype)
    (sign, logdet), warned = _caught(lambda: np.linalg.slogdet(a))
    got, got_warned = _caught(lambda: tuple(xnp.linalg.slogdet(a)))
    assert got_warned == warned
    jitted = tuple(xnp.jit(xnp.linalg.slogdet)(a))
    for s, l in (got, jitted):
        assert np.asarray(s).dtype == sign.dtype and np.asarray(l).dtype == logdet.dtype
        np.testing.assert_array_equal(np.asarray(s), sign)
        np.testing.assert_array_equal(np.asarray(l), logdet)
    det, warned = _caught(lambda: np.linalg.det(a))
    got, got_warned = _caught(lambda: xnp.linalg.det(a))
    assert got_warned == warned
    for d in (got, xnp.jit(xnp.linalg.det)(a)):
        np.testing.assert_array_equal(np.asarray(d), det)


def test_det_of_a_singular_matrix_is_positive_zero_under_jit():
    # NumPy's det is sign * exp(logabsdet) = 0 * 0.0 = +0.0 for a singular matrix, also
    # where the product of the pivots has a negative factor (-0.0)
    x = np.stack([np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((2, 2))])
    want = np.linalg.det(x)
    for got in (xnp.linalg.det(x), xnp.jit(xnp.linalg.det)(x)):
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(want))
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (3, 0), (0,), (2, 0, 3), (0, 2, 2)])
@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int8])
@pytest.mark.parametrize("p", [None, "fro", -2])
def test_cond_of_empty_input_raises_numpys_error(shape, dtype, p):
    # NumPy checks for empty matrices first (LinAlgError, also for float16 or a 1-D
    # input); an empty stack of non-empty matrices goes on to the dtype check (TypeError
    # for float16) or an empty result
    x = np.zeros(shape, dtype)
    try:
        want = np.linalg.cond(x, p)
    except (np.linalg.LinAlgError, TypeError) as e:
        with pytest.raises(type(e), match=str(e)):
            xnp.linalg.cond(x, p)
        return
    got = xnp.linalg.cond(x, p)
    assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("b_shape", [(0, 3), (0, 3, 2)])
def test_vmap_solve_over_an_empty_batch(b_shape):
    # per element solve((3, 3), (3,) or (3, 2)): NumPy's batched solve of the stack
    a, b = np.zeros((0, 3, 3)), np.zeros(b_shape)
    want = np.linalg.solve(a, b[..., None])[..., 0] if len(b_shape) == 2 else \
        np.linalg.solve(a, b)
    for f in (xnp.vmap(xnp.linalg.solve), xnp.jit(xnp.vmap(xnp.linalg.solve))):
        got = f(a, b)
        assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("entry", [np.inf, -np.inf, np.nan])
def test_lstsq_of_a_nonfinite_matrix_raises_numpys_error(monkeypatch, entry):
    # NumPy's words, from the kernel (gelsd) and from the decomposition (every composite's
    # kernel taken away: what jit computes eagerly)
    from xnp.backends.numpy import BACKEND
    from xnp.numpy_api import _replay

    a, b = _mat((3, 3), F64, shift=False), np.arange(3.0)
    a[1, 2] = entry
    with pytest.raises(np.linalg.LinAlgError) as want:
        np.linalg.lstsq(a, b)
    with pytest.raises(np.linalg.LinAlgError) as got:
        xnp.linalg.lstsq(xnp.asarray(a), xnp.asarray(b))
    assert str(got.value) == str(want.value)
    _replay.clear()
    with xnp.config.override(eager_dispatch_cache=False):
        monkeypatch.setattr(BACKEND, "kernels", {})
        with pytest.raises(np.linalg.LinAlgError) as got:
            xnp.linalg.lstsq(xnp.asarray(a), xnp.asarray(b))
        assert str(got.value) == str(want.value)
    _replay.clear()


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (2, 2), (2, 3, 2)])
def test_pinv_derivative_matches_finite_differences_and_is_zero_at_zero(shape):
    """pinv's derivative at constant rank (Golub-Pereyra): central differences of NumPy's
    pinv at full-rank matrices, eager and under jit; at the zero matrix 0 (the SVD's own
    derivative gave NaN there)."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(shape)
    w = rng.standard_normal(shape[:-2] + (shape[-1], shape[-2]))

    def f(x):
        return xnp.sum(xnp.linalg.pinv(x) * w)

    h, fd = 1e-6, np.zeros_like(a)
    for i in np.ndindex(a.shape):
        e = np.zeros_like(a)
        e[i] = h
        fd[i] = (np.sum(np.linalg.pinv(a + e) * w) - np.sum(np.linalg.pinv(a - e) * w)) / (2 * h)
    for g in (xnp.grad(f)(xnp.asarray(a)), xnp.jit(xnp.grad(f))(a)):
        np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-5, atol=1e-7)
    zero = np.zeros(shape)
    for g in (xnp.grad(f)(xnp.asarray(zero)), xnp.jit(xnp.grad(f))(zero)):
        np.testing.assert_array_equal(np.asarray(g), zero)
    t = rng.standard_normal(shape)
    _, tangent = xnp.jvp(lambda x: xnp.linalg.pinv(x), (a,), (t,))
    want = (np.linalg.pinv(a + h * t) - np.linalg.pinv(a - h * t)) / (2 * h)
    np.testing.assert_allclose(np.asarray(tangent), want, rtol=1e-5, atol=1e-7)
