"""``xnp.ndarray`` as NumPy's class, with NumPy as the oracle: the constructor (with and
without ``buffer=``), subclassing (NumPy's guide's ``InfoArray``/``RealisticInfoArray``,
``__array_finalize__``, view casting, the types of results, ``__array_wrap__``,
``__array_priority__``), ``__array_interface__``/``__array_struct__``/``ctypes``,
``xnp.ndarray[...]`` and Fortran layout; eagerly and under ``jit``.

The subclasses are made inside the tests (``_classes``), not at import: the first one
switches on the subclass machinery for the rest of the process (xnp.ndarray_class), and
the other test modules should also run without it.
"""

import pickle
import subprocess
import sys
import types
import typing

import numpy as np
import pytest

import xnp

# ------------------------------------------------------------------ the constructor

CONSTRUCTED = [
    dict(shape=(2, 3)),
    dict(shape=4, dtype=np.int32),
    dict(shape=[2, 2], dtype="f4", order="F"),
    dict(shape=(), dtype=np.complex64),
    dict(shape=(0, 3)),
    dict(shape=np.int64(3), dtype=np.uint8),
    dict(shape=(3, 2), dtype=np.int16, order="C"),
]


def _layout(a):
    f = a.flags
    return (a.shape, a.dtype, a.strides, f.c_contiguous, f.f_contiguous, f.owndata,
            f.writeable)


@pytest.mark.parametrize("kw", CONSTRUCTED, ids=str)
def test_constructor_matches_numpy(kw):
    x, n = xnp.ndarray(**kw), np.ndarray(**kw)
    assert type(x) is xnp.ndarray and _layout(x) == _layout(n)
    args = (kw["shape"], kw.get("dtype", float))  # positionally too
    assert _layout(xnp.ndarray(*args)) == _layout(np.ndarray(*args))


def test_constructor_views_a_buffer_as_numpy():
    # bytearray: writable, writes reach it
    nb, xb = bytearray(range(32)), bytearray(range(32))
    n = np.ndarray((2, 2), np.int32, buffer=nb, offset=4, strides=(8, 4))
    x = xnp.ndarray((2, 2), np.int32, buffer=xb, offset=4, strides=(8, 4))
    np.testing.assert_array_equal(np.asarray(x), n)
    assert _layout(x) == _layout(n)
    n[1, 1] = -1
    x[1, 1] = -1
    assert nb == xb and nb != bytearray(range(32))
    # bytes: read-only
    x = xnp.ndarray((4,), np.uint8, buffer=b"abcd")
    assert not x.flags.writeable and x.tolist() == [97, 98, 99, 100]
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1
    # a NumPy array and an xnp array: views of their memory
    base_n = np.arange(6.0)
    x = xnp.ndarray((2,), buffer=base_n, offset=16)
    x[...] = 7.0
    np.testing.assert_array_equal(base_n, [0, 1, 7, 7, 4, 5])
    base_x = xnp.arange(6.0)
    x = xnp.ndarray((2,), buffer=base_x, offset=16)
    x += 1
    np.testing.assert_array_equal(np.asarray(base_x), [0, 1, 3, 4, 4, 5])
    assert x.base is base_x
    # a jit output (read-only host view until written): the view writes into its memory
    out = xnp.jit(lambda a: a * 2)(xnp.arange(3.0))
    v = xnp.ndarray((3,), buffer=out)
    v[0] = 9.0
    assert out.tolist() == [9.0, 2.0, 4.0]


def test_constructor_errors_name_the_constructor():
    for kw in (dict(shape="ab"), dict(shape=(2, 2), buffer=b"abc")):
        with pytest.raises(Exception) as numpy_error:
            np.ndarray(**kw)
        with pytest.raises(numpy_error.type, match="xnp.ndarray"):
            xnp.ndarray(**kw)
    with pytest.raises(TypeError, match="xnp.ndarray: `buffer` is a traced array"):
        xnp.jit(lambda a: xnp.ndarray((2,), buffer=a))(xnp.ones(2))


def test_constructor_of_a_host_dtype_is_numpys():
    x = xnp.ndarray((2,), dtype="U3", buffer=np.array(["ab", "cde"]))
    assert isinstance(x, xnp.ndarray) and x.dtype == np.dtype("U3")
    assert x.tolist() == ["ab", "cde"]


def test_constructor_under_jit_is_an_eager_constant():
    f = xnp.jit(lambda a: a + xnp.ndarray((3,), buffer=np.arange(3.0)))
    np.testing.assert_array_equal(np.asarray(f(xnp.ones(3))), np.arange(3.0) + 1)


