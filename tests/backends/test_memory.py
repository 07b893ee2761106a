"""Memory stays flat: evictions free what they held, re-created jit wrappers and retraces on
new shapes stay within the configured cache sizes (``executable_cache_size`` bounds the
executables alive even when ``jit_cache_size`` keeps thousands of traces; the MLIR context
that parses the modules is recycled), and warm cached calls and eager ops allocate
nothing that stays.

Each scenario runs in a child process (its RSS is not the test runner's) that reads
``/proc/self/statm`` after ``gc.collect()``. Two figures per sample: the raw RSS and the
RSS after glibc's ``malloc_trim(0)``, which returns freed heap pages to the system; xnp
asks glibc to keep freed blocks for reuse (``xnp.backends.numpy.allocator``), so the raw
figure includes free memory held for the next allocation, while the trimmed figure is what
is still in use. The bounds are generous (noise on a shared machine is ~1 MiB); a leak of
one executable per shape (~200 KiB) or of a Python object per call fails them at once.

Counts are sampled down so the file takes well under a minute; ``XNP_MEMORY_FULL=1``
runs the issue's counts (2,000 wrappers and retraces, 10**5 calls and eager ops).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import xnp
from xnp.backends.xla import client as xla_client

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                                reason="RSS is read from /proc/self/statm (Linux)")

FULL = os.environ.get("XNP_MEMORY_FULL") == "1"

_CHILD = r"""
import ctypes, gc, json, os, sys
import numpy as np
import xnp
from xnp.backends.xla import client, mlir

try:
    _trim = ctypes.CDLL("libc.so.6").malloc_trim
except (OSError, AttributeError):
    _trim = None
_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss():
    gc.collect()
    with open("/proc/self/statm") as f:
        raw = int(f.read().split()[1]) * _PAGE
    if _trim is not None:
        _trim(0)
    with open("/proc/self/statm") as f:
        trimmed = int(f.read().split()[1]) * _PAGE
    return raw / 2**20, trimmed / 2**20


scenario, warm, n, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
x = xnp.ones(10)
if scenario in ("retrace", "retrace_traces_kept"):
    if scenario == "retrace":
        xnp.config.update("jit_cache_size", 16)
    xnp.config.update("executable_cache_size", 16)
    mlir.CONTEXT_PARSES = 32
    f = xnp.jit(lambda a: a * 2 + 1)
    step = lambda i: f(np.ones(i + 1))
elif scenario == "wrappers":
    step = lambda i: xnp.jit(lambda a: a * 2 + 1)(x)
elif scenario == "calls":
    f = xnp.jit(lambda a: a * 2 + 1)
    step = lambda i: f(x)
elif scenario == "eager":
    def step(i):
        y = xnp.sin(x) + x
        return y[1:3].sum() * 2.0
else:
    raise SystemExit(f"unknown scenario {scenario}")
for i in range(warm):
    step(i)
