"""Donating an array (``jit(..., donate_argnums=...)``) whose memory other objects still read:
NumPy views, ``memoryview``, ``numpy.frombuffer``, ctypes' ``from_buffer``, xnp views. They go
on reading the old values (the memory is neither freed nor written by the call), the result
is right, and the array itself is invalidated as always; without such readers the donation
is unchanged (a jit output's buffer is reused in place)."""

from __future__ import annotations

import ctypes
import gc
import threading
import weakref

import numpy as np
import pytest

import xnp
from xnp.backends.xla.device_value import DONATED
from xnp.tracing.errors import DonatedArrayError

N = 4096  # 32 KiB: memory freed at this size is soon handed out again by the allocator
OLD = np.arange(float(N))


def _twice_plus_one(x):
    return x * 2 + 1


_donating = xnp.jit(_twice_plus_one, donate_argnums=0)
_copy = xnp.jit(lambda x: x + 0)


def _has_buffer_protocol() -> bool:
    try:
        memoryview(xnp.zeros(1))
    except TypeError:  # no C array base and Python < 3.12
        return False
    return True


needs_buffer = pytest.mark.skipif(not _has_buffer_protocol(),
                                  reason="eager arrays have no buffer protocol on this build")


def _churn():
    """Allocate arrays of the donated memory's size holding other values: a reader of freed
    memory would see them."""
    gc.collect()
    return ([np.full(N, -7.0) for _ in range(32)] + [xnp.full(N, -5.0) + 0 for _ in range(32)]
            + [_copy(xnp.full(N, -9.0)) for _ in range(8)])


def _source(kind):
    if kind == "eager":
        return xnp.arange(float(N))
    return _copy(xnp.arange(float(N)))  # a jit output: its value is a device buffer


# how each reader is made from the array, and how its values are read as a NumPy array
READERS = {
    "numpy.asarray": (np.asarray, np.array),
    "numpy.array(copy=False)": (lambda a: np.array(a, copy=False), np.array),
    "numpy.frombuffer": (np.frombuffer, np.array),
    "numpy.ndarray(buffer=)": (lambda a: np.ndarray((N,), buffer=a), np.array),
    "memoryview": (memoryview, lambda m: np.frombuffer(m.tobytes())),
    "ctypes.from_buffer": (lambda a: (ctypes.c_double * N).from_buffer(a),
                           lambda c: np.frombuffer(bytes(c))),
    "xnp view": (lambda a: a[:], lambda v: np.array(v)),
}
BUFFER_READERS = {"numpy.frombuffer", "numpy.ndarray(buffer=)", "memoryview", "ctypes.from_buffer"}
# these keep the array itself (their base), which keeps its memory while it lives, as a NumPy
# array does; the others hold the memory, and the call copies it rather than donate it
HOLD_THE_ARRAY = {"numpy.frombuffer", "numpy.ndarray(buffer=)"}


@pytest.mark.parametrize("source", ["eager", "jit output"])
@pytest.mark.parametrize("reader", list(READERS))
def test_donated_array_keeps_the_values_its_readers_see(source, reader, capsys):
    if reader in BUFFER_READERS and not _has_buffer_protocol():
        pytest.skip("eager arrays have no buffer protocol on this build")
    if reader == "ctypes.from_buffer" and source == "jit output":
        pytest.skip("a jit output's buffer is read-only until its first write")
    make, read = READERS[reader]
    a = _source(source)
    view = make(a)
    memory = weakref.ref(a._value)  # the NumPy array holding the memory the reader reads
    with xnp.config.override(log_transfers=True):
        y = _donating(a)
    copied = "another object still reads its memory" in capsys.readouterr().err
    assert copied == (reader not in HOLD_THE_ARRAY)
    with pytest.raises(DonatedArrayError):
        np.asarray(a)
    del a  # the reader alone keeps the memory now (numpy.frombuffer's base is the array)
    junk = _churn()
    assert memory() is not None  # not freed (a read of freed memory may still look right)
    np.testing.assert_array_equal(read(view), OLD)
    np.testing.assert_array_equal(np.asarray(y), OLD * 2 + 1)
    del junk


