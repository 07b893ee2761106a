"""NumPy-surface tests of ``xnp/numpy_api/products.py`` (dot, matmul, vdot, inner, outer,
tensordot, vecdot, and the values of matvec/vecmat) against NumPy: every shape case of each
function, dtype promotion (bfloat16 with float16 and wide integers too), bool products,
errors with NumPy's classes, the jaxpr of a ``dot``, and the eager replay of a vector
product as one ``dot_general``."""

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import (ALL, NUMERIC, assert_allclose, axes_labels, check_vs_numpy,
                           covering_grid, grid, make_array)

# (shape of a, shape of b): scalars, vectors, matrices, stacks, empty dims, mismatches
DOT_SHAPES = [
    ((), ()), ((), (3,)), ((2, 3), ()), ((4,), (4,)), ((0,), (0,)), ((3, 4), (4,)),
    ((3, 4), (4, 5)), ((2, 3, 4), (4,)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (5, 4, 2)),
    ((4,), (4, 2)), ((0, 4), (4, 3)), ((3, 0), (0, 2)), ((3, 4), (5,)), ((2, 3, 4), (2, 5, 3)),
]
MATMUL_SHAPES = [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (6, 4, 2)), ((0, 3, 4), (4, 2)), ((3, 0), (0, 2)),
    ((3, 4), (5, 2)), ((4,), (5,)), ((), (3,)), ((3,), ()), ((2, 3, 4), (3, 4, 2)),
]
INNER_SHAPES = [((), (3,)), ((4,), (4,)), ((2, 4), (4,)), ((2, 4), (3, 4)), ((2, 3, 4), (5, 4)),
                ((0, 4), (2, 4)), ((3,), (4,))]
VECDOT_SHAPES = [((4,), (4,)), ((3, 4), (4,)), ((2, 1, 4), (3, 4)), ((0, 4), (4,)),
                 ((3, 4), (3, 5)), ((), (3,)), ((2, 3), (4, 3))]


# ml_dtypes registers numpy.matmul/vecdot loops bfloat16 x bfloat16 -> float32; xnp keeps the
# promoted operand dtype (bfloat16), as numpy.dot does (test_bfloat16_matmul_keeps_dtype).
NO_BF16 = [d for d in ALL if d.name != "bfloat16"]
NUMERIC_NO_BF16 = [d for d in NUMERIC if d in NO_BF16]


def _pair(case, rng):
    a_shape, b_shape = case.shapes
    return make_array(rng, a_shape, case.dtype), make_array(rng, b_shape, case.dtype)


# sampled (all with --full-grid): every dtype, each shape case with an exact (bool,
# integer) and an inexact dtype
@pytest.mark.parametrize("case", covering_grid(
    shapes=DOT_SHAPES, dtype=ALL, n=30, seed=11,
    labels=lambda c: axes_labels(c, "dtype") + [("shapes x inexact", repr(c.shapes),
                                                 c.dtype.kind in "fcV")]))
def test_dot_matches_numpy(case, rng):
    check_vs_numpy(lambda xp, a, b: xp.dot(a, b), *_pair(case, rng), kind="reduction")


# sampled (all with --full-grid): every dtype, each shape case with an exact (bool,
# integer) and an inexact dtype (a random 60 of before missed a shape case)
@pytest.mark.parametrize("case", covering_grid(
    shapes=MATMUL_SHAPES, dtype=NO_BF16, n=36, seed=12,
    labels=lambda c: axes_labels(c, "dtype") + [("shapes x inexact", repr(c.shapes),
                                                 c.dtype.kind in "fcV")]))
def test_matmul_matches_numpy(case, rng):
    check_vs_numpy(lambda xp, a, b: xp.matmul(a, b), *_pair(case, rng), kind="reduction")


@pytest.mark.parametrize("fname", ["inner", "outer", "vdot"])
@pytest.mark.parametrize("case", grid(shapes=INNER_SHAPES, dtype=ALL, n=20, seed=13))
def test_inner_outer_vdot_match_numpy(fname, case, rng):
    check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), *_pair(case, rng),
                   kind="reduction")


