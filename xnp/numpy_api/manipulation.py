"""Array manipulation: reshaping, transposing, joining, splitting, tiling, padding,
flipping and rolling (NumPy's "array manipulation routines").

Shapes, axes, counts and offsets are static (Python/NumPy integers; a traced
one raises ``xnp.errors.ConcretizationTypeError``). Functions that return views
in NumPy (reshape, ravel, transpose, swapaxes, moveaxis, squeeze, expand_dims,
atleast_*d, flip, split) return views here too, eagerly and (for writes through
them) under transformations; ``broadcast_to`` returns NumPy's read-only view;
joins, tiles, pads and rolls return new arrays.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from xnp import lax
from xnp.lax.shape_ops import canonicalize_shape
from xnp.numpy_api import _layout
from xnp.numpy_api.creation import _convert
from xnp.numpy_api._pad_modes import (INDEX_MODES, constant_pad_values, pad_by_index,
                                      pad_linear_ramp, pad_staged_constant)
from xnp.numpy_api._shape_views import (expand_dims_view, read_only_view, reshape_view,
                                        squeeze_view, transpose_view)
from xnp.numpy_api import _util
from xnp.numpy_api._weak_numbers import weak_numbers
from xnp.numpy_api._util import (api_sequence, axis_tuple, check_unsupported, is_xnp, normalize_axes,
                                 normalize_axis, refuse_numpy_subclass, result_dtype, static_int,
                                 write_out)
from xnp.tracing import core, errors
from xnp.numpy_api import _fastpath as fastpath
from xnp.tracing.avals import canonical_dtype
from xnp.tracing.recording import metadata_function

__all__ = [
    "reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "swapaxes", "moveaxis",
    "squeeze", "expand_dims", "concatenate", "concat", "stack", "hstack", "vstack", "dstack",
    "column_stack", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to",
    "broadcast_arrays", "broadcast_shapes", "flip", "flipud", "fliplr", "pad", "append",
]



def _asarray(fname: str, a, argname: str = "a"):
    """``a`` as an xnp value; Python scalars give strongly typed arrays, as in NumPy."""
    if is_xnp(a):
        return a
    if isinstance(a, np.ndarray) and type(a) is not np.ndarray:
        refuse_numpy_subclass(fname, a, argname)
    return _convert(fname, a, None, None)


def _aval(x):
    return core.aval_of(x)


# --------------------------------------------------------------------------- reshaping


@fastpath.reshape
def reshape(a, /, shape, order="C", *, copy=None):
    """Give ``a`` a new shape with the same number of elements (row-major order).

    Parameters
    ----------
    a : array_like
    shape : int or tuple of ints
        Static; one entry may be -1 (inferred; like NumPy, any negative value
        means "inferred"). NumPy integers are accepted;
        under ``jit`` compute sizes from ``x.shape`` or with NumPy.
    order : {'C', 'F', 'A'} or None
        Read and place the elements in row-major ('C') or column-major ('F') order; 'A':
        'F' when ``a`` is Fortran-contiguous (NumPy's ``numpy.reshape``). As NumPy: None
        is 'C', and one letter of any case (``str`` or ``bytes``) is accepted.
    copy : bool or None
        None: a view when NumPy gives one (eagerly, and under transformations, where
        writes through it reach ``a``: see :mod:`xnp.numpy_api._shape_views`).
        True: a new array.

    Returns
    -------
    Array
        Under ``jit`` one ``reshape`` equation.

    Raises
    ------
    ValueError
        The element counts differ ("cannot reshape float64[6] into shape
        (4, 2)"), more than one -1, or another negative size.
    xnp.errors.ConcretizationTypeError
        A traced size: "Shapes must be 1D sequences of concrete values of
        integer type", with where the value became a tracer.
    NotImplementedError
        ``copy=False`` under a transformation on an array whose
        memory layout the trace does not know (a ``jit`` argument; ``ValueError`` when
        NumPy's rule says copy, as eagerly). Under a
        transformation, writing through the result (or into ``a`` while it is alive)
        when its view-or-copy status is unknown (``a`` computed from a ``jit``
        argument, whose memory layout the trace does not know): use ``.copy()``.
    """
    order = _check_order("reshape", order)
    x = _asarray("reshape", a)
    aval = _aval(x)
    if shape is None or isinstance(shape, range):  # NumPy's: the same shape; a sequence
        shape = aval.shape if shape is None else tuple(shape)
    new = canonicalize_shape("reshape", shape, allow_negative=True)
    unknown = [i for i, d in enumerate(new) if d < 0]  # NumPy: any negative size is "unknown"
    if len(unknown) > 1:
        raise ValueError(f"xnp.reshape: can only specify one unknown dimension, got {new}")
    known = math.prod(d for d in new if d >= 0)
    if unknown:
        if known == 0 or aval.size % known:
            raise ValueError(f"xnp.reshape: cannot reshape {errors.aval_str(aval)} into shape "
                             f"{new}: {aval.size} elements do not fill the other dimensions.")
        new = tuple(aval.size // known if d < 0 else d for d in new)
    elif known != aval.size:
        raise ValueError(f"xnp.reshape: cannot reshape {errors.aval_str(aval)} into shape {new}: "
                         f"{aval.size} elements vs {known}.")
    if order == "A":
        order = _layout.memory_order("reshape", x, order)
    if order == "F":
        return _reshape_fortran(x, new, copy)
    if copy:
        return lax.copy(lax.reshape(x, new))
    if copy is False and not (type(x) is core.Array and not core.staging_active()):
        # traced: NumPy's view-or-copy rule on the modelled layout (_layout)
        st = _layout.layout(x)
        st = None if st is None else _layout.reshape_strides(aval.shape, st, new)
        if st is False:
            raise ValueError(f"xnp.reshape: cannot reshape {errors.aval_str(aval)} into shape "
                             f"{new} without a copy (copy=False)")
        if st is None:
            raise NotImplementedError(
                f"xnp.reshape: `copy=False` on {errors.aval_str(aval)} under a transformation "
                "whose memory layout xnp cannot tell (e.g. computed from a jit argument): it "
                "cannot promise that NumPy would give a view. Use copy=None.")
        return reshape_view(x, new)
    if copy is False:
        try:
            return core.Array(np.reshape(x._writable_value(), new, copy=False), x.weak_type)
        except ValueError:
            raise ValueError(f"xnp.reshape: cannot reshape {errors.aval_str(aval)} into shape "
                             f"{new} without a copy (copy=False)") from None
    return reshape_view(x, new)


def _order(fname: str, order, default: str = "C") -> str:
    """NumPy's ``order`` converter: None is the function's ``default``, otherwise
    :func:`xnp.numpy_api._util.order_letter`."""
    return default if order is None else _util.order_letter(fname, order)


def _check_order(fname: str, order) -> str:
    """NumPy's ``order`` for reshaping (:func:`_order`; 'K' is ``ValueError``)."""
    order = _order(fname, order)
    if order == "K":
        raise ValueError(f"xnp.{fname}: order 'K' is not permitted for reshaping")
    return order


def _reshape_fortran(x, new, copy):
    """NumPy's ``reshape(x, new, order='F')``: elements read and written in column-major
    order, a view when NumPy's is one (``transpose``, C reshape, ``transpose``: the same
    view-or-copy rule, traced too)."""
    if type(x) is core.Array and not core.staging_active():
        v = x._value if copy else x._writable_value()
        try:
            return core.Array(np.reshape(v, new, order="F", copy=copy), x.weak_type)
        except ValueError:
            raise ValueError(f"xnp.reshape: cannot reshape {errors.aval_str(_aval(x))} into "
                             f"shape {new} in order 'F' without a copy (copy=False)") from None
    return transpose(reshape(transpose(x), new[::-1], copy=copy))


def ravel(a, order="C"):
    """``a`` flattened to one dimension (``numpy.ravel``): ``order`` 'C' row-major, 'F'
    column-major, 'A' column-major when ``a`` is Fortran-contiguous, 'K' in memory order
    (None is 'C', and one letter of any case, ``str`` or ``bytes``, is accepted, as NumPy).

    NumPy's rule: a view when ``a``'s memory is contiguous in that order (eagerly, and
    under transformations on the layout xnp models, :mod:`xnp.numpy_api._layout`), else
    a copy.

    Raises
    ------
    ValueError
        An unknown ``order`` (``TypeError`` when it is not a string).
    NotImplementedError
        'A'/'K' on a traced array whose layout is unknown (a ``jit`` argument); writes
        through an undecided traced view (see reshape).
    """
    order = _order("ravel", order)
    x = _asarray("ravel", a)
    if order == "K" and type(x) is core.Array and not core.staging_active():
        return core.Array(np.ravel(x._writable_value(), order="K"), x.weak_type)
    if order in ("A", "K"):
        order = _layout.memory_order("ravel", x, order)
    if order == "F":
        return _ravel_c(transpose(x))
    return _ravel_c(x)


def _ravel_c(x):
    aval = _aval(x)
    # NumPy's ravel (order 'C') is a view of C-contiguous memory only; otherwise a copy,
    # even where reshape(-1) could give a view (a[:, ::2] of a contiguous a)
    # (``_v``, the unwatched read: contiguity follows from the shape and strides, which are
    # part of the eager dispatch cache's signature)
    if type(x) is core.Array and x._v is not None and not x._v.flags.c_contiguous:
        return lax.copy(lax.reshape(x, (aval.size,)))
    st = None if type(x) is core.Array else _layout.layout(x)
    if st is not None and aval.size > 1 and any(
            d != 1 and s != c for d, s, c in zip(aval.shape, st, _layout.c_strides(aval.shape))):
        out = lax.copy(lax.reshape(x, (aval.size,)))
        _layout.set_layout(out, (1,))
        return out
    return reshape_view(x, (aval.size,))


@fastpath.transpose
def transpose(a, axes=None):
    """Permute the axes of ``a``; by default reverse them. Eagerly a view.

    ``axes`` is a permutation of ``range(a.ndim)`` (negative values count
    from the end): a tuple, list, range or 1-d integer array.

    Raises
    ------
    ValueError
        ``axes`` has the wrong length ("axes don't match array") or repeats an axis.
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    x = _asarray("transpose", a)
    nd = _aval(x).ndim
    if axes is None:
        perm = tuple(range(nd))[::-1]
    else:
        try:  # a sequence (a range) or a 1-d array of ints, as NumPy's converter takes
            axes = tuple(axes)
        except TypeError:  # one int (a 0-d array)
            axes = (axes,)
        if len(axes) != nd:
            raise ValueError(f"xnp.transpose: axes don't match array: got {len(axes)} axes for "
                             f"an array of dimension {nd}")
        perm = tuple(normalize_axis("transpose", ax, nd, "axes") for ax in axes)
        if len(set(perm)) != nd:
            raise ValueError(f"xnp.transpose: repeated axis in transpose, axes={axes}")
    return transpose_view(x, perm)


permute_dims = transpose


def matrix_transpose(x, /):
    """Swap the last two axes of ``x`` (ndim >= 2). Eagerly a view.

    Raises
    ------
    ValueError
        ``x`` has fewer than 2 dimensions.
    """
    x = _asarray("matrix_transpose", x, "x")
    nd = _aval(x).ndim
    if nd < 2:
        raise ValueError(f"xnp.matrix_transpose: Input array must be at least 2-dimensional, "
                         f"but it is {nd}")
    return transpose_view(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def swapaxes(a, axis1, axis2):
    """Interchange two axes of ``a``. Eagerly a view.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    x = _asarray("swapaxes", a)
    nd = _aval(x).ndim
    i = normalize_axis("swapaxes", axis1, nd, "axis1")
    j = normalize_axis("swapaxes", axis2, nd, "axis2")
    perm = list(range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose_view(x, tuple(perm))


def moveaxis(a, source, destination):
    """Move axes ``source`` to positions ``destination`` (ints or sequences); others keep
    their order. Eagerly a view.

    Raises
    ------
    ValueError
        ``source`` and ``destination`` differ in length, or repeat an axis.
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    x = _asarray("moveaxis", a)
    nd = _aval(x).ndim
    src = axis_tuple("moveaxis", source, nd, "source")
    dst = axis_tuple("moveaxis", destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("xnp.moveaxis: `source` and `destination` arguments must have the same "
                         "number of elements")
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose_view(x, tuple(order))


def squeeze(a, axis=None):
    """Remove size-1 axes (all of them, or those in ``axis``). Eagerly a view; with no axis
    to remove, the array itself (``squeeze(x) is x``, as NumPy).

    ``axis``: None, an int or a tuple of ints (as NumPy, not a list).

    Raises
    ------
    ValueError
        A selected axis does not have size 1, or is repeated.
    numpy.exceptions.AxisError
        An axis is out of range.
    TypeError
        ``axis`` is not None, an int or a tuple of ints.
    """
    x = _asarray("squeeze", a)
    aval = _aval(x)
    if axis is None:
        dims = tuple(i for i, d in enumerate(aval.shape) if d == 1)
    elif aval.ndim == 0 and not isinstance(axis, (tuple, list)) and axis in (0, -1):
        dims = ()  # NumPy accepts axis 0 / -1 for a 0-d array
    else:
        dims = tuple(sorted(axis_tuple("squeeze", axis, aval.ndim, iterables=False)))
        for d in dims:
            if aval.shape[d] != 1:
                raise ValueError(f"xnp.squeeze: cannot select an axis to squeeze out which has "
                                 f"size not equal to one (axis {d} of {errors.aval_str(aval)})")
    if not dims:  # nothing to remove: ``a`` itself, as NumPy
        return x
    return squeeze_view(x, dims)


def expand_dims(a, axis):
    """Insert size-1 axes at positions ``axis`` of the result (int or tuple). Eagerly a view.

    Raises
    ------
    ValueError
        A repeated axis.
    numpy.exceptions.AxisError
        An axis is out of range for the result's rank.
    """
    x = _asarray("expand_dims", a)
    nd = _aval(x).ndim
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_nd = nd + len(axes)
    norm = [normalize_axis("expand_dims", ax, out_nd) for ax in axes]
    if len(set(norm)) != len(norm):
        raise ValueError("xnp.expand_dims: repeated axis")
    return expand_dims_view(x, tuple(norm))


# --------------------------------------------------------------------------- joining


def _join_dtype(fname, avals, dtype, casting):
    if dtype is None:
        dt, weak = result_dtype(*avals)
    else:
        dt, weak = canonical_dtype(dtype), False
    for av in avals:
        if not np.can_cast(av.dtype, dt, casting):
            raise TypeError(f"xnp.{fname}: Cannot cast array data from {av.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    return dt, weak


def _into(dtype, out):
    """The dtype a join computes in: ``out``'s (NumPy casts each input into it under
    ``casting``, not their common dtype), else ``dtype``."""
    return dtype if out is None else np.dtype(out.dtype)


def _promote_all(xs, avals, dt, weak):
    for av in avals:  # (a dtype= of another kind, casting='unsafe': NumPy's warning each)
        if av.dtype.kind == "c" and dt.kind not in "cb":
            _util.warn_complex_to_real()
    return [x if av.dtype == dt else lax.convert_element_type(x, dt, weak_type=weak)
            for x, av in zip(xs, avals)]


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis.

    Parameters
    ----------
    arrays : sequence of array_like
        Equal ranks (>= 1); shapes equal except along ``axis``.
    axis : int or None
        None flattens every array first.
    out : Array, optional
        Written in place (shape must match; cast with ``same_kind``).
    dtype : dtype, optional
        Result dtype; default is the NEP 50 result type of the inputs.
    casting : str
        Rule each input must satisfy to be cast to the result dtype.

    Returns
    -------
    Array
        A new array; under ``jit`` one ``concatenate`` equation (plus
        ``convert_element_type`` for inputs of another dtype).

    Raises
    ------
    ValueError
        No arrays, 0-d arrays, different ranks, or mismatched dimensions.
    TypeError
        A cast violates ``casting``; both ``out`` and ``dtype`` given.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    if out is not None and dtype is not None:
        raise TypeError("xnp.concatenate: concatenate() only takes `out` or `dtype` as an "
                        "argument, but both were provided.")
    if axis is None:
        arrays, dtype = weak_numbers("concatenate", arrays, _asarray, dtype, out)
    xs = [_asarray("concatenate", a, "arrays") for a in arrays]
    if not xs:
        raise ValueError("xnp.concatenate: need at least one array to concatenate")
    if axis is None:
        xs = [ravel(x) for x in xs]
        axis = 0
    avals = [_aval(x) for x in xs]
    nd = avals[0].ndim
    if nd == 0:
        raise ValueError("xnp.concatenate: zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis("concatenate", axis, nd)
    for i, av in enumerate(avals[1:], 1):
        if av.ndim != nd:
            raise ValueError(
                f"xnp.concatenate: all the input arrays must have same number of dimensions, but "
                f"the array at index 0 has {nd} dimension(s) and the array at index {i} has "
                f"{av.ndim} dimension(s)")
        for d in range(nd):
            if d != ax and av.shape[d] != avals[0].shape[d]:
                raise ValueError(
                    "xnp.concatenate: all the input array dimensions except for the "
                    f"concatenation axis must match exactly, but along dimension {d}, the array "
                    f"at index 0 has size {avals[0].shape[d]} and the array at index {i} has size "
                    f"{av.shape[d]}")
    dt, weak = _join_dtype("concatenate", avals, _into(dtype, out), casting)
    res = lax.concatenate(_promote_all(xs, avals, dt, weak), ax)
    return write_out("concatenate", out, res, casting)


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join equally shaped arrays along a new axis ``axis`` of the result.

    Dtype, ``out`` and ``casting`` as for :func:`concatenate`.

    Raises
    ------
    ValueError
        No arrays, or shapes differ ("all input arrays must have the same shape").
    numpy.exceptions.AxisError
        ``axis`` out of range for the result.
    """
    if out is not None and dtype is not None:
        raise TypeError("xnp.stack: stack() only takes `out` or `dtype` as an argument, but "
                        "both were provided.")
    xs = [_asarray("stack", a, "arrays") for a in arrays]
    if not xs:
        raise ValueError("xnp.stack: need at least one array to stack")
    avals = [_aval(x) for x in xs]
    if any(av.shape != avals[0].shape for av in avals):
        raise ValueError("xnp.stack: all input arrays must have the same shape, got "
                         + errors.avals_str(avals))
    ax = normalize_axis("stack", axis, avals[0].ndim + 1)
    dt, weak = _join_dtype("stack", avals, _into(dtype, out), casting)
    xs = [lax.expand_dims(x, (ax,)) for x in _promote_all(xs, avals, dt, weak)]
    return write_out("stack", out, lax.concatenate(xs, ax), casting)


def _at_least(fname, nd_min, a):
    x = _asarray(fname, a, "arys")
    aval = _aval(x)
    if aval.ndim >= nd_min:
        return x
    if nd_min == 3 and aval.ndim == 2:
        return expand_dims_view(x, (2,))
    if nd_min == 3 and aval.ndim == 1:
        return expand_dims_view(x, (0, 2))
    return expand_dims_view(x, tuple(range(nd_min - aval.ndim)))


def atleast_1d(*arys):
    """Arrays with at least one dimension (0-d becomes shape (1,)); views of the inputs.

    Returns one array for one argument, else a tuple.
    """
    res = tuple(_at_least("atleast_1d", 1, a) for a in arys)
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    """Arrays with at least two dimensions: 0-d -> (1, 1), (N,) -> (1, N)."""
    res = tuple(_at_least("atleast_2d", 2, a) for a in arys)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    """Arrays with at least three dimensions: 0-d -> (1, 1, 1), (N,) -> (1, N, 1),
    (M, N) -> (M, N, 1)."""
    res = tuple(_at_least("atleast_3d", 3, a) for a in arys)
    return res[0] if len(res) == 1 else res


def _seq(fname, tup):
    if not isinstance(tup, (list, tuple)) and not is_xnp(tup):
        raise TypeError(f"xnp.{fname}: arrays to stack must be passed as a sequence, got "
                        f"{type(tup).__name__}")
    return list(tup)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Join horizontally: along axis 0 for 1-D inputs, else axis 1 (0-d become 1-D)."""
    xs = [_at_least("hstack", 1, a) for a in _seq("hstack", tup)]
    ax = 0 if xs and _aval(xs[0]).ndim == 1 else 1
    return concatenate(xs, ax, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Join vertically (axis 0) after making every input at least 2-D."""
    xs = [_at_least("vstack", 2, a) for a in _seq("vstack", tup)]
    return concatenate(xs, 0, dtype=dtype, casting=casting)


def dstack(tup):
    """Join along axis 2 after making every input at least 3-D."""
    xs = [_at_least("dstack", 3, a) for a in _seq("dstack", tup)]
    return concatenate(xs, 2)


def column_stack(tup):
    """Join 1-D arrays as columns of a 2-D array (2-D inputs are joined along axis 1)."""
    cols = []
    for a in _seq("column_stack", tup):
        x = _asarray("column_stack", a, "tup")
        aval = _aval(x)
        if aval.ndim < 2:
            x = lax.reshape(x, (aval.size, 1))
        cols.append(x)
    return concatenate(cols, 1)


def append(arr, values, axis=None):
    """``values`` appended to ``arr``: both flattened when ``axis`` is None, else joined
    along ``axis`` (as :func:`concatenate`). A new array."""
    x = _asarray("append", arr, "arr")
    v = _asarray("append", values, "values")
    if axis is None:
        if _aval(x).ndim != 1:
            x = ravel(x)
        v = ravel(v)
        axis = _aval(x).ndim - 1
    return concatenate([x, v], axis)


# --------------------------------------------------------------------------- broadcasting


@metadata_function
def broadcast_shapes(*args):
    """The shape NumPy broadcasting gives for ``args`` (ints or tuples of ints; static).

    Raises
    ------
    ValueError
        The shapes do not broadcast.
    """
    shapes = [canonicalize_shape("broadcast_shapes", s, argname="args") for s in args]
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError as e:
        raise ValueError(f"xnp.broadcast_shapes: {e}") from None


def broadcast_to(array, shape, subok=False):
    """``array`` broadcast to ``shape`` (NumPy broadcasting; ``shape`` static).

    As NumPy, a read-only view of ``array``: writing into it raises ``ValueError``, and
    under a transformation it sees later writes into ``array``. Under ``jit`` one
    ``broadcast_in_dim`` equation.

    Raises
    ------
    ValueError
        ``array`` cannot be broadcast to ``shape``.
    NotImplementedError
        ``subok=True``.
    """
    check_unsupported("broadcast_to", subok=(subok, False, "xnp has no array subclasses"))
    x = _asarray("broadcast_to", array, "array")
    aval = _aval(x)
    shape = canonicalize_shape("broadcast_to", shape)
    k = len(shape) - aval.ndim
    if k < 0 or any(d not in (1, s) for d, s in zip(aval.shape, shape[k:])):
        raise ValueError(
            f"xnp.broadcast_to: operands could not be broadcast together with remapped shapes "
            f"[original->remapped]: {aval.shape} and requested shape {shape}")
    dims = tuple(range(k, len(shape)))
    return read_only_view(x, lambda b: lax.broadcast_in_dim(b, shape, dims),
                          functools.partial(np.broadcast_to, shape=shape))


def broadcast_arrays(*args, subok=False):
    """The arrays broadcast against each other (a tuple of views; ``numpy.broadcast_arrays``).

    Eagerly NumPy's own views (writing into one warns, as NumPy does, and writes the
    shared elements). Under a transformation an argument that already has the common
    shape is returned as it is; writing into the others raises ``ValueError``. A list
    instead of a tuple when xnp presents an Array API version before 2025.12 (the
    ``array_api_version`` option).
    """
    check_unsupported("broadcast_arrays", subok=(subok, False, "xnp has no array subclasses"))
    xs = [_asarray("broadcast_arrays", a, "args") for a in args]
    shape = broadcast_shapes(*[_aval(x).shape for x in xs])
    if all(_aval(x).shape == shape for x in xs):
        return api_sequence(xs)
    if all(type(x) is core.Array for x in xs) and not core.staging_active():
        return api_sequence(core.Array(v, x.weak_type)
                            for v, x in zip(np.broadcast_arrays(*[x._value for x in xs]), xs))
    msg = ("xnp: writing into a broadcast_arrays result is not supported under a "
           "transformation (its elements alias each other; NumPy warns it will become "
           "read-only); broadcast_to(...).copy() gives a writable array")
    return api_sequence(x if _aval(x).shape == shape else read_only_view(
        x, lambda b: lax.broadcast_in_dim(b, shape, tuple(range(len(shape) - _aval(b).ndim,
                                                                len(shape)))),
        None, msg) for x in xs)


# --------------------------------------------------------------------------- flipping


def _reversed(x, axes):
    """``x`` reversed along ``axes``: the basic index ``x[..., ::-1, ...]``, so a view of
    ``x`` eagerly and under every transformation (``rev`` under ``jit``)."""
    return x[tuple(slice(None, None, -1) if d in axes else slice(None)
                   for d in range(_aval(x).ndim))]


def flip(m, axis=None):
    """Reverse the order of elements along ``axis`` (None: all axes). A view of ``m``
    (writes through it reach ``m``, under transformations too).

    Raises
    ------
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    x = _asarray("flip", m, "m")
    return _reversed(x, normalize_axes("flip", axis, _aval(x).ndim))


def flipud(m):
    """Reverse axis 0 (a view, as :func:`flip`). ``ValueError`` for 0-d input."""
    x = _asarray("flipud", m, "m")
    if _aval(x).ndim < 1:
        raise ValueError("xnp.flipud: Input must be >= 1-d.")
    return _reversed(x, (0,))


def fliplr(m):
    """Reverse axis 1 (a view, as :func:`flip`). ``ValueError`` for input with fewer than 2
    dimensions."""
    x = _asarray("fliplr", m, "m")
    if _aval(x).ndim < 2:
        raise ValueError("xnp.fliplr: Input must be >= 2-d.")
    return _reversed(x, (1,))


# --------------------------------------------------------------------------- padding, tiling


def _static_int_array(fname: str, value, argname: str) -> np.ndarray:
    """A static integer NumPy array from nested ints/sequences/concrete arrays."""
    if isinstance(value, (list, tuple)):
        items = [_static_int_array(fname, v, argname) for v in value]
        try:
            return np.array(items) if items else np.zeros((0,), np.int64)
        except ValueError as e:
            raise ValueError(f"xnp.{fname}: `{argname}`: {e}") from None
    if is_xnp(value):
        aval = _aval(value)
        if aval.ndim == 0:
            return np.asarray(static_int(fname, value, argname))
        if isinstance(value, core.Tracer):
            static_int(fname, value, argname)  # raises ConcretizationTypeError
        value = value._value
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" and arr.size:
        raise TypeError(f"xnp.{fname}: `{argname}` must be of integral type, got {value!r}")
    return arr.astype(np.int64)


def pad(array, pad_width, mode="constant", **kwargs):
    """Pad ``array`` with a constant value or by NumPy's edge/reflect/symmetric/wrap rules.

    Parameters
    ----------
    array : array_like
    pad_width : int or sequence
        Static, non-negative; ``n``, ``(before, after)``, or one pair per
        axis (broadcast to shape ``(ndim, 2)`` as in NumPy).
    mode : {'constant', 'empty', 'edge', 'reflect', 'symmetric', 'wrap', 'linear_ramp'}
        'empty' pads with 0; the index modes copy elements as NumPy (reflect_type='even'
        only); 'linear_ramp' ramps from ``end_values`` to the edge values as NumPy's
        ``linspace`` (endpoint excluded, NumPy's dtype and rounding; integer dtypes are
        floored); the statistic modes ('mean', 'maximum', ...) raise
        ``NotImplementedError``.
    constant_values : scalar, sequence or str, default 0
        Values broadcast to ``(ndim, 2)``, each converted to ``array``'s dtype as NumPy's
        assignment into the padded array converts it, with its errors and warnings: a
        Python int (or float64 ``2**63``) beyond the dtype ``OverflowError``, NaN or
        ``'x'`` into an integer dtype ``ValueError``, ``'5'`` into one is 5, a complex
        into a real dtype ``ComplexWarning`` (one value) or ``TypeError`` (per-axis
        values). Python and NumPy scalars, NumPy arrays, strings, sequences and eager xnp
        arrays (a 0-d one too) are read so. Traced values, and xnp arrays a staged
        (``jit``) function closes over (read at each call), cannot be read: they are cast
        with ``lax.convert_element_type``, unchecked: NaN or an out-of-range value into
        an integer dtype raises nothing and pads with what the backend's conversion gives.
        With one value the jaxpr has one ``pad``; with per-axis values, two per padded
        axis (later axes win at the corners, as in NumPy).
    end_values : scalar or sequence, default 0
        'linear_ramp': static values broadcast to ``(ndim, 2)``, the value each ramp
        starts from at the outer edge.

    Raises
    ------
    ValueError
        Negative widths, widths that do not broadcast, an unknown mode, keyword
        arguments the mode does not take, or an index mode on an empty axis; values of
        ``constant_values`` that do not broadcast, or that NumPy's assignment refuses
        with ``ValueError`` (NaN into an integer dtype).
    TypeError
        Non-integral ``pad_width``; ``constant_values`` NumPy's assignment refuses with
        ``TypeError``.
    OverflowError
        ``constant_values`` beyond an integer dtype, as NumPy's assignment.
    """
    if mode not in ("constant", "empty", "linear_ramp") + INDEX_MODES:
        if mode in ("maximum", "mean", "median", "minimum") or callable(mode):
            raise NotImplementedError(f"xnp.pad: mode {mode!r} is not supported; 'constant', "
                                      f"'empty', 'linear_ramp' and {', '.join(INDEX_MODES)} "
                                      "are implemented.")
        raise ValueError(f"xnp.pad: mode {mode!r} is not supported")
    allowed = {"constant_values": ("constant",), "reflect_type": ("reflect", "symmetric"),
               "end_values": ("linear_ramp",)}
    extra = {k for k in kwargs if k not in allowed or mode not in allowed[k]}
    if extra:
        raise ValueError(f"xnp.pad: unsupported keyword arguments for mode {mode!r}: {extra}")
    x = _asarray("pad", array, "array")
    aval = _aval(x)
    widths = _static_int_array("pad", pad_width, "pad_width")
    if (widths < 0).any():
        raise ValueError("xnp.pad: index can't contain negative values")
    try:
        widths = np.broadcast_to(widths, (aval.ndim, 2))
    except ValueError:
        raise ValueError(f"xnp.pad: `pad_width` of shape {widths.shape} does not broadcast to "
                         f"({aval.ndim}, 2) for an array of shape {aval.shape}") from None
    if mode in INDEX_MODES:
        return pad_by_index(x, widths, mode, kwargs.get("reflect_type", "even"))
    if mode == "linear_ramp":
        return pad_linear_ramp(x, widths, kwargs.get("end_values", 0))
    values = kwargs.get("constant_values", 0)
    if isinstance(values, core.Tracer) or (is_xnp(values) and core.staging_active()):
        return pad_staged_constant(x, widths, values)  # (values read at each call: unchecked)
    if is_xnp(values):  # an eager array's value is read, as NumPy's assignment reads it
        values = values._value if type(values) is core.Array else np.asarray(values)
    host = constant_pad_values(values, aval.dtype, aval.ndim)
    if host.size == 0 or bool((host == host.flat[0]).all()):  # one value: one pad
        pv = core.lift(np.asarray(host.flat[0] if host.size else 0).astype(aval.dtype))
        return lax.pad(x, pv, [(int(b), int(a), 0) for b, a in widths])
    for ax in range(aval.ndim):
        for side in (0, 1):
            if widths[ax, side]:
                config = [(0, 0, 0)] * aval.ndim
                config[ax] = (int(widths[ax, 0]), 0, 0) if side == 0 else (0, int(widths[ax, 1]), 0)
                x = lax.pad(x, core.lift(np.asarray(host[ax, side])), config)
    return x if widths.any() else lax.copy(x)
