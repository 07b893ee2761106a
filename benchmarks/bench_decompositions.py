"""(h) Matrix decompositions: ``xnp.jit`` (LAPACK custom calls through XLA:CPU) vs NumPy
vs ``jax.jit`` side by side, for cholesky, svd, solve and eigh on 100x100 and 500x500
float64 matrices. ``xnp.jit`` gets the eager arrays a user has, JAX ``jax.device_put``
arrays. All call LAPACK (jaxlib's kernels from SciPy's build, and NumPy's bundled one),
so expect ratios near 1 plus XLA's per-call overhead at 100x100.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case, waited_case

__all__ = ["main"]


def _ops(jnp):
    la = jnp.linalg if jnp is not None else None

    def j(fn):
        return fn if la is not None else None

    return {
        "cholesky": (lambda a, b: xnp.linalg.cholesky(a), lambda a, b: numpy.linalg.cholesky(a),
                     j(lambda a, b: la.cholesky(a))),
        "svd": (lambda a, b: xnp.linalg.svd(a), lambda a, b: numpy.linalg.svd(a),
                j(lambda a, b: la.svd(a))),
        "solve": (lambda a, b: xnp.linalg.solve(a, b), lambda a, b: numpy.linalg.solve(a, b),
                  j(lambda a, b: la.solve(a, b))),
        "eigh": (lambda a, b: xnp.linalg.eigh(a), lambda a, b: numpy.linalg.eigh(a),
                 j(lambda a, b: la.eigh(a))),
    }


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    cases = []
    for n in (100, 500):
        x = rng.standard_normal((n, n))
        a = x @ x.T + n * numpy.eye(n)  # symmetric positive definite: valid for all four
        b = rng.standard_normal((n, 4))
        for name, (xf, nf, jf) in _ops(jax.numpy if jax else None).items():
            label, ways = jit_case(f"{name}, {n}x{n}", (a, b), xf, nf, jf)
            del ways["xnp eager"]  # eager calls NumPy's LAPACK: the numpy column
            cases.append((label, ways))
    compare("(h) decompositions, float64", cases, repeat=3, target_s=0.05, unit="ms",
            layout="wide", note="all call LAPACK")
    compare("(h) decompositions, each call waited for", [waited_case(c) for c in cases],
            repeat=3, target_s=0.05, unit="ms", layout="wide", vs_jax=("xnp.jit",))


if __name__ == "__main__":
    main()
