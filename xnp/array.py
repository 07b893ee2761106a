"""The ``Array`` type's operators, methods and NumPy protocols.

The value containers themselves live in :mod:`xnp.tracing.core` (``Array`` for
eager values, ``Tracer`` for traced ones); this module gives both the same
NumPy-style surface, written on :mod:`xnp.numpy_api`. Eager arrays have
NumPy's semantics (in-place operators write into the array; basic slices are
views). On a tracer, ``x[idx] = v`` and ``x += y`` write the updated value into the
tracer's cell, a ref (docs/architecture.md, "In-place updates and views").
"""

from __future__ import annotations

import builtins
import functools
import math
import sys

import numpy as np

from xnp import lax
from xnp import numpy_api as _api
from xnp import _array_export as _export
from xnp import host_dispatch, ndarray_class, numpy_protocols
from xnp._array_api_info import CPU_DEVICE, check_api_version
from xnp.numpy_api import (_fast_getitem, _fastpath as fastpath, _replay, _scalars,
                           ndarray_internals)
from xnp.numpy_api._inplace import operator_method as _operator_method
from xnp.numpy_api.logic import set_part as _set_part
from xnp.numpy_api._util import cast_may_warn
from xnp.tracing import core, errors, host_arrays
from xnp.tracing.fp_warnings import at_user_line
from xnp.tracing.core import Array, Tracer
from xnp.tracing.state import RefAval as _RefAval

__all__ = ["Array", "ArrayMethods"]


