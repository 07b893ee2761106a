"""The NumPy-compatible surface, written on ``xnp.lax`` only, one module per topic."""

from xnp.numpy_api import _util  # noqa: F401
from xnp.numpy_api import (creation, dtypes, elementwise, indexing, manipulation, products,
                           reductions)
from xnp.numpy_api import cumulative, sorting
from xnp.numpy_api import logic, rounding, transcendental
from xnp.numpy_api import convolve
from xnp.numpy_api import sets, histograms, polynomials, windows
from xnp.numpy_api import editing, grids, introspection, matrices
from xnp.numpy_api import einsum as _einsum_mod
from xnp.numpy_api import closeness, math_misc, nan_functions, statistics
from xnp.numpy_api import host_format, host_io, piecewise as _piecewise_mod
from xnp.numpy_api import ranges, tiling

_MODULES = (dtypes, creation, ranges, elementwise, rounding, transcendental, logic, indexing, products,
            manipulation, tiling, reductions, cumulative, sorting, convolve, matrices, grids, editing,
            introspection, _einsum_mod, nan_functions, statistics, closeness, math_misc, sets,
            histograms,
            polynomials, windows, host_io, host_format, _piecewise_mod)

__all__ = []
for _m in _MODULES:
    for _name in _m.__all__:
        globals()[_name] = getattr(_m, _name)
        __all__.append(_name)
del _m, _name
