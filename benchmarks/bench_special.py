"""(s) Special functions and bit ops: ``xnp.jit`` vs NumPy/SciPy vs ``jax.jit`` side by
side (and xnp eager, which calls SciPy/NumPy). n = 1e5 float64 (int64 for
bitwise_count); ``xnp.jit`` gets the eager arrays a user has, JAX ``jax.device_put``
arrays. igamma/igammac lower to a series / continued fraction in ``stablehlo.while``
loops (iterations until every element converged; every iteration works on all elements,
so expect them well behind SciPy on CPU, which stops per element), i0 to a Chebyshev
series, nextafter to integer ops on the bits.
"""

from __future__ import annotations

import numpy
import scipy.special

import _jax
import xnp
from _harness import compare, jit_case, waited_case

__all__ = ["main"]


def _ops(jax):
    lax = jax.lax if jax is not None else None
    jnp = jax.numpy if jax is not None else None

    def j(fn):
        return fn if jax is not None else None

    return {
        "igamma": (lambda a, x: xnp.lax.igamma(a, x), scipy.special.gammainc,
                   j(lambda a, x: lax.igamma(a, x))),
        "igammac": (lambda a, x: xnp.lax.igammac(a, x), scipy.special.gammaincc,
                    j(lambda a, x: lax.igammac(a, x))),
        "polygamma(1, x)": (lambda a, x: xnp.lax.polygamma(xnp.ones_like(x), x),
                            lambda a, x: scipy.special.polygamma(1, x),
                            j(lambda a, x: lax.polygamma(jnp.ones_like(x), x))),
        "zeta": (lambda a, x: xnp.lax.zeta(a + 1.0, x),
                 lambda a, x: scipy.special.zeta(a + 1.0, x),
                 j(lambda a, x: lax.zeta(a + 1.0, x))),
        "i0": (lambda a, x: xnp.i0(x), lambda a, x: numpy.i0(x), j(lambda a, x: jnp.i0(x))),
        "nextafter": (lambda a, x: xnp.nextafter(a, x), numpy.nextafter,
                      j(lambda a, x: jnp.nextafter(a, x))),
        "bitwise_count": (lambda a, x: xnp.bitwise_count(a),
                          lambda a, x: numpy.bitwise_count(a),
                          j(lambda a, x: jnp.bitwise_count(a))),
    }


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    n = 100_000
    floats = (rng.uniform(0.1, 20, n), rng.uniform(0.1, 30, n))
    ints = (rng.integers(-2**40, 2**40, n), rng.uniform(0.1, 30, n))
    cases = []
    for name, (xf, nf, jf) in _ops(jax).items():
        data = ints if name == "bitwise_count" else floats
        label, ways = jit_case(name, data, xf, nf, jf)
        cases.append((label, {("numpy/scipy" if k == "numpy" else k): f for k, f in ways.items()}))
    compare(f"(s) special functions and bit ops, n={n}", cases, repeat=5, target_s=0.02,
            unit="ms", layout="wide", vs_jax=("xnp.jit",),
            note="xnp eager runs SciPy/NumPy through xnp")
    compare(f"(s) special functions and bit ops, n={n}, each call waited for",
            [waited_case(c) for c in cases], repeat=5, target_s=0.02, unit="ms",
            layout="wide", vs_jax=("xnp.jit",))


if __name__ == "__main__":
    main()
