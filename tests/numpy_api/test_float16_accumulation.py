"""float16 ``sum``/``prod``/``cumsum``/``cumprod`` against NumPy on long arrays, where the
order of accumulation shows: NumPy's ``accumulate`` rounds to float16 after every step
(a long ``cumsum`` of numbers near 0.5 stalls at 2048), and its reductions use float32
along the innermost reduced axes but round to float16 between the steps of the other
reduced axes. Eagerly xnp runs NumPy's own loops (bit for bit); under ``jit`` and with
the eager XLA backend it accumulates in the same order (checked to float16 rounding)."""

from __future__ import annotations

import numpy as np
import pytest

import xnp

F16 = np.float16
RNG = np.random.default_rng(1234)
LONG = RNG.uniform(0, 1, 12_000).astype(F16)
NEAR_ONE = (1 + (RNG.uniform(-1, 1, 6_000) / 400)).astype(F16)
GRID = RNG.uniform(0, 1, (3_000, 6)).astype(F16)
CUBE = RNG.uniform(0, 1, (400, 5, 30)).astype(F16)

CASES = {
    "sum": (lambda m, x: m.sum(x), LONG),
    "sum-axis0": (lambda m, x: m.sum(x, axis=0), GRID),
    "sum-axis1": (lambda m, x: m.sum(x, axis=1), GRID),
    "sum-axes02": (lambda m, x: m.sum(x, axis=(0, 2), keepdims=True), CUBE),
    "sum-axes01": (lambda m, x: m.sum(x, axis=(0, 1)), CUBE),
    "sum-all-3d": (lambda m, x: m.sum(x), CUBE),
    "prod": (lambda m, x: m.prod(x), NEAR_ONE),
    "prod-axis0": (lambda m, x: m.prod(x.reshape(1_000, 6), axis=0), NEAR_ONE),
    "nansum-axis0": (lambda m, x: m.nansum(m.where(x > 0.9, m.nan, x), axis=0), GRID),
    "cumsum": (lambda m, x: m.cumsum(x), LONG),
    "cumsum-axis0": (lambda m, x: m.cumsum(x, axis=0), GRID),
    "cumsum-axis1": (lambda m, x: m.cumsum(x.reshape(6, 2_000), axis=1), LONG),
    "cumprod": (lambda m, x: m.cumprod(x), NEAR_ONE),
    "cumulative_sum": (lambda m, x: m.cumulative_sum(x, include_initial=True), LONG),
    "nancumsum": (lambda m, x: m.nancumsum(m.where(x > 0.9, m.nan, x)), LONG),
}


def _naive_f32(fn, x):
    """What a float32 accumulation rounded once would give: the result NumPy's order
    must differ from for the case to show anything."""
    return fn(np, x.astype(np.float32)).astype(F16)


@pytest.mark.parametrize("name", list(CASES))
def test_float16_accumulation_matches_numpy(name):
    fn, x = CASES[name]
    want = fn(np, x)
    assert want.dtype == F16
    eager = fn(xnp, xnp.asarray(x))
    assert eager.dtype == F16 and eager.shape == want.shape
    np.testing.assert_array_equal(np.asarray(eager), want)  # NumPy's own loops
    jitted = xnp.jit(lambda v: fn(xnp, v))(x)
    assert jitted.dtype == F16
    np.testing.assert_allclose(np.asarray(jitted, np.float64), want.astype(np.float64),
                               rtol=2 ** -10, atol=0)  # one float16 ulp


@pytest.mark.parametrize("name", ["sum-axis0", "prod-axis0", "cumsum", "cumsum-axis0",
                                  "cumprod", "nansum-axis0"])
def test_numpy_order_visibly_differs_from_float32_accumulation(name):
    fn, x = CASES[name]
    want = fn(np, x)
    assert np.max(np.abs(want.astype(np.float64) - _naive_f32(fn, x).astype(np.float64)) /
                  np.abs(want.astype(np.float64))) > 2 ** -8, "the case would not show the order"
    np.testing.assert_allclose(np.asarray(xnp.jit(lambda v: fn(xnp, v))(x), np.float64),
                               want.astype(np.float64), rtol=2 ** -10, atol=0)


def test_long_float16_cumsum_stalls_as_numpy_does():
    want = np.cumsum(LONG)
    assert want[-1] == 2048  # the step (~0.5) is below half an ulp of 2048
    for got in (xnp.cumsum(LONG), xnp.jit(xnp.cumsum)(LONG)):
        assert float(got[-1]) == 2048
        np.testing.assert_array_equal(np.asarray(got), want)
    rev = xnp.jit(lambda v: xnp.lax.cumsum(v, 0, reverse=True))(LONG)
    np.testing.assert_array_equal(np.asarray(rev), np.cumsum(LONG[::-1])[::-1])


def test_eager_results_follow_numpys_memory_order():
    t = GRID.T  # a transposed view: NumPy's inner loop runs along the other axis
    want = np.sum(t, axis=1)
    np.testing.assert_array_equal(np.asarray(xnp.sum(xnp.asarray(t), axis=1)), want)
    np.testing.assert_array_equal(np.asarray(xnp.sum(xnp.asarray(GRID), axis=0)),
                                  np.sum(GRID, axis=0))


def test_float16_accumulation_under_vmap_grad_and_the_eager_xla_backend():
    rows = LONG.reshape(6, 2_000)
    np.testing.assert_array_equal(np.asarray(xnp.vmap(xnp.sum)(rows)), np.sum(rows, axis=1))
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.vmap(xnp.cumsum))(rows), np.float64),
                               np.cumsum(rows, axis=1).astype(np.float64), rtol=2 ** -10)
    g = xnp.grad(lambda v: xnp.sum(v * v).astype(np.float32))(xnp.asarray(LONG[:50]))
    np.testing.assert_array_equal(np.asarray(g), 2 * LONG[:50])
    with xnp.config.override(eager_backend="xla"):
        for name in ("sum-axis0", "cumsum", "prod"):
            fn, x = CASES[name]
            np.testing.assert_allclose(np.asarray(fn(xnp, xnp.asarray(x)), np.float64),
                                       fn(np, x).astype(np.float64), rtol=2 ** -10, atol=0)


def test_bfloat16_still_accumulates_in_float32():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = LONG.astype(ml_dtypes.bfloat16)
    want = np.cumsum(x.astype(np.float32)).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(np.asarray(xnp.cumsum(x)).astype(np.float32),
                                  want.astype(np.float32))
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.cumsum)(x)).astype(np.float32),
                                  want.astype(np.float32))
