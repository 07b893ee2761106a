"""Sharding, JAX's model: a :class:`Mesh` of devices with named axes, a
:class:`PartitionSpec` saying which mesh axes split which array dimension, and
:class:`NamedSharding` (the two together) or :class:`SingleDeviceSharding`.

``xnp.device_put(x, sharding)`` lays an array out over the devices: the result is an
xnp array whose data lives in one shard per device (``x.addressable_shards``);
``numpy.asarray`` of it gathers the whole array. ``xnp.jit(f, in_shardings=...,
out_shardings=...)`` and ``xnp.lax.with_sharding_constraint`` compile ``f`` as one
SPMD program that XLA's partitioner splits over the mesh; its results equal the
single-device ones. Several CPU devices come from ``XNP_NUM_CPU_DEVICES=N`` (or
``xnp.config.update("num_cpu_devices", N)`` before the first jitted call).

Every dimension a spec splits must be divisible by the number of shards it is split
into (XLA would pad; xnp raises ``ValueError`` instead).
"""

from __future__ import annotations

import numpy as np

from xnp.backends.xla import device_value as _dv
from xnp.backends.xla import sharding as _xs
from xnp.tracing import core

__all__ = ["Mesh", "PartitionSpec", "P", "NamedSharding", "SingleDeviceSharding",
           "GSPMDSharding", "Sharding", "Shard", "device_put", "devices"]


def devices() -> list:
    """The XLA devices, ``[CpuDevice(id=0), ...]``: one CPU device unless
    ``num_cpu_devices`` (env ``XNP_NUM_CPU_DEVICES``) says more; after
    ``xnp.distributed.initialize``, every process's devices (``device.process_index``)."""
    return _xs.devices()


class Mesh:
    """Devices arranged in an N-d grid with one name per axis.

    Parameters
    ----------
    devices : array_like of Device
        Shape ``(n0, n1, ...)``: the grid (``xnp.devices()`` entries, each at most once).
    axis_names : str or tuple of str
        One distinct name per grid axis.
    """

    def __init__(self, devices, axis_names):
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        axis_names = tuple(axis_names)
        grid = np.empty(np.shape(np.asarray(devices, dtype=object)), dtype=object)
        grid[...] = np.asarray(devices, dtype=object)
        if grid.ndim != len(axis_names):
            raise ValueError(f"xnp.sharding.Mesh: `devices` has {grid.ndim} axes (shape "
                             f"{grid.shape}) but `axis_names` names {len(axis_names)}: "
                             f"{axis_names}.")
        if len(set(axis_names)) != len(axis_names) or not all(
                isinstance(a, str) for a in axis_names):
            raise ValueError(f"xnp.sharding.Mesh: `axis_names` must be distinct strings, got "
                             f"{axis_names}.")
        flat = list(grid.flat)
        known = _xs.devices()
        for d in flat:
            if d not in known:
                raise ValueError(f"xnp.sharding.Mesh: {d!r} is not one of xnp.devices() "
                                 f"({known}).")
        if len(set(flat)) != len(flat):
            raise ValueError(f"xnp.sharding.Mesh: a device appears twice in {flat}.")
        self.devices = grid
        self.axis_names = axis_names
        self._spec = _xs.MeshSpec(axis_names, grid.shape, [d.id for d in flat])

    @property
    def shape(self) -> dict:
        """Axis name -> size."""
        return dict(zip(self.axis_names, self.devices.shape))

    @property
    def size(self) -> int:
        return self.devices.size

    @property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    def __eq__(self, other):
        return type(other) is Mesh and other._spec == self._spec

    def __hash__(self):
        return hash(self._spec)

    def __repr__(self):
        axes = ", ".join(f"'{n}': {s}" for n, s in self.shape.items())
        return f"Mesh({axes})"


class PartitionSpec(tuple):
    """Per array dimension: ``None`` (not split), a mesh axis name, or a tuple of names
    (split over their product, the first one major). Trailing dimensions a spec does not
    mention are not split."""

    def __new__(cls, *parts):
        for p in parts:
            ok = p is None or isinstance(p, str) or (
                isinstance(p, tuple) and all(isinstance(a, str) for a in p))
            if not ok:
                raise TypeError(f"xnp.sharding.PartitionSpec: each entry is None, a mesh axis "
                                f"name or a tuple of names, got {p!r}.")
        return super().__new__(cls, parts)

    _is_partition_spec = True  # tells it from a tuple of specs (xnp.shard_map's in_specs)

    def __getnewargs__(self):
        # copy, deepcopy and pickle rebuild a tuple subclass with __new__(cls, *these):
        # the entries one by one, as the constructor takes them
        return tuple(self)

    def __repr__(self):
        return "PartitionSpec(" + ", ".join(map(repr, self)) + ")"


