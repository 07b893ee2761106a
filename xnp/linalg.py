"""``xnp.linalg``: the ``numpy.linalg`` namespace.

Decompositions and solvers (:mod:`xnp.numpy_api.linalg`), norms and utilities
(:mod:`xnp.numpy_api.linalg_norms`), and the products ``numpy.linalg`` shares
with the main namespace (``matmul``, ``matrix_transpose``, ``tensordot``, ``vecdot``).
Every function traces under ``jit`` and differentiates with ``grad``; see
:mod:`xnp.numpy_api.linalg` for the error conventions (``LinAlgError`` eagerly,
NaN under ``jit``). For dtypes XLA has no type for (longdouble, object) each function
runs NumPy's (:mod:`xnp.host_dispatch`).
"""

import numpy as _np

from xnp import host_dispatch as _host_dispatch
from xnp.numpy_api import linalg, linalg_norms
from xnp.numpy_api.products import matmul, tensordot, vecdot
from xnp.numpy_api.manipulation import matrix_transpose

__all__ = list(linalg.__all__) + list(linalg_norms.__all__) + [
    "matmul", "matrix_transpose", "tensordot", "vecdot"]

for _m in (linalg, linalg_norms):
    for _name in _m.__all__:
        globals()[_name] = getattr(_m, _name)
del _m, _name
_host_dispatch.install(globals(), _np.linalg, __all__)
