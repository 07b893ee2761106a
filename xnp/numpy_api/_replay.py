"""The eager dispatch cache: a NumPy function's full path, recorded once per argument
signature and replayed.

Every public function's full path (the code under its fast path, ``_fastpath``) is
wrapped by :func:`cached` (``xnp.host_dispatch.install`` does it for the namespaces it
covers). An eager call whose arguments all have a signature (below) looks the signature up
in the function's cache:

* a miss runs the full path under :func:`xnp.tracing.recording.record`, which returns the
  result as usual and, when the call did nothing but bind primitives on its inputs, a
  :class:`~xnp.tracing.program.Program` of it; the program (or the note that the
  signature cannot be replayed) is stored;
* a hit runs the program: the eager backend's implementation of each recorded primitive
  on the new inputs, with no Python layer of the NumPy surface in between. An exception of
  a replay propagates: it comes from the implementation the full path would have run at
  the same point, after the same warnings and ``errstate`` callbacks (check mode below
  compares it with the full path's).

So the fast path of every function is derived from its one definition: what the replay
computes is what the full path computed for the same signature, and what the full path
decides from anything but the signature (a value, a memory layout, a warning) makes the
recording fail, so that signature keeps the full path.

A signature is, per argument (keywords by name, in order): an exact ``Array``: its dtype,
shape, strides and weak type (``_layout.layout`` reads an eager array's strides unwatched,
so ``order="K"`` results replay), or for a jit output (whose host memory is C-contiguous,
read on first use) its dtype, shape and weak type; a Python or NumPy
scalar, a string, ``None``, a dtype or a type naming one (a Python scalar type or a NumPy
scalar type): itself (a float or a NumPy scalar by its
bits, so ``-0.0`` and each NaN are their own), ``Ellipsis``; a slice: its bounds'; a tuple
or list: its items'. Anything
else (NumPy arrays, callables, user subclasses, host-dtype arrays, a tuple or list of more
than :data:`MAX_ITEMS` items) has none. Which array arguments are one object is part of the
signature too (a ufunc's Python float and int operands may also stand for any value:
:class:`_ScalarGeneric`). Each function keeps at most
:data:`MAX_SIGNATURES` signatures, and after :data:`MISSES_IN_A_ROW` new ones in a row it
takes the full path for the next :data:`SKIP_CALLS` calls before it looks again; the caches are dropped when an option that changes
tracing (``xnp.config``) changes. The ``eager_dispatch_cache`` option (environment
``XNP_EAGER_DISPATCH_CACHE=0``) turns the cache off; it is off where the C storage of arrays
is not built (value reads cannot be seen there).
"""

from __future__ import annotations

import functools
import math
import os
import struct
import threading
import warnings

import numpy as np

from xnp import config
from xnp.numpy_api.ufunc import ufunc as _ufunc
from xnp.numpy_api import dtypes as _dtypes
from xnp.tracing import core, program, recording
from xnp.tracing.fp_warnings import at_user_line
from xnp.numpy_api._fp_out import names_fp_errors
from xnp.tracing.core import Array

try:  # the hit path and the key in C (xnp/_native/replay.c)
    from xnp._native import _replay as _native
except ImportError:  # pragma: no cover  (not built: the same in Python below)
    _native = None

__all__ = ["cached", "clear", "check_replays", "MAX_SIGNATURES", "MAX_ITEMS", "stats"]

#: signatures kept per function; later signatures take the full path
MAX_SIGNATURES = 64
#: items of a tuple or list argument beyond which a call has no signature
MAX_ITEMS = 64
#: after this many new signatures in a row (a loop over ever-new scalar values or shapes),
#: a function skips the cache for :data:`SKIP_CALLS` calls, so recording costs little
MISSES_IN_A_ROW = 8
SKIP_CALLS = 256

