"""Array creation: ``array``/``asarray`` conversion, filled arrays (``zeros``, ``full``,
``*_like``), ``eye``/``identity``, ``copy``, ``astype`` (the ranges ``arange`` and
``linspace`` are in ``ranges.py``).

Host data (Python scalars, lists, NumPy arrays) is converted on the host and
lifted with ``core.lift``: eagerly an ``Array``, under ``jit`` a constant (a
literal or constvar, no equation). Everything computed from shapes is staged
with lax (omnistaging): ``zeros(3)`` is ``broadcast_in_dim`` of a literal,
``arange(3)`` is ``iota``. Shapes, sizes and ranges must be static.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import config, lax
from xnp._default_dtypes import scalar_to_ndarray
from xnp.lax.shape_ops import canonicalize_shape
from xnp.numpy_api import _layout, _like_layout, _util
from xnp.numpy_api._util import (asarray_for, broadcast_to, check_unsupported, default_float,
                                 default_int, is_xnp, raise_host_dtype, static_int)
from xnp.tracing import core, errors
from xnp.tracing.recording import MAX_CONSTANT_BYTES
from xnp.numpy_api import _fastpath as fastpath
from xnp.tracing.avals import SUPPORTED_DTYPES, ShapedArray, canonical_dtype
from xnp.tracing.sizes import check_array_size

__all__ = [
    "array", "asarray", "asanyarray", "ascontiguousarray", "zeros", "ones", "full", "empty",
    "zeros_like", "ones_like", "full_like", "empty_like", "eye", "identity", "copy", "astype",
]

_PY_SCALARS = (bool, int, float, complex)
_NO_LIKE = "xnp has no array-function dispatch (`like=`)"
_NO_SUBCLASS = "xnp has no array subclasses"


# --------------------------------------------------------------------------- helpers


def _check_order(fname: str, order, allowed=("C", "F", "K", "A", None)):
    """``order`` in NumPy's spellings (:func:`_util.order_letter`; None stays None), or
    ``ValueError`` where the function does not take it."""
    letter = None if order is None else _util.order_letter(fname, order)
    if letter not in allowed:
        raise ValueError(f"xnp.{fname}: `order` must be one of {allowed}, got {order!r}")
    return letter


def _is_cpu_device(device) -> bool:
    """Whether ``device`` names the host CPU where eager arrays live: ``"cpu"``/``"cpu:0"``,
    an array's ``.device``, or ``xnp.devices()[0]``."""
    return str(device) in ("cpu", "cpu:0") or (getattr(device, "platform", None) == "cpu"
                                               and getattr(device, "id", None) == 0)


def _check_device(fname: str, device, placeable: bool = False) -> bool:
    """Whether ``device`` (None, ``"cpu"``, a device) is device 0, where arrays are made.
    With ``placeable``, another device of ``xnp.devices()`` is accepted (False: the
    caller places its result there); otherwise it raises a ValueError saying how to."""
    if device is None or _is_cpu_device(device):
        return True
    if getattr(device, "platform", None) == "cpu" and isinstance(getattr(device, "id", None),
                                                                 int):
        if placeable:
            return False
        raise ValueError(f"xnp.{fname}: arrays are created on device 0, not on {device!r}; "
                         f"place one there with xnp.asarray(x, device=...), "
                         f"x.to_device(device) or xnp.device_put(x, device)")
    raise ValueError(f"xnp.{fname}: unknown device {device!r}; the devices are "
                     "xnp.devices() (and \"cpu\")")


def _dtype_arg(dtype, argname: str = "dtype") -> np.dtype | None:
    return None if dtype is None else canonical_dtype(dtype, name=argname)


def _holds_xnp(obj) -> bool:
    if is_xnp(obj):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_holds_xnp(v) for v in obj)
    return False


def _is_python_data(obj) -> bool:
    if type(obj) in _PY_SCALARS:
        return True
    return isinstance(obj, (list, tuple)) and all(_is_python_data(v) for v in obj)


