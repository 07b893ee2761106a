"""xnp.lib.stride_tricks and xnp.lib.array_utils against NumPy's."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy
from xnp.lib import stride_tricks as st

swv = np.lib.stride_tricks.sliding_window_view

WINDOWS = [  # (shape, window_shape, axis)
    ((6,), 3, None), ((6,), 1, None), ((6,), 6, None), ((6,), 0, None),
    ((3, 4), (2, 2), None), ((3, 4), 2, 1), ((3, 4), 2, -1), ((3, 4), (2, 3), (1, 1)),
    ((3, 4), 3, 0), ((2, 3, 4), (2, 2), (0, 2)), ((0, 4), 2, 1), ((3, 4), (1, 1), (1, 0)),
    ((), (), None),
    # NumPy's errors
    ((6,), 7, None), ((6,), -1, None), ((3, 4), 2, None), ((3, 4), (2, 2), 1), ((3, 4), 2, 2),
]


@pytest.mark.parametrize("shape,window,axis", WINDOWS)
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_sliding_window_view_eager_and_jit(shape, window, axis, dtype):
    x = (np.arange(int(np.prod(shape))).reshape(shape) % 5).astype(dtype)
    check_vs_numpy(lambda xp, v: (st if xp is xnp else np.lib.stride_tricks)
                   .sliding_window_view(v, window, axis), x)


def test_sliding_window_view_is_a_view_eagerly():
    base = np.arange(6.0)
    x = xnp.asarray(base)
    v = st.sliding_window_view(x, 3)
    assert xnp.shares_memory(v, x)
    with pytest.raises(ValueError, match="read-only"):
        v[0, 0] = 1.0
    w = st.sliding_window_view(x, 3, writeable=True)
    w[1, 0] = 100.0  # element 1 of x, as NumPy's writeable view
    assert float(x[1]) == 100.0
    e = swv(np.arange(6.0), 3, writeable=True)
    e[1, 0] = 100.0
    assert_allclose(w, e)


def test_sliding_window_view_under_vmap_and_grad():
    x = np.arange(12.0).reshape(3, 4)
    out = xnp.vmap(lambda r: st.sliding_window_view(r, 2).sum(-1))(x)
    assert_allclose(out, swv(x, 2, axis=1).sum(-1))
    g = xnp.grad(lambda r: st.sliding_window_view(r, 3).sum())(np.arange(5.0))
    assert_allclose(g, np.array([1.0, 2.0, 3.0, 2.0, 1.0]))


def test_sliding_window_view_writeable_under_jit_raises():
    with pytest.raises(NotImplementedError, match="writeable=True"):
        xnp.jit(lambda v: st.sliding_window_view(v, 2, writeable=True))(np.arange(4.0))


@pytest.mark.parametrize("shape,strides", [((3, 2), (8, 8)), ((2, 3), (24, 8)),
                                           ((4,), (0,)), (None, None), ((2, 2), (16, 8))])
def test_as_strided_matches_numpy_and_shares_memory(shape, strides):
    base_np = np.arange(6.0)
    base = xnp.asarray(np.arange(6.0))
    e = np.lib.stride_tricks.as_strided(base_np, shape, strides)
    got = st.as_strided(base, shape, strides)
    assert_allclose(got, e)
    assert xnp.shares_memory(got, base)


def test_as_strided_writes_reach_the_array_and_read_only_views():
    n = np.arange(5.0)
    v = st.as_strided(n, shape=(3, 2), strides=(8, 8))  # a NumPy input keeps its memory
    v[0, 1] = 9.0
    assert n[1] == 9.0
    r = st.as_strided(xnp.arange(5.0), shape=(2,), strides=(8,), writeable=False)
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1.0


def test_as_strided_of_a_jit_output_is_a_view_of_its_host_copy():
    y = xnp.jit(lambda v: v * 2)(np.arange(4.0))
    v = st.as_strided(y, shape=(2, 2), strides=(8, 8))
    v[0, 0] = -1.0
    assert float(y[0]) == -1.0
    assert_allclose(y, np.array([-1.0, 2.0, 4.0, 6.0]))


def test_as_strided_under_jit_raises_with_the_fix():
    with pytest.raises(xnp.errors.TracerArrayConversionError, match="sliding_window_view"):
        xnp.jit(lambda v: st.as_strided(v, (2,), (8,)))(np.arange(4.0))


def test_array_utils():
    a = np.arange(10.0)[2:7]
    assert xnp.lib.array_utils.byte_bounds(a) == np.lib.array_utils.byte_bounds(a)
    x = xnp.asarray(a)
    assert xnp.lib.array_utils.byte_bounds(x) == np.lib.array_utils.byte_bounds(a)
    assert xnp.lib.array_utils.normalize_axis_index(-1, 3) == 2
    assert xnp.lib.array_utils.normalize_axis_tuple((0, -1), 3) == (0, 2)
    with pytest.raises(xnp.exceptions.AxisError):
        xnp.lib.array_utils.normalize_axis_index(3, 3)
    with pytest.raises(xnp.errors.TracerArrayConversionError):
        xnp.jit(xnp.lib.array_utils.byte_bounds)(np.ones(2))


def test_lib_namespace():
    assert xnp.lib.NumpyVersion is np.lib.NumpyVersion
    assert xnp.lib.NumpyVersion(xnp.__version__) >= "0.0.1"
    assert xnp.lib.scimath is xnp.emath
    assert xnp.lib.mixins.NDArrayOperatorsMixin is np.lib.mixins.NDArrayOperatorsMixin
    x = xnp.arange(24.0).reshape(2, 3, 4)
    chunks = list(xnp.lib.Arrayterator(x, buf_size=5))
    assert all(isinstance(c, xnp.ndarray) for c in chunks)
    assert sum(float(c.sum()) for c in chunks) == float(x.sum())
