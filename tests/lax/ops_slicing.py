"""Op-table records of the slicing primitives (``xnp.lax.slicing``).

Params (and gather/scatter index arrays) are computed from the operand's
shape inside ``fun``, so one record covers every shape in its list; index
arrays are NumPy constants (constvars under jit; traced indices are tested in
``tests/numpy_api/test_indexing.py``). The references for gather/scatter are
element-by-element loops written from the StableHLO spec, independent of the
vectorized eager implementation. Indices include out-of-bounds and negative
values, so every ``mode`` is exercised; scatter indices include duplicates.
"""

import ml_dtypes
import numpy as np

from tests.helpers import ALL, OpRecord
from xnp import lax
from xnp.lax import GatherDimensionNumbers as GDN
from xnp.lax import ScatterDimensionNumbers as SDN

F64, F32, I32, I64 = (np.dtype(t) for t in (np.float64, np.float32, np.int32, np.int64))
SOME = [F64, F32, np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), I32, np.dtype(np.uint8),
        np.dtype(np.int8), np.dtype(np.bool_), np.dtype(np.complex64)]
NO_BOOL = [d for d in SOME if d != np.bool_]
REAL_OR_BOOL = [d for d in SOME if d.kind != "c"]


# --------------------------------------------------------------------------- references


def _starts(indices, bidx):
    return [int(v) for v in np.asarray(indices)[bidx]]


def ref_gather(operand, indices, dn, slice_sizes, mode="fill", fill_value=None):
    """Gather, one output element at a time (StableHLO spec, index vector last)."""
    batch_shape = indices.shape[:-1]
    rank = len(batch_shape) + len(dn.offset_dims)
    batch_pos = [i for i in range(rank) if i not in dn.offset_dims]
    skipped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window = [d for d in range(operand.ndim) if d not in skipped]
    shape = [0] * rank
    for p, n in zip(batch_pos, batch_shape):
        shape[p] = n
    for p, d in zip(dn.offset_dims, window):
        shape[p] = slice_sizes[d]
    out = np.zeros(shape, operand.dtype)
    for oidx in np.ndindex(*shape):
        bidx = tuple(oidx[p] for p in batch_pos)
        full, ok = [0] * operand.ndim, True
        for k, d in enumerate(dn.start_index_map):
            s, hi = _starts(indices, bidx)[k], operand.shape[d] - slice_sizes[d]
            ok = ok and 0 <= s <= hi
            full[d] = min(max(s, 0), hi)
        for od, ib in zip(dn.operand_batching_dims, dn.start_indices_batching_dims):
            full[od] = bidx[ib]
        for p, d in zip(dn.offset_dims, window):
            full[d] += oidx[p]
        if mode == "fill" and not ok:
            out[oidx] = _default_fill(operand.dtype) if fill_value is None else fill_value
        else:
            out[oidx] = operand[tuple(full)]
    return out


def _default_fill(dt):
    if dt == np.bool_:
        return True
    if dt.kind in "iu":
        return np.iinfo(dt).min if dt.kind == "i" else np.iinfo(dt).max
    return np.nan


def ref_scatter(operand, indices, updates, dn, mode="drop", combine=None):
    """Scatter, one update element at a time in row-major order (last write wins)."""
    out = operand.copy()
    scatter_pos = [i for i in range(updates.ndim) if i not in dn.update_window_dims]
    skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window = [d for d in range(operand.ndim) if d not in skipped]
    wsize = dict(zip(window, (updates.shape[p] for p in dn.update_window_dims)))
    for uidx in np.ndindex(*updates.shape):
        bidx = tuple(uidx[p] for p in scatter_pos)
        full, ok = [0] * operand.ndim, True
        for k, d in enumerate(dn.scatter_dims_to_operand_dims):
            s, hi = _starts(indices, bidx)[k], operand.shape[d] - wsize.get(d, 1)
            ok = ok and 0 <= s <= hi
            full[d] = min(max(s, 0), hi) if mode == "clip" else s
        if not ok and mode != "clip":
            continue
        for od, ib in zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims):
            full[od] = bidx[ib]
        for p, d in zip(dn.update_window_dims, window):
            full[d] += uidx[p]
        full = tuple(full)
        out[full] = updates[uidx] if combine is None else combine(out[full], updates[uidx])
    return out


def _ints(shape, lo, hi, seed=0):
    return np.random.default_rng(seed).integers(lo, hi, size=shape).astype(np.int64)


