"""The last-hit check of a jitted function: generated straight-line code.

A repeated call of a jitted function with the arguments of its previous call (the same
containers, dict keys and keyword names, each Array leaf with the same aval object,
each Python-scalar leaf of the same type, each static argument equal by type and
value) skips keying and hashing: ``JitCache.hot`` holds a function of ``(args,
kwargs)`` that checks the call against that layout and runs it, or returns ``MISS``.

:class:`Guard` is the check of one layout as source lines, generated once per layout
(as ``PyTreeDef.builder`` builds its rebuilder) and bound to one call's aval objects,
scalar types and static values. Two things run a guard:

- :func:`guard_check`, here: the check followed by ``run(leaves)``, the entry's
  runner (two frames).
- the jit backend's ``hot_caller(guard, fallback, build, int_bounds)``: the backend
  splices the guard's lines in front of its own straight-line code that reads each
  leaf's device buffer and runs the executable, so a cached call is one Python frame.
  The guard's lines only read ``args``/``kwargs``, bind ``l0, l1, ...`` and ``return
  MISS``; they use the names in ``Guard.names`` (bound from ``Guard.values``) and in
  ``GLOBALS``.
"""

from __future__ import annotations

from xnp.tracing import core
from xnp.tracing.jit_cache import MISS, NotPlain

__all__ = ["Guard", "GLOBALS", "guard_check", "positional_guard", "tree_guard"]

_ARRAY = core.Array
_SCALAR_TYPES = (int, float, complex, bool)
_NO_VALUE = object()  # a missing dict key or keyword argument: matches no layout
GLOBALS = {"A": _ARRAY, "MISS": MISS, "NONE": _NO_VALUE}


class Guard:
    """The last-hit check of one call layout.

    ``key``: the layout (hashable; equal layouts generate equal ``lines``); ``lines``:
    the check's body (indented for a function nested in a function); ``names`` and
    ``values``: the closure names the lines use and this call's values of them (leaf
    ``i``'s aval object or scalar type as ``k{i}``; static ``j`` as ``S{j}``, its type
    as ``T{j}``); ``leaves``: the names ``l0, l1, ...`` the lines bind, in the order of
    the flat arguments; ``kinds``: per leaf, None for an Array and the type of a Python
    scalar.
    """

    __slots__ = ("key", "lines", "names", "values", "leaves", "kinds")

    def __init__(self, key, lines, names, values, leaves, kinds):
        self.key, self.lines, self.names = key, lines, names
        self.values, self.leaves, self.kinds = values, leaves, kinds


_SOURCES: dict = {}  # layout -> (lines, names, leaves)


def positional_guard(ids) -> Guard:
    """The guard of a call with only positional leaf arguments, whose identity keys are
    ``ids`` (an Array's aval object, a Python scalar's type)."""
    layout = (tuple("p" if type(k) is type else "a" for k in ids), ())
    return _guard(layout, list(ids), [])


def tree_guard(args, kwargs, static_nums, static_names) -> Guard | None:
    """The guard of a call with pytree, keyword or static arguments; None for a call with
    a leaf that has no identity key (an ndarray, another type) or a container other
    than a tuple, list, dict or None."""
    ids: list = []
    statics: list = []
    try:
        layout = _layout(args, kwargs, static_nums, static_names, ids, statics)
    except NotPlain:
        return None
    return _guard(layout, ids, statics)


def _guard(layout, ids, statics) -> Guard:
    src = _SOURCES.get(layout)
    if src is None:
        if len(_SOURCES) >= 256:
            _SOURCES.clear()
        src = _SOURCES[layout] = _source(layout)
    lines, names, leaves = src
    values = (*ids, *statics, *map(type, statics))
    kinds = tuple(k if type(k) is type else None for k in ids)
    return Guard(layout, lines, names, values, leaves, kinds)


def _layout(args, kwargs, static_nums, static_names, ids, statics):
    """The hashable layout of a call: ``(positional layouts, ((name, layout), ...))`` with
    keyword names sorted, where a layout is ``"s"`` (a static argument), ``"a"`` (an Array
    leaf), ``"p"`` (a Python scalar leaf), ``None``, or ``(type, n)`` of a tuple or list,
    ``(dict, keys)`` of a dict, followed by its children's layouts. Appends each leaf's
    identity key to ``ids`` and each static value to ``statics``, in the order the check
    reads them."""
    def leaf(x):
        t = type(x)
        if t is _ARRAY:
            av = x._aval
            ids.append(x.aval if av is None else av)
            return "a"
        if t in _SCALAR_TYPES:
            ids.append(t)
            return "p"
        if x is None:
            return None
        if t is tuple or t is list:
            return (t, len(x), *map(leaf, x))
        if t is dict:
            try:
                keys = tuple(sorted(x))
            except TypeError:
                raise NotPlain from None
            if not all(type(k) in (str, int) for k in keys):
                raise NotPlain
            return (dict, keys, *(leaf(x[k]) for k in keys))
        raise NotPlain

    pos = []
    for i, a in enumerate(args):
        if i in static_nums:
            statics.append(a)
            pos.append("s")
        else:
            pos.append(leaf(a))
    kws = []
    for k in sorted(kwargs):
        if k in static_names:
            statics.append(kwargs[k])
            kws.append((k, "s"))
        else:
            kws.append((k, leaf(kwargs[k])))
    return tuple(pos), tuple(kws)


