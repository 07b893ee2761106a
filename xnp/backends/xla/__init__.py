"""The XLA backend: lowering to StableHLO and execution through jaxlib's PJRT runtime."""

from __future__ import annotations

import os

# before any jaxlib import (this package's modules import it): XLA's C++ INFO logs (the
# client's device count on creation) stay quiet unless the user asks for them
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

from xnp.backends.xla import compile_cache as _compile_cache  # noqa: E402
from xnp.backends.xla import spmd as _spmd  # noqa: E402
from xnp.backends.xla.executable import Compiled, Lowered  # noqa: E402
from xnp.backends.xla.lowering import lower_closed_jaxpr  # noqa: E402

__all__ = ["Lowered", "Compiled", "XlaJitBackend"]


class XlaJitBackend:
    """The jit backend (``xnp._wiring.connect`` sets it in ``xnp.tracing.jit``)."""

    name = "xla"

    @staticmethod
    def lower(closed, name, donated=(), in_shardings=None, out_shardings=None):
        """Lower ``closed``; flat ``in_shardings``/``out_shardings`` (``xnp.sharding``
        objects or None per argument/result), or sharding constraints in the jaxpr, make
        it an SPMD program over their device mesh."""
        layout = _spmd.spmd_layout(closed, name, in_shardings, out_shardings)
        if layout is not None and any(donated):
            raise NotImplementedError(f"xnp.jit of {name}: donate_argnums together with "
                                      "shardings is not supported yet.")
        return Lowered(lower_closed_jaxpr(closed, name, donated, layout),
                       tuple(out_shardings or ()))

    @staticmethod
    def hold(compiled, holder) -> bool:
        """Let ``holder`` (a jit cache entry's) keep ``compiled``'s executable only while
        the in-memory executable cache keeps it (``compile_cache.hold``)."""
        return _compile_cache.hold(compiled._exe, holder)

