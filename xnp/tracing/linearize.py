"""Splitting a closed jaxpr into its primal and linear parts (reverse mode of the call
and control-flow primitives: ``jit_p``'s jvp here in the tracing layer, and ``cond``/
``while``/``scan``'s in :mod:`xnp.lax.control_flow`)."""

from __future__ import annotations

from xnp.tracing import ad, core
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Literal, eval_jaxpr
from xnp.tracing.jaxpr_transforms import closure_convert, trace_flat
from xnp.tracing.partial_eval import DebugInfo, DynamicJaxprTrace, JitTracer

__all__ = ["Linearized", "linearize_jaxpr", "differentiable", "fix_aval", "jaxpr_name",
           "internal_trace"]


def jaxpr_name(closed: ClosedJaxpr) -> str:
    dbg = closed.jaxpr.debug_info
    return getattr(dbg, "func_name", None) or "body"


def internal_trace(fun, in_avals, name: str, transformation: str):
    """Trace an internal function of the rules (flat in, flat list out) abstractly:
    ``(jaxpr with consts as leading invars, consts)``."""
    return closure_convert(trace_flat(fun, list(in_avals), name, transformation))


def differentiable(aval: ShapedArray) -> bool:
    """Only floating and complex values carry tangents (integer/bool ones are zero)."""
    return ad.is_differentiable_aval(aval)


def fix_aval(x, aval: ShapedArray):
    """``x`` (a value, or a symbolic ``Zero``: instantiated) with exactly ``aval``'s dtype
    and weak type (a ``convert_element_type`` where they differ)."""
    if type(x) is Zero:
        x = ad.instantiate(Zero(aval.strip_weak_type()))
    xa = core.aval_of(x)
    if xa == aval:
        return x
    return ad.convert_tangent(x, aval)


class Linearized:
    """A body split for reverse mode (see :func:`linearize_jaxpr`).

    ``known``: ClosedJaxpr (consts folded in as leading invars, values in
    ``known_consts``) mapping the body's inputs to (primal outputs..., computed
    residuals...). ``lin``: ClosedJaxpr (no consts) mapping (residuals...,
    nonzero tangents...) to the output tangents where ``out_nz``. ``res_kinds[i]``
    says where residual ``i`` comes from: ``("invar", k)`` the body's input ``k``,
    ``("const", value)`` a concrete value, ``("computed", j)`` computed output ``j``.
    """

    __slots__ = ("known", "known_consts", "lin", "out_nz", "res_kinds", "n_computed")

    def __init__(self, known, known_consts, lin, out_nz, res_kinds):
        self.known = known
        self.known_consts = known_consts
        self.lin = lin
        self.out_nz = out_nz
        self.res_kinds = res_kinds
        self.n_computed = sum(1 for k in res_kinds if k[0] == "computed")

    @property
    def res_avals(self):
        return [v.aval for v in self.lin.jaxpr.invars[: len(self.res_kinds)]]

    def residuals(self, inputs, computed):
        """Residual values from the body's input values and the computed residuals."""
        out = []
        for kind in self.res_kinds:
            if kind[0] == "invar":
                out.append(inputs[kind[1]])
            elif kind[0] == "const":
                out.append(kind[1])
            else:
                out.append(computed[kind[1]])
        return out


def linearize_jaxpr(closed: ClosedJaxpr, nonzeros, instantiate, hoistable=None) -> Linearized:
    """Split ``closed`` into a known (primal) part and a linear (tangent) part.

    The body runs under a linearizing JVP trace whose primals are staged into the
    known jaxpr and whose tangents are staged into a separate linear jaxpr (as
    ``xnp.linearize`` does); nested control-flow primitives see the same setting and
    split themselves, so nesting works. Tangent outputs are kept for inexact outputs
    that are nonzero or have ``instantiate[i]``. ``hoistable(k)`` says whether input
    ``k`` may be used as a residual directly (else it is output as a computed one).
    """
    in_avals = list(closed.in_avals)
    out_avals = closed.out_avals
    name = jaxpr_name(closed)
    store = {}

    def fun(*primals):
        known_trace = core.current_trace()
        jtrace = ad.JVPTrace(known_trace, linearizing=True)
        ttrace = DynamicJaxprTrace(DebugInfo(name, None, None, [], "linearize"))
        try:
            tangents = [ttrace.new_arg(ad.tangent_aval(a)) if nz else Zero(ad.tangent_aval(a))
                        for a, nz in zip(in_avals, nonzeros)]
            tracers = [ad.JVPTracer(jtrace, p, t) for p, t in zip(primals, tangents)]
            with core.set_current_trace(jtrace):
                outs = eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
            p_out, t_out, out_nz = [], [], []
            with core.set_current_trace(ttrace):
                for o, inst, a in zip(outs, instantiate, out_avals):
                    p, t = jtrace.to_primal_tangent(o)
                    p_out.append(p)
                    keep = differentiable(a) and (inst or type(t) is not Zero)
                    out_nz.append(keep)
                    if keep:
                        t_out.append(ttrace.to_tracer(fix_aval(t, ad.tangent_aval(a))))
            lin = ttrace.to_jaxpr(t_out)
        finally:
            jtrace.alive = False
            ttrace.alive = False
        positions = {v: k for k, v in enumerate(known_trace.invars)}
        kinds, computed = [], []
        for r in lin.consts:
            if isinstance(r, JitTracer) and r._trace is known_trace:
                if type(r.val) is Literal:
                    kinds.append(("const", core.Array(r.val.val, r.val.aval.weak_type)))
                    continue
                k = positions.get(r.val)
                if k is not None and (hoistable is None or hoistable(k)):
                    kinds.append(("invar", k))
                    continue
                kinds.append(("computed", len(computed)))
                computed.append(r)
            else:
                kinds.append(("const", r))
        store["lin"] = closure_convert(lin)[0]
        store["out_nz"] = out_nz
        store["kinds"] = kinds
        return p_out + computed

    known, known_consts = internal_trace(fun, in_avals, name, "linearize")
    return Linearized(known, known_consts, store["lin"], store["out_nz"], store["kinds"])
