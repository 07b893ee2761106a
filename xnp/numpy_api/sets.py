"""Set routines (NumPy's ``numpy.lib.arraysetops``): ``unique`` and the Array API
``unique_all``/``unique_counts``/``unique_inverse``/``unique_values``, ``isin``,
``intersect1d``, ``setdiff1d``, ``setxor1d`` and ``union1d``.

Every routine is a stable sort, a "first of its run" mask and a compaction of the
masked elements. The number of results depends on the data: eagerly it is read
from the concrete mask (``unique`` without ``size`` is ``numpy.unique`` on the host value,
for NumPy's own dtypes); under ``jit`` (or ``vmap``/``grad``) the keyword ``size=``
(the xnp/JAX extension) fixes it, padding with ``fill_value`` (default: the first,
i.e. smallest, result) or truncating. Without ``size`` a traced input raises
:class:`xnp.errors.ConcretizationTypeError` naming the fix. Index results are int64.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._host_calls import eager_host_call
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._weak_numbers import weak_numbers
from xnp.numpy_api._util import (asarray_for, normalize_axis, promote_to, raise_host_dtype,
                                 result_dtype)
from xnp.numpy_api.indexing import nonzero
from xnp.numpy_api.sorting import argsort, searchsorted
from xnp.tracing import core, errors

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin",
           "intersect1d", "setdiff1d", "setxor1d", "union1d"]

_INDEX = np.dtype(np.int64)


class UniqueAllResult(NamedTuple):
    values: object
    indices: object
    inverse_indices: object
    counts: object


class UniqueCountsResult(NamedTuple):
    values: object
    counts: object


class UniqueInverseResult(NamedTuple):
    values: object
    inverse_indices: object


# --------------------------------------------------------------------------- helpers


def _asarray(fname: str, a, argname: str = "ar"):
    """``a`` as an xnp value; Python scalars become strongly typed (NumPy's asarray: with
    ``enable_x64`` an int beyond int64 is uint64, or beyond that NumPy's object array, for
    which NumPy's function runs eagerly, ``HostDtypeError``)."""
    if core.is_python_scalar(a):
        if type(a) is int and not -2 ** 63 <= a < 2 ** 63 and (
                _default_dtypes.default_int().itemsize == 8):
            value = np.asarray(a)
            if value.dtype not in kit.ALL:
                raise_host_dtype(fname, argname, value.dtype)
            return core.lift(value)
        return core.lift(_default_dtypes.scalar_to_ndarray(a))
    return asarray_for(fname, a, argname)


def _ravel(x):
    aval = core.aval_of(x)
    return x if aval.ndim == 1 else lax.reshape(x, (aval.size,))


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype=dtype))


def _common(fname: str, *xs):
    """Operands converted to their common (NEP 50) dtype."""
    dt, _ = result_dtype(*(core.aval_of(x) for x in xs))
    return [promote_to(fname, x, dt) for x in xs]


def _rows(x, idx):
    """``x[idx]`` (rows along axis 0) for an integer array ``idx`` in bounds by construction,
    as one gather: no index value is read (NumPy's indexing checks the bounds on the host
    values, which a recording of an eager call cannot replay)."""
    shape, ishape = core.aval_of(x).shape, core.aval_of(idx).shape
    if shape[0] == 0:  # nothing to take: zeros (padding, as NumPy's empty results pad)
        return lax.broadcast_in_dim(_const(0, core.aval_of(x).dtype), ishape + shape[1:], ())
    k = len(ishape)
    dn = lax.GatherDimensionNumbers(offset_dims=tuple(range(k, k + len(shape) - 1)),
                                    collapsed_slice_dims=(0,), start_index_map=(0,))
    return lax.gather(x, lax.reshape(idx, ishape + (1,)), dn, (1,) + shape[1:], mode="clip")


def _host_set_op(xs, fn, multiple=False, weak=None):
    """NumPy's set operation ``fn`` (its parameters bound) of the eager arrays ``xs`` (of
    their common dtype), whose result's length the values decide: computed by NumPy on the
    host values, and replayed so by the eager dispatch cache (``eager_host_call``); None
    where it does not apply (a traced operand, a dtype NumPy does not order as xnp, weak
    operands of a call with index results, which are strong)."""
    if not all(type(x) is core.Array and core.aval_of(x).dtype in _HOST_DTYPES for x in xs):
        return None
    if weak is None:
        weak = all(x._weak for x in xs)
    if multiple and weak:
        return None
    return eager_host_call(fn, *xs, weak=weak, multiple=multiple, shaped_by_values=True)


