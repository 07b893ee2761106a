"""Shared helpers of the NumPy surface: input conversion, NEP 50 promotion with
weak Python scalars, NumPy broadcasting (rank promotion), axis normalisation
and ``out=``. NumPy may compute metadata here (dtypes, shapes), never data.
"""

from __future__ import annotations

import numbers
import operator
import warnings

import numpy as np
from numpy.exceptions import DTypePromotionError

from xnp import _default_dtypes
from xnp._default_dtypes import default_complex, default_float, default_int
from xnp import config, lax
from xnp.numpy_api._views import adopt, rebind_traced, resolve
from xnp.tracing import core, errors, fp_warnings, recording
from xnp.tracing.avals import SUPPORTED_DTYPES, ShapedArray
from xnp.tracing.source import outside_stacklevel
from xnp.tracing.state import Ref, RefAval

__all__ = [
    "is_xnp", "asarray_for", "aval_for", "result_dtype", "promote", "promote_to",
    "broadcast_to_rank", "broadcast_arrays", "binary_operands", "normalize_axis",
    "normalize_axes", "write_out", "check_unsupported", "default_float", "default_int",
    "static_int", "AxisError", "to_inexact_dtype", "api_sequence", "raise_host_dtype",
    "axis_tuple", "cast_may_warn", "write_into", "returns_python_bool", "strong",
]

AxisError = np.exceptions.AxisError
_ARRAY = core.Array
_PY_SCALARS = (int, float, complex, bool)


def strong(x):
    """``x`` not weakly typed: the result of a NumPy function that is no ufunc (``where``,
    ``select``), an array of its dtype even when made of Python scalars alone
    (``numpy.where(c, 1.0, 0.0)`` is float64, which a float32 array then promotes to)."""
    aval = core.aval_of(x)
    return lax.convert_element_type(x, aval.dtype, weak_type=False) if aval.weak_type else x


def returns_python_bool(fn):
    """Marks ``fn``, whose full path returns a 0-d bool array (a tracer under ``jit``), as a
    function NumPy answers with a Python ``bool`` (``allclose``, ``array_equal``): the
    public function's eager results are ``bool``s (``_scalars.install``)."""
    fn._python_bool = True
    return fn


def is_xnp(x) -> bool:
    """An xnp eager array or a tracer."""
    return type(x) is core.Array or isinstance(x, core.Tracer)


def api_sequence(items):
    """``items`` as the sequence type the Array API version xnp presents returns from
    ``meshgrid``/``broadcast_arrays``: a tuple (NumPy's; the standard's from 2025.12), a
    list when the ``array_api_version`` option is older."""
    if config.get("array_api_version") < "2025.12":
        return list(items)
    return tuple(items)


def asarray_for(fname: str, x, argname: str = "a", dtype=None):
    """``x`` as an xnp value (Array or tracer); lists/tuples/NumPy data are converted.

    Python scalars become weakly typed 0-d values (NEP 50).

    Raises
    ------
    TypeError
        ``x`` is not array-like (names ``fname`` and ``argname``).
    """
    if is_xnp(x):
        if type(x) is not core.Array and x.aval.__class__ is RefAval:  # a staged ref
            _refuse_ref(fname, argname, x)
        return resolve(x)  # an array bound to a cell is its current value
    t = type(x)
    if t in _PY_SCALARS:
        dt = _default_dtypes.python_scalar_dtype(x)
        return core.lift(_default_dtypes.scalar_to_ndarray(x, dt), weak_type=t is not bool)
    if isinstance(x, (np.ndarray, np.generic)):
        if t is not np.ndarray:
            refuse_numpy_subclass(fname, x, argname)
        if x.dtype not in SUPPORTED_DTYPES:
            raise_host_dtype(fname, argname, x.dtype)
        return core.lift(np.asarray(x))
    if isinstance(x, (list, tuple)):
        return _from_sequence(fname, x, argname)
    if isinstance(x, core.Array):
        if x._user_subclass:  # a subclass of xnp.ndarray: computed on as a plain array
            return x._plain()
        raise_host_dtype(fname, argname, x.dtype)  # of a dtype XLA lacks (xnp.host_arrays)
    if isinstance(x, Ref):
        _refuse_ref(fname, argname, x)
    if hasattr(x, "__array__") or hasattr(x, "__array_interface__"):
        # a Python number subclass with __array__ (xnp.finfo's limits) is what that gives:
        # numpy.asarray would see the number and ignore it
        a = x.__array__() if isinstance(x, _PY_SCALARS) and hasattr(x, "__array__") else x
        return core.lift(_checked_ndarray(fname, np.asarray(a), argname))
    if isinstance(x, (str, bytes)):  # NumPy makes a string array of it
        raise_host_dtype(fname, argname, np.asarray(x).dtype)
    if isinstance(x, _PY_SCALARS):  # a number subclass (IntEnum, ...): NumPy's array of it
        return core.lift(_checked_ndarray(fname, np.asarray(x), argname))
    raise TypeError(
        f"xnp.{fname}: argument `{argname}` of type {t.__name__} is not array-like: {x!r}")


