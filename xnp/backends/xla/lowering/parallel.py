"""Lowering of ``shard_map`` to Shardy's ``sdy.manual_computation`` and of the collectives
in its body to StableHLO's cross-partition ops (checked on jaxlib 0.10.2's CPU backend):

* ``psum``/``pmax``/``pmin``: ``stablehlo.all_reduce``; ``all_gather``:
  ``stablehlo.all_gather``; ``psum_scatter``: ``stablehlo.reduce_scatter``;
  ``ppermute``: ``stablehlo.collective_permute`` (devices no pair sends to get zeros);
  ``axis_index``: arithmetic on ``stablehlo.partition_id``.
* ``replica_groups`` list partition ids with ``use_global_device_ids`` and a
  device-to-device channel: partition ``p`` is position ``p`` of the mesh's devices in
  mesh order (the executable's device assignment), so a group is the devices that differ
  only in the named axes, ordered by their index along them (the first name major).
* XLA's CPU all-reduce with ``stablehlo.maximum``/``minimum`` drops NaN (verified: a
  NaN block came back as the other devices' maximum), and it rejects a combiner that
  selects NaN explicitly ("Unsupported reduction computation"). So a float
  ``pmax``/``pmin`` is a plain all-reduce plus an ``or`` all-reduce of ``x != x``, and
  the result is NaN where any device had one.

In a module for one device (a ``shard_map`` over a one-device mesh) every group has one
device: the body is inlined and the collectives are identities.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import FunctionBuilder, Value, lower_jaxpr_body, lowering
from xnp.lax import _kit as kit
from xnp.tracing.avals import ShapedArray

__all__: list[str] = []

def _sdy_dims(names) -> str:
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" for axes in names) + "]"


def _per_value(all_names) -> str:
    return ("#sdy.sharding_per_value<["
            + ", ".join(f"<@mesh, {_sdy_dims(n)}>" for n in all_names) + "]>")


@lowering(lax.shard_map_p)
def _lower_shard_map(ctx, *args, jaxpr, mesh, in_names, out_names):
    spec = mesh._spec
    module_mesh = getattr(ctx.module, "mesh", None)
    if module_mesh is None:
        if spec.size != 1:
            raise NotImplementedError(
                "xnp: internal error: a shard_map over several devices in a module for one "
                "device.")
        return ctx.lower_jaxpr(jaxpr.jaxpr, [], list(args))
    if module_mesh != spec:
        raise ValueError(f"xnp.shard_map: its mesh {mesh!r} is another mesh than the jitted "
                         "function's other shardings; one program runs on one mesh.")
    if getattr(ctx.module, "manual", False):
        raise NotImplementedError("xnp.shard_map inside another shard_map is not supported.")
    sub = FunctionBuilder(ctx.module)
    sub.indent = 2
    block_args = [Value(ctx.b.fresh(), a) for a in jaxpr.in_avals]
    ctx.module.manual = True
    try:
        outs = lower_jaxpr_body(sub, jaxpr.jaxpr, [], block_args)
    finally:
        ctx.module.manual = False
    sub.emit(f'"sdy.return"({", ".join(o.name for o in outs)}) : '
             f'({", ".join(o.type for o in outs)}) -> ()')
    head = ", ".join(f"{a.name}: {a.type}" for a in block_args)
    manual = ", ".join(f'"{a}"' for a in spec.axis_names)
    attrs = (f"in_shardings = {_per_value(in_names)}, out_shardings = {_per_value(out_names)}, "
             f"manual_axes = #sdy<manual_axes{{{manual}}}>")
    return ctx.ops("sdy.manual_computation", list(args), ctx.avals_out, attrs,
                   regions=[[f"^bb0({head}):"] + sub.lines])


# --------------------------------------------------------------------------- groups

def _mesh(ctx):
    """The module's mesh (a MeshSpec), or None in a module for one device."""
    return getattr(ctx.module, "mesh", None)


def _groups(mesh, axes) -> np.ndarray:
    """Partition ids, one row per group: the devices that differ only in ``axes``."""
    names = mesh.axis_names
    for a in axes:
        if a not in names:
            raise ValueError(f"xnp: mesh axis {a!r} is not an axis of the jitted program's "
                             f"mesh {names}.")
    grid = np.arange(mesh.size).reshape(mesh.shape)
    others = [i for i, a in enumerate(names) if a not in axes]
    chosen = [names.index(a) for a in axes]
    n = int(np.prod([mesh.shape[i] for i in chosen], dtype=np.int64))
    return grid.transpose(others + chosen).reshape(-1, n)


def _dense_i64(rows: np.ndarray) -> str:
    body = "[" + ", ".join("[" + ", ".join(str(int(v)) for v in r) + "]" for r in rows) + "]"
    return f"dense<{body}> : tensor<{rows.shape[0]}x{rows.shape[1]}xi64>"


def _channel(ctx) -> str:
    n = getattr(ctx.module, "channels", 0) + 1
    ctx.module.channels = n
    return f"channel_handle = #stablehlo.channel_handle<handle = {n}, type = 1>"


def _group_attrs(ctx, groups) -> str:
    return f"replica_groups = {_dense_i64(groups)}, {_channel(ctx)}, use_global_device_ids"


def _combiner(ctx, dtype, op):
    scalar = ShapedArray((), dtype)
    return ctx.region([scalar, scalar], lambda b, p, q: b.op(op, [p, q], [scalar]))


