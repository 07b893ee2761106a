"""The state primitives have no lowering: ``jit`` discharges refs into functional updates
(:func:`xnp.tracing.jaxpr_transforms.discharge_state`) before a jaxpr reaches lowering."""

from xnp import lax
from xnp.backends.xla.lowering._core import UNSUPPORTED

for _p in (lax.new_ref_p, lax.ref_get_p, lax.ref_swap_p, lax.ref_addupdate_p):
    UNSUPPORTED[_p] = ("a state primitive: jit discharges refs into dynamic_update_slice/"
                       "scatter/gather before lowering (discharge_state)")
del _p
