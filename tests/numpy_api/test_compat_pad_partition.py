"""NumPy compatibility of ``pad``'s ``constant_values`` (0-d arrays, strings, sequences;
traced values under jit), of ``partition``/``argpartition``'s order of checks (0-d input,
bad ``kth``, each ``axis``; the ndarray methods too) and of the axis errors of the
statistics functions (``median``, ``nanmedian``, the quantile functions, ``average``).

Each case runs NumPy on the same inputs and requires xnp's result (value, shape, dtype) or
exception class, eagerly and under ``xnp.jit``; an exception's message must name the xnp
function (and, for ``pad``, the argument)."""

import warnings

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import assert_allclose, covering_grid

_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)  # NumPy RuntimeWarnings off

AxisError = np.exceptions.AxisError


def _run(fn):
    """``(result, None)`` or ``(None, exception)`` of ``fn()``."""
    try:
        return fn(), None
    except Exception as e:  # the oracle decides what is expected
        return None, e


def _public(cls):
    return AxisError if issubclass(cls, AxisError) else cls


def _agree(expected, got, names, what, *, sort=False):
    """``got`` (an xnp outcome) equals NumPy's ``expected``: the same result, or an exception
    of NumPy's class whose message holds each of ``names`` (a warning raised as an error:
    its class only)."""
    (want, np_err), (res, err) = expected, got
    if np_err is not None:
        assert err is not None, f"{what}: NumPy raised {np_err!r}, xnp returned {res!r}"
        assert isinstance(err, _public(type(np_err))), f"{what}: {err!r} is not {np_err!r}"
        # an AxisError is a ValueError and an IndexError: only where NumPy's is one
        assert isinstance(np_err, AxisError) or not isinstance(err, AxisError), \
            f"{what}: {err!r} where NumPy raised {np_err!r}"
        for name in names if not isinstance(err, Warning) else ():  # (NumPy's warning text)
            assert name in str(err), f"{what}: {name!r} not in {str(err)!r}"
        return
    assert err is None, f"{what}: xnp raised {err!r}, NumPy returned {want!r}"
    if sort:  # partition's order inside the two sides is unspecified
        want, res = np.sort(np.asarray(want), axis=-1), np.sort(np.asarray(res), axis=-1)
    assert_allclose(res, want, err_msg=what)


# --------------------------------------------------------------------------- pad


_PAD_DTYPES = [np.int64, np.int8, np.uint8, np.float32, np.bool_, np.complex64]
_PAD_VALUES = [np.nan, 2.0**63, np.inf, -np.inf, 1e300, 3.7, -1.5, 300, 7, 1 + 2j]


@pytest.mark.parametrize("form", ["python", "numpy 0-d", "xnp 0-d", "numpy scalar", "pair",
                                  "per-axis"])
@pytest.mark.parametrize("dtype", _PAD_DTYPES, ids=lambda d: np.dtype(d).name)
def test_pad_constant_values_convert_as_numpy(form, dtype):
    # NumPy assigns each value into the padded array: NaN into an integer dtype is
    # ValueError, float64 2**63 or inf OverflowError, a complex into a real dtype warns
    # (one value) or is TypeError (per-axis values); xnp's eager 0-d arrays are read so too
    x = np.arange(3).astype(dtype)
    for v in _PAD_VALUES:
        host = {"python": v, "numpy 0-d": np.array(v), "xnp 0-d": np.array(v),
                "numpy scalar": np.array(v)[()], "pair": [v, 1],
                "per-axis": np.array([[v, 1]] * 1)}[form]
        given = xnp.asarray(host) if form == "xnp 0-d" else host
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            expected = _run(lambda: np.pad(x, 1, constant_values=host))
            what = f"pad({np.dtype(dtype).name}, constant_values={form} {v!r})"
            got = _run(lambda: xnp.pad(xnp.asarray(x), 1, constant_values=given))
            _agree(expected, got, ["xnp.pad", "constant_values"], "eager " + what)
            if form != "xnp 0-d":  # host data a jitted function closes over: read at trace
                got = _run(lambda: xnp.jit(lambda a: xnp.pad(a, 1, constant_values=host))(x))
                _agree(expected, got, ["xnp.pad", "constant_values"], "jit " + what)


