"""Element strides of NumPy's views: the layout rules of the view primitives.

A primitive declared with ``view=rule`` (:func:`xnp.lax._kit.primitive`) has an eager
result that is a NumPy view of its first operand (slices, reshape, transpose, ...).
``rule(params, shape, strides, out_shape)`` gives the view's element strides from the
operand's ``shape`` and element ``strides`` (``None``: unknown), so that
``xnp.numpy_api._layout`` can model the memory an eager run would hold for a traced
value and decide NumPy's view-or-copy for ``reshape``. A rule returns the result's
strides or ``None`` (unknown).

The helpers are the arithmetic of NumPy's memory model: :func:`c_strides` (row-major),
:func:`reshape_strides` (NumPy's no-copy reshape) and :func:`unit_axes_strides`.
"""

from __future__ import annotations

import math

__all__ = ["c_strides", "reshape_strides", "unit_axes_strides", "same", "permuted",
           "squeezed", "reversed_", "sliced", "reshaped", "broadcast", "complex_part"]


def c_strides(shape) -> tuple:
    """Element strides of a C-contiguous array of ``shape``."""
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return tuple(reversed(out))


def unit_axes_strides(shape, strides, new):
    """Strides after inserting/removing size-1 axes only (the other axes keep theirs)."""
    kept = iter([s for d, s in zip(shape, strides) if d != 1])
    if math.prod(shape) <= 1 and [d for d in shape if d != 1] != [d for d in new if d != 1]:
        return c_strides(new)
    return tuple(0 if d == 1 else next(kept) for d in new)


def reshape_strides(shape, strides, new):
    """Strides of ``reshape(new)`` as a view of an array with ``shape``/``strides``
    (NumPy's ``_attempt_nocopy_reshape``); False: NumPy copies; None: unknown."""
    shape, new = tuple(shape), tuple(new)
    if math.prod(shape) <= 1 or [d for d in shape if d != 1] == [d for d in new if d != 1]:
        # NumPy flags arrays of at most one element contiguous; only size-1 axes change
        return unit_axes_strides(shape, strides, new) if strides is not None else c_strides(new)
    if strides is None:
        return None
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    out = [0] * len(new)
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < len(new) and oi < len(old):
        np_, op = new[ni], old[oi][0]
        while np_ != op:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= old[oj][0]
                oj += 1
        for ok in range(oi, oj - 1):
            if old[ok][1] != old[ok + 1][0] * old[ok + 1][1]:
                return False
        out[nj - 1] = old[oj - 1][1]
        for nk in range(nj - 1, ni, -1):
            out[nk - 1] = out[nk] * new[nk]
        ni, nj, oi, oj = nj, nj + 1, oj, oj + 1
    last = out[ni - 1] if ni >= 1 else 1
    for nk in range(ni, len(new)):
        out[nk] = last
    return tuple(out)


# --------------------------------------------------------------------------- view rules


def same(params, shape, st, out_shape):
    """The operand's strides (``stop_gradient``; ``dynamic_slice``: a block keeps them)."""
    return st


def permuted(params, shape, st, out_shape):
    """``transpose``: the strides permuted."""
    return None if st is None else tuple(st[p] for p in params["permutation"])


def squeezed(params, shape, st, out_shape):
    """``squeeze``: the removed axes' strides dropped."""
    return None if st is None else tuple(
        s for i, s in enumerate(st) if i not in params["dimensions"])


def reversed_(params, shape, st, out_shape):
    """``rev``: the reversed axes' strides negated."""
    return None if st is None else tuple(
        -s if i in params["dimensions"] else s for i, s in enumerate(st))


def sliced(params, shape, st, out_shape):
    """``slice``: each stride times the slice's step."""
    steps = params["strides"] or (1,) * len(shape)
    return None if st is None else tuple(s * k for s, k in zip(st, steps))


def reshaped(params, shape, st, out_shape):
    """``reshape``: NumPy's no-copy reshape, or a C-contiguous copy where it copies."""
    if params["dimensions"] is not None:
        return None
    new = reshape_strides(shape, st, out_shape)
    return c_strides(out_shape) if new is False else new


def broadcast(params, shape, st, out_shape):
    """``broadcast_in_dim``: size-1 axes added or removed keep the other strides (a view);
    a broadcast that grows an axis is materialised C-contiguous by the eager backend."""
    if [d for d in shape if d != 1] != [d for d in out_shape if d != 1]:
        return c_strides(out_shape)
    return None if st is None else unit_axes_strides(shape, st, out_shape)


def complex_part(params, shape, st, out_shape):
    """``real``/``imag`` of a complex array: NumPy's view of one part, whose element
    strides count the part's (half-size) elements, twice the operand's."""
    return None if st is None else tuple(2 * s for s in st)
