"""``xnp.special``: SciPy-named special functions (``scipy.special``'s names, arguments
and values at the domain edges), elementwise on xnp arrays, eagerly and under ``jit``.

They are written on :mod:`xnp.lax` (the special-function primitives and elementwise
ops), so SciPy functions written on the Array API find them: with
``SCIPY_ARRAY_API=1``, ``scipy.special.<name>`` on xnp arrays looks up
``xnp.special.<name>`` (``_get_native_func``), and SciPy's generic implementations that
need one (``stdtr`` and ``betaincc`` need ``betainc``; ``chdtr`` needs ``gammainc``)
then run inside ``xnp.jit`` too.

Dtypes: the operands are promoted together (NEP 50, as ``xnp.add``); float32 and
float64 are kept, float16/bfloat16 compute and return float32, integers and bools give
the default float (float64 with ``enable_x64``). SciPy picks a float32 loop for some
small-integer inputs (``betainc`` of int8) where xnp gives the default float. Complex
operands raise ``TypeError``. Shapes broadcast as NumPy's.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import _util

__all__ = ["betainc", "erf", "erfc", "erfinv", "gammaln", "digamma", "psi", "polygamma",
           "zeta", "gammainc", "gammaincc", "i0e", "i1e", "ndtr", "ndtri", "log_ndtr", "expit",
           "logit", "xlogy", "xlog1py", "entr"]

_F32 = np.dtype(np.float32)
_LOG_2PI = float(np.log(2 * np.pi))


def _float_dtype(name: str, dt: np.dtype) -> np.dtype:
    if dt.kind == "c":
        raise TypeError(f"xnp.special.{name}: complex input ({dt}) is not supported; "
                        f"pass real values (SciPy's complex loops have no xnp counterpart).")
    if dt.kind in "biu":
        return _util.default_float()
    if dt.itemsize < 4:  # float16, bfloat16, float8: SciPy computes these in float32
        return _F32
    return dt


def _operands(name: str, *args):
    """The arguments as xnp values of one floating dtype and one (broadcast) shape."""
    xs = [_util.asarray_for(f"special.{name}", a, f"x{i}") for i, a in enumerate(args)]
    xs, dt, _ = _util.promote(f"special.{name}", *xs)
    dt = _float_dtype(name, dt)
    xs = [_util.promote_to(f"special.{name}", x, dt) for x in xs]
    shape = _util.broadcast_shapes(f"special.{name}", *[x.shape for x in xs])
    out = []
    for x in xs:
        if x.shape != shape:
            k = len(shape) - x.ndim
            x = lax.broadcast_in_dim(x, shape, tuple(range(k, len(shape))))
        out.append(x)
    return out


def _c(value, like):
    """``value`` as a rank-0 constant of ``like``'s dtype."""
    return np.asarray(value, like.dtype)


def _full(value, like):
    return lax.broadcast_in_dim(_c(value, like), like.shape, ())


def _isnan(x):
    return lax.ne(x, x)


# --------------------------------------------------------------------------- error functions


