"""JAX-style samplers: ``f(key, shape, dtype, ...)`` with an explicit ``uint32[2]`` key.

Each function follows ``jax.random.<name>`` (same parameter names and
algorithms, on the partitionable Threefry bits of :mod:`xnp.random.keys`), with
xnp's default dtypes: float64 and int64 (float32/int32 when x64 is disabled).
``shape`` is static (an int or a sequence of ints); parameters such as
``minval`` or ``p`` may be traced arrays that broadcast against ``shape``. All
functions work eagerly, under ``jit``, ``vmap`` over keys and inside ``lax.scan``.

Algorithms (as JAX): ``uniform`` fills the mantissa of a float in [1, 2) with
random bits and subtracts 1; ``normal`` is ``sqrt(2) * erf_inv(u)`` for ``u``
uniform in (-1, 1); ``randint`` reduces two words of random bits modulo the span;
``permutation``/``choice`` without replacement sort by random keys;
``choice`` with ``p`` inverts the cumulative sum (with replacement) or uses the
Gumbel top-k trick (without); ``categorical`` is the Gumbel-max trick.

Gamma-family and closed-form samplers: :mod:`xnp.random.gamma_family` and
:mod:`xnp.random.transformed`. Not implemented: ``binomial`` and the
other samplers that need rejection loops; ``multivariate_normal(method="svd")``;
``categorical(replace=False)``; ``gumbel(mode="high")``.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import _util
from xnp.numpy_api import cumulative as _cumulative
from xnp.numpy_api import elementwise as _elementwise
from xnp.numpy_api import indexing as _indexing
from xnp.numpy_api import products as _linalg
from xnp.numpy_api import reductions as _reductions
from xnp.numpy_api import sorting as _sorting
from xnp.numpy_api.dtypes import finfo, iinfo
from xnp.random.keys import canonical_shape, check_key, key_words, raw_bits
from xnp.tracing import core, errors
from xnp.tracing.host_arrays import check_eager, wrap

__all__ = ["uniform", "normal", "randint", "bernoulli", "gumbel", "exponential",
           "truncated_normal", "multivariate_normal", "categorical", "choice", "permutation"]

_SQRT2 = math.sqrt(2.0)
_UINT = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
         8: np.dtype(np.uint64)}


# --------------------------------------------------------------------------- helpers


def _dtype(fname: str, dtype, accept, default) -> np.dtype:
    dt = default() if dtype is None else np.dtype(dtype)
    if dt not in accept:
        raise TypeError(f"xnp.random.{fname}: `dtype` must be a {kit.category_name(accept)} "
                        f"dtype, got {dt}.")
    return dt


def _param(fname: str, x, dtype: np.dtype, argname: str):
    """``x`` (Python scalar or array) as an xnp value of ``dtype``."""
    if type(x) in (int, float, bool, complex):
        return core.lift(np.asarray(x, dtype))
    x = _util.asarray_for(f"random.{fname}", x, argname)
    if core.aval_of(x).dtype != dtype:
        x = lax.convert_element_type(x, dtype)
    return x


def _check_broadcast(fname: str, shape, *params) -> None:
    """Every parameter broadcasts to ``shape`` (the result keeps ``shape``)."""
    for p in params:
        ps = core.aval_of(p).shape
        # by hand: numpy.broadcast_shapes refuses shapes of more than 2**63 elements
        ok = len(ps) <= len(shape) and all(d in (1, s) for d, s in zip(ps[::-1], shape[::-1]))
        if not ok:
            raise ValueError(f"xnp.random.{fname}: `shape` {tuple(shape)} must be broadcast-"
                             f"compatible with the parameter shapes, got a parameter of shape "
                             f"{ps} (the result shape is `shape`).")


def _params_shape(fname: str, *params) -> tuple[int, ...]:
    return _util.broadcast_shapes(f"random.{fname}", *(core.aval_of(p).shape for p in params))


def _rank(x, ndim):
    return _util.broadcast_to_rank(x, ndim)


def _const(value, dtype):
    return np.asarray(value, dtype)


# --------------------------------------------------------------------------- uniform, normal


def _uniform(key, shape, dtype, minval, maxval):
    """Unchecked core of :func:`uniform` (``minval``/``maxval`` are values of ``dtype``)."""
    info = finfo(dtype)
    nbits, nmant = info.bits, info.nmant
    rng_bits = 8 if nmant < 8 else nbits
    uint = _UINT[nbits // 8]
    raw = raw_bits(key, rng_bits, shape)
    if rng_bits != nbits:
        raw = lax.convert_element_type(raw, uint)
    one_bits = _const(1.0, dtype).view(uint)
    mantissa = lax.shift_right_logical(raw, _const(rng_bits - nmant, uint))
    floats = lax.sub(lax.bitcast_convert_type(lax.or_(mantissa, one_bits), dtype),
                     _const(1.0, dtype))
    minval, maxval = _rank(minval, len(shape)), _rank(maxval, len(shape))
    scaled = lax.add(lax.mul(floats, lax.sub(maxval, minval)), minval)
    return lax.max(minval, scaled)


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Uniform floats in ``[minval, maxval)``.

    Parameters
    ----------
    key : uint32[2] array
    shape : int or tuple of int, static
    dtype : floating dtype, default float64
    minval, maxval : scalar or array broadcastable to ``shape``

    Returns
    -------
    Array of ``shape`` and ``dtype``.

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    ValueError
        ``minval``/``maxval`` do not broadcast to ``shape``.
    """
    key = check_key("uniform", key)
    shape = canonical_shape("uniform", shape)
    dtype = _dtype("uniform", dtype, kit.FLOATING, _util.default_float)
    minval = _param("uniform", minval, dtype, "minval")
    maxval = _param("uniform", maxval, dtype, "maxval")
    _check_broadcast("uniform", shape, minval, maxval)
    return _uniform(key, shape, dtype, minval, maxval)


