"""Dtypes, scalar types and dtype functions (``xnp.float32``, ``xnp.result_type``, ...).

Scalar types are usable wherever NumPy accepts a dtype (``np.dtype(xnp.float32)``,
``x.astype(xnp.int8)``, ``x.dtype == xnp.float64``) and, called, they create a
0-d xnp array of that dtype (staged under ``jit``, as every xnp call is).
"""

from __future__ import annotations

import inspect

import ml_dtypes
import numpy as np

from xnp.numpy_api._util import asarray_for, result_dtype
from xnp.tracing import core, errors, host_arrays
from xnp.tracing.avals import ShapedArray, canonical_dtype
from xnp.tracing.recording import metadata_function

__all__ = [
    "bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn",
    "float8_e5m2", "intp", "uintp", "double", "single", "half", "cdouble", "csingle", "int_",
    "float_", "complex_", "dtype", "finfo", "iinfo", "issubdtype", "isdtype", "result_type",
    "promote_types", "can_cast", "generic", "number", "integer", "signedinteger",
    "unsignedinteger", "inexact", "floating", "complexfloating", "pi", "e", "inf", "nan",
    "euler_gamma", "newaxis", "str_", "bytes_", "void", "object_", "datetime64", "timedelta64",
    "longdouble", "clongdouble", "character", "flexible",
]

dtype = np.dtype
iinfo = ml_dtypes.iinfo
generic = np.generic
number = np.number
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating
pi = np.pi
e = np.e
inf = np.inf
nan = np.nan
euler_gamma = np.euler_gamma
newaxis = None


class _ScalarMeta(type):
    """Metaclass of xnp's scalar types: subclasses of NumPy's (``issubclass(xnp.float64,
    np.floating)``, NumPy's class attributes), usable as dtypes, whose call is NumPy's.

    ``xnp.float64(1.5)`` is NumPy's ``np.float64(1.5)`` (and ``xnp.float64()`` its zero,
    ``xnp.int64("7")`` its parse); on a NumPy or xnp array it converts elementwise into an
    xnp array, a 0-d eager one giving the NumPy scalar, as NumPy's does; on a traced value,
    or on any value while a transformation traces, it is a conversion to the dtype, staged
    (``xnp.float32(tracer)``; ``xnp.float64(2)`` inside ``jit`` is a tracer). A user
    subclass of one constructs its own instances, as a subclass of NumPy's does. NumPy's
    scalars are instances (``isinstance(np.float64(1), xnp.float64)``) and NumPy's types
    subclasses (``issubclass(np.float64, xnp.float64)``); equal to NumPy's type and dtype,
    hashing as the dtype (``{np.dtype("float64"): ...}[xnp.float64]``)."""

    def __call__(cls, *args):
        if "_xnp_scalar_type" not in cls.__dict__:  # a user's subclass: NumPy's construction
            return type.__call__(cls, *args)
        if len(args) == 1 and (isinstance(args[0], (core.Array, core.Tracer)) or (
                core._TRACING_THREADS and not core.is_eager(core._STATE.trace))):
            # an array, or any value while this thread traces (staged: omnistaging)
            return _CONVERT[0](args[0], cls.dtype)
        out = cls.dtype.type(*args)
        return _CONVERT[0](out, cls.dtype) if type(out) is np.ndarray else out

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.dtype.type)

    def __subclasscheck__(cls, sub):
        return type.__subclasscheck__(cls, sub) or (
            "_xnp_scalar_type" in cls.__dict__ and issubclass(sub, cls.dtype.type))

    def __eq__(cls, other):
        # Compares with anything without raising: a dtype, a scalar type or a dtype
        # string is compared as a dtype; None and any other object are unequal.
        if isinstance(other, _ScalarMeta):
            return cls.dtype == other.dtype
        if isinstance(other, np.dtype):
            return cls.dtype == other
        if isinstance(other, type) or isinstance(other, str):
            try:
                return cls.dtype == np.dtype(other)
            except (TypeError, ValueError, SyntaxError):
                return False
        return NotImplemented

    def __hash__(cls):
        # as its NumPy dtype (the Array API's dtype objects are looked up with x.dtype:
        # {xp.float64: ...}[x.dtype]); NumPy's type and dtype, both equal to it, hash
        # differently in NumPy itself, and the dtype is what keys such tables
        return hash(cls.dtype)

    def mro(cls):
        # C3 by identity: Python's own merge compares classes with ==, and an xnp scalar
        # type equals the NumPy type it derives from, so a user's subclass would not build
        seqs = [[cls]] + [list(b.__mro__) for b in cls.__bases__] + [list(cls.__bases__)]
        out: list = []
        while True:
            seqs = [q for q in seqs if q]
            if not seqs:
                return out
            for q in seqs:
                head = q[0]
                if not any(head is c for r in seqs for c in r[1:]):
                    break
            else:
                raise TypeError(f"Cannot create a consistent method resolution order for "
                                f"{cls.__name__}")
            out.append(head)
            seqs = [r[1:] if r[0] is head else r for r in seqs]

    def __repr__(cls):
        if "_xnp_scalar_type" not in cls.__dict__:
            return type.__repr__(cls)
        return f"<class 'xnp.{cls.__name__}'>"


