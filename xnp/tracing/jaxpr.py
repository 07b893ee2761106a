"""The jaxpr IR: ``Var``, ``Literal``, ``JaxprEqn``, ``Jaxpr``, ``ClosedJaxpr``;
``eval_jaxpr``, the type checker ``typecheck_jaxpr`` and the printer (``pp_jaxpr``,
``pp_eqn``, ``pp_param``).

A jaxpr is a list of equations in SSA form over typed variables; a closed
jaxpr also holds the values of its constvars (``consts``).

The printed form is ``{ lambda <constvars> ; <invars>. let <eqns> in (<outvars>) }``;
variables are named ``a, b, ..., z, ba, bb, ...`` in order of first appearance (one
naming context across nested jaxprs); params are sorted by name (``name`` first, as
JAX prints ``jit[name=f jaxpr=...]``), strings unquoted; an equation whose one-line
form is wider than 80 columns (or that holds a sub-jaxpr) puts one param per line.
The inner jaxpr of a call equation (``jit``) names its inputs and outputs after the
equation's operands and results, as JAX does.
"""

from __future__ import annotations

import itertools

import numpy as np

from xnp.tracing import core
from xnp.tracing.avals import ShapedArray

__all__ = ["Var", "Literal", "JaxprEqn", "Jaxpr", "ClosedJaxpr", "eval_jaxpr",
           "typecheck_jaxpr", "JaxprTypeError", "has_effects", "pp_jaxpr", "pp_eqn", "pp_param"]

_ids = itertools.count()


class Var:
    """A jaxpr variable: a typed SSA name (names are given by the printer)."""

    __slots__ = ("aval", "id")

    def __init__(self, aval: ShapedArray):
        self.aval = aval
        self.id = next(_ids)

    def __repr__(self):
        return f"Var({self.id}:{self.aval.str_short()})"


class Literal:
    """A scalar constant inlined into an equation: prints as ``1.0:f64[]``."""

    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray):
        self.val = val  # a 0-d np.ndarray of aval.dtype
        self.aval = aval

    def __str__(self):
        return f"{self.val[()]!s}:{self.aval.str_short()}"

    __repr__ = __str__


class JaxprEqn:
    """``outvars = primitive[params] invars``, with the user source line that made it."""

    __slots__ = ("primitive", "invars", "params", "outvars", "source_info")

    def __init__(self, primitive, invars, params, outvars, source_info=None):
        self.primitive = primitive
        self.invars = invars
        self.params = params
        self.outvars = outvars
        self.source_info = source_info

    def __repr__(self):
        return pp_eqn(self)


