"""NumPy's dispatch protocols on eager xnp arrays: ``__array_ufunc__`` and ``__array_function__``.

With these, a NumPy call on an eager ``xnp.Array`` (``np.sin(x)``, ``np.add(x, y,
out=z)``, ``np.add.at(x, i, 1)``, ``np.concatenate([x, y])``, ``np.linalg.norm(x)``)
runs xnp's function of the same name and returns an xnp array, so libraries written
against NumPy keep xnp arrays (NEP 13 and NEP 18):

* a ufunc call ``ufunc.method(*inputs, **kwargs)`` runs ``getattr(xnp, ufunc.__name__)``
  for ``__call__`` and that function's attribute ``method`` for ``reduce``,
  ``accumulate``, ``reduceat``, ``outer`` and ``at``;
* an array function ``numpy.<sub>.<name>`` runs ``xnp.<sub>.<name>`` (``numpy.linalg.norm``
  -> ``xnp.linalg.norm``) when xnp's function accepts every parameter NumPy's has.

What xnp lacks (no such function or ufunc method, an incompatible signature, or xnp
raising ``NotImplementedError`` for the arguments) runs NumPy's own implementation
on the host data instead: xnp arrays anywhere in the arguments (nested in lists,
tuples and dicts) become NumPy arrays, NumPy's results become xnp arrays again and
``out=`` and ``ufunc.at`` write into the xnp arrays given, in place. The first such
call of each function warns with :class:`xnp.exceptions.NumpyFallbackWarning`.

NumPy arrays mixed with xnp arrays give xnp arrays; a NumPy array passed as ``out=``
is written in place and returned, as NumPy does. Types neither xnp nor NumPy arrays
that implement the protocols themselves get ``NotImplemented`` (NumPy then asks them).

Tracers do not take part (the traced values are not NumPy data): a NumPy call with
a tracer among its arguments raises ``xnp.errors.TracerArrayConversionError``, as
``numpy.asarray(tracer)`` does. A NumPy call on eager arrays while a transformation
traces (``jit``, ``grad``, ``vmap``) computes eagerly and returns a constant, as it
did on NumPy arrays: NumPy calls stay static, xnp calls are staged.

The ``xnp`` namespace is passed in by :mod:`xnp.array` (this module does not import it).
"""

from __future__ import annotations

import inspect
import operator as _operator
import warnings

import numpy as np

from xnp.exceptions import NumpyFallbackWarning
from xnp.tracing import core

__all__ = ["array_ufunc", "array_function", "reset_fallback_warnings"]

_Array = core.Array
_Tracer = core.Tracer
_ndarray = np.ndarray
_NDARRAY_UFUNC = np.ndarray.__array_ufunc__
_NDARRAY_FUNCTION = np.ndarray.__array_function__
_UFUNC_METHODS = ("__call__", "reduce", "accumulate", "reduceat", "outer", "at")

#: names of the NumPy functions whose fallback has warned (once each)
_WARNED: set = set()
#: (numpy function, xnp function) -> whether xnp's accepts every parameter of NumPy's
_COMPATIBLE: dict = {}


def reset_fallback_warnings() -> None:
    """Forget which fallbacks have warned, so each warns again on its next call."""
    _WARNED.clear()


# --------------------------------------------------------------------------- helpers


def _find_tracer(obj):
    """The first tracer in ``obj`` (nested lists, tuples and dict values), or None."""
    if isinstance(obj, _Tracer):
        return obj
    if isinstance(obj, (list, tuple)):
        for v in obj:
            t = _find_tracer(v)
            if t is not None:
                return t
    elif isinstance(obj, dict):
        for v in obj.values():
            t = _find_tracer(v)
            if t is not None:
                return t
    return None


def _reject_tracers(args, kwargs) -> None:
    """NumPy on a traced value raises ``TracerArrayConversionError`` (its ``__array__``)."""
    t = _find_tracer(args)
    if t is None:
        t = _find_tracer(kwargs)
    if t is not None:
        t.__array__()  # raises, naming the tracer and where it was created


_PLAIN_TYPES = frozenset({_Array, _ndarray, int, float, complex, bool})


def _plain(inputs) -> bool:
    """Every operand is an eager xnp array, a NumPy array or scalar, or a Python scalar."""
    for x in inputs:
        if type(x) not in _PLAIN_TYPES and not isinstance(x, np.generic):
            return False
    return True


