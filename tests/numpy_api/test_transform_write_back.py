"""A function that updates an argument in place has that effect under every transformation.

Calling ``f(x)`` eagerly leaves ``x`` updated (NumPy semantics); ``jit(f)(x)`` writes the
update back, and so do ``grad``, ``value_and_grad``, ``vjp``, ``jvp``, ``linearize``,
``jacfwd``, ``jacrev``, ``hessian`` and ``vmap`` (``xnp/tracing/transformations.py``:
``_write_back``): the function runs once, and the caller's array holds what the eager run
leaves in it (the primal of the final value, and under ``vmap`` every example's). Checked
against NumPy running the same function, derivatives against finite differences.

Also here: an array that shares the memory of a NumPy array (``xnp.asarray(g)`` of a
NumPy global) cannot be written with a traced value; the write would not reach ``g``, so
it raises ``ForeignWriteError`` instead of silently leaving ``g`` unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from xnp import errors

from tests.helpers import central_difference


def overwrite(x):
    """Writes x[0] from x[1], scales x in place; returns a scalar of the updated x."""
    x[0] = x[1] * 3.0
    x *= 2.0
    return (x * x).sum()


def scale_rest(x):
    """Reads x before writing it: the derivative's residuals hold the old values, which
    the write-back into the caller's array must not change."""
    y = x * x[0]
    x[1:] *= x[0]
    return (y * x).sum() + x[1] ** 3


X0 = np.array([1.5, 2.0, 3.0])


def _numpy_after(fun, x):
    x = np.array(x)
    out = fun(x)
    return out, x


TRANSFORMS = {
    "grad": lambda f, x: xnp.grad(f)(x),
    "value_and_grad": lambda f, x: xnp.value_and_grad(f)(x)[1],
    "vjp": lambda f, x: xnp.vjp(f, x)[1](xnp.asarray(1.0))[0],
    "jvp": lambda f, x: xnp.jvp(f, (x,), (xnp.asarray(np.eye(3)[1]),))[1],
    "linearize": lambda f, x: xnp.linearize(f, x)[1](xnp.asarray(np.eye(3)[1])),
    "jacfwd": lambda f, x: xnp.jacfwd(f)(x),
    "jacrev": lambda f, x: xnp.jacrev(f)(x),
    "jit(grad)": lambda f, x: xnp.jit(xnp.grad(f))(x),
    "grad(jit)": lambda f, x: xnp.grad(xnp.jit(f))(x),
}


def _fd_grad(f, x):
    return np.array([central_difference(lambda a: f(a.copy()), x, e) for e in np.eye(x.size)])


@pytest.mark.parametrize("fun", [overwrite, scale_rest], ids=["overwrite", "scale_rest"])
@pytest.mark.parametrize("kind", ["xnp", "numpy"])
@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_updated_argument_is_written_back(name, kind, fun):
    _, want_state = _numpy_after(fun, X0)
    x = xnp.asarray(X0.copy()) if kind == "xnp" else X0.copy()
    got = np.asarray(TRANSFORMS[name](fun, x))
    np.testing.assert_array_equal(np.asarray(x), want_state)
    fd = _fd_grad(fun, X0)
    if name in ("jvp", "linearize"):  # the derivative along x[1]
        np.testing.assert_allclose(got, fd[1], rtol=1e-6)
    else:
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-6)
        if fun is overwrite:
            assert got[0] == 0.0  # x[0] is overwritten: the value does not depend on it


def test_hessian_writes_back_once():
    calls = []

    def f(x):
        calls.append(1)
        return overwrite(x)

    x = xnp.asarray(X0.copy())
    h = np.asarray(xnp.hessian(f)(x))
    np.testing.assert_allclose(h, np.diag([0.0, 80.0, 8.0]))  # 40 x1^2 + 4 x2^2
    np.testing.assert_array_equal(np.asarray(x), _numpy_after(overwrite, X0)[1])
    assert len(calls) == 1  # the function runs once: its side effects too


def test_grad_side_effect_runs_once_and_cached_jit_writes_each_call():
    calls = []

    def f(x):
        calls.append(1)
        x += 1.0
        return (x ** 2).sum()

    g = xnp.jit(xnp.grad(f))
    x = xnp.asarray(X0.copy())
    for k in range(1, 4):
        np.testing.assert_allclose(np.asarray(g(x)), 2 * (X0 + k))
        np.testing.assert_array_equal(np.asarray(x), X0 + k)
    assert len(calls) == 1  # traced once, the cached executable writes back every call


