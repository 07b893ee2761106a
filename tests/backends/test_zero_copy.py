"""Arguments of jitted calls on the CPU: eager arrays are aliased, not copied, when their
memory allows it; the copies that must happen do happen; semantics are unchanged."""

from __future__ import annotations

import os
import resource
import threading

import numpy as np
import pytest

import xnp
from xnp.backends.numpy import allocator
from xnp.backends.xla import client as xla_client
from xnp.backends.xla.device_value import NO_ALIAS

pytestmark = pytest.mark.skipif(not allocator.available(),
                                reason=f"aligned allocator not built: {allocator.unavailable_reason()}")


def _ptr(a) -> int:
    return np.asarray(a).__array_interface__["data"][0]


def _twice_plus_one(x):
    return x * 2 + 1


@pytest.mark.parametrize("n", [0, 1, 3, 10, 1000, 10**5, 3 * 10**6])
def test_eager_arrays_are_64_byte_aligned(n):
    assert allocator.is_installed()
    for a in (xnp.ones(n), xnp.zeros(n), xnp.arange(float(n)), xnp.ones(n) + 1,
              xnp.asarray(np.empty(n))):
        assert _ptr(a) % 64 == 0


def test_allocator_keeps_numpy_semantics():
    z = np.zeros(10**6)
    assert not z.any() and _ptr(z) % 64 == 0
    a = np.arange(10.0)
    a.resize(5000, refcheck=False)  # realloc path: data kept, alignment kept
    np.testing.assert_array_equal(a[:10], np.arange(10.0))
    assert _ptr(a) % 64 == 0
    a.resize(3, refcheck=False)
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])
    b = np.array([], dtype=np.int64)
    for i in range(300):
        b = np.append(b, i)
    np.testing.assert_array_equal(b, np.arange(300))


@pytest.mark.parametrize("n", [10, 10**6])
def test_eager_argument_aliases_host_memory(n):
    f = xnp.jit(_twice_plus_one)
    x = xnp.arange(float(n))
    np.testing.assert_array_equal(np.asarray(f(x)), np.arange(float(n)) * 2 + 1)
    buf = x._host_memo
    assert buf is not None and buf is not NO_ALIAS
    assert buf.unsafe_buffer_pointer() == _ptr(x)  # the XLA input buffer is the host memory
    # writes through xnp and through a NumPy view are seen by the next call
    x[0] = 100.0
    view = np.asarray(x)
    view[1] = -5.0
    expect = np.asarray(x).copy() * 2 + 1
    np.testing.assert_array_equal(np.asarray(f(x)), expect)
    assert x._host_memo is buf  # still the same buffer: no transfer per call


def test_write_right_after_call_does_not_race():
    f = xnp.jit(lambda x: xnp.sin(x) * 2 + x)
    x = xnp.linspace(0.0, 1.0, 4 * 10**6)
    before = np.asarray(x).copy()
    y = f(x)
    x[...] = 7.0  # NumPy semantics: y was computed from the old values
    np.testing.assert_allclose(np.asarray(y), np.sin(before) * 2 + before, rtol=1e-15)


def _unaligned(n):
    base = xnp.zeros(n + 1)
    v = base[1:]  # a view 8 bytes past a 64-byte boundary
    assert _ptr(v) % 64 == 8
    return v


@pytest.mark.parametrize("make, reason", [
    (lambda n: _unaligned(n), "not 64-byte aligned"),
    (lambda n: xnp.ones(2 * n)[::2], "not C-contiguous"),
])
def test_arguments_that_must_be_copied(make, reason, capfd):
    f = xnp.jit(_twice_plus_one)
    x = make(1000)
    xnp.config.update("log_transfers", True)
    try:
        out = f(x)
    finally:
        xnp.config.update("log_transfers", False)
    assert reason in capfd.readouterr().err
    np.testing.assert_array_equal(np.asarray(out), np.asarray(x) * 2 + 1)
    assert x._host_memo is NO_ALIAS
    x[0] = 42.0  # a copy per call, so later writes are seen too
    assert float(f(x)[0]) == 85.0


def test_read_only_numpy_argument_is_copied_and_correct():
    a = np.arange(10.0**5)
    a.flags.writeable = False
    f = xnp.jit(_twice_plus_one)
    np.testing.assert_array_equal(np.asarray(f(a)), a * 2 + 1)
    np.testing.assert_array_equal(np.asarray(f(xnp.asarray(a))), a * 2 + 1)


