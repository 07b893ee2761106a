"""jaxlib's MLIR/StableHLO bindings, behind one small module: one long-lived
context with the dialects registered, parsing, and canonical printing."""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo
from jaxlib.mlir.dialects import stablehlo as hlo

__all__ = ["context", "parse", "canonical_text", "ir"]

_CTX: list = [None]


def context() -> ir.Context:
    ctx = _CTX[0]
    if ctx is None:
        ctx = ir.Context()
        reg = ir.DialectRegistry()
        _jax_mlir_ext.register_dialects(reg)
        ctx.append_dialect_registry(reg)
        ctx.load_all_available_dialects()
        hlo.register_dialect(ctx)
        chlo.register_dialect(ctx)
        _CTX[0] = ctx
    return ctx


def parse(text: str) -> ir.Module:
    """Parse StableHLO text; ``ValueError`` with the MLIR diagnostic and the text on failure."""
    ctx = context()
    try:
        return ir.Module.parse(text, ctx)
    except Exception as e:  # MLIRError: the diagnostic names the line
        raise ValueError(f"internal error in xnp: the lowered module does not parse:\n{e}\n\n{text}") from e


def canonical_text(text: str) -> str:
    """The module as MLIR prints it (pretty op syntax)."""
    return str(parse(text))
