"""``xnp.dtypes``: NumPy's dtype classes (``numpy.dtypes``), the same objects.

``xnp.dtype`` is ``numpy.dtype``, so ``type(xnp.dtype("float64")) is
xnp.dtypes.Float64DType`` and ``isinstance(x.dtype, xnp.dtypes.Int32DType)`` work as
in NumPy. The classes of the string, bytes, structured, object, datetime and
longdouble dtypes are here too; xnp arrays of those dtypes are NumPy's arrays on the host,
eager only (see ``xnp/tracing/host_arrays.py``). ml_dtypes' ``bfloat16`` and float8 types, which
xnp adds, have no class here (NumPy sees them as user dtypes).

This module is ``xnp.dtypes``; the scalar types and dtype functions of the main
namespace (``xnp.float32``, ``xnp.result_type``) live in ``xnp/numpy_api/dtypes.py``.
"""

from numpy.dtypes import (BoolDType, ByteDType, BytesDType, CLongDoubleDType, Complex64DType,
                          Complex128DType, DateTime64DType, Float16DType, Float32DType,
                          Float64DType, Int8DType, Int16DType, Int32DType, Int64DType,
                          IntDType, LongDType, LongDoubleDType, LongLongDType, ObjectDType,
                          ShortDType, StrDType, StringDType, TimeDelta64DType, UByteDType,
                          UInt8DType, UInt16DType, UInt32DType, UInt64DType, UIntDType,
                          ULongDType, ULongLongDType, UShortDType, VoidDType)

__all__ = [
    "BoolDType", "ByteDType", "BytesDType", "CLongDoubleDType", "Complex64DType",
    "Complex128DType", "DateTime64DType", "Float16DType", "Float32DType", "Float64DType",
    "Int8DType", "Int16DType", "Int32DType", "Int64DType", "IntDType", "LongDType",
    "LongDoubleDType", "LongLongDType", "ObjectDType", "ShortDType", "StrDType",
    "StringDType", "TimeDelta64DType", "UByteDType", "UInt8DType", "UInt16DType",
    "UInt32DType", "UInt64DType", "UIntDType", "ULongDType", "ULongLongDType", "UShortDType",
    "VoidDType",
]
