"""The shared steps of the reductions (:mod:`xnp.numpy_api.reductions`, and the
nan-functions and statistics built on them): NumPy's accumulation and result dtypes,
``where=`` masks, ``initial=``, element counts and the masked reduction itself."""

from __future__ import annotations

import builtins

import numpy as np

from xnp import _default_dtypes
from xnp import config, lax
from xnp.lax import _kit as kit
from xnp.lax.reductions import reduction_identity
from xnp.numpy_api import _signed_zeros as _sz
from xnp.numpy_api import _util
from xnp.numpy_api._util import (asarray_for, broadcast_shapes, broadcast_to_rank,
                                 check_reduction_axis, default_float, default_int,
                                 normalize_axes)
from xnp.tracing import core
from xnp.tracing.avals import SUPPORTED_DTYPES, canonical_dtype

_NARROW_FLOATS = frozenset(d for d in kit.FLOATING if d.itemsize < 4)


def _asarray(fname: str, a):
    """``a`` as an xnp value; Python scalars become *strong* 0-d arrays, since a reduction's
    result is an array (NumPy returns a NumPy scalar), not a Python scalar."""
    if core.is_python_scalar(a):
        return core.lift(_default_dtypes.scalar_to_ndarray(a))
    return asarray_for(fname, a)


def _default_uint() -> np.dtype:
    return np.dtype(np.uint64 if config.get("enable_x64") else np.uint32)


def _sum_dtype(fname: str, in_dtype: np.dtype, dtype) -> tuple[np.dtype, np.dtype]:
    """``(accumulator, result)`` dtypes of ``sum``/``prod`` and the cumulative functions
    (NumPy's rules; bfloat16 accumulates in float32, float16 in float16, whose reductions
    follow NumPy's float16 loops: see ``lax.reduce_sum``)."""
    if dtype is not None:
        result = canonical_dtype(dtype, name="dtype")
        _warn_if_imaginary_dropped(in_dtype, result)
    elif in_dtype in kit.BOOL or (
            in_dtype in kit.SIGNED and in_dtype.itemsize < default_int().itemsize):
        result = default_int()
    elif in_dtype in kit.UNSIGNED and in_dtype.itemsize < _default_uint().itemsize:
        result = _default_uint()
    else:
        result = in_dtype
    return (result if result == _F16 else _accumulator(result)), result


_OUT_LOOPS: dict = {}  # (ufunc, out dtype, input dtype) -> NumPy's loop dtype, or False


def out_dtype(out):
    """The dtype of an ``out=`` argument (an array or a 1-tuple of one; a dtype stands for
    itself), else None."""
    if isinstance(out, np.dtype):
        return out
    if isinstance(out, tuple):
        out = out[0] if len(out) == 1 else None
    odt = getattr(out, "dtype", None)
    return odt if isinstance(odt, np.dtype) else None


def divide_loop_dtype(odt: np.dtype) -> np.dtype:
    """The dtype of NumPy's ``true_divide(out, count)`` for an ``out`` of ``odt`` and an
    intp count (a mean's or a variance's last step): float64, complex128 for complex."""
    try:
        q = np.true_divide.resolve_dtypes((odt, np.dtype(np.intp), None), casting="unsafe")[2]
    except (TypeError, ValueError):
        return default_float()
    return q if q in SUPPORTED_DTYPES else default_float()


def out_loop_dtype(ufunc: np.ufunc, out, in_dtype: np.dtype):
    """The dtype of NumPy's ``ufunc.reduce``/``accumulate`` loop for an input of ``in_dtype``
    written into ``out`` with no ``dtype=`` given, or None without ``out``.

    NumPy resolves such a loop from ``out``'s dtype and the input's together
    (``ufunc.resolve_dtypes((out.dtype, in_dtype, None), reduction=True)``), so a float32
    sum into a float64 ``out`` adds in float64, and a float64 one into float32 also adds in
    float64 before the cast. ``numpy.sum``, ``prod``, ``cumsum``, ``cumprod``, their nan-
    forms, ``mean``'s sum and the ufunc methods reduce this way. None also where NumPy
    has no such loop (its call then raises as it does without ``out``).
    """
    odt = out_dtype(out)
    if odt is None:
        return None
    key = (ufunc, odt, in_dtype)
    loop = _OUT_LOOPS.get(key)
    if loop is None:
        try:
            loop = ufunc.resolve_dtypes((odt, np.dtype(in_dtype), None), reduction=True,
                                        casting="unsafe")[0]
        except (TypeError, ValueError):
            loop = False
        if len(_OUT_LOOPS) < 4096:
            _OUT_LOOPS[key] = loop
    return loop if loop is not False and loop in SUPPORTED_DTYPES else None


def _warn_if_imaginary_dropped(in_dtype: np.dtype, dtype: np.dtype) -> None:
    """NumPy's ComplexWarning for a complex input reduced in a real or integer ``dtype``
    (its cast of the input drops the imaginary part; bool casts by truth, silently)."""
    if in_dtype.kind == "c" and dtype.kind not in "cb":
        _util.warn(np.exceptions.ComplexWarning(
            "Casting complex values to real discards the imaginary part"))


_F16 = np.dtype(np.float16)


def _accumulator(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float32) if dt in _NARROW_FLOATS else dt


def _inexact_dtype(in_dtype: np.dtype, dtype) -> np.dtype:
    """Result dtype of ``mean``: ``dtype`` if given, float64 for bool/integers, else the input's."""
    if dtype is not None:
        result = canonical_dtype(dtype, name="dtype")
        _warn_if_imaginary_dropped(in_dtype, result)
        return result
    if in_dtype in kit.INT_OR_BOOL:
        return default_float()
    return in_dtype


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


