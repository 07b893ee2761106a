"""``xnp.ndarray`` as NumPy's class: its constructor, subclassing, the protocols
``__array_interface__``, ``__array_struct__`` and ``__class_getitem__``, and the names
its methods pickle under (:func:`name_methods_for_pickle`).

``xnp.ndarray`` is the eager array class (``xnp.tracing.core.Array``). Its constructor
is NumPy's: ``xnp.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None,
order=None)`` allocates uninitialised memory, or views ``buffer`` (bytes, a bytearray,
a memoryview, a NumPy or xnp array) as NumPy's does, writes reaching a writable buffer.
It makes an eager array, also inside a traced function (a constant there); a traced
``buffer`` raises ``TypeError``.

Subclasses follow NumPy's subclassing protocol: ``__new__`` may call
``super().__new__(cls, shape, ...)`` or return ``xnp.asarray(x).view(cls)``;
``__array_finalize__(self, obj)`` runs on explicit construction (``obj`` None), view
casting (``obj`` the viewed array) and on the results xnp makes of the subclass's type.
Those are the results NumPy gives the subclass's type: indexing (not a scalar
element), ``view``, the operators and ufuncs (``xnp.add(s, 1)``, ``numpy.add(s, 1)``,
``ufunc.reduce``/``accumulate``/``outer``: through ``__array_wrap__`` of the operand
of highest ``__array_priority__``, with NumPy's ``(ufunc, inputs, 0)`` context), and
the methods in ``_METHODS``/``_PROPERTIES``. xnp's other functions (``xnp.sum(s)``,
``xnp.concatenate``) compute on the subclass's instance as on a plain array and
return a plain ``xnp.ndarray``. Instances are eager: under ``jit`` a subclass's
instance is traced as a plain array (it has no subclass type there) and the
results are plain.

The first user subclass switches on the machinery that ``super().__new__`` and the
ufunc calls need (a Python ``__new__`` on ``xnp.ndarray`` and a wrapper around each
ufunc object), which makes constructing arrays and calling ufunc objects a little
slower from then on; programs without subclasses never pay for it.
"""

from __future__ import annotations

import copyreg
import functools
import inspect
import operator
import sys
import types

import numpy as np

from xnp.numpy_api import ufunc as _ufuncs
from xnp.tracing import array_base, core, errors, host_arrays
from xnp.tracing.array_base import FastFunc
from xnp.tracing.avals import SUPPORTED_DTYPES
from xnp.tracing.core import Array, Tracer

__all__ = ["as_subclass", "construct", "install", "on_subclass", "subclass_repr",
           "view_as_type"]

_object_new = Array.__new__  # the base class's allocation (before _activate replaces it)


# ------------------------------------------------------------------ the constructor


def _shape_of(shape) -> tuple:
    try:
        if isinstance(shape, (tuple, list, range)):
            return tuple(operator.index(n) for n in shape)
        return (operator.index(shape),)
    except TypeError:
        raise TypeError(f"xnp.ndarray: `shape` must be an int or a sequence of ints, got "
                        f"{shape!r}") from None


