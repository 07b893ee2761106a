"""ndarray's memory attributes on eager xnp arrays vs NumPy's on the same operations:
flags, strides, base, data, ctypes, setflags, flat, resize, byteswap, getfield/setfield,
tofile, dump/dumps, reshape(copy=), asfortranarray/isfortran, conj() of a real array
(the array itself); the TypeError they raise on tracers; flat and reshape(copy=) under
jit."""

import pickle
import re

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose

FLAGS = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")

# the same view-making operation on a NumPy array and on an xnp array
VIEWS = {
    "owner": lambda a: a,
    "slice": lambda a: a[1:, ::2],
    "transpose": lambda a: a.T,
    "reshape": lambda a: a.reshape(4, 6),
    "ravel_copy": lambda a: a[:, ::2].ravel(),
    "row": lambda a: a[1],
    "newaxis": lambda a: a[None, :, 1],
    "broadcast_to": lambda a: a[0].__array_namespace__().broadcast_to(a[0], (2, 6))
    if hasattr(a, "__array_namespace__") else np.broadcast_to(a[0], (2, 6)),
    "copy": lambda a: a.copy(),
    "sum": lambda a: a.sum(axis=0),
}


def _pair(dtype=np.float64):
    n = np.arange(24, dtype=dtype).reshape(4, 6).copy()
    return n, xnp.asarray(n.copy())


@pytest.mark.parametrize("name", list(VIEWS))
def test_flags_strides_and_base_match_numpy(name):
    n, x = _pair()
    nv, xv = VIEWS[name](n), VIEWS[name](x)
    for f in FLAGS:
        assert xv.flags[f] == nv.flags[f], f
    assert (xv.flags.c_contiguous, xv.flags.f_contiguous, xv.flags.owndata,
            xv.flags.writeable) == (nv.flags.c_contiguous, nv.flags.f_contiguous,
                                    nv.flags.owndata, nv.flags.writeable)
    assert xv.strides == nv.strides
    if nv.base is None:
        assert xv.base is None
    elif nv.base is n:
        assert xv.base is x
    else:  # NumPy's base is another view's owner: the same memory
        assert np.shares_memory(np.asarray(xv.base), np.asarray(x))


def test_base_collapses_to_the_owner_as_numpy():
    x = xnp.arange(10.0)
    v = x[2:]
    assert v.base is x and v[1:].base is x and v.T.base is x
    assert x.base is None and (x + 1).base is None
    assert xnp.jit(lambda a: a * 2)(x).base is None
    n = np.arange(5.0)
    w = xnp.asarray(n[1:])  # a NumPy view from outside xnp: its base is NumPy's memory
    assert np.shares_memory(np.asarray(w.base), n)


def test_writeable_false_makes_writes_raise_as_numpy():
    n, x = _pair()
    nv, xv = n[1:], x[1:]  # views made before: still writeable, as NumPy's
    n.flags.writeable = False
    x.flags.writeable = False
    assert x.flags.writeable is False and x.flags["W"] is False
    for target in (n, x):
        with pytest.raises(ValueError, match="read-only"):
            target[0, 0] = 5
    with pytest.raises(ValueError, match="read-only"):
        x += 1
    with pytest.raises(ValueError, match="read-only"):
        x[2:][0, 0] = 1  # a view made afterwards is read-only too
    nv[0, 0] = -1
    xv[0, 0] = -1
    assert_allclose(x, n)
    x.setflags(write=True)
    x[0, 0] = 7
    assert float(x[0, 0]) == 7
    n.flags.writeable = False
    x.flags.writeable = False
    for target in (n[1:], x[1:]):  # a view of read-only memory cannot be made writeable
        with pytest.raises(ValueError, match="WRITEABLE"):
            target.setflags(write=True)


def test_flags_of_a_jit_output_are_an_owners():
    y = xnp.jit(lambda a: a + 1)(xnp.arange(4.0))
    assert y.flags.writeable and y.flags.owndata and y.flags.c_contiguous
    y[0] = 10
    assert_allclose(y, np.array([10.0, 2, 3, 4]))


def test_data_and_ctypes_expose_the_memory():
    x = xnp.arange(4, dtype=np.int32)
    m = x.data
    assert m.format == np.arange(4, dtype=np.int32).data.format and m.nbytes == 16
    m[1] = 99  # writes through the memoryview reach the array
    assert int(x[1]) == 99
    assert x.ctypes.data == np.asarray(x).ctypes.data
    assert tuple(x[::2].ctypes.strides) == np.arange(4, dtype=np.int32)[::2].strides


