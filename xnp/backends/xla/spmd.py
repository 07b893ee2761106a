"""SPMD programs: a jitted function compiled once for a device mesh and partitioned by
XLA (``jit(f, in_shardings=, out_shardings=)``, ``with_sharding_constraint``).

:func:`spmd_layout` finds the mesh of a jitted function (from its shardings and the
constraints in its jaxpr) and the layout of each argument and result;
:class:`SpmdCompiled` runs the executable: each argument is passed as a buffer with
exactly the executable's input layout (re-laid out through the host when it has
another one), and each result is a sharded buffer wrapped in an xnp array.
"""

from __future__ import annotations

import numpy as np
from jaxlib import xla_client as xc

from xnp import _default_dtypes
from xnp.backends.xla import client as _client
from xnp.backends.xla import device_value as _dv
from xnp.backends.xla import sharding as _xs
from xnp.backends.xla.lowering.module import SpmdLayout
from xnp.tracing import core, jit_hot
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr

__all__ = ["spmd_layout", "SpmdCompiled"]


def _constraints(jaxpr: Jaxpr, out: list) -> list:
    """The ``sharding`` params of every ``sharding_constraint`` and the ``mesh`` params of
    every ``shard_map`` in ``jaxpr`` and the jaxprs nested in its equations' params."""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "sharding_constraint":
            out.append(eqn.params["sharding"])
        elif eqn.primitive.name == "shard_map":
            out.append(eqn.params["mesh"])
        for p in eqn.params.values():
            for sub in p if isinstance(p, (tuple, list)) else (p,):
                if isinstance(sub, ClosedJaxpr):
                    _constraints(sub.jaxpr, out)
                elif isinstance(sub, Jaxpr):
                    _constraints(sub, out)
    return out


def _check_sharding(fun: str, what: str, s) -> None:
    if not hasattr(s, "_tile"):
        raise TypeError(f"{fun}: {what} must be an xnp.sharding sharding or None, got "
                        f"{type(s).__name__}.")


def spmd_layout(closed: ClosedJaxpr, name: str, in_shardings, out_shardings):
    """The :class:`SpmdLayout` of ``closed`` given flat per-argument/per-result shardings
    (None entries: unspecified), or None when the program runs on device 0 alone.

    Raises
    ------
    ValueError
        Shardings over different meshes, a sharding whose spec is longer than its
        array's rank, or a dimension not divisible by its number of shards.
    """
    fun = f"xnp.jit of {name}"
    in_avals, out_avals = closed.in_avals, closed.out_avals
    in_sh = list(in_shardings or ()) + [None] * (len(in_avals) - len(in_shardings or ()))
    out_sh = list(out_shardings or ()) + [None] * (len(out_avals) - len(out_shardings or ()))
    given = [(f"in_shardings[{i}]", s, a) for i, (s, a) in enumerate(zip(in_sh, in_avals))
             if s is not None]
    given += [(f"out_shardings[{i}]", s, a) for i, (s, a) in enumerate(zip(out_sh, out_avals))
              if s is not None]
    constraints = _constraints(closed.jaxpr, [])
    if not given and not constraints:
        return None
    meshes = []
    for what, s, aval in given:
        _check_sharding(fun, what, s)
        meshes.append((what, s._tile(aval.ndim).mesh))
    for s in constraints:
        if not hasattr(s, "_tile"):  # the Mesh of a shard_map
            meshes.append(("a shard_map", s._spec))
            continue
        meshes.append(("a with_sharding_constraint", s._tile(len(getattr(s, "spec", ()))).mesh))
    mesh = meshes[0][1]
    for what, m in meshes[1:]:
        if m != mesh:
            raise ValueError(f"{fun}: {what} is over another device mesh than {meshes[0][0]} "
                             f"(devices {list(m.device_ids)} vs {list(mesh.device_ids)}); one "
                             "program runs on one mesh.")
    if mesh.size == 1:
        if mesh.device_ids[0] != _client.get_client().device.id:
            raise NotImplementedError(f"{fun}: a one-device program on a device other than "
                                      "device 0 is not supported yet.")
        return None

    def tiles(entries, avals, kind):
        out = []
        for i, (s, aval) in enumerate(zip(entries, avals)):
            if s is None:
                out.append(None)
                continue
            t = s._tile(aval.ndim)
            _xs.check_divisible(fun, aval.shape, aval.dtype, t.hlo(), f"{kind}[{i}] ({s!r})")
            out.append(t)
        return out

    return SpmdLayout(mesh, tiles(in_sh, in_avals, "in_shardings"),
                      tiles(out_sh, out_avals, "out_shardings"))


