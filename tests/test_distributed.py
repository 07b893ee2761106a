"""``xnp.distributed``: two processes on this host running one SPMD program.

The module-scoped fixture starts two child processes (``XNP_NUM_CPU_DEVICES=2`` each, a
coordinator on a free loopback port, a hard timeout so that a hang fails the tests).
Each child joins the group, runs a global ``psum`` in ``shard_map`` (eagerly and under
``jit``), a sharded matmul under ``jit`` whose contraction spans both processes, and
``process_allgather``, prints what it computed as JSON and leaves (process 0 by an
explicit ``shutdown``, process 1 by the one run at exit); the tests compare that with
NumPy. The error cases (unreachable coordinator, a group that never fills, calling
``initialize`` too late, bad arguments) run in a child or in this process.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import xnp
from tests import multi_device

TIMEOUT_S = 120  # hard limit for each child; a hang fails instead of blocking


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _global_data():
    rng = np.random.default_rng(0)
    return rng.standard_normal((16, 8)), rng.standard_normal((8, 4))


def _env(num_devices: int) -> dict:
    return dict(os.environ, XNP_NUM_CPU_DEVICES=str(num_devices), TF_CPP_MIN_LOG_LEVEL="2")


def child_main() -> None:
    """One process of the group: ``argv`` is ``process_id port``; prints JSON results."""
    from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: PLC0415

    pid, port = int(sys.argv[1]), int(sys.argv[2])
    xnp.distributed.initialize(f"127.0.0.1:{port}", 2, pid, initialization_timeout=60,
                               heartbeat_timeout=20, shutdown_timeout=60)
    out: dict = {"process_index": xnp.process_index(), "process_count": xnp.process_count(),
                 "devices": [[d.id, d.process_index] for d in xnp.devices()],
                 "local_devices": [[d.id, d.process_index] for d in xnp.local_devices()]}
    a_full, b_full = _global_data()
    mesh = Mesh(np.array(xnp.devices()), ("x",))
    rows = NamedSharding(mesh, P("x"))
    # this process's rows of the global 16 x 8 array: 8 rows, 4 per local device
    a = xnp.make_array_from_process_local_data(rows, a_full[pid * 8:(pid + 1) * 8])
    out["a_shape"] = list(a.shape)
    out["a_shards"] = [[s.device.id, s.index[0].start, s.index[0].stop,
                        bool(np.array_equal(np.asarray(s.data), a_full[s.index]))]
                       for s in a.addressable_shards]

    def colsum(x):
        return xnp.lax.psum(x.sum(axis=0), "x")

    psum = xnp.shard_map(colsum, mesh, in_specs=P("x"), out_specs=P())
    out["psum_eager"] = np.asarray(psum(a)).tolist()  # replicated: fetchable everywhere
    out["psum_jit"] = np.asarray(xnp.jit(psum)(a)).tolist()
    # contraction dimension split over all 4 devices: XLA all-reduces across processes
    cols = NamedSharding(mesh, P(None, "x"))
    a_cols = xnp.make_array_from_process_local_data(cols, a_full[:, pid * 4:(pid + 1) * 4])
    b_rows = xnp.make_array_from_process_local_data(rows, b_full[pid * 4:(pid + 1) * 4])
    mm = xnp.jit(lambda x, y: x @ y, in_shardings=(cols, rows), out_shardings=rows)
    c = mm(a_cols, b_rows)
    out["mm_shape"] = list(c.shape)
    out["mm_shards"] = [[s.device.id, s.index[0].start, np.asarray(s.data).tolist()]
                        for s in c.addressable_shards]
    try:
        np.asarray(c)
        out["fetch_error"] = None
    except RuntimeError as e:
        out["fetch_error"] = str(e)
    out["repr"], out["str"] = repr(c), str(c)  # printable without fetching
    out["mm_allgather"] = xnp.distributed.process_allgather(c).tolist()
    # the same matmul from single-device arrays (JAX's other constructor)
    local = [xnp.device_put(a_full[s.index], s.device) for s in a.addressable_shards]
    a2 = xnp.make_array_from_single_device_arrays((16, 8), rows, local)
    mm2 = xnp.jit(lambda x, y: x @ y, in_shardings=(rows, None), out_shardings=rows)
    out["mm2_allgather"] = xnp.distributed.process_allgather(mm2(a2, b_full)).tolist()
    try:  # an argument spanning processes, laid out otherwise than the program takes it
        xnp.jit(lambda x, y: x @ y, in_shardings=(rows, None))(a_cols, b_full)
        out["relayout_error"] = None
    except ValueError as e:
        out["relayout_error"] = str(e)
    try:  # ... and passed to a single-device program (no in_shardings)
        xnp.jit(lambda x: x * 2)(a_cols)
        out["unsharded_error"] = None
    except ValueError as e:
        out["unsharded_error"] = str(e)
    mine = np.array([pid, 10 * pid + 1], dtype=np.int32)
    out["allgather_stacked"] = xnp.distributed.process_allgather(mine).tolist()
    out["allgather_tiled"] = xnp.distributed.process_allgather(mine, tiled=True).tolist()
    # a 2 x 2 mesh: dimension 1 split over the processes ("a"), dimension 0 within each
    mesh2 = Mesh(np.array(xnp.devices()).reshape(2, 2), ("a", "b"))
    grid = NamedSharding(mesh2, P("b", "a"))
    a4 = xnp.make_array_from_process_local_data(grid, a_full[:, pid * 4:(pid + 1) * 4],
                                                global_shape=(16, 8))
    out["grid_shards"] = [[s.index[0].start, s.index[1].start,
                           bool(np.array_equal(np.asarray(s.data), a_full[s.index]))]
                          for s in a4.addressable_shards]
    total = xnp.shard_map(lambda b: xnp.lax.psum(b.sum(), ("a", "b")), mesh2,
                          in_specs=P("b", "a"), out_specs=P())
    out["grid_psum_jit"] = float(np.asarray(xnp.jit(total)(a4)))
    # split within each process, replicated over the processes: fetchable in each
    within = NamedSharding(mesh2, P("b"))
    out["within_fetch"] = bool(np.array_equal(
        np.asarray(xnp.make_array_from_process_local_data(within, a_full)), a_full))
    try:
        xnp.make_array_from_process_local_data(grid, a_full[:, :4], global_shape=(16, 4))
        out["global_shape_error"] = None
    except ValueError as e:
        out["global_shape_error"] = str(e)
    # device_put of the same host array in every process keeps this process's shards
    d = xnp.device_put(a_full, rows)
    out["device_put_shards"] = [[s.device.id, s.index[0].start,
                                 bool(np.array_equal(np.asarray(s.data), a_full[s.index]))]
                                for s in d.addressable_shards]
    other = [dev for dev in xnp.devices() if dev.process_index != pid][0]
    try:
        xnp.device_put(a_full, other)
        out["device_put_error"] = None
    except ValueError as e:
        out["device_put_error"] = str(e)
    # devices interleaved over the processes: no process holds consecutive rows
    devs = xnp.devices()
    mixed = NamedSharding(Mesh(np.array([devs[0], devs[2], devs[1], devs[3]]), ("x",)), P("x"))
    try:
        xnp.make_array_from_process_local_data(mixed, a_full[:8])
        out["interleaved_error"] = None
    except ValueError as e:
        out["interleaved_error"] = str(e)
    # a one-device program runs on this process's first device
    out["jit_local"] = np.asarray(xnp.jit(lambda x: x * 2 + 1)(np.arange(3.0))).tolist()
    out["jit_local_device"] = xnp.jit(lambda x: x * 2)(np.arange(3.0)).sharding.device.id
    if pid == 0:  # process 1 leaves through the shutdown registered at exit
        xnp.distributed.shutdown()
    out["initialized_at_end"] = xnp.distributed.is_initialized()
    print(json.dumps(out), flush=True)


def _start(args: list, num_devices: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", *args], cwd=multi_device.ROOT,
                            env=_env(num_devices), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(procs: list) -> list:
    """``(returncode, stdout, stderr)`` of each process; all are killed, and the test fails,
    when they have not finished within ``TIMEOUT_S``."""
    deadline = time.monotonic() + TIMEOUT_S
    results = []
    try:
        for p in procs:
            stdout, stderr = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            results.append((p.returncode, stdout, stderr))
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        pytest.fail(f"the processes did not finish within {TIMEOUT_S} s")
    return results


def _last_json(result, what: str) -> dict:
    rc, stdout, stderr = result
    assert rc == 0, f"{what} exited with {rc}:\n{stderr[-4000:]}\n{stdout[-2000:]}"
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def children():
    """The group of two processes and the error-case child, run at the same time."""
    port = str(_free_port())
    main = "from tests.test_distributed import child_main; child_main()"
    procs = [_start([main, "0", port], 2), _start([main, "1", port], 2),
             _start([_ERRORS_CHILD], 1)]
    results = _finish(procs)
    return ([_last_json(r, f"process {i}") for i, r in enumerate(results[:2])],
            _last_json(results[2], "the error-case child"))


@pytest.fixture(scope="module")
def group(children):
    return children[0]


def test_group_sizes_and_devices(group):
    # both processes exited 0 (the fixture checks): process 0 after an explicit
    # shutdown, process 1 through the one run at exit
    for pid, r in enumerate(group):
        assert r["process_index"] == pid and r["process_count"] == 2
        assert len(r["devices"]) == 4
        assert sorted(p for _, p in r["devices"]) == [0, 0, 1, 1]
        assert len(r["local_devices"]) == 2
        assert all(p == pid for _, p in r["local_devices"])
        assert r["initialized_at_end"] is (pid == 1)  # explicit shutdown in process 0 only
    assert group[0]["devices"] == group[1]["devices"]


def test_make_array_from_process_local_data_shards(group):
    for pid, r in enumerate(group):
        assert r["a_shape"] == [16, 8]
        local_ids = [i for i, _ in r["local_devices"]]
        assert [s[0] for s in r["a_shards"]] == local_ids
        # process 0 holds rows 0..7, process 1 rows 8..15, 4 per device
        assert [(s[1], s[2]) for s in r["a_shards"]] == [(8 * pid, 8 * pid + 4),
                                                        (8 * pid + 4, 8 * pid + 8)]
        assert all(s[3] for s in r["a_shards"])


def test_global_psum_matches_numpy(group):
    a_full, _ = _global_data()
    for r in group:
        np.testing.assert_allclose(r["psum_eager"], a_full.sum(axis=0), rtol=1e-12)
        np.testing.assert_allclose(r["psum_jit"], a_full.sum(axis=0), rtol=1e-12)


def test_two_dimensional_mesh_across_processes(group):
    a_full, _ = _global_data()
    for pid, r in enumerate(group):
        # dimension 1: this process's half; dimension 0: split over its two devices
        assert sorted((s[0], s[1]) for s in r["grid_shards"]) == [(0, 4 * pid), (8, 4 * pid)]
        assert all(s[2] for s in r["grid_shards"])
        np.testing.assert_allclose(r["grid_psum_jit"], a_full.sum(), rtol=1e-12)
        assert r["within_fetch"]
        assert "not consecutive" in r["interleaved_error"]
        assert "tiles [0, 2]" in r["interleaved_error"] or "tiles [1, 3]" in r["interleaved_error"]
        assert "(16, 4)" in r["global_shape_error"] and "float64[16, 4]" in r["global_shape_error"]


def test_sharded_matmul_matches_numpy(group):
    a_full, b_full = _global_data()
    expect = a_full @ b_full
    for pid, r in enumerate(group):
        assert r["mm_shape"] == [16, 4]
        assert [s[1] for s in r["mm_shards"]] == [8 * pid, 8 * pid + 4]
        for _, start, data in r["mm_shards"]:
            np.testing.assert_allclose(data, expect[start:start + 4], rtol=1e-12)
        np.testing.assert_allclose(r["mm_allgather"], expect, rtol=1e-12)
        np.testing.assert_allclose(r["mm2_allgather"], expect, rtol=1e-12)


def test_fetching_a_non_addressable_array_raises(group):
    for pid, r in enumerate(group):
        msg = r["fetch_error"]
        assert msg is not None and "float64[16, 4]" in msg and f"(process {pid})" in msg
        assert "process_allgather" in msg
        for text in (r["repr"], r["str"]):
            assert text.startswith("Array(shape=(16, 4), dtype=float64, sharding=Named"), text
            assert "not fully held by this process" in text


def test_device_put_keeps_the_local_shards(group):
    for pid, r in enumerate(group):
        local_ids = [i for i, _ in r["local_devices"]]
        assert [(s[0], s[1]) for s in r["device_put_shards"]] == [
            (local_ids[0], 8 * pid), (local_ids[1], 8 * pid + 4)]
        assert all(s[2] for s in r["device_put_shards"])
        assert "belongs to another process" in r["device_put_error"]


def test_one_device_programs_run_on_the_local_device(group):
    for r in group:
        assert r["jit_local"] == [1.0, 3.0, 5.0]
        assert r["jit_local_device"] == r["local_devices"][0][0]


def test_relaying_out_an_array_spanning_processes_raises(group):
    for r in group:
        assert "cannot be re-laid out" in r["relayout_error"]
        assert "in_shardings" in r["relayout_error"]
        msg = r["unsharded_error"]
        assert msg is not None and "xnp.jit of <lambda>" in msg, msg
        assert "float64[16, 8]" in msg and "in_shardings" in msg, msg


def test_process_allgather_of_local_values(group):
    for r in group:
        assert r["allgather_stacked"] == [[0, 1], [1, 11]]
        assert r["allgather_tiled"] == [0, 1, 1, 11]


_ERRORS_CHILD = """
import json, time, xnp
from tests.test_distributed import _free_port
out = {}
port = _free_port()  # nothing listens there
t = time.monotonic()
try:
    xnp.distributed.initialize(f"127.0.0.1:{port}", 2, 1, initialization_timeout=1)
