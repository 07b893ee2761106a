"""JAX-style samplers built on rejection loops: ``gamma``, ``loggamma``, ``beta``,
``dirichlet``, ``chisquare``, ``t``, ``f`` and ``poisson``.

Signatures and algorithms follow ``jax.random`` (0.10): ``f(key, <params>, shape=None,
dtype=None)``, ``shape`` static (defaulting to the parameters' broadcast shape),
parameters scalars or (traced) arrays that broadcast to ``shape``, default dtypes
float64 (``poisson``: int64).

* ``gamma``: Marsaglia and Tsang's method, one ``lax.while_loop`` rejection per
  element (the elements get the keys ``split(key, size)`` and are sampled by
  ``vmap``, so the batched loop runs until every element is accepted); ``a < 1`` is
  boosted (``Gamma(a) = Gamma(a + 1) * U**(1/a)``; in log space for ``loggamma``).
* ``beta``/``dirichlet``: normalised (log-)gammas; ``chisquare = 2 * gamma(df/2)``,
  ``t = normal * sqrt(df/2 / gamma(df/2))``, ``f`` a ratio of scaled chi-squares.
* ``poisson``: Knuth's product method for ``lam < 10`` and Hörmann's transformed
  rejection (PTRS) otherwise, each a ``while_loop`` over the whole array.

Invalid parameters are not checked here (they may be traced): ``a < 0`` or NaN
gives NaN, ``a == 0`` gives 0 (``-inf`` for ``loggamma``), and ``poisson`` with a
negative, NaN or infinite ``lam`` gives -1. The NumPy-style methods
(:mod:`xnp.random.generator`, NumPy's own) raise ``ValueError`` for concrete bad values.

Gradients: ``gamma`` and ``loggamma`` are differentiable w.r.t. ``a`` by implicit
reparameterisation (``dx/da = -dP(a, x)/da / p(x; a)``, through ``lax.igamma_grad_a``),
as JAX's ``random_gamma_grad``; so are ``beta``, ``dirichlet``, ``chisquare``, ``t``
and ``f``. ``poisson`` is integer valued (no gradient).
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import _util
from xnp.numpy_api import reductions as _reductions
from xnp.random import distributions as _d
from xnp.random.keys import canonical_shape, check_key, split
from xnp.tracing import core, errors
from xnp.tracing.transformations import vmap

__all__ = ["gamma", "loggamma", "beta", "dirichlet", "chisquare", "t", "f", "poisson"]

_c = _d._const


# --------------------------------------------------------------------------- shared setup


def setup(fname, key, shape, dtype, params, accept=kit.FLOATING, default=None,
          param_dtype=None):
    """Validate a sampler call: ``(key, shape, dtype, params broadcast to shape)``.

    ``params`` are converted to ``param_dtype`` (default: ``dtype``); ``shape=None``
    is their broadcast shape; each must broadcast to ``shape`` (``ValueError``).
    """
    key = check_key(fname, key)
    dtype = _d._dtype(fname, dtype, accept, default or _util.default_float)
    pdt = dtype if param_dtype is None else param_dtype
    params = [_d._param(fname, p, pdt, name) for name, p in params]
    if shape is None:
        shape = _d._params_shape(fname, *params)
    shape = canonical_shape(fname, shape)
    _d._check_broadcast(fname, shape, *params)
    return key, shape, dtype, [full(p, shape) for p in params]


def full(x, shape):
    """``x`` broadcast to exactly ``shape``."""
    aval = core.aval_of(x)
    if aval.shape == tuple(shape):
        return x
    x = _util.broadcast_to_rank(x, len(shape))
    return lax.broadcast_in_dim(x, tuple(shape), tuple(range(core.aval_of(x).ndim)))


def _rows(key, n):
    ks = split(key, n)
    return [lax.index_in_dim(ks, i, keepdims=False) for i in range(n)]


# --------------------------------------------------------------------------- gamma


def _gamma_one(key, alpha, log_space: bool):
    """One Marsaglia-Tsang sample for a scalar ``alpha > 0`` (JAX's ``_gamma_one``)."""
    dtype = core.aval_of(alpha).dtype
    zero, one, minus_one = _c(0.0, dtype), _c(1.0, dtype), _c(-1.0, dtype)
    half, third, squeeze = _c(0.5, dtype), _c(1.0 / 3.0, dtype), _c(0.0331, dtype)
    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, third)
    c = lax.div(third, lax.sqrt(d))

    def cond_fn(state):
        _, x, v, u = state
        squeeze_ok = lax.ge(u, lax.sub(one, lax.mul(squeeze, lax.mul(x, x))))
        log_ok = lax.ge(lax.log(u), lax.add(lax.mul(x, half),
                                            lax.mul(d, lax.add(lax.sub(one, v), lax.log(v)))))
        return lax.and_(squeeze_ok, log_ok)  # True: keep rejecting

    def next_xv(kxv):
        k, subkey = _d._split2(kxv[0])
        x = _d._normal_real(subkey, (), dtype)
        return k, x, lax.add(one, lax.mul(x, c))

    def body_fn(state):
        k, x_key, u_key = _rows(state[0], 3)
        _, x, v = lax.while_loop(lambda kxv: lax.le(kxv[2], zero), next_xv,
                                 (x_key, zero, minus_one))
        u = _d._uniform(u_key, (), dtype, zero, one)
        return k, lax.mul(x, x), lax.mul(lax.mul(v, v), v), u

    key, subkey = _d._split2(key)
    _, _, v, _ = lax.while_loop(cond_fn, body_fn, (key, zero, one, _c(2.0, dtype)))
    inv_alpha = lax.div(one, alpha_orig)
    if log_space:
        log_u = lax.log1p(lax.neg(_d._uniform(subkey, (), dtype, zero, one)))  # -exponential
        log_boost = lax.select(lax.or_(boost_mask, lax.eq(log_u, zero)), zero,
                               lax.mul(log_u, inv_alpha))
        return lax.add(lax.add(lax.log(d), lax.log(v)), log_boost)
    u = lax.sub(one, _d._uniform(subkey, (), dtype, zero, one))
    boost = lax.select(boost_mask, one, lax.pow(u, inv_alpha))
    return lax.mul(lax.mul(d, v), boost)


