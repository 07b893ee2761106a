"""NumPy indexing on ``xnp.lax``: ``x[idx]``, ``x[idx] = v``, ``x.at[idx]`` and the
indexing routines (``nonzero``, ``flatnonzero``, ``argwhere``, ``take``,
``take_along_axis``, ``put_along_axis``, ``compress``, ``extract``).

How an index becomes lax (NumPy's rules throughout):

* basic indices (ints, slices with any step, ``None``, ``...``) ->
  ``slice`` (+ ``rev`` for negative steps, ``squeeze`` for ints,
  ``broadcast_in_dim`` for ``None``): eagerly a NumPy view of the array;
* a traced integer scalar (no index arrays) -> ``dynamic_slice``;
* index arrays (ints, lists, concrete boolean masks converted to their True
  positions) mixed with the rest -> one ``gather`` (and ``scatter`` for
  updates), with NumPy's placement of the advanced dimensions.

Out-of-bounds indices: a concrete index raises ``IndexError`` as in NumPy,
eagerly and under ``jit``. A traced index cannot be checked: reads clamp it
into range (``x[i]`` with ``i = 10`` reads the last element; negative values
count from the end first), writes with it are dropped. Writes through a
basic-index view (``x[1:3] += 1``, ``v = x[0]; v[...] = 5``) reach the base
under every transformation (``jit``, ``grad``/``jvp``/``vjp``, ``vmap``) as they
do eagerly; such a view is replayed from its base when the base is written
(:mod:`xnp.numpy_api._views`).
"""

from __future__ import annotations

import builtins
import functools

import numpy as np

from xnp import lax
from xnp.lax.slicing import GatherDimensionNumbers, ScatterDimensionNumbers
from xnp.numpy_api import _util
from xnp.numpy_api._host_calls import eager_host_call
from xnp.numpy_api._index_at import AtIndexer
from xnp.numpy_api._index_core import (_CLIP, _FILL, _PROMISE, _as_index_dtype, _check_array,
                                       _concrete, _const, _empty, _Entry, _gather_entries,
                                       _index_dtype, _normalized, _prepare_value, _rebind,
                                       _slice_entry, getitem, setitem)
from xnp.numpy_api._views import rebind_traced, resolve
from xnp.numpy_api._util import asarray_for, is_xnp, write_out
from xnp.tracing import core, errors

# getitem, setitem, rebind_traced and AtIndexer are used by xnp/array.py (not public API)
__all__ = ["nonzero", "flatnonzero", "argwhere", "take", "take_along_axis", "put_along_axis",
           "compress", "extract"]

_HOOKS = (getitem, setitem, rebind_traced, AtIndexer)


# --------------------------------------------------------------------------- indexing routines


def _nonzero_fills(fname, fill_value, ndim):
    if fill_value is None:
        return [0] * ndim
    if isinstance(fill_value, (tuple, list)):
        if len(fill_value) != ndim:
            raise ValueError(f"xnp.{fname}: `fill_value` must be a scalar or a tuple of length "
                             f"{ndim}, got {fill_value!r}")
        return list(fill_value)
    return [fill_value] * ndim


def _fill_vector(fname, value, size, dt):
    """``value`` (a static or traced scalar) broadcast to ``(size,)`` of ``dt``."""
    if core.is_python_scalar(value) or isinstance(value, (np.generic, np.ndarray)):
        v = core.lift(np.asarray(value).astype(dt))
    else:
        v = asarray_for(fname, value, "fill_value")
        if core.aval_of(v).ndim != 0:
            raise ValueError(f"xnp.{fname}: `fill_value` entries must be scalars, got "
                             f"{errors.aval_str(core.aval_of(v))}")
        v = lax.convert_element_type(v, dt)
    return lax.broadcast_in_dim(v, (size,), ())


