"""Cases of ``tests/test_sharding.py`` that need 4 CPU devices: run in one child process
started with ``XNP_NUM_CPU_DEVICES=4`` (the device count is fixed when the XLA client is
created). ``main()`` runs every ``case_*`` and prints ``{name: "ok" or the traceback}``
as JSON on its last line."""

from __future__ import annotations

import numpy as np

import xnp
from tests import multi_device
from xnp.sharding import NamedSharding, PartitionSpec as P

RNG = np.random.default_rng(0)
A = RNG.standard_normal((8, 4))
B = RNG.standard_normal((4, 8))

_mesh1, _mesh2, _close = multi_device.mesh1, multi_device.mesh2, multi_device.close


def case_devices_listed():
    devs = xnp.devices()
    assert [d.id for d in devs] == [0, 1, 2, 3], devs
    assert all(d.platform == "cpu" for d in devs)
    assert repr(devs[2]) == "CpuDevice(id=2)"


def case_num_cpu_devices_fixed_once_client_exists():
    xnp.devices()
    xnp.config.update("num_cpu_devices", 4)  # the same value: allowed
    try:
        xnp.config.update("num_cpu_devices", 2)
    except RuntimeError as e:
        assert "num_cpu_devices" in str(e) and "XLA client" in str(e), e
    else:
        raise AssertionError("no RuntimeError")
    assert xnp.config.get("num_cpu_devices") == 4


def case_device_put_shards_and_gathers():
    mesh = _mesh2()
    x = np.arange(32.0).reshape(8, 4)
    shapes = {P("x"): (4, 4), P("x", "y"): (4, 2), P(None, "y"): (8, 2),
              P(("x", "y")): (2, 4), P(): (8, 4), P("y", "x"): (4, 2)}
    for spec, shard_shape in shapes.items():
        s = NamedSharding(mesh, spec)
        a = xnp.device_put(x, s)
        assert a.sharding == s, (spec, a.sharding)
        assert a.shape == (8, 4) and a.dtype == np.float64
        np.testing.assert_array_equal(np.asarray(a), x)
        shards = a.addressable_shards
        assert len(shards) == 4
        for sh in shards:
            assert sh.data.shape == shard_shape, (spec, sh)
            np.testing.assert_array_equal(np.asarray(sh.data), x[sh.index])
        assert s.shard_shape(x.shape) == shard_shape
    # eager operations read the gathered value
    a = xnp.device_put(x, NamedSharding(mesh, P("x", "y")))
    _close(xnp.sum(a + 1), (x + 1).sum())


def case_addressable_shards_indices():
    a = xnp.device_put(np.arange(8), NamedSharding(_mesh1(), P("x")))
    got = [(sh.device.id, sh.index) for sh in a.addressable_shards]
    assert got == [(i, (slice(2 * i, 2 * i + 2),)) for i in range(4)], got
    assert [np.asarray(sh.data).tolist() for sh in a.addressable_shards] == [
        [0, 1], [2, 3], [4, 5], [6, 7]]
    # a 2-d mesh with the axes swapped: device (i, j) holds tile (j, i)
    b = xnp.device_put(np.arange(16).reshape(4, 4), NamedSharding(_mesh2(), P("y", "x")))
    idx = {sh.device.id: sh.index for sh in b.addressable_shards}
    assert idx[1] == (slice(2, 4), slice(0, 2)), idx
    assert idx[2] == (slice(0, 2), slice(2, 4)), idx


def case_jit_elementwise_row_sharded():
    row = NamedSharding(_mesh1(), P("x"))
    f = xnp.jit(lambda x: xnp.sin(x) * 2 + 1, in_shardings=row, out_shardings=row)
    out = f(A)
    _close(out, np.sin(A) * 2 + 1)
    assert out.sharding == row
    out2 = f(xnp.device_put(A, row))  # an argument already laid out so
    _close(out2, np.sin(A) * 2 + 1)


