"""(g) Sorting and cumulative ops: ``xnp.jit`` vs NumPy side by side (and xnp eager,
which calls NumPy). Sizes 1e3 and 1e5 (float64); jit inputs are device-resident
outputs of a previous jitted call, so no transfer is timed. XLA:CPU sorts with a
generic comparator sort, so expect jit sorts to be several times slower than
NumPy's on one core; cumulative ops lower to a log-depth reduce_window scan.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table

__all__ = ["main"]

_OPS = {
    "sort": (lambda x: xnp.sort(x), numpy.sort),
    "argsort": (lambda x: xnp.argsort(x), numpy.argsort),
    "cumsum": (lambda x: xnp.cumsum(x), numpy.cumsum),
    "cummax": (lambda x: xnp.lax.cummax(x), numpy.maximum.accumulate),
    "searchsorted (1e3 queries)": (
        lambda x: xnp.searchsorted(x, x[:1000]), lambda x: numpy.searchsorted(x, x[:1000])),
}


def main() -> None:
    rng = numpy.random.default_rng(0)
    rows = []
    for n in (1_000, 100_000):
        x_np = rng.standard_normal(n)
        x_sorted = numpy.sort(x_np)
        ident = xnp.jit(lambda v: v + 0.0)
        for name, (xf, nf) in _OPS.items():
            data = x_sorted if name.startswith("searchsorted") else x_np
            x_dev = ident(data)  # device-resident input
            x_eager = xnp.asarray(data)
            jf = xnp.jit(xf)
            st = measure({"numpy": lambda: nf(data), "xnp.jit": lambda: jf(x_dev),
                          "xnp eager": lambda: xf(x_eager)}, repeat=5, target_s=0.02)
            ratio = st["xnp.jit"].median / st["numpy"].median
            rows.append([f"{name}, n={n}", ms(st["numpy"].median), ms(st["xnp.jit"].median),
                         ms(st["xnp eager"].median), f"{ratio:.1f}x"])
    print_table("(g) sorting and cumulative ops, float64 (median ms per call)",
                ["op", "numpy", "xnp.jit", "xnp eager", "jit/numpy"], rows,
                note="jit: device-resident inputs; eager runs NumPy through xnp's dispatch")


if __name__ == "__main__":
    main()