def binary_operator(method):
    """``method`` (an eager array's binary operator) as NumPy's operators treat an operand
    of another kind: ``NotImplemented`` for one that overrides NumPy's ufuncs
    (``__array_ufunc__`` of another array type, or ``None``), so Python asks its
    reflected operator (``xnp_array + dask_array`` is Dask's lazy array, not a computed
    one); and for a NumPy ``ndarray`` subclass (``numpy.ma.MaskedArray``,
    ``numpy.matrix``), NumPy's own operator with this array's data as an ``ndarray``, so
    the result is the one NumPy gives for a NumPy array (a masked array, a matrix
    product), whichever side the subclass is on (subclasses whose ``__array_priority__``
    is above ndarray's; others, such as ``memmap``, are data like an ndarray)."""
    known = _KNOWN_OPERANDS
    name = method.__name__
    forward = _FORWARD.get(name)  # a reflected operator: the other operand's forward one
    # Python's own dispatch on (ndarray, subclass) gives NumPy's answer, the subclass's
    # reflected operator first where it overrides it (ndarray * matrix is a matrix product)
    python_op = _PYTHON_OPS[forward or name]

    def operator(self, o):
        t = type(o)
        if t not in known:
            if _defers_to(o):
                return NotImplemented
            if t is not _ndarray and issubclass(t, _ndarray) and _claims_priority(t):
                return python_op(o, self._value) if forward else python_op(self._value, o)
        return method(self, o)

    operator.__name__ = operator.__qualname__ = name
    operator.__doc__ = method.__doc__
    return operator


_KNOWN_OPERANDS = frozenset([int, float, complex, bool, np.ndarray, list, tuple])
# reflected operator -> the forward operator it stands in for (``__rmul__`` -> ``__mul__``)
_FORWARD = {f"__r{op}__": f"__{op}__" for op in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "divmod", "pow", "matmul", "and", "or",
    "xor", "lshift", "rshift")}


_PYTHON_OPS = {f"__{op.rstrip('_')}__": getattr(_operator, op) for op in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor",
    "lshift", "rshift", "lt", "le", "eq", "ne", "gt", "ge")}
_PYTHON_OPS["__divmod__"] = divmod


def _defers_to(obj) -> bool:
    t = type(obj)
    if issubclass(t, (_Array, np.generic)):
        return False
    impl = getattr(t, "__array_ufunc__", _NDARRAY_UFUNC)
    return impl is None or impl is not _NDARRAY_UFUNC


def _claims_priority(t) -> bool:
    """An ndarray subclass whose ``__array_priority__`` is above ndarray's (masked arrays
    15, matrix 10; memmap's is -100): NumPy lets its semantics win in mixed operations."""
    prio = getattr(t, "__array_priority__", 0.0)
    return isinstance(prio, (int, float)) and prio > 0.0


def _numpy_subclass(t) -> bool:
    """``t`` is a subclass of NumPy's ``ndarray`` (``numpy.ma.MaskedArray``, ``matrix``, a
    user's subclass), not ``ndarray`` itself."""
    return t is not _ndarray and issubclass(t, _ndarray)


def _foreign_ufunc(obj) -> bool:
    """``obj`` implements ``__array_ufunc__`` and is neither an xnp nor a NumPy array."""
    t = type(obj)
    if t is _Array or issubclass(t, _Array):
        return False
    impl = getattr(t, "__array_ufunc__", None)
    return impl is not None and impl is not _NDARRAY_UFUNC


def _to_numpy(obj, writable: bool = False):
    """``obj`` with every eager xnp array (nested in lists, tuples, dict values) replaced by
    its NumPy array; ``writable`` for arrays NumPy writes into (a jit output is copied)."""
    if type(obj) is _Array:
        return obj._writable_value() if writable else obj._value
    if isinstance(obj, list):
        return [_to_numpy(v, writable) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_to_numpy(v, writable) for v in obj)
    if isinstance(obj, dict):
        return {k: _to_numpy(v, writable) for k, v in obj.items()}
    return obj


def _wrappable(dt: np.dtype) -> bool:
    return dt.kind in "biufc" or dt.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def _from_numpy(obj, written: dict):
    """NumPy results as xnp values: arrays of xnp's dtypes become eager xnp arrays (NumPy
    scalars stay NumPy's, as xnp's own functions return them); an array NumPy wrote in
    place (``id`` in ``written``) is the object the caller passed."""
    if isinstance(obj, _ndarray):
        orig = written.get(id(obj))
        if orig is not None:
            return orig
        return _Array(obj) if type(obj) is _ndarray and _wrappable(obj.dtype) else obj
    if isinstance(obj, tuple):
        return type(obj)(*[_from_numpy(v, written) for v in obj]) if hasattr(
            obj, "_fields") else tuple(_from_numpy(v, written) for v in obj)
    if isinstance(obj, list):
        return [_from_numpy(v, written) for v in obj]
    return obj


