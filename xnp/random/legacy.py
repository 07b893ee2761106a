"""NumPy's legacy random API for xnp: :class:`RandomState` and the module functions
(``seed``, ``rand``, ``randn``, ``randint``, ``normal``, ``binomial``, ...), backed by NumPy.

Every number is NumPy's: an xnp :class:`RandomState` holds a
``numpy.random.RandomState`` (Mersenne Twister by default) and forwards each method
to it, and the module functions use one global xnp ``RandomState`` of their own
(separate from ``numpy.random``'s global, so seeding one leaves the other alone):
``xnp.random.seed(0); xnp.random.rand(3)`` equals ``numpy.random.seed(0);
numpy.random.rand(3)``. ``get_state``/``set_state`` take and give NumPy's state
tuples and dicts; ``get_bit_generator``/``set_bit_generator`` swap the global's bit
generator. Conversions, errors and the rule under ``jit``: :mod:`xnp.random.bridge`.

Names that exist in both JAX's and NumPy's API (``normal``, ``uniform``, ``randint``,
``choice``, ``permutation``, ``exponential``, ``gumbel``, ``gamma``, ``beta``,
``dirichlet``, ``poisson``, ``chisquare``, ``f``, ``lognormal``, ``laplace``,
``logistic``, ``pareto``, ``rayleigh``, ``geometric``, ``multivariate_normal``)
dispatch on their arguments, in this order:

1. a ``key=`` keyword argument, or a first positional argument that is *key data*
   (a uint32 array, xnp/traced/NumPy, whose last dimension is 2), selects the JAX
   form ``f(key, shape, ...)`` of :mod:`xnp.random.distributions`;
2. anything else selects NumPy's legacy form (``normal(loc, scale, size)``).

The one input read differently from NumPy is a uint32 array with last dimension 2
passed as NumPy's first parameter (``loc``, ``low``, ``a``, ``x``, ``mean``): convert
it to another dtype, or call the :class:`RandomState` method, which never dispatches.
"""

from __future__ import annotations

import numpy as np

from xnp.random import bridge
from xnp.random import distributions as _d
from xnp.random import gamma_family as _g
from xnp.random import transformed as _t
from xnp.random.generator import fixed_seed
from xnp.tracing import core

__all__ = ["RandomState", "get_bit_generator", "set_bit_generator"]

_NP = np.random.RandomState


def _method(name: str, summary: str):
    return bridge.method(_NP, "RandomState", name, summary, __name__)


def _wrap(np_state) -> "RandomState":
    r = RandomState.__new__(RandomState)
    r._np = np_state
    r._home = None
    return r


