"""Cumulative sums, products and differences (NumPy's "sums, products, differences"
routines): ``cumsum``, ``cumprod``, ``cumulative_sum``, ``cumulative_prod`` (Array API /
NumPy 2 names, with ``include_initial``), ``nancumsum``, ``nancumprod``, ``diff`` and
``ediff1d``.

Dtypes follow NumPy: the accumulator is the ``sum``/``prod`` one (bool and narrow
integers widen to the default integer of their signedness, ``dtype=`` overrides;
a bool ``dtype`` accumulates with logical or/and, as NumPy's ``add``/``multiply``
do on bool). float16 rounds to float16 after every step, as NumPy's ``accumulate``
does (a long float16 ``cumsum`` stalls where the step is below half an ulp of the
total), eagerly and under ``jit``; bfloat16 accumulates in float32 and is cast back. Axes are static; ``axis=None`` works on the flattened array and a 0-d
input counts as 1-d, as in NumPy.
"""

from __future__ import annotations

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import manipulation
from xnp.numpy_api._util import asarray_for, normalize_axis, write_out
from xnp.numpy_api._fp_out import writes_out
from xnp.numpy_api._reduce_common import out_loop_dtype
from xnp.numpy_api.reductions import _sum_dtype
from xnp.tracing import core

__all__ = ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum",
           "nancumprod", "diff", "ediff1d"]

_NO_VALUE = np._NoValue


def _asarray(fname: str, a, argname: str = "a"):
    """``a`` as an xnp value; Python scalars become strongly typed 0-d arrays."""
    if core.is_python_scalar(a):
        return core.lift(_default_dtypes.scalar_to_ndarray(a))
    return asarray_for(fname, a, argname)


def _cast(x, dtype):
    if core.aval_of(x).dtype == dtype:
        return x
    return lax.convert_element_type(x, dtype)


def _operand(fname: str, a, axis):
    """``(x, axis)``: flattened for ``axis=None``; a 0-d input as shape ``(1,)``."""
    x = _asarray(fname, a)
    aval = core.aval_of(x)
    if axis is None or aval.ndim == 0:
        x = lax.reshape(x, (aval.size,))
        return x, (0 if axis is None else normalize_axis(fname, axis, 1))
    return x, normalize_axis(fname, axis, aval.ndim)


def _accumulate(fname: str, kind: str, x, axis: int, dtype, out=None):
    """``x`` accumulated along ``axis`` with NumPy's dtype rules (``kind``: sum/prod; with
    ``out`` and no ``dtype``, in NumPy's loop for both dtypes)."""
    in_dtype = core.aval_of(x).dtype
    if dtype is None:
        dtype = out_loop_dtype(np.add if kind == "sum" else np.multiply, out, in_dtype)
    acc, result = _sum_dtype(fname, in_dtype, dtype)
    x = _cast(x, acc)
    if acc in kit.BOOL:  # add/multiply on bool are or/and
        res = lax.cummax(x, axis) if kind == "sum" else lax.cummin(x, axis)
    else:
        res = lax.cumsum(x, axis) if kind == "sum" else lax.cumprod(x, axis)
    return _cast(res, result)


@writes_out(temporary=False)
def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum of the elements along ``axis``.

    Parameters
    ----------
    a : array_like
        Numeric or bool.
    axis : int, optional
        Axis to accumulate along (static); None (default) flattens ``a`` first.
    dtype : dtype, optional
        Accumulator and result dtype; default as ``xnp.sum`` (bool and narrow
        integers widen to int64/uint64).
    out : Array, optional
        Written in place (same shape; ``same_kind`` cast).

    Returns
    -------
    Array
        Shape ``a.shape`` (``(a.size,)`` for ``axis=None``; a 0-d input gives shape
        ``(1,)``).

    Raises
    ------
    numpy.exceptions.AxisError
        ``axis`` out of range.

    Notes
    -----
    float16 rounds after every step, bfloat16 accumulates in float32 (see the module
    docstring); integer
    sums wrap around on overflow, as in NumPy.
    """
    x, ax = _operand("cumsum", a, axis)
    return write_out("cumsum", out, _accumulate("cumsum", "sum", x, ax, dtype, out), "unsafe")


@writes_out(temporary=False)
def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along ``axis``; parameters, dtypes and errors as :func:`cumsum`."""
    x, ax = _operand("cumprod", a, axis)
    return write_out("cumprod", out, _accumulate("cumprod", "prod", x, ax, dtype, out), "unsafe")


