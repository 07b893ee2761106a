"""Control-flow bodies that write arrays they close over (``y[i] = v``, ``y += v``,
``out=y`` inside a ``fori_loop``/``while_loop``/``scan``/``cond`` body): the array is carried
state of the loop, read before the write as the previous iteration left it, and the final
value is written back into it afterwards. Oracle: the same program as a Python loop on
NumPy; derivatives against central differences. Eagerly, under jit, grad, vmap and their
compositions."""

import numpy as np
import pytest

import xnp
from xnp import errors, lax
from tests.helpers import central_difference


def recurrence(m, a):
    """y[i] = y[i-1] / 2 + c * a[1], c counting up: reads the previous iteration's write."""
    y = m.zeros(6) + a[0]
    if m is np:
        c = 1.0
        for i in range(1, 6):
            y[i] = y[i - 1] * 0.5 + c * a[1]
            c += 1.0
        return y * c

    def body(i, c):
        y[i] = y[i - 1] * 0.5 + c * a[1]
        return c + 1.0

    c = lax.fori_loop(1, 6, body, 1.0)
    return y * c


def predicate_reads(m, a):
    """while_loop whose predicate reads the array the body writes."""
    y = m.zeros(3) + a[0]
    if m is np:
        k = 0
        while y[0] < 10.0:
            y[0] += 3.0 * abs(a[1]) + 0.5
            y[1] = y[0] * 2
            k += 1
        return y * k

    def body(k):
        y[0] += 3.0 * abs(a[1]) + 0.5
        y[1] = y[0] * 2
        return k + 1

    k = lax.while_loop(lambda k: y[0] < 10.0, body, 0)
    return y * k


def scan_fill(m, a):
    """scan filling a buffer with setitem, an in-place operator and out=."""
    acc = m.zeros(4) + a[1]
    xs = m.arange(4.0) * a[0]
    if m is np:
        ys = []
        for c, x in enumerate(xs):
            acc[c] = x * acc[c - 1]
            acc += 1.0
            np.multiply(acc, 0.5, out=acc)
            ys.append(x * 2)
        return acc, np.stack(ys)

    def step(c, x):
        acc[c] = x * acc[c - 1]
        acc.__iadd__(1.0)
        xnp.multiply(acc, 0.5, out=acc)
        return c + 1, x * 2

    _, ys = lax.scan(step, 0, xs)
    return acc, ys


def branch_writes(m, a):
    """cond/switch where one branch writes, the other reads."""
    y = m.zeros(3) + a[0]
    if m is np:
        if a[1] > 0:
            y[1] = a[1] * 10
            r = a[1]
        else:
            r = -a[1] + y[1]
        z = m.zeros(2)
        z[0] = r * 3 if a[0] > 0.5 else z[0]
        return y, r, z

    def t(v):
        y[1] = v * 10
        return v

    r = lax.cond(a[1] > 0, t, lambda v: -v + y[1], a[1])
    z = xnp.zeros(2)

    def w(i):
        z[0] = r * 3
        return i

    lax.switch(xnp.where(a[0] > 0.5, 1, 0), [lambda i: i, w], 0)
    return y, r, z


def nested(m, a):
    """a fori_loop body whose inner fori_loop writes a buffer of the outer function."""
    y = m.zeros((3, 3))
    if m is np:
        d = 0.0
        for i in range(3):
            for j in range(3):
                y[i, j] = d + i * 10 + y[i - 1, j] * a[1]
                d += a[0]
        return y

    def outer(i, c):
        def inner(j, d):
            y[i, j] = d + i * 10 + y[i - 1, j] * a[1]
            return d + a[0]
        return lax.fori_loop(0, 3, inner, c)

    lax.fori_loop(0, 3, outer, 0.0)
    return y


