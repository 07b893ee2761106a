"""NumPy ``Generator`` methods for the gamma family and the closed-form distributions
(``gamma``, ``standard_gamma``, ``beta``, ``dirichlet``, ``poisson``, ``chisquare``,
``standard_t``, ``f``, ``lognormal``, ``laplace``, ``logistic``, ``standard_cauchy``,
``pareto``, ``rayleigh``, ``weibull``, ``geometric``), mixed into
:class:`xnp.random.Generator`.

NumPy's names, parameters and parameter checks: a *concrete* parameter (a Python or
NumPy scalar/array, or an eager xnp array) outside the distribution's domain raises
``ValueError`` with NumPy's message (e.g. ``"scale < 0"``); a traced parameter
cannot be checked and gives NaN (-1 for ``poisson``) where it is invalid, as the
JAX-style samplers (:mod:`xnp.random.gamma_family`, :mod:`xnp.random.transformed`).
The bits differ from NumPy's, and so do the algorithms (JAX's; the distributions
are the same).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import _util
from xnp.random import distributions as _d
from xnp.random import gamma_family as _g
from xnp.random import transformed as _t
from xnp.random.keys import canonical_shape
from xnp.tracing import core

__all__ = ["DistributionMethods"]

_POISSON_LAM_MAX = np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10


def _concrete(x):
    """``x`` as a NumPy array when its value is known now, else None (traced)."""
    if type(x) is core.Array:
        return np.asarray(x._value)
    if isinstance(x, core.Tracer):
        return None
    return np.asarray(x)


def _check(fname: str, x, bad, msg: str) -> None:
    v = _concrete(x)
    if v is not None:
        with np.errstate(invalid="ignore"):
            if np.any(bad(v)):
                raise ValueError(f"xnp.random.Generator.{fname}: {msg}")


def _negative(v):
    return v < 0


def _non_positive(v):
    return v <= 0


def _param(fname, x, name):
    x = _util.asarray_for(f"random.{fname}", x, name)
    if core.aval_of(x).dtype not in kit.FLOATING:
        x = lax.convert_element_type(x, _util.default_float())
    return x


class DistributionMethods:
    """Mixin: the methods named in the module docstring (``self`` is a Generator)."""

    def _draw(self, fname, sample, size, *params):
        """``sample(key, *params, shape)`` with ``shape`` = ``size`` or the parameters'
        broadcast shape."""
        shape = self._shaped(fname, size, *params)
        return sample(self._next_key(), *params, shape)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        """Gamma(``shape``, 1) samples (Marsaglia-Tsang); ``size`` or ``shape``'s shape;
        float32 or float64; ``out`` written in place. ValueError: ``shape < 0``."""
        _check("standard_gamma", shape, _negative, "shape < 0")
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise TypeError(f"xnp.random.Generator.standard_gamma: `dtype` must be float32 "
                            f"or float64, got {dt}.")
        a = _param("standard_gamma", shape, "shape")
        if out is not None and size is None:
            size = core.aval_of(out).shape
        res = self._draw("standard_gamma", lambda k, a_, s: _g.gamma(k, a_, s, dt), size, a)
        return _util.write_out("random.Generator.standard_gamma", out, res)

    def gamma(self, shape, scale=1.0, size=None):
        """Gamma samples with shape ``shape`` and scale ``scale`` (mean ``shape * scale``).
        ValueError: ``shape < 0`` or ``scale < 0``."""
        _check("gamma", shape, _negative, "shape < 0")
        _check("gamma", scale, _negative, "scale < 0")
        a, scale = _param("gamma", shape, "shape"), _param("gamma", scale, "scale")
        size = self._shaped("gamma", size, a, scale)
        _d._check_broadcast("gamma", size, a, scale)
        return lax.mul(_d._rank(scale, len(size)), _g.gamma(self._next_key(), a, size))

    def beta(self, a, b, size=None):
        """Beta(``a``, ``b``) samples. ValueError: ``a <= 0`` or ``b <= 0``."""
        _check("beta", a, _non_positive, "a <= 0")
        _check("beta", b, _non_positive, "b <= 0")
        return self._draw("beta", _g.beta, size, _param("beta", a, "a"), _param("beta", b, "b"))

    def dirichlet(self, alpha, size=None):
        """Dirichlet(``alpha``) samples (``alpha`` 1-d of length k): shape ``size + (k,)``.
        ValueError: ``alpha`` not 1-d, ``alpha < 0`` or NaN."""
        _check("dirichlet", alpha, lambda v: ~(v >= 0), "alpha < 0 or alpha contains NaNs")
        alpha = _param("dirichlet", alpha, "alpha")
        if core.aval_of(alpha).ndim != 1:
            raise ValueError("xnp.random.Generator.dirichlet: alpha must be a one-dimensional "
                             f"array, got {core.aval_of(alpha).str_short()}.")
        shape = () if size is None else canonical_shape("dirichlet", size, "size")
        return _g.dirichlet(self._next_key(), alpha, shape)

    def poisson(self, lam=1.0, size=None):
        """Poisson(``lam``) samples (int64). ValueError: ``lam < 0`` or too large."""
        _check("poisson", lam, _negative, "lam < 0")
        _check("poisson", lam, lambda v: v > _POISSON_LAM_MAX, "lam value too large")
        return self._draw("poisson", _g.poisson, size, _param("poisson", lam, "lam"))

    def chisquare(self, df, size=None):
        """Chi-square samples with ``df`` degrees of freedom. ValueError: ``df <= 0``."""
        _check("chisquare", df, _non_positive, "df <= 0")
        return self._draw("chisquare", _g.chisquare, size, _param("chisquare", df, "df"))

    def standard_t(self, df, size=None):
        """Student's t samples with ``df`` degrees of freedom. ValueError: ``df <= 0``."""
        _check("standard_t", df, _non_positive, "df <= 0")
        return self._draw("standard_t", _g.t, size, _param("standard_t", df, "df"))

    def f(self, dfnum, dfden, size=None):
        """F(``dfnum``, ``dfden``) samples. ValueError: ``dfnum <= 0`` or ``dfden <= 0``."""
        _check("f", dfnum, _non_positive, "dfnum <= 0")
        _check("f", dfden, _non_positive, "dfden <= 0")
        return self._draw("f", _g.f, size, _param("f", dfnum, "dfnum"),
                          _param("f", dfden, "dfden"))

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """``exp(mean + sigma * z)`` for standard normals ``z``. ValueError: ``sigma < 0``."""
        _check("lognormal", sigma, _negative, "sigma < 0")
        return lax.exp(self._location_scale("lognormal", _d.normal, mean, sigma, size))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """Laplace samples (mean ``loc``, variance ``2 scale**2``). ValueError: ``scale < 0``."""
        _check("laplace", scale, _negative, "scale < 0")
        return self._location_scale("laplace", _t.laplace, loc, scale, size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Logistic samples. ValueError: ``scale < 0``."""
        _check("logistic", scale, _negative, "scale < 0")
        return self._location_scale("logistic", _t.logistic, loc, scale, size)

    def standard_cauchy(self, size=None):
        """Standard Cauchy samples: shape ``size`` (None: 0-d)."""
        return self._standard("standard_cauchy", _t.cauchy, size, np.float64)

    def rayleigh(self, scale=1.0, size=None):
        """Rayleigh samples with mode ``scale``. ValueError: ``scale < 0``."""
        _check("rayleigh", scale, _negative, "scale < 0")
        return self._location_scale("rayleigh", lambda k, s, dt: _t.rayleigh(k, 1.0, s, dt),
                                    0.0, scale, size)

    def pareto(self, a, size=None):
        """Pareto II (Lomax) samples ``expm1(e / a)`` (NumPy's ``pareto``; add 1 for the
        classical Pareto of minimum 1). ValueError: ``a <= 0``."""
        _check("pareto", a, _non_positive, "a <= 0")

        def sample(key, a_, shape):
            return lax.expm1(lax.div(_t._exponential(key, shape, core.aval_of(a_).dtype),
                                     _d._rank(a_, len(shape))))

        return self._draw("pareto", sample, size, _param("pareto", a, "a"))

    def weibull(self, a, size=None):
        """Weibull samples ``(-log(1 - u)) ** (1 / a)`` (scale 1; ``a == 0`` gives 0, as
        NumPy). ValueError: ``a < 0``."""
        _check("weibull", a, _negative, "a < 0")

        def sample(key, a_, shape):
            w = _t.weibull_min(key, 1.0, a_, shape, core.aval_of(a_).dtype)
            zero = _d._const(0.0, core.aval_of(w).dtype)
            return lax.select(lax.eq(_g.full(a_, shape), zero),
                              lax.broadcast_in_dim(zero, shape, ()), w)

        return self._draw("weibull", sample, size, _param("weibull", a, "a"))

    def geometric(self, p, size=None):
        """Geometric samples (trials up to the first success; int64).
        ValueError: ``p <= 0``, ``p > 1`` or NaN."""
        _check("geometric", p, lambda v: ~((v > 0) & (v <= 1)),
               "p <= 0, p > 1 or p contains NaNs")
        return self._draw("geometric", _t.geometric, size, _param("geometric", p, "p"))
