"""Transformations of whole jaxprs, the building blocks of the rules of
higher-order primitives (nested ``jit``, ``cond``, ``while``, ``scan``):

* :func:`jvp_jaxpr`: a jaxpr computing primal and tangent outputs;
* :func:`closure_convert`: constants of a body as leading operands;
* :func:`batch_jaxpr`: a jaxpr of the batched computation (batch axes first);
* :func:`transpose_linear`: cotangents of a jaxpr linear in some of its inputs.
"""

from __future__ import annotations

from xnp.tracing import ad, batching
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from xnp.tracing.partial_eval import DebugInfo, trace_to_jaxpr

__all__ = ["jvp_jaxpr", "batch_jaxpr", "transpose_linear", "closure_convert", "trace_flat"]


def trace_flat(fun, in_avals, name: str = "body", transformation: str = "jit") -> ClosedJaxpr:
    """Trace ``fun(*tracers) -> list`` abstractly into a ClosedJaxpr."""
    dbg = DebugInfo(name, None, None, [f"arg{i}" for i in range(len(in_avals))], transformation)
    closed, mutated = trace_to_jaxpr(fun, in_avals, dbg)
    if any(mutated):
        raise NotImplementedError(f"xnp: {name} updates one of its inputs in place; return the "
                                  "new value instead")
    return closed


def closure_convert(closed: ClosedJaxpr):
    """``(jaxpr with constvars moved to the front of the invars, consts)``: how a
    higher-order primitive passes a body's constants as operands."""
    j = closed.jaxpr
    if not j.constvars:
        return closed, []
    new = Jaxpr([], j.constvars + j.invars, j.eqns, j.outvars, j.debug_info)
    return ClosedJaxpr(new, []), list(closed.consts)


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

