"""xnp.numpy_api.grids vs NumPy (eager, jit, jaxpr via check_vs_numpy): meshgrid, indices,
ix_, mgrid/ogrid, unravel_index, ravel_multi_index (modes), logspace, geomspace,
fromfunction; NumPy's error classes; traced-index behaviour."""

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import (assert_allclose, axes_labels, check_vs_numpy, covering_grid, family,
                           grid, make_array)

VEC_DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint32, np.float32, np.float64,
                                    np.complex128)]


# sampled (all with --full-grid): every dtype, each number/length of inputs (none, one,
# an empty one, three) with each indexing and sparse/dense, each indexing with each
# sparse, and each dtype family dense and sparse, then random others
@pytest.mark.parametrize("case", covering_grid(
    lens=[(3,), (2, 4), (0, 3), (2, 3, 1), ()], indexing=["xy", "ij"], sparse=[False, True],
    dtype=VEC_DTYPES, n=20,
    labels=lambda c: axes_labels(c, "dtype", ("lens", "indexing"), ("lens", "sparse"),
                                 ("indexing", "sparse")) + [
        ("dtype family x sparse", family(c.dtype), c.sparse)]))
def test_meshgrid_matches_numpy(case, rng):
    xs = [make_array(rng, (n,), case.dtype) for n in case.lens]
    check_vs_numpy(lambda m, *xs: m.meshgrid(*xs, indexing=case.indexing, sparse=case.sparse),
                   *xs)


def test_meshgrid_bad_indexing_and_2d_input():
    check_vs_numpy(lambda m, x: m.meshgrid(x, x, indexing="yx"), np.arange(3))
    check_vs_numpy(lambda m, x: m.meshgrid(x, x[0]), np.arange(6).reshape(2, 3))


@pytest.mark.parametrize("dims", [(), (0,), (3,), (2, 3), (2, 0, 4)])
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32])
@pytest.mark.parametrize("sparse", [False, True])
def test_indices_matches_numpy(dims, dtype, sparse):
    check_vs_numpy(lambda m: m.indices(dims, dtype=dtype, sparse=sparse))


def test_ix_matches_numpy(rng):
    a, b = np.array([0, 2]), np.array([1, 0, 3], np.int32)
    check_vs_numpy(lambda m, a, b: m.ix_(a, b, [True, False, True], []), a, b)
    check_vs_numpy(lambda m: m.ix_())
    check_vs_numpy(lambda m, a: m.ix_(a.reshape(1, 2)), a)
    x = rng.standard_normal((3, 4))
    check_vs_numpy(lambda m, x, a, b: x[m.ix_(a, b)], x, a, b)
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda mask: xnp.ix_(mask))(xnp.asarray([True, False]))


@pytest.mark.parametrize("key", [slice(0, 5), slice(1, 10, 3), slice(0, 1, 5j), slice(-1, 1, 3j),
                                 slice(0.5, 3), slice(4, 0, -1), slice(5, 0),
                                 (slice(0, 3), slice(1, 2, 4j)), (slice(0, 2), slice(-2, 2, 2)),
                                 (slice(0, 3), slice(0.0, 1.0, 0.25), slice(2))])
def test_mgrid_ogrid_match_numpy(key):
    check_vs_numpy(lambda m: m.mgrid[key])
    check_vs_numpy(lambda m: m.ogrid[key])


# sampled (all with --full-grid): each shape with each order and each index dtype, each
# order with each index dtype
@pytest.mark.parametrize("case", covering_grid(
    shape=[(3, 4), (5,), (2, 3, 4), (1, 1)], order=["C", "F"],
    idx_dtype=[np.int64, np.int32, np.uint8], n=12,
    labels=lambda c: axes_labels(c, ("shape", "order"), ("shape", "idx_dtype"),
                                 ("order", "idx_dtype"))))
