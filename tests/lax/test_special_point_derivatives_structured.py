"""Derivatives at special points of complex functions, indexing, convolution, FFT,
decompositions and control flow (the elementwise table is
``test_special_point_derivatives.py``; README, "Derivatives at special points").

Every expected value is a closed form written here. Each case is checked with ``grad``
and with ``jvp`` (a fixed random direction ``v``: the jvp is ``Re(sum(g * v))`` for the
gradient ``g``), eagerly and under ``jit``; second derivatives with ``grad(grad(f))``.

Conventions (JAX's where mathematics leaves a choice, else xnp's, said per case):

* Complex inputs: ``grad`` of a real-valued ``f(z)`` is ``df/dx - i df/dy`` (JAX's:
  ``grad(abs(z)**2)(3+4j) = 6-8j``); ``grad(f, holomorphic=True)`` and ``jvp`` give
  ``f'(z)``. ``d|z|`` is 0 at ``z = 0`` (JAX) and ``Re(conj(sign z) dz)`` at an infinite
  ``z`` with a finite part (xnp; JAX: NaN). On a branch cut the derivative is the one of
  the side the signed zero picks (``sqrt'(-4 - 0j) = 0.25j``), eagerly and under ``jit``
  (the values on the cuts: ``tests/test_array_api_jit.py``).
  At a pole the derivative is IEEE complex ``1 / 0`` (``inf + nanj``).
* Repeated gather indices accumulate; ``.at[].set`` with repeated indices keeps the last
  update (NumPy's order), so earlier updates get 0; ``x[idx] += v`` is NumPy's buffered
  update (the last repeated index wins), ``xnp.add.at`` the unbuffered one (all add).
  Out-of-bounds ``mode="clip"`` differentiates the clamped element, ``"fill"``/``"drop"``
  give 0. ``dynamic_slice``/``dynamic_update_slice`` clamp the start, and so the derivative.
* Decompositions (JAX's rules): at degenerate eigenvalues (singular values) the
  eigenvalue jvp is ``diag(V^T dA V)`` with LAPACK's vectors, not the directional
  derivative of the sorted spectrum, and the eigenvector (``U``, ``V``) jvps are inf/NaN
  even where the perturbation does not split the degeneracy; a zero singular value gets
  ``u^T dA v``, which may be negative; ``qr`` of a rank-deficient matrix gives NaN.
  ``cholesky`` reads the lower triangle (as NumPy's), so its gradient is lower triangular
  (JAX symmetrizes). ``slogdet``'s ``logabsdet`` has a NaN gradient at a singular matrix
  (xnp's choice: the one-sided limits are +inf and -inf). ``linalg.norm`` (Euclidean,
  Frobenius, ``p > 1``) has derivative 0 at the zero vector (xnp; JAX: NaN), ``ord=1``
  gives ``abs'(0) = 1`` per element and ``ord=inf`` splits a tie equally.
* Control flow: zero-trip loops and length-0 scans pass the carry's cotangent through;
  ``cond`` differentiates the branch it takes (at the switch point, the one the predicate
  selects); ``while_loop`` is forward-mode only: ``grad`` raises NotImplementedError.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import xnp
from tests import tolerances
from xnp import lax

F64, C128 = np.dtype(np.float64), np.dtype(np.complex128)
RTOL = tolerances.rtol(F64, "reduction")
ATOL = 1e-13  # decompositions: exact zeros come out as rounding-size values
inf, nan = math.inf, math.nan
L = xnp.linalg


def _close(got, expected, what, atol=ATOL):
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=RTOL, atol=atol,
                               err_msg=what)


def _direction(x):
    rng = np.random.default_rng(0)
    v = rng.normal(size=np.shape(x))
    return v + 1j * rng.normal(size=np.shape(x)) if np.iscomplexobj(x) else v


class Case:
    """``grad(f)`` over all ``args`` is ``expected`` (one array per argument), and the jvp
    in the direction ``v`` (fixed random numbers) is ``Re(sum(expected * v))``."""

    def __init__(self, name, f, args, expected):
        self.name, self.f = name, f
        self.args = tuple(np.asarray(a) for a in args)
        self.expected = [np.asarray(e, a.dtype) for e, a in zip(expected, self.args)]
        self.vs = tuple(np.asarray(_direction(a), a.dtype) for a in self.args)
        self.jvp = sum(np.real(np.sum(e * v)) for e, v in zip(self.expected, self.vs))

    def grad_and_jvp(self, *args):
        grads = xnp.grad(self.f, argnums=tuple(range(len(args))))(*args)
        return grads, xnp.jvp(self.f, args, self.vs)[1]

    def check(self, mode, grads, tangent):
        for i, (got, want) in enumerate(zip(grads, self.expected)):
            _close(got, want, f"grad {mode} {self.name} (argument {i})")
        _close(tangent, self.jvp, f"jvp {mode} {self.name}")


def _check(case):
    with np.errstate(all="ignore"):
        for mode, fn in (("eager", case.grad_and_jvp), ("jit", xnp.jit(case.grad_and_jvp))):
            case.check(mode, *fn(*case.args))


# =========================================================================== complex

c = complex
# (id, f, points, f'(points)): holomorphic, checked with jvp (tangent 1) and
# grad(sum(f), holomorphic=True), elementwise over all the points at once
HOLOMORPHIC = [
    ("exp", lax.exp, [0j, c(0, math.pi), c(-inf, 0), c(-inf, 1)],
     [1, -1 + 1.2246467991473532e-16j, 0j, 0j]),
    ("log", lax.log, [1 + 0j, 1j, c(-1, 0), c(-1, -0.0), 0j, c(inf, 0), c(-inf, 0)],
     [1, -1j, -1, -1, c(inf, nan), 0j, 0j]),
    ("sqrt", lax.sqrt, [4 + 0j, c(-4, 0), c(-4, -0.0), 0j, c(inf, 0), c(-inf, 0)],
     [0.25, -0.25j, 0.25j, c(inf, nan), 0j, 0j]),
    ("sin", lax.sin, [0j, 1j, c(math.pi, 0)], [1, math.cosh(1.0), -1]),
    ("reciprocal", lambda z: 1 / z, [2j, c(inf, 0)], [0.25, 0j]),
    ("square", lambda z: z * z, [0j, 1 + 2j], [0j, 2 + 4j]),
    ("product", lambda z: z * (3 - 1j), [1 + 2j, 0j], [3 - 1j, 3 - 1j]),
    # d (a / z) = -(a / z) / z: (1 + 2j) / (3 - 1j) = 0.1 + 0.7j
    ("quotient", lambda z: (1 + 2j) / z, [3 - 1j, c(inf, 0)], [-(0.1 + 0.7j) / (3 - 1j), 0j]),
]


def _holomorphic(f, z):
    """``(jvp with tangent 1, grad(sum(f), holomorphic=True))``: both ``f'(z)``."""
    tangent = xnp.jvp(f, (z,), (xnp.ones_like(z),))[1]
    return tangent, xnp.grad(lambda z: xnp.sum(f(z)), holomorphic=True)(z)


