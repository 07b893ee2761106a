"""Editing, assembling and choosing: ``delete``, ``insert``, ``resize``, ``rollaxis``,
``block``, ``hsplit``/``vsplit``/``dsplit``, ``unstack``, ``select``, ``choose``,
the in-place writers ``place``/``put``/``putmask``/``copyto``, ``trim_zeros``,
``apply_along_axis`` and ``apply_over_axes``.

Positions given as ``obj``/``indices_or_sections``, shapes and axes are static
(a traced one raises ``xnp.errors.ConcretizationTypeError``); values may be
traced. The in-place writers modify an eager array as NumPy does and rebind a
tracer under ``jit``/``grad``/``vmap`` (a jitted function's argument is written
back to the caller; docs/architecture.md, "In-place updates and views").
"""

from __future__ import annotations

import functools

import numpy as np

from xnp import lax
from xnp.numpy_api import _inplace
from xnp.numpy_api._host_calls import eager_host_write
from xnp.numpy_api import creation as _cr
from xnp.numpy_api import cumulative as _cum
from xnp.numpy_api import indexing as _ix
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import tiling as _tiling
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._layout import c_strides, set_layout, with_order
from xnp.numpy_api._util import (asarray_for, axis_tuple, broadcast_all, broadcast_shapes,
                                 default_int, is_xnp, normalize_axis, promote, promote_to,
                                 result_dtype, static_int, strong, write_out)
from xnp.numpy_api._util import broadcast_arrays as rank_broadcast
from xnp.numpy_api.elementwise import unsafe_int
from xnp.tracing import core, errors
from xnp.tracing.transformations import vmap

__all__ = ["delete", "insert", "resize", "rollaxis", "block", "hsplit", "vsplit", "dsplit",
           "unstack", "select", "choose", "place", "put", "putmask", "copyto", "trim_zeros",
           "apply_along_axis", "apply_over_axes"]


def _aval(x):
    return core.aval_of(x)


def _static_host(fname, obj, argname):
    """``obj`` as host data (slice, scalar or ndarray); a traced value raises."""
    if isinstance(obj, slice):
        return obj
    if is_xnp(obj):
        host = _concrete(obj)
        if host is None:
            raise errors.ConcretizationTypeError(errors.concretization_message(
                obj, f"It arose in the xnp.{fname} argument '{argname}', which must be static "
                     "(it decides the output shape)."))
        return host
    return obj


def _flat_or_axis(fname, arr, axis):
    arr = _mn._asarray(fname, arr, "arr")
    if axis is None:
        return lax.reshape(arr, (_aval(arr).size,)), 0
    return arr, normalize_axis(fname, axis, _aval(arr).ndim)


# --------------------------------------------------------------------------- delete, insert