@pytest.mark.parametrize("in_axes", [0, 1])
def test_vmap_writes_every_example_back(in_axes):
    base = np.arange(6.0).reshape(2, 3)
    want_out = []
    want = base.copy()
    for row in want:
        want_out.append(overwrite(row))
    arg = base if in_axes == 0 else base.T
    x = xnp.asarray(arg.copy())
    out = xnp.vmap(overwrite, in_axes=in_axes)(x)
    np.testing.assert_array_equal(np.asarray(out), want_out)
    got = np.asarray(x) if in_axes == 0 else np.asarray(x).T
    np.testing.assert_array_equal(got, want)
    y = xnp.asarray(arg.copy())
    out = xnp.jit(xnp.vmap(overwrite, in_axes=in_axes))(y)
    np.testing.assert_array_equal(np.asarray(out), want_out)
    got = np.asarray(y) if in_axes == 0 else np.asarray(y).T
    np.testing.assert_array_equal(got, want)


def test_vmap_constant_write_reaches_every_example():
    def fill(x):
        x[1:] = 7.0
        return x.sum()

    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(np.asarray(xnp.vmap(fill)(x)), [14.0, 17.0])
    np.testing.assert_array_equal(np.asarray(x), [[0.0, 7.0, 7.0], [3.0, 7.0, 7.0]])


def test_vmap_of_grad_writes_back():
    base = np.arange(6.0).reshape(2, 3) + 1.0
    x = xnp.asarray(base.copy())
    g = np.asarray(xnp.vmap(xnp.grad(overwrite))(x))
    want = base.copy()
    for row in want:
        overwrite(row)
    np.testing.assert_array_equal(np.asarray(x), want)
    np.testing.assert_allclose(g[:, 1], 80.0 * base[:, 1])
    np.testing.assert_allclose(g[:, 2], 8.0 * base[:, 2])
    np.testing.assert_array_equal(g[:, 0], [0.0, 0.0])


@pytest.mark.parametrize("value", [-0.0, np.inf, -np.inf, np.nan, 5e-324])
@pytest.mark.parametrize("name", ["grad", "jit(grad)", "vmap"])
def test_special_values_written_back(name, value):
    def put(x):
        x[1] = value
        return (x * 2.0).sum()

    base = np.arange(6.0).reshape(2, 3) + 1.0 if name == "vmap" else X0.copy()
    want = base.copy()
    for row in want.reshape(-1, 3):
        put(row)
    x = xnp.asarray(base)
    {"grad": xnp.grad(put), "jit(grad)": xnp.jit(xnp.grad(put)), "vmap": xnp.vmap(put)}[name](x)
    got = np.asarray(x)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_grad_of_function_writing_special_value_has_zero_derivative_there():
    def f(x):
        x[0] = -0.0
        return (x * x).sum() + x[0]

    g = np.asarray(xnp.grad(f)(xnp.asarray(X0.copy())))
    np.testing.assert_array_equal(g, [0.0, 4.0, 6.0])


def test_read_only_argument_refused_and_nothing_written():
    ro = X0.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"xnp\.grad: argument 0 \(float64\[3\]\) is updated "
                                         r"in place but is read-only"):
        xnp.grad(overwrite)(ro)
    np.testing.assert_array_equal(ro, X0)
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        overwrite(ro)  # eagerly NumPy's error


def test_unwritten_arguments_untouched():
    def f(x, y):
        y = y * 2.0  # a new array, not a write
        return (x * y).sum()

    x, y = xnp.asarray(X0.copy()), xnp.asarray(X0.copy())
    xnp.grad(f, argnums=(0, 1))(x, y)
    xnp.vmap(f)(xnp.asarray(np.ones((2, 3))), xnp.asarray(np.ones((2, 3))))
    np.testing.assert_array_equal(np.asarray(x), X0)
    np.testing.assert_array_equal(np.asarray(y), X0)


# --------------------------------------------------------------------------- borrowed memory


def test_asarray_of_numpy_array_written_with_traced_value_is_refused():
    g = np.zeros(3)

    def f(x):
        v = xnp.asarray(g)
        v[0] = x * 2.0
        return (v * x).sum()

    assert f(1.5) == 4.5 and g[0] == 3.0  # eagerly the write reaches g, as NumPy's
    g[:] = 0.0
    for transform in (xnp.jit, xnp.grad):
        with pytest.raises(errors.ForeignWriteError, match="NumPy array"):
            transform(f)(1.5)
        np.testing.assert_array_equal(g, 0.0)


