"""The XLA backend: lowering to StableHLO and execution through jaxlib's PJRT runtime."""

from __future__ import annotations

from xnp.backends.xla import client as _client
from xnp.backends.xla.lowering import lower_closed_jaxpr
from xnp.backends.xla.mlir import canonical_text
from xnp.tracing import core
from xnp.tracing.jit import register_jit_backend

__all__ = ["Lowered", "Compiled", "XlaJitBackend"]


class Lowered:
    """A lowered jitted function: ``as_text()`` gives the StableHLO module."""

    def __init__(self, module):
        self._module = module

    def as_text(self) -> str:
        """The StableHLO module, printed by MLIR in canonical syntax."""
        return canonical_text(self._module.text)

    def compile(self) -> "Compiled":
        return Compiled(self._module)


class Compiled:
    """A compiled executable: ``as_text()`` (XLA's optimised HLO), ``cost_analysis()``,
    ``call_flat(leaves)`` and ``call_buffers(bufs)`` (``*_single`` variants for one output:
    the output itself, or None when there is not exactly one)."""

    def __init__(self, module):
        self._module = module
        c = self._client = _client.get_client()
        self._exe = c.compile(module.text)
        self._const_bufs = tuple(c.put(x) for x in module.const_args)
        self._in_avals = module.in_avals
        self._out_avals = module.out_avals
        self._handlers = [c.result_handler(a) for a in module.out_avals]
        self._run = self._exe.execute_sharded
        self._out_meta = tuple((a.weak_type, a) for a in module.out_avals)
        self._donated = module.donated
        self._any_donated = any(module.donated)
        self._make_callers()

    def as_text(self) -> str:
        return self._exe.hlo_modules()[0].to_string()

    def cost_analysis(self) -> dict:
        return dict(self._exe.cost_analysis())

    def _buffer(self, x, aval):
        t = type(x)
        if t is core.Array:
            buf = x._buf  # set only while the host value is absent or a read-only view of it
            if buf is not None and buf is not _client.DONATED:
                return buf
            return self._client.put(x._value)
        if t in (int, float, complex, bool):
            return self._client.put(core.scalar_to_ndarray(x, aval.dtype))
        return self._client.put(x if t is _NDARRAY else _asarray(x))

    def _make_callers(self):
        """Set ``call_flat`` and ``call_single``: closures over the executable (the hot path
        of every cached jit call), so a call reads no attributes."""
        run, handlers, in_avals = self._run, self._handlers, self._in_avals
        consts, buffer, dead = self._const_bufs, self._buffer, _client.DONATED
        donated = self._donated if self._any_donated else None
        out_meta = self._out_meta

        def execute(leaves):
            # device-resident Arrays pass their buffer, anything else is put; donated
            # Arrays are marked dead
            bufs = [*consts]
            for x in leaves:
                if type(x) is _ARRAY:
                    buf = x._buf  # set only while the host value is absent or read-only
                    if buf is not None and buf is not dead:
                        bufs.append(buf)
                        continue
                bufs.append(buffer(x, in_avals[len(bufs) - len(consts)]))
            outs = run(bufs).consume_with_handlers(handlers)
            if donated is not None:
                for x, d in zip(leaves, donated):
                    if d and type(x) is _ARRAY:
                        x._val = None
                        x._buf = dead
            return outs

        def call_flat(leaves):
            """Run on flat arguments (eager Arrays, NumPy arrays, scalars); a list of eager
            Arrays that keep their device buffers."""
            return [_ARRAY(None, w, b, a) for (w, a), b in zip(out_meta, execute(leaves))]

        def call_buffers(bufs):
            """``call_flat`` on arguments given as live device buffers, one per argument
            (nothing donated)."""
            outs = run([*consts, *bufs] if consts else bufs).consume_with_handlers(handlers)
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
                outs = run([*consts, *bufs] if consts else bufs).consume_with_handlers(handlers)
                return _ARRAY(None, w0, outs[0], a0)

            self.call_single, self.call_buffers_single = call_single, call_buffers_single


_ARRAY = core.Array
import numpy as _np  # noqa: E402

_NDARRAY = _np.ndarray
_asarray = _np.asarray


class XlaJitBackend:
    """The jit backend registered with ``xnp.tracing.jit``."""

    name = "xla"

    @staticmethod
    def lower(closed, name, donated=()):
        return Lowered(lower_closed_jaxpr(closed, name, donated))


register_jit_backend(XlaJitBackend())
core.register_buffer_reader(_client.to_host)

from xnp.backends.xla import eager as _eager  # noqa: E402,F401  (registers the eager XLA backend)
