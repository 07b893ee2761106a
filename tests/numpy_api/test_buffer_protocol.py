"""The buffer protocol of eager arrays: ``memoryview(a)``, ``bytes(a)``, ``numpy.frombuffer``,
``hashlib``, ``ctypes``, against NumPy's own arrays of the same values."""

from __future__ import annotations

import ctypes
import gc
import hashlib

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp.tracing import array_base

_DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
           "complex64", "complex128", ">i4", "U3", "S2", "O"]


def _cases():
    rng = np.random.default_rng(0)
    base = rng.standard_normal((4, 6)) * 10
    layouts = {
        "c": lambda v: v,
        "f": np.asfortranarray,
        "sliced": lambda v: v[::2, 1::3],
        "reversed": lambda v: v[::-1],
        "zero-d": lambda v: v[1, 2],
        "empty": lambda v: v[:0],
    }
    for dt in _DTYPES:
        for name, lay in layouts.items():
            v = base.astype(dt) if dt not in ("U3", "S2") else base.astype(int).astype(dt)
            if dt == "O":
                v = base.astype(object)
            yield pytest.param(dt, name, lambda v=v, lay=lay: np.array(lay(v), copy=None),
                               id=f"{dt}-{name}")


def _outcome(fn, *args):
    try:
        return "value", fn(*args)
    except Exception as e:  # noqa: BLE001  (the exception is the outcome compared)
        return "error", type(e), str(e)


@pytest.mark.parametrize("dt, layout, make", list(_cases()))
def test_memoryview_and_bytes_match_numpy(dt, layout, make):
    n = make()
    n = np.asarray(n) if n.ndim else np.array(n)
    x = xnp.asarray(n)
    assert _outcome(bytes, x) == _outcome(bytes, n)  # a 0-d integer array: NumPy's count
    mx, mn = memoryview(x), memoryview(n)
    assert (mx.format, mx.itemsize, mx.shape, mx.strides, mx.readonly, mx.nbytes) == \
        (mn.format, mn.itemsize, mn.shape, mn.strides, mn.readonly, mn.nbytes)
    if dt != "O":
        assert mx.tobytes() == mn.tobytes()
    if mn.c_contiguous and dt != "O":  # hashlib takes C-contiguous buffers only, as NumPy's
        assert hashlib.sha256(x).hexdigest() == hashlib.sha256(n).hexdigest()


def test_hashlib_and_frombuffer():
    n = np.arange(12, dtype=np.int32)
    x = xnp.asarray(n)
    assert hashlib.sha1(x).hexdigest() == hashlib.sha1(n).hexdigest()
    np.testing.assert_array_equal(np.frombuffer(x, dtype=np.int16), np.frombuffer(n, dtype=np.int16))
    assert bytes(x[::3]) == bytes(n[::3])


def test_writes_through_the_buffer_change_the_array():
    x = xnp.arange(5.0)
    m = memoryview(x)
    assert not m.readonly
    m[1] = 9.5
    view = x[2:]
    memoryview(view)[0] = -3.0  # a view's buffer is the base's memory
    np.testing.assert_array_equal(np.asarray(x), [0.0, 9.5, -3.0, 3.0, 4.0])
    c = (ctypes.c_double * 5).from_buffer(x)
    c[4] = 7.0
    assert float(x[4]) == 7.0


def test_read_only_arrays_export_read_only_buffers_as_numpy():
    n = np.broadcast_to(np.arange(3), (2, 3))
    x = xnp.broadcast_to(xnp.arange(3), (2, 3))
    assert memoryview(x).readonly and memoryview(n).readonly
    with pytest.raises(TypeError) as ex_n:
        (ctypes.c_int64 * 6).from_buffer(n)
    with pytest.raises(type(ex_n.value)):
        (ctypes.c_int64 * 6).from_buffer(x)


def test_jit_output_buffer():
    """Reading a jit output's buffer copies nothing (a read-only buffer of its device
    value); asking for a writable one gives the array its own host copy first (copy-on-write,
    as ``y[i] = v`` does), and later reads see the writes."""
    f = xnp.jit(lambda a: a * 2)
    a = xnp.arange(4.0)
    y = f(a)
    m = memoryview(y)
    assert m.readonly
    assert y._dev is not None  # the device value is still the array's: nothing was copied
    r = np.asarray(y)
    assert not r.flags.writeable and y._dev is not None
    np.testing.assert_array_equal(r, [0.0, 2.0, 4.0, 6.0])
    w = np.frombuffer(y)  # asks for a writable buffer first, as for a NumPy array
    assert w.flags.writeable
    w[0] = 5.0
    np.testing.assert_array_equal(np.asarray(y), [5.0, 2.0, 4.0, 6.0])
    np.testing.assert_array_equal(np.asarray(f(a)), [0.0, 2.0, 4.0, 6.0])
    assert bytes(y) == np.array([5.0, 2.0, 4.0, 6.0]).tobytes()


