"""Write a whole StableHLO module for a ClosedJaxpr (the ``main`` function)."""

from __future__ import annotations

import re

import numpy as np

from xnp.backends.xla.lowering._core import FunctionBuilder, Value, lower_jaxpr_body, tensor_type
from xnp.tracing import core
from xnp.tracing.jaxpr import ClosedJaxpr

__all__ = ["lower_closed_jaxpr", "LoweredModule", "EMBED_LIMIT_BYTES"]

# constants up to this size are embedded in the module; larger ones are passed as arguments
EMBED_LIMIT_BYTES = 1 << 16


class _ModuleNames:
    def __init__(self):
        self.n = 0

    def fresh(self) -> str:
        name = f"%{self.n}"
        self.n += 1
        return name


class LoweredModule:
    """StableHLO text of ``main`` plus what calling it needs.

    ``text``: the module as xnp wrote it (generic op syntax); ``const_args``:
    host values of the large constants passed before the user arguments;
    ``in_avals``/``out_avals``: avals of the user arguments and results.
    """

    def __init__(self, text, const_args, in_avals, out_avals, name, donated):
        self.text = text
        self.const_args = const_args
        self.in_avals = in_avals
        self.out_avals = out_avals
        self.name = name
        self.donated = donated


def _module_name(name: str) -> str:
    return "jit_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def _host_value(c) -> np.ndarray:
    if type(c) is core.Array:
        return np.asarray(c._value)
    return np.asarray(c)


def lower_closed_jaxpr(closed: ClosedJaxpr, name: str, donated=()) -> LoweredModule:
    """Lower ``closed`` to a module whose ``main`` takes (large consts..., args...)."""
    names = _ModuleNames()
    fb = FunctionBuilder(names)
    jaxpr = closed.jaxpr
    params: list[str] = []
    const_vals: list[Value] = []
    const_args: list[np.ndarray] = []
    n_arg = 0
    for v, c in zip(jaxpr.constvars, closed.consts):
        host = _host_value(c)
        if host.nbytes <= EMBED_LIMIT_BYTES:
            const_vals.append(fb.constant(host))
        else:
            val = Value(f"%arg{n_arg}", v.aval.strip_weak_type())
            params.append(f"{val.name}: {val.type}")
            const_vals.append(val)
            const_args.append(host)
            n_arg += 1
    args = []
    donated = tuple(donated) + (False,) * (len(jaxpr.invars) - len(donated))
    for v, d in zip(jaxpr.invars, donated):
        val = Value(f"%arg{n_arg}", v.aval)
        attr = " {jax.buffer_donor = true}" if d else ""
        params.append(f"{val.name}: {val.type}{attr}")
        args.append(val)
        n_arg += 1
    outs = lower_jaxpr_body(fb, jaxpr, const_vals, args)
    out_types = ", ".join(tensor_type(v.aval) for v in jaxpr.outvars)
    ret = ", ".join(o.name for o in outs)
    ret_line = f"    return {ret} : {out_types}" if outs else "    return"
    text = "\n".join([
        f"module @{_module_name(name)} attributes "
        "{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {",
        f"  func.func public @main({', '.join(params)}) -> ({out_types}) {{",
        *fb.lines,
        ret_line,
        "  }",
        "}",
    ])
    return LoweredModule(text, const_args, jaxpr.in_avals, jaxpr.out_avals, name, donated)