def _check_holomorphic(mode, row, out):
    (name, _, _, expected), (t, g) = row, out
    want = np.array(expected, C128)
    _close(t, want, f"jvp {mode} {name}", atol=1e-300)
    _close(g, want, f"grad holomorphic {mode} {name}", atol=1e-300)


@pytest.mark.parametrize("row", HOLOMORPHIC, ids=[h[0] for h in HOLOMORPHIC])
def test_holomorphic_derivative(row):
    z = np.array(row[2], C128)
    with np.errstate(all="ignore"):
        for mode, fn in (("eager", _holomorphic), ("jit", xnp.jit(_holomorphic, static_argnums=0))):
            _check_holomorphic(mode, row, fn(row[1], z))


def _abs2(z):
    return xnp.abs(z) ** 2


# (id, f, points, grads): real-valued functions of complex z, grad = df/dx - i df/dy,
# elementwise over the points (the gradient of the sum)
REAL_OF_COMPLEX = [
    # JAX: 0 at 0; xnp: conj(sign z) where |z| is infinite with a finite part (JAX: NaN)
    ("abs", xnp.abs, [3 + 4j, 0j, c(-2, 0), c(inf, 0), c(-inf, 1)], [0.6 - 0.8j, 0, -1, 1, -1]),
    ("abs2", _abs2, [3 + 4j, 0j], [6 - 8j, 0]),  # JAX's documented example
    ("real", xnp.real, [3 + 4j], [1]),
    ("imag", xnp.imag, [3 + 4j], [-1j]),
    ("real(z*z)", lambda z: xnp.real(z * z), [c(-2, 0), 1j], [-4, 2j]),  # 2z
    ("angle", xnp.angle, [1j, c(-1, 0)], [-1, 1j]),  # (x dy - y dx) / |z|^2
]


