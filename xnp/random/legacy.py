"""Module-level ``xnp.random`` functions: NumPy's legacy API (``seed``, ``rand``,
``randn``, ``random``, ...) on a global :class:`~xnp.random.generator.Generator`, and
the functions whose name exists in both JAX's and NumPy's API (``normal``,
``uniform``, ``randint``, ``choice``, ``permutation``, ``exponential``, ``gumbel``,
``gamma``, ``beta``, ``dirichlet``, ``poisson``, ``chisquare``, ``f``, ``lognormal``,
``laplace``, ``logistic``, ``pareto``, ``rayleigh``, ``geometric``), which dispatch on
their arguments. ``standard_gamma``, ``standard_t``, ``standard_cauchy`` and ``weibull``
are NumPy-only (``t``, ``cauchy``, ``weibull_min``, ``loggamma`` JAX-only).

Dispatch rule (unambiguous; checked in this order):

1. a ``key=`` keyword argument, or a first positional argument that is *key data*
   (a uint32 array, xnp/traced/NumPy, whose last dimension is 2), selects the JAX
   form ``f(key, shape, ...)`` of :mod:`xnp.random.distributions`;
2. anything else selects the NumPy legacy form (``normal(loc, scale, size)``).

So ``normal(key, (3,))`` is JAX's and ``normal(0, 1, size=5)`` NumPy's. The one
input the rule reads differently from NumPy is a uint32 array with last dimension 2
passed as NumPy's first parameter (``loc``, ``low``, ``a``, ``x``): convert it to
another dtype, or call the :class:`Generator` method (``default_rng().normal(loc)``),
which never dispatches.

The global generator starts from OS entropy; ``seed(s)`` resets it. The numbers
differ from NumPy's for the same seed (Threefry, not Mersenne Twister / PCG64).
Under ``jit`` a legacy call draws once at trace time (see ``generator.py``).
"""

from __future__ import annotations

import numpy as np

from xnp.random import distributions as _d
from xnp.random import gamma_family as _g
from xnp.random import transformed as _t
from xnp.random.generator import Generator
from xnp.random.keys import is_key

__all__ = ["seed", "rand", "randn", "random", "random_sample", "standard_normal", "randint",
           "normal", "uniform", "choice", "permutation", "shuffle", "exponential", "gumbel"]

_GLOBAL: list = []


def _rng() -> Generator:
    if not _GLOBAL:
        _GLOBAL.append(Generator(None))
    return _GLOBAL[0]


def _jax_form(args, kwargs) -> bool:
    return "key" in kwargs or (bool(args) and is_key(args[0]))


def seed(seed=None) -> None:
    """Reseed the global generator (None: fresh OS entropy; an int >= 0; ints).

    Raises
    ------
    ValueError
        A negative seed.
    """
    _GLOBAL[:] = [Generator(seed)]


def rand(*dims):
    """Uniform floats in ``[0, 1)`` of shape ``dims`` (``rand()`` is 0-d); float64."""
    return _rng().random(dims)


def randn(*dims):
    """Standard normal floats of shape ``dims`` (``randn()`` is 0-d); float64."""
    return _rng().standard_normal(dims)


def random(size=None):
    """Uniform floats in ``[0, 1)`` of shape ``size`` (None: 0-d); float64."""
    return _rng().random(size)


def random_sample(size=None):
    """Alias of :func:`random`."""
    return _rng().random(size)


def standard_normal(size=None):
    """Standard normal floats of shape ``size`` (None: 0-d); float64."""
    return _rng().standard_normal(size)


def shuffle(x) -> None:
    """Permute the xnp array ``x`` in place along its first axis (returns None)."""
    _rng().shuffle(x)


def normal(*args, **kwargs):
    """Normal samples, in two forms (see the module docstring for the dispatch rule).

    * JAX: ``normal(key, shape=(), dtype=None)``: standard normals
      (:func:`xnp.random.distributions.normal`).
    * NumPy: ``normal(loc=0.0, scale=1.0, size=None)`` from the global generator
      (:meth:`Generator.normal`).
    """
    if _jax_form(args, kwargs):
        return _d.normal(*args, **kwargs)
    return _rng().normal(*args, **kwargs)


def uniform(*args, **kwargs):
    """Uniform samples, in two forms (see the module docstring).

    * JAX: ``uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0)``.
    * NumPy: ``uniform(low=0.0, high=1.0, size=None)`` from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.uniform(*args, **kwargs)
    return _rng().uniform(*args, **kwargs)


def randint(*args, **kwargs):
    """Random integers, in two forms (see the module docstring).

    * JAX: ``randint(key, shape, minval, maxval, dtype=None)`` in ``[minval, maxval)``.
    * NumPy: ``randint(low, high=None, size=None, dtype=int)`` in ``[low, high)``
      (``[0, low)`` without ``high``) from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.randint(*args, **kwargs)
    return _legacy_randint(*args, **kwargs)


