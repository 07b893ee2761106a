"""The machinery behind NumPy indexing on xnp (``x[idx]``, ``x[idx] = v``, ``x.at[idx]``):
index parsing and normalization, the lowering of an index to lax (views, dynamic
slices, one gather/scatter), and the functionalization of writes under ``jit``
(views write through to their base and are replayed from it). The public
routines and the semantics summary are in :mod:`xnp.numpy_api.indexing`; the view
bookkeeping of traced arrays is in :mod:`xnp.numpy_api._views`.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax.slicing import GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, is_xnp
from xnp.numpy_api import _views
from xnp.numpy_api._views import adopt, is_place_of, track_view
from xnp.numpy_api._views import rebind as _rebind
from xnp.tracing import core, errors, rebound, recording

__all__ = ["getitem", "setitem"]

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
          "boolean arrays are valid indices")
_ADVANCED = frozenset({"arr", "tarr", "bool0"})
_CLIP = GatherScatterMode.CLIP
_FILL = GatherScatterMode.FILL_OR_DROP
_PROMISE = GatherScatterMode.PROMISE_IN_BOUNDS


# --------------------------------------------------------------------------- parsing


class _Entry:
    """One normalized index entry. kinds: ``slice`` (start, step, n: static),
    ``int`` (value in range), ``dyn`` (traced 0-d int), ``arr`` (int64 ndarray),
    ``tarr`` (traced int array), ``bool0`` (a 0-d boolean: a new axis of size 1 or 0),
    ``new`` (None). ``pos`` is the position in the user's index tuple."""

    __slots__ = ("kind", "pos", "dim", "value", "start", "step", "n")

    def __init__(self, kind, pos, dim=None, value=None, start=0, step=1, n=0):
        self.kind = kind
        self.pos = pos
        self.dim = dim
        self.value = value
        self.start = start
        self.step = step
        self.n = n

    def key(self):
        """What identifies the entry for the ``x[idx] = x[idx]`` no-op check (tracers by id)."""
        v = id(self.value) if self.kind in ("dyn", "tarr") else None
        if self.kind == "arr":
            v = (self.value.shape, self.value.tobytes())
        if self.kind in ("int", "bool0"):
            v = self.value
        return (self.kind, self.dim, v, self.start, self.step, self.n)


def _concrete(x):
    """Host value of an eager array or concrete tracer, else None."""
    if type(x) is core.Array:
        return np.asarray(x)
    if isinstance(x, core.Tracer):
        v = x.to_concrete_value()
        return None if v is None else np.asarray(v)
    return None


def _has_tracer(seq) -> bool:
    for v in seq:
        if isinstance(v, (list, tuple)):
            if _has_tracer(v):
                return True
        elif isinstance(v, core.Tracer):
            return True
    return False


def _bad_index(dtype, shape) -> IndexError:
    """NumPy's ``IndexError`` for an index array of a dtype that cannot index (a 0-d one
    is refused as a scalar), naming the index's dtype and shape."""
    head = _VALID if len(shape) == 0 else "arrays used as indices must be of integer (or boolean) type"
    return IndexError(f"{head} (xnp.Array indexing: an index of dtype {np.dtype(dtype).name} "
                      f"and shape {tuple(shape)})")


def _classify_ndarray(a: np.ndarray):
    if a.dtype == np.bool_:
        return ("bool0", bool(a)) if a.ndim == 0 else ("boolarr", a)
    if a.dtype.kind in "iu":
        return "arr", a
    raise _bad_index(a.dtype, a.shape)


