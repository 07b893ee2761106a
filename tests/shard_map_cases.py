"""Cases of ``tests/test_shard_map.py`` that need 4 CPU devices (one child process, see
``tests/multi_device.py``). Each collective is checked against a NumPy oracle built from
the per-block semantics: device ``(i, j)`` of a 2x2 mesh holds block ``(i, j)``."""

from __future__ import annotations

import numpy as np

import xnp
from tests import multi_device
from xnp import lax
from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P

RNG = np.random.default_rng(1)
X = RNG.standard_normal((8, 4))

_mesh1, _mesh2, _close = multi_device.mesh1, multi_device.mesh2, multi_device.close


def _blocks(x, rows, cols=1):
    """``x`` split into a rows x cols grid of blocks: ``out[i][j]``."""
    return [np.split(r, cols, axis=1) for r in np.split(x, rows, axis=0)]


def _run(f, *args):
    """``f`` under jit and eagerly (both one SPMD program); the jitted result."""
    out = xnp.jit(f)(*args)
    eager = f(*args)
    for a, b in zip(out if isinstance(out, tuple) else (out,),
                    eager if isinstance(eager, tuple) else (eager,)):
        _close(a, b)
    return out


def case_psum_pmean_pmax_pmin_over_one_axis_of_two():
    mesh = _mesh2()
    b = _blocks(X, 2, 2)  # device (i, j): b[i][j], shape (4, 2)
    x = X.copy()
    x[1, 3] = np.nan  # in block (0, 1)
    bn = _blocks(x, 2, 2)
    for fn, ref in [(lax.psum, np.add), (lax.pmean, lambda p, q: (p + q) / 2),
                    (lax.pmax, np.maximum), (lax.pmin, np.minimum)]:
        f = xnp.shard_map(lambda blk, fn=fn: fn(blk, "y"), mesh, P("x", "y"), P("x"))
        # over y: the blocks of row i combine; the result is replicated along y
        want = np.concatenate([ref(b[i][0], b[i][1]) for i in range(2)])
        _close(_run(f, X), want)
        got = np.asarray(xnp.jit(f)(x))
        want_nan = np.concatenate([ref(bn[i][0], bn[i][1]) for i in range(2)])
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want_nan), err_msg=fn.__name__)
        _close(np.nan_to_num(got), np.nan_to_num(want_nan))


def case_psum_over_both_axes_and_ints():
    mesh = _mesh2()
    f = xnp.shard_map(lambda blk: lax.psum(blk, ("x", "y")), mesh, P("x", "y"), P())
    b = _blocks(X, 2, 2)
    _close(_run(f, X), b[0][0] + b[0][1] + b[1][0] + b[1][1])
    xi = np.arange(32, dtype=np.int32).reshape(8, 4)
    g = xnp.shard_map(lambda blk: (lax.psum(blk, "x"), lax.pmax(blk, "x")), _mesh1(), P("x"),
                      (P(), P()))
    s, m = xnp.jit(g)(xi)
    assert np.asarray(s).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(s), sum(np.split(xi, 4)))
    np.testing.assert_array_equal(np.asarray(m), xi[6:8])
    # psum of a Python number is the group size
    h = xnp.shard_map(lambda blk: blk * lax.psum(1, "x"), _mesh1(), P("x"), P("x"))
    _close(xnp.jit(h)(X), X * 4)


def case_all_gather_stacked_and_tiled():
    mesh = _mesh2()
    b = _blocks(X, 2, 2)
    stacked = xnp.shard_map(lambda blk: lax.all_gather(blk, "x"), mesh, P("x", "y"),
                            P(None, None, "y"))
    # every device of column j gets (b[0][j], b[1][j]) stacked on a new axis 0
    got = np.asarray(_run(stacked, X))
    assert got.shape == (2, 4, 4), got.shape
    for j in range(2):
        _close(got[:, :, 2 * j:2 * j + 2], np.stack([b[0][j], b[1][j]]))
    tiled = xnp.shard_map(lambda blk: lax.all_gather(blk, "y", axis=1, tiled=True), mesh,
                          P("x", "y"), P("x"))
    _close(_run(tiled, X), X)
    # over both axes (x major): the 4 blocks in device order
    both = xnp.shard_map(lambda blk: lax.all_gather(blk, ("x", "y"), axis=1), mesh,
                         P("x", "y"), P())
    got = np.asarray(xnp.jit(both)(X))
    _close(got, np.stack([b[0][0], b[0][1], b[1][0], b[1][1]], axis=1))