REAL_OF_COMPLEX_CASES = [Case(name, lambda z, f=f: xnp.sum(f(z)), (np.array(points, C128),),
                              (np.array(expected, C128),))
                         for name, f, points, expected in REAL_OF_COMPLEX]


def test_complex_second_derivatives():
    gg = [("exp@1j", lax.exp, 1j, np.exp(1j)), ("log@1j", lax.log, 1j, 1),  # -1/z^2
          ("sqrt@4", lax.sqrt, 4 + 0j, -1 / 32)]  # -z^(-3/2) / 4
    for name, f, z, want in gg:
        d2 = xnp.grad(xnp.grad(f, holomorphic=True), holomorphic=True)
        for mode, fn in (("eager", d2), ("jit", xnp.jit(d2))):
            _close(fn(np.complex128(z)), np.complex128(want), f"{mode} {name}")
    # the Hessian of |z|^2 in (x, y) is 2 I: grad(grad) in x of x^2 + y^2 along real z
    h = xnp.grad(lambda x: xnp.real(xnp.grad(_abs2)(lax.complex(x, np.float64(4.0)))))
    for mode, fn in (("eager", h), ("jit", xnp.jit(h))):
        _close(fn(np.float64(3.0)), 2.0, f"{mode} d2|z|^2/dx2")


# =========================================================================== gather/scatter

W3 = np.array([1.0, 2.0, 3.0])
X3 = np.array([1.0, 2.0, 3.0])
IDX001 = np.array([0, 0, 1])


def _weighted(y):
    return xnp.sum(y * W3)


def _buffered_add(x):
    y = x * 0.0
    y[IDX001] += x  # NumPy: y[idx] = y[idx] + x, the last repeated index wins
    return _weighted(y)


def _unbuffered_add(x):
    y = x * 0.0
    xnp.add.at(y, IDX001, x)  # every repeated index adds
    return _weighted(y)


