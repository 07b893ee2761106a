"""JAX-style PRNG keys for ``xnp.random``: seeding, splitting, folding in data, raw bits.

A key is a raw ``uint32[2]`` array (JAX's "raw" or legacy key; there are no typed
key arrays in xnp, so ``key(seed)`` and ``PRNGKey(seed)`` agree and
``key_data``/``wrap_key_data`` only validate). Keys are ordinary values: they work
eagerly, under ``jit``, ``vmap`` (over a leading axis of keys) and inside ``lax.scan``.

Algorithms (all built on ``xnp.lax.threefry2x32``) are JAX's *partitionable*
Threefry variant, JAX's default since 0.5 (``jax_threefry_partitionable=True``):

* ``PRNGKey(seed) = [seed >> 32, seed & 0xFFFFFFFF]`` (uint32; a 32-bit or narrower
  seed gives ``[0, seed]``);
* ``split(key, shape)[i] = threefry2x32(key, (hi(i), lo(i)))`` where ``i`` is the
  64-bit row-major index of the element;
* ``fold_in(key, d) = threefry2x32(key, (0, d))``;
* ``random_bits(key, width, shape)``: ``(b1, b2) = threefry2x32(key, (hi(i), lo(i)))``
  per element, then ``b1 ^ b2`` (32 bits, truncated for 8/16) or ``b1 << 32 | b2``
  (64 bits).

With these, xnp reproduces JAX's (0.10.2, default settings) keys and bits exactly,
and its floats wherever the same float operations follow: checked for ``split``
and ``normal`` in x64 and x32 mode (``tests/test_random_keys.py``). ``normal`` goes through
``erf_inv``, which under ``jit`` (and the eager XLA backend) is XLA's, as in JAX,
so jitted normals equal JAX's bit for bit; the eager NumPy backend uses SciPy's
``erfinv``, equal to rounding (a few ulp). JAX's legacy variant
(``jax_threefry_partitionable=False``) is not provided.
"""

from __future__ import annotations

import numbers

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.tracing import core, errors

__all__ = ["PRNGKey", "key", "key_data", "wrap_key_data", "split", "fold_in", "bits",
           "random_bits", "raw_bits", "is_key", "check_key", "canonical_shape", "key_words"]

_U32 = np.dtype(np.uint32)
_UINT_DTYPES = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: _U32,
                64: np.dtype(np.uint64)}


# --------------------------------------------------------------------------- validation


def is_key(x) -> bool:
    """Whether ``x`` looks like raw PRNG key data: a uint32 array (xnp, traced or NumPy)
    whose last dimension is 2. This is how the module-level ``xnp.random`` functions
    tell the JAX form ``normal(key, shape)`` from the NumPy form ``normal(loc, ...)``."""
    if _util.is_xnp(x):
        aval = core.aval_of(x)
        dtype, shape = aval.dtype, aval.shape
    elif isinstance(x, np.ndarray):
        dtype, shape = x.dtype, x.shape
    else:
        return False
    return dtype == _U32 and len(shape) >= 1 and shape[-1] == 2


def check_key(fname: str, key, argname: str = "key"):
    """``key`` as an xnp ``uint32[2]`` value; ``TypeError`` naming ``xnp.random.<fname>``
    otherwise (a batch of keys needs ``xnp.vmap``)."""
    if not (_util.is_xnp(key) or isinstance(key, np.ndarray)):
        raise TypeError(f"xnp.random.{fname}: `{argname}` must be a PRNG key (a uint32[2] array "
                        f"from xnp.random.PRNGKey or split), got {type(key).__name__}.")
    key = _util.asarray_for(f"random.{fname}", key, argname)
    aval = core.aval_of(key)
    if aval.dtype != _U32 or aval.shape != (2,):
        hint = (" To draw with a batch of keys, map over them with xnp.vmap."
                if is_key(key) else "")
        raise TypeError(f"xnp.random.{fname}: `{argname}` must be a single PRNG key of type "
                        f"uint32[2], got {errors.aval_str(aval)}.{hint}")
    return key