def _gamma_impl(log_space, key, a):
    """Samples for ``a`` (already of the result's shape and dtype); invalid ``a`` as
    documented in the module docstring."""
    aval = core.aval_of(a)
    dtype, shape = aval.dtype, aval.shape
    zero, one = _c(0.0, dtype), _c(1.0, dtype)
    if aval.size == 0:
        return a
    valid = lax.gt(a, zero)  # False for NaN
    alphas = lax.reshape(lax.select(valid, a, lax.broadcast_in_dim(one, shape, ())),
                         (aval.size,))
    keys = split(key, aval.size)
    samples = lax.reshape(vmap(lambda k, al: _gamma_one(k, al, log_space))(keys, alphas), shape)
    at_zero = _c(-np.inf if log_space else 0.0, dtype)
    samples = lax.select(lax.eq(a, zero), lax.broadcast_in_dim(at_zero, shape, ()), samples)
    nan = lax.broadcast_in_dim(_c(np.nan, dtype), shape, ())
    return lax.select(lax.ge(a, zero), samples, nan)


def _gamma_sample(log_space, key, a):
    """Samples (logs with ``log_space``) with the implicit reparameterisation gradient
    w.r.t. ``a``: ``dx/da = -(dP(a, x)/da) / (x**(a-1) e**-x / Gamma(a))`` (one more
    division by ``x`` for ``log x``). The loops sample from ``stop_gradient(a)``; the
    derivative enters as ``out + (a - stop_gradient(a)) * dx``, which equals ``out``
    exactly. Concrete ``a`` (eager, no tracing) cannot be differentiated: no extra work.
    """
    if not isinstance(a, core.Tracer):
        return _gamma_impl(log_space, key, a)
    a0 = lax.stop_gradient(a)
    out = lax.stop_gradient(_gamma_impl(log_space, key, a0))
    dtype = core.aval_of(a).dtype
    log_x = out if log_space else lax.log(out)
    x = lax.exp(log_x) if log_space else out
    power = a0 if log_space else lax.sub(a0, _c(1.0, dtype))
    inv_density = lax.exp(lax.add(lax.sub(lax.lgamma(a0), lax.mul(power, log_x)), x))
    dx = lax.neg(lax.mul(lax.igamma_grad_a(a0, x), inv_density))
    dx = lax.select(lax.is_finite(dx), dx, lax.broadcast_in_dim(_c(0.0, dtype),
                                                                core.aval_of(dx).shape, ()))
    return lax.add(out, lax.mul(lax.sub(a, a0), dx))


