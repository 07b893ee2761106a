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
values passed through to the rules first, as in JAX). Under ``vmap`` the call is
batched through its primal jaxpr; a derivative taken outside that ``vmap`` then
differentiates the primal body (documented limitation).
"""

from __future__ import annotations

import functools

from xnp.tracing import ad, core
from xnp.tracing.jaxpr import ClosedJaxpr, eval_jaxpr
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["custom_jvp", "custom_vjp", "custom_jvp_call_p", "custom_vjp_call_p",
           "custom_lin_p"]


class _Rule:
    """A user rule as a hashable param (compared by identity)."""

    __slots__ = ("fn", "nondiff", "in_tree", "out_tree", "extra")

    def __init__(self, fn, nondiff, in_tree, out_tree, extra=None):
        self.fn = fn
        self.nondiff = nondiff
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.extra = extra

    def __repr__(self):
        return getattr(self.fn, "__name__", "rule")


def _call_abstract_eval(*avals, call_jaxpr: ClosedJaxpr, rule):
    return list(call_jaxpr.out_avals)


def _call_impl(*args, call_jaxpr: ClosedJaxpr, rule):
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


def _call_batch(prim):
    def batch(vals, dims, *, call_jaxpr, rule):
        from xnp.tracing.jaxpr_transforms import batch_jaxpr  # noqa: PLC0415
        from xnp.tracing.jit import jit_p  # noqa: PLC0415

        size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        bj = batch_jaxpr(call_jaxpr, dims, size)
        outs = jit_p.bind(*vals, jaxpr=bj, name=repr(rule))
        return outs, [0] * len(outs)

    return batch


def _tangent_in(p, t):
    return ad.instantiate(t) if type(t) is ad.Zero else t


# ----------------------------------------------------------------------------- custom_jvp


def _custom_jvp_rule(primals, tangents, *, call_jaxpr, rule):
    args = tree_unflatten(rule.in_tree, list(primals))
    tans = tree_unflatten(rule.in_tree, [_tangent_in(p, t) for p, t in zip(primals, tangents)])
    static = rule.extra
    out, t_out = rule.fn(*static, tuple(args), tuple(tans))
    out_leaves, out_tree = tree_flatten(out)
    t_leaves, t_tree = tree_flatten(t_out)
    if out_tree != rule.out_tree or t_tree != rule.out_tree:
        raise TypeError(f"xnp.custom_jvp: the jvp rule {rule!r} must return (out, tangent_out) "
                        f"shaped like the function's output {rule.out_tree}; got {out_tree} "
                        f"and {t_tree}")
    return out_leaves, t_leaves


custom_jvp_call_p = core.Primitive("custom_jvp_call", abstract_eval=_call_abstract_eval,
                                   multiple_results=True, jvp=_custom_jvp_rule)
custom_jvp_call_p.impl = _call_impl
custom_jvp_call_p.batch = _call_batch(custom_jvp_call_p)


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
        return _bind_custom(custom_jvp_call_p, self, self.jvp, args)


def _bind_custom(prim, wrapper, user_rule, args):
    """Trace ``wrapper.fun`` on the differentiable arguments and bind ``prim`` with the rule."""
    nondiff = wrapper.nondiff_argnums
    static = tuple(args[i] for i in nondiff)
    dyn = tuple(a for i, a in enumerate(args) if i not in nondiff)
    leaves, in_tree = tree_flatten(dyn)
    closed, out_tree = _trace_primal(wrapper.fun, args, nondiff, leaves, in_tree,
                                     wrapper.__name__)
    rule = _Rule(user_rule, nondiff, in_tree, out_tree, static)
    outs = prim.bind(*leaves, call_jaxpr=closed, rule=rule)
    return tree_unflatten(out_tree, outs)


def _trace_primal(fun, args, nondiff, leaves, in_tree, name):
    from xnp.tracing.jaxpr_transforms import trace_flat  # noqa: PLC0415

    store = {}

    def flat(*xs):
        dyn = list(tree_unflatten(in_tree, list(xs)))
        full = [args[i] if i in nondiff else dyn.pop(0) for i in range(len(args))]
        out = fun(*full)
        out_leaves, store["out_tree"] = tree_flatten(out)
        return out_leaves

    closed = trace_flat(flat, [core.aval_of(x) for x in leaves], name, "custom_jvp")
    return closed, store["out_tree"]


# ----------------------------------------------------------------------------- custom_vjp


def _custom_lin_abstract_eval(*avals, rule, num_res):
    return list(rule.extra)


def _custom_lin_impl(*args, rule, num_res):
    raise TypeError(f"xnp.jvp: forward-mode differentiation of the custom_vjp function "
                    f"{rule!r} is not supported (as in JAX); use xnp.grad/vjp, or define it "
                    "with xnp.custom_jvp.")


def _custom_lin_transpose(cts, *args, rule, num_res):
    res = tree_unflatten(rule.in_tree, list(args[:num_res]))
    cts = [ad.instantiate(c) if type(c) is ad.Zero else c for c in cts]
    ct = tree_unflatten(rule.out_tree, cts)
    cts_in = rule.fn(res, ct)
    if not isinstance(cts_in, (tuple, list)):
        raise TypeError(f"xnp.custom_vjp: the bwd rule {rule!r} must return a tuple with one "
                        "cotangent per differentiable positional argument")
    flat, _ = tree_flatten(tuple(cts_in))
    n_lin = len(args) - num_res
    if len(flat) != n_lin:
        raise TypeError(f"xnp.custom_vjp: the bwd rule {rule!r} returned {len(flat)} "
                        f"cotangent leaves for {n_lin} inputs")
    return [None] * num_res + list(flat)


custom_lin_p = core.Primitive("custom_lin", abstract_eval=_custom_lin_abstract_eval,
                              multiple_results=True, transpose=_custom_lin_transpose)
custom_lin_p.impl = _custom_lin_impl


def _custom_vjp_rule(primals, tangents, *, call_jaxpr, rule):
    fwd, bwd = rule.fn
    static = rule.extra
    args = tree_unflatten(rule.in_tree, list(primals))
    out, res = fwd(*static, *args)
    out_leaves, out_tree = tree_flatten(out)
    if out_tree != rule.out_tree:
        raise TypeError(f"xnp.custom_vjp: fwd must return (out, residuals) with out shaped like "
                        f"the function's output {rule.out_tree}, got {out_tree}")
    res_leaves, res_tree = tree_flatten(res)
    out_avals = [core.aval_of(o).strip_weak_type() for o in out_leaves]
    bwd_static = functools.partial(bwd, *static) if static else bwd
    lin_rule = _Rule(bwd_static, (), res_tree, out_tree, out_avals)
    t_in = [_tangent_in(p, t) for p, t in zip(primals, tangents)]
    t_out = custom_lin_p.bind(*res_leaves, *t_in, rule=lin_rule, num_res=len(res_leaves))
    return out_leaves, t_out


custom_vjp_call_p = core.Primitive("custom_vjp_call", abstract_eval=_call_abstract_eval,
                                   multiple_results=True, jvp=_custom_vjp_rule)
custom_vjp_call_p.impl = _call_impl
custom_vjp_call_p.batch = _call_batch(custom_vjp_call_p)


class custom_vjp:
    """Decorator: a function whose reverse-mode derivative is given by ``defvjp``."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.rules = None

    def defvjp(self, fwd, bwd):
        """Set ``fwd(*args) -> (out, residuals)`` and ``bwd(residuals, ct) -> cotangents``."""
        self.rules = (fwd, bwd)

    def __call__(self, *args):
        if self.rules is None:
            raise TypeError(f"xnp.custom_vjp: {self.__name__} has no rules; call .defvjp first")
        return _bind_custom(custom_vjp_call_p, self, self.rules, args)
