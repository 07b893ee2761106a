"""Eager arrays of the dtypes XLA has no type for: strings, bytes, structured, object,
datetime64/timedelta64, longdouble/clongdouble (any dtype outside ``SUPPORTED_DTYPES``).

A :class:`HostArray` is an ``xnp.ndarray`` (a subclass of the eager ``Array``) holding a
NumPy array of such a dtype, and everything it does is NumPy's: its operators and methods
call the NumPy array's (``x == 'a'``, ``x + x`` on strings, ``x['field']``, writes
through views, ``astype``), ``repr`` is NumPy's, and NumPy's functions and ufuncs called
on it (NEP 13/18) run NumPy's implementation. NumPy's results are wrapped by :func:`wrap`:
arrays and scalars of xnp's numeric dtypes become ordinary eager ``Array`` objects
(a structured array's numeric field is a view, so writes into it reach the record),
those of other dtypes ``HostArray`` objects, Python objects (the elements of an object
array, ``tolist()``) stay what they are.

Numbers only ever take the fast paths and the dispatch of ``Array``: they test ``type(x)
is Array``, which a ``HostArray`` is not, so it reaches the conversion paths that reject
non-numeric data (``numpy_api._util.asarray_for``, ``avals.canonical_dtype``,
``core.aval_of``), which raise :class:`xnp.errors.HostDtypeError`. The public ``xnp``
functions catch it eagerly and run NumPy's function of the same name
(:mod:`xnp.host_dispatch`); under a transformation it reaches the user, and so does the
same error from a ``HostArray`` method (the array is a global or a closure there), so
nothing of this kind is ever traced.
"""

from __future__ import annotations

import numpy as np

from xnp.tracing import core, errors
from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = ["HostArray", "HostAtIndexer", "HostClass", "host_class", "wrap", "to_host", "check_eager", "host_result",
           "install_methods"]

_Array = core.Array
_Tracer = core.Tracer
#: NumPy subclasses that stay NumPy objects (xnp.ma is numpy.ma; xnp.matrix is NumPy's)
_KEPT = (np.ma.MaskedArray, np.matrix)


class HostArray(core.Array, internal=True):
    """An eager xnp array of a dtype XLA has no type for, with NumPy's semantics.

    ``isinstance(x, xnp.ndarray)`` holds; ``type(x) is xnp.Array`` does not (the numeric
    code paths test that). Its value is the NumPy array ``x._val`` (any ndarray subclass
    NumPy returns, e.g. ``numpy.recarray``, whose fields then read as attributes).
    Operators and methods are the NumPy array's, run on the host and wrapped by
    :func:`wrap`; inside a ``jit``/``grad``/``vmap`` trace they raise
    :class:`xnp.errors.HostDtypeError` (metadata, ``repr`` and conversions to Python
    values still work there).
    """

    __slots__ = ()

    def __getitem__(self, idx):
        check_eager(self, "__getitem__")
        seen: list = []
        idx = to_host(idx, seen)
        v = self._val
        # one element is NumPy's scalar (a record, np.void, is a view of its array in
        # NumPy, so writing its fields reaches this array's memory)
        return wrap(v[idx], seen)

    def __setitem__(self, idx, value):
        check_eager(self, "__setitem__")
        self._val[to_host(idx, [])] = to_host(value, [])

    def __getattr__(self, name):
        # only for names an xnp array lacks: a numpy.recarray's fields as attributes
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            value = getattr(object.__getattribute__(self, "_val"), name)
        except AttributeError:
            raise AttributeError(f"'xnp.ndarray' object (dtype "
                                 f"{self._val.dtype}) has no attribute {name!r}") from None
        check_eager(self, name)
        return wrap(value, [(self._val, self)])

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        seen: list = []
        inputs = to_host(inputs, seen)
        kwargs = {k: to_host(v, seen, writable=k == "out") for k, v in kwargs.items()}
        return wrap(getattr(ufunc, method)(*inputs, **kwargs), seen)

    def __array_function__(self, func, types, args, kwargs):
        seen: list = []
        args = to_host(args, seen)
        kwargs = {k: to_host(v, seen, writable=k == "out") for k, v in kwargs.items()}
        return wrap(func._implementation(*args, **kwargs), seen)

    def __reduce__(self):
        return (HostArray, (np.array(self._val, subok=True),))

    @property
    def at(self):
        """``h.at[idx].set(v)`` / ``.add/.subtract/.multiply/.min/.max/.get``: functional
        updates computed by NumPy on a copy (see ``HostAtIndexer``)."""
        return HostAtIndexer(self)

    def __format__(self, spec):
        return format(self._val[()] if self._val.ndim == 0 else self._val, spec)


