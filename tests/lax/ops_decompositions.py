"""Op-table records of the decompositions (``xnp.lax.decompositions``).

Decompositions are not unique (signs/phases of eigenvectors and singular vectors), so
each record's ``fun`` returns only well-defined quantities: the factor itself where it
is unique (Cholesky, triangular solves, LU pivots), sorted eigenvalues and singular
values, and reconstructions (``Q R``, ``P^T L U``, ``V diag(w) V^H``, ``U S V^H``, the
eigen-residual ``A v - v w``) compared with the input (or zeros). References are
``numpy.linalg`` / ``scipy.linalg`` in float64/complex128, cast back.
"""

import numpy as np
import scipy.linalg

from tests.helpers import COMPLEX, OpRecord
from xnp import lax
from xnp.lax import _matrix as M

LINALG = [np.dtype(np.float32), np.dtype(np.float64)] + COMPLEX

SQUARE = [(3, 3), (2, 3, 3), (1, 1), (0, 0), (2, 0, 0), (5, 5)]
RECT = [(4, 3), (3, 4), (2, 4, 3), (3, 0), (0, 3), (1, 1), (3, 3)]


def _wide(dtype):
    return np.complex128 if np.dtype(dtype).kind == "c" else np.float64


def _real(dtype):
    return np.finfo(dtype).dtype


def _general(rng, shape, dtype):
    """A well-conditioned general matrix: normal entries plus a multiple of the identity."""
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        x = x + 3 * np.eye(shape[-1])
    return x.astype(dtype)


def _hermitian_pd(rng, shape, dtype):
    x = _general(rng, shape, dtype).astype(_wide(dtype))
    h = x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])
    return h.astype(dtype)


def _cast_like(x, dtype):
    return np.asarray(x).astype(dtype)


def _errors(fun, square=True):
    errs = [([np.ones((3, 3), np.int32)], TypeError, r"dtype int32 is not accepted"),
            ([np.ones((3, 3), np.float16)], TypeError, r"dtype float16 is not accepted"),
            ([np.ones(3)], ValueError, r"stack of matrices")]
    if square:
        errs.append(([np.ones((2, 3))], ValueError, "square"))
    return errs


# --------------------------------------------------------------------------- references


def _chol_ref(x):
    return _cast_like(np.linalg.cholesky(x.astype(_wide(x.dtype))), x.dtype)


def _op(a, lower, transpose_a, conjugate_a, unit_diagonal):
    a = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        a = a - np.einsum("...ii->...i", a)[..., None] * np.eye(a.shape[-1]) + np.eye(a.shape[-1])
    a = np.swapaxes(a, -1, -2) if transpose_a else a
    return np.conj(a) if conjugate_a else a


def _ts_ref(params):
    def ref(a, b):
        w = _wide(a.dtype)
        opa = _op(a.astype(w), params["lower"], params["transpose_a"], params["conjugate_a"],
                  params["unit_diagonal"])
        if params["left_side"]:
            x = np.linalg.solve(opa, b.astype(w)) if b.size else b.astype(w)
        else:
            bt = np.swapaxes(b.astype(w), -1, -2)
            x = np.swapaxes(np.linalg.solve(np.swapaxes(opa, -1, -2), bt), -1, -2) \
                if b.size else b.astype(w)
        return _cast_like(x, a.dtype)

    return ref


def _ts_record(**params):
    shapes = ([((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 4)), ((0, 0), (0, 2)), ((3, 3), (3, 0))]
              if params["left_side"] else
              [((3, 3), (2, 3)), ((2, 3, 3), (2, 4, 3)), ((1, 1), (1, 1))])
    name = "triangular_solve-" + "-".join(k for k, v in params.items() if v)
    return OpRecord(
        name=name, fun=lambda a, b: lax.triangular_solve(a, b, **params),
        reference=_ts_ref(params), nargs=2, dtypes=LINALG, shapes=shapes, kind="reduction",
        sampler=_general,
        errors=[([np.eye(3), np.ones((3, 2), np.float32)], TypeError, "equal dtypes"),
                ([np.eye(3), np.ones((4, 2))], TypeError, "must have 3"),
                ([np.ones((2, 3, 3)), np.ones((3, 3, 2))], TypeError, "batch dimensions")]
        if params == {"left_side": True, "lower": True, "transpose_a": False,
                      "conjugate_a": False, "unit_diagonal": False} else [])


# --------------------------------------------------------------------------- reconstructions


def _lu_fun(x):
    lu, pivots, perm = lax.lu(x)
    *_, m, n = x.shape
    k = min(m, n)
    l_part = M.tril(lu, -1)[..., :, :k] + M.eye(m, x.dtype, x.ndim - 2, k)
    u_part = M.triu(lu)[..., :k, :]
    plu = M.matmul(l_part, u_part)
    # undo the row permutation: rows of P x are x[perm]
    inverse = lax.sort_key_val(perm, lax.iota(np.int32, perm.shape, perm.ndim - 1))[1]
    return M.row_permutation(inverse, plu), pivots


def _lu_ref(x):
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        return x, np.zeros(x.shape[:-2] + (min(x.shape[-2:]),), np.int32)
    piv = np.stack([scipy.linalg.lu_factor(m)[1] for m in x.reshape((-1,) + x.shape[-2:])])
    return x, piv.reshape(x.shape[:-2] + piv.shape[-1:]).astype(np.int32)


def _qr_fun(full):
    def fun(x):
        q, r = lax.qr(x, full_matrices=full)
        return M.matmul(q, r), M.matmul(M.mH(q), q)

    return fun