class SpmdCompiled:
    """A compiled SPMD executable with ``Compiled``'s calling protocol (``call_flat``,
    ``call_single``, ``hot_caller``, ``as_text``, ``cost_analysis``)."""

    signature = None  # set by Lowered.compile: the jitted function's call signature

    def __call__(self, *args, **kwargs):
        """Run on the arguments of the jitted function it was lowered for (see
        ``Compiled.__call__``)."""
        if self.signature is None:
            raise TypeError(f"xnp: this compiled {self._name} was not lowered from a jitted "
                            "function's call (jitted.lower(*args).compile()), so it has no "
                            "signature to be called with")
        return self.signature.call(self, args, kwargs)

    def __init__(self, module, out_labels=()):
        spmd = module.spmd
        c = self._client = _client.get_client()
        mesh = spmd.mesh
        self._name = getattr(module, "name", "fun")
        devs = xc.DeviceList(tuple(_xs._jax_device(i) for i in mesh.device_ids))
        opts = _client.compile_options(device_ids=mesh.device_ids)
        opts.executable_build_options.allow_spmd_sharding_propagation_to_output = [
            t is None for t in spmd.out_tiles]
        self._exe = c.compile(module.text, opts, name=self._name, devices=devs)
        # the layouts the executable takes (XLA may propagate a constraint's layout to an
        # argument left unspecified): every argument is passed exactly so
        n_const = len(module.const_args)
        n_live = len(module.live_args)
        params = self._exe.get_parameter_shardings()
        avals = ([np.asarray(c) for c in module.const_args] + list(module.live_avals)
                 + list(module.in_avals))
        specs = [_xs.spec_from_op_sharding(mesh.device_ids, op, a.ndim)
                 for op, a in zip(params, avals)]
        self._const_bufs = tuple(_xs.put_sharded(x, sp)
                                 for x, sp in zip(module.const_args, specs[:n_const]))
        # the eager arrays the function closes over: mutable, so put at each call
        self._live = tuple(zip(module.live_args, specs[n_const:n_const + n_live]))
        self._in_specs = specs[n_const + n_live:]
        self._in_jax = [sp.jax_sharding() for sp in self._in_specs]
        self._in_avals = module.in_avals
        chosen = self._exe.get_output_shardings()
        out_specs = []
        for i, (t, a) in enumerate(zip(spmd.out_tiles, module.out_avals)):
            if t is not None:
                out_specs.append(t.hlo())
            else:
                out_specs.append(_xs.spec_from_op_sharding(mesh.device_ids, chosen[i], a.ndim))
        for spec, lab in zip(out_specs, out_labels):
            if lab is not None:
                _xs.label(spec, lab)
        self.out_specs = out_specs
        self._handlers = [c.result_handler(a, s.jax_sharding())
                          for a, s in zip(module.out_avals, out_specs)]
        self._out_meta = tuple((a.weak_type, a) for a in module.out_avals)
        self._make_callers()

    def as_text(self) -> str:
        """XLA's optimised HLO of one partition."""
        return self._exe.hlo_modules()[0].to_string()

    def cost_analysis(self) -> dict:
        return dict(self._exe.cost_analysis())

    def _arg_buffer(self, x, i):
        """Argument ``x`` (position ``i``) as a buffer with the executable's input layout."""
        want = self._in_jax[i]
        if type(x) is core.Array:
            buf = _dv.buffer_of(x)
            if buf is not None and buf._sharding is want:
                return buf
            if buf is not None:
                self._check_relayable(buf, i)
            host = x._value
        elif type(x) in (int, float, complex, bool):
            host = _default_dtypes.scalar_to_ndarray(x, self._in_avals[i].dtype)
        else:
            host = np.asarray(x)
        return _xs.put_sharded(host, self._in_specs[i], self._in_avals[i].weak_type)

    def _check_relayable(self, buf, i):
        """``ValueError`` when argument ``i`` (a buffer laid out otherwise than the program
        takes it) has shards on other processes' devices: it cannot pass through the host."""
        if not hasattr(buf, "_sharding") or _xs.is_held_here(buf):
            return  # this process's shards hold the whole array
        have, want = _xs.buffer_spec(buf), self._in_specs[i]
        raise ValueError(
            f"xnp.jit of {self._name}: argument {i} is laid out {have.text()} over devices "
            f"{list(have.device_ids)}, some of them in other processes, but the program takes "
            f"it laid out {want.text()} over {list(want.device_ids)}; an array spanning "
            "processes cannot be re-laid out through the host. Pass the argument's sharding "
            "as its entry of jit's in_shardings.")

    def _relaid(self, bufs):
        out = []
        for i, b in enumerate(bufs):
            if b._sharding is self._in_jax[i]:
                out.append(b)
            else:
                self._check_relayable(b, i)
                out.append(_xs.put_sharded(_client.to_host(b), self._in_specs[i]))
        return out

    def _make_callers(self):
        run, handlers, name = self._exe.execute_sharded, self._handlers, self._name
        consts, meta, live = self._const_bufs, self._out_meta, self._live

        def execute(bufs):
            lives = [_xs.put_sharded(np.asarray(x._value), sp) for x, sp in live]
            try:
                return run([*consts, *lives, *bufs]).consume_with_handlers(handlers)
            except _client.XlaRuntimeError as e:
                _client.raise_runtime_error(name, e)

        def call_flat(leaves):
            """Run on flat arguments; a list of xnp arrays holding sharded buffers."""
            bufs = [self._arg_buffer(x, i) for i, x in enumerate(leaves)]
            return [_dv.device_array(b, w, a) for (w, a), b in zip(meta, execute(bufs))]

        def call_buffers(bufs):
            """``call_flat`` on arguments given as device buffers (re-laid out if needed)."""
            outs = execute(self._relaid(bufs))
            return [_dv.device_array(b, w, a) for (w, a), b in zip(meta, outs)]

        self.call_flat, self._call_buffers = call_flat, call_buffers
        self.call_single = None
        if len(meta) == 1:
            self.call_single = lambda leaves: call_flat(leaves)[0]

    def hot_caller(self, guard, fallback, build=None, int_bounds=None):
        """``Compiled.hot_caller``: the guard's check, then, when every leaf is an Array
        holding a device buffer (re-laid out where the program takes it otherwise),
        ``build(outputs)`` or, with ``build=None``, the one output; else
        ``fallback(leaves)``. None for a layout with a Python-scalar leaf."""
        if any(k is not None for k in guard.kinds):
            return None
        call_buffers = self._call_buffers
        if build is None:
            if len(self._out_meta) != 1:
                raise ValueError(f"hot_caller of {self._name}: build=None needs exactly "
                                 f"one output, the executable has {len(self._out_meta)}")

            def build(outs):
                return outs[0]

        def call(arrays):
            bufs = [_dv.buffer_of(x) for x in arrays]
            if None in bufs:
                return fallback(arrays)
            return build(call_buffers(bufs))

        return jit_hot.guard_check(guard, call)
