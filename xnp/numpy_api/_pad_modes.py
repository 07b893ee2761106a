"""The index-mapping modes of ``xnp.pad``: 'edge', 'reflect', 'symmetric', 'wrap'.

Each padded axis reads its new elements back from the source through a static index
map (NumPy's results, also for widths larger than the axis); the map is cut into runs
of consecutive, reversed or repeated indices, so the result is slices, ``rev`` and
``broadcast_in_dim`` joined by one ``concatenate`` per axis, which traces,
differentiates and batches like any other lax composition.
"""

from __future__ import annotations

import numpy as np

from xnp import lax

INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")


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
    for axis, (before, after) in enumerate(widths):
        n = x.shape[axis]
        if not (before or after):
            continue
        if n == 0:
            raise ValueError(f"xnp.pad: can't extend empty axis {axis} using modes other "
                             "than 'constant' or 'empty'")
        x = take_static(x, source_indices(mode, n, int(before), int(after)), axis)
    return x if widths.any() else lax.copy(x)
