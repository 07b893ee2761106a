"""A recorded eager call as a program of the eager backend's kernels (the replays of the
eager dispatch cache, ``xnp/numpy_api/_replay.py``; recorded by
:mod:`xnp.tracing.recording`).

A :class:`Program` lists equations ``(kernel, params or None, operand slots, multiple
results)`` over an environment that starts with the call's input arrays' values: each
kernel is the backend's direct function for the primitive (a NumPy ufunc, or a callable
with its parameters bound) or its implementation with the parameters; constants are
copies made on each replay, and an equation of constants only is folded into one constant
where the program is made. ``run_eqns`` (in C where ``xnp/_native/replay.c`` is built)
runs them.
"""

from __future__ import annotations

import functools
import operator
import types

import numpy as np

from xnp.tracing.core import Array
from xnp.tracing.fp_warnings import at_user_line

__all__ = ["Program", "run_eqns", "MAX_CONSTANT_BYTES"]

#: the marker of an equation noted by :func:`native_call` (its params: the function)
_NATIVE = "native call"

#: the marker of a write noted by :func:`write_result` (operands: target, value)
_WRITE = "write"

#: a program's equation that writes: its "multiple results" (the ufunc's ``out`` keyword)
_OUT = "out"

#: the marker of a write noted by :func:`write_item`; also a program's equation that
#: writes an item: its "multiple results"
_SETITEM = "setitem"

#: the marker of a write noted by :func:`native_write` (its params: the function, which
#: writes into its first operand and returns it)
_NATIVE_WRITE = "native write"

#: in a program's item write, an index item or value that is the next operand
_OPERAND = NotImplemented

#: a call that makes a bigger constant is not recorded (a program keeps a copy of each)
MAX_CONSTANT_BYTES = 1 << 16

_PY_SCALARS = (bool, int, float, complex)


class _Scalar:
    """An operand of a recorded primitive that is not an array: a Python or NumPy scalar,
    or a small NumPy array (a program converts it once and passes each replay a copy, so
    no replay shares a mutable array with another)."""

    __slots__ = ("value", "python")

    def __init__(self, value):
        self.value = value
        self.python = type(value) in _PY_SCALARS


