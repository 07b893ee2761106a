"""``cond_p``: choose one of several branch jaxprs by an int32 index (``lax.cond``,
``lax.switch``).

Operands: ``(index, *operands)``; param ``branches``: a tuple of ClosedJaxprs without
consts, all with the operands' avals as inputs and identical output avals. The
constants the branches close over were converted into leading operands (every
branch takes all of them and ignores the others'). ``index`` is an int32 scalar; an
index outside ``[0, len(branches))`` is clamped into that range on every backend
(StableHLO's ``case`` would run the last branch for any out-of-range index; the
lowering clamps first). A bool predicate becomes ``convert_element_type`` to int32,
and the **false** branch is index 0 (as for ``select_n``: case 0 where the
predicate is False).
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import elementwise, shape_ops
from xnp.lax.control_flow import common
from xnp.lax.control_flow.common import TracedBody
from xnp.tracing import ad, batching, core
from xnp.tracing.ad import UndefinedPrimal, Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import eval_jaxpr, has_effects
from xnp.tracing.jaxpr_transforms import transpose_linear
from xnp.tracing.pytree import keystr, tree_flatten_with_path, tree_unflatten

__all__ = ["cond_p", "cond", "switch"]

_INT32 = np.dtype(np.int32)


# --------------------------------------------------------------------------- shape rule


def _join_weak(avals_per_branch):
    """Output avals of the branches joined: weak only where every branch is weak."""
    out = []
    for avals in zip(*avals_per_branch):
        out.append(avals[0].update(weak_type=all(a.weak_type for a in avals)))
    return out


def _cond_abstract_eval(index: ShapedArray, *ops: ShapedArray, branches):
    if index.shape != () or index.dtype != _INT32:
        raise TypeError(f"xnp.lax.cond: the branch index must be an int32 scalar, got "
                        f"{common.aval_str(index)}.")
    if not branches:
        raise TypeError("xnp.lax.cond: needs at least one branch")
    for k, b in enumerate(branches):
        if b.consts:
            raise TypeError("internal error in xnp: cond branches must have no consts")
        ins = b.in_avals
        if len(ins) != len(ops) or any(a.shape != o.shape or a.dtype != o.dtype
                                       for a, o in zip(ins, ops)):
            raise TypeError(
                f"xnp.lax.cond: branch {k} takes ({common.avals_str(ins)}) "
                f"but the operands are ({common.avals_str(ops)}).")
    outs = [b.out_avals for b in branches]
    for k, o in enumerate(outs[1:], 1):
        if len(o) != len(outs[0]) or any(a.shape != b.shape or a.dtype != b.dtype
                                         for a, b in zip(o, outs[0])):
            raise TypeError(
                f"xnp.lax.cond: branch {k} returns ({common.avals_str(o)}) "
                f"but branch 0 returns ({common.avals_str(outs[0])}).")
    return _join_weak(outs)




def _unify(jaxprs):
    """Make every branch's output avals identical (weak only where all are weak)."""
    targets = _join_weak([j.out_avals for j in jaxprs])
    return tuple(common.strong_outputs(j, targets) for j in jaxprs)


def _bind(index, bodies, operands):
    """Join the branches' consts and bind ``cond_p``. Refs the branches close over are
    passed in and out as values and written back (:func:`common.share_refs`)."""
    refs, bodies = common.share_refs(bodies)
    ref_vals = common.read_refs(refs)
    jaxprs, consts = common.join_consts(bodies)
    outs = cond_p.bind(index, *consts, *ref_vals, *operands, branches=_unify(jaxprs))
    common.write_refs(refs, outs[:len(refs)])
    return outs[len(refs):]


def _bodies(jaxprs_and_consts):
    return [TracedBody(j, c, None) for j, c in jaxprs_and_consts]


# --------------------------------------------------------------------------- jvp


def _cond_jvp(primals, tangents, *, branches):
    index, ops = primals[0], list(primals[1:])
    in_avals = branches[0].in_avals
    out_avals = branches[0].out_avals
    nonzeros = [type(t) is not Zero and common.differentiable(a)
                for t, a in zip(tangents[1:], in_avals)]
    if not any(nonzeros):
        outs = cond_p.bind(*primals, branches=branches)
        return outs, [Zero(ad.tangent_aval(a)) for a in out_avals]
    nz_tangents = [t for t, nz in zip(tangents[1:], nonzeros) if nz]
    p_out, t_out, out_nz = _cond_linearize(index, ops, nz_tangents, branches, nonzeros)
    it = iter(t_out)
    tangents_out = [next(it) if nz else Zero(ad.tangent_aval(a))
                    for nz, a in zip(out_nz, out_avals)]
    return p_out, tangents_out


