"""``xnp.lax``: every primitive and its strict wrapper (no promotion, no rank broadcasting).

One module per family, imported in layers (each family's rules use only the families
below it, imported at module level): shape_ops (with reduce_sum), elementwise, then
trigonometric, products (dot_general, dot), padding (pad, concatenate), reductions,
gather_scatter, slicing, and the rest (``composite``: an operation defined by its
decomposition, computed eagerly by a backend kernel). ``xnp.lax.linalg`` holds the decompositions under
JAX's ``lax.linalg`` names.
"""

from xnp.lax import ad_util, elementwise, gather_scatter, reductions, shape_ops, slicing
from xnp.lax import trigonometric
from xnp.lax import padding, products
from xnp.lax import state
from xnp.lax import control_flow
from xnp.lax import cumulative, sorting, windowed
from xnp.lax import special
from xnp.lax import bits
from xnp.lax import fft as _fft_family
from xnp.lax import prng
from xnp.lax import convolution
from xnp.lax import decompositions
from xnp.lax import linalg  # JAX's lax.linalg: the decompositions by their JAX names
from xnp.lax import sharding
from xnp.lax import parallel, shmap
from xnp.lax import callback
from xnp.lax import checks
from xnp.lax import composite as _composite_family
from xnp.lax import _transform_ops  # noqa: F401  (registers tangent/batch ops with tracing)

_FAMILIES = (ad_util, elementwise, trigonometric, shape_ops, padding, slicing, gather_scatter,
             reductions, products, state, control_flow, windowed, cumulative, sorting, special, bits,
             _fft_family, prng, convolution, decompositions, sharding, parallel, shmap, callback,
             checks, _composite_family)

__all__ = []
for _m in _FAMILIES:
    for _name in _m.__all__:
        globals()[_name] = getattr(_m, _name)
        __all__.append(_name)
del _m, _name
