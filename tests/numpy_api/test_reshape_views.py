"""Writes through reshape-family views (``.T``, ``transpose``, ``permute_dims``,
``matrix_transpose``, ``swapaxes``, ``moveaxis``, ``squeeze`` (the array itself when no
axis is removed), ``expand_dims``,
``reshape``, ``ravel``) and writes into their base, under every transformation:
eagerly and under ``jit`` against NumPy (which may copy: ``reshape`` of a
non-contiguous array), ``grad`` against central finite differences, ``vmap``
against a loop (xnp/numpy_api/_shape_views.py, _layout.py, _views.py)."""

import itertools

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, covering_sample
from xnp.numpy_api import _layout

TOL = dict(rtol=1e-6, atol=1e-6)
SHAPE = (2, 1, 3)

# each view op: (name, op(xp, y)) on y of SHAPE; chains may copy in NumPy
OPS = [
    ("T", lambda xp, y: y.T),
    ("transpose", lambda xp, y: xp.transpose(y, (1, 2, 0))),
    ("method_transpose", lambda xp, y: y.transpose(2, 0, 1)),
    ("permute_dims", lambda xp, y: xp.permute_dims(y, (2, 0, 1))),
    ("matrix_transpose", lambda xp, y: xp.matrix_transpose(y)),
    ("mT", lambda xp, y: y.mT),
    ("swapaxes", lambda xp, y: xp.swapaxes(y, 0, 2)),
    ("moveaxis", lambda xp, y: xp.moveaxis(y, 0, -1)),
    ("squeeze", lambda xp, y: xp.squeeze(y)),
    ("squeeze_method", lambda xp, y: y.squeeze(1)),
    ("expand_dims", lambda xp, y: xp.expand_dims(y, (0, 3))),
    ("reshape", lambda xp, y: y.reshape(-1)),
    ("reshape_fn", lambda xp, y: xp.reshape(y, (3, 2))),
    ("reshape_unit", lambda xp, y: y.reshape(2, 3)),
    ("ravel", lambda xp, y: xp.ravel(y)),
    ("ravel_method", lambda xp, y: y.ravel()),
    # chains
    ("T_reshape", lambda xp, y: y.T.reshape(-1)),  # NumPy copies
    ("T_ravel", lambda xp, y: y.transpose(2, 0, 1).ravel()),  # copies
    ("swap_reshape", lambda xp, y: y.swapaxes(0, 1).reshape(-1)),  # a view
    ("T_T_reshape", lambda xp, y: y.T.T.reshape(3, 2)),
    ("T_reshape_unit", lambda xp, y: y.T.reshape(3, 2)),  # only size-1 axes: a view
    ("reshape_T", lambda xp, y: y.reshape(3, 2).T),
    ("slice_reshape", lambda xp, y: y[1:].reshape(-1)),  # only size-1 axes change: a view
    ("colslice_reshape", lambda xp, y: y[:, :, 1:].reshape(-1)),  # copies
    ("stepslice_reshape", lambda xp, y: y[:, :, ::2].reshape(-1)),  # copies
    ("index_T_index", lambda xp, y: y[:, 0].T[1:]),
    ("squeeze_T", lambda xp, y: xp.squeeze(y).T),
    ("expand_T_reshape", lambda xp, y: xp.expand_dims(y.T, 0).reshape(-1)),  # copies
    ("moveaxis_squeeze_ravel", lambda xp, y: xp.moveaxis(y, 1, 0).squeeze(0).ravel()),
]
IDS = [n for n, _ in OPS]


# general reshapes (view or copy depends on the base's layout): under jit the layout of
# an argument (and of what is computed from it elementwise) is unknown, so writes raise
NEEDS_LAYOUT = {"reshape", "reshape_fn", "ravel", "ravel_method", "T_reshape", "T_ravel",
                "swap_reshape", "T_T_reshape", "reshape_T", "colslice_reshape",
                "stepslice_reshape", "expand_T_reshape", "moveaxis_squeeze_ravel"}


def _from_arg(xp, x):
    return x * 1.0  # eagerly C-contiguous like x; under jit: layout unknown


def _fresh(xp, x):
    return xp.arange(6.0).reshape(SHAPE) * x[0, 0, 0]  # C-contiguous under jit too


def _through(op, base):
    def prog(xp, x):  # writes through the view; the base must see them (or not, if a copy)
        y = base(xp, x)
        v = op(xp, y)
        v[0] = -7.0 * x[0, 0, 1]
        v *= x[1, 0, 2]
        return xp.concatenate([y.ravel(), xp.ravel(v * 1.0)])
    return prog


