"""xnp.numpy_api.manipulation vs NumPy (eager, jit, jaxpr via check_vs_numpy) over edge
shapes, errors with NumPy's classes, eager aliasing (views where NumPy has views), and
lax-level properties of the shape primitives: weak types, eager views, StableHLO text."""

import functools
import warnings

import numpy as np
import pytest

import xnp
import xnp as xp
from tests.helpers import (ALL, EDGE_SHAPES, NUMERIC, SMALL_SHAPES, assert_allclose,
                           central_difference, check_vs_numpy, grid)
from xnp import lax

ND_SHAPES = [s for s in SMALL_SHAPES if s != ()]


def norm(text: str) -> str:
    return " ".join(text.split())


def _data(rng, shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


# --------------------------------------------------------------------------- reshape, ravel


def _targets(shape):
    size = int(np.prod(shape))
    return [(-1,), tuple(reversed(shape)), (size, 1), (1, -1), size, (-1, 1, 1)]


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, target=range(6), dtype=ALL, n=36))
def test_reshape_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype)
    target = _targets(case.shape)[case.target]
    check_vs_numpy(lambda m, x: m.reshape(x, target), x)
    check_vs_numpy(lambda m, x: x.reshape(target), x)


@pytest.mark.parametrize("shape,target", [((6,), (4, 2)), ((6,), (-1, -1)), ((6,), (-1, 4)),
                                          ((0,), (-1, 0)), ((6,), (-2, 3)), ((2, 3), (7,))])
def test_reshape_errors_match_numpy(shape, target):
    check_vs_numpy(lambda m, x: m.reshape(x, target), np.zeros(shape))


def test_reshape_error_message_names_shapes():
    with pytest.raises(ValueError, match=r"xnp\.reshape: cannot reshape float64\[6\] into shape "
                                         r"\(4, 2\)"):
        xp.reshape(xp.zeros(6), (4, 2))
    with pytest.raises(ValueError, match=r"cannot reshape float64\[6\] into shape \(4, 2\)"):
        xnp.jit(lambda x: x.reshape(4, 2))(np.zeros(6))


def test_reshape_method_forms_and_unsupported():
    x = xp.arange(6)
    assert x.reshape(2, 3).shape == (2, 3)
    assert x.reshape((3, 2)).shape == (3, 2)
    assert x.reshape([3, -1]).shape == (3, 2)
    assert x.reshape(np.int64(6)).shape == (6,)
    check_vs_numpy(lambda m, x: m.reshape(x, (2, 3), order="F"), x)
    check_vs_numpy(lambda m, x: x.reshape(3, 2).reshape((2, 3), order="A"), x, jit=False,
                   jaxpr=False)  # under jit the argument's memory order is unknown
    for order in ("K", "X"):  # NumPy: ValueError
        with pytest.raises(ValueError, match="order"):
            xp.reshape(x, (2, 3), order=order)
    v = xp.reshape(x, (2, 3), copy=False)  # eagerly NumPy's view, or NumPy's ValueError
    assert np.shares_memory(np.asarray(x), np.asarray(v))
    with pytest.raises(ValueError, match="without a copy"):
        xp.reshape(v.T, (6,), copy=False)
    with pytest.raises(NotImplementedError, match="copy=False"):
        xnp.jit(lambda t: xp.reshape(t, (2, 3), copy=False))(x)
    y = xp.reshape(x, (2, 3), copy=True)
    assert not np.shares_memory(np.asarray(x), np.asarray(y))


def test_reshape_with_traced_size_raises():
    @xnp.jit
    def f(x):
        return x.reshape(xp.array(x.shape).prod())

    with pytest.raises(xnp.errors.ConcretizationTypeError) as info:
        f(xp.ones((2, 3)))
    msg = str(info.value)
    assert "Shapes must be 1D sequences of concrete values of integer type" in msg
    assert "JitTracer(int64[])" in msg and "reduce_prod" in msg


@pytest.mark.parametrize("shape", SMALL_SHAPES)
def test_ravel_matches_numpy(shape, rng):
    x = _data(rng, shape)
    check_vs_numpy(lambda m, x: m.ravel(x), x)
    check_vs_numpy(lambda m, x: x.flatten(), x)
    check_vs_numpy(lambda m, x: m.ravel(m.transpose(x)), x)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_orders_match_numpy(order):
    x = np.arange(6.0).reshape(2, 3)
    traced = order in "CF"  # 'A'/'K' need the memory order, unknown for a jit argument
    check_vs_numpy(lambda m, x: m.ravel(x, order=order), x, jit=traced, jaxpr=traced)
    check_vs_numpy(lambda m, x: m.ravel(m.transpose(x), order=order), x, jit=traced,
                   jaxpr=traced)
    # under jit the memory order is known for arrays made inside the function
    want = np.ravel(x.T, order=order)
    assert_allclose(xnp.jit(lambda c: xnp.ravel(xnp.transpose(
        xnp.arange(6.0).reshape(2, 3) + c), order=order))(0.0), want)
    if order in "AK":
        with pytest.raises(NotImplementedError, match="memory order"):
            xnp.jit(lambda a: xnp.ravel(a.T, order=order))(x)
    check_vs_numpy(lambda m, x: x.T.flatten(order), x, jit=traced, jaxpr=traced)
    with pytest.raises(ValueError, match="order"):
        xp.ravel(xp.zeros(3), order="X")


