"""Eager arrays a jitted function closes over are read at each call (NumPy's arrays are
mutable): writes by setitem, in-place operators, ``out=``, views and NumPy views of their
memory are seen by the next call of the compiled function, with no retrace, eagerly
computed oracles (NumPy on the current values) giving the expected values."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import xnp
from xnp.backends.numpy import allocator
from xnp.backends.xla.device_value import NO_ALIAS


def _check(got, want):
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def _mutations():
    def setitem(w):
        w[...] = 5.0

    def setitem_part(w):
        w[1] = -2.5

    def iadd(w):
        w += 1.0

    def imul(w):
        w *= 3.0

    def out_kw(w):
        xnp.multiply(w, 2.0, out=w)

    def view(w):
        v = w[1:]
        v[...] = 7.0

    def reshape_view(w):
        v = w.reshape(-1)
        v[0] = 11.0

    def numpy_view(w):
        np.asarray(w).flat[0] = 42.0  # np.asarray shares an eager array's memory

    def fill(w):
        w.fill(0.25)

    return [setitem, setitem_part, iadd, imul, out_kw, view, reshape_view, numpy_view, fill]


@pytest.mark.parametrize("mutate", _mutations(), ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (300, 100)])  # 240 KB: beyond embedding
def test_closed_over_array_is_read_at_each_call(mutate, shape):
    if shape == () and mutate.__name__ in ("view", "setitem_part"):
        pytest.skip("a 0-d array has no second element or sub-view")
    w = xnp.asarray(np.arange(1.0, 1.0 + np.prod(shape, dtype=int)).reshape(shape))
    f = xnp.jit(lambda x: x * w + 1.0)
    x = xnp.asarray(np.full(shape, 2.0))
    _check(f(x), np.full(shape, 2.0) * np.asarray(w) + 1.0)
    for _ in range(2):  # twice: the second call takes the cached last-hit path
        mutate(w)
        want = np.full(shape, 2.0) * np.asarray(w).copy() + 1.0
        _check(f(x), want)
        _check(f(x), want)
        _check(f(xnp.asarray(np.full(shape, 2.0))), want)  # a new argument: the keyed path
    assert f.trace_count == 1


def test_closed_over_array_through_pytree_and_keyword_paths():
    w = xnp.asarray([1.0, 2.0])
    f = xnp.jit(lambda d, *, s: d["a"] * w + s)
    d = {"a": xnp.ones(2)}
    _check(f(d, s=1.0), np.array([2.0, 3.0]))
    w[0] = 10.0
    _check(f(d, s=1.0), np.array([11.0, 3.0]))
    g = xnp.jit(lambda x, n: x * w * n, static_argnums=1)
    _check(g(xnp.ones(2), 2), np.array([20.0, 4.0]))
    w[1] = -1.0
    _check(g(xnp.ones(2), 2), np.array([20.0, -2.0]))


def test_closed_over_jit_output_written_later():
    w = xnp.jit(lambda: xnp.arange(4.0))()  # device-resident
    f = xnp.jit(lambda x: x + w)
    _check(f(xnp.zeros(4)), np.arange(4.0))
    w[2] = 100.0  # the first write copies the value to the host and drops the buffer
    _check(f(xnp.zeros(4)), np.array([0.0, 1.0, 100.0, 3.0]))


def test_python_constants_made_inside_stay_embedded():
    # arrays the function makes from host data are constants, not closed-over arrays
    f = xnp.jit(lambda x: x * xnp.asarray([1.0, 2.0]) + xnp.asarray(3.0))
    closed = xnp.make_jaxpr(lambda x: x * 2 + 1)(xnp.ones(2))
    assert not closed.consts  # Python scalars stay literals
    _check(f(xnp.ones(2)), np.array([4.0, 5.0]))
    assert "stablehlo.constant" in f.lower(xnp.ones(2)).as_text()


def test_closed_over_arrays_are_parameters_not_constants():
    w = xnp.asarray([1.0, 2.0, 3.0])
    text = xnp.jit(lambda x: x + w).lower(xnp.ones(3)).as_text()
    assert "%arg1: tensor<3xf64>" in text and "dense<[1.0" not in text


def test_nested_jit_closure():
    w = xnp.asarray([1.0, 2.0])
    inner = xnp.jit(lambda x: x * w)
    outer = xnp.jit(lambda x: inner(x) + 1.0)
    _check(outer(xnp.ones(2)), np.array([2.0, 3.0]))
    _check(inner(xnp.ones(2)), np.array([1.0, 2.0]))
    w += 1.0
    _check(outer(xnp.ones(2)), np.array([3.0, 4.0]))
    _check(inner(xnp.ones(2)), np.array([2.0, 3.0]))


def test_jit_of_grad_and_grad_of_jit_with_closure():
    w = xnp.asarray([1.0, -2.0, 3.0])

    def loss(x):
        return xnp.sum(xnp.sin(x) * w)

    g = xnp.jit(xnp.grad(loss))
    gj = xnp.grad(xnp.jit(loss))
    x = xnp.asarray([0.1, 0.2, 0.3])
    for _ in range(3):
        want = np.cos(np.array([0.1, 0.2, 0.3])) * np.asarray(w)
        np.testing.assert_allclose(np.asarray(g(x)), want, rtol=1e-15)
        np.testing.assert_allclose(np.asarray(gj(x)), want, rtol=1e-15)
        w *= -2.0
    vg = xnp.jit(xnp.vmap(lambda r: xnp.sum(r * w)))
    rows = xnp.asarray(np.arange(6.0).reshape(2, 3))
    _check(vg(rows), np.arange(6.0).reshape(2, 3) @ np.asarray(w))
    w[0] = 0.0
    _check(vg(rows), np.arange(6.0).reshape(2, 3) @ np.asarray(w))


def test_closed_over_array_inside_control_flow():
    w = xnp.asarray([1.0, 2.0])
    f = xnp.jit(lambda x: xnp.lax.fori_loop(0, 3, lambda i, c: c + w, x))
    _check(f(xnp.zeros(2)), np.array([3.0, 6.0]))
    w[...] = 1.0
    _check(f(xnp.zeros(2)), np.array([3.0, 3.0]))
    c = xnp.jit(lambda p, x: xnp.lax.cond(p, lambda v: v * w, lambda v: v - w, x))
    _check(c(True, xnp.ones(2)), np.array([1.0, 1.0]))
    w[1] = 4.0
    _check(c(True, xnp.ones(2)), np.array([1.0, 4.0]))
    _check(c(False, xnp.ones(2)), np.array([0.0, -3.0]))


def test_closed_over_array_whose_shape_changed_in_place():
    w = xnp.asarray(np.arange(6.0))
    f = xnp.jit(lambda: w * 2)
    _check(f(), np.arange(6.0) * 2)
    w.shape = (2, 3)
    with pytest.raises(ValueError, match=r"closes over was traced as float64\[6\] and is now "
                                         r"float64\[2, 3\]"):
        f()
    f.clear_cache()
    _check(f(), np.arange(6.0).reshape(2, 3) * 2)


@pytest.mark.skipif(not allocator.available(),
                    reason=f"aligned allocator not built: {allocator.unavailable_reason()}")
def test_big_closed_over_array_is_not_copied_per_call(capfd):
    w = xnp.ones(10**6)
    f = xnp.jit(lambda x: xnp.sum(x * w))
    with xnp.config.override(log_transfers=True):
        assert float(f(2.0)) == 2.0 * 10**6
        buf = w._host_memo
        assert buf is not None and buf is not NO_ALIAS
        assert buf.unsafe_buffer_pointer() == np.asarray(w).__array_interface__["data"][0]
        w[:10] = 3.0
        assert float(f(2.0)) == 2.0 * (10**6 + 20)
        assert w._host_memo is buf  # the same aliasing buffer: no transfer per call
    assert "copied" not in capfd.readouterr().err


def test_threads_calling_while_one_mutates():
    w = xnp.zeros(1000)
    f = xnp.jit(lambda x: x + w)
    x = xnp.ones(1000)
    f(x)
    errors: list = []
    stop = threading.Event()

    def call():
        try:
            while not stop.is_set():
                out = np.asarray(f(x))
                assert out.shape == (1000,) and np.all(out >= 1.0)
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append(e)

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for k in range(200):
        w[k % 1000] = float(k)
        w += 0.0
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors
    _check(f(x), np.asarray(w) + 1.0)  # after the writers: exactly the current value


def test_closed_over_array_inside_custom_derivatives():
    w = xnp.asarray([1.0, 2.0])

    @xnp.custom_jvp
    def f(x):
        return x * w

    @f.defjvp
    def f_jvp(p, t):
        return f(p[0]), t[0] * w

    @xnp.custom_vjp
    def h(x):
        return x * w

    h.defvjp(lambda x: (x * w, None), lambda r, g: (g * w,))
    j = xnp.jit(lambda x: f(x) + h(x))
    gj = xnp.jit(xnp.grad(lambda x: xnp.sum(f(x) + h(x))))
    loop = xnp.jit(lambda xs: xnp.lax.scan(lambda c, xi: (c + f(xi), c), xnp.zeros(2), xs)[0])
    for value in (3.0, -0.5):
        _check(j(xnp.ones(2)), 2 * np.asarray(w))
        _check(gj(xnp.ones(2)), 2 * np.asarray(w))
        _check(loop(xnp.ones((3, 2))), 3 * np.asarray(w))
        w[...] = value