def _view_resized(x, old: np.dtype, new: np.dtype):
    """``x.view(new)`` for another itemsize: the last axis resized (NumPy's rule). Eagerly
    NumPy's own view of the memory (its errors, e.g. for a non-contiguous last axis)."""
    if type(x) is Array:
        return Array(x._writable_value().view(new))
    shape = x.shape
    if not shape:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize "
                         "is unchanged")
    nbytes = shape[-1] * old.itemsize
    if new.itemsize < old.itemsize:
        y = lax.bitcast_convert_type(x, new)
        return _api.reshape(y, shape[:-1] + (nbytes // new.itemsize,))
    if nbytes % new.itemsize:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the "
                         "total size in bytes of the last axis of the array.")
    ratio = new.itemsize // old.itemsize
    return lax.bitcast_convert_type(_api.reshape(x, shape[:-1] + (shape[-1] // ratio, ratio)),
                                    new)


class ArrayMethods:
    """Operators and methods shared by eager arrays and tracers."""

    __slots__ = ()

    # -- arithmetic
    def __add__(self, o):
        return _api.add(self, o)

    def __radd__(self, o):
        return _api.add(o, self)

    def __sub__(self, o):
        return _api.subtract(self, o)

    def __rsub__(self, o):
        return _api.subtract(o, self)

    def __mul__(self, o):
        return _api.multiply(self, o)

    def __rmul__(self, o):
        return _api.multiply(o, self)

    def __truediv__(self, o):
        return _api.true_divide(self, o)

    def __rtruediv__(self, o):
        return _api.true_divide(o, self)

    def __floordiv__(self, o):
        return _api.floor_divide(self, o)

    def __rfloordiv__(self, o):
        return _api.floor_divide(o, self)

    def __mod__(self, o):
        return _api.remainder(self, o)

    def __rmod__(self, o):
        return _api.remainder(o, self)

    def __divmod__(self, o):
        return _api.divmod(self, o)

    def __rdivmod__(self, o):
        return _api.divmod(o, self)

    def __pow__(self, o):
        return _api.elementwise._power_operator(self, o)

    def __rpow__(self, o):
        return _api.power(o, self)

    def __matmul__(self, o):
        return _api.matmul(self, o)

    def __rmatmul__(self, o):
        return _api.matmul(o, self)

    def __neg__(self):
        return _api.negative(self)

    def __pos__(self):
        return _api.positive(self)

    def __abs__(self):
        return _api.absolute(self)

    def __invert__(self):
        return _api.invert(self)

    # -- bitwise / logical
    def __and__(self, o):
        return _api.bitwise_and(self, o)

    def __rand__(self, o):
        return _api.bitwise_and(o, self)

    def __or__(self, o):
        return _api.bitwise_or(self, o)

    def __ror__(self, o):
        return _api.bitwise_or(o, self)

    def __xor__(self, o):
        return _api.bitwise_xor(self, o)

    def __rxor__(self, o):
        return _api.bitwise_xor(o, self)

    def __lshift__(self, o):
        return _api.left_shift(self, o)

    def __rlshift__(self, o):
        return _api.left_shift(o, self)

    def __rshift__(self, o):
        return _api.right_shift(self, o)

    def __rrshift__(self, o):
        return _api.right_shift(o, self)

    # -- comparisons
    def __eq__(self, o):
        if o is None:  # as NumPy: no element equals None (staged as a constant under jit)
            return _api.zeros_like(self, dtype=np.bool_)
        return _api.equal(self, o)

    def __ne__(self, o):
        if o is None:
            return _api.ones_like(self, dtype=np.bool_)
        return _api.not_equal(self, o)

    def __lt__(self, o):
        return _api.less(self, o)

    def __le__(self, o):
        return _api.less_equal(self, o)

    def __gt__(self, o):
        return _api.greater(self, o)

    def __ge__(self, o):
        return _api.greater_equal(self, o)

    # -- in place (NumPy semantics eagerly; rebinding on tracers)
    __iadd__ = _operator_method("add", lambda a, b: _api.add(a, b))
    __isub__ = _operator_method("subtract", lambda a, b: _api.subtract(a, b))
    __imul__ = _operator_method("multiply", lambda a, b: _api.multiply(a, b))
    __itruediv__ = _operator_method("divide", lambda a, b: _api.true_divide(a, b))
    __ifloordiv__ = _operator_method("floor_divide", lambda a, b: _api.floor_divide(a, b))
    __imod__ = _operator_method("remainder", lambda a, b: _api.remainder(a, b))
    __ipow__ = _operator_method("power", lambda a, b: _api.elementwise._power_operator(a, b))
    __imatmul__ = _operator_method("matmul", lambda a, b: _api.matmul(a, b))
    __iand__ = _operator_method("bitwise_and", lambda a, b: _api.bitwise_and(a, b))
    __ior__ = _operator_method("bitwise_or", lambda a, b: _api.bitwise_or(a, b))
    __ixor__ = _operator_method("bitwise_xor", lambda a, b: _api.bitwise_xor(a, b))
    __ilshift__ = _operator_method("left_shift", lambda a, b: _api.left_shift(a, b))
    __irshift__ = _operator_method("right_shift", lambda a, b: _api.right_shift(a, b))

    # -- indexing
    def __getitem__(self, idx):
        if self.aval.__class__ is _RefAval:  # a staged ref (xnp.lax.new_ref): read it
            return lax.ref_get(self, idx)
        return _api.indexing.getitem(self, idx)

    def __setitem__(self, idx, value):
        if self.aval.__class__ is _RefAval:
            lax.ref_set(self, idx, value)
            return
        _api.indexing.setitem(self, idx, value)

    @property
    def at(self):
        """``x.at[idx].set(v)`` / ``.add/.multiply/.min/.max/.get``: functional updates (as in JAX)."""
        return _api.indexing.AtIndexer(self)

    # -- methods
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        order = "K" if order is None else order  # NumPy: None is the method's default
        return _api.creation.ndarray_astype(self, dtype, order, casting, subok, copy)

    def view(self, dtype=None, type=None):
        """The same data, possibly reinterpreted as another dtype (``numpy.ndarray.view``).

        No ``dtype`` (or the array's own): ``self[...]`` (eagerly a view sharing memory).
        A real (integer/float) ``dtype``: the bits reinterpreted with
        ``lax.bitcast_convert_type``; another itemsize resizes the last axis as NumPy's
        (``uint16[3]`` as ``uint8`` is ``uint8[6]``). Eagerly the result shares memory, as
        NumPy's view; under ``jit`` it is a new value (writes to it do not reach ``self``).

        ``type`` (or a subclass of ``xnp.ndarray`` given as ``dtype``) views the memory as
        an instance of that class, ``__array_finalize__(self)`` called, as NumPy's view
        casting (:mod:`xnp.ndarray_class`); a subclass's instance keeps its type.

        Raises
        ------
        ValueError
            NumPy's, for another itemsize: a 0-d array, or a last axis whose size in bytes
            the new itemsize does not divide.
        NotImplementedError
            A bool/complex source or target dtype (``lax.bitcast_convert_type`` handles
            integer and float types only).
        TypeError
            ``type`` is not ``xnp.ndarray`` or a subclass of it, or it is a subclass and
            the array is traced (subclasses' instances are eager arrays).
        """
        if type is not None or getattr(self, "_user_subclass", False) or (
                isinstance(dtype, builtins.type) and issubclass(dtype, (Array, np.ndarray))):
            return ndarray_class.view_as_type(self, dtype, type)  # view casting
        old = np.dtype(self.dtype)
        new = old if dtype is None else np.dtype(dtype)
        if new == old:
            return self[...]
        if old.kind in "bc" or new.kind in "bc":
            raise NotImplementedError(
                f"xnp.Array.view: viewing {old} as {new} is not supported (bool and complex "
                "bit reinterpretation); use astype or real/imag.")
        if new.itemsize == old.itemsize:
            return lax.bitcast_convert_type(self, new)
        return _view_resized(self, old, new)

    def reshape(self, *shape, order="C", copy=None):
        """``xnp.reshape(self, shape, order, copy=copy)`` (``numpy.ndarray.reshape``): the
        shape as one tuple or as ints; ``copy=False`` raises ``ValueError`` when NumPy
        would have to copy.

        Raises
        ------
        TypeError
            No shape given (NumPy's message).
        """
        if not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list, range)):
            shape = tuple(shape[0])
        elif len(shape) == 1 and shape[0] is None:  # NumPy's: the array's own shape
            shape = None
        return _api.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes):
        """``xnp.transpose(self, axes)`` (``numpy.ndarray.transpose``): no axes, None or
        one tuple/list of them reverses the axes or permutes them; the axes as ints too;
        an empty tuple is the permutation of a 0-d array."""
        if not axes:
            return _api.transpose(self)
        if len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
            axes = axes[0]
        return _api.transpose(self, axes)

    @property
    def T(self):
        return _api.transpose(self)

    @property
    def mT(self):
        return _api.matrix_transpose(self)

    def flatten(self, order="C"):
        return _api.copy(_api.ravel(self, order=order), order="C")  # always a copy, as NumPy

    def ravel(self, order="C"):
        return _api.ravel(self, order=order)

    def squeeze(self, axis=None):
        return _api.squeeze(self, axis)

    # NumPy's functions whose parameters after the array are the method's, in the same
    # order: the method is the function itself, so an eager call takes its fast path
    # directly (the function's docstring describes ``self`` as its first argument)
    sum = _api.sum
    prod = _api.prod
    mean = _api.mean
    max = _api.max
    min = _api.min
    all = _api.all
    any = _api.any
    dot = _api.dot

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _api.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _api.argmin(self, axis, out, keepdims=keepdims)

    def clip(self, min=None, max=None, out=None, **kwargs):  # noqa: A002
        """``xnp.clip`` of the array with the bounds ``min``/``max``, as ``ndarray.clip``
        (either may be given alone; NumPy's method takes no ``a_min``/``a_max``)."""
        for name in ("a_min", "a_max"):
            if name in kwargs:
                raise TypeError(f"ndarray.clip() got an unexpected keyword argument "
                                f"'{name}' (the method's bounds are min and max)")
        return _api.clip(self, min=min, max=max, out=out, **kwargs)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Sort in place (eagerly) / rebind (traced), as ``ndarray.sort``."""
        res = _api.sort(self, axis=axis, kind=kind, order=order, stable=stable)
        self[...] = res

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return _api.argsort(self, axis=axis, kind=kind, order=order, stable=stable)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _api.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _api.cumprod(self, axis, dtype, out)

    def searchsorted(self, v, side="left", sorter=None):
        return _api.searchsorted(self, v, side, sorter)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """Partition in place (eagerly) / rebind (traced), as ``ndarray.partition``: along
        one axis (``axis=None`` is ``TypeError``, as NumPy's; ``xnp.partition`` takes it)."""
        if axis is None:
            raise TypeError("xnp.ndarray.partition: `axis` must be an integer, not None (it "
                            "partitions in place; xnp.partition(a, kth, axis=None) flattens)")
        self[...] = _api.partition(self, kth, axis, kind, order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return _api.argpartition(self, kth, axis, kind, order)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
            mean=None):
        """``xnp.var`` of the array, as ``ndarray.var``: no ``correction`` keyword (that is
        the function's Array API spelling; NumPy's method raises ``TypeError`` for it)."""
        return _api.var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
            mean=None):
        """``xnp.std`` of the array, as ``ndarray.std``: no ``correction`` keyword (that is
        the function's Array API spelling; NumPy's method raises ``TypeError`` for it)."""
        return _api.std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)

    def round(self, decimals=0, out=None):
        return _api.round(self, decimals, out)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return _api.take(self, indices, axis, out, mode)

    def compress(self, condition, axis=None, out=None):
        return _api.compress(condition, self, axis, out)

    def nonzero(self):
        return _api.nonzero(self)

    def repeat(self, repeats, axis=None):
        return _api.repeat(self, repeats, axis)

    def swapaxes(self, axis1, axis2):
        return _api.swapaxes(self, axis1, axis2)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _api.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return _api.trace(self, offset, axis1, axis2, dtype, out)

    def choose(self, choices, out=None, mode="raise"):
        return _api.choose(self, choices, out, mode)

    def put(self, indices, values, mode="raise"):
        """Write ``values`` at the flat ``indices`` in place, as ``ndarray.put``."""
        _api.put(self, indices, values, mode)

    def fill(self, value):
        """Set every element to ``value`` in place (eagerly) / rebind (traced); a cast's
        floating-point warning names the caller's line, as NumPy's."""
        if type(self) is Array and cast_may_warn(self.dtype, value):
            at_user_line(self.__setitem__, Ellipsis, value)
        else:
            self[...] = value

    def copy(self, order="C"):
        # NumPy: None is the method's default, 'C' (``numpy.copy``'s is 'K')
        return _api.copy(self, order="C" if order is None else order)

    def conj(self):  # a bool, integer or float array itself, as ndarray.conj
        return self if self.dtype.kind in "biuf" else _api.conjugate(self)

    def conjugate(self):
        return self if self.dtype.kind in "biuf" else _api.conjugate(self)

    @property
    def real(self):
        return _api.real(self)

    @real.setter
    def real(self, value):  # a.real = v, and the store of a.real += v
        _set_part(_api.real(self), value)

    @property
    def imag(self):
        return _api.imag(self)

    @imag.setter
    def imag(self, value):
        if self.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        _set_part(_api.imag(self), value)

    def __round__(self, ndigits=None):
        if ndigits is None:
            return round(float(self))
        return _api.round(self, ndigits)

    def __array_namespace__(self, *, api_version=None):
        """The Array API namespace of this array: ``xnp.array_api`` (the standard's
        names and rules, xnp's functions), not ``xnp``, whose functions follow NumPy.

        ``api_version`` (a string such as "2024.12") is checked against the
        versions xnp implements (``xnp.config.ARRAY_API_VERSIONS``); ``ValueError``
        for any other value.
        """
        check_api_version("xnp.Array.__array_namespace__", api_version)
        return _namespace().array_api


