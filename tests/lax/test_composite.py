"""Composite operations (``xnp.lax.composite``): eagerly the backend's kernel, under jit and
every transformation the decomposition. Each kernel of the NumPy backend
(``xnp/backends/xp_impls/composite.py``) must compute exactly what its decomposition
computes -- values, NaN positions, signed zeros, dtype, weak type -- checked here on grids
of special values for every dtype signature it serves; and the public functions agree with
NumPy eagerly and under jit."""

import itertools
import warnings

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.backends.numpy import BACKEND
from xnp.backends.xp_impls.composite import KERNELS, MATRIX_KERNELS
from xnp.numpy_api import _replay

# name -> (public function, operand builder for a dtype signature)
_FLOAT_SPECIALS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 3.0, 1e-30, -7e20,
                   np.inf, -np.inf, np.nan]


def _float_grid(dt, n, subnormal=True):
    info = np.finfo(dt)
    vals = np.array(_FLOAT_SPECIALS + [info.tiny, -info.tiny, info.max, -info.max]
                    + ([info.smallest_subnormal, -info.smallest_subnormal] if subnormal else []),
                    dtype=np.float64)
    with np.errstate(over="ignore"):
        vals = vals.astype(dt)
    if n == 1:
        return (vals,)
    a, b = zip(*itertools.product(vals, vals))
    return np.array(a, dtype=dt), np.array(b, dtype=dt)


def _int_grid(dt, n):
    info = np.iinfo(dt)
    vals = sorted({0, 1, 2, 3, 6, 12, 35, info.max, info.max - 1, info.min, info.min + 1}
                  | ({-1, -6, -12} if info.min < 0 else set()))
    vals = np.array(vals, dtype=dt)
    if n == 1:
        return (vals,)
    a, b = zip(*itertools.product(vals, vals))
    return np.array(a, dtype=dt), np.array(b, dtype=dt)


