"""NumPy's functions for the dtypes XLA has no type for, behind xnp's own names.

An xnp function given (or asked to make) an array of such a dtype (strings, bytes,
structured, object, datetime64/timedelta64, longdouble, ...; see
:mod:`xnp.tracing.host_arrays`) fails at the conversion that rejects non-numeric data,
with :class:`xnp.errors.HostDtypeError`. Eagerly, the public function catches it and runs
NumPy's function of the same name on the host values instead (:func:`numpy_call`): xnp
arrays in the arguments become their NumPy arrays and NumPy's result is wrapped back
(numeric results as ordinary xnp arrays, the others as ``HostArray``; an array NumPy
wrote in place, such as ``out=``, as the caller's own object). Under
``jit``/``grad``/``vmap`` the error reaches the user: such a value cannot be traced.

The catch sits around each function's full path only: :func:`install` rebuilds a
function's eager fast path (``numpy_api._fastpath.with_full_path``) around the wrapped full
path, so the numeric calls the fast path serves cost what they did, and the others pay
one Python frame. It is applied, by name, to

* the main namespace's functions and ufunc objects (``xnp.sort``, ``xnp.concatenate``,
  ``xnp.where``, ``xnp.add``; the ufunc methods ``reduce``/``accumulate``/``reduceat``/
  ``outer``/``at`` too), and those of ``xnp.fft`` and ``xnp.linalg``: each to NumPy's
  function of the same name;
* the methods of numeric ``Array`` objects (``x.astype(str)``, ``x == "a"``,
  ``x + numpy.datetime64(...)``, ``x[0] = "1.5"``): to ``numpy.ndarray``'s;
* the functions of ``xnp.lib.stride_tricks``, ``xnp.lib.scimath`` (``xnp.emath``) and
  ``xnp.lib.array_utils``: to ``numpy.lib``'s modules of the same names; those of
  ``xnp.special``: to ``scipy.special``'s (:func:`install_lazy`: imported on first use),
  so a dtype SciPy has no loop for gets SciPy's ``TypeError``.

``xnp.char``, ``xnp.strings``, ``xnp.rec`` and ``xnp.lib.recfunctions`` are NumPy's modules with every function
wrapped by :func:`host_function` (xnp arrays in, xnp arrays out; eager only).
"""

from __future__ import annotations

import functools
import importlib
import types

import numpy as np

from xnp.numpy_api.ufunc import ufunc as _ufunc
from xnp.tracing import core, errors
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api import _replay
from xnp.numpy_api.elementwise import OPERATOR_POWER_SHORTCUTS
from xnp.tracing.host_arrays import host_class, to_host, wrap

__all__ = ["numpy_call", "install", "install_lazy", "install_array_methods", "host_function", "host_module",
           "public_names"]

#: NumPy functions that write into their first argument
_WRITES_FIRST = frozenset({"copyto", "place", "put", "putmask", "fill_diagonal",
                           "put_along_axis", "at"})


def numpy_call(np_fn, args, kwargs, *, name: str = ""):
    """``np_fn(*args, **kwargs)`` on the host values of the xnp arrays in them, the result
    wrapped as xnp values (:func:`xnp.tracing.host_arrays.wrap`)."""
    seen: list = []
    if args and name in _WRITES_FIRST:
        args = (to_host(args[0], seen, writable=True),) + to_host(tuple(args[1:]), seen)
    else:
        args = to_host(tuple(args), seen)
    kwargs = {k: to_host(v, seen, writable=k == "out") for k, v in kwargs.items()}
    return wrap(np_fn(*args, **kwargs), seen)


def _eager() -> bool:
    return type(core._STATE.trace) is core.EvalTrace


