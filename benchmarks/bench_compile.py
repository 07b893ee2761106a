"""(d) First call of a 200-op function: trace / lower / compile split, xnp vs JAX.

Each round builds a new function (its constant differs from round to round, so no
in-memory cache of traces or executables can serve it) and times ``f.trace(x)``,
``.lower()`` and ``.compile()`` separately (``jax.jit(f).trace(x).lower().compile()``
for JAX), plus one end-to-end first call ``g(x)`` of another new function (which also
runs it, waited for). Then the persistent compilation cache: a new process (its runtime
started by a tiny call first) makes the first call with an empty cache directory, and a
second process with the same directory (xnp's ``compilation_cache_dir`` option; JAX's
``jax_compilation_cache_dir``) makes it again; the second process's first call is
reported. Target: <= 80 ms in total for xnp's first call.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy

import _jax
import xnp
from _harness import Stats, block, print_table, vs_jax_cell

__all__ = ["main", "f200", "BLOCKS"]

BLOCKS = 50  # 4 elementwise ops per block


def f200(np, x, c: float = 0.999):
    """200 elementwise equations: (mul, add, sub, maximum) x 50, against module ``np``."""
    y = x
    for _ in range(BLOCKS):
        y = np.maximum(y * c + x, y - 0.5)
    return y


def _fresh(np, c):
    def f(x):
        return f200(np, x, c)

    return f


def _phases(jit, np, x, c):
    """Seconds of trace, lower, compile of one new function, and of an end-to-end first
    call of another; ``(times, number of equations or None)``."""
    f = jit(_fresh(np, c))
    t0 = time.perf_counter()
    traced = f.trace(x)
    t1 = time.perf_counter()
    lowered = traced.lower()
    t2 = time.perf_counter()
    lowered.compile()
    t3 = time.perf_counter()
    g = jit(_fresh(np, c + 1e-7))
    t4 = time.perf_counter()
    block(g(x))
    t5 = time.perf_counter()
    jaxpr = getattr(traced, "jaxpr", None)
    n_eqns = len(jaxpr.jaxpr.eqns) if hasattr(jaxpr, "jaxpr") else None
    return [t1 - t0, t2 - t1, t3 - t2, t3 - t0, t5 - t4], n_eqns


def _has_persistent_cache() -> bool:
    try:
        xnp.config.get("compilation_cache_dir")
    except KeyError:
        return False
    return True


def _child(kind: str, cache_dir: str) -> None:
    """In a new process: configure the persistent cache, print the first call's seconds."""
    x = numpy.linspace(-1.0, 1.0, 100)
    if kind == "jax":
        jax = _jax.load()
        jax.config.update("jax_compilation_cache_dir", cache_dir)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        jit, np, x = jax.jit, jax.numpy, _jax.put(x)
    else:
        xnp.config.update("compilation_cache_dir", cache_dir)
        jit, np, x = xnp.jit, xnp, xnp.asarray(x)
    block(jit(lambda v: v + 1.0)(x))  # start the runtime (client, lazy imports) untimed
    f = jit(_fresh(np, 0.999))
    t0 = time.perf_counter()
    block(f(x))
    print(time.perf_counter() - t0)


def _second_process(kind: str):
    """First-call seconds of a first and a second new process sharing a new cache dir."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{kind}-cache-") as d:
        env = dict(os.environ, XNP_COMPILATION_CACHE_DIR=d)
        out = []
        for _ in range(2):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", kind, d],
                               capture_output=True, text=True, env=env, timeout=300)
            if r.returncode != 0:
                raise RuntimeError(f"{kind} child failed: {r.stderr.strip()[-300:]}")
            out.append(float(r.stdout.split()[-1]))
        return out


def main(repeat: int = 5) -> None:
    jax = _jax.load()
    x_np = numpy.linspace(-1.0, 1.0, 100)
    x_xnp = xnp.asarray(x_np)
    x_jax = _jax.put(x_np) if jax is not None else None
    names = ["trace", "lower", "compile", "trace+lower+compile", "first call (end to end)"]
    times = {"xnp": [[] for _ in names], "jax": [[] for _ in names]}
    n_eqns = None
    for r in range(repeat):
        c = 0.999 - 1e-6 * (r + 1)
        ts, n_eqns = _phases(xnp.jit, xnp, x_xnp, c)
        for i, t in enumerate(ts):
            times["xnp"][i].append(t)
        if jax is not None:
            ts, _ = _phases(jax.jit, jax.numpy, x_jax, c)
            for i, t in enumerate(ts):
                times["jax"][i].append(t)
    rows = []
    for i, name in enumerate(names):
        sx = Stats(times["xnp"][i])
        row = [name, f"{sx.min * 1e3:.2f}", f"{sx.median * 1e3:.2f}"]
        if jax is not None:
            sj = Stats(times["jax"][i])
            row += [f"{sj.min * 1e3:.2f}", f"{sj.median * 1e3:.2f}",
                    vs_jax_cell("(d)", name, "xnp.jit", sx, sj)]
        rows.append(row)

    persistent = {}
    kinds = (["xnp"] if _has_persistent_cache() else []) + (["jax"] if jax is not None else [])
    for kind in kinds:
        try:
            persistent[kind] = _second_process(kind)
        except Exception as e:  # noqa: BLE001  (reported in the table)
            persistent[kind] = f"error: {type(e).__name__}: {e}"[:100]
    for j, label in enumerate(["first call, new process, empty persistent cache",
                               "first call, second process, persistent cache"]):
        row = [label]
        for kind in ["xnp"] + (["jax"] if jax is not None else []):
            v = persistent.get(kind, "n/a (no persistent cache)")
            row += [f"{v[j] * 1e3:.2f}", ""] if isinstance(v, list) else [v, ""]
        if jax is not None:
            both = isinstance(persistent.get("xnp"), list) and isinstance(persistent["jax"], list)
            row.append(vs_jax_cell("(d)", label, "xnp.jit", Stats([persistent["xnp"][j]]),
                                   Stats([persistent["jax"][j]])) if both else "-")
        rows.append(row)

    headers = ["phase", "xnp min ms", "xnp median ms"]
    if jax is not None:
        headers += ["jax min ms", "jax median ms", "xnp/jax"]
    note = (f"target: xnp <= 80 ms total; {repeat} rounds, a new function each; the "
            "persistent-cache rows are one run of one process each")
    if jax is None:
        note += "\n" + _jax.MISSING
    print_table(f"(d) first call of a {n_eqns}-equation function (f64[100])", headers, rows,
                note=note)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
    else:
        main()