# (id, f, args, expected gradient per argument)
INDEXING = [
    ("gather_repeated", lambda x: xnp.sum(x[IDX001] * np.array([1.0, 2.0, 4.0])), (X3,),
     ([3.0, 4.0, 0.0],)),
    ("take_clip_oob", lambda x: xnp.sum(x.at[np.array([0, 5])].get(mode="clip")), (X3,),
     ([1.0, 0.0, 1.0],)),
    ("take_fill_oob",
     lambda x: xnp.sum(x.at[np.array([0, 5])].get(mode="fill", fill_value=0.0)), (X3,),
     ([1.0, 0.0, 0.0],)),
    ("scatter_add_repeated", lambda x, u: _weighted(x.at[np.array([0, 0, 2])].add(u)),
     (X3, np.ones(3)), (W3, [1.0, 1.0, 3.0])),
    ("scatter_set_repeated", lambda x, u: _weighted(x.at[np.array([0, 0, 2])].set(u)),
     (X3, np.ones(3)), ([0.0, 2.0, 0.0], [0.0, 1.0, 3.0])),
    # x0 * u0 * u1: a zero factor as in reduce_prod
    ("scatter_mul_repeated", lambda x, u: xnp.sum(x.at[np.array([0, 0])].multiply(u)),
     (np.array([1.5, 1.0, 1.0]), np.array([2.0, 3.0])), ([6.0, 1.0, 1.0], [4.5, 3.0])),
    ("scatter_mul_repeated_zero", lambda x, u: xnp.sum(x.at[np.array([0, 0])].multiply(u)),
     (np.array([1.5, 1.0, 1.0]), np.array([0.0, 3.0])), ([0.0, 1.0, 1.0], [4.5, 0.0])),
    ("scatter_add_drop_oob",
     lambda x, u: xnp.sum(x.at[np.array([0, 5])].add(u, mode="drop")), (X3, np.ones(2)),
     (np.ones(3), [1.0, 0.0])),
    # ties of min/max updates split equally, as lax.min/max
    ("scatter_min_tie", lambda x, u: xnp.sum(x.at[np.array([0, 0])].min(u)),
     (np.zeros(3), np.array([-1.0, -1.0])), ([0.0, 1.0, 1.0], [0.5, 0.5])),
    ("scatter_max_operand_tie", lambda x, u: xnp.sum(x.at[np.array([0])].max(u)),
     (X3, np.array([1.0])), ([0.5, 1.0, 1.0], [0.5])),
    ("setitem_buffered_add", _buffered_add, (np.ones(3),), ([0.0, 1.0, 2.0],)),
    ("ufunc_at_unbuffered_add", _unbuffered_add, (np.ones(3),), ([1.0, 1.0, 2.0],)),
    # starts clamp to [0, n - size]: 2 -> 1, -5 -> 0, 5 -> 1
    ("dynamic_slice_clamped_high",
     lambda x: xnp.sum(lax.dynamic_slice(x, (np.int32(2),), (2,)) * np.array([1.0, 10.0])),
     (X3,), ([0.0, 1.0, 10.0],)),
    ("dynamic_slice_clamped_low",
     lambda x: xnp.sum(lax.dynamic_slice(x, (np.int32(-5),), (2,)) * np.array([1.0, 10.0])),
     (X3,), ([1.0, 10.0, 0.0],)),
    ("dynamic_update_slice_clamped",
     lambda x, u: _weighted(lax.dynamic_update_slice(x, u, (np.int32(5),))),
     (X3, np.array([7.0, 8.0])), ([1.0, 0.0, 0.0], [2.0, 3.0])),
]


INDEXING_CASES = [Case(*row) for row in INDEXING]


def test_scatter_set_repeated_keeps_the_last_update():
    """The forward value the gradient above assumes (NumPy: ``a[[0, 0]] = [1, 2]``)."""
    a = np.zeros(3)
    a[[0, 0, 2]] = [1.0, 2.0, 3.0]
    for f in (lambda u: xnp.zeros(3).at[np.array([0, 0, 2])].set(u),
              xnp.jit(lambda u: xnp.zeros(3).at[np.array([0, 0, 2])].set(u))):
        _close(f(np.array([1.0, 2.0, 3.0])), a, "set")


# =========================================================================== convolution

LHS = np.array([1.0, 2.0, 3.0, 4.0]).reshape(1, 1, 4)  # (batch, feature, width)
RHS = np.array([1.0, 10.0]).reshape(1, 1, 2)  # (out feature, in feature, width)


def _conv_sum(**kw):
    def f(lhs, rhs):
        return xnp.sum(lax.conv_general_dilated(lhs, rhs, **kw))
    return f


def _r(*v):
    return np.array(v).reshape(1, 1, -1)


