"""``interp``, ``cross``, ``clip``, ``convolve`` and ``correlate`` as one composite each (xnp/backends/xp_impls/
composite.py, ``FUNCTION_KERNELS``): eagerly NumPy's own function, under jit and every
transformation the decomposition. On grids of special values (NaN, infinities, signed
zeros, ties, sample points, empty and 0-d operands) the eager kernel, the decomposition run
eagerly (the kernels table emptied) and the jitted function each give NumPy's result bit
for bit, where the arithmetic is exact (so XLA's fused multiply-adds round nothing); a
repeated eager call replays one kernel."""

from __future__ import annotations

import itertools
import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from xnp.backends.numpy import BACKEND
from xnp.backends.xp_impls.composite import FUNCTION_KERNELS
from xnp.numpy_api import _replay, _slice_warnings

_SPECIAL = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]


def _bits(v):
    """``v`` as comparable bytes: its dtype, shape and values with NaNs made one NaN (a
    NaN's sign and payload are not compared), signs of zeros kept."""
    v = np.asarray(v)
    if v.dtype.kind not in "fcV":
        return v.dtype, v.shape, v.tobytes()
    parts = (v.real, v.imag) if v.dtype.kind == "c" else (v.astype(np.float64),)
    return v.dtype, v.shape, b"".join(np.where(np.isnan(p), np.nan, p).tobytes() for p in parts)


def _assert_bits(got, want, what=""):
    assert _bits(got) == _bits(want), (what, np.asarray(got), np.asarray(want))


@pytest.fixture
def ways(monkeypatch):
    """``run(call, *operands)``: the call's result on xnp arrays eagerly with the kernels,
    eagerly with the decompositions, and under jit (a jitted function per ``call``)."""
    _replay.clear()
    kernels, jitted = BACKEND.kernels, {}

    def run(call, *ops, jit=True):
        xs = [xnp.asarray(o) for o in ops]
        with np.errstate(all="ignore"), warnings.catch_warnings(), \
                xnp.config.override(eager_dispatch_cache=False):
            warnings.simplefilter("ignore", DeprecationWarning)
            out = {"kernel": call(xnp, *xs)}
            monkeypatch.setattr(BACKEND, "kernels", {})
            out["decomposition"] = call(xnp, *xs)
            monkeypatch.setattr(BACKEND, "kernels", kernels)
            if jit:
                if call not in jitted:
                    jitted[call] = xnp.jit(lambda *a: call(xnp, *a))
                out["jit"] = jitted[call](*xs)
        return out

    yield run
    _replay.clear()


def _complex(re, im):
    """The complex numbers of these parts (``re + 1j * im`` makes ``inf * 1j`` NaN + inf j
    and ``-0.0 + 0j`` 0.0)."""
    z = np.empty(np.broadcast(re, im).shape, np.complex128)
    z.real, z.imag = re, im
    return z


def _check(run, call, *ops, jit=True):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = call(np, *ops)
    for way, got in run(call, *ops, jit=jit).items():
        _assert_bits(got, want, way)


def test_every_kernel_is_tested_here():
    # (power, the NaN-ignoring extrema and the order statistics:
    # tests/numpy_api/test_statistics_kernels.py)
    assert set(FUNCTION_KERNELS) == {"interp", "interp_left", "interp_right",
                                     "interp_left_right", "interp_period", "cross", "clip",
                                     "power", "nanmax", "nanmin", "nanargmax", "nanargmin",
                                     "quantile", "percentile", "nanquantile", "nanpercentile",
                                     "nanmedian", "scalar_divide", "convolve", "correlate",
                                     "argsort", "vdot", "einsum", "matmul", "matvec",
                                     "vecmat"}


# --------------------------------------------------------------------------- argsort


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["argsort"]}, key=str),
                         ids=str)
def test_argsort_is_numpys(ways, dt):
    """Runs of special values (NaN of both signs, signed zeros, infinities) of each dtype
    the kernel serves, long enough for the run-ordering branch of the stable kernel (2048
    elements and more), along each axis and flattened; stable by default, NumPy's default
    kind with ``stable=False`` (its order of ties is NumPy's own, compared eagerly only)."""
    rng = np.random.default_rng(3)
    with np.errstate(all="ignore"):
        vals = np.array(_SPECIAL + [2.5, 7.0]).astype(dt)
    x = vals[rng.integers(0, len(vals), (4, 700))]
    x[:, :40] = vals[1]
    jit = dt.name in ("float64", "int8", "bool")
    for axis in (1, 0, None):
        _check(ways, lambda m, a: m.argsort(a, axis=axis, kind="stable"), x, jit=jit)
    got = xnp.argsort(xnp.asarray(x), axis=1, stable=False)
    _assert_bits(got, np.argsort(x, axis=1))


