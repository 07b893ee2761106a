"""Op-table records of the special functions (``xnp.lax.special``); SciPy is the oracle
(computed in float64, rounded to the operand dtype)."""

import numpy as np
import scipy.special as sp

from tests.helpers import SMALL_SHAPES, OpRecord
from xnp import lax

_F = [np.dtype(np.float32), np.dtype(np.float64)]


def _uniform(lo, hi):
    def sample(rng, shape, dtype):
        return rng.uniform(lo, hi, shape).astype(dtype)

    return sample


def _ref(fn):
    def ref(x):
        return np.asarray(fn(x.astype(np.float64))).astype(x.dtype)

    return ref


def _rec(name, fun, ref, sampler):
    # "reduction" tolerances: XLA's CHLO expansions and SciPy differ by a few ulps
    return OpRecord(name, fun, _ref(ref), 1, _F, list(SMALL_SHAPES), sampler=sampler,
                    kind="reduction",
                    errors=[([np.arange(3)], TypeError, "floating")])


RECORDS = [
    _rec("erf", lax.erf, sp.erf, _uniform(-3, 3)),
    _rec("erfc", lax.erfc, sp.erfc, _uniform(-3, 3)),
    _rec("erf_inv", lax.erf_inv, sp.erfinv, _uniform(-0.99, 0.99)),
    _rec("lgamma", lax.lgamma, sp.gammaln, _uniform(0.1, 6.0)),
    _rec("digamma", lax.digamma, sp.digamma, _uniform(0.1, 6.0)),
    _rec("bessel_i1e", lax.bessel_i1e, sp.i1e, _uniform(-5, 5)),
]