@pytest.mark.parametrize("order", [None, "c", "f", b"F", np.str_("F"), "k", "a", "CC", "", 1])
def test_ravel_reshape_order_spellings_match_numpy(order):
    # NumPy's order converter: None is the function's default ('C' for these), one letter
    # of any case, str or bytes; a non-str is TypeError, anything else ValueError
    x = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    traced = order is None or (isinstance(order, (str, bytes)) and order in ("c", "f", b"F"))
    for body in (lambda m, x: m.ravel(x, order=order), lambda m, x: x.ravel(order),
                 lambda m, x: x.flatten(order), lambda m, x: m.reshape(x, (3, 2), order=order),
                 lambda m, x: x.reshape(3, 2, order=order)):
        check_vs_numpy(body, x, jit=traced, jaxpr=traced)
    if order is None:  # the copy method's default is 'C' too (numpy.copy's is 'K')
        got = xp.asarray(x).copy(order=None)
        assert np.asarray(got).flags.c_contiguous and not np.asarray(got).flags.f_contiguous
        got = xp.asarray(x).astype(np.float32, order=None)  # ndarray.astype's 'K'
        assert np.asarray(got).flags.f_contiguous
    with pytest.raises(TypeError, match=r"xnp\.ravel: order must be str, not int"):
        xp.ravel(x, order=1)


# --------------------------------------------------------------------------- eager aliasing


def _shares(a, b):
    return np.shares_memory(np.asarray(a), np.asarray(b))


def test_views_share_memory_like_numpy():
    a = xp.arange(24.0).reshape(2, 3, 4)
    assert _shares(a, a.reshape(6, 4))
    assert _shares(a, xp.ravel(a))
    assert _shares(a, a.T)
    assert _shares(a, xp.transpose(a, (1, 0, 2)))
    assert _shares(a, xp.swapaxes(a, 0, 2))
    assert _shares(a, xp.moveaxis(a, 0, -1))
    assert _shares(a, xp.expand_dims(a, 1))
    assert _shares(a, xp.squeeze(xp.expand_dims(a, 0)))
    assert _shares(a, xp.flip(a, 1))
    assert _shares(a, xp.atleast_3d(a))
    for part in xp.split(a, 2, axis=2):
        assert _shares(a, part)
    assert _shares(a, xp.broadcast_to(a, (2,) + a.shape))  # a read-only view, as NumPy's
    assert _shares(a, xp.diagonal(a))
    # new arrays where NumPy makes new arrays
    assert not _shares(a, xp.concatenate([a, a]))
    assert not _shares(a, xp.stack([a]))
    assert not _shares(a, xp.tile(a, 1))
    assert not _shares(a, xp.pad(a, 0))
    assert not _shares(a, xp.roll(a, 0))
    assert not _shares(a, xp.repeat(a, 1))


def test_write_through_reshape_view_changes_base():
    if not hasattr(xnp.numpy_api.indexing, "setitem"):
        pytest.skip("xnp.numpy_api.indexing.setitem (Array.__setitem__) is not available yet")
    a = xp.arange(6.0)
    b = a.reshape(2, 3)
    b[0, 0] = 9
    assert float(np.asarray(a)[0]) == 9.0
    t = b.T
    t[2, 1] = -1
    assert float(np.asarray(a)[5]) == -1.0


# --------------------------------------------------------------------------- transposes


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, axes=["none", "rev", "neg"], n=18))
def test_transpose_matches_numpy(case, rng):
    x = _data(rng, case.shape)
    nd = len(case.shape)
    axes = {"none": None, "rev": tuple(reversed(range(nd))),
            "neg": tuple(range(-1, -nd - 1, -1))}[case.axes]
    check_vs_numpy(lambda m, x: m.transpose(x, axes), x)
    check_vs_numpy(lambda m, x: m.permute_dims(x, axes), x)
    check_vs_numpy(lambda m, x: x.T, x)


@pytest.mark.parametrize("axes", [(0, 0), (0,), (0, 2), (0, 1, 2)])
def test_transpose_errors_match_numpy(axes):
    check_vs_numpy(lambda m, x: m.transpose(x, axes), np.zeros((2, 3)))


@pytest.mark.parametrize("shape", SMALL_SHAPES)
def test_matrix_transpose_matches_numpy(shape, rng):
    x = _data(rng, shape)
    check_vs_numpy(lambda m, x: m.matrix_transpose(x), x)
    if len(shape) >= 2:
        check_vs_numpy(lambda m, x: x.mT, x)


@pytest.mark.parametrize("case", grid(shape=ND_SHAPES, a1=[0, -1, 1, 5], a2=[0, -1, 2], n=40))
def test_swapaxes_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.swapaxes(x, case.a1, case.a2), _data(rng, case.shape))


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), ([0, 1], [1, 0]), ([0, 2], [2, 0]),
                                     (0, 5), ([0, 0], [0, 1]), ([0, 1], [0])])
def test_moveaxis_matches_numpy(src, dst, rng):
    check_vs_numpy(lambda m, x: m.moveaxis(x, src, dst), _data(rng, (2, 3, 4)))


