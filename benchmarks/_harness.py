"""Timing and table helpers shared by the benchmarks (print only, never assert).

Every comparison is measured side by side in one process: the candidates
("ways": NumPy, xnp eager, ``xnp.jit``, JAX) of one case are timed in
interleaved rounds (numpy, xnp, jax, numpy, xnp, jax, ...), so drift on a
shared machine hits all of them alike. Each round starts once the process is idle
(:func:`settle`: the thread pools that the previous way's libraries leave spinning have
stopped), calls a way ``number`` times in a loop and divides; we report the minimum and the median over the rounds,
per call. Ratios are paired: the median over the rounds of a way's time over the
reference's time in the same round (NumPy's, and JAX's where JAX is installed), so that
a slow phase of the machine, which lasts longer than a round, cancels out; below 1 means
faster than the reference. Every ratio to JAX is also collected for :func:`print_summary`,
which lists them with the spread of the per-round ratios (quartiles).
JAX comes from :mod:`_jax` (only when installed); its arrays are
``jax.device_put`` inputs and results are waited for with
``block_until_ready()``, as are those of ``xnp.jit``.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

import numpy

import _jax

__all__ = ["Stats", "measure", "settle", "calibrate", "block", "print_table", "machine_line", "us", "ms",
           "examples_on_path", "measure_cases", "print_compare", "compare", "jit_case", "waited_case",
           "device_resident", "ratio", "paired_ratio", "vs_jax_cell", "print_summary"]


class Stats:
    """Per-call seconds over the rounds: ``min``, ``median``, ``samples``."""

    def __init__(self, samples):
        self.samples = list(samples)
        self.min = min(self.samples)
        self.median = statistics.median(self.samples)

    def scaled(self, factor: float) -> "Stats":
        return Stats([t * factor for t in self.samples])


def _quartiles(values):
    """(first quartile, median, third quartile) of ``values`` (inclusive method)."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def paired_ratio(s: Stats, ref: Stats):
    """``(median, q1, q3)`` of the per-round ratios ``s / ref`` when both were timed in the
    same interleaved rounds (equal sample counts, in round order); otherwise the ratio of
    the medians, with no spread (``q1 = q3 = median``)."""
    if len(s.samples) == len(ref.samples) and len(s.samples) > 1:
        q1, q2, q3 = _quartiles([a / b for a, b in zip(s.samples, ref.samples)])
        return q2, q1, q3
    r = s.median / ref.median
    return r, r, r


# (table, case, way, median, q1, q3) of every ratio to JAX printed, for print_summary
_VS_JAX: list = []


def vs_jax_cell(title: str, label: str, name: str, s: Stats, jref: Stats) -> str:
    """The table cell of the paired ratio of ``s`` (an xnp way) to ``jref`` (JAX's), also
    collected for :func:`print_summary`."""
    r, q1, q3 = paired_ratio(s, jref)
    _VS_JAX.append((title, label, name, r, q1, q3))
    return ratio(r)


def print_summary() -> None:
    """Every ratio of an xnp way to JAX printed so far, with the quartiles of its per-round
    ratios: a row is marked ``slower`` when even its first quartile is above 1 (xnp slower
    in at least three rounds of four), ``faster`` when its third quartile is below 1, and
    ``parity`` otherwise (the rounds disagree: within the machine's noise)."""
    if not _VS_JAX:
        return
    rows = []
    for title, label, name, r, q1, q3 in _VS_JAX:
        verdict = "slower" if q1 > 1.0 else "faster" if q3 < 1.0 else "parity"
        rows.append([title.split(" ", 1)[0], label, name, ratio(r), f"{q1:.2f}-{q3:.2f}",
                     verdict])
    counts = {v: sum(row[-1] == v for row in rows) for v in ("faster", "parity", "slower")}
    print_table("summary: xnp vs JAX, every row", ["table", "case", "way", "xnp/jax",
                                                    "quartiles", "verdict"], rows,
                note="per-round paired ratios; " + ", ".join(f"{n} {v}" for v, n in
                                                             counts.items()), left=3)


def block(value) -> None:
    """Wait until ``value`` (an array or a tuple of arrays) is computed (jit runs async)."""
    if isinstance(value, (tuple, list)):
        for v in value:
            block(v)
    elif hasattr(value, "block_until_ready"):  # an xnp.Array or a jax.Array
        value.block_until_ready()
    elif value is not None and not isinstance(value, (int, float)):
        numpy.asarray(value)