def static_count(fname: str, count, size, what: str = "the number of unique elements",
                 argname: str = "size") -> int:
    """``size`` as a static int, or the concrete value of the traced ``count`` when ``size``
    is None; ``ConcretizationTypeError`` (with the ``size=`` fix) when neither is known."""
    if size is not None:
        from xnp.numpy_api._util import static_int  # noqa: PLC0415

        size = static_int(fname, size, argname)
        if size < 0:
            raise ValueError(f"xnp.{fname}: `{argname}` must be >= 0, got {size}")
        return size
    host = _concrete(count)
    if host is None:
        raise errors.ConcretizationTypeError(errors.concretization_message(
            count, f"xnp.{fname}: {what} depends on the data, so the result shape is unknown "
                   f"while tracing. Fix: pass a static `{argname}=` to xnp.{fname} (results are "
                   f"padded or truncated to that length)."))
    return int(host)


def _compact(fname: str, values, keep, size, fill_value, *extra):
    """The entries of ``values`` (and of each ``extra`` array, same leading length) where
    the 1-D bool ``keep`` is True, in order; ``size`` pads/truncates (see module doc).

    Returns ``(values, extras, valid)`` with ``valid`` a bool mask of real results."""
    n = core.aval_of(keep).shape[0]
    count = lax.reduce_sum(lax.convert_element_type(keep, _INDEX), (0,))
    size = static_count(fname, count, size)
    if n == 0:
        def empty(v):
            aval = core.aval_of(v)
            fill = 0 if fill_value is None else fill_value
            return lax.broadcast_in_dim(_const(fill, aval.dtype), (size,) + aval.shape[1:], ())
        return empty(values), [empty(e) for e in extra], _const(np.zeros(size, bool), bool)
    first = lax.argmax(lax.convert_element_type(keep, np.dtype(np.int8)), 0, _INDEX)
    (idx,) = nonzero(keep, size=size, fill_value=first)
    valid = lax.lt(lax.iota(_INDEX, (size,), 0), lax.broadcast_in_dim(count, (size,), ())) if (
        size) else _const(np.zeros(0, bool), bool)
    out = _rows(values, idx)
    if fill_value is not None:
        aval = core.aval_of(out)
        fill = lax.broadcast_in_dim(_const(fill_value, aval.dtype), aval.shape, ())
        out = lax.select(_expand(valid, aval.ndim), out, fill)
    return out, [_rows(e, idx) for e in extra], valid


def _expand(mask, ndim):
    n = core.aval_of(mask).shape[0]
    return mask if ndim == 1 else lax.broadcast_in_dim(mask, (n,) + (1,) * (ndim - 1), (0,))


def _shift_ne(s):
    """``s[1:] != s[:-1]`` along axis 0, reduced over the other axes (rows differ)."""
    ne = lax.ne(s[1:], s[:-1])
    aval = core.aval_of(ne)
    return lax.reduce_or(ne, tuple(range(1, aval.ndim))) if aval.ndim > 1 else ne


def _first_mask(s, equal_nan: bool):
    """True where a sorted run starts (with ``equal_nan`` all NaNs form one run)."""
    n = core.aval_of(s).shape[0]
    if n == 0:
        return _const(np.zeros(0, bool), bool)
    new = _shift_ne(s)
    if equal_nan and core.aval_of(s).dtype in kit.INEXACT and core.aval_of(s).ndim == 1:
        nan = lax.ne(s, s) if core.aval_of(s).dtype not in kit.COMPLEX else lax.or_(
            lax.ne(lax.real(s), lax.real(s)), lax.ne(lax.imag(s), lax.imag(s)))
        new = lax.and_(new, lax.not_(lax.and_(nan[1:], nan[:-1])))
    return lax.concatenate([_const([True], bool), new], 0)


def _sort_rows(x):
    """``(sorted, perm)`` of the rows of a 2-D ``x`` in lexicographic order (stable)."""
    n, m = core.aval_of(x).shape
    iota = lax.iota(_INDEX, (n,), 0)
    if m == 0:
        return x, iota
    cols = [lax.reshape(lax.slice_in_dim(x, j, j + 1, axis=1), (n,)) for j in range(m)]
    perm = lax.sort([*cols, iota], dimension=0, is_stable=True, num_keys=m)[-1]
    return _rows(x, perm), perm


# --------------------------------------------------------------------------- unique


