"""``gather`` and the scatter family (``scatter``, ``scatter_add``, ``scatter_mul``,
``scatter_min``, ``scatter_max``): primitives, rules and JAX-style dimension numbers.
The conventions (index vector last, ``mode``) are described in :mod:`xnp.lax.slicing`,
which re-exports these names; the dimension numbers and the mode are declared here,
below ``slicing`` (whose batching rules bind ``gather``/``scatter``)."""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax.reductions import checked_bind
from xnp.lax import shape_ops
from xnp.lax.shape_ops import broadcast_in_dim, reshape
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.batching import moveaxis

__all__ = ["GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode",
           "gather_fill_value", "gather", "scatter", "scatter_add", "scatter_mul", "scatter_min",
           "scatter_max",
           "gather_p", "scatter_p", "scatter_add_p", "scatter_mul_p", "scatter_min_p",
           "scatter_max_p"]


# --------------------------------------------------------------------------- shared pieces


class GatherScatterMode(enum.Enum):
    """What ``gather``/``scatter`` do with out-of-bounds start indices (see the module doc).

    ``from_any`` accepts a member, ``None`` (``FILL_OR_DROP``, as in JAX) or one of
    the strings ``"clip"``, ``"fill"``, ``"drop"``, ``"fill_or_drop"``,
    ``"promise_in_bounds"``.
    """

    CLIP = "clip"
    FILL_OR_DROP = "fill_or_drop"
    PROMISE_IN_BOUNDS = "promise_in_bounds"

    def __repr__(self):
        return f"GatherScatterMode.{self.name}"

    __str__ = __repr__

    @classmethod
    def from_any(cls, mode) -> "GatherScatterMode":
        if isinstance(mode, cls):
            return mode
        if mode is None:
            return cls.FILL_OR_DROP
        if isinstance(mode, str):
            key = mode.lower()
            if key == "clip":
                return cls.CLIP
            if key in ("fill", "drop", "fill_or_drop"):
                return cls.FILL_OR_DROP
            if key == "promise_in_bounds":
                return cls.PROMISE_IN_BOUNDS
        raise ValueError(
            f"xnp.lax: unknown gather/scatter mode {mode!r}; use 'clip', 'fill' (gather), "
            "'drop' (scatter) or 'promise_in_bounds'.")


class GatherDimensionNumbers(NamedTuple):
    """Dimension numbers of :func:`gather` (StableHLO's, with ``index_vector_dim`` last).

    offset_dims : output dims that hold the window (slice) dims, sorted.
    collapsed_slice_dims : operand dims whose slice size 1 is dropped from the output.
    start_index_map : operand dim addressed by each entry of the index vector.
    operand_batching_dims, start_indices_batching_dims : paired batch dims of the
        operand and of the indices (the operand dim is indexed by the batch position).
    """

    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple
    operand_batching_dims: tuple = ()
    start_indices_batching_dims: tuple = ()


class ScatterDimensionNumbers(NamedTuple):
    """Dimension numbers of the scatter family (StableHLO's, ``index_vector_dim`` last).

    update_window_dims : dims of ``updates`` that are window dims, sorted.
    inserted_window_dims : operand dims with window size 1 that ``updates`` lacks.
    scatter_dims_to_operand_dims : operand dim addressed by each index-vector entry.
    operand_batching_dims, scatter_indices_batching_dims : paired batch dims.
    """

    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple
    operand_batching_dims: tuple = ()
    scatter_indices_batching_dims: tuple = ()


_int_tuple = kit.int_tuple


def _operand_weak(*weak_types, **params) -> bool:
    return bool(weak_types[0])


def _operand_and_update_weak(*weak_types, **params) -> bool:
    return bool(weak_types[0]) and bool(weak_types[1])


