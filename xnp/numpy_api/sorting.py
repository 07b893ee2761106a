"""Sorting and searching (NumPy's "sorting, searching, and counting" routines):
``sort``, ``argsort``, ``lexsort``, ``partition``, ``argpartition``, ``searchsorted``
and ``sort_complex``.

Order (NumPy's, on every backend and under ``jit``): ascending; NaN after every
number; ``-0.0 == 0.0``; complex by real part, then imaginary part, each with NaN
last. ``kind='stable'``/``'mergesort'`` (or ``stable=True``) sorts stably; the
default quicksort is NumPy's own eagerly and XLA's unstable sort under ``jit``
(same values; the order of equal elements, e.g. ``argsort`` indices of ties, may
differ from NumPy's). Axes and ``kth`` are static. Index results are int64.
"""

from __future__ import annotations

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._util import asarray_for, is_xnp, normalize_axis, promote_to, result_dtype
from xnp.tracing import core

__all__ = ["sort", "argsort", "lexsort", "partition", "argpartition", "searchsorted",
           "sort_complex"]

_INDEX = np.dtype(np.int64)


# --------------------------------------------------------------------------- helpers


def _asarray(fname: str, a, argname: str = "a"):
    """``a`` as an xnp value; Python scalars become strongly typed 0-d arrays."""
    if core.is_python_scalar(a):
        return core.lift(_default_dtypes.scalar_to_ndarray(a))
    return asarray_for(fname, a, argname)


