"""Executables of the XLA backend: ``Lowered`` (a StableHLO module) and ``Compiled``
(a PJRT executable with its argument-buffer handling and its call closures)."""

from __future__ import annotations

import sys as _sys

import numpy as _np
from jaxlib import _jax
from jaxlib import xla_client as _xc

from xnp import _default_dtypes
from xnp import config as _config
from xnp.backends.xla import client as _client
from xnp.backends.xla import device_value as _dv
from xnp.backends.xla import sharding as _xs
from xnp.backends.xla import spmd as _spmd
from xnp.backends.xla.mlir import canonical_text
from xnp.tracing import core
from xnp.tracing import jit_hot as _jit_hot

__all__ = ["Lowered", "Compiled"]


class Lowered:
    """A lowered jitted function: ``as_text()`` gives the StableHLO module."""

    def __init__(self, module, out_labels=()):
        self._module = module
        self._out_labels = out_labels

    def as_text(self) -> str:
        """The StableHLO module, printed by MLIR in canonical syntax."""
        return canonical_text(self._module.text)

    #: how the compiled executable is called (``xnp.tracing.jit_aot.CallSignature``), set by
    #: ``jitted.lower(...)``; None for a module lowered otherwise (not callable)
    signature = None

    def compile(self) -> "Compiled":
        """The executable: ``Compiled``, or an ``SpmdCompiled`` for a program partitioned
        over a device mesh; calling it runs it on the jitted function's arguments."""
        if self._module.spmd is not None:
            out = _spmd.SpmdCompiled(self._module, self._out_labels)
        else:
            out = Compiled(self._module)
        out.signature = self.signature
        return out


