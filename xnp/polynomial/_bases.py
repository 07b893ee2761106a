"""The six orthogonal-polynomial bases of ``numpy.polynomial`` as three-term recurrences,
and the functions of ``x`` built on them: evaluation (``*val``, ``*val2d/3d``,
``*grid2d/3d``), Vandermonde matrices (``*vander``, ``*vander2d/3d``), weight functions
and ``polyvalfromroots``.

Each basis satisfies ``phi_0 = 1``, ``phi_{k+1}(x) = A_k(x) phi_k(x) - B_k phi_{k-1}(x)``
(``phi_{-1} = 0``); evaluation runs Clenshaw's recurrence backwards over the
coefficients. Everything here is written with xnp operations, so ``x`` and the
coefficients may be eager arrays, NumPy arrays, Python scalars or values traced by
``jit``/``grad``/``vmap``; the number of coefficients and the degree are static.
Results follow ``numpy.polynomial`` (shapes, ``tensor=``, dtypes: integer and boolean
coefficients are evaluated in floating point); ``*val`` evaluates in NumPy's order of
operations, so eager results agree with NumPy's to the last bit.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.numpy_api import creation, manipulation, reductions
from xnp.numpy_api import transcendental
from xnp.tracing.core import Tracer


class Basis:
    """One basis: ``A(k, x)`` and ``B(k)`` of the recurrence (``B`` None: no second term),
    the weight function and NumPy's prefix (``"poly"``, ``"cheb"``, ...)."""

    def __init__(self, prefix, a, b, weight):
        self.prefix, self.a, self.b, self.weight = prefix, a, b, weight


def _power_weight(x):
    return x * 0 + 1


BASES = {
    "polynomial": Basis("poly", lambda k, x: x, None, None),
    "chebyshev": Basis("cheb", lambda k, x: x if k == 0 else 2 * x, lambda k: 1,
                       lambda x: 1 / (transcendental.sqrt(1 + x) * transcendental.sqrt(1 - x))),
    "legendre": Basis("leg", lambda k, x: x * ((2 * k + 1) / (k + 1)), lambda k: k / (k + 1),
                      _power_weight),
    "laguerre": Basis("lag", lambda k, x: ((2 * k + 1) - x) / (k + 1), lambda k: k / (k + 1),
                      lambda x: transcendental.exp(-x)),
    "hermite": Basis("herm", lambda k, x: 2 * x, lambda k: 2 * k,
                     lambda x: transcendental.exp(-(x * x))),
    "hermite_e": Basis("herme", lambda k, x: x, lambda k: k,
                       lambda x: transcendental.exp(-0.5 * (x * x))),
}


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, Tracer)) or hasattr(x, "__array_namespace__")


def _coefficients(c, name: str):
    c = creation.asarray(c)
    if c.ndim == 0:
        c = manipulation.reshape(c, (1,))
    if c.shape[0] == 0:
        raise ValueError(f"{name}: the coefficient array c is empty (shape {c.shape})")
    if c.dtype.kind in "biu":
        c = c + 0.0
    elif c.dtype.kind not in "fc":
        raise TypeError(f"{name}: coefficients of dtype {c.dtype.name} are not numbers")
    return c


def _points(x):
    # NumPy keeps Python scalars as scalars and converts lists and tuples
    return creation.asarray(x) if isinstance(x, (list, tuple)) or _is_array(x) else x


def evaluate(basis: Basis, name: str, x, c, tensor: bool = True):
    """Clenshaw's recurrence for ``sum_k c[k] phi_k(x)``: the shape of the result is
    ``c.shape[1:] + x.shape`` with ``tensor=True``, ``c.shape[1:]`` broadcast with
    ``x.shape`` otherwise (NumPy's ``polyval`` family)."""
    c = _coefficients(c, name)
    x = _points(x)
    if tensor and _is_array(x):
        c = manipulation.reshape(c, c.shape + (1,) * np.ndim(x))
    n = c.shape[0] - 1
    if basis.prefix in _NUMPY_STEPS:
        return _evaluate_as_numpy(_NUMPY_STEPS[basis.prefix], x, c)
    b1, b2 = c[n] + x * 0, None  # b_n, b_{n+1}; x * 0 broadcasts as NumPy's evaluation
    for k in range(n - 1, -1, -1):
        term = c[k] + basis.a(k, x) * b1
        if basis.b is not None and b2 is not None:
            term = term - basis.b(k + 1) * b2
        b1, b2 = term, b1
    return b1


