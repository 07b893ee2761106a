"""Lowering of ``io_callback``: a side-effecting custom call of XLA's Python CPU callback.

``stablehlo.custom_call @xla_ffi_python_cpu_callback(token, args...) -> (token,
results...)`` with ``has_side_effect = true`` (never removed or merged by XLA) and
``backend_config = {index = k}``, the position of the callback in the module's list
(``LoweredModule.callbacks``), which the client passes to XLA with the executable
(``host_callbacks``). The token comes from the builder (``FunctionBuilder.token``) and
the returned one replaces it, so the callbacks of a program form one chain that XLA
runs in order; loops and branches carry the token (``lowering/control_flow.py``).
Operands and results use row-major layouts (NumPy's C order on the host).
"""

from __future__ import annotations

from xnp.backends.xla.lowering._core import TOKEN, lowering
from xnp.lax.callback import io_callback_p

__all__: list = []

_TARGET = "xla_ffi_python_cpu_callback"


def _layout(ndim: int) -> str:
    if ndim == 0:
        return "dense<> : tensor<0xindex>"
    dims = ", ".join(str(d) for d in reversed(range(ndim)))
    return f"dense<[{dims}]> : tensor<{ndim}xindex>"


@lowering(io_callback_p)
def _lower_io_callback(ctx, *args, callback):
    b = ctx.b
    if b.token is None:  # a region that carries no token: a reducer or comparator body
        raise NotImplementedError(
            f"xnp.jit: host callback `{callback.name}` inside the body of a reduction, "
            "window or sort comparator is not supported; callbacks may be called in the "
            "jitted function, in cond/switch branches, in while_loop/fori_loop/scan bodies "
            "and in nested jit.")
    index = ctx.module.add_callback(callback)
    operand_layouts = ", ".join([_layout(0)] + [_layout(a.ndim) for a in ctx.avals_in])
    result_layouts = ", ".join([_layout(0)] + [_layout(a.ndim) for a in ctx.avals_out])
    attrs = (f'call_target_name = "{_TARGET}", api_version = 4 : i32, has_side_effect = true, '
             f"backend_config = {{index = {index} : ui64}}, "
             f"operand_layouts = [{operand_layouts}], result_layouts = [{result_layouts}]")
    outs = ctx.ops("stablehlo.custom_call", [b.token, *args],
                   [TOKEN, *[a.strip_weak_type() for a in ctx.avals_out]], attrs)
    b.token = outs[0]
    return outs[1:]