def test_unravel_and_ravel_multi_index_match_numpy(case, rng):
    size = int(np.prod(case.shape))
    flat = rng.integers(0, size, (2, 3)).astype(case.idx_dtype)
    check_vs_numpy(lambda m, i: m.unravel_index(i, case.shape, order=case.order), flat)
    check_vs_numpy(lambda m, i: m.unravel_index(i, case.shape, order=case.order),
                   np.asarray(flat[0, 0]))
    coords = [rng.integers(0, n, (3,)).astype(case.idx_dtype) for n in case.shape]
    check_vs_numpy(lambda m, *c: m.ravel_multi_index(c, case.shape, order=case.order), *coords)


@pytest.mark.parametrize("mode", ["wrap", "clip", ("clip", "wrap")])
def test_ravel_multi_index_modes(mode):
    i, j = np.array([-5, 0, 7, 2]), np.array([[3], [-1], [9]])
    check_vs_numpy(lambda m, i, j: m.ravel_multi_index((i, j), (4, 5), mode=mode), i, j)


@pytest.mark.parametrize("body", [
    lambda m, i: m.unravel_index(i, (2, 3)), lambda m, i: m.unravel_index(i * 1.0, (4, 5)),
    lambda m, i: m.unravel_index(i, (4, 5), order="X"),
    lambda m, i: m.ravel_multi_index((i, i), (2, 3)),
    lambda m, i: m.ravel_multi_index((i,), (2, 3)),
    lambda m, i: m.ravel_multi_index((i, i), (9, 9), mode="bad"),
    lambda m, i: m.ravel_multi_index((i * 1.0, i), (9, 9))])
def test_index_conversion_errors_match_numpy(body):
    check_vs_numpy(body, np.array([1, 7]), jit=False)
    with pytest.raises((ValueError, TypeError)):  # host data is checked under jit too
        xnp.jit(lambda: body(xnp, [1, 7]))()


def test_traced_out_of_range_indices_are_clipped():
    f = xnp.jit(lambda i: xnp.unravel_index(i, (3, 4)))
    assert_allclose(f(xnp.asarray([100, -3])), (np.array([2, 0]), np.array([3, 0])))
    g = xnp.jit(lambda i: xnp.ravel_multi_index((i, i), (3, 4)))
    assert_allclose(g(xnp.asarray([5])), np.array([11]))


# sampled (all with --full-grid): each pair of num, endpoint and bounds
@pytest.mark.parametrize("case", covering_grid(
    num=[0, 1, 5], endpoint=[True, False], bounds=[(0, 2), (-1.5, 3), (2, -1)], n=9,
    labels=lambda c: axes_labels(c, ("num", "endpoint"), ("num", "bounds"),
                                 ("endpoint", "bounds"))))
def test_logspace_matches_numpy(case):
    lo, hi = case.bounds
    check_vs_numpy(lambda m: m.logspace(lo, hi, case.num, case.endpoint), kind="reduction")
    check_vs_numpy(lambda m: m.logspace(lo, hi, case.num, case.endpoint, base=2.0,
                                        dtype=np.float32), kind="reduction")
    check_vs_numpy(lambda m, b: m.logspace(lo, hi, case.num, case.endpoint, base=b, axis=-1),
                   np.array([2.0, 3.0]), kind="reduction")


@pytest.mark.parametrize("case", grid(num=[0, 1, 4], endpoint=[True, False],
                                      bounds=[(1, 1000), (-1, -16), (1j, 1000j), (3, 0.5),
                                              (-1 + 0j, 1 + 0j)], n=8))
def test_geomspace_matches_numpy(case):
    lo, hi = case.bounds
    check_vs_numpy(lambda m: m.geomspace(lo, hi, case.num, case.endpoint), kind="reduction")
    check_vs_numpy(lambda m, a: m.geomspace(a, hi, case.num, case.endpoint, axis=-1),
                   np.array([lo, 2 * lo]), kind="reduction")


def test_geomspace_zero_raises_and_dtype():
    check_vs_numpy(lambda m: m.geomspace(0, 10))
    check_vs_numpy(lambda m: m.geomspace(1, 10, 3, dtype=np.int32))
    check_vs_numpy(lambda m, a: m.geomspace(a, 10, 3), np.float32(2.0), kind="reduction")


