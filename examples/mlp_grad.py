"""A one-hidden-layer network on the same breast-cancer data, trained two ways:
NumPy with a hand-written backward pass, and xnp with ``xnp.grad`` under ``xnp.jit``.

The forward pass is written once against a module parameter ``np``; xnp
differentiates it, NumPy uses the manual gradient below. The demo checks that
the gradients agree at the start (rtol 1e-10), that the loss trajectories agree
over training, and that the test accuracies are equal, then prints step times.
Exits with status 1 if a check fails.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy

import xnp
from logistic_regression import load_data

__all__ = ["init_params", "loss", "numpy_grad", "main"]

HIDDEN = 32
LEARNING_RATE = 0.5
STEPS = 300
GRAD_RTOL = 1e-10
LOSS_RTOL = 1e-8


def init_params(d: int, seed: int = 0):
    rng = numpy.random.default_rng(seed)
    w1 = rng.standard_normal((d, HIDDEN)) / numpy.sqrt(d)
    b1 = numpy.zeros(HIDDEN)
    w2 = rng.standard_normal(HIDDEN) / numpy.sqrt(HIDDEN)
    b2 = numpy.zeros(())
    return w1, b1, w2, b2


def loss(np, params, X, y):
    """Mean binary cross-entropy of ``sigmoid(tanh(X w1 + b1) w2 + b2)`` (stable form)."""
    w1, b1, w2, b2 = params
    h = np.tanh(X @ w1 + b1)
    z = h @ w2 + b2
    return np.mean(np.maximum(z, 0.0) + np.log(1.0 + np.exp(-np.abs(z))) - y * z)


def numpy_grad(params, X, y):
    """The backward pass of :func:`loss`, written by hand (NumPy)."""
    w1, b1, w2, b2 = params
    h = numpy.tanh(X @ w1 + b1)
    z = h @ w2 + b2
    dz = (1.0 / (1.0 + numpy.exp(-z)) - y) / len(y)
    dw2 = h.T @ dz
    db2 = numpy.sum(dz)
    dh = numpy.outer(dz, w2) * (1.0 - h * h)
    return X.T @ dh, dh.sum(axis=0), dw2, db2


def _sgd(params, grads):
    return tuple(p - LEARNING_RATE * g for p, g in zip(params, grads))


def _time_training(step, params, steps):
    step(params)  # warm-up (compiles under jit)
    losses = []
    t0 = time.perf_counter()
    for _ in range(steps):
        params, value = step(params)
        losses.append(value)
    float(losses[-1])
    elapsed = time.perf_counter() - t0
    return params, numpy.array([float(v) for v in losses]), elapsed / steps


def main(argv=None) -> bool:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    args = parser.parse_args(argv)
    X, y, Xt, yt = load_data()
    params0 = init_params(X.shape[1])
    print(f"MLP {X.shape[1]}-{HIDDEN}-1 (tanh, sigmoid output) on sklearn breast_cancer, "
          f"{args.steps} full-batch steps, lr={LEARNING_RATE}, float64.")

    def np_step(p):
        return _sgd(p, numpy_grad(p, X, y)), loss(numpy, p, X, y)

    Xx, yx = xnp.asarray(X), xnp.asarray(y)
    value_and_grad = xnp.value_and_grad(lambda p: loss(xnp, p, Xx, yx))

    @xnp.jit
    def xnp_step(p):
        value, g = value_and_grad(p)
        return _sgd(p, g), value

    g_np = numpy_grad(params0, X, y)
    g_x = xnp.grad(lambda p: loss(xnp, p, Xx, yx))(tuple(xnp.asarray(a) for a in params0))
    grad_err = max(float(numpy.max(numpy.abs(numpy.asarray(b) - a)) /
                         max(float(numpy.max(numpy.abs(a))), 1e-300))
                   for a, b in zip(g_np, g_x))

    p_np, l_np, t_np = _time_training(np_step, params0, args.steps)
    p_x, l_x, t_x = _time_training(xnp_step, tuple(xnp.asarray(a) for a in params0), args.steps)

    def accuracy(p):
        w1, b1, w2, b2 = (numpy.asarray(a) for a in p)
        return float(numpy.mean(((numpy.tanh(Xt @ w1 + b1) @ w2 + b2) > 0) == (yt > 0.5)))

    acc_np, acc_x = accuracy(p_np), accuracy(p_x)
    print(f"  {'way':<28} {'step (us)':>10} {'speed-up':>9} {'final loss':>20} {'test acc':>9}")
    print(f"  {'numpy, hand-written grad':<28} {t_np * 1e6:>10.1f} {1.0:>8.2f}x "
          f"{l_np[-1]:>20.15f} {acc_np:>9.4f}")
    print(f"  {'xnp.jit(xnp.value_and_grad)':<28} {t_x * 1e6:>10.1f} {t_np / t_x:>8.2f}x "
          f"{l_x[-1]:>20.15f} {acc_x:>9.4f}")
    loss_err = float(numpy.max(numpy.abs(l_x - l_np) / numpy.abs(l_np)))
    ok_grad = grad_err <= GRAD_RTOL
    ok_loss = loss_err <= LOSS_RTOL and acc_np == acc_x
    print(f"  check xnp.grad vs hand-written gradient at init: max rel. difference "
          f"{grad_err:.1e} (tolerance {GRAD_RTOL:.0e}): {'OK' if ok_grad else 'FAIL'}")
    print(f"  check training: max rel. loss difference {loss_err:.1e} (tolerance "
          f"{LOSS_RTOL:.0e}), test accuracy {'same' if acc_np == acc_x else 'DIFFERENT'}: "
          f"{'OK' if ok_loss else 'FAIL'}")
    return ok_grad and ok_loss


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