_ON = [False]
_GENERATION = [0]  # bumped by clear(): a recording begun before it is not stored
#: ``XNP_EAGER_DISPATCH_CHECK=1`` or :func:`check_replays`: every replay, and every call
#: that was recorded (its nested calls ran their full paths, not their fast paths), is
#: compared with the full path on the same arguments (:func:`_compare`), which raises
#: ``AssertionError`` where they differ (a test mode: such calls run twice; the test suite
#: runs in it)
_CHECK = [os.environ.get("XNP_EAGER_DISPATCH_CHECK", "").strip() == "1"]
_CACHES: list = []  # every function's cache, cleared together
_COUNTERS: list = []  # and its counters of new signatures in a row


class _Refused:
    """A signature whose call cannot be replayed, and why (``Recording.failed``)."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why

#: the Python types that name a dtype; any other class (a callable of fromfunction, say,
#: whose behaviour may change) gives its call no signature
_DTYPE_TYPES = frozenset((bool, int, float, complex, str, bytes, object))
_pack_d = struct.Struct("<d").pack
_pack_dd = struct.Struct("<dd").pack
if _native is not None:
    # (xnp's scalar types, which live as long as the process, are keyed by address: their
    # metaclass's __hash__ and __eq__ are Python functions)
    _native.configure(Array, program.Program, MAX_ITEMS, _DTYPE_TYPES, _dtypes.SCALAR_TYPES)


def _refresh(_value=None) -> None:
    _ON[0] = recording.AVAILABLE and config.get("eager_dispatch_cache")
    clear()


def check_replays(on: bool) -> None:
    """Turn the check mode on or off (see ``_CHECK``)."""
    _CHECK[0] = bool(on)


def clear(_value=None) -> None:
    """Forget every recorded program (each signature records again on its next call)."""
    _GENERATION[0] += 1
    for c in _CACHES:
        c.clear()
    for m in _COUNTERS:
        m[0] = m[1] = 0


def stats(fn) -> dict:
    """``{"programs": n, "refused": [why, ...]}``: how many signatures of public function
    ``fn`` replay, and why each of the others takes the full path (for tests and
    diagnostics)."""
    if isinstance(fn, _ufunc):  # a ufunc object: its call
        fn = type(fn).__call__
    cache = getattr(fn, "_replay_cache", None)
    while cache is None and hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
        cache = getattr(fn, "_replay_cache", None)
    if cache is None:
        return {"programs": 0, "refused": []}
    entries = list(cache.values()) + list((getattr(fn, "_replay_scalars", None) or {}).values())
    refused = [p.why for p in entries if type(p) is _Refused]
    return {"programs": len(entries) - len(refused), "refused": refused}


class _NoSignature(Exception):
    pass


def _jit_output(a, leaves):
    """The signature of a jit output (C-contiguous host memory, read or not yet)."""
    aval = a._aval if a._aval is not None else a._dev.aval
    if aval is None:
        raise _NoSignature
    leaves.append(a)
    return aval.dtype, aval.shape, "jit output", a._weak


def _part(a, leaves):
    t = type(a)
    if t is Array:
        if a._dev is not None:
            return _jit_output(a, leaves)
        v = a._v
        if v is None:
            raise _NoSignature
        leaves.append(a)
        return v.dtype, v.shape, v.strides, a._weak
    if t is int or t is bool or t is str or a is None:
        return t, a
    if t is float:
        return t, _pack_d(a)
    if t is tuple or t is list:
        if len(a) > MAX_ITEMS:  # a long list of values: no cache entry of its size
            raise _NoSignature
        return t, tuple([_part(x, leaves) for x in a])
    if isinstance(a, np.dtype) or (isinstance(a, type) and (
            a in _DTYPE_TYPES or issubclass(a, np.generic))):
        return t, a  # a dtype (each dtype has its own class), a type that names one
    if isinstance(a, _ufunc):  # the ufunc of its methods (reduce, outer, ...): one object each
        return _ufunc, id(a)
    if t is complex:
        return t, _pack_dd(a.real, a.imag)
    if t is slice:  # (an index: its bounds)
        return t, tuple([_part(p, leaves) for p in (a.start, a.stop, a.step)])
    if a is Ellipsis:
        return t, None
    if isinstance(a, np.generic):
        return t, a.dtype, a.tobytes()
    raise _NoSignature


def _signature(args, kwargs, leaves):
    """The cache key of a call (module docstring), or None: it has no signature."""
    if _native is not None:
        return _native.signature(args, kwargs, leaves, _part, _NoSignature)
    return _py_signature(args, kwargs, leaves)


def _py_signature(args, kwargs, leaves):
    """:func:`_signature` in Python (what ``signature`` of xnp/_native/replay.c computes)."""
    key = []
    try:
        for a in args:
            if type(a) is Array and a._dev is None:  # the common argument, inline
                v = a._v
                if v is None:
                    return None
                leaves.append(a)
                key.append((v.dtype, v.shape, v.strides, a._weak))
            else:
                key.append(_part(a, leaves))
        if kwargs:
            key += [(k, _part(v, leaves)) for k, v in kwargs.items()]
    except _NoSignature:
        return None
    n = len(leaves)
    if n > 1 and (leaves[0] is leaves[1] if n == 2 else len(set(map(id, leaves))) != n):
        first: dict = {}  # an array passed twice: which arguments are the same object
        key.append(tuple([first.setdefault(id(x), i) for i, x in enumerate(leaves)]))
    return tuple(key)


def _compare(name: str, rep, ref, leaves) -> None:
    """Check mode: the replayed result ``rep`` is what the full path gave, ``ref``."""
    where = f"xnp eager dispatch cache: {name}: replay differs from the full path"
    assert type(rep) is type(ref), f"{where}: {type(rep)} vs {type(ref)}"
    if isinstance(ref, (tuple, list)):
        assert len(rep) == len(ref), where
        for r, f in zip(rep, ref):
            _compare(name, r, f, leaves)
    elif type(ref) is Array:
        a, b = rep._v, ref._v
        assert (a.dtype, a.shape, rep._weak) == (b.dtype, b.shape, ref._weak), (
            f"{where}: {(a.dtype, a.shape, rep._weak)} vs {(b.dtype, b.shape, ref._weak)}")
        assert a.tobytes() == b.tobytes(), f"{where}: values"  # bit for bit
        assert (a.flags.writeable, a.flags.c_contiguous, a.flags.f_contiguous) == (
            b.flags.writeable, b.flags.c_contiguous, b.flags.f_contiguous), f"{where}: flags"
        assert [rep is x for x in leaves] == [ref is x for x in leaves], f"{where}: identity"
        assert [np.shares_memory(a, x._v) for x in leaves] == [
            np.shares_memory(b, x._v) for x in leaves], f"{where}: shared memory"
    elif isinstance(ref, np.generic):
        assert rep.dtype == ref.dtype and rep.tobytes() == ref.tobytes(), where
    else:
        assert rep == ref or (rep != rep and ref != ref), where  # (NaN is NaN)


def _compare_error(full, args, kwargs, error: Exception) -> None:
    """Check mode: the full path raises what the replay raised."""
    try:
        full(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (compared below)
        assert type(e) is type(error) and str(e) == str(error), (
            f"xnp eager dispatch cache: {full.__qualname__}: the replay raised "
            f"{type(error).__name__}({error}), the full path {type(e).__name__}({e})")
        return
    raise AssertionError(f"xnp eager dispatch cache: {full.__qualname__}: the replay raised "
                         f"{type(error).__name__}({error}), the full path did not")


#: check mode, per thread: ``before``, the input arrays a replay is about to write into
#: with copies of their values (:func:`_check_before`), taken by the check after it
_WRITTEN = threading.local()


def _check_before(program, leaves) -> None:
    """Check mode, before a replay: keep copies of the values of the inputs ``program``
    writes into (``Program.writes``), so that the full path can run from them again."""
    writes = getattr(program, "writes", ())
    _WRITTEN.before = [(leaves[i], leaves[i]._v.copy()) for i in writes] or None


def _rerun_full(full, args, kwargs, before, run):
    """Check mode: ``run()`` (the full path) on the inputs' values from before the replay or
    recording that wrote into them (``before``: ``[(array, value)]``); then the written
    arrays' values must be the replay's, bit for bit. Returns ``run()``'s result."""
    if not before:
        return run()
    after = [a._v.copy() for a, _ in before]
    for a, value in before:
        a._v[...] = value
    try:
        return run()
    finally:
        for (a, _), want in zip(before, after):
            assert a._v.tobytes() == want.tobytes(), (
                f"xnp eager dispatch cache: {full.__qualname__}: the replay wrote other "
                "values into an argument than the full path")


