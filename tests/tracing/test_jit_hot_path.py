"""xnp.jit's cached-call paths: the signature-keyed cache and, on top of it, the check by
identity against the last hit's argument avals. Every call is compared with NumPy; each
test calls often enough that all three paths (trace, signature hit, identity hit) run."""

import numpy as np
import pytest

import xnp
from xnp import lax

CALLS = 5


def _counted(fun, **kw):
    counter = [0]

    def body(*a):
        counter[0] += 1
        return fun(*a)

    body.__name__ = fun.__name__
    return xnp.jit(body, **kw), counter


def test_outputs_fed_back_match_numpy():
    def step(x, v):
        return x + 0.5 * v

    f, traces = _counted(step)
    v_np = np.linspace(-1.0, 1.0, 4)
    x, x_np, v = xnp.asarray(np.arange(4.0)), np.arange(4.0), xnp.asarray(v_np)
    for _ in range(CALLS):
        x = f(x, v)
        x_np = step(x_np, v_np)
        np.testing.assert_array_equal(np.asarray(x), x_np)
    assert traces[0] == 1


def test_pytree_outputs_on_repeated_calls():
    def split(x):
        return {"neg": -x, "pair": (x * 2.0, x.sum())}

    f, traces = _counted(split)
    x = xnp.asarray(np.arange(3.0))
    for _ in range(CALLS):
        out = f(x)
        np.testing.assert_array_equal(np.asarray(out["neg"]), -np.arange(3.0))
        np.testing.assert_array_equal(np.asarray(out["pair"][0]), 2.0 * np.arange(3.0))
        assert float(out["pair"][1]) == 3.0
    assert traces[0] == 1


def test_in_place_update_written_back_on_every_call():
    def bump(x):
        x[0] += 1.0
        return x * 2.0

    f, traces = _counted(bump)
    x = xnp.asarray(np.zeros(3))
    x_np = np.zeros(3)
    for _ in range(CALLS):
        out = f(x)
        out_np = bump(x_np)
        np.testing.assert_array_equal(np.asarray(x), x_np)
        np.testing.assert_array_equal(np.asarray(out), out_np)
    assert traces[0] == 1


def test_write_to_an_output_between_calls_is_seen():
    # an output keeps its device buffer; writing to it drops the buffer, and the next call
    # (same aval object, so the identity path) must use the new host value
    f, _ = _counted(lambda a, b: a + b)
    b = xnp.asarray(np.ones(3))
    x = f(xnp.asarray(np.zeros(3)), b)
    for i in range(CALLS):
        x[0] = 100.0 + i
        expected = np.asarray(x).copy() + 1.0
        x = f(x, b)
        np.testing.assert_array_equal(np.asarray(x), expected)


def test_new_shape_dtype_or_weak_type_after_hot_calls():
    f, traces = _counted(lambda a: a * 2)
    x = xnp.asarray(np.arange(3.0))
    for _ in range(CALLS):
        f(x)
    y = f(xnp.asarray(np.arange(3, dtype=np.float32)))
    assert y.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(y), np.arange(3, dtype=np.float32) * 2)
    z = f(xnp.asarray(np.arange(4.0)))
    np.testing.assert_array_equal(np.asarray(z), np.arange(4.0) * 2)
    w = f(3.0)  # a Python scalar: weakly typed, and so is the result
    assert w.weak_type and float(w) == 6.0
    w2 = f(w)  # the weak 0-d result: the same aval as 3.0, so no new trace
    assert w2.weak_type and float(w2) == 12.0
    assert traces[0] == 4
    for _ in range(CALLS):  # back to the first signature: cached, no new trace
        np.testing.assert_array_equal(np.asarray(f(x)), np.arange(3.0) * 2)
    assert traces[0] == 4


def test_config_change_is_not_served_from_the_hot_path():
    # the traced function's default integer dtype depends on enable_x64
    f, traces = _counted(lambda a: xnp.arange(3) + a)
    a = xnp.asarray(np.ones(3, dtype=np.int8))
    for _ in range(CALLS):
        assert f(a).dtype == np.int64
    assert traces[0] == 1
    with xnp.config.override(enable_x64=False):
        for _ in range(CALLS):
            out = f(a)
            assert out.dtype == np.int32
            np.testing.assert_array_equal(np.asarray(out), np.arange(3) + 1)
    assert traces[0] == 2
    out = f(a)
    assert out.dtype == np.int64 and traces[0] == 2


