"""xnp.numpy_api.creation vs NumPy: eager, jit and jaxpr (check_vs_numpy), plus copy and
aliasing semantics, weak types, static-shape errors, and creation calls staged under jit
(constants included) or static (NumPy on shapes)."""

import re
import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
import xnp as xp
from tests.helpers import ALL, EDGE_SHAPES, NUMERIC, assert_allclose, check_vs_numpy, grid

SHAPES = EDGE_SHAPES + [(2, 3), 4, (np.int64(2), 3)]


def norm(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- filled arrays


@pytest.mark.parametrize("case", grid(fn=["zeros", "ones", "empty"], shape=SHAPES,
                                      dtype=[None] + ALL, n=36))
def test_zeros_ones_empty_match_numpy(case):
    np_fn = "zeros" if case.fn == "empty" else case.fn  # empty is zeros in xnp (deterministic)

    def body(m):
        fn = getattr(m, np_fn if m is np else case.fn)
        return fn(case.shape) if case.dtype is None else fn(case.shape, dtype=case.dtype)

    check_vs_numpy(lambda m: body(m))


@pytest.mark.parametrize("case", grid(
    fill=[0, 7, -3, 2.5, True, 1j, np.float32(1.5), np.int8(-4), np.uint64(5)],
    shape=[(), (3,), (2, 0, 4), (2, 3)], dtype=[None, np.float32, np.int64, np.bool_], n=40))
def test_full_scalar_fill_matches_numpy(case):
    real_dtype = case.dtype is not None and np.dtype(case.dtype).kind != "c"
    if real_dtype and isinstance(case.fill, complex):
        pytest.skip("NumPy warns and drops the imaginary part; not an xnp behaviour")
    check_vs_numpy(lambda m: m.full(case.shape, case.fill, dtype=case.dtype))


def test_full_array_fill_broadcasts(rng):
    fill = rng.standard_normal(3)
    check_vs_numpy(lambda m, f: m.full((2, 3), f), fill)
    check_vs_numpy(lambda m, f: m.full((2, 3), f, dtype=np.int32), fill)
    check_vs_numpy(lambda m, f: m.full((4, 3), f), fill.reshape(1, 3))
    check_vs_numpy(lambda m: m.full((2, 2), [1, 2]))
    check_vs_numpy(lambda m, f: m.full((2,), f), np.zeros(3))  # ValueError in both


def test_full_same_shape_fill_is_copied():
    a = xp.arange(3.0)
    b = xp.full((3,), a)
    assert not np.shares_memory(np.asarray(a), np.asarray(b))
    host = np.arange(3.0)
    c = xp.full((3,), host)
    assert not np.shares_memory(host, np.asarray(c))


def test_full_out_of_range_python_int_raises():
    with pytest.raises(OverflowError, match=r"^xnp\.full: `fill_value`.* 300 .*int8"):
        xp.full(3, 300, dtype=np.int8)
    with pytest.raises(OverflowError):
        np.full(3, 300, dtype=np.int8)
    for fn in (lambda: xp.full(2, 2**64, dtype=np.uint64),
               xp.jit(lambda: xp.full(2, 2**64, dtype=np.uint64))):
        with pytest.raises(OverflowError, match=r"^xnp\.full: `fill_value`.*uint64"):
            fn()


@pytest.mark.parametrize("value", [2**63, 2**64 - 1, 2**64, -2**63 - 1, 2**100, 2**63 - 1])
def test_full_of_a_python_int_beyond_int64_takes_numpys_dtype(value):
    # uint64 up to 2**64 - 1, then object (an eager host array; refused under jit)
    want = np.full((2,), value)
    got = xp.full((2,), value)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    if want.dtype == object:
        with pytest.raises(TypeError, match=r"^xnp\.full: argument `fill_value`: dtype object"):
            xp.jit(lambda: xp.full((2,), value))()
        return
    jitted = xp.jit(lambda: xp.full((2,), value))()
    assert jitted.dtype == want.dtype and jitted.tolist() == want.tolist()


@pytest.mark.parametrize("case", grid(fn=["zeros_like", "ones_like", "empty_like", "full_like"],
                                      shape=EDGE_SHAPES + [(2, 3)], dtype=ALL,
                                      override=[None, "dtype", "shape"], n=40))
def test_like_functions_match_numpy(case, rng):
    x = rng.standard_normal(case.shape).astype(case.dtype)
    kw = {}
    if case.override == "dtype":
        kw["dtype"] = np.int16
    elif case.override == "shape":
        kw["shape"] = (2, 1)
    np_fn = "zeros_like" if case.fn == "empty_like" else case.fn

    def body(m, x):
        fn = getattr(m, np_fn if m is np else case.fn)
        if case.fn == "full_like":
            return fn(x, 3, **kw)
        return fn(x, **kw)

    check_vs_numpy(body, x)


def test_full_like_casts_unsafely_and_takes_array_fill():
    check_vs_numpy(lambda m, x: m.full_like(x, 1.7), np.zeros(3, np.int32))
    check_vs_numpy(lambda m, x, f: m.full_like(x, f), np.zeros((2, 3)), np.arange(3))


def test_like_of_python_data():
    check_vs_numpy(lambda m: m.zeros_like(2.0))
    check_vs_numpy(lambda m: m.ones_like([[1, 2], [3, 4]]))
    assert xp.zeros_like(2.0).weak_type is False  # NumPy: a float64 array


def test_like_keeps_weak_type_of_weak_xnp_values():
    out = []
    xnp.jit(lambda y: out.append(repr(xp.zeros_like(y))) or y)(2.0)
    assert out == ["JitTracer(~float64[])"]
    out.clear()
    xnp.jit(lambda y: out.append(repr(xp.zeros_like(y, dtype=np.float32))) or y)(2.0)
    assert out == ["JitTracer(float32[])"]


def test_filled_arrays_are_writable_eagerly():
    for a in (xp.zeros(3), xp.ones((2, 2)), xp.full(3, 2.0), xp.zeros_like(np.ones(2)),
              xp.arange(4), xp.eye(2), xp.linspace(0, 1, 3), xp.array([1, 2])):
        assert np.asarray(a).flags.writeable


# --------------------------------------------------------------------------- static shapes


def test_numpy_integer_shape_entries_are_accepted():
    assert xp.zeros(np.int64(3)).shape == (3,)
    assert xp.ones((np.int32(2), np.int64(3))).shape == (2, 3)
    assert xp.zeros(xp.asarray(4)).shape == (4,)  # concrete 0-d integer array
    r = xnp.jit(lambda x: xp.zeros((np.prod(x.shape),)))(xp.ones((2, 3)))
    assert r.shape == (6,)


@pytest.mark.parametrize("bad,exc", [(2.0, TypeError), ((2, 1.5), TypeError), (-1, ValueError),
                                     ((2, -3), ValueError), ("3", TypeError)])
def test_bad_static_shapes_match_numpy(bad, exc):
    with pytest.raises(exc):
        np.zeros(bad)
    with pytest.raises(exc, match=r"xnp\.zeros"):
        xp.zeros(bad)


@pytest.mark.parametrize("make", [
    lambda i: xp.zeros(i), lambda i: xp.ones((2, i)), lambda i: xp.full(i, 1.0),
    lambda i: xp.empty(i), lambda i: xp.zeros_like(xp.ones(3), shape=(i,)),
])
def test_traced_shape_raises_concretization_error(make):
    def f(x):
        return make(x.astype(np.int64))

    with pytest.raises(xnp.errors.ConcretizationTypeError) as info:
        xnp.jit(f)(2.0)
    msg = str(info.value)
    assert isinstance(info.value, TypeError)
    assert "Shapes must be 1D sequences of concrete values of integer type" in msg
    assert "JitTracer(int64[])" in msg
    assert "argument x" in msg  # provenance: where the value came from


def test_traced_shape_error_shows_operation_provenance():
    @xnp.jit
    def g(x):
        n = xp.add(x.shape[0], 0)  # staged even on constants: a traced size
        return xp.zeros(n)

    with pytest.raises(xnp.errors.ConcretizationTypeError) as info:
        g(xp.ones(3))
    msg = str(info.value)
    assert "Shapes must be 1D sequences of concrete values of integer type" in msg
    assert "operation" in msg and "add" in msg and "test_creation.py" in msg


# --------------------------------------------------------------------------- arange


ARANGE_CASES = [
    (5,), (0,), (-2,), (1, 10), (1, 10, 3), (10, 1, -3), (0.5, 3), (-3, 5.5, 1.5), (0, 1, 0.1),
    (5, 1), (0.1, 1, 0.2), (np.float32(3),), (np.int32(2), np.int32(7)), (np.uint8(3),),
    (2, 2), (-5, -20, -4), (1e3,),
]
ARANGE_DTYPES = [None, np.float32, np.int64, np.int8, np.uint8, np.float16, ml_dtypes.bfloat16]


@pytest.mark.parametrize("case", grid(args=ARANGE_CASES, dtype=ARANGE_DTYPES, n=50))
def test_arange_matches_numpy(case):
    if case.dtype in (np.int8, np.uint8) and any(abs(float(a)) > 100 for a in case.args):
        pytest.skip("values out of the dtype's range wrap differently")
    if case.dtype is np.uint8 and any(float(a) < 0 for a in case.args):
        pytest.skip("negative start for an unsigned dtype: NumPy raises or wraps by version")
    kw = {} if case.dtype is None else {"dtype": case.dtype}
    check_vs_numpy(lambda m: m.arange(*case.args, **kw))


@pytest.mark.parametrize("args,kw", [((0, 5, 0), {}), ((5,), {"dtype": bool}),
                                     ((0, np.inf), {}), ((2,), {"dtype": bool})])
def test_arange_special_cases_match_numpy(args, kw):
    check_vs_numpy(lambda m: m.arange(*args, **kw))


def test_arange_is_staged_as_iota():
    j = xnp.make_jaxpr(lambda: xp.arange(3))()
    assert norm(str(j)) == ("{ lambda ; . let a:i64[3] = iota[dimension=0 dtype=int64 "
                            "shape=(3,)] in (a,) }")
    j2 = xnp.make_jaxpr(lambda x: x + xp.arange(3.0))(np.ones(3))  # staged, not a constvar
    assert norm(str(j2)) == ("{ lambda ; a:f64[3]. let b:f64[3] = iota[dimension=0 dtype=float64 "
                             "shape=(3,)] c:f64[3] = add a b in (c,) }")
    j3 = xnp.make_jaxpr(lambda: xp.arange(1, 10, 3))()
    assert [e.primitive.name for e in j3.eqns] == ["iota", "mul", "add"]
    text = xnp.jit(lambda: xp.arange(3)).lower().as_text()
    assert "stablehlo.iota" in text


def test_arange_traced_stop_raises_naming_arange_and_stop():
    with pytest.raises(xnp.errors.ConcretizationTypeError, match=r"arange.*'stop'") as info:
        xnp.jit(lambda x: xp.arange(x))(2.0)
    assert "argument x" in str(info.value)
    with pytest.raises(xnp.errors.ConcretizationTypeError, match=r"'step'"):
        xnp.jit(lambda s: xp.arange(0, 5, s))(2)


def test_arange_accepts_concrete_arrays():
    assert_allclose(xp.arange(xp.asarray(3)), np.arange(3))
    assert_allclose(xp.arange(np.array(2.5)), np.arange(np.array(2.5)))


# --------------------------------------------------------------------------- linspace


LINSPACE_CASES = [
    dict(start=0, stop=1), dict(start=0, stop=1, num=5),
    dict(start=0, stop=1, num=5, endpoint=False), dict(start=1, stop=0, num=1),
    dict(start=0, stop=1, num=0), dict(start=0, stop=10, num=5, dtype=int),
    dict(start=2, stop=3, num=4, retstep=True), dict(start=-1.5, stop=2, num=7, dtype=np.float32),
    dict(start=0, stop=1, num=1, retstep=True), dict(start=5, stop=5, num=3),
    dict(start=-3, stop=7, num=6, endpoint=False, dtype=np.int16),
]


@pytest.mark.parametrize("kw", LINSPACE_CASES)
def test_linspace_matches_numpy(kw):
    check_vs_numpy(lambda m: m.linspace(**kw), kind="reduction")


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_array_endpoints(axis):
    start = np.array([0.0, 1.0])
    stop = np.array([[2.0, 5.0], [1.0, -1.0], [0.5, 0.5]])
    check_vs_numpy(lambda m, a, b: m.linspace(a, b, 4, axis=axis), start, stop, kind="reduction")
    check_vs_numpy(lambda m, a, b: m.linspace(a, b, 3, retstep=True, axis=axis),
                   start.astype(np.float32), stop.astype(np.float32), kind="reduction")


def test_linspace_errors():
    check_vs_numpy(lambda m: m.linspace(0, 1, -1))
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="num"):
        xnp.jit(lambda n: xp.linspace(0, 1, n))(3)


