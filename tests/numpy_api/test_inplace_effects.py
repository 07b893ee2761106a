"""In-place updates of traced arrays are state effects in the IR.

The first write into a traced array makes its family's memory a cell (``new_ref``), every
write is a ``ref_swap`` and every later read a ``ref_get`` (``xnp/numpy_api/_views.py``);
``jit`` discharges them into functional updates. Checked here: the staged equations, their
discharge against NumPy's result, one cell per family of views, the bindings dropped when
the trace ends, and values under every transformation and their compositions against a
NumPy oracle (and finite differences for derivatives).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import xnp
from xnp.tracing import core, eval_jaxpr
from xnp.tracing.jaxpr_transforms import discharge_state, uses_refs

from tests.helpers import central_difference


def _prims(closed):
    return [e.primitive.name for e in closed.jaxpr.eqns]


def views_program(xp, x):
    """Writes through a slice, a transpose, a reshape and a view of a view, then reads
    a view made before the writes; returns the array and a derived value."""
    y = xp.zeros((3, 4))
    y[...] = xp.reshape(x, (3, 4))
    row = y[1]
    col = y.T[2]
    head = row[:2]
    y[0, 0] = -1.0
    row *= 3.0
    head += x[0]
    col[...] = col * x[5]
    flat = y.reshape(12)
    flat[11] = flat[0] + flat[5]
    return y, row.sum() * head[1]


def _numpy(x):
    y, s = views_program(np, np.array(x, dtype=np.float64))
    return y.copy(), s


X = np.linspace(-0.7, 1.9, 12)


def test_staged_writes_are_ref_equations_and_discharge_to_numpys_values():
    closed = xnp.make_jaxpr(lambda x: views_program(xnp, x))(X)
    prims = _prims(closed)
    assert prims.count("new_ref") == 1  # one cell: y and all its views are one family
    assert prims.count("ref_swap") == 6  # one per write statement
    # (a read on the trace that wrote the cell last is the value it wrote: no ref_get)
    assert uses_refs(closed)
    functional = discharge_state(closed)
    assert not uses_refs(functional)
    assert not {"new_ref", "ref_get", "ref_swap"} & set(_prims(functional))
    got = eval_jaxpr(functional.jaxpr, functional.consts, X)
    want = _numpy(X)
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-14)
    np.testing.assert_allclose(float(got[1]), want[1], rtol=1e-14)


def test_an_argument_written_in_place_is_a_cell_whose_final_value_is_an_output():
    def f(x):
        v = x[1:]
        v[0] = 5.0
        x += 1.0
        return v * 2.0

    closed = xnp.make_jaxpr(f)(np.arange(4.0))
    assert _prims(closed).count("new_ref") == 1
    assert len(closed.jaxpr.outvars) == 2  # v * 2, and the argument's final value
    a = xnp.arange(4.0)
    out = xnp.jit(f)(a)
    b = np.arange(4.0)
    want = f(b)  # NumPy runs the same statements on its own array
    np.testing.assert_array_equal(np.asarray(out), want)
    np.testing.assert_array_equal(np.asarray(a), b)


def test_a_loop_body_reads_the_cell_of_the_function_around_it():
    def f(xp, x):
        y = x * 1.0
        y[0] = 5.0
        if xp is np:
            s = sum(y[i] for i in range(3))
        else:
            s = xnp.lax.fori_loop(0, 3, lambda i, c: c + y[i], 0.0)
        y[1] = s
        return y

    closed = xnp.make_jaxpr(lambda x: f(xnp, x))(X[:4])
    prims = _prims(closed)
    assert prims.count("new_ref") == 1
    loop = prims.index("scan")
    assert "ref_get" in prims[:loop]  # the body's read of y: the cell's value, carried
    assert prims[loop + 1] == "ref_swap"  # and written back (unchanged) after the loop
    functional = discharge_state(closed)
    got = eval_jaxpr(functional.jaxpr, functional.consts, X[:4])[0]
    want = f(np, X[:4].copy())
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(xnp.jit(lambda x: f(xnp, x))(X[:4])), want,
                               rtol=1e-14)


def _recurrence(xp, x):
    y = x * 1.0
    y[0] = 5.0 * x[1]  # y is a cell before the loop
    if xp is np:
        for i in range(1, 4):
            y[i] = y[i - 1] * x[i]
        return y

    def body(i, c):
        y[i] = y[i - 1] * x[i]  # the body writes the cell of the function around it
        return c

    xnp.lax.fori_loop(1, 4, body, 0)
    return y


@pytest.mark.parametrize("how", ["eager", "jit", "grad", "jit(grad)", "vmap"])
def test_a_loop_body_writes_the_cell_of_the_function_around_it(how):
    x = np.array([0.5, 1.5, -2.0, 0.25])
    f = lambda a: _recurrence(xnp, a)  # noqa: E731
    if how in ("eager", "jit"):
        got = (f if how == "eager" else xnp.jit(f))(xnp.asarray(x))
        np.testing.assert_allclose(np.asarray(got), _recurrence(np, x.copy()), rtol=1e-14)
    elif how == "vmap":
        xs = np.stack([x, x * 2.0])
        got = xnp.vmap(f)(xnp.asarray(xs))
        for k in range(2):
            np.testing.assert_allclose(np.asarray(got[k]), _recurrence(np, xs[k].copy()),
                                       rtol=1e-14)
    else:
        s = lambda a: (f(a) ** 2).sum()  # noqa: E731
        g = xnp.grad(s) if how == "grad" else xnp.jit(xnp.grad(s))
        want = np.array([central_difference(lambda a: (_recurrence(np, np.asarray(a).copy())
                                                        ** 2).sum(), x, e) for e in np.eye(4)])
        np.testing.assert_allclose(np.asarray(g(xnp.asarray(x))), want, rtol=1e-6)


def test_a_function_without_writes_has_no_state():
    closed = xnp.make_jaxpr(lambda x: x[1:] * 2.0 + x[:-1])(np.arange(4.0))
    assert not uses_refs(closed)


def _wrap(how, f):
    return {"jit": xnp.jit(f), "eager": f}[how]


@pytest.mark.parametrize("how", ["eager", "jit"])
def test_values_match_numpy(how):
    got = _wrap(how, lambda x: views_program(xnp, x))(xnp.asarray(X))
    want = _numpy(X)
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-14)
    np.testing.assert_allclose(float(got[1]), want[1], rtol=1e-14)


def _scalar(xp, x):
    y, s = views_program(xp, x)
    return (y * y).sum() + s


@pytest.mark.parametrize("how", ["grad", "jit(grad)", "grad(jit)"])
def test_gradients_match_finite_differences(how):
    f = lambda x: _scalar(xnp, x)  # noqa: E731
    g = {"grad": xnp.grad(f), "jit(grad)": xnp.jit(xnp.grad(f)),
         "grad(jit)": xnp.grad(xnp.jit(f))}[how]
    want = np.array([central_difference(lambda x: _scalar(np, np.asarray(x)), X, e)
                     for e in np.eye(12)])
    np.testing.assert_allclose(np.asarray(g(xnp.asarray(X))), want, rtol=1e-6, atol=1e-7)


def test_gradient_at_a_tie_and_a_zero_written_in_place():
    """``y[0] = max(x0, x1)`` at a tie, and a product written over a zero: the derivative
    of the written value flows through the cell as the functional update's would."""
    def f(xp, x):
        y = x * 1.0
        y[0] = xp.maximum(x[0], x[1])
        y[2] *= x[3]
        return (y * y).sum()

    x = np.array([1.5, 1.5, 0.0, 2.0])
    got = np.asarray(xnp.grad(lambda a: f(xnp, a))(xnp.asarray(x)))
    functional = np.asarray(xnp.grad(lambda a: (
        xnp.stack([xnp.maximum(a[0], a[1]), a[1], a[2] * a[3], a[3]]) ** 2).sum())(
            xnp.asarray(x)))
    np.testing.assert_array_equal(got, functional)
    np.testing.assert_array_equal(np.asarray(xnp.jit(xnp.grad(lambda a: f(xnp, a)))(x)),
                                  functional)


