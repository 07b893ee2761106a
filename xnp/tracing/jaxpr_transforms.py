"""Transformations of whole jaxprs, the building blocks of the rules of
higher-order primitives (nested ``jit``, ``cond``, ``while``, ``scan``):

* :func:`jvp_jaxpr`: a jaxpr computing primal and tangent outputs;
* :func:`partial_eval_jaxpr`: split a jaxpr into the part computable from known
  inputs (plus residuals) and the part that needs the unknown ones;
* :func:`batch_jaxpr`: a jaxpr of the batched computation (batch axes first);
* :func:`transpose_linear`: cotangents of a jaxpr linear in some of its inputs.
"""

from __future__ import annotations

from xnp.tracing import ad, batching, core
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr
from xnp.tracing.partial_eval import DebugInfo, trace_to_jaxpr

__all__ = ["jvp_jaxpr", "partial_eval_jaxpr", "batch_jaxpr", "transpose_linear",
           "closed_call_jaxpr", "trace_flat"]


def trace_flat(fun, in_avals, name: str = "body", transformation: str = "jit") -> ClosedJaxpr:
    """Trace ``fun(*tracers) -> list`` abstractly into a ClosedJaxpr."""
    dbg = DebugInfo(name, None, None, [f"arg{i}" for i in range(len(in_avals))], transformation)
    closed, mutated = trace_to_jaxpr(fun, in_avals, dbg)
    if any(mutated):
        raise NotImplementedError(f"xnp: {name} updates one of its inputs in place; return the "
                                  "new value instead")
    return closed


def closed_call_jaxpr(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The same computation with constvars turned into leading invars (no consts)."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.eqns, j.outvars, j.debug_info), [])


def jvp_jaxpr(closed: ClosedJaxpr, nonzeros) -> ClosedJaxpr:
    """A jaxpr ``(primals..., nonzero tangents...) -> (primal outs..., tangent outs...)``.

    Tangent outputs are always instantiated (zeros where the tangent is symbolically 0).
    """
    in_avals = list(closed.in_avals)
    t_avals = [ad.tangent_aval(a) for a, nz in zip(in_avals, nonzeros) if nz]
    n = len(in_avals)

    def fun(*args):
        primals = list(args[:n])
        it = iter(args[n:])
        tangents = [next(it) if nz else Zero(ad.tangent_aval(a))
                    for a, nz in zip(in_avals, nonzeros)]
        p_out, t_out = ad.jvp_call(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
                                   primals, tangents)
        return list(p_out) + [ad.instantiate(t) for t in t_out]

    return trace_flat(fun, in_avals + t_avals, "jvp_body", "jvp")


def partial_eval_jaxpr(jaxpr: Jaxpr, unknowns):
    """Split ``jaxpr`` (no constvars) by which invars are unknown.

    Returns ``(known, unknown, out_unknown, n_res)``:
    ``known``: known invars -> (known outputs..., residuals...);
    ``unknown``: (residuals..., unknown invars...) -> unknown outputs;
    ``out_unknown[i]``: output ``i`` is produced by ``unknown`` (outputs that depend only
    on known inputs come from ``known``).
    """
    assert not jaxpr.constvars, "internal error in xnp: partial_eval_jaxpr needs no constvars"
    unknown_vars = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    known_eqns, unknown_eqns = [], []
    for eqn in jaxpr.eqns:
        if any(type(v) is not Literal and v in unknown_vars for v in eqn.invars):
            unknown_eqns.append(eqn)
            unknown_vars.update(eqn.outvars)
        else:
            known_eqns.append(eqn)
    out_unknown = [type(v) is not Literal and v in unknown_vars for v in jaxpr.outvars]
    # residuals: known values read by unknown equations
    residuals, seen = [], set()
    for eqn in unknown_eqns:
        for v in eqn.invars:
            if type(v) is not Literal and v not in unknown_vars and v not in seen:
                seen.add(v)
                residuals.append(v)
    known_in = [v for v, u in zip(jaxpr.invars, unknowns) if not u]
    known_out = [v for v, u in zip(jaxpr.outvars, out_unknown) if not u]
    known = Jaxpr([], known_in, known_eqns, known_out + residuals, jaxpr.debug_info)
    res_vars = [Var(v.aval) for v in residuals]
    rename = dict(zip(residuals, res_vars))
    unknown_in = [v for v, u in zip(jaxpr.invars, unknowns) if u]
    unknown_eqns = [_rename_eqn(e, rename) for e in unknown_eqns]
    unknown_out = [rename.get(v, v) if type(v) is not Literal else v
                   for v, u in zip(jaxpr.outvars, out_unknown) if u]
    unknown = Jaxpr([], res_vars + unknown_in, unknown_eqns, unknown_out, jaxpr.debug_info)
    return known, unknown, out_unknown, len(residuals)


def _rename_eqn(eqn, rename):
    from xnp.tracing.jaxpr import JaxprEqn  # noqa: PLC0415

    ins = [rename.get(v, v) if type(v) is not Literal else v for v in eqn.invars]
    return JaxprEqn(eqn.primitive, ins, eqn.params, eqn.outvars, eqn.source_info)


def batch_jaxpr(closed: ClosedJaxpr, dims, axis_size: int) -> ClosedJaxpr:
    """A jaxpr of the batched computation: input ``i`` has its batch axis at ``dims[i]``
    (None: unbatched, same aval); every output has its batch axis first."""
    in_avals = []
    for a, d in zip(closed.in_avals, dims):
        if d is None:
            in_avals.append(a)
        else:
            shape = a.shape[:d] + (axis_size,) + a.shape[d:]
            in_avals.append(ShapedArray(shape, a.dtype, a.weak_type))

    def fun(*args):
        return batching.batch_call(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
                                   list(args), list(dims), axis_size, lambda n: [0] * n)

    return trace_flat(fun, in_avals, "vmap", "vmap")


def transpose_linear(jaxpr: Jaxpr, args, cts):
    """Cotangents for the ``UndefinedPrimal`` entries of ``args`` (invars of ``jaxpr``, which
    has no constvars); known entries are values. Returns one entry per invar (None for
    known ones, Zero where nothing flowed)."""
    linear = [ad.is_undefined_primal(a) for a in args]
    known_vals = [a for a, lin in zip(args, linear) if not lin]
    known_vars = [v for v, lin in zip(jaxpr.invars, linear) if not lin]
    lin_vars = [v for v, lin in zip(jaxpr.invars, linear) if lin]
    j = Jaxpr(known_vars, lin_vars, jaxpr.eqns, jaxpr.outvars, jaxpr.debug_info)
    lin_cts = iter(ad.backward_pass(j, known_vals, cts))
    return [next(lin_cts) if lin else None for lin in linear]


_ = core  # the rules built from these helpers bind on the current trace