def _prefix_sum(v):
    """Inclusive prefix sum of a 1-D array: log2(n) shifted adds (Hillis-Steele)."""
    n = core.aval_of(v).shape[0]
    zero = _const(0, core.aval_of(v).dtype)
    k = 1
    while k < n:
        v = lax.add(v, lax.pad(lax.slice(v, (0,), (n - k,)), zero, [(k, 0, 0)]))
        k *= 2
    return v


def _nonzero_staged(fname, a, size, fills):
    """Coordinates of the first ``size`` non-zero elements (row-major), padded with ``fills``."""
    aval = core.aval_of(a)
    dt = _util.default_int()
    n = aval.size
    mask = lax.ne(a, core.lift(np.zeros((), aval.dtype)))
    flat = lax.reshape(mask, (n,)) if aval.ndim != 1 else mask
    slot = lax.sub(_prefix_sum(lax.convert_element_type(flat, dt)), _const(1, dt))
    target = lax.select(flat, slot, lax.broadcast_in_dim(_const(size, dt), (n,), ()))
    target = lax.reshape(target, (n, 1))
    sdn = ScatterDimensionNumbers((), (0,), (0,))
    out = []
    for d in range(aval.ndim):
        base = _fill_vector(fname, fills[d], size, dt)
        if size == 0 or n == 0:
            out.append(base)
            continue
        coord = lax.reshape(lax.iota(dt, aval.shape, d), (n,))
        out.append(lax.scatter(base, target, coord, sdn, mode=_FILL))
    return tuple(out)


