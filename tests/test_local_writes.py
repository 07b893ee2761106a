"""In-place writes into arrays a transformed function creates from constants.

NumPy-style code fills buffers: ``y = zeros(n); y[i] = f(x)``. Under grad/jvp/vjp/vmap
(which do not stage constants), ``y`` is an eager array; writing a traced value into it
rebinds it (and the arrays sharing its memory) to traced values of the transformation,
so the write is traced and the function runs once. Writing a constant into an eager
array is an ordinary NumPy side effect there.
Oracles: closed forms, central finite differences, Python loops over NumPy.
"""

import math

import numpy as np
import pytest

import xnp
from xnp import errors


def fill(x):
    y = xnp.zeros(3)
    y[0] = x
    y[1:] = x * 2.0
    return (y * y).sum()  # 9 x**2


def fill_vector(x, m=xnp):
    """The same code on xnp (``m=xnp``) and on NumPy (``m=np``, the oracle)."""
    y = m.zeros(x.shape[0] + 1)
    y[1:] = m.sin(x)
    y[0] = 1.0
    y += x.sum()
    return y


def fill_vector_np(x):
    return fill_vector(x, np)


def _fd_jacobian(f, x, eps=1e-6):
    x = np.asarray(x, dtype=float)
    cols = []
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        cols.append((f(x + d) - f(x - d)) / (2 * eps))
    return np.stack(cols, axis=-1)


X = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize("wrap", ["plain", "jit_outside"])
def test_grad_of_filled_buffer(wrap):
    g = xnp.grad(fill)
    if wrap == "jit_outside":
        g = xnp.jit(g)
    for x in (1.5, -0.25):
        np.testing.assert_allclose(float(g(x)), 18.0 * x, rtol=1e-14)


def test_value_and_grad_vjp_jvp_linearize():
    v, g = xnp.value_and_grad(fill)(2.0)
    assert float(v) == 36.0 and float(g) == 36.0
    out, pullback = xnp.vjp(fill, 2.0)
    assert float(out) == 36.0 and float(pullback(1.0)[0]) == 36.0
    p, t = xnp.jvp(fill, (2.0,), (0.5,))
    assert float(p) == 36.0 and float(t) == 18.0
    p, f_jvp = xnp.linearize(fill, 2.0)
    assert float(p) == 36.0 and float(f_jvp(1.0)) == 36.0


def test_jacobians_against_finite_differences():
    expected = _fd_jacobian(fill_vector_np, X)
    np.testing.assert_allclose(np.asarray(xnp.jacfwd(fill_vector)(xnp.asarray(X))), expected,
                               rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(np.asarray(xnp.jacrev(fill_vector)(xnp.asarray(X))), expected,
                               rtol=1e-7, atol=1e-8)
    h = xnp.hessian(lambda x: fill_vector(x).sum())(xnp.asarray(X))
    np.testing.assert_allclose(np.asarray(h), np.diag(-np.sin(X)), atol=1e-12)


def test_vmap_of_filled_buffer_matches_numpy_loop():
    xs = np.arange(12.0).reshape(4, 3) / 7.0
    out = xnp.vmap(fill_vector)(xnp.asarray(xs))
    np.testing.assert_allclose(np.asarray(out), np.stack([fill_vector_np(r) for r in xs]),
                               rtol=1e-15)
    np.testing.assert_allclose(np.asarray(xnp.vmap(fill)(xnp.asarray(X))), 9.0 * X ** 2)


def test_nested_transformations():
    np.testing.assert_allclose(np.asarray(xnp.vmap(xnp.grad(fill))(xnp.asarray(X))), 18.0 * X)
    g = xnp.grad(lambda x: xnp.vmap(fill)(x).sum())(xnp.asarray(X))
    np.testing.assert_allclose(np.asarray(g), 18.0 * X)
    np.testing.assert_allclose(float(xnp.grad(xnp.grad(fill))(0.7)), 18.0)
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.vmap(fill))(xnp.asarray(X))), 9.0 * X ** 2)


def test_out_argument_and_inplace_functions():
    def f(x):
        y = xnp.ones(3)
        xnp.multiply(y, x, out=y)  # out= an array made from constants
        z = xnp.zeros(3)
        xnp.copyto(z, y * x)
        xnp.put(z, [0], x)
        return z.sum()  # x + 2 x**2

    for x in (0.5, 3.0):
        assert float(f(x)) == pytest.approx(x + 2 * x * x)
        np.testing.assert_allclose(float(xnp.grad(f)(x)), 1 + 4 * x, rtol=1e-14)


