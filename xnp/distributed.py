"""Several processes running one SPMD program, JAX's multi-process model.

``xnp.distributed.initialize(coordinator_address, num_processes, process_id)``, called in
every process before xnp first uses its XLA backend, joins jaxlib's distributed runtime:
process 0 starts the coordination service at ``coordinator_address``, every process
connects a runtime client to it, and the CPU client is then created with that client
(its key-value store exchanges the device lists) and gloo TCP collectives, so that the
collectives of a program run across processes.

Afterwards ``xnp.devices()`` lists every process's devices (``device.process_index``
says whose), ``xnp.local_devices()`` this process's, and a :class:`xnp.sharding.Mesh`
may span all of them. Each process runs the same jitted program on its own devices'
shards: build the inputs with :func:`make_array_from_process_local_data` (each process
passes its part of the global array) or :func:`make_array_from_single_device_arrays`; a
result's ``addressable_shards`` are this process's; ``numpy.asarray`` of an array with
shards elsewhere raises ``RuntimeError`` (collect it with :func:`process_allgather`).

Only the CPU platform joins the runtime; each process has ``XNP_NUM_CPU_DEVICES``
devices (the same number in every process).
"""

from __future__ import annotations

import atexit
import numbers

import numpy as np

from xnp.backends.xla import client as _client
from xnp.backends.xla import device_value as _dv
from xnp.backends.xla import sharding as _xs
from xnp import sharding as _sharding
from xnp.tracing import core
from xnp.tracing import pytree
from xnp.tracing.jit import jit

__all__ = ["initialize", "shutdown", "is_initialized", "process_index", "process_count",
           "local_devices", "local_device_count", "device_count",
           "make_array_from_process_local_data", "make_array_from_single_device_arrays",
           "process_allgather"]

_STATE: dict = {}  # "num_processes", "process_id", "coordinator_address" while initialized
_ATEXIT: list = []


def _check_count(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"xnp.distributed.initialize: `{name}` must be an int >= {low}, "
                         f"got {value!r}.")
    return int(value)