def test_transformations_after_hot_calls_still_trace():
    f, _ = _counted(lambda a, b: a * b)
    x = xnp.asarray(np.array([1.0, 2.0, 3.0]))
    for _ in range(CALLS):
        f(x, x)
    g = xnp.grad(lambda t: f(t, t).sum())(x)
    np.testing.assert_allclose(np.asarray(g), 2.0 * np.array([1.0, 2.0, 3.0]))
    jaxpr = xnp.make_jaxpr(lambda t: f(t, t))(x)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["jit"]
    vm = xnp.vmap(lambda t: f(t, t))(xnp.asarray(np.arange(6.0).reshape(2, 3)))
    np.testing.assert_array_equal(np.asarray(vm), np.arange(6.0).reshape(2, 3) ** 2)


def test_mixed_argument_kinds_on_repeated_calls():
    f, traces = _counted(lambda a, b, c: a * b + c)
    a_np = np.arange(3.0)
    a = xnp.asarray(a_np)
    for i in range(CALLS):
        np.testing.assert_array_equal(np.asarray(f(a, a_np, 2.0)), a_np * a_np + 2.0)
        np.testing.assert_array_equal(np.asarray(f(a, a, float(i))), a_np * a_np + i)
    assert traces[0] == 1  # an ndarray and an Array of the same shape and dtype: one aval


def test_clear_cache_drops_the_hot_entry():
    f, traces = _counted(lambda a: lax.neg(a))
    x = xnp.asarray(np.arange(3.0))
    for _ in range(CALLS):
        f(x)
    f.clear_cache()
    np.testing.assert_array_equal(np.asarray(f(x)), -np.arange(3.0))
    assert traces[0] == 2


@pytest.mark.parametrize("n_args", [0, 1, 3])
def test_argument_count_is_checked(n_args):
    f = xnp.jit(lambda *a: sum(a[1:], a[0]) if a else xnp.asarray(1.0))
    args = [xnp.asarray(np.full(2, float(i))) for i in range(max(n_args, 1))][:n_args]
    for _ in range(CALLS):
        out = f(*args)
    expected = sum(float(i) for i in range(n_args)) if n_args else 1.0
    np.testing.assert_array_equal(np.asarray(out), np.full(2 if n_args else (), expected))
    with pytest.raises(TypeError):
        xnp.jit(lambda a: a)(*[xnp.asarray(1.0)] * 2)


def test_device_resident_arguments_on_every_path():
    # outputs of jitted calls keep their device buffers: one, two and three such arguments
    one, _ = _counted(lambda a: a * 0.5 + 1.0)
    two, _ = _counted(lambda a, b: a - b)
    three, _ = _counted(lambda a, b, c: a * b + c)
    x = one(xnp.asarray(np.arange(3.0)))
    y = one(x)
    x_np = np.arange(3.0) * 0.5 + 1.0
    y_np = x_np * 0.5 + 1.0
    for _ in range(CALLS):
        x, y = one(x), two(y, x)
        x_np, y_np = x_np * 0.5 + 1.0, y_np - x_np
        z = three(x, y, x)
        np.testing.assert_array_equal(np.asarray(x), x_np)
        np.testing.assert_array_equal(np.asarray(y), y_np)
        np.testing.assert_array_equal(np.asarray(z), x_np * y_np + x_np)


def test_donated_output_passed_again_raises_clearly():
    keep, _ = _counted(lambda a, b: a + b)
    x = keep(xnp.asarray(np.ones(3)), xnp.asarray(np.ones(3)))
    for _ in range(CALLS):
        keep(x, x)
    xnp.jit(lambda a: a * 2.0, donate_argnums=0)(x)
    with pytest.raises(RuntimeError, match="donated"):
        keep(x, x)


