"""NaN-ignoring reductions and NaN/inf helpers: ``nansum``, ``nanprod``, ``nanmean``,
``nanvar``, ``nanstd``, ``nanmax``, ``nanmin``, ``nanargmax``, ``nanargmin``,
``nan_to_num``, ``isposinf``, ``isneginf`` (``nancumsum``/``nancumprod`` live in
:mod:`xnp.numpy_api.cumulative`).

Each NaN-ignoring reduction replaces NaN by a neutral value with ``lax.select_n``
(so gradients at NaN positions are zero, not NaN) and calls the plain reduction
of :mod:`xnp.numpy_api.reductions` with NumPy's dtype rules; integer and bool
inputs go straight to the plain reduction, as in NumPy. ``nanmax``/``nanmin`` and
``nanargmax``/``nanargmin`` of real floating input are one composite each, whose eager
kernel is NumPy's own loop or function (``xnp/backends/xp_impls/composite.py``). Eagerly
they warn as NumPy's do ("All-NaN slice encountered", "Mean of empty slice", "Degrees of freedom <= 0 for
slice.", with the divisions' floating-point errors silenced: ``_slice_warnings``);
under ``jit`` nothing warns and the values are the same.
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api import _reduce_common as _rc
from xnp.numpy_api import _slice_warnings as _sw
from xnp.numpy_api._fp_out import writes_out
from xnp.numpy_api._util import (asarray_for, check_reduction_axis, is_xnp, normalize_axes,
                                 normalize_axis, write_out)
from xnp.tracing import core, recording
from xnp.tracing.avals import ShapedArray
from xnp.tracing.custom_derivatives import custom_jvp

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nan_to_num", "isposinf", "isneginf"]


def _operand(fname, a, axis=None):
    """``a`` as a reduction operand; ``axis`` as NumPy's reductions take it (not a list)."""
    check_reduction_axis(fname, axis)
    return _rd._asarray(fname, a)


def _inexact(x) -> bool:
    return core.aval_of(x).dtype in kit.INEXACT


def _fill(x, value):
    """``x`` with NaN (in either part, for complex) replaced by ``value``; the NaN mask."""
    nan = _lg.isnan(x)
    dt = core.aval_of(x).dtype
    fill = core.lift(np.asarray(value, dt))
    return lax.select_n(nan, x, lax.broadcast_in_dim(fill, core.aval_of(x).shape, ())), nan


def _and_where(fname, valid, where):
    if where is None or where is True:
        return valid
    w = asarray_for(fname, where, "where")
    return _lg.logical_and(valid, w)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum treating NaN as zero (``numpy.nansum``).

    Parameters, dtype rules and errors as :func:`xnp.sum`. The sum of an all-NaN
    slice (or an empty one) is 0. inf and -inf still add up to NaN.
    """
    x = _operand("nansum", a, axis)
    if _inexact(x):
        x, _ = _fill(x, 0)
    return _rd.sum(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                   where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product treating NaN as one (``numpy.nanprod``); otherwise as :func:`xnp.prod`."""
    x = _operand("nanprod", a, axis)
    if _inexact(x):
        x, _ = _fill(x, 1)
    return _rd.prod(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                    where=where)


