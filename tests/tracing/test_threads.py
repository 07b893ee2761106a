"""Threads: trace state is per thread, and any number of threads may trace, compile and
call jitted, grad- and vmap-transformed functions at once, cold or warm, with the
results a single thread gets. Every test runs its threads through ``concurrent.futures``
with timeouts, so a deadlock fails the test instead of hanging it."""

import concurrent.futures as cf
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import xnp
from tests.tolerances import atol, rtol
from xnp.tracing import core

F64 = np.dtype(np.float64)
ELEMENTWISE = {"rtol": rtol(F64), "atol": atol(F64)}
REDUCTION = {"rtol": rtol(F64, "reduction"), "atol": atol(F64, "reduction")}

TIMEOUT_S = 60  # per thread; each test takes a few seconds
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_threads(fn, n):
    """``[fn(0), ..., fn(n - 1)]``, each in its own thread, all started together; the
    first exception of any thread is raised here."""
    barrier = threading.Barrier(n)

    def start(i):
        barrier.wait(timeout=TIMEOUT_S)
        return fn(i)

    with cf.ThreadPoolExecutor(n) as ex:
        futures = [ex.submit(start, i) for i in range(n)]
        return [f.result(timeout=TIMEOUT_S) for f in futures]


def _counted(fun, **jit_kwargs):
    """``jit(fun)`` and a list whose item counts the times the Python body ran."""
    runs = [0]

    def body(*args):
        runs[0] += 1
        time.sleep(0.05)  # a slow trace: the other threads arrive while it runs
        return fun(*args)

    body.__name__ = fun.__name__
    return xnp.jit(body, **jit_kwargs), runs


def _chain(x):
    z = x * 0.5 + 1.0
    for _ in range(10):
        z = xnp.sin(z) + x
    return xnp.sum(z * z)


def _chain_np(x):
    z = x * 0.5 + 1.0
    for _ in range(10):
        z = np.sin(z) + x
    return np.sum(z * z)


def test_threads_cold_first_calls_trace_once():
    jf, runs = _counted(_chain)
    x = np.linspace(-1.0, 1.0, 7)
    outs = run_threads(lambda i: jf(x), 8)
    assert jf.trace_count == 1 and runs[0] == 1  # the others waited for the one trace
    for out in outs:
        assert type(out) is xnp.Array
        np.testing.assert_array_equal(np.asarray(out), np.asarray(outs[0]))  # identical
    np.testing.assert_allclose(np.asarray(outs[0]), _chain_np(x), **REDUCTION)
    np.testing.assert_array_equal(np.asarray(jf(x)), np.asarray(outs[0]))  # as one thread gets


def test_threads_different_shapes():
    def head_and_sum(x):
        y = xnp.cos(x) * 2.0 + x
        return y[:2], xnp.sum(y)

    jf, runs = _counted(head_and_sum)

    def work(i):
        x = np.arange(i + 3, dtype=np.float64) / (i + 1)
        return x, jf(x)

    for x, (head, total) in run_threads(work, 8):
        y = np.cos(x) * 2.0 + x
        np.testing.assert_allclose(np.asarray(head), y[:2], **ELEMENTWISE)
        np.testing.assert_allclose(np.asarray(total), np.sum(y), **REDUCTION)
    assert jf.trace_count == 8 and runs[0] == 8


def test_threads_cached_calls_warm():
    jf = xnp.jit(lambda x, y: x * y + 1.0)
    shapes = [(3,), (2, 4), (5,)]
    for shape in shapes:
        jf(np.ones(shape), np.ones(shape))

    def work(i):
        rng = np.random.default_rng(i)
        for k in range(60):
            x = rng.standard_normal(shapes[(i + k) % 3])
            a = xnp.asarray(x)
            out = jf(jf(a, a), a)  # the inner result is device-resident
            assert type(out) is xnp.Array
            np.testing.assert_allclose(np.asarray(out), (x * x + 1.0) * x + 1.0, **ELEMENTWISE)
        return k

    run_threads(work, 16)
    assert jf.trace_count == 3


def test_threads_eager_ops_while_another_thread_traces():
    tracing = threading.Event()
    done = threading.Event()

    def slow(x):
        tracing.set()
        z = x
        for _ in range(50):
            z = z + 1.0
            time.sleep(0.004)  # the eager threads run between these staged adds
        return z

    cached = xnp.jit(lambda x, y: x + y)
    a_np, b_np = np.arange(3.0), np.ones(3)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    cached(a, b)

    def eager(i):
        assert tracing.wait(TIMEOUT_S)
        # the other thread is tracing, so the fast paths read this thread's own trace
        assert core._TRACING_THREADS
        n = 0
        while not done.is_set() or n == 0:
            for out, want in ((xnp.add(a, b), a_np + b_np), (xnp.sum(a), np.sum(a_np)),
                              (a * 2.0, a_np * 2.0), (xnp.asarray([1.0, 2.0]), [1.0, 2.0]),
                              (cached(a, b), a_np + b_np)):
                kind = type(want) if isinstance(want, np.generic) else xnp.Array  # NumPy's rule
                assert type(out) is kind, f"a {type(out).__name__} leaked into eager code"
                np.testing.assert_array_equal(np.asarray(out), want)
            n += 1
        return n

    def work(i):
        if i:
            return eager(i)
        try:
            return np.asarray(xnp.jit(slow)(np.zeros(4)))
        finally:
            done.set()

    outs = run_threads(work, 8)
    np.testing.assert_array_equal(outs[0], np.full(4, 50.0))
    assert all(n > 0 for n in outs[1:])


