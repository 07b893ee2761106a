"""ShapedArray and ShapeDtypeStruct: equality, hashing, repr/str, and tracer metadata (shape, dtype, ndim)."""

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp.tracing import ShapedArray
from xnp.tracing.avals import canonical_dtype, short_dtype_name


def test_shaped_array_eq_and_hash():
    a = ShapedArray((3, 4), np.float32)
    b = ShapedArray([3, 4], np.dtype("float32"))
    assert a == b and hash(a) == hash(b)
    assert a != ShapedArray((3, 4), np.float32, weak_type=True)
    assert a != ShapedArray((4, 3), np.float32)
    assert a != ShapedArray((3, 4), np.float64)
    assert a != (3, 4) and a != "float32[3,4]"
    assert len({a, b, ShapedArray((3, 4), np.float32, True)}) == 2


def test_shaped_array_normalises_shape_entries():
    # a non-tuple shape is converted to a tuple of Python ints (a tuple is trusted: shape
    # rules return Python ints, which typecheck_jaxpr verifies)
    a = ShapedArray([np.int64(2), np.int32(3)], "float64")
    assert a.shape == (2, 3) and all(type(d) is int for d in a.shape)
    assert a.dtype == np.dtype(np.float64) and isinstance(a.dtype, np.dtype)
    assert a.ndim == 2 and a.size == 6
    assert ShapedArray((), np.int64).size == 1 and ShapedArray((2, 0), np.int64).size == 0


@pytest.mark.parametrize("aval,r,s,short", [
    (ShapedArray((3, 4), np.float64), "ShapedArray(float64[3,4])", "float64[3,4]", "f64[3,4]"),
    (ShapedArray((), np.float64, True), "ShapedArray(float64[], weak_type=True)", "~float64[]",
     "f64[]"),
    (ShapedArray((2,), np.bool_), "ShapedArray(bool[2])", "bool[2]", "bool[2]"),
    (ShapedArray((1, 2, 3), np.int32), "ShapedArray(int32[1,2,3])", "int32[1,2,3]", "i32[1,2,3]"),
    (ShapedArray((0,), np.complex128), "ShapedArray(complex128[0])", "complex128[0]", "c128[0]"),
    (ShapedArray((2,), ml_dtypes.bfloat16), "ShapedArray(bfloat16[2])", "bfloat16[2]", "bf16[2]"),
])
def test_shaped_array_repr_str(aval, r, s, short):
    assert repr(aval) == r
    assert str(aval) == s
    assert aval.str_short() == short


def test_weak_type_update_and_strip():
    a = ShapedArray((), np.float64, weak_type=True)
    assert a.strip_weak_type() == ShapedArray((), np.float64)
    assert a.update(shape=(2,)) == ShapedArray((2,), np.float64, True)
    assert a.update(dtype=np.int32, weak_type=False) == ShapedArray((), np.int32)
    s = ShapedArray((3,), np.float64)
    assert s.strip_weak_type() is s


@pytest.mark.parametrize("dt,name", [
    (np.bool_, "bool"), (np.int8, "i8"), (np.int16, "i16"), (np.int32, "i32"), (np.int64, "i64"),
    (np.uint8, "u8"), (np.uint16, "u16"), (np.uint32, "u32"), (np.uint64, "u64"),
    (np.float16, "f16"), (ml_dtypes.bfloat16, "bf16"), (np.float32, "f32"), (np.float64, "f64"),
    (np.complex64, "c64"), (np.complex128, "c128"),
])
def test_short_dtype_names(dt, name):
    assert short_dtype_name(np.dtype(dt)) == name


def test_canonical_dtype_rejects_non_numeric():
    assert canonical_dtype("float32") == np.dtype(np.float32)
    for bad in (object, np.str_, "U3", "datetime64[s]", np.longdouble, ">f8"):
        with pytest.raises(xnp.errors.HostDtypeError, match="cannot be traced") as info:
            canonical_dtype(bad)
        assert info.value.dtype == np.dtype(bad) and str(np.dtype(bad)) in str(info.value)
    with pytest.raises(TypeError, match="not a dtype"):
        canonical_dtype("no-such-dtype")


def test_shape_dtype_struct():
    s = xnp.ShapeDtypeStruct((3,), np.float64)
    assert s == xnp.ShapeDtypeStruct([3], "float64")
    assert hash(s) == hash(xnp.ShapeDtypeStruct((3,), np.float64))
    assert s != xnp.ShapeDtypeStruct((3,), np.float32)
    assert s != xnp.ShapeDtypeStruct((3,), np.float64, weak_type=True)
    assert s != ShapedArray((3,), np.float64)
    assert repr(s) == "ShapeDtypeStruct(shape=(3,), dtype=float64)"
    assert repr(xnp.ShapeDtypeStruct((), np.int32)) == "ShapeDtypeStruct(shape=(), dtype=int32)"
    assert repr(xnp.ShapeDtypeStruct((2, 3), np.float64, weak_type=True)) == (
        "ShapeDtypeStruct(shape=(2, 3), dtype=float64, weak_type=True)")
    assert s.ndim == 1 and s.size == 3 and s.shape == (3,) and s.dtype == np.float64


def test_tracer_aval_is_shaped_array():
    seen = []

    @xnp.jit
    def f(x, y):
        seen.extend([x.aval, y.aval])
        return x

    f(np.ones((2, 3), np.float32), 2.0)
    assert seen == [ShapedArray((2, 3), np.float32), ShapedArray((), np.float64, True)]
    assert all(type(a) is ShapedArray for a in seen)


def test_eager_array_aval():
    a = xnp.asarray(np.ones((2,), np.int32))
    assert a.aval == ShapedArray((2,), np.int32)
    weak = xnp.Array(np.asarray(1.5), weak_type=True)
    assert weak.aval == ShapedArray((), np.float64, weak_type=True) and weak.weak_type
