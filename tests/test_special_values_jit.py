"""Special values eagerly and under jit against NumPy on this machine.

For every elementwise function, reduction, sort and cast: inputs NaN, +-inf, +-0.0,
subnormals, the largest and smallest normals, the integer bounds and their neighbours.
Many values go into one array per function (binary functions: every pair), and each
group of functions is one jitted call per dtype, so the file compiles a few dozen
executables. (tests/lax/test_special_values.py covers the special functions' domain
edges against SciPy.)

Eagerly xnp must give NumPy's result. Under jit it must too, with the differences listed
in README.md, "Special values under jit", made explicit here:

* ``_flush_model``: XLA:CPU runs with denormals-are-zero and flush-to-zero, so where an
  input or NumPy's result is subnormal, jit may instead give what NumPy gives on the
  inputs with subnormals replaced by zeros of their sign, with a subnormal result
  flushed the same way. Sorting is exact (never flushed).
* ``DOCUMENTED``: answers xnp chose on purpose, eagerly and under jit.
* signed zeros compare as values where NumPy promises no sign (sort order, reductions,
  ``maximum``-family ties when this machine's NumPy breaks them otherwise than x86-64).
"""

from __future__ import annotations

import functools
import platform
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import grid

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
FLOATS = [F32, F64]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64,
                              np.uint8, np.uint16, np.uint32, np.uint64)]
RTOL = {np.dtype(np.float16): 1e-3, F32: 1e-6, F64: 1e-13,
        np.dtype(np.complex64): 1e-6, np.dtype(np.complex128): 1e-13}
X86 = platform.machine().lower() in ("x86_64", "amd64")


def float_values(dt) -> np.ndarray:
    fi = np.finfo(dt)
    big = 1e300 if dt == F64 else 1e30
    v = [np.nan, np.inf, -np.inf, 0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal,
         fi.smallest_normal / 3, -fi.smallest_normal / 3, fi.smallest_normal,
         -fi.smallest_normal, fi.max, -fi.max, 1.0, -1.0, 0.5, -2.5, 3.0, 710.0, -745.5, 89.5,
         1e-20, big]
    return np.array(v, dt)


def int_values(dt) -> np.ndarray:
    ii = np.iinfo(dt)
    v = {ii.min, ii.min + 1, 0, 1, 3, 6, ii.max - 1, ii.max}
    if ii.min:
        v |= {-1, -3}
    return np.array(sorted(v), dt)


def values(dt) -> np.ndarray:
    return float_values(dt) if dt.kind == "f" else int_values(dt)


def pairs(dt):
    v = values(dt)
    if dt.kind == "f":  # every pair of a 15-value subset: 225 cases
        v = v[[0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 14, 15, 16, 18]]
    return np.repeat(v, len(v)), np.tile(v, len(v))


# --------------------------------------------------------------------------- comparison


def _subnormal(x) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return _subnormal(x.real) | _subnormal(x.imag)
    if x.dtype not in (F32, F64):
        return np.zeros(x.shape, bool)
    return (x != 0) & (np.abs(x) < np.finfo(x.dtype).smallest_normal)


def _flush(x) -> np.ndarray:
    x = np.array(x)
    if x.dtype.kind == "c":
        return _flush(x.real) + 1j * _flush(x.imag)
    sub = _subnormal(x)
    x[sub] = np.copysign(0.0, x[sub]).astype(x.dtype)
    return x


def _agree(out, ref, zero_sign=True, atol=0.0) -> np.ndarray:
    """Elementwise: equal (NaN equal NaN), within the dtype's elementwise rtol (plus
    ``atol``) when finite; zeros agree in sign where ``zero_sign`` (a bool or a mask)."""
    out, ref = np.asarray(out), np.asarray(ref)
    if ref.dtype.kind in "biu":
        return out == ref
    if ref.dtype.kind == "c":
        return (_agree(out.real, ref.real, zero_sign, atol)
                & _agree(out.imag, ref.imag, zero_sign, atol))
    o, r = out.astype(np.float64), ref.astype(np.float64)
    same = (o == r) & ((np.signbit(o) == np.signbit(r)) | np.logical_not(zero_sign) | (r != 0))
    close = np.isfinite(r) & (np.abs(o - r) <= RTOL.get(ref.dtype, 0) * np.abs(r) + atol)
    close &= (o != 0) | (r != 0)  # two zeros: `same` decides on their signs
    return same | close | (np.isnan(o) & np.isnan(r))


