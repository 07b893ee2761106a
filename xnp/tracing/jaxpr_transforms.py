"""Transformations of whole jaxprs, the building blocks of the rules of
higher-order primitives (nested ``jit``, ``cond``, ``while``, ``scan``):

* :func:`jvp_jaxpr`: a jaxpr computing primal and tangent outputs;
* :func:`closure_convert`: constants of a body as leading operands;
* :func:`batch_jaxpr`: a jaxpr of the batched computation (batch axes first);
* :func:`transpose_linear`: cotangents of a jaxpr linear in some of its inputs;
* :func:`discharge_state`: a jaxpr whose refs (:mod:`xnp.tracing.state`) became
  functional updates.
"""

from __future__ import annotations

from xnp.tracing import ad, batching, core
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from xnp.tracing.partial_eval import DebugInfo, trace_to_jaxpr
from xnp.tracing.state import Ref, is_ref_aval, is_state_primitive

__all__ = ["jvp_jaxpr", "batch_jaxpr", "transpose_linear", "closure_convert", "trace_flat",
           "discharge_state", "uses_refs"]


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



def uses_refs(jaxpr) -> bool:
    """Whether ``jaxpr`` (a Jaxpr or ClosedJaxpr) has a ref-typed variable or a state
    primitive (``new_ref``, ``ref_get``, ``ref_swap``, ``ref_addupdate``), also in the
    jaxprs of its equations' params."""
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr = jaxpr.jaxpr
    if any(is_ref_aval(v.aval) for v in jaxpr.constvars + jaxpr.invars + jaxpr.outvars):
        return True
    for e in jaxpr.eqns:
        if is_state_primitive(e.primitive):
            return True
        for value in e.params.values():
            for item in (value if isinstance(value, tuple) else (value,)):
                if isinstance(item, (ClosedJaxpr, Jaxpr)) and uses_refs(item):
                    return True
    return False


def _discharged_params(params):
    """``params`` with each sub-jaxpr (a call's or a custom rule's body) that uses refs
    only internally replaced by its discharged form."""
    new = None
    for k, value in params.items():
        items = value if isinstance(value, tuple) else (value,)
        changed = []
        for item in items:
            if isinstance(item, (ClosedJaxpr, Jaxpr)) and uses_refs(item):
                j = item.jaxpr if isinstance(item, ClosedJaxpr) else item
                if not any(is_ref_aval(v.aval) for v in j.constvars + j.invars):
                    if isinstance(item, ClosedJaxpr):
                        item = discharge_state(item)
                    elif not j.constvars:
                        done = discharge_state(ClosedJaxpr(j, []))
                        item = done.jaxpr if not done.consts else item
            changed.append(item)
        if any(a is not b for a, b in zip(changed, items)):
            new = dict(params) if new is None else new
            new[k] = tuple(changed) if isinstance(value, tuple) else changed[0]
    return params if new is None else new


def _rename_whole_refs(closed: ClosedJaxpr):
    """``discharge_state`` of a jaxpr whose refs are all made in it and only read and
    written whole (the cells of arrays updated in place, ``xnp/numpy_api/_views.py``):
    each read is the value written last, so discharging renames variables and re-traces
    nothing. None when the jaxpr has other state (its general discharge then runs)."""
    from xnp.tracing.jaxpr import JaxprEqn, Literal  # noqa: PLC0415  (local names only)

    j = closed.jaxpr
    if any(is_ref_aval(v.aval) for v in j.constvars + j.invars):
        return None
    value: dict = {}  # ref variable -> the variable it holds
    subst: dict = {}
    eqns = []
    for e in j.eqns:
        ins = [v if type(v) is Literal else subst.get(v, v) for v in e.invars]
        prim = e.primitive
        if is_state_primitive(prim):
            name = prim.name
            if name == "new_ref":
                if type(ins[0]) is Literal:
                    return None
                value[e.outvars[0]] = ins[0]
                continue
            ref = ins[0]
            if name not in ("ref_get", "ref_swap") or ref not in value or not (
                    e.params["indexer"].is_whole(ref.aval.shape)):
                return None
            old = value[ref]
            if old.aval != e.outvars[0].aval:
                return None
            subst[e.outvars[0]] = old
            if name == "ref_swap":
                if type(ins[1]) is Literal or ins[1].aval != old.aval:
                    return None
                value[ref] = ins[1]
            continue
        if any(is_ref_aval(v.aval) for v in ins) or _discharged_params(e.params) is not e.params:
            return None
        eqns.append(e if ins == e.invars else JaxprEqn(prim, ins, e.params, e.outvars,
                                                        e.source_info))
    outvars = [v if type(v) is Literal else subst.get(v, v) for v in j.outvars]
    if any(is_ref_aval(v.aval) for v in outvars):
        return None
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, eqns, outvars, j.debug_info), closed.consts)


def discharge_state(closed: ClosedJaxpr, should_discharge=None) -> ClosedJaxpr:
    """``closed`` with its refs turned into functional updates.

    Every ``new_ref`` becomes its initial value and every read and write a functional
    ``dynamic_slice``/``dynamic_update_slice`` (basic indices) or ``gather``/``scatter``
    (integer arrays), in program order, by each state primitive's ``discharge`` rule.
    ``should_discharge[i]`` (default: every ref input) marks ref inputs (invars) that
    become inputs of the referenced array's aval; their final values are appended to the
    outputs, in input order. Ref constvars stay refs (their consts are the caller's).

    Raises
    ------
    TypeError
        An output of ``closed`` is a ref.
    """
    j = closed.jaxpr
    for v in j.outvars:
        if is_ref_aval(v.aval):
            raise TypeError(f"xnp: a function returns a ref ({v.aval}); refs cannot leave the "
                            "function that made them: return ref_get(ref) instead")
    if should_discharge is None:
        should_discharge = [is_ref_aval(v.aval) for v in j.invars]
    should_discharge = [bool(d) and is_ref_aval(v.aval) for d, v in zip(should_discharge, j.invars)]
    if not any(should_discharge):
        renamed = _rename_whole_refs(closed)
        if renamed is not None:
            return renamed
    in_avals = [v.aval.inner if d else v.aval for v, d in zip(j.invars, should_discharge)]
    from xnp.tracing.jaxpr import Literal  # noqa: PLC0415  (local name only)

    def fun(*args):
        env = {}
        boxes = []
        for v, c in zip(j.constvars, closed.consts):
            env[v] = c
        for v, x, d in zip(j.invars, args, should_discharge):
            if d:
                x = Ref(x, v.aval)
                boxes.append(x)
            env[v] = x

        def read(v):
            if type(v) is Literal:
                return core.lift(v.val, v.aval.weak_type) if v.aval.weak_type else v.val
            return env[v]

        for eqn in j.eqns:
            ins = [read(v) for v in eqn.invars]
            prim = eqn.primitive
            if is_state_primitive(prim) and (prim.name == "new_ref" or isinstance(ins[0], Ref)):
                outs = prim.discharge(*ins, **eqn.params)
            else:
                outs = prim.bind(*ins, **_discharged_params(eqn.params))
            if not prim.multiple_results:
                outs = [outs]
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        res = [read(v) for v in j.outvars]
        return res + [b.value for b in boxes]

    dbg = j.debug_info
    name = getattr(dbg, "func_name", None) or "body"
    out = trace_flat(fun, in_avals, name, getattr(dbg, "transformation", None) or "jit")
    return ClosedJaxpr(Jaxpr(out.jaxpr.constvars, out.jaxpr.invars, out.jaxpr.eqns,
                             out.jaxpr.outvars, dbg or out.jaxpr.debug_info), out.consts)
