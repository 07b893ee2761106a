"""lax control flow: cond, switch, while_loop, fori_loop, scan, map (and associative_scan).

Oracles: Python loops / NumPy on the same data (eagerly and under ``jit``); central
finite differences in float64 for ``jvp`` and ``grad``; ``<u, J v> == <J^T u, v>`` for
``vjp``; stacking per-member results for ``vmap``. Tests that need the rules of
primitives written elsewhere (elementwise jvp/transpose/batch) skip with the name of the
missing rule until it exists.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import xnp
from xnp import errors, lax

_CONTROL_FLOW = {"cond", "while", "scan"}
_MISSING_RULE = re.compile(
    r"(?:differentiation of primitive|through primitive|batching of primitive) '(\w+)'")


def run_or_skip(fn, *args):
    """Run ``fn(*args)``; skip (naming the primitive) when a rule of a primitive outside
    control flow is missing. Missing rules of cond/while/scan still fail."""
    try:
        return fn(*args)
    except NotImplementedError as e:
        m = _MISSING_RULE.search(str(e))
        if m and m.group(1) not in _CONTROL_FLOW:
            pytest.skip(f"needs a rule of primitive '{m.group(1)}' (not written yet)")
        raise


def close(a, b, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def fd(f, x, eps=1e-6):
    """Central difference of scalar ``f`` at scalar ``x`` (float64)."""
    return (float(f(x + eps)) - float(f(x - eps))) / (2 * eps)


def eager_and_jit(f, *args):
    """``f(*args)`` eagerly and under jit (values equal); returns the eager result."""
    out = f(*args)
    jout = xnp.jit(f)(*args)
    for a, b in zip(xnp.tree_util.tree_leaves(out), xnp.tree_util.tree_leaves(jout)):
        assert np.asarray(a).shape == np.asarray(b).shape
        close(a, b)
    return out


# ============================================================================= values


def _cond_tree(p, x, y):
    return lax.cond(p, lambda a, b: {"s": a + b["w"], "t": a * 2.0},
                    lambda a, b: {"s": a - b["w"], "t": a * 0.5}, x, {"w": y})


@pytest.mark.parametrize("pred", [True, False])
def test_cond_pytree_operands_eager_and_jit(pred):
    x, y = np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 4.0])
    out = eager_and_jit(_cond_tree, pred, x, y)
    close(out["s"], x + y if pred else x - y)
    close(out["t"], x * 2.0 if pred else x * 0.5)
    assert out["s"].dtype == np.float64


@pytest.mark.parametrize("pred,expect", [(0, "f"), (3, "t"), (-1, "t"), (0.0, "f"), (2.5, "t"),
                                         (np.bool_(True), "t")])
def test_cond_number_pred_means_nonzero(pred, expect):
    f = lambda p: lax.cond(p, lambda: 1.0, lambda: 2.0)  # noqa: E731
    want = 1.0 if expect == "t" else 2.0
    assert float(f(pred)) == want and float(xnp.jit(f)(pred)) == want


def test_cond_closure_over_arrays_and_outer_tracers():
    big = np.arange(20.0)

    def f(x, p):
        return lax.cond(p > 0, lambda: xnp.sum(big * x), lambda: x * 0.0 - 1.0)

    assert float(f(2.0, 1)) == float(np.sum(big * 2.0))
    assert float(xnp.jit(f)(2.0, 1)) == float(np.sum(big * 2.0))
    assert float(xnp.jit(f)(2.0, -1)) == -1.0


@pytest.mark.parametrize("index", [-5, -1, 0, 1, 2, 3, 9])
def test_switch_clamps_the_index(index):
    branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: x - 100.0]
    f = lambda i, x: lax.switch(i, branches, x)  # noqa: E731
    want = branches[min(max(index, 0), 2)](2.0)
    assert float(f(index, 2.0)) == want
    assert float(xnp.jit(f)(index, 2.0)) == want
    assert float(xnp.jit(f)(np.int32(index), 2.0)) == want


def test_cond_eager_result_types_and_weak_join():
    r = lax.cond(True, lambda x: x + 1, lambda x: x - 1, 2.0)
    assert type(r) is xnp.Array and r.shape == () and r.weak_type
    # a weak branch output next to a strong one gives a strong result
    r = lax.cond(False, lambda: 1.0, lambda: np.float64(2.0))
    assert float(r) == 2.0 and not r.weak_type


def test_while_loop_gcd_pytree_carry():
    def gcd(a, b):
        out = lax.while_loop(lambda c: c["b"] != 0,
                             lambda c: {"a": c["b"], "b": c["a"] % c["b"]}, {"a": a, "b": b})
        return out["a"]

    for a, b in [(12, 18), (17, 5), (0, 4), (81, 27)]:
        assert int(gcd(a, b)) == math.gcd(a, b)
        assert int(xnp.jit(gcd)(a, b)) == math.gcd(a, b)


def test_while_loop_zero_iterations_and_array_carry():
    f = lambda x: lax.while_loop(lambda v: xnp.sum(v) < 10, lambda v: v * 2, x)  # noqa: E731
    close(eager_and_jit(f, np.array([1.0, 2.0])), [4.0, 8.0])
    close(eager_and_jit(f, np.array([20.0, 2.0])), [20.0, 2.0])


@pytest.mark.parametrize("lo,hi", [(0, 5), (2, 3), (4, 4), (5, 2)])
def test_fori_loop_static_and_traced_bounds(lo, hi):
    def ref(x):
        v = x
        for i in range(lo, hi):
            v = v * 0.5 + i
        return v

    body = lambda i, v: v * 0.5 + i  # noqa: E731
    assert float(lax.fori_loop(lo, hi, body, 3.0)) == ref(3.0)
    assert float(xnp.jit(lambda x: lax.fori_loop(lo, hi, body, x))(3.0)) == ref(3.0)
    traced = xnp.jit(lambda a, b, x: lax.fori_loop(a, b, body, x))
    assert float(traced(lo, hi, 3.0)) == ref(3.0)


def test_fori_loop_lowers_to_scan_or_while():
    body = lambda i, v: v + i  # noqa: E731
    static = str(xnp.make_jaxpr(lambda x: lax.fori_loop(0, 3, body, x))(1.0))
    traced = str(xnp.make_jaxpr(lambda n, x: lax.fori_loop(0, n, body, x))(3, 1.0))
    assert "scan[" in static and "while[" not in static and "length=3" in static
    assert "while[" in traced and "scan[" not in traced
    assert "i64[]" in static  # the counter has the bounds' dtype (int64 under x64)
    with pytest.raises(ValueError, match="unroll"):
        xnp.jit(lambda n, x: lax.fori_loop(0, n, body, x, unroll=2))(3, 1.0)


def _scan_ref(f, init, xs, reverse=False):
    carry, ys = init, [None] * len(xs)
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for i in order:
        carry, ys[i] = f(carry, xs[i])
    return carry, np.stack(ys) if len(xs) else np.zeros((0,))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 2, True])
def test_scan_matches_python_loop(reverse, unroll):
    xs = np.array([0.5, -1.0, 2.0, 3.0])

    def step(c, x):
        return c * 0.9 + x, c * x

    c, ys = eager_and_jit(lambda x: lax.scan(step, 1.0, x, reverse=reverse, unroll=unroll), xs)
    rc, rys = _scan_ref(step, 1.0, xs, reverse)
    close(c, rc)
    close(ys, rys)


def test_scan_pytrees_none_ys_and_length_only():
    xs = {"a": np.arange(6.0).reshape(3, 2), "b": np.array([1, 2, 3])}

    def step(c, x):
        return (c[0] + xnp.sum(x["a"]), c[1] * x["b"]), {"y": x["a"] * 2.0, "z": None}

    (s, p), ys = eager_and_jit(lambda x: lax.scan(step, (0.0, 1), x), xs)
    assert float(s) == 15.0 and int(p) == 6 and ys["z"] is None
    close(ys["y"], xs["a"] * 2.0)
    c, none = lax.scan(lambda c, _: (c + 2, None), 0, None, length=5)
    assert int(c) == 10 and none is None


def test_scan_length_zero():
    c, ys = eager_and_jit(lambda x: lax.scan(lambda c, a: (c + a, c * a), 1.0, x),
                          np.zeros((0,)))
    assert float(c) == 1.0 and ys.shape == (0,) and ys.dtype == np.float64


def test_scan_weak_init_takes_the_body_type():
    c, _ = lax.scan(lambda c, x: (c + x, None), 0, np.arange(3.0))
    assert c.dtype == np.float64 and float(c) == 3.0


def test_map_matches_list_comprehension():
    xs = np.arange(12.0).reshape(4, 3)
    out = eager_and_jit(lambda x: lax.map(lambda r: xnp.sum(r * r), x), xs)
    close(out, (xs * xs).sum(axis=1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 9])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_cumsum(n, reverse):
    x = np.arange(1, n + 1, dtype=np.int64)
    out = eager_and_jit(lambda v: lax.associative_scan(lambda a, b: a + b, v, reverse=reverse),
                        x)
    want = np.cumsum(x[::-1])[::-1] if reverse else np.cumsum(x)
    np.testing.assert_array_equal(np.asarray(out), want)


def test_associative_scan_pytree_axis_and_noncommutative_fn():
    # composition of affine maps x -> a x + b is associative but not commutative
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.5, 1.5, (2, 7)), rng.normal(size=(2, 7))

    def combine(f, g):
        return g[0] * f[0], g[0] * f[1] + g[1]

    out_a, out_b = eager_and_jit(lambda u, v: lax.associative_scan(combine, (u, v), axis=1),
                                 a, b)
    ra, rb = a.copy(), b.copy()
    for j in range(1, 7):
        ra[:, j], rb[:, j] = combine((ra[:, j - 1], rb[:, j - 1]), (a[:, j], b[:, j]))
    close(out_a, ra)
    close(out_b, rb)
    mask = np.array([True, False, False, True, False])
    np.testing.assert_array_equal(
        np.asarray(lax.associative_scan(lambda p, q: p | q, mask)), np.logical_or.accumulate(mask))


# ============================================================================= errors


def test_cond_branch_type_mismatch_shows_both_types():
    with pytest.raises(TypeError, match=r"true_fun output float64\[3\] vs false_fun output "
                                        r"float32\[3\]"):
        lax.cond(True, lambda x: x, lambda x: x.astype(np.float32), xnp.ones(3))
    with pytest.raises(TypeError, match=r"output\[1\]: true_fun output float64\[3\] vs "
                                        r"false_fun output float64\[2\]"):
        lax.cond(True, lambda x: (x, x), lambda x: (x, x[:2]), xnp.ones(3))
    with pytest.raises(TypeError, match="same pytree structure"):
        lax.cond(True, lambda x: (x, x), lambda x: [x, x], xnp.ones(3))
    with pytest.raises(TypeError, match=r"branch 0 output .* vs branch 2 output"):
        lax.switch(0, [lambda: 1.0, lambda: 2.0, lambda: np.int32(3)])


def test_control_flow_argument_errors():
    with pytest.raises(TypeError, match="pred must be a scalar, got bool"):
        lax.cond(np.array([True, False]), lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match="pred must be a scalar bool or number"):
        lax.cond("yes", lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match="pred must be a bool or real number"):
        lax.cond(1j, lambda: 1.0, lambda: 2.0)
    with pytest.raises(ValueError, match="non-empty"):
        lax.switch(0, [])
    with pytest.raises(TypeError, match="index must be an integer"):
        lax.switch(1.0, [lambda: 1.0])
    with pytest.raises(TypeError, match="operands must be arrays"):
        lax.cond(True, lambda s: 1.0, lambda s: 2.0, "text")
    with pytest.raises(TypeError, match=r"cond_fun must return a boolean scalar \(bool\[\]\), "
                                        r"got float64\[\]"):
        lax.while_loop(lambda v: v, lambda v: v + 1, 0.0)
    with pytest.raises(TypeError, match=r"carry\[1\]: input float64\[2\] vs output "
                                        r"float32\[2\]"):
        lax.while_loop(lambda v: v[0] < 3, lambda v: (v[0] + 1, v[1].astype(np.float32)),
                       (0, xnp.ones(2)))
    with pytest.raises(TypeError, match="same pytree structure"):
        lax.while_loop(lambda v: v[0] < 3, lambda v: [v[0] + 1, v[1]], (0, 1.0))
    with pytest.raises(TypeError, match="must be an integer scalar"):
        lax.fori_loop(0.0, 3, lambda i, v: v, 1.0)


def test_scan_errors():
    with pytest.raises(TypeError, match=r"carry: input float64\[2\] vs output int32\[2\]"):
        lax.scan(lambda c, x: (c.astype(np.int32), x), xnp.ones(2), xnp.ones(3))
    with pytest.raises(TypeError, match="must return a pair"):
        lax.scan(lambda c, x: c, 0.0, xnp.ones(3))
    with pytest.raises(ValueError, match=r"xs\[0\] float64\[3\], xs\[1\] float64\[4\]"):
        lax.scan(lambda c, x: (c, x), 0.0, (xnp.ones(3), xnp.ones(4)))
    with pytest.raises(ValueError, match="length=2"):
        lax.scan(lambda c, x: (c, x), 0.0, xnp.ones(3), length=2)
    with pytest.raises(ValueError, match="length must be given"):
        lax.scan(lambda c, x: (c, x), 0.0, None)
    with pytest.raises(ValueError, match="no leading axis"):
        lax.scan(lambda c, x: (c, x), 0.0, 1.0)
    with pytest.raises(ValueError, match="axis 0"):
        lax.associative_scan(lambda a, b: a, (xnp.ones(3), xnp.ones(4)))


# ============================================================================= tracing


def test_bodies_are_traced_abstractly_once():
    calls = []

    def branch(x):
        calls.append(type(x).__name__)
        return x

    lax.cond(True, branch, branch, 1.0)
    assert calls == ["JitTracer", "JitTracer"]  # both branches, abstractly, also eagerly
    calls.clear()
    lax.while_loop(lambda v: v < 100, lambda v: branch(v) * 2, 1.0)
    assert calls == ["JitTracer"]  # traced once, not once per iteration
    calls.clear()
    lax.scan(lambda c, x: (branch(c), x), 0.0, np.arange(5.0))
    assert calls == ["JitTracer"]


def test_tracer_errors_name_the_construct_and_argument():
    def bad(x):
        return x if x > 0 else -x

    cases = [
        (lambda: lax.switch(0, [bad, bad], 1.0), "switch", "x"),
        (lambda: lax.scan(lambda c, a: (c, bad(a)), 0.0, np.ones(2)), "scan", "a"),
        (lambda: lax.map(bad, np.ones(2)), "map", "x"),
        (lambda: xnp.jit(lambda n: lax.fori_loop(0, n, lambda i, v: bad(v), 1.0))(3),
         "fori_loop", "v"),
    ]
    for call, construct, arg in cases:
        with pytest.raises(errors.TracerBoolConversionError) as e:
            call()
        assert f"for {construct}." in str(e.value) and f"argument {arg}." in str(e.value)


def test_jaxprs_and_lowering():
    j = str(xnp.make_jaxpr(lambda i, x: lax.switch(i, [lambda v: v, lambda v: -v], x))(1, 2.0))
    assert "clamp" in j and "cond[" in j
    js = str(xnp.make_jaxpr(lambda x: lax.scan(lambda c, a: (c + a, c), 0.0, x))(np.ones(3)))
    assert "scan[" in js and "length=3" in js and "num_carry=1" in js and "reverse=False" in js
    text = xnp.jit(lambda p, x: lax.cond(p, lambda v: v + 1, lambda v: v, x)).lower(
        True, 1.0).as_text()
    assert "stablehlo.case" in text
    text = xnp.jit(lambda x: lax.scan(lambda c, a: (c + a, c), 0.0, x)).lower(np.ones(3)).as_text()
    assert "stablehlo.while" in text and "stablehlo.dynamic_slice" in text


def test_nested_control_flow_values():
    def f(x):
        def body(c, a):
            c = lax.cond(a > 1.0, lambda z: z * a, lambda z: z + a, c)
            d = lax.fori_loop(0, 2, lambda i, w: w + c, 0.0)
            return c, d

        return lax.scan(body, x, np.arange(4.0))

    def ref(x):
        c, ds = x, []
        for a in np.arange(4.0):
            c = c * a if a > 1.0 else c + a
            ds.append(2 * c)
        return c, np.array(ds)

    c, ds = eager_and_jit(f, 0.5)
    rc, rds = ref(0.5)
    close(c, rc)
    close(ds, rds)


# ============================================================================= jvp and grad


def _fns():
    """Scalar test functions using control flow, with reference derivatives by FD."""
    xs = np.array([0.3, -1.2, 2.0, 0.7])

    def f_cond(x):
        return lax.cond(x > 0, lambda y: xnp.sin(y) * y, lambda y: y * y * 3.0, x)

    def f_switch(x):
        x = xnp.asarray(x)
        i = (x > 0).astype(np.int32) + (x > 1).astype(np.int32)
        return lax.switch(i, [lambda y: y * 2.0, lambda y: xnp.sin(y), lambda y: y * y], x)

    def f_scan(x):
        def step(c, a):
            return c * xnp.sin(c + a) + x, c * a
        c, ys = lax.scan(step, x, xs)
        return c + xnp.sum(ys)

    def f_scan_rev(x):
        return xnp.sum(lax.scan(lambda c, a: (c * a + 1.0, xnp.sin(c)), x, xs,
                                reverse=True)[1])

    def f_fori(x):
        return lax.fori_loop(0, 4, lambda i, v: xnp.sin(v) * x + i, x)

    def f_nested(x):
        def step(c, a):
            c = lax.cond(a > 0.5, lambda z: xnp.sin(z) * a, lambda z: z * z, c)
            return c, None
        return lax.scan(step, x, xs)[0]

    return {"cond": f_cond, "switch": f_switch, "scan": f_scan, "scan_rev": f_scan_rev,
            "fori": f_fori, "nested": f_nested}


FNS = _fns()


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("x", [0.4, 1.3, -0.8])
def test_jvp_matches_finite_differences(name, x):
    f = FNS[name]
    p, t = run_or_skip(xnp.jvp, f, (x,), (1.0,))
    close(p, f(x))
    close(t, fd(f, x), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("x", [0.4, 1.3, -0.8])
def test_grad_matches_finite_differences(name, x):
    f = FNS[name]
    g = run_or_skip(xnp.grad(f), x)
    close(g, fd(f, x), rtol=1e-6, atol=1e-8)
    close(run_or_skip(xnp.jit(xnp.grad(f)), x), g)
    close(run_or_skip(xnp.grad(xnp.jit(f)), x), g)  # the jit's jvp jaxpr is split too


def test_vmap_of_grad_and_jvp_under_jit():
    f = FNS["nested"]
    xs = np.array([0.4, 1.3, -0.8])
    g = run_or_skip(xnp.vmap(xnp.grad(f)), xs)
    close(g, [fd(f, x) for x in xs], rtol=1e-6, atol=1e-8)
    _, t = run_or_skip(xnp.jit(lambda x: xnp.jvp(FNS["scan"], (x,), (1.0,))), 0.4)
    close(t, fd(FNS["scan"], 0.4), rtol=1e-6, atol=1e-8)


def test_grad_with_integer_outputs_and_carries():
    def f(x):
        n, y = lax.cond(x > 0, lambda v: (1, v * 2.0), lambda v: (2, v * v), x)
        (k, p), _ = lax.scan(lambda c, a: ((c[0] + 1, c[1] * a), None), (0, x),
                             np.arange(1.0, 4.0))
        return y + p + (n + k) * 0.0

    close(run_or_skip(xnp.grad(f), 0.5), fd(f, 0.5), rtol=1e-6)


def test_vjp_of_scan_matches_jvp():
    rng = np.random.default_rng(1)
    w, xs = rng.normal(size=3), rng.normal(size=(5, 3))

    def f(w, xs):
        c, ys = lax.scan(lambda c, x: (xnp.sin(c * w) + x, c * x), xnp.zeros(3), xs)
        return c, ys

    u = (rng.normal(size=3), rng.normal(size=(5, 3)))
    v = (rng.normal(size=3), rng.normal(size=(5, 3)))
    _, jv = run_or_skip(xnp.jvp, f, (w, xs), v)
    _, pullback = run_or_skip(xnp.vjp, f, w, xs)
    jtu = run_or_skip(pullback, u)
    lhs = sum(np.vdot(np.asarray(a), b) for a, b in zip(jv, u))
    rhs = sum(np.vdot(np.asarray(a), b) for a, b in zip(jtu, v))
    close(lhs, rhs, rtol=1e-10)


def test_jvp_of_while_loop_and_linearize():
    def f(x):
        return lax.while_loop(lambda v: v[0] < 10.0, lambda v: (v[0] * 2.0, xnp.sin(v[1]) * x),
                              (1.0, x))[1]

    _, t = run_or_skip(xnp.jvp, f, (0.7,), (1.0,))
    close(t, fd(f, 0.7), rtol=1e-6)
    _, f_jvp = run_or_skip(xnp.linearize, f, 0.7)
    close(f_jvp(1.0), t)
    _, tj = run_or_skip(xnp.jit(lambda x, dx: xnp.jvp(f, (x,), (dx,))), 0.7, 1.0)
    close(tj, t)


def test_grad_of_while_loop_raises_clearly():
    def solve(x):
        return lax.while_loop(lambda v: v < 10.0, lambda v: v * x, 1.0)

    with pytest.raises(NotImplementedError) as e:
        run_or_skip(xnp.grad(solve), 2.0)
    msg = str(e.value)
    assert "while_loop" in msg and "<lambda>" in msg and "scan" in msg and "fori_loop" in msg
    with pytest.raises(NotImplementedError, match="while_loop"):
        run_or_skip(xnp.grad(lambda x: lax.fori_loop(0, x.astype(np.int64), lambda i, v: v * x,
                                                      x)), 2.0)


# ============================================================================= vmap


def _stack(f, *args, in_axes):
    n = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = []
    for i in range(n):
        sl = [a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]
        outs.append(f(*sl))
    return xnp.tree_util.tree_map(lambda *o: np.stack([np.asarray(v) for v in o]), *outs)


def _check_vmap(f, *args, in_axes):
    want = _stack(f, *args, in_axes=in_axes)
    for g in (xnp.vmap(f, in_axes=in_axes), xnp.jit(xnp.vmap(f, in_axes=in_axes))):
        got = run_or_skip(g, *args)
        for a, b in zip(xnp.tree_util.tree_leaves(got), xnp.tree_util.tree_leaves(want)):
            close(a, b)


def test_vmap_cond_batched_and_unbatched_predicate():
    def f(p, x):
        return lax.cond(p > 0, lambda y: (y * 2.0, y), lambda y: (-y, y * 0.0), x)

    p, x = np.array([1.0, -2.0, 3.0]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    _check_vmap(f, p, x, in_axes=(0, 0))
    _check_vmap(f, 1.0, x, in_axes=(None, 0))
    _check_vmap(f, p, x[0], in_axes=(0, None))
    _check_vmap(f, p, x.T, in_axes=(0, 1))


def test_vmap_switch_batched_index():
    def f(i, x):
        return lax.switch(i, [lambda y: y + 1.0, lambda y: y * 3.0, lambda y: -y], x)

    _check_vmap(f, np.array([0, 2, 1, 5, -1]), np.arange(5.0), in_axes=(0, 0))


def test_vmap_while_loop_batched_and_unbatched_predicate():
    def f(limit, x):
        return lax.while_loop(lambda v: v[0] < limit, lambda v: (v[0] * 2.0, v[1] + 1), (x, 0))

    _check_vmap(f, np.array([10.0, 3.0, 100.0]), np.array([1.0, 5.0, 2.0]), in_axes=(0, 0))
    _check_vmap(f, 10.0, np.array([1.0, 5.0, 2.0]), in_axes=(None, 0))

    def g(x, y):  # unbatched predicate, batched carry
        return lax.while_loop(lambda v: v[0] < 5, lambda v: (v[0] + 1, v[1] * y), (0, x))

    _check_vmap(g, 1.0, np.array([1.0, 2.0, 0.5]), in_axes=(None, 0))


def test_vmap_scan_batched_xs_carry_and_consts():
    def f(c0, xs, w):
        return lax.scan(lambda c, x: (c * w + x, c * x), c0, xs)

    rng = np.random.default_rng(2)
    c0, xs, w = rng.normal(size=3), rng.normal(size=(3, 4)), rng.normal(size=3)
    _check_vmap(f, c0, xs, w, in_axes=(0, 0, 0))
    _check_vmap(f, 1.0, xs, 0.5, in_axes=(None, 0, None))
    _check_vmap(f, 1.0, xs.T, w, in_axes=(None, 1, 0))
    _check_vmap(f, c0, xs[0], 0.5, in_axes=(0, None, None))