@pytest.mark.parametrize("how", ["vmap", "jit(vmap)", "vmap(jit)"])
def test_vmap_matches_a_numpy_loop(how):
    f = lambda x: views_program(xnp, x)  # noqa: E731
    g = {"vmap": xnp.vmap(f), "jit(vmap)": xnp.jit(xnp.vmap(f)),
         "vmap(jit)": xnp.vmap(xnp.jit(f))}[how]
    xs = np.stack([X, X[::-1], X * 2.0])
    got = g(xnp.asarray(xs))
    for k in range(3):
        want = _numpy(xs[k])
        np.testing.assert_allclose(np.asarray(got[0][k]), want[0], rtol=1e-14)
        np.testing.assert_allclose(float(got[1][k]), want[1], rtol=1e-14)


def test_jvp_matches_finite_differences():
    f = lambda x: _scalar(xnp, x)  # noqa: E731
    t = np.cos(np.arange(12.0))
    _, tangent = xnp.jvp(f, (xnp.asarray(X),), (xnp.asarray(t),))
    want = (_scalar(np, X + 1e-6 * t) - _scalar(np, X - 1e-6 * t)) / 2e-6
    np.testing.assert_allclose(float(tangent), want, rtol=1e-6)


def test_loop_body_writing_an_outer_array_carries_it():
    def f(xp, x):
        y = x * 1.0
        if xp is np:
            for i in range(1, 6):
                y[i] = y[i - 1] * 0.5 + y[i]
            return y

        def body(i, c):
            y[i] = y[i - 1] * 0.5 + y[i]
            return c

        xnp.lax.fori_loop(1, 6, body, 0)
        return y

    x = np.linspace(1.0, 2.0, 6)
    want = f(np, x.copy())
    for g in (lambda a: f(xnp, a), xnp.jit(lambda a: f(xnp, a))):
        np.testing.assert_allclose(np.asarray(g(xnp.asarray(x))), want, rtol=1e-14)