def _qr_ref(full):
    def ref(x):
        *batch, m, n = x.shape
        k = m if full else min(m, n)
        return x, np.broadcast_to(np.eye(k, dtype=x.dtype), tuple(batch) + (k, k))

    return ref


def _eigh_fun(lower):
    def fun(x):
        v, w = lax.eigh(x, lower=lower, symmetrize_input=False)
        rebuilt = M.matmul(v * w[..., None, :].astype(x.dtype), M.mH(v))
        return w, rebuilt

    return fun


def _eigh_ref(lower):
    def ref(x):
        tri = np.tril(x) if lower else np.triu(x)
        strict = np.tril(x, -1) if lower else np.triu(x, 1)
        h = tri + np.conj(np.swapaxes(strict, -1, -2))
        h = (h + np.conj(np.swapaxes(h, -1, -2))) / 2
        w = np.linalg.eigvalsh(h.astype(_wide(x.dtype))) if x.size else np.zeros(x.shape[:-1])
        return w.astype(_real(x.dtype)), h.astype(x.dtype)

    return ref


def _svd_fun(full):
    def fun(x):
        u, s, vh = lax.svd(x, full_matrices=full)
        k = s.shape[-1]
        rebuilt = M.matmul(u[..., :, :k] * s[..., None, :].astype(x.dtype), vh[..., :k, :])
        return s, rebuilt, M.matmul(M.mH(u), u), M.matmul(vh, M.mH(vh))

    return fun


def _svd_ref(full):
    def ref(x):
        *batch, m, n = x.shape
        s = np.linalg.svd(x.astype(_wide(x.dtype)), compute_uv=False) if x.size else \
            np.zeros(tuple(batch) + (min(m, n),))
        ku, kv = (m, n) if full else (min(m, n), min(m, n))
        eye = [np.broadcast_to(np.eye(k, dtype=x.dtype), tuple(batch) + (k, k)) for k in (ku, kv)]
        return [s.astype(_real(x.dtype)), x] + eye

    return ref


def _svdvals_ref(x):
    return _svd_ref(False)(x)[0]


def _eig_fun(x):
    w, vl, vr = lax.eig(x)
    xc = x.astype(w.dtype)
    right = M.matmul(xc, vr) - vr * w[..., None, :]
    left = M.matmul(M.mH(vl), xc) - w[..., :, None] * M.mH(vl)
    return lax.sort(w), right, left


def _eig_ref(x):
    cdt = np.result_type(x.dtype, np.complex64)
    w = np.linalg.eigvals(x.astype(_wide(x.dtype))) if x.size else np.zeros(x.shape[:-1])
    zeros = np.zeros(x.shape, cdt)
    return np.sort_complex(w).astype(cdt), zeros, zeros


RECORDS = [
    OpRecord(name="cholesky", fun=lambda x: lax.cholesky(x), reference=_chol_ref, nargs=1,
             dtypes=LINALG, shapes=SQUARE, kind="reduction", sampler=_hermitian_pd,
             errors=_errors(lax.cholesky)),
    _ts_record(left_side=True, lower=True, transpose_a=False, conjugate_a=False,
               unit_diagonal=False),
    _ts_record(left_side=True, lower=False, transpose_a=True, conjugate_a=True,
               unit_diagonal=False),
    _ts_record(left_side=False, lower=True, transpose_a=False, conjugate_a=True,
               unit_diagonal=True),
    _ts_record(left_side=False, lower=False, transpose_a=True, conjugate_a=False,
               unit_diagonal=False),
    OpRecord(name="lu", fun=_lu_fun, reference=_lu_ref, nargs=1, dtypes=LINALG,
             shapes=RECT + [(2, 0, 3)], kind="reduction", sampler=_general,
             errors=_errors(lax.lu, square=False)),
    OpRecord(name="qr-full", fun=_qr_fun(True), reference=_qr_ref(True), nargs=1,
             dtypes=LINALG, shapes=RECT, kind="reduction", sampler=_general,
             errors=_errors(lax.qr, square=False)),
    OpRecord(name="qr-reduced", fun=_qr_fun(False), reference=_qr_ref(False), nargs=1,
             dtypes=LINALG, shapes=RECT, kind="reduction", sampler=_general),
    OpRecord(name="eigh-lower", fun=_eigh_fun(True), reference=_eigh_ref(True), nargs=1,
             dtypes=LINALG, shapes=SQUARE, kind="reduction", sampler=_general,
             errors=_errors(lax.eigh)),
    OpRecord(name="eigh-upper", fun=_eigh_fun(False), reference=_eigh_ref(False), nargs=1,
             dtypes=LINALG, shapes=SQUARE, kind="reduction", sampler=_general),
    OpRecord(name="svd-full", fun=_svd_fun(True), reference=_svd_ref(True), nargs=1,
             dtypes=LINALG, shapes=RECT, kind="reduction", sampler=_general,
             errors=_errors(lax.svd, square=False)),
    OpRecord(name="svd-reduced", fun=_svd_fun(False), reference=_svd_ref(False), nargs=1,
             dtypes=LINALG, shapes=RECT, kind="reduction", sampler=_general),
    OpRecord(name="svd-values", fun=lambda x: lax.svd(x, compute_uv=False),
             reference=_svdvals_ref, nargs=1, dtypes=LINALG, shapes=RECT + [(2, 0, 3)],
             kind="reduction", sampler=_general),
    OpRecord(name="eig", fun=_eig_fun, reference=_eig_ref, nargs=1, dtypes=LINALG,
             shapes=[(3, 3), (2, 4, 4), (1, 1), (0, 0)], kind="reduction", sampler=_general,
             errors=_errors(lax.eig)),
]