# out[i] = sum_k lhs'[s i + d k] rhs[k] over the padded, dilated lhs'; d/dlhs[j] is the sum
# of the rhs taps that touch j, d/drhs[k] the sum of the lhs entries each tap touches
CONVOLUTION = [
    ("valid", dict(window_strides=(1,), padding=((0, 0),)), (_r(1, 11, 11, 10), _r(6, 9))),
    # padded [0 1 2 3 4 0], windows at 0, 2, 4
    ("stride2_pad1", dict(window_strides=(2,), padding=((1, 1),)), (_r(10, 1, 10, 1), _r(6, 4))),
    # kernel [1 0 10]: out = (l0 + 10 l2, l1 + 10 l3)
    ("rhs_dilation2", dict(window_strides=(1,), padding=((0, 0),), rhs_dilation=(2,)),
     (_r(1, 1, 10, 10), _r(3, 7))),
    # lhs' = [1 0 2 0 3 0 4], 6 windows
    ("lhs_dilation2", dict(window_strides=(1,), padding=((0, 0),), lhs_dilation=(2,)),
     (_r(1, 11, 11, 10), _r(6, 9))),
    # one window (at 0): the last two inputs are never read
    ("stride3_tail_unused", dict(window_strides=(3,), padding=((0, 0),)),
     (_r(1, 10, 0, 0), _r(1, 2))),
    # padding -1 drops lhs[0]
    ("negative_padding", dict(window_strides=(1,), padding=((-1, 0),)),
     (_r(0, 1, 11, 10), _r(5, 7))),
]


CONVOLUTION_CASES = [Case(name, _conv_sum(**kw), (LHS, RHS), expected)
                     for name, kw, expected in CONVOLUTION]


# =========================================================================== FFT

XF = np.array([1.0, 2.0, -1.0, 0.5])
ZF = np.array([1 + 1j, 2.0, 3j])


def _rfft_power_grad(x):
    """d/dx of |X0|^2 + |X1|^2 + |X2|^2 for n = 4: X0 = S (sum), X2 = A (alternating sum),
    |X1|^2 = (x0 - x2)^2 + (x1 - x3)^2."""
    s, a = x.sum(), x[0] - x[1] + x[2] - x[3]
    return 2 * s + 2 * a * np.array([1, -1, 1, -1]) + 2 * np.array(
        [x[0] - x[2], x[1] - x[3], x[2] - x[0], x[3] - x[1]])


FFT = [
    # Parseval: sum |fft x|^2 = n sum |x|^2, so the gradient is 2 n x (2 n conj(z))
    ("fft_parseval", lambda x: xnp.sum(xnp.abs(xnp.fft.fft(x)) ** 2), XF, 8 * XF),
    ("fft_parseval_complex", lambda z: xnp.sum(xnp.abs(xnp.fft.fft(z)) ** 2), ZF,
     6 * np.conj(ZF)),
    # rfft keeps bins 0..n/2 once: not 2 n x
    ("rfft_power", lambda x: xnp.sum(xnp.abs(xnp.fft.rfft(x)) ** 2), XF, _rfft_power_grad(XF)),
    ("rfft_real_sum", lambda x: xnp.sum(xnp.real(xnp.fft.rfft(x))), XF, [3.0, 0.0, 1.0, 0.0]),
    # x0 = (Re Z0 + 2 Re Z1 + Re Z2) / 4: the interior bin counts twice, and the imaginary
    # parts of the DC and Nyquist bins are not read
    ("irfft_even_x0", lambda z: xnp.fft.irfft(z)[0], ZF, [0.25, 0.5, 0.25]),
    ("irfft_odd_x0", lambda z: xnp.fft.irfft(z, n=5)[0], ZF, [0.2, 0.4, 0.4]),
]


FFT_CASES = [Case(name, f, (x,), (expected,)) for name, f, x, expected in FFT]


# =========================================================================== decompositions

I2, D49 = np.eye(2), np.diag([4.0, 9.0])
W22 = np.array([[1.0, 2.0], [3.0, 4.0]])
S22 = np.array([[1.0, 2.0], [2.0, 4.0]])
SINGULAR = np.array([[1.0, 1.0], [1.0, 1.0]])


def _weighted_sum(fn, w=W22):
    return lambda a: xnp.sum(fn(a) * w)