def _normal_real(key, shape, dtype):
    lo = _const(-1.0 + finfo(dtype).epsneg, dtype)  # nextafter(-1, 0): erf_inv stays finite
    u = _uniform(key, shape, dtype, lo, _const(1.0, dtype))
    return lax.mul(_const(_SQRT2, dtype), lax.erf_inv(u))


def _split2(key):
    """Two keys from ``key`` (``split(key)``'s rows)."""
    k1, k2 = key_words(key)
    b1, b2 = lax.threefry2x32(k1, k2, np.zeros(2, np.uint32), np.arange(2, dtype=np.uint32))
    return [lax.concatenate([lax.slice_in_dim(b1, i, i + 1), lax.slice_in_dim(b2, i, i + 1)], 0)
            for i in range(2)]


def normal(key, shape=(), dtype=None):
    """Standard normal samples (mean 0, variance 1) of ``shape`` and ``dtype``.

    ``dtype`` is floating (default float64) or complex (real and imaginary parts
    independent, each of variance 1/2, as in JAX).

    Raises
    ------
    TypeError
        Bad key or a non-inexact ``dtype``.
    """
    key = check_key("normal", key)
    shape = canonical_shape("normal", shape)
    dtype = _dtype("normal", dtype, kit.INEXACT, _util.default_float)
    if dtype in kit.COMPLEX:
        part = np.finfo(dtype).dtype
        key_re, key_im = _split2(key)
        z = lax.complex(_normal_real(key_re, shape, part), _normal_real(key_im, shape, part))
        return lax.mul(z, _const(1 / _SQRT2, dtype))
    return _normal_real(key, shape, dtype)


def truncated_normal(key, lower, upper, shape=None, dtype=None):
    """Standard normal samples conditioned on ``lower <= x <= upper``.

    ``lower``/``upper`` are scalars or arrays (may be ±inf); ``shape`` defaults to
    their broadcast shape. Inverse-CDF sampling through ``erf``/``erf_inv`` (JAX's
    algorithm); results are clipped to the closed interval ``[lower, upper]`` (JAX
    clips to the open one; the endpoints have probability ~0).

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    ValueError
        ``lower``/``upper`` do not broadcast to ``shape``.
    """
    key = check_key("truncated_normal", key)
    dtype = _dtype("truncated_normal", dtype, kit.FLOATING, _util.default_float)
    lower = _param("truncated_normal", lower, dtype, "lower")
    upper = _param("truncated_normal", upper, dtype, "upper")
    if shape is None:
        shape = _params_shape("truncated_normal", lower, upper)
    shape = canonical_shape("truncated_normal", shape)
    _check_broadcast("truncated_normal", shape, lower, upper)
    sqrt2 = _const(_SQRT2, dtype)
    a = lax.erf(lax.div(lower, sqrt2))
    b = lax.erf(lax.div(upper, sqrt2))
    out = lax.mul(sqrt2, lax.erf_inv(_uniform(key, shape, dtype, a, b)))
    return lax.max(_rank(lower, len(shape)), lax.min(out, _rank(upper, len(shape))))