# --------------------------------------------------------------------------- squeeze / expand


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES + [(1, 1, 1), (1, 3, 1)],
                                      axis=[None, 0, -1, (0, -1), 1], n=40))
def test_squeeze_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.squeeze(x, case.axis), _data(rng, case.shape))
    check_vs_numpy(lambda m, x: x.squeeze(case.axis), _data(rng, case.shape))


@pytest.mark.parametrize("axis", [[0], [0, 2], [], (), (0, 0), (2, -3), 1.0, (0.0,), True,
                                  np.True_, (True,), np.array([0]), np.array(0), np.int64(2),
                                  "0"], ids=repr)
def test_squeeze_axis_forms_match_numpy(axis, rng):
    """NumPy's squeeze takes None, an int (``operator.index``) or a tuple of ints: a list, a
    1-d array or a bool raises its TypeError, a repeated axis its ValueError (function and
    method, eagerly and under jit)."""
    x = _data(rng, (1, 3, 1))
    check_vs_numpy(lambda m, a: m.squeeze(a, axis=axis), x)
    check_vs_numpy(lambda m, a: a.squeeze(axis=axis), x)


@pytest.mark.parametrize("src,dst", [(np.array([0]), 1), ([0, 1], [1, 0]), (np.array(2), 0),
                                     (True, 0), (np.True_, 0), (0.0, 1), ([0, 0], [0, 1]),
                                     ((0, 1), 0)], ids=repr)
def test_moveaxis_axis_forms_match_numpy(src, dst, rng):
    """NumPy's ``normalize_axis_tuple`` forms: ints (True is 1), sequences and arrays of them."""
    check_vs_numpy(lambda m, x: m.moveaxis(x, src, dst), _data(rng, (2, 3, 4)))


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, axis=[0, -1, 1, (0, 1), (0, -1), (0, 0),
                                                                 4, (-5,)], n=40))
def test_expand_dims_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.expand_dims(x, case.axis), _data(rng, case.shape))


# --------------------------------------------------------------------------- joining


@pytest.mark.parametrize("case", grid(shapes=[((2, 3), (2, 3)), ((0,), (3,)),
                                              ((2, 0, 4), (2, 0, 4)), ((3, 1), (3, 1)),
                                              ((1,), (1,))],
                                      dtypes=[(np.float64, np.float64), (np.int8, np.uint8),
                                              (np.int32, np.float32), (np.bool_, np.int16),
                                              (np.float16, np.complex64)],
                                      axis=[0, -1, None], n=24))
def test_concatenate_matches_numpy(case, rng):
    a = _data(rng, case.shapes[0], case.dtypes[0])
    b = _data(rng, case.shapes[1], case.dtypes[1])
    check_vs_numpy(lambda m, a, b: m.concatenate([a, b], axis=case.axis), a, b)
    check_vs_numpy(lambda m, a, b: m.concat((a, b, a), axis=case.axis), a, b)


@pytest.mark.parametrize("arrays,kw", [
    ([(2, 3), (2, 4)], {}), ([(2, 3), (2,)], {}), ([(), ()], {}), ([], {}),
    ([(2,), (2,)], {"axis": 1}), ([(2,), (3,)], {"dtype": np.int64}),
    ([(2,), (3,)], {"dtype": np.float32, "casting": "same_kind"}),
    ([(2,), (3,)], {"dtype": np.float32, "casting": "safe"}),
])
def test_concatenate_errors_and_dtype_match_numpy(arrays, kw, rng):
    xs = [_data(rng, s) for s in arrays]
    check_vs_numpy(lambda m, *xs: m.concatenate(list(xs), **kw), *xs)


def test_concatenate_out_and_python_lists():
    out = xp.zeros(5)
    res = xp.concatenate([xp.ones(2), [2, 3, 4]], out=out)
    assert res is out
    assert_allclose(out, np.array([1.0, 1, 2, 3, 4]))
    with pytest.raises(TypeError):
        xp.concatenate([xp.ones(2)], out=xp.zeros(2), dtype=np.float64)
    check_vs_numpy(lambda m: m.concatenate([[1, 2], [3.5]]))
    check_vs_numpy(lambda m, x: m.concatenate(x), np.arange(6.0).reshape(2, 3))


def test_concatenate_jaxpr_and_stablehlo():
    j = xnp.make_jaxpr(lambda a, b: xp.concatenate([a, b], axis=1))(np.ones((2, 1)),
                                                                    np.ones((2, 3)))
    assert norm(str(j)) == ("{ lambda ; a:f64[2,1] b:f64[2,3]. let c:f64[2,4] = "
                            "concatenate[dimension=1] a b in (c,) }")
    text = xnp.jit(lambda a, b: xp.concatenate([a, b])).lower(np.ones(2), np.ones(3)).as_text()
    assert "stablehlo.concatenate" in text and "dim = 0" in text


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, axis=[0, -1, 1], n=14))
def test_stack_matches_numpy(case, rng):
    a, b = _data(rng, case.shape), _data(rng, case.shape, np.float32)
    check_vs_numpy(lambda m, a, b: m.stack([a, b], axis=case.axis), a, b)
    check_vs_numpy(lambda m, a, b: m.stack([a, b, a], case.axis, dtype=np.float32), a, b)


