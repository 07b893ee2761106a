"""Python-scalar-only calls (NumPy scalars eagerly, weak under jit), reductions writing ``out=`` with
NumPy's unsafe casting, and a donated argument that the function updates in place being
written back. Oracle: NumPy."""

import numpy as np
import pytest

import xnp
from tests.helpers import check_vs_numpy

I8 = np.array([100, 2], dtype=np.int8)


def test_scalar_only_calls_are_numpy_scalars_eagerly_and_weak_under_jit():
    # `xp.add(1, 2)` inside jit is a weak int64 (JAX's rule), so with
    # an int8 array the int8 wins (NEP 50); eagerly it is NumPy's strong np.int64, so the
    # product is int64 as NumPy's (README, "Python-scalar-only calls")
    def f(a):
        return xnp.add(1, 2) * a

    eager, jitted = f(xnp.asarray(I8)), xnp.jit(f)(xnp.asarray(I8))
    assert type(xnp.add(1, 2)) is np.int64 and xnp.jit(lambda: xnp.add(1, 2))().weak_type
    ref = np.add(1, 2) * I8
    assert eager.dtype == ref.dtype == np.int64 and jitted.dtype == np.int8
    np.testing.assert_array_equal(np.asarray(eager), ref)
    np.testing.assert_array_equal(np.asarray(jitted), ref.astype(np.int8))


@pytest.mark.parametrize("fname", ["sum", "mean", "prod", "max", "min", "argmax", "var", "any",
                                   "all"])
@pytest.mark.parametrize("out_dtype", [np.int64, np.int8, np.bool_])
def test_reduction_out_uses_unsafe_casting(fname, out_dtype):
    a = np.array([[1.5, 2.5], [-3.0, 0.25]])
    want = np.zeros(2, out_dtype)
    getattr(np, fname)(a, axis=1, out=want)
    got = xnp.zeros(2, dtype=out_dtype)
    res = getattr(xnp, fname)(xnp.asarray(a), axis=1, out=got)
    assert res is got
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("fname", ["std", "ptp"])
def test_std_and_ptp_out_keep_same_kind_casting(fname):
    a = np.array([[1.5, 2.5]])
    with pytest.raises(TypeError):
        getattr(np, fname)(a, axis=1, out=np.zeros(1, np.int64))
    with pytest.raises(TypeError, match="same_kind"):
        getattr(xnp, fname)(xnp.asarray(a), axis=1, out=xnp.zeros(1, dtype=np.int64))


def test_donated_argument_updated_in_place_is_written_back():
    def mut(x, y):
        x[0] = 42.0
        return x + y

    k = xnp.jit(mut, donate_argnums=0)
    for _ in range(3):
        a, a_np = xnp.zeros(4), np.zeros(4)
        out, out_np = k(a, 1.0), mut(a_np, 1.0)
        np.testing.assert_array_equal(np.asarray(out), out_np)
        np.testing.assert_array_equal(np.asarray(a), a_np)


_MAKERS = {
    "asarray": (xnp.asarray, np.asarray),
    "array": (xnp.array, np.array),
    "asarray_copy": (lambda s: xnp.asarray(s, copy=True), lambda s: np.asarray(s, copy=True)),
    "array_of_product": (lambda s: xnp.array(s * 2), lambda s: np.array(s * 2)),
}


@pytest.mark.parametrize("maker", sorted(_MAKERS))
@pytest.mark.parametrize("s", [3, 2.5, True, 2**63 + 10, 1j])
def test_asarray_of_a_python_scalar_argument_is_strong_under_jit(maker, s):
    # a Python scalar passed to jit is weak (as in JAX); asarray/array of it is a strongly
    # typed array, as NumPy's asarray of the scalar is, so it promotes against a float32
    # array (and under floor division) as NumPy's does, eagerly and under jit
    if maker == "array_of_product" and s == 2**63 + 10:
        pytest.skip("Python int arithmetic beyond int64 has no fixed-width result under jit")
    make, np_make = _MAKERS[maker]
    ops = [lambda a, o: a * o]
    if not isinstance(s, complex):
        ops.append(lambda a, o: a // 1)
    ones = np.ones(2, np.float32)

    def f(v):
        a = make(v)
        return [op(a, xnp.asarray(ones)) for op in ops]

    want = [op(np_make(s), ones) for op in ops]
    for got in (f(s), xnp.jit(f)(s)):
        for g, w in zip(got, want):
            assert not g.weak_type
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
            np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("expr", [
    lambda m: m.ones(2) * 10**30, lambda m: 10**30 * m.ones(2), lambda m: m.ones(2) < 10**30,
    lambda m: m.arange(3, dtype=np.float32) + 2**70,
    lambda m: m.where(m.asarray([True, False]), m.ones(2), 10**30),
    lambda m: m.ones(2, dtype=np.complex64) - 10**40, lambda m: m.ones(2, np.int64) == 10**30,
    lambda m: m.ones(2, np.int8) + 10**30,
])
def test_python_ints_beyond_int64_with_arrays_as_numpy(expr):
    # NEP 50: beside a float/complex array a Python int of any size is that float (inf
    # where it overflows); beside an integer array it must fit that dtype (OverflowError)
    check_vs_numpy(lambda xp: expr(xp), jaxpr=False)
