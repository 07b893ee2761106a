"""NumPy's comparisons of whole arrays and their elementwise closeness: ``isclose``,
``allclose``, ``array_equal``, ``array_equiv``.

Written on the ufuncs of :mod:`xnp.numpy_api` (NEP 50 promotion and broadcasting are
theirs). The functions NumPy answers with a Python ``bool`` (``allclose``, ``array_equal``,
``array_equiv``) are defined on a 0-d bool array, which ``xnp``'s public functions turn
into a Python ``bool`` eagerly (``_util.returns_python_bool``: replays of the dispatch
cache take its truth in C) and leave a traced bool under ``jit``. ``isclose`` computes
NumPy's formula with NumPy's quiet 'invalid' errors quiet (NumPy runs it under
``errstate(invalid="ignore")``; xnp's eager calls are recorded and replayed, so the
operations themselves avoid those errors; ml_dtypes' bfloat16 and float8 compare in float32,
whose comparison, unlike theirs, is quiet at a NaN).
"""

from __future__ import annotations

import cmath

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import elementwise as _ew
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api._ufunc import _as_dtype
from xnp.numpy_api._util import (asarray_for, aval_for, broadcast_shapes, promote_to,
                                 result_dtype, returns_python_bool, warn)
from xnp.tracing import core, fp_warnings, recording

__all__ = ["isclose", "allclose", "array_equal", "array_equiv"]


def _dtype(x):
    return core.aval_of(x).dtype


def _shape(x):
    return core.aval_of(x).shape