def gamma(key, a, shape=None, dtype=None):
    """Gamma samples with shape parameter ``a`` and scale 1 (mean ``a``, variance ``a``).

    Parameters
    ----------
    key : uint32[2] array
    a : scalar or array broadcastable to ``shape`` (may be traced)
    shape : int or tuple of int, static; default ``a``'s shape
    dtype : floating dtype, default float64

    Returns
    -------
    Array of ``shape`` and ``dtype``. ``a == 0`` gives 0; ``a < 0`` or NaN gives NaN.
    Differentiable w.r.t. ``a`` (implicit reparameterisation).

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    ValueError
        ``a`` does not broadcast to ``shape``.
    """
    key, shape, dtype, (a,) = setup("gamma", key, shape, dtype, [("a", a)])
    return _gamma_sample(False, key, a)


def loggamma(key, a, shape=None, dtype=None):
    """``log`` of :func:`gamma` samples, computed in log space (accurate for tiny ``a``,
    where the samples themselves underflow to 0). Same parameters and errors as
    :func:`gamma`; ``a == 0`` gives ``-inf``."""
    key, shape, dtype, (a,) = setup("loggamma", key, shape, dtype, [("a", a)])
    return _gamma_sample(True, key, a)


def beta(key, a, b, shape=None, dtype=None):
    """Beta(``a``, ``b``) samples in [0, 1]: ``Ga / (Ga + Gb)`` from two log-gammas
    (scaled by their maximum to avoid underflow, as JAX).

    ``a``, ``b``: scalars or arrays broadcastable to ``shape`` (default: their
    broadcast shape). Non-positive parameters give NaN. Errors as :func:`gamma`.
    """
    key, shape, dtype, (a, b) = setup("beta", key, shape, dtype, [("a", a), ("b", b)])
    key_a, key_b = _d._split2(key)
    log_ga = _gamma_sample(True, key_a, a)
    log_gb = _gamma_sample(True, key_b, b)
    log_max = lax.max(log_ga, log_gb)
    ga, gb = lax.exp(lax.sub(log_ga, log_max)), lax.exp(lax.sub(log_gb, log_max))
    return lax.div(ga, lax.add(ga, gb))


def dirichlet(key, alpha, shape=None, dtype=None):
    """Dirichlet(``alpha``) samples: ``alpha`` is ``(..., k)``; the result has shape
    ``shape + (k,)`` (``shape`` defaults to ``alpha.shape[:-1]`` and must broadcast
    with it) and sums to 1 along the last axis (softmax of log-gammas, as JAX).

    Raises
    ------
    TypeError
        Bad key or non-floating ``dtype``.
    ValueError
        ``alpha`` has no dimensions, or its batch shape does not broadcast to ``shape``.
    """
    key = check_key("dirichlet", key)
    dtype = _d._dtype("dirichlet", dtype, kit.FLOATING, _util.default_float)
    alpha = _d._param("dirichlet", alpha, dtype, "alpha")
    aval = core.aval_of(alpha)
    if aval.ndim < 1:
        raise ValueError(f"xnp.random.dirichlet: `alpha` must have at least one dimension, "
                         f"got {errors.aval_str(aval)}.")
    shape = aval.shape[:-1] if shape is None else canonical_shape("dirichlet", shape)
    _d._check_broadcast("dirichlet", shape, lax.index_in_dim(alpha, 0, axis=aval.ndim - 1,
                                                              keepdims=False))
    full_shape = tuple(shape) + aval.shape[-1:]
    log_g = _gamma_sample(True, key, full(alpha, full_shape))
    axis = len(full_shape) - 1
    log_max = lax.reduce_max(log_g, (axis,))
    e = lax.exp(lax.sub(log_g, lax.expand_dims(log_max, (axis,))))
    return lax.div(e, lax.expand_dims(lax.reduce_sum(e, (axis,)), (axis,)))


