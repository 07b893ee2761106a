"""Python int arguments of ``xnp.jit``: the range check eager NumPy code gets.

Eagerly a Python int combined with an integer array takes that array's dtype and must
fit it (NEP 50: ``int8_array * 300`` raises ``OverflowError: Python integer 300 out of
bounds for int8``). Under ``jit`` a Python int argument is a weak-typed scalar input
whose value is not known while tracing, so the check moves to the call:

- The argument's aval is a weak int64 (the default int; int32 with ``enable_x64`` off),
  or a weak uint64 for an int in ``[2**63, 2**64)``, which eager NumPy also holds as
  uint64 (``xnp.asarray(2**63)``). Ints outside ``[-2**63, 2**64)`` are rejected by
  :func:`arg_aval`.
- After tracing, :func:`int_checks` reads the jaxpr for every conversion of such an input
  to an integer dtype (``convert_element_type`` of the input itself: weak-type promotion,
  ``full``/``where``/``x[i] = s`` on it; through ``max``/``min`` with a constant, which
  makes one side of the range irrelevant, as ``clip`` does; into ``jit``, ``cond`` and
  custom-derivative bodies). Each conversion bounds the values the argument may take.
- :func:`guard` wraps the entry's runner: a Python int outside the bound raises the
  eager message, one outside the carried dtype (``2**63`` keyed as int64 by the cached
  paths, which key scalars by type) is run by the entry its value keys.

Only Python ints are checked (``type(v) is int``); a weak Array argument converts as it
does eagerly (wrapping, as ``lax.convert_element_type``). Arithmetic on the argument
itself runs in its carried dtype, as it would on ``xnp.asarray(v)``.
"""

from __future__ import annotations

import numpy as np

from xnp import config
from xnp.tracing import core
from xnp.tracing.avals import ShapedArray
from xnp.tracing.jaxpr import Literal as _LITERAL

__all__ = ["arg_aval", "int_checks", "guard", "check_values", "nested_leaf"]

_INT64 = np.iinfo(np.int64)
_UINT64 = np.iinfo(np.uint64)
_WIDE = ShapedArray((), np.dtype(np.uint64), weak_type=True)


def arg_aval(x: int, path: str, fun_name: str) -> ShapedArray:
    """The aval of Python int argument ``x``: weak default int, or weak uint64 for
    ``2**63 <= x < 2**64`` (with ``enable_x64``).

    Raises
    ------
    OverflowError
        ``x`` is outside ``[-2**63, 2**64)`` (no NumPy integer dtype holds it).
    """
    if _INT64.min <= x <= _UINT64.max:
        if x > _INT64.max and config.get("enable_x64"):
            return _WIDE
        return core.aval_of(x)  # beyond int32 with enable_x64 off: the call raises eager's error
    raise OverflowError(
        f"xnp.jit: argument {path} of {fun_name} is the Python int {x}, outside the range "
        f"of every NumPy integer dtype [{_INT64.min}, {_UINT64.max}] (int64 and uint64); "
        "pass a float or an object that holds it, or make the argument static")


def _is_int_input(aval) -> bool:
    return aval.weak_type and aval.shape == () and aval.dtype.kind in "iu"


def _needed(dtype, lo_clamp, hi_clamp):
    """The argument range a conversion to integer ``dtype`` of ``clamp(arg, lo_clamp,
    hi_clamp)`` needs: a side already clamped inside ``dtype`` needs nothing."""
    info = np.iinfo(dtype)
    lo = info.min if lo_clamp is None or lo_clamp < info.min else None
    hi = info.max if hi_clamp is None or hi_clamp > info.max else None
    return (dtype, lo, hi)


def _scan(jaxpr, tracked: dict, out: dict) -> None:
    """Append to ``out[pos]`` the ``(dtype, lo, hi)`` of each integer conversion of a
    tracked variable (``var -> (pos, lo_clamp, hi_clamp)``), in program order."""
    for eqn in jaxpr.eqns:
        ins = eqn.invars
        if not any(type(v) is not _LITERAL and v in tracked for v in ins):
            continue
        name = eqn.primitive.name
        if name == "convert_element_type":
            dt = np.dtype(eqn.params["new_dtype"])
            if dt.kind in "iu":
                pos, lc, hc = tracked[ins[0]]
                out.setdefault(pos, []).append(_needed(dt, lc, hc))
        elif name in ("max", "min") and len(ins) == 2:
            lit = [v for v in ins if type(v) is _LITERAL]
            var = [v for v in ins if type(v) is not _LITERAL and v in tracked]
            if len(lit) == 1 and len(var) == 1:
                c = int(lit[0].val[()])
                pos, lc, hc = tracked[var[0]]
                if name == "max":
                    lc = c if lc is None else max(lc, c)
                else:
                    hc = c if hc is None else min(hc, c)
                tracked[eqn.outvars[0]] = (pos, lc, hc)
        else:
            for sub, pairs in _sub_inputs(eqn):
                inner = {s: tracked[v] for s, v in pairs
                         if type(v) is not _LITERAL and v in tracked}
                if inner:
                    _scan(sub, inner, out)