def _check_seconds(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(f"xnp.distributed.initialize: `{name}` must be a positive number of "
                         f"seconds, got {value!r}.")
    return float(value)


def initialize(coordinator_address: str, num_processes: int, process_id: int, *,
               local_device_ids=None, initialization_timeout: float = 60,
               heartbeat_timeout: float = 100, shutdown_timeout: float = 300,
               coordinator_bind_address: str | None = None) -> None:
    """Join this process to a group of ``num_processes`` processes running one program.

    Follows ``jax.distributed.initialize`` (arguments given explicitly; nothing is
    detected from a cluster environment). Call it once in every process, with the same
    ``coordinator_address`` and ``num_processes`` and a distinct ``process_id``, before
    anything uses xnp's XLA backend (``xnp.jit``, ``xnp.devices()``, ``xnp.device_put``).
    It returns when all processes have connected. :func:`shutdown` runs at exit.

    Parameters
    ----------
    coordinator_address : str
        ``'host:port'`` of the coordination service, which process 0 starts; the other
        processes connect to it. A loopback host (``127.0.0.1``, ``localhost``, ``::1``)
        keeps the collectives on the loopback interface too.
    num_processes : int
        Number of processes, >= 1.
    process_id : int
        This process's index, ``0 <= process_id < num_processes``.
    local_device_ids : None
        Selects the accelerators a process uses; xnp's distributed runtime runs on CPU
        devices (``XNP_NUM_CPU_DEVICES`` per process), so only None is accepted.
    initialization_timeout : float
        Seconds to wait for the coordinator to accept a connection and for every process
        to register (default 60). Rounded up to whole seconds; registering may take
        about 5 s longer than this.
    heartbeat_timeout : float
        Seconds without a heartbeat after which a process counts as dead (default 100).
        A dead process makes the others terminate (their collectives could not finish).
    shutdown_timeout : float
        Seconds :func:`shutdown` waits for every process to reach it (default 300).
    coordinator_bind_address : str, optional
        Where process 0's service listens (default ``coordinator_address``), e.g.
        ``'[::]:1234'`` for every interface.

    Raises
    ------
    RuntimeError
        xnp's XLA backend is already in use in this process (its devices are fixed), or
        ``initialize`` was already called.
    ValueError
        An argument is malformed or ``process_id`` is out of range.
    NotImplementedError
        ``local_device_ids`` is given.
    TimeoutError
        No coordinator accepted a connection within ``initialization_timeout``.
    ConnectionError
        The coordinator was reached, but the processes did not all register in time.
    """
    fun = "xnp.distributed.initialize"
    if _STATE:
        raise RuntimeError(f"{fun}: already initialized (process {_STATE['process_id']} of "
                           f"{_STATE['num_processes']}); call it once per process.")
    host, sep, port = (coordinator_address.rpartition(":")
                       if isinstance(coordinator_address, str) else ("", "", ""))
    if not (host and sep and port.isdigit()):
        raise ValueError(f"{fun}: `coordinator_address` must be a 'host:port' string, got "
                         f"{coordinator_address!r}.")
    num_processes = _check_count("num_processes", num_processes, 1)
    process_id = _check_count("process_id", process_id, 0)
    if process_id >= num_processes:
        raise ValueError(f"{fun}: `process_id` {process_id} is out of range for "
                         f"num_processes={num_processes} (0 <= process_id < num_processes).")
    if local_device_ids is not None:
        raise NotImplementedError(
            f"{fun}: `local_device_ids` selects the accelerators each process uses; xnp's "
            "distributed runtime runs on CPU devices only. Set the number of CPU devices per "
            "process with XNP_NUM_CPU_DEVICES instead.")
    init_s = _check_seconds("initialization_timeout", initialization_timeout)
    beat_s = _check_seconds("heartbeat_timeout", heartbeat_timeout)
    down_s = _check_seconds("shutdown_timeout", shutdown_timeout)
    if _client.client_created():
        raise RuntimeError(
            f"{fun} must be called before xnp first uses its XLA backend, but this process "
            "has already created it (by xnp.jit, xnp.devices(), xnp.device_put or an XLA "
            "computation), so its devices are fixed. Fix: call xnp.distributed.initialize(...) "
            "at the start of the program, before any other xnp call that runs on XLA.")
    try:
        _client.start_distributed(
            coordinator_address, num_processes, process_id,
            bind_address=coordinator_bind_address, initialization_timeout=_whole(init_s),
            heartbeat_timeout=_whole(beat_s), shutdown_timeout=_whole(down_s))
    except TimeoutError as e:
        raise TimeoutError(
            f"{fun}: process {process_id} could not reach the coordinator: {e}. Process 0 "
            "starts it; check that process 0 runs and that every process uses the same "
            "`coordinator_address`, or raise `initialization_timeout`.") from None
    except ConnectionError as e:
        raise ConnectionError(
            f"{fun}: process {process_id} of {num_processes}: {e}. All {num_processes} "
            "processes must call initialize with the same coordinator_address and "
            "num_processes and distinct process_ids within initialization_timeout.") from None
    _STATE.update(num_processes=num_processes, process_id=process_id,
                  coordinator_address=coordinator_address)
    if not _ATEXIT:
        atexit.register(shutdown)
        _ATEXIT.append(True)


def _whole(seconds: float) -> int:
    return max(1, int(np.ceil(seconds)))


def shutdown() -> None:
    """Leave the group: disconnect from the coordination service (waiting, up to
    ``shutdown_timeout``, until every process has called ``shutdown``) and, in process 0,
    stop the service. Runs at exit if not called; a no-op when not initialized.

    Collectives across processes cannot run afterwards; the XLA backend keeps the devices
    it was created with.
    """
    if not _STATE:
        return
    _STATE.clear()
    _client.stop_distributed()


def is_initialized() -> bool:
    """Whether :func:`initialize` has run (and :func:`shutdown` has not)."""
    return bool(_STATE)


def process_index() -> int:
    """This process's index in the group (``process_id``); 0 when not initialized."""
    return _STATE.get("process_id", 0)


def process_count() -> int:
    """Number of processes in the group; 1 when not initialized."""
    return _STATE.get("num_processes", 1)


def local_devices() -> list:
    """This process's XLA devices (``xnp.devices()`` lists every process's)."""
    return _xs.local_devices()


def local_device_count() -> int:
    """``len(xnp.local_devices())``."""
    return len(_xs.local_devices())


def device_count() -> int:
    """Number of devices over all processes, ``len(xnp.devices())``."""
    return len(_xs.devices())


def _check_sharding(fun: str, sharding) -> None:
    if not isinstance(sharding, _sharding.Sharding):
        raise TypeError(f"{fun}: `sharding` must be an xnp.sharding.Sharding, got "
                        f"{type(sharding).__name__}.")


def _host(x) -> np.ndarray:
    if isinstance(x, core.Tracer):
        raise TypeError("xnp.distributed: got a traced value; build global arrays outside "
                        "jit and pass them to the jitted function.")
    if type(x) is core.Array:
        return np.asarray(x._value)
    return np.asarray(x)


def make_array_from_process_local_data(sharding, local_data, global_shape=None):
    """A global array laid out by ``sharding`` from this process's part of it.

    Follows ``jax.make_array_from_process_local_data``. Each process passes the block of
    the global array its devices hold: along a dimension that ``sharding`` splits into
    ``t`` shards of which this process's devices hold ``k`` consecutive ones,
    ``local_data`` has ``k / t`` of the global size; along the other dimensions its size is
    the global one (a fully replicated sharding: every process passes the whole array,
    the same everywhere).

    Parameters
    ----------
    sharding : xnp.sharding.Sharding
        Usually a ``NamedSharding`` over a mesh of every process's devices.
    local_data : array_like
        This process's block; its dtype is the result's.
    global_shape : tuple of int, optional
        The global shape; inferred from ``local_data.shape`` and the sharding if omitted.

    Returns
    -------
    Array
        Shape ``global_shape``; ``addressable_shards`` are this process's devices' shards.

    Raises
    ------
    ValueError
        The local block does not match ``global_shape`` or the sharding (sizes not
        divisible, or this process's devices do not hold one rectangular block).
    TypeError
        ``sharding`` is not an xnp sharding, or ``local_data`` is traced.
    """
    fun = "xnp.make_array_from_process_local_data"
    _check_sharding(fun, sharding)
    local = _host(local_data)
    spec = sharding._hlo(local.ndim)
    if not any(_xs.is_local(i) for i in spec.device_ids):
        raise ValueError(f"{fun}: {sharding!r} has no device in this process "
                         f"({_xs.local_devices()}).")
    what = f"{np.dtype(local.dtype).name}{list(local.shape)}"
    if spec.tiles is None:
        block = [(0, 1, 1)] * local.ndim  # (first tile, tiles held, tile count) per dim
    else:
        block = _local_block(fun, spec, repr(sharding))
    shape = []
    for d, (n, (_, k, t)) in enumerate(zip(local.shape, block)):
        if n % k:
            raise ValueError(f"{fun}: dimension {d} of the local data {what} (size {n}) does "
                             f"not split into the {k} shards this process's devices hold.")
        shape.append(n // k * t)
    if global_shape is not None:
        global_shape = tuple(int(n) for n in global_shape)
        if len(global_shape) != local.ndim or any(
                g * k != n * t for g, n, (_, k, t) in zip(global_shape, local.shape, block)):
            raise ValueError(f"{fun}: local data {what} is not this process's part of a "
                             f"{global_shape} array under {sharding!r} (that part would be "
                             f"{_local_shape(global_shape, block)}).")
    _xs.check_divisible(fun, shape, local.dtype, spec, repr(sharding))
    pieces = {}
    for i, ix in zip(spec.device_ids, spec.indices(shape)):
        if _xs.is_local(i):
            rel = tuple(slice(s.start - first * (n // t), s.stop - first * (n // t))
                        for s, n, (first, _, t) in zip(ix, shape, block))
            pieces[i] = _xs.put_on(np.asarray(local[rel], order="C"), i, False)
    buf = _xs.assemble(tuple(shape), local.dtype, spec, pieces)
    _xs.label(spec, sharding)
    return _dv.device_array(buf)


def _local_shape(global_shape, block) -> tuple:
    return tuple(g * k // t for g, (_, k, t) in zip(global_shape, block))


def _local_block(fun: str, spec, what: str) -> list:
    """Per dimension ``(first tile, tiles held, tile count)`` of the tiles this process's
    devices hold under ``spec``; ``ValueError`` unless they form one rectangular block."""
    tiles = list(spec.tiles)
    positions = list(np.ndindex(*tiles))
    held = set()
    for flat, pos in enumerate(positions):
        for r in range(spec.replicas):
            if _xs.is_local(spec.device_ids[spec.order[flat * spec.replicas + r]]):
                held.add(pos)
    block = []
    for d, t in enumerate(tiles):
        starts = sorted({pos[d] for pos in held})
        block.append((starts[0], len(starts), t))
        if starts[-1] - starts[0] + 1 != len(starts):
            raise ValueError(f"{fun}: this process's devices hold tiles {starts} of dimension "
                             f"{d} under {what}, not consecutive ones; order the mesh's "
                             "devices so that each process's devices are adjacent.")
    if len(held) != int(np.prod([k for _, k, _ in block], dtype=np.int64)):
        raise ValueError(f"{fun}: this process's devices do not hold one rectangular block "
                         f"of the array under {what}; order the mesh's devices so that each "
                         "process's devices form a sub-grid.")
    return block


def make_array_from_single_device_arrays(shape, sharding, arrays):
    """A global array of ``shape`` laid out by ``sharding`` from this process's shards.

    Follows ``jax.make_array_from_single_device_arrays``: ``arrays`` holds one xnp array
    per device of ``sharding`` in this process (e.g. made by ``xnp.device_put(block,
    device)``, or another array's ``addressable_shards[i].data``), each of the shard shape
    and on that device; the devices are taken from the arrays, in any order.

    Raises
    ------
    ValueError
        An array is on a device the sharding does not hold in this process, two arrays
        are on one device, a device has none, or a shape or dtype does not match.
    TypeError
        ``sharding`` is not an xnp sharding.
    """
    fun = "xnp.make_array_from_single_device_arrays"
    _check_sharding(fun, sharding)
    shape = tuple(int(n) for n in shape)
    spec = sharding._hlo(len(shape))
    _xs.check_divisible(fun, shape, np.float64, spec, repr(sharding))
    want = {i: ix for i, ix in zip(spec.device_ids, spec.indices(shape)) if _xs.is_local(i)}
    arrays = list(arrays)
    dtypes = {np.dtype(a.dtype) for a in arrays}
    if len(dtypes) > 1:
        raise ValueError(f"{fun}: the arrays have different dtypes: "
                         f"{sorted(d.name for d in dtypes)}.")
    pieces = {}
    for a in arrays:
        dev = _sharding.sharding_of(a)
        if not isinstance(dev, _sharding.SingleDeviceSharding):
            raise ValueError(f"{fun}: each array must be on one device, got one laid out by "
                             f"{dev!r}.")
        i = dev.device.id
        if i not in want:
            raise ValueError(f"{fun}: an array is on {dev.device!r}, which is not one of "
                             f"{sharding!r}'s devices in this process "
                             f"({[_xs._device_by_id(j) for j in want]}).")
        if i in pieces:
            raise ValueError(f"{fun}: two arrays are on {dev.device!r}.")
        shard_shape = tuple(s.stop - s.start for s in want[i])
        if tuple(a.shape) != shard_shape:
            raise ValueError(f"{fun}: the array on {dev.device!r} is "
                             f"{np.dtype(a.dtype).name}{list(a.shape)}, but its shard of "
                             f"{list(shape)} under {sharding!r} has shape {shard_shape}.")
        buf = _dv.buffer_of(a)
        if buf is None:
            buf = _xs.put_on(np.asarray(_host(a), order="C"), i, False)
        pieces[i] = buf
    missing = [_xs._device_by_id(i) for i in want if i not in pieces]
    if missing:
        raise ValueError(f"{fun}: no array for devices {missing} of {sharding!r}.")
    (dtype,) = dtypes
    out = _xs.assemble(shape, dtype, spec, pieces)
    _xs.label(spec, sharding)
    return _dv.device_array(out)


def process_allgather(x, tiled: bool = False):
    """Every process's data, on the host of every process (a NumPy array per leaf).

    Follows ``jax.experimental.multihost_utils.process_allgather``; ``x`` is a pytree.
    A leaf that is a global array with shards on other processes' devices (laid out by a
    ``NamedSharding``) comes back whole. Any other leaf is this process's own value (the
    same shape and dtype in every process): the processes' values are stacked along a new
    first axis in process order, or with ``tiled`` concatenated along axis 0.

    Call it in every process (it runs a program across them).

    Raises
    ------
    NotImplementedError
        A global array laid out by a sharding XLA chose (give ``jit`` its
        ``out_shardings``).
    ValueError
        The processes have different numbers of devices (stacking needs equal ones), or
        ``tiled`` with a 0-d value.
    """
    leaves, treedef = pytree.tree_flatten(x)
    return pytree.tree_unflatten(treedef, [_allgather_leaf(v, tiled) for v in leaves])


def _allgather_leaf(v, tiled: bool) -> np.ndarray:
    fun = "xnp.distributed.process_allgather"
    buf = _dv.buffer_of(v)
    if buf is not None and not _xs.is_fully_addressable(buf):
        sharding = v.sharding
        if not isinstance(sharding, _sharding.NamedSharding):
            raise NotImplementedError(
                f"{fun}: the array is laid out by {sharding!r}, a layout XLA chose; give the "
                "jitted function that made it `out_shardings` (a NamedSharding).")
        return _replicated(sharding, v)
    local = _host(v)
    if tiled and local.ndim == 0:
        raise ValueError(f"{fun}: tiled=True concatenates along axis 0, but the value is "
                         f"0-d ({np.dtype(local.dtype).name}[]).")
    n = process_count()
    if n == 1:
        return local.copy() if tiled else local[None].copy()
    devs = _xs.devices()
    per = [[d for d in devs if d.process_index == p] for p in range(n)]
    if len({len(p) for p in per}) != 1:
        raise ValueError(f"{fun}: the processes have different numbers of devices "
                         f"({[len(p) for p in per]}); stacking needs equal ones.")
    mesh = _sharding.Mesh(np.array(per, dtype=object), ("processes", "local"))
    stacked = make_array_from_process_local_data(
        _sharding.NamedSharding(mesh, _sharding.PartitionSpec("processes")), local[None])
    out = _replicated(stacked.sharding, stacked)
    return out.reshape((-1,) + out.shape[2:]) if tiled else out


def _replicated(sharding, v) -> np.ndarray:
    """``v`` (laid out by NamedSharding ``sharding``) copied whole to every device by one
    program across the processes, read from this process's first shard."""
    f = _COPIES.get(sharding)
    if f is None:
        if len(_COPIES) >= 64:
            _COPIES.clear()
        replicated = _sharding.NamedSharding(sharding.mesh, _sharding.PartitionSpec())
        f = _COPIES[sharding] = jit(_copy, in_shardings=sharding, out_shardings=replicated)
    whole = f(v)
    return np.array(whole.addressable_shards[0].data._value)


def _copy(a):
    return a


_COPIES: dict = {}  # sharding -> the jitted copy that replicates arrays laid out so
