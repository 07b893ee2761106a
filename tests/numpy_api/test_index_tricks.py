"""xnp's index helpers vs NumPy (eager and jit): r_, c_ (directives, slices, ndmin,
trans1d, dtype rules), s_/index_exp, ndindex, ndenumerate, mask_indices, broadcast."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy


@pytest.mark.parametrize("body", [
    lambda m, x, y: m.r_[x, 0, y],
    lambda m, x, y: m.r_[x, y, 2.5],
    lambda m, x, y: m.r_[1:4, x, 7:9:0.5],
    lambda m, x, y: m.r_[0:1:5j, x],
    lambda m, x, y: m.r_[-1:1:3j],
    lambda m, x, y: m.r_["0,2", x, y],
    lambda m, x, y: m.r_["0,2,0", x, y],
    lambda m, x, y: m.r_["1,2,0", x, y],
    lambda m, x, y: m.r_["-1", x.reshape(1, 3), y.reshape(1, 3)],
    lambda m, x, y: m.c_[x, y],
    lambda m, x, y: m.c_[x, y, x],
    lambda m, x, y: m.c_[x.reshape(1, 3), 0, 0, y.reshape(1, 3)],
    lambda m, x, y: m.r_[x.astype(m.float32), 1],
    lambda m, x, y: m.r_[x.astype(m.int8), 1000],
    lambda m, x, y: m.r_[x, y, 0, 1],
    lambda m, x, y: m.r_[x, "0"],
    lambda m, x, y: m.r_["bad", x],
    lambda m, x, y: m.r_[()],
], ids=lambda b: None)
def test_r_c_match_numpy(body):
    x, y = np.arange(3), np.array([10.0, 20.0, 30.0])
    check_vs_numpy(body, x, y)


def test_r_scalar_dtype_is_weak_as_numpy():
    x = np.arange(3, dtype=np.int8)
    for got, want in [(xnp.r_[xnp.asarray(x), 3], np.r_[x, 3]),
                      (xnp.r_[xnp.asarray(x), 3.5], np.r_[x, 3.5])]:
        assert got.dtype == want.dtype
        assert_allclose(got, want)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_r_c_matrix_directives_build_numpys_matrix():
    for got, want in [(xnp.r_["r", [1, 2], xnp.asarray([3, 4])], np.r_["r", [1, 2], [3, 4]]),
                      (xnp.c_["c", [1.0, 2.0]], np.c_["c", [1.0, 2.0]]),
                      (xnp.r_["r", xnp.asarray([[1, 2]]), [[3, 4]]],
                       np.r_["r", [[1, 2]], [[3, 4]]])]:
        assert type(got) is type(want) is np.matrix
        np.testing.assert_array_equal(got, want)
    a, b = xnp.asarray([[1, 2]]), xnp.asarray([[3, 4]])  # a string names the caller's arrays
    np.testing.assert_array_equal(xnp.r_["a; b"], np.bmat([[np.asarray(a)], [np.asarray(b)]]))
    with pytest.raises(TypeError, match=r"xnp\.r_: a matrix directive .* traced"):
        xnp.jit(lambda v: xnp.r_["r", v, v])(xnp.ones(2))


def test_s_and_index_exp_give_numpys_index():
    assert xnp.s_[1:3] == np.s_[1:3]
    assert xnp.s_[::2, None, ...] == np.s_[::2, None, ...]
    assert xnp.index_exp[2] == np.index_exp[2] == (2,)
    assert xnp.index_exp[1:, 0] == np.index_exp[1:, 0]
    a = xnp.arange(12).reshape(3, 4)
    assert_allclose(a[xnp.s_[1:, ::2]], np.arange(12).reshape(3, 4)[np.s_[1:, ::2]])


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 1, 2)])
def test_ndindex_matches_numpy(shape):
    assert list(xnp.ndindex(shape)) == list(np.ndindex(shape))
    assert list(xnp.ndindex(*shape)) == list(np.ndindex(*shape))
    it = xnp.ndindex(shape)
    assert iter(it) is it


def test_ndindex_rejects_bad_shapes():
    with pytest.raises(ValueError, match="ndindex"):
        xnp.ndindex(2, -1)
    with pytest.raises(TypeError, match="ndindex"):
        xnp.ndindex(2.5)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_ndenumerate_matches_numpy_eager_and_jit(shape):
    n = np.asarray(np.arange(int(np.prod(shape))).reshape(shape) * 1.5, np.float32)
    want = list(np.ndenumerate(n))
    got = list(xnp.ndenumerate(xnp.asarray(n)))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert_allclose(np.array([float(v) for _, v in got]), np.array([float(v) for _, v in want]))
    assert all(v.dtype == np.float32 for _, v in got)

    @xnp.jit
    def f(x):
        return xnp.stack([v * (1 + sum(i)) for i, v in xnp.ndenumerate(x)])

    assert_allclose(f(n), np.array([v * (1 + sum(i)) for i, v in want], np.float32))
    assert list(i for i, _ in xnp.ndenumerate([[1, 2]])) == [(0, 0), (0, 1)]


@pytest.mark.parametrize("n,k", [(3, 0), (4, 1), (4, -1), (1, 0), (0, 0)])
@pytest.mark.parametrize("fname", ["triu", "tril"])
def test_mask_indices_matches_numpy_eager_and_jit(n, k, fname):
    want = np.mask_indices(n, getattr(np, fname), k)
    got = xnp.mask_indices(n, getattr(xnp, fname), k)
    for g, w in zip(got, want, strict=True):
        assert_allclose(g, w)
    a = np.arange(n * n, dtype=np.float64).reshape(n, n)
    jf = xnp.jit(lambda x: x[xnp.mask_indices(n, getattr(xnp, fname), k)])
    assert_allclose(jf(a), a[want])


def test_broadcast_object_matches_numpy():
    x, y = np.arange(3).reshape(3, 1), np.array([10.0, 20.0])
    nb, xb = np.broadcast(x, y), xnp.broadcast(xnp.asarray(x), xnp.asarray(y))
    assert (xb.shape, xb.ndim, xb.nd, xb.size, xb.numiter, xb.index) == (
        nb.shape, nb.ndim, nb.ndim, nb.size, nb.numiter, nb.index)
    first = next(xb), next(xb)
    want = next(nb), next(nb)
    assert [[float(v) for v in t] for t in first] == [[float(v) for v in t] for t in want]
    assert xb.index == nb.index == 2
    assert xb.iters[0].index == nb.iters[0].index
    rest = list(xb)
    assert [[float(v) for v in t] for t in rest] == [[float(v) for v in t] for t in nb]
    xb.reset()
    nb.reset()
    assert xb.index == nb.index == 0
    assert [[float(v) for v in t] for t in xb] == [[float(v) for v in t] for t in nb]
    # nested broadcast objects contribute their arguments; Python values and no arguments
    nested = xnp.broadcast(xnp.broadcast(xnp.asarray(x), xnp.asarray(y)), 1)
    assert (nested.shape, nested.numiter) == (np.broadcast(np.broadcast(x, y), 1).shape, 3)
    assert (xnp.broadcast().shape, xnp.broadcast().size) == (np.broadcast().shape, 1)
    assert xnp.broadcast([1, 2], [[0], [1]]).shape == (2, 2)


def test_broadcast_errors_and_jit():
    with pytest.raises(ValueError, match="shape mismatch"):
        xnp.broadcast(xnp.ones(2), xnp.ones(3))
    with pytest.raises(ValueError, match="64"):
        xnp.broadcast(*([xnp.ones(1)] * 65))

    @xnp.jit
    def f(a, b):
        bc = xnp.broadcast(a, b)
        assert bc.shape == (2, 3)
        return xnp.stack([u * v for u, v in bc])

    a, b = np.arange(2.0).reshape(2, 1), np.array([1.0, 2.0, 3.0])
    assert_allclose(f(a, b), np.array([u * v for u, v in np.broadcast(a, b)]))
