"""NumPy in-place updates (``x[idx] = v``, ``x op= y``, ``out=``, writes through views)
under every transformation: the primal against NumPy, gradients and jvps against
central finite differences (float64), vmap against a loop over NumPy, each also with
an outer ``jit``; nested transformations; the errors that name unsupported cases
(xnp/numpy_api/_views.py)."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose

TOL = dict(rtol=1e-6, atol=1e-6)

# --------------------------------------------------------------------------- programs
# Each runs with xp = numpy (the oracle) and xp = xnp; `x` may be modified (callers copy).


def p_example(xp, x):  # the motivating example: rebinding, +=, a view written through
    y = x * 2.0
    y[0] = 5.0
    y += x
    v = y[1:]
    v *= 3.0
    return y


def p_views(xp, x):  # views of views, replay of live views after their base is written
    y = x.copy()
    row, col = y[0], y[:, 1]
    row[1] = x[2, 3]  # through `row` into y; `col` is re-read
    y[0, 1] += y[1, 0]
    flipped = y[::-1]
    flipped[0] *= col[2]
    every_other = flipped[:, ::2]  # a view of a view
    every_other += col[0]
    y[1:3] += y[0]
    col *= y[2, 0]
    return xp.concatenate([y.ravel(), row, col, every_other.ravel()])


def p_advanced(xp, x):  # index arrays, repeated indices, masks, an advanced write into a view
    y = x ** 2
    y[[0, 2]] += x[1:3]
    y[[4, 4]] = x[0]
    y[np.array([True, False, True, False, False])] *= 3.0
    y[1:4][[0, 2]] = x[3] * x[4]
    return y


def p_dynamic(xp, x):  # traced integer indices (batched under vmap)
    y = x * 1.5
    k = xp.argmax(x)
    y[k] = 0.0
    y[k - 1] += x[k]
    s = y[1:]
    s[k - 1] *= 2.0
    return y


def p_out(xp, x):  # out= on a traced array and on a traced view
    y = x + 1.0
    xp.multiply(y, x, out=y)
    v = y[::2]
    xp.add(v, x[:2], out=v)
    xp.sin(y, out=y)
    return y


def p_int(xp, x):  # integer and bool arrays (zero tangents under grad), their views
    m = (x * 10.0).astype(np.int64)
    m[0] = 7
    m += 1
    w = m[1:]
    w *= 2
    b = x > 0.5
    b[0] = True
    c = b[1:]
    c[0] = False
    return xp.where(b, x * m, -x)


def p_mutate_arg(xp, x):  # writes into the argument, through a view of it
    v = x[1:]
    v *= x[0]
    x[0] = 2.0 * x[-1]
    return x * 1.0


PROGRAMS = [(p_example, (4,)), (p_views, (3, 4)), (p_advanced, (5,)), (p_dynamic, (5,)),
            (p_out, (4,)), (p_int, (4,)), (p_mutate_arg, (4,))]
IDS = [p.__name__[2:] for p, _ in PROGRAMS]


def _input(shape, seed=0):
    return np.random.default_rng(seed).uniform(0.1, 1.0, shape)


def _ref(prog, x):
    return np.asarray(prog(np, np.array(x, copy=True)), np.float64)


def _fresh(x):
    """A private xnp copy of ``x`` (p_mutate_arg writes into its argument; eagerly and
    under jit that write reaches the caller's array, as in NumPy)."""
    return xnp.asarray(np.array(x, copy=True))


def _fd_jvp(f, x, t, h=1e-6):
    return (f(x + h * t) - f(x - h * t)) / (2 * h)


def _fd_grad(f, x):
    """Gradient of the scalar NumPy function ``f`` at ``x`` by central differences."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = 1.0
        g[i] = _fd_jvp(f, x, e)
    return g


def _weights(prog, x):
    return np.random.default_rng(1).normal(size=_ref(prog, x).shape)


# --------------------------------------------------------------------------- primal, jit


@pytest.mark.parametrize("prog,shape", PROGRAMS, ids=IDS)
def test_primal_eager_and_jit_vs_numpy(prog, shape):
    x = _input(shape)
    ref = _ref(prog, x)
    assert_allclose(prog(xnp, _fresh(x)), ref)
    arg = x.copy()
    assert_allclose(xnp.jit(lambda a: prog(xnp, a))(arg), ref)
    np.testing.assert_array_equal(arg, np.asarray(prog(np, x.copy())) if prog is p_mutate_arg
                                  else x)  # jit writes a mutated argument back


# --------------------------------------------------------------------------- AD


@pytest.mark.parametrize("prog,shape", PROGRAMS, ids=IDS)
def test_grad_vs_finite_differences(prog, shape):
    x = _input(shape)
    w = _weights(prog, x)

    def s(a):
        return xnp.sum(prog(xnp, a) * w)

    expected = _fd_grad(lambda a: np.sum(_ref(prog, a) * w), x)
    # grad(jit) of p_mutate_arg: a jitted function that writes into its (traced) argument
    for name, g in [("grad", xnp.grad(s)), ("jit(grad)", xnp.jit(xnp.grad(s))),
                    ("grad(jit)", xnp.grad(xnp.jit(s)))]:
        assert_allclose(g(_fresh(x)), expected, err_msg=name, **TOL)
    value, g = xnp.value_and_grad(s)(_fresh(x))
    assert_allclose(value, np.sum(_ref(prog, x) * w), **TOL)
    assert_allclose(g, expected, **TOL)


@pytest.mark.parametrize("prog,shape", PROGRAMS, ids=IDS)
def test_jvp_and_vjp_vs_finite_differences(prog, shape):
    x = _input(shape)
    t = _input(shape, seed=2) - 0.5
    ref = _ref(prog, x)
    expected = _fd_jvp(lambda a: _ref(prog, a), x, t)
    f = lambda a: prog(xnp, a)  # noqa: E731
    for name, run in [("jvp", lambda: xnp.jvp(f, (_fresh(x),), (_fresh(t),))),
                      ("jit(jvp)", lambda: xnp.jit(lambda a, b: xnp.jvp(f, (a,), (b,)))(
                          x.copy(), t.copy()))]:
        p, tan = run()
        assert_allclose(p, ref, err_msg=name, **TOL)
        assert_allclose(tan, expected, err_msg=name, **TOL)
    # <u, J t> == <J^T u, t>
    u = _weights(prog, x)
    out, pullback = xnp.vjp(f, _fresh(x))
    assert_allclose(out, ref, **TOL)
    (ct,) = pullback(xnp.asarray(u))
    np.testing.assert_allclose(np.sum(np.asarray(ct) * t), np.sum(u * expected), **TOL)


# --------------------------------------------------------------------------- vmap


@pytest.mark.parametrize("prog,shape", PROGRAMS, ids=IDS)
def test_vmap_vs_loop(prog, shape):
    xs = _input((3, *shape), seed=3)
    expected = np.stack([_ref(prog, xs[i]) for i in range(3)])
    f = lambda a: prog(xnp, a)  # noqa: E731
    assert_allclose(xnp.vmap(f)(_fresh(xs)), expected, err_msg="vmap")
    assert_allclose(xnp.jit(xnp.vmap(f))(xs.copy()), expected, err_msg="jit(vmap)")
    # for p_mutate_arg a jitted function that writes into its (batched) argument
    assert_allclose(xnp.vmap(xnp.jit(f))(_fresh(xs)), expected, err_msg="vmap(jit)")
    moved = np.moveaxis(xs, 0, -1)  # the batch axis last: in_axes=-1
    assert_allclose(xnp.vmap(f, in_axes=-1)(_fresh(moved)), expected, err_msg="axis -1")


# --------------------------------------------------------------------------- nesting


@pytest.mark.parametrize("prog,shape", PROGRAMS, ids=IDS)
def test_grad_of_vmap_and_vmap_of_grad(prog, shape):
    xs = _input((2, *shape), seed=4)
    w = _weights(prog, xs[0])

    def s(a):
        return xnp.sum(prog(xnp, a) * w)

    def s_np(a):
        return np.sum(_ref(prog, a) * w)

    per_row = np.stack([_fd_grad(s_np, xs[i]) for i in range(2)])
    assert_allclose(xnp.vmap(xnp.grad(s))(_fresh(xs)), per_row, err_msg="vmap(grad)", **TOL)
    assert_allclose(xnp.jit(xnp.vmap(xnp.grad(s)))(xs.copy()), per_row,
                    err_msg="jit(vmap(grad))", **TOL)

    def total(a):
        return xnp.sum(xnp.vmap(lambda r: prog(xnp, r))(a) * w)

    assert_allclose(xnp.grad(total)(_fresh(xs)), per_row, err_msg="grad(vmap)", **TOL)
    assert_allclose(xnp.jit(xnp.grad(total))(xs.copy()), per_row, err_msg="jit(grad(vmap))",
                    **TOL)


def test_second_order_through_inplace_updates():
    def f(x):
        y = x * x
        v = y[1:]
        v *= x[:-1]
        y[0] += x[2] ** 2
        return xnp.sum(y)

    x = np.array([0.3, 0.7, 1.1])
    # f = x0^2 + x2^2 + x1^2 x0 + x2^2 x1
    hess = np.array([[2, 2 * x[1], 0], [2 * x[1], 2 * x[0], 2 * x[2]],
                     [0, 2 * x[2], 2 + 2 * x[1]]])
    assert_allclose(xnp.hessian(f)(xnp.asarray(x)), hess, **TOL)
    assert_allclose(xnp.jacfwd(xnp.grad(f))(xnp.asarray(x)), hess, **TOL)


def test_jvp_of_argument_mutation_leaves_tangent_consistent():
    def f(x):
        v = x[1:]
        v *= 2.0  # writes through into the argument's tracer
        return x

    p, t = xnp.jvp(f, (xnp.asarray([1.0, 2.0, 3.0]),), (xnp.asarray([1.0, 1.0, 1.0]),))
    assert_allclose(p, np.array([1.0, 4.0, 6.0]))
    assert_allclose(t, np.array([1.0, 2.0, 2.0]))


def test_view_created_before_a_write_sees_it_under_grad_and_vmap():
    def f(x):
        y = x + 0.0
        v = y[1:]  # a live view
        y[...] = x * x  # the base is written: v is re-read
        return xnp.sum(v * 3.0)

    x = np.array([1.0, 2.0, 3.0])
    assert_allclose(xnp.grad(f)(xnp.asarray(x)), np.array([0.0, 12.0, 18.0]))
    assert_allclose(xnp.vmap(f)(xnp.asarray(np.stack([x, 2 * x]))), np.array([39.0, 156.0]))


# --------------------------------------------------------------------------- errors


def _transforms():
    return [("jit", lambda f: xnp.jit(f)(np.ones(3))),
            ("grad", lambda f: xnp.grad(lambda x: xnp.sum(f(x)))(xnp.ones(3))),
            ("jvp", lambda f: xnp.jvp(f, (xnp.ones(3),), (xnp.ones(3),))),
            ("vmap", lambda f: xnp.vmap(f)(xnp.ones((2, 3))))]


@pytest.mark.parametrize("name,run", _transforms(), ids=[n for n, _ in _transforms()])
def test_write_into_eager_global_raises(name, run):
    buf = xnp.zeros(3)

    def f(x):
        buf[0] = x[0]
        return x

    with pytest.raises(NotImplementedError, match="eager array"):
        run(f)

    def g(x):
        v = buf[1:]
        v[0] = x[0]
        return x

    with pytest.raises(NotImplementedError, match="eager array"):
        run(g)
    assert np.asarray(buf).tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("inner", ["jit", "grad", "vmap"])
@pytest.mark.parametrize("name,run", _transforms(), ids=[n for n, _ in _transforms()])
def test_write_into_tracer_of_enclosing_transformation_raises(name, run, inner):
    def f(x):
        def body(y):
            x[0] = y
            return y * 1.0

        if inner == "jit":
            xnp.jit(body)(1.0)
        elif inner == "grad":
            xnp.grad(body)(1.0)
        else:
            xnp.vmap(body)(xnp.ones(2))
        return x

    with pytest.raises(NotImplementedError, match="enclosing transformation"):
        run(lambda x: f(x * 1.0))


@pytest.mark.parametrize("name,run", _transforms(), ids=[n for n, _ in _transforms()])
def test_inplace_shape_and_casting_errors(name, run):
    def grow(x):
        y = x * 1.0
        y += xnp.ones((2, 3))
        return y

    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        run(grow)

    def cast(x):
        m = x.astype(np.int64)
        m += 1.5
        return x

    with pytest.raises(TypeError, match="same_kind"):
        run(cast)

    def bad_value(x):
        y = x * 1.0
        y[:2] = xnp.ones(3)
        return y

    # NumPy's wording for a basic index: np.ones(3)[:2] = np.ones(3) raises it
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) "
                                         r"into shape \(2,\)"):
        run(bad_value)