def _report(name, path, inputs, out, ref, ok):
    bad = np.flatnonzero(~np.asarray(ok).ravel())
    rows = []
    for i in bad[:6]:
        args = ", ".join(repr(np.asarray(a).ravel()[i]) for a in inputs)
        rows.append(f"  {name}({args}) = {np.asarray(out).ravel()[i]!r}, "
                    f"NumPy {np.asarray(ref).ravel()[i]!r}")
    return f"{path}: {len(bad)} of {np.asarray(ok).size} differ\n" + "\n".join(rows)


def check(name, inputs, eager, jitted, ref, flushed, zero_sign=True, affected=None, atol=0.0):
    """``eager`` must agree with ``ref``; ``jitted`` too, or, where an input or ``ref`` is
    subnormal (or ``affected``), agree after flushing with ``flushed`` (the flush model:
    XLA may also return a subnormal that its arithmetic would have read as zero)."""
    assert np.asarray(eager).dtype == ref.dtype, (name, np.asarray(eager).dtype, ref.dtype)
    assert np.asarray(jitted).dtype == ref.dtype, (name, np.asarray(jitted).dtype, ref.dtype)
    ok = _agree(eager, ref, zero_sign, atol)
    assert ok.all(), _report(name, "eager", inputs, eager, ref, ok)
    ok = _agree(jitted, ref, zero_sign, atol)
    if flushed is not None:
        if affected is None:
            affected = functools.reduce(np.logical_or, [_subnormal(a) for a in inputs])
        affected = affected | _subnormal(ref)
        ok |= affected & _agree(_flush(jitted), _flush(flushed), zero_sign, atol)
    assert ok.all(), _report(name, "jit", inputs, jitted, ref, ok)


# --------------------------------------------------------------------------- documented


