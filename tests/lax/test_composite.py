"""Composite operations (``xnp.lax.composite``): eagerly the backend's kernel, under jit and
every transformation the decomposition. Each kernel of the NumPy backend
(``xnp/backends/xp_impls/composite.py``) must compute exactly what its decomposition
computes -- values, NaN positions, signed zeros, dtype, weak type -- checked here on grids
of special values for every dtype signature it serves; and the public functions agree with
NumPy eagerly and under jit."""

import functools
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
        re = _float_grid(np.dtype(np.float32 if dt.itemsize == 8 else np.float64), 1,
                         subnormal)[0]
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


_SNAN = float(np.frombuffer(np.array([0x7FF0000000000001], np.uint64).tobytes(),
                            np.float64)[0])


def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = np.asarray(fn())
    return out.tolist(), [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.bool_, np.complex64])
@pytest.mark.parametrize("scalar", [_SNAN, complex(0.0, _SNAN), float("nan")])
def test_logical_functions_cast_a_signalling_nan_python_float_as_numpy(op, dt, scalar):
    """NumPy casts a Python float (complex) operand to its bool loop: a signalling NaN's
    cast warns "invalid value encountered in cast" beside an array of any dtype (a quiet
    NaN's does not), raises under errstate 'raise'; under jit when the function traces."""
    x = np.array([0, 1, 2]).astype(dt)
    for args, xargs in (((x, scalar), (xnp.asarray(x), scalar)),
                        ((scalar, x), (scalar, xnp.asarray(x)))):
        want = _caught(lambda: getattr(np, op)(*args))
        assert _caught(lambda: getattr(xnp, op)(*xargs)) == want
        with np.errstate(invalid="raise"):
            if want[1]:
                with pytest.raises(FloatingPointError, match="invalid value encountered in "
                                                             "cast"):
                    getattr(xnp, op)(*xargs)
        jitted = xnp.jit(lambda a: getattr(xnp, op)(*((a, scalar) if args[0] is x else
                                                      (scalar, a))))
        assert _caught(lambda: jitted(xnp.asarray(x))) == want
    assert _caught(lambda: getattr(xnp, op)(scalar, scalar)) == \
        _caught(lambda: getattr(np, op)(scalar, scalar))


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
# Each general composite's kernel (numpy.linalg, LAPACK, through the wrappers of
# xnp/backends/xp_impls/composite.py) against NumPy's own result and against its
# decomposition (the kernels table emptied). The decompositions' eager LAPACK primitives
# (xnp/backends/xp_impls/decompositions.py) call the same numpy.linalg routines as the
# kernels for eigh, svd and eig, so their eigen- and singular vectors are compared as they
# are; eigvalsh (syevd without vectors), cholesky's upper factor (potrf 'U'), det, slogdet,
# lstsq (gelsd) and norm (a dot product) are other algorithms: within rounding.


def _spd(v):
    return v @ np.conj(np.swapaxes(v, -1, -2)) + 3 * np.eye(v.shape[-1])


def _first(v):
    return v.reshape((-1,) + v.shape[-2:])[0]


