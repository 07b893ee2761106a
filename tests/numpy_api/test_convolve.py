"""``xnp.convolve`` / ``xnp.correlate`` against NumPy (eager, jit, eval_jaxpr): every mode
(names and integer codes), both length orders (NumPy swaps when ``v`` is longer),
length-1 operands, every dtype incl. bool and complex (correlate conjugates ``v``),
mixed-dtype promotion (integers stay integers and wrap), scalars, and NumPy's errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests.helpers import ALL, assert_allclose, check_vs_numpy, grid, make_array

LENGTHS = [(1, 1), (5, 3), (3, 5), (4, 4), (7, 2), (2, 7), (6, 1), (1, 6), (8, 5), (5, 8)]
MODES = ["full", "same", "valid", 0, 1, 2]


@pytest.mark.parametrize("fname", ["convolve", "correlate"])
@pytest.mark.parametrize("case", grid(lengths=LENGTHS, dtype=ALL, mode=MODES, n=45))
def test_matches_numpy(fname, case):
    rng = np.random.default_rng(len(str(case)))
    m, n = case.lengths
    a, v = make_array(rng, (m,), case.dtype), make_array(rng, (n,), case.dtype)
    check_vs_numpy(lambda xp, a, v: getattr(xp, fname)(a, v, mode=case.mode), a, v,
                   kind="reduction")


@pytest.mark.parametrize("fname", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("order", ["a_longer", "v_longer"])
def test_complex_conjugation_and_swapping(fname, mode, order):
    rng = np.random.default_rng(3)
    a = make_array(rng, (6,), np.complex128)
    v = make_array(rng, (3,), np.complex128)
    if order == "v_longer":
        a, v = v, a
    check_vs_numpy(lambda xp, a, v: getattr(xp, fname)(a, v, mode), a, v, kind="reduction")


@pytest.mark.parametrize("fname", ["convolve", "correlate"])
@pytest.mark.parametrize("dtypes", [(np.int8, np.uint8), (np.int8, np.int8),
                                    (np.float16, np.float32), (np.int32, np.float32),
                                    (np.bool_, np.int16), (np.float64, np.complex64),
                                    (np.uint8, np.uint8)])
def test_promotion_and_integer_wraparound(fname, dtypes):
    rng = np.random.default_rng(5)
    a = (make_array(rng, (7,), dtypes[0]) * (5 if np.dtype(dtypes[0]).kind in "iu" else 1))
    a = a.astype(dtypes[0])
    v = make_array(rng, (3,), dtypes[1])
    check_vs_numpy(lambda xp, a, v: getattr(xp, fname)(a, v, "full"), a, v, kind="reduction")


def test_scalars_and_lists_are_not_weak():
    a = np.arange(5, dtype=np.int8)
    check_vs_numpy(lambda xp, a: xp.convolve(a, 300), a)
    check_vs_numpy(lambda xp, a: xp.convolve(a.astype(xp.float16), [2.0, 1.0]), a,
                   kind="reduction")
    check_vs_numpy(lambda xp: xp.convolve(3, [1, 2]), jaxpr=False)
    check_vs_numpy(lambda xp, a: xp.correlate(a, [1, 2], mode="same"), a)


@pytest.mark.parametrize("body", [
    lambda xp: xp.convolve(xp.ones(0), xp.ones(3)),
    lambda xp: xp.convolve(xp.ones(3), xp.ones(0)),
    lambda xp: xp.correlate(xp.ones(0), xp.ones(3)),
    lambda xp: xp.correlate(xp.ones(3), xp.ones(0)),
    lambda xp: xp.convolve(xp.ones((2, 2)), xp.ones(3)),
    lambda xp: xp.correlate(xp.ones(3), xp.ones((1, 2))),
    lambda xp: xp.correlate(xp.ones(()), xp.ones(3)),
    lambda xp: xp.convolve(xp.ones(3), xp.ones(2), mode="bad"),
    lambda xp: xp.correlate(xp.ones(3), xp.ones(2), mode=3),
    lambda xp: xp.correlate(xp.ones(3), xp.ones(2), mode=True),
    lambda xp: xp.correlate(xp.ones(3), xp.ones(2), mode=1.0),
], ids=["conv-empty-a", "conv-empty-v", "corr-empty-a", "corr-empty-v", "conv-2d", "corr-2d",
        "corr-0d", "bad-mode", "int-mode-3", "bool-mode", "float-mode"])
def test_errors_match_numpy(body):
    check_vs_numpy(body, jaxpr=False)


def test_under_grad_and_vmap():
    rng = np.random.default_rng(9)
    a, v = rng.standard_normal(9), rng.standard_normal(4)
    # d/da sum(convolve(a, v) * u) = correlate(u, v, 'valid')
    u = rng.standard_normal(12)
    g = xnp.jit(xnp.grad(lambda a: (xnp.convolve(a, v) * u).sum()))(a)
    assert_allclose(np.asarray(g), np.correlate(u, v, "valid"), kind="reduction")
    batch = rng.standard_normal((3, 9))
    got = xnp.vmap(lambda a: xnp.correlate(a, v, "same"))(batch)
    assert_allclose(np.asarray(got), np.stack([np.correlate(b, v, "same") for b in batch]),
                    kind="reduction")