def _narrow_defaults(a: np.ndarray) -> np.ndarray:
    """With ``enable_x64`` off, Python numbers get 32-bit default dtypes.

    Raises
    ------
    OverflowError
        A Python int out of the 32-bit default integer's range (as a Python int operand
        beside an int32 array raises), instead of wrapping."""
    if config.get("enable_x64"):
        return a
    kind = a.dtype.kind
    if kind == "i" and a.dtype.itemsize == 8:
        dt = default_int()
        info = np.iinfo(dt)
        if a.size and (a.min() < info.min or a.max() > info.max):
            bad = a.min() if a.min() < info.min else a.max()
            raise OverflowError(f"Python integer {bad} out of bounds for {dt} (enable_x64 "
                                "is off: Python ints convert to int32)")
        return a.astype(dt)
    if kind == "f" and a.dtype.itemsize == 8:
        return a.astype(default_float())
    if kind == "c" and a.dtype.itemsize == 16:
        return a.astype(np.complex64)
    return a


def _from_host(fname: str, obj, dt: np.dtype | None, copy) -> object:
    """Convert host data (no xnp values inside) on the host and lift it (strongly typed)."""
    if (dt is not None and dt.kind not in "cb" and copy is not False
            and isinstance(obj, (np.ndarray, np.generic)) and obj.dtype.kind == "c"):
        # NumPy's ComplexWarning, at the user's line (copy=False: NumPy's ValueError)
        _util.warn_complex_to_real()
        obj = obj.real
    try:
        host = np.array(obj, dtype=dt, copy=copy)
    except OverflowError as e:
        raise OverflowError(f"xnp.{fname}: {e}") from None
    except ValueError as e:
        raise ValueError(f"xnp.{fname}: {e}") from None
    if dt is None and _is_python_data(obj):
        try:
            host = _narrow_defaults(host)
        except OverflowError as e:
            raise OverflowError(f"xnp.{fname}: {e}") from None
    if host.dtype not in SUPPORTED_DTYPES:
        raise_host_dtype(fname, "object", host.dtype)
    # NumPy's array(copy=None) shares memory it can use as it is (an ndarray, a buffer):
    # the result is then that memory, which the caller may hold
    return core.lift(host, borrowed=host is obj or not host.flags.owndata)


def _cast(fname: str, x, dt: np.dtype | None, copy):
    """``x`` (an xnp value) as ``dt``: the same object, a copy, or a conversion. A weakly
    typed value (a Python scalar passed to ``jit``, or computed from one) becomes strongly
    typed, as NumPy's ``asarray`` of a Python scalar is."""
    aval = core.aval_of(x)
    if aval.weak_type and (dt is None or dt == aval.dtype):
        return lax.convert_element_type(x, aval.dtype, weak_type=False)
    if dt is None or dt == aval.dtype:
        return lax.copy(x) if copy else x
    if copy is False and dt != aval.dtype:
        raise ValueError(
            f"xnp.{fname}: Unable to avoid copy while creating an array as requested "
            f"(converting {errors.aval_str(aval)} to {dt} needs one).")
    if aval.dtype.kind == "c" and dt.kind not in "cb":  # as NumPy's conversion warns
        _util.warn_complex_to_real()
    return lax.convert_element_type(x, dt, weak_type=False)


def _numpy_scalar(x):
    """A Python number subclass with ``__array__`` (``xnp.finfo``'s limits) as the NumPy
    scalar it stands for; anything else unchanged."""
    if (type(x) not in _PY_SCALARS and isinstance(x, _PY_SCALARS)
            and not isinstance(x, np.generic) and hasattr(type(x), "__array__")):
        return np.asarray(x.__array__())[()]
    return x


def _holds_tracer(obj) -> bool:
    if isinstance(obj, core.Tracer):
        return True
    return isinstance(obj, (list, tuple)) and any(_holds_tracer(v) for v in obj)


def _strong_numbers(obj):
    """``obj`` (nested lists/tuples) with each Python number as a 0-d NumPy array of its
    default dtype (OverflowError for an int out of it, as NumPy's conversion)."""
    if type(obj) in _PY_SCALARS:
        return scalar_to_ndarray(obj)
    if isinstance(obj, (list, tuple)):
        return [_strong_numbers(v) for v in obj]
    return obj