# name -> (the public call on xp with the operands, the operands from random draws of
# shape (2, 3, 3), a bad input for the same call and the error both ways, or None)
_MATRIX = {
    "linalg.solve": (lambda xp, a, b: xp.linalg.solve(a, b), lambda v, w: (v + 4 * np.eye(3), w),
                     "Singular matrix"),
    "linalg.inv": (lambda xp, a: xp.linalg.inv(a), lambda v, w: (v + 4 * np.eye(3),),
                   "Singular matrix"),
    "linalg.det": (lambda xp, a: xp.linalg.det(a), lambda v, w: (v,), None),
    "linalg.slogdet": (lambda xp, a: tuple(xp.linalg.slogdet(a)), lambda v, w: (v,), None),
    "linalg.cholesky": (lambda xp, a: xp.linalg.cholesky(a), lambda v, w: (_spd(v),),
                        "Matrix is not positive definite"),
    "linalg.cholesky_upper": (lambda xp, a: xp.linalg.cholesky(a, upper=True),
                              lambda v, w: (_spd(v),), "Matrix is not positive definite"),
    "linalg.eigh": (lambda xp, a: tuple(xp.linalg.eigh(a)), lambda v, w: (_spd(v),),
                    "Eigenvalues did not converge"),
    "linalg.eigh_upper": (lambda xp, a: tuple(xp.linalg.eigh(a, UPLO="U")),
                          lambda v, w: (_spd(v),), "Eigenvalues did not converge"),
    "linalg.eigvalsh": (lambda xp, a: xp.linalg.eigvalsh(a), lambda v, w: (_spd(v),),
                        "Eigenvalues did not converge"),
    "linalg.eigvalsh_upper": (lambda xp, a: xp.linalg.eigvalsh(a, UPLO="U"),
                              lambda v, w: (_spd(v),), "Eigenvalues did not converge"),
    "linalg.svd": (lambda xp, a: tuple(xp.linalg.svd(a)), lambda v, w: (v[:, :2],),
                   "SVD did not converge"),
    "linalg.svd_reduced": (lambda xp, a: tuple(xp.linalg.svd(a, full_matrices=False)),
                           lambda v, w: (v[:, :, :2],), "SVD did not converge"),
    "linalg.svdvals": (lambda xp, a: xp.linalg.svdvals(a), lambda v, w: (v[:, :2],),
                       "SVD did not converge"),
    "linalg.cond": (lambda xp, a: xp.linalg.cond(a), lambda v, w: (v,), "SVD did not converge"),
    "linalg.cond_inverse": (lambda xp, a: xp.linalg.cond(a, -2), lambda v, w: (v,),
                            "SVD did not converge"),
    "linalg.eig": (lambda xp, a: tuple(xp.linalg.eig(a)), lambda v, w: (v,),
                   "Array must not contain infs or NaNs"),
    "linalg.eigvals": (lambda xp, a: xp.linalg.eigvals(a), lambda v, w: (v,),
                       "Array must not contain infs or NaNs"),
    "linalg.norm": (lambda xp, a: xp.linalg.norm(a), lambda v, w: (v,), None),
    # (M > N: NumPy's residuals, as the rank is N)
    "linalg.lstsq": (lambda xp, a, b: tuple(xp.linalg.lstsq(a, b)),
                     lambda v, w: (v.reshape(6, 3), w.reshape(6, 2)[:, :1]),
                     "SVD did not converge in Linear Least Squares"),
}
# the entry the bad input changes: a zero pivot's row, a negative or inf diagonal, a NaN
_BAD = {"Singular matrix": 1.0, "Matrix is not positive definite": -1.0,
        "Eigenvalues did not converge": np.inf, "SVD did not converge": np.nan,
        "SVD did not converge in Linear Least Squares": np.nan,
        "Array must not contain infs or NaNs": np.inf}


def _matrix_cases():
    assert set(_MATRIX) == set(MATRIX_KERNELS)
    for name in sorted(MATRIX_KERNELS):
        for dt in sorted({sig[0] for sig in MATRIX_KERNELS[name]}, key=str):
            yield pytest.param(name, dt, id=f"{name}-{dt.name}")


def _matrix_operands(name, dt, seed=7):
    rng = np.random.default_rng(seed)

    def draw(shape):
        v = rng.standard_normal(shape)
        return v + 1j * rng.standard_normal(shape) if np.dtype(dt).kind == "c" else v

    return tuple(o.astype(dt) for o in _MATRIX[name][1](draw((2, 3, 3)), draw((2, 3, 2))))


def _bad_operands(name, ops):
    error = _MATRIX[name][2]
    if error is None:  # det, slogdet, norm: a singular matrix (no error)
        return (np.ones_like(ops[0]),) + ops[1:]
    a = ops[0].copy()
    if error == "Singular matrix":
        a[..., 1, :] = 0
    else:
        _first(a)[0, 0] = _BAD[error]
    return (a,) + ops[1:]


def _as_tuple(r):
    return tuple(np.asarray(v) for v in (r if isinstance(r, tuple) else (r,)))