# --------------------------------------------------------------------------- eye, identity


@pytest.mark.parametrize("case", grid(nm=[(3, None), (3, 4), (4, 2), (0, None), (1, 1), (2, 0)],
                                      k=[-5, -2, -1, 0, 1, 3], dtype=[None, np.int32, np.bool_,
                                                                      np.complex64], n=36))
def test_eye_matches_numpy(case):
    n, m = case.nm
    kw = {} if case.dtype is None else {"dtype": case.dtype}
    check_vs_numpy(lambda mod: mod.eye(n, m, case.k, **kw))


@pytest.mark.parametrize("nm", [(3, 1), (1, 3), (1, 1), (4, 5), (0, 3), (3, 0)])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("k", [0, 1])
def test_eye_has_numpys_strides_in_its_order_on_every_call(nm, order, k):
    """``eye(..., order=)`` has exactly NumPy's strides, also along length-1 axes, on the
    first call and on the replays of the eager dispatch cache (which copied its recorded
    constant with NumPy's copy, which gives a column-major (3, 1) array (8, 8), not (8, 24))."""
    for _ in range(3):
        want, got = np.eye(*nm, k, order=order), xnp.eye(*nm, k, order=order)
        assert got.strides == want.strides, (nm, order, k, got.strides, want.strides)
        assert got.flags.owndata == want.flags.owndata
        np.testing.assert_array_equal(np.asarray(got), want)


