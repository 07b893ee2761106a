"""ndarray methods of xnp arrays (partition, var/std, round, take, compress, nonzero, repeat,
swapaxes, diagonal, trace, choose, put, fill) against NumPy's, eagerly and under jit; the
in-place ones (partition, put, fill) modify eager arrays and rebind tracers; the methods
pickle as NumPy's do."""

import pickle
import warnings

import numpy as np
import pytest

import xnp

X = np.array([[3.0, -1.5, 2.25, 0.0], [7.5, 4.0, -2.0, 1.0], [0.5, 6.0, -3.0, 9.0]])

CASES = {
    "argpartition": lambda a: a.argpartition(1, axis=-1)[..., :2].shape,
    "var": lambda a: a.var(axis=0, ddof=1),
    "std": lambda a: a.std(),
    "round": lambda a: (a * 1.2345).round(2),
    "take": lambda a: a.take([0, 2], axis=1),
    "compress": lambda a: a.compress([True, False, True], axis=0),
    "repeat": lambda a: a.repeat(2, axis=0),
    "swapaxes": lambda a: a.swapaxes(0, 1),
    "diagonal": lambda a: a.diagonal(1),
    "trace": lambda a: a.trace(-1),
    "choose": lambda a: (a > 1).astype(int).choose([a, -a]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_method_matches_numpy(name, jit):
    fn = CASES[name]
    ref = fn(X.copy())
    f = xnp.jit(fn) if jit and name != "argpartition" else fn
    out = f(xnp.asarray(X))
    if isinstance(ref, tuple):
        assert tuple(out) == ref
        return
    np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-12)
    assert np.asarray(out).dtype == ref.dtype


def test_nonzero_eager():
    ref = X.nonzero()
    out = xnp.asarray(X).nonzero()
    assert len(out) == len(ref)
    for o, r in zip(out, ref):
        np.testing.assert_array_equal(np.asarray(o), r)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_inplace_methods(jit):
    def f(a):
        a.partition(2, axis=1)
        b = a * 1.0
        b.put([0, 5], [10.0, 20.0])
        c = a[0] * 1.0
        c.fill(7.0)
        return a, b, c

    ref_a = X.copy()
    ref = f(ref_a)
    a = xnp.asarray(X.copy())
    out = (xnp.jit(f) if jit else f)(a)
    for o, r in zip(out, ref):
        if r is ref_a:  # partition's order inside the parts is unspecified: compare sorted
            np.testing.assert_array_equal(np.sort(np.asarray(o), axis=1), np.sort(r, axis=1))
            np.testing.assert_array_equal(np.asarray(o)[:, 2], r[:, 2])
        else:
            np.testing.assert_array_equal(np.asarray(o), r)
    np.testing.assert_array_equal(np.asarray(a)[:, 2], ref_a[:, 2])  # the argument was updated


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex64])
def test_astype_casting_is_checked_as_numpy(casting, dtype):
    try:
        ref = X.astype(dtype, casting=casting)
    except TypeError:
        ref = None
    for f in (lambda a: a.astype(dtype, casting=casting),
              xnp.jit(lambda a: a.astype(dtype, casting=casting))):
        if ref is None:
            with pytest.raises(TypeError, match=r"Cannot cast array data from "
                                                r"dtype\('float64'\) to .* rule"):
                f(xnp.asarray(X))
        else:
            out = np.asarray(f(xnp.asarray(X)))
            assert out.dtype == ref.dtype
            np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_astype_order_lays_out_memory_as_numpy(order, dtype):
    ref = X.T.astype(dtype, order=order, copy=False)
    out = xnp.asarray(X).T.astype(dtype, order=order, copy=False)
    assert (out.flags.c_contiguous, out.flags.f_contiguous) == (ref.flags.c_contiguous,
                                                                ref.flags.f_contiguous)
    np.testing.assert_array_equal(np.asarray(out), ref)
    # under jit the layout decides whether reshape is a view (written through) or a copy
    def write_through_reshape(a):
        b = a.T.astype(dtype, order=order)
        flat = b.reshape(-1, order="C")
        flat[0] = -100.0
        return b

    ref_b = write_through_reshape(X.copy())
    if order in ("C", "F"):  # 'A'/'K' follow the argument's layout, unknown under jit
        got = xnp.jit(write_through_reshape)(xnp.asarray(X))
        np.testing.assert_array_equal(np.asarray(got), ref_b)
    np.testing.assert_array_equal(np.asarray(write_through_reshape(xnp.asarray(X))), ref_b)


