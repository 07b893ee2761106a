"""NumPy-surface tests of ``xnp/numpy_api/windows.py``: window functions and bit
packing against NumPy (eager, jit, ``eval_jaxpr``), errors, and grad of ``kaiser``."""

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference, check_vs_numpy, grid


@pytest.mark.parametrize("fname", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 12, 5.5])
def test_windows_match_numpy(fname, M):
    check_vs_numpy(lambda xp: getattr(xp, fname)(M), jaxpr=False)


@pytest.mark.parametrize("M", [0, 1, 2, 7, 14])
@pytest.mark.parametrize("beta", [0.0, 1.5, 8.6])
def test_kaiser_matches_numpy(M, beta):
    check_vs_numpy(lambda xp, b: xp.kaiser(M, b), np.float64(beta), atol=1e-12)


def test_kaiser_grad_and_static_length():
    f = lambda b: xnp.sum(xnp.kaiser(9, b) * xnp.arange(9.0))  # noqa: E731
    b = np.float64(2.5)
    np.testing.assert_allclose(float(xnp.grad(f)(b)), central_difference(f, b, 1.0),
                               rtol=1e-6)
    with pytest.raises(TypeError):
        xnp.jit(lambda m: xnp.hanning(m))(5)


@pytest.mark.parametrize("case", grid(shape=[(), (0,), (11,), (3, 9), (2, 3, 17)],
                                      dtype=[np.bool_, np.uint8, np.int32],
                                      axis=[None, 0, -1], bitorder=["big", "little"], n=30,
                                      seed=1))
def test_packbits_matches_numpy(case, rng):
    a = rng.integers(0, 3, case.shape).astype(case.dtype)
    check_vs_numpy(lambda xp, a: xp.packbits(a, axis=case.axis, bitorder=case.bitorder), a)


@pytest.mark.parametrize("case", grid(shape=[(), (0,), (3,), (2, 4)], axis=[None, 0, -1],
                                      count=[None, 0, 5, -3, 40], bitorder=["big", "little"],
                                      n=30, seed=2))
def test_unpackbits_matches_numpy(case, rng):
    a = rng.integers(0, 256, case.shape).astype(np.uint8)
    if a.size == 0 and case.count:
        return  # NumPy pads an empty input with uninitialised memory here (NumPy bug)
    check_vs_numpy(lambda xp, a: xp.unpackbits(a, axis=case.axis, count=case.count,
                                               bitorder=case.bitorder), a)


def test_bits_errors():
    check_vs_numpy(lambda xp, a: xp.packbits(a), np.ones(3))
    check_vs_numpy(lambda xp, a: xp.packbits(a, bitorder="middle"), np.ones(3, bool))
    check_vs_numpy(lambda xp, a: xp.unpackbits(a), np.ones(3, np.int8))
    check_vs_numpy(lambda xp, a: xp.unpackbits(a, count=-30), np.ones(3, np.uint8))
    check_vs_numpy(lambda xp, a: xp.packbits(a, axis=2), np.ones((2, 3), bool))