def case_sharded_jit_reads_closed_over_array_at_each_call():
    row = NamedSharding(_mesh1(), P("x"))
    w = xnp.asarray(np.arange(4.0))
    f = xnp.jit(lambda x: x * w, in_shardings=row)
    _close(f(A), A * np.arange(4.0))
    w[1] = 10.0  # a write into the closed-over array: seen by the next call
    _close(f(A), A * np.array([0.0, 10.0, 2.0, 3.0]))
    compiled = f.lower(A).compile()
    w[2] = -1.0
    _close(compiled(A), A * np.array([0.0, 10.0, -1.0, 3.0]))


def case_host_callback_in_a_sharded_program_is_refused():
    row = NamedSharding(_mesh1(), P("x"))
    f = xnp.jit(lambda x: x + xnp.lax.io_callback(lambda v: v, xnp.ShapeDtypeStruct(
        (8, 4), np.float64), x), in_shardings=row)
    try:
        f(A)
    except NotImplementedError as e:
        assert "host callbacks" in str(e) and "several devices" in str(e), e
    else:
        raise AssertionError("no NotImplementedError")


def case_jit_reduction_equals_numpy():
    mesh = _mesh2()
    s = NamedSharding(mesh, P("x", "y"))
    f = xnp.jit(lambda x: (x.sum(axis=0), xnp.mean(x, axis=1), x.sum()), in_shardings=s)
    r0, r1, r2 = f(A)
    _close(r0, A.sum(0))
    _close(r1, A.mean(1))
    _close(r2, A.sum())
    # max along a dimension that is not split and one that is (across devices XLA's CPU
    # all-reduce takes only a plain maximum combiner: tests/shard_map_cases.py has NaN)
    g = xnp.jit(lambda x: (xnp.max(x, axis=1), xnp.max(x, axis=0)),
                in_shardings=NamedSharding(mesh, P("x")))
    g1, g0 = g(A)
    _close(g1, A.max(1))
    _close(g0, A.max(0))


def case_jit_matmul_row_and_column_sharded():
    mesh = _mesh1()
    row, col = NamedSharding(mesh, P("x")), NamedSharding(mesh, P(None, "x"))
    r = xnp.jit(lambda x, y: x @ y, in_shardings=(row, None), out_shardings=row)(A, B)
    _close(r, A @ B)
    assert [sh.data.shape for sh in r.addressable_shards] == [(2, 8)] * 4
    c = xnp.jit(lambda x, y: x @ y, in_shardings=(None, col), out_shardings=col)(A, B)
    _close(c, A @ B)
    assert [sh.data.shape for sh in c.addressable_shards] == [(8, 2)] * 4
    # contracting dimension split: XLA adds the all-reduce
    k = xnp.jit(lambda x, y: x @ y, in_shardings=(col, NamedSharding(mesh, P("x"))))(
        RNG.standard_normal((6, 8)), B.T.copy())
    assert k.shape == (6, 4)


def case_with_sharding_constraint_inside_jit():
    col = NamedSharding(_mesh1(), P(None, "x"))

    def f(x):
        y = xnp.lax.with_sharding_constraint(xnp.sin(x), col)
        return y * 2, y.sum()

    jf = xnp.jit(f)
    text = jf.lower(A).as_text()
    assert "sdy.sharding_constraint" in text and "mhlo.num_partitions = 4" in text, text
    y, s = jf(A)
    _close(y, np.sin(A) * 2)
    _close(s, np.sin(A).sum())
    # eagerly: a copy of the value
    _close(xnp.lax.with_sharding_constraint(xnp.asarray(A), col), A)


def case_out_shardings_respected():
    mesh = _mesh2()
    s_in = NamedSharding(mesh, P("x"))
    s_out = NamedSharding(mesh, P(None, ("x", "y")))
    rep = NamedSharding(mesh, P())
    f = xnp.jit(lambda x: (x * 3, x - 1), in_shardings=s_in, out_shardings=(s_out, rep))
    a, b = f(A)
    assert a.sharding == s_out and b.sharding == rep, (a.sharding, b.sharding)
    assert [sh.data.shape for sh in a.addressable_shards] == [(8, 1)] * 4
    assert [sh.data.shape for sh in b.addressable_shards] == [(8, 4)] * 4
    _close(a, A * 3)
    _close(b, A - 1)
    text = f.lower(A).as_text()
    assert 'sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>' in text, text


