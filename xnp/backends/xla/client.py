"""The only module that drives jaxlib's PJRT runtime: client creation, compile,
host->device puts, execution and device->host reads (docs/architecture.md, "jaxlib
conventions used by `backends/xla`").

jaxlib's Python surface moves between releases; version differences are
handled here and nowhere else.
"""

from __future__ import annotations

import gc
import math
import os
import socket
import threading
import time
from typing import NoReturn

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import jaxlib  # noqa: E402
import jaxlib.cpu_feature_guard as _cpu_feature_guard  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jaxlib import _jax  # noqa: E402
from jaxlib import xla_client as xc  # noqa: E402

from xnp import _default_dtypes
from xnp import config  # noqa: E402
from xnp.backends.xla import callbacks as _callbacks  # noqa: E402
from xnp.backends.xla import compile_cache, mlir  # noqa: E402
from xnp.tracing import core, sizes  # noqa: E402

__all__ = ["Client", "get_client", "JAXLIB_VERSION", "XlaRuntimeError", "available_platforms",
           "to_host", "compile_options", "register_lapack", "raise_runtime_error",
           "client_created", "start_distributed", "stop_distributed", "distributed_info"]

JAXLIB_VERSION = tuple(int(p) for p in jaxlib.__version__.split(".")[:3])
XlaRuntimeError = getattr(_jax, "XlaRuntimeError", RuntimeError)

# dtypes whose host view through the buffer protocol is wrong (object arrays)
_NEEDS_EXPLICIT_D2H = frozenset(np.dtype(t) for t in (
    ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))

if not hasattr(xc.SingleDeviceSharding, "_to_xla_hlo_sharding"):  # jaxlib 0.10.x only
    xc.SingleDeviceSharding._to_xla_hlo_sharding = lambda self, nd: xc.HloSharding.replicate()


class _PutAval:
    """The aval object jaxlib stores on a buffer (needs shape, dtype, weak_type)."""

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = weak_type


# PJRT plugin packages: platform -> (namespace module, shared library name)
_PLUGINS = {
    "cuda": [("jax_plugins.xla_cuda13", "xla_cuda_plugin.so"),
             ("jax_plugins.xla_cuda12", "xla_cuda_plugin.so")],
}


def _find_plugin(platform: str):
    """Path of an installed PJRT plugin library for ``platform``, or None.

    Found with ``importlib.util.find_spec`` so the plugin package's ``__init__``
    (which imports the jax package) never runs.
    """
    import importlib.util  # noqa: PLC0415

    for module, libname in _PLUGINS.get(platform, ()):
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.submodule_search_locations:
            continue
        path = os.path.join(list(spec.submodule_search_locations)[0], libname)
        if os.path.exists(path):
            return path
    return None


def available_platforms() -> list[str]:
    """``["cpu"]`` plus every platform whose PJRT plugin is installed (not yet initialised)."""
    return ["cpu"] + [p for p in _PLUGINS if _find_plugin(p) is not None]


def _make_plugin_client(platform: str):
    # The protocol of docs/architecture.md, "PJRT plugins": load the library, initialise
    # it once, make a C-API client with the GPU plugin options.
    path = _find_plugin(platform)
    if path is None:
        raise RuntimeError(f"xnp: no PJRT plugin for platform {platform!r} is installed "
                           "(pip install 'xnp[gpu]').")
    xc.load_pjrt_plugin_dynamically(platform, path)
    if not xc.pjrt_plugin_initialized(platform):
        xc.initialize_pjrt_plugin(platform)
    return xc.make_c_api_client(platform, xc.generate_pjrt_gpu_plugin_options())