def case_psum_scatter_tiled_and_untiled():
    mesh = _mesh1()
    x = RNG.standard_normal((16, 3))
    blocks = np.split(x, 4)  # device i: (4, 3)
    total = sum(blocks)
    tiled = xnp.shard_map(lambda blk: lax.psum_scatter(blk, "x", tiled=True), mesh, P("x"),
                          P("x"))
    # device i gets rows i of the sum: concatenated that is the sum itself
    _close(_run(tiled, x), total)
    untiled = xnp.shard_map(lambda blk: lax.psum_scatter(blk, "x")[None], mesh, P("x"), P("x"))
    _close(xnp.jit(untiled)(x), total)
    cols = xnp.shard_map(lambda blk: lax.psum_scatter(blk, "x", scatter_dimension=1,
                                                      tiled=True),
                         _mesh2(), P("x"), P(None, "x"))
    y = RNG.standard_normal((4, 6))
    # over x only (2 devices): column halves of the sum of the two row blocks
    _close(xnp.jit(cols)(y), y[:2] + y[2:])


def case_ppermute_ring_shift():
    mesh = _mesh1()
    ring = [(i, (i + 1) % 4) for i in range(4)]
    f = xnp.shard_map(lambda blk: lax.ppermute(blk, "x", ring), mesh, P("x"), P("x"))
    x = np.arange(8.0)
    _close(_run(f, x), np.roll(x, 2))  # block i moves to device i + 1
    partial = xnp.shard_map(lambda blk: lax.ppermute(blk, "x", [(0, 1)]), mesh, P("x"), P("x"))
    _close(xnp.jit(partial)(x), [0, 0, 0, 1, 0, 0, 0, 0])
    # on a 2x2 mesh along y: within each row of the mesh
    g = xnp.shard_map(lambda blk: lax.ppermute(blk, "y", [(0, 1), (1, 0)]), _mesh2(),
                      P("x", "y"), P("x", "y"))
    b = _blocks(X, 2, 2)
    _close(xnp.jit(g)(X), np.block([[b[0][1], b[0][0]], [b[1][1], b[1][0]]]))


def case_axis_index_values():
    mesh = _mesh2()

    def f(blk):
        ix = lax.axis_index("x")
        iy = lax.axis_index("y")
        ixy = lax.axis_index(("x", "y"))
        assert ix.dtype == np.int32
        return xnp.stack([ix, iy, ixy])[None, None]

    out = np.asarray(_run(xnp.shard_map(f, mesh, P("x", "y"), P("x", "y")), X))
    assert out.shape == (2, 2, 3), out.shape
    for i in range(2):
        for j in range(2):
            assert out[i, j].tolist() == [i, j, 2 * i + j], (i, j, out[i, j])
    # a mesh over the devices in another order: the index is the position in the mesh
    rev = Mesh(np.array(xnp.devices()[::-1]), ("x",))
    g = xnp.shard_map(lambda blk: blk + lax.axis_index("x"), rev, P("x"), P("x"))
    _close(xnp.jit(g)(np.zeros(4)), [0, 1, 2, 3])