@pytest.mark.parametrize("idx", [3, -1, slice(1, 5), slice(None, None, -3), [0, 5, 2],
                                 np.array([[1, 2], [3, 4]]), Ellipsis])
def test_flat_indexing_matches_numpy(idx):
    n, x = _pair()
    got, want = x.T.flat[idx], n.T.flat[idx]
    assert_allclose(got, np.asarray(want))
    jf = xnp.jit(lambda a: a.T.flat[idx])
    assert_allclose(jf(n), np.asarray(want))


@pytest.mark.parametrize("idx,val", [(slice(2, 7), 5.0), ([0, 3, 9], [1.0, 2.0]),
                                     (slice(None), [1.0, 2.0, 3.0]), (4, -1.0)])
def test_flat_assignment_writes_back_eager_and_jit(idx, val):
    n, x = _pair()
    v = x[1:]  # a live view sees the write
    n.flat[idx] = val
    x.flat[idx] = val
    assert_allclose(x, n)
    assert_allclose(v, n[1:])

    def f(a):
        b = a[1:]
        a.flat[idx] = val
        return b

    m = np.arange(24.0).reshape(4, 6)
    out = xnp.jit(f)(m.copy())
    assert_allclose(out, n[1:])
    xm = xnp.asarray(m.copy())
    xnp.jit(f)(xm)  # a jitted in-place update writes back into the argument
    assert_allclose(xm, n)


def test_flat_iteration_and_attributes_match_numpy():
    n, x = _pair()
    nf, xf = n[:, 1:3].flat, x[:, 1:3].flat
    assert xf.base is not None and len(xf) == len(nf)
    assert [float(next(xf)) for _ in range(3)] == [float(next(nf)) for _ in range(3)]
    assert (xf.index, xf.coords) == (nf.index, nf.coords)
    assert [float(v) for v in xf] == [float(v) for v in nf]
    assert xf.index == nf.index
    assert_allclose(x.flat.copy(), n.flat.copy())
    assert_allclose(np.asarray(x.flat), np.asarray(n.flat))
    assert x.flat.base is x
    x.flat = [1.0, 2.0]
    n.flat = [1.0, 2.0]
    assert_allclose(x, n)
    with pytest.raises(TypeError, match="flatiter"):
        xnp.flatiter(x)


def test_resize_in_place_as_numpy():
    n, x = np.arange(6.0), xnp.arange(6.0)
    n.resize(2, 4, refcheck=False)
    x.resize(2, 4)
    assert x.shape == (2, 4)
    assert_allclose(x, n)
    x.resize((3,))
    assert_allclose(x + 1, np.arange(3.0) + 1)
    x.resize(None)
    n3 = np.arange(3.0)
    n3.resize(None)  # NumPy's: no new shape, nothing changes
    assert x.shape == n3.shape == (3,)
    y = xnp.arange(4)
    v = y[1:]
    with pytest.raises(ValueError, match="referenced"):
        y.resize(8)
    y.resize(2, refcheck=False)
    assert y.shape == (2,)
    with pytest.raises(ValueError, match="own its data"):
        v.resize(2)
    del v


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.float64,
                                   np.complex64, np.bool_])
def test_byteswap_matches_numpy(dtype):
    n = (np.arange(5) * 3 + 1).astype(dtype)
    x = xnp.asarray(n.copy())
    assert_allclose(x.byteswap(), n.byteswap())
    assert_allclose(x, n)  # not in place
    view = x[1:]
    assert x.byteswap(inplace=True) is x
    n.byteswap(inplace=True)
    assert_allclose(x, n)
    assert_allclose(view, n[1:])
    m = (np.arange(5) * 3 + 1).astype(dtype)
    assert_allclose(xnp.jit(lambda a: a.byteswap())(m), m.byteswap())

    def f(a):
        v = a[1:]
        a.byteswap(inplace=True)
        return v

    want = m.byteswap()
    xm = xnp.asarray(m.copy())
    assert_allclose(xnp.jit(f)(xm), want[1:])
    assert_allclose(xm, want)  # the jitted in-place update is written back


def test_getfield_setfield_match_numpy():
    n = np.arange(4, dtype=np.int32) * 70000
    x = xnp.asarray(n.copy())
    assert_allclose(x.getfield(np.int16), n.getfield(np.int16))
    assert_allclose(x.getfield(np.int16, 2), n.getfield(np.int16, 2))
    g = x.getfield(np.uint8, 1)
    g[...] = 0  # a view: writes reach the array, as NumPy's
    ng = n.copy()
    ng.getfield(np.uint8, 1)[...] = 0
    assert_allclose(x, ng)
    x.setfield(xnp.asarray([7, 8, 9, 10], dtype=np.int16), np.int16, 2)
    ng.setfield(np.array([7, 8, 9, 10], np.int16), np.int16, 2)
    assert_allclose(x, ng)


