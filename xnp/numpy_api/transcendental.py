"""Exponentials, logarithms, roots, trigonometric and hyperbolic functions (NumPy
ufuncs; conventions as in :mod:`xnp.numpy_api.elementwise`)."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax.cumulative import log_add_exp
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for
from xnp.numpy_api._ufunc import (
    _LN10, _LN2, _as_dtype, _binary_inexact, _copysign, _dtype_of, _extras, _finish, _inexact,
    _reject, _scalar, in_float32, real_operands,
)
from xnp.tracing import core
from xnp.numpy_api import _fastpath as fastpath
from xnp.tracing.custom_derivatives import custom_jvp

__all__ = [
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sqrt",
    "cbrt", "hypot", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh",
    "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asin", "acos", "atan", "atan2", "asinh",
    "acosh", "atanh", "deg2rad", "rad2deg", "degrees", "radians", "i0",
]


def _float_unary(fname, op, x, out, where, casting, dtype, *, complex_ok=True):
    x = _inexact(fname, x, dtype, casting)
    if not complex_ok:
        _reject(fname, x, "c", "real inputs only")
    return _finish(fname, op(x), out, where, casting)


@fastpath.unary("exp")
def exp(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """``e ** x`` (integers convert to float as described in the module docstring)."""
    _extras("exp", casting, order, subok, signature, dtype, (x,))
    return _float_unary("exp", lax.exp, x, out, where, casting, dtype)


@fastpath.unary("exp2")
def exp2(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """``2 ** x`` (float)."""
    _extras("exp2", casting, order, subok, signature, dtype, (x,))
    return _float_unary("exp2", lax.exp2, x, out, where, casting, dtype)


@fastpath.unary("expm1")
def expm1(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``exp(x) - 1``, accurate for small ``x`` (float and complex).

    Complex values are NumPy's, eagerly and under ``jit``: its loop computes
    ``expm1(a) cos(b) - 2 sin(b/2)**2 + i exp(a) sin(b)``, so ``inf + 0j`` gives
    ``inf + nanj`` ("invalid value" warning) and ``-0 + 0j`` gives ``-0 + 0j``, where the
    Array API standard has ``inf + 0j`` and ``+0 + 0j``: ``xnp.array_api.expm1`` gives the
    standard's (:func:`standard_expm1`).
    """
    _extras("expm1", casting, order, subok, signature, dtype, (x,))
    return _float_unary("expm1", lax.expm1, x, out, where, casting, dtype)


def standard_expm1(x, /):
    """``expm1`` with the Array API standard's complex special cases, for
    ``xnp.array_api``: ``expm1(a + 0j)`` is ``expm1(a) + 0j`` with the zero's sign kept
    (``+0`` for ``a = -0``; NumPy: ``inf + nanj`` for ``a = inf``, ``nan + nanj`` for NaN),
    ``-inf + bj`` gives ``-1 + 0j`` (times ``cis(b)`` for finite ``b``) and ``+inf + bj``
    with ``b`` infinite or NaN gives ``inf + nanj``. Real values are ``expm1``'s."""
    x = _inexact("expm1", x)
    res = lax.expm1(x)
    if _dtype_of(x).kind == "c":
        res = _complex_expm1_special_values(x, res)
    return res


def _complex_expm1_special_values(x, res):
    """``res = expm1(x)`` for complex ``x``, with the standard's special cases selected in."""
    a, b = lax.real(x), lax.imag(x)
    rdt = _dtype_of(a)
    zero, one, inf, nan = (_scalar(v, rdt) for v in (0.0, 1.0, np.inf, np.nan))
    re, im = lax.real(res), lax.imag(res)
    b_zero = lax.eq(b, zero)
    b_finite = lax.is_finite(b)
    # b == +-0: the real function (+0 for a == +-0, as the standard says), b's zero sign
    re = lax.select(b_zero, lax.select(lax.eq(a, zero), zero, lax.expm1(a)), re)
    im = lax.select(b_zero, b, im)
    # a == -inf: -1 + 0 * cis(b), an unsigned 0 where b is infinite or NaN
    a_ninf = lax.eq(a, lax.neg(inf))
    re = lax.select(a_ninf, lax.neg(one), re)
    sin_b = lax.sin(lax.select(b_finite, b, zero))  # no warning from sin(inf)
    im = lax.select(a_ninf, lax.mul(zero, sin_b), im)
    # a == +inf and b infinite or NaN: inf + nan j
    big = lax.and_(lax.eq(a, inf), lax.not_(b_finite))
    re = lax.select(big, inf, re)
    im = lax.select(big, nan, im)
    return lax.complex(re, im)