@pytest.mark.parametrize("value, dtype", [
    ("5", np.int64), ("-3", np.int8), (["5", "6"], np.int64), ([["1", "2"]], np.uint8),
    (b"5", np.int64), ("5.5", np.float64), ("1e3", np.float32), ("", np.bool_),
    ("0", np.bool_), ("1+2j", np.complex128), ("x", np.int64), ("5.5", np.int64),
    ("300", np.int8), (np.array("7"), np.int32), (np.datetime64(1, "s"), np.float64),
    (np.array(1.5, dtype=object), np.float64),
], ids=repr)
def test_pad_constant_values_strings_as_numpy(value, dtype):
    # a string is assigned as NumPy assigns it: '5' into an int array is 5, 'x' ValueError
    x = np.arange(3).astype(dtype).reshape(1, 3)
    expected = _run(lambda: np.pad(x, 1, constant_values=value))
    got = _run(lambda: xnp.pad(xnp.asarray(x), 1, constant_values=value))
    _agree(expected, got, ["xnp.pad", "constant_values"], f"eager {value!r}")
    got = _run(lambda: xnp.jit(lambda a: xnp.pad(a, 1, constant_values=value))(x))
    _agree(expected, got, ["xnp.pad", "constant_values"], f"jit {value!r}")
    jf = xnp.jit(lambda a, c: xnp.pad(a, 1, constant_values=c), static_argnames="c")
    if isinstance(value, (str, bytes)):  # (a static argument must hash)
        _agree(expected, _run(lambda: jf(x, c=value)), ["xnp.pad"], f"static {value!r}")


def test_pad_string_constant_values_of_an_xnp_string_array():
    x = np.arange(3)
    want = np.pad(x, 1, constant_values=np.array(["5", "6"]))
    assert_allclose(xnp.pad(xnp.asarray(x), 1, constant_values=xnp.asarray(["5", "6"])), want)


@pytest.mark.parametrize("shape", [(), (1,), (2,), (1, 2), (2, 1), (2, 2), (1, 1)])
@pytest.mark.parametrize("width", [1, ((1, 0), (0, 2)), 0])
def test_pad_traced_constant_values_under_jit(shape, width):
    # a traced value cannot be read: it is cast (convert_element_type), in NumPy's pairs
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    c = (np.arange(int(np.prod(shape))) * 2.5 + 1).reshape(shape)  # 1.0, 3.5, 6.0, ...
    want = np.pad(x, width, constant_values=c)
    jf = xnp.jit(lambda a, v: xnp.pad(a, width, constant_values=v))
    assert_allclose(jf(x, c), want)
    assert_allclose(xnp.pad(xnp.asarray(x), width, constant_values=xnp.asarray(c)), want)


def test_pad_traced_constant_values_errors_and_no_check():
    x = np.arange(3)
    jf = xnp.jit(lambda a, v: xnp.pad(a, 1, constant_values=v))
    for bad in (np.zeros(3), np.zeros((3, 2)), np.zeros(0), np.ones((1, 1, 1))):
        expected = _run(lambda: np.pad(np.ones((2, 2)), 1, constant_values=bad))
        got = _run(lambda: xnp.jit(lambda a, v: xnp.pad(a, 1, constant_values=v))(
            np.ones((2, 2)), bad))
        _agree(expected, got, ["xnp.pad", "constant_values"], f"traced shape {bad.shape}")
    # NumPy raises for NaN into int64; a traced NaN cannot be seen: no error, int64 result
    out = jf(x, np.nan)
    assert out.shape == (5,) and out.dtype == np.int64
    assert_allclose(out[1:4], x)
    assert_allclose(jf(x, 7.9), np.pad(x, 1, constant_values=7.9))  # NumPy truncates too


def test_pad_closed_over_constant_values_are_read_at_each_call():
    x = np.arange(3.0)
    c0, c1 = xnp.asarray(3.0), xnp.asarray([3.0, 5.0])
    f = xnp.jit(lambda a: xnp.pad(a, 1, constant_values=c0))
    g = xnp.jit(lambda a: xnp.pad(a, 1, constant_values=c1))
    assert_allclose(f(x), np.pad(x, 1, constant_values=3.0))
    assert_allclose(g(x), np.pad(x, 1, constant_values=[3.0, 5.0]))
    c0[...] = 4
    c1[...] = [6, 7]
    assert_allclose(f(x), np.pad(x, 1, constant_values=4.0))
    assert_allclose(g(x), np.pad(x, 1, constant_values=[6.0, 7.0]))
    assert f.trace_count == 1 and g.trace_count == 1


def test_pad_constant_values_grad_and_eager_check():
    def total(c):
        return xnp.sum(xnp.pad(xnp.arange(3.0), (1, 2), constant_values=c))

    assert_allclose(xnp.grad(total)(2.0), np.float64(3.0))
    # an eager grad's tracer is concrete: NaN into int64 is NumPy's ValueError there too
    with pytest.raises(ValueError, match="xnp.pad: `constant_values`"):
        xnp.grad(lambda c: xnp.sum(xnp.pad(xnp.arange(3), 1, constant_values=c)
                                   ).astype(float) * c)(np.nan)