class Compiled:
    """A compiled executable: ``as_text()`` (XLA's optimised HLO), ``cost_analysis()``,
    ``call_flat(leaves)`` (``call_single``: the output itself, or None when there is not
    exactly one) and ``hot_caller(guard, fallback, build, int_bounds)``."""

    signature = None  # set by Lowered.compile: the jitted function's call signature

    def __call__(self, *args, **kwargs):
        """Run on the arguments of the jitted function it was lowered for (static ones
        left out): the function's result. ``TypeError`` when their structure, shapes or
        dtypes differ from those it was lowered for."""
        if self.signature is None:
            raise TypeError(f"xnp: this compiled {self._name} was not lowered from a jitted "
                            "function's call (jitted.lower(*args).compile()), so it has no "
                            "signature to be called with")
        return self.signature.call(self, args, kwargs)

    def __init__(self, module):
        self._module = module
        c = self._client = _client.get_client()
        self._name = getattr(module, "name", "fun")
        self._exe = c.compile(module.text, name=self._name, callbacks=module.callbacks)
        self._const_bufs = tuple(c.put(x) for x in module.const_args)
        # the eager arrays the function closes over: mutable, so read at each call
        self._live = module.live_args
        self._live_avals = module.live_avals
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
            v = x._v
            if v is None:  # donated or deleted: reading it raises the clear error
                return c.put(x._value), False
            memo = x._host_memo
            if memo is None:
                buf = c.alias(v)
                x._host_memo = _NO_ALIAS if buf is None else buf
                if buf is not None:
                    return buf, True
            elif memo is not _NO_ALIAS:
                return memo, True
            if _OPTIONS["log_transfers"]:
                _log_copy(self._name, pos, v, c.copy_reason(v))
            return c.put(v), False
        if t in _SCALAR_TYPES:
            if self._donated[pos]:
                return c.put(_default_dtypes.scalar_to_ndarray(x, aval.dtype)), False
            return c.put_scalar(x, aval.dtype), False
        v = x if t is _NDARRAY else _asarray(x)
        if (t is _NDARRAY and v.nbytes >= _ALIAS_MIN_BYTES and v.flags.c_contiguous
                and not (pos >= 0 and self._donated[pos])):  # the caller's memory: not donated
            # may alias; copied by the runtime when it cannot (misaligned, read-only)
            if _OPTIONS["log_transfers"] and c.alias(v) is None:
                _log_copy(self._name, pos, v, c.copy_reason(v))
            return c.put(v, zero_copy=True), True
        if _OPTIONS["log_transfers"] and t is _NDARRAY:
            _log_copy(self._name, pos, v, c.copy_reason(v))
        return c.put(v), False

    def _live_buffer(self, x, aval, k):
        """The device buffer of closed-over array ``x`` (the ``k``-th) whose buffer is not
        cached: ``_buffer``'s, after checking that ``x`` still has the shape and dtype it was
        traced with (``x.shape = ...`` and ``x.resize`` change it in place)."""
        v = x._v
        if v is not None and (v.shape != aval.shape or v.dtype != aval.dtype):
            raise ValueError(
                f"xnp.jit of {self._name}: an array the function closes over was traced as "
                f"{_np.dtype(aval.dtype).name}{list(aval.shape)} and is now "
                f"{v.dtype.name}{list(v.shape)} (its shape was changed in place); call "
                f"clear_cache() on the jitted function, or pass the array as an argument")
        return self._buffer(x, aval, -1 - k)

    def _make_callers(self):
        """Set ``call_flat`` and ``call_single``: closures over the executable (the hot path
        of every cached jit call), so a call reads no attributes."""
        run, handlers, name = self._run, self._handlers, self._name
        consts, buffer, dead, mark_donated = (self._const_bufs, self._buffer, _DONATED,
                                              _dv.mark_donated)
        client = self._client
        donation_lock = core._COPY_ON_WRITE
        in_avals = self._in_avals
        donated = self._donated if self._any_donated else None
        donated_at = tuple(i for i, d in enumerate(self._donated) if d)
        out_meta, device_array = self._out_meta, _dv.device_array
        live, live_avals, live_buffer = self._live, self._live_avals, self._live_buffer

        def live_bufs():
            # the closed-over arrays' current values: their device buffer (a jit output's)
            # or the buffer aliasing their host memory (no copy), else put
            bufs = [*consts]
            aliased = False
            for k, x in enumerate(live):
                dev = x._dev
                if dev is None:
                    buf = x._host_memo
                    if type(buf) is _BUFFER:
                        bufs.append(buf)
                        aliased = True
                        continue
                elif type(dev) is _BUFFER:
                    bufs.append(dev)
                    continue
                buf, a = live_buffer(x, live_avals[k], k)
                bufs.append(buf)
                aliased = aliased or a
            return bufs, aliased

        def execute(leaves):
            # device-resident Arrays pass their buffer, eager ones their cached alias;
            # anything else is put; donated Arrays are marked dead
            if live:
                bufs, aliased = live_bufs()
            else:
                bufs = [*consts]
                aliased = False
            for i, x in enumerate(leaves):
                if type(x) is _ARRAY:
                    dev = x._dev  # set only while the host value is absent or read-only
                    if dev is None:
                        buf = x._host_memo
                        if buf is not None and buf is not _NO_ALIAS:
                            bufs.append(buf)
                            aliased = True
                            continue
                    elif dev is not dead:
                        bufs.append(dev)
                        continue
                buf, a = buffer(x, in_avals[i], i)
                bufs.append(buf)
                aliased = aliased or a
            if donated is not None:
                first = len(bufs) - len(leaves)
                _check_donated_once(bufs[first:], donated, name)
                for i in donated_at:
                    x = leaves[i]  # a jit output never read on the host keeps its buffer
                    if type(x) is _ARRAY and x._v is not None:
                        bufs[first + i] = _donor_buffer(client, name, x, bufs[first + i], i)
            if donated is None:
                try:
                    outs = run(bufs).consume_with_handlers(handlers)
                except _RUNTIME_ERROR as e:  # free when nothing is raised
                    outs = _run_unsharded(run, bufs, handlers, name, e)
            else:
                # under the lock of a jit output's first host read (Array._value): another
                # thread reads a donated argument's value before the call gives its buffer
                # away, or finds it donated, never the consumed buffer
                with donation_lock:
                    try:
                        outs = run(bufs).consume_with_handlers(handlers)
                    except _RUNTIME_ERROR as e:
                        outs = _run_unsharded(run, bufs, handlers, name, e)
                    for x, d in zip(leaves, donated):
                        if d and type(x) is _ARRAY:
                            mark_donated(x)
            if aliased and outs and not outs[0].is_ready():
                _block(outs)
            return outs

        def call_flat(leaves):
            """Run on flat arguments (eager Arrays, NumPy arrays, scalars); a list of eager
            Arrays that keep their device buffers."""
            return [device_array(b, w, a) for (w, a), b in zip(out_meta, execute(leaves))]

        self.call_flat = call_flat
        self.call_single = None
        if len(out_meta) == 1:
            (w0, a0), = out_meta

            def call_single(leaves):
                """``call_flat(leaves)[0]`` for an executable with exactly one output."""
                out = _ARRAY(None, w0, execute(leaves)[0], a0)
                out._read = _HOST_OF
                return out

            self.call_single = call_single

    def hot_caller(self, guard, fallback, build=None, int_bounds=None):
        """The last-hit check of ``guard`` (``jit_hot.Guard``) and the cached call in one
        function of ``(args, kwargs)``: ``MISS`` for a call that does not match, else the
        executable run on the leaves' device buffers (a jit output's, or the buffer
        aliasing an eager array's memory; a Python scalar's cached buffer from
        ``Client.put_scalar``), returning ``build(outputs)`` (``build=None``: the one
        output); ``fallback(leaves)`` when a leaf has no such buffer or is a Python int
        outside its ``int_bounds`` (``{leaf: (lo, hi)}``). Its source is the guard's lines
        followed by straight-line code per leaf kind, generated once per layout: it is
        the hot path of a cached jitted call. None when an argument is donated."""
        if self._any_donated:
            return None
        single = build is None
        if single and len(self._out_meta) != 1:
            raise ValueError(f"hot_caller of {self._name}: build=None needs exactly one "
                             f"output, the executable has {len(self._out_meta)}")
        kinds = guard.kinds
        bounds = int_bounds or {}
        bounded = tuple(i for i, k in enumerate(kinds) if k is int and i in bounds)
        n_live = len(self._live)
        key = (guard.key, kinds, bounded, bool(self._const_bufs), single, n_live)
        make = _HOT_CALLERS.get(key)
        if make is None:
            if len(_HOT_CALLERS) >= 256:
                _HOT_CALLERS.clear()
            make = _HOT_CALLERS[key] = _hot_caller_maker(guard, bounded, bool(self._const_bufs),
                                                          single, n_live)
        (w0, a0), = self._out_meta if single else ((None, None),)
        dtypes = tuple(None if k is None else a.dtype for k, a in zip(kinds, self._in_avals))
        return make(guard.values, self._run, self._handlers, self._const_bufs, self._name,
                    fallback, w0, a0, build, self._out_meta, self._client._scalars, dtypes,
                    tuple(bounds[i] for i in bounded), self._live)