class Client:
    """A PJRT client for one platform: ``cpu``, or ``cuda`` when its plugin is installed."""

    def __init__(self, platform: str = "cpu"):
        if platform == "cpu":
            _cpu_feature_guard.check_cpu_features()
            # Synchronous: a call runs on the calling thread, so XLA allocates its output
            # buffers there (in the main thread: from glibc's main heap, whose freed large
            # blocks are reused, see xnp.backends.numpy.allocator) instead of on a worker
            # thread, where every large output is a fresh mmap that faults page by page.
            # Calls whose inputs alias host memory must wait for their result anyway.
            n = config.get("num_cpu_devices")
            config.freeze("num_cpu_devices", "the XLA client")
            self.client = xc.make_cpu_client(asynchronous=False, num_devices=n,
                                             **_distributed_cpu_options())
        elif platform in _PLUGINS:
            self.client = _make_plugin_client(platform)
        else:
            raise ValueError(f"xnp: unknown XLA platform {platform!r}; known: cpu, "
                             + ", ".join(_PLUGINS))
        self.platform = platform
        # every process's devices (sharded programs use several); eager and one-device
        # programs run on this process's first device
        self.all_devices = tuple(self.client.devices())
        self.local_devices = tuple(self.client.local_devices())
        self.process_index = self.client.process_index()
        self.device = self.local_devices[0]
        self.devices = xc.DeviceList((self.device,))
        self.sharding = xc.SingleDeviceSharding(self.device)
        gc.callbacks.append(_collect_garbage)
        self._put_avals: dict = {}  # (shape, dtype) -> the aval object a put attaches
        self._scalars: dict = {}  # (type, value, dtype) -> device buffer of a Python scalar
        self._can_alias = platform == "cpu"
        self._aliased_bytes = 0
        self.memory_bytes = _device_memory(self.device)

    # -- compile
    def compile(self, module_text: str, compile_options=None, name: str = "fun", devices=None,
                callbacks=()):
        """Compile a StableHLO module (text) to a loaded executable, or reuse one.

        An equal module compiled before with equal options on the same devices comes
        from the in-process executable cache, or from the persistent compilation cache
        when the ``compilation_cache_dir`` option is set (``compile_cache``). ``devices``
        (a jaxlib ``DeviceList``) are the partitions of an SPMD program; default: device 0.

        ``callbacks``: the module's host callbacks (``LoweredModule.callbacks``), bound to
        the executable in index order (``callbacks.runtime_callables``). They are part
        of the in-memory cache key (by identity), so an executable calling one function
        is never handed to a program that must call another; a disk entry holds no
        callbacks and is loaded with the caller's (jaxlib rebinds them on deserialize).

        Raises
        ------
        NotImplementedError
            ``callbacks`` on a platform other than the CPU.
        ValueError
            The module does not parse.
        MemoryError
            Its outputs and temporaries (XLA's buffer assignment) need more bytes than
            the device has (:attr:`memory_bytes`); ``name`` is the jitted function's.
        XlaRuntimeError
            XLA rejects the module.
        """
        if self.platform == "cpu" and "lapack_" in module_text:
            register_lapack()  # LAPACK custom calls (xnp.lax decompositions) need the handlers
        opts = compile_options or xc.CompileOptions()
        devs = self.devices if devices is None else devices
        target = (jaxlib.__version__, self.platform, self.client.platform_version,
                  self.device.device_kind, tuple(d.id for d in devs))
        if not callbacks:
            return compile_cache.get_or_compile(
                module_text, opts.SerializeAsString(), target,
                build=lambda: self._fits(name, self.client.compile_and_load(
                    mlir.parse(module_text), devs, opts)),
                load=lambda blob: self._fits(name, self.client.deserialize_executable(
                    blob, devs, opts)))
        if self.platform != "cpu":
            raise NotImplementedError(
                f"xnp.jit of {name}: host callbacks (xnp.lax.io_callback, NumPy-style "
                f"xnp.random draws) run on the CPU backend only, not on {self.platform}.")
        host = _callbacks.runtime_callables(callbacks)
        return compile_cache.get_or_compile(
            module_text, opts.SerializeAsString(), target, callbacks=tuple(callbacks),
            build=lambda: self._fits(name, self.client.compile_and_load(
                mlir.parse(module_text), devs, opts, host_callbacks=host)),
            load=lambda blob: self._fits(name, self.client.deserialize_executable(
                blob, devs, opts, host_callbacks=host)))

    def _fits(self, name: str, exe):
        """``exe``, unless running it would allocate more than the device's memory: XLA
        would fail part-way (or, for some sizes, abort the process) instead."""
        stats = exe.get_compiled_memory_stats()
        needed = stats.output_size_in_bytes + stats.temp_size_in_bytes
        if needed > self.memory_bytes:
            fmt = sizes.format_bytes
            raise MemoryError(
                f"xnp.jit: `{name}` needs {fmt(needed)} of {self.platform} memory to run "
                f"(outputs {fmt(stats.output_size_in_bytes)}, temporaries "
                f"{fmt(stats.temp_size_in_bytes)}), more than the device's "
                f"{fmt(self.memory_bytes)}.")
        return exe

    # -- transfers
    def put(self, x: np.ndarray, zero_copy: bool = False):
        """A device buffer holding host array ``x``: a copy made now (the runtime's fast put
        path), or with ``zero_copy`` a buffer that may alias ``x``'s memory (see
        :meth:`alias`); the caller then keeps ``x`` unchanged while the buffer is in use."""
        key = (x.shape, x.dtype)
        pa = self._put_avals.get(key)
        if pa is None:
            if len(self._put_avals) >= _PUT_AVALS_KEPT:
                self._put_avals.clear()
            pa = self._put_avals[key] = _PutAval(x.shape, x.dtype)
        return xc.batched_device_put(pa, self.sharding, [x], [self.device], True, False,
                                     _ZERO_COPY if zero_copy else _COPY, enable_x64=True)

    def alias(self, x: np.ndarray):
        """A device buffer that aliases ``x``'s memory (no copy), or None.

        The CPU runtime aliases host memory that is C-contiguous, writable, 64-byte
        aligned and of a dtype it stores as NumPy does; otherwise it would copy,
        and None is returned (``copy_reason`` says why). Host writes into ``x`` are then
        visible to the buffer, so it stays valid as long as ``x`` is the array's storage.
        """
        flags = x.flags
        if (not self._can_alias or not flags.c_contiguous or not flags.writeable
                or x.dtype in _NOT_ALIASED or x.__array_interface__["data"][0] % 64):
            return None
        # exactly the runtime's rule for aliasing (asking the buffer for its address
        # instead would cost ~0.1 ms on a fresh buffer); tests check the addresses agree
        buf = self.put(x, zero_copy=True)
        self._aliased_bytes += x.nbytes
        if self._aliased_bytes > _COLLECT_AFTER_BYTES:
            # jaxlib drops a buffer's reference to the host array lazily, at its next
            # garbage collection: bound what dead aliases can keep alive
            self._aliased_bytes = 0
            _collect_garbage()
        return buf

    def put_scalar(self, x, dtype):
        """A device buffer holding Python scalar ``x`` as a 0-d ``dtype`` array; equal scalars
        (same type and value; not NaN, not a float zero, whose sign matters) share one
        cached buffer, so a Python-scalar argument costs no transfer per call."""
        key = (type(x), x, dtype)
        buf = self._scalars.get(key)
        if buf is None:
            buf = self.put(_default_dtypes.scalar_to_ndarray(x, dtype))
            if type(x) is not complex and x == x and (x != 0 or type(x) is not float):
                if len(self._scalars) >= 1024:
                    self._scalars.clear()
                self._scalars[key] = buf
        return buf

    def copy_reason(self, x) -> str:
        """Why :meth:`alias` gives None for host array ``x`` (for the ``log_transfers`` report)."""
        if not self._can_alias:
            return f"the {self.platform} device does not share host memory"
        if not x.flags.c_contiguous:
            return "not C-contiguous"
        if x.dtype in _NOT_ALIASED:
            return f"{x.dtype.name} is stored differently by XLA"
        if x.__array_interface__["data"][0] % 64:
            return ("its data is not 64-byte aligned (allocated outside xnp's aligned "
                    "allocator, e.g. in another thread, or an offset view)")
        if not x.flags.writeable:
            return "read-only"
        return "the runtime copied it"

    def result_handler(self, aval, sharding=None):
        """A new handler turning an output buffer of ``aval`` into an array (~2 us to make).

        Not cached here: the executable that asks keeps it and frees it with itself, so
        evicted executables leave nothing behind (a per-shape table would grow with every
        output shape ever compiled). ``sharding``: a jaxlib sharding for an output of an
        SPMD program (default: device 0)."""
        pa = _PutAval(aval.shape, aval.dtype, aval.weak_type)
        sh = self.sharding if sharding is None else sharding
        if JAXLIB_VERSION < (0, 11, 0):
            return xc.array_result_handler(pa, sh, True, _skip_checks=True)
        return xc.array_result_handler(pa, sh, True)

    @staticmethod
    def execute(executable, buffers, handlers, name: str = "fun"):
        try:
            return executable.execute_sharded(buffers).consume_with_handlers(handlers)
        except XlaRuntimeError as e:
            raise_runtime_error(name, e)


