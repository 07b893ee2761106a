"""A closed jaxpr run on host values by the eager backend's kernels: the bodies of eager
loops (``while_loop``, ``scan``, ``fori_loop``) iteration after iteration.

:func:`eval_jaxpr` binds each equation on the eval trace, which wraps every result as an
``Array`` and checks it (a few microseconds an equation). A loop body runs the same
equations on values of the same avals each iteration, so :func:`host_program` turns it
once into a list of the backend's implementations with their parameters bound, run by
``program.run_eqns`` (in C where built) on the NumPy values: the implementations the
eval trace calls, on the same values, so the results are the same.

It applies while the eager backend computes with NumPy, to a jaxpr whose every equation
has a backend implementation (no primitive with an ``impl`` of its own: nested control
flow, calls, callbacks, state), and whose constants are eager arrays; otherwise it gives
None and the caller evaluates the jaxpr as before. Callers use it only when no
transformation scope is active (an array a grad/vmap function fills is seen through the
eval trace).
"""

from __future__ import annotations

import numpy as np

from xnp.tracing import core
from xnp.tracing.jaxpr import Literal
from xnp.tracing.program import run_eqns

__all__ = ["HostProgram", "host_program", "host_value"]


class HostProgram:
    """``program(*values) -> [values]``: a jaxpr's outputs for the native values of its
    inputs (see the module docstring)."""

    __slots__ = ("eqns", "consts", "outs", "native", "wrap")

    def __init__(self, eqns, consts, outs, native, wrap):
        self.eqns = eqns
        self.consts = consts
        self.outs = outs
        self.native = native
        self.wrap = wrap

    def __call__(self, *values):
        env = [*self.consts, *values]
        run_eqns(self.eqns, env, self.native, self.wrap)
        return [env[s] for s in self.outs]


def host_value(x):
    """The native value of the eager operand ``x`` (an ``Array``, or a NumPy array or
    scalar), or None for a tracer. A jit output's memory is made its own first, as the
    eval trace does before a view: a kernel may return a view of it (or the loop the value
    itself), which must take writes."""
    if type(x) is core.Array:
        return x._value if x._dev is None else x._writable_value()
    if isinstance(x, core.Tracer):
        return None
    return np.asarray(x)


def host_program(closed) -> HostProgram | None:
    """The :class:`HostProgram` of the closed jaxpr ``closed``, or None where it does not
    apply (module docstring). Its inputs are the jaxpr's invars (not its constants)."""
    backend = core.eager_backend()
    if not getattr(backend, "computes_with_numpy", False):
        return None
    jaxpr = closed.jaxpr
    consts = []
    for c in closed.consts:
        v = host_value(c)
        if v is None:
            return None
        consts.append(v)
    slot = {v: i for i, v in enumerate(jaxpr.constvars)}
    literals = []  # each literal's value, a constant after the jaxpr's own

    def operand(v):
        if type(v) is Literal:
            literals.append(np.asarray(v.val, dtype=v.aval.dtype))
            return -len(literals)  # (renumbered below, after the inputs)
        return slot[v]

    first_in = len(consts)
    for i, v in enumerate(jaxpr.invars):
        slot[v] = first_in + i
    n = first_in + len(jaxpr.invars)
    raw = []
    for eqn in jaxpr.eqns:
        prim = eqn.primitive
        impl = backend.impls.get(prim)
        if prim.impl is not None or impl is None:
            return None
        raw.append((impl, eqn.params or None, [operand(v) for v in eqn.invars],
                    prim.multiple_results))
        for v in eqn.outvars:
            slot[v] = n
            n += 1
    outs = [operand(v) for v in jaxpr.outvars]
    # the literals sit between the constants and the inputs: every slot at or after the
    # inputs moves up by their count, and literal k (numbered -k - 1) takes its place
    k = len(literals)

    def final(s):
        return first_in + (-s - 1) if s < 0 else s if s < first_in else s + k

    eqns = tuple((impl, params, tuple(final(s) for s in ops), multiple)
                 for impl, params, ops, multiple in raw)
    return HostProgram(eqns, tuple(consts + literals), tuple(final(s) for s in outs),
                       backend.native_type, backend.wrap_native)
