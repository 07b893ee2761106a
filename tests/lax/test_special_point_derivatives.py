"""Derivatives at special points: ties, kinks, zeros, signed zeros, domain boundaries,
infinities and NaN, for the differentiable primitives of the op table and the
composites built on them (``logaddexp``, ``sinc``, ``i0``, ``det``).

Every expected value is a closed form written here (never a value computed by the
code under test). Each first-derivative case is checked four ways: ``grad`` and
``jvp`` (one unit tangent per operand), eagerly and under ``jit``; second-derivative
cases with ``grad(grad(f))`` eagerly and under ``jit``.

Where mathematics leaves a choice the expected value is JAX's convention, unless a
comment says otherwise (README, "Derivatives at special points"):

* ``abs'(0) = abs'(-0.0) = 1`` (JAX: ``select(x >= 0, t, -t)``); ``sign``, ``floor``,
  ``ceil``, ``round`` have derivative 0 everywhere.
* ``max``/``min`` at a tie (also of signed zeros and of equal infinities) and
  ``reduce_max``/``reduce_min`` over k tied elements split the tangent equally.
* ``clamp`` passes the tangent of ``x`` only strictly inside ``(lo, hi)``: 0 at a bound.
* ``select_n`` (``where``) passes the tangent of the branch it takes (relu-like
  ``where(x > 0, x, 0)`` has derivative 0 at 0).
* piecewise-linear rules route the tangent by comparisons, which are False for NaN:
  ``abs'(nan) = -1``, ``max(nan, y)`` gives both operands 0 (as JAX).
* ``x ** 0`` has derivative 0 in ``x`` also at ``x = 0``; in the exponent ``0 ** y`` has
  derivative 0 where ``y > 0`` (JAX's value) and -inf where ``y <= 0``: the limit of
  ``log(x) x ** y`` as ``x -> 0+`` (JAX: 0 at ``y = 0``, NaN below), so ``x ** x`` has
  derivative -inf at 0, the limit of ``x ** x (log x + 1)``.
* xnp's own choices where JAX gives NaN or a one-sided value: ``logaddexp`` of equal
  infinities splits 1/2 : 1/2 (JAX: 1 : 1 at +inf, NaN at -inf); ``atan2``'s
  derivatives are 0 at infinity (JAX: NaN); ``det``'s derivative is the adjugate at
  every singular matrix (JAX: 0 where the zero pivot is not the last one); ``hypot``'s
  derivative is 0 at ``(0, 0)`` (the minimum-norm subgradient, as ``linalg.norm`` at the
  zero vector), ``(sign x, 0)`` at ``(+-inf, finite)`` and ``(sign x, sign y) / sqrt(2)``
  at two infinities (JAX: NaN at infinity).
* ``d(x / y)/dy`` is ``-(x / y) / y``: finite where ``y ** 2`` overflows.

Complex functions, indexing, convolution, FFT, decompositions and control flow:
``test_special_point_derivatives_structured.py``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import xnp
from tests import tolerances
from xnp import lax

F64 = np.dtype(np.float64)
RTOL = tolerances.rtol(F64, "reduction")
ATOL = 1e-300  # XLA-CPU flushes subnormal results to 0
inf, nan, PI = math.inf, math.nan, math.pi
LN2, EULER = math.log(2.0), 0.5772156649015329
TWO_OVER_SQRT_PI, SQRT_PI_OVER_2 = 2 / math.sqrt(PI), math.sqrt(PI) / 2
SQRT_HALF = math.sqrt(0.5)
I1_OF_2 = 1.5906368546373291  # the modified Bessel function I1(2) (A&S table 9.8)


def _pow(y):
    return lambda x: lax.integer_pow(x, y)


def _logistic(z):
    return 1 / (1 + math.exp(-z))


def _lae0(z):  # logaddexp(0, z), the loss of logistic regression
    return xnp.logaddexp(0.0, z)


def _cumlse_last(*xs):
    return lax.cumlogsumexp(xnp.stack(list(xs)), axis=0)[-1]


def _clamp(lo, x, hi):
    return lax.clamp(lo, x, hi)


def _relu_where(x):
    return xnp.where(x > 0, x, 0.0)


# (id, f, args, expected first partials, one per argument)
FIRST = [
    # kinks and piecewise-constant functions
    ("abs@0", lax.abs, (0.0,), (1.0,)),
    ("abs@-0", lax.abs, (-0.0,), (1.0,)),
    ("abs@-2", lax.abs, (-2.0,), (-1.0,)),
    ("abs@inf", lax.abs, (inf,), (1.0,)),
    ("abs@-inf", lax.abs, (-inf,), (-1.0,)),
    ("abs@nan", lax.abs, (nan,), (-1.0,)),
    ("sign@0", lax.sign, (0.0,), (0.0,)),
    ("floor@1", lax.floor, (1.0,), (0.0,)),
    ("ceil@-0", lax.ceil, (-0.0,), (0.0,)),
    ("round@0.5", lax.round, (0.5,), (0.0,)),
    ("neg@nan", lax.neg, (nan,), (-1.0,)),
    ("relu_where@0", _relu_where, (0.0,), (0.0,)),
    ("relu_where@1", _relu_where, (1.0,), (1.0,)),
    # exponentials and logarithms
    ("exp@0", lax.exp, (0.0,), (1.0,)),
    ("exp@-inf", lax.exp, (-inf,), (0.0,)),
    ("exp@inf", lax.exp, (inf,), (inf,)),
    ("exp@nan", lax.exp, (nan,), (nan,)),
    ("exp2@0", lax.exp2, (0.0,), (LN2,)),
    ("exp2@-inf", lax.exp2, (-inf,), (0.0,)),
    ("expm1@0", lax.expm1, (0.0,), (1.0,)),
    ("expm1@-inf", lax.expm1, (-inf,), (0.0,)),
    ("log@0", lax.log, (0.0,), (inf,)),
    ("log@-0", lax.log, (-0.0,), (-inf,)),
    ("log@1", lax.log, (1.0,), (1.0,)),
    ("log@inf", lax.log, (inf,), (0.0,)),
    ("log@nan", lax.log, (nan,), (nan,)),
    ("log2@0", lax.log2, (0.0,), (inf,)),
    ("log2@1", lax.log2, (1.0,), (1 / LN2,)),
    ("log2@inf", lax.log2, (inf,), (0.0,)),
    ("log10@0", lax.log10, (0.0,), (inf,)),
    ("log10@-0", lax.log10, (-0.0,), (-inf,)),
    ("log10@1", lax.log10, (1.0,), (1 / math.log(10.0),)),
    ("log10@100", lax.log10, (100.0,), (1 / (100 * math.log(10.0)),)),
    ("log10@inf", lax.log10, (inf,), (0.0,)),
    ("log10@nan", lax.log10, (nan,), (nan,)),
    ("log1p@-1", lax.log1p, (-1.0,), (inf,)),
    ("log1p@0", lax.log1p, (0.0,), (1.0,)),
    ("log1p@inf", lax.log1p, (inf,), (0.0,)),
    # roots: sqrt'(0) = inf
    ("sqrt@0", lax.sqrt, (0.0,), (inf,)),
    ("sqrt@4", lax.sqrt, (4.0,), (0.25,)),
    ("sqrt@inf", lax.sqrt, (inf,), (0.0,)),
    ("sqrt@-1", lax.sqrt, (-1.0,), (nan,)),
    ("rsqrt@0", lax.rsqrt, (0.0,), (-inf,)),
    ("rsqrt@4", lax.rsqrt, (4.0,), (-1 / 16,)),
    ("rsqrt@inf", lax.rsqrt, (inf,), (0.0,)),
    ("cbrt@0", lax.cbrt, (0.0,), (inf,)),
    ("cbrt@-8", lax.cbrt, (-8.0,), (1 / 12,)),
    ("cbrt@inf", lax.cbrt, (inf,), (0.0,)),
    ("x**2@0", _pow(2), (0.0,), (0.0,)),
    ("x**2@-0", _pow(2), (-0.0,), (0.0,)),
    ("x**3@0", _pow(3), (0.0,), (0.0,)),
    ("x**-1@0", _pow(-1), (0.0,), (-inf,)),
    ("x**0@0", _pow(0), (0.0,), (0.0,)),
    ("x**0@inf", _pow(0), (inf,), (0.0,)),
    ("x**1@0", _pow(1), (0.0,), (1.0,)),
    # saturating functions at their asymptotes
    ("tanh@0", lax.tanh, (0.0,), (1.0,)),
    ("tanh@inf", lax.tanh, (inf,), (0.0,)),
    ("tanh@-800", lax.tanh, (-800.0,), (0.0,)),
    ("logistic@0", lax.logistic, (0.0,), (0.25,)),
    ("logistic@800", lax.logistic, (800.0,), (0.0,)),
    ("logistic@-800", lax.logistic, (-800.0,), (0.0,)),
    ("logistic@-inf", lax.logistic, (-inf,), (0.0,)),
    ("erf@0", lax.erf, (0.0,), (TWO_OVER_SQRT_PI,)),
    ("erf@inf", lax.erf, (inf,), (0.0,)),
    ("erfc@0", lax.erfc, (0.0,), (-TWO_OVER_SQRT_PI,)),
    ("erfc@-inf", lax.erfc, (-inf,), (0.0,)),
    ("atan@0", lax.atan, (0.0,), (1.0,)),
    ("atan@inf", lax.atan, (inf,), (0.0,)),
    ("atan@-inf", lax.atan, (-inf,), (0.0,)),
    # trigonometric and hyperbolic functions, domain boundaries
    ("sin@0", lax.sin, (0.0,), (1.0,)),
    ("sin@inf", lax.sin, (inf,), (nan,)),
    ("cos@0", lax.cos, (0.0,), (0.0,)),
    ("tan@0", lax.tan, (0.0,), (1.0,)),
    ("sinh@0", lax.sinh, (0.0,), (1.0,)),
    ("cosh@0", lax.cosh, (0.0,), (0.0,)),
    ("asin@0", lax.asin, (0.0,), (1.0,)),
    ("asin@1", lax.asin, (1.0,), (inf,)),
    ("asin@-1", lax.asin, (-1.0,), (inf,)),
    ("asin@near1", lax.asin, (1 - 2.0 ** -30,), (1 / math.sqrt(2.0 ** -29 - 2.0 ** -60),)),
    ("asin@2", lax.asin, (2.0,), (nan,)),
    ("acos@1", lax.acos, (1.0,), (-inf,)),
    ("acos@-1", lax.acos, (-1.0,), (-inf,)),
    ("asinh@0", lax.asinh, (0.0,), (1.0,)),
    ("asinh@1e300", lax.asinh, (1e300,), (1e-300,)),
    ("asinh@-inf", lax.asinh, (-inf,), (0.0,)),
    ("acosh@1", lax.acosh, (1.0,), (inf,)),
    ("acosh@1e300", lax.acosh, (1e300,), (1e-300,)),
    ("acosh@inf", lax.acosh, (inf,), (0.0,)),
    ("acosh@0.5", lax.acosh, (0.5,), (nan,)),
    ("atanh@0", lax.atanh, (0.0,), (1.0,)),
    ("atanh@1", lax.atanh, (1.0,), (inf,)),
    ("atanh@-1", lax.atanh, (-1.0,), (inf,)),
    # special functions
    ("erf_inv@0", lax.erf_inv, (0.0,), (SQRT_PI_OVER_2,)),
    ("erf_inv@1", lax.erf_inv, (1.0,), (inf,)),
    ("erf_inv@-1", lax.erf_inv, (-1.0,), (inf,)),
    ("lgamma@1", lax.lgamma, (1.0,), (-EULER,)),
    ("lgamma@2", lax.lgamma, (2.0,), (1 - EULER,)),
    ("digamma@1", lax.digamma, (1.0,), (PI ** 2 / 6,)),
    ("digamma@0", lax.digamma, (0.0,), (inf,)),
    ("bessel_i0e@0", lax.bessel_i0e, (0.0,), (0.0,)),
    ("bessel_i0e@inf", lax.bessel_i0e, (inf,), (0.0,)),
    ("bessel_i1e@0", lax.bessel_i1e, (0.0,), (0.5,)),
    ("bessel_i1e@-0", lax.bessel_i1e, (-0.0,), (0.5,)),
    ("bessel_i1e@nan", lax.bessel_i1e, (nan,), (nan,)),
    ("i0@0", xnp.i0, (0.0,), (0.0,)),
    ("i0@2", xnp.i0, (2.0,), (I1_OF_2,)),
    ("i0@-2", xnp.i0, (-2.0,), (-I1_OF_2,)),
    ("sinc@0", xnp.sinc, (0.0,), (0.0,)),
    ("sinc@1e-20", xnp.sinc, (1e-20,), (-PI ** 2 / 3 * 1e-20,)),
    ("sinc@0.5", xnp.sinc, (0.5,), (-4 / PI,)),
    ("sinc@1", xnp.sinc, (1.0,), (-1.0,)),
    ("igamma_x@(1,0)", lax.igamma, (1.0, 0.0), (0.0, 1.0)),  # d/da P(a, 0) = 0
    ("igamma@(2,0)", lax.igamma, (2.0, 0.0), (0.0, 0.0)),
    # ties of max/min: the tangent splits 1/2 : 1/2
    ("max@tie", lax.max, (1.0, 1.0), (0.5, 0.5)),
    ("max@signed_zeros", lax.max, (0.0, -0.0), (0.5, 0.5)),
    ("max@inf_tie", lax.max, (inf, inf), (0.5, 0.5)),
    ("max@(2,1)", lax.max, (2.0, 1.0), (1.0, 0.0)),
    ("max@nan", lax.max, (nan, 1.0), (0.0, 0.0)),
    ("min@tie", lax.min, (-1.0, -1.0), (0.5, 0.5)),
    ("min@-inf_tie", lax.min, (-inf, -inf), (0.5, 0.5)),
    ("maximum(x,0)@0", lambda x: xnp.maximum(x, 0.0), (0.0,), (0.5,)),
    ("clamp@lo", _clamp, (0.0, 0.0, 1.0), (0.0, 0.0, 0.0)),
    ("clamp@hi", _clamp, (0.0, 1.0, 1.0), (0.0, 0.0, 0.0)),
    ("clamp@inside", _clamp, (0.0, 0.5, 1.0), (0.0, 1.0, 0.0)),
    ("clamp@below", _clamp, (0.0, -1.0, 1.0), (1.0, 0.0, 0.0)),
    ("clamp@above", _clamp, (0.0, 2.0, 1.0), (0.0, 0.0, 1.0)),
    # arithmetic at zeros and infinities
    ("div@(1,0)", lax.div, (1.0, 0.0), (inf, -inf)),
    ("div@(0,0)", lax.div, (0.0, 0.0), (inf, nan)),
    ("div@(1,inf)", lax.div, (1.0, inf), (0.0, 0.0)),
    ("div@(1e300,1e300)", lax.div, (1e300, 1e300), (1e-300, -1e-300)),  # y**2 overflows
    ("rem@(-5,3)", lax.rem, (-5.0, 3.0), (1.0, 1.0)),
    ("pow@(0,0)", lax.pow, (0.0, 0.0), (0.0, -inf)),  # d/dy: log(x) -> -inf (JAX: 0)
    ("pow@(0,-1)", lax.pow, (0.0, -1.0), (-inf, -inf)),  # -x**-2; log(x) x**-1 -> -inf
    ("pow@(0,-0.5)", lax.pow, (0.0, -0.5), (-inf, -inf)),
    ("x**x@0", lambda x: lax.pow(x, x), (0.0,), (-inf,)),  # x**x (log x + 1) -> -inf
    ("power(x,x)@0", lambda x: xnp.power(x, x), (0.0,), (-inf,)),
    ("pow@(0,2)", lax.pow, (0.0, 2.0), (0.0, 0.0)),
    ("pow@(0,1)", lax.pow, (0.0, 1.0), (1.0, 0.0)),
    ("pow@(0,0.5)", lax.pow, (0.0, 0.5), (inf, 0.0)),
    ("pow@(2,0)", lax.pow, (2.0, 0.0), (0.0, LN2)),
    ("pow@(-1,2)", lax.pow, (-1.0, 2.0), (-2.0, nan)),
    # atan2(x, y) = atan(x / y): (y, -x) / (x^2 + y^2)
    ("atan2@(1,0)", lax.atan2, (1.0, 0.0), (0.0, -1.0)),
    ("atan2@(0,-1)", lax.atan2, (0.0, -1.0), (-1.0, 0.0)),
    ("atan2@(0,0)", lax.atan2, (0.0, 0.0), (nan, nan)),
    ("atan2@(1e300,1e300)", lax.atan2, (1e300, 1e300), (5e-301, -5e-301)),
    ("atan2@(inf,1)", lax.atan2, (inf, 1.0), (0.0, 0.0)),  # xnp: 0 at infinity
    ("atan2@(1,-inf)", lax.atan2, (1.0, -inf), (0.0, 0.0)),
    ("atan2@(inf,inf)", lax.atan2, (inf, inf), (0.0, 0.0)),
    ("atan2@(nan,1)", lax.atan2, (nan, 1.0), (nan, nan)),
    # hypot(x, y): (x, y) / hypot(x, y); xnp's choices: 0 at (0, 0) (as linalg.norm at the
    # zero vector), the limits (sign x, 0) at (+-inf, finite) and (sign x, sign y) / sqrt 2
    # at two infinities (the value at every tie)
    ("hypot@(3,4)", xnp.hypot, (3.0, 4.0), (0.6, 0.8)),
    ("hypot@(-3,0)", xnp.hypot, (-3.0, 0.0), (-1.0, 0.0)),
    ("hypot@(0,2)", xnp.hypot, (0.0, 2.0), (0.0, 1.0)),
    ("hypot@(0,0)", xnp.hypot, (0.0, 0.0), (0.0, 0.0)),
    ("hypot@(2,2)", xnp.hypot, (2.0, 2.0), (SQRT_HALF, SQRT_HALF)),
    ("hypot@(1e300,1e300)", xnp.hypot, (1e300, 1e300), (SQRT_HALF, SQRT_HALF)),
    ("hypot@(1e300,-3e299)", xnp.hypot, (1e300, -3e299), (1 / math.sqrt(1.09),
                                                           -0.3 / math.sqrt(1.09))),
    ("hypot@(inf,1)", xnp.hypot, (inf, 1.0), (1.0, 0.0)),
    ("hypot@(-inf,2)", xnp.hypot, (-inf, 2.0), (-1.0, 0.0)),
    ("hypot@(1,inf)", xnp.hypot, (1.0, inf), (0.0, 1.0)),
    ("hypot@(inf,inf)", xnp.hypot, (inf, inf), (SQRT_HALF, SQRT_HALF)),
    ("hypot@(-inf,inf)", xnp.hypot, (-inf, inf), (-SQRT_HALF, SQRT_HALF)),
    ("hypot@(nan,1)", xnp.hypot, (nan, 1.0), (nan, nan)),
    # logaddexp(x1, x2): (logistic(x1 - x2), logistic(x2 - x1))
    ("logaddexp@tie", xnp.logaddexp, (0.0, 0.0), (0.5, 0.5)),
    ("logaddexp@(3,3)", xnp.logaddexp, (3.0, 3.0), (0.5, 0.5)),
    ("logaddexp@(0,2)", xnp.logaddexp, (0.0, 2.0), (_logistic(-2.0), _logistic(2.0))),
    ("logaddexp@(0,800)", xnp.logaddexp, (0.0, 800.0), (0.0, 1.0)),
    ("logaddexp@(0,-800)", xnp.logaddexp, (0.0, -800.0), (1.0, 0.0)),
    ("logaddexp@(0,1e308)", xnp.logaddexp, (0.0, 1e308), (0.0, 1.0)),
    ("logaddexp@(0,-1e308)", xnp.logaddexp, (0.0, -1e308), (1.0, 0.0)),
    ("logaddexp@(0,inf)", xnp.logaddexp, (0.0, inf), (0.0, 1.0)),
    ("logaddexp@(0,-inf)", xnp.logaddexp, (0.0, -inf), (1.0, 0.0)),
    ("logaddexp@(inf,inf)", xnp.logaddexp, (inf, inf), (0.5, 0.5)),  # xnp's convention
    ("logaddexp@(-inf,-inf)", xnp.logaddexp, (-inf, -inf), (0.5, 0.5)),
    ("logaddexp@(inf,-inf)", xnp.logaddexp, (inf, -inf), (1.0, 0.0)),
    ("logaddexp@nan", xnp.logaddexp, (nan, 0.0), (nan, nan)),
    ("logaddexp2@tie", xnp.logaddexp2, (0.0, 0.0), (0.5, 0.5)),
    ("logaddexp2@(0,1)", xnp.logaddexp2, (0.0, 1.0), (1 / 3, 2 / 3)),
    ("logaddexp2@(0,1e308)", xnp.logaddexp2, (0.0, 1e308), (0.0, 1.0)),
    ("logaddexp2@(-inf,0)", xnp.logaddexp2, (-inf, 0.0), (0.0, 1.0)),
    ("cumlogsumexp@tie", _cumlse_last, (0.0, 0.0), (0.5, 0.5)),
    ("cumlogsumexp@(-inf,0)", _cumlse_last, (-inf, 0.0), (0.0, 1.0)),
    ("cumlogsumexp@(-inf,-inf)", _cumlse_last, (-inf, -inf), (0.5, 0.5)),
]

# (id, f, x, expected second derivative f''(x))
SECOND = [
    ("logaddexp(0,z)@0", _lae0, 0.0, 0.25),
    ("logaddexp(0,z)@2", _lae0, 2.0, _logistic(2.0) * _logistic(-2.0)),
    ("logaddexp(0,z)@800", _lae0, 800.0, 0.0),
    ("logaddexp(0,z)@-inf", _lae0, -inf, 0.0),
    ("logaddexp2(0,z)@0", lambda z: xnp.logaddexp2(0.0, z), 0.0, LN2 / 4),
    ("cumlogsumexp(0,z)@0", lambda z: _cumlse_last(0.0, z), 0.0, 0.25),
    ("sinc@0", xnp.sinc, 0.0, -PI ** 2 / 3),
    ("sinc@1e-20", xnp.sinc, 1e-20, -PI ** 2 / 3),
    ("i0@0", xnp.i0, 0.0, 0.5),  # I0'' = I1' = I0 - I1/x -> 1/2
    ("logistic@0", lax.logistic, 0.0, 0.0),
    ("log10@1", lax.log10, 1.0, -1 / math.log(10.0)),  # -1 / (x**2 ln 10)
    ("log2@2", lax.log2, 2.0, -1 / (4 * LN2)),
    ("tanh@0", lax.tanh, 0.0, 0.0),
    ("abs@0", lax.abs, 0.0, 0.0),
    ("x**2@0", _pow(2), 0.0, 2.0),
    ("x**3@0", _pow(3), 0.0, 0.0),
    ("sqrt@1", lax.sqrt, 1.0, -0.25),
    ("asinh@0", lax.asinh, 0.0, 0.0),
    ("asinh@1", lax.asinh, 1.0, -(2.0 ** -1.5)),  # the switch between two formulas
    ("asinh@-3", lax.asinh, -3.0, 3 / 10 ** 1.5),
    ("atan2(x,1)@1", lambda x: lax.atan2(x, 1.0), 1.0, -0.5),
    ("bessel_i1e@0", lax.bessel_i1e, 0.0, 0.0),
    ("max(x,0)@0", lambda x: lax.max(x, 0.0), 0.0, 0.0),
    ("hypot(x,4)@3", lambda x: xnp.hypot(x, 4.0), 3.0, 16 / 125),  # y^2 / hypot^3
    ("hypot(x,2)@2", lambda x: xnp.hypot(x, 2.0), 2.0, 4 / 8 ** 1.5),
    ("div(1,y)@1e-100", lambda y: lax.div(1.0, y), 1e-100, 2e300),  # 2 / y^3
]


def _arrays(args):
    return tuple(np.asarray(a, F64) for a in args)


def _check(got, expected, what):
    np.testing.assert_allclose(np.asarray(got, F64), np.asarray(expected, F64), rtol=RTOL,
                               atol=ATOL, err_msg=what)


@pytest.mark.parametrize("name,f,args,expected", FIRST, ids=[c[0] for c in FIRST])
def test_first_derivative(name, f, args, expected):
    args = _arrays(args)
    argnums = tuple(range(len(args)))
    g = xnp.grad(f, argnums=argnums)
    with np.errstate(all="ignore"):
        for mode, fn in (("eager", g), ("jit", xnp.jit(g))):
            _check(fn(*args), expected, f"grad {mode} {name}")
        for i, want in enumerate(expected):
            # operand i alone (the others are constants: a zero tangent times an infinite
            # partial would be NaN, as in any jvp)
            def partial(xi, i=i):
                return f(*args[:i], xi, *args[i + 1:])

            def tangent(xi, partial=partial):
                return xnp.jvp(partial, (xi,), (np.ones((), F64),))[1]

            for mode, fn in (("eager", tangent), ("jit", xnp.jit(tangent))):
                _check(fn(args[i]), want, f"jvp {mode} {name} (operand {i})")


@pytest.mark.parametrize("name,f,x,expected", SECOND, ids=[c[0] for c in SECOND])
def test_second_derivative(name, f, x, expected):
    gg = xnp.grad(xnp.grad(f))
    with np.errstate(all="ignore"):
        for mode, fn in (("eager", gg), ("jit", xnp.jit(gg))):
            _check(fn(np.asarray(x, F64)), expected, f"grad(grad) {mode} {name}")


def _sum_of(fn):
    return lambda x: xnp.sum(fn(x))


# (id, f, x, expected gradient): ties, zeros and singular matrices in array primitives
ARRAY = [
    ("reduce_max@tie", lambda x: lax.reduce_max(x, (0,)), [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
    ("reduce_max@3ties", lambda x: lax.reduce_max(x, (0,)), [2.0, 2.0, 2.0], [1 / 3] * 3),
    ("reduce_max@-inf", lambda x: lax.reduce_max(x, (0,)), [-inf, -inf], [0.5, 0.5]),
    ("reduce_min@tie", lambda x: lax.reduce_min(x, (0,)), [1.0, 1.0, 3.0], [0.5, 0.5, 0.0]),
    ("xnp.max@tie", xnp.max, [2.0, 2.0, 1.0], [0.5, 0.5, 0.0]),
    ("reduce_prod@zero", lambda x: lax.reduce_prod(x, (0,)), [0.0, 2.0, 3.0], [6.0, 0.0, 0.0]),
    ("reduce_prod@2zeros", lambda x: lax.reduce_prod(x, (0,)), [0.0, 0.0, 3.0], [0.0] * 3),
    ("reduce_prod@-0", lambda x: lax.reduce_prod(x, (0,)), [-0.0, 2.0], [2.0, 0.0]),
    ("cumprod@zero", _sum_of(lambda x: lax.cumprod(x, axis=0)), [2.0, 0.0, 3.0],
     [1.0, 8.0, 0.0]),
    # xnp's documented convention (lax.cumulative): a tie goes to the later position
    ("cummax@ties", _sum_of(lambda x: lax.cummax(x, axis=0)), [1.0, 1.0, 1.0], [1.0] * 3),
    ("cumlogsumexp@-inf", _sum_of(lambda x: lax.cumlogsumexp(x, axis=0)), [-inf, 0.0, -inf],
     [1.0, 2.0, 0.0]),
    # stable: tied elements keep their input order
    ("sort@tie", lambda x: xnp.sum(xnp.sort(x) * np.array([1.0, 2.0, 3.0])), [1.0, 1.0, 0.0],
     [2.0, 3.0, 1.0]),
    ("top_k@tie", lambda x: xnp.sum(lax.top_k(x, 2)[0]), [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]),
    # the first maximum of each window (JAX's select_and_gather_add with >=)
    ("reduce_window_max@tie",
     _sum_of(lambda x: lax.reduce_window_max(x, (2,), (1,), ((0, 0),))), [1.0, 1.0, 1.0],
     [1.0, 1.0, 0.0]),
    # d det(A) / dA = cofactor matrix of A (the transposed adjugate), written out by hand
    ("det@singular", xnp.linalg.det, [[1.0, 2.0], [2.0, 4.0]], [[4.0, -2.0], [-2.0, 1.0]]),
    ("det@zero", xnp.linalg.det, [[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]),
    ("det@nilpotent", xnp.linalg.det, [[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [-1.0, 0.0]]),
    ("det@zero_column", xnp.linalg.det, [[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]],
     [[1.0, 0.0, 0.0], [3.0, 0.0, 0.0], [-2.0, 0.0, 0.0]]),
    ("det@equal_columns", xnp.linalg.det, [[1.0, 1.0, 1.0], [1.0, 1.0, 2.0], [1.0, 1.0, 3.0]],
     [[1.0, -1.0, 0.0], [-2.0, 2.0, 0.0], [1.0, -1.0, 0.0]]),
    ("det@rank1", xnp.linalg.det, [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]],
     np.zeros((3, 3))),
    ("det@shift", xnp.linalg.det, np.diag([2.0, 3.0, 4.0], 1),
     [[0.0] * 4, [0.0] * 4, [0.0] * 4, [-24.0, 0.0, 0.0, 0.0]]),
    ("det@identity", xnp.linalg.det, np.eye(3), np.eye(3)),
    # degenerate spectra: the sums are smooth there
    ("eigvalsh_sum@identity", _sum_of(xnp.linalg.eigvalsh), np.eye(2), np.eye(2)),
    ("svdvals_sum@identity", _sum_of(lambda a: xnp.linalg.svd(a, compute_uv=False)),
     np.eye(2), np.eye(2)),
]


@pytest.mark.parametrize("name,f,x,expected", ARRAY, ids=[c[0] for c in ARRAY])
def test_array_derivative(name, f, x, expected):
    x, expected = np.asarray(x, F64), np.asarray(expected, F64)
    v = np.random.default_rng(0).normal(size=x.shape)  # a jvp direction

    def tangent(x):
        return xnp.jvp(f, (x,), (v,))[1]

    with np.errstate(all="ignore"):
        for mode, g, t in (("eager", xnp.grad(f), tangent),
                           ("jit", xnp.jit(xnp.grad(f)), xnp.jit(tangent))):
            _check(g(x), expected, f"grad {mode} {name}")
            _check(t(x), np.sum(expected * v), f"jvp {mode} {name}")


def test_det_second_derivative_at_identity():
    """The adjugate rule is itself differentiable: d^2 det / dA_ij dA_kl at I (2x2) is
    +1 for (00, 11), -1 for (01, 10), 0 elsewhere (det = a00 a11 - a01 a10)."""
    want = np.zeros((2, 2, 2, 2))
    want[0, 0, 1, 1] = want[1, 1, 0, 0] = 1.0
    want[0, 1, 1, 0] = want[1, 0, 0, 1] = -1.0
    for h in (xnp.hessian(xnp.linalg.det), xnp.jit(xnp.hessian(xnp.linalg.det))):
        _check(h(np.eye(2)), want, "hessian of det at I")


def _det_hessian(a):
    """The closed form ``d^2 det / dA_ij dA_km``: the signed minor of ``a`` without rows
    ``i, k`` and columns ``j, m`` (0 where ``i == k`` or ``j == m``; the (n-2)-minors are
    NumPy's determinants of the submatrices)."""
    n = a.shape[0]
    h = np.zeros((n,) * 4, a.dtype)
    for i, j, k, m in itertools.product(range(n), repeat=4):
        if i != k and j != m:
            rows = [r for r in range(n) if r not in (i, k)]
            cols = [c for c in range(n) if c not in (j, m)]
            minor = np.linalg.det(a[np.ix_(rows, cols)]) if rows else 1.0
            # the cofactor of a_ij, then of a_km inside the minor without row i, column j
            h[i, j, k, m] = (-1) ** (i + j + k - (k > i) + m - (m > j)) * minor
    return h


SINGULAR = {  # rank n - 1 and n - 2, zero pivots first, in the middle and last
    "2x2_rank1": [[1.0, 2.0], [2.0, 4.0]],
    "2x2_zero": [[0.0, 0.0], [0.0, 0.0]],
    "3x3_rank2": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
    "3x3_zero_column": [[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]],
    "3x3_rank1": [[1.0, -1.0, 2.0], [2.0, -2.0, 4.0], [3.0, -3.0, 6.0]],
    "4x4_rank2": np.diag([1.0, 2.0, 0.0, 0.0]),
    "4x4_rank2_mixed": [[1.0, 2.0, 1.0, 0.0], [2.0, 4.0, 0.0, 1.0], [3.0, 6.0, 1.0, 1.0],
                        [1.0, 2.0, 0.0, 1.0]],
    "4x4_rank3": [[2.0, 1.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0], [3.0, 2.0, 1.0, 4.0],
                  [0.0, 5.0, 1.0, 2.0]],
}


@pytest.mark.parametrize("name", list(SINGULAR))
def test_det_second_derivative_at_singular_matrices(name):
    """det is a polynomial: its Hessian is the (n-2)-minors everywhere, also at singular
    matrices (rank n-1 and n-2), where it was NaN; forward over reverse, reverse over
    reverse and forward over forward, eagerly and under jit."""
    a = np.asarray(SINGULAR[name], F64)
    want = _det_hessian(a)
    assert np.linalg.matrix_rank(a) < a.shape[0]
    grad = xnp.grad(xnp.linalg.det)
    e, v = np.random.default_rng(0).normal(size=(2,) + a.shape)

    def fwd_fwd(x):  # forward over forward: the second derivative along e and v
        return xnp.jvp(lambda y: xnp.jvp(xnp.linalg.det, (y,), (e,))[1], (x,), (v,))[1]

    for h in (xnp.hessian(xnp.linalg.det), xnp.jacfwd(grad), xnp.jacrev(grad)):
        for mode, fn in (("eager", h), ("jit", xnp.jit(h))):
            np.testing.assert_allclose(np.asarray(fn(a)), want, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{mode} {name}")
    for fn in (fwd_fwd, xnp.jit(fwd_fwd)):
        np.testing.assert_allclose(float(fn(a)), np.einsum("ijkm,ij,km->", want, e, v),
                                   rtol=1e-12, atol=1e-12)
    # the closed form against central differences of the (exact) gradient (cubic terms:
    # an error ~ step^2)
    step = 1e-5
    fd = (np.asarray(grad(a + step * v)) - np.asarray(grad(a - step * v))) / (2 * step)
    np.testing.assert_allclose(np.einsum("ijkm,km->ij", want, v), fd, rtol=1e-6, atol=1e-7)


def test_det_second_derivative_at_singular_complex_and_batched_matrices():
    """Complex (the second directional derivative ``sum H_ijkm E_ij F_km``), float32,
    batched and vmapped singular matrices."""
    rng = np.random.default_rng(1)
    c = (rng.normal(size=(3, 2)) + 1j * rng.normal(size=(3, 2))) @ (
        rng.normal(size=(2, 3)) + 1j * rng.normal(size=(2, 3)))  # rank 2
    e, f = (rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3)) for _ in range(2))
    want = np.einsum("ijkm,ij,km->", _det_hessian(c), e, f)

    def second(x):
        return xnp.jvp(lambda y: xnp.jvp(xnp.linalg.det, (y,), (f,))[1], (x,), (e,))[1]

    for fn in (second, xnp.jit(second)):
        np.testing.assert_allclose(complex(fn(c)), want, rtol=1e-12)
    mats = np.stack([np.asarray(SINGULAR[k], F64) for k in ("3x3_rank2", "3x3_rank1",
                                                            "3x3_zero_column")])
    want = np.stack([_det_hessian(m) for m in mats])
    for fn in (xnp.vmap(xnp.hessian(xnp.linalg.det)), xnp.jit(xnp.vmap(xnp.hessian(
            xnp.linalg.det)))):
        np.testing.assert_allclose(np.asarray(fn(mats)), want, rtol=1e-12, atol=1e-12)
    batched = xnp.jacfwd(xnp.grad(lambda x: xnp.sum(xnp.linalg.det(x))))(mats)
    np.testing.assert_allclose(np.einsum("bijbkm->bijkm", np.asarray(batched)), want,
                               rtol=1e-12, atol=1e-12)
    h32 = xnp.hessian(xnp.linalg.det)(mats[0].astype(np.float32))
    assert h32.dtype == np.float32
    np.testing.assert_allclose(np.asarray(h32), want[0], rtol=1e-5, atol=1e-5)