def test_buffer_keeps_memory_alive():
    x = xnp.arange(1000.0)
    m = memoryview(x[10:20])
    del x
    gc.collect()
    assert m.tolist() == list(np.arange(10.0, 20.0))


@pytest.mark.parametrize("dt", [
    np.dtype([("a", "<i4"), ("b", "<f8")]),
    np.dtype([("a", "<i4"), ("b", "<f8")], align=True),
    np.dtype([(("title", "a"), "<i4")]),
    np.dtype({"names": ["a"], "formats": ["<i4"], "offsets": [4], "itemsize": 12}),
    np.dtype("V4"),
    np.dtype([("x", "<i4", (2,))]),
], ids=["plain", "aligned", "titled", "offsets", "void", "subarray"])
def test_structured_dtypes_convert_with_their_dtype(dt):
    """NumPy's conversion asks for the buffer before ``__array__``: a format that would lose
    part of the dtype (titles, offsets, unnamed void) is refused, so ``numpy.asarray`` keeps
    the dtype; ``bytes`` works for every dtype."""
    n = np.zeros(3, dt)
    x = xnp.asarray(n)
    assert repr(np.asarray(x).dtype) == repr(dt)  # (an aligned struct's flag included)
    assert repr(np.array(x).dtype) == repr(dt)
    assert bytes(x) == bytes(n)
    try:
        same = repr(np.asarray(memoryview(n)).dtype) == repr(dt)
    except RuntimeError:  # NumPy cannot read its own format back (the offsets case)
        same = False
    if same:
        assert memoryview(x).format == memoryview(n).format
    else:
        with pytest.raises(BufferError, match="xnp.ndarray: an array of dtype"):
            memoryview(x)


def test_dtypes_without_a_buffer_raise_numpy_errors():
    n = np.zeros(3, "M8[s]")
    x = xnp.asarray(n)
    with pytest.raises(ValueError) as ex_n:
        memoryview(n)
    with pytest.raises(ValueError, match=str(ex_n.value)):
        memoryview(x)
    assert np.asarray(x).dtype == n.dtype
    b = xnp.ones(2, dtype="bfloat16")
    assert np.asarray(b).dtype == b.dtype  # no buffer format: converted through __array__


def test_tracer_has_no_buffer():
    @xnp.jit
    def f(t):
        memoryview(t)
        return t

    with pytest.raises(TypeError):
        f(xnp.arange(3.0))


def test_buffer_of_an_array_filled_with_a_traced_value_raises_as_numpy_asarray():
    from xnp import errors

    seen = []

    def f(x):
        y = xnp.zeros(())
        y[...] = x  # y stands for a traced value from here on
        for read in (memoryview, bytes, np.asarray):
            try:
                read(y)
                seen.append((read.__name__, "ok"))
            except errors.TracerArrayConversionError:
                seen.append((read.__name__, "TracerArrayConversionError"))
            except TypeError:  # bytes() of a tracer: its __index__ conversion error
                seen.append((read.__name__, "TypeError"))
        return x * 2

    xnp.grad(f)(2.0)
    assert seen == [("memoryview", "TracerArrayConversionError"), ("bytes", "TypeError"),
                    ("asarray", "TracerArrayConversionError")]


def test_dtype_metadata_survives_numpy_conversion():
    md = np.dtype(np.float32, metadata={"k": 2})
    x = xnp.zeros(2, dtype=md)
    assert np.asarray(x).dtype.metadata == {"k": 2}
    assert bytes(x) == bytes(np.zeros(2, md))
    with pytest.raises(BufferError, match="with metadata"):
        memoryview(x)


def test_resize_refused_while_a_buffer_consumer_keeps_the_array():
    n, x = np.arange(6.0), xnp.arange(6.0)
    zn, zx = np.frombuffer(n), np.frombuffer(x)  # their base is the array itself
    with pytest.raises(ValueError) as want:
        n.resize(8)
    with pytest.raises(ValueError) as got:
        x.resize(8)
    assert str(got.value) == str(want.value)
    assert zx.tolist() == zn.tolist() == list(range(6))
    del zn, zx, got, want  # (the error's traceback holds the frame that held x)
    n.resize(8)
    x.resize(8)
    np.testing.assert_array_equal(np.asarray(x), n)


