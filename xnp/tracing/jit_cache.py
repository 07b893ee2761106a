"""The per-function cache of ``xnp.jit``: one dict from a call's key to its :class:`Entry`.

A key is ``(structure, statics, config token, *avals)``:

- ``structure``: for positional arguments that are all leaves and no keyword
  arguments, their number; otherwise ``(args, kwargs)`` encoded by :func:`structure`
  when every node is a tuple, list, dict or None, or else the arguments' ``PyTreeDef``.
- ``statics``: ``((position or name, Static(value)), ...)``, compared by type and value.
- the config token: one small int per distinct ``config.snapshot()``.
- the flat leaves' avals (``ShapedArray``, weak types included).

The cached-call paths compute the key without flattening the arguments
(:func:`signature` reads each leaf's aval: an ``Array``'s cached one, one interned
aval per Python scalar type and per NumPy (shape, dtype)); the general path computes
the same key from ``tree_flatten`` and ``arg_aval``, so a call finds its entry
whichever path computed the key. :class:`JitCache` also keeps the thread-safety
bookkeeping (pending traces, least-recently-used eviction, ``trace_count``) and the
last hit (``hot``, the check of ``jit_hot``), which lets a repeated call skip hashing.

An entry's executable lives only as long as the backend's executable cache keeps it
(``executable_cache_size``): the entry holds it through an :class:`ExecutableHold`,
which the executable cache releases when it evicts the executable; the entry then
drops its executable and runners (and stops being the last hit) and compiles again,
or loads the executable again, on its next call. Its trace stays.
"""

from __future__ import annotations

import itertools
import threading
import weakref

import numpy as np

from xnp import config
from xnp.tracing import core

__all__ = ["Entry", "ExecutableHold", "JitCache", "PendingTrace", "NotPlain", "structure", "signature",
           "keying", "KEYING", "NO_HOT", "MISS", "TRACING", "tick"]

_ARRAY = core.Array
_NDARRAY = np.ndarray
_SCALAR_TYPES = (int, float, complex, bool)
_NODES = (tuple, list, dict)

# a strictly increasing use stamp (itertools.count is atomic under the GIL)
tick = itertools.count().__next__


class Entry:
    """One traced (and, once called eagerly, compiled) signature of a jitted function.

    ``closed``: the ClosedJaxpr; ``out_tree``: the output treedef; ``mutated``: which flat
    arguments the function updates in place (their new values are the extra outputs after
    the first ``n_out``); ``in_tree``: the arguments' treedef; ``compiled``: the backend's
    executable (None until the first eager call; set under ``compile_lock``); ``run``: the
    cached-call runner on the flat arguments, set after ``compiled``; ``used``: the use
    stamp for eviction; ``int_bounds``: ``{flat position: (lo, hi)}``, the values a
    Python int argument may take on the cached-call paths (``python_ints.int_checks``);
    ``hold``: the :class:`ExecutableHold` that keeps ``compiled`` (None while there is
    none).
    """

    __slots__ = ("closed", "out_tree", "mutated", "any_mutated", "n_out", "in_tree", "compiled",
                 "compile_lock", "run", "int_bounds", "used", "hold", "read_late", "arg_names",
                 "__weakref__")

    def __init__(self, closed, out_tree, mutated, n_out, in_tree, read_late=(), arg_names=None):
        self.closed = closed
        self.arg_names = arg_names  # the flat arguments' names (parameter and pytree path)
        # the constants (host values of closed-over arrays) the function reads after its
        # first in-place write: an argument update that shares their memory is refused
        # (``jit_aot.check_no_aliasing``)
        self.read_late = read_late
        self.out_tree = out_tree
        self.mutated = mutated
        self.any_mutated = any(mutated)
        self.n_out = n_out
        self.in_tree = in_tree  # matches in_shardings to leaves; rebuilds the arguments
        self.compiled = None
        self.compile_lock = threading.Lock()  # held while lowering and compiling this entry
        self.run = None  # leaves -> the call's result (outputs rebuilt, updates written back)
        self.int_bounds = {}
        self.used = tick()
        self.hold = None


