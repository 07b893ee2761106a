"""Numerical ranges: ``arange`` (``iota`` scaled and shifted) and ``linspace``.

Lengths are static: ``start``/``stop``/``step`` of ``arange`` and ``num`` of ``linspace``
must be concrete (a traced one raises ``xnp.errors.ConcretizationTypeError``), while
``linspace``'s endpoints may be traced arrays. ``logspace`` and ``geomspace`` are in
``grids.py``.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from xnp import lax
from xnp.numpy_api import elementwise as ew
from xnp.numpy_api import rounding as rn
from xnp.numpy_api._exact import rounded
from xnp.numpy_api._util import (asarray_for, broadcast_shapes, broadcast_to, check_unsupported,
                                 default_float, normalize_axis, raise_host_dtype, result_dtype,
                                 warn)
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


def _ceil_length(value: float) -> int:
    """NumPy's ``_arange_safe_ceil_to_intp``: ``ceil(value)``; NaN and lengths beyond intp
    raise its ValueErrors."""
    if math.isnan(value):
        raise ValueError("xnp.arange: arange: cannot compute length")
    if math.isinf(value) or not -2.0 ** 63 <= math.ceil(value) < 2.0 ** 63:
        raise ValueError("xnp.arange: Maximum allowed size exceeded")
    return math.ceil(value)


def _length(start, stop, step, cmplx: bool) -> int:
    """NumPy's arange length (its ``_calc_length``), computed with the arguments' own
    arithmetic: ``val = (stop - start) / step``; for a complex ``dtype`` and a Python (or
    ``complex128``) complex ``val`` the smaller of the ceilings of its parts, else
    ``ceil(float(val))`` (a ``complex64`` gives its real part with NumPy's ComplexWarning,
    a Python complex NumPy's TypeError), 1 where ``val`` underflows to +0 (0 to -0). The
    warnings of NumPy scalars' division are NumPy's, at the caller's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        diff = stop - start
        nonzero = diff != 0
        try:
            val = diff / step
        except ZeroDivisionError as e:  # Python numbers: "division by zero", ...
            raise ZeroDivisionError(f"xnp.arange: {e}") from None
        value = None if isinstance(val, complex) else float(val)
    for w in caught:
        warn(w.message, w.category)
    if cmplx and value is None:
        return min(_ceil_length(val.real), _ceil_length(val.imag))
    if value is None:
        raise TypeError("xnp.arange: must be real number, not complex")
    if val == 0 and nonzero:  # underflow, or a step of inf
        return 0 if math.copysign(1.0, value) < 0 else 1
    return _ceil_length(value)


def _line(first, delta, n: int, calc: np.dtype):
    """``first + i * delta`` for ``i`` in ``range(n)``, in ``calc`` (NumPy's fill loop):
    ``iota`` times ``delta`` (when not 1) plus ``first`` (when not 0), the product rounded
    before the sum as NumPy's; and the same first ``min(n, 2)`` values computed here."""
    first, delta = np.asarray(first, calc), np.asarray(delta, calc)
    if not (np.isfinite(first) and np.isfinite(delta)):  # (the dtype overflowed) NumPy's
        with np.errstate(all="ignore"):  # loop here, without its 0 * inf
            values = first + np.arange(n, dtype=calc) * delta
        return core.lift(values), values[:2]
    out = lax.iota(calc, (n,), 0)
    head = np.arange(min(n, 2), dtype=calc)
    if delta != 1:
        out = lax.mul(out, core.lift(delta))
        if first != 0 and calc.kind == "f":
            out = rounded(out)
        with np.errstate(all="ignore"):  # (the lax operations under the caller's settings)
            head = head * delta
    if first != 0:
        out = lax.add(out, core.lift(first))
        with np.errstate(all="ignore"):
            head = head + first
    return out, head


def _with_head(out, head, want):
    """``out`` whose first elements are ``want`` (NumPy writes ``start`` and ``start +
    step`` itself: the fill loop begins at 2) where ``head``, what ``out`` computes for
    them, differs in any bit (``-0.0``; ``first + 0 * delta`` of an infinite ``delta``)."""
    differs = [head[i:i + 1].tobytes() != want[i:i + 1].tobytes() for i in range(len(want))]
    if not any(differs):
        return out
    n, k = core.aval_of(out).shape[0], max(i + 1 for i, d in enumerate(differs) if d)
    # only the elements that differ, each its own constant: XLA takes a constant [-0.0,
    # 1.0] (also one folded from a concatenation) for an iota, +0.0 first
    return lax.concatenate([core.lift(want[i:i + 1]) if differs[i] else lax.slice(
        out, (i,), (i + 1,)) for i in range(k)] + [lax.slice(out, (k,), (n,))], 0)


def arange(start_or_stop, /, stop=None, step=1, *, dtype=None, device=None, like=None):
    """Evenly spaced values in ``[start, stop)`` with spacing ``step``.

    ``arange(stop)``, ``arange(start, stop)``, ``arange(start, stop, step)``.

    Parameters
    ----------
    start_or_stop, stop, step : number
        Must be static (Python/NumPy numbers or concrete arrays): the length
        depends on them. May be complex (then the default dtype is complex).
    dtype : dtype, optional
        Default as in NumPy: int64 promoted with the dtypes of the arguments
        (``arange(3)`` is int64, ``arange(3.0)`` float64, any float32 argument
        still gives float64, a complex one complex128).

    Returns
    -------
    Array
        NumPy's length: ``ceil((stop - start) / step)`` (0 if negative; 1 where the
        quotient underflows to +0). For a complex ``dtype`` and a complex quotient, the
        smaller of the ceilings of its real and imaginary parts (so ``arange(1+2j, 5)``
        and ``arange(0, 5+0j)`` are empty, as NumPy's). Values are ``start``, ``start +
        step`` and then ``start + i * delta`` computed in the result dtype (for complex,
        each part in the part's dtype) with ``delta = dtype(start + step) -
        dtype(start)``, as NumPy does (float16/bfloat16 compute in float32). Under
        ``jit`` this is an ``iota`` (times ``delta``, plus ``start`` when those are not 1
        and 0).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        An argument is traced (the message names ``arange`` and the argument).
    ZeroDivisionError
        ``step`` is a Python 0 (a NumPy zero divides as NumPy's scalars do: its warning,
        then ValueError).
    ValueError
        The length is NaN or beyond int64, or its byte size overflows int64.
    MemoryError
        The result needs more bytes than the machine's memory.
    TypeError
        bool ``dtype`` with more than 2 elements, or a Python complex quotient with a
        real ``dtype``, as in NumPy.
    NotImplementedError
        ``like`` given.
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
    dt = _dtype_arg(dtype) or _arange_dtype((start, stop, step))
    n = max(0, _length(start, stop, step, dt.kind == "c"))
    check_array_size("arange", (n,), dt, argname=length_from)
    if dt == np.bool_ and n > 2:
        raise TypeError("xnp.arange: arange() is only supported for booleans when the result "
                        "has at most length 2.")
    if dt.kind in "biu" and n:
        # NumPy stores the first two values itself (its item assignment: a float is taken
        # through int(), and a value out of the dtype's range raises OverflowError), then
        # fills the rest in the dtype's arithmetic (which wraps)
        head = np.empty(min(n, 2), dt)
        try:
            for i in range(len(head)):
                v = start if i == 0 else start + step
                head[i] = v.item() if isinstance(v, np.generic) else v  # (as a Python number)
        except OverflowError as e:
            raise OverflowError(f"xnp.arange: {e}") from None
        if dt == np.bool_:
            return core.lift(head)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # (warned above)
        pair = np.array([start, start + step]).astype(dt)  # NumPy writes these two itself
    want = pair[:min(n, 2)]
    if dt.kind == "c":  # each part a real range in the part's dtype, as NumPy's fill loop
        part = pair.real.dtype
        with np.errstate(all="ignore"):
            delta = pair[1] - pair[0]  # (componentwise in the part's dtype)
        re, re_head = _line(pair[0].real, delta.real, n, part)
        im, im_head = _line(pair[0].imag, delta.imag, n, part)
        head = np.empty(len(re_head), dt)
        head.real, head.imag = re_head, im_head
        return _with_head(lax.complex(re, im), head, want)
    # narrow floats (float16; ml_dtypes' bfloat16/float8, kind "V" or "f") step in float32
    calc = dt if dt.kind not in "fV" or dt.itemsize >= 4 else np.dtype(np.float32)
    with np.errstate(all="ignore"):
        first = np.array(start).astype(dt).astype(calc)
        delta = np.array(start + step).astype(dt).astype(calc) - first
    out, head = _line(first, delta, n, calc)
    if calc != dt:
        out = lax.convert_element_type(out, dt)
        with np.errstate(all="ignore"):
            head = head.astype(dt)
    return _with_head(out, head, want)


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
