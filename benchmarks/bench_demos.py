"""(f) The demos' steps: NumPy vs xnp eager vs ``xnp.jit`` vs ``jax.jit``, per step.

* Logistic regression: one full-batch gradient step (427 x 30, hand-written gradient).
  ``xnp.jit`` as in the demo's loop (the weights are outputs of the previous call, the
  data the eager arrays a user has) and with device-resident data.
* MLP: one ``jit(value_and_grad)`` step of the 30-32-1 network (the data are constants
  of the jitted function, as in the demo); NumPy with its hand-written backward pass.
* N-body: one leapfrog step of 9 bodies; jitted one step per call, and as the demo runs
  it, a ``fori_loop`` of 1000 steps in one call (divided by 1000).

JAX runs the same code (``jax.numpy`` as the module) on ``jax.device_put`` inputs.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, device_resident, examples_on_path

__all__ = ["main"]

LOOP_STEPS = 1000


def logistic_case():
    import logistic_regression as lr

    jax = _jax.load()
    X, y = lr.load_data()[:2]
    d = X.shape[1]
    step_np = lr.make_step(numpy)
    step_x = lr.make_step(xnp)
    step_j = xnp.jit(lr.make_step(xnp))
    w_np, b_np = numpy.zeros(d), numpy.asarray(0.0)
    Xe, ye = xnp.asarray(X), xnp.asarray(y)
    w_e, b_e = xnp.zeros(d), xnp.asarray(0.0)
    w_j, b_j, _ = step_j(w_e, b_e, Xe, ye)  # device-resident, as in the demo's loop
    X_d, y_d = device_resident(X, y)
    ways = {
        "numpy": lambda: step_np(w_np, b_np, X, y),
        "xnp eager": lambda: step_x(w_e, b_e, Xe, ye),
        "xnp.jit (as in the demo)": lambda: step_j(w_j, b_j, Xe, ye),
        "xnp.jit, device-resident data": lambda: step_j(w_j, b_j, X_d, y_d),
        "jax.jit": None,
    }
    if jax is not None:
        sj = jax.jit(lr.make_step(jax.numpy))
        args = _jax.put(w_np, b_np, X, y)
        ways["jax.jit"] = lambda: sj(*args)
    return f"logistic step {X.shape[0]}x{d}", ways


def mlp_case():
    import mlp_grad
    from logistic_regression import load_data

    jax = _jax.load()
    X, y = load_data()[:2]
    p_np = mlp_grad.init_params(X.shape[1])

    def np_step(p):
        g = mlp_grad.numpy_grad(p, X, y)
        return tuple(a - mlp_grad.LEARNING_RATE * b for a, b in zip(p, g)), mlp_grad.loss(
            numpy, p, X, y)

    def make(np, value_and_grad, jit, Xc, yc):
        vg = value_and_grad(lambda p: mlp_grad.loss(np, p, Xc, yc))

        @jit
        def step(p):
            value, g = vg(p)
            return tuple(a - mlp_grad.LEARNING_RATE * b for a, b in zip(p, g)), value

        return step

    xs = make(xnp, xnp.value_and_grad, xnp.jit, xnp.asarray(X), xnp.asarray(y))
    p_x = xs(tuple(xnp.asarray(a) for a in p_np))[0]  # device-resident parameters
    ways = {"numpy (hand-written grad)": lambda: np_step(p_np),
            "xnp.jit(value_and_grad)": lambda: xs(p_x), "jax.jit(value_and_grad)": None}
    if jax is not None:
        js = make(jax.numpy, jax.value_and_grad, jax.jit, *_jax.put(X, y))
        p_j = tuple(_jax.put(a) for a in p_np)
        ways["jax.jit(value_and_grad)"] = lambda: js(p_j)
    return f"MLP step {X.shape[0]}x{X.shape[1]}-{mlp_grad.HIDDEN}-1", ways


def nbody_case():
    import nbody

    jax = _jax.load()
    x0, v0 = nbody.initial_state()
    gm_np = nbody.GM
    mask_np = 1.0 - numpy.eye(len(gm_np))
    a0 = nbody.accelerations(numpy, x0, gm_np, mask_np)
    state = (x0, v0, a0, gm_np, mask_np)
    step_np = nbody.make_step(numpy)
    step_x = nbody.make_step(xnp)
    step_j = xnp.jit(nbody.make_step(xnp))
    loop_j = xnp.jit(nbody.make_loop(xnp, xnp.lax.fori_loop))
    eager = tuple(xnp.asarray(t) for t in state)
    dev = device_resident(*state)
    ways = {
        "numpy": lambda: step_np(*state),
        "xnp eager": lambda: step_x(*eager),
        "xnp.jit, 1 step/call": lambda: step_j(*dev),
        f"xnp.jit, fori_loop {LOOP_STEPS} steps/call": (lambda: loop_j(LOOP_STEPS, *dev),
                                                        LOOP_STEPS),
        "jax.jit, 1 step/call": None,
        f"jax.jit, fori_loop {LOOP_STEPS} steps/call": None,
    }
    if jax is not None:
        sj = jax.jit(nbody.make_step(jax.numpy))
        lj = jax.jit(nbody.make_loop(jax.numpy, jax.lax.fori_loop))
        jd = _jax.put(*state)
        ways["jax.jit, 1 step/call"] = lambda: sj(*jd)
        ways[f"jax.jit, fori_loop {LOOP_STEPS} steps/call"] = (lambda: lj(LOOP_STEPS, *jd),
                                                               LOOP_STEPS)
    return "n-body step, 9 bodies", ways


def _reraise(e):
    raise e


def main() -> None:
    examples_on_path()
    cases = []
    for make in (logistic_case, mlp_case, nbody_case):
        try:
            cases.append(make())
        except Exception as e:  # noqa: BLE001  (a missing xnp function: report it)
            cases.append((make.__name__, {"numpy": lambda e=e: _reraise(e)}))
    compare("(f) demo steps", cases, repeat=9, per="step",
            note="jit inputs: device-resident unless said otherwise (as in the demos' loops)")


if __name__ == "__main__":
    main()