class ExecutableHold:
    """How the executable cache reaches an :class:`Entry` that runs one of its
    executables (the holder protocol of ``compile_cache.hold``), by weak reference: a
    dropped jitted function or entry is not kept alive by it.

    ``recently_used()``: whether the entry was called since the last time it was asked
    (its use stamp, or being its function's last hit); ``release()``: the entry drops
    its executable and runners, so they are freed, and compiles again on its next call.
    """

    __slots__ = ("_entry", "_cache", "_asked")

    def __init__(self, entry: Entry, cache: "JitCache"):
        self._entry = weakref.ref(entry)
        self._cache = weakref.ref(cache)
        self._asked = tick()

    def alive(self) -> bool:
        e = self._entry()
        return e is not None and e.hold is self

    def recently_used(self) -> bool:
        e, c = self._entry(), self._cache()
        if e is None or e.hold is not self:
            return False
        used = e.used > self._asked or (c is not None and c.hot[2] is e)
        self._asked = tick()
        return used

    def release(self) -> None:
        e = self._entry()
        if e is None or e.hold is not self:
            return
        e.hold = None
        e.run = None
        e.compiled = None
        c = self._cache()
        if c is not None and c.hot[2] is e:
            c.hot = NO_HOT


# (config snapshot object, the last-hit check of ``hot_check``, entry)
NO_HOT = (object(), None, None)
MISS = object()  # a last-hit check's answer for a call that does not match it

class PendingTrace:
    """A cache key being traced by thread ``owner``; waiters block on ``done``."""

    __slots__ = ("owner", "done")

    def __init__(self):
        self.owner = threading.get_ident()
        self.done = threading.Event()


class _Tracing(threading.local):
    """How many cache keys (of any jitted function) the calling thread is tracing now."""

    def __init__(self):
        self.count = 0


TRACING = _Tracing()


class JitCache(dict):
    """Key -> :class:`Entry` for one jitted function, at most ``jit_cache_size`` entries.

    The dict itself is read without a lock (``get``); it is changed, and ``pending``,
    ``trace_count`` and ``last_traced`` are, only under ``lock``, which is never held
    while tracing or compiling. ``hot`` is replaced as one tuple (``NO_HOT`` when unset).
    """

    __slots__ = ("lock", "pending", "trace_count", "last_traced", "hot", "__weakref__")

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()
        self.pending: dict = {}  # key -> PendingTrace, while a thread traces it
        self.trace_count = 0
        self.last_traced = None  # (key, in_tree) of the last trace, for log_compiles
        self.hot = NO_HOT

    def lookup(self, key, trace):
        """The entry for ``key``, traced by ``trace()`` (returning an Entry) on a miss.

        Each key is traced once: a thread asking for a key that another thread is
        tracing waits for it (and traces it itself if that trace raised); a thread that
        is tracing some key itself (it may hold up the thread it would wait for) traces
        the key again, and the first finished trace is kept.
        """
        lock = self.lock
        while True:
            with lock:
                entry = self.get(key)
                if entry is not None:
                    entry.used = tick()
                    return entry
                pending = self.pending.get(key)
                if pending is None:
                    pending = self.pending[key] = PendingTrace()
                    break
            if TRACING.count or pending.owner == threading.get_ident():
                entry = trace()
                with lock:
                    return self._insert(key, entry)
            pending.done.wait()  # then the entry is cached, or that trace failed: retry
        try:
            entry = trace()
            with lock:
                entry = self._insert(key, entry)
        finally:
            with lock:
                del self.pending[key]
            pending.done.set()
        return entry

    def _insert(self, key, entry) -> Entry:
        """Count the trace and cache ``entry`` under ``key``, unless a concurrent trace of
        the same key got there first: that entry is kept and returned (``lock`` held).
        Beyond ``jit_cache_size`` entries the least recently used other one is dropped
        (the last hit's entry counts as used now)."""
        self.trace_count += 1
        self.last_traced = (key, entry.in_tree)
        first = self.get(key)
        if first is not None:
            return first
        self[key] = entry
        limit = config.get("jit_cache_size")
        while len(self) > max(limit, 1):
            hot = self.hot[2]
            victim = min((k for k in self if self[k] is not entry),
                         key=lambda k: (self[k] is hot, self[k].used))
            if self.pop(victim) is hot:
                self.hot = NO_HOT
        return entry

    def clear(self):
        with self.lock:
            super().clear()
            self.last_traced = None
            self.hot = NO_HOT


