"""``axis`` given as what ``operator.index`` takes (a 0-d integer array, NumPy's or xnp's), as
NumPy's functions take it; a 0-d float array is refused, as by NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import xnp

_CALLS = {
    "sum": lambda m, v, ax: m.sum(v, axis=ax),
    "mean": lambda m, v, ax: m.mean(v, axis=ax),
    "max": lambda m, v, ax: m.max(v, axis=ax),
    "cumsum": lambda m, v, ax: m.cumsum(v, axis=ax),
    "argmax": lambda m, v, ax: m.argmax(v, axis=ax),
    "sort": lambda m, v, ax: m.sort(v, axis=ax),
    "flip": lambda m, v, ax: m.flip(v, axis=ax),
    "expand_dims": lambda m, v, ax: m.expand_dims(v, ax),
    "median": lambda m, v, ax: m.median(v, axis=ax),
    "quantile": lambda m, v, ax: m.quantile(v, 0.5, axis=ax),
    "concatenate": lambda m, v, ax: m.concatenate([v, v], axis=ax),
    "take": lambda m, v, ax: m.take(v, [0], axis=ax),
    "diff": lambda m, v, ax: m.diff(v, axis=ax),
}
_AXES = {"numpy int64": np.array(1), "numpy uint8": np.array(1, np.uint8),
         "numpy negative": np.array(-2), "xnp": xnp.asarray(1)}


@pytest.mark.parametrize("axis", sorted(_AXES))
@pytest.mark.parametrize("name", sorted(_CALLS))
def test_a_0d_integer_array_is_an_axis(name, axis):
    call, ax = _CALLS[name], _AXES[axis]
    n = np.arange(24.0).reshape(2, 3, 4)
    want = call(np, n, np.asarray(ax))
    np.testing.assert_array_equal(np.asarray(call(xnp, xnp.asarray(n), ax)), want)
    jitted = xnp.jit(lambda v: call(xnp, v, ax))(xnp.asarray(n))
    np.testing.assert_array_equal(np.asarray(jitted), want)


@pytest.mark.parametrize("name", ["sum", "sort", "expand_dims", "take"])
def test_a_0d_float_array_is_refused_as_numpy(name):
    call = _CALLS[name]
    n = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError):
        call(np, n, np.array(1.0))
    with pytest.raises(TypeError, match=f"xnp.{name}"):
        call(xnp, xnp.asarray(n), np.array(1.0))