def test_isinstance_of_tracers_and_arrays_unchanged():
    seen = []
    xnp.jit(lambda a: seen.append(isinstance(a, xnp.ndarray)) or a)(xnp.ones(2))
    assert seen == [False]  # a tracer is not an ndarray (xnp.Array), as before
    assert isinstance(xnp.ones(2), xnp.ndarray) and xnp.ndarray is xnp.Array
    assert str(__import__("inspect").signature(xnp.ndarray)) == (
        "(shape, dtype=<class 'float'>, buffer=None, offset=0, strides=None, order=None)")


# ------------------------------------------------------------------ subclasses


def _guide_classes(mod):
    """NumPy's subclassing guide's two examples, on ``mod`` (numpy or xnp)."""
    calls = []

    class InfoArray(mod.ndarray):
        def __new__(subtype, shape, dtype=float, buffer=None, offset=0, strides=None,
                    order=None, info=None):
            obj = super().__new__(subtype, shape, dtype, buffer, offset, strides, order)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            calls.append(None if obj is None else type(obj).__name__.replace("Array", "ndarray")
                         if type(obj) is mod.ndarray else type(obj).__name__)
            if obj is None:
                return
            self.info = getattr(obj, "info", None)

    class RealisticInfoArray(mod.ndarray):
        def __new__(cls, input_array, info=None):
            obj = mod.asarray(input_array).view(cls)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            if obj is None:
                return
            self.info = getattr(obj, "info", None)

    return InfoArray, RealisticInfoArray, calls


def _guide_transcript(mod):
    """What the guide's examples print (types by name, the ``info`` attribute)."""
    InfoArray, RealisticInfoArray, calls = _guide_classes(mod)
    out = []
    obj = InfoArray(shape=(3,))
    out += [type(obj).__name__, obj.info is None]
    obj = InfoArray(shape=(3,), info="information")
    out += [type(obj).__name__, obj.info]
    v = obj[1:]
    out += [type(v).__name__, v.info]
    cast_arr = mod.arange(10).view(InfoArray)
    out += [type(cast_arr).__name__, cast_arr.info is None]
    arr = mod.arange(5)
    obj = RealisticInfoArray(arr, info="information")
    out += [type(obj).__name__, obj.info]
    v = obj[1:]
    out += [type(v).__name__, v.info]
    w = obj + 1
    out += [type(w).__name__, w.info, repr(w), str(v)]
    out += [list(calls)]
    return out


def test_subclassing_guide_examples_print_as_numpy():
    assert _guide_transcript(xnp) == _guide_transcript(np)


# one operation on the subclass instance `s` (and the plain `p` of the module `m`)
RESULT_TYPES = {
    "slice": lambda m, s, p: s[1:],
    "row": lambda m, s, p: s[0],
    "element": lambda m, s, p: s[0, 1],
    "ellipsis": lambda m, s, p: s[...],
    "mask": lambda m, s, p: s[s > 2],
    "fancy": lambda m, s, p: s[[0, 1], [1, 0]],
    "add": lambda m, s, p: s + 1,
    "radd_plain": lambda m, s, p: p + s,
    "mul_subclass": lambda m, s, p: s * s,
    "neg": lambda m, s, p: -s,
    "abs": lambda m, s, p: abs(s),
    "compare": lambda m, s, p: s == 2,
    "divmod": lambda m, s, p: divmod(s, 2),
    "matmul": lambda m, s, p: s @ s.T,
    "ufunc": lambda m, s, p: m.add(s, 1),
    "ufunc_plain_first": lambda m, s, p: m.multiply(p, s),
    "unary_ufunc": lambda m, s, p: m.sin(s),
    "ufunc_out": lambda m, s, p: m.add(s, 1, m.zeros((2, 3))),
    "ufunc_out_keyword": lambda m, s, p: m.add(s, 1, out=m.zeros((2, 3))),
    "numpy_ufunc": lambda m, s, p: np.add(s, 1),
    "numpy_ufunc_plain_first": lambda m, s, p: np.add(np.arange(6.0).reshape(2, 3), s),
    "reduce": lambda m, s, p: m.add.reduce(s),
    "accumulate": lambda m, s, p: m.add.accumulate(s, axis=1),
    "outer": lambda m, s, p: m.multiply.outer(s[0], s[1]),
    "sum": lambda m, s, p: s.sum(),
    "sum_axis": lambda m, s, p: s.sum(axis=0),
    "max": lambda m, s, p: s.max(),
    "mean": lambda m, s, p: s.mean(axis=1),
    "argmax": lambda m, s, p: s.argmax(),
    "cumsum": lambda m, s, p: s.cumsum(),
    "reshape": lambda m, s, p: s.reshape(3, 2),
    "ravel": lambda m, s, p: s.ravel(),
    "flatten": lambda m, s, p: s.flatten(),
    "transpose": lambda m, s, p: s.T,
    "copy": lambda m, s, p: s.copy(),
    "astype": lambda m, s, p: s.astype(np.float32),
    "round": lambda m, s, p: s.round(),
    "clip": lambda m, s, p: s.clip(1, 3),
    "take": lambda m, s, p: s.take([0, 2]),
    "nonzero": lambda m, s, p: s.nonzero(),
    "tolist": lambda m, s, p: s.tolist(),
    "view": lambda m, s, p: s.view(),
    "view_dtype": lambda m, s, p: s.view(np.int64),
    "zeros_like": lambda m, s, p: m.zeros_like(s),
    "full_like": lambda m, s, p: m.full_like(s, 3.0),
    "asanyarray": lambda m, s, p: m.asanyarray(s),
    "asarray": lambda m, s, p: m.asarray(s),
    "numpy_asarray": lambda m, s, p: np.asarray(s),
}


