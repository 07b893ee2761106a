"""Special functions: ``erf``, ``erfc``, ``erf_inv``, ``lgamma``, ``digamma``,
``bessel_i1e`` (elementwise, floating dtypes only, shape and dtype of the operand).

Eagerly they run SciPy's ``scipy.special`` (a dependency of jaxlib) in float32 or
float64 and cast back; under ``jit`` they lower to the CHLO ops of the same names.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.tracing import Array

__all__ = ["erf", "erfc", "erf_inv", "lgamma", "digamma", "bessel_i1e", "erf_p", "erfc_p",
           "erf_inv_p", "lgamma_p", "digamma_p", "bessel_i1e_p"]

_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)
_SQRT_PI_OVER_TWO = np.sqrt(np.pi) / 2.0


def _scaled(c, like):
    """The Python float ``c`` as a constant of ``like``'s dtype."""
    return np.asarray(c, dtype=R.aval(like).dtype)


def _erf_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = erf_p.bind(x)
    if type(t) is R.Zero:
        return out, R.zero_like(out)
    d = ew.mul(_scaled(_TWO_OVER_SQRT_PI, x), ew.exp(ew.neg(ew.mul(x, x))))
    return out, ew.mul(t, d)


def _erfc_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = erfc_p.bind(x)
    if type(t) is R.Zero:
        return out, R.zero_like(out)
    d = ew.mul(_scaled(-_TWO_OVER_SQRT_PI, x), ew.exp(ew.neg(ew.mul(x, x))))
    return out, ew.mul(t, d)


def _erf_inv_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = erf_inv_p.bind(x)
    if type(t) is R.Zero:
        return out, R.zero_like(out)
    d = ew.mul(_scaled(_SQRT_PI_OVER_TWO, x), ew.exp(ew.mul(out, out)))
    return out, ew.mul(t, d)


def _lgamma_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = lgamma_p.bind(x)
    if type(t) is R.Zero:
        return out, R.zero_like(out)
    return out, ew.mul(t, digamma_p.bind(x))


erf_p = kit.unary("erf", kit.FLOATING, jvp=_erf_jvp)
erfc_p = kit.unary("erfc", kit.FLOATING, jvp=_erfc_jvp)
erf_inv_p = kit.unary("erf_inv", kit.FLOATING, jvp=_erf_inv_jvp)
lgamma_p = kit.unary("lgamma", kit.FLOATING, jvp=_lgamma_jvp)
digamma_p = kit.unary("digamma", kit.FLOATING)  # jvp needs polygamma(1, x): not implemented
bessel_i1e_p = kit.unary("bessel_i1e", kit.FLOATING)  # jvp needs bessel_i0e: not implemented
for _p in (erf_p, erfc_p, erf_inv_p, lgamma_p, digamma_p, bessel_i1e_p):
    _p.batch = R.unary_batch(_p)


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
    """``Γ'(x)/Γ(x)``, elementwise (floating). Not differentiable yet (needs polygamma)."""
    return digamma_p.bind(x)


def bessel_i1e(x: Array) -> Array:
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    return bessel_i1e_p.bind(x)
