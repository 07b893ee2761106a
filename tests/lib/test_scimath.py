"""xnp.emath (xnp.lib.scimath) against numpy.emath: values and dtypes eagerly; under jit
where the result dtype does not depend on the values; the error where it does."""

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, check_vs_numpy
ConcretizationTypeError = xnp.errors.ConcretizationTypeError

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]

INPUTS = [
    np.array([4.0, 0.25, 2.0]),                      # in the real domain: stays real
    np.array([4.0, -1.0, 0.5]),                      # a negative: complex
    np.array([-2.0, 0.5], np.float32),               # float32 -> complex64
    np.array([-2.0, 0.5], np.float16),               # float16 -> complex128 (NumPy's rule)
    np.array([-4, 9], np.int8), np.array([-4, 9], np.int16),   # -> complex64
    np.array([-4, 9], np.int32), np.array([-4, 9]),            # -> complex128
    np.array([0, 4], np.uint8), np.array([3, 4], np.uint16),   # never negative
    np.array([True, False]),
    np.array([-1 + 0j, 2 + 1j]), np.array([-1 + 0j], np.complex64),
    np.array([]), np.zeros((2, 0)), np.array(-3.0), np.array([[0.5, -0.5], [3.0, 1.0]]),
    np.array([np.nan, -np.inf, np.inf]),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", INPUTS, ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_unary_matches_numpy_eagerly(name, x):
    expected = getattr(np.emath, name)(x)
    got = getattr(xnp.emath, name)(xnp.asarray(x))
    assert_allclose(got, expected, err_msg=f"xnp.emath.{name}({x!r})")
    got_np_input = getattr(xnp.emath, name)(x)  # a NumPy input: the same
    assert_allclose(got_np_input, expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", [-1, 0.25, 2, -2.5, 1j, True])
def test_python_scalars(name, x):
    expected = np.asarray(getattr(np.emath, name)(x))
    got = getattr(xnp.emath, name)(x)
    assert_allclose(got, expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("args", [(2, [-4, -8, 8]), (10, [100.0, -1.0]), (-2, [4.0, 8.0]),
                                  (np.float32(2), np.array([-4.0], np.float32)),
                                  (np.array([2, 3]), np.array([8, 9]))])
def test_logn(args):
    expected = np.emath.logn(*args)
    assert_allclose(xnp.emath.logn(*args), expected)
    assert_allclose(xnp.emath.logn(*(xnp.asarray(a) for a in args)), expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("x,p", [([2, 4], 2), ([2, 4], -2), ([-2, 4], 2), ([2, 4], [2, 4]),
                                 ([-8.0], 1 / 3), (np.array([-2.0], np.float32), 2),
                                 (np.array([2, 3], np.int8), np.array([-1, 2], np.int8)),
                                 (4.0, [0.5, -0.5]), ([1 + 1j, -1], 2)])
def test_power(x, p):
    expected = np.emath.power(x, p)
    assert_allclose(xnp.emath.power(x, p), expected)
    assert_allclose(xnp.emath.power(xnp.asarray(x), xnp.asarray(p)), expected)


@pytest.mark.parametrize("fname", ["log2", "log10"])
def test_complex_log2_log10_of_infinity_are_numpys(fname):
    # both parts scaled by the real log(base) (was inf+nanj: divided by a complex log)
    z = np.array([-np.inf + 0j, np.inf - 0j, 0j])
    with np.errstate(all="ignore"):
        want = getattr(np, fname)(z)
        for got in (getattr(xnp, fname)(z), xnp.jit(getattr(xnp, fname))(xnp.asarray(z))):
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", [np.array([-1 + 0j, 2 + 1j, 0.5 + 0j]),
                               np.array([-1 + 0j], np.complex64)])
def test_complex_input_under_jit(name, x):
    # complex stays complex: the dtype is known at trace time
    check_vs_numpy(lambda xp, v: getattr(xp.emath if xp is xnp else np.emath, name)(v), x)


@pytest.mark.parametrize("x", [np.array([0, 4], np.uint8), np.array([True, False])])
def test_types_that_cannot_be_negative_trace(x):
    check_vs_numpy(lambda xp, v: (xp.emath if xp is xnp else np.emath).sqrt(v), x)
    check_vs_numpy(lambda xp, v: (xp.emath if xp is xnp else np.emath).log2(v), x)


def test_numpy_constants_under_jit_are_decided_at_trace_time():
    f = xnp.jit(lambda y: xnp.emath.sqrt(np.array([-4.0, 4.0])) * y)
    assert_allclose(f(np.array(2.0)), np.emath.sqrt(np.array([-4.0, 4.0])) * 2.0)
    assert_allclose(xnp.jit(lambda y: xnp.emath.power(-8.0, 2) + y)(1.0),
                    np.asarray(np.emath.power(-8.0, 2) + 1.0))


@pytest.mark.parametrize("name", ["sqrt", "log", "arcsin", "arctanh"])
def test_traced_real_input_raises_with_the_fix(name):
    f = xnp.jit(getattr(xnp.emath, name))
    with pytest.raises(ConcretizationTypeError, match=rf"(?s)xnp.emath.{name}.*x.astype\(complex\)"):
        f(np.array([-1.0, 0.5]))
    with pytest.raises(ConcretizationTypeError):
        xnp.jit(lambda p: xnp.emath.power(2.0, p))(np.array([-1, 2]))
    with pytest.raises(ConcretizationTypeError):
        xnp.vmap(getattr(xnp.emath, name))(np.array([-1.0, 0.5]))


def test_grad_decides_from_the_concrete_primal():
    # under grad the primal is concrete: a real result where NumPy's is real
    g = xnp.grad(lambda v: xnp.emath.sqrt(v))(4.0)
    assert_allclose(g, np.asarray(0.25), check_dtype=False)
    g2 = xnp.grad(lambda v: xnp.emath.arcsin(v))(0.5)
    assert_allclose(g2, np.asarray(1 / np.sqrt(0.75)), check_dtype=False)


def test_the_module_is_numpys_layout():
    assert xnp.emath is xnp.lib.scimath
    assert sorted(xnp.emath.__all__) == sorted(np.emath.__all__)