# --------------------------------------------------------------------------- partition

_KTH = [0, 1, -1, [], [0], [[0]], 3, -4, True, 1.0, np.array([[0]])]
_AXES = [None, 0, -1, 1, -2]


def _kth_id(k):
    return repr(k).replace(" ", "")


_PARTITION_SHAPES = [(), (3,), (2, 3)]
# sampled (all with --full-grid): every pair of values of two of the axes (function and
# shape, function and kth, shape and kth: 0-d input with each kth form) at least once
_PARTITION = covering_grid(
    kth=_KTH, shape=_PARTITION_SHAPES, name=["partition", "argpartition"],
    labels=lambda c: [(c.name, c.shape), (c.name, _kth_id(c.kth)), (c.shape, _kth_id(c.kth))],
    n=33, seed=2)


@pytest.mark.parametrize("kth,shape,name", [(c.kth, c.shape, c.name) for c in _PARTITION],
                         ids=[f"{_kth_id(c.kth)}-shape{_PARTITION_SHAPES.index(c.shape)}-{c.name}"
                              for c in _PARTITION])
def test_partition_checks_in_numpys_order(name, shape, kth):
    # NumPy: kth's dimensions (ValueError), then the axis (AxisError; argpartition takes a
    # 0-d array as 1-d), then kth's dtype (TypeError; bool ValueError) and bounds
    x = np.arange(float(np.prod(shape))).reshape(shape)[::-1] if shape else np.array(5.0)
    for axis in _AXES:
        what = f"{name}(shape {shape}, kth={kth!r}, axis={axis})"
        expected = _run(lambda: getattr(np, name)(x, kth, axis=axis))
        got = _run(lambda: getattr(xnp, name)(xnp.asarray(x), kth, axis=axis))
        sort = name == "partition"
        _agree(expected, got, [f"xnp.{name}"], "eager " + what, sort=sort)
        jf = xnp.jit(lambda a: getattr(xnp, name)(a, kth, axis=axis))
        _agree(expected, _run(lambda: jf(x)), [f"xnp.{name}"], "jit " + what, sort=sort)
        if name == "argpartition" and expected[1] is None:  # indices that partition x
            idx = np.asarray(got[0])
            vals = np.take_along_axis(x.reshape(-1) if axis is None or x.ndim == 0 else x,
                                      idx, axis=-1 if axis is None else axis)
            ks = np.atleast_1d(np.asarray(kth)).astype(int)
            part = np.partition(x.reshape(-1) if axis is None or x.ndim == 0 else x, ks,
                                axis=-1 if axis is None else axis)
            np.testing.assert_array_equal(np.take(vals, ks, axis=-1 if axis is None else axis),
                                          np.take(part, ks, axis=-1 if axis is None else axis))


@pytest.mark.parametrize("shape", [(), (3,)])
@pytest.mark.parametrize("kth", [0, 1, -1, [], [0], [[0]]], ids=_kth_id)
def test_partition_methods_check_as_numpy(shape, kth):
    # ndarray.partition sorts in place along one axis: axis=None is TypeError, before kth
    x = np.arange(3.0)[::-1].copy() if shape else np.array(5.0)
    for axis in _AXES:
        what = f"shape {shape}, kth={kth!r}, axis={axis}"
        ref = x.copy()
        expected = _run(lambda: (ref.partition(kth, axis=axis), ref)[1])
        a = xnp.asarray(x)
        got = _run(lambda: (a.partition(kth, axis=axis), a)[1])
        _agree(expected, got, ["partition"], "ndarray.partition " + what, sort=True)
        jf = xnp.jit(lambda v: (v.partition(kth, axis=axis), v)[1])
        _agree(expected, _run(lambda: jf(x)), ["partition"], "jit ndarray.partition " + what,
               sort=True)
        expected = _run(lambda: x.argpartition(kth, axis=axis))
        got = _run(lambda: xnp.asarray(x).argpartition(kth, axis=axis))
        _agree(expected, got, ["xnp.argpartition"], "ndarray.argpartition " + what, sort=True)
    with pytest.raises(TypeError, match=r"ndarray\.partition: `axis`"):
        xnp.asarray(x).partition(0, axis=None)


