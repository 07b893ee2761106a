"""Composite operations: an operation defined by its decomposition into lax primitives,
which an eager backend may compute with a kernel of its own.

``composite(name, decomposition, *operands, out_dtype=None)`` is the operation
``decomposition(*operands)`` (a function of lax operations on the operands; every rule of
the operation is its decomposition's); ``composite_multi`` the same for a decomposition
with several results (``out_dtypes``). Its primitive ``composite_p`` (the counterpart of
StableHLO's ``composite`` op, which also carries a name and a decomposition) exists for
one purpose: eagerly, an operation such as ``logaddexp`` that its decomposition computes
in ten or forty primitives is one primitive, which the eager backend computes with one
kernel when it has one for ``name`` and the operands' dtypes (its ``kernels`` table:
``name -> frozenset of operand-dtype tuples``; the NumPy backend's is
``xnp/backends/xp_impls/composite.py``, checked against the decompositions by
``tests/lax/test_composite.py``), and which the eager dispatch cache replays as one.
``composite_general`` (``composite_general_p``) is the same for an operation whose
results have shapes of their own (``linalg.solve``: LU factorisation, a check and two
triangular solves eagerly become LAPACK's ``gesv`` through ``numpy.linalg.solve``): the
caller states the results' avals.

Everywhere else ``bind`` runs the decomposition itself: under ``jit`` and every
transformation (so no jaxpr, derivative, batching rule or lowering ever sees
``composite_p``), eagerly when the backend has no kernel for it, and when an operand is
not an eager array.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from xnp.lax import _kit as kit
from xnp.tracing import core
from xnp.tracing.avals import ShapedArray

__all__ = ["composite", "composite_multi", "composite_general", "composite_p",
           "composite_multi_p", "composite_general_p"]

_NEVER_STAGED = ("never reaches a transformation: bind runs its decomposition under every "
                 "trace but the eager one")


class _CompositePrimitive(core.Primitive):
    """``composite_p`` (``composite_multi_p``: several results; ``composite_general_p``:
    results of stated avals): eagerly one primitive where the backend has a kernel, else
    its decomposition (see the module docstring)."""

    def __init__(self, name: str, multiple_results: bool, shape=None, dtype=None,
                 weak_type=None):
        super().__init__(name, shape=shape or _shape, dtype=dtype or _dtype,
                         weak_type=weak_type or _weak_type,
                         multiple_results=multiple_results, differentiable=_NEVER_STAGED,
                         allocates="eagerly")
        self.linear = False
        self.no_batch = _NEVER_STAGED
        self.view = None

    def bind(self, *args, name: str, decomposition: Callable, **params):
        if core.is_eager(core.current_trace()) and not core._REBOUND_ON[0]:
            kernels = getattr(core.eager_backend(), "kernels", None)
            sigs = kernels.get(name) if kernels is not None else None
            if sigs is not None and all(type(a) is core.Array for a in args) and tuple(
                    [a.dtype for a in args]) in sigs:
                return super().bind(*args, name=name, decomposition=decomposition, **params)
        static = params.get("params")
        return decomposition(*args, **dict(static)) if static else decomposition(*args)


def _shape(*avals: ShapedArray, name, decomposition, out_dtypes):
    shape = kit.broadcast_shapes(f"composite ({name})", *avals)
    return [shape] * len(out_dtypes) if len(out_dtypes) > 1 else shape


def _dtype(*avals: ShapedArray, name, decomposition, out_dtypes):
    dts = [avals[0].dtype if d is None else d for d in out_dtypes]
    return dts if len(out_dtypes) > 1 else dts[0]


def _weak_type(*weak_types, name, decomposition, out_dtypes) -> bool:
    return out_dtypes == (None,) and all(weak_types)


def _general_shape(*avals: ShapedArray, name, decomposition, out_avals, params=()):
    return [a.shape for a in out_avals]


def _general_dtype(*avals: ShapedArray, name, decomposition, out_avals, params=()):
    return [a.dtype for a in out_avals]


composite_p = _CompositePrimitive("composite", False)
composite_multi_p = _CompositePrimitive("composite_multi", True)
composite_general_p = _CompositePrimitive(
    "composite_general", True, shape=_general_shape, dtype=_general_dtype,
    weak_type=lambda *weak_types, **params: False)


def composite(name: str, decomposition: Callable, *operands, out_dtype=None):
    """``decomposition(*operands)``, computed eagerly by the backend's kernel for ``name``
    where it has one for the operands' dtypes (see the module docstring).

    ``decomposition`` must be elementwise: its result has the operands' broadcast shape
    (equal ranks, as lax's elementwise operations take), the first operand's dtype or
    ``out_dtype``, and is weak-typed exactly when every operand is and ``out_dtype`` is
    None. ``name``'s kernel must compute the decomposition's values, dtype and errors.
    """
    return composite_p.bind(*operands, name=name, decomposition=decomposition,
                            out_dtypes=(None if out_dtype is None else np.dtype(out_dtype),))


def composite_multi(name: str, decomposition: Callable, *operands, out_dtypes: tuple):
    """:func:`composite` of a decomposition with ``len(out_dtypes)`` results (a list), each
    of the broadcast shape and of its dtype in ``out_dtypes`` (never weak)."""
    return composite_multi_p.bind(*operands, name=name, decomposition=decomposition,
                                  out_dtypes=tuple(np.dtype(d) for d in out_dtypes))


def composite_general(name: str, decomposition: Callable, *operands, out_avals,
                      params: dict | None = None) -> list:
    """``decomposition(*operands, **params)`` (a list of results), computed eagerly by the
    backend's kernel for ``name`` where it has one for the operands' dtypes.

    ``out_avals`` (a sequence of ``ShapedArray``) are the results' shapes and dtypes,
    which must be the decomposition's; the results are never weak-typed. ``params``: static
    keyword arguments (hashable values: axes, flags, Python numbers) that the kernel and
    the decomposition both take. ``name``'s kernel must return a tuple of results (a
    single array for one) computing the decomposition's values (within rounding: a kernel
    may be another algorithm's LAPACK routine), and its errors.
    """
    avals = tuple(ShapedArray(a.shape, a.dtype) for a in out_avals)
    if params:
        return composite_general_p.bind(*operands, name=name, decomposition=decomposition,
                                        out_avals=avals, params=tuple(params.items()))
    return composite_general_p.bind(*operands, name=name, decomposition=decomposition,
                                    out_avals=avals)
