"""Transformation rules and failure semantics of the decompositions
(``xnp.lax.decompositions``): jvp vs central differences, vjp vs jvp through
<u, J v> = <J^T u, v>, vmap vs a loop over slices (several batch axes), each also under
jit; reconstructions on ill-conditioned inputs; NaN results for failures."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose
from xnp import lax
from xnp.lax import _matrix as M

RTOL_FD = 1e-6  # central differences with h = 1e-6 in float64: truncation ~ h^2, rounding ~ eps/h


def _general(rng, shape, dtype=np.float64):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if shape[-1] == shape[-2]:
        x = x + 3 * np.eye(shape[-1])
    return x.astype(dtype)


def _spd(rng, shape, dtype=np.float64):
    x = _general(rng, shape, dtype)
    return x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])


def _distinct_spectrum(rng, shape, dtype=np.float64):
    """Hermitian with well-separated eigenvalues (eigenvector derivatives are O(1/gap))."""
    q, _ = np.linalg.qr(_general(rng, shape, dtype))
    w = np.arange(1, shape[-1] + 1, dtype=np.float64) * 2.0
    return (q * w[..., None, :]) @ np.conj(np.swapaxes(q, -1, -2))


def _phase_fix(v):
    """Columns scaled so that their first row is real positive: a smooth gauge."""
    first = v[..., :1, :]
    return v * (lax.conj(first) / lax.abs(first).astype(v.dtype)) if v.dtype.kind == "c" \
        else v * lax.sign(first)


# each: name, function of the inputs (tuple of arrays out), input generator, dtypes
def _ts(**params):
    return lambda a, b: (lax.triangular_solve(a, b, **params),)


CASES = {
    "cholesky": (lambda x: (lax.cholesky(x),), lambda r, d: [_spd(r, (3, 3), d)]),
    "triangular_solve-left-lower": (_ts(left_side=True, lower=True),
                                    lambda r, d: [_general(r, (3, 3), d), _general(r, (3, 2), d)]),
    "triangular_solve-right-upper-T-unit": (
        _ts(left_side=False, lower=False, transpose_a=True, unit_diagonal=True),
        lambda r, d: [_general(r, (3, 3), d), _general(r, (2, 3), d)]),
    "triangular_solve-left-upper-conj": (
        _ts(left_side=True, lower=False, conjugate_a=True),
        lambda r, d: [_general(r, (3, 3), d), _general(r, (3, 2), d)]),
    "lu-square": (lambda x: (lax.lu(x)[0],), lambda r, d: [_general(r, (3, 3), d)]),
    "lu-wide": (lambda x: (lax.lu(x)[0],), lambda r, d: [_general(r, (3, 5), d)]),
    "lu-tall": (lambda x: (lax.lu(x)[0],), lambda r, d: [_general(r, (5, 3), d)]),
    "qr-tall": (lambda x: lax.qr(x, full_matrices=False), lambda r, d: [_general(r, (5, 3), d)]),
    "qr-square": (lambda x: lax.qr(x), lambda r, d: [_general(r, (3, 3), d)]),
    "eigh": (lambda x: (lambda v, w: (w, _phase_fix(v)))(*lax.eigh(x)),
             lambda r, d: [_distinct_spectrum(r, (4, 4), d)]),
    "svd-values": (lambda x: (lax.svd(x, compute_uv=False),),
                   lambda r, d: [_general(r, (4, 3), d)]),
    "svd-square": (lambda x: (lambda u, s, vh: (s, _phase_fix(u), M.mH(_phase_fix(M.mH(vh)))))(
        *lax.svd(x)), lambda r, d: [_general(r, (3, 3), d)]),
    "svd-tall": (lambda x: (lambda u, s, vh: (s, _phase_fix(u), M.mH(_phase_fix(M.mH(vh)))))(
        *lax.svd(x, full_matrices=False)), lambda r, d: [_general(r, (5, 3), d)]),
    "svd-wide": (lambda x: (lambda u, s, vh: (s, _phase_fix(u), M.mH(_phase_fix(M.mH(vh)))))(
        *lax.svd(x, full_matrices=False)), lambda r, d: [_general(r, (3, 5), d)]),
    "eig-values": (lambda x: (lax.sort(lax.eig(x, compute_left_eigenvectors=False,
                                               compute_right_eigenvectors=False)[0]),),
                   lambda r, d: [_general(r, (3, 3), d)]),
}
OWN = ["cholesky", "triangular_solve", "lu", "qr", "eigh", "svd", "eig"]


def _inputs(name, dtype=np.float64, seed=0):
    return CASES[name][1](np.random.default_rng(seed), dtype)


def _fun(name):
    return CASES[name][0]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_jvp_matches_central_differences(name, dtype, jit):
    if dtype == np.complex128 and name == "eig-values":
        pytest.skip("complex eigenvalue ordering under perturbation: real inputs only")
    f = _fun(name)
    xs = _inputs(name, dtype)
    rng = np.random.default_rng(1)
    ts = [_general(rng, x.shape, dtype) * 0.1 for x in xs]
    g = xnp.jit(f) if jit else f
    _, tangents = xnp.jvp(g, tuple(xnp.asarray(x) for x in xs), tuple(xnp.asarray(t) for t in ts))
    for i, t_out in enumerate(tangents):
        def fi(*args, i=i):
            return f(*args)[i]

        h = 1e-6
        fd = (np.asarray(fi(*[xnp.asarray(x + h * t) for x, t in zip(xs, ts)]))
              - np.asarray(fi(*[xnp.asarray(x - h * t) for x, t in zip(xs, ts)]))) / (2 * h)
        assert_allclose(t_out, fd, rtol=RTOL_FD, atol=RTOL_FD, check_dtype=False,
                        err_msg=f"{name} output {i}")


def _inner(a, b):
    return float(np.real(np.sum(np.asarray(a) * np.asarray(b))))


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_vjp_is_transpose_of_jvp(name, jit):
    f = _fun(name)
    xs = _inputs(name)
    rng = np.random.default_rng(2)
    vs = [rng.standard_normal(x.shape) for x in xs]
    g = xnp.jit(f) if jit else f
    args = tuple(xnp.asarray(x) for x in xs)
    outs, jv = xnp.jvp(g, args, tuple(xnp.asarray(v) for v in vs))
    us = [rng.standard_normal(np.shape(o)).astype(np.asarray(o).dtype) for o in outs]
    _, pullback = xnp.vjp(g, *args)
    ju = pullback(tuple(xnp.asarray(u) for u in us))
    lhs = sum(_inner(u, j) for u, j in zip(us, jv))
    rhs = sum(_inner(j, v) for j, v in zip(ju, vs))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-9, atol=1e-9)


def test_triangular_solve_transpose_in_b():
    a = np.tril(_general(np.random.default_rng(0), (3, 3)))
    b = np.random.default_rng(1).standard_normal((3, 2))
    u = np.random.default_rng(2).standard_normal((3, 2))
    f = lambda b: lax.triangular_solve(a, b, left_side=True, lower=True)  # noqa: E731
    _, pullback = xnp.vjp(f, xnp.asarray(b))
    (ct,) = pullback(xnp.asarray(u))
    np.testing.assert_allclose(np.asarray(ct), np.linalg.solve(a.T, u), rtol=1e-12)


def _stack(f, xs, axes):
    """f over slices along each argument's batch axis (None: shared), stacked on axis 0."""
    n = next(x.shape[a] for x, a in zip(xs, axes) if a is not None)
    outs = [f(*[x if a is None else np.take(x, i, axis=a) for x, a in zip(xs, axes)])
            for i in range(n)]
    return [np.stack([np.asarray(o[k]) for o in outs]) for k in range(len(outs[0]))]


