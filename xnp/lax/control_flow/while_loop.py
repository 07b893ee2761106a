"""``while_p``: repeat a body jaxpr while a condition jaxpr holds (``lax.while_loop``,
``lax.fori_loop`` with traced bounds).

Operands: ``(*cond_consts, *body_consts, *init)``; params ``cond_jaxpr`` (cond consts,
carry) -> bool[], ``body_jaxpr`` (body consts, carry) -> carry (ClosedJaxprs without
consts), ``cond_nconsts``, ``body_nconsts``. The carry avals are identical on input
and output. Forward-mode differentiable; reverse mode raises (the trip count is not
known when the backward pass is built): use ``scan`` or ``fori_loop`` with static
bounds.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp import _default_dtypes
from xnp.lax import _kit as kit
from xnp.lax import elementwise, reductions, shape_ops
from xnp.lax.control_flow import common
from xnp.tracing import ad, core
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.fp_warnings import at_user_line
from xnp.tracing.host_eval import host_program
from xnp.tracing.jaxpr import eval_jaxpr, has_effects
from xnp.tracing.pytree import keystr, tree_flatten_with_path, tree_unflatten

__all__ = ["while_p", "while_loop", "fori_loop"]

_BOOL_SCALAR = ShapedArray((), np.dtype(np.bool_))


# --------------------------------------------------------------------------- shape rule


def _same(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def _while_abstract_eval(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc = avals[:cond_nconsts]
    bc = avals[cond_nconsts:cond_nconsts + body_nconsts]
    carry = avals[cond_nconsts + body_nconsts:]
    if cond_jaxpr.consts or body_jaxpr.consts:
        raise TypeError("internal error in xnp: while bodies must have no consts")
    c_in = cond_jaxpr.in_avals
    if len(c_in) != len(cc) + len(carry) or not all(map(_same, c_in, list(cc) + list(carry))):
        raise TypeError("xnp.lax.while_loop: cond_jaxpr takes "
                        f"({common.avals_str(c_in)}) but gets "
                        f"({common.avals_str(list(cc) + list(carry))}).")
    c_out = cond_jaxpr.out_avals
    if len(c_out) != 1 or not _same(c_out[0], _BOOL_SCALAR):
        raise TypeError("xnp.lax.while_loop: cond_fun must return a bool scalar, got "
                        f"({common.avals_str(c_out)}).")
    b_in = body_jaxpr.in_avals
    if len(b_in) != len(bc) + len(carry) or not all(map(_same, b_in, list(bc) + list(carry))):
        raise TypeError("xnp.lax.while_loop: body_jaxpr takes "
                        f"({common.avals_str(b_in)}) but gets "
                        f"({common.avals_str(list(bc) + list(carry))}).")
    carry_avals = b_in[body_nconsts:]
    b_out = body_jaxpr.out_avals
    if len(b_out) != len(carry_avals) or not all(map(_same, b_out, carry_avals)):
        raise TypeError("xnp.lax.while_loop: body_jaxpr returns "
                        f"({common.avals_str(b_out)}) for the carry "
                        f"({common.avals_str(carry_avals)}).")
    return list(carry_avals)




def _split(seq, ncc, nbc):
    return list(seq[:ncc]), list(seq[ncc:ncc + nbc]), list(seq[ncc + nbc:])


# --------------------------------------------------------------------------- jvp


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                  body_nconsts=body_nconsts)
    ncc, nbc = cond_nconsts, body_nconsts
    cc, bc, init = _split(primals, ncc, nbc)
    _, bc_t, init_t = _split(tangents, ncc, nbc)
    body_in = body_jaxpr.in_avals
    carry_avals = body_in[nbc:]
    ncar = len(carry_avals)
    nz_bc = [type(t) is not Zero and common.differentiable(a) for t, a in zip(bc_t, body_in[:nbc])]
    nz_carry = [type(t) is not Zero and common.differentiable(a)
                for t, a in zip(init_t, carry_avals)]
    zeros = [Zero(ad.tangent_aval(a)) for a in carry_avals]
    if not any(nz_bc) and not any(nz_carry):
        return while_p.bind(*primals, **params), zeros
    while True:  # fixed point: which carries get a nonzero tangent
        _, out_nz = common.jvp_jaxpr_nz(body_jaxpr, nz_bc + nz_carry, nz_carry)
        new = [a or b for a, b in zip(nz_carry, out_nz)]
        if new == nz_carry:
            break
        nz_carry = new
    if not any(nz_carry):
        return while_p.bind(*primals, **params), zeros
    jj, _ = common.jvp_jaxpr_nz(body_jaxpr, nz_bc + nz_carry, nz_carry)
    jjc, jconsts = common.closure_convert(jj)
    nj, nbt, nct = len(jconsts), sum(nz_bc), sum(nz_carry)
    # jjc takes (jconsts, bc, carry, bc tangents, carry tangents): reorder to
    # (jconsts, bc, bc tangents | carry, carry tangents)
    base = nj + nbc + ncar
    order = (list(range(nj + nbc)) + list(range(base, base + nbt))
             + list(range(nj + nbc, base)) + list(range(base + nbt, base + nbt + nct)))
    body2 = common.reorder_invars(jjc, order)
    t_avals = [ad.tangent_aval(a) for a, nz in zip(carry_avals, nz_carry) if nz]
    cond2 = common.add_invars(cond_jaxpr, after=t_avals)
    bc_t_vals = [t for t, nz in zip(bc_t, nz_bc) if nz]
    init_t_vals = [common.fix_aval(t, ad.tangent_aval(a))
                   for t, a, nz in zip(init_t, carry_avals, nz_carry) if nz]
    operands = cc + jconsts + bc + bc_t_vals + init + init_t_vals
    params2 = dict(cond_jaxpr=cond2, body_jaxpr=body2, cond_nconsts=ncc,
                   body_nconsts=nj + nbc + nbt)
    if common.is_linearizing(bc_t_vals + init_t_vals):
        # reverse mode: primal outputs from a primal-only loop (concrete under grad); the
        # tangent loop recomputes the primal values and is staged (its transpose raises)
        p_out = while_p.bind(*primals, **params)
        t_out = while_p.bind(*operands, **params2)[ncar:]
    else:
        outs = while_p.bind(*operands, **params2)
        p_out, t_out = outs[:ncar], outs[ncar:]
    it = iter(t_out)
    return p_out, [next(it) if nz else z for nz, z in zip(nz_carry, zeros)]


def _while_transpose(cts, *args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    name = common.jaxpr_name(body_jaxpr)
    raise NotImplementedError(
        f"xnp.grad (reverse-mode differentiation) through xnp.lax.while_loop in `{name}` is "
        "not supported: reverse mode needs the trip count before the backward pass is built.\n"
        "Fix: use xnp.lax.scan with a fixed length, or xnp.lax.fori_loop with Python-int "
        "bounds (which lowers to scan); forward mode (xnp.jvp, xnp.jacfwd) does support "
        "while_loop.")


# --------------------------------------------------------------------------- batching


def _while_batch(vals, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    cc, bc, init = _split(vals, ncc, nbc)
    ccd, bcd, initd = _split(dims, ncc, nbc)
    ncar = len(init)
    carry_b = [d is not None for d in initd]
    while True:  # fixed point: which carries become batched
        carry_dims = [0 if b else None for b in carry_b]
        _, out_b = common.batch_jaxpr_dims(body_jaxpr, bcd + carry_dims, size, carry_b)
        new = [a or b for a, b in zip(carry_b, out_b)]
        if new == carry_b:
            break
        carry_b = new
    carry_dims = [0 if b else None for b in carry_b]
    _, pred_b = common.batch_jaxpr_dims(cond_jaxpr, ccd + carry_dims, size, [False])
    if pred_b[0] and (has_effects(cond_jaxpr) or has_effects(body_jaxpr)):
        raise NotImplementedError(
            "xnp.vmap of xnp.lax.while_loop with a batched predicate: the loop calls a host "
            "callback (xnp.lax.io_callback, a NumPy-style xnp.random draw), and a batched "
            "predicate runs the body for the whole batch until every member is done, so the "
            "callbacks would run for members that are done too. Fix: make the predicate "
            "unbatched (e.g. a fixed trip count with fori_loop), or call the callback outside "
            "the loop.")
    if pred_b[0]:  # members finish at different times: every carry is batched
        carry_b = [True] * ncar
        carry_dims = [0] * ncar
    init2 = [shape_ops.bdim_to_front(x, d, size) if b else x
             for x, d, b in zip(init, initd, carry_b)]
    if not pred_b[0]:
        cj, cconsts = common.closure_convert(
            common.batch_jaxpr_dims(cond_jaxpr, ccd + carry_dims, size, [False])[0])
        bj, bconsts = common.closure_convert(
            common.batch_jaxpr_dims(body_jaxpr, bcd + carry_dims, size, carry_b)[0])
        bj = common.strong_outputs(bj, bj.in_avals[len(bconsts) + nbc:])
        outs = while_p.bind(*cconsts, *cc, *bconsts, *bc, *init2, cond_jaxpr=cj, body_jaxpr=bj,
                            cond_nconsts=len(cconsts) + ncc, body_nconsts=len(bconsts) + nbc)
        return outs, carry_dims
    # batched predicate: run until every member is done; a member's carry only changes
    # while its own predicate holds
    bcond, _ = common.batch_jaxpr_dims(cond_jaxpr, ccd + carry_dims, size, [True])
    bbody, _ = common.batch_jaxpr_dims(body_jaxpr, bcd + carry_dims, size, [True] * ncar)
    cc_avals = bcond.in_avals[:ncc]
    bc_avals = bbody.in_avals[:nbc]
    carry_avals = bbody.in_avals[nbc:]

    def cond_fun(*args):
        pred = eval_jaxpr(bcond.jaxpr, bcond.consts, *args)[0]
        return [reductions.reduce_or(pred, (0,))]

    def body_fun(*args):
        c, b, carry = _split(args, ncc, nbc)
        pred = eval_jaxpr(bcond.jaxpr, bcond.consts, *c, *carry)[0]
        new = eval_jaxpr(bbody.jaxpr, bbody.consts, *b, *carry)
        out = []
        for old, nw, a in zip(carry, new, carry_avals):
            which = shape_ops.broadcast_in_dim(pred, a.shape, (0,))
            out.append(common.fix_aval(elementwise.select_n(which, old, common.fix_aval(nw, a)),
                                       a))
        return out

    name = common.jaxpr_name(body_jaxpr)
    cj, cconsts = common.internal_trace(cond_fun, cc_avals + carry_avals, name, "vmap")
    bj, bconsts = common.internal_trace(body_fun, cc_avals + bc_avals + carry_avals, name, "vmap")
    outs = while_p.bind(*cconsts, *cc, *bconsts, *cc, *bc, *init2, cond_jaxpr=cj, body_jaxpr=bj,
                        cond_nconsts=len(cconsts) + ncc, body_nconsts=len(bconsts) + ncc + nbc)
    return outs, [0] * ncar


def _while_on_host(cond, body, cond_consts, body_consts, carry):
    """The eager while loop on native values (``host_eval.HostProgram``s of its jaxprs)."""
    while cond(*cond_consts, *carry)[0]:
        carry = body(*body_consts, *carry)
    return carry


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                  body_nconsts=body_nconsts)
    staged = common.redirect(while_p, args, params)
    if staged is not None:
        return staged
    ncc, nbc = cond_nconsts, body_nconsts
    avals = list(cond_jaxpr.in_avals[:ncc]) + list(body_jaxpr.in_avals)
    vals = common.operands(avals, args)
    values = common.host_values(vals)
    cond = host_program(cond_jaxpr) if values is not None else None
    body = host_program(body_jaxpr) if cond is not None else None
    if body is not None:  # the kernels of cond and body on the host values
        carry = at_user_line(_while_on_host, cond, body, values[:ncc],
                             values[ncc:ncc + nbc], values[ncc + nbc:])
        return common.as_arrays(carry, body_jaxpr.in_avals[nbc:])
    cc, bc, carry = vals[:ncc], vals[ncc:ncc + nbc], vals[ncc + nbc:]
    while bool(eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cc, *carry)[0]):
        carry = eval_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, *bc, *carry)
    return common.with_avals(carry, body_jaxpr.in_avals[nbc:])


while_p = kit.primitive("while", linear=True, abstract_eval=_while_abstract_eval,
                        multiple_results=True,
                        impl=_while_impl, jvp=_while_jvp, transpose=_while_transpose,
                        batch=_while_batch)


# --------------------------------------------------------------------------- public API


def _carry_names(tree) -> list[str]:
    return ["carry" + keystr(p) for p, _ in tree_flatten_with_path(tree)[0]]


def _promote_carry(fname, leaves, avals, out_avals):
    """Weak-typed inputs whose body output is strong take the output's type (JAX's rule);
    returns (leaves, avals, changed)."""
    changed = False
    new_leaves, new_avals = [], []
    for x, a, o in zip(leaves, avals, out_avals):
        p = common.weak_promotion(a, o) if a != o else None
        if p is not None:
            x = elementwise.convert_element_type(x, p.dtype, weak_type=False)
            a = p
            changed = True
        new_leaves.append(x)
        new_avals.append(a)
    return new_leaves, new_avals, changed


def _while(fname, cond_fun, body_fun, init_val, *, body_names=None, body_wrapper=None,
           carry_names=None):
    """while_loop with optional debug naming of the body (fori_loop wraps its body);
    ``carry_names``: the carry leaves' names in messages (default ``carry[...]`` paths)."""
    try:
        leaves, in_tree, avals = common.flat_avals(init_val)
    except TypeError as e:
        raise TypeError(f"xnp.lax.{fname}: the loop carry must be arrays, scalars or pytrees "
                        f"of them; {e}") from None
    for _ in range(4):
        init = tree_unflatten(in_tree, leaves)
        cond = common.trace_body(cond_fun, (init,), avals, transformation="while_cond")
        body = common.trace_body(body_fun, (init,), avals, transformation=(
            "while_body" if body_wrapper is None else fname), arg_names=body_names,
            wrapper=body_wrapper)
        c_out = cond.out_avals
        if cond.out_tree.num_leaves != 1 or not _same(c_out[0], _BOOL_SCALAR):
            got = common.avals_str(c_out) or "nothing"
            raise TypeError(f"xnp.lax.{fname}: cond_fun must return a boolean scalar (bool[]), "
                            f"got {got}.")
        if body.out_tree != in_tree:
            raise TypeError(f"xnp.lax.{fname}: body_fun output must have the same pytree "
                            f"structure as the loop carry, got {body.out_tree} and {in_tree}.")
        leaves, avals, changed = _promote_carry(fname, leaves, avals, body.out_avals)
        if not changed:
            break
    common.check_same_types(fname, "body_fun output and input carry",
                            carry_names or _carry_names(init), avals, body.out_avals, "input",
                            "output", loop=True)
    # refs the functions close over: carried state (cond_fun may only read them)
    refs, (cond, body) = common.share_refs([cond, body], keep_writes=[False, True])
    ref_vals = common.read_refs(refs)
    body_jaxpr = common.strong_outputs(body.jaxpr, [core.aval_of(v) for v in ref_vals] + avals)
    outs = while_p.bind(*cond.consts, *body.consts, *ref_vals, *leaves, cond_jaxpr=cond.jaxpr,
                        body_jaxpr=body_jaxpr, cond_nconsts=cond.nconsts,
                        body_nconsts=body.nconsts)
    common.write_refs(refs, outs[:len(refs)])
    return tree_unflatten(in_tree, outs[len(refs):])