def _cond_linearize(index, ops, nz_tangents, branches, nonzeros):
    """The jvp as two conds: a known cond computes the primal outputs and the residuals of
    the taken branch (zeros in the other branches' residual slots); a linear cond maps
    (residuals, tangents) to output tangents.

    Always split (also in forward mode, like the nested-``jit`` rule): under ``grad`` the
    linear cond is staged on the tangent trace while the known one runs on the enclosing
    trace (primals stay concrete), and an enclosing jvp jaxpr (a ``jit`` being
    differentiated) can be partially evaluated equation by equation."""
    n_out = len(branches[0].out_avals)
    lins = [common.linearize_jaxpr(b, nonzeros, [True] * n_out) for b in branches]
    out_nz = lins[0].out_nz
    comp_avals = [[v.aval for v in lin.known.jaxpr.outvars[n_out:]] for lin in lins]
    op_avals = branches[0].in_avals

    known = []
    for k, lin in enumerate(lins):
        def known_fun(*args, k=k, lin=lin):
            outs = eval_jaxpr(lin.known.jaxpr, [], *lin.known_consts, *args)
            padded = list(outs[:n_out])
            for j, avals in enumerate(comp_avals):
                if j == k:
                    padded += outs[n_out:]
                else:
                    padded += [common.fix_aval(Zero(a.strip_weak_type()), a) for a in avals]
            return padded

        known.append(common.internal_trace(known_fun, op_avals, common.jaxpr_name(branches[k]),
                                           "cond"))
    kouts = _bind(index, _bodies(known), ops)
    p_out, computed = kouts[:n_out], kouts[n_out:]
    if not any(out_nz):  # no inexact output: nothing to differentiate
        return p_out, [], out_nz

    residuals, res_avals, offsets = [], [], []
    pos = 0
    for lin, avals in zip(lins, comp_avals):
        mine = computed[pos:pos + len(avals)]
        pos += len(avals)
        offsets.append(len(residuals))
        residuals += lin.residuals(ops, mine)
        res_avals += lin.res_avals
    t_avals = [core.aval_of(t).strip_weak_type() for t in nz_tangents]
    n_res = len(residuals)

    unknown = []
    for k, lin in enumerate(lins):
        def lin_fun(*args, k=k, lin=lin):
            own = args[offsets[k]:offsets[k] + len(lin.res_kinds)]
            return eval_jaxpr(lin.lin.jaxpr, [], *own, *args[n_res:])

        unknown.append(common.internal_trace(lin_fun, res_avals + t_avals,
                                             common.jaxpr_name(branches[k]), "cond"))
    t_out = _bind(index, _bodies(unknown), residuals + nz_tangents)
    return p_out, t_out, out_nz


# --------------------------------------------------------------------------- transpose


def _cond_transpose(cts, index, *args, branches):
    """Transpose of a cond linear in some operands (the UndefinedPrimal ones): a cond whose
    branches are the transposed branches, fed with the residuals and the cotangents."""
    if type(index) is UndefinedPrimal:
        raise AssertionError("internal error in xnp: the cond index cannot be linear")
    linear = [type(a) is UndefinedPrimal for a in args]
    in_avals = branches[0].in_avals
    res = [a for a, lin in zip(args, linear) if not lin]
    res_avals = [a for a, lin in zip(in_avals, linear) if not lin]
    lin_avals = [a.strip_weak_type() for a, lin in zip(in_avals, linear) if lin]
    ct_avals = [a.strip_weak_type() for a in branches[0].out_avals]
    cts = [common.fix_aval(c, a) for c, a in zip(cts, ct_avals)]
    n_res = len(res)

    transposed = []
    for b in branches:
        def fun(*xs, b=b):
            it = iter(xs[:n_res])
            full = [UndefinedPrimal(a) if lin else next(it) for a, lin in zip(in_avals, linear)]
            out = transpose_linear(b.jaxpr, full, list(xs[n_res:]))
            lin_cts = [c for c, lin in zip(out, linear) if lin]
            return [common.fix_aval(c, a) for c, a in zip(lin_cts, lin_avals)]

        transposed.append(common.internal_trace(fun, res_avals + ct_avals,
                                                common.jaxpr_name(b), "transpose"))
    outs = iter(_bind(index, _bodies(transposed), res + cts))
    return [None] + [next(outs) if lin else None for lin in linear]