# --------------------------------------------------------------------------- matmul


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["matmul"]}, key=str),
                         ids=str)
def test_matmul_is_numpys(ways, dt):
    """``matmul``/``@`` of operands of one dtype is eagerly NumPy's matmul ufunc: its values
    (exact sums here), signs of zero, memory order and floating-point warnings ("... in
    matmul", also for a transposed operand); 1-D promotion, batches and broadcast batches."""
    rng = np.random.default_rng(6)
    vals = np.array([0.0, -0.0, 1.0, -2.0, 0.5, 3.0])
    for sa, sb in (((3, 4), (4, 2)), ((4,), (4, 2)), ((3, 4), (4,)), ((2, 3, 4), (4, 2)),
                   ((2, 3, 4), (2, 4, 5)), ((4,), (2, 4, 5)), ((1, 3, 4), (2, 4, 5)),
                   ((4,), (4,)), ((0, 3), (3, 2)), ((3, 1), (1, 2))):
        a, b = vals[rng.integers(0, len(vals), sa)], vals[rng.integers(0, len(vals), sb)]
        if np.dtype(dt).kind == "c":
            a, b = _complex(a, -a), _complex(b, b)
        with np.errstate(all="ignore"):
            a, b = a.astype(dt), b.astype(dt)
        call = (lambda m, x, y: m.matmul(x, y))
        jit = np.dtype(dt).name in ("float64", "int8", "complex128", "bool")
        if np.dtype(dt).kind != "c":
            _check(ways, call, a, b, jit=jit)
        else:  # the kernel bit for bit; the decomposition's complex signs of zero are its own
            for way, got in ways(call, a, b, jit=jit).items():
                if way == "kernel":
                    _assert_bits(got, a @ b, way)
                else:
                    np.testing.assert_array_equal(np.asarray(got), a @ b, err_msg=way)
        got = xnp.asarray(a) @ xnp.asarray(b)
        assert np.asarray(got).flags.c_contiguous == (a @ b).flags.c_contiguous
    if np.dtype(dt).kind == "f":
        x = np.ones((4, 4), dt)
        x[1, 1] = np.inf  # (inf * 0: invalid)
        for _ in range(3):
            with pytest.warns(RuntimeWarning, match="invalid value encountered in matmul") as w:
                xnp.asarray(x.T) @ xnp.asarray(np.zeros((4, 4), dt))
            assert w[0].filename == __file__


@pytest.mark.parametrize("fname", ["matvec", "vecmat"])
@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["matvec"]}, key=str),
                         ids=str)