P = PartitionSpec


class Sharding:
    """Base of the sharding classes: how an array's elements are laid out on devices."""

    def _hlo(self, ndim: int):  # the backend's HloSpec
        raise NotImplementedError

    @property
    def device_set(self) -> set:
        raise NotImplementedError

    @property
    def num_devices(self) -> int:
        return len(self.device_set)

    def devices_indices_map(self, shape) -> dict:
        """Device -> the index (tuple of slices) of its shard of an array of ``shape``."""
        h = self._hlo(len(shape))
        _xs.check_divisible("xnp.sharding.devices_indices_map", shape, np.float64, h,
                            repr(self))
        return {_xs._device_by_id(i): ix for i, ix in zip(h.device_ids, h.indices(shape))}

    def shard_shape(self, shape) -> tuple:
        """The shape of each shard of an array of ``shape``."""
        return self._hlo(len(shape)).shard_shape(shape)

    def is_fully_replicated_for(self, ndim: int) -> bool:
        return self._hlo(ndim).tiles is None

    def is_equivalent_to(self, other: "Sharding", ndim: int) -> bool:
        """Whether both lay out an array of rank ``ndim`` identically."""
        return self._hlo(ndim) == other._hlo(ndim)


class NamedSharding(Sharding):
    """``spec`` over ``mesh``: dimension ``i`` is split over the mesh axes ``spec[i]``."""

    def __init__(self, mesh: Mesh, spec: PartitionSpec = PartitionSpec()):
        if not isinstance(mesh, Mesh):
            raise TypeError(f"xnp.sharding.NamedSharding: `mesh` must be an "
                            f"xnp.sharding.Mesh, got {type(mesh).__name__}.")
        if not isinstance(spec, PartitionSpec):
            spec = PartitionSpec(*spec)
        seen = []
        for p in spec:
            for a in (p,) if isinstance(p, str) else (p or ()):
                if a not in mesh.axis_names:
                    raise ValueError(f"xnp.sharding.NamedSharding: {spec} names mesh axis "
                                     f"{a!r}, but the mesh's axes are {mesh.axis_names}.")
                if a in seen:
                    raise ValueError(f"xnp.sharding.NamedSharding: {spec} uses mesh axis "
                                     f"{a!r} twice.")
                seen.append(a)
        self.mesh = mesh
        self.spec = spec
        self._cache: dict = {}

    def _tile(self, ndim: int):
        t = self._cache.get(ndim)
        if t is None:
            if len(self.spec) > ndim:
                raise ValueError(f"xnp.sharding: {self.spec} has {len(self.spec)} entries, "
                                 f"more than the array's rank {ndim}.")
            dims = [(p,) if isinstance(p, str) else (p or ()) for p in self.spec]
            dims += [()] * (ndim - len(dims))
            t = self._cache[ndim] = _xs.TileSpec(self.mesh._spec, dims)
        return t

    def _hlo(self, ndim: int):
        return self._tile(ndim).hlo()

    def _with_batch_dim(self, dim: int) -> "NamedSharding":
        """The sharding of the same array with an unsplit dimension inserted at ``dim``."""
        parts = list(self.spec) + [None] * max(0, dim - len(self.spec))
        parts.insert(dim, None)
        return NamedSharding(self.mesh, PartitionSpec(*parts))

    @property
    def device_set(self) -> set:
        return set(self.mesh.devices.flat)

    def __eq__(self, other):
        return (type(other) is NamedSharding and other.mesh == self.mesh
                and _norm(other.spec) == _norm(self.spec))

    def __hash__(self):
        return hash((self.mesh, _norm(self.spec)))

    def __repr__(self):
        return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec!r})"


def _norm(spec) -> tuple:
    parts = [(p,) if isinstance(p, str) else (p or ()) for p in spec]
    while parts and not parts[-1]:
        parts.pop()
    return tuple(parts)


