"""Lowering rules (one module per lax family) and the jaxpr -> StableHLO module writer."""

from xnp.backends.xla.lowering._core import LOWERINGS, UNSUPPORTED, lowering
from xnp.backends.xla.lowering import (calls, elementwise, linalg, reductions,  # noqa: F401
                                       shape_ops, slicing)
from xnp.backends.xla.lowering import control_flow  # noqa: F401
from xnp.backends.xla.lowering import cumulative, sorting, windowed  # noqa: F401
from xnp.backends.xla.lowering import special, special_series  # noqa: F401
from xnp.backends.xla.lowering import bits  # noqa: F401
from xnp.backends.xla.lowering import prng  # noqa: F401
from xnp.backends.xla.lowering import fft  # noqa: F401
from xnp.backends.xla.lowering import convolution  # noqa: F401
from xnp.backends.xla.lowering import decompositions  # noqa: F401
from xnp.backends.xla.lowering import sharding  # noqa: F401
from xnp.backends.xla.lowering import parallel  # noqa: F401
from xnp.backends.xla.lowering import callback  # noqa: F401
from xnp.backends.xla.lowering import complex_special  # noqa: F401  (wraps elementwise rules)
from xnp.backends.xla.lowering import state  # noqa: F401
from xnp.backends.xla.lowering import composite  # noqa: F401
from xnp.backends.xla.lowering.module import lower_closed_jaxpr

__all__ = ["LOWERINGS", "UNSUPPORTED", "lowering", "lower_closed_jaxpr"]