def test_matvec_and_vecmat_are_numpys(ways, fname, dt):
    """``matvec``/``vecmat`` of operands of one dtype are eagerly NumPy's ufuncs (``vecmat``
    conjugates its first operand itself): values on exact grids, broadcast stacks, empty
    stacks; their overflow warnings name them, at the caller's line."""
    rng = np.random.default_rng(9)
    vals = np.array([0.0, -0.0, 1.0, -2.0, 0.5, 3.0])
    for sm, sv in (((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (2, 4)), ((1, 3, 4), (2, 1, 4)),
                   ((0, 3, 4), (4,))):
        m, v = vals[rng.integers(0, len(vals), sm)], vals[rng.integers(0, len(vals), sv)]
        if fname == "vecmat":
            m = np.swapaxes(m, -1, -2).copy()
        if np.dtype(dt).kind == "c":
            m, v = _complex(m, -m), _complex(v, v[..., ::-1])
        with np.errstate(all="ignore"):
            m, v = m.astype(dt), v.astype(dt)
        ops = (m, v) if fname == "matvec" else (v, m)
        call = (lambda mod, a, b: getattr(mod, fname)(a, b))
        jit = np.dtype(dt).name in ("float64", "int8", "complex128")
        if np.dtype(dt).kind != "c":
            _check(ways, call, *ops, jit=jit)
        else:  # the kernel bit for bit; the decomposition's complex zero signs are its own
            for way, got in ways(call, *ops, jit=jit).items():
                want = call(np, *ops)
                if way == "kernel":
                    _assert_bits(got, want, way)
                else:
                    np.testing.assert_array_equal(np.asarray(got), want, err_msg=way)
    if np.dtype(dt).kind == "f":
        big_m, big_v = np.full((2, 2), np.finfo(dt).max, dt), np.full(2, np.finfo(dt).max, dt)
        ops = (big_m, big_v) if fname == "matvec" else (big_v, big_m)
        for _ in range(3):
            with pytest.warns(RuntimeWarning, match=f"overflow encountered in {fname}") as w:
                getattr(xnp, fname)(*[xnp.asarray(o) for o in ops])
            assert w[0].filename == __file__


@pytest.mark.parametrize("da,db", [(np.float32, np.float64), (np.float16, np.float32),
                                   (np.complex64, np.float64), (np.int32, np.complex128),
                                   (np.int64, np.float32), (np.bool_, np.float16)],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", ["C", "F"])
def test_mixed_dtype_matmul_and_einsum_are_numpys(da, db, order):
    """Operands of two dtypes: NumPy's matmul casts each into a C-contiguous buffer of the
    loop dtype, and its einsum casts them to their result dtype, before the same loops; xnp
    casts so, then calls them: NumPy's bits for F-ordered operands too, on every call."""
    rng = np.random.default_rng(8)
    for sa, sb in (((3, 5), (5,)), ((5,), (5, 4)), ((3, 5), (5, 4)), ((2, 3, 5), (5, 2))):
        a = np.asarray((rng.standard_normal(sa) * 3).astype(da), order=order)
        b = np.asarray((rng.standard_normal(sb) * 3).astype(db), order=order)
        sub = {1: "i", 2: "ij", 3: "bij"}[a.ndim] + "," + {1: "j" if a.ndim > 1 else "i",
                                                          2: "jk" if a.ndim > 1 else "ik",
                                                          3: "bjk"}[b.ndim]
        for _ in range(3):
            for got, want in ((xnp.matmul(xnp.asarray(a), xnp.asarray(b)), np.matmul(a, b)),
                              (xnp.asarray(a) @ b, a @ b),
                              (xnp.einsum(sub, xnp.asarray(a), xnp.asarray(b)),
                               np.einsum(sub, a, b))):
                _assert_bits(got, want)


# --------------------------------------------------------------------------- einsum


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["einsum"]}, key=str),
                         ids=str)
def test_einsum_is_numpys(ways, dt):
    """Without path optimisation an einsum of 2-8 operands of one dtype is eagerly NumPy's
    own (its sums of products, signs of zero, float16 accumulation); small integers and
    halves make the sums exact, so the decomposition and jit give NumPy's bits too (not
    for float16, whose accumulation NumPy runs in float32: kernel only). NumPy's einsum
    checks no floating-point error (an overflow is inf even under 'raise'), nor does it."""
    rng = np.random.default_rng(5)
    vals = np.array([0.0, -0.0, 1.0, -2.0, 0.5, 3.0])
    exact = np.dtype(dt).name != "float16"
    for sub, shapes in (("ij,jk->ik", ((3, 4), (4, 2))), ("ij,jk,k->i", ((2, 3), (3, 4), (4,))),
                        ("...j,jk", ((2, 3, 4), (4, 2))), ("ij,ij->", ((2, 3), (2, 3))),
                        ("ii,i->i", ((3, 3), (3,))), ("ij,kj->ki", ((2, 3), (4, 3))),
                        ("i,j->ij", ((3,), (2,))), ("ij,jk->ik", ((0, 3), (3, 2)))):
        ops = []
        for shp in shapes:
            v = vals[rng.integers(0, len(vals), shp)]
            if np.dtype(dt).kind == "c":
                v = _complex(v, v[::-1] if v.ndim == 1 else v[..., ::-1])
            with np.errstate(all="ignore"):
                ops.append(v.astype(dt))
        call = (lambda m, *a, s=sub: m.einsum(s, *a))
        if exact and np.dtype(dt).kind != "c":
            _check(ways, call, *ops, jit=np.dtype(dt).name in ("float64", "int8"))
            continue
        # the kernel bit for bit; complex: the decomposition and jit equal in value (their
        # real parts' signs of zero are not NumPy's sum-of-products ones)
        want = call(np, *ops)
        for way, got in ways(call, *ops, jit=np.dtype(dt).name == "complex128").items():
            if way == "kernel":
                _assert_bits(got, want, way)
            elif exact:
                np.testing.assert_array_equal(np.asarray(got), want, err_msg=way)
    if np.dtype(dt).kind in "fc":
        big = np.full((2, 2), np.finfo(dt).max, dt)
        with np.errstate(all="raise"):
            want = np.einsum("ij,jk", big, big)
            for _ in range(3):
                _assert_bits(xnp.einsum("ij,jk", xnp.asarray(big), xnp.asarray(big)), want)


