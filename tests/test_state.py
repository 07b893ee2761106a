"""State primitives (``xnp.lax.new_ref``/``ref_get``/``ref_swap``/``ref_addupdate``) and
``discharge_state``: each program writes into a buffer through a sequence of indexed
reads and writes; the oracle is NumPy doing the same writes in place. Checked eagerly,
under jit, through the discharged jaxpr, and under grad (finite differences), jvp, vjp,
vmap (a Python loop), inside fori_loop/scan/cond/while_loop, and composed."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.tracing import eval_jaxpr
from xnp.tracing.jaxpr_transforms import discharge_state, uses_refs

from tests.helpers import central_difference


class NpRef:
    """The oracle: a NumPy buffer written in place."""

    def __init__(self, value):
        self.a = np.array(value, dtype=np.float64)

    def get(self, idx=()):
        return np.array(self.a[idx])

    def set(self, idx, v):
        self.a[idx] = v

    def add(self, idx, v):
        np.add.at(self.a, idx, v)


class XRef:
    def __init__(self, value):
        self.r = lax.new_ref(value)

    def get(self, idx=()):
        return lax.ref_get(self.r, idx)

    def set(self, idx, v):
        lax.ref_set(self.r, idx, v)

    def add(self, idx, v):
        lax.ref_addupdate(self.r, idx, v)


class IRef(XRef):
    """A ref read and written with NumPy's indexing syntax (``r[idx]``, ``r[idx] = v``)."""

    def get(self, idx=()):
        return self.r[idx]

    def set(self, idx, v):
        self.r[idx] = v


REFS = [XRef, IRef]


def _as(xp, a):
    return np.asarray(a) if xp is np else xnp.asarray(a)


def prog_basic(xp, R, x):
    r = R(xp.zeros((3, 4)))
    r.set((0, slice(1, 3)), x[:2])
    r.add((slice(None), 1), x[:3] * x[:3])
    r.set((-1, Ellipsis), x[2:6])
    return r.get((slice(None, None, 2),)) * 2.0


def prog_steps(xp, R, x):
    r = R(xp.ones((6, 5)))
    r.set((slice(None, None, 2), slice(4, 0, -2)), xp.reshape(x[:6], (3, 2)))
    r.add((Ellipsis, -1), x[:6])
    r.set((None, 1, slice(1, 4)), xp.reshape(x[1:4] * 3.0, (1, 3)))
    return r.get((None, slice(5, None, -1), 2)) + r.get((1,)).sum()


def prog_arrays(xp, R, x):
    r = R(xp.zeros((3, 4, 5)))
    i = _as(xp, np.array([0, 2, -1]))
    j = _as(xp, np.array([[1], [4]]))
    r.set((i, slice(None), j), xp.reshape(xp.tile(x[:4], 6), (2, 3, 4)))  # non-adjacent
    r.add((1, _as(xp, np.array([0, 0, 3]))), xp.reshape(xp.tile(x[:5], 3), (3, 5)))
    r.set((slice(None), 2, _as(xp, np.array([1, 3]))), xp.reshape(xp.tile(x[:2], 3), (3, 2)))
    a = r.get((i, 1))
    b = r.get((slice(None), j - 1, 0))  # an adjacent advanced block after a slice
    return a.sum(axis=0) + b.sum() * x[0] + r.get().sum(axis=(0, 1))


def prog_swap(xp, R, x):
    r = R(xp.reshape(x[:6], (2, 3)))
    if R is NpRef:
        old = r.get((1,))
        r.set((1,), x[6:9])
    else:
        old = lax.ref_swap(r.r, x[6:9], (1,))
    r.add((0, slice(None)), old * old)
    return r.get() * x[0]


PROGRAMS = [prog_basic, prog_steps, prog_arrays, prog_swap]


def _x(n=9, seed=0):
    return np.random.default_rng(seed).normal(size=n)


def oracle(prog, x):
    return prog(np, NpRef, np.asarray(x, np.float64))


def run(prog, R=XRef):
    return lambda x: prog(xnp, R, x)


