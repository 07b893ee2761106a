"""Reductions with a body and windowed reductions: generic ``reduce`` (a scalar body
jaxpr folded over ``dimensions``), generic ``reduce_window`` and the monoid windows
``reduce_window_sum``, ``reduce_window_max`` and ``reduce_window_min``.

Params of the window primitives (canonical tuples of Python ints, one entry per
operand dimension): ``window_dimensions`` (>= 1), ``window_strides`` (>= 1),
``padding`` (``(low, high)`` pairs, >= 0), ``base_dilation`` and
``window_dilation`` (>= 1). Output dim: with the operand dim ``n`` dilated to
``(n - 1) * base + 1`` (0 if ``n == 0``) and padded, and the window extent
``(w - 1) * window_dilation + 1``, it is ``(padded - extent) // stride + 1``
(0 when the window does not fit). Padding and base-dilation holes hold the
identity (``init_value`` for the generic forms).

Bodies (``computation``) are closed jaxprs of scalars: ``(acc..., x...) -> acc...``
with one entry per operand; they must be associative and ``init_value`` must be
their identity, as in XLA (the order in which elements are combined is
unspecified). Semantics on NaN follow NumPy: ``reduce_window_max``/``min``
propagate NaN, as ``numpy.max`` does.

Transformation rules: ``reduce_window_sum`` is linear (its transpose is a
window sum of the stride-dilated, padded cotangent, as in JAX). The jvp of
``reduce_window_max``/``min`` picks the tangent at the first extremum of each
window (the first NaN if there is one), built from strided window slices
(``pad``/``reshape`` only). The generic ``reduce``'s jvp is JAX's: the jvp of a
pairwise tree reduction written with lax ops and the batched body, so reverse
mode works too. The generic ``reduce_window``'s jvp reduces (primal, tangent)
pairs with the body's jvp (forward mode only: it has no transpose). Both batch
(with unbatched init values).
"""

from __future__ import annotations

import itertools
import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import reductions, shape_ops
from xnp.lax.reductions import reduction_identity
from xnp.lax.padding import pad
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing import ad, batching
from xnp.tracing.ad import Zero, instantiate, tangent_aval
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from xnp.tracing.jaxpr_transforms import jvp_jaxpr, trace_flat

__all__ = [
    "reduce", "reduce_window", "reduce_window_sum", "reduce_window_max", "reduce_window_min",
    "padtype_to_pads",
    "reduce_p", "reduce_window_p", "reduce_window_sum_p", "reduce_window_max_p",
    "reduce_window_min_p",
]


# --------------------------------------------------------------------------- helpers


def _avals_str(*avals: ShapedArray) -> str:
    return ", ".join(errors.aval_str(a) for a in avals)


def _dilate(n: int, d: int) -> int:
    return 0 if n == 0 else (n - 1) * d + 1