def test_stack_errors_match_numpy(rng):
    check_vs_numpy(lambda m, a, b: m.stack([a, b]), np.zeros(2), np.zeros(3))
    check_vs_numpy(lambda m: m.stack([]))
    check_vs_numpy(lambda m, a: m.stack([a, a], axis=3), np.zeros(2))


@pytest.mark.parametrize("fn", ["hstack", "vstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)], [(0,), (0,)],
                                    [(2, 1), (2, 1)], [(1, 2, 3), (1, 2, 3)]])
def test_stacking_helpers_match_numpy(fn, shapes, rng):
    xs = [_data(rng, s) for s in shapes]
    check_vs_numpy(lambda m, *xs: getattr(m, fn)(list(xs)), *xs)


@pytest.mark.parametrize("fn", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_matches_numpy(fn, rng):
    for shape in [(), (3,), (2, 3), (2, 3, 4), (0,)]:
        x = _data(rng, shape)
        check_vs_numpy(lambda m, x: getattr(m, fn)(x), x)
    check_vs_numpy(lambda m, a, b: getattr(m, fn)(a, b), _data(rng, ()), _data(rng, (2,)))
    check_vs_numpy(lambda m: getattr(m, fn)(2.0))


def test_append_matches_numpy(rng):
    check_vs_numpy(lambda m, a, b: m.append(a, b), _data(rng, (2, 3)), _data(rng, (4,)))
    check_vs_numpy(lambda m, a, b: m.append(a, b, axis=0), _data(rng, (2, 3)), _data(rng, (1, 3)))


# --------------------------------------------------------------------------- broadcasting


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, target=[(2, 3, 4), (5, 3, 1), (0, 1),
                                                                  (4,), (3, 4, 1, 3), ()], n=40))
def test_broadcast_to_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.broadcast_to(x, case.target), _data(rng, case.shape))


def test_broadcast_arrays_and_shapes_match_numpy(rng):
    a, b, c = _data(rng, (3, 1)), _data(rng, (4,)), _data(rng, ())
    check_vs_numpy(lambda m, a, b, c: m.broadcast_arrays(a, b, c), a, b, c)
    check_vs_numpy(lambda m, a, b: m.broadcast_arrays(a, b), a, _data(rng, (2,)))
    assert xp.broadcast_shapes((2, 1), (3,), (1, 1, 3)) == np.broadcast_shapes(
        (2, 1), (3,), (1, 1, 3))
    assert xp.broadcast_shapes(3, (2, 1)) == (2, 3)
    with pytest.raises(ValueError):
        xp.broadcast_shapes((2,), (3,))
    same = xp.asarray(a)
    assert xp.broadcast_arrays(same, same)[0] is same


def test_broadcast_arrays_results_warn_on_write_as_numpy():
    # NumPy 2.x: a broadcast result is writeable, reading its flag warns FutureWarning
    # (it will become read-only) and writing warns DeprecationWarning and writes the
    # shared memory; an argument that already has the shape is returned as it is
    seen = {}
    for mod in (np, xp):
        a, b = mod.asarray([1.0, 2.0, 3.0]), mod.ones((2, 1))
        r = mod.broadcast_arrays(a, b)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            flags = [o.flags.writeable for o in r]
            r[0][1, 0] = 7.0
        seen[mod] = (flags, [x.category for x in w], np.asarray(a).tolist(),
                     [o.strides for o in r], mod.broadcast_arrays(a, a)[0] is a)
    assert seen[xp] == seen[np]


_WRITES = {
    "setitem": lambda m, r: r.__setitem__((1, 0), 7.0),
    "view": lambda m, r: r[1].__setitem__(0, 7.0),
    "iadd": lambda m, r: r.__iadd__(1.0),
    "out": lambda m, r: m.add(r, 1.0, out=r),
    "fill": lambda m, r: r.fill(7.0),
    "copyto": lambda m, r: m.copyto(r, 7.0),
}


@pytest.mark.parametrize("write", sorted(_WRITES))
def test_broadcast_arrays_write_warning_names_the_callers_line(write):
    # NumPy's DeprecationWarning names the line that writes (here this file), also where
    # xnp writes for it; with the warning as an error nothing is written, as NumPy
    for mod in (np, xp):
        a = mod.asarray([1.0, 2.0, 3.0])
        r = mod.broadcast_arrays(a, mod.ones((2, 1)))[0]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r.flags.writeable  # noqa: B018  (NumPy's FutureWarning)
            _WRITES[write](mod, r)
        assert [(x.category, x.filename) for x in w] == [(FutureWarning, __file__),
                                                         (DeprecationWarning, __file__)]
        a = mod.asarray([1.0, 2.0, 3.0])
        r = mod.broadcast_arrays(a, mod.ones((2, 1)))[0]
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            with pytest.raises(DeprecationWarning, match="overlapping memory"):
                _WRITES[write](mod, r)
        assert np.asarray(a).tolist() == [1.0, 2.0, 3.0], mod


# --------------------------------------------------------------------------- flipping


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, axis=[None, 0, -1, (0, 1), 3], n=40))
def test_flip_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.flip(x, case.axis), _data(rng, case.shape))


@pytest.mark.parametrize("shape", SMALL_SHAPES)
def test_flipud_fliplr_match_numpy(shape, rng):
    x = _data(rng, shape)
    check_vs_numpy(lambda m, x: m.flipud(x), x)
    check_vs_numpy(lambda m, x: m.fliplr(x), x)


