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
from xnp.random.summaries import GLOBAL_SUMMARIES, RANDOM_STATE_METHODS, SUMMARIES
from xnp.tracing import core

__all__ = ["RandomState", "get_bit_generator", "set_bit_generator"]

_NP = np.random.RandomState


def _wrap(np_state) -> "RandomState":
    r = RandomState.__new__(RandomState)
    r._np = np_state
    r._home = None
    return r


@bridge.forwarding(_NP, RANDOM_STATE_METHODS)
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
        Called under ``jit``/``make_jaxpr`` (a compiled function cannot return the bit
        generator object; :mod:`xnp.random.bridge`).
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


# The module functions: NumPy's legacy functions on the global state, one per
# RandomState method (``tomaxint`` aside) plus NumPy's two aliases; the names shared with
# JAX's API dispatch on a key (module docstring) to these JAX-style samplers.
_JAX_FORMS = {
    "beta": _g.beta, "chisquare": _g.chisquare, "choice": _d.choice, "dirichlet": _g.dirichlet,
    "exponential": _d.exponential, "f": _g.f, "gamma": _g.gamma, "geometric": _t.geometric,
    "gumbel": _d.gumbel, "laplace": _t.laplace, "logistic": _t.logistic,
    "lognormal": _t.lognormal, "multivariate_normal": _d.multivariate_normal,
    "normal": _d.normal, "pareto": _t.pareto, "permutation": _d.permutation,
    "poisson": _g.poisson, "randint": _d.randint, "rayleigh": _t.rayleigh,
    "uniform": _d.uniform,
}
_ALIASES = {"ranf": "random_sample", "sample": "random_sample"}
_FUNCTIONS = sorted({*RANDOM_STATE_METHODS, *_ALIASES} - {"tomaxint"})

for _name in _FUNCTIONS:
    globals()[_name] = bridge.function(_name, GLOBAL_SUMMARIES.get(_name, SUMMARIES.get(_name)),
                                       _global, _ALIASES.get(_name), _JAX_FORMS.get(_name))
del _name

__all__ += _FUNCTIONS