def test_threads_trace_state_restored_after_errors():
    def fails_midway(x):
        x = xnp.sin(x) * 2.0  # some operations recorded before the error
        raise ValueError("raised while tracing")

    def work(i):
        for transform in (xnp.jit, xnp.grad, lambda f: xnp.jit(xnp.grad(f)), xnp.vmap):
            with pytest.raises(ValueError, match="raised while tracing"):
                transform(fails_midway)(np.ones(3) if transform is xnp.vmap else 1.0)
            assert core.current_trace() is core._BASE_TRACE
        return type(xnp.add(xnp.ones(2), 1.0))

    assert run_threads(work, 8) == [xnp.Array] * 8
    assert not core._TRACING_THREADS  # every thread is back on the base trace


def test_thread_started_inside_a_trace_runs_eagerly():
    seen = []

    def body(x):
        def other():
            seen.append((core.current_trace() is core._BASE_TRACE, xnp.add(xnp.ones(2), 1.0)))

        t = threading.Thread(target=other)
        t.start()
        t.join(TIMEOUT_S)
        return x * 2.0

    out = xnp.jit(body)(np.ones(2))
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])
    (is_base, value), = seen
    assert is_base and type(value) is xnp.Array
    np.testing.assert_array_equal(np.asarray(value), [2.0, 2.0])


def test_threads_grad_and_vmap():
    def loss(w, x):
        return xnp.sum(xnp.tanh(x @ w) ** 2)

    grad = xnp.grad(loss)
    jit_grad = xnp.jit(xnp.grad(loss))
    per_example = xnp.vmap(loss, in_axes=(None, 0))
    jit_per_example = xnp.jit(per_example)

    def inputs(i):
        rng = np.random.default_rng(i)
        return (rng.standard_normal((4, 3)), rng.standard_normal((5, 4)),
                rng.standard_normal((6, 5, 4)))

    def work(i):
        w, x, xs = inputs(i)
        return [np.asarray(f(w, v)) for f, v in ((grad, x), (jit_grad, x), (per_example, xs),
                                                 (jit_per_example, xs))]

    outs = run_threads(work, 8)
    for i, (g, jg, v, jv) in enumerate(outs):
        w, x, xs = inputs(i)
        t = np.tanh(x @ w)
        want_g = x.T @ (2.0 * t * (1.0 - t * t))
        want_v = np.array([np.sum(np.tanh(e @ w) ** 2) for e in xs])
        for got, want in ((g, want_g), (jg, want_g), (v, want_v), (jv, want_v)):
            np.testing.assert_allclose(got, want, **REDUCTION)


def test_threads_distinct_programs_compile_concurrently():
    def work(i):
        outs = []
        for k in range(3):
            c = float(10 * i + k)
            f = xnp.jit(lambda x, c=c: xnp.exp(x * (c / 100.0)) - c)
            outs.append((c, np.asarray(f(np.ones(4 + i)))))
        return outs

    for outs in run_threads(work, 8):
        for c, v in outs:
            np.testing.assert_allclose(v, np.exp(np.ones_like(v) * (c / 100.0)) - c, **ELEMENTWISE)


def test_threads_lower_and_make_jaxpr():
    jf = xnp.jit(lambda x: xnp.tanh(x) * 3.0)

    def work(i):
        text = jf.lower(np.ones(i + 2)).as_text()
        jaxpr = xnp.make_jaxpr(lambda x: xnp.sin(x) + 1.0)(np.ones(i + 1))
        return text, str(jaxpr)

    for i, (text, jaxpr) in enumerate(run_threads(work, 8)):
        assert f"tensor<{i + 2}xf64>" in text
        assert f"f64[{i + 1}]" in jaxpr and "sin" in jaxpr


def test_threads_bounded_cache_evicts_consistently():
    jf = xnp.jit(lambda x: x * 2.0)

    def work(i):
        for k in range(30):
            n = 1 + (7 * i + k) % 10
            np.testing.assert_array_equal(np.asarray(jf(np.arange(float(n)))),
                                          np.arange(float(n)) * 2.0)
        return k

    with xnp.config.override(jit_cache_size=3):
        run_threads(work, 8)
    assert len(jf._cache) <= 3


def test_threads_failed_trace_wakes_the_waiters():
    runs = [0]

    def first_trace_fails(x):
        runs[0] += 1
        time.sleep(0.05)
        if runs[0] == 1:
            raise ValueError("first trace")
        return x + 1.0

    jf = xnp.jit(first_trace_fails)

    def work(i):
        try:
            return np.asarray(jf(np.zeros(3)))
        except ValueError:
            return None

    outs = run_threads(work, 8)
    assert sum(o is None for o in outs) == 1  # only the failing trace's caller sees it
    for o in outs:
        if o is not None:
            np.testing.assert_array_equal(o, np.ones(3))
    assert jf.trace_count == 1 and runs[0] == 2  # one failed trace, one kept