def _sub_inputs(eqn):
    """``(sub-jaxpr, [(its input, the equation operand it is)])`` for the bodies that see
    an operand's value itself: a ``jit``/custom-derivative call's inputs, ``cond``'s
    operands, the loop-invariant constants of ``scan`` and ``while`` (a carry changes
    from one iteration to the next)."""
    name, params, ins = eqn.primitive.name, eqn.params, eqn.invars
    if name in ("jit", "custom_jvp_call", "custom_vjp_call", "cond"):
        offset = 1 if name == "cond" else 0
        for value in params.values():
            for v in value if type(value) is tuple else (value,):
                j = getattr(v, "jaxpr", v)
                if hasattr(j, "eqns") and len(j.invars) + offset == len(ins):
                    yield j, list(zip(j.invars, ins[offset:]))
    elif name == "scan":
        j, n = params["jaxpr"].jaxpr, params["num_consts"]
        yield j, list(zip(j.invars[:n], ins[:n]))
    elif name == "while":
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        cj, bj = params["cond_jaxpr"].jaxpr, params["body_jaxpr"].jaxpr
        yield cj, list(zip(cj.invars[:nc], ins[:nc]))
        yield bj, list(zip(bj.invars[:nb], ins[nc:nc + nb]))


def int_checks(closed, avals) -> tuple:
    """The call-time checks of the Python int inputs of ``closed`` (avals ``avals``):
    ``((pos, lo, hi, own, conversions), ...)``; ``[lo, hi]`` is the range every
    conversion accepts within ``own``, the range of the input's carried dtype;
    ``conversions`` lists ``(dtype, lo, hi)`` (None: that side unbounded) in program
    order. Empty when no input is a weak integer scalar."""
    positions = [i for i, a in enumerate(avals) if _is_int_input(a)]
    if not positions:
        return ()
    invars = closed.jaxpr.invars
    out: dict = {}
    _scan(closed.jaxpr, {invars[i]: (i, None, None) for i in positions}, out)
    checks = []
    for i in positions:
        info = np.iinfo(avals[i].dtype)
        lo, hi = int(info.min), int(info.max)
        convs = tuple(out.get(i, ()))
        for _, c_lo, c_hi in convs:
            lo = lo if c_lo is None else max(lo, int(c_lo))
            hi = hi if c_hi is None else min(hi, int(c_hi))
        checks.append((i, lo, hi, (int(info.min), int(info.max)), convs))
    return tuple(checks)


def check_values(checks, leaves) -> bool:
    """Raise eager's ``OverflowError`` for a Python int leaf a conversion cannot hold;
    False when one is outside its carried dtype (the call belongs to another entry)."""
    for pos, lo, hi, (own_lo, own_hi), convs in checks:
        v = leaves[pos]
        if type(v) is not int or lo <= v <= hi:
            continue
        if not own_lo <= v <= own_hi:
            return False
        for dt, c_lo, c_hi in convs:
            if (c_lo is not None and v < c_lo) or (c_hi is not None and v > c_hi):
                raise OverflowError(f"Python integer {v} out of bounds for {dt}")
    return True


def guard(run, checks, rekey):
    """``run`` preceded by the range check of its Python int arguments (``checks`` from
    :func:`int_checks`); a call whose int is outside its carried dtype goes to
    ``rekey(leaves)``, which runs the entry the values key. ``run`` itself when there is
    nothing to check."""
    if not checks:
        return run
    if len(checks) == 1:
        ((p, lo, hi, _, _),) = checks

        def run_checked(leaves):
            v = leaves[p]
            if type(v) is int and not lo <= v <= hi:
                return _slow(leaves)
            return run(leaves)
    else:
        bounds = tuple((p, lo, hi) for p, lo, hi, _, _ in checks)

        def run_checked(leaves):
            for p, lo, hi in bounds:
                v = leaves[p]
                if type(v) is int and not lo <= v <= hi:
                    return _slow(leaves)
            return run(leaves)

    def _slow(leaves):
        if check_values(checks, leaves):
            return run(leaves)
        return rekey(leaves)

    return run_checked


def nested_leaf(x, aval):
    """A Python int leaf of a staged jit call as the value its input expects (an int
    beyond int64 as a weak uint64 value)."""
    if type(x) is int and aval == _WIDE:
        return core.lift(np.asarray(x, np.uint64), weak_type=True)
    return x

