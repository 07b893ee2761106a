"""The legacy ``numpy`` polynomial functions: coefficients highest power first.

``polyval``, ``polyadd``, ``polysub``, ``polymul``, ``polydiv``, ``polyder``,
``polyint``, ``polyfit``, ``roots``, ``poly`` and the ``poly1d`` class.

Everything traces under ``jit`` and differentiates (``polyval``, ``polyfit``
through ``xnp.linalg.lstsq``) except the data-dependent trimming NumPy does:
``roots`` strips leading/trailing zero coefficients and ``polydiv`` strips
leading ~zero remainder terms only eagerly (under ``jit`` ``roots`` needs
``strip_zeros=False``, and ``polydiv`` keeps the full-length remainder); ``poly``
returns real coefficients for conjugate-paired roots only eagerly. Degrees,
orders and lengths are static.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._scalars import scalar_result
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, default_float, promote_to, result_dtype
from xnp.numpy_api.convolve import convolve
from xnp.tracing import core, errors

__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint",
           "polyfit", "roots", "poly", "poly1d"]


def _asarray(fname, a, argname="p"):
    """NumPy's ``asarray``: Python scalars become strong 0-d arrays (an int beyond int64 a
    uint64 one, as NumPy makes it); poly1d its coeffs."""
    if isinstance(a, poly1d):
        return a.coeffs
    if type(a) is int and 2**63 <= a < 2**64:
        return core.lift(np.asarray(a, np.uint64))
    if core.is_python_scalar(a):
        return core.lift(_default_dtypes.scalar_to_ndarray(a))
    return asarray_for(fname, a, argname)


def _atleast_1d(fname, a, argname="p"):
    x = _asarray(fname, a, argname)
    return lax.reshape(x, (1,)) if core.aval_of(x).ndim == 0 else x


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype=dtype))


def _common(*xs):
    dt, _ = result_dtype(*(core.aval_of(x) for x in xs))
    return [promote_to("poly", x, dt) for x in xs], dt


def _float(x):
    """``x + 0.0`` as NumPy: ints/bool to the default float, floats/complex kept."""
    dt = core.aval_of(x).dtype
    return x if dt in kit.INEXACT else lax.convert_element_type(x, default_float())


def _wrap(result, *inputs):
    """A poly1d result when any input is a poly1d (NumPy's 'truepoly' rule)."""
    return poly1d(result) if any(isinstance(i, poly1d) for i in inputs) else result


def polyval(p, x):
    """Evaluate the polynomial with coefficients ``p`` (highest power first) at ``x``.

    Horner's scheme, unrolled over the static ``len(p)``. Dtype: the NEP 50
    promotion of ``p``'s and ``x``'s dtypes (both as arrays); shape: ``x``'s. A
    ``poly1d`` ``p`` uses its coefficients. Differentiable in ``p`` and ``x``.

    Raises
    ------
    TypeError
        ``p`` is 0-d.
    """
    c = _asarray("polyval", p)
    xs = _asarray("polyval", x, "x")
    if core.aval_of(c).ndim == 0:
        raise TypeError("xnp.polyval: iteration over a 0-d array (`p` must be 1-D)")
    (c, xs), dt = _common(c, xs)
    shape = core.aval_of(xs).shape
    y = lax.broadcast_in_dim(_const(0, dt), shape, ())
    for i in range(core.aval_of(c).shape[0]):
        ci = lax.index_in_dim(c, i, keepdims=False)  # computed (no eager indexing)
        y = lax.add(lax.mul(y, xs), lax.broadcast_in_dim(ci, shape, ()))
    return y


def _pad_front(a, n, dt):
    k = core.aval_of(a).shape[0]
    a = promote_to("poly", a, dt)
    return a if k == n else lax.pad(a, _const(0, dt), [(n - k, 0, 0)])


def _add_sub(fname, a1, a2, op):
    a, b = _atleast_1d(fname, a1, "a1"), _atleast_1d(fname, a2, "a2")
    dt, _ = result_dtype(core.aval_of(a), core.aval_of(b))
    n = max(core.aval_of(a).shape[0], core.aval_of(b).shape[0])
    return _wrap(op(_pad_front(a, n, dt), _pad_front(b, n, dt)), a1, a2)


def polyadd(a1, a2):
    """Sum of two polynomials (1-D coefficient arrays, highest power first; the
    shorter is zero-padded in front). Dtype: NEP 50 promotion. poly1d in -> poly1d out."""
    return _add_sub("polyadd", a1, a2, lax.add)


def polysub(a1, a2):
    """Difference ``a1 - a2`` of two polynomials (see :func:`polyadd`)."""
    return _add_sub("polysub", a1, a2, lax.sub)


def polymul(a1, a2):
    """Product of two polynomials: the full convolution of the coefficients.
    Dtype: NEP 50 promotion; length ``len(a1) + len(a2) - 1``."""
    a, b = _atleast_1d("polymul", a1, "a1"), _atleast_1d("polymul", a2, "a2")
    return _wrap(convolve(a, b), a1, a2)


def polydiv(u, v):
    """Quotient and remainder of polynomial division ``u / v``.

    Dtype: the promotion of both with float (ints give float64). Shapes: the
    quotient has ``max(len(u) - len(v) + 1, 1)`` entries. Eagerly the remainder's
    leading near-zero terms are removed (``allclose(r[0], 0, rtol=1e-14)``, as
    NumPy); under ``jit`` the remainder keeps length ``len(u)``.
    """
    a = _float(_atleast_1d("polydiv", u, "u"))
    b = _float(_atleast_1d("polydiv", v, "v"))
    (a, b), dt = _common(a, b)
    m, n = core.aval_of(a).shape[0] - 1, core.aval_of(b).shape[0] - 1
    scale = lax.div(_const(1, dt), b[0])
    r, q = a, []
    for k in range(m - n + 1):
        d = lax.mul(scale, r[k])
        q.append(lax.reshape(d, (1,)))
        r = r.at[k:k + n + 1].add(lax.neg(lax.mul(d, b)))
    q = lax.concatenate(q, 0) if q else lax.broadcast_in_dim(_const(0, dt), (1,), ())
    host = _concrete(r)
    if host is not None:
        k = 0
        while np.allclose(host[k], 0, rtol=1e-14) and host.shape[-1] - k > 1:
            k += 1
        r = r[k:]
    return _wrap(q, u, v), _wrap(r, u, v)


def polyder(p, m=1):
    """The ``m``-th derivative (static ``m >= 0``) of the polynomial ``p``.

    Dtype as NumPy: coefficients times an int64 range (float32 becomes float64).
    Raises ``ValueError`` for negative ``m``.
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("xnp.polyder: Order of derivative must be positive (see polyint)")
    c = _asarray("polyder", p)
    for _ in range(m):
        n = core.aval_of(c).shape[0] - 1
        powers = core.lift(np.arange(n, 0, -1, dtype=np.int64))
        (head, powers), _ = _common(c[:-1], powers)
        c = lax.mul(head, powers)
    return _wrap(c, p)


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative (static ``m >= 0``) of the polynomial ``p``.

    ``k``: integration constants (scalar or length-``m`` sequence, last first as
    in NumPy); default zeros. Dtype: float64 (or complex).

    Raises
    ------
    ValueError
        Negative ``m`` or a ``k`` of the wrong length.
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("xnp.polyint: Order of integral must be positive (see polyder)")
    ks = _float(_atleast_1d("polyint", 0.0 if k is None else k, "k"))
    nk = core.aval_of(ks).shape[0]
    if k is None:
        ks = lax.broadcast_in_dim(_const(0, default_float()), (m,), ())
    elif nk == 1 and m > 1:
        ks = lax.broadcast_in_dim(lax.reshape(ks, ()), (m,), ())
    elif nk < m:
        raise ValueError("xnp.polyint: k must be a scalar or a rank-1 array of length 1 or >m.")
    c = _asarray("polyint", p)
    for i in range(m):
        n = core.aval_of(c).shape[0]
        powers = core.lift(np.arange(n, 0, -1, dtype=np.int64))
        (c, powers), dt = _common(_float(c), powers)
        c = lax.concatenate([lax.div(c, powers),
                             promote_to("polyint", lax.index_in_dim(ks, i, 0), dt)], 0)
    return _wrap(c, p)


def _vander(x, order):
    """Columns ``x**(order-1), ..., x, 1`` of the 1-D ``x``."""
    n = core.aval_of(x).shape[0]
    dt = core.aval_of(x).dtype
    cols = [lax.broadcast_in_dim(_const(1, dt), (n,), ())]
    for _ in range(order - 1):
        cols.append(lax.mul(cols[-1], x))
    return lax.concatenate([lax.broadcast_in_dim(c, (n, 1), (0,)) for c in cols[::-1]], 1)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares fit of a polynomial of degree ``deg`` to the points ``(x, y)``.

    Parameters
    ----------
    x : array_like, 1-D
        Sample positions (``M`` of them).
    y : array_like, ``(M,)`` or ``(M, K)``
        Values; ``K`` columns are fitted independently.
    deg : int
        Degree (static).
    rcond : float, optional
        Relative cutoff for small singular values; default ``M * eps``.
    full : bool
        Also return ``residuals, rank, singular_values, rcond`` from the solve.
    w : array_like, optional
        ``(M,)`` weights applied to the residuals.
    cov : bool or 'unscaled'
        Also return the coefficients' covariance (scaled by ``residuals / (M - deg - 1)``
        unless ``'unscaled'``).

    Returns
    -------
    Array or tuple
        Coefficients ``(deg + 1,)`` or ``(deg + 1, K)``, highest power first (float64
        for integer data), plus the extras above.

    Raises
    ------
    ValueError
        ``deg < 0``; ``cov`` with too few points.
    TypeError
        Bad shapes of ``x``, ``y`` or ``w``, as in NumPy.

    Notes
    -----
    Solved by :func:`xnp.linalg.lstsq` on the column-scaled Vandermonde matrix, as
    NumPy; differentiable in ``x``, ``y`` and ``w``. NumPy's ``RankWarning`` for a
    rank-deficient fit is issued eagerly only.
    """
    from xnp.numpy_api import linalg, linalg_norms  # noqa: PLC0415

    order = operator.index(deg) + 1
    xs = _float(_asarray("polyfit", x, "x"))
    ys = _float(_asarray("polyfit", y, "y"))
    if order < 1:
        raise ValueError("xnp.polyfit: expected deg >= 0")
    ax, ay = core.aval_of(xs), core.aval_of(ys)
    if ax.ndim != 1:
        raise TypeError("xnp.polyfit: expected 1D vector for x")
    if ax.size == 0:
        raise TypeError("xnp.polyfit: expected non-empty vector for x")
    if ay.ndim not in (1, 2):
        raise TypeError("xnp.polyfit: expected 1D or 2D array for y")
    if ax.shape[0] != ay.shape[0]:
        raise TypeError("xnp.polyfit: expected x and y to have same length")
    (xs, ys), dt = _common(xs, ys)
    m = ax.shape[0]
    if rcond is None:
        rcond = m * float(np.finfo(ax.dtype).eps)
    lhs, rhs = _vander(xs, order), ys
    if w is not None:
        ws = _float(_asarray("polyfit", w, "w"))
        if core.aval_of(ws).ndim != 1:
            raise TypeError("xnp.polyfit: expected a 1-d array for weights")
        if core.aval_of(ws).shape[0] != m:
            raise TypeError("xnp.polyfit: expected w and y to have the same length")
        ws = promote_to("polyfit", ws, dt)
        lhs = lax.mul(lhs, lax.broadcast_in_dim(ws, (m, order), (0,)))
        rhs = lax.mul(rhs, lax.broadcast_in_dim(ws, ay.shape, (0,)))
    scale = lax.sqrt(lax.reduce_sum(lax.mul(lhs, lhs), (0,)))
    lhs = lax.div(lhs, lax.broadcast_in_dim(scale, (m, order), (1,)))
    c, resids, rank, s = linalg_norms.lstsq(lhs, rhs, rcond)
    c = lax.div(c, lax.broadcast_in_dim(scale, core.aval_of(c).shape, (0,)))
    known = _concrete(rank)
    if known is not None and int(known) != order and not full:
        _util.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = linalg.inv(lax.dot_general(lhs, lhs, (((0,), (0,)), ((), ()))))
    vbase = lax.div(vbase, lax.mul(lax.broadcast_in_dim(scale, (order, order), (0,)),
                                   lax.broadcast_in_dim(scale, (order, order), (1,))))
    if cov == "unscaled":
        return c, vbase if ay.ndim == 1 else lax.broadcast_in_dim(vbase, (order, order, 1),
                                                                  (0, 1))
    if m <= order:
        raise ValueError("xnp.polyfit: the number of data points must exceed order to scale "
                         "the covariance matrix")
    fac = lax.div(resids, _const(m - order, dt))
    k = core.aval_of(fac).shape[0]
    if ay.ndim == 1:
        return c, lax.mul(vbase, lax.broadcast_in_dim(fac, (order, order), (0,)) if k else fac)
    return c, lax.mul(lax.broadcast_in_dim(vbase, (order, order, k), (0, 1)),
                      lax.broadcast_in_dim(fac, (order, order, k), (2,)))


def roots(p, *, strip_zeros=True):
    """Roots of the polynomial with coefficients ``p`` (highest power first).

    The eigenvalues of the companion matrix (:func:`xnp.linalg.eigvals`).

    Parameters
    ----------
    p : array_like, 1-D
        Coefficients.
    strip_zeros : bool
        xnp/JAX extension. True (NumPy's behaviour) removes leading zero
        coefficients and returns trailing zeros as exact zero roots; it needs
        concrete ``p``. Under ``jit`` pass False: ``p[0]`` must then be non-zero
        (else the roots are inf/NaN).

    Returns
    -------
    Array
        ``(len(p) - 1,)`` roots (fewer when stripped): complex, except eagerly
        where all are real (float64), as NumPy.

    Raises
    ------
    ValueError
        ``p`` is not 1-D.
    xnp.errors.ConcretizationTypeError
        Traced ``p`` with ``strip_zeros=True``.
    """
    from xnp.numpy_api import linalg  # noqa: PLC0415

    c = _float(_atleast_1d("roots", p))
    if core.aval_of(c).ndim != 1:
        raise ValueError("xnp.roots: Input must be a rank-1 array.")
    dt = core.aval_of(c).dtype
    trailing = 0
    host = _concrete(c)
    if strip_zeros:
        if host is None:
            raise errors.ConcretizationTypeError(errors.concretization_message(
                c, "xnp.roots strips zero coefficients, which needs concrete `p`. Fix: "
                   "pass strip_zeros=False under jit (p[0] must then be non-zero)."))
        nz = np.nonzero(host)[0]
        if nz.size == 0:
            return core.lift(np.zeros(0, np.float64))
        trailing = len(host) - int(nz[-1]) - 1
        c = c[int(nz[0]):int(nz[-1]) + 1]
    n = core.aval_of(c).shape[0]
    cdt = np.result_type(dt, np.complex64)
    if n > 1:
        top = lax.reshape(lax.div(lax.neg(c[1:]), lax.broadcast_in_dim(c[0], (n - 1,), ())),
                          (1, n - 1))
        below = core.lift(np.eye(n - 2, n - 1, dtype=dt))
        r = linalg.standard_eigvals(lax.concatenate([top, below], 0))
    else:
        r = core.lift(np.zeros(0, cdt))
    r = lax.concatenate([r, core.lift(np.zeros(trailing, cdt))], 0) if trailing else r
    known = _concrete(r)
    if known is not None and host is not None and not np.any(known.imag):
        return lax.real(r)
    return r


def poly(seq_of_zeros):
    """Coefficients (highest power first, leading 1) of the monic polynomial with
    the given roots; a non-empty square matrix uses its eigenvalues.

    Dtype: float64 for integer roots, float32/complex kept; eagerly a complex
    result whose roots come in conjugate pairs is returned real, as NumPy.
    Returns ``1.0`` for no roots.

    Raises
    ------
    ValueError
        Input that is neither 1-D nor a non-empty square 2-D array.
    """
    from xnp.numpy_api import linalg  # noqa: PLC0415

    z = _atleast_1d("poly", seq_of_zeros, "seq_of_zeros")
    sh = core.aval_of(z).shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = linalg.eigvals(z)
    elif len(sh) == 1:  # NumPy's mintypecode: float32/64 and complex kept, else float64
        if core.aval_of(z).dtype not in _POLY_DTYPES:
            z = lax.convert_element_type(z, default_float())
    else:
        raise ValueError("xnp.poly: input must be 1d or non-empty square 2d array.")
    if core.aval_of(z).shape[0] == 0:
        return 1.0
    dt = core.aval_of(z).dtype
    a = core.lift(np.ones(1, dt))
    for i in range(core.aval_of(z).shape[0]):
        a = convolve(a, lax.concatenate([_const([1], dt),
                                         lax.neg(lax.index_in_dim(z, i, 0))], 0))
    if dt in kit.COMPLEX:
        host = _concrete(z)
        if host is not None and np.array_equal(np.sort(host), np.sort(host.conjugate())):
            return lax.real(a)
    return a


_POLY_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                               np.complex128))