# --------------------------------------------------------------------------- vdot


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["vdot"]}, key=str),
                         ids=str)
def test_vdot_is_numpys(ways, dt):
    """Small integers and halves (exact sums) with signed zeros, in 1-D, 2-D and empty
    operands; complex operands conjugate the first. Floating-point errors: NumPy's vdot
    checks none (an overflow is inf, silently, even under errstate 'raise'), nor does the
    kernel; the decomposition under jit checks none either."""
    rng = np.random.default_rng(4)
    vals = np.array([0.0, -0.0, 1.0, -2.0, 0.5, 3.0])
    for shape_a, shape_b in (((6,), (6,)), ((2, 3), (6,)), ((0,), (0,)), ((1,), (1,))):
        a = vals[rng.integers(0, len(vals), shape_a)]
        b = vals[rng.integers(0, len(vals), shape_b)]
        if np.dtype(dt).kind == "c":
            a, b = _complex(a, a[::-1] if a.ndim == 1 else a), _complex(b, -b)
        with np.errstate(all="ignore"):
            a, b = a.astype(dt), b.astype(dt)
        _check(ways, lambda m, x, y: m.vdot(x, y), a, b, jit=np.dtype(dt).name in (
            "float64", "int8", "complex128", "bool"))
    if np.dtype(dt).kind in "fc":
        big = np.full(3, np.finfo(dt).max, dt)
        with np.errstate(all="raise"):
            want = np.vdot(big, big)
            for _ in range(3):
                _assert_bits(xnp.vdot(xnp.asarray(big), xnp.asarray(big)), want)


# --------------------------------------------------------------------------- scalar_divide


def _scalar_divide(m, a, b):
    """NumPy's division of the NumPy scalars of 0-d ``a`` and ``b``, as a 0-d array of
    ``a``'s dtype; xnp's composite of it."""
    if m is np:
        return np.asarray(a[()] / b[()], dtype=a.dtype)
    return _slice_warnings.scalar_divide(a, b)


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8", "c16"])
def test_scalar_divide(ways, dtype):
    """The kernel (NumPy's scalar division), the decomposition run eagerly and (real) the
    jitted one give NumPy's quotient bit for bit, over special values; complex totals also
    over an intp count."""
    dt = np.dtype(dtype)
    values = _SPECIAL if dt.kind == "f" else [
        complex(r, i) for r, i in itertools.product(_SPECIAL[1:], [0.0, -1.0, np.inf])]
    for a, b in itertools.product(values, values):
        _check(ways, _scalar_divide, np.asarray(a, dt), np.asarray(b, dt), jit=dt.kind == "f")
    if dt.kind == "c":
        for a, n in itertools.product(values, (1, 3)):
            _check(ways, _scalar_divide, np.asarray(a, dt), np.asarray(n, np.intp), jit=False)


def test_scalar_divide_warns_as_numpy():
    """Its floating-point error is NumPy's scalar division's ("in scalar divide")."""
    a = np.asarray(complex(np.inf, np.nan))
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        _ = a[()] / np.intp(2)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        _slice_warnings.scalar_divide(xnp.asarray(a), xnp.asarray(np.intp(2)))
    assert [str(w.message) for w in got] == [str(w.message) for w in want] != []


# --------------------------------------------------------------------------- interp

_X = np.array([-1.0, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, np.nan, np.inf, -np.inf])


def _interp(m, x, xp, fp):
    return m.interp(x, xp, fp)


def _interp_lr(m, x, xp, fp):
    return m.interp(x, xp, fp, left=-7.0, right=-0.0)


def _interp_right(m, x, xp, fp):
    return m.interp(x, xp, fp, right=np.nan)


def _interp_complex_left(m, x, xp, fp):
    return m.interp(x, xp, fp, left=1 - 2j)