def _refuse_ref(fname: str, argname: str, ref) -> None:
    raise TypeError(f"xnp.{fname}: argument `{argname}` is a ref ({ref.aval}), not an array; "
                    "read its value with ref[...] (xnp.lax.ref_get) first")


def raise_host_dtype(fname: str, argname: str, dtype) -> None:
    """``xnp.errors.HostDtypeError`` for argument ``argname`` of ``xnp.<fname>`` of a dtype
    XLA has no type for: the public ``xnp`` functions catch it eagerly and run NumPy's
    function (:mod:`xnp.host_dispatch`); under a transformation it reaches the user."""
    trace = core.current_trace()
    raise errors.HostDtypeError(errors.host_dtype_message(
        f"xnp.{fname}: argument `{argname}`", dtype,
        None if core.is_eager(trace) else trace.transformation), dtype)


def refuse_numpy_subclass(fname: str, x, argname: str) -> None:
    """``TypeError`` for a ``numpy.ma.MaskedArray`` or ``numpy.matrix`` argument of an xnp
    function: computing on its data would count masked elements or drop matrix semantics
    (NumPy's own functions keep them); ``xnp.asarray`` still gives the data, as
    ``numpy.asarray``."""
    if isinstance(x, np.ma.MaskedArray):
        what, fix = ("xnp arrays carry no mask, so its masked elements would count",
                     "Use xnp.ma's functions or the masked array's methods (xnp.ma is numpy.ma)"
                     ", or x.filled(value) / xnp.asarray(x) for the data")
    elif isinstance(x, np.matrix):
        what, fix = ("xnp functions do not keep matrix semantics (2-d results, * as a "
                     "matrix product)", "Use NumPy's functions on it, or xnp.asarray(x) for "
                     "a plain array")
    else:
        return
    raise TypeError(f"xnp.{fname}: argument `{argname}` is a {type(x).__module__}."
                    f"{type(x).__name__} (shape {x.shape}, dtype {x.dtype.name}); {what}. "
                    f"{fix}.")


def _checked_ndarray(fname, a: np.ndarray, argname) -> np.ndarray:
    if a.dtype.kind == "i" and a.dtype != np.int64 and a.dtype.itemsize == 8:
        a = a.astype(np.int64)
    if a.dtype not in SUPPORTED_DTYPES:
        raise_host_dtype(fname, argname, a.dtype)
    return a


def _from_sequence(fname, seq, argname):
    leaves = []

    def has_traced(s):
        for v in s:
            if isinstance(v, (list, tuple)):
                if has_traced(v):
                    return True
            elif is_xnp(v):
                leaves.append(v)
                if isinstance(v, core.Tracer):
                    return True
        return False

    if has_traced(seq) or leaves:
        # join element by element (as xnp.stack does) so traced entries stay traced
        items = [asarray_for(fname, v, argname) for v in seq]
        avals = [core.aval_of(x) for x in items]
        if any(av.shape != avals[0].shape for av in avals):
            raise ValueError(f"xnp.{fname}: argument `{argname}` is not a valid array: its "
                             f"entries have different shapes, {errors.avals_str(avals)}")
        dt, weak = result_dtype(*avals)
        return lax.concatenate([lax.expand_dims(promote_to(fname, x, dt, weak), (0,))
                                for x in items], 0)
    try:
        a = np.asarray(seq)
    except (ValueError, OverflowError) as e:
        raise TypeError(f"xnp.{fname}: argument `{argname}` is not a valid array: {e}") from None
    if not config.get("enable_x64"):
        # Python numbers default to 32-bit types with x64 off (explicit NumPy dtypes stay)
        if a.dtype == np.int64:
            a = a.astype(default_int(), copy=False)
        elif a.dtype == np.float64:
            a = a.astype(default_float(), copy=False)
    return core.lift(_checked_ndarray(fname, a, argname))


def aval_for(x) -> ShapedArray:
    return core.aval_of(x)


_RESULT_CACHE: dict = {}


