"""(f) The demos' steps: NumPy vs xnp eager vs ``xnp.jit``, per step.

Logistic regression: one full-batch gradient step (427 x 30). N-body: one
leapfrog step of 9 bodies, and under jit also the demo's unrolled multi-step
call divided by its step count. Inputs to the jitted calls are device-resident
(outputs of a previous jitted call), as in the demos' loops.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import examples_on_path, measure, print_table, us

__all__ = ["main"]


def _rows(title, st, per_call_steps):
    base = st["numpy"]
    rows = []
    for k, s in st.items():
        n = per_call_steps.get(k, 1)
        rows.append([f"{title}: {k}", us(s.min / n), us(s.median / n),
                     f"{base.min / (s.min / n):.2f}x", f"{base.median / (s.median / n):.2f}x"])
    return rows


def logistic_rows():
    import logistic_regression as lr

    data = lr.load_data()
    X, y = data[0], data[1]
    d = X.shape[1]
    step_np = lr.make_step(numpy)
    step_x = lr.make_step(xnp)
    step_j = xnp.jit(lr.make_step(xnp))
    w_np, b_np = numpy.zeros(d), numpy.asarray(0.0)
    Xe, ye = xnp.asarray(X), xnp.asarray(y)
    w_e, b_e = xnp.zeros(d), xnp.asarray(0.0)
    w_j, b_j, _ = step_j(w_e, b_e, Xe, ye)  # device-resident
    X_j, y_j = xnp.jit(lambda a, b: (a * 1.0, b * 1.0))(X, y)
    st = measure({
        "numpy": lambda: step_np(w_np, b_np, X, y),
        "xnp eager": lambda: step_x(w_e, b_e, Xe, ye),
        "xnp.jit": lambda: step_j(w_j, b_j, X_j, y_j),
    }, repeat=15)
    return _rows("logistic step", st, {})


def nbody_rows():
    import nbody

    x0, v0 = nbody.initial_state()
    gm_np = nbody.GM
    mask_np = 1.0 - numpy.eye(len(gm_np))
    a0 = nbody.accelerations(numpy, x0, gm_np, mask_np)
    step_np = nbody.make_step(numpy)
    step_x = nbody.make_step(xnp)
    step_j = xnp.jit(nbody.make_step(xnp))
    chunk = nbody.CHUNK
    multi_j = xnp.jit(nbody.make_multi_step(xnp, chunk))
    xe, ve, ae, gme, maske = (xnp.asarray(t) for t in (x0, v0, a0, gm_np, mask_np))
    dev = xnp.jit(lambda *t: tuple(u * 1.0 for u in t))(x0, v0, a0, gm_np, mask_np)
    st = measure({
        "numpy": lambda: step_np(x0, v0, a0, gm_np, mask_np),
        "xnp eager": lambda: step_x(xe, ve, ae, gme, maske),
        "xnp.jit (1 step/call)": lambda: step_j(*dev),
        f"xnp.jit ({chunk} steps/call)": lambda: multi_j(*dev),
    }, repeat=15)
    return _rows("n-body step", st, {f"xnp.jit ({chunk} steps/call)": chunk})


def main() -> None:
    examples_on_path()
    rows = []
    for make in (logistic_rows, nbody_rows):
        try:
            rows += make()
        except Exception as e:  # a missing xnp function: report it in the table
            rows.append([make.__name__, "-", "-", "-", f"error: {type(e).__name__}: {e}"])
    print_table("(f) demo steps", ["step", "min us/step", "median us/step",
                "speed-up (min)", "speed-up (median)"], rows)


if __name__ == "__main__":
    main()
