"""(r) Random numbers: ``xnp.random`` under ``xnp.jit`` vs ``numpy.random.default_rng``
side by side (and xnp eager, whose Threefry runs as vectorised NumPy uint32 ops).
One million float64 normals / uniforms and int64 integers per call. NumPy uses
PCG64 with the ziggurat for normals; xnp uses Threefry-2x32 (20 rounds) and
``erf_inv``, so expect the jitted draws to be slower per number on one CPU core.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table
from xnp import random as xr

__all__ = ["main"]

N = 1_000_000


def _cases(rng):
    return {
        "normal": (lambda k: xr.normal(k, (N,)), lambda: rng.standard_normal(N)),
        "uniform": (lambda k: xr.uniform(k, (N,)), lambda: rng.random(N)),
        "randint [0, 100)": (lambda k: xr.randint(k, (N,), 0, 100),
                             lambda: rng.integers(0, 100, N)),
        "split 1e6 keys": (lambda k: xr.split(k, N), None),
    }


def main() -> None:
    rng = numpy.random.default_rng(0)
    key = xr.PRNGKey(0)
    rows = []
    for name, (xf, nf) in _cases(rng).items():
        jf = xnp.jit(xf)
        fns = {"xnp.jit": lambda: jf(key), "xnp eager": lambda: xf(key)}
        if nf is not None:
            fns["numpy"] = nf
        st = measure(fns, repeat=5, target_s=0.05)
        np_ms = ms(st["numpy"].median) if nf is not None else "-"
        ratio = f"{st['xnp.jit'].median / st['numpy'].median:.1f}x" if nf is not None else "-"
        rows.append([f"{name}, n=1e6", np_ms, ms(st["xnp.jit"].median),
                     ms(st["xnp eager"].median), ratio])
    print_table("(r) random numbers, 1e6 draws (median ms per call)",
                ["draw", "numpy default_rng", "xnp.jit", "xnp eager", "jit/numpy"], rows,
                note="xnp: Threefry-2x32 keys (JAX's algorithms); numpy: PCG64")


if __name__ == "__main__":
    main()
