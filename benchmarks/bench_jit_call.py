"""(c) Cached ``xnp.jit`` call of a tiny function (``x * 2 + 1`` on f64[10]) vs JAX.

Inputs of three kinds: the eager ``xnp.Array`` a user has (for JAX: a NumPy array;
both are put on the device per call), device-resident arrays (the output of a previous
jitted call, which keeps its device buffer; for JAX ``jax.device_put`` arrays), and a
Python scalar; and the argument forms that take the pytree/keyword path: two arrays and
a keyword argument, a dict of arrays, a static argument. Each call either returns at once (dispatch is asynchronous; only the
last call of a round is waited for) or is waited for (``block_until_ready()``). NumPy's
``x * 2 + 1`` on the ndarray is the reference of every row. Target: <= 8 us per
cached call on device-resident inputs.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import measure_cases, print_compare

__all__ = ["main"]


def f(x):
    return x * 2 + 1


def f_kw(x, y, *, scale):
    return x * scale + y


def f_dict(d):
    return d["x"] * 2 + d["y"]


def f_static(x, n):
    return x * n + 1


def main() -> None:
    jax = _jax.load()
    x_np = numpy.arange(10.0)
    jf = xnp.jit(f)
    x_eager = xnp.asarray(x_np)
    x_dev = jf(x_np)  # the output of a jitted call: device-resident
    inputs = {"eager xnp.Array (jax: ndarray)": (x_eager, x_np),
              "device-resident": (x_dev, None), "Python scalar 3.0": (3.0, 3.0)}
    if jax is not None:
        jj = jax.jit(f)
        inputs["device-resident"] = (x_dev, _jax.put(x_np))

    def numpy_ref():
        return x_np * 2 + 1

    cases = [("no jit: eager x * 2 + 1",
              {"numpy": numpy_ref, "xnp": lambda: f(x_eager),
               "jax": (lambda xj=inputs["device-resident"][1]: f(xj)) if jax else None})]
    for blocking in (False, True):
        for kind, (xa, ja) in inputs.items():
            if blocking:
                xw = lambda xa=xa: jf(xa).block_until_ready()  # noqa: E731
                jw = (lambda ja=ja: jj(ja).block_until_ready()) if jax else None  # noqa: E731
            else:
                xw = lambda xa=xa: jf(xa)  # noqa: E731
                jw = (lambda ja=ja: jj(ja)) if jax else None  # noqa: E731
            label = f"jit, {kind}, {'blocking each call' if blocking else 'not blocking'}"
            cases.append((label, {"numpy": numpy_ref, "xnp": xw, "jax": jw}))
    # the pytree/keyword/static forms, resident inputs, not blocking
    y_dev = jf(x_np + 1.0)
    xk, yk, dk = xnp.jit(f_kw), xnp.jit(f_dict), xnp.jit(f_static, static_argnums=1)
    if jax is not None:
        jxr, jyr = inputs["device-resident"][1], _jax.put(x_np + 3.0)
        jk, jd = jax.jit(f_kw), jax.jit(f_dict)
        js = jax.jit(f_static, static_argnums=1)
    forms = [("jit, two arrays + keyword scale=2.0", lambda: xk(x_dev, y_dev, scale=2.0),
              (lambda: jk(jxr, jyr, scale=2.0)) if jax else None),
             ("jit, dict of two arrays", lambda: yk({"x": x_dev, "y": y_dev}),
              (lambda: jd({"x": jxr, "y": jyr})) if jax else None),
             ("jit, array + static int n=3", lambda: dk(x_dev, 3),
              (lambda: js(jxr, 3)) if jax else None)]
    for label, xw, jw in forms:
        cases.append((label, {"numpy": numpy_ref, "xnp": xw, "jax": jw}))
    results = measure_cases(cases, repeat=9)
    print_compare("(c) cached jit call, tiny function (x * 2 + 1, f64[10])", results,
                  layout="wide", note=f"target: <= 8 us per cached call (device-resident); "
                                      f"xnp traces: {jf.trace_count} (array, scalar)")


if __name__ == "__main__":
    main()
