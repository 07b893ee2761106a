"""(g) Sorting and cumulative ops: ``xnp.jit`` vs NumPy side by side (and xnp eager,
which calls NumPy). Sizes 1e3 and 1e5 (float64); jit inputs are device-resident
outputs of a previous jitted call, so no transfer is timed. XLA:CPU sorts with a
generic comparator sort, so expect jit sorts to be several times slower than
NumPy's on one core; cumulative ops lower to a log-depth reduce_window scan.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import jit_numpy_eager_row, print_table

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
        for name, (xf, nf) in _OPS.items():
            data = x_sorted if name.startswith("searchsorted") else x_np
            rows.append(jit_numpy_eager_row(f"{name}, n={n}", (data,), xf, nf))
    print_table("(g) sorting and cumulative ops, float64 (median ms per call)",
                ["op", "numpy", "xnp.jit", "xnp eager", "jit/numpy"], rows,
                note="jit: device-resident inputs; eager runs NumPy through xnp's dispatch")


if __name__ == "__main__":
    main()