def gather_fill_value(dtype, fill_value) -> np.ndarray:
    """The 0-d fill value of a ``FILL_OR_DROP`` gather of ``dtype``.

    ``fill_value`` if given (cast to ``dtype``); else NaN for inexact dtypes, the
    minimum of signed and the maximum of unsigned integers, True for bool.
    """
    dt = np.dtype(dtype)
    if fill_value is not None:
        return np.asarray(fill_value).astype(dt)
    if dt in kit.INEXACT:
        return np.asarray(np.nan).astype(dt)
    if dt in kit.SIGNED:
        return np.asarray(np.iinfo(dt).min, dt)
    if dt in kit.UNSIGNED:
        return np.asarray(np.iinfo(dt).max, dt)
    return np.asarray(True)


class _Ctx:
    """The avals and dimension numbers of a gather/scatter, formatted only for an error."""

    __slots__ = ("avals", "dnums")

    def __init__(self, dnums, **avals):
        self.dnums = dnums
        self.avals = avals

    def __str__(self):
        parts = [f"{k} {errors.aval_str(a)}" for k, a in self.avals.items()]
        return ", ".join(parts + [str(self.dnums)])


def _check_sorted_unique(name, what, dims, bound, context):
    if list(dims) != sorted(set(dims)) or any(d < 0 or d >= bound for d in dims):
        raise ValueError(f"xnp.lax.{name}: `{what}`={dims} must be sorted, unique and in "
                         f"[0, {bound}); {context}.")


def _check_unique(name, what, dims, bound, context):
    if len(set(dims)) != len(dims) or any(d < 0 or d >= bound for d in dims):
        raise ValueError(f"xnp.lax.{name}: `{what}`={dims} must be unique and in [0, {bound}); "
                         f"{context}.")


def _check_indices(name, indices: ShapedArray, context):
    kit.check_dtype(name, indices, kit.INTEGER, "indices")
    if indices.ndim < 1:
        raise TypeError(f"xnp.lax.{name}: indices must have rank >= 1 (the last dim is the index "
                        f"vector), got {errors.aval_str(indices)}; {context}.")


def _check_batching(name, operand, indices, obd, ibd, obd_name, ibd_name, context):
    _check_sorted_unique(name, obd_name, obd, operand.ndim, context)
    _check_unique(name, ibd_name, ibd, indices.ndim - 1, context)
    if len(obd) != len(ibd):
        raise ValueError(f"xnp.lax.{name}: `{obd_name}` and `{ibd_name}` must have equal lengths; "
                         f"{context}.")
    for od, idim in zip(obd, ibd):
        if operand.shape[od] != indices.shape[idim]:
            raise ValueError(
                f"xnp.lax.{name}: operand batching dim {od} (size {operand.shape[od]}) and indices "
                f"batching dim {idim} (size {indices.shape[idim]}) differ; {context}.")


def _check_index_map(name, what, index_map, operand, indices, obd, context):
    if len(index_map) != indices.shape[-1]:
        raise ValueError(
            f"xnp.lax.{name}: `{what}` has {len(index_map)} entries but the index vector "
            f"(last dim of indices) has {indices.shape[-1]}; {context}.")
    _check_unique(name, what, index_map, operand.ndim, context)
    if set(index_map) & set(obd):
        raise ValueError(f"xnp.lax.{name}: `{what}`={index_map} overlaps the operand batching "
                         f"dims {obd}; {context}.")


def _zeros(shape, dtype):
    """A zero array of ``shape`` on the current trace (a broadcast scalar)."""
    return broadcast_in_dim(np.zeros((), dtype), tuple(shape), ())


# --------------------------------------------------------------------------- gather