def _convert(x, dtype):
    """``asarray(x, dtype)`` with NumPy's scalar rule: the scalar-type call's result."""
    from xnp.numpy_api._scalars import scalar_result  # noqa: PLC0415  (imports this module)
    from xnp.numpy_api.creation import asarray  # noqa: PLC0415

    def convert(v, dt):
        return scalar_result(asarray(v, dtype=dt))

    _CONVERT[0] = convert
    return convert(x, dtype)


_CONVERT = [_convert]  # replaced by the bound converter on first use


def _scalar_type(name: str, np_type) -> type:
    dt = np.dtype(np_type)
    return _ScalarMeta(name, (dt.type,), {
        # no __slots__, and a user's subclass of it cannot be laid out (CPython's check)
        "dtype": dt, "_xnp_scalar_type": True, "__module__": "xnp", "__slots__": (), "__doc__":
        f"The {dt.name} scalar type: `xnp.{name}(x)` is NumPy's {dt.name} scalar of `x` (an "
        "xnp array for an array, staged under jit); usable as a dtype."})


bool_ = _scalar_type("bool_", np.bool_)
bool = bool_  # noqa: A001  (NumPy 2 / Array API spelling)
int8 = _scalar_type("int8", np.int8)
int16 = _scalar_type("int16", np.int16)
int32 = _scalar_type("int32", np.int32)
int64 = _scalar_type("int64", np.int64)
uint8 = _scalar_type("uint8", np.uint8)
uint16 = _scalar_type("uint16", np.uint16)
uint32 = _scalar_type("uint32", np.uint32)
uint64 = _scalar_type("uint64", np.uint64)
float16 = _scalar_type("float16", np.float16)
bfloat16 = _scalar_type("bfloat16", ml_dtypes.bfloat16)
float32 = _scalar_type("float32", np.float32)
float64 = _scalar_type("float64", np.float64)
complex64 = _scalar_type("complex64", np.complex64)
complex128 = _scalar_type("complex128", np.complex128)
float8_e4m3fn = _scalar_type("float8_e4m3fn", ml_dtypes.float8_e4m3fn)
float8_e5m2 = _scalar_type("float8_e5m2", ml_dtypes.float8_e5m2)
#: xnp's scalar types of XLA's dtypes (module globals: they live as long as the process)
SCALAR_TYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                bfloat16, float32, float64, complex64, complex128, float8_e4m3fn, float8_e5m2)
intp = int64
uintp = uint64
int_ = int64
double = float64
float_ = float64
single = float32
half = float16
cdouble = complex128
complex_ = complex128
csingle = complex64


class _HostScalarMeta(_ScalarMeta):
    """A scalar type of a dtype XLA has no type for (``xnp.str_``, ``xnp.datetime64``):
    called, NumPy's constructor (its arguments: ``datetime64("2024-01", "D")``) made into a
    0-d xnp array (a Python object for ``object_``, as NumPy's); eager only."""

    def __call__(cls, *args, **kwargs):
        trace = core.current_trace()
        if type(trace) is not core.EvalTrace:
            raise errors.HostDtypeError(errors.host_dtype_message(
                f"xnp.{cls.__name__}(...)", cls.dtype, trace.transformation), cls.dtype)
        return host_arrays.wrap(cls.scalar_type(*host_arrays.to_host(args, []), **kwargs))


_ANY_ARGUMENTS = inspect.Signature([
    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])


