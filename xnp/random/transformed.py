"""JAX-style samplers that transform uniforms or normals in closed form: ``lognormal``,
``laplace``, ``logistic``, ``cauchy``, ``pareto``, ``rayleigh``, ``weibull_min`` and
``geometric``.

Signatures and algorithms follow ``jax.random`` (``f(key, <params>, shape, dtype)``;
``shape`` static, defaulting to the parameters' broadcast shape where there are
parameters); default dtypes float64 (``geometric``: int64). Parameters may be
traced; invalid values are not checked (they give NaN/inf as the formulas do;
the NumPy-style methods raise ``ValueError`` for concrete bad values).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import _util
from xnp.numpy_api.dtypes import finfo
from xnp.random import distributions as _d
from xnp.random.gamma_family import setup
from xnp.random.keys import canonical_shape, check_key

__all__ = ["lognormal", "laplace", "logistic", "cauchy", "pareto", "rayleigh", "weibull_min",
           "geometric"]

_c = _d._const


def _standard(fname, key, shape, dtype):
    key = check_key(fname, key)
    return key, canonical_shape(fname, shape), _d._dtype(fname, dtype, kit.FLOATING,
                                                         _util.default_float)


def _u(key, shape, dtype, lo=0.0):
    return _d._uniform(key, shape, dtype, _c(lo, dtype), _c(1.0, dtype))


def lognormal(key, sigma=1.0, shape=None, dtype=None):
    """``exp(sigma * z)`` for standard normals ``z`` (``sigma`` broadcastable to ``shape``,
    default its shape). Raises TypeError (bad key/dtype), ValueError (broadcast)."""
    key, shape, dtype, (sigma,) = setup("lognormal", key, shape, dtype, [("sigma", sigma)])
    return lax.exp(lax.mul(sigma, _d._normal_real(key, shape, dtype)))


def laplace(key, shape=(), dtype=None):
    """Standard Laplace samples: ``sign(u) * log1p(-|u|)`` for ``u`` uniform in (-1, 1)."""
    key, shape, dtype = _standard("laplace", key, shape, dtype)
    u = _u(key, shape, dtype, -1.0 + finfo(dtype).epsneg)
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


def logistic(key, shape=(), dtype=None):
    """Standard logistic samples: ``log(u / (1 - u))`` for ``u`` uniform in [tiny, 1)."""
    key, shape, dtype = _standard("logistic", key, shape, dtype)
    u = _u(key, shape, dtype, float(finfo(dtype).tiny))
    return lax.log(lax.div(u, lax.sub(_c(1.0, dtype), u)))


def cauchy(key, shape=(), dtype=None):
    """Standard Cauchy samples: ``tan(pi * (u - 1/2))`` for ``u`` uniform in [eps, 1)."""
    key, shape, dtype = _standard("cauchy", key, shape, dtype)
    u = _u(key, shape, dtype, float(finfo(dtype).eps))
    return lax.tan(lax.mul(_c(np.pi, dtype), lax.sub(u, _c(0.5, dtype))))


def _exponential(key, shape, dtype):
    return lax.neg(lax.log1p(lax.neg(_u(key, shape, dtype))))


def pareto(key, b, shape=None, dtype=None):
    """Pareto (type I, minimum 1) samples with shape ``b``: ``exp(e / b)`` for standard
    exponentials ``e`` (NumPy's ``pareto`` is type II: this minus 1)."""
    key, shape, dtype, (b,) = setup("pareto", key, shape, dtype, [("b", b)])
    return lax.exp(lax.div(_exponential(key, shape, dtype), b))


def rayleigh(key, scale, shape=None, dtype=None):
    """Rayleigh samples: ``scale * sqrt(-2 log u)`` for ``u`` uniform in [0, 1)."""
    key, shape, dtype, (scale,) = setup("rayleigh", key, shape, dtype, [("scale", scale)])
    log_u = lax.log(_u(key, shape, dtype))
    return lax.mul(scale, lax.sqrt(lax.mul(log_u, _c(-2.0, dtype))))


def weibull_min(key, scale, concentration, shape=None, dtype=None):
    """Weibull samples: ``scale * (-log1p(-u)) ** (1 / concentration)``."""
    key, shape, dtype, (scale, conc) = setup("weibull_min", key, shape, dtype,
                                             [("scale", scale), ("concentration", concentration)])
    e = _exponential(key, shape, dtype)
    return lax.mul(lax.pow(e, lax.div(_c(1.0, dtype), conc)), scale)


def geometric(key, p, shape=None, dtype=None):
    """Geometric samples (number of Bernoulli(``p``) trials up to the first success,
    support 1, 2, ...): ``floor(log1p(-u) / log1p(-p)) + 1``; integer ``dtype``
    (default int64). ``p`` is computed in the default float dtype."""
    fdt = _util.default_float()
    key, shape, idtype, (p,) = setup("geometric", key, shape, dtype, [("p", p)],
                                     accept=kit.INTEGER, default=_util.default_int,
                                     param_dtype=fdt)
    u = _u(key, shape, fdt)
    g = lax.floor(lax.div(lax.log1p(lax.neg(u)), lax.log1p(lax.neg(p))))
    return lax.convert_element_type(lax.add(g, _c(1.0, fdt)), idtype)
