"""(gs) Gather and scatter: integer-array indexing, ``take_along_axis`` and ``.at[]``
updates, ``xnp.jit`` vs NumPy vs ``jax.jit`` side by side (and xnp eager). 10^6 float64
values, 10^5 random indices; ``xnp.jit`` gets the eager arrays a user has, JAX
``jax.device_put`` arrays. NumPy's ``np.add.at`` is its unbuffered scatter-add (repeated
indices accumulate), the same semantics as ``x.at[idx].add(v)``.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case, waited_case

__all__ = ["main"]


def _np_scatter_add(x, idx, v):
    out = x.copy()
    numpy.add.at(out, idx, v)
    return out


def _np_scatter_set(x, idx, v):
    out = x.copy()
    out[idx] = v
    return out


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    jnp = jax.numpy if jax is not None else None
    n, m = 1_000_000, 100_000
    x = rng.standard_normal(n)
    idx = rng.integers(0, n, m)
    v = rng.standard_normal(m)
    x2 = x.reshape(1000, 1000)
    idx2 = rng.integers(0, 1000, (1000, 100))
    cases = [
        ("gather x[idx]", (x, idx), lambda a, i: a[i], lambda a, i: a[i], lambda a, i: a[i]),
        ("take_along_axis 1000x1000 -> 1000x100", (x2, idx2),
         lambda a, i: xnp.take_along_axis(a, i, axis=1),
         lambda a, i: numpy.take_along_axis(a, i, axis=1),
         lambda a, i: jnp.take_along_axis(a, i, axis=1)),
        ("scatter x.at[idx].set(v)", (x, idx, v), lambda a, i, u: a.at[i].set(u),
         _np_scatter_set, lambda a, i, u: a.at[i].set(u)),
        ("scatter-add x.at[idx].add(v)", (x, idx, v), lambda a, i, u: a.at[i].add(u),
         _np_scatter_add, lambda a, i, u: a.at[i].add(u)),
    ]
    compare("(gs) gather / scatter, float64", [jit_case(*c) for c in cases], repeat=5,
            target_s=0.02, unit="ms", layout="wide", vs_jax=("xnp.jit",),
            note="numpy scatter includes the copy that the functional update implies")
    compare("(gs) gathers and scatters, each call waited for",
            [waited_case(jit_case(*c)) for c in cases], repeat=5, target_s=0.02, unit="ms",
            layout="wide", vs_jax=("xnp.jit",))


if __name__ == "__main__":
    main()
