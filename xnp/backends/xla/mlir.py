"""jaxlib's MLIR/StableHLO bindings, behind one small module: a long-lived context per
thread with the dialects registered, parsing, and canonical printing.

Threads: an ``ir.Context`` must not be used by two threads at once. XLA's compile
(``compile_and_load``) works on a parsed module, and so on its context, with the GIL
released, while another thread may be parsing; and parsing itself mutates the
context. So every thread gets its own context, made on its first parse (5-6 ms
and 0.6 MB here) and kept for the thread's lifetime (a module keeps its context
alive after that). A thread's modules are parsed, compiled and printed on that
thread only. The single-threaded path is unchanged but for one thread-local lookup
per parse (well under a microsecond, against milliseconds for a parse and compile).
Each context's own thread pool is turned off (one pool per thread's context would
multiply the worker threads; compile times measured the same with it on or off).
"""

from __future__ import annotations

import threading

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, sdy
from jaxlib.mlir.dialects import stablehlo as hlo

__all__ = ["context", "parse", "canonical_text", "ir"]


class _ThreadContext(threading.local):
    """The calling thread's MLIR context (None until its first use)."""

    def __init__(self):
        self.ctx = None


_LOCAL = _ThreadContext()


def _new_context() -> ir.Context:
    ctx = ir.Context()
    reg = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(reg)
    ctx.append_dialect_registry(reg)
    ctx.load_all_available_dialects()
    hlo.register_dialect(ctx)
    chlo.register_dialect(ctx)
    sdy.register_dialect(ctx)  # Shardy: meshes and shardings of SPMD programs
    ctx.enable_multithreading(False)
    return ctx


def context() -> ir.Context:
    """The calling thread's MLIR context with the StableHLO/CHLO/Shardy dialects loaded (use it on
    this thread only)."""
    local = _LOCAL
    ctx = local.ctx
    if ctx is None:
        ctx = local.ctx = _new_context()
    return ctx


def parse(text: str) -> ir.Module:
    """Parse StableHLO text in the calling thread's context; ``ValueError`` with the MLIR
    diagnostic and the text on failure."""
    ctx = context()
    try:
        return ir.Module.parse(text, ctx)
    except Exception as e:  # MLIRError: the diagnostic names the line
        raise ValueError(f"internal error in xnp: the lowered module does not parse:\n{e}\n\n{text}") from e


def canonical_text(text: str) -> str:
    """The module as MLIR prints it (pretty op syntax)."""
    return str(parse(text))
