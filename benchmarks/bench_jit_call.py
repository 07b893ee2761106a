"""(c) Cached ``xnp.jit`` call of a tiny function (``x + y`` on f64[3]).

Three kinds of input: device-resident arrays (the output of a previous jitted
call, which keeps its device buffer), fresh NumPy arrays (one host-to-device
put per argument per call), and eager ``xnp.Array``s (also put per call).
Target: <= 8 us per cached call.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, print_table, us

__all__ = ["main"]


def main() -> None:
    f = xnp.jit(lambda x, y: x + y)
    x_np = numpy.arange(3.0)
    y_np = numpy.ones(3)
    x_eager = xnp.asarray(x_np)
    y_eager = xnp.asarray(y_np)
    x_dev = f(x_np, y_np)  # outputs of a jitted call: device-resident
    y_dev = f(y_np, x_np)
    fns = {
        "jit, device-resident inputs": lambda: f(x_dev, y_dev),
        "jit, fresh numpy inputs": lambda: f(x_np, y_np),
        "jit, eager xnp.Array inputs": lambda: f(x_eager, y_eager),
        "reference: numpy.add": lambda: numpy.add(x_np, y_np),
        "reference: xnp.add (eager)": lambda: xnp.add(x_eager, y_eager),
    }
    st = measure(fns, repeat=9)
    rows = [[k, us(s.min), us(s.median)] for k, s in st.items()]
    print_table("(c) cached jit call, tiny function (x + y, f64[3])",
                ["call", "min us", "median us"], rows,
                note=f"target: <= 8 us per cached call; traces: {f.trace_count}")


if __name__ == "__main__":
    main()