def _euclidean_norms(x):
    return (L.norm(x) + L.matrix_norm(x) + L.vector_norm(x) + L.norm(x[0], ord=3)
            + xnp.sum(L.norm(x, axis=1)))


# (id, f, x, expected gradient)
DECOMPOSITION_GRADS = [
    # dL = L Phi(L^-1 dA L^-T), Phi: lower triangle, half diagonal; only tril(A) is read
    ("cholesky@I", _weighted_sum(L.cholesky), I2, [[0.5, 0.0], [3.0, 2.0]]),
    ("cholesky@diag", _weighted_sum(L.cholesky), D49, [[0.25, 0.0], [1.5, 2 / 3]]),
    # d inv = -inv dA inv: gradient -inv^T W inv^T
    ("inv@I", _weighted_sum(L.inv), I2, -W22),
    ("inv@diag", _weighted_sum(L.inv), D49, -W22 / np.outer([4.0, 9.0], [4.0, 9.0])),
    # d logabsdet = tr(inv dA): gradient inv^T
    ("slogdet@diag", lambda a: L.slogdet(a)[1], D49, np.diag([0.25, 1 / 9])),
    ("slogdet@negative_det", lambda a: L.slogdet(a)[1], np.array([[0.0, 1.0], [1.0, 0.0]]),
     [[0.0, 1.0], [1.0, 0.0]]),
    ("slogdet@singular", lambda a: L.slogdet(a)[1], SINGULAR, np.full((2, 2), nan)),
    # eigenvalues: d w_i = V^T dA V at i, i; at a degenerate spectrum LAPACK's V = I
    ("eigvalsh_weighted@I", lambda a: xnp.sum(L.eigh(a)[0] * np.array([1.0, 2.0])), I2,
     np.diag([1.0, 2.0])),
    # nuclear norm sum(s) at 0: U V^T = I (LAPACK's vectors), a subgradient
    ("svdvals_sum@zero", lambda a: xnp.sum(L.svd(a, compute_uv=False)), np.zeros((2, 2)), I2),
    # norms at the zero vector: 0 (xnp; every code path: flattened, vector, matrix, p > 1,
    # per row), abs'(0) = 1 for ord=1 and an equal split of the tie for ord=inf
    ("norms@0", _euclidean_norms, np.zeros((2, 2)), np.zeros((2, 2))),
    ("norm_complex@0", L.norm, np.zeros(2, C128), np.zeros(2, C128)),
    ("norm_rows@0", lambda x: xnp.sum(L.norm(x, axis=1)), np.array([[0.0, 0.0], [3.0, 4.0]]),
     [[0.0, 0.0], [0.6, 0.8]]),
    ("norm_ord1+ordinf@0", lambda x: L.norm(x, ord=1) + L.norm(x, ord=inf), np.zeros(3),
     np.full(3, 1 + 1 / 3)),
    ("norm_ord3", lambda x: L.norm(x, ord=3), np.array([1.0, -2.0, 0.0]),
     np.array([1.0, -4.0, 0.0]) / 9 ** (2 / 3)),  # sign(x) |x|^2 / ||x||_3^2
]


# x = A^-1 b: d/db sum(x) = A^-T 1, d/dA sum(x) = -A^-T 1 x^T
DECOMPOSITION_CASES = [Case(name, f, (x,), (expected,))
                       for name, f, x, expected in DECOMPOSITION_GRADS] + [
    Case("solve@I", lambda a, b: xnp.sum(L.solve(a, b)), (I2, np.array([1.0, 2.0])),
         (-np.outer([1.0, 1.0], [1.0, 2.0]), [1.0, 1.0]))]