class Program:
    """A recorded call (``rec``, a :class:`xnp.tracing.recording.Recording`), replayed on
    new inputs by the eager backend's implementations.

    ``eqns`` are ``(impl, params or None, operand slots, multiple results)`` (that last
    ``"out"`` for a write: ``impl(*operands[:-1], out=operands[-1])``; ``"setitem"`` for
    an item write, :func:`_set_item`), run in order
    on an environment that starts with the input arrays' values and gains each result
    (wrapped as the backend's native array): a constant the call made is an equation of no
    operand giving a copy of its value as it was made, and a scalar operand one giving a
    copy of its conversion, so no replay shares a mutable array with another; a
    :func:`native_call` is its function on its operand, and a :func:`write_result` the
    ufunc of the equation before it with the target's value as its ``out`` (``writes``: the
    input slots written, in order). ``single``
    is ``(slot, weak type, eqns, native type, wrap)`` when the call's result is one new
    array (what the C hit path of xnp/_native/replay.c runs itself), else None.
    """

    __slots__ = ("eqns", "spec", "weaks", "native", "wrap", "single", "writes",
                 "python_kernels")

    def __init__(self, rec, spec, n_in: int):
        backend = rec.backend
        self.native, self.wrap = backend.native_type, backend.wrap_native
        eqns = []
        writes = []  # the input slots a replay writes into
        slot_of = list(range(n_in))  # recorded slot -> slot in the replay's environment
        weaks = list(rec.weaks[:n_in])
        first = n_in  # the recorded slot of the next primitive's first result

        values = {}  # slot of a constant -> its value (as made)

        counts = []  # the number of results (environment slots) of each equation

        def constant(make, weak=False, value=None):
            eqns.append((make, None, (), False))
            counts.append(1)
            weaks.append(weak)
            values[len(weaks) - 1] = make() if value is None else value
            return len(weaks) - 1

        recorded = rec.eqns
        for k, (prim, params, ops, multiple, n_out) in enumerate(recorded):
            if prim is None:  # a constant the call made
                slot_of.append(constant(_copy(params), rec.weaks[first], params))
                first += 1
                continue
            if prim is _NATIVE:  # native_call: the function on the values
                eqns.append((params, None, tuple(slot_of[o] for o in ops), multiple))
                counts.append(n_out)
                for j in range(n_out):
                    slot_of.append(len(weaks))
                    weaks.append(rec.weaks[first + j])
                first += n_out
                continue
            if prim is _SETITEM:  # NumPy's __setitem__ of the new values: the template
                eqns.append(((params[0], params[1]), params[2],  # (is a tuple, items)
                             tuple(slot_of[o] for o in ops), _SETITEM))  # and the value
                counts.append(1)
                weaks.append(False)  # (the target, once more)
                writes.append(ops[0])
                continue
            if prim is _NATIVE_WRITE:  # NumPy's function writing into its first operand
                eqns.append((params, None, tuple(slot_of[o] for o in ops), False))
                counts.append(1)
                weaks.append(False)  # (the target, once more)
                writes.append(ops[0])
                continue
            if prim is _WRITE:  # the last equation's ufunc, with the target as its out
                kernel, _, last_ops, _ = eqns[-1]
                eqns[-1] = (kernel, None, last_ops + (slot_of[ops[0]],), _OUT)
                writes.append(ops[0])
                continue
            kernel, kernel_params = _kernel(backend, prim, params, ops, rec.keep)
            single = getattr(kernel, "single_result", None)
            if single is not None and multiple is True and n_out == 1:
                kernel, multiple = single, False  # (its one result, without a list around it)
            ops = tuple(slot_of[o] if type(o) is int else constant(_scalar(backend, o))
                        for o in ops)
            # (not the ufunc of a write that follows: the write repeats it with its out)
            if not multiple and all(o in values for o in ops) and not getattr(
                    prim, "checks_values", False) and not (
                    k + 1 < len(recorded) and recorded[k + 1][0] is _WRITE):
                value = _folded(kernel, kernel_params, [values[o] for o in ops], self.native,
                                self.wrap)
                if value is not None:  # a function of constants: a constant
                    slot_of.append(constant(_copy(value), rec.weaks[first], value))
                    first += 1
                    continue
            eqns.append((kernel, kernel_params, ops, multiple))
            counts.append(n_out)
            for i in range(n_out):
                slot_of.append(len(weaks))
                weaks.append(rec.weaks[first + i])
            first += n_out
        spec = _remap(spec, slot_of)
        eqns, weaks, spec = _without_unused_constants(eqns, counts, weaks, spec, n_in)
        self.eqns = tuple(eqns)
        # a kernel written in Python: NumPy's warnings in it would name its frame, so a
        # replay runs it at the user's line (xnp/_native/user_line.c)
        self.python_kernels = any(_runs_python(e[0]) for e in eqns if e[3] is not _SETITEM)
        self.writes = tuple(writes)
        self.weaks = tuple(weaks)
        self.spec = spec
        self.single = None
        if self.spec[0] == "array" and self.spec[1] >= n_in:
            self.single = (self.spec[1], self.weaks[self.spec[1]], self.eqns, self.native,
                           self.wrap)

    def run(self, leaves):
        """The call's result for the input arrays ``leaves`` (in the recording's order)."""
        # (a jit output not read yet is read, as evaluating a primitive on it reads it)
        env = [v if (v := a._v) is not None else a._value for a in leaves]
        # (this frame is xnp's: the kernels' floating-point warnings name the user's line)
        at_user_line(run_eqns, self.eqns, env, self.native, self.wrap)
        single = self.single
        if single is not None:
            return Array(env[single[0]], single[1])
        return self._build(self.spec, env, leaves, {})

    def _build(self, spec, env, leaves, made):
        kind = spec[0]
        if kind == "array":
            slot = spec[1]
            if slot < len(leaves):
                return leaves[slot]
            arr = made.get(slot)
            if arr is None:
                arr = made[slot] = Array(env[slot], self.weaks[slot])
            return arr
        if kind == "const":
            return spec[1]
        parts = [self._build(s, env, leaves, made) for s in spec[1]]
        if kind is list:
            return parts
        return tuple(parts) if kind is tuple else kind._make(parts)  # a named tuple


