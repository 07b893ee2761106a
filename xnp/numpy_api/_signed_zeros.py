"""Signed zeros in sums, as NumPy's: its sums add the elements to +0.0 (so the sum of one
-0.0 is 0.0) or, with ``initial``, to ``initial`` from -0.0 on (so nothing but -0.0 added to
``initial`` is ``initial`` itself, in each part of a complex number). lax's sums start from
0.0, and XLA compiles a sum of one element (a dot of one product too) to the element itself
(and ``x + 0.0`` to ``x``), so both are restated here.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.tracing import core

__all__ = ["sum_from_zero", "from_zero", "plus_zero", "minus_zero_parts", "keep_initial",
           "only_minus_zeros"]


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


def sum_from_zero(x, axes):
    """``lax.reduce_sum(x, axes)`` as NumPy's ``add.reduce`` sums: from +0.0, so the sum of
    one element -0.0 is 0.0 (XLA compiles a sum of one element to the element itself)."""
    return from_zero(lax.reduce_sum(x, axes), x, axes)


def from_zero(res, x, axes):
    """``res``, the sum of ``x`` over ``axes``, with NumPy's +0.0 start where the sum is of
    one element (only there does XLA drop it)."""
    aval = core.aval_of(x)
    if aval.dtype in kit.INEXACT and math.prod(aval.shape[a] for a in axes) == 1:
        return plus_zero(res)
    return res


def plus_zero(x):
    """``x`` with -0.0 as +0.0 (in each part, for complex), every other value kept, and its
    derivative 1 everywhere. Where ``x == 0`` the result is ``m - stop_gradient(m)`` of
    ``m`` (``x`` there, 0 elsewhere, so no ``inf - inf`` is computed): +0.0, with ``x``'s
    tangent. (``x + 0.0`` would do, but XLA simplifies it to ``x``; a select of a 0
    constant would lose the derivative there: ``grad(sum)`` of ``[0.0]`` would be 0.)"""
    dt = core.aval_of(x).dtype
    if dt in kit.COMPLEX:
        return lax.complex(plus_zero(lax.real(x)), plus_zero(lax.imag(x)))
    zero = lax.broadcast_in_dim(_const(0, dt), core.aval_of(x).shape, ())
    at_zero = lax.eq(x, zero)
    m = lax.select_n(at_zero, zero, x)
    return lax.select_n(at_zero, x, lax.sub(m, lax.stop_gradient(m)))


def minus_zero_parts(initial, dt: np.dtype) -> tuple[bool, ...]:
    """For each real part of the inexact accumulator ``dt`` (one; real and imaginary for
    complex), whether a sum's ``initial`` can be -0.0 there: a host scalar whose part is
    (a real one's imaginary part is +0.0), or an array (its value is not read: a traced
    one is unknown). Empty for other dtypes."""
    if dt not in kit.INEXACT:
        return ()
    n = 2 if dt in kit.COMPLEX else 1
    if isinstance(initial, (bool, int, np.bool_, np.integer)):
        return (False,) * n
    if core.is_python_scalar(initial) or isinstance(initial, np.generic):
        value = complex(initial)
        return tuple(p == 0 and math.copysign(1.0, p) < 0 for p in (value.real, value.imag)[:n])
    return (True,) * n


def keep_initial(res, init, x, axes, mask, parts):
    """``res``, the sum of ``x`` over ``axes`` combined with ``init`` (0-d), with NumPy's
    signs of zero: NumPy adds the elements to ``initial`` from -0.0 on, so in each part
    (``parts``: :func:`minus_zero_parts`) where nothing but -0.0 (or nothing) is added, the
    sum is that part of ``initial`` itself, -0.0 included; lax's sum starts from 0.0, and
    -0.0 + 0.0 is 0.0. ``mask`` (bool, ``x``'s shape, or None) keeps the added elements."""
    if not any(parts):
        return res
    shape = core.aval_of(res).shape
    if core.aval_of(res).dtype in kit.COMPLEX:
        split = [(lax.real(v), lax.imag(v)) for v in (res, init, x)]
    else:
        split = [(v,) for v in (res, init, x)]
    out = []
    for keep, r, i, xp in zip(parts, *split):
        if keep:
            # only a zero `initial` differs from lax's sum there (+0.0 for its -0.0): its
            # value, with the sum's tangent (r - stop_gradient(r) is +0.0 there, and
            # i - +0.0 is i, -0.0 included; the sum is locally x's sum plus `initial`)
            i = lax.broadcast_in_dim(i, shape, ())
            zero = lax.broadcast_in_dim(_const(0, core.aval_of(r).dtype), shape, ())
            fix = lax.and_(only_minus_zeros(xp, axes, mask), lax.eq(i, zero))
            m = lax.select_n(fix, zero, r)
            r = lax.select_n(fix, r, lax.sub(lax.stop_gradient(i),
                                             lax.sub(lax.stop_gradient(m), m)))
        out.append(r)
    return lax.complex(*out) if len(out) == 2 else out[0]


def only_minus_zeros(x, axes, mask):
    """Whether every element of the real floating ``x`` reduced into each output that
    ``mask`` (bool, ``x``'s shape, or None: all) keeps is -0.0 (its bits are the sign bit
    alone: the least integer of its width)."""
    dt = core.aval_of(x).dtype
    bits_dt = np.dtype(f"i{dt.itemsize}")
    minus_zero = lax.eq(lax.bitcast_convert_type(x, bits_dt),
                        _const(np.iinfo(bits_dt).min, bits_dt))
    if mask is not None:
        minus_zero = lax.or_(minus_zero, lax.not_(mask))
    return lax.reduce_and(minus_zero, axes)