def test_bindings_are_dropped_when_the_trace_ends():
    """A bound array makes every bind resolve its operands; the count of bindings returns
    to where it was after each trace, so eager code pays nothing afterwards."""
    before = core._REBOUND_ON[0]
    xnp.jit(lambda x: views_program(xnp, x))(X)
    xnp.make_jaxpr(lambda x: views_program(xnp, x))(X)
    xnp.grad(lambda x: _scalar(xnp, x))(xnp.asarray(X))
    xnp.vmap(lambda x: views_program(xnp, x))(xnp.asarray(np.stack([X, X])))
    def fails_after_a_write(x):
        y = x * 1.0
        y[0] = 2.0
        raise ValueError("after the write")

    for t in (xnp.jit, xnp.grad):
        with pytest.raises(ValueError, match="after the write"):
            t(fails_after_a_write)(xnp.asarray(X))  # a failing trace releases them too
    assert core._REBOUND_ON[0] == before


def test_threads_tracing_writes_concurrently():
    results, errors = {}, []

    def work(k):
        try:
            x = X * (k + 1)
            f = xnp.jit(lambda a: views_program(xnp, a))
            results[k] = (f(x), _numpy(x))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, want in results.values():
        np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-14)


def _filled_from_outer(x, w):
    y = w.copy()  # a buffer made from a value of the enclosing transformation
    y[0] = x[0] * x[1]
    y[2:] *= x[2]
    return (y * y).sum()


def _numpy_total(w, xs):
    return sum(_filled_from_outer(x, w.copy()) for x in xs)


@pytest.mark.parametrize("how", ["grad(vmap)", "jit(grad(vmap))", "grad(grad)"])
def test_buffer_made_from_an_enclosing_transformations_value(how):
    xs = np.linspace(0.5, 2.0, 12).reshape(3, 4)
    w = np.array([0.3, -1.2, 0.7, 2.0])
    if how == "grad(grad)":
        def outer(w):
            inner = xnp.grad(lambda x: _filled_from_outer(x, w))
            return inner(xnp.asarray(xs[0])).sum()

        def numpy_outer(w):
            x = xs[0]
            return (2 * x[1] * (x[0] * x[1]) + 2 * x[0] * (x[0] * x[1])
                    + 2 * x[2] * (w[2] ** 2 + w[3] ** 2))
    else:
        def outer(w):
            return xnp.vmap(_filled_from_outer, in_axes=(0, None))(xnp.asarray(xs), w).sum()

        def numpy_outer(w):
            return _numpy_total(np.asarray(w), xs)

    g = xnp.grad(outer) if how != "jit(grad(vmap))" else xnp.jit(xnp.grad(outer))
    want = np.array([central_difference(lambda a: numpy_outer(np.asarray(a)), w, e)
                     for e in np.eye(4)])
    np.testing.assert_allclose(np.asarray(g(xnp.asarray(w))), want, rtol=1e-6, atol=1e-8)