# The same recurrences in the order NumPy's ``*val`` functions compute them, so that the
# results agree to the last bit: per basis, the term subtracted from c[-i], the term
# added to the previous c0 (both given c1, x and the running degree nd), and the
# factor of c1 in the final ``c0 + c1 * f(x)``.
_NUMPY_STEPS = {
    "cheb": (lambda c1, nd: c1, lambda c1, x, nd: c1 * (2 * x), lambda x: x),
    "leg": (lambda c1, nd: c1 * ((nd - 1) / nd), lambda c1, x, nd: c1 * x * ((2 * nd - 1) / nd),
            lambda x: x),
    "herm": (lambda c1, nd: c1 * (2 * (nd - 1)), lambda c1, x, nd: c1 * (x * 2),
             lambda x: x * 2),
    "herme": (lambda c1, nd: c1 * (nd - 1), lambda c1, x, nd: c1 * x, lambda x: x),
    "lag": (lambda c1, nd: (c1 * (nd - 1)) / nd,
            lambda c1, x, nd: (c1 * ((2 * nd - 1) - x)) / nd, lambda x: 1 - x),
}


def _evaluate_as_numpy(steps, x, c):
    """``*val`` of ``c`` at ``x`` (``c`` already shaped for ``tensor``) in NumPy's order."""
    sub, add, final = steps
    if c.shape[0] == 1:
        c0, c1 = c[0], 0
    else:
        c0, c1 = c[-2], c[-1]
    nd = c.shape[0]
    for i in range(3, c.shape[0] + 1):
        nd -= 1
        c0, c1 = c[-i] - sub(c1, nd), c0 + add(c1, x, nd)
    return c0 + c1 * final(x)


def evaluate_nd(basis: Basis, name: str, points, c, grid: bool):
    """``*val2d/3d`` (points of one shape, evaluated pointwise) and ``*grid2d/3d`` (the
    Cartesian product of the points)."""
    points = [_points(p) for p in points]
    if not grid:
        shapes = {np.shape(p) for p in points}
        if len(shapes) != 1:
            labels = "x, y" if len(points) == 2 else "x, y, z"
            raise ValueError(f"{name}: {labels} are incompatible: shapes "
                             f"{[np.shape(p) for p in points]} differ")
    c = evaluate(basis, name, points[0], c)
    for p in points[1:]:
        c = evaluate(basis, name, p, c, tensor=grid)
    return c


def _degree(deg, name: str) -> int:
    try:
        ideg = operator.index(deg)
    except TypeError:
        raise TypeError(f"{name}: deg must be an integer, got {type(deg).__name__}") from None
    if ideg < 0:
        raise ValueError(f"{name}: deg must be non-negative, got {ideg}")
    return ideg


def vander(basis: Basis, name: str, x, deg):
    """The pseudo-Vandermonde matrix ``V[..., k] = phi_k(x)``, shape ``x.shape + (deg+1,)``
    (NumPy's ``polyvander`` family); ``x`` is at least 1-d and floating point."""
    ideg = _degree(deg, name)
    x = creation.asarray(x)
    if x.ndim == 0:
        x = manipulation.reshape(x, (1,))
    x = x + 0.0
    cols = [x * 0 + 1]
    if ideg > 0:
        cols.append(basis.a(0, x) * cols[0])
    for k in range(1, ideg):
        nxt = basis.a(k, x) * cols[k]
        if basis.b is not None:
            nxt = nxt - basis.b(k) * cols[k - 1]
        cols.append(nxt)
    return manipulation.stack(cols, axis=-1)


def vander_nd(basis: Basis, name: str, points, degrees):
    """``*vander2d/3d``: the product of the 1-d matrices of each point coordinate,
    flattened over the degrees (shape ``x.shape + (prod(deg + 1),)``)."""
    if len(degrees) != len(points):
        raise ValueError(f"{name}: expected {len(points)} degrees, got {len(degrees)}")
    points = [creation.asarray(p) for p in points]
    shape = np.broadcast_shapes(*(p.shape for p in points))
    mats = [vander(basis, name, manipulation.broadcast_to(p, shape), d)
            for p, d in zip(points, degrees)]
    n = len(mats)
    out = None
    for i, m in enumerate(mats):
        expand = manipulation.reshape(m, m.shape[:-1] + (1,) * i + (m.shape[-1],)
                                      + (1,) * (n - 1 - i))
        out = expand if out is None else out * expand
    return manipulation.reshape(out, out.shape[:len(shape)] + (-1,))


def valfromroots(x, r, tensor: bool = True):
    """``prod_k (x - r[k])`` over the first axis of the roots ``r`` (NumPy's
    ``polyvalfromroots``); ``tensor=False`` needs ``x.ndim < r.ndim``."""
    r = creation.asarray(r)
    if r.ndim == 0:
        r = manipulation.reshape(r, (1,))
    if r.dtype.kind in "biu":
        r = r + 0.0
    x = _points(x)
    if _is_array(x):
        if tensor:
            r = manipulation.reshape(r, r.shape + (1,) * np.ndim(x))
        elif np.ndim(x) >= r.ndim:
            raise ValueError("polyvalfromroots: x.ndim must be < r.ndim when tensor == False "
                             f"(x has shape {np.shape(x)}, r has shape {r.shape})")
    return reductions.prod(x - r, axis=0)
