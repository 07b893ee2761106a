"""The eigenvector derivatives of ``xnp.lax.eig`` (right and left): jvp vs central
differences of LAPACK's own output (its gauge: unit-norm columns, largest component
real, which the rule differentiates through), the gauge-invariant first-order
eigenvalue equation ``dA v + A dv = dv diag(w) + v diag(dw)`` and the normalisation
constraints, vjp vs jvp through <u, J v> = <J^T u, v>, batched input and vmap of the jvp;
each eagerly and under jit. Real inputs with complex-conjugate eigenvalue pairs and
complex inputs."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose
from xnp import lax

H = 1e-6
TOL = 1e-6  # central differences with h = 1e-6 (eigenvector derivatives are O(1/gap))

OUTPUTS = {  # (compute_left, compute_right) -> names of the outputs
    (True, True): ("w", "vl", "vr"), (False, True): ("w", "vr"), (True, False): ("w", "vl")}


def _matrix(seed, dtype, shape=(4, 4)):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _eig(left, right):
    return lambda x: lax.eig(x, compute_left_eigenvectors=left,
                             compute_right_eigenvectors=right)


def _jvp(f, a, da, jit):
    run = (lambda p, t: xnp.jvp(f, (p,), (t,)))
    primal, tangent = (xnp.jit(run) if jit else run)(a, da)
    return [np.asarray(o) for o in primal], [np.asarray(t) for t in tangent]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("vectors", list(OUTPUTS), ids=["both", "right", "left"])
def test_jvp_matches_central_differences(vectors, dtype, jit):
    f = _eig(*vectors)
    for seed in range(3):
        a, da = _matrix(seed, dtype), _matrix(seed + 10, dtype)
        _, tangents = _jvp(f, a, da, jit)
        plus = [np.asarray(o) for o in f(a + H * da)]
        minus = [np.asarray(o) for o in f(a - H * da)]
        for name, t, p, m in zip(OUTPUTS[vectors], tangents, plus, minus):
            np.testing.assert_allclose(t, (p - m) / (2 * H), rtol=TOL, atol=TOL,
                                       err_msg=f"{name} seed={seed}")


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_first_order_eigen_equations_and_gauge(dtype, jit):
    a, da = _matrix(3, dtype, (5, 5)), _matrix(4, dtype, (5, 5))
    (w, vl, vr), (dw, dvl, dvr) = _jvp(_eig(True, True), a, da, jit)
    # right: dA v + A dv = dv diag(w) + v diag(dw); left: the same for A^H, conj(w)
    assert_allclose(da @ vr + a @ dvr, dvr * w + vr * dw, kind="reduction")
    ah, dah = a.conj().T, da.conj().T
    assert_allclose(dah @ vl + ah @ dvl, dvl * w.conj() + vl * dw.conj(), kind="reduction")
    for v, dv in ((vr, dvr), (vl, dvl)):
        # unit norm kept: Re(v_j^H dv_j) = 0; largest component kept real
        assert_allclose(np.real(np.sum(v.conj() * dv, axis=0)), np.zeros(5), kind="reduction")
        k = np.argmax(np.abs(v), axis=0)
        assert_allclose(np.imag(dv[k, np.arange(5)]), np.zeros(5), kind="reduction")


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("output", [1, 2], ids=["vl", "vr"])
def test_vjp_is_transpose_of_jvp(output, jit):
    a, da = _matrix(5, np.float64), _matrix(6, np.float64)

    def f(x):
        return lax.eig(x)[output]

    _, (t,) = _jvp(lambda x: [f(x)], a, da, False)
    u = _matrix(7, np.complex128)
    vjp = (lambda x, ct: xnp.vjp(f, x)[1](ct))
    (jtu,) = (xnp.jit(vjp) if jit else vjp)(a, u)
    # the pairing is bilinear (no conjugation), real parts for the real input
    lhs = np.real(np.sum(u * t))
    rhs = np.sum(np.asarray(jtu) * da)
    assert abs(lhs - rhs) <= 1e-10 * (np.sum(np.abs(u * t)) + np.sum(np.abs(np.asarray(jtu) * da)))


@pytest.mark.parametrize("jit", [False, True])
def test_batched_input_and_vmap_of_jvp(jit):
    a = np.stack([_matrix(s, np.complex128, (3, 3)) for s in range(3)])
    da = np.stack([_matrix(s + 20, np.complex128, (3, 3)) for s in range(3)])
    f = _eig(True, True)
    _, batched = _jvp(f, a, da, jit)
    vf = xnp.vmap(lambda x, t: xnp.jvp(f, (x,), (t,))[1], in_axes=(2, None))
    mapped = (xnp.jit(vf) if jit else vf)(np.moveaxis(a, 0, 2), da[0])
    for i in range(3):
        _, single = _jvp(f, a[i], da[i], False)
        for got, want in zip(batched, single):
            assert_allclose(got[i], want, kind="reduction")
        _, shared = _jvp(f, a[i], da[0], False)
        for got, want in zip(mapped, shared):
            assert_allclose(np.asarray(got)[i], want, kind="reduction")
