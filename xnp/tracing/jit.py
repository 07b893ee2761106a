"""``xnp.jit`` and ``xnp.make_jaxpr``.

``jit(f)(*args)``: split static from dynamic arguments, flatten the dynamic
ones (pytrees) to avals, look up (tree structure, avals incl. weak types,
static values compared by type and value, config) in a bounded per-function
cache; on a miss trace ``f`` to a ``ClosedJaxpr`` and compile it with the
registered jit backend (XLA). Called inside another trace, a jitted function
is staged as one ``jit`` equation holding its jaxpr.

Threads may call one jitted function concurrently. Each cache key is traced once:
a thread asking for a key that another thread is tracing waits for that trace (and
traces it itself if that trace raised), and each entry is compiled once, under its
own lock. A thread that is itself tracing another key of some jitted function never
waits (two such threads could wait for each other): it traces the key again, and the
first finished trace is kept. The cache's bookkeeping (LRU order, eviction,
``trace_count``) changes under a per-function lock that is never held while tracing
or compiling. The fast-dispatch state is only read, set one item at a time or replaced:
the last hit (``_hot``) is one tuple, and a call's entry is returned to the caller, not
left on the function object for another thread to pick up.
"""

from __future__ import annotations

import collections
import functools
import sys
import threading

import numpy as np

from xnp import config
from xnp.tracing import core, errors
from xnp.tracing.avals import ShapeDtypeStruct, ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, eval_jaxpr
from xnp.tracing import jit_sharding
from xnp.tracing.jit_args import (Static, arg_aval, check_donate_call, resolve_donate,
                                  resolve_static)
from xnp.tracing.partial_eval import debug_info_for, signature_arg_names, trace_to_jaxpr
from xnp.tracing.pytree import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten

__all__ = ["jit", "make_jaxpr", "jit_p", "register_jit_backend", "Lowered", "Compiled", "Traced"]

_JIT_BACKEND: list = [None]


def register_jit_backend(backend) -> None:
    """Set the compiler behind ``jit``: an object with ``lower(closed_jaxpr, name, donated)``
    returning a lowered module (``as_text()``, ``compile()``) whose compiled form is
    called with the flat list of argument values and returns the flat outputs."""
    _JIT_BACKEND[0] = backend


def _jit_backend():
    b = _JIT_BACKEND[0]
    if b is None:
        raise RuntimeError("xnp: no jit backend is registered (import xnp, not xnp.tracing)")
    return b


# --------------------------------------------------------------------------- the jit primitive


def _jit_abstract_eval(*avals, jaxpr: ClosedJaxpr, name: str):
    return list(jaxpr.out_avals)


def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str):
    return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


jit_p = core.Primitive("jit", abstract_eval=_jit_abstract_eval, multiple_results=True)
jit_p.impl = _jit_impl  # runs through bind, so it works on every eager backend


def _closure_convert(closed: ClosedJaxpr):
    from xnp.tracing.jaxpr_transforms import closure_convert  # noqa: PLC0415

    return closure_convert(closed)


# --------------------------------------------------------------------------- arguments


class _Entry:
    __slots__ = ("closed", "out_tree", "mutated", "compiled", "n_out", "single", "any_mutated",
                 "compile_lock", "in_tree")

    def __init__(self, closed, out_tree, mutated, n_out):
        self.closed = closed
        self.out_tree = out_tree
        self.mutated = mutated
        self.any_mutated = any(mutated)
        self.n_out = n_out
        self.single = out_tree == _LEAF_TREE and n_out == 1 and not self.any_mutated
        self.compiled = None
        self.compile_lock = threading.Lock()  # held while lowering and compiling this entry
        self.in_tree = None  # the arguments' treedef (matches in_shardings to leaves)


class _PendingTrace:
    """A cache key being traced by thread ``owner``; waiters block on ``done``."""

    __slots__ = ("owner", "done")

    def __init__(self):
        self.owner = threading.get_ident()
        self.done = threading.Event()


