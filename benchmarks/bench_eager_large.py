"""(b) Large eager ops: 10^7 float64 add / exp / sum, xnp eager vs NumPy.

Target: xnp within 1.05x of NumPy.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table

__all__ = ["main"]

N = 10**7


def main() -> None:
    rng = numpy.random.default_rng(0)
    a_np = rng.standard_normal(N)
    b_np = rng.standard_normal(N)
    a = xnp.asarray(a_np)
    b = xnp.asarray(b_np)
    ops = {
        "add": (lambda: numpy.add(a_np, b_np), lambda: xnp.add(a, b)),
        "exp": (lambda: numpy.exp(a_np), lambda: xnp.exp(a)),
        "sum": (lambda: numpy.sum(a_np), lambda: xnp.sum(a)),
    }
    rows = []
    for name, (f_np, f_x) in ops.items():
        try:
            st = measure({"numpy": f_np, "xnp": f_x}, repeat=9, number=1)
        except Exception as e:  # a missing xnp function: report it in the table
            rows.append([name, "-", "-", "-", "-", "-", f"error: {type(e).__name__}: {e}"])
            continue
        n, x = st["numpy"], st["xnp"]
        rows.append([name, ms(n.min), ms(x.min), ms(n.median), ms(x.median),
                     f"{x.min / n.min:.3f}x", f"{x.median / n.median:.3f}x"])
    print_table("(b) large eager ops, 10^7 float64", ["op", "numpy min ms", "xnp min ms",
                "numpy med ms", "xnp med ms", "xnp/numpy (min)",
                "xnp/numpy (median)"], rows,
                note="target: xnp within 1.05x of numpy")


if __name__ == "__main__":
    main()
