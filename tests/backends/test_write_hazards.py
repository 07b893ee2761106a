"""In-place writes whose update reads the written memory through a reshape.

XLA's CPU compiler writes ``dynamic_update_slice`` into its operand's buffer and fuses the
update's computation into that loop; when the operand is a reshape of memory the update
also reads, the loop read elements it had already overwritten (``y[1:] = y[:-1] + 1`` on
``x.reshape(3, 4).copy()`` gave a wrong last row). Such writes are lowered without the
in-place fusion (``xnp/backends/xla/lowering/_write_hazards.py``). Each program is
compared with NumPy running the same statements, and its derivative with finite
differences.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from xnp.backends.xla.lowering._write_hazards import write_hazards

from tests.helpers import central_difference


def _rows_shifted(x):
    y = x.reshape(3, 4).copy()
    y[1:] = y[:-1] + 1.0
    return y


def _row_scaled_by_an_element(x):
    y = x.reshape(3, 4).copy()
    y[0] = y[0] * x[1]
    return y


def _accumulated_rows(x):
    y = x.reshape(4, 3).copy()
    y[1:] += y[:-1]
    return y


def _written_whole_then_scaled(x):
    y = x.reshape(2, 6) * 0.0
    y[...] = x.reshape(2, 6)
    y[1] -= x[7] * y[1]
    return y


def _columns_reversed_into_rows(x):
    y = x.reshape(4, 3).copy()
    y[1:, ::-1] = y[:-1] * 2.0
    return y


def _fancy_rows(x):
    y = x.reshape(3, 4).copy()
    y[[1, 2]] = y[[0, 1]] + 1.0
    return y


def _strided_rows(x):  # a strided write is a scatter
    y = x.reshape(6, 2).copy()
    y[::2] = x[0] * y[::2] + y[1::2]
    return y


def _added_at(x):
    y = x.reshape(3, 4).copy()
    y[[0, 2, 0]] += y[1] * x[5]
    return y


PROGRAMS = [_strided_rows, _added_at, _rows_shifted, _row_scaled_by_an_element, _accumulated_rows,
            _written_whole_then_scaled, _columns_reversed_into_rows, _fancy_rows]
X = np.arange(2.0, 14.0) / 3.0


@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_eager_and_jit_match_numpy(prog):
    want = prog(X.copy())
    np.testing.assert_array_equal(np.asarray(prog(xnp.asarray(X))), want)
    # (compiled code may contract a multiply and an add into one rounding)
    np.testing.assert_allclose(np.asarray(xnp.jit(prog)(X)), want, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_jit_of_grad_matches_finite_differences(prog):
    w = np.cos(np.arange(12.0)).reshape(prog(X.copy()).shape)

    def loss(xp_prog, a):
        return ((xp_prog(a) * w) ** 2).sum()

    g = np.asarray(xnp.jit(xnp.grad(lambda a: loss(prog, a)))(X))
    want = np.array([central_difference(lambda a: loss(prog, np.array(a)), X, e)
                     for e in np.eye(12)])
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-8)


def test_only_writes_reading_their_memory_through_a_reshape_are_marked():
    def independent(x, z):
        y = x.reshape(3, 4).copy()
        y[1:] = z[:2] + 1.0  # reads other memory
        return y

    def same_shape(x):
        y = x.copy()
        y[2:6] = y[1:5] * 2.0  # XLA sees this one itself
        return y

    def marked(f, *args):
        closed = xnp.make_jaxpr(f)(*args)
        from xnp.tracing.jaxpr_transforms import discharge_state  # noqa: PLC0415

        jaxpr = discharge_state(closed).jaxpr
        marked = write_hazards(jaxpr)
        return [e.primitive.name for e in jaxpr.eqns if e in marked]

    assert marked(_rows_shifted, X) == ["dynamic_update_slice"]
    assert marked(independent, X, np.ones((3, 4))) == []
    assert marked(same_shape, X) == []
