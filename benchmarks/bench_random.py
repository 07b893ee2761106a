"""(r) Random numbers: ``xnp.random`` under ``xnp.jit`` vs ``numpy.random.default_rng``
vs ``jax.random`` under ``jax.jit`` side by side (and xnp eager, whose Threefry runs as
vectorised NumPy uint32 ops). One million float64 normals / uniforms and int64 integers
per call. NumPy uses PCG64 with the ziggurat for normals; xnp and JAX use Threefry-2x32
(20 rounds) and ``erf_inv``, so expect the jitted draws to be slower per number than
NumPy's on one CPU core.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare
from xnp import random as xr

__all__ = ["main"]

N = 1_000_000


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    jr = jax.random if jax is not None else None
    specs = {
        "normal": (lambda k: xr.normal(k, (N,)), lambda: rng.standard_normal(N),
                   lambda k: jr.normal(k, (N,))),
        "uniform": (lambda k: xr.uniform(k, (N,)), lambda: rng.random(N),
                    lambda k: jr.uniform(k, (N,))),
        "randint [0, 100)": (lambda k: xr.randint(k, (N,), 0, 100),
                             lambda: rng.integers(0, 100, N),
                             lambda k: jr.randint(k, (N,), 0, 100)),
        "split 1e6 keys": (lambda k: xr.split(k, N), None, lambda k: jr.split(k, N)),
    }
    key = xr.PRNGKey(0)
    jkey = jr.PRNGKey(0) if jax is not None else None
    cases = []
    for name, (xf, nf, jf) in specs.items():
        jit_x = xnp.jit(xf)
        ways = {"numpy default_rng": nf, "xnp eager": lambda xf=xf: xf(key),
                "xnp.jit": lambda jit_x=jit_x: jit_x(key), "jax.jit": None}
        if jax is not None:
            jit_j = jax.jit(jf)
            ways["jax.jit"] = lambda jit_j=jit_j: jit_j(jkey)
        cases.append((f"{name}, n=1e6", ways))
    compare("(r) random numbers, 1e6 draws", cases, repeat=5, target_s=0.05, unit="ms",
            layout="wide", vs_jax=("xnp.jit",),
            note="xnp and jax: Threefry-2x32 keys; numpy: PCG64")


if __name__ == "__main__":
    main()
