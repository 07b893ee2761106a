"""The index-mapping modes of ``xnp.pad``: 'edge', 'reflect', 'symmetric', 'wrap'; and
'linear_ramp' (:func:`pad_linear_ramp`, NumPy's ``linspace`` ramps step for step); and the
conversion of mode 'constant''s static values (:func:`constant_pad_values`) and its
unreadable ones (:func:`pad_staged_constant`).

Each padded axis reads its new elements back from the source through a static index
map (NumPy's results, also for widths larger than the axis); the map is cut into runs
of consecutive, reversed or repeated indices, so the result is slices, ``rev`` and
``broadcast_in_dim`` joined by one ``concatenate`` per axis, which traces,
differentiates and batches like any other lax composition.
"""

from __future__ import annotations

import warnings

import numpy as np

from xnp import lax
from xnp.numpy_api import _util
from xnp.tracing import core

INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")


def constant_pad_values(values, dtype, ndim: int) -> np.ndarray:
    """Static ``constant_values`` broadcast to ``(ndim, 2)`` and converted to ``dtype`` as
    NumPy's ``pad`` does: its pairs (NumPy scalars for one value or one pair, else Python
    scalars from ``tolist``) each assigned into an array of ``dtype``, with that
    assignment's errors (a Python int out of range: ``OverflowError``; NaN into an integer
    dtype: ``ValueError``; a complex into a real dtype: ``TypeError``, or ``ComplexWarning``
    for one complex scalar) and warnings (once each, at the caller's line). Any values
    NumPy's assignment takes are taken: strings (``'5'`` into an integer dtype is 5, ``'x'``
    is its ``ValueError``), bytes, datetimes, objects."""
    arr = np.array(values)
    if arr.ndim < 3 and (arr.size == 1 or (arr.size == 2 and arr.shape != (2, 1))):
        flat = arr.ravel()
        pairs = [[flat[0], flat[-1]]] * ndim
    else:
        try:
            pairs = np.broadcast_to(arr, (ndim, 2)).tolist()
        except ValueError:
            raise ValueError(f"xnp.pad: `constant_values` of shape {arr.shape} does not "
                             f"broadcast to ({ndim}, 2)") from None
    host = np.empty((ndim, 2), dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, pair in enumerate(pairs):
            for j, v in enumerate(pair):
                try:
                    host[i, j:j + 1] = v  # NumPy's assignment into the padded area
                except (OverflowError, ValueError, TypeError) as e:
                    text = repr(v) if len(repr(v)) <= 40 else repr(v)[:30] + "..."
                    what = "does not fit" if isinstance(e, OverflowError) else "cannot be cast to"
                    raise type(e)(f"xnp.pad: `constant_values` {text} {what} {dtype.name} "
                                  f"(the padded array's dtype): {e}") from None
    seen = set()
    for w in caught:
        if (w.category, str(w.message)) not in seen:
            seen.add((w.category, str(w.message)))
            _util.warn(str(w.message), w.category)
    return host


def pad_staged_constant(x, widths: np.ndarray, values):
    """``x`` padded by the static ``(ndim, 2)`` ``widths`` with ``constant_values`` that
    cannot be read: a tracer, or an eager array a staged function closes over (an implicit
    argument, read at each call). NumPy's pairs (``_as_pairs``: one value, one pair, or
    values broadcast to ``(ndim, 2)``) are built with lax and cast with
    ``convert_element_type``, unchecked; a concrete tracer's value (eager ``grad``) is
    checked first as :func:`constant_pad_values` checks it."""
    known = values.to_concrete_value() if isinstance(values, core.Tracer) else None
    if known is not None:
        constant_pad_values(np.asarray(known), x.dtype, x.ndim)  # NumPy's errors, warnings
    ndim, vav = x.ndim, core.aval_of(values)
    v = values if vav.dtype == x.dtype else lax.convert_element_type(values, x.dtype)
    if vav.ndim < 3 and vav.size == 1:
        v = v if vav.ndim == 0 else lax.reshape(v, ())
        return lax.pad(x, v, [(int(b), int(a), 0) for b, a in widths])
    if vav.ndim < 3 and vav.size == 2 and vav.shape != (2, 1):
        v = v if vav.shape == (2,) else lax.reshape(v, (2,))
        pairs = lax.broadcast_in_dim(v, (ndim, 2), (1,))
    else:
        try:
            np.broadcast_shapes(vav.shape, (ndim, 2))
            if vav.ndim > 2:
                raise ValueError
        except ValueError:
            raise ValueError(f"xnp.pad: `constant_values` of shape {vav.shape} does not "
                             f"broadcast to ({ndim}, 2)") from None
        pairs = lax.broadcast_in_dim(v, (ndim, 2), tuple(range(2 - vav.ndim, 2)))
    for ax in range(ndim):
        for side in (0, 1):
            if widths[ax, side]:
                config = [(0, 0, 0)] * ndim
                config[ax] = (int(widths[ax, 0]), 0, 0) if side == 0 else (0, int(widths[ax, 1]), 0)
                pv = lax.reshape(lax.slice(pairs, (ax, side), (ax + 1, side + 1)), ())
                x = lax.pad(x, pv, config)
    return x if widths.any() else lax.copy(x)


def _padded_axes(x, widths):
    """``(axis, before, after)`` of each axis of ``x`` that ``widths`` pads; ``ValueError``
    (NumPy's) for an empty axis, which only 'constant' and 'empty' can extend."""
    for axis, (before, after) in enumerate(widths):
        if not (before or after):
            continue
        if x.shape[axis] == 0:
            raise ValueError(f"xnp.pad: can't extend empty axis {axis} using modes other "
                             "than 'constant' or 'empty'")
        yield axis, int(before), int(after)


def source_indices(mode: str, n: int, before: int, after: int) -> np.ndarray:
    """Source index of every position of an axis of length ``n`` padded by ``before``/``after``."""
    i = np.arange(-before, n + after)
    if mode == "edge":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "reflect" and n == 1:
        return np.zeros_like(i)
    period = 2 * n - 2 if mode == "reflect" else 2 * n  # symmetric repeats the edge
    j = i % period
    return np.where(j < n, j, period - j if mode == "reflect" else period - 1 - j)


def _runs(idx: np.ndarray):
    """``(first, last, step)`` runs of ``idx`` with step +1, -1 or 0 (a single index: +1)."""
    start = 0
    while start < len(idx):
        step = int(idx[start + 1] - idx[start]) if start + 1 < len(idx) else 1
        step = step if step in (-1, 0, 1) else 1
        end = start + 1
        while end < len(idx) and idx[end] - idx[end - 1] == step:
            end += 1
        yield int(idx[start]), int(idx[end - 1]), step, end - start
        start = end


def take_static(x, idx: np.ndarray, axis: int):
    """``x`` gathered along ``axis`` at the static indices ``idx`` (slices, no gather)."""
    shape = list(x.shape)
    pieces = []
    for first, last, step, count in _runs(idx):
        lo, hi = min(first, last), max(first, last)
        piece = lax.slice_in_dim(x, lo, hi + 1, axis=axis)
        if step == -1:
            piece = lax.rev(piece, (axis,))
        elif step == 0 and count > 1:
            shape[axis] = count
            piece = lax.broadcast_in_dim(piece, tuple(shape), tuple(range(len(shape))))
        pieces.append(piece)
    return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)


