"""Machinery shared by the control-flow primitives (``cond``, ``while``, ``scan``).

* Tracing user bodies abstractly into closed jaxprs (:func:`trace_body`), with debug
  info naming the construct (``for cond``) and the body's arguments, so tracer errors
  inside a body say where they come from (``for cond``). Bodies are always traced,
  also when called eagerly with concrete values, so ``bool(x)`` on a body's argument
  raises under every transformation and eagerly alike.
* Closure conversion: the constants a body closes over (arrays, and tracers of an
  enclosing trace) become leading inputs of its jaxpr and are passed to ``bind`` as
  operands, so every transformation sees them.
* Jaxpr surgery used by the rules: extra unused inputs, reordering, weak-type fixes,
  splitting a body into its primal and linear parts for reverse mode
  (:func:`linearize_jaxpr`), jvp/batching of a jaxpr that report which outputs carry
  a tangent / a batch axis (for the fixed points over loop carries).
"""

from __future__ import annotations

import numpy as np

from xnp import _default_dtypes
from xnp.lax import elementwise
from xnp.lax import shape_ops
from xnp.lax import state
from xnp.tracing import ad, batching, core, host_eval, rebound
from xnp.tracing.ad import Zero
from xnp.tracing.errors import aval_str, avals_str
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr
from xnp.tracing import jaxpr_transforms
from xnp.tracing.jaxpr_transforms import trace_flat
from xnp.tracing.linearize import (Linearized, differentiable, fix_aval, internal_trace,
                                   jaxpr_name, linearize_jaxpr)
from xnp.tracing.partial_eval import debug_info_for, signature_arg_names, trace_to_jaxpr
from xnp.tracing.state import is_ref_aval
from xnp.tracing.pytree import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten

__all__ = [
    "TracedBody", "trace_body", "flat_arg_names", "flat_avals", "join_consts",
    "closure_convert", "internal_trace", "jaxpr_name", "add_invars", "reorder_invars",
    "strong_outputs", "check_same_types", "weak_promotion", "fix_aval", "Linearized",
    "linearize_jaxpr", "differentiable", "jvp_jaxpr_nz", "is_linearizing", "batch_jaxpr_dims",
    "as_operand", "redirect", "operands", "with_avals", "aval_str", "avals_str", "share_refs",
    "read_refs", "write_refs",
]


# --------------------------------------------------------------------------- tracing bodies


class TracedBody:
    """A traced body: ``jaxpr`` takes (consts..., flat args...) and has no consts of its own;
    ``consts`` are the closed-over values; ``out_tree`` the structure of its result.

    ``ref_consts`` are the positions of the consts that are state the body closes over:
    the jaxpr then takes their values in those positions and returns their final values
    after its outputs, in the order of ``ref_consts`` (:func:`share_refs` makes them
    loop-carried state). Such a const is a ref, or an array the body writes in place
    (``x[i] = v``, ``x += y``) without having made it (an eager array or a tracer of an
    enclosing trace), which the caller writes the final value back into.
    """

    __slots__ = ("jaxpr", "consts", "out_tree", "ref_consts")

    def __init__(self, jaxpr: ClosedJaxpr, consts, out_tree, ref_consts=()):
        self.jaxpr = jaxpr
        self.consts = list(consts)
        self.out_tree = out_tree
        self.ref_consts = tuple(ref_consts)

    @property
    def out_avals(self):
        avals = self.jaxpr.out_avals
        return avals[:len(avals) - len(self.ref_consts)]

    @property
    def nconsts(self) -> int:
        return len(self.consts)


def flat_avals(tree):
    """``(leaves, treedef, avals)`` of a pytree of array-likes.

    Raises
    ------
    TypeError
        A leaf is not an array or scalar.
    """
    leaves, treedef = tree_flatten(tree)
    return leaves, treedef, [core.aval_of(x) for x in leaves]