def _kinds(r, cls):
    if isinstance(r, tuple):
        return tuple(_kinds(e, cls) for e in r)
    if isinstance(r, list):
        return "list"
    if isinstance(r, cls):
        return ("subclass", r.info, r.shape)
    return "plain"  # a plain array, or a NumPy scalar (xnp: a plain 0-d array)


def _values(r):
    if isinstance(r, tuple):
        return [_values(e) for e in r]
    return np.asarray(r).tolist() if not isinstance(r, list) else r


@pytest.mark.parametrize("name", list(RESULT_TYPES))
def test_result_types_and_values_match_numpy(name):
    got = []
    for m in (np, xnp):
        class Tagged(m.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, "info", "fresh")

        s = m.asarray(np.arange(6.0).reshape(2, 3)).view(Tagged)
        s.info = "tag"
        p = m.asarray(np.arange(6.0).reshape(2, 3))
        r = RESULT_TYPES[name](m, s, p)
        got.append((_kinds(r, Tagged), _values(r)))
    assert got[1] == got[0]


def test_finalize_sees_what_numpy_passes():
    seen = {}
    for m in (np, xnp):
        log = seen[m.__name__] = []

        class Logged(m.ndarray):
            def __array_finalize__(self, obj):
                log.append(None if obj is None else "subclass" if isinstance(obj, Logged)
                           else "plain")

        base = m.arange(4.0)
        s = base.view(Logged)      # view casting: obj is the plain array
        s[1:]                      # slicing: obj is the subclass instance
        s + 1                      # ufunc: obj is the subclass instance
        Logged((2,))               # explicit construction: obj is None
        s.view(Logged)             # view of the subclass
    assert seen["xnp"] == seen["numpy"] == ["plain", "subclass", "subclass", None, "subclass"]


def test_array_wrap_and_priority_as_numpy():
    record = {}
    for m in (np, xnp):
        log = record[m.__name__] = []

        class W(m.ndarray):
            def __array_wrap__(self, arr, context=None, return_scalar=False):
                log.append((None if context is None else context[0].__name__,
                            len(context[1]) if context else 0, return_scalar))
                return super().__array_wrap__(arr, context, return_scalar)

        class P(m.ndarray):
            __array_priority__ = 20.0

        class Q(m.ndarray):
            __array_priority__ = 30.0

        w = m.arange(3.0).view(W)
        p, q = m.arange(3.0).view(P), m.arange(3.0).view(Q)
        log.append(type(w + 1).__name__)
        log.append(type(m.add.reduce(w)).__name__)
        log.append(type(w.sum()).__name__)
        log.append(type(np.multiply(w, 2)).__name__)
        log.append((type(p + q).__name__, type(q + p).__name__, type(m.add(p, q)).__name__))
    assert record["xnp"] == record["numpy"]


def test_in_place_writes_keep_the_instance_and_reach_memory():
    for m in (np, xnp):
        class S(m.ndarray):
            pass

        base = m.zeros(3)
        s = base.view(S)
        t = s
        s += 2
        s[0] = 5
        s.sum()
        assert s is t and type(s) is S
        assert m.asarray(base).tolist() == [5.0, 2.0, 2.0]