def test_tofile_dump_dumps_round_trip(tmp_path):
    x = xnp.arange(6, dtype=np.float32).reshape(2, 3)
    x.tofile(tmp_path / "a.bin")
    assert_allclose(np.fromfile(tmp_path / "a.bin", np.float32), np.arange(6, dtype=np.float32))
    x.tofile(str(tmp_path / "a.txt"), sep=",")
    assert (tmp_path / "a.txt").read_text() == "0.0,1.0,2.0,3.0,4.0,5.0"
    back = pickle.loads(x.dumps())
    assert type(back) is type(x)
    assert_allclose(back, np.arange(6, dtype=np.float32).reshape(2, 3))
    x.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        assert_allclose(pickle.load(f), np.arange(6, dtype=np.float32).reshape(2, 3))


@pytest.mark.parametrize("make,shape", [(lambda a: a, (4, 6)), (lambda a: a.T, (24,)),
                                        (lambda a: a[:, :3], (12,)), (lambda a: a[1], (2, 3)),
                                        (lambda a: a.T, (6, 2, 2))])
@pytest.mark.parametrize("copy", [None, True, False])
def test_reshape_copy_matches_numpy(make, shape, copy):
    n, x = _pair()
    try:
        want = make(n).reshape(shape, copy=copy)
    except ValueError:
        with pytest.raises(ValueError, match="copy"):
            make(x).reshape(shape, copy=copy)
        with pytest.raises(ValueError, match="copy"):  # under jit, on a layout it knows
            xnp.jit(lambda c: make(xnp.arange(24.0).reshape(4, 6) + c).reshape(
                shape, copy=copy))(0.0)
        return
    got = make(x).reshape(*shape, copy=copy)
    assert_allclose(got, want)
    assert np.shares_memory(np.asarray(got), np.asarray(x)) == np.shares_memory(want, n)
    out = xnp.jit(lambda c: make(xnp.arange(24.0).reshape(4, 6) + c).reshape(
        shape, copy=copy))(0.0)
    assert_allclose(out, want)


def test_asfortranarray_and_isfortran_match_numpy():
    for make in (lambda m: m.arange(6.0).reshape(2, 3), lambda m: m.arange(6.0).reshape(2, 3).T,
                 lambda m: m.arange(3), lambda m: m.ones(()), lambda m: [[1, 2], [3, 4]]):
        n, x = make(np), make(xnp)
        nf, xf = np.asfortranarray(n), xnp.asfortranarray(x)
        assert_allclose(xf, nf)
        assert xf.strides == nf.strides and xf.flags.f_contiguous
        assert xnp.isfortran(xf) == np.isfortran(nf)
        if isinstance(n, np.ndarray):
            assert xnp.isfortran(x) == np.isfortran(n)
            assert (xf is x) == (nf is n)
    assert xnp.asfortranarray(xnp.arange(4), dtype=np.float32).dtype == np.float32
    jf = xnp.jit(lambda c: xnp.isfortran(xnp.asfortranarray(xnp.ones((2, 3)) * c)))
    assert jf(1.0) is True or bool(jf(1.0)) is True
    jg = xnp.jit(lambda a: xnp.asfortranarray(a).reshape(-1))
    assert_allclose(jg(np.arange(6.0).reshape(2, 3)), np.arange(6.0))
    with pytest.raises(TypeError, match="isfortran"):
        xnp.jit(xnp.isfortran)(np.ones((2, 2)))


@pytest.mark.parametrize("name", ["flags", "strides", "base", "data", "ctypes"])
def test_memory_attributes_raise_on_tracers(name):
    with pytest.raises(TypeError, match=rf"ndarray\.{name}: .*traced"):
        xnp.jit(lambda a: getattr(a, name))(np.ones(3))


@pytest.mark.parametrize("call", [lambda a: a.resize(2), lambda a: a.setflags(write=False),
                                  lambda a: a.tofile("x"),
                                  lambda a: a.dumps(), lambda a: a.getfield(np.int32),
                                  lambda a: a.setfield(1, np.int32)])
def test_memory_methods_raise_on_tracers(call):
    with pytest.raises(TypeError, match=r"ndarray\.\w+: not available on a traced array"):
        xnp.jit(call)(np.ones(3))


