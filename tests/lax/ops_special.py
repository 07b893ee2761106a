"""Op-table records of the special functions (``xnp.lax.special``); SciPy is the oracle
(computed in float64, rounded to the operand dtype). Samplers mix in poles, zeros,
infinities, NaN and out-of-domain values, where XLA's expansions need fix-ups to give
SciPy's values."""

import numpy as np
import scipy.special as sp

from tests.helpers import FLOATING, SMALL_SHAPES, OpRecord
from xnp import lax

_F = [np.dtype(np.float32), np.dtype(np.float64)]


def _uniform(lo, hi, specials=()):
    """Uniform data on ``[lo, hi)``; about a third replaced by ``specials`` if given."""
    specials = np.asarray(specials, np.float64)

    def sample(rng, shape, dtype):
        a = rng.uniform(lo, hi, shape)
        flat = a.reshape(-1)
        if flat.size and specials.size:
            idx = rng.random(flat.size) < 0.3
            flat[idx] = rng.choice(specials, size=int(idx.sum()))
        return a.astype(dtype)

    return sample


def _ref(fn):
    def ref(*xs):
        with np.errstate(all="ignore"):
            return np.asarray(fn(*(x.astype(np.float64) for x in xs))).astype(xs[0].dtype)

    return ref


def _rec(name, fun, ref, sampler, dtypes=_F, nargs=1):
    # "reduction" tolerances: XLA's expansions and SciPy differ by a few ulps (igamma: the
    # exponent a*log(x) - x - lgamma(a) loses ~eps*a, as in Cephes)
    return OpRecord(name, fun, _ref(ref), nargs, dtypes, list(SMALL_SHAPES), sampler=sampler,
                    kind="reduction", errors=[([np.arange(3)] * nargs, TypeError, "floating")])


def _first_fixed(fun, value):
    """``fun(value, x)`` with ``value`` a rank-0 constant of ``x``'s dtype."""
    return lambda x: fun(np.asarray(value, x.dtype), x)


def _first_fixed2(fun, a, b):
    """``fun(a, b, x)`` with ``a`` and ``b`` rank-0 constants of ``x``'s dtype."""
    return lambda x: fun(np.asarray(a, x.dtype), np.asarray(b, x.dtype), x)


def _betainc_operands(rng, shape, dtype):
    """Parameters log-uniform on (0.05, 50) with 0, inf and NaN mixed in; x below has
    the unit interval's ends mixed in (the sampler is called once per operand)."""
    a = np.exp(rng.uniform(np.log(0.05), np.log(50.0), shape))
    flat = a.reshape(-1)
    if flat.size:
        idx = rng.random(flat.size) < 0.15
        flat[idx] = rng.choice([0.0, np.inf, np.nan, -1.0, 1.0], size=int(idx.sum()))
    return a.astype(dtype)


def _polygamma(m):
    return _first_fixed(lax.polygamma, m)


_POLES = [0.0, -0.0, -1.0, -3.0, np.inf, -np.inf, np.nan]
_GAMMA_EDGES = [0.0, -0.0, -1.0, np.inf, np.nan, 1e-3, 1.0]
_UNIT_EDGES = [0.0, 1.0, 0.5, 1e-12, 1 - 2**-20, -0.5, 1.5, np.inf, np.nan]

