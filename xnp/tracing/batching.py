"""Batching: ``BatchTrace`` carries a batched value and the axis it is batched on.

Each primitive's batching rule (``Primitive(batch=...)``) has the signature
``batch(vals, dims, **params) -> (out, out_dim)`` (lists for
``multiple_results``): ``dims[i]`` is the batch axis of ``vals[i]`` or None
when that operand is not batched; the rule computes on the enclosing trace.
Tracers under vmap are abstract: ``bool()`` of a batched value raises
``TracerBoolConversionError``.
"""

from __future__ import annotations

from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray

__all__ = ["BatchTrace", "BatchTracer", "batch_call", "batch_call_dims", "batched_value",
           "register_batch_ops",
           "not_mapped", "moveaxis", "broadcast_batched", "sum_batched"]

not_mapped = None

# xnp.lax operations (xnp.lax._transform_ops), which the tracing layer may not import:
# xnp._wiring.connect sets them here
_OPS: dict = dict.fromkeys(("moveaxis", "broadcast", "sum_axis"), errors.not_connected(
    "the batch-axis operations of xnp.tracing.batching", "batching.register_batch_ops"))


def register_batch_ops(*, moveaxis, broadcast, sum_axis) -> None:
    """Set ``moveaxis(x, src, dst)``, ``broadcast(x, size, axis)`` and ``sum_axis(x, axis)``
    (from ``xnp.lax``)."""
    _OPS["moveaxis"] = moveaxis
    _OPS["broadcast"] = broadcast
    _OPS["sum_axis"] = sum_axis


def moveaxis(x, src: int, dst: int):
    if src == dst:
        return x
    return _OPS["moveaxis"](x, src, dst)


def broadcast_batched(x, size: int, axis: int):
    """Insert a new axis of length ``size`` at ``axis`` (an unbatched value made batched)."""
    return _OPS["broadcast"](x, size, axis)


def sum_batched(x, axis: int):
    """Sum over the batch axis ``axis`` (the cotangent of a value broadcast along it)."""
    return _OPS["sum_axis"](x, axis)


def batched_value(x, trace, axis: int, size: int):
    """``x``, a value of the function run under the BatchTrace ``trace``, as a value of the
    caller with its batch axis at ``axis``: a batched tracer's value moved there, anything
    else (the same for every example) broadcast along it."""
    if isinstance(x, BatchTracer) and x._trace is trace:
        if x.batch_dim is not None:
            return moveaxis(x.val, x.batch_dim, axis)
        x = x.val
    return broadcast_batched(x, size, axis)


class BatchTracer(core.Tracer):
    """A value batched along ``batch_dim`` (None: the same for every batch member);
    ``src``: the user line that created it (None for an argument of the function)."""

    __slots__ = ("val", "batch_dim", "src")
    _type_name = "VmapTracer"

    def __init__(self, trace, val, batch_dim, src=None):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim
        self.src = src
        self.view_of = None
        self._annotations = None
        if core._SCOPES_ON[0]:  # made while an inner grad/vmap function runs: it may fill it
            core._NOTE_CREATED[0](self)

    @property
    def aval(self):
        a = core.aval_of(self.val)
        if self.batch_dim is None:
            return a
        shape = a.shape[: self.batch_dim] + a.shape[self.batch_dim + 1:]
        return ShapedArray(shape, a.dtype, a.weak_type)

    def __repr__(self):
        return f"VmapTracer(aval={self.aval}, batched={core.aval_of(self.val)})"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self)

    def _origin_message(self) -> str:
        dbg = self._trace.fun_where or self._trace.fun_name
        return (f"The error occurred while tracing the function {dbg} for vmap: values "
                "differ between batch members, so Python cannot branch on them.")