class Jaxpr:
    """An open jaxpr: constvars, invars, equations and outvars."""

    __slots__ = ("constvars", "invars", "eqns", "outvars", "debug_info")

    def __init__(self, constvars, invars, eqns, outvars, debug_info=None):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.eqns = list(eqns)
        self.outvars = list(outvars)
        self.debug_info = debug_info

    @property
    def in_avals(self):
        return [v.aval for v in self.invars]

    @property
    def out_avals(self):
        return [v.aval for v in self.outvars]

    def __str__(self):
        return pp_jaxpr(self)

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr with the values of its constvars (``consts``)."""

    __slots__ = ("jaxpr", "consts")

    def __init__(self, jaxpr: Jaxpr, consts):
        self.jaxpr = jaxpr
        self.consts = list(consts)

    @property
    def eqns(self):
        return self.jaxpr.eqns

    @property
    def in_avals(self):
        return self.jaxpr.in_avals

    @property
    def out_avals(self):
        return self.jaxpr.out_avals

    def __str__(self):
        return str(self.jaxpr)

    __repr__ = __str__


def eval_jaxpr(jaxpr: Jaxpr, consts, *args):
    """Evaluate ``jaxpr`` by binding each equation's primitive on the current trace.

    Returns the list of outputs. Under a transformation the equations are
    re-traced, so ``eval_jaxpr`` composes with ``jit`` and ``make_jaxpr``.
    """
    env: dict[Var, object] = {}

    def read(v):
        if type(v) is not Literal:
            return env[v]
        if v.aval.weak_type:  # a bare ndarray would be strong: keep the Python-scalar weakness
            return core.lift(v.val, weak_type=True)
        return v.val

    if len(consts) != len(jaxpr.constvars) or len(args) != len(jaxpr.invars):
        raise TypeError(
            f"eval_jaxpr: expected {len(jaxpr.constvars)} consts and {len(jaxpr.invars)} args, "
            f"got {len(consts)} and {len(args)}"
        )
    for v, x in zip(jaxpr.constvars, consts):
        env[v] = x
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    for eqn in jaxpr.eqns:
        outs = eqn.primitive.bind(*[read(v) for v in eqn.invars], **eqn.params)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    # literal outputs become xnp values of the current trace, like every other output
    return [core.lift(v.val, v.aval.weak_type) if type(v) is Literal else env[v]
            for v in jaxpr.outvars]


class JaxprTypeError(TypeError):
    """A jaxpr is ill-typed (an internal error in whoever built it)."""


def _sub_jaxprs(params):
    """The jaxprs held by an equation's params (``jit``'s ``jaxpr``, cond branches, ...)."""
    for value in params.values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, ClosedJaxpr):
                yield item.jaxpr
            elif isinstance(item, Jaxpr):
                yield item


def has_effects(jaxpr) -> bool:
    """Whether ``jaxpr`` (a Jaxpr or ClosedJaxpr) holds an equation with an ordered side
    effect (a primitive with ``effectful = True``, e.g. ``io_callback``), also inside the
    jaxprs of its equations' params (loop bodies, cond branches, nested jit).

    Such equations must run exactly once, in program order, for every evaluation: a
    pass over jaxprs never removes one because its results are unused, never merges two
    equal ones and never duplicates one. (No xnp pass removes equations today; the XLA
    lowering threads a token through the effectful ones.)
    """
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr = jaxpr.jaxpr
    for eqn in jaxpr.eqns:
        if getattr(eqn.primitive, "effectful", False):
            return True
        if any(has_effects(sub) for sub in _sub_jaxprs(eqn.params)):
            return True
    return False


def typecheck_jaxpr(jaxpr: Jaxpr) -> None:
    """Recompute every equation's output avals from its abstract-eval rule and compare.

    Sub-jaxprs held in params (a nested ``jit``, control-flow bodies) are checked too.

    Raises
    ------
    JaxprTypeError
        A variable is used before definition, defined twice, an equation's
        recorded output type differs from what its rule computes, or a shape rule
        returned non-``int`` dimensions.
    """
    defined = set()
    for v in list(jaxpr.constvars) + list(jaxpr.invars):
        if v in defined:
            raise JaxprTypeError(f"variable {v} bound twice")
        defined.add(v)

    def check_in(v, where):
        if type(v) is Literal:
            if not isinstance(v.val, np.ndarray) or v.val.shape != () or v.val.dtype != v.aval.dtype:
                raise JaxprTypeError(f"bad literal {v} in {where}")
            return v.aval
        if v not in defined:
            raise JaxprTypeError(f"variable {v} used before definition in {where}")
        return v.aval

    for eqn in jaxpr.eqns:
        in_avals = [check_in(v, eqn.primitive.name) for v in eqn.invars]
        for sub in _sub_jaxprs(eqn.params):
            typecheck_jaxpr(sub)
        out = eqn.primitive.out_avals(*in_avals, **eqn.params)  # staged: sizes were checked
        outs = out if eqn.primitive.multiple_results else [out]
        if len(outs) != len(eqn.outvars):
            raise JaxprTypeError(f"{eqn.primitive.name}: {len(outs)} results vs {len(eqn.outvars)} outvars")
        for o, v in zip(outs, eqn.outvars):
            if any(type(d) is not int for d in o.shape):
                raise JaxprTypeError(
                    f"{eqn.primitive.name}: the shape rule returned {o.shape!r}; shape entries "
                    "must be Python ints (tracer shapes are static Python data)")
            if o != v.aval:
                raise JaxprTypeError(
                    f"{eqn.primitive.name}: rule gives {o!r} but the equation records {v.aval!r}")
            if v in defined:
                raise JaxprTypeError(f"variable {v} bound twice")
            defined.add(v)
    for v in jaxpr.outvars:
        check_in(v, "outvars")


# --------------------------------------------------------------------------- printing

_WIDTH = 80
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _name(n: int) -> str:
    s = ""
    while True:
        s = _LETTERS[n % 26] + s
        n //= 26
        if n == 0:
            return s


class _Names:
    def __init__(self):
        self.names = {}
        self.count = 0

    def __call__(self, v) -> str:
        if type(v) is Literal:
            return str(v)
        if v is None:
            return "_"
        n = self.names.get(v)
        if n is None:
            n = self.names[v] = _name(self.count)
            self.count += 1
        return n

    def alias(self, inner, outer) -> None:
        """Print ``inner`` (a sub-jaxpr variable) with the name of ``outer`` (an operand or
        result of the enclosing equation), as JAX does for ``jit`` equations."""
        if type(inner) is Literal or type(outer) is Literal or inner is None or outer is None:
            return
        if inner not in self.names:
            self.names[inner] = self(outer)

    def binder(self, v) -> str:
        return f"{self(v)}:{v.aval.str_short()}"


# params printed before the others (which are sorted by name)
_FIRST_PARAMS = ("name",)


def pp_param(value, names: _Names | None = None, indent: int = 0) -> str:
    """Format one param value as the jaxpr text shows it."""
    if isinstance(value, (Jaxpr, ClosedJaxpr)):
        jaxpr = value.jaxpr if isinstance(value, ClosedJaxpr) else value
        return _pp_jaxpr(jaxpr, names or _Names(), indent)
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, str):
        return value
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    if isinstance(value, tuple) and value and all(isinstance(v, (Jaxpr, ClosedJaxpr)) for v in value):
        inner = "\n".join(" " * (indent + 2) + pp_param(v, names, indent + 2) for v in value)
        return "(\n" + inner + "\n" + " " * indent + ")"
    return repr(value)


def _param_keys(params) -> list[str]:
    first = [k for k in _FIRST_PARAMS if k in params]
    return first + sorted(k for k in params if k not in first)


def _alias_call_names(eqn, names: _Names) -> None:
    """Name a call's inner invars/outvars after the equation's operands/results."""
    if eqn.primitive.name != "jit":  # only call primitives pass operands through unchanged
        return
    inner = eqn.params.get("jaxpr")
    if not isinstance(inner, (Jaxpr, ClosedJaxpr)):
        return
    jaxpr = inner.jaxpr if isinstance(inner, ClosedJaxpr) else inner
    inner_in = list(jaxpr.constvars) + list(jaxpr.invars)
    if len(inner_in) == len(eqn.invars):
        for i, o in zip(inner_in, eqn.invars):
            names.alias(i, o)
    if len(jaxpr.outvars) == len(eqn.outvars):
        for i, o in zip(jaxpr.outvars, eqn.outvars):
            names.alias(i, o)


def _pp_eqn(eqn, names: _Names, indent: int) -> str:
    outs = " ".join(names.binder(v) if v is not None else "_" for v in eqn.outvars)
    ins = " ".join(names(v) for v in eqn.invars)
    keys = _param_keys(eqn.params)
    has_sub = any(_holds_jaxpr(eqn.params[k]) for k in keys)
    pad = " " * indent
    if not keys:
        return f"{pad}{outs} = {eqn.primitive.name} {ins}".rstrip()
    if not has_sub:
        one = " ".join(f"{k}={pp_param(eqn.params[k])}" for k in keys)
        line = f"{pad}{outs} = {eqn.primitive.name}[{one}] {ins}".rstrip()
        if len(line) <= _WIDTH:
            return line
    else:
        _alias_call_names(eqn, names)
    body = "\n".join(f"{pad}  {k}={pp_param(eqn.params[k], names, indent + 2)}" for k in keys)
    return f"{pad}{outs} = {eqn.primitive.name}[\n{body}\n{pad}] {ins}".rstrip()


def _holds_jaxpr(value) -> bool:
    if isinstance(value, (Jaxpr, ClosedJaxpr)):
        return True
    return isinstance(value, tuple) and any(isinstance(v, (Jaxpr, ClosedJaxpr)) for v in value)


def _pp_jaxpr(jaxpr: Jaxpr, names: _Names, indent: int) -> str:
    consts = " ".join(names.binder(v) for v in jaxpr.constvars)
    invars = " ".join(names.binder(v) for v in jaxpr.invars)
    head = f"{{ lambda {consts}; {invars}. let" if consts else f"{{ lambda ; {invars}. let"
    eqns = [_pp_eqn(e, names, indent + 4) for e in jaxpr.eqns]
    outs = ", ".join(names(v) for v in jaxpr.outvars)
    outs = f"({outs},)" if len(jaxpr.outvars) == 1 else f"({outs})"
    pad = " " * (indent + 2)
    body = "\n".join(eqns)
    if not eqns:
        return f"{head}  in {outs} }}"
    return f"{head}\n{body}\n{pad}in {outs} }}"


def pp_jaxpr(jaxpr: Jaxpr) -> str:
    return _pp_jaxpr(jaxpr, _Names(), 0)


def pp_eqn(eqn) -> str:
    return _pp_eqn(eqn, _Names(), 0)
