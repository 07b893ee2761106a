"""The quantile functions with ``weights=`` (NumPy 2's weighted ``inverted_cdf``), and the
axis moves every order statistic of :mod:`xnp.numpy_api.statistics` shares
(:func:`to_last`, :func:`finish`).

NumPy's weighted quantile, per slice: sort the values (their weights alike), take the
running sum of the weights in float64 (the ``cdf``), divide it by the slice's total, cast
it to ``q``'s floating dtype, set its zeros to -1 (so ``q = 0`` skips leading zero
weights), and pick the element at ``searchsorted(cdf, q, side='left')`` (at most the last).
Here all slices at once: one stable sort of the values carrying their weights, the
running sum (eagerly NumPy's ``cumsum``; under ``jit`` and transformations a sequential
``lax.scan``, NumPy's summation order, where XLA's cumulative sum is a log-depth tree that
rounds otherwise), one batched ``lax.searchsorted`` and one gather. The result has ``a``'s
dtype. A slice holding NaN gives NaN (``quantile``/``percentile``); the NaN-ignoring forms
drop NaN elements with their weights (weight 0 at the end of the sorted slice) and give NaN
with "All-NaN slice encountered" for an all-NaN slice.

NumPy's checks: the weights' shape (``a``'s, or ``a``'s along ``axis``, in ``axis``'s
order), then "Weights must be non-negative." and, per slice, "Weights included NaN, inf or
were all zero.": both ``lax.runtime_error`` equations, so eager calls (and their replays)
raise; under ``jit`` nothing is checked (negative weights then pick by their running sum,
a zero or non-finite total gives the first element). NumPy's ``argsort`` is not stable, so
the weights of equal values may be summed in another order there: the results can differ
only where ``q`` equals a running sum to within its rounding. NumPy 2.4's NaN-ignoring forms
raise IndexError for weights given along ``axis`` of a multi-dimensional ``a`` (they index
the unbroadcast weights per slice); here those weights are broadcast, as the other forms do.

A 0-d result is a 0-d array, as NumPy's (it fills an array), except where it is NaN
(NumPy's scalar): :func:`zero_d_array`, read by ``xnp/numpy_api/_scalars.py``.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import nan_functions as _nf
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api import _slice_warnings as _sw
from xnp.numpy_api._util import (asarray_for, axis_tuple, normalize_axes, warn_complex_to_real,
                                 write_out)
from xnp.tracing import core, errors, recording

__all__ = ["to_last", "finish", "weighted_quantile", "zero_d_array"]

_F64 = np.dtype(np.float64)


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


def _full(shape, value, dtype):
    return lax.broadcast_in_dim(_const(value, dtype), tuple(shape), ())


def _is(x, value):
    """``x == value``, elementwise."""
    aval = core.aval_of(x)
    return lax.eq(x, _full(aval.shape, value, aval.dtype))


def to_last(fname, x, axis):
    """``x`` with the reduced axes moved last and merged: ``(rest..., n)``; the axes."""
    aval = core.aval_of(x)
    axes = normalize_axes(fname, axis, aval.ndim)  # AxisError for a 0-d input with an axis
    if aval.ndim == 0:
        return lax.reshape(x, (1,)), ()
    rest = [i for i in range(aval.ndim) if i not in axes]
    if axes != tuple(range(aval.ndim - len(axes), aval.ndim)):
        x = lax.transpose(x, tuple(rest) + axes)
    n = int(np.prod([aval.shape[i] for i in axes]))
    return lax.reshape(x, tuple(aval.shape[i] for i in rest) + (n,)), axes


def finish(res, qshape, axes, x, keepdims):
    """Move the ``q`` dimensions first and apply ``keepdims``."""
    nr = core.aval_of(res).ndim - len(qshape)
    if qshape and nr:
        res = lax.transpose(res, tuple(range(nr, nr + len(qshape))) + tuple(range(nr)))
    if keepdims:
        shape = list(core.aval_of(x).shape)
        for i in axes:
            shape[i] = 1
        res = lax.reshape(res, qshape + tuple(shape))
    return res


# --------------------------------------------------------------------------- weights


def _weights(fname, x, weights, order):
    """``weights`` checked as NumPy's ``_weights_are_valid`` and broadcast to ``x``'s
    shape (``order``: the axes as given, None for all); complex weights count by their
    real part, with NumPy's ComplexWarning."""
    w = asarray_for(fname, weights, "weights")
    xa, wa = core.aval_of(x), core.aval_of(w)
    if wa.shape != xa.shape:
        if order is None:
            raise TypeError(f"xnp.{fname}: Axis must be specified when shapes of a and "
                            f"weights differ.")
        if wa.shape != tuple(xa.shape[i] for i in order):
            raise ValueError(f"xnp.{fname}: Shape of weights must be consistent with shape "
                             f"of a along specified axis (a {xa.shape}, weights {wa.shape}, "
                             f"axis={order!r}).")
        perm = tuple(int(i) for i in np.argsort(order))
        if perm != tuple(range(len(perm))):
            w = lax.transpose(w, perm)
        w = lax.broadcast_in_dim(w, xa.shape, tuple(sorted(order)))
    if wa.dtype not in kit.BOOL and wa.dtype.kind != "u":
        lax.runtime_error(_lg.less(w, 0), f"xnp.{fname}: Weights must be non-negative.")
    if wa.dtype in kit.COMPLEX:  # NumPy's cumsum(dtype=float64) of complex weights
        warn_complex_to_real()
        w = lax.real(w)
    return lax.convert_element_type(w, _F64)


