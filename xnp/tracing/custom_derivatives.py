"""``xnp.custom_jvp`` and ``xnp.custom_vjp``: functions with user-defined derivatives.

The primal function is traced to a closed jaxpr and bound as one call primitive
(``custom_jvp_call`` / ``custom_vjp_call``): eagerly and under ``jit`` it runs the
primal computation; under ``jvp``/``grad`` its rule calls the user's derivative
instead of differentiating the body.

* ``custom_jvp``: ``f.defjvp(jvp)`` with ``jvp(primals, tangents) -> (out, tangent_out)``
  (tuples of the positional arguments; integer inputs get zero tangents). Works in
  forward and reverse mode (the user's jvp is linearized like any traced code).
* ``custom_vjp``: ``f.defvjp(fwd, bwd)`` with ``fwd(*args) -> (out, residuals)`` and
  ``bwd(residuals, ct) -> tuple of cotangents`` (one per positional argument).
  Reverse mode only, as in JAX: ``xnp.jvp`` of a custom_vjp function raises.

``nondiff_argnums`` marks positional arguments that are static (hashable Python
values); as in JAX they come first in the arguments of ``jvp`` and ``bwd`` and in
place in those of ``fwd`` (which has ``f``'s signature).

Under ``vmap`` the call stays a ``custom_jvp_call``/``custom_vjp_call`` whose primal
jaxpr and rule are both batched (as JAX's batching rules do), so a derivative taken
outside the ``vmap`` still uses the user's rule: the jvp rule (or ``fwd``) runs under
the same batching, and ``bwd`` receives the residuals batched or not as ``fwd``
produced them; cotangents of inputs that were not batched are summed over the batch.
The rules are kept as flat callables on the leaves (``_JvpRule``, ``_VjpRule`` and
their batched wrappers), which nest for ``vmap(vmap(f))``.
"""

from __future__ import annotations

import functools

from xnp.tracing import ad, batching, core
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, eval_jaxpr
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["custom_jvp", "custom_vjp", "custom_jvp_call_p", "custom_vjp_call_p",
           "custom_lin_p"]


class _Rule:
    """A rule as a hashable param (compared by identity), printed as the user rule's name."""

    __slots__ = ("name",)

    def __repr__(self):
        return self.name


def _name(fn) -> str:
    return getattr(fn, "__name__", "rule")


def _call_abstract_eval(*avals, call_jaxpr: ClosedJaxpr, rule):
    return list(call_jaxpr.out_avals)


def _call_impl(*args, call_jaxpr: ClosedJaxpr, rule):
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


def _call_batch(batched_rule) -> core.for_primitive:
    """The batching rule of a call primitive: the same primitive on the batched primal
    jaxpr with ``batched_rule(rule, dims, size)``; every output is batched along axis 0."""
    return core.for_primitive(lambda prim: _batch_call(prim, batched_rule))


def _batch_call(prim, batched_rule):

    def batch(vals, dims, *, call_jaxpr, rule):
        from xnp.tracing.jaxpr_transforms import batch_jaxpr  # noqa: PLC0415

        size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        dims = tuple(dims)
        outs = prim.bind(*vals, call_jaxpr=batch_jaxpr(call_jaxpr, dims, size),
                         rule=batched_rule(rule, dims, size))
        return outs, [0] * len(outs)

    return batch


def _unbatch_zeros(xs, dims):
    """Symbolic zeros need no batch axis: ``(values, dims)`` with each ``Zero`` of a batched
    aval replaced by the ``Zero`` of one batch member (dim None)."""
    vals, out_dims = [], []
    for x, d in zip(xs, dims):
        if type(x) is ad.Zero and d is not None:
            a = x.aval
            x, d = ad.Zero(ShapedArray(a.shape[:d] + a.shape[d + 1:], a.dtype, a.weak_type)), None
        vals.append(x)
        out_dims.append(d)
    return vals, out_dims


# ----------------------------------------------------------------------------- custom_jvp


