"""Lowering rules of the reduction primitives: ``stablehlo.reduce`` with a region.

NumPy semantics where XLA's could differ:

* ``reduce_max``/``reduce_min`` propagate NaN like ``numpy.max``. The region
  selects a NaN operand explicitly: ``stablehlo.maximum`` alone propagates NaN
  elementwise and in small reductions, but XLA's CPU emitter drops NaN in large
  (vectorized) reductions (a 300x517 float64 max over axis 0 returned numbers
  where NumPy returns NaN; tested in ``tests/numpy_api/test_reductions.py``).
* bool max/min reduce with ``or``/``and``.
* float16 ``reduce_sum``/``reduce_prod`` accumulate in NumPy's order (``float16.py``).
* In a module XLA partitions over several devices a float max/min is a plain
  reduction plus an ``or`` reduction of ``x != x`` (see ``_spmd_extremum``).
* ``argmax``/``argmin`` are a variadic reduce over ``(value, index)`` whose
  comparator is symmetric (XLA may combine in any order): NaN beats any number,
  then the larger (smaller) value, and on ties (equal values or two NaN) the lower
  index, so the result is NumPy's first extremum / first NaN.
"""

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering import float16
from xnp.backends.xla.lowering._core import comparison_type, i64_array, lowering
from xnp.lax import _kit as kit
from xnp.lax.reductions import reduction_identity
from xnp.tracing.avals import ShapedArray

__all__ = []

_BOOL = ShapedArray((), bool)


def _compare(b, x, y, direction):
    attrs = (f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
             f"compare_type = #stablehlo<comparison_type {comparison_type(x.aval.dtype)}>")
    return b.op("stablehlo.compare", [x, y], [_BOOL], attrs)[0]


def _binop(b, name, x, y):
    return b.op(name, [x, y], [x.aval])[0]


def _select(b, pred, x, y):
    return b.op("stablehlo.select", [pred, x, y], [x.aval])[0]


def _reduce(ctx, x, axes, kind, combine):
    """``stablehlo.reduce`` of ``x`` over ``axes`` from ``kind``'s identity;
    ``combine(builder, acc, elem) -> Value`` is the region body."""
    if not axes:
        return x
    scalar = ShapedArray((), x.aval.dtype)
    init = ctx.constant(reduction_identity(kind, x.aval.dtype))
    region = ctx.region([scalar, scalar], lambda b, p, q: [combine(b, p, q)])
    return ctx.op("stablehlo.reduce", [x, init], attrs=f"dimensions = {i64_array(axes)}",
                  regions=[region])


def _simple(kind, hlo_name):
    def rule(ctx, x, *, axes):
        if x.aval.dtype == float16.F16 and kind in ("sum", "prod") and axes and x.aval.size:
            return float16.reduce_rule(ctx, kind, x, axes)  # NumPy's float16 order
        return [_reduce(ctx, x, axes, kind, lambda b, p, q: _binop(b, hlo_name, p, q))]

    return rule


for _prim, _kind, _name in [
    (lax.reduce_sum_p, "sum", "stablehlo.add"),
    (lax.reduce_prod_p, "prod", "stablehlo.multiply"),
    (lax.reduce_and_p, "and", "stablehlo.and"),
    (lax.reduce_or_p, "or", "stablehlo.or"),
    (lax.reduce_xor_p, "xor", "stablehlo.xor"),
]:
    lowering(_prim)(_simple(_kind, _name))


def _extremum(kind, hlo_name, bool_name):
    def combine_nan(b, p, q):
        # NumPy's NaN propagation, spelled out: XLA's CPU reduction emitter does not keep
        # maximum/minimum's NaN semantics for large (vectorized) reductions.
        m = _binop(b, hlo_name, p, q)
        m = _select(b, _compare(b, q, q, "NE"), q, m)
        return _select(b, _compare(b, p, p, "NE"), p, m)

    def plain(name):
        return lambda b, p, q: _binop(b, name, p, q)

    def rule(ctx, x, *, axes):
        dt = x.aval.dtype
        if dt in kit.BOOL:
            combine = plain(bool_name)
        elif dt in kit.INEXACT:
            if getattr(ctx.module, "mesh", None) is not None and axes:
                return [_spmd_extremum(ctx, x, axes, kind, hlo_name)]
            combine = combine_nan
        else:
            combine = plain(hlo_name)
        return [_reduce(ctx, x, axes, kind, combine)]

    return rule