class HostClass(type):
    """xnp's name for a NumPy ndarray subclass (``xnp.recarray``, ``xnp.char.chararray``):
    calling it makes NumPy's object, wrapped as a ``HostArray`` (eagerly only), and
    ``isinstance`` accepts a ``HostArray`` holding one; ``x.view(xnp.recarray)`` views as
    NumPy's class. ``numpy_class`` is NumPy's class."""

    def __call__(cls, *args, **kwargs):
        if type(core._STATE.trace) is not core.EvalTrace:
            raise errors.HostDtypeError(
                f"xnp.{cls.__name__}: NumPy's {cls.numpy_class.__name__} holds host data and "
                "cannot be made inside a traced function (jit, grad, vmap): XLA has no type "
                "for its dtypes. Fix: make it outside the traced function.")
        return wrap(cls.numpy_class(*to_host(args, []), **to_host(kwargs, [])))

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls.numpy_class) or (
            type(obj) is HostArray and isinstance(obj._val, cls.numpy_class))


def host_class(np_class: type, module: str) -> HostClass:
    """The :class:`HostClass` standing for ``np_class`` in xnp's ``module``."""
    return HostClass(np_class.__name__, (), {
        "numpy_class": np_class, "__module__": module, "__qualname__": np_class.__name__,
        "__doc__": f"NumPy's ``{np_class.__module__}.{np_class.__name__}``, made as an xnp "
        "array (eager only; see xnp.tracing.host_arrays.HostClass)."})


def check_eager(x, name: str) -> None:
    """``HostDtypeError`` when a transformation is active in this thread: ``x`` (a
    ``HostArray``) is a global or a closure of the traced function, or was made in it."""
    trace = core._STATE.trace
    if type(trace) is not core.EvalTrace:
        raise errors.HostDtypeError(errors.host_dtype_message(
            f"xnp: `{name}` on an eager array of the traced function (a global, a closure "
            "or made in the function)", x.dtype, trace.transformation), x.dtype)


def to_host(obj, seen: list, writable: bool = False):
    """``obj`` with xnp arrays replaced by their NumPy arrays (in lists and tuples too);
    each ``(NumPy array, xnp array)`` pair is appended to ``seen`` so that :func:`wrap`
    returns the caller's own object for a result NumPy wrote in place. ``writable``: a
    jit output's read-only host view is copied first (it is written). A tracer raises
    ``TracerArrayConversionError``: NumPy cannot compute on it."""
    t = type(obj)
    if t is HostArray:
        seen.append((obj._val, obj))
        return obj._val
    if t is _Array:
        v = obj._writable_value() if writable else obj._value
        seen.append((v, obj))
        return v
    if t is tuple or t is list:
        return t(to_host(o, seen, writable) for o in obj)
    if t is dict:
        return {k: to_host(v, seen, writable) for k, v in obj.items()}
    if t is HostClass:
        return obj.numpy_class
    if isinstance(obj, _Tracer):
        return np.asarray(obj)  # raises TracerArrayConversionError, naming the tracer
    return obj


def wrap(obj, seen=()):
    """NumPy's result as xnp values: arrays of xnp's dtypes as ``Array``, of other dtypes
    as ``HostArray``, an array listed in ``seen`` as its xnp object, tuples and lists
    element by element, anything else (NumPy's scalars included, as xnp returns them)
    unchanged."""
    t = type(obj)
    if t is np.ndarray or (isinstance(obj, np.ndarray) and not isinstance(obj, _KEPT)):
        for host, xnp_obj in seen:
            if host is obj:
                return xnp_obj
        if obj.dtype in SUPPORTED_DTYPES:
            return _Array(obj if t is np.ndarray else obj.view(np.ndarray))
        return HostArray(obj)
    if t is tuple or t is list:
        return t(wrap(o, seen) for o in obj)
    return obj


def host_result(fname: str, value):
    """``wrap(value)`` for an xnp function that made NumPy data of any dtype (``load``,
    ``loadtxt``, ...): a ``HostArray`` for a dtype XLA lacks, which may not be created
    while a transformation traces the function (``HostDtypeError``)."""
    out = wrap(value)
    for v in (out if isinstance(out, (tuple, list)) else (out,)):
        if type(v) is HostArray and type(core._STATE.trace) is not core.EvalTrace:
            trace = core._STATE.trace
            raise errors.HostDtypeError(errors.host_dtype_message(
                f"xnp.{fname}: the array it creates", v.dtype, trace.transformation), v.dtype)
    return out


# ---------------------------------------------------------------------------- methods

