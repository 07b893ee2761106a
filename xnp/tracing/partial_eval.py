"""Staging: ``DynamicJaxprTrace`` records every primitive bound while it is the
current trace into a jaxpr (omnistaging: calls on constants are staged too).

Constants met while staging: Python/NumPy scalars become ``Literal``s, other
arrays become constvars (``ClosedJaxpr.consts``), tracers of an enclosing live
trace become constvars whose value is that tracer (closure conversion), and
tracers of a trace that has ended raise ``UnexpectedTracerError``.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import os
import threading
import types
import weakref

import numpy as np

from xnp import _default_dtypes
from xnp.tracing import core, errors, rebound
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, pp_eqn, typecheck_jaxpr

__all__ = ["DebugInfo", "bound_arg_names", "DynamicJaxprTrace", "JitTracer", "trace_to_jaxpr",
           "debug_info_for",
           "checking_leaks"]


class DebugInfo:
    """What a trace is for: the traced function, where it is defined, its argument names
    (one per flat input, e.g. ``x`` or ``params['w']``) and the transformation name."""

    __slots__ = ("func_name", "file", "line", "arg_names", "transformation")

    def __init__(self, func_name, file, line, arg_names, transformation):
        self.func_name = func_name
        self.file = file
        self.line = line
        self.arg_names = arg_names
        self.transformation = transformation

    def where(self) -> str:
        loc = f" at {self.file}:{self.line}" if self.file else ""
        return f"{self.func_name}{loc}"


def _unwrap(fun):
    while hasattr(fun, "__wrapped__"):
        fun = fun.__wrapped__
    return fun


def debug_info_for(fun, transformation: str, arg_names) -> DebugInfo:
    base = _unwrap(fun)
    name = getattr(base, "__name__", type(base).__name__)
    code = getattr(base, "__code__", None)
    file = os.path.basename(code.co_filename) if code is not None else None
    line = code.co_firstlineno if code is not None else None
    return DebugInfo(name, file, line, list(arg_names), transformation)


# plain function -> (what its signature is computed from, the signature); weak keys, so a
# cached entry never keeps a function (or what it closes over) alive
_SIGNATURES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _signature(fun) -> inspect.Signature:
    """``inspect.signature(fun)``, cached for plain Python functions.

    ``jit`` names its arguments on every call that passes a pytree; computing a
    signature costs more than binding one. A cached signature is reused while what
    binding depends on (code, defaults, keyword-only defaults, an explicit
    ``__signature__``) is the same objects; other callables are not cached. Only
    binding uses the result, so annotations are not part of the check.
    """
    if type(fun) is not types.FunctionType:
        return inspect.signature(fun)
    basis = (fun.__code__, fun.__defaults__, fun.__kwdefaults__,
             fun.__dict__.get("__signature__"))
    hit = _SIGNATURES.get(fun)
    if hit is not None and all(a is b for a, b in zip(hit[0], basis)):
        return hit[1]
    sig = inspect.signature(fun)
    _SIGNATURES[fun] = (basis, sig)
    return sig


def signature_arg_names(fun, args, kwargs) -> list[str] | None:
    """Names of positional ``args`` and keyword ``kwargs`` as the signature binds them."""
    try:
        sig = _signature(_unwrap(fun))
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    return bound_arg_names(sig, bound)


def bound_arg_names(sig: inspect.Signature, bound: inspect.BoundArguments) -> list[str]:
    """The names of ``bound``'s arguments: ``*args`` entries as ``args[i]``, ``**kwargs`` by key."""
    names = []
    for pname, value in bound.arguments.items():
        kind = sig.parameters[pname].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            names.extend(f"{pname}[{i}]" for i in range(len(value)))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            names.extend(value.keys())
        else:
            names.append(pname)
    return names


class JitTracer(core.Tracer):
    """A tracer of a staging trace: an aval and the jaxpr variable (or literal) it stands for."""

    __slots__ = ("_aval", "val", "src")

    def __init__(self, trace, aval: ShapedArray, val, src=None):
        self._trace = trace
        self._aval = aval
        self.val = val
        self.src = src
        self.view_of = None
        self._annotations = None
        if core._SCOPES_ON[0]:  # made while a function of grad/vmap runs: it may fill it
            core._NOTE_CREATED[0](self)

    @property
    def aval(self):
        return self._aval

    def __repr__(self):
        return f"JitTracer({self._aval})"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self)

    def _origin_message(self) -> str:
        return self._trace.origin_message(self)


def _is_literal_candidate(x) -> bool:
    return isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0)


