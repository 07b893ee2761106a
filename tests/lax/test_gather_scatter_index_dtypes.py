"""Index dtypes of the gather/scatter lowerings (``xnp/backends/xla/lowering/slicing.py``).

Integer-array indexing under ``jit`` passes 32-bit indices to XLA's gather and scatter
(``numpy_api._index_core._index_dtype``), and the lowering keeps them 32-bit. Every
other integer index dtype gives NumPy's values, eagerly and under ``jit``, including
out-of-bounds indices in each mode (clipped, filled, dropped) and unsigned values that a
signed 32-bit type would wrap.
"""

import re

import numpy as np
import pytest

import xnp
from xnp import lax

N = 300  # operand length: above int8's range, so int8 / uint8 indices are not all in range

GDN = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                 start_index_map=(0,))
SDN = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                  scatter_dims_to_operand_dims=(0,))

INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                np.uint64]


def _operand():
    return np.arange(N, dtype=np.float64) * 1.5 + 2.0


def _indices(dtype):
    """In-range positions, the last one, -1 where signed, and the dtype's extremes
    (lax indices are positions: a negative one is out of bounds)."""
    info = np.iinfo(dtype)
    vals = [0, 7, 99, 126, min(N - 1, info.max), info.max, info.min]
    if info.min < 0:
        vals += [-1, max(-N, info.min)]
    return np.array(vals, dtype=dtype)


def _gather_oracle(x, idx, mode):
    i = idx.astype(object)  # exact for uint64
    if mode == "clip":
        return np.array([x[min(max(int(k), 0), N - 1)] for k in i])
    return np.array([x[int(k)] if 0 <= k < N else np.nan for k in i])


def _scatter_add_oracle(x, idx, u, mode):
    out = x.copy()
    for k, v in zip(idx.astype(object), u):
        k = int(k)
        if mode == "clip":
            out[min(max(k, 0), N - 1)] += v
        elif 0 <= k < N:
            out[k] += v
    return out


def _both(f, *args):
    """``f`` eagerly and under ``jit``, as NumPy arrays."""
    return np.asarray(f(*args)), np.asarray(xnp.jit(f)(*args))


@pytest.mark.parametrize("dtype", INDEX_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_gather_index_dtype_values(dtype, mode):
    x, idx = _operand(), _indices(dtype)
    expect = _gather_oracle(x, idx, mode)

    def f(a, i):
        return lax.gather(a, i[:, None], GDN, (1,), mode=mode)

    for got in _both(f, x, idx):
        np.testing.assert_array_equal(got, expect)


@pytest.mark.parametrize("dtype", INDEX_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["clip", "drop"])
def test_scatter_add_index_dtype_values(dtype, mode):
    x, idx = _operand(), _indices(dtype)
    u = np.arange(1, len(idx) + 1, dtype=np.float64) * 10.0
    expect = _scatter_add_oracle(x, idx, u, mode)

    def f(a, i, v):
        return lax.scatter_add(a, i[:, None], v, SDN, mode=mode)

    for got in _both(f, x, idx, u):
        np.testing.assert_array_equal(got, expect)


def _index_operand_types(text, op):
    """Element types of the index operand of each ``op`` in StableHLO text (generic
    syntax: a scatter's operand types follow its combiner region's closing ``})``)."""
    close = r"\}\)" if op == "scatter" else ""
    pattern = rf'"stablehlo\.{op}"\(.*?{close} : \((tensor<[^)]*)\) ->'
    return [re.findall(r"x(u?i\d+|f\d+)>", m.group(1))[1]
            for m in re.finditer(pattern, text, flags=re.DOTALL)]


def test_integer_array_indexing_runs_on_32_bit_indices():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1000)
    idx = rng.integers(-1000, 1000, 200)
    v = rng.standard_normal(200)
    ways = {"gather": (lambda a, i: a[i], lambda a, i: a[i]),
            "scatter": (lambda a, i, u: a.at[i].set(u), None),
            "scatter_add": (lambda a, i, u: a.at[i].add(u), None)}
    out = x.copy()
    np.add.at(out, idx, v)
    set_expect = x.copy()
    set_expect[idx] = v  # repeated indices: NumPy keeps the last write, as .at[].set does
    expects = {"gather": x[idx], "scatter": set_expect, "scatter_add": out}
    for name, (f, _) in ways.items():
        args = (x, idx) if name == "gather" else (x, idx, v)
        text = xnp.jit(f).lower(*args).as_text()
        op = "gather" if name == "gather" else "scatter"
        assert _index_operand_types(text, op) == ["i32"], text
        got = np.asarray(xnp.jit(f)(*args))
        np.testing.assert_allclose(got, expects[name], rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.asarray(f(*(xnp.asarray(a) for a in args))),
                                   expects[name], rtol=0, atol=1e-12)


def test_int64_indices_beyond_int32_stay_out_of_bounds_under_jit():
    """Narrowed to 32 bits only after clamping: 2**32 does not wrap to position 0."""
    x = np.arange(10.0)
    big = np.array([2**32, 2**32 + 3, -(2**32)], dtype=np.int64)
    f = xnp.jit(lambda a, i: a.at[i].get(mode="clip"))
    np.testing.assert_array_equal(np.asarray(f(x, big)), [9.0, 9.0, 0.0])
    g = xnp.jit(lambda a, i: a.at[i].add(1.0))  # out-of-bounds updates are dropped
    np.testing.assert_array_equal(np.asarray(g(x, big)), x)