def _classify(item):
    """``(kind, payload)`` of one raw index item."""
    t = type(item)
    if t is int:
        return "int", item
    if t is builtins.slice:
        return "slice", item
    if item is None:
        return "new", None
    if item is Ellipsis:
        return "ellipsis", None
    if isinstance(item, builtins.slice):
        return "slice", item
    if isinstance(item, (bool, np.bool_)):
        return "bool0", bool(item)
    if isinstance(item, (int, np.integer)):
        return "int", int(item)
    if is_xnp(item):
        v = _concrete(item)
        if v is None:
            aval = item.aval
            if aval.dtype == np.bool_:
                raise errors.NonConcreteBooleanIndexError(errors.boolean_mask_message(item))
            if aval.dtype.kind not in "iu":
                raise _bad_index(aval.dtype, aval.shape)
            return ("dyn" if aval.ndim == 0 else "tarr"), item
        return _classify_ndarray(v)  # (a 0-d integer array too: NumPy's advanced index, a copy)
    if isinstance(item, np.ndarray):
        return _classify_ndarray(item)
    if isinstance(item, (list, tuple, range)):  # (NumPy's index arrays)
        if _has_tracer(item):
            return _classify(asarray_for("getitem", item, "index"))
        try:
            a = np.asarray(item)
        except (ValueError, TypeError):
            raise IndexError(_VALID) from None
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype(np.int64)
        if a.dtype == object:
            raise IndexError(_VALID)
        return _classify_ndarray(a)
    if isinstance(item, core.Array):  # of a dtype XLA lacks (big-endian): its NumPy value
        return _classify(np.asarray(item._value))
    if hasattr(type(item), "__index__"):  # an integer of another class, as NumPy takes it
        return "int", operator.index(item)
    raise IndexError(_VALID)


_SIMPLE = (int, type(None))


def _slice_entry(sl, pos, dim, n):
    if type(sl.start) in _SIMPLE and type(sl.stop) in _SIMPLE and type(sl.step) in _SIMPLE:
        start, stop, step = sl.indices(n)
        return _Entry("slice", pos, dim, start=start, step=step, n=len(range(start, stop, step)))
    parts = []
    for c in (sl.start, sl.stop, sl.step):
        if isinstance(c, core.Tracer):
            v = c.to_concrete_value()
            if v is None:
                raise IndexError(errors.slice_bound_message(sl, pos, c))
            c = v
        if type(c) is core.Array:
            c = operator.index(c)
        parts.append(c)
    start, stop, step = builtins.slice(*parts).indices(n)
    return _Entry("slice", pos, dim, start=start, step=step, n=len(range(start, stop, step)))


def _check_int(v: int, dim: int, n: int, check: bool) -> int:
    if check and not -n <= v < n:
        raise IndexError(f"index {v} is out of bounds for axis {dim} with size {n}")
    return v + n if v < 0 else v


def _check_array(a: np.ndarray, dim: int, n: int, check: bool) -> np.ndarray:
    a = a.astype(np.int64, copy=False)
    if not a.size:
        return a
    lo, hi = int(a.min()), int(a.max())
    if check and (lo < -n or hi >= n):
        bad = (a < -n) | (a >= n)
        raise IndexError(
            f"index {a[bad].flat[0]} is out of bounds for axis {dim} with size {n}")
    return np.where(a < 0, a + n, a) if lo < 0 else a


def _check_arrays(entries, shape):
    """The deferred bounds check of concrete index arrays (already normalized)."""
    for e in entries:
        if e.kind == "arr" and e.value.size:
            n = shape[e.dim]
            bad = (e.value < 0) | (e.value >= n)
            if bad.any():
                v = e.value[bad].flat[0]
                raise IndexError(f"index {v - n if v < 0 else v} is out of bounds for axis "
                                 f"{e.dim} with size {n}")