def _window_out_shape(name, x: ShapedArray, window_dimensions, window_strides, padding,
                      base_dilation, window_dilation) -> tuple[int, ...]:
    nd = x.ndim
    for what, vals in (("window_dimensions", window_dimensions),
                       ("window_strides", window_strides), ("padding", padding),
                       ("base_dilation", base_dilation), ("window_dilation", window_dilation)):
        if len(vals) != nd:
            raise ValueError(f"xnp.lax.{name}: `{what}`={vals} needs one entry per dimension of "
                             f"the operand {errors.aval_str(x)}.")
    for what, vals in (("window_dimensions", window_dimensions),
                       ("window_strides", window_strides), ("base_dilation", base_dilation),
                       ("window_dilation", window_dilation)):
        if any(v < 1 for v in vals):
            raise ValueError(f"xnp.lax.{name}: `{what}`={vals} must be >= 1 (operand "
                             f"{errors.aval_str(x)}).")
    if any(lo < 0 or hi < 0 for lo, hi in padding):
        raise ValueError(f"xnp.lax.{name}: `padding`={padding} must be non-negative (operand "
                         f"{errors.aval_str(x)}).")
    out = []
    for n, w, s, (lo, hi), bd, wd in zip(x.shape, window_dimensions, window_strides, padding,
                                          base_dilation, window_dilation):
        padded = _dilate(n, bd) + lo + hi
        extent = _dilate(w, wd)
        out.append(0 if padded < extent else (padded - extent) // s + 1)
    return tuple(out)


def _int_tuple(name: str, what: str, values, nd: int, default=None) -> tuple[int, ...]:
    if values is None:
        return (default,) * nd
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(f"xnp.lax.{name}: `{what}` must be a sequence of ints, got "
                        f"{values!r}") from None


def _pairs(name: str, padding) -> tuple[tuple[int, int], ...]:
    try:
        return tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (TypeError, ValueError):
        raise TypeError(f"xnp.lax.{name}: `padding` must be a sequence of (low, high) int pairs "
                        f"or 'SAME'/'VALID', got {padding!r}") from None


def padtype_to_pads(in_shape, window_shape, window_strides, padding: str):
    """``(low, high)`` pairs for the padding names ``"VALID"`` (none) and ``"SAME"``
    (output size ``ceil(n / stride)``, extra padding at the high end), as in JAX."""
    kind = padding.upper()
    if kind == "VALID":
        return tuple((0, 0) for _ in in_shape)
    if kind == "SAME":
        pads = []
        for n, w, s in zip(in_shape, window_shape, window_strides):
            out = -(-n // s)
            total = max((out - 1) * s + w - n, 0)
            pads.append((total // 2, total - total // 2))
        return tuple(pads)
    raise ValueError(f"xnp.lax: unknown padding name {padding!r}; use 'SAME' or 'VALID'.")


def _window_params(name, aval: ShapedArray, window_dimensions, window_strides, padding,
                   base_dilation, window_dilation) -> dict:
    nd = aval.ndim
    wdims = _int_tuple(name, "window_dimensions", window_dimensions, nd)
    strides = _int_tuple(name, "window_strides", window_strides, nd, 1)
    bdil = _int_tuple(name, "base_dilation", base_dilation, nd, 1)
    wdil = _int_tuple(name, "window_dilation", window_dilation, nd, 1)
    if isinstance(padding, str):
        if any(d != 1 for d in bdil + wdil):
            raise ValueError(f"xnp.lax.{name}: padding {padding!r} needs unit dilations; give "
                             "explicit (low, high) pairs.")
        pads = padtype_to_pads(aval.shape, wdims, strides, padding)
    else:
        pads = _pairs(name, padding)
    return dict(window_dimensions=wdims, window_strides=strides, padding=pads,
                base_dilation=bdil, window_dilation=wdil)


def strided_window_slice(x, starts, strides, counts):
    """``x[start_0 : : stride_0][:count_0, ...]`` per dimension: ``counts[d]`` elements from
    ``starts[d]`` (which may be negative or run past the end: those positions read 0)
    every ``strides[d]``. Written with ``pad`` and ``reshape`` only, so it has every
    transformation rule (the crops are ``pad`` with negative edges)."""
    a = core.aval_of(x)
    zero = np.zeros((), a.dtype)
    edges = tuple((-st, st + c * s - n, 0) for n, st, s, c in zip(a.shape, starts, strides, counts))
    if any(e != (0, 0, 0) for e in edges):
        x = pad(x, zero, edges)
    if all(s == 1 or c == 0 for s, c in zip(strides, counts)):
        return x
    split = []
    keep = []
    for s, c in zip(strides, counts):
        split += [c, s]
        keep += [(0, 0, 0), (0, 1 - s, 0)]
    x = pad(shape_ops.reshape(x, tuple(split)), zero, tuple(keep))
    return shape_ops.reshape(x, tuple(counts))


def _window_slices(x, fill, params, out_shape):
    """The operand padded/dilated with ``fill`` and cut into one strided slice (of the
    output's shape) per window position, in row-major window order."""
    a = core.aval_of(x)
    config = tuple((lo, hi, bd - 1) for (lo, hi), bd in zip(params["padding"],
                                                              params["base_dilation"]))
    if any(c != (0, 0, 0) for c in config):
        x = pad(x, np.asarray(fill, a.dtype), config)
    strides = params["window_strides"]
    slices = []
    for offset in itertools.product(*[range(w) for w in params["window_dimensions"]]):
        starts = tuple(o * wd for o, wd in zip(offset, params["window_dilation"]))
        slices.append(strided_window_slice(x, starts, strides, out_shape))
    return slices


def _check_body(name, closed: ClosedJaxpr, operands, inits):
    k = len(operands)
    want = [ShapedArray((), a.dtype) for a in operands]
    ins = [a.strip_weak_type() for a in closed.in_avals]
    outs = [a.strip_weak_type() for a in closed.out_avals]
    if ins != want + want or outs != want:
        raise TypeError(
            f"xnp.lax.{name}: `computation` must map {2 * k} scalars ({_avals_str(*want)} twice) "
            f"to {k} of the same dtypes; its jaxpr maps ({_avals_str(*closed.in_avals)}) to "
            f"({_avals_str(*closed.out_avals)}).")
    for x, i in zip(operands, inits):
        if i.ndim != 0 or i.dtype != x.dtype:
            raise TypeError(f"xnp.lax.{name}: init values must be scalars of the operands' "
                            f"dtypes, got {_avals_str(*inits)} for operands "
                            f"{_avals_str(*operands)}.")


def _trace_computation(name, computation, dtypes) -> ClosedJaxpr:
    """Trace ``computation(acc..., x...)`` on scalars into a closed jaxpr (flat outputs)."""
    k = len(dtypes)
    avals = [ShapedArray((), dt) for dt in dtypes] * 2

    def flat(*args):
        if k == 1:
            out = computation(args[0], args[1])
        else:
            out = computation(tuple(args[:k]), tuple(args[k:]))
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        # a weakly typed output of the right dtype (a Python scalar literal) is made strong
        return [ew.convert_element_type(o, dt) if core.aval_of(o).dtype == dt
                and core.aval_of(o).weak_type else o for o, dt in zip(outs, dtypes)]

    closed = trace_flat(flat, avals, getattr(computation, "__name__", "computation"), name)
    for c in closed.consts:
        if isinstance(c, core.Tracer):
            raise TypeError(
                f"xnp.lax.{name}: `computation` closes over a traced value; a reduction body "
                "may depend only on its arguments (and constants).")
    return closed


def _as_list(x):
    return (list(x), True) if isinstance(x, (tuple, list)) else ([x], False)


def _same_operand_shapes(name, operands):
    for o in operands[1:]:
        if o.shape != operands[0].shape:
            raise TypeError(f"xnp.lax.{name}: operands must have equal shapes, got "
                            f"{_avals_str(*operands)}.")


# --------------------------------------------------------------------------- generic reduce


def _reduce_abstract(*args, computation, dimensions):
    k = len(args) // 2
    operands, inits = args[:k], args[k:]
    if len(args) != 2 * k or k == 0:
        raise TypeError(f"xnp.lax.reduce: needs operands and one init value per operand, got "
                        f"{_avals_str(*args)}.")
    _same_operand_shapes("reduce", operands)
    _check_body("reduce", computation, operands, inits)
    kit.check_axes("reduce", operands[0], dimensions, "dimensions")
    shape = tuple(n for i, n in enumerate(operands[0].shape) if i not in dimensions)
    weak = all(a.weak_type for a in operands)
    return [ShapedArray(shape, a.dtype, weak) for a in operands]


def _dual_body(closed: ClosedJaxpr) -> ClosedJaxpr:
    """A body over (acc_p..., acc_t..., x_p..., x_t...) from ``closed``'s jvp: reducing
    (primal, tangent) pairs with it gives the primal and tangent results together."""
    k = len(closed.out_avals)
    jj = jvp_jaxpr(closed, [True] * (2 * k))  # inputs: acc_p, x_p, acc_t, x_t
    j = jj.jaxpr
    order = list(range(k)) + list(range(2 * k, 3 * k)) + list(range(k, 2 * k)) + list(
        range(3 * k, 4 * k))
    return ClosedJaxpr(Jaxpr(j.constvars, [j.invars[i] for i in order], j.eqns, j.outvars,
                             j.debug_info), jj.consts)


def _tangents_or_zero(outs, dual_outs):
    k = len(outs)
    res = []
    for o, t in zip(outs, dual_outs[k:]):
        a = core.aval_of(o)
        res.append(Zero(tangent_aval(a)) if a.dtype not in kit.INEXACT else t)
    return res


def _apply_body(closed: ClosedJaxpr, args) -> list:
    """The scalar body applied elementwise to equal-shaped arrays (batched over their
    flattened elements, so any body with batching rules works)."""
    shape = core.aval_of(args[0]).shape
    size = 1
    for d in shape:
        size *= d
    flat = [shape_ops.reshape(a, (size,)) for a in args]
    outs = batching.batch_call(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), flat,
                               [0] * len(flat), size, lambda n: [0] * n, "reduce computation")
    return [shape_ops.reshape(o, shape) for o in outs]


def _reduce_jvp(primals, tangents, *, computation, dimensions):
    """As JAX: the jvp of a pairwise tree reduction written with lax ops and the (batched)
    body, so the tangent is made of the body's linear tangent ops (transposable: reverse
    mode works whenever the body's primitives have transpose rules)."""
    k = len(primals) // 2
    outs = reduce_p.bind(*primals, computation=computation, dimensions=dimensions)
    if any(type(t) is not Zero for t in tangents[k:]):
        raise NotImplementedError("xnp.lax.reduce: differentiation with respect to the init "
                                  "values is not supported (they must be identities).")
    xs, inits = primals[:k], primals[k:]
    a = core.aval_of(xs[0])
    kept = tuple(i for i in range(a.ndim) if i not in dimensions)
    rest = tuple(a.shape[i] for i in kept)
    n = r = 1
    for d in dimensions:
        n *= a.shape[d]
    for d in rest:
        r *= d
    if n == 0:
        return outs, [Zero(tangent_aval(core.aval_of(o))) for o in outs]
    perm = tuple(dimensions) + kept

    def flat(v):
        if type(v) is Zero:
            return Zero(v.aval.update(shape=(n, r)))
        return shape_ops.reshape(v, (n, r), perm)

    def tree(*vals):
        vals, m = list(vals), n
        while m > 1:
            if m % 2:
                vals = [pad(v, i, ((0, 1, 0), (0, 0, 0))) for v, i in zip(vals, inits)]
                m += 1
            half = m // 2
            left = [strided_window_slice(v, (0, 0), (2, 1), (half, r)) for v in vals]
            right = [strided_window_slice(v, (1, 0), (2, 1), (half, r)) for v in vals]
            vals, m = _apply_body(computation, left + right), half
        return [shape_ops.reshape(v, rest) for v in vals]

    _, t_outs = ad.jvp_call(tree, [flat(x) for x in xs], [flat(t) for t in tangents[:k]])
    return outs, [Zero(tangent_aval(core.aval_of(o))) if core.aval_of(o).dtype not in
                  kit.INEXACT else t for o, t in zip(outs, t_outs)]


def _reduce_batch(vals, dims, *, computation, dimensions):
    k = len(vals) // 2
    if any(d is not None for d in dims[k:]):
        raise NotImplementedError("xnp.lax.reduce: batching over the init values is not "
                                  "supported; pass the same init value for every batch member.")
    size = R.batch_size(vals, dims)
    xs = [shape_ops.bdim_to_front(v, d, size) for v, d in zip(vals[:k], dims[:k])]
    new_dims = tuple(d + 1 for d in dimensions)
    outs = reduce_p.bind(*xs, *vals[k:], computation=computation, dimensions=new_dims)
    return outs, [0] * k


reduce_p = kit.primitive("reduce", abstract_eval=_reduce_abstract, jvp=_reduce_jvp,
                     batch=_reduce_batch, multiple_results=True,
                     weak_type=lambda *weak, **params: all(weak[: len(weak) // 2]))


_MONOIDS = {"add": "sum", "mul": "prod", "max": "max", "min": "min", "and_": "and",
            "or_": "or", "xor": "xor"}
_MONOID_REDUCERS = {"sum": reductions.reduce_sum, "prod": reductions.reduce_prod,
                    "max": reductions.reduce_max, "min": reductions.reduce_min,
                    "and": reductions.reduce_and, "or": reductions.reduce_or,
                    "xor": reductions.reduce_xor}


def _monoid_kind(computation, x_aval, init):
    """The reduction kind when ``computation`` is a lax monoid and ``init`` its identity."""
    name = getattr(computation, "__name__", None)
    kind = _MONOIDS.get(name) if getattr(ew, name or "", None) is computation else None
    if kind is None:
        return None
    dt = x_aval.dtype
    if type(init) is Array:
        value = init._value
    elif isinstance(init, (np.ndarray, np.generic)) or core.is_python_scalar(init):
        value = np.asarray(init)
    else:
        return None
    if not core.is_python_scalar(init) and value.dtype != dt:
        return None  # a dtype mismatch is left to the generic rule's error
    if (kind in ("sum", "prod") and dt in kit.BOOL) or (
            kind in ("and", "or", "xor") and dt not in kit.INT_OR_BOOL) or (
            kind in ("max", "min") and dt in kit.COMPLEX):
        return None
    ident = reduction_identity(kind, dt)
    with np.errstate(all="ignore"):
        same = value.shape == () and np.asarray(value).astype(dt).tobytes() == ident.tobytes()
    return kind if same else None


def _lift_init(init, dtype):
    """A Python scalar init value becomes a 0-d value of ``dtype``; arrays keep their dtype
    (a mismatch is the shape/dtype rule's TypeError)."""
    if core.is_python_scalar(init):
        return core.lift(np.asarray(init, dtype))
    if isinstance(init, (np.ndarray, np.generic)):
        return core.lift(np.asarray(init))
    return init


def reduce(operands, init_values, computation, dimensions):  # noqa: A001
    """Reduce ``operands`` over ``dimensions`` with the scalar body ``computation``.

    ``operands`` is an array or a tuple/list of arrays of one shape; ``init_values``
    has the same structure (0-d arrays of the operands' dtypes, or Python scalars,
    which are converted). ``computation(acc, x)`` takes and returns scalars (tuples of them for
    several operands); it must be associative with ``init_values`` as identity, as
    in XLA. It is traced once to a jaxpr (the ``computation`` param). When it is
    ``lax.add``/``mul``/``max``/``min``/``and_``/``or_``/``xor`` with a concrete
    identity as init value, the matching ``reduce_*`` primitive is used instead.

    Shape: the operands' shape without ``dimensions``; dtypes: the operands'.
    Differentiable in ``operands`` (forward and reverse mode, through the body's
    own rules), not in ``init_values``; batches with unbatched init values.

    Raises
    ------
    TypeError
        Shapes or dtypes of operands, init values and the body do not agree.
    ValueError
        ``dimensions`` repeated or out of range.
    """
    xs, multi = _as_list(operands)
    inits, _ = _as_list(init_values)
    if len(inits) != len(xs):
        raise TypeError(f"xnp.lax.reduce: {len(xs)} operands but {len(inits)} init values.")
    avals = [core.aval_of(x) for x in xs]
    dims = tuple(sorted(operator.index(d) for d in dimensions))
    if len(xs) == 1:
        kind = _monoid_kind(computation, avals[0], inits[0])
        if kind is not None:
            out = _MONOID_REDUCERS[kind](xs[0], dims)
            return (out,) if multi else out
    inits = [_lift_init(i, a.dtype) for i, a in zip(inits, avals)]
    closed = _trace_computation("reduce", computation, [a.dtype for a in avals])
    outs = reduce_p.bind(*xs, *inits, computation=closed, dimensions=dims)
    return tuple(outs) if multi else outs[0]


# --------------------------------------------------------------------------- reduce_window


def _generic_window_abstract(*args, computation, **params):
    k = len(args) // 2
    operands, inits = args[:k], args[k:]
    if len(args) != 2 * k or k == 0:
        raise TypeError(f"xnp.lax.reduce_window: needs operands and one init value per operand, "
                        f"got {_avals_str(*args)}.")
    _same_operand_shapes("reduce_window", operands)
    _check_body("reduce_window", computation, operands, inits)
    shape = _window_out_shape("reduce_window", operands[0], **params)
    weak = all(a.weak_type for a in operands)
    return [ShapedArray(shape, a.dtype, weak) for a in operands]


def _generic_window_jvp(primals, tangents, *, computation, **params):
    k = len(primals) // 2
    outs = reduce_window_p.bind(*primals, computation=computation, **params)
    if any(type(t) is not Zero for t in tangents[k:]):
        raise NotImplementedError("xnp.lax.reduce_window: differentiation with respect to the "
                                  "init values is not supported (they must be identities).")
    ts = [instantiate(t) for t in tangents[:k]]
    zeros = [np.zeros((), core.aval_of(x).dtype) for x in primals[:k]]
    dual = reduce_window_p.bind(*primals[:k], *ts, *primals[k:], *zeros,
                                computation=_dual_body(computation), **params)
    return outs, _tangents_or_zero(outs, dual)


def _batched_window_params(params, d):
    """Window params with a unit window inserted at the batch axis ``d``."""
    def ins(t, v):
        return t[:d] + (v,) + t[d:]

    return dict(window_dimensions=ins(params["window_dimensions"], 1),
                window_strides=ins(params["window_strides"], 1),
                padding=ins(params["padding"], (0, 0)),
                base_dilation=ins(params["base_dilation"], 1),
                window_dilation=ins(params["window_dilation"], 1))


def _generic_window_batch(vals, dims, *, computation, **params):
    k = len(vals) // 2
    if any(d is not None for d in dims[k:]):
        raise NotImplementedError("xnp.lax.reduce_window: batching over the init values is not "
                                  "supported; pass the same init value for every batch member.")
    size = R.batch_size(vals, dims)
    xs = [shape_ops.bdim_to_front(v, d, size) for v, d in zip(vals[:k], dims[:k])]
    outs = reduce_window_p.bind(*xs, *vals[k:], computation=computation,
                                **_batched_window_params(params, 0))
    return outs, [0] * k


reduce_window_p = kit.primitive("reduce_window", abstract_eval=_generic_window_abstract,
                            jvp=_generic_window_jvp, batch=_generic_window_batch,
                            multiple_results=True,
                            weak_type=lambda *weak, **params: all(weak[: len(weak) // 2]))


_WINDOW_MONOIDS = {"add": "sum", "max": "max", "min": "min"}


def reduce_window(operand, init_value, computation, window_dimensions, window_strides,
                  padding, base_dilation=None, window_dilation=None):
    """Reduce every window of ``operand`` with the scalar body ``computation``.

    ``operand`` is an array or a tuple/list of arrays of one shape, ``init_value``
    the matching scalar(s): the identity of ``computation`` (also the value of the
    padding and base-dilation holes). ``padding`` is a sequence of ``(low, high)``
    pairs or ``"SAME"``/``"VALID"``; strides and dilations default to 1. With
    ``lax.add``/``max``/``min`` and a concrete identity init value, the monoid
    primitives (``reduce_window_sum``/``max``/``min``) are used. Output shape: see
    the module docstring; dtypes: the operands'. A generic body differentiates in
    forward mode only (``jvp``); the monoid forms also in reverse mode.

    Raises
    ------
    TypeError
        Operand/init/body shapes or dtypes disagree; non-int window params.
    ValueError
        Window params of the wrong length or out of range.
    """
    xs, multi = _as_list(operand)
    inits, _ = _as_list(init_value)
    if len(inits) != len(xs):
        raise TypeError(f"xnp.lax.reduce_window: {len(xs)} operands but {len(inits)} init "
                        "values.")
    avals = [core.aval_of(x) for x in xs]
    params = _window_params("reduce_window", avals[0], window_dimensions, window_strides,
                            padding, base_dilation, window_dilation)
    if len(xs) == 1:
        kind = _monoid_kind(computation, avals[0], inits[0])
        if kind in ("sum", "max", "min"):
            prim = {"sum": reduce_window_sum_p, "max": reduce_window_max_p,
                    "min": reduce_window_min_p}[kind]
            out = prim.bind(xs[0], **params)
            return (out,) if multi else out
    inits = [_lift_init(i, a.dtype) for i, a in zip(inits, avals)]
    closed = _trace_computation("reduce_window", computation, [a.dtype for a in avals])
    outs = reduce_window_p.bind(*xs, *inits, computation=closed, **params)
    return tuple(outs) if multi else outs[0]


# --------------------------------------------------------------------------- monoid windows


def _monoid_window(name, accept, linear=False, **rules):
    def shape(x, **params):
        return _window_out_shape(name, x, **params)

    def dtype(x, **params):
        kit.check_dtype(name, x, accept)
        return x.dtype

    def batch(vals, dims, **params):
        (x,), (d,) = vals, dims
        return prim.bind(x, **_batched_window_params(params, d)), d

    prim = kit.primitive(name, shape=shape, dtype=dtype, batch=batch, linear=linear, **rules)
    return prim


def _dilated_shape(shape, dilation):
    return tuple(_dilate(n, d) for n, d in zip(shape, dilation))


def _reduce_window_sum_transpose(ct, x, *, window_dimensions, window_strides, padding,
                                 base_dilation, window_dilation):
    # JAX's rule: pad the cotangent (stride-dilated) so that a window sum with strides
    # `base_dilation` gives the operand's shape; the all-ones window is symmetric.
    in_shape = R.aval(x).shape
    ct_shape = core.aval_of(ct).shape
    in_dil = _dilated_shape(in_shape, base_dilation)
    win_dil = _dilated_shape(window_dimensions, window_dilation)
    out_dil = _dilated_shape(ct_shape, window_strides)
    config = []
    for n_in, n_w, n_out, (lo, _), s in zip(in_dil, win_dil, out_dil, padding, window_strides):
        before = n_w - lo - 1
        after = n_in + n_w - 1 - n_out - before
        config.append((before, after, s - 1))
    dt = core.aval_of(ct).dtype
    padded = pad(ct, np.zeros((), dt), tuple(config))
    nd = len(in_shape)
    res = reduce_window_sum_p.bind(padded, window_dimensions=window_dimensions,
                                   window_strides=base_dilation, padding=((0, 0),) * nd,
                                   base_dilation=(1,) * nd, window_dilation=window_dilation)
    return [res]


reduce_window_sum_p = _monoid_window("reduce_window_sum", kit.NUMERIC, linear=True,
                                     jvp=R.linear_unary_jvp,
                                     transpose=R.zero_ct_passthrough(_reduce_window_sum_transpose))


@R.rule_kit
def _chooser_window_jvp(prim, kind):
    better = ew.gt if kind == "max" else ew.lt

    def jvp(primals, tangents, **params):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, **params)
        a = core.aval_of(x)
        out_shape = core.aval_of(out).shape
        xs = _window_slices(x, reduction_identity(kind, a.dtype), params, out_shape)
        ts = _window_slices(t, 0, params, out_shape)
        best, tb = xs[0], ts[0]
        for xk, tk in zip(xs[1:], ts[1:]):
            take = better(xk, best)
            if a.dtype in kit.INEXACT:  # the first NaN wins, as NaN wins the primal
                take = ew.or_(take, ew.and_(ew.ne(xk, xk), ew.eq(best, best)))
            best = ew.select(take, xk, best)
            tb = ew.select(take, tk, tb)
        return out, tb

    return jvp


reduce_window_max_p = _monoid_window("reduce_window_max", kit.REAL_OR_BOOL,
                                     jvp=_chooser_window_jvp("max"))
reduce_window_min_p = _monoid_window("reduce_window_min", kit.REAL_OR_BOOL,
                                     jvp=_chooser_window_jvp("min"))


def _monoid_wrapper(prim, name, operand, window_dimensions, window_strides, padding,
                    base_dilation, window_dilation):
    params = _window_params(name, core.aval_of(operand), window_dimensions, window_strides,
                            padding, base_dilation, window_dilation)
    return prim.bind(operand, **params)


def reduce_window_sum(operand: Array, window_dimensions, window_strides=None, padding="VALID",
                      base_dilation=None, window_dilation=None) -> Array:
    """Sum over every window of ``operand`` (numeric; padding counts as 0).

    Window params as :func:`reduce_window` (strides default to 1, padding to
    ``"VALID"``). Dtype: ``operand.dtype`` (no accumulation upcast).
    """
    return _monoid_wrapper(reduce_window_sum_p, "reduce_window_sum", operand, window_dimensions,
                           window_strides, padding, base_dilation, window_dilation)


def reduce_window_max(operand: Array, window_dimensions, window_strides=None, padding="VALID",
                      base_dilation=None, window_dilation=None) -> Array:
    """Maximum over every window (real or bool); NaN propagates as in ``numpy.max``;
    padding holds the dtype's lowest value (``-inf`` for floats)."""
    return _monoid_wrapper(reduce_window_max_p, "reduce_window_max", operand, window_dimensions,
                           window_strides, padding, base_dilation, window_dilation)


def reduce_window_min(operand: Array, window_dimensions, window_strides=None, padding="VALID",
                      base_dilation=None, window_dilation=None) -> Array:
    """Minimum over every window (real or bool); NaN propagates; padding holds the
    dtype's highest value (``inf`` for floats)."""
    return _monoid_wrapper(reduce_window_min_p, "reduce_window_min", operand, window_dimensions,
                           window_strides, padding, base_dilation, window_dilation)
