"""Tests of the host-side functions in ``xnp/numpy_api/host_io.py``, ``host_format.py`` and
``piecewise.py``: file round trips against NumPy (values and dtypes), buffers/iterators,
print options on ``Array`` repr, ``asarray_chkfinite``/``require`` errors, metadata helpers,
and ``piecewise`` eagerly, under jit and grad."""

import io

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import check_vs_numpy, grid, make_array
from xnp.tracing.errors import TracerArrayConversionError

SAVE_DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.int32, np.int64, np.uint16,
                                     np.float16, np.float32, np.float64, np.complex64,
                                     np.complex128)]


def _same(actual, expected):
    assert isinstance(actual, xnp.ndarray)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(actual), expected)


@pytest.mark.parametrize("case", grid(40, dtype=SAVE_DTYPES, shape=[(), (0,), (3,), (2, 3)]),
                         ids=repr)
def test_save_load_round_trip(tmp_path, case):
    a = make_array(np.random.default_rng(0), case.shape, case.dtype)
    xnp.save(tmp_path / "a.npy", xnp.asarray(a))
    _same(xnp.load(tmp_path / "a.npy"), np.load(tmp_path / "a.npy"))
    _same(xnp.load(tmp_path / "a.npy"), a)


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_load_mapping(tmp_path, compressed):
    a, b = np.arange(6.0).reshape(2, 3), np.array([1, 2], np.int8)
    saver = xnp.savez_compressed if compressed else xnp.savez
    saver(tmp_path / "z.npz", xnp.asarray(a), weights=xnp.asarray(b))
    with xnp.load(tmp_path / "z.npz") as z:
        assert sorted(z.files) == ["arr_0", "weights"] and len(z) == 2
        _same(z["arr_0"], a)
        _same(z["weights"], b)
        assert {k: v.dtype for k, v in z.items()} == {"arr_0": a.dtype, "weights": b.dtype}


def test_load_pickle_default_and_void_bfloat16(tmp_path):
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError):  # allow_pickle=False by default, as NumPy
        xnp.load(tmp_path / "o.npy")
    bf = xnp.asarray(np.array([1.5, -2.0], ml_dtypes.bfloat16))
    xnp.save(tmp_path / "bf.npy", bf)  # NumPy can only store it as raw '|V2'
    loaded = xnp.load(tmp_path / "bf.npy")  # NumPy's raw void array, as numpy.load
    assert loaded.dtype == np.dtype("V2") and isinstance(loaded, xnp.ndarray)
    raw = np.load(tmp_path / "bf.npy").view(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(raw, np.asarray(bf))
    np.testing.assert_array_equal(np.asarray(loaded.view(ml_dtypes.bfloat16)), np.asarray(bf))
    objects = xnp.load(tmp_path / "o.npy", allow_pickle=True)
    assert objects.dtype == object and objects[0] == {"a": 1}


def test_saving_a_tracer_raises(tmp_path):
    def f(x):
        xnp.save(tmp_path / "t.npy", x)
        return x

    with pytest.raises(TracerArrayConversionError):
        xnp.jit(f)(np.ones(3))
    with pytest.raises(TracerArrayConversionError):
        xnp.jit(lambda x: xnp.array2string(x))(np.ones(3))


def test_loading_under_jit_is_a_constant(tmp_path):
    np.save(tmp_path / "c.npy", np.arange(4.0))
    f = xnp.jit(lambda x: x + xnp.load(tmp_path / "c.npy"))
    np.testing.assert_array_equal(np.asarray(f(np.ones(4))), np.arange(4.0) + 1)
    assert "c.npy" not in str(xnp.make_jaxpr(lambda x: x + xnp.load(tmp_path / "c.npy"))(
        np.ones(4)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, ml_dtypes.bfloat16])
def test_savetxt_loadtxt_genfromtxt(tmp_path, dtype):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    fmt = "%d" if np.dtype(dtype).kind == "i" else "%.18e"
    xnp.savetxt(tmp_path / "a.txt", xnp.asarray(a), fmt=fmt, delimiter=",")
    np.savetxt(tmp_path / "b.txt", a, fmt=fmt, delimiter=",")
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    # NumPy's text parser cannot produce bfloat16 (TypeError from NumPy, as here): read f32
    load_dt = np.float32 if dtype is ml_dtypes.bfloat16 else dtype
    for kw in [{}, {"usecols": (0, 2)}, {"ndmin": 2, "max_rows": 1}]:
        _same(xnp.loadtxt(tmp_path / "a.txt", dtype=load_dt, delimiter=",", **kw),
              np.loadtxt(tmp_path / "a.txt", dtype=load_dt, delimiter=",", **kw))
    cols = xnp.loadtxt(tmp_path / "a.txt", delimiter=",", unpack=True)
    for c, e in zip(cols, np.loadtxt(tmp_path / "a.txt", delimiter=",", unpack=True)):
        _same(c, e)
    text = io.StringIO("1,2,\n4,,6\n")
    _same(xnp.genfromtxt(io.StringIO(text.getvalue()), delimiter=","),
          np.genfromtxt(io.StringIO(text.getvalue()), delimiter=","))
    with pytest.raises(NotImplementedError):
        xnp.genfromtxt(io.StringIO("1,2"), delimiter=",", usemask=True)
    words = xnp.loadtxt(io.StringIO("a b"), dtype=str)  # a string array, as NumPy's
    assert words.tolist() == np.loadtxt(io.StringIO("a b"), dtype=str).tolist()
    assert words.dtype == np.dtype("<U1")


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.complex128,
                                   ml_dtypes.bfloat16])
