"""The eager ``xnp.Array``: NumPy protocols, conversions, views, in-place updates,
copy-on-write of jit outputs, pickling, and the same surface on tracers."""

import pickle

import numpy as np
import pytest

import xnp
from xnp.backends.xla.device_value import buffer_of
from xnp.tracing import errors


def test_repr_and_str_like_numpy():
    a = xnp.asarray([1.0, 2.0])
    assert repr(a) == repr(np.array([1.0, 2.0])) == "array([1., 2.])"
    assert str(a) == str(np.array([1.0, 2.0]))
    assert repr(xnp.asarray(np.zeros((0, 2)))) == "array([], shape=(0, 2), dtype=float64)"


def test_array_protocol_is_zero_copy_on_cpu():
    a = xnp.asarray(np.arange(4.0))
    v = np.asarray(a)
    assert v.dtype == np.float64
    v2 = np.asarray(a)
    assert np.shares_memory(v, v2)
    assert np.asarray(a, dtype=np.float32).dtype == np.float32


def test_numpy_binary_ops_defer_to_xnp():
    a = xnp.asarray([1.0, 2.0])
    r = np.array([1.0, 1.0]) + a
    assert isinstance(r, xnp.Array)
    np.testing.assert_array_equal(np.asarray(r), [2.0, 3.0])


def test_python_conversions_and_item_tolist():
    a = xnp.asarray(2.5)
    assert float(a) == 2.5 and int(a) == 2 and complex(a) == 2.5 and bool(a)
    assert a.item() == 2.5
    b = xnp.asarray([[1, 2], [3, 4]])
    assert b.tolist() == [[1, 2], [3, 4]]
    assert b.item(3) == 4
    assert [3, 4, 5][xnp.asarray(1)] == 4
    with pytest.raises(TypeError):
        [1, 2][xnp.asarray(1.0)]
    with pytest.raises(ValueError):
        bool(xnp.asarray([1, 2]))


def test_len_and_iteration():
    b = xnp.asarray([[1, 2], [3, 4], [5, 6]])
    assert len(b) == 3
    rows = list(b)
    assert len(rows) == 3 and rows[1].tolist() == [3, 4]
    with pytest.raises(TypeError):
        len(xnp.asarray(1.0))
    with pytest.raises(TypeError):
        iter(xnp.asarray(1.0))


def test_unhashable():
    with pytest.raises(TypeError):
        hash(xnp.asarray([1]))


def test_pickle_round_trip():
    a = xnp.asarray(np.arange(6.0).reshape(2, 3))
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, xnp.Array)
    np.testing.assert_array_equal(np.asarray(b), np.asarray(a))
    out = xnp.jit(lambda x: x * 2)(a)
    c = pickle.loads(pickle.dumps(out))
    np.testing.assert_array_equal(np.asarray(c), np.asarray(a) * 2)


def test_dlpack_round_trip():
    a = xnp.asarray(np.arange(5.0))
    b = np.from_dlpack(a)
    np.testing.assert_array_equal(b, np.arange(5.0))
    assert a.__dlpack_device__() == (1, 0)


def test_array_namespace():
    a = xnp.asarray([1.0])
    assert a.__array_namespace__() is xnp.array_api


def test_array_api_compat_sees_xnp():
    array_api_compat = pytest.importorskip("array_api_compat", reason="test extra not installed")
    a = xnp.asarray([1.0])
    assert array_api_compat.array_namespace(a) is xnp.array_api


def test_eager_views_and_in_place_updates_alias_like_numpy():
    a = xnp.asarray(np.arange(6.0))
    b = a[1:3]
    b[0] = 9.0
    assert a.tolist() == [0.0, 9.0, 2.0, 3.0, 4.0, 5.0]
    c = a.reshape(2, 3)
    c += 1
    assert a.tolist() == [1.0, 10.0, 3.0, 4.0, 5.0, 6.0]
    n = np.arange(6.0)
    m = n[1:3]
    m[0] = 9.0
    n2 = n.reshape(2, 3)
    n2 += 1
    np.testing.assert_array_equal(np.asarray(a), n)


