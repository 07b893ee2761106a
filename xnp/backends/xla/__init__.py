"""The XLA backend: lowering to StableHLO and execution through jaxlib's PJRT runtime."""

from __future__ import annotations

from xnp import config as _config
from xnp.backends.xla import client as _client
from xnp.backends.xla import compile_cache as _compile_cache
from xnp.backends.xla import sharding as _xs
from xnp.backends.xla import spmd as _spmd
from xnp.backends.xla.lowering import lower_closed_jaxpr
from xnp.backends.xla.mlir import canonical_text
from xnp.tracing import core
from xnp.tracing.jit import register_jit_backend

__all__ = ["Lowered", "Compiled", "XlaJitBackend"]


class Lowered:
    """A lowered jitted function: ``as_text()`` gives the StableHLO module."""

    def __init__(self, module, out_labels=()):
        self._module = module
        self._out_labels = out_labels

    def as_text(self) -> str:
        """The StableHLO module, printed by MLIR in canonical syntax."""
        return canonical_text(self._module.text)

    def compile(self) -> "Compiled":
        """The executable: ``Compiled``, or an ``SpmdCompiled`` for a program partitioned
        over a device mesh."""
        if self._module.spmd is not None:
            return _spmd.SpmdCompiled(self._module, self._out_labels)
        return Compiled(self._module)


class Compiled:
    """A compiled executable: ``as_text()`` (XLA's optimised HLO), ``cost_analysis()``,
    ``call_flat(leaves)`` and ``call_buffers(bufs)`` (``*_single`` variants for one output:
    the output itself, or None when there is not exactly one)."""

    def __init__(self, module):
        self._module = module
        c = self._client = _client.get_client()
        self._name = getattr(module, "name", "fun")
        self._exe = c.compile(module.text, name=self._name, callbacks=module.callbacks)
        self._const_bufs = tuple(c.put(x) for x in module.const_args)
        self._in_avals = module.in_avals
        self._out_avals = module.out_avals
        self._handlers = [c.result_handler(a) for a in module.out_avals]
        self._run = self._exe.execute_sharded
        self._out_meta = tuple((a.weak_type, a) for a in module.out_avals)
        self._donated = tuple(module.donated) or (False,) * len(module.in_avals)
        self._any_donated = any(module.donated)
        self._make_callers()

    def as_text(self) -> str:
        return self._exe.hlo_modules()[0].to_string()

    def cost_analysis(self) -> dict:
        return dict(self._exe.cost_analysis())

    def _buffer(self, x, aval, pos):
        """The device buffer for argument ``x`` (position ``pos``) that is not device-resident,
        and whether it aliases host memory (the call must then finish before it returns, so
        that later host writes cannot race with the computation reading the memory)."""
        c = self._client
        t = type(x)
        if t is core.Array:
            v = x._val
            if v is None:  # donated or deleted: reading it raises the clear error
                return c.put(x._value), False
            if x._alias is None:
                buf = c.alias(v)
                x._alias = _NO_ALIAS if buf is None else buf
                if buf is not None:
                    return buf, True
            elif x._alias is not _NO_ALIAS:
                return x._alias, True
            if _OPTIONS["log_transfers"]:
                _log_copy(self._name, pos, v, c.copy_reason(v))
            return c.put(v), False
        if t in _SCALAR_TYPES:
            if self._donated[pos]:
                return c.put(core.scalar_to_ndarray(x, aval.dtype)), False
            return c.put_scalar(x, aval.dtype), False
        v = x if t is _NDARRAY else _asarray(x)
        if t is _NDARRAY and v.nbytes >= _ALIAS_MIN_BYTES and v.flags.c_contiguous:
            # may alias; copied by the runtime when it cannot (misaligned, read-only)
            if _OPTIONS["log_transfers"] and c.alias(v) is None:
                _log_copy(self._name, pos, v, c.copy_reason(v))
            return c.put(v, zero_copy=True), True
        if _OPTIONS["log_transfers"] and t is _NDARRAY:
            _log_copy(self._name, pos, v, c.copy_reason(v))
        return c.put(v), False

    def _make_callers(self):
        """Set ``call_flat`` and ``call_single``: closures over the executable (the hot path
        of every cached jit call), so a call reads no attributes."""
        run, handlers, name = self._run, self._handlers, self._name
        consts, buffer, dead = self._const_bufs, self._buffer, _client.DONATED
        in_avals = self._in_avals
        donated = self._donated if self._any_donated else None
        out_meta = self._out_meta

        def execute(leaves):
            # device-resident Arrays pass their buffer, eager ones their cached alias;
            # anything else is put; donated Arrays are marked dead
            bufs = [*consts]
            aliased = False
            for i, x in enumerate(leaves):
                if type(x) is _ARRAY:
                    buf = x._buf  # set only while the host value is absent or read-only
                    if buf is None:
                        buf = x._alias
                        if buf is not None and buf is not _NO_ALIAS:
                            bufs.append(buf)
                            aliased = True
                            continue
                    elif buf is not dead:
                        bufs.append(buf)
                        continue
                buf, a = buffer(x, in_avals[i], i)
                bufs.append(buf)
                aliased = aliased or a
            try:
                outs = run(bufs).consume_with_handlers(handlers)
            except _RUNTIME_ERROR as e:  # free when nothing is raised
                outs = _run_unsharded(run, bufs, handlers, name, e)
            if donated is not None:
                for x, d in zip(leaves, donated):
                    if d and type(x) is _ARRAY:
                        x._val = None
                        x._buf = dead
                        x._alias = None
            if aliased and outs and not outs[0].is_ready():
                _block(outs)
            return outs

        def call_flat(leaves):
            """Run on flat arguments (eager Arrays, NumPy arrays, scalars); a list of eager
            Arrays that keep their device buffers."""
            return [_ARRAY(None, w, b, a) for (w, a), b in zip(out_meta, execute(leaves))]

        def call_buffers(bufs):
            """``call_flat`` on arguments given as live device buffers, one per argument
            (nothing donated)."""
            args = [*consts, *bufs] if consts else bufs
            try:
                outs = run(args).consume_with_handlers(handlers)
            except _RUNTIME_ERROR as e:
                outs = _run_unsharded(run, args, handlers, name, e)
            return [_ARRAY(None, w, b, a) for (w, a), b in zip(out_meta, outs)]

        self.call_flat, self.call_buffers = call_flat, call_buffers
        self.call_single = self.call_buffers_single = None
        if len(out_meta) == 1:
            (w0, a0), = out_meta

            def call_single(leaves):
                """``call_flat(leaves)[0]`` for an executable with exactly one output."""
                return _ARRAY(None, w0, execute(leaves)[0], a0)

            def call_buffers_single(bufs):
                """``call_buffers(bufs)[0]`` for an executable with exactly one output."""
                args = [*consts, *bufs] if consts else bufs
                try:
                    outs = run(args).consume_with_handlers(handlers)
                except _RUNTIME_ERROR as e:
                    outs = _run_unsharded(run, args, handlers, name, e)
                return _ARRAY(None, w0, outs[0], a0)

            self.call_single, self.call_buffers_single = call_single, call_buffers_single