def _gather_shape(operand: ShapedArray, indices: ShapedArray, *, dimension_numbers, slice_sizes,
                  indices_are_sorted, unique_indices, mode, fill_value):
    name = "gather"
    dn = dimension_numbers
    ctx = _Ctx(dn, operand=operand, indices=indices)
    _check_indices(name, indices, ctx)
    batch_shape = indices.shape[:-1]
    out_rank = len(batch_shape) + len(dn.offset_dims)
    _check_sorted_unique(name, "offset_dims", dn.offset_dims, out_rank, ctx)
    _check_sorted_unique(name, "collapsed_slice_dims", dn.collapsed_slice_dims, operand.ndim, ctx)
    _check_batching(name, operand, indices, dn.operand_batching_dims,
                    dn.start_indices_batching_dims, "operand_batching_dims",
                    "start_indices_batching_dims", ctx)
    if set(dn.collapsed_slice_dims) & set(dn.operand_batching_dims):
        raise ValueError(f"xnp.lax.{name}: `collapsed_slice_dims` and `operand_batching_dims` "
                         f"overlap; {ctx}.")
    _check_index_map(name, "start_index_map", dn.start_index_map, operand, indices,
                     dn.operand_batching_dims, ctx)
    if len(slice_sizes) != operand.ndim:
        raise ValueError(f"xnp.lax.{name}: slice_sizes={slice_sizes} needs one entry per operand "
                         f"dimension; {ctx}.")
    for d, (size, n) in enumerate(zip(slice_sizes, operand.shape)):
        if not 0 <= size <= n:
            raise ValueError(f"xnp.lax.{name}: slice_sizes[{d}]={size} must be in [0, {n}]; {ctx}.")
    for d in dn.collapsed_slice_dims + dn.operand_batching_dims:
        if slice_sizes[d] != 1:
            raise ValueError(f"xnp.lax.{name}: collapsed and batching dims need slice size 1, but "
                             f"slice_sizes[{d}]={slice_sizes[d]}; {ctx}.")
    skipped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window = [slice_sizes[d] for d in range(operand.ndim) if d not in skipped]
    if len(window) != len(dn.offset_dims):
        raise ValueError(
            f"xnp.lax.{name}: {len(dn.offset_dims)} offset_dims for {len(window)} window "
            f"(non-collapsed, non-batching) operand dims; {ctx}.")
    out = [0] * out_rank
    for pos, size in zip(dn.offset_dims, window):
        out[pos] = size
    batch_pos = [i for i in range(out_rank) if i not in dn.offset_dims]
    for pos, size in zip(batch_pos, batch_shape):
        out[pos] = size
    return tuple(out)




def _gather_jvp(primals, tangents, *, fill_value, **params):
    # linear in the operand; filled (out-of-bounds) windows are constant: tangent 0
    (x, idx), (tx, _) = primals, tangents
    out = gather_p.bind(x, idx, fill_value=fill_value, **params)
    if type(tx) is R.Zero:
        return out, R.zero_like(out)
    return out, gather_p.bind(tx, idx, fill_value=0, **params)


def _gather_to_scatter_dnums(dn: GatherDimensionNumbers) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)


def _gather_transpose(ct, x, idx, *, dimension_numbers, slice_sizes, indices_are_sorted,
                      unique_indices, mode, fill_value):
    if R.is_undefined(idx):
        raise ValueError("xnp.lax.gather: indices are not linear")
    a = R.aval(x)
    zeros = _zeros(a.shape, core.aval_of(ct).dtype)
    ct_x = scatter_add_p.bind(zeros, idx, ct,
                              dimension_numbers=_gather_to_scatter_dnums(dimension_numbers),
                              indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode)
    return [ct_x, None]


def _shift(dims, k=1):
    return tuple(d + k for d in dims)