# ------------------------------------------------------------------ eager-only protocols


def _repr(self):
    # NumPy's: array([0, 1, 4]), array([1., 2.], dtype=float32), array(5) (where NumPy
    # returns a scalar, so does xnp: numpy_api._scalars)
    try:
        v = self._value
    except RuntimeError as e:  # donated, or parts of it live only in other processes
        return _unreadable_repr(self, e)
    if self._user_subclass:
        return ndarray_class.subclass_repr(self)
    return repr(v)


def _str(self):
    try:
        return str(self._value)
    except RuntimeError as e:
        return _unreadable_repr(self, e)


def _unreadable_repr(self, error) -> str:
    a = core.aval_of(self)
    if isinstance(error, errors.DonatedArrayError):
        return f"Array(shape={a.shape}, dtype={np.dtype(a.dtype).name}, donated)"
    return (f"Array(shape={a.shape}, dtype={np.dtype(a.dtype).name}, sharding={self.sharding}"
            ", not fully held by this process)")


def _format(self, spec):
    return format(self._value, spec)  # NumPy's: a 0-d array formats its item, as a scalar


def _nbytes(self):
    return self._value.nbytes


def _itemsize(self):
    return self.dtype.itemsize


def _len(self):
    v = self._value
    if v.ndim == 0:
        raise TypeError("len() of unsized object")
    return len(v)


