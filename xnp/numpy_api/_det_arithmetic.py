"""``numpy.linalg.det``'s arithmetic on the LU pivots, for :func:`xnp.linalg.det` where
NumPy's own LAPACK call does not compute it (under ``jit`` and the transformations).

NumPy (``umath_linalg``'s ``det_from_slogdet``) does not multiply the pivots: it takes
``sign * exp(sum(log|d_i|))``, the sign being the permutation's parity times each pivot's
sign (real) or its unit ``d_i / |d_i|``, multiplied in pivot order (complex), and for a
complex matrix NumPy's plain complex product of that sign and ``(exp(...), 0)``. So a
determinant whose pivots' product overflows in between is finite, and one that overflows
has the inf and NaN parts of that product (``0 * inf`` is NaN where a part of the sign is
exactly zero). XLA fuses multiply-adds where NumPy's C code does not; a part of a complex
product that NumPy computes as an exact zero is kept exactly zero here.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
from xnp.tracing import core

__all__ = ["det_from_pivots"]


def det_from_pivots(d, parity):
    """NumPy's determinant from the LU pivots ``d`` (..., n) and the permutation's parity
    ``parity`` (..., +-1 in ``d``'s real dtype); 0 where a pivot is 0 (NumPy's sign 0)."""
    dt = core.aval_of(d).dtype
    nd = core.aval_of(d).ndim
    axis = (nd - 1,)
    absd = lax.abs(d)
    rdt = core.aval_of(absd).dtype
    zero = lax.eq(absd, M.scalar(0, rdt))
    singular = lax.reduce_or(zero, axis)
    safe = lax.select_n(zero, absd, M.scalar(1, rdt))
    e = lax.exp(lax.reduce_sum(lax.log(safe), axis))
    if dt.kind != "c":
        # a pivot flips the sign where it is negative (a NaN one does not), as NumPy
        flips = lax.reduce_sum(lax.convert_element_type(lax.lt(d, M.scalar(0, dt)), np.int32),
                               axis)
        odd = lax.convert_element_type(lax.rem(flips, M.scalar(2, np.int32)), dt)
        sign = lax.mul(parity, lax.sub(M.scalar(1, dt), lax.mul(M.scalar(2, dt), odd)))
        det = lax.mul(sign, e)
    else:
        units = [lax.div(part(d), safe) for part in (lax.real, lax.imag)]

        def step(carry, unit):
            return _mult(*carry, *unit), None

        perm = (nd - 1,) + tuple(range(nd - 1))
        zeros = lax.broadcast_in_dim(M.scalar(0, rdt), core.aval_of(parity).shape, ())
        (sr, si), _ = lax.scan(step, (parity, zeros), [lax.transpose(u, perm) for u in units])
        re, im = _mult(sr, si, e, lax.broadcast_in_dim(M.scalar(0, rdt), core.aval_of(e).shape,
                                                       ()))
        det = lax.complex(re, im)
    return lax.select_n(singular, det, M.scalar(0, dt))


def _mult(ar, ai, br, bi):
    """NumPy's complex product ``(ar*br - ai*bi, ar*bi + ai*br)`` of parts, a part whose two
    (finite, nonzero) products cancel exactly being +0 as in NumPy's unfused arithmetic."""
    return (_exact(lax.mul(ar, br), lax.neg(lax.mul(ai, bi))),
            _exact(lax.mul(ar, bi), lax.mul(ai, br)))


def _exact(p, q):
    """``p + q``, +0 where ``p == -q`` is finite and nonzero (a fused multiply-add would
    give the rounding error of one product there)."""
    rdt = core.aval_of(p).dtype
    size = lax.abs(p)
    cancel = lax.and_(lax.eq(p, lax.neg(q)), lax.and_(
        lax.lt(size, M.scalar(np.inf, rdt)), lax.gt(size, M.scalar(0, rdt))))
    return lax.select_n(cancel, lax.add(p, q), lax.broadcast_in_dim(
        M.scalar(0, rdt), core.aval_of(p).shape, ()))
