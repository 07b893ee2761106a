"""The NumPy eager backend (CPU): the shared xp implementations bound to ``numpy``."""

from __future__ import annotations

import functools

import numpy as np

from xnp._default_dtypes import scalar_to_ndarray
from xnp.backends.numpy import allocator as _allocator  # noqa: F401  (installs the handler)
from xnp.backends.xp_impls import (FUNCTION_KERNELS, KERNELS, MATRIX_KERNELS, UFUNC_IMPLS,
                                   UNSUPPORTED, VIEW_PRIMITIVES, XP_IMPLS, kernel_of)

__all__ = ["NumpyBackend", "BACKEND"]


class NumpyBackend:
    """Eager backend on NumPy: ``impls[prim](*ndarrays, **params) -> ndarray``."""

    name = "numpy"
    #: its eager results are NumPy's functions on the native arrays, so the eager fast
    #: path (xnp/numpy_api/_fastpath.py) may call those functions directly
    computes_with_numpy = True
    native_types = (np.ndarray,)
    native_type = np.ndarray

    def __init__(self):
        self.impls = {p: functools.partial(fn, np) for p, fn in XP_IMPLS.items()}
        # a primitive that is one NumPy ufunc is that ufunc (no Python frame per call)
        self.impls.update({p: getattr(np, name) for p, name in UFUNC_IMPLS.items()})
        self.unsupported = dict(UNSUPPORTED)
        self.view_prims = frozenset(VIEW_PRIMITIVES)
        #: composite name -> operand-dtype signatures its kernel serves (xnp.lax.composite)
        self.kernels = {**KERNELS, **MATRIX_KERNELS, **FUNCTION_KERNELS}

    @staticmethod
    def direct(prim, params, operand=None, second=None):
        """The function a recorded program calls for ``prim`` with ``params`` on operands
        like ``operand`` and ``second`` (the first two array operands of the recorded call:
        their dtypes, shapes and strides) instead of ``impls[prim](..., **params)``, or None
        (xnp/tracing/recording.py)."""
        return kernel_of(np, prim, params, operand, second)

    #: a result that is not an ndarray (a NumPy scalar) as one; NumPy's own function, so
    #: the C paths that wrap a result run no Python frame
    wrap_native = staticmethod(np.asarray)

    @staticmethod
    def from_host(x: np.ndarray) -> np.ndarray:
        return x

    #: operands that are not ``Array``s: a Python scalar at its default dtype, anything
    #: else (NumPy arrays and scalars, nested sequences) as NumPy converts it
    from_scalar = staticmethod(scalar_to_ndarray)
    asarray = staticmethod(np.asarray)

    @staticmethod
    def to_host(x) -> np.ndarray:
        return x


BACKEND = NumpyBackend()  # registered with xnp.tracing.core by xnp._wiring.connect
