"""``xnp.lax.io_callback``: host Python called from compiled programs, in program order.

Values eagerly and under ``jit``, the order of several callbacks, once per iteration in
loops and only in the branch ``cond`` takes, nothing removed or merged, the executable
caches (an executable is bound to its callbacks, in memory and on disk), errors raised
by a callback and wrong results, and the grad/vmap rules.
"""

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.backends.xla import compile_cache
from xnp.tracing.jaxpr import has_effects

F64 = np.float64
I64 = np.int64


def _spec(shape, dtype):
    return xnp.ShapeDtypeStruct(shape, dtype)


class Log:
    """A host function that records its calls and returns a value computed from them."""

    def __init__(self, tag=0):
        self.calls = []
        self.tag = tag
        self.__name__ = f"log{tag}"

    def __call__(self, *args):
        self.calls.append(tuple(np.array(a).tolist() for a in args))
        return np.asarray(args[0], F64) * 2 + self.tag


def test_values_pytrees_and_kwargs_eagerly_and_under_jit():
    def host(x, pair, *, scale):
        a, b = pair
        return {"s": (x * scale).astype(np.float32), "n": np.asarray(a + b, I64)}

    spec = {"s": _spec((3,), np.float32), "n": _spec((), I64)}

    def f(x, a):
        out = lax.io_callback(host, spec, x, (a, 5), scale=2.0)
        return out["s"] + 1, out["n"]

    x = np.array([1.0, 2.0, 3.0], np.float32)
    for run in (f, xnp.jit(f)):
        s, n = run(x, 4)
        np.testing.assert_array_equal(np.asarray(s), x * 2 + 1)
        assert np.asarray(s).dtype == np.float32
        assert int(n) == 9 and np.asarray(n).dtype == I64
    jaxpr = xnp.make_jaxpr(f)(x, 4)
    assert "io_callback[callback=host]" in str(jaxpr)
    assert has_effects(jaxpr) and not has_effects(xnp.make_jaxpr(lambda x: x + 1)(x))


def test_every_run_calls_the_function_with_the_run_time_values():
    log = Log()
    f = xnp.jit(lambda x: lax.io_callback(log, _spec((2,), F64), x) + 1)
    for k in range(3):
        out = f(np.array([k, k + 0.5]))
        np.testing.assert_array_equal(np.asarray(out), [2 * k + 1, 2 * k + 2])
    assert log.calls == [([0.0, 0.5],), ([1.0, 1.5],), ([2.0, 2.5],)]


def test_program_order_unused_results_and_equal_calls_are_kept():
    order = []

    def mark(i):
        def host(x):
            order.append(i)
            return np.asarray(x, F64)
        host.__name__ = f"mark{i}"
        return host

    def f(x):
        # no data dependence between them; two equal calls; results of most unused
        ys = [lax.io_callback(mark(i), _spec((), F64), x) for i in range(6)]
        same = mark(9)
        lax.io_callback(same, _spec((), F64), x)
        lax.io_callback(same, _spec((), F64), x)
        lax.io_callback(lambda: order.append(7), None)
        return ys[2]

    f(1.0)
    eager = list(order)
    order.clear()
    jf = xnp.jit(f)
    jf(1.0)
    jf(2.0)
    assert eager == [0, 1, 2, 3, 4, 5, 9, 9, 7]
    assert order == eager + eager


