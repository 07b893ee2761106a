"""xnp.backends.xla.compile_cache: executables reused across jit wrappers (in-process
LRU cache, one compile per key under threads) and across processes (the opt-in
persistent cache in ``compilation_cache_dir``), with damaged entries treated as misses."""

import hashlib
import json
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import xnp
from xnp.backends.xla import client as xla_client
from xnp.backends.xla import compile_cache as cc

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUBPROCESS_TIMEOUT_S = 120


pytestmark = pytest.mark.usefixtures("fresh_compile_cache")  # tests/backends/conftest.py


def _stats():
    return cc.stats()


def _scaled_sine(x):
    return xnp.sin(x) * 3.0 + 1.0


def _expected(x):
    return np.sin(x) * 3.0 + 1.0


def _adder(k):
    return lambda v: v + k


def _module_text(fun, *args):
    return xnp.jit(fun).lower(*args)._module.text


# --------------------------------------------------------------------------- in-process cache


def test_second_jit_wrapper_of_equal_function_does_not_compile():
    x = np.linspace(0.0, 1.0, 5)
    first = xnp.jit(_scaled_sine)(x)
    assert _stats()["compiles"] == 1
    second = xnp.jit(_scaled_sine)(x)
    s = _stats()
    assert s["compiles"] == 1 and s["memory_hits"] == 1, s
    np.testing.assert_allclose(np.asarray(first), _expected(x), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(second), _expected(x), rtol=1e-13)


def test_recreated_lambda_in_a_loop_compiles_once():
    x = np.arange(4.0)
    for _ in range(5):
        out = xnp.jit(lambda v: v * 2 + 1)(x)
        np.testing.assert_array_equal(np.asarray(out), x * 2 + 1)
    s = _stats()
    assert s["compiles"] == 1 and s["memory_hits"] == 4, s


def test_lowering_is_deterministic_across_wrappers():
    def body(x):
        y = xnp.cumsum(xnp.sin(x) * 2 + xnp.sum(x))
        return xnp.where(y > 0, y, -y), xnp.sort(y)

    x = np.linspace(-1.0, 1.0, 6)
    assert _module_text(body, x) == _module_text(body, x)


def test_different_program_is_a_different_key():
    x = np.arange(3.0)
    a = xnp.jit(lambda v: v * 2)(x)
    b = xnp.jit(lambda v: v * 3)(x)
    c = xnp.jit(lambda v: v * 2)(np.arange(4.0))  # other shape, other program
    assert _stats()["compiles"] == 3
    np.testing.assert_array_equal(np.asarray(a), x * 2)
    np.testing.assert_array_equal(np.asarray(b), x * 3)
    np.testing.assert_array_equal(np.asarray(c), np.arange(4.0) * 2)


def test_different_compile_options_are_a_different_key():
    text = _module_text(_scaled_sine, np.ones(3))
    c = xla_client.get_client()
    default = c.compile(text)
    unoptimised = c.compile(text, xla_client.compile_options(opt_level=0))
    assert _stats()["compiles"] == 2
    assert unoptimised is not default
    assert c.compile(text, xla_client.compile_options(opt_level=0)) is unoptimised
    assert c.compile(text) is default
    s = _stats()
    assert s["compiles"] == 2 and s["memory_hits"] == 2, s


def test_lru_bound_is_respected_and_eviction_drops_the_executable():
    x = np.arange(3.0)
    with xnp.config.override(executable_cache_size=3):
        first = xnp.jit(lambda v: v + 1.0).lower(x).compile()
        exe = first._exe
        refs = sys.getrefcount(exe)
        for k in range(2, 6):
            xnp.jit(_adder(float(k))).lower(x).compile()
        s = _stats()
        assert s["compiles"] == 5 and s["memory_entries"] == 3, s
        assert sys.getrefcount(exe) == refs - 1  # the cache let go of it
        xnp.jit(lambda v: v + 1.0).lower(x).compile()  # evicted: compiled again
        xnp.jit(lambda v: v + 5.0).lower(x).compile()  # most recent: a hit
        s = _stats()
        assert s["compiles"] == 6 and s["memory_hits"] == 1 and s["memory_entries"] == 3, s
    np.testing.assert_array_equal(np.asarray(first.call_flat([x])[0]), x + 1.0)