def multivariate_normal(key, mean, cov, shape=None, dtype=None, method="cholesky"):
    """Samples of the normal distribution with mean ``mean`` (``(..., n)``) and covariance
    ``cov`` (``(..., n, n)``, symmetric positive (semi-)definite).

    ``shape`` (the batch shape of the draws) defaults to the broadcast of
    ``mean.shape[:-1]`` and ``cov.shape[:-2]``; the result has shape ``shape + (n,)``.
    ``mean + factor @ z`` for standard normals ``z`` and ``factor @ factor.T == cov``:
    the Cholesky factor (``method="cholesky"``, positive definite ``cov``) or
    ``v * sqrt(w)`` from ``eigh`` (``method="eigh"``, also semi-definite), as in JAX.

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    ValueError
        ``mean``/``cov`` shapes do not match, or do not broadcast to ``shape``.
    NotImplementedError
        ``method="svd"``.
    """
    key = check_key("multivariate_normal", key)
    dtype = _dtype("multivariate_normal", dtype, kit.FLOATING, _util.default_float)
    mean = _param("multivariate_normal", mean, dtype, "mean")
    cov = _param("multivariate_normal", cov, dtype, "cov")
    ma, ca = core.aval_of(mean), core.aval_of(cov)
    if ma.ndim < 1 or ca.ndim < 2 or ca.shape[-2:] != (ma.shape[-1],) * 2:
        raise ValueError(f"xnp.random.multivariate_normal: `mean` must be (..., n) and `cov` "
                         f"(..., n, n), got {errors.aval_str(ma)} and {errors.aval_str(ca)}.")
    batch = _util.broadcast_shapes("random.multivariate_normal", ma.shape[:-1], ca.shape[:-2])
    shape = batch if shape is None else canonical_shape("multivariate_normal", shape)
    if np.broadcast_shapes(shape, batch) != shape:
        raise ValueError(f"xnp.random.multivariate_normal: `shape` {shape} must be broadcast-"
                         f"compatible with the batch shape {batch} of mean and cov.")
    if method == "cholesky":
        factor = lax.cholesky(cov)
    elif method == "eigh":
        v, w = lax.eigh(cov)
        root = lax.sqrt(lax.max(w, _const(0.0, dtype)))
        factor = lax.mul(v, lax.expand_dims(root, (ca.ndim - 2,)))
    else:
        raise NotImplementedError(f"xnp.random.multivariate_normal: method={method!r} is not "
                                  "implemented (use 'cholesky' or 'eigh').")
    n = ma.shape[-1]
    z = _normal_real(key, shape + (n,), dtype)
    moved = _linalg.matmul(factor, lax.expand_dims(z, (len(shape) + 1,)))
    return _elementwise.add(mean, lax.squeeze(moved, (len(shape) + 1,)))


# --------------------------------------------------------------------------- integers


def _int_bound(fname: str, x, dtype: np.dtype, argname: str):
    """``(x clipped to dtype's range, as dtype; x > dtype max)`` for a Python int or an
    integer array (non-integer arrays are first converted to the default int)."""
    info = iinfo(dtype)
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        x = int(x)
        return (core.lift(np.asarray(min(max(x, info.min), info.max), dtype)),
                core.lift(np.asarray(x > info.max)))
    x = _util.asarray_for(f"random.{fname}", x, argname)
    src = core.aval_of(x).dtype
    if src not in kit.INTEGER:
        src = _util.default_int()
        x = lax.convert_element_type(x, src)
    sinfo = iinfo(src)
    hi = min(info.max, sinfo.max)
    clipped = lax.clamp(_const(max(info.min, sinfo.min), src), x, _const(hi, src))
    return lax.convert_element_type(clipped, dtype), lax.gt(x, _const(hi, src))