def _kernel(backend, prim, params, ops, keep):
    """``(function, params or None)`` a program calls for the recorded ``prim`` with
    ``params`` on the operands ``ops`` (slots of ``keep``, or scalars): the backend's direct
    kernel for the first two array operands (their dtypes, shapes and strides: a program
    serves one call signature) (a function of the operands alone, e.g. a
    composite's), else its implementation with the params."""
    direct = getattr(backend, "direct", None)  # the backend's call for (prim, params)
    if direct is not None:
        arrays = [keep[o] for o in ops if type(o) is int]
        kernel = direct(prim, params, *arrays[:2])
        if kernel is not None:
            return kernel, None
    return backend.impls.get(prim), params or None


#: callables that run no Python frame of their own (NumPy's ufuncs, builtins, methods of
#: C types, ``operator``'s callers), alone or under ``functools.partial``
_C_CALLABLES = (np.ufunc, types.BuiltinFunctionType, types.MethodDescriptorType,
                types.WrapperDescriptorType, types.MethodWrapperType,
                types.ClassMethodDescriptorType, operator.methodcaller, operator.itemgetter,
                operator.attrgetter)


def _runs_python(kernel) -> bool:
    """Whether calling the program kernel ``kernel`` runs a Python frame of its own."""
    while type(kernel) is functools.partial:
        kernel = kernel.func
    return not isinstance(kernel, _C_CALLABLES)


def _returns_arguments(spec, n_in: int) -> bool:
    """Whether an output spec is one or more of the call's input arrays (in a tuple or list,
    possibly nested) and nothing else."""
    slots = list(_spec_slots(spec))
    return bool(slots) and all(s < n_in for s in slots) and not _has_constant(spec)


def _has_constant(spec) -> bool:
    kind = spec[0]
    if kind == "const":
        return True
    return kind != "array" and any(_has_constant(s) for s in spec[1])


def _spec_slots(spec):
    """The array slots an output spec (:meth:`Recording._output`) refers to."""
    kind = spec[0]
    if kind == "array":
        yield spec[1]
    elif kind != "const":
        for s in spec[1]:
            yield from _spec_slots(s)


def _contiguous_strides(value: np.ndarray, order: str) -> tuple:
    """The strides of a new array of ``value``'s shape and dtype in ``order`` ('C'/'F')."""
    strides, step = [], value.itemsize
    for n in (value.shape if order == "F" else reversed(value.shape)):
        strides.append(step)
        step *= max(n, 1)
    return tuple(strides if order == "F" else reversed(strides))


def _copy(value: np.ndarray):
    """A function of no argument giving a copy of ``value`` in its memory order, with its
    strides exactly where they are those of a new array in order 'C' or 'F' (NumPy's own
    copies give length-1 axes the strides of the order they prefer, 'C': a column-major
    ``(3, 1)`` array's ``(8, 24)`` would become ``(8, 8)``)."""
    if value.strides == _contiguous_strides(value, "C"):
        return value.copy
    order = "F" if value.strides == _contiguous_strides(value, "F") else "K"
    return functools.partial(np.array, value, copy=True, order=order)


