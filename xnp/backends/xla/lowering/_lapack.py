"""Text of jaxlib's typed-FFI LAPACK custom calls (``lapack_dpotrf_ffi`` etc.) for the CPU.

The handlers are registered (with ``_lapack.initialize()``) by
``client.register_lapack`` the first time a module containing ``lapack_`` is compiled.
Conventions (docs/architecture.md, "LAPACK custom calls"): ``api_version = 4`` with a
dictionary ``backend_config`` of ASCII codes as ``ui8``; matrices column-major
(layout ``[r-2, r-1, r-3, ..., 0]``: batch dims major), vectors and scalars row-major;
one ``info`` (int32) per batch element. Leading batch dims are handled by the kernels.
"""

from __future__ import annotations

import numpy as np

from xnp.tracing import ShapedArray

__all__ = ["custom_call", "target", "info_aval", "CODES"]

# ASCII codes of LAPACK's character arguments
CODES = {"L": 76, "R": 82, "U": 85, "N": 78, "V": 86, "A": 65, "S": 83, "T": 84, "C": 67}

_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
           np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}


def target(name: str, dtype, complex_name: str | None = None) -> str:
    """``lapack_<s|d|c|z><name>_ffi``; ``complex_name`` replaces ``name`` for complex
    dtypes (``orgqr`` -> ``ungqr``, ``syevd`` -> ``heevd``)."""
    dtype = np.dtype(dtype)
    if complex_name is not None and dtype.kind == "c":
        name = complex_name
    return f"lapack_{_PREFIX[dtype]}{name}_ffi"


def info_aval(batch) -> ShapedArray:
    return ShapedArray(tuple(batch), np.dtype(np.int32))


def _layout(aval: ShapedArray, nbatch: int) -> str:
    r = aval.ndim
    if r - nbatch == 2:  # a matrix per batch element: column-major
        dims = [r - 2, r - 1] + list(range(r - 3, -1, -1))
    else:
        dims = list(range(r - 1, -1, -1))
    if not dims:
        return "dense<> : tensor<0xindex>"
    return f"dense<[{', '.join(map(str, dims))}]> : tensor<{r}xindex>"


def custom_call(ctx, name: str, operands, out_avals, *, nbatch: int, config=None,
                aliases=None) -> list:
    """Emit one LAPACK custom call; ``config``: ``{key: letter}`` for ``backend_config``;
    ``aliases``: ``{result index: operand index}``, results the kernel computes in the
    operand's buffer (LAPACK works in place: ``potrf``'s factor overwrites its matrix), so
    that XLA hands the kernel one buffer instead of the kernel copying its operand into its
    result (XLA copies the operand first only where it is still needed, e.g. an argument)."""
    cfg = ", ".join(f"{k} = {CODES[v]} : ui8" for k, v in sorted((config or {}).items()))
    attrs = (f'call_target_name = "{name}", api_version = 4 : i32, '
             f"backend_config = {{{cfg}}}, "
             f"operand_layouts = [{', '.join(_layout(o.aval, nbatch) for o in operands)}], "
             f"result_layouts = [{', '.join(_layout(a, nbatch) for a in out_avals)}]")
    if aliases:
        tuple_index = (lambda i: f"[{i}]") if len(out_avals) > 1 else (lambda i: "[]")
        attrs += ", output_operand_aliases = [" + ", ".join(
            f"#stablehlo.output_operand_alias<output_tuple_indices = {tuple_index(r)}, "
            f"operand_index = {o}, operand_tuple_indices = []>"
            for r, o in sorted(aliases.items())) + "]"
    return ctx.ops("stablehlo.custom_call", list(operands), list(out_avals), attrs=attrs)