def test_frombuffer_fromfile_fromiter_dtypes(tmp_path, dtype):
    a = np.arange(8).astype(dtype)
    buf = bytearray(a.tobytes())
    for kw in [{}, {"count": 3}, {"offset": a.itemsize, "count": 2}]:
        _same(xnp.frombuffer(buf, dtype=dtype, **kw), np.frombuffer(buf, dtype=dtype, **kw))
    x = xnp.frombuffer(buf, dtype=dtype)
    buf[:a.itemsize] = b"\xff" * a.itemsize  # the xnp result is a copy, not a view
    _same(x, a)
    a.tofile(tmp_path / "raw.bin")
    _same(xnp.fromfile(tmp_path / "raw.bin", dtype=dtype),
          np.fromfile(tmp_path / "raw.bin", dtype=dtype))
    _same(xnp.fromiter(iter(range(5)), dtype=dtype), np.fromiter(range(5), dtype=dtype))
    _same(xnp.fromiter((xnp.asarray(i) for i in range(3)), dtype=dtype, count=2),
          np.fromiter(range(3), dtype=dtype, count=2))
    with pytest.raises(ValueError):
        np.frombuffer(b"\x00" * 3, dtype=np.int16)
    with pytest.raises(ValueError):
        xnp.frombuffer(b"\x00" * 3, dtype=np.int16)


def test_fromstring_requires_text_mode():
    _same(xnp.fromstring("1 2 3", dtype=np.int32, sep=" "),
          np.fromstring("1 2 3", dtype=np.int32, sep=" "))
    _same(xnp.fromstring("1.5,2", sep=","), np.fromstring("1.5,2", sep=","))
    with pytest.raises(TypeError):
        xnp.fromstring("1 2")  # sep is keyword-only and required
    with pytest.raises(ValueError):
        xnp.fromstring("1 2", sep="")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_asarray_chkfinite(bad):
    for dt in [np.float64, np.float32, ml_dtypes.bfloat16, np.complex64]:
        a = np.array([1.0, bad]).astype(dt)
        with pytest.raises(ValueError, match="infs or NaNs"):
            xnp.asarray_chkfinite(a)
        with pytest.raises(ValueError, match="infs or NaNs"):
            xnp.asarray_chkfinite(xnp.asarray(a))
    _same(xnp.asarray_chkfinite([1, 2], dtype=np.float32), np.asarray_chkfinite([1, 2], np.float32))
    _same(xnp.asarray_chkfinite(np.arange(3)), np.arange(3))
    # under jit the values are unknown: no check, value passes through
    out = xnp.jit(xnp.asarray_chkfinite)(np.array([1.0, np.nan]))
    assert np.isnan(np.asarray(out)[1])