# --------------------------------------------------------------------------- pad


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, dtype=[np.float64, np.int8, np.bool_,
                                                                 np.complex64],
                                      width=[0, 2, (1, 2), ((1, 0),), "per-axis"],
                                      value=[0, 5, 1.5, "pairs"], n=40))
def test_pad_matches_numpy(case, rng):
    x = _data(rng, case.shape, case.dtype)
    nd = len(case.shape)
    width = tuple((i % 2, 2 - i % 2) for i in range(nd)) if case.width == "per-axis" else case.width
    value = tuple((i + 1, -(i + 2)) for i in range(nd)) if case.value == "pairs" else case.value
    if case.dtype == np.bool_ and case.value == "pairs":
        value = tuple((True, False) for _ in range(nd))
    check_vs_numpy(lambda m, x: m.pad(x, width, constant_values=value), x)


def test_pad_special_cases(rng):
    x = _data(rng, (2, 3))
    check_vs_numpy(lambda m, x: m.pad(x, -1), x)
    check_vs_numpy(lambda m, x: m.pad(x, 1.5), x)
    check_vs_numpy(lambda m, x: m.pad(x, ((1, 2), (3, 4), (5, 6))), x)
    check_vs_numpy(lambda m, x: m.pad(x, 1, mode="foo"), x)
    check_vs_numpy(lambda m, x: m.pad(x, 1, foo=3), x)
    # NumPy leaves the border of mode="empty" uninitialised: compare shape and interior only
    r = xp.pad(xp.ones((2, 3)), 1, mode="empty")
    assert r.shape == (4, 5)
    assert_allclose(r[1:3, 1:4], np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="mean"):
        xp.pad(x, 1, mode="mean")
    with pytest.raises(OverflowError):
        xp.pad(np.zeros(2, np.int8), 1, constant_values=300)
    # a traced scalar padding value is an operand of the pad equation
    r = xnp.jit(lambda x, v: xp.pad(x, 1, constant_values=v))(np.zeros(2), 7.0)
    assert_allclose(r, np.array([7.0, 0, 0, 7]))
    j = xnp.make_jaxpr(lambda x: xp.pad(x, (1, 2)))(np.zeros(3))
    assert norm(str(j)) == ("{ lambda ; a:f64[3]. let b:f64[6] = pad[padding_config=((1, 2, 0),)] "
                            "a 0.0:f64[] in (b,) }")
    text = xnp.jit(lambda x: xp.pad(x, (1, 2))).lower(np.zeros(3)).as_text()
    assert "stablehlo.pad" in text and "low = [1]" in text and "high = [2]" in text


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.uint64, np.float32, np.bool_])
@pytest.mark.parametrize("value", [2**64 + 1, 2**63, -1, 256, 10**400, float("nan"), 1e300,
                                   [2**64 + 1, 1], [[1], [2**64]], np.array([[1j, 2], [3, 4]])],
                         ids=lambda v: repr(v)[:12])
def test_pad_constant_values_convert_as_numpy(dtype, value):
    # NumPy assigns each value into the padded array (ndarray item assignment): Python
    # ints out of the dtype's range raise OverflowError (a float dtype takes them), a
    # NumPy integer wraps into an unsigned dtype, NaN into an int64 raises ValueError,
    # a complex into a real dtype TypeError
    x = np.arange(2).astype(dtype).reshape(1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's casts of nan, 1e300
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_vs_numpy(lambda m, x: m.pad(x, 1, constant_values=value), x)


def test_pad_constant_values_errors_name_the_argument():
    with pytest.raises(OverflowError, match=r"xnp\.pad: `constant_values` 18446744073709551617 "
                                            r"does not fit int64"):
        xp.pad(xp.arange(3), 1, constant_values=2**64 + 1)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        xp.pad(xp.arange(3), 1, constant_values=1.5j)
    assert [(x.category, x.filename) for x in w] == [(np.exceptions.ComplexWarning, __file__)]


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("case", grid(shape=[(1,), (4,), (2, 3), (3, 1, 2)],
                                      dtype=[np.float64, np.int8, np.complex64],
                                      width=[0, 1, (2, 5), 7, "per-axis"], n=4, seed=3))
def test_pad_index_modes_match_numpy(mode, case, rng):
    # widths beyond the axis length (7 on an axis of 1..4) repeat NumPy's pattern
    x = _data(rng, case.shape, case.dtype)
    nd = len(case.shape)
    width = tuple((i, 3 - i) for i in range(nd)) if case.width == "per-axis" else case.width
    check_vs_numpy(lambda m, x: m.pad(x, width, mode=mode), x)


def test_pad_index_modes_errors_and_grad(rng):
    check_vs_numpy(lambda m, x: m.pad(x, 1, mode="edge"), np.zeros((0, 2)))  # NumPy: ValueError
    check_vs_numpy(lambda m, x: m.pad(x, ((0, 0), (1, 1)), mode="wrap"), np.zeros((0, 2)))
    check_vs_numpy(lambda m, x: m.pad(x, 1, mode="reflect", reflect_type="even"), np.arange(3.0))
    check_vs_numpy(lambda m, x: m.pad(x, 1, mode="edge", reflect_type="even"), np.arange(3.0))
    with pytest.raises(NotImplementedError, match="reflect_type"):
        xp.pad(np.arange(3.0), 1, mode="reflect", reflect_type="odd")
    x, v, w = rng.standard_normal(4), rng.standard_normal(4), rng.standard_normal(13)

    def f(a):
        return xp.sum(xp.pad(a, (4, 5), mode="symmetric") * w)

    g = np.asarray(xnp.grad(f)(x))
    np.testing.assert_allclose(np.sum(g * v), central_difference(f, x, v), rtol=1e-6)


def test_pad_traced_width_raises():
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda x, w: xp.pad(x, w))(np.zeros(2), 1)