def erf(x):
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t**2) dt``."""
    (x,) = _operands("erf", x)
    return lax.erf(x)


def erfc(x):
    """``1 - erf(x)``, accurate where ``erf(x)`` is close to 1."""
    (x,) = _operands("erfc", x)
    return lax.erfc(x)


def erfinv(y):
    """The inverse of :func:`erf` on ``[-1, 1]``: ``±inf`` at ``±1``, NaN outside."""
    (y,) = _operands("erfinv", y)
    return lax.erf_inv(y)


def ndtr(x):
    """The standard normal CDF, ``erfc(-x / sqrt(2)) / 2``."""
    (x,) = _operands("ndtr", x)
    return lax.mul(_c(0.5, x), lax.erfc(lax.mul(x, _c(-np.sqrt(0.5), x))))


# asymptotic series of log(sqrt(2 pi) (-x) e^{x^2/2} ndtr(x)) in 1/x^2 for x -> -inf:
# sum_n (-1)^n (2n-1)!! / x^(2n), n = 0..10 (within float64's eps below -20)
_LOG_NDTR_TERMS = 11
_LOG_NDTR_LOWER = -20.0


def log_ndtr(x):
    """``log(ndtr(x))``, accurate in both tails: ``-ndtr(-x)`` terms (``log1p``) for
    ``x > 0``, SciPy's asymptotic series below -20 (``-x**2/2 - log(-x) - log(2 pi)/2 +
    log(1 - 1/x**2 + 3/x**4 - ...)``)."""
    (x,) = _operands("log_ndtr", x)
    # each branch on inputs of its own range (elsewhere a value where it is finite), so a
    # branch not taken has no infinite derivative: reverse mode would multiply it by 0
    positive = lax.gt(x, _c(0, x))
    low = lax.lt(x, _c(_LOG_NDTR_LOWER, x))
    upper = lax.log1p(lax.neg(ndtr(lax.neg(lax.select(positive, x, _full(1, x))))))
    middle = lax.log(ndtr(lax.select(lax.or_(positive, low), _full(-1, x), x)))
    xs = lax.select(low, x, _full(_LOG_NDTR_LOWER, x))
    w = lax.div(_c(1, x), lax.mul(xs, xs))
    total, term = _full(1, x), _full(1, x)
    for n in range(1, _LOG_NDTR_TERMS):
        term = lax.mul(term, lax.mul(w, _c(-(2 * n - 1), x)))
        total = lax.add(total, term)
    tail = lax.sub(lax.sub(lax.mul(_c(-0.5, x), lax.mul(xs, xs)), lax.log(lax.neg(xs))),
                   _c(0.5 * _LOG_2PI, x))
    tail = lax.add(tail, lax.log(total))
    out = lax.select(positive, upper, middle)
    return lax.select(low, tail, out)


_NEWTON_STEPS = 4


def ndtri(p):
    """The inverse of :func:`ndtr`: ``-inf`` at 0, ``inf`` at 1, NaN outside ``[0, 1]``.

    Abramowitz & Stegun 26.2.23's rational guess (error below 4.5e-4) for ``min(p, 1 -
    p)``, then Newton steps on ``log_ndtr(x) = log(p)``, accurate down to the smallest
    normal ``p`` (``1 - p`` is exact for ``p >= 1/2``); ``sqrt(2) erfinv(2p - 1)`` on
    ``(1/4, 3/4)``."""
    (p,) = _operands("ndtri", p)
    one, half = _c(1, p), _c(0.5, p)
    upper = lax.gt(p, half)
    q = lax.select(upper, lax.sub(one, p), p)
    inside = lax.and_(lax.gt(q, _c(0, p)), lax.le(q, half))
    q = lax.select(inside, q, _full(0.25, p))
    t = lax.sqrt(lax.mul(_c(-2, p), lax.log(q)))
    num = lax.add(_c(2.515517, p), lax.mul(t, lax.add(_c(0.802853, p), lax.mul(t, _c(0.010328,
                                                                                      p)))))
    den = lax.add(one, lax.mul(t, lax.add(_c(1.432788, p), lax.mul(
        t, lax.add(_c(0.189269, p), lax.mul(t, _c(0.001308, p)))))))
    x = lax.neg(lax.sub(t, lax.div(num, den)))
    log_q = lax.log(q)
    for _ in range(_NEWTON_STEPS):
        log_phi = log_ndtr(x)
        # d log_ndtr / dx = pdf / cdf = exp(-x^2/2 - log(2 pi)/2 - log_ndtr(x))
        slope = lax.exp(lax.sub(lax.sub(lax.mul(_c(-0.5, p), lax.mul(x, x)),
                                        _c(0.5 * _LOG_2PI, p)), log_phi))
        x = lax.sub(x, lax.div(lax.sub(log_phi, log_q), slope))
    x = lax.select(upper, lax.neg(x), x)
    # the centre: sqrt(2) erfinv(2p - 1), where 2p - 1 is exact (odd about p = 1/2)
    centre = lax.and_(lax.gt(p, _c(0.25, p)), lax.lt(p, _c(0.75, p)))
    # (on its own range only: erf_inv(-1)'s infinite slope where it is not taken would make
    # reverse mode's 0 * inf a NaN)
    pc = lax.select(centre, p, half)
    x = lax.select(centre, lax.mul(_c(np.sqrt(2), p), lax.erf_inv(lax.sub(lax.add(pc, pc), one))),
                   x)
    x = lax.select(lax.eq(p, _c(0, p)), _full(-np.inf, p), x)
    x = lax.select(lax.eq(p, one), _full(np.inf, p), x)
    invalid = lax.or_(_isnan(p), lax.or_(lax.lt(p, _c(0, p)), lax.gt(p, one)))
    return lax.select(invalid, _full(np.nan, p), x)


# --------------------------------------------------------------------------- gamma family


def gammaln(x):
    """``log|Γ(x)|``: ``inf`` at 0, the negative integers and ``inf``; ``-inf`` at
    ``-inf`` (SciPy's value)."""
    (x,) = _operands("gammaln", x)
    return lax.select(lax.eq(x, _c(-np.inf, x)), _full(-np.inf, x), lax.lgamma(x))


def digamma(x):
    """``Γ'(x)/Γ(x)``: ``∓inf`` at ``±0``, NaN at the negative integers and ``-inf``.

    The derivative is ``polygamma(1, x)``, also at the poles 0, -1, -2, ...: +inf there
    (SciPy's ``polygamma(1, x)``), not NaN."""
    (x,) = _operands("digamma", x)
    out = lax.digamma(x)
    negative_integer = lax.and_(lax.lt(x, _c(0, x)), lax.eq(lax.floor(x), x))
    # NaN at a pole with out's tangent (polygamma(1, x) = +inf): a constant NaN's zero
    # cotangent would meet that infinite slope as 0 * inf = NaN in reverse mode
    return lax.select(negative_integer, lax.add(out, _c(np.nan, x)), out)


psi = digamma


def polygamma(n, x):
    """The ``n``-th derivative of :func:`digamma` (``n`` non-negative integers; the
    result has ``x``'s floating dtype)."""
    n, x = _operands("polygamma", n, x)
    return lax.select(lax.eq(n, _c(0, n)), digamma(x), lax.polygamma(n, x))


def gammainc(a, x):
    """Regularized lower incomplete gamma function ``P(a, x)``."""
    a, x = _operands("gammainc", a, x)
    return lax.igamma(a, x)


def gammaincc(a, x):
    """Regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    a, x = _operands("gammaincc", a, x)
    return lax.igammac(a, x)


def betainc(a, b, x):
    """Regularized incomplete beta function ``I_x(a, b)`` (:func:`xnp.lax.betainc`:
    differentiable in ``x`` only)."""
    a, b, x = _operands("betainc", a, b, x)
    return lax.betainc(a, b, x)


# Euler-Maclaurin for the Riemann zeta function near [0, 1): sum_{k<N} k^-s +
# N^(1-s)/(s-1) + N^-s/2 + sum_j B_2j/(2j)! s(s+1)...(s+2j-2) N^(-s-2j+1)
_EM_N = 10
_EM_B2J = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _zeta_euler_maclaurin(s):
    n = _c(_EM_N, s)
    total = _full(0, s)
    for k in range(1, _EM_N):
        total = lax.add(total, lax.exp(lax.mul(lax.neg(s), _c(np.log(k), s))))
    n_pow = lax.exp(lax.mul(lax.neg(s), lax.log(n)))  # N^-s
    total = lax.add(total, lax.div(lax.mul(n_pow, n), lax.sub(s, _c(1, s))))
    total = lax.add(total, lax.mul(_c(0.5, s), n_pow))
    rising = s  # s (s+1) ... (s+2j-2)
    power = lax.div(n_pow, n)  # N^(-s-1)
    factorial = 2.0
    for j, b2j in enumerate(_EM_B2J, start=1):
        total = lax.add(total, lax.mul(_c(b2j / factorial, s), lax.mul(rising, power)))
        rising = lax.mul(rising, lax.mul(lax.add(s, _c(2 * j - 1, s)), lax.add(s, _c(2 * j, s))))
        power = lax.div(power, _c(_EM_N * _EM_N, s))
        factorial *= (2 * j + 1) * (2 * j + 2)
    return total


def _riemann_zeta(x):
    """SciPy's ``zeta(x)``: Hurwitz ``zeta(x, 1)`` for ``x >= 1``, Euler-Maclaurin on
    ``[0, 1)``, the reflection ``2^x pi^(x-1) sin(pi x/2) Γ(1-x) zeta(1-x)`` below 0."""
    one = _c(1, x)
    hurwitz = lax.zeta(x, _full(1, x))
    middle_arg = lax.select(lax.and_(lax.ge(x, _c(-1, x)), lax.lt(x, one)), x, _full(0.5, x))
    middle = _zeta_euler_maclaurin(middle_arg)
    negative = lax.lt(x, _c(-1, x))
    s = lax.select(negative, x, _full(-2.5, x))
    reflected = lax.zeta(lax.sub(one, s), _full(1, x))
    # sin(pi s / 2) exactly 0 at the negative even integers (trivial zeros)
    half_s = lax.mul(s, _c(0.5, x))
    trivial_zero = lax.eq(lax.floor(half_s), half_s)
    sine = lax.sin(lax.mul(_c(np.pi, x), lax.sub(half_s, lax.mul(_c(2, x), lax.floor(
        lax.mul(half_s, _c(0.5, x)))))))
    log_mag = lax.add(lax.add(lax.mul(s, _c(np.log(2 * np.pi), x)), _c(-np.log(np.pi), x)),
                      lax.lgamma(lax.sub(one, s)))
    refl = lax.mul(lax.mul(sine, lax.exp(log_mag)), reflected)
    refl = lax.select(trivial_zero, _full(0, x), refl)
    out = lax.select(lax.lt(x, one), middle, hurwitz)
    out = lax.select(negative, refl, out)
    return lax.select(lax.eq(x, _c(-np.inf, x)), _full(np.nan, x), out)


def zeta(x, q=None):
    """The Hurwitz zeta function ``sum_k (k + q) ** -x``; with ``q=None`` the Riemann
    zeta function, also for ``x < 1`` (``zeta(0) = -1/2``, ``zeta(-1) = -1/12``, the
    trivial zeros at the negative even integers; ``inf`` at 1)."""
    if q is None:
        (x,) = _operands("zeta", x)
        return _riemann_zeta(x)
    x, q = _operands("zeta", x, q)
    return lax.zeta(x, q)


# --------------------------------------------------------------------------- Bessel


def i0e(x):
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``."""
    (x,) = _operands("i0e", x)
    return lax.bessel_i0e(x)


def i1e(x):
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    (x,) = _operands("i1e", x)
    return lax.bessel_i1e(x)


# --------------------------------------------------------------------------- logistic, logs


def expit(x):
    """The logistic sigmoid ``1 / (1 + exp(-x))``."""
    (x,) = _operands("expit", x)
    return lax.logistic(x)


def logit(p):
    """``log(p / (1 - p))``: ``∓inf`` at 0 and 1, NaN outside ``[0, 1]``; near 1/2 as
    ``log1p(2p - 1) - log1p(1 - 2p)`` (SciPy's form, no cancellation).

    The derivative is ``1 / (p (1 - p))``, +inf at 0 and 1 (0 outside ``[0, 1]``)."""
    (p,) = _operands("logit", p)
    one = _c(1, p)
    # each form on its own range only: an infinite slope where a form is not taken would
    # make reverse mode's 0 * inf a NaN (log1p(-1)'s in the centre's form, the quotient's
    # at 0 and 1, where log(p) - log1p(-p) gives the same value with the slope +inf)
    end = lax.or_(lax.eq(p, _c(0, p)), lax.eq(p, one))
    q = lax.select(end, _full(0.25, p), p)
    ratio = lax.log(lax.div(q, lax.sub(one, q)))
    e = lax.select(end, lax.abs(p), _full(0.5, p))  # (+0.0 for -0.0: the slope +inf)
    ratio = lax.select(end, lax.sub(lax.log(e), lax.log1p(lax.neg(e))), ratio)
    near = lax.and_(lax.gt(p, _c(0.3, p)), lax.lt(p, _c(0.65, p)))
    s = lax.sub(lax.mul(_c(2, p), lax.select(near, p, _full(0.5, p))), one)
    centre = lax.sub(lax.log1p(s), lax.log1p(lax.neg(s)))
    out = lax.select(near, centre, ratio)
    invalid = lax.or_(lax.lt(p, _c(0, p)), lax.gt(p, one))
    return lax.select(invalid, _full(np.nan, p), out)


def _times_or_zero(x, y, fn, low, safe):
    """``x * fn(y)`` where ``x != 0``; +0.0 where ``x == 0`` unless ``y`` is NaN, with the
    derivative ``fn(y)`` in ``x`` there (the function is linear in ``x``), or 0 where
    ``fn(y)`` is not finite (``y <= low`` or ``y`` infinite): there ``y`` is replaced by
    ``safe``, so no infinite slope of ``fn`` meets reverse mode's 0 cotangent (a NaN)."""
    zero = lax.and_(lax.eq(x, _c(0, x)), lax.not_(_isnan(y)))
    finite = lax.and_(lax.gt(y, _c(low, y)), lax.lt(y, _c(np.inf, y)))
    unsafe = lax.and_(zero, lax.not_(finite))
    prod = lax.mul(x, fn(lax.select(unsafe, _full(safe, y), y)))
    # +0.0 with prod's tangent: m - stop_gradient(m) is +0.0 where prod is a zero (-0.0 for
    # a -0.0 x), and x * fn(y)'s tangent (m is 0 elsewhere: no inf - inf)
    m = lax.select(zero, prod, _full(0, prod))
    return lax.select(zero, lax.sub(m, lax.stop_gradient(m)), prod)


def xlogy(x, y):
    """``x * log(y)``, 0 where ``x == 0`` (unless ``y`` is NaN)."""
    x, y = _operands("xlogy", x, y)
    return _times_or_zero(x, y, lax.log, 0, 1)


def xlog1py(x, y):
    """``x * log1p(y)``, 0 where ``x == 0`` (unless ``y`` is NaN)."""
    x, y = _operands("xlog1py", x, y)
    return _times_or_zero(x, y, lax.log1p, -1, 0)


def entr(x):
    """Elementwise entropy ``-x log x``: 0 at 0, ``-inf`` for ``x < 0``, NaN for NaN."""
    (x,) = _operands("entr", x)
    zero = _c(0, x)
    out = _times_or_zero(lax.neg(x), lax.select(lax.gt(x, zero), x, _full(1, x)), lax.log, 0, 1)
    out = lax.select(lax.eq(x, _c(np.inf, x)), _full(-np.inf, x), out)
    return lax.select(lax.lt(x, zero), _full(-np.inf, x), out)
