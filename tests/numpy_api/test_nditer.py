"""xnp.nditer / xnp.nested_iters vs NumPy's on the same data: the iteration order and
values under the common flags, write-back into xnp arrays (views included), allocated
outputs, buffering with op_dtypes, and the TypeError on tracers."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose


def _vals(it):
    return [np.asarray(v).tolist() for v in it]


@pytest.mark.parametrize("flags,order", [(None, "K"), (["multi_index"], "C"),
                                         (["c_index"], "F"), (["f_index"], "C"),
                                         (["external_loop"], "F"), (["external_loop"], "C"),
                                         (["buffered", "external_loop"], "K")])
def test_single_operand_iteration_matches_numpy(flags, order):
    n = np.arange(12.0).reshape(3, 4)[:, ::-1].T
    x = xnp.asarray(n)
    ni, xi = np.nditer(n, flags=flags, order=order), xnp.nditer(x, flags=flags, order=order)
    got, want = [], []
    while not ni.finished:
        assert not xi.finished
        want.append((np.asarray(ni.value).tolist(), ni.multi_index if ni.has_multi_index
                     else None, ni.index if ni.has_index else None))
        got.append((np.asarray(xi.value).tolist(), xi.multi_index if xi.has_multi_index
                    else None, xi.index if xi.has_index else None))
        assert type(xi.value) is type(x)
        ni.iternext()
        xi.iternext()
    assert got == want and xi.finished


def test_multi_operand_broadcasting_and_allocate():
    a, b = np.arange(3.0), np.arange(2.0).reshape(2, 1)
    with np.nditer([a, b, None]) as it:
        for u, v, w in it:
            w[...] = u * v + 1
        want = it.operands[2]
    xa, xb = xnp.asarray(a), xnp.asarray(b)
    with xnp.nditer([xa, xb, None]) as it:
        for u, v, w in it:
            w[...] = u * v + 1
        got = it.operands[2]
        assert it.operands[2] is got
        assert it.operands[0] is xa and it.operands[1] is xb  # as NumPy's: the operands
    assert type(got) is type(xa)
    assert_allclose(got, want)
    assert _vals(xnp.nditer([xa, xb])) == _vals(np.nditer([a, b]))


def test_readwrite_writes_into_the_xnp_array_and_its_views():
    n = np.arange(6.0).reshape(2, 3)
    x = xnp.asarray(n.copy())
    view = x[:, 1:]
    with xnp.nditer(x, op_flags=["readwrite"]) as it:
        for v in it:
            v[...] = 2 * v + 1
    with np.nditer(n, op_flags=["readwrite"]) as it:
        for v in it:
            v[...] = 2 * v + 1
    assert_allclose(x, n)
    assert_allclose(view, n[:, 1:])
    with pytest.raises(ValueError, match="read-only"):
        for v in xnp.nditer(x):
            v[...] = 0


def test_buffered_cast_writes_back_on_close():
    n = np.arange(6, dtype=np.float32)
    x = xnp.asarray(n.copy())
    flags = ["buffered", "external_loop"]
    with np.nditer(n, flags=flags, op_flags=["readwrite"], op_dtypes=[np.float64],
                   casting="same_kind") as it:
        for v in it:
            assert v.dtype == np.float64
            v[...] = v * 1.5
    with xnp.nditer(x, flags=flags, op_flags=["readwrite"], op_dtypes=[np.float64],
                    casting="same_kind") as it:
        for v in it:
            assert v.dtype == np.float64
            v[...] = v * 1.5
    assert x.dtype == np.float32
    assert_allclose(x, n)
    with pytest.raises(TypeError):
        xnp.nditer(x, op_dtypes=[np.int32])  # NumPy's casting error: no buffering


def test_nested_iters_match_numpy():
    n = np.arange(12).reshape(2, 3, 2)
    no, ni = np.nested_iters(n, [[0], [1, 2]], flags=["multi_index"])
    xo, xi = xnp.nested_iters(xnp.asarray(n), [[0], [1, 2]], flags=["multi_index"])
    got, want = [], []
    for _ in no:
        want.append([(ni.multi_index, int(v)) for v in ni])
    for _ in xo:
        got.append([(xi.multi_index, int(v)) for v in xi])
    assert got == want


def test_nditer_copy_reset_and_len_match_numpy():
    n = np.arange(5)
    ni, xi = np.nditer(n, flags=["multi_index"]), xnp.nditer(xnp.asarray(n), flags=["multi_index"])
    next(ni)
    next(xi)
    nc, xc = ni.copy(), xi.copy()
    assert int(next(xc)) == int(next(nc))
    xi.reset()
    ni.reset()
    assert _vals(xi) == _vals(ni)
    assert len(xnp.nditer(xnp.asarray(n))) == len(np.nditer(n))


def test_nditer_on_tracers_is_a_type_error():
    with pytest.raises(TypeError, match=r"nditer: operand 0 is a traced array"):
        xnp.jit(lambda a: xnp.nditer(a))(np.ones(3))
    with pytest.raises(TypeError, match=r"nested_iters: operand 1 is a traced array"):
        xnp.jit(lambda a: xnp.nested_iters([np.ones(3), a], [[0], []]))(np.ones(3))
