"""Recording one eager call as the primitives it applies, and replaying the recording.

:func:`record` runs a function eagerly, with NumPy's eager semantics unchanged, under an
:class:`~xnp.tracing.core.EvalTrace` that holds a :class:`Recording`: every primitive the
call binds is evaluated on the base trace as usual and noted, with where each operand came
from (an input array, the result of an earlier primitive, a Python or NumPy scalar). When
the call returns, the recording becomes a :class:`Program` if everything the call did is in
those notes; :meth:`Program.run` then gives the call's result for other inputs of the same
signature (the caller's: the metadata the recorded call may depend on) by calling the eager
backend's implementations directly.

A call is *not* made into a program (``Recording.failed`` says why) when it did something
a replay would not repeat or that could depend on more than the arrays' metadata:

* read or wrote an array's value from Python (``Array._val`` is watched while a thread
  records, see ``set_access_hook`` in ``xnp/_native/array_base.c``; ``_v``, the unwatched
  read, is for the metadata accessors and for evaluating a primitive), except a write of a
  result into an input array by :func:`write_result` that a replay can repeat as NumPy's
  ufunc with that input as its ``out``;
* passed a primitive an array made outside the recorded primitives, or anything but an
  array, a scalar or a NumPy array of at most :data:`MAX_CONSTANT_BYTES`; or bound a primitive with its own ``impl`` (control flow, calls,
  callbacks, state);
* took a NumPy view of a jit output's value, or of an array made outside the recording,
  by :func:`native_call` (which a recording otherwise notes as an equation);
* ran a primitive under other NumPy floating-point error settings or warning filters than
  the call's (``numpy.errstate``/``warnings.catch_warnings`` inside the call);
* issued a warning of its own or had another effect (:func:`note_effect`);
* returned an array it did not get from the recorded primitives or its inputs, or an
  object other than arrays, scalars, strings, dtypes, ``None`` and tuples/lists of them.

A recording runs with every NumPy floating-point error raising (``numpy.errstate``): one
met anywhere in the call stops it. One met in a primitive is met again by a replay (the
same implementation, under the caller's settings): the call is recorded again with its
primitives under the caller's settings, and that recording is the call. One met in a
conversion of the call's own (a Python float cast to float32, which a program would not
repeat) makes the call run again, unrecorded, under the caller's settings, and nothing is
stored (:func:`record`). An effect noted before (:func:`note_effect`) restores the
caller's settings first, so no effect happens twice.

The caller decides which calls may share a program (``xnp/numpy_api/_replay.py``: one per
function and argument signature); this module knows nothing of NumPy's functions.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np

from xnp.tracing import core
from xnp.tracing.array_base import set_access_hook
from xnp.tracing.core import Array, EvalTrace
from xnp.tracing.fp_warnings import at_user_line, fp_warnings_at_user_line
from xnp.tracing.program import (_NATIVE, _NATIVE_WRITE, _OPERAND, _SETITEM, _WRITE,
                                 MAX_CONSTANT_BYTES,
                                 Program, _copy, _kernel, _returns_arguments, _Scalar,
                                 _spec_slots)

__all__ = ["AVAILABLE", "Recording", "Program", "record", "note_effect", "native_call",
           "native_write", "write_result", "metadata_function"]

#: whether recordings can see value reads (the C storage of arrays is built)
AVAILABLE = set_access_hook is not None

_PY_SCALARS = (bool, int, float, complex)
_CONSTANTS = (type(None), bool, int, float, complex, str, np.dtype, type)
_STATE = core._STATE
_BASE = core._BASE_TRACE
_ALL_RAISE = dict.fromkeys(np.geterr(), "raise")  # a first attempt's settings (_attempt)
_LOCK = threading.Lock()
_RECORDING_THREADS = [0]
try:  # NumPy 2's floating-point error state: one object per errstate context (cheap)
    from numpy._core._ufunc_config import _extobj_contextvar as _EXTOBJ

    _errstate = _EXTOBJ.get
except ImportError:  # pragma: no cover  (another NumPy layout: its public, slower form)
    _errstate = np.geterr


def _on_access(array) -> None:
    """The access hook: a value read or write in a thread that records fails its recording."""
    rec = getattr(_STATE.trace, "recording", None)
    if rec is not None and not rec.evaluating:
        rec.fail("read or wrote an array's value")


def note_effect(why: str) -> None:
    """Called by code with an effect a replay would not repeat (a warning it issues): a
    recording of the current call, if any, fails."""
    rec = getattr(_STATE.trace, "recording", None)
    if rec is not None:
        rec.fail(why)
        if rec.caller is not None:  # the effect has happened: from here on the caller's
            np.seterr(**rec.caller)  # floating-point settings, so no floating-point
            rec.caller = None  # error makes record() run the call (and this effect) again


def native_call(fn, x, *more, view: bool = True, weak: bool | None = None,
                multiple: bool = False, shaped_by_values: bool = False):
    """``fn`` applied to the eager arrays' host values (``x``'s, then ``more``'s), as an
    array of ``x``'s weak type: for a result no primitive gives, such as NumPy's read-only
    views (``numpy.diagonal``, ``numpy.broadcast_to``), or NumPy's own function where the
    eager result is NumPy's (``numpy.take``'s bounds check, ``numpy.nonzero``'s shape). A
    recording notes it as an equation, so that a replay calls ``fn`` on its inputs' values:
    ``fn`` must compute from the values alone, its result's dtype and layout as the call's
    signature determines. ``view``: the result may be a view of ``x``, whose host memory is
    then made its own first (``_writable_value``: a jit output's is copied), as before a
    view primitive; otherwise the values are read as they are. ``weak``: the result's weak
    type, when not ``x``'s. ``multiple``: ``fn`` returns a tuple of results, and so does
    this. A result that is not an array (NumPy's scalar) is made one.
    ``shaped_by_values``: the results' shapes depend on the values (``nonzero``); a
    recording then fails if a primitive or another native call takes one of them (its
    parameters, or the code around it, may hold that shape), so the call replays only
    where they are its results."""
    rec = getattr(_STATE.trace, "recording", None)
    weak = x._weak if weak is None else weak
    if rec is not None:
        return rec.native_call(fn, x, more, view, weak, multiple, shaped_by_values)
    outs = tuple(Array(o, weak) for o in _native_results(fn, x, more, view, multiple))
    return outs if multiple else outs[0]


def _native_results(fn, x, more, view: bool, multiple: bool) -> list:
    out = fn(*[x._writable_value() if view else x._value] + [m._value for m in more])
    return [o if type(o) is np.ndarray else np.asarray(o) for o in (out if multiple else (out,))]




def write_result(target, value, write) -> None:
    """Write the eager array ``value`` into the memory of the eager array ``target`` (a ufunc's
    ``out``, the left operand of an in-place operator) as ``write(target's writable host
    value, value's host value)`` does.

    A recording of the call notes the write when a replay can repeat it as NumPy itself
    writes: ``value`` is the result of the last primitive recorded, whose eager kernel is a
    NumPy ufunc with one output and no parameters, of ``target``'s dtype and shape, and
    ``target`` is one of the call's input arrays, holding writable host memory of its own
    kind (not a jit output's, not a ``broadcast_arrays`` result's). The program then calls
    that ufunc with ``target``'s value as its ``out``: the values NumPy's ``ufunc(..., out=)``
    gives, its floating-point errors after it wrote (``numpy.errstate`` 'raise'), and one
    NumPy call, as NumPy's in-place operators are. Any other write makes the recording fail."""
    rec = getattr(_STATE.trace, "recording", None)
    if rec is None:
        write(target._writable_value(), value._value)
        return
    rec.write_result(target, value, write)




def native_write(fn, target, *operands) -> bool:
    """``fn(target's writable host value, *operands' host values)``, a NumPy function that
    writes into its first argument (``numpy.put``, ``numpy.fill_diagonal``), for the eager
    arrays ``target`` and ``operands``; ``fn`` holds the call's other arguments, which
    must be part of the call's signature (numbers, strings, lists of them). Returns False,
    writing nothing, where it does not apply: an argument is not an eager array, a trace
    stages, or a function of ``grad``/``vmap`` runs (its arrays may stand for traced
    values).

    A recording of the call notes it when a replay can repeat it on the new values:
    ``target`` is an input array holding writable host memory of its own kind (as for
    :func:`write_result`) and each operand an input or a recorded result. Any other write
    makes the recording fail."""
    if type(target) is not Array or any(type(o) is not Array for o in operands) or \
            core._SCOPES_ON[0] or core._REBOUND_ON[0] or core.staging_active():
        return False
    rec = getattr(_STATE.trace, "recording", None)
    if rec is None:
        at_user_line(fn, target._writable_value(), *[o._value for o in operands])
    else:
        rec.native_write(fn, target, operands)
    return True


def write_item(target, idx, value, native_idx, native_value, write) -> None:
    """``target[idx] = value`` into the eager array ``target``'s memory, as
    ``write(target's writable host value, native_idx, native_value)`` does (NumPy's
    ``__setitem__``; ``native_idx`` and ``native_value`` are ``idx`` and ``value`` with
    their xnp arrays as host values).

    A recording of the call notes it when a replay can repeat it as NumPy's ``__setitem__``
    on the new values: ``target`` is an input array holding writable host memory of its
    own kind (as for :func:`write_result`), ``value`` an input array or a Python or NumPy
    scalar, and ``idx`` an integer, slice (of integers and None), None, Ellipsis, an
    input array of integers, or a tuple of those. Any other write makes the recording
    fail."""
    rec = getattr(_STATE.trace, "recording", None)
    if rec is None:
        write(target._writable_value(), native_idx, native_value)
        return
    rec.write_item(target, idx, value, native_idx, native_value, write)


_STATIC_INDEX = (int, bool, type(None), type(Ellipsis))


class Recording:
    """What one eager call bound so far (see the module docstring)."""

    __slots__ = ("n_in", "slots", "keep", "natives", "weaks", "eqns", "failed", "errstate",
                 "filters", "backend", "evaluating", "caller", "inside", "error_in_primitive",
                 "value_shaped")

    def __init__(self, leaves, caller=None, inside=None):
        self.n_in = len(leaves)
        self.slots = {id(a): i for i, a in enumerate(leaves)}  # array id -> value slot
        self.keep = list(leaves)  # the slots' arrays, alive so that no id is reused
        self.natives = [None] * len(leaves)  # each result's native value and weak type
        self.weaks = [a._weak for a in leaves]
        self.eqns: list = []
        self.failed = None
        self.evaluating = False  # a primitive is evaluated: its reads of operands are its own
        self.errstate = _errstate()
        self.filters = warnings.filters
        self.backend = core.eager_backend()
        self.caller = caller  # the caller's floating-point settings (``numpy.geterr()``)
        self.inside = inside  # None, or the floating-point settings primitives run under
        self.error_in_primitive = False  # a primitive met a floating-point error
        self.value_shaped: set = set()  # the slots of native results shaped by values

    def fail(self, why: str) -> None:
        if self.failed is None:
            self.failed = why

    def _evaluate(self, prim, args, params):
        """The primitive on the eager backend under the recording's settings (``inside``),
        or under settings the call set itself (NumPy's warnings of a ``mean`` of empty
        slices, which fail the recording): either way a warning names the user's line."""
        settings = self.inside
        if settings is None:
            current = np.geterr()
            if current != _ALL_RAISE:
                settings = current
        if settings is None:
            return _BASE.process_primitive(prim, args, params)
        return fp_warnings_at_user_line(
            lambda: _BASE.process_primitive(prim, args, params), settings)

    def process_primitive(self, prim, args, params):
        if self.failed is None:
            ops = self._operands(prim, args)
        if self.failed is None:  # (no impl: only the eager backend's functions run)
            self.evaluating = True
            try:
                out = self._evaluate(prim, args, params)
            except FloatingPointError:
                self.error_in_primitive = True
                raise
            finally:
                self.evaluating = False
        else:
            out = self._evaluate(prim, args, params)
        if self.failed is None:
            if self._settings_changed():
                self.fail(f"ran {prim.name} under other error settings or warning filters")
            else:
                outs = out if prim.multiple_results else [out]
                first = len(self.keep)
                for i, o in enumerate(outs):
                    self.slots[id(o)] = first + i
                    self.keep.append(o)
                    self.natives.append(o._v)
                    self.weaks.append(o._weak)
                self.eqns.append((prim, params, ops, prim.multiple_results, len(outs)))
        return out

    def native_call(self, fn, x, more, view: bool, weak: bool, multiple: bool,
                    shaped_by_values: bool):
        """:func:`native_call` while recording: ``fn(values)``, noted as an equation."""
        slots = []
        if self.failed is None:
            slots = [self.slots.get(id(a)) for a in (x,) + more]
            if None in slots:
                self.fail("passed a native call an array made outside the recording")
            elif self.value_shaped.intersection(slots):
                self.fail("passed a native call an array whose shape values decided")
            elif view and x._dev is not None:  # (its host memory is copied first: not
                self.fail("took a view of a jit output")  # repeated)
        outs = tuple(Array(o, weak) for o in self._evaluated(
            lambda: _native_results(fn, x, more, view, multiple)))
        if self.failed is None:
            if self._settings_changed():
                self.fail("took a view under other error settings or warning filters")
            else:
                for out in outs:
                    if shaped_by_values:
                        self.value_shaped.add(len(self.keep))
                    self.slots[id(out)] = len(self.keep)
                    self.keep.append(out)
                    self.natives.append(out._v)
                    self.weaks.append(out._weak)
                self.eqns.append((_NATIVE, fn, tuple(slots), multiple, len(outs)))
        return outs if multiple else outs[0]

    def _slot(self, a):
        """The value slot of the array ``a`` (an input or a result so far), or None."""
        return self.slots.get(id(a))

    def write_result(self, target, value, write) -> None:
        """:func:`write_result` while recording: the write, noted as an equation."""
        if self.failed is None:
            why = self._unrepeatable_write(target, value)
            if why is not None:
                self.fail(why)
        self._evaluated(lambda: write(target._writable_value(), value._value))
        if self.failed is None:
            self.eqns.append((_WRITE, None, (self._slot(target), self._slot(value)),
                              False, 0))

    def write_item(self, target, idx, value, native_idx, native_value, write) -> None:
        """:func:`write_item` while recording: the write, noted as an equation."""
        noted = None
        if self.failed is None:
            noted = self._item_write(target, idx, value)
            if type(noted) is str:
                self.fail(noted)
        self._evaluated(lambda: write(target._writable_value(), native_idx, native_value))
        if self.failed is None:
            self.eqns.append((_SETITEM, noted[0], noted[1], False, 0))

    def native_write(self, fn, target, operands) -> None:
        """:func:`native_write` while recording: the write, noted as an equation."""
        slots = [self._slot(o) for o in operands]
        if self.failed is None:
            why = self._writable_input(target)
            if why is not None:
                self.fail(why)
            elif None in slots:
                self.fail("passed a native write an array made outside the recording")
            elif self.value_shaped.intersection(slots):
                self.fail("passed a native write an array whose shape values decided")
        self._evaluated(lambda: at_user_line(fn, target._writable_value(),
                                             *[o._value for o in operands]))
        if self.failed is None:
            if self._settings_changed():
                self.fail("wrote under other error settings or warning filters")
            else:
                self.eqns.append((_NATIVE_WRITE, _returning_target(fn),
                                  (self._slot(target),) + tuple(slots), False, 0))

    def _evaluated(self, run):
        """``run()``, whose reads and writes of array values are the recording's own."""
        self.evaluating = True
        try:
            return run()
        finally:
            self.evaluating = False

    def _settings_changed(self) -> bool:
        """Whether NumPy's error settings or the warning filters are not the call's."""
        return _errstate() != self.errstate or warnings.filters is not self.filters

    def _item_write(self, target, idx, value):
        """``(template, operand slots)`` of writing ``value`` at ``idx`` into ``target``
        (:func:`write_item`), or why a replay could not repeat it."""
        why = self._writable_input(target)
        if why is not None:
            return why
        ops = [self._slot(target)]

        def operand(a):
            if type(a) is Array:
                slot = self._slot(a)
                if slot is None or slot >= self.n_in or a._dev is not None:
                    return None
                ops.append(slot)
                return _OPERAND
            if type(a) in _PY_SCALARS or isinstance(a, np.generic):
                return a
            return None

        v = operand(value)
        if v is None:
            return "wrote a value that is not an argument or a scalar"

        def item(i):
            t = type(i)
            if t is Array:
                if i._v is None or i._v.dtype.kind not in "iu":  # (a mask: a shape of values)
                    return None
                return operand(i)
            if t in _STATIC_INDEX or isinstance(i, np.integer):
                return i
            if t is slice and all(type(p) in (int, type(None)) or isinstance(p, np.integer)
                                  for p in (i.start, i.stop, i.step)):
                return i
            return None

        parts = idx if type(idx) is tuple else (idx,)
        template = tuple(item(i) for i in parts)
        if any(t is None and p is not None for t, p in zip(template, parts)):
            return "wrote at an index that is not static or an integer argument array"
        return (type(idx) is tuple, template, v), tuple(ops)

    def _writable_input(self, target):
        """Why ``target`` is not an input array a replay can write into, or None."""
        slot = self._slot(target)
        if type(target) is not Array or slot is None or slot >= self.n_in:
            return "wrote into an array that is not an argument"
        t = target._v
        # (flags.num: bit 31 NumPy's WARN_ON_WRITE, set on broadcast_arrays' results, whose
        # flags.writeable warns; bit 10 WRITEABLE)
        if target._dev is not None or t is None or type(t) is not np.ndarray or \
                t.flags.num < 0 or not t.flags.num & 0x400:
            return "wrote into a jit output, or into memory NumPy guards"
        return None

    def _unrepeatable_write(self, target, value):
        """Why a replay could not repeat writing ``value`` into ``target`` as the ufunc of
        the last primitive with ``out`` (:func:`write_result`), or None."""
        why = self._writable_input(target)
        if why is not None:
            return why
        t = target._v
        last = len(self.keep) - 1
        v = value._v
        if self._slot(value) != last or not self.eqns or v is not self.natives[last] \
                or type(v) is not np.ndarray or v.dtype != t.dtype or v.shape != t.shape:
            return "wrote a value other than its last primitive's result"
        prim, params, ops, multiple, n_out = self.eqns[-1]
        if prim is None or prim is _NATIVE or prim is _WRITE or multiple or n_out != 1:
            return "wrote a value other than its last primitive's result"
        kernel, kernel_params = _kernel(self.backend, prim, params, ops, self.keep)
        if kernel_params is not None or not isinstance(kernel, np.ufunc) or \
                kernel.nout != 1 or kernel.nin != len(ops):
            return f"wrote the result of {prim.name}, whose kernel is not a NumPy ufunc"
        return None

    def lifted(self, arr) -> None:
        """``arr`` is a constant the call made (``core.lift``): each replay makes a copy of
        its value as it was made."""
        if self.failed is not None:
            return
        native = arr._v
        flags = native.flags
        if not flags.writeable or native.nbytes > MAX_CONSTANT_BYTES or native.base is not None \
                or not (flags.c_contiguous or flags.f_contiguous):
            # a copy would not reproduce it: read-only, a view (of memory another result may
            # share), strided; or large (each program keeps its constants)
            self.fail("made a constant that is read-only, a view, strided or large")
            return
        private = _copy(native)()
        self.slots[id(arr)] = len(self.keep)
        self.keep.append(arr)
        self.natives.append(native)
        self.weaks.append(arr._weak)
        self.eqns.append((None, private, (), False, 1))

    def _operands(self, prim, args) -> list:
        if prim.impl is not None:
            self.fail(f"bound {prim.name}, which has an impl of its own")
            return []
        ops = []
        view = prim in self.backend.view_prims
        for a in args:
            t = type(a)
            if t is Array:
                slot = self.slots.get(id(a))
                if slot is None:
                    self.fail(f"passed {prim.name} an array made outside the recording")
                elif slot in self.value_shaped:  # (its parameters may hold that shape)
                    self.fail(f"passed {prim.name} an array whose shape values decided")
                elif view and a._dev is not None:  # its evaluation copies the jit output
                    self.fail(f"took a view ({prim.name}) of a jit output")
                ops.append(slot)
            elif t in _PY_SCALARS or isinstance(a, np.generic):
                ops.append(_Scalar(a))
            elif t is np.ndarray and a.nbytes <= MAX_CONSTANT_BYTES:  # (a constant of
                ops.append(_Scalar(np.array(a, copy=True)))  # the code: as it is now)
            else:
                self.fail(f"passed {prim.name} a {t.__name__}")
        return ops

    def _output(self, out, n_in: int):
        """The output spec of ``out``, or None (and failed) when it cannot be rebuilt."""
        t = type(out)
        if t is Array:
            slot = self.slots.get(id(out))
            if slot is None:
                self.fail("returned an array made outside the recording")
                return None
            if slot >= n_in and (out._dev is not None or out._v is not self.natives[slot]
                                 or out._weak != self.weaks[slot]):
                self.fail("changed a result after making it")
                return None
            return ("array", slot)
        if t is tuple or t is list or (isinstance(out, tuple) and hasattr(t, "_fields")):
            parts = [self._output(o, n_in) for o in out]
            return None if self.failed else (t, parts)
        if t in _CONSTANTS or isinstance(out, (np.generic, np.dtype)):
            return ("const", out)
        self.fail(f"returned a {t.__name__}")
        return None

    def program(self, out, n_in: int, metadata: bool = False):
        """The :class:`Program` of this recording and the call's result ``out``, or None.
        ``metadata``: the function computes from its arguments' metadata alone, with no
        effect (:func:`metadata_function`), so a call that binds nothing is its result."""
        spec = self._output(out, n_in) if self.failed is None else None
        if self.failed is None and not self.eqns and not metadata and \
                not _returns_arguments(spec, n_in):
            # binding nothing, it may have done what a replay would not repeat (a Python
            # side effect: a random seed, a print); returning its own arrays as they are
            # (``squeeze(x) is x``), it did nothing a replay must repeat
            self.fail("bound no primitive")
        if self.failed is None and self._written_value_used(spec):
            self.fail("used a value it wrote into an argument")
        if self.failed is not None:
            return None
        return Program(self, spec, n_in)

    def _written_value_used(self, spec) -> bool:
        """Whether a value written by :meth:`write_result` is an operand of a later
        equation or part of the result (a replay writes it into the target instead)."""
        written = set()
        for prim, _, ops, _, _ in self.eqns:
            if prim is _WRITE:
                written.add(ops[1])
            elif prim is _SETITEM or prim is _NATIVE_WRITE:
                if written and any(o in written for o in ops):
                    return True
            elif written and any(type(o) is int and o in written for o in ops):
                return True
        return bool(written) and bool(written & set(_spec_slots(spec)))


def _returning_target(fn):
    """A program's kernel of :func:`native_write`: ``fn``'s write, giving its target."""
    def write(target, *values):
        fn(target, *values)
        return target

    return write


def _watch(delta: int) -> None:
    with _LOCK:
        n = _RECORDING_THREADS[0] = _RECORDING_THREADS[0] + delta
        set_access_hook(_on_access if n else None)


def _attempt(fn, args, kwargs, leaves, caller, inside=None):
    """One recording of ``fn(*args, **kwargs)`` with every floating-point error raising
    (in the primitives too, unless ``inside`` gives their settings): ``(result,
    recording)``, or ``(recording, recording)`` when an error was raised that the
    recording's own settings caused (the call's own error, under the caller's settings,
    propagates)."""
    with np.errstate(all="raise"):
        rec = Recording(leaves, caller, inside)
        _watch(1)
        try:
            with core.set_current_trace(EvalTrace(rec)):
                return fn(*args, **kwargs), rec
        except FloatingPointError:
            if rec.caller is None or (inside is not None and rec.error_in_primitive):
                raise  # under the caller's own settings: the call's error, as unrecorded
            return rec, rec
        finally:
            _watch(-1)


def record(fn, args, kwargs, leaves):
    """``fn(*args, **kwargs)`` run eagerly and recorded; ``leaves`` are the input arrays
    (in the order :meth:`Program.run` takes them). Returns ``(result, program, why)``:
    the program is None when the call cannot be replayed, and ``why`` then says why (an
    exception from ``fn`` propagates).

    A floating-point error met in a primitive (``log`` of 0, ``power`` of a negative base)
    is one a replay meets again, in the same implementation under the caller's settings:
    the call is recorded again with its primitives under the caller's settings (so their
    warnings, errors and callbacks are the call's, once; a warning names the user's line,
    :func:`fp_warnings_at_user_line`), and that recording is the call (stored unless it
    failed for another reason).
    One met in the call's own conversions (a Python float cast to float32, whose warning
    no program would repeat) stops the recording: the call runs again, unrecorded, and
    nothing is stored (the next call of the signature records again)."""
    caller = np.geterr()
    out, rec = _attempt(fn, args, kwargs, leaves, caller)
    if out is rec and rec.error_in_primitive:
        out, rec = _attempt(fn, args, kwargs, leaves, caller, inside=caller)
    if out is rec:  # (its floating-point warnings name the user's line, as NumPy's)
        return at_user_line(fn, *args, **kwargs), None, None
    program = rec.program(out, len(leaves), getattr(fn, "_metadata_function", False))
    return out, program, rec.failed


def metadata_function(fn):
    """Decorator: ``fn`` computes its result from its arguments' metadata alone (shapes,
    dtypes, strides, types, Python values: what a call's signature holds) and has no
    effect, so a recorded call that binds no primitive replays as its result
    (``numpy.shape``, ``numpy.result_type``); other calls that bind nothing are not
    replayed (they may have had a Python side effect)."""
    fn._metadata_function = True
    return fn