def _contains(self, value):
    # NumPy's: (self == value).any(), so a 2-d array finds an element and a 0-d one works
    return bool(_api.any(self == value))


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _bool(self):
    return bool(self._value)


def _int(self):
    return int(self._value)


def _float(self):
    return float(self._value)


def _complex(self):
    return complex(self._value)


def _index(self):
    v = self._value
    if v.ndim != 0 or v.dtype.kind not in "iu":  # as NumPy's: a bool is no index
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return int(v)


def _scalar_or_array(self):
    v = self._value
    return v[()] if v.ndim == 0 else v


def _floor(self):
    return math.floor(_scalar_or_array(self))


def _ceil(self):
    return math.ceil(_scalar_or_array(self))


def _trunc(self):
    return math.trunc(_scalar_or_array(self))


def _round(self, ndigits=None):
    v = self._value
    if ndigits is None:
        return round(v[()] if v.ndim == 0 else v)
    if v.ndim == 0:  # the NumPy scalar's rounding (and its errors), as a 0-d array
        return Array(np.asarray(round(v[()], ndigits)))
    return _api.round(self, ndigits)


def _item(self, *args):
    return self._value.item(*args)


def _tolist(self):
    return self._value.tolist()


def _reduce(self):
    return (_rebuild, (np.array(self._value), self._weak))