class _Tracing(threading.local):
    """How many cache keys (of any jitted function) the calling thread is tracing now."""

    def __init__(self):
        self.count = 0


_TRACING = _Tracing()


_LEAF_TREE = tree_flatten(0)[1]
_SCALAR_TYPES = (int, float, complex, bool)


_ARRAY = core.Array
_STATE = core._STATE  # per thread
_TRACING_THREADS = core._TRACING_THREADS  # empty: no thread transforms anything
_EVAL_TRACE = core.EvalTrace
_SNAPSHOT = config._SNAPSHOT
_NDARRAY = np.ndarray
_NO_HOT = ((), object(), None, None)
_DONATED = core.DONATED_BUFFER
_NO_ALIAS = core.NO_ALIAS

class _NotPlain(Exception):
    """Raised by ``_tree_key`` for an argument the pytree fast path does not key."""


def _tree_key(x, leaves):
    """A hashable key of the pytree ``x`` of arguments (its structure and each leaf's
    signature, as ``_call_fast`` keys positional arguments), appending its leaves to
    ``leaves`` in ``tree_flatten``'s order. Only tuples, lists, dicts with sortable keys,
    None, Arrays, ndarrays and Python scalars are keyed; anything else raises
    ``_NotPlain`` (the call then takes the general path)."""
    t = type(x)
    if t is _ARRAY:
        leaves.append(x)
        av = x._aval
        return av if av is not None else x.aval
    if t is tuple or t is list:
        return (t, *[_tree_key(c, leaves) for c in x])
    if t in _SCALAR_TYPES:
        leaves.append(x)
        return t
    if t is _NDARRAY:
        leaves.append(x)
        return (x.shape, x.dtype)
    if x is None:
        return None
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            raise _NotPlain from None
        return (dict, tuple(keys), *[_tree_key(x[k], leaves) for k in keys])
    raise _NotPlain


def _flatten_outputs(out):
    leaves, tree = tree_flatten(out)
    return leaves, tree