def delete(arr, obj, axis=None):
    """``arr`` without the sub-arrays at ``obj`` along ``axis`` (``numpy.delete``).

    ``obj`` (int, slice, int sequence or boolean mask of the axis length) is static;
    ``axis=None`` works on the flattened array. Same dtype; a new array (a gather
    with static indices under ``jit``). Errors (``IndexError`` for out-of-bounds,
    ``ValueError`` for a mask of the wrong length) are NumPy's.
    """
    arr, axis = _flat_or_axis("delete", arr, axis)
    n = _aval(arr).shape[axis]
    keep = np.delete(np.arange(n), _static_host("delete", obj, "obj"))  # static positions only
    return _ix.take(arr, keep, axis=axis)


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before the positions ``obj`` along ``axis``
    (``numpy.insert``).

    Parameters
    ----------
    arr : array_like
    obj : int, slice or sequence of int
        Static insertion positions (``0..n``; negative count from the end).
    values : array_like
        Cast to ``arr.dtype`` (unsafe, as NumPy) and broadcast as in NumPy: for a
        scalar ``obj`` its first axis is moved to ``axis`` (so ``values`` may insert
        several sub-arrays); for a sequence, one sub-array per position. May be traced.
    axis : int, optional
        None: insert into the flattened array.

    Returns
    -------
    Array
        ``arr``'s dtype, one axis longer by the number of inserted sub-arrays.

    Raises
    ------
    IndexError
        An out-of-bounds position (NumPy's message).
    ValueError
        ``values`` do not broadcast.
    """
    arr, axis = _flat_or_axis("insert", arr, axis)
    shape = _aval(arr).shape
    nd = len(shape)
    n = shape[axis]
    host = _static_host("insert", obj, "obj")
    positions = np.arange(n)[host] if isinstance(host, slice) else np.asarray(host)
    vals = _mn._asarray("insert", values, "values")
    if _aval(vals).dtype != _aval(arr).dtype:
        vals = lax.convert_element_type(vals, _aval(arr).dtype)
    vshape = _aval(vals).shape
    if len(vshape) < nd:
        vals = lax.reshape(vals, (1,) * (nd - len(vshape)) + vshape)
    if positions.ndim == 0 and not isinstance(host, slice):
        vals = _mn.moveaxis(vals, 0, axis)
        numnew = _aval(vals).shape[axis]
    elif positions.size == 1:
        numnew = _aval(vals).shape[axis]
    else:
        numnew = positions.size
    target = shape[:axis] + (numnew,) + shape[axis + 1:]
    vals = _mn.broadcast_to(vals, target)
    order = np.insert(np.arange(n), host, np.arange(n, n + numnew))  # NumPy decides placement
    joined = lax.concatenate([arr, vals], axis)
    return _ix.take(joined, order, axis=axis)


# --------------------------------------------------------------------------- reshaping helpers


def resize(a, new_shape):
    """``a`` flattened, repeated cyclically and reshaped to ``new_shape`` (``numpy.resize``).

    ``new_shape`` is static. An empty ``a`` or an empty ``new_shape`` gives zeros,
    as NumPy. Same dtype. Always a new array (sharing no memory with ``a``).

    Raises
    ------
    ValueError
        A negative entry in ``new_shape``.
    """
    a = _mn._asarray("resize", a)
    shape = (new_shape,) if not isinstance(new_shape, (tuple, list)) else tuple(new_shape)
    shape = tuple(static_int("resize", d, "new_shape") for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = int(np.prod(shape))
    flat = lax.reshape(a, (_aval(a).size,))
    if _aval(a).size == 0 or size == 0:
        zero = core.lift(np.zeros((), _aval(a).dtype))
        return lax.broadcast_in_dim(zero, shape, ())
    reps = -(-size // _aval(a).size)
    if reps > 1:
        flat = lax.concatenate([flat] * reps, 0)
    else:  # a new array, as NumPy's, never a view of ``a``
        flat = lax.copy(flat)
    return lax.reshape(lax.slice(flat, (0,), (size,)), shape)


def rollaxis(a, axis, start=0):
    """Move ``axis`` so it comes before position ``start`` (``numpy.rollaxis``;
    prefer :func:`moveaxis`). Static arguments; a view eagerly.

    Raises
    ------
    numpy.exceptions.AxisError
        ``axis`` out of range, or ``start`` outside ``[-ndim, ndim]``.
    """
    a = _mn._asarray("rollaxis", a)
    n = _aval(a).ndim
    axis = normalize_axis("rollaxis", axis, n)
    start = static_int("rollaxis", start, "start")
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _mn.transpose(a, axes)


def _block_depth(arrays, index="arrays"):
    """(list depth, max leaf ndim) of a ``block`` input; NumPy's errors for bad nesting."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"{index} is a tuple. Only lists can be used to arrange blocks, and np.block does "
            "not allow implicit conversion from tuple to ndarray.")
    if not isinstance(arrays, list):
        return 0, _aval(_mn._asarray("block", arrays, "arrays")).ndim
    if not arrays:
        raise ValueError(f"List at {index} cannot be empty")
    depths = [_block_depth(v, f"{index}[{i}]") for i, v in enumerate(arrays)]
    first = depths[0][0]
    for i, (d, _) in enumerate(depths):
        if d != first:
            raise ValueError(
                f"List depths are mismatched. First element was at depth {first + 1}, but there "
                f"is an element at depth {d + 1} ({index}[{i}])")
    return first + 1, max(nd for _, nd in depths)