@pytest.mark.parametrize("case", grid(shapes=VECDOT_SHAPES, dtype=NUMERIC_NO_BF16,
                                      axis=[-1, 0], n=20, seed=14))
def test_vecdot_matches_numpy(case, rng):
    check_vs_numpy(lambda xp, a, b: xp.vecdot(a, b, axis=case.axis), *_pair(case, rng),
                   kind="reduction")


@pytest.mark.parametrize("shapes,axes", [
    (((3, 4), (4, 5)), 1), (((2, 3, 4), (3, 4, 5)), 2), (((2, 3), (4,)), 0),
    (((2, 3, 4), (4, 3, 2)), ([1, 2], [1, 0])), (((2, 3, 4), (4, 2)), (-1, 0)),
    (((3, 4), (4, 5)), 3), (((3, 4), (5, 4)), 1), (((3, 4), (4, 3)), ([0], [0, 1])),
    (((3, 4), (4, 5)), ([2], [0])), (((0, 4), (4, 0)), 1), (((), ()), 0),
])
def test_tensordot_matches_numpy(shapes, axes, rng):
    a = make_array(rng, shapes[0], np.float64)
    b = make_array(rng, shapes[1], np.float64)
    check_vs_numpy(lambda xp, a, b: xp.tensordot(a, b, axes=axes), a, b, kind="reduction")


# --------------------------------------------------------------------------- promotion


@pytest.mark.parametrize("fname", ["dot", "matmul", "inner", "vdot", "outer"])
@pytest.mark.parametrize("dtypes", [(np.int8, np.uint8), (np.int32, np.float32),
                                    (np.float16, np.float32), (np.bool_, np.int16),
                                    (np.float32, np.complex64), (np.int64, np.uint64)])
def test_mixed_dtypes_promote_like_numpy(fname, dtypes, rng):
    a = make_array(rng, (3,), dtypes[0])
    b = make_array(rng, (3,), dtypes[1])
    check_vs_numpy(lambda xp, a, b: getattr(xp, fname)(a, b), a, b, kind="reduction")


def test_python_scalars_are_not_weak(rng):
    a = make_array(rng, (3,), np.int8)
    check_vs_numpy(lambda xp, a: xp.dot(2, a), a)  # NumPy: int64, not int8
    f = make_array(rng, (3,), np.float32)
    check_vs_numpy(lambda xp, f: xp.dot(f, 2.5), f)  # float64
    check_vs_numpy(lambda xp: xp.inner(2, 3))


def test_bfloat16_matmul_keeps_dtype(rng):
    a = make_array(rng, (3, 4), ml_dtypes.bfloat16)
    b = make_array(rng, (4, 2), ml_dtypes.bfloat16)
    expected = np.matmul(a, b).astype(ml_dtypes.bfloat16)
    for fn in (xnp.matmul, xnp.jit(xnp.matmul)):
        res = fn(a, b)
        assert res.dtype == ml_dtypes.bfloat16
        assert_allclose(res, expected, kind="reduction")


# bfloat16 with an operand it has no common NumPy dtype with: NumPy's ufunc loop dtype, as
# xnp.add gives (float16 -> float32, int32/int64 -> float64); with int8 or bool, bfloat16
# (NumPy's matmul: float32, its bfloat16 x bfloat16 loop; see test_bfloat16_matmul_keeps_dtype)
BF16_MIXED = [(np.float16, np.float32), (np.int32, np.float64), (np.int64, np.float64),
              (np.int8, ml_dtypes.bfloat16), (np.bool_, ml_dtypes.bfloat16)]
_BF16_UFUNCS = 5  # the first products of _bf16_products: NumPy computes these itself