# --------------------------------------------------------------------------- comparisons


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (``numpy.isclose``), also True where
    ``a == b`` (equal infinities); NaN equals NaN only with ``equal_nan``.

    Not symmetric in ``a`` and ``b``, as in NumPy. ``b`` is computed in at least
    float (its dtype promoted with a Python float). Returns a bool array of the
    broadcast shape; shapes that do not broadcast raise ``ValueError``. A non-finite
    ``rtol`` or ``atol`` (numbers) gives NumPy's warning (``numpy.errstate``'s 'invalid');
    NumPy's quiet 'invalid' errors (``inf - inf``, ``0 * inf``) are quiet here too.
    """
    x = a if core.is_python_scalar(a) else asarray_for("isclose", a, "a")
    y = b if core.is_python_scalar(b) else asarray_for("isclose", b, "b")
    if core.is_python_scalar(y):
        y = float(y) if type(y) in (int, bool) else y  # (NumPy's isinstance(y, int))
    elif _dtype(y) not in kit.INEXACT:
        y = _as_dtype("isclose", y, _float_of(_dtype(y)))
    concrete = [_concrete_tolerance(t) for t in (rtol, atol)]
    if all(t is not None for t in concrete) and not all(np.all(np.isfinite(t))
                                                         for t in concrete):
        # (shown as NumPy shows them: a Python number as it is, anything else its array)
        rt, at = (t if type(t) in (int, float, complex) else c
                  for t, c in zip((rtol, atol), concrete))
        _invalid_tolerance(at, rt)
    return _isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _concrete_tolerance(t):
    """A tolerance's values where they are known (numbers, NumPy arrays, lists, eager
    arrays), else None (a traced one: compiled code reports nothing)."""
    if isinstance(t, core.Tracer):
        return None
    try:
        return np.asarray(t)
    except Exception:  # noqa: BLE001  (not an array of values: the comparison raises)
        return None


def _invalid_tolerance(atol, rtol) -> None:
    """NumPy's report of a non-finite tolerance, as ``numpy.errstate``'s 'invalid' says."""
    message = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    setting = fp_warnings.caller_setting("invalid")
    if setting == "warn":
        warn(message, RuntimeWarning)
    elif setting == "raise":
        raise FloatingPointError(message)
    elif setting == "print":
        recording.note_effect("printed")
        print(message)


def _isclose(x, y, *, rtol, atol, equal_nan):
    """:func:`isclose`'s comparison, with none of the 'invalid' errors NumPy computes
    quietly (``inf - inf``, ``0 * inf``): where ``y`` is not finite only ``x == y`` counts,
    so a finite stand-in takes its place; where ``|y|`` is 0 the product ``rtol * |y|`` is
    0, or NaN for a non-finite ``rtol`` (in ``y``'s dtype)."""
    if core.is_python_scalar(y):  # (NumPy's Python arithmetic on a Python y)
        if not cmath.isfinite(y):
            res = _lg.equal(x, y)
        else:
            scaled = rtol * abs(y) if type(rtol) in (int, float) else \
                _ew.multiply(rtol, abs(y))
            res = _lg.equal(x, y)
            # (y in x's dtype may overflow to an infinity: x - y is then NaN where x is
            # that infinity, quietly in NumPy)
            overflows = False
            if not core.is_python_scalar(x):  # (two Python numbers: Python's arithmetic)
                dt, _ = result_dtype(aval_for(x), aval_for(y))
                with np.errstate(over="ignore"):
                    overflows = not np.isfinite(np.asarray(y).astype(dt))
            xs = _ew.where_weak(res, 0, x) if overflows else x
            near = _within(_ew.abs(_ew.subtract(xs, y)), _ew.add(atol, scaled))
            near = _lg.logical_and(near, _lg.logical_not(res)) if overflows else near
            res = _lg.logical_or(near, res)
    else:
        finite = _lg.isfinite(y)
        yf = _ew.where_weak(finite, y, 0)
        ay = _ew.abs(yf)
        zero = _lg.equal(ay, 0)
        scaled = _ew.multiply(rtol, _ew.where_weak(zero, 1, ay))
        dt = _dtype(scaled)
        at_zero = _ew.where_weak(_lg.isfinite(scaled), core.lift(np.zeros((), dt)),
                            core.lift(np.asarray(np.nan, dt)))
        scaled = _ew.where_weak(zero, at_zero, scaled)
        near = _within(_ew.abs(_ew.subtract(x, yf)), _ew.add(atol, scaled))
        res = _lg.logical_or(_lg.logical_and(near, finite), _lg.equal(x, y))
    if equal_nan:
        res = _lg.logical_or(res, _lg.logical_and(_lg.isnan(x), _lg.isnan(y)))
    return res


_F32 = np.dtype(np.float32)


def _within(dist, tol):
    """``dist <= tol``, quietly at a NaN, as NumPy's comparison under its
    ``errstate(invalid="ignore")``: ml_dtypes' own comparison loops (bfloat16, float8; kind
    'V') raise 'invalid' at a NaN where NumPy's float loops do not, so operands of such a
    common dtype are compared in float32, which holds each of their values exactly (each is
    first rounded to that dtype, as NumPy's comparison rounds a Python number)."""
    dt, _ = result_dtype(aval_for(dist), aval_for(tol))
    if dt.kind != "V":
        return _lg.less_equal(dist, tol)
    dist, tol = (lax.convert_element_type(promote_to("isclose", v, dt), _F32)
                 for v in (dist, tol))
    return _lg.less_equal(dist, tol)


def _float_of(dt):
    return np.result_type(dt, 1.0) if dt.kind != "V" else dt


@returns_python_bool
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of :func:`isclose` is True (``numpy.allclose``).

    ``xnp.allclose`` returns a Python bool for eager inputs, as NumPy; under
    ``jit``/``vmap`` a traced 0-d bool array (a Python bool cannot depend on traced data).
    """
    return _rd.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _numpy_array(fname, a, argname):
    """``a`` as ``numpy.asarray`` makes it: a Python scalar at its own default dtype (not
    weak: ``array_equal(int8_array, 300)`` compares with 300, as NumPy)."""
    if core.is_python_scalar(a):
        a = np.asarray(a)
    return asarray_for(fname, a, argname)


def _false():
    return core.lift(np.asarray(False))


@returns_python_bool
def array_equal(a1, a2, equal_nan=False):
    """Whether ``a1`` and ``a2`` have the same shape and elements (``numpy.array_equal``).

    Different shapes give False (decided statically). With ``equal_nan`` NaNs at the
    same places compare equal. Returns a Python bool eagerly (as NumPy); under
    ``jit``/``vmap`` a traced 0-d bool array.
    """
    x, y = _numpy_array("array_equal", a1, "a1"), _numpy_array("array_equal", a2, "a2")
    if _shape(x) != _shape(y):
        return _false()
    eq = _lg.equal(x, y)
    if equal_nan and (_dtype(x) in kit.INEXACT or _dtype(y) in kit.INEXACT):
        eq = _lg.logical_or(eq, _lg.logical_and(_lg.isnan(x), _lg.isnan(y)))
    return _rd.all(eq)


@returns_python_bool
def array_equiv(a1, a2):
    """Whether ``a1`` and ``a2`` broadcast to each other with equal elements
    (``numpy.array_equiv``); non-broadcastable shapes give False. A Python bool eagerly (as
    NumPy); under ``jit``/``vmap`` a traced 0-d bool array."""
    x, y = _numpy_array("array_equiv", a1, "a1"), _numpy_array("array_equiv", a2, "a2")
    try:
        broadcast_shapes("array_equiv", _shape(x), _shape(y))
    except ValueError:
        return _false()
    return _rd.all(_lg.equal(x, y))