def to_host(buf) -> np.ndarray:
    """A read-only host view of a device buffer (zero-copy for standard dtypes on CPU).

    Raises
    ------
    RuntimeError
        The buffer was deleted (donated to a jitted call through another array).
    """
    if buf.is_deleted():
        raise RuntimeError("xnp: the device buffer behind this array has been deleted or donated.")
    if buf.aval.dtype in _NEEDS_EXPLICIT_D2H:
        if hasattr(buf, "_to_np_array_did_copy"):
            return buf._to_np_array_did_copy()[0]
        return buf._single_device_array_to_np_array_did_copy()[0]
    if type(buf._sharding) is not _SINGLE_DEVICE:
        return _gather(buf)  # a sharded array: assembled from its shards
    if buf.platform() != "cpu":
        # the buffer protocol is CPU-only; elsewhere np.asarray would give an object array
        return buf._single_device_array_to_np_array_did_copy()[0]
    return np.asarray(buf)


def _gather(buf) -> np.ndarray:
    return _GATHER[0](buf)


# set by xnp.backends.xla.sharding (which imports this module): assembles a sharded
# buffer's shards on the host
_GATHER: list = [None]


_SINGLE_DEVICE = xc.SingleDeviceSharding
_ZERO_COPY = xc.HostBufferSemantics.ZERO_COPY
_COPY = xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL
# 4-bit integers are packed two per byte on the device
_NOT_ALIASED = frozenset(np.dtype(t) for t in (ml_dtypes.int4, ml_dtypes.uint4))
_COLLECT_AFTER_BYTES = 256 << 20
# put avals kept for reuse (one per argument shape and dtype; cleared when full)
_PUT_AVALS_KEPT = 1024