def _convert(fname: str, obj, dtype, copy):
    dt = _dtype_arg(dtype)
    obj = _numpy_scalar(obj)
    if is_xnp(obj):
        return _cast(fname, obj, dt, copy)
    if _holds_xnp(obj):
        if copy is False:
            raise ValueError(
                f"xnp.{fname}: Unable to avoid copy while creating an array as requested "
                "(a sequence of arrays is always copied).")
        # (eagerly a Python number in the sequence is NumPy's array item of its default
        # dtype, not a weak scalar: array([int8 array, 300]) is int64, as NumPy's; beside
        # traced values it stays weak, as xnp.stack joins them)
        x = asarray_for(fname, obj if _holds_tracer(obj) else _strong_numbers(obj), "object")
        if dt is not None and dt.kind not in "cb":  # NumPy warns once per complex array
            for _ in range(_complex_items(obj)):
                _util.warn_complex_to_real()
        return x if dt is None else lax.convert_element_type(x, dt)
    return _from_host(fname, obj, dt, copy)


def _complex_items(obj) -> int:
    """How many arrays (xnp or NumPy) and NumPy scalars of a complex dtype the nested
    lists/tuples ``obj`` holds."""
    if isinstance(obj, (list, tuple)):
        return sum(_complex_items(o) for o in obj)
    dtype = getattr(obj, "dtype", None) if is_xnp(obj) or isinstance(
        obj, (np.ndarray, np.generic)) else None
    return int(dtype is not None and dtype.kind == "c")


def _fill(fname: str, value, shape, dt: np.dtype, weak: bool = False, argname: str = "shape"):
    """``shape`` filled with the host scalar ``value`` cast to ``dt``: a broadcast literal.
    ``ValueError``/``MemoryError`` (naming ``argname``) for a shape too big to exist or hold.

    The cast is NumPy's ``full``'s (``copyto`` with unsafe casting): NaN or inf to an
    integer dtype and a float beyond the dtype's range give NumPy's value and its
    ``RuntimeWarning`` (a floating-point error, as ``errstate`` says); a complex value
    for a real NumPy dtype warns ``ComplexWarning`` and drops the imaginary part; a Python
    int out of the dtype's range raises ``OverflowError``."""
    check_array_size(fname, shape, dt, argname=argname)
    if dt.kind in "iuf" and np.iscomplexobj(value):
        _util.warn_complex_to_real()
        value = value.real
    scalar = np.empty((), dt)
    try:
        np.copyto(scalar, value, casting="unsafe")
    except OverflowError:
        raise OverflowError(f"xnp.{fname}: `fill_value`: Python integer {value} out of "
                            f"bounds for {dt}") from None
    out = lax.broadcast_in_dim(core.lift(scalar, weak_type=weak), shape, ())
    if type(out) is core.Array and math.prod(shape) == 1:
        return lax.copy(out)  # a one-element broadcast is a view of the scalar: own memory
    return out


def _broadcast_fill(fname: str, fill, shape, dt: np.dtype, fresh: bool):
    """``fill`` cast to ``dt`` and broadcast to ``shape``: a new array (``fresh``: ``fill``
    is a private copy, so a same-size broadcast, which is a view of it, needs no copy)."""
    check_array_size(fname, shape, dt)
    aval = core.aval_of(fill)
    if len(aval.shape) > len(shape) or any(
            a not in (1, s) for a, s in zip(aval.shape[::-1], shape[::-1])):
        raise ValueError(
            f"xnp.{fname}: could not broadcast `fill_value` of shape {aval.shape} into "
            f"shape {shape}")
    converted = aval.dtype != dt
    if converted:
        fill = lax.convert_element_type(fill, dt, weak_type=False)
    k = len(shape) - aval.ndim
    out = lax.broadcast_in_dim(fill, shape, tuple(range(k, len(shape))))
    if not converted and not fresh and aval.size == math.prod(shape):
        out = lax.copy(out)  # a same-size broadcast is a view of `fill`
    return out


def _input_aval(fname: str, a, argname: str = "a") -> ShapedArray:
    """The aval ``a`` would have as an xnp array, computed without converting data."""
    if is_xnp(a):
        return core.aval_of(a)
    if type(a) in _PY_SCALARS:
        return core.aval_of(a).strip_weak_type()
    if isinstance(a, (np.ndarray, np.generic)):
        return ShapedArray(np.shape(a), canonical_dtype(a.dtype, name=argname))
    if _holds_xnp(a):
        return core.aval_of(asarray_for(fname, a, argname))
    host = np.asarray(a)
    if _is_python_data(a):
        host = _narrow_defaults(host)
    return ShapedArray(host.shape, canonical_dtype(host.dtype, name=argname))


