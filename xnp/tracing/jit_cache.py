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
last hit of the positional path (``hot``), which lets a repeated call skip hashing.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from xnp import config
from xnp.tracing import core

__all__ = ["Entry", "JitCache", "PendingTrace", "NotPlain", "structure", "signature",
           "keying", "KEYING", "NO_HOT", "TRACING"]

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
    executable (None until the first eager call; set under ``compile_lock``); ``run`` and
    ``run_buffers``: the cached-call runners, set after ``compiled``; ``used``: the use
    stamp for eviction.
    """

    __slots__ = ("closed", "out_tree", "mutated", "any_mutated", "n_out", "in_tree", "compiled",
                 "compile_lock", "run", "run_buffers", "used")

    def __init__(self, closed, out_tree, mutated, n_out, in_tree):
        self.closed = closed
        self.out_tree = out_tree
        self.mutated = mutated
        self.any_mutated = any(mutated)
        self.n_out = n_out
        self.in_tree = in_tree  # matches in_shardings to leaves; rebuilds the arguments
        self.compiled = None
        self.compile_lock = threading.Lock()  # held while lowering and compiling this entry
        self.run = None  # leaves -> the call's result (outputs rebuilt, updates written back)
        self.run_buffers = None  # live device buffers -> result; None: use ``run``
        self.used = tick()


# (identity keys of the arguments, config snapshot object, entry, run, run_buffers)
NO_HOT = ((), object(), None, None, None)


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

    __slots__ = ("lock", "pending", "trace_count", "last_traced", "hot")

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


def _encode(x, leaves):
    t = type(x)
    if t is tuple or t is list:
        return (t, *[_encode(c, leaves) for c in x])
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            raise NotPlain from None
        return (dict, tuple(keys), *[_encode(x[k], leaves) for k in keys])
    if x is None:
        return None
    leaves.append(x)
    return 0


def structure(args: tuple, kwargs: dict, leaves: list):
    """The structure part of the key of dynamic ``args``/``kwargs``, appending their leaves
    (in ``tree_flatten``'s order when every node is a tuple, list, dict or None; anything
    else is taken as a leaf here). ``NotPlain``: a dict with unsortable keys."""
    if not kwargs:
        for a in args:
            if type(a) in _NODES or a is None:
                break
        else:
            leaves.extend(args)
            return len(args)
    return (_encode(args, leaves), _encode(kwargs, leaves))


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
            av = nd.get((a.shape, a.dtype))
            if av is None:
                av = _nd_aval(a, nd)
                if av is None:
                    return 0
            key.append(av)
            ret = 2
        else:
            return 0
    return ret


def _nd_aval(a, nd):
    try:
        av = core.aval_of(a)
    except (TypeError, ValueError):
        return None  # the general path raises the error naming the argument
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