#: NumPy attributes a HostArray reads as the eager Array does (its value is the ndarray)
_INHERITED = frozenset({
    "__init__", "__new__", "__getattribute__", "__setattr__", "__delattr__", "__class__",
    "__dir__", "__init_subclass__", "__subclasshook__", "__reduce_ex__", "__reduce__",
    "__sizeof__", "__repr__", "__str__", "__format__", "__hash__", "__array__", "__len__",
    "__iter__", "__bool__", "__int__", "__float__", "__complex__", "__index__",
    "__dlpack__", "__dlpack_device__", "__getitem__", "__setitem__", "__array_ufunc__",
    "__array_function__", "__array_priority__", "__array_interface__", "__array_struct__",
    "__doc__", "__slots__", "__module__", "__weakref__", "__class_getitem__",
    "shape", "dtype", "ndim", "size", "device", "item", "tolist", "tobytes", "nbytes",
    "itemsize", "to_device", "base",
})


def _method(name: str):
    def method(self, *args, **kwargs):
        check_eager(self, name)
        seen: list = [(self._val, self)]
        args = to_host(args, seen)
        kwargs = {k: to_host(v, seen, writable=k == "out") for k, v in kwargs.items()}
        return wrap(getattr(self._val, name)(*args, **kwargs), seen)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}`` on the host value (xnp.tracing.host_arrays)."
    return method


def _property(name: str):
    def get(self):
        check_eager(self, name)
        return wrap(getattr(self._val, name), [(self._val, self)])

    def put(self, value):
        check_eager(self, name)
        setattr(self._val, name, to_host(value, []))

    return property(get, put, doc=f"NumPy's ``ndarray.{name}`` of the host value.")


def install_methods(names) -> None:
    """Give ``HostArray`` NumPy's version of each of ``names`` (the methods and properties
    ``xnp.array`` installs on ``Array``) that ``numpy.ndarray`` has."""
    for name in names:
        if name in _INHERITED or name in vars(HostArray) or not hasattr(np.ndarray, name):
            continue
        member = getattr(np.ndarray, name)
        if callable(member):
            setattr(HostArray, name, _method(name))
        else:
            setattr(HostArray, name, _property(name))


# ---------------------------------------------------------------------------- h.at[idx]

# ``h.at[idx]`` for a ``HostArray``: the functional updates
# of ``Array.at`` (``get``, ``set``, ``add``, ``subtract``, ``multiply``, ``min``, ``max``)
# computed by NumPy on a copy of the host value, so ``h`` is never modified.
#
# The updates are NumPy's unbuffered ``ufunc.at`` (repeated indices all contribute), and
# ``set`` is NumPy's index assignment (the last write wins). An operation NumPy does not
# define for the dtype (``add`` of two datetimes, ``multiply`` of strings) raises
# ``TypeError`` naming the method and the dtype. ``mode`` is as for ``Array.at``:
# ``None`` keeps NumPy's ``IndexError`` for an out-of-bounds index; ``"clip"`` clamps
# into range; ``"fill"``/``"drop"`` make ``get`` give ``fill_value`` there and drop such
# updates; ``"promise_in_bounds"`` clamps for ``get`` and drops for updates. ``get``'s
# default ``fill_value`` is NaN (NaT for dates and time differences) where the dtype has
# one and ``numpy.zeros((), dtype)`` otherwise (``''``, ``b''``, ``0``, a zero record).

_UFUNCS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "min": np.minimum, "max": np.maximum}
_MODES = {"clip": "clip", "fill": "fill", "drop": "fill", "fill_or_drop": "fill",
          "promise_in_bounds": "promise_in_bounds"}


class HostAtIndexer:
    """``h.at``: ``h.at[idx]`` gives an object with functional updates (as ``Array.at``)."""

    __slots__ = ("_x",)

    def __init__(self, x):
        self._x = x

    def __getitem__(self, idx):
        return _HostIndexUpdateRef(self._x, idx)

    def __repr__(self):
        return f"AtIndexer({self._x!r})"


def _mode(mode, method: str):
    if mode is None:
        return None
    key = getattr(mode, "value", mode)  # a lax.GatherScatterMode member
    if isinstance(key, str) and key.lower() in _MODES:
        return _MODES[key.lower()]
    raise ValueError(f"xnp.ndarray.at[...].{method}: unknown mode {mode!r}; use None, 'clip', "
                     "'fill' (get), 'drop' (updates) or 'promise_in_bounds'.")


def _is_int_entry(e) -> bool:
    if isinstance(e, (bool, np.bool_)):
        return False
    if isinstance(e, (int, np.integer)):
        return True
    return isinstance(e, np.ndarray) and e.dtype.kind in "iu"


