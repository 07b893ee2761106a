"""NumPy compatibility of ``clip``'s casts under its ufunc keywords and of the memory
layout of arrays made like another.

* ``clip`` with a complex operand cast to a real ``dtype=`` or a complex result cast into
  a real ``out`` (``casting='unsafe'``) warns NumPy's ``ComplexWarning``, once per cast;
* ``clip`` with ``where=`` casts none of the elements the mask leaves out, so a NaN or an
  overflowing value there warns nothing, as in NumPy; ``where`` is converted as NumPy's
  ufuncs convert it (None is False, a non-bool array raises ``TypeError``);
* ``empty_like``/``zeros_like``/``ones_like``/``full_like``, ``copy``, ``ndarray.copy``,
  ``ndarray.astype``, ``array`` and ``asarray`` lay their result out as NumPy's ``order`` asks
  (``'K'`` keeps a strided prototype's axis order: a slice of a Fortran array gives a
  Fortran array), compared by strides and contiguity flags.

Each case runs NumPy on the same inputs on this machine and compares values, dtypes and
the list of warnings (category and message), eagerly (twice: the second call may be a
replay of the first) and, where it applies, under ``xnp.jit``.
"""

import warnings

import numpy as np
import pytest

import xnp

ComplexWarning = np.exceptions.ComplexWarning


