"""Automatic differentiation: ``jvp`` (forward mode), ``linearize``, ``vjp`` and
``grad`` (reverse mode, by transposing the linearized function).

Forward mode runs a :class:`JVPTrace`: each primitive's jvp rule computes the
output tangent from primal and tangent inputs; primals are computed on the
enclosing trace, so under ``grad``/``jvp`` (outside ``jit``) they are concrete
and Python control flow on them works.

``linearize`` uses the same trace with tangents that are tracers of a staging
trace nested inside it: the tangent computation is recorded as a linear jaxpr
whose constants (residuals) are primal values. ``vjp`` transposes that jaxpr
(:func:`backward_pass`): equations that depend only on constants are evaluated
forward, linear ones are transposed in reverse order with their transpose rules.

Rules live with each primitive (``Primitive(jvp=..., transpose=...)``):

* ``jvp(primals, tangents, **params) -> (primal_out, tangent_out)``; tangents
  may be :class:`Zero` (symbolic zeros); return ``Zero`` when the output tangent
  is zero. For ``multiple_results`` primitives both are lists.
* ``transpose(cts, *args, **params) -> list`` of cotangents, one per argument
  (None for non-linear arguments); linear arguments arrive as
  :class:`UndefinedPrimal` carrying only their aval; ``cts`` is the output
  cotangent (a list for ``multiple_results``), possibly :class:`Zero`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import Jaxpr, Literal

__all__ = ["Zero", "UndefinedPrimal", "JVPTrace", "JVPTracer", "jvp_call", "linearize_call",
           "backward_pass", "register_tangent_ops", "instantiate", "add_tangents",
           "is_undefined_primal", "zeros_like_aval"]


class Zero:
    """A symbolic zero tangent or cotangent of a known aval."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"Zero({self.aval.str_short()})"


class UndefinedPrimal:
    """A linear input of a transpose rule: only its aval is known."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined_primal(x) -> bool:
    return type(x) is UndefinedPrimal


# add/zeros/convert are xnp.lax operations (xnp.lax._transform_ops), which the tracing layer
# may not import: xnp._wiring.connect sets them here
_OPS: dict = dict.fromkeys(("add", "zeros", "convert"), errors.not_connected(
    "the tangent arithmetic of xnp.tracing.ad", "ad.register_tangent_ops"))


def register_tangent_ops(*, add: Callable, zeros: Callable, convert: Callable) -> None:
    """Set the tangent arithmetic: ``add(x, y)``, ``zeros(aval)`` and ``convert(x, aval)``
    (to ``aval``'s dtype and weak type) (from ``xnp.lax``)."""
    _OPS["add"] = add
    _OPS["zeros"] = zeros
    _OPS["convert"] = convert


def convert_tangent(x, aval: ShapedArray):
    """``x`` converted to ``aval``'s dtype and weak type."""
    return _OPS["convert"](x, aval)


def zeros_like_aval(aval: ShapedArray):
    return _OPS["zeros"](aval)


def instantiate(t, aval: ShapedArray | None = None):
    """A concrete array for a tangent (zeros for ``Zero``)."""
    if type(t) is Zero:
        return _OPS["zeros"](t.aval)
    return t


def add_tangents(a, b):
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return _OPS["add"](a, b)


def is_differentiable_aval(aval: ShapedArray) -> bool:
    """Inexact (floating or complex) values carry tangents; integers and bools do not."""
    return aval.dtype.kind in "fc" or aval.dtype.name in ("bfloat16", "float8_e4m3fn",
                                                        "float8_e5m2")


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """Tangents of inexact values have the primal's dtype (never weak)."""
    return aval.strip_weak_type()


def _value_repr(x) -> str:
    if type(x) is core.Array:
        v = x._value
        return repr(v.item()) if v.ndim == 0 else np.array2string(v, separator=", ")
    return repr(x)


class JVPTracer(core.Tracer):
    """A primal value and its tangent under ``jvp`` (or ``grad`` with ``linearize=True``);
    ``src``: the user line that created it (None for an argument of the function)."""

    __slots__ = ("primal", "tangent", "src")

    def __init__(self, trace, primal, tangent, src=None):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent
        self.src = src
        self.view_of = None
        self._annotations = None
        if core._SCOPES_ON[0]:  # made while an inner grad/vmap function runs: it may fill it
            core._NOTE_CREATED[0](self)

    @property
    def _type_name(self) -> str:
        return "GradTracer" if self._trace.linearizing else "JVPTracer"

    @property
    def aval(self):
        return core.aval_of(self.primal)

    def to_concrete_value(self):
        p = self.primal
        if type(p) is core.Array:
            return p._value
        if isinstance(p, core.Tracer):
            return p.to_concrete_value()
        return np.asarray(p)

    def _origin_message(self) -> str:
        p = self.primal
        return p._origin_message() if isinstance(p, core.Tracer) else ""

    def __repr__(self):
        p = _value_repr(self.primal)
        if self._trace.linearizing:
            t = self.tangent
            ta = t.aval if hasattr(t, "aval") else core.aval_of(t)
            return f"GradTracer(primal={p}, typeof(tangent)={ta.str_short()})"
        t = "Zero" if type(self.tangent) is Zero else _value_repr(self.tangent)
        return f"JVPTracer(primal={p}, tangent={t})"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self)



