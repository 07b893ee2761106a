"""Lowering rules of the decompositions (``xnp.lax.decompositions``), CPU only.

Each is one of jaxlib's LAPACK custom calls (see ``_lapack``) plus a little
post-processing written with lax functions and lowered inline (``_lower_fun``):

* cholesky: ``potrf`` (lower), then the upper triangle zeroed;
* triangular_solve: BLAS ``trsm`` (conjugation without transposition applied to
  ``a`` first); XLA's native ``stablehlo.triangular_solve`` would also do, but its
  expansion takes about 0.5 s to compile;
* lu: ``getrf``; pivots made 0-based and turned into the permutation by applying
  the row swaps in a loop;
* qr: ``geqrf`` then ``orgqr``/``ungqr`` on the reflectors (zero-padded to ``m x m``
  for a full ``q`` of a tall matrix), ``r`` the upper triangle;
* eigh: ``syevd``/``heevd``; svd: ``gesdd`` (mode A, S or N); eig: ``geev``.

A batch element whose ``info`` is not 0 gets NaN outputs (``lu`` excepted: a zero
pivot is a valid factorisation). Matrices with a zero dimension never reach LAPACK:
their outputs are built directly (identities where NumPy gives them).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering import _lapack
from xnp.backends.xla.lowering._core import lowering
from xnp.lax import _matrix as M
from xnp.tracing import ShapedArray, core
from xnp.tracing.jaxpr_transforms import trace_flat

__all__ = []


def _lower_fun(ctx, fun, *values):
    """Inline the lax function ``fun(*values) -> list`` here."""
    closed = trace_flat(lambda *xs: list(fun(*xs)), [v.aval for v in values],
                        name="decomposition")
    consts = [ctx.constant(np.asarray(c._value if type(c) is core.Array else c))
              for c in closed.consts]
    return ctx.lower_jaxpr(closed.jaxpr, consts, list(values))


def _nan_unless_ok(info, *xs):
    """``xs`` with NaN in every batch element whose ``info`` is not 0."""
    ok = lax.eq(info, M.scalar(0, np.int32))
    nb = core.aval_of(info).ndim
    out = []
    for x in xs:
        a = core.aval_of(x)
        ok_x = lax.broadcast_in_dim(ok, a.shape, tuple(range(nb)))
        out.append(lax.select_n(ok_x, M.scalar(np.nan, a.dtype), x))
    return out


def _trivial(ctx, avals):
    """Outputs of a decomposition of empty matrices: identities for non-empty square
    outputs (the ``u``/``q`` of a matrix with no columns), zeros otherwise."""
    outs = []
    for a in avals:
        if a.size and a.ndim >= 2 and a.shape[-1] == a.shape[-2]:
            outs.append(_lower_fun(ctx, lambda: [lax.broadcast_in_dim(
                M.eye(a.shape[-1], a.dtype, 0), a.shape, (a.ndim - 2, a.ndim - 1))])[0])
        else:
            outs.append(ctx.broadcast_in_dim(ctx.constant(0, a.dtype), a.shape, ()))
    return outs


def _is_empty(aval) -> bool:
    return aval.size == 0


def _matrix_lowering(prim):
    """Register ``fn(ctx, a, aval, batch, nbatch, **params)`` as ``prim``'s lowering;
    inputs with a zero dimension never reach it (see :func:`_trivial`)."""

    def register(fn):
        @lowering(prim)
        def rule(ctx, a, **params):
            (aval,) = ctx.avals_in
            if _is_empty(aval):
                return _trivial(ctx, ctx.avals_out)
            return fn(ctx, a, aval, aval.shape[:-2], aval.ndim - 2, **params)

        return fn

    return register


# --------------------------------------------------------------------------- cholesky


@_matrix_lowering(lax.cholesky_p)
def _lower_cholesky(ctx, a, aval, batch, nb):
    out, info = _lapack.custom_call(ctx, _lapack.target("potrf", aval.dtype), [a],
                                    [aval, _lapack.info_aval(batch)], nbatch=nb,
                                    config={"uplo": "L"}, aliases={0: 0})
    return _lower_fun(ctx, lambda x, i: _nan_unless_ok(i, M.tril(x)), out, info)


# --------------------------------------------------------------------------- triangular_solve


@lowering(lax.triangular_solve_p)
def _lower_triangular_solve(ctx, a, b, *, left_side, lower, transpose_a, conjugate_a,
                            unit_diagonal):
    (out_aval,) = ctx.avals_out
    if _is_empty(out_aval):
        return _trivial(ctx, ctx.avals_out)
    if conjugate_a and not transpose_a:
        (a,) = _lower_fun(ctx, lambda x: [lax.conj(x)], a)
    config = {"side": "L" if left_side else "R", "uplo": "L" if lower else "U",
              "trans_x": ("C" if conjugate_a else "T") if transpose_a else "N",
              "diag": "U" if unit_diagonal else "N"}
    return _lapack.custom_call(ctx, _lapack.target("trsm", out_aval.dtype), [a, b], [out_aval],
                               nbatch=out_aval.ndim - 2, config=config, aliases={0: 1})


# --------------------------------------------------------------------------- lu


def _pivots_to_permutation(pivots, m: int):
    """The row order after applying the swaps ``i <-> pivots[..., i]`` in turn: one loop
    step per swap, each reading and writing two entries per batch element."""
    pa = core.aval_of(pivots)
    nb, k = pa.ndim - 1, pa.shape[-1]
    i32 = np.dtype(np.int32)
    rows = lax.iota(i32, pa.shape[:-1] + (m,), nb)

    def body(i, perm):
        i = lax.convert_element_type(i, i32)
        j = lax.dynamic_slice_in_dim(pivots, i, 1, nb)  # (..., 1)
        p_i = lax.dynamic_slice_in_dim(perm, i, 1, nb)
        p_j = M.take_along(perm, j, nb)
        return M.put_along(lax.dynamic_update_slice_in_dim(perm, p_j, i, nb), j, p_i, nb)

    return lax.fori_loop(0, k, body, rows)


@lowering(lax.lu_p)
def _lower_lu(ctx, a):
    (aval,) = ctx.avals_in
    lu_aval, piv_aval, perm_aval = ctx.avals_out
    m = aval.shape[-2]
    if _is_empty(aval):
        iota = ctx.op("stablehlo.iota", [], perm_aval,
                      attrs=f"iota_dimension = {perm_aval.ndim - 1} : i64")
        return [a] + _trivial(ctx, [piv_aval]) + [iota]
    batch, nb = aval.shape[:-2], aval.ndim - 2
    lu, piv, _ = _lapack.custom_call(ctx, _lapack.target("getrf", aval.dtype), [a],
                                     [aval, piv_aval, _lapack.info_aval(batch)], nbatch=nb,
                                     aliases={0: 0})

    def post(p):
        p = lax.sub(p, M.scalar(1, np.int32))  # LAPACK's pivots are 1-based
        return [p, _pivots_to_permutation(p, m)]

    return [lu] + _lower_fun(ctx, post, piv)


# --------------------------------------------------------------------------- qr


@_matrix_lowering(lax.qr_p)
def _lower_qr(ctx, a, aval, batch, nb, *, full_matrices):
    q_aval, r_aval = ctx.avals_out
    *_, m, n = aval.shape
    k = min(m, n)
    tau_aval = ShapedArray(batch + (k,), aval.dtype)
    packed, tau = _lapack.custom_call(ctx, _lapack.target("geqrf", aval.dtype), [a],
                                      [aval, tau_aval], nbatch=nb, aliases={0: 0})
    q_cols = q_aval.shape[-1]

    def reflectors(x):  # the m x q_cols input of orgqr: the first columns, zero-padded
        if q_cols > n:
            x = lax.pad(x, M.scalar(0, aval.dtype), [(0, 0, 0)] * nb + [(0, 0, 0),
                                                                      (0, q_cols - n, 0)])
        elif q_cols < n:
            x = lax.slice(x, (0,) * aval.ndim, batch + (m, q_cols))
        return [x]

    (q_in,) = _lower_fun(ctx, reflectors, packed)
    (q,) = _lapack.custom_call(ctx, _lapack.target("orgqr", aval.dtype, "ungqr"), [q_in, tau],
                               [q_aval], nbatch=nb, aliases={0: 0})
    rows = r_aval.shape[-2]
    (r,) = _lower_fun(ctx, lambda x: [M.triu(lax.slice(x, (0,) * aval.ndim, batch + (rows, n)))],
                      packed)
    return [q, r]


# --------------------------------------------------------------------------- eigh, svd, eig


@_matrix_lowering(lax.eigh_p)
def _lower_eigh(ctx, a, aval, batch, nb, *, lower, sort_eigenvalues):
    v, w, info = _lapack.custom_call(
        ctx, _lapack.target("syevd", aval.dtype, "heevd"), [a],
        list(ctx.avals_out) + [_lapack.info_aval(batch)], nbatch=nb,
        config={"mode": "V", "uplo": "L" if lower else "U"}, aliases={0: 0})
    return _lower_fun(ctx, _nan_unless_ok, info, v, w)


def _finite_or_nan(x):
    """``x`` with each non-finite entry NaN: gesdd does not return on some matrices with an
    infinite entry (float32, with vectors); with NaN it reports non-convergence."""
    aval = core.aval_of(x)
    if aval.dtype.kind == "c":
        finite = lax.and_(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    else:
        finite = lax.is_finite(x)
    nan = M.scalar(complex(np.nan, np.nan) if aval.dtype.kind == "c" else np.nan, aval.dtype)
    return lax.select_n(finite, lax.broadcast_in_dim(nan, aval.shape, ()), x)


@_matrix_lowering(lax.svd_p)
def _lower_svd(ctx, a, aval, batch, nb, *, full_matrices, compute_uv):
    (a,) = _lower_fun(ctx, lambda x: [_finite_or_nan(x)], a)
    if compute_uv:
        s_aval, u_aval, vt_aval = ctx.avals_out
        mode = "A" if full_matrices else "S"
    else:
        (s_aval,) = ctx.avals_out
        u_aval = vt_aval = ShapedArray(batch + (1, 1), aval.dtype)  # unused by mode N
        mode = "N"
    _, s, u, vt, info = _lapack.custom_call(
        ctx, _lapack.target("gesdd", aval.dtype), [a],
        [aval, s_aval, u_aval, vt_aval, _lapack.info_aval(batch)], nbatch=nb,
        config={"mode": mode}, aliases={0: 0})
    outs = [s, u, vt] if compute_uv else [s]
    return _lower_fun(ctx, _nan_unless_ok, info, *outs)


@_matrix_lowering(lax.eig_p)
def _lower_eig(ctx, a, aval, batch, nb, *, compute_left_eigenvectors,
               compute_right_eigenvectors):
    w_aval = ctx.avals_out[0]
    v_aval = ShapedArray(aval.shape, w_aval.dtype)
    config = {"compute_left": "V" if compute_left_eigenvectors else "N",
              "compute_right": "V" if compute_right_eigenvectors else "N"}
    name = _lapack.target("geev", aval.dtype)
    info = _lapack.info_aval(batch)
    if aval.dtype.kind == "c":
        w, vl, vr, info = _lapack.custom_call(ctx, name, [a], [w_aval, v_aval, v_aval, info],
                                              nbatch=nb, config=config)
        parts = [w]
    else:
        wr_aval = ShapedArray(w_aval.shape, aval.dtype)
        wr, wi, vl, vr, info = _lapack.custom_call(
            ctx, name, [a], [wr_aval, wr_aval, v_aval, v_aval, info], nbatch=nb, config=config)
        parts = [wr, wi]
    vecs = [vl] * compute_left_eigenvectors + [vr] * compute_right_eigenvectors

    def post(info, *xs):
        w = lax.complex(xs[0], xs[1]) if len(parts) == 2 else xs[0]
        return _nan_unless_ok(info, w, *xs[len(parts):])

    return _lower_fun(ctx, post, info, *parts, *vecs)