def test_require():
    a = np.arange(6.0).reshape(2, 3)
    for req in [None, "C", ["A", "W"], ["ALIGNED", "E", "O"], ["c_contiguous"], "CA"]:
        _same(xnp.require(a, requirements=req), np.require(a, requirements=req))
    _same(xnp.require(a, np.float32, "C"), np.require(a, np.float32, "C"))
    with pytest.raises(KeyError):
        np.require(a, requirements="Z")
    with pytest.raises(KeyError):
        xnp.require(a, requirements="Z")
    with pytest.raises(ValueError, match="Cannot specify both"):
        xnp.require(a, requirements="CF")
    _same(xnp.require(np.arange(3), requirements="F"), np.arange(3))
    x = xnp.asarray(a)
    assert xnp.require(x) is x and xnp.require(x, requirements="O") is not x
    np.testing.assert_array_equal(np.asarray(xnp.jit(lambda v: xnp.require(v, None, "C"))(a)), a)


_LAYOUTS = {"C": lambda v: v, "F": np.asfortranarray, "T": lambda v: v.T,
            "reversed": lambda v: v[::-1], "sliced": lambda v: v[:, ::2],
            "read-only": lambda v: np.broadcast_to(v[:1], v.shape)}


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
@pytest.mark.parametrize("req", ["C", "F", ["F", "W"], "O", ["C", "O"], "A", "W", "E"])
def test_require_layouts_match_numpy(layout, req):
    base = _LAYOUTS[layout](np.arange(24.0).reshape(2, 3, 4))
    want = np.require(base, requirements=req)
    got = xnp.require(xnp.asarray(base), requirements=req)
    g = np.asarray(got)
    np.testing.assert_array_equal(g, want)
    assert got.strides == want.strides
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        assert got.flags[flag] == want.flags[flag], flag
    jitted = xnp.jit(lambda v: xnp.require(v, requirements=req))(xnp.asarray(base))
    np.testing.assert_array_equal(np.asarray(jitted), want)


def test_printoptions_affect_repr_and_str():
    x = xnp.asarray(np.array([1 / 3, 2e-9, 1000.0]))
    default = repr(x)
    with xnp.printoptions(precision=3, suppress=True):
        assert repr(x) == "array([   0.333,    0.   , 1000.   ])"
        assert str(x) == str(np.array([1 / 3, 2e-9, 1000.0])) == "[   0.333    0.    1000.   ]"
        assert xnp.get_printoptions()["precision"] == 3
    assert repr(x) == default
    old = xnp.get_printoptions()
    try:
        xnp.set_printoptions(threshold=5, edgeitems=1)
        assert "..." in repr(xnp.arange(100)) and "..." in str(xnp.arange(100))
    finally:
        xnp.set_printoptions(**old)
    assert repr(xnp.asarray(np.array([1.5, 2.0], ml_dtypes.bfloat16))) == \
        "array([1.5, 2], dtype=bfloat16)"


def test_formatting_functions_match_numpy():
    a = np.array([[1 / 3, -2.5], [1e-8, 7.0]])
    x = xnp.asarray(a)
    for kw in [{}, {"precision": 2}, {"separator": ", ", "suppress_small": True},
               {"max_line_width": 10}, {"formatter": {"float": "{:.1f}".format}}]:
        assert xnp.array2string(x, **kw) == np.array2string(a, **kw)
    assert xnp.array_str(x, precision=2) == np.array_str(a, precision=2)
    assert xnp.array_repr(x, precision=2) == np.array_repr(a, precision=2)
    assert xnp.array_repr(a) == repr(x)
    for v in [0.1, 1 / 3, 1e20, np.float32(0.1)]:
        assert xnp.format_float_positional(v, precision=4) == \
            np.format_float_positional(v, precision=4)
        assert xnp.format_float_scientific(v, exp_digits=3) == \
            np.format_float_scientific(v, exp_digits=3)
    assert xnp.format_float_positional(xnp.asarray(np.float32(0.1))) == \
        np.format_float_positional(np.float32(0.1))
    for n in [0, 5, -5, 255]:
        assert xnp.binary_repr(n, width=10) == np.binary_repr(n, width=10)
        assert xnp.base_repr(n, 7, padding=2) == np.base_repr(n, 7, padding=2)
    assert xnp.binary_repr(xnp.asarray(6)) == "110"
    with pytest.raises(ValueError):
        xnp.base_repr(3, base=40)


