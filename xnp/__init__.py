"""xnp: NumPy you can compile.

``import xnp as np`` runs NumPy-style code eagerly (on NumPy); ``xnp.jit``
traces a function into a jaxpr and compiles it with XLA.
"""

from xnp import config
from xnp import tracing as _tracing
from xnp import lax
from xnp.backends import numpy as _numpy_backend  # noqa: F401  (registers the eager backend)
from xnp.backends import xla as _xla_backend  # noqa: F401  (registers the jit backend)
from xnp import numpy_api as _numpy_api
from xnp import array as _array_module  # noqa: F401  (installs Array/Tracer methods)
from xnp import core
from xnp.tracing import errors
from xnp.tracing.partial_eval import checking_leaks
from xnp.tracing import pytree as tree_util
from xnp.tracing.avals import ShapeDtypeStruct
from xnp.tracing.core import Array
from xnp.lax.ad_util import stop_gradient
from xnp.tracing.jit import jit, make_jaxpr
from xnp.tracing.transformations import (grad, hessian, jacfwd, jacrev, jvp, linearize,
                                         value_and_grad, vjp, vmap)

__all__ = ["config", "lax", "core", "errors", "tree_util", "ShapeDtypeStruct", "Array", "jit",
           "make_jaxpr", "checking_leaks", "grad", "hessian", "jacfwd", "jacrev", "jvp",
           "linearize", "value_and_grad", "vjp", "vmap", "stop_gradient"]

for _name in _numpy_api.__all__:
    globals()[_name] = getattr(_numpy_api, _name)
    __all__.append(_name)
del _name