def flat_arg_names(fun, args) -> list[str]:
    """One name per flat input: the parameter name plus the pytree path (``c['w']``)."""
    names = signature_arg_names(fun, tuple(args), {})
    if names is None or len(names) != len(args):
        names = [f"args[{i}]" for i in range(len(args))]
    flat = []
    for name, arg in zip(names, args):
        for path, _ in tree_flatten_with_path(arg)[0]:
            flat.append(name + keystr(path))
    return flat


def trace_body(fun, args, in_avals, *, transformation: str, debug_fun=None, arg_names=None,
               wrapper=None):
    """Trace ``fun(*args)`` abstractly into a :class:`TracedBody`.

    ``args`` is the tuple of positional arguments (pytrees; only their structure is
    used), ``in_avals`` the avals of its flat leaves. ``wrapper(fun, *args)`` (optional)
    is what is actually traced (``fori_loop`` wraps the user's body). The debug info
    names ``debug_fun`` (default ``fun``), the flat inputs (``arg_names``, default
    from ``fun``'s signature) and ``transformation`` (tracer errors say "for scan").

    The body runs in a capturing scope (:func:`xnp.tracing.rebound.push_scope`): an array
    it writes without having made it is bound, for the rest of the body, to a cell of the
    body holding the body's constant of its value, and becomes state the body carries
    (``ref_consts``): it is read where the body first used it, as the value at the start
    of the iteration, so reads before the write see the previous iteration's writes.

    Raises
    ------
    NotImplementedError
        The body updates one of its arguments in place, or writes an array it closes over
        and also uses another array sharing its memory.
    """
    leaves, in_tree = tree_flatten(tuple(args))
    if arg_names is None or len(arg_names) != len(leaves):
        arg_names = flat_arg_names(fun, args)
    dbg = debug_info_for(debug_fun or fun, transformation, arg_names)
    store = {}

    def flat_fun(*flat):
        scope = rebound.push_scope(core.current_trace(), captures=True)
        try:
            call_args = tree_unflatten(in_tree, flat)
            out = wrapper(fun, *call_args) if wrapper is not None else fun(*call_args)
            out_leaves, out_tree = tree_flatten(out)
            out_leaves = [rebound.resolve(x) for x in out_leaves]
            store["out_tree"] = out_tree
            store["captured"] = [src for _, src in scope.captured]
            return out_leaves + [rebound.resolve(x) for x, _ in scope.captured]
        finally:
            rebound.pop_scope(scope)

    for name, a in zip(arg_names, in_avals):
        if is_ref_aval(a):
            raise TypeError(f"xnp.lax.{transformation}: argument {name} is a ref ({a}); a body "
                            "cannot take refs as arguments or carries: close over the ref "
                            "instead (it becomes loop-carried state)")
    closed, mutated = trace_to_jaxpr(flat_fun, list(in_avals), dbg)
    if any(mutated):
        raise NotImplementedError(
            f"xnp.lax.{transformation}: {dbg.func_name} updates one of its arguments in place "
            "(x[i] = v or x += y); return the new value instead.")
    jaxpr, consts = closure_convert(closed)
    captured = store["captured"]
    cap_consts = [next(i for i, c in enumerate(consts) if c is x) for x in captured]
    _check_no_aliases(transformation, dbg.func_name, captured, consts)
    ref_consts = [i for i, v in enumerate(jaxpr.jaxpr.invars[:len(consts)])
                  if is_ref_aval(v.aval)]
    if jaxpr_transforms.uses_refs(jaxpr):
        n = len(jaxpr.jaxpr.invars)
        jaxpr = jaxpr_transforms.discharge_state(jaxpr, [i in ref_consts for i in range(n)])
    return TracedBody(jaxpr, consts, store["out_tree"], cap_consts + ref_consts)


def _memory_root(x):
    """What ``x``'s memory belongs to: the cell of an array bound to one, the NumPy array
    owning an eager array's buffer, or the base at the end of a traced view's chain."""
    b = rebound.binding_of(x)
    if b is not None:
        return b.memory
    if type(x) is core.Array:
        v = np.asarray(x)
        while isinstance(v.base, np.ndarray):
            v = v.base
        return v
    while getattr(x, "view_of", None) is not None:
        x = x.view_of.base
        if rebound.binding_of(x) is not None:
            return rebound.binding_of(x).memory
    return _memory_root(x) if type(x) is core.Array else x


