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
        if single:  # (after the conjugation of vecdot's complex x1; matvec and vecmat are
            # NumPy's ufuncs, which conjugate themselves)
            eqns = _replay_program(fn).eqns
            assert len(eqns) == 1 + (dtype == np.complex64 and fname not in (
                "matvec", "vecmat")), fname
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


# --------------------------------------------------------------------------- Python ints

def _outcome(fn):
    """``("ok", value)`` or ``("raise", exception)`` of ``fn()``."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001  (the oracle's class is compared)
        return "raise", e


def _same_as_numpy(got, want, where):
    """``got`` (an xnp outcome) is NumPy's ``want``: the value with its dtype and signs of
    zero, or an exception of the same class."""
    if want[0] == "raise":
        assert got[0] == "raise", f"{where}: NumPy raised {want[1]!r}, xnp gave {got[1]!r}"
        assert isinstance(got[1], type(want[1])), f"{where}: {got[1]!r} vs {want[1]!r}"
        return
    assert got[0] == "ok", f"{where}: xnp raised {got[1]!r}, NumPy gave {want[1]!r}"
    if isinstance(want[1], (tuple, list)):
        assert len(got[1]) == len(want[1])
        for i, (g, w) in enumerate(zip(got[1], want[1])):
            _same_as_numpy(("ok", g), ("ok", w), f"{where}, result {i}")
        return
    g, w = np.asarray(got[1]), np.asarray(want[1])
    assert g.dtype == w.dtype and g.shape == w.shape, f"{where}: {g!r} vs {w!r}"
    np.testing.assert_array_equal(g, w, err_msg=where)
    if w.dtype.kind in "fc":
        for part in (np.real, np.imag):
            np.testing.assert_array_equal(np.signbit(part(g)), np.signbit(part(w)),
                                          err_msg=f"{where}: signs of zero")


def _eager_twice_and_jit(body, *args, jit=True):
    """``body(np, *args)`` against xnp's: eagerly twice (the second call replays the recorded
    program), and under jit unless ``jit`` is False."""
    want = _outcome(lambda: body(np, *args))
    xargs = [xnp.asarray(a) for a in args]
    for how in ("eager", "replay"):
        _same_as_numpy(_outcome(lambda: body(xnp, *xargs)), want, how)
    if jit:
        _same_as_numpy(_outcome(lambda: xnp.jit(lambda *a: body(xnp, *a))(*xargs)), want,
                       "jit")
    return want


_NON_UFUNC_PRODUCTS = {
    "dot": lambda xp, a, s: (xp.dot(a, s), xp.dot(s, a)),
    "inner": lambda xp, a, s: (xp.inner(a, s), xp.inner(s, a)),
    "vdot": lambda xp, a, s: (xp.vdot(a[:1], s), xp.vdot(s, a[:1])),
    "outer": lambda xp, a, s: (xp.outer(a, s), xp.outer(s, a)),
    "tensordot": lambda xp, a, s: (xp.tensordot(a, s, 0), xp.tensordot(s, a, 0)),
    "kron": lambda xp, a, s: (xp.kron(a, s), xp.kron(s, a)),
    "einsum": lambda xp, a, s: (xp.einsum("i,->i", a, s), xp.einsum(",i->i", s, a)),
}


@pytest.mark.parametrize("fname", sorted(_NON_UFUNC_PRODUCTS))
@pytest.mark.parametrize("dtype,value", [
    (np.uint64, 2**63), (np.uint64, 2**64 - 1), (np.int64, 2**63), (np.int8, 2**63),
    (np.int8, 300), (np.int8, 100), (np.uint64, -1), (np.float32, 1.5), (np.int8, True)])
def test_python_int_operand_is_numpys_asarray(fname, dtype, value):
    # NumPy converts a Python scalar operand of these functions with numpy.asarray (not
    # NEP 50's weak scalar): 2**63 is uint64 (uint64 product, float64 beside int64), 300
    # beside int8 is int64, 1.5 beside float32 float64
    body = _NON_UFUNC_PRODUCTS[fname]
    _eager_twice_and_jit(lambda xp, a: body(xp, a, value), np.array([1, 2], dtype))


@pytest.mark.parametrize("fname", sorted(set(_NON_UFUNC_PRODUCTS) - {"vdot"}))
def test_python_int_beyond_uint64_is_numpys_object_result(fname):
    # numpy.asarray(2**64) is an object array: eagerly NumPy's own function computes it
    # (xnp's host-dtype dispatch); under jit there is no object dtype (not compared).
    # (numpy.vdot of an object array raises AttributeError in NumPy itself.)
    a = np.array([1, 2], np.int64)
    for value in (2**64, -2**63 - 1):
        want = _NON_UFUNC_PRODUCTS[fname](np, a, value)
        got = _NON_UFUNC_PRODUCTS[fname](xnp, xnp.asarray(a), value)
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == object and np.asarray(g).tolist() == w.tolist()


_GUFUNCS = {
    "matmul": lambda xp, a, s, **kw: xp.matmul(a, s, **kw),
    "rmatmul": lambda xp, a, s, **kw: xp.matmul(s, a, **kw),
    "operator": lambda xp, a, s, **kw: a @ s,
    "roperator": lambda xp, a, s, **kw: s @ a,
    "vecdot": lambda xp, a, s, **kw: xp.vecdot(a, s, **kw),
    "matvec": lambda xp, a, s, **kw: xp.matvec(a[None], s, **kw),
    "vecmat": lambda xp, a, s, **kw: xp.vecmat(s, a[:, None], **kw),
    "linalg.matmul": lambda xp, a, s, **kw: xp.linalg.matmul(a, s),
    "linalg.vecdot": lambda xp, a, s, **kw: xp.linalg.vecdot(a, s),
}


@pytest.mark.parametrize("fname", sorted(_GUFUNCS))
@pytest.mark.parametrize("dtype,value,kw", [
    (np.int8, 300, {}), (np.int8, -129, {}), (np.uint8, 256, {}), (np.uint64, -1, {}),
    (np.int64, 2**63, {}), (np.int8, 2**63, {}), (np.uint64, 2**63, {}),
    (np.int8, 100, {}), (np.float32, 2**64, {}), (np.float64, 2**2000, {}),
    (np.bool_, 300, {}), (np.float64, 300, {"dtype": np.int8}),
    (np.int8, 2**70, {"dtype": np.float64}), (np.float64, 2**63, {"dtype": np.int64})])
def test_gufunc_python_int_operand_fits_as_numpys(fname, dtype, value, kw):
    # the gufuncs take a Python int as NEP 50's weak scalar: converted to the other operand's
    # dtype (or dtype=) first, OverflowError where it does not fit; otherwise the 0-d
    # operand's ValueError. Dtype-only checks: the same under jit.
    if "linalg" in fname and kw:
        pytest.skip("numpy.linalg.matmul/vecdot take no dtype")
    want = _eager_twice_and_jit(lambda xp, a: _GUFUNCS[fname](xp, a, value, **kw),
                                np.array([1, 2], dtype))
    assert want[0] == "raise"
    if isinstance(want[1], OverflowError):
        with pytest.raises(OverflowError, match=r"xnp\.(linalg\.)?(matmul|vecdot|matvec|vecmat)"
                                                r": .*out of bounds for \w+ .*Python int"):
            _GUFUNCS[fname](xnp, xnp.asarray(np.array([1, 2], dtype)), value, **kw)


def test_python_int_overflow_messages_name_function_argument_and_dtypes():
    with pytest.raises(OverflowError, match=r"xnp\.matmul: Python integer 300 out of bounds "
                                            r"for int8 \(`x1` int8\[2\], `x2` a Python int\)"):
        xnp.matmul(xnp.asarray(np.array([1, 2], np.int8)), 300)
    with pytest.raises(OverflowError, match=r"xnp\.vecdot: Python integer 300 out of bounds "
                                            r"for int8 \(`x1` float64\[2\], `x2` a Python int, "
                                            r"dtype=int8\)"):
        xnp.vecdot(xnp.ones(2), 300, dtype=np.int8)
    with pytest.raises(ValueError, match=r"xnp\.linalg\.outer: .*x1\.ndim=1 and x2\.ndim=0 "
                                         r"\(x1 uint64\[2\], x2 uint64\[\]\)"):
        xnp.linalg.outer(xnp.asarray(np.array([1, 2], np.uint64)), 2**63)


def test_linalg_outer_python_int_is_converted_as_numpy():
    a = np.array([1, 2], np.uint64)
    _eager_twice_and_jit(lambda xp, a: xp.linalg.outer(a, 2**63), a)
    _eager_twice_and_jit(lambda xp, a: xp.linalg.outer(a, np.array([2**63], np.uint64)), a)


# --------------------------------------------------------------------------- signs of zero

# Products whose elements are each one product (a contraction of size 1, or a 0-d operand):
# NumPy starts its sums from +0.0 (dot loops, matmul's loops, BLAS with beta = 0), so the
# one product -0.0 comes out +0.0, except where numpy.dot's BLAS path (float32/64, at most
# 2-D operands) multiplies two one-element operands, where a 0-d operand is multiplied
# outside that path, and in outer/kron (products). XLA gives the product itself.
ONE_PRODUCT_CASES = [
    ("dot", (), (2,)), ("dot", (2, 2), ()), ("dot", (), (1,)), ("dot", (), ()),
    ("dot", (), (2, 2, 2)), ("dot", (1,), (1,)), ("dot", (1, 1), (1, 1)), ("dot", (1,), (1, 2)),
    ("dot", (2, 1), (1,)), ("dot", (2, 1), (1, 2)), ("dot", (1, 1), (1, 1, 1)),
    ("dot", (2, 1, 1), (1, 2)), ("inner", (), (2,)), ("inner", (1,), (1,)),
    ("inner", (2, 1), (2, 1)), ("inner", (1, 1), (1, 1, 1)), ("inner", (1, 1), (1, 1)),
    ("vdot", (1,), (1,)), ("vdot", (1, 1), (1,)), ("matmul", (2, 1), (1, 2)),
    ("matmul", (1,), (1, 2)), ("matmul", (2, 1), (1,)), ("matmul", (2, 1, 1), (1, 2)),
    ("matmul", (1,), (2, 1, 2)), ("matmul_full", (1,), (1,)), ("matmul_full", (1, 1), (1,)),
    ("matmul_full", (1, 1), (1, 1)), ("vecdot", (1,), (1,)), ("vecdot", (2, 1), (2, 1)),
    ("matvec", (1, 1), (1,)), ("matvec", (2, 1), (1,)), ("vecmat", (1,), (1, 1)),
    ("vecmat", (1,), (1, 2)), ("tensordot0", (2,), (2,)), ("tensordot0", (), (2,)),
    ("tensordot0", (1,), (1,)), ("tensordot0", (2, 1), (1, 2)), ("tensordot1", (1, 1, 1), (1,)),
    ("tensordot1", (2, 1), (1, 2)), ("tensordot1", (1, 1), (1, 1, 1)),
    ("tensordotp", (1, 2), (2, 1)), ("outer", (2,), (2,)), ("kron", (2,), (1, 2)),
]
_ONE_PRODUCT_FNS = {
    "tensordot0": lambda xp, a, b: xp.tensordot(a, b, 0),
    "tensordot1": lambda xp, a, b: xp.tensordot(a, b, 1),
    "tensordotp": lambda xp, a, b: xp.tensordot(a, b, ([0], [1])),
    # (the eager fast path serves matmul of two arrays of one dtype without keywords with
    # numpy.dot, whose one-element product keeps -0.0: the full path through dtype=)
    "matmul_full": lambda xp, a, b: xp.matmul(a, b, dtype=a.dtype),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16], ids=str)
@pytest.mark.parametrize("fname,sa,sb", ONE_PRODUCT_CASES)
def test_signs_of_zero_of_one_product_sums_match_numpy(fname, sa, sb, dtype):
    body = _ONE_PRODUCT_FNS.get(fname, lambda xp, a, b: getattr(xp, fname)(a, b))
    # every product 0 * -1 = -0.0; then mixed signs, and a product that is not zero
    _eager_twice_and_jit(body, np.zeros(sa, dtype), np.full(sb, -1, dtype))
    _eager_twice_and_jit(body, np.full(sa, -0.0, dtype), np.full(sb, -1, dtype))
    _eager_twice_and_jit(body, np.full(sa, -2.0, dtype), np.full(sb, 0.5, dtype))


def test_signs_of_zero_keep_infinities_nans_and_the_derivative():
    # the +0.0 start computes nothing on the other values (no inf - inf warning), and the
    # derivative of a one-product sum is the other factor's value also at 0
    a = np.array([[np.inf], [np.nan], [0.0], [-0.0], [2.0]])
    b = np.array([[-1.0, 1.0, 0.0]])
    with np.errstate(invalid="ignore"):
        _eager_twice_and_jit(lambda xp, a, b: xp.tensordot(a, b, 1), a, b)
    y = xnp.asarray(np.array([[3.0]]))
    for f in (lambda x: xnp.matmul(x, y)[0, 0], lambda x: xnp.vdot(x, y),
              lambda x: xnp.tensordot(x, y, 0)[0, 0, 0, 0]):
        for g in (xnp.grad(f), xnp.jit(xnp.grad(f))):
            assert np.asarray(g(xnp.asarray(np.array([[0.0]])))).tolist() == [[3.0]]


# --------------------------------------------------------------------------- tensordot axes

@pytest.mark.parametrize("axes", [
    -1, -2, -5, 0, 1, 2, 3, np.int64(1), np.array(1), np.array(0), np.array(-1),
    np.array(2, np.uint8), True, False, 1.0, np.float64(1.0), np.array(1.0), np.array(True),
    np.bool_(True), None, "ab", np.array([1]), ([1], [0], [2]), [1, 0], (1, 0), ((1,), (0,)),
    ([-1], [0]), ([2], [0]), ([1, 5], [0]), ([0, 1], [1, 0]), ([1, 1], [0, 0]),
    ([1], [0, 0]), ([1, -1], [0, 1]), ([1.0], [0]), ([True], [False]), (np.int8(1), 0),
    (np.array(1), np.array(0)), (np.array([1]), np.array([0])),
], ids=repr)
def test_tensordot_axes_forms_match_numpy(axes):
    # an int axes is NumPy's range(-axes, 0) / range(axes): <= 0 sums nothing (the outer
    # product); a 0-d integer array is that int; a pair of 0-d arrays is NumPy's TypeError
    # (unhashable). Errors depend on shapes and axes only: the same under jit.
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    _eager_twice_and_jit(lambda xp, a, b: xp.tensordot(a, b, axes), a, b)


def test_tensordot_axes_errors_name_the_function_and_shapes():
    a, b = xnp.ones((2, 3)), xnp.ones((3, 4))
    with pytest.raises(ValueError, match=r"xnp\.tensordot: duplicate axes"):
        xnp.tensordot(a, b, ([1, 1], [0, 0]))
    with pytest.raises(ValueError, match=r"xnp\.tensordot: shape-mismatch for sum: axes \[0\] "
                                         r"of \(2,3\) vs axes \[0\] of \(3,4\)"):
        xnp.tensordot(a, b, ([0], [0]))
    with pytest.raises(TypeError, match=r"xnp\.tensordot: `axes` must be an integer"):
        xnp.tensordot(a, b, 1.0)
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="axes"):
        xnp.jit(lambda a, b, n: xnp.tensordot(a, b, n))(a, b, xnp.asarray(1))


@pytest.mark.parametrize("sa, sb", [((1,), (1,)), ((1, 1), (1,)), ((1,), (1, 1)), ((1, 1), (1, 1)),
                                    ((2, 1), (1,)), ((3, 1), (1, 2)), ((2, 1, 1), (1, 1))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_of_one_product_per_element_is_plus_zero_as_numpy(sa, sb, dtype):
    """NumPy's matmul sums each element's products from +0.0, so 0 * -1 alone is +0.0
    (its dot gives the product, -0.0): also on the eager fast path of ``@``/``matmul``."""
    a, b = np.zeros(sa, dtype), np.full(sb, -1.0, dtype)
    want = np.matmul(a, b)
    x, y = xnp.asarray(a), xnp.asarray(b)
    for got in (x @ y, x @ y, xnp.matmul(x, y), xnp.matmul(x, y),
                xnp.jit(lambda p, q: p @ q)(a, b)):
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(want))


# Complex one-product sums: NumPy adds each part of the product to +0.0 (numpy.vdot's and
# the gufuncs' loops, the axpy of numpy.dot's BLAS path for a 0-d or one-element operand
# times a larger one, its loops beyond two dimensions), except where numpy.dot multiplies
# two one-element operands (or a 0-d one outside BLAS). Left out: numpy.dot's zgemm of a
# column by a row ((2, 1) . (1, 2), tensordot of two larger operands), whose signs of
# zero are those of the BLAS kernel.
COMPLEX_ONE_PRODUCT_CASES = [
    ("dot", (), ()), ("dot", (), (1,)), ("dot", (), (2,)), ("dot", (2, 2), ()),
    ("dot", (), (2, 2, 2)), ("dot", (1,), (1,)), ("dot", (1, 1), (1, 1)), ("dot", (2, 1), (1,)),
    ("dot", (1,), (1, 2)), ("dot", (1, 1), (1, 1, 1)), ("dot", (2, 1), (2, 1, 1)),
    ("inner", (), (2,)), ("inner", (2, 1), ()), ("inner", (1,), (1,)), ("inner", (1,), (2, 1)),
    ("inner", (1,), (1, 1, 1)), ("inner", (2, 1, 1), (2, 1)), ("vdot", (), ()),
    ("vdot", (1,), (1,)), ("vdot", (1, 1), ()), ("vdot", (1,), (1, 1, 1)),
    ("tensordot0", (), ()), ("tensordot0", (), (2,)), ("tensordot0", (1, 1), (2, 1)),
    ("tensordot0", (2,), (1,)), ("tensordot1", (1,), (1, 1)), ("tensordot1", (1,), (1, 2)),
    ("tensordot1", (2, 1), (1,)), ("matmul", (1,), (1,)), ("matmul", (1, 1), (1,)),
    ("matmul", (1, 1), (1, 1)), ("matmul", (2, 1), (1, 2)), ("matmul", (2, 1, 1), (1, 1)),
    ("vecdot", (1,), (1,)), ("vecdot", (2, 1), (1,)), ("matvec", (2, 1), (1,)),
    ("vecmat", (1,), (1, 2)),
]
_SIGNED_ZERO_PARTS = [complex(r, i) for r in (0.0, -0.0) for i in (0.0, -0.0)]


@pytest.mark.parametrize("dtypes", [(np.complex64, np.complex64), (np.complex128, np.complex128),
                                    (np.float32, np.complex64), (np.complex64, np.float64),
                                    (np.float64, np.complex128), (np.complex128, np.float32)],
                         ids=lambda d: f"{np.dtype(d[0]).name}-{np.dtype(d[1]).name}")
@pytest.mark.parametrize("fname,sa,sb", COMPLEX_ONE_PRODUCT_CASES)
def test_complex_signs_of_zero_of_one_product_sums_match_numpy(fname, sa, sb, dtypes):
    body = _ONE_PRODUCT_FNS.get(fname, lambda xp, a, b: getattr(xp, fname)(a, b))
    # (every pair of signs in each complex operand; a real one's two signed zeros)
    values = [_SIGNED_ZERO_PARTS if np.dtype(d).kind == "c" else [0.0, -0.0] for d in dtypes]
    for va in values[0]:
        for vb in values[1]:
            a, b = np.full(sa, va, dtypes[0]), np.full(sb, vb, dtypes[1])
            want = _eager_twice_and_jit(body, a, b)
            # NumPy arrays as operands: the same values (matmul's full path, not the fast
            # path of two xnp arrays)
            _same_as_numpy(_outcome(lambda: body(xnp, a, b)), want, "NumPy operands")


# --------------------------------------------------------------------------- gufunc memory order

def _fortran(shape):
    return np.asfortranarray(np.arange(np.prod(shape)).reshape(shape) % 7 - 3)


def _c(shape):
    return np.arange(np.prod(shape)).reshape(shape) % 5 - 2


_PERMUTED = np.arange(120).reshape(3, 2, 4, 5).transpose(1, 0, 2, 3) % 7 - 3  # (2, 3, 4, 5)

# NumPy allocates a gufunc's result with order='K': its loop dimensions ordered by the
# operands' strides along them (a missing or length-1 axis has no say), its core dimensions
# innermost: a stack of Fortran-ordered operands gives a column-major stack of results
GUFUNC_LAYOUT_CASES = [
    ("vecdot", _fortran((2, 3, 4, 5)), _c((5,)), {}),
    ("vecdot", _c((5,)), _fortran((2, 3, 4, 5)), {}),
    ("vecdot", _c((3, 4, 5)), _fortran((2, 3, 4, 5)), {}),
    ("vecdot", _fortran((3, 4, 5)), _fortran((2, 3, 4, 5)), {}),
    ("vecdot", _fortran((2, 1, 4, 5)), _c((3, 1, 5)), {}),
    ("vecdot", _fortran((3, 4, 5)), _fortran((4, 5)), {}),
    ("vecdot", _fortran((5, 3, 4)), _c((5, 1, 1)), {"axis": 0}),
    ("vecdot", _PERMUTED, _c((5,)), {}),
    ("matvec", _fortran((2, 3, 4, 5)), _c((5,)), {}),
    ("matvec", _c((4, 5)), _fortran((2, 3, 5)), {}),
    ("matvec", _fortran((2, 3, 4, 5)), _fortran((3, 5)), {}),
    ("matvec", _PERMUTED, _c((5,)), {}),
    ("vecmat", _fortran((2, 3, 4)), _c((4, 5)), {}),
    ("vecmat", _c((3, 4)), _fortran((2, 3, 4, 5)), {}),
    ("vecmat", _c((4,)), _PERMUTED, {}),
]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex128, np.bool_], ids=str)
@pytest.mark.parametrize("case", range(len(GUFUNC_LAYOUT_CASES)))
def test_gufunc_results_have_numpys_memory_order(case, dtype):
    fname, a, b, kw = GUFUNC_LAYOUT_CASES[case]
    a, b = a.astype(dtype), b.astype(dtype)  # (astype keeps the layout; small exact sums)
    want = getattr(np, fname)(a, b, **kw)
    # (complex vecmat is BLAS's zgemm, whose signs of zero xnp does not follow)
    same = np.testing.assert_array_equal if fname == "vecmat" and dtype == np.complex128 else (
        lambda g, w, err_msg: _same_as_numpy(("ok", g), ("ok", w), err_msg))
    for operands in ((xnp.asarray(a), xnp.asarray(b)), (a, b), (xnp.asarray(a), b)):
        for how in ("eager", "replay"):
            got = np.asarray(getattr(xnp, fname)(*operands, **kw))
            assert got.dtype == want.dtype and got.shape == want.shape
            same(got, want, err_msg=how)
            assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
                want.flags.c_contiguous, want.flags.f_contiguous), (how, got.strides, want.strides)
    same(np.asarray(xnp.jit(lambda p, q: getattr(xnp, fname)(p, q, **kw))(a, b)), want,
         err_msg="jit")


@pytest.mark.parametrize("odt,shape,order", [
    (np.float64, (2, 4), "C"), (np.float32, (2, 4), "C"), (np.complex128, (2, 4), "C"),
    (np.float64, (4, 2), "C"), (np.float64, (2, 4), "F"), (np.float64, (8,), "C"),
])
def test_dot_out_must_be_the_exact_result_array(odt, shape, order):
    """NumPy's ``dot`` writes only into an ``out`` of the result's shape and dtype, laid out
    C-contiguous (``ValueError`` otherwise, never a cast); eagerly and under jit."""
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    want = np.zeros(shape, odt, order=order)
    try:
        np.dot(a, b, out=want)
        ok = True
    except ValueError:
        ok = False
    out = xnp.zeros(shape, odt, order=order)
    jout = xnp.zeros(shape, odt, order=order)
    jitted = xnp.jit(lambda x, y, o: xnp.dot(x, y, out=o))
    if ok:
        assert xnp.dot(xnp.asarray(a), xnp.asarray(b), out=out) is out
        np.testing.assert_array_equal(np.asarray(out), want)
        jitted(xnp.asarray(a), xnp.asarray(b), jout)
        np.testing.assert_array_equal(np.asarray(jout), want)
        return
    with pytest.raises(ValueError, match="output array"):
        xnp.dot(xnp.asarray(a), xnp.asarray(b), out=out)
    with pytest.raises(ValueError, match="output array"):
        xnp.dot(xnp.asarray(a), xnp.asarray(b), out=np.zeros(shape, odt, order=order))
    if order == "C":  # (a traced out's layout is a jit argument's: not known)
        with pytest.raises(ValueError, match="output array"):
            jitted(xnp.asarray(a), xnp.asarray(b), jout)


@pytest.mark.parametrize("a_shape,b_shape", [((0, 3), (3, 4)), ((2, 3), (3, 0)), ((0,), (0,))])
def test_dot_out_of_an_empty_result(a_shape, b_shape):
    a, b = np.ones(a_shape), np.ones(b_shape)
    want = np.dot(a, b)
    out = xnp.zeros(want.shape)
    assert xnp.dot(xnp.asarray(a), xnp.asarray(b), out=out) is out
    np.testing.assert_array_equal(np.asarray(out), want)


def test_dot_with_a_0d_operand_writes_like_multiply():
    """NumPy's dot of a 0-d operand is its multiply into ``out`` (a same-kind cast)."""
    b = np.arange(3, dtype=np.int8)
    want = np.zeros(3, np.int8)
    np.dot(2, b, out=want)
    out = xnp.zeros(3, np.int8)
    xnp.dot(2, xnp.asarray(b), out=out)
    np.testing.assert_array_equal(np.asarray(out), want)
