"""NumPy-surface tests of ``xnp/numpy_api/einsum.py``: ``einsum`` (string and sublist
forms, ellipsis, implicit output, diagonals, broadcasting, every ``optimize`` mode,
dtypes) and ``einsum_path`` against NumPy, eager + jit + eval_jaxpr; errors; grad vs
finite differences; vmap."""

import warnings

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


@pytest.mark.parametrize("subscripts,odt,casting", [
    ("ij,jk->ik", np.float64, "safe"), ("ij,jk->ik", np.complex128, "safe"),
    ("ij,jk->ik", np.float32, "unsafe"), ("ij,jk->ik", np.float32, "safe"),
    ("ij->j", np.float64, "safe"), ("ij->ji", np.float64, "no"), ("ij->ij", np.int64, "safe"),
])
def test_einsum_out_writes_the_result_as_numpy(subscripts, odt, casting, rng):
    """``out=`` receives the result cast under ``casting`` (NumPy's TypeError where it does
    not cast) and is returned, eagerly, into a NumPy array and under jit."""
    a, b = make_array(rng, (2, 3), np.float64), make_array(rng, (3, 4), np.float64)
    ops = (a, b) if "," in subscripts else (a,)
    shape = np.einsum(subscripts, *ops).shape
    want = np.zeros(shape, odt)
    try:
        np.einsum(subscripts, *ops, out=want, casting=casting)
    except TypeError:
        with pytest.raises(TypeError, match="cast"):
            xnp.einsum(subscripts, *map(xnp.asarray, ops), out=xnp.zeros(shape, odt),
                       casting=casting)
        return
    out = xnp.zeros(shape, odt)
    assert xnp.einsum(subscripts, *map(xnp.asarray, ops), out=out, casting=casting) is out
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6 if odt == np.float32 else 1e-13)
    host = np.zeros(shape, odt)
    xnp.einsum(subscripts, *map(xnp.asarray, ops), out=host, casting=casting)
    np.testing.assert_array_equal(host, np.asarray(out))
    jout = xnp.zeros(shape, odt)
    xnp.jit(lambda o, *xs: xnp.einsum(subscripts, *xs, out=o, casting=casting))(
        jout, *map(xnp.asarray, ops))
    np.testing.assert_allclose(np.asarray(jout), want, rtol=1e-6 if odt == np.float32 else 1e-13)


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


# --------------------------------------------------------------------------- dtype= and casting