def test_geomspace_of_eager_arrays_replays_with_its_zero_check():
    """Array endpoints: the zero check is an equation, so a call replays (one program for
    every value) and raises NumPy's ValueError on any call whose values hold a zero, also
    under vmap (the whole batch) and grad."""
    from xnp.numpy_api import _replay

    _replay.clear()
    rng = np.random.default_rng(3)
    for _ in range(6):
        lo, hi = rng.uniform(0.5, 2, 3), rng.uniform(-20, -5, 3)
        got = np.asarray(xnp.geomspace(xnp.asarray(lo), xnp.asarray(hi), 4, axis=1))
        np.testing.assert_allclose(got, np.geomspace(lo, hi, 4, axis=1), rtol=1e-14)
    assert _replay.stats(xnp.geomspace) == {"programs": 1, "refused": []}
    for bad in ([1.0, 0.0, 2.0], [1.0, -0.0, 2.0]):
        with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
            xnp.geomspace(xnp.asarray(bad), xnp.asarray([3.0, 4.0, 5.0]), 4)
        with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
            xnp.vmap(lambda a: xnp.geomspace(a, 2.0, 3))(xnp.asarray(bad))
    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        xnp.grad(lambda a: xnp.geomspace(a, 2.0, 3).sum())(0.0)


@pytest.mark.parametrize("dtype", [None, np.float32, np.float16, np.int32, np.complex64])
def test_geomspace_of_float32_endpoints_computes_as_numpy(dtype):
    """NumPy's dtype is result_type(start, stop, float, zeros((), dtype)): float32
    endpoints give float64 unless dtype= says otherwise; eagerly and under jit."""
    a, b = np.array([1.0, 2.0], np.float32), np.array([10.0, -20.0], np.float32)
    want = np.geomspace(a, b, 4, dtype=dtype)
    for f in (xnp.geomspace, xnp.jit(xnp.geomspace, static_argnames=("num", "dtype"))):
        got = np.asarray(f(xnp.asarray(a), xnp.asarray(b), num=4, dtype=dtype))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6 if want.dtype.itemsize > 2 else 1e-3)


def test_fromfunction_matches_numpy():
    check_vs_numpy(lambda m: m.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    check_vs_numpy(lambda m: m.fromfunction(lambda i, j, s: (i - j) * s, (2, 2), dtype=int, s=3))


def test_grad_through_meshgrid_and_logspace():
    g = xnp.grad(lambda x: xnp.meshgrid(x, x)[0].sum())(xnp.asarray([1.0, 2.0, 3.0]))
    assert_allclose(g, np.full(3, 3.0))
    g = xnp.grad(lambda s: xnp.logspace(s, 1.0, 3).sum())(0.0)
    expected = np.log(10) * (np.logspace(0, 1, 3) * np.array([1, 0.5, 0])).sum()
    assert_allclose(g, np.float64(expected), kind="reduction")


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_layout_and_writes_match_numpy(copy, sparse, indexing):
    # copy=True: C-contiguous arrays of their own (NumPy's x.copy()); copy=False: NumPy's
    # views of the inputs (dense: broadcast_arrays' views, whose writes warn
    # DeprecationWarning and reach the inputs; sparse: plain reshaped views)
    got, want = {}, {}
    for mod, seen in ((np, want), (xnp, got)):
        xs, ys = mod.asarray([1.0, 2.0, 3.0]), mod.asarray([10.0, 20.0])
        outs = mod.meshgrid(xs, ys, copy=copy, sparse=sparse, indexing=indexing)
        seen["strides"] = [o.strides for o in outs]
        seen["shares"] = [np.shares_memory(np.asarray(o), np.asarray(v))
                          for o, v in zip(outs, (xs, ys))]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            seen["writeable"] = [o.flags.writeable for o in outs]
            for o in outs:
                o[(0,) * o.ndim] = 99.0
        seen["warnings"] = sorted(r.category.__name__ for r in w)
        seen["inputs"] = [np.asarray(xs).tolist(), np.asarray(ys).tolist()]
    assert got == want


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_copies_are_independent_arrays(sparse, indexing):
    # NumPy's default copy=True: each output owns its memory, so a write changes one
    # element (not a column of a broadcast view) and never the inputs
    xs, ys = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0])
    ref = np.meshgrid(xs, ys, sparse=sparse, indexing=indexing)
    x, y = xnp.asarray(xs), xnp.asarray(ys)
    outs = xnp.meshgrid(x, y, sparse=sparse, indexing=indexing)
    for o, r in zip(outs, ref):
        o[0, 0] = 99.0
        r[0, 0] = 99.0
        np.testing.assert_array_equal(np.asarray(o), r)
        assert np.asarray(o).flags.writeable
    np.testing.assert_array_equal(np.asarray(x), xs)
    np.testing.assert_array_equal(np.asarray(y), ys)
    jitted = xnp.jit(lambda a, b: xnp.meshgrid(a, b, sparse=sparse, indexing=indexing))(x, y)
    for o, r in zip(jitted, np.meshgrid(xs, ys, sparse=sparse, indexing=indexing)):
        np.testing.assert_array_equal(np.asarray(o), r)


