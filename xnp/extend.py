"""Public names of the tracing core for extension authors (``xnp.extend.ShapedArray``,
``xnp.extend.Primitive``, ...): new primitives, their avals and jaxprs, and the eager
backend registry."""

from xnp.tracing.avals import ShapeDtypeStruct, ShapedArray
from xnp.tracing.core import (Array, EvalTrace, Primitive, Trace, Tracer, current_trace,
                              register_eager_backend)
from xnp.tracing.jaxpr import (ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr,
                               typecheck_jaxpr)
from xnp.tracing.partial_eval import DynamicJaxprTrace, JitTracer

__all__ = ["ShapeDtypeStruct", "ShapedArray", "Array", "EvalTrace", "Primitive", "Trace",
           "Tracer", "current_trace", "register_eager_backend", "ClosedJaxpr", "Jaxpr",
           "JaxprEqn", "Literal", "Var", "eval_jaxpr", "typecheck_jaxpr", "DynamicJaxprTrace",
           "JitTracer"]