# --------------------------------------------------------------------------- conversion


@fastpath.array
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0,
          like=None):
    """Create an array from array-like data; copies by default.

    Parameters
    ----------
    object : array_like
        xnp arrays (also traced ones), NumPy arrays and scalars, Python
        scalars, nested lists/tuples of these.
    dtype : dtype, optional
        Result dtype. Default: the data's dtype (NumPy's rules for Python data:
        int64, float64, complex128, bool). Python scalars give strongly typed
        0-d arrays, as ``numpy.array`` does.
    copy : bool or None
        True (default): always a new array. None: copy only if needed.
        False: never copy; ``ValueError`` if a copy (or conversion) is needed.
    order : {'K', 'A', 'C', 'F'}
        NumPy's layout request: 'C' row-major, 'F' column-major, 'A' column-major when
        ``object`` is (a copy otherwise row-major; a cast to another ``dtype`` as 'K'),
        'K' keeps ``object``'s, also a strided one's axis order, as :func:`copy` (eagerly
        the result's memory; under ``jit`` the layout recorded for later reshapes'
        view-or-copy rule).
    ndmin : int
        Prepend size-1 dimensions up to this rank.

    Returns
    -------
    Array
        Under ``jit``, host data becomes a constant of the trace (no equation);
        copying an xnp value is a ``copy`` equation.

    Raises
    ------
    TypeError
        Non-numeric or ragged data, or an unsupported dtype.
    OverflowError
        A Python int does not fit ``dtype``.
    ValueError
        ``copy=False`` but a copy is needed.
    NotImplementedError
        ``subok=True``, ``ndmax != 0`` or ``like`` given.
    """
    check_unsupported("array", subok=(subok, False, _NO_SUBCLASS), like=(like, None, _NO_LIKE),
                      ndmax=(ndmax, 0, "nesting-depth limits are not needed for numeric data"))
    order = _check_order("array", order)
    x = _convert("array", object, dtype, copy)
    new = copy is True or (is_xnp(object) and x is not object)
    ndmin = int(ndmin)
    aval = core.aval_of(x)
    if ndmin > aval.ndim:
        k = ndmin - aval.ndim
        x = lax.broadcast_in_dim(x, (1,) * k + aval.shape, tuple(range(k, ndmin)))
    return _ordered("array", x, order, object, copy, new)


@fastpath.asarray
def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """Convert ``a`` to an xnp array; an xnp array of the right dtype is returned as is.

    Parameters
    ----------
    a : array_like
        As for :func:`array`.
    dtype : dtype, optional
        Result dtype (default: the data's; NumPy's defaults for Python data).
    order : {None, 'K', 'A', 'C', 'F'}
        As for :func:`array`; a copy is made only when ``a`` lacks the layout.
    device : None or 'cpu'
        The only device of the NumPy eager backend.
    copy : bool or None
        None (default): copy only when needed (a NumPy input is shared, not
        copied, as ``numpy.asarray`` does). True: always copy. False: never;
        ``ValueError`` if a copy is needed (e.g. a dtype change or a list).

    Returns
    -------
    Array
        Under ``jit``, host data becomes a constant (no equation).

    Raises
    ------
    TypeError, OverflowError, ValueError, NotImplementedError
        As for :func:`array`; ``ValueError`` for an unknown device.
    """
    check_unsupported("asarray", like=(like, None, _NO_LIKE))
    order = _check_order("asarray", order)
    if _check_device("asarray", device, placeable=True):
        return _ordered("asarray", _convert("asarray", a, dtype, copy), order, a, copy)
    return _convert("asarray", a, dtype, copy).to_device(device)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """:func:`asarray`, except that an instance of a subclass of ``xnp.ndarray`` is
    returned as it is when no conversion is asked for (NumPy's ``asanyarray``)."""
    if (getattr(a, "_user_subclass", False) and not copy and order in (None, "K", "A")
            and device is None and like is None and (dtype is None or np.dtype(dtype) == a.dtype)):
        return a
    check_unsupported("asanyarray", like=(like, None, _NO_LIKE))
    order = _check_order("asanyarray", order)
    _check_device("asanyarray", device)
    return _ordered("asanyarray", _convert("asanyarray", a, dtype, copy), order, a, copy)