def _grid(sig, subnormal=True):
    dt = sig[0]
    if dt.kind == "f":
        ops = _float_grid(dt, len(sig), subnormal)
    elif dt.kind in "iu":
        ops = _int_grid(dt, len(sig))
    elif dt.kind == "c":
        re = _float_grid(np.dtype(np.float32 if dt.itemsize == 8 else np.float64), 1)[0]
        z = (re[:, None] + 1j * re[None, :]).ravel().astype(dt)
        ops = (z,) if len(sig) == 1 else (z, z[::-1].copy())
    else:
        ops = (np.array([False, True, True, False]),) * len(sig)
        ops = ops if len(sig) == 1 else (ops[0], np.array([False, False, True, True]))
    out = []
    for d, o in zip(sig, ops):
        if o.dtype != d:  # (ldexp's int32 exponents)
            o = np.array([-1100, -60, -1, 0, 1, 7, 60, 1100] * (o.size // 8 + 1),
                         dtype=d)[:o.size]
        out.append(o)
    return out


_PUBLIC = {"frexp": xnp.frexp, "modf": xnp.modf}


def _cases():
    for name in sorted(KERNELS):
        for sig in sorted(KERNELS[name], key=str):
            yield pytest.param(name, sig, id=f"{name}-{'-'.join(d.name for d in sig)}")


def _public(name):
    return getattr(xnp, name)


def _call(name, ops):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's own warnings (overflow, invalid)
        with np.errstate(all="ignore"):
            return _public(name)(*[xnp.asarray(o) for o in ops])


def _as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


# NumPy's loops of these transcendental functions round differently from their
# decompositions (which compose exp/log1p, a scaled square root or, for sinc near 0, a
# series, and are what jit computes) by up to two units in the last place here; four are
# allowed, as NumPy's own exp/log1p/sin loops (SIMD on some CPUs, libm on others) move
# the decomposition's rounding between machines: eagerly xnp gives NumPy's value
_ULPS = {"hypot": 4, "logaddexp": 4, "logaddexp2": 4, "sinc": 4}
# which of equal zeros fmax/fmin return is not promised by NumPy (it depends on the
# machine's SIMD code): under jit the sign of a zero result at a tie is not compared
_TIE_ZERO_SIGN_FREE = {"fmax", "fmin"}


def _same(got, want, ulps=0, zero_sign=True, flushed=False):
    """Equal values (within ``ulps`` units in the last place), NaN positions, signs of
    zeros (a NaN's sign bit is not compared; nor zeros' with ``zero_sign=False``) and
    dtypes; ``flushed``: where ``want`` is subnormal, ``got`` may be a zero of its sign
    (XLA's CPU code flushes subnormal results, README "Subnormal numbers")."""
    for g, w in zip(_as_list(got), _as_list(want)):
        g, w = np.array(g), np.asarray(w)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        if g.dtype.kind == "V":  # ml_dtypes' floats: compared as float32 (exactly)
            g, w = g.astype(np.float32), w.astype(np.float32)
        if flushed and w.dtype.kind == "f":
            sub = (w != 0) & (np.abs(w) < np.finfo(w.dtype).tiny) & (g == 0)
            g[sub] = w[sub]
        if ulps:
            np.testing.assert_array_max_ulp(g, w, maxulp=ulps)
        else:
            np.testing.assert_array_equal(g, w)
        if g.dtype.kind == "f":
            ok = ~np.isnan(w) & (zero_sign | (w != 0))
            np.testing.assert_array_equal(np.signbit(g[ok]), np.signbit(w[ok]))


@pytest.fixture
def no_cache():
    """Every call takes the full path (a replay would repeat the first call's kernel)."""
    _replay.clear()
    with xnp.config.override(eager_dispatch_cache=False):
        yield
    _replay.clear()


@pytest.mark.parametrize("name, sig", list(_cases()))
def test_kernel_computes_the_decomposition(name, sig, no_cache, monkeypatch):
    ops = _grid(sig)
    kernel = _call(name, ops)
    monkeypatch.setattr(BACKEND, "kernels", {})  # every composite runs its decomposition
    decomposed = _call(name, ops)
    # (fmax/fmin's decomposition selects over numpy.maximum, whose zero at a tie of 0.0 and
    # -0.0 NumPy's SIMD loops pick differently on different CPUs)
    _same(kernel, decomposed, _ULPS.get(name, 0), name not in _TIE_ZERO_SIGN_FREE)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(*ops)
    _same(kernel, want)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_under_jit_the_decomposition_runs(name, no_cache):
    """A jitted call stages the decomposition (no composite in the jaxpr) and agrees with
    the eager kernel (not on subnormal floats, which XLA's CPU code may flush to zero)."""
    sig = sorted(KERNELS[name], key=str)[-1]
    ops = _grid(sig, subnormal=False)
    fn = _public(name)
    jaxpr = str(xnp.make_jaxpr(fn)(*[xnp.asarray(o) for o in ops]))
    assert "composite" not in jaxpr
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(xnp.jit(fn)(*[xnp.asarray(o) for o in ops]), _call(name, ops),
              _ULPS.get(name, 0), name not in _TIE_ZERO_SIGN_FREE, flushed=True)


def test_weak_type_of_python_scalar_operands(no_cache, monkeypatch):
    """Kernel and decomposition give the same weak type (what a later operation promotes
    with), for Python-scalar operands too."""
    for fn in (lambda: xnp.logaddexp(1.0, 2.0), lambda: xnp.copysign(1.0, -2.0),
               lambda: xnp.fmax(1.0, float("nan")), lambda: xnp.hypot(3.0, 4.0)):
        with xnp.config.override(eager_dispatch_cache=False):
            r1 = fn() * np.float32(1)
            monkeypatch.setattr(BACKEND, "kernels", {})
            r2 = fn() * np.float32(1)
            monkeypatch.undo()
        assert np.asarray(r1).dtype == np.asarray(r2).dtype


def test_eager_calls_replay_one_primitive():
    """Eagerly a composite is one recorded primitive: the dispatch cache replays it."""
    _replay.clear()
    x = xnp.asarray(np.linspace(-2, 2, 12).reshape(3, 4))
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(xnp.logaddexp(x, x)),
                                      np.logaddexp(np.asarray(x), np.asarray(x)))
    st = _replay.stats(xnp.logaddexp)
    assert st["programs"] == 1 and not st["refused"], st


def test_grad_and_vmap_use_the_decomposition():
    x = np.array([0.5, -1.0, 2.0])
    g = xnp.grad(lambda t: xnp.logaddexp(t, 1.0).sum())(xnp.asarray(x))
    np.testing.assert_allclose(np.asarray(g), np.exp(x - np.logaddexp(x, 1.0)), rtol=1e-12)
    v = xnp.vmap(lambda t: xnp.copysign(t, -1.0))(xnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(v), np.copysign(x, -1.0))


def test_lax_composite_without_a_kernel_runs_the_decomposition():
    def twice(a):
        return lax.add(a, a)

    x = xnp.asarray(np.arange(3.0))
    np.testing.assert_array_equal(np.asarray(lax.composite("no_such_kernel", twice, x)),
                                  np.arange(3.0) * 2)