def case_sharded_matmul_with_psum_equals_numpy():
    a = RNG.standard_normal((8, 16))
    b = RNG.standard_normal((16, 4))
    mesh = _mesh2()
    # contract over the split dimension: each device multiplies its column/row blocks and
    # psum adds the partial products
    f = xnp.shard_map(lambda ab, bb: lax.psum(ab @ bb, "y"), mesh, (P("x", "y"), P("y")),
                      P("x"))
    _close(_run(f, a, b), a @ b)
    # with jit's in_shardings laying the arguments out as the specs do
    g = xnp.jit(f, in_shardings=(NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y"))))
    _close(g(a, b), a @ b)


def case_grad_through_shard_map_psum_equals_unsharded():
    mesh = _mesh1()
    w = RNG.standard_normal((4, 3))
    x = RNG.standard_normal((8, 4))

    def sharded_loss(w, x):
        def body(w, xb):
            return lax.psum(xnp.sum(xnp.tanh(xb @ w) ** 2), "x")
        return xnp.shard_map(body, mesh, (P(), P("x")), P())(w, x)

    def loss(w, x):
        return xnp.sum(xnp.tanh(x @ w) ** 2)

    _close(sharded_loss(w, x), loss(w, x))
    gw, gx = xnp.grad(sharded_loss, argnums=(0, 1))(w, x)
    rw, rx = xnp.grad(loss, argnums=(0, 1))(w, x)
    _close(gw, rw)
    _close(gx, rx)
    jw, jx = xnp.jit(xnp.grad(sharded_loss, argnums=(0, 1)))(w, x)
    _close(jw, rw)
    _close(jx, rx)
    # pmean, all_gather and ppermute inside: grads equal the unsharded function's
    ring = [(i, (i + 1) % 4) for i in range(4)]

    def body2(xb):
        g = lax.all_gather(xb, "x", tiled=True)
        return lax.pmean(xnp.sum(g * g) + xnp.sum(lax.ppermute(xb, "x", ring) * xb), "x")

    f2 = xnp.shard_map(body2, mesh, P("x"), P())
    # the mean over devices of sum(x * x) (the same on each) and of block i-1 times block i
    ref2 = lambda x: xnp.sum(x * x) + xnp.sum(xnp.roll(x, 2, axis=0) * x) / 4  # noqa: E731
    _close(xnp.grad(f2)(x), xnp.grad(ref2)(x))
    # pmax: the tangent of the largest block's element (no ties in random data)
    f3 = xnp.shard_map(lambda xb: xnp.sum(lax.pmax(xb, "x")), mesh, P("x"), P())
    blocks = np.stack(np.split(x, 4))
    want = (blocks == blocks.max(0)).astype(float).reshape(x.shape)
    _close(xnp.jit(xnp.grad(f3))(x), want)
    # forward mode
    t = RNG.standard_normal(x.shape)
    _close(xnp.jvp(f2, (x,), (t,))[1], xnp.jvp(ref2, (x,), (t,))[1])


def case_vmap_of_and_inside_shard_map():
    mesh = _mesh1()
    xs = RNG.standard_normal((3, 8))
    f = xnp.shard_map(lambda blk: lax.psum(blk, "x"), mesh, P("x"), P())
    want = np.stack([sum(np.split(r, 4)) for r in xs])
    _close(xnp.vmap(f)(xs), want)
    _close(xnp.jit(xnp.vmap(f, in_axes=1))(xs.T), want)
    # vmap inside the body: all_gather of a batched value
    g = xnp.shard_map(lambda blk: xnp.vmap(lambda r: lax.all_gather(r, "x", tiled=True))(blk),
                      mesh, P(None, "x"), P())
    _close(xnp.jit(g)(xs), xs)


def case_max_over_split_dimension_under_jit():
    # reduce_max/min in a partitioned program: the all-reduce XLA makes must be plain
    mesh = _mesh2()
    s = NamedSharding(mesh, P("x", "y"))
    x = X.copy()
    x[5, 1] = np.nan
    f = xnp.jit(lambda a: (xnp.max(a, axis=0), xnp.min(a), xnp.max(a, axis=1)), in_shardings=s)
    for arr in (X, x):
        got = f(arr)
        for g, w in zip(got, (arr.max(0), arr.min(), arr.max(1))):
            np.testing.assert_array_equal(np.asarray(g), w)


def case_errors():
    mesh = _mesh1()
    try:
        lax.psum(np.ones(3), "x")
    except NameError as e:
        assert "'x'" in str(e) and "unbound" in str(e) and "shard_map" in str(e), e
    else:
        raise AssertionError("psum outside shard_map accepted")
    try:
        xnp.jit(lambda a: lax.axis_index("i"))(np.ones(2))
    except NameError as e:
        assert "'i'" in str(e) and "unbound" in str(e), e
    else:
        raise AssertionError("axis_index outside shard_map accepted")
    inner = xnp.shard_map(lambda b: lax.psum(b, "y"), mesh, P("x"), P())
    try:
        inner(np.ones(8))
    except NameError as e:
        assert "'y'" in str(e) and "('x',)" in str(e), e
    else:
        raise AssertionError("an axis the mesh lacks accepted")
    f = xnp.shard_map(lambda b: b, mesh, P("x", None), P("x"))
    try:
        f(np.ones(8))
    except ValueError as e:
        msg = str(e)
        assert "in_specs" in msg and "rank 1" in msg and "float64[8]" in msg, msg
    else:
        raise AssertionError("in_specs longer than the rank accepted")
    try:
        xnp.shard_map(lambda b: b, mesh, P("x"), P("x"))(np.ones(6))
    except ValueError as e:
        assert "divisible" in str(e) and "4 devices" in str(e), e
    else:
        raise AssertionError("indivisible argument accepted")
    try:
        xnp.shard_map(lambda b: b, mesh, P("z"), P("x"))(np.ones(8))
    except ValueError as e:
        assert "'z'" in str(e), e
    else:
        raise AssertionError("unknown mesh axis accepted")
    try:
        xnp.shard_map(lambda b: lax.psum_scatter(b, "x"), mesh, P("x"), P())(np.ones(8))
    except ValueError as e:
        assert "tiled=True" in str(e), e
    else:
        raise AssertionError("untiled psum_scatter of a wrong size accepted")


def main() -> None:
    multi_device.run_cases(globals())


CASES = multi_device.case_names(globals())
