"""The jaxpr pretty-printer, in the notation of the acceptance catalogue (section 0.3).

``{ lambda <constvars> ; <invars>. let <eqns> in (<outvars>) }``; variables named
``a, b, ..., z, ba, bb, ...`` in order of first appearance (one naming context
across nested jaxprs); params sorted by name (``name`` first, as JAX prints
``jit[name=f jaxpr=...]``), strings unquoted; an equation whose one-line form
is wider than 80 columns (or that holds a sub-jaxpr) puts one param per line.
The inner jaxpr of a call equation (``jit``) names its inputs and outputs after
the equation's operands and results, as JAX does.
"""

from __future__ import annotations

import numpy as np

from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, Literal

__all__ = ["pp_jaxpr", "pp_eqn", "pp_param"]

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