def _outcome(call, ops):
    """The call's results on xnp arrays, or the text of the LinAlgError it raises."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _as_tuple(call(xnp, *[xnp.asarray(o) for o in ops]))
    except np.linalg.LinAlgError as e:
        return str(e)


@pytest.mark.parametrize("name, dt", list(_matrix_cases()))
def test_matrix_kernel_computes_the_decomposition(name, dt, no_cache, monkeypatch):
    """Eagerly NumPy's own result; the decomposition's within rounding, of its dtypes and
    shapes; on the bad input, the same error or the same non-finite values both ways."""
    call = _MATRIX[name][0]
    ops = _matrix_operands(name, dt)
    kernel = _as_tuple(call(xnp, *[xnp.asarray(o) for o in ops]))
    want = _as_tuple(call(np, *ops))
    for k, w in zip(kernel, want, strict=True):
        assert k.dtype == w.dtype and k.shape == w.shape
        np.testing.assert_array_equal(k, w)
    bad = _bad_operands(name, ops)
    kernel_bad = _outcome(call, bad)
    monkeypatch.setattr(BACKEND, "kernels", {})  # every composite runs its decomposition
    decomposed = _as_tuple(call(xnp, *[xnp.asarray(o) for o in ops]))
    tol = 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10
    for d, w in zip(decomposed, want, strict=True):
        assert d.dtype == w.dtype and d.shape == w.shape
        np.testing.assert_allclose(d, w, rtol=tol, atol=tol)
    decomposed_bad = _outcome(call, bad)
    if isinstance(decomposed_bad, str) or isinstance(kernel_bad, str):
        assert kernel_bad == decomposed_bad == _MATRIX[name][2]
    else:
        for k, d in zip(kernel_bad, decomposed_bad, strict=True):
            np.testing.assert_allclose(k, d, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["linalg.cholesky", "linalg.cholesky_upper", "linalg.eigh",
                                  "linalg.eigvalsh_upper"])
def test_matrix_kernel_keeps_nan_input_rules(name, no_cache, monkeypatch):
    """A matrix with a NaN (where NumPy raises for cholesky, and eigvalsh returns other
    numbers than eigh) gives NaN results, the others in the stack their own, both ways; a
    stack with a NaN matrix and a failing one raises (cholesky), one with a NaN matrix and
    one with an inf entry has NaN eigenvalues for both (eigh: NumPy's NaN for an inf)."""
    call = _MATRIX[name][0]
    (a,) = _matrix_operands(name, np.float64)
    _first(a)[2, 0] = _first(a)[0, 2] = np.nan
    for kernels in (BACKEND.kernels, {}):
        monkeypatch.setattr(BACKEND, "kernels", kernels)
        got = _outcome(call, (a,))
        for g, w in zip(got, _as_tuple(call(np, a[1:])), strict=True):
            assert np.isnan(g[0]).any()
            np.testing.assert_allclose(g[1:], w, rtol=1e-10)
        failing = a.copy()
        if "cholesky" in name:
            failing[1, 1, 1] = -1e3
            assert _outcome(call, (failing,)) == _MATRIX[name][2]
        else:
            failing[1, 1, 1] = np.inf
            assert np.isnan(_outcome(call, (failing,))[0]).all()


def test_lstsq_kernel_residuals_and_rank(no_cache, monkeypatch):
    """M > N: residuals of every column where the rank is N, none below (eagerly); a Python
    rcond; the same both ways."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    deficient = np.concatenate([a[:, :2], a[:, :1]], axis=1)
    cases = [(a, b, None), (deficient, b, None), (a, b[:, 0], 0.5), (a.T, b[:3], None)]
    results = []
    for kernels in (BACKEND.kernels, {}):
        monkeypatch.setattr(BACKEND, "kernels", kernels)
        results.append([_as_tuple(xnp.linalg.lstsq(xnp.asarray(x), xnp.asarray(y), rcond=r))
                        for x, y, r in cases])
    for (x, y, r), got, decomposed in zip(cases, *results):
        want = np.linalg.lstsq(x, y, rcond=r)
        for g, d, w in zip(got, decomposed, want, strict=True):
            assert g.shape == d.shape == w.shape and g.dtype == d.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(d, w, rtol=1e-10, atol=1e-12)


def _linalg_function(name):
    """The public function whose calls ``name`` serves (``linalg.svd_reduced``: svd)."""
    return getattr(xnp.linalg, name.split(".")[1].split("_")[0])


def _program_size(fn):
    cache = fn._replay_cache if hasattr(fn, "_replay_cache") else None
    while cache is None:
        fn = fn.__wrapped__
        cache = getattr(fn, "_replay_cache", None)
    ((program,),) = [cache.values()]
    return len(program.eqns)


@pytest.mark.parametrize("name", sorted(MATRIX_KERNELS))
def test_matrix_composites_replay_and_transform_as_their_decomposition(name):
    call = _MATRIX[name][0]
    ops = [xnp.asarray(o) for o in _matrix_operands(name, np.float64)]
    if name == "linalg.lstsq":  # (M > N reads the rank eagerly: no replay)
        ops = [o[:3] for o in ops]
    _replay.clear()
    for _ in range(3):
        eager = _as_tuple(call(xnp, *ops))
    fn = _linalg_function(name)
    if name in ("linalg.eig", "linalg.eigvals"):  # the result's dtype is read from its values
        assert _replay.stats(fn)["refused"] == ["read or wrote an array's value"]
    else:
        assert _replay.stats(fn) == {"programs": 1, "refused": []}
        assert _program_size(fn) <= 2  # the kernel (and solve's squeeze, lstsq's rcond)
    fn = functools.partial(call, xnp)
    assert "composite" not in str(xnp.make_jaxpr(fn)(*ops))
    if name in ("linalg.solve", "linalg.inv"):  # (the others' jit: tests/numpy_api/test_linalg*)
        for j, e in zip(_as_tuple(xnp.jit(fn)(*ops)), eager, strict=True):
            np.testing.assert_allclose(j, e, rtol=1e-12)
    if name != "linalg.lstsq":  # (2-D only) vmap over the stack: the decomposition per matrix
        slices = [_as_tuple(fn(*[o[i] for o in ops])) for i in range(2)]
        for b, *e in zip(_as_tuple(xnp.vmap(fn)(*ops)), *slices, strict=True):
            np.testing.assert_allclose(b, np.stack(e), rtol=1e-10, atol=1e-12)