# --------------------------------------------------------------------------- tile / repeat


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES,
                                      reps=[1, 2, 0, (2, 1), (1, 2, 3), (2, 1, 1, 2), ()], n=50))
def test_tile_matches_numpy(case, rng):
    check_vs_numpy(lambda m, x: m.tile(x, case.reps), _data(rng, case.shape))


def test_tile_errors():
    check_vs_numpy(lambda m, x: m.tile(x, -1), np.zeros(3))


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, repeats=[0, 1, 3, "seq"],
                                      axis=[None, 0, -1], n=40))
def test_repeat_matches_numpy(case, rng):
    x = _data(rng, case.shape)
    if case.repeats == "seq":
        n = x.size if case.axis is None else (x.shape[case.axis] if x.ndim else 1)
        repeats = [(i * 2) % 3 for i in range(n)]
    else:
        repeats = case.repeats
    check_vs_numpy(lambda m, x: m.repeat(x, repeats, axis=case.axis), x)


def test_repeat_errors_match_numpy():
    check_vs_numpy(lambda m, x: m.repeat(x, [1, 2]), np.zeros(3))
    check_vs_numpy(lambda m, x: m.repeat(x, -1), np.zeros(3))
    check_vs_numpy(lambda m, x: m.repeat(x, 2, axis=2), np.zeros(3))
    check_vs_numpy(lambda m: m.repeat(5, 3))
    with pytest.raises(xnp.errors.ConcretizationTypeError):
        xnp.jit(lambda x, r: xp.repeat(x, r))(np.zeros(2), 2)


# --------------------------------------------------------------------------- split / roll


@pytest.mark.parametrize("case", grid(shape=[(6,), (2, 6), (0,), (4, 0, 3)],
                                      fn=["split", "array_split"],
                                      sections=[1, 2, 3, 4, [1, 3], [-1], [2, 10], [3, 1], []],
                                      axis=[0, -1], n=36))
def test_split_matches_numpy(case, rng):
    x = _data(rng, case.shape)
    check_vs_numpy(lambda m, x: getattr(m, case.fn)(x, case.sections, axis=case.axis), x)


def test_split_errors_match_numpy():
    check_vs_numpy(lambda m, x: m.split(x, 0), np.zeros(4))
    check_vs_numpy(lambda m, x: m.array_split(x, 0), np.zeros(4))
    check_vs_numpy(lambda m, x: m.split(x, 2, axis=1), np.zeros(4))


@pytest.mark.parametrize("case", grid(shape=SMALL_SHAPES, shift=[0, 1, -2, 7, (1, 2)],
                                      axis=[None, 0, -1, (0, -1)], n=36))
def test_roll_matches_numpy(case, rng):
    x = _data(rng, case.shape)
    check_vs_numpy(lambda m, x: m.roll(x, case.shift, axis=case.axis), x)


# --------------------------------------------------------------------------- lax-level properties


def test_shape_ops_pass_weak_type_through():
    seen = {}

    def f(y):
        v = lax.broadcast_in_dim(y, (3,), ())
        seen["broadcast_in_dim"] = v.weak_type
        seen["reshape"] = lax.reshape(v, (3, 1)).weak_type
        seen["squeeze"] = lax.squeeze(lax.reshape(v, (3, 1)), (1,)).weak_type
        seen["transpose"] = lax.transpose(v, (0,)).weak_type
        seen["rev"] = lax.rev(v, (0,)).weak_type
        seen["concatenate"] = lax.concatenate([v, v], 0).weak_type
        seen["concatenate_mixed"] = lax.concatenate([v, xp.zeros(3)], 0).weak_type
        seen["pad"] = lax.pad(v, xp.float64(0), ((1, 1, 0),)).weak_type
        seen["copy"] = lax.copy(v).weak_type
        seen["iota"] = lax.iota(np.float64, (3,)).weak_type
        return y

    xnp.jit(f)(2.0)
    assert seen == {"broadcast_in_dim": True, "reshape": True, "squeeze": True, "transpose": True,
                    "rev": True, "concatenate": True, "concatenate_mixed": False, "pad": True,
                    "copy": True, "iota": False}
    seen.clear()
    f(xnp.jit(lambda t: t)(2.0))  # eagerly the same, on a weak 0-d array
    assert seen["reshape"] and not seen["iota"] and not seen["concatenate_mixed"]


def test_eager_lax_shape_ops_views_and_copies():
    a = xp.arange(6.0)
    assert _shares(a, lax.reshape(a, (2, 3)))
    assert _shares(a, lax.broadcast_in_dim(a, (1, 6, 1), (1,)))
    assert not _shares(a, lax.broadcast_in_dim(a, (2, 6), (1,)))
    assert np.asarray(lax.broadcast_in_dim(a, (2, 6), (1,))).flags.writeable
    assert not _shares(a, lax.copy(a))
    assert _shares(a, lax.rev(a, (0,)))