def _device_memory(device) -> int:
    """Bytes an executable may allocate on ``device``: the host's (``sizes.machine_memory``)
    on CPU, the runtime's limit elsewhere."""
    if device.platform == "cpu":
        return sizes.machine_memory()
    stats = device.memory_stats() or {}
    return int(stats.get("bytes_limit") or sizes.machine_memory())


def raise_runtime_error(name: str, e: Exception) -> NoReturn:
    """Raise for runtime error ``e`` of jitted ``name``: the exception a host callback
    raised (``callbacks.pending_error``; a note names the callback and ``name``),
    ``MemoryError`` when the device ran out of memory (XLA's RESOURCE_EXHAUSTED), else
    ``e`` itself."""
    failed = _callbacks.pending_error(e)
    if failed is not None:
        exc, callback = failed
        exc.add_note(f"(raised by host callback `{callback}`, called by the compiled "
                     f"function `{name}`)")
        raise exc from None
    if "RESOURCE_EXHAUSTED" in str(e):
        raise MemoryError(f"xnp.jit: `{name}` ran out of device memory: {e}") from e
    raise e


def _collect_garbage(*_):
    try:
        _jax.collect_garbage()
    except BaseException:  # noqa: BLE001  (a gc callback must not raise, e.g. at interpreter exit)
        pass