def _parse(shape, idx, check: bool = True, defer_arrays: bool = False):
    """Normalized entries of ``idx`` for an array of ``shape`` and whether NumPy would
    return a scalar (every dimension indexed by an integer).

    ``check``: raise ``IndexError`` for out-of-bounds concrete indices;
    ``defer_arrays``: leave index arrays to :func:`_check_arrays` (NumPy checks
    them after the assigned value's shape)."""
    # (a tuple subclass, a named tuple, is a tuple of indices to NumPy)
    raw = idx if type(idx) is tuple else tuple(idx) if isinstance(idx, tuple) else (idx,)
    items = [_classify(item) for item in raw]
    if sum(k == "ellipsis" for k, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = 0
    for k, p in items:
        if k in ("slice", "int", "dyn", "arr", "tarr"):
            consumed += 1
        elif k == "boolarr":
            consumed += p.ndim
    ndim = len(shape)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but "
                         f"{consumed} were indexed")
    entries, d = [], 0
    for pos, (kind, p) in enumerate(items):
        if kind == "ellipsis":
            for _ in range(ndim - consumed):
                entries.append(_slice_entry(builtins.slice(None), pos, d, shape[d]))
                d += 1
        elif kind in ("new", "bool0"):
            entries.append(_Entry(kind, pos, value=p))
        elif kind == "slice":
            entries.append(_slice_entry(p, pos, d, shape[d]))
            d += 1
        elif kind == "int":
            entries.append(_Entry("int", pos, d, _check_int(p, d, shape[d], check)))
            d += 1
        elif kind == "arr":
            entries.append(_Entry("arr", pos, d,
                                  _check_array(p, d, shape[d], check and not defer_arrays)))
            d += 1
        elif kind in ("dyn", "tarr"):
            entries.append(_Entry(kind, pos, d, p))
            d += 1
        else:  # boolarr: its True positions, one index array per covered dimension
            for k in range(p.ndim):
                # as NumPy, an empty mask selects nothing whatever its shape
                if p.shape[k] != shape[d + k] and p.size:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {d + k}; size of "
                        f"axis is {shape[d + k]} but size of corresponding boolean axis is "
                        f"{p.shape[k]}")
            for k, nz in enumerate(np.nonzero(p)):
                entries.append(_Entry("arr", pos, d + k, nz.astype(np.int64)))
            d += p.ndim
    while d < ndim:
        entries.append(_slice_entry(builtins.slice(None), len(items), d, shape[d]))
        d += 1
    scalar = len(items) == ndim and all(k in ("int", "dyn") for k, _ in items)
    return entries, scalar


# --------------------------------------------------------------------------- index arithmetic


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


def _normalized(t, n: int):
    """A traced integer index in the default int dtype with negative values counted from the end."""
    dt = _util.default_int()
    unsigned = core.aval_of(t).dtype.kind == "u"
    if core.aval_of(t).dtype != dt:
        t = lax.convert_element_type(t, dt)
    if unsigned:
        return t
    return lax.select(lax.lt(t, _const(0, dt)), lax.add(t, _const(n, dt)), t)


def _index_dtype(shape):
    """The dtype of gather/scatter indices into an array of ``shape``: int32 when every
    dimension's positions fit in it (XLA's CPU and GPU gathers and scatters are faster
    with 32-bit indices), else the default int."""
    dt = _util.default_int()
    if dt != np.int32 and max(shape, default=0) < np.iinfo(np.int32).max:
        return np.dtype(np.int32)
    return dt


def _as_index_dtype(t, n: int, dt):
    """Normalized traced index ``t`` into a dimension of size ``n`` as ``dt``: clamped to
    ``[-1, n]`` first when narrowing, so an out-of-bounds index stays out of bounds (and is
    clipped, filled or dropped as the mode says) instead of wrapping."""
    if core.aval_of(t).dtype == dt:
        return t
    if np.iinfo(dt).max < np.iinfo(core.aval_of(t).dtype).max:
        src = core.aval_of(t).dtype
        t = lax.clamp(_const(-1, src), t, _const(n, src))
    return lax.convert_element_type(t, dt)