def test_python_scalar_arguments_on_the_hot_path_keep_their_types():
    # the last hit is matched by each scalar's type: int, float, bool and complex must
    # each get their own executable (weak-typed results as NumPy's scalar promotion)
    f, traces = _counted(lambda x, s: x * s)
    x = xnp.asarray(np.arange(3, dtype=np.float32))
    xi = xnp.asarray(np.arange(3, dtype=np.int16))
    cases = [(x, 2.5, np.float32), (x, 2, np.float32), (xi, 3, np.int16), (xi, True, np.int16),
             (xi, 2.5, np.float64), (x, 1j, np.complex64)]
    for _ in range(CALLS):
        for a, s, dtype in cases:
            for _ in range(2):  # the second call is served by the hot path
                out = f(a, s)
                assert out.dtype == dtype
                np.testing.assert_array_equal(np.asarray(out),
                                              np.asarray(a).astype(dtype) * s)
    assert traces[0] == len(cases)
    g, g_traces = _counted(lambda s: s * 2)
    for s in (3, 3.0, False, 3):
        want = np.asarray(s) * 2  # NumPy: a Python bool times 2 is an int64
        for _ in range(2):
            out = g(s)
            assert out.dtype == want.dtype and out.shape == ()
            assert out.item() == want.item()
    assert g_traces[0] == 3


def test_eager_arguments_written_between_hot_calls_are_seen():
    # eager arrays reach the executable through their cached aliasing buffer: a write
    # into the array (in place, or after a copy-on-write of a jitted output) is seen
    f, traces = _counted(lambda x, y: x * 2.0 + y)
    x = xnp.asarray(np.arange(8.0))  # >= 64 bytes: aligned, aliased
    y = f(x, x)  # a jitted output (device-resident, copy-on-write host view)
    x_np, y_np = np.arange(8.0), np.arange(8.0) * 3.0
    for i in range(CALLS):
        np.testing.assert_array_equal(np.asarray(f(x, y)), x_np * 2.0 + y_np)
        x[i] = -float(i)
        x_np[i] = -float(i)
        y[0] = float(i)  # copy-on-write: y's device buffer is dropped
        y_np[0] = float(i)
        np.testing.assert_array_equal(np.asarray(f(x, y)), x_np * 2.0 + y_np)
        np.testing.assert_array_equal(np.asarray(f(y, x)), y_np * 2.0 + x_np)
    assert traces[0] == 1


def test_every_key_path_finds_the_one_entry():
    # the last-hit check, the positional key, the pytree key and the general path (a
    # NumPy scalar leaf, .trace/.lower) all key a call the same way: one trace, one entry
    traces = [0]

    def fun(a, b):
        return a * b + 1.0

    def counted(a, b):
        traces[0] += 1
        return fun(a, b)

    f = xnp.jit(counted)
    a_np = np.arange(3.0)
    a = xnp.asarray(a_np)
    calls = [(lambda: f(a, 2.0), 2.0), (lambda: f(a_np, 2.0), 2.0), (lambda: f(a, b=3.0), 3.0),
             (lambda: f(a=a_np, b=2.0), 2.0), (lambda: f.lower(a, 2.0), None),
             (lambda: f(a, 2.5), 2.5)]
    for _ in range(CALLS):
        for call, b in calls:
            out = call()
            if b is not None:
                np.testing.assert_array_equal(np.asarray(out), fun(a_np, b))
    # positional (a, b), keyword b, keyword a and b: three argument structures
    assert traces[0] == 3 and f.trace_count == 3 and len(f._cache) == 3
    general = []
    f._call_general = lambda *a: general.append(a)  # the cached-call paths never get here
    for call, b in calls:
        if b is not None:
            np.testing.assert_array_equal(np.asarray(call()), fun(a_np, b))
    assert general == []
    g, g_traces = _counted(lambda t: t[0] - t[1])
    for leaf in (np.float64(1.0), 1.0, xnp.asarray(np.float64(1.0)), np.asarray(1.0)):
        np.testing.assert_array_equal(np.asarray(g((a, leaf))), a_np - 1.0)
    # a NumPy scalar, an ndarray and a 0-d Array are f64[]; the Python float is weak
    assert g_traces[0] == 2 and len(g._cache) == 2


def test_eviction_keeps_the_last_hit_and_the_bound():
    f, traces = _counted(lambda a: a + 1.0)
    xs = [xnp.asarray(np.arange(float(n))) for n in (1, 2, 3)]
    with xnp.config.override(jit_cache_size=2):
        for _ in range(CALLS):
            f(xs[0])  # the last hit
        f(xs[1])
        for _ in range(CALLS):
            f(xs[0])
        f(xs[2])  # evicts shape 2, the least recently used
        assert len(f._cache) == 2 and traces[0] == 3
        f(xs[0])
        assert traces[0] == 3
        f(xs[1])
        assert traces[0] == 4 and len(f._cache) == 2
        for x in xs:
            np.testing.assert_array_equal(np.asarray(f(x)), np.asarray(x) + 1.0)
    f.clear_cache()
    assert len(f._cache) == 0 and f._cache.hot[2] is None
    np.testing.assert_array_equal(np.asarray(f(xs[0])), np.ones(1))


