"""``xnp.jit`` and ``xnp.make_jaxpr``.

``jit(f)(*args)``: split static from dynamic arguments, key the call by (structure of
the dynamic arguments, static values compared by type and value, config, the leaves'
avals incl. weak types) and look the key up in the function's one bounded cache
(:class:`~xnp.tracing.jit_cache.JitCache`, a dict of entries); on a miss trace ``f`` to
a ``ClosedJaxpr`` and compile it with the registered jit backend (XLA). Called inside
another trace, a jitted function is staged as one ``jit`` equation holding its jaxpr.

A cached call computes its key without flattening the arguments: positional Arrays,
ndarrays and Python scalars (``_call_positional``), or pytrees of tuples, lists, dicts
and None, keyword and static arguments (``_call_tree``); both make the key the general
path (``_key``: ``tree_flatten``, ``arg_aval``) makes for the same call, so all three find
the same entries. Before any hashing, a call is checked by identity against the cache's
last hit (``JitCache.hot``: the same aval objects, scalar types, containers, keyword names
and config snapshot object, and equal static values), and device-resident arguments then
go to the executable as they are.

Threads may call one jitted function concurrently. Each cache key is traced once:
a thread asking for a key that another thread is tracing waits for that trace (and
traces it itself if that trace raised), and each entry is compiled once, under its
own lock. A thread that is itself tracing another key of some jitted function never
waits (two such threads could wait for each other): it traces the key again, and the
first finished trace is kept. The cache's bookkeeping (eviction of the least recently
used entry beyond ``jit_cache_size``, ``trace_count``) changes under a per-function lock
that is never held while tracing or compiling. The cached-call paths only read the
dict; an entry's runners are set once, after its executable; the last hit is replaced
as one tuple; and a call's entry is returned to the caller, not left on the function
object for another thread to pick up.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from xnp import _default_dtypes
from xnp import config
from xnp.tracing import core, errors, jaxpr_transforms, jit_sharding, python_ints, rebound
from xnp.tracing.jaxpr import ClosedJaxpr, eval_jaxpr
from xnp.tracing.jit_aot import CallSignature, Traced, out_structs, write_back, write_back_any
from xnp.tracing.jit_args import (Static, arg_aval, check_donate_call, resolve_donate,
                                  resolve_static)
from xnp.tracing.jit_cache import (KEYING, MISS, NO_HOT, Entry, ExecutableHold, JitCache,
                                   NotPlain, keying, signature, structure, tick)
from xnp.tracing.jit_cache import TRACING as _TRACING
from xnp.tracing.jit_hot import guard_check, positional_guard, tree_guard
from xnp.tracing.partial_eval import debug_info_for, signature_arg_names, trace_to_jaxpr
from xnp.tracing.state import is_ref_aval
from xnp.tracing.pytree import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten

__all__ = ["jit", "make_jaxpr", "jit_p", "register_jit_backend", "Traced"]

_JIT_BACKEND: list = [None]


def register_jit_backend(backend) -> None:
    """Set the compiler behind ``jit`` (``xnp._wiring.connect`` sets XLA's): an object
    with ``lower(closed_jaxpr, name, donated, in_shardings=None, out_shardings=None)``
    returning the backend's lowered module (``xnp.backends.xla.Lowered``: ``as_text()``,
    ``compile()``), whose ``compile()`` returns its executable
    (``xnp.backends.xla.Compiled``: ``call_flat(leaves)`` returning the flat outputs,
    ``call_single`` returning the one output, or None when there is not exactly one, and
    ``hot_caller(guard, fallback, build, int_bounds)``: the last-hit check of ``guard`` (a
    :class:`jit_hot.Guard`) and the cached call in one function of ``(args, kwargs)``,
    which passes the leaves to ``fallback`` when one holds no device value of the
    backend, or None when the backend has no such path), and ``hold(compiled, holder)``:
    whether its executable cache keeps that executable, releasing ``holder``
    (``jit_cache.ExecutableHold``) when it evicts it."""
    _JIT_BACKEND[0] = backend


def _jit_backend():
    b = _JIT_BACKEND[0]
    if b is None:
        errors.not_connected("the jit backend", "jit.register_jit_backend")()
    return b


# --------------------------------------------------------------------------- the jit primitive


def _jit_abstract_eval(*avals, jaxpr: ClosedJaxpr, name: str):
    return list(jaxpr.out_avals)


def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str):
    return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


# --------------------------------------------------------------------------- transformation rules


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


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str):
    # the linearization of cond/scan: the known part (primal outputs and residuals) is one
    # jit call on the enclosing trace and the tangent part a second, linear jit call, so
    # under grad the primal computation stays concrete and nested control flow splits itself
    from xnp.tracing import ad, linearize  # noqa: PLC0415

    in_avals = jaxpr.in_avals
    out_avals = jaxpr.out_avals
    nonzeros = [type(t) is not ad.Zero and linearize.differentiable(a)
                for t, a in zip(tangents, in_avals)]
    if not any(nonzeros):
        outs = jit_p.bind(*primals, jaxpr=jaxpr, name=name)
        return outs, [ad.Zero(ad.tangent_aval(a)) for a in out_avals]
    n_out = len(out_avals)
    lin = linearize.linearize_jaxpr(jaxpr, nonzeros, [False] * n_out)
    kouts = jit_p.bind(*lin.known_consts, *primals, jaxpr=lin.known, name=name)
    p_out, computed = kouts[:n_out], kouts[n_out:]
    t_out = []
    if any(lin.out_nz):
        residuals = lin.residuals(list(primals), computed)
        nz_t = [t for t, nz in zip(tangents, nonzeros) if nz]
        t_out = jit_p.bind(*residuals, *nz_t, jaxpr=lin.lin, name=name)
    it = iter(t_out)
    return p_out, [next(it) if nz else ad.Zero(ad.tangent_aval(a))
                   for nz, a in zip(lin.out_nz, out_avals)]


# impl runs through bind, so it works on every eager backend
jit_p = core.Primitive("jit", abstract_eval=_jit_abstract_eval, multiple_results=True,
                       impl=_jit_impl, jvp=_jit_jvp, transpose=_jit_transpose, batch=_jit_batch)


def _closure_convert(closed: ClosedJaxpr):
    from xnp.tracing.jaxpr_transforms import closure_convert  # noqa: PLC0415

    return closure_convert(closed)



# --------------------------------------------------------------------------- calls

_LEAF_TREE = tree_flatten(0)[1]
_NUMBER_TYPES = (bool, int, float, complex)


def _plain_number(x):
    """``x``, or for an instance of a subclass of a Python number type (not a NumPy
    scalar) NumPy's scalar of it, as NumPy and eager xnp take it (strong, of the default
    dtype: ``np.int64(3)`` for an ``IntEnum`` member)."""
    if type(x) in _NUMBER_TYPES or not isinstance(x, _NUMBER_TYPES) or isinstance(
            x, np.generic):
        return x
    return np.asarray(x)[()]
_ARRAY = core.Array
_STATE = core._STATE  # per thread
_TRACING_THREADS = core._TRACING_THREADS  # empty: no thread transforms anything
_EVAL_TRACE = core.EvalTrace
_SNAPSHOT = config._SNAPSHOT

try:  # the last-hit test of a call in C (xnp/_native/array_base.c)
    from xnp._native._array_base import HotCall as _HotCall
    from xnp._native._array_base import configure_hot_call as _configure_hot_call
except ImportError:
    _HotCall = object


if _HotCall is not object:
    _configure_hot_call(_TRACING_THREADS, _STATE, _EVAL_TRACE, _SNAPSHOT, MISS)


class JitWrapped(_HotCall):
    """The callable returned by :func:`jit`; ``__wrapped__`` is the original function.

    A call first tests the cache's last hit (``JitCache.hot``: in C when the native
    ``HotCall`` base is built, else in ``__call__`` here), then ``_call_miss``."""

    def __init__(self, fun, static_argnums, static_argnames, donate_argnums, transformation="jit",
                 in_shardings=None, out_shardings=None):
        if not callable(fun):
            raise TypeError(f"xnp.jit: expected a callable, got {type(fun).__name__}: {fun!r}")
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._sig, self._static_nums, self._static_names, self._npos = resolve_static(
            fun, static_argnums, static_argnames)
        self._donate = resolve_donate(donate_argnums, self._npos, self._static_nums)
        self._cache = JitCache()
        self._transformation = transformation
        self._name = getattr(fun, "__name__", "fun")
        self._has_statics = bool(self._static_nums or self._static_names)
        # the positional path and its last hit: no static or donated arguments
        self._positional_ok = not self._has_statics and not self._donate
        jit_sharding.check_spec("in_shardings", in_shardings)
        jit_sharding.check_spec("out_shardings", out_shardings)
        self._shardings = (in_shardings, out_shardings)
        self._discharge_refs = True  # make_jaxpr shows the refs (False)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __reduce__(self):
        # pickled as the function and jit's options, never the cache: the receiving process
        # compiles on its first call (xnp.tracing.jit_pickle)
        from xnp.tracing.jit_pickle import reduce_jitted  # noqa: PLC0415

        options = {"static_argnums": tuple(sorted(self._static_nums)),
                   "static_argnames": tuple(sorted(self._static_names)),
                   "donate_argnums": tuple(sorted(self._donate)),
                   "in_shardings": self._shardings[0], "out_shardings": self._shardings[1]}
        return reduce_jitted(self, jit, self._fun, options)

    @property
    def trace_count(self) -> int:
        """How many times ``fun`` was traced (concurrent traces of one key each count)."""
        return self._cache.trace_count

    # -- calling
    if _HotCall is object:  # no C base: the same test in Python
        def __call__(self, *args, **kwargs):
            if not _TRACING_THREADS or type(_STATE.trace) is _EVAL_TRACE:
                # the last hit: the same argument avals (by identity: the outputs of the
                # previous call, or the same arrays again), Python scalars of the same
                # types, the same containers and static values, the same config snapshot
                snap, check, _ = self._cache.hot
                if snap is _SNAPSHOT[0]:
                    out = check(args, kwargs)
                    if out is not MISS:
                        return out
            return self._call_miss(args, kwargs)

    def _call_miss(self, args, kwargs):
        """A call that is not the cache's last hit (``HotCall`` tested it first)."""
        if not _TRACING_THREADS or type(_STATE.trace) is _EVAL_TRACE:
            if not kwargs and self._positional_ok:
                return self._call_positional(args)
            return self._call_tree(args, kwargs)
        return self._call_general(args, kwargs)

    def _call_positional(self, args):
        """Positional Arrays, ndarrays and Python scalars (no static or donated arguments,
        no transformation active): one lookup of the key ``signature`` computes; a hit on
        Arrays and scalars becomes the cache's last hit."""
        state = KEYING[0]
        if state[0] is not _SNAPSHOT[0]:
            state = keying()
        key = [len(args), (), state[1]]
        ids: list = []
        kind = signature(args, state, key, ids)
        if not kind:
            return self._call_tree(args, {})
        cache = self._cache
        entry = cache.get(tuple(key))
        run = None if entry is None else entry.run  # None also once its executable is evicted
        if run is None:
            return self._call_general(args, {})
        if kind == 1:
            last = cache.hot[2]
            if last is not entry and last is not None:
                last.used = tick()  # the last hit was used until now
            cache.hot = (state[0], _hot(entry, run, positional_guard(ids)), entry)
            if entry.run is None:  # evicted meanwhile by another thread's compile
                cache.hot = NO_HOT
        entry.used = tick()
        return run(args)

    def _call_tree(self, args, kwargs):
        """Pytree, keyword, static or donated arguments with no transformation active: the
        key from ``structure`` and ``signature``; a hit runs the entry on the leaves."""
        if self._has_statics:
            dyn_args, dyn_kwargs, statics, _ = self._split(args, kwargs)
        else:
            dyn_args, dyn_kwargs, statics = args, kwargs, ()
        state = KEYING[0]
        if state[0] is not _SNAPSHOT[0]:
            state = keying()
        leaves: list = []
        avals: list = []
        try:
            struct = structure(dyn_args, dyn_kwargs, leaves, avals, state)
        except NotPlain:
            return self._call_general(args, kwargs)
        cache = self._cache
        entry = cache.get((struct, statics, state[1], *avals))
        run = None if entry is None else entry.run
        if run is None:
            return self._call_general(args, kwargs)
        guard = tree_guard(args, kwargs, self._static_nums, self._static_names)
        if guard is not None:
            last = cache.hot[2]
            if last is not entry and last is not None:
                last.used = tick()  # the last hit was used until now
            cache.hot = (state[0], _hot(entry, run, guard), entry)
            if entry.run is None:  # evicted meanwhile by another thread's compile
                cache.hot = NO_HOT
        entry.used = tick()
        return run(leaves)

    def _call_general(self, args, kwargs):
        """Any call: the key from the flattened arguments; traced on a miss, compiled on the
        first eager call, or staged into the enclosing trace."""
        flat, tree = tree_flatten((args, kwargs))
        if core._REBOUND_ON[0]:  # arrays bound to cells are their current values
            args, kwargs = tree_unflatten(tree, [rebound.resolve(x) for x in flat])
        elif any(type(x) not in _NUMBER_TYPES and isinstance(x, _NUMBER_TYPES) and
                 not isinstance(x, np.generic) for x in flat):
            # an int/float/complex subclass (IntEnum, ...) is NumPy's scalar of it
            args, kwargs = tree_unflatten(tree, [_plain_number(x) for x in flat])
        leaves, paths, key, in_tree, statics, donate_flat = self._key(args, kwargs)
        tracers = [x for x in leaves if isinstance(x, core.Tracer)]
        for x in tracers:
            x._check_alive(f"a call of xnp.jit({self._name})")
        staged = type(core.current_trace()) is not core.EvalTrace or bool(tracers)
        entry = self._entry(key, paths, in_tree, statics)
        if staged:
            return self._bind_nested(entry, leaves, key)
        run = entry.run
        if run is None:
            run = self._compile(entry, donate_flat, (key, paths, in_tree, statics))
        return run(leaves)

    def _rekey(self, leaves, key, paths, in_tree, statics, donate_flat):
        """Run a call that reached the entry of ``key`` by its Python ints' type (the
        cached paths key every int as the default int) on the entry their values key
        (``python_ints.arg_aval``: weak uint64 beyond int64; ``OverflowError`` beyond
        uint64)."""
        avals = [arg_aval(x, p, self._name) if type(x) is int else a
                 for x, p, a in zip(leaves, paths, key[3:])]
        new_key = (*key[:3], *avals)
        if new_key == key:  # an int its dtype cannot hold (int32 with enable_x64 off)
            for x, a in zip(leaves, avals):
                if type(x) is int:
                    _default_dtypes.scalar_to_ndarray(x, a.dtype)  # eager's OverflowError
            raise AssertionError("xnp.jit: a Python int argument fits no entry")
        entry = self._entry(new_key, paths, in_tree, statics)
        run = entry.run
        if run is None:
            run = self._compile(entry, donate_flat, (new_key, paths, in_tree, statics))
        return run(leaves)

    # -- keys
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

    def _key(self, args, kwargs):
        """``(leaves, paths, key, in_tree, statics, donate_flat)`` of a call: the flat dynamic
        arguments, their names for messages, the cache key (see ``jit_cache``), the
        arguments' treedef, the static arguments and which leaves are donated."""
        if self._donate and self._npos is None:
            check_donate_call(self._donate, len(args), self._name)
        dyn_args, dyn_kwargs, statics, donated = self._split(args, kwargs)
        names = signature_arg_names(self._fun, args, kwargs)
        if names is not None:
            pos_names = [n for i, n in enumerate(names[: len(args)]) if i not in self._static_nums]
        else:
            pos_names = [f"args[{i}]" for i in range(len(args)) if i not in self._static_nums]
        path_leaves, in_tree = tree_flatten_with_path((dyn_args, dyn_kwargs))
        leaves, paths, donate_flat = [], [], []
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
        avals = [arg_aval(x, p, self._name) for x, p in zip(leaves, paths)]
        mine: list = []
        try:
            struct = structure(dyn_args, dyn_kwargs, mine)
        except NotPlain:
            struct = in_tree
        if len(mine) != len(leaves) or any(a is not b for a, b in zip(mine, leaves)):
            struct = in_tree  # a node other than a tuple, list, dict or None
        return leaves, paths, (struct, statics, keying()[1], *avals), in_tree, statics, donate_flat

    # -- tracing and compiling
    def _entry(self, key, paths, in_tree, statics) -> Entry:
        return self._cache.lookup(key, lambda: self._trace_entry(key, paths, in_tree, statics))

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
            out_leaves, flat_fun.out_tree = tree_flatten(fun(*args, **kwargs))
            return out_leaves

        return flat_fun

    def _trace_entry(self, key, paths, in_tree, statics) -> Entry:
        """Trace the function for cache key ``key`` (not inserted in the cache)."""
        avals = key[3:]
        if config.get("log_compiles"):
            print(self._explain(key, in_tree, paths), file=sys.stderr)
        flat_fun = self._rebuild_fun(in_tree, statics)
        dbg = debug_info_for(self._fun, self._transformation, paths)
        _TRACING.count += 1
        try:
            closed, mutated = trace_to_jaxpr(flat_fun, avals, dbg)
        finally:
            _TRACING.count -= 1
        read_late = _read_after_write(closed) if any(mutated) else ()
        if jaxpr_transforms.uses_refs(closed):
            closed = self._discharged(closed)
        n_out = len(closed.jaxpr.outvars) - sum(mutated)
        return Entry(closed, flat_fun.out_tree, mutated, n_out, in_tree, read_late,
                     list(paths))

    def _discharged(self, closed):
        """``closed`` with its refs discharged (:func:`jaxpr_transforms.discharge_state`);
        ``TypeError`` for a ref the function closes over or returns."""
        for v, c in zip(closed.jaxpr.constvars, closed.consts):
            if is_ref_aval(v.aval):
                raise TypeError(
                    f"xnp.{self._transformation}: {self._name} closes over a ref "
                    f"({v.aval}) made outside it; pass ref_get(ref) as an argument and write "
                    "the result back after the call.")
        for v in closed.jaxpr.outvars:
            if is_ref_aval(v.aval):
                raise TypeError(f"xnp.{self._transformation}: {self._name} returns a ref "
                                f"({v.aval}); return ref_get(ref) instead.")
        return jaxpr_transforms.discharge_state(closed) if self._discharge_refs else closed

    def _explain(self, key, in_tree, paths) -> str:
        """Why ``key`` is traced, compared with the last key traced (by any thread)."""
        struct, statics, cfg, *avals = key
        head = f"xnp: compiling {self._name} for ({errors.avals_str(avals)})"
        last = self._cache.last_traced
        if last is None:
            return head + ": first call"
        (l_struct, l_statics, l_cfg, *l_avals), l_tree = last
        reasons = []
        if l_struct != struct:
            reasons.append(f"argument structure changed: {l_tree} -> {in_tree}")
        elif l_avals != avals:
            for p, a, b in zip(paths, l_avals, avals):
                if a != b:
                    reasons.append(f"argument {p} changed from {a} to {b}")
        if l_statics != statics:
            old = dict(l_statics)
            for k, st in statics:
                if k not in old or old[k] != st:
                    prev = old[k].value if k in old else None
                    reasons.append(f"static argument {k} changed from {prev!r} to {st.value!r}")
        if l_cfg != cfg:
            reasons.append("configuration changed")
        return head + ": retrace because " + "; ".join(reasons or ["cache entry was evicted"])

    def _compile(self, entry, donate_flat, where):
        """``entry``'s executable, lowered and compiled once (concurrent callers wait), and
        its runners; returns ``entry.run``. ``where``: ``(key, paths, in_tree, statics)``
        of the call; the runner checks its Python int arguments against the entry's
        conversions (``python_ints.guard``)."""
        with entry.compile_lock:
            run = entry.run
            if run is None:
                # an argument the function updates in place keeps its buffer: the update is
                # written back into it after the call (donating it would leave nothing to
                # write)
                donate = tuple(d and not m for d, m in zip(donate_flat, entry.mutated))
                backend = _jit_backend()
                entry.compiled = backend.lower(entry.closed, self._name, donate,
                                               **self._sharding_kwargs(entry)).compile()
                checks = python_ints.int_checks(entry.closed, where[0][3:])
                entry.int_bounds = {p: (lo, hi) for p, lo, hi, _, _ in checks}
                run = entry.run = python_ints.guard(
                    _runner(entry), checks, lambda leaves: self._rekey(leaves, *where, donate_flat))
                hold = entry.hold = ExecutableHold(entry, self._cache)
                if not backend.hold(entry.compiled, hold):
                    hold.release()  # not kept by the executable cache: this call only
        return run

    def _sharding_kwargs(self, entry) -> dict:
        """``in_shardings``/``out_shardings`` matched to ``entry``'s flat arguments and
        results, for the backend's ``lower`` (empty without shardings)."""
        return jit_sharding.lower_kwargs(*self._shardings, entry, entry.in_tree, self._name)

    def _bind_nested(self, entry, leaves, key):
        """Stage one ``jit`` equation. The arguments the function updates in place are its
        extra outputs (as in the eager call's write-back): each is written as ``x[...] = v``
        writes it (a traced or bound argument's cell, with NumPy's aliasing; an eager one
        in place when the value is constant under grad/vmap, else a ``ForeignWriteError``
        unless the running grad/vmap function made it)."""
        if any(type(x) is int for x in leaves):  # concrete: checked now, as a call would be
            avals = key[3:]
            python_ints.check_values(python_ints.int_checks(entry.closed, avals), leaves)
            leaves = [python_ints.nested_leaf(x, a) for x, a in zip(leaves, avals)]
        jaxpr, consts = _closure_convert(entry.closed)
        outs = jit_p.bind(*consts, *leaves, jaxpr=jaxpr, name=self._name)
        if entry.any_mutated:
            write_back_any(leaves, entry.mutated, outs[entry.n_out:])
        return tree_unflatten(entry.out_tree, outs[: entry.n_out])


    def trace(self, *args, **kwargs) -> "Traced":
        """Trace for these arguments (cached, as a call is): a :class:`Traced`."""
        leaves, paths, key, in_tree, statics, donate_flat = self._key(args, kwargs)
        entry = self._entry(key, paths, in_tree, statics)
        signature = CallSignature(entry, self._name, paths, key[3:], self._static_nums,
                                  self._static_names, len(args))
        # an argument updated in place is written back after the call: not donated
        donate = tuple(d and not m for d, m in zip(donate_flat, entry.mutated))
        return Traced(entry, self._name, donate, _jit_backend, self._sharding_kwargs(entry),
                      signature)

    def lower(self, *args, **kwargs):
        """Lower for these arguments: the backend's lowered module (``as_text()`` is the
        StableHLO module, ``compile()`` its executable)."""
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs):
        """Output shapes and dtypes (``ShapeDtypeStruct`` pytree) without running anything."""
        return out_structs(self.trace(*args, **kwargs)._entry)

    def clear_cache(self):
        """Drop every cached entry (the next call traces again)."""
        self._cache.clear()