def _rebuild(value, weak):
    return Array(value, weak)


def _device(self):
    """The array's device: ``cpu:0`` (``CPU_DEVICE``) for host arrays and arrays on device
    0, the device of an array placed on another one (``xnp.device_put(x, devices()[1])``),
    and — as JAX — the sharding of an array split over several devices. A tracer's value
    will live where jit compiles, device 0."""
    if getattr(self, "_dev", None) is None:  # a host array or a tracer
        return CPU_DEVICE
    from xnp import sharding  # noqa: PLC0415  (imports the XLA backend)

    s = sharding.sharding_of(self)
    devices = s.device_set
    if len(devices) != 1:
        return s
    (dev,) = devices
    return CPU_DEVICE if dev == CPU_DEVICE else dev


def _to_device(self, device, /, *, stream=None):
    """The array on ``device`` (``"cpu"``/``cpu:0`` or a device from ``xnp.devices()``):
    itself when it is there, else a copy placed there (``xnp.device_put``).

    Raises
    ------
    ValueError
        ``device`` is not one of ``xnp.devices()``.
    """
    if device == CPU_DEVICE and _device(self) == CPU_DEVICE:
        return self
    from xnp import sharding  # noqa: PLC0415

    target = next((d for d in sharding.devices()
                   if d == device or (d == CPU_DEVICE and CPU_DEVICE == device)), None)
    if target is None:
        raise ValueError(f"xnp.Array.to_device: unknown device {device!r}; the devices are "
                         f"{sharding.devices()}")
    return self if _device(self) == target else sharding.device_put(self, target)


def _namespace():
    """The ``xnp`` package, the namespace of these arrays. It is this module's own
    package, which Python initialises before any of its submodules, so it is looked up
    (at call time, when it is complete) rather than imported."""
    return sys.modules[__package__]


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: ``np.sin(x)``, ``np.add(x, y, out=z)``, ``np.add.at(x, i, 1)`` run xnp's
    ufunc (:mod:`xnp.numpy_protocols`); its floating-point warnings name the caller's
    line, as NumPy's."""
    return at_user_line(numpy_protocols.array_ufunc, _namespace(), ufunc, method, inputs,
                        kwargs)


def _array_function(self, func, types, args, kwargs):
    """NEP 18: ``np.concatenate``, ``np.mean``, ``np.linalg.norm`` ... run xnp's function of
    the same name (:mod:`xnp.numpy_protocols`); its floating-point warnings name the
    caller's line, as NumPy's."""
    return at_user_line(numpy_protocols.array_function, _namespace(), func, types, args,
                        kwargs)


# eager operators that skip the dispatch layers when they can (xnp.numpy_api._fastpath)
_FAST_BINARY_OPERATORS = {name: fast for name, fast in fastpath.OPERATOR_OPS.items()
                          if name not in ("__neg__", "__abs__")}


