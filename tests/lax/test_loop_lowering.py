"""Loops under ``jit``: values of fori_loop/while_loop/scan against Python loops, and the
shape of the loop XLA compiles from xnp's lowering.

Values: every loop is run eagerly, under ``jit`` with static bounds and, for
``fori_loop``, with traced bounds, and compared exactly (integers) or to 1e-12 (floats)
with the same loop written in Python/NumPy; bounds cover Python ints, int32, int64 and
mixed int32/int64, zero and one iteration, negative and empty (``lo > hi``) ranges,
and ranges next to the int32 limits.

Structure: the optimised HLO (``Compiled.as_text()``) of each loop has exactly one
``while`` whose state is the counter, the carry and the scanned arrays (nothing else:
no copies of constants, no second counter of the same type), and whose trip count XLA
recognised whenever the bounds are static. These are the properties that let XLA CPU
run the loop as one compiled call with a fixed trip count (as it does for JAX's
lowering of the same loops).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import xnp
from xnp import lax

I32_MAX = int(np.iinfo(np.int32).max)
I32_MIN = int(np.iinfo(np.int32).min)


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def _bound(v, kind):
    return v if kind == "py" else np.asarray(v, dtype=kind)[()]


# ============================================================================= fori_loop

_RANGES = [(0, 5), (3, 4), (4, 4), (7, 2), (-5, 3), (-3, -7), (-9, -6), (0, 1)]
_KINDS = [("py", "py"), ("int32", "int32"), ("int64", "int64"), ("int32", "int64"),
          ("py", "int32")]


def _fori_ref(lo, hi, x):
    acc, v = 0, x
    for i in range(lo, hi):
        acc += i
        v = v * 0.5 + i
    return acc, v


def _fori_body(i, c):
    acc, v = c
    return acc + i.astype(np.int64), v * 0.5 + i


@pytest.mark.parametrize("lo,hi", _RANGES)
@pytest.mark.parametrize("kinds", _KINDS, ids=lambda k: "-".join(k))
def test_fori_loop_matches_python_loop(lo, hi, kinds):
    a, b = _bound(lo, kinds[0]), _bound(hi, kinds[1])
    x = np.arange(3.0) - 1.0
    ref_acc, ref_v = _fori_ref(lo, hi, x)
    init = (np.int64(0), x)
    runs = {
        "eager": lax.fori_loop(a, b, _fori_body, init),
        "jit": xnp.jit(lambda x: lax.fori_loop(a, b, _fori_body, (np.int64(0), x)))(x),
        "jit traced bounds": xnp.jit(
            lambda a, b, x: lax.fori_loop(a, b, _fori_body, (np.int64(0), x)))(a, b, x),
    }
    for how, (acc, v) in runs.items():
        assert int(acc) == ref_acc, how
        close(v, ref_v)


@pytest.mark.parametrize("kinds,expect", [
    (("py", "py"), np.int64), (("int32", "int32"), np.int32), (("int64", "int64"), np.int64),
    (("int32", "int64"), np.int64), (("py", "int32"), np.int32)])
def test_fori_loop_counter_has_the_bounds_dtype(kinds, expect):
    seen = []

    def body(i, c):
        seen.append(np.dtype(i.dtype))
        return c + i

    a, b = _bound(1, kinds[0]), _bound(4, kinds[1])
    out = xnp.jit(lambda: lax.fori_loop(a, b, body, np.asarray(0, expect)))()
    assert int(out) == 6 and out.dtype == expect
    traced = xnp.jit(lambda a, b: lax.fori_loop(a, b, body, np.asarray(0, expect)))(a, b)
    assert int(traced) == 6 and traced.dtype == expect
    assert set(seen) == {np.dtype(expect)}


@pytest.mark.parametrize("lo,hi", [(I32_MAX - 3, I32_MAX), (I32_MIN, I32_MIN + 3),
                                   (I32_MAX - 1, I32_MAX - 1)])
def test_fori_loop_int32_bounds_at_the_limits(lo, hi):
    # the last counter value stays in range: no wrap-around, no extra or missing step
    a, b = np.int32(lo), np.int32(hi)

    def body(i, c):
        return c + i.astype(np.int64)

    ref = sum(range(lo, hi))
    assert int(lax.fori_loop(a, b, body, np.int64(0))) == ref
    assert int(xnp.jit(lambda: lax.fori_loop(a, b, body, np.int64(0)))()) == ref
    assert int(xnp.jit(lambda a, b: lax.fori_loop(a, b, body, np.int64(0)))(a, b)) == ref


def test_fori_loop_one_and_zero_iterations_keep_the_carry():
    x = np.array([1.0, -2.0, 3.0])
    one = xnp.jit(lambda x: lax.fori_loop(5, 6, lambda i, v: v * i, x))(x)
    close(one, x * 5)
    zero = xnp.jit(lambda x: lax.fori_loop(6, 5, lambda i, v: v * i, x))(x)
    close(zero, x)
    assert zero.dtype == np.float64 and zero.shape == (3,)


# ============================================================================= while_loop


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("start,stop,step", [(0, 10, 1), (0, 0, 1), (0, 1, 1), (5, -7, -3),
                                             (-4, 9, 4), (3, 2, 1)])
def test_while_loop_counter_matches_python_loop(dtype, start, stop, step):
    def cond(s):
        return s[0] < stop if step > 0 else s[0] > stop

    def body(s):
        i, acc, v = s
        return i + np.asarray(step, dtype), acc + i, v * 0.75 + i

    def ref():
        i, acc, v = start, 0, np.linspace(-1.0, 1.0, 4)
        while (i < stop) if step > 0 else (i > stop):
            i, acc, v = i + step, acc + i, v * 0.75 + i
        return i, acc, v

    init = (np.asarray(start, dtype), np.asarray(0, dtype), np.linspace(-1.0, 1.0, 4))
    ri, racc, rv = ref()
    for how, out in (("eager", lax.while_loop(cond, body, init)),
                     ("jit", xnp.jit(lambda *c: lax.while_loop(cond, body, c))(*init))):
        i, acc, v = out
        assert int(i) == ri and int(acc) == racc, how
        assert i.dtype == dtype and acc.dtype == dtype, how
        close(v, rv)


def test_while_loop_traced_limit_and_data_dependent_exit():
    def f(n, x):
        return lax.while_loop(lambda s: (s[0] < n) & (xnp.sum(s[1]) < 100.0),
                              lambda s: (s[0] + 1, s[1] * 2.0), (0, x))

    def ref(n, x):
        i = 0
        while i < n and x.sum() < 100.0:
            i, x = i + 1, x * 2.0
        return i, x

    jf = xnp.jit(f)
    for n in (0, 1, 3, 50):
        for x in (np.array([1.0, 2.0]), np.array([60.0, 50.0])):
            i, v = jf(n, x)
            ri, rv = ref(n, x)
            assert int(i) == ri
            close(v, rv)


# ============================================================================= scan


@pytest.mark.parametrize("length", [0, 1, 2, 7])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_matches_python_loop(length, reverse):
    xs = np.arange(length * 3, dtype=np.float64).reshape(length, 3) * 0.25
    ks = np.arange(length, dtype=np.int32) - 2

    def step(c, x):
        s, n = c
        row, k = x
        return (s * 0.5 + row, n + k), (s[0] * k, n)

    def ref():
        s, n = np.ones(3), np.int32(0)
        y0 = np.zeros(length)
        y1 = np.zeros(length, np.int32)
        for t in (range(length - 1, -1, -1) if reverse else range(length)):
            y0[t], y1[t] = s[0] * ks[t], n
            s, n = s * 0.5 + xs[t], n + ks[t]
        return s, n, y0, y1

    init = (np.ones(3), np.int32(0))
    f = lambda init, xs, ks: lax.scan(step, init, (xs, ks), reverse=reverse)  # noqa: E731
    rs, rn, ry0, ry1 = ref()
    for how, out in (("eager", f(init, xs, ks)), ("jit", xnp.jit(f)(init, xs, ks))):
        (s, n), (y0, y1) = out
        close(s, rs)
        assert int(n) == int(rn) and n.dtype == np.int32, how
        close(y0, ry0)
        np.testing.assert_array_equal(np.asarray(y1), ry1)
        assert y0.shape == (length,) and y1.dtype == np.int32, how


def test_scan_length_only_and_closed_over_array():
    w = np.array([0.5, 2.0, -1.0])

    def f(x):
        return lax.scan(lambda c, _: (c * w + 1.0, c.sum()), x, None, length=5)

    c, ys = xnp.jit(f)(np.ones(3))
    rc, rys = np.ones(3), []
    for _ in range(5):
        rys.append(rc.sum())
        rc = rc * w + 1.0
    close(c, rc)
    close(ys, rys)


# ============================================================================= structure

_WHILE = re.compile(r"= \((?P<state>[^()]*)\) while\((?P<rest>.*)$", re.M)
_TRIP = re.compile(r'"known_trip_count":\{"n":"(\d+)"\}')


def _loops(fn, *args):
    """[(state element types, trip count or None)] of every ``while`` in the optimised HLO."""
    text = xnp.jit(fn).lower(*args).compile().as_text()
    out = []
    for m in _WHILE.finditer(text):
        state = [re.sub(r"\{[^}]*\}", "", t).strip() for t in m.group("state").split(", ")]
        trip = _TRIP.search(m.group("rest"))
        out.append((state, int(trip.group(1)) if trip else None))
    return out


X10 = np.arange(10.0) * 0.1


@pytest.mark.parametrize("lo,hi", [(0, 1000), (-5, 995), (1000, 2000)])
def test_fori_loop_static_bounds_compile_to_a_counted_loop(lo, hi):
    loops = _loops(lambda x: lax.fori_loop(lo, hi, lambda i, c: c * 0.999 + i, x), X10)
    # the scan counter and the loop index merge into one int64 counter
    assert loops == [(["s64[]", "f64[10]"], hi - lo)]


def test_fori_loop_traced_bounds_compile_to_an_uncounted_loop():
    loops = _loops(lambda n, x: lax.fori_loop(0, n, lambda i, c: c * 0.999 + i, x), 1000, X10)
    assert len(loops) == 1 and loops[0][1] is None
    assert sorted(loops[0][0]) == sorted(["s64[]", "s64[]", "f64[10]"])  # index, limit, carry


@pytest.mark.parametrize("dtype,hlo", [(np.int32, "s32[]"), (np.int64, "s64[]")])
def test_while_loop_with_a_constant_limit_has_a_trip_count(dtype, hlo):
    def f(x):
        return lax.while_loop(lambda s: s[0] < np.asarray(1000, dtype),
                              lambda s: (s[0] + np.asarray(1, dtype), s[1] * 0.999),
                              (np.asarray(0, dtype), x))[1]

    assert _loops(f, X10) == [([hlo, "f64[10]"], 1000)]


def test_scan_state_is_counter_carry_ys_and_xs():
    xs = np.ones((1000, 10))
    w = np.linspace(0.5, 1.0, 10)

    def f(x, xs, w):
        return lax.scan(lambda c, a: (c * w + a, c[0]), x, xs)

    # the closed-over argument w rides along once; constants are not carried
    loops = _loops(f, X10, xs, w)
    assert len(loops) == 1 and loops[0][1] == 1000
    assert sorted(loops[0][0]) == sorted(["s64[]", "f64[10]", "f64[1000]", "f64[1000,10]",
                                          "f64[10]"])
    loops = _loops(lambda x: lax.scan(lambda c, _: (c * 0.999 + 0.001, None), x, None,
                                      length=1000)[0], X10)
    assert loops == [(["s64[]", "f64[10]"], 1000)]