def _cast(x, dtype):
    dtype = np.dtype(dtype)
    if core.aval_of(x).dtype == dtype:
        return x
    return lax.convert_element_type(x, dtype)


def _float_as_int(fname: str, initial: float, unsigned: bool) -> int:
    """A Python float ``initial`` of an integer reduction as NumPy converts it: its
    ``int()`` (truncated), a C long (``unsigned``: an unsigned one, for uint64 loops).

    Raises
    ------
    ValueError
        ``initial`` is NaN.
    OverflowError
        ``initial`` is infinite or its integer is beyond a C long."""
    if initial != initial:
        raise ValueError(f"xnp.{fname}: `initial`: cannot convert float NaN to integer")
    if initial in (float("inf"), float("-inf")):
        raise OverflowError(f"xnp.{fname}: `initial`: cannot convert float infinity to integer")
    value = int(initial)
    if not -2**63 <= value < (2**64 if unsigned else 2**63):
        raise OverflowError(f"xnp.{fname}: `initial` {initial!r}: Python int too large to "
                            "convert to C long")
    return value


def _initial_value(fname: str, initial, dtype: np.dtype):
    """``initial`` as a 0-d value of ``dtype`` (unsafe cast, as NumPy; out-of-range Python
    ints raise OverflowError, a Python complex for a real ``dtype`` TypeError)."""
    if core.is_python_scalar(initial):
        if type(initial) is complex and dtype in kit.REAL:
            raise TypeError(f"xnp.{fname}: `initial` {initial!r} is complex but the reduction "
                            f"runs in {dtype}, which cannot hold it (as in NumPy). Fix: pass a "
                            "real `initial`.")
        if type(initial) is float and dtype in kit.INTEGER:  # NumPy's int() of it
            initial = _float_as_int(fname, initial, dtype == np.uint64)
        if type(initial) is int and dtype in kit.INTEGER:
            return core.lift(_default_dtypes.scalar_to_ndarray(initial, dtype))
        with np.errstate(all="ignore"):
            return _const(np.asarray(initial).astype(dtype), dtype)
    if isinstance(initial, (np.ndarray, np.generic)) or (
            type(initial) is core.Array or isinstance(initial, core.Tracer)):
        x = asarray_for(fname, initial, "initial")
        if core.aval_of(x).ndim != 0:
            raise ValueError(f"xnp.{fname}: `initial` must be a scalar, got shape "
                             f"{core.aval_of(x).shape}")
        return _cast(x, dtype)
    raise TypeError(f"xnp.{fname}: `initial` must be a scalar, got {initial!r}")


def _mask(fname: str, where, shape):
    """``where`` as a bool value broadcastable to ``shape`` (rank-promoted), or None for all."""
    if where is None or where is True:
        return None
    w = asarray_for(fname, where, "where")
    aval = core.aval_of(w)
    if aval.dtype not in kit.BOOL:
        raise TypeError(f"xnp.{fname}: `where` must be a bool array, got dtype {aval.dtype}")
    if broadcast_shapes(fname, aval.shape, shape) != tuple(shape):
        raise ValueError(f"xnp.{fname}: `where` of shape {aval.shape} does not broadcast to "
                         f"the input shape {tuple(shape)}")
    return broadcast_to_rank(w, len(shape))


def _full_mask(mask, shape):
    """``mask`` broadcast to exactly ``shape`` (for counting elements)."""
    aval = core.aval_of(mask)
    if aval.shape == tuple(shape):
        return mask
    return lax.broadcast_in_dim(mask, tuple(shape), tuple(range(aval.ndim)) if aval.ndim else ())


def _axes(fname: str, axis, ndim: int) -> tuple[int, ...]:
    """Normalised axes (None, an int or a tuple of ints, not a list, as NumPy's ufunc
    reductions take them); like those, a 0-d input accepts the int axis 0 or -1 (and
    reduces nothing)."""
    check_reduction_axis(fname, axis)
    if ndim == 0 and type(axis) is int and axis in (0, -1):
        return ()
    return normalize_axes(fname, axis, ndim)


def _keep(res, axes, keepdims: bool):
    if keepdims and axes:
        return lax.expand_dims(res, axes)
    return res


def _reduce(fname, x, axes, reducer, kind, *, keepdims=False, initial=None, mask=None,
            combine=None):
    """Reduce ``x`` (already in the accumulator dtype) over ``axes``: masked elements
    become ``kind``'s identity, ``initial`` is combined once with ``combine``."""
    dt = core.aval_of(x).dtype
    x_in = x
    if mask is not None:
        x = lax.select_n(mask, _const(reduction_identity(kind, dt), dt), x)
    res = reducer(x, axes)
    if kind == "sum":
        res = _sz.from_zero(res, x, axes)  # (an `initial` of -0.0 is seen to below)
    if initial is not None:
        init = _initial_value(fname, initial, dt)
        res = combine(res, init)
        parts = _sz.minus_zero_parts(initial, dt) if kind == "sum" else ()
        if builtins.any(parts):  # NumPy's sum from `initial`: its parts of -0.0 can stay
            full = None if mask is None else _full_mask(mask, core.aval_of(x).shape)
            res = _sz.keep_initial(res, init, x_in, axes, full, parts)
    return _keep(res, axes, keepdims)


def _count(x, axes, mask, dtype):
    """Number of (unmasked) elements reduced into each output: a static constant without
    a mask, a traced count with one."""
    shape = core.aval_of(x).shape
    if mask is None:
        n = 1
        for a in axes:
            n *= shape[a]
        return _const(n, dtype)
    return lax.reduce_sum(_cast(_full_mask(mask, shape), dtype), axes)