def test_eye_identity_misc():
    check_vs_numpy(lambda m: m.identity(3))
    check_vs_numpy(lambda m: m.identity(2, dtype=np.int8))
    check_vs_numpy(lambda m: m.eye(-1))
    check_vs_numpy(lambda m: m.eye(np.int64(3), M=np.int32(2)))


# --------------------------------------------------------------------------- array / asarray


ARRAY_DATA = [
    1, 2.5, True, 1j, [1, 2, 3], [[1.0, 2.0], [3.0, 4.0]], [True, False], [1, 2.5], [[1j]],
    (1, 2), [], [[]], np.float32(3), np.arange(6).reshape(2, 3), np.array(3, np.int8),
    [np.int32(1), np.int32(2)],
]


@pytest.mark.parametrize("case", grid(data=list(range(len(ARRAY_DATA))),
                                      fn=["array", "asarray", "asanyarray", "ascontiguousarray"],
                                      dtype=[None, np.float32, np.int16, np.complex128], n=50))
def test_array_conversion_matches_numpy(case):
    data = ARRAY_DATA[case.data]
    if isinstance(data, complex) or (isinstance(data, list) and data and isinstance(data[0], list)
                                     and data[0] and isinstance(data[0][0], complex)):
        if case.dtype is not None and np.dtype(case.dtype).kind != "c":
            pytest.skip("complex -> real conversion is an error/warning in NumPy")
    kw = {} if case.dtype is None else {"dtype": case.dtype}
    check_vs_numpy(lambda m: getattr(m, case.fn)(data, **kw))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("case", grid(shape=EDGE_SHAPES + [(2, 3)], dtype=ALL, n=20))