def _block_concat(arrays, depth: int, ndim: int):
    if depth == 0:
        x = _mn._asarray("block", arrays, "arrays")
        shape = _aval(x).shape
        return lax.reshape(x, (1,) * (ndim - len(shape)) + shape) if len(shape) < ndim else x
    parts = [_block_concat(v, depth - 1, ndim) for v in arrays]
    return _mn.concatenate(parts, axis=-depth)


def block(arrays):
    """Assemble an array from nested lists of blocks (``numpy.block``).

    The innermost lists are joined along the last axis, the next level along the
    second-to-last, and so on; blocks are first given leading length-1 axes up to
    ``max(list depth, max block ndim)``. Dtype: the promoted dtype of all blocks.

    Raises
    ------
    TypeError
        A tuple is used as a level of nesting.
    ValueError
        An empty list, mismatched list depths, or blocks whose shapes do not fit.
    """
    depth, nd = _block_depth(arrays)
    x = _block_concat(arrays, depth, max(depth, nd))
    return x if depth else _cr.copy(x)  # a bare array is copied, as NumPy


def _split_min(fname, ary, min_nd):
    ary = _mn._asarray(fname, ary, "ary")
    if _aval(ary).ndim < min_nd:
        raise ValueError(f"{fname} only works on arrays of {min_nd} or more dimensions")
    return ary


