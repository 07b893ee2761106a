"""Tiling, splitting and rolling: ``tile``, ``repeat``, ``split``, ``array_split`` and
``roll`` (NumPy's reference: "Tiling arrays", "Splitting arrays", "Rearranging
elements").

Repetition counts, split points and shifts are static where they decide the result's
shape (a traced one raises ``xnp.errors.ConcretizationTypeError``); ``roll``'s shift may
be traced. Results of ``split`` are views of their input eagerly, as NumPy's.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax.shape_ops import canonicalize_shape
from xnp.numpy_api._util import is_xnp, normalize_axis, static_int
from xnp.numpy_api.manipulation import _asarray, _aval, _static_int_array, ravel, reshape
from xnp.tracing.sizes import check_array_size

__all__ = ["tile", "repeat", "array_split", "split", "roll"]


def tile(A, reps):
    """``A`` repeated ``reps`` times along each axis (a new array).

    ``reps`` (static int or tuple) and ``A.ndim`` are padded with leading 1s
    to the same length; the result has shape ``A.shape * reps``. Under ``jit``
    a ``broadcast_in_dim`` to interleaved ``(r0, n0, r1, n1, ...)`` and a ``reshape``.

    A bool count (Python, NumPy or a bool array's) is 0 or 1, as NumPy multiplies it into
    the shape.

    Raises
    ------
    ValueError
        A negative repetition count, or a result whose byte size overflows int64.
    MemoryError
        The result needs more bytes than the machine's memory.
    """
    x = _asarray("tile", A, "A")
    aval = _aval(x)
    reps = canonicalize_shape("tile", _bool_counts(reps), argname="reps")
    d = max(len(reps), aval.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - aval.ndim) + aval.shape
    inter = tuple(v for pair in zip(reps, shape) for v in pair)
    check_array_size("tile", tuple(r * n for r, n in zip(reps, shape)), aval.dtype,
                     argname="reps")
    if d - aval.ndim:
        x = lax.reshape(x, shape)
    out = lax.broadcast_in_dim(x, inter, tuple(range(1, 2 * d, 2)))
    out = lax.reshape(out, tuple(r * n for r, n in zip(reps, shape)))
    return lax.copy(out) if all(r == 1 for r in reps) else out


def _bool_counts(reps):
    """``reps`` with its bools (a shape's entries must not be bools) as the ints 0 and 1."""
    if isinstance(reps, (bool, np.bool_)):
        return int(reps)
    if isinstance(reps, np.ndarray) and reps.dtype == np.bool_:
        return reps.astype(np.intp)
    if isinstance(reps, (tuple, list)):
        return type(reps)(int(r) if isinstance(r, (bool, np.bool_)) else r for r in reps)
    return reps


def _repeat_uniform(x, ax, r):
    aval = _aval(x)
    if r == 1:
        return lax.copy(x)
    inter = aval.shape[:ax + 1] + (r,) + aval.shape[ax + 1:]
    dims = tuple(range(ax + 1)) + tuple(range(ax + 2, aval.ndim + 1))
    out = lax.broadcast_in_dim(x, inter, dims)
    shape = aval.shape[:ax] + (aval.shape[ax] * r,) + aval.shape[ax + 1:]
    return lax.reshape(out, shape)


def _slice_axis(x, ax, start, stop):
    aval = _aval(x)
    starts = [0] * aval.ndim
    limits = list(aval.shape)
    starts[ax], limits[ax] = start, stop
    return lax.slice(x, tuple(starts), tuple(limits))


def _view_axis(x, ax, start, stop):
    """``x[:, ..., start:stop]`` along ``ax``: a view of ``x`` (basic indexing)."""
    return x[(slice(None),) * ax + (slice(start, stop),)]


def repeat(a, repeats, axis=None):
    """Repeat each element of ``a`` (flattened when ``axis`` is None) ``repeats`` times.

    ``repeats`` is a static int, or a static sequence with one count per
    element along ``axis``. Under ``jit``: a uniform count is a broadcast and a
    reshape; per-element counts slice runs of equal counts and join them.

    Raises
    ------
    ValueError
        Negative counts, a count sequence of the wrong length, or a result whose byte
        size overflows int64.
    MemoryError
        The result needs more bytes than the machine's memory.
    xnp.errors.ConcretizationTypeError
        ``repeats`` is traced.
    """
    x = _asarray("repeat", a)
    if axis is None:
        x = ravel(x)
        axis = 0
    aval = _aval(x)
    if aval.ndim == 0:
        x = lax.reshape(x, (1,))
        aval = _aval(x)
    ax = normalize_axis("repeat", axis, aval.ndim)
    counts = _static_int_array("repeat", repeats, "repeats")
    if counts.ndim > 1:
        raise ValueError("xnp.repeat: `repeats` must be an int or a 1-D sequence")
    if (counts < 0).any():
        raise ValueError("xnp.repeat: negative dimensions are not allowed")
    n = aval.shape[ax]
    if counts.size not in (1, n):
        raise ValueError(f"xnp.repeat: operands could not be broadcast together with shape "
                         f"({n},) ({counts.size},)")
    total = n * int(counts.flat[0]) if counts.size == 1 else sum(counts.tolist())
    check_array_size("repeat", aval.shape[:ax] + (total,) + aval.shape[ax + 1:], aval.dtype,
                     argname="repeats")
    if counts.size == 1 or (n and (counts == counts.flat[0]).all()):
        return _repeat_uniform(x, ax, int(counts.flat[0]))
    pieces = []
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and counts[stop] == counts[start]:
            stop += 1
        if counts[start]:
            pieces.append(_repeat_uniform(_slice_axis(x, ax, start, stop), ax, int(counts[start])))
        start = stop
    if not pieces:
        return _repeat_uniform(x, ax, 0)
    return lax.concatenate(pieces, ax) if len(pieces) > 1 else pieces[0]


# --------------------------------------------------------------------------- splitting, rolling


def _split_points(fname, indices_or_sections, n, *, equal):
    if isinstance(indices_or_sections, (list, tuple, np.ndarray)) or (
            is_xnp(indices_or_sections) and _aval(indices_or_sections).ndim == 1):
        idx = _static_int_array(fname, indices_or_sections, "indices_or_sections").tolist()
        bounds = [0] + idx + [n]
        return [slice(lo, hi).indices(n)[:2] for lo, hi in zip(bounds[:-1], bounds[1:])]
    sections = static_int(fname, indices_or_sections, "indices_or_sections")
    if equal and n % sections:
        raise ValueError(f"xnp.{fname}: array split does not result in an equal division "
                         f"({n} elements into {sections} sections)")
    if sections <= 0:
        raise ValueError(f"xnp.{fname}: number sections must be larger than 0.")
    each, extras = divmod(n, sections)
    sizes = [each + 1] * extras + [each] * (sections - extras)
    out, start = [], 0
    for s in sizes:
        out.append((start, start + s))
        start += s
    return out


def array_split(ary, indices_or_sections, axis=0):
    """Split ``ary`` into sub-arrays along ``axis`` (a list; eagerly views).

    ``indices_or_sections``: an int N (N parts; the first ``len % N`` get one
    extra element) or a sorted sequence of split indices (static; Python
    slice semantics, so out-of-range indices give empty parts).

    Raises
    ------
    ValueError
        N <= 0.
    """
    x = _asarray("array_split", ary, "ary")
    aval = _aval(x)
    ax = normalize_axis("array_split", axis, aval.ndim)
    bounds = _split_points("array_split", indices_or_sections, aval.shape[ax], equal=False)
    return [_view_axis(x, ax, lo, max(lo, hi)) for lo, hi in bounds]


def split(ary, indices_or_sections, axis=0):
    """As :func:`array_split`, but an int N must divide the axis length.

    Raises
    ------
    ValueError
        The division is not equal.
    ZeroDivisionError
        N is 0 (as in NumPy).
    """
    x = _asarray("split", ary, "ary")
    aval = _aval(x)
    ax = normalize_axis("split", axis, aval.ndim)
    n = aval.shape[ax]
    if not isinstance(indices_or_sections, (list, tuple, np.ndarray)) and not (
            is_xnp(indices_or_sections) and _aval(indices_or_sections).ndim == 1):
        if static_int("split", indices_or_sections, "indices_or_sections") == 0:
            raise ZeroDivisionError("xnp.split: integer modulo by zero (0 sections)")
    bounds = _split_points("split", indices_or_sections, n, equal=True)
    return [_view_axis(x, ax, lo, max(lo, hi)) for lo, hi in bounds]


def roll(a, shift, axis=None):
    """Shift elements cyclically by ``shift`` along ``axis`` (None: the flattened array).

    ``shift`` and ``axis`` are static ints or tuples (broadcast together;
    shifts of the same axis add). A new array; under ``jit`` two slices and a
    ``concatenate`` per rolled axis.

    Raises
    ------
    ValueError
        ``shift`` and ``axis`` do not broadcast.
    numpy.exceptions.AxisError
        An axis is out of range.
    xnp.errors.ConcretizationTypeError
        ``shift`` is traced.
    """
    x = _asarray("roll", a)
    aval = _aval(x)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), aval.shape)
    shifts = _static_int_array("roll", shift, "shift").reshape(-1)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [normalize_axis("roll", ax, aval.ndim) for ax in axes]
    try:
        shifts, axes_b = np.broadcast_arrays(shifts, np.asarray(axes, dtype=np.int64))
    except ValueError:
        raise ValueError("xnp.roll: 'shift' and 'axis' should be scalars or 1D sequences "
                         "of the same length") from None
    total = {}
    for s, ax in zip(shifts.tolist(), axes_b.tolist()):
        total[ax] = total.get(ax, 0) + s
    out = x
    for ax, s in sorted(total.items()):
        n = aval.shape[ax]
        s = s % n if n else 0
        if s:
            out = lax.concatenate([_slice_axis(out, ax, n - s, n), _slice_axis(out, ax, 0, n - s)],
                                  ax)
    return lax.copy(out) if out is x else out