def test_an_integer_indexed_element_is_a_scalar_under_jit_and_vmap():
    """``x[i]`` with integers is a NumPy scalar: ``v += 1.5`` makes a new (float) value
    and leaves ``x`` alone; ``x[i] += 1.5`` then casts it back into ``x``."""
    def f(x):
        v = x[1]
        v += 1.5
        x[0] += 1.5
        return x, v

    for g in (f, xnp.jit(f)):
        got = g(xnp.arange(3))
        want = f(np.arange(3))
        np.testing.assert_array_equal(np.asarray(got[0]), want[0])
        assert float(got[1]) == want[1] == 2.5
    got = xnp.vmap(f)(xnp.arange(6).reshape(2, 3))
    for k in range(2):
        want = f(np.arange(6).reshape(2, 3)[k].copy())
        np.testing.assert_array_equal(np.asarray(got[0][k]), want[0])
        assert float(got[1][k]) == want[1]


def _special_writes(xp, x):
    """Special values written through views (a slice, a transpose, a reshape); the cells
    move the bits unchanged: signed zeros, infinities, NaN, subnormals."""
    y = xp.zeros((2, 4))
    row = y[1]
    row[...] = x[3::-1]
    y.T[:, 0] = x[:2].repeat(2) if xp is np else xp.repeat(x[:2], 2)
    flat = y.reshape(8)
    flat[3] = x[5]
    return y


@pytest.mark.parametrize("how", ["eager", "jit", "vmap"])
def test_special_values_written_through_views(how):
    # six values, x[5] a subnormal
    arg = np.array([-0.0, 5e-324, np.inf, -2.2e-308, np.nan, 5e-324])
    want = _special_writes(np, arg)
    f = lambda a: _special_writes(xnp, a)  # noqa: E731
    if how == "vmap":
        got = np.asarray(xnp.vmap(f)(xnp.asarray(np.stack([arg, arg[::-1]]))))
        wants = [want, _special_writes(np, arg[::-1])]
    else:
        got = np.asarray((f if how == "eager" else xnp.jit(f))(xnp.asarray(arg)))[None]
        wants = [want]
    for g, w in zip(got, wants):
        np.testing.assert_array_equal(g, w)  # NaN at the same places, values bit-equal
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def test_gradient_through_writes_of_infinities_and_signed_zeros():
    """A write of an infinity or -0.0 over an element cuts its derivative; a product with
    a written zero has a zero derivative; the others flow (finite differences)."""
    def f(xp, x):
        y = x * 1.0
        y[0] = -0.0
        y[1] = np.inf
        y[2] *= y[0]
        return (y[2:] ** 2).sum() + xp.exp(-y[1]) * x[3]

    x = np.array([0.5, 1.5, -2.0, 0.75, 1.25])
    want = np.array([central_difference(lambda a: f(np, np.array(a)), x, e)
                     for e in np.eye(5)])
    for g in (xnp.grad(lambda a: f(xnp, a)), xnp.jit(xnp.grad(lambda a: f(xnp, a)))):
        got = np.asarray(g(xnp.asarray(x)))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
        assert got[0] == 0.0 and got[1] == 0.0 and got[2] == 0.0


def test_a_bad_write_into_a_view_of_a_cell_says_the_same_eagerly_and_transformed():
    def f(x):
        y = x * 1.0
        y[0] = 1.0  # y is a cell under a transformation
        v = y[1:3]
        v[...] = np.ones(3)
        return y

    msg = (r"could not broadcast input array from shape \(3,\) into shape \(2,\) "
           r"\(xnp.Array.__setitem__: value of dtype float64 and shape \(3,\) into an array "
           r"of dtype float64 and shape \(2,\)\)")
    x, xs = xnp.arange(4.0), xnp.arange(8.0).reshape(2, 4)
    for g, arg in ((f, x), (xnp.jit(f), x), (xnp.grad(lambda a: f(a).sum()), x),
                   (xnp.vmap(f), xs)):
        with pytest.raises(ValueError, match=msg):
            g(arg)
