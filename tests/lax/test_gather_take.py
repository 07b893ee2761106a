"""The NumPy backend's gather computes gathers of whole slices along one dimension
(``x[..., idx, ...]``, ``take_along_axis``) with ``numpy.take``/``take_along_axis``
(``xnp/backends/xp_impls/slicing.py:_take``) and every other gather with its general
coordinate arrays: both give the same values, shapes and dtypes, out-of-bounds starts
clamped, for every layout of the output (batch dims before, between or after the window
dims) and with leading batching dims."""

import itertools

import numpy as np
import pytest

from xnp import lax
from xnp.backends.xp_impls import XP_IMPLS
from xnp.backends.xp_impls import slicing

RNG = np.random.default_rng(3)


def _gather(operand, indices, dn, sizes, mode):
    return XP_IMPLS[lax.gather_p](np, operand, indices, dimension_numbers=dn,
                                  slice_sizes=sizes, indices_are_sorted=False,
                                  unique_indices=False, mode=mode, fill_value=None)


def _cases():
    shape = (3, 4, 5)
    for d, idx_shape in itertools.product(range(3), [(), (2,), (2, 3)]):
        rank = len(idx_shape) + 2
        for offsets in itertools.combinations(range(rank), 2):  # window dims' positions
            yield shape, d, idx_shape, offsets, 0
    for idx_extra in [(), (6,)]:  # batching dim 0, the slices along dim 1
        rank = 1 + len(idx_extra) + 1
        for offsets in itertools.combinations(range(rank), 1):
            yield shape, 1, idx_extra, offsets, 1


@pytest.mark.parametrize("mode", [lax.GatherScatterMode.CLIP,
                                  lax.GatherScatterMode.PROMISE_IN_BOUNDS])
def test_take_path_equals_the_general_path(mode, monkeypatch):
    n = 0
    for shape, d, idx_shape, offsets, nb in _cases():
        operand = RNG.standard_normal(shape)
        batch = shape[:nb]
        idx = RNG.integers(-2, shape[d] + 2, size=batch + idx_shape + (1,))  # some clamped
        dn = lax.GatherDimensionNumbers(
            offset_dims=offsets, collapsed_slice_dims=(d,), start_index_map=(d,),
            operand_batching_dims=tuple(range(nb)),
            start_indices_batching_dims=tuple(range(nb)))
        sizes = tuple(1 if i == d or i < nb else s for i, s in enumerate(shape))
        got = _gather(operand, idx, dn, sizes, mode)
        assert slicing._take(np, operand, idx, dn, sizes, mode) is not None  # the take path
        with monkeypatch.context() as m:
            m.setattr(slicing, "_take", lambda *a: None)
            want = _gather(operand, idx, dn, sizes, mode)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert got.flags.c_contiguous
        n += 1
    assert n == 35


def test_other_gathers_take_the_general_path():
    operand = np.arange(20.0).reshape(4, 5)
    idx = np.array([[0], [2]])
    partial = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                         start_index_map=(0,))
    assert slicing._take(np, operand, idx, partial, (1, 3), lax.GatherScatterMode.CLIP) \
        is None  # a window narrower than its dimension
    fill = lax.GatherScatterMode.FILL_OR_DROP
    assert slicing._take(np, operand, idx, partial, (1, 5), fill) is None
    got = _gather(operand, np.array([[0], [9]]), partial, (1, 5), fill)
    np.testing.assert_array_equal(got[0], operand[0])
    assert np.isnan(got[1]).all()  # filled, not clamped