def test_lax_shape_rule_errors_are_raised_eagerly_and_staged():
    for fn in (lambda x: lax.reshape(x, (4, 2)), lambda x: lax.transpose(x, (1,)),
               lambda x: lax.broadcast_in_dim(x, (2, 5), (1,)), lambda x: lax.squeeze(x, (0,))):
        for call in (fn, xnp.jit(fn)):
            with pytest.raises((TypeError, ValueError), match=r"xnp\.lax\.\w+: .*float64\[6\]"):
                call(np.zeros(6) if call is not fn else xp.zeros(6))


def test_lax_traced_shape_param_raises():
    with pytest.raises(xnp.errors.ConcretizationTypeError,
                       match="Shapes must be 1D sequences of concrete values of integer type"):
        xnp.jit(lambda x, n: lax.broadcast_in_dim(x, (n,), ()))(1.0, 3)


def test_stablehlo_of_shape_ops():
    def f(x):
        return (lax.reshape(x, (3, 2)), lax.transpose(x, (1, 0)), lax.rev(x, (1,)),
                lax.iota(np.int64, (2, 3), 1), lax.broadcast_in_dim(x, (4, 2, 3), (1, 2)),
                lax.squeeze(lax.reshape(x, (1, 2, 3)), (0,)))

    text = xnp.jit(f).lower(np.ones((2, 3))).as_text()
    for piece in ("stablehlo.reshape", "stablehlo.transpose", "dims = [1, 0]", "stablehlo.reverse",
                  "stablehlo.iota dim = 1", "stablehlo.broadcast_in_dim", "dims = [1, 2]"):
        assert piece in text, piece
    outs = xnp.jit(f)(np.arange(6.0).reshape(2, 3))
    for o, e in zip(outs, f(xp.arange(6.0).reshape(2, 3))):
        assert_allclose(o, np.asarray(e))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_iota_all_numeric_dtypes_jit(dtype):
    r = xnp.jit(lambda: lax.iota(dtype, (2, 4), 1))()
    assert_allclose(r, np.broadcast_to(np.arange(4).astype(dtype), (2, 4)))


def test_edge_shapes_roundtrip(rng):
    for shape in EDGE_SHAPES:
        x = _data(rng, shape)
        check_vs_numpy(lambda m, x: m.reshape(m.transpose(x), x.shape[::-1]), x)


class _Axis:
    """An integer of another class: NumPy takes an axis with ``operator.index``."""

    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


@pytest.mark.parametrize("call", [
    lambda m, a: a.transpose(_Axis(1), _Axis(0)), lambda m, a: a.transpose((_Axis(1), _Axis(0))),
    lambda m, a: m.transpose(a, (_Axis(1), _Axis(0))), lambda m, a: m.swapaxes(a, _Axis(0), 1),
    lambda m, a: a.sum(axis=_Axis(0)), lambda m, a: m.moveaxis(a, _Axis(0), _Axis(1)),
    lambda m, a: m.expand_dims(a, _Axis(0)), lambda m, a: m.cumsum(a, axis=_Axis(1)),
    lambda m, a: m.sum(a, axis=True), lambda m, a: m.sum(a, axis=1.0),
    lambda m, a: m.transpose(a, range(2)), lambda m, a: m.transpose(a, np.array([1, 0])),
    lambda m, a: m.transpose(a, axes=[1, 0]), lambda m, a: m.permute_dims(a, np.array([1, 0])),
], ids=["transpose-ints", "transpose-tuple", "fn-transpose", "swapaxes", "sum", "moveaxis",
        "expand_dims", "cumsum", "bool axis", "float axis", "transpose-range",
        "transpose-int-array", "transpose-list", "permute_dims-int-array"])
def test_axes_are_what_operator_index_takes(call):
    # objects with __index__ are axes, bools and floats are not: NumPy's results or error
    # classes, eagerly and under jit
    n = np.arange(6.0).reshape(2, 3)
    try:
        want = call(np, n)
    except TypeError:
        for fn in (lambda: call(xnp, xnp.asarray(n)),
                   lambda: xnp.jit(lambda a: call(xnp, a))(xnp.asarray(n))):
            with pytest.raises(TypeError):
                fn()
        return
    np.testing.assert_array_equal(np.asarray(call(xnp, xnp.asarray(n))), want)
    np.testing.assert_array_equal(
        np.asarray(xnp.jit(lambda a: call(xnp, a))(xnp.asarray(n))), want)