def _recorded(fn):
    """``(result or exception, [(category, message), ...])`` of ``fn()``, every warning
    recorded, NumPy's floating-point errors warning."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"):
        warnings.simplefilter("always")
        try:
            res = fn()
        except Exception as e:  # the oracle decides what is expected
            res = e
    return res, [(w.category, str(w.message)) for w in caught]


def _public(cls):
    """The first public class of a NumPy exception (``UFuncTypeError``: ``TypeError``)."""
    return next(c for c in cls.__mro__ if c.__module__ in ("builtins", "numpy.exceptions"))


def _same_outcome(want, got, what):
    if isinstance(want, Exception):
        assert isinstance(got, _public(type(want))), f"{what}: {got!r}, NumPy raised {want!r}"
        return
    assert not isinstance(got, Exception), f"{what}: xnp raised {got!r}"
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype, f"{what}: dtype {got.dtype}"
    np.testing.assert_array_equal(got, want, err_msg=what)


# =========================================================================== clip, ComplexWarning

_Z = np.array([1 + 2j, 3 - 1j, -2 + 0.5j, 0.5 + 0j])
_MASK = np.array([True, False, True, False])

# name -> (operands as numpy arrays, call(xp, z, r, out)); z complex, r real, out made fresh
_COMPLEX_CASES = {
    "dtype_f8": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.float64, casting="unsafe"),
    "dtype_f4": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.float32, casting="unsafe"),
    "dtype_i4": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.int32, casting="unsafe"),
    "dtype_bool": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.bool_, casting="unsafe"),
    "dtype_c8": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.complex64, casting="unsafe"),
    "three_complex": lambda xp, z, r, o: xp.clip(z, z, z, dtype=np.float64, casting="unsafe"),
    "complex_scalar_bounds": lambda xp, z, r, o: xp.clip(z, 0j, 1j, dtype=np.float64,
                                                         casting="unsafe"),
    "real_a_complex_bound": lambda xp, z, r, o: xp.clip(r, z, 1, dtype=np.float64,
                                                        casting="unsafe"),
    "one_bound": lambda xp, z, r, o: xp.clip(z, None, 1, dtype=np.float64, casting="unsafe"),
    "no_bounds": lambda xp, z, r, o: xp.clip(z, None, None, dtype=np.float64,
                                             casting="unsafe"),
    "python_complex_a": lambda xp, z, r, o: xp.clip(1 + 2j, 0, 1, dtype=np.float64,
                                                    casting="unsafe"),
    "zero_size": lambda xp, z, r, o: xp.clip(z[:0], 0, 1, dtype=np.float64, casting="unsafe"),
    "out_f8": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.float64), casting="unsafe"),
    "out_i8": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.int64), casting="unsafe"),
    "out_bool": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.bool_), casting="unsafe"),
    "out_c16": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.complex128), casting="unsafe"),
    "out_tuple": lambda xp, z, r, o: xp.clip(z, 0, 1, out=(o(np.float32),), casting="unsafe"),
    "out_complex_bound": lambda xp, z, r, o: xp.clip(r, 0, 1j, out=o(np.float64),
                                                     casting="unsafe"),
    "out_one_bound": lambda xp, z, r, o: xp.clip(z, 0, None, out=o(np.float64),
                                                 casting="unsafe"),
    "dtype_c16_out_f8": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.complex128,
                                                    out=o(np.float64), casting="unsafe"),
    "dtype_f8_out_f4": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.float64,
                                                   out=o(np.float32), casting="unsafe"),
    "dtype_f8_out_c16": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.float64,
                                                    out=o(np.complex128), casting="unsafe"),
    "out_f8_where": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.float64),
                                                where=xp.asarray(_MASK), casting="unsafe"),
    "out_f8_where_none": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.float64), where=None,
                                                     casting="unsafe"),
    "same_kind_dtype": lambda xp, z, r, o: xp.clip(z, 0, 1, dtype=np.float64),
    "same_kind_out": lambda xp, z, r, o: xp.clip(z, 0, 1, out=o(np.float64)),
    "out_shape_mismatch": lambda xp, z, r, o: xp.clip(z, 0, 1, out=xp.zeros(3),
                                                      casting="unsafe"),
}


def _complex_call(xp, name):
    def out(dt):
        return xp.zeros(_Z.shape, dt)

    z = xp.asarray(_Z)
    return _COMPLEX_CASES[name](xp, z, xp.asarray(_Z.real), out)


def _matches_numpy_twice(call, label):
    """``call(xnp)`` (a first call, then a replay) gives ``call(np)``'s outcome and
    warnings."""
    want, want_warnings = _recorded(lambda: call(np))
    for attempt in ("first call", "second call"):
        got, got_warnings = _recorded(lambda: call(xnp))
        _same_outcome(want, got, f"{label}, {attempt}")
        assert got_warnings == want_warnings, (
            f"{label}, {attempt}: {got_warnings} != NumPy's {want_warnings}")


@pytest.mark.parametrize("name", sorted(_COMPLEX_CASES))
def test_clip_complex_cast_warns_as_numpy(name):
    _matches_numpy_twice(lambda xp: _complex_call(xp, name), f"clip {name}")


def test_clip_complex_warning_is_an_error_before_out_is_written():
    out = xnp.full(_Z.shape, 7.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ComplexWarning)
        with pytest.raises(ComplexWarning):
            xnp.clip(xnp.asarray(_Z), 0, 1, out=out, casting="unsafe")
    np.testing.assert_array_equal(np.asarray(out), 7.0)


@pytest.mark.parametrize("kind", ["dtype", "out"])
def test_clip_complex_cast_jit_warns_when_traced(kind):
    """Under jit the warning comes when the function is traced (documented), the values
    are NumPy's."""
    if kind == "dtype":
        def body(xp, z, o):
            return xp.clip(z, 0, 1, dtype=np.float32, casting="unsafe")
    else:
        def body(xp, z, o):
            return xp.clip(z, 0, 1, out=o, casting="unsafe")
    want, want_warnings = _recorded(lambda: body(np, _Z, np.zeros(4)))
    f = xnp.jit(lambda z, o: body(xnp, z, o))
    got, got_warnings = _recorded(lambda: f(xnp.asarray(_Z), xnp.zeros(4)))
    _same_outcome(want, got, f"jit clip {kind}")
    assert got_warnings == want_warnings
    want, _ = _recorded(lambda: body(np, _Z * 2, np.zeros(4)))
    got, got_warnings = _recorded(lambda: f(xnp.asarray(_Z * 2), xnp.zeros(4)))
    _same_outcome(want, got, f"jit clip {kind}, second call")
    assert got_warnings == []  # a cached trace: nothing runs in Python


# =========================================================================== clip, where=

_X = np.array([1.5, np.nan, 3.0, np.inf, -2.0, 1e300])
_W = np.array([True, False, True, False, True, False])
_BOUND = np.array([0.0, np.nan, 0.0, np.nan, -1.0, np.nan])