def nonzero(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements of ``a``, one index array per dimension.

    Follows ``numpy.nonzero``; ``size``/``fill_value`` are the xnp (JAX)
    extension that makes it traceable.

    Parameters
    ----------
    a : array_like
        Any dtype, at least 1-D (0-d raises ``ValueError`` as in NumPy 2).
    size : int, optional
        Static number of results: the first ``size`` non-zero positions
        (row-major), padded with ``fill_value``. Required under ``jit``, where
        the count of non-zeros is not known while tracing.
    fill_value : scalar or tuple of scalars, optional
        Padding for ``size`` (per dimension if a tuple); default 0.

    Returns
    -------
    tuple of Array
        ``a.ndim`` int64 arrays (the default int dtype) of equal length.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``a`` is traced and ``size`` is not given.
    ValueError
        ``a`` is 0-d.

    Notes
    -----
    Eagerly (``size=None``) the positions are computed by the eager backend's
    ``nonzero`` on the concrete data; with ``size`` the computation is staged
    (a prefix sum and a scatter), so eager and jit results agree.
    """
    host = None if is_xnp(a) else np.asarray(a)  # host data (lists, NumPy) is concrete
    a = asarray_for("nonzero", a)
    aval = core.aval_of(a)
    if aval.ndim == 0:  # (NumPy's words, and for a bool condition its hint)
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead." + (
                             " If the context of this error is of the form "
                             "`arr[nonzero(cond)]`, just use `arr[cond]`."
                             if aval.dtype == np.bool_ else ""))
    fills = _nonzero_fills("nonzero", fill_value, aval.ndim)
    dt = _util.default_int()
    if size is None:
        if host is None:
            # (NumPy's own result where the default int is NumPy's index type)
            out = eager_host_call(np.ndarray.nonzero if dt == np.intp else functools.partial(
                _host_nonzero, dtype=dt), a, weak=False, multiple=True,
                shaped_by_values=True)
            if out is not None:
                return out
            host = _concrete(a)
        if host is None:
            count = lax.reduce_sum(lax.convert_element_type(
                lax.ne(a, core.lift(np.zeros((), aval.dtype))), dt), tuple(range(aval.ndim)))
            raise errors.ConcretizationTypeError(errors.concretization_message(
                count, "The size argument of xnp.nonzero must be statically specified to use "
                       "xnp.nonzero within xnp transformations.", fix=errors.NONZERO_SIZE_FIX))
        return tuple(core.lift(i.astype(dt)) for i in np.nonzero(host))
    size = _util.static_int("nonzero", size, "size")
    if size < 0:
        raise ValueError(f"xnp.nonzero: `size` must be >= 0, got {size}")
    return _nonzero_staged("nonzero", a, size, fills)


def _host_nonzero(v, dtype):
    return tuple([i.astype(dtype) for i in np.nonzero(v)])


def _host_argwhere(v, dtype):
    return np.argwhere(v).astype(dtype)


def flatnonzero(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements of ``ravel(a)`` (``numpy.flatnonzero``).

    Parameters
    ----------
    a : array_like
        Any dtype and shape (0-d is treated as 1-D).
    size, fill_value : optional
        As in :func:`nonzero` (xnp/JAX extension); ``size`` is required under ``jit``.

    Returns
    -------
    Array
        1-D int64 (default int) indices into the flattened ``a``.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``a`` is traced and ``size`` is not given.
    """
    a = asarray_for("flatnonzero", a)
    aval = core.aval_of(a)
    flat = lax.reshape(a, (aval.size,)) if aval.ndim != 1 else a
    return nonzero(flat, size=size, fill_value=fill_value)[0]


def argwhere(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements of ``a``, one row per element (``numpy.argwhere``).

    Parameters
    ----------
    a : array_like
        Any dtype and shape.
    size, fill_value : optional
        As in :func:`nonzero` (xnp/JAX extension); ``size`` is required under
        ``jit`` and fixes the number of rows.

    Returns
    -------
    Array
        int64 (default int) of shape ``(count, a.ndim)``; a 0-d ``a`` gives shape
        ``(1, 0)`` or ``(0, 0)`` as in NumPy.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``a`` is traced and ``size`` is not given.
    """
    a = asarray_for("argwhere", a)
    if size is None:  # eagerly NumPy's argwhere of the values
        dt = _util.default_int()
        out = eager_host_call(np.argwhere if dt == np.intp else functools.partial(
            _host_argwhere, dtype=dt), a, weak=False, shaped_by_values=True)
        if out is not None:
            return out
    aval = core.aval_of(a)
    x = lax.reshape(a, (1,)) if aval.ndim == 0 else a
    cols = nonzero(x, size=size, fill_value=fill_value)
    n = core.aval_of(cols[0]).shape[0]
    cols = [lax.broadcast_in_dim(c, (n, 1), (0,)) for c in cols]
    out = cols[0] if len(cols) == 1 else lax.concatenate(cols, 1)
    if aval.ndim == 0:
        out = lax.slice(out, (0, 0), (n, 0))
    return out


def _index_array(fname, indices, strict=False):
    """``indices`` as an index-array entry value: an int64 ndarray (concrete) or an int tracer.

    Bool indices are cast to int (``numpy.take``'s ``same_kind`` casting; a float
    dtype is a ``TypeError``); with ``strict`` (``take_along_axis``) anything but an
    integer dtype is an ``IndexError``, as in NumPy.
    """
    if is_xnp(indices):
        host = _concrete(indices)
        dt = core.aval_of(indices).dtype
    else:
        host = np.asarray(indices)
        dt = host.dtype if host.size else np.dtype(np.int64)
    kind = dt.kind
    if kind not in "iu" and strict:
        raise IndexError("`indices` must be an integer array")
    if kind not in "iub":
        raise TypeError(f"Cannot cast array data from {dt!r} to dtype('int64') according to the "
                        "rule 'same_kind'")
    if host is None:
        if kind not in "iu":
            return lax.convert_element_type(indices, _util.default_int())
        return indices
    return host.astype(np.int64)


def _axis_entries(shape, axis, dim_entry):
    full = builtins.slice(None)
    before = [_slice_entry(full, d, d, shape[d]) for d in range(axis)]
    after = [_slice_entry(full, d + 1, d, shape[d]) for d in range(axis + 1, len(shape))]
    return before + [dim_entry] + after


def take(a, indices, axis=None, out=None, mode="raise", *, fill_value=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (``numpy.take``).

    Parameters
    ----------
    a : array_like
    indices : array_like of int
        Any shape; the result is ``a.shape[:axis] + indices.shape + a.shape[axis+1:]``.
    axis : int, optional
        Default None: index the flattened ``a``.
    out : Array, optional
        Written as in NumPy (rebound under ``jit``).
    mode : {'raise', 'wrap', 'clip', 'fill'}
        ``'raise'``: concrete out-of-bounds indices raise ``IndexError``; traced
        ones are clamped (xnp cannot raise at run time). ``'wrap'``: modulo the
        axis length. ``'clip'``: clamp into ``[0, n-1]`` (negative indices become
        0, as in NumPy). ``'fill'`` (xnp/JAX extension): out-of-bounds give
        ``fill_value`` (default NaN, the integer minimum, or True).

    fill_value : scalar, optional
        For ``mode='fill'`` (keyword-only extension).

    Returns
    -------
    Array
        A new array of ``a``'s dtype (a gather).

    Raises
    ------
    IndexError
        A concrete out-of-bounds index with ``mode='raise'``; a non-empty
        ``indices`` on an empty axis with ``'raise'``, ``'wrap'`` or ``'clip'``
        ("cannot do a non-empty take from an empty axes.", also under ``jit``).
    TypeError
        A float index array (bool indices are cast to 0/1 as in NumPy).
    ValueError
        Unknown ``mode``.
    numpy.exceptions.AxisError
        ``axis`` out of range.

    """
    a = asarray_for("take", a)
    host = _eager_take(a, indices, axis, out, mode)
    if host is not None:
        return host
    if axis is None:
        a = lax.reshape(a, (core.aval_of(a).size,))
        axis = 0
    shape = core.aval_of(a).shape
    axis = _util.normalize_axis("take", axis, len(shape))
    n = shape[axis]
    idx = _index_array("take", indices)
    traced = isinstance(idx, core.Tracer)
    gmode = None
    size = core.aval_of(idx).size if traced else np.size(idx)
    if n == 0 and size and mode in ("raise", "wrap", "clip"):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "raise":
        if not traced:
            idx = _check_array(idx, axis, n, True)
    elif mode == "wrap":
        if n == 0:  # no indices (checked above): an empty result
            pass
        elif traced:
            r = lax.rem(idx, _const(n, core.aval_of(idx).dtype))
            idx = lax.select(lax.lt(r, _const(0, core.aval_of(r).dtype)), lax.add(
                r, _const(n, core.aval_of(r).dtype)), r)
        else:
            idx = np.mod(idx, n)
    elif mode == "clip":
        if traced:
            dt = core.aval_of(idx).dtype
            idx = lax.clamp(_const(0, dt), idx, _const(max(n - 1, 0), dt))
        else:
            idx = np.clip(idx, 0, max(n - 1, 0))
    elif mode == "fill":
        gmode = _FILL
        if not traced:
            idx = np.where(idx < 0, idx + n, idx)
    else:
        raise ValueError(
            f"xnp.take: `mode` must be 'raise', 'wrap', 'clip' or 'fill', got {mode!r}")
    entry = _Entry("tarr" if traced else "arr", axis, axis, idx)
    res = _gather_entries(a, _axis_entries(shape, axis, entry), gmode, fill_value)
    return write_out("take", out, res)


def _eager_take(a, indices, axis, out, mode):
    """Eagerly, NumPy's ``take`` of the host values (``_host_calls``), or None: the index
    is not an integer (or bool) eager array, Python int, list, tuple or NumPy array, ``out``
    or ``mode='fill'`` is given, or the axis is out of range (the full path raises)."""
    if out is not None or type(mode) is not str or mode not in ("raise", "wrap", "clip") \
            or type(a) is not core.Array:
        return None
    if is_xnp(indices):
        idx = resolve(indices)
    elif type(indices) in (int, list, tuple, np.ndarray):  # made an eager array first
        try:
            idx = asarray_for("take", indices, "indices")
        except (TypeError, ValueError, errors.HostDtypeError):
            return None  # (the full path raises its own message)
    else:
        return None
    if type(idx) is not core.Array or core.aval_of(idx).dtype.kind not in "iub":
        return None
    if axis is not None:
        ndim = core.aval_of(a).ndim
        if type(axis) is not int or not -ndim <= axis < ndim:
            return None
    return eager_host_call(functools.partial(np.ndarray.take, axis=axis, mode=mode), a, idx)


def _eager_take_along_axis(arr, indices, axis):
    """Eagerly, NumPy's ``take_along_axis`` of the host values (``_host_calls``), or None
    where the full path raises first (a non-integer index, ranks or shapes that differ,
    an axis out of range) or an argument is not an eager array."""
    if not (is_xnp(arr) and is_xnp(indices)):
        return None
    arr, idx = resolve(arr), resolve(indices)
    if type(arr) is not core.Array or type(idx) is not core.Array:
        return None
    iaval, shape = core.aval_of(idx), core.aval_of(arr).shape
    if iaval.dtype.kind not in "iu":
        return None
    if axis is None:
        if iaval.ndim != 1:
            return None
    elif iaval.ndim != len(shape) or type(axis) is not int or not -len(shape) <= axis < len(
            shape) or any(d != axis % len(shape) and m != k and 1 not in (m, k)
                          for d, (m, k) in enumerate(zip(shape, iaval.shape))):
        return None
    return eager_host_call(functools.partial(np.take_along_axis, axis=axis), arr, idx)


def _index_grid_shapes(shape, ishape, axis) -> str:
    """The shapes of the index arrays NumPy's ``take_along_axis`` builds (an ``arange`` of
    each other dimension of ``arr``, ``indices`` along ``axis``), as its error prints
    them."""
    nd = len(shape)
    parts = [tuple(ishape) if d == axis else tuple(shape[d] if e == d else 1
                                                   for e in range(nd)) for d in range(nd)]
    return "".join(str(p).replace(" ", "").replace(",)", ")") + " " for p in parts)


def _along_axis(fname, arr, indices, axis, target_shape=None):
    """Broadcast ``arr`` and ``indices`` in the non-axis dims; the gather/scatter pieces."""
    arr = asarray_for(fname, arr, "arr")
    idx = _index_array(fname, indices, strict=True)
    iaval = core.aval_of(idx) if isinstance(idx, core.Tracer) else None
    ishape = iaval.shape if iaval is not None else idx.shape
    if axis is None:
        if len(ishape) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr = lax.reshape(arr, (core.aval_of(arr).size,))
        axis = 0
    shape = core.aval_of(arr).shape
    if len(ishape) != len(shape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = _util.normalize_axis(fname, axis, len(shape))
    bshape = []
    for d, (m, k) in enumerate(zip(shape, ishape)):
        if d == axis:
            bshape.append(None)
            continue
        if m != k and 1 not in (m, k):
            if target_shape is None:  # NumPy's IndexError of its index arrays' shapes
                raise IndexError("shape mismatch: indexing arrays could not be broadcast "
                                 "together with shapes " + _index_grid_shapes(
                                     shape, ishape, _util.normalize_axis(fname, axis,
                                                                         len(shape))))
            raise ValueError(f"shape mismatch: `arr` {shape} and `indices` {tuple(ishape)} cannot "
                             "be broadcast together outside the axis")
        bshape.append(max(m, k) if 0 not in (m, k) else 0)
    if target_shape is not None and any(b is not None and b != t for b, t in zip(bshape, shape)):
        raise ValueError(
            f"xnp.{fname}: `indices` {tuple(ishape)} do not broadcast to `arr` {shape}")
    n = shape[axis]
    ashape = tuple(n if b is None else b for b in bshape)
    xshape = tuple(ishape[axis] if b is None else b for b in bshape)
    if ashape != shape:
        arr = lax.broadcast_in_dim(arr, ashape, tuple(range(len(shape))))
    idx_dt = _index_dtype(ashape)
    if isinstance(idx, core.Tracer):
        idx = _as_index_dtype(_normalized(idx, n), n, idx_dt)
        if tuple(ishape) != xshape:
            idx = lax.broadcast_in_dim(idx, xshape, tuple(range(len(xshape))))
        traced = True
    else:
        idx = core.lift(np.broadcast_to(_check_array(idx, axis, n, True), xshape).astype(idx_dt))
        traced = False
    idx = lax.reshape(idx, xshape + (1,))
    batch = tuple(d for d in range(len(shape)) if d != axis)
    return arr, idx, axis, batch, xshape, traced


def take_along_axis(arr, indices, axis=-1):
    """``arr`` indexed along ``axis`` by ``indices`` of the same rank (``numpy.take_along_axis``).

    Parameters
    ----------
    arr : array_like
    indices : array_like of int
        Same rank as ``arr`` (1-D for ``axis=None``); negative values count from
        the end. Its dims other than ``axis`` broadcast against ``arr``'s.
    axis : int or None
        Default -1. None works on the flattened ``arr``.

    Returns
    -------
    Array
        ``arr``'s dtype; the broadcast shape with ``indices.shape[axis]`` along
        ``axis``. A gather with batching dimensions (a copy).

    Raises
    ------
    IndexError
        Non-integer ``indices`` or a concrete out-of-bounds index (a traced one is
        clamped into range: xnp cannot raise at run time).
    ValueError
        Ranks differ or the non-axis dims do not broadcast.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    host = _eager_take_along_axis(arr, indices, axis)
    if host is not None:
        return host
    arr, idx, axis, batch, xshape, traced = _along_axis("take_along_axis", arr, indices, axis)
    if 0 in xshape:
        return _empty(xshape, core.aval_of(arr))
    if core.aval_of(arr).shape[axis] == 0:
        raise IndexError(f"index is out of bounds for axis {axis} with size 0")
    dn = GatherDimensionNumbers((), (axis,), (axis,), batch, batch)
    return lax.gather(arr, idx, dn, (1,) * len(xshape), mode=_CLIP if traced else _PROMISE)


def put_along_axis(arr, indices, values, axis):
    """Write ``values`` into ``arr`` at ``indices`` along ``axis``, in place.

    Follows ``numpy.put_along_axis``.

    Parameters
    ----------
    arr : Array
        Modified in place eagerly; under ``jit`` the traced ``arr`` is rebound
        (and a jitted function's argument is written back to the caller).
    indices : array_like of int
        Same rank as ``arr``; broadcasts against ``arr`` outside ``axis``.
    values : array_like
        Broadcast to the (broadcast) shape of ``indices``; cast to ``arr.dtype``.
    axis : int
        ``axis=None`` is not supported (NotImplementedError).

    Returns
    -------
    None

    Raises
    ------
    IndexError
        A concrete out-of-bounds index (traced out-of-bounds writes are dropped).
    ValueError
        Shapes do not broadcast.

    Notes
    -----
    Repeated indices: the last write wins eagerly and on CPU; XLA on GPU may
    pick any of them.
    """
    target = arr
    if isinstance(target, core.Array) and type(target) is not core.Array:
        _util.raise_host_dtype("put_along_axis", "arr", target.dtype)  # NumPy's writes it
    if not is_xnp(target):
        raise TypeError("xnp.put_along_axis: `arr` must be an xnp array (it is modified in place)")
    if axis is None:
        raise NotImplementedError(
            "xnp.put_along_axis: axis=None (flattened in-place writes) is not supported; "
            "write into a reshaped view instead.")
    taval = core.aval_of(target)
    a, idx, axis, batch, xshape, traced = _along_axis("put_along_axis", target, indices, axis,
                                                      target_shape=taval.shape)
    upd = _prepare_value(values, taval, xshape)
    if 0 in xshape:
        return None
    dn = ScatterDimensionNumbers((), (axis,), (axis,), batch, batch)
    new = lax.scatter(target, idx, upd, dn, mode=_FILL if traced else _PROMISE)
    if type(target) is core.Array:
        _util.write_into(target._writable_value(), ..., new._value)
    else:
        _rebind(target, new)
    return None


def compress(condition, a, axis=None, out=None, *, size=None, fill_value=0):
    """The slices of ``a`` along ``axis`` where ``condition`` is true (``numpy.compress``).

    Parameters
    ----------
    condition : 1-D array_like
        Truthiness of each entry; may be shorter than the axis (the rest counts
        as False) but not longer.
    a : array_like
    axis : int, optional
        Default None: the flattened ``a``.
    out : Array, optional
        Written as in NumPy (rebound under ``jit``).
    size : int, optional
        xnp/JAX extension, required for a traced ``condition``: the result has
        exactly ``size`` slices, padded with ``fill_value``.
    fill_value : scalar
        Padding for ``size`` (default 0).

    Returns
    -------
    Array
        ``a``'s dtype; ``a.shape`` with the axis length replaced by the number of
        selected slices (or ``size``).

    Raises
    ------
    ValueError
        ``condition`` is not 1-D.
    IndexError
        ``condition`` is longer than the axis.
    xnp.errors.ConcretizationTypeError
        ``condition`` is traced and ``size`` is not given.
    """
    cond = condition if is_xnp(condition) else np.asarray(condition)
    caval = core.aval_of(cond)
    if caval.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = asarray_for("compress", a)
    if axis is None:
        a = lax.reshape(a, (core.aval_of(a).size,))
        axis = 0
    shape = core.aval_of(a).shape
    axis = _util.normalize_axis("compress", axis, len(shape))
    n = shape[axis]
    if size is None and out is None and type(cond) is core.Array:
        # eagerly NumPy's compress of the values (its length is theirs; a True past the
        # axis is NumPy's IndexError)
        res = eager_host_call(functools.partial(_host_compress, axis=axis), a, cond,
                              shaped_by_values=True)
        if res is not None:
            return res
    if caval.shape[0] > n:  # only a True past the axis is out of bounds (NumPy)
        host = cond if isinstance(cond, np.ndarray) else _concrete(cond)
        past = [0] if host is None else np.flatnonzero(host[n:])
        if len(past):
            raise IndexError(f"index {n + past[0]} is out of bounds for axis {axis} with "
                             f"size {n}")
        cond = cond[:n]
    pos = nonzero(cond, size=size, fill_value=n if size is not None else None)[0]
    entry = _Entry("tarr" if _concrete(pos) is None else "arr", axis, axis,
                   pos if _concrete(pos) is None else _concrete(pos).astype(np.int64))
    gmode = None if size is None else _FILL
    fill = None if size is None else fill_value
    res = _gather_entries(a, _axis_entries(shape, axis, entry), gmode, fill)
    return write_out("compress", out, res)


def _host_compress(a, condition, *, axis):
    return np.compress(condition, a, axis=axis)


def extract(condition, arr, *, size=None, fill_value=0):
    """The elements of ``ravel(arr)`` where ``ravel(condition)`` is non-zero (``numpy.extract``).

    Parameters
    ----------
    condition : array_like
        Any dtype; its flattened truthiness selects elements of ``ravel(arr)``.
    arr : array_like
    size, fill_value : optional
        As in :func:`compress` (required for a traced ``condition``).

    Returns
    -------
    Array
        1-D, ``arr``'s dtype.

    Raises
    ------
    IndexError
        ``condition`` has more elements than ``arr``.
    xnp.errors.ConcretizationTypeError
        ``condition`` is traced and ``size`` is not given.
    """
    if not is_xnp(condition):  # host data stays concrete
        return compress(np.asarray(condition).reshape(-1) != 0, arr, size=size,
                        fill_value=fill_value)
    flat = lax.reshape(condition, (core.aval_of(condition).size,))
    return compress(lax.ne(flat, core.lift(np.zeros((), core.aval_of(flat).dtype))), arr,
                    size=size, fill_value=fill_value)
