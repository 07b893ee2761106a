"""(e) Fused elementwise chains: ``xnp.jit`` (one fused XLA loop) vs NumPy vs JAX.

* ``exp(a) * b + c`` on three 10^7 float64 inputs;
* a 20-op elementwise chain on 10^7 float64 (NumPy runs it op by op: 20 temporaries
  of 80 MB; xnp eager does the same through xnp);
* a transcendental chain (sin, exp, log1p, cos, tanh, arctan: 16 ops) on 10^6 float64.

``xnp.jit`` is timed on the eager arrays a user has (each call puts them on the
device) and on device-resident inputs; JAX eager (op by op) and ``jax.jit`` on device
arrays. Target: jit >= 6x faster than NumPy on the 20-op chain.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case

__all__ = ["main", "chain20", "exp_mul_add", "transcendental"]

N = 10**7


def exp_mul_add(np, a, b, c):
    return np.exp(a) * b + c


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


def transcendental(np, x):
    """16 elementwise ops, six of them transcendental."""
    y = np.sin(x) * np.exp(-0.5 * x * x)  # 6
    y = y + np.log1p(x * x) * np.cos(3.0 * x)  # 12
    return y + np.tanh(x) * np.arctan(x)  # 16


def _max_rel(a, ref) -> float:
    return float(numpy.max(numpy.abs(numpy.asarray(a) - ref) / (1.0 + numpy.abs(ref))))


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    jnp = jax.numpy if jax is not None else None
    specs = [
        ("exp(a) * b + c, 3 x 10^7 f64", exp_mul_add, tuple(rng.standard_normal(N) for _ in "abc")),
        ("20-op chain, 10^7 f64", chain20, (rng.standard_normal(N),)),
        ("transcendental chain, 10^6 f64", transcendental, (rng.standard_normal(10**6),)),
    ]
    cases, errs = [], []
    for label, fn, data in specs:
        label, ways = jit_case(label, data, lambda *a, fn=fn: fn(xnp, *a),
                               lambda *a, fn=fn: fn(numpy, *a),
                               (lambda *a, fn=fn: fn(jnp, *a)) if jax else None, device=True)
        ref = fn(numpy, *data)
        errs.append(f"{fn.__name__} {_max_rel(ways['xnp.jit'](), ref):.0e}")
        if jax is not None:
            jd = tuple(_jax.put(a) for a in data)
            ways["jax eager"] = lambda fn=fn, jd=jd: fn(jnp, *jd)
        cases.append((label, ways))
        del data, ref
    compare("(e) fused elementwise chains", cases, repeat=3, number=1, unit="ms",
            note="target: xnp.jit >= 6x faster than numpy on the 20-op chain (ratio <= 0.17); "
                 "max rel. difference xnp.jit vs numpy: " + ", ".join(errs))


if __name__ == "__main__":
    main()