_BINARY_OPERATORS = tuple(sorted(host_dispatch.UFUNC_OPERATORS | {"__matmul__", "__rmatmul__"}))


def _sharding(self):
    """The array's layout on the devices (an ``xnp.sharding.Sharding``): the one given to
    ``xnp.device_put`` or ``jit(..., out_shardings=)``, the one XLA chose for another
    output of a sharded program, else ``SingleDeviceSharding`` of device 0."""
    from xnp import sharding  # noqa: PLC0415  (imports the XLA backend)

    return sharding.sharding_of(self)


def _addressable_shards(self):
    """One ``xnp.sharding.Shard`` per device holding part of the array (``device``,
    ``index``: tuple of slices, ``data``: the part as an xnp array)."""
    from xnp import sharding  # noqa: PLC0415

    return sharding.addressable_shards(self)


# the eager protocols that read an array's value into Python or NumPy: on an array that
# stands for a traced value (a buffer a grad/jvp/vmap function filled with one,
# tracing/rebound.py) they are the tracer's, which raise the tracer's conversion error
_CONCRETE_READS = ("__array__", "__bool__", "__contains__", "__int__", "__float__",
                   "__complex__", "__index__", "item", "tolist", "tobytes", "__floor__", "__ceil__",
                   "__trunc__", "__round__", "__dlpack__", "__bytes__", "_buffer_memory")


_PYTHON_READS = {"__contains__": lambda t, v: bool((t == v).any()),  # bool() of a tracer
                 "__floor__": math.floor, "__ceil__": math.ceil, "__trunc__": math.trunc,
                 "__round__": round, "__bytes__": bytes,
                 "_buffer_memory": lambda t, flags: np.asarray(t)}  # the tracer's error


def _concrete_read(name, fn):
    rebound_on, resolve = core._REBOUND_ON, core._RESOLVE

    @functools.wraps(fn)
    def read(self, *args, **kwargs):
        if rebound_on[0]:
            t = resolve[0](self)
            if t is not self:
                method = getattr(type(t), name, None)
                if method is None:  # math.floor and the like of a tracer: its float()
                    return _PYTHON_READS[name](t, *args, **kwargs)
                return method(t, *args, **kwargs)
        return fn(self, *args, **kwargs)

    return read


#: the eager-only protocols of ``Array`` (tracers have none of them but ``device`` and
#: ``to_device``): name -> function or property, set by :func:`install`
EAGER_PROTOCOLS = {
    "__repr__": _repr, "__str__": _str, "__format__": _format,
    "nbytes": property(_nbytes), "itemsize": property(_itemsize), "__array__": _export.array,
    "__len__": _len, "__iter__": _iter, "__contains__": _contains, "__bool__": _bool,
    "__int__": _int, "__float__": _float,
    "__complex__": _complex, "__index__": _index, "__hash__": None, "item": _item,
    "__floor__": _floor, "__ceil__": _ceil, "__trunc__": _trunc, "__round__": _round,
    "__array_ufunc__": _array_ufunc, "__array_function__": _array_function,
    "tolist": _tolist, "tobytes": _export.tobytes, "__bytes__": _export.to_bytes,
    "_buffer_memory": _export.buffer_memory, "__dlpack__": _export.dlpack,
    "__dlpack_device__": _export.dlpack_device, "__reduce__": _reduce,
    "device": property(_device), "to_device": _to_device,
    "sharding": property(_sharding), "addressable_shards": property(_addressable_shards),
}

_NOT_SHARED = frozenset(("__module__", "__qualname__", "__doc__", "__slots__", "__dict__",
                         "__weakref__"))  # class machinery of ArrayMethods, not shared


def shared_members() -> dict:
    """The operators, methods and properties of ``ArrayMethods`` that :func:`install`
    gives both ``Array`` and ``Tracer``: name -> member."""
    return {n: m for n, m in vars(ArrayMethods).items() if n not in _NOT_SHARED}