def _ordered(fname, x, order, source, copy, new=None):
    """``x`` in NumPy's ``order`` ('C'/'F'; 'A': F when ``source`` is; 'K' keeps): a new
    array (``new``; None: ``x`` is not the xnp ``source`` or ``copy`` is True) laid out as
    NumPy lays out a new array made like ``source``; ``ValueError`` when that needs a copy
    and ``copy=False``."""
    if new is None:
        new = copy is True or (is_xnp(source) and x is not source)
    if new:
        dt = getattr(source, "dtype", None)
        if order == "A" and dt is not None and np.dtype(dt) != core.aval_of(x).dtype:
            order = "K"  # NumPy's 'A' is 'C'/'F' for a plain copy only, 'K' for a cast
        return _like_layout.like_layout(x, order or "K", source, fresh=True)
    if order in (None, "K"):
        return x
    out = _layout.with_order(x, order, source if is_xnp(source) or isinstance(
        source, np.ndarray) else None)
    if out is not x and copy is False:
        raise ValueError(f"xnp.{fname}: laying the array out in order {order!r} needs a copy, "
                         "which copy=False forbids")
    return out


def ascontiguousarray(a, dtype=None, *, like=None):
    """:func:`asarray` with at least one dimension (a 0-d input becomes shape ``(1,)``).

    Row-major memory: ``a`` itself when it already is, else a C-contiguous copy.
    """
    check_unsupported("ascontiguousarray", like=(like, None, _NO_LIKE))
    x = _convert("ascontiguousarray", a, dtype, None)
    if core.aval_of(x).ndim == 0:
        x = lax.broadcast_in_dim(x, (1,), ())
    return _layout.with_order(x, "C")


def astype(x, dtype, /, *, copy=True, device=None):
    """Cast ``x`` to ``dtype`` (unsafe casting, as ``ndarray.astype``).

    Parameters
    ----------
    x : Array
        An xnp array (array-likes are converted first).
    dtype : dtype
        The target dtype. The result is strongly typed.
    copy : bool
        True (default): always a new array. False: return ``x`` itself when
        it already has ``dtype``.
    device : None or 'cpu'

    Returns
    -------
    Array
        Under ``jit``: a ``convert_element_type`` equation, or ``copy`` when
        the dtype is unchanged (a distinct value, so writes to it never reach ``x``).

    Raises
    ------
    TypeError
        ``dtype`` is not an xnp dtype.

    Warns
    -----
    numpy.exceptions.ComplexWarning
        A complex ``x`` cast to a real or integer dtype (the imaginary part is dropped),
        as NumPy warns; under ``jit`` once, when the function is traced.
    """
    _check_device("astype", device)
    dt = canonical_dtype(dtype)
    x = asarray_for("astype", x, "x")
    aval = core.aval_of(x)
    if aval.dtype.kind == "c" and dt.kind not in "cb":
        _util.warn_complex_to_real()
    if aval.dtype == dt and not aval.weak_type:
        return lax.copy(x) if copy else x
    if aval.weak_type and isinstance(x, core.Tracer) and dt != aval.dtype:
        # a cast, not a promotion: a Python int argument of jit wraps as the eager
        # xnp.asarray(v).astype does (xnp.tracing.python_ints checks only promotions)
        x = lax.convert_element_type(x, aval.dtype, weak_type=False)
    return lax.convert_element_type(x, dt, weak_type=False)