def _check_no_aliases(transformation, func_name, captured, consts) -> None:
    """Refuse a body that writes an array it closes over and also uses another array of
    the same memory (a view of it): the carried value would not follow the other one."""
    for x in captured:
        root = _memory_root(x)
        for c in consts:
            if c is x or not (type(c) is core.Array or isinstance(c, core.Tracer)):
                continue
            other = _memory_root(c)
            same = (np.may_share_memory(root, other)
                    if isinstance(root, np.ndarray) and isinstance(other, np.ndarray)
                    else root is other)
            if same:
                raise NotImplementedError(
                    f"xnp.lax.{transformation}: {func_name} writes an array it closes over "
                    f"({aval_str(core.aval_of(x))}) and also uses another array sharing its "
                    f"memory ({aval_str(core.aval_of(c))}, a view of one or the other); "
                    "use one of them inside the body, or pass the array as part of the carry.")


def _state_aval(r) -> ShapedArray:
    """The value aval of carried state: a ref's contents, or a written array's aval."""
    a = core.aval_of(r)
    return a.inner if is_ref_aval(a) else a


def share_refs(bodies, keep_writes=None):
    """Make the state that ``bodies`` (:class:`TracedBody`, from :func:`trace_body`) close
    over explicit: ``(refs, new bodies)``, where ``refs`` are the refs and the arrays the
    bodies write (each once, by identity) and each new body's jaxpr takes ``(its other
    consts..., state values..., args...)`` and returns ``(final state values...,
    outputs...)``; a body that does not use a ref passes its value through, and a body
    that reads an array another body writes takes it as state too (a loop predicate reads
    the value the body wrote last). The caller passes :func:`read_refs` of ``refs`` and
    writes the final values back with :func:`write_refs`. ``keep_writes[k]`` False (a
    loop predicate): body ``k`` returns no state values, and writing a ref raises
    ``TypeError``.
    """
    refs = []
    for b in bodies:
        for i in b.ref_consts:
            if not any(b.consts[i] is r for r in refs):
                refs.append(b.consts[i])
    if not refs:
        return [], list(bodies)
    out = []
    for k, b in enumerate(bodies):
        j = b.jaxpr.jaxpr
        nref = len(b.ref_consts)
        nouts = len(j.outvars) - nref
        mine = {}
        for pos, i in enumerate(b.ref_consts):
            mine[next(u for u, r in enumerate(refs) if r is b.consts[i])] = (j.invars[i],
                                                                             j.outvars[nouts + pos])
        shared = list(b.ref_consts)
        for i, c in enumerate(b.consts):  # an array another body writes, read here
            u = next((u for u, r in enumerate(refs) if r is c), None)
            if u is not None and u not in mine:
                mine[u] = (j.invars[i], j.invars[i])
                shared.append(i)
        others = [i for i in range(b.nconsts) if i not in shared]
        ref_in = [mine[u][0] if u in mine else Var(_state_aval(r))
                  for u, r in enumerate(refs)]
        ref_out = [mine[u][1] if u in mine else ref_in[u] for u in range(len(refs))]
        invars = [j.invars[i] for i in others] + ref_in + j.invars[b.nconsts:]
        if keep_writes is not None and not keep_writes[k]:
            if any(mine[u][1] is not mine[u][0] for u in mine):
                raise TypeError(f"xnp.lax: {jaxpr_name(b.jaxpr)} writes a ref or an array it "
                                "closes over; only the loop body may write them")
            outvars = j.outvars[:nouts]
        else:
            outvars = ref_out + j.outvars[:nouts]
        new = ClosedJaxpr(Jaxpr(j.constvars, invars, j.eqns, outvars, j.debug_info),
                          b.jaxpr.consts)
        out.append(TracedBody(new, [b.consts[i] for i in others], b.out_tree))
    return refs, out