def _bf16_products(xp, a, v, m):  # a: bfloat16[3,4]; v: [4], m: [4,2] of the other dtype
    return (xp.matmul(a, m), xp.vecdot(a, v), xp.matvec(a, v), xp.vecmat(a[0], m),
            xp.outer(a[0], v), xp.asarray(a) @ v, xp.matmul(m.T, a.T), xp.dot(a, m),
            xp.vdot(a[0], v), xp.inner(a, v), xp.tensordot(a, m, 1))


def test_bfloat16_with_float16_and_wide_integers(rng):
    cases, expected = [], []
    for other, dtype in BF16_MIXED:
        assert xnp.add(xnp.ones(1, ml_dtypes.bfloat16), xnp.ones(1, other)).dtype == dtype
        a = rng.integers(-4, 5, (3, 4)).astype(ml_dtypes.bfloat16)  # exact in every dtype
        v, m = make_array(rng, (4,), other), make_array(rng, (4, 2), other)
        ref = _bf16_products(np, *(t.astype(np.float32) for t in (a, v, m)))
        if other in (np.float16, np.int32, np.int64):  # NumPy's own results
            ref = _bf16_products(np, a, v, m)[:_BF16_UFUNCS] + ref[_BF16_UFUNCS:]
        expected.append([np.asarray(r).astype(dtype) for r in ref])
        cases.append((a, v, m))
    assert_allclose([_bf16_products(xnp, *c) for c in cases], expected, kind="reduction")
    # under jit (the same promotion; a few products, to keep compilation short)
    pick = [(0, 1), (1, 2), (4, 7)]  # matmul, vecdot / vecdot, matvec / outer, dot
    got = xnp.jit(lambda cs: [[_bf16_products(xnp, *c)[i] for i in pick[k % 3]]
                              for k, c in enumerate(cs[:3])])(cases)
    assert_allclose(got, [[e[i] for i in pick[k]] for k, e in enumerate(expected[:3])],
                    kind="reduction")


def test_matmul_dtype_argument(rng):
    a = make_array(rng, (3, 4), np.int16)
    b = make_array(rng, (4, 2), np.int16)
    check_vs_numpy(lambda xp, a, b: xp.matmul(a, b, dtype=np.float64), a, b, kind="reduction")
    with pytest.raises(TypeError, match="same_kind"):
        xnp.matmul(np.ones((2, 2)), np.ones((2, 2)), dtype=np.int32)
    b = np.arange(4.0).reshape(2, 2)   # the gufunc axes= (xnp.matmul is a ufunc object)
    assert_allclose(xnp.matmul(np.ones((2, 2)), b, axes=[(0, 1), (1, 0), (1, 0)]),
                    np.matmul(np.ones((2, 2)), b, axes=[(0, 1), (1, 0), (1, 0)]))


def test_out_argument(rng):
    a, b = make_array(rng, (3, 4), np.float64), make_array(rng, (4,), np.float64)
    out = xnp.zeros(3)
    assert xnp.dot(a, b, out=out) is out
    np.testing.assert_allclose(np.asarray(out), a @ b)


# --------------------------------------------------------------------------- casting=

GUFUNC_SHAPES = {"matmul": ((3, 4), (4, 2)), "vecdot": ((3, 4), (4,)),
                 "matvec": ((3, 4), (4,)), "vecmat": ((4,), (4, 2))}
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
CASTING_DTYPES = [(np.float64, np.float64), (np.float32, np.float32), (np.int32, np.int32),
                  (np.float32, np.float64), (np.float64, np.float32), (np.int64, np.float64),
                  (np.float32, np.int16)]