# (layout, leaf kinds, bounded ints, has constants, one output, closed-over arrays) -> the
# maker of hot_caller's function
_HOT_CALLERS: dict = {}


def _hot_caller_maker(guard, bounded, consts: bool, single: bool, n_live: int = 0):
    leaves = guard.leaves
    n = len(leaves)
    packed = f"({''.join(x + ', ' for x in leaves)})"
    lines = ["def make(V, run, handlers, consts, name, fallback, w0, a0, build, meta, SC, D, BND,"
             " LIVE):"]
    if n_live:
        lines.append(f"    ({''.join(f'LV{j}, ' for j in range(n_live))}) = LIVE")
    if guard.names:
        lines.append(f"    ({''.join(x + ', ' for x in guard.names)}) = V")
    if n:
        lines.append(f"    ({''.join(f'd{i}, ' for i in range(n))}) = D")
    if bounded:
        lines.append(f"    ({''.join(f'(lo{i}, hi{i}), ' for i in bounded)}) = BND")
    lines += ["    def call(args, kwargs):", *guard.lines]
    for j in range(n_live):  # the closed-over arrays: their current buffers, at each call
        lines += [f"        CB{j} = LV{j}._dev",  # names apart from the guard's (l0, k0, ...)
                  f"        if CB{j} is None:",
                  f"            CB{j} = LV{j}._host_memo",
                  f"        if type(CB{j}) is not B:",
                  f"            return fallback({packed})"]
    for i, (x, kind) in enumerate(zip(leaves, guard.kinds)):
        if kind is None:  # an Array
            lines += [f"        b{i} = {x}._dev",
                      f"        if b{i} is None:",
                      f"            b{i} = {x}._host_memo",
                      f"        if type(b{i}) is not B:  # None, DONATED, NO_ALIAS",
                      f"            return fallback({packed})"]
        else:  # a Python scalar of type k{i}: its cached buffer
            if i in bounded:
                lines += [f"        if not lo{i} <= {x} <= hi{i}:",
                          f"            return fallback({packed})"]
            lines += [f"        b{i} = SC.get((k{i}, {x}, d{i}))",
                      f"        if b{i} is None:",
                      f"            return fallback({packed})"]
    b = ", ".join([*(f"CB{j}" for j in range(n_live)), *(f"b{i}" for i in range(n))])
    lines += [f"        bufs = [*consts, {b}]" if consts else f"        bufs = [{b}]",
              "        try:",
              "            outs = run(bufs).consume_with_handlers(handlers)",
              "        except RUNTIME_ERROR as e:",
              "            outs = run_unsharded(run, bufs, handlers, name, e)"]
    if single:  # device_array's body, inline
        lines += ["        out = A(None, w0, outs[0], a0)", "        out._read = HOST_OF",
                  "        return out"]
    else:
        lines.append("        return build([device_array(o, w, a) for (w, a), o in zip(meta, outs)])")
    lines.append("    return call")
    names = {**_jit_hot.GLOBALS, "A": _ARRAY, "HOST_OF": _HOST_OF, "B": _BUFFER,
             "RUNTIME_ERROR": _RUNTIME_ERROR, "device_array": _dv.device_array,
             "run_unsharded": _run_unsharded}
    exec("\n".join(lines), names)  # noqa: S102  (built from the layout: types, keys, names)
    return names["make"]