_LAPACK_REGISTERED = [False]


def register_lapack() -> None:
    """Register jaxlib's typed-FFI LAPACK handlers (``lapack_*_ffi``) with the CPU platform
    and initialise them, once per process.

    The two steps stay together: a handler called before ``_lapack.initialize()`` (which
    fills its kernel pointers from ``scipy.linalg.cython_lapack``) crashes the process.
    """
    if _LAPACK_REGISTERED[0]:
        return
    from jaxlib.cpu import _lapack  # noqa: PLC0415  (imports scipy: ~0.2 s, so only on demand)

    for name, capsule in _lapack.registrations().items():
        xc.register_custom_call_target(name, capsule, platform="cpu", api_version=1)
    _lapack.initialize()
    _LAPACK_REGISTERED[0] = True


_CLIENTS: dict = {}
_CLIENTS_LOCK = threading.Lock()


def get_client(platform: str = "cpu") -> Client:
    """The process's one ``Client`` for ``platform``, created on first use.

    Creation runs once, under a lock: threads asking at the same time wait for it (two
    runtimes created concurrently crash the process, and buffers of one cannot be passed
    to executables of the other). Afterwards it is one dict lookup, without the lock.
    """
    c = _CLIENTS.get(platform)
    if c is None:
        with _CLIENTS_LOCK:
            c = _CLIENTS.get(platform)
            if c is None:
                c = _CLIENTS[platform] = Client(platform)
    return c


def compile_options(opt_level: int | None = None, device_ids=None):
    """XLA compile options; ``device_ids`` (several): an SPMD program partitioned by
    Shardy over those devices (one replica; partition ``i`` runs on ``device_ids[i]``)."""
    o = xc.CompileOptions()
    if opt_level is not None:
        o.executable_build_options.debug_options.xla_backend_optimization_level = opt_level
    if device_ids is not None and len(device_ids) > 1:
        num_partitions = len(device_ids)
        o.num_replicas = 1
        o.num_partitions = num_partitions
        bo = o.executable_build_options
        bo.use_spmd_partitioning = True
        bo.use_shardy_partitioner = True
        o.device_assignment = xc.DeviceAssignment.create(
            np.asarray(device_ids, dtype=np.int64).reshape(1, num_partitions))
    return o


# -- several processes: jaxlib's distributed runtime (coordination service + clients)

# set by start_distributed, read when the CPU client is created: "client" (the runtime
# client), "service" (process 0's coordination service), "node_id", "num_nodes",
# "loopback" (every process on this host), "timeout" (seconds)
_DISTRIBUTED: dict = {}


def client_created() -> bool:
    """Whether an XLA client exists in this process (its device set is then fixed)."""
    return bool(_CLIENTS)


def distributed_info() -> dict:
    """The running distributed runtime's settings (empty when none was started)."""
    return dict(_DISTRIBUTED)


def _split_address(address: str) -> tuple[str, int]:
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"xnp.distributed.initialize: `coordinator_address` must be "
                         f"'host:port', got {address!r}.")
    return host.strip("[]"), int(port)


def _is_loopback(host: str) -> bool:
    return host == "localhost" or host == "::1" or host.startswith("127.")