def test_array_of_arrays_matches_numpy(case, rng):
    x = rng.standard_normal(case.shape).astype(case.dtype)
    check_vs_numpy(lambda m, x: m.array(x), x)
    check_vs_numpy(lambda m, x: m.asarray(x, dtype=np.float32), x)
    check_vs_numpy(lambda m, x: m.array(x, ndmin=3), x)
    check_vs_numpy(lambda m, x: m.array([x, x]), x)


@pytest.mark.parametrize("convert", [
    lambda m, v: m.asarray(v, dtype=np.float64), lambda m, v: m.array(v, dtype=np.int32),
    lambda m, v: m.asarray(v, dtype=np.bool_), lambda m, v: m.array([v, v], dtype=float),
    lambda m, v: m.asarray(v, dtype=np.float32, copy=False)])
def test_complex_array_to_real_warns_as_numpy(convert):
    # ComplexWarning for an xnp complex array converted to a real dtype (none for bool, and
    # none when copy=False refuses), naming the caller's line
    v = np.array([1 + 2j, -0.5j])
    seen = {}
    for mod in (np, xnp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                out = np.asarray(convert(mod, mod.asarray(v)))
            except ValueError as e:
                out = type(e)
        seen[mod] = (out, [(x.category, x.filename) for x in w])
    if isinstance(seen[np][0], np.ndarray):
        np.testing.assert_array_equal(seen[xnp][0], seen[np][0])
        assert seen[xnp][0].dtype == seen[np][0].dtype
    else:
        assert seen[xnp][0] is seen[np][0]
    assert seen[xnp][1] == [(c, __file__) for c, _ in seen[np][1]]


def test_creation_keeps_each_calls_dtype_metadata():
    # equal dtypes that differ in metadata: each call's own, whichever came first
    md = np.dtype(np.float32, metadata={"k": 2})
    for order in ([md, np.dtype(np.float32)], [np.dtype(np.float32), md]):
        for dt in order:
            for fn in (xp.zeros, xp.ones, xp.empty):
                got = np.asarray(fn(2, dtype=dt))
                assert got.dtype == np.float32 and got.dtype.metadata == dt.metadata


def test_array_copy_semantics():
    host = np.arange(3.0)
    assert not np.shares_memory(np.asarray(xp.array(host)), host)
    assert np.shares_memory(np.asarray(xp.asarray(host)), host)  # numpy.asarray shares too
    a = xp.arange(3.0)
    assert xp.asarray(a) is a
    assert xp.asarray(a, dtype=np.float64) is a
    b = xp.array(a)
    assert b is not a and not np.shares_memory(np.asarray(a), np.asarray(b))
    c = xp.array(a, copy=None)
    assert c is a
    assert not np.shares_memory(np.asarray(xp.copy(a)), np.asarray(a))
    d = xp.asarray(a, copy=True)
    assert not np.shares_memory(np.asarray(d), np.asarray(a))


def test_array_copy_false_errors_match_numpy():
    check_vs_numpy(lambda m: m.asarray([1, 2], copy=False), jit=False)
    check_vs_numpy(lambda m, x: m.asarray(x, dtype=np.float32, copy=False), np.ones(3), jit=False)
    with pytest.raises(ValueError):
        xnp.jit(lambda x: xp.asarray(x, dtype=np.float32, copy=False))(np.ones(3))


def test_array_bad_inputs():
    check_vs_numpy(lambda m: m.array([[1, 2], [3]]))  # ragged: ValueError
    assert xp.array(["a", "b"]).tolist() == ["a", "b"]  # NumPy's string array, eagerly
    with pytest.raises(xnp.errors.HostDtypeError, match=r"xnp\.array.*<U1"):
        xnp.jit(lambda x: xp.array(["a", "b"]))(1.0)
    with pytest.raises(OverflowError):
        xp.array(300, dtype=np.int8)
    with pytest.raises(ValueError, match="order"):
        xp.array([1], order="X")
    with pytest.raises(NotImplementedError, match="like"):
        xp.asarray([1], like=np.ones(1))


def test_python_scalars_give_strong_arrays():
    assert xp.asarray(2.0).weak_type is False
    assert xp.array(3).dtype == np.int64
    out = []
    xnp.jit(lambda x: out.append(repr(xp.asarray(2.0))) or x)(1.0)
    assert out == ["JitTracer(float64[])"]


def test_array_of_traced_values_is_staged():
    j = xnp.make_jaxpr(lambda x, y: xp.array([x, y]))(1.0, np.float32(2))
    assert j.out_avals[0].shape == (2,) and j.out_avals[0].dtype == np.float32
    r = xnp.jit(lambda x: xp.array([x, 2 * x]))(np.float64(3))
    assert_allclose(r, np.array([3.0, 6.0]))



def test_array_of_traced_values_nested_and_mixed():
    # rows mixing xnp values, Python scalars and lists are joined as xnp.stack joins them:
    # the dtype is NEP 50's (the Python scalars are weak), the values NumPy's
    def body(m, x):
        return m.array([[x[0], 2.0, x[1]], [1, x[1] * 3, -x[0]]])

    # Eagerly x[0] is NumPy's float32 scalar, and NumPy's array() of NumPy scalars and
    # Python floats is float64: eager xnp gives NumPy's result exactly. Under jit the
    # elements are traced (float32) and the Python scalars weak: float32.
    x = np.array([1.5, -2.0], np.float32)
    want = np.array([[1.5, 2.0, -2.0], [1, -6.0, -1.5]], np.float32)
    eager = body(xp, xp.asarray(x))
    assert eager.dtype == body(np, x).dtype and eager.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(eager), body(np, x))
    got = xnp.jit(lambda x: body(xp, x))(xp.asarray(x))
    assert got.dtype == np.float32 and got.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_array_of_traced_values_of_different_shapes_raises_value_error():
    with pytest.raises(ValueError):  # NumPy's class for an inhomogeneous sequence
        np.array([np.ones(2), np.ones(3)])
    with pytest.raises(ValueError, match=r"xnp.asarray: .* different shapes, "
                                         r"float64\[2\], float64\[3\]"):
        xnp.jit(lambda x: xp.asarray([x, xp.ones(3)]))(np.ones(2))