def _scalar(backend, op: _Scalar):
    """A function of no argument giving ``op`` converted as the eager backend converts an
    operand that is not an array: a copy of the conversion made once, for NumPy's arrays."""
    value = backend.from_scalar(op.value) if op.python else backend.asarray(op.value)
    if type(value) is np.ndarray:
        return _copy(value)
    if op.python:
        return functools.partial(backend.from_scalar, op.value)
    return functools.partial(backend.asarray, op.value)


def _remap(spec, slot_of):
    kind = spec[0]
    if kind == "array":
        return ("array", slot_of[spec[1]])
    if kind == "const":
        return spec
    return (kind, [_remap(s, slot_of) for s in spec[1]])


def _folded(kernel, params, values, native, wrap):
    """The value of a program's equation whose operands are all constants (``values``),
    computed once where the program is made, or None to keep the equation: its result is
    bigger than :data:`MAX_CONSTANT_BYTES`, a view of an operand, it meets a floating-point
    error (a replay must meet it again), or it may warn otherwise (a complex value cast to
    a real dtype: NumPy's ComplexWarning). (The warning filters are not touched: they are
    the process's, shared by every thread.)"""
    try:
        with np.errstate(all="raise"):
            out = kernel(*values, **params) if params else kernel(*values)
    except Exception:  # noqa: BLE001  (the equation stays, and meets it on each replay)
        return None
    out = out if type(out) is native else wrap(out)
    if type(out) is not np.ndarray or out.nbytes > MAX_CONSTANT_BYTES or any(
            np.may_share_memory(out, v) for v in values) or (
            out.dtype.kind != "c" and any(v.dtype.kind == "c" for v in values)):
        return None
    return out


def _without_unused_constants(eqns, counts, weaks, spec, n_in: int):
    """``(eqns, weaks, spec)`` without the constants that no equation and no output uses
    (those whose only use was folded into another constant), the slots renumbered;
    ``counts``: the number of results of each equation."""
    used = set(_spec_slots(spec))
    for _, _, ops, _ in eqns:
        used.update(ops)
    new_of = list(range(n_in))  # old slot -> new slot (None: dropped)
    kept, slot, n = [], n_in, n_in
    for eqn, count in zip(eqns, counts):
        if not eqn[2] and eqn[3] is False and slot not in used:  # an unused constant
            new_of.append(None)
        else:
            kept.append(eqn)
            new_of.extend(range(n, n + count))
            n += count
        slot += count
    if len(kept) == len(eqns):
        return eqns, weaks, spec
    eqns = [(k, p, tuple(new_of[o] for o in ops), m) for k, p, ops, m in kept]
    return eqns, [w for w, new in zip(weaks, new_of) if new is not None], _remap(spec, new_of)


def _py_run_eqns(eqns, env, native, wrap) -> None:
    """Run ``eqns`` (:attr:`Program.eqns`) on ``env``, appending each result."""
    for impl, params, ops, multiple in eqns:
        args = [env[o] for o in ops]
        if multiple == _SETITEM:  # impl: (is a tuple, index items), params: the value
            out = _set_item(impl, params, args)
        elif type(multiple) is str:  # (_OUT) a write: the last operand is the ufunc's out
            out = impl(*args[:-1], out=args[-1])
        else:
            out = impl(*args, **params) if params else impl(*args)
        if multiple and type(multiple) is not str:
            env.extend([o if type(o) is native else wrap(o) for o in out])
        else:
            env.append(out if type(out) is native else wrap(out))


def _set_item(template, value, args):
    """A program's item write: ``args[0][index] = value``, the index's items and the value
    that are :data:`_OPERAND` taken from ``args[1:]`` in order; returns ``args[0]``."""
    rest = iter(args[1:])
    if value is _OPERAND:
        value = next(rest)
    is_tuple, items = template
    items = tuple(next(rest) if i is _OPERAND else i for i in items)
    args[0][items if is_tuple else items[0]] = value
    return args[0]


try:  # the same loop in C (xnp/_native/replay.c)
    from xnp._native._replay import run_eqns
except ImportError:  # pragma: no cover  (built without the extension)
    run_eqns = _py_run_eqns
