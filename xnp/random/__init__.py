"""``xnp.random``: counter-based random numbers (Threefry-2x32), in two styles.

JAX style (explicit keys; pure functions that work under ``jit``, ``vmap``, ``scan``)::

    key = xnp.random.PRNGKey(0)                 # uint32[2]
    key, sub = xnp.random.split(key)
    x = xnp.random.normal(sub, (3,))            # float64

NumPy style (hidden state)::

    rng = xnp.random.default_rng(0); rng.normal(size=3)
    xnp.random.seed(0); xnp.random.rand(2, 3); xnp.random.normal(0, 1, size=5)

Names in both APIs (``normal``, ``uniform``, ``randint``, ``choice``,
``permutation``, ``exponential``, ``gumbel``) take the JAX form when the first
argument is key data (a uint32 array with last dimension 2) or ``key=`` is given,
else the NumPy form (:mod:`xnp.random.legacy`). Keys follow JAX's partitionable
Threefry algorithms (:mod:`xnp.random.keys`); the NumPy-style bits differ from
NumPy's. Default dtypes: float64 and int64.
"""

from xnp.random.distributions import (bernoulli, categorical, multivariate_normal,
                                       truncated_normal)
from xnp.random.gamma_family import loggamma, t
from xnp.random.generator import Generator, default_rng
from xnp.random.keys import (PRNGKey, bits, fold_in, key, key_data, random_bits, split,
                             wrap_key_data)
from xnp.random.legacy import (choice, exponential, gumbel, normal, permutation, rand, randint,
                               randn, random, random_sample, seed, shuffle, standard_normal,
                               uniform)
from xnp.random.legacy import (beta, chisquare, dirichlet, f, gamma, geometric, laplace, logistic,
                               lognormal, pareto, poisson, rayleigh, standard_cauchy,
                               standard_gamma, standard_t, weibull)
from xnp.random.transformed import cauchy, weibull_min

__all__ = [
    # keys (JAX style)
    "PRNGKey", "key", "key_data", "wrap_key_data", "split", "fold_in", "bits", "random_bits",
    # JAX-style samplers (and dispatching names shared with NumPy)
    "uniform", "normal", "randint", "bernoulli", "gumbel", "exponential", "truncated_normal",
    "multivariate_normal", "categorical", "choice", "permutation",
    "gamma", "loggamma", "beta", "dirichlet", "poisson", "chisquare", "t", "f", "lognormal",
    "laplace", "logistic", "cauchy", "pareto", "rayleigh", "weibull_min", "geometric",
    # NumPy style
    "Generator", "default_rng", "seed", "rand", "randn", "random", "random_sample",
    "standard_normal", "shuffle", "standard_gamma", "standard_t", "standard_cauchy", "weibull",
]
