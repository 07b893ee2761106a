"""Lowering rules of ``reduce_sum``/``reduce_prod``/``cumsum``/``cumprod`` on float16:
NumPy's float16 accumulation order, so a jitted float16 sum agrees with NumPy's to
float16 rounding where a plain float16 (or float32) reduction would not.

NumPy's float16 loops (what the eager NumPy backend runs) work like this:

* ``cumsum``/``cumprod`` (``ufunc.accumulate``) round to float16 after every step:
  ``out[i] = float16(float32(out[i-1]) + float32(x[i]))``. A long cumulative sum
  stalls once the step falls below half an ulp of the running total (the sum of
  10^4 numbers near 0.5 stops at 2048). The rule is a sequential ``scan`` along the
  axis with that step; since float32 holds the exact sum or product of two float16
  values, each step is the correctly rounded float16 result, as in NumPy.
* ``sum``/``prod`` reduce the innermost run of reduced axes (in memory order; a jit
  input is C-contiguous, so the trailing axes that are all reduced) in float32 (sum:
  pairwise, prod: sequential) and round once; every other reduced axis is accumulated
  step by step, rounding to float16 after each step (``out = float16(float32(out) +
  partial)``). The rule reduces the trailing run with a float32 ``stablehlo.reduce``
  (XLA's order: equal to NumPy's up to float32 rounding) and scans the other reduced
  axes in C order.

Axes of length 1 are ignored in finding the trailing run, as NumPy's iterator drops
them. The rules are lax functions inlined into the module (``lower_fun``).
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.tracing import core
from xnp.tracing.jaxpr_transforms import trace_flat

__all__ = ["lower_fun", "F16", "numpy_reduce", "reduce_rule", "cumulative_rule"]

F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_STEP = {"sum": lax.add, "prod": lax.mul}
_IDENTITY = {"sum": 0, "prod": 1}


def lower_fun(ctx, fun, *values):
    """Inline the lax function ``fun(*values) -> list`` here."""
    closed = trace_flat(lambda *xs: list(fun(*xs)), [v.aval for v in values], name="float16")
    consts = [ctx.constant(np.asarray(c._value if type(c) is core.Array else c))
              for c in closed.consts]
    return ctx.lower_jaxpr(closed.jaxpr, consts, list(values))


def _full(shape, value, dtype):
    return lax.broadcast_in_dim(core.lift(np.asarray(value, dtype)), tuple(shape), ())


def _steps(kind: str, x, reverse: bool = False, *, running: bool = False):
    """Sequential float16 accumulation over the leading axis of ``x`` (float16 or
    float32 partials): ``(total, every step)``, each rounded to float16. ``running``: a
    running sum starts from -0.0, the identity that keeps the first element's sign
    (NumPy's cumsum), where a reduction starts from NumPy's +0.0."""
    step = _STEP[kind]
    first = -0.0 if running and kind == "sum" else _IDENTITY[kind]
    init = _full(core.aval_of(x).shape[1:], first, F16)

    def body(c, xi):
        c = lax.convert_element_type(step(lax.convert_element_type(c, _F32),
                                          lax.convert_element_type(xi, _F32)), F16)
        return c, c

    return lax.scan(body, init, x, reverse=reverse)


def _to_front(x, axes):
    """``x`` with ``axes`` (in order) moved to the front and merged into one."""
    shape = core.aval_of(x).shape
    rest = [d for d in range(len(shape)) if d not in axes]
    if list(axes) + rest != list(range(len(shape))):
        x = lax.transpose(x, tuple(axes) + tuple(rest))
    return lax.reshape(x, (math.prod(shape[d] for d in axes),) + tuple(shape[d] for d in rest))


def numpy_reduce(kind: str, x, axes):
    """float16 ``sum``/``prod`` of ``x`` over ``axes`` in NumPy's order (module docstring)."""
    shape = core.aval_of(x).shape
    inner = []
    for d in reversed(range(len(shape))):
        if shape[d] == 1:
            continue
        if d not in axes:
            break
        inner.append(d)
    ones = [d for d in axes if shape[d] == 1]
    first = sorted(inner + ones)
    reduce = lax.reduce_sum if kind == "sum" else lax.reduce_prod
    part = reduce(lax.convert_element_type(x, _F32), tuple(first)) if first else x
    outer = [d for d in axes if d not in first]
    if not outer:
        return lax.convert_element_type(part, F16)
    kept = [d for d in range(len(shape)) if d not in first]  # part's axes
    total, _ = _steps(kind, _to_front(part, [kept.index(d) for d in outer]))
    return total


def reduce_rule(ctx, kind: str, x, axes):
    """The lowering of float16 ``reduce_sum``/``reduce_prod`` (``kind``: sum/prod)."""
    return lower_fun(ctx, lambda v: [numpy_reduce(kind, v, axes)], x)


def cumulative_rule(ctx, kind: str, x, axis: int, reverse: bool):
    """The lowering of float16 ``cumsum``/``cumprod`` (``kind``: sum/prod) along an axis
    of length at least 2."""
    nd = x.aval.ndim

    def fun(v):
        perm = (axis,) + tuple(d for d in range(nd) if d != axis)
        moved = lax.transpose(v, perm) if axis else v
        _, ys = _steps(kind, moved, reverse, running=True)
        return [lax.transpose(ys, tuple(int(i) for i in np.argsort(perm))) if axis else ys]

    return lower_fun(ctx, fun, x)
