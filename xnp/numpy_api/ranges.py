"""Numerical ranges: ``arange`` (``iota`` scaled and shifted) and ``linspace``.

Lengths are static: ``start``/``stop``/``step`` of ``arange`` and ``num`` of ``linspace``
must be concrete (a traced one raises ``xnp.errors.ConcretizationTypeError``), while
``linspace``'s endpoints may be traced arrays. ``logspace`` and ``geomspace`` are in
``grids.py``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from xnp import lax
from xnp.numpy_api import elementwise as ew
from xnp.numpy_api import rounding as rn
from xnp.numpy_api._util import (asarray_for, broadcast_shapes, broadcast_to, check_unsupported,
                                 default_float, normalize_axis, raise_host_dtype, result_dtype)
from xnp.numpy_api.creation import (_NO_LIKE, _PY_SCALARS, _check_device, _dtype_arg,
                                     _narrow_defaults)
from xnp.tracing import core, errors
from xnp.tracing.sizes import check_array_size

__all__ = ["arange", "linspace"]


def _static_number(fname: str, value, argname: str):
    """A static Python/NumPy number from ``value``; traced values raise ConcretizationTypeError."""
    if isinstance(value, core.Tracer):
        v = value.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(errors.concretization_message(
                value, f"It arose in the xnp.{fname} argument '{argname}', which must be static: "
                "the length of the result depends on it. Pass a Python number (mark the "
                "argument static with static_argnums/static_argnames)."))
        return np.asarray(v, dtype=value.aval.dtype)[()]
    if type(value) is core.Array:
        v = value._value
        if v.ndim != 0:
            raise TypeError(f"xnp.{fname}: `{argname}` must be a scalar, got shape {v.shape}")
        return v[()]
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise TypeError(f"xnp.{fname}: `{argname}` must be a scalar, got shape {value.shape}")
        return value[()]
    if isinstance(value, (numbers.Number, np.generic)) and (
            not isinstance(value, np.generic) or value.dtype.kind in "biufc"):
        return value
    if isinstance(value, (str, bytes, np.generic, core.Array)):  # dates: NumPy's arange
        raise_host_dtype(fname, argname, np.asarray(value).dtype)
    raise TypeError(f"xnp.{fname}: `{argname}` must be a number, got {value!r}")


def _arange_dtype(values) -> np.dtype:
    """NumPy's arange dtype: the default int promoted with each argument's own dtype."""
    dts = [np.asarray(v).dtype for v in values]
    dt = np.result_type(np.int64, *dts)
    return _narrow_defaults(np.zeros((), dt)).dtype if all(
        isinstance(v, _PY_SCALARS) for v in values) else dt


def arange(start_or_stop, /, stop=None, step=1, *, dtype=None, device=None, like=None):
    """Evenly spaced values in ``[start, stop)`` with spacing ``step``.

    ``arange(stop)``, ``arange(start, stop)``, ``arange(start, stop, step)``.

    Parameters
    ----------
    start_or_stop, stop, step : number
        Must be static (Python/NumPy numbers or concrete arrays): the length
        depends on them. Complex values are not supported.
    dtype : dtype, optional
        Default as in NumPy: int64 promoted with the dtypes of the arguments
        (``arange(3)`` is int64, ``arange(3.0)`` float64, any float32 argument
        still gives float64).

    Returns
    -------
    Array
        Length ``ceil((stop - start) / step)`` (0 if negative). Values are
        ``start + i * delta`` computed in the result dtype with
        ``delta = dtype(start + step) - dtype(start)``, as NumPy does
        (float16/bfloat16 compute in float32). Under ``jit`` this is an
        ``iota`` (times ``delta``, plus ``start`` when those are not 1 and 0).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        An argument is traced (the message names ``arange`` and the argument).
    ZeroDivisionError
        ``step`` is 0.
    ValueError
        The length is not finite, or its byte size overflows int64.
    MemoryError
        The result needs more bytes than the machine's memory.
    TypeError
        bool ``dtype`` with more than 2 elements, as in NumPy.
    NotImplementedError
        Complex arguments or dtype; ``like`` given.
    """
    check_unsupported("arange", like=(like, None, _NO_LIKE))
    _check_device("arange", device)
    length_from = "stop" if stop is None else "start, stop, step"
    if stop is None:
        start, stop = 0, _static_number("arange", start_or_stop, "stop")
    else:
        start = _static_number("arange", start_or_stop, "start")
        stop = _static_number("arange", stop, "stop")
    step = _static_number("arange", step, "step")
    args = (start, stop, step)
    if any(np.iscomplexobj(v) for v in args):
        raise NotImplementedError("xnp.arange: complex arguments are not supported")
    dt = _dtype_arg(dtype) or _arange_dtype(args)
    if dt.kind == "c":
        raise NotImplementedError("xnp.arange: complex dtypes are not supported")
    if step == 0:
        raise ZeroDivisionError("xnp.arange: `step` must not be zero (division by zero)")
    with np.errstate(all="ignore"):
        length = (stop - start) / step
    if not np.isfinite(length):
        raise ValueError(f"xnp.arange: the length (stop - start) / step = {length} is not finite")
    n = max(0, math.ceil(length))
    check_array_size("arange", (n,), dt, argname=length_from)
    if dt == np.bool_:
        if n > 2:
            raise TypeError("xnp.arange: arange() is only supported for booleans when the result "
                            "has at most length 2.")
        return lax.convert_element_type(arange(start, stop, step, dtype=np.int64), dt)
    # narrow floats (float16; ml_dtypes' bfloat16/float8, kind "V" or "f") step in float32
    calc = dt if dt.kind not in "fV" or dt.itemsize >= 4 else np.dtype(np.float32)
    with np.errstate(all="ignore"):
        first = np.array(start).astype(dt).astype(calc)
        delta = np.array(start + step).astype(dt).astype(calc) - first
    out = lax.iota(calc, (n,), 0)
    if delta != 1:
        out = lax.mul(out, core.lift(np.asarray(delta, calc)))
    if first != 0:
        out = lax.add(out, core.lift(np.asarray(first, calc)))
    elif np.signbit(first) and n:
        # NumPy's first element is `start` itself, -0.0, where 0 * delta is 0.0
        out = lax.concatenate([core.lift(np.full(1, first, calc)), lax.slice(out, (1,), (n,))],
                              0)
    if calc != dt:
        out = lax.convert_element_type(out, dt)
    return out


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``num`` evenly spaced samples from ``start`` to ``stop``.

    Parameters
    ----------
    start, stop : array_like
        Scalars or arrays (broadcast together; may be traced). The samples
        run along a new axis ``axis``.
    num : int
        Number of samples; static, >= 0. A Python bool is 0 or 1, as NumPy takes it
        (``operator.index``; a NumPy bool raises ``TypeError``).
    endpoint : bool
        Include ``stop`` (then the spacing is ``(stop - start) / (num - 1)``).
    retstep : bool
        Also return the spacing ``step``: eagerly NumPy's, a NumPy scalar of the
        computation dtype (``np.float64(0.25)``) for scalar ``start`` and ``stop``, an
        array for array ones, and the float ``nan`` when ``num < 2`` with ``endpoint``
        (or 0 samples); under ``jit`` a traced value (0-d for scalar endpoints), the
        float ``nan`` staying a Python float.
    dtype : dtype, optional
        Computation uses the inexact result type of ``start`` and ``stop``
        (float64 for Python numbers and integers); integer ``dtype`` rounds
        down (floor), as NumPy does.
    axis : int
        Where the new axis goes in the result.

    Returns
    -------
    Array, or (Array, step)
        Values ``start + i * step``; the last sample is exactly ``stop`` when
        ``endpoint``. Unlike NumPy there is no special path for a spacing
        that underflows to 0 (denormal ranges).

    Raises
    ------
    ValueError
        ``num`` is negative, or the result's byte size overflows int64.
    MemoryError
        The result needs more bytes than the machine's memory.
    xnp.errors.ConcretizationTypeError
        ``num`` is traced.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    _check_device("linspace", device)
    num = _static_number("linspace", num, "num")
    if isinstance(num, np.bool_) or not isinstance(num, (numbers.Integral, np.integer)):
        raise TypeError(f"xnp.linspace: `num` must be an integer, got {num!r}")
    num = int(num)
    if num < 0:
        raise ValueError(f"xnp.linspace: Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    a = asarray_for("linspace", start, "start")
    b = asarray_for("linspace", stop, "stop")
    av_a, av_b = core.aval_of(a), core.aval_of(b)
    dt = result_dtype(av_a, av_b)[0]
    if dt.kind not in "fc" and dt.name not in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        dt = default_float()  # NumPy: result_type(start, stop, 0.0)
    out_dt = _dtype_arg(dtype) or dt
    a = lax.convert_element_type(a, dt) if av_a.dtype != dt else a
    b = lax.convert_element_type(b, dt) if av_b.dtype != dt else b
    bshape = broadcast_shapes("linspace", av_a.shape, av_b.shape)
    check_array_size("linspace", (num,) + bshape, _dtype_arg(dtype) or dt, argname="num")
    ndim = len(bshape)
    a = broadcast_to(a, bshape)
    b = broadcast_to(b, bshape)
    delta = ew.subtract(b, a)
    rows = num - 1 if (endpoint and num > 1) else num

    def samples(scale):
        idx = lax.iota(dt, (rows,) + (1,) * ndim, 0)
        return ew.add(ew.multiply(idx, scale), a)

    if div > 0:
        step = ew.true_divide(delta, div)
        y = samples(step)
    else:
        step = float("nan")
        y = samples(delta)
    if rows != num:
        last = lax.broadcast_in_dim(b, (1,) + bshape, tuple(range(1, ndim + 1)))
        y = lax.concatenate([y, last], 0)
    if axis != 0:
        ax = normalize_axis("linspace", axis, ndim + 1)
        perm = list(range(1, ndim + 1))
        perm.insert(ax, 0)
        y = lax.transpose(y, tuple(perm))
    if out_dt.kind in "iu":
        y = rn.floor(y)
    if out_dt != dt:
        y = lax.convert_element_type(y, out_dt)
    if retstep:
        return y, step
    return y


# --------------------------------------------------------------------------- eye