def while_loop(cond_fun, body_fun, init_val):
    """Run ``val = body_fun(val)`` while ``cond_fun(val)``; return the final ``val``.

    Parameters
    ----------
    cond_fun : callable
        ``cond_fun(val) -> bool[]`` (a boolean scalar).
    body_fun : callable
        ``body_fun(val) -> val`` with the same pytree structure, shapes and dtypes as
        ``init_val`` (a weak-typed Python-scalar leaf of ``init_val`` takes the type
        the body gives it, as in JAX).
    init_val : pytree of arrays or scalars

    Both functions are traced abstractly (also when called eagerly; a second time when
    a Python-scalar leaf of the carry takes the body's type), so a Python ``if`` on the
    carry raises ``TracerBoolConversionError`` ("... for while_body").
    Under ``vmap`` with a batched predicate the loop runs until every member is done,
    updating only the members whose predicate still holds.

    Differentiation: forward mode (``xnp.jvp``/``jacfwd``) works; reverse mode
    (``xnp.grad``/``vjp``) raises ``NotImplementedError``: use ``xnp.lax.scan`` or
    ``fori_loop`` with static bounds.

    Raises
    ------
    TypeError
        ``cond_fun`` does not return a bool scalar; ``body_fun``'s output differs from
        the carry in structure, shape or dtype (both types are shown).
    """
    return _while("while_loop", cond_fun, body_fun, init_val)