def install() -> None:
    """Give ``Array`` and ``Tracer`` the shared methods (:func:`shared_members`), and
    ``Array`` its eager protocols (:data:`EAGER_PROTOCOLS`), then the fast paths of its hot
    operators; run once, by ``xnp._wiring.connect``.

    This is the one place the two classes get their behaviour: they are defined in
    ``xnp.tracing.core``, below the NumPy surface these methods are written on, so they
    cannot inherit it. ``tests/meta/test_wiring.py`` checks that every member of both
    tables is on its class after ``import xnp`` (as is, or wrapped by a fast path or the
    host-dtype dispatch, whose ``__wrapped__`` leads back to it)."""
    # the eager array class is NumPy's ndarray to its users: `type(a).__name__`,
    # `repr(type(a))` (<class 'xnp.ndarray'>) and pickling name xnp.ndarray (is Array)
    Array.__name__ = Array.__qualname__ = "ndarray"
    Array.__module__ = "xnp"
    host_arrays.HostArray.__name__ = "ndarray"  # strings, dates, ...: NumPy's name too
    for cls in (Array, Tracer):
        for name, member in shared_members().items():
            setattr(cls, name, member)
    for name, fn in EAGER_PROTOCOLS.items():
        if name in _CONCRETE_READS:
            fn = _concrete_read(name, fn)
        setattr(Array, name, fn)
    Tracer.device = property(_device)
    Tracer.to_device = _to_device
    # eager binary operators defer to operands that override NumPy's ufuncs (Dask's
    # arrays, ...) as NumPy's operators do; tracers take no part in NumPy's dispatch
    for name in _BINARY_OPERATORS:
        setattr(Array, name, numpy_protocols.binary_operator(getattr(ArrayMethods, name)))
    for name, (fname, swap) in _FAST_BINARY_OPERATORS.items():
        setattr(Array, name, fastpath.binary(fname, swap=swap)(getattr(Array, name)))
    for name, fname in (("__neg__", "negative"), ("__abs__", "absolute")):
        setattr(Array, name, fastpath.unary(fname)(getattr(ArrayMethods, name)))
    for name, fname in fastpath.INPLACE_OPS.items():  # a += b: add(a, b, out=a), in C
        setattr(Array, name, fastpath.inplace(fname)(getattr(ArrayMethods, name)))
    Array.__getitem__ = _fast_getitem.getitem(_scalars.scalar_getitem(ArrayMethods.__getitem__))
    Array.__setitem__ = _fast_getitem.setitem(ArrayMethods.__setitem__)
    Array.T = property(fastpath.transpose_property(ArrayMethods.T.fget))
    for name, served in (("reshape", fastpath.reshape_method),
                         ("transpose", fastpath.transpose_method)):  # (the methods)
        setattr(Array, name, served(getattr(ArrayMethods, name)))
    # the metadata read from the host value in C (core.Array's properties: the fallback)
    for name in ("shape", "dtype", "ndim", "size"):
        setattr(Array, name, property(fastpath.metadata(name, core.Array.__dict__[name].fget)))
    Array.__len__ = fastpath.metadata("__len__", _len)
    # the complex parts read through the eager dispatch cache, as xnp.real/imag are (a
    # property is not among the methods host_dispatch.install_array_methods caches)
    for name in ("real", "imag"):
        prop = Array.__dict__[name]
        setattr(Array, name, property(_replay.cached(prop.fget), prop.fset, None, prop.__doc__))
    ndarray_internals.install()
    ndarray_class.install()
    Tracer.__hash__ = core.Tracer.__dict__["__hash__"]  # restored: __eq__ assignment unsets it
    # arrays of dtypes XLA lacks: NumPy's methods; and numeric arrays' methods run NumPy's
    # when an argument is of such a dtype (x == "a", x.astype(str)), fast paths kept
    host_arrays.install_methods(dir(Array))
    host_dispatch.install_array_methods(list(vars(ArrayMethods)))
    # last, over the final fast paths: the arithmetic operators in C where it is built
    fastpath.install_native_operators(Array, {n: _FAST_BINARY_OPERATORS[n][0]
                                              for n in fastpath.NATIVE_OPERATORS})
    # NumPy's scalar results of the reducing methods (xnp/__init__.py's call of it then
    # finds them done), so that the methods are final here and get their pickle names
    _scalars.install_methods(Array)
    for cls in (Array, host_arrays.HostArray):
        ndarray_class.name_methods_for_pickle(cls)