@pytest.mark.parametrize("R", REFS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
def test_eager_and_jit_match_numpy(prog, R):
    x = _x()
    want = oracle(prog, x)
    np.testing.assert_allclose(np.asarray(run(prog, R)(xnp.asarray(x))), want, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(xnp.jit(run(prog, R))(xnp.asarray(x))), want,
                               rtol=1e-12)


@pytest.mark.parametrize("R", REFS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
def test_jaxpr_records_refs_and_discharges(prog, R):
    x = _x()
    closed = xnp.make_jaxpr(run(prog, R))(xnp.asarray(x))
    text = str(closed)
    assert "new_ref" in text and "Ref{f64[" in text
    assert uses_refs(closed)
    discharged = discharge_state(closed)
    assert not uses_refs(discharged)
    got = eval_jaxpr(discharged.jaxpr, discharged.consts, xnp.asarray(x))[0]
    np.testing.assert_allclose(np.asarray(got), oracle(prog, x), rtol=1e-12)
    eager = eval_jaxpr(closed.jaxpr, closed.consts, xnp.asarray(x))[0]  # refs as boxes
    np.testing.assert_allclose(np.asarray(eager), oracle(prog, x), rtol=1e-12)


def _weights(prog, x):
    return np.random.default_rng(1).normal(size=np.shape(oracle(prog, x)))


@pytest.mark.parametrize("R", REFS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("jit", [False, True])
def test_grad_matches_finite_differences(prog, jit, R):
    x = _x()
    w = _weights(prog, x)

    def loss(x):
        return (run(prog, R)(x) * xnp.asarray(w)).sum()

    g = (xnp.jit(xnp.grad(loss)) if jit else xnp.grad(loss))(xnp.asarray(x))
    for k in range(3):
        v = np.random.default_rng(10 + k).normal(size=x.shape)
        fd = central_difference(lambda z: float((oracle(prog, z) * w).sum()), x, v)
        np.testing.assert_allclose(float(np.dot(np.asarray(g), v)), fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
def test_jvp_and_vjp(prog):
    x = _x()
    v = np.random.default_rng(3).normal(size=x.shape)
    y, t = xnp.jvp(run(prog), (xnp.asarray(x),), (xnp.asarray(v),))
    np.testing.assert_allclose(np.asarray(y), oracle(prog, x), rtol=1e-12)
    fd = central_difference(lambda z: oracle(prog, z), x, v)
    np.testing.assert_allclose(np.asarray(t), fd, rtol=1e-6, atol=1e-6)
    y2, pull = xnp.vjp(run(prog), xnp.asarray(x))
    ct = _weights(prog, x)
    (g,) = pull(xnp.asarray(ct))
    np.testing.assert_allclose(float(np.dot(np.asarray(g), v)), float((np.asarray(t) * ct).sum()),
                               rtol=1e-9)
    _, t_jit = xnp.jit(lambda a, b: xnp.jvp(run(prog), (a,), (b,)))(xnp.asarray(x),
                                                                    xnp.asarray(v))
    np.testing.assert_allclose(np.asarray(t_jit), fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("R", REFS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("jit", [False, True])
def test_vmap_matches_loop(prog, jit, R):
    xs = np.stack([_x(seed=s) for s in range(3)])
    f = xnp.vmap(run(prog, R))
    got = (xnp.jit(f) if jit else f)(xnp.asarray(xs))
    want = np.stack([oracle(prog, x) for x in xs])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


def test_grad_of_vmap_and_vmap_of_grad():
    xs = np.stack([_x(seed=s) for s in range(3)])

    def loss(x):
        return (run(prog_arrays)(x) ** 2).sum()

    g = xnp.grad(lambda b: xnp.vmap(loss)(b).sum())(xnp.asarray(xs))
    g2 = xnp.vmap(xnp.grad(loss))(xnp.asarray(xs))
    for x, gi, gi2 in zip(xs, np.asarray(g), np.asarray(g2)):
        v = np.random.default_rng(7).normal(size=x.shape)
        fd = central_difference(lambda z: float((oracle(prog_arrays, z) ** 2).sum()), x, v)
        np.testing.assert_allclose(float(np.dot(gi, v)), fd, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(gi2, gi, rtol=1e-12)


def test_traced_integer_index():
    def f(x, i):
        r = lax.new_ref(xnp.zeros(5))
        lax.ref_set(r, i, x)
        lax.ref_addupdate(r, i - 1, x * 2.0)  # i - 1 == -1 wraps to the last element
        return lax.ref_get(r)

    for i in range(5):
        want = np.zeros(5)
        want[i] = 3.0
        want[i - 1] += 6.0
        for fn in (f, xnp.jit(f)):
            np.testing.assert_allclose(np.asarray(fn(xnp.asarray(3.0), xnp.asarray(i))), want)
    g = xnp.grad(lambda x, i: f(x, i).sum())(xnp.asarray(3.0), xnp.asarray(2))
    assert float(g) == 3.0
    got = xnp.vmap(f, in_axes=(None, 0))(xnp.asarray(3.0), xnp.arange(5))
    want = np.stack([np.asarray(f(xnp.asarray(3.0), xnp.asarray(i))) for i in range(5)])
    np.testing.assert_allclose(np.asarray(got), want)


# --------------------------------------------------------------------------- control flow


def loop_prog(x, kind):
    r = lax.new_ref(xnp.zeros(4))

    def body(i, c):
        lax.ref_addupdate(r, i, c * x)
        return c * 1.5

    if kind == "fori":
        lax.fori_loop(0, 4, body, xnp.asarray(1.0))
    elif kind == "fori_traced_bounds":
        lax.fori_loop(xnp.asarray(0) * 0, xnp.asarray(4), body, xnp.asarray(1.0))
    elif kind == "scan":
        def sbody(c, i):
            body(i, c)
            return c * 1.5, lax.ref_get(r, i)

        _, ys = lax.scan(sbody, xnp.asarray(1.0), xnp.arange(4))
        lax.ref_addupdate(r, (), ys)
    elif kind == "cond":
        for k in range(4):
            lax.cond(x > 0.5 * k, lambda: lax.ref_set(r, k, x * k),
                     lambda: lax.ref_addupdate(r, k, -x))
    return lax.ref_get(r) * x


def loop_oracle(x, kind):
    r = np.zeros(4)
    c = 1.0
    if kind in ("fori", "fori_traced_bounds", "scan"):
        ys = []
        for i in range(4):
            r[i] += c * x
            c *= 1.5
            ys.append(r[i])
        if kind == "scan":
            r += np.array(ys)
    else:
        for k in range(4):
            if x > 0.5 * k:
                r[k] = x * k
            else:
                r[k] += -x
    return r * x


KINDS = ["fori", "fori_traced_bounds", "scan", "cond"]


@pytest.mark.parametrize("kind", KINDS)
def test_refs_closed_over_by_control_flow(kind):
    for x in (0.7, 1.3):
        want = loop_oracle(x, kind)
        f = lambda a: loop_prog(a, kind)  # noqa: E731
        np.testing.assert_allclose(np.asarray(f(xnp.asarray(x))), want, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(xnp.jit(f)(xnp.asarray(x))), want, rtol=1e-12)
        _, t = xnp.jvp(f, (xnp.asarray(x),), (xnp.asarray(1.0),))
        fd = central_difference(lambda z: loop_oracle(float(z[0]), kind), np.array([x]),
                                np.array([1.0]))
        np.testing.assert_allclose(np.asarray(t), fd, rtol=1e-6, atol=1e-6)
        if kind != "fori_traced_bounds":  # a while_loop: forward mode only
            g = xnp.grad(lambda a: f(a).sum())(xnp.asarray(x))
            np.testing.assert_allclose(float(g), fd.sum(), rtol=1e-6, atol=1e-6)
        got = xnp.vmap(f)(xnp.asarray([x, x + 0.4]))
        np.testing.assert_allclose(np.asarray(got), np.stack([want, loop_oracle(x + 0.4, kind)]),
                                   rtol=1e-12)


def test_local_ref_inside_a_body_and_while_predicate_reads():
    def f(x):
        def body(i, c):
            r = lax.new_ref(xnp.zeros(3))  # made and used inside the body
            lax.ref_set(r, 1, c)
            lax.ref_addupdate(r, slice(None), x)
            return lax.ref_get(r).sum()

        s = lax.fori_loop(0, 3, body, x)
        cnt = lax.new_ref(xnp.asarray(0.0))

        def wbody(i):
            lax.ref_addupdate(cnt, (), 1.0)
            return i + 1

        lax.while_loop(lambda i: lax.ref_get(cnt) < 4.0, wbody, 0)
        return s * lax.ref_get(cnt)

    def want(x):
        c = x
        for _ in range(3):
            c = c + 3 * x
        return c * 4.0

    np.testing.assert_allclose(float(f(xnp.asarray(2.0))), want(2.0))
    np.testing.assert_allclose(float(xnp.jit(f)(xnp.asarray(2.0))), want(2.0))
    assert float(xnp.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, x))(
        xnp.asarray(2.0))) == pytest.approx(4 * 8.0)


# --------------------------------------------------------------------------- errors


def test_errors_name_the_primitive_shapes_and_dtypes():
    r = lax.new_ref(xnp.zeros((3, 4), dtype=np.float32))
    with pytest.raises(TypeError, match=r"ref_swap.*float32\[2\].*float64\[2\]|ref_swap.*float32"):
        lax.ref_set(r, (0, slice(0, 2)), xnp.zeros(2, dtype=np.float64))
    with pytest.raises(TypeError, match=r"ref_swap.*indexed shape.*float32\[3\]"):
        lax.ref_set(r, (0, slice(0, 3)), xnp.zeros(4, dtype=np.float32))
    with pytest.raises(IndexError, match=r"ref_get.*index 5 is out of bounds.*float32\[3,4\]"):
        lax.ref_get(r, 5)
    with pytest.raises(IndexError, match="ref_get: too many indices"):
        lax.ref_get(r, (0, 0, 0))
    with pytest.raises(TypeError, match="ref_get: index arrays must have an integer dtype"):
        lax.ref_get(r, xnp.asarray([0.5]))
    with pytest.raises(TypeError, match="ref_get: ref must be a ref"):
        lax.ref_get(xnp.zeros(3), 0)
    with pytest.raises(TypeError, match="ref_addupdate: the ref must have a numeric dtype"):
        lax.ref_addupdate(lax.new_ref(xnp.zeros(3, dtype=bool)), 0, xnp.asarray(True))


def test_refs_cannot_cross_a_jit_boundary():
    r = lax.new_ref(xnp.zeros(3))
    with pytest.raises(TypeError, match="closes over a ref"):
        xnp.jit(lambda x: lax.ref_set(r, 0, x) or x)(xnp.asarray(1.0))
    with pytest.raises(TypeError, match="returns a ref"):
        xnp.jit(lambda x: lax.new_ref(x))(xnp.asarray(1.0))
    with pytest.raises(TypeError, match="cannot take refs as arguments"):
        lax.fori_loop(0, 2, lambda i, c: c, r)


def test_writing_a_differentiated_value_into_an_outer_staged_ref_raises():
    def f(x):
        r = lax.new_ref(xnp.zeros(3))
        g = xnp.grad(lambda y: (lax.ref_set(r, 0, y), y * 2.0)[1])(x)
        return g

    with pytest.raises(NotImplementedError, match="ref_swap: writing a differentiated value"):
        xnp.jit(f)(xnp.asarray(1.0))


def test_refs_inside_a_custom_jvp_body_are_discharged_under_jit():
    @xnp.custom_jvp
    def f(x):
        r = lax.new_ref(xnp.zeros(3))
        lax.ref_set(r, np.array([0, 2]), x * xnp.ones(2))
        return lax.ref_get(r).sum()

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), 3.0 * tangents[0]

    x = xnp.asarray(2.0)
    assert float(f(x)) == 4.0 and float(xnp.jit(f)(x)) == 4.0
    assert float(xnp.grad(f)(x)) == 3.0 and float(xnp.jit(xnp.grad(f))(x)) == 3.0


def test_indexing_a_ref_stages_state_equations():
    """``r[idx]`` and ``r[idx] = v`` on a staged ref are ``ref_get``/``ref_swap`` equations
    (not array indexing rebinding the ref to an array), and ``r[idx] += v`` reads then
    writes (the read array, updated in place with NumPy's semantics, is a cell of its own:
    a ref of two elements)."""
    def f(x):
        r = lax.new_ref(x)
        r[1] = 5.0
        r[0:2] += 1.0
        return r[...]

    text = str(xnp.make_jaxpr(f)(xnp.arange(3.0)))
    on_r = [line.split("=", 1)[1].split("[", 1)[0].strip() for line in text.splitlines()
            if re.search(r"ref_(swap|get)\[\S*\] b\b", line)]
    assert on_r == ["ref_swap", "ref_get", "ref_swap", "ref_get"]
    assert text.count("Ref{f64[3]}") == 1 and text.count("Ref{f64[2]}") == 1
    assert "dynamic_update_slice" not in text
    for g in (f, xnp.jit(f)):
        np.testing.assert_array_equal(np.asarray(g(xnp.arange(3.0))), [1.0, 6.0, 2.0])
    grad = xnp.grad(lambda x: (f(x) * xnp.asarray([1.0, 2.0, 3.0])).sum())
    np.testing.assert_array_equal(np.asarray(grad(xnp.arange(3.0))), [1.0, 0.0, 3.0])


_ARRAY_USES = {
    "operator": lambda r: r * 2.0,
    "function": lambda r: xnp.sin(r),
    "lax": lambda r: lax.add(r, r),
    "asarray": lambda r: xnp.asarray(r) + 1.0,
    "numpy": lambda r: np.asarray(r),
}


@pytest.mark.parametrize("use", list(_ARRAY_USES), ids=str)
@pytest.mark.parametrize("mode", ["eager", "jit", "grad"])
def test_a_ref_used_as_an_array_raises_type_error(use, mode):
    """A ref is not an array: every use as one raises ``TypeError`` (eagerly, staged and
    under grad), where a staged ref was silently accepted by the array primitives."""
    op = _ARRAY_USES[use]

    def f(x):
        out = op(lax.new_ref(x))
        return xnp.sum(xnp.asarray(out))

    run_ = {"eager": f, "jit": xnp.jit(f), "grad": xnp.grad(f)}[mode]
    # (eagerly an operator names the class ArrayRef; NumPy's conversion of a staged ref is
    # the tracer's conversion error)
    with pytest.raises(TypeError, match="(?i)ref|traced array"):
        run_(xnp.arange(3.0))


def test_a_read_of_a_ref_is_a_new_array():
    """``r[...]`` and ``r[1:3]`` are new arrays: writing the read, or the ref after the
    read, leaves the other as it was (eagerly a copy, not the box's array or NumPy's view
    of it), as under jit."""
    def f(x):
        r = lax.new_ref(x)
        v = r[...]
        r[...] += 1.0
        w = r[1:3]
        w[0] = 99.0
        return v, r[...], w

    for g in (f, xnp.jit(f)):
        v, r, w = g(xnp.arange(4.0))
        np.testing.assert_array_equal(np.asarray(v), [0.0, 1.0, 2.0, 3.0])
        np.testing.assert_array_equal(np.asarray(r), [1.0, 2.0, 3.0, 4.0])
        np.testing.assert_array_equal(np.asarray(w), [99.0, 3.0])


@pytest.mark.parametrize("transform", ["grad", "vmap"])
def test_writing_a_traced_value_into_a_ref_made_outside_raises(transform):
    """A grad/vmap value written into an eager ref made before the transformation began
    would outlive it: ``ForeignWriteError``, and the ref keeps its value."""
    r = lax.new_ref(xnp.zeros(3))

    def f(v):
        r[...] = v * 2.0
        return v.sum()

    with pytest.raises(xnp.errors.ForeignWriteError, match="ref_swap"):
        getattr(xnp, transform)(f)(xnp.ones(3))
    np.testing.assert_array_equal(np.asarray(r[...]), np.zeros(3))


@pytest.mark.parametrize("transform", ["grad", "vmap", "jvp"])
def test_a_ref_is_not_an_argument_of_a_transformation(transform):
    r = lax.new_ref(xnp.ones(3))

    def f(a):
        return (a[...] ** 2).sum()

    call = {"grad": lambda: xnp.grad(f)(r), "vmap": lambda: xnp.vmap(f)(r),
            "jvp": lambda: xnp.jvp(f, (r,), (xnp.ones(3),))}[transform]
    with pytest.raises(TypeError, match="is a ref"):
        call()


def _strided_in_bodies(xp, R, x):
    """Strided (step != 1) reads and writes of a ref closed over by cond and loop bodies."""
    r = R(xp.reshape(x[:8], (8,)))
    if xp is np:
        first = r.get((slice(None, None, 2),))
        for _ in range(3):
            r.set((slice(None, None, 2),), r.get((slice(None, None, 2),)) + 1.0)
            r.set((slice(None, None, -3),), r.get((slice(1, None, 3),)) * 0.5)
        return np.concatenate([first, r.get()])
    first = lax.cond(x[0] < 100.0, lambda: r.get((slice(None, None, 2),)),
                     lambda: r.get((slice(0, 4),)))

    def body(i, c):
        r.set((slice(None, None, 2),), r.get((slice(None, None, 2),)) + 1.0)
        r.set((slice(None, None, -3),), r.get((slice(1, None, 3),)) * 0.5)
        return c

    lax.fori_loop(0, 3, body, 0)
    return xnp.concatenate([first, r.get()])


@pytest.mark.parametrize("jit", [False, True])
def test_strided_ref_index_inside_control_flow(jit):
    x = _x(n=9)
    f = run(_strided_in_bodies)
    got = (xnp.jit(f) if jit else f)(xnp.asarray(x))
    np.testing.assert_allclose(np.asarray(got), oracle(_strided_in_bodies, x), rtol=1e-12)


@pytest.mark.parametrize("mode", ["eager", "jit", "grad"])
def test_a_ref_as_a_function_argument_names_the_function_and_the_ref(mode):
    """The same message in every mode: the function, its argument and the ref's full
    dtype and shape."""
    def f(x):
        return xnp.sin(lax.new_ref(x)).sum()

    run_ = {"eager": f, "jit": xnp.jit(f), "grad": xnp.grad(f)}[mode]
    with pytest.raises(TypeError, match=r"xnp\.sin: argument `x` is a ref \(Ref\{float64\[3\]\}\)"):
        run_(xnp.arange(3.0))
