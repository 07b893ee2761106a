"""The ahead-of-time objects of ``xnp.jit`` and the write-back of in-place updates.

``jitted.trace(*args)`` gives a :class:`Traced` (its ``jaxpr``; ``lower()`` the jit
backend's lowered module), and the lowered module's ``compile()`` is called through a
:class:`CallSignature`: the arguments it was lowered for, checked against their
structure, shapes and dtypes. :func:`write_back` writes the new values of arguments a
jitted function updates in place into them, for a call of the jitted function and of
its compiled executable alike; :func:`out_structs` is ``eval_shape``'s answer.
"""

from __future__ import annotations

import numpy as np

from xnp.tracing import core, errors, python_ints
from xnp.tracing.avals import ShapeDtypeStruct
from xnp.tracing.jit_args import arg_aval
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["Traced", "CallSignature", "out_structs", "write_back", "write_back_any",
           "check_no_aliasing"]


def out_structs(entry):
    """The ``ShapeDtypeStruct`` pytree of ``entry``'s outputs."""
    structs = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type)
               for a in entry.closed.out_avals[: entry.n_out]]
    return tree_unflatten(entry.out_tree, structs)


def _which(names, *flat) -> str:
    """The sentence naming flat arguments ``flat`` by parameter name and pytree path
    (``names``: one per flat argument, or a function giving them, called only here), or ""
    without names."""
    if callable(names):
        names = names()
    if not names:
        return ""
    return " A" + ", ".join(f"argument {i} is {names[i]}" for i in flat)[1:] + "."


def check_no_aliasing(leaves, mutated, names=None, fname: str = "jit", closed_over=()):
    """A mutated argument that shares memory with another argument, or with an array the
    function closes over (``closed_over``: the host values of its constants), would see a
    different update order than eager NumPy code (there a read of the other array after
    the write sees it); refuse instead of returning a different answer. ``fname``: the
    transformation the message names (``jit``, ``grad``, ``vmap``, ...); ``names``: the
    flat arguments' names (parameter name and pytree path) for the message."""
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
                    f"xnp.{fname}: argument {i} is updated in place and shares memory with "
                    f"argument {j} (the same array passed twice, or overlapping views); a "
                    f"{fname} call cannot reproduce NumPy's aliasing there. Pass a copy "
                    f"(a.copy()).{_which(names, i, j)}")
        for other in closed_over:
            if type(other) is core.Array:
                other = other._value
            if isinstance(other, np.ndarray) and np.may_share_memory(mine, other) and (
                    np.shares_memory(mine, other)):
                raise NotImplementedError(
                    f"xnp.{fname}: argument {i} ({errors.aval_str(core.aval_of(leaf))}) is "
                    "updated in place and shares memory with an array the function closes "
                    "over (a global or a closure, e.g. a view of the argument) and reads "
                    f"after its first in-place write; a {fname} call reads that array's values "
                    "from before the call, where NumPy could see the write. Read the array "
                    "from the argument inside the function (x[1:] instead of a view made "
                    f"outside), or pass a copy of the argument (x.copy()).{_which(names, i)}")


def write_back(leaves, mutated, values, fname: str = "jit", closed_over=(), names=None):
    """Write each updated argument's new value into it: all or nothing (every destination
    is checked writable before the first is written, as eager code raises at the first
    write into a read-only array before touching later ones). ``closed_over``: see
    :func:`check_no_aliasing`."""
    check_no_aliasing(leaves, mutated, names, fname, closed_over)
    dsts = []
    for i, (leaf, m) in enumerate(zip(leaves, mutated)):
        if not m:
            continue
        dst = leaf._writable_value() if type(leaf) is core.Array else leaf
        if isinstance(dst, np.ndarray) and not dst.flags.writeable:
            raise ValueError(f"xnp.{fname}: argument {i} ({errors.aval_str(core.aval_of(leaf))}) "
                             "is updated in place but is read-only (assignment destination "
                             f"is read-only); no argument was written.{_which(names, i)}")
        dsts.append(dst)
    for dst, new in zip(dsts, values):
        if isinstance(dst, np.ndarray):
            np.copyto(dst, np.asarray(new._value), casting="same_kind")