def calibrate(fn, target_s: float = 0.01, warm: bool = True) -> int:
    """Calls per round so that one round takes about ``target_s`` (at least 1); ``warm``:
    make one warm-up call first."""
    if warm:
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


def settle(window_s: float = 0.005, quiet_windows: int = 2, busy_fraction: float = 0.1,
           limit_s: float = 1.0) -> float:
    """Wait until no thread of this process is running, at most ``limit_s``; returns the
    seconds waited.

    Thread pools keep spinning for a while after a call: OpenBLAS's workers (NumPy and
    SciPy each bundle their own OpenBLAS, so jaxlib's LAPACK kernels and NumPy's run on two
    pools) for up to about 0.1 s, XLA's intra-op threads briefly. On a machine with few
    cores, the way timed right after another would share the cores with the other's
    spinning workers and pay for them. The process counts as idle once it has used less
    than ``busy_fraction`` of one core (CPU time of all its threads) in each of
    ``quiet_windows`` consecutive windows of ``window_s``.
    """
    t0 = time.perf_counter()
    quiet = 0
    while quiet < quiet_windows:
        c0, w0 = time.process_time(), time.perf_counter()
        time.sleep(window_s)
        c1, w1 = time.process_time(), time.perf_counter()
        quiet = quiet + 1 if c1 - c0 <= busy_fraction * (w1 - w0) else 0
        if w1 - t0 >= limit_s:
            break
    return time.perf_counter() - t0


WAKE_S = 0.02


def _wake(f) -> None:
    """Untimed calls of ``f`` for about :data:`WAKE_S` (at least one): on a VM, the first
    calls after an idle wait run slowly while the idle cores are woken (a millisecond or
    more per call, for a few milliseconds, more for a library whose calls block the calling
    thread on its worker threads), so each timed round measures the steady state."""
    t0 = time.perf_counter()
    block(f())
    while time.perf_counter() - t0 < WAKE_S:
        block(f())


def measure(fns: dict, repeat: int = 7, number: int | None = None, target_s: float = 0.01,
            warm: bool = True):
    """Time each zero-argument callable in ``fns`` in interleaved rounds (the order rotated
    by one each round).

    ``number`` calls per round (default: calibrated on the fastest candidate's
    scale per candidate); the result of the last call of a round is waited
    for. Each round starts once the process is idle (:func:`settle`), so that no way
    pays for the thread pools the way before it left spinning; untimed calls then
    wake the process for :data:`WAKE_S` (:func:`_wake`), so rounds time the steady state. ``warm=False``: the callables were already called once (compiled). Returns
    ``{name: Stats}`` of seconds per call.
    """
    numbers = {}
    for k, f in fns.items():
        if number is None:
            numbers[k] = calibrate(f, target_s, warm)
        else:
            if warm:
                block(f())
            numbers[k] = number
    samples = {k: [] for k in fns}
    names = list(fns)
    for r in range(repeat):
        # rotated each round, so that no way always runs right after the same other way
        # (a library's thread pool can slow the next few calls of whichever comes next)
        for k in names[r % len(names):] + names[:r % len(names)]:
            f, n = fns[k], numbers[k]
            settle()
            _wake(f)
            t0 = time.perf_counter()
            for _ in range(n):
                out = f()
            block(out)
            samples[k].append((time.perf_counter() - t0) / n)
    return {k: Stats(v) for k, v in samples.items()}


