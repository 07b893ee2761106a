"""``ndarray``'s memory-level surface: ``flags``, ``strides``, ``base``, ``data``,
``ctypes``, ``setflags``, ``flat``, ``resize``, ``byteswap``, ``getfield``/``setfield``,
``tofile``, ``dump``/``dumps``.

An eager ``Array`` wraps a NumPy array (docs/architecture.md, "Eager arrays have
NumPy's semantics"), so these report and act on that array's memory exactly as NumPy does:
``a.flags`` is NumPy's flags object of that memory (``a.flags.writeable = False``
makes later writes raise NumPy's ``ValueError``), ``a[1:].base is a``, ``a.resize``
reallocates in place. An array returned by ``jit`` holds a read-only view of its
device buffer until its first write (copy-on-write); the attributes that expose or
change its memory (``flags``, ``data``, ``ctypes``, ``setflags``, writes) make that
copy first, so they describe the writable array the program sees.

A tracer has no memory: the memory attributes raise ``TracerMemoryError`` (a
``TypeError``) naming the attribute. ``flat`` and ``byteswap`` work on tracers too (writes rebind).
"""

from __future__ import annotations

import gc
import os
import pickle
import sys
import weakref

import numpy as np

from xnp import lax
from xnp.numpy_api import _inplace, _layout, creation, ranges
from xnp.numpy_api.manipulation import reshape
from xnp.tracing import core, errors
from xnp.tracing.avals import SUPPORTED_DTYPES
from xnp.tracing.core import Array, Tracer
from xnp.tracing.host_arrays import HostArray
from xnp.tracing.recording import metadata_function

__all__ = ["TracerMemoryError", "asfortranarray", "flatiter", "install", "isfortran",
           "wrapper_of"]


# ------------------------------------------------------------------ base: the xnp owner

_WRAPPERS: dict = {}  # id(NumPy array) -> weakref to the xnp Array wrapping it


def _forget(key, ref):
    if _WRAPPERS.get(key) is ref:
        del _WRAPPERS[key]


def wrapper_of(value: np.ndarray) -> Array:
    """The xnp ``Array`` whose NumPy array is ``value`` (a new one wrapping it if none is
    alive: ``value`` then came from outside xnp, e.g. ``xnp.asarray`` of a NumPy view)."""
    key = id(value)
    ref = _WRAPPERS.get(key)
    found = ref() if ref is not None else None
    if found is None or found._val is not value:
        found = next((r for r in gc.get_referrers(value)
                      if isinstance(r, Array) and r._val is value), None)
        if found is None:
            found = Array(value) if value.dtype in SUPPORTED_DTYPES else HostArray(value)
        _WRAPPERS[key] = weakref.ref(found, lambda r, k=key: _forget(k, r))
    return found


def _base(self):
    """The array whose memory this one views (NumPy's ``ndarray.base``): the xnp array
    ``self`` was sliced, transposed or reshaped from (NumPy's collapsed base: the owner
    of the memory), a foreign buffer object for ``xnp.frombuffer``, None for an array
    that owns its memory (every fresh result, ``jit`` outputs included)."""
    if self._dev is not None:
        return None  # a jit output: its host view of the device buffer is its own memory
    b = self._value.base
    if isinstance(b, np.ndarray):
        return wrapper_of(b)
    return b


# ------------------------------------------------------------------ flags & co.


def _memory(self):
    """The NumPy array of ``self`` as the program sees it (a jit output's copy-on-write
    view is copied first, so its flags say writeable and owndata, as NumPy's would)."""
    return self._writable_value()


def _flags(self):
    """NumPy's flags object of the array's memory (``numpy.ndarray.flags``):
    ``C_CONTIGUOUS``, ``F_CONTIGUOUS``, ``OWNDATA``, ``WRITEABLE``, ``ALIGNED``,
    ``WRITEBACKIFCOPY`` by item (``a.flags['W']``) or attribute (``a.flags.writeable``).
    Setting ``writeable = False`` makes every later write into the array (and its views)
    raise NumPy's ``ValueError: assignment destination is read-only``."""
    return _memory(self).flags


def _setflags(self, write=None, align=None, uic=None):
    """Set ``WRITEABLE``/``ALIGNED``/``WRITEBACKIFCOPY`` (``numpy.ndarray.setflags``, with
    its errors: ``ValueError`` making a view of read-only memory writeable)."""
    _memory(self).setflags(write=write, align=align, uic=uic)


def _strides(self):
    """Bytes to step in each dimension (``numpy.ndarray.strides``); read-only here."""
    return self._value.strides


