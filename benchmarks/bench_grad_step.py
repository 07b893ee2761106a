"""(lg) A logistic-regression training step through autodiff, ``jit(grad)``, on
10^5 x 100 float64 data passed to every call (not closed over as constants).

The step is ``w - lr * grad(loss)(w, X, y)`` with the mean logistic loss plus an L2
term; NumPy runs the demo's hand-written gradient (``logistic_regression.make_step``,
the same arithmetic). ``xnp.jit`` gets the eager arrays a user has for the data (an
80 MB ``X``) and, separately, device-resident data; JAX gets ``jax.device_put`` data.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, device_resident, examples_on_path

__all__ = ["main", "make_grad_step"]

N, D = 100_000, 100
LR, L2 = 0.5, 1e-2


def make_grad_step(np, grad):
    """``step(w, X, y) -> w_new`` by ``grad`` of the loss (module ``np``, its ``grad``)."""

    def loss(w, X, y):
        z = X @ w
        softplus = np.maximum(z, 0.0) + np.log(1.0 + np.exp(-np.abs(z)))
        return np.mean(softplus - y * z) + 0.5 * L2 * np.sum(w * w)

    g = grad(loss)

    def step(w, X, y):
        return w - LR * g(w, X, y)

    return step


def main() -> None:
    examples_on_path()
    import logistic_regression as lr

    jax = _jax.load()
    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((N, D))
    w_true = rng.standard_normal(D) / numpy.sqrt(D)
    y = (rng.random(N) < 1.0 / (1.0 + numpy.exp(-X @ w_true))).astype(numpy.float64)
    w0 = 0.01 * rng.standard_normal(D)  # not 0: z = X w would sit on the kinks of max/abs

    step_np = lr.make_step(numpy, lr=LR, l2=L2)
    b0 = numpy.asarray(0.0)
    step_x = xnp.jit(make_grad_step(xnp, xnp.grad))
    Xe, ye = xnp.asarray(X), xnp.asarray(y)
    w_dev = step_x(xnp.asarray(w0), Xe, ye)  # device-resident weights (the previous step's)
    X_d, y_d = device_resident(X, y)
    ways = {
        "numpy (hand-written gradient)": lambda: step_np(w0, b0, X, y),
        "xnp.jit(grad), eager data": lambda: step_x(w_dev, Xe, ye),
        "xnp.jit(grad), device-resident data": lambda: step_x(w_dev, X_d, y_d),
        "jax.jit(grad)": None,
    }
    if jax is not None:
        step_j = jax.jit(make_grad_step(jax.numpy, jax.grad))
        wj, Xj, yj = _jax.put(w0, X, y)
        ways["jax.jit(grad)"] = lambda: step_j(wj, Xj, yj)
    w_np = step_np(w0, b0, X, y)[0]
    w_x = numpy.asarray(step_x(xnp.asarray(w0), Xe, ye))
    err = float(numpy.max(numpy.abs(w_x - w_np) / numpy.abs(w_np)))
    compare(f"(lg) logistic regression jit(grad) step, {N}x{D} float64", [("step", ways)],
            repeat=7, unit="ms", per="step",
            note=f"data passed every call; one step from the same weights: max rel. difference "
                 f"xnp.jit(grad) vs numpy {err:.1e}")


if __name__ == "__main__":
    main()