def _basic_read(x, entries):
    """``x[entries]`` for static slices, ints and None: slice, rev, squeeze, expand_dims."""
    shape = core.aval_of(x).shape
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    rev, squeeze, new_pos, out_pos = [], [], [], 0
    for e in entries:
        if e.kind == "new":
            new_pos.append(out_pos)
            out_pos += 1
        elif e.kind == "int":
            starts[e.dim], limits[e.dim] = e.value, e.value + 1
            squeeze.append(e.dim)
        else:
            out_pos += 1
            if e.n == 0:
                starts[e.dim] = limits[e.dim] = 0
            elif e.step > 0:
                starts[e.dim] = e.start
                limits[e.dim] = e.start + (e.n - 1) * e.step + 1
                strides[e.dim] = e.step
            else:
                starts[e.dim] = e.start + (e.n - 1) * e.step
                limits[e.dim] = e.start + 1
                strides[e.dim] = -e.step
                if e.n > 1:
                    rev.append(e.dim)
    # params are valid by construction: bind the primitives directly (no wrapper checks)
    y = x
    if starts != [0] * len(shape) or limits != list(shape) or strides != [1] * len(shape):
        st = None if strides == [1] * len(shape) else tuple(strides)
        y = lax.slice_p.bind(y, start_indices=tuple(starts), limit_indices=tuple(limits),
                             strides=st)
    if rev:
        y = lax.rev_p.bind(y, dimensions=tuple(rev))
    if squeeze:
        y = lax.squeeze_p.bind(y, dimensions=tuple(squeeze))
    if new_pos:
        y = lax.expand_dims(y, new_pos)
    return y


def _dyn_read(x, entries):
    """Traced scalar indices (no index arrays): one ``dynamic_slice``, then the basic path."""
    shape = core.aval_of(x).shape
    starts, sizes, rest = [0] * len(shape), list(shape), []
    for e in entries:
        if e.kind == "dyn":
            if shape[e.dim] == 0:
                raise IndexError(f"index is out of bounds for axis {e.dim} with size 0")
            starts[e.dim] = _normalized(e.value, shape[e.dim])
            sizes[e.dim] = 1
            rest.append(_Entry("int", e.pos, e.dim, 0))
        else:
            rest.append(e)
    return _basic_read(lax.dynamic_slice(x, starts, sizes), rest)


def _read(x, entries):
    if any(e.kind == "dyn" for e in entries):
        return _dyn_read(x, entries)
    return _basic_read(x, entries)


class _Plan:
    """An index as one gather: ``indices``, dimension numbers, slice sizes, output shape."""

    __slots__ = ("indices", "dnums", "slice_sizes", "out_shape", "traced", "empty")


def _place(values, bshape, start):
    """``values`` (broadcast right-aligned into ``bshape[start:start + k]``) as ``bshape``."""
    shape = [1] * len(bshape)
    shape[start:start + values.ndim] = values.shape
    return np.broadcast_to(values.reshape(shape), bshape)


