"""Array introspection and function wrappers: ``shape``, ``ndim``, ``size``,
``isscalar``, ``iterable``, ``may_share_memory``, ``shares_memory``, ``errstate``
and ``vectorize``.

Shapes and sizes are static under ``jit`` (they come from the abstract value).
Memory questions are answered from the eager buffers; traced values have no
buffers (see :func:`shares_memory`). ``frompyfunc`` is not provided (object
arrays do not exist in xnp).
"""

from __future__ import annotations

import math
import re

import numpy as np

from xnp import lax
from xnp.numpy_api._scalars import scalar_result
from xnp.numpy_api._util import asarray_for, broadcast_shapes, is_xnp, normalize_axes
from xnp.numpy_api._views import memory_root
from xnp.tracing import core, errors
from xnp.tracing.avals import canonical_dtype
from xnp.tracing.recording import metadata_function
from xnp.tracing.host_arrays import to_host, wrap
from xnp.tracing.transformations import vmap

__all__ = ["shape", "ndim", "size", "isscalar", "iterable", "may_share_memory",
           "shares_memory", "errstate", "vectorize"]

#: NumPy's own ``errstate`` (a context manager / decorator). It controls NumPy's
#: floating-point warnings, so it affects eager xnp computations (which run on
#: NumPy); compiled (``jit``) code ignores it: XLA never warns.
errstate = np.errstate


def _shape_of(a) -> tuple[int, ...]:
    if is_xnp(a) or getattr(a, "_user_subclass", False):
        return tuple(core.aval_of(a).shape)
    return np.shape(a)


@metadata_function
def shape(a):
    """The shape of ``a`` as a tuple of ints (``numpy.shape``); static under ``jit``."""
    return _shape_of(a)


@metadata_function
def ndim(a):
    """The number of dimensions of ``a`` (``numpy.ndim``); static under ``jit``."""
    return len(_shape_of(a))


@metadata_function
def size(a, axis=None):
    """The number of elements of ``a``, or along ``axis`` (an int or tuple of ints)
    (``numpy.size``); a static Python int.

    Raises
    ------
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    s = _shape_of(a)
    axes = normalize_axes("size", axis, len(s))
    return math.prod([s[d] for d in axes])


@metadata_function
def isscalar(element):
    """Whether ``element`` is a scalar (Python number, NumPy scalar, str, bytes) as in
    ``numpy.isscalar``: xnp arrays, including 0-d ones and tracers, are not."""
    return bool(np.isscalar(element))


@metadata_function
def iterable(y):
    """Whether ``iter(y)`` works (``numpy.iterable``): False for 0-d arrays."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def _host(x):
    if type(x) is core.Array:
        return x._value
    return np.asarray(x)


def _root(t):
    """The traced array ``t`` is (a chain of views of), or the cell holding them."""
    return memory_root(t)


def _traced_overlap(a, b):
    if isinstance(a, core.Tracer) or isinstance(b, core.Tracer):
        return _root(a) is _root(b)
    return None


def may_share_memory(a, b, /, max_work=None):
    """Whether ``a`` and ``b`` might share memory (``numpy.may_share_memory``).

    Eager arrays: NumPy's answer on their buffers (bounds overlap). Traced values
    have no buffers: True exactly when both are the same traced array or views of
    one (their writes alias, see ``xnp.numpy_api._views``), else False.
    """
    traced = _traced_overlap(a, b)
    if traced is not None:
        return traced
    return bool(np.may_share_memory(_host(a), _host(b), max_work=max_work))


def shares_memory(a, b, /, max_work=None):
    """Whether ``a`` and ``b`` share memory (``numpy.shares_memory``; exact overlap).

    Eager arrays: NumPy's answer on their buffers. Traced values: as
    :func:`may_share_memory` (same traced array or views of one), which may
    answer True for disjoint views of one base.
    """
    traced = _traced_overlap(a, b)
    if traced is not None:
        return traced
    return bool(np.shares_memory(_host(a), _host(b), max_work=max_work))


# --------------------------------------------------------------------------- vectorize

_DIMS = r"\w+(?:\s*,\s*\w+)*"
_ARG = rf"\(\s*(?:{_DIMS})?\s*\)"
_ARGS = rf"{_ARG}(?:\s*,\s*{_ARG})*"
_SIGNATURE = rf"^\s*{_ARGS}\s*->\s*{_ARGS}\s*$"