def _interp_period(m, x, xp, fp):
    return m.interp(x, xp, fp, period=-2.5)


def test_interp_is_numpys_loop(ways):
    """fp of special values on sample points 0, 1, 2 (NaN x, an x on a sample point next
    to an infinite or NaN value, flat segments, signed zeros; every pair of neighbours),
    repeated, infinite and close sample points, and the bounds given."""
    xp3, n = np.array([0.0, 1.0, 2.0]), len(_SPECIAL)
    for i, j in itertools.product(range(n), range(n)):
        a, b, c = _SPECIAL[i], _SPECIAL[j], _SPECIAL[(i + 2 * j) % n]
        _check(ways, _interp, _X, xp3, np.array([a, b, c]))
        _check(ways, _interp, _X, xp3, np.array([c, a, b]))
    pairs = list(itertools.product([0.0, -0.0, 1.0, np.inf, np.nan], repeat=2))
    for k, (xp, fp) in enumerate(itertools.product(
            ([0.0, 0.0], [-np.inf, 1.0], [1.0, np.inf], [0.0, 1e-300]), pairs)):
        _check(ways, (_interp_lr, _interp_right)[k % 2], _X, np.array(xp), np.array(fp))
    dup = np.array([-1.0, 0.0, 0.0, 1.0, 1.0, 2.0])
    _check(ways, _interp, _X, dup, np.arange(6.0) * -0.5)
    _check(ways, _interp, np.zeros((0, 2)), xp3, xp3)
    _check(ways, _interp, np.array(1.5), xp3, np.array([0.0, np.inf, 1.0]))
    _check(ways, _interp, _X.reshape(13, 1), np.array([0.5]), np.array([-0.0]))


def test_interp_complex_and_period(ways):
    rng = np.random.default_rng(0)
    for _ in range(40):
        re, im = rng.choice(_SPECIAL + [3.0], (2, 4))
        fp = _complex(re, im)
        _check(ways, _interp, _X, np.array([-1.0, 0.0, 0.0, 2.0]), fp)
        _check(ways, _interp_complex_left, _X, np.array([-1.0, 0.0, 1.0, 2.0]), fp)
    x = np.concatenate([_X, np.arange(-4.0, 4.0, 0.25)])
    # (inexact slopes: not under jit, whose fused multiply-adds round otherwise)
    xp = np.array([1.0, 3.25, -2.0625, 0.5, 6.125, 0.25])
    _check(ways, _interp_period, x, xp, np.arange(6.0) - 2, jit=False)
    _check(ways, _interp_period, x, xp, _complex(np.arange(6.0) - 2, np.arange(6.0)), jit=False)
    # sample points equal modulo the period: sorted stably both ways (NumPy's own sort
    # may order them otherwise, and its answer with them)
    xp = np.array([1.0, 3.5, -2.0, 0.5, 6.0, 0.25])
    got = ways(_interp_period, x, xp, np.arange(6.0) - 2, jit=False)
    _assert_bits(got["decomposition"], got["kernel"])


def test_interp_forms_keep_their_rules():
    """Inputs converted as before (ints, float32 fp, lists); left/right given as arrays; a
    bound that is not a scalar and the errors as NumPy."""
    x, xp, fp = np.arange(-1, 5), np.array([0, 1, 3]), np.array([2, -1, 4], np.float32)
    _assert_bits(xnp.interp(xnp.asarray(x), xp.tolist(), xnp.asarray(fp)), np.interp(x, xp, fp))
    lo = xnp.asarray(np.float32(-3.0))
    _assert_bits(xnp.interp(x, xp, fp, lo, np.array(9.0)), np.interp(x, xp, fp, -3.0, 9.0))
    for bad in ([1.0, 2.0], 1j):
        with pytest.raises(TypeError):
            xnp.interp(x, xp, fp, left=bad)
    for args in (([0.0, 1.0], [1.0]), ([], []), ([0.0, 1.0], [1.0, 2.0], None, None, 0)):
        with pytest.raises(ValueError):
            xnp.interp(x, *args)


# --------------------------------------------------------------------------- cross


def _values(dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array([0, 1, 3, info.max, info.min, info.max - 1], dtype=dt)
    if dt.kind == "c":
        re = np.array(_SPECIAL)
        return _complex(re[:, None], re[None, :]).ravel().astype(dt)
    return np.array(_SPECIAL).astype(dt)


def _cross(m, a, b):
    return m.cross(a, b)


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["cross"]}, key=str),
                         ids=str)