def _cumulative(fname: str, kind: str, x, axis, dtype, out, include_initial):
    x = _asarray(fname, x, "x")
    aval = core.aval_of(x)
    if aval.ndim == 0:
        x = lax.reshape(x, (1,))
    elif axis is None and aval.ndim > 1:
        raise ValueError(f"xnp.{fname}: For arrays which have more than one dimension "
                         "``axis`` argument is required.")
    ax = normalize_axis(fname, 0 if axis is None else axis, core.aval_of(x).ndim)
    res = _accumulate(fname, kind, x, ax, dtype, out)
    if include_initial:
        rdt = core.aval_of(res).dtype
        config = [(0, 0, 0)] * core.aval_of(res).ndim
        config[ax] = (1, 0, 0)
        ident = np.asarray(0 if kind == "sum" else 1).astype(rdt)
        res = lax.pad(res, ident, tuple(config))
    return write_out(fname, out, res, "unsafe")


def _initial_last(accumulate):
    """NumPy's first step of a ``cumulative_*`` call with ``out`` and ``include_initial``:
    ``accumulate`` (``cumsum``/``cumprod``) written into ``out`` after its first element
    along ``axis``; NumPy writes that initial element last, so an error leaves it as it
    was. Nothing without ``include_initial``."""

    def first(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
        if include_initial:
            item = [slice(None)] * max(np.ndim(x), 1)
            item[0 if axis is None else axis] = slice(1, None)
            accumulate(x, 0 if axis is None else axis, dtype, out[tuple(item)])

    return first


@writes_out(temporary=False, first=_initial_last(cumsum))
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative sum along ``axis`` (the Array API / NumPy 2 function).

    Parameters
    ----------
    x : array_like
        Numeric or bool; a 0-d input counts as 1-d.
    axis : int, optional
        Required when ``x`` has more than one dimension (static).
    dtype : dtype, optional
        As :func:`cumsum`.
    out : Array, optional
        Written in place.
    include_initial : bool
        Prepend the initial value 0, so the result has one more element along ``axis``.

    Raises
    ------
    ValueError
        ``axis`` missing for a multi-dimensional ``x``.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    return _cumulative("cumulative_sum", "sum", x, axis, dtype, out, include_initial)


@writes_out(temporary=False, first=_initial_last(cumprod))
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative product along ``axis`` (Array API / NumPy 2); as :func:`cumulative_sum`
    with initial value 1."""
    return _cumulative("cumulative_prod", "prod", x, axis, dtype, out, include_initial)


def _nan_to(x, value):
    if core.aval_of(x).dtype not in kit.INEXACT:
        return x
    fill = np.asarray(value, core.aval_of(x).dtype)
    return lax.select(lax.ne(x, x), lax.broadcast_in_dim(fill, core.aval_of(x).shape, ()), x)


@writes_out(temporary=False)
def nancumsum(a, axis=None, dtype=None, out=None):
    """:func:`cumsum` with NaN counted as 0 (leading NaNs give 0, not NaN)."""
    x, ax = _operand("nancumsum", a, axis)
    return write_out("nancumsum", out,
                     _accumulate("nancumsum", "sum", _nan_to(x, 0), ax, dtype, out), "unsafe")


@writes_out(temporary=False)
def nancumprod(a, axis=None, dtype=None, out=None):
    """:func:`cumprod` with NaN counted as 1."""
    x, ax = _operand("nancumprod", a, axis)
    return write_out("nancumprod", out,
                     _accumulate("nancumprod", "prod", _nan_to(x, 1), ax, dtype, out), "unsafe")


# --------------------------------------------------------------------------- differences


def _edge(fname, value, x, axis, argname):
    """``prepend``/``append`` as an array to concatenate with ``x`` along ``axis`` (a scalar
    is broadcast to length 1 along it)."""
    v = _asarray(fname, value, argname)
    va, xa = core.aval_of(v), core.aval_of(x)
    if va.ndim == 0:
        shape = xa.shape[:axis] + (1,) + xa.shape[axis + 1:]
        v = lax.broadcast_in_dim(v, shape, ())
    return v


def _difference(x, axis: int):
    a = core.aval_of(x)
    n = a.shape[axis]
    hi = lax.slice_in_dim(x, min(1, n), n, axis=axis)
    lo = lax.slice_in_dim(x, 0, max(n - 1, 0), axis=axis)
    if a.dtype in kit.BOOL:
        return lax.ne(hi, lo)
    return lax.sub(hi, lo)


def diff(a, n=1, axis=-1, prepend=_NO_VALUE, append=_NO_VALUE):
    """The ``n``-th discrete difference along ``axis``: ``out[i] = a[i+1] - a[i]``, applied
    ``n`` times.

    Parameters
    ----------
    a : array_like
        At least 1-d. Bool input gives ``a[i+1] != a[i]``; unsigned integers wrap.
    n : int
        Number of times to difference (static, >= 0); 0 returns ``a`` unchanged.
    axis : int
        Axis (static), default the last.
    prepend, append : array_like, optional
        Values joined to ``a`` along ``axis`` first (scalars become length 1 along it);
        dtypes promote as in ``concatenate``.

    Returns
    -------
    Array
        Length ``max(m - n, 0)`` along ``axis`` (``m`` after prepend/append); dtype of
        ``a`` (after promotion with prepend/append).

    Raises
    ------
    ValueError
        ``n < 0`` or a 0-d ``a``.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    n = int(n) if isinstance(n, (int, np.integer)) else n
    if not isinstance(n, int):
        raise TypeError(f"xnp.diff: `n` must be an integer, got {n!r}")
    if n == 0:
        return _asarray("diff", a)
    if n < 0:
        raise ValueError(f"xnp.diff: order must be non-negative but got {n!r}")
    x = _asarray("diff", a)
    if core.aval_of(x).ndim == 0:
        raise ValueError("xnp.diff: diff requires input that is at least one dimensional")
    ax = normalize_axis("diff", axis, core.aval_of(x).ndim)
    parts = []
    if prepend is not _NO_VALUE:
        parts.append(_edge("diff", prepend, x, ax, "prepend"))
    parts.append(x)
    if append is not _NO_VALUE:
        parts.append(_edge("diff", append, x, ax, "append"))
    if len(parts) > 1:
        x = manipulation.concatenate(parts, axis=ax)
    for _ in range(n):
        x = _difference(x, ax)
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ``ary``, with optional values
    before (``to_begin``) and after (``to_end``), all in ``ary``'s dtype.

    Raises
    ------
    TypeError
        ``to_begin``/``to_end`` cannot be cast to ``ary``'s dtype under ``same_kind``.
    """
    x = _asarray("ediff1d", ary, "ary")
    dt = core.aval_of(x).dtype
    x = lax.reshape(x, (core.aval_of(x).size,))
    if dt in kit.BOOL:
        raise TypeError("xnp.ediff1d: bool input is not supported (NumPy's boolean subtract "
                        "is not defined); convert to an integer dtype first.")
    parts = [_difference(x, 0)]
    for name, extra, front in (("to_begin", to_begin, True), ("to_end", to_end, False)):
        if extra is None:
            continue
        e = _asarray("ediff1d", extra, name)
        edt = core.aval_of(e).dtype
        if not np.can_cast(edt, dt, casting="same_kind"):
            raise TypeError(f"xnp.ediff1d: dtype of `{name}` must be compatible with input "
                            "`ary` under the `same_kind` rule.")
        e = _cast(lax.reshape(e, (core.aval_of(e).size,)), dt)
        if front:
            parts.insert(0, e)
        else:
            parts.append(e)
    return parts[0] if len(parts) == 1 else lax.concatenate(parts, 0)

