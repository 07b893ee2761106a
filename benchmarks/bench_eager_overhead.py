"""(a) Eager overhead of a tiny op: ``xnp.add`` vs ``numpy.add`` on 3-element float64 arrays.

Target: xnp within 3x of NumPy's call.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, print_table, us

__all__ = ["main"]


def main() -> None:
    a_np = numpy.arange(3.0)
    b_np = numpy.ones(3)
    a = xnp.asarray(a_np)
    b = xnp.asarray(b_np)
    fns = {
        "numpy.add(a, b)": lambda: numpy.add(a_np, b_np),
        "xnp.add(a, b)": lambda: xnp.add(a, b),
        "numpy a + b": lambda: a_np + b_np,
        "xnp a + b": lambda: a + b,
    }
    st = measure(fns, repeat=15)
    base = {"xnp.add(a, b)": "numpy.add(a, b)", "xnp a + b": "numpy a + b"}
    rows = []
    for k, s in st.items():
        ref = st[base.get(k, k)]
        rows.append([k, us(s.min), us(s.median), f"{s.min / ref.min:.2f}x",
                     f"{s.median / ref.median:.2f}x"])
    print_table("(a) eager overhead, tiny op (f64[3])", ["call", "min us", "median us",
                "/numpy (min)", "/numpy (median)"], rows, note="target: xnp within 3x of numpy")


if __name__ == "__main__":
    main()