def test_last_hit_check_of_many_mixed_arguments():
    # the generated last-hit check, for five arguments of mixed kinds: a swapped kind,
    # another scalar type or another aval must not be served by it
    def fun(a, s, b, n, flag):
        return a * s + b * n + flag

    f, traces = _counted(fun)
    a_np, b_np = np.arange(4.0), np.linspace(-1.0, 1.0, 4)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    cases = [((a, 0.5, b, 3, True), 1), ((a, 0.5, b, 3.0, True), 2), ((a, 0.5, b, 3, 1), 3),
             ((a, a, b, 3, True), 4), ((b, 2.5, a, -1, False), 4),
             ((a, 0.5, xnp.asarray(b_np.astype(np.float32)), 3, True), 5)]
    for rep in range(2):
        for args, n_traces in cases:
            for _ in range(CALLS):
                out = f(*args)
                want = fun(*[np.asarray(x) if isinstance(x, xnp.Array) else x for x in args])
                np.testing.assert_array_equal(np.asarray(out), want)
                assert out.dtype == want.dtype
            assert traces[0] == (n_traces if rep == 0 else 5)
    assert traces[0] == 5 and len(f._cache) == 5


def _np_tree(x):
    """``x`` with every xnp array replaced by its NumPy value."""
    if isinstance(x, xnp.Array):
        return np.asarray(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_np_tree(c) for c in x)
    if isinstance(x, dict):
        return {k: _np_tree(v) for k, v in x.items()}
    return x


def test_last_hit_check_of_pytree_keyword_and_static_arguments():
    # the generated last-hit check of a call with containers, keywords and statics: a
    # different container, key, keyword name, static value or leaf kind is not served by
    # the previous call's check, and a served call matches NumPy
    def fun(tree, n, *, scale, offset=None):
        s = tree["a"] * scale + tree["b"][0] * n
        if tree["b"][1] is not None:
            s = s + tree["b"][1]
        return s if offset is None else s - offset

    traces = [0]

    def counted(tree, n, *, scale, offset=None):
        traces[0] += 1
        return fun(tree, n, scale=scale, offset=offset)

    f = xnp.jit(counted, static_argnums=1)
    # values whose products and sums are exact (XLA may fuse a * s + b into one rounding)
    a_np, b_np = np.arange(4.0), np.array([-1.5, -0.5, 0.5, 1.5])
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    a32 = xnp.asarray(a_np.astype(np.float32))
    calls = [(({"a": a, "b": (b, None)}, 2), {"scale": 2.0}),
             (({"a": a, "b": (b, None)}, 3), {"scale": 2.0}),            # static value
             (({"a": a, "b": (b, None)}, 3.0), {"scale": 2.0}),          # static type
             (({"a": a, "b": [b, None]}, 3), {"scale": 2.0}),            # list, not tuple
             (({"a": a, "b": (b, a)}, 3), {"scale": 2.0}),               # None -> leaf
             (({"a": a, "b": (b, 1.5)}, 3), {"scale": 2.0}),             # leaf kind
             (({"a": a32, "b": (b, None)}, 3), {"scale": 2.0}),          # aval
             (({"a": a, "b": (b, None)}, 3), {"scale": 2}),              # scalar type
             (({"a": a, "b": (b, None)}, 3), {"scale": 2.0, "offset": b}),  # keyword set
             (({"a": a, "b": (b, None)}, 3), {"offset": 1.0, "scale": a})]
    for rep in range(2):
        for i, (args, kwargs) in enumerate(calls):
            for _ in range(CALLS):
                out = f(*args, **kwargs)
                want = fun(*_np_tree(args), **_np_tree(kwargs))
                np.testing.assert_array_equal(np.asarray(out), want)
                assert out.dtype == want.dtype
            assert traces[0] == (i + 1 if rep == 0 else len(calls))
    bad = ({"a": a, "c": (b, None)}, 3)  # another key: an error, not the last hit
    with pytest.raises(KeyError):
        f(*bad, scale=2.0)
    with pytest.raises(TypeError):
        f({"a": a, "b": (b, None)}, 3)  # a missing keyword argument