def pad_by_index(x, widths: np.ndarray, mode: str, reflect_type: str = "even"):
    """``x`` padded by the static ``(ndim, 2)`` ``widths`` in one of :data:`INDEX_MODES`.

    Raises ValueError, as NumPy, when an empty axis would be padded, and
    NotImplementedError for ``reflect_type='odd'``.
    """
    if reflect_type != "even":
        raise NotImplementedError(f"xnp.pad: reflect_type={reflect_type!r} is not supported; "
                                  "only 'even' is implemented.")
    for axis, before, after in _padded_axes(x, widths):
        x = take_static(x, source_indices(mode, x.shape[axis], before, after), axis)
    return x if widths.any() else lax.copy(x)


def end_value_pairs(end_values, ndim: int) -> list:
    """``end_values`` as NumPy's ``pad`` reads them (``_as_pairs``): one ``(before, after)``
    pair per axis, NumPy scalars (one or two values given) or Python scalars (per axis)."""
    ev = np.array(end_values)
    if ev.dtype.kind not in "biufc":
        raise TypeError(f"xnp.pad: `end_values` must be numbers, got {end_values!r}")
    if ev.ndim < 3 and ev.size == 1:
        v = ev.ravel()[0]
        return [(v, v)] * ndim
    if ev.ndim < 3 and ev.size == 2 and ev.shape != (2, 1):
        flat = ev.ravel()
        return [(flat[0], flat[1])] * ndim
    try:
        return np.broadcast_to(ev, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"xnp.pad: `end_values` of shape {ev.shape} does not broadcast to "
                         f"({ndim}, 2)") from None