class JVPTrace(core.Trace):
    """Forward-mode trace: primals on the parent trace, tangents by jvp rules."""

    def __init__(self, parent: core.Trace, linearizing: bool = False):
        self.parent = parent
        self.level = core.next_level()
        self.linearizing = linearizing
        self.transformation = "grad" if linearizing else "jvp"

    def const_tracer(self, value) -> JVPTracer:
        """A tracer of this trace standing for the constant ``value`` (zero tangent)."""
        return JVPTracer(self, *self.to_primal_tangent(value), core.source_info())

    def to_primal_tangent(self, x):
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        return x, Zero(tangent_aval(core.aval_of(x)))

    def process_primitive(self, prim, args, params):
        top = core.find_top_trace(self, args)
        if top is not self:
            return top.process_primitive(prim, args, params)
        primals, tangents = [], []
        for a in args:
            p, t = self.to_primal_tangent(a)
            primals.append(p)
            tangents.append(t)
        with core.set_current_trace(self.parent):
            if all(type(t) is Zero for t in tangents):
                return prim.bind(*primals, **params)
            if prim.differentiable is not True:
                out = prim.bind(*primals, **params)
                outs = out if prim.multiple_results else [out]
                zeros = [Zero(tangent_aval(core.aval_of(o))) for o in outs]
                return self._wrap(prim, out, zeros if prim.multiple_results else zeros[0])
            if prim.jvp is None:
                raise NotImplementedError(
                    f"xnp: differentiation of primitive '{prim.name}' is not implemented yet.")
            primal_out, tangent_out = prim.jvp(primals, tangents, **params)
        return self._wrap(prim, primal_out, tangent_out)

    def _wrap(self, prim, primal_out, tangent_out):
        src = core.source_info()  # the user line, for the message of a leaked tracer
        if prim.multiple_results:
            return [JVPTracer(self, p, t, src) for p, t in zip(primal_out, tangent_out)]
        return JVPTracer(self, primal_out, tangent_out, src)


def _check_tangent(i, p, t):
    pa, ta = core.aval_of(p), core.aval_of(t)
    if pa.shape != ta.shape:
        raise ValueError(f"xnp.jvp: primal {i} has shape {pa.shape} but its tangent has shape "
                         f"{ta.shape}")
    if pa.dtype != ta.dtype and not (pa.dtype.kind in "biu"):
        raise TypeError(f"xnp.jvp: primal {i} has dtype {pa.dtype} but its tangent has dtype "
                        f"{ta.dtype}; tangent dtypes must equal primal dtypes")