def _bounded(shape, idx, mode):
    """``idx`` with its integer entries normalised for ``mode`` (clipped into range, or
    an out-of-bounds entry replaced by the axis length: one padding slot past the end),
    and the axes that need that padding slot."""
    entries = list(idx) if type(idx) is tuple else [idx]
    entries = [np.asarray(e) if isinstance(e, list) else e for e in entries]
    consumed = sum(e.ndim if isinstance(e, np.ndarray) and e.dtype == np.bool_ else
                   0 if e is None or e is Ellipsis else 1 for e in entries)
    out, padded, ax = [], [], 0
    for e in entries:
        if e is None:
            out.append(e)
            continue
        if e is Ellipsis:
            ax += len(shape) - consumed
        elif isinstance(e, np.ndarray) and e.dtype == np.bool_:
            ax += e.ndim
        elif _is_int_entry(e) and ax < len(shape):
            n = shape[ax]
            a = np.asarray(e, dtype=np.intp)
            a = np.where(a < 0, a + n, a)
            if mode == "clip":
                a = np.clip(a, 0, max(n - 1, 0))
            else:
                a = np.where((a < 0) | (a >= n), n, a)
                padded.append(ax)
            e = a if isinstance(e, np.ndarray) else int(a)
            ax += 1
        else:
            ax += 1
        out.append(e)
    return tuple(out), sorted(set(padded))


def _default_fill(dtype: np.dtype):
    if dtype.kind in "Mm":
        return np.array("NaT", dtype)
    if dtype.kind in "fc":
        return np.array(np.nan, dtype)
    return np.zeros((), dtype)


def _with_pad(v: np.ndarray, axes, fill):
    """``v`` with one more element at the end of each of ``axes`` (filled with ``fill``)
    and the index of ``v``'s own part in it."""
    shape = tuple(n + (i in axes) for i, n in enumerate(v.shape))
    big = np.empty(shape, v.dtype) if fill is None else np.full(shape, fill, v.dtype)
    own = tuple(slice(0, n) for n in v.shape)
    big[own] = v
    return big, own


class _HostIndexUpdateRef:
    """``h.at[idx]``: ``get``, ``set``, ``add``, ``subtract``, ``multiply``, ``min``, ``max``
    on a copy of the host value (see the section's comment above)."""

    __slots__ = ("_x", "_idx")

    def __init__(self, x, idx):
        self._x = x
        self._idx = idx

    def _prepare(self, method, mode):
        check_eager(self._x, f"at[...].{method}")
        return self._x._val, to_host(self._idx, []), _mode(mode, method)

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None):
        """``h[idx]`` as a new array, with ``mode``/``fill_value`` as for ``Array.at``."""
        v, idx, mode = self._prepare("get", mode)
        if mode is not None:
            idx, padded = _bounded(v.shape, idx, "clip" if mode == "promise_in_bounds" else mode)
            if padded:
                fill = (_default_fill(v.dtype) if fill_value is None
                        else np.asarray(to_host(fill_value, [])).astype(v.dtype))
                v, _ = _with_pad(v, padded, fill)
        return wrap(np.array(v[idx], subok=True))

    def _update(self, kind, values, mode):
        v, idx, mode = self._prepare(kind, mode)
        values = to_host(values, [])
        if mode is not None:
            idx, padded = _bounded(v.shape, idx, "fill" if mode == "promise_in_bounds" else mode)
        else:
            padded = []
        out, own = _with_pad(v, padded, None) if padded else (np.array(v, subok=True), None)
        try:
            if kind == "set":
                out[idx] = values
            else:
                _UFUNCS[kind].at(out, idx, values)
        except TypeError as e:
            raise TypeError(f"xnp.ndarray.at[...].{kind}: NumPy does not define it for "
                            f"dtype {v.dtype} with values of type {_describe(values)} ({e})") from None
        return wrap(out[own].copy() if own is not None else out)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with ``h[idx] = values`` (NumPy's casting to ``h.dtype``)."""
        return self._update("set", values, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with ``values`` added at ``idx`` (``numpy.add.at``)."""
        return self._update("add", values, mode)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with ``values`` subtracted at ``idx`` (``numpy.subtract.at``)."""
        return self._update("subtract", values, mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with the elements at ``idx`` multiplied by ``values`` (``numpy.multiply.at``)."""
        return self._update("multiply", values, mode)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with ``minimum(h[idx], values)`` at ``idx`` (``numpy.minimum.at``)."""
        return self._update("min", values, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``h`` with ``maximum(h[idx], values)`` at ``idx`` (``numpy.maximum.at``)."""
        return self._update("max", values, mode)


def _describe(values) -> str:
    dt = getattr(values, "dtype", None)
    return f"{type(values).__name__} of dtype {dt}" if dt is not None else type(values).__name__