# --------------------------------------------------------------------------- batching


def _cond_batch(vals, dims, *, branches):
    index, ops = vals[0], list(vals[1:])
    idx_dim, op_dims = dims[0], list(dims[1:])
    size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    n_out = len(branches[0].out_avals)
    if idx_dim is not None:
        if any(has_effects(b) for b in branches):
            raise NotImplementedError(
                "xnp.vmap of xnp.lax.cond/switch with a batched predicate or index: a branch "
                "calls a host callback (xnp.lax.io_callback, a NumPy-style xnp.random draw), "
                "and a batched index runs every branch on the whole batch, so the callbacks "
                "of branches not taken would run too. Fix: make the index unbatched, or call "
                "the callback outside the cond.")
        # a batched index: every branch runs on the whole batch, then select per member
        index = batching.moveaxis(index, idx_dim, 0)
        hi = np.asarray(len(branches) - 1, _INT32)
        index = elementwise.clamp(np.asarray(0, _INT32), index, hi)
        results = []
        for b in branches:
            bj, _ = common.batch_jaxpr_dims(b, op_dims, size, [True] * n_out)
            results.append(eval_jaxpr(bj.jaxpr, bj.consts, *ops))
        outs = []
        for cases in zip(*results):
            shape = core.aval_of(cases[0]).shape
            which = shape_ops.broadcast_in_dim(index, shape, (0,))
            outs.append(elementwise.select_n(which, *cases))
        return outs, [0] * n_out
    batched = [False] * n_out
    for b in branches:
        _, out_b = common.batch_jaxpr_dims(b, op_dims, size, [False] * n_out)
        batched = [x or y for x, y in zip(batched, out_b)]
    bodies = []
    for b in branches:
        bj, _ = common.batch_jaxpr_dims(b, op_dims, size, batched)
        bodies.append(TracedBody(*common.closure_convert(bj), None))
    outs = _bind(index, bodies, ops)
    return outs, [0 if x else None for x in batched]


def _cond_impl(*args, branches):
    staged = common.redirect(cond_p, args, {"branches": branches})
    if staged is not None:
        return staged
    index = int(np.asarray(common.as_operand(args[0])._value))
    index = min(max(index, 0), len(branches) - 1)  # out-of-range indices are clamped
    branch = branches[index]
    ops = common.operands(branch.in_avals, args[1:])
    outs = eval_jaxpr(branch.jaxpr, branch.consts, *ops)
    out_avals = [a.update(weak_type=all(b.out_avals[i].weak_type for b in branches))
                 for i, a in enumerate(branch.out_avals)]
    return common.with_avals(outs, out_avals)


cond_p = kit.primitive("cond", linear=True, abstract_eval=_cond_abstract_eval,
                       multiple_results=True,
                       impl=_cond_impl, jvp=_cond_jvp, transpose=_cond_transpose,
                       batch=_cond_batch)


# --------------------------------------------------------------------------- public API


def _output_names(out_tree) -> list[str]:
    example = tree_unflatten(out_tree, list(range(out_tree.num_leaves)))
    return ["output" + keystr(p) for p, _ in tree_flatten_with_path(example)[0]]


def _operand_avals(fname, operands):
    try:
        return common.flat_avals(operands)
    except TypeError as e:
        raise TypeError(f"xnp.lax.{fname}: operands must be arrays, scalars or pytrees of them; "
                        f"{e}") from None


def _trace_branches(fname, funs, labels, operands):
    leaves, _, avals = _operand_avals(fname, operands)
    bodies = [common.trace_body(f, operands, avals, transformation=fname) for f in funs]
    tree0 = bodies[0].out_tree
    for b, label in zip(bodies[1:], labels[1:]):
        if b.out_tree != tree0:
            raise TypeError(
                f"xnp.lax.{fname}: {labels[0]} and {label} output must have the same pytree "
                f"structure, got {tree0} and {b.out_tree}.")
    names = _output_names(tree0)
    for b, label in zip(bodies[1:], labels[1:]):
        common.check_same_types(fname, f"{labels[0]} and {label} output", names,
                                bodies[0].out_avals, b.out_avals, f"{labels[0]} output",
                                f"{label} output")
    return leaves, bodies, tree0


