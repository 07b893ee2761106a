"""NumPy's ``Generator`` for xnp: ``default_rng`` and :class:`Generator`, backed by NumPy.

``xnp.random.default_rng(seed)`` gives NumPy's numbers exactly: an xnp
:class:`Generator` holds a ``numpy.random.Generator`` and forwards each method to it
(:mod:`xnp.random.bridge`: eager xnp arrays in and out, NumPy's scalars for
``size=None``, NumPy's errors). The bit generators (``PCG64``, ``PCG64DXSM``,
``MT19937``, ``Philox``, ``SFC64``, ``BitGenerator``) and ``SeedSequence`` are
NumPy's classes themselves, so ``Generator(PCG64(5))``, ``spawn``, ``jumped`` and
pickled states all behave as NumPy documents. Threads may share a generator: NumPy
locks its bit generator for each call, so no two threads get the same numbers.

Under ``jit``, such a generator made outside the jitted function raises
:class:`~xnp.random.bridge.StatefulRandomError` instead of freezing its numbers
into the compiled function; see :mod:`xnp.random.bridge` for the full rule and the
key API (``xnp.random.PRNGKey``/``split``) that draws fresh numbers per call.
"""

from __future__ import annotations

import numpy as np

from xnp.random import bridge
from xnp.tracing import core

__all__ = ["Generator", "default_rng", "BitGenerator", "SeedSequence", "PCG64", "PCG64DXSM",
           "MT19937", "Philox", "SFC64"]

BitGenerator = np.random.BitGenerator
SeedSequence = np.random.SeedSequence
PCG64 = np.random.PCG64
PCG64DXSM = np.random.PCG64DXSM
MT19937 = np.random.MT19937
Philox = np.random.Philox
SFC64 = np.random.SFC64

_NP = np.random.Generator


def _method(name: str, summary: str):
    return bridge.method(_NP, "Generator", name, summary, __name__)


def fixed_seed(seed) -> bool:
    """Whether ``seed`` makes the same stream every time (not None entropy, not a bit
    generator or generator object whose state lives on): a generator made from it
    inside a jitted function may draw there (:mod:`xnp.random.bridge`)."""
    return seed is not None and not isinstance(seed, (np.random.BitGenerator,
                                                      np.random.Generator,
                                                      np.random.RandomState, Generator))


def _wrap(np_generator, home=None) -> "Generator":
    g = Generator.__new__(Generator)
    g._np = np_generator
    g._home = home
    return g