def test_numpy_argument_written_after_call():
    f = xnp.jit(lambda x: x + 1)
    a = np.ones(10**6)
    y = f(a)
    a[:] = 5.0
    np.testing.assert_array_equal(np.asarray(y), 2.0)
    np.testing.assert_array_equal(np.asarray(f(a)), 6.0)


def test_array_from_another_thread_is_copied_correctly():
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("x", xnp.arange(1.0, 10**4 + 1)))
    t.start()
    t.join()
    x = box["x"]
    np.testing.assert_array_equal(np.asarray(xnp.jit(_twice_plus_one)(x)),
                                  np.arange(1.0, 10**4 + 1) * 2 + 1)


def test_donated_aliased_argument():
    f = xnp.jit(_twice_plus_one, donate_argnums=0)
    x = xnp.arange(10.0)
    y = f(x)
    np.testing.assert_array_equal(np.asarray(y), np.arange(10.0) * 2 + 1)
    with pytest.raises(RuntimeError, match="donated"):
        np.asarray(x)


def test_mutated_aliased_argument_is_written_back():
    def f(a):
        a[0] += 1.0
        return a * 2

    x = xnp.arange(5.0)
    x_np = np.arange(5.0)
    y = xnp.jit(f)(x)
    expect = f(x_np)
    np.testing.assert_array_equal(np.asarray(y), expect)
    np.testing.assert_array_equal(np.asarray(x), x_np)
    y2 = xnp.jit(f)(x)  # the alias sees the written-back value
    np.testing.assert_array_equal(np.asarray(y2), f(x_np))


def test_view_of_base_sees_writes_to_base():
    f = xnp.jit(_twice_plus_one)
    base = xnp.zeros(64)
    v = base[8:16]  # 64 bytes in: aligned
    f(v)
    base[8] = 3.0
    assert float(f(v)[0]) == 7.0


def test_python_scalar_arguments_share_cached_buffers():
    c = xla_client.get_client()
    g = xnp.jit(lambda x, s: x * s)
    x = xnp.ones(3)
    g(x, 2.5)
    n = len(c._scalars)
    for _ in range(5):
        np.testing.assert_array_equal(np.asarray(g(x, 2.5)), 2.5)
    assert len(c._scalars) == n  # no new buffer per call
    # values whose equality does not identify them are not conflated
    h = xnp.jit(lambda x, s: 1.0 / (x * s))
    assert float(h(x, 0.0)[0]) == np.inf
    assert float(h(x, -0.0)[0]) == -np.inf
    assert np.isnan(float(g(x, float("nan"))[0]))
    assert float(g(x, 3)[0]) == 3.0 and float(g(x, True)[0]) == 1.0


def _rss_mib() -> float:
    with open(f"/proc/{os.getpid()}/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read RSS")
def test_dead_aliased_arrays_are_freed():
    f = xnp.jit(lambda x: x[:3] * 2)
    f(xnp.ones(4 * 10**6))
    start = _rss_mib()
    for i in range(40):  # 40 x 32 MB arrays, each aliased once and dropped
        x = xnp.full(4 * 10**6, float(i))
        assert float(f(x)[0]) == 2.0 * i
        del x
    assert _rss_mib() - start < 600


_FAULTS_SCRIPT = r"""
import json, resource, sys
import numpy as np
import xnp
n = int(sys.argv[1])
a = xnp.ones(n)
f = xnp.jit(lambda a: a * 2 + 1)
faults = []
for _ in range(8):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    r = f(a)
    ok = bool(np.asarray(r)[-1] == 3.0)
    del r
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(json.dumps({"faults": faults, "ok": ok}))
"""


@pytest.mark.skipif(not allocator.host_memory_reuse(), reason="glibc's mallopt is not available")
def test_large_outputs_reuse_mapped_memory(tmp_path):
    # A jitted call's 80 MB output: without reuse every call faults in ~19,500 fresh 4 KiB
    # pages; with it, calls after the first few fault (almost) none.
    import json
    import subprocess
    import sys

    script = tmp_path / "faults.py"
    script.write_text(_FAULTS_SCRIPT)
    n = 10**7
    pages = n * 8 // resource.getpagesize()
    out = subprocess.run([sys.executable, str(script), str(n)], capture_output=True, text=True,
                         timeout=120, check=True)
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["ok"]
    assert min(res["faults"][2:]) < pages // 20, res
