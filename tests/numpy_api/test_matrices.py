"""xnp.numpy_api.matrices vs NumPy (eager, jit, jaxpr via check_vs_numpy): diagonals,
triangles, index helpers, vander, rot90; NumPy's error classes; fill_diagonal in place
(eager, under jit with write-back, under grad)."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy, grid, make_array

MAT_SHAPES = [(0, 0), (1, 1), (3, 3), (2, 4), (4, 2), (2, 0)]
STACK_SHAPES = MAT_SHAPES + [(2, 3, 4), (3, 1, 2, 2)]
DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64,
                                np.complex64)]


@pytest.mark.parametrize("case", grid(shape=[(0,), (1,), (3,)] + MAT_SHAPES, k=[-2, 0, 1, 5],
                                      dtype=DTYPES, n=40))
def test_diag_matches_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    check_vs_numpy(lambda m, x: m.diag(x, case.k), x)
    check_vs_numpy(lambda m, x: m.diagflat(x, case.k), x)


@pytest.mark.parametrize("case", grid(shape=STACK_SHAPES, offset=[-1, 0, 2],
                                      axes=[(0, 1), (1, 0), (-1, 0), (-2, -1)], dtype=DTYPES,
                                      n=40))
def test_diagonal_and_trace_match_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    a1, a2 = case.axes
    check_vs_numpy(lambda m, x: m.diagonal(x, case.offset, a1, a2), x)
    if case.dtype != np.bool_:
        check_vs_numpy(lambda m, x: m.trace(x, case.offset, a1, a2), x, kind="reduction")
    if case.dtype.kind != "c":
        check_vs_numpy(lambda m, x: m.trace(x, case.offset, a1, a2, dtype=np.float64), x,
                       kind="reduction")


@pytest.mark.parametrize("body", [lambda m, x: m.diag(x), lambda m, x: m.diagonal(x[0, 0]),
                                  lambda m, x: m.diagonal(x, 0, 1, 1),
                                  lambda m, x: m.diagonal(x, 0, 0, 5),
                                  lambda m, x: m.tril(x[0, 0, 0]),
                                  lambda m, x: m.rot90(x, 1, (0, 0)),
                                  lambda m, x: m.rot90(x, 1, (0, 1, 2)),
                                  lambda m, x: m.rot90(x, 1, (0, 5)),
                                  lambda m, x: m.fill_diagonal(x[0, 0], 1),
                                  lambda m, x: m.vander(x),
                                  lambda m, x: m.tril_indices_from(x),
                                  lambda m, x: m.diag_indices_from(x)])
def test_errors_match_numpy(body):
    check_vs_numpy(body, np.zeros((2, 3, 4)))


@pytest.mark.parametrize("case", grid(shape=[(3,), (0,)] + STACK_SHAPES, k=[-1, 0, 2],
                                      dtype=DTYPES, n=30))
def test_tril_triu_match_numpy(case, rng):
    x = make_array(rng, case.shape, case.dtype)
    check_vs_numpy(lambda m, x: m.tril(x, case.k), x)
    check_vs_numpy(lambda m, x: m.triu(x, case.k), x)


@pytest.mark.parametrize("k", [1.0, -1.0, np.float32(-2.0), 0.0])
def test_float_diagonal_offsets_and_negative_sizes_as_numpy(k):
    # an integral float k is NumPy's diagonal k; a negative N or M of tri is empty
    x = np.ones((3, 4))
    check_vs_numpy(lambda m, x: m.tril(x, k), x)
    check_vs_numpy(lambda m, x: m.triu(x, k), x)
    check_vs_numpy(lambda xp: xp.tri(3, 4, k))
    check_vs_numpy(lambda xp: xp.tri(-1, 2, k), jit=False)
    check_vs_numpy(lambda xp: xp.tri(2, -3), jit=False)
    for fn in (lambda: xnp.tril(xnp.ones((2, 2)), 1.5), lambda: xnp.tri(2, k=-0.5)):
        with pytest.raises(TypeError, match="integral float"):
            fn()  # (NumPy's result for these follows from its arange's steps)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (2, 2, 9)])
def test_tri_and_index_helpers_match_numpy(n, m, k):
    check_vs_numpy(lambda xp: xp.tri(n, m, k))
    check_vs_numpy(lambda xp: xp.tri(n, m, k, dtype=np.int32))
    check_vs_numpy(lambda xp: xp.tril_indices(n, k, m))
    check_vs_numpy(lambda xp: xp.triu_indices(n, k, m))
    x = np.zeros((n, n if m is None else m))
    check_vs_numpy(lambda xp, x: xp.tril_indices_from(x, k), x)
    check_vs_numpy(lambda xp, x: xp.triu_indices_from(x, k), x)
    check_vs_numpy(lambda xp: xp.diag_indices(n, 3))
    check_vs_numpy(lambda xp, x: xp.diag_indices_from(x), np.zeros((n, n, n)))


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0)])
def test_tri_indices_are_contiguous_owners_as_numpy(n, m, k):
    # NumPy's are C-contiguous int64 arrays owning their memory (not nonzero's strided views)
    def layout(arrays):
        return [(a.dtype, a.strides, a.flags.c_contiguous, a.flags.owndata, a.flags.writeable)
                for a in arrays]

    for name in ("tril_indices", "triu_indices"):
        want, got = getattr(np, name)(n, k, m), getattr(xnp, name)(n, k, m)
        assert layout(got) == layout(want), name
        assert not xnp.shares_memory(got[0], got[1])
        jitted = xnp.jit(lambda: getattr(xnp, name)(n, k, m))()
        for g, w in zip(jitted, want):
            assert g.dtype == w.dtype and g.tolist() == w.tolist()
    want, got = np.diag_indices(n, 3), xnp.diag_indices(n, 3)
    assert layout(got) == layout(want) and got[0] is got[1] and want[0] is want[1]


def test_indices_select_elements():
    a = np.arange(16.).reshape(4, 4)
    np.testing.assert_array_equal(np.asarray(xnp.asarray(a)[xnp.triu_indices(4, 1)]),
                                  a[np.triu_indices(4, 1)])


@pytest.mark.parametrize("case", grid(n_=[0, 1, 4], N=[None, 0, 1, 3], increasing=[False, True],
                                      dtype=[np.dtype(t) for t in (np.bool_, np.uint8, np.int32,
                                                                   np.float32, np.float64,
                                                                   np.complex128)], n=30))
def test_vander_matches_numpy(case, rng):
    x = make_array(rng, (case.n_,), case.dtype)
    check_vs_numpy(lambda m, x: m.vander(x, case.N, case.increasing), x, kind="reduction")


@pytest.mark.parametrize("case", grid(shape=[(2, 3), (2, 3, 4), (0, 3)], k=[-1, 0, 1, 2, 3, 6],
                                      axes=[(0, 1), (1, 0), (-1, 0)], n=30))
def test_rot90_matches_numpy(case, rng):
    x = make_array(rng, case.shape, np.float32)
    check_vs_numpy(lambda m, x: m.rot90(x, case.k, case.axes), x)


@pytest.mark.parametrize("shape,val,wrap", [((3, 3), 5, False), ((5, 2), [1, 2], True),
                                            ((5, 2), [1, 2], False), ((2, 2, 2), 7.9, False),
                                            ((0, 0), 1, False), ((2, 3), [], False)])
def test_fill_diagonal_in_place(shape, val, wrap):
    expected = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    np.fill_diagonal(expected, val, wrap=wrap)
    a = xnp.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    assert xnp.fill_diagonal(a, val, wrap=wrap) is None
    assert_allclose(a, expected)

    def f(b):
        xnp.fill_diagonal(b, val, wrap=wrap)
        return b + 0

    b = xnp.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    assert_allclose(xnp.jit(f)(b), expected)
    assert_allclose(b, expected)  # jit writes the updated argument back


def test_fill_diagonal_traced_value_and_grad():
    def f(x, v):
        y = x * 1.0
        xnp.fill_diagonal(y, v)
        return (y * x).sum()

    x = np.arange(4.).reshape(2, 2)
    gx = xnp.grad(f)(xnp.asarray(x), 3.0)
    assert_allclose(gx, np.array([[3., 2.], [4., 3.]]))  # v on the diagonal, 2x elsewhere
    gv = xnp.grad(xnp.jit(f), argnums=1)(xnp.asarray(x), 3.0)  # y is constant wrt v: jit it
    assert_allclose(gv, np.float64(x[0, 0] + x[1, 1]))
    with pytest.raises(TypeError):
        xnp.fill_diagonal(np.zeros((2, 2)), 1)


def test_grad_and_vmap_of_diag_trace_tril():
    x = np.arange(9.).reshape(3, 3)
    assert_allclose(xnp.grad(lambda a: xnp.trace(a, 1))(xnp.asarray(x)), np.eye(3, k=1))
    assert_allclose(xnp.grad(lambda a: (xnp.diag(a) ** 2).sum())(xnp.asarray(x[0])), 2 * x[0])
    assert_allclose(xnp.grad(lambda a: xnp.tril(a).sum())(xnp.asarray(x)), np.tri(3))
    xs = np.arange(24.).reshape(2, 3, 4)
    assert_allclose(xnp.vmap(xnp.diagonal)(xnp.asarray(xs)), np.diagonal(xs, 0, 1, 2))
    assert_allclose(xnp.vmap(lambda v: xnp.diag(v, -1))(xnp.asarray(xs[0])),
                    np.stack([np.diag(v, -1) for v in xs[0]]))


def test_static_arguments_are_required():
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda x, k: xnp.diag(x, k))(xnp.ones(3), 1)
    assert xnp.jit(lambda x, k: xnp.tril(x, k), static_argnums=1)(xnp.ones((2, 2)), 0).shape == (
        2, 2)

