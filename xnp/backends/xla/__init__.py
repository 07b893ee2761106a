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
    ``call_flat(leaves)``."""

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
        self._out0 = self._out_meta[0] if len(self._out_meta) == 1 else None
        self._donated = module.donated
        self._any_donated = any(module.donated)

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

    def _execute(self, leaves):
        """Run on flat arguments (eager Arrays, NumPy arrays, scalars): jaxlib output arrays.

        The hot path of every cached jit call: device-resident Arrays pass their buffer,
        anything else is put; donated Arrays are marked dead."""
        bufs = [*self._const_bufs]
        dead = _client.DONATED
        for i, x in enumerate(leaves):
            if type(x) is _ARRAY:
                buf = x._buf  # set only while the host value is absent or a read-only view of it
                if buf is not None and buf is not dead:
                    bufs.append(buf)
                    continue
            bufs.append(self._buffer(x, self._in_avals[i]))
        outs = self._run(bufs).consume_with_handlers(self._handlers)
        if self._any_donated:
            for x, d in zip(leaves, self._donated):
                if d and type(x) is _ARRAY:
                    x._val = None
                    x._buf = dead
        return outs

    def call_flat(self, leaves):
        """Run on flat arguments; a list of eager Arrays that keep their device buffers."""
        outs = self._execute(leaves)
        return [_ARRAY(None, w, b, a) for (w, a), b in zip(self._out_meta, outs)]

    def call_single(self, leaves):
        """``call_flat(leaves)[0]`` for an executable with exactly one output."""
        w, a = self._out0
        return _ARRAY(None, w, self._execute(leaves)[0], a)


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