class JitWrapped:
    """The callable returned by :func:`jit`; ``__wrapped__`` is the original function."""

    def __init__(self, fun, static_argnums, static_argnames, donate_argnums, transformation="jit",
                 in_shardings=None, out_shardings=None):
        if not callable(fun):
            raise TypeError(f"xnp.jit: expected a callable, got {type(fun).__name__}: {fun!r}")
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._sig, self._static_nums, self._static_names, self._npos = resolve_static(
            fun, static_argnums, static_argnames)
        self._donate = resolve_donate(donate_argnums, self._npos, self._static_nums)
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._pending: dict = {}  # key -> _PendingTrace, while a thread traces it
        self._lock = threading.Lock()  # guards _cache, _pending and trace_count
        self._last_key = None  # for the retrace explanation of log_compiles
        self._transformation = transformation
        self._name = getattr(fun, "__name__", "fun")
        self.trace_count = 0
        # fast dispatch: positional array/scalar arguments, no static or donated ones
        self._fast: dict = {}
        self._tree_fast: dict = {}  # the same for pytree/keyword arguments, by _tree_key
        self._hot = _NO_HOT  # (argument avals, config snapshot, runner) of the last fast hit
        self._fast_ok = not self._static_nums and not self._static_names and not self._donate
        jit_sharding.check_spec("in_shardings", in_shardings)
        jit_sharding.check_spec("out_shardings", out_shardings)
        self._shardings = (in_shardings, out_shardings)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    # -- argument handling
    def _split(self, args, kwargs):
        dyn_args, statics, donated = [], [], []
        for i, a in enumerate(args):
            if i in self._static_nums:
                statics.append((i, Static(a)))
            else:
                dyn_args.append(a)
                donated.append(i in self._donate)
        dyn_kwargs = {}
        for k in sorted(kwargs):
            if k in self._static_names:
                statics.append((k, Static(kwargs[k])))
            else:
                dyn_kwargs[k] = kwargs[k]
        return tuple(dyn_args), dyn_kwargs, tuple(statics), donated

    def _names_for(self, args, kwargs, dyn_args, dyn_kwargs):
        names = signature_arg_names(self._fun, args, kwargs)
        pos_names = []
        if names is not None:
            pos_names = [n for i, n in enumerate(names[: len(args)]) if i not in self._static_nums]
        else:
            pos_names = [f"args[{i}]" for i in range(len(args)) if i not in self._static_nums]
        return pos_names

    def _flat(self, args, kwargs):
        if self._donate and self._npos is None:
            check_donate_call(self._donate, len(args), self._name)
        dyn_args, dyn_kwargs, statics, donated = self._split(args, kwargs)
        pos_names = self._names_for(args, kwargs, dyn_args, dyn_kwargs)
        path_leaves, in_tree = tree_flatten_with_path((dyn_args, dyn_kwargs))
        leaves, paths = [], []
        donate_flat = []
        for path, leaf in path_leaves:
            if path[0] == "[0]":
                i = int(path[1][1:-1])
                head = pos_names[i] if i < len(pos_names) else f"args[{i}]"
                paths.append(head + keystr(path[2:]))
                donate_flat.append(donated[i])
            else:
                paths.append(path[1][2:-2] + keystr(path[2:]))
                donate_flat.append(False)
            leaves.append(leaf)
        return leaves, paths, in_tree, statics, donate_flat

    def _rebuild_fun(self, in_tree, statics):
        fun = self._fun

        def flat_fun(*leaves):
            dyn_args, dyn_kwargs = tree_unflatten(in_tree, leaves)
            args = list(dyn_args)
            kwargs = dict(dyn_kwargs)
            for key, st in statics:
                if isinstance(key, int):
                    args.insert(key, st.value)
                else:
                    kwargs[key] = st.value
            out = fun(*args, **kwargs)
            out_leaves, out_tree = _flatten_outputs(out)
            flat_fun.out_tree = out_tree
            return out_leaves

        return flat_fun

    def _stage(self, leaves, paths, in_tree, statics):
        avals = tuple(arg_aval(x, p, self._name) for x, p in zip(leaves, paths))
        key = (in_tree, avals, statics, config.snapshot())
        lock = self._lock
        while True:
            with lock:
                entry = self._cache.get(key)
                if entry is not None:
                    self._cache.move_to_end(key)
                    return entry, avals
                pending = self._pending.get(key)
                if pending is None:
                    pending = self._pending[key] = _PendingTrace()
                    break
            if _TRACING.count or pending.owner == threading.get_ident():
                # this thread is tracing (it may hold up the thread it would wait for):
                # trace the key too, without taking over the other trace's bookkeeping
                entry = self._trace_entry(key, paths, in_tree, statics, avals)
                with lock:
                    return self._insert(key, entry), avals
            pending.done.wait()  # then the entry is cached, or that trace failed: retry
        try:
            entry = self._trace_entry(key, paths, in_tree, statics, avals)
            with lock:
                entry = self._insert(key, entry)
        finally:
            with lock:
                del self._pending[key]
            pending.done.set()
        return entry, avals

    def _trace_entry(self, key, paths, in_tree, statics, avals) -> _Entry:
        """Trace the function for cache key ``key`` (not inserted in the cache)."""
        if config.get("log_compiles"):
            print(self._explain(key, paths), file=sys.stderr)
        flat_fun = self._rebuild_fun(in_tree, statics)
        dbg = debug_info_for(self._fun, self._transformation, paths)
        _TRACING.count += 1
        try:
            closed, mutated = trace_to_jaxpr(flat_fun, avals, dbg)
        finally:
            _TRACING.count -= 1
        n_out = len(closed.jaxpr.outvars) - sum(mutated)
        entry = _Entry(closed, flat_fun.out_tree, mutated, n_out)
        entry.in_tree = in_tree
        return entry

    def _insert(self, key, entry) -> _Entry:
        """Count the trace and cache ``entry`` under ``key``, unless a concurrent trace of
        the same key got there first: that entry is kept and returned (``_lock`` held)."""
        self.trace_count += 1
        self._last_key = key
        first = self._cache.get(key)
        if first is not None:
            return first
        self._cache[key] = entry
        if len(self._cache) > config.get("jit_cache_size"):
            self._cache.popitem(last=False)
        return entry

    def _explain(self, key, paths) -> str:
        """Why ``key`` is traced, compared with the last key traced (by any thread)."""
        in_tree, avals, statics, cfg = key
        head = f"xnp: compiling {self._name} for ({errors.avals_str(avals)})"
        last = self._last_key
        if last is None:
            return head + ": first call"
        reasons = []
        if last[0] != in_tree:
            reasons.append(f"argument structure changed: {last[0]} -> {in_tree}")
        elif last[1] != avals:
            for p, a, b in zip(paths, last[1], avals):
                if a != b:
                    reasons.append(f"argument {p} changed from {a} to {b}")
        if last[2] != statics:
            old = dict(last[2])
            for k, st in statics:
                if k not in old or old[k] != st:
                    prev = old[k].value if k in old else None
                    reasons.append(f"static argument {k} changed from {prev!r} to {st.value!r}")
        if last[3] != cfg:
            reasons.append("configuration changed")
        return head + ": retrace because " + "; ".join(reasons or ["cache entry was evicted"])

    # -- calling
    def __call__(self, *args, **kwargs):
        if (not _TRACING_THREADS or type(_STATE.trace) is _EVAL_TRACE) and not kwargs:
            # the hottest path: the same argument avals (by identity: the outputs of the
            # previous call, or the same arrays again), Python scalars of the same types and
            # configuration as the last hit; device-resident arguments go to the executable
            # as they are. One and two arguments are spelled out (this runs on every
            # cached call).
            avals, snap, run, run_buffers = self._hot
            if snap is _SNAPSHOT[0]:
                n = len(args)
                if n != len(avals):
                    pass
                elif n == 2:
                    a, b = args
                    ta, tb = type(a), type(b)
                    if ta is _ARRAY and tb is _ARRAY:
                        if a._aval is avals[0] and b._aval is avals[1]:
                            ba, bb = a._buf, b._buf
                            if ba is None:
                                ba = a._alias  # an eager array's cached aliasing buffer
                            if bb is None:
                                bb = b._alias
                            if (run_buffers is None or ba is None or bb is None
                                    or ba is _DONATED or bb is _DONATED
                                    or ba is _NO_ALIAS or bb is _NO_ALIAS):
                                return run(args)
                            return run_buffers([ba, bb])
                    elif ((a._aval is avals[0] if ta is _ARRAY else ta is avals[0])
                          and (b._aval is avals[1] if tb is _ARRAY else tb is avals[1])):
                        return run(args)
                elif n == 1:
                    a = args[0]
                    if type(a) is _ARRAY:
                        if a._aval is avals[0]:
                            ba = a._buf
                            if ba is None:
                                ba = a._alias  # an eager array's cached aliasing buffer
                            if (run_buffers is None or ba is None or ba is _DONATED
                                    or ba is _NO_ALIAS):
                                return run(args)
                            return run_buffers([ba])
                    elif type(a) is avals[0]:
                        return run(args)
                else:
                    bufs = []
                    for a, k in zip(args, avals):
                        if type(a) is _ARRAY:
                            if a._aval is not k:
                                break
                            b = a._buf
                            if b is None:
                                b = a._alias
                            if b is None or b is _DONATED or b is _NO_ALIAS:
                                run_buffers = None
                            bufs.append(b)
                        elif type(a) is k:
                            run_buffers = None
                        else:
                            break
                    else:
                        return run(args) if run_buffers is None else run_buffers(bufs)
            if self._fast_ok:
                return self._call_fast(args)
        return self._call_slow(args, kwargs)

    def _call_fast(self, args):
        """The cached-call path for positional arrays/scalars with no transformation active,
        keyed on the argument signature and the identity of the config snapshot."""
        # the signature: an Array's aval (hashed once, compared by shape, dtype and weak
        # type), an ndarray's (shape, dtype), a scalar's type; None for anything else
        sig = []
        for a in args:
            t = type(a)
            if t is _ARRAY:
                av = a._aval
                sig.append(av if av is not None else a.aval)
            elif t is _NDARRAY:
                sig.append((a.shape, a.dtype))
            elif t in _SCALAR_TYPES:
                sig.append(t)
            else:
                return self._call_slow(args, {})
        sig = tuple(sig)
        hit = self._fast.get(sig)
        if hit is None or hit[1] is not _SNAPSHOT[0]:
            out, entry = self._call_entry(args, {})
            if entry is None:
                return out
            if len(self._fast) >= config.get("jit_cache_size"):
                self._fast.clear()
            hit = self._fast[sig] = (self._runners(entry), config.snapshot())
        else:
            out = hit[0][0](args)
        if all(type(k) is ShapedArray or k in _SCALAR_TYPES for k in sig):
            # identity keys: each Array's aval object, each Python scalar's type
            self._hot = (tuple(a._aval if type(a) is _ARRAY else type(a) for a in args),
                         hit[1], *hit[0])
        return out

    @staticmethod
    def _runners(entry):
        """Two functions running ``entry``'s executable and returning the call's result
        (outputs unflattened, in-place updates written back): one on the flat positional
        arguments, one on their device buffers (None when arguments are updated in place)."""
        c = entry.compiled
        if entry.single:
            return c.call_single, c.call_buffers_single
        if entry.any_mutated:
            return JitWrapped._tree_runner(entry), None
        call, call_buffers = c.call_flat, c.call_buffers
        build = entry.out_tree.builder()
        return lambda args: build(call(args)), lambda bufs: build(call_buffers(bufs))

    def _call_slow(self, args, kwargs):
        """A call with pytree, keyword or static arguments (or under a transformation):
        with no transformation active, a hit in ``_tree_fast`` (keyed by ``_tree_key`` of
        the dynamic arguments, the static ones and the config snapshot) runs the entry's
        executable on the leaves directly; otherwise the general path."""
        if not _TRACING_THREADS or type(_STATE.trace) is _EVAL_TRACE:
            if self._static_nums or self._static_names:
                dyn_args, dyn_kwargs, statics, _ = self._split(args, kwargs)
            else:
                dyn_args, dyn_kwargs, statics = args, kwargs, ()
            leaves: list = []
            try:
                key = (_tree_key(dyn_args, leaves), _tree_key(dyn_kwargs, leaves), statics)
                hit = self._tree_fast.get(key)
            except (_NotPlain, TypeError):  # TypeError: an unhashable static value
                hit = key = None
            if hit is not None and hit[1] is _SNAPSHOT[0]:
                return hit[0](leaves)
            out, entry = self._call_entry(args, kwargs)
            if key is not None and entry is not None:
                if len(self._tree_fast) >= config.get("jit_cache_size"):
                    self._tree_fast.clear()
                self._tree_fast[key] = (self._tree_runner(entry), config.snapshot())
            return out
        return self._call_entry(args, kwargs)[0]

    @staticmethod
    def _tree_runner(entry):
        """Run ``entry``'s executable on flat leaves; the outputs rebuilt by the output
        treedef's builder, arguments updated in place written back."""
        call, n_out, mutated = entry.compiled.call_flat, entry.n_out, entry.mutated
        build = entry.out_tree.builder()
        if entry.any_mutated:
            def run(leaves):
                outs = call(leaves)
                _write_back(leaves, mutated, outs[n_out:])
                return build(outs[:n_out])

            return run
        return lambda leaves: build(call(leaves))

    def _call_entry(self, args, kwargs):
        """The call's result and the cache entry whose executable ran (None when the call
        was staged into an enclosing trace)."""
        leaves, paths, in_tree, statics, donate_flat = self._flat(args, kwargs)
        tracers = [x for x in leaves if isinstance(x, core.Tracer)]
        for x in tracers:
            x._check_alive(f"a call of xnp.jit({self._name})")
        staged = type(core.current_trace()) is not core.EvalTrace or bool(tracers)
        entry, _ = self._stage(leaves, paths, in_tree, statics)
        if staged:
            return self._bind_nested(entry, leaves), None
        compiled = entry.compiled
        if compiled is None:
            compiled = self._compile(entry, donate_flat)
        outs = compiled.call_flat(leaves)
        if entry.any_mutated:
            _write_back(leaves, entry.mutated, outs[entry.n_out:])
        return tree_unflatten(entry.out_tree, outs[: entry.n_out]), entry

    def _compile(self, entry, donate_flat):
        """``entry``'s executable, lowered and compiled once (concurrent callers wait)."""
        with entry.compile_lock:
            compiled = entry.compiled
            if compiled is None:
                # an argument the function updates in place keeps its buffer: the update is
                # written back into it after the call (donating it would leave nothing to
                # write)
                donate = tuple(d and not m for d, m in zip(donate_flat, entry.mutated))
                compiled = _jit_backend().lower(entry.closed, self._name, donate,
                                                **self._sharding_kwargs(entry)).compile()
                entry.compiled = compiled
        return compiled

    def _sharding_kwargs(self, entry) -> dict:
        """``in_shardings``/``out_shardings`` matched to ``entry``'s flat arguments and
        results, for the backend's ``lower`` (empty without shardings)."""
        return jit_sharding.lower_kwargs(*self._shardings, entry, entry.in_tree, self._name)

    def _bind_nested(self, entry, leaves):
        """Stage one ``jit`` equation. The arguments the function updates in place are its
        extra outputs (as in the eager call's write-back): each such traced argument is
        rebound to its new value with NumPy's aliasing (``core.write_in_place``, views
        written through); an eager one is written as ``x[...] = v`` on it would be
        (``core.check_eager_write``: a ``ForeignWriteError`` unless the value is constant
        under grad/vmap)."""
        targets = [leaf for leaf, m in zip(leaves, entry.mutated) if m]
        for leaf in targets:
            if not isinstance(leaf, core.Tracer):
                core.check_eager_write(core.aval_of(leaf), leaves)
        jaxpr, consts = _closure_convert(entry.closed)
        outs = jit_p.bind(*consts, *leaves, jaxpr=jaxpr, name=self._name)
        traced = [isinstance(leaf, core.Tracer) for leaf in leaves]
        for leaf, new in zip(targets, outs[entry.n_out:]):
            if isinstance(leaf, core.Tracer):
                core.write_in_place(leaf, new)
        if not all(t for t, m in zip(traced, entry.mutated) if m):
            _write_back(leaves, [m and not t for m, t in zip(entry.mutated, traced)],
                        [new for leaf, new in zip(targets, outs[entry.n_out:])
                         if not isinstance(leaf, core.Tracer)])
        return tree_unflatten(entry.out_tree, outs[: entry.n_out])

    def trace(self, *args, **kwargs) -> "Traced":
        """Trace for these arguments; ``.jaxpr`` is the ClosedJaxpr, ``.lower()`` lowers it."""
        leaves, paths, in_tree, statics, donate_flat = self._flat(args, kwargs)
        entry, avals = self._stage(leaves, paths, in_tree, statics)
        return Traced(entry, self._name, tuple(donate_flat), self._sharding_kwargs(entry))

    def lower(self, *args, **kwargs) -> "Lowered":
        """Lower for these arguments: ``.as_text()`` is the StableHLO module."""
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs):
        """Output shapes and dtypes (``ShapeDtypeStruct`` pytree) without running anything."""
        entry = self.trace(*args, **kwargs)._entry
        structs = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type)
                   for a in entry.closed.out_avals[: entry.n_out]]
        return tree_unflatten(entry.out_tree, structs)

    def clear_cache(self):
        with self._lock:
            self._cache.clear()
            self._last_key = None
        self._fast = {}
        self._tree_fast = {}
        self._hot = _NO_HOT