@pytest.mark.parametrize("dtype, numbers", [
    (np.int8, (300,)), (np.int8, (5,)), (np.uint8, (-1,)), (np.int8, (2**63,)),
    (np.int8, (300, 2.5)), (np.float16, (1e6,)), (np.float32, (1e300,)), (np.int8, (1j,)),
    (np.int16, (True,)), (np.float32, (2.5, 7)), (np.int8, (10**20,)),
    (np.float64, (2**64,)), (np.float16, (-2**63 - 1,)), (np.float64, (10**30, 1)),
])
def test_concatenate_flat_with_python_numbers_is_numpys(dtype, numbers):
    """``concatenate(..., axis=None)`` takes a Python number beside arrays weakly (NEP 50), as
    NumPy: the arrays' dtype where it holds the number's kind, the number cast into it (an
    int wraps; a float overflows to inf with NumPy's warning); a bigger int than NumPy
    converts raises OverflowError. The same on every call and under jit."""
    a = np.array([1, 2], dtype)

    def run(m, x):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = m.concatenate((x, *numbers), axis=None)
            except OverflowError:
                out = OverflowError
        return out, sorted(str(w.message) for w in caught)

    want, want_warnings = run(np, a)
    calls = [lambda: run(xnp, xnp.asarray(a))] * 3 + [
        lambda: run(xnp, xnp.asarray(a)) if want is OverflowError else
        (xnp.jit(lambda x: run(xnp, x)[0])(a), want_warnings)]
    for call in calls:
        got, got_warnings = call()
        if want is OverflowError:
            assert got is OverflowError
            continue
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
        assert got_warnings == want_warnings


@pytest.mark.parametrize("fname", ["concatenate", "stack", "vstack", "hstack"])
@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.bool_])
def test_joins_of_complex_into_real_dtype_warn_as_numpy(fname, dtype):
    """``dtype=`` of another kind with ``casting='unsafe'``: NumPy's ComplexWarning once per
    complex operand (none into bool)."""
    arrays = [np.array([1 + 1j, 2]), np.array([1.0, 2.0]), np.array([3j, 1])]

    def count(m, conv):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(m, fname)([conv(a) for a in arrays], dtype=dtype, casting="unsafe")
        return out, [w.category for w in caught]

    want, want_warnings = count(np, lambda a: a)
    for _ in range(2):
        got, got_warnings = count(xnp, xnp.asarray)
        assert got_warnings == want_warnings
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("numbers, kw", [
    ((2**63, 1), {}), ((2**64 - 1, 1), {}), ((2**63, True), {}), ((2**63, 2**63), {}),
    ((2**63, -1), {}), ((2**64, -1), {}), ((2**64, 1.5), {}), ((2**63, 1.5), {}),
    ((2**63, 1j), {}), (([2**63], [1]), {}), ((2**63,), {}), ((1.5, 1), {"casting": "no"}),
    ((2**63, 1), {"dtype": np.uint64}), ((2**63, 1), {"dtype": np.float32}),
    ((2**63, 1), {"out": np.int64}), ((300, -1), {"dtype": np.int8, "casting": "no"}),
])
def test_concatenate_flat_numbers_only_is_numpys(numbers, kw):
    """``concatenate(numbers, axis=None)`` of Python numbers only: NumPy's result dtype of
    weak numbers (``(2**63, 1)`` is int64, 2**63 wrapped, NumPy's array of it being uint64),
    a ``dtype=``/``out`` holding a Python int whatever ``casting``; a Python int NumPy
    cannot convert into the result raises its OverflowError. Eagerly and under jit."""
    def run(m, jit=False):
        kws = dict(kw)
        if "out" in kws:
            kws["out"] = m.zeros(len(numbers), kw["out"])
        try:
            call = functools.partial(m.concatenate, numbers, axis=None, **kws)
            out = np.asarray(xnp.jit(call)() if jit else call())
        except OverflowError as e:
            return OverflowError, str(e)
        return out.dtype, out.tolist()

    want = run(np)
    for got in [run(xnp) for _ in range(3)] + [run(xnp, jit="out" not in kw)]:
        if want[0] is OverflowError:
            assert got[0] is OverflowError and "xnp.concatenate" in got[1] and want[1] in got[1]
        else:
            assert got == want


@pytest.mark.parametrize("casting", ["unsafe", "same_kind", "safe", "no"])
@pytest.mark.parametrize("fname", ["concatenate", "stack"])
def test_join_into_out_follows_casting(fname, casting):
    """``out=`` of another dtype: the inputs are cast into it under ``casting`` (NumPy's
    rule), eagerly and under jit (the write-back of an updated argument)."""
    a, b = np.array([1.5, 2.5]), np.array([3.5, -4.5])
    shape = (4,) if fname == "concatenate" else (2, 2)
    _check_join_into_out(fname, casting, a, b, shape, np.int32)
    # each input cast into out's dtype, not through their common dtype (int64 2**40 wraps
    # into int32 as 0; complex into real with NumPy's ComplexWarning)
    _check_join_into_out(fname, casting, a, np.array([2**40, -3]), shape, np.int32)
    _check_join_into_out(fname, casting, np.array([1 + 2j, 3], np.complex64), b, shape,
                         np.float32)


def _check_join_into_out(fname, casting, a, b, shape, out_dtype):
    import warnings

    def run(m, jitted=False):
        o = np.zeros(shape, out_dtype) if m is np else xnp.zeros(shape, out_dtype)
        fn = lambda x, y, o: getattr(m, fname)((x, y), out=o, casting=casting)  # noqa: E731
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                (xnp.jit(fn) if jitted else fn)(a if m is np else xnp.asarray(a),
                                                b if m is np else xnp.asarray(b), o)
            except TypeError:
                return "TypeError"
        return np.asarray(o).tolist(), [w.category for w in caught]

    want = run(np)
    assert run(xnp) == want
    assert run(xnp, jitted=True)[0] == want[0]
