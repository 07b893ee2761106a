"""``d/da P(a, x)``, the derivative of the regularized lower incomplete gamma function in
its shape parameter (the eager implementation and the XLA lowering of
``xnp.lax.igamma_grad_a``).

XLA's ``IgammaGradA`` (xla/client/lib/math.cc), i.e. forward-mode differentiation in
``a`` carried along Cephes' algorithms for ``P`` and ``Q = 1 - P``:

* ``x <= 1`` or ``x <= a``: the power series ``P = ax / a * S``, ``S = sum_n c_n``,
  ``c_n = x^n / ((a+1)...(a+n))``, ``ax = x^a e^-x / Γ(a)``. With
  ``dc_n/da = dc_{n-1}/da * x/(a+n) - c_{n-1} x/(a+n)^2`` the result is
  ``ax / a * (S (log x - ψ(a+1)) + dS/da)``.
* otherwise Legendre's continued fraction ``Q = ax * p_k / q_k``, whose three-term
  recurrences are differentiated alongside (``d p_k/da``, ``d q_k/da``); the result is
  ``-ax * (p/q (log x - ψ(a)) + d(p/q)/da)``.

Each loop runs until every element's sum and derivative have converged to the dtype's
epsilon (relative), capped at :data:`MAX_ITERATIONS`.

Domain (SciPy has no such function; these follow ``P``'s edges): NaN for NaN operands,
``a <= 0``, ``x < 0`` and ``a == x == inf``; 0 where ``P`` is constant in ``a``
(``x == 0``, ``x == inf``, ``a == inf``) and where ``ax`` underflows (as XLA).

The algorithm is written once against a small namespace of array operations
(:class:`NumpyOps` for NumPy/CuPy arrays, ``LaxOps`` in the lowering for xnp tracers);
arithmetic and comparisons use the operands' operators.
"""

from __future__ import annotations

import numpy as np

__all__ = ["igamma_grad_a", "NumpyOps", "MAX_ITERATIONS"]

MAX_ITERATIONS = 2_000  # convergence takes far fewer steps for a, x < 1e4


class NumpyOps:
    """The operations :func:`igamma_grad_a` needs, for an array module ``xp`` (NumPy or
    CuPy) with ``special`` its SciPy-like module (``gammaln``, ``digamma``)."""

    def __init__(self, xp, special):
        self.xp, self.special = xp, special
        self.log, self.exp, self.abs = xp.log, xp.exp, xp.abs

    def where(self, mask, a, b):
        return self.xp.where(mask, a, b)

    def full_like(self, x, value):
        return self.xp.full_like(x, value)

    def lgamma(self, x):
        return self.special.gammaln(x).astype(x.dtype, copy=False)

    def digamma(self, x):
        return self.special.digamma(x).astype(x.dtype, copy=False)

    def loop(self, body, state):
        """Apply ``body`` to ``state`` (``state[0]``: the still-iterating mask) until no
        element iterates or :data:`MAX_ITERATIONS` steps."""
        for _ in range(MAX_ITERATIONS):
            if not bool(state[0].any()):
                break
            state = body(state)
        return state


def _keep(ops, on, new, old):
    return [ops.where(on, n, o) for n, o in zip(new, old)]


def _series(ops, ax, a, x, enabled, eps):
    """``dP/da`` from the power series (``enabled`` elements; others arbitrary)."""

    def body(v):
        on, r, c, total, dc, dtotal = v
        r1 = r + 1
        dc1 = dc * (x / r1) - c * x / (r1 * r1)
        c1 = c * (x / r1)
        total1, dtotal1 = total + c1, dtotal + dc1
        more = on & ((c1 / total1 > eps) | (ops.abs(dc1 / dtotal1) > eps))
        return [more] + _keep(ops, on, [r1, c1, total1, dc1, dtotal1], v[1:])

    one, zero = ops.full_like(x, 1), ops.full_like(x, 0)
    _, _, _, total, _, dtotal = ops.loop(body, [enabled, a, one, one, zero, zero])
    dlog_ax = ops.log(x) - ops.digamma(a + 1)
    return ax * (total * dlog_ax + dtotal) / a