def _check_no_aliasing(leaves, mutated, names=None):
    """A mutated argument that shares memory with another argument would see a different
    update order than eager NumPy code; refuse instead of returning a different answer."""
    arrays = [(i, leaf._value if type(leaf) is core.Array else leaf) for i, leaf in
              enumerate(leaves) if type(leaf) is core.Array or isinstance(leaf, np.ndarray)]
    for i, leaf in enumerate(leaves):
        if not mutated[i]:
            continue
        mine = leaf._value if type(leaf) is core.Array else leaf
        if not isinstance(mine, np.ndarray):
            continue
        for j, other in arrays:
            if j != i and np.shares_memory(mine, other):
                raise NotImplementedError(
                    f"xnp.jit: argument {i} is updated in place and shares memory with argument "
                    f"{j} (the same array passed twice, or overlapping views); a jitted call "
                    "cannot reproduce NumPy's aliasing there. Pass a copy (a.copy()).")


def _write_back(leaves, mutated, values):
    """Write each updated argument's new value into it: all or nothing (every destination
    is checked writable before the first is written, as eager code raises at the first
    write into a read-only array before touching later ones)."""
    _check_no_aliasing(leaves, mutated)
    dsts = []
    for i, (leaf, m) in enumerate(zip(leaves, mutated)):
        if not m:
            continue
        dst = leaf._writable_value() if type(leaf) is core.Array else leaf
        if isinstance(dst, np.ndarray) and not dst.flags.writeable:
            raise ValueError(f"xnp.jit: argument {i} ({errors.aval_str(core.aval_of(leaf))}) "
                             "is updated in place but is read-only (assignment destination "
                             "is read-only); no argument was written")
        dsts.append(dst)
    for dst, new in zip(dsts, values):
        if isinstance(dst, np.ndarray):
            np.copyto(dst, np.asarray(new._value), casting="same_kind")