def result_dtype(*avals: ShapedArray) -> tuple[np.dtype, bool]:
    """NumPy 2 (NEP 50) result dtype of ``avals``; weak Python scalars defer to arrays.

    Returns ``(dtype, weak)``: weak when every operand is weak.
    """
    key = tuple((a.dtype, a.weak_type) for a in avals)
    hit = _RESULT_CACHE.get(key)
    if hit is not None and hit[2] == config.snapshot():
        return hit[0], hit[1]
    dt, weak = _result_dtype(avals)
    _RESULT_CACHE[key] = (dt, weak, config.snapshot())
    return dt, weak


#: the inexact dtypes of NumPy's ufunc loops, in the order its type resolution tries them
_LOOP_INEXACT = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.complex64,
                                            np.complex128))


def ufunc_result_dtype(*avals: ShapedArray) -> tuple[np.dtype, bool]:
    """:func:`result_dtype` of a ufunc's operands: where NumPy has no common dtype (ml_dtypes'
    bfloat16 and float8 with float16, with each other or with integers wider than 8 bits:
    ``DTypePromotionError``), its ufuncs still find a loop, the first of their float16,
    float32, float64, complex64 and complex128 loops that every operand casts to safely
    (``bfloat16 + float16`` is float32, ``bfloat16 + int32`` float64)."""
    try:
        return result_dtype(*avals)
    except DTypePromotionError:
        strong = [a.dtype for a in avals if not a.weak_type]
        for dt in _LOOP_INEXACT:
            if all(np.can_cast(s, dt) for s in strong):
                return dt, False
        raise


_COMPLEX_OF = {2: np.dtype(np.complex64), 4: np.dtype(np.complex64),
               8: np.dtype(np.complex128)}


def _kind(dt: np.dtype) -> str:
    """NumPy's kind letter, with ml_dtypes' floats (kind 'V') counted as 'f'."""
    return "f" if dt.kind == "V" else dt.kind


def _result_dtype(avals) -> tuple[np.dtype, bool]:
    # a weak unsigned int is a Python int beyond int64 passed to jit (xnp.tracing.
    # python_ints): it promotes as the Python int it holds does, as kind 'i'
    weak_kinds = {"i" if k == "u" else k for k in (_kind(a.dtype) for a in avals if a.weak_type)}
    strong = [a.dtype for a in avals if not a.weak_type]
    if not strong:
        if "c" in weak_kinds:
            return default_complex(), True
        if "f" in weak_kinds:
            return default_float(), True
        dt = avals[0].dtype
        return dt if len(weak_kinds) == 1 and dt.kind != "u" else default_int(), True
    dt = strong[0] if len(strong) == 1 else np.result_type(*strong)
    # NEP 50: a Python scalar only matters when its kind is above the arrays' kind
    kind = _kind(dt)
    if "c" in weak_kinds and kind != "c":
        dt = _COMPLEX_OF.get(dt.itemsize, np.dtype(np.complex128)) if kind == "f" else (
            default_complex())
    elif "f" in weak_kinds and kind in "biu":
        dt = default_float()
    elif "i" in weak_kinds and kind == "b":
        dt = default_int()
    return dt, False


def promote_to(fname: str, x, dtype: np.dtype, weak: bool = False):
    """Convert ``x`` (xnp value or Python scalar) to ``dtype``; Python ints out of range
    raise ``OverflowError`` as in NumPy."""
    if type(x) in _PY_SCALARS:
        return core.lift(_default_dtypes.scalar_to_ndarray(x, dtype), weak_type=weak)
    aval = core.aval_of(x)
    if aval.dtype == dtype:
        return x  # only weakness differs: lax ops combine weak and strong operands of one dtype
    return lax.convert_element_type(x, dtype, weak_type=weak)


def promote(fname: str, *args):
    """Operands converted to their common (NEP 50) dtype. Returns (values, dtype, weak)."""
    avals = [core.aval_of(a) for a in args]
    dt, weak = result_dtype(*avals)
    return [promote_to(fname, a, dt, weak) for a in args], dt, weak