def ndarray_astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """``x.astype(dtype, order, casting, subok, copy)``: ``numpy.ndarray.astype``.

    ``casting`` is checked as NumPy checks it (``numpy.can_cast`` of ``x``'s dtype):
    a cast it does not allow raises NumPy's ``TypeError``. ``order='C'``/``'F'`` lays
    the result out row- or column-major, ``'A'`` column-major when ``x`` is
    Fortran-contiguous (else row-major); ``'K'`` keeps ``x``'s layout, also of a strided
    ``x``, as :func:`copy` does. ``copy=False`` returns ``x`` itself when it already has
    ``dtype`` and the asked layout (any layout for 'K'). ``subok`` is accepted: a
    subclass's instance keeps its type as :mod:`xnp.ndarray_class` describes.

    Raises
    ------
    TypeError
        ``casting`` does not allow the cast from ``x``'s dtype to ``dtype``.
    ValueError
        ``casting`` or ``order`` is not one of NumPy's values.
    """
    order = _check_order("astype", order, ("C", "F", "A", "K"))
    src = core.aval_of(asarray_for("astype", x, "x")).dtype
    if casting != "unsafe" and not np.can_cast(src, np.dtype(dtype), casting):
        raise TypeError(f"xnp.astype: Cannot cast array data from dtype('{src}') to "
                        f"dtype('{np.dtype(dtype)}') according to the rule '{casting}'")
    out = astype(x, dtype, copy=copy)
    return _like_layout.like_layout(out, order, x, fresh=out is not x)


def copy(a, order="K", subok=False):
    """A copy of ``a`` (same as ``xnp.array(a, copy=True)``).

    ``order='K'`` (NumPy's ``numpy.copy`` default) keeps ``a``'s memory layout, also of a
    strided ``a`` (its axes in the order of their strides: a slice of a Fortran array
    copies column-major); ``'A'`` is column-major when ``a`` is Fortran-contiguous, else
    row-major; ``order='C'`` (the default of the ``Array.copy`` method, as
    ``ndarray.copy``) gives a C-contiguous copy (:mod:`xnp.numpy_api._like_layout`). The
    layout decides whether a later ``reshape`` is a view; under ``jit`` it is recorded
    for that, and unknown for a copy of a ``jit`` argument (the values are the same).

    Raises
    ------
    NotImplementedError
        ``subok=True``.
    """
    check_unsupported("copy", subok=(subok, False, _NO_SUBCLASS))
    order = _check_order("copy", order)
    out = _convert("copy", a, None, True)
    return _like_layout.like_layout(out, order or "K", a, fresh=True)


# --------------------------------------------------------------------------- filled arrays


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    """An array of ``shape`` filled with 0.

    ``shape`` is an int or a sequence of ints and must be static (Python or
    NumPy integers; under ``jit`` take sizes from ``x.shape``). ``dtype``
    defaults to float64. Under ``jit`` this is ``broadcast_in_dim`` of a literal.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        A traced size ("Shapes must be 1D sequences of concrete values of
        integer type"). It subclasses ``TypeError``.
    TypeError
        A non-integer size or an unsupported dtype.
    ValueError
        A negative size, or a byte size beyond int64 (NumPy's "array is too big").
    MemoryError
        More bytes than the machine's memory (``xnp.tracing.sizes.machine_memory``).
    NotImplementedError
        ``like`` given.
    """
    check_unsupported("zeros", like=(like, None, _NO_LIKE))
    order = _check_order("zeros", order, ("C", "F"))
    _check_device("zeros", device)
    shape = canonicalize_shape("zeros", shape)
    return _layout.with_order(_fill("zeros", 0, shape, _dtype_arg(dtype) or default_float()),
                              order, fresh=True)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    """An array of ``shape`` filled with 1; as :func:`zeros` otherwise."""
    check_unsupported("ones", like=(like, None, _NO_LIKE))
    order = _check_order("ones", order, ("C", "F"))
    _check_device("ones", device)
    shape = canonicalize_shape("ones", shape)
    return _layout.with_order(_fill("ones", 1, shape, _dtype_arg(dtype) or default_float()),
                              order, fresh=True)


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    """Same as :func:`zeros`: xnp fills "uninitialised" arrays with 0 so results are
    deterministic (NumPy leaves the memory as it was)."""
    check_unsupported("empty", like=(like, None, _NO_LIKE))
    order = _check_order("empty", order, ("C", "F"))
    _check_device("empty", device)
    shape = canonicalize_shape("empty", shape)
    return _layout.with_order(_fill("empty", 0, shape, _dtype_arg(dtype) or default_float()),
                              order, fresh=True)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """An array of ``shape`` filled with ``fill_value``.

    Parameters
    ----------
    shape : int or sequence of int
        Static, as for :func:`zeros`.
    fill_value : scalar or array_like
        Broadcast to ``shape`` (NumPy broadcasting); may be traced.
    dtype : dtype, optional
        Default: the dtype of ``fill_value`` (NumPy's for Python scalars:
        bool, int64, float64, complex128; uint64 for an int in ``[2**63, 2**64)``, object,
        eagerly only, for an int beyond). The fill is cast unsafely, as in NumPy: NaN
        for an integer dtype warns (``RuntimeWarning``) and gives NumPy's value, a complex
        fill for a real dtype warns ``ComplexWarning`` and drops the imaginary part, and an
        out-of-range Python int raises ``OverflowError``.

    Raises
    ------
    ValueError
        ``fill_value`` does not broadcast to ``shape``; a negative size or one whose byte
        size overflows int64.
    MemoryError
        As for :func:`zeros`.
    xnp.errors.ConcretizationTypeError, TypeError, OverflowError, NotImplementedError
        As for :func:`zeros`.
    """
    check_unsupported("full", like=(like, None, _NO_LIKE))
    order = _check_order("full", order, ("C", "F"))
    _check_device("full", device)
    shape = canonicalize_shape("full", shape)
    dt = _dtype_arg(dtype)
    fill_value = _numpy_scalar(fill_value)
    if dt is None and type(fill_value) is int and not -2**63 <= fill_value < 2**63:
        # NumPy's dtype for the value: uint64 below 2**64, else object (a host array)
        dt = np.asarray(fill_value).dtype
        if dt not in SUPPORTED_DTYPES:
            raise errors.HostDtypeError(errors.host_dtype_message(
                "xnp.full: argument `fill_value`", dt), dt)
    if type(fill_value) in _PY_SCALARS or isinstance(fill_value, np.generic):
        out = _fill("full", fill_value, shape, dt or _input_aval("full", fill_value).dtype)
    else:
        fresh = not is_xnp(fill_value)
        fill = _convert("full", fill_value, None, True if fresh else None)
        out = _broadcast_fill("full", fill, shape, dt or core.aval_of(fill).dtype, fresh)
    return _layout.with_order(out, order, fresh=True)


