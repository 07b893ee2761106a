"""(e) A 20-op elementwise chain on 10^7 float64: ``xnp.jit`` (one fused XLA loop) vs NumPy.

NumPy runs the chain op by op (20 temporaries of 80 MB); xnp eager does the
same through xnp; the jitted version is one XLA executable. Target: jit >= 6x
faster than NumPy.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table

__all__ = ["main", "chain20"]

N = 10**7


def chain20(np, x):
    """20 elementwise ops, written against module ``np``."""
    y = x * 0.5 + 1.0  # 2
    y = y * x - 0.25  # 4
    y = np.maximum(y, -1.0)  # 5
    y = y * y + x  # 7
    y = np.minimum(y, 4.0)  # 8
    y = y / (1.0 + x * x)  # 11
    y = np.abs(y - 0.1)  # 13
    y = y * 3.0 - x  # 15
    y = np.sqrt(y * y + 1.0)  # 18
    return y - x * 0.5  # 20


def main() -> None:
    x_np = numpy.random.default_rng(0).standard_normal(N)
    x_eager = xnp.asarray(x_np)
    f = xnp.jit(lambda x: chain20(xnp, x))
    n_eqns = len(f.trace(x_np).jaxpr.jaxpr.eqns)
    x_dev = xnp.jit(lambda x: x * 1.0)(x_np)  # device-resident copy of x
    ref = chain20(numpy, x_np)
    err = numpy.max(numpy.abs(numpy.asarray(f(x_dev)) - ref) / (1.0 + numpy.abs(ref)))
    fns = {
        "numpy": lambda: chain20(numpy, x_np),
        "xnp eager": lambda: chain20(xnp, x_eager),
        "xnp.jit, device-resident input": lambda: f(x_dev),
        "xnp.jit, fresh numpy input": lambda: f(x_np),
    }
    st = measure(fns, repeat=7, number=1)
    n = st["numpy"]
    rows = [[k, ms(s.min), ms(s.median), f"{n.min / s.min:.2f}x", f"{n.median / s.median:.2f}x"]
            for k, s in st.items()]
    print_table(f"(e) {n_eqns}-op elementwise chain, 10^7 float64", ["way", "min ms", "median ms",
                "speed-up (min)", "speed-up (median)"], rows,
                note=f"target: jit >= 6x; max rel. difference jit vs numpy {err:.1e}")


if __name__ == "__main__":
    main()