def randint(key, shape, minval, maxval, dtype=None):
    """Uniform integers in ``[minval, maxval)`` (``minval`` where ``maxval <= minval``).

    Bounds are clipped to ``dtype``'s range; ``maxval`` one past the dtype's
    maximum (e.g. 256 for uint8) gives the full range. JAX's algorithm: two words
    of random bits reduced modulo the span (bias below 2**-bits).

    Parameters
    ----------
    key : uint32[2] array
    shape : int or tuple of int, static
    minval, maxval : int or integer array broadcastable to ``shape``
    dtype : integer dtype, default int64

    Raises
    ------
    TypeError
        Bad key or non-integer ``dtype``.
    ValueError
        The bounds do not broadcast to ``shape``.
    """
    key = check_key("randint", key)
    shape = canonical_shape("randint", shape)
    dtype = _dtype("randint", dtype, kit.INTEGER, _util.default_int)
    minval, _ = _int_bound("randint", minval, dtype, "minval")
    maxval, max_out_of_range = _int_bound("randint", maxval, dtype, "maxval")
    _check_broadcast("randint", shape, minval, maxval)
    minval, maxval = _rank(minval, len(shape)), _rank(maxval, len(shape))
    max_out_of_range = _rank(max_out_of_range, len(shape))
    nbits = dtype.itemsize * 8
    uint = _UINT[dtype.itemsize]
    k1, k2 = _split2(key)
    higher, lower = raw_bits(k1, nbits, shape), raw_bits(k2, nbits, shape)
    span = lax.convert_element_type(lax.sub(maxval, minval), uint)
    one = _const(1, uint)
    empty = lax.le(maxval, minval)
    span = lax.select(empty, one, span)
    # maxval past the dtype's max: one more value (0 here means 2**nbits: the full range)
    span = lax.select(lax.and_(max_out_of_range, lax.not_(empty)), lax.add(span, one), span)
    full = lax.eq(span, _const(0, uint))
    safe = lax.select(full, one, span)
    # (hi * 2**nbits + lo) mod span, with 2**nbits mod span = (2**(nbits/2) mod span)**2 mod span
    multiplier = lax.rem(_const(2 ** (nbits // 2), uint), safe)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), safe)
    offset = lax.add(lax.mul(lax.rem(higher, safe), multiplier), lax.rem(lower, safe))
    offset = lax.select(full, lower, lax.rem(offset, safe))
    return lax.add(minval, lax.convert_element_type(offset, dtype))


# --------------------------------------------------------------------------- derived


def bernoulli(key, p=0.5, shape=None):
    """Random booleans, True with probability ``p``.

    ``p`` is a scalar or array (integer ``p`` converts to the default float);
    ``shape`` defaults to ``p``'s shape and must broadcast with it.

    Raises
    ------
    TypeError
        Bad key. ValueError: ``p`` does not broadcast to ``shape``.
    """
    key = check_key("bernoulli", key)
    p = _util.asarray_for("random.bernoulli", p, "p")
    dtype = core.aval_of(p).dtype
    if dtype not in kit.FLOATING:
        dtype = _util.default_float()
        p = lax.convert_element_type(p, dtype)
    shape = core.aval_of(p).shape if shape is None else canonical_shape("bernoulli", shape)
    _check_broadcast("bernoulli", shape, p)
    zero, one = _const(0.0, dtype), _const(1.0, dtype)
    return lax.lt(_uniform(key, shape, dtype, zero, one), _rank(p, len(shape)))


def gumbel(key, shape=(), dtype=None, mode=None):
    """Standard Gumbel samples: ``-log(-log(u))`` for ``u`` uniform in ``[tiny, 1)``.

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    NotImplementedError
        ``mode="high"`` (JAX's high-accuracy variant for the upper tail).
    """
    key = check_key("gumbel", key)
    shape = canonical_shape("gumbel", shape)
    dtype = _dtype("gumbel", dtype, kit.FLOATING, _util.default_float)
    if mode not in (None, "low"):
        raise NotImplementedError(f"xnp.random.gumbel: mode={mode!r} is not implemented; "
                                  "only mode='low' (the default).")
    return _gumbel(key, shape, dtype)


def _gumbel(key, shape, dtype):
    u = _uniform(key, shape, dtype, _const(finfo(dtype).tiny, dtype), _const(1.0, dtype))
    return lax.neg(lax.log(lax.neg(lax.log(u))))


def exponential(key, shape=(), dtype=None):
    """Standard exponential samples (rate 1): ``-log1p(-u)`` for ``u`` uniform in [0, 1).

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    """
    key = check_key("exponential", key)
    shape = canonical_shape("exponential", shape)
    dtype = _dtype("exponential", dtype, kit.FLOATING, _util.default_float)
    u = _uniform(key, shape, dtype, _const(0.0, dtype), _const(1.0, dtype))
    return lax.neg(lax.log1p(lax.neg(u)))


def categorical(key, logits, axis=-1, shape=None, replace=True):
    """Indices drawn from the categorical distribution ``softmax(logits)`` along ``axis``.

    ``shape`` defaults to ``logits``' shape without ``axis`` (the batch shape); a
    given ``shape`` must end with the batch shape (leading dims are extra draws).
    Gumbel-max trick: ``argmax(logits + gumbel)``. Result: default int dtype.

    Raises
    ------
    TypeError
        Bad key or non-floating ``logits``. ValueError: ``shape`` does not end with
        the batch shape. NotImplementedError: ``replace=False``.
    """
    key = check_key("categorical", key)
    if not replace:
        raise NotImplementedError("xnp.random.categorical: replace=False is not implemented.")
    logits = _util.asarray_for("random.categorical", logits, "logits")
    aval = core.aval_of(logits)
    if aval.dtype not in kit.FLOATING:
        raise TypeError(f"xnp.random.categorical: `logits` must be floating, got "
                        f"{errors.aval_str(aval)}.")
    axis = _util.normalize_axis("random.categorical", axis, aval.ndim)
    batch = aval.shape[:axis] + aval.shape[axis + 1:]
    shape = batch if shape is None else canonical_shape("categorical", shape)
    if shape[len(shape) - len(batch):] != batch:
        raise ValueError(f"xnp.random.categorical: `shape` {shape} must end with the batch "
                         f"shape {batch} of logits {errors.aval_str(aval)} (axis {axis} removed).")
    prefix = shape[:len(shape) - len(batch)]
    noise_shape = prefix + aval.shape
    noisy = lax.add(_gumbel(key, noise_shape, aval.dtype), _rank(logits, len(noise_shape)))
    return _reductions.argmax(noisy, axis=len(prefix) + axis)


def _arange(n: int):
    return lax.iota(_util.default_int(), (n,))


def _shuffle(key, x, axis: int):
    """``x`` permuted along ``axis`` by sorting on random 32-bit keys (enough rounds that
    collisions are negligible, as in JAX)."""
    size = core.aval_of(x).size
    rounds = math.ceil(3 * math.log(max(1, size)) / math.log(2**32 - 1))
    shape = core.aval_of(x).shape
    for _ in range(rounds):
        key, subkey = _split2(key)
        sort_keys = raw_bits(subkey, 32, shape)
        _, x = lax.sort_key_val(sort_keys, x, axis)
    return x


def permutation(key, x, axis=0, independent=False):
    """A random permutation of ``x`` along ``axis``, or of ``arange(x)`` for an int ``x``.

    ``independent=True`` permutes every 1-d slice along ``axis`` independently;
    otherwise whole slices move together (``take`` with one permutation).

    Raises
    ------
    TypeError
        Bad key. ``ConcretizationTypeError``: a traced scalar ``x``.
        ``AxisError``: ``axis`` out of range.
    """
    key = check_key("permutation", key)
    if _is_host(x):
        return _on_host("permutation", x, lambda pos: permutation(key, pos, axis, independent))
    if not _util.is_xnp(x) and np.ndim(x) == 0:
        return _shuffle(key, _arange(_util.static_int("random.permutation", x, "x")), 0)
    x = _util.asarray_for("random.permutation", x, "x")
    aval = core.aval_of(x)
    if aval.ndim == 0:
        return _shuffle(key, _arange(_util.static_int("random.permutation", x, "x")), 0)
    axis = _util.normalize_axis("random.permutation", axis, aval.ndim)
    if independent or aval.ndim == 1:
        return _shuffle(key, x, axis)
    order = _shuffle(key, _arange(aval.shape[axis]), 0)
    return _indexing.take(x, order, axis=axis)


def _is_host(x) -> bool:
    return isinstance(x, core.Array) and type(x) is not core.Array


def _on_host(fname: str, x, draw):
    """``draw`` (a function of an array) applied to the strings, dates, objects ... of
    the ``HostArray`` ``x``, eagerly: ``draw`` picks positions from ``arange(x.size)``
    shaped as ``x``, and the elements at those positions are gathered by NumPy."""
    check_eager(x, f"random.{fname}")
    pos = draw(lax.reshape(_arange(x.size), x.shape))
    return wrap(np.take(x._val.reshape(-1), np.asarray(pos)))


def choice(key, a, shape=(), replace=True, p=None, axis=0):
    """Random draws from ``a`` (an array, along ``axis``) or from ``arange(a)`` (an int).

    Parameters
    ----------
    a : int or array
        Population; an int ``n`` means ``arange(n)``.
    shape : int or tuple of int, static
        Shape of the draws; the result has shape ``shape`` (int ``a``) or
        ``a.shape[:axis] + shape + a.shape[axis+1:]``.
    replace : bool
        Draw with replacement (default) or without.
    p : 1-d array, optional
        Probabilities of the population's entries (length ``n``; not renormalised
        for ``replace=False``, JAX's Gumbel top-k uses ``log(p)``).

    Raises
    ------
    ValueError
        Empty population with draws, more draws than entries without replacement,
        or ``p`` of the wrong shape. TypeError: bad key.
    """
    key = check_key("choice", key)
    if _is_host(a):
        return _on_host("choice", a, lambda pos: choice(key, pos, shape, replace, p, axis))
    shape = canonical_shape("choice", shape)
    scalar = not _util.is_xnp(a) and np.ndim(a) == 0
    if scalar:
        n = _util.static_int("random.choice", a, "a")
        arr = None
    else:
        arr = _util.asarray_for("random.choice", a, "a")
        aval = core.aval_of(arr)
        if aval.ndim == 0:
            raise ValueError("xnp.random.choice: `a` must be an int or an array with at least "
                             "one dimension.")
        axis = _util.normalize_axis("random.choice", axis, aval.ndim)
        n = aval.shape[axis]
    draws = math.prod(shape)
    if n <= 0 and draws:
        raise ValueError("xnp.random.choice: `a` must be non-empty to draw from it.")
    if not replace and draws > n:
        raise ValueError(f"xnp.random.choice: cannot take {draws} samples without replacement "
                         f"from a population of {n}.")
    if p is None and replace:
        ind = randint(key, shape, 0, max(n, 1))
    elif p is None:
        ind = lax.slice_in_dim(_shuffle(key, _arange(n), 0), 0, draws)
    else:
        ind = _weighted_indices(key, p, n, shape, draws, replace)
    if core.aval_of(ind).shape != shape:
        ind = lax.reshape(ind, shape)
    if scalar:
        return ind
    return _indexing.take(arr, ind, axis=axis)


def _weighted_indices(key, p, n, shape, draws, replace):
    p = _util.asarray_for("random.choice", p, "p")
    pa = core.aval_of(p)
    if pa.shape != (n,):
        raise ValueError(f"xnp.random.choice: `p` must have shape ({n},) (the population size), "
                         f"got {errors.aval_str(pa)}.")
    if pa.dtype not in kit.FLOATING:
        p = lax.convert_element_type(p, _util.default_float())
    dtype = core.aval_of(p).dtype
    if replace:
        cdf = _cumulative.cumsum(p)
        total = lax.index_in_dim(cdf, n - 1, keepdims=False)
        u = _uniform(key, shape, dtype, _const(0.0, dtype), _const(1.0, dtype))
        r = lax.mul(total, lax.sub(_const(1.0, dtype), u))
        return lax.convert_element_type(_sorting.searchsorted(cdf, r), _util.default_int())
    g = lax.add(_gumbel(key, (n,), dtype), lax.log(p))
    return lax.top_k(g, draws, index_dtype=_util.default_int())[1]