#: the dtypes whose eager ``unique`` is NumPy's own on the host value (NumPy's dtypes, whose
#: sort and NaN rules NumPy defines; not ml_dtypes' bfloat16/float8)
_HOST_DTYPES = kit.BOOL | kit.INTEGER | kit.COMPLEX | frozenset(
    np.dtype(t) for t in (np.float16, np.float32, np.float64))


def _unique_host(v, *, ax, return_index, return_inverse, return_counts, equal_nan):
    """``numpy.unique`` of the host value ``v`` (``ax``: a normalised axis or None): the
    results of :func:`_unique`, the index arrays int64, the inverse of ``v``'s shape for
    ``ax=None``, else 1-D (as NumPy >= 2.0.1)."""
    res = np.unique(v, return_index, return_inverse, return_counts, ax, equal_nan=equal_nan)
    if not (return_index or return_inverse or return_counts):
        return (res,)
    out = [res[0]]
    k = 1
    if return_index:
        out.append(res[k].astype(_INDEX, copy=False))
        k += 1
    if return_inverse:
        inv = res[k].astype(_INDEX, copy=False)
        out.append(inv.reshape(v.shape if ax is None else (-1,)))
        k += 1
    if return_counts:
        out.append(res[k].astype(_INDEX, copy=False))
    return tuple(out)


def _unique(fname, ar, return_index, return_inverse, return_counts, axis, equal_nan, size,
            fill_value):
    x = _asarray(fname, ar)
    shape = core.aval_of(x).shape
    if size is None and fill_value is None and type(x) is core.Array and core.is_eager(
            core.current_trace()) and core.aval_of(x).dtype in _HOST_DTYPES:
        # eagerly the number of results is read from the data anyway: NumPy's unique on the
        # host value (one call instead of some forty primitives)
        ax = None if axis is None else normalize_axis(fname, axis, len(shape))
        # (a strong x: every result is strong; a replay repeats the call on new values)
        fn = functools.partial(_unique_host, ax=ax, return_index=return_index,
                               return_inverse=return_inverse, return_counts=return_counts,
                               equal_nan=equal_nan)
        if not x._weak:
            out = eager_host_call(fn, x, multiple=True, shaped_by_values=True)
            if out is not None:
                return list(out)
        return [core.Array(r, x._weak if i == 0 else False)
                for i, r in enumerate(fn(x._value))]
    if axis is None:
        x = _ravel(x)
        ax = None
    else:
        ax = normalize_axis(fname, axis, len(shape))
        x = lax.transpose(x, (ax,) + tuple(d for d in range(len(shape)) if d != ax))
        rest = core.aval_of(x).shape[1:]
        x = lax.reshape(x, (shape[ax], int(np.prod(rest, dtype=np.int64))))
    n = core.aval_of(x).shape[0]
    need_perm = return_index or return_inverse
    if core.aval_of(x).ndim == 2:
        s, perm = _sort_rows(x)
    elif need_perm:
        perm = argsort(x, kind="stable")
        s = _rows(x, perm)
    else:
        s, perm = lax.sort(x, dimension=0), None
    mask = _first_mask(s, equal_nan and ax is None)
    iota = lax.iota(_INDEX, (n,), 0)
    extra = [perm] if return_index else []
    vals, ex, valid = _compact(fname, s, mask, size, fill_value, *extra)
    size = core.aval_of(vals).shape[0]
    if ax is not None:
        vals = lax.reshape(vals, (size,) + rest)
        nd = len(shape)
        inv_perm = tuple(range(1, ax + 1)) + (0,) + tuple(range(ax + 1, nd))
        vals = lax.transpose(vals, inv_perm)
    out = [vals, *ex]
    if return_inverse:
        slot = lax.sub(lax.cumsum(lax.convert_element_type(mask, _INDEX), axis=0),
                       _const(1, _INDEX)) if n else iota
        inv = lax.broadcast_in_dim(_const(0, _INDEX), (n,), ())
        if n:  # (inv[perm] = slot: perm is a permutation)
            dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                             scatter_dims_to_operand_dims=(0,))
            inv = lax.scatter(inv, lax.reshape(perm, (n, 1)), slot, dn, unique_indices=True)
        out.append(lax.reshape(inv, shape) if ax is None else inv)
    if return_counts:
        if n == 0:
            counts = lax.broadcast_in_dim(_const(0, _INDEX), (size,), ())
        else:
            (starts,) = nonzero(mask, size=size + 1, fill_value=n)
            counts = lax.sub(starts[1:], starts[:-1])
            counts = lax.select(valid, counts, lax.broadcast_in_dim(_const(0, _INDEX),
                                                                     (size,), ()))
        out.append(counts)
    return out


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True, size=None, fill_value=None):  # noqa: A002
    """The sorted unique elements of ``ar`` (or unique slices along ``axis``).

    Follows ``numpy.unique`` (NumPy 2.x); ``size``/``fill_value`` are the xnp (JAX)
    extension that makes it traceable.

    Parameters
    ----------
    ar : array_like
        Any dtype. Flattened when ``axis`` is None.
    return_index : bool
        Also return the index of the first occurrence of each unique value in the
        flattened ``ar`` (or along ``axis``).
    return_inverse : bool
        Also return indices that rebuild ``ar`` from the unique values: shape
        ``ar.shape`` for ``axis=None``, else ``(ar.shape[axis],)``.
    return_counts : bool
        Also return how often each unique value occurs.
    axis : int, optional
        Unique slices along this axis (compared lexicographically); static.
    equal_nan : bool
        With ``axis=None``: all NaNs count as one value (NaN slices are always
        distinct along an ``axis``, as in NumPy).
    sorted : bool
        Accepted for NumPy compatibility; xnp always returns sorted results.
    size : int, optional
        Static number of unique values to return (xnp/JAX extension); required
        under ``jit``. Fewer unique values are padded with ``fill_value``; more
        are truncated (smallest kept). Padded ``index`` entries repeat the first
        index and padded ``counts`` are 0.
    fill_value : scalar, optional
        Padding for ``size``; default the smallest unique value.

    Returns
    -------
    Array or tuple of Array
        The unique values (dtype of ``ar``), then the requested int64 index,
        inverse and counts arrays, in that order.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``ar`` is traced and ``size`` is not given.
    numpy.exceptions.AxisError
        ``axis`` is out of range.
    """
    out = _unique("unique", ar, return_index, return_inverse, return_counts, axis, equal_nan,
                  size, fill_value)
    return out[0] if len(out) == 1 else tuple(out)


