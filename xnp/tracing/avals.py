"""Abstract values: ``ShapedArray`` (shape, dtype, weak type) and ``ShapeDtypeStruct``.

An aval is what a tracer knows about the value it stands for. Avals are
immutable, hashable and compared by (shape, dtype, weak_type), so they can be
part of jit cache keys.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp.tracing import errors
from xnp.tracing.sizes import check_array_size

__all__ = ["ShapedArray", "ShapeDtypeStruct", "short_dtype_name", "canonical_dtype"]

_SHORT_NAMES = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "u8",
    np.dtype(np.uint16): "u16",
    np.dtype(np.uint32): "u32",
    np.dtype(np.uint64): "u64",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "c64",
    np.dtype(np.complex128): "c128",
    np.dtype(ml_dtypes.float8_e4m3fn): "f8_e4m3fn",
    np.dtype(ml_dtypes.float8_e5m2): "f8_e5m2",
}

SUPPORTED_DTYPES = frozenset(_SHORT_NAMES)


def short_dtype_name(dtype: np.dtype) -> str:
    """The jaxpr spelling of a dtype: ``f64``, ``i32``, ``bool``, ``bf16``."""
    return _SHORT_NAMES.get(dtype, dtype.name)


def canonical_dtype(dtype, *, name: str = "dtype") -> np.dtype:
    """``np.dtype(dtype)``, rejecting dtypes XLA has no type for (object, str, ...).

    Raises
    ------
    TypeError
        ``dtype`` is not a dtype.
    xnp.errors.HostDtypeError
        The dtype is not one of xnp's numeric dtypes (its arrays are NumPy's, eager only;
        the ``xnp`` functions catch this and run NumPy's function on them).
    """
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"xnp: `{name}` is not a dtype: {dtype!r}") from e
    if dt not in SUPPORTED_DTYPES:
        raise errors.HostDtypeError(errors.host_dtype_message(f"xnp: `{name}`", dt), dt)
    return dt


def _dims(shape) -> str:
    return ",".join(str(d) for d in shape)


class ShapedArray:
    """Abstract value of an array: shape, dtype and weak type.

    ``weak_type`` marks a value that came from a Python scalar; it promotes
    like a Python scalar (NEP 50), e.g. ``float32 array * 2.0`` stays float32.

    ``repr``: ``ShapedArray(float64[3,4])`` or ``ShapedArray(float64[], weak_type=True)``;
    ``str``: ``float64[3,4]`` or ``~float64[]``; :meth:`str_short`: ``f64[3,4]``.
    """

    __slots__ = ("shape", "dtype", "weak_type", "_hash")

    def __init__(self, shape, dtype, weak_type: bool = False):
        if type(shape) is not tuple:
            shape = tuple(int(d) for d in shape)
        self.shape = shape
        self.dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self._hash = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def update(self, shape=None, dtype=None, weak_type=None) -> "ShapedArray":
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
        )

    def strip_weak_type(self) -> "ShapedArray":
        return self.update(weak_type=False) if self.weak_type else self

    def str_short(self) -> str:
        return f"{short_dtype_name(self.dtype)}[{_dims(self.shape)}]"

    def __eq__(self, other):
        return (
            type(other) is ShapedArray
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self):
        h = self._hash
        if h is None:
            h = self._hash = hash((self.shape, self.dtype, self.weak_type))
        return h

    def __str__(self):
        return f"{'~' if self.weak_type else ''}{self.dtype.name}[{_dims(self.shape)}]"

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.dtype.name}[{_dims(self.shape)}]{weak})"


class ShapeDtypeStruct:
    """Shape and dtype of an array, without data (the result of ``return_shape=True``).

    ``ValueError`` for a negative dimension or a byte size beyond int64 (no array could
    have it; XLA would abort on it).
    """

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type: bool = False):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        check_array_size("ShapeDtypeStruct", self.shape, self.dtype, allocates=False)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __eq__(self, other):
        return (
            isinstance(other, ShapeDtypeStruct)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"
