"""Lowering rules of the cumulative primitives: a ``stablehlo.reduce_window`` whose
window spans the whole axis, padded by ``n - 1`` identities before (after, for
``reverse``) the data (docs/architecture.md, "Cumulative operations as windows": XLA's
CPU and GPU compilers rewrite such cumulative windows into a log-depth scan).

NumPy semantics: ``cummax``/``cummin`` combine with ``stablehlo.maximum``/``minimum``
alone, which propagate NaN as ``numpy.maximum.accumulate`` does in the scan XLA makes
of the window (checked for float16/bfloat16/float32/float64 up to 10^5 elements along
either axis in ``tests/numpy_api/test_cumulative.py``; a NaN-selecting region, needed
for plain reductions, made the scan 2.6x slower); bool uses ``or``/``and``;
``cumlogsumexp`` combines with a ``logaddexp`` that is exact at equal operands
(both ``-inf`` gives ``-inf``, not NaN); float16 ``cumsum``/``cumprod`` round after every
step, as NumPy's do (a sequential scan, ``float16.py``).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering import float16
from xnp.backends.xla.lowering._core import lowering
from xnp.backends.xla.lowering.windowed import binop, compare, select, window_reduce
from xnp.lax import _kit as kit
from xnp.lax.reductions import reduction_identity

__all__: list = []


def _logaddexp(b, p, q):
    """``log(exp(p) + exp(q))``: ``max + log1p(exp(-|p - q|))``; ``p + log 2`` where equal."""
    m = binop(b, "stablehlo.maximum", p, q)
    d = b.op("stablehlo.abs", [binop(b, "stablehlo.subtract", p, q)], [p.aval])[0]
    e = b.op("stablehlo.exponential", [b.op("stablehlo.negate", [d], [p.aval])[0]], [p.aval])[0]
    general = binop(b, "stablehlo.add", m, b.op("stablehlo.log_plus_one", [e], [p.aval])[0])
    tie = binop(b, "stablehlo.add", p, b.constant(np.asarray(np.log(2.0), p.aval.dtype)))
    return select(b, compare(b, p, q, "EQ"), tie, general)


def _extremum(kind, dtype):
    """The combine of ``cummax``/``cummin`` of ``dtype``: ``or``/``and`` for bool."""
    if dtype in kit.BOOL:
        name = "stablehlo.or" if kind == "max" else "stablehlo.and"
    else:
        name = "stablehlo.maximum" if kind == "max" else "stablehlo.minimum"
    return lambda b, p, q: binop(b, name, p, q)


_COMBINES = {
    "sum": lambda dt: (lambda b, p, q: binop(b, "stablehlo.add", p, q)),
    "prod": lambda dt: (lambda b, p, q: binop(b, "stablehlo.multiply", p, q)),
    "max": lambda dt: _extremum("max", dt),
    "min": lambda dt: _extremum("min", dt),
    "logsumexp": lambda dt: _logaddexp,
}


def _cumulative(kind: str):
    def rule(ctx, x, *, axis, reverse):
        aval = x.aval
        n = aval.shape[axis]
        if aval.size == 0 or n <= 1:
            return [x]
        if aval.dtype == float16.F16 and kind in ("sum", "prod"):
            return float16.cumulative_rule(ctx, kind, x, axis, reverse)  # NumPy's steps
        ident = reduction_identity("max" if kind == "logsumexp" else kind, aval.dtype)
        if kind == "sum" and aval.dtype.kind in "fc":
            # -0.0 is the additive identity that keeps a sign: NumPy's running sum starts
            # from the first element, so cumsum([-0.0, -0.0]) is [-0.0, -0.0]
            ident = np.asarray(complex(-0.0, -0.0) if aval.dtype.kind == "c" else -0.0,
                               aval.dtype)
        combine = _COMBINES[kind](aval.dtype)
        nd = aval.ndim
        window = [1] * nd
        window[axis] = n
        padding = [(0, 0)] * nd
        padding[axis] = (0, n - 1) if reverse else (n - 1, 0)
        params = dict(window_dimensions=window, window_strides=[1] * nd, padding=padding,
                      base_dilation=[1] * nd, window_dilation=[1] * nd)
        return window_reduce(ctx, [x], [ctx.constant(ident)], ctx.avals_out,
                             lambda b, p, q: [combine(b, p, q)], params)

    return rule


lowering(lax.cumsum_p)(_cumulative("sum"))
lowering(lax.cumprod_p)(_cumulative("prod"))
lowering(lax.cummax_p)(_cumulative("max"))
lowering(lax.cummin_p)(_cumulative("min"))
lowering(lax.cumlogsumexp_p)(_cumulative("logsumexp"))
