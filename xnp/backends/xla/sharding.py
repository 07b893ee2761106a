"""Sharded arrays and SPMD executables on jaxlib's runtime: the backend half of
``xnp.sharding``.

A sharding is described here by plain data, a :class:`TileSpec`: the mesh (axis
names, sizes, device ids in mesh order) and, per array dimension, the mesh axes that
split it. From it come the three forms the runtime needs: XLA's HLO sharding (the
jaxlib ``GSPMDSharding`` that puts and result handlers take), the Shardy attribute
written into the module (``#sdy.sharding<@mesh, [...]>``) and each device's slice.

Programs are partitioned by XLA's Shardy partitioner, driven directly: the module
declares ``sdy.mesh @mesh`` and carries ``sdy.sharding`` on arguments/results and
``sdy.sharding_constraint`` ops; the compile options set ``num_partitions``,
``use_spmd_partitioning``, ``use_shardy_partitioner`` and a device assignment (one
replica, the mesh's devices as partitions). GSPMD (``mhlo.sharding``) also works on
jaxlib 0.10 but logs a deprecation warning on every compile.

An argument handed to an SPMD executable must have exactly the executable's input
sharding: a differently sharded buffer on the same number of devices crashes the
process (verified on jaxlib 0.10.2), so :class:`ShardedCompiled` checks each one and
re-shards through the host when it differs.
"""

from __future__ import annotations

import threading

import numpy as np
from jaxlib import xla_client as xc

from xnp.backends.xla import client as _client

__all__ = ["Device", "devices", "local_devices", "is_local", "TileSpec", "MeshSpec", "HloSpec",
           "put_sharded", "gather",
           "shards_of", "buffer_spec", "is_sharded_buffer", "hlo_spec", "label", "label_of",
           "check_divisible", "spec_from_op_sharding", "assemble", "is_fully_addressable",
           "is_held_here", "put_on"]


class Device:
    """One XLA device of the process's client (``xnp.devices()`` lists them)."""

    __slots__ = ("_dev", "id", "platform", "process_index")

    def __init__(self, dev):
        self._dev = dev
        self.id = dev.id
        self.platform = dev.platform
        self.process_index = dev.process_index  # the process that holds it (0 in one process)

    @property
    def device_kind(self) -> str:
        return self._dev.device_kind

    def __repr__(self):
        return f"{self.platform.capitalize()}Device(id={self.id})"

    def __eq__(self, other):
        if type(other) is Device:
            return other.id == self.id and other.platform == self.platform
        # the eager arrays' CPU device (xnp.array's, also equal to NumPy's "cpu") is device 0
        return self.id == 0 and self.platform == "cpu" and getattr(other, "id", None) == 0 and (
            getattr(other, "platform", None) == "cpu")

    def __hash__(self):
        return hash((self.platform, self.id))

    def __reduce__(self):
        return (_device_by_id, (self.id,))


_DEVICES: list = []


def devices() -> list[Device]:
    """The devices of the process's XLA client (creates the client on first use)."""
    if not _DEVICES:
        c = _client.get_client()
        _DEVICES[:] = [Device(d) for d in c.all_devices]
    return list(_DEVICES)


def local_devices() -> list[Device]:
    """The devices of this process (all of :func:`devices` unless several processes joined
    through ``xnp.distributed.initialize``)."""
    here = _client.get_client().process_index
    return [d for d in devices() if d.process_index == here]


def is_local(device_id: int) -> bool:
    """Whether the device with id ``device_id`` belongs to this process."""
    if not _LOCAL_IDS:
        _LOCAL_IDS.update(d.id for d in _client.get_client().local_devices)
    return device_id in _LOCAL_IDS


_LOCAL_IDS: set = set()  # ids of this process's devices (filled on first use)


def _device_by_id(i: int) -> Device:
    for d in devices():
        if d.id == i:
            return d
    raise ValueError(f"xnp: no device with id {i}; devices: {devices()}")


class MeshSpec:
    """A device mesh as plain data: axis names, axis sizes, device ids (mesh order)."""

    __slots__ = ("axis_names", "shape", "device_ids", "_key")

    def __init__(self, axis_names, shape, device_ids):
        self.axis_names = tuple(axis_names)
        self.shape = tuple(int(n) for n in shape)
        self.device_ids = tuple(int(i) for i in device_ids)
        self._key = (self.axis_names, self.shape, self.device_ids)

    def __eq__(self, other):
        return type(other) is MeshSpec and other._key == self._key

    def __hash__(self):
        return hash(self._key)

    @property
    def size(self) -> int:
        return len(self.device_ids)

    def sdy_text(self) -> str:
        """``sdy.mesh @mesh = <[...]>`` (device ids are positions in the mesh's device list,
        which is the executable's device assignment, so they are the default iota)."""
        axes = ", ".join(f'"{n}"={s}' for n, s in zip(self.axis_names, self.shape))
        return f"sdy.mesh @mesh = <[{axes}]>"


