"""``scan_p``: a loop over the leading axis of its ``xs`` operands with a carry
(``lax.scan``, ``lax.map``, ``lax.fori_loop`` with static bounds).

Operands: ``(*consts, *init, *xs)``. Params: ``jaxpr`` (a ClosedJaxpr without consts:
(consts, carry, x slices) -> (carry, y slices)), ``length`` (static trip count; every
``xs`` has it as leading dim), ``reverse`` (iterate from the end; ``ys`` are still
stored at the iteration's index), ``num_consts``, ``num_carry``, ``unroll`` (a
performance hint, >= 1), ``linear`` (one bool per operand, informational: True for
tangent operands of a differentiated scan). Outputs: final carry, then ``ys`` with
a leading axis of size ``length``.

Differentiable in forward and reverse mode (the transpose runs the transposed body
in the opposite direction over the residuals saved by the forward scan).
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import elementwise
from xnp.lax.control_flow import common
from xnp.lax import padding, shape_ops, slicing
from xnp.tracing import ad, batching, core
from xnp.tracing.ad import UndefinedPrimal, Zero
from xnp.tracing.avals import ShapedArray
from xnp.tracing.fp_warnings import at_user_line
from xnp.tracing.host_eval import host_program
from xnp.tracing.jaxpr import eval_jaxpr
from xnp.tracing.jaxpr_transforms import transpose_linear
from xnp.tracing.pytree import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten
from xnp.tracing.transformations import vmap

__all__ = ["scan_p", "scan", "map"]


# --------------------------------------------------------------------------- shape rule


def _same(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def _shorts(avals) -> str:
    return common.avals_str(avals)


def _stacked(aval: ShapedArray, length: int) -> ShapedArray:
    return ShapedArray((length,) + aval.shape, aval.dtype, aval.weak_type)


def _scan_abstract_eval(*avals, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    nc, ncar = num_consts, num_carry
    if jaxpr.consts:
        raise TypeError("internal error in xnp: the scan body must have no consts")
    if len(linear) != len(avals):
        raise TypeError(f"xnp.lax.scan: linear has {len(linear)} entries for {len(avals)} "
                        "operands")
    xs = avals[nc + ncar:]
    for a in xs:
        if a.ndim == 0 or a.shape[0] != length:
            raise TypeError(f"xnp.lax.scan: scanned-over operand {common.aval_str(a)} must "
                            f"have a leading axis of size length={length}.")
    slices = [ShapedArray(a.shape[1:], a.dtype, a.weak_type) for a in xs]
    expected = list(avals[:nc + ncar]) + slices
    ins = jaxpr.in_avals
    if len(ins) != len(expected) or not all(_same(a, b) for a, b in zip(ins, expected)):
        raise TypeError(f"xnp.lax.scan: the body takes ({_shorts(ins)}) but gets "
                        f"({_shorts(expected)}).")
    carry_avals = ins[nc:nc + ncar]
    outs = jaxpr.out_avals
    if len(outs) < ncar or not all(_same(a, b) for a, b in zip(outs[:ncar], carry_avals)):
        raise TypeError(f"xnp.lax.scan: the body returns carry ({_shorts(outs[:ncar])}) for "
                        f"the carry ({_shorts(carry_avals)}).")
    return list(carry_avals) + [_stacked(a, length) for a in outs[ncar:]]




def _split3(seq, nc, ncar):
    return list(seq[:nc]), list(seq[nc:nc + ncar]), list(seq[nc + ncar:])


def _zeros_tangent(aval: ShapedArray, length=None):
    a = ad.tangent_aval(aval if length is None else _stacked(aval, length))
    return Zero(a)


# --------------------------------------------------------------------------- jvp


def _scan_jvp(primals, tangents, *, jaxpr, length, reverse, num_consts, num_carry, unroll,
              linear):
    params = dict(jaxpr=jaxpr, length=length, reverse=reverse, num_consts=num_consts,
                  num_carry=num_carry, unroll=unroll, linear=linear)
    nc, ncar = num_consts, num_carry
    in_avals = jaxpr.in_avals
    out_avals = jaxpr.out_avals
    ny = len(out_avals) - ncar
    nz = [type(t) is not Zero and common.differentiable(a) for t, a in zip(tangents, in_avals)]
    nz_c, nz_carry, nz_x = _split3(nz, nc, ncar)
    zeros = ([_zeros_tangent(a) for a in out_avals[:ncar]]
             + [_zeros_tangent(a, length) for a in out_avals[ncar:]])
    if not any(nz):
        return scan_p.bind(*primals, **params), zeros
    while True:  # fixed point: which carries get a nonzero tangent
        _, out_nz = common.jvp_jaxpr_nz(jaxpr, nz_c + nz_carry + nz_x, nz_carry + [False] * ny)
        new = [a or b for a, b in zip(nz_carry, out_nz[:ncar])]
        if new == nz_carry:
            break
        nz_carry = new
    nz_in = nz_c + nz_carry + nz_x
    t_c, t_carry, t_x = _split3(tangents, nc, ncar)
    carry_avals = in_avals[nc:nc + ncar]
    ct_vals = [t for t, n in zip(t_c, nz_c) if n]
    carry_t_vals = [common.fix_aval(t, ad.tangent_aval(a))
                    for t, a, n in zip(t_carry, carry_avals, nz_carry) if n]
    xs_t_vals = [t for t, n in zip(t_x, nz_x) if n]
    consts, init, xs = _split3(primals, nc, ncar)
    p_out, t_out, out_nz = _scan_linearize(consts, init, xs, ct_vals, carry_t_vals, xs_t_vals,
                                           nz_in, params)
    it = iter(t_out)
    return p_out, [next(it) if n else z for n, z in zip(out_nz, zeros)]


def _scan_linearize(consts, init, xs, ct_vals, carry_t_vals, xs_t_vals, nz_in, params):
    """The jvp as two scans: a known scan computes the primal outputs and stacks the
    residuals each iteration needs; a linear scan maps (residuals, tangents) to output
    tangents. Always split (also in forward mode, like the nested-``jit`` rule), so under
    ``grad`` primals stay concrete and an enclosing jvp jaxpr can be partially evaluated
    equation by equation; the price is storing the residuals in forward mode too."""
    jaxpr, length = params["jaxpr"], params["length"]
    nc, ncar = params["num_consts"], params["num_carry"]
    ny = len(jaxpr.out_avals) - ncar
    nz_carry = nz_in[nc:nc + ncar]

    def hoistable(k):  # consts are loop-invariant; xs residuals are the xs themselves
        return k < nc or k >= nc + ncar

    lin = common.linearize_jaxpr(jaxpr, nz_in, nz_carry + [False] * ny, hoistable)
    out_nz = lin.out_nz
    if out_nz[:ncar] != [bool(n) for n in nz_carry]:
        raise AssertionError("internal error in xnp: scan carry tangents disagree")
    nkc = len(lin.known_consts)
    kouts = scan_p.bind(*lin.known_consts, *consts, *init, *xs, jaxpr=lin.known,
                        length=length, reverse=params["reverse"], num_consts=nkc + nc,
                        num_carry=ncar, unroll=params["unroll"],
                        linear=(False,) * (nkc + nc + ncar + len(xs)))
    p_out = kouts[:ncar + ny]
    if not any(out_nz):  # no tangent reaches an output
        return p_out, [], out_nz
    res_vals = lin.residuals(consts + init + xs, kouts[ncar + ny:])
    kinds = lin.res_kinds
    per_iter = [kd[0] == "computed" or (kd[0] == "invar" and kd[1] >= nc + ncar) for kd in kinds]
    res_c = [i for i, p in enumerate(per_iter) if not p]
    res_x = [i for i, p in enumerate(per_iter) if p]
    nres = len(kinds)
    nct, ncart, nxt = len(ct_vals), len(carry_t_vals), len(xs_t_vals)
    order = (res_c + [nres + i for i in range(nct)] + [nres + nct + i for i in range(ncart)]
             + res_x + [nres + nct + ncart + i for i in range(nxt)])
    body = common.reorder_invars(lin.lin, order)
    lin_flags = ((False,) * len(res_c) + (True,) * (nct + ncart) + (False,) * len(res_x)
                 + (True,) * nxt)
    t_out = scan_p.bind(*[res_vals[i] for i in res_c], *ct_vals, *carry_t_vals,
                        *[res_vals[i] for i in res_x], *xs_t_vals, jaxpr=body, length=length,
                        reverse=params["reverse"], num_consts=len(res_c) + nct,
                        num_carry=ncart, unroll=params["unroll"], linear=lin_flags)
    return p_out, t_out, out_nz


# --------------------------------------------------------------------------- transpose


def _scan_transpose(cts, *args, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    """The transposed body runs in the opposite direction: its carry holds the cotangents
    of the linear consts (accumulated) and of the carry; its xs are the residual xs and
    the ``ys`` cotangents; its ys are the cotangents of the linear xs."""
    nc, ncar = num_consts, num_carry
    consts, carry, xs = _split3(args, nc, ncar)
    lin_c = [type(a) is UndefinedPrimal for a in consts]
    lin_x = [type(a) is UndefinedPrimal for a in xs]
    # The carry of a linear scan is linear in the body even where its initial value is a
    # known value (an instantiated zero tangent): it is transposed as linear and such a
    # carry gets no cotangent (as in JAX).
    lin_carry = [type(a) is UndefinedPrimal for a in carry]
    c_avals, carry_avals, x_avals = _split3(jaxpr.in_avals, nc, ncar)
    y_avals = jaxpr.out_avals[ncar:]
    res_c = [a for a, lin in zip(consts, lin_c) if not lin]
    res_c_avals = [a for a, lin in zip(c_avals, lin_c) if not lin]
    res_x = [a for a, lin in zip(xs, lin_x) if not lin]
    res_x_avals = [a for a, lin in zip(x_avals, lin_x) if not lin]
    acc_avals = [a.strip_weak_type() for a, lin in zip(c_avals, lin_c) if lin]
    ct_carry_avals = [a.strip_weak_type() for a in carry_avals]
    ct_y_avals = [a.strip_weak_type() for a in y_avals]
    lin_x_avals = [a.strip_weak_type() for a, lin in zip(x_avals, lin_x) if lin]
    ct_carry = [common.fix_aval(c, a) for c, a in zip(cts[:ncar], ct_carry_avals)]
    ct_ys = [common.fix_aval(c, _stacked(a, length)) for c, a in zip(cts[ncar:], ct_y_avals)]
    acc0 = [ad.instantiate(Zero(a)) for a in acc_avals]
    nrc, nacc, nrx = len(res_c), len(acc_avals), len(res_x)

    def body_t(*a):
        rc = iter(a[:nrc])
        acc = a[nrc:nrc + nacc]
        ctc = list(a[nrc + nacc:nrc + nacc + ncar])
        rx = iter(a[nrc + nacc + ncar:nrc + nacc + ncar + nrx])
        cty = list(a[nrc + nacc + ncar + nrx:])
        full = ([UndefinedPrimal(av) if lin else next(rc) for av, lin in zip(c_avals, lin_c)]
                + [UndefinedPrimal(av) for av in carry_avals]
                + [UndefinedPrimal(av) if lin else next(rx) for av, lin in zip(x_avals, lin_x)])
        out = transpose_linear(jaxpr.jaxpr, full, ctc + cty)
        o_c, o_carry, o_x = _split3(out, nc, ncar)
        ct_consts = [c for c, lin in zip(o_c, lin_c) if lin]
        new_acc = [common.fix_aval(ad.add_tangents(s, c), av)
                   for s, c, av in zip(acc, ct_consts, acc_avals)]
        ct_in = [common.fix_aval(c, av) for c, av in zip(o_carry, ct_carry_avals)]
        lin_ct_x = [c for c, lin in zip(o_x, lin_x) if lin]
        ct_x = [common.fix_aval(c, av) for c, av in zip(lin_ct_x, lin_x_avals)]
        return new_acc + ct_in + ct_x

    bj, bconsts = common.internal_trace(
        body_t, res_c_avals + acc_avals + ct_carry_avals + res_x_avals + ct_y_avals,
        common.jaxpr_name(jaxpr), "transpose")
    nb = len(bconsts)
    outs = scan_p.bind(*bconsts, *res_c, *acc0, *ct_carry, *res_x, *ct_ys, jaxpr=bj,
                       length=length, reverse=not reverse, num_consts=nb + nrc,
                       num_carry=nacc + ncar, unroll=unroll,
                       linear=(False,) * (nb + nrc + nacc + ncar + nrx + len(ct_ys)))
    acc = iter(outs[:nacc])
    ct_init = outs[nacc:nacc + ncar]
    ct_xs = iter(outs[nacc + ncar:])
    return ([next(acc) if lin else None for lin in lin_c]
            + [c if lin else None for c, lin in zip(ct_init, lin_carry)]
            + [next(ct_xs) if lin else None for lin in lin_x])


# --------------------------------------------------------------------------- batching


def _scan_batch(vals, dims, *, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    nc, ncar = num_consts, num_carry
    size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    consts, init, xs = _split3(vals, nc, ncar)
    cd, initd, xsd = _split3(dims, nc, ncar)
    ny = len(jaxpr.out_avals) - ncar
    # batched xs: batch axis right after the scanned axis, so a slice is batched at 0
    xs = [batching.moveaxis(x, d, 1) if d is not None else x for x, d in zip(xs, xsd)]
    x_dims = [0 if d is not None else None for d in xsd]
    carry_b = [d is not None for d in initd]
    while True:  # fixed point: which carries become batched
        carry_dims = [0 if b else None for b in carry_b]
        _, out_b = common.batch_jaxpr_dims(jaxpr, cd + carry_dims + x_dims, size,
                                           carry_b + [False] * ny)
        new = [a or b for a, b in zip(carry_b, out_b[:ncar])]
        if new == carry_b:
            break
        carry_b = new
    carry_dims = [0 if b else None for b in carry_b]
    bj, out_b = common.batch_jaxpr_dims(jaxpr, cd + carry_dims + x_dims, size,
                                        carry_b + [False] * ny)
    bjc, bconsts = common.closure_convert(bj)
    nb = len(bconsts)
    targets = bjc.in_avals[nb + nc:nb + nc + ncar] + bjc.out_avals[ncar:]
    bjc = common.strong_outputs(bjc, targets)
    init = [shape_ops.bdim_to_front(x, d, size) if b else x
            for x, d, b in zip(init, initd, carry_b)]
    outs = scan_p.bind(*bconsts, *consts, *init, *xs, jaxpr=bjc, length=length, reverse=reverse,
                       num_consts=nb + nc, num_carry=ncar, unroll=unroll,
                       linear=(False,) * nb + tuple(linear))
    out_dims = carry_dims + [1 if b else None for b in out_b[ncar:]]
    return outs, out_dims


def _stack(ys, aval, length):
    """``ys`` (one value per iteration, in index order) stacked on a new leading axis."""
    shape = (length,) + aval.shape
    if length == 0:
        return shape_ops.broadcast_in_dim(np.zeros((), aval.dtype), shape, ())
    parts = [shape_ops.broadcast_in_dim(y, (1,) + aval.shape, tuple(range(1, len(shape))))
             for y in ys]
    return padding.concatenate(parts, 0)


def _scan_on_host(program, values, nc, ncar, y_avals, length, reverse):
    """The eager scan on native values: ``program`` (``host_eval.HostProgram`` of the
    body) per iteration, each ``y`` written into its row of a new stacked array."""
    consts, carry, xs = values[:nc], values[nc:nc + ncar], values[nc + ncar:]
    ys = [np.empty((length,) + a.shape, a.dtype) for a in y_avals]
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        outs = program(*consts, *carry, *[x[i, ...] for x in xs])
        carry = outs[:ncar]
        for y, o in zip(ys, outs[ncar:]):
            y[i] = o
    return carry, ys


def _scan_impl(*args, jaxpr, length, reverse, num_consts, num_carry, unroll, linear):
    params = dict(jaxpr=jaxpr, length=length, reverse=reverse, num_consts=num_consts,
                  num_carry=num_carry, unroll=unroll, linear=linear)
    staged = common.redirect(scan_p, args, params)
    if staged is not None:
        return staged
    nc, ncar = num_consts, num_carry
    in_avals = jaxpr.in_avals
    consts = common.operands(in_avals[:nc], args[:nc])
    carry = common.operands(in_avals[nc:nc + ncar], args[nc:nc + ncar])
    xs = [common.as_operand(x) for x in args[nc + ncar:]]
    y_avals = jaxpr.out_avals[ncar:]
    values = common.host_values(consts + carry + xs)
    program = host_program(jaxpr) if values is not None else None
    if program is not None:  # the body's kernels on the host values, each iteration
        carry, ys = at_user_line(_scan_on_host, program, values, nc, ncar, y_avals, length,
                                 reverse)
        return common.as_arrays(carry, in_avals[nc:nc + ncar]) + common.as_arrays(
            ys, [a.update(shape=(length,) + a.shape) for a in y_avals])
    ys = [[None] * length for _ in y_avals]
    steps = range(length - 1, -1, -1) if reverse else range(length)
    for i in steps:
        x_i = [slicing.index_in_dim(x, i, 0, keepdims=False) for x in xs]
        outs = eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *consts, *carry, *x_i)
        carry = outs[:ncar]
        for j, y in enumerate(outs[ncar:]):
            ys[j][i] = y
    carry = common.with_avals(carry, in_avals[nc:nc + ncar])
    stacked = [_stack(common.with_avals(y, [a] * length), a, length) for y, a in zip(ys, y_avals)]
    stacked_avals = [a.update(shape=(length,) + a.shape) for a in y_avals]
    return carry + common.with_avals(stacked, stacked_avals)


scan_p = kit.primitive("scan", linear=True, abstract_eval=_scan_abstract_eval,
                       multiple_results=True,
                       impl=_scan_impl, jvp=_scan_jvp, transpose=_scan_transpose,
                       batch=_scan_batch)


# --------------------------------------------------------------------------- public API


def _paths(prefix, tree) -> list[str]:
    return [prefix + keystr(p) for p, _ in tree_flatten_with_path(tree)[0]]


def _static_length(fname, length):
    try:
        return operator.index(length)
    except TypeError:
        raise TypeError(f"xnp.lax.{fname}: length must be a Python int (static), got "
                        f"{type(length).__name__}: {length!r}") from None


def _unroll_param(fname, unroll, length) -> int:
    if isinstance(unroll, bool):
        return max(length, 1) if unroll else 1
    try:
        u = operator.index(unroll)
    except TypeError:
        raise TypeError(f"xnp.lax.{fname}: unroll must be an int or bool, got {unroll!r}") from None
    if u < 0:
        raise ValueError(f"xnp.lax.{fname}: unroll must be >= 0, got {u}")
    return max(u, 1)


def _split_pair(fname, out_tree):
    example = tree_unflatten(out_tree, list(range(out_tree.num_leaves)))
    if not isinstance(example, (tuple, list)) or len(example) != 2:
        raise TypeError(f"xnp.lax.{fname}: the body must return a pair (carry, y), got a "
                        f"value with structure {out_tree}.")
    return tree_flatten(example[0])[1], tree_flatten(example[1])[1]


def _scan(fname, f, init, xs, length, reverse, unroll, *, arg_names=None, wrapper=None,
          carry_names=None):
    """scan with optional argument names and a wrapper around ``f`` (fori_loop, map);
    ``carry_names``: the carry leaves' names in messages (default ``carry[...]`` paths)."""
    if not callable(f):
        raise TypeError(f"xnp.lax.{fname}: f must be callable, got {type(f).__name__}")
    try:
        c_leaves, c_tree, c_avals = common.flat_avals(init)
        x_leaves, x_tree, x_avals = common.flat_avals(xs)
    except TypeError as e:
        raise TypeError(f"xnp.lax.{fname}: init and xs must be arrays, scalars or pytrees of "
                        f"them; {e}") from None
    x_names = _paths("xs", xs)
    for n, a in zip(x_names, x_avals):
        if a.ndim == 0:
            raise ValueError(f"xnp.lax.{fname}: scanned-over value {n} has no leading axis to "
                             f"scan over ({common.aval_str(a)}).")
    if length is not None:
        length = _static_length(fname, length)
        if length < 0:
            raise ValueError(f"xnp.lax.{fname}: length must be >= 0, got {length}")
    sizes = {a.shape[0] for a in x_avals}
    if len(sizes) > 1 or (length is not None and sizes and sizes != {length}):
        desc = ", ".join(f"{n} {common.aval_str(a)}" for n, a in zip(x_names, x_avals))
        given = f" and length={length}" if length is not None else ""
        raise ValueError(f"xnp.lax.{fname}: scanned-over values must share their leading axis "
                         f"size{given}; got {desc}.")
    if length is None:
        if not sizes:
            raise ValueError(f"xnp.lax.{fname}: length must be given when xs has no arrays "
                             "to scan over.")
        length = sizes.pop()
    unroll = _unroll_param(fname, unroll, length)
    slice_avals = [ShapedArray(a.shape[1:], a.dtype, a.weak_type) for a in x_avals]
    x_example = tree_unflatten(x_tree, slice_avals)
    for _ in range(4):
        carry_example = tree_unflatten(c_tree, c_leaves)
        body = common.trace_body(f, (carry_example, x_example), c_avals + slice_avals,
                                 transformation=fname, arg_names=arg_names, wrapper=wrapper)
        carry_tree, y_tree = _split_pair(fname, body.out_tree)
        if carry_tree != c_tree:
            raise TypeError(f"xnp.lax.{fname}: the body's carry output must have the same "
                            f"pytree structure as init, got {carry_tree} and {c_tree}.")
        ncar = len(c_leaves)
        changed = False
        for i, (a, o) in enumerate(zip(c_avals, body.out_avals[:ncar])):
            p = common.weak_promotion(a, o) if a != o else None
            if p is not None:
                c_leaves[i] = elementwise.convert_element_type(c_leaves[i], p.dtype)
                c_avals[i] = p
                changed = True
        if not changed:
            break
    common.check_same_types(fname, "the body's carry output and init",
                            carry_names or _paths("carry", init), c_avals,
                            body.out_avals[:ncar], "input", "output", loop=True)
    targets = list(c_avals) + list(body.out_avals[ncar:])
    refs, (body,) = common.share_refs([body])  # refs it closes over: carried state
    ref_vals = common.read_refs(refs)
    targets = [core.aval_of(v) for v in ref_vals] + targets
    jaxpr = common.strong_outputs(body.jaxpr, targets)
    n_ops = body.nconsts + len(refs) + len(c_leaves) + len(x_leaves)
    outs = scan_p.bind(*body.consts, *ref_vals, *c_leaves, *x_leaves, jaxpr=jaxpr,
                       length=length, reverse=bool(reverse), num_consts=body.nconsts,
                       num_carry=len(refs) + ncar, unroll=unroll, linear=(False,) * n_ops)
    common.write_refs(refs, outs[:len(refs)])
    outs = outs[len(refs):]
    return tree_unflatten(c_tree, outs[:ncar]), tree_unflatten(y_tree, outs[ncar:])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``; stack the ``y``.

    Semantics (``xs`` a pytree whose leaves share the leading size ``length``)::

        ys = []
        for i in (reversed(range(length)) if reverse else range(length)):
            carry, y = f(carry, xs[i])      # x: every leaf of xs indexed at i
            ys.append(y)                     # stored at index i (also when reverse)
        return carry, stack(ys)

    Parameters
    ----------
    f : callable
        ``f(carry, x) -> (carry, y)``; the output carry has ``init``'s structure,
        shapes and dtypes (a weak-typed Python-scalar leaf of ``init`` takes the type
        ``f`` gives it); ``y`` is any pytree (or None).
    init : pytree of arrays or scalars
    xs : pytree of arrays, or None
        Leaves share their leading axis size; None scans ``length`` times with
        ``x = None``.
    length : int, optional
        Static; required when ``xs`` has no leaves, else must match.
    reverse : bool
        Iterate from the last index down.
    unroll : int or bool
        Performance hint (True: ``length``); results do not depend on it.

    ``f`` is traced abstractly once (also eagerly): a Python ``if`` on the carry raises
    ``TracerBoolConversionError`` ("... for scan"). Differentiable in forward and
    reverse mode; batched by ``vmap``.

    Returns
    -------
    (carry, ys)
        ``ys`` leaves have shape ``(length,) + y.shape``.

    Raises
    ------
    TypeError
        ``f`` does not return a pair, or the output carry differs from ``init`` in
        structure, shape or dtype (both types are shown).
    ValueError
        ``xs`` leaves have different leading sizes or no leading axis, ``length``
        disagrees with them, or neither gives a length.
    """
    return _scan("scan", f, init, xs, length, reverse, unroll)


def map(f, xs, *, batch_size=None):  # noqa: A001  (lax name)
    """``stack([f(x) for x in xs])`` over the leading axis of ``xs`` (a pytree), as one
    ``scan`` (sequential, not vectorised). ``f`` is traced abstractly once.

    ``batch_size`` (an int >= 1, as JAX's): the leading axis is cut into batches of that
    many elements, each computed by ``vmap(f)`` in one iteration of the scan, and the
    remainder by one more ``vmap(f)``; the results are the same.

    Raises the errors of :func:`scan` for ``xs``; ``TypeError``/``ValueError`` for a
    ``batch_size`` that is not a positive int.
    """
    if not callable(f):
        raise TypeError(f"xnp.lax.map: f must be callable, got {type(f).__name__}")
    if batch_size is not None:
        return _batched_map(f, xs, batch_size)

    def wrapper(fun, carry, x):
        return (), fun(x)

    names = common.flat_arg_names(f, (xs,))
    _, ys = _scan("map", f, (), xs, None, False, 1, arg_names=names, wrapper=wrapper)
    return ys


def _batched_map(f, xs, batch_size):
    """:func:`map` with ``batch_size``: a scan over batches of ``vmap(f)``, the remainder
    by one more ``vmap(f)``, the results concatenated back along the leading axis."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise (TypeError if isinstance(batch_size, bool) or not isinstance(batch_size, int)
               else ValueError)(
            f"xnp.lax.map: batch_size must be a positive int, got {batch_size!r}")
    leaves, tree = tree_flatten(xs)
    if not leaves:
        return map(f, xs)
    n = core.aval_of(leaves[0]).shape[0] if core.aval_of(leaves[0]).ndim else 0
    k, rest = divmod(n, batch_size)
    batched = vmap(f)
    parts = []
    if k:  # (k, batch_size, ...) batches, scanned; then back to (k * batch_size, ...)
        main = [shape_ops.reshape(slicing.slice_in_dim(x, 0, k * batch_size),
                                  (k, batch_size) + core.aval_of(x).shape[1:]) for x in leaves]
        ys, out_tree = tree_flatten(map(batched, tree_unflatten(tree, main)))
        parts.append([shape_ops.reshape(y, (k * batch_size,) + core.aval_of(y).shape[2:])
                      for y in ys])
    if rest or not k:
        tail = [slicing.slice_in_dim(x, k * batch_size, n) for x in leaves]
        ys, out_tree = tree_flatten(batched(tree_unflatten(tree, tail)))
        parts.append(ys)
    if len(parts) == 1:
        return tree_unflatten(out_tree, parts[0])
    return tree_unflatten(out_tree, [padding.concatenate([a, b], 0) for a, b in zip(*parts)])
