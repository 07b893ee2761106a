"""Lowering rules of the body and window reductions: ``stablehlo.reduce`` /
``stablehlo.reduce_window`` with the body jaxpr lowered into the region.

NumPy semantics where XLA's could differ: ``reduce_window_max``/``min`` select a
NaN operand explicitly in the region (XLA's vectorized CPU reductions may drop
NaN from ``maximum``/``minimum``, see ``lowering/reductions.py``); bool windows
reduce with ``or``/``and``. Windows of an empty operand, empty outputs and rank-0
operands are built without a reduce_window (the init value broadcast, or one
application of the body).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import (comparison_type, i64_array, lower_jaxpr_body,
                                             lowering)
from xnp.lax import _kit as kit
from xnp.lax.reductions import reduction_identity
from xnp.tracing import core
from xnp.tracing.avals import ShapedArray

__all__ = ["window_reduce", "binop", "compare", "select", "nan_aware_extremum",
           "extremum_combine"]

def binop(b, name, x, y):
    return b.op(name, [x, y], [x.aval])[0]


def compare(b, x, y, direction, ctype=None):
    attrs = (f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
             f"compare_type = #stablehlo<comparison_type "
             f"{ctype or comparison_type(x.aval.dtype)}>")
    return b.op("stablehlo.compare", [x, y], [x.aval.update(dtype=np.dtype(np.bool_),
                                                            weak_type=False)], attrs)[0]


def select(b, pred, x, y):
    return b.op("stablehlo.select", [pred, x, y], [x.aval])[0]


def nan_aware_extremum(hlo_name):
    """A region body: ``hlo_name`` (maximum/minimum) with a NaN operand selected explicitly."""

    def combine(b, p, q):
        m = binop(b, hlo_name, p, q)
        m = select(b, compare(b, q, q, "NE"), q, m)
        return select(b, compare(b, p, p, "NE"), p, m)

    return combine


def extremum_combine(kind: str, dtype):
    """Region body of a max/min reduction of ``dtype`` (NumPy's NaN propagation)."""
    hlo = "stablehlo.maximum" if kind == "max" else "stablehlo.minimum"
    if dtype in kit.BOOL:
        name = "stablehlo.or" if kind == "max" else "stablehlo.and"
        return lambda b, p, q: binop(b, name, p, q)
    if dtype in kit.INEXACT:
        return nan_aware_extremum(hlo)
    return lambda b, p, q: binop(b, hlo, p, q)


def _padding_attr(padding) -> str:
    rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
    return f"dense<[{rows}]> : tensor<{len(padding)}x2xi64>"


def _window_attrs(window_dimensions, window_strides, padding, base_dilation, window_dilation):
    return (f"window_dimensions = {i64_array(window_dimensions)}, "
            f"window_strides = {i64_array(window_strides)}, "
            f"base_dilations = {i64_array(base_dilation)}, "
            f"window_dilations = {i64_array(window_dilation)}, "
            f"padding = {_padding_attr(padding)}")


def window_reduce(ctx, operands, inits, out_avals, body, params):
    """``stablehlo.reduce_window`` of ``operands`` from ``inits`` (Values) with the region
    ``body(builder, *accs, *xs) -> [Values]``; degenerate shapes need no reduce_window."""
    x_aval = operands[0].aval
    if x_aval.size == 0 or any(d == 0 for d in out_avals[0].shape):
        return [ctx.broadcast_in_dim(i, a.shape, ()) for i, a in zip(inits, out_avals)]
    if x_aval.ndim == 0:
        return body(ctx.b, *inits, *operands)
    scalars = [ShapedArray((), o.aval.dtype) for o in operands]
    region = ctx.region(scalars + scalars, body)
    return ctx.ops("stablehlo.reduce_window", list(operands) + list(inits), out_avals,
                   attrs=_window_attrs(**params), regions=[region])


def _jaxpr_region(closed):
    """A region body that lowers the closed body jaxpr (its consts become constants)."""

    def body(b, *args):
        consts = [b.constant(np.asarray(c._value if type(c) is core.Array else c))
                  for c in closed.consts]
        return lower_jaxpr_body(b, closed.jaxpr, consts, args)

    return body


@lowering(lax.reduce_p)
def _lower_reduce(ctx, *args, computation, dimensions):
    k = len(args) // 2
    xs, inits = args[:k], args[k:]
    scalars = [ShapedArray((), x.aval.dtype) for x in xs]
    region = ctx.region(scalars + scalars, _jaxpr_region(computation))
    return ctx.ops("stablehlo.reduce", list(args), ctx.avals_out,
                   attrs=f"dimensions = {i64_array(dimensions)}", regions=[region])


@lowering(lax.reduce_window_p)
def _lower_reduce_window(ctx, *args, computation, **params):
    k = len(args) // 2
    return window_reduce(ctx, args[:k], args[k:], ctx.avals_out, _jaxpr_region(computation),
                         params)


def _monoid(kind):
    def rule(ctx, x, **params):
        dt = x.aval.dtype
        init = ctx.constant(reduction_identity(kind, dt))
        if kind == "sum":
            def combine(b, p, q):
                return binop(b, "stablehlo.add", p, q)
        else:
            combine = extremum_combine(kind, dt)
        return window_reduce(ctx, [x], [init], ctx.avals_out,
                             lambda b, p, q: [combine(b, p, q)], params)

    return rule


lowering(lax.reduce_window_sum_p)(_monoid("sum"))
lowering(lax.reduce_window_max_p)(_monoid("max"))
lowering(lax.reduce_window_min_p)(_monoid("min"))
