"""Special functions (elementwise, floating dtypes only, result of the operands' dtype):
``erf``, ``erfc``, ``erf_inv``, ``lgamma``, ``digamma``, ``polygamma``, ``zeta``,
``igamma``, ``igammac``, ``igamma_grad_a``, ``bessel_i0e``, ``bessel_i1e``, ``betainc``.

Eagerly they run SciPy's ``scipy.special`` (a dependency of jaxlib) in float32 or
float64 and cast back; under ``jit`` they lower to the CHLO ops of the same names where
CHLO has one, else (``igamma``, ``igammac``, ``bessel_i0e``, ``betainc``) to a series / continued
fraction / Chebyshev expansion written in StableHLO (Cephes' algorithms, as XLA and JAX).
``igamma_grad_a`` (no SciPy counterpart) runs XLA's algorithm in both modes.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.tracing import Array

__all__ = ["erf", "erfc", "erf_inv", "lgamma", "digamma", "polygamma", "zeta", "igamma",
           "igammac", "bessel_i0e", "bessel_i1e", "erf_p", "erfc_p", "erf_inv_p", "lgamma_p",
           "digamma_p", "polygamma_p", "zeta_p", "igamma_p", "igammac_p", "bessel_i0e_p",
           "bessel_i1e_p", "igamma_grad_a", "igamma_grad_a_p", "betainc", "betainc_p"]

_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)
_SQRT_PI_OVER_TWO = np.sqrt(np.pi) / 2.0


def _scaled(c, like):
    """The Python float ``c`` as a constant of ``like``'s dtype."""
    return np.asarray(c, dtype=R.aval(like).dtype)


@R.rule_kit
def _unary_jvp(prim, deriv):
    """jvp of a unary primitive from ``deriv(x, out) -> dout/dx``."""

    def jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        out = prim.bind(x)
        if type(t) is R.Zero:
            return out, R.zero_like(out)
        return out, ew.mul(t, deriv(x, out))

    return jvp


def _no_derivative(name: str, arg: str, hint: str):
    def part(t, *primals):
        raise NotImplementedError(
            f"xnp.lax.{name}: the derivative with respect to `{arg}` is not implemented. "
            f"{hint}")

    return part


def _not_differentiable(name: str, arg: str, reason: str):
    def part(t, *primals):
        raise NotImplementedError(f"xnp.lax.{name} {R.NON_DIFFERENTIABLE} `{arg}`: {reason}")

    return part


def _gauss(x):
    return ew.exp(ew.neg(ew.mul(x, x)))


def _i1e_derivative(x, out):
    # d/dx i1e = i0e - i1e * (sign(x) + 1/x); 1/2 at |x| <= eps (JAX's rule)
    # (NaN is not tiny: it propagates)
    eps = _scaled(np.finfo(R.aval(x).dtype).eps, x)
    tiny = ew.le(ew.abs(x), eps)
    safe = ew.select(tiny, eps, x)
    d = ew.sub(bessel_i0e(safe), ew.mul(out, ew.add(ew.sign(safe), ew.div(_scaled(1, x), safe))))
    return ew.select(tiny, _scaled(0.5, x), d)


erf_p = kit.unary("erf", kit.FLOATING,
                  jvp=_unary_jvp(lambda x, out: ew.mul(_scaled(_TWO_OVER_SQRT_PI, x), _gauss(x))))
erfc_p = kit.unary("erfc", kit.FLOATING,
                   jvp=_unary_jvp(lambda x, out: ew.mul(_scaled(-_TWO_OVER_SQRT_PI, x), _gauss(x))))
erf_inv_p = kit.unary("erf_inv", kit.FLOATING,
                      jvp=_unary_jvp(lambda x, out: ew.mul(_scaled(_SQRT_PI_OVER_TWO, x),
                                                           ew.exp(ew.mul(out, out)))))
lgamma_p = kit.unary("lgamma", kit.FLOATING, jvp=_unary_jvp(lambda x, out: digamma(x)))
digamma_p = kit.unary("digamma", kit.FLOATING,
                      jvp=_unary_jvp(lambda x, out: polygamma(_scaled(1, x), x)))
bessel_i0e_p = kit.unary("bessel_i0e", kit.FLOATING,
                         jvp=_unary_jvp(
                             lambda x, out: ew.sub(bessel_i1e(x), ew.mul(ew.sign(x), out))))
bessel_i1e_p = kit.unary("bessel_i1e", kit.FLOATING, jvp=_unary_jvp(_i1e_derivative))
# d/dx i0e = i1e - sign(x) i0e


def erf(x: Array) -> Array:
    """The error function, elementwise (floating ``x``; same shape and dtype)."""
    return erf_p.bind(x)


def erfc(x: Array) -> Array:
    """``1 - erf(x)``, accurate for large ``x`` (floating; same shape and dtype)."""
    return erfc_p.bind(x)


def erf_inv(x: Array) -> Array:
    """The inverse error function on ``[-1, 1]`` (±inf at ±1, NaN outside)."""
    return erf_inv_p.bind(x)