def unique_all(x, /, *, size=None, fill_value=None):
    """Unique values with first indices, inverse indices and counts (Array API).

    As ``unique(x, return_index=True, return_inverse=True, return_counts=True,
    equal_nan=False)``: NaNs are distinct. ``inverse_indices`` has ``x``'s shape.
    ``size``/``fill_value`` as in :func:`unique` (required under ``jit``).

    Returns
    -------
    UniqueAllResult
        Named tuple ``(values, indices, inverse_indices, counts)``.
    """
    return UniqueAllResult(*_unique("unique_all", x, True, True, True, None, False, size,
                                    fill_value))


def unique_counts(x, /, *, size=None, fill_value=None):
    """Unique values and their counts (Array API; NaNs are distinct).

    Returns ``UniqueCountsResult(values, counts)``; see :func:`unique_all`."""
    return UniqueCountsResult(*_unique("unique_counts", x, False, False, True, None, False,
                                       size, fill_value))


def unique_inverse(x, /, *, size=None, fill_value=None):
    """Unique values and the inverse indices (of ``x``'s shape) that rebuild ``x``
    (Array API; NaNs are distinct). Returns ``UniqueInverseResult(values,
    inverse_indices)``; see :func:`unique_all`."""
    return UniqueInverseResult(*_unique("unique_inverse", x, False, True, False, None, False,
                                        size, fill_value))


def unique_values(x, /, *, size=None, fill_value=None):
    """The sorted unique values of ``x`` as a 1-D array (Array API; NaNs are distinct).
    ``size``/``fill_value`` as in :func:`unique`."""
    return _unique("unique_values", x, False, False, False, None, False, size, fill_value)[0]


# --------------------------------------------------------------------------- isin