def _is_ref(r) -> bool:
    return is_ref_aval(core.aval_of(r))


def read_refs(refs):
    """The current value of each ref, and each written array itself (:func:`share_refs`)."""
    return [state.ref_get(r) if _is_ref(r) else r for r in refs]


def write_refs(refs, values) -> None:
    """Write the final values back into the refs, and into the arrays the bodies wrote
    (``x[...] = value``: NumPy's in-place write eagerly, a rebinding under a
    transformation, with its rules and errors) (:func:`share_refs`)."""
    for r, v in zip(refs, values):
        if _is_ref(r):
            state.ref_set(r, (), v)
        else:
            r[...] = v


closure_convert = jaxpr_transforms.closure_convert


# --------------------------------------------------------------------------- jaxpr surgery


def add_invars(closed: ClosedJaxpr, before=(), after=()) -> ClosedJaxpr:
    """The same computation with unused inputs of avals ``before``/``after`` added."""
    j = closed.jaxpr
    pre = [Var(a) for a in before]
    post = [Var(a) for a in after]
    new = Jaxpr(j.constvars, pre + list(j.invars) + post, j.eqns, j.outvars, j.debug_info)
    return ClosedJaxpr(new, closed.consts)


def reorder_invars(closed: ClosedJaxpr, order, out_order=None) -> ClosedJaxpr:
    """Invars (and optionally outvars) permuted: new position ``k`` holds old ``order[k]``."""
    j = closed.jaxpr
    invars = [j.invars[i] for i in order]
    outvars = j.outvars if out_order is None else [j.outvars[i] for i in out_order]
    return ClosedJaxpr(Jaxpr(j.constvars, invars, j.eqns, outvars, j.debug_info), closed.consts)


def join_consts(bodies):
    """Give every body the same inputs: (consts of body 0, consts of body 1, ..., args).

    Returns ``(jaxprs, consts)``; each jaxpr ignores the other bodies' consts.
    """
    all_consts = [c for b in bodies for c in b.consts]
    const_avals = [[v.aval for v in b.jaxpr.jaxpr.invars[: b.nconsts]] for b in bodies]
    jaxprs = []
    for k, b in enumerate(bodies):
        before = [a for avals in const_avals[:k] for a in avals]
        j = b.jaxpr.jaxpr
        own = j.invars[: b.nconsts]
        rest = j.invars[b.nconsts:]
        after = [a for avals in const_avals[k + 1:] for a in avals]
        invars = [Var(a) for a in before] + own + [Var(a) for a in after] + rest
        jaxprs.append(ClosedJaxpr(Jaxpr([], invars, j.eqns, j.outvars, j.debug_info), []))
    return jaxprs, all_consts


def strong_outputs(closed: ClosedJaxpr, targets) -> ClosedJaxpr:
    """Outputs converted to the avals ``targets`` where they differ only in weak type or
    (for weak outputs) in dtype (a ``convert_element_type`` equation is appended)."""
    j = closed.jaxpr
    eqns = list(j.eqns)
    outvars = []
    for v, target in zip(j.outvars, targets):
        if v.aval == target:
            outvars.append(v)
            continue
        if type(v) is Literal:
            outvars.append(Literal(np.asarray(v.val, target.dtype), target))
            continue
        new = Var(target)
        eqns.append(JaxprEqn(elementwise.convert_element_type_p, [v],
                             {"new_dtype": target.dtype, "weak_type": target.weak_type},
                             [new], None))
        outvars.append(new)
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, eqns, outvars, j.debug_info), closed.consts)