def test_in_operator_is_numpys_any_equal():
    for data, value in (([[1.0, 2.0], [3.0, 4.0]], 3.0), ([[1.0, 2.0], [3.0, 4.0]], 5.0),
                        (2, 2), ([np.nan], np.nan), ([1, 2], 2.0)):
        n = np.asarray(data)
        assert (value in xnp.asarray(n)) == (value in n)
    with pytest.raises(xnp.errors.TracerBoolConversionError):
        xnp.jit(lambda t: 1.0 in t)(np.ones(2))


def _methods(obj):
    """``obj``'s callable attributes (not classes) that ``numpy.ndarray`` also has."""
    out = {}
    for name in dir(obj):
        if hasattr(np.ndarray, name):
            try:
                m = getattr(obj, name)
            except Exception:  # noqa: BLE001  (a property NumPy's would refuse too)
                continue
            if callable(m) and not isinstance(m, type):
                out[name] = m
    return out


def test_methods_pickle_as_numpys():
    class Sub(xnp.ndarray):
        pass

    Sub.__qualname__ = "Sub"  # pickle finds the class by module and name
    globals()["Sub"] = Sub
    a = xnp.asarray(X)
    try:
        for cls in (xnp.ndarray, Sub, type(xnp.asarray(["a", "b"]))):  # and a host dtype's
            methods = _methods(cls)
            assert methods.keys() >= {"sum", "__add__", "__iadd__", "__abs__", "__array__"}
            for name, m in methods.items():  # unbound: by reference, the same object back
                assert pickle.loads(pickle.dumps(m)) == m, name
        for obj in (a, a.view(Sub)):
            for name, m in _methods(obj).items():  # bound: as getattr(array, name)
                back = pickle.loads(pickle.dumps(m))
                owner = getattr(back, "__self__", obj)  # a copy of the array (its class for
                # a classmethod; none for the static __new__)
                assert back.__name__ == name and type(obj) in (owner, type(owner)), name
    finally:
        del globals()["Sub"]
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(a.sum))(axis=0), X.sum(axis=0))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(xnp.ndarray.__abs__))(a), abs(X))


@pytest.mark.parametrize("dtype,part,value", [
    (np.complex128, "imag", 1j), (np.complex128, "real", 5 + 1j), (np.complex64, "imag", 2.5),
    (np.float64, "real", 3 + 4j), (np.int32, "real", 3.7 + 4j), (np.complex128, "real", [1, 2]),
    (np.float64, "real", np.complex128(1 + 1j)), (np.float64, "real", [1 + 1j, 2, 3j]),
    (np.float64, "real", np.array([1 + 1j, 2j])), (np.bool_, "real", 1 + 2j),
    (np.uint8, "real", -1), (np.float16, "real", 10**20), (np.int8, "real", [1 + 1j, 3j]),
])
def test_part_setters_take_values_as_numpy(dtype, part, value):
    # NumPy's attribute setters convert a Python complex as an array: the imaginary part
    # is discarded with a ComplexWarning at the caller's line (item assignment raises)
    want = np.ones(2).astype(dtype)
    if isinstance(value, list) and len(value) == 3:
        want = np.ones(3).astype(dtype)
    with warnings.catch_warnings(record=True) as w_np:
        warnings.simplefilter("always")
        setattr(want, part, value)
    for _ in range(2):
        got = xnp.asarray(np.ones(want.shape).astype(dtype))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            setattr(got, part, value)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == want.dtype
        assert [(x.category, str(x.message)) for x in w] == [
            (x.category, str(x.message)) for x in w_np]
        assert all(x.filename == __file__ for x in w)
    if np.dtype(dtype).kind == "c":
        def f(a):
            setattr(a, part, value)
            return a

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            out = xnp.jit(f)(xnp.asarray(np.ones(want.shape).astype(dtype)))
        np.testing.assert_array_equal(np.asarray(out), want)