def _chisquare(key, df):
    dtype = core.aval_of(df).dtype
    half_df = lax.div(df, _c(2.0, dtype))
    return lax.mul(lax.exp(_gamma_sample(True, key, half_df)), _c(2.0, dtype))


def chisquare(key, df, shape=None, dtype=None):
    """Chi-square samples with ``df`` degrees of freedom: ``2 * gamma(df / 2)``
    (through ``loggamma``, as JAX). ``df <= 0`` gives 0 or NaN. Errors as :func:`gamma`."""
    key, shape, dtype, (df,) = setup("chisquare", key, shape, dtype, [("df", df)])
    return _chisquare(key, df)


def t(key, df, shape=None, dtype=None):
    """Student's t samples with ``df`` degrees of freedom: ``z * sqrt(df/2 / g)`` for a
    standard normal ``z`` and ``g ~ Gamma(df/2)`` (JAX's algorithm). Errors as :func:`gamma`."""
    key, shape, dtype, (df,) = setup("t", key, shape, dtype, [("df", df)])
    key_n, key_g = _d._split2(key)
    z = _d._normal_real(key_n, shape, dtype)
    half_df = lax.div(df, _c(2.0, dtype))
    g = _gamma_sample(False, key_g, half_df)
    return lax.mul(z, lax.sqrt(lax.div(half_df, g)))


def f(key, dfnum, dfden, shape=None, dtype=None):
    """F-distribution samples: ``(chi2(dfnum) / dfnum) / (chi2(dfden) / dfden)``.
    Errors as :func:`gamma`."""
    key, shape, dtype, (dfnum, dfden) = setup("f", key, shape, dtype,
                                              [("dfnum", dfnum), ("dfden", dfden)])
    key_den, key_num = _d._split2(key)
    num = lax.div(_chisquare(key_num, dfnum), dfnum)
    den = lax.div(_chisquare(key_den, dfden), dfden)
    return lax.div(num, den)


# --------------------------------------------------------------------------- poisson


def _poisson_knuth(key, lam, shape, idtype):
    """Knuth: count uniforms until their product drops below ``exp(-lam)``."""
    fdt = core.aval_of(lam).dtype
    neg_lam = lax.neg(lam)

    def cond_fn(carry):
        return _reductions.any(lax.gt(carry[2], neg_lam))

    def body_fn(carry):
        k, rng, log_prod = carry
        rng, subkey = _d._split2(rng)
        k = lax.select(lax.gt(log_prod, neg_lam), lax.add(k, _c(1, idtype)), k)
        u = _d._uniform(subkey, shape, fdt, _c(0.0, fdt), _c(1.0, fdt))
        return k, rng, lax.add(log_prod, lax.log(u))

    k0 = lax.broadcast_in_dim(_c(0, idtype), shape, ())
    p0 = lax.broadcast_in_dim(_c(0.0, fdt), shape, ())
    k = lax.while_loop(cond_fn, body_fn, (k0, key, p0))[0]
    return lax.sub(k, _c(1, idtype))