@pytest.mark.parametrize("name, shapes", [
    ("ldexp", ((2, 3), (3,))), ("ldexp", ((3, 1), (4,))), ("ldexp", ((4,), (3, 4))),
    ("heaviside", ((2, 3), (3,))), ("copysign", ((3, 1), (4,))), ("logaddexp", ((4,), (2, 4))),
    ("floor_divide", ((2, 3), (3,))), ("fmax", ((3, 1), (1, 4))), ("gcd", ((2, 3), (3,))),
])
def test_operands_of_different_ranks_broadcast(name, shapes):
    """The kernel gets operands of equal rank (NumPy's broadcasting checked first)."""
    rng = np.random.default_rng(1)
    ints = name in ("gcd", "ldexp")
    ops = [rng.integers(1, 20, s) if ints else rng.standard_normal(s) for s in shapes]
    if name == "ldexp":
        ops[0] = ops[0].astype(np.float64)
        ops[1] = ops[1].astype(np.int32)
    want = getattr(np, name)(*ops)
    for fn in (getattr(xnp, name), xnp.jit(getattr(xnp, name))):
        _same(fn(*[xnp.asarray(o) for o in ops]), want, _ULPS.get(name, 0))
    with pytest.raises(ValueError, match=name):
        getattr(xnp, name)(*[xnp.asarray(np.ones(n, o.dtype)) for n, o in zip((3, 4), ops)])


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dt, scalar", [(np.uint8, 256), (np.int8, -1000), (np.uint8, -1),
                                        (np.int8, 2**63 - 1), (np.float16, 1e10),
                                        (np.int16, 0.5), (np.uint8, 1j), (np.int8, 0)])
def test_logical_functions_take_a_python_scalar_by_its_truth(op, dt, scalar):
    """NumPy's logical loops take any operand's truth value: a Python int outside the
    array's integer dtype or a float beyond float16's range neither wraps nor warns,
    eagerly and as a Python int argument of jit."""
    x = np.array([0, 2], dt)
    want = getattr(np, op)(x, scalar)
    with np.errstate(all="raise"):
        got = getattr(xnp, op)(xnp.asarray(x), scalar)
        np.testing.assert_array_equal(np.asarray(got), want)
        np.testing.assert_array_equal(np.asarray(getattr(xnp, op)(scalar, xnp.asarray(x))),
                                      getattr(np, op)(scalar, x))
    if type(scalar) is int:
        jitted = xnp.jit(lambda a, s: getattr(xnp, op)(a, s))
        np.testing.assert_array_equal(np.asarray(jitted(xnp.asarray(x), scalar)), want)


def test_logical_functions_reject_python_ints_beyond_int64():
    x = xnp.asarray(np.array([0, 2], np.int8))
    for v in (2**63, -2**63 - 1, 2**64):
        with pytest.raises(OverflowError):
            np.logical_or(np.array([0, 2], np.int8), v)
        with pytest.raises(OverflowError, match="logical_or"):
            xnp.logical_or(x, v)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2", "hypot"])
