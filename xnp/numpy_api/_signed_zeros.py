"""Signed zeros in sums, as NumPy's: its sums add the elements to +0.0 (so the sum of one
-0.0 is 0.0) or, with ``initial``, to ``initial`` from -0.0 on (so nothing but -0.0 added to
``initial`` is ``initial`` itself). lax's sums start from 0.0, and XLA compiles a sum of
one element to the element itself (and ``x + 0.0`` to ``x``), so both are restated here.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.tracing import core

__all__ = ["sum_from_zero", "from_zero", "plus_zero", "may_be_minus_zero", "only_minus_zeros"]


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
    """``x`` with -0.0 as 0.0 (in each part, for complex), without an addition: XLA
    simplifies ``x + 0.0`` to ``x``."""
    dt = core.aval_of(x).dtype
    if dt in kit.COMPLEX:
        return lax.complex(plus_zero(lax.real(x)), plus_zero(lax.imag(x)))
    zero = lax.broadcast_in_dim(_const(0, dt), core.aval_of(x).shape, ())
    return lax.select_n(lax.eq(x, zero), x, zero)


def may_be_minus_zero(initial, dt: np.dtype) -> bool:
    """Whether a sum's ``initial`` can be -0.0 in the real floating accumulator ``dt``: a
    host scalar that is, or an array (its value is not read: a traced one is unknown)."""
    if dt not in kit.FLOATING:
        return False
    if core.is_python_scalar(initial) or isinstance(initial, np.generic):
        return not isinstance(initial, complex) and initial == 0 and bool(np.signbit(initial))
    return True


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