def _static_int(x):
    """A Python int for a concrete integer bound (Python/NumPy int, eager 0-d int Array)."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    if type(x) is core.Array and x.ndim == 0 and x.dtype in kit.INTEGER:
        return int(operator.index(x._value.item()))
    return None


def _bound_dtype(lower, upper):
    """The counter dtype of ``fori_loop``: the bounds' dtypes promoted, where a Python int
    or a weak-typed integer (such as a Python int passed through ``jit``) adapts to the
    other bound, so static and traced bounds give the same counter dtype."""
    def dt(x):
        # (strong dtype or None when the bound adapts, its own dtype)
        if type(x) is int:
            return None, _default_dtypes.python_scalar_dtype(0)
        aval = core.aval_of(x)
        return (None if aval.weak_type else aval.dtype), aval.dtype

    (a, own_a), (b, own_b) = dt(lower), dt(upper)
    if a is None and b is None:
        return np.promote_types(own_a, own_b)
    if a is None or b is None:
        return a or b
    return np.promote_types(a, b)


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """``for i in range(lower, upper): val = body_fun(i, val)``; returns the final ``val``.

    Parameters
    ----------
    lower, upper : integer scalars
        When both are concrete (Python/NumPy ints, eager arrays) the loop is a
        ``scan`` of ``max(upper - lower, 0)`` steps, so it is reverse-differentiable;
        otherwise (traced bounds) it is a ``while_loop`` (forward mode only). The
        counter ``i`` has the bounds' dtype (int64 for Python ints; int32 with x64
        off) and is strong-typed.
    body_fun : callable
        ``body_fun(i, val) -> val``, same structure, shapes and dtypes as ``init_val``.
    init_val : pytree of arrays or scalars
    unroll : int or bool, optional
        Passed to ``scan`` for static bounds (a performance hint); not allowed with
        traced bounds.

    Raises
    ------
    TypeError
        A bound is not an integer scalar; the body's output differs from the carry.
    ValueError
        ``unroll`` is given with traced bounds.
    """
    from xnp.lax.control_flow.scan import _scan  # noqa: PLC0415  (scan imports this module)

    for name, b in (("lower", lower), ("upper", upper)):
        try:
            aval = core.aval_of(b)
        except TypeError:
            raise TypeError(f"xnp.lax.fori_loop: {name} must be an integer scalar, got "
                            f"{type(b).__name__}: {b!r}") from None
        if aval.shape != () or aval.dtype not in kit.INTEGER or isinstance(b, bool):
            raise TypeError(f"xnp.lax.fori_loop: {name} must be an integer scalar, got "
                            f"{common.aval_str(aval)}")
    dtype = _bound_dtype(lower, upper)
    lo, hi = _static_int(lower), _static_int(upper)
    if lo is not None and hi is not None:
        one = np.asarray(1, dtype)

        def scan_body(fun, carry, x):
            i, val = carry
            return (elementwise.add(i, one), fun(i, val)), None

        i0 = np.asarray(lo, dtype)
        (_, result), _ = _scan("fori_loop", body_fun, (i0, init_val), None,
                               length=max(hi - lo, 0), reverse=False,
                               unroll=1 if unroll is None else unroll,
                               arg_names=common.flat_arg_names(body_fun, (i0, init_val)),
                               wrapper=scan_body, carry_names=["i"] + _carry_names(init_val))
        return result
    if unroll is not None:
        raise ValueError("xnp.lax.fori_loop: unroll needs static (Python int) bounds; the "
                         "bounds are traced, so the loop is a while_loop")
    lower = elementwise.convert_element_type(lower, dtype)
    upper = elementwise.convert_element_type(upper, dtype)
    one = np.asarray(1, dtype)

    def cond_fun(carry):
        return elementwise.lt(carry[0], carry[1])

    def body_wrapper(fun, carry):
        i, hi_, val = carry
        return elementwise.add(i, one), hi_, fun(i, val)

    names = common.flat_arg_names(body_fun, (lower, init_val))
    names.insert(1, "upper")
    _, _, result = _while("fori_loop", cond_fun, body_fun, (lower, upper, init_val),
                          body_names=names, body_wrapper=body_wrapper,
                          carry_names=["i", "upper"] + _carry_names(init_val))
    return result