def _floor_divide(a, b, ref):
    if a.dtype.kind not in "iu" or a.dtype.itemsize < 8:
        return ref
    # 64-bit integers: the exact quotient (Python's; NumPy's scalar loop). NumPy's SIMD
    # loop on AVX2 divides in float64 (2**64 - 1 // 1 gave 0)
    exact = [(x // y if y else 0) % 2**64 for x, y in zip(a.tolist(), b.tolist())]
    return np.array(exact, np.uint64).view(a.dtype)  # wraps, as NumPy


DOCUMENTED = {"floor_divide": _floor_divide}

UNARY = ("negative positive absolute fabs sign square reciprocal floor ceil trunc rint exp "
         "exp2 expm1 log log2 log10 log1p sqrt cbrt sin cos tan arcsin arccos arctan sinh "
         "cosh tanh arcsinh arccosh arctanh deg2rad rad2deg isnan isinf isfinite signbit "
         "spacing sinc fix logical_not").split()
UNARY_INT = ("negative positive absolute sign square reciprocal bitwise_not bitwise_count "
             "logical_not isnan isfinite signbit sqrt exp log").split()
BINARY = ("add subtract multiply divide floor_divide remainder fmod power float_power maximum "
          "minimum fmax fmin logaddexp logaddexp2 hypot arctan2 copysign nextafter equal "
          "not_equal less less_equal greater greater_equal heaviside logical_and").split()
BINARY_INT = ("add subtract multiply floor_divide remainder fmod maximum minimum equal less "
              "gcd lcm bitwise_and bitwise_or bitwise_xor left_shift right_shift").split()
TIES = {"maximum", "minimum", "fmax", "fmin"}


def _numpy(name, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(np, name)(*args))


@functools.cache
def _jit_group(names: tuple, args_key: tuple):
    """One jitted call computing every function in ``names`` on the same inputs."""
    args = [np.frombuffer(b, dt).reshape(shape) for b, dt, shape in args_key]
    fns = [getattr(xnp, n) for n in names]
    outs = xnp.jit(lambda *a: tuple(f(*a) for f in fns))(*args)
    return dict(zip(names, [np.asarray(o) for o in outs]))


def _key(*arrays):
    return tuple((a.tobytes(), a.dtype, a.shape) for a in arrays)


def _elementwise(name, group, args):
    ref = _numpy(name, *args)
    eager = np.asarray(getattr(xnp, name)(*args))
    jitted = _jit_group(tuple(group), _key(*args))[name]
    if name in DOCUMENTED:
        ref = DOCUMENTED[name](*args, ref)
    flushed = _numpy(name, *[_flush(a) for a in args])
    if name in DOCUMENTED:
        flushed = DOCUMENTED[name](*[_flush(a) for a in args], flushed)
    zero_sign = True
    if name in TIES:  # the sign of a -0.0/0.0 tie: NumPy promises none (README)
        a, b = args  # a tie also where XLA reads a subnormal as a zero of its sign
        fa, fb = _flush(a), _flush(b)
        zero_sign = ~((fa == 0) & (fb == 0) & (np.signbit(a) != np.signbit(b)))
    check(name, args, eager, jitted, ref, flushed, zero_sign)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary_float(name, dtype):
    _elementwise(name, UNARY, (values(dtype),))


@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("name", UNARY_INT)
def test_unary_int(name, dtype):
    _elementwise(name, UNARY_INT, (values(dtype),))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_binary_float(name, dtype):
    _elementwise(name, BINARY, pairs(dtype))


# int8, int64, uint8 and uint64 for every function, and 40 of the other pairs (all with
# --full-grid)
_BINARY_INT_CASES = [(n, d) for n in BINARY_INT for d in INTS
                     if d.name in ("int8", "int64", "uint8", "uint64")] + [
    (c.name, c.dtype) for c in grid(n=40, seed=7, name=BINARY_INT,
                                    dtype=[d for d in INTS if d.name not in (
                                        "int8", "int64", "uint8", "uint64")])]


@pytest.mark.parametrize("name,dtype", _BINARY_INT_CASES, ids=str)
def test_binary_int(name, dtype):
    _elementwise(name, BINARY_INT, pairs(dtype))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_power_int(dtype):
    # NumPy raises for negative integer exponents: exponents from 0 to the maximum
    a, b = pairs(dtype)
    b = np.where(b < 0, b + 1, b)
    b = np.where(b < 0, -b, b).astype(dtype)
    _elementwise("power", ["power"], (a, b))


# --------------------------------------------------------------------------- reductions

REDUCTIONS = ("sum prod max min mean argmax argmin any all cumsum cumprod nansum nanmax "
              "nanmin").split()


def _rows(dt):
    """Rows of special values, one reduction result each."""
    v = values(dt)
    rows = [v, np.roll(v, 3), v[::-1]]
    if dt.kind == "f":
        finite = v[np.isfinite(v)]
        rows += [np.resize(finite, len(v)), np.resize(v[3:9], len(v)),
                 np.resize(np.array([-0.0, -0.0, np.nan], dt), len(v)),
                 np.resize(np.array([-0.0], dt), len(v))]
    return np.stack(rows)


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction(name, dtype):
    x = _rows(dtype)
    names = tuple(REDUCTIONS)
    ref = _numpy(name, x, -1)
    eager = np.asarray(getattr(xnp, name)(x, -1))
    jitted = _jit_reductions(names, _key(x))[name]
    flushed = _numpy(name, _flush(x), -1)
    affected = _subnormal(x)
    if ref.ndim < x.ndim:
        affected = affected.any(axis=-1)
    atol = 0.0
    if name in ("sum", "mean", "nansum", "cumsum") and dtype.kind == "f":
        # summation order differs (NumPy pairwise): rounding is relative to sum(|x|)
        atol = RTOL[dtype] * np.nansum(np.abs(x.astype(np.float64)), axis=-1)
        atol = atol if ref.ndim < x.ndim else atol[:, None]
    if name == "mean" and dtype.kind in "iu":  # float64 accumulation, order-dependent
        atol = 1e-15 * np.abs(x.astype(np.float64)).sum(axis=-1)
    # the sign of a zero sum or extremum depends on an order NumPy does not promise
    check(name, (x,), eager, jitted, ref, flushed, zero_sign=False, affected=affected,
          atol=atol)


@functools.cache
def _jit_reductions(names, args_key):
    (x,) = [np.frombuffer(b, dt).reshape(shape) for b, dt, shape in args_key]
    fns = [getattr(xnp, n) for n in names]
    outs = xnp.jit(lambda a: tuple(f(a, -1) for f in fns))(x)
    return dict(zip(names, [np.asarray(o) for o in outs]))


# --------------------------------------------------------------------------- sorting

SORT_DTYPES = [np.dtype(np.float16), F32, F64, np.dtype(np.complex128), np.dtype(np.int8),
               np.dtype(np.int64), np.dtype(np.uint64)]


def _sort_input(dt):
    if dt.kind == "c":
        re = float_values(F64)[[0, 1, 2, 3, 4, 5, 6, 13, 14]]
        return (np.repeat(re, len(re)) + 1j * np.tile(re, len(re))).astype(dt)
    if dt.kind == "f":
        v = float_values(F32 if dt.itemsize < 4 else dt).astype(dt)
        if dt.itemsize < 4:  # float16 subnormals
            fi = np.finfo(dt)
            v = np.concatenate([v, np.array([fi.smallest_subnormal, -fi.smallest_subnormal,
                                             fi.smallest_normal / 3], dt)])
        return np.concatenate([v, v[::-1], -v])
    v = int_values(dt)
    return np.concatenate([v, v[::-1]])


def _sorting(xp, a, b, c, srt, q):
    out = []
    for v in (a, b, c):
        out += [xp.sort(v, axis=-1), xp.argsort(v, axis=-1)]
    return out + [xp.searchsorted(srt, q, side=side) for side in ("left", "right")]


@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=str)
def test_sort_argsort_searchsorted(dtype):
    x = _sort_input(dtype)
    perm = x[np.random.default_rng(0).permutation(len(x))]
    srt = np.sort(x)
    args = (x, perm, np.stack([x, x[::-1]]), srt, x if dtype.kind != "c" else x[:20])
    ref = _sorting(np, *args)
    eager = _sorting(xnp, *args)
    jitted = xnp.jit(lambda *a: _sorting(xnp, *a))(*args)
    names = ["sort", "argsort"] * 3 + ["searchsorted[left]", "searchsorted[right]"]
    for path, outs in (("eager", eager), ("jit", jitted)):
        for i, (name, out, r) in enumerate(zip(names, outs, ref)):
            out = np.asarray(out)
            if name == "argsort":  # a permutation that sorts, compared as values
                a = args[i // 2]
                assert (np.sort(out, axis=-1) == np.sort(r, axis=-1)).all(), (path, out)
                out, r = np.take_along_axis(a, out, -1), np.take_along_axis(a, r, -1)
            elif name != "sort":  # insertion points: the values there agree (-0.0 == 0.0)
                n = len(srt)
                assert ((out == n) == (r == n)).all(), (path, name, out, r)
                out, r = srt[np.minimum(out, n - 1)], srt[np.minimum(r, n - 1)]
            # -0.0 and 0.0 compare as values: NumPy does not promise their order
            ok = _agree(out, r, zero_sign=False)
            assert ok.all(), _report(name, path, (), out, r, ok)


def test_sort_subnormals_and_signed_zeros_jit():
    # regression: the comparator compared floats, which XLA:CPU sees with subnormals as zero
    x = np.array([5e-324, 0.0, -5e-324, -0.0, 1e-310, -1.0, np.nan, -np.inf, 2.2e-308])
    out = np.asarray(xnp.jit(xnp.sort)(x))
    assert np.all(out[:-1] <= out[1:]) or np.isnan(out[-1])
    assert _agree(out, np.sort(x), zero_sign=False).all(), out
    idx = np.asarray(xnp.jit(xnp.argsort)(x))
    assert _agree(x[idx], np.sort(x), zero_sign=False).all(), x[idx]
    vals, _ = xnp.jit(lambda v: xnp.lax.top_k(v, 4))(x)
    vals = np.asarray(vals)
    assert np.isnan(vals[0]) and vals[1:].tolist() == [2.2e-308, 1e-310, 5e-324], vals


# --------------------------------------------------------------------------- casts

CAST_FROM = [np.dtype(np.float16), F32, F64, np.dtype(np.complex128), np.dtype(np.bool_),
             np.dtype(np.int8), np.dtype(np.int64), np.dtype(np.uint64)]
CAST_TO = [np.dtype(t) for t in (np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint64,
                                 np.float16, np.float32, np.float64, np.complex128)]


def _cast_input(dt):
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind == "c":
        v = float_values(F64)
        return (v + 1j * v[::-1]).astype(dt)
    if dt.kind == "f":
        return float_values(F32 if dt.itemsize < 4 else dt).astype(dt)
    return int_values(dt)


@functools.cache
def _jit_casts(args_key):
    (x,) = [np.frombuffer(b, dt).reshape(shape) for b, dt, shape in args_key]
    outs = xnp.jit(lambda a: tuple(a.astype(t) for t in CAST_TO))(x)
    return dict(zip(CAST_TO, [np.asarray(o) for o in outs]))


@pytest.mark.parametrize("target", CAST_TO, ids=str)
@pytest.mark.parametrize("source", CAST_FROM, ids=str)
def test_cast(source, target):
    x = _cast_input(source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = x.astype(target)
        flushed = _flush(x).astype(target)
    eager = np.asarray(xnp.asarray(x).astype(target))
    jitted = _jit_casts(_key(x))[target]
    if source.kind in "fc" and target.kind in "iu" and not X86:
        # NaN, inf and out-of-range values: xnp gives NumPy's x86-64 answers
        keep = np.isfinite(x.real) & (np.abs(x.real) <= np.iinfo(target).max)
        x, ref, eager, jitted, flushed = (a[keep] for a in (x, ref, eager, jitted, flushed))
    check(f"astype[{target}]", (x,), eager, jitted, ref, flushed)


# --------------------------------------------------------------------------- regressions


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_sinh_cosh_near_overflow(dtype):
    # chlo.sinh/cosh added log(1/2) to x, which rounds: 460 ulp off at 710 (float64)
    big = [20.0, 100.0, 700.0, 709.5, 710.4] if dtype == F64 else [10.0, 50.0, 88.0, 88.7]
    x = np.array(big + [-v for v in big] + [0.5, -1.0, 1.5], dtype)
    for name in ("sinh", "cosh"):
        ref = _numpy(name, x.astype(np.float64)).astype(dtype)
        out = np.asarray(xnp.jit(getattr(xnp, name))(x))
        ulps = np.abs(out.astype(np.float64) - ref) / np.spacing(np.abs(ref).astype(dtype))
        assert ulps.max() <= 4, (name, ulps)


def test_spacing_float16_matches_numpy():
    # NumPy's half-precision spacing steps towards +inf also for negative x
    for x in (np.array([-128, -2, -1, 0, 1, 127], np.int8),
              np.array([-0.0, 0.0, -1.0, 1.0, 65504.0, -65504.0, np.inf, 6e-8], np.float16)):
        ref = np.spacing(x)
        for out in (xnp.spacing(x), xnp.jit(xnp.spacing)(x)):
            assert _agree(np.asarray(out), ref).all(), (x, np.asarray(out), ref)