def _silenced(full, args, kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return full(*args, **kwargs)


def _check_hit(full, out, args, kwargs, leaves) -> None:
    """Check mode, a replay: its result is the full path's (run with its warnings and
    floating-point errors silenced: the replay had those effects already), and so are the
    values it wrote into its inputs."""
    before, _WRITTEN.before = getattr(_WRITTEN, "before", None), None
    want = _rerun_full(full, args, kwargs, before, lambda: _silenced(full, args, kwargs))
    _compare(full.__qualname__, out, want, leaves)


def _check_error(full, args, kwargs, error: Exception):
    """Check mode, a replay that raised ``error``: the full path raises the same (and
    writes the same values into its inputs first); then ``error`` propagates."""
    before, _WRITTEN.before = getattr(_WRITTEN, "before", None), None
    _rerun_full(full, args, kwargs, before,
                lambda: _compare_error(full, args, kwargs, error))
    raise error


def cached(full, guard=None, scalars: int = 0, exact: frozenset = frozenset(), learn=None):
    """``full`` (a function's full path) with the eager dispatch cache (module
    docstring). ``guard(fn)``: a wrapper around every call that is not a replay (the
    full path, and the recording of a new signature), such as the host-dtype fallback of
    ``xnp.host_dispatch``; a replay, which only ever ran on arrays of XLA's dtypes, needs
    none, and skips its frame. ``scalars``: ``full`` is the call of a ufunc of that many
    inputs (or an operator), whose Python float and int operands are NumPy's weak scalars
    (:class:`_ScalarGeneric`), except the values in ``exact``, which ``full`` computes
    otherwise (``x ** 2`` squares): those keep their exact keys (a value equal to one of
    them, ``2.0``, too). ``learn(args, kwargs, leaves, program)`` is told each program
    recorded (``fastpath.learner``: the eager fast path learns its kernels from them); a
    call for which ``learn.wants(args)`` is recorded even while the cache skips
    recordings or is full (the program then not kept)."""
    cache: dict = {}
    _CACHES.append(cache)
    generic = _ScalarGeneric(full, scalars, exact) if scalars else None
    on, state, base, busy, scopes = _ON, core._STATE, core._BASE_TRACE, core._TRACING_THREADS, \
        core._SCOPES_ON
    misses = [0, 0]  # new signatures in a row; calls left to skip (racy counts: harmless)
    _COUNTERS.append(misses)

    @functools.wraps(full)
    def call(*args, **kwargs):
        if (busy and state.trace is not base) or scopes[0]:
            return full(*args, **kwargs)
        teach = learn is not None and learn.wants(args, kwargs)
        if not on[0]:
            return (at_user_line(full, *args, **kwargs) if not teach else
                    _teach(full, args, kwargs, learn))
        if misses[1] and not teach:
            misses[1] -= 1
            return at_user_line(full, *args, **kwargs)
        leaves: list = []
        key = _signature(args, kwargs, leaves)
        if key is None:
            return at_user_line(full, *args, **kwargs)
        program = cache.get(key)
        if program is None and generic is not None and not kwargs:
            # (a call the fast path learns from is recorded: the generic program only notes it)
            out = generic.call(args, leaves, run=not teach)
            if out is not _MISS:
                misses[0] = 0
                return out
        if program is not None:
            misses[0] = 0
            if program.__class__ is _Refused:
                return at_user_line(full, *args, **kwargs)
            if teach:  # (a program recorded before the kernels were last forgotten)
                learn(args, kwargs, leaves, program)
            if _CHECK[0]:
                _check_before(program, leaves)
            try:
                out = program.run(leaves)
            except Exception as e:  # the full path runs the same implementations: the same
                if _CHECK[0]:  # error, after the same warnings and errstate callbacks
                    _check_error(full, args, kwargs, e)
                raise
            if _CHECK[0]:
                _check_hit(full, out, args, kwargs, leaves)
            return out
        store = len(cache) < MAX_SIGNATURES
        if not store and not teach:
            return at_user_line(full, *args, **kwargs)
        misses[0] += 1
        if misses[0] > MISSES_IN_A_ROW and not teach:
            misses[1] = SKIP_CALLS
            return at_user_line(full, *args, **kwargs)
        generation = _GENERATION[0]
        before = [(a, a._v.copy()) for a in leaves if a._v is not None] if _CHECK[0] else ()
        out, program, why = recording.record(full, args, kwargs, leaves)
        if _CHECK[0] and program is not None:  # (its nested calls ran their full paths;
            # its warnings and floating-point errors happened with the call: silenced)
            written = [before_of for before_of in before
                       if any(before_of[0] is leaves[i] for i in program.writes)]
            again = _rerun_full(full, args, kwargs, written,
                                lambda: _silenced(full, args, kwargs))
            _compare(f"{full.__qualname__} (recorded call)", out, again, leaves)
        # (neither a program nor a reason: a floating-point error stopped the recording,
        # which may depend on values; the signature records again on its next call)
        if generation == _GENERATION[0] and (program is not None or why is not None):
            if store:
                cache[key] = _Refused(why) if program is None else program
            if learn is not None and program is not None:
                learn(args, kwargs, leaves, program)
        return out

    @functools.wraps(full)
    def unrecorded(*args, **kwargs):  # (a refused signature's call, from C)
        return at_user_line(full, *args, **kwargs)

    slow, plain = (call, unrecorded) if guard is None else (guard(call), guard(unrecorded))
    if _native is None:
        slow._replay_cache = cache
        slow._replay_scalars = None if generic is None else generic.programs
        return slow
    fast = _native.Replay(slow, plain, cache, _Refused, (
        _ON, _CHECK, misses, scopes, busy, state, base, _part, _NoSignature, _check_hit,
        _check_error, _check_before), generic=None if generic is None else generic.programs,
        exact=None if generic is None or not exact else exact)
    functools.update_wrapper(fast, full)
    fast._replay_cache = cache  # (in its __dict__: wrappers made with functools.wraps copy it)
    fast._replay_scalars = None if generic is None else generic.programs
    named = getattr(full, "fp_errors_named", None)
    # (its replays' errors named too: the same renaming around the cached function)
    return fast if named is None else names_fp_errors(*named)(fast)


_MISS = object()


def _teach(full, args, kwargs, learn):
    """``full(*args, **kwargs)`` recorded only for the fast path to learn from
    (``learn``), while the dispatch cache is off: the program is not kept."""
    leaves: list = []
    if not recording.AVAILABLE or _signature(args, kwargs, leaves) is None:
        return at_user_line(full, *args, **kwargs)
    out, program, _ = recording.record(full, args, kwargs, leaves)
    if program is None:
        learn.mark(args, kwargs)
    else:
        learn(args, kwargs, leaves, program)
    return out


class _ScalarGeneric:
    """One program for every value of a ufunc call's Python float and int operands.

    A Python float or int beside arrays is NumPy's weak scalar (NEP 50): a ufunc computes
    the same as with a weak 0-d float64 (int64) array of its value (an eager input). The
    call's key with each such scalar standing for any value of its type (0.0 or 0 in the
    key) gets the program recorded with those arrays in their place, so a loop over
    ever-new values replays instead of recording each value (and then taking the full
    path). The program is learnt at the second value of a key: the call itself runs as
    usual (its own key recorded); the recording with arrays runs after it with NumPy's
    floating-point errors ignored (no warning is issued twice; the settings of a replay
    are the caller's), and its result must equal the call's bit for bit (dtype, weak type,
    layout), else the key keeps the exact path. A recording that reads the value of such an
    array (a check in Python, a result shape) is no program, so a learnt program computes
    every value as the arrays' values. Only where the scalar is used exactly as its 0-d
    array (:func:`_learnable`), and for an int only within int64's range."""

    __slots__ = ("full", "programs", "nin", "seen", "exact")

    def __init__(self, full, nin: int, exact: frozenset = frozenset()):
        # {the key of the arguments with each Python float 0.0 and int 0: its program or
        # _Refused}, looked up by the C hit path too (xnp/_native/replay.c,
        # ``generic_program``)
        self.full, self.programs, self.nin, self.seen = full, {}, nin, set()
        self.exact = exact  # (values that keep their exact keys: see ``cached``)
        _CACHES.append(self.programs)

    def call(self, args, leaves, run: bool = True):
        """The call's result by the generic program, or :data:`_MISS` (also for a call with
        a positional ``out``: learning runs the call twice). ``run=False``: only note the
        key as seen (the call is recorded by its exact key), and return :data:`_MISS`."""
        if not leaves or len(args) > self.nin:
            return _MISS
        plain = list(args)
        positions = []
        for i, a in enumerate(args):
            t = type(a)
            if (t is float or t is int) and a in self.exact:
                return _MISS
            if t is float:
                plain[i] = _float_class(a)
            elif t is int:
                if not _INT64_MIN <= a <= _INT64_MAX:
                    return _MISS
                plain[i] = _int_class(a)
            else:
                continue
            positions.append(i)
        if not positions:
            return _MISS
        arrays: list = []
        key = _signature(tuple(plain), {}, arrays)
        if key is None:
            return _MISS
        program = self.programs.get(key)
        if program is None:  # (the caches are cleared when these options change)
            if not _learnable(arrays, [args[i] for i in positions]):
                return _MISS
            if key not in self.seen:  # (the first value: its own key is recorded)
                if len(self.seen) >= MAX_SIGNATURES:
                    self.seen.clear()
                self.seen.add(key)
                return _MISS
            if not run:
                return _MISS
            self.seen.discard(key)
            generation = _GENERATION[0]
            out = at_user_line(self.full, *args)
            if len(self.programs) < MAX_SIGNATURES:  # (as many as the exact keys)
                learnt = self._learn(args, positions, arrays, out)
                if generation == _GENERATION[0]:  # (not learnt under options since changed)
                    self.programs[key] = learnt
            return out
        if program.__class__ is _Refused or not run:
            return _MISS
        scalars = [_weak_array(args[i]) for i in positions]
        if _CHECK[0]:
            out = program.run(arrays + scalars)
            _check_hit(self.full, out, args, {}, arrays)
            return out
        return program.run(arrays + scalars)

    def _learn(self, args, positions, arrays, out):
        """The generic program of ``args`` (whose call gave ``out``), or why there is none."""
        weak = list(args)
        scalars = []
        for i in positions:
            weak[i] = a = _weak_array(args[i])
            scalars.append(a)
        try:
            with np.errstate(all="ignore"):
                got, program, why = recording.record(self.full, tuple(weak), {},
                                                     arrays + scalars)
        except Exception:  # noqa: BLE001  (the call itself did not raise: no program)
            return _Refused("scalars as arrays: raised")
        if program is None:
            return _Refused(why or "scalars as arrays: not recorded")
        if program.writes:
            return _Refused("scalars as arrays: wrote into an argument")
        try:
            _compare("", got, out, arrays)
        except AssertionError:
            return _Refused("scalars as arrays: another result than with the scalars")
        return program


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_F16_TINY, _F16_MAX = float(np.finfo(np.float16).tiny), float(np.finfo(np.float16).max)
_F32_TINY, _F32_MAX = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)