def construct(self, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """NumPy's ``ndarray(shape, dtype, buffer, offset, strides, order)`` into ``self``."""
    shape = _shape_of(shape)
    if isinstance(buffer, Tracer):
        raise TypeError("xnp.ndarray: `buffer` is a traced array, which has no memory to "
                        f"view ({errors.aval_str(buffer.aval)}); "
                        "make the array outside the traced function")
    if isinstance(buffer, Array):
        buffer = buffer._writable_value()  # its own memory (a jit output's copy-on-write)
    try:
        value = np.ndarray(shape, dtype, buffer, offset, strides,
                           "C" if order is None else order)
    except (TypeError, ValueError) as e:
        raise type(e)(f"xnp.ndarray: {e}") from e
    if value.dtype not in SUPPORTED_DTYPES:
        if type(self) is not Array:
            raise TypeError(f"xnp.ndarray: a subclass's array ({type(self).__name__}) cannot "
                            f"have dtype {value.dtype} (XLA has no type for it)")
        self.__class__ = host_arrays.HostArray  # NumPy's semantics on the host
    self._val = value
    self._dev = None
    self._weak = False
    self._aval = None
    self._host_memo = None


def _new(cls, *args, **kwargs):
    """``xnp.ndarray.__new__`` once a user subclass exists: a user subclass's instance is
    made here (NumPy's constructor, then ``__array_finalize__(None)``); xnp's own classes
    are filled in by ``__init__``."""
    obj = _object_new(cls)
    if cls._user_subclass:
        construct(obj, *args, **kwargs)
        obj.__array_finalize__(None)
    return obj


def _subclass_init(self, *args, **kwargs):
    """A subclass's instance is complete when ``__new__`` returns (as NumPy's)."""


# named as the attributes they are (a bound method pickles as getattr(instance, name))
_new.__name__, _subclass_init.__name__ = "__new__", "__init__"


# ------------------------------------------------------------------ results of the subclass


def as_subclass(x: Array, cls: type, obj) -> Array:
    """``x`` (a plain eager array) as an instance of ``cls`` sharing its memory, after
    ``__array_finalize__(obj)`` (``x`` itself when ``cls`` is ``xnp.ndarray``)."""
    if cls is Array:
        return x
    new = _object_new(cls)
    new._val = x._writable_value()
    new._dev = None
    new._weak = x._weak
    new._aval = None
    new._host_memo = None
    new.__array_finalize__(obj)
    return new


def _subclass_reduce(self):
    """Pickle a subclass's instance as its class and data (NumPy's: attributes not kept)."""
    return (_rebuild, (type(self), np.array(self._value), self._weak))


def _rebuild(cls, value, weak):
    """Unpickle: ``__array_finalize__(None)`` runs, as for NumPy's subclasses."""
    new = _object_new(cls)
    new._val = value
    new._dev = None
    new._weak = weak
    new._aval = None
    new._host_memo = None
    new.__array_finalize__(None)
    return new


def view_as_type(x, dtype, cls):
    """``x.view(dtype)`` as an instance of ``cls`` (default: ``x``'s own class; a class
    given as ``dtype`` is ``cls``, as NumPy's ``a.view(SubClass)``)."""
    if cls is None and isinstance(dtype, type) and issubclass(dtype, (Array, np.ndarray)):
        dtype, cls = None, dtype
    if cls is None:
        cls = type(x)
    if (isinstance(cls, type) and issubclass(cls, np.ndarray) and cls is not np.ndarray
            and not isinstance(x, Tracer)):
        # a NumPy subclass (numpy.ma.MaskedArray, numpy.matrix, ...): NumPy's view of the
        # eager array's memory (writes reach it), as numpy.ndarray.view gives; a plain
        # numpy.ndarray is np.asarray(x)'s, not a view casting of an xnp array
        host = x._writable_value() if type(x) is Array else np.asarray(x)
        return host.view(cls) if dtype is None else host.view(dtype, cls)
    if not (isinstance(cls, type) and issubclass(cls, Array)):
        raise TypeError(f"xnp.ndarray.view: `type` must be xnp.ndarray or a subclass of it "
                        f"(or of numpy.ndarray, for NumPy's view), got {cls!r}")
    if isinstance(x, Tracer):
        if cls is Array:
            return x.view(dtype)
        raise TypeError(f"xnp.ndarray.view: cannot view a traced array ({x.aval}) as "
                        f"{cls.__name__}: instances of xnp.ndarray subclasses are eager arrays")
    plain = x._plain() if x._user_subclass else x
    return as_subclass(plain.view(dtype), cls, x)


def _like_result(self, out):
    """``out`` (a plain array made like ``self``) of ``self``'s type (``*_like``)."""
    return as_subclass(out, type(self), self)


def _cast(out, obj):
    if type(out) is Array:
        return as_subclass(out, type(obj), obj)
    if type(out) is tuple:
        return tuple(_cast(o, obj) for o in out)
    return out


def _subclass_operands(args) -> list:
    return [a for a in args if isinstance(a, Array) and a._user_subclass]


def _wrap(out, inputs, ufunc):
    """``out`` through ``__array_wrap__`` of the subclass operand of highest
    ``__array_priority__`` (the first of those), as NumPy's ufuncs return results."""
    if type(out) is not Array and type(out) is not tuple:
        return out
    owners = _subclass_operands(inputs)
    if not owners:
        return out
    owner = owners[0]
    for o in owners[1:]:
        if o.__array_priority__ > owner.__array_priority__:
            owner = o
    context = None if ufunc is None else (ufunc, tuple(inputs), 0)
    if type(out) is tuple:
        return tuple(_wrap_one(owner, o, context) for o in out)
    return _wrap_one(owner, out, context)


def _wrap_one(owner, out, context):
    if type(out) is not Array:
        return out
    return owner.__array_wrap__(out, context, out.ndim == 0)


def _array_wrap(self, array, context=None, return_scalar=False):
    """NumPy's ``ndarray.__array_wrap__``: ``array`` (a result computed for this
    array) as an array of this array's type, ``__array_finalize__(self)`` run."""
    if type(self) is Array or type(array) is type(self) or not isinstance(array, Array):
        return array
    if type(array) is not Array:
        array = array._plain()
    return as_subclass(array, type(self), self)


def _array_finalize(self, obj):
    """Called on a new array of a subclass (NumPy's ``ndarray.__array_finalize__``): a
    subclass overrides it to set its attributes from ``obj`` (None on explicit
    construction)."""


_NAMED: dict = {}


def subclass_repr(self) -> str:
    """NumPy's repr of a subclass's instance: the class name in place of ``array``."""
    name = type(self).__name__
    named = _NAMED.get(name)
    if named is None:
        named = _NAMED[name] = type(name, (np.ndarray,), {})
    return repr(self._value.view(named))


# ------------------------------------------------------------------ a subclass's members

#: methods whose array results take the subclass's type, as NumPy's do
_METHODS = ("all", "any", "astype", "clip", "conj", "conjugate", "copy", "cumprod",
            "cumsum", "diagonal", "dot", "flatten", "max", "mean", "min", "prod", "ravel",
            "repeat", "reshape", "round", "squeeze", "std", "sum", "swapaxes", "take",
            "trace", "transpose", "var")
#: those that are a ufunc's ``reduce`` in NumPy (their results go through ``__array_wrap__``)
_REDUCTIONS = frozenset(("all", "any", "max", "min", "prod", "sum"))
_PROPERTIES = ("T", "mT")
#: operator -> the ufunc whose context ``__array_wrap__`` receives
_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
    "floordiv": "floor_divide", "mod": "remainder", "divmod": "divmod", "pow": "power",
    "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "left_shift", "rshift": "right_shift"}
_COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                "gt": "greater", "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}
_IN_PLACE = tuple(f"__i{op}__" for op in _OPERATORS if op != "divmod") + ("__setitem__",)


def _plain_arg(a):
    """``a`` with instances of user subclasses (in tuples and lists too) as plain arrays."""
    if isinstance(a, Array):
        return a._plain() if a._user_subclass else a
    if type(a) is tuple or type(a) is list:
        return type(a)(_plain_arg(e) for e in a)
    return a


def _method(impl):
    def method(self, *args, **kwargs):
        return _cast(impl(self._plain(), *args, **kwargs), self)

    return method


def _reduction(impl):
    def method(self, *args, **kwargs):  # a ufunc's reduce in NumPy: through __array_wrap__
        return _wrap(impl(self._plain(), *args, **kwargs), (self,), None)

    return method


def _property(impl):
    return property(lambda self: _cast(impl.fget(self._plain()), self), doc=impl.__doc__)


def _operator(impl, ufunc_name, reflected):
    ufunc = _ufuncs.UFUNCS.get(ufunc_name)

    def op(self, *args):
        out = impl(self._plain(), *[_plain_arg(a) for a in args])
        if out is NotImplemented:
            return out
        inputs = (*args, self) if reflected else (self, *args)
        return _wrap(out, inputs, ufunc)

    return op


def _in_place(impl):
    def op(self, *args):
        out = impl(self._plain(), *[_plain_arg(a) for a in args])
        return self if out is not None and out is not NotImplemented else out

    return op


def _getitem(self, idx):
    out = Array.__getitem__(self._plain(), _plain_arg(idx))
    if type(out) is Array and (out.ndim or idx is Ellipsis or (
            type(idx) is tuple and any(i is Ellipsis for i in idx))):
        return as_subclass(out, type(self), self)
    return out  # a single element: NumPy's scalar, a plain 0-d array here


def _members() -> dict:
    members: dict = {"__getitem__": _getitem, "__reduce__": _subclass_reduce}
    for name in _METHODS:
        make = _reduction if name in _REDUCTIONS else _method
        m = getattr(Array, name)
        # the method before NumPy's scalar rule (numpy_api/_scalars.py): a subclass's result
        # goes through its __array_wrap__ instead
        members[name] = make(getattr(m, "_scalar_rule_of", m))
    for name in _PROPERTIES:
        members[name] = _property(getattr(Array, name))
    for op, uname in _OPERATORS.items():
        members[f"__{op}__"] = _operator(getattr(Array, f"__{op}__"), uname, False)
        members[f"__r{op}__"] = _operator(getattr(Array, f"__r{op}__"), uname, True)
    for op, uname in _COMPARISONS.items():
        members[f"__{op}__"] = _operator(getattr(Array, f"__{op}__"), uname, False)
    for op, uname in _UNARY.items():
        members[f"__{op}__"] = _operator(getattr(Array, f"__{op}__"), uname, False)
    for name in _IN_PLACE:
        members[name] = _in_place(getattr(Array, name))
    for name, fn in members.items():
        getattr(fn, "fget", fn)._xnp_subclass_member = True
        if not isinstance(fn, property):  # pickled by reference, as NumPy's methods are
            fn.__name__, fn.__qualname__ = name, f"SUBCLASS_METHODS.{name}"
            fn.__module__ = __name__
            setattr(SUBCLASS_METHODS, name, fn)
    return members


_MEMBERS: dict = {}
#: the methods of every user subclass (:func:`on_subclass`) by name, where pickle finds
#: them (``xnp.ndarray_class.SUBCLASS_METHODS.sum``)
SUBCLASS_METHODS = types.SimpleNamespace()


def _defined_below_array(cls, name) -> bool:
    """Whether a class between ``cls`` and ``Array`` in the MRO defines ``name`` itself
    (not as one of the members installed here)."""
    for c in cls.__mro__:
        if c is Array:
            return False
        member = c.__dict__.get(name)
        if member is not None and not getattr(getattr(member, "fget", member),
                                              "_xnp_subclass_member", False):
            return True
    return False


def on_subclass(cls) -> None:
    """Give a new user subclass of ``xnp.ndarray`` NumPy's subclass protocol."""
    _activate()
    if not _defined_below_array(cls, "__init__"):
        cls.__init__ = _subclass_init
    if not _MEMBERS:
        _MEMBERS.update(_members())
    for name, member in _MEMBERS.items():
        if not _defined_below_array(cls, name) and name not in cls.__dict__:
            setattr(cls, name, member)


# ------------------------------------------------------------------ switched on by subclasses

_ACTIVE: list = []


def _ufunc_call(call, ufunc):
    nin = ufunc.nin

    def wrapped(*args, **kwargs):
        out = call(*args, **kwargs)
        if kwargs.get("out") is None and len(args) <= nin:  # no out= (the caller's arrays)
            return _wrap(out, args, ufunc)
        return out

    # the call's attributes (its fast-path markers, signature) stay visible on the wrapper
    return staticmethod(functools.update_wrapper(wrapped, call))


def _ufunc_method(method):
    def wrapped(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        if kwargs.get("out") is None and args:
            if method.__name__ == "outer":
                return _wrap(out, args[:2], self)
            return _wrap(out, args[:1], None)  # NumPy's reductions pass no context
        return out

    # (its name, docstring and signature; ``__wrapped__`` leads to the method's own
    # attributes, such as its dispatch cache)
    return functools.update_wrapper(wrapped, method)


def _activate() -> None:
    """What the first user subclass needs: ``xnp.ndarray.__new__`` (for
    ``super().__new__(cls, shape, ...)``) and ufunc objects that wrap results."""
    if _ACTIVE:
        return
    _ACTIVE.append(True)
    Array.__new__ = staticmethod(_new)
    for u in {id(u): u for u in _ufuncs.UFUNCS.values()}.values():
        cls = type(u)
        cls.__call__ = _ufunc_call(cls.__dict__["__call__"].__func__, u)
    for name in ("reduce", "accumulate", "outer", "reduceat"):
        setattr(_ufuncs.ufunc, name, _ufunc_method(getattr(_ufuncs.ufunc, name)))


# ------------------------------------------------------------------ protocols


def _pickled_by_reference(fn) -> str:
    """The name pickle saves a ``FastFunc`` under (as a function: its module's attribute
    ``__qualname__``)."""
    return fn.__qualname__


def _resolves(fn) -> bool:
    """Whether ``fn`` is what its ``__module__`` and ``__qualname__`` name, where pickle
    looks it up."""
    obj = sys.modules.get(getattr(fn, "__module__", None) or "")
    for part in (getattr(fn, "__qualname__", None) or "<none>").split("."):
        obj = getattr(obj, part, None)
    return obj is fn


def name_methods_for_pickle(cls) -> None:
    """Name each method of ``cls`` as NumPy's are pickled: an unbound method by reference,
    as ``<cls's module>.<cls's qualname>.<name>`` (``__module__`` and ``__qualname__``,
    where they do not already name it), a bound one as ``getattr(array, <name>)``
    (``__name__``). ``FastFunc`` objects (the C fast paths) pickle by reference too."""
    if FastFunc is not None:
        copyreg.pickle(FastFunc, _pickled_by_reference)
    for name, member in vars(cls).items():
        fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
        if isinstance(fn, type) or not callable(fn) or not hasattr(fn, "__dict__"):
            continue
        fn.__name__ = name
        if not _resolves(fn):
            fn.__module__, fn.__qualname__ = cls.__module__, f"{cls.__qualname__}.{name}"


def _absent(self, name: str):
    raise AttributeError(f"'xnp.ndarray' of dtype {self.dtype} has no attribute {name!r}")


# NumPy converts an object through __array_struct__ before __array__ (np.asarray(x)):
# these run on every such conversion, so they check as little as they can. NumPy's
# interfaces spell bfloat16/float8 (dtypes NumPy does not build in) as void: those
# arrays, and the arrays of dtypes XLA lacks (HostArray), have neither interface, and
# NumPy converts them with __array__, keeping the dtype.


_REBOUND_ON, _RESOLVE = core._REBOUND_ON, core._RESOLVE


def _stands_for_a_tracer(self) -> bool:
    # a buffer a grad/jvp/vmap function filled with a traced value (tracing/rebound.py):
    # no interface, so NumPy asks __array__, which raises the tracer's conversion error
    return _REBOUND_ON[0] and _RESOLVE[0](self) is not self


def _array_interface(self):
    """NumPy's array interface of the array's memory (``data`` is the pointer of the
    NumPy array it wraps; a ``jit`` output's host view is read-only until written).
    Absent (``AttributeError``) for ``bfloat16``/``float8`` arrays, which NumPy's
    interface cannot describe, and for the dtypes XLA has no type for."""
    v = self._val
    if v is None:
        v = self._value
    if v.dtype.isbuiltin != 1 or _stands_for_a_tracer(self):
        _absent(self, "__array_interface__")
    return v.__array_interface__


def _array_struct(self):
    """NumPy's C-level array interface (a capsule) of the array's memory; absent where
    ``__array_interface__`` is."""
    v = self._val
    if v is None:
        v = self._value
    if v.dtype.isbuiltin != 1 or _stands_for_a_tracer(self):
        _absent(self, "__array_struct__")
    return v.__array_struct__


def _host_interface(name):
    return property(lambda self: _absent(self, name))


def _class_getitem(cls, item):
    """``xnp.ndarray[shape_type, dtype_type]``: a ``types.GenericAlias`` for annotations,
    as ``numpy.ndarray[...]``."""
    return types.GenericAlias(cls, item)


def install() -> None:
    """Register the constructor and subclass hooks and give ``Array`` the protocols."""
    array_base.register_ndarray_hooks(construct, on_subclass, shape_types=[
        np.dtype(c).type for c in np.typecodes["AllInteger"]])
    sig = inspect.signature(construct)
    Array.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    Array.__array_interface__ = property(_array_interface, doc=_array_interface.__doc__)
    Array.__array_struct__ = property(_array_struct, doc=_array_struct.__doc__)
    for name in ("__array_interface__", "__array_struct__"):
        setattr(host_arrays.HostArray, name, _host_interface(name))
    Array.__class_getitem__ = classmethod(_class_getitem)
    Array._like_result = _like_result
    Array.__array_wrap__ = _array_wrap
    Array.__array_finalize__ = _array_finalize