def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def check_same_types(fname: str, what: str, names, avals_a, avals_b, label_a: str,
                     label_b: str, *, loop: bool = False) -> None:
    """``TypeError`` listing the leaves whose shape or dtype differ (weak type ignored):
    each by its path in the user's pytree (``carry[1]['v']``, ``output['b']``) with both
    avals in full dtype names (``float64[3] vs int32[3]``) and what differs, then the fix
    (``loop``: ``avals_b`` is a body's carry output, which must keep ``avals_a``)."""
    bad, dtype_fix, shape_fix = [], None, False
    for n, a, b in zip(names, avals_a, avals_b):
        if _same_type(a, b):
            continue
        why = []
        if a.dtype != b.dtype:
            why.append("dtypes")
            dtype_fix = dtype_fix or (n, a.dtype)
        if a.shape != b.shape:
            why.append("shapes")
            shape_fix = True
        bad.append(f"  {n}: {label_a} {aval_str(a)} vs {label_b} {aval_str(b)} "
                   f"(the {' and '.join(why)} differ)")
    if not bad:
        return
    fixes = []
    if dtype_fix is not None:
        n, dt = dtype_fix
        who = "the body" if loop else label_b.removesuffix(" output")
        fixes.append(f"convert what {who} returns for {n} with .astype(xnp.{dt.name})")
    if shape_fix:
        fixes.append("a loop carry keeps its shape on every iteration (collect per-step "
                     "values as scan's stacked outputs, or fill a fixed-size buffer with "
                     ".at[i].set)" if loop else
                     "return the same shapes from every branch (pad or slice them, or "
                     "compute both and choose with xnp.where)")
    raise TypeError("\n".join([f"xnp.lax.{fname}: {what} must have identical types (shape "
                               "and dtype):", *bad, "Fix: " + "; ".join(fixes) + "."]))


_KIND_ORDER = {"b": 0, "i": 1, "u": 1, "f": 2, "V": 2, "c": 3}


def weak_promotion(in_aval: ShapedArray, out_aval: ShapedArray) -> ShapedArray | None:
    """For a loop carry whose input is weak (a Python scalar) and whose body output type
    differs: the aval the input should take (as JAX's ``_promote_weak_typed_inputs``:
    the output's dtype, strong), or None when no weak-type promotion explains the
    difference (a bool never promotes; a kind never goes down, e.g. float -> int)."""
    if not in_aval.weak_type or in_aval.shape != out_aval.shape:
        return None
    if in_aval.dtype == out_aval.dtype:
        return None if out_aval.weak_type else in_aval.strip_weak_type()
    k_in = _KIND_ORDER.get(in_aval.dtype.kind)
    k_out = _KIND_ORDER.get(out_aval.dtype.kind)
    if k_in is not None and k_out is not None and k_out >= k_in > 0:
        return ShapedArray(in_aval.shape, out_aval.dtype)
    return None


# --------------------------------------------------------------------------- jvp and batching


def jvp_jaxpr_nz(closed: ClosedJaxpr, nonzeros, instantiate):
    """A jaxpr ``(primals..., nonzero tangents...) -> (primal outs..., tangent outs...)``.

    Output tangents are present where nonzero or where ``instantiate[i]`` (as zeros),
    and only for inexact outputs; tangents are never weak-typed. Returns
    ``(ClosedJaxpr (may hold consts), out_nonzeros)``.
    """
    in_avals = list(closed.in_avals)
    n = len(in_avals)
    t_avals = [ad.tangent_aval(a) for a, nz in zip(in_avals, nonzeros) if nz]
    out_avals = closed.out_avals
    store = {}

    def fun(*args):
        primals = list(args[:n])
        it = iter(args[n:])
        tangents = [next(it) if nz else Zero(ad.tangent_aval(a))
                    for a, nz in zip(in_avals, nonzeros)]
        p_out, t_out = ad.jvp_call(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
                                   primals, tangents)
        out_nz, ts = [], []
        for t, inst, a in zip(t_out, instantiate, out_avals):
            keep = differentiable(a) and (inst or type(t) is not Zero)
            out_nz.append(keep)
            if keep:
                ts.append(fix_aval(t, ad.tangent_aval(a)))
        store["nz"] = out_nz
        return list(p_out) + ts

    jj = trace_flat(fun, in_avals + t_avals, jaxpr_name(closed), "jvp")
    return jj, store["nz"]


