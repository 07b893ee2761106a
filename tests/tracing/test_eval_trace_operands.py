"""Eager evaluation converts operands that are not ``Array``s (Python scalars, lists, NumPy
arrays) through the eager backend in use (``from_scalar``/``asarray``), not with NumPy
directly: checked on the eager XLA backend against NumPy, with the result's dtype and weak
type, and against the same call under ``jit``."""

import numpy as np
import pytest

import xnp
from xnp import config, lax
from xnp.backends.numpy import BACKEND as NUMPY_BACKEND
from xnp.backends.xla.eager import BACKEND as XLA_EAGER_BACKEND


@pytest.fixture(params=["numpy", "xla"])
def backend(request, monkeypatch):
    """The eager backend named by the param, its conversions recorded in ``seen``."""
    b = NUMPY_BACKEND if request.param == "numpy" else XLA_EAGER_BACKEND
    seen = []
    from_scalar, asarray = b.from_scalar, b.asarray

    def rec_scalar(x):
        seen.append(("scalar", x))
        return from_scalar(x)

    def rec_asarray(x):
        seen.append(("asarray", type(x).__name__))
        return asarray(x)

    monkeypatch.setattr(b, "from_scalar", rec_scalar, raising=False)
    monkeypatch.setattr(b, "asarray", rec_asarray, raising=False)
    with config.override(eager_backend=request.param):
        yield b, seen


CASES = [
    # (lax function, array operand, other operand, NumPy's result); lax wants equal dtypes,
    # so a Python scalar meets an array of its default dtype
    (lax.add, np.arange(3.0), 2.5, np.arange(3.0) + 2.5),
    (lax.mul, np.arange(3), 3, np.arange(3) * 3),
    (lax.sub, np.arange(3.0), [1.0, 2.0, 4.0], np.arange(3.0) - [1.0, 2.0, 4.0]),
    (lax.max, np.arange(4).reshape(2, 2), [[3, 0], [1, 5]],
     np.maximum(np.arange(4).reshape(2, 2), [[3, 0], [1, 5]])),
    (lax.add, np.arange(3.0), np.float64(0.5), np.arange(3.0) + 0.5),
]


@pytest.mark.parametrize("fn,x,other,want", CASES)
def test_non_array_operands_go_through_the_eager_backend(backend, fn, x, other, want):
    b, seen = backend
    got = fn(xnp.asarray(x), other)
    assert type(got) is xnp.Array and got.dtype == want.dtype and not got.aval.weak_type
    np.testing.assert_array_equal(np.asarray(got), want)
    kind = "scalar" if type(other) in (int, float) else "asarray"
    assert [s[0] for s in seen] == [kind], seen  # converted once, by the backend in use
    # under jit a list is no array (lax is strict): it is passed as one
    closed = type(other) is not list
    jitted = (xnp.jit(lambda a: fn(a, other))(xnp.asarray(x)) if closed else
              xnp.jit(fn)(xnp.asarray(x), xnp.asarray(other)))
    assert jitted.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(jitted), want)


def test_python_scalar_operands_alone_take_their_default_dtypes(backend):
    b, seen = backend
    got = lax.add(2.5, 1.5)
    assert got.dtype == np.asarray(2.5).dtype and got.aval.weak_type
    assert float(got) == 4.0
    got = lax.and_(True, False)
    assert got.dtype == np.bool_ and not got.aval.weak_type and not bool(got)
    assert [s[0] for s in seen] == ["scalar"] * 4


def test_an_operand_the_backend_cannot_convert_raises_its_error(backend):
    b, seen = backend
    with pytest.raises((TypeError, ValueError)):
        lax.add(xnp.asarray(np.arange(3.0)), [1.0, [2.0]])  # ragged: NumPy refuses it
    assert seen and seen[-1][0] == "asarray"
