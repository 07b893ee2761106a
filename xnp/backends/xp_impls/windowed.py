"""xp implementations of the body and window reductions (``xnp.lax.windowed``).

Bodies (closed jaxprs of scalars) are interpreted with the xp table itself: when
every equation is elementwise they run once per combining step on whole arrays
(vectorised across the output elements), otherwise element by element.
``reduce`` combines adjacent pairs in a tree (order-preserving, so an associative
body gives XLA's answer), then the init value once. Windows are strided slices of
the operand padded/dilated with the identity (or ``init_value``), combined in
row-major window order.
"""

from __future__ import annotations

import itertools

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.lax.reductions import reduction_identity
from xnp.lax.windowed import _window_out_shape
from xnp.tracing import Primitive, ShapedArray, core
from xnp.tracing.jaxpr import ClosedJaxpr, Literal

__all__ = ["eval_body"]

_ELEMENTWISE = frozenset(v for v in vars(lax.elementwise).values() if isinstance(v, Primitive))


def _native(xp, c):
    return xp.asarray(c._value if type(c) is core.Array else c)


def _inner(eqn):
    """The closed jaxpr a call equation runs (a nested jit's ``jaxpr``, a custom_jvp
    function's ``call_jaxpr``), else None."""
    inner = eqn.params.get("jaxpr", eqn.params.get("call_jaxpr"))
    return inner if isinstance(inner, ClosedJaxpr) else None


def _elementwise(jaxpr) -> bool:
    """Whether every equation of ``jaxpr`` (calls looked into) is elementwise."""
    for e in jaxpr.eqns:
        if e.primitive in _ELEMENTWISE:
            continue
        inner = _inner(e)
        if inner is None or not _elementwise(inner.jaxpr):
            return False
    return True


def _interpret(xp, jaxpr, consts, args) -> list:
    env = {}

    def read(v):
        return xp.asarray(v.val) if type(v) is Literal else env[v]

    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        impl = XP_IMPLS.get(eqn.primitive)
        inner = _inner(eqn)
        if impl is not None:
            outs = impl(xp, *ins, **eqn.params)
        elif inner is not None:  # a nested jit or custom_jvp call: inline it
            outs = _interpret(xp, inner.jaxpr, [_native(xp, c) for c in inner.consts], ins)
        else:
            raise NotImplementedError(
                f"xnp: primitive '{eqn.primitive.name}' cannot be evaluated eagerly inside the "
                "body of a reduction; run the reduction under xnp.jit instead.")
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for v, o in zip(eqn.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def eval_body(xp, closed: ClosedJaxpr, args) -> list:
    """``closed`` (scalars -> scalars) applied elementwise to the equal-shaped ``args``."""
    jaxpr = closed.jaxpr
    consts = [_native(xp, c) for c in closed.consts]
    shape = args[0].shape
    dtypes = [a.dtype for a in closed.out_avals]
    if _elementwise(jaxpr):
        outs = _interpret(xp, jaxpr, consts, args)
        return [xp.broadcast_to(xp.asarray(o).astype(dt, copy=False), shape)
                for o, dt in zip(outs, dtypes)]
    res = [xp.empty(shape, dt) for dt in dtypes]
    for idx in np.ndindex(*shape):
        outs = _interpret(xp, jaxpr, consts, [xp.asarray(a[idx]) for a in args])
        for r, o in zip(res, outs):
            r[idx] = o
    return res


# --------------------------------------------------------------------------- reduce


def _reduce(xp, *args, computation, dimensions):
    k = len(args) // 2
    xs, inits = list(args[:k]), args[k:]
    shape = xs[0].shape
    kept = tuple(i for i in range(len(shape)) if i not in dimensions)
    rest = tuple(shape[i] for i in kept)
    n = 1
    for d in dimensions:
        n *= shape[d]
    xs = [xp.transpose(x, tuple(dimensions) + kept).reshape((n,) + rest) for x in xs]
    if n == 0:
        return [xp.full(rest, i, dtype=x.dtype) for x, i in zip(xs, inits)]
    while n > 1:
        if n % 2:
            xs = [xp.concatenate([x, xp.broadcast_to(i, (1,) + rest).astype(x.dtype)])
                  for x, i in zip(xs, inits)]
            n += 1
        xs = eval_body(xp, computation, [x[0::2] for x in xs] + [x[1::2] for x in xs])
        n //= 2
    start = [xp.broadcast_to(xp.asarray(i, x.dtype), (1,) + rest) for x, i in zip(xs, inits)]
    outs = eval_body(xp, computation, start + list(xs))
    return [xp.array(o.reshape(rest)) for o in outs]


# --------------------------------------------------------------------------- windows


def _dilate_pad(xp, x, fill, padding, base_dilation):
    dilated = [0 if n == 0 else (n - 1) * d + 1 for n, d in zip(x.shape, base_dilation)]
    full = tuple(lo + n + hi for n, (lo, hi) in zip(dilated, padding))
    out = xp.full(full, fill, dtype=x.dtype)
    out[tuple(slice(lo, lo + n, d) for n, (lo, _), d in zip(dilated, padding, base_dilation))] = x
    return out


def _window_positions(params, out_shape):
    """Index tuples (one per window position) of the strided slices of the padded operand."""
    for offset in itertools.product(*[range(w) for w in params["window_dimensions"]]):
        yield tuple(slice(o * wd, o * wd + (m - 1) * s + 1, s) if m else slice(0, 0)
                    for o, wd, s, m in zip(offset, params["window_dilation"],
                                           params["window_strides"], out_shape))


def _reduce_window(xp, *args, computation, **params):
    k = len(args) // 2
    xs, inits = args[:k], args[k:]
    out_shape = _window_out_shape("reduce_window", ShapedArray(xs[0].shape, xs[0].dtype),
                                  **params)
    acc = [xp.full(out_shape, i, dtype=x.dtype) for x, i in zip(xs, inits)]
    if not all(out_shape):
        return acc
    padded = [_dilate_pad(xp, x, i, params["padding"], params["base_dilation"])
              for x, i in zip(xs, inits)]
    for sl in _window_positions(params, out_shape):
        acc = eval_body(xp, computation, list(acc) + [p[sl] for p in padded])
    return [xp.array(a) for a in acc]


def _monoid_window(kind, combine):
    def impl(xp, x, **params):
        out_shape = _window_out_shape("reduce_window", ShapedArray(x.shape, x.dtype), **params)
        ident = reduction_identity(kind, x.dtype)
        acc = xp.full(out_shape, ident, dtype=x.dtype)
        if not all(out_shape):
            return acc
        padded = _dilate_pad(xp, x, ident, params["padding"], params["base_dilation"])
        for sl in _window_positions(params, out_shape):
            acc = getattr(xp, combine)(acc, padded[sl])
        return acc

    return impl


XP_IMPLS[lax.reduce_p] = _reduce
XP_IMPLS[lax.reduce_window_p] = _reduce_window
XP_IMPLS[lax.reduce_window_sum_p] = _monoid_window("sum", "add")
XP_IMPLS[lax.reduce_window_max_p] = _monoid_window("max", "maximum")
XP_IMPLS[lax.reduce_window_min_p] = _monoid_window("min", "minimum")
