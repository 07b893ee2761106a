"""xp implementations of the special functions (``xnp.lax.special``): SciPy's ufuncs,
computed in float32/float64 and cast back to the operand's dtype."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.igamma_grad import NumpyOps, igamma_grad_a
from xnp.backends.xp_impls._table import XP_IMPLS

__all__: list = []


def _special_module(xp):
    if xp is np:
        import scipy.special  # noqa: PLC0415  (a dependency of jaxlib; imported on first use)

        return scipy.special
    import cupyx.scipy.special  # noqa: PLC0415

    return cupyx.scipy.special


def _computed(fn):
    """``fn(xp, *xs)`` on the operands in float64 (float64) or float32 (other dtypes),
    cast back to the operands' dtype."""

    def impl(xp, *xs):
        dtype = xs[0].dtype
        compute = np.float64 if dtype == np.float64 else np.float32
        out = fn(xp, *(x.astype(compute, copy=False) for x in xs))
        return xp.asarray(out).astype(dtype, copy=False)

    return impl


def _via(name: str):
    return _computed(lambda xp, *xs: getattr(_special_module(xp), name)(*xs))


@_computed
def _igamma_grad_a(xp, a, x):
    a, x = xp.broadcast_arrays(a, x)
    with np.errstate(all="ignore"):  # NaN/inf operands are handled by selects
        return igamma_grad_a(NumpyOps(xp, _special_module(xp)), a, x)


for _prim, _name in [(lax.erf_p, "erf"), (lax.erfc_p, "erfc"), (lax.erf_inv_p, "erfinv"),
                     (lax.lgamma_p, "gammaln"), (lax.digamma_p, "digamma"),
                     (lax.polygamma_p, "polygamma"), (lax.zeta_p, "zeta"),
                     (lax.igamma_p, "gammainc"), (lax.igammac_p, "gammaincc"),
                     (lax.bessel_i0e_p, "i0e"), (lax.bessel_i1e_p, "i1e"),
                     (lax.betainc_p, "betainc")]:
    XP_IMPLS[_prim] = _via(_name)
XP_IMPLS[lax.igamma_grad_a_p] = _igamma_grad_a
