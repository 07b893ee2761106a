"""Powers and reciprocals of :mod:`xnp.numpy_api.elementwise`: the decompositions of its
composites (``lax.composite``) whose eager kernel is NumPy's ufunc of the public name
(``square``, ``reciprocal``, ``float_power``, ``power`` of a Python int exponent), so an
eager call's floating-point warnings are NumPy's own ("overflow encountered in square", not
"in multiply"), and ``power``'s check of negative integer exponents."""

from __future__ import annotations

import functools

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.numpy_api._ufunc import _as_dtype, _dtype_of, _out_cast, _scalar, _truth
from xnp.numpy_api._util import asarray_for
from xnp.tracing import core

__all__ = ["NEGATIVE_POWER", "check_exponents", "checked_power", "integer_power", "square",
           "float_reciprocal", "complex_reciprocal", "float_power_operands", "float_power"]

#: NumPy's message for an integer to a negative integer power (its ``ValueError``)
NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def check_exponents(a, b, x2, where, out, casting) -> bool:
    """NumPy's ``ValueError`` for an integer ``a`` to a negative integer power ``b``,
    checked only where ``where`` holds (NumPy computes nothing elsewhere), after the cast
    into ``out`` (which NumPy checks before computing). Host exponents are checked now;
    for an xnp mask the check is a ``lax.runtime_error`` equation, so the call replays and
    checks each time eagerly, and compiled code checks nothing. Returns True where the
    exponent ``x2`` is an xnp array to check everywhere: ``power`` then computes
    :func:`checked_power` (one kernel eagerly) and nothing is checked here."""
    if _dtype_of(b).kind != "i" or 0 in _util.broadcast_shapes(
            "power", core.aval_of(a).shape, core.aval_of(b).shape):
        return False  # (nothing is computed for an empty result: nothing to check)
    if out is not None:
        target = out[0] if isinstance(out, tuple) else out
        if not (_util.is_xnp(target) or isinstance(target, np.ndarray)) or \
                not np.can_cast(_dtype_of(a), np.dtype(target.dtype), casting):
            _out_cast("power", a, target, casting)  # raises NumPy's TypeError
    if not (_util.is_xnp(x2) or _util.is_xnp(where)):
        negative = np.asarray(x2) < 0
        if where is not True:
            negative = negative & np.asarray(where, bool)
        if np.any(negative):
            raise ValueError(NEGATIVE_POWER)
        return False
    if where is True:
        return True
    negative = lax.lt(b, _scalar(0, _dtype_of(b)))
    negative = lax.and_(*_util.broadcast_all("power", negative,
                                             _truth(asarray_for("power", where))))
    lax.runtime_error(negative, NEGATIVE_POWER)
    return False


def checked_power(a, b):
    """``a ** b`` of signed integers (one dtype, one rank), raising NumPy's ``ValueError``
    where ``b`` is negative (a ``lax.runtime_error`` equation: eagerly, not in compiled
    code). The composite ``power``: eagerly one call of NumPy's ``power``, which checks
    and computes in one loop."""
    lax.runtime_error(lax.lt(b, _scalar(0, _dtype_of(b))), NEGATIVE_POWER)
    return lax.pow(a, b)


@functools.lru_cache(maxsize=256)
def integer_power(y: int):
    """The decomposition of the composite ``power(a, b)`` where ``b`` is the Python int
    ``y`` converted to ``a``'s dtype: ``lax.integer_pow(a, y)`` (repeated squaring under
    jit; eagerly NumPy's ``power``, the kernel, whose complex loop rounds otherwise than
    ``z * z`` for ``y = 2``)."""

    def steps(a, b):
        return lax.integer_pow(a, y)

    return steps


def square(x):
    """``x * x`` (``lax.integer_pow(x, 2)``), the decomposition of the composite ``square``:
    NumPy's loop multiplies (complex ``square`` rounds as complex ``multiply``, not as
    ``power(x, 2)``)."""
    return lax.integer_pow(x, 2)


def float_reciprocal(x):
    """``1 / x`` for a real float ``x``: the decomposition of the composite ``reciprocal``."""
    return lax.div(_scalar(1, _dtype_of(x)), x)


def complex_reciprocal(x):
    """NumPy's complex reciprocal (its loop, operation for operation): with ``r = b / a``
    when ``|b| <= |a|``, ``1 / (a + b r) - i r / (a + b r)``; otherwise (also for NaN)
    ``r = a / b`` and ``r / (a r + b) - i / (a r + b)``. The decomposition of the composite
    ``reciprocal``."""
    a, b = lax.real(x), lax.imag(x)
    one = _scalar(1, _dtype_of(a))
    first = lax.le(lax.abs(b), lax.abs(a))
    num, den = lax.select(first, b, a), lax.select(first, a, b)
    # r selected from both quotients, so that r / d is no (p / q) / d, which XLA rewrites
    # as p / (q * d), a product that under/overflows (1e-300 + 1e-300j)
    r = lax.select(first, lax.div(b, a), lax.div(a, b))
    d = lax.add(lax.mul(num, r), den)  # a + b r, or b + a r
    big = lax.div(one, d)
    small = lax.div(r, d)
    return lax.complex(lax.select(first, big, small),
                       lax.neg(lax.select(first, small, big)))


_F64, _C128 = np.dtype(np.float64), np.dtype(np.complex128)


def float_power_operands(x1, x2):
    """``float_power``'s operands, each array moved to its loop's dtype (float64, or
    complex128 for a complex one) before promotion, as NumPy converts them: a Python int
    beside an integer array is then a float64 (``float_power(int8 array, 400)`` is inf,
    where int8 promotion would raise OverflowError). Python scalars are left as they are."""
    def loop_operand(x, argname):
        if type(x) in (bool, int, float, complex):
            return x
        x = asarray_for("float_power", x, argname)
        return _as_dtype("float_power", x, _C128 if _dtype_of(x).kind == "c" else _F64)

    return loop_operand(x1, "x1"), loop_operand(x2, "x2")


def float_power(a, b):
    """``a ** b`` in float64 or complex128: the decomposition of the composite
    ``float_power``."""
    return lax.pow(a, b)