def test_astype_and_copy():
    check_vs_numpy(lambda m, x: m.astype(x, np.int8), np.linspace(-3, 3, 7))
    a = xp.arange(3)
    assert xp.astype(a, np.int64, copy=False) is a
    b = xp.astype(a, np.int64)
    assert b is not a and not np.shares_memory(np.asarray(a), np.asarray(b))
    j = xnp.make_jaxpr(lambda x: (x.astype(np.float64), x.astype(np.int32)))(np.ones(2))
    assert [e.primitive.name for e in j.eqns] == ["copy", "convert_element_type"]
    check_vs_numpy(lambda m, x: m.copy(x), np.arange(4.0))


def test_jit_copy_is_distinct_value():
    # writes to an xnp.array copy must not reach the original, also under jit
    def f(x):
        y = xp.array(x)
        y += 1
        return x, y

    ex, ey = f(xp.zeros(2))
    jx, jy = xnp.jit(f)(np.zeros(2))
    assert_allclose(ex, np.zeros(2))
    assert_allclose(jx, np.zeros(2))
    assert_allclose(jy, np.ones(2))


# --------------------------------------------------------------------------- shapes and staging under jit


def test_prints_under_jit_show_static_shape_and_traced_xp(capsys):
    @xnp.jit
    def f(x):
        print(f"x = {x}")
        print(f"x.shape = {x.shape}")
        print(f"xp.array(x.shape).prod() = {xp.array(x.shape).prod()}")
        print(f"np.prod(x.shape) = {np.prod(x.shape)!r}")
        print(repr(xp.array(x.shape)))

    f(xp.ones((2, 3)))
    assert capsys.readouterr().out.splitlines() == [
        "x = JitTracer(float64[2,3])", "x.shape = (2, 3)",
        "xp.array(x.shape).prod() = JitTracer(int64[])", "np.prod(x.shape) = np.int64(6)",
        "JitTracer(int64[2])"]