def broadcast_to_rank(x, ndim: int):
    """Prepend size-1 dims to reach ``ndim`` (rank-0 values stay rank 0: lax broadcasts them)."""
    aval = core.aval_of(x)
    k = ndim - aval.ndim
    if k <= 0 or aval.ndim == 0:
        return x
    return lax.broadcast_in_dim(x, (1,) * k + aval.shape, tuple(range(k, ndim)))


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape`` (NumPy's rules, already checked) by a copy
    (``lax.broadcast_in_dim``); ``x`` itself when it has that shape."""
    aval = core.aval_of(x)
    shape = tuple(shape)
    if aval.shape == shape:
        return x
    k = len(shape) - aval.ndim
    return lax.broadcast_in_dim(x, shape, tuple(range(k, len(shape))))


def broadcast_all(fname: str, *xs) -> list:
    """``xs`` broadcast against each other (NumPy's rules; ``ValueError`` naming ``fname``
    and the shapes), each at the common shape: copies, for computing on, not NumPy's views
    (``numpy_api.manipulation.broadcast_arrays``)."""
    shape = broadcast_shapes(fname, *[core.aval_of(x).shape for x in xs])
    return [broadcast_to(x, shape) for x in xs]


def broadcast_shapes(fname: str, *shapes, operands=None) -> tuple[int, ...]:
    """NumPy broadcasting of ``shapes``; ``ValueError`` naming ``fname`` and the shapes, and
    with ``operands`` (``(name, dtype)`` per shape) each operand's name and dtype."""
    big = [s for s in shapes if s != ()]
    if not big:
        return ()
    first = big[0]
    if all(s == first for s in big):
        return tuple(first)
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        msg = (f"xnp.{fname}: operands could not be broadcast together with shapes "
               + " ".join(str(tuple(s)) for s in shapes))
        if operands is not None:
            msg += " (" + ", ".join(f"{n}: {np.dtype(d).name} of shape {tuple(s)}"
                                    for (n, d), s in zip(operands, shapes)) + ")"
        raise ValueError(msg) from None


def broadcast_arrays(fname: str, *xs):
    """Rank-promote operands for a lax elementwise op; checks NumPy broadcastability."""
    shapes = [core.aval_of(x).shape for x in xs]
    out = broadcast_shapes(fname, *shapes)
    if all(len(s) in (0, len(out)) for s in shapes):
        return list(xs), out
    return [broadcast_to_rank(x, len(out)) for x in xs], out


_SCALAR_PROMOTION: dict = {}


def _scalar_operand(arr, scalar):
    """Fast path for ``array op python_scalar`` when the array's dtype wins (NEP 50)."""
    m = arr._meta()
    key = (m.dtype, arr._weak, type(scalar), config.snapshot())
    hit = _SCALAR_PROMOTION.get(key)
    if hit is None:  # typed by its Python type (any int beyond int64 is an int too)
        hit = _SCALAR_PROMOTION[key] = result_dtype(
            ShapedArray((), m.dtype, arr._weak), core.aval_of(type(scalar)()))
    dt, weak = hit
    if dt != m.dtype:
        return None, None
    try:
        value = np.asarray(scalar, dtype=dt)
    except OverflowError as e:
        raise OverflowError(f"Python integer {scalar} out of bounds for {dt}") from e
    return core.lift(value, weak_type=weak), dt


def int_out_of_range(x1, x2, bool_as_int=False):
    """Find a Python int operand outside the integer dtype of the other operand.

    NumPy 2 (NEP 50) raises ``OverflowError`` for such an int in arithmetic (as
    :func:`binary_operands` does) but gives comparisons their mathematically right answer
    and makes ``true_divide`` compute in float64. Returns ``(value, other, swapped)``
    (``swapped``: the int is ``x1``) or None when no operand is such an int.
    ``bool_as_int``: a bool operand counts as the default integer dtype, which the int
    would be converted to (``true_divide``: NumPy divides ``bool / 2**63`` in float64).
    """
    for v, other, swapped in ((x2, x1, False), (x1, x2, True)):
        if type(v) is int and isinstance(other, (_ARRAY, core.Tracer, np.ndarray, np.generic)):
            dt = core.aval_of(other).dtype
            if bool_as_int and dt.kind == "b":
                dt = default_int()
            if dt.kind in "iu":
                info = np.iinfo(dt)
                if not info.min <= v <= info.max:
                    return v, other, swapped
    return None


def traced_int(x1, x2, bool_as_int=False):
    """Find a weak integer scalar tracer (a Python int argument of ``jit``) beside an
    operand of another integer dtype (``bool_as_int``: or a bool one, as
    :func:`int_out_of_range`): ``(tracer, other, swapped)`` or None.

    Where NumPy treats an out-of-range Python int mathematically (comparisons, ``clip``,
    ``divide``; see :func:`int_out_of_range`), such a tracer must not be converted to the
    other dtype directly: ``jit`` checks those conversions against the argument's value
    (``xnp.tracing.python_ints``) and would raise.
    """
    for v, other, swapped in ((x2, x1, False), (x1, x2, True)):
        if isinstance(v, core.Tracer):
            av = v.aval
            if av.weak_type and av.shape == () and av.dtype.kind in "iu" and (
                    is_xnp(other) or isinstance(other, (np.ndarray, np.generic))):
                dt = core.aval_of(other).dtype
                if (dt.kind in "iu" and dt != av.dtype) or (bool_as_int and dt.kind == "b"):
                    return v, other, swapped
    return None


def clamp_traced_int(t, dtype: np.dtype, lower: bool = True, upper: bool = True):
    """Weak integer tracer ``t`` limited to ``dtype``'s range on the chosen sides (in its
    own dtype, still weak), so that converting it to ``dtype`` is exact on those sides."""
    own, info = np.iinfo(t.aval.dtype), np.iinfo(dtype)
    if lower and info.min > own.min:
        t = lax.max(t, core.lift(np.asarray(info.min, t.aval.dtype), weak_type=True))
    if upper and info.max < own.max:
        t = lax.min(t, core.lift(np.asarray(info.max, t.aval.dtype), weak_type=True))
    return t


def binary_operands(fname: str, x1, x2, *, argnames=("x1", "x2"), ufunc: bool = True):
    """Convert, promote (NEP 50) and rank-broadcast two ufunc operands (``ufunc``: to the
    dtype of NumPy's loop where they have no common dtype, :func:`ufunc_result_dtype`;
    otherwise that raises ``DTypePromotionError``, as NumPy's ``where`` does).

    Returns ``(a, b, dtype)``: lax-ready operands of one dtype and equal rank
    (or rank 0).
    """
    t1, t2 = type(x1), type(x2)
    if t1 is _ARRAY:
        if t2 is _ARRAY:
            # fast path for the common eager case: same dtype, same shape
            m1, m2 = x1._meta(), x2._meta()  # (two weak arrays: NEP 50 below, any shapes)
            if m1.dtype == m2.dtype and m1.shape == m2.shape and not (x1._weak and x2._weak):
                return x1, x2, m1.dtype
        elif t2 in _PY_SCALARS:
            b, dt = _scalar_operand(x1, x2)
            if b is not None:
                return x1, b, dt
    elif t2 is _ARRAY and t1 in _PY_SCALARS:
        a, dt = _scalar_operand(x2, x1)
        if a is not None:
            return a, x2, dt
    a = x1 if type(x1) in _PY_SCALARS else asarray_for(fname, x1, argnames[0])
    b = x2 if type(x2) in _PY_SCALARS else asarray_for(fname, x2, argnames[1])
    # a Python scalar is typed by its Python type (an int beyond int64 too: NumPy makes
    # it a float beside a float array, and raises only where it must become an integer)
    av_a = core.aval_of(type(a)() if type(a) in _PY_SCALARS else a)
    av_b = core.aval_of(type(b)() if type(b) in _PY_SCALARS else b)
    dt, weak = (ufunc_result_dtype if ufunc else result_dtype)(av_a, av_b)
    if av_a.dtype != dt or type(a) in _PY_SCALARS:
        a = promote_to(fname, a, dt, weak)
    if av_b.dtype != dt or type(b) in _PY_SCALARS:
        b = promote_to(fname, b, dt, weak)
    sa, sb = av_a.shape, av_b.shape
    if sa != sb and sa != () and sb != ():
        out = broadcast_shapes(fname, sa, sb,
                               operands=((argnames[0], av_a.dtype), (argnames[1], av_b.dtype)))
        if len(sa) != len(out):
            a = broadcast_to_rank(a, len(out))
        if len(sb) != len(out):
            b = broadcast_to_rank(b, len(out))
    return a, b, dt


def to_inexact_dtype(dt: np.dtype) -> np.dtype:
    """The dtype NumPy computes float functions in: ints/bool -> float64, floats unchanged."""
    if dt.kind in "fc" or dt.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        return dt
    if dt.kind == "b" or dt.itemsize == 1:
        return np.dtype(np.float16)  # as NumPy: np.sin(True) and np.sin(int8) are float16
    return np.dtype(np.float32) if dt.itemsize == 2 else default_float()


def static_int(fname: str, value, argname: str, *, python_bool: bool = False) -> int:
    """A concrete Python int from ``value`` (int, NumPy integer, concrete array).
    ``python_bool``: a Python bool is 0 or 1, where NumPy takes the argument with
    ``operator.index`` (``round(x, True)``); a NumPy bool is no integer there either.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``value`` is traced.
    TypeError
        ``value`` is not an integer.
    """
    if python_bool and type(value) is bool:
        return int(value)
    if isinstance(value, core.Tracer):
        v = value.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(errors.concretization_message(
                value, f"It arose in the xnp.{fname} argument '{argname}', which must be static."))
        value = v
    if type(value) is core.Array:
        value = value._value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.ndarray)):
        raise TypeError(f"xnp.{fname}: `{argname}` must be an integer, got {value!r}")
    if isinstance(value, np.ndarray):
        if value.ndim != 0 or value.dtype.kind not in "iu":
            raise TypeError(f"xnp.{fname}: `{argname}` must be an integer, got {value!r}")
    return int(value)


