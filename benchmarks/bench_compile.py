"""(d) First call of a 200-op function: trace / lower / compile split.

Each round uses a fresh ``xnp.jit`` wrapper (empty cache) and times
``f.trace(x)``, ``.lower()`` and ``.compile()`` separately, plus one
end-to-end first call ``g(x)`` of another fresh wrapper (which also runs it).
Target: <= 80 ms in total.
"""

from __future__ import annotations

import time

import numpy

import xnp
from _harness import ms, print_table, Stats

__all__ = ["main", "f200"]

BLOCKS = 50  # 4 elementwise ops per block


def f200(x):
    """200 elementwise equations: (mul, add, sub, maximum) x 50."""
    y = x
    for i in range(BLOCKS):
        y = xnp.maximum(y * 0.999 + x, y - 0.5)
    return y


def main(repeat: int = 5) -> None:
    x = numpy.linspace(-1.0, 1.0, 100)
    phases = {"trace": [], "lower": [], "compile": [], "trace+lower+compile": [],
              "first call (end to end)": []}
    n_eqns = None
    for _ in range(repeat):
        f = xnp.jit(f200)
        t0 = time.perf_counter()
        traced = f.trace(x)
        t1 = time.perf_counter()
        lowered = traced.lower()
        t2 = time.perf_counter()
        lowered.compile()
        t3 = time.perf_counter()
        n_eqns = len(traced.jaxpr.jaxpr.eqns)
        phases["trace"].append(t1 - t0)
        phases["lower"].append(t2 - t1)
        phases["compile"].append(t3 - t2)
        phases["trace+lower+compile"].append(t3 - t0)
        g = xnp.jit(f200)
        t0 = time.perf_counter()
        numpy.asarray(g(x))
        phases["first call (end to end)"].append(time.perf_counter() - t0)
    rows = []
    for k, v in phases.items():
        s = Stats(v)
        rows.append([k, ms(s.min), ms(s.median)])
    print_table(f"(d) first call of a {n_eqns}-equation function (f64[100])",
                ["phase", "min ms", "median ms"], rows,
                note=f"target: <= 80 ms total; {repeat} rounds, fresh jit wrapper each")


if __name__ == "__main__":
    main()