def _running_sum(w):
    """The running sum of ``w`` along its last axis in NumPy's (sequential) order."""
    last = core.aval_of(w).ndim - 1
    if core.is_eager(core.current_trace()):
        return lax.cumsum(w, axis=last)  # (the eager backend's: NumPy's cumsum)
    moved = lax.transpose(w, (last,) + tuple(range(last))) if last else w

    def step(total, wi):
        total = lax.add(total, wi)
        return total, total

    _, sums = lax.scan(step, _full(core.aval_of(moved).shape[1:], -0.0, _F64), moved)
    return lax.transpose(sums, tuple(range(1, last + 1)) + (0,)) if last else sums


def weighted_quantile(fname, x, qv, weights, axis, out, keepdims, scale, ignore_nan):
    """The quantile function ``fname`` of ``x`` at ``qv`` (an array, its range checked by
    the caller) with ``weights`` (``method='inverted_cdf'``), in NumPy's order of checks:
    the axes, the weights, then (the NaN-ignoring forms of an empty ``x``:
    :func:`xnp.nanmean`, as NumPy) ``q``'s rank and the reduced slices."""
    aval = core.aval_of(x)
    order = None if axis is None else axis_tuple(fname, axis, aval.ndim)
    w = _weights(fname, x, weights, order)
    if ignore_nan and aval.size == 0:
        return _nf.nanmean(x, axis=order, out=out, keepdims=keepdims)
    qshape = core.aval_of(qv).shape
    if len(qshape) > 2:
        raise ValueError(f"xnp.{fname}: q must be a scalar or 1d")
    axes = tuple(range(aval.ndim)) if order is None else tuple(sorted(order))
    if aval.ndim and not int(np.prod([aval.shape[i] for i in axes])):
        raise IndexError(f"xnp.{fname}: cannot take a quantile of an empty slice (axis "
                         f"{axis!r} of {errors.aval_str(aval)}), as NumPy raises "
                         f"IndexError. Fix: use xnp.nan{fname}, which gives NaN there.")
    res = _weighted_steps(fname, x, w, qv, axes, bool(keepdims), scale, ignore_nan)
    if core.aval_of(res).ndim == 0:  # NumPy's 0-d array (xnp/numpy_api/_scalars.py)
        recording.note_effect("returned a 0-d array that is not a NumPy scalar")
    return write_out(fname, out, res, casting="unsafe")  # (NumPy assigns into out)


def zero_d_array(kwargs, out) -> bool:
    """Whether NumPy's result of a quantile function called with ``kwargs`` is a 0-d array,
    not a NumPy scalar (``xnp/numpy_api/_scalars.py``): weighted quantiles fill one, except
    where the result is NaN (NumPy returns the slice's NaN element)."""
    if kwargs.get("weights") is None or type(out) is not core.Array:
        return False
    value = out._value
    return value.ndim == 0 and not (value.dtype.kind == "f" and np.isnan(value))