def test_reshape_with_numpy_size():
    @xnp.jit
    def f(x):
        return x.reshape((np.prod(x.shape),))

    r = f(xp.ones((2, 3)))
    assert r.shape == (6,) and r.dtype == np.float64
    j = xnp.make_jaxpr(f.__wrapped__)(xp.ones((2, 3)))
    assert norm(str(j)) == ("{ lambda ; a:f64[2,3]. let b:f64[6] = reshape[dimensions=None "
                            "new_sizes=(6,)] a in (b,) }")


def test_xp_shape_arithmetic_jaxpr_and_error():
    j = xnp.make_jaxpr(lambda x: xp.prod(xp.array(x.shape)))(xp.ones((3, 4)))
    assert norm(str(j)) == ("{ lambda a:i64[2]; b:f64[3,4]. let "
                            "c:i64[] = reduce_prod[axes=(0,)] a in (c,) }")

    @xnp.jit
    def ex1(x):
        size = xp.prod(xp.array(x.shape))
        return x.reshape((size,))

    with pytest.raises(TypeError) as info:
        ex1(xp.ones((3, 4)))
    msg = str(info.value)
    assert isinstance(info.value, xnp.errors.ConcretizationTypeError)
    assert "Shapes must be 1D sequences of concrete values of integer type" in msg
    assert "JitTracer(int64[])" in msg
    assert "ex1" in msg and re.search(r"reduce_prod\[axes=\(0,\)\]", msg)
    assert re.search(r"test_creation\.py:\d+", msg)