def canonical_shape(fname: str, shape, argname: str = "shape") -> tuple[int, ...]:
    """A static tuple of non-negative ints from an int or a sequence of ints."""
    if isinstance(shape, numbers.Integral) or (_util.is_xnp(shape)
                                               and core.aval_of(shape).ndim == 0):
        shape = (shape,)
    try:
        items = list(shape)
    except TypeError:
        raise TypeError(f"xnp.random.{fname}: `{argname}` must be an int or a sequence of "
                        f"ints, got {shape!r}.") from None
    dims = tuple(_util.static_int(f"random.{fname}", d, argname) for d in items)
    if any(d < 0 for d in dims):
        raise ValueError(f"xnp.random.{fname}: `{argname}` must not have negative dimensions, "
                         f"got {dims}.")
    return dims


def key_words(key):
    """The two uint32 words of a ``uint32[2]`` key as 0-d values."""
    return (lax.index_in_dim(key, 0, keepdims=False), lax.index_in_dim(key, 1, keepdims=False))


def _stack_words(w1, w2):
    """``uint32[..., 2]`` from two uint32 arrays of one shape."""
    nd = core.aval_of(w1).ndim
    pair = [lax.expand_dims(w, (nd,)) for w in (w1, w2)]
    return lax.concatenate(pair, nd)


# --------------------------------------------------------------------------- keys


def _seed_value(seed):
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError("xnp.random.PRNGKey: `seed` must be an integer, got a bool.")
    if isinstance(seed, np.integer):
        seed = np.asarray(seed)  # keeps its dtype (an int32 seed gives [0, seed])
    if type(seed) is int:
        if not -(2**63) <= seed < 2**64:
            raise OverflowError(f"xnp.random.PRNGKey: seed {seed} does not fit in 64 bits.")
        dtype = np.int64 if seed < 2**63 else np.uint64
        return core.lift(np.asarray(seed, dtype))
    seed = _util.asarray_for("random.PRNGKey", seed, "seed")
    aval = core.aval_of(seed)
    if aval.shape != () or aval.dtype.kind not in "iu":
        raise TypeError(f"xnp.random.PRNGKey: `seed` must be a scalar integer, got "
                        f"{errors.aval_str(aval)}.")
    return seed


def PRNGKey(seed) -> core.Array:  # noqa: N802  (JAX's name)
    """A PRNG key (``uint32[2]``) from an integer seed.

    Parameters
    ----------
    seed : int or integer scalar array
        Up to 64 bits; may be traced (the key is then traced too). The key is
        ``[seed >> 32, seed & 0xFFFFFFFF]`` (two's complement for negative seeds;
        ``[0, seed]`` for seeds of a 32-bit or narrower dtype), as in JAX.

    Returns
    -------
    Array
        uint32[2].

    Raises
    ------
    TypeError
        ``seed`` is not a scalar integer (bool, float, or an array with dims).
    OverflowError
        A Python int outside ``[-2**63, 2**64)``.
    """
    seed = _seed_value(seed)
    dtype = core.aval_of(seed).dtype
    # the low 32 bits, masked before the cast: a Python int jit argument converted to
    # uint32 directly would be range-checked like a promoted one (xnp.tracing.python_ints)
    low = seed
    if dtype.itemsize == 8 or dtype.kind == "i":
        low = lax.and_(seed, np.asarray(0xFFFFFFFF if dtype.itemsize == 8 else -1, dtype))
    low = lax.convert_element_type(low, _U32)
    if dtype.itemsize == 8:
        high = lax.convert_element_type(lax.shift_right_logical(seed, np.asarray(32, dtype)),
                                        _U32)
    else:
        high = lax.broadcast_in_dim(np.zeros((), _U32), (), ())
    return _stack_words(high, low)


def key(seed) -> core.Array:
    """Same as :func:`PRNGKey` (xnp has no typed key arrays; a key is ``uint32[2]``)."""
    return PRNGKey(seed)


def key_data(keys):
    """The raw ``uint32[..., 2]`` data of ``keys`` (keys already are raw data in xnp).

    Raises
    ------
    TypeError
        ``keys`` is not a uint32 array with last dimension 2.
    """
    if not is_key(keys):
        raise TypeError(f"xnp.random.key_data: expected uint32[..., 2] key data, got "
                        f"{_describe(keys)}.")
    return _util.asarray_for("random.key_data", keys, "keys")


def wrap_key_data(key_bits_array):
    """Keys from raw ``uint32[..., 2]`` data (the identity in xnp, after validation).

    Raises
    ------
    TypeError
        Not a uint32 array with last dimension 2.
    """
    if not is_key(key_bits_array):
        raise TypeError(f"xnp.random.wrap_key_data: expected uint32[..., 2] key data, got "
                        f"{_describe(key_bits_array)}.")
    return _util.asarray_for("random.wrap_key_data", key_bits_array, "key_bits_array")