def _check_kind(fname: str, kind, stable) -> bool:
    """NumPy's ``kind``/``stable`` checks; returns whether the sort must be stable."""
    if kind is not None and stable is not None:
        raise ValueError(f"xnp.{fname}: `kind` and `stable` parameters can't be provided at "
                         "the same time. Use only one of them.")
    if kind is None:
        return bool(stable)
    if not isinstance(kind, str):
        raise TypeError(f"xnp.{fname}: sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in "qhms":
        raise ValueError(f"xnp.{fname}: sort kind must be one of 'quick', 'heap', or 'stable' "
                         f"(got {kind!r})")
    return kind[0].lower() in "ms"


def _check_order(fname: str, order, a):
    if order is not None:
        _asarray(fname, a)  # a structured array is NumPy's (xnp.host_dispatch)
        raise ValueError(f"xnp.{fname}: Cannot specify order when the array has no fields.")


def _flat_or_axis(fname: str, x, axis):
    """``(x, axis)``: flattened with axis 0 for ``axis=None``, else a normalised axis."""
    aval = core.aval_of(x)
    if axis is None:
        return lax.reshape(x, (aval.size,)), 0
    return x, normalize_axis(fname, axis, aval.ndim)


def _descending_keys(x) -> list:
    """Keys whose ascending lexicographic order is ``x``'s descending order (the reverse
    of NumPy's ascending order: NaN first)."""
    dt = core.aval_of(x).dtype
    if dt in kit.COMPLEX:
        re, im = lax.real(x), lax.imag(x)
        return [lax.eq(re, re), lax.neg(re), lax.eq(im, im), lax.neg(im)]
    if dt in kit.INEXACT:
        return [lax.eq(x, x), lax.neg(x)]
    return [lax.not_(x)]


def _sort_keys(x, descending: bool) -> list:
    return _descending_keys(x) if descending else [x]


def _iota(shape, axis):
    return lax.iota(_INDEX, shape, axis) if shape else core.lift(np.zeros((), _INDEX))


# --------------------------------------------------------------------------- sort / argsort


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy of ``a`` along ``axis``.

    Parameters
    ----------
    a : array_like
        Any dtype (bool, integer, floating, complex).
    axis : int or None
        Axis to sort along (default the last); None sorts the flattened array.
        Static.
    kind : str, optional
        ``'quicksort'`` (default), ``'heapsort'``: unstable; ``'mergesort'``,
        ``'stable'``: stable (first letters suffice, as in NumPy). Eagerly NumPy's
        own sort of that kind runs; under ``jit`` XLA's sort (stable or not).
    order : None
        Field order: structured arrays are NumPy's, eager only (``xnp.sort`` of one runs
        ``numpy.sort``, see :mod:`xnp.host_dispatch`); with a numeric array NumPy's
        ``ValueError``.
    stable : bool, optional
        ``True`` asks for a stable sort; not together with ``kind``.
    descending : bool
        Array API extension: sort in descending order (NaN first); with a stable
        sort, equal elements keep their input order.

    Returns
    -------
    Array
        Same dtype; shape ``a.shape`` (``(a.size,)`` for ``axis=None``).

    Raises
    ------
    numpy.exceptions.AxisError
        ``axis`` out of range (a 0-d input needs ``axis=None``).
    ValueError
        Unknown ``kind``, ``kind`` together with ``stable``, or an ``order``.

    Notes
    -----
    NaN sorts last and ``-0.0``/``0.0`` are equal (a stable sort keeps their input
    order), as in NumPy, also under ``jit`` (XLA's total order would split them).
    """
    is_stable = _check_kind("sort", kind, stable)
    _check_order("sort", order, a)
    x, ax = _flat_or_axis("sort", _asarray("sort", a), axis)
    if not descending:
        return lax.sort(x, dimension=ax, is_stable=is_stable)
    keys = _sort_keys(x, True)
    return lax.sort([*keys, x], dimension=ax, is_stable=is_stable, num_keys=len(keys))[-1]


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Indices that sort ``a`` along ``axis``.

    Parameters as :func:`sort`. The sort is stable (equal elements keep their
    order) unless ``kind`` or ``stable=False`` asks for another: NumPy's default
    leaves the order of equal elements unspecified and the Array API standard
    requires it stable, so the default is stable, a result NumPy could also give.
    ``kind='quicksort'``/``'heapsort'`` or ``stable=False`` use NumPy's unstable
    sort (eagerly the result of NumPy's default kind, quicksort). Eagerly a stable
    argsort of a bool, integer or real floating array costs about what NumPy's
    quicksort does: for 2048 elements or more (and not of a radix-sorted dtype: bool,
    8- and 16-bit integers) it is NumPy's quicksort with the indices of each run of
    equal values put in order afterwards (``stable_argsort`` of
    ``xnp/backends/xp_impls/sorting.py``). Returns an int64 array of ``a``'s shape
    (``(a.size,)`` for ``axis=None``; as in NumPy, a 0-d input counts as 1-d);
    ``take_along_axis(a, argsort(a, axis), axis)`` is ``sort(a, axis)``.

    Raises
    ------
    numpy.exceptions.AxisError, ValueError
        As :func:`sort`.

    Notes
    -----
    Under ``jit`` an unstable kind may order the indices of equal elements
    differently from NumPy (the default, stable, gives the same indices).
    """
    is_stable = _check_kind("argsort", kind, stable)
    if kind is None and stable is None:
        is_stable = True  # the Array API default (stable=True); NumPy promises no order
    _check_order("argsort", order, a)
    x = _asarray("argsort", a)
    if core.aval_of(x).ndim == 0:  # NumPy's argsort treats a 0-d input as 1-d
        x = lax.reshape(x, (1,))
    x, ax = _flat_or_axis("argsort", x, axis)
    aval = core.aval_of(x)
    if descending or aval.dtype not in _ARGSORT_KERNEL_DTYPES:
        return _argsort_steps(x, axis=ax, stable=is_stable, descending=descending)[0]
    # eagerly NumPy's argsort (one kernel, replayed as one call); traced the sort of
    # (x, iota)
    return lax.composite_general("argsort", _argsort_steps, x,
                                 out_avals=(aval.update(dtype=_INDEX, weak_type=False),),
                                 params={"axis": ax, "stable": is_stable})[0]


#: dtypes whose NumPy argsort orders as lax.sort does (NaN last, -0.0 equal to 0.0)
_ARGSORT_KERNEL_DTYPES = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64))