@fastpath.unary("log")
def log(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Natural logarithm; NaN for negative reals, -inf at 0 (float)."""
    _extras("log", casting, order, subok, signature, dtype, (x,))
    return _float_unary("log", lax.log, x, out, where, casting, dtype)


@fastpath.unary("log2")
def log2(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Base-2 logarithm; NaN for negative reals, -inf at 0 (float; ints and bools as
    float64, NumPy's loops). Eagerly NumPy's own ``log2`` (bit for bit); under ``jit``
    within one ulp of it (:func:`xnp.lax.log2`)."""
    _extras("log2", casting, order, subok, signature, dtype, (x,))
    return _float_unary("log2", lax.log2, x, out, where, casting, dtype)


@fastpath.unary("log10")
def log10(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """Base-10 logarithm; NaN for negative reals, -inf at 0 (float; ints and bools as
    float64, NumPy's loops). Eagerly NumPy's own ``log10`` (bit for bit:
    ``log10(1000.0)`` is ``3.0``); under ``jit`` within one ulp of it
    (:func:`xnp.lax.log10`)."""
    _extras("log10", casting, order, subok, signature, dtype, (x,))
    return _float_unary("log10", lax.log10, x, out, where, casting, dtype)


def _div_by_const(x, c: float):
    """``x / c`` for real ``x``; complex ``x`` has both parts scaled by the real ``1 / c``
    (as NumPy's complex log2/log10: a complex division by ``c + 0j`` would turn
    ``-inf + 0j`` into ``-inf + nanj``)."""
    dt = _dtype_of(x)
    if dt.kind != "c":
        return lax.div(x, _scalar(c, dt))
    re, im = lax.real(x), lax.imag(x)
    inv = _scalar(_INVERSES.get(c, 1.0 / c), _dtype_of(re))
    return lax.complex(lax.mul(re, inv), lax.mul(im, inv))


# log2(e) and log10(e) rounded once (NumPy's NPY_LOG2E / NPY_LOG10E), not 1 / ln 2 rounded twice
_INVERSES = {_LN2: float(np.log2(np.e)), _LN10: float(np.log10(np.e))}


@fastpath.unary("log1p")
def log1p(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``log(1 + x)``, accurate for small ``x`` (float). Complex ``x`` eagerly is NumPy's
    ``log|1 + x| + i atan2(x.imag, 1 + x.real)``, which rounds a tiny ``|x|``
    (``log1p(1e-300 + 0j)`` is ``0j``); under ``jit`` the real part is accurate there
    (``1e-300``; README, "Special values under jit")."""
    _extras("log1p", casting, order, subok, signature, dtype, (x,))
    return _float_unary("log1p", lax.log1p, x, out, where, casting, dtype)


def logaddexp(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """``log(exp(x1) + exp(x2))`` without overflow (real floats; NumPy's algorithm,
    :func:`xnp.lax.cumulative.log_add_exp`).

    The derivative is ``exp(x_i - result)``, also at ties (1/2 each) and at infinities
    (0 or 1; 1/2 each for equal infinities), never NaN from overflow.
    """
    _extras("logaddexp", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = real_operands("logaddexp", _binary_inexact, x1, x2, dtype, casting,
                            "real inputs only")
    res = lax.composite("logaddexp", _log_add_exp, a, b)
    return _finish("logaddexp", res, out, where, casting)


def logaddexp2(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K",
               dtype=None, subok=True, signature=None):
    """``log2(2**x1 + 2**x2)`` without overflow (real floats; NumPy's algorithm);
    derivatives as :func:`logaddexp`'s (``2**(x_i - result)``)."""
    _extras("logaddexp2", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = real_operands("logaddexp2", _binary_inexact, x1, x2, dtype, casting,
                            "real inputs only")
    res = lax.composite("logaddexp2", _log_add_exp2, a, b)
    return _finish("logaddexp2", res, out, where, casting)


def _log1p_exp2(t):
    return _div_by_const(lax.log1p(lax.exp2(t)), _LN2)


# (float16 and bfloat16 in float32, as NumPy's half loop and ml_dtypes' loop compute: in
# their own precision the sum's cancellation near 0 can flip the sign)
_log_add_exp = in_float32(log_add_exp)


@in_float32
def _log_add_exp2(a, b):
    return log_add_exp(a, b, _log1p_exp2)


@fastpath.unary("sqrt")
def sqrt(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Non-negative square root; NaN for negative reals (float or complex)."""
    _extras("sqrt", casting, order, subok, signature, dtype, (x,))
    return _float_unary("sqrt", lax.sqrt, x, out, where, casting, dtype)


def cbrt(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Real cube root (negative for negative ``x``); complex raises ``TypeError``."""
    _extras("cbrt", casting, order, subok, signature, dtype, (x,))
    return _float_unary("cbrt", lax.cbrt, x, out, where, casting, dtype, complex_ok=False)


def hypot(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``sqrt(x1**2 + x2**2)`` without intermediate overflow; inf if either is inf
    (even with a NaN in the other), as C ``hypot``. Real inputs only.

    The derivative ``(x1, x2) / hypot`` is computed without overflow; it is 0 at
    ``(0, 0)``, ``(sign x1, 0)`` at ``(+-inf, finite)`` and ``(sign x1, sign x2) /
    sqrt(2)`` where both are infinite."""
    _extras("hypot", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = real_operands("hypot", _binary_inexact, x1, x2, dtype, casting,
                             "real inputs only")
    # the derivative rule is attached only where a transformation can see it
    traced = isinstance(a, core.Tracer) or isinstance(b, core.Tracer)
    # eagerly the backend's kernel (NumPy's C hypot, whose rounding the formula can miss)
    res = _hypot_differentiable(a, b) if traced else lax.composite("hypot", _hypot, a, b)
    return _finish("hypot", res, out, where, casting)


@in_float32  # (as NumPy's half loop: hypotf in float32, rounded once)
def _hypot(x, y):
    dt = core.aval_of(x).dtype
    a, b = lax.abs(x), lax.abs(y)
    big, small = lax.max(a, b), lax.min(a, b)
    zero, one = _scalar(0, dt), _scalar(1, dt)
    t = lax.div(small, lax.select(lax.eq(big, zero), one, big))
    res = lax.mul(big, lax.sqrt(lax.add(one, lax.mul(t, t))))
    inf = _scalar(np.inf, dt)
    return lax.select(lax.or_(lax.eq(a, inf), lax.eq(b, inf)), inf, res)


@custom_jvp
def _hypot_differentiable(x, y):
    return _hypot(x, y)


@_hypot_differentiable.defjvp
def _hypot_jvp(primals, tangents):
    """``d hypot = (x dx + y dy) / hypot`` as ``(u dx + v dy) / sqrt(u^2 + v^2)`` with
    ``(u, v) = (x, y) / max(|x|, |y|)``: no overflow, and the limits at infinity:
    ``(sign x, 0)`` at ``(+-inf, finite)``, ``(sign x, sign y) / sqrt(2)`` at two
    infinities (the value at every finite tie). At ``(0, 0)`` the derivative is 0 (the
    minimum-norm subgradient, as ``linalg.norm`` of the zero vector)."""
    (x, y), (tx, ty) = primals, tangents
    dt = core.aval_of(x).dtype
    zero, one, inf = _scalar(0, dt), _scalar(1, dt), _scalar(np.inf, dt)
    a, b = lax.abs(x), lax.abs(y)
    big = lax.max(a, b)
    zeros = lax.eq(big, zero)
    scale = lax.select(zeros, one, big)

    def ratio(v, av):  # v / big, with inf / inf read as sign(v)
        at_inf = lax.eq(av, inf)
        return lax.select(at_inf, lax.sign(v), lax.div(lax.select(at_inf, zero, v), scale))

    u, v = ratio(x, a), ratio(y, b)
    r = lax.sqrt(lax.add(lax.mul(u, u), lax.mul(v, v)))
    r = lax.select(zeros, one, r)
    du, dv = lax.div(u, r), lax.div(v, r)
    return _hypot_differentiable(x, y), lax.add(lax.mul(du, tx), lax.mul(dv, ty))


# =========================================================================== trigonometric


@fastpath.unary("sin")
def sin(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Sine (radians; float or complex)."""
    _extras("sin", casting, order, subok, signature, dtype, (x,))
    return _float_unary("sin", lax.sin, x, out, where, casting, dtype)


@fastpath.unary("cos")
def cos(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Cosine (radians; float or complex)."""
    _extras("cos", casting, order, subok, signature, dtype, (x,))
    return _float_unary("cos", lax.cos, x, out, where, casting, dtype)


@fastpath.unary("tan")
def tan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Tangent (radians; float or complex)."""
    _extras("tan", casting, order, subok, signature, dtype, (x,))
    return _float_unary("tan", lax.tan, x, out, where, casting, dtype)


@fastpath.unary("arcsin")
def arcsin(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse sine; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arcsin", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arcsin", lax.asin, x, out, where, casting, dtype)


@fastpath.unary("arccos")
def arccos(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse cosine; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arccos", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arccos", lax.acos, x, out, where, casting, dtype)


@fastpath.unary("arctan")
def arctan(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """Inverse tangent (float or complex)."""
    _extras("arctan", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arctan", lax.atan, x, out, where, casting, dtype)


def arctan2(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Angle of the point ``(x2, x1)`` in radians, in ``[-pi, pi]`` (real floats)."""
    _extras("arctan2", casting, order, subok, signature, dtype, (x1, x2))
    a, b, _ = real_operands("arctan2", _binary_inexact, x1, x2, dtype, casting,
                            "real inputs only")
    return _finish("arctan2", lax.atan2(a, b), out, where, casting)


@fastpath.unary("sinh")
def sinh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic sine (float or complex)."""
    _extras("sinh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("sinh", lax.sinh, x, out, where, casting, dtype)


@fastpath.unary("cosh")
def cosh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic cosine (float or complex)."""
    _extras("cosh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("cosh", lax.cosh, x, out, where, casting, dtype)


@fastpath.unary("tanh")
def tanh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
         subok=True, signature=None):
    """Hyperbolic tangent (float or complex).

    Complex values are NumPy's (C99 ``ctanh``), eagerly and under ``jit``: ``+-inf + bj``
    gives ``+-1 + 0j`` with the zero's sign from ``sin(2b)`` (``tanh(inf + 2.5j)`` is
    ``1 - 0j``), where the Array API standard signs it as ``b``: ``xnp.array_api.tanh``
    gives the standard's (:func:`standard_tanh`).
    """
    _extras("tanh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("tanh", lax.tanh, x, out, where, casting, dtype)


def standard_tanh(x, /):
    """``tanh`` with the Array API standard's complex special cases, for
    ``xnp.array_api``: ``+-inf + bj`` gives ``+-1 + 0j`` with the zero's sign taken from
    ``b`` (``+0`` for an infinite or NaN ``b``), ``a + 0j`` keeps the zero's sign and
    ``+-0 + bj`` with ``b`` infinite or NaN gives ``+-0 + nanj``. Real values are
    ``tanh``'s."""
    x = _inexact("tanh", x)
    res = lax.tanh(x)
    if _dtype_of(x).kind == "c":
        res = _complex_tanh_special_values(x, res)
    return res


def _complex_tanh_special_values(x, res):
    """``res = tanh(x)`` for complex ``x``, with the standard's special cases selected in."""
    a, b = lax.real(x), lax.imag(x)
    rdt = _dtype_of(a)
    one, zero, inf, nan = (_scalar(v, rdt) for v in (1.0, 0.0, np.inf, np.nan))
    re, im = lax.real(res), lax.imag(res)
    b_finite = lax.is_finite(b)
    im = lax.select(lax.eq(b, zero), b, im)  # a + 0j: the zero's sign kept
    a_zero = lax.and_(lax.eq(a, zero), lax.not_(b_finite))  # +-0 + (inf or nan)j
    re = lax.select(a_zero, a, re)
    im = lax.select(a_zero, nan, im)
    a_inf = lax.eq(lax.abs(a), inf)  # +-inf + bj: +-1 + 0j, the zero signed as b
    re = lax.select(a_inf, _copysign(one, a), re)
    im = lax.select(a_inf, _copysign(zero, lax.select(b_finite, b, zero)), im)
    return lax.complex(re, im)


@fastpath.unary("arcsinh")
def arcsinh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic sine (float or complex)."""
    _extras("arcsinh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arcsinh", lax.asinh, x, out, where, casting, dtype)


@fastpath.unary("arccosh")
def arccosh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic cosine; NaN below 1 for real input (float or complex)."""
    _extras("arccosh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arccosh", lax.acosh, x, out, where, casting, dtype)


@fastpath.unary("arctanh")
def arctanh(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Inverse hyperbolic tangent; NaN outside [-1, 1] for real input (float or complex)."""
    _extras("arctanh", casting, order, subok, signature, dtype, (x,))
    return _float_unary("arctanh", lax.atanh, x, out, where, casting, dtype)


asin = arcsin
acos = arccos
atan = arctan
atan2 = arctan2
asinh = arcsinh
acosh = arccosh
atanh = arctanh


# NumPy's factors: ``180 / pi`` and ``pi / 180`` in double, and for float32 (and the half
# loops, float16 and ml_dtypes' bfloat16, which compute in float32) the quotient of the
# float32 constants (``180.0f / NPY_PIf``: 57.2957764, where 180 / pi rounded is 57.2957802)
_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)
_TO_DEGREES = {np.dtype(np.float64): 180.0 / np.pi, _F32: np.float32(180) / np.float32(np.pi)}
_TO_RADIANS = {np.dtype(np.float64): np.pi / 180.0, _F32: np.float32(np.pi) / np.float32(180)}


@in_float32
def _to_degrees(x):
    """``x * (180 / pi)`` with NumPy's factor: the decomposition of the composites
    ``rad2deg``/``degrees`` (eagerly NumPy's ufuncs of those names, bit for bit)."""
    dt = _dtype_of(x)
    return lax.mul(x, _scalar(_TO_DEGREES[dt], dt))


@in_float32
def _to_radians(x):
    """``x * (pi / 180)`` with NumPy's factor (``deg2rad``/``radians``)."""
    dt = _dtype_of(x)
    return lax.mul(x, _scalar(_TO_RADIANS[dt], dt))


def _scale(fname, x, steps, out, where, casting, dtype, *, narrow_loops=True):
    """``steps(x)`` as the composite ``fname`` (eagerly NumPy's ufunc of that name).
    ``narrow_loops=False``: ml_dtypes' floats (bfloat16, float8) compute in float32 and give
    float32, as NumPy's ``degrees``/``radians``, for which ml_dtypes registers no loop (it
    does for ``rad2deg``/``deg2rad``)."""
    x = _inexact(fname, x, dtype, casting)
    _reject(fname, x, "c", "real inputs only")
    if not narrow_loops and _dtype_of(x) not in _TO_DEGREES and _dtype_of(x) != _F16:
        x = _as_dtype(fname, x, _F32)
    return _finish(fname, lax.composite(fname, steps, x), out, where, casting)


def deg2rad(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Degrees to radians: ``x * (pi / 180)`` (real floats; float16 and bfloat16 computed
    in float32, as NumPy's loops: NumPy's values bit for bit, also under ``jit``)."""
    _extras("deg2rad", casting, order, subok, signature, dtype, (x,))
    return _scale("deg2rad", x, _to_radians, out, where, casting, dtype)


def rad2deg(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Radians to degrees: ``x * (180 / pi)`` (real floats; float32 with NumPy's factor
    ``180.0f / pi_f``, float16 and bfloat16 computed in float32: NumPy's values bit for
    bit, also under ``jit``)."""
    _extras("rad2deg", casting, order, subok, signature, dtype, (x,))
    return _scale("rad2deg", x, _to_degrees, out, where, casting, dtype)


def radians(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Same as ``deg2rad`` (its warnings name ``radians``, as NumPy's), but bfloat16 and
    float8 inputs give float32 (NumPy's loop for them: ml_dtypes has no ``radians``)."""
    _extras("radians", casting, order, subok, signature, dtype, (x,))
    return _scale("radians", x, _to_radians, out, where, casting, dtype, narrow_loops=False)


def degrees(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Same as ``rad2deg`` (its warnings name ``degrees``, as NumPy's), but bfloat16 and
    float8 inputs give float32 (NumPy's loop for them: ml_dtypes has no ``degrees``)."""
    _extras("degrees", casting, order, subok, signature, dtype, (x,))
    return _scale("degrees", x, _to_degrees, out, where, casting, dtype, narrow_loops=False)


# =========================================================================== comparisons


def i0(x):
    """Modified Bessel function of the first kind, order 0, elementwise (``numpy.i0``).

    Dtypes: float inputs keep their dtype; integers and bool compute in the default
    float (float64), as NumPy; complex raises ``TypeError``. Computed as
    ``bessel_i0e(x) * exp(|x|)`` (inf once ``exp`` overflows, as NumPy): the derivative
    of ``|x|``, ``sign(x)``, cancels the kink of ``bessel_i0e`` exactly, so the
    derivative is ``I1(x)`` everywhere (0 at 0).

    Raises
    ------
    TypeError
        Complex input.
    """
    x = asarray_for("i0", x, "x")
    if _dtype_of(x).kind == "c":
        raise TypeError("xnp.i0: not supported for complex values")
    if _dtype_of(x).kind not in "fV":
        x = lax.convert_element_type(x, _util.default_float())
    return lax.mul(lax.bessel_i0e(x), lax.exp(lax.max(x, lax.neg(x))))