def _data(self):
    """A ``memoryview`` of the array's memory (``numpy.ndarray.data``); writes through it
    change the array."""
    return _memory(self).data


def _ctypes(self):
    """NumPy's ``ctypes`` interface object of the array's memory (``data`` pointer,
    ``shape``, ``strides``, ``data_as``...)."""
    return _memory(self).ctypes


def _check_write(self, *values):
    core.check_eager_write(self.aval, *values)
    return _memory(self)


def _host(v):
    """A NumPy value (an xnp array's NumPy array; anything else unchanged)."""
    if type(v) is Array:
        return v._value
    if isinstance(v, tuple):
        return tuple(_host(e) for e in v)
    if isinstance(v, list):
        return [_host(e) for e in v]
    return v


class _Probe:
    def count(self):
        return sys.getrefcount(self)


def _caller_refs() -> int:
    p = _Probe()
    return p.count()


#: references to an object a method sees when its caller alone holds it in a local (the
#: local, the method's argument, getrefcount's: 3 on CPython 3.11; measured, since the
#: interpreter's borrowed references change it between versions)
_CALLER_REFS = _caller_refs()


def _resize(self, *new_shape, refcheck=True):
    """Change the array's shape and size in place (``numpy.ndarray.resize``): new elements
    are zeros; returns None.

    Raises
    ------
    ValueError
        NumPy's: the array does not own its memory (a view), or, with ``refcheck=True``,
        another array views it or another reference holds its memory.
    """
    if not new_shape or new_shape == (None,):
        return None  # NumPy's: no new shape, nothing changes
    v = _check_write(self)
    if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
        new_shape = tuple(new_shape[0])
    self._host_memo = None  # e.g. a device buffer aliasing the old memory
    # references to v: self._val, the local `v`, getrefcount's argument; any other one is
    # a NumPy view or another holder (NumPy's own check counts 2 for its call). To self:
    # the caller's, this call's and getrefcount's; another is a second name or a consumer
    # of its buffer that keeps the array itself (numpy.frombuffer(a), ctypes' from_buffer),
    # which the resize would leave reading freed memory (NumPy checks the array object too)
    if refcheck and v.flags.owndata and (sys.getrefcount(v) > 3 or
                                         sys.getrefcount(self) > _CALLER_REFS):
        raise ValueError("cannot resize an array that references or is referenced\n"
                         "by another object in this way.\nUse the np.resize function to "
                         "get a new resized copy or\n set refcheck=False to disable this "
                         "check")  # NumPy's words
    v.resize(new_shape, refcheck=False)
    self._aval = None  # the cached aval (shape) is stale


def _set_shape(self, shape):
    """``a.shape = new_shape`` (``numpy.ndarray.shape``'s setter): the array sees its memory
    with the new shape, in place, without a copy; other views keep their shapes.

    Raises
    ------
    ValueError
        NumPy's: the new shape has another size.
    AttributeError
        NumPy's: the memory cannot be seen with that shape without a copy (use
        ``reshape``).
    """
    v = _memory(self)
    v.shape = shape  # NumPy's in-place rule and errors
    self._host_memo = None  # e.g. a device buffer aliasing the memory with the old shape
    self._aval = None  # the cached aval (shape) is stale


def _byteswap(self, inplace=False):
    """Swap the bytes of each element (``numpy.ndarray.byteswap``): ``inplace=True``
    swaps the array's memory and returns the array itself, else a new array. The dtype
    is unchanged (the values change). Under ``jit`` the same bits, computed with shifts
    (``inplace=True`` rebinds the traced array)."""
    if type(self) is Array:
        if inplace:
            _check_write(self).byteswap(True)
            return self
        return Array(self._value.byteswap(False), self._weak)
    new = _swapped(self)
    if inplace:
        _inplace.assign(self, new)
        return self
    return new


def _swapped(x):
    """``x`` with the bytes of each element reversed, from lax bit operations."""
    dt = np.dtype(x.dtype)
    if dt.kind == "c":
        return lax.complex(_swapped(lax.real(x)), _swapped(lax.imag(x)))
    if dt.itemsize == 1:
        return lax.copy(x)
    u = np.dtype(f"uint{8 * dt.itemsize}")
    bits = lax.bitcast_convert_type(x, u) if dt.kind != "u" else x
    out = None
    for i in range(dt.itemsize):  # byte i moves to byte itemsize-1-i
        byte = lax.and_(lax.shift_right_logical(bits, u.type(8 * i)), u.type(0xFF))
        moved = lax.shift_left(byte, u.type(8 * (dt.itemsize - 1 - i)))
        out = moved if out is None else lax.or_(out, moved)
    return lax.bitcast_convert_type(out, dt) if dt.kind != "u" else out