def normalize_axis(fname: str, axis, ndim: int, argname: str = "axis") -> int:
    """A non-negative axis; ``AxisError`` (a ValueError and IndexError) when out of range."""
    if isinstance(axis, core.Tracer):
        static_int(fname, axis, argname)
    if not isinstance(axis, (numbers.Integral,)) or isinstance(axis, bool):
        # what operator.index takes, as NumPy: a 0-d integer array (NumPy's or xnp's), an
        # object with __index__
        if isinstance(axis, (bool, np.bool_)) or (
                getattr(axis, "ndim", None) != 0 or
                getattr(axis, "dtype", np.dtype(bool)).kind not in "iu"
                if hasattr(axis, "ndim") else not hasattr(type(axis), "__index__")):
            raise TypeError(f"xnp.{fname}: `{argname}` must be an int, got {axis!r}")
        axis = operator.index(axis)
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, f"xnp.{fname}")
    return axis % ndim if ndim else 0


def normalize_axes(fname: str, axis, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Sorted tuple of non-negative axes; None means all. Repeated axes raise ValueError."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = [normalize_axis(fname, a, ndim, argname) for a in axis]
    else:
        axes = [normalize_axis(fname, axis, ndim, argname)]
    if len(set(axes)) != len(axes):
        raise ValueError(f"xnp.{fname}: repeated axis in `{argname}`={axis!r}")
    return tuple(sorted(axes))


def axis_tuple(fname: str, axis, ndim: int, argname: str = "axis", *,
               iterables: bool = True) -> tuple[int, ...]:
    """``axis`` as non-negative axes in its order, as NumPy's ``normalize_axis_tuple``
    takes it (``moveaxis``, ``trim_zeros``, ``unstack``): an int (or what
    ``operator.index`` takes, a 0-d integer array) or an iterable of them (tuple, list, 1-d
    array). ``iterables=False``: an int or a tuple only, and no bool, as NumPy's C
    functions (``squeeze``, the ufunc reductions) take it.

    Raises
    ------
    TypeError
        An item is not an integer; ``axis`` is neither one nor (a tuple or) an iterable.
    numpy.exceptions.AxisError
        An axis is out of range.
    ValueError
        An axis is repeated.
    """
    if not isinstance(axis, tuple):
        try:
            axis = (_axis_index(fname, axis, argname, iterables),)
        except TypeError:
            if not iterables:
                raise TypeError(f"xnp.{fname}: `{argname}` must be an int or a tuple of ints, "
                                f"got {axis!r}") from None
    try:
        items = list(axis)
    except TypeError:
        raise TypeError(f"xnp.{fname}: `{argname}` must be an int or a sequence of ints, got "
                        f"{axis!r}") from None
    out = [normalize_axis(fname, _axis_index(fname, item, argname, iterables), ndim, argname)
           for item in items]
    if len(set(out)) != len(out):
        raise ValueError(f"xnp.{fname}: repeated axis in `{argname}` argument")
    return tuple(out)


def function_axes(fname: str, x, axis) -> tuple[int, ...] | None:
    """``axis`` of the array ``x`` as NumPy's Python-level functions (``average``,
    ``median``, the quantiles) read it with ``normalize_axis_tuple``: None as is, else a
    tuple of non-negative axes (:func:`axis_tuple`: an int, a Python bool as 0 or 1, a 0-d
    integer array, or an iterable of them such as a list or a 1-element array)."""
    return None if axis is None else axis_tuple(fname, axis, core.aval_of(x).ndim)


def _axis_index(fname, item, argname, bools):
    """``operator.index(item)`` (a tracer as it is: ``normalize_axis`` says it must be static);
    a bool only where ``bools`` (NumPy's Python functions take True as 1, its C ones not)."""
    if isinstance(item, core.Tracer):
        return item
    if not bools and isinstance(item, (bool, np.bool_)):
        raise TypeError(f"xnp.{fname}: `{argname}` must hold ints, got {item!r}")
    try:
        return operator.index(item)
    except TypeError:
        raise TypeError(f"xnp.{fname}: `{argname}` must hold ints, got {item!r}") from None


def check_reduction_axis(fname: str, axis, argname: str = "axis") -> None:
    """``TypeError`` for a list ``axis``: NumPy's ufunc reductions and the functions built on
    them (``sum``, ``max``, ``mean``, ``any``, ``ufunc.reduce``, ...) take None, an int or a
    tuple of ints (other functions, ``expand_dims`` or ``median``, also take a list)."""
    if isinstance(axis, list):
        raise TypeError(f"xnp.{fname}: `{argname}` must be None, an int or a tuple of ints, "
                        f"not a list ({axis!r}); pass {tuple(axis)!r}")


def check_unsupported(fname: str, **kwargs) -> None:
    """``NotImplementedError`` for NumPy parameters xnp keeps in a signature but does not do.

    Pass ``name=(value, default, why)``.
    """
    for name, (value, default, why) in kwargs.items():
        if value is not default and not (isinstance(value, str) and value == default):
            raise NotImplementedError(f"xnp.{fname}: `{name}={value!r}` is not supported: {why}")


def _write_numpy_out(fname: str, out: np.ndarray, res, casting: str):
    """``out=`` a NumPy array (a ``memmap`` too): eagerly written in place and returned,
    as NumPy's ``out=``; a traced result cannot be written into host memory."""
    if type(out) is not np.ndarray:
        refuse_numpy_subclass(fname, out, "out")
    if type(res) is not core.Array:
        raise NotImplementedError(
            f"xnp.{fname}: `out` is a NumPy array (shape {out.shape}, dtype {out.dtype.name}) "
            "but the result is traced (inside jit/grad/vmap): writing it into host memory "
            "would be a side effect. Return the result instead.")
    ra = core.aval_of(res)
    if ra.shape != out.shape:
        raise ValueError(f"xnp.{fname}: `out` has shape {out.shape} but the result has shape "
                         f"{ra.shape}")
    if not np.can_cast(ra.dtype, out.dtype, casting):
        raise TypeError(
            f"xnp.{fname}: cannot cast the result from {ra.dtype} to `out` dtype {out.dtype} "
            f"with casting rule {casting!r}")
    value = res._value
    if ra.dtype.kind == "c" and out.dtype.kind not in "cb":  # NumPy's warning, at the user's
        warn_complex_to_real()  # line (not at the copy's)
        value = value.real
    np.copyto(out, value, casting="unsafe")
    return out


def write_out(fname: str, out, res, casting: str = "same_kind"):
    """NumPy's ``out=``: write ``res`` into ``out`` (same shape; ``casting`` rule: NumPy's
    ufuncs use same_kind, its reductions and accumulations unsafe; a complex result cast to
    a real or integer ``out`` warns NumPy's ``ComplexWarning``).

    Eager: in place, as NumPy does. Under jit the traced ``out`` is rebound to
    the new value (functionalized). Returns ``out`` (or ``res`` when ``out`` is None).
    An eager ``out`` inside a transformation raises ``NotImplementedError`` (as
    ``x[idx] = v`` does: the write would be a side effect).
    """
    if out is None:
        return res
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"xnp.{fname}: `out` must be one array, got a tuple of {len(out)}")
        out = out[0]
    if isinstance(out, np.ndarray):
        return _write_numpy_out(fname, out, res, casting)
    if isinstance(out, core.Array) and out._user_subclass:  # (a subclass of xnp.ndarray:
        write_out(fname, out._plain(), res, casting)  # written through a plain array
        return out  # sharing its memory, and returned as given, as NumPy's out=)
    if not is_xnp(out):
        raise TypeError(f"xnp.{fname}: `out` must be an array, got {type(out).__name__}")
    ra, oa = core.aval_of(res), core.aval_of(out)
    if ra.shape != oa.shape:
        raise ValueError(f"xnp.{fname}: `out` has shape {oa.shape} but the result has shape {ra.shape}")
    if not np.can_cast(ra.dtype, oa.dtype, casting):
        raise TypeError(
            f"xnp.{fname}: cannot cast the result from {ra.dtype} to `out` dtype {oa.dtype} "
            f"with casting rule {casting!r}")
    if ra.dtype != oa.dtype:
        if ra.dtype.kind == "c" and oa.dtype.kind not in "cb":  # (an unsafe cast)
            warn_complex_to_real()
        res = lax.convert_element_type(res, oa.dtype)
    if type(out) is core.Array and adopt(out, (res,)):  # bound to a cell (e.g. an array
        rebind_traced(out, res, fname)  # the running grad/vmap function made)
        return out
    try:
        if type(out) is core.Array:
            core.check_eager_write(oa, res)
            check_writable(out)
            if type(res) is core.Array:  # (a replay repeats it as NumPy's ufunc with out=)
                recording.write_result(out, res, write_whole)
            else:
                write_into(out._writable_value(), ..., res)
            return out
        return rebind_traced(out, res, fname)
    except errors.ForeignWriteError as e:
        raise unmapped_write_error(e, out, res) from None