class _JvpRule(_Rule):
    """The user's ``jvp`` on flat leaves: ``rule(primals, tangents) -> (outs, tangent_outs)``
    (tangents may be symbolic zeros; the user sees zeros)."""

    __slots__ = ("fn", "static", "in_tree", "out_tree")

    def __init__(self, fn, static, in_tree, out_tree):
        self.name, self.fn, self.static = _name(fn), fn, static
        self.in_tree, self.out_tree = in_tree, out_tree

    def __call__(self, primals, tangents):
        args = tree_unflatten(self.in_tree, list(primals))
        tans = tree_unflatten(self.in_tree, [ad.instantiate(t) for t in tangents])
        out, t_out = self.fn(*self.static, tuple(args), tuple(tans))
        out_leaves, out_tree = tree_flatten(out)
        t_leaves, t_tree = tree_flatten(t_out)
        if out_tree != self.out_tree or t_tree != self.out_tree:
            raise TypeError(f"xnp.custom_jvp: the jvp rule {self.name} must return "
                            f"(out, tangent_out) shaped like the function's output "
                            f"{self.out_tree}; got {out_tree} and {t_tree}")
        return out_leaves, t_leaves


class _BatchedJvpRule(_Rule):
    """``inner`` under ``vmap``: primals and tangents batched along ``dims`` (a tangent has
    its primal's batch axis); outputs and tangent outputs batched along axis 0."""

    __slots__ = ("inner", "dims", "size")

    def __init__(self, inner, dims, size):
        self.name, self.inner, self.dims, self.size = inner.name, inner, dims, size

    def __call__(self, primals, tangents):
        n = len(primals)
        tangents, t_dims = _unbatch_zeros(tangents, self.dims)
        n_out = []

        def run(*xs):
            outs, t_outs = self.inner(xs[:n], xs[n:])
            n_out.append(len(outs))
            return list(outs) + list(t_outs)

        res = batching.batch_call(run, list(primals) + tangents, list(self.dims) + t_dims,
                                  self.size, lambda k: [0] * k, self.name)
        return res[:n_out[0]], res[n_out[0]:]


def _custom_jvp_rule(primals, tangents, *, call_jaxpr, rule):
    return rule(list(primals), list(tangents))


custom_jvp_call_p = core.Primitive("custom_jvp_call", abstract_eval=_call_abstract_eval,
                                   multiple_results=True, jvp=_custom_jvp_rule, impl=_call_impl,
                                   batch=_call_batch(_BatchedJvpRule))


class custom_jvp:
    """Decorator: a function whose jvp (and hence grad) is given by ``defjvp``.

    Raises ``TypeError`` when called before ``defjvp``.
    """

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp):
        """Set the rule ``jvp(*nondiff_args, primals, tangents) -> (out, tangent_out)``."""
        self.jvp = jvp
        return jvp

    def __call__(self, *args):
        if self.jvp is None:
            raise TypeError(f"xnp.custom_jvp: {self.__name__} has no jvp rule; call .defjvp first")
        return _bind_custom(custom_jvp_call_p, self, args,
                            lambda static, in_tree, out_tree: _JvpRule(self.jvp, static, in_tree,
                                                                       out_tree))


def _bind_custom(prim, wrapper, args, make_rule):
    """Trace ``wrapper.fun`` on the differentiable arguments and bind ``prim`` with the rule
    ``make_rule(static_args, in_tree, out_tree)``."""
    nondiff = wrapper.nondiff_argnums
    static = tuple(args[i] for i in nondiff)
    dyn = tuple(a for i, a in enumerate(args) if i not in nondiff)
    leaves, in_tree = tree_flatten(dyn)
    closed, out_tree = _trace_primal(wrapper.fun, args, nondiff, leaves, in_tree,
                                     wrapper.__name__)
    outs = prim.bind(*leaves, call_jaxpr=closed, rule=make_rule(static, in_tree, out_tree))
    return tree_unflatten(out_tree, outs)


