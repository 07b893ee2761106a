"""The tracing layer: avals, tracers, primitives and bind, jaxprs, jit, make_jaxpr, pytrees, errors."""

from xnp.tracing import errors
from xnp.tracing.avals import ShapeDtypeStruct, ShapedArray
from xnp.tracing.core import Array, EvalTrace, Primitive, Trace, Tracer, current_trace
from xnp.tracing.jaxpr import (ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr,
                               typecheck_jaxpr)
from xnp.tracing.jit import jit, jit_p, make_jaxpr, register_jit_backend
from xnp.tracing.partial_eval import DynamicJaxprTrace, JitTracer

__all__ = [
    "errors", "ShapeDtypeStruct", "ShapedArray", "Array", "EvalTrace", "Primitive", "Trace",
    "Tracer", "current_trace", "ClosedJaxpr", "Jaxpr", "JaxprEqn", "Literal", "Var",
    "eval_jaxpr", "typecheck_jaxpr", "jit", "jit_p", "make_jaxpr", "register_jit_backend",
    "DynamicJaxprTrace", "JitTracer",
]