def test_cross_is_numpys(ways, dt):
    """Vectors of special values of each dtype the kernel serves, for 3- and 2-vectors
    (NumPy's 2-vector branches take no product with the missing zero); under jit for
    float64, int8 and complex128 only (a compilation per dtype and form)."""
    rng = np.random.default_rng(1)
    jit = dt.name in ("float64", "int8", "complex128")
    for na, nb in ((3, 3), (2, 3), (3, 2), (2, 2)):
        a, b = rng.choice(_values(dt), (60, na)), rng.choice(_values(dt), (60, nb))
        _check(ways, _cross, a, b, jit=jit)


def test_cross_axes_and_forms(ways):
    rng = np.random.default_rng(2)
    a, b = rng.integers(-4, 4, (3, 4)) / 2, rng.integers(-4, 4, (3, 1)) / 2
    _check(ways, lambda m, s, t: m.cross(s, t, axis=0), a, b)
    _check(ways, lambda m, s, t: m.cross(s, t, axisa=0, axisc=0), a[:2], rng.random((5, 1, 3)))
    _check(ways, _cross, np.zeros((0, 3)), np.ones(3), jit=False)
    _check(ways, _cross, np.arange(3), np.ones(3, np.float32), jit=False)
    _check(ways, lambda m, s, t: m.linalg.cross(s, t, axis=0), a, a[::-1].copy(), jit=False)
    for bad in (np.ones((2, 4)), np.ones(())):
        with pytest.raises(ValueError):
            xnp.cross(xnp.asarray(bad), xnp.asarray(np.ones(3)))
    with pytest.raises(TypeError):
        xnp.cross(xnp.asarray([True, False, True]), xnp.asarray([True, True, False]))
    with pytest.warns(DeprecationWarning):
        xnp.cross(xnp.asarray([1.0, 2.0]), xnp.asarray([1.0, 2.0, 3.0]))
    # 1-D unsigned 2-vectors wrap around without a warning, as NumPy's array loops
    for sa, sb in ((2, 2), (2, 3), (3, 2)):
        a, b = np.arange(1, sa + 1, dtype=np.uint8), np.arange(sb + 2, 2, -1, dtype=np.uint8)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.simplefilter("error", RuntimeWarning)
            got, want = xnp.cross(xnp.asarray(a), xnp.asarray(b)), np.cross(a, b)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == want.dtype


# --------------------------------------------------------------------------- clip


def _clip(m, a, lo, hi):
    return m.clip(a, lo, hi)


@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["clip"]}, key=str),
                         ids=str)
def test_clip_is_numpys(ways, dt):
    """Every triple of special values (bounds varying along ``a``: at a tie NumPy's loop
    takes the bound) and every pair of 0-d bounds (it keeps the element), NaN bounds and
    ``min > max``; under jit for float64, float16, int8 and bool only."""
    v = _values(dt) if dt.kind != "b" else np.array([False, True])
    jit = dt.name in ("float64", "float16", "int8", "bool")
    a, lo, hi = np.array(list(itertools.product(v, v, v)), dtype=dt).T
    _check(ways, _clip, a, lo, hi, jit=jit)
    for lo, hi in itertools.product(v, v):
        _check(ways, _clip, v, np.asarray(lo), np.asarray(hi), jit=jit)


def test_clip_forms(ways):
    x = np.array([-1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 2.0, np.nan])
    for sa, sl, sh in (((8,), (1,), ()), ((2, 4), (2, 1), ()), ((2, 4), (1, 1), (1, 1)),
                       ((2, 4), (4,), (2, 1)), ((), (3,), (2, 1)), ((0, 3), (), ())):
        for lo, hi in ((0.0, 0.5), (-0.0, 0.0), (0.5, -0.5), (np.nan, 1.0)):
            ops = np.resize(x, sa), np.full(sl, lo), np.full(sh, hi)
            _check(ways, _clip, *ops, jit=False)
    for call in (lambda m, a: m.clip(a, -0.5, 0.5), lambda m, a: m.clip(a, a_min=0, a_max=0.5),
                 lambda m, a: m.clip(a, None, -0.0), lambda m, a: m.clip(a, min=0.0)):
        _check(ways, call, x, jit=False)
    i8 = np.arange(-4, 4, dtype=np.int8)
    for call in (lambda m, a: m.clip(a, -1000, 3), lambda m, a: m.clip(a, 0, 2.5),
                 lambda m, a: m.clip(a, np.int8(1), 300)):
        _check(ways, call, i8, jit=False)
    out = xnp.zeros(8)
    assert xnp.clip(xnp.asarray(x), -0.5, 0.5, out=out) is out
    _assert_bits(out, np.clip(x, -0.5, 0.5))
    with pytest.raises(TypeError):  # a_min twice, as NumPy's clip
        xnp.clip(xnp.asarray(x), 0, 1, a_min=0)


