"""L2-regularised logistic regression, three ways: NumPy, ``import xnp as np``, ``xnp.jit``.

The model code below is written against a module parameter ``np``, so the very
same functions run on ``numpy`` and on ``xnp``. The data is scikit-learn's
bundled breast-cancer set (569 samples, 30 features; no download), split into
train/test with a fixed seed and standardised with the training statistics.
Training is full-batch gradient descent with a hand-written gradient.

Run ``python examples/logistic_regression.py`` (``--steps N`` to change the
number of gradient steps). Exits with status 1 if the three runs disagree.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy

import xnp

__all__ = ["load_data", "make_step", "predict", "run", "main", "LOSS_RTOL"]

SEED = 0
TEST_FRACTION = 0.25
LEARNING_RATE = 0.5
L2 = 1e-2
STEPS = 500
# The three runs do the same float64 arithmetic; XLA's exp/log and its
# summation order differ from NumPy's in the last bits, and gradient descent
# does not amplify such differences, so the loss trajectories agree far
# better than this.
LOSS_RTOL = 1e-9


# --------------------------------------------------------------------------- data (NumPy only)


def load_data(seed: int = SEED):
    """Breast-cancer data as NumPy float64 arrays: (X_train, y_train, X_test, y_test).

    A fixed permutation (``numpy.random.default_rng(seed)``) puts 25% of the
    samples in the test set; features are standardised with the training
    mean and standard deviation. Labels are 0.0/1.0.
    """
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    perm = numpy.random.default_rng(seed).permutation(len(y))
    n_test = int(round(TEST_FRACTION * len(y)))
    test, train = perm[:n_test], perm[n_test:]
    mu = X[train].mean(axis=0)
    sd = X[train].std(axis=0)
    X = (X - mu) / sd
    y = y.astype(numpy.float64)
    return X[train], y[train], X[test], y[test]


# --------------------------------------------------------------------------- the model (any np)


def make_step(np, lr: float = LEARNING_RATE, l2: float = L2):
    """One gradient-descent step written with the NumPy API of module ``np``.

    ``step(w, b, X, y) -> (w_new, b_new, loss)`` where ``loss`` is the
    regularised loss at ``(w, b)`` (before the update):
    ``mean(log(1 + exp(z)) - y z) + l2/2 |w|^2`` with ``z = X w + b``.
    """

    def step(w, b, X, y):
        n = X.shape[0]
        z = X @ w + b
        # softplus(z) = log(1 + exp(z)), written so that exp never overflows
        softplus = np.maximum(z, 0.0) + np.log(1.0 + np.exp(-np.abs(z)))
        loss = np.mean(softplus - y * z) + 0.5 * l2 * np.sum(w * w)
        p = 1.0 / (1.0 + np.exp(-z))  # sigmoid(z) = d softplus / dz
        r = (p - y) / n
        grad_w = X.T @ r + l2 * w
        grad_b = np.sum(r)
        return w - lr * grad_w, b - lr * grad_b, loss

    return step


def predict(np, w, b, X):
    """Class predictions (0.0/1.0) with the NumPy API of module ``np``."""
    return np.where(X @ w + b > 0.0, 1.0, 0.0)


def accuracy(np, w, b, X, y) -> float:
    """Fraction of correct predictions, as a Python float."""
    return float(np.mean(predict(np, w, b, X) == y))


# --------------------------------------------------------------------------- running one way


def _check_xnp_value(name: str, value, scalar: bool = False) -> None:
    """The xnp runs must produce xnp arrays: a NumPy array means a silent fallback. An
    eager full reduction (``scalar``) is NumPy's scalar, as NumPy's is (README,
    "Scalars"); under jit it is a 0-d xnp array."""
    if scalar and isinstance(value, numpy.generic):
        return
    if type(value) is not xnp.Array:
        raise TypeError(f"{name}: expected an xnp.Array, got {type(value).__name__}; "
                        "an xnp path returned a non-xnp value")


def run(label: str, np, step, data, steps: int = STEPS) -> dict:
    """Train with ``step`` (built for module ``np``); returns losses, timing and accuracy.

    The timed loop does not read the losses back (that would force a
    device-to-host transfer per step under jit); they are converted afterwards.
    ``step`` is called once before timing (for ``xnp.jit`` this call compiles).
    """
    X_train, y_train, X_test, y_test = (np.asarray(a) for a in data)
    d = X_train.shape[1]
    w0 = np.zeros(d)
    b0 = np.asarray(0.0)

    t0 = time.perf_counter()
    step(w0, b0, X_train, y_train)  # warm-up (compiles under jit)
    t_first = time.perf_counter() - t0

    w, b = w0, b0
    losses = []
    t0 = time.perf_counter()
    for _ in range(steps):
        w, b, loss = step(w, b, X_train, y_train)
        losses.append(loss)
    numpy.asarray(w)  # wait for the last step (jit runs asynchronously)
    elapsed = time.perf_counter() - t0

    if np is xnp:
        for name, value in (("w", w), ("b", b), ("loss", losses[-1])):
            _check_xnp_value(f"{label} {name}", value, name == "loss" and "jit" not in label)
    losses = numpy.array([float(v) for v in losses])
    final_loss = float(step(w, b, X_train, y_train)[2])
    return {
        "label": label,
        "losses": losses,
        "final_loss": final_loss,
        "train_acc": accuracy(np, w, b, X_train, y_train),
        "test_acc": accuracy(np, w, b, X_test, y_test),
        "first_call_s": t_first,
        "step_s": elapsed / steps,
    }


# --------------------------------------------------------------------------- main


def main(argv=None) -> bool:
    """Run the three ways, print a table, return True if they agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    args = parser.parse_args(argv)

    data = load_data()
    n_train, d = data[0].shape
    print(f"Logistic regression (L2={L2}, lr={LEARNING_RATE}) on sklearn breast_cancer: "
          f"{n_train} train / {len(data[3])} test samples, {d} standardised features, "
          f"{args.steps} full-batch gradient steps, float64.")

    results = [
        run("numpy", numpy, make_step(numpy), data, args.steps),
        run("xnp eager", xnp, make_step(xnp), data, args.steps),
        run("xnp.jit", xnp, xnp.jit(make_step(xnp)), data, args.steps),
    ]
    base = results[0]
    print(f"  {'way':<10} {'step (us)':>10} {'speed-up':>9} {'1st call (ms)':>14} "
          f"{'final loss':>20} {'train acc':>9} {'test acc':>9}")
    for r in results:
        print(f"  {r['label']:<10} {r['step_s'] * 1e6:>10.1f} "
              f"{base['step_s'] / r['step_s']:>8.2f}x {r['first_call_s'] * 1e3:>14.2f} "
              f"{r['final_loss']:>20.15f} {r['train_acc']:>9.4f} {r['test_acc']:>9.4f}")

    ok = True
    for r in results[1:]:
        rel = numpy.max(numpy.abs(r["losses"] - base["losses"]) / numpy.abs(base["losses"]))
        same_acc = r["test_acc"] == base["test_acc"] and r["train_acc"] == base["train_acc"]
        good = rel <= LOSS_RTOL and same_acc
        ok &= bool(good)
        print(f"  check {r['label']:<10} vs numpy: max rel. loss difference over "
              f"{args.steps} steps {rel:.1e} (tolerance {LOSS_RTOL:.0e}), "
              f"accuracy {'same' if same_acc else 'DIFFERENT'}: {'OK' if good else 'FAIL'}")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