def _batched_inputs(name, axes):
    xs = [np.stack([x2 for x2 in (_inputs(name, seed=s)[i] for s in range(3))], axis=a)
          if a is not None else x for i, (x, a) in enumerate(zip(_inputs(name), axes))]
    return xs


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_vmap_matches_loop(name, jit):
    f = _fun(name)
    nargs = len(_inputs(name))
    axes_list = [(0,) * nargs, (2,) * nargs, (-1,) * nargs]
    if nargs == 2:
        axes_list += [(0, None), (None, 1)]
    for axes in axes_list:
        xs = _batched_inputs(name, axes)
        expected = _stack(f, xs, axes)
        vf = xnp.vmap(f, in_axes=axes)
        got = (xnp.jit(vf) if jit else vf)(*[xnp.asarray(x) for x in xs])
        for g, e in zip(got, expected):
            assert_allclose(g, e, kind="reduction", err_msg=f"{name} in_axes={axes}")


# --------------------------------------------------------------------------- failures


@pytest.mark.parametrize("jit", [False, True])
def test_cholesky_not_positive_definite_is_nan(jit):
    x = np.stack([_spd(np.random.default_rng(0), (3, 3)), -np.eye(3)])
    f = xnp.jit(lax.cholesky) if jit else lax.cholesky
    out = np.asarray(f(x))
    np.testing.assert_allclose(out[0], np.linalg.cholesky(x[0]), rtol=1e-12)
    assert np.isnan(out[1]).all()