except TimeoutError as e:
    out["unreachable"] = [str(e), time.monotonic() - t]
t = time.monotonic()
try:  # a coordinator whose second process never comes
    xnp.distributed.initialize(f"127.0.0.1:{_free_port()}", 2, 0, initialization_timeout=1)
except ConnectionError as e:
    out["lonely"] = [str(e), time.monotonic() - t]
out["initialized"] = xnp.distributed.is_initialized()
out["devices"] = len(xnp.devices())  # the backend still works, in one process
print(json.dumps(out))
"""


def test_unreachable_coordinator_and_incomplete_group_raise(children):
    out = children[1]
    msg, seconds = out["unreachable"]
    assert "could not reach the coordinator" in msg and "within 1 s" in msg
    assert seconds < 5
    msg, seconds = out["lonely"]
    assert "registering with the coordination service" in msg and "num_processes" in msg
    assert seconds < 30
    assert out["initialized"] is False and out["devices"] == 1


def test_initialize_after_the_backend_is_in_use_raises():
    xnp.devices()  # creates this process's XLA client
    with pytest.raises(RuntimeError, match="before xnp first uses its XLA backend"):
        xnp.distributed.initialize("127.0.0.1:1234", 2, 0)
    assert not xnp.distributed.is_initialized()
    assert xnp.process_index() == 0 and xnp.process_count() == 1
    assert xnp.local_devices() == xnp.devices()


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(num_processes=0, process_id=0), ValueError, "num_processes"),
    (dict(num_processes=2, process_id=2), ValueError, "out of range"),
    (dict(num_processes=2, process_id=-1), ValueError, "process_id"),
    (dict(num_processes=2, process_id=True), ValueError, "process_id"),
    (dict(num_processes=2, process_id=0, initialization_timeout=0), ValueError,
     "initialization_timeout"),
    (dict(num_processes=2, process_id=0, local_device_ids=[0]), NotImplementedError,
     "local_device_ids"),
    (dict(num_processes=2, process_id=0, coordinator_address="nohost"), ValueError,
     "host:port"),
])
def test_initialize_argument_errors(kwargs, error, match):
    kwargs = dict(dict(coordinator_address="127.0.0.1:1234"), **kwargs)
    with pytest.raises(error, match=match):
        xnp.distributed.initialize(**kwargs)
    assert not xnp.distributed.is_initialized()


def test_single_process_helpers():
    from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: PLC0415

    mesh = Mesh(np.array(xnp.devices()[:1]), ("x",))
    s = NamedSharding(mesh, P("x"))
    x = np.arange(6.0).reshape(3, 2)
    a = xnp.make_array_from_process_local_data(s, x)
    np.testing.assert_array_equal(np.asarray(a), x)
    with pytest.raises(ValueError, match="global_shape|part of"):
        xnp.make_array_from_process_local_data(s, x, global_shape=(6, 2))
    b = xnp.make_array_from_single_device_arrays((3, 2), s, [xnp.device_put(x)])
    np.testing.assert_array_equal(np.asarray(b), x)
    with pytest.raises(ValueError, match="shape"):
        xnp.make_array_from_single_device_arrays((3, 2), s, [xnp.device_put(x[:2])])
    np.testing.assert_array_equal(xnp.distributed.process_allgather(x), x[None])
    np.testing.assert_array_equal(xnp.distributed.process_allgather(x, tiled=True), x)