def test_last_hit_check_of_pytrees_with_updates_and_donation():
    # arguments updated in place and donated arguments, reached through a dict: every
    # served call writes back / donates as the first did
    def bump(d):
        d["x"][0] += 1.0
        return d["x"] * d["k"]

    f = xnp.jit(bump)
    x, x_np = xnp.asarray(np.zeros(3)), np.zeros(3)
    for _ in range(CALLS):
        out = f({"x": x, "k": 2.0})
        x_np[0] += 1.0
        np.testing.assert_array_equal(np.asarray(out), x_np * 2.0)
        np.testing.assert_array_equal(np.asarray(x), x_np)
    g = xnp.jit(lambda d: d["x"] + d["y"], donate_argnums=0)
    x = g({"x": xnp.asarray(np.zeros(3)), "y": xnp.asarray(np.ones(3))})
    for i in range(CALLS):  # device-resident inputs, each donated by the call it feeds
        y = g({"x": xnp.asarray(np.zeros(3)), "y": xnp.asarray(np.ones(3))})
        z = g({"x": x, "y": y})
        np.testing.assert_array_equal(np.asarray(z), np.full(3, i + 2.0))
        for dead in (x, y):
            with pytest.raises(RuntimeError, match="donated"):
                np.asarray(dead)
        x = z


