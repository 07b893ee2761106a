"""Timing and table helpers shared by the benchmarks (print only, never assert).

Every comparison is measured side by side in one process: the candidates are
timed in interleaved rounds (numpy, xnp, numpy, xnp, ...), so drift on a
shared machine hits all of them alike. Each round calls a candidate ``number``
times in a loop and divides; we report the minimum and the median over the
rounds, per call.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

import numpy

__all__ = ["Stats", "measure", "calibrate", "block", "print_table", "machine_line", "us", "ms",
           "examples_on_path", "jit_numpy_eager_row"]


class Stats:
    """Per-call seconds over the rounds: ``min``, ``median``, ``samples``."""

    def __init__(self, samples):
        self.samples = list(samples)
        self.min = min(self.samples)
        self.median = statistics.median(self.samples)


def block(value) -> None:
    """Wait until ``value`` (an array or a tuple of arrays) is computed (jit runs async)."""
    if isinstance(value, (tuple, list)):
        for v in value:
            block(v)
    elif value is not None and not isinstance(value, (int, float)):
        numpy.asarray(value)


def calibrate(fn, target_s: float = 0.01) -> int:
    """Calls per round so that one round takes about ``target_s`` (at least 1)."""
    block(fn())
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        block(out)
        dt = time.perf_counter() - t0
        if dt >= target_s or number >= 1 << 20:
            return max(1, int(number * target_s / max(dt, 1e-9)))
        number *= 4


def measure(fns: dict, repeat: int = 7, number: int | None = None, target_s: float = 0.01):
    """Time each zero-argument callable in ``fns`` in interleaved rounds.

    ``number`` calls per round (default: calibrated on the fastest candidate's
    scale per candidate); the result of the last call of a round is waited
    for. Returns ``{name: Stats}`` of seconds per call.
    """
    numbers = {}
    for k, f in fns.items():
        if number is None:
            numbers[k] = calibrate(f, target_s)  # includes a warm-up call
        else:
            block(f())  # warm-up
            numbers[k] = number
    samples = {k: [] for k in fns}
    for _ in range(repeat):
        for k, f in fns.items():
            n = numbers[k]
            t0 = time.perf_counter()
            for _ in range(n):
                out = f()
            block(out)
            samples[k].append((time.perf_counter() - t0) / n)
    return {k: Stats(v) for k, v in samples.items()}


def jit_numpy_eager_row(name: str, data: tuple, xnp_fn, numpy_fn, *, repeat: int = 5,
                        target_s: float = 0.02) -> list:
    """One table row: ``numpy_fn(*data)`` vs ``xnp.jit(xnp_fn)`` on device-resident inputs
    (outputs of a previous jitted call, so no transfer is timed) vs ``xnp_fn`` eagerly,
    median ms per call and the jit/NumPy ratio."""
    import xnp  # noqa: PLC0415  (the harness itself runs without xnp)

    ident = xnp.jit(lambda *v: tuple(a + 0 if a.dtype != bool else a for a in v))
    dev = ident(*data)
    eager = tuple(xnp.asarray(a) for a in data)
    jf = xnp.jit(xnp_fn)
    st = measure({"numpy": lambda: numpy_fn(*data), "xnp.jit": lambda: jf(*dev),
                  "xnp eager": lambda: xnp_fn(*eager)}, repeat=repeat, target_s=target_s)
    ratio = st["xnp.jit"].median / st["numpy"].median
    return [name, ms(st["numpy"].median), ms(st["xnp.jit"].median), ms(st["xnp eager"].median),
            f"{ratio:.2f}x"]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f}"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def print_table(title: str, headers, rows, note: str | None = None) -> None:
    """A plain fixed-width table; first column left-aligned, the rest right-aligned."""
    cells = [list(map(str, headers))] + [list(map(str, r)) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    print(f"\n## {title}")
    if note:
        print(note)
    for j, r in enumerate(cells):
        padded = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
        print("  " + "  ".join(padded))
        if j == 0:
            print("  " + "  ".join("-" * w for w in widths))


def machine_line() -> str:
    return (f"machine: {os.cpu_count()} CPU cores ({platform.machine()}), Python "
            f"{sys.version.split()[0]}, NumPy {numpy.__version__}")


def examples_on_path() -> None:
    """Make ``import logistic_regression`` / ``import nbody`` work (examples/ is not a package)."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(os.path.dirname(here), "examples")
    if path not in sys.path:
        sys.path.insert(0, path)