def _scalar_aval(fname: str, argname: str, value, what: str):
    """The aval of a 0-d selector; ``TypeError`` naming ``xnp.lax.<fname>`` otherwise."""
    try:
        aval = core.aval_of(value)
    except TypeError:
        raise TypeError(f"xnp.lax.{fname}: {argname} must be {what}, got "
                        f"{type(value).__name__}: {value!r}") from None
    if aval.shape != ():
        raise TypeError(f"xnp.lax.{fname}: {argname} must be a scalar, got "
                        f"{common.aval_str(aval)}")
    return aval


def cond(pred, true_fun, false_fun, *operands):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, staged as one
    ``cond`` primitive.

    Parameters
    ----------
    pred : bool scalar (or a number, meaning ``pred != 0``)
        Shape ``()``; may be traced.
    true_fun, false_fun : callable
        Take ``*operands`` and return pytrees with the same structure, shapes and dtypes
        (weak types may differ: the output is weak only if both are).
    *operands : pytrees of arrays or scalars

    Both branches are always traced abstractly, also when called eagerly with a
    concrete ``pred``: ``bool()`` or NumPy conversion of a value inside a branch raises
    the tracer errors of ``xnp.errors`` ("... for cond"). Only the chosen branch runs.
    Under ``vmap`` with a batched ``pred`` both branches run and the results are
    selected per batch member. Differentiable in forward and reverse mode.

    Returns
    -------
    The chosen branch's output pytree.

    Raises
    ------
    TypeError
        ``pred`` is not a scalar bool or number, the branches' outputs differ in
        structure, shape or dtype (the message shows both types), or an operand is not
        an array.
    """
    if pred is None:
        raise TypeError("xnp.lax.cond: pred is None")
    if not callable(true_fun) or not callable(false_fun):
        raise TypeError("xnp.lax.cond: true_fun and false_fun must be callable")
    aval = _scalar_aval("cond", "pred", pred, "a scalar bool or number")
    if aval.dtype not in kit.BOOL:
        if aval.dtype not in kit.REAL:
            raise TypeError(f"xnp.lax.cond: pred must be a bool or real number, got "
                            f"{common.aval_str(aval)}")
        pred = elementwise.ne(pred, np.zeros((), aval.dtype))
    index = elementwise.convert_element_type(pred, _INT32)
    leaves, bodies, out_tree = _trace_branches(
        "cond", [true_fun, false_fun], ["true_fun", "false_fun"], operands)
    outs = _bind(index, [bodies[1], bodies[0]], leaves)
    return tree_unflatten(out_tree, outs)


def switch(index, branches, *operands):
    """``branches[index](*operands)``, staged as one ``cond`` primitive.

    Parameters
    ----------
    index : integer scalar
        Shape ``()``, any integer dtype, may be traced. It is converted to int32 and
        clamped into ``[0, len(branches) - 1]`` (so -1 picks the first branch and a
        too-large index the last; no error at run time).
    branches : sequence of callables
        Each takes ``*operands``; outputs must agree in structure, shape and dtype.
    *operands : pytrees of arrays or scalars

    Every branch is traced abstractly (also eagerly); only the selected one runs
    (all of them under ``vmap`` with a batched index).

    Raises
    ------
    ValueError
        ``branches`` is empty.
    TypeError
        ``index`` is not an integer scalar, a branch is not callable, or branch outputs
        differ (both types are shown).
    """
    branches = tuple(branches)
    if not branches:
        raise ValueError("xnp.lax.switch: branches must be a non-empty sequence of callables")
    if not all(callable(b) for b in branches):
        raise TypeError("xnp.lax.switch: every branch must be callable")
    aval = _scalar_aval("switch", "index", index, "an integer scalar")
    if aval.dtype not in kit.INTEGER:
        raise TypeError(f"xnp.lax.switch: index must be an integer, got "
                        f"{common.aval_str(aval)}")
    index = elementwise.convert_element_type(index, _INT32)
    index = elementwise.clamp(np.asarray(0, _INT32), index,
                              np.asarray(len(branches) - 1, _INT32))
    labels = [f"branch {k}" for k in range(len(branches))]
    leaves, bodies, out_tree = _trace_branches("switch", branches, labels, operands)
    outs = _bind(index, bodies, leaves)
    return tree_unflatten(out_tree, outs)