# --------------------------------------------------------------------------- replay, transforms

_RNG = np.random.default_rng(3)
_V = _RNG.standard_normal((4, 3))
#: (function, call, operands, equations): a repeated eager call replays the kernel, after
#: the constants of its scalar arguments and the conversions of its operands
_REPLAYED = [
    (xnp.interp, lambda m, x, p, f: m.interp(x, p, f), (_RNG.uniform(-1, 3, 7), np.arange(3.0),
                                                        _RNG.standard_normal(3)), 1),
    (xnp.interp, lambda m, x, p, f: m.interp(x, p, f, left=-1.0, right=1j),
     (_RNG.uniform(-1, 3, 7), np.arange(3.0), _complex(*_RNG.standard_normal((2, 3)))), 3),
    (xnp.interp, lambda m, x, p, f: m.interp(x, p, f, period=2.5),
     (_RNG.uniform(-1, 3, 7), np.array([0.5, 2.0, 0.0]), _RNG.standard_normal(3)), 2),
    (xnp.cross, lambda m, a, b: m.cross(a, b), (_V, _V[::-1].copy()), 1),
    (xnp.cross, lambda m, a, b: m.cross(a, b), (_V[0], _V[1].astype(np.float32)), 2),
    (xnp.linalg.cross, lambda m, a, b: m.linalg.cross(a, b), (_V, _V[::-1].copy()), 1),
    (xnp.clip, lambda m, a: m.clip(a, -0.5, 0.5), (_RNG.standard_normal(10),), 3),
    (xnp.clip, lambda m, a, lo: m.clip(a, lo, 1), (_RNG.integers(-9, 9, (2, 5)),
                                                   _RNG.integers(-9, 9, 5)), 3),
]


def _program(fn):
    cache = getattr(fn, "_replay_cache", None)
    while cache is None:
        fn = fn.__wrapped__
        cache = getattr(fn, "_replay_cache", None)
    ((program,),) = [cache.values()]
    return program


@pytest.mark.parametrize("case", range(len(_REPLAYED)))
def test_eager_calls_replay_one_kernel(case):
    fn, call, ops, n_eqns = _REPLAYED[case]
    _replay.clear()
    for k in range(3):  # the third call a replay, on new values
        new = [o * (k + 1) for o in ops]
        _assert_bits(call(xnp, *[xnp.asarray(o) for o in new]), call(np, *new))
    assert _replay.stats(fn) == {"programs": 1, "refused": []}
    assert len(_program(fn).eqns) == n_eqns, _program(fn).eqns
    assert "composite" not in str(xnp.make_jaxpr(lambda *a: call(xnp, *a))(*ops))


def test_gradients_and_vmap_run_the_decomposition():
    xp, fp = np.array([-1.0, 0.0, 0.5, 2.0]), np.array([1.0, -2.0, 0.5, 3.0])
    x = np.array([-1.5, -1.0, 0.0, 0.2, 0.5, 1.1, 2.0, 2.5])
    g = xnp.grad(lambda t: xnp.sum(xnp.interp(t, xp, fp)))(x)
    # the slope of the segment on the right of a sample point; 0 outside and at the last
    np.testing.assert_allclose(np.asarray(g), [0, -3, 5, 5, 5 / 3, 5 / 3, 0, 0], rtol=1e-15)
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.grad(
        lambda t: xnp.sum(xnp.interp(t, xp, fp))))(x)), np.asarray(g))
    a, b = _V, _V[::-1].copy()
    ga = xnp.grad(lambda t: xnp.sum(xnp.cross(t, b) * a))(a)
    np.testing.assert_allclose(np.asarray(ga), np.cross(b, a), rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(xnp.vmap(lambda s, t: xnp.cross(s, t))(a, b)),
                                  np.cross(a, b))
    c = np.array([-1.0, -0.5, 0.0, 0.5, 0.7])
    gc = xnp.grad(lambda t: xnp.sum(xnp.clip(t, -0.5, 0.5) * xnp.arange(5.0)))(c)
    np.testing.assert_array_equal(np.asarray(gc), [0, 1, 2, 3, 0])