_ARRAY = core.Array
_NO_ALIAS = core.NO_ALIAS
_SCALAR_TYPES = (int, float, complex, bool)
import sys as _sys  # noqa: E402

import numpy as _np  # noqa: E402
from jaxlib import xla_client as _xc  # noqa: E402

_block = _xc.batched_block_until_ready
_SINGLE = _xc.SingleDeviceSharding
_RUNTIME_ERROR = _client.XlaRuntimeError
# NumPy arguments smaller than this are copied (a copy that small costs less than a
# zero-copy put, which also makes the call wait for its result)
_ALIAS_MIN_BYTES = 1 << 16
_OPTIONS = _config._OPTIONS  # read on the call path without a function call


def _run_unsharded(run, bufs, handlers, name, error):
    """After ``run(bufs)`` raised ``error``: run again with every sharded argument (a buffer
    on several devices, from ``xnp.device_put`` or a sharded jit) and every buffer on
    another device gathered and put on device 0, which is where this single-device
    executable runs; re-raise ``error`` when every argument was already there."""
    c = _client.get_client()
    for i, b in enumerate(bufs):
        if type(b._sharding) is not _SINGLE and not _xs.is_held_here(b):
            raise ValueError(
                f"xnp.jit of {name}: flat argument {i} ({_np.dtype(b.aval.dtype).name}"
                f"{list(b.aval.shape)}) spans several processes, and this program was compiled "
                "for one device; pass its sharding in in_shardings= (x.sharding) so that "
                "jit runs it sharded")
    gathered = [c.put(_client.to_host(b)) if type(b._sharding) is not _SINGLE
                or b._sharding._device != c.device else b for b in bufs]
    if all(g is b for g, b in zip(gathered, bufs)):
        _client.raise_runtime_error(name, error)
    if _OPTIONS["log_transfers"]:
        print(f"xnp: jitted {name}: a sharded argument or one on another device is moved "
              "onto device 0 (give in_shardings= to run it sharded)", file=_sys.stderr)
    try:
        return run(gathered).consume_with_handlers(handlers)
    except _RUNTIME_ERROR as e:
        _client.raise_runtime_error(name, e)


def _log_copy(name, pos, v, reason):
    print(f"xnp: jitted {name}: argument {pos} ({v.dtype.name}{list(v.shape)}) is copied to "
          f"the device: {reason}", file=_sys.stderr)


_NDARRAY = _np.ndarray
_asarray = _np.asarray


class XlaJitBackend:
    """The jit backend registered with ``xnp.tracing.jit``."""

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


register_jit_backend(XlaJitBackend())
core.register_buffer_reader(_client.to_host)

from xnp.backends.xla import eager as _eager  # noqa: E402,F401  (registers the eager XLA backend)
