"""Circular and hyperbolic elementwise primitives: ``sin``, ``cos``, ``tan``, ``asin``,
``acos``, ``atan``, ``atan2``, ``sinh``, ``cosh``, ``asinh``, ``acosh``, ``atanh``.

Strict as the rest of :mod:`xnp.lax.elementwise` (whose arithmetic their jvp rules
use): one dtype category each (floating or complex; ``atan2`` floating only), equal
operand dtypes for ``atan2``, rank-0 and size-1 operands broadcast. Jvp rules are
``d f(x) = f'(x) dx`` written to avoid overflow and cancellation (``1 - x**2`` as
``(1 - x)(1 + x)``, ``atan2``'s partials on operands scaled by ``max(|x|, |y|)``);
batching is elementwise.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax.elementwise import (
    _binary, _c, _jvp, abs, add, div, eq, gt, max, mul, neg, rsqrt, select_n, sub,
)
from xnp.tracing import Array

__all__ = [
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "asinh", "acosh", "atanh",
    "sin_p", "cos_p", "tan_p", "asin_p", "acos_p", "atan_p", "atan2_p",
    "sinh_p", "cosh_p", "asinh_p", "acosh_p", "atanh_p",
]

# d f(x) = f'(x) dx, written with the result ``ans`` where cheaper
sin_p = kit.unary("sin", kit.INEXACT, jvp=_jvp(lambda t, ans, x: mul(t, cos(x))))
cos_p = kit.unary("cos", kit.INEXACT, jvp=_jvp(lambda t, ans, x: neg(mul(t, sin(x)))))
tan_p = kit.unary("tan", kit.INEXACT,
                  jvp=_jvp(lambda t, ans, x: mul(t, add(_c(ans, 1), mul(ans, ans)))))
asin_p = kit.unary("asin", kit.INEXACT, jvp=_jvp(lambda t, ans, x: mul(t, _rsqrt_1_minus_sq(x))))
acos_p = kit.unary("acos", kit.INEXACT,
                   jvp=_jvp(lambda t, ans, x: neg(mul(t, _rsqrt_1_minus_sq(x)))))
atan_p = kit.unary("atan", kit.INEXACT,
                   jvp=_jvp(lambda t, ans, x: div(t, add(_c(x, 1), mul(x, x)))))
# atan2(x, y) = atan(x / y): d = (y dx - x dy) / (x^2 + y^2)
atan2_p = _binary("atan2", kit.FLOATING,
                  jvp=_jvp(lambda t, ans, x, y: mul(t, _atan2_partial(y, x, y)),
                           lambda t, ans, x, y: mul(neg(t), _atan2_partial(x, x, y))))
sinh_p = kit.unary("sinh", kit.INEXACT, jvp=_jvp(lambda t, ans, x: mul(t, cosh(x))))
cosh_p = kit.unary("cosh", kit.INEXACT, jvp=_jvp(lambda t, ans, x: mul(t, sinh(x))))
asinh_p = kit.unary("asinh", kit.INEXACT,
                    jvp=_jvp(lambda t, ans, x: mul(t, _rsqrt_sq_plus_1(x))))
# 1/(sqrt(x-1) sqrt(x+1)): no overflow, and the principal branch for complex x
acosh_p = kit.unary("acosh", kit.INEXACT, jvp=_jvp(
    lambda t, ans, x: mul(t, mul(rsqrt(sub(x, _c(x, 1))), rsqrt(add(x, _c(x, 1)))))))
atanh_p = kit.unary("atanh", kit.INEXACT,
                    jvp=_jvp(lambda t, ans, x: div(t, mul(sub(_c(x, 1), x), add(_c(x, 1), x)))))


def sin(x: Array) -> Array:
    """Sine (floating or complex; radians)."""
    return sin_p.bind(x)


def cos(x: Array) -> Array:
    """Cosine (floating or complex; radians)."""
    return cos_p.bind(x)


def tan(x: Array) -> Array:
    """Tangent (floating or complex; radians)."""
    return tan_p.bind(x)


def asin(x: Array) -> Array:
    """Inverse sine (floating or complex); NaN outside [-1, 1] for reals."""
    return asin_p.bind(x)


def acos(x: Array) -> Array:
    """Inverse cosine (floating or complex); NaN outside [-1, 1] for reals."""
    return acos_p.bind(x)


def atan(x: Array) -> Array:
    """Inverse tangent (floating or complex)."""
    return atan_p.bind(x)


def atan2(x: Array, y: Array) -> Array:
    """Angle of the point ``(y, x)``: ``atan(x / y)`` in the right quadrant (floating)."""
    return atan2_p.bind(x, y)


def sinh(x: Array) -> Array:
    """Hyperbolic sine (floating or complex)."""
    return sinh_p.bind(x)


def cosh(x: Array) -> Array:
    """Hyperbolic cosine (floating or complex)."""
    return cosh_p.bind(x)


def asinh(x: Array) -> Array:
    """Inverse hyperbolic sine (floating or complex)."""
    return asinh_p.bind(x)


def acosh(x: Array) -> Array:
    """Inverse hyperbolic cosine (floating or complex); NaN below 1 for reals."""
    return acosh_p.bind(x)


def atanh(x: Array) -> Array:
    """Inverse hyperbolic tangent (floating or complex); NaN outside [-1, 1] for reals."""
    return atanh_p.bind(x)


def _rsqrt_1_minus_sq(x):
    """``1/sqrt(1 - x**2)`` as ``1/sqrt((1 - x)(1 + x))`` (exact ``1 - x`` near +-1)."""
    return rsqrt(mul(sub(_c(x, 1), x), add(_c(x, 1), x)))


def _rsqrt_sq_plus_1(x):
    """``1/sqrt(x**2 + 1)``; for real ``|x| > 1`` as ``rsqrt(1 + x**-2) / |x|`` (no overflow
    of ``x**2``; 0 at +-inf). Both branches are exact, each on a safe operand where it
    is not taken."""
    if R.aval(x).dtype.kind == "c":
        return rsqrt(add(mul(x, x), _c(x, 1)))
    one = _c(x, 1)
    big = gt(abs(x), one)
    small = select_n(big, x, _c(x, 0))
    inv = div(one, abs(select_n(big, one, x)))
    return select_n(big, rsqrt(add(mul(small, small), one)),
                    mul(inv, rsqrt(add(one, mul(inv, inv)))))


def _atan2_partial(num, x, y):
    """``num / (x^2 + y^2)`` (``num`` is ``x`` or ``y``) computed on ``x, y`` scaled by
    ``s = max(|x|, |y|)``, so the squares neither overflow nor underflow; 0 where ``s`` is
    infinite (the limit along every ray), from safe operands there (double where)."""
    s = max(abs(x), abs(y))
    far = eq(s, _c(s, np.inf))
    one = _c(s, 1)
    x, y, num, s = (select_n(far, v, one) for v in (x, y, num, s))
    xs, ys = div(x, s), div(y, s)
    part = div(div(num, s), mul(add(mul(xs, xs), mul(ys, ys)), s))
    return select_n(far, part, _c(s, 0))