def test_pickle_keeps_the_subclass_as_numpy():
    got = []
    for m in (np, xnp):
        class Pickled(m.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, "info", "default")

        Pickled.__qualname__ = "Pickled"  # pickle finds the class by module and name
        globals()["Pickled"] = Pickled
        s = m.arange(3.0).view(Pickled)
        s.info = "set"
        r = pickle.loads(pickle.dumps(s))
        got.append((type(r).__name__, r.info, r.tolist()))
    del globals()["Pickled"]
    assert got[0] == got[1] == ("Pickled", "default", [0.0, 1.0, 2.0])


def test_view_casting_errors():
    class S(xnp.ndarray):
        pass

    with pytest.raises(TypeError, match="must be xnp.ndarray or a subclass"):
        xnp.ones(2).view(np.ndarray)
    with pytest.raises(TypeError, match="subclasses are eager arrays"):
        xnp.jit(lambda a: a.view(S))(xnp.ones(2))
    plain = xnp.ones(2).view(S).view(xnp.ndarray)
    assert type(plain) is xnp.ndarray
    assert type(xnp.jit(lambda a: a.view(xnp.ndarray))(xnp.ones(2))) is xnp.ndarray


def test_subclass_under_transformations_is_a_plain_array():
    class S(xnp.ndarray):
        pass

    s = xnp.arange(3.0).view(S)
    r = xnp.jit(lambda a: a * 2 + 1)(s)
    assert type(r) is xnp.ndarray and r.tolist() == [1.0, 3.0, 5.0]
    g = xnp.grad(lambda a: (a * a).sum())(s)
    assert g.tolist() == [0.0, 2.0, 4.0]
    assert xnp.vmap(lambda a: a * 3)(s).tolist() == [0.0, 3.0, 6.0]
    assert xnp.shape(s) == np.shape(s) == (3,) and xnp.ndim(s) == 1


def test_subclass_repr_is_numpys():
    for shape in ((2, 2), (3,), ()):
        class S(xnp.ndarray):
            pass

        class N(np.ndarray):
            pass

        data = np.arange(int(np.prod(shape)), dtype=float).reshape(shape)
        assert repr(xnp.asarray(data).view(S)) == repr(data.view(N)).replace("N(", "S(")