def _gather_plan(shape, entries) -> _Plan:
    any_adv = any(e.kind in _ADVANCED for e in entries)
    adv = [e for e in entries if any_adv and e.kind in _ADVANCED | {"int", "dyn"}]
    shapes = []
    for e in adv:
        if e.kind == "bool0":
            shapes.append((1,) if e.value else (0,))
        elif e.kind in ("arr", "tarr"):
            shapes.append(tuple(core.aval_of(e.value).shape) if e.kind == "tarr" else e.value.shape)
    try:
        a_shape = tuple(np.broadcast_shapes(*shapes)) if shapes else ()
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + " ".join(str(s) for s in shapes)) from None
    positions = sorted({e.pos for e in adv})
    contiguous = not positions or positions[-1] - positions[0] == len(positions) - 1
    out_shape, batch, offset_dims, where = [], [], [], {}
    a_start = 0

    def place_a():
        nonlocal a_start
        a_start = len(batch)
        out_shape.extend(a_shape)
        batch.extend(a_shape)

    if adv and not contiguous:
        place_a()
    placed = bool(adv) and not contiguous
    adv_ids = {id(e) for e in adv}
    for e in entries:
        if id(e) in adv_ids:
            if not placed:
                place_a()
                placed = True
        elif e.kind == "slice" and e.step == 1:
            offset_dims.append(len(out_shape))
            out_shape.append(e.n)
        elif e.kind in ("slice", "new"):
            where[id(e)] = len(batch)
            n = e.n if e.kind == "slice" else 1
            out_shape.append(n)
            batch.append(n)
    bshape = tuple(batch)
    idx_dt = _index_dtype(shape)
    conc, traced, collapsed = [], [], []
    sizes = list(shape)
    for e in entries:
        if e.kind in ("new", "bool0"):
            continue
        d = e.dim
        if e.kind == "slice" and e.step == 1:
            sizes[d] = e.n
            if e.start:
                conc.append((d, np.full(bshape, e.start)))
            continue
        sizes[d] = 1
        collapsed.append(d)
        if e.kind == "slice":
            conc.append((d, _place(e.start + e.step * np.arange(e.n), bshape, where[id(e)])))
        elif e.kind == "int":
            conc.append((d, np.full(bshape, e.value)))
        elif e.kind == "arr":
            conc.append((d, _place(np.broadcast_to(e.value, a_shape), bshape, a_start)))
        else:  # dyn / tarr
            t = _as_index_dtype(_normalized(e.value, shape[d]), shape[d], idx_dt)
            r = core.aval_of(t).ndim
            dims = tuple(a_start + len(a_shape) - r + j for j in range(r))
            traced.append((d, lax.broadcast_in_dim(t, bshape + (1,), dims)))
    plan = _Plan()
    plan.out_shape = tuple(out_shape)
    plan.empty = 0 in out_shape
    plan.traced = bool(traced)
    if not plan.empty and any(shape[d] == 0 for d in collapsed):
        raise IndexError("index is out of bounds for an axis of size 0")
    pieces = []
    if conc or not traced:
        if len(conc) == 1:
            block = conc[0][1][..., None]
        else:
            block = np.stack([v for _, v in conc], axis=-1) if conc else np.zeros(bshape + (0,))
        pieces.append(core.lift(block.astype(idx_dt)))
    pieces.extend(t for _, t in traced)
    plan.indices = pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, len(bshape))
    start_map = tuple(d for d, _ in conc) + tuple(d for d, _ in traced)
    plan.dnums = GatherDimensionNumbers(tuple(offset_dims), tuple(sorted(collapsed)), start_map)
    plan.slice_sizes = tuple(sizes)
    return plan


def _empty(shape, aval):
    return lax.broadcast_in_dim(core.lift(np.zeros((), aval.dtype), aval.weak_type), shape, ())


def _gather_entries(x, entries, mode=None, fill_value=None):
    """``x[entries]`` as one gather (a copy); ``mode=None``: clip traced indices."""
    aval = core.aval_of(x)
    plan = _gather_plan(aval.shape, entries)
    if plan.empty:
        return _empty(plan.out_shape, aval)
    if mode is None:
        mode = _CLIP if plan.traced else _PROMISE
    return lax.gather_p.bind(x, plan.indices, dimension_numbers=plan.dnums,
                             slice_sizes=plan.slice_sizes, indices_are_sorted=False,
                             unique_indices=False, mode=mode, fill_value=fill_value)


# --------------------------------------------------------------------------- updates


def _np_shape(shape) -> str:
    """A shape as NumPy's C code prints it in messages: ``(2,3)``, ``(4,)``, ``()``."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def value_mismatch(basic, vshape, vdtype, out_shape, aval) -> ValueError:
    """NumPy's ``ValueError`` for ``x[idx] = value`` whose value does not broadcast to the
    indexing result (its wording for basic and for advanced indices), naming the value's
    and the array's dtypes and shapes: the same eagerly and under ``jit``."""
    if basic:
        head = (f"could not broadcast input array from shape {_np_shape(vshape)} into shape "
                f"{_np_shape(out_shape)}")
    else:
        head = (f"shape mismatch: value array of shape {_np_shape(vshape)} could not be "
                f"broadcast to indexing result of shape {_np_shape(out_shape)}")
    return ValueError(f"{head} (xnp.Array.__setitem__: value of dtype {np.dtype(vdtype).name} "
                      f"and shape {tuple(vshape)} into an array of dtype "
                      f"{np.dtype(aval.dtype).name} and shape {tuple(aval.shape)})")