def _delegating(full, np_fn, name: str, scalars: int = 0):
    """``full`` (an xnp function's full path), running ``np_fn`` eagerly when ``full``
    meets a dtype XLA has no type for; with the eager dispatch cache
    (:mod:`xnp.numpy_api._replay`), whose replays (arrays of XLA's dtypes only) need no
    fallback."""

    def guard(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except errors.HostDtypeError:
                if not _eager():
                    raise
            return numpy_call(np_fn, args, _numpy_keywords(name, args, kwargs), name=name)

        return call

    return _replay.cached(full, guard, scalars=scalars, learn=fastpath.learner(name))


#: keywords of xnp functions that NumPy's function of the same name lacks: their defaults
_XNP_ONLY_KEYWORDS = {"sort": {"descending": False}, "argsort": {"descending": False}}


def _numpy_keywords(name: str, args, kwargs) -> dict:
    """``kwargs`` for NumPy's ``name``: an xnp-only keyword given at its default is left
    out; any other value of it raises a ``TypeError`` naming the function, the keyword and
    the dtype (NumPy, which runs for this dtype, has no such keyword)."""
    extra = _XNP_ONLY_KEYWORDS.get(name)
    if not extra or not extra.keys() & kwargs.keys():
        return kwargs
    out = dict(kwargs)
    for key, default in extra.items():
        if key in out:
            value = out.pop(key)
            if value is not default and value != default:
                dtype = getattr(args[0], "dtype", None) if args else None
                raise TypeError(f"xnp.{name}: {key}={value!r} is not supported for an array "
                                f"of dtype {dtype}: arrays of that dtype are sorted by NumPy's "
                                f"{name}, which has no {key!r}")
    return out


#: ``Array``'s binary operators that are a ufunc of their two operands (``x ** 2.5`` is
#: ``power(x, 2.5)``): their Python scalar operands are NumPy's weak scalars
UFUNC_OPERATORS = frozenset(
    f"__{r}{op}__" for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "divmod", "pow",
                             "and", "or", "xor", "lshift", "rshift") for r in ("", "r")
) | {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"}


def _delegating_method(full, name: str):
    """A method of ``xnp.ufunc`` (``np_method`` of the NumPy ufunc) or ``Array``
    (``numpy.ndarray``'s) with the same fallback (and the eager dispatch cache; for
    :data:`UFUNC_OPERATORS`, one program for every value of a Python scalar operand)."""

    def guard(fn):
        @functools.wraps(fn)
        def call(self, *args, **kwargs):
            try:
                return fn(self, *args, **kwargs)
            except errors.HostDtypeError:
                if not _eager():
                    raise
            if isinstance(self, _ufunc):
                return numpy_call(getattr(self._np, name), args, kwargs, name=name)
            value = self._writable_value()  # NumPy's method may write (sort, fill, +=)
            seen: list = [(value, self)]
            args = to_host(tuple(args), seen)
            kwargs = {k: to_host(v, seen, writable=k == "out") for k, v in kwargs.items()}
            return wrap(getattr(value, name)(*args, **kwargs), seen)

        return call

    fast = fastpath.OPERATOR_OPS.get(name)
    learn = (fastpath.learner(*fast) if fast is not None else
             fastpath.learner(fastpath.INPLACE_OPS[name], inplace=True)
             if name in fastpath.INPLACE_OPS else None)
    return _replay.cached(full, guard, scalars=2 if name in UFUNC_OPERATORS else 0,
                          exact=OPERATOR_POWER_SHORTCUTS
                          if name == "__pow__" else frozenset(), learn=learn)


def install(namespace: dict, numpy_module, names) -> None:
    """Give each of ``names`` in ``namespace`` (a module's globals) NumPy's function of the
    same name in ``numpy_module`` for the dtypes XLA lacks; xnp's classes, NumPy's own
    objects and names NumPy lacks are left as they are."""
    done: set = set()
    replaced: dict = {}  # id of a function -> its replacement, shared by its aliases
    for name in names:
        obj = namespace.get(name)
        np_obj = getattr(numpy_module, name, None)
        if obj is None or np_obj is None or obj is np_obj or not callable(np_obj):
            continue
        if isinstance(obj, _ufunc):
            if id(obj) not in done:
                done.add(id(obj))
                cls = type(obj)
                cls.__call__ = staticmethod(fastpath.with_full_path(
                    cls.__call__, functools.partial(
                        _delegating, np_fn=np_obj, name=name,
                        # (a logical ufunc tests a Python float's truth itself: a float
                        # input would meet a signalling NaN in its loop)
                        scalars=0 if name.startswith("logical_") else np_obj.nin)))
        elif _is_function(obj):
            if id(obj) not in replaced:
                replaced[id(obj)] = (obj, _replacement(namespace, obj, np_obj, name, names))
            namespace[name] = replaced[id(obj)][1]
    for method in ("reduce", "accumulate", "reduceat", "outer", "at"):
        full = vars(_ufunc)[method]
        if not hasattr(full, "__wrapped__"):
            setattr(_ufunc, method, _delegating_method(full, method))


def _is_function(obj) -> bool:
    """A Python function, or a fast path in C standing for one (``FastFunc``)."""
    return isinstance(obj, types.FunctionType) or hasattr(obj, "_fast_decorator")


#: functions other than ufunc objects that are a NumPy ufunc of their first ``n``
#: positional arguments (``numpy.clip`` calls the ufunc ``clip``): their Python scalar
#: operands are weak scalars there too
_UFUNC_FUNCTIONS = {"clip": 3}


def _replacement(namespace: dict, fn, np_fn, name: str, names):
    """``fn`` with :func:`_delegating` around its full path, named as the attribute of
    ``namespace`` it replaces, so that ``pickle`` (which looks a function up by
    ``__module__`` and ``__qualname__``) finds this object and not ``fn``."""
    new = fastpath.with_full_path(fn, functools.partial(
        _delegating, np_fn=np_fn, name=name, scalars=_UFUNC_FUNCTIONS.get(name, 0)))
    new.__module__ = namespace["__name__"]
    if new.__qualname__ not in names or namespace.get(new.__qualname__) is not fn:
        new.__qualname__ = name  # reached only under this name (an alias of a private def)
    return new


def _lazy(module_name: str, name: str, public: str):
    """``module_name``'s function ``name``, imported on the first call; its ``TypeError``
    is prefixed with xnp's name ``public``."""

    def call(*args, **kwargs):
        fn = getattr(importlib.import_module(module_name), name, None)
        if fn is None:
            raise TypeError(f"xnp.{public}: {module_name}.{name} does not exist, so there is "
                            "no host version of it for the dtypes XLA has no type for")
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if type(e) is not TypeError:
                raise
            raise TypeError(f"xnp.{public}: {module_name}.{name}: {e}") from None

    call.__name__ = call.__qualname__ = name
    return call


def install_lazy(namespace: dict, module_name: str, names, prefix: str) -> None:
    """:func:`install` for a module imported on first use (``scipy.special``): each of
    ``names`` in ``namespace`` (xnp's module ``prefix``) runs ``module_name``'s function
    of the same name."""
    replaced: dict = {}  # id of a function -> its replacement, shared by its aliases
    for name in names:
        obj = namespace.get(name)
        if _is_function(obj):
            if id(obj) not in replaced:
                np_fn = _lazy(module_name, name, f"{prefix}.{name}")
                replaced[id(obj)] = (obj, _replacement(namespace, obj, np_fn, name, names))
            namespace[name] = replaced[id(obj)][1]


def install_array_methods(method_names) -> None:
    """Give each method of ``Array`` in ``method_names`` that ``numpy.ndarray`` has
    ``numpy.ndarray``'s version for the dtypes XLA lacks (fast paths kept)."""
    for name in method_names:
        member = core.Array.__dict__.get(name)
        fast = hasattr(member, "_fast_decorator")  # a Python function or a C FastFunc
        if not (fast or isinstance(member, types.FunctionType)) or not callable(
                getattr(np.ndarray, name, None)):
            continue
        setattr(core.Array, name, fastpath.with_full_path(
            member, functools.partial(_delegating_method, name=name)))


def host_function(np_fn, qualname: str):
    """NumPy's ``np_fn`` on xnp arrays (their host values) returning xnp values, eagerly;
    inside a traced function it raises ``HostDtypeError`` (it computes on the host, on
    data XLA may have no type for). ``qualname`` is xnp's name (``char.upper``)."""

    @functools.wraps(np_fn)
    def call(*args, **kwargs):
        trace = core._STATE.trace
        if type(trace) is not core.EvalTrace:
            raise errors.HostDtypeError(
                f"xnp.{qualname}: runs NumPy's function on the host (strings, records, dates "
                "and other data XLA has no type for) and cannot be traced inside a function "
                f"transformed by {trace.transformation}. Fix: call it outside the traced "
                "function and pass numeric results in.")
        return numpy_call(np_fn, args, kwargs, name=qualname.rpartition(".")[2])

    call.__module__ = "xnp." + qualname.rpartition(".")[0] if "." in qualname else "xnp"
    call.__qualname__ = call.__name__ = qualname.rpartition(".")[2]
    return call


def public_names(np_module) -> list:
    """The public names of a NumPy module (its ``__all__``, else its ``dir``)."""
    names = getattr(np_module, "__all__", None)
    if names is None:
        names = [n for n in dir(np_module) if not n.startswith("_")]
    return [n for n in names if not isinstance(getattr(np_module, n), types.ModuleType)]


def host_module(np_module, name: str) -> dict:
    """The namespace of xnp's module ``name`` (``char``, ``strings``, ``rec``) standing for
    ``np_module``: its functions wrapped by :func:`host_function`, its ndarray subclasses
    as :class:`~xnp.tracing.host_arrays.HostClass`, its other classes NumPy's own."""
    out = {}
    for n in public_names(np_module):
        obj = getattr(np_module, n)
        if isinstance(obj, type) and issubclass(obj, np.ndarray):
            out[n] = host_class(obj, f"xnp.{name}")
        elif isinstance(obj, type) or not callable(obj):
            out[n] = obj
        else:
            out[n] = host_function(obj, f"{name}.{n}")
    return out