def _member(fname, values, test):
    """Bool of ``values``' shape: which entries equal some entry of ``test`` (any shape)."""
    values, test = _common(fname, values, test)
    t = lax.sort(_ravel(test), dimension=0)
    m = core.aval_of(t).shape[0]
    shape = core.aval_of(values).shape
    if m == 0:
        return lax.broadcast_in_dim(_const(False, bool), shape, ())
    pos = searchsorted(t, values)
    pos = lax.min(pos, _const(m - 1, _INDEX))
    return lax.eq(_rows(t, pos), values)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Which entries of ``element`` occur in ``test_elements``.

    Parameters
    ----------
    element : array_like
        Any dtype and shape.
    test_elements : array_like
        Values to look for (flattened); compared with ``element`` in their
        common (NEP 50) dtype. NaN is never found (``nan != nan``).
    assume_unique : bool
        Accepted for NumPy compatibility (it does not change the result).
    invert : bool
        Return the negation (``element`` not in ``test_elements``).
    kind : {None, 'sort', 'table'}
        NumPy's algorithm choice; xnp always sorts ``test_elements`` and binary
        searches. ``'table'`` still requires integer or bool inputs, as in NumPy.

    Returns
    -------
    Array
        bool, shape of ``element``.

    Raises
    ------
    ValueError
        Unknown ``kind``, or ``kind='table'`` with non-integer inputs.
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"xnp.isin: Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = _asarray("isin", element, "element")
    t = _asarray("isin", test_elements, "test_elements")
    if kind == "table":  # (NumPy takes bool as uint8)
        dts = [core.aval_of(e).dtype, core.aval_of(t).dtype]
        if not all(d in kit.INTEGER or d == np.bool_ for d in dts):
            raise ValueError("xnp.isin: The 'table' method is only supported for boolean or "
                             "integer arrays. Please select 'sort' or None for kind.")
    if all(type(x) is core.Array and not x._weak and core.aval_of(x).dtype in _HOST_DTYPES
           for x in (e, t)):
        # eagerly NumPy's isin of the values (its comparison of their dtypes, its algorithm
        # for their sizes); a weak operand compares in the other's dtype (NEP 50) below
        out = eager_host_call(functools.partial(np.isin, invert=invert, kind=kind), e, t,
                              weak=False)
        if out is not None:
            return out
    out = _member("isin", e, t)
    return lax.not_(out) if invert else out


# --------------------------------------------------------------------------- set operations


def _pair(fname, ar1, ar2, common=True):
    """The two operands of a set operation (in their common dtype when ``common``)."""
    a, b = _asarray(fname, ar1, "ar1"), _asarray(fname, ar2, "ar2")
    return _common(fname, a, b) if common else (a, b)


def _concatenated_pair(fname, ar1, ar2):
    """The two operands of NumPy's ``concatenate((ar1, ar2), axis=None)`` (``union1d``,
    ``setxor1d`` with ``assume_unique``) in its result dtype: a Python number beside an
    array is weak (NEP 50), so the array's dtype holds it where its kind is the number's or
    above (``union1d(int8_array, 300)`` is int8: ``manipulation.weak_numbers``). Otherwise
    as :func:`_pair`."""
    if not (core.is_python_scalar(ar1) or core.is_python_scalar(ar2)):
        return _pair(fname, ar1, ar2)
    pair, dt = weak_numbers(fname, (ar1, ar2), _asarray, argnames=("ar1", "ar2"))
    if dt is None:  # (no int, float or complex: a Python bool is NumPy's bool array)
        return _pair(fname, ar1, ar2)
    return tuple(promote_to(fname, core.lift(v) if isinstance(v, np.ndarray) else v, dt)
                 for v in pair)


_SIZE_DOC = """``size``/``fill_value`` as in :func:`unique` (``size`` is required under ``jit``;
    without it a traced input raises :class:`xnp.errors.ConcretizationTypeError`)."""


def _sorted_first(fname, ar, assume_unique, need_perm=False, argname="ar1"):
    """Flattened ``ar`` sorted (stably), its first-of-run mask (all True when
    ``assume_unique``) and the sorting permutation (or None)."""
    x = _ravel(_asarray(fname, ar, argname))
    if need_perm:
        perm = argsort(x, kind="stable")
        s = _rows(x, perm)
    else:
        s, perm = lax.sort(x, dimension=0), None
    n = core.aval_of(s).shape[0]
    first = (lax.broadcast_in_dim(_const(True, bool), (n,), ()) if assume_unique
             else _first_mask(s, True))
    return s, first, perm


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """The sorted unique values present in both ``ar1`` and ``ar2`` (flattened).

    Parameters
    ----------
    ar1, ar2 : array_like
        Any dtype; compared in their common (NEP 50) dtype, which the result has.
    assume_unique : bool
        Promise that both inputs hold no duplicates (skips the de-duplication).
    return_indices : bool
        Also return, for every common value, the index of its first occurrence in
        the flattened ``ar1`` and ``ar2`` (int64).
    size, fill_value : optional
        Static result length and padding (xnp/JAX extension), as in
        :func:`unique`; ``size`` is required under ``jit``.

    Returns
    -------
    Array or tuple of Array
        ``values`` or ``(values, ar1_indices, ar2_indices)``.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        Inputs are traced and ``size`` is not given.
    """
    a, b = _pair("intersect1d", ar1, ar2)
    if size is None and fill_value is None:
        out = _host_set_op((a, b), functools.partial(
            _intersect1d_host, assume_unique=assume_unique, return_indices=return_indices),
            multiple=return_indices)
        if out is not None:
            return out
    s1, first1, perm1 = _sorted_first("intersect1d", a, assume_unique, return_indices)
    keep = lax.and_(first1, _member("intersect1d", s1, b))
    extra = [perm1] if return_indices else []
    vals, ex, _ = _compact("intersect1d", s1, keep, size, fill_value, *extra)
    if not return_indices:
        return vals
    s2, _, perm2 = _sorted_first("intersect1d", b, True, True, "ar2")
    n2 = core.aval_of(s2).shape[0]
    if n2 == 0:
        return vals, ex[0], ex[0]
    pos = lax.min(searchsorted(s2, vals), _const(n2 - 1, _INDEX))
    return vals, ex[0], _rows(perm2, pos)


