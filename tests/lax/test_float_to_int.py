"""Floating (and complex) -> integer/bool conversions of special values: NaN, +-inf, +-0,
halves, subnormals, huge values and the integer-range boundaries with their neighbours,
bit-exact against NumPy's astype under jit and on the eager XLA backend.

XLA's own convert saturates (NaN -> 0); the lowering instead builds NumPy's x86-64 results
(see ``_float_to_int`` in xnp/backends/xla/lowering/elementwise.py), so these tests only
run on x86-64: elsewhere NumPy's cast of NaN/inf/out-of-range values is platform-defined.

The oracle is NumPy's strided (scalar-loop) cast, which is C's ``(T)x``; NumPy's contiguous
float32/float64 -> uint32 loop is SIMD code with other results for NaN, -inf, x < -2**31
and x >= 2**32 (``test_numpy_contiguous_cast_agrees`` pins where the two agree).
"""

import platform
import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp import lax

pytestmark = [
    pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                       reason="NumPy's float -> int cast of NaN/inf/out-of-range values is "
                              "platform-defined; xnp follows the x86-64 results"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning"),
]

SOURCES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, ml_dtypes.float8_e4m3fn,
           ml_dtypes.float8_e5m2, np.complex64, np.complex128]
SIMD_UINT32 = (ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128)
TARGETS = [np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                 np.int64, np.uint64, np.bool_)]


def _grid() -> np.ndarray:
    """Special values and every integer-range boundary 2**k, its neighbours (+-1, +-0.5,
    the next float64 and float32 values) and their negatives, as float64."""
    f32 = np.float32
    vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 1.0, -1.0,
            0.99999, -0.99999, 1e300, -1e300, 5e-324, -5e-324, 1e-310, 1e-40, -1e-40, 6e-8,
            65504.0, 65520.0, 448.0, 57344.0, 3e38, 2.0 ** 40 + 12345, -(2.0 ** 40 + 12345)]
    for e in (7, 8, 15, 16, 31, 32, 63, 64):
        b = 2.0 ** e
        near = [b + d for d in (0.0, 1.0, -1.0, 0.5, -0.5)]
        near += [np.nextafter(b, 0), np.nextafter(b, np.inf),
                 float(np.nextafter(f32(b), f32(0))), float(np.nextafter(f32(b), f32(np.inf)))]
        vals += near + [-v for v in near]
    return np.array(vals, np.float64)


def _inputs(src) -> np.ndarray:
    grid = _grid()
    if np.dtype(src).kind == "c":
        return (grid + 1j * grid[::-1]).astype(src)  # the imaginary part is discarded
    return grid.astype(src)


def _numpy_cast(x: np.ndarray, target) -> np.ndarray:
    """NumPy's scalar-loop cast (a strided view), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.repeat(x, 2)[::2].astype(target)


def _lax_all(x):
    return tuple(lax.convert_element_type(x, t) for t in TARGETS)


def _astype_all(x):
    return tuple(xnp.astype(x, t) for t in TARGETS)


def _method_all(x):
    return tuple(x.astype(t) for t in TARGETS)


def _paths(x):
    for name, f in [("lax", _lax_all), ("astype", _astype_all), ("method", _method_all)]:
        yield f"jit {name}", xnp.jit(f)(x)
    with xnp.config.override(eager_backend="xla"):
        for name, f in [("lax", _lax_all), ("astype", _astype_all)]:
            yield f"eager-xla {name}", f(xnp.asarray(x))


def _assert_bit_exact(outs, x, where):
    for target, out in zip(TARGETS, outs):
        expected = _numpy_cast(x, target)
        got = np.asarray(out)
        assert got.dtype == expected.dtype, f"{where} -> {target}: dtype {got.dtype}"
        bad = np.nonzero(got != expected)[0][:5]
        assert bad.size == 0, (f"{where} {x.dtype} -> {target}: "
                               f"{[(x[i], got[i], expected[i]) for i in bad]}")


@pytest.mark.parametrize("src", SOURCES, ids=lambda t: np.dtype(t).name)
def test_special_values_match_numpy(src):
    x = _inputs(src)
    for where, outs in _paths(x):
        _assert_bit_exact(outs, x, where)


@pytest.mark.parametrize("src", [np.float32, ml_dtypes.float8_e5m2, np.complex128],
                         ids=lambda t: np.dtype(t).name)
def test_ranks_0_and_2(src):
    x = _inputs(src)
    block = x[: 2 * (len(x) // 2)].reshape(2, -1)
    outs = xnp.jit(_lax_all)(block)
    _assert_bit_exact([np.asarray(o).reshape(-1) for o in outs], block.reshape(-1), "rank 2")
    for v in x[:6]:  # NaN, -NaN, +-inf, +-0 as 0-d arrays
        _assert_bit_exact([np.asarray(o).reshape(1) for o in xnp.jit(_lax_all)(v)],
                          np.asarray(v).reshape(1), "rank 0")


@pytest.mark.parametrize("src", SOURCES, ids=lambda t: np.dtype(t).name)
def test_numpy_contiguous_cast_agrees(src):
    """NumPy's contiguous cast equals the strided one except float32/float64 -> uint32
    (also via bfloat16 or the real part of complex) outside ``[-2**31, 2**32)`` and NaN."""
    x = _inputs(src)
    real = (x.real if x.dtype.kind == "c" else x).astype(np.float64)
    for target in TARGETS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            contiguous = x.astype(target)
        same = contiguous == _numpy_cast(x, target)
        if target == np.uint32 and src in SIMD_UINT32:
            same |= ~((real >= -2.0 ** 31) & (real < 2.0 ** 32))
        assert same.all(), f"{x.dtype} -> {target}: {real[~same]}"


def test_selects_only_for_float_to_int():
    x32, i32, b = np.zeros(3, np.float32), np.zeros(3, np.int32), np.zeros(3, np.bool_)

    def text(fn, x):
        return xnp.jit(fn).lower(x).as_text()

    assert "select" in text(lambda x: lax.convert_element_type(x, np.int8), x32)
    for fn, x in [(lambda x: lax.convert_element_type(x, np.float64), x32),
                  (lambda x: lax.convert_element_type(x, np.int8), i32),
                  (lambda x: lax.convert_element_type(x, np.float32), i32),
                  (lambda x: lax.convert_element_type(x, np.uint64), i32),
                  (lambda x: lax.convert_element_type(x, np.int8), b)]:
        hlo = text(fn, x)
        assert "select" not in hlo and hlo.count("stablehlo.convert") == 1, hlo
