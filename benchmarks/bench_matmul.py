"""(mm) Matrix products: ``a @ b`` of float64 matrices, 500x500 and 2000x2000.

NumPy (its BLAS) vs xnp eager (which calls NumPy) vs ``xnp.jit`` on the eager arrays
(each call puts them on the device; XLA:CPU's dot) vs JAX eager ``a @ b`` on device
arrays.
"""

from __future__ import annotations

import numpy

import xnp  # noqa: F401  (first: NumPy's arrays made after it are 64-byte aligned, as a user's)
import _jax
from _harness import compare, jit_case

__all__ = ["main"]


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    cases = []
    for n in (500, 2000):
        a, b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        label, ways = jit_case(f"{n}x{n} @ {n}x{n}", (a, b), lambda x, y: x @ y,
                               lambda x, y: x @ y)
        if jax is not None:
            aj, bj = _jax.put(a, b)
            ways["jax"] = lambda aj=aj, bj=bj: aj @ bj
        cases.append((label, ways))
    compare("(mm) matmul, float64", cases, repeat=3, target_s=0.05, unit="ms", layout="wide",
            note="jax: eager a @ b on device arrays")


if __name__ == "__main__":
    main()