def test_cache_size_zero_keeps_nothing():
    x = np.arange(3.0)
    with xnp.config.override(executable_cache_size=0):
        xnp.jit(_scaled_sine)(x)
        xnp.jit(_scaled_sine)(x)
    s = _stats()
    assert s["compiles"] == 2 and s["memory_entries"] == 0, s


def test_threads_compiling_the_same_function_compile_once():
    x = np.linspace(0.0, 2.0, 7)

    def body(v):
        return xnp.tanh(v) * 5.0 - xnp.exp(v)

    # tracing stays on this thread; the compiles race
    lowered = [xnp.jit(body).lower(x) for _ in range(8)]
    start = threading.Barrier(8)
    results, errors = [None] * 8, []

    def work(i):
        try:
            start.wait(timeout=30)
            compiled = lowered[i].compile()
            results[i] = np.asarray(compiled.call_flat([x])[0])
        except Exception as e:  # noqa: BLE001  (reported by the assertion below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    s = _stats()
    assert s["compiles"] == 1 and s["memory_hits"] == 7, s
    for r in results:
        np.testing.assert_array_equal(r, results[0])
    np.testing.assert_allclose(results[0], np.tanh(x) * 5.0 - np.exp(x), rtol=1e-13)


def test_failed_compile_is_not_cached():
    c = xla_client.get_client()
    with pytest.raises(ValueError):
        c.compile("module @broken {\n  func.func public @main( {\n}")
    with pytest.raises(ValueError):
        c.compile("module @broken {\n  func.func public @main( {\n}")
    assert _stats()["memory_entries"] == 0


def test_log_compiles_reports_memory_hit(capsys):
    x = np.arange(3.0)
    xnp.jit(_scaled_sine)(x)
    with xnp.config.override(log_compiles=True):
        xnp.jit(_scaled_sine)(x)
    err = capsys.readouterr().err
    assert "from the in-process cache" in err and "jit__scaled_sine" in err, err


# --------------------------------------------------------------------------- config


def test_cache_options_are_not_part_of_the_trace_key(tmp_path):
    snap = xnp.config.snapshot()
    names = {k for k, _ in snap}
    assert "compilation_cache_dir" not in names and "executable_cache_size" not in names
    with xnp.config.override(compilation_cache_dir=str(tmp_path), executable_cache_size=7):
        assert xnp.config.snapshot() is snap


def test_cache_options_validate_their_values(tmp_path):
    with pytest.raises(TypeError):
        xnp.config.update("compilation_cache_dir", 3)
    with pytest.raises(TypeError):
        xnp.config.update("executable_cache_size", "10")
    with pytest.raises(ValueError):
        xnp.config.update("executable_cache_size", -1)
    with xnp.config.override(compilation_cache_dir=tmp_path):  # a PathLike is stored as str
        assert xnp.config.get("compilation_cache_dir") == str(tmp_path)


# --------------------------------------------------------------------------- disk cache, in-process


def _entry_files(directory):
    return sorted(p for p in os.listdir(directory) if p.endswith(".xnpexe"))


def _compile_fresh(x):
    """Run ``_scaled_sine`` through a new wrapper with the in-memory cache emptied."""
    cc.clear()
    out = xnp.jit(_scaled_sine)(x)
    np.testing.assert_allclose(np.asarray(out), _expected(x), rtol=1e-13)


def test_disk_cache_writes_then_loads(tmp_path):
    x = np.linspace(0.0, 1.0, 4)
    with xnp.config.override(compilation_cache_dir=str(tmp_path)):
        _compile_fresh(x)
        assert len(_entry_files(tmp_path)) == 1
        assert not [p for p in os.listdir(tmp_path) if p.startswith(".tmp-")]
        _compile_fresh(x)
    s = _stats()
    assert s["compiles"] == 1 and s["disk_writes"] == 1 and s["disk_hits"] == 1, s
    assert s["disk_errors"] == 0, s