def test_numpy_fallback_base_class_behaves_the_same():
    # the Python storage class used when xnp/_native/_array_base is not built
    code = (
        "import sys; sys.modules['xnp._native._array_base'] = None\n"
        "import numpy as np, xnp\n"
        "from tests.numpy_api.test_ndarray_class import _guide_transcript\n"
        "assert xnp.Array.__mro__[1].__module__ == 'xnp.tracing.array_base'\n"
        "assert _guide_transcript(xnp) == _guide_transcript(np)\n"
        "x = xnp.ndarray((2, 3), np.float32, order='F')\n"
        "assert x.strides == np.ndarray((2, 3), np.float32, order='F').strides\n"
        "assert (xnp.arange(3.0) + 1).tolist() == [1.0, 2.0, 3.0]\n"
        "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.stdout.strip() == "ok", r.stderr[-3000:]


# ------------------------------------------------------------------ protocols


INTERFACED = {
    "matrix": lambda a: a,
    "slice": lambda a: a[1:, ::2],
    "transpose": lambda a: a.T,
    "row": lambda a: a[1],
    "scalar": lambda a: a[1, 2, ...],
}


@pytest.mark.parametrize("name", list(INTERFACED))
def test_array_interface_is_numpys(name):
    n = np.arange(24, dtype=np.int32).reshape(4, 6)
    x = xnp.asarray(n)
    nv, xv = INTERFACED[name](n), INTERFACED[name](x)
    assert xv.__array_interface__ == nv.__array_interface__
    assert xv.ctypes.data == nv.__array_interface__["data"][0]
    back = np.asarray(xv)  # through __array_struct__: the same memory, not a copy
    assert back.__array_interface__["data"] == nv.__array_interface__["data"]
    np.testing.assert_array_equal(back, nv)
    assert type(xv.__array_struct__).__name__ == "PyCapsule"


def test_array_interface_of_a_jit_output_is_read_only_memory():
    out = xnp.jit(lambda a: a + 1)(xnp.arange(4.0))
    iface = out.__array_interface__
    assert iface["shape"] == (4,) and iface["typestr"] == "<f8" and iface["data"][1]
    np.testing.assert_array_equal(np.asarray(out), [1.0, 2.0, 3.0, 4.0])


def test_array_interface_absent_for_dtypes_it_cannot_describe():
    b = xnp.ones(3, dtype=xnp.bfloat16)
    with pytest.raises(AttributeError, match="bfloat16"):
        b.__array_interface__
    assert np.asarray(b).dtype == np.dtype(xnp.bfloat16)  # converted by __array__
    with pytest.raises(TypeError, match="TracerMemoryError|traced array|no memory|__array"):
        xnp.jit(lambda a: a.ctypes)(xnp.ones(2))


def test_class_getitem_is_numpys():
    alias = xnp.ndarray[typing.Any, np.dtype[np.float64]]
    ref = np.ndarray[typing.Any, np.dtype[np.float64]]
    assert type(alias) is type(ref) is types.GenericAlias
    assert typing.get_origin(alias) is xnp.ndarray
    assert typing.get_args(alias) == typing.get_args(ref)
    assert typing.get_origin(xnp.typing.NDArray[np.float64]) is xnp.ndarray


# ------------------------------------------------------------------ Fortran layout

F_MADE = {
    "zeros": lambda m: m.zeros((2, 3), order="F"),
    "ones": lambda m: m.ones((2, 3), np.int32, order="F"),
    "empty": lambda m: m.empty((2, 3, 4), order="F"),
    "full": lambda m: m.full((3, 2), 1.5, order="F"),
    "array": lambda m: m.array([[1, 2], [3, 4]], order="F"),
    "asarray": lambda m: m.asarray(np.arange(6.0).reshape(2, 3), order="F"),
    "copy": lambda m: m.arange(6.0).reshape(2, 3).copy(order="F"),
    "reshape": lambda m: m.arange(6.0).reshape((3, 2), order="F"),
    "ravel": lambda m: m.asfortranarray(m.arange(6.0).reshape(2, 3)).ravel(order="A"),
    "asfortranarray": lambda m: m.asfortranarray(m.arange(12.0).reshape(3, 4)),
    "asfortranarray_0d": lambda m: m.asfortranarray(m.asarray(2.0)),
    "ndarray": lambda m: m.ndarray((2, 3), order="F"),
    "zeros_like": lambda m: m.zeros_like(m.asfortranarray(m.ones((2, 3)))),
    "transpose": lambda m: m.ones((2, 3)).T,
}


@pytest.mark.parametrize("name", list(F_MADE))
def test_fortran_layout_matches_numpy(name):
    n, x = F_MADE[name](np), F_MADE[name](xnp)
    assert _layout(x)[:5] == _layout(n)[:5]
    assert xnp.isfortran(x) == np.isfortran(n)
    if name not in ("empty", "ndarray"):
        np.testing.assert_array_equal(np.asarray(x), n)


def test_fortran_arrays_under_jit_have_right_values_and_c_layout():
    # the README's layout policy: jit outputs are C-contiguous whatever the layout inside
    a = np.arange(6.0).reshape(2, 3)
    out = xnp.jit(xnp.asfortranarray)(a)
    np.testing.assert_array_equal(np.asarray(out), np.asfortranarray(a))
    assert out.flags.c_contiguous and out.strides == (24, 8)
    inside = xnp.jit(lambda v: xnp.isfortran(xnp.asfortranarray(v * 1.0)))(xnp.asarray(a))
    assert bool(inside) is True  # the layout is modelled inside the function
    r = xnp.jit(lambda v: xnp.asfortranarray(v).reshape(-1, order="A"))(xnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(r), np.asfortranarray(a).reshape(-1, order="A"))


def test_view_as_a_numpy_subclass_is_numpys_view_of_the_memory():
    a = xnp.asarray([1.0, 2.0, 3.0])
    m = a.view(np.ma.MaskedArray)
    assert type(m) is np.ma.MaskedArray
    m[0] = 9.0  # a view: the write reaches the xnp array
    assert np.asarray(a).tolist() == [9.0, 2.0, 3.0]
    for fn in (np.ma.zeros_like, np.ma.ones_like, np.ma.squeeze, np.ma.unique):
        assert repr(fn(a)) == repr(fn(np.asarray(a)))


def test_ufunc_out_may_be_a_user_subclass_instance():
    """``out=`` an instance of a subclass of ``xnp.ndarray``: written in place and returned
    as given, as NumPy's ``out=`` of an ndarray subclass (it raised TypeError)."""
    class Sub(xnp.ndarray):
        pass

    class NSub(np.ndarray):
        pass

    for _ in range(3):
        got, want = xnp.arange(4.0).view(Sub), np.arange(4.0).view(NSub)
        r_got, r_want = xnp.add(got, 1, out=got), np.add(want, 1, out=want)
        assert r_got is got and r_want is want
        xnp.multiply(xnp.arange(4.0), 2, out=got)
        np.multiply(np.arange(4.0), 2, out=want)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        assert type(got) is Sub