def measure_cases(cases, *, repeat: int = 7, number: int | None = None,
                  target_s: float = 0.01):
    """Time each case's ways side by side: ``cases`` is a list of ``(label, ways)`` with
    ``ways`` a dict ``{name: fn}``, where ``fn`` is a zero-argument callable, a pair
    ``(fn, k)`` (the time is divided by ``k``, e.g. the steps done per call) or None
    (left out, e.g. JAX when it is not installed). The ways of one case are timed in
    interleaved rounds (:func:`measure`); a way that raises is reported instead of
    timed. Returns ``[(label, {name: Stats or error string})]``."""
    out = []
    for label, ways in cases:
        fns, per, res = {}, {}, {}
        for name, fn in ways.items():
            if fn is None:
                continue
            fn, k = fn if isinstance(fn, tuple) else (fn, 1)
            try:
                block(fn())  # fails early (a missing function) and warms up (compiles)
            except Exception as e:  # noqa: BLE001  (reported in the table)
                res[name] = f"error: {type(e).__name__}: {e}"[:120]
                continue
            fns[name], per[name] = fn, k
        st = {}
        if fns:
            st = measure(fns, repeat=repeat, number=number, target_s=target_s, warm=False)
        for name in ways:
            if name in st:
                res[name] = st[name].scaled(1.0 / per[name])
        out.append((label, {n: res[n] for n in ways if n in res}))
    return out


def _ref(ways: dict, prefix: str):
    for name, s in ways.items():
        if name.startswith(prefix) and isinstance(s, Stats):
            return s
    return None


def ratio(r: float | None) -> str:
    """A time ratio for a table cell: ``0.061x``, ``0.85x``, ``12.3x``."""
    if r is None:
        return "-"
    if r < 0.1:
        return f"{r:.3f}x"
    return f"{r:.1f}x" if r >= 10 else f"{r:.2f}x"


_UNITS = {"s": 1.0, "ms": 1e3, "us": 1e6}


def _fmt(seconds: float, unit: str) -> str:
    v = seconds * _UNITS[unit]
    if v >= 1000:
        return f"{v:.0f}"
    if v >= 1:
        return f"{v:.1f}" if v >= 100 else f"{v:.2f}"
    return f"{v:.3g}"


def print_compare(title: str, results, *, unit: str = "us", layout: str = "long",
                  note: str | None = None, per: str = "call", vs_jax=None) -> None:
    """Print :func:`measure_cases` results with ratios to NumPy's and JAX's times.

    The NumPy reference of a case is its first way whose name starts with ``numpy``,
    the JAX reference its first way starting with ``jax``. ``layout="long"``: one line
    per way (min, median, median/numpy, median/jax); ``"wide"``: one line per case with
    each way's median and, for the ways named ``xnp...``, their ratios to NumPy and (for
    those in ``vs_jax``, default all of them) to JAX. Without JAX the ``/jax`` columns are
    left out and a note says so.
    """
    have_jax = any(_ref(w, "jax") is not None for _, w in results)
    notes = [note] if note else []
    if not have_jax and _jax.load() is None:
        notes.append(_jax.MISSING)
    notes.append(f"ratio = median over the rounds of time / the reference's time in the same "
                 f"round (below 1: faster); times in {unit} per {per}")
    if layout == "wide":
        names = []
        for _, w in results:
            names += [n for n in w if n not in names]
        xnames = [n for n in names if n.startswith("xnp")]
        headers = ["case"] + names + [f"{n}/numpy" for n in xnames]
        jnames = [n for n in xnames if vs_jax is None or n in vs_jax] if have_jax else []
        headers += [f"{n}/jax" for n in jnames]
        rows, errors = [], []
        for label, w in results:
            base, jref = _ref(w, "numpy"), _ref(w, "jax")
            row = [label]
            for n in names:
                s = w.get(n)
                row.append(_fmt(s.median, unit) if isinstance(s, Stats) else "-")
                if isinstance(s, str):
                    errors.append(f"{label} / {n}: {s}")
            for n in xnames:
                s = w.get(n)
                ok = isinstance(s, Stats) and base is not None
                row.append(ratio(paired_ratio(s, base)[0]) if ok else "-")
            for n in jnames:
                s = w.get(n)
                ok = isinstance(s, Stats) and jref is not None
                row.append(vs_jax_cell(title, label, n, s, jref) if ok else "-")
            rows.append(row)
        print_table(title, headers, rows, note="\n".join(notes))
        for e in errors:
            print(f"  {e}")
        return
    headers = ["case", "way", f"min {unit}", f"median {unit}", "/numpy"] + (
        ["/jax"] if have_jax else [])
    rows = []
    for label, w in results:
        base, jref = _ref(w, "numpy"), _ref(w, "jax")
        for i, (n, s) in enumerate(w.items()):
            first = label if i == 0 else ""
            if isinstance(s, str):
                rows.append([first, n, "-", "-", s] + (["-"] if have_jax else []))
                continue
            row = [first, n, _fmt(s.min, unit), _fmt(s.median, unit),
                   ratio(paired_ratio(s, base)[0]) if base else "-"]
            if have_jax:
                xnp_way = n.startswith("xnp") and (vs_jax is None or n in vs_jax)
                row.append("-" if jref is None else vs_jax_cell(title, label, n, s, jref)
                           if xnp_way else ratio(paired_ratio(s, jref)[0]))
            rows.append(row)
    print_table(title, headers, rows, note="\n".join(notes), left=2)