def _loop_programs(log):
    def fori_static(x):
        return lax.fori_loop(0, 4, lambda i, c: c + lax.io_callback(log, _spec((), F64), i), x)

    def fori_dynamic(x, n):
        return lax.fori_loop(0, n, lambda i, c: c + lax.io_callback(log, _spec((), F64), i), x)

    def scan(x):
        def body(c, v):
            y = lax.io_callback(log, _spec((), F64), v)
            return c + y, y
        return lax.scan(body, x, np.arange(3.0) + 10)

    def while_cond(x):
        # a callback in the condition as well: cond, body, cond, ... in order
        def cond(c):
            return lax.io_callback(log, _spec((), F64), c[0]) < 26  # 2 * c[0]
        return lax.while_loop(cond, lambda c: (c[0] + 1, c[1] + lax.io_callback(
            log, _spec((), F64), -c[0])), (x, x))

    def branches(x, k):
        return lax.cond(k > 0, lambda v: lax.io_callback(log, _spec((), F64), v + 100),
                        lambda v: v * 3, x)

    def nested(x):
        inner = xnp.jit(lambda v: lax.io_callback(log, _spec((), F64), v) + 1)
        return lax.fori_loop(0, 2, lambda i, c: inner(c), x)

    return [(fori_static, (0.5,)), (fori_dynamic, (0.5, 3)), (scan, (0.0,)),
            (while_cond, (10.0,)), (branches, (1.0, 1)), (branches, (1.0, 0)), (nested, (1.0,))]


@pytest.mark.parametrize("k", range(7), ids=["fori_static", "fori_dynamic", "scan", "while_cond",
                                              "cond_true", "cond_false", "nested_jit"])
def test_once_per_iteration_in_loops_and_only_the_taken_branch(k):
    log = Log()
    fun, args = _loop_programs(log)[k]
    want = fun(*args)
    eager_calls = list(log.calls)
    log.calls.clear()
    jf = xnp.jit(fun)
    for _ in range(2):
        got = jf(*args)
        for g, w in zip(xnp.tree_util.tree_leaves(got), xnp.tree_util.tree_leaves(want)):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    assert log.calls == eager_calls + eager_calls
    expected = {0: 4, 1: 3, 2: 3, 3: 7, 4: 1, 5: 0, 6: 2}[k]
    assert len(eager_calls) == expected


def test_executable_is_bound_to_its_callbacks_in_memory():
    a, b = Log(1), Log(2)
    fa = xnp.jit(lambda x: lax.io_callback(a, _spec((), F64), x))
    fb = xnp.jit(lambda x: lax.io_callback(b, _spec((), F64), x))
    assert fa.lower(1.0).as_text().replace("jit__lambda_", "") == \
        fb.lower(1.0).as_text().replace("jit__lambda_", "")
    compile_cache.reset_stats()
    assert float(fa(1.0)) == 3.0 and float(fb(1.0)) == 4.0
    assert len(a.calls) == 1 and len(b.calls) == 1
    assert compile_cache.stats()["compiles"] == 2  # same text, other callback: compiled again
    again = xnp.jit(lambda x: x * 1.0 + 0.0)
    again(1.0)
    again2 = xnp.jit(lambda x: x * 1.0 + 0.0)
    compile_cache.reset_stats()
    again2(1.0)
    assert compile_cache.stats()["compiles"] == 0  # without callbacks: shared as before


def test_disk_cache_rebinds_the_callbacks_of_the_loading_program(tmp_path):
    a, b = Log(1), Log(2)
    with xnp.config.override(compilation_cache_dir=str(tmp_path)):
        compile_cache.reset_stats()
        fa = xnp.jit(lambda x: lax.io_callback(a, _spec((2,), F64), x))
        np.testing.assert_array_equal(np.asarray(fa(np.ones(2))), [3.0, 3.0])
        assert compile_cache.stats()["disk_writes"] == 1
        fb = xnp.jit(lambda x: lax.io_callback(b, _spec((2,), F64), x))
        np.testing.assert_array_equal(np.asarray(fb(np.ones(2))), [4.0, 4.0])
        stats = compile_cache.stats()
    assert stats["disk_hits"] == 1 and stats["compiles"] == 1
    assert len(a.calls) == 1 and len(b.calls) == 1


class Boom(Exception):
    pass