def _float_class(v: float) -> float:
    """The stand-in of the Python float ``v`` in a generic key: 0.0 for zero, the
    infinities and magnitudes within float16's normal range, 1.0 within float32's, else
    2.0, NaNs too (what ``float_class`` of xnp/_native/replay.c computes). Beside a narrow
    float array a float of a class it converts into without overflow, underflow or any
    other signal (a signalling NaN's) is used as its float64 array: :func:`_learnable`."""
    m = abs(v)
    if m != m:
        return 2.0
    if m == 0.0 or m == math.inf or _F16_TINY <= m <= _F16_MAX:
        return 0.0
    return 1.0 if _F32_TINY <= m <= _F32_MAX else 2.0


def _int_class(v: int) -> int:
    """The stand-in of the Python int ``v`` (in int64's range) in a generic key: 0 for 0 to
    127 (in every integer dtype's range, exact in float16), 1 for -128 to -1 (in every
    signed one's), 2 within +-2**53 (exact in float64: NumPy's conversion into float32 is
    then the cast's), else 3 (what ``int_class`` of xnp/_native/replay.c computes)."""
    if 0 <= v <= 127:
        return 0
    if -128 <= v < 0:
        return 1
    return 2 if -(2**53) <= v <= 2**53 else 3


def _weak_array(v) -> Array:
    """The weak 0-d input standing for the Python float or int ``v`` (what the C hit path
    makes too)."""
    return Array(np.array(v, np.float64 if type(v) is float else np.int64), True)