def _argsort_steps(x, *, axis, stable, descending=False):
    """``[argsort of x along axis]``: the sort of ``(keys, iota)`` by the keys."""
    keys = _sort_keys(x, descending)
    return [lax.sort([*keys, _iota(core.aval_of(x).shape, axis)], dimension=axis,
                     is_stable=stable, num_keys=len(keys))[-1]]


def sort_complex(a):
    """``a`` sorted (real part first, then imaginary part), as a complex array.

    Dtype: complex input keeps its dtype; int8/int16/uint8/uint16 give complex64,
    every other real dtype complex128 (NumPy's rule). Shape: ``a.shape``; sorted
    along the last axis.

    Raises
    ------
    numpy.exceptions.AxisError
        ``a`` is 0-d.
    """
    x = _asarray("sort_complex", a)
    dt = core.aval_of(x).dtype
    out = lax.sort(x, dimension=normalize_axis("sort_complex", -1, core.aval_of(x).ndim))
    if dt in kit.COMPLEX:
        return out
    small = dt in (np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.uint8),
                   np.dtype(np.uint16))
    target = np.dtype(np.complex64 if small else np.complex128)
    return lax.convert_element_type(out, target)


# --------------------------------------------------------------------------- lexsort


def lexsort(keys, axis=-1):
    """Indices that sort by several keys: the last key is the primary one.

    Parameters
    ----------
    keys : sequence of array_like, or array_like of rank >= 1
        Keys of one shape (an array's rows along its first axis are the keys);
        each keeps its own dtype.
    axis : int
        Axis to sort along (static).

    Returns
    -------
    Array
        int64 indices of the keys' shape (a 0-d zero for 0-d keys).

    Raises
    ------
    TypeError
        No keys.
    ValueError
        Keys of different shapes.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    if is_xnp(keys) or isinstance(keys, np.ndarray):
        arr = _asarray("lexsort", keys, "keys")
        n = core.aval_of(arr).shape[0] if core.aval_of(arr).ndim else 0
        items = [lax.index_in_dim(arr, i, 0, keepdims=False) for i in range(n)]
    else:
        items = [_asarray("lexsort", k, "keys") for k in keys]
    if not items:
        raise TypeError("xnp.lexsort: need sequence of keys with len > 0 in lexsort")
    shapes = {core.aval_of(k).shape for k in items}
    if len(shapes) != 1:
        raise ValueError(f"xnp.lexsort: all keys need to be the same shape, got "
                         f"{sorted(shapes)}")
    (shape,) = shapes
    if not shape:
        return core.lift(np.zeros((), _INDEX))
    ax = normalize_axis("lexsort", axis, len(shape))
    ops = [*reversed(items), _iota(shape, ax)]
    return lax.sort(ops, dimension=ax, num_keys=len(items))[-1]


def _comparison_dtype(a, v) -> np.dtype:
    """The dtype ``searchsorted`` compares ``a`` and ``v`` in: their common dtype, or where an
    ml_dtypes float (bfloat16, float8) has none with the other (an integer), that of
    float32 in its place, which holds its values exactly, as NumPy compares them
    (``searchsorted(bfloat16 [0, 256, 258], 257)`` is 2)."""
    try:
        return result_dtype(a, v)[0]
    except np.exceptions.DTypePromotionError:
        if a.dtype.kind != "V" and v.dtype.kind != "V":
            raise
        wide = [np.dtype(np.float32) if d.kind == "V" else d for d in (a.dtype, v.dtype)]
        return np.result_type(*wide)


# --------------------------------------------------------------------------- partition


def _kth_array(fname: str, kth) -> np.ndarray:
    """``kth`` as NumPy converts it before anything else: static (a traced ``kth`` is
    ``TypeError``), at most one dimension (``ValueError``); its dtype is checked later, by
    :func:`_check_kth`, after the axis."""
    if isinstance(kth, core.Tracer):
        raise TypeError(f"xnp.{fname}: `kth` must be static integers (it decides nothing in "
                        "the result here, but it is checked as in NumPy).")
    values = np.asarray(kth._value if is_xnp(kth) else kth)
    if values.ndim > 1:
        raise ValueError(f"xnp.{fname}: `kth` must be an integer or a 1-d sequence of them, "
                         f"got shape {values.shape}")
    return values


def _check_kth(fname: str, values: np.ndarray, n: int, size: int):
    """NumPy's checks of ``kth`` (from :func:`_kth_array`) after the axis: integers (an
    empty list or tuple is a float array, so ``TypeError``, as NumPy's), no bool, in
    ``[-n, n)``; no bounds for an empty array (``size`` 0), as NumPy partitions nothing."""
    if values.dtype == np.bool_:
        raise ValueError(f"xnp.{fname}: Booleans unacceptable as partition index")
    if values.dtype.kind not in "iu":
        raise TypeError(f"xnp.{fname}: Partition index must be integer, got `kth` of dtype "
                        f"{values.dtype.name}")
    for k in values.reshape(-1):
        if size and not -n <= int(k) < n:
            shown = int(k) + n if int(k) < 0 else int(k)  # NumPy names the index it tried
            raise ValueError(f"xnp.{fname}: kth(={shown}) out of bounds ({n})")


def _partitioned(fname: str, a, kth, axis, kind, order):
    """The checks of ``partition``/``argpartition`` in NumPy's order (``kind``, ``order``,
    ``kth``'s dimensions, the axis, ``kth``'s dtype and bounds); ``(x, axis)`` to sort.
    ``argpartition`` takes a 0-d ``a`` as 1-d (axis 0 or -1, result shape ``(1,)``), as
    NumPy's ``ndarray.argpartition``; ``partition`` has no axis of a 0-d ``a``."""
    if kind != "introselect":
        raise ValueError(f"xnp.{fname}: unknown kind {kind!r} (only 'introselect')")
    _check_order(fname, order, a)
    x = _asarray(fname, a)
    values = _kth_array(fname, kth)
    if fname == "argpartition" and core.aval_of(x).ndim == 0 and axis is not None:
        x = lax.reshape(x, (1,))
    x, ax = _flat_or_axis(fname, x, axis)
    _check_kth(fname, values, core.aval_of(x).shape[ax], core.aval_of(x).size)
    return x, ax


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of ``a`` with the ``kth`` element(s) in sorted position along ``axis``,
    smaller-or-equal elements before and greater-or-equal ones after.

    xnp returns the fully sorted array, which is one valid answer (NumPy's
    ``introselect`` leaves the two sides in an unspecified order). ``kth`` (int or
    sequence of ints, negative counts from the end) is checked as in NumPy, and in its
    order: ``kth`` of more than one dimension (``ValueError``) before the axis
    (``AxisError``, so a 0-d ``a`` with an int ``axis``) before ``kth``'s dtype and
    bounds. ``axis=None`` partitions the flattened array (a 0-d ``a`` gives shape
    ``(1,)``).

    Raises
    ------
    ValueError
        ``kth`` of more than one dimension, bool or out of bounds, unknown ``kind``, or
        an ``order``.
    TypeError
        Non-integer ``kth`` (an empty list too), or a traced one.
    numpy.exceptions.AxisError
        ``axis`` out of range (any int ``axis`` of a 0-d ``a``).
    """
    x, ax = _partitioned("partition", a, kth, axis, kind, order)
    return lax.sort(x, dimension=ax)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition ``a`` (see :func:`partition`): xnp returns the stable
    sorting indices, one valid answer. int64; checks as :func:`partition`, in NumPy's
    order, except that a 0-d ``a`` is taken as 1-d, as NumPy's: ``axis`` 0, -1 or None
    give ``array([0])`` and ``kth`` is checked against length 1."""
    x, ax = _partitioned("argpartition", a, kth, axis, kind, order)
    return argsort(x, axis=ax)


