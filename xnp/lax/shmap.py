"""``xnp.shard_map``: a function mapped over the blocks of arrays laid out on a device
mesh (JAX's ``shard_map``), and its primitive ``shard_map_p``.

``shard_map(f, mesh, in_specs, out_specs)(*args)``: each device of ``mesh`` runs ``f``
on its block of every argument (the argument split along the mesh axes its
``PartitionSpec`` names; replicated along the others) and returns its block of each
result; ``out_specs`` says how the blocks form the global results. Inside ``f`` the
collectives of :mod:`xnp.lax.parallel` combine blocks across the named mesh axes.

Params of ``shard_map_p``: ``jaxpr`` (a ClosedJaxpr without consts, on blocks), ``mesh``
(the ``xnp.sharding.Mesh``; only passed on here), ``in_names``/``out_names`` (per array,
per dimension, the tuple of mesh axes splitting it). Under ``jit`` the XLA backend lowers
it to Shardy's ``sdy.manual_computation``; eagerly it runs as a jitted program.

Replication is not checked (JAX's ``check_rep=False``): an output whose ``out_specs``
leave a mesh axis unmentioned is taken to be equal on the devices along that axis, and
XLA returns one of them. The transpose follows JAX's rules for that mode: cotangents of
such outputs are divided by the number of devices along the unmentioned axes, and the
cotangents of arguments replicated along mesh axes are summed (``psum``) over them.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import parallel, shape_ops
from xnp.lax.control_flow import common
from xnp.tracing import Primitive, ShapedArray, core
from xnp.tracing.ad import UndefinedPrimal, Zero, instantiate, tangent_aval
from xnp.tracing.batching import moveaxis
from xnp.tracing.jaxpr import ClosedJaxpr, eval_jaxpr
from xnp.tracing.jaxpr_transforms import transpose_linear
from xnp.tracing.errors import aval_str
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["shard_map", "shard_map_p"]


# --------------------------------------------------------------------------- block avals

def _scaled(aval: ShapedArray, names, sizes, divide: bool) -> ShapedArray:
    shape = []
    for d, axes in zip(aval.shape, names):
        n = int(np.prod([sizes[a] for a in axes], dtype=np.int64))
        shape.append(d // n if divide else d * n)
    return aval.update(shape=tuple(shape))


def _block(aval, names, sizes):
    return _scaled(aval, names, sizes, True)


def _global(aval, names, sizes):
    return _scaled(aval, names, sizes, False)


def _replicated(ndim: int):
    return ((),) * ndim


def _unmentioned(mesh, names) -> tuple[str, ...]:
    used = {a for axes in names for a in axes}
    return tuple(a for a in mesh.axis_names if a not in used)


def _trace(fun, avals, mesh, name):
    """Trace an internal body ``fun(*flat) -> list`` on block avals, mesh axes bound:
    ``(ClosedJaxpr without consts, consts)``."""
    with parallel.axis_env(mesh.shape):
        return common.internal_trace(fun, avals, name, "shard_map")


def _bind(jaxpr, consts, args, mesh, in_names, out_names):
    """Bind ``shard_map_p``; ``consts`` (closed-over values) are replicated operands."""
    cnames = tuple(_replicated(core.aval_of(c).ndim) for c in consts)
    return shard_map_p.bind(*consts, *args, jaxpr=jaxpr, mesh=mesh,
                            in_names=cnames + tuple(in_names), out_names=tuple(out_names))


# --------------------------------------------------------------------------- the primitive

def _shard_map_abstract_eval(*avals, jaxpr, mesh, in_names, out_names):
    sizes = mesh.shape
    if len(avals) != len(jaxpr.in_avals) or len(in_names) != len(avals):
        raise TypeError(f"xnp.lax.shard_map: {len(avals)} operands for a body of "
                        f"{len(jaxpr.in_avals)} inputs and {len(in_names)} in_names.")
    for i, (a, names, want) in enumerate(zip(avals, in_names, jaxpr.in_avals)):
        blk = _block(a, names, sizes)
        if blk.shape != want.shape or blk.dtype != want.dtype:
            raise TypeError(f"xnp.lax.shard_map: operand {i} {aval_str(a)} split by "
                            f"{names} gives blocks {aval_str(blk)}, but the body takes "
                            f"{aval_str(want)}.")
    return [_global(a, names, sizes) for a, names in zip(jaxpr.out_avals, out_names)]


def _shard_map_impl(*args, jaxpr, mesh, in_names, out_names):
    redirected = common.redirect(shard_map_p, args, dict(
        jaxpr=jaxpr, mesh=mesh, in_names=in_names, out_names=out_names))
    if redirected is not None:
        return redirected
    from xnp.tracing.jit import jit  # noqa: PLC0415  (eagerly: one SPMD program)

    return jit(lambda *xs: shard_map_p.bind(*xs, jaxpr=jaxpr, mesh=mesh, in_names=in_names,
                                            out_names=out_names))(*args)


def _shard_map_jvp(primals, tangents, *, jaxpr, mesh, in_names, out_names):
    # as nested jit's: a known shard_map (primal outputs and residuals) and a linear one
    params = dict(jaxpr=jaxpr, mesh=mesh, in_names=in_names, out_names=out_names)
    out_avals = jaxpr.out_avals
    nonzeros = [type(t) is not Zero and common.differentiable(a)
                for t, a in zip(tangents, jaxpr.in_avals)]
    if not any(nonzeros):
        outs = shard_map_p.bind(*primals, **params)
        return outs, [Zero(tangent_aval(core.aval_of(o))) for o in outs]
    n_out = len(out_avals)
    with parallel.axis_env(mesh.shape):
        lin = common.linearize_jaxpr(jaxpr, nonzeros, [False] * n_out)
    # computed residuals leave the known body with a leading axis split over the whole
    # mesh (block (1, *shape)), so each device gets its own back in the linear body
    all_axes = tuple(mesh.axis_names)
    n_kc = len(lin.known_consts)
    computed_avals = lin.known.out_avals[n_out:]

    def known_fun(*xs):
        outs = eval_jaxpr(lin.known.jaxpr, [], *xs)
        return outs[:n_out] + [shape_ops.reshape(r, (1,) + a.shape)
                               for r, a in zip(outs[n_out:], computed_avals)]

    known_avals = lin.known.in_avals
    kj, kconsts = _trace(known_fun, known_avals, mesh, "shard_map_known")
    k_in_names = tuple(_replicated(a.ndim) for a in known_avals[:n_kc]) + tuple(in_names)
    res_names = tuple((all_axes,) + _replicated(a.ndim) for a in computed_avals)
    kouts = _bind(kj, kconsts, [*lin.known_consts, *primals], mesh, k_in_names,
                  tuple(out_names) + res_names)
    p_out, computed = kouts[:n_out], kouts[n_out:]
    if not any(lin.out_nz):
        return p_out, [Zero(tangent_aval(core.aval_of(o))) for o in p_out]
    res_vals, res_n, res_avals, res_computed = [], [], [], []
    for kind, aval in zip(lin.res_kinds, lin.res_avals):
        if kind[0] == "invar":
            res_vals.append(primals[kind[1]])
            res_n.append(in_names[kind[1]])
            res_avals.append(aval)
        elif kind[0] == "const":
            res_vals.append(kind[1])
            res_n.append(_replicated(aval.ndim))
            res_avals.append(aval)
        else:
            res_vals.append(computed[kind[1]])
            res_n.append((all_axes,) + _replicated(aval.ndim))
            res_avals.append(aval.update(shape=(1,) + aval.shape))
        res_computed.append(kind[0] == "computed")
    n_res = len(res_vals)

    def lin_fun(*xs):
        res = [shape_ops.reshape(r, a.shape) if c else r
               for r, a, c in zip(xs[:n_res], lin.res_avals, res_computed)]
        return eval_jaxpr(lin.lin.jaxpr, lin.lin.consts, *res, *xs[n_res:])

    t_in = [t for t, nz in zip(tangents, nonzeros) if nz]
    t_names = [n for n, nz in zip(in_names, nonzeros) if nz]
    t_avals = [tangent_aval(a) for a, nz in zip(jaxpr.in_avals, nonzeros) if nz]
    lj, lconsts = _trace(lin_fun, res_avals + t_avals, mesh, "shard_map_linear")
    lout_names = [n for n, nz in zip(out_names, lin.out_nz) if nz]
    t_out = iter(_bind(lj, lconsts, [*res_vals, *t_in], mesh, res_n + t_names, lout_names))
    return p_out, [next(t_out) if nz else Zero(tangent_aval(core.aval_of(p)))
                   for nz, p in zip(lin.out_nz, p_out)]


def _shard_map_transpose(cts, *args, jaxpr, mesh, in_names, out_names):
    sizes = mesh.shape
    linear = [type(a) is UndefinedPrimal for a in args]
    res = [a for a, lin in zip(args, linear) if not lin]
    res_names = [n for n, lin in zip(in_names, linear) if not lin]
    res_avals = [a for a, lin in zip(jaxpr.in_avals, linear) if not lin]
    cts = [instantiate(c) if type(c) is Zero else c for c in cts]
    ct_avals = [_block(core.aval_of(c), n, sizes) for c, n in zip(cts, out_names)]
    n_res = len(res)

    def fun(*xs):
        it = iter(xs[:n_res])
        body_args = [UndefinedPrimal(a) if lin else next(it)
                     for a, lin in zip(jaxpr.in_avals, linear)]
        body_cts = []
        for c, names in zip(xs[n_res:], out_names):
            n = int(np.prod([sizes[a] for a in _unmentioned(mesh, names)], dtype=np.int64))
            a = core.aval_of(c)
            if n != 1 and common.differentiable(a):
                c = ew.div(c, core.lift(np.asarray(n, a.dtype)))
            body_cts.append(c)
        in_cts = transpose_linear(jaxpr.jaxpr, body_args, body_cts)
        out = []
        for ct, lin, names, a in zip(in_cts, linear, in_names, jaxpr.in_avals):
            if not lin:
                continue
            ct = instantiate(ct, tangent_aval(a)) if type(ct) is Zero else ct
            rest = _unmentioned(mesh, names)
            if rest and common.differentiable(a):
                ct = parallel.psum_p.bind(ct, axes=rest)
            out.append(ct)
        return out

    tj, tconsts = _trace(fun, res_avals + ct_avals, mesh, "shard_map_transpose")
    lin_names = [n for n, lin in zip(in_names, linear) if lin]
    outs = iter(_bind(tj, tconsts, [*res, *cts], mesh, res_names + list(out_names), lin_names))
    return [next(outs) if lin else None for lin in linear]


def _shard_map_batch(vals, dims, *, jaxpr, mesh, in_names, out_names):
    # the batch axis goes first and is not split
    size = R.batch_size(vals, dims)
    vals = [v if d is None else moveaxis(v, d, 0) for v, d in zip(vals, dims)]
    in_dims = [None if d is None else 0 for d in dims]
    with parallel.axis_env(mesh.shape):
        bj, batched = common.batch_jaxpr_dims(jaxpr, in_dims, size, [False] * len(out_names))
    bj, consts = common.closure_convert(bj)
    new_in = [n if d is None else ((),) + n for n, d in zip(in_names, dims)]
    new_out = [((),) + n if b else n for n, b in zip(out_names, batched)]
    outs = _bind(bj, consts, vals, mesh, new_in, new_out)
    return outs, [0 if b else None for b in batched]


shard_map_p = kit.primitive("shard_map", linear=True, abstract_eval=_shard_map_abstract_eval,
                        jvp=_shard_map_jvp, transpose=_shard_map_transpose,
                        batch=_shard_map_batch, multiple_results=True, impl=_shard_map_impl)


# --------------------------------------------------------------------------- the public function

def _is_spec(s) -> bool:
    return s is None or getattr(type(s), "_is_partition_spec", False)


def _match(fun, what, spec, tree, path, out):
    """Append one spec per leaf of ``tree``: ``spec`` is a PartitionSpec/None for the
    whole subtree or a tuple/list/dict of specs matching its structure (a prefix)."""
    if _is_spec(spec):
        out.extend([spec] * len(tree_flatten(tree)[0]))
    elif isinstance(spec, (tuple, list)) and isinstance(tree, (tuple, list)) and len(
            spec) == len(tree):
        for i, (s, t) in enumerate(zip(spec, tree)):
            _match(fun, what, s, t, f"{path}[{i}]", out)
    elif isinstance(spec, dict) and isinstance(tree, dict) and set(spec) == set(tree):
        for k in tree:
            _match(fun, what, spec[k], tree[k], f"{path}[{k!r}]", out)
    else:
        raise ValueError(f"xnp.shard_map of {fun}: `{what}`{path} ({spec!r}) does not match "
                         f"the structure of {'the arguments' if what == 'in_specs' else 'the results'}"
                         f"{path} ({type(tree).__name__}); give one PartitionSpec per "
                         "array or one for a whole subtree.")


def _names(fun, what, spec, aval, mesh, where):
    """Per-dimension mesh axes of ``spec`` for an array of ``aval``; checks rank, axis
    names and (``what == "in_specs"``) divisibility."""
    spec = () if spec is None else tuple(spec)
    if len(spec) > aval.ndim:
        raise ValueError(f"xnp.shard_map of {fun}: {what}{where} {spec} has {len(spec)} "
                         f"entries, more than the rank {aval.ndim} of {aval_str(aval)}.")
    names, seen = [], set()
    for p in spec + (None,) * (aval.ndim - len(spec)):
        axes = () if p is None else (p,) if isinstance(p, str) else tuple(p)
        for a in axes:
            if a not in mesh.axis_names:
                raise ValueError(f"xnp.shard_map of {fun}: {what}{where} {spec} names mesh "
                                 f"axis {a!r}, but the mesh's axes are {mesh.axis_names}.")
            if a in seen:
                raise ValueError(f"xnp.shard_map of {fun}: {what}{where} {spec} uses mesh "
                                 f"axis {a!r} twice.")
            seen.add(a)
        names.append(axes)
    if what == "in_specs":
        for i, (d, axes) in enumerate(zip(aval.shape, names)):
            n = int(np.prod([mesh.shape[a] for a in axes], dtype=np.int64))
            if d % n:
                raise ValueError(f"xnp.shard_map of {fun}: dimension {i} of argument{where} "
                                 f"{aval_str(aval)} (size {d}) is not divisible by the {n} "
                                 f"devices of mesh axes {axes} that in_specs split it over.")
    return tuple(names)


def shard_map(f, mesh, in_specs, out_specs, *, check_rep: bool = False):
    """Map ``f`` over the blocks of its arguments on ``mesh`` (JAX's ``shard_map``).

    Parameters
    ----------
    f : callable
        Runs on every device with that device's blocks (pytrees of arrays) and returns its
        blocks of the results. It may use the collectives ``xnp.lax.psum``, ``pmean``,
        ``pmax``, ``pmin``, ``all_gather``, ``psum_scatter``, ``ppermute`` and
        ``axis_index`` over the mesh's axis names.
    mesh : xnp.sharding.Mesh
    in_specs : PartitionSpec, or a tuple (pytree prefix of the arguments) of them
        How each argument is split: dimension ``i`` over the mesh axes ``spec[i]``;
        along the other axes every device gets the same block. None is ``P()``.
    out_specs : PartitionSpec, or a pytree prefix of ``f``'s result
        How the result blocks form the global results: a dimension named with mesh axes
        concatenates the blocks along them; along axes it does not name the blocks are
        taken to be equal (not checked).
    check_rep : bool
        Must be False: xnp does not check that outputs are replicated along the mesh axes
        their ``out_specs`` leave out (JAX's ``check_rep=False``; see the module notes
        for the transpose rules this implies).

    Returns
    -------
    callable
        Taking the global arrays and returning the global results. Composes with
        ``jit`` (one SPMD program, lowered to Shardy's ``sdy.manual_computation``),
        ``grad``/``vjp``/``jvp`` and ``vmap`` (the batch axis is not split). Called
        outside ``jit`` it is compiled and run as one program.

    Raises
    ------
    ValueError
        A spec longer than its array's rank, naming an axis the mesh lacks or twice, a
        dimension not divisible by its number of blocks, or specs not matching the
        arguments'/results' structure.
    """
    if not callable(f):
        raise TypeError(f"xnp.shard_map: expected a callable, got {type(f).__name__}.")
    if not hasattr(mesh, "axis_names") or not hasattr(mesh, "_spec"):
        raise TypeError(f"xnp.shard_map: `mesh` must be an xnp.sharding.Mesh, got "
                        f"{type(mesh).__name__}.")
    if check_rep:
        raise NotImplementedError("xnp.shard_map: check_rep=True (replication checking of "
                                  "the outputs) is not implemented; pass check_rep=False.")
    fname = getattr(f, "__name__", type(f).__name__)
    sizes = mesh.shape

    def mapped(*args):
        leaves, in_tree = tree_flatten(args)
        avals = [core.aval_of(x) for x in leaves]
        specs: list = []
        _match(fname, "in_specs", in_specs, args, "", specs)
        in_names = tuple(_names(fname, "in_specs", s, a, mesh, f"[{i}]")
                         for i, (s, a) in enumerate(zip(specs, avals)))
        blocks = [_block(a, n, sizes) for a, n in zip(avals, in_names)]
        with parallel.axis_env(sizes):
            body = common.trace_body(f, args, blocks, transformation="shard_map")
        if body.ref_consts:
            raise NotImplementedError(f"xnp.{fname}: the function closes over a ref made "
                                      "outside it; pass its value as an argument instead")
        outs_struct = tree_unflatten(body.out_tree, list(range(len(body.out_avals))))
        ospecs: list = []
        _match(fname, "out_specs", out_specs, outs_struct, "", ospecs)
        out_names = tuple(_names(fname, "out_specs", s, a, mesh, f"[{i}]")
                          for i, (s, a) in enumerate(zip(ospecs, body.out_avals)))
        outs = _bind(body.jaxpr, body.consts, leaves, mesh, in_names, out_names)
        return tree_unflatten(body.out_tree, outs)

    mapped.__name__ = f"shard_map_{fname}"
    mapped.__wrapped__ = f
    return mapped