def case_grad_through_sharded_jit_equals_unsharded():
    mesh = _mesh1()
    row = NamedSharding(mesh, P("x"))
    w = RNG.standard_normal((4, 3))

    def loss(w, x):
        h = xnp.tanh(x @ w)
        h = xnp.lax.with_sharding_constraint(h, row)
        return xnp.sum(h ** 2)

    want = xnp.grad(loss)(w, A)
    got = xnp.jit(xnp.grad(loss), in_shardings=(None, row))(w, A)
    _close(got, want, rtol=1e-10)
    got2 = xnp.grad(xnp.jit(loss, in_shardings=(None, row)))(w, A)
    _close(got2, want, rtol=1e-10)
    gx = xnp.jit(xnp.grad(loss, argnums=1), in_shardings=(None, row), out_shardings=row)(w, A)
    assert gx.sharding == row
    _close(gx, xnp.grad(loss, argnums=1)(w, A), rtol=1e-10)


def case_vmap_of_constraint_leaves_batch_dim_unsplit():
    row = NamedSharding(_mesh1(), P("x"))
    f = xnp.jit(xnp.vmap(lambda x: xnp.lax.with_sharding_constraint(x * 2, row)))
    x = RNG.standard_normal((3, 8))
    _close(f(x), x * 2)
    assert '[{}, {"x"}]' in f.lower(x).as_text()


def case_sharded_argument_to_unsharded_jit():
    xs = xnp.device_put(A, NamedSharding(_mesh1(), P("x")))
    f = xnp.jit(lambda x: x * 3)
    _close(f(xs), A * 3)
    _close(f(xs), A * 3)  # the cached paths
    g = xnp.jit(lambda x, y: x + y)
    _close(g(xs, xs), A * 2)
    _close(g(xs, A), A * 2)


def case_array_on_another_device_to_unsharded_jit():
    # a single-device array on cpu:1 or cpu:3 passed to a single-device executable: moved
    # onto device 0 (the call runs; XLA's error was raised before)
    devs = xnp.devices()
    f = xnp.jit(lambda x: x * 3)
    for d in (devs[1], devs[3]):
        y = xnp.device_put(A, d)
        _close(f(y), A * 3)
        _close(f(y), A * 3)  # the cached paths
        _close(xnp.jit(lambda x, z: x + z)(y, A), A * 2)
    assert xnp.ones(2).to_device(devs[0]).device == devs[0]
    assert xnp.zeros(2, device=devs[0]).shape == (2,)
    assert devs[1] != xnp.ones(1).device


def case_chained_sharded_calls_pass_buffers_as_they_are():
    from xnp.backends.xla import sharding as xs

    row = NamedSharding(_mesh1(), P("x"))
    f = xnp.jit(lambda x: x + 1, in_shardings=row, out_shardings=row)
    y = f(A)
    calls = []
    orig = xs.put_sharded
    xs.put_sharded = lambda *a, **k: calls.append(1) or orig(*a, **k)
    try:
        z = f(f(y))
    finally:
        xs.put_sharded = orig
    assert not calls, "a sharded output was laid out again"
    _close(z, A + 3)


def case_unsharded_module_unchanged():
    text = xnp.jit(lambda x: x * 2).lower(A).as_text()
    assert "sdy" not in text and "mhlo.num_partitions = 1" in text, text


