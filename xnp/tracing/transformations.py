"""User-facing transformations: ``jvp``, ``linearize``, ``vjp``, ``grad``,
``value_and_grad``, ``jacfwd``, ``jacrev``, ``hessian`` and ``vmap``.

They flatten pytrees, run the traces of :mod:`xnp.tracing.ad` and
:mod:`xnp.tracing.batching`, and check their inputs with errors that name the
function and the argument.

These traces do not stage constants: an array the function computes from constants
only (``y = zeros(n)``) stays eager. When the function writes a traced value into
such an array (``y[i] = x``), the array is bound to a cell, a ref of the transformation
(:mod:`xnp.tracing.rebound`), and the write is traced, so the function runs once.
"""

from __future__ import annotations

import functools

import numpy as np

from xnp.tracing import ad, batching, core, errors, rebound
from xnp.tracing.ad import Zero
from xnp.tracing.jit_aot import write_back_any
from xnp.tracing.partial_eval import debug_info_for, signature_arg_names
from xnp.tracing.state import Ref
from xnp.tracing.pytree import (keystr, tree_flatten, tree_flatten_with_path,
                                tree_structure, tree_unflatten)

__all__ = ["jvp", "linearize", "vjp", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian",
           "vmap"]


def _fun_name(fun) -> str:
    return getattr(fun, "__name__", type(fun).__name__)


def _flat_fun(fun, in_tree, store, with_kwargs=False):
    """``fun`` on flat leaves: ``in_tree`` is the tree of the positional arguments, or
    (``with_kwargs``) of the pair ``(args, kwargs)``. The trace it runs on (jvp, grad,
    vmap) learns ``fun``'s name and file:line for the message of a tracer that leaks.
    ``fun`` runs in a :class:`rebound.Scope`, so the arrays it makes from constants can
    be written with traced values (they are bound to cells); bound arrays among its
    outputs are their current values. The arguments ``fun`` updated in place are
    ``store["written"]``: ``(flat index, final value)`` pairs (values of the trace), which
    the transformation writes back into the caller's arrays (:func:`_write_back`)."""
    def flat(*leaves):
        args = tree_unflatten(in_tree, leaves)
        args, kwargs = args if with_kwargs else (args, {})
        trace = core.current_trace()
        if trace.staging:
            out = fun(*args, **kwargs)
            out_leaves, out_tree = tree_flatten(out)
            store["out_tree"] = out_tree
            return out_leaves
        if getattr(trace, "fun_where", None) is None:
            trace.fun_where = debug_info_for(getattr(fun, "debug_fun", fun),
                                             trace.transformation, ()).where()
        scope = rebound.push_scope(trace)
        try:
            out = fun(*args, **kwargs)
            out_leaves, out_tree = tree_flatten(out)
            out_leaves = [rebound.resolve(x) for x in out_leaves]
            store["written"] = [(i, rebound.resolve(x)) for i, x in enumerate(leaves)
                                if rebound.bound_on(x, trace)]
            store["trace"] = trace
        finally:
            rebound.pop_scope(scope)
        store["out_tree"] = out_tree
        return out_leaves

    return flat


def _write_back(fname, leaves, store, value_of, names=None) -> None:
    """Write the final values of the arguments the transformed function updated in place
    (``store["written"]``, see :func:`_flat_fun`) into the caller's ``leaves``, as calling
    the function would have left them (``jit`` does the same): ``value_of(i, v)`` is the
    value of the caller's trace for flat argument ``i`` whose final value on the function's
    trace ``trace`` is ``v`` (the primal of a JVP tracer, the batched value of a vmap one,
    with the argument's batch axis). ``names``: a function giving the flat arguments'
    names for an error message (:func:`_arg_leaf_names`)."""
    written = store.get("written")
    if written:
        trace = store["trace"]
        mutated = [False] * len(leaves)
        news = []
        for i, v in written:
            mutated[i] = True
            news.append(value_of(i, v, trace))
        write_back_any(leaves, mutated, news, fname, names)


def _host(x):
    if type(x) is core.Array:
        return x._value
    return x if isinstance(x, np.ndarray) else None


