"""Complex special values eagerly and under jit against NumPy on this machine.

Every elementwise function NumPy has a complex loop for (its ufuncs with a complex
type signature, plus ``angle``/``real``/``imag``) on a grid of ``a + bj`` with ``a`` and
``b`` each from NaN, +-inf, +-0.0, +-1, +-2.5, 1e-300 and 1e300 (complex64: a coarser
grid with 1e-30 and 1e30), binary functions on every pair of a smaller grid. Real and
imaginary parts are compared separately, NaN matching NaN and zeros by their sign;
finite values to rtol 1e-13 (complex128) or 1e-6 (complex64). One jitted call per
function and dtype.

The points left out, each with its reason below, are the ones README.md lists under
"Special values under jit". ``xnp.array_api``'s ``expm1`` and ``tanh`` follow the Array API
standard where NumPy's C99 values differ: checked here against the standard's rules.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest

import xnp

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
RTOL = {C64: 1e-6, C128: 1e-13}
_BIG = {C64: 1e30, C128: 1e300}


def _parts_grid(dt, coarse: bool) -> np.ndarray:
    tiny, big = 1 / _BIG[dt], _BIG[dt]
    if dt == C64 or coarse:
        v = [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, tiny, big]
    else:
        v = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, math.inf, -math.inf, math.nan, tiny, big]
    return np.array([complex(a, b) for a, b in itertools.product(v, v)], dt)


def _ufuncs(nin: int) -> list[str]:
    """NumPy's elementwise ufuncs with ``nin`` inputs and a complex loop (one name each)."""
    seen, names = set(), []
    for name in sorted(dir(np)):
        u = getattr(np, name)
        if (isinstance(u, np.ufunc) and u.nin == nin and u.signature is None
                and any(t.startswith("D" * nin) for t in u.types) and id(u) not in seen):
            seen.add(id(u))
            names.append(name)
    return names


UNARY = _ufuncs(1) + ["angle", "real", "imag"]
BINARY = _ufuncs(2)