# (id, f, x, tangent, expected jvp outputs): the factor's tangents in closed form
DA = np.array([[1.0, 2.0], [3.0, 4.0]])
DECOMPOSITION_JVPS = [
    ("cholesky@I", L.cholesky, I2, np.array([[2.0, 1.0], [1.0, 4.0]]),
     (np.array([[1.0, 0.0], [1.0, 2.0]]),)),
    # A = QR with Q = I, R = D: C = dA D^-1, dQ = Omega (skew from tril(C)), dR = (C - Omega) D
    ("qr@I", L.qr, I2, DA, ([[0.0, -3.0], [3.0, 0.0]], [[1.0, 5.0], [0.0, 4.0]])),
    ("qr@diag", L.qr, np.diag([2.0, 3.0]), DA,
     ([[0.0, -1.5], [1.5, 0.0]], [[1.0, 6.5], [0.0, 4.0]])),
    ("qr@rank_deficient", L.qr, np.diag([2.0, 0.0]), DA,
     ([[0.0, nan], [1.5, nan]], np.full((2, 2), nan))),
    # P = L = U = I: the packed dL + dU is dA
    ("lu@I", lambda a: lax.lu(a)[0], I2, DA, (DA,)),
    # dV = V (F o V^T dA V), F_ij = 1 / (w_j - w_i)
    ("eigh@diag", L.eigh, D49, S22, ([1.0, 4.0], [[0.0, 0.4], [-0.4, 0.0]])),
    # degenerate: diag(V^T dA V) (the spectrum of I + t S moves as 0, 5)
    ("eigh@I", L.eigh, I2, S22, ([1.0, 4.0], [[nan, inf], [inf, nan]])),
    ("eigh@I_unsplit", L.eigh, I2, np.diag([1.0, 4.0]), ([1.0, 4.0], np.full((2, 2), nan))),
    # ds = diag(U^T dA V) in descending order; at the zero singular value u^T dA v = -4
    ("svdvals@diag", lambda a: L.svd(a, compute_uv=False), D49, DA, ([4.0, 1.0],)),
    ("svdvals@rank_deficient", lambda a: L.svd(a, compute_uv=False), np.diag([1.0, 0.0]),
     np.array([[1.0, 2.0], [3.0, -4.0]]), ([1.0, -4.0],)),
    ("svd@I", L.svd, I2, DA, ([[nan, inf], [inf, nan]], [1.0, 4.0], [[nan, inf], [inf, nan]])),
]


def _factor_tangents(f, x, t):
    out = xnp.jvp(f, (x,), (t,))[1]
    return tuple(out) if isinstance(out, tuple) else (out,)


def _check_factor_tangents(mode, row, got):
    name, expected = row[0], row[4]
    assert len(got) == len(expected), name
    for i, (g, w) in enumerate(zip(got, expected)):
        _close(g, np.asarray(w, F64), f"jvp {mode} {name} (output {i})")


@pytest.mark.parametrize("row", DECOMPOSITION_JVPS, ids=[r[0] for r in DECOMPOSITION_JVPS])
def test_decomposition_jvp(row):
    name, f, x, t, _ = row
    with np.errstate(all="ignore"):
        for mode, fn in (("eager", _factor_tangents),
                         ("jit", xnp.jit(_factor_tangents, static_argnums=0))):
            _check_factor_tangents(mode, row, fn(f, x, t))


# =========================================================================== control flow


def _power4_fori(x):  # x * x^3 by a three-trip loop
    return lax.fori_loop(0, 3, lambda i, c: c * x, x)


def _power4_while(x):
    return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * x), (0, x))[1]


def _cond_kink(x):  # x^2 for x > 0, -x otherwise: at 0 the false branch is taken
    return lax.cond(x > 0, lambda x: x * x, lambda x: -x, x)


def _scan_mul(c, xs):
    return lax.scan(lambda c, a: (c * a, c * c), c, xs)


