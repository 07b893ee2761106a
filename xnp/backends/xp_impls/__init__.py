"""Eager implementations written against an array module ``xp`` (NumPy or CuPy).

``XP_IMPLS[prim](xp, *operands, **params)`` returns the native result. Each
family module adds its entries; a backend binds ``xp``. Implementations must
return NumPy's result for the primitive's (strict) semantics, and must return
views where NumPy's corresponding operation returns a view (slices, reshape,
transpose), so eager code keeps NumPy's aliasing.
"""

from xnp import lax
from xnp.tracing import Primitive
from xnp.backends.xp_impls._table import UNSUPPORTED, VIEW_PRIMITIVES, XP_IMPLS
from xnp.backends.xp_impls import elementwise, linalg, reductions, shape_ops, slicing  # noqa: F401
from xnp.backends.xp_impls import cumulative, sorting, windowed  # noqa: F401
from xnp.backends.xp_impls import special  # noqa: F401
from xnp.backends.xp_impls import bits  # noqa: F401
from xnp.backends.xp_impls import prng  # noqa: F401
from xnp.backends.xp_impls import fft  # noqa: F401
from xnp.backends.xp_impls import convolution  # noqa: F401
from xnp.backends.xp_impls import decompositions  # noqa: F401
from xnp.backends.xp_impls import parallel  # noqa: F401
from xnp.backends.xp_impls import checks  # noqa: F401
from xnp.backends.xp_impls.composite import FUNCTION_KERNELS, KERNELS, MATRIX_KERNELS, kernel_of
from xnp.backends.xp_impls.elementwise import UFUNC_IMPLS

# the primitives declared ``view=True`` (xnp.lax._kit.primitive)
VIEW_PRIMITIVES.update(p for p in vars(lax).values()
                       if isinstance(p, Primitive) and getattr(p, "view", False))

__all__ = ["XP_IMPLS", "UFUNC_IMPLS", "UNSUPPORTED", "VIEW_PRIMITIVES", "KERNELS", "MATRIX_KERNELS",
           "FUNCTION_KERNELS", "kernel_of"]