def test_view_of_borrowed_array_refused_under_jit():
    g = np.zeros(4)

    def f(x):
        v = xnp.asarray(g)[1:]
        v[0] = x
        return v.sum()

    with pytest.raises(errors.ForeignWriteError, match=r"float64\[3\].*shares the memory of a NumPy "
                                                r"array"):
        xnp.jit(f)(1.0)
    np.testing.assert_array_equal(g, 0.0)


def test_copy_of_numpy_array_can_be_written():
    g = np.arange(3.0)

    def f(x):
        v = xnp.array(g)  # a copy: the function's own memory
        v[0] = x * 2.0
        return (v * x).sum()

    want = 1.5 * 3.0 + 1.5 * 1.0 + 1.5 * 2.0
    assert float(xnp.jit(f)(1.5)) == want
    assert float(f(1.5)) == want
    np.testing.assert_allclose(float(xnp.grad(f)(1.5)), 4 * 1.5 + 3.0)
    np.testing.assert_array_equal(g, np.arange(3.0))


def test_constant_write_into_borrowed_array_under_grad_reaches_it():
    g = np.zeros(2)

    def f(x):
        v = xnp.asarray(g)
        v[1] = 4.0  # a constant: written eagerly, as NumPy writes it
        return x * v.sum()

    np.testing.assert_allclose(float(xnp.grad(f)(2.0)), 4.0)
    np.testing.assert_array_equal(g, [0.0, 4.0])


def cube_doubled(x):
    x *= 2.0
    return (x ** 3).sum()  # 8 sum(x^3): jacobian 24 x^2, hessian 48 diag(x)


@pytest.mark.parametrize("name", ["jit(hessian)", "jit(jacfwd)", "vmap(hessian)",
                                  "grad(sum of jacfwd)", "jacfwd(jit)"])
def test_forward_jacobians_nested_write_back(name):
    base = np.array([[1.5, 2.0, 3.0], [1.0, -0.5, 0.0]]) if name.startswith("vmap") else X0
    x = xnp.asarray(base.copy())
    fun = {"jit(hessian)": xnp.jit(xnp.hessian(cube_doubled)),
           "jit(jacfwd)": xnp.jit(xnp.jacfwd(cube_doubled)),
           "vmap(hessian)": xnp.vmap(xnp.hessian(cube_doubled)),
           "grad(sum of jacfwd)": xnp.grad(lambda a: xnp.jacfwd(cube_doubled)(a).sum()),
           "jacfwd(jit)": xnp.jacfwd(xnp.jit(cube_doubled))}[name]
    got = np.asarray(fun(x))
    want = {"jit(hessian)": lambda: np.diag(48 * X0), "jit(jacfwd)": lambda: 24 * X0 ** 2,
            "vmap(hessian)": lambda: np.stack([np.diag(48 * r) for r in base]),
            "grad(sum of jacfwd)": lambda: 48 * X0, "jacfwd(jit)": lambda: 24 * X0 ** 2}[name]()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(x), 2.0 * base)


@pytest.mark.parametrize("kind", ["xnp", "numpy"])
def test_vjp_and_linearize_evaluate_at_the_call_point(kind):
    """The derivative functions returned by vjp and linearize use the arguments' values
    at the call, also after the caller writes into the arguments (``x*x*x`` keeps ``x``
    itself as a residual)."""
    def cube(x):
        return (x * x * x).sum()

    want = 3 * X0 ** 2
    x = xnp.asarray(X0.copy()) if kind == "xnp" else X0.copy()
    _, vjp_fn = xnp.vjp(cube, x)
    _, f_jvp = xnp.linearize(cube, x)
    x[0] = 100.0
    np.testing.assert_allclose(np.asarray(vjp_fn(xnp.asarray(1.0))[0]), want, rtol=1e-12)
    np.testing.assert_allclose(float(f_jvp(xnp.asarray(np.eye(3)[0]))), want[0], rtol=1e-12)

    def inside(x):  # the same under jit: a traced argument written after vjp
        _, vjp_fn = xnp.vjp(cube, x)
        x[0] = 100.0
        return vjp_fn(xnp.asarray(1.0))[0]

    y = xnp.asarray(X0.copy())
    np.testing.assert_allclose(np.asarray(xnp.jit(inside)(y)), want, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(y), [100.0, *X0[1:]])


def test_augmented_assignment_into_borrowed_array_is_a_foreign_write():
    g = np.zeros(3)

    def f(x):
        v = xnp.asarray(g)
        v += x
        return v.sum()

    for transform in (xnp.jit, xnp.grad):
        with pytest.raises(errors.ForeignWriteError, match="NumPy array"):
            transform(f)(1.5)
    np.testing.assert_array_equal(g, 0.0)