def jvp_call(fun, primals, tangents):
    """Run ``fun(*primals)`` (flat) under a JVPTrace; returns (primal_outs, tangent_outs)."""
    trace = JVPTrace(core.current_trace())
    tangents = list(tangents)
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if type(t) is not Zero:
            _check_tangent(i, p, t)
            if not is_differentiable_aval(core.aval_of(p)):
                tangents[i] = Zero(tangent_aval(core.aval_of(p)))  # ints/bools: no tangent
    try:
        in_tracers = [JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        with core.set_current_trace(trace):
            outs = fun(*in_tracers)
        p_out, t_out = [], []
        for o in outs:
            p, t = trace.to_primal_tangent(o)
            p_out.append(p)
            t_out.append(t)
    finally:
        trace.alive = False
    return p_out, t_out


def linearize_call(fun, primals, debug_info):
    """Run ``fun(*primals)`` (flat) with staged tangents.

    Returns ``(primal_outs, lin_jaxpr, lin_consts, out_zero, in_nz)``: ``lin_jaxpr`` maps
    the tangents of the inputs with ``in_nz`` (inexact inputs; integer and bool inputs
    have none) to output tangents (consts = residuals); ``out_zero[i]`` is True when
    output ``i``'s tangent is identically zero (it is not an output of the jaxpr).
    """
    from xnp.tracing.partial_eval import DynamicJaxprTrace  # noqa: PLC0415

    trace = JVPTrace(core.current_trace(), linearizing=True)
    tangent_trace = DynamicJaxprTrace(debug_info)
    try:
        tangents = [tangent_trace.new_arg(tangent_aval(core.aval_of(p)))
                    if is_differentiable_aval(core.aval_of(p)) else
                    Zero(tangent_aval(core.aval_of(p))) for p in primals]
        in_tracers = [JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        with core.set_current_trace(trace):
            outs = fun(*in_tracers)
        p_out, t_out, out_zero = [], [], []
        for o in outs:
            p, t = trace.to_primal_tangent(o)
            p_out.append(p)
            out_zero.append(type(t) is Zero)
            if type(t) is not Zero:
                t_out.append(tangent_trace.to_tracer(t))
        closed = tangent_trace.to_jaxpr(t_out)
    finally:
        trace.alive = False
        tangent_trace.alive = False
    in_nz = [type(t) is not Zero for t in tangents]
    return p_out, closed.jaxpr, closed.consts, out_zero, in_nz


def backward_pass(jaxpr: Jaxpr, consts, cts_out):
    """Transpose ``jaxpr`` (linear in its invars) applied to ``cts_out``.

    Returns one cotangent per invar (``Zero`` where none flowed). Equations whose
    inputs are all non-linear are evaluated forward first (they compute values the
    linear equations need); the rest are transposed in reverse order.
    """
    env: dict = {}
    linear = set(jaxpr.invars)
    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c

    def read(v):
        return v.val if type(v) is Literal else env[v]

    lin_eqns = []
    for eqn in jaxpr.eqns:
        if any(type(v) is not Literal and v in linear for v in eqn.invars):
            lin_eqns.append(eqn)
            linear.update(eqn.outvars)
        else:
            outs = eqn.primitive.bind(*[read(v) for v in eqn.invars], **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            for v, o in zip(eqn.outvars, outs):
                env[v] = o

    ct_env: dict = {}

    def add_ct(v, ct):
        if type(v) is Literal or v not in linear or ct is None or type(ct) is Zero:
            return
        prev = ct_env.get(v)
        ct_env[v] = ct if prev is None else add_tangents(prev, ct)

    for v, ct in zip(jaxpr.outvars, cts_out):
        add_ct(v, ct)
    for eqn in reversed(lin_eqns):
        cts = [ct_env.pop(v, None) for v in eqn.outvars]
        cts = [Zero(v.aval.strip_weak_type()) if c is None else c for v, c in zip(eqn.outvars, cts)]
        if all(type(c) is Zero for c in cts):
            continue
        prim = eqn.primitive
        if prim.transpose is None:
            raise NotImplementedError(
                f"xnp: reverse-mode differentiation through primitive '{prim.name}' is not "
                "implemented (it has no transpose rule).")
        args = [UndefinedPrimal(v.aval) if (type(v) is not Literal and v in linear) else read(v)
                for v in eqn.invars]
        ct_arg = cts if prim.multiple_results else cts[0]
        cts_in = prim.transpose(ct_arg, *args, **eqn.params)
        for v, ct in zip(eqn.invars, cts_in):
            add_ct(v, ct)
    return [ct_env.get(v, Zero(v.aval.strip_weak_type())) for v in jaxpr.invars]