def test_writing_an_eager_array_in_jit_is_refused():
    x = xnp.zeros(4)

    def f(v):
        x.flat[0] = v
        return v

    with pytest.raises(Exception, match="eager|global|side effect"):
        xnp.jit(f)(1.0)
    assert_allclose(x, np.zeros(4))


@pytest.mark.parametrize("make", [
    lambda m: m.zeros((2, 3), order="F"), lambda m: m.ones((2, 3, 2), np.int32, order="F"),
    lambda m: m.full((2, 3), 7.0, order="F"),
    lambda m: m.eye(3, 2, order="F"),
    lambda m: m.array(np.arange(6.0).reshape(2, 3), order="F"),
    lambda m: m.array(m.asarray(np.arange(6.0).reshape(3, 2)).T, order="A"),
    lambda m: m.array(m.asarray(np.arange(6.0).reshape(3, 2)).T, order="C"),
    lambda m: m.asarray(m.asarray(np.arange(6.0).reshape(2, 3)), order="F"),
    lambda m: m.copy(m.asarray(np.arange(6.0).reshape(2, 3)), order="F"),
    lambda m: m.copy(m.asarray(np.arange(6.0).reshape(3, 2)).T, order="A"),
    lambda m: m.asarray(np.arange(6.0).reshape(3, 2)).T.copy(),
    lambda m: m.zeros_like(m.asarray(np.arange(6.0).reshape(3, 2)).T),
    lambda m: m.ones_like(m.asarray(np.arange(6.0).reshape(2, 3)), order="F"),
    lambda m: m.full_like(m.asarray(np.arange(6.0).reshape(3, 2)).T, 2.0, order="A"),
    lambda m: m.ascontiguousarray(m.asarray(np.arange(6.0).reshape(3, 2)).T),
    lambda m: m.reshape(m.asarray(np.arange(6.0)), (2, 3), order="F"),
])
def test_fortran_order_results_match_numpy(make):
    want, got = make(np), make(xnp)
    assert_allclose(got, want)
    assert got.strides == want.strides
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)


def test_fortran_order_empty_matches_numpy_layout():
    # empty's contents are unspecified (NumPy may hand back recycled memory), so only its
    # layout, shape and dtype are compared
    want, got = np.empty((3, 2), order="F"), xnp.empty((3, 2), order="F")
    assert (got.shape, got.dtype, got.strides) == (want.shape, want.dtype, want.strides)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)


def test_fortran_order_under_jit_decides_later_views():
    # a Fortran-ordered array's C reshape must copy (NumPy's rule), its F reshape is a view
    def f(c):
        a = xnp.zeros((2, 3), order="F")
        a += c  # in place: the layout stays
        flat = a.reshape(-1, order="F")
        flat[0] = 5.0  # a view: reaches a
        b = a.reshape(-1)
        b[1] = 7.0  # a copy: does not
        return a, b

    n = np.zeros((2, 3), order="F")
    n += 1.0
    flat = n.reshape(-1, order="F")
    flat[0] = 5.0
    nb = n.reshape(-1)
    nb[1] = 7.0
    for got, want in zip(xnp.jit(f)(1.0), (n, nb)):
        assert_allclose(got, want)
    with pytest.raises(ValueError, match="copy"):
        xnp.jit(lambda c: xnp.zeros((2, 3), order="F").reshape(6, copy=False) + c)(1.0)


@pytest.mark.parametrize("make,shape", [
    (lambda m: m.arange(6.0), (2, 3)),
    (lambda m: m.arange(12).reshape(3, 4), (4, 3)),
    (lambda m: m.arange(12).reshape(3, 4)[1:], (8,)),   # a contiguous view
    (lambda m: m.arange(12).reshape(3, 4).T, (12,)),    # needs a copy: NumPy's AttributeError
    (lambda m: m.arange(6.0), (4,)),                    # another size: NumPy's ValueError
    (lambda m: m.arange(6.0), (-1, 2)),
])
def test_shape_assignment_matches_numpy(make, shape):
    want, got = make(np), make(xnp)
    try:
        want.shape = shape
    except (AttributeError, ValueError) as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            got.shape = shape
        return
    got.shape = shape
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    got.flat[0] = 7  # still the same memory, writable
    assert float(got.ravel()[0]) == 7.0


