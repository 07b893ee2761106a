"""Lowering of call-like primitives: a nested ``jit`` is inlined."""

from xnp.backends.xla.lowering._core import lowering
from xnp.tracing.jit import jit_p


@lowering(jit_p)
def _lower_jit(ctx, *args, jaxpr, name):
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)