def _prepare_value(value, aval, out_shape, basic=False):
    """``value`` cast to ``aval.dtype`` (NumPy's assignment casting), broadcast to ``out_shape``
    (``basic``: the index has no arrays, for NumPy's wording of a mismatch)."""
    dt = aval.dtype
    vdtype = dt
    if core.is_python_scalar(value):
        v = core.lift(_default_dtypes.scalar_to_ndarray(value, dt), aval.weak_type)
    else:
        v = asarray_for("setitem", value, "value")
        va = core.aval_of(v)
        vdtype = va.dtype
        if va.dtype != dt or (aval.weak_type and not va.weak_type):
            v = lax.convert_element_type(v, dt, weak_type=aval.weak_type)
    vshape = core.aval_of(v).shape
    orig = vshape
    k = 0
    while len(vshape) - k > len(out_shape) and vshape[k] == 1:
        k += 1
    if k:
        vshape = vshape[k:]
        v = lax.reshape(v, vshape)
    r = len(vshape)
    tail = out_shape[len(out_shape) - r:]
    if r > len(out_shape) or any(a not in (1, b) for a, b in zip(vshape, tail)):
        raise value_mismatch(basic, orig, vdtype, out_shape, aval)
    if vshape != tuple(out_shape):
        dims = tuple(range(len(out_shape) - r, len(out_shape)))
        v = lax.broadcast_in_dim(v, tuple(out_shape), dims)
    return v


_SCATTERS = {"set": lax.scatter, "add": lax.scatter_add, "multiply": lax.scatter_mul,
             "min": lax.scatter_min, "max": lax.scatter_max}


def _write(x, entries, value, kind="set", mode=None, view_write=False, check_arrays=False):
    """``x`` with ``value`` written (or combined) at ``entries``: functional.

    ``mode=None``: static in-bounds indices; traced ones drop out-of-bounds
    writes, except for ``view_write`` (clamped, mirroring how the view was read).
    """
    aval = core.aval_of(x)
    basic = not any(e.kind in _ADVANCED for e in entries)
    dus = kind == "set" and mode is None and all(
        e.kind in ("int", "new") or (e.kind == "dyn" and view_write) or (
            e.kind == "slice" and e.step == 1) for e in entries)
    if dus:
        out_shape = [1 if e.kind == "new" else e.n for e in entries if e.kind in ("slice", "new")]
        upd = _prepare_value(value, aval, tuple(out_shape), basic)
        window = tuple(e.n if e.kind == "slice" else 1 for e in entries if e.kind != "new")
        if core.aval_of(upd).shape != window:
            upd = lax.reshape(upd, window)
        starts = []
        for e in entries:
            if e.kind == "dyn":
                starts.append(_normalized(e.value, aval.shape[e.dim]))
            elif e.kind != "new":
                starts.append(e.start if e.kind == "slice" else e.value)
        return lax.dynamic_update_slice(x, upd, starts)
    plan = _gather_plan(aval.shape, entries)
    upd = _prepare_value(value, aval, plan.out_shape, basic)
    if check_arrays:
        _check_arrays(entries, aval.shape)
    if plan.empty:
        return x
    if mode is None:
        mode = (_CLIP if view_write else _FILL) if plan.traced else _PROMISE
    sdn = ScatterDimensionNumbers(plan.dnums.offset_dims, plan.dnums.collapsed_slice_dims,
                                  plan.dnums.start_index_map)
    return _SCATTERS[kind](x, plan.indices, upd, sdn, mode=mode)


def _host(a):
    """An eager array's host value (read unwatched: a recording notes what it is used for,
    :func:`xnp.tracing.recording.write_item`); a jit output's is read."""
    v = a._v
    return v if v is not None else a._value


def _native_index(idx):
    if type(idx) is core.Array:
        return _host(idx)
    if type(idx) is tuple:
        return tuple(_native_index(i) for i in idx)
    return idx


# --------------------------------------------------------------------------- array.py hooks