def _spmd_extremum(ctx, x, axes, kind, hlo_name):
    """A float max/min in a module XLA partitions: a reduction over a split dimension
    becomes an all-reduce with the same combiner, and XLA's CPU all-reduce rejects the
    NaN-selecting one ("Unsupported reduction computation") and drops NaN with a plain
    maximum/minimum. So: a plain reduction, and NaN where an ``or`` reduction of
    ``x != x`` says the reduced elements held one."""
    m = _reduce(ctx, x, axes, kind, lambda b, p, q: _binop(b, hlo_name, p, q))
    flags = ctx.op("stablehlo.compare", [x, x], x.aval.update(dtype=np.dtype(bool)),
                   "comparison_direction = #stablehlo<comparison_direction NE>, "
                   "compare_type = #stablehlo<comparison_type FLOAT>")
    region = ctx.region([_BOOL, _BOOL], lambda b, p, q: [_binop(b, "stablehlo.or", p, q)])
    any_nan = ctx.op("stablehlo.reduce", [flags, ctx.constant(False)],
                     m.aval.update(dtype=np.dtype(bool), weak_type=False),
                     attrs=f"dimensions = {i64_array(axes)}", regions=[region])
    nans = ctx.broadcast_in_dim(ctx.constant(np.nan, x.aval.dtype), m.aval.shape, ())
    return ctx.op("stablehlo.select", [any_nan, nans, m], m.aval)


lowering(lax.reduce_max_p)(_extremum("max", "stablehlo.maximum", "stablehlo.or"))
lowering(lax.reduce_min_p)(_extremum("min", "stablehlo.minimum", "stablehlo.and"))


def _argminmax(kind, direction):
    def rule(ctx, x, *, axes, index_dtype):
        (axis,) = axes
        (out_aval,) = ctx.avals_out
        val_t = ShapedArray((), x.aval.dtype)
        idx_t = ShapedArray((), index_dtype)
        idx = ctx.op("stablehlo.iota", [], x.aval.update(dtype=index_dtype, weak_type=False),
                     attrs=f"iota_dimension = {axis} : i64")
        init_v = ctx.constant(reduction_identity(kind, x.aval.dtype))
        init_i = ctx.constant(0, index_dtype)
        is_float = x.aval.dtype in kit.INEXACT

        def body(b, av, ai, bv, bi):
            better = _compare(b, av, bv, direction)
            tie = _compare(b, av, bv, "EQ")
            if is_float:
                a_nan = _compare(b, av, av, "NE")
                b_nan = _compare(b, bv, bv, "NE")
                not_b_nan = b.op("stablehlo.not", [b_nan], [_BOOL])[0]
                better = _binop(b, "stablehlo.or", better, _binop(b, "stablehlo.and", a_nan,
                                                                  not_b_nan))
                tie = _binop(b, "stablehlo.or", tie, _binop(b, "stablehlo.and", a_nan, b_nan))
            lower = _compare(b, ai, bi, "LT")
            pick_a = _binop(b, "stablehlo.or", better, _binop(b, "stablehlo.and", tie, lower))
            return [_select(b, pick_a, av, bv), _select(b, pick_a, ai, bi)]

        region = ctx.region([val_t, idx_t, val_t, idx_t], body)
        val_out = out_aval.update(dtype=x.aval.dtype)
        outs = ctx.ops("stablehlo.reduce", [x, idx, init_v, init_i], [val_out, out_aval],
                       attrs=f"dimensions = {i64_array(axes)}", regions=[region])
        return [outs[1]]

    return rule


lowering(lax.argmax_p)(_argminmax("max", "GT"))
lowering(lax.argmin_p)(_argminmax("min", "LT"))