# (id, f, args, expected gradient per argument)
CONTROL_FLOW = [
    ("fori_zero_trips_carry", lambda x: lax.fori_loop(0, 0, lambda i, c: c * x, x),
     (3.0,), (1.0,)),
    ("fori_zero_trips_closure", lambda x: lax.fori_loop(0, 0, lambda i, c: c * x, 1.0 + 0 * x),
     (3.0,), (0.0,)),
    ("fori_negative_trips", lambda x: lax.fori_loop(5, 2, lambda i, c: c * x, x), (2.0,), (1.0,)),
    ("fori_3_trips", _power4_fori, (2.0,), (32.0,)),
    ("scan_length0_carry", lambda c, xs: _scan_mul(c, xs)[0], (3.0, np.zeros(0)),
     (1.0, np.zeros(0))),
    ("scan_length0_ys", lambda c, xs: xnp.sum(_scan_mul(c, xs)[1]), (3.0, np.zeros(0)),
     (0.0, np.zeros(0))),
    ("scan_length1_carry", lambda c, xs: _scan_mul(c, xs)[0], (3.0, np.array([5.0])),
     (5.0, [3.0])),
    ("scan_length1_ys", lambda c, xs: xnp.sum(_scan_mul(c, xs)[1]), (3.0, np.array([5.0])),
     (6.0, [0.0])),
    ("cond@switch_point", _cond_kink, (0.0,), (-1.0,)),
    ("cond@-0", _cond_kink, (-0.0,), (-1.0,)),
    ("cond@1", _cond_kink, (1.0,), (2.0,)),
    ("switch_clamped_index",
     lambda x: lax.switch(np.int32(7), [lambda x: x, lambda x: 2 * x, lambda x: 3 * x], x),
     (1.0,), (3.0,)),
]


CONTROL_FLOW_CASES = [Case(name, f, tuple(np.asarray(a, F64) for a in args), expected)
                      for name, f, args, expected in CONTROL_FLOW]

TABLES = {"real_of_complex": REAL_OF_COMPLEX_CASES, "indexing": INDEXING_CASES,
          "convolution": CONVOLUTION_CASES, "fft": FFT_CASES,
          "decompositions": DECOMPOSITION_CASES, "control_flow": CONTROL_FLOW_CASES}
ALL_CASES = [(table, case) for table, cases in TABLES.items() for case in cases]


@pytest.mark.parametrize("table,case", ALL_CASES, ids=[f"{t}-{c.name}" for t, c in ALL_CASES])
def test_derivative(table, case):
    _check(case)


def test_control_flow_second_derivative():
    for name, f, x, want in (("fori_3_trips", _power4_fori, 2.0, 48.0),  # 12 x^2
                             ("cond@1", _cond_kink, 1.0, 2.0), ("cond@0", _cond_kink, 0.0, 0.0)):
        gg = xnp.grad(xnp.grad(f))
        for mode, fn in (("eager", gg), ("jit", xnp.jit(gg))):
            _close(fn(np.float64(x)), want, f"{mode} {name}")


def test_while_loop_forward_mode_and_reverse_mode_error():
    x = np.float64(2.0)

    def tangent(x):
        return xnp.jvp(_power4_while, (x,), (np.float64(1.0),))[1]

    zero_trips = xnp.jvp(lambda x: lax.while_loop(lambda c: c < 0, lambda c: c * x, x),
                         (x,), (np.float64(1.0),))[1]
    _close(zero_trips, 1.0, "while_loop with no trip")
    for mode, fn in (("eager", tangent), ("jit", xnp.jit(tangent)),
                     ("jacfwd", xnp.jacfwd(_power4_while))):
        _close(fn(x), 32.0, f"while_loop jvp {mode}")
    for g in (xnp.grad(_power4_while), xnp.jit(xnp.grad(_power4_while))):
        with pytest.raises(NotImplementedError, match="(?s)while_loop.*forward mode"):
            g(x)


@pytest.mark.parametrize("x", [0.0, 2.0, -1.5])
def test_slogdet_sign_derivative_is_zero_also_at_a_singular_matrix(x):
    # a real sign is piecewise constant: 0 by grad and jvp, eagerly and under jit (the
    # reverse pass through the pivots' product gave NaN at the singular x = 0)
    f = lambda v: xnp.linalg.slogdet(xnp.eye(2) * v)[0]  # noqa: E731
    for g in (xnp.grad(f), xnp.jit(xnp.grad(f)), lambda v: xnp.jvp(f, (v,), (1.0,))[1]):
        assert float(g(x)) == 0.0