def _poisson_rejection(key, lam, shape, idtype):
    """Hörmann's transformed rejection with squeeze (PTRS), for ``lam >= 10``."""
    fdt = core.aval_of(lam).dtype

    def c(v):
        return _c(v, fdt)

    log_lam = lax.log(lam)
    b = lax.add(c(0.931), lax.mul(c(2.53), lax.sqrt(lam)))
    a = lax.add(c(-0.059), lax.mul(c(0.02483), b))
    inv_alpha = lax.add(c(1.1239), lax.div(c(1.1328), lax.sub(b, c(3.4))))
    v_r = lax.sub(c(0.9277), lax.div(c(3.6224), lax.sub(b, c(2.0))))

    def body_fn(carry):
        k_out, accepted, rng = carry
        rng, key0, key1 = _rows(rng, 3)
        u = lax.sub(_d._uniform(key0, shape, fdt, c(0.0), c(1.0)), c(0.5))
        v = _d._uniform(key1, shape, fdt, c(0.0), c(1.0))
        us = lax.sub(c(0.5), lax.abs(u))
        k = lax.floor(lax.add(lax.add(lax.mul(lax.add(lax.div(lax.mul(c(2.0), a), us), b), u),
                                      lam), c(0.43)))
        s = lax.log(lax.div(lax.mul(v, inv_alpha), lax.add(lax.div(a, lax.mul(us, us)), b)))
        tt = lax.sub(lax.sub(lax.mul(k, log_lam), lam), lax.lgamma(lax.add(k, c(1.0))))
        accept1 = lax.and_(lax.ge(us, c(0.07)), lax.le(v, v_r))
        reject = lax.or_(lax.lt(k, c(0.0)), lax.and_(lax.lt(us, c(0.013)), lax.gt(v, us)))
        accept = lax.or_(accept1, lax.and_(lax.not_(reject), lax.le(s, tt)))
        return lax.select(accept, k, k_out), lax.or_(accepted, accept), rng

    k0 = lax.broadcast_in_dim(c(-1.0), shape, ())
    acc0 = lax.broadcast_in_dim(np.asarray(False), shape, ())
    k = lax.while_loop(lambda carry: _reductions.any(lax.not_(carry[1])), body_fn,
                       (k0, acc0, key))[0]
    return lax.convert_element_type(k, idtype)


def poisson(key, lam, shape=None, dtype=None):
    """Poisson samples with rate ``lam`` (Knuth's method for ``lam < 10``, Hörmann's
    transformed rejection otherwise, as JAX and NumPy).

    Parameters
    ----------
    key : uint32[2] array
    lam : scalar or array broadcastable to ``shape`` (may be traced); computed in
        the default float dtype (JAX uses float32)
    shape : int or tuple of int, static; default ``lam``'s shape
    dtype : integer dtype, default int64

    Returns
    -------
    Array of ``shape`` and ``dtype``; -1 where ``lam`` is negative, NaN or infinite.

    Raises
    ------
    TypeError
        Bad key or non-integer ``dtype``. ValueError: ``lam`` does not broadcast.
    """
    fdt = _util.default_float()
    key, shape, idtype, (lam,) = setup("poisson", key, shape, dtype, [("lam", lam)],
                                       accept=kit.INTEGER, default=_util.default_int,
                                       param_dtype=fdt)
    if math.prod(shape) == 0:
        return lax.broadcast_in_dim(_c(0, idtype), shape, ())
    valid = lax.and_(lax.ge(lam, _c(0.0, fdt)), lax.is_finite(lam))
    use_knuth = lax.or_(lax.not_(valid), lax.lt(lam, _c(10.0, fdt)))
    lam_knuth = lax.select(use_knuth, lam, lax.broadcast_in_dim(_c(0.0, fdt), shape, ()))
    lam_knuth = lax.select(valid, lam_knuth, lax.broadcast_in_dim(_c(-1.0, fdt), shape, ()))
    lam_rej = lax.select(use_knuth, lax.broadcast_in_dim(_c(1e5, fdt), shape, ()), lam)
    res = lax.select(use_knuth, _poisson_knuth(key, lam_knuth, shape, idtype),
                     _poisson_rejection(key, lam_rej, shape, idtype))
    return lax.select(lax.eq(lam, _c(0.0, fdt)),
                      lax.broadcast_in_dim(_c(0, idtype), shape, ()), res)