def test_an_exception_in_the_callback_is_raised_by_the_call():
    def host(x):
        if x < 0:
            raise Boom(f"negative: {float(x)}")
        return np.asarray(x, F64)

    f = xnp.jit(lambda x: lax.io_callback(host, _spec((), F64), x) + 1)
    with pytest.raises(Boom, match="negative: -1.0") as info:
        f(-1.0)
    assert any("host callback `host`" in n for n in info.value.__notes__)
    assert float(f(2.0)) == 3.0  # the executable still works
    with pytest.raises(Boom, match="negative: -2.0"):
        lax.io_callback(host, _spec((), F64), -2.0)
    loop = xnp.jit(lambda n: lax.fori_loop(
        0, n, lambda i, c: c + lax.io_callback(host, _spec((), F64), 2 - i), 0.0))
    with pytest.raises(Boom, match="negative: -1.0"):
        loop(4)


@pytest.mark.parametrize("bad,cls,pattern", [
    (lambda x: x.astype(np.float32), TypeError, r"returned float32\[3\] for result 0, declared "
                                                 r"float64\[3\]: the dtype differs"),
    (lambda x: x[:2], ValueError, r"returned float64\[2\] for result 0, declared float64\[3\]: "
                                  "the shape differs"),
    (lambda x: (x, x), TypeError, "returned PyTreeDef"),
    (lambda x: "text", TypeError, "returned a str, not an array for result 0"),
], ids=["dtype", "shape", "structure", "not_array"])
def test_wrong_results_raise_clear_errors_eagerly_and_under_jit(bad, cls, pattern):
    def f(x):
        return lax.io_callback(bad, _spec((3,), F64), x)

    for run in (f, xnp.jit(f)):
        with pytest.raises(cls, match="xnp.lax.io_callback: callback `<lambda>` " + pattern):
            run(np.arange(3.0))


def test_bad_declarations_and_arguments():
    with pytest.raises(TypeError, match="callable"):
        lax.io_callback(3, None)
    with pytest.raises(TypeError, match="leaf 0 of callback `f`"):
        def f():
            return None
        lax.io_callback(f, [(3,)])
    with pytest.raises(TypeError, match="argument leaf 0 of callback `f`"):
        lax.io_callback(f, None, "text")


def test_grad_through_a_callback_raises_naming_it():
    def f(x):
        return lax.io_callback(Log(), _spec((), F64), x * 2) * x

    for run in (xnp.grad(f), xnp.jit(xnp.grad(f))):
        with pytest.raises(TypeError, match="cannot differentiate through host callback `log0`"):
            run(1.5)


def test_grad_with_a_callback_on_other_values_runs_it_once_per_call():
    log = Log()

    def f(x, c):
        return x * lax.io_callback(log, _spec((), F64), c)

    g = xnp.jit(xnp.grad(f))
    assert float(g(3.0, 2.0)) == 4.0 and float(g(3.0, 5.0)) == 10.0
    assert log.calls == [(2.0,), (5.0,)]
    unused = xnp.grad(lambda x: (lax.io_callback(log, _spec((), F64), 7.0), x * x)[1])
    log.calls.clear()
    assert "io_callback" in str(xnp.make_jaxpr(unused)(1.0))
    assert float(xnp.jit(unused)(3.0)) == 6.0 and float(xnp.vmap(unused)(np.ones(2))[1]) == 2.0
    assert log.calls == [(7.0,)] * 2  # run by jit(grad) and vmap(grad): kept though unused
    loop = xnp.jit(xnp.grad(lambda x: lax.scan(
        lambda c, i: (c * lax.io_callback(log, _spec((), F64), i), None), x,
        np.arange(3.0))[0]))
    log.calls.clear()
    assert float(loop(1.0)) == 0.0 * 2 * 4  # factors 2i: 0, 2, 4
    assert log.calls == [(0.0,), (1.0,), (2.0,)]