def _trace_primal(fun, args, nondiff, leaves, in_tree, name):
    from xnp.tracing.jaxpr_transforms import trace_flat  # noqa: PLC0415

    store = {}

    def flat(*xs):
        out = fun(*_merge(nondiff, [args[i] for i in nondiff], tree_unflatten(in_tree, list(xs))))
        out_leaves, store["out_tree"] = tree_flatten(out)
        return out_leaves

    closed = trace_flat(flat, [core.aval_of(x) for x in leaves], name, "custom_jvp")
    return closed, store["out_tree"]


def _merge(nondiff, static, dyn) -> list:
    """The positional arguments: ``static[k]`` at position ``nondiff[k]``, ``dyn`` elsewhere."""
    dyn, at = list(dyn), dict(zip(nondiff, static))
    return [at[i] if i in at else dyn.pop(0) for i in range(len(dyn) + len(at))]


# ----------------------------------------------------------------------------- custom_vjp


class _VjpRule(_Rule):
    """The user's ``fwd``/``bwd`` on flat leaves: ``rule.fwd(primals) -> (outs, residuals,
    bwd)`` with ``bwd(residuals, cts) -> cotangents`` (one per primal)."""

    __slots__ = ("fwd_fn", "bwd_fn", "nondiff", "static", "in_tree", "out_tree")

    def __init__(self, fwd, bwd, nondiff, static, in_tree, out_tree):
        self.name, self.fwd_fn, self.bwd_fn = _name(fwd), fwd, bwd
        self.nondiff, self.static, self.in_tree, self.out_tree = nondiff, static, in_tree, out_tree

    def fwd(self, primals):
        dyn = tree_unflatten(self.in_tree, list(primals))
        out, res = self.fwd_fn(*_merge(self.nondiff, self.static, dyn))  # f's argument order
        out_leaves, out_tree = tree_flatten(out)
        if out_tree != self.out_tree:
            raise TypeError(f"xnp.custom_vjp: fwd must return (out, residuals) with out shaped "
                            f"like the function's output {self.out_tree}, got {out_tree}")
        res_leaves, res_tree = tree_flatten(res)
        return out_leaves, res_leaves, _Bwd(self, res_tree, len(primals))


class _Bwd(_Rule):
    """The user's ``bwd`` on flat residuals and cotangents (symbolic zeros instantiated)."""

    __slots__ = ("rule", "res_tree", "n_in")

    def __init__(self, rule, res_tree, n_in):
        self.name, self.rule, self.res_tree, self.n_in = _name(rule.bwd_fn), rule, res_tree, n_in

    def __call__(self, res, cts):
        rule = self.rule
        ct = tree_unflatten(rule.out_tree, [ad.instantiate(c) for c in cts])
        cts_in = rule.bwd_fn(*rule.static, tree_unflatten(self.res_tree, list(res)), ct)
        if not isinstance(cts_in, (tuple, list)):
            raise TypeError(f"xnp.custom_vjp: the bwd rule {self.name} must return a tuple with "
                            "one cotangent per differentiable positional argument")
        flat, _ = tree_flatten(tuple(cts_in))
        if len(flat) != self.n_in:
            raise TypeError(f"xnp.custom_vjp: the bwd rule {self.name} returned {len(flat)} "
                            f"cotangent leaves for {self.n_in} inputs")
        return flat


class _BatchedVjpRule(_Rule):
    """``inner`` under ``vmap``: primals batched along ``dims``; outputs batched along
    axis 0, residuals batched (axis 0) or not, as the inner ``fwd`` made them."""

    __slots__ = ("inner", "dims", "size")

    def __init__(self, inner, dims, size):
        self.name, self.inner, self.dims, self.size = inner.name, inner, dims, size

    def fwd(self, primals):
        store = {}

        def run(*xs):
            outs, res, store["bwd"] = self.inner.fwd(xs)
            store["n_out"] = len(outs)
            return list(outs) + list(res)

        vals, dims = batching.batch_call_dims(run, list(primals), list(self.dims), self.size,
                                              self.name)
        k = store["n_out"]
        outs = [_move(v, d, 0, self.size) for v, d in zip(vals[:k], dims[:k])]
        return outs, vals[k:], _BatchedBwd(store["bwd"], tuple(dims[k:]), self.dims, self.size)


