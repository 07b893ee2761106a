"""(a) Eager overhead of small calls: xnp vs NumPy side by side.

Tiny ops on 3-element float64 arrays (``add``, ``+``) and common NumPy-style calls on
3x4 float64 arrays (reductions, ``@``/``dot``, ``where``, reshape/transpose,
``concatenate``, creation and conversion), all served by the eager fast path
(:mod:`xnp.tracing.fastpath`). Target: xnp within 3x of NumPy's call.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, print_table, us

__all__ = ["main"]


def _cases():
    """``(label, numpy_callable, xnp_callable)`` rows."""
    a_np, b_np = numpy.arange(3.0), numpy.ones(3)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    x_np = numpy.arange(12.0).reshape(3, 4)
    y_np = numpy.ones((4, 3))
    c_np = x_np > 5.0
    x, y, c = xnp.asarray(x_np), xnp.asarray(y_np), xnp.asarray(c_np)
    return [
        ("add(a, b) f64[3]", lambda: numpy.add(a_np, b_np), lambda: xnp.add(a, b)),
        ("a + b f64[3]", lambda: a_np + b_np, lambda: a + b),
        ("sum(x)", lambda: numpy.sum(x_np), lambda: xnp.sum(x)),
        ("sum(x, axis=0)", lambda: numpy.sum(x_np, axis=0), lambda: xnp.sum(x, axis=0)),
        ("x.sum(axis=1, keepdims)", lambda: x_np.sum(axis=1, keepdims=True),
         lambda: x.sum(axis=1, keepdims=True)),
        ("mean(x)", lambda: numpy.mean(x_np), lambda: xnp.mean(x)),
        ("prod(x, axis=1)", lambda: numpy.prod(x_np, axis=1), lambda: xnp.prod(x, axis=1)),
        ("max(x)", lambda: numpy.max(x_np), lambda: xnp.max(x)),
        ("x.min(axis=0)", lambda: x_np.min(axis=0), lambda: x.min(axis=0)),
        ("any(c)", lambda: numpy.any(c_np), lambda: xnp.any(c)),
        ("all(c, axis=1)", lambda: numpy.all(c_np, axis=1), lambda: xnp.all(c, axis=1)),
        ("x @ y", lambda: x_np @ y_np, lambda: x @ y),
        ("matmul(x, y)", lambda: numpy.matmul(x_np, y_np), lambda: xnp.matmul(x, y)),
        ("dot(x, y)", lambda: numpy.dot(x_np, y_np), lambda: xnp.dot(x, y)),
        ("where(c, x, x)", lambda: numpy.where(c_np, x_np, x_np),
         lambda: xnp.where(c, x, x)),
        ("x.reshape(4, 3)", lambda: x_np.reshape(4, 3), lambda: x.reshape(4, 3)),
        ("reshape(x, (2, 6))", lambda: numpy.reshape(x_np, (2, 6)),
         lambda: xnp.reshape(x, (2, 6))),
        ("x.T", lambda: x_np.T, lambda: x.T),
        ("transpose(x)", lambda: numpy.transpose(x_np), lambda: xnp.transpose(x)),
        ("concatenate([x, x])", lambda: numpy.concatenate([x_np, x_np]),
         lambda: xnp.concatenate([x, x])),
        ("zeros(5)", lambda: numpy.zeros(5), lambda: xnp.zeros(5)),
        ("ones((3, 4), float32)", lambda: numpy.ones((3, 4), numpy.float32),
         lambda: xnp.ones((3, 4), xnp.float32)),
        ("full((3, 4), 2.0)", lambda: numpy.full((3, 4), 2.0), lambda: xnp.full((3, 4), 2.0)),
        ("asarray([1.0, 2.0])", lambda: numpy.asarray([1.0, 2.0]),
         lambda: xnp.asarray([1.0, 2.0])),
        ("asarray(ndarray)", lambda: numpy.asarray(x_np), lambda: xnp.asarray(x_np)),
        ("array([[1, 2], [3, 4]])", lambda: numpy.array([[1, 2], [3, 4]]),
         lambda: xnp.array([[1, 2], [3, 4]])),
    ]


def main() -> None:
    cases = _cases()
    fns = {}
    for label, f_np, f_xnp in cases:
        fns["numpy " + label] = f_np
        fns["xnp " + label] = f_xnp
    st = measure(fns, repeat=9)
    rows = []
    for label, _, _ in cases:
        n, x = st["numpy " + label], st["xnp " + label]
        rows.append([label, us(n.min), us(x.min), us(x.median), f"{x.min / n.min:.2f}x",
                     f"{x.median / n.median:.2f}x"])
    print_table("(a) eager overhead, small calls (f64[3] / f64[3,4])",
                ["call", "numpy min us", "xnp min us", "xnp median us", "/numpy (min)",
                 "/numpy (median)"], rows, note="target: xnp within 3x of numpy")


if __name__ == "__main__":
    main()