def _gather_batch(vals, dims, *, dimension_numbers, slice_sizes, **params):
    (x, idx), (dx, di) = vals, dims
    dn = dimension_numbers
    if di is None:  # batched operand: the batch axis is one more (first) window dim
        x = moveaxis(x, dx, 0)
        new = GatherDimensionNumbers(
            offset_dims=(0,) + _shift(dn.offset_dims), collapsed_slice_dims=_shift(
                dn.collapsed_slice_dims), start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=_shift(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims)
        sizes = (core.aval_of(x).shape[0],) + slice_sizes
    elif dx is None:  # batched indices: one more (first) batch dim of the output
        idx = moveaxis(idx, di, 0)
        new = dn._replace(offset_dims=_shift(dn.offset_dims),
                          start_indices_batching_dims=_shift(dn.start_indices_batching_dims))
        sizes = slice_sizes
    else:  # both: paired batching dims
        x, idx = moveaxis(x, dx, 0), moveaxis(idx, di, 0)
        xa, ia = core.aval_of(x), core.aval_of(idx)
        if xa.shape[0] == 0:  # an empty batch: no window of size 1 fits the batching dim
            shape = _gather_shape(
                ShapedArray(xa.shape[1:], xa.dtype), ShapedArray(ia.shape[1:], ia.dtype),
                dimension_numbers=dn, slice_sizes=slice_sizes, **params)
            return _zeros((0,) + tuple(shape), xa.dtype), 0
        new = GatherDimensionNumbers(
            offset_dims=_shift(dn.offset_dims),
            collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
            start_indices_batching_dims=(0,) + _shift(dn.start_indices_batching_dims))
        sizes = (1,) + slice_sizes
    return gather_p.bind(x, idx, dimension_numbers=new, slice_sizes=sizes, **params), 0


gather_p = kit.primitive("gather", linear=True, shape=_gather_shape,
                     dtype=lambda operand, indices, **params: operand.dtype,
                     weak_type=_operand_weak,
                     jvp=_gather_jvp,
                     transpose=R.zero_ct_passthrough(_gather_transpose),
                     batch=_gather_batch)


def _canonical_dnums(cls, dimension_numbers, name):
    if not isinstance(dimension_numbers, cls):
        raise TypeError(f"xnp.lax.{name}: `dimension_numbers` must be a {cls.__name__}, got "
                        f"{dimension_numbers!r}")
    return cls(*(_int_tuple(name, f, v) for f, v in zip(cls._fields, dimension_numbers)))


def _static_fill(name, fill_value):
    if fill_value is None or core.is_python_scalar(fill_value):
        return fill_value
    if isinstance(fill_value, (np.generic, np.ndarray)) and np.ndim(fill_value) == 0:
        return np.asarray(fill_value).item()
    raise TypeError(f"xnp.lax.{name}: `fill_value` must be a static scalar (Python or NumPy), "
                    f"got {type(fill_value).__name__}")


def gather(operand: Array, start_indices: Array, dimension_numbers: GatherDimensionNumbers,
           slice_sizes, *, indices_are_sorted: bool = False, unique_indices: bool = False,
           mode=None, fill_value=None) -> Array:
    """Gather windows of ``slice_sizes`` from ``operand`` at ``start_indices`` (StableHLO gather).

    ``start_indices`` has any integer dtype and rank >= 1; its last dim is the
    index vector (``len(start_index_map)`` entries), the others are batch dims.
    Output shape: the batch dims at the positions not in ``offset_dims`` and
    the window sizes (``slice_sizes`` without collapsed and batching dims) at
    ``offset_dims``. ``mode`` (:class:`GatherScatterMode` or string; default
    ``FILL_OR_DROP``) says what out-of-bounds windows give: clamped windows
    (``"clip"``), ``fill_value`` (``"fill"``; default NaN / int min / uint max /
    True), or whatever XLA does (``"promise_in_bounds"``: clamped).
    ``indices_are_sorted``/``unique_indices`` are hints passed on to XLA.

    Raises
    ------
    TypeError
        Non-integer or rank-0 indices, bad ``dimension_numbers`` type.
    ValueError
        Dimension numbers inconsistent with the shapes (the message shows them).
    """
    dn = _canonical_dnums(GatherDimensionNumbers, dimension_numbers, "gather")
    sizes = _int_tuple("gather", "slice_sizes", slice_sizes)
    return checked_bind(gather_p, operand, start_indices, dimension_numbers=dn, slice_sizes=sizes,
                         indices_are_sorted=bool(indices_are_sorted),
                         unique_indices=bool(unique_indices),
                         mode=GatherScatterMode.from_any(mode),
                         fill_value=_static_fill("gather", fill_value))


# --------------------------------------------------------------------------- scatter


def _scatter_shape_rule(name):
    def rule(operand: ShapedArray, indices: ShapedArray, updates: ShapedArray, *,
             dimension_numbers, indices_are_sorted, unique_indices, mode):
        dn = dimension_numbers
        ctx = _Ctx(dn, operand=operand, indices=indices, updates=updates)
        _check_indices(name, indices, ctx)
        _check_sorted_unique(name, "update_window_dims", dn.update_window_dims, updates.ndim, ctx)
        _check_sorted_unique(name, "inserted_window_dims", dn.inserted_window_dims, operand.ndim,
                             ctx)
        _check_batching(name, operand, indices, dn.operand_batching_dims,
                        dn.scatter_indices_batching_dims, "operand_batching_dims",
                        "scatter_indices_batching_dims", ctx)
        if set(dn.inserted_window_dims) & set(dn.operand_batching_dims):
            raise ValueError(f"xnp.lax.{name}: `inserted_window_dims` and `operand_batching_dims` "
                             f"overlap; {ctx}.")
        _check_index_map(name, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims,
                         operand, indices, dn.operand_batching_dims, ctx)
        batch_shape = indices.shape[:-1]
        if updates.ndim != len(dn.update_window_dims) + len(batch_shape):
            raise ValueError(
                f"xnp.lax.{name}: updates must have rank len(update_window_dims) + indices.ndim - 1"
                f" = {len(dn.update_window_dims) + len(batch_shape)}; {ctx}.")
        skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
        window_operand_dims = [d for d in range(operand.ndim) if d not in skipped]
        if len(window_operand_dims) != len(dn.update_window_dims):
            raise ValueError(
                f"xnp.lax.{name}: {len(dn.update_window_dims)} update_window_dims for "
                f"{len(window_operand_dims)} window (non-inserted, non-batching) operand dims; "
                f"{ctx}.")
        for ud, od in zip(dn.update_window_dims, window_operand_dims):
            if updates.shape[ud] > operand.shape[od]:
                raise ValueError(
                    f"xnp.lax.{name}: update window dim {ud} (size {updates.shape[ud]}) is larger "
                    f"than operand dim {od} (size {operand.shape[od]}); {ctx}.")
        scatter_dims = [d for d in range(updates.ndim) if d not in dn.update_window_dims]
        if tuple(updates.shape[d] for d in scatter_dims) != tuple(batch_shape):
            raise ValueError(
                f"xnp.lax.{name}: the update scatter dims {tuple(scatter_dims)} must have the "
                f"indices' batch shape {tuple(batch_shape)}; {ctx}.")
        return operand.shape

    return rule


def _scatter_dtype_rule(name, accept):
    def rule(operand, indices, updates, **params):
        kit.check_dtype(name, operand, accept)
        return kit.same_dtype(name, operand, updates)

    return rule


def _scatter_primitive(name, accept, linear=False, **rules):
    return kit.primitive(name, shape=_scatter_shape_rule(name),
                         dtype=_scatter_dtype_rule(name, accept),
                         weak_type=_operand_and_update_weak, linear=linear, batch=_scatter_batch,
                         **rules)




# --------------------------------------------------------------------------- scatter rules


def _scatter_to_gather(ct, idx, updates_shape, dn: ScatterDimensionNumbers, *, indices_are_sorted,
                       unique_indices, mode, fill_value=0):
    """The gather that reads back, from ``ct``, the windows a scatter with ``dn`` writes
    (dropped, out-of-bounds windows read 0)."""
    skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window = iter(updates_shape[d] for d in dn.update_window_dims)
    sizes = tuple(1 if d in skipped else next(window) for d in range(core.aval_of(ct).ndim))
    gdn = GatherDimensionNumbers(
        offset_dims=dn.update_window_dims, collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims,
        operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims)
    return gather_p.bind(ct, idx, dimension_numbers=gdn, slice_sizes=sizes,
                         indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                         mode=mode, fill_value=fill_value)


@R.for_primitive
def _scatter_linear_jvp(prim):
    """jvp of a scatter linear jointly in (operand, updates): scatter the tangents alike."""

    def jvp(primals, tangents, **params):
        (x, idx, u), (tx, _, tu) = primals, tangents
        out = prim.bind(x, idx, u, **params)
        if type(tx) is R.Zero and type(tu) is R.Zero:
            return out, R.zero_like(out)
        return out, prim.bind(R.instantiate(tx), idx, R.instantiate(tu), **params)

    return jvp


def _scatter_add_transpose(ct, x, idx, u, *, dimension_numbers, indices_are_sorted,
                           unique_indices, mode):
    if R.is_undefined(idx):
        raise ValueError("xnp.lax.scatter_add: indices are not linear")
    ct_x = ct if R.is_undefined(x) else None
    ct_u = None
    if R.is_undefined(u):
        ct_u = _scatter_to_gather(ct, idx, R.aval(u).shape, dimension_numbers,
                                  indices_are_sorted=indices_are_sorted,
                                  unique_indices=unique_indices, mode=mode)
    return [ct_x, None, ct_u]


def _mask_losing_updates(ct_u, idx, updates_shape, operand_shape, dn, *, indices_are_sorted,
                         mode):
    """``ct_u`` zeroed where an update element did not reach the output (a later duplicate
    overwrote it, or it was dropped): scatter an id per update window into -1s with the
    same indices (the same order of writes as the forward scatter), read them back, and
    keep the elements whose id came back (JAX's scheme)."""
    from xnp.lax.elementwise import eq, select_n  # noqa: PLC0415
    from xnp.lax.shape_ops import iota  # noqa: PLC0415

    i64 = np.dtype(np.int64)
    window = set(dn.update_window_dims)
    keep = tuple(d for d in range(len(updates_shape)) if d not in window)
    id_shape = tuple(updates_shape[d] for d in keep)
    ids = reshape(iota(i64, (int(np.prod(id_shape, dtype=np.int64)),)), id_shape)
    ids = broadcast_in_dim(ids, tuple(updates_shape), keep)
    written = scatter_p.bind(broadcast_in_dim(np.full((), -1, i64), tuple(operand_shape), ()),
                             idx, ids, dimension_numbers=dn, indices_are_sorted=indices_are_sorted,
                             unique_indices=False, mode=mode)
    back = _scatter_to_gather(written, idx, updates_shape, dn,
                              indices_are_sorted=indices_are_sorted, unique_indices=False,
                              mode=mode, fill_value=-1)
    dt = core.aval_of(ct_u).dtype
    return select_n(eq(back, ids), _zeros(updates_shape, dt), ct_u)


def _scatter_transpose(ct, x, idx, u, *, dimension_numbers, indices_are_sorted, unique_indices,
                       mode):
    # scatter (update) is linear jointly in (operand, updates) for fixed indices: the
    # operand's cotangent is ct with the overwritten positions zeroed (right with duplicate
    # indices too); the updates' is the gathered ct, where with duplicate indices only
    # the update that won (the same order of writes as the jvp's scatter) gets it
    if R.is_undefined(idx):
        raise ValueError("xnp.lax.scatter: indices are not linear")
    dn = dimension_numbers
    dt = core.aval_of(ct).dtype
    ct_x = ct_u = None
    if R.is_undefined(x):
        ct_x = scatter_p.bind(ct, idx, _zeros(R.aval(u).shape, dt), dimension_numbers=dn,
                              indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode)
    if R.is_undefined(u):
        ct_u = _scatter_to_gather(ct, idx, R.aval(u).shape, dn,
                                  indices_are_sorted=indices_are_sorted,
                                  unique_indices=unique_indices, mode=mode)
        if not unique_indices:
            ct_u = _mask_losing_updates(ct_u, idx, R.aval(u).shape, R.aval(x).shape, dn,
                                        indices_are_sorted=indices_are_sorted, mode=mode)
    return [ct_x, None, ct_u]


@R.rule_kit
def _nonlinear_scatter_jvp(prim, tangent):
    """jvp of a scatter from ``tangent(x, idx, u, tx, tu, out, **params)`` (called when a
    tangent is nonzero; either may be a symbolic Zero)."""

    def jvp(primals, tangents, **params):
        (x, idx, u), (tx, _, tu) = primals, tangents
        out = prim.bind(x, idx, u, **params)
        if type(tx) is R.Zero and type(tu) is R.Zero:
            return out, R.zero_like(out)
        return out, tangent(x, idx, u, tx, tu, out, **params)

    return jvp


def _scatter_mul_tangent(x, idx, u, tx, tu, out, **params):
    """out[p] = x[p] * prod_k u_k over the updates k that reach p, so
    dout[p] = dx[p] prod_k u_k + x[p] sum_k du_k prod_{j != k} u_j. The second term is
    ``x * scatter_add(du)`` for unique indices (JAX's rule); with duplicates it is
    ``x * P * sum_k du_k / u_k`` over the nonzero u_k when no u_k is 0 (P their product),
    ``x * P * du_z`` when exactly one, u_z, is 0, and 0 when several are."""
    from xnp.lax.elementwise import div, eq, mul, ne, select_n  # noqa: PLC0415

    x_shape, u_shape = R.aval(x).shape, R.aval(u).shape
    dt = R.aval(out).dtype
    zeros_x, zeros_u = _zeros(x_shape, dt), _zeros(u_shape, dt)
    t_out = R.Zero(R.aval(out).strip_weak_type())
    if type(tx) is not R.Zero:
        t_out = scatter_mul_p.bind(tx, idx, u, **params)
    if type(tu) is R.Zero:
        return t_out
    if params["unique_indices"]:
        return R.add_tangents(t_out, mul(x, scatter_add_p.bind(zeros_x, idx, tu, **params)))
    one = np.ones((), dt)
    nonzero = ne(u, np.zeros((), dt))
    ones_u = broadcast_in_dim(one, u_shape, ())
    safe_u = select_n(nonzero, ones_u, u)
    product = scatter_mul_p.bind(broadcast_in_dim(one, x_shape, ()), idx, safe_u, **params)
    n_zero = scatter_add_p.bind(zeros_x, idx, select_n(nonzero, ones_u, zeros_u), **params)
    over_u = scatter_add_p.bind(zeros_x, idx, select_n(nonzero, zeros_u, div(tu, safe_u)),
                                **params)
    at_zero = scatter_add_p.bind(zeros_x, idx, select_n(nonzero, tu, zeros_u), **params)
    s = select_n(eq(n_zero, np.zeros((), dt)), select_n(eq(n_zero, one), zeros_x, at_zero),
                 over_u)
    return R.add_tangents(t_out, mul(mul(x, product), s))


def _scatter_mul_transpose(ct, x, idx, u, **params):
    # linear in the operand only (the jvp's dx term): x -> x * P, P the product per position
    if R.is_undefined(u) or R.is_undefined(idx):
        raise NotImplementedError("xnp.lax.scatter_mul: transpose with respect to the updates "
                                  "(it is linear in the operand only)")
    return [scatter_mul_p.bind(ct, idx, u, **params), None, None]


def _same(a, b):
    """``a == b``, NaN matching NaN (a NaN result comes from a NaN input)."""
    from xnp.lax.elementwise import and_, eq, ne, or_  # noqa: PLC0415

    return or_(eq(a, b), and_(ne(a, a), ne(b, b)))


def _scatter_extremal_tangent(x, idx, u, tx, tu, out, **params):
    """Tangent of scatter_min/scatter_max: the mean of the tangents of the candidates (the
    operand element and the updates reaching it) equal to the result, so ties are
    averaged as in JAX."""
    from xnp.lax.elementwise import convert_element_type, div, select_n  # noqa: PLC0415

    tx, tu = R.instantiate(tx), R.instantiate(tu)
    x_shape, u_shape = R.aval(x).shape, R.aval(u).shape
    dt = R.aval(tx).dtype
    zeros_x, zeros_u = _zeros(x_shape, dt), _zeros(u_shape, dt)
    won = _same(u, _scatter_to_gather(out, idx, u_shape, params["dimension_numbers"],
                                      indices_are_sorted=params["indices_are_sorted"],
                                      unique_indices=params["unique_indices"],
                                      mode=params["mode"]))
    kept = _same(x, out)
    ones_u = broadcast_in_dim(np.ones((), dt), u_shape, ())
    count = scatter_add_p.bind(convert_element_type(kept, dt), idx,
                               select_n(won, zeros_u, ones_u), **params)
    total = scatter_add_p.bind(select_n(kept, zeros_x, tx), idx, select_n(won, zeros_u, tu),
                               **params)
    return div(total, count)


@R.for_primitive
def _scatter_batch(prim):
    """Batching of the scatter family: the batch becomes one more window dim (unbatched
    indices) or a pair of batching dims (batched indices); operand and updates are
    broadcast to the batch where they are unbatched."""

    def batch(vals, dims, *, dimension_numbers, **params):
        (x, idx, u), (dx, di, du) = vals, dims
        dn = dimension_numbers
        size = R.batch_size(vals, dims)
        x, u = shape_ops.bdim_to_front(x, dx, size), shape_ops.bdim_to_front(u, du, size)
        if di is None:
            new = ScatterDimensionNumbers(
                update_window_dims=(0,) + _shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=_shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims)
        else:
            idx = moveaxis(idx, di, 0)
            new = ScatterDimensionNumbers(
                update_window_dims=_shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=(0,) + _shift(dn.scatter_indices_batching_dims))
        return prim.bind(x, idx, u, dimension_numbers=new, **params), 0

    return batch


scatter_p = _scatter_primitive("scatter", kit.ALL, linear=True,
                               jvp=_scatter_linear_jvp,
                               transpose=R.zero_ct_passthrough(_scatter_transpose))
scatter_add_p = _scatter_primitive("scatter_add", kit.NUMERIC | kit.BOOL, linear=True,
                                   jvp=_scatter_linear_jvp,
                                   transpose=R.zero_ct_passthrough(_scatter_add_transpose))
scatter_mul_p = _scatter_primitive("scatter_mul", kit.NUMERIC | kit.BOOL, linear=True,
                                   jvp=_nonlinear_scatter_jvp(_scatter_mul_tangent),
                                   transpose=R.zero_ct_passthrough(_scatter_mul_transpose))
scatter_min_p = _scatter_primitive("scatter_min", kit.REAL_OR_BOOL,
                                   jvp=_nonlinear_scatter_jvp(_scatter_extremal_tangent))
scatter_max_p = _scatter_primitive("scatter_max", kit.REAL_OR_BOOL,
                                   jvp=_nonlinear_scatter_jvp(_scatter_extremal_tangent))


def _scatter_bind(prim, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted,
                  unique_indices, mode):
    dn = _canonical_dnums(ScatterDimensionNumbers, dimension_numbers, prim.name)
    return checked_bind(prim, operand, scatter_indices, updates, dimension_numbers=dn,
                     indices_are_sorted=bool(indices_are_sorted),
                     unique_indices=bool(unique_indices), mode=GatherScatterMode.from_any(mode))


def scatter(operand: Array, scatter_indices: Array, updates: Array,
            dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode=None) -> Array:
    """``operand`` with update windows written at ``scatter_indices`` (StableHLO scatter).

    Functional (the operand is not modified). ``scatter_indices``: any integer
    dtype, last dim the index vector. ``updates``: the operand's dtype; its
    dims not in ``update_window_dims`` equal the indices' batch dims. When
    several updates hit one element the last one wins eagerly; under XLA the
    order is implementation-defined (sequential, hence last, on CPU).
    ``mode``: ``"clip"`` clamps start indices, ``"drop"`` (default) and
    ``"promise_in_bounds"`` skip windows that are not entirely in bounds.

    Raises
    ------
    TypeError
        Non-integer or rank-0 indices, dtype mismatch.
    ValueError
        Dimension numbers inconsistent with the shapes (the message shows them).
    """
    return _scatter_bind(scatter_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_add(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but adds; duplicate indices accumulate (``numpy.add.at``).

    Numeric or bool dtypes (bool adds as logical or).
    """
    return _scatter_bind(scatter_add_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_mul(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but multiplies; duplicates accumulate (``numpy.multiply.at``)."""
    return _scatter_bind(scatter_mul_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_min(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but keeps the minimum (``numpy.minimum.at``; NaN propagates).

    Real or bool dtypes (no complex).
    """
    return _scatter_bind(scatter_min_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)


def scatter_max(operand: Array, scatter_indices: Array, updates: Array,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False, mode=None) -> Array:
    """Like :func:`scatter` but keeps the maximum (``numpy.maximum.at``; NaN propagates)."""
    return _scatter_bind(scatter_max_p, operand, scatter_indices, updates, dimension_numbers,
                         indices_are_sorted, unique_indices, mode)