def _into_base(op, base):
    def prog(xp, x):  # writes into the base; the live view must see them (or not)
        y = base(xp, x)
        v = op(xp, y)
        y[1] = y[0] * 3.0
        y += x
        y[0, 0, 1] = x[1, 0, 0] ** 2
        return xp.concatenate([y.ravel(), xp.ravel(v * 1.0)])
    return prog


# sampled (all with --full-grid): every op, each op both writing through its view and into
# its base, and both from the argument (a general reshape's undecided layout raising under
# jit) and from a fresh array: two of each op's four programs
PROGRAMS = covering_sample(
    [(name, kind, op, base) for name, op in OPS for kind in (_through, _into_base)
     for base in (_from_arg, _fresh)],
    labels=lambda p: [(p[0], p[1].__name__), (p[0], p[3].__name__), (p[1], p[3])], n=58,
    seed=12)
PIDS = [f"{k.__name__[1:]}-{b.__name__[1:]}-{n}" for n, k, _, b in PROGRAMS]


def _input(shape, seed=0):
    return np.random.default_rng(seed).uniform(0.1, 1.0, shape)


def _ref(prog, x):
    return np.asarray(prog(np, np.array(x, copy=True)), np.float64)


def _fd_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


@pytest.mark.parametrize("name,kind,op,base", PROGRAMS, ids=PIDS)
def test_eager_jit_grad_vmap(name, kind, op, base):
    prog = kind(op, base)
    x = _input(SHAPE)
    ref = _ref(prog, x)
    f = lambda a: prog(xnp, a)  # noqa: E731
    assert_allclose(f(xnp.asarray(x.copy())), ref, err_msg="eager")
    w = np.random.default_rng(1).normal(size=ref.shape)
    s = lambda a: xnp.sum(f(a) * w)  # noqa: E731
    expected = _fd_grad(lambda a: np.sum(_ref(prog, a) * w), x)
    assert_allclose(xnp.grad(s)(xnp.asarray(x.copy())), expected, err_msg="grad", **TOL)
    xs = _input((3, *SHAPE), seed=3)
    loop = np.stack([_ref(prog, xs[i]) for i in range(3)])
    assert_allclose(xnp.vmap(f)(xnp.asarray(xs.copy())), loop, err_msg="vmap")
    jitted = [("jit", lambda: xnp.jit(f)(x.copy()), ref),
              ("jit(grad)", lambda: xnp.jit(xnp.grad(s))(x.copy()), expected),
              ("grad(jit)", lambda: xnp.grad(xnp.jit(s))(xnp.asarray(x.copy())), expected),
              ("jit(vmap)", lambda: xnp.jit(xnp.vmap(f))(xs.copy()), loop),
              ("vmap(jit)", lambda: xnp.vmap(xnp.jit(f))(xnp.asarray(xs.copy())), loop)]
    for how, run, want in jitted:
        if base is _from_arg and name in NEEDS_LAYOUT:
            with pytest.raises(NotImplementedError, match="view or a copy"):
                run()
        else:
            assert_allclose(run(), want, err_msg=how, **TOL)


def test_issue_example():
    def f(x):
        y = x + 0.0
        r = y.T
        r[0] = 9.0
        return y

    x = np.arange(4.0).reshape(2, 2)
    expected = np.array([[9.0, 1.0], [9.0, 3.0]])
    assert_allclose(f(xnp.asarray(x)), expected)
    assert_allclose(xnp.jit(f)(x), expected)
    assert_allclose(xnp.vmap(f)(np.stack([x, x])), np.stack([expected, expected]))


def test_base_write_seen_by_earlier_transpose():
    def f(x):
        y = x * 1.0
        r = y.T
        y[0, 1] = 5.0
        return r * 1.0

    x = np.arange(6.0).reshape(2, 3)
    expected = x.copy()
    expected[0, 1] = 5.0
    for g in (f, xnp.jit(f)):
        assert_allclose(g(xnp.asarray(x)), expected.T)


# --------------------------------------------------------------------------- arguments


def _write_arg(xp, x):  # a reshape of the argument itself, written through
    r = x.reshape(-1)
    r[0] = 3.0 * x[1, 1]
    return x * 1.0


def test_reshape_of_argument_grad_and_vmap_follow_numpy():
    x = _input((2, 2))
    ref = _ref(_write_arg, x)
    assert_allclose(_write_arg(xnp, xnp.asarray(x.copy())), ref)
    w = np.random.default_rng(1).normal(size=ref.shape)
    expected = _fd_grad(lambda a: np.sum(_ref(_write_arg, a) * w), x)
    assert_allclose(xnp.grad(lambda a: xnp.sum(_write_arg(xnp, a) * w))(xnp.asarray(x)),
                    expected, **TOL)
    xs = _input((3, 2, 2), seed=2)
    loop = np.stack([_ref(_write_arg, xs[i]) for i in range(3)])
    assert_allclose(xnp.vmap(lambda a: _write_arg(xnp, a))(xnp.asarray(xs.copy())), loop)