_F64, _I64 = np.dtype(np.float64), np.dtype(np.int64)
#: array dtypes beside which a Python float is used as the float64 it is: a ufunc
#: computes in float64 or complex128 (or tests its truth), so a float64 input stands for it
#: exactly.
_WIDE = frozenset(np.dtype(t) for t in (np.float64, np.complex128, np.bool_, np.int8,
                                        np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                        np.uint32, np.uint64))
#: by a float's class (:func:`_float_class`), the array dtypes beside which it is used as
#: its float64 array. Beside a narrower float NumPy converts the Python float itself,
#: rounded once as the cast of a float64 array is, but without the cast's overflow or
#: underflow signal: only floats of a class that converts without either (and not
#: beside ml_dtypes' floats, whose conversions NumPy makes otherwise).
_FLOAT_WIDE = {0.0: _WIDE | {np.dtype(t) for t in (np.float32, np.complex64, np.float16)},
               1.0: _WIDE | {np.dtype(t) for t in (np.float32, np.complex64)},
               2.0: _WIDE}
#: by an int's class (:func:`_int_class`), the array dtypes beside which it is used as its
#: int64 array: int64 itself, bool (the default int), float64 and complex128 (an int64
#: converts to them rounded to nearest, as a Python int does); the integer dtypes whose
#: range holds every int of the class (elsewhere NumPy raises ``OverflowError``, where a
#: cast would wrap); float32 and complex64 while NumPy's conversion through a float64 is
#: exact, float16 while it is exact and finite.
_SIGNED = {np.dtype(t) for t in (np.int8, np.int16, np.int32)}
_NARROW = {np.dtype(t) for t in (np.float32, np.complex64)}
_INT_WIDE = {3: frozenset(np.dtype(t) for t in (np.float64, np.complex128, np.bool_, np.int64))}
_INT_WIDE[2] = _INT_WIDE[3] | _NARROW
_INT_WIDE[1] = _INT_WIDE[2] | _SIGNED | {np.dtype(np.float16)}
_INT_WIDE[0] = _INT_WIDE[1] | {np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)}


def _learnable(arrays, values) -> bool:
    """Whether a generic program may be learnt for a call on ``arrays`` with the Python
    scalars ``values``: every array of a dtype beside which each is used as its 0-d array
    (:data:`_FLOAT_WIDE`, :data:`_INT_WIDE` with an int), the default float float64 and int
    int64, and the eager backend NumPy's (the XLA eager backend flushes subnormals and
    issues no floating-point warnings)."""
    wide = _WIDE | _INT_WIDE[0]
    for v in values:
        wide = wide & (_INT_WIDE[_int_class(v)] if type(v) is int else
                       _FLOAT_WIDE[_float_class(v)])
    return (core.aval_of(0.0).dtype == _F64 and core.aval_of(0).dtype == _I64
            and all(a.dtype in wide for a in arrays)
            and getattr(core.eager_backend(), "computes_with_numpy", False))


config.watch("eager_dispatch_cache", _refresh)
for _name, _ in config.snapshot():  # the options that change what a call computes
    config.watch(_name, clear)
_refresh()