def is_linearizing(tangents) -> bool:
    """True when tangents are staged by a trace nested inside the current one (reverse
    mode: ``linearize``/``vjp``/``grad``): the rule must keep primal work on the
    current trace and stage only the linear part."""
    level = core.current_trace().level
    return any(isinstance(t, core.Tracer) and t._trace.level > level for t in tangents)


def batch_jaxpr_dims(closed: ClosedJaxpr, in_dims, size: int, instantiate):
    """A jaxpr of the batched computation: input ``i`` batched at ``in_dims[i]`` (None:
    unbatched); outputs batched at axis 0, or unbatched where they do not depend on the
    batch and ``instantiate[i]`` is False. Returns ``(ClosedJaxpr, out_batched)``."""
    in_avals = []
    for a, d in zip(closed.in_avals, in_dims):
        if d is None:
            in_avals.append(a)
        else:
            in_avals.append(ShapedArray(a.shape[:d] + (size,) + a.shape[d:], a.dtype,
                                        a.weak_type))
    store = {}

    def fun(*args):
        trace = batching.BatchTrace(core.current_trace(), size, jaxpr_name(closed))
        try:
            tracers = [batching.BatchTracer(trace, a, d) if d is not None else a
                       for a, d in zip(args, in_dims)]
            with core.set_current_trace(trace):
                outs = eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
            res, batched = [], []
            for o, inst in zip(outs, instantiate):
                v, d = trace.to_val_dim(o)
                if d is None and not inst:
                    res.append(v)
                    batched.append(False)
                else:
                    res.append(shape_ops.bdim_to_front(v, d, size))
                    batched.append(True)
        finally:
            trace.alive = False
        store["batched"] = batched
        return res

    bj = trace_flat(fun, in_avals, jaxpr_name(closed), "vmap")
    return bj, store["batched"]


# --------------------------------------------------------------------------- eager helpers


def as_operand(x, aval: ShapedArray | None = None):
    """An eager operand as an ``xnp.Array`` (Python scalars are weak)."""
    if type(x) is core.Array or isinstance(x, core.Tracer):
        return x
    a = aval if aval is not None else core.aval_of(x)
    if core.is_python_scalar(x):
        return core.Array(_default_dtypes.scalar_to_ndarray(x, a.dtype), a.weak_type)
    return core.lift(np.asarray(x), a.weak_type)


def redirect(prim, args, params):
    """For an eager rule (``Primitive.impl``) that received tracers of a live trace (the
    eval trace does not look for them: reverse mode binds the linear part of a
    control-flow primitive with staged tangents while the eval trace is current): hand
    the call to that trace. Returns None when every argument is concrete."""
    cur = core.current_trace()
    top = core.find_top_trace(cur, args)
    if top is cur:
        return None
    return top.process_primitive(prim, args, params)


def host_values(args):
    """The native values of eager loop operands (Arrays, as :func:`operands` gives) when
    the loop can run its bodies as host programs (``tracing/host_eval.py``): no
    transformation scope is active and no call is being recorded; else None."""
    if core._SCOPES_ON[0] or getattr(core.current_trace(), "recording", None) is not None:
        return None
    vals = [host_eval.host_value(a) for a in args]
    return None if any(v is None for v in vals) else vals


def as_arrays(values, avals):
    """Native values as Arrays of ``avals``' weak types (a loop's results)."""
    return [core.Array(v, a.weak_type) for v, a in zip(values, avals)]


def operands(avals, args):
    """Eager operands as Arrays of ``avals``' weak types."""
    return [as_operand(a, av) for a, av in zip(args, avals)]


def with_avals(outs, avals):
    """Outputs as Arrays whose weak flags are exactly the avals'."""
    res = []
    for o, a in zip(outs, avals):
        o = as_operand(o, a)
        if type(o) is core.Array and o.weak_type != a.weak_type:
            o = core.Array(o._value, a.weak_type)
        res.append(o)
    return res