def _check_casting(body, *args, jaxpr=True, rtol=None):
    """``check_vs_numpy``, except that NumPy's ``UFuncTypeError`` is matched by its public
    class ``TypeError`` (eagerly and under jit), with a message naming the casting rule."""
    try:
        body(np, *[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except TypeError:
        xargs = [xnp.asarray(a) for a in args]
        for run in (lambda: body(xnp, *xargs),
                    lambda: xnp.jit(lambda *a: body(xnp, *a))(*xargs)):
            with pytest.raises(TypeError, match="with casting rule"):
                run()
        return
    check_vs_numpy(body, *args, kind="reduction", jaxpr=jaxpr, rtol=rtol)


def _gufunc_operands(fname, dtypes, rng):
    return (make_array(rng, GUFUNC_SHAPES[fname][0], dtypes[0]),
            make_array(rng, GUFUNC_SHAPES[fname][1], dtypes[1]))


@pytest.mark.parametrize("fname", list(GUFUNC_SHAPES))
@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("dtypes", CASTING_DTYPES)
def test_gufunc_casting_matches_numpy(fname, casting, dtypes, rng):
    a, b = _gufunc_operands(fname, dtypes, rng)
    _check_casting(lambda xp, a, b: getattr(xp, fname)(a, b, casting=casting), a, b)


@pytest.mark.parametrize("fname", list(GUFUNC_SHAPES))
@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("dtypes,dtype", [((np.float64, np.float64), np.float32),
                                          ((np.float32, np.float32), np.float64),
                                          ((np.int64, np.int64), np.float64),
                                          ((np.float32, np.float64), np.int32),
                                          ((np.float32, np.float32), np.float32)])
def test_gufunc_casting_with_dtype_matches_numpy(fname, casting, dtypes, dtype, rng):
    a, b = _gufunc_operands(fname, dtypes, rng)
    _check_casting(lambda xp, a, b: getattr(xp, fname)(a, b, dtype=dtype, casting=casting),
                   a, b)


@pytest.mark.parametrize("fname", list(GUFUNC_SHAPES))
@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("dtypes,out_dtype", [((np.float32, np.float32), np.float64),
                                              ((np.float64, np.float64), np.float32),
                                              ((np.float64, np.float32), np.int32),
                                              ((np.int16, np.int16), np.int16)])
def test_gufunc_casting_with_out_matches_numpy(fname, casting, dtypes, out_dtype, rng):
    a, b = _gufunc_operands(fname, dtypes, rng)
    out_shape = {"matmul": (3, 2), "vecdot": (3,), "matvec": (3,), "vecmat": (2,)}[fname]

    def body(xp, a, b, out):
        res = getattr(xp, fname)(a, b, out=out, casting=casting)
        assert res is out
        return out + 0

    # a float32 product written into float64 is compared at float32's precision
    _check_casting(body, a, b, np.zeros(out_shape, out_dtype), jaxpr=False,
                   rtol=1e-5 if np.float32 in dtypes else None)


@pytest.mark.parametrize("fname", list(GUFUNC_SHAPES))
def test_gufunc_casting_errors_name_function_argument_and_dtypes(fname, rng):
    a, b = _gufunc_operands(fname, (np.float32, np.float64), rng)
    for f in (getattr(xnp, fname), xnp.jit(getattr(xnp, fname), static_argnames="casting")):
        with pytest.raises(TypeError, match=rf"xnp\.{fname}: cannot cast input 0 \(`x1`\) "
                                            r"from float32 to float64 with casting rule 'no'"):
            f(a, b, casting="no")
    with pytest.raises(TypeError, match=rf"xnp\.{fname}: cannot cast input 1 \(`x2`\) "
                                        r"from float64 to float32 with casting rule 'safe'"):
        getattr(xnp, fname)(a, b, dtype=np.float32, casting="safe")
    out = xnp.zeros(np.asarray(getattr(np, fname)(a, b)).shape, np.float32)
    with pytest.raises(TypeError, match=rf"xnp\.{fname}: cannot cast the result from float64 "
                                        r"to `out` dtype float32 with casting rule 'equiv'"):
        getattr(xnp, fname)(a.astype(np.float64), b, out=out, casting="equiv")


def test_gufunc_casting_through_axes_and_mismatch_names_the_function(rng):
    a, b = make_array(rng, (4, 3), np.float32), make_array(rng, (2, 4), np.float64)
    axes = [(1, 0), (1, 0), (1, 0)]
    _check_casting(lambda xp, a, b: xp.matmul(a, b, axes=axes, casting="no"), a, b)
    out = np.zeros((2, 3), np.float32)
    _check_casting(lambda xp, a, b, o: xp.matmul(a, b, axes=axes, out=o, casting="safe"),
                   a, b, out, jaxpr=False)
    _check_casting(lambda xp, a, b, o: xp.matmul(a, b, axes=axes, out=o, casting="unsafe") + 0,
                   a, b, out, jaxpr=False)
    for fname, shapes in (("matvec", ((3, 4), (5,))), ("vecmat", ((5,), (4, 2)))):
        x, y = np.ones(shapes[0]), np.ones(shapes[1])
        with pytest.raises(ValueError, match=rf"xnp\.{fname}: Input operand 1 has a mismatch"):
            getattr(xnp, fname)(x, y)


def test_matmul_operator(rng):
    a, b = make_array(rng, (2, 3, 4), np.float32), make_array(rng, (4, 2), np.float32)
    check_vs_numpy(lambda xp, a, b: a @ b, a, b, kind="reduction")
    check_vs_numpy(lambda xp, a, b: a.dot(b), a, b, kind="reduction")


def test_integer_overflow_wraps_like_numpy():
    a = np.full((2, 40), 100, np.int8)
    b = np.full((40, 3), 7, np.int8)
    check_vs_numpy(lambda xp, a, b: xp.matmul(a, b), a, b)
    check_vs_numpy(lambda xp, a, b: xp.dot(a.astype(np.uint8), b.astype(np.uint8)), a, b)


# --------------------------------------------------------------------------- errors and jaxprs


def test_error_messages():
    with pytest.raises(ValueError, match=r"xnp.matmul: Input operand 1 has a mismatch in its "
                                         r"core dimension 0.*\(3,4\) and \(5,2\)"):
        xnp.matmul(xnp.ones((3, 4)), xnp.ones((5, 2)))
    with pytest.raises(ValueError, match=r"xnp.dot: shapes \(3,4\) and \(5,\) not aligned"):
        xnp.jit(xnp.dot)(np.ones((3, 4)), np.ones(5))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        xnp.matmul(1.0, xnp.ones(3))
    with pytest.raises(ValueError, match="could not be broadcast"):
        xnp.matmul(xnp.ones((2, 3, 4)), xnp.ones((3, 4, 2)))
    with pytest.raises(ValueError, match="same number of elements"):
        xnp.vdot(xnp.ones(3), xnp.ones(4))


def _norm(text):
    return " ".join(str(text).split())


def test_dot_jaxpr_exact():
    np.random.seed(0)
    x = np.random.randn(3, 4)
    y = np.random.randn(4)
    j = xnp.make_jaxpr(lambda x, y: xnp.dot(x + 1, y + 1))(x, y)
    expected = """{ lambda ; a:f64[3,4] b:f64[4]. let
    c:f64[3,4] = add a 1.0:f64[]
    d:f64[4] = add b 1.0:f64[]
    e:f64[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float64
    ] c d
  in (e,) }"""
    assert str(j) == expected
    out = xnp.jit(lambda x, y: xnp.dot(x + 1, y + 1))(x, y)
    np.testing.assert_allclose(np.asarray(out), np.dot(x + 1, y + 1), rtol=1e-12)


def test_lowering_uses_highest_precision():
    text = xnp.jit(xnp.matmul).lower(np.ones((2, 3, 4), np.float32),
                                     np.ones((2, 4, 5), np.float32)).as_text()
    assert "stablehlo.dot_general" in text and "HIGHEST" in text
    assert "batching_dims = [0] x [0]" in text and "contracting_dims = [2] x [1]" in text


# --------------------------------------------------------------------------- eager replays

# every branch of matvec/vecmat/vecdot (loops equal, one operand without loops: one
# dot_general; loops that broadcast) and whether a call records one dot_general alone
VECTOR_PRODUCTS = [
    ("matvec", (3, 4), (4,), {}, True), ("matvec", (2, 3, 4), (2, 4), {}, True),
    ("matvec", (3, 4), (2, 4), {}, False), ("vecmat", (2, 4), (2, 4, 3), {}, True),
    ("vecmat", (2, 4), (4, 3), {}, True), ("vecmat", (4,), (2, 4, 3), {}, True),
    ("vecmat", (2, 1, 4), (3, 4, 2), {}, False), ("vecdot", (5, 3), (5, 3), {}, True),
    ("vecdot", (4,), (3, 4), {}, True), ("vecdot", (2, 1, 4), (3, 4), {}, False),
    # (the ufunc object moves a gufunc `axis` to the end before the call)
    ("vecdot", (2, 3, 4), (2, 3, 4), {"axis": 1}, False),
    ("vecdot", (4, 3), (4,), {"axis": 0}, False),
]


def _replay_program(fn):
    f = type(fn).__call__ if isinstance(fn, xnp.ufunc) else fn
    while getattr(f, "_replay_cache", None) is None:
        f = f.__wrapped__
    ((_, program),) = f._replay_cache.items()
    return program


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32, np.bool_])
def test_vector_products_replay_one_dot_general(dtype, rng):
    # replays (compared with the full path, tests/conftest.py) and jit agree with NumPy
    from xnp.numpy_api import _replay
    for fname, sa, sb, kw, single in VECTOR_PRODUCTS:
        fn = getattr(xnp, fname)
        _replay.clear()
        for _ in range(2):  # recorded, then replayed on other values
            a, b = make_array(rng, sa, dtype), make_array(rng, sb, dtype)
            assert_allclose(fn(xnp.asarray(a), xnp.asarray(b), **kw),
                            getattr(np, fname)(a, b, **kw), kind="reduction")
        if single:  # (after the conjugation of vecdot's/vecmat's complex x1)
            eqns = _replay_program(fn).eqns
            assert len(eqns) == 1 + (dtype == np.complex64 and fname != "matvec"), fname
            assert eqns[-1][1] is None  # the backend's kernel for dot_general: no params
    if dtype == np.complex64:  # the same contractions under jit
        args = [[make_array(rng, s, dtype) for s in case[1:3]] for case in VECTOR_PRODUCTS]
        cases = [(f, kw) for f, _, _, kw, _ in VECTOR_PRODUCTS]
        got = xnp.jit(lambda xs: [getattr(xnp, f)(a, b, **kw)
                                  for (f, kw), (a, b) in zip(cases, xs)])(args)
        assert_allclose(got, [getattr(np, f)(a, b, **kw) for (f, kw), (a, b) in zip(cases, args)],
                        kind="reduction")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.complex128,
                                   np.bool_, ml_dtypes.bfloat16], ids=str)