def _as_xnp_out(out):
    """An ``out`` entry xnp can write: a NumPy array becomes an eager xnp array sharing
    its memory (the caller gets the NumPy array back)."""
    if type(out) is _ndarray:
        return _Array(out)
    return out


def _restore_out(res, outs, wrapped):
    """Replace the xnp wrappers of NumPy ``out`` arrays in ``res`` by those arrays."""
    by_id = {id(w): o for w, o in zip(wrapped, outs) if w is not o}
    if not by_id:
        return res
    if isinstance(res, tuple):
        return tuple(by_id.get(id(r), r) for r in res)
    return by_id.get(id(res), res)


class _Eagerly:
    """Context: computations run eagerly even while a transformation traces the caller
    (a NumPy call on constants is a constant, not a staged operation)."""

    __slots__ = ("ctx",)

    def __enter__(self):
        if type(core.current_trace()) is core.EvalTrace:
            self.ctx = None
        else:
            self.ctx = core.set_current_trace(core.EvalTrace())
            self.ctx.__enter__()
        return self

    def __exit__(self, *exc):
        if self.ctx is not None:
            self.ctx.__exit__(*exc)
        return False


def _warn(what: str, why: str) -> None:
    if what in _WARNED:
        return
    _WARNED.add(what)
    warnings.warn(
        f"xnp: {what} {why}; it ran NumPy's implementation on the arrays' host data "
        "(the results are xnp arrays). This warning is shown once per function.",
        NumpyFallbackWarning, stacklevel=5)


# --------------------------------------------------------------------------- __array_ufunc__


def array_ufunc(xnp, ufunc, method: str, inputs: tuple, kwargs: dict):
    """``Array.__array_ufunc__``: ``ufunc.method(*inputs, **kwargs)`` by xnp (module docstring).

    Returns xnp arrays (the ``out`` arrays given, when ``out=`` is used; None for ``at``),
    or ``NotImplemented`` when an operand of another array type handles the protocol.

    Raises
    ------
    xnp.errors.TracerArrayConversionError
        A tracer is among the operands or outputs.
    """
    if method == "__call__" and not kwargs and _plain(inputs) and (
            type(core.current_trace()) is core.EvalTrace):  # the common case, in one pass
        fn = getattr(xnp, ufunc.__name__, None)
        if fn is not None and fn is not ufunc and callable(fn):
            try:
                return fn(*inputs)
            except NotImplementedError as e:
                return _ufunc_fallback(ufunc, method, inputs, kwargs, f"numpy.{ufunc.__name__}",
                                       f"is not implemented by xnp for these arguments ({e})")
    out = kwargs.get("out")
    for x in inputs:
        if _foreign_ufunc(x):
            return NotImplemented
    if any(_numpy_subclass(type(x)) for x in inputs) and out is None:
        # a masked array or matrix operand: NumPy's semantics for its own subclass
        _reject_tracers(inputs, kwargs)
        return _from_numpy(getattr(ufunc, method)(*_to_numpy(inputs), **_to_numpy(kwargs)), {})
    if out is not None:
        for o in out:
            if o is not None and _foreign_ufunc(o):
                return NotImplemented
    _reject_tracers(inputs, kwargs)
    name = ufunc.__name__
    fn = getattr(xnp, name, None)
    if method != "__call__":  # xnp.ufunc objects have the methods; plain functions do not
        fn = getattr(fn, method, None)
    qual = f"numpy.{name}" if method == "__call__" else f"numpy.{name}.{method}"
    if fn is None or not callable(fn) or fn is ufunc:
        return _ufunc_fallback(ufunc, method, inputs, kwargs, qual, "has no xnp implementation")
    call_kwargs = dict(kwargs)
    if method == "at" and type(inputs[0]) is _ndarray:  # written in place, as NumPy's
        inputs = (_Array(inputs[0]), *inputs[1:])
    outs: tuple = ()
    wrapped: list = []
    if out is not None:
        outs = out
        wrapped = [_as_xnp_out(o) for o in outs]
        if len(wrapped) == 1:
            call_kwargs["out"] = wrapped[0]
        else:
            call_kwargs["out"] = tuple(wrapped)
    with _Eagerly():
        try:
            res = fn(*inputs, **call_kwargs)
        except NotImplementedError as e:
            return _ufunc_fallback(ufunc, method, inputs, kwargs, qual,
                                   f"is not implemented by xnp for these arguments ({e})")
    if method == "at":
        return None
    if out is not None:
        res = _restore_out(res, outs, wrapped)
        if len(outs) == 1 and not isinstance(res, tuple):
            return res
    return res