def test_writes_through_views_of_a_local_buffer():
    def f(x):
        y = xnp.zeros((2, 3))
        row = y[1]
        row[:] = x  # through a view: lands in y
        y[0, ::2] = x * x
        return y

    def f_np(x):
        y = np.zeros((2, 3))
        y[1][:] = x
        y[0, ::2] = x * x
        return y

    np.testing.assert_array_equal(np.asarray(f(1.5)), f_np(1.5))
    np.testing.assert_allclose(np.asarray(xnp.jacfwd(f)(1.5)),
                               _fd_jacobian(lambda v: f_np(v[0]), np.array([1.5]))[..., 0],
                               rtol=1e-8)
    out = xnp.vmap(f)(xnp.asarray([1.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(out), np.stack([f_np(1.0), f_np(2.0)]))


def test_constant_write_under_grad_and_vmap_stays_eager():
    weights = xnp.asarray(np.zeros(3))

    def f(x):
        w = xnp.zeros(3)
        w[1] = 5.0  # a constant: an ordinary eager write, no jit involved
        weights[2] = 7.0  # even into a global, as NumPy would do on every call
        return (x * w).sum() + float(w[1])  # w stays concrete

    np.testing.assert_array_equal(np.asarray(xnp.grad(f)(xnp.asarray(X))), [0.0, 5.0, 0.0])
    np.testing.assert_array_equal(np.asarray(weights), [0.0, 0.0, 7.0])
    out = xnp.vmap(f)(xnp.asarray(np.ones((2, 3))))
    np.testing.assert_array_equal(np.asarray(out), [10.0, 10.0])


def test_write_into_global_under_grad_raises_naming_jit():
    g = xnp.asarray(np.zeros(3))

    def f(x):
        g[0] = x  # a traced value into a global: a side effect that cannot be traced
        return x * 2.0

    with pytest.raises(errors.ForeignWriteError, match="global or a closure"):
        xnp.grad(f)(1.0)
    np.testing.assert_array_equal(np.asarray(g), np.zeros(3))


def test_write_into_global_under_jit_still_raises():
    g = xnp.asarray(np.zeros(3))

    def f(x):
        g[0] = 1.0
        return x

    with pytest.raises(NotImplementedError, match="once, while tracing"):
        xnp.jit(f)(1.0)
    with pytest.raises(NotImplementedError, match="once, while tracing"):
        xnp.jit(xnp.grad(lambda x: f(x) * x))(1.0)


def test_python_branch_on_a_concrete_value_then_a_local_write():
    def f(x):
        y = xnp.zeros(2)
        if x > 0:  # concrete under grad: the function runs once, on concrete values
            y[0] = x
        return y.sum()

    assert float(xnp.grad(f)(1.0)) == 1.0
    assert float(xnp.grad(f)(-1.0)) == 0.0  # no write on this branch


def test_function_filling_a_buffer_runs_once_per_call():
    calls = []

    def f(x):
        calls.append(1)
        y = xnp.zeros(2)
        y[1] = x * x
        return y.sum()

    vf = xnp.vmap(f)
    for k in (1.0, 2.0, 3.0):
        np.testing.assert_array_equal(np.asarray(vf(xnp.asarray([k, -k]))), [k * k, k * k])
    assert len(calls) == 3
    g = xnp.grad(f)
    assert [float(g(v)) for v in (1.0, 2.0, 3.0)] == [2.0, 4.0, 6.0]
    assert len(calls) == 6


def _counted(calls):
    def f(x):
        calls.append(1)  # a Python side effect: must run once per trace
        y = xnp.zeros((2, 3))
        row = y[1]  # an eager view of y, taken before the traced writes
        y[0, ::2] = x * x
        row[1:] = x
        y[:, 0] += xnp.sin(x)
        return (y * xnp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum()
    return f


def _counted_np(x):
    y = np.zeros((2, 3))
    y[0, ::2] = x * x
    y[1][1:] = x
    y[:, 0] += np.sin(x)
    return float((y * np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum())


@pytest.mark.parametrize("how", ["grad", "jvp", "vjp", "vmap", "jit_grad", "grad_vmap"])
def test_python_side_effects_run_once_per_trace(how):
    calls = []
    f = _counted(calls)
    x = 0.8
    fd = (_counted_np(x + 1e-6) - _counted_np(x - 1e-6)) / 2e-6
    if how == "grad":
        np.testing.assert_allclose(float(xnp.grad(f)(x)), fd, rtol=1e-7)
    elif how == "jvp":
        p, t = xnp.jvp(f, (x,), (1.0,))
        assert float(p) == pytest.approx(_counted_np(x), rel=1e-14)
        np.testing.assert_allclose(float(t), fd, rtol=1e-7)
    elif how == "vjp":
        p, pull = xnp.vjp(f, x)
        assert float(p) == pytest.approx(_counted_np(x), rel=1e-14)
        np.testing.assert_allclose(float(pull(1.0)[0]), fd, rtol=1e-7)
    elif how == "vmap":
        xs = np.array([0.8, -0.3, 1.7])
        got = xnp.vmap(f)(xnp.asarray(xs))
        np.testing.assert_allclose(np.asarray(got), [_counted_np(v) for v in xs], rtol=1e-14)
    elif how == "jit_grad":
        np.testing.assert_allclose(float(xnp.jit(xnp.grad(f))(x)), fd, rtol=1e-7)
    else:
        xs = np.array([0.8, -0.3])
        g = xnp.grad(lambda v: xnp.vmap(f)(v).sum())(xnp.asarray(xs))
        want = [(_counted_np(v + 1e-6) - _counted_np(v - 1e-6)) / 2e-6 for v in xs]
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-7)
    assert len(calls) == 1


def test_rebound_buffer_used_by_a_nested_jit_and_a_loop():
    def f(x):
        y = xnp.zeros(3)
        y[1] = x
        z = xnp.jit(lambda a: a * 2.0)(y)  # the buffer's traced value goes in
        s = xnp.lax.fori_loop(0, 3, lambda i, c: c + y[i], 0.0)  # closed over by a body
        return z.sum() + s

    np.testing.assert_allclose(float(xnp.grad(f)(1.5)), 3.0)
    np.testing.assert_allclose(np.asarray(xnp.vmap(f)(xnp.asarray([1.0, 2.0]))), [3.0, 6.0])


@pytest.mark.parametrize("make", [np.zeros, xnp.zeros], ids=["ndarray", "xnp"])
def test_jit_write_back_is_all_or_nothing(make):
    # eager code raises at the write into the read-only b before it touches a; the jitted
    # call must leave a unchanged too (every destination checked before the first write)
    def f(a, b):
        b[0] += 1
        a[0] += 1
        return a.sum()

    read_only = np.zeros(3)
    read_only.flags.writeable = False
    for b in (read_only, xnp.broadcast_to(xnp.zeros(1), (3,))):
        a = make(3)
        with pytest.raises(ValueError, match="read-only"):
            f(a, b)
        np.testing.assert_array_equal(np.asarray(a), np.zeros(3))
        with pytest.raises(ValueError, match=r"argument 1 \(float64\[3\]\).*read-only"):
            xnp.jit(f)(a, b)
        np.testing.assert_array_equal(np.asarray(a), np.zeros(3))
    a, b = make(3), make(3)
    assert float(xnp.jit(f)(a, b)) == 1.0  # writable: both written
    np.testing.assert_array_equal(np.asarray(a), [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(np.asarray(b), [1.0, 0.0, 0.0])


@pytest.mark.parametrize("read", [float, int, bool, complex, lambda y: y.item(),
                                  lambda y: y.tolist(), np.asarray, math.floor, round],
                         ids=["float", "int", "bool", "complex", "item", "tolist", "asarray",
                              "floor", "round"])
def test_reading_a_filled_buffer_into_python_reads_the_traced_value(read):
    # a buffer that holds a traced value after the write is read by Python or NumPy as
    # that traced value is (its result or its conversion error), never as the value the
    # buffer had before the write
    def filled(x):
        y = xnp.zeros(())
        y[...] = x
        return _outcome(lambda: read(y))

    def direct(x):
        return _outcome(lambda: read(x))

    seen = {}
    for name, run in [("grad", lambda g: xnp.grad(lambda x: _keep(g(x), x))(2.0)),
                      ("jvp", lambda g: xnp.jvp(lambda x: _keep(g(x), x), (2.0,), (1.0,))),
                      ("vmap", lambda g: xnp.vmap(lambda x: _keep(g(x), x))(xnp.arange(3.0)))]:
        for fun in (filled, direct):
            _KEPT.clear()
            run(fun)
            seen[name, fun.__name__] = _KEPT[0]
        # (the value before the write is 0; the traced value is 2.0 or 0, 1, 2 under vmap)
        assert seen[name, "filled"] == seen[name, "direct"], name


_KEPT: list = []


def _outcome(thunk):
    try:
        r = thunk()
    except Exception as e:  # noqa: BLE001  (the outcome is compared, whatever it is)
        return (type(e).__name__,)
    if isinstance(r, xnp.tracing.core.Tracer):
        return ("ok", "tracer", str(r.aval))
    return ("ok", repr(r))


def _keep(outcome, x):
    _KEPT.append(outcome)
    return x * 1.0


# --------------------------------------------------------------------------- unmapped writes


def write_at(x, i, v):
    x[i] = v
    return x


UNMAPPED = [  # (in_axes, which parts are batched, args as NumPy values)
    ((None, 0, None), ["the index (int64[] per example)"],
     (np.zeros(5), np.array([0, 2, 4]), 1.5)),
    ((None, None, 0), ["the value (float64[] per example)"],
     (np.zeros(5), 1, np.array([1.0, 2.0, 3.0]))),
    ((None, 0, 0), ["the index (int64[] per example)", "the value (float64[2] per example)"],
     (np.zeros((4, 2)), np.array([3, 0]), np.array([[1.0, 2.0], [3.0, 4.0]]))),
]


@pytest.mark.parametrize("in_axes,parts,args", UNMAPPED)
def test_write_into_unmapped_array_with_batched_index_or_value_says_what_to_use(
        in_axes, parts, args):
    # each example would write into the same array: an error naming the function, the
    # batched parts and x, eagerly inside vmap and under jit(vmap); the caller's x unchanged
    x0 = args[0].copy()
    for f in (xnp.vmap(write_at, in_axes=in_axes),
              xnp.jit(xnp.vmap(write_at, in_axes=in_axes))):
        xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        with pytest.raises(errors.ForeignWriteError) as info:
            f(*xargs)
        msg = str(info.value)
        assert msg.startswith("xnp.vmap(write_at): an in-place write "), msg
        assert f"float64[{','.join(map(str, x0.shape))}], " in msg, msg
        assert " that is not mapped (an argument with in_axes=None" in msg, msg
        assert " and ".join(parts) + " batched" in msg, msg
        assert "x.at[idx].set(value)" in msg and "x = x.copy()" in msg, msg
        np.testing.assert_array_equal(np.asarray(xargs[0]), x0)


@pytest.mark.parametrize("in_axes,parts,args", UNMAPPED)
def test_the_suggested_writes_match_a_python_loop(in_axes, parts, args):
    # the oracle: a Python loop over the examples, each writing into its own copy of x
    n = next(np.shape(a)[0] for a, ax in zip(args, in_axes) if ax == 0)
    want = []
    for k in range(n):
        ex = [a[k] if ax == 0 else a for a, ax in zip(args, in_axes)]
        y = ex[0].copy()
        y[ex[1]] = ex[2]
        want.append(y)
    want = np.stack(want)

    def at_set(x, i, v):
        return x.at[i].set(v)

    def copy_first(x, i, v):
        x = x.copy()
        x[i] = v
        return x

    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    for fun in (at_set, copy_first):
        for f in (xnp.vmap(fun, in_axes=in_axes), xnp.jit(xnp.vmap(fun, in_axes=in_axes))):
            np.testing.assert_array_equal(np.asarray(f(*xargs)), want)
    # mapping x too: one copy per example
    mapped = xnp.vmap(write_at, in_axes=(0,) + in_axes[1:])
    xs = xnp.asarray(np.stack([args[0]] * n))
    np.testing.assert_array_equal(np.asarray(mapped(xs, *xargs[1:])), want)


@pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])
@pytest.mark.parametrize("op", ["add", "multiply"])
def test_augmented_write_into_unmapped_eager_array_under_vmap_says_what_to_use(wrap, op):
    # outer[...] += v is a read, an in-place op on the eager view and a write: the in-place
    # op meets vmap's batched value first and gives the same error as outer[...] = v
    outer = xnp.zeros(5)

    def f(v):
        view = outer[...]
        if op == "add":
            view += v
        else:
            view *= v
        return v

    with pytest.raises(errors.ForeignWriteError, match=r"xnp\.vmap\(f\).*x\.at\[idx\]\.set"):
        wrap(xnp.vmap(f))(xnp.ones((3, 5)))
    np.testing.assert_array_equal(np.asarray(outer), np.zeros(5))