def test_creation_calls_under_jit_return_tracers(capsys):
    @xnp.jit
    def f(x):
        for v in (xp.array(x.shape), xp.asarray([1, 2, 3]), xp.arange(3), xp.ones(3),
                  xp.zeros_like(x), xp.float64(2)):
            print(repr(v))
        return x

    f(xp.ones((3, 4)))
    assert capsys.readouterr().out.splitlines() == [
        "JitTracer(int64[2])", "JitTracer(int64[3])", "JitTracer(int64[3])",
        "JitTracer(float64[3])", "JitTracer(float64[3,4])", "JitTracer(float64[])"]
    j = xnp.make_jaxpr(lambda x: (xp.ones(3), xp.zeros_like(x)))(np.ones((3, 4), np.int64))
    assert norm(str(j)) == (
        "{ lambda ; a:i64[3,4]. let b:f64[3] = broadcast_in_dim[broadcast_dimensions=() "
        "shape=(3,)] 1.0:f64[] c:i64[3,4] = broadcast_in_dim[broadcast_dimensions=() "
        "shape=(3, 4)] 0:i64[] in (b, c) }")


def test_eager_creation_returns_xnp_arrays():
    for v in (xp.array((3, 4)), xp.asarray([1, 2, 3]), xp.arange(3), xp.ones(3), xp.eye(2),
              xp.linspace(0, 1, 2), xp.full(2, 1)):
        assert type(v) is xnp.Array


def test_numeric_dtypes_round_trip(rng):
    for dt in NUMERIC:
        x = rng.standard_normal(3).astype(dt)
        assert_allclose(xp.array(x), x)


def test_mask_built_on_device():
    @xnp.jit
    def select_tril(x):
        mask = xp.arange(x.shape[0])[:, None] > xp.arange(x.shape[1])
        return xnp.lax.select(mask, x, xp.zeros_like(x))

    x = np.arange(12).reshape((3, 4))
    assert_allclose(select_tril(x), np.array([[0, 0, 0, 0], [4, 0, 0, 0], [8, 9, 0, 0]]))
    j = xnp.make_jaxpr(select_tril.__wrapped__)(x)
    assert not j.jaxpr.constvars
    text = norm(str(j))
    assert re.search(r"b:i64\[3\] = iota\[dimension=0 dtype=int64 shape=\(3,\)\] "
                     r"c:i64\[3,1\] = broadcast_in_dim\[broadcast_dimensions=\(0,\) "
                     r"shape=\(3, 1\)\] b "
                     r"d:i64\[4\] = iota\[dimension=0 dtype=int64 shape=\(4,\)\]", text), text
    assert re.search(r"f:bool\[3,4\] = gt c e "
                     r"g:i64\[3,4\] = broadcast_in_dim\[broadcast_dimensions=\(\) "
                     r"shape=\(3, 4\)\] 0:i64\[\]", text), text
    hlo = xnp.jit(select_tril.__wrapped__).lower(x).as_text()
    assert hlo.count("stablehlo.iota") == 2 and "dense<[[" not in hlo  # no baked-in mask


