"""Reductions (NumPy's "sums, products", "order statistics", "averages and variances",
"logic functions: truth value testing"): ``sum``, ``prod``, ``mean``, ``max``/``amax``,
``min``/``amin``, ``argmax``, ``argmin``, ``all``, ``any``, ``var``, ``std``,
``count_nonzero``, ``ptp``.

Everything here validates, normalises and picks dtypes with NumPy's rules, then
calls ``xnp.lax``. Accumulation dtypes follow NumPy: bool and narrow integers
sum/multiply in the default integer of their signedness; ``mean``/``var``/``std``
of integers are float64. ``sum``/``prod`` of float16 accumulate as NumPy's float16 loops
do (float32 along the innermost reduced axes, rounded to float16 between the steps of
the others: ``lax.reduce_sum``), eagerly bit for bit and under ``jit`` in the same order;
so do ``var``/``std``'s sums (NumPy's ``_var`` steps, each in its dtype); bfloat16 and
``mean`` of float16 accumulate in float32 and are cast back.
Axes must be static.
"""

from __future__ import annotations

import builtins
import functools
import math

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax.slicing import GatherDimensionNumbers
from xnp.numpy_api._util import (asarray_for, broadcast_shapes, broadcast_to_rank,
                                 check_reduction_axis, default_float, default_int,
                                 normalize_axes, normalize_axis, write_out)
from xnp.tracing import core, errors
from xnp.numpy_api import _complex_order
from xnp.numpy_api import _util
from xnp.numpy_api._fp_out import writes_out
from xnp.numpy_api import _slice_warnings as _sw
from xnp.numpy_api._reduce_common import (_accumulator, _asarray, _axes, _cast, _const,
                                          _count, _full_mask, _inexact_dtype,
                                          _initial_value, _keep, _mask, _reduce,
                                          _sum_dtype, _warn_if_imaginary_dropped,
                                          divide_loop_dtype, out_dtype, out_loop_dtype)
from xnp.tracing.avals import SUPPORTED_DTYPES, canonical_dtype

__all__ = ["sum", "prod", "mean", "max", "amax", "min", "amin", "argmax", "argmin", "all",
           "any", "var", "std", "count_nonzero", "ptp"]

# the ufunc whose reduction NumPy names in its errors: by kind, or by function for the
# NaN-ignoring ones (NumPy's nanmax/nanmin reduce with fmax/fmin)
_NUMPY_OP_NAMES = {"max": "maximum", "min": "minimum", "nanmax": "fmax", "nanmin": "fmin"}


# --------------------------------------------------------------------------- sum / prod


@writes_out(where="reduce")
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """Sum of array elements over the given axes.

    Follows ``numpy.sum`` (NumPy 2.x semantics); differences are under Notes.

    Parameters
    ----------
    a : array_like
        Any numeric or bool dtype; lists and scalars convert as in ``xnp.asarray``.
    axis : None, int or tuple of int
        Axes to reduce; negative values count from the end; None means all.
        Must be a Python value, also under ``jit`` (it decides the output shape).
    dtype : dtype, optional
        Accumulator and result dtype. Default ``a.dtype``, but bool and narrow
        integers widen to the default integer (keeping signedness), as in NumPy.
        ``dtype=bool`` sums with logical OR, as NumPy does.
    out : Array, optional
        Written in place, as in NumPy (under jit the traced `out` is rebound); its
        shape must match.
    keepdims : bool
        Keep reduced axes as length-1 dimensions.
    initial : scalar, optional
        Added once to every output element (cast to the result dtype). As in NumPy,
        a sum of nothing but -0.0 (or of nothing) is ``initial`` itself, in each part
        of a complex number; a complex Python ``initial`` for a real sum is a TypeError.
    where : array_like of bool, optional
        Broadcast against ``a``; masked-out elements contribute 0.

    Returns
    -------
    Array
        Shape ``a.shape`` without the reduced axes (or with length 1 when
        ``keepdims``); dtype as described under ``dtype``.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis is out of range.
    ValueError
        An axis is repeated, ``where`` does not broadcast to ``a``, or ``out`` has
        the wrong shape.
    xnp.errors.ConcretizationTypeError
        ``axis`` is a traced value.

    Notes
    -----
    Unlike NumPy, reducing over all axes returns a 0-d ``Array``, not a scalar.
    float16 accumulates in NumPy's order (see the module docstring), bfloat16 in
    float32.

    Examples
    --------
    >>> xnp.sum(xnp.arange(6).reshape(2, 3), axis=1)
    Array([ 3, 12], dtype=int64)
    """
    return _sum_or_prod("sum", a, axis, dtype, out, keepdims, initial, where)