def unmapped_write_error(err, x, value, idx=()):
    """``err`` (the ``ForeignWriteError`` of writing ``value`` at ``idx`` into ``x``), or,
    when ``x`` is not mapped by the running ``vmap`` but the index or the value is, the
    ``ForeignWriteError`` that says so and what to write instead."""
    trace = core.current_trace()
    if getattr(trace, "transformation", None) != "vmap":
        return err

    def batched(v):
        if isinstance(v, (tuple, list)):
            return [a for part in v for a in batched(part)]
        return [v.aval] if isinstance(v, core.Tracer) and v._trace is trace else []

    parts = []
    index_avals = batched(idx if isinstance(idx, tuple) else (idx,))
    if index_avals:
        parts.append(f"the index ({errors.avals_str(index_avals)} per example)")
    if batched(value):
        parts.append(f"the value ({errors.avals_str(batched(value))} per example)")
    if not parts:
        return err
    return errors.ForeignWriteError(errors.unmapped_write_message(
        core.aval_of(x), trace.fun_name, parts, type(x) is core.Array), trace)


def warn(message, category=None, stacklevel: int | None = None) -> None:
    """``warnings.warn`` for the NumPy surface's own warnings: the eager dispatch cache
    does not replay the call that warns (``recording.note_effect``), so every call warns.
    ``stacklevel`` counts from the caller of this; None (default): the first frame outside
    xnp, the user's call, as NumPy's warnings name it."""
    recording.note_effect("issued a warning")
    level = outside_stacklevel() if stacklevel is None else stacklevel + 1
    warnings.warn(message, category, stacklevel=level)