def test_dtype_metadata_helpers():
    f32, i8, c64 = (np.ones(2, t) for t in (np.float32, np.int8, np.complex64))
    for arrays in [(f32,), (i8,), (f32, c64), (np.ones(2, np.float16),), (f32, i8)]:
        assert xnp.common_type(*map(xnp.asarray, arrays)) is np.common_type(*arrays)
    with pytest.raises(TypeError):
        np.common_type(np.ones(2, bool))
    with pytest.raises(TypeError):
        xnp.common_type(xnp.ones(2, bool))
    for v in [3, -300, 1e50, 2.5, np.arange(3.0), np.float64(1.0)]:
        assert xnp.min_scalar_type(v) == np.min_scalar_type(v)
        assert xnp.min_scalar_type(xnp.asarray(v)) == np.min_scalar_type(np.asarray(v))
    assert xnp.mintypecode(["f", "d", "F"]) == np.mintypecode(["f", "d", "F"])
    assert xnp.mintypecode([xnp.ones(2, np.float32), np.dtype("D")]) == \
        np.mintypecode([np.ones(2, np.float32), np.ones(1, "D")])
    assert xnp.typename("d") == np.typename("d")

    def traced(x):  # metadata only: works on tracers
        assert xnp.common_type(x) is np.float32 and xnp.mintypecode([x]) == "f"
        assert xnp.min_scalar_type(x) == np.float32
        return x

    xnp.jit(traced)(f32)


def _pw_cases():
    return [
        (lambda xp, x: xp.piecewise(x, [x < 0, x >= 0], [-1, 1])),
        (lambda xp, x: xp.piecewise(x, [x < -1, x > 1], [lambda v: v * 2, lambda v: v ** 2,
                                                          lambda v: -v])),
        (lambda xp, x: xp.piecewise(x, x > 0, [lambda v: v + 10])),
        (lambda xp, x: xp.piecewise(x, x > 0, [lambda v: v + 10, 7.5])),
        (lambda xp, x: xp.piecewise(x, [x > -1, x > 0.5], [3, lambda v, k: v * k], 4)),
        (lambda xp, x: xp.piecewise(x, [x < 0], [1, 2, 3])),  # ValueError
    ]


@pytest.mark.parametrize("case", grid(40, body=range(6), shape=[(), (0,), (5,), (2, 3)],
                                      dtype=[np.float64, np.float32, np.int32]), ids=repr)
def test_piecewise_matches_numpy(case):
    body = _pw_cases()[case.body]
    x = make_array(np.random.default_rng(1), case.shape, np.dtype(case.dtype)) * 2
    x = x.astype(case.dtype)
    check_vs_numpy(body, x, rtol=1e-6)


def test_piecewise_grad_and_vmap():
    f = lambda x: xnp.sum(xnp.piecewise(x, [x < 0], [lambda v: v ** 2, lambda v: 3 * v]))  # noqa
    x = np.array([-2.0, -0.5, 1.0, 4.0])
    np.testing.assert_allclose(np.asarray(xnp.grad(f)(x)), np.where(x < 0, 2 * x, 3.0))
    g = xnp.vmap(lambda r: xnp.piecewise(r, [r > 0], [lambda v: v, 0.0]))
    m = np.array([[1.0, -1.0], [-3.0, 2.0]])
    np.testing.assert_array_equal(np.asarray(g(m)), np.maximum(m, 0))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("index", [(slice(None), slice(0, 1)), (slice(0, 1), slice(None)),
                                   (slice(None), slice(None, None, 2)),
                                   (slice(None, None, -1), slice(1, 4))])
def test_copies_own_their_memory_with_numpys_strides(index, order):
    n = np.arange(24.0).reshape(4, 6)[index]
    x = xnp.asarray(np.arange(24.0).reshape(4, 6))[index]
    for want, got in ((n.copy(order), x.copy(order)),
                      (n.astype(np.float32, order=order), x.astype(np.float32, order=order)),
                      (np.require(n, np.float32, "F"), xnp.require(x, np.float32, "F"))):
        assert got.strides == want.strides
        assert got.flags.owndata == want.flags.owndata
        np.testing.assert_array_equal(np.asarray(got), want)