# --------------------------------------------------------------------------- slice / dynamic


def _slice_params(shape):
    start = tuple(d // 3 for d in shape)
    limit = tuple(d - d // 4 for d in shape)
    strides = tuple(1 + (i % 2) for i in range(len(shape)))
    return start, limit, strides


def _slice_ref(x):
    start, limit, strides = _slice_params(x.shape)
    return x[tuple(slice(s, e, st) for s, e, st in zip(start, limit, strides))]


def _ds_params(shape):
    # starts near / past the end, so the clamping is exercised
    return tuple(d - 1 + i for i, d in enumerate(shape)), tuple((d + 1) // 2 for d in shape)


def _ds_ref(x):
    starts, sizes = _ds_params(x.shape)
    cl = [min(max(s, 0), n - k) for s, n, k in zip(starts, x.shape, sizes)]
    return x[tuple(slice(s, s + k) for s, k in zip(cl, sizes))]


def _dus_ref(x, u):
    starts = [n - 1 - i for i, n in enumerate(x.shape)]
    cl = [min(max(s, 0), n - k) for s, n, k in zip(starts, x.shape, u.shape)]
    out = x.copy()
    out[tuple(slice(s, s + k) for s, k in zip(cl, u.shape))] = u
    return out


DUS_SHAPES = [((), ()), ((3,), (2,)), ((0,), (0,)), ((3, 4), (2, 2)), ((2, 0, 4), (1, 0, 4)),
              ((4, 1, 3), (4, 1, 0))]


# --------------------------------------------------------------------------- gather configs

# rows: x[idx] for idx of shape (2, 3) over axis 0 of a rank >= 1 operand
def _rows(x_shape):
    idx = _ints((2, 3, 1), -1, x_shape[0] + 2)
    dn = GDN(offset_dims=tuple(range(2, 1 + len(x_shape))), collapsed_slice_dims=(0,),
             start_index_map=(0,))
    return idx, dn, (1,) + tuple(x_shape[1:])


# windows: 2-D windows at (row, col) starts, window dims placed around a batch dim
WIN = GDN(offset_dims=(0, 2), collapsed_slice_dims=(), start_index_map=(1, 0))
WIN_IDX = np.array([[0, 0], [2, 1], [-1, 3], [1, 9]])


def _win_sizes(shape):
    return (min(2, shape[0]), min(3, shape[1]))


# batching: take_along_axis-like: out[b, j] = x[b, idx[b, j]]
BATCH = GDN(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
            operand_batching_dims=(0,), start_indices_batching_dims=(0,))


def _batch_idx(shape):
    return _ints((shape[0], 3, 1), -1, shape[1] + 1, seed=1)


# --------------------------------------------------------------------------- scatter configs

ROWS_S = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
ROW_IDX = np.array([[1], [0], [1], [7], [-1], [3]])  # duplicates, out of bounds, negative
POINT_S = SDN(update_window_dims=(), inserted_window_dims=(0, 1),
              scatter_dims_to_operand_dims=(1, 0))
POINT_IDX = np.array([[0, 1], [2, 0], [0, 1], [3, 2], [1, -1]])
BATCH_S = SDN(update_window_dims=(), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,),
              operand_batching_dims=(0,), scatter_indices_batching_dims=(0,))
BATCH_IDX = np.array([[[0], [0], [2]], [[3], [1], [1]], [[2], [2], [-1]]])

SCATTERS = [
    ("scatter", lax.scatter, None, ALL),
    ("scatter_add", lax.scatter_add, np.add, SOME),
    ("scatter_mul", lax.scatter_mul, np.multiply, SOME),
    ("scatter_min", lax.scatter_min, np.minimum, REAL_OR_BOOL),
    ("scatter_max", lax.scatter_max, np.maximum, REAL_OR_BOOL),
]


def _scatter_records(name, fn, combine, dtypes):
    recs = []
    for mode in ("drop", "clip"):
        recs.append(OpRecord(
            f"{name}[rows,{mode}]",
            fun=lambda x, u, fn=fn, mode=mode: fn(x, ROW_IDX, u, ROWS_S, mode=mode),
            reference=lambda x, u, mode=mode, c=combine: ref_scatter(x, ROW_IDX, u, ROWS_S, mode,
                                                                     c),
            nargs=2, dtypes=dtypes, shapes=[((4, 3), (6, 3)), ((3, 0), (6, 0)), ((5, 2), (6, 1))],
            kind="reduction"))
    recs.append(OpRecord(
        f"{name}[points]",
        fun=lambda x, u, fn=fn: fn(x, POINT_IDX, u, POINT_S, mode="drop"),
        reference=lambda x, u, c=combine: ref_scatter(x, POINT_IDX, u, POINT_S, "drop", c),
        nargs=2, dtypes=dtypes, shapes=[((3, 4), (5,))], kind="reduction"))
    recs.append(OpRecord(
        f"{name}[batching]",
        fun=lambda x, u, fn=fn: fn(x, BATCH_IDX, u, BATCH_S, mode="clip"),
        reference=lambda x, u, c=combine: ref_scatter(x, BATCH_IDX, u, BATCH_S, "clip", c),
        nargs=2, dtypes=dtypes, shapes=[((3, 4), (3, 3))], kind="reduction"))
    return recs


RECORDS = [
    OpRecord("slice", fun=lambda x: lax.slice(x, *_slice_params(x.shape)), reference=_slice_ref,
             nargs=1, dtypes=ALL),
    OpRecord(
        "slice[errors]", fun=lambda x: lax.slice(x, (1,), (3,), (1,)), reference=None, nargs=1,
        dtypes=[], shapes=[],
        errors=[
            ([np.zeros(2)], ValueError, r"xnp\.lax\.slice: dimension 0 needs 0 <= start <= limit "
                                        r"<= 2.*float64\[2\]"),
            ([np.zeros((3, 3))], TypeError,
             r"xnp\.lax\.slice: .*one entry per dimension.*float64\[3,3\]"),
        ]),
    OpRecord(
        "slice[stride0]", fun=lambda x: lax.slice(x, (0,), (3,), (0,)), reference=None, nargs=1,
        dtypes=[], shapes=[], errors=[([np.zeros(3)], ValueError, r"strides must be >= 1")]),
    OpRecord("dynamic_slice",
             fun=lambda x: lax.dynamic_slice(x, *_ds_params(x.shape)), reference=_ds_ref,
             nargs=1, dtypes=ALL),
    OpRecord(
        "dynamic_slice[errors]", fun=lambda x: lax.dynamic_slice(x, (0,), (4,)), reference=None,
        nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3)], ValueError, r"xnp\.lax\.dynamic_slice: slice_sizes\[0\]=4 must be in "
                                        r"\[0, 3\]"),
            ([np.zeros((5, 5))], TypeError, r"one start index per operand dimension, got 1 for "
                                            r"operand float64\[5,5\]"),
        ]),
    OpRecord(
        "dynamic_slice[float_start]", fun=lambda x: lax.dynamic_slice(x, (x[0],), (1,)),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[([np.zeros(3)], TypeError, r"dynamic_slice: start index dtype float64")]),
    OpRecord(
        "dynamic_update_slice",
        fun=lambda x, u: lax.dynamic_update_slice(
            x, u, [n - 1 - i for i, n in enumerate(x.shape)]),
        reference=_dus_ref, nargs=2, dtypes=ALL, shapes=DUS_SHAPES),
    OpRecord(
        "dynamic_update_slice[errors]",
        fun=lambda x, u: lax.dynamic_update_slice(x, u, (0,) * x.ndim), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3), np.zeros(4)], TypeError,
             r"update float64\[4\] must have the operand's rank and fit inside operand "
             r"float64\[3\]"),
            ([np.zeros(3), np.zeros(2, np.float32)], TypeError,
             r"equal dtypes.*float64\[3\], float32\[2\]"),
        ]),
    OpRecord(
        "gather[rows,clip]",
        fun=lambda x: lax.gather(x, *_rows(x.shape), mode="clip"),
        reference=lambda x: ref_gather(x, *_rows(x.shape), mode="clip"),
        nargs=1, dtypes=ALL, shapes=[(4,), (3, 1), (4, 1, 3), (2, 3, 4), (2, 0, 4)]),
    OpRecord(
        "gather[rows,fill]",
        fun=lambda x: lax.gather(x, *_rows(x.shape), mode="fill"),
        reference=lambda x: ref_gather(x, *_rows(x.shape), mode="fill"),
        nargs=1, dtypes=ALL, shapes=[(4,), (3, 1), (2, 3, 4)]),
    OpRecord(
        "gather[rows,fill_value]",
        fun=lambda x: lax.gather(x, *_rows(x.shape), mode="fill", fill_value=7),
        reference=lambda x: ref_gather(x, *_rows(x.shape), mode="fill", fill_value=7),
        nargs=1, dtypes=[F64, I32, np.dtype(np.uint8)], shapes=[(4,), (2, 3, 4)]),
    OpRecord(
        "gather[windows]",
        fun=lambda x: lax.gather(x, WIN_IDX.astype(np.int32), WIN, (*_win_sizes(x.shape),),
                                 mode="fill"),
        reference=lambda x: ref_gather(x, WIN_IDX, WIN, _win_sizes(x.shape), mode="fill"),
        nargs=1, dtypes=SOME, shapes=[(4, 5), (3, 3), (2, 4)]),
    OpRecord(
        "gather[batching]",
        fun=lambda x: lax.gather(x, _batch_idx(x.shape), BATCH, (1, 1), mode="clip"),
        reference=lambda x: ref_gather(x, _batch_idx(x.shape), BATCH, (1, 1), mode="clip"),
        nargs=1, dtypes=SOME, shapes=[(3, 4), (1, 5)]),
    OpRecord(
        "gather[errors]",
        fun=lambda x, i: lax.gather(x, i, GDN((1,), (0,), (0,)), (1, 2)), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[
            ([np.zeros((3, 4)), np.zeros((2, 1))], TypeError, r"gather: indices dtype float64"),
            ([np.zeros((3, 4)), np.zeros((2, 2), np.int64)], ValueError,
             r"`start_index_map` has 1 entries but the index vector .* has 2"),
            ([np.zeros((3,)), np.zeros((2, 1), np.int64)], ValueError,
             r"slice_sizes=\(1, 2\) needs one entry per operand dimension"),
            ([np.zeros((3, 1)), np.zeros((2, 1), np.int64)], ValueError,
             r"slice_sizes\[1\]=2 must be in \[0, 1\]"),
        ]),
    OpRecord(
        "gather[bad_dnums]",
        fun=lambda x, i: lax.gather(x, i, GDN((5,), (0,), (0,)), (1, 4)), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[([np.zeros((3, 4)), np.zeros((2, 1), np.int64)], ValueError,
                 r"`offset_dims`=\(5,\) must be sorted, unique and in \[0, 2\)")]),
    OpRecord(
        "gather[collapse_size]",
        fun=lambda x, i: lax.gather(x, i, GDN((), (0, 1), (0,)), (1, 2)), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[([np.zeros((3, 4)), np.zeros((2, 1), np.int64)], ValueError,
                 r"collapsed and batching dims need slice size 1, but slice_sizes\[1\]=2")]),
    OpRecord(
        "scatter[errors]",
        fun=lambda x, i, u: lax.scatter(x, i, u, ROWS_S), reference=None, nargs=3, dtypes=[],
        shapes=[],
        errors=[
            ([np.zeros((4, 3)), np.zeros((2, 1), np.int64), np.zeros((2, 4))], ValueError,
             r"update window dim 1 \(size 4\) is larger than operand dim 1 \(size 3\)"),
            ([np.zeros((4, 3)), np.zeros((2, 1), np.int64), np.zeros((3, 3))], ValueError,
             r"update scatter dims \(0,\) must have the indices' batch shape \(2,\)"),
            ([np.zeros((4, 3)), np.zeros((2, 1), np.int64), np.zeros((2, 3), np.float32)],
             TypeError, r"xnp\.lax\.scatter: operands must have equal dtypes"),
            ([np.zeros((4, 3)), np.zeros((2, 1), np.int64), np.zeros(2)], ValueError,
             r"`update_window_dims`=\(1,\) must be sorted, unique and in \[0, 1\)"),
            ([np.zeros((4, 3)), np.zeros((), np.int64), np.zeros((2, 3))], TypeError,
             r"indices must have rank >= 1"),
        ]),
    OpRecord(
        "scatter_min[complex]",
        fun=lambda x, u: lax.scatter_min(x, ROW_IDX, u, ROWS_S), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[([np.zeros((4, 3), np.complex64), np.zeros((6, 3), np.complex64)], TypeError,
                 r"scatter_min: operand dtype complex64 is not accepted")]),
]

for _name, _fn, _combine, _dtypes in SCATTERS:
    RECORDS.extend(_scatter_records(_name, _fn, _combine, _dtypes))