def getitem(x, idx):
    """``x[idx]`` with NumPy semantics (used by ``Array.__getitem__``).

    Basic indexing gives a view eagerly (writes through it reach ``x``), and
    under a transformation (``jit``, ``grad``, ``vmap``...) a traced view whose
    writes propagate to ``x`` (:mod:`xnp.numpy_api._views`). Index arrays
    and masks give copies (a gather). A concrete out-of-bounds index raises
    ``IndexError``; a traced one is clamped into range (after negative values
    are counted from the end), as ``dynamic_slice``/``gather`` mode ``clip`` do.

    Raises
    ------
    IndexError
        Out-of-bounds concrete index, too many indices, bad index types, a mask
        of the wrong shape, traced slice bounds.
    xnp.errors.NonConcreteBooleanIndexError
        A traced boolean mask (its True count decides the result shape).
    """
    if core._REBOUND_ON[0]:  # arrays rebound to traced values (xnp.tracing.rebound)
        x, idx = rebound.resolve(x), rebound.resolve_index(idx)
    entries, scalar = _parse(x.shape, idx)
    if any(e.kind in _ADVANCED for e in entries):
        return _gather_entries(x, entries)
    out = _read(x, entries)
    if scalar:  # NumPy returns a scalar: never an alias of x
        if out is x or type(out) is core.Array:
            out = lax.copy(out)
        if isinstance(out, core.Tracer):  # immutable, as NumPy's: `s += 1.5` makes a new value
            out.annotations()[_views.NUMPY_SCALAR] = True
        return out
    if out is not x:
        out = track_view(x, out, entries, read=lambda base: _read(base, entries),
                         write=lambda base, new: _write(base, entries, new, view_write=True))
    elif type(x) is core.Array:  # NumPy's x[:] is a new view object of all of x
        out = core.Array(x._writable_value()[...], x._weak)
    return out


def _aval_str(aval) -> str:
    return f"{aval.dtype.name}[{','.join(str(n) for n in aval.shape)}]"


def _traced_mask(idx):
    """The index if it is one abstract boolean tracer (alone or as a 1-tuple), else None."""
    if type(idx) is tuple and len(idx) == 1:
        idx = idx[0]
    if isinstance(idx, core.Tracer) and idx.aval.dtype == np.bool_ and _concrete(idx) is None:
        return idx
    return None


def _masked_write(x, mask, value):
    """``x[mask] = value`` for a traced boolean ``mask``: ``where(mask, value, x)``.

    Static shapes need a ``value`` that broadcasts to ``x.shape[mask.ndim:]`` (one
    value for every selected element, e.g. a scalar); a value with one row per
    selected element has a data-dependent shape and raises.
    """
    aval, maval = core.aval_of(x), core.aval_of(mask)
    k = maval.ndim
    if k > aval.ndim:
        raise IndexError(f"too many indices for array: array is {aval.ndim}-dimensional, "
                         f"but {k} were indexed")
    for axis, (n, m) in enumerate(zip(aval.shape, maval.shape)):
        if n != m:
            raise IndexError(f"boolean index did not match indexed array along axis {axis}; "
                             f"size of axis is {n} but size of corresponding boolean axis is {m}")
    rest = aval.shape[k:]
    vshape = tuple(core.aval_of(value).shape if is_xnp(value) else np.shape(value))
    lead = vshape[:max(len(vshape) - len(rest), 0)]
    tail = vshape[len(lead):]
    if not (all(d == 1 for d in lead)
            and all(a in (1, b) for a, b in zip(tail, rest[len(rest) - len(tail):]))):
        raise errors.NonConcreteBooleanIndexError(
            f"xnp.Array.__setitem__: x[mask] = value with a traced mask {_aval_str(maval)} "
            f"into {_aval_str(aval)} needs a value that broadcasts to {rest} (one value for "
            f"every selected element); got shape {vshape}, whose rows depend on how many "
            "elements are selected.\n"
            "Fix: x = xnp.where(mask, values_of_x_shape, x), or make the mask static.\n"
            + errors.docs_pointer(errors.NonConcreteBooleanIndexError))
    v = _prepare_value(value, aval, rest)
    v = lax.broadcast_in_dim(v, aval.shape, tuple(range(k, aval.ndim)))
    m = lax.broadcast_in_dim(mask, aval.shape, tuple(range(k)))
    return lax.select(m, v, x)