def lgamma(x: Array) -> Array:
    """``log|Γ(x)|``, elementwise (floating; same shape and dtype)."""
    return lgamma_p.bind(x)


def digamma(x: Array) -> Array:
    """``Γ'(x)/Γ(x)``, elementwise (floating; same shape and dtype). Its derivative is
    ``polygamma(1, x)``."""
    return digamma_p.bind(x)


def bessel_i0e(x: Array) -> Array:
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``
    (``scipy.special.i0e``; floating; same shape and dtype). Under XLA: Cephes'
    Chebyshev expansions (float16/bfloat16 compute in float32)."""
    return bessel_i0e_p.bind(x)


def bessel_i1e(x: Array) -> Array:
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    return bessel_i1e_p.bind(x)


# --------------------------------------------------------------------------- two operands


def _binary_special(name, *per_operand):
    return kit.binary(name, kit.FLOATING, jvp=R.defjvp(*per_operand),
                      batch=shape_ops.elementwise_batch)


def _igamma_dx(t, a, x):
    # d/dx P(a, x) = x^(a-1) e^(-x) / Γ(a); (a-1) log x is taken as 0 at a == 1 (x == 0)
    a_minus_1 = ew.sub(a, _scaled(1, a))
    log_term = ew.select(ew.eq(a_minus_1, _scaled(0, a)), _scaled(0, a),
                         ew.mul(a_minus_1, ew.log(x)))
    return ew.mul(t, ew.exp(ew.sub(ew.sub(log_term, x), lgamma(a))))


def _igamma_grad_a_dx(t, a, x):
    # d/dx dP/da = d/da (x^(a-1) e^-x / Γ(a)) = that density * (log x - ψ(a)); the factor
    # is taken as 0 at x == 0 (the density's limit 0 for a > 1, not 0 * -inf)
    factor = ew.select(ew.eq(x, _scaled(0, x)), _scaled(0, x), ew.sub(ew.log(x), digamma(a)))
    return ew.mul(_igamma_dx(t, a, x), factor)


igamma_grad_a_p = _binary_special(
    "igamma_grad_a",
    _no_derivative("igamma_grad_a", "a", "The second derivative of igamma in `a` is not "
                   "implemented (JAX has no rule for igamma_grad_a either)."),
    _igamma_grad_a_dx)
igamma_p = _binary_special("igamma", lambda t, a, x: ew.mul(t, igamma_grad_a(a, x)),
                           _igamma_dx)
igammac_p = _binary_special("igammac", lambda t, a, x: ew.neg(ew.mul(t, igamma_grad_a(a, x))),
                            lambda t, a, x: ew.neg(_igamma_dx(t, a, x)))
polygamma_p = _binary_special(
    "polygamma",
    _not_differentiable("polygamma", "m", "`m` is an integer order (JAX raises too)."),
    lambda t, m, x: ew.mul(t, polygamma(ew.add(m, _scaled(1, m)), x)))
zeta_p = _binary_special(
    "zeta",
    _not_differentiable("zeta", "x", "The derivative of the Hurwitz zeta function in its "
                        "exponent, -sum_k log(k + q) (k + q)^-x, has no closed form in the "
                        "special functions xnp has (JAX raises too); the derivative in `q` "
                        "is -x zeta(x + 1, q)."),
    lambda t, x, q: ew.mul(t, ew.neg(ew.mul(x, zeta(ew.add(x, _scaled(1, x)), q)))))


def igamma(a: Array, x: Array) -> Array:
    """Regularized lower incomplete gamma function ``P(a, x)`` (``scipy.special.gammainc``).

    Floating ``a`` and ``x`` of equal dtypes; shapes equal or rank-0/size-1 (lax
    broadcasting); result of that shape and dtype. NaN for ``a < 0``, ``x < 0``, NaN
    inputs and ``a == x == 0`` (SciPy's values at the domain edges). Differentiable in
    ``x`` (the density ``x^(a-1) e^-x / Γ(a)``) and in ``a`` (:func:`igamma_grad_a`; once:
    its own derivative in ``a`` raises ``NotImplementedError``). Under XLA: Cephes'
    power series / continued fraction (float16/bfloat16 compute in float32); the
    accuracy degrades like ``eps * a`` for large ``a`` (where SciPy uses an asymptotic
    expansion).

    Raises
    ------
    TypeError
        Non-floating or unequal dtypes, incompatible shapes.
    """
    return igamma_p.bind(a, x)


def igammac(a: Array, x: Array) -> Array:
    """Regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``
    (``scipy.special.gammaincc``); dtypes, shapes, domain and errors as :func:`igamma`."""
    return igammac_p.bind(a, x)


def igamma_grad_a(a: Array, x: Array) -> Array:
    """``dP(a, x)/da``, the derivative of :func:`igamma` in its shape parameter ``a``
    (JAX's ``lax.igamma_grad_a``; SciPy has no such function).

    Dtypes and shapes as :func:`igamma`. XLA's algorithm (forward-mode differentiation
    along Cephes' power series of ``P`` for ``x <= max(1, a)``, else along the continued
    fraction of ``Q``), eagerly in NumPy (float64, else float32) and under XLA alike
    (:mod:`xnp.backends.igamma_grad`); about ``1e-12`` relative error in float64 for
    ``a, x <= 100``, degrading like ``eps * a`` for large ``a``. NaN for NaN operands,
    ``a <= 0``, ``x < 0`` and ``a == x == inf``; 0 at ``x == 0``, ``x == inf``,
    ``a == inf`` (where ``P`` is constant in ``a``). Differentiable in ``x``
    (``x^(a-1) e^-x (log x - ψ(a)) / Γ(a)``); the derivative in ``a`` raises
    ``NotImplementedError``. Errors as :func:`igamma` (``TypeError``).
    """
    return igamma_grad_a_p.bind(a, x)


def polygamma(m: Array, x: Array) -> Array:
    """The ``m``-th derivative of the digamma function (``scipy.special.polygamma``).

    ``m`` holds non-negative integer values in a floating dtype equal to ``x``'s
    (other ``m`` give NaN under XLA); shapes as :func:`igamma`. Differentiable in ``x``
    (``polygamma(m + 1, x)``), not in the integer order ``m`` (``NotImplementedError``,
    as in JAX).
    """
    return polygamma_p.bind(m, x)


def zeta(x: Array, q: Array) -> Array:
    """The Hurwitz zeta function ``sum_k (k + q) ** -x`` (``scipy.special.zeta``).

    Floating, equal dtypes; shapes as :func:`igamma`. NaN for ``x < 1``. Differentiable
    in ``q`` (``-x zeta(x + 1, q)``), not in ``x`` (``NotImplementedError``, as in JAX: no
    closed form).
    """
    return zeta_p.bind(x, q)


# --------------------------------------------------------------------------- three operands


def _betainc_shape(a, b, x):
    return kit.broadcast_shapes("betainc", a, b, x)


def _betainc_dtype(a, b, x):
    dt = kit.same_dtype("betainc", a, b, x)
    kit.check_dtype("betainc", a, kit.FLOATING)
    return dt


def _xlogy_or_zero(c, log_value):
    """``c * log_value``, taken as 0 where ``c == 0`` (not ``0 * -inf``)."""
    return ew.select(ew.eq(c, _scaled(0, c)), _scaled(0, c), ew.mul(c, log_value))


def _betainc_dx(t, a, b, x):
    # d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b); the powers are 1 at a == 1 (b == 1)
    one = _scaled(1, a)
    log_beta = ew.sub(ew.add(lgamma(a), lgamma(b)), lgamma(ew.add(a, b)))
    log_density = ew.add(_xlogy_or_zero(ew.sub(a, one), ew.log(x)),
                         _xlogy_or_zero(ew.sub(b, one), ew.log1p(ew.neg(x))))
    return ew.mul(t, ew.exp(ew.sub(log_density, log_beta)))


_BETAINC_AB = ("The derivatives of the incomplete beta function in its parameters have no "
               "closed form in the special functions xnp has (JAX raises too); the "
               "derivative in `x` is x^(a-1) (1-x)^(b-1) / B(a, b).")


betainc_p = kit.primitive("betainc", shape=_betainc_shape, dtype=_betainc_dtype,
                          jvp=R.defjvp(_not_differentiable("betainc", "a", _BETAINC_AB),
                                       _not_differentiable("betainc", "b", _BETAINC_AB),
                                       _betainc_dx),
                          batch=shape_ops.elementwise_batch, allocates="eagerly")


def betainc(a: Array, b: Array, x: Array) -> Array:
    """Regularized incomplete beta function ``I_x(a, b)`` (``scipy.special.betainc``).

    Floating ``a``, ``b`` and ``x`` of equal dtypes; shapes equal or rank-0/size-1 (lax
    broadcasting); result of that shape and dtype. SciPy's values at the domain edges:
    NaN for NaN operands, ``a < 0``, ``b < 0``, ``x`` outside ``[0, 1]``, ``a == b == 0``
    and ``a == b == inf``; 0 at ``x == 0`` and 1 at ``x == 1``; otherwise 1 where
    ``a == 0`` or ``b == inf``, 0 where ``b == 0`` or ``a == inf``. Differentiable in ``x``
    (``x^(a-1) (1-x)^(b-1) / B(a, b)``), not in ``a`` or ``b`` (``NotImplementedError``,
    as in JAX). Under XLA: the continued fraction of ``I_x(a, b)`` (modified Lentz), run
    on ``I_{1-x}(b, a)`` for ``x > (a+1)/(a+b+2)``, each a ``stablehlo.while`` until every
    element has converged (float16/bfloat16 compute in float32); the accuracy degrades
    like ``eps * (a + b)`` for large ``a + b`` (the prefactor's ``log B(a, b)``).

    Raises
    ------
    TypeError
        Non-floating or unequal dtypes, incompatible shapes.
    """
    return betainc_p.bind(a, b, x)