# name -> call(xp, x, mask, bound, out); NaN, inf and 1e300 only where the mask is False
_WHERE_CASES = {
    "out_i8": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=w, out=o(np.int64),
                                             casting="unsafe"),
    "out_i8_bool_list": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=list(_W),
                                                       out=o(np.int64), casting="unsafe"),
    "out_i8_nan_bound": lambda xp, x, w, b, o: xp.clip(x, b, 2, where=w, out=o(np.int64),
                                                       casting="unsafe"),
    "out_i8_nan_bound_only": lambda xp, x, w, b, o: xp.clip(xp.abs(b), b, None, where=w,
                                                            out=o(np.int64), casting="unsafe"),
    "out_i8_one_bound": lambda xp, x, w, b, o: xp.clip(x, 0, None, where=w, out=o(np.int64),
                                                       casting="unsafe"),
    "out_i8_no_bounds": lambda xp, x, w, b, o: xp.clip(x, None, None, where=w,
                                                       out=o(np.int64), casting="unsafe"),
    "out_i8_where_2d": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=xp.stack([w, w]),
                                                      out=o(np.int64, 2), casting="unsafe"),
    "out_i8_all_false": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=False, out=o(np.int64),
                                                       casting="unsafe"),
    "out_i8_where_none": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=None, out=o(np.int64),
                                                        casting="unsafe"),
    "out_f16": lambda xp, x, w, b, o: xp.clip(x, -1e301, 1e301, where=w, out=o(np.float16),
                                              casting="unsafe"),
    "out_f32": lambda xp, x, w, b, o: xp.clip(x, 0, b, where=w, out=o(np.float32),
                                              casting="unsafe"),
    "dtype_i8_out_i8": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=w, dtype=np.int64,
                                                      out=o(np.int64), casting="unsafe"),
    "dtype_i8_nan_bound": lambda xp, x, w, b, o: xp.clip(x, b, 2, where=w, dtype=np.int64,
                                                         out=o(np.int64), casting="unsafe"),
    "dtype_f16_out_f8": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=w, dtype=np.float16,
                                                       out=o(np.float64), casting="unsafe"),
    "int_where": lambda xp, x, w, b, o: xp.clip(x, 0, 2, where=xp.asarray(_W.astype(int)),
                                                out=o(np.float64)),
}


def _where_call(xp, name):
    def out(dt, rows=0):
        shape = _X.shape if not rows else (rows,) + _X.shape
        return xp.full(shape, 7, dt)

    return _WHERE_CASES[name](xp, xp.asarray(_X), xp.asarray(_W), xp.asarray(_BOUND), out)


@pytest.mark.parametrize("name", sorted(_WHERE_CASES))
def test_clip_where_casts_only_masked_in_elements(name):
    _matches_numpy_twice(lambda xp: _where_call(xp, name), f"clip {name}")


def test_clip_where_dtype_without_out_masked_in_values():
    # NumPy leaves the masked-out elements of a new result uninitialised; xnp makes them 0
    want, want_warnings = _recorded(
        lambda: np.clip(_X, 0, 2, where=_W, dtype=np.int64, casting="unsafe"))
    got, got_warnings = _recorded(
        lambda: xnp.clip(xnp.asarray(_X), 0, 2, where=xnp.asarray(_W), dtype=np.int64,
                         casting="unsafe"))
    assert got_warnings == want_warnings
    got = np.asarray(got)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got[_W], want[_W])
    np.testing.assert_array_equal(got[~_W], 0)


@pytest.mark.parametrize("name", ["out_i8", "out_i8_nan_bound", "out_f16", "dtype_i8_out_i8",
                                  "dtype_f16_out_f8", "out_i8_where_2d"])
def test_clip_where_jit_matches_numpy(name):
    want, _ = _recorded(lambda: _where_call(np, name))

    def body(x, w, b):
        def out(dt, rows=0):
            shape = _X.shape if not rows else (rows,) + _X.shape
            return xnp.full(shape, 7, dt)

        return _WHERE_CASES[name](xnp, x, w, b, out)

    f = xnp.jit(body)
    got, got_warnings = _recorded(
        lambda: f(xnp.asarray(_X), xnp.asarray(_W), xnp.asarray(_BOUND)))
    _same_outcome(want, got, f"jit clip {name}")
    assert got_warnings == []


# =========================================================================== layouts


