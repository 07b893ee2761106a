"""``xnp.linalg`` continued: norms, condition numbers, rank, least squares, the
pseudo-inverse and the products/utilities ``numpy.linalg`` offers (``matrix_power``,
``multi_dot``, ``cross``, ``trace``, ``diagonal``, ``outer``, ``tensorsolve``,
``tensorinv``). Compositions of :mod:`xnp.numpy_api.linalg` and the NumPy surface;
the common rules are in that module's docstring.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
from xnp.numpy_api import elementwise as _ew
from xnp.numpy_api import products as _products
from xnp.numpy_api._shape_views import read_only_view
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api import transcendental as _tr
from xnp.numpy_api._util import (asarray_for, binary_operands, broadcast_shapes,
                                 broadcast_to_rank, normalize_axis, normalize_axes, promote_to,
                                 result_dtype, write_out)
from xnp.numpy_api.linalg import (LinAlgError, _inv, cast, check_converged, concrete, inv,
                                     linalg_dtype, singular_values, solve, stacked, svd)
from xnp.tracing import ShapedArray, core
from xnp.tracing.custom_derivatives import custom_jvp

__all__ = ["norm", "matrix_norm", "vector_norm", "cond", "matrix_rank", "pinv", "lstsq",
           "matrix_power", "multi_dot", "cross", "trace", "diagonal", "outer", "tensorsolve",
           "tensorinv"]


def _shape(x):
    return core.aval_of(x).shape


def _real_dtype(x) -> np.dtype:
    return np.dtype(np.finfo(core.aval_of(x).dtype).dtype)


def _svdvals_raw(x):
    """Singular values of the stacked matrices ``x``, checked for convergence eagerly."""
    return singular_values(x)


# --------------------------------------------------------------------------- norms


def _abs2(x):
    if core.aval_of(x).dtype.kind == "c":
        return _ew.add(_ew.square(_lg.real(x)), _ew.square(_lg.imag(x)))
    return _ew.multiply(x, x)


def _root_of_sum(total, root):
    """``root(total)`` of a sum of non-negative terms whose derivative is 0 where ``total``
    is 0: the minimum-norm subgradient of a norm at the zero vector (the plain chain
    rule gives ``inf * 0 = NaN`` there). Same value; the branch not taken gets 1."""
    if not isinstance(total, core.Tracer):
        return root(total)
    dt = core.aval_of(total).dtype
    zero, one = M.scalar(0, dt), M.scalar(1, dt)
    at_zero = lax.eq(total, zero)
    return lax.select(at_zero, zero, root(lax.select(at_zero, one, total)))


def _euclidean(sum_sq):
    return _root_of_sum(sum_sq, _tr.sqrt)


def _vector_norm(x, axis, ord, keepdims):
    if ord == np.inf:
        return _rd.max(_ew.abs(x), axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return _rd.min(_ew.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        nz = cast(_lg.not_equal(x, 0), _real_dtype(x))
        return _rd.sum(nz, axis=axis, keepdims=keepdims)
    if ord == 1:
        return _rd.sum(_ew.abs(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return _euclidean(_rd.sum(_abs2(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    p = float(ord)
    total = _rd.sum(_ew.power(_ew.abs(x), p), axis=axis, keepdims=keepdims)
    if p > 1:  # |x| ** p has derivative 0 at 0
        return _root_of_sum(total, lambda t: _ew.power(t, 1.0 / p))
    return _ew.power(total, 1.0 / p)


def _flat_norm(x):
    """The 2-norm of ``x`` flattened: one general composite (eagerly ``numpy.linalg.norm``,
    the eager backend's kernel, a dot product where the decomposition sums squares)."""
    dt = core.aval_of(x).dtype
    real = _real_dtype(x) if dt.kind == "c" else dt
    return lax.composite_general("linalg.norm", _flat_norm_decomposition, x,
                                 out_avals=(ShapedArray((), real),))[0]


def _flat_norm_decomposition(x):
    return [_euclidean(_rd.sum(_abs2(_mn.ravel(x))))]


def _matrix_norm(x, row, col, ord, keepdims):
    if ord in (2, -2, "nuc"):
        s = _svdvals_raw(_mn.moveaxis(x, (row, col), (-2, -1)))
        res = {2: _rd.max, -2: _rd.min, "nuc": _rd.sum}[ord](s, axis=-1)
    elif ord in (1, -1):
        red = _rd.max if ord == 1 else _rd.min
        res = red(_rd.sum(_ew.abs(x), axis=row), axis=col - (col > row))
    elif ord in (np.inf, -np.inf):
        red = _rd.max if ord == np.inf else _rd.min
        res = red(_rd.sum(_ew.abs(x), axis=col), axis=row - (row > col))
    elif ord in (None, "fro", "f"):
        res = _euclidean(_rd.sum(_abs2(x), axis=(row, col)))
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(_shape(x))
        shape[row] = shape[col] = 1
        res = _mn.reshape(res, tuple(shape))
    return res


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (``numpy.linalg.norm``).

    Parameters
    ----------
    x : array_like
        Ints/bool compute in float64.
    ord : {None, 'fro', 'nuc', inf, -inf, int, float}
        Vector norms (one axis): None/2 (Euclidean), inf, -inf, 0 (count of non-zeros),
        1, any other p (``sum(|x|^p)^(1/p)``). Matrix norms (two axes): None/'fro',
        'nuc', 1, -1, 2, -2, inf, -inf, as NumPy.
    axis : None, int or 2-tuple of ints
        Static. None: all of a 1-D or 2-D ``x`` (with ``ord=None`` any rank, flattened).
    keepdims : bool

    Returns
    -------
    Array
        Real dtype of ``x`` (float64 for ints/bool).

    Raises
    ------
    ValueError
        Invalid ``ord`` for the number of axes, or ``axis`` not 1 or 2 axes.
    numpy.exceptions.AxisError
        An axis is out of range.
    numpy.linalg.LinAlgError
        Eagerly, the SVD (ord 2, -2, 'nuc') did not converge (NaN input).

    Notes
    -----
    The Euclidean, Frobenius and ``p > 1`` norms have derivative 0 at the zero vector
    (the minimum-norm subgradient; the chain rule through ``sqrt`` would give NaN).
    """
    xv = asarray_for("linalg.norm", x, "x")
    dt = core.aval_of(xv).dtype
    if dt.kind in "biu":
        xv = cast(xv, linalg_dtype("norm", dt))
    nd = len(_shape(xv))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            res = _flat_norm(xv)
            return _mn.reshape(res, (1,) * nd) if keepdims else res
        axis = tuple(range(nd))
    axes = tuple(normalize_axis("linalg.norm", ax, nd)  # in order: (row, col) matters
                 for ax in (axis if isinstance(axis, tuple) else (axis,)))
    if len(axes) == 1:
        return _vector_norm(xv, axes[0], ord, keepdims)
    if len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError("Duplicate axes given.")
        return _matrix_norm(xv, axes[0], axes[1], ord, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Norm of the matrices in the last two axes (``numpy.linalg.matrix_norm``); ``ord``
    as in :func:`norm` for two axes. Raises ``LinAlgError`` for rank < 2."""
    xv = asarray_for("linalg.matrix_norm", x, "x")
    if len(_shape(xv)) < 2:
        raise LinAlgError(f"{len(_shape(xv))}-dimensional array given. Array must be at least "
                          "two-dimensional")
    return norm(xv, ord=ord, axis=(-2, -1), keepdims=keepdims)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm over ``axis`` (``numpy.linalg.vector_norm``): None flattens; a tuple of
    axes is treated as one flattened axis. ``ord`` as in :func:`norm` for one axis."""
    xv = asarray_for("linalg.vector_norm", x, "x")
    shape = _shape(xv)
    nd = len(shape)
    if axis is None:
        res = norm(_mn.ravel(xv), ord=ord, axis=0)
        axes = tuple(range(nd))
    else:
        axes = normalize_axes("linalg.vector_norm", axis, nd) if isinstance(axis, tuple) \
            else (normalize_axis("linalg.vector_norm", axis, nd),)
        rest = tuple(i for i in range(nd) if i not in axes)
        moved = _mn.transpose(xv, rest + axes)
        merged = _mn.reshape(moved, tuple(shape[i] for i in rest) + (-1,))
        res = norm(merged, ord=ord, axis=-1)
    if keepdims:
        res = _mn.reshape(res, tuple(1 if i in axes else n for i, n in enumerate(shape)))
    return res


def cond(x, p=None):
    """Condition number (``numpy.linalg.cond``).

    ``p``: None/2/-2 (ratio of extreme singular values, any (..., M, N)) or a matrix
    norm order ('fro', 'nuc', 1, -1, inf, -inf; square input, ``norm(x) * norm(inv(x))``).
    Result real, shape (...). A singular matrix gives inf (NaN stays NaN only where the
    input has NaN), as NumPy. Raises ``LinAlgError`` for rank < 2, for empty matrices
    (a dimension of size 0 in the last two, as NumPy: checked first, so also for a 1-D
    empty ``x`` or a float16 one), non-square input with a norm order
    and, eagerly, where the SVD does not converge (a NaN entry); an inf entry gives inf,
    as NumPy.
    """
    xv = asarray_for("linalg.cond", x, "x")
    if 0 in _shape(xv)[-2:]:  # NumPy's first check, before the rank's and the dtype's
        raise LinAlgError("cond is not defined on empty arrays")
    xv = stacked("cond", xv)
    if p is None or p == 2 or p == -2:
        # one general composite: eagerly an SVD without vectors and a division
        name, decomposition = ("linalg.cond_inverse", _cond_inverse) if p == -2 else (
            "linalg.cond", _cond)
        out = ShapedArray(_shape(xv)[:-2], _real_dtype(xv))
        return lax.composite_general(name, decomposition, xv, out_avals=(out,))[0]
    xv = stacked("cond", xv, square=True)
    _, invx = _inv(xv)
    return _inf_where_nan(_ew.multiply(norm(xv, p, axis=(-2, -1)), norm(invx, p, axis=(-2, -1))),
                          xv)


def _inf_where_nan(r, x):
    """``r`` with inf for NaN where the matrix of ``x`` it comes from has no NaN."""
    input_nan = _rd.any(_lg.isnan(x), axis=(-2, -1))
    return _ew.where_weak(_lg.logical_and(_lg.isnan(r), _lg.logical_not(input_nan)), np.inf, r)


def _cond_of_singular_values(x, inverse: bool):
    """``cond``'s decomposition for ``p`` None/2 (``s[0] / s[-1]``) or -2 (``inverse``)."""
    s = _svdvals_raw(x)
    first, last = s[..., 0], s[..., -1]
    return [_inf_where_nan(_ew.divide(last, first) if inverse else _ew.divide(first, last), x)]


def _cond(x):
    return _cond_of_singular_values(x, inverse=False)


def _cond_inverse(x):
    return _cond_of_singular_values(x, inverse=True)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank by counting singular values above a threshold (``numpy.linalg.matrix_rank``).

    ``tol`` (absolute) or ``rtol`` (relative to the largest singular value; default
    ``max(M, N) * eps``). ``hermitian`` uses ``|eigvalsh|``. Rank < 2 input: 1 unless all
    zero. Empty matrices (``M`` or ``N`` zero) have rank 0. Result: int64, shape (...).
    """
    xv = asarray_for("linalg.matrix_rank", A, "A")
    if len(_shape(xv)) < 2:
        return cast(_rd.any(_lg.not_equal(xv, 0)), np.dtype(np.int64))
    xv = stacked("matrix_rank", xv)
    if hermitian:
        from xnp.numpy_api.linalg import eigvalsh  # noqa: PLC0415

        s = _ew.abs(eigvalsh(xv))
    else:
        s = _svdvals_raw(xv)
    if tol is None and _shape(s)[-1] == 0:  # no singular values: rank 0 (no max to take)
        tol = 0
    elif tol is None:
        if rtol is None:
            rtol = max(_shape(xv)[-2:]) * np.finfo(_real_dtype(xv)).eps
        else:
            rtol = _mn.expand_dims(asarray_for("linalg.matrix_rank", rtol, "rtol"), -1)
        tol = _ew.multiply(_rd.max(s, axis=-1, keepdims=True), rtol)
    else:
        tol = _mn.expand_dims(asarray_for("linalg.matrix_rank", tol, "tol"), -1)
    return cast(_rd.count_nonzero(_lg.greater(s, tol), axis=-1), np.dtype(np.int64))


_NO_VALUE = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """Moore-Penrose pseudo-inverse via the SVD (``numpy.linalg.pinv``).

    ``a``: (..., M, N) -> (..., N, M). Singular values at most ``rcond * max(s)`` are
    treated as zero; ``rcond`` defaults to 1e-15, or to ``max(M, N) * eps`` when
    ``rtol=None`` is passed; ``rtol`` replaces ``rcond`` (both raise ``ValueError``).
    ``hermitian`` is accepted (the general SVD is used).

    A matrix with an infinite entry and no NaN gives NaN (its singular values are NaN, as
    in NumPy). NumPy's own result there is what its LAPACK's gesdd happens to return for
    the singular vectors: all zeros or all NaN depending on where the inf is, some NaN
    columns for complex matrices, and for some 3x3 and larger matrices gesdd does not
    return at all; xnp never calls LAPACK on such a matrix. A NaN entry raises
    ``LinAlgError`` eagerly, as NumPy.
    """
    xv = stacked("pinv", a)
    shape = _shape(xv)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(shape[-2:]) * np.finfo(_real_dtype(xv)).eps
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if 0 in shape:
        return lax.broadcast_in_dim(M.scalar(0, core.aval_of(xv).dtype),
                                    shape[:-2] + (shape[-1], shape[-2]), ())
    rc = asarray_for("linalg.pinv", rcond, "rcond")
    if isinstance(xv, core.Tracer):  # (the rule only where a transformation can see it)
        return _pinv_differentiable(xv, rc)
    return _pinv(xv, rc)


def _pinv(xv, rc):
    u, s, vh = svd(xv, full_matrices=False)
    cutoff = _ew.multiply(_mn.expand_dims(rc, -1), _rd.max(s, axis=-1, keepdims=True))
    large = _lg.greater(s, cutoff)
    safe = _ew.where_weak(large, s, 1)
    s_inv = _ew.where_weak(large, _ew.divide(1, safe), 0)
    s_inv = cast(_mn.expand_dims(s_inv, -1), core.aval_of(xv).dtype)
    return M.matmul(M.mH(vh), _ew.multiply(s_inv, M.mH(u)))


@custom_jvp
def _pinv_differentiable(x, rc):
    return _pinv(x, rc)


@_pinv_differentiable.defjvp
def _pinv_jvp(primals, tangents):
    """The derivative of the pseudo-inverse at constant rank (Golub and Pereyra, 1973):
    ``-P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P``, finite at every matrix (the
    SVD's own derivative divides by differences of singular values: NaN at a zero matrix).
    The cutoff ``rcond`` decides the rank: no derivative in it."""
    (x, rc), (t, _) = primals, tangents
    p = _pinv_differentiable(x, rc)
    mm, th, ph = M.matmul, M.mH(t), M.mH(p)
    right = mm(mm(p, ph), th)  # P P^H dA^H, then times (I - A P)
    left = mm(th, mm(ph, p))  # dA^H P^H P, after (I - P A)
    dp = lax.add(lax.neg(mm(mm(p, t), p)),
                 lax.add(lax.sub(right, mm(right, mm(x, p))), lax.sub(left, mm(mm(p, x), left))))
    return p, dp


def lstsq(a, b, rcond=None):
    """Least-squares solution of ``a @ x = b`` via the SVD (``numpy.linalg.lstsq``).

    ``a``: (M, N); ``b``: (M,) or (M, K). Singular values at most ``rcond * s[0]`` count
    as zero (default ``eps * max(M, N)``). Returns ``(x, residuals, rank, s)``: ``x``
    (N,) or (N, K); ``residuals`` the squared residual norms (K,) (or (1,) for 1-D
    ``b``) when ``M > N``, else empty; ``rank`` int32; ``s`` the singular values.

    Differences: NumPy returns empty residuals also when ``rank < N``; xnp does so
    eagerly, but under ``jit`` (rank unknown when tracing) returns the residual norms.

    Raises
    ------
    numpy.linalg.LinAlgError
        ``a`` not 2-D, ``b`` not 1-D/2-D, or the row counts differ; eagerly, the SVD
        did not converge.
    """
    xa = asarray_for("linalg.lstsq", a, "a")
    xb = asarray_for("linalg.lstsq", b, "b")
    if len(_shape(xa)) != 2:
        raise LinAlgError(f"{len(_shape(xa))}-dimensional array given. Array must be "
                          "two-dimensional")
    dt = linalg_dtype("lstsq", core.aval_of(xa).dtype, core.aval_of(xb).dtype)
    xa, xb = cast(xa, dt), cast(xb, dt)
    is_1d = len(_shape(xb)) == 1
    if is_1d:
        xb = _mn.expand_dims(xb, 1)
    if len(_shape(xb)) != 2:
        raise LinAlgError(f"{len(_shape(xb))}-dimensional array given. Array must be "
                          "two-dimensional")
    (m, n), (m2, k) = _shape(xa), _shape(xb)
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = float(np.finfo(dt).eps * max(n, m))  # (exact in the singular values' dtype)
    rdt = np.dtype(np.finfo(dt).dtype)
    if type(rcond) in (int, float) and 0 <= rcond < np.inf:
        # one general composite (eagerly LAPACK's gelsd through numpy.linalg.lstsq, which
        # reads a negative rcond as machine precision); the Python number is converted to
        # the singular values' dtype, as their product with it does
        avals = (ShapedArray((n, k), dt), ShapedArray((k if m > n else 0,), rdt),
                 ShapedArray((), np.dtype(np.int32)), ShapedArray((min(m, n),), rdt))
        x, resid, rank, s = lax.composite_general("linalg.lstsq", _lstsq, xa, xb,
                                                  M.scalar(rcond, rdt), out_avals=avals)
    else:
        x, resid, rank, s = _lstsq(xa, xb, rcond)
    if m > n:
        r = concrete(rank)
        if r is not None and int(r) < n:
            resid = lax.broadcast_in_dim(M.scalar(0, rdt), (0,), ())
    if is_1d:
        x = x[:, 0]
    return x, resid, rank, s


#: NumPy's ``lstsq`` error (also the kernel's, backends/xp_impls/composite.py)
_LSTSQ_DID_NOT_CONVERGE = "SVD did not converge in Linear Least Squares"


def _lstsq(a, b, rcond):
    """``lstsq``'s decomposition for ``a`` (M, N), ``b`` (M, K): ``[x, residuals, rank, s]``
    through the SVD, the residuals for every column of ``b`` where ``M > N`` (``lstsq``
    drops them eagerly where the rank is below N)."""
    m, n = _shape(a)
    try:
        u, s, vh = svd(a, full_matrices=False)
    except LinAlgError:  # the SVD's own error (a NaN entry), eagerly: in lstsq's words
        raise LinAlgError(_LSTSQ_DID_NOT_CONVERGE) from None
    check_converged("lstsq", s, _LSTSQ_DID_NOT_CONVERGE)  # (also for an inf entry, as gelsd)
    cutoff = _ew.multiply(rcond, _rd.max(s, initial=0.0))
    large = _lg.greater(s, cutoff)
    s_inv = _ew.where_weak(large, _ew.divide(1, _ew.where_weak(large, s, 1)), 0)
    s_inv = cast(_mn.expand_dims(s_inv, -1), core.aval_of(a).dtype)
    x = M.matmul(M.mH(vh), _ew.multiply(s_inv, M.matmul(M.mH(u), b)))
    rank = cast(_rd.count_nonzero(large), np.dtype(np.int32))
    if m > n:
        resid = _rd.sum(_abs2(_ew.subtract(b, M.matmul(a, x))), axis=0)
    else:
        resid = lax.broadcast_in_dim(M.scalar(0, core.aval_of(s).dtype), (0,), ())
    return [x, resid, rank, s]


# --------------------------------------------------------------------------- products


def matrix_power(a, n):
    """``a`` raised to the integer power ``n`` (``numpy.linalg.matrix_power``).

    ``a``: (..., M, M), any numeric dtype for ``n >= 0`` (kept); ``n < 0`` inverts first
    (linalg dtype; ``LinAlgError`` eagerly if singular). ``n`` must be a Python/NumPy
    integer (``TypeError`` otherwise). ``n == 0`` gives identities of ``a``'s dtype.
    """
    xv = asarray_for("linalg.matrix_power", a, "a")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    shape = _shape(xv)
    if len(shape) < 2:
        raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if shape[-1] != shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    if n == 0:
        nb = len(shape) - 2
        return lax.broadcast_in_dim(M.eye(shape[-1], core.aval_of(xv).dtype), shape,
                                    (nb, nb + 1))
    if n < 0:
        xv, n = inv(xv), -n
    result, base = None, xv
    while n:
        if n & 1:
            result = base if result is None else _products.matmul(result, base)
        n >>= 1
        if n:
            base = _products.matmul(base, base)
    return result


def _chain_order(dims):
    """Optimal parenthesisation of a matrix chain (``dims``: n+1 sizes) by dynamic
    programming; returns the split table."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays, *, out=None):
    """Product of two or more matrices in the cheapest order (``numpy.linalg.multi_dot``).

    The first array may be 1-D (a row vector) and the last 1-D (a column vector); the
    others must be 2-D. Shapes are static, so the order is chosen when tracing.

    Raises
    ------
    ValueError
        Fewer than two arrays.
    numpy.linalg.LinAlgError
        An inner array is not 2-D.
    """
    xs = [asarray_for("linalg.multi_dot", a, "arrays") for a in arrays]
    if len(xs) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(xs) == 2:
        return write_out("linalg.multi_dot", out, _products.dot(xs[0], xs[1]))
    first_1d, last_1d = len(_shape(xs[0])) == 1, len(_shape(xs[-1])) == 1
    if first_1d:
        xs[0] = _mn.expand_dims(xs[0], 0)
    if last_1d:
        xs[-1] = _mn.expand_dims(xs[-1], 1)
    for x in xs:
        if len(_shape(x)) != 2:
            raise LinAlgError(f"{len(_shape(x))}-dimensional array given. Array must be "
                              "two-dimensional")
    split = _chain_order([_shape(xs[0])[0]] + [_shape(x)[1] for x in xs])

    def product(i, j):
        if i == j:
            return xs[i]
        k = split[i][j]
        return _products.dot(product(i, k), product(k + 1, j))

    res = product(0, len(xs) - 1)
    if first_1d and last_1d:
        res = res[0, 0]
    elif first_1d or last_1d:
        res = _mn.ravel(res)
    return write_out("linalg.multi_dot", out, res)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along ``axis`` (``numpy.linalg.cross``); other
    dimensions broadcast. Raises ``ValueError`` unless both have length 3 there. Eagerly
    one call of NumPy's ``cross`` for operands of a dtype it has loops for (a general
    composite, ``xnp.lax.composite_general``); under ``jit`` and transformations the same
    products and differences (``a1 * b2 - a2 * b1``, ...)."""
    a, b, _ = binary_operands("linalg.cross", x1, x2, ufunc=False)
    sa, sb = _shape(a), _shape(b)
    if not sa or not sb or sa[axis] != 3 or sb[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {sa[axis] if sa else 0} and {sb[axis] if sb else 0} "
                         "dimensional instead.")
    ax = normalize_axis("linalg.cross", axis, len(sa))
    c = vector_cross("linalg.cross", to_last(a, ax), to_last(b, ax))
    return from_last(c, ax)


def to_last(v, ax: int):
    """``v`` with axis ``ax`` (non-negative) moved to the end; ``v`` where it is there."""
    return v if ax == len(_shape(v)) - 1 else _mn.moveaxis(v, ax, -1)


def from_last(v, ax: int):
    """``v`` with its last axis moved to ``ax`` (non-negative); ``v`` where it is there."""
    return v if ax == len(_shape(v)) - 1 else _mn.moveaxis(v, -1, ax)


def vector_cross(fname, a, b):
    """Cross products of the vectors along the last axes of the arrays ``a`` and ``b``
    (2 or 3 entries each; the other dimensions broadcast) in their promoted dtype, as
    ``numpy.cross`` computes them: one general composite, eagerly NumPy's ``cross``
    (xnp/backends/xp_impls/composite.py). Two 2-vectors give the z component only."""
    av_a, av_b = core.aval_of(a), core.aval_of(b)
    dt, _ = result_dtype(av_a, av_b)
    a, b = promote_to(fname, a, dt), promote_to(fname, b, dt)
    batch = broadcast_shapes(fname, av_a.shape[:-1], av_b.shape[:-1])
    a, b = broadcast_to_rank(a, len(batch) + 1), broadcast_to_rank(b, len(batch) + 1)
    n = (av_a.shape[-1], av_b.shape[-1])
    out = ShapedArray(batch if n == (2, 2) else batch + (3,), dt)
    return lax.composite_general("cross", _vector_cross, a, b, out_avals=(out,))[0]


def _vector_cross(a, b):
    """The decomposition of ``cross``: NumPy's products and differences; for a 2-vector
    those of NumPy's branch for it, whose missing entry is no operand (``a1 * b2`` where
    the 3-vector formula has ``a1 * b2 - 0 * b1``, which is NaN for an infinite ``b1``)."""
    na, nb = _shape(a)[-1], _shape(b)[-1]
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if na == 2 and nb == 2:
        return [z]
    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif na == 2:
        b2 = b[..., 2]
        x, y = a1 * b2, -(a0 * b2)
    else:
        a2 = a[..., 2]
        x, y = -(a2 * b1), a2 * b0
    return [_mn.stack([x, y, z], axis=-1)]


def diagonal(x, /, *, offset=0):
    """The ``offset``-th diagonals of the matrices in the last two axes
    (``numpy.linalg.diagonal``): shape (..., L). As NumPy, a read-only view of ``x``
    (see ``xnp.diagonal``). Raises ``ValueError`` for rank < 2."""
    xv = asarray_for("linalg.diagonal", x, "x")
    if len(_shape(xv)) < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    k = operator.index(offset)
    return read_only_view(xv, lambda b: M.diagonal(b, k),
                          lambda v: np.diagonal(v, k, -2, -1))


def trace(x, /, *, offset=0, dtype=None):
    """Sum of the ``offset``-th diagonals over the last two axes (``numpy.linalg.trace``);
    dtype as ``numpy.sum`` of the diagonal (or ``dtype``)."""
    return _rd.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1, x2, /):
    """Outer product of two 1-D arrays (``numpy.linalg.outer``; ``xnp.outer`` flattens
    instead). Raises ``ValueError`` for other ranks."""
    a = _products._asarray("linalg.outer", x1, "x1")  # (numpy.asarray's conversion)
    b = _products._asarray("linalg.outer", x2, "x2")
    na, nb = len(_shape(a)), len(_shape(b))
    if na != 1 or nb != 1:
        raise ValueError("xnp.linalg.outer: Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={na} and x2.ndim={nb} (x1 {_products._operand_str(a)}, "
                         f"x2 {_products._operand_str(b)}).")
    return _products.outer(a, b)


def tensorinv(a, ind=2):
    """Inverse of a tensor seen as a matrix of its first ``ind`` axes by the rest
    (``numpy.linalg.tensorinv``): result shape ``a.shape[ind:] + a.shape[:ind]``."""
    xv = asarray_for("linalg.tensorinv", a, "a")
    shape = _shape(xv)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    rows = int(np.prod(shape[ind:]))
    ia = inv(_mn.reshape(xv, (rows, -1)))
    return _mn.reshape(ia, shape[ind:] + shape[:ind])


def tensorsolve(a, b, axes=None):
    """Solve ``tensordot(a, x, axes=x.ndim) = b`` for ``x`` (``numpy.linalg.tensorsolve``);
    ``axes`` of ``a`` are moved to the end first."""
    xa = asarray_for("linalg.tensorsolve", a, "a")
    xb = asarray_for("linalg.tensorsolve", b, "b")
    an = len(_shape(xa))
    if axes is not None:
        order = [k for k in range(an) if k not in [normalize_axis("linalg.tensorsolve", ax, an)
                                                   for ax in axes]]
        order += [normalize_axis("linalg.tensorsolve", ax, an) for ax in axes]
        xa = _mn.transpose(xa, tuple(order))
    old = _shape(xa)[-(an - len(_shape(xb))):]
    prod = int(np.prod(old))
    if int(np.prod(_shape(xa))) != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    res = solve(_mn.reshape(xa, (prod, prod)), _mn.ravel(xb))
    return _mn.reshape(res, old)