@writes_out(where="reduce")
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product of array elements over the given axes.

    Follows ``numpy.prod``; parameters, dtype rules and errors as :func:`sum`
    (``dtype=bool`` multiplies with logical AND). The empty product is 1;
    masked-out elements contribute 1; ``initial`` multiplies every output once.
    Integer products wrap around on overflow, as in NumPy.

    Returns
    -------
    Array
        Shape ``a.shape`` without the reduced axes (length 1 when ``keepdims``).
    """
    return _sum_or_prod("prod", a, axis, dtype, out, keepdims, initial, where)


_SUM_PROD = {
    # fname: (numeric reducer, numeric combine, bool reducer, bool combine, identity kind)
    "sum": (lax.reduce_sum, lax.add, lax.reduce_or, lax.or_, "sum", "or"),
    "prod": (lax.reduce_prod, lax.mul, lax.reduce_and, lax.and_, "prod", "and"),
}


def _sum_or_prod(fname, a, axis, dtype, out, keepdims, initial, where):
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    axes = _axes(fname, axis, aval.ndim)
    if dtype is None:  # NumPy's loop for ``out`` (a float32 sum into float64 adds in float64)
        dtype = out_loop_dtype(np.add if fname == "sum" else np.multiply, out, aval.dtype)
    acc, result = _sum_dtype(fname, aval.dtype, dtype)
    reducer, combine, bool_reducer, bool_combine, kind, bool_kind = _SUM_PROD[fname]
    if acc in kit.BOOL:  # NumPy: add/multiply on bool are logical or/and
        reducer, combine, kind = bool_reducer, bool_combine, bool_kind
    mask = _mask(fname, where, aval.shape)
    res = _reduce(fname, _cast(x, acc), axes, reducer, kind, keepdims=keepdims,
                  initial=initial, mask=mask, combine=combine)
    return write_out(fname, out, _cast(res, result), casting="unsafe")


# --------------------------------------------------------------------------- max / min


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """Maximum of array elements over the given axes (``numpy.max``).

    NaN propagates: the maximum of a set holding NaN is NaN.

    Parameters
    ----------
    a : array_like
        bool, integer, floating or complex (NumPy's lexicographic order: real parts
        first, then imaginary parts).
    axis : None, int or tuple of int
        Axes to reduce (static); None means all.
    out : Array, optional
        Written in place, as in NumPy.
    keepdims : bool
        Keep reduced axes as length-1 dimensions.
    initial : scalar, optional
        Included once in every maximum; required with ``where`` or for an empty
        reduction.
    where : array_like of bool, optional
        Broadcast against ``a``; only these elements take part (needs ``initial``).

    Returns
    -------
    Array
        Dtype of ``a``; shape ``a.shape`` without the reduced axes.

    Raises
    ------
    ValueError
        A reduced axis is empty and there is no ``initial`` (NumPy's "zero-size array
        to reduction operation maximum which has no identity"), ``where`` without
        ``initial``, or a repeated axis.
    numpy.exceptions.AxisError
        An axis is out of range.

    Notes
    -----
    Complex numbers are ordered as NumPy orders them: lexicographically (real parts, then
    imaginary parts), a NaN in either part propagating (the first such element).
    """
    return _extremum("max", "max", a, axis, out, keepdims, initial, where)


def amax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Alias of :func:`max` (``numpy.amax``)."""
    return _extremum("amax", "max", a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """Minimum of array elements over the given axes (``numpy.min``).

    NaN propagates. Parameters, errors and notes as :func:`max`.
    """
    return _extremum("min", "min", a, axis, out, keepdims, initial, where)


def amin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Alias of :func:`min` (``numpy.amin``)."""
    return _extremum("amin", "min", a, axis, out, keepdims, initial, where)


def _extremum(fname, kind, a, axis, out, keepdims, initial, where, *, first=False):
    """``max``/``min`` (``kind``) of ``a``. ``first``: as NumPy's fmax/fmin reductions
    (``nanmax``/``nanmin``), of equal extrema the first one over a short innermost slice
    (see :func:`_first_extremum`), without ``initial`` or ``where``."""
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    axes = _axes(fname, axis, aval.ndim)
    op = _NUMPY_OP_NAMES.get(fname, _NUMPY_OP_NAMES[kind])
    if initial is None:
        if where is not None and where is not True:
            raise ValueError(f"xnp.{fname}: reduction operation '{op}' does not have an "
                             "identity, so to use a where mask one has to specify 'initial'")
        if builtins.any(aval.shape[i] == 0 for i in axes):
            raise ValueError(f"xnp.{fname}: zero-size array to reduction operation {op} which "
                             f"has no identity (input shape {aval.shape}, axis={axis!r})")
    reducer, combine = (lax.reduce_max, lax.max) if kind == "max" else (lax.reduce_min, lax.min)
    mask = _mask(fname, where, aval.shape)
    if aval.dtype in kit.COMPLEX and (initial is not None or mask is not None):
        res = _keep(_complex_extremum_from(fname, x, axes, kind, initial, mask), axes, keepdims)
    elif aval.dtype in kit.COMPLEX and not axes:  # (no axis reduced, a 0-d input: a copy)
        res = lax.copy(x)
    elif aval.dtype in kit.COMPLEX:  # NumPy's lexicographic order
        rest = tuple(d for d in range(aval.ndim) if d not in axes)
        moved = x if rest + axes == tuple(range(aval.ndim)) else lax.transpose(x, rest + axes)
        res = _keep(_first_extremum(moved, axes, kind), axes, keepdims)
    elif (first and axes and initial is None and mask is None
            and axes == tuple(range(aval.ndim - len(axes), aval.ndim))
            and math.prod(aval.shape[i] for i in axes) <= _SCALAR_LOOP_MAX):
        res = _keep(_first_extremum(x, axes, kind), axes, keepdims)
    else:
        res = _reduce(fname, x, axes, reducer, kind, keepdims=keepdims, initial=initial,
                      mask=mask, combine=combine)
    return write_out(fname, out, res, casting="unsafe")


def _complex_extremum_from(fname, x, axes, kind, initial, mask):
    """NumPy's complex maximum/minimum reduction (lexicographic order) of ``x`` over
    ``axes`` starting from ``initial`` (required with a ``mask``): the masked-out elements
    stand for ``initial``, and ``initial`` comes first in each slice, so the first
    extremum of ``[initial, *slice]`` is the running value NumPy's loop keeps (a tie keeps
    it; a NaN propagates as without ``initial``)."""
    aval = core.aval_of(x)
    init = _initial_value(fname, initial, aval.dtype)
    rest = tuple(d for d in range(aval.ndim) if d not in axes)
    order = rest + axes
    if mask is not None:
        x = lax.select_n(_full_mask(mask, aval.shape),
                         lax.broadcast_in_dim(init, aval.shape, ()), x)
    if order != tuple(range(aval.ndim)):
        x = lax.transpose(x, order)
    kept = tuple(aval.shape[d] for d in rest)
    flat = lax.reshape(x, kept + (math.prod(aval.shape[d] for d in axes),))
    first = lax.broadcast_in_dim(init, kept + (1,), ())
    return _first_extremum(lax.concatenate([first, flat], len(kept)), (len(kept),), kind)


#: NumPy's fmax/fmin reductions run a scalar loop over an innermost slice this short (of
#: float64; float32's up to 16), which keeps its running value on a tie; its vectorised
#: loops (longer slices, outer axes) keep either of -0.0 and 0.0, as the hardware does
_SCALAR_LOOP_MAX = 8


def _first_extremum(x, axes, kind):
    """The maximum (``kind`` "max") or minimum of ``x`` over its last ``axes`` (none of size
    0) as the first element holding it, as NumPy's scalar fmax/fmin loop gives it: of
    ``-0.0`` and ``0.0`` the first one. The index from ``lax.argmax``/``lax.argmin`` (the
    first one on ties), and a gather of the value there."""
    aval = core.aval_of(x)
    k = aval.ndim - len(axes)
    if 0 in aval.shape[:k]:  # no slice: an empty result (no window of size 1 to gather)
        return lax.broadcast_in_dim(core.lift(np.zeros((), aval.dtype)), aval.shape[:k], ())
    if len(axes) != 1:
        x = lax.reshape(x, aval.shape[:k] + (math.prod(aval.shape[k:]),))
    if aval.dtype in kit.COMPLEX:
        idx = _complex_order.arg_extremum(x, k, default_int(), kind=kind)
    else:
        idx = (lax.argmax if kind == "max" else lax.argmin)(x, k, default_int())
    starts = lax.expand_dims(idx, (k,))
    batch = tuple(range(k))
    return lax.gather(x, starts, GatherDimensionNumbers((), (k,), (k,), batch, batch),
                      (1,) * (k + 1), mode="promise_in_bounds")


@writes_out(temporary=False)  # (NumPy's last step, a subtraction into `out`, writes it)
def ptp(a, axis=None, out=None, keepdims=False):
    """Range (maximum minus minimum) over the given axes (``numpy.ptp``).

    Dtype of ``a`` (integer ranges wrap around, as in NumPy); NaN propagates.

    Raises
    ------
    TypeError
        ``a`` is bool (NumPy has no bool subtraction).
    ValueError, numpy.exceptions.AxisError
        As :func:`max`.
    """
    x = _asarray("ptp", a)
    aval = core.aval_of(x)
    if aval.dtype in kit.BOOL:
        raise TypeError("xnp.ptp: bool input is not supported: NumPy has no boolean "
                        "subtract (use xnp.any / xnp.all, or convert to int first)")
    hi = _extremum("ptp", "max", x, axis, None, keepdims, None, None)
    lo = _extremum("ptp", "min", x, axis, None, keepdims, None, None)
    return write_out("ptp", out, lax.sub(hi, lo))


# --------------------------------------------------------------------------- argmax / argmin


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum along an axis (``numpy.argmax``): the first one on ties, and
    the first NaN if there is one.

    Parameters
    ----------
    a : array_like
        bool, integer or floating.
    axis : None or int
        Static. None: index into the flattened array.
    out : Array, optional
        Written in place.
    keepdims : bool
        Keep the reduced axis (all axes when ``axis`` is None) with length 1.

    Returns
    -------
    Array
        int64 indices (the default integer); shape ``a.shape`` without ``axis``.

    Raises
    ------
    ValueError
        The reduced axis (or the array, for ``axis=None``) is empty.
    numpy.exceptions.AxisError
        ``axis`` is out of range.

    Complex numbers are ordered as :func:`max` orders them (NumPy's lexicographic order).
    """
    return _argextremum("argmax", "max", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum along an axis (``numpy.argmin``); ties and NaN, parameters and
    errors as :func:`argmax`."""
    return _argextremum("argmin", "min", a, axis, out, keepdims)


def _argextremum(fname, kind, a, axis, out, keepdims):
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    if aval.dtype in kit.COMPLEX:  # NumPy's lexicographic order
        prim = functools.partial(_complex_order.arg_extremum, kind=kind)
    else:
        prim = lax.argmax if kind == "max" else lax.argmin
    if axis is None:
        if aval.size == 0:
            raise ValueError(f"xnp.{fname}: attempt to get {fname} of an empty sequence "
                             f"(input shape {aval.shape})")
        flat = x if aval.ndim == 1 else lax.reshape(x, (aval.size,))
        res = prim(flat, 0, default_int())
        if keepdims:
            res = lax.reshape(res, (1,) * aval.ndim)
        return write_out(fname, out, res, casting="unsafe")
    if aval.ndim == 0:  # NumPy treats a 0-d input as 1-d here
        ax = normalize_axis(fname, axis, 1)
        return write_out(fname, out, prim(lax.reshape(x, (1,)), ax, default_int()), casting="unsafe")
    ax = normalize_axis(fname, axis, aval.ndim)
    if aval.shape[ax] == 0:
        raise ValueError(f"xnp.{fname}: attempt to get {fname} of an empty sequence "
                         f"(axis {ax} of input shape {aval.shape} is empty)")
    res = prim(x, ax, default_int())
    return write_out(fname, out, _keep(res, (ax,), keepdims), casting="unsafe")


# --------------------------------------------------------------------------- all / any


def all(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    """Whether every element over the given axes is true (non-zero; NaN counts as true),
    as ``numpy.all``.

    Parameters
    ----------
    a : array_like
        Any dtype; compared with 0.
    axis : None, int or tuple of int
        Static; None means all axes.
    out : Array, optional
        Written in place (cast to its dtype).
    keepdims : bool
        Keep reduced axes with length 1.
    where : array_like of bool, optional
        Only these elements are tested (the others count as true).

    Returns
    -------
    Array
        bool; shape ``a.shape`` without the reduced axes. The empty ``all`` is True.

    Raises
    ------
    numpy.exceptions.AxisError, ValueError
        Bad or repeated axes; ``where`` does not broadcast.
    """
    return _logical("all", lax.reduce_and, "and", a, axis, out, keepdims, where)


def any(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    """Whether any element over the given axes is true (non-zero), as ``numpy.any``.

    Parameters and errors as :func:`all`; masked-out elements count as false and the
    empty ``any`` is False.
    """
    return _logical("any", lax.reduce_or, "or", a, axis, out, keepdims, where)


def _truth(x):
    aval = core.aval_of(x)
    if aval.dtype in kit.BOOL:
        return x
    return lax.ne(x, _const(0, aval.dtype))


def _logical(fname, reducer, kind, a, axis, out, keepdims, where):
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    axes = _axes(fname, axis, aval.ndim)
    mask = _mask(fname, where, aval.shape)
    res = _reduce(fname, _truth(x), axes, reducer, kind, keepdims=keepdims, mask=mask)
    return write_out(fname, out, res, casting="unsafe")


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements over the given axes (``numpy.count_nonzero``).

    Returns
    -------
    Array
        int64 (the default integer); 0-d for ``axis=None`` (NumPy returns a Python int).

    Raises
    ------
    numpy.exceptions.AxisError, ValueError
        Bad or repeated axes.
    """
    x = _asarray("count_nonzero", a)
    aval = core.aval_of(x)
    axes = _axes("count_nonzero", axis, aval.ndim)
    res = lax.reduce_sum(_cast(_truth(x), default_int()), axes)
    return _keep(res, axes, keepdims)


# --------------------------------------------------------------------------- mean / var / std


def _mean_sum(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """The first step of NumPy's ``mean`` with ``out``: the sum written into ``out`` (in
    float64 for integers and bool, in float32 for float16, as NumPy's ``_mean``)."""
    if dtype is None:
        dt = getattr(a, "dtype", None)
        dt = np.asarray(a).dtype if dt is None else np.dtype(dt)
        dtype = np.float64 if dt.kind in "biu" else np.float32 if dt == np.float16 else None
    return sum(a, axis, dtype, out, keepdims, where=where)


@writes_out(first=_mean_sum)
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """Arithmetic mean over the given axes (``numpy.mean``).

    Parameters
    ----------
    a : array_like
        Numeric or bool.
    axis : None, int or tuple of int
        Static; None means all axes.
    dtype : dtype, optional
        Result dtype. Default: float64 for bool and integer input, else ``a.dtype``.
        float16/bfloat16 accumulate in float32. An integer ``dtype`` sums in that
        dtype and truncates the quotient, as NumPy does.
    out : Array, optional
        Written in place.
    keepdims : bool
        Keep reduced axes with length 1.
    where : array_like of bool, optional
        Only these elements are averaged.

    Returns
    -------
    Array
        Shape ``a.shape`` without the reduced axes. The mean of no elements is NaN;
        eagerly it warns as NumPy does ("Mean of empty slice", then the division's
        floating-point error), under ``jit`` nothing warns.

    Raises
    ------
    numpy.exceptions.AxisError, ValueError
        Bad or repeated axes; ``where`` does not broadcast; ``out`` shape.
    """
    return _mean_call("mean", a, axis, dtype, out, keepdims, where)


def _mean_call(fname, a, axis, dtype, out, keepdims, where, *, quiet=False):
    """``mean`` (and ``nanmean``'s masked mean): warns "Mean of empty slice" eagerly and
    divides as NumPy (``_slice_warnings``); ``quiet``: the division's floating-point errors
    silenced, as ``nanmean``'s."""
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    check_reduction_axis(fname, axis)
    axes = normalize_axes(fname, axis, aval.ndim)
    mask = _mask(fname, where, aval.shape)
    odt = out_dtype(out)
    if odt is not None and odt in SUPPORTED_DTYPES:
        res = _keep(_mean_into(fname, x, axes, dtype, odt, mask, quiet), axes, keepdims)
        return write_out(fname, out, res, casting="unsafe")
    result = _inexact_dtype(aval.dtype, dtype)
    acc = _mean_accumulator(result)
    count = _count(x, axes, mask, acc)
    divisor = _sw.check_counts(x, axes, count, mask is not None, "Mean of empty slice",
                               scalar=out is None and not keepdims and not quiet)
    res = _mean(x, axes, result, mask, keepdims, count=count, divisor=divisor, quiet=quiet)
    return write_out(fname, out, res, casting="unsafe")


def _mean_into(fname, x, axes, dtype, odt, mask, quiet):
    """``mean`` into an ``out`` of dtype ``odt`` as NumPy's ``_mean`` computes it: the sum
    (in ``dtype``; without it in float64 for integer and bool input, float32 for float16,
    else NumPy's loop for ``out`` and the input) cast into ``odt``, then divided by the
    count as ``true_divide(out, intp count)`` is: in float64 (complex128 for a complex
    ``out``), the quotient cast back into ``out`` by the caller."""
    in_dt = core.aval_of(x).dtype
    sdt = (canonical_dtype(dtype, name="dtype") if dtype is not None else default_float()
           if in_dt in kit.INT_OR_BOOL else np.dtype(np.float32) if in_dt == np.float16
           else out_loop_dtype(np.add, odt, in_dt) or in_dt)
    total = _sum_in(fname, x, sdt, axes, mask)
    if sdt.kind == "c" and odt.kind not in "cb":
        _util.warn_complex_to_real()  # (NumPy's cast of the sum into ``out``)
    qdt = divide_loop_dtype(odt)
    count = _count(x, axes, mask, qdt)
    divisor = _sw.check_counts(x, axes, count, mask is not None, "Mean of empty slice",
                               scalar=False)
    return _sw.divide(_cast(_cast(total, odt), qdt), count, divisor, quiet=quiet)


def _mean_accumulator(result):
    # NumPy: integer dtypes sum in that dtype, true-divide in float64, cast back (truncating)
    return default_float() if result in kit.INT_OR_BOOL else _accumulator(result)


def _mean(x, axes, result, mask, keepdims, *, count=None, divisor=None, quiet=False):
    """Mean of ``x`` over ``axes`` with result dtype ``result``; ``count``, ``divisor`` and
    ``quiet`` as ``_slice_warnings.divide`` takes them."""
    acc = _mean_accumulator(result)
    if count is None:
        count = _count(x, axes, mask, acc)
    total = _reduce("mean", _cast(x, result if result in kit.INT_OR_BOOL else acc), axes,
                    lax.reduce_sum, "sum", mask=mask)
    res = _sw.divide(_cast(total, acc), count, divisor, quiet=quiet)
    return _keep(_cast(res, result), axes, keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    """Variance over the given axes (``numpy.var``): ``sum(|x - mean|**2) / (N - ddof)``.

    Parameters
    ----------
    a : array_like
        Numeric or bool.
    axis : None, int or tuple of int
        Static; None means all axes.
    dtype : dtype, optional
        The dtype the mean and the sum of squared deviations are summed and divided in,
        as NumPy's ``_var``: the deviations are taken from ``a`` itself in the common
        dtype of ``a`` and the mean, so a complex ``a`` with a real ``dtype`` keeps its
        imaginary parts (measured from 0; ``ComplexWarning`` once, for the mean's
        cast), and an integer or bool ``dtype`` truncates each quotient. Default:
        float64 for bool/integers, else ``a.dtype`` (complex input: the real result of
        its dtype; float16 sums as NumPy's float16 loops, bfloat16 in float32).
    out : Array, optional
        Written in place.
    ddof : int or float
        Delta degrees of freedom (static); ``N - ddof`` is clipped at 0, so too
        large a ``ddof`` gives inf or NaN and, eagerly, NumPy's warnings ("Degrees of
        freedom <= 0 for slice", then the division's floating-point error).
    keepdims : bool
        Keep reduced axes with length 1.
    where : array_like of bool, optional
        Only these elements take part.
    mean : array_like, optional
        A precomputed mean with the ``keepdims=True`` shape.
    correction : int or float, optional
        Array API name of ``ddof``; give at most one of them.

    Returns
    -------
    Array
        Shape ``a.shape`` without the reduced axes.

    Raises
    ------
    ValueError
        Both ``ddof`` and ``correction`` are given; bad axes; ``where``/``mean`` do
        not broadcast.
    TypeError
        A bool input with ``dtype=bool`` (NumPy's boolean subtraction); ``std`` in an
        integer or bool ``dtype`` whose result is not a scalar (NumPy cannot cast the
        square roots back).
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    return _var("var", a, axis, dtype, out, ddof, keepdims, where, mean, correction, False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    """Standard deviation over the given axes (``numpy.std``): the square root of
    :func:`var`; parameters, dtypes and errors as there."""
    return _var("std", a, axis, dtype, out, ddof, keepdims, where, mean, correction, True)


def _var(fname, a, axis, dtype, out, ddof, keepdims, where, mean_, correction, root, *,
         nan_policy=False):
    """``var``/``std`` (``root``). Eagerly, a slice with ``N <= ddof`` warns "Degrees of
    freedom <= 0 for slice" and a full reduction's scalar division meets NumPy's error
    (``_slice_warnings``). ``nan_policy``: ``nanvar``/``nanstd``'s form (the caller masks the
    NaNs), whose divisions are quiet, whose warning ends in a full stop and whose such
    slices are NaN."""
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"xnp.{fname}: ddof and correction can't be provided "
                             "simultaneously.")
        ddof = correction
    if isinstance(ddof, core.Tracer):
        raise TypeError(f"xnp.{fname}: `ddof` must be a static number, got a traced value")
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    check_reduction_axis(fname, axis)
    axes = normalize_axes(fname, axis, aval.ndim)
    mask = _mask(fname, where, aval.shape)
    scalar = out is None and not keepdims and not nan_policy
    if nan_policy:
        res = _nan_var(fname, x, axes, dtype, ddof, mask, mean_, root, out)
    else:
        res = _numpy_var(fname, x, axes, dtype, ddof, mask, mean_, root,
                         scalar and len(axes) == aval.ndim, out)
    return write_out(fname, out, _keep(res, axes, keepdims),
                     casting="same_kind" if root else "unsafe")


def _given_mean(fname, mean_, aval):
    """``var``'s ``mean=``: an xnp value of a shape that broadcasts to the input's."""
    m = asarray_for(fname, mean_, "mean") if not core.is_python_scalar(mean_) else mean_
    mshape = () if core.is_python_scalar(m) else core.aval_of(m).shape
    if broadcast_shapes(fname, mshape, aval.shape) != aval.shape:
        raise ValueError(f"xnp.{fname}: `mean` of shape {mshape} does not broadcast to the "
                         f"input shape {aval.shape}")
    return m


def _numpy_var(fname, x, axes, dtype, ddof, mask, mean_, root, scalar, out=None):
    """NumPy's ``_var`` step by step: the mean summed in ``dtype`` (float64 for integer and
    bool input; the input's dtype by default) and divided in it; the deviations from the
    input itself in the input's and the mean's common dtype (so a complex input with a real
    ``dtype`` keeps its imaginary parts, measured from 0); ``|deviation|**2`` summed in
    ``dtype`` and divided by ``max(N - ddof, 0)``. An integer or bool ``dtype`` truncates
    each quotient, as NumPy's cast back into it; ``std`` of one then exists only for a
    scalar result (NumPy casts ``sqrt``'s float back into an array of that dtype only
    with ``same_kind``: ``TypeError``). ``scalar``: NumPy's result is a scalar. With
    ``out`` and no ``dtype``, the squared deviations are summed and divided in NumPy's
    loop for ``out`` and their dtype, as NumPy sums them into ``out``."""
    aval = core.aval_of(x)
    given = None if dtype is None else canonical_dtype(dtype, name="dtype")
    if given is None and aval.dtype in kit.INT_OR_BOOL:
        given = default_float()
    n = _count(x, axes, mask, default_float())
    divisor = _sw.check_counts(x, axes, n, mask is not None, "Degrees of freedom <= 0 for slice",
                               ddof, scalar=scalar)
    if mean_ is None:
        mdt = aval.dtype if given is None else given
        if given is not None:
            _warn_if_imaginary_dropped(aval.dtype, given)
        total = _sum_in(fname, x, mdt, axes, mask)
        m = _keep(_divide_in(total, n, None, mdt), axes, True)
    else:
        m = _given_mean(fname, mean_, aval)
    pdt = _util.result_dtype(aval, core.aval_of(m if not core.is_python_scalar(m) else
                                                type(m)()))[0]
    if pdt in kit.BOOL:
        raise TypeError(f"xnp.{fname}: the deviations of a bool array from a bool mean "
                        f"(dtype={np.dtype(pdt).name}) would need a boolean subtraction, "
                        "which NumPy does not support (use another dtype)")
    xv, mv, _ = _util.binary_operands(fname, x, m, argnames=("a", "mean"))
    d = lax.sub(xv, mv)
    if pdt in kit.COMPLEX:
        sq = lax.add(lax.mul(lax.real(d), lax.real(d)), lax.mul(lax.imag(d), lax.imag(d)))
    else:
        sq = lax.mul(d, d)
    sdt = core.aval_of(sq).dtype if given is None else given
    odt = out_dtype(out)
    odt = odt if odt is not None and odt.kind in "fc" else None
    if odt is not None and given is None:
        sdt = out_loop_dtype(np.add, odt, sdt) or sdt
    dof = lax.max(lax.sub(n, _const(ddof, default_float())), _const(0, default_float()))
    total = _sum_in(fname, sq, sdt, axes, mask)
    if odt is not None:  # NumPy sums into ``out``, then divides (and roots) there
        res = _divide_in(_cast(total, odt), dof, divisor, odt, divide_loop_dtype(odt))
        return lax.sqrt(res) if root else res
    res = _divide_in(total, dof, divisor, sdt)
    if not root:
        return res
    if sdt not in kit.INT_OR_BOOL:
        return lax.sqrt(res)
    if not scalar:
        raise TypeError(f"xnp.{fname}: the standard deviation in dtype={sdt.name} of an array "
                        f"of dtype {aval.dtype.name} and shape {aval.shape} over axes {axes}: "
                        f"NumPy cannot cast the float square roots back into an array of "
                        f"{sdt.name} (casting 'same_kind'); it does so only for a scalar result")
    if sdt in kit.BOOL:  # bool(sqrt(v)) is bool(v)
        return res
    return _cast(lax.sqrt(_cast(res, default_float())), sdt)


def _sum_in(fname, v, dt, axes, mask):
    """``v`` summed over ``axes`` in ``dt`` as NumPy's ``add.reduce(v, dtype=dt)``: float16
    with NumPy's float16 loops, bfloat16 in float32; bool as logical or."""
    if dt in kit.BOOL:
        return _reduce(fname, _truth(v), axes, lax.reduce_or, "or", mask=mask)
    acc = dt if dt == np.dtype(np.float16) else _accumulator(dt)
    return _reduce(fname, _cast(v, acc), axes, lax.reduce_sum, "sum", mask=mask)


def _divide_in(total, count, divisor, dt, q=None):
    """``total / count`` cast into ``dt`` as NumPy's ``true_divide(total, count, out=...,
    casting='unsafe')``, in ``q``: by default float64 for an integer or bool ``dt`` (which
    truncates), complex128 for a complex one (NumPy's loop for complex64 and its integer
    count), else ``dt``'s accumulator (NumPy's scalar division of an array's sum)."""
    if q is None:
        q = (default_float() if dt in kit.INT_OR_BOOL else np.result_type(dt, default_float())
             if dt in kit.COMPLEX else _accumulator(dt))
    res = _sw.divide(_cast(total, q), _cast(count, q), divisor)
    if dt in kit.BOOL:
        return lax.ne(res, _const(0, q))
    return _cast(res, dt)


def _nan_var(fname, x, axes, dtype, ddof, mask, mean_, root, out=None):
    """``nanvar``/``nanstd`` on ``x`` with its NaNs masked out by ``mask``: the input cast to
    the computation dtype first, quiet divisions, NaN where ``N - ddof <= 0``; with ``out``
    and no ``dtype``, the squares summed and divided in NumPy's loop for ``out``."""
    aval = core.aval_of(x)
    result = _inexact_dtype(aval.dtype, dtype)
    acc = _accumulator(result)
    real_acc = np.finfo(acc).dtype if acc in kit.COMPLEX else acc
    n = _count(x, axes, mask, real_acc)
    _sw.check_counts(x, axes, n, mask is not None, "Degrees of freedom <= 0 for slice.", ddof,
                     scalar=False)
    xc = _cast(x, acc)
    if mean_ is None:
        m = _mean(xc, axes, acc, mask, keepdims=True, quiet=True)
    else:
        m = asarray_for(fname, _given_mean(fname, mean_, aval), "mean")
        m = broadcast_to_rank(_cast(m, acc), aval.ndim)
    d = lax.sub(xc, m)
    if acc in kit.COMPLEX:
        re, im = lax.real(d), lax.imag(d)
        sq = lax.add(lax.mul(re, re), lax.mul(im, im))
    else:
        sq = lax.mul(d, d)
    loop = None if dtype is not None else out_loop_dtype(np.add, out, core.aval_of(sq).dtype)
    if loop is not None and loop.kind == "f" and loop != real_acc:
        sq, n, real_acc, result = _cast(sq, loop), _cast(n, loop), loop, loop
    total = _reduce(fname, sq, axes, lax.reduce_sum, "sum", mask=mask)
    dof = lax.sub(n, _const(ddof, real_acc))
    res = _sw.divide(total, lax.max(dof, _const(0, real_acc)), None, quiet=True)
    # NumPy's nanvar: NaN where N - ddof <= 0 (not inf, nor N clipped at 0)
    shape = core.aval_of(res).shape
    bad = lax.broadcast_in_dim(lax.le(dof, _const(0, real_acc)), shape,
                               tuple(range(len(core.aval_of(dof).shape))))
    res = lax.select_n(bad, res, lax.broadcast_in_dim(_const(np.nan, real_acc), shape, ()))
    if root:
        res = lax.sqrt(res)
    return _cast(res, np.finfo(result).dtype if result in kit.COMPLEX else result)