@pytest.mark.parametrize("write", ["setitem", "frombuffer"])
def test_threads_writing_into_one_jit_output_share_its_copy(write):
    """The first write into a jit output copies it (copy-on-write): threads writing at once
    write into the one copy, so no write is lost."""
    import threading

    f = xnp.jit(lambda a: a * 0)
    for _ in range(10):
        y = f(xnp.ones(8))
        start = threading.Barrier(4)

        def put(i, y=y, start=start):
            start.wait()
            if write == "setitem":
                y[i] = i + 1
            else:
                np.frombuffer(y)[i] = i + 1

        threads = [threading.Thread(target=put, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        np.testing.assert_array_equal(np.asarray(y), [1, 2, 3, 4, 0, 0, 0, 0])


@pytest.mark.parametrize("dt", ["float64", "bfloat16", "datetime64[s]"])
def test_array_copy_false_refuses_a_conversion_as_numpy(dt):
    n = np.zeros(3, dt)
    x = xnp.asarray(n)
    with pytest.raises(ValueError, match="Unable to avoid copy") as want:
        np.array(n, copy=False, dtype="f4" if dt != "datetime64[s]" else "M8[ms]")
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.array(x, copy=False, dtype="f4" if dt != "datetime64[s]" else "M8[ms]")
    assert want.type is ValueError
    assert np.array(x, copy=False).dtype == n.dtype  # no conversion: no copy needed


def test_resize_without_a_shape_changes_nothing():
    for none in ((), (None,)):
        n, x = np.arange(6.0), xnp.arange(6.0)
        assert n.resize(*none) is None and x.resize(*none) is None
        assert x.shape == n.shape == (6,)
        np.testing.assert_array_equal(np.asarray(x), n)
    v = xnp.arange(6.0).reshape(2, 3)  # a view: NumPy returns before checking ownership
    v.resize()
    assert v.shape == (2, 3)


def test_a_read_racing_the_first_write_keeps_the_write():
    """A jit output's first read (its host value, filled lazily) and another thread's first
    write (its copy-on-write) take one lock: the read never puts the read-only value back
    over the written copy."""
    import threading

    f = xnp.jit(lambda a: a * 0)
    for _ in range(30):
        y = f(xnp.ones(64))
        start = threading.Barrier(2)

        def write(y=y, start=start):
            start.wait()
            y[0] = 5.0

        def read(y=y, start=start):
            start.wait()
            float(y[1])

        threads = [threading.Thread(target=write), threading.Thread(target=read)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert float(y[0]) == 5.0


def test_an_eager_arrays_buffer_is_exported_from_c():
    # numpy.asarray(a) asks for the buffer first: an eager array holding host memory
    # exports NumPy's buffer of it with no Python frame (xnp/_native/array_base.c), the
    # same memory and flags as NumPy's own export of that array
    if array_base.ArrayBase.__module__ != "xnp._native._array_base":
        pytest.skip("the C storage class is not built")
    n = np.arange(12.0).reshape(3, 4)
    x = xnp.asarray(n)
    got, frames = python_frames(np.asarray, x)
    view, more = python_frames(memoryview, x)
    assert frames == more == [], (frames, more)
    assert np.shares_memory(got, n) and got.flags.writeable and not view.readonly
    assert (view.format, view.shape, view.strides) == (memoryview(n).format, n.shape,
                                                       n.strides)
    got[0, 0] = -1.0
    assert float(x[0, 0]) == -1.0


@pytest.mark.parametrize("layout", ["transposed", "reversed", "sliced", "c"])
def test_numpy_array_of_a_dtype_without_a_buffer_keeps_numpys_copy_order(layout):
    # bfloat16 has no buffer format NumPy reads back: numpy.array(x) goes through
    # __array__, whose copy keeps the memory order as NumPy's own copy of the array does
    base = np.arange(12, dtype=ml_dtypes.bfloat16).reshape(3, 4)
    view = {"transposed": lambda v: v.T, "reversed": lambda v: v.T[::-1],
            "sliced": lambda v: v[:, ::2], "c": lambda v: v}[layout]
    want = np.array(view(base))
    got = np.array(view(xnp.asarray(base)))
    assert got.dtype == want.dtype and got.strides == want.strides
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))