def test_in_place_operator_casting_like_numpy():
    a = xnp.asarray([1, 2, 3])
    a += 1
    assert a.tolist() == [2, 3, 4] and a.dtype == np.int64
    with pytest.raises(TypeError):
        a += 1.5
    f = xnp.asarray([1.0, 2.0])
    f *= xnp.asarray([2, 3])
    assert f.tolist() == [2.0, 6.0]
    with pytest.raises(ValueError):
        f += xnp.ones((2, 2))


def test_jit_output_is_copy_on_write():
    x = xnp.asarray(np.arange(3.0))
    out = xnp.jit(lambda v: v + 1)(x)
    assert buffer_of(out) is not None
    assert not np.asarray(out).flags.writeable
    out[0] = 100.0
    assert out.tolist() == [100.0, 2.0, 3.0]
    assert buffer_of(out) is None
    assert x.tolist() == [0.0, 1.0, 2.0]


def test_view_of_jit_output_then_write_keeps_numpy_semantics():
    out = xnp.jit(lambda v: v * 2)(xnp.asarray(np.arange(4.0)))
    view = out[1:3]
    view[0] = -1.0
    assert out.tolist() == [0.0, -1.0, 4.0, 6.0]


def test_device_resident_outputs_feed_the_next_call_without_transfer():
    f = xnp.jit(lambda v: v + 1)
    a = f(xnp.asarray(np.zeros(3)))
    buf = buffer_of(a)
    b = f(a)
    assert buffer_of(a) is buf  # the input was not re-transferred or dropped
    assert b.tolist() == [2.0, 2.0, 2.0]


def test_device_and_to_device():
    a = xnp.asarray([1.0])
    assert str(a.device) == "cpu:0"
    assert a.to_device(a.device) is a


def test_tracers_have_the_device_of_eager_arrays():
    seen = {}

    def f(x):
        seen["device"] = x.device
        seen["same"] = x.to_device(x.device) is x
        seen["created"] = xnp.zeros(2, device=x.device).device
        return x * 2

    a = xnp.asarray([1.0, 2.0])
    for transform in (xnp.jit, xnp.vmap, lambda g: xnp.grad(lambda v: g(v).sum())):
        seen.clear()
        transform(f)(a)
        assert seen == {"device": a.device, "same": True, "created": a.device}
    with pytest.raises(ValueError, match="unknown device"):
        xnp.jit(lambda v: v.to_device("gpu:1"))(a)


@pytest.mark.parametrize("shape", [(), (3,), (2, 0, 4)])
def test_comparison_with_none_as_numpy(shape):
    x = np.ones(shape)
    a = xnp.asarray(x)
    for got, want in ((a == None, x == None), (a != None, x != None),  # noqa: E711
                      (None == a, None == x), (None != a, None != x)):  # noqa: E711
        assert got.dtype == np.bool_ and got.shape == shape
        np.testing.assert_array_equal(np.asarray(got), want)
    eq, ne = xnp.jit(lambda v: (v == None, v != None))(a)  # noqa: E711
    np.testing.assert_array_equal(np.asarray(eq), x == None)  # noqa: E711
    np.testing.assert_array_equal(np.asarray(ne), x != None)  # noqa: E711


def test_tracer_conversion_errors_inside_jit():
    seen = {}

    def f(x):
        for name, fn in [("float", float), ("int", int), ("bool", bool), ("array", np.asarray),
                         ("tolist", lambda v: v.tolist()), ("item", lambda v: v.item())]:
            try:
                fn(x)
            except Exception as e:
                seen[name] = type(e)
        return x

    xnp.jit(f)(2.0)
    assert seen == {"float": errors.ConcretizationTypeError,
                    "int": errors.ConcretizationTypeError,
                    "bool": errors.TracerBoolConversionError,
                    "array": errors.TracerArrayConversionError,
                    "tolist": errors.ConcretizationTypeError,
                    "item": errors.ConcretizationTypeError}


def test_format_nbytes_itemsize_like_numpy():
    a = xnp.asarray(1.23456)
    assert f"{a:.2f}" == f"{np.asarray(1.23456):.2f}" == "1.23"
    b = xnp.ones((2, 3), dtype=np.float32)
    assert b.nbytes == 24 and b.itemsize == 4
    assert f"{xnp.asarray([1, 2])}" == f"{np.array([1, 2])}"