def _mismatch(got, want, rtol) -> np.ndarray:
    """Where ``got`` differs from ``want``: per part, NaN-ness, value (to ``rtol``), zero sign."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "c":
        return _mismatch(got.real, want.real, rtol) | _mismatch(got.imag, want.imag, rtol)
    if want.dtype.kind != "f":
        return got != want
    same = ((np.isnan(got) & np.isnan(want))
            | ((got == want) & (np.signbit(got) == np.signbit(want))))
    close = np.isfinite(want) & (want != 0) & (np.abs(got - want) <= rtol * np.abs(want))
    return ~(same | close)


def _flushed(got, want, rtol) -> np.ndarray:
    """Where a part of NumPy's result is subnormal, ``got`` has a zero of its sign there and
    the other part matches (XLA:CPU flushes subnormal results to zero; README, "Subnormal
    numbers")."""
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind == "c":
        re, im = _flushed(got.real, want.real, rtol), _flushed(got.imag, want.imag, rtol)
        ok_re = re | ~_mismatch(got.real, want.real, rtol)
        ok_im = im | ~_mismatch(got.imag, want.imag, rtol)
        return (re | im) & ok_re & ok_im
    if want.dtype.kind != "f":
        return np.zeros(want.shape, bool)
    sub = (want != 0) & (np.abs(want) < np.finfo(want.dtype).tiny)
    return sub & (got == 0) & (np.signbit(got) == np.signbit(want))


def _expm1_standard(z: np.ndarray, want: np.ndarray) -> np.ndarray:
    """NumPy's expm1 with the Array API's special cases put in (``xnp.array_api.expm1``,
    eagerly and under jit; ``xnp.expm1`` is NumPy's): ``a +- 0j`` is ``expm1(a) +- 0j``
    (``+0`` for ``a = -0``), ``-inf + bj`` with ``b`` infinite or NaN is ``-1 + 0j``, and
    ``+inf + bj`` with ``b`` infinite or NaN is ``inf + nanj``."""
    a, b = z.real, z.imag
    out = want.copy()
    zero_b = b == 0
    out[zero_b] = (np.where(a[zero_b] == 0, 0.0, np.expm1(a[zero_b]))
                   + 1j * b[zero_b]).astype(z.dtype)
    # the imaginary part's zero is b's (complex(x, b), not x + 1j * b, which makes +0 of -0)
    out.imag[zero_b] = b[zero_b]
    special_b = ~np.isfinite(b)
    out[(a == -np.inf) & special_b] = -1.0
    out.real[(a == np.inf) & special_b] = np.inf
    out.imag[(a == np.inf) & special_b] = np.nan
    return out


def _tanh_standard(z: np.ndarray, want: np.ndarray) -> np.ndarray:
    """NumPy's tanh with the Array API's ``+-inf + bj``: ``+-1 + 0j``, the zero signed as a
    finite ``b`` (``+0`` for an infinite or NaN ``b``); NumPy's ``ctanh`` signs it as
    ``sin(2b)``. ``xnp.array_api.tanh`` follows the standard, ``xnp.tanh`` NumPy."""
    out = want.copy()
    a, b = z.real, z.imag
    inf = np.isinf(a)
    out.real[inf] = np.sign(a[inf])
    out.imag[inf] = np.where(np.isfinite(b[inf]), np.copysign(0.0, b[inf]), 0.0)
    return out


# xnp.array_api follows the Array API standard where NumPy does not (README, "Special values")
STANDARD = {"expm1": _expm1_standard, "tanh": _tanh_standard}


def _products_overflow(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Where a partial product ``re * re``, ``im * im``, ``re * im`` of two finite parts
    overflows or underflows: there NumPy's SIMD complex multiply fuses multiply-adds (its
    result depends on the CPU), and so does XLA, differently."""
    bad = np.zeros(x.shape, bool)
    for p in (x.real, x.imag):
        for q in (y.real, y.imag):
            pq = p * q
            finite = np.isfinite(p) & np.isfinite(q)
            bad |= finite & (np.isinf(pq) | ((pq != 0) & (np.abs(pq) < np.finfo(pq.dtype).tiny))
                             | ((pq == 0) & (p != 0) & (q != 0)))
    return bad


def _check(names, args, wants, dt, *, skip=None, unsigned=None):
    """``xnp.<name>`` for each of ``names``, eagerly and under one jit, on ``args`` against
    ``wants[name]`` (NumPy), the jitted values except at ``skip[name]``;
    ``unsigned[name](got, want)`` says where a zero's sign may differ."""
    skip, unsigned = skip or {}, unsigned or {}
    xs = [xnp.asarray(a) for a in args]
    fs = [getattr(xnp, name) for name in names]
    eager = [np.asarray(f(*xs)) for f in fs]
    jitted = [np.asarray(r) for r in xnp.jit(lambda *v: tuple(f(*v) for f in fs))(*xs)]
    rtol = RTOL[dt]
    errors = []
    for name, e, j in zip(names, eager, jitted):
        want = wants[name]
        keep = ~skip[name] if name in skip else np.ones(want.shape, bool)
        bad_eager = _mismatch(e, want, rtol)
        bad_jit = _mismatch(j, want, rtol) & keep & ~_flushed(j, want, rtol)
        if name in unsigned:
            bad_eager &= ~unsigned[name](e, want)
            bad_jit &= ~unsigned[name](j, want)
        for label, bad, got in (("eager", bad_eager, e), ("jit", bad_jit, j)):
            if bad.any():
                k = np.flatnonzero(bad)[:4]
                pts = [tuple(a.ravel()[q] for a in args) for q in k]
                errors.append(f"{name} ({label}, {dt}): {bad.sum()} of {bad.size} differ, e.g. "
                              f"at {pts}: got {got.ravel()[k]}, NumPy {want.ravel()[k]}")
    assert not errors, "\n".join(errors)


def _numpy(names, args, standard=None):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        wants = {name: getattr(np, name)(*args) for name in names}
    for name, fix in (standard or {}).items():
        wants[name] = fix(*args, wants[name])
    return wants


def _log1p_rounds(z: np.ndarray) -> np.ndarray:
    """Where NumPy's complex log1p, ``log|1 + z|``, rounds the real part to 0 (a nonzero
    ``|z| < eps``): under jit it is accurate there (``log1p(1e-300 + 0j)`` is ``1e-300``)."""
    return np.isfinite(z) & (z.real != 0) & (np.abs(z) < np.finfo(z.real.dtype).eps)


@pytest.mark.parametrize("dt", [C128, C64], ids=str)
def test_unary_complex_special_values(dt):
    z = _parts_grid(dt, coarse=False)
    _check(UNARY, [z], _numpy(UNARY, [z]), dt, skip={"log1p": _log1p_rounds(z)})


@pytest.mark.parametrize("dt", [C128, C64], ids=str)
def test_array_api_expm1_and_tanh_follow_the_standard(dt):
    z = _parts_grid(dt, coarse=False)
    wants = _numpy(list(STANDARD), [z], STANDARD)
    for name in STANDARD:
        f = getattr(xnp.array_api, name)
        for got in (f(xnp.asarray(z)), xnp.jit(f)(xnp.asarray(z))):
            bad = _mismatch(got, wants[name], RTOL[dt]) & ~_flushed(got, wants[name], RTOL[dt])
            assert not bad.any(), (name, z[bad][:4], np.asarray(got)[bad][:4])


# NumPy's complex power of a zero result takes the sign of the imaginary zero from a NaN
# made by inf * 0 (glibc's cexp(-inf + NaN i) is 0 + copysign(0, NaN) i), and a NaN's sign
# is the CPU's: there zeros compare by value only
POWERS = {"pow", "float_power"}


def _zero_results(got, want) -> np.ndarray:
    return (want.real == 0) & (want.imag == 0) & (got.real == 0) & (got.imag == 0)


@pytest.mark.parametrize("dt", [C128, C64], ids=str)
def test_binary_complex_special_values(dt):
    z = _parts_grid(dt, coarse=True)
    x, y = np.repeat(z, len(z)), np.tile(z, len(z))
    _check(BINARY, [x, y], _numpy(BINARY, [x, y]), dt,
           skip={"multiply": _products_overflow(x, y)},
           unsigned={name: _zero_results for name in POWERS})


def test_complex_special_value_examples():
    # a few of the values above written out: C99's answers, which NumPy gives too
    cases = [("log10", 0j, complex(-math.inf, 0.0)),
             ("reciprocal", 0j, complex(math.nan, math.nan)),
             ("sin", 1e-300j, 1e-300j), ("cos", 1e300j, complex(math.inf, -0.0)),
             ("cosh", complex(1e-300, 1.0), complex(math.cos(1.0), math.sin(1.0) * 1e-300)),
             ("log1p", complex(-1.0, 1e-300), complex(math.log(1e-300), math.pi / 2)),
             ("arctanh", complex(1.0, 1e-300),
              complex((math.log(2) - math.log(1e-300)) / 2, math.pi / 4)),
             ("exp2", complex(math.inf, math.inf), complex(math.inf, math.nan))]
    z = np.array([c[1] for c in cases])
    want = np.array([c[2] for c in cases])

    def each(v):
        return xnp.stack([getattr(xnp, name)(v[k]) for k, (name, _, _) in enumerate(cases)])

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        numpy = np.array([getattr(np, name)(v) for (name, _, _), v in zip(cases, z)])
    for got in (numpy, np.asarray(each(xnp.asarray(z))), np.asarray(xnp.jit(each)(xnp.asarray(z)))):
        bad = _mismatch(got, want, 1e-13)
        assert not bad.any(), [cases[k][0] for k in np.flatnonzero(bad)]