class BatchTrace(core.Trace):
    """vmap's trace: rules compute batched results on the parent trace."""

    transformation = "vmap"

    def __init__(self, parent: core.Trace, axis_size: int, fun_name: str = "<fun>",
                 fun_where: str | None = None):
        self.parent = parent
        self.axis_size = axis_size
        self.level = core.next_level()
        self.fun_name = fun_name
        self.fun_where = fun_where  # "f at file.py:3", for the message of a leaked tracer

    def const_tracer(self, value) -> BatchTracer:
        """A tracer of this trace standing for the constant ``value`` (unbatched)."""
        return BatchTracer(self, *self.to_val_dim(value), core.source_info())

    def to_val_dim(self, x):
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.batch_dim
        return x, None

    def process_primitive(self, prim, args, params):
        top = core.find_top_trace(self, args)
        if top is not self:
            return top.process_primitive(prim, args, params)
        vals, dims = [], []
        for a in args:
            v, d = self.to_val_dim(a)
            vals.append(v)
            dims.append(d)
        with core.set_current_trace(self.parent):
            if all(d is None for d in dims):
                if self.axis_size == 0 and getattr(prim, "checks_values", False):
                    # a check of values (lax.runtime_error/runtime_warning: it only raises
                    # or warns, and returns its operand) of a function run for no batch
                    # member checks nothing, also on values that do not depend on the batch
                    return vals[0]
                return prim.bind(*vals, **params)
            if prim.batch is None:
                raise NotImplementedError(
                    f"xnp.vmap: batching of primitive '{prim.name}' is not implemented yet.")
            out, out_dim = prim.batch(vals, dims, **params)
        src = core.source_info()  # the user line, for the message of a leaked tracer
        if prim.multiple_results:
            return [BatchTracer(self, o, d, src) for o, d in zip(out, out_dim)]
        return BatchTracer(self, out, out_dim, src)


def batch_call(fun, args, in_dims, axis_size: int, out_dims_fn, fun_name="<fun>",
               out_names=None, fun_where=None):
    """Run ``fun(*args)`` (flat) batched: ``in_dims[i]`` is the batch axis of ``args[i]``.

    ``out_dims_fn(n_outputs)`` gives the requested output axes (None = unbatched,
    which requires the output not to depend on the batch). Returns the outputs
    with their batch axes moved to the requested positions. ``out_names()`` (optional)
    names the outputs in messages (``output['a']``; default ``output i``); ``fun_where``
    (``f at file.py:3``) names the function in the message of a tracer that leaks.

    Raises
    ------
    ValueError
        An output is batched but its axis is None, or an axis is out of range for the
        mapped output's rank.
    """
    outs = _run_batched(fun, args, in_dims, axis_size, fun_name, fun_where)

    def out_name(i):
        return out_names()[i] if out_names is not None else f"output {i}"

    results = []
    for i, ((v, d), want) in enumerate(zip(outs, out_dims_fn(len(outs)))):
        if want is None:
            if d is not None:
                raise ValueError(
                    f"xnp.vmap: {out_name(i)} of {fun_name} is batched but out_axes is None "
                    "for it; only outputs that do not depend on the mapped inputs may use "
                    "out_axes=None.")
            results.append(v)
            continue
        aval = core.aval_of(v)
        nd = aval.ndim + (1 if d is None else 0)
        if not -nd <= want < nd:
            unbatched = aval if d is None else ShapedArray(
                aval.shape[:d] + aval.shape[d + 1:], aval.dtype)
            raise ValueError(
                f"xnp.vmap: out_axes={want} is out of range for {out_name(i)} of {fun_name}: "
                f"it is {errors.aval_str(unbatched)} per batch member, so the mapped output "
                f"has rank {nd} and out_axes must be in [{-nd}, {nd}).")
        want = want % nd if want < 0 else want
        if d is None:
            results.append(broadcast_batched(v, axis_size, want))
        else:
            results.append(moveaxis(v, d, want))
    return results


def batch_call_dims(fun, args, in_dims, axis_size: int, fun_name="<fun>"):
    """Like :func:`batch_call`, but outputs keep whether they are batched: returns
    ``(outs, dims)`` with batched outputs' axes moved to 0 (dim 0) and unbatched
    outputs as they are (dim None)."""
    outs = _run_batched(fun, args, in_dims, axis_size, fun_name)
    return ([v if d is None else moveaxis(v, d, 0) for v, d in outs],
            [None if d is None else 0 for _, d in outs])


def _run_batched(fun, args, in_dims, axis_size, fun_name, fun_where=None):
    """``fun(*args)`` on a new BatchTrace; the outputs as (value, batch axis) pairs."""
    trace = BatchTrace(core.current_trace(), axis_size, fun_name, fun_where)
    try:
        tracers = [BatchTracer(trace, a, d) if d is not None else a for a, d in zip(args, in_dims)]
        with core.set_current_trace(trace):
            outs = fun(*tracers)
        return [trace.to_val_dim(o) for o in outs]
    finally:
        trace.alive = False