class NotPlain(Exception):
    """A call the cached-call paths do not key (the general path computes its key)."""


def _encode(x, leaves, avals, state):
    t = type(x)
    if t is tuple or t is list:
        return _encode_items(x, [t], leaves, avals, state)
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            raise NotPlain from None
        return _encode_items(map(x.__getitem__, keys), [dict, tuple(keys)], leaves, avals, state)
    if x is None:
        return None
    leaves.append(x)
    if state is not None:  # as in ``signature``
        if t is _ARRAY:
            av = x._aval
            avals.append(x.aval if av is None else av)
        elif t in state[2]:
            avals.append(state[2][t])
        else:
            av = _nd_aval(x, state[3]) if t is _NDARRAY else None
            if av is None:
                raise NotPlain
            avals.append(av)
    return 0


def _encode_items(items, code, leaves, avals, state):
    """``code`` (the node's type, and its keys for a dict) extended by its children's codes."""
    for c in items:
        if type(c) is _ARRAY and state is not None:  # the most common leaf, without a call
            leaves.append(c)
            av = c._aval
            avals.append(c.aval if av is None else av)
            code.append(0)
        else:
            code.append(_encode(c, leaves, avals, state))
    return tuple(code)


def structure(args: tuple, kwargs: dict, leaves: list, avals=None, state=None):
    """The structure part of the key of dynamic ``args``/``kwargs``, appending their leaves
    (in ``tree_flatten``'s order when every node is a tuple, list, dict or None; anything
    else is taken as a leaf here). With the keying ``state``, also append each leaf's aval
    to ``avals`` as ``signature`` does. ``NotPlain``: a dict with unsortable keys, or (with
    ``state``) a leaf that is neither an Array, an ndarray nor a Python scalar."""
    if not kwargs:
        for a in args:
            if type(a) in _NODES or a is None:
                break
        else:
            leaves.extend(args)
            if state is not None and not signature(args, state, avals, None):
                raise NotPlain
            return len(args)
    return (_encode(args, leaves, avals, state), _encode(kwargs, leaves, avals, state))


def signature(leaves, keying_state, key: list, ids) -> int:
    """Append each leaf's aval to ``key`` (and to ``ids``, if not None, the identity key
    of the last-hit check: an Array's aval object, a Python scalar's type). Returns 1, or
    2 when a leaf (an ndarray) has no identity key, or 0 when a leaf is neither an Array,
    an ndarray nor a Python scalar (the general path keys the call)."""
    scalars, nd = keying_state[2], keying_state[3]
    ret = 1
    for a in leaves:
        t = type(a)
        if t is _ARRAY:
            av = a._aval
            if av is None:
                av = a.aval
            key.append(av)
            if ids is not None:
                ids.append(av)
        elif t in scalars:
            key.append(scalars[t])
            if ids is not None:
                ids.append(t)
        elif t is _NDARRAY:
            av = _nd_aval(a, nd)
            if av is None:
                return 0
            key.append(av)
            ret = 2
        else:
            return 0
    return ret


def _nd_aval(a, nd):
    """The aval of ndarray ``a``, interned in ``nd`` by (shape, dtype); None for a dtype
    that has none (the general path raises the error naming the argument)."""
    av = nd.get((a.shape, a.dtype))
    if av is None:
        try:
            av = core.aval_of(a)
        except (TypeError, ValueError):
            return None
        if len(nd) >= 1024:
            nd.clear()
        nd[(a.shape, a.dtype)] = av
    return av


_TOKENS: dict = {}  # config snapshot -> token
_TOKENS_LOCK = threading.Lock()
# (snapshot object, token, {Python scalar type: aval}, {(shape, dtype): aval} of ndarrays)
KEYING = [(object(), None, None, None)]


def keying():
    """The keying state for the current configuration (``KEYING[0]`` is the state of the
    snapshot object it names; rebuilt when that is not ``config._SNAPSHOT[0]``)."""
    snap = config.snapshot()
    state = KEYING[0]
    if state[0] is snap:
        return state
    with _TOKENS_LOCK:
        token = _TOKENS.setdefault(snap, len(_TOKENS))
    scalars = {t: core.aval_of(t(0)) for t in _SCALAR_TYPES}
    state = KEYING[0] = (snap, token, scalars, {})
    return state
