"""NumPy-surface tests of ``xnp/numpy_api/einsum.py``: ``einsum`` (string and sublist
forms, ellipsis, implicit output, diagonals, broadcasting, every ``optimize`` mode,
dtypes) and ``einsum_path`` against NumPy, eager + jit + eval_jaxpr; errors; grad vs
finite differences; vmap."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, central_difference, check_vs_numpy, make_array

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ijk,kl,lj->i", [(2, 3, 4), (4, 5), (5, 3)]),
    ("ijk,kl,lj", [(2, 3, 4), (4, 5), (5, 3)]),
    ("...k,kl->...l", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iji->j", [(2, 3, 2)]),
    ("i,i->i", [(3,), (1,)]),
    ("ij->", [(2, 3)]),
    ("ij->ji", [(2, 3)]),
    ("...", [(2, 3)]),
    ("i,j", [(3,), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    (",ij->ij", [(), (2, 3)]),
    ("i,i", [(0,), (0,)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 2), (2, 5)]),
    ("ab,cd,bc->ad", [(2, 3), (4, 2), (3, 4)]),
]
DTYPES = [np.float64, np.float32, np.int32, np.bool_, np.complex64]


@pytest.mark.parametrize("optimize", [False, True, "optimal"])
@pytest.mark.parametrize("subscripts,shapes", CASES)
def test_einsum_matches_numpy(subscripts, shapes, optimize, rng):
    xs = [make_array(rng, s, np.float64) for s in shapes]
    check_vs_numpy(lambda xp, *xs: xp.einsum(subscripts, *xs, optimize=optimize), *xs,
                   kind="reduction")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("subscripts,shapes", [CASES[0], CASES[2], CASES[6], CASES[10]])
def test_einsum_dtypes(subscripts, shapes, dtype, rng):
    xs = [make_array(rng, s, dtype) for s in shapes]
    check_vs_numpy(lambda xp, *xs: xp.einsum(subscripts, *xs), *xs, kind="reduction")


def test_einsum_mixed_dtypes_and_dtype_argument(rng):
    a, b = make_array(rng, (2, 3), np.float32), make_array(rng, (3,), np.int16)
    check_vs_numpy(lambda xp, a, b: xp.einsum("ij,j->i", a, b), a, b, kind="reduction")
    check_vs_numpy(lambda xp, a, b: xp.einsum("ij,j->i", a, b, dtype=np.float64), a, b,
                   kind="reduction")
    check_vs_numpy(lambda xp, a, b: xp.einsum("ij,j->i", a, b, dtype=np.int16), a, b)
    check_vs_numpy(lambda xp, a, b: xp.einsum("ij,j->i", a, b, dtype=np.float32,
                                              casting="unsafe"), a, b, kind="reduction")


def test_einsum_sublist_form(rng):
    a, b = make_array(rng, (2, 3, 4), np.float64), make_array(rng, (4, 5), np.float64)
    check_vs_numpy(lambda xp, a, b: xp.einsum(a, [0, 1, 2], b, [2, 3], [0, 3]), a, b,
                   kind="reduction")
    check_vs_numpy(lambda xp, a, b: xp.einsum(a, [Ellipsis, 2], b, [2, 3]), a, b,
                   kind="reduction")
    check_vs_numpy(lambda xp, a: xp.einsum(a, [0, 1, 2], [Ellipsis, 2, 0]), a,
                   kind="reduction")


def test_einsum_explicit_path(rng):
    xs = [make_array(rng, s, np.float64) for s in CASES[17][1]]
    path, report = np.einsum_path(CASES[17][0], *xs, optimize="greedy")
    xpath, xreport = xnp.einsum_path(CASES[17][0], *[xnp.asarray(x) for x in xs])
    assert xpath == path
    assert "Complete contraction" in xreport
    check_vs_numpy(lambda xp, *xs: xp.einsum(CASES[17][0], *xs, optimize=path), *xs,
                   kind="reduction")


@pytest.mark.parametrize("optimize", ["greedy", "optimal", False])
@pytest.mark.parametrize("subscripts,shapes", [CASES[2], CASES[17], CASES[18]])
def test_einsum_path_matches_numpy(subscripts, shapes, optimize, rng):
    xs = [make_array(rng, s, np.float64) for s in shapes]
    assert xnp.einsum_path(subscripts, *xs, optimize=optimize)[0] == np.einsum_path(
        subscripts, *xs, optimize=optimize)[0]


@pytest.mark.parametrize("body", [
    lambda xp, a, b: xp.einsum("ij,jk->ik", a, a),          # size mismatch 3 vs 2
    lambda xp, a, b: xp.einsum("ijk,jk->ik", a, b),         # too many labels
    lambda xp, a, b: xp.einsum("ij->k", a),                  # output label not in inputs
    lambda xp, a, b: xp.einsum("ij->ii", a),                 # repeated output label
    lambda xp, a, b: xp.einsum("ij,j", a),                   # too few operands
    lambda xp, a, b: xp.einsum("i$,j", a, b),                # invalid character
    lambda xp, a, b: xp.einsum("ij,j->i", a, b, dtype=np.int32),  # unsafe cast
    lambda xp, a, b: xp.einsum("i.j", a),                    # stray dot
])
def test_einsum_errors(body, rng):
    a, b = make_array(rng, (2, 3), np.float64), make_array(rng, (3,), np.float64)
    check_vs_numpy(body, a, b)


def test_einsum_out_not_supported():
    with pytest.raises(NotImplementedError):
        xnp.einsum("i->i", xnp.ones(3), out=xnp.zeros(3))


@pytest.mark.parametrize("subscripts,shapes", [CASES[0], CASES[2], CASES[6], CASES[5]])
def test_einsum_grad_vs_finite_differences(subscripts, shapes, rng):
    xs = [make_array(rng, s, np.float64) for s in shapes]

    def f(x0):
        return xnp.sum(xnp.sin(xnp.einsum(subscripts, x0, *xs[1:], optimize=True)))

    g = np.asarray(xnp.grad(f)(xnp.asarray(xs[0])))
    v = rng.standard_normal(xs[0].shape)
    np.testing.assert_allclose(np.sum(g * v), central_difference(f, xs[0], v), rtol=1e-6)


def test_einsum_vmap(rng):
    a, b = make_array(rng, (5, 2, 3), np.float64), make_array(rng, (3, 4), np.float64)
    out = xnp.vmap(lambda x: xnp.einsum("ij,jk->ik", x, b))(xnp.asarray(a))
    assert_allclose(out, np.einsum("bij,jk->bik", a, b), kind="reduction")
    m, y = rng.standard_normal((4, 3, 3)), b[:, 0]
    out = xnp.vmap(lambda x, y: xnp.einsum("ii,i", x, y), in_axes=(0, None))(
        xnp.asarray(m), xnp.asarray(y))
    assert_allclose(out, np.einsum("bii,i->b", m, y), kind="reduction")


_M = -0.0
# contractions whose sums are of one product, where NumPy's signs of zero show: its
# c_einsum (optimize=False) sums from +0.0 even where nothing is summed, its pairwise path
# multiplies where no label of size above 1 contracts (after summing each operand's other
# labels from +0.0)
SIGNED_ZERO_CASES = [
    ("ij,ij->", [[_M]], [[1.0]]),
    ("ij,jk->ik", [[_M]], [[1.0]]),
    ("i,j->ij", [_M], [1.0]),
    ("i,i->i", np.array([complex(_M, _M)], np.complex64), np.array([1 + 0j], np.complex64)),
    ("b,ba->a", [-1.0], [[_M]]),
    ("ab,b->a", [[_M]], [1.0, 1.0]),
    ("i,i,i->i", [_M], [1.0], [1.0]),
    ("ii->i", [[_M]]),
]


# also under jit (one compile per optimize mode, so a few): a one-element sum, a sum of
# nothing, complex, and the pairwise forms
JIT_SIGNED_ZERO_CASES = {False: [0, 2, 3], True: [2, 4]}


def _assert_same_zeros(got, want, err_msg):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, err_msg
    for part in ((np.real, np.imag) if want.dtype.kind == "c" else (np.asarray,)):
        np.testing.assert_array_equal(part(got), part(want), err_msg=err_msg)
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)),
                                      err_msg=f"{err_msg}: sign of zero")


@pytest.mark.parametrize("optimize", [False, True])
def test_einsum_signed_zeros_match_numpy(optimize):
    def body(xp, cases, *ops):
        it = iter(ops)
        return [xp.einsum(c[0], *[next(it) for _ in c[1:]], optimize=optimize) for c in cases]

    jit_cases = [SIGNED_ZERO_CASES[i] for i in JIT_SIGNED_ZERO_CASES[optimize]]
    for how, cases in (("eager", SIGNED_ZERO_CASES), ("jit", jit_cases)):
        ops = [np.asarray(x) for c in cases for x in c[1:]]
        want = body(np, cases, *ops)
        xops = [xnp.asarray(x) for x in ops]
        if how == "eager":
            got = body(xnp, cases, *xops)
        else:
            got = xnp.jit(lambda *a: body(xnp, cases, *a))(*xops)
        for c, g, w in zip(cases, got, want):
            _assert_same_zeros(g, w, f"{how} {c[0]} optimize={optimize}")
