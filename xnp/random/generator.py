"""NumPy-style random numbers: ``Generator`` / ``default_rng`` on xnp's Threefry keys.

``xnp.random.default_rng(seed)`` returns a :class:`Generator` with NumPy's method
names and parameters (``random``, ``standard_normal``, ``normal``, ``uniform``,
``integers``, ``choice``, ``permutation``, ``shuffle``, ``exponential``,
``standard_exponential``, ``gumbel``, and from :mod:`xnp.random.generator_more`
``gamma``, ``standard_gamma``, ``beta``, ``dirichlet``, ``poisson``, ``chisquare``,
``standard_t``, ``f``, ``lognormal``, ``laplace``, ``logistic``, ``standard_cauchy``,
``pareto``, ``rayleigh``, ``weibull``, ``geometric``). The *bits differ from NumPy's PCG64*: the same seed
gives different (but equally distributed) numbers than ``numpy.random``.

State: a generator holds a base key (two uint32 words derived from the seed, as
``PRNGKey(seed)`` for an int seed) and a Python counter. Draw ``n`` uses the key
``threefry2x32(base, (n >> 32, n & 0xFFFFFFFF))`` (JAX's ``split(base, 2**64)[n]``),
computed on the host in Python, so a generator is ordinary Python state: it never
holds a traced value and never leaks one. Under ``jit`` a draw is made once, at
trace time, and its key is baked into the compiled function as a constant
(calling the compiled function again gives the same numbers, like any Python side
effect under ``jit``); pass a key (the JAX-style API) for fresh numbers per call.

Results are xnp arrays; ``size=None`` gives a 0-d array (NumPy gives a Python
float). Parameters (``loc``, ``scale``, ``low``, ``high``, ``p``) may be arrays
or traced values; NumPy's checks of their values (``scale >= 0``, ``low < high``)
are made only for Python scalars.
"""

from __future__ import annotations

import numbers
import operator
import secrets
import threading

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax.prng import threefry2x32_rounds
from xnp.numpy_api import _util
from xnp.numpy_api import elementwise as _ew
from xnp.random import distributions as _d
from xnp.random.generator_more import DistributionMethods
from xnp.random.keys import canonical_shape
from xnp.tracing import core

__all__ = ["Generator", "default_rng"]

_MASK = 0xFFFFFFFF


def _python_threefry(k1: int, k2: int, x1: int, x2: int) -> tuple[int, int]:
    """Threefry-2x32 on Python ints (the generator's host-side key derivation)."""

    def add(a, b):
        return (a + b) & _MASK

    def rotate_left(v, r):
        return ((v << r) | (v >> (32 - r))) & _MASK

    return threefry2x32_rounds(k1, k2, x1, x2, add=add, xor=operator.xor,
                               rotate_left=rotate_left, const=int)


def _seed_words(seed) -> tuple[int, int]:
    """Two uint32 words from a NumPy-style seed (None, int >= 0, sequence of ints,
    ``numpy.random.SeedSequence``)."""
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, np.random.SeedSequence):
        w = seed.generate_state(2, np.uint32)
        return int(w[0]), int(w[1])
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)):
        seed = int(seed)
        if seed < 0:
            raise ValueError("xnp.random.default_rng: `seed` must be non-negative.")
        if seed < 2**64:
            return (seed >> 32) & _MASK, seed & _MASK
        return _seed_words(np.random.SeedSequence(seed))
    if _util.is_xnp(seed):
        raise TypeError("xnp.random.default_rng: `seed` must be None, an int, a sequence of "
                        "ints or a SeedSequence (for xnp arrays as keys use the JAX-style API: "
                        "xnp.random.normal(key, shape)).")
    try:
        return _seed_words(np.random.SeedSequence(seed))
    except (TypeError, ValueError) as e:
        raise TypeError(f"xnp.random.default_rng: cannot seed from {seed!r}: {e}") from None


def _size(fname: str, size) -> tuple[int, ...] | None:
    return None if size is None else canonical_shape(fname, size, "size")


def _shape_of(x) -> tuple[int, ...]:
    return core.aval_of(x).shape if _util.is_xnp(x) else np.shape(x)


def _float_dtype(fname: str, dtype) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"xnp.random.Generator.{fname}: `dtype` must be float32 or float64, "
                        f"got {dt}.")
    return dt