def _getfield(self, dtype, offset=0):
    """The elements' bytes from ``offset`` read as ``dtype`` (``numpy.ndarray.getfield``):
    a view, writes through it reach this array."""
    return Array(_memory(self).getfield(dtype, offset))


def _setfield(self, val, dtype, offset=0):
    """Write ``val`` as ``dtype`` into the elements' bytes at ``offset``
    (``numpy.ndarray.setfield``); returns None."""
    memory = _check_write(self, val)
    memory.setfield(np.asarray(_host(val)), dtype, offset)


def _tofile(self, fid, sep="", format="%s"):
    """Write the array to a file or path, binary (``sep=""``) or as text
    (``numpy.ndarray.tofile``; read back with ``xnp.fromfile``)."""
    self._value.tofile(fid, sep, format)


def _dumps(self):
    """The pickle of the array (``numpy.ndarray.dumps``; ``pickle.loads`` gives an xnp
    array back)."""
    return pickle.dumps(self, protocol=2)


def _dump(self, file):
    """Pickle the array to ``file``, a path or a binary file object
    (``numpy.ndarray.dump``; ``pickle.load`` gives an xnp array back)."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


# ------------------------------------------------------------------ flat


class flatiter:
    """``a.flat``: a flat iterator over ``a`` in C order (``numpy.flatiter``).

    Iteration yields 0-d arrays; ``flat[i]``, ``flat[start:stop:step]``,
    ``flat[int_or_bool_array]`` index the flattened array (always a copy, as NumPy);
    ``flat[idx] = value`` writes into ``a`` (values repeated cyclically, as NumPy), in
    place eagerly and by rebinding a tracer. ``base`` is ``a``; ``index`` the next flat
    position; ``coords`` its N-d index; ``copy()`` a flattened copy.
    """

    __slots__ = ("_base", "_index", "__weakref__")

    def __init__(self, *args, **kwargs):
        raise TypeError("cannot create 'xnp.flatiter' instances: use `a.flat`")

    @classmethod
    def of(cls, base) -> flatiter:
        """The flat iterator of ``base`` (what ``base.flat`` gives)."""
        it = object.__new__(cls)
        it._base = base
        it._index = 0
        return it

    @property
    def base(self):
        return self._base

    @property
    def index(self) -> int:
        return self._index

    @property
    def coords(self) -> tuple:
        shape = self._base.shape
        if self._index >= max(1, _size(shape)) and shape:
            return tuple(shape[:1]) + (0,) * (len(shape) - 1)  # NumPy's past-the-end coords
        return tuple(int(i) for i in np.unravel_index(self._index, shape))

    def __len__(self):
        return _size(self._base.shape)

    def __iter__(self):
        return self

    def __next__(self):
        shape = self._base.shape
        if self._index >= _size(shape):
            raise StopIteration
        idx = np.unravel_index(self._index, shape)
        self._index += 1
        return self._base[tuple(int(i) for i in idx)]

    def _flat(self):
        return reshape(self._base, (-1,), copy=True)

    def __getitem__(self, idx):
        b = self._base
        if type(b) is Array and not _holds_tracer(idx):
            out = b._value.flat[_host(idx)]
            # one element is NumPy's scalar, as NumPy's flatiter gives (README, "Scalars")
            return out if isinstance(out, np.generic) else Array(np.asarray(out), b._weak)
        return self._flat()[idx]

    def __setitem__(self, idx, value):
        b = self._base
        if type(b) is Array:
            memory = _check_write(b, idx, value)
            memory.flat[_host(idx)] = np.asarray(
                _inplace.python_values(_host(value), memory.dtype))
            return
        size = _size(b.shape)
        where = ranges.arange(size)[idx]
        count = int(np.prod(core.aval_of(where).shape))
        vals = _inplace.cycled("ndarray.flat", value, count, b.dtype)
        if vals is None:
            return
        new = self._flat().at[where.reshape(-1)].set(vals)
        _inplace.assign(b, new.reshape(b.shape))

    def copy(self):
        """The flattened array, a copy."""
        return self._flat()

    def __array__(self, dtype=None, copy=None):
        out = np.asarray(self._base).reshape(-1)
        return out if dtype is None else out.astype(dtype)

    def __repr__(self):
        return f"<xnp.flatiter over {errors.aval_str(core.aval_of(self._base))}>"


def _size(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _holds_tracer(x) -> bool:
    if isinstance(x, Tracer):
        return True
    return isinstance(x, (tuple, list)) and any(_holds_tracer(e) for e in x)


def _flat_get(self):
    return flatiter.of(self)


def _flat_set(self, value):
    flatiter.of(self)[...] = value


# ------------------------------------------------------------------ install


class TracerMemoryError(errors.XnpTypeError):
    """A memory attribute (``flags``, ``strides``, ``base``, ``data``, ``ctypes``,
    ``resize``, ...) of a traced array, which has no memory (a ``TypeError``, as the
    tracers' other concrete-only members raise)."""


def eager_only(name: str, why: str, *, prop: bool):
    """A property/method for ``Tracer`` raising :class:`TracerMemoryError`:
    ``ndarray.<name>`` exists on eager arrays only (``why``)."""
    def fail(self, *args, **kwargs):
        raise TracerMemoryError(
            f"xnp.ndarray.{name}: not available on a traced array "
            f"({errors.aval_str(self.aval)}): {why}. Use it on an eager array, outside "
            "jit/vmap/grad.")

    fail.__name__ = name
    return property(fail) if prop else fail


_NO_MEMORY = "a traced array has no memory of its own (its value exists only when the " \
             "transformed function runs)"
_NO_WRITE = "it changes an eager array's memory in place; a traced array has none"


def install() -> None:
    """Give ``Array`` the memory attributes and ``Tracer`` their ``TypeError`` stand-ins
    (``flat`` works on both)."""
    props = {"flags": _flags, "strides": _strides, "base": _base, "data": _data,
             "ctypes": _ctypes}
    methods = {"setflags": _setflags, "resize": _resize, "getfield": _getfield,
               "setfield": _setfield, "tofile": _tofile, "dump": _dump, "dumps": _dumps}
    for name, fn in props.items():
        setattr(Array, name, property(fn, doc=fn.__doc__))
        setattr(Tracer, name, eager_only(name, _NO_MEMORY, prop=True))
    for name, fn in methods.items():
        fn.__name__ = name
        setattr(Array, name, fn)
        why = _NO_WRITE if name in ("setflags", "resize", "setfield") else _NO_MEMORY
        setattr(Tracer, name, eager_only(name, why, prop=False))
    Array.shape = property(Array.shape.fget, _set_shape, doc=_set_shape.__doc__)
    Tracer.shape = property(Tracer.shape.fget, eager_only(
        "shape (assignment)", _NO_WRITE + "; use reshape", prop=True).fget)
    _byteswap.__name__ = "byteswap"
    Array.byteswap = Tracer.byteswap = _byteswap
    flat = property(_flat_get, _flat_set, doc=flatiter.__doc__)
    Array.flat = flat
    Tracer.flat = flat


# ------------------------------------------------------------------ Fortran order


def asfortranarray(a, dtype=None, *, like=None):
    """``a`` as an array laid out in Fortran (column-major) order (``numpy.asfortranarray``):
    ``a`` itself when it already is (and has ``dtype``), else a Fortran-ordered copy. At
    least 1-D, as NumPy's.

    Eagerly the result's memory is column-major (``flags.f_contiguous``, ``strides``);
    under ``jit`` the values are the same and the layout is recorded for NumPy's
    view-or-copy rule of later reshapes.

    Raises
    ------
    NotImplementedError
        ``like`` given.
    """
    if like is not None:
        raise NotImplementedError("xnp.asfortranarray: `like=` is not supported")
    x = creation.asarray(a, dtype=dtype)
    if x.ndim == 0:
        x = reshape(x, (1,))
    return _layout.with_order(x, "F")


@metadata_function
def isfortran(a):
    """Whether ``a`` is Fortran-contiguous and not also C-contiguous
    (``numpy.isfortran``: False for 1-D arrays).

    Raises
    ------
    TypeError
        ``a`` is a traced array whose memory layout the trace does not know (a ``jit``
        argument).
    """
    if isinstance(a, Tracer) and _layout.layout(a) is None:
        raise TypeError(f"xnp.isfortran: the memory layout of the traced array "
                        f"({errors.aval_str(a.aval)}) is not known while tracing")
    if type(a) is Array:  # (its strides: part of a call's signature, read unwatched)
        v = a._v
        return bool((a._value if v is None else v).flags.fnc)
    if isinstance(a, Tracer):
        return _layout.fortran_only(a)
    return np.isfortran(np.asarray(a))