class TileSpec:
    """How an array of rank ``len(dims)`` is laid out on ``mesh``: ``dims[i]`` is the tuple
    of mesh axes (major first) splitting dimension ``i``; the other axes replicate it."""

    __slots__ = ("mesh", "dims", "_key", "_hlo")

    def __init__(self, mesh: MeshSpec, dims):
        self.mesh = mesh
        self.dims = tuple(tuple(d) for d in dims)
        self._key = (mesh, self.dims)
        self._hlo = None

    def __eq__(self, other):
        return type(other) is TileSpec and other._key == self._key

    def __hash__(self):
        return hash(self._key)

    def sdy_text(self) -> str:
        """The Shardy attribute, e.g. ``#sdy.sharding<@mesh, [{"x"}, {}]>``."""
        dims = ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in self.dims)
        return f"#sdy.sharding<@mesh, [{dims}]>"

    def hlo(self) -> "HloSpec":
        """The same layout as XLA's HLO sharding over the mesh's devices."""
        h = self._hlo
        if h is None:
            h = self._hlo = _tile_to_hlo(self)
        return h


class HloSpec:
    """An HLO sharding in canonical form over an ordered device list: ``tiles`` (tile
    counts per array dimension), ``order`` (the device position of each tile, row-major,
    ``replicas`` entries per tile) or ``None`` tiles for a fully replicated array."""

    __slots__ = ("device_ids", "tiles", "order", "replicas", "_key", "_jax")

    def __init__(self, device_ids, tiles, order, replicas):
        self.device_ids = tuple(device_ids)
        self.tiles = None if tiles is None else tuple(tiles)
        self.order = None if order is None else tuple(order)
        self.replicas = replicas
        self._key = (self.device_ids, self.tiles, self.order, replicas)
        self._jax = None

    def __eq__(self, other):
        return type(other) is HloSpec and other._key == self._key

    def __hash__(self):
        return hash(self._key)

    def text(self) -> str:
        if self.tiles is None:
            return "{replicated}"
        dims = list(self.tiles) + ([self.replicas] if self.replicas > 1 else [])
        tail = " last_tile_dim_replicate" if self.replicas > 1 else ""
        return ("{devices=[" + ",".join(map(str, dims)) + "]"
                + ",".join(map(str, self.order)) + tail + "}")

    def jax_sharding(self):
        """The jaxlib ``GSPMDSharding`` (one object per canonical spec, so buffers made
        with equal specs carry the identical object)."""
        s = self._jax
        if s is None:
            with _LOCK:
                s = _JAX_SHARDINGS.get(self._key)
                if s is None and len(self.device_ids) == 1:  # tiles are all 1
                    s = xc.SingleDeviceSharding(_jax_device(self.device_ids[0]))
                    _JAX_SHARDINGS[self._key] = s
                    _SPECS[s] = self
                elif s is None:
                    devs = xc.DeviceList(tuple(_jax_device(i) for i in self.device_ids))
                    s = xc.GSPMDSharding(devs, xc.HloSharding.from_string(self.text()))
                    _JAX_SHARDINGS[self._key] = s
                    _SPECS[s] = self
            self._jax = s
        return s

    def indices(self, shape) -> list[tuple[slice, ...]]:
        """Each device's slice of an array of ``shape``, in ``device_ids`` order."""
        n = len(self.device_ids)
        if self.tiles is None:
            return [tuple(slice(0, d) for d in shape)] * n
        out: list = [None] * n
        for flat, pos in enumerate(np.ndindex(*self.tiles)):  # row-major, as XLA numbers tiles
            idx = tuple(slice(p * (d // t), (p + 1) * (d // t))
                        for p, d, t in zip(pos, shape, self.tiles))
            for r in range(self.replicas):
                out[self.order[flat * self.replicas + r]] = idx
        return out

    def shard_shape(self, shape) -> tuple[int, ...]:
        if self.tiles is None:
            return tuple(shape)
        return tuple(d // t for d, t in zip(shape, self.tiles))


_LOCK = threading.Lock()
_JAX_SHARDINGS: dict = {}  # HloSpec key -> jaxlib GSPMDSharding
_SPECS: dict = {}  # jaxlib sharding -> HloSpec (for buffers made here)


def _jax_device(i: int):
    for d in _client.get_client().all_devices:
        if d.id == i:
            return d
    raise ValueError(f"xnp: no device with id {i}")


def _tile_to_hlo(spec: TileSpec) -> HloSpec:
    mesh = spec.mesh
    if not any(spec.dims):
        return HloSpec(mesh.device_ids, None, None, 1)
    names = mesh.axis_names
    used = [a for d in spec.dims for a in d]
    rest = [a for a in names if a not in used]
    perm = [names.index(a) for a in used + rest]
    grid = np.arange(mesh.size).reshape(mesh.shape).transpose(perm)
    size = dict(zip(names, mesh.shape))
    tiles = [int(np.prod([size[a] for a in d], dtype=np.int64)) for d in spec.dims]
    replicas = int(np.prod([size[a] for a in rest], dtype=np.int64))
    return HloSpec(mesh.device_ids, tiles, grid.reshape(-1).tolist(), replicas)


def hlo_spec(jax_sharding, ndim: int) -> HloSpec:
    """The canonical :class:`HloSpec` of a jaxlib sharding (a GSPMD or single-device one)."""
    s = _SPECS.get(jax_sharding)
    if s is not None:
        return s
    if isinstance(jax_sharding, xc.SingleDeviceSharding):
        return HloSpec((jax_sharding._device.id,), None, None, 1)
    ids = tuple(d.id for d in jax_sharding._devices)
    return _hlo_from_sharding(ids, jax_sharding._hlo_sharding, ndim)


def _hlo_from_sharding(device_ids, hs, ndim: int) -> HloSpec:
    if hs.is_replicated() or hs.is_maximal():
        return HloSpec(device_ids, None, None, 1)
    if hs.subgroup_types() and any(t != xc.OpSharding.Type.REPLICATED
                                   for t in hs.subgroup_types()):
        raise NotImplementedError(f"xnp: HLO sharding {hs} (manual or unreduced subgroups) "
                                  "cannot describe an array's layout")
    dims = list(hs.tile_assignment_dimensions())
    tiles, extra = dims[:ndim], dims[ndim:]
    replicas = int(np.prod(extra, dtype=np.int64)) if extra else 1
    return HloSpec(device_ids, tiles, list(hs.tile_assignment_devices()), replicas)


def spec_from_op_sharding(device_ids, op_sharding, ndim: int) -> HloSpec:
    """The :class:`HloSpec` of an executable's parameter/output sharding (an OpSharding)."""
    return _hlo_from_sharding(device_ids, xc.HloSharding.from_proto(op_sharding), ndim)


# the sharding objects (xnp.sharding's) last given for a canonical layout: what
# ``x.sharding`` returns for a buffer laid out so
_LABELS: dict = {}


def label(spec: HloSpec, sharding) -> None:
    """Remember ``sharding`` (a user-level object) as the name of layout ``spec``."""
    if len(_LABELS) > 4096:
        _LABELS.clear()
    _LABELS[spec] = sharding


def label_of(spec: HloSpec):
    """The sharding object last given for ``spec``, or None."""
    return _LABELS.get(spec)


def is_sharded_buffer(buf) -> bool:
    """Whether a device buffer spans more than one device."""
    return not isinstance(buf._sharding, xc.SingleDeviceSharding) and len(
        buf._sharding._devices) > 1


def buffer_spec(buf) -> HloSpec:
    """The :class:`HloSpec` of device buffer ``buf``."""
    return hlo_spec(buf._sharding, len(buf.aval.shape))


def check_divisible(fun: str, shape, dtype, spec: HloSpec, what: str) -> None:
    """``ValueError`` naming ``fun`` when ``shape`` does not split evenly over the tiles."""
    if spec.tiles is None:
        return
    if len(spec.tiles) != len(shape):
        raise ValueError(f"{fun}: {what} is for rank {len(spec.tiles)}, but the array is "
                         f"{np.dtype(dtype).name}{list(shape)} (rank {len(shape)}).")
    for i, (d, t) in enumerate(zip(shape, spec.tiles)):
        if d % t:
            raise ValueError(
                f"{fun}: dimension {i} of {np.dtype(dtype).name}{list(shape)} (size {d}) is "
                f"not divisible by the {t} shards {what} splits it into. Pad the array to a "
                f"multiple of {t}, or shard another dimension.")


def put_sharded(x: np.ndarray, spec: HloSpec, weak_type: bool = False):
    """A device buffer holding host array ``x`` laid out by ``spec``: each device's slice
    copied to it, assembled into one array of the spec's jaxlib sharding.

    Assembled with jaxlib's ``ArrayImpl`` constructor (``_skip_checks``: the pieces are
    already in the sharding's device order); ``batched_device_put`` with a
    partially replicated GSPMD sharding fails on jaxlib 0.10.2 (``bad_function_call``).
    """
    x = np.asarray(x)
    sharding = spec.jax_sharding()
    if isinstance(sharding, xc.SingleDeviceSharding):
        if not is_local(spec.device_ids[0]):
            raise ValueError(f"xnp.device_put: {_device_by_id(spec.device_ids[0])!r} belongs to "
                             f"another process; this process's devices are {local_devices()}.")
        return put_on(x, spec.device_ids[0], weak_type)
    pieces = {i: put_on(np.asarray(x[idx], order="C"), i, weak_type)
              for i, idx in zip(spec.device_ids, spec.indices(x.shape)) if is_local(i)}
    return assemble(x.shape, x.dtype, spec, pieces, weak_type)


def assemble(shape, dtype, spec: HloSpec, pieces: dict, weak_type: bool = False):
    """One array of global ``shape`` laid out by ``spec`` from ``pieces`` (device id ->
    single-device buffer of that device's shard), one for each of this process's devices
    in ``spec``: the shards on other processes' devices are theirs."""
    local = [i for i in spec.device_ids if is_local(i)]
    if sorted(pieces) != sorted(local):
        raise ValueError(f"internal error in xnp: shards for devices {sorted(pieces)}, but the "
                         f"sharding's devices in this process are {sorted(local)}")
    sharding = spec.jax_sharding()
    if isinstance(sharding, xc.SingleDeviceSharding):
        return pieces[local[0]]
    aval = _client._PutAval(shape, dtype, weak_type)
    return xc.ArrayImpl(aval, sharding, [pieces[i] for i in local], True, True)


def is_fully_addressable(buf) -> bool:
    """Whether every shard of device buffer ``buf`` is on a device of this process."""
    return all(is_local(i) for i in buffer_spec(buf).device_ids)


_ONE_DEVICE: dict = {}  # device id -> jaxlib SingleDeviceSharding


def put_on(x: np.ndarray, device_id: int, weak_type: bool = False):
    """A buffer on the device with id ``device_id`` holding a copy of host array ``x``."""
    sh = _ONE_DEVICE.get(device_id)
    if sh is None:
        sh = _ONE_DEVICE[device_id] = xc.SingleDeviceSharding(_jax_device(device_id))
    aval = _client._PutAval(x.shape, x.dtype, weak_type)
    return xc.batched_device_put(aval, sh, [x], [sh._device], True, False,
                                 xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL,
                                 enable_x64=True)


def shards_of(buf) -> list:
    """``(device id, index, single-device buffer)`` for each shard of ``buf`` (each shard
    buffer carries its own aval, as the runtime leaves it without one)."""
    spec = buffer_spec(buf)
    idx = spec.indices(buf.aval.shape)
    if not is_sharded_buffer(buf):
        return [(spec.device_ids[0], idx[0], buf)]
    aval = buf.aval
    out = []
    local = [(i, ix) for i, ix in zip(spec.device_ids, idx) if is_local(i)]
    for (i, ix), part in zip(local, buf._arrays):
        shape = tuple(s.stop - s.start for s in ix)
        sh = _ONE_DEVICE.get(i)
        if sh is None:
            sh = _ONE_DEVICE[i] = xc.SingleDeviceSharding(_jax_device(i))
        part = part._rewrap_with_aval_and_sharding(
            _client._PutAval(shape, aval.dtype, aval.weak_type), sh)
        out.append((i, ix, part))
    return out


def gather(buf) -> np.ndarray:
    """The whole array behind a multi-device buffer, assembled on the host (read-only)
    from this process's shards.

    Raises
    ------
    RuntimeError
        Part of the array is only on other processes' devices (this process's shards do
        not cover it; a replicated array always is covered).
    """
    aval = buf.aval
    shards = shards_of(buf)
    if not is_held_here(buf):
        spec = buffer_spec(buf)
        raise RuntimeError(
            f"xnp: cannot fetch this {np.dtype(aval.dtype).name}{list(aval.shape)} array "
            f"to the host: it spans {len(spec.device_ids)} devices, {len(shards)} of them "
            f"in this process (process {_client.get_client().process_index}), and the "
            "other processes hold parts this one does not. Read this process's part with "
            "x.addressable_shards, or collect the whole array with "
            "xnp.distributed.process_allgather(x).")
    out = np.empty(aval.shape, aval.dtype)
    for _, idx, part in shards:
        out[idx] = _client.to_host(part)
    out.flags.writeable = False
    return out


def is_held_here(buf) -> bool:
    """Whether this process's shards of ``buf`` cover the whole array (always within one
    process; across processes, e.g. when it is replicated over them)."""
    if is_fully_addressable(buf):
        return True
    have = {_index_key(ix) for _, ix, _ in shards_of(buf)}
    return have.issuperset(_index_key(ix) for ix in buffer_spec(buf).indices(buf.aval.shape))


def _index_key(index) -> tuple:
    return tuple((s.start, s.stop) for s in index)


_client._GATHER[0] = gather  # to_host of a sharded buffer