class RandomState:
    """NumPy's legacy ``numpy.random.RandomState`` (the same numbers), with xnp arrays.

    ``RandomState(seed=None)``: as NumPy, ``seed`` is None (OS entropy), an int or
    array of ints (seeding an ``MT19937``), or a bit generator used as is. Each
    method is NumPy's method of the same name and signature, run by NumPy
    (:mod:`xnp.random.bridge`).

    Raises
    ------
    ValueError, TypeError
        A seed NumPy does not accept (NumPy's error).
    StatefulRandomError
        ``seed`` is a traced value.
    """

    __slots__ = ("_np", "_home", "__weakref__")

    def __init__(self, seed=None):
        if isinstance(seed, core.Tracer):
            raise bridge.StatefulRandomError(
                "xnp.random.RandomState: `seed` is a traced value; a NumPy-style generator "
                f"needs a concrete seed. Under jit use the key API: {bridge.KEY_API_HINT}.")
        try:
            self._np = np.random.RandomState(seed._value if type(seed) is core.Array else seed)
        except (ValueError, TypeError) as e:
            raise type(e)(f"xnp.random.RandomState: {e}") from None
        self._home = bridge.home_trace(fixed_seed(seed))

    def __repr__(self):
        return f"RandomState({type(self._np._bit_generator).__name__}) at 0x{id(self):X}"

    __str__ = __repr__

    def __reduce__(self):
        return _wrap, (self._np,)

    @property
    def _bit_generator(self):
        """The NumPy bit generator behind this state (NumPy's attribute name)."""
        return self._np._bit_generator

    # The methods, NumPy's signatures and numbers (bridge.method: one line each).
    beta = _method("beta", "Beta distribution samples.")
    binomial = _method("binomial", "Binomial distribution samples.")
    bytes = _method("bytes", "``length`` random bytes (a Python ``bytes``).")
    chisquare = _method("chisquare", "Chi-square distribution samples.")
    choice = _method("choice", "Random samples from ``a`` (an array, or ``arange(a)``).")
    dirichlet = _method("dirichlet", "Dirichlet distribution samples.")
    exponential = _method("exponential", "Exponential distribution samples (mean ``scale``).")
    f = _method("f", "F (Fisher-Snedecor) distribution samples.")
    gamma = _method("gamma", "Gamma distribution samples.")
    geometric = _method("geometric", "Geometric distribution samples.")
    get_state = _method("get_state", "The generator's state (NumPy's tuple, or a dict with "
                                     "``legacy=False``).")
    gumbel = _method("gumbel", "Gumbel distribution samples.")
    hypergeometric = _method("hypergeometric", "Hypergeometric distribution samples.")
    laplace = _method("laplace", "Laplace (double exponential) distribution samples.")
    logistic = _method("logistic", "Logistic distribution samples.")
    lognormal = _method("lognormal", "Log-normal distribution samples.")
    logseries = _method("logseries", "Logarithmic series distribution samples.")
    multinomial = _method("multinomial", "Multinomial distribution samples.")
    multivariate_normal = _method("multivariate_normal",
                                  "Multivariate normal distribution samples.")
    negative_binomial = _method("negative_binomial", "Negative binomial distribution samples.")
    noncentral_chisquare = _method("noncentral_chisquare",
                                   "Noncentral chi-square distribution samples.")
    noncentral_f = _method("noncentral_f", "Noncentral F distribution samples.")
    normal = _method("normal", "Normal (Gaussian) distribution samples.")
    pareto = _method("pareto", "Pareto II (Lomax) distribution samples.")
    permutation = _method("permutation", "A permuted copy of ``x`` (or of ``arange(x)``).")
    poisson = _method("poisson", "Poisson distribution samples.")
    power = _method("power", "Power distribution samples (exponent ``a - 1``).")
    rand = _method("rand", "Uniform floats in ``[0, 1)`` of shape ``d0, d1, ...``.")
    randint = _method("randint", "Random integers in ``[low, high)`` (``[0, low)`` without "
                                 "``high``).")
    randn = _method("randn", "Standard normal floats of shape ``d0, d1, ...``.")
    random = _method("random", "Uniform floats in ``[0.0, 1.0)``.")
    random_integers = _method("random_integers", "Random integers in ``[low, high]`` "
                                                 "(deprecated by NumPy).")
    random_sample = _method("random_sample", "Uniform floats in ``[0.0, 1.0)``.")
    rayleigh = _method("rayleigh", "Rayleigh distribution samples.")
    seed = _method("seed", "Reseed the generator (its bit generator must be an MT19937).")
    set_state = _method("set_state", "Set the generator's state (from ``get_state``).")
    shuffle = _method("shuffle", "Shuffle ``x`` in place along its first axis.")
    standard_cauchy = _method("standard_cauchy", "Standard Cauchy distribution samples.")
    standard_exponential = _method("standard_exponential",
                                   "Standard exponential distribution samples.")
    standard_gamma = _method("standard_gamma", "Standard gamma distribution samples.")
    standard_normal = _method("standard_normal", "Standard normal distribution samples.")
    standard_t = _method("standard_t", "Student's t distribution samples.")
    tomaxint = _method("tomaxint", "Random integers in ``[0, sys.maxsize]``.")
    triangular = _method("triangular", "Triangular distribution samples.")
    uniform = _method("uniform", "Uniform samples in ``[low, high)``.")
    vonmises = _method("vonmises", "Von Mises distribution samples.")
    wald = _method("wald", "Wald (inverse Gaussian) distribution samples.")
    weibull = _method("weibull", "Weibull distribution samples.")
    zipf = _method("zipf", "Zipf distribution samples.")


# --------------------------------------------------------------------------- the global state

_GLOBAL = RandomState()


def _global() -> RandomState:
    return _GLOBAL


def get_bit_generator():
    """The bit generator of the global state behind the module functions (an
    ``MT19937`` unless :func:`set_bit_generator` replaced it); NumPy's function.

    Raises
    ------
    StatefulRandomError
        Called under ``jit``/``make_jaxpr`` (:mod:`xnp.random.bridge`).
    """
    bridge.staged_check("xnp.random.get_bit_generator", _GLOBAL)
    return _GLOBAL._np._bit_generator


def set_bit_generator(bitgen) -> None:
    """Make the global state behind the module functions draw from ``bitgen`` (a
    ``BitGenerator``, used as is, not copied); NumPy's function.

    Raises
    ------
    TypeError
        ``bitgen`` is not a ``numpy.random.BitGenerator``.
    StatefulRandomError
        Called under ``jit``/``make_jaxpr``.
    """
    bridge.staged_check("xnp.random.set_bit_generator", _GLOBAL)
    if not isinstance(bitgen, np.random.BitGenerator):
        raise TypeError("xnp.random.set_bit_generator: `bitgen` must be a BitGenerator "
                        f"(e.g. xnp.random.MT19937(seed)), got {type(bitgen).__name__}.")
    _GLOBAL._np = np.random.RandomState(bitgen)


def _function(name: str, summary: str, np_name: str | None = None):
    return bridge.function(name, summary, _global, np_name)


def _dispatching(name: str, summary: str, jax_fn):
    return bridge.function(name, summary, _global, jax_fn=jax_fn)