def _call(fn):
    """``(outcome, warning categories)`` of ``fn()``: ``("ok", value)`` or ``("raise", e)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = ("ok", fn())
        except Exception as e:  # noqa: BLE001  (the oracle's class is compared)
            out = ("raise", e)
    return out, [w.category for w in caught]


def _check_like_numpy(got, want, where):
    (g, gw), (w, ww) = got, want
    assert gw == ww, f"{where}: warnings {gw} vs NumPy's {ww}"
    if w[0] == "raise":
        cls = type(w[1])
        while cls.__name__.startswith("_"):  # (NumPy's private subclasses: their public base)
            cls = cls.__mro__[1]
        assert g[0] == "raise" and isinstance(g[1], cls), f"{where}: {g[1]!r} vs {w[1]!r}"
        return
    assert g[0] == "ok", f"{where}: xnp raised {g[1]!r}, NumPy gave {w[1]!r}"
    gv, wv = np.asarray(g[1]), np.asarray(w[1])
    assert gv.dtype == wv.dtype and gv.shape == wv.shape, f"{where}: {gv!r} vs {wv!r}"
    np.testing.assert_array_equal(gv, wv, err_msg=where)


_C = np.array([[1 + 2j, 3 - 1j], [2 + 0j, -1j]])
_F = np.array([[1.5, -2.5], [0.5, 4.0]])
_OPERANDS = {  # subscripts and operands: sums or not, one operand (a view in NumPy) or more
    "c ij->": ("ij->", _C), "c ij->ji": ("ij->ji", _C), "c ii->i": ("ii->i", _C),
    "c,f ij,jk": ("ij,jk", _C, _F), "f,f32 ij,ij->i": ("ij,ij->i", _F, _F.astype(np.float32)),
    "i,f ij,j": ("ij,j", np.array([[1, 2], [3, 4]]), _F[0]), "f ij": ("ij", _F),
    "b,i8 ij,ij->ij": ("ij,ij->ij", _F > 1, np.array([[-1, 2], [3, 4]], np.int8)),
    "c,c i,i->": ("i,i->", _C[0], _C[1]),
}


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("dtype", [None, np.float64, np.float32, np.int64, np.uint8,
                                   np.complex64, np.complex128, np.bool_], ids=str)
@pytest.mark.parametrize("case", sorted(_OPERANDS))
def test_einsum_dtype_and_casting_match_numpy(case, dtype, casting):
    # NumPy casts every operand to the compute dtype (dtype=, or the operands' result dtype)
    # under `casting` (TypeError otherwise, also without dtype=), with a ComplexWarning per
    # complex operand cast to a real or integer dtype; one operand of which nothing is summed
    # is returned as a view, dtype= and casting unused. Dtype-only: the same under jit
    # (its warnings at the trace, the first call).
    subscripts, *ops = _OPERANDS[case]

    def body(xp, *a):
        return xp.einsum(subscripts, *a, dtype=dtype, casting=casting)

    want = _call(lambda: body(np, *ops))
    xops = [xnp.asarray(o) for o in ops]
    for how in ("eager", "replay"):
        _check_like_numpy(_call(lambda: body(xnp, *xops)), want, how)
    _check_like_numpy(_call(lambda: xnp.jit(lambda *a: body(xnp, *a))(*xops)), want, "jit")


def test_einsum_casting_errors_name_operand_and_dtypes():
    with pytest.raises(TypeError, match=r"xnp\.einsum: cannot cast operand 1 \(`operands\[1\]`, "
                                        r"float32\[2\]\) from float32 to float64 with casting "
                                        r"rule 'no'"):
        xnp.einsum("i,i", xnp.ones(2), xnp.ones(2, np.float32), casting="no")
    with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
        xnp.einsum("i->", xnp.asarray(_C[0]), dtype=np.float64, casting="unsafe")


def test_einsum_python_int_operands_are_numpys_asarray():
    # numpy.asarray's conversion (not NEP 50's weak scalar): 2**63 is uint64, beside int64 the
    # product is float64; 300 beside int8 is int64
    for dtype, value in ((np.uint64, 2**63), (np.int64, 2**63), (np.int8, 300)):
        a = np.array([1, 2], dtype)
        want = _call(lambda: np.einsum("i,->i", a, value))
        for how in ("eager", "replay"):
            _check_like_numpy(_call(lambda: xnp.einsum("i,->i", xnp.asarray(a), value)), want,
                              how)
        _check_like_numpy(_call(lambda: xnp.jit(lambda x: xnp.einsum("i,->i", x, value))(
            xnp.asarray(a))), want, "jit")


def test_einsum_signed_zero_start_keeps_the_derivative():
    # a sum of one product (or of one element) is restated from +0.0; its derivative stays
    # the other factor (1 for a plain sum) at 0 too
    x0 = xnp.asarray(np.array([0.0]))
    for f, want in ((lambda x: xnp.einsum("i,i", x, xnp.asarray(np.array([3.0]))), [3.0]),
                    (lambda x: xnp.einsum("ij->i", x[None])[0], [1.0]),
                    (lambda x: xnp.einsum("i,j->ij", x, xnp.asarray(np.array([2.0])))[0, 0],
                     [2.0])):
        for g in (xnp.grad(f), xnp.jit(xnp.grad(f))):
            assert np.asarray(g(x0)).tolist() == want


# --------------------------------------------------------------------------- memory order

def _layout_operands(shapes, order, dtype, seed):
    rng = np.random.default_rng(seed)
    ops = [(rng.integers(-2, 3, s) > 0 if dtype == np.bool_ else rng.integers(-2, 3, s))
           .astype(dtype) for s in shapes]
    if order == "F":
        return [np.asfortranarray(o) for o in ops]
    if order == "T":  # transposed, as a view of a row-major array
        return [np.ascontiguousarray(o.T).T for o in ops]
    return ops


LAYOUT_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...j,jk->...k", [(2, 3, 4), (4, 5)]), ("ijk,kl->il", [(2, 3, 4), (4, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]), ("ij,jk,kl->li", [(3, 4), (4, 5), (5, 2)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]), ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->ji", [(3, 4), (3, 4)]), ("i,j->ij", [(3,), (4,)]), ("ijk,jk->i", [(2, 3, 4), (3, 4)]),
    ("ijk,ik->kj", [(2, 3, 4), (2, 4)]), ("ij,jk->ik", [(3, 1), (1, 5)]),
    ("ijk->kj", [(2, 3, 4)]), ("iij->ji", [(3, 3, 2)]), ("i,i,i->i", [(3,), (3,), (3,)]),
    ("ij,j,jk->ki", [(3, 4), (4,), (4, 5)]),
]


@pytest.mark.parametrize("dtype", [np.bool_, np.int64, np.float64], ids=str)
@pytest.mark.parametrize("order", ["C", "F", "T"])
@pytest.mark.parametrize("optimize", [True, "optimal", False])
@pytest.mark.parametrize("subscripts,shapes", LAYOUT_CASES)
def test_einsum_result_has_numpys_memory_order(subscripts, shapes, optimize, order, dtype):
    # NumPy's layout (order='K'): a path takes each pair later operand first and contracts it
    # with matmul, whose row-major result is transposed to the output ('ij,jk->ik' of
    # row-major operands is column-major), or multiplies it; c_einsum lays its new array out
    # after the operands. Small integers: the sums are exact whatever their order.
    ops = _layout_operands(shapes, order, dtype, seed=len(subscripts))
    want = np.einsum(subscripts, *ops, optimize=optimize)
    for operands in ([xnp.asarray(o) for o in ops], ops):
        for how in ("eager", "replay"):
            got = np.asarray(xnp.einsum(subscripts, *operands, optimize=optimize))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), how
            assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
                want.flags.c_contiguous, want.flags.f_contiguous), (how, got.strides, want.strides)
    got = xnp.jit(lambda *a: xnp.einsum(subscripts, *a, optimize=optimize))(*ops)
    assert np.asarray(got).tobytes() == want.tobytes()


def test_einsum_implicit_output_sorts_labels_as_numpy():
    # NumPy's implicit output: the labels used once in character order (upper case first)
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    for subscripts, ops in (("aB", [a]), ("Ba", [a]), ("aB,Bc", [a, b]), ("aC,Cb", [a, b]),
                            ("...aB", [a[None]]), ("Ab,bA", [a, a.T])):
        check_vs_numpy(lambda xp, *o: xp.einsum(subscripts, *o), *ops, kind="reduction")


_B = np.array([[True, False, True], [True, True, False]])
_I8 = np.array([[100, 7, -3], [90, 1, 2], [50, 0, 1]], np.int8)
STEP_DTYPE_CASES = [  # (subscripts, operands, optimize)
    ("i,j->", [_B[0], np.array([2, 3])], True),
    ("ij,j->", [_B, np.array([2, 3, 4])], True),
    ("A,bAb->", [_B[1, :2], np.ones((1, 1, 1))], True),
    ("ij,jk->ik", [_B, _B.T.astype(np.int64)], True),
    ("ij,jk,kl->il", [_B, _B.T, np.array([[2, 5], [3, 7]])], ["einsum_path", (0, 1), (0, 1)]),
    ("ij,jk,kl->il", [_B.astype(np.int8) * 60, _B.T.astype(np.int8) * 70,
                      np.array([[1, 2], [3, 4]])], ["einsum_path", (0, 1), (0, 1)]),
    ("ij,jk,k->i", [_I8, _I8, np.array([1, 2, 3])], ["einsum_path", (0, 1), (0, 1)]),
]


@pytest.mark.parametrize("case", range(len(STEP_DTYPE_CASES)))
def test_einsum_path_computes_each_step_in_its_operands_dtype(case):
    # NumPy's path runs each step in its operands' result dtype: two bool operands are
    # contracted with logical OR (and a pair's labels of one operand summed in that
    # operand's dtype first), two int8 ones wrap around in int8, before the next step
    # promotes; optimize=False is one sum in the common dtype
    subscripts, ops, optimize = STEP_DTYPE_CASES[case]
    for opt in (optimize, False):
        want = np.einsum(subscripts, *ops, optimize=opt)
        for how in ("eager", "replay"):
            got = xnp.einsum(subscripts, *[xnp.asarray(o) for o in ops], optimize=opt)
            assert np.asarray(got).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"{how} {opt}")
        got = xnp.jit(lambda *a: xnp.einsum(subscripts, *a, optimize=opt))(*ops)
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"jit {opt}")


@pytest.mark.parametrize("subscripts,dtypes,odt", [
    ("i,i->i", (np.int8, np.int8), np.int16), ("ij,jk->ik", (np.bool_, np.bool_), np.int64),
    ("ij->", (np.float32,), np.float64), ("ij,jk->ik", (np.float32, np.float32), np.complex128),
])
def test_einsum_computes_in_the_operands_and_outs_dtype(subscripts, dtypes, odt):
    """NumPy's einsum into ``out`` computes in the result dtype of the operands and
    ``out`` (int8 products into an int16 ``out`` do not wrap in int8). (With ``optimize``
    NumPy's tensordot steps keep the operands' dtype, its c_einsum steps do not.)"""
    optimize = False
    shapes = {"i,i->i": [(3,), (3,)], "ij,jk->ik": [(2, 3), (3, 2)], "ij->": [(2, 3)]}
    base = [np.array([2**24 + 1, 3, 5, 7, 100, 1]), np.array([100, 9, 2, 1, 6, 100])]
    ops = [base[i][:int(np.prod(s))].reshape(s).astype(d)
           for i, (s, d) in enumerate(zip(shapes[subscripts], dtypes))]
    want = np.zeros(np.einsum(subscripts, *ops).shape, odt)
    np.einsum(subscripts, *ops, out=want, optimize=optimize)
    out = xnp.zeros(want.shape, odt)
    xnp.einsum(subscripts, *map(xnp.asarray, ops), out=out, optimize=optimize)
    np.testing.assert_array_equal(np.asarray(out), want)
    jout = xnp.zeros(want.shape, odt)
    xnp.jit(lambda o, *xs: xnp.einsum(subscripts, *xs, out=o, optimize=optimize))(
        jout, *map(xnp.asarray, ops))
    np.testing.assert_array_equal(np.asarray(jout), want)


def test_einsum_out_tuple_refused():
    with pytest.raises(TypeError):
        np.einsum("i->i", np.ones(3), out=(np.zeros(3),))
    with pytest.raises(TypeError, match="tuple"):
        xnp.einsum("i->i", xnp.ones(3), out=(xnp.zeros(3),))