def test_shape_assignment_keeps_views_and_jit_outputs():
    a = xnp.arange(6.0)
    v = a[1:3]
    a.shape = (2, 3)
    a[0, 1] = 40.0
    assert v.shape == (2,) and float(v[0]) == 40.0  # the view sees the write, keeps its shape
    out = xnp.jit(lambda x: x * 2)(xnp.arange(6.0))  # a jit output (copy-on-write)
    out.shape = (3, 2)
    np.testing.assert_array_equal(np.asarray(xnp.jit(lambda x: x + 1)(out)),
                                  np.arange(6.0).reshape(3, 2) * 2 + 1)
    with pytest.raises(TypeError, match=r"xnp\.ndarray\.shape \(assignment\): not available "
                                        r"on a traced array"):
        xnp.jit(lambda x: setattr(x, "shape", (3, 2)))(xnp.arange(6.0))


VIEW_CASES = [
    (np.array([1, 256, 65535], np.uint16), np.uint8),
    (np.arange(8, dtype=np.uint8).reshape(2, 4), np.float32),
    (np.arange(6, dtype=np.uint8).reshape(2, 3), np.uint16),    # 3 bytes: NumPy's ValueError
    (np.array(5, np.int32), np.int16),                          # 0-d: NumPy's ValueError
    (np.linspace(-2, 2, 6).reshape(3, 2), np.uint16),
    (np.arange(4, dtype=np.int64).reshape(2, 2)[:, :1], np.int8),
]


@pytest.mark.parametrize("arr,dt", VIEW_CASES)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_view_with_another_itemsize_matches_numpy(arr, dt, mode):
    f = (lambda a: a.view(dt)) if mode == "eager" else xnp.jit(lambda a: a.view(dt))
    try:
        want = arr.view(dt)
    except ValueError as e:
        with pytest.raises(ValueError, match=re.escape(str(e))):
            f(xnp.asarray(arr))
        return
    got = f(xnp.asarray(arr))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


def test_view_with_another_itemsize_shares_memory_eagerly():
    a = xnp.asarray(np.array([1, 256], np.uint16))
    v = a.view(np.uint8)
    v[0] = 7
    np.testing.assert_array_equal(np.asarray(a), [7, 256])
    with pytest.raises(ValueError, match="the last axis must be contiguous"):
        xnp.asarray(np.arange(8.0).reshape(2, 4)[:, ::2]).view(np.uint8)


@pytest.mark.parametrize("src,dst,shape_in,shape_out", [
    (np.float64, np.uint16, (3,), (3, 4)), (np.uint8, np.float32, (2, 4), (2,)),
    (np.float32, np.float32, (2,), (2,))])
def test_bitcast_convert_type_other_widths_eager_jit_vmap(src, dst, shape_in, shape_out):
    nbytes = 5 * int(np.prod(shape_in)) * np.dtype(src).itemsize
    raw = np.random.default_rng(3).integers(0, 256, size=nbytes, dtype=np.uint8)
    x = raw.view(src).reshape((5,) + shape_in)
    want = x.view(dst).reshape((5,) + shape_out)
    f = lambda v: xnp.lax.bitcast_convert_type(v, dst)  # noqa: E731
    for got in (f(xnp.asarray(x)), xnp.jit(f)(xnp.asarray(x)), xnp.vmap(f)(xnp.asarray(x)),
                xnp.vmap(f, in_axes=len(shape_in))(xnp.asarray(np.moveaxis(x, 0, -1)))
                if np.dtype(dst).itemsize <= np.dtype(src).itemsize else want):
        np.testing.assert_array_equal(np.asarray(got).view(np.uint8), want.view(np.uint8))
    with pytest.raises(TypeError, match=r"bitcast_convert_type: .* last axis must have size 2"):
        xnp.lax.bitcast_convert_type(xnp.zeros(3, np.float32), np.float64)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int64", "float16", "float64",
                                "complex64"])
def test_conj_method_of_a_real_array_is_the_array_itself(dt):
    x_np = (np.arange(3) + (2j if dt.startswith("complex") else 0)).astype(dt)
    x = xnp.asarray(x_np)
    for method in ("conj", "conjugate"):
        want, got = getattr(x_np, method)(), getattr(x, method)()
        assert (got is x) is (want is x_np)
        assert xnp.shares_memory(got, x) is np.shares_memory(want, x_np)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
        jitted = xnp.jit(lambda a, m=method: getattr(a, m)())(x)
        assert jitted.dtype == want.dtype and jitted.tolist() == want.tolist()
    # the ufunc always makes a new array (bool gives int8)
    want, got = np.conj(x_np), xnp.conj(x)
    assert not xnp.shares_memory(got, x) and got.dtype == want.dtype