@pytest.mark.parametrize("jit", [False, True])
def test_eigh_svd_nan_input_gives_nan(jit):
    x = np.full((2, 2), np.nan)
    wrap = xnp.jit if jit else (lambda f: f)
    assert np.isnan(np.asarray(wrap(lambda a: lax.svd(a, compute_uv=False))(x))).all()


@pytest.mark.parametrize("jit", [False, True])
def test_lu_of_singular_matrix_has_zero_pivot(jit):
    x = np.array([[1.0, 2.0], [2.0, 4.0]])
    f = xnp.jit(lax.lu) if jit else lax.lu
    lu, piv, perm = (np.asarray(o) for o in f(x))
    assert lu[1, 1] == 0
    np.testing.assert_array_equal(perm, [1, 0])


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("cond", [1e4, 1e10])
def test_reconstruction_of_ill_conditioned_input(cond, jit):
    rng = np.random.default_rng(3)
    q1, _ = np.linalg.qr(rng.standard_normal((2, 6, 6)))
    q2, _ = np.linalg.qr(rng.standard_normal((2, 6, 6)))
    s = np.logspace(0, -np.log10(cond), 6)
    a = (q1 * s[None, None, :]) @ q2
    wrap = xnp.jit if jit else (lambda f: f)
    tol = 1e-12

    q, r = (np.asarray(o) for o in wrap(lambda x: lax.qr(x))(a))
    np.testing.assert_allclose(q @ r, a, atol=tol)
    u, sv, vh = (np.asarray(o) for o in wrap(lambda x: lax.svd(x))(a))
    np.testing.assert_allclose((u * sv[..., None, :]) @ vh, a, atol=tol)
    np.testing.assert_allclose(sv, np.broadcast_to(s, sv.shape), rtol=1e-6, atol=tol)
    lu, _, perm = (np.asarray(o) for o in wrap(lax.lu)(a))
    lower = np.tril(lu, -1) + np.eye(6)
    upper = np.triu(lu)
    np.testing.assert_allclose(lower @ upper, np.take_along_axis(a, perm[..., None], 1), atol=tol)
    h = a @ np.swapaxes(a, -1, -2)
    v, w = (np.asarray(o) for o in wrap(lambda x: lax.eigh(x))(h))
    np.testing.assert_allclose((v * w[..., None, :]) @ np.swapaxes(v, -1, -2), h, atol=tol)


def test_qr_jvp_wide_raises():
    x = xnp.asarray(np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="xnp.lax.qr"):
        xnp.jvp(lambda a: lax.qr(a, full_matrices=False), (x,), (x,))

# eig's eigenvector derivatives: tests/lax/test_eig_jvp.py