class DynamicJaxprTrace(core.Trace):
    """Records equations; the trace behind ``jit`` and ``make_jaxpr``."""

    staging = True

    def __init__(self, debug_info: DebugInfo):
        self.debug_info = debug_info
        self.transformation = debug_info.transformation
        self.alive = True
        self.level = core.next_level()
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.arg_tracers: list[JitTracer] = []
        self.constvars: list[Var] = []
        self.const_values: list = []
        self._const_ids: dict[int, JitTracer] = {}
        self.producer: dict[Var, JaxprEqn] = {}

    # -- inputs and constants
    def new_arg(self, aval: ShapedArray) -> JitTracer:
        v = Var(aval)
        self.invars.append(v)
        t = JitTracer(self, aval, v, None)
        self.arg_tracers.append(t)
        return t

    def _new_const(self, value, aval: ShapedArray) -> JitTracer:
        cached = self._const_ids.get(id(value))
        if cached is not None:
            return cached
        v = Var(aval)
        self.constvars.append(v)
        self.const_values.append(value)
        t = JitTracer(self, aval, v, None)
        self._const_ids[id(value)] = t
        return t

    def to_tracer(self, x) -> JitTracer:
        if core._REBOUND_ON[0]:
            x = core._RESOLVE[0](x)  # an array bound to a cell: its value (tracing/rebound)
        if isinstance(x, JitTracer) and x._trace is self:
            return x
        if isinstance(x, core.Tracer):
            x._check_alive()
            return self._new_const(x, x.aval)  # closure over an enclosing trace's value
        t = type(x)
        if t is core.Array:  # mutable: a constvar, whose value is read at each call
            return self._new_const(x, x.aval)
        aval = core.aval_of(x)
        if core.is_python_scalar(x):
            val = _default_dtypes.scalar_to_ndarray(x, aval.dtype)
            return JitTracer(self, aval, Literal(val, aval))
        if _is_literal_candidate(x):
            val = np.asarray(x)
            return JitTracer(self, aval, Literal(val, aval))
        return self._new_const(x, aval)

    def lift_fresh(self, x) -> JitTracer:
        """``x``, an eager Array just made from host data by ``core.lift`` (nothing else
        holds it, so it cannot change): a literal when 0-d, else a constant holding its
        host value (embedded in the compiled program), not a closed-over array."""
        val = x._value
        if x.ndim == 0:
            return JitTracer(self, x.aval, Literal(np.asarray(val), x.aval))
        return self._new_const(val, x.aval)

    def const_tracer(self, x) -> JitTracer:
        """A new tracer of this trace standing for ``x`` (as ``JVPTrace``'s and
        ``BatchTrace``'s, a new object each time, also for one of its own tracers: a new
        name of the same variable)."""
        t = x if isinstance(x, JitTracer) and x._trace is self else self.to_tracer(x)
        return JitTracer(self, t._aval, t.val, t.src)

    # -- what produced a value (read by the layers above, e.g. numpy_api's layout model)
    def producer_of(self, var):
        """The recorded equation whose result is the jaxpr variable ``var``; None for an
        argument, a constant or a literal."""
        return self.producer.get(var)

    def constants(self) -> dict:
        """{constant variable: its value} for the constants recorded so far."""
        return dict(zip(self.constvars, self.const_values))

    # -- primitives
    def process_primitive(self, prim, args, params):
        for a in args:
            if isinstance(a, core.Tracer) and a._trace is not self:
                top = core.find_top_trace(self, args)
                if top is not self:
                    return top.process_primitive(prim, args, params)
                break
        tracers = [self.to_tracer(a) for a in args]
        out = prim.abstract_eval(*[t._aval for t in tracers], **params)
        src = core.source_info()
        outs = out if prim.multiple_results else [out]
        outvars = [Var(a) for a in outs]
        eqn = JaxprEqn(prim, [t.val for t in tracers], params, outvars, src)
        self.eqns.append(eqn)
        for v in outvars:
            self.producer[v] = eqn
        res = [JitTracer(self, a, v, src) for a, v in zip(outs, outvars)]
        return res if prim.multiple_results else res[0]

    # -- errors
    def _arg_dependencies(self, val) -> list[str]:
        """Names of the arguments ``val`` depends on, in argument order."""
        names = self.debug_info.arg_names
        index = {v: i for i, v in enumerate(self.invars)}
        seen, stack, found = set(), [val], set()
        while stack:
            v = stack.pop()
            if type(v) is Literal or v in seen:
                continue
            seen.add(v)
            if v in index:
                found.add(index[v])
                continue
            eqn = self.producer.get(v)
            if eqn is not None:
                stack.extend(eqn.invars)
        return [names[i] if names and i < len(names) else f"<arg {i}>" for i in sorted(found)]

    def _producing_eqns(self, val, limit=5) -> list[JaxprEqn]:
        chain, stack, seen = [], [val], set()
        while stack and len(chain) < limit:
            v = stack.pop()
            if type(v) is Literal or v in seen:
                continue
            seen.add(v)
            eqn = self.producer.get(v)
            if eqn is not None:
                chain.append(eqn)
                stack.extend(eqn.invars)
        return chain[::-1]

    def origin_message(self, tracer: JitTracer) -> str:
        dbg = self.debug_info
        msg = f"The error occurred while tracing the function {dbg.where()} for {dbg.transformation}."
        deps = self._arg_dependencies(tracer.val)
        if deps:
            if len(deps) == 1:
                what = f"the argument {deps[0]}"
            else:
                what = "the arguments " + ", ".join(deps[:-1]) + f" and {deps[-1]}"
            return (msg + " This concrete value was not available in Python because it depends "
                    f"on the value of {what}.")
        chain = self._producing_eqns(tracer.val)
        if chain:
            ops = "\n".join(f"  operation {pp_eqn(e)}\n    from line {e.source_info}" for e in chain)
            return msg + " This value became a tracer due to xnp operations on these lines:\n\n" + ops
        return msg

    # -- result
    def to_jaxpr(self, out_tracers) -> ClosedJaxpr:
        outvars = [t.val for t in out_tracers]
        jaxpr = Jaxpr(self.constvars, self.invars, self.eqns, outvars, self.debug_info)
        return ClosedJaxpr(jaxpr, self.const_values)