def _eager_mismatch(e: ValueError, x, value) -> ValueError:
    """NumPy's shape-mismatch error of an eager ``x[idx] = value`` worded as under ``jit``
    (:func:`value_mismatch`); any other error unchanged."""
    msg = str(e)
    basic = msg.startswith("could not broadcast input array from shape ")
    if not basic and not msg.startswith("shape mismatch: value array of shape "):
        return e
    v = np.asarray(value)
    try:
        parts = msg.split("shape ")
        out = tuple(int(d) for d in parts[-1].strip("() ").split(",") if d.strip())
    except ValueError:
        return e
    return value_mismatch(basic, v.shape, v.dtype, out, x.aval)


def _writes_its_place(x, value, idx) -> bool:
    """Whether ``value`` is bound to the place ``x[idx]`` (a basic index) of the cell ``x``
    is bound to: writing it there changes nothing."""
    place = is_place_of(value, x)
    if place is None or not isinstance(idx, (int, slice, tuple, type(Ellipsis), type(None))):
        return False
    entries, _ = _parse(x.aval.shape, idx, defer_arrays=True)
    return [e.key() for e in entries] == [e.key() for e in place]


def setitem(x, idx, value) -> None:
    """``x[idx] = value`` with NumPy semantics (used by ``Array.__setitem__``).

    Eager arrays are written in place (NumPy's casting, broadcasting, masks,
    last write wins for repeated indices). Under every transformation a tracer's
    memory is a cell (a ref) that the updated value (``dynamic_update_slice`` or
    ``scatter``) is written into; writes into a traced view reach its base, and the
    base's other views read the new value. Out-of-bounds traced indices are dropped. A traced boolean mask
    (``x[x > 0] = 0`` under ``jit``) is a ``select``, for a value that broadcasts to
    ``x.shape[mask.ndim:]`` (NumPy's result; other values raise
    ``NonConcreteBooleanIndexError``).

    Raises
    ------
    IndexError, ValueError, OverflowError, TypeError
        As NumPy (bad index, shape mismatch, Python int out of range, casting).
    xnp.errors.ForeignWriteError
        Writing into an eager array inside jit (a side effect), a traced value into an
        eager array under grad/vmap that the transformed function did not make (one it
        made is rebound to a traced value first), or into a tracer of an enclosing
        transformation.
    xnp.errors.NonConcreteBooleanIndexError
        A traced mask with a value of data-dependent shape.
    """
    if core._REBOUND_ON[0]:
        idx = rebound.resolve_index(idx)
        if _writes_its_place(x, value, idx):
            return  # x[idx] = x[idx] (the tail of `x[idx] += y`): writes nothing
        value = rebound.resolve(value)
    if type(x) is core.Array and not adopt(x, (value, idx)):  # (adopted: bound to a cell)
        try:
            core.check_eager_write(x.aval, value, idx)
        except errors.ForeignWriteError as e:
            raise _util.unmapped_write_error(e, x, value, idx) from None
        nval = _host(value) if type(value) is core.Array else value
        try:  # (a replay repeats it as NumPy's __setitem__ on the new values)
            recording.write_item(x, idx, value, _native_index(idx), nval, _util.write_into)
        except ValueError as e:
            raise _eager_mismatch(e, x, nval) from None
        return
    mask = _traced_mask(idx)
    xv = rebound.resolve(x)  # (a bound array: its current value)
    try:
        if mask is not None:
            _rebind(x, _masked_write(xv, mask, value))
            return
        entries, _ = _parse(x.aval.shape, idx, defer_arrays=True)
        _rebind(x, _write(xv, entries, value, check_arrays=True))
    except errors.ForeignWriteError as e:
        raise _util.unmapped_write_error(e, x, value, idx) from None