def test_jit_refuses_argument_update_seen_through_a_closure():
    """Eagerly a view the function closes over sees the write into the argument (NumPy);
    a jitted call would read the value from before the write, so it refuses, and writes
    nothing back."""
    base = xnp.asarray(np.arange(4.0))
    view = base[1:]

    def f(x):
        x[1] = 5.0
        return (view * x[1:]).sum()

    want = f(xnp.asarray(np.arange(4.0)))  # a private argument: the view is not touched
    assert float(want) == 1 * 5 + 2 * 2 + 3 * 3
    with pytest.raises(NotImplementedError, match=r"xnp\.jit: argument 0 \(float64\[4\]\) is "
                                                  r"updated in place and shares memory with "
                                                  r"an array the function closes over"):
        xnp.jit(f)(base)
    np.testing.assert_array_equal(np.asarray(base), np.arange(4.0))
    other = xnp.asarray(np.arange(4.0))  # no sharing: runs, as eagerly
    assert float(xnp.jit(f)(other)) == float(want)
    np.testing.assert_array_equal(np.asarray(other), [0.0, 5.0, 2.0, 3.0])


def test_jit_allows_closure_overlapping_argument_read_before_the_write():
    base = xnp.asarray(np.arange(4.0))
    view = base[1:]

    def f(x):
        s = xnp.sum(view * 2.0)  # read before the write: NumPy sees the old values too
        x[1] = 5.0
        return s + x.sum()

    assert float(xnp.jit(f)(base)) == 2.0 * (1 + 2 + 3) + (0 + 5 + 2 + 3)
    np.testing.assert_array_equal(np.asarray(base), [0.0, 5.0, 2.0, 3.0])


def test_jit_aliasing_messages_name_arguments_by_parameter_and_path():
    base = xnp.asarray(np.arange(4.0))

    def f(pair, d):
        d["x"][0] = 5.0
        return pair[1].sum()

    with pytest.raises(NotImplementedError, match=r"xnp\.jit: argument 2 is updated in place "
                                                  r"and shares memory with argument 1 .*"
                                                  r"Argument 2 is d\['x'\], argument 1 is "
                                                  r"pair\[1\]\.$"):
        xnp.jit(f)([xnp.ones(2), base[1:]], {"x": base})
    np.testing.assert_array_equal(np.asarray(base), np.arange(4.0))
    ro = np.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"xnp\.jit: argument 2 \(float64\[3\]\) is updated "
                                         r"in place but is read-only.*Argument 2 is d\['x'\]\."):
        xnp.jit(f)([xnp.ones(2), xnp.ones(2)], {"x": ro})


def test_write_back_messages_name_arguments_by_parameter_and_path():
    """vmap, jvp, vjp and linearize name an argument they cannot write back by its
    parameter and pytree path too, as jit does (grad's function sees only the
    differentiated arguments, so it keeps the position)."""
    def f(x, d):
        d["w"][0] = x[0] * 2.0
        return (x * d["w"]).sum()

    ro, ro2 = np.ones(3), np.ones((2, 3))
    ro.flags.writeable = ro2.flags.writeable = False
    x = xnp.asarray(np.arange(3.0))
    calls = {"vmap": lambda: xnp.vmap(f)(xnp.ones((2, 3)), {"w": ro2}),
             "jvp": lambda: xnp.jvp(f, (x, {"w": ro}), (x, {"w": np.zeros(3)})),
             "vjp": lambda: xnp.vjp(f, x, {"w": ro}),
             "linearize": lambda: xnp.linearize(f, x, {"w": ro})}
    for name, call in calls.items():
        with pytest.raises(ValueError, match=rf"xnp\.{name}: argument 1 \(float64\[.*\]\) is "
                                             r"updated in place but is read-only.*no argument "
                                             r"was written\. Argument 1 is d\['w'\]\.$"):
            call()
    np.testing.assert_array_equal(ro, np.ones(3))
    with pytest.raises(ValueError, match=r"xnp\.grad: argument 0 \(float64\[3\]\) .*"
                                         r"no argument was written\.$"):
        xnp.grad(lambda d: f(x, d))({"w": ro})
    with pytest.raises(ValueError, match=r"^xnp\.hessian: argument 0 \(float64\[3\]\) is "
                                         r"updated in place but is read-only"):
        xnp.hessian(_write_then_cube)(ro)


def _write_then_cube(v):
    v[0] = v[1] * 2.0
    return (v ** 3).sum()