def warn_complex_to_real() -> None:
    """NumPy's ``ComplexWarning`` for complex values cast to a real or integer dtype (a cast
    to bool takes the truth, silently), at the user's line (:func:`warn`)."""
    warn(np.exceptions.ComplexWarning(
        "Casting complex values to real discards the imaginary part"))


def check_writable(out) -> None:
    """NumPy's ``ValueError`` for an output (``out=``, the left operand of an in-place
    operator) whose memory is read-only: an eager array (not a jit output, whose host memory
    a write copies first) whose NumPy value is not writeable (``broadcast_to``'s view,
    ``flags.writeable = False``)."""
    v = out._v  # (flags.num bit 10: WRITEABLE; flags.writeable of a broadcast_arrays
    if v is not None and out._dev is None and not v.flags.num & 0x400:  # result warns)
        raise ValueError("output array is read-only")


def write_whole(dst, value) -> None:
    """``dst[...] = value`` as :func:`write_into` writes it."""
    write_into(dst, ..., value)


_NARROW_INEXACT = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.complex64))


def cast_may_warn(dtype, value) -> bool:
    """Whether NumPy's cast of ``value`` into an array of ``dtype`` may meet a
    floating-point error ("overflow/invalid value encountered in cast"): a floating or
    complex array or NumPy scalar of another dtype, a Python float or complex into a
    narrower inexact dtype, or a list or tuple (its elements as NumPy converts them)."""
    vd = getattr(value, "dtype", None)
    if vd is not None:
        return vd != dtype and vd.kind in "fc"
    return (type(value) in (float, complex) and dtype in _NARROW_INEXACT) or \
        type(value) in (list, tuple)


