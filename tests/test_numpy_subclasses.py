"""NumPy's ndarray subclasses (``numpy.ma.MaskedArray``, ``numpy.matrix``) meeting eager
xnp arrays: results are NumPy's for the same NumPy-array program (the oracle: the same
expression with ``numpy.asarray(x)`` in place of the xnp array), and xnp's own functions
refuse a masked array instead of silently counting its masked elements."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import xnp

DATA = np.array([1.0, -2.0, 3.0, 4.0])
MASK = [False, True, False, True]


def _same_masked(got, want):
    assert type(got) is type(want) is np.ma.MaskedArray
    np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    np.testing.assert_array_equal(got.filled(0), want.filled(0))


def test_xnp_ma_is_numpy_ma():
    import xnp.ma as ma

    assert xnp.ma is np.ma and ma is np.ma
    m = xnp.ma.masked_array(xnp.asarray(DATA), mask=MASK)
    _same_masked(m, np.ma.masked_array(DATA, mask=MASK))
    assert m.sum() == np.ma.masked_array(DATA, mask=MASK).sum() == 4.0


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.floordiv, operator.mod, operator.pow, operator.lt,
                                operator.le, operator.gt, operator.ge, operator.eq,
                                operator.ne])
def test_operators_with_a_masked_array_are_numpys(op):
    m = np.ma.masked_array([2.0, 5.0, 1.0, 7.0], mask=MASK)
    x = xnp.asarray(DATA)
    _same_masked(op(x, m), op(DATA, m))
    _same_masked(op(m, x), op(m, DATA))


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor, operator.lshift,
                                operator.rshift, divmod])
def test_integer_operators_with_a_masked_array_are_numpys(op):
    m = np.ma.masked_array([2, 5, 1, 7], mask=MASK)
    d = np.array([1, 2, 3, 4])
    for got, want in [(op(xnp.asarray(d), m), op(d, m)), (op(m, xnp.asarray(d)), op(m, d))]:
        for g, w in zip(got, want) if op is divmod else [(got, want)]:
            _same_masked(g, w)


def test_numpy_ufuncs_and_functions_on_masked_and_xnp_operands():
    m = np.ma.masked_array([2.0, 5.0, 1.0, 7.0], mask=MASK)
    x = xnp.asarray(DATA)
    _same_masked(np.add(x, m), np.add(DATA, m))
    _same_masked(np.maximum(m, x), np.maximum(m, DATA))
    got, want = np.concatenate([x, m]), np.concatenate([DATA, m])
    assert type(got) is type(want)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert np.mean(m) == np.mean(np.ma.masked_array([2.0, 5.0, 1.0, 7.0], mask=MASK))


@pytest.mark.parametrize("call,fname,arg", [
    (lambda m: xnp.sum(m), "sum", "a"),
    (lambda m: xnp.sin(m), "sin", "x"),
    (lambda m: xnp.add(xnp.ones(4), m), "add", "x2"),
    (lambda m: xnp.mean(m, axis=0), "mean", "a"),
    (lambda m: xnp.ravel(m), "ravel", "a"),
    (lambda m: xnp.reshape(m, (2, 2)), "reshape", "a"),
    (lambda m: xnp.flip(m), "flip", "m"),
    (lambda m: xnp.concatenate([m, m]), "concatenate", "arrays"),
])
def test_xnp_functions_refuse_masked_arrays(call, fname, arg):
    m = np.ma.masked_array(DATA, mask=MASK)
    with pytest.raises(TypeError, match=rf"xnp\.{fname}: argument `{arg}` is a "
                                        r"numpy\.ma\.MaskedArray \(shape \(4,\), dtype "
                                        r"float64\)"):
        call(m)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("call,fname", [(lambda M: xnp.sum(M, axis=0), "sum"),
                                        (lambda M: xnp.squeeze(M), "squeeze"),
                                        (lambda M: xnp.sin(M), "sin")])
def test_xnp_functions_refuse_matrices(call, fname):
    with pytest.raises(TypeError, match=rf"xnp\.{fname}: argument `\w+` is a numpy\.matrix "
                                        r"\(shape \(2, 2\), dtype float64\); xnp functions do "
                                        r"not keep matrix semantics"):
        call(np.matrix([[1.0, 2.0], [3.0, 4.0]]))


def test_asarray_of_a_masked_array_drops_the_mask_as_numpy():
    m = np.ma.masked_array(DATA, mask=MASK)
    np.testing.assert_array_equal(np.asarray(xnp.asarray(m)), np.asarray(m))


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_matrix_operand_takes_numpys_matrix_product():
    mat = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    a = np.array([[0.0, 1.0], [1.0, 5.0]])
    for op in (operator.mul, operator.add, operator.matmul, operator.sub):
        for got, want in [(op(xnp.asarray(a), mat), op(a, mat)),   # a matrix product for *
                          (op(mat, xnp.asarray(a)), op(mat, a))]:
            assert type(got) is type(want) is np.matrix
            np.testing.assert_array_equal(got, want)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_matrix_asmatrix_bmat_are_numpys():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert xnp.matrix is np.matrix
    assert type(xnp.bmat(xnp.asarray(np.eye(2)))) is np.matrix  # NumPy's bmat of its array
    got = xnp.asmatrix(xnp.asarray(a))
    assert type(got) is np.matrix
    np.testing.assert_array_equal(got ** 2, np.asmatrix(a) ** 2)
    blocks = xnp.bmat([[xnp.asarray(a), xnp.asarray(a)]])
    np.testing.assert_array_equal(blocks, np.bmat([[a, a]]))


def test_memmap_data_flows_through_xnp(tmp_path):
    path = tmp_path / "data.bin"
    m = xnp.memmap(path, dtype="float64", mode="w+", shape=(5,))
    m[:] = xnp.arange(5.0)  # NumPy's memmap reads the xnp array's data
    m.flush()
    back = np.memmap(path, dtype="float64", mode="r", shape=(5,))
    np.testing.assert_array_equal(back, np.arange(5.0))
    assert float(xnp.sum(m)) == 10.0 and isinstance(xnp.sqrt(m), xnp.Array)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("kind", ["masked", "matrix"])
@pytest.mark.parametrize("transform", ["jit", "vmap", "grad"])
def test_transformations_refuse_masked_arrays_and_matrices(kind, transform):
    value = (np.ma.masked_array(DATA, mask=MASK) if kind == "masked"
             else np.matrix([[1.0, 2.0], [3.0, 4.0]]))
    f = {"jit": xnp.jit(lambda a: a * 2), "vmap": xnp.vmap(lambda a: a * 2),
         "grad": xnp.grad(lambda a: (a * 2).sum())}[transform]
    name = "MaskedArray" if kind == "masked" else "matrix"
    lost = "its mask" if kind == "masked" else "matrix semantics"
    with pytest.raises(TypeError, match=rf"xnp\.{transform}: argument .*numpy(\.ma)?\.{name} "
                                        rf"\(shape .*cannot be traced: {lost} would be lost"):
        f(value)


@pytest.mark.parametrize("call", [
    lambda m, x, o: m.add(x, 1.5, out=o),
    lambda m, x, o: m.multiply(x, x, out=o),
    lambda m, x, o: m.sqrt(m.abs(x), out=o, where=x > 0),
    lambda m, x, o: m.cumsum(x, out=o),
    lambda m, x, o: m.clip(x, -1, 2, out=o),
])
def test_numpy_array_as_out_is_written_and_returned(call, tmp_path):
    for make in (lambda: np.full(4, -7.0),
                 lambda: np.memmap(tmp_path / "o.bin", dtype="float64", mode="w+", shape=(4,))):
        want_out, got_out = make(), make()
        want_out[...] = got_out[...] = -7.0
        want = call(np, DATA, want_out)
        got = call(xnp, xnp.asarray(DATA), got_out)
        assert got is got_out and want is want_out
        np.testing.assert_array_equal(got_out, want_out)


def test_numpy_out_errors():
    x = xnp.asarray(DATA)
    with pytest.raises(TypeError, match=r"xnp\.add: cannot cast the result from float64 to "
                                        r"`out` dtype int64"):
        xnp.add(x, 1, out=np.zeros(4, np.int64))
    with pytest.raises(ValueError, match=r"xnp\.add: `out` has shape \(3,\)"):
        xnp.add(x, 1, out=np.zeros(3))
    with pytest.raises(NotImplementedError, match=r"xnp\.add: `out` is a NumPy array .* traced"):
        xnp.jit(lambda v: xnp.add(v, 1, out=np.zeros(4)))(x)
