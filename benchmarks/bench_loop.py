"""(loop) ``lax.fori_loop`` cost per iteration: a 10-element float64 update
``x = x * 0.99 + 0.01 * sin(x)`` run N times.

NumPy runs it as a Python loop; xnp eager calls ``xnp.lax.fori_loop`` eagerly;
``xnp.jit`` and ``jax.jit`` compile one loop whose trip count N is an argument (a
``while`` loop; device-resident inputs), so one executable serves every N. The cost of
one iteration is ``(t(N=10^4) - t(N=10)) / (10^4 - 10)``: the call overhead cancels.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import Stats, device_resident, measure_cases, print_compare

__all__ = ["main", "body"]

SIZES = (10, 1000, 10_000)


def body(np):
    def f(i, x):
        return x * 0.99 + 0.01 * np.sin(x)

    return f


def main() -> None:
    jax = _jax.load()
    x_np = numpy.linspace(-1.0, 1.0, 10)
    x_e = xnp.asarray(x_np)
    x_d = device_resident(x_np)
    bn, bx = body(numpy), body(xnp)

    def numpy_loop(n):
        x = x_np
        for i in range(n):
            x = bn(i, x)
        return x

    jf = xnp.jit(lambda n, x: xnp.lax.fori_loop(0, n, bx, x))
    if jax is not None:
        bj = body(jax.numpy)
        jj = jax.jit(lambda n, x: jax.lax.fori_loop(0, n, bj, x))
        x_j = _jax.put(x_np)
    cases = []
    for n in SIZES:
        cases.append((f"N = {n}", {
            "numpy (Python loop)": lambda n=n: numpy_loop(n),
            "xnp eager fori_loop": lambda n=n: xnp.lax.fori_loop(0, n, bx, x_e),
            "xnp.jit fori_loop": lambda n=n: jf(n, x_d),
            "jax.jit fori_loop": (lambda n=n: jj(n, x_j)) if jax is not None else None,
        }))
    results = measure_cases(cases, repeat=5, target_s=0.02)
    lo, hi = results[0][1], results[-1][1]
    span = SIZES[-1] - SIZES[0]
    per = {}
    for name in hi:
        if isinstance(hi[name], Stats) and isinstance(lo.get(name), Stats):
            per[name] = Stats([(b - a) / span for a, b in zip(sorted(lo[name].samples),
                                                               sorted(hi[name].samples))])
    results.append(("per iteration", per))
    print_compare("(loop) fori_loop, 10-element update x * 0.99 + 0.01 * sin(x)", results,
                  note=f"per iteration = (t(N={SIZES[-1]}) - t(N={SIZES[0]})) / {span}, from "
                       "the sorted rounds; jit: the trip count is an argument, one executable")


if __name__ == "__main__":
    main()
