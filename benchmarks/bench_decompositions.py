"""(h) Matrix decompositions: ``xnp.jit`` (LAPACK custom calls through XLA:CPU) vs
NumPy side by side, for cholesky, svd, solve and eigh on 100x100 and 500x500 float64
matrices. jit inputs are device-resident outputs of a previous jitted call, so no
transfer is timed. Both sides call LAPACK (jaxlib's kernels from SciPy's build, and
NumPy's bundled one), so expect ratios near 1 plus XLA's per-call overhead at 100x100.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table

__all__ = ["main"]

_OPS = {
    "cholesky": (lambda a, b: xnp.linalg.cholesky(a), lambda a, b: numpy.linalg.cholesky(a)),
    "svd": (lambda a, b: xnp.linalg.svd(a), lambda a, b: numpy.linalg.svd(a)),
    "solve": (lambda a, b: xnp.linalg.solve(a, b), lambda a, b: numpy.linalg.solve(a, b)),
    "eigh": (lambda a, b: xnp.linalg.eigh(a), lambda a, b: numpy.linalg.eigh(a)),
}


def main() -> None:
    rng = numpy.random.default_rng(0)
    rows = []
    for n in (100, 500):
        x = rng.standard_normal((n, n))
        a_np = x @ x.T + n * numpy.eye(n)  # symmetric positive definite: valid for all four
        b_np = rng.standard_normal((n, 4))
        ident = xnp.jit(lambda v: v + 0.0)
        a_dev, b_dev = ident(a_np), ident(b_np)
        for name, (xf, nf) in _OPS.items():
            jf = xnp.jit(xf)
            st = measure({"numpy": lambda: nf(a_np, b_np), "xnp.jit": lambda: jf(a_dev, b_dev)},
                         repeat=5, target_s=0.05)
            ratio = st["xnp.jit"].median / st["numpy"].median
            rows.append([f"{name}, {n}x{n}", ms(st["numpy"].median), ms(st["xnp.jit"].median),
                         f"{ratio:.2f}x"])
    print_table("(h) decompositions, float64 (median ms per call)",
                ["op", "numpy", "xnp.jit", "jit/numpy"], rows,
                note="jit: device-resident inputs; both call LAPACK")


if __name__ == "__main__":
    main()