def test_grad_of_noncontiguous_argument_reshape_is_a_copy():
    x = _input((3, 2)).T  # non-contiguous: NumPy's reshape(-1) copies
    ref = _ref(_write_arg, x)  # np.array(copy=True) keeps the layout (order K)
    assert not np.shares_memory(x, x.reshape(-1))
    assert_allclose(_write_arg(xnp, xnp.asarray(np.array(x.T)).T), ref)
    w = np.random.default_rng(1).normal(size=ref.shape)
    expected = _fd_grad(lambda a: np.sum(_ref(_write_arg, a) * w), x)
    contiguous = _fd_grad(lambda a: np.sum(_ref(_write_arg, np.ascontiguousarray(a)) * w), x)
    assert not np.allclose(expected, contiguous)  # the copy/view decision matters here
    assert_allclose(xnp.grad(lambda a: xnp.sum(_write_arg(xnp, a) * w))(
        xnp.asarray(np.array(x.T)).T), expected, **TOL)


def test_jit_argument_reshape_undecided_raises():
    x = _input((2, 2))
    with pytest.raises(NotImplementedError, match="view or a copy"):
        xnp.jit(lambda a: _write_arg(xnp, a))(x.copy())

    def base_write(a):
        r = a.ravel()
        a[0, 0] = 1.0
        return r * 1.0

    with pytest.raises(NotImplementedError, match="view or a copy"):
        xnp.jit(base_write)(x.copy())

    def workaround(a):
        r = a.reshape(-1).copy()
        r[0] = 3.0
        return r + a.reshape(-1).sum(), a.T  # reads and transposes of an argument are fine

    out, t = xnp.jit(workaround)(x.copy())
    r = x.reshape(-1).copy()
    r[0] = 3.0
    assert_allclose(out, r + x.sum())
    assert_allclose(t, x.T)


@pytest.mark.parametrize("shape,axis", [((3,), None), ((2, 3), None), ((2, 1), ()), ((), None),
                                        ((), 0), ((), -1)])
def test_squeeze_with_nothing_to_remove_is_the_array_itself(shape, axis):
    x_np = np.arange(float(np.prod(shape))).reshape(shape)
    x = xnp.asarray(x_np)
    for m, a in [(np, x_np), (xnp, x)]:
        assert m.squeeze(a, axis) is a and a.squeeze(axis) is a
    want = np.squeeze(x_np, axis)
    got = xnp.jit(lambda a: (xnp.squeeze(a, axis), a.squeeze(axis)))(x)
    for g in got:
        assert g.dtype == want.dtype and g.shape == want.shape and g.tolist() == want.tolist()


def test_flatten_is_a_copy():
    def f(xp, x):
        y = x * 1.0
        v = y.flatten()
        v[0] = 9.0
        return y

    x = _input((2, 2))
    assert_allclose(f(xnp, xnp.asarray(x)), f(np, x.copy()))
    assert_allclose(xnp.jit(lambda a: f(xnp, a))(x), f(np, x.copy()))


# --------------------------------------------------------------------------- layout model


def _strided_cases():
    base = np.zeros((4, 1, 6))
    views = [base, base.T, base[:, :, ::2], base[1:3], base[:, :, 1:4], base[::-1],
             base.transpose(1, 0, 2), base[:2, :, :3].T, base[:, 0, :], base[0:1]]
    for v in views:
        n = v.size
        shapes = {(n,), (1, n), (n, 1)}
        for k in range(1, v.ndim + 1):
            for sub in itertools.combinations(range(v.ndim), k):
                shapes.add(tuple(v.shape[i] for i in sub) + (-1,))
        for new in shapes:
            try:
                yield v, v.reshape(new).shape
            except ValueError:
                continue


def test_reshape_strides_match_numpy():
    for v, new in _strided_cases():
        st = _layout.reshape_strides(v.shape, tuple(s // 8 for s in v.strides), new)
        out = v.reshape(new)
        is_view = np.shares_memory(out, v) or v.size == 0
        assert (st is not False) == is_view, (v.shape, v.strides, new)
        if is_view:
            got = [s for s, d in zip(st, new) if d != 1]
            want = [s // 8 for s, d in zip(out.strides, new) if d != 1]
            assert got == want, (v.shape, v.strides, new)