def _single(entry) -> bool:
    return entry.out_tree == _LEAF_TREE and entry.n_out == 1 and not entry.any_mutated


_WRITES = ("ref_swap", "ref_addupdate")


def _read_after_write(closed) -> list:
    """The constants of ``closed`` (a staged jaxpr, before discharge) that the function
    reads after its first in-place write: operands of a later equation or outputs. The
    first write is the first ``ref_swap``/``ref_addupdate``, or an equation that takes a ref
    otherwise (a loop writing one: its own operands count as read after)."""
    eqns = closed.jaxpr.eqns
    for k, e in enumerate(eqns):
        name = e.primitive.name
        if name in _WRITES:
            later = eqns[k + 1:]
            break
        if name not in ("new_ref", "ref_get") and any(
                is_ref_aval(getattr(v, "aval", None)) for v in e.invars):
            later = eqns[k:]
            break
    else:
        return []
    read = {v for e in later for v in e.invars}
    read.update(closed.jaxpr.outvars)
    return [c for v, c in zip(closed.jaxpr.constvars, closed.consts) if v in read]


def _runner(entry):
    """Run ``entry``'s executable on the flat arguments: the call's result (outputs rebuilt
    by the output treedef's builder, arguments updated in place written back)."""
    c = entry.compiled
    if _single(entry):
        return c.call_single
    call, n_out, mutated = c.call_flat, entry.n_out, entry.mutated
    build = entry.out_tree.builder()
    if entry.any_mutated:
        late, names = entry.read_late, entry.arg_names

        def run(leaves):
            outs = call(leaves)
            write_back(leaves, mutated, outs[n_out:], closed_over=late, names=names)
            return build(outs[:n_out])

        return run
    return lambda leaves: build(call(leaves))


def _hot(entry, run, guard):
    """The last-hit check of ``entry`` for the call layout ``guard``
    (:class:`jit_hot.Guard`): the backend's one-frame ``hot_caller`` where it has one
    (not for an entry that updates arguments in place: they are written back by
    ``run``), else the guard followed by ``run``."""
    c = entry.compiled
    if c is not None and not entry.any_mutated:
        build = None if _single(entry) else entry.out_tree.builder()
        hot = c.hot_caller(guard, run, build, entry.int_bounds)
        if hot is not None:
            return hot
    return guard_check(guard, run)


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
    wrapped._discharge_refs = False

    @functools.wraps(fun)
    def make(*args, **kwargs):
        entry = wrapped.trace(*args, **kwargs)._entry
        wrapped.clear_cache()
        if return_shape:
            return entry.closed, out_structs(entry)
        return entry.closed

    return make