class SingleDeviceSharding(Sharding):
    """The whole array on one device."""

    def __init__(self, device):
        self.device = device

    def _hlo(self, ndim: int):
        return _xs.HloSpec((self.device.id,), None, None, 1)

    def _tile(self, ndim: int):
        return _xs.TileSpec(_xs.MeshSpec((), (), (self.device.id,)), [()] * ndim)

    @property
    def device_set(self) -> set:
        return {self.device}

    def __eq__(self, other):
        return type(other) is SingleDeviceSharding and other.device == self.device

    def __hash__(self):
        return hash(("single", self.device))

    def __repr__(self):
        return f"SingleDeviceSharding(device={self.device!r})"


class GSPMDSharding(Sharding):
    """A layout XLA's partitioner chose (an output whose sharding ``jit`` was not told),
    as an HLO sharding over an ordered list of devices."""

    def __init__(self, hlo_spec):
        self._spec = hlo_spec

    def _hlo(self, ndim: int):
        return self._spec

    @property
    def device_set(self) -> set:
        return {_xs._device_by_id(i) for i in self._spec.device_ids}

    def __eq__(self, other):
        return type(other) is GSPMDSharding and other._spec == self._spec

    def __hash__(self):
        return hash(self._spec)

    def __repr__(self):
        return f"GSPMDSharding({self._spec.text()}, devices={list(self._spec.device_ids)})"


class Shard:
    """One device's part of a sharded array: ``device``, ``index`` (a tuple of slices of
    the whole array) and ``data`` (an xnp array of the shard's shape)."""

    __slots__ = ("device", "index", "data")

    def __init__(self, device, index, data):
        self.device = device
        self.index = index
        self.data = data

    def __repr__(self):
        return f"Shard(device={self.device!r}, index={self.index!r})"


def sharding_of(x) -> Sharding:
    """``x.sharding``: the layout of an xnp array (host arrays: on device 0)."""
    buf = _dv.buffer_of(x)
    if buf is None:
        return SingleDeviceSharding(_xs.local_devices()[0])
    h = _xs.buffer_spec(buf)
    s = _xs.label_of(h)
    if s is not None:
        return s
    if h.tiles is None and len(h.device_ids) == 1:
        return SingleDeviceSharding(_xs._device_by_id(h.device_ids[0]))
    return GSPMDSharding(h)


def addressable_shards(x) -> list[Shard]:
    """``x.addressable_shards``: each device's :class:`Shard`, in the sharding's device
    order."""
    buf = _dv.buffer_of(x)
    if buf is None:
        dev = _xs.local_devices()[0]
        return [Shard(dev, tuple(slice(0, n) for n in x.shape), x)]
    weak = x.weak_type
    return [Shard(_xs._device_by_id(i), ix, _dv.device_array(part, weak))
            for i, ix, part in _xs.shards_of(buf)]


def device_put(x, device=None):
    """``x`` as an xnp array laid out by ``device``: a :class:`Sharding` (the array is
    split into one shard per device), a device from ``xnp.devices()``, or None (device 0).

    The host data is copied; the result's ``.sharding`` is the given sharding and
    ``.addressable_shards`` its shards. Under ``jit`` use
    ``xnp.lax.with_sharding_constraint`` instead.

    Raises
    ------
    ValueError
        A dimension the sharding splits is not divisible by its number of shards, or the
        spec is longer than ``x``'s rank.
    TypeError
        ``x`` is a traced value, or ``device`` is neither a sharding nor a device.
    """
    if isinstance(x, core.Tracer):
        raise TypeError("xnp.device_put: got a traced value; inside a jitted function use "
                        "xnp.lax.with_sharding_constraint(x, sharding).")
    if device is None:
        device = SingleDeviceSharding(_xs.local_devices()[0])
    elif isinstance(device, _xs.Device):
        device = SingleDeviceSharding(device)
    if not isinstance(device, Sharding):
        raise TypeError(f"xnp.device_put: `device` must be an xnp.sharding.Sharding or a "
                        f"device from xnp.devices(), got {type(device).__name__}.")
    if type(x) is core.Array:
        host, weak = np.asarray(x._value), x.weak_type
    else:
        host = np.asarray(x)
        weak = isinstance(x, (int, float, complex)) and not isinstance(x, bool)
    h = device._hlo(host.ndim)
    _xs.check_divisible("xnp.device_put", host.shape, host.dtype, h, repr(device))
    buf = _xs.put_sharded(host, h, weak)
    _xs.label(h, device)
    return _dv.device_array(buf, weak)