def _describe(x) -> str:
    if _util.is_xnp(x):
        return errors.aval_str(core.aval_of(x))
    return type(x).__name__


def _threefry_iota(key, shape):
    """``threefry2x32(key, iota_2x32_shape(shape))``: two uint32 arrays of ``shape``."""
    k1, k2 = key_words(key)
    c1, c2 = lax.iota_2x32_shape(shape)
    return lax.threefry2x32(k1, k2, c1, c2)


def split(key, num=2):
    """New keys derived from ``key``: ``uint32[*shape, 2]`` for ``num`` an int or a shape.

    Keys from one ``split`` are independent streams; do not reuse ``key`` after
    splitting it. Algorithm: JAX's partitionable split (module docstring).

    Raises
    ------
    TypeError
        ``key`` is not a single ``uint32[2]`` key; ``num`` is not static.
    """
    key = check_key("split", key)
    shape = canonical_shape("split", num, "num")
    return _stack_words(*_threefry_iota(key, shape))


def fold_in(key, data):
    """A new key from ``key`` and the integer ``data`` (e.g. a step number).

    ``data`` is a scalar integer (may be traced); arrays are converted to uint32
    (modulo 2**32). Result: ``uint32[2]``.

    Raises
    ------
    TypeError
        ``key`` is not a single key, or ``data`` is not a scalar integer.
    OverflowError
        A Python int outside ``[0, 2**32)``.
    """
    key = check_key("fold_in", key)
    if isinstance(data, numbers.Integral) and not isinstance(data, (bool, np.bool_)):
        if not 0 <= int(data) < 2**32:
            raise OverflowError(f"xnp.random.fold_in: `data` {data} is outside the uint32 range.")
        data = core.lift(np.asarray(int(data), _U32))
    data = _util.asarray_for("random.fold_in", data, "data")
    aval = core.aval_of(data)
    if aval.shape != () or aval.dtype.kind not in "iu":
        raise TypeError(f"xnp.random.fold_in: `data` must be a scalar integer, got "
                        f"{errors.aval_str(aval)}.")
    k1, k2 = key_words(key)
    return _stack_words(*lax.threefry2x32(k1, k2, np.zeros((), _U32),
                                          lax.convert_element_type(data, _U32)))


def random_bits(key, bit_width: int, shape):
    """Uniform random unsigned integers of ``bit_width`` (8, 16, 32 or 64) bits and
    ``shape`` (JAX's partitionable algorithm; see the module docstring).

    Raises
    ------
    TypeError
        ``key`` is not a single key, or ``bit_width`` is not 8, 16, 32 or 64.
    """
    key = check_key("random_bits", key)
    if bit_width not in _UINT_DTYPES:
        raise TypeError(f"xnp.random.random_bits: `bit_width` must be 8, 16, 32 or 64, got "
                        f"{bit_width!r}.")
    return raw_bits(key, bit_width, canonical_shape("random_bits", shape))


def raw_bits(key, bit_width: int, shape: tuple[int, ...]):
    """:func:`random_bits` for an already checked key, width and shape (internal use)."""
    b1, b2 = _threefry_iota(key, shape)
    dtype = _UINT_DTYPES[bit_width]
    if bit_width == 64:
        high = lax.convert_element_type(b1, dtype)
        low = lax.convert_element_type(b2, dtype)
        return lax.or_(lax.shift_left(high, np.asarray(32, dtype)), low)
    mixed = lax.xor(b1, b2)
    return mixed if bit_width == 32 else lax.convert_element_type(mixed, dtype)


def bits(key, shape=(), dtype=None):
    """Uniform random bits: unsigned integers of ``dtype`` and ``shape``.

    ``dtype`` defaults to uint64 (uint32 when x64 is disabled), as in JAX.

    Raises
    ------
    TypeError
        ``key`` is not a single key, or ``dtype`` is not an unsigned integer dtype.
    """
    key = check_key("bits", key)
    shape = canonical_shape("bits", shape)
    if dtype is None:
        dtype = np.uint64 if _util.default_int().itemsize == 8 else np.uint32
    dtype = np.dtype(dtype)
    if dtype.kind != "u":
        raise TypeError(f"xnp.random.bits: `dtype` must be an unsigned integer dtype, got "
                        f"{dtype}.")
    return raw_bits(key, dtype.itemsize * 8, shape)