def _intersect1d_host(a, b, *, assume_unique, return_indices):
    out = np.intersect1d(a, b, assume_unique, return_indices)
    return (out[0], *(i.astype(_INDEX, copy=False) for i in out[1:])) if return_indices \
        else out


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The unique values of ``ar1`` that are not in ``ar2`` (sorted; with
    ``assume_unique`` they keep ``ar1``'s flattened order, as in NumPy).

    Dtype: ``ar1``'s (values are compared in the common NEP 50 dtype).
    """
    a, b = _pair("setdiff1d", ar1, ar2, common=False)
    if size is None and fill_value is None:
        out = _host_set_op((a, b), functools.partial(np.setdiff1d, assume_unique=assume_unique),
                           weak=getattr(a, "_weak", None))
        if out is not None:
            return out
    if assume_unique:
        s1 = _ravel(a)
        first = lax.broadcast_in_dim(_const(True, bool), core.aval_of(s1).shape, ())
    else:
        s1, first, _ = _sorted_first("setdiff1d", a, False)
    keep = lax.and_(first, lax.not_(_member("setdiff1d", s1, b)))
    return _compact("setdiff1d", s1, keep, size, fill_value)[0]


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The sorted unique values that are in exactly one of ``ar1`` and ``ar2``.

    Dtype: the common (NEP 50) dtype; with ``assume_unique`` the dtype of NumPy's
    ``concatenate((ar1, ar2))``: a Python number beside an array is weak, cast into the
    array's dtype where that holds its kind (an int wraps, as NumPy's), without it NumPy's
    ``unique`` makes it an array of its own default dtype first.
    """
    a, b = (_concatenated_pair if assume_unique else _pair)("setxor1d", ar1, ar2)
    if size is None and fill_value is None:
        out = _host_set_op((a, b), functools.partial(np.setxor1d, assume_unique=assume_unique))
        if out is not None:
            return out
    s1, f1, _ = _sorted_first("setxor1d", a, assume_unique)
    s2, f2, _ = _sorted_first("setxor1d", b, assume_unique, argname="ar2")
    k1 = lax.and_(f1, lax.not_(_member("setxor1d", s1, b)))
    k2 = lax.and_(f2, lax.not_(_member("setxor1d", s2, a)))
    both = lax.concatenate([s1, s2], 0)
    keep = lax.concatenate([k1, k2], 0)
    if core.aval_of(both).shape[0]:
        perm = argsort(both, kind="stable")
        both, keep = _rows(both, perm), _rows(keep, perm)
    return _compact("setxor1d", both, keep, size, fill_value)[0]


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """The sorted unique values of the flattened ``ar1`` and ``ar2`` together.

    Dtype: that of NumPy's ``concatenate((ar1, ar2), axis=None)``: the common (NEP 50)
    dtype, a Python number beside an array weak (``union1d(int8_array, 300)`` is int8, 300
    wrapping to 44 as in NumPy; a Python int beyond int64 and uint64 raises
    ``OverflowError``).
    """
    a, b = _concatenated_pair("union1d", ar1, ar2)
    both = lax.concatenate([_ravel(a), _ravel(b)], 0)
    return _unique("union1d", both, False, False, False, None, True, size, fill_value)[0]


for _f in (setdiff1d, setxor1d, union1d):
    _f.__doc__ = _f.__doc__.rstrip() + "\n    " + _SIZE_DOC + "\n    "
del _f