marks = [rss()]
every = max(1, n // samples)
for i in range(warm, warm + n):
    step(i)
    if (i - warm + 1) % every == 0:
        marks.append(rss())
gc.collect()
print(json.dumps({"marks": marks, "live_executables": len(client.get_client().client.live_executables()),
                  "mlir": mlir.stats()}))
"""


def _run(scenario: str, warm: int, n: int, samples: int = 6, details: bool = False):
    """RSS samples (MiB, raw and trimmed) of ``scenario``: after ``warm`` steps, then
    ``samples`` times over the next ``n`` steps; with ``details`` also the child's final
    count of live executables and its ``mlir.stats()``."""
    out = subprocess.run([sys.executable, "-c", _CHILD, scenario, str(warm), str(n),
                          str(samples)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    marks = res["marks"]
    print(f"{scenario}: warm {warm}, then {n} steps; RSS MiB (raw, trimmed):",
          [(round(r, 1), round(t, 1)) for r, t in marks], res["live_executables"], res["mlir"])
    return (marks, res["live_executables"], res["mlir"]) if details else marks


def _growth(marks, which: int, start: int = 0) -> float:
    """MiB grown from sample ``start`` to the last (raw: which=0, trimmed: which=1)."""
    return marks[-1][which] - marks[start][which]


def test_retraces_past_the_cache_size_free_their_executables():
    # jit and executable caches of 16 entries: every new shape evicts one entry (trace,
    # executable, result handlers); kept, each would cost ~200 KiB. What still grows is
    # small and levels off (measured: ~4 KiB per shape over the first 600, ~1 KiB later:
    # the put-aval memo, bounded at 1024 shapes, and XLA's own bookkeeping)
    n = 2000 if FULL else 120
    marks, live, contexts = _run("retrace", warm=48, n=n, details=True)
    per_shape_kib = _growth(marks, 1) * 1024 / n
    # a kept executable would be ~200 KiB a shape: 48 KiB leaves room for the early,
    # machine-dependent bookkeeping growth (16.3 KiB seen on a loaded 2-core machine)
    assert per_shape_kib < 48, marks
    assert _growth(marks, 0) < 4 + n * 48 / 1024, marks  # raw: free heap held for reuse
    assert live <= 16 + 1, live  # the cached ones (+1: xnp.ones' eager executable)
    _check_contexts_recycled(contexts, parses=48 + n, every=32)


def _check_contexts_recycled(stats, parses, every):
    # one context per `every` parses, and only the current one left alive (each parse is a
    # compile, whose module dies with it); at most a few more parses (eager executables)
    assert parses // every <= stats["contexts_created"] <= parses // every + 3, stats
    assert stats["contexts_alive"] == 1, stats


def test_retraces_keeping_their_traces_free_their_executables():
    # the jit cache at its default size keeps every trace, but only executable_cache_size
    # (16) executables stay alive: an entry whose executable is evicted drops it (with
    # its runners and result handlers) and compiles again on its next call
    assert xnp.config.get("jit_cache_size") >= 2000
    n = 2000 if FULL else 120
    marks, live, contexts = _run("retrace_traces_kept", warm=24, n=n, samples=4, details=True)
    assert live <= 16 + 1, live
    # what stays per shape is the trace (a jaxpr of two equations, its key and avals);
    # a kept executable would be ~200 KiB a shape. 64 KiB leaves room for the early,
    # machine-dependent bookkeeping (2.6 MiB over 48 shapes seen on a loaded machine)
    assert _growth(marks, 1) * 1024 / n < 64, marks
    _check_contexts_recycled(contexts, parses=24 + n, every=32)


def test_recreated_jit_wrappers_stay_flat():
    n = 2000 if FULL else 400
    marks = _run("wrappers", warm=100, n=n)
    assert _growth(marks, 1) * 1024 / n < 2, marks
    assert _growth(marks, 0) < 4, marks


def test_cached_jit_calls_stay_flat():
    # flat once warm: from the end of the first sixth on (measured: one step of ~1.4 MiB
    # somewhere in the first ~15,000 calls of a fresh process, then not a page more)
    n = 10**5 if FULL else 20_000
    marks = _run("calls", warm=2000, n=n)
    assert _growth(marks, 1, start=1) < 0.5, marks
    assert _growth(marks, 0, start=1) < 1, marks
    assert _growth(marks, 0) < 4, marks


def test_eager_ops_stay_flat():
    n = 10**5 if FULL else 20_000
    marks = _run("eager", warm=2000, n=n)
    assert _growth(marks, 1, start=1) < 0.5, marks
    assert _growth(marks, 0, start=1) < 1, marks
    assert _growth(marks, 0) < 4, marks


def test_client_tables_stay_bounded():
    # result handlers belong to executables (the client kept one per output shape ever
    # compiled, never evicted); the put-aval memo is cleared when full
    c = xla_client.get_client()

    def table_sizes():
        return {k: len(v) for k, v in vars(c).items() if isinstance(v, dict)}

    before = table_sizes()
    for i in range(2000):
        c.result_handler(xnp.ShapeDtypeStruct((i + 1, 3), np.float32))
    assert table_sizes() == before
    for i in range(3000):
        c.put(np.zeros(i % 1500 + 1, np.uint8))
    assert len(c._put_avals) <= xla_client._PUT_AVALS_KEPT


def test_special_function_lowerings_stay_bounded():
    from xnp.backends.xla.lowering import special_series

    f = xnp.jit(lambda a: xnp.nextafter(a, 1.0))
    for i in range(special_series._TRACED_KEPT + 20):
        f.lower(xnp.ShapeDtypeStruct((i + 1,), np.float64))
    assert len(special_series._TRACED) <= special_series._TRACED_KEPT


def test_out_of_memory_at_run_time_is_memory_error():
    err = xla_client.XlaRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating 8 bytes.")
    with pytest.raises(MemoryError, match=r"xnp.jit: `step` ran out of device memory") as e:
        xla_client.raise_runtime_error("step", err)
    assert e.value.__cause__ is err
    other = xla_client.XlaRuntimeError("INVALID_ARGUMENT: something else")
    with pytest.raises(xla_client.XlaRuntimeError, match="something else"):
        xla_client.raise_runtime_error("step", other)