def test_log_compiles_reports_disk_load(tmp_path, capsys):
    x = np.linspace(0.0, 1.0, 4)
    with xnp.config.override(compilation_cache_dir=str(tmp_path)):
        _compile_fresh(x)
        with xnp.config.override(log_compiles=True):
            _compile_fresh(x)
    err = capsys.readouterr().err
    assert "loaded from the disk cache in" in err and " ms" in err, err


def _garbage(data):
    return b"\x00not an xnp cache entry\xff" * 20


def _truncated(data):
    return data[: len(data) // 2]


def _bad_payload_hash(data):
    # the header stays intact, one payload byte flips
    flipped = bytes([data[-1] ^ 0xFF])
    return data[:-1] + flipped


def _header_only(data):
    return data[: cc._HEADER.size]


def _foreign_key(data):
    # a valid header and payload filed under another program's key
    magic, version, key, length, digest = cc._HEADER.unpack_from(data)
    other = bytes(b ^ 1 for b in key)
    return cc._HEADER.pack(magic, version, other, length, digest) + data[cc._HEADER.size:]


def _payload_jaxlib_refuses(data):
    # header and hash are right, the blob itself is not an executable
    magic, version, key, _, _ = cc._HEADER.unpack_from(data)
    payload = b"not a serialized executable" * 10
    return cc._HEADER.pack(magic, version, key, len(payload),
                           hashlib.sha256(payload).digest()) + payload


@pytest.mark.parametrize("damage", [_garbage, _truncated, _bad_payload_hash, _header_only,
                                    _foreign_key, _payload_jaxlib_refuses, lambda d: b""],
                         ids=["garbage", "truncated", "bad_payload_hash", "header_only",
                              "foreign_key", "refused_by_jaxlib", "empty"])
def test_damaged_entry_is_a_miss_that_recompiles_and_rewrites(tmp_path, damage):
    x = np.linspace(0.0, 1.0, 4)
    with xnp.config.override(compilation_cache_dir=str(tmp_path)):
        _compile_fresh(x)
        (name,) = _entry_files(tmp_path)
        path = tmp_path / name
        good = path.read_bytes()
        path.write_bytes(damage(good))
        cc.reset_stats()
        _compile_fresh(x)  # results checked inside
        s = _stats()
        assert s["compiles"] == 1 and s["disk_errors"] == 1 and s["disk_writes"] == 1, s
        assert s["disk_hits"] == 0, s
        # rewritten whole: a valid header over the whole payload (the serialized bytes of
        # two compiles of one program may differ in length, so compare with the header)
        data = path.read_bytes()
        magic, _, key, length, digest = cc._HEADER.unpack_from(data)
        assert magic == cc._HEADER.unpack_from(good)[0] and key == cc._HEADER.unpack_from(good)[2]
        assert length == len(data) - cc._HEADER.size
        assert hashlib.sha256(data[cc._HEADER.size:]).digest() == digest
        cc.reset_stats()
        _compile_fresh(x)
        s = _stats()
        assert s["compiles"] == 0 and s["disk_hits"] == 1 and s["disk_errors"] == 0, s


def test_missing_cache_dir_is_created(tmp_path):
    target = tmp_path / "a" / "b"
    with xnp.config.override(compilation_cache_dir=str(target)):
        _compile_fresh(np.arange(3.0))
    assert len(_entry_files(target)) == 1


def test_unusable_cache_dir_does_not_break_jit(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    x = np.linspace(0.0, 1.0, 4)
    with xnp.config.override(compilation_cache_dir=str(blocker / "cache")):
        with pytest.warns(RuntimeWarning, match="compilation cache directory"):
            _compile_fresh(x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # warned once already: no second warning
            xnp.jit(lambda v: v * 7.0)(x)  # new programs: looked up and written again
            out = xnp.jit(lambda v: v - 1.0)(x)
    np.testing.assert_array_equal(np.asarray(out), x - 1.0)
    s = _stats()
    assert s["compiles"] == 3 and s["disk_writes"] == 0 and s["disk_errors"] >= 1, s


def test_refused_write_warns_once_and_jit_carries_on(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cc.tempfile, "mkstemp", refuse)  # what a read-only directory does
    x = np.linspace(0.0, 1.0, 4)
    with xnp.config.override(compilation_cache_dir=str(tmp_path)):
        with pytest.warns(RuntimeWarning, match="cannot be written"):
            _compile_fresh(x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = xnp.jit(lambda v: v * 7.0)(x)
    np.testing.assert_array_equal(np.asarray(out), x * 7.0)
    s = _stats()
    assert s["compiles"] == 2 and s["disk_writes"] == 0 and s["disk_errors"] == 1, s
    assert _entry_files(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="needs a non-root user: root writes into read-only directories")
def test_read_only_cache_dir_does_not_break_jit(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        x = np.linspace(0.0, 1.0, 4)
        with xnp.config.override(compilation_cache_dir=str(ro)):
            with pytest.warns(RuntimeWarning, match="compilation cache directory"):
                _compile_fresh(x)
            _compile_fresh(x)
        assert _stats()["compiles"] == 2
    finally:
        ro.chmod(0o700)


# --------------------------------------------------------------------------- disk cache, processes

_SCRIPT = """
import json, sys
import numpy as np
import xnp
from xnp.backends.xla import compile_cache as cc

x = np.linspace(0.0, 1.0, 5)
outs = []
def make(k):
    return lambda v: xnp.cos(v) * (k + 1.0) + v

for k in range(int(sys.argv[1])):
    outs.append(np.asarray(xnp.jit(make(k))(x)).tolist())
print(json.dumps({"stats": cc.stats(), "outs": outs}))
"""


def _cache_env(cache_dir):
    env = dict(os.environ)
    env["XNP_COMPILATION_CACHE_DIR"] = str(cache_dir)
    env.pop("XNP_LOG_COMPILES", None)
    return env


def _start(script, cache_dir, n):
    return subprocess.Popen([sys.executable, str(script), str(n)], cwd=REPO_ROOT,
                            env=_cache_env(cache_dir), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(proc):
    try:
        out, err = proc.communicate(timeout=SUBPROCESS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    assert proc.returncode == 0, err
    report = json.loads(out.strip().splitlines()[-1])
    x = np.linspace(0.0, 1.0, 5)
    for k, got in enumerate(report["outs"]):
        np.testing.assert_allclose(got, np.cos(x) * (k + 1.0) + x, rtol=1e-13)
    return report["stats"]


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "run_cached.py"
    path.write_text(_SCRIPT)
    return path


def test_second_process_loads_from_disk_and_compiles_nothing(tmp_path, script):
    cache_dir = tmp_path / "cache"
    first = _finish(_start(script, cache_dir, 2))
    assert first["compiles"] == 2 and first["disk_writes"] == 2, first
    second = _finish(_start(script, cache_dir, 2))
    assert second["compiles"] == 0 and second["disk_hits"] >= 1, second
    assert second["disk_errors"] == 0, second


def test_two_processes_writing_one_cache_dir_both_succeed(tmp_path, script):
    cache_dir = tmp_path / "cache"
    procs = [_start(script, cache_dir, 4) for _ in range(2)]
    for s in [_finish(p) for p in procs]:
        assert s["disk_errors"] == 0, s
    assert len(_entry_files(cache_dir)) == 4
    assert not [p for p in os.listdir(cache_dir) if p.startswith(".tmp-")]
    after = _finish(_start(script, cache_dir, 4))
    assert after["compiles"] == 0 and after["disk_hits"] == 4 and after["disk_errors"] == 0, after