# The module functions: NumPy's legacy functions on the global state, one line each; the
# names shared with JAX's API dispatch on a key (module docstring).
beta = _dispatching("beta", "Beta distribution samples.", _g.beta)
binomial = _function("binomial", "Binomial distribution samples.")
bytes = _function("bytes", "``length`` random bytes (a Python ``bytes``).")
chisquare = _dispatching("chisquare", "Chi-square distribution samples.", _g.chisquare)
choice = _dispatching("choice", "Random samples from ``a`` (an array, or ``arange(a)``).",
                      _d.choice)
dirichlet = _dispatching("dirichlet", "Dirichlet distribution samples.", _g.dirichlet)
exponential = _dispatching("exponential", "Exponential distribution samples.", _d.exponential)
f = _dispatching("f", "F (Fisher-Snedecor) distribution samples.", _g.f)
gamma = _dispatching("gamma", "Gamma distribution samples.", _g.gamma)
geometric = _dispatching("geometric", "Geometric distribution samples.", _t.geometric)
get_state = _function("get_state", "The global state (NumPy's tuple, or a dict with "
                                   "``legacy=False``).")
gumbel = _dispatching("gumbel", "Gumbel distribution samples.", _d.gumbel)
hypergeometric = _function("hypergeometric", "Hypergeometric distribution samples.")
laplace = _dispatching("laplace", "Laplace distribution samples.", _t.laplace)
logistic = _dispatching("logistic", "Logistic distribution samples.", _t.logistic)
lognormal = _dispatching("lognormal", "Log-normal distribution samples.", _t.lognormal)
logseries = _function("logseries", "Logarithmic series distribution samples.")
multinomial = _function("multinomial", "Multinomial distribution samples.")
multivariate_normal = _dispatching("multivariate_normal", "Multivariate normal samples.",
                                   _d.multivariate_normal)
negative_binomial = _function("negative_binomial", "Negative binomial distribution samples.")
noncentral_chisquare = _function("noncentral_chisquare",
                                 "Noncentral chi-square distribution samples.")
noncentral_f = _function("noncentral_f", "Noncentral F distribution samples.")
normal = _dispatching("normal", "Normal (Gaussian) distribution samples.", _d.normal)
pareto = _dispatching("pareto", "Pareto II (Lomax) distribution samples.", _t.pareto)
permutation = _dispatching("permutation", "A permuted copy of ``x`` (or of ``arange(x)``).",
                           _d.permutation)
poisson = _dispatching("poisson", "Poisson distribution samples.", _g.poisson)
power = _function("power", "Power distribution samples (exponent ``a - 1``).")
rand = _function("rand", "Uniform floats in ``[0, 1)`` of shape ``d0, d1, ...``.")
randint = _dispatching("randint", "Random integers in ``[low, high)``.", _d.randint)
randn = _function("randn", "Standard normal floats of shape ``d0, d1, ...``.")
random = _function("random", "Uniform floats in ``[0.0, 1.0)``.")
random_integers = _function("random_integers", "Random integers in ``[low, high]`` "
                                               "(deprecated by NumPy).")
random_sample = _function("random_sample", "Uniform floats in ``[0.0, 1.0)``.")
ranf = _function("ranf", "Uniform floats in ``[0.0, 1.0)`` (an alias of ``random_sample``).",
                 "random_sample")
rayleigh = _dispatching("rayleigh", "Rayleigh distribution samples.", _t.rayleigh)
sample = _function("sample", "Uniform floats in ``[0.0, 1.0)`` (an alias of "
                             "``random_sample``).", "random_sample")
seed = _function("seed", "Reseed the global state (its bit generator must be an MT19937).")
set_state = _function("set_state", "Set the global state (from ``get_state``).")
shuffle = _function("shuffle", "Shuffle ``x`` in place along its first axis.")
standard_cauchy = _function("standard_cauchy", "Standard Cauchy distribution samples.")
standard_exponential = _function("standard_exponential",
                                 "Standard exponential distribution samples.")
standard_gamma = _function("standard_gamma", "Standard gamma distribution samples.")
standard_normal = _function("standard_normal", "Standard normal distribution samples.")
standard_t = _function("standard_t", "Student's t distribution samples.")
triangular = _function("triangular", "Triangular distribution samples.")
uniform = _dispatching("uniform", "Uniform samples in ``[low, high)``.", _d.uniform)
vonmises = _function("vonmises", "Von Mises distribution samples.")
wald = _function("wald", "Wald (inverse Gaussian) distribution samples.")
weibull = _function("weibull", "Weibull distribution samples.")
zipf = _function("zipf", "Zipf distribution samples.")

__all__ += ["beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
            "gamma", "geometric", "get_state", "gumbel", "hypergeometric", "laplace",
            "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
            "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
            "permutation", "poisson", "power", "rand", "randint", "randn", "random",
            "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed",
            "set_state", "shuffle", "standard_cauchy", "standard_exponential",
            "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform",
            "vonmises", "wald", "weibull", "zipf"]