def _ufunc_fallback(ufunc, method, inputs, kwargs, qual, why):
    _warn(qual, why)
    written: dict = {}
    np_inputs = list(_to_numpy(inputs))
    if method == "at" and inputs and type(inputs[0]) is _Array:
        target = inputs[0]._writable_value()
        np_inputs[0] = target
    np_kwargs = dict(kwargs)
    out = kwargs.get("out")
    if out is not None:
        np_out = []
        for o in out:
            if type(o) is _Array:
                v = o._writable_value()
                written[id(v)] = o
                np_out.append(v)
            else:
                np_out.append(o)
        np_kwargs["out"] = tuple(np_out)
    np_kwargs = {k: (v if k == "out" else _to_numpy(v)) for k, v in np_kwargs.items()}
    res = getattr(ufunc, method)(*np_inputs, **np_kwargs)
    if method == "at":
        return None
    return _from_numpy(res, written)


# --------------------------------------------------------------------------- __array_function__


def _xnp_function(xnp, func):
    """xnp's function named as NumPy's ``func`` (``numpy.linalg.norm`` -> ``xnp.linalg.norm``),
    or None."""
    mod = xnp
    for part in getattr(func, "__module__", "numpy").split(".")[1:]:
        if part.startswith("_"):  # private NumPy modules: the public name is at the top
            break
        mod = getattr(mod, part, None)
        if mod is None:
            return None
    fn = getattr(mod, func.__name__, None)
    return fn if callable(fn) and fn is not func else None


def _parameter_names(fn):
    """(names, takes **kwargs) of ``fn``'s signature, or None when it cannot be read."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    names = set()
    var_kw = False
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            var_kw = True
        elif p.kind is not p.VAR_POSITIONAL:
            names.add(p.name)
    return names, var_kw


def _compatible(func, fn) -> bool:
    """Whether xnp's ``fn`` accepts every parameter of NumPy's ``func`` (cached)."""
    key = (func, fn)
    ok = _COMPATIBLE.get(key)
    if ok is None:
        theirs = _parameter_names(getattr(func, "_implementation", func))
        ours = _parameter_names(fn)
        ok = theirs is None or ours is None or ours[1] or theirs[0] <= ours[0]
        _COMPATIBLE[key] = ok
    return ok


# NumPy functions that write into their first argument (and return None)
_WRITES_FIRST = frozenset(["copyto", "place", "putmask", "put", "put_along_axis",
                           "fill_diagonal"])


def array_function(xnp, func, types, args: tuple, kwargs: dict):
    """``Array.__array_function__``: NumPy's ``func(*args, **kwargs)`` by xnp (module docstring).

    Returns xnp's result, or ``NotImplemented`` when an argument of another array type
    that implements the protocol is involved.

    Raises
    ------
    xnp.errors.TracerArrayConversionError
        A tracer is among the arguments.
    """
    for t in types:
        if not (issubclass(t, _Array) or issubclass(t, _ndarray)):
            return NotImplemented
    _reject_tracers(args, kwargs)
    if any(_numpy_subclass(t) for t in types) and kwargs.get("out") is None:
        # a masked array or matrix argument: NumPy's semantics for its own subclass
        impl = getattr(func, "_implementation", func)
        return _from_numpy(impl(*_to_numpy(args), **_to_numpy(kwargs)), {})
    fn = _xnp_function(xnp, func)
    qual = f"{func.__module__}.{func.__name__}"
    if fn is None:
        return _function_fallback(func, args, kwargs, qual, "has no xnp implementation")
    if not _compatible(func, fn):
        return _function_fallback(func, args, kwargs, qual,
                                  "has an xnp counterpart that lacks some of its parameters")
    out = kwargs.get("out")
    call_args, call_kwargs = args, kwargs
    wrapped = None
    if type(out) is _ndarray:
        wrapped = _Array(out)
        call_kwargs = dict(kwargs, out=wrapped)
    elif func.__name__ in _WRITES_FIRST and args and type(args[0]) is _ndarray:
        # np.copyto(ndarray, xnp_array): xnp writes into the NumPy array's memory
        call_args = (_Array(args[0]),) + args[1:]
    with _Eagerly():
        try:
            res = fn(*call_args, **call_kwargs)
        except NotImplementedError as e:
            return _function_fallback(func, args, kwargs, qual,
                                      f"is not implemented by xnp for these arguments ({e})")
    if wrapped is not None and res is wrapped:
        return out
    return res


def _function_fallback(func, args, kwargs, qual, why):
    _warn(qual, why)
    written: dict = {}
    np_kwargs = dict(kwargs)
    out = kwargs.get("out")
    if type(out) is _Array:
        v = out._writable_value()
        written[id(v)] = out
        np_kwargs["out"] = v
    impl = getattr(func, "_implementation", func)
    res = impl(*_to_numpy(args), **_to_numpy(np_kwargs))
    return _from_numpy(res, written)