@needs_buffer
def test_writes_through_a_donated_arrays_view_do_not_reach_the_result():
    a = xnp.arange(float(N))
    view = np.frombuffer(a)
    y = _donating(a)
    view[:] = -1.0
    np.testing.assert_array_equal(np.asarray(y), OLD * 2 + 1)
    np.testing.assert_array_equal(view, -1.0)


def test_donated_view_leaves_its_base_unchanged():
    base = xnp.arange(float(2 * N))
    part = base[N:]  # 32 KiB in: aligned, so a device buffer could alias it
    y = _donating(part)
    junk = _churn()
    np.testing.assert_array_equal(np.asarray(base), np.arange(float(2 * N)))
    np.testing.assert_array_equal(np.asarray(y), np.arange(float(N), 2.0 * N) * 2 + 1)
    del junk


def test_donated_numpy_argument_is_not_written():
    n = np.arange(float(4 * N))  # 128 KiB: large enough to be passed without a copy
    y = _donating(n)
    junk = _churn()
    np.testing.assert_array_equal(n, np.arange(float(4 * N)))
    np.testing.assert_array_equal(np.asarray(y), np.arange(float(4 * N)) * 2 + 1)
    del junk


def test_donation_without_readers_invalidates_the_array(capsys):
    a = xnp.arange(float(N))
    with xnp.config.override(log_transfers=True):
        y = _donating(a)
    assert "another object still reads" not in capsys.readouterr().err
    assert a._dev is DONATED and a._v is None
    with pytest.raises(DonatedArrayError):
        np.asarray(a)
    np.testing.assert_array_equal(np.asarray(y), OLD * 2 + 1)
    memory = weakref.ref(a._host_memo.value)  # kept while the array lives, then freed
    del a
    gc.collect()  # (jaxlib drops a donated alias's reference to the memory at a collection)
    assert memory() is None


def test_donated_jit_output_without_readers_is_reused_in_place(capsys):
    b = _copy(xnp.arange(float(N)))
    ptr = b._dev.unsafe_buffer_pointer()
    with xnp.config.override(log_transfers=True):
        y = _donating(b)
    assert "another object still reads" not in capsys.readouterr().err
    assert y._dev.unsafe_buffer_pointer() == ptr  # the result took the donated buffer
    assert b._dev is DONATED
    np.testing.assert_array_equal(np.asarray(y), OLD * 2 + 1)


def test_donation_loop_reuses_one_buffer():
    x = _copy(xnp.arange(float(N)))
    ptr = x._dev.unsafe_buffer_pointer()
    for _ in range(5):
        x = _donating(x)
    assert x._dev.unsafe_buffer_pointer() == ptr
    want = OLD
    for _ in range(5):
        want = want * 2 + 1
    np.testing.assert_array_equal(np.asarray(x), want)


@needs_buffer
def test_jit_output_frombuffer_survives_copy_on_write():
    """numpy.frombuffer of a jit output asks for writable memory (a copy), held by the array:
    it stays readable after the array is donated."""
    b = _copy(xnp.arange(float(N)))
    view = np.frombuffer(b)
    assert view.flags.writeable
    view[0] = 42.0
    memory = weakref.ref(b._value)
    y = _donating(b)
    del b
    junk = _churn()
    assert memory() is not None
    np.testing.assert_array_equal(view[1:], OLD[1:])
    assert view[0] == 42.0
    assert float(y[0]) == 85.0
    del junk


def test_a_thread_reading_a_jit_output_while_it_is_donated():
    """Another thread's first host read of a jit output races its donation: it gets the old
    values (read before the call gave the buffer away) or the donated array's error, never
    the consumed buffer (it got a 0-d object array holding the buffer in 9 of 30 trials on a loaded machine; timing decides)."""
    cp = xnp.jit(lambda x: x + 0)
    don = xnp.jit(lambda x: x * 2 + 1, donate_argnums=0)
    want = np.arange(4096.0)
    for _ in range(40):
        a = cp(xnp.asarray(want))
        got = []

        def read():
            try:
                got.append(np.asarray(a))
            except DonatedArrayError as e:
                got.append(e)

        t = threading.Thread(target=read)
        t.start()
        try:
            y = don(a)
        finally:
            t.join()
        np.testing.assert_array_equal(np.asarray(y), want * 2 + 1)
        if not isinstance(got[0], DonatedArrayError):
            assert got[0].dtype == want.dtype
            np.testing.assert_array_equal(got[0], want)