def _weighted_steps(fname, x, w, qv, axes, keepdims, scale, ignore_nan):
    """NumPy's weighted ``inverted_cdf`` of ``x`` (weights ``w``: float64, ``x``'s shape)
    at ``qv`` over ``axes`` (sorted, non-negative)."""
    xs, _ = to_last("quantile", x, axes)
    ws, _ = to_last("quantile", w, axes)
    xs, ws = lax.sort((xs, ws), dimension=-1, is_stable=True, num_keys=1)
    shape = core.aval_of(xs).shape
    rest, n, last = shape[:-1], shape[-1], len(shape) - 1
    nanable = core.aval_of(x).dtype in kit.INEXACT
    count = None
    if ignore_nan and nanable:  # NaN sorts last: its weight becomes 0
        valid = _lg.logical_not(_lg.isnan(xs))
        ws = lax.select_n(valid, _full(shape, 0.0, _F64), ws)
        count = _rd.sum(valid, axis=-1, dtype=np.dtype(np.int64), keepdims=True)
        _sw.warn_empty_slices(count)  # NumPy warns once per all-NaN slice
    cdf = _running_sum(ws)
    total = lax.slice_in_dim(cdf, n - 1, n, axis=last)
    if count is not None:  # an all-NaN slice divides nothing (NumPy skips it)
        total = lax.select_n(_is(count, 0), total, _full(rest + (1,), 1.0, _F64))
    cdf = lax.div(cdf, lax.broadcast_in_dim(total, shape, tuple(range(len(shape)))))
    bad = _lg.isnan(lax.slice_in_dim(cdf, n - 1, n, axis=last))
    lax.runtime_error(bad, f"xnp.{fname}: Weights included NaN, inf or were all zero.")
    # q as NumPy compares it: percentiles divided by 100 (integers in float64), the cdf cast
    # to q's floating dtype (an integer or boolean q compares with the float64 cdf)
    qdt = core.aval_of(qv).dtype
    cmp = qdt if qdt.kind == "f" else _F64
    qc = lax.convert_element_type(qv, cmp) if qdt != cmp else qv
    if scale != 1:
        qc = lax.div(qc, _const(scale, cmp))
    cdf = lax.convert_element_type(cdf, cmp) if cmp != _F64 else cdf
    cdf = lax.select_n(_is(cdf, 0), cdf, _full(shape, -1, cmp))
    qshape = core.aval_of(qc).shape
    if not core.aval_of(xs).size:  # no slice: an empty result
        return finish(_full(rest + qshape, 0, core.aval_of(xs).dtype), qshape, axes, x,
                      keepdims)
    m = int(np.prod(qshape))
    qb = lax.broadcast_in_dim(lax.reshape(qc, (m,)), rest + (m,), (last,))
    idx = lax.searchsorted(cdf, qb, side="left")
    idt = core.aval_of(idx).dtype
    top = _full(rest + (1,), n - 1, idt) if count is None else lax.sub(
        count, _full(rest + (1,), 1, idt))
    top = lax.broadcast_in_dim(top, rest + (m,), tuple(range(last + 1)))
    idx = lax.max(lax.min(idx, top), _full(rest + (m,), 0, idt))
    res = lax.reshape(M.take_along(xs, idx, last), rest + qshape)
    if nanable:
        dims = tuple(range(last))
        if count is None:  # a slice holding NaN: its last element (NumPy's arr[-1])
            top_x = lax.reshape(lax.slice_in_dim(xs, n - 1, n, axis=last), rest)
            bad = lax.broadcast_in_dim(_lg.isnan(top_x), rest + qshape, dims)
            res = lax.select_n(bad, res, lax.broadcast_in_dim(top_x, rest + qshape, dims))
        else:  # an all-NaN slice: NaN
            bad = lax.broadcast_in_dim(lax.reshape(_is(count, 0), rest), rest + qshape, dims)
            res = lax.select_n(bad, res, _full(rest + qshape, np.nan, core.aval_of(res).dtype))
    return finish(res, qshape, axes, x, keepdims)