def _source(layout):
    """``(lines, names, leaves)`` of ``layout``'s check: straight-line code reading each
    leaf and static argument by position and key."""
    pos, kws = layout
    body: list = []
    n_leaf = [0]
    n_static = [0]
    n_tmp = [0]
    leaves: list = []
    pad = "        "

    def emit(lay, expr):
        if lay == "s":
            j = n_static[0]
            n_static[0] += 1
            body.append(f"{pad}s = {expr}")
            body.append(f"{pad}if s is not S{j} and (type(s) is not T{j} or (s == S{j}) is not True):")
            body.append(f"{pad}    return MISS")
        elif lay == "a" or lay == "p":
            i = n_leaf[0]
            n_leaf[0] += 1
            leaves.append(f"l{i}")
            body.append(f"{pad}l{i} = {expr}")
            test = f"type(l{i}) is A and l{i}._aval is k{i}" if lay == "a" else f"type(l{i}) is k{i}"
            body.append(f"{pad}if not ({test}):")
            body.append(f"{pad}    return MISS")
        elif lay is None:
            body.append(f"{pad}if {expr} is not None:")
            body.append(f"{pad}    return MISS")
        else:
            v = f"v{n_tmp[0]}"
            n_tmp[0] += 1
            kind, info, *children = lay
            tname = {tuple: "tuple", list: "list", dict: "dict"}[kind]
            count = len(info) if kind is dict else info
            body.append(f"{pad}{v} = {expr}")
            body.append(f"{pad}if type({v}) is not {tname} or len({v}) != {count}:")
            body.append(f"{pad}    return MISS")
            if kind is dict:
                for key, child in zip(info, children):
                    emit(child, f"{v}.get({key!r}, NONE)")
            else:
                for j, child in enumerate(children):
                    emit(child, f"{v}[{j}]")

    if kws:
        body.append(f"{pad}if len(args) != {len(pos)} or len(kwargs) != {len(kws)}:")
    else:
        body.append(f"{pad}if kwargs or len(args) != {len(pos)}:")
    body.append(f"{pad}    return MISS")
    if not kws and all(lay in ("a", "p") for lay in pos):  # unpack once, no indexing
        for i, lay in enumerate(pos):
            leaves.append(f"l{i}")
        n_leaf[0] = len(pos)
        if pos:
            body.append(f"{pad}({''.join(x + ', ' for x in leaves)}) = args")
            test = " and ".join(f"type(l{i}) is A and l{i}._aval is k{i}" if lay == "a"
                                else f"type(l{i}) is k{i}" for i, lay in enumerate(pos))
            body += [f"{pad}if not ({test}):", f"{pad}    return MISS"]
    else:
        for i, lay in enumerate(pos):
            emit(lay, f"args[{i}]")
        for name, lay in kws:
            emit(lay, f"kwargs.get({name!r}, NONE)")
    n, m = n_leaf[0], n_static[0]
    names = (*(f"k{i}" for i in range(n)), *(f"S{j}" for j in range(m)),
             *(f"T{j}" for j in range(m)))
    return tuple(body), names, tuple(leaves)


_CHECKS: dict = {}  # layout -> the maker of guard_check's function


def guard_check(guard: Guard, run):
    """``guard``'s check followed by ``run(leaves)`` (the leaves as a tuple): a function of
    ``(args, kwargs)`` returning the call's result, or ``MISS``."""
    make = _CHECKS.get(guard.key)
    if make is None:
        if len(_CHECKS) >= 256:
            _CHECKS.clear()
        make = _CHECKS[guard.key] = _check_maker(guard)
    return make(guard.values, run)


def _check_maker(guard: Guard):
    lines = ["def make(V, run):"]
    if guard.names:
        lines.append(f"    ({''.join(x + ', ' for x in guard.names)}) = V")
    lines += ["    def check(args, kwargs):", *guard.lines,
              f"        return run(({''.join(x + ', ' for x in guard.leaves)}))",
              "    return check"]
    names = dict(GLOBALS)
    exec("\n".join(lines), names)  # noqa: S102  (built from the layout: types, keys, names)
    return names["make"]