def test_python_storage_class_matches_the_native_one():
    # without the C storage module xnp falls back to the same class in Python: run the
    # same eager and jitted code in a process that cannot import it
    import subprocess
    import sys

    code = "\n".join([
        "import sys",
        "sys.modules['xnp._native._array_base'] = None  # the import fails",
        "import numpy as np, weakref, pickle, xnp",
        "from xnp.tracing import core",
        "assert core.Array.__mro__[1].__module__ == 'xnp.tracing.array_base'",
        "a = xnp.arange(6.0).reshape(2, 3)",
        "b = xnp.jit(lambda x: x * 2 + 1)(a)",
        "np.testing.assert_array_equal(np.asarray(b), np.arange(6.0).reshape(2, 3) * 2 + 1)",
        "assert '__add__' in vars(core.Array)  # the Python fast paths of the operators",
        "n = np.arange(6.0).reshape(2, 3)",
        "np.testing.assert_array_equal(np.asarray((2.0 - a) * a + a / 2), (2.0 - n) * n + n / 2)",
        "from xnp.tracing import array_base; assert array_base.FastFunc is None",
        "np.testing.assert_array_equal(np.asarray(xnp.add(a, 1.5) * xnp.sin(a)), (n + 1.5) * np.sin(n))",
        "np.testing.assert_array_equal(np.asarray((a < 2.0) | (a >= n[::-1])), (n < 2.0) | (n >= n[::-1]))",
        "v = a.reshape(3, 2); v[0, 0] = 9.0; assert float(a[0, 0]) == 9.0; n[0, 0] = 9.0",
        "assert a.T.shape == (3, 2) and a.transpose(1, 0).tolist() == n.T.tolist()",
        "assert (a.shape, a.ndim, a.size, a.dtype, len(a)) == (n.shape, n.ndim, n.size, n.dtype, len(n))",
        "assert a[1, ::2].tolist() == n[1, ::2].tolist() and type(a[0, 1]) is type(n[0, 1])",
        "assert a[xnp.asarray([1, 0])].tolist() == n[[1, 0]].tolist()",
        "b[0, 0] = 7.0",
        "assert float(b[0, 0]) == 7.0 and pickle.loads(pickle.dumps(b)).tolist() == b.tolist()",
        "import importlib; J = importlib.import_module('xnp.tracing.jit'); assert J.JitWrapped.__mro__[1] is object",
        "g = xnp.jit(lambda x, s=1.0: x * s)",
        "for s in (2.0, 2.0, 3.0): np.testing.assert_array_equal(np.asarray(g(b, s=s)), np.asarray(b) * s)",
        "assert g.trace_count == 1",
        "r = weakref.ref(a); del a; assert r() is None",
        "print('ok')"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_python_scalar_values_on_the_hot_path():
    # the last-hit path reads a Python scalar's device buffer from the per-value cache:
    # every value (zeros of both signs, nan, inf, values seen before and new ones) must
    # give NumPy's result, in a positional and in a keyword/pytree layout
    f, traces = _counted(lambda x, s: x * s + s)
    g_traces = [0]

    @xnp.jit
    def g(d, *, s):
        g_traces[0] += 1
        return d["x"] * s - s

    x_np = np.linspace(-2.0, 2.0, 5)
    x = xnp.asarray(x_np)
    values = [0.5, 0.5, 2.0, 0.0, -0.0, 0.5, float("nan"), float("inf"), -3.25, 2.0, 1e300]
    with np.errstate(all="ignore"):
        for s in values * 2:
            np.testing.assert_array_equal(np.asarray(f(x, s)), x_np * s + s)
            np.testing.assert_array_equal(np.asarray(g({"x": x}, s=s)), x_np * s - s)
            if s == 0.0:
                assert np.array_equal(np.signbit(np.asarray(f(x, s))), np.signbit(x_np * s + s))
    assert traces[0] == 1 and g_traces[0] == 1


def test_python_int_bounds_on_the_hot_path():
    # an int converted to uint8 inside the function: values it cannot hold raise eager's
    # OverflowError after hot calls, as on the first call; values beyond int64 go to
    # their own entry (uint64)
    f, traces = _counted(lambda x, n: x + lax.convert_element_type(n, np.uint8))
    x = xnp.asarray(np.arange(3, dtype=np.uint8))
    for n in (3, 3, 255, 3, 0, 255):
        np.testing.assert_array_equal(np.asarray(f(x, n)), np.arange(3, dtype=np.uint8) + np.uint8(n))
    for bad in (256, -1, 3000):
        with pytest.raises(OverflowError, match=str(bad)):
            f(x, bad)
        np.testing.assert_array_equal(np.asarray(f(x, 7)), np.arange(3, dtype=np.uint8) + 7)
    assert traces[0] == 1
    h, h_traces = _counted(lambda x, n: x + n)
    xu_np = np.arange(3, dtype=np.uint64)
    xu = xnp.asarray(xu_np)
    for n in (5, 5, 2**63 + 10, 5, 2**63 + 10, 2**64 - 4):
        out = h(xu, n)
        want = xu_np + n
        assert out.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(out), want)
    assert h_traces[0] == 2


def test_native_last_hit_test_serves_the_same_calls():
    """With the C ``HotCall`` base, a cached call runs the generated check directly: the
    same results, misses (new shapes, keywords, statics) and errors as the Python test,
    under a transformation too, and the jitted function stays a normal object (``__dict__``,
    weak references, garbage collected with its cache)."""
    import gc
    import weakref

    import importlib

    from xnp.tracing import array_base

    jit_mod = importlib.import_module("xnp.tracing.jit")  # the module (xnp.tracing.jit is the function)

    if array_base.FastFunc is None:
        pytest.skip("the native module is not built here (no C compiler); "
                    "test_python_storage_class_matches_the_native_one covers the fallback")
    assert jit_mod.JitWrapped.__mro__[1].__name__ == "HotCall"
    traces = [0]

    def body(x, *, k=1.0):
        traces[0] += 1
        return x * k + 1

    f = xnp.jit(body)
    x = xnp.asarray(np.arange(4.0))
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(f(x)), np.arange(4.0) + 1)
    np.testing.assert_array_equal(np.asarray(f(x, k=3.0)), np.arange(4.0) * 3 + 1)
    np.testing.assert_array_equal(np.asarray(f(xnp.ones((2, 2)))), np.full((2, 2), 2.0))
    assert traces[0] == 3  # (4,), (4,) with k, (2, 2): one trace each
    with pytest.raises(TypeError):
        f(x, 1, 2)  # a wrong call raises the full path's error, not the hot path's
    g = xnp.grad(lambda a: f(a).sum())(x)  # under a transformation: the miss path
    np.testing.assert_array_equal(np.asarray(g), np.ones(4))
    assert f.__name__ == "body" and f.__wrapped__ is body
    f.extra = 1
    assert vars(f)["extra"] == 1
    r = weakref.ref(f)
    cache = weakref.ref(f._cache)
    del f
    gc.collect()
    assert r() is None and cache() is None
