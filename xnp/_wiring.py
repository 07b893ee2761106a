"""The composition root: every connection from the layers above into ``xnp.tracing``.

The tracing layer imports nothing above it, yet it runs what those layers define: the
eager backends (``backends/numpy``, ``backends/xla/eager.py``) and the jit backend
(``backends/xla``), the lax operations of the AD and batching traces
(``lax/_transform_ops.py``) and NumPy's ``ndarray`` constructor and subclass protocol
(``ndarray_class.py``). Each is handed to it here, by :func:`connect`, and nowhere else:
the modules that define these objects only define them, so what an import does never
depends on what was imported before. Until :func:`connect` has run, each hook of the
tracing layer raises ``RuntimeError`` naming what is missing (``errors.not_connected``).

``xnp/__init__.py`` calls :func:`connect` once. Python initialises the package ``xnp``
before any of its submodules, so ``import xnp.lax`` (or any other ``xnp`` module) runs it
too. ``register_eager_backend`` stays public: a user may add an eager backend later.
"""

from __future__ import annotations

from xnp.array import install as install_array_methods  # (xnp.array is also a function)
from xnp.backends import numpy as numpy_backend
from xnp.backends import xla as xla_backend
from xnp.backends.xla import eager as xla_eager
from xnp.lax import _transform_ops as transform_ops
from xnp.numpy_api import _fastpath
from xnp.tracing.ad import register_tangent_ops
from xnp.tracing.batching import register_batch_ops
from xnp.tracing.core import register_eager_backend
from xnp.tracing.jit import register_jit_backend

__all__ = ["connect"]

_CONNECTED = [False]


def connect() -> None:
    """Connect the tracing layer to the layers above it (once; later calls do nothing).

    * eager backends (``core.register_eager_backend``): NumPy's and the eager XLA one,
      then the eager fast path reads which one the ``eager_backend`` option names;
    * the jit backend (``jit.register_jit_backend``): XLA's;
    * the tangent arithmetic of ``ad`` and the batch-axis operations of ``batching``;
    * ``Array``'s and ``Tracer``'s methods and NumPy's protocols (``xnp.array.install``,
      which sets the ``ndarray`` constructor and subclass hooks of ``array_base``).
    """
    if _CONNECTED[0]:
        return
    register_eager_backend(numpy_backend.BACKEND)
    register_eager_backend(xla_eager.BACKEND)
    register_jit_backend(xla_backend.XlaJitBackend())
    register_tangent_ops(add=transform_ops.add_any, zeros=transform_ops.zeros,
                         convert=transform_ops.convert)
    register_batch_ops(moveaxis=transform_ops.moveaxis, broadcast=transform_ops.broadcast_along,
                       sum_axis=transform_ops.sum_axis)
    install_array_methods()  # with ndarray_class.install: array_base.register_ndarray_hooks
    _fastpath.refresh()
    _CONNECTED[0] = True