def test_vmap_calls_once_per_batch_element_in_order():
    log = Log()

    def f(x, y):
        return lax.io_callback(log, _spec((), F64), x, y)

    xs = np.array([1.0, 2.0, 3.0])
    for run in (xnp.vmap(f, in_axes=(0, None)), xnp.jit(xnp.vmap(f, in_axes=(0, None)))):
        log.calls.clear()
        np.testing.assert_array_equal(np.asarray(run(xs, 7.0)), xs * 2)
        assert log.calls == [(1.0, 7.0), (2.0, 7.0), (3.0, 7.0)]
    log.calls.clear()
    m = np.arange(6.0).reshape(2, 3)
    out = xnp.vmap(lambda r: lax.io_callback(log, _spec((2,), F64), r), in_axes=1)(m)
    np.testing.assert_array_equal(np.asarray(out), m.T * 2)
    assert log.calls == [([0.0, 3.0],), ([1.0, 4.0],), ([2.0, 5.0],)]
    log.calls.clear()
    # no batched argument: one call for the whole batch
    out = xnp.vmap(lambda x: x + lax.io_callback(log, _spec((), F64), 1.0))(xs)
    np.testing.assert_array_equal(np.asarray(out), xs + 2)
    assert log.calls == [(1.0,)]


def test_vmap_of_control_flow_with_callbacks():
    log = Log()
    xs = np.array([1.0, 2.0])

    def scan(x):  # unbatched trip count: each iteration calls once per element, in order
        return lax.fori_loop(0, 2, lambda i, c: c + lax.io_callback(log, _spec((), F64), c), x)

    for run in (xnp.vmap(scan), xnp.jit(xnp.vmap(scan))):
        log.calls.clear()
        np.testing.assert_array_equal(np.asarray(run(xs)), [9.0, 18.0])  # c -> 3c twice
        assert log.calls == [(1.0,), (2.0,), (3.0,), (6.0,)]

    def branch(x):
        return lax.cond(x > 1, lambda v: lax.io_callback(log, _spec((), F64), v), lambda v: v, x)

    with pytest.raises(NotImplementedError, match="batched predicate or index: a branch calls"):
        xnp.vmap(branch)(xs)

    def loop(x):
        return lax.while_loop(lambda c: c < 5, lambda c: c + lax.io_callback(
            log, _spec((), F64), c), x)

    with pytest.raises(NotImplementedError, match="while_loop with a batched predicate"):
        xnp.vmap(loop)(xs)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                   "bfloat16", np.float32, np.complex64, np.complex128])
def test_dtypes_and_row_major_layouts(dtype):
    dt = np.dtype(dtype) if dtype != "bfloat16" else np.dtype(__import__("ml_dtypes").bfloat16)
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dt)
    seen = []

    def host(a):
        seen.append((a.dtype, a.shape, a.tolist() == x.tolist()))
        return a.transpose(2, 0, 1).copy(), a[0, 1, 2]

    spec = (_spec((4, 2, 3), dt), _spec((), dt))
    for run in (lambda a: lax.io_callback(host, spec, a),
                xnp.jit(lambda a: lax.io_callback(host, spec, a, ordered=False))):
        y, s = run(x)
        assert np.asarray(y).dtype == dt and np.asarray(s).dtype == dt
        assert np.asarray(y).tolist() == x.transpose(2, 0, 1).tolist()
        assert np.asarray(s).tolist() == x[0, 1, 2].tolist()
    assert seen == [(dt, (2, 3, 4), True)] * 2
    with pytest.raises(NotImplementedError, match="`sharding` must be None"):
        lax.io_callback(host, spec, x, sharding=object())


def test_callback_in_a_reducer_body_is_refused_under_jit():
    def add(a, b):
        return a + lax.io_callback(lambda v: v, _spec((), F64), b)

    with pytest.raises(NotImplementedError, match="inside the body of a reduction"):
        xnp.jit(lambda x: lax.reduce(x, 0.0, add, (0,)))(np.ones(3))
