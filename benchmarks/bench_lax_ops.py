"""(g) Sorting and cumulative ops: ``xnp.jit`` vs NumPy vs ``jax.jit`` side by side (and
xnp eager, which calls NumPy). Sizes 1e3 and 1e5 (float64); ``xnp.jit`` gets the eager
arrays a user has, JAX ``jax.device_put`` arrays. XLA:CPU sorts with a generic
comparator sort, so expect jit sorts to be several times slower than NumPy's on one
core; cumulative ops lower to a log-depth reduce_window scan.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case, waited_case

__all__ = ["main"]


def _ops(jax):
    jnp = jax.numpy if jax is not None else None
    return {
        "sort": (lambda x: xnp.sort(x), numpy.sort, lambda x: jnp.sort(x)),
        "argsort": (lambda x: xnp.argsort(x), numpy.argsort, lambda x: jnp.argsort(x)),
        "cumsum": (lambda x: xnp.cumsum(x), numpy.cumsum, lambda x: jnp.cumsum(x)),
        "cummax": (lambda x: xnp.lax.cummax(x), numpy.maximum.accumulate,
                   lambda x: jax.lax.cummax(x)),
        "searchsorted (1e3 queries)": (
            lambda x: xnp.searchsorted(x, x[:1000]), lambda x: numpy.searchsorted(x, x[:1000]),
            lambda x: jnp.searchsorted(x, x[:1000])),
    }


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    cases = []
    for n in (1_000, 100_000):
        x_np = rng.standard_normal(n)
        x_sorted = numpy.sort(x_np)
        for name, (xf, nf, jf) in _ops(jax).items():
            data = x_sorted if name.startswith("searchsorted") else x_np
            cases.append(jit_case(f"{name}, n={n}", (data,), xf, nf, jf))
    compare("(g) sorting and cumulative ops, float64", cases, repeat=5, target_s=0.02,
            unit="ms", layout="wide", vs_jax=("xnp.jit",),
            note="xnp eager runs NumPy through xnp's dispatch")
    compare("(g) sorting and cumulative ops, each call waited for",
            [waited_case(c) for c in cases], repeat=5, target_s=0.02, unit="ms",
            layout="wide", vs_jax=("xnp.jit",))


if __name__ == "__main__":
    main()