def write_into(dst, index, value) -> None:
    """``dst[index] = value`` on a NumPy array. A write into a ``broadcast_arrays`` result
    or a view of one (NumPy's WARN_ON_WRITE flag, bit 31 of ``flags.num``: negative) gets
    NumPy's DeprecationWarning at the user's line (:func:`warn`), as NumPy's names the
    writing line; where that warning is an error, nothing is written, as in NumPy. The
    floating-point warnings of a cast name the user's line too
    (``fp_warnings.at_user_line``)."""
    if dst.flags.num >= 0:
        if cast_may_warn(dst.dtype, value):
            fp_warnings.at_user_line(dst.__setitem__, index, value)
        else:
            dst[index] = value
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            dst[index] = value
            return
        except DeprecationWarning as e:
            message = str(e)
    warn(message, DeprecationWarning)
    with warnings.catch_warnings():  # NumPy warns once per array: the flag is cleared here
        warnings.simplefilter("ignore", DeprecationWarning)
        dst[index] = value


def order_letter(fname: str, order) -> str:
    """NumPy's spelling of an ``order`` argument: one letter of any case, as ``str`` or
    ``bytes``, upper-cased ('C', 'F', 'A' or 'K'). A non-string is ``TypeError``, any other
    string ``ValueError`` (NumPy's order converter)."""
    name = order
    if isinstance(order, bytes):
        try:
            name = order.decode("ascii")
        except UnicodeDecodeError:
            name = ""
    elif not isinstance(order, str):
        raise TypeError(f"xnp.{fname}: order must be str, not {type(order).__name__}")
    if len(name) == 1 and name.upper() in "CFAK":
        return name.upper()
    raise ValueError(f"xnp.{fname}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
