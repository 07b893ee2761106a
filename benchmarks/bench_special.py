"""(s) Special functions and bit ops: ``xnp.jit`` vs NumPy/SciPy side by side (and xnp
eager, which calls SciPy/NumPy). n = 1e5 float64 (int64 for bitwise_count); jit inputs
are device-resident outputs of a previous jitted call. igamma/igammac lower to a
series / continued fraction in ``stablehlo.while`` loops (iterations until every
element converged; every iteration works on all elements, so expect them well behind
SciPy on CPU, which stops per element), i0 to a Chebyshev series, nextafter to integer
ops on the bits.
"""

from __future__ import annotations

import numpy
import scipy.special

import xnp
from _harness import measure, ms, print_table

__all__ = ["main"]

_OPS = {
    "igamma": (lambda a, x: xnp.lax.igamma(a, x), scipy.special.gammainc),
    "igammac": (lambda a, x: xnp.lax.igammac(a, x), scipy.special.gammaincc),
    "polygamma(1, x)": (lambda a, x: xnp.lax.polygamma(xnp.ones_like(x), x),
                        lambda a, x: scipy.special.polygamma(1, x)),
    "zeta": (lambda a, x: xnp.lax.zeta(a + 1.0, x), lambda a, x: scipy.special.zeta(a + 1.0, x)),
    "i0": (lambda a, x: xnp.i0(x), lambda a, x: numpy.i0(x)),
    "nextafter": (lambda a, x: xnp.nextafter(a, x), numpy.nextafter),
    "bitwise_count": (lambda a, x: xnp.bitwise_count(a), lambda a, x: numpy.bitwise_count(a)),
}


def main() -> None:
    rng = numpy.random.default_rng(0)
    n = 100_000
    floats = (rng.uniform(0.1, 20, n), rng.uniform(0.1, 30, n))
    ints = (rng.integers(-2**40, 2**40, n), rng.uniform(0.1, 30, n))
    ident = xnp.jit(lambda v: v + 0)
    rows = []
    for name, (xf, nf) in _OPS.items():
        a, x = ints if name == "bitwise_count" else floats
        a_dev, x_dev = ident(a), ident(x)
        a_eager, x_eager = xnp.asarray(a), xnp.asarray(x)
        jf = xnp.jit(xf)
        st = measure({"numpy/scipy": lambda: nf(a, x), "xnp.jit": lambda: jf(a_dev, x_dev),
                      "xnp eager": lambda: xf(a_eager, x_eager)}, repeat=5, target_s=0.02)
        ratio = st["xnp.jit"].median / st["numpy/scipy"].median
        rows.append([name, ms(st["numpy/scipy"].median), ms(st["xnp.jit"].median),
                     ms(st["xnp eager"].median), f"{ratio:.1f}x"])
    print_table(f"(s) special functions and bit ops, n={n} (median ms per call)",
                ["op", "numpy/scipy", "xnp.jit", "xnp eager", "jit/numpy"], rows,
                note="jit: device-resident inputs; eager runs SciPy/NumPy through xnp")


if __name__ == "__main__":
    main()