def hsplit(ary, indices_or_sections):
    """:func:`split` along axis 1 (axis 0 for 1-D input) (``numpy.hsplit``); ``ValueError``
    for 0-d input. Returns a list of views (eagerly), as NumPy."""
    ary = _split_min("hsplit", ary, 1)
    return _tiling.split(ary, indices_or_sections, axis=1 if _aval(ary).ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """:func:`split` along axis 0 (``numpy.vsplit``); ``ValueError`` below 2-D."""
    ary = _split_min("vsplit", ary, 2)
    return _tiling.split(ary, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    """:func:`split` along axis 2 (``numpy.dsplit``); ``ValueError`` below 3-D."""
    ary = _split_min("dsplit", ary, 3)
    return _tiling.split(ary, indices_or_sections, axis=2)


def unstack(x, /, *, axis=0):
    """The sub-arrays of ``x`` along ``axis``, as a tuple (``numpy.unstack``, Array API).

    Each has ``x.shape`` without ``axis``; views eagerly. ``axis`` is one axis, as an int
    or (as NumPy takes it) a one-item sequence. ``ValueError`` for 0-d ``x`` or an ``axis``
    naming several axes; ``AxisError`` for a bad ``axis``; ``TypeError`` for a non-integer.
    """
    x = _mn._asarray("unstack", x, "x")
    if _aval(x).ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axes = axis_tuple("unstack", axis, _aval(x).ndim)
    if len(axes) != 1:
        raise ValueError(f"xnp.unstack: `axis` must name one axis, got {axis!r}")
    axis = axes[0]
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(_aval(x).shape[axis]))


# --------------------------------------------------------------------------- select, choose


def select(condlist, choicelist, default=0):
    """Elementwise: the value from the first ``choicelist`` entry whose condition holds,
    else ``default`` (``numpy.select``).

    Conditions must be boolean arrays; all operands broadcast together. Dtype: NumPy's
    ``result_type`` of the choices and ``default``, where a Python int, float or complex
    (not bool) is weak (NEP 50); the result is a new C-contiguous array, not weakly typed.
    As NumPy, ``default`` is cast unsafely (a Python int outside the dtype wraps, a float
    may overflow with NumPy's ``RuntimeWarning``) and each choice under 'same_kind' casting
    from its own dtype, a Python scalar's being NumPy's array's of it (int64, uint64 from
    ``2**63``; float64; complex128): ``select([c], [3], np.uint8(1))`` raises. Under ``jit``
    a Python scalar argument counts as that scalar. Differentiable in the choices.

    Raises
    ------
    ValueError
        Empty or unequal-length lists; shapes that do not broadcast.
    TypeError
        A condition that is not boolean; choices and ``default`` of no common dtype; a
        choice that does not cast 'same_kind' to the result dtype (NumPy's order: the
        last choice first).
    OverflowError
        A Python int ``default`` outside ``[-2**63, 2**64)`` (NumPy's).
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    names = [f"choicelist[{i}]" for i in range(len(choicelist))] + ["default"]
    vals = [v if type(v) in (int, float, complex) else asarray_for("select", v, name)
            for v, name in zip([*choicelist, default], names)]
    try:
        dt, _ = result_dtype(*[core.aval_of(type(v)() if type(v) is int else v)
                               for v in vals])
    except TypeError as e:
        raise TypeError(f"xnp.select: choicelist and default value do not have a common "
                        f"dtype: {e}") from None
    conds = [asarray_for("select", c, f"condlist[{i}]") for i, c in enumerate(condlist)]
    shape = broadcast_shapes("select", *[_aval(c).shape for c in conds])  # (NumPy's order
    broadcast_shapes("select", shape, *[np.shape(v) if type(v) in (int, float, complex)  # of
                                        else _aval(v).shape for v in vals])  # its errors)
    for i, c in enumerate(conds):
        if _aval(c).dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    dflt = promote_to("select", unsafe_int("select", vals[-1], None, "default", dt), dt)
    choices = []
    for i in reversed(range(len(conds))):
        v, src = vals[i], _choice_dtype(vals[i])
        if src is None or not np.can_cast(_kind_proxy(src), _kind_proxy(dt), "same_kind"):
            raise TypeError(f"xnp.select: cannot cast {names[i]} from "
                            f"{'object' if src is None else src.name} to {dt.name}, the "
                            "result dtype, with casting rule 'same_kind'")
        choices.append(promote_to("select", unsafe_int("select", v, None, names[i], dt), dt))
    parts, _ = rank_broadcast("select", *conds, *reversed(choices), dflt)
    k = len(conds)
    result = parts[-1]
    for cond, choice in zip(reversed(parts[:k]), reversed(parts[k:2 * k])):
        result = lax.select_n(cond, result, choice)
    result = strong(result)  # NumPy fills a new C-ordered array (numpy.full):
    if isinstance(result, core.Tracer):  # (a select's result is one of its own)
        set_layout(result, c_strides(result.shape))
        return result
    return with_order(result, "C", fresh=True)


def _choice_dtype(v):
    """The dtype ``numpy.select`` casts choice ``v`` from: a Python scalar's as NumPy's
    array of it (None: an int beyond uint64, NumPy's object array); an xnp value's own
    (a weak one is a Python scalar argument of ``jit``, held as NumPy would)."""
    if type(v) is int:
        return (np.dtype(np.int64) if -2 ** 63 <= v < 2 ** 63 else
                np.dtype(np.uint64) if 0 <= v < 2 ** 64 else None)
    if type(v) in (float, complex):
        return np.dtype(type(v))
    return _aval(v).dtype


def _kind_proxy(dt):
    """``dt`` for NumPy's 'same_kind' test, ml_dtypes' floats (kind 'V') as float16."""
    return np.dtype(np.float16) if dt.kind == "V" else dt


def _wrap_or_clip(idx, n: int, mode: str):
    dt = _aval(idx).dtype
    if mode == "clip":
        return lax.clamp(core.lift(np.asarray(0, dt)), idx, core.lift(np.asarray(n - 1, dt)))
    r = lax.rem(idx, core.lift(np.asarray(n, dt)))
    neg = lax.lt(r, core.lift(np.asarray(0, dt)))
    return lax.select_n(neg, r, lax.add(r, core.lift(np.asarray(n, dt))))


def choose(a, choices, out=None, mode="raise"):
    """Elementwise ``choices[a]`` (``numpy.choose``).

    Parameters
    ----------
    a : array_like of int
        Which choice, per element; may be traced.
    choices : sequence of array_like, or an array (its first axis enumerates them)
        Broadcast together with ``a``; dtype: their promoted dtype.
    out : Array, optional
        Written as in NumPy (rebound under jit).
    mode : {'raise', 'wrap', 'clip'}
        'raise': a concrete ``a`` outside ``[0, n)`` raises ``ValueError``; a
        traced ``a`` cannot be checked and is clipped (documented difference).
        'wrap': modulo ``n``; 'clip': clamped into range.

    Raises
    ------
    ValueError
        Bad ``mode``, out-of-range concrete ``a`` with 'raise', shapes that do
        not broadcast.
    TypeError
        A non-integer ``a``.
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    a_in = a
    a = asarray_for("choose", a)
    if _aval(a).dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {_aval(a).dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    if is_xnp(choices) or isinstance(choices, np.ndarray):
        choices = unstack(_mn._asarray("choose", choices, "choices"))
    choices = [_mn._asarray("choose", c, "choices") for c in choices]
    n = len(choices)
    idx = lax.convert_element_type(a, default_int())
    if mode == "raise" and is_xnp(a_in):  # an equation: eagerly checked on every replay
        dt = _aval(idx).dtype  # (staged, unchecked: the index is clipped below)
        bad = lax.or_(lax.lt(idx, core.lift(np.asarray(0, dt))),
                      lax.ge(idx, core.lift(np.asarray(n, dt))))
        lax.runtime_error(bad, "xnp.choose: invalid entry in choice array")
    elif mode == "raise":  # host data: checked here, also under jit
        host = np.asarray(a_in)
        if ((host < 0) | (host >= n)).any():
            raise ValueError("xnp.choose: invalid entry in choice array")
    idx = _wrap_or_clip(idx, n, "clip" if mode == "raise" else mode)
    vals, _, _ = promote("choose", *choices)
    parts = broadcast_all("choose", idx, *vals)  # (copies: no value is read)
    stacked = lax.concatenate([lax.broadcast_in_dim(p, (1,) + _aval(p).shape,
                                                    tuple(range(1, _aval(p).ndim + 1)))
                               for p in parts[1:]], 0)
    picked = _ix.take_along_axis(stacked, _mn.expand_dims(parts[0], 0), axis=0)
    return write_out("choose", out, lax.reshape(picked, _aval(parts[0]).shape))


# --------------------------------------------------------------------------- in-place writers


def place(arr, mask, vals):
    """Write ``vals`` (repeated cyclically) into the positions of ``arr`` where ``mask``
    is true, in place (``numpy.place``).

    ``mask`` (truthiness) has ``arr``'s size; the k-th true position gets
    ``vals[k % len(vals)]`` (flattened, cast to ``arr.dtype``). Works with a traced
    mask (a prefix sum numbers the true positions). Eager ``arr`` is modified; a
    traced one is rebound.

    Raises
    ------
    ValueError
        ``mask`` and ``arr`` differ in size; ``vals`` is empty while a concrete
        ``mask`` has a true entry (with a traced mask nothing is written).
    TypeError
        ``arr`` is not an xnp array; ``vals`` is an array whose dtype does not cast
        'safe' into ``arr``'s (NumPy's rule).
    """
    _inplace.check_target("place", arr)
    if eager_host_write(np.place, arr, mask, vals):
        return None  # (an eager call: NumPy's place, which the rest computes when traced)
    aval = _aval(arr)
    m = asarray_for("place", mask, "mask")
    if _aval(m).size != aval.size:
        raise ValueError("place: mask and data must be the same size")
    m = lax.reshape(m, (aval.size,))
    if _aval(m).dtype != np.bool_:
        m = lax.ne(m, core.lift(np.zeros((), _aval(m).dtype)))
    _check_safe_values(vals, aval.dtype)
    v = _mn._asarray("place", _inplace.python_values(vals, aval.dtype), "vals")
    v = lax.reshape(v, (_aval(v).size,))
    if _aval(v).size == 0:
        host = _concrete(m)
        if host is not None and host.any():
            raise ValueError("Cannot insert from an empty array!")
        return None
    k = lax.sub(_cum.cumsum(lax.convert_element_type(m, default_int())),
                core.lift(np.asarray(1, default_int())))
    picked = _ix.take(v, k, mode="wrap")
    flat = lax.reshape(arr, (aval.size,))
    new = lax.select_n(m, flat, lax.convert_element_type(picked, aval.dtype))
    _inplace.assign(arr, lax.reshape(new, aval.shape))
    return None


def put(a, ind, v, mode="raise"):
    """``a.flat[ind] = v`` in place, ``v`` repeated cyclically (``numpy.put``).

    Parameters
    ----------
    a : Array
        Modified in place eagerly; rebound when traced.
    ind : array_like of int
        Flat indices; may be traced.
    v : array_like
        Cast to ``a.dtype``; an empty ``v`` writes nothing.
    mode : {'raise', 'wrap', 'clip'}
        'raise': negative indices count from the end and a concrete out-of-bounds
        index raises ``IndexError``; traced out-of-bounds writes are dropped
        (documented difference). 'wrap': modulo ``a.size``. 'clip': clamped
        (negative -> 0).

    Returns
    -------
    None

    Notes
    -----
    Repeated indices: the last write wins eagerly and on CPU.
    """
    _inplace.check_target("put", a)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if eager_host_write(functools.partial(np.put, mode=mode), a, ind, v):
        return None  # (an eager call: NumPy's put, which the rest computes when traced)
    aval = _aval(a)
    n = aval.size
    idx = ind if is_xnp(ind) else np.asarray(ind)
    if not is_xnp(idx) and idx.size == 0:
        idx = idx.astype(np.int64)
    iaval = _aval(idx)
    if iaval.dtype.kind not in "iu":
        raise TypeError(f"Cannot cast array data from {iaval.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    count = iaval.size
    vals = _inplace.cycled("put", v, count, aval.dtype)
    if vals is None or count == 0:
        return None
    host = _concrete(idx) if is_xnp(idx) else idx
    if host is not None:
        host = host.reshape(-1).astype(np.int64)
        if mode == "raise":
            bad = host[(host < -n) | (host >= n)]
            if bad.size:
                raise IndexError(f"index {bad[0]} is out of bounds for axis 0 with size {n}")
            host = np.where(host < 0, host + n, host)
        elif n == 0:
            raise IndexError("cannot replace elements of an empty array")
        else:
            host = np.mod(host, n) if mode == "wrap" else np.clip(host, 0, n - 1)
        idx = host
    else:
        idx = lax.reshape(lax.convert_element_type(idx, default_int()), (count,))
        if mode != "raise":
            idx = _wrap_or_clip(idx, n, mode)
    flat = lax.reshape(a, (n,))
    _inplace.assign(a, lax.reshape(flat.at[idx].set(vals), aval.shape))
    return None


def _check_safe_values(values, dtype) -> None:
    """NumPy's ``TypeError`` for ``values`` of ``place``/``putmask`` given as an array (an
    xnp array, traced or not, or a NumPy array; not a list or a scalar, which NumPy
    converts) whose dtype does not cast 'safe' into the target's ``dtype``."""
    vd = getattr(values, "dtype", None) if isinstance(values, (core.Array, core.Tracer,
                                                                np.ndarray)) else None
    if vd is not None and not np.can_cast(vd, dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {np.dtype(vd)!r} to {np.dtype(dtype)!r} "
                        "according to the rule 'safe'")


def putmask(a, /, mask, values):
    """Where ``mask`` is true set ``a`` to ``values``, in place (``numpy.putmask``).

    Unlike :func:`place`, position ``i`` (flat) takes ``values.flat[i % len(values)]``.
    ``mask`` has ``a``'s size; ``values`` is cast to ``a.dtype``; an empty ``values``
    writes nothing. Traced ``mask``/``values`` work; a traced ``a`` is rebound.

    Raises
    ------
    ValueError
        ``mask`` and ``a`` differ in size.
    TypeError
        ``values`` is an array whose dtype does not cast 'safe' into ``a``'s (NumPy's
        rule).
    """
    _inplace.check_target("putmask", a)
    if eager_host_write(np.putmask, a, mask, values):
        return None  # (an eager call: NumPy's putmask, which the rest computes when traced)
    aval = _aval(a)
    m = asarray_for("putmask", mask, "mask")
    if _aval(m).size != aval.size:
        raise ValueError("putmask: mask and data must be the same size")
    if _aval(m).dtype != np.bool_:
        m = lax.ne(m, core.lift(np.zeros((), _aval(m).dtype)))
    _check_safe_values(values, aval.dtype)
    vals = _inplace.cycled("putmask", values, aval.size, aval.dtype)
    if vals is None:
        return None
    new = lax.select_n(lax.reshape(m, aval.shape), a, lax.reshape(vals, aval.shape))
    _inplace.assign(a, new)
    return None


def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` into ``dst`` (broadcasting), in place, where ``where`` holds
    (``numpy.copyto``).

    ``src`` is cast to ``dst.dtype`` under ``casting`` ('no', 'equiv', 'safe',
    'same_kind', 'unsafe'); a Python scalar ``src`` follows NEP 50 (a float into an
    int array is a ``TypeError``, an int out of range an ``OverflowError``). Eager
    ``dst`` is modified; a traced one is rebound.

    Raises
    ------
    TypeError
        The cast is not allowed by ``casting``; ``dst`` is not an xnp array.
    ValueError
        ``src`` or ``where`` does not broadcast to ``dst.shape``.
    """
    _inplace.check_target("copyto", dst, "dst")
    if eager_host_write(functools.partial(_numpy_copyto, casting=casting), dst, src, where):
        return None  # (an eager call: NumPy's copyto, which the rest computes when traced)
    daval = _aval(dst)
    if type(src) in (int, float, complex, bool):
        kind = np.dtype(type(src))
        if casting != "unsafe" and not np.can_cast(kind, daval.dtype, "same_kind"):
            raise TypeError(f"Cannot cast scalar from {kind!r} to {daval.dtype!r} according to "
                            f"the rule {casting!r}")
        s = promote_to("copyto", src, daval.dtype)
    else:
        s = asarray_for("copyto", src, "src")
        if not np.can_cast(_aval(s).dtype, daval.dtype, casting):
            raise TypeError(f"Cannot cast array data from {_aval(s).dtype!r} to "
                            f"{daval.dtype!r} according to the rule {casting!r}")
    if _aval(s).shape != daval.shape:
        s = _mn.broadcast_to(s, daval.shape)
    if where is True:
        _inplace.assign(dst, s)
        return None
    w = _mn.broadcast_to(asarray_for("copyto", where, "where"), daval.shape)
    _inplace.assign(dst, s, w)
    return None


def _numpy_copyto(dst, src, where, casting):
    np.copyto(dst, src, casting=casting, where=where)


# --------------------------------------------------------------------------- trim, apply


def trim_zeros(filt, trim="fb", axis=None):
    """``filt`` with leading (``'f'``) and/or trailing (``'b'``) zeros removed
    (``numpy.trim_zeros``, NumPy 2.2 form with ``axis``).

    ``axis=None`` crops every axis to the bounding box of the non-zero entries;
    an int or a sequence of ints (tuple, list, 1-d array) crops those axes only, an empty
    one none. Returns a view of ``filt`` (eagerly).

    Raises
    ------
    ValueError
        ``trim`` contains characters other than 'f' and 'b'; a repeated axis.
    TypeError
        ``axis`` is not an int or a sequence of ints.
    numpy.exceptions.AxisError
        An axis is out of range.
    xnp.errors.ConcretizationTypeError
        ``filt`` is traced: the result's shape depends on its values.
    """
    t = trim.lower()
    if t not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    x = _mn._asarray("trim_zeros", filt, "filt")
    host = _concrete(x)
    if host is None:
        raise errors.ConcretizationTypeError(errors.concretization_message(
            x, "xnp.trim_zeros: the output shape depends on the values of `filt`, which are "
               "traced; call it outside jit (or slice with static bounds)."))
    nz = np.argwhere(host)
    nd = host.ndim
    start = nz.min(axis=0) if nz.size else np.zeros(nd, np.int64)
    stop = nz.max(axis=0) + 1 if nz.size else np.zeros(nd, np.int64)
    axes = range(nd) if axis is None else axis_tuple("trim_zeros", axis, nd)
    index = [slice(None)] * nd
    for d in axes:
        if not nz.size:  # all zeros: NumPy trims everything, whichever side is asked
            index[d] = slice(0, 0)
        else:
            index[d] = slice(int(start[d]) if "f" in t else None,
                             int(stop[d]) if "b" in t else None)
    return x[tuple(index)]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply ``func1d`` to the 1-D slices of ``arr`` along ``axis`` (``numpy.apply_along_axis``).

    Eagerly NumPy's: ``func1d`` is called once per slice (an xnp array viewing it), so it
    may branch on values, convert them or mask with them, and its results are stacked as
    NumPy stacks them. Under a transformation (``jit``, ``vmap``, ``grad``) ``func1d`` is
    traced once on a 1-D slice with ``xnp.vmap`` and must be written with xnp operations.
    The result's dims replace ``axis``: shape
    ``arr.shape[:axis] + r.shape + arr.shape[axis+1:]`` for a per-slice result ``r``;
    dtype that of ``r``.

    Raises
    ------
    ValueError
        An iteration dimension (not ``axis``) has length 0, as NumPy.
    """
    arr = _mn._asarray("apply_along_axis", arr, "arr")
    if type(arr) is core.Array and type(core.current_trace()) is core.EvalTrace:
        def row_call(row, *a, **kw):  # NumPy's slice as an xnp array, the result as NumPy's
            out = func1d(core.Array(row), *a, **kw)
            return np.asarray(out) if isinstance(out, core.Array) else out

        return _mn._asarray("apply_along_axis", np.apply_along_axis(
            row_call, axis, arr._value, *args, **kwargs), "arr")
    nd = _aval(arr).ndim
    axis = normalize_axis("apply_along_axis", axis, nd)
    moved = _mn.moveaxis(arr, axis, -1)
    batch = _aval(moved).shape[:-1]
    if 0 in batch:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    flat = lax.reshape(moved, (int(np.prod(batch)), _aval(arr).shape[axis]))
    res = vmap(lambda row: asarray_for("apply_along_axis", func1d(row, *args, **kwargs)))(flat)
    rshape = _aval(res).shape[1:]
    res = lax.reshape(res, batch + rshape)
    nb, r = len(batch), len(rshape)
    perm = list(range(axis)) + list(range(nb, nb + r)) + list(range(axis, nb))
    return _mn.transpose(res, perm) if perm != list(range(nb + r)) else res


def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` repeatedly over ``axes``, keeping the rank
    (``numpy.apply_over_axes``): a result one dim short gets it back at ``axis``.

    Raises
    ------
    ValueError
        ``func`` returns an array of another rank.
    """
    val = _mn._asarray("apply_over_axes", a)
    nd = _aval(val).ndim
    for ax in (axes,) if np.ndim(axes) == 0 else axes:
        ax = static_int("apply_over_axes", ax, "axes")
        ax = ax + nd if ax < 0 else ax
        res = asarray_for("apply_over_axes", func(val, ax))
        if _aval(res).ndim != _aval(val).ndim:
            res = _mn.expand_dims(res, ax)
            if _aval(res).ndim != _aval(val).ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val