def case_errors_name_function_axis_and_shape():
    mesh = _mesh1()
    try:
        NamedSharding(mesh, P("z"))
    except ValueError as e:
        assert "'z'" in str(e) and "('x',)" in str(e), e
    else:
        raise AssertionError("unknown mesh axis accepted")
    s = NamedSharding(mesh, P("x"))
    try:
        xnp.device_put(np.zeros((6, 2), np.float32), s)
    except ValueError as e:
        msg = str(e)
        assert "xnp.device_put" in msg and "float32[6, 2]" in msg and "4 shards" in msg, msg
    else:
        raise AssertionError("indivisible dimension accepted")
    f = xnp.jit(lambda x: x + 1, in_shardings=s)
    try:
        f(np.zeros((6,), np.int32))
    except ValueError as e:
        msg = str(e)
        assert "xnp.jit" in msg and "int32[6]" in msg and "in_shardings[0]" in msg, msg
    else:
        raise AssertionError("indivisible dimension accepted under jit")
    try:
        xnp.device_put(np.zeros((4,)), NamedSharding(mesh, P("x", None)))
    except ValueError as e:
        assert "rank" in str(e), e
    else:
        raise AssertionError("spec longer than the rank accepted")


def case_device_and_to_device_follow_the_placement():
    """``.device`` is the device an array was placed on (cpu:0 for host arrays), the
    sharding for an array split over several; ``to_device`` and ``asarray(device=)`` place
    a copy (values unchanged), and creation functions name device_put for other devices."""
    import pytest  # noqa: PLC0415  (the child runs outside pytest)

    devs = xnp.devices()
    x = xnp.device_put(A, devs[2])
    assert x.device == devs[2] and x.device != devs[0], x.device
    info = xnp.__array_namespace_info__()
    assert list(info.devices()) == devs and info.devices()[0] == "cpu", info.devices()
    host = xnp.asarray(A).device
    assert host == devs[0] and host == "cpu", host
    split = xnp.device_put(A, NamedSharding(_mesh1(), P("x")))
    assert split.device == split.sharding, split.device
    y = x.to_device(devs[0])
    assert y.device == devs[0] and y.sharding.device_set == {devs[0]}
    _close(y, A)
    assert x.to_device(devs[2]) is x
    z = xnp.asarray(A, device=devs[3])
    assert z.device == devs[3] and z.addressable_shards[0].device == devs[3]
    _close(z, A)
    _close(xnp.jit(lambda v: v * 2)(z), A * 2)
    with pytest.raises(ValueError, match="xnp.zeros: arrays are created on device 0.*device_put"):
        xnp.zeros(3, device=devs[1])
    with pytest.raises(ValueError, match="unknown device 'gpu'"):
        x.to_device("gpu")


def case_specs_copy_and_pickle_as_they_are_and_0d_replicated_puts():
    """copy/deepcopy/pickle of a PartitionSpec keep its entries (a tuple subclass rebuilt
    with __new__(cls, *entries)), so a pickled NamedSharding lays out the same shards; a
    0-d array replicated over several devices reads back and jits as 0-d."""
    import copy  # noqa: PLC0415
    import pickle  # noqa: PLC0415

    for spec in (P("x", "y"), P("x", None), P(None, "y"), P("x"), P(), P(("x", "y"))):
        for c in (copy.copy(spec), copy.deepcopy(spec), pickle.loads(pickle.dumps(spec))):
            assert type(c) is P and tuple(c) == tuple(spec), (spec, c)
    s = NamedSharding(_mesh2(), P("x", "y"))
    a = np.arange(16.0).reshape(4, 4)
    got = [sh.data.shape for sh in xnp.device_put(a, pickle.loads(pickle.dumps(s))).
           addressable_shards]
    assert got == [(2, 2)] * 4, got
    z = xnp.device_put(np.float64(3.0), NamedSharding(_mesh1(), P()))
    assert z.shape == () and np.asarray(z) == 3.0
    assert [sh.data.shape for sh in z.addressable_shards] == [()] * 4
    _close(xnp.jit(lambda v: v + v)(z), 6.0)


def main() -> None:
    multi_device.run_cases(globals())


CASES = multi_device.case_names(globals())
