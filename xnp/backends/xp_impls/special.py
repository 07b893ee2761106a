"""xp implementations of the special functions (``xnp.lax.special``): SciPy's ufuncs,
computed in float32/float64 and cast back to the operand's dtype."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS

__all__: list = []


def _special_module(xp):
    if xp is np:
        import scipy.special  # noqa: PLC0415  (a dependency of jaxlib; imported on first use)

        return scipy.special
    import cupyx.scipy.special  # noqa: PLC0415

    return cupyx.scipy.special


def _via(name: str):
    def impl(xp, x):
        compute = np.float64 if x.dtype == np.float64 else np.float32
        out = getattr(_special_module(xp), name)(x.astype(compute, copy=False))
        return out.astype(x.dtype, copy=False)

    return impl


for _prim, _name in [(lax.erf_p, "erf"), (lax.erfc_p, "erfc"), (lax.erf_inv_p, "erfinv"),
                     (lax.lgamma_p, "gammaln"), (lax.digamma_p, "digamma"),
                     (lax.bessel_i1e_p, "i1e")]:
    XP_IMPLS[_prim] = _via(_name)