def _host_scalar_type(name: str, np_type) -> type:
    dt = np.dtype(np_type)
    return _HostScalarMeta(name, (), {
        "dtype": dt, "scalar_type": np_type, "__signature__": _ANY_ARGUMENTS, "__doc__":
        f"NumPy's ``numpy.{np_type.__name__}`` scalar type ({dt.name} values; XLA has no such "
        f"type): `xnp.{name}(...)` is a 0-d xnp array made by NumPy's constructor, eagerly; "
        "usable as a dtype."})


str_ = _host_scalar_type("str_", np.str_)
bytes_ = _host_scalar_type("bytes_", np.bytes_)
void = _host_scalar_type("void", np.void)
object_ = _host_scalar_type("object_", np.object_)
datetime64 = _host_scalar_type("datetime64", np.datetime64)
timedelta64 = _host_scalar_type("timedelta64", np.timedelta64)
longdouble = _host_scalar_type("longdouble", np.longdouble)
clongdouble = _host_scalar_type("clongdouble", np.clongdouble)
character = np.character
flexible = np.flexible
if hasattr(np, "float128"):  # where NumPy has them (x86-64 Linux: 80-bit long double)
    float128 = longdouble
    complex256 = clongdouble
    __all__ += ["float128", "complex256"]


class _Limit(float):
    """A ``finfo`` limit of a dtype narrower than float64: a Python ``float`` (the Array API
    standard's type for these fields) that prints, computes and converts as NumPy's scalar
    of that dtype (``numpy.finfo(numpy.float32).eps`` is ``np.float32(1.1920929e-07)``):
    ``str``/``repr``/``format``, arithmetic (``eps * 2`` is a ``numpy.float32``), NumPy's
    ufuncs and operators on it (``__array_ufunc__``) and xnp arrays made of it
    (``__array__``: ``x * eps`` and ``xnp.full(2, eps)`` have the dtypes NumPy gives with
    its scalar). ``numpy.asarray(eps)`` alone is float64: NumPy reads a float subclass
    as a float64 without asking it.
    """

    __slots__ = ("scalar",)

    def __new__(cls, scalar):
        self = super().__new__(cls, float(scalar))
        self.scalar = scalar
        return self

    def __repr__(self):
        return repr(self.scalar)

    def __str__(self):
        return str(self.scalar)

    def __format__(self, spec):
        return format(self.scalar, spec)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.scalar, dtype=dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # NumPy's operators and ufuncs with a limit compute with NumPy's scalar (NumPy
        # would take a float subclass for a float64)
        inputs = tuple(v.scalar if type(v) is _Limit else v for v in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __reduce__(self):
        return (_Limit, (self.scalar,))


def _delegate(name):
    def method(self, *args):
        return getattr(self.scalar, name)(*args)

    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__neg__", "__pos__", "__abs__"):
    setattr(_Limit, _name, _delegate(_name))


class finfo:
    """Machine limits of a floating-point dtype (``numpy.finfo``, with ml_dtypes' types).

    ``dtype`` may be a dtype, a scalar type, a dtype string or an array (its
    dtype); a complex dtype gives the limits of its real part. ``bits`` and the
    other integer fields are Python ints. ``eps``, ``max``, ``min``,
    ``smallest_normal`` (and every other limit: ``epsneg``, ``resolution``,
    ``smallest_subnormal``, ``tiny``) are NumPy's values and are ``float``
    instances, as the Array API standard requires: for float64 NumPy's own
    ``numpy.float64`` scalars (a ``float`` subclass); for narrower dtypes a
    ``float`` that prints, computes and promotes as NumPy's scalar of the dtype
    (``print(finfo(float32).eps)`` prints ``1.1920929e-07``; ``x * eps`` has
    the dtype ``x * numpy.float32(eps)`` has). ``dtype`` is the real
    ``numpy.dtype``.

    Raises
    ------
    ValueError
        ``dtype`` is not a floating-point or complex dtype.
    """

    _FLOATS = ("eps", "epsneg", "max", "min", "resolution", "smallest_normal",
               "smallest_subnormal", "tiny")
    _INTS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant",
             "precision")

    def __init__(self, dtype):
        d = _info_dtype(dtype)
        if not (d.kind in "fc" or d.name in _ML_FLOATS):
            raise ValueError(f"xnp.finfo: data type {d.name} is not a floating-point or "
                             "complex dtype (use xnp.iinfo for integers)")
        info = ml_dtypes.finfo(d)
        self._info = info
        self.dtype = np.dtype(info.dtype)
        for name in self._FLOATS:
            if hasattr(info, name):
                setattr(self, name, _limit(self.dtype, getattr(info, name)))
        for name in self._INTS:
            if hasattr(info, name):
                setattr(self, name, int(getattr(info, name)))

    def __repr__(self):
        return repr(self._info)

    def __str__(self):
        return str(self._info)