_CHECK_TYPES = [False]


class _LeakChecking(threading.local):
    """Whether the calling thread is inside :func:`checking_leaks` (per thread)."""

    def __init__(self):
        self.on = False


_CHECK_LEAKS = _LeakChecking()


@contextlib.contextmanager
def checking_leaks():
    """Raise ``UnexpectedTracerError`` as soon as a trace ends with one of its tracers still
    referenced (saved to a global, a closure or an object: a side effect).

    Without it a leaked tracer is reported only when it is used later. The check runs
    a garbage collection at the end of every trace inside the block, so it is slow;
    use it for debugging::

        with xnp.checking_leaks():
            xnp.jit(fn_that_saves_a_global)(1.0)   # raises, naming the line that made it

    It applies to the traces of the calling thread only.
    """
    prev = _CHECK_LEAKS.on
    _CHECK_LEAKS.on = True
    try:
        yield
    finally:
        _CHECK_LEAKS.on = prev


def _check_no_leaks(trace: DynamicJaxprTrace) -> None:
    """Raise if a tracer of the ended ``trace`` is still referenced (only in checking mode)."""
    trace.arg_tracers = []
    trace._const_ids = {}
    gc.collect()
    leaked = [o for o in gc.get_objects() if type(o) is JitTracer and o._trace is trace]
    if not leaked:
        return
    dbg = trace.debug_info
    lines = [
        f"Leaked {len(leaked)} tracer(s) of the trace of {dbg.where()} for "
        f"{dbg.transformation}: the function kept a reference to an intermediate value "
        "(a side effect: a global, a closure or an object attribute).",
    ]
    for t in leaked[:5]:
        where = f"created on line {t.src}" if t.src is not None else "an argument of the function"
        lines.append(f"  {t!r}, {where}")
    lines.append("Return the value from the function instead of saving it.")
    lines.append(errors.docs_pointer(errors.UnexpectedTracerError))
    raise errors.UnexpectedTracerError("\n".join(lines))


def trace_to_jaxpr(fun, in_avals, debug_info: DebugInfo):
    """Trace ``fun(*tracers)`` (flat inputs and outputs) into a ``ClosedJaxpr``.

    ``fun`` returns a flat list of outputs. Returns ``(closed_jaxpr, mutated)``
    where ``mutated[i]`` is True when input ``i``'s tracer was updated in place
    (``x[idx] = v``, ``x += y``); the closed jaxpr then has one extra output per
    mutated input, after the function's outputs, holding its final value.
    Inside :func:`checking_leaks`, raises ``UnexpectedTracerError`` if a tracer
    outlives the trace.
    """
    trace = DynamicJaxprTrace(debug_info)
    try:
        with core.set_current_trace(trace):
            in_tracers = [trace.new_arg(a) for a in in_avals]
            outs = fun(*in_tracers)
            out_tracers = [_output_tracer(trace, o, debug_info, i) for i, o in enumerate(outs)]
            mutated = [rebound.bound_on(t, trace) for t in trace.arg_tracers]
            out_tracers += [trace.to_tracer(t) for t, m in zip(trace.arg_tracers, mutated) if m]
            closed = trace.to_jaxpr(out_tracers)
    finally:
        trace.alive = False
        rebound.release(trace)
    if _CHECK_TYPES[0]:
        typecheck_jaxpr(closed.jaxpr)
    if _CHECK_LEAKS.on:
        del in_tracers, outs, out_tracers
        _check_no_leaks(trace)
    return closed, mutated


def _output_tracer(trace, out, debug_info, i):
    try:
        return trace.to_tracer(out)
    except TypeError:
        raise TypeError(
            f"xnp: output {i} of {debug_info.func_name} is a {type(out).__name__} ({out!r}), "
            "not an array; functions transformed by xnp must return arrays, scalars or "
            "pytrees of them."
        ) from None


def enable_typecheck(flag: bool = True) -> None:
    """Type-check every traced jaxpr (used by the test suite)."""
    _CHECK_TYPES[0] = flag