def _all_reduce(ctx, x, groups, op):
    return ctx.op("stablehlo.all_reduce", [x], x.aval, _group_attrs(ctx, groups),
                  regions=[_combiner(ctx, x.aval.dtype, op)])


def _trivial(ctx, axes) -> bool:
    mesh = _mesh(ctx)
    return mesh is None or _groups(mesh, axes).shape[1] == 1


# --------------------------------------------------------------------------- reductions

@lowering(lax.psum_p)
def _lower_psum(ctx, x, *, axes):
    if _trivial(ctx, axes):
        return [x]
    return [_all_reduce(ctx, x, _groups(_mesh(ctx), axes), "stablehlo.add")]


def _extremum(op):
    def rule(ctx, x, *, axes):
        if _trivial(ctx, axes):
            return [x]
        groups = _groups(_mesh(ctx), axes)
        m = _all_reduce(ctx, x, groups, op)
        if x.aval.dtype not in kit.INEXACT:
            return [m]
        # see the module notes: NaN is carried by an `or` all-reduce of x != x
        flag_aval = x.aval.update(dtype=np.dtype(bool), weak_type=False)
        nan = ctx.op("stablehlo.compare", [x, x], flag_aval,
                     "comparison_direction = #stablehlo<comparison_direction NE>, "
                     "compare_type = #stablehlo<comparison_type FLOAT>")
        any_nan = _all_reduce(ctx, nan, groups, "stablehlo.or")
        nans = ctx.broadcast_in_dim(ctx.constant(np.nan, x.aval.dtype), x.aval.shape, ())
        return [ctx.op("stablehlo.select", [any_nan, nans, m], x.aval)]
    return rule


lowering(lax.pmax_p)(_extremum("stablehlo.maximum"))
lowering(lax.pmin_p)(_extremum("stablehlo.minimum"))


# --------------------------------------------------------------------------- gather / scatter

def _reshape(ctx, x, shape):
    if x.aval.shape == tuple(shape):
        return x
    return ctx.op("stablehlo.reshape", [x], x.aval.update(shape=tuple(shape)))


@lowering(lax.all_gather_p)
def _lower_all_gather(ctx, x, *, axes, axis_size, axis, tiled):
    (out,) = ctx.avals_out
    if not tiled:
        x = _reshape(ctx, x, x.aval.shape[:axis] + (1,) + x.aval.shape[axis:])
    if _trivial(ctx, axes):
        return [_reshape(ctx, x, out.shape)]
    groups = _groups(_mesh(ctx), axes)
    return [ctx.op("stablehlo.all_gather", [x], out,
                   f"all_gather_dim = {axis} : i64, {_group_attrs(ctx, groups)}")]


@lowering(lax.psum_scatter_p)
def _lower_psum_scatter(ctx, x, *, axes, axis_size, scatter_dimension, tiled):
    (out,) = ctx.avals_out
    d = scatter_dimension
    if _trivial(ctx, axes):
        return [_reshape(ctx, x, out.shape)]
    groups = _groups(_mesh(ctx), axes)
    shape = x.aval.shape
    scattered = x.aval.update(shape=shape[:d] + (shape[d] // axis_size,) + shape[d + 1:])
    r = ctx.op("stablehlo.reduce_scatter", [x], scattered,
               f"scatter_dimension = {d} : i64, {_group_attrs(ctx, groups)}",
               regions=[_combiner(ctx, x.aval.dtype, "stablehlo.add")])
    return [_reshape(ctx, r, out.shape)]


# --------------------------------------------------------------------------- ppermute / axis_index

@lowering(lax.ppermute_p)
def _lower_ppermute(ctx, x, *, axes, axis_size, perm):
    mesh = _mesh(ctx)
    groups = _groups(mesh, axes) if mesh is not None else np.zeros((1, 1), np.int64)
    pairs = np.array([(g[s], g[d]) for g in groups for s, d in perm], np.int64).reshape(-1, 2)
    if pairs.shape[0] == 0:
        zero = ctx.constant(np.zeros((), x.aval.dtype))
        return [ctx.broadcast_in_dim(zero, x.aval.shape, ())]
    if mesh is None or groups.shape[1] == 1:
        return [x]  # the only pair is (0, 0)
    return [ctx.op("stablehlo.collective_permute", [x], x.aval,
                   f"source_target_pairs = {_dense_i64(pairs)}, {_channel(ctx)}")]


@lowering(lax.axis_index_p)
def _lower_axis_index(ctx, *, axes):
    (out,) = ctx.avals_out
    mesh = _mesh(ctx)
    if mesh is None:
        return [ctx.constant(np.zeros((), np.int32))]
    for a in axes:
        if a not in mesh.axis_names:
            raise ValueError(f"xnp: mesh axis {a!r} is not an axis of the jitted program's "
                             f"mesh {mesh.axis_names}.")
    pid = ctx.op("stablehlo.partition_id", [], out.update(dtype=np.dtype(np.uint32)))
    pid = ctx.convert(pid, np.int32)

    def binop(name, a, b):
        return ctx.op(name, [a, b], out)

    def const(v):
        return ctx.constant(np.asarray(v, np.int32))

    index = None
    for a in axes:
        k = mesh.axis_names.index(a)
        stride = int(np.prod(mesh.shape[k + 1:], dtype=np.int64))
        coord = binop("stablehlo.remainder", binop("stablehlo.divide", pid, const(stride)),
                      const(mesh.shape[k]))
        index = coord if index is None else binop(
            "stablehlo.add", binop("stablehlo.multiply", index, const(mesh.shape[k])), coord)
    return [index]