def _meshgrid_inputs(m, form):
    """Inputs of several forms: vectors of two dtypes, one vector, length-1 vectors (NumPy's
    broadcast_arrays returns such inputs as they are: no warn-on-write flag), a strided
    column, a Python list, a 2-D input (flattened: a copy), three vectors."""
    base = m.asarray(np.arange(12.0).reshape(3, 4))
    return {"two": [m.arange(3.0), m.asarray(np.arange(2, dtype=np.int8))],
            "one": [m.arange(3.0)], "ones": [m.asarray([1.0]), m.asarray([2.0])],
            "strided": [base[:, 1], m.arange(2.0)], "list": [[1, 2, 3], m.arange(2.0)],
            "2-d": [m.asarray(np.arange(6.0).reshape(2, 3)), m.arange(2.0)],
            "three": [m.arange(3.0), m.arange(2.0), m.arange(4.0)]}[form]


def _meshgrid_behaviour(m, form, **kw):
    """What NumPy's users see of ``meshgrid(..., **kw)``: the container, each output's dtype,
    shape, strides, flags (with the FutureWarning a broadcast view's ``writeable`` gives), its
    memory shared with each input, the warnings of two writes into it, and the inputs after."""
    ins = _meshgrid_inputs(m, form)
    outs = m.meshgrid(*ins, **kw)
    seen = [type(outs).__name__]
    for o in outs:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = o.flags
            seen.append((o.dtype, o.shape, o.strides, f.c_contiguous, f.f_contiguous,
                         f.owndata, f.writeable, [r.category for r in w]))
        seen.append([bool(np.shares_memory(np.asarray(o), np.asarray(v))) for v in ins
                     if hasattr(v, "dtype")])
    for o in outs:
        for value in (7, 8):  # (NumPy warns on the first write only)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                o[(0,) * o.ndim] = value
            seen.append([r.category for r in w])
    seen.append([np.asarray(v).tolist() for v in ins])
    return seen


# NumPy 2.x: copy=False gives views of the inputs; dense, broadcast_arrays' views, whose
# writeable flag is True with a FutureWarning when read and whose first write warns
# DeprecationWarning and reaches the inputs; sparse, plain reshaped views (a list). Each
# call alike: the first is recorded, the next ones replayed
@pytest.mark.parametrize("form", ["two", "one", "ones", "strided", "list", "2-d", "three"])
@pytest.mark.parametrize("kw", [{"copy": False}, {"copy": False, "indexing": "ij"},
                                {"copy": False, "sparse": True},
                                {"copy": False, "sparse": True, "indexing": "ij"}, {}])
def test_meshgrid_views_as_numpy_on_each_call(form, kw):
    want = _meshgrid_behaviour(np, form, **kw)
    for _ in range(3):
        assert _meshgrid_behaviour(xnp, form, **kw) == want