def _like_order(out, order, a, subok=False):
    """NumPy's layout of a ``*_like`` result: 'F' column-major; 'K'/'A' column-major
    when ``a`` is (and the shape is ``a``'s). With ``subok``, an eager result takes the
    type of ``a``, an instance of a subclass of ``xnp.ndarray`` (``__array_finalize__(a)``
    called), as NumPy's. ``order=None`` is 'K', as NumPy's."""
    order = "K" if order is None else _util.order_letter("zeros_like", order)
    if subok and getattr(a, "_user_subclass", False) and type(out) is core.Array:
        return a._like_result(_like_order(out, order, a._plain()))
    if order in ("K", "A"):
        return _like_layout.like_layout(out, order, a)
    return _layout.with_order(out, order, fresh=True)


def _like(fname: str, a, dtype, shape, order, device):
    _check_order(fname, order)
    _check_device(fname, device)
    aval = _input_aval(fname, a)
    dt = _dtype_arg(dtype) or aval.dtype
    weak = aval.weak_type and dtype is None
    shp = aval.shape if shape is None else canonicalize_shape(fname, shape)
    return dt, weak, shp


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Zeros with the shape and dtype of ``a`` (``dtype``/``shape`` override them).

    Only ``a``'s aval and memory layout are used; its data is not read. The result is
    weakly typed when ``a`` is a weakly typed xnp value and no ``dtype`` is given.
    ``order``: 'K' (default) lays the result out as ``a`` is laid out (row-major for a
    C-contiguous ``a``, column-major for a Fortran one, a strided ``a``'s axis order
    otherwise, as :func:`copy`; row-major with a ``shape`` of another rank), 'A'
    column-major when ``a`` is Fortran-contiguous, else row-major; 'C'/'F' as named.
    Under ``jit`` this is ``broadcast_in_dim`` of a literal (and a ``copy`` whose layout
    is recorded for later reshapes where ``a``'s known layout is not row-major; a ``jit``
    argument's layout is not known: the result is then taken as row-major). With
    ``subok`` (the default) the result of an instance of a subclass of ``xnp.ndarray``
    is of its type.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``shape`` is traced.
    """
    dt, weak, shp = _like("zeros_like", a, dtype, shape, order, device)
    return _like_order(_fill("zeros_like", 0, shp, dt, weak), order, a, subok)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Ones with the shape and dtype of ``a``; as :func:`zeros_like` otherwise."""
    dt, weak, shp = _like("ones_like", a, dtype, shape, order, device)
    return _like_order(_fill("ones_like", 1, shp, dt, weak), order, a, subok)


def empty_like(prototype, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Same as :func:`zeros_like` (xnp fills "uninitialised" arrays with 0)."""
    dt, weak, shp = _like("empty_like", prototype, dtype, shape, order, device)
    return _like_order(_fill("empty_like", 0, shp, dt, weak), order, prototype, subok)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``fill_value`` broadcast to the shape of ``a``, in ``a``'s dtype (or ``dtype``).

    The fill is cast unsafely to the result dtype, as NumPy does (``full_like``
    of an int array with 1.7 gives 1; NaN warns ``RuntimeWarning``, a complex fill for a
    real dtype ``ComplexWarning``, as for :func:`full`); an out-of-range Python int raises
    ``OverflowError``. ``fill_value`` may be a traced value.

    Raises
    ------
    ValueError
        ``fill_value`` does not broadcast to the shape.
    """
    dt, weak, shp = _like("full_like", a, dtype, shape, order, device)
    fill_value = _numpy_scalar(fill_value)
    if type(fill_value) in _PY_SCALARS or isinstance(fill_value, np.generic):
        return _like_order(_fill("full_like", fill_value, shp, dt, weak), order, a, subok)
    fresh = not is_xnp(fill_value)
    fill = _convert("full_like", fill_value, None, True if fresh else None)
    return _like_order(_broadcast_fill("full_like", fill, shp, dt, fresh), order, a, subok)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """A 2-D array with ones on diagonal ``k`` (0: main, > 0: above, < 0: below).

    ``N``, ``M`` (default ``N``) and ``k`` must be static. ``dtype`` defaults
    to float64. Eagerly (up to 64 KiB) NumPy's ``eye``, a constant; under ``jit`` a
    ``broadcast_in_dim`` of 1, a ``pad`` with interior padding ``M`` (which spaces the
    ones ``M + 1`` apart in the flattened matrix) and a ``reshape``.

    Raises
    ------
    ValueError
        A negative ``N`` or ``M``, or an ``N`` x ``M`` byte size beyond int64.
    MemoryError
        The matrix needs more bytes than the machine's memory.
    xnp.errors.ConcretizationTypeError
        ``N``, ``M`` or ``k`` is traced.
    NotImplementedError
        ``like`` given.
    """
    check_unsupported("eye", like=(like, None, _NO_LIKE))
    order = _check_order("eye", order, ("C", "F"))
    _check_device("eye", device)
    n = static_int("eye", N, "N")
    m = n if M is None else static_int("eye", M, "M")
    k = static_int("eye", k, "k")
    if n < 0 or m < 0:
        raise ValueError(f"xnp.eye: negative dimensions are not allowed, got N={n}, M={m}")
    dt = default_float() if dtype is None or dtype is float else canonical_dtype(dtype)
    check_array_size("eye", (n, m), dt, argname="N" if M is None else "N, M")
    if core.is_eager(core.current_trace()) and n * m * dt.itemsize <= MAX_CONSTANT_BYTES:
        # eagerly NumPy's eye as a constant, in the order asked (a recorded call replays as
        # one copy of it, not five calls)
        return _layout.with_order(core.lift(np.eye(n, m, k, dtype=dt, order=order)), order,
                                  fresh=True)  # (lift's copy keeps NumPy's flags, not strides)
    length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
    if length == 0:
        return _layout.with_order(_fill("eye", 0, (n, m), dt), order, fresh=True)
    ones_ = _fill("eye", 1, (length,), dt)
    low = k if k >= 0 else -k * m
    high = n * m - low - length - (length - 1) * m
    zero = core.lift(np.zeros((), dt))
    flat = lax.pad(ones_, zero, ((low, high, m),))
    return _layout.with_order(lax.reshape(flat, (n, m)), order, fresh=True)


def identity(n, dtype=None, *, like=None):
    """The ``n`` x ``n`` identity matrix (float64 by default); see :func:`eye`."""
    check_unsupported("identity", like=(like, None, _NO_LIKE))
    return eye(n, dtype=dtype)