@pytest.mark.parametrize("order", [None, "K", "A", "C", "F"])
@pytest.mark.parametrize("fname", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_functions_lay_out_as_numpy(fname, order):
    """The ``*_like`` functions' layout for every ``order`` spelling (None is 'K') on a
    Fortran-ordered and a C-ordered prototype, as NumPy's: strides compared, values too
    (``empty_like``'s are not defined)."""
    args = (2.5,) if fname == "full_like" else ()
    for proto in (np.asfortranarray(np.arange(12.0).reshape(3, 4)), np.arange(12.0).reshape(3, 4)):
        want = getattr(np, fname)(proto, *args, order=order)
        got = np.asarray(getattr(xnp, fname)(xnp.asarray(proto), *args, order=order))
        assert got.strides == want.strides and got.dtype == want.dtype
        if fname != "empty_like":
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("order", ["k", "a", "f", "c", b"K", b"F", "x", 3])
def test_order_spellings_as_numpy(order):
    """One letter of any case, str or bytes, is NumPy's order for the creation functions,
    copies and casts (strides compared on a Fortran-ordered input); anything else raises
    NumPy's exception class."""
    a = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    calls = [lambda m, x: m.zeros_like(x, order=order), lambda m, x: m.copy(x, order=order),
             lambda m, x: x.astype(np.float32, order=order),
             lambda m, x: m.asarray(x, order=order), lambda m, x: m.array(x, order=order),
             lambda m, x: m.zeros((2, 2), order=order), lambda m, x: m.full_like(x, 1, order=order)]
    for call in calls:
        try:
            want = np.asarray(call(np, a))
        except Exception as e:  # noqa: BLE001  (compared below)
            with pytest.raises(type(e)):
                call(xnp, xnp.asarray(a))
            continue
        got = np.asarray(call(xnp, xnp.asarray(a)))
        assert got.strides == want.strides and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", ["asarray", "array"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.bool_, None], ids=str)
@pytest.mark.parametrize("src", [np.array([1 + 2j, 3 - 0.5j]), np.array([], np.complex64),
                                 np.array([[2.5 - 1j]], np.complex64)],
                         ids=["c128", "empty", "c64-2d"])
def test_complex_numpy_array_to_a_real_dtype_warns_at_the_callers_line(fn, dtype, src):
    """``asarray``/``array`` of a complex NumPy array with a real or integer ``dtype``: NumPy's
    values and its ``ComplexWarning``, naming the caller's line (not xnp's), on every call;
    into bool or complex, silently."""
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = np.array(src, dtype=dtype)
    for _ in range(3):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = getattr(xnp, fn)(src, dtype=dtype)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
        assert [w.category for w in got_w] == [w.category for w in want_w]
        assert all(w.filename == __file__ for w in got_w)


@pytest.mark.parametrize("data", [
    lambda a: [a(np.int8(1)), 300], lambda a: [a(np.float32(1)), 1e300],
    lambda a: [a(np.int8(1)), True], lambda a: [[a(np.int8(1)), 2], (3, 4)],
    lambda a: [a(np.float32(1)), 2], lambda a: [a(np.arange(2, dtype=np.int8)), [1, 2]],
    lambda a: [a(np.uint8(3)), -1], lambda a: [a(np.complex64(1j)), 2.5]])
@pytest.mark.parametrize("fn", ["array", "asarray"])
def test_python_numbers_beside_arrays_in_a_sequence_are_numpys_items(fn, data):
    """Eagerly a Python number in a sequence with xnp arrays is an item of NumPy's default
    dtype, not a weak scalar: ``array([int8 array, 300])`` is int64 [1, 300], as NumPy's (it
    was int8 [1, 44]), on every call. (Beside traced values the numbers stay weak, as
    ``xnp.stack`` joins them: test_array_of_traced_values_nested_and_mixed.)"""
    want = getattr(np, fn)(data(np.asarray))
    for _ in range(3):
        got = getattr(xnp, fn)(data(xnp.asarray))
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_complex_numpy_scalar_to_a_real_dtype_warns_on_every_call():
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = np.asarray(np.complex128(1 + 2j), dtype=np.float32)
    for _ in range(3):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = xnp.asarray(np.complex128(1 + 2j), dtype=np.float32)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert [w.category for w in got_w] == [w.category for w in want_w]
        assert all(w.filename == __file__ for w in got_w)