def test_threads_tracing_each_other_do_not_deadlock():
    # thread 0 traces f, which calls h; thread 1 traces h, which calls f (each only in
    # its own thread): each waits for a key the other is tracing, unless tracing
    # threads trace such a key again instead of waiting
    both_inside = threading.Barrier(2)
    names = {}

    def f(x):
        if names[threading.get_ident()] == 0:
            both_inside.wait(timeout=TIMEOUT_S)
            x = x + 0.0 * h(x)
        return x + 1.0

    def h(x):
        if names[threading.get_ident()] == 1:
            both_inside.wait(timeout=TIMEOUT_S)
            x = x + 0.0 * f(x)
        return x * 2.0

    f, h = xnp.jit(f), xnp.jit(h)

    def work(i):
        names[threading.get_ident()] = i
        return np.asarray((f, h)[i](np.ones(2)))

    outs = run_threads(work, 2)
    np.testing.assert_array_equal(outs[0], [2.0, 2.0])
    np.testing.assert_array_equal(outs[1], [2.0, 2.0])


def test_checking_leaks_is_per_thread():
    leaked = []

    def leaky(x):
        leaked.append(x + 1.0)
        return x

    def other():
        xnp.jit(leaky)(np.ones(2))  # not inside checking_leaks in this thread: no error
        return True

    with xnp.checking_leaks():
        with cf.ThreadPoolExecutor(1) as ex:
            assert ex.submit(other).result(timeout=TIMEOUT_S)
        with pytest.raises(xnp.errors.UnexpectedTracerError):
            xnp.jit(leaky)(np.ones(3))


_STRESS = textwrap.dedent("""
    import concurrent.futures as cf
    import threading

    import numpy as np

    import xnp

    N = 8
    barrier = threading.Barrier(N)
    shared = xnp.jit(lambda x: xnp.sum(xnp.sin(x) * 2.0))


    def work(i):
        barrier.wait(timeout=60)
        # cold: the first calls create the runtime, MLIR contexts and executables
        outs = [np.asarray(shared(np.ones(5))), np.asarray(shared(np.ones(i + 1)))]
        for k in range(2):
            f = xnp.jit(lambda x, c=float(10 * i + k): xnp.exp(x) * c)
            outs.append(np.asarray(f(np.ones(3))))
        g = xnp.jit(xnp.grad(lambda x: xnp.sum(xnp.tanh(x) ** 2)))
        outs.append(np.asarray(g(np.full(4, 0.5))))
        outs.append(np.asarray(xnp.jit(xnp.linalg.inv)(np.eye(3) * (i + 2.0))))
        leaks = 0
        for _ in range(50):
            if type(xnp.add(xnp.ones(3), 1.0)) is not xnp.Array:
                leaks += 1
        return i, outs, leaks


    with cf.ThreadPoolExecutor(N) as ex:
        results = [f.result(timeout=120) for f in [ex.submit(work, i) for i in range(N)]]
    # float64 tolerances of tests/tolerances.py (this script runs outside the test package)
    EW, RED = {"rtol": 1e-13, "atol": 1e-13}, {"rtol": 1e-10, "atol": 1e-10}
    for i, outs, leaks in results:
        assert leaks == 0, leaks
        np.testing.assert_allclose(outs[0], 5 * np.sin(1.0) * 2.0, **RED)
        np.testing.assert_allclose(outs[1], (i + 1) * np.sin(1.0) * 2.0, **RED)
        for k in range(2):
            np.testing.assert_allclose(outs[2 + k], np.exp(np.ones(3)) * (10 * i + k), **EW)
        t = np.tanh(0.5)
        np.testing.assert_allclose(outs[4], np.full(4, 2 * t * (1 - t * t)), **RED)
        np.testing.assert_allclose(outs[5], np.eye(3) / (i + 2.0), **RED)
    print("stress ok", shared.trace_count)
""")


def test_threads_cold_process_stress_exits_cleanly(tmp_path):
    script = tmp_path / "thread_stress.py"
    script.write_text(_STRESS)
    env = dict(os.environ)
    env.pop("XNP_COMPILATION_CACHE_DIR", None)
    proc = subprocess.run([sys.executable, str(script)], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    # a crash shows as a negative return code (the signal number)
    assert proc.returncode == 0, f"return code {proc.returncode}\n{proc.stderr[-3000:]}"
    assert "stress ok 8" in proc.stdout  # one trace per shape: (1,) ... (8,)


def test_threads_sharing_a_generator_draw_distinct_numbers():
    rng = xnp.random.default_rng(0)
    with cf.ThreadPoolExecutor(8) as pool:
        draws = list(pool.map(lambda _: float(rng.random()), range(400)))
    assert len(set(draws)) == 400
    # the same 400 draws, in some order, as one thread makes them
    one = xnp.random.default_rng(0)
    assert sorted(draws) == sorted(float(one.random()) for _ in range(400))
