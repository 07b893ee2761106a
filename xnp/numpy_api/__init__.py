"""The NumPy-compatible surface, written on ``xnp.lax`` only, one module per topic."""

from xnp.numpy_api import _util  # noqa: F401
from xnp.numpy_api import (creation, dtypes, elementwise, indexing, linalg, manipulation,
                           reductions)

_MODULES = (dtypes, creation, elementwise, indexing, linalg, manipulation, reductions)

__all__ = []
for _m in _MODULES:
    for _name in _m.__all__:
        globals()[_name] = getattr(_m, _name)
        __all__.append(_name)
del _m, _name