def _nanmean_sum(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """The first step of NumPy's ``nanmean`` with ``out``: the sum of the non-NaN elements
    written into ``out`` (:func:`xnp.mean`'s for integers and bool)."""
    if not _inexact(_operand("nanmean", a, axis)):
        return _rd._mean_sum(a, axis, dtype, out, keepdims, where=where)
    return nansum(a, axis, dtype, out, keepdims, where=where)


@writes_out(first=_nanmean_sum)
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """Mean of the non-NaN elements (``numpy.nanmean``).

    Dtypes, shapes and errors as :func:`xnp.mean`; an all-NaN slice gives NaN and, eagerly,
    NumPy's warning "Mean of empty slice" (no floating-point error). Gradients flow to
    the non-NaN elements only.
    """
    x = _operand("nanmean", a, axis)
    if not _inexact(x):
        return _rd.mean(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    _inexact_out("nanmean", out)
    x0, nan = _fill(x, 0)
    valid = _and_where("nanmean", _lg.logical_not(nan), where)
    return _rd._mean_call("nanmean", x0, _scalar_axis(x, axis), dtype, out, keepdims, valid,
                          quiet=True)


def _scalar_axis(x, axis):
    """``axis`` of a reduction built on sums: NumPy's sums take the int axis 0 or -1 of a
    0-d array as no axis (``numpy.nanmean(x0d, axis=0)``), where ``mean`` raises."""
    if core.aval_of(x).ndim == 0 and type(axis) is int and axis in (0, -1):
        return None
    return axis


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    """Variance of the non-NaN elements (``numpy.nanvar``).

    Parameters, dtypes and errors as :func:`xnp.var`; ``N`` counts the non-NaN
    elements of each slice. A slice with ``N <= ddof`` (all-NaN ones included) gives NaN
    and, eagerly, NumPy's warning "Degrees of freedom <= 0 for slice." (no floating-point
    error).
    """
    return _nanvar("nanvar", a, axis, dtype, out, ddof, keepdims, where, mean, correction,
                   False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    """Standard deviation of the non-NaN elements (``numpy.nanstd``): the square root of
    :func:`nanvar`."""
    return _nanvar("nanstd", a, axis, dtype, out, ddof, keepdims, where, mean, correction,
                   True)


def _inexact_out(fname, out) -> None:
    """NumPy's nan-means and -variances of an inexact input write only inexact ``out``s."""
    odt = _rc.out_dtype(out)
    if odt is not None and odt.kind not in "fc":
        raise TypeError(f"xnp.{fname}: If a is inexact, then out must be inexact (got an out "
                        f"of dtype {odt.name})")


def _nanvar(fname, a, axis, dtype, out, ddof, keepdims, where, mean, correction, root):
    x = _operand(fname, a, axis)
    args = (axis, dtype, out, ddof, keepdims)
    if not _inexact(x):  # NumPy's nanvar of integers is its var, warnings included
        return _rd._var(fname, x, *args, where, mean, correction, root)
    _inexact_out(fname, out)
    x0, nan = _fill(x, 0)
    valid = _and_where(fname, _lg.logical_not(nan), where)
    args = (_scalar_axis(x, axis),) + args[1:]
    return _rd._var(fname, x0, *args, valid, mean, correction, root, nan_policy=True)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum ignoring NaN (``numpy.nanmax``).

    Parameters and errors as :func:`xnp.max`. A slice whose elements are all NaN gives
    NaN, unless ``initial`` is given, which then is the result; a NaN result warns "All-NaN
    slice encountered" eagerly, as NumPy.
    Eagerly, for real floating input without ``initial`` or ``where``, it is one call of
    NumPy's ``fmax`` reduction (a composite, ``xnp.lax.composite_general``), so every
    value is NumPy's, also which of ``-0.0`` and ``0.0`` a slice holding both gives. Under
    ``jit`` (and otherwise) the first one is the result over a short innermost slice (up
    to 8 elements; no ``initial`` or ``where``), as NumPy's scalar ``fmax`` loop gives it:
    ``nanmax([-0.0, 0.0])`` is ``-0.0``; over longer slices and outer axes NumPy's
    vectorised loops return either zero, as the hardware does, and so does xnp (not
    always the same one). The derivative is :func:`xnp.max`'s over the non-NaN elements:
    ``k`` tied maxima get ``1/k`` each (whichever of them is the value), NaN elements 0.
    """
    return _nanextremum("nanmax", "max", -np.inf, a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum ignoring NaN (``numpy.nanmin``); see :func:`nanmax` (derivatives too: tied
    minima share the gradient equally, as :func:`xnp.min`'s)."""
    return _nanextremum("nanmin", "min", np.inf, a, axis, out, keepdims, initial, where)


def _nanextremum(fname, kind, fill, a, axis, out, keepdims, initial, where):
    x = _operand(fname, a, axis)
    if not _inexact(x):
        return _rd._extremum(fname, kind, x, axis, out, keepdims, initial, where)
    aval = core.aval_of(x)
    axis = _scalar_axis(x, axis)
    if aval.dtype in kit.COMPLEX:
        # NumPy's fmax/fmin of complex numbers: the extreme non-NaN element in lexicographic
        # order; of a slice of NaNs only, its first element (the extremum of x itself)
        x0, nan = _fill(x, complex(fill, fill))
        res = lax.select_n(_rd.all(nan, axis=axis, keepdims=keepdims),
                           _rd._extremum(fname, kind, x0, axis, None, keepdims, initial, where),
                           _rd._extremum(fname, kind, x, axis, None, keepdims, initial, where))
        _sw.warn_all_nan(res)
        return write_out(fname, out, res)
    if initial is None and (where is None or where is True) and aval.size:
        # one composite: eagerly NumPy's loop (xnp/backends/xp_impls/composite.py)
        axes = normalize_axes(fname, axis, aval.ndim)
        keep = bool(keepdims)
        shape = tuple(1 if i in axes else n for i, n in enumerate(aval.shape)
                      if keep or i not in axes)
        res = lax.composite_general(fname, _NAN_EXTREMA[fname], x,
                                    out_avals=(ShapedArray(shape, aval.dtype),),
                                    params={"axis": axes, "keepdims": keep})[0]
        return write_out(fname, out, res)
    res = _nan_extremum_steps(fname, kind, fill, x, axis, keepdims, initial, where)
    return write_out(fname, out, res)


def _nan_extremum_steps(fname, kind, fill, x, axis, keepdims, initial, where):
    """``nanmax``/``nanmin`` of a real floating ``x``: NaN filled with ``fill`` (-inf or
    inf), the plain extremum, NaN for an all-NaN slice without ``initial``, and "All-NaN
    slice encountered" where the result is NaN."""
    x0, nan = _fill(x, fill)
    if initial is None and (where is None or where is True) and isinstance(x, core.Tracer):
        # (the derivative rule is attached only where a transformation can see it)
        res = _first_extremum(fname, kind, fill, axis, bool(keepdims), x)
    else:
        res = _rd._extremum(fname, kind, x0, axis, None, keepdims, initial, where, first=True)
    if initial is None:
        all_nan = _rd.all(nan, axis=axis, keepdims=keepdims)
        res = lax.select_n(all_nan, res, lax.add(res, core.lift(
            np.asarray(np.nan, core.aval_of(res).dtype))))
    _sw.warn_all_nan(res)
    return res


@functools.partial(custom_jvp, nondiff_argnums=(0, 1, 2, 3, 4))
def _first_extremum(fname, kind, fill, axis, keepdims, x):
    """The extremum of ``x`` with NaN filled with ``fill``, the first of equal ones (the
    value NumPy's fmax/fmin loop gives), differentiated as ``max``/``min`` (JAX's rule):
    the tangent averaged over the tied elements that are not NaN (see
    :func:`_first_extremum_jvp`), not given to the first one."""
    x0, _ = _fill(x, fill)
    return _rd._extremum(fname, kind, x0, axis, None, keepdims, None, None, first=True)


@_first_extremum.defjvp
def _first_extremum_jvp(fname, kind, fill, axis, keepdims, primals, tangents):
    """``max``/``min``'s derivative over the non-NaN elements: on ``k`` tied extrema each
    gets weight ``1/k``; NaN elements get 0; an all-NaN slice has tangent 0 (its value is
    NaN, a constant)."""
    (x,), (t,) = primals, tangents
    res = _first_extremum(fname, kind, fill, axis, keepdims, x)
    x0, nan = _fill(x, fill)
    aval = core.aval_of(x)
    axes = _rd._axes(fname, axis, aval.ndim)
    kept = tuple(i for i in range(aval.ndim) if i not in axes)
    flat = lax.reshape(res, tuple(aval.shape[i] for i in kept)) if keepdims and axes else res
    at = _lg.logical_and(lax.eq(x0, lax.broadcast_in_dim(flat, aval.shape, kept)),
                         _lg.logical_not(nan))
    zero, one = (core.lift(np.asarray(v, aval.dtype)) for v in (0, 1))
    count = lax.reduce_sum(lax.convert_element_type(at, aval.dtype), axes)
    total = lax.reduce_sum(lax.select_n(at, lax.broadcast_in_dim(zero, aval.shape, ()), t),
                           axes)
    tan = lax.div(total, lax.max(count, one))
    if keepdims and axes:
        tan = lax.reshape(tan, core.aval_of(res).shape)
    return res, tan


def _nanmax_steps(x, *, axis, keepdims):
    return [_nan_extremum_steps("nanmax", "max", -np.inf, x, axis, keepdims, None, None)]


def _nanmin_steps(x, *, axis, keepdims):
    return [_nan_extremum_steps("nanmin", "min", np.inf, x, axis, keepdims, None, None)]


#: the composites' decompositions (their kernels: NumPy's ``fmax``/``fmin`` reductions)
_NAN_EXTREMA = {"nanmax": _nanmax_steps, "nanmin": _nanmin_steps}


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum ignoring NaN (``numpy.nanargmax``).

    Returns
    -------
    Array
        Default-integer indices, shape as :func:`xnp.argmax`.

    Raises
    ------
    ValueError
        Eagerly: a slice is all NaN ("All-NaN slice encountered", as NumPy) or empty.
        Under ``jit`` (or another transformation whose values are not concrete) the
        check cannot run and an all-NaN slice gives -1 instead, as JAX does.

    Eagerly, for real floating input, one call of NumPy's ``nanargmax`` (a composite).
    """
    return _nanarg("nanargmax", _rd.argmax, -np.inf, a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum ignoring NaN (``numpy.nanargmin``); see :func:`nanargmax`."""
    return _nanarg("nanargmin", _rd.argmin, np.inf, a, axis, out, keepdims)


def _nanarg(fname, fn, fill, a, axis, out, keepdims):
    x = _operand(fname, a)
    if not _inexact(x):
        return fn(x, axis=axis, out=out, keepdims=keepdims)
    aval = core.aval_of(x)
    axis = _scalar_axis(x, axis)
    if aval.size and aval.dtype in kit.FLOATING and (axis is None or type(axis) is int):
        # one composite: eagerly NumPy's own function (xnp/backends/xp_impls/composite.py)
        ax = None if axis is None else normalize_axis(fname, axis, aval.ndim)
        keep = bool(keepdims)
        shape = ((1,) * aval.ndim if keep else ()) if ax is None else tuple(
            1 if i == ax else n for i, n in enumerate(aval.shape) if keep or i != ax)
        res = lax.composite_general(fname, _NAN_ARGS[fname], x,
                                    out_avals=(ShapedArray(shape, np.dtype(np.int64)),),
                                    params={"axis": ax, "keepdims": keep})[0]
        return write_out(fname, out, res)
    return write_out(fname, out, _nanarg_steps(fn, fill, x, axis, keepdims))


def _nanarg_steps(fn, fill, x, axis, keepdims):
    """``nanargmax``/``nanargmin`` of a floating ``x``: the plain one of ``x`` with NaN
    filled with ``fill``; NumPy's ``ValueError`` for an all-NaN slice (an equation: a
    replayed call checks again), -1 there under ``jit``."""
    # (complex: NaNs filled with the lexicographic extreme, both parts infinite)
    x0, nan = _fill(x, complex(fill, fill) if core.aval_of(x).dtype in kit.COMPLEX else fill)
    res = fn(x0, axis=axis, keepdims=keepdims)
    all_nan = _rd.all(nan, axis=axis, keepdims=keepdims)
    lax.runtime_error(all_nan, "All-NaN slice encountered")
    minus1 = core.lift(np.asarray(-1, core.aval_of(res).dtype))
    return lax.select_n(all_nan, res, lax.broadcast_in_dim(minus1, core.aval_of(res).shape, ()))


def _nanargmax_steps(x, *, axis, keepdims):
    return [_nanarg_steps(_rd.argmax, -np.inf, x, axis, keepdims)]


def _nanargmin_steps(x, *, axis, keepdims):
    return [_nanarg_steps(_rd.argmin, np.inf, x, axis, keepdims)]


#: the composites' decompositions (their kernels: NumPy's ``nanargmax``/``nanargmin``)
_NAN_ARGS = {"nanargmax": _nanargmax_steps, "nanargmin": _nanargmin_steps}


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN, +inf and -inf by finite numbers (``numpy.nan_to_num``).

    Parameters
    ----------
    x : array_like
        Any dtype; bool and integers are returned unchanged (a copy; the replacements are
        not looked at, as NumPy). bfloat16 (and ml_dtypes' other floats) count as floating,
        which NumPy with ml_dtypes does not (it returns them unchanged).
    copy : bool
        True: a new array, laid out as NumPy's copy of ``x`` (order 'K'). False: an xnp
        or NumPy array ``x`` is written in place and returned, as NumPy does (under
        ``jit`` a traced ``x`` is rebound to the result); for other inputs (lists,
        scalars) it raises NumPy's ``ValueError``.
    nan, posinf, neginf : scalar or array_like
        Replacements, written as NumPy's ``copyto(x, value, where=mask)``: an array is
        broadcast to ``x``'s shape (``ValueError`` otherwise) and may be traced; each is
        cast 'same_kind' to ``x``'s (real) dtype, a complex one raising ``TypeError`` for
        a float or complex ``x`` (``nan=None`` too), even with nothing to replace; a
        0-d value is cast whole (NumPy's overflow ``RuntimeWarning`` even where nothing is
        replaced), an array only where it is used. ``posinf``/``neginf`` default to the
        largest/smallest finite value of the dtype. Complex inputs are handled per part.

    Returns
    -------
    Array
        Same shape and dtype as ``x``.
    """
    if not copy and not (is_xnp(x) or isinstance(x, np.ndarray)):
        raise ValueError("xnp.nan_to_num: Unable to avoid copy while creating an array as "
                         f"requested: copy=False needs an array, got {type(x).__name__}")
    v = asarray_for("nan_to_num", x, "x")
    aval = core.aval_of(v)
    if not copy:
        if aval.dtype not in kit.INEXACT:
            return x
        return write_out("nan_to_num", x, nan_to_num(v, True, nan, posinf, neginf))
    if aval.dtype not in kit.INEXACT:
        return lax.convert_element_type(v, aval.dtype, weak_type=aval.weak_type)
    if aval.dtype in kit.COMPLEX:
        parts = (lax.real(v), lax.imag(v))
    else:
        parts = (v,)
    done = []
    for d in parts:
        dt = core.aval_of(d).dtype
        info = ml_dtypes.finfo(dt)  # (NumPy's finfo has no bfloat16)
        inf = core.lift(np.asarray(np.inf, dt))
        masks = (_lg.isnan(d), lax.eq(d, inf), lax.eq(d, lax.neg(inf)))
        values = (nan, info.max if posinf is None else posinf,
                  info.min if neginf is None else neginf)
        for name, mask, value in zip(("nan", "posinf", "neginf"), masks, values):
            d = lax.select_n(mask, d, _replacement(name, value, mask, dt))
        done.append(d)
    out = lax.complex(*done) if len(done) == 2 else done[0]
    return _copy_layout(out, v)


def _replacement(name, value, mask, dt):
    """``value`` as ``numpy.copyto(d, value, where=mask)`` writes it into ``d`` of ``dt``:
    cast 'same_kind' (``TypeError`` otherwise); a Python scalar converted by NumPy, any
    other 0-d value cast whole, an array broadcast to ``d``'s shape (``ValueError``
    otherwise) and cast only where ``mask`` holds (NumPy's cast warnings come from
    those elements alone)."""
    scalar = type(value) in (bool, int, float, complex)
    v = value if scalar or value is None else asarray_for("nan_to_num", value, name)
    src = np.dtype(object) if value is None else (
        np.dtype(type(value)) if scalar else core.aval_of(v).dtype)
    proxy = np.dtype(np.float16) if dt.kind == "V" else dt  # ml_dtypes' floats
    if not np.can_cast(np.dtype(np.float16) if src.kind == "V" else src, proxy, "same_kind"):
        shown = f"={value!r}" if scalar or isinstance(value, np.generic) else ""
        raise TypeError(f"xnp.nan_to_num: cannot cast `{name}`{shown} from {src.name} to "
                        f"{dt.name}, the dtype of the values it replaces, with casting rule "
                        "'same_kind'")
    if scalar:  # NumPy's own conversion and warning (ml_dtypes' floats take no big ints)
        big = dt.kind == "V" and type(value) is int and not -2 ** 63 <= value < 2 ** 63
        return core.lift(np.asarray(float(value) if big else value, dtype=dt))
    shape, vshape = mask.shape, core.aval_of(v).shape
    k = len(vshape) - len(shape)
    if k > 0 and all(n == 1 for n in vshape[:k]):  # (copyto drops leading 1s)
        v = lax.reshape(v, vshape[k:])
    cur = core.aval_of(v).shape
    if len(cur) > len(shape) or any(n not in (1, m) for n, m in zip(cur[::-1], shape[::-1])):
        raise ValueError(f"xnp.nan_to_num: could not broadcast `{name}` from shape "
                         f"{vshape} into shape {shape}, the shape of x")
    if not cur:
        return v if src == dt else lax.convert_element_type(v, dt)
    if cur != shape:
        v = lax.broadcast_in_dim(v, shape, tuple(range(len(shape) - len(cur), len(shape))))
    if src == dt:
        return v
    return lax.convert_element_type(lax.select_n(mask, core.lift(np.zeros((), src)), v), dt)


def _copy_layout(out, v):
    """``out`` in the memory order of NumPy's copy of ``v`` (``numpy.array(x, copy=True)``,
    order 'K', which NumPy's ``nan_to_num`` edits): a replacement array broadcast along
    ``v`` may have led the selects elsewhere. Eager arrays only (their strides are part of
    the dispatch cache's signature, so a replay repeats this)."""
    if type(out) is not core.Array or type(v) is not core.Array:
        return out
    have, src = out._v, v._v  # unwatched, as _layout.layout reads strides
    if have is None or src is None or have.strides == np.empty_like(src).strides:
        return out
    return recording.native_call(_in_order_of, out, v, view=False)


def _in_order_of(o: np.ndarray, like: np.ndarray) -> np.ndarray:
    r = np.empty_like(like, dtype=o.dtype)
    r[...] = o
    return r


def isposinf(x, out=None):
    """Elementwise ``x == +inf`` as bool (``numpy.isposinf``).

    Raises
    ------
    TypeError
        ``x`` is complex (ambiguous, as in NumPy).
    """
    return _signed_inf("isposinf", x, out, positive=True)


def isneginf(x, out=None):
    """Elementwise ``x == -inf`` as bool (``numpy.isneginf``); see :func:`isposinf`."""
    return _signed_inf("isneginf", x, out, positive=False)


def _signed_inf(fname, x, out, positive):
    v = asarray_for(fname, x, "x")
    dt = core.aval_of(v).dtype
    if dt in kit.COMPLEX:
        raise TypeError(f"xnp.{fname}: This operation is not supported for complex values "
                        "because it would be ambiguous.")
    if dt not in kit.INEXACT:
        res = lax.ne(v, v)  # never infinite
    else:
        inf = core.lift(np.asarray(np.inf if positive else -np.inf, dt))
        res = lax.eq(v, inf)
    return write_out(fname, out, res)