def _ramp(x, axis: int, num: int, start, edge):
    """NumPy's ``linspace(start, edge, num, endpoint=False, dtype=x.dtype, axis=axis)``, step
    for step (its dtype, its zero-step form, the floor for integer dtypes), so eager results
    equal NumPy's bit for bit. ``edge``: ``x``'s edge slice along ``axis`` (length 1)."""
    out_dt = np.dtype(x.dtype)
    # linspace's computation dtype: its own result type of (start, stop), made inexact
    dt = np.linspace(start, np.zeros((), out_dt), 1, endpoint=False).dtype
    shape = list(edge.shape)
    shape[axis] = num
    shape = tuple(shape)
    dims = tuple(range(len(shape)))
    s = lax.convert_element_type(edge, dt)
    s0 = np.asarray(start).astype(dt)
    delta = lax.sub(s, _const(s0))
    step = lax.div(delta, _const(np.asarray(num, dt)))
    y = lax.iota(dt, shape, axis)
    any_zero = lax.reduce_or(lax.eq(step, _const(np.zeros((), dt))), dims)
    step_b = lax.broadcast_in_dim(step, shape, dims)
    delta_b = lax.broadcast_in_dim(delta, shape, dims)
    scaled = lax.mul(y, step_b)
    # NumPy's form when any step is 0 (denormal steps, gh-5437): y / num * delta
    by_delta = lax.mul(lax.div(y, _const(np.asarray(num, dt))), delta_b)
    y = lax.select(lax.broadcast_in_dim(any_zero, shape, ()), by_delta, scaled)
    y = lax.add(y, _const(s0))
    if out_dt.kind in "iu":
        y = lax.floor(y)
    return lax.convert_element_type(y, out_dt)


def _const(v):
    return core.lift(np.asarray(v))


def pad_linear_ramp(x, widths: np.ndarray, end_values=0):
    """``x`` padded by the static ``(ndim, 2)`` ``widths`` with NumPy's 'linear_ramp' mode:
    each axis in turn (the earlier axes' padding included, as NumPy) gets a ramp from its
    end value to the edge value, endpoint excluded. ``ValueError`` for an empty axis that
    would be padded."""
    pairs = end_value_pairs(end_values, x.ndim)
    for axis, before, after in _padded_axes(x, widths):
        n = x.shape[axis]
        pieces = []
        if before:
            pieces.append(_ramp(x, axis, before, pairs[axis][0],
                                lax.slice_in_dim(x, 0, 1, axis=axis)))
        pieces.append(x)
        if after:
            ramp = _ramp(x, axis, after, pairs[axis][1], lax.slice_in_dim(x, n - 1, n, axis=axis))
            pieces.append(lax.rev(ramp, (axis,)))
        x = lax.concatenate(pieces, axis)
    return x if widths.any() else lax.copy(x)