def _protos():
    """name -> prototype built by ``xp`` from the C arrays ``b`` (4, 6) and ``c`` (3, 4, 5)."""
    return {
        "C": lambda xp, b, c: b,
        "F": lambda xp, b, c: xp.asfortranarray(b),
        "sliced_C": lambda xp, b, c: b[::2, ::3],
        "sliced_F": lambda xp, b, c: xp.asfortranarray(b)[::2, ::3],
        "transposed_slice": lambda xp, b, c: b[:, 1:5].T,
        "3d_transposed_negative": lambda xp, b, c: c.transpose(2, 0, 1)[::-1, :, ::2],
        "3d_permuted_slice": lambda xp, b, c: c.transpose(1, 2, 0)[:, 1:4],
        "F_length_1_axis": lambda xp, b, c: xp.asfortranarray(c[:, 1:2])[::2],
        "empty_F": lambda xp, b, c: xp.asfortranarray(b)[:0, ::2],
        "1d_strided": lambda xp, b, c: b[1, ::2],
        "0d": lambda xp, b, c: b[1, 2, ...],
    }


_MAKERS = {
    "empty_like": lambda xp, p, o: xp.empty_like(p, order=o),
    "zeros_like": lambda xp, p, o: xp.zeros_like(p, order=o),
    "ones_like": lambda xp, p, o: xp.ones_like(p, dtype=np.int32, order=o),
    "full_like": lambda xp, p, o: xp.full_like(p, 2.5, order=o),
    "copy": lambda xp, p, o: xp.copy(p, order=o),
    "ndarray.copy": lambda xp, p, o: p.copy(order=o),
    "astype": lambda xp, p, o: p.astype(np.float32, order=o),
    "astype_same_dtype": lambda xp, p, o: p.astype(p.dtype, order=o),
    "astype_no_copy": lambda xp, p, o: p.astype(p.dtype, order=o, copy=False),
    "array_copy": lambda xp, p, o: xp.array(p, order=o),
    "array_cast": lambda xp, p, o: xp.array(p, dtype=np.float32, order=o),
    "asarray": lambda xp, p, o: xp.asarray(p, order=o),
    "asarray_cast": lambda xp, p, o: xp.asarray(p, dtype=np.float32, order=o),
}
_ORDERS = ["K", "A", "C", "F", None]


def _bases(xp, scale=1.0):
    b = xp.asarray(np.arange(24.0).reshape(4, 6) * scale)
    c = xp.asarray(np.arange(60.0).reshape(3, 4, 5) * scale)
    return b, c


def _check_layout(got, want, what, *, values=True):
    view = np.asarray(got)
    assert view.shape == want.shape and view.dtype == want.dtype, what
    if values:
        np.testing.assert_array_equal(view, want, err_msg=what)
    assert (view.flags.c_contiguous, view.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous), f"{what}: flags"
    if want.size:
        # NumPy 2 gives every empty array strides 0; xnp's keep their row-major strides
        assert tuple(got.strides) == want.strides, f"{what}: {got.strides} != {want.strides}"
        # numpy.asarray takes an xnp array through the buffer protocol, which spells the
        # stride of a length-1 axis of a contiguous array its own way: the other axes
        assert [s for s, n in zip(view.strides, view.shape) if n > 1] == [
            s for s, n in zip(want.strides, want.shape) if n > 1], f"{what}: asarray strides"


@pytest.mark.parametrize("proto", sorted(_protos()))
@pytest.mark.parametrize("maker", sorted(_MAKERS))
def test_like_layout_matches_numpy(proto, maker):
    make, fn = _protos()[proto], _MAKERS[maker]
    for order in _ORDERS:
        what = f"{maker}({proto}, order={order!r})"
        for scale in (1.0, -3.0):  # the second call may replay the first
            want = fn(np, make(np, *_bases(np, scale)), order)
            got = fn(xnp, make(xnp, *_bases(xnp, scale)), order)
            _check_layout(got, np.asarray(want), f"{what}, values times {scale}",
                          values=maker != "empty_like")


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (3, 5, 2), (7,), ()])
@pytest.mark.parametrize("order", ["K", "A"])
@pytest.mark.parametrize("proto", ["F", "sliced_F", "transposed_slice", "sliced_C"])
def test_like_layout_with_shape_matches_numpy(shape, order, proto):
    make = _protos()[proto]
    want = np.zeros_like(make(np, *_bases(np)), order=order, shape=shape)
    got = xnp.zeros_like(make(xnp, *_bases(xnp)), order=order, shape=shape)
    _check_layout(got, want, f"zeros_like({proto}, order={order!r}, shape={shape})")