# --------------------------------------------------------------------------- searchsorted


def _concrete(x):
    """The host value of an eager array or concrete tracer (NumPy data as is), else None."""
    if type(x) is core.Array:
        return np.asarray(x._value)
    if isinstance(x, core.Tracer):
        v = x.to_concrete_value()
        return None if v is None else np.asarray(v)
    return np.asarray(x) if isinstance(x, (np.ndarray, np.generic)) else None


def _take_1d(a, idx):
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                    start_index_map=(0,))
    shape = core.aval_of(idx).shape
    return lax.gather(a, lax.reshape(idx, shape + (1,)), dn, (1,), mode="clip")


def searchsorted(a, v, side="left", sorter=None):
    """Indices where ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted.

    Parameters
    ----------
    a : array_like, 1-D
        Sorted ascending in NumPy's order (NaN last), or any order with ``sorter``.
    v : array_like
        Values to place; ``a`` and ``v`` are compared in their common dtype, a Python
        scalar ``v`` being NumPy's array of it (its default dtype, strong), as NumPy
        compares it: ``1e-50`` into float32 ``a`` compares in float64, ``300`` into int8
        ``a`` in int64.
    side : {'left', 'right'}
        ``'left'``: the first suitable index (``a[i-1] < v <= a[i]``); ``'right'``:
        the last (``a[i-1] <= v < a[i]``).
    sorter : array_like of int, optional
        Indices that sort ``a`` (e.g. from :func:`argsort`), of ``a``'s shape. A
        concrete out-of-range index raises ``ValueError`` as in NumPy; a traced one
        is clamped into range.

    Returns
    -------
    Array
        int64 of ``v``'s shape (0-d for a scalar ``v``).

    Raises
    ------
    TypeError
        ``side`` is not a str, or ``sorter`` does not hold integers.
    ValueError
        ``a`` is not 1-D, ``side`` is not ``'left'``/``'right'``, or ``sorter`` has
        the wrong shape or (concretely) an out-of-range index.

    Notes
    -----
    Eagerly ``numpy.searchsorted``; under ``jit`` a branchless binary search loop of
    ``ceil(log2(len(a))) + 1`` vectorised steps (O(len(v) log len(a)) work).
    """
    if not isinstance(side, str):
        raise TypeError(f"xnp.searchsorted: search side must be str, not "
                        f"{type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"xnp.searchsorted: search side must be 'left' or 'right' (got "
                         f"{side!r})")
    arr = _asarray("searchsorted", a)
    nd = core.aval_of(arr).ndim
    if nd != 1:
        raise ValueError("xnp.searchsorted: object " + (
            "of too small depth" if nd == 0 else "too deep") + " for desired array "
            f"(`a` must be 1-D, got shape {core.aval_of(arr).shape})")
    if sorter is not None:
        order = asarray_for("searchsorted", sorter, "sorter")
        if core.aval_of(order).dtype not in kit.INTEGER:
            raise TypeError("xnp.searchsorted: `sorter` must hold integers")
        if core.aval_of(order).shape != core.aval_of(arr).shape:
            raise ValueError("xnp.searchsorted: `sorter` must have the shape of `a`")
        known = _concrete(order)
        n = core.aval_of(arr).shape[0]
        if known is not None and known.size and (known.min() < 0 or known.max() >= n):
            raise ValueError("xnp.searchsorted: Sorter index out of range.")
        if n:  # an empty `a` has nothing to reorder
            arr = _take_1d(arr, order)
    # a Python scalar query is NumPy's array of it (its default dtype, strong), as NumPy
    # compares it: float32 `a` with 1e-50, or int8 `a` with 300, compare in (float/int)64
    vals = core.lift(np.asarray(v)) if core.is_python_scalar(v) else asarray_for(
        "searchsorted", v, "v")
    # (a weak value, such as a Python scalar argument of jit, as the scalar eagerly)
    dt = _comparison_dtype(core.aval_of(arr), core.aval_of(vals).strip_weak_type())
    arr = promote_to("searchsorted", arr, dt)
    vals = promote_to("searchsorted", vals, dt)
    shape = core.aval_of(vals).shape
    size = core.aval_of(vals).size
    # one row of sorted values and a flat row of queries: no batch dimension, so each
    # search step is a one-component gather
    res = lax.searchsorted(arr, lax.reshape(vals, (size,)), side=side, index_dtype=_INDEX)
    return lax.reshape(res, shape)