def test_det_gradient_batched_and_vmapped():
    mats = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [0.0, 0.0]]])
    want = np.array([[[4.0, -2.0], [-2.0, 1.0]], [[0.0, 0.0], [-1.0, 0.0]]])
    _check(xnp.grad(lambda a: xnp.sum(xnp.linalg.det(a)))(mats), want, "batched grad det")
    _check(xnp.vmap(xnp.grad(xnp.linalg.det))(mats), want, "vmap(grad det)")
    # eager det stays a plain call: NumPy's scalar, as NumPy's det
    assert type(xnp.linalg.det(np.eye(2))) is np.float64


def test_logistic_regression_first_step_from_zero():
    """The issue's case: a logaddexp loss at w = 0 takes NumPy's hand-written gradient step."""
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(20, 3)), rng.integers(0, 2, 20) * 2.0 - 1.0

    def loss(w):
        return xnp.mean(xnp.logaddexp(0.0, -y * (X @ w)))

    w = np.zeros(3)
    m = -y * (X @ w)
    hand = (X * (-y * (1 / (1 + np.exp(-m))))[:, None]).mean(axis=0)
    _check(xnp.grad(loss)(w), hand, "grad of the logistic loss at 0")
    _check(xnp.jit(xnp.grad(loss))(w), hand, "jit grad of the logistic loss at 0")


@pytest.mark.parametrize("z", [-2 + 0.1j, -0.5 - 2j, 3 + 1j, 0.5 + 0.1j])
def test_acosh_complex_derivative_on_the_principal_branch(z):
    """acosh'(z) = 1 / (sqrt(z - 1) sqrt(z + 1)); 1 / sqrt((z - 1)(z + 1)) has the wrong
    sign where Re z < 0."""
    z = np.complex128(z)
    want = 1 / (np.sqrt(z - 1) * np.sqrt(z + 1))

    def tangent(z):
        return xnp.jvp(lax.acosh, (z,), (np.complex128(1),))[1]

    for mode, fn in (("eager", tangent), ("jit", xnp.jit(tangent))):
        np.testing.assert_allclose(np.asarray(fn(z)), want, rtol=RTOL, err_msg=mode)