class Traced:
    """The result of ``jitted.trace(*args)``: the ``jaxpr`` and the output tree."""

    def __init__(self, entry, name, donated, sharding_kwargs=None):
        self._sharding_kwargs = sharding_kwargs or {}
        self._entry = entry
        self._name = name
        self._donated = donated
        self.jaxpr = entry.closed

    def lower(self) -> "Lowered":
        return _jit_backend().lower(self._entry.closed, self._name, self._donated,
                                    **self._sharding_kwargs)


# Lowered/Compiled are defined by the backend; these names document the protocol.
Lowered = object
Compiled = object


def jit(fun=None, *, static_argnums=None, static_argnames=None, donate_argnums=None,
        in_shardings=None, out_shardings=None):
    """Compile ``fun`` with XLA: trace once per call signature, run the cached executable.

    Parameters
    ----------
    fun : callable
        Takes arrays (and pytrees of arrays) and returns arrays (or pytrees).
    static_argnums : int or tuple of int, optional
        Positional arguments treated as compile-time constants (hashable; a new
        value, compared by type and value, retraces). Negative values count from
        the end. Inferred from ``static_argnames`` when only that is given.
    static_argnames : str or tuple of str, optional
        Keyword arguments treated as static; inferred from ``static_argnums``
        when only that is given.
    donate_argnums : int or tuple of int, optional
        Positional array arguments whose device buffers XLA may reuse for outputs.
        A donated xnp array is invalid afterwards.
    in_shardings : Sharding, or tuple of Sharding or None, optional
        The layout (``xnp.sharding.NamedSharding``) of the arguments on a device mesh:
        one for all, or one per dynamic positional argument (applying to all of its
        leaves; None: replicated). With shardings (here, in ``out_shardings`` or from
        ``xnp.lax.with_sharding_constraint`` inside) ``fun`` is compiled as one SPMD
        program that XLA's partitioner splits over the mesh; arguments laid out
        otherwise are re-laid out first. Results equal the single-device ones.
    out_shardings : Sharding, or tuple of Sharding or None, optional
        The layout of the results: one for all, or one per output of a tuple/list
        result; None lets XLA's partitioner choose.

    Returns
    -------
    callable
        Same signature; results are xnp arrays (0-d for scalars). ``.lower(*args)``,
        ``.trace(*args)``, ``.eval_shape(*args)`` and ``__wrapped__`` are available.

    Raises
    ------
    ValueError
        When wrapping: ``static_argnums``/``donate_argnums`` beyond the positional
        parameters, a ``static_argnames`` entry the function does not take (unless it
        takes ``**kwargs``), an argument both static and donated. When called: a static
        argument is unhashable; for a ``*args`` function, a donated position the call
        does not have.
    TypeError
        A dynamic argument is not an array, scalar or pytree of them.
    xnp.errors.ConcretizationTypeError (and subclasses)
        The function needs the value of a traced argument.
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames, donate_argnums=donate_argnums,
                                 in_shardings=in_shardings, out_shardings=out_shardings)
    return JitWrapped(fun, static_argnums, static_argnames, donate_argnums,
                      in_shardings=in_shardings, out_shardings=out_shardings)


def make_jaxpr(fun, static_argnums=(), static_argnames=None, return_shape=False):
    """A function that traces ``fun`` and returns its ``ClosedJaxpr``.

    Every xnp/lax call is recorded, including calls on constants only
    (omnistaging); NumPy computations run at trace time and appear as
    constants. With ``return_shape=True`` the function returns
    ``(closed_jaxpr, shapes)`` where ``shapes`` is a pytree of
    ``ShapeDtypeStruct`` matching ``fun``'s output.

    Raises the same errors as :func:`jit` for bad arguments.
    """
    wrapped = JitWrapped(fun, static_argnums, static_argnames, None)

    @functools.wraps(fun)
    def make(*args, **kwargs):
        entry = wrapped.trace(*args, **kwargs)._entry
        wrapped.clear_cache()
        if return_shape:
            structs = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type)
                       for a in entry.closed.out_avals[: entry.n_out]]
            return entry.closed, tree_unflatten(entry.out_tree, structs)
        return entry.closed

    return make


# --------------------------------------------------------------------------- transformation rules
# (the jvp rule is set by xnp.lax.control_flow.calls: it shares cond/scan's linearization)


def _jit_transpose(cts, *args, jaxpr: ClosedJaxpr, name: str):
    from xnp.tracing import ad  # noqa: PLC0415
    from xnp.tracing.jaxpr_transforms import transpose_linear  # noqa: PLC0415

    call = _closure_convert(jaxpr)
    cts = [ad.instantiate(c) if type(c) is ad.Zero else c for c in cts]
    res = transpose_linear(call[0].jaxpr, list(call[1]) + list(args), cts)
    return res[len(call[1]):]


def _jit_batch(vals, dims, *, jaxpr: ClosedJaxpr, name: str):
    from xnp.tracing import core as _core  # noqa: PLC0415
    from xnp.tracing.jaxpr_transforms import batch_jaxpr  # noqa: PLC0415

    size = next(_core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    bj = batch_jaxpr(jaxpr, dims, size)
    call, consts = _closure_convert(bj)
    outs = jit_p.bind(*consts, *vals, jaxpr=call, name=name)
    return outs, [0] * len(outs)


jit_p.transpose = _jit_transpose
jit_p.batch = _jit_batch