def write_back_any(leaves, mutated, news, fname: str = "jit", names=None) -> None:
    """Write the new values ``news`` of the arguments ``leaves`` marked in ``mutated`` (a
    function that updated them in place ran on their stand-ins: a nested jitted call, or the
    function of grad/vjp/jvp/vmap). A traced or bound argument, or one whose new value is
    traced, is written as ``x[...] = v`` writes it (a cell write of the running trace,
    NumPy's rules); an eager argument with a constant value by :func:`write_back`, whose
    errors name the arguments by ``names`` (see :func:`_which`)."""
    targets = [leaf for leaf, m in zip(leaves, mutated) if m]
    plain = [not isinstance(x, core.Tracer) and not isinstance(v, core.Tracer)
             for x, v in zip(targets, news)]  # an eager argument, a constant value
    for leaf, new, p in zip(targets, news, plain):
        if not p:
            leaf[...] = new  # the array's own write (xnp.numpy_api: cells, NumPy's rules)
    if any(plain):
        it = iter(plain)
        write_back(leaves, [m and next(it) for m in mutated],
                   [v for v, p in zip(news, plain) if p], fname, names=names)


class Traced:
    """The result of ``jitted.trace(*args)``: ``jaxpr`` (the ``ClosedJaxpr``) and
    ``lower()``, the backend's lowered module for it (``xnp.backends.xla.Lowered``, whose
    ``compile()`` gives ``xnp.backends.xla.Compiled``; see :func:`register_jit_backend`)."""

    def __init__(self, entry, name, donated, backend, sharding_kwargs=None, signature=None):
        self._backend = backend  # a function giving the registered jit backend
        self._sharding_kwargs = sharding_kwargs or {}
        self._entry = entry
        self._name = name
        self._donated = donated
        self._signature = signature
        self.jaxpr = entry.closed

    def lower(self):
        lowered = self._backend().lower(self._entry.closed, self._name, self._donated,
                                        **self._sharding_kwargs)
        lowered.signature = self._signature  # how its compiled executable is called
        return lowered


class CallSignature:
    """How ``jitted.lower(*args).compile()`` is called: with the arguments of the jitted
    function less its static ones (as JAX's ``Compiled``), as pytrees of the structure,
    shapes and dtypes it was lowered for; outputs rebuilt and in-place updates written
    back as a call of the jitted function does."""

    def __init__(self, entry, name, paths, avals, static_nums, static_names, n_pos):
        self._entry = entry
        self._name = name
        self._paths = paths
        self._avals = avals
        self._n_dyn = n_pos - len([i for i in static_nums if i < n_pos])
        self._static_names = frozenset(static_names)
        self._int_checks = python_ints.int_checks(entry.closed, avals)

    def _error(self, what) -> TypeError:
        return TypeError(f"xnp.jit({self._name}).lower(...).compile() called with {what}; "
                         "call the compiled function with the arguments it was lowered for "
                         "(static arguments left out), or call the jitted function itself")

    def flatten(self, args, kwargs) -> list:
        """The flat leaves of a call, checked against the lowered signature: ``TypeError``
        naming the argument and the expected and given shape and dtype, or the structure."""
        statics = sorted(k for k in kwargs if k in self._static_names)
        if statics:
            raise self._error(f"static argument {statics[0]!r} (static arguments are part of "
                              "the compiled function, not arguments of it)")
        if len(args) != self._n_dyn:
            raise self._error(f"{len(args)} positional argument(s); it takes {self._n_dyn}")
        leaves, tree = tree_flatten((tuple(args), dict(kwargs)))
        if tree != self._entry.in_tree:
            raise self._error(f"arguments of structure {tree}; it was lowered for "
                              f"{self._entry.in_tree}")
        for x, path, want in zip(leaves, self._paths, self._avals):
            got = arg_aval(x, path, self._name)
            if got.shape != want.shape or got.dtype != want.dtype:
                raise self._error(
                    f"argument {path} of shape {got.shape} and dtype {np.dtype(got.dtype).name}"
                    f"; it was lowered for shape {want.shape} and dtype "
                    f"{np.dtype(want.dtype).name}")
        if self._int_checks and not python_ints.check_values(self._int_checks, leaves):
            raise self._error("a Python int beyond the integer type it was lowered for")
        return leaves

    def call(self, compiled, args, kwargs):
        """Run ``compiled`` (the backend's executable of this signature's trace) on a call's
        arguments: the function's result."""
        leaves = self.flatten(args, kwargs)
        entry = self._entry
        outs = compiled.call_flat(leaves)
        if entry.any_mutated:
            write_back(leaves, entry.mutated, outs[entry.n_out:],
                       closed_over=entry.read_late, names=entry.arg_names)
        return tree_unflatten(entry.out_tree, outs[: entry.n_out])