def _wait_reachable(host: str, port: int, deadline: float) -> bool:
    """Whether a TCP connection to ``host:port`` opens before ``deadline`` (monotonic)."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            with socket.create_connection((host, port), timeout=min(1.0, left)):
                return True
        except OSError:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))


def _ignore_runtime_error(*_):
    # Given instead of jaxlib's default error handler, which aborts the process. jaxlib
    # 0.10 cannot pass the error status to a Python handler (std::bad_cast), so this is
    # never reached: during connect the failed call surfaces as a RuntimeError there
    # (reported as ConnectionError below); after connecting, an error found by the
    # runtime's background poller (a process stopped sending heartbeats) still ends
    # this process, as the default handler would.
    return None


def start_distributed(coordinator_address: str, num_processes: int, process_id: int, *,
                      bind_address: str | None, initialization_timeout: int,
                      heartbeat_timeout: int, shutdown_timeout: int) -> None:
    """Start the coordination service (in process 0, listening on ``bind_address``, default
    ``coordinator_address``) and connect this process's runtime client to it.

    Blocks until all ``num_processes`` processes have connected, at most about
    ``initialization_timeout`` seconds. Must run before the CPU client is created: the
    client exchanges its devices with the other processes through the runtime.

    Raises
    ------
    TimeoutError
        The coordinator did not accept a connection within ``initialization_timeout``.
    ConnectionError
        The coordinator was reached but the processes did not all register in time.
    """
    host, port = _split_address(coordinator_address)
    deadline = time.monotonic() + initialization_timeout
    service = None
    if process_id == 0:
        service = _jax.get_distributed_runtime_service(
            bind_address or coordinator_address, num_processes,
            heartbeat_timeout=heartbeat_timeout, shutdown_timeout=shutdown_timeout)
    elif not _wait_reachable(host, port, deadline):
        raise TimeoutError(f"no coordinator accepted a connection at {coordinator_address} "
                           f"within {initialization_timeout} s")
    left = max(1, math.ceil(deadline - time.monotonic()))
    client = _jax.get_distributed_runtime_client(
        coordinator_address, process_id, init_timeout=left,
        heartbeat_timeout=heartbeat_timeout, shutdown_timeout=shutdown_timeout,
        missed_heartbeat_callback=_ignore_runtime_error, use_compression=True)
    try:
        client.connect()
    except Exception as e:  # noqa: BLE001  (jaxlib reports a failed registration as RuntimeError)
        if service is not None:
            service.shutdown()
        detail = "" if "bad_cast" in str(e) else f" ({e})"
        raise ConnectionError(f"registering with the coordination service at "
                              f"{coordinator_address} failed within {left} s{detail}") from None
    _DISTRIBUTED.update(client=client, service=service, node_id=process_id,
                        num_nodes=num_processes, loopback=_is_loopback(host),
                        timeout=initialization_timeout)


def stop_distributed() -> None:
    """Disconnect this process's runtime client (waiting, up to the shutdown timeout, for
    every process to disconnect) and stop process 0's coordination service."""
    client = _DISTRIBUTED.pop("client", None)
    service = _DISTRIBUTED.pop("service", None)
    _DISTRIBUTED.clear()
    if client is not None:
        client.shutdown()
    if service is not None:
        service.shutdown()


def _distributed_cpu_options() -> dict:
    """``make_cpu_client`` keywords that join the distributed runtime, if one was started:
    the runtime client, this process's node id and the node count, and gloo TCP
    collectives (on the loopback interface when the coordinator is on this host)."""
    client = _DISTRIBUTED.get("client")
    if client is None:
        return {}
    hostname = "127.0.0.1" if _DISTRIBUTED["loopback"] else None
    minutes = max(1, math.ceil(_DISTRIBUTED["timeout"] / 60))
    return dict(distributed_client=client, node_id=_DISTRIBUTED["node_id"],
                num_nodes=_DISTRIBUTED["num_nodes"],
                collectives=_jax.make_gloo_tcp_collectives(distributed_client=client,
                                                           hostname=hostname),
                get_local_topology_timeout_minutes=minutes,
                get_global_topology_timeout_minutes=minutes)