def _unshared(consts, targets) -> list:
    """``consts`` (a linearized function's residuals) with every eager one that may share
    memory with an eager array in ``targets`` replaced by a copy, and every tracer by a new
    tracer of the same value (``const_tracer``: an object no write binds; a traced target,
    or a view of one, reads its cell once written): the write-back into ``targets`` must
    not change what the derivative reads."""
    hosts = [h for h in map(_host, targets) if h is not None]
    out = []
    for c in consts:
        const_tracer = getattr(getattr(c, "_trace", None), "const_tracer", None)
        if isinstance(c, core.Tracer) and const_tracer is not None:
            out.append(const_tracer(c))
            continue
        h = _host(c)
        if h is not None and any(np.may_share_memory(h, t) for t in hosts):
            c = core.Array(core.eager_backend().from_host(np.array(h, copy=True)),
                           getattr(c, "weak_type", False))
        out.append(c)
    return out


def _primal(i, v, trace):
    """The primal of ``v``, a final value of a function run under the JVP trace ``trace``."""
    return v.primal if isinstance(v, ad.JVPTracer) and v._trace is trace else v


def _as_value(x, fname, what):
    try:
        core.aval_of(x)
    except TypeError:
        raise TypeError(f"xnp.{fname}: {what} must be arrays or scalars, got "
                        f"{type(x).__name__}: {x!r}") from None
    return x


def _zero_tangent(aval):
    return ad.instantiate(Zero(aval))


# ----------------------------------------------------------------------------- forward mode