def test_contractions_without_batch_are_numpys_tensordot_bit_for_bit(dtype):
    # the eager kernel runs numpy.tensordot's steps (the same dot of the same 2-D
    # operands, its plan made once per recorded program): NumPy's values, every call
    rng = np.random.default_rng(5)
    cases = [((3, 4), (5, 4), ([1], [1])), ((3, 4), (4,), 1), ((2, 3, 4), (3, 4), 2),
             ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])), ((0, 4), (5, 4), ([1], [1])),
             ((3, 0), (5, 0), ([1], [1])), ((2, 3), (3, 2), ([0, 1], [1, 0]))]
    for sa, sb, axes in cases:
        a = (rng.standard_normal(sa) * 3).astype(dtype)
        b = (rng.standard_normal(sb) * 3).astype(dtype)
        want = np.tensordot(a, b, axes)
        for _ in range(2):
            got = np.asarray(xnp.tensordot(xnp.asarray(a), xnp.asarray(b), axes))
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), (sa, sb, axes)
    a = (rng.standard_normal((3, 4)) * 3).astype(dtype)
    for _ in range(2):
        got = np.asarray(xnp.inner(xnp.asarray(a), xnp.asarray(a[::-1])))
        assert got.tobytes() == np.inner(a, a[::-1]).tobytes()