def test_partition_kth_out_of_bounds_names_numpys_index():
    # NumPy reports a negative kth as the index it tried (kth + n)
    for m in (np, xnp):
        with pytest.raises(ValueError, match=r"kth\(=-1\) out of bounds \(3\)"):
            m.partition(m.arange(3), -4)
    assert_allclose(xnp.argpartition(xnp.asarray(5.0), 0, axis=0), np.array([0]))


# --------------------------------------------------------------------------- statistics

_STATS = {
    "median": lambda m, x, ax: m.median(x, axis=ax),
    "nanmedian": lambda m, x, ax: m.nanmedian(x, axis=ax),
    "quantile": lambda m, x, ax: m.quantile(x, 0.5, axis=ax),
    "percentile": lambda m, x, ax: m.percentile(x, [50, 20], axis=ax, keepdims=True),
    "nanquantile": lambda m, x, ax: m.nanquantile(x, 0.25, axis=ax, method="lower"),
    "nanpercentile": lambda m, x, ax: m.nanpercentile(x, 50, axis=ax),
    "average": lambda m, x, ax: m.average(x, axis=ax),
    "average ": lambda m, x, ax: m.average(x, axis=ax, returned=True, keepdims=True),
    "average  ": lambda m, x, ax: m.average(x, axis=ax, weights=m.ones(x.shape)),
}
_INPUTS = {"0-d": np.array(5.0), "1-d": np.array([3.0, 1.0, 2.0]),
           "int 1-d": np.array([3, 1, 2]), "bool 0-d": np.array(True),
           "empty": np.zeros(0), "2-d": np.arange(6.0).reshape(2, 3)}


_FAMILY = {"median": "median", "nanmedian": "median", "average": "average",
           "average ": "average", "average  ": "average"}
# sampled (all with --full-grid): every function and every input (0-d, bool, int, empty,
# 2-d), each input with a median, a quantile and an average function
_STATISTICS = covering_grid(
    data=list(_INPUTS), name=list(_STATS),
    labels=lambda c: [c.name, c.data, (_FAMILY.get(c.name, "quantile"), c.data)], n=20, seed=3)


@pytest.mark.parametrize("data,name", [(c.data, c.name) for c in _STATISTICS],
                         ids=[f"{c.data}-{c.name.strip()}" for c in _STATISTICS])
def test_statistics_axis_errors_name_the_function(name, data):
    # NumPy's AxisError (a ValueError and an IndexError) first; the message names the public
    # function (average's mean, nanmedian's median or nanmean are not named)
    x, fn = _INPUTS[data], _STATS[name]
    for axis in [0, -1, 1, -2, 2, (0,), (0, 1), [1], (0, -1), 0.0]:
        what = f"{name.strip()}({data}, axis={axis!r})"
        expected = _run(lambda: fn(np, x, axis))
        if expected[1] is not None and isinstance(expected[1], AxisError):
            assert isinstance(expected[1], (ValueError, IndexError))
        names = [f"xnp.{name.strip()}"]
        _agree(expected, _run(lambda: fn(xnp, xnp.asarray(x), axis)), names, "eager " + what)
        if isinstance(expected[1], ZeroDivisionError):
            continue  # weights summing to zero: a value, not checked under jit (documented)
        jf = xnp.jit(lambda a: fn(xnp, a, axis))
        _agree(expected, _run(lambda: jf(x)), names, "jit " + what)


@pytest.mark.parametrize("case", [
    "method before axis", "weights method", "weights then axis", "complex nanmedian axis",
    "q before axis",
])
def test_quantile_checks_in_numpys_order(case):
    body = {
        "method before axis": lambda m: m.quantile(m.ones(()), 0.5, axis=0, method="foo"),
        "weights method": lambda m: m.quantile(m.ones(3), 0.5, weights=m.ones(3)),
        "weights then axis": lambda m: m.quantile(m.ones(3), 0.5, axis=1, weights=m.ones(3),
                                                  method="inverted_cdf"),
        "complex nanmedian axis": lambda m: m.nanmedian(m.ones((), complex), axis=0),
        "q before axis": lambda m: m.nanpercentile(m.ones(()), 101, axis=0),
    }[case]
    expected = _run(lambda: body(np))
    assert expected[1] is not None
    fname = "xnp.nanmedian" if "nanmedian" in case else (
        "xnp.nanpercentile" if "q before" in case else "xnp.quantile")
    names = [] if case == "q before axis" else [fname]  # (NumPy's range message, as NumPy)
    _agree(expected, _run(lambda: body(xnp)), names, "eager " + case)
    _agree(expected, _run(lambda: xnp.jit(lambda: body(xnp))()), names, "jit " + case)