def _limit(dtype: np.dtype, value) -> float:
    """A limit as a ``float`` with NumPy's printing and promotion (see :class:`finfo`)."""
    scalar = np.asarray(value, dtype=dtype)[()]
    if isinstance(scalar, float):  # numpy.float64 is a float already
        return scalar
    return _Limit(scalar)


_ML_FLOATS = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def _info_dtype(t) -> np.dtype:
    if type(t) is core.Array or isinstance(t, core.Tracer):
        return t.dtype
    return _as_np_dtype(t)


def _as_np_dtype(t):
    if isinstance(t, _ScalarMeta):
        return t.dtype
    return np.dtype(t)


@metadata_function
def issubdtype(arg1, arg2) -> bool:
    """``numpy.issubdtype`` that also understands xnp scalar types and ml_dtypes
    (bfloat16 and float8 are floating)."""
    d1 = _as_np_dtype(arg1)
    if isinstance(arg2, _HostScalarMeta):  # generic units and lengths: datetime64, str_
        return np.issubdtype(d1, arg2.scalar_type)
    if isinstance(arg2, _ScalarMeta):
        return d1 == arg2.dtype
    if arg2 in (np.floating, np.inexact, np.number, np.generic) and d1.name in (
            "bfloat16", "float8_e4m3fn", "float8_e5m2"):
        return True
    return np.issubdtype(d1, arg2)


_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f" or d.name in ("bfloat16", "float8_e4m3fn",
                                                          "float8_e5m2"),
    "complex floating": lambda d: d.kind == "c",
}
_KINDS["numeric"] = lambda d: d.kind in "iufc" or _KINDS["real floating"](d)


@metadata_function
def isdtype(dtype, kind) -> bool:
    """Array API ``isdtype``: is ``dtype`` of ``kind`` (a dtype, a kind name, or a tuple).

    Raises
    ------
    TypeError
        ``dtype`` is a string or another non-dtype (NumPy's rule: a dtype object).
    ValueError
        An unknown kind name.
    """
    if isinstance(dtype, str):
        raise TypeError(f"xnp.isdtype: dtype argument must be a dtype, but it is a "
                        f"{type(dtype)} ({dtype!r})")
    d = _as_np_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        try:
            return _KINDS[kind](d)
        except KeyError:
            raise ValueError(f"xnp.isdtype: unknown kind {kind!r}") from None
    return d == _as_np_dtype(kind)


@metadata_function
def result_type(*arrays_and_dtypes) -> np.dtype:
    """NumPy 2 result dtype (NEP 50): Python scalars and weakly typed arrays defer to the
    other operands; xnp arrays and tracers are looked at by their aval only."""
    avals = []
    for x in arrays_and_dtypes:
        if isinstance(x, (np.dtype, _ScalarMeta)) or (isinstance(x, type) and
                                                       issubclass(x, np.generic)):
            avals.append(ShapedArray((), _as_np_dtype(x)))
        elif isinstance(x, str):
            avals.append(ShapedArray((), canonical_dtype(x)))
        elif type(x) is core.Array or isinstance(x, core.Tracer) or core.is_python_scalar(x):
            avals.append(core.aval_of(x))
        else:
            avals.append(core.aval_of(asarray_for("result_type", x)))
    if not avals:
        raise ValueError("xnp.result_type: at least one array or dtype is required")
    return result_dtype(*avals)[0]


@metadata_function
def promote_types(type1, type2) -> np.dtype:
    """The smallest dtype both can be safely cast to (``numpy.promote_types``)."""
    return np.promote_types(_as_np_dtype(type1), _as_np_dtype(type2))


@metadata_function
def can_cast(from_, to, casting="safe") -> bool:
    """``numpy.can_cast`` for dtypes and xnp arrays (by dtype)."""
    if type(from_) is core.Array or isinstance(from_, core.Tracer):
        from_ = from_.dtype
    return np.can_cast(_as_np_dtype(from_), _as_np_dtype(to), casting)
