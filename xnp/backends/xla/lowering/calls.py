"""Lowering of call-like primitives: a nested ``jit`` and the primal body of a
``custom_jvp``/``custom_vjp`` function are inlined."""

from xnp.backends.xla.lowering._core import lowering
from xnp.tracing.custom_derivatives import custom_jvp_call_p, custom_vjp_call_p
from xnp.tracing.jit import jit_p


@lowering(jit_p)
def _lower_jit(ctx, *args, jaxpr, name):
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)


@lowering(custom_jvp_call_p)
@lowering(custom_vjp_call_p)
def _lower_custom_call(ctx, *args, call_jaxpr, rule):
    return ctx.lower_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, args)