def test_astype_no_copy_keeps_the_array_itself():
    p = xnp.asfortranarray(xnp.asarray(np.arange(24.0).reshape(4, 6)))[::2, ::3]
    assert p.astype(p.dtype, copy=False) is p  # 'K': NumPy returns self too
    q = p.astype(p.dtype, order="A", copy=False)  # not contiguous: a new C array
    assert q is not p and np.asarray(q).flags.c_contiguous


@pytest.mark.parametrize("proto", sorted(_protos()))
@pytest.mark.parametrize("maker", sorted(set(_MAKERS) - {"empty_like"}))
def test_like_layout_jit_values(proto, maker):
    """Under jit the values are NumPy's, for a prototype made inside the function (a
    layout xnp models) and for one passed in (a jit argument: layout unknown)."""
    make, fn = _protos()[proto], _MAKERS[maker]
    b, c = _bases(np)
    for order in _ORDERS:
        want = fn(np, make(np, b, c), order)
        inside = xnp.jit(lambda b, c: fn(xnp, make(xnp, b, c), order))(*_bases(xnp))
        np.testing.assert_array_equal(np.asarray(inside), want, err_msg=f"{maker} {order}")
        assert np.asarray(inside).dtype == want.dtype
        argument = xnp.jit(lambda p: fn(xnp, p, order))(make(xnp, *_bases(xnp)))
        np.testing.assert_array_equal(np.asarray(argument), want, err_msg=f"{maker} {order}")


@pytest.mark.parametrize("maker", ["zeros_like", "full_like", "copy", "ndarray.copy",
                                   "astype", "astype_same_dtype", "array_copy", "array_cast"])
@pytest.mark.parametrize("order", ["K", "A", None])
@pytest.mark.parametrize("proto", ["sliced_F", "transposed_slice", "F_length_1_axis"])
def test_like_layout_decides_views_under_jit(maker, order, proto):
    """The layout xnp models under jit decides, as the eager layout does, whether a later
    ``reshape`` is a view: a write through it reaches the array exactly as in NumPy. (The
    bases are made row-major first: a jit argument's layout is not known.)"""
    make, fn = _protos()[proto], _MAKERS[maker]

    def body(xp, b, c):
        b, c = xp.ascontiguousarray(b), xp.ascontiguousarray(c)
        y = fn(xp, make(xp, b, c), order)
        flat = y.T.reshape(-1)  # a view exactly when y is Fortran-contiguous
        flat[0] = -5
        return y

    want = body(np, *_bases(np))
    eager = body(xnp, *_bases(xnp))
    jitted = xnp.jit(lambda b, c: body(xnp, b, c))(*_bases(xnp))
    np.testing.assert_array_equal(np.asarray(eager), want)
    np.testing.assert_array_equal(np.asarray(jitted), want)


_PY_INT_BOUNDS = [
    (np.array([1, 2, 5, 200], np.uint8), -1, None, {"dtype": "u1", "casting": "unsafe"}),
    (np.array([1, 2, 5, 200], np.uint8), -5, 3, {"dtype": "u1", "casting": "unsafe"}),
    (np.array([1, 2, 5, 200], np.uint8), None, 300, {"dtype": "u1", "casting": "unsafe"}),
    (np.array([1, 2, 5, 200], np.uint8), -5, 3, {"dtype": "u1"}),
    (np.array([1, -2, 5]), -1, 2**63, {"dtype": "f8"}),
    (np.array([1, -2, 5]), 0, 2**64, {"dtype": "c16", "casting": "unsafe"}),
    (np.array([1, -2, 5]), 0, 1, {"dtype": "bool", "casting": "unsafe"}),
    (np.array([1.5, -2.0, 5.0]), -1, 3, {"dtype": "i2", "casting": "unsafe"}),
]