# --------------------------------------------------------------------------- convolve


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("dt", sorted({s[0] for s in FUNCTION_KERNELS["convolve"]}, key=str),
                         ids=str)
def test_convolve_and_correlate_are_numpys(ways, fn, dt):
    """Every dtype the kernels serve, every mode, both length orders (convolve swaps the
    longer operand first; correlate keeps NumPy's lags), on values whose sums are exact in
    any order (small integers, halves, infinities and NaN for the inexact dtypes: the
    kernel's dot products and the convolution's may add in other orders); under jit for
    float64, int8, bool and complex128 only (a compilation per form)."""
    rng = np.random.default_rng(3)
    dt = np.dtype(dt)
    if dt.kind == "b":
        pool = np.array([True, False])
    elif dt.kind in "iu":
        pool = np.array([0, 1, 3, 7], dtype=dt)
    elif dt.kind == "c":
        pool = _complex(np.array([0.0, 1.0, -2.5, 0.5])[:, None],
                        np.array([0.0, -1.0, 2.0])[None, :]).ravel().astype(dt)
    else:
        pool = np.array([0.0, 1.0, -2.5, 0.5, 2.0], dtype=dt)
    jit = dt.name in ("float64", "int8", "bool", "complex128")
    for m, n in ((6, 3), (3, 6), (5, 5), (1, 4), (4, 1)):
        a, v = rng.choice(pool, m), rng.choice(pool, n)
        for mode in ("full", "same", "valid"):
            _check(ways, lambda mod, x, y: getattr(mod, fn)(x, y, mode), a, v, jit=jit)
    if dt.kind == "f":  # NaN and infinities propagate as NumPy's
        a = np.array([1.0, np.inf, 0.5, np.nan, -np.inf, 2.0], dtype=dt)
        v = np.array([0.5, 1.0, -1.0], dtype=dt)
        for mode in ("full", "same", "valid"):
            _check(ways, lambda mod, x, y: getattr(mod, fn)(x, y, mode), a, v, jit=jit)


@pytest.mark.parametrize("name", ["matmul", "matvec", "vecmat", "einsum", "vdot"])
def test_product_kernels_differentiate_by_their_decomposition(name):
    """Under grad the products whose eager kernel is NumPy's run their decomposition: the
    gradient of ``sum(w * f(a, b))`` with respect to ``a`` is the closed form, at operands
    holding zeros, signed zeros and ties, eagerly and under jit."""
    a = np.array([[0.0, -0.0, 1.5], [2.0, 2.0, -1.0]])
    b = np.array([[1.0, 0.0], [-0.0, 3.0], [2.0, 2.0]])
    v, w2 = np.array([0.0, -2.0, 2.0]), np.array([[1.0, -1.0], [0.5, 2.0]])
    cases = {  # f, its operands, the closed-form d sum(w * f) / d a
        "matmul": (lambda m, x, y: m.matmul(x, y), (a, b), w2 @ b.T),
        "matvec": (lambda m, x, y: m.matvec(x, y), (a, v), np.outer(w2[0], v)),
        "vecmat": (lambda m, x, y: m.vecmat(x, y), (v, b), b @ w2[0]),
        "einsum": (lambda m, x, y: m.einsum("ij,jk->ik", x, y), (a, b), w2 @ b.T),
        "vdot": (lambda m, x, y: m.vdot(x, y), (v, v[::-1].copy()), v[::-1] * 1.0),
    }
    f, ops, want = cases[name]
    weight = {"matmul": w2, "einsum": w2, "matvec": w2[0], "vecmat": w2[0], "vdot": 1.0}[name]

    def loss(x):
        return xnp.sum(weight * f(xnp, x, *[xnp.asarray(o) for o in ops[1:]]))

    for g in (xnp.grad(loss)(xnp.asarray(ops[0])), xnp.jit(xnp.grad(loss))(ops[0])):
        np.testing.assert_array_equal(np.asarray(g), want)