class _BatchedBwd(_Rule):
    """``inner`` (a bwd) under ``vmap``: residuals batched along ``res_dims``, cotangents
    along axis 0; the cotangent of input ``i`` comes back batched along ``in_dims[i]``, or
    summed over the batch when that input was not batched."""

    __slots__ = ("inner", "res_dims", "in_dims", "size")

    def __init__(self, inner, res_dims, in_dims, size):
        self.name, self.inner, self.res_dims, self.in_dims = inner.name, inner, res_dims, in_dims
        self.size = size

    def __call__(self, res, cts):
        nr = len(res)
        cts, ct_dims = _unbatch_zeros(cts, [0] * len(cts))
        vals, dims = batching.batch_call_dims(
            lambda *xs: self.inner(xs[:nr], xs[nr:]), list(res) + cts,
            list(self.res_dims) + ct_dims, self.size, self.name)
        return [_move(v, d, want, self.size) for v, d, want in zip(vals, dims, self.in_dims)]


def _move(v, d, want, size):
    """A value with batch axis ``d`` (0 or None) given batch axis ``want`` (None: summed)."""
    if want is None:
        return v if d is None else batching.sum_batched(v, d)
    if d is None:
        return batching.broadcast_batched(v, size, want)
    return batching.moveaxis(v, d, want)


def _custom_lin_abstract_eval(*avals, bwd, out_avals, num_res):
    return list(out_avals)


def _custom_lin_impl(*args, bwd, out_avals, num_res):
    raise TypeError(f"xnp.jvp: forward-mode differentiation of a custom_vjp function (bwd rule "
                    f"{bwd!r}) is not supported (as in JAX); use xnp.grad/vjp, or define it "
                    "with xnp.custom_jvp.")


def _custom_lin_transpose(cts, *args, bwd, out_avals, num_res):
    return [None] * num_res + list(bwd(args[:num_res], list(cts)))


custom_lin_p = core.Primitive("custom_lin", abstract_eval=_custom_lin_abstract_eval,
                              multiple_results=True, transpose=_custom_lin_transpose,
                              impl=_custom_lin_impl)


def _custom_vjp_rule(primals, tangents, *, call_jaxpr, rule):
    out_leaves, res_leaves, bwd = rule.fwd(list(primals))
    out_avals = tuple(core.aval_of(o).strip_weak_type() for o in out_leaves)
    t_in = [ad.instantiate(t) for t in tangents]
    t_out = custom_lin_p.bind(*res_leaves, *t_in, bwd=bwd, out_avals=out_avals,
                              num_res=len(res_leaves))
    return out_leaves, t_out


custom_vjp_call_p = core.Primitive("custom_vjp_call", abstract_eval=_call_abstract_eval,
                                   multiple_results=True, jvp=_custom_vjp_rule, impl=_call_impl,
                                   batch=_call_batch(_BatchedVjpRule))


class custom_vjp:
    """Decorator: a function whose reverse-mode derivative is given by ``defvjp``."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.rules = None

    def defvjp(self, fwd, bwd):
        """Set ``fwd(*args) -> (out, residuals)`` (``f``'s signature, static arguments in
        place) and ``bwd(*nondiff_args, residuals, ct) -> cotangents`` (a tuple, one per
        differentiable positional argument), as in JAX."""
        self.rules = (fwd, bwd)

    def __call__(self, *args):
        if self.rules is None:
            raise TypeError(f"xnp.custom_vjp: {self.__name__} has no rules; call .defvjp first")
        return _bind_custom(custom_vjp_call_p, self, args,
                            lambda static, in_tree, out_tree: _VjpRule(*self.rules, self.nondiff_argnums,
                                                                       static, in_tree, out_tree))