class Generator:
    """NumPy's ``numpy.random.Generator`` (the same numbers), with xnp arrays.

    ``Generator(bit_generator)`` takes a bit generator (``xnp.random.PCG64(seed)``,
    ...; they are NumPy's classes); :func:`default_rng` makes one from a seed. Each
    method is NumPy's method of the same name and signature, run by NumPy (see
    :mod:`xnp.random.bridge` for how arguments, results and errors are converted, and
    for what happens under ``jit``).

    Raises
    ------
    TypeError
        ``bit_generator`` is not a ``numpy.random.BitGenerator``.
    """

    __slots__ = ("_np", "_home", "__weakref__")

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, np.random.BitGenerator):
            raise TypeError("xnp.random.Generator: `bit_generator` must be a BitGenerator "
                            "(e.g. xnp.random.PCG64(seed)); for a seed use "
                            f"xnp.random.default_rng(seed). Got {type(bit_generator).__name__}.")
        self._np = np.random.Generator(bit_generator)
        self._home = None  # the bit generator may live on outside a trace

    def __repr__(self):
        return f"Generator({type(self._np.bit_generator).__name__}) at 0x{id(self):X}"

    __str__ = __repr__

    def __reduce__(self):
        return _wrap, (self._np,)

    @property
    def bit_generator(self):
        """The NumPy bit generator behind this generator (shared, not copied)."""
        return self._np.bit_generator

    def spawn(self, n_children):
        """``n_children`` new independent generators (NumPy's ``Generator.spawn``: child
        streams of this generator's ``SeedSequence``), as xnp Generators.

        Raises
        ------
        TypeError
            The bit generator has no ``SeedSequence`` (NumPy's error).
        """
        children = bridge.forward(self, _SPAWN, (n_children,), {})
        return [_wrap(c, self._home) for c in children]

    # The methods, NumPy's signatures and numbers (bridge.method: one line each).
    beta = _method("beta", "Beta distribution samples.")
    binomial = _method("binomial", "Binomial distribution samples (``n`` trials, "
                                   "success probability ``p``).")
    bytes = _method("bytes", "``length`` random bytes (a Python ``bytes``).")
    chisquare = _method("chisquare", "Chi-square distribution samples.")
    choice = _method("choice", "Random samples from ``a`` (an array, or ``arange(a)``).")
    dirichlet = _method("dirichlet", "Dirichlet distribution samples.")
    exponential = _method("exponential", "Exponential distribution samples (mean ``scale``).")
    f = _method("f", "F (Fisher-Snedecor) distribution samples.")
    gamma = _method("gamma", "Gamma distribution samples.")
    geometric = _method("geometric", "Geometric distribution samples (trials to the first "
                                     "success).")
    gumbel = _method("gumbel", "Gumbel distribution samples.")
    hypergeometric = _method("hypergeometric", "Hypergeometric distribution samples.")
    integers = _method("integers", "Random integers in ``[low, high)`` (``[low, high]`` with "
                                   "``endpoint``).")
    laplace = _method("laplace", "Laplace (double exponential) distribution samples.")
    logistic = _method("logistic", "Logistic distribution samples.")
    lognormal = _method("lognormal", "Log-normal distribution samples.")
    logseries = _method("logseries", "Logarithmic series distribution samples.")
    multinomial = _method("multinomial", "Multinomial distribution samples.")
    multivariate_hypergeometric = _method("multivariate_hypergeometric",
                                          "Multivariate hypergeometric distribution samples.")
    multivariate_normal = _method("multivariate_normal",
                                  "Multivariate normal distribution samples.")
    negative_binomial = _method("negative_binomial", "Negative binomial distribution samples.")
    noncentral_chisquare = _method("noncentral_chisquare",
                                   "Noncentral chi-square distribution samples.")
    noncentral_f = _method("noncentral_f", "Noncentral F distribution samples.")
    normal = _method("normal", "Normal (Gaussian) distribution samples.")
    pareto = _method("pareto", "Pareto II (Lomax) distribution samples.")
    permutation = _method("permutation", "A permuted copy of ``x`` (or of ``arange(x)``).")
    permuted = _method("permuted", "``x`` with each slice along ``axis`` shuffled "
                                   "independently.")
    poisson = _method("poisson", "Poisson distribution samples.")
    power = _method("power", "Power distribution samples (exponent ``a - 1``).")
    random = _method("random", "Uniform floats in ``[0.0, 1.0)``.")
    rayleigh = _method("rayleigh", "Rayleigh distribution samples.")
    shuffle = _method("shuffle", "Shuffle ``x`` in place along ``axis`` (returns None).")
    standard_cauchy = _method("standard_cauchy", "Standard Cauchy distribution samples.")
    standard_exponential = _method("standard_exponential",
                                   "Standard exponential distribution samples.")
    standard_gamma = _method("standard_gamma", "Standard gamma distribution samples.")
    standard_normal = _method("standard_normal", "Standard normal distribution samples.")
    standard_t = _method("standard_t", "Student's t distribution samples.")
    triangular = _method("triangular", "Triangular distribution samples.")
    uniform = _method("uniform", "Uniform samples in ``[low, high)``.")
    vonmises = _method("vonmises", "Von Mises distribution samples.")
    wald = _method("wald", "Wald (inverse Gaussian) distribution samples.")
    weibull = _method("weibull", "Weibull distribution samples.")
    zipf = _method("zipf", "Zipf distribution samples.")


_SPAWN = bridge.Spec(_NP, "spawn", "xnp.random.Generator.spawn")


def default_rng(seed=None) -> Generator:
    """A :class:`Generator` with NumPy's numbers: ``numpy.random.default_rng(seed)``.

    Parameters
    ----------
    seed : None, int, array_like of ints, SeedSequence, BitGenerator or Generator
        As NumPy: None takes fresh OS entropy; ints and sequences seed a ``PCG64``
        through a ``SeedSequence``; a bit generator is used as is; an xnp
        Generator is returned as is, and a NumPy Generator is wrapped (sharing
        its state). Eager xnp arrays of ints are accepted like NumPy arrays.

    Returns
    -------
    Generator

    Raises
    ------
    ValueError
        A negative seed (NumPy's error). TypeError: a seed NumPy does not accept.
    StatefulRandomError
        ``seed`` is a traced value.
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, core.Tracer):
        raise bridge.StatefulRandomError(
            "xnp.random.default_rng: `seed` is a traced value; a NumPy-style generator "
            f"needs a concrete seed. Under jit use the key API: {bridge.KEY_API_HINT}.")
    if isinstance(seed, np.random.Generator):
        return _wrap(seed)
    try:
        np_generator = np.random.default_rng(seed._value if type(seed) is core.Array else seed)
    except (ValueError, TypeError) as e:
        raise type(e)(f"xnp.random.default_rng: {e}") from None
    return _wrap(np_generator, bridge.home_trace(fixed_seed(seed)))