@pytest.mark.parametrize("case", range(len(_PY_INT_BOUNDS)))
def test_clip_dtype_keeps_python_int_bounds_weak(case):
    # NumPy's loop takes a Python int bound as a Python int: never wrapped into the dtype
    a, lo, hi, kw = _PY_INT_BOUNDS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the cast warnings are checked elsewhere)
        want = np.clip(a, lo, hi, **kw)
        got = xnp.clip(xnp.asarray(a), lo, hi, **kw)
        jitted = xnp.jit(lambda v: xnp.clip(v, lo, hi, **kw))(xnp.asarray(a))
    for g in (got, jitted):
        assert np.asarray(g).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(g), want)


@pytest.mark.parametrize("lo, hi, dt, casting", [
    (-1, 300, "int8", "unsafe"), (-1, 300, "uint8", "unsafe"), (-1, 5, "uint16", "unsafe"),
    (-1, 300, "uint8", "same_kind"), (0, 2**64 - 1, "bool", "unsafe"),
    (None, 2**70, "float16", "unsafe"), (-2**40, 2**40, "int32", "unsafe")])
def test_clip_dtype_python_int_bounds_out_of_range_as_numpy(lo, hi, dt, casting):
    # NumPy drops a bound beyond a's own range where it cannot matter, then converts the
    # rest to the loop's dtype: OverflowError for one that does not fit
    a = np.array([-3, 0, 1, 4, 200], np.int16)
    outcomes = []
    for call in (lambda: np.clip(a, lo, hi, dtype=dt, casting=casting),
                 lambda: xnp.clip(xnp.asarray(a), lo, hi, dtype=dt, casting=casting),
                 lambda: xnp.clip(xnp.asarray(a), lo, hi, dtype=dt, casting=casting)):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                r = np.asarray(call())
                outcomes.append(("value", r.dtype, r.tolist(), len(seen)))
            except OverflowError as e:
                outcomes.append(("error", str(e)))
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (2,), (0,)])
@pytest.mark.parametrize("maker", ["zeros_like", "ones_like", "empty_like", "full_like",
                                   "full_like_array"])
def test_like_results_own_their_memory(maker, shape):
    """A one-element fill is a broadcast of one scalar: its result still owns its memory
    (flags.owndata, as NumPy's new arrays), and writing it leaves a second result alone."""
    def make(xp):
        proto = xp.ones(shape)
        if maker == "full_like":
            return xp.full_like(proto, 2.0)
        if maker == "full_like_array":
            return xp.full_like(proto, xp.asarray(2.0))
        return getattr(xp, maker)(proto)

    for _ in range(2):  # the second call replays the first
        want, got, other = make(np), make(xnp), make(xnp)
        assert got.flags.owndata == want.flags.owndata, (maker, shape)
        if got.size and maker != "empty_like":
            got[...] = 7.0
            np.testing.assert_array_equal(np.asarray(other), np.asarray(make(np)))


@pytest.mark.parametrize("shape", [(3, 1), (1, 3), (1, 1, 2), (2, 1, 3), (1,), (4, 5)])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("maker", ["zeros", "ones", "empty", "full", "full_array",
                                   "zeros_like", "ones_like", "empty_like", "full_like"])
def test_new_arrays_have_numpys_strides_in_their_order(maker, order, shape):
    """A new array in order 'C' or 'F' has exactly NumPy's strides, also along length-1
    axes (zeros((3, 1), order='F') had (8, 8): NumPy's (8, 24)), and owns its memory."""
    makers = {"zeros": lambda m: m.zeros(shape, order=order),
              "ones": lambda m: m.ones(shape, order=order),
              "empty": lambda m: m.empty(shape, order=order),
              "full": lambda m: m.full(shape, 2.0, order=order),
              "full_array": lambda m: m.full(shape, m.asarray(2.0), order=order),
              "zeros_like": lambda m: m.zeros_like(m.ones(shape), order=order),
              "ones_like": lambda m: m.ones_like(m.ones(shape), order=order),
              "empty_like": lambda m: m.empty_like(m.ones(shape), order=order),
              "full_like": lambda m: m.full_like(m.ones(shape), 3, order=order)}
    for _ in range(2):  # the second call replays the first
        want, got = makers[maker](np), makers[maker](xnp)
        assert got.strides == want.strides and got.flags.owndata == want.flags.owndata
        if maker != "empty" and maker != "empty_like":
            np.testing.assert_array_equal(np.asarray(got), want)