def _parse_signature(signature: str):
    """``"(m,n),(n)->(m)"`` -> ``([('m','n'), ('n',)], [('m',)])``."""
    if not re.match(_SIGNATURE, signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = signature.split("->")

    def groups(text):
        return [tuple(d.strip() for d in g.split(",") if d.strip())
                for g in re.findall(r"\(([^)]*)\)", text)]

    return groups(ins), groups(outs)


def _otypes(otypes):
    if otypes is None:
        return None
    if isinstance(otypes, str):
        return [canonical_dtype(np.dtype(c)) for c in otypes]
    return [canonical_dtype(np.dtype(t)) for t in otypes]


_HOST_OTYPES = ["host"]  # otypes of dtypes XLA lacks: NumPy's vectorize does the call

#: what a Python branch / conversion on a traced value raises inside ``vmap``
_TRACER_ERRORS = (errors.ConcretizationTypeError, errors.TracerIntegerConversionError,
                  errors.TracerArrayConversionError, errors.NonConcreteBooleanIndexError)


def _apply(call, flat, loop, count, otypes):
    """``call`` mapped over the leading axis of ``flat`` (length ``count``) with ``vmap``.

    A ``pyfunc`` that branches on (or converts) its values cannot be traced; when every
    input is eager (no transformation is active) xnp then does what NumPy does: call it
    once per element on eager arrays and stack the results (cast to ``otypes``, else to
    the first element's dtypes, as NumPy). Under ``jit``/``vmap``/``grad`` the error is
    raised. A ``pyfunc`` that looks at its argument without raising (``str(x)``,
    ``type(x)``) traces to a wrong result, so eagerly the traced result is checked
    against one call on the first element (NumPy also calls it first, for the output
    dtypes) and the per-element loop is taken when they differ.
    """
    if not loop:
        return call(*(lax.reshape(f, core.aval_of(f).shape[1:]) for f in flat))
    eager = all(type(f) is core.Array for f in flat)
    try:
        mapped = vmap(call)(*flat)
    except _TRACER_ERRORS:
        if not eager:
            raise
    except TypeError:  # hash(), a dict lookup, ... of a traced element: NumPy's loop, eagerly
        if not eager:  # (a genuine error of pyfunc is raised again by its first call below)
            raise
    else:
        if not eager or count == 0 or _agrees(
                call(*(scalar_result(lax.index_in_dim(f, 0, keepdims=False)) for f in flat)),
                mapped):
            return mapped
    if count == 0:  # nothing to call; NumPy returns one empty array per otype
        empty = tuple(lax.broadcast_in_dim(core.lift(np.zeros((), dt)), (0,), ()) for dt in otypes)
        return empty[0] if len(empty) == 1 else empty
    # as NumPy's loop: each element a NumPy scalar (a core-dimension slice an xnp array)
    rows = [call(*(scalar_result(lax.index_in_dim(f, i, keepdims=False)) for f in flat))
            for i in range(count)]
    single = not isinstance(rows[0], tuple)
    rows = [(r,) if single else r for r in rows]
    dts = otypes if otypes is not None else [core.aval_of(o).dtype for o in rows[0]]
    stacked = tuple(
        lax.concatenate([lax.expand_dims(lax.convert_element_type(r[k], dts[k]), (0,))
                         for r in rows], 0)
        for k in range(len(rows[0])))
    return stacked[0] if single else stacked


def _agrees(first, mapped) -> bool:
    """Whether an eager call's result equals the first row of the traced results."""
    first = first if isinstance(first, tuple) else (first,)
    mapped = mapped if isinstance(mapped, tuple) else (mapped,)
    if len(first) != len(mapped):
        return False
    for a, b in zip(first, mapped):
        a, b = np.asarray(a), np.asarray(b)[0]
        if a.dtype != b.dtype or not np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"):
            return False
    return True


class vectorize:
    """Turn a function of scalars (or of core arrays, with ``signature``) into one that
    maps over broadcast arrays (``numpy.vectorize``), implemented with ``xnp.vmap``.

    Parameters
    ----------
    pyfunc : callable
        Traced once with ``vmap`` (not called per element) when it is written with
        xnp operations on its (0-d or core-shaped) array arguments. If it branches
        on (or converts) values and every input is eager, xnp falls back to NumPy's
        way: one call per element on eager arrays, results stacked (slow). Under
        ``jit``/``vmap``/``grad`` such a ``pyfunc`` raises the tracer conversion
        error. Omit it to use ``vectorize(...)`` as a decorator factory, as in NumPy.
    otypes : str or list of dtypes, optional
        Output dtypes; results are cast to them. Without ``otypes`` the dtype is
        whatever ``pyfunc`` computes for the inputs' dtypes (NumPy instead
        inspects the first element's result). Required for size-0 inputs.
    doc : str, optional
        Docstring of the wrapper (default ``pyfunc.__doc__``).
    excluded : set of int or str, optional
        Positional indices / keyword names passed to ``pyfunc`` unchanged (not
        vectorized).
    cache : bool
        Accepted; has no effect (``pyfunc`` is traced once anyway).
    signature : str, optional
        Generalized-ufunc signature such as ``"(m,n),(n)->(m)"``: the named core
        dims are passed whole; the remaining leading dims broadcast and are mapped.

    Calling returns an Array (a tuple of Arrays for several outputs) of the broadcast
    loop shape plus each output's core dims.

    Raises
    ------
    ValueError
        Size-0 inputs without ``otypes``; with ``signature``: too few dims for the
        core dims, inconsistent core dim sizes, a malformed signature or a wrong
        number of outputs.
    TypeError
        ``pyfunc`` is not callable, or the wrong number of arguments for ``signature``.
    """

    def __init__(self, pyfunc=np._NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is not np._NoValue and not callable(pyfunc):
            raise TypeError(f"xnp.vectorize: `pyfunc` must be callable, got {pyfunc!r}")
        self.pyfunc = pyfunc
        self.otypes = otypes
        try:
            self._otypes = _otypes(otypes)
        except errors.HostDtypeError:  # object/str outputs: NumPy's vectorize (eagerly)
            self._otypes = _HOST_OTYPES
        self.excluded = set() if excluded is None else set(excluded)
        self.cache = cache
        self.signature = signature
        self._sig = None if signature is None else _parse_signature(signature)
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is np._NoValue:  # decorator factory: @vectorize(otypes=...)
            (func,) = args
            return vectorize(func, self.otypes, None, self.excluded, self.cache, self.signature)
        try:
            if self._otypes is _HOST_OTYPES:
                dt = np.dtype(object)
                raise errors.HostDtypeError(errors.host_dtype_message(
                    "xnp.vectorize: `otypes`", dt), dt)
            return self._call(args, kwargs)
        except errors.HostDtypeError:
            # strings, dates, objects ... in or out: NumPy's vectorize, eagerly only
            if type(core.current_trace()) is not core.EvalTrace:
                raise
        seen: list = []
        np_fn = np.vectorize(self.pyfunc, otypes=self.otypes, doc=self.__doc__,
                             excluded=self.excluded, cache=self.cache, signature=self.signature)
        return wrap(np_fn(*to_host(args, seen), **to_host(kwargs, seen)), seen)

    def _call(self, args, kwargs):
        pos = [i for i in range(len(args)) if i not in self.excluded]
        names = [k for k in kwargs if k not in self.excluded]
        values = [asarray_for("vectorize", args[i], "args") for i in pos] + [
            asarray_for("vectorize", kwargs[k], k) for k in names]

        def call(*vals):
            full = list(args)
            for i, v in zip(pos, vals):
                full[i] = v
            kw = dict(kwargs)
            kw.update(zip(names, vals[len(pos):]))
            out = self.pyfunc(*full, **kw)
            if isinstance(out, tuple):
                return tuple(asarray_for("vectorize", o) for o in out)
            return asarray_for("vectorize", out)

        in_core = [()] * len(values) if self._sig is None else self._sig[0]
        if self._sig is not None and len(in_core) != len(values):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_core)}, "
                            f"got {len(values)}")
        return self._map(call, values, in_core)

    def _map(self, call, values, in_core):
        sizes: dict = {}
        loops = []
        for v, dims in zip(values, in_core):
            s = core.aval_of(v).shape
            if len(s) < len(dims):
                raise ValueError(f"{len(s)}-dimensional argument does not have enough dimensions "
                                 f"for all core dimensions {dims!r}")
            for name, n in zip(dims, s[len(s) - len(dims):]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError(f"inconsistent size for core dimension {name!r}: "
                                     f"{n} vs {sizes[name]}")
            loops.append(s[:len(s) - len(dims)])
        loop = broadcast_shapes("vectorize", *loops)
        count = int(np.prod(loop, dtype=np.int64))
        if count == 0 and self._otypes is None:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        flat = []
        for v, dims in zip(values, in_core):
            cshape = tuple(sizes[d] for d in dims)
            v = lax.broadcast_in_dim(v, loop + cshape, tuple(range(
                len(loop) + len(cshape) - core.aval_of(v).ndim, len(loop) + len(cshape))))
            flat.append(lax.reshape(v, (count,) + cshape))
        outs = _apply(call, flat, loop, count, self._otypes)
        single = not isinstance(outs, tuple)
        outs = (outs,) if single else outs
        out_core = [()] * len(outs) if self._sig is None else self._sig[1]
        if len(out_core) != len(outs):
            raise ValueError(f"wrong number of outputs from pyfunc: expected {len(out_core)}, "
                             f"got {len(outs)}")
        results = []
        for i, (o, dims) in enumerate(zip(outs, out_core)):
            cshape = core.aval_of(o).shape[1:] if loop else core.aval_of(o).shape
            if len(cshape) != len(dims):
                raise ValueError(f"wrong number of dimensions in output {i}: expected "
                                 f"{len(dims)} core dims {dims!r}, got shape {cshape}")
            for name, n in zip(dims, cshape):
                if sizes.setdefault(name, n) != n:
                    raise ValueError(f"inconsistent size for core dimension {name!r}: "
                                     f"{n} vs {sizes[name]}")
            o = lax.reshape(o, loop + tuple(cshape)) if loop else o
            if self._otypes is not None and core.aval_of(o).dtype != self._otypes[i]:
                o = lax.convert_element_type(o, self._otypes[i])
            results.append(o)
        return results[0] if single else tuple(results)