RECORDS = [
    _rec("erf", lax.erf, sp.erf, _uniform(-3, 3)),
    _rec("erfc", lax.erfc, sp.erfc, _uniform(-3, 3)),
    _rec("erf_inv", lax.erf_inv, sp.erfinv, _uniform(-0.99, 0.99)),
    _rec("lgamma", lax.lgamma, sp.gammaln, _uniform(0.1, 6.0)),
    _rec("digamma", lax.digamma, sp.digamma, _uniform(0.1, 6.0, [0.0, -0.0, -2.5, np.inf])),
    _rec("bessel_i0e", lax.bessel_i0e, sp.i0e,
         _uniform(-20, 20, [0.0, -0.0, 8.0, -8.0, np.inf, -np.inf, np.nan]), dtypes=FLOATING),
    _rec("bessel_i1e", lax.bessel_i1e, sp.i1e, _uniform(-5, 5)),
    _rec("polygamma_1", _polygamma(1), lambda x: sp.polygamma(1, x), _uniform(0.1, 6, _POLES)),
    _rec("polygamma_2", _polygamma(2), lambda x: sp.polygamma(2, x), _uniform(-4, 6, _POLES)),
    _rec("polygamma_0", _polygamma(0), lambda x: sp.polygamma(0, x), _uniform(0.1, 6, _POLES)),
    # the first operand is a constant here: the derivatives in `a` (igamma) and `x` (zeta)
    # are not implemented and tests/lax/test_transforms.py differentiates every operand;
    # both operands vary (special values, broadcasting) in tests/lax/test_special_values.py
    _rec("zeta", _first_fixed(lax.zeta, 2.5), lambda q: sp.zeta(2.5, q),
         _uniform(0.2, 6.0, [0.0, -2.0, -0.5, np.inf, np.nan])),
    _rec("igamma_a0.5", _first_fixed(lax.igamma, 0.5), lambda x: sp.gammainc(0.5, x),
         _uniform(0, 6, _GAMMA_EDGES), dtypes=FLOATING),
    _rec("igamma_a6", _first_fixed(lax.igamma, 6.0), lambda x: sp.gammainc(6.0, x),
         _uniform(0, 15, _GAMMA_EDGES), dtypes=FLOATING),
    _rec("igammac_a0.5", _first_fixed(lax.igammac, 0.5), lambda x: sp.gammaincc(0.5, x),
         _uniform(0, 6, _GAMMA_EDGES), dtypes=FLOATING),
    _rec("igammac_a6", _first_fixed(lax.igammac, 6.0), lambda x: sp.gammaincc(6.0, x),
         _uniform(0, 15, _GAMMA_EDGES), dtypes=FLOATING),
    # both operands vary: the derivative in `a` is igamma_grad_a (checked by the transform
    # tests against finite differences)
    _rec("igamma", lax.igamma, sp.gammainc, _uniform(0.2, 8), nargs=2),
    _rec("igammac", lax.igammac, sp.gammaincc, _uniform(0.2, 8), nargs=2),
    # `x` varies only: igamma_grad_a's own derivative in `a` is not implemented (as in JAX)
    _rec("igamma_grad_a_a2.5", _first_fixed(lax.igamma_grad_a, 2.5),
         lambda x: d_igamma_da(np.full_like(x, 2.5), x), _uniform(0, 12, [0.0, np.inf, np.nan]),
         dtypes=FLOATING),
    _rec("igamma_grad_a_a0.3", _first_fixed(lax.igamma_grad_a, 0.3),
         lambda x: d_igamma_da(np.full_like(x, 0.3), x), _uniform(0, 4, [0.0, -1.0]),
         dtypes=FLOATING),
    # zeta in `x` is not differentiable (as in JAX): the transform tests skip with the reason
    _rec("zeta_x_q", lax.zeta, sp.zeta, _uniform(1.5, 6.0), nargs=2),
    # betainc: `x` varies (the derivative in `a` and `b` is not implemented, as in JAX);
    # small, unit and large parameters, x at and beyond the domain ends (interior only
    # where the transform tests take the record's own sampler); then all three vary
    _rec("betainc_a0.3_b2", _first_fixed2(lax.betainc, 0.3, 2.0),
         lambda x: sp.betainc(0.3, 2.0, x), _uniform(0, 1, _UNIT_EDGES), dtypes=FLOATING),
    _rec("betainc_a1_b1", _first_fixed2(lax.betainc, 1.0, 1.0),
         lambda x: sp.betainc(1.0, 1.0, x), _uniform(0.02, 0.98)),
    _rec("betainc_a40_b7.5", _first_fixed2(lax.betainc, 40.0, 7.5),
         lambda x: sp.betainc(40.0, 7.5, x), _uniform(0.5, 0.98)),
    _rec("betainc", lambda a, b, x: lax.betainc(a, b, x), sp.betainc,
         _betainc_operands, nargs=3),
]


def d_igamma_da(a, x, levels=5):
    """``dP(a, x)/da`` (float64) by Richardson extrapolation of central differences of
    SciPy's ``gammainc`` (``gammaincc`` where ``P > 1/2``, for accuracy), steps
    ``h, h/2, ..., h/2^(levels-1)`` with ``h = min(a, 1)/10``: about 1e-11 relative error
    for ``a`` in (0.1, 50), ``x`` in (0.01, 100). NaN outside ``gammainc``'s domain."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    h = np.minimum(a, 1.0) / 10
    upper = sp.gammainc(a, x) > 0.5
    sign = np.where(upper, -1.0, 1.0)

    def p(aa):
        return np.where(upper, sp.gammaincc(aa, x), sp.gammainc(aa, x))

    table = [[(p(a + h / 2**k) - p(a - h / 2**k)) / (2 * h / 2**k)] for k in range(levels)]
    for j in range(1, levels):
        for k in range(j, levels):
            prev = table[k][j - 1]
            table[k].append(prev + (prev - table[k - 1][j - 1]) / (4**j - 1))
    out = sign * table[-1][-1]
    # P is constant in a at x == 0 and x == inf (the differences there are exactly 0 too)
    return np.where(np.isnan(x) | (x < 0) | (a <= 0), np.nan, out)