_ARRAY = core.Array
_HOST_OF = _dv.host_of
_DONATED = _dv.DONATED


def _check_donated_once(bufs, donated, name: str) -> None:
    """A donated buffer is not also another argument of the same call (one array passed
    twice, donated at least once): XLA would be handed memory it may overwrite."""
    for i, (b, d) in enumerate(zip(bufs, donated)):
        if d:
            for j, c in enumerate(bufs):
                if j != i and c is b:
                    raise ValueError(
                        f"xnp.jit: {name} is called with one array as flat arguments {min(i, j)} "
                        f"and {max(i, j)}, and donates it (donate_argnums): a donated buffer "
                        "must be passed once. Pass a copy (x.copy()) as the other argument.")


def _donor_buffer(client, name: str, x, buf, pos: int):
    """The buffer donated for argument ``pos``, eager Array ``x`` with a host value, whose
    buffer is ``buf``: ``buf``, or a copy when other objects still read the memory ``buf``
    holds (a NumPy view, ``memoryview(x)``, ctypes' ``from_buffer``, an array sharing it).
    They keep that memory alive after ``x`` is marked donated, and the copy keeps XLA from
    writing the result into it: they go on reading the old values."""
    v = x._v
    if x._dev is not None:  # a jit output whose read-only host view is v
        if _getrefcount(v) <= 1 + _LOCAL_REFS:  # x's slot, this local
            return buf
    elif buf is not x._host_memo:  # a copy made for this call: its own memory
        return buf
    elif _getrefcount(v) <= 2 + _LOCAL_REFS:  # x's slot, the aliasing buffer, this local
        base = v.base  # v is a view: of an owner that v alone holds, or shared
        if base is None or (type(base) is _NDARRAY and base.flags.owndata
                            and _getrefcount(base) <= 1 + _LOCAL_REFS):
            return buf
    if _OPTIONS["log_transfers"]:
        _log_copy(name, pos, v, "it is donated, but another object still reads its memory (a "
                  "NumPy view, memoryview, ctypes' from_buffer or an array sharing it) and "
                  "keeps the old values; only the array is invalidated")
    return client.put(v)


class _Slot:
    __slots__ = ("v",)


def _local_refs() -> int:
    """The references ``sys.getrefcount(v)`` counts for ``v`` read from a slot into a local,
    less the slot's (2 on CPython 3.11: the local and the argument; measured, as borrowed
    references change it between versions)."""
    holder = _Slot()
    holder.v = object()
    v = holder.v
    return _getrefcount(v) - 1


_getrefcount = _sys.getrefcount
_LOCAL_REFS = _local_refs()
_NO_ALIAS = _dv.NO_ALIAS
_BUFFER = _jax.ArrayImpl  # a device buffer
_SCALAR_TYPES = (int, float, complex, bool)
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
    what = f"argument {pos}" if pos >= 0 else f"closed-over array {-1 - pos}"
    print(f"xnp: jitted {name}: {what} ({v.dtype.name}{list(v.shape)}) is copied to "
          f"the device: {reason}", file=_sys.stderr)


_NDARRAY = _np.ndarray
_asarray = _np.asarray
