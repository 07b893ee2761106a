"""Write a whole StableHLO module for a ClosedJaxpr (the ``main`` function)."""

from __future__ import annotations

import re

import numpy as np

from xnp.backends.xla.lowering._core import (TOKEN, FunctionBuilder, Value, lower_jaxpr_body,
                                              tensor_type)
from xnp.tracing import core
from xnp.tracing.jaxpr import ClosedJaxpr, has_effects

__all__ = ["lower_closed_jaxpr", "LoweredModule", "SpmdLayout", "EMBED_LIMIT_BYTES"]

# constants up to this size are embedded in the module; larger ones are passed as arguments
EMBED_LIMIT_BYTES = 1 << 16


class _ModuleNames:
    mesh = None  # the device mesh (a MeshSpec) of an SPMD module

    def __init__(self):
        self.n = 0
        self.callbacks: list = []  # host callbacks, in the order of their `index`
        self.live: dict = {}  # id(array) -> (Value, array, aval): closed-over eager arrays

    def live_value(self, array, aval) -> Value:
        """The parameter of ``main`` holding the eager ``Array`` ``array`` (a constant of
        the jaxpr or of a call-like equation's jaxpr: an array the function closes over),
        read at each call; one per array."""
        got = self.live.get(id(array))
        if got is None:
            got = self.live[id(array)] = (Value(f"%live{len(self.live)}",
                                                aval.strip_weak_type()), array, aval)
        return got[0]

    def fresh(self) -> str:
        name = f"%{self.n}"
        self.n += 1
        return name

    def add_callback(self, callback) -> int:
        """The ``index`` of a new host callback of the module."""
        self.callbacks.append(callback)
        return len(self.callbacks) - 1


class LoweredModule:
    """StableHLO text of ``main`` plus what calling it needs.

    ``text``: the module as xnp wrote it (generic op syntax); ``const_args``:
    host values of the large constants passed first; ``live_args``: the eager ``Array``
    constants (arrays the function closes over), passed next, read at each call since
    NumPy's arrays are mutable; then the user arguments;
    ``in_avals``/``out_avals``: avals of the user arguments and results;
    ``callbacks``: the host callbacks (``xnp.lax.callback.HostCallback``) its custom calls
    name by index, to be bound to the executable when it is compiled or loaded.
    """

    def __init__(self, text, const_args, in_avals, out_avals, name, donated, spmd=None,
                 callbacks=(), live_args=()):
        self.callbacks = tuple(callbacks)
        self.live_args = tuple(c for c, _ in live_args)
        self.live_avals = tuple(a for _, a in live_args)
        self.spmd = spmd  # the SpmdLayout of a module partitioned over a mesh, else None
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


class SpmdLayout:
    """What makes a module an SPMD program over ``mesh`` (a ``MeshSpec``): the layout
    (``TileSpec``) of each user argument and result, None where XLA's partitioner decides
    (arguments: replicated; results: propagated)."""

    def __init__(self, mesh, in_tiles, out_tiles):
        self.mesh = mesh
        self.in_tiles = tuple(in_tiles)
        self.out_tiles = tuple(out_tiles)


def _sharding_attr(tile, ndim: int) -> str:
    if tile is None:
        return ""
    return f"sdy.sharding = {tile.sdy_text()}"


def _attrs(*items: str) -> str:
    items = [i for i in items if i]
    return " {" + ", ".join(items) + "}" if items else ""


def lower_closed_jaxpr(closed: ClosedJaxpr, name: str, donated=(), spmd=None) -> LoweredModule:
    """Lower ``closed`` to a module whose ``main`` takes (large consts..., closed-over eager
    arrays..., args...).

    ``spmd`` (a :class:`SpmdLayout`) makes it a program partitioned over a device mesh:
    ``sdy.mesh @mesh``, ``sdy.sharding`` on the arguments and results it gives, large
    constants replicated and ``mhlo.num_partitions`` the mesh's size. Without it the
    text is the single-device module.
    """
    names = _ModuleNames()
    if spmd is not None:
        names.mesh = spmd.mesh
    fb = FunctionBuilder(names)
    jaxpr = closed.jaxpr
    if has_effects(jaxpr):
        if spmd is not None:
            raise NotImplementedError(
                f"xnp.jit of {name}: host callbacks (xnp.lax.io_callback, NumPy-style "
                "xnp.random draws) in a program partitioned over several devices are not "
                "supported; call them outside the sharded function.")
        fb.token = fb.op("stablehlo.after_all", [], [TOKEN])[0]
    params: list[str] = []
    const_args: list[np.ndarray] = []
    const_vals: list[Value] = []
    n_arg = 0

    def replicated(aval):
        return "" if spmd is None else "sdy.sharding = #sdy.sharding<@mesh, [" + ", ".join(
            ["{}"] * aval.ndim) + "]>"

    for v, c in zip(jaxpr.constvars, closed.consts):
        if type(c) is core.Array:  # mutable: a parameter read at each call
            const_vals.append(names.live_value(c, v.aval))
            continue
        host = _host_value(c)
        if host.nbytes <= EMBED_LIMIT_BYTES:
            const_vals.append(fb.constant(host))
        else:
            val = Value(f"%arg{n_arg}", v.aval.strip_weak_type())
            params.append(f"{val.name}: {val.type}{_attrs(replicated(v.aval))}")
            const_vals.append(val)
            const_args.append(host)
            n_arg += 1
    n_const = len(params)
    args = []
    donated = tuple(donated) + (False,) * (len(jaxpr.invars) - len(donated))
    in_tiles = spmd.in_tiles if spmd is not None else (None,) * len(jaxpr.invars)
    for v, d, tile in zip(jaxpr.invars, donated, in_tiles):
        val = Value(f"%arg{n_arg}", v.aval)
        attr = _attrs("jax.buffer_donor = true" if d else "", _sharding_attr(tile, v.aval.ndim))
        params.append(f"{val.name}: {val.type}{attr}")
        args.append(val)
        n_arg += 1
    outs = lower_jaxpr_body(fb, jaxpr, const_vals, args)
    # parameters: the large constants, then the closed-over eager arrays (found in the
    # jaxpr and in the jaxprs of its call-like equations), then the user arguments
    live = list(names.live.values())
    params[n_const:n_const] = [f"{val.name}: {val.type}{_attrs(replicated(aval))}"
                               for val, _, aval in live]
    live_args = [(c, aval) for _, c, aval in live]
    out_types = ", ".join(tensor_type(v.aval) for v in jaxpr.outvars)
    results = out_types
    if spmd is not None:
        results = ", ".join(tensor_type(v.aval) + _attrs(_sharding_attr(t, v.aval.ndim))
                            for v, t in zip(jaxpr.outvars, spmd.out_tiles))
    ret = ", ".join(o.name for o in outs)
    ret_line = f"    return {ret} : {out_types}" if outs else "    return"
    parts = 1 if spmd is None else spmd.mesh.size
    text = "\n".join([
        f"module @{_module_name(name)} attributes "
        f"{{mhlo.num_partitions = {parts} : i32, mhlo.num_replicas = 1 : i32}} {{",
        *([f"  {spmd.mesh.sdy_text()}"] if spmd is not None else []),
        f"  func.func public @main({', '.join(params)}) -> ({results}) {{",
        *fb.lines,
        ret_line,
        "  }",
        "}",
    ])
    return LoweredModule(text, const_args, jaxpr.in_avals, jaxpr.out_avals, name, donated,
                         spmd, names.callbacks, live_args)
