"""``xnp.random``: NumPy's random streams, and JAX-style keys that work under ``jit``.

NumPy style (hidden state; NumPy's exact numbers, computed by NumPy)::

    rng = xnp.random.default_rng(0); rng.normal(size=3)     # == numpy's, as xnp arrays
    xnp.random.seed(0); xnp.random.rand(2, 3); xnp.random.binomial(10, 0.5, size=5)

``Generator``/``default_rng`` (:mod:`xnp.random.generator`), ``RandomState`` and the
legacy module functions (:mod:`xnp.random.legacy`) forward to NumPy's own objects;
the bit generators (``PCG64``, ``PCG64DXSM``, ``MT19937``, ``Philox``, ``SFC64``,
``BitGenerator``) and ``SeedSequence`` are NumPy's classes. Under ``jit`` a draw
from such a generator made outside the jitted function runs on every call of the
compiled function (a host callback), advancing the generator as the eager program
does; what cannot be reproduced that way raises :class:`StatefulRandomError`
(:mod:`xnp.random.bridge`).

JAX style (explicit keys; pure functions that work under ``jit``, ``vmap``, ``scan``)::

    key = xnp.random.PRNGKey(0)                 # uint32[2]
    key, sub = xnp.random.split(key)
    x = xnp.random.normal(sub, (3,))            # float64

Names in both APIs (``normal``, ``uniform``, ``randint``, ``choice``, ``permutation``,
``exponential``, ``gumbel``, ``gamma``, ``beta``, ...) take the JAX form when the
first argument is key data (a uint32 array with last dimension 2) or ``key=`` is
given, else NumPy's legacy form (:mod:`xnp.random.legacy`). Keys follow JAX's
partitionable Threefry algorithms (:mod:`xnp.random.keys`).
"""

from xnp.random.bridge import StatefulRandomError
from xnp.random.distributions import bernoulli, categorical, truncated_normal
from xnp.random.gamma_family import loggamma, t
from xnp.random.generator import (MT19937, PCG64, PCG64DXSM, SFC64, BitGenerator, Generator,
                                  Philox, SeedSequence, default_rng)
from xnp.random.keys import (PRNGKey, bits, fold_in, key, key_data, random_bits, split,
                             wrap_key_data)
from xnp.random.legacy import (RandomState, beta, binomial, bytes, chisquare, choice, dirichlet,
                               exponential, f, gamma, geometric, get_bit_generator, get_state,
                               gumbel, hypergeometric, laplace, logistic, lognormal, logseries,
                               multinomial, multivariate_normal, negative_binomial,
                               noncentral_chisquare, noncentral_f, normal, pareto, permutation,
                               poisson, power, rand, randint, randn, random, random_integers,
                               random_sample, ranf, rayleigh, sample, seed, set_bit_generator,
                               set_state, shuffle, standard_cauchy, standard_exponential,
                               standard_gamma, standard_normal, standard_t, triangular,
                               uniform, vonmises, wald, weibull, zipf)
from xnp.random.transformed import cauchy, weibull_min

__all__ = [
    # NumPy: classes
    "Generator", "default_rng", "RandomState", "SeedSequence", "BitGenerator", "PCG64",
    "PCG64DXSM", "MT19937", "Philox", "SFC64", "StatefulRandomError",
    # NumPy: legacy functions on the global state (some also take the JAX form)
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
    "gamma", "geometric", "get_bit_generator", "get_state", "gumbel", "hypergeometric",
    "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
    "permutation", "poisson", "power", "rand", "randint", "randn", "random",
    "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed",
    "set_bit_generator", "set_state", "shuffle", "standard_cauchy", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises",
    "wald", "weibull", "zipf",
    # JAX style: keys and the samplers that exist only in JAX's API
    "PRNGKey", "key", "key_data", "wrap_key_data", "split", "fold_in", "bits", "random_bits",
    "bernoulli", "categorical", "truncated_normal", "loggamma", "t", "cauchy", "weibull_min",
]