def jvp(fun, primals, tangents, has_aux: bool = False):
    """Forward-mode derivative: ``(fun(*primals), J(primals) @ tangents)``.

    ``primals`` and ``tangents`` are tuples (or lists) with equal pytree structure,
    shapes and dtypes. Inside ``fun`` values are JVP tracers with concrete primals
    (outside ``jit``), so Python control flow on them works.

    Raises
    ------
    TypeError
        ``primals``/``tangents`` are not tuples, structures or dtypes differ.
    ValueError
        Shapes of a primal and its tangent differ.
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("xnp.jvp: primals and tangents must be tuples or lists, got "
                        f"{type(primals).__name__} and {type(tangents).__name__}")
    p_leaves, p_tree = tree_flatten(tuple(primals))
    for i, leaf in enumerate(p_leaves):
        _refuse_ref("jvp", leaf, i)
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError(f"xnp.jvp: primal and tangent structures differ: {p_tree} vs {t_tree}")
    p_leaves = [_as_value(p, "jvp", "primals") for p in p_leaves]
    store = {}
    flat = _flat_fun(fun, p_tree, store)
    p_out, t_out = ad.jvp_call(flat, p_leaves, t_leaves)
    deferred = getattr(fun, "deferred_write_back", None)
    if deferred is None:
        _write_back(getattr(fun, "api_name", "jvp"), p_leaves, store, _primal,
                    names=_names_of(fun, primals))
    else:  # the caller writes back (jacfwd, from outside the vmap it runs this in)
        deferred.extend((i, _primal(i, v, store["trace"])) for i, v in store.get("written", ()))
    out_tree = store["out_tree"]
    t_out = [ad.instantiate(t) for t in t_out]
    if has_aux:
        (p, aux), (t, _) = tree_unflatten(out_tree, p_out), tree_unflatten(out_tree, t_out)
        return p, t, aux
    return tree_unflatten(out_tree, p_out), tree_unflatten(out_tree, t_out)


def _linearize(fun, primals, fname, has_aux=False, snapshot=False):
    """``fun`` linearized at ``primals``. ``snapshot``: the derivative is evaluated later
    (``vjp``'s ``vjp_fn``, ``linearize``'s ``f_jvp``), so the residuals must not change
    when the caller writes into an argument meanwhile (copies of the eager residuals that
    share an argument's memory, new names for traced ones); ``grad`` and ``jacrev``
    evaluate it at once and skip the copies."""
    p_leaves, p_tree = tree_flatten(tuple(primals))
    for i, leaf in enumerate(p_leaves):
        _refuse_ref(fname, leaf, i)
    p_leaves = [_as_value(p, fname, "arguments") for p in p_leaves]
    store = {}
    flat = _flat_fun(fun, p_tree, store)
    dbg = debug_info_for(fun, fname, [f"args{i}" for i in range(len(p_leaves))])
    p_out, lin_jaxpr, consts, out_zero, in_nz = ad.linearize_call(flat, p_leaves, dbg)
    if snapshot:  # the residuals keep the values the function read
        consts = _unshared(consts, p_leaves)
    elif store.get("written"):
        consts = _unshared(consts, [p_leaves[i] for i, _ in store["written"]])
    _write_back(getattr(fun, "api_name", fname), p_leaves, store, _primal,
                names=_names_of(fun, primals))
    return p_leaves, p_tree, p_out, store["out_tree"], lin_jaxpr, consts, out_zero, in_nz


def linearize(fun, *primals):
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` evaluates the linearized
    function (its jaxpr is staged once; the primal computation is not repeated)."""
    from xnp.tracing.jaxpr import eval_jaxpr  # noqa: PLC0415

    p_leaves, p_tree, p_out, out_tree, jaxpr, consts, out_zero, in_nz = _linearize(
        fun, primals, "linearize", snapshot=True)
    out_avals = [core.aval_of(p).strip_weak_type() for p in p_out]

    def f_jvp(*tangents):
        t_leaves, t_tree = tree_flatten(tuple(tangents))
        if t_tree != p_tree:
            raise TypeError(f"xnp.linearize: tangent structure {t_tree} differs from the "
                            f"primals' {p_tree}")
        outs = iter(eval_jaxpr(jaxpr, consts, *[t for t, nz in zip(t_leaves, in_nz) if nz]))
        res = [_zero_tangent(a) if z else next(outs) for a, z in zip(out_avals, out_zero)]
        return tree_unflatten(out_tree, res)

    return tree_unflatten(out_tree, p_out), f_jvp


# ----------------------------------------------------------------------------- reverse mode


def vjp(fun, *primals, has_aux: bool = False):
    """Reverse-mode: ``(fun(*primals), vjp_fn)``; ``vjp_fn(ct)`` returns one cotangent per
    primal (a tuple), each shaped like its primal. With ``has_aux``, ``fun`` returns
    ``(out, aux)`` and the result is ``(out, vjp_fn, aux)``. ``vjp_fn`` evaluates the
    derivative at ``primals`` as they were at this call, also when the caller writes into
    them before calling it."""
    return _vjp(fun, primals, has_aux, snapshot=True)


def _vjp(fun, primals, has_aux: bool, snapshot: bool):
    p_leaves, p_tree, p_out, out_tree, jaxpr, consts, out_zero, in_nz = _linearize(
        fun, primals, "vjp", snapshot=snapshot)
    aux = None
    if has_aux:
        out_struct = tree_unflatten(out_tree, p_out)
        if not (isinstance(out_struct, tuple) and len(out_struct) == 2):
            raise TypeError("xnp.vjp(has_aux=True): the function must return a pair (out, aux)")
        n_main = len(tree_flatten(out_struct[0])[0])
        aux = out_struct[1]
        main_tree = tree_structure(out_struct[0])
    else:
        n_main = len(p_out)
        main_tree = out_tree
    in_avals = [core.aval_of(p).strip_weak_type() for p in p_leaves]
    main_avals = [core.aval_of(p).strip_weak_type() for p in p_out[:n_main]]

    def vjp_fn(ct):
        ct_leaves, ct_tree = tree_flatten(ct)
        if ct_tree != main_tree:
            raise TypeError(f"xnp.vjp: cotangent structure {ct_tree} differs from the output "
                            f"structure {main_tree}")
        for i, (c, a) in enumerate(zip(ct_leaves, main_avals)):
            ca = core.aval_of(c)
            if ca.shape != a.shape:
                raise ValueError(f"xnp.vjp: cotangent {i} has shape {ca.shape} but the output "
                                 f"has shape {a.shape}")
        full = list(ct_leaves) + [Zero(core.aval_of(p).strip_weak_type()) for p in p_out[n_main:]]
        cts = [c for c, z in zip(full, out_zero) if not z]
        cts_in = iter(ad.backward_pass(jaxpr, consts, cts))
        cts_all = [next(cts_in) if nz else Zero(a) for nz, a in zip(in_nz, in_avals)]
        res = [ad.instantiate(c) if type(c) is not Zero else _zero_tangent(a)
               for c, a in zip(cts_all, in_avals)]
        return tree_unflatten(p_tree, res)

    main = tree_unflatten(main_tree, p_out[:n_main]) if has_aux else tree_unflatten(out_tree, p_out)
    if has_aux:
        return main, vjp_fn, aux
    return main, vjp_fn


def _check_argnums(fname, argnums, nargs):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in nums:
        if not isinstance(a, int) or not -nargs <= a < nargs:
            raise ValueError(f"xnp.{fname}: argnums={argnums!r} is out of range for "
                             f"{nargs} positional arguments")
    return nums


def _refuse_ref(fname, leaf, i) -> None:
    """A ref is not an argument of a transformation (its value is: ``ref[...]``)."""
    if isinstance(leaf, Ref):
        raise TypeError(f"xnp.{fname}: argument {i} is a ref ({leaf.aval}); "
                        "transformations take arrays: pass ref[...], or close over the ref")


def _check_diff_input(fname, x, i, allow_int, holomorphic):
    for leaf in tree_flatten(x)[0]:
        _refuse_ref(fname, leaf, i)
        try:
            aval = core.aval_of(leaf)
        except errors.HostDtypeError as e:
            raise errors.HostDtypeError(errors.host_dtype_message(
                f"xnp.{fname}: argument {i}", e.dtype, fname), e.dtype) from None
        except TypeError as e:
            got = str(e) if isinstance(leaf, np.ndarray) else f"{type(leaf).__name__}: {leaf!r}"
            raise TypeError(f"xnp.{fname}: argument {i} must be an array, a scalar or a pytree "
                            f"of them, got {got}") from None
        kind = aval.dtype.kind
        if holomorphic and kind != "c":
            raise TypeError(f"xnp.{fname}(holomorphic=True) needs complex inputs; argument {i} "
                            f"has dtype {aval.dtype}")
        if kind in "biu" and not allow_int:
            raise TypeError(
                f"xnp.{fname} requires real- or complex-valued inputs (inexact dtypes); argument "
                f"{i} has dtype {aval.dtype}. Convert it with .astype(float), or pass "
                "allow_int=True to get zero gradients for integer inputs.")


def value_and_grad(fun, argnums=0, has_aux: bool = False, holomorphic: bool = False,
                   allow_int: bool = False):
    """A function returning ``(fun(*args), gradient)`` of a scalar-output ``fun``.

    The gradient has the structure of ``args[argnums]`` (a tuple if ``argnums`` is a
    tuple). ``fun`` must return a real scalar (0-d float), or a complex scalar with
    ``holomorphic=True``; with ``has_aux`` it returns ``(scalar, aux)`` and the result
    is ``((value, aux), gradient)``.

    Raises
    ------
    TypeError
        The output is not a scalar of inexact dtype, or an input is an integer array
        (unless ``allow_int``).
    """
    name = _fun_name(fun)

    @functools.wraps(fun)
    def value_and_grad_f(*args, **kwargs):
        nums = _check_argnums("grad", argnums, len(args))
        for i in nums:
            _check_diff_input("grad", args[i], i, allow_int, holomorphic)
        diff_args = [args[i] for i in nums]

        def partial_fun(*dargs):
            full = list(args)
            for i, d in zip(nums, dargs):
                full[i] = d
            return fun(*full, **kwargs)

        partial_fun.debug_fun = fun  # messages name the user's function
        partial_fun.api_name = "grad"  # and the transformation it was given to
        out, vjp_fn, *aux = _vjp(partial_fun, diff_args, has_aux, snapshot=False)
        aval = core.aval_of(out) if not isinstance(out, (tuple, list, dict)) else None
        if aval is None or aval.shape != ():
            shape = aval.shape if aval is not None else type(out).__name__
            raise TypeError(f"xnp.grad: {name} must return a scalar (0-d array), got {shape}; "
                            "use xnp.vjp or xnp.jacrev for non-scalar outputs")
        if aval.dtype.kind == "c" and not holomorphic:
            raise TypeError(f"xnp.grad: {name} returned a complex scalar; pass "
                            "holomorphic=True to differentiate it")
        if aval.dtype.kind not in "fcV" and aval.dtype.name not in ("bfloat16",):
            raise TypeError(f"xnp.grad: {name} must return a floating scalar, got {aval.dtype}")
        one = core.lift(np.ones((), aval.dtype))
        g = vjp_fn(one)
        g = g[0] if isinstance(argnums, int) else tuple(g)
        if has_aux:
            return (out, aux[0]), g
        return out, g

    return value_and_grad_f


def grad(fun, argnums=0, has_aux: bool = False, holomorphic: bool = False,
         allow_int: bool = False):
    """Gradient of a scalar-output ``fun`` with respect to ``args[argnums]``.

    See :func:`value_and_grad` for the parameters and errors. With ``has_aux`` the
    result is ``(gradient, aux)``. Inside ``fun`` values are grad tracers whose
    primals are concrete (outside ``jit``), so Python control flow on them works.
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_f(*args, **kwargs):
        (value, *aux), g = _split_aux(vg(*args, **kwargs), has_aux)
        return (g, aux[0]) if has_aux else g

    return grad_f


def _split_aux(res, has_aux):
    value, g = res
    if has_aux:
        return (value[0], value[1]), g
    return (value,), g


# ----------------------------------------------------------------------------- batching


def _broadcast_prefix(fname, prefix, tree, what):
    """Expand an axis spec (int/None or a pytree prefix of ``tree``) to one entry per leaf:
    each int/None of ``prefix`` applies to every leaf of the subtree at its path."""
    leaves = tree_flatten_with_path(tree)[0]
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(leaves)
    entries = tree_flatten_with_path(prefix, is_leaf=lambda x: x is None or isinstance(x, int))
    out, j = [], 0
    for ppath, ax in entries[0]:
        k, start = len(ppath), j
        while j < len(leaves) and leaves[j][0][:k] == ppath:
            out.append(ax)
            j += 1
        if j == start and ax is not None:
            j = -1
            break
    if j != len(leaves) or not all(ax is None or isinstance(ax, int) for ax in out):
        of = "arguments" if what == "in_axes" else "output"
        raise ValueError(f"xnp.{fname}: {what} {prefix!r} does not match the structure of the "
                         f"{of} {tree_flatten(tree)[1]}: it must be an int, None or a pytree "
                         f"prefix of the {of} whose leaves are ints or None")
    return out


def _names_of(fun, primals):
    """A function giving the flat argument names of ``fun`` called on ``primals`` (for the
    write-back errors), or None for the internal functions of ``grad``/``jacrev``/
    ``jacfwd`` (``api_name`` set), whose arguments are the differentiated ones only."""
    if hasattr(fun, "api_name"):
        return None
    return lambda: _arg_leaf_names(fun, tuple(primals), {})


def _arg_leaf_names(fun, args, kwargs) -> list[str]:
    """One name per leaf of ``(args, kwargs)`` (``tree_flatten`` order): the parameter
    name from ``fun``'s signature plus the pytree path (``x``, ``params['w']``,
    ``args[2]`` for ``*args``); ``args[i]`` where the signature does not bind them."""
    names = signature_arg_names(fun, args, kwargs)
    if names is None or len(names) != len(args) + len(kwargs):
        names = [f"args[{i}]" for i in range(len(args))] + list(kwargs)
    out = []
    for name, a in zip(names, args):
        out.extend(name + keystr(p) for p, _ in tree_flatten_with_path(a)[0])
    for k in sorted(kwargs):
        out.extend(k + keystr(p) for p, _ in tree_flatten_with_path(kwargs[k])[0])
    return out


def _vmap_in_dims(name, fun, args, kwargs, in_axes, axis_size):
    """The flat leaves of ``(args, kwargs)``, their tree, the batch axis of each leaf and
    the axis size. Keyword arguments are mapped over axis 0 (as in JAX)."""
    if isinstance(in_axes, list):
        raise TypeError("xnp.vmap: in_axes must be an int, None or a tuple (not a list)")
    if isinstance(in_axes, tuple) and len(in_axes) != len(args):
        raise ValueError(f"xnp.vmap: in_axes has {len(in_axes)} entries but {name} was "
                         f"called with {len(args)} positional arguments (keyword arguments "
                         "are always mapped over axis 0 and take no in_axes entry)")
    leaves, in_tree = tree_flatten((args, kwargs))
    n_kw = _n_leaves(kwargs) if kwargs else 0
    if isinstance(in_axes, tuple):
        axes = _broadcast_prefix("vmap", in_axes, args, "in_axes") + [0] * n_kw
    else:
        axes = [in_axes] * (len(leaves) - n_kw) + [0] * n_kw
    dims = []
    for i, (x, ax) in enumerate(zip(leaves, axes)):
        _refuse_ref("vmap", x, i)
        if ax is None:
            dims.append(None)
            continue
        try:
            aval = core.aval_of(x)
        except errors.HostDtypeError as e:
            arg = _arg_leaf_names(fun, args, kwargs)[i]
            raise errors.HostDtypeError(errors.host_dtype_message(
                f"xnp.vmap: argument {arg} of {name}", e.dtype, "vmap"), e.dtype) from None
        except TypeError as e:
            arg = _arg_leaf_names(fun, args, kwargs)[i]
            raise TypeError(f"xnp.vmap: argument {arg} of {name}: {e}") from None
        if not -aval.ndim <= ax < aval.ndim:
            arg = _arg_leaf_names(fun, args, kwargs)[i]
            how = "in_axes" if i < len(leaves) - n_kw else (
                "keyword arguments are mapped over axis 0, so")
            raise ValueError(
                f"xnp.vmap: {how} {ax} is out of range for argument {arg} of {name} with "
                f"shape {aval.shape} ({errors.aval_str(aval)}, rank {aval.ndim}). Fix: "
                "pass an axis in [-rank, rank), or None for an argument that is not mapped"
                + (" (as a positional argument)" if how != "in_axes" else "") + ".")
        dims.append(ax % aval.ndim)
    sizes = {core.aval_of(x).shape[d] for x, d in zip(leaves, dims) if d is not None}
    if len(sizes) > 1:
        arg_names = _arg_leaf_names(fun, args, kwargs)
        desc = "\n".join(
            f"  {n}: axis {d} of {errors.aval_str(core.aval_of(x))} has size "
            f"{core.aval_of(x).shape[d]}"
            for n, x, d in zip(arg_names, leaves, dims) if d is not None)
        raise ValueError(
            f"xnp.vmap: the mapped axes of the arguments of {name} have different sizes:\n"
            f"{desc}\nFix: map axes of one size, or pass in_axes=None for an argument that "
            "is the same for every batch member.")
    if not sizes:
        if axis_size is None:
            raise ValueError(f"xnp.vmap: no argument of {name} is mapped (in_axes all None); "
                             "pass axis_size")
        return leaves, in_tree, dims, axis_size
    size = sizes.pop()
    if axis_size is not None and axis_size != size:
        raise ValueError(f"xnp.vmap: axis_size={axis_size} but mapped axes have size {size}")
    return leaves, in_tree, dims, size


def _n_leaves(tree) -> int:
    return len(tree_flatten(tree)[0])


def _output_names(tree) -> list[str]:
    example = tree_unflatten(tree, list(range(tree.num_leaves)))
    return ["output" + keystr(p) for p, _ in tree_flatten_with_path(example)[0]]


def vmap(fun, in_axes=0, out_axes=0, axis_size=None):
    """Vectorise ``fun`` over a new leading (or ``in_axes``-given) axis of its arguments.

    Parameters
    ----------
    fun : callable
        Takes and returns arrays (pytrees of arrays).
    in_axes : int, None, or a tuple/pytree prefix of the positional arguments
        The mapped axis of each positional argument (negative counts from the end);
        None: not mapped. Keyword arguments are always mapped over axis 0 (as in JAX);
        pass an argument that is not mapped positionally, with ``None`` in ``in_axes``.
    out_axes : int, None, or a pytree prefix of the output
        Where the mapped axis goes in each output (negative counts from the end of the
        mapped output); None: the output is not mapped (it must not depend on mapped
        inputs).
    axis_size : int, optional
        Needed when no argument is mapped.

    Raises
    ------
    ValueError
        ``in_axes`` does not match the arguments, an axis is out of range (``in_axes``
        for an argument's rank, ``out_axes`` for an output's rank plus one), mapped
        sizes differ (the message names each argument by its parameter name and pytree
        path), or no argument is mapped and ``axis_size`` is not given.
    """
    name = _fun_name(fun)
    where = debug_info_for(fun, "vmap", ()).where()

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        leaves, in_tree, dims, size = _vmap_in_dims(name, fun, args, kwargs, in_axes,
                                                    axis_size)
        store = {}
        flat = _flat_fun(fun, in_tree, store, with_kwargs=True)

        def out_dims(n):
            tree = store["out_tree"]
            return _broadcast_prefix("vmap", out_axes, tree_unflatten(tree, [0] * n), "out_axes")

        outs = batching.batch_call(flat, leaves, dims, size, out_dims, name,
                                   out_names=lambda: _output_names(store["out_tree"]),
                                   fun_where=where)
        _write_back("vmap", leaves, store,
                    lambda i, v, trace: batching.batched_value(v, trace, dims[i], size),
                    names=lambda: _arg_leaf_names(fun, args, kwargs))
        return tree_unflatten(store["out_tree"], outs)

    return vmapped


# ----------------------------------------------------------------------------- jacobians


def _jac_setup(fname, fun, argnums, args, has_aux, allow_int, holomorphic):
    """Flatten the differentiated arguments; returns (x_leaves, x_tree, g) where
    ``g(*x_leaves) -> (y_leaves, y_tree, aux)`` runs ``fun`` with them substituted."""
    nums = _check_argnums(fname, argnums, len(args))
    for i in nums:
        _check_diff_input(fname, args[i], i, allow_int, holomorphic)
    x_leaves, x_tree = tree_flatten(tuple(args[i] for i in nums))

    def g(*leaves):
        full = list(args)
        for i, v in zip(nums, tree_unflatten(x_tree, list(leaves))):
            full[i] = v
        out = fun(*full)
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError(f"xnp.{fname}(has_aux=True): the function must return a pair "
                                "(out, aux)")
            out, aux = out
        else:
            aux = None
        y_leaves, y_tree = tree_flatten(out)
        return y_leaves, y_tree, aux

    return x_leaves, x_tree, g


def _basis_blocks(avals, n_total):
    """One (n_total, *shape) slice of the identity per aval: leaf k's part of each basis row."""
    eye = np.eye(n_total)
    blocks, off = [], 0
    for a in avals:
        size = int(np.prod(a.shape, dtype=np.int64))
        blocks.append(core.lift(eye[:, off:off + size].reshape((n_total,) + a.shape)
                                .astype(a.dtype)))
        off += size
    return blocks