def _fraction(ops, ax, a, x, enabled, eps):
    """``dQ/da`` from the continued fraction of ``Q`` (``enabled`` elements)."""
    big = 1 / eps

    def body(v):
        on, c, y, z, pkm1, qkm1, pkm2, qkm2, dpkm1, dqkm1, dpkm2, dqkm2, ans, dans = v
        c1, y1, z1 = c + 1, y + 1, z + 2
        yc = y1 * c1
        pk = pkm1 * z1 - pkm2 * yc
        qk = qkm1 * z1 - qkm2 * yc
        # y and z decrease with a: d(yc)/da = -c, dz/da = -1
        dpk = dpkm1 * z1 - pkm1 - dpkm2 * yc + pkm2 * c1
        dqk = dqkm1 * z1 - qkm1 - dqkm2 * yc + qkm2 * c1
        nonzero = qk != 0
        safe_qk = ops.where(nonzero, qk, ops.full_like(qk, 1))
        r = pk / safe_qk
        ans1 = ops.where(nonzero, r, ans)
        dans1 = ops.where(nonzero, (dpk - ans1 * dqk) / safe_qk, dans)
        t = ops.where(nonzero, ops.abs((ans - r) / r), ops.full_like(r, 1))
        dt = ops.where(nonzero, ops.abs(dans1 - dans), ops.full_like(r, 1))
        rescale = ops.abs(pk) > big
        scaled = [ops.where(rescale, p * eps, p)
                  for p in (pk, qk, pkm1, qkm1, dpk, dqk, dpkm1, dqkm1)]
        more = on & ((t > eps) | (dt > eps * ops.abs(dans1)))
        return [more] + _keep(ops, on, [c1, y1, z1, *scaled, ans1, dans1], v[1:])

    y = 1 - a
    z = x + y + 1
    pkm2, qkm2 = ops.full_like(x, 1), x
    pkm1, qkm1 = x + 1, z * x
    ans = pkm1 / qkm1
    dqkm1 = 0 - x
    dans = (0 - ans * dqkm1) / qkm1
    zero = ops.full_like(x, 0)
    init = [enabled, zero, y, z, pkm1, qkm1, pkm2, qkm2, zero, dqkm1, zero, zero, ans, dans]
    *_, ans, dans = ops.loop(body, init)
    dlog_ax = ops.log(x) - ops.digamma(a)
    return ax * (ans * dlog_ax + dans)


def igamma_grad_a(ops, a, x):
    """``dP(a, x)/da`` elementwise; ``a`` and ``x`` floating arrays of one shape and dtype
    (see the module docstring for the algorithm and the domain)."""
    finfo = np.finfo(x.dtype)
    eps = finfo.eps
    zero, one = ops.full_like(x, 0), ops.full_like(x, 1)
    x_inf, a_inf = x == np.inf, a == np.inf
    invalid = (a != a) | (x != x) | (a <= 0) | (x < 0) | (x_inf & a_inf)
    constant = (x == 0) | x_inf | a_inf  # P(a, x) does not depend on a there
    inside = ~(invalid | constant)
    a_s, x_s = ops.where(inside, a, one), ops.where(inside, x, one)  # finite loops elsewhere
    log_ax = a_s * ops.log(x_s) - x_s - ops.lgamma(a_s)
    underflow = log_ax < -np.log(finfo.max)
    ax = ops.exp(ops.where(underflow, zero, log_ax))
    enabled = inside & ~underflow
    use_fraction = (x_s > 1) & (x_s > a_s)
    series = _series(ops, ax, a_s, x_s, enabled & ~use_fraction, eps)
    fraction = _fraction(ops, ax, a_s, x_s, enabled & use_fraction, eps)
    out = ops.where(enabled, ops.where(use_fraction, 0 - fraction, series), zero)
    return ops.where(invalid, ops.full_like(x, np.nan), out)