def _legacy_randint(low, high=None, size=None, dtype=int):
    return _rng().integers(low, high, size=size, dtype=np.dtype(dtype))


def choice(*args, **kwargs):
    """Random draws from a population, in two forms (see the module docstring).

    * JAX: ``choice(key, a, shape=(), replace=True, p=None, axis=0)``.
    * NumPy: ``choice(a, size=None, replace=True, p=None)`` from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.choice(*args, **kwargs)
    return _legacy_choice(*args, **kwargs)


def _legacy_choice(a, size=None, replace=True, p=None):
    return _rng().choice(a, size=size, replace=replace, p=p)


def permutation(*args, **kwargs):
    """A random permutation, in two forms (see the module docstring).

    * JAX: ``permutation(key, x, axis=0, independent=False)``.
    * NumPy: ``permutation(x)`` (along the first axis) from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.permutation(*args, **kwargs)
    return _legacy_permutation(*args, **kwargs)


def _legacy_permutation(x):
    return _rng().permutation(x)


def exponential(*args, **kwargs):
    """Exponential samples, in two forms (see the module docstring).

    * JAX: ``exponential(key, shape=(), dtype=None)`` (rate 1).
    * NumPy: ``exponential(scale=1.0, size=None)`` from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.exponential(*args, **kwargs)
    return _rng().exponential(*args, **kwargs)


def gumbel(*args, **kwargs):
    """Gumbel samples, in two forms (see the module docstring).

    * JAX: ``gumbel(key, shape=(), dtype=None, mode=None)`` (standard Gumbel).
    * NumPy: ``gumbel(loc=0.0, scale=1.0, size=None)`` from the global generator.
    """
    if _jax_form(args, kwargs):
        return _d.gumbel(*args, **kwargs)
    return _rng().gumbel(*args, **kwargs)


# --------------------------------------------------------------------------- more distributions


def _dispatching(name: str, jax_fn, numpy_sig: str):
    """A module-level function: the JAX form ``jax_fn(key, ...)`` or the global generator's
    method ``name`` (NumPy's ``numpy_sig``), by the module's dispatch rule."""

    def fn(*args, **kwargs):
        if _jax_form(args, kwargs):
            return jax_fn(*args, **kwargs)
        return getattr(_rng(), name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{name.capitalize()} samples, in two forms (see the module docstring).\n\n"
                  f"* JAX: ``{jax_fn.__name__}(key, ...)``: :func:`{jax_fn.__module__}."
                  f"{jax_fn.__name__}`.\n"
                  f"* NumPy: ``{numpy_sig}`` from the global generator "
                  f"(:meth:`Generator.{name}`).\n")
    return fn


def _numpy_only(name: str, numpy_sig: str):
    """A NumPy legacy function drawing from the global generator's method ``name``."""

    def fn(*args, **kwargs):
        return getattr(_rng(), name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"NumPy's ``{numpy_sig}`` from the global generator "
                  f"(:meth:`Generator.{name}`).\n")
    return fn


gamma = _dispatching("gamma", _g.gamma, "gamma(shape, scale=1.0, size=None)")
beta = _dispatching("beta", _g.beta, "beta(a, b, size=None)")
dirichlet = _dispatching("dirichlet", _g.dirichlet, "dirichlet(alpha, size=None)")
poisson = _dispatching("poisson", _g.poisson, "poisson(lam=1.0, size=None)")
chisquare = _dispatching("chisquare", _g.chisquare, "chisquare(df, size=None)")
f = _dispatching("f", _g.f, "f(dfnum, dfden, size=None)")
lognormal = _dispatching("lognormal", _t.lognormal, "lognormal(mean=0.0, sigma=1.0, size=None)")
laplace = _dispatching("laplace", _t.laplace, "laplace(loc=0.0, scale=1.0, size=None)")
logistic = _dispatching("logistic", _t.logistic, "logistic(loc=0.0, scale=1.0, size=None)")
pareto = _dispatching("pareto", _t.pareto, "pareto(a, size=None)")
rayleigh = _dispatching("rayleigh", _t.rayleigh, "rayleigh(scale=1.0, size=None)")
geometric = _dispatching("geometric", _t.geometric, "geometric(p, size=None)")
standard_gamma = _numpy_only("standard_gamma", "standard_gamma(shape, size=None)")
standard_t = _numpy_only("standard_t", "standard_t(df, size=None)")
standard_cauchy = _numpy_only("standard_cauchy", "standard_cauchy(size=None)")
weibull = _numpy_only("weibull", "weibull(a, size=None)")

__all__ += ["gamma", "beta", "dirichlet", "poisson", "chisquare", "f", "lognormal", "laplace",
            "logistic", "pareto", "rayleigh", "geometric", "standard_gamma", "standard_t",
            "standard_cauchy", "weibull"]