def compare(title: str, cases, *, repeat: int = 7, number: int | None = None,
            target_s: float = 0.01, **kw):
    """:func:`measure_cases` then :func:`print_compare`; returns the results."""
    results = measure_cases(cases, repeat=repeat, number=number, target_s=target_s)
    print_compare(title, results, **kw)
    return results


def device_resident(*arrays):
    """xnp arrays that already hold a device buffer (outputs of a jitted identity-like
    call), so a jitted call on them transfers nothing. One array for one input."""
    import xnp  # noqa: PLC0415  (the harness itself runs without xnp)

    out = xnp.jit(lambda *v: tuple(a if a.dtype == bool else a + 0 for a in v))(*arrays)
    block(out)
    return out[0] if len(arrays) == 1 else out


def waited_case(case):
    """``case`` (a :func:`jit_case`) with each call of the jitted ways waited for
    (``block_until_ready``): JAX's CPU client runs independent calls on worker threads,
    so when a round waits only for its last call, up to two calls run at once on two
    cores; xnp's client runs each call on the calling thread (``xnp/backends/xla/client.py``).
    The pair of tables separates that overlap from the time of one call."""
    label, ways = case
    keep = ("xnp.jit", "jax.jit")
    return (label + ", waited each call",
            {k: (lambda f=f: block(f())) for k, f in ways.items() if k in keep})


def jit_case(label: str, data: tuple, xnp_fn, numpy_fn, jax_fn=None, *, device: bool = False):
    """One case of ``numpy_fn(*data)`` vs ``xnp_fn`` eagerly vs ``xnp.jit(xnp_fn)`` on the
    eager xnp arrays a user has (so each call puts them on the device) vs
    ``jax.jit(jax_fn)`` on ``jax.device_put`` inputs. ``device=True`` adds ``xnp.jit`` on
    device-resident inputs (no transfer), for the tables about dispatch."""
    import xnp  # noqa: PLC0415

    eager = tuple(xnp.asarray(a) for a in data)
    jf = xnp.jit(xnp_fn)
    ways = {"numpy": lambda: numpy_fn(*data), "xnp eager": lambda: xnp_fn(*eager),
            "xnp.jit": lambda: jf(*eager)}
    if device:
        dev = device_resident(*data)
        dev = dev if len(data) > 1 else (dev,)
        ways["xnp.jit, device-resident"] = lambda: jf(*dev)
    jax = _jax.load()
    if jax is not None and jax_fn is not None:
        jj = jax.jit(jax_fn)
        jd = tuple(_jax.put(a) for a in data)
        ways["jax.jit"] = lambda: jj(*jd)
    return label, ways


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f}"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def print_table(title: str, headers, rows, note: str | None = None, left: int = 1) -> None:
    """A plain fixed-width table; the first ``left`` columns left-aligned, the rest
    right-aligned."""
    cells = [list(map(str, headers))] + [list(map(str, r)) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    print(f"\n## {title}")
    if note:
        print(note)
    for j, r in enumerate(cells):
        padded = [c.ljust(w) if i < left else c.rjust(w)
                  for i, (c, w) in enumerate(zip(r, widths))]
        print("  " + "  ".join(padded))
        if j == 0:
            print("  " + "  ".join("-" * w for w in widths))


def machine_line() -> str:
    return (f"machine: {os.cpu_count()} CPU cores ({platform.machine()}), Python "
            f"{sys.version.split()[0]}, NumPy {numpy.__version__}, {_jax.version_line()}")


def examples_on_path() -> None:
    """Make ``import logistic_regression`` / ``import nbody`` work (examples/ is not a package)."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(os.path.dirname(here), "examples")
    if path not in sys.path:
        sys.path.insert(0, path)