def _array_param(fname: str, x, argname: str):
    x = _util.asarray_for(f"random.{fname}", x, argname)
    if core.aval_of(x).dtype not in kit.INEXACT:  # ml_dtypes floats (kind "V") stay
        x = lax.convert_element_type(x, _util.default_float())
    return x


def _check_scalar(fname: str, cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(f"xnp.random.Generator.{fname}: {msg}")


def _check_probabilities(p, shape, replace) -> None:
    """NumPy's checks of a concrete ``p`` for ``Generator.choice`` (NaN, negative entries,
    a sum off 1 by more than ``sqrt(eps)``, too few non-zero entries without replacement).
    A traced ``p`` (under jit/vmap) cannot be checked and is used as given."""
    if isinstance(p, core.Tracer):
        known = p.to_concrete_value()
    else:
        try:
            known = p._value if type(p) is core.Array else np.asarray(p)
        except Exception:  # e.g. a list holding tracers
            known = None
    if known is None or np.asarray(known).dtype.kind not in "biuf":
        return
    known = np.asarray(known)
    atol = np.sqrt(np.finfo(np.float64).eps)
    if known.dtype.kind == "f":
        atol = max(atol, np.sqrt(np.finfo(known.dtype).eps))
    pf = known.astype(np.float64)
    _check_scalar("choice", not np.isnan(pf).any(), "probabilities contain NaN")
    _check_scalar("choice", not (pf < 0).any(), "probabilities are not non-negative")
    _check_scalar("choice", abs(pf.sum() - 1.0) <= atol, "probabilities do not sum to 1")
    _check_scalar("choice", replace or np.count_nonzero(pf > 0) >= np.prod(shape),
                  "fewer non-zero entries in p than size")


_COUNTER_LOCK = threading.Lock()


class Generator(DistributionMethods):
    """A NumPy-style random generator (``numpy.random.Generator``'s methods) on Threefry.

    Create one with :func:`default_rng`; ``Generator(seed)`` takes the same seeds
    (None, a non-negative int, a sequence of ints, a ``SeedSequence``). See the
    module docstring for how the state advances and for the behaviour under jit.
    """

    def __init__(self, seed=None):
        self._words = _seed_words(seed)
        self._count = 0

    def __repr__(self):
        return f"Generator(Threefry2x32) at {hex(id(self))}"

    def _next_key(self):
        """A fresh ``uint32[2]`` key (a constant under jit); advances the counter."""
        with _COUNTER_LOCK:  # threads sharing a generator never draw the same key
            n = self._count
            self._count += 1
        words = _python_threefry(*self._words, (n >> 32) & _MASK, n & _MASK)
        return core.lift(np.asarray(words, np.uint32))

    def _shaped(self, fname, size, *params):
        """The result shape: ``size``, or the parameters' broadcast shape when None."""
        size = _size(fname, size)
        if size is None:
            return _util.broadcast_shapes(f"random.{fname}", *(_shape_of(p) for p in params))
        return size

    def _standard(self, fname, sample, size, dtype, out=None):
        """``sample(key, shape, dtype)`` for a standard distribution, NumPy's ``size``/``out``."""
        shape = canonical_shape(fname, () if size is None else size, "size")
        if out is not None and size is None:
            shape = core.aval_of(out).shape
        res = sample(self._next_key(), shape, _float_dtype(fname, dtype))
        return _util.write_out(f"random.Generator.{fname}", out, res)

    def _location_scale(self, fname, sample, loc, scale, size, check_scale=True):
        """``loc + scale * sample(key, shape)``; shape ``size`` or that of ``loc``/``scale``."""
        if check_scale and isinstance(scale, numbers.Real):
            _check_scalar(fname, scale >= 0, "scale < 0")
        loc, scale = _array_param(fname, loc, "loc"), _array_param(fname, scale, "scale")
        shape = self._shaped(fname, size, loc, scale)
        _d._check_broadcast(fname, shape, loc, scale)
        std = sample(self._next_key(), shape, _util.default_float())
        return _ew.add(loc, _ew.multiply(scale, std))

    def random(self, size=None, dtype=np.float64, out=None):
        """Uniform floats in ``[0, 1)``: shape ``size`` (None: 0-d), float32 or float64.

        ``out`` (an xnp array of the result's shape) is written in place.
        """
        return self._standard("random", _d.uniform, size, dtype, out)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        """Standard normal floats: shape ``size`` (None: 0-d), float32 or float64."""
        return self._standard("standard_normal", _d.normal, size, dtype, out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal samples ``loc + scale * z``; shape ``size`` or the broadcast shape of
        ``loc`` and ``scale``. Raises ValueError for a negative Python-scalar ``scale``
        or parameters that do not broadcast to ``size``."""
        return self._location_scale("normal", _d.normal, loc, scale, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        """Uniform samples in ``[low, high)``; shape ``size`` or the broadcast shape of
        ``low`` and ``high``."""
        low, high = _array_param("uniform", low, "low"), _array_param("uniform", high, "high")
        return self._location_scale("uniform", _d.uniform, low, _ew.subtract(high, low), size,
                                    check_scale=False)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Uniform integers in ``[low, high)`` (``[low, high]`` with ``endpoint``); with
        ``high=None`` the range is ``[0, low)``. ``dtype`` any integer dtype.

        Raises
        ------
        ValueError
            Python-scalar bounds with ``low >= high`` (``low > high`` with ``endpoint``).
        """
        if high is None:
            low, high = 0, low
        dtype = np.dtype(dtype)
        if isinstance(low, numbers.Integral) and isinstance(high, numbers.Integral):
            _check_scalar("integers", low <= high if endpoint else low < high,
                          "low > high" if endpoint else "low >= high")
        if endpoint:
            high = high + 1 if isinstance(high, numbers.Integral) else _ew.add(high, 1)
        shape = self._shaped("integers", size, low, high)
        return _d.randint(self._next_key(), shape, low, high, dtype)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Random entries of ``a`` (an array, along ``axis``) or of ``arange(a)`` (an int);
        ``size=None`` draws one entry. ``shuffle=False`` is accepted (the order of
        draws without replacement is random either way). A concrete ``p`` is checked as
        NumPy does (``ValueError`` for NaN, negative entries, a sum other than 1, or too
        few non-zero entries without replacement); a traced ``p`` is not checked."""
        shape = () if size is None else canonical_shape("choice", size, "size")
        if p is not None:
            _check_probabilities(p, shape, replace)
        return _d.choice(self._next_key(), a, shape, replace=replace, p=p, axis=axis)

    def permutation(self, x, axis=0):
        """A permuted copy of ``x`` along ``axis``, or a permutation of ``arange(x)``."""
        return _d.permutation(self._next_key(), x, axis=axis)

    def shuffle(self, x, axis=0):
        """Permute ``x`` along ``axis`` in place (an eager xnp array; under jit the traced
        ``x`` is rebound, as for ``out=``). Returns None.

        Raises
        ------
        TypeError
            ``x`` is not an xnp array (NumPy arrays: use ``numpy.random``).
        """
        if not _util.is_xnp(x):
            raise TypeError(f"xnp.random.Generator.shuffle: `x` must be an xnp array, got "
                            f"{type(x).__name__}.")
        if core.aval_of(x).ndim == 0:
            raise TypeError("xnp.random.Generator.shuffle: `x` must have at least 1 dimension.")
        res = _d.permutation(self._next_key(), x, axis=axis)
        _util.write_out("random.Generator.shuffle", x, res)

    def exponential(self, scale=1.0, size=None):
        """Exponential samples with mean ``scale``; shape ``size`` or ``scale``'s shape."""
        return self._location_scale("exponential", _d.exponential, 0.0, scale, size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        """Gumbel samples ``loc + scale * g`` (``g`` standard Gumbel); shape ``size`` or the
        broadcast shape of ``loc`` and ``scale``."""
        return self._location_scale("gumbel", _d.gumbel, loc, scale, size)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        """Standard exponential samples (mean 1): shape ``size`` (None: 0-d). ``method`` is
        accepted for NumPy compatibility (xnp always inverts the CDF: equally distributed).

        Raises
        ------
        ValueError
            ``method`` is not ``"zig"`` or ``"inv"``.
        """
        if method not in ("zig", "inv"):
            raise ValueError(f"xnp.random.Generator.standard_exponential: unknown method "
                             f"{method!r} (expected 'zig' or 'inv').")
        return self._standard("standard_exponential", _d.exponential, size, dtype, out)


def default_rng(seed=None) -> Generator:
    """A :class:`Generator` seeded with ``seed`` (None: fresh OS entropy; a non-negative
    int; a sequence of ints; a ``SeedSequence``; a ``Generator`` is returned as is).

    The numbers differ from ``numpy.random.default_rng(seed)``'s (Threefry, not PCG64).

    Raises
    ------
    ValueError
        A negative int seed. TypeError: an unsupported seed type.
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)
