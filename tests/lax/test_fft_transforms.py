"""Transformation rules of ``xnp.lax.fft`` (every fft type, 1 to 3 axes, with batch dims):
jvp vs central finite differences (float64/complex128), vjp vs jvp through JAX's pairing
``Re(sum(u * J v)) == Re(sum(J^T u * v))`` (which pins the Hermitian weighting of the
RFFT/IRFFT transposes), vmap vs a loop over slices for every batch axis (incl. None and
negative axes), each also under jit; then grad/vmap through the ``xnp.fft`` surface.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose
from xnp import lax

H = 1e-6
TOL = 1e-8
B = 3

# (fft_type, operand shape, fft_lengths)
CASES = [
    ("FFT", (5,), (5,)),
    ("IFFT", (2, 4), (4,)),
    ("FFT", (2, 3, 4), (3, 4)),
    ("IFFT", (2, 2, 3, 4), (2, 3, 4)),
    ("RFFT", (6,), (6,)),
    ("RFFT", (2, 7), (7,)),
    ("RFFT", (2, 3, 4), (3, 4)),
    ("RFFT", (2, 3, 5), (2, 3, 5)),
    ("IRFFT", (4,), (6,)),
    ("IRFFT", (2, 4), (7,)),
    ("IRFFT", (2, 3, 3), (3, 4)),
    ("IRFFT", (2, 3, 3), (2, 3, 5)),
    ("FFT", (3, 1), (1,)),
    ("IRFFT", (2, 1), (1,)),
]
IDS = [f"{t}-{s}-{n}" for t, s, n in CASES]


def _input(rng, fft_type, shape):
    x = rng.standard_normal(shape)
    if fft_type != "RFFT":
        x = x + 1j * rng.standard_normal(shape)
    return x


def _output_like(rng, f, x):
    out = f(x)
    shape, dtype = out.shape, np.dtype(out.dtype)
    u = rng.standard_normal(shape)
    return u + 1j * rng.standard_normal(shape) if dtype.kind == "c" else u


def _fn(fft_type, lengths):
    return lambda x: lax.fft(x, fft_type, lengths)


def _setup(seed, fft_type, shape, lengths):
    """The transform, a primal point and a tangent direction."""
    rng = np.random.default_rng(seed)
    return rng, _fn(fft_type, lengths), _input(rng, fft_type, shape), _input(rng, fft_type, shape)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("fft_type,shape,lengths", CASES, ids=IDS)
def test_fft_jvp_matches_finite_differences(fft_type, shape, lengths, jit):
    _, f, x, v = _setup(1, fft_type, shape, lengths)
    g = lambda p, t: xnp.jvp(f, (p,), (t,))  # noqa: E731
    if jit:
        g = xnp.jit(g)
    out, tan = g(xnp.asarray(x), xnp.asarray(v))
    fd = (np.asarray(f(xnp.asarray(x + H * v))) - np.asarray(f(xnp.asarray(x - H * v)))) / (2 * H)
    assert_allclose(out, np.asarray(f(xnp.asarray(x))), kind="reduction")
    assert_allclose(tan, fd, rtol=TOL, atol=TOL)
    # linear: the tangent is the transform of the tangent
    assert_allclose(tan, np.asarray(f(xnp.asarray(v))), kind="reduction")


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("fft_type,shape,lengths", CASES, ids=IDS)
def test_fft_vjp_is_adjoint_of_jvp(fft_type, shape, lengths, jit):
    rng, f, x, v = _setup(2, fft_type, shape, lengths)
    u = _output_like(rng, f, xnp.asarray(x))

    def both(p, t, ct):
        _, jv = xnp.jvp(f, (p,), (t,))
        _, pullback = xnp.vjp(f, p)
        return jv, pullback(ct)[0]

    if jit:
        both = xnp.jit(both)
    jv, jtu = both(xnp.asarray(x), xnp.asarray(v), xnp.asarray(u))
    assert np.asarray(jtu).dtype == np.asarray(x).dtype and np.shape(jtu) == shape
    lhs = np.real(np.sum(u * np.asarray(jv)))
    rhs = np.real(np.sum(np.asarray(jtu) * v))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10, atol=1e-10)


def test_irfft_transpose_weights_are_hermitian():
    """The cotangent of IRFFT doubles the interior frequencies (each stands for itself and
    its conjugate partner) and divides by n: checked against the dense real matrix."""
    n = 6
    f = _fn("IRFFT", (n,))
    ct = np.zeros(n)
    ct[1] = 1.0
    _, pullback = xnp.vjp(f, xnp.asarray(np.zeros(n // 2 + 1, np.complex128)))
    got = np.asarray(pullback(xnp.asarray(ct))[0])
    # d y[1] / d Re(X_j) and d y[1] / d Im(X_j) by NumPy; JAX's convention: ct = dRe - i dIm
    eye = np.eye(n // 2 + 1)
    d_re = np.array([np.fft.irfft(eye[j], n)[1] for j in range(n // 2 + 1)])
    d_im = np.array([np.fft.irfft(1j * eye[j], n)[1] for j in range(n // 2 + 1)])
    np.testing.assert_allclose(got, d_re - 1j * d_im, atol=1e-14)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("fft_type,shape,lengths", CASES[:12:2], ids=IDS[:12:2])
def test_fft_vmap_matches_loop(fft_type, shape, lengths, jit):
    rng = np.random.default_rng(3)
    f = _fn(fft_type, lengths)
    ndim = len(shape)
    for axis in list(range(ndim + 1)) + [-1, None]:
        if axis is None:
            x = _input(rng, fft_type, shape)
            expected = np.stack([np.asarray(f(xnp.asarray(x)))] * B)
            vf = xnp.vmap(lambda y, z: f(y), in_axes=(None, 0))
            args = (x, np.zeros(B))
        else:
            bshape = list(shape)
            bshape.insert(axis % (ndim + 1), B)
            x = _input(rng, fft_type, tuple(bshape))
            slices = np.moveaxis(x, axis, 0)
            expected = np.stack([np.asarray(f(xnp.asarray(s))) for s in slices])
            vf = xnp.vmap(f, in_axes=axis)
            args = (x,)
        if jit:
            vf = xnp.jit(vf)
        assert_allclose(vf(*[xnp.asarray(a) for a in args]), expected, kind="reduction",
                        err_msg=f"in_axes={axis}")


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_numpy_surface_grad_of_real_loss(jit):
    """grad through xnp.fft.rfft/irfft/fft2 with padding, cropping and norm, vs finite
    differences of the same loss."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 6))
    w = rng.standard_normal((3, 5)) + 1j * rng.standard_normal((3, 5))

    def loss(a):
        spec = xnp.fft.rfft(a, n=8, axis=-1, norm="ortho")  # padded: (3, 5)
        back = xnp.fft.irfft(spec * w, n=5)  # cropped, (3, 5)
        two = xnp.fft.fft2(a, s=(4, 4), axes=(0, 1))
        return xnp.sum(back ** 2) + xnp.sum(xnp.abs(two) ** 2) * 0.1

    g = xnp.grad(loss)
    if jit:
        g = xnp.jit(g)
    got = np.asarray(g(xnp.asarray(x)))
    fd = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = H
        fd[i] = (float(loss(xnp.asarray(x + e))) - float(loss(xnp.asarray(x - e)))) / (2 * H)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_numpy_surface_vmap_matches_loop(jit):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3, 6))

    def f(a):
        return xnp.fft.fftn(xnp.fft.ihfft(a, n=7), axes=(0, 1), norm="forward")

    vf = xnp.vmap(f, in_axes=1)
    if jit:
        vf = xnp.jit(vf)
    expected = np.stack([np.fft.fftn(np.fft.ihfft(x[:, i], n=7), axes=(0, 1), norm="forward")
                         for i in range(3)])
    assert_allclose(vf(xnp.asarray(x)), expected, kind="reduction")