def test_float16_under_jit_computes_in_float32(name):
    """As NumPy's half loops: in float32, rounded once (in float16 the cancellation of
    logaddexp near 0 flipped signs: jit logaddexp(-1.407, -0.2808) was -0.000244)."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(20000).astype(np.float16) for _ in range(2))
    got = np.asarray(xnp.jit(getattr(xnp, name))(xnp.asarray(a), xnp.asarray(b)))
    want = getattr(np, name)(a, b)
    np.testing.assert_array_max_ulp(got, want, maxulp=2)  # (1 here; libm/XLA rounding)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dt", [np.float16, "bfloat16"])
def test_narrow_float_frexp_and_ldexp(dt):
    """bfloat16 (no NumPy finfo) and float16 frexp/ldexp as NumPy with ml_dtypes computes
    them, eagerly and under jit; ldexp results that are subnormal in float16 survive jit
    (computed in float32, rounded once)."""
    import ml_dtypes  # noqa: PLC0415

    dt = np.dtype(getattr(ml_dtypes, dt) if isinstance(dt, str) else dt)
    x = np.array([0.0, -0.0, 1.5, -3.0, 0.001, 6e4, np.inf, np.nan], dtype=np.float64).astype(dt)
    k = np.array([1, 2, 3, -1, -15, 5, 1, 1], np.int32)
    for fn in (xnp.frexp, xnp.jit(xnp.frexp)):
        _same(fn(xnp.asarray(x)), np.frexp(x))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.ldexp(x, k)
        for fn in (xnp.ldexp, xnp.jit(xnp.ldexp)):
            _same(fn(xnp.asarray(x), xnp.asarray(k)), want)


def test_frexp_mantissa_derivative():
    """d mantissa / dx = 2**-e (finite differences at ordinary points; at a power of two,
    a kink, the side of frexp's own exponent; the tangent passes through 0 and inf),
    under grad, jit(grad) and vmap(grad); the exponent has none."""
    xs = np.array([3.0, 0.3, -5.5, 1e-3, 7e10])
    grad = xnp.grad(lambda x: xnp.frexp(x)[0])
    h = 1e-7 * np.abs(xs)
    fd = (np.frexp(xs + h)[0] - np.frexp(xs - h)[0]) / (2 * h)
    for fn in (lambda v: np.array([float(grad(float(t))) for t in v]),
               lambda v: np.asarray(xnp.jit(xnp.vmap(grad))(xnp.asarray(v)))):
        np.testing.assert_allclose(fn(xs), fd, rtol=1e-6)
        np.testing.assert_array_equal(fn(xs), 2.0 ** -np.frexp(xs)[1])
    kinks = np.array([1024.0, 0.5, -2.0])
    np.testing.assert_array_equal(
        np.asarray(xnp.vmap(grad)(xnp.asarray(kinks))), 2.0 ** -np.frexp(kinks)[1])
    for x0 in (0.0, np.inf):
        assert float(grad(x0)) == 1.0


# --------------------------------------------------------------------------- general composites

def _matrix_cases():
    for name in sorted(MATRIX_KERNELS):
        for sig in sorted(MATRIX_KERNELS[name], key=str):
            yield pytest.param(name, sig, id=f"{name}-{sig[0].name}")


def _matrix_operands(name, dt, shape_a=(2, 3, 3)):
    rng = np.random.default_rng(7)

    def draw(shape):
        v = rng.standard_normal(shape)
        if np.dtype(dt).kind == "c":
            v = v + 1j * rng.standard_normal(shape)
        return v

    a = (draw(shape_a) + 4 * np.eye(shape_a[-1])).astype(dt)  # well conditioned
    return (a, draw(shape_a[:-1] + (2,)).astype(dt)) if name == "linalg.solve" else (a,)


@pytest.mark.parametrize("name, sig", list(_matrix_cases()))
def test_matrix_kernel_computes_the_decomposition(name, sig, no_cache, monkeypatch):
    """The kernel (numpy.linalg, LAPACK) agrees with the decomposition within rounding, has
    its dtype and shape, and raises its error on a singular matrix."""
    fn = _fn_of(name)
    ops = _matrix_operands(name, sig[0])
    kernel = fn(*[xnp.asarray(o) for o in ops])
    want = getattr(np.linalg, name.split(".")[1])(*ops)
    np.testing.assert_array_equal(np.asarray(kernel), want)  # eagerly NumPy's own result
    singular = (np.ones((3, 3), sig[0]),) + ops[1:]
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        fn(*[xnp.asarray(o) for o in singular])
    monkeypatch.setattr(BACKEND, "kernels", {})  # every composite runs its decomposition
    decomposed = fn(*[xnp.asarray(o) for o in ops])
    assert np.asarray(decomposed).dtype == want.dtype and decomposed.shape == want.shape
    tol = 1e-5 if np.dtype(sig[0]) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(np.asarray(decomposed), want, rtol=tol, atol=tol)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        fn(*[xnp.asarray(o) for o in singular])


def _fn_of(name):
    f = xnp
    for part in name.split("."):
        f = getattr(f, part)
    return f


@pytest.mark.parametrize("name", sorted(MATRIX_KERNELS))
def test_matrix_composites_replay_and_stage_their_decomposition(name):
    fn = _fn_of(name)
    ops = [xnp.asarray(o) for o in _matrix_operands(name, np.float64)]
    _replay.clear()
    for _ in range(3):
        fn(*ops)
    assert _replay.stats(fn) == {"programs": 1, "refused": []}
    assert "composite" not in str(xnp.make_jaxpr(fn)(*ops))
    np.testing.assert_allclose(np.asarray(xnp.jit(fn)(*ops)), np.asarray(fn(*ops)),
                               rtol=1e-12)
    # empty stacks and 0 x 0 matrices, as NumPy
    for shape in ((0, 3, 3), (0, 0)):
        empty = _matrix_operands(name, np.float64, shape)
        want = getattr(np.linalg, name.split(".")[1])(*empty)
        got = fn(*[xnp.asarray(o) for o in empty])
        assert got.shape == want.shape and np.asarray(got).dtype == want.dtype
