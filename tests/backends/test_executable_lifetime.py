"""What a jitted function keeps alive: its entries hold their executables only while the
in-memory executable cache keeps them (``executable_cache_size`` bounds the executables
alive, whatever ``jit_cache_size`` is; an evicted one is compiled again, or loaded from
the disk cache, on the entry's next call), and each thread's MLIR context is replaced
after a bounded number of parses (it keeps every type and attribute it parsed).

Live executables are counted by the PJRT client itself (``live_executables()``)."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import xnp
from xnp.backends.xla import client as xla_client
from xnp.backends.xla import compile_cache as cc
from xnp.backends.xla import mlir


pytestmark = pytest.mark.usefixtures("fresh_compile_cache")


def _live() -> int:
    gc.collect()
    return len(xla_client.get_client().client.live_executables())


def _affine(a):
    return a * 2.0 + 1.0


def _held(f) -> int:
    return sum(e.compiled is not None for e in f._cache.values())


def test_executables_beyond_the_cache_size_are_freed():
    f = xnp.jit(_affine)
    xnp.asarray(np.ones(2))  # anything the first call needs besides f's executables
    before = _live()
    with xnp.config.override(executable_cache_size=4):
        for n in range(1, 13):
            x = np.arange(n, dtype=np.float64)
            np.testing.assert_array_equal(np.asarray(f(x)), x * 2.0 + 1.0)
        # every trace is kept (jit_cache_size 4096), only 4 executables are
        assert len(f._cache) == 12 and f.trace_count == 12
        assert _held(f) == 4 and cc.stats()["holders"] == 4
        assert _live() - before <= 4
        x = np.arange(1, dtype=np.float64)  # evicted long ago: compiled again, not traced
        np.testing.assert_array_equal(np.asarray(f(x)), x * 2.0 + 1.0)
        s = cc.stats()
        assert s["compiles"] == 13 and f.trace_count == 12, s
        assert _live() - before <= 4


def test_eviction_frees_the_constant_buffers_of_the_executable():
    big = np.arange(50_000.0)  # a closed-over constant: a device buffer of the executable
    f = xnp.jit(lambda a: a + xnp.asarray(big))
    x = np.ones(50_000)
    live = xla_client.get_client().client.live_buffers
    with xnp.config.override(executable_cache_size=1):
        gc.collect()
        before = len(live())
        np.testing.assert_array_equal(np.asarray(f(x)), big + 1.0)
        gc.collect()
        assert len(live()) == before + 1
        xnp.jit(_affine)(np.ones(2))  # evicts f's executable
        gc.collect()
        assert len(live()) == before and _held(f) == 0
        np.testing.assert_array_equal(np.asarray(f(x)), big + 1.0)


def test_evicted_entry_loads_its_executable_from_the_disk_cache(tmp_path):
    f = xnp.jit(_affine)
    with xnp.config.override(compilation_cache_dir=str(tmp_path), executable_cache_size=2):
        xs = [np.linspace(0.0, 1.0, n) for n in (3, 4, 5)]
        for x in xs:
            f(x)
        assert _held(f) == 2
        np.testing.assert_array_equal(np.asarray(f(xs[0])), xs[0] * 2.0 + 1.0)
        s = cc.stats()
        assert s["compiles"] == 3 and s["disk_hits"] == 1 and f.trace_count == 3, s


@pytest.mark.parametrize("arg", ["array", "ndarray"])
def test_a_function_called_between_compiles_keeps_its_executable(arg):
    # the executable cache evicts least recently *called* first: an executable whose
    # entry ran since the last eviction gets a second chance (a cached call does not
    # touch the executable cache itself)
    g = xnp.jit(lambda a: a - 3.0)
    f = xnp.jit(_affine)
    y = np.arange(4.0)
    y_arg = xnp.asarray(y) if arg == "array" else y
    with xnp.config.override(executable_cache_size=3):
        g(y_arg)
        for n in range(1, 13):
            f(np.ones(n))
            np.testing.assert_array_equal(np.asarray(g(y_arg)), y - 3.0)
        s = cc.stats()
        assert s["compiles"] == 13 and _held(g) == 1, s


def test_a_dropped_jit_function_lets_go_of_its_executable():
    x = np.arange(3.0)
    f = xnp.jit(_affine)
    f(x)
    assert cc.stats()["holders"] == 1
    del f
    gc.collect()
    s = cc.stats()
    assert s["holders"] == 0 and s["memory_entries"] == 1, s  # still shared with others
    np.testing.assert_array_equal(np.asarray(xnp.jit(_affine)(x)), x * 2.0 + 1.0)
    assert cc.stats()["compiles"] == 1


def test_cache_size_zero_keeps_no_executable_between_calls():
    f = xnp.jit(_affine)
    x = np.arange(3.0)
    with xnp.config.override(executable_cache_size=0):
        for _ in range(2):
            np.testing.assert_array_equal(np.asarray(f(x)), x * 2.0 + 1.0)
        assert _held(f) == 0 and f.trace_count == 1
        assert cc.stats()["compiles"] == 2


def test_clear_releases_the_executables_of_jitted_functions():
    f = xnp.jit(_affine)
    x = np.arange(3.0)
    f(x)
    cc.clear()
    assert _held(f) == 0
    np.testing.assert_array_equal(np.asarray(f(x)), x * 2.0 + 1.0)
    assert cc.stats()["compiles"] == 2 and _held(f) == 1


def _in_threads(work, n: int = 4) -> None:
    """Run ``work(k)`` for k < n in n threads started together; re-raise the first error."""
    errors, start = [], threading.Barrier(n)

    def run(k):
        try:
            start.wait()
            work(k)
        except Exception as e:  # noqa: BLE001  (re-raised by the calling thread)
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def test_threads_evicting_each_others_executables_get_right_results():
    before = _live()
    fs = [xnp.jit(lambda a, k=k: a * float(k)) for k in range(4)]

    def work(k):
        for n in range(1, 6):
            x = np.arange(n, dtype=np.float64)
            for _ in range(2):  # the second call: cached, or compiled again if evicted
                np.testing.assert_array_equal(np.asarray(fs[k](x)), x * float(k))

    with xnp.config.override(executable_cache_size=3):
        _in_threads(work)
        assert sum(_held(f) for f in fs) <= 3
        assert _live() - before <= 3


# --------------------------------------------------------------------------- MLIR contexts


def _lower_text(f, n: int) -> str:
    return f.lower(xnp.ShapeDtypeStruct((n,), np.float64)).as_text()  # parses, no compile


def test_mlir_context_is_replaced_after_its_parse_budget(monkeypatch):
    monkeypatch.setattr(mlir, "CONTEXT_PARSES", 5)
    f = xnp.jit(_affine)
    gc.collect()
    s0 = mlir.stats()
    for n in range(1, 21):
        assert f"tensor<{n}xf64>" in _lower_text(f, n)
    gc.collect()
    s1 = mlir.stats()
    # 20 parses, 5 to a context: 4 fresh contexts (5 when the one in use was already full)
    assert 4 <= s1["contexts_created"] - s0["contexts_created"] <= 5, (s0, s1)
    assert s1["contexts_alive"] <= s0["contexts_alive"], (s0, s1)  # the old ones are freed
    assert 1 <= s1["parses"] <= 5


def test_mlir_context_is_replaced_after_its_text_budget(monkeypatch):
    monkeypatch.setattr(mlir, "CONTEXT_TEXT_BYTES", 1)  # every parse after the first
    f = xnp.jit(_affine)
    s0 = mlir.stats()
    for n in range(1, 4):
        assert f"tensor<{n}xf64>" in _lower_text(f, n)
    assert mlir.stats()["contexts_created"] - s0["contexts_created"] >= 2


def test_threads_recycle_their_own_mlir_contexts(monkeypatch):
    monkeypatch.setattr(mlir, "CONTEXT_PARSES", 3)
    gc.collect()
    s0 = mlir.stats()

    def work(k):
        f = xnp.jit(lambda a: a * float(k) + 1.0)
        for n in range(1, 7):
            x = np.arange(n + 10 * k, dtype=np.float64)
            np.testing.assert_array_equal(np.asarray(f(x)), x * float(k) + 1.0)

    _in_threads(work)
    gc.collect()
    s1 = mlir.stats()
    # each thread: 6 compiles, 3 parses to a context
    assert s1["contexts_created"] - s0["contexts_created"] >= 4 * 2, (s0, s1)
    assert s1["contexts_alive"] <= s0["contexts_alive"], (s0, s1)  # died with their threads
