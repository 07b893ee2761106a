"""NumPy's ``Generator`` for xnp: ``default_rng`` and :class:`Generator`, backed by NumPy.

``xnp.random.default_rng(seed)`` gives NumPy's numbers exactly: an xnp
:class:`Generator` holds a ``numpy.random.Generator`` and forwards each method to it
(:mod:`xnp.random.bridge`: eager xnp arrays in and out, NumPy's scalars for
``size=None``, NumPy's errors). The bit generators (``PCG64``, ``PCG64DXSM``,
``MT19937``, ``Philox``, ``SFC64``, ``BitGenerator``) and ``SeedSequence`` are
NumPy's classes themselves, so ``Generator(PCG64(5))``, ``spawn``, ``jumped`` and
pickled states all behave as NumPy documents. Threads may share a generator: NumPy
locks its bit generator for each call, so no two threads get the same numbers.

Under ``jit``, a draw from such a generator made outside the jitted function runs on
every call of the compiled function (a host callback calling NumPy's method, with
traced parameters as run-time values), so it draws NumPy's next numbers and advances
the generator as the eager program does; see :mod:`xnp.random.bridge` for the full
rule, what raises :class:`~xnp.random.bridge.StatefulRandomError`, and the key API
(``xnp.random.PRNGKey``/``split``), whose pure samplers XLA compiles.
"""

from __future__ import annotations

import numpy as np

from xnp.random import bridge
from xnp.random.summaries import GENERATOR_METHODS
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


@bridge.forwarding(_NP, GENERATOR_METHODS)
class Generator:
    """NumPy's ``numpy.random.Generator`` (the same numbers), with xnp arrays.

    ``Generator(bit_generator)`` takes a bit generator (``xnp.random.PCG64(seed)``,
    ...; they are NumPy's classes); :func:`default_rng` makes one from a seed. Each
    method (one per name in :data:`xnp.random.summaries.GENERATOR_METHODS`, besides
    ``spawn`` and ``bit_generator``) is NumPy's method of the same name and signature,
    run by NumPy (see
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
        # inside a trace: not a fixed seed (the bit generator object's state lives on)
        self._home = bridge.home_trace(False)

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
        return [_wrap(c, None if self._home is None else self._home.sibling())
                for c in children]


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
