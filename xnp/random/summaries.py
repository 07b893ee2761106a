"""One-line summaries of NumPy's random methods, shared by the xnp :class:`Generator`,
:class:`RandomState` and the legacy module functions (their docstrings are made from
them by :func:`xnp.random.bridge.method`/:func:`~xnp.random.bridge.function`), and the
lists of the methods each class forwards to NumPy."""

from __future__ import annotations

__all__ = ["SUMMARIES", "GENERATOR_METHODS", "RANDOM_STATE_METHODS", "GLOBAL_SUMMARIES"]

SUMMARIES = {
    "beta": "Beta distribution samples.",
    "binomial": "Binomial distribution samples (``n`` trials, success probability ``p``).",
    "bytes": "``length`` random bytes (a Python ``bytes``).",
    "chisquare": "Chi-square distribution samples.",
    "choice": "Random samples from ``a`` (an array, or ``arange(a)``).",
    "dirichlet": "Dirichlet distribution samples.",
    "exponential": "Exponential distribution samples (mean ``scale``).",
    "f": "F (Fisher-Snedecor) distribution samples.",
    "gamma": "Gamma distribution samples.",
    "geometric": "Geometric distribution samples (trials to the first success).",
    "get_state": "The generator's state (NumPy's tuple, or a dict with ``legacy=False``).",
    "gumbel": "Gumbel distribution samples.",
    "hypergeometric": "Hypergeometric distribution samples.",
    "integers": "Random integers in ``[low, high)`` (``[low, high]`` with ``endpoint``).",
    "laplace": "Laplace (double exponential) distribution samples.",
    "logistic": "Logistic distribution samples.",
    "lognormal": "Log-normal distribution samples.",
    "logseries": "Logarithmic series distribution samples.",
    "multinomial": "Multinomial distribution samples.",
    "multivariate_hypergeometric": "Multivariate hypergeometric distribution samples.",
    "multivariate_normal": "Multivariate normal distribution samples.",
    "negative_binomial": "Negative binomial distribution samples.",
    "noncentral_chisquare": "Noncentral chi-square distribution samples.",
    "noncentral_f": "Noncentral F distribution samples.",
    "normal": "Normal (Gaussian) distribution samples.",
    "pareto": "Pareto II (Lomax) distribution samples.",
    "permutation": "A permuted copy of ``x`` (or of ``arange(x)``).",
    "permuted": "``x`` with each slice along ``axis`` shuffled independently.",
    "poisson": "Poisson distribution samples.",
    "power": "Power distribution samples (exponent ``a - 1``).",
    "rand": "Uniform floats in ``[0, 1)`` of shape ``d0, d1, ...``.",
    "randint": "Random integers in ``[low, high)`` (``[0, low)`` without ``high``).",
    "randn": "Standard normal floats of shape ``d0, d1, ...``.",
    "random": "Uniform floats in ``[0.0, 1.0)``.",
    "random_integers": "Random integers in ``[low, high]`` (deprecated by NumPy).",
    "random_sample": "Uniform floats in ``[0.0, 1.0)``.",
    "rayleigh": "Rayleigh distribution samples.",
    "seed": "Reseed the generator (its bit generator must be an MT19937).",
    "set_state": "Set the generator's state (from ``get_state``).",
    "shuffle": "Shuffle ``x`` in place along ``axis`` (the first axis by default; returns "
               "None).",
    "standard_cauchy": "Standard Cauchy distribution samples.",
    "standard_exponential": "Standard exponential distribution samples.",
    "standard_gamma": "Standard gamma distribution samples.",
    "standard_normal": "Standard normal distribution samples.",
    "standard_t": "Student's t distribution samples.",
    "tomaxint": "Random integers in ``[0, sys.maxsize]``.",
    "triangular": "Triangular distribution samples.",
    "uniform": "Uniform samples in ``[low, high)``.",
    "vonmises": "Von Mises distribution samples.",
    "wald": "Wald (inverse Gaussian) distribution samples.",
    "weibull": "Weibull distribution samples.",
    "zipf": "Zipf distribution samples.",
}

# The summaries the legacy module functions (on the global state) use instead.
GLOBAL_SUMMARIES = {
    "get_state": "The global state (NumPy's tuple, or a dict with ``legacy=False``).",
    "seed": "Reseed the global state (its bit generator must be an MT19937).",
    "set_state": "Set the global state (from ``get_state``).",
    "ranf": "Uniform floats in ``[0.0, 1.0)`` (an alias of ``random_sample``).",
    "sample": "Uniform floats in ``[0.0, 1.0)`` (an alias of ``random_sample``).",
}

_BOTH = ("beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
         "gamma", "geometric", "gumbel", "hypergeometric", "laplace", "logistic", "lognormal",
         "logseries", "multinomial", "multivariate_normal", "negative_binomial",
         "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson",
         "power", "random", "rayleigh", "shuffle", "standard_cauchy", "standard_exponential",
         "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform",
         "vonmises", "wald", "weibull", "zipf")

# numpy.random.Generator's sampling methods (spawn and bit_generator are written out)
GENERATOR_METHODS = _BOTH + ("integers", "multivariate_hypergeometric", "permuted")

# numpy.random.RandomState's methods
RANDOM_STATE_METHODS = _BOTH + ("get_state", "rand", "randint", "randn", "random_integers",
                                "random_sample", "seed", "set_state", "tomaxint")
