"""(b) Large eager ops: 10^7 float64 elementwise ops and reductions, xnp eager vs NumPy
vs JAX eager (``jax.numpy`` on device arrays).

Target: xnp within 1.05x of NumPy.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare

__all__ = ["main"]

N = 10**7


def main() -> None:
    rng = numpy.random.default_rng(0)
    a_np = rng.standard_normal(N)
    b_np = rng.standard_normal(N)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    jax = _jax.load()
    jnp = jax.numpy if jax is not None else None
    if jax is not None:
        aj, bj = _jax.put(a_np, b_np)
    ops = {
        "add": (lambda: numpy.add(a_np, b_np), lambda: xnp.add(a, b), lambda: jnp.add(aj, bj)),
        "a * b": (lambda: a_np * b_np, lambda: a * b, lambda: aj * bj),
        "exp": (lambda: numpy.exp(a_np), lambda: xnp.exp(a), lambda: jnp.exp(aj)),
        "sum": (lambda: numpy.sum(a_np), lambda: xnp.sum(a), lambda: jnp.sum(aj)),
        "max": (lambda: numpy.max(a_np), lambda: xnp.max(a), lambda: jnp.max(aj)),
        "mean": (lambda: numpy.mean(a_np), lambda: xnp.mean(a), lambda: jnp.mean(aj)),
    }
    cases = [(name, {"numpy": f_np, "xnp": f_x, "jax": f_j if jax is not None else None})
             for name, (f_np, f_x, f_j) in ops.items()]
    compare("(b) large eager ops, 10^7 float64", cases, repeat=7, number=1, unit="ms",
            layout="wide", note="target: xnp within 1.05x of numpy")


if __name__ == "__main__":
    main()