def view_of_a_local(m, a):
    """the body writes a row view of an array the function made (the write reaches it)."""
    base = m.zeros((2, 3)) + a[0]
    row = base[1]
    if m is np:
        c = 5.0
        for i in range(3):
            row[i] = c * a[1]
            c += 1.0
        return base

    def body(i, c):
        row[i] = c * a[1]
        return c + 1.0

    lax.fori_loop(0, 3, body, 5.0)
    return base


PROGRAMS = {"recurrence": recurrence, "predicate_reads": predicate_reads,
            "scan_fill": scan_fill, "branch_writes": branch_writes, "nested": nested,
            "view_of_a_local": view_of_a_local}
A = np.array([0.7, 1.3])
A_BATCH = np.array([[0.7, 1.3], [0.2, -0.4], [1.5, 0.25]])


def _check(got, want):
    got_leaves = got if isinstance(got, tuple) else (got,)
    want_leaves = want if isinstance(want, tuple) else (want,)
    assert len(got_leaves) == len(want_leaves)
    for g, w in zip(got_leaves, want_leaves):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("how", ["eager", "jit"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_body_writes_match_a_python_loop(name, how):
    prog = PROGRAMS[name]
    f = (lambda a: prog(xnp, a)) if how == "eager" else xnp.jit(lambda a: prog(xnp, a))
    for a in A_BATCH:  # (the rows take either branch of branch_writes)
        _check(f(xnp.asarray(a)), prog(np, a.copy()))


@pytest.mark.parametrize("how", ["vmap", "jit(vmap)"])
@pytest.mark.parametrize("name", ["recurrence", "scan_fill", "nested", "view_of_a_local"])
def test_body_writes_under_vmap(name, how):
    prog = PROGRAMS[name]
    f = xnp.vmap(lambda a: prog(xnp, a))
    f = f if how == "vmap" else xnp.jit(f)
    want = [prog(np, r.copy()) for r in A_BATCH]
    got = f(xnp.asarray(A_BATCH))
    if isinstance(want[0], tuple):
        _check(got, tuple(np.stack(w) for w in zip(*want)))
    else:
        _check(got, np.stack(want))


def _total(m, name, a):
    out = PROGRAMS[name](m, a)
    leaves = out if isinstance(out, tuple) else (out,)
    return sum((leaf * (1.0 + np.arange(np.size(leaf)).reshape(np.shape(leaf)))).sum()
               for leaf in leaves)


@pytest.mark.parametrize("how", ["grad", "jit(grad)", "grad(jit)"])
@pytest.mark.parametrize("name", ["recurrence", "scan_fill", "nested", "view_of_a_local"])
def test_grad_through_body_writes(name, how):
    f = lambda a: _total(xnp, name, a)  # noqa: E731
    g = {"grad": xnp.grad(f), "jit(grad)": xnp.jit(xnp.grad(f)),
         "grad(jit)": xnp.grad(xnp.jit(f))}[how]
    want = np.array([central_difference(lambda v: _total(np, name, np.asarray(v)), A, e)
                     for e in np.eye(2)])
    np.testing.assert_allclose(np.asarray(g(xnp.asarray(A))), want, rtol=1e-6, atol=1e-7)


def test_grad_at_a_kink_of_a_written_value():
    # y[i] = max(y[i-1], c * a): the derivative follows the branch taken at each step; at
    # the tie (a = 1, y[0] = 1, c = 1) it is max's subgradient, as with no loop
    def f(m, a):
        y = m.ones(3)
        if m is np:
            for i in range(1, 3):
                y[i] = max(y[i - 1], i * a)
            return y.sum()

        def body(i, c):
            y[i] = xnp.maximum(y[i - 1], i * a)
            return c

        lax.fori_loop(1, 3, body, 0.0)
        return y.sum()

    for a in (0.3, 2.0):
        want = central_difference(lambda v: f(np, float(np.asarray(v))), np.float64(a),
                                  np.float64(1.0))
        np.testing.assert_allclose(float(xnp.grad(lambda v: f(xnp, v))(a)), want, rtol=1e-6)
    tie = float(xnp.grad(lambda v: f(xnp, v))(1.0))
    unrolled = xnp.grad(lambda v: (xnp.ones(1).sum() + xnp.maximum(1.0, v)
                                   + xnp.maximum(xnp.maximum(1.0, v), 2 * v)))(1.0)
    assert tie == float(unrolled)


def test_jit_argument_written_in_a_body_is_written_back():
    x = xnp.zeros(4)

    def h(x):
        def body(i, c):
            x[i] = c * 2
            return c + 1
        lax.fori_loop(0, 4, body, 1.0)
        return x.sum()

    assert float(xnp.jit(h)(x)) == 20.0
    np.testing.assert_array_equal(np.asarray(x), [2.0, 4.0, 6.0, 8.0])


def test_eager_global_is_written_in_place_eagerly_and_refused_under_jit():
    g = xnp.zeros(3)
    g_view = np.asarray(g)  # NumPy's view of the same memory sees the write

    def f(a):
        def body(i, c):
            g[i] = c
            return c + a
        return lax.fori_loop(0, 3, body, 0.0)

    assert float(f(1.0)) == 3.0
    np.testing.assert_array_equal(g_view, [0.0, 1.0, 2.0])
    with pytest.raises(errors.ForeignWriteError, match="inside a function traced by jit"):
        xnp.jit(f)(1.0)
    with pytest.raises(errors.ForeignWriteError):
        xnp.grad(f)(1.0)  # a traced value into an array the function did not make


def test_aliased_arrays_in_a_body_are_refused():
    def f(a):
        base = xnp.zeros((2, 3)) + a
        row = base[1]

        def body(i, c):
            base[1, i] = c + row[0]  # writes base, reads its view: the view would go stale
            return c + 1.0

        lax.fori_loop(0, 3, body, 5.0)
        return base

    for fn in (f, xnp.jit(f)):
        with pytest.raises(NotImplementedError, match="sharing its memory"):
            fn(1.0)
    e = xnp.zeros(4)
    ev = e[1:]
    with pytest.raises(NotImplementedError, match="sharing its memory"):
        lax.fori_loop(0, 2, lambda i, c: (e.__setitem__(i, ev[i] + c), c)[1], 1.0)


def test_read_only_and_local_arrays():
    ro = xnp.broadcast_to(xnp.arange(3.0), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        lax.fori_loop(0, 2, lambda i, c: (ro.__setitem__((0, i), c), c)[1], 1.0)

    def local(i, c):  # an array the body makes is the body's own: not carried
        z = xnp.zeros(3)
        z[i] = c
        return c + z.sum()

    assert float(lax.fori_loop(0, 3, local, 1.0)) == 8.0
    assert float(xnp.jit(lambda c: lax.fori_loop(0, 3, local, c))(1.0)) == 8.0


def test_writing_the_carry_in_place_is_still_refused():
    def body(i, c):
        c[i] = 1.0
        return c

    with pytest.raises(NotImplementedError, match="updates one of its arguments in place"):
        lax.fori_loop(0, 2, body, xnp.zeros(2))


def test_side_effects_run_once_per_trace():
    calls = []

    def f(a):
        y = xnp.zeros(4)

        def body(i, c):
            calls.append(i)  # a Python side effect of the body
            y[i] = c * a
            return c + 1.0

        lax.fori_loop(0, 4, body, 1.0)
        return (y * y).sum()

    want = 2 * 1.5 * (1 + 4 + 9 + 16)
    for transform in (xnp.grad, lambda f: xnp.vmap(xnp.grad(f))):
        calls.clear()
        g = transform(f)(1.5 if transform is xnp.grad else xnp.asarray([1.5, 1.5]))
        np.testing.assert_allclose(np.asarray(g), want)
        assert len(calls) == 1, calls  # the body is traced once; the loop runs compiled


def test_integer_buffer_and_dtype_casts_follow_numpy():
    def fill(m):
        y = m.zeros(4, dtype=np.int32)
        if m is np:
            for i in range(4):
                y[i] = i * 1.75
            return y

        def body(i, c):
            y[i] = i * 1.75
            return c
        lax.fori_loop(0, 4, body, 0)
        return y

    for got in (fill(xnp), xnp.jit(lambda: fill(xnp))()):
        assert np.asarray(got).dtype == np.int32
        np.testing.assert_array_equal(np.asarray(got), fill(np))


def _loop(m, body, n, c):
    """``body`` over ``range(n)`` from ``c``: a Python loop on NumPy, a fori_loop on xnp."""
    if m is np:
        for i in range(n):
            c = body(i, c)
        return c
    return lax.fori_loop(0, n, body, c)


def views_made_in_the_body(m, a):
    """views the body makes of the array it writes, before and after the first write: a
    view read before the write sees it (NumPy's views share memory), writes through views
    of views reach the array, and a transpose of the written array writes through too."""
    y = m.zeros((2, 4)) + a[0]
    out = m.zeros(3)

    def body(i, c):
        v = y[1, 1:]
        w = v[1:]
        v[0] = v[0] + c * a[1]
        y[1, 3] = y[1, 3] + 2 * c
        w[0] = w[1] * 0.5 + v[0]
        y.T[0, 0] = y[0, 0] * a[1] + w[1]
        out[i] = w[1] + v[1]
        return c + 1.0

    _loop(m, body, 3, 1.0)
    return y, out


def complex_parts_in_the_body(m, a):
    """writes through y.real/y.imag (a view read before any write, y.real += v, y.imag = v)."""
    y = m.zeros(3, dtype=np.complex128) + a[0]

    def body(i, c):
        re = y.real
        y.imag[i] = c * a[1]
        re[i] = re[i] + y.imag[i]
        y.real += a[0]
        y.imag = y.imag * 0.5 + re
        return c + 1.0

    _loop(m, body, 3, 1.0)
    return y.real, y.imag


@pytest.mark.parametrize("how", ["eager", "jit", "vmap", "grad", "jit(grad)"])
@pytest.mark.parametrize("prog", [views_made_in_the_body, complex_parts_in_the_body])
def test_views_the_body_makes_of_a_written_array(prog, how):
    if how in ("eager", "jit"):
        f = (lambda a: prog(xnp, a)) if how == "eager" else xnp.jit(lambda a: prog(xnp, a))
        _check(f(xnp.asarray(A)), prog(np, A.copy()))
    elif how == "vmap":
        want = [prog(np, r.copy()) for r in A_BATCH]
        _check(xnp.vmap(lambda a: prog(xnp, a))(xnp.asarray(A_BATCH)),
               tuple(np.stack(w) for w in zip(*want)))
    else:
        def total(m, a):
            return sum((leaf * (1.0 + np.arange(leaf.size).reshape(leaf.shape))).sum()
                       for leaf in prog(m, a))
        g = xnp.grad(lambda a: total(xnp, a))
        g = g if how == "grad" else xnp.jit(g)
        want = np.array([central_difference(lambda v: total(np, np.asarray(v)), A, e)
                         for e in np.eye(2)])
        np.testing.assert_allclose(np.asarray(g(xnp.asarray(A))), want, rtol=1e-6, atol=1e-7)


def test_a_view_of_another_array_of_the_same_memory_is_refused_eagerly_too():
    # the inner body writes a row view made by the outer body and reads the array it is
    # a view of: refused eagerly as under jit (the row's value would not follow the array)
    def f():
        y = xnp.zeros((3, 3))

        def outer(i, c):
            r = y[i]

            def inner(j, d):
                r[j] = d + y[i, j]
                return d + 1.0
            return lax.fori_loop(0, 3, inner, c)

        lax.fori_loop(0, 3, outer, 0.0)
        return y

    for fn in (f, xnp.jit(f)):
        with pytest.raises(NotImplementedError, match="sharing its memory"):
            fn()
