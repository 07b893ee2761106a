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

Recycling: a context keeps every type and attribute it has ever uniqued (each
distinct shape, each constant) until it is destroyed, so a long-lived one grows
without bound when a program retraces on ever new shapes. A thread's context is
therefore replaced by a fresh one after ``CONTEXT_PARSES`` parses or
``CONTEXT_TEXT_BYTES`` bytes of parsed text, whichever comes first. Nothing else
borrows it: each parsed module keeps its own context alive (the bindings reference
count it), so the old context is destroyed when its last module is, and modules
never outlive the compile or print that parsed them. :func:`stats` counts the
contexts made and alive.
"""

from __future__ import annotations

import threading

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, sdy
from jaxlib.mlir.dialects import stablehlo as hlo

__all__ = ["context", "parse", "canonical_text", "stats", "ir", "CONTEXT_PARSES",
           "CONTEXT_TEXT_BYTES"]

#: Parses after which a thread's context is replaced by a fresh one.
CONTEXT_PARSES = 256
#: Bytes of parsed StableHLO text after which a thread's context is replaced.
CONTEXT_TEXT_BYTES = 64 << 20


class _ThreadContext(threading.local):
    """The calling thread's MLIR context (None until its first use) and what it parsed."""

    def __init__(self):
        self.ctx = None
        self.parses = 0
        self.text_bytes = 0


_LOCAL = _ThreadContext()
_CREATED = [0]  # contexts made by every thread
_CREATED_LOCK = threading.Lock()


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
    with _CREATED_LOCK:
        _CREATED[0] += 1
    return ctx


def context() -> ir.Context:
    """The calling thread's MLIR context with the StableHLO/CHLO/Shardy dialects loaded (use it on
    this thread only)."""
    local = _LOCAL
    ctx = local.ctx
    if ctx is None:
        ctx = local.ctx = _new_context()
        local.parses = local.text_bytes = 0
    return ctx


def parse(text: str) -> ir.Module:
    """Parse StableHLO text in the calling thread's context (a fresh one once the last
    has parsed ``CONTEXT_PARSES`` modules or ``CONTEXT_TEXT_BYTES`` bytes); ``ValueError``
    with the MLIR diagnostic and the text on failure."""
    local = _LOCAL
    if local.parses >= CONTEXT_PARSES or local.text_bytes >= CONTEXT_TEXT_BYTES:
        local.ctx = None  # destroyed with the last module parsed in it
    ctx = context()
    local.parses += 1
    local.text_bytes += len(text)
    try:
        return ir.Module.parse(text, ctx)
    except Exception as e:  # MLIRError: the diagnostic names the line
        raise ValueError(f"internal error in xnp: the lowered module does not parse:\n{e}\n\n{text}") from e


def canonical_text(text: str) -> str:
    """The module as MLIR prints it (pretty op syntax)."""
    return str(parse(text))


def stats() -> dict:
    """``contexts_created``: MLIR contexts made so far by every thread; ``contexts_alive``:
    contexts not yet destroyed (the bindings' live count: every thread's current one,
    and old ones while a module parsed in them is alive); ``parses``: modules parsed in
    the calling thread's current context."""
    return {"contexts_created": _CREATED[0], "contexts_alive": ir.Context._get_live_count(),
            "parses": _LOCAL.parses}
