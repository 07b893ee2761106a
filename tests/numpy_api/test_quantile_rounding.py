"""The quantile functions' decomposition (eagerly where NumPy's kernel does not pay, and
under ``jit``) rounds as NumPy's ``_quantile`` does, bit for bit, for every interpolating
method: the virtual index ``n*q + (alpha + q*(1 - alpha - beta)) - 1`` in NumPy's order
(it was ``n*q + ((alpha + q*c) - 1)``, 1 ulp off for hazen, median_unbiased,
normal_unbiased and weibull), and under ``jit`` XLA's fused multiply-adds and constant
reassociation kept out (``xnp/numpy_api/_exact.py``). ``arange``'s values under ``jit``
likewise (``start + i*delta`` rounded twice, as NumPy's fill loop).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.backends.numpy import BACKEND
from xnp.numpy_api._exact import rounded
from tests.helpers import covering_sample

_INTERPOLATING = ["averaged_inverted_cdf", "interpolated_inverted_cdf", "hazen", "weibull",
                  "linear", "median_unbiased", "normal_unbiased", "midpoint"]


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    bad = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    assert not bad.any(), (got[bad], want[bad])


def _data(rng, dtype):
    x = rng.standard_normal((6, 37)).astype(dtype)
    x[rng.random(x.shape) < 0.2] = np.nan
    return x


# (64 cases of ~3 s each: a fixed sample covering every method with each dtype and each
# function with each dtype; all of them with --full-grid)
_GRID = covering_sample(
    [(m, f, d) for m in _INTERPOLATING
     for f in ["nanquantile", "quantile", "nanpercentile", "percentile"]
     for d in [np.float64, np.float32]],
    n=20, seed=1, labels=lambda c: [("method", c[0], c[2]), ("fn", c[1], c[2])])


@pytest.mark.parametrize("method,fn,dtype", _GRID)
def test_interpolation_rounds_as_numpy(monkeypatch, rng, method, fn, dtype):
    x = _data(rng, dtype)
    if not fn.startswith("nan"):
        x = np.nan_to_num(x, nan=0.5)
    scale = 100 if fn.endswith("percentile") else 1
    qs = [rng.random(9) * scale, (rng.random(4) * scale).astype(np.float32),
          float(rng.random() * scale), np.float32(rng.random() * scale)]
    monkeypatch.setattr(BACKEND, "kernels", {})  # eagerly the decomposition too
    for q in qs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (all-NaN slices)
            want = getattr(np, fn)(x, q, axis=1, method=method)
            _same(getattr(xnp, fn)(x, q, axis=1, method=method), want)
            # q closed over (a constant XLA folds into the arithmetic) and q traced
            _same(xnp.jit(lambda x: getattr(xnp, fn)(x, q, axis=1, method=method))(x), want)
            if not isinstance(q, float):
                _same(xnp.jit(lambda x, q: getattr(xnp, fn)(x, q, axis=1, method=method))(
                    x, q), want)


def test_rounded_keeps_products_rounded_under_jit(rng):
    a, b, c = (rng.random(4096) for _ in range(3))
    kept = np.asarray(xnp.jit(lambda a, b, c: lax.add(rounded(lax.mul(a, b)), c))(a, b, c))
    _same(kept, a * b + c)
    iota = np.asarray(xnp.jit(lambda: lax.add(rounded(lax.mul(
        lax.iota(np.float64, (4096,), 0), xnp.asarray(0.37))), xnp.asarray(0.1)))())
    _same(iota, np.arange(4096.0) * 0.37 + 0.1)  # (LLVM knows iota * c is not NaN)


@pytest.mark.parametrize("args", [(0.1, 370.1, 0.37), (-3.3, 1e4, 0.7), (1e-3, 2.0, 1e-3),
                                  (5.0, -100.0, -0.3)])
@pytest.mark.parametrize("dtype", [None, np.float32])
def test_long_arange_under_jit_is_numpys(args, dtype):
    want = np.arange(*args, dtype=dtype)
    _same(xnp.jit(lambda: xnp.arange(*args, dtype=dtype))(), want)
    _same(xnp.arange(*args, dtype=dtype), want)