def _assemble(y_avals, y_tree, x_avals, x_tree, block, argnums):
    """The Jacobian pytree: the output's structure, each leaf holding the inputs' structure
    of blocks ``block(j, k)`` shaped ``y_j.shape + x_k.shape``."""
    rows = []
    for j in range(len(y_avals)):
        per_x = tree_unflatten(x_tree, [block(j, k) for k in range(len(x_avals))])
        rows.append(per_x[0] if isinstance(argnums, int) else per_x)
    return tree_unflatten(y_tree, rows)


def jacfwd(fun, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """Jacobian by forward mode (``vmap`` of ``jvp`` over the standard basis of the inputs).

    For output leaf ``y`` and argument leaf ``x`` the block has shape
    ``y.shape + x.shape``; outputs and (tuple) ``argnums`` may be pytrees, giving a
    pytree of blocks (output structure outside, argument structure inside). With
    ``has_aux`` the function returns ``(out, aux)`` and the result is ``(jac, aux)``.
    """
    return _jacfwd("jacfwd", fun, argnums, has_aux, holomorphic)


def _jacfwd(api: str, fun, argnums, has_aux: bool, holomorphic: bool):
    """:func:`jacfwd`, whose errors name the transformation ``api`` (``hessian`` too)."""

    @functools.wraps(fun)
    def jac(*args):
        x_leaves, x_tree, g = _jac_setup(api, fun, argnums, args, has_aux, False,
                                         holomorphic)
        x_avals = [core.aval_of(x).strip_weak_type() for x in x_leaves]
        n = sum(int(np.prod(a.shape, dtype=np.int64)) for a in x_avals)
        store = {}

        def push(*ts):
            def flat(*xs):
                y_leaves, store["y_tree"], aux = g(*xs)
                aux_leaves, store["aux_tree"] = tree_flatten(aux)
                store["n_y"] = len(y_leaves)
                return list(y_leaves) + list(aux_leaves)

            flat.deferred_write_back = written = []
            y, t = jvp(flat, tuple(x_leaves), ts)
            n_y = store["n_y"]
            store["y_avals"] = [core.aval_of(v).strip_weak_type() for v in y[:n_y]]
            store["written"] = [i for i, _ in written]
            # the aux values and the final values of the arguments the function updated
            # come out of the same (one) call of the function, unbatched
            return tuple(t[:n_y]), tuple(y[n_y:]) + tuple(v for _, v in written)

        cols, aux_leaves = vmap(push, in_axes=0, out_axes=(-1, None))(
            *_basis_blocks(x_avals, n))
        if store["written"]:  # the caller's arrays, as the function's one call left them
            n_aux = len(aux_leaves) - len(store["written"])
            aux_leaves, news = aux_leaves[:n_aux], aux_leaves[n_aux:]
            mutated = [i in store["written"] for i in range(len(x_leaves))]
            write_back_any(x_leaves, mutated, list(news), api)
        y_avals = store["y_avals"]
        offsets = np.cumsum([0] + [int(np.prod(a.shape, dtype=np.int64)) for a in x_avals])

        def block(j, k):
            c = cols[j][..., offsets[k]:offsets[k + 1]]
            return c.reshape(y_avals[j].shape + x_avals[k].shape)

        out = _assemble(y_avals, store["y_tree"], x_avals, x_tree, block, argnums)
        if has_aux:
            return out, tree_unflatten(store["aux_tree"], list(aux_leaves))
        return out

    return jac


def jacrev(fun, argnums=0, has_aux: bool = False, holomorphic: bool = False,
           allow_int: bool = False):
    """Jacobian by reverse mode (``vmap`` of the pullback over the output's standard basis).

    Shapes and structure as for :func:`jacfwd`.
    """

    @functools.wraps(fun)
    def jac(*args):
        x_leaves, x_tree, g = _jac_setup("jacrev", fun, argnums, args, has_aux, allow_int,
                                         holomorphic)
        x_avals = [core.aval_of(x).strip_weak_type() for x in x_leaves]
        store = {}

        def flat(*xs):
            y_leaves, store["y_tree"], aux = g(*xs)
            return y_leaves, aux

        flat.api_name = "jacrev"
        y, pullback, aux = _vjp(flat, x_leaves, True, snapshot=False)
        y_avals = [core.aval_of(v).strip_weak_type() for v in y]
        m = sum(int(np.prod(a.shape, dtype=np.int64)) for a in y_avals)
        rows = vmap(lambda *cts: pullback(list(cts)))(*_basis_blocks(y_avals, m))
        offsets = np.cumsum([0] + [int(np.prod(a.shape, dtype=np.int64)) for a in y_avals])

        def block(j, k):
            r = rows[k][offsets[j]:offsets[j + 1]]
            return r.reshape(y_avals[j].shape + x_avals[k].shape)

        out = _assemble(y_avals, store["y_tree"], x_avals, x_tree, block, argnums)
        return (out, aux) if has_aux else out

    return jac


def hessian(fun, argnums=0, has_aux: bool = False, holomorphic: bool = False):
    """Hessian: ``jacfwd(jacrev(fun))`` (its errors name ``xnp.hessian``)."""
    return _jacfwd("hessian", jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux,
                   holomorphic)