class poly1d:  # noqa: N801  (NumPy's name)
    """A polynomial held as its coefficients (highest power first), for eager use.

    ``poly1d(c_or_r, r=False, variable=None)``: coefficients, or roots when ``r``.
    Supports ``p(x)`` (:func:`polyval`), ``+ - *`` with polynomials and scalars,
    ``/`` by a scalar or polynomial (quotient only, as NumPy), ``**`` (int),
    ``deriv``, ``integ``, ``roots``, ``order``, ``coeffs``/``c``, ``p[k]`` (the
    coefficient of ``x**k``), ``len(p)`` (order), ``==`` and ``str(p)`` (NumPy's
    layout, exponents on the line above). Leading zeros are
    stripped from concrete coefficients, as NumPy.
    """

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            return
        c = poly(c_or_r) if r else _atleast_1d("poly1d", c_or_r, "c_or_r")
        if not core.is_python_scalar(c) and core.aval_of(c).ndim > 1:
            raise ValueError("xnp.poly1d: Polynomial must be 1d only.")
        c = _atleast_1d("poly1d", c, "c_or_r")
        host = _concrete(c)
        if host is not None:
            nz = np.nonzero(host)[0]
            if not host.size:  # no coefficients: the zero polynomial [0], as NumPy's
                c = core.lift(np.zeros(1, host.dtype))
            else:
                c = c[int(nz[0]):] if nz.size else c[-1:] * 0
        self._coeffs = c
        self._variable = variable or "x"

    coeffs = property(lambda self: self._coeffs)
    c = coef = coefficients = coeffs
    variable = property(lambda self: self._variable)
    order = property(lambda self: core.aval_of(self._coeffs).shape[0] - 1)
    o = order
    r = roots = property(lambda self: roots(self._coeffs))

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._coeffs, dtype=dtype)

    def __repr__(self):  # NumPy's: the coefficients' array repr without "array(" and ")"
        return f"poly1d({repr(np.asarray(self._coeffs))[6:-1]})"

    def __str__(self):
        # NumPy's two-line layout (exponents above the terms), from the concrete
        # coefficients; printing is an eager operation.
        return str(np.poly1d(np.asarray(self._coeffs), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        if not isinstance(val, poly1d):  # NumPy's scalar at a scalar point (README, "Scalars")
            return scalar_result(polyval(self._coeffs, val))
        out = poly1d([0])  # composition p(q): Horner's scheme on polynomials
        for i in range(self.order + 1):
            out = out * val + poly1d(self._coeffs[i:i + 1])
        return out

    def _other(self, other):
        return other if isinstance(other, poly1d) else poly1d(other)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, self._other(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, self._other(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(self._other(other)._coeffs, self._coeffs))

    def __mul__(self, other):
        if core.is_python_scalar(other):
            return poly1d(lax.mul(*_common(self._coeffs, _asarray("poly1d", other))[0]))
        return poly1d(polymul(self._coeffs, self._other(other)._coeffs))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if core.is_python_scalar(other):
            return poly1d(lax.div(*_common(_float(self._coeffs), _asarray("poly1d", other))[0]))
        return polydiv(self, other)

    def __pow__(self, n):
        if not isinstance(n, int) or n < 0:
            raise ValueError("Power to non-negative integers only.")
        out = poly1d([1])
        for _ in range(n):
            out = out * self
        return out

    def __neg__(self):
        return poly1d(lax.neg(self._coeffs))

    def __pos__(self):
        return self

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        a, b = np.asarray(self._coeffs), np.asarray(other._coeffs)
        return a.shape == b.shape and bool(np.all(a == b))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return core.lift(np.zeros((), core.aval_of(self._coeffs).dtype))
        return self._coeffs[ind]

    def deriv(self, m=1):
        """The ``m``-th derivative as a poly1d (see :func:`polyder`)."""
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        """The ``m``-th antiderivative as a poly1d (see :func:`polyint`)."""
        return poly1d(polyint(self._coeffs, m, k))
