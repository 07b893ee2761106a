"""Dtypes XLA has no type for (strings, bytes, structured, object, datetime64/timedelta64,
longdouble): eager xnp arrays with NumPy's semantics (NumPy is the oracle), and the
``HostDtypeError`` under jit/grad/vmap for an argument, a closure and a created value."""

from __future__ import annotations

import inspect
import pickle

import numpy as np
import pytest

import xnp
from xnp.tracing import fastpath

HostDtypeError = xnp.errors.HostDtypeError


def _same(got, want):
    """``got`` (xnp) holds NumPy's ``want``: same dtype, shape and values; numeric results
    are ordinary xnp arrays, the others xnp arrays of NumPy's dtype."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    want = np.asarray(want)
    assert isinstance(got, xnp.ndarray), type(got)
    if want.dtype.kind in "biufc" and want.dtype.isnative and want.dtype.itemsize <= 16 and (
            want.dtype != np.longdouble):
        assert type(got) is xnp.Array
    else:
        assert type(got) is not xnp.Array
    g = np.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype)
    if g.dtype.kind in "fc":  # NaN != NaN
        np.testing.assert_array_equal(g, want)
    else:
        assert g.tolist() == want.tolist()


WORDS = ["pear", "fig", "Apple", "", "fig", "kiwi"]


# --------------------------------------------------------------------------- strings


@pytest.mark.parametrize("data", [WORDS, [b"ab", b"", b"c"], [["x", "yy"], ["zzz", ""]]])
def test_string_creation_and_repr_match_numpy(data):
    ref = np.array(data)
    a = xnp.array(data)
    _same(a, ref)
    assert repr(a) == repr(ref) and str(a) == str(ref)
    assert repr(a.ravel()[0]) == repr(ref.ravel()[0])  # the 0-d element prints as np.str_
    assert isinstance(a, xnp.ndarray) and a.dtype == ref.dtype
    assert a.shape == ref.shape and a.ndim == ref.ndim and a.size == ref.size
    host = np.array(data)
    view = xnp.asarray(host)  # shares NumPy's memory, as numpy.asarray
    host.ravel()[0] = host.ravel()[-1]
    assert np.asarray(view).tolist() == host.tolist()
    _same(xnp.zeros(2, dtype="U3"), np.zeros(2, dtype="U3"))
    _same(xnp.full(3, "ab"), np.full(3, "ab"))
    e = xnp.empty_like(a)
    assert type(e) is type(a) and e.dtype == ref.dtype and e.shape == ref.shape


def test_string_stringdtype_arrays():
    sd = np.dtypes.StringDType()
    ref = np.array(WORDS, dtype=sd)
    a = xnp.array(WORDS, dtype=sd)
    _same(a, ref)
    _same(a + "!", ref + "!")
    _same(xnp.strings.str_len(a), np.strings.str_len(ref))


def test_string_comparisons_and_operators():
    ref, a = np.array(WORDS), xnp.array(WORDS)
    for op in (lambda x: x == "fig", lambda x: "fig" == x, lambda x: x < "kiwi",
               lambda x: x >= x[::-1], lambda x: x + x, lambda x: "<" + x, lambda x: x != ""):
        _same(op(a), op(ref))
    _same(xnp.equal(a, "fig"), np.equal(ref, "fig"))
    _same(xnp.add(a, "s"), np.add(ref, "s"))
    _same(xnp.arange(3) == "a", np.arange(3) == "a")  # no common loop: False, as NumPy


@pytest.mark.parametrize("fn", [
    lambda m, x: m.char.upper(x), lambda m, x: m.char.str_len(x),
    lambda m, x: m.char.find(x, "i"), lambda m, x: m.char.replace(x, "i", "I"),
    lambda m, x: m.char.center(x, 6, "*"), lambda m, x: m.char.startswith(x, "f"),
    lambda m, x: m.char.split(x, "i"), lambda m, x: m.char.join("-", x),
    lambda m, x: m.strings.upper(x), lambda m, x: m.strings.str_len(x),
    lambda m, x: m.strings.multiply(x, 2), lambda m, x: m.strings.slice(x, 1, 3),
    lambda m, x: m.strings.count(x, "i"), lambda m, x: m.strings.isalpha(x),
    lambda m, x: m.strings.partition(x, "i"), lambda m, x: m.strings.zfill(x, 5),
])
def test_char_and_strings_functions_match_numpy(fn):
    _same(fn(xnp, xnp.array(WORDS)), fn(np, np.array(WORDS)))


def test_string_lengths_go_into_jit():
    n = xnp.strings.str_len(xnp.array(WORDS))
    assert type(n) is xnp.Array
    out = xnp.jit(lambda k: k * 2 + 1)(n)
    np.testing.assert_array_equal(np.asarray(out), np.strings.str_len(np.array(WORDS)) * 2 + 1)


@pytest.mark.parametrize("fn", [
    lambda m, x: m.sort(x), lambda m, x: m.argsort(x, kind="stable"),
    lambda m, x: m.unique(x), lambda m, x: m.unique(x, return_counts=True, return_inverse=True),
    lambda m, x: m.concatenate([x, x[:2]]), lambda m, x: m.stack([x, x], axis=1),
    lambda m, x: m.where(m.arange(6) % 2 == 0, x, "odd"), lambda m, x: m.isin(x, ["fig", ""]),
    lambda m, x: m.searchsorted(m.sort(x), "kiwi"), lambda m, x: m.reshape(x, (2, 3)).T,
    lambda m, x: m.flip(x), lambda m, x: m.repeat(x, 2), lambda m, x: m.tile(x[:2], 2),
    lambda m, x: m.roll(x, 1), lambda m, x: m.nonzero(x), lambda m, x: m.take(x, [0, 5]),
    lambda m, x: m.argmin(x), lambda m, x: m.argmax(x), lambda m, x: x[[1, 3]],
    lambda m, x: x[x != "fig"], lambda m, x: x.reshape(3, 2)[1], lambda m, x: x.copy(),
    lambda m, x: m.char.add(x, x), lambda m, x: x.astype("S"), lambda m, x: m.atleast_2d(x),
])
def test_string_array_functions_match_numpy(fn):
    _same(fn(xnp, xnp.array(WORDS)), fn(np, np.array(WORDS)))


def test_string_errors_and_python_results_are_numpys():
    a, ref = xnp.array(WORDS), np.array(WORDS)
    for fn in (lambda m, x: m.max(x), lambda m, x: m.sin(x), lambda m, x: x * 2,
               lambda m, x: m.mean(x), lambda m, x: x.sum()):
        with pytest.raises(TypeError) as want:
            fn(np, ref)
        with pytest.raises(type(want.value)):
            fn(xnp, a)
    assert xnp.array_equal(a, a) is np.array_equal(ref, ref) is True
    assert xnp.array_equal(a, a[::-1]) is False


def test_string_writes_and_conversions():
    a, ref = xnp.array(WORDS), np.array(WORDS)
    for x in (a, ref):
        x[0] = "plum"
        x[1:3] = ["a", "b"]
        x.reshape(2, 3)[1, 0] = "z"  # a view: the write reaches the array
    _same(a, ref)
    _same(xnp.arange(4).astype(str), np.arange(4).astype(str))
    _same(xnp.array(["1.5", "2"]).astype(float) * 2, np.array(["1.5", "2"]).astype(float) * 2)
    _same(xnp.asarray(["1", "2"], dtype=float), np.asarray(["1", "2"], dtype=float))
    f = xnp.zeros(2)
    f[0] = "2.5"  # NumPy parses the string
    _same(f, np.array([2.5, 0.0]))
    assert a.tolist() == ref.tolist() and [str(s) for s in a] == [str(s) for s in ref]
    assert {a[0]: 1}[ref[0]] == 1  # a 0-d string hashes as NumPy's str_
    assert pickle.loads(pickle.dumps(a)).tolist() == ref.tolist()
    _same(np.char.upper(a), np.char.upper(ref))  # NumPy's functions on xnp's arrays
    _same(np.concatenate([a, a]), np.concatenate([ref, ref]))


# --------------------------------------------------------------------------- structured


DT = np.dtype([("name", "U5"), ("age", "i8"), ("w", "f8")])
ROWS = [("ann", 31, 55.5), ("bob", 25, 70.25), ("cy", 31, 60.0)]


def test_structured_fields_read_and_write_through_views():
    s, ref = xnp.array(ROWS, dtype=DT), np.array(ROWS, dtype=DT)
    _same(s, ref)
    assert repr(s) == repr(ref)
    age = s["age"]
    assert type(age) is xnp.Array  # a numeric field is an ordinary xnp array ...
    age[1] = 26  # ... viewing the records
    ref["age"][1] = 26
    s[0]["w"] = 1.5  # a record is a view, as NumPy's np.void
    ref[0]["w"] = 1.5
    s["name"][2] = "dee"
    ref["name"][2] = "dee"
    s[1:]["w"] += 1
    ref[1:]["w"] += 1
    _same(s, ref)
    _same(s[["age", "w"]], ref[["age", "w"]])
    _same(xnp.sum(s["w"]), np.sum(ref["w"]))
    _same(xnp.jit(lambda w: w * 2)(s["w"]), ref["w"] * 2)
    assert s.dtype.names == ("name", "age", "w")


@pytest.mark.parametrize("fn", [
    lambda m, s: m.sort(s, order="age"), lambda m, s: m.sort(s, order=["age", "w"]),
    lambda m, s: m.argsort(s, order="w"), lambda m, s: m.concatenate([s, s[:1]]),
    lambda m, s: m.unique(s["age"]), lambda m, s: s[s["age"] > 26],
    lambda m, s: m.zeros(2, dtype=DT), lambda m, s: m.ravel(s[::-1]),
])
def test_structured_functions_match_numpy(fn):
    _same(fn(xnp, xnp.array(ROWS, dtype=DT)), fn(np, np.array(ROWS, dtype=DT)))


def test_record_arrays():
    names, ages = ["ann", "bob"], [31, 25]
    r = xnp.rec.fromarrays([xnp.array(names), xnp.array(ages)], names="name,age")
    ref = np.rec.fromarrays([np.array(names), np.array(ages)], names="name,age")
    assert repr(r) == repr(ref)
    assert isinstance(r, xnp.recarray) and isinstance(r, xnp.ndarray)
    _same(r.age, ref.age)
    _same(r.name, ref.name)
    r.age[0] = 40
    ref.age[0] = 40
    _same(r["age"], ref["age"])
    _same(r[1].age, ref[1].age)
    rr = xnp.rec.fromrecords([(1, "a"), (2, "b")], names="k,v")
    _same(rr.k + 1, np.rec.fromrecords([(1, "a"), (2, "b")], names="k,v").k + 1)
    made = xnp.recarray((2,), dtype=[("x", "i4")])
    assert isinstance(made, xnp.recarray) and made.x.shape == (2,)


# --------------------------------------------------------------------------- object


def test_object_arrays():
    data = [1, "a", None, [2, 3]]
    o = xnp.array(data, dtype=object)
    ref = np.array(data, dtype=object)
    assert o.dtype == object and o.tolist() == ref.tolist() and repr(o) == repr(ref)
    assert o[0] == 1 and type(o[0]) is int and o[3] == [2, 3]  # the elements themselves
    n = xnp.array([1, 2.5, 3], dtype=object)
    nref = np.array([1, 2.5, 3], dtype=object)
    for op in (lambda x: x * 3, lambda x: x + x, lambda x: x == 3, lambda x: x.sum()):
        got, want = op(n), op(nref)
        assert np.asarray(got).tolist() == np.asarray(want).tolist()
    assert xnp.array([1, None]).dtype == object  # what NumPy infers
    assert xnp.concatenate([o, n]).tolist() == np.concatenate([ref, nref]).tolist()
    _same(n.astype(float), nref.astype(float))


# --------------------------------------------------------------------------- datetime


DAYS = ["2024-01-01", "2024-02-29", "NaT", "2024-12-24"]


def test_datetime_arithmetic_matches_numpy():
    d, ref = xnp.array(DAYS, dtype="datetime64[D]"), np.array(DAYS, dtype="datetime64[D]")
    _same(d, ref)
    assert repr(d) == repr(ref) and repr(d[0]) == repr(ref[0])
    for op in (lambda m, x: x + 1, lambda m, x: x - x[0], lambda m, x: m.diff(x),
               lambda m, x: x + m.timedelta64(36, "h"), lambda m, x: x.astype("datetime64[M]"),
               lambda m, x: m.isnat(x), lambda m, x: x > m.datetime64("2024-02-01"),
               lambda m, x: x.view("i8"), lambda m, x: m.max(x[[0, 1, 3]]),
               lambda m, x: m.sort(x), lambda m, x: (x[1] - x[0]) / m.timedelta64(1, "W"),
               lambda m, x: m.datetime_as_string(x, unit="M"), lambda m, x: m.isnan(x)):
        _same(op(xnp, d), op(np, ref))
    assert xnp.datetime_data(d.dtype) == np.datetime_data(ref.dtype)
    _same(xnp.arange("2024-01", "2024-05", dtype="datetime64[M]"),
          np.arange("2024-01", "2024-05", dtype="datetime64[M]"))
    _same(xnp.datetime64("2024-05-06", "h"), np.datetime64("2024-05-06", "h"))
    td = xnp.array([1, 2, 3], dtype="m8[s]")
    _same(xnp.sum(td), np.sum(np.array([1, 2, 3], dtype="m8[s]")))
    _same(xnp.add.reduce(td), np.add.reduce(np.array([1, 2, 3], dtype="m8[s]")))
    days = d.view("i8")[[0, 1]]  # the int64 view goes into jit
    np.testing.assert_array_equal(np.asarray(xnp.jit(lambda v: v + 1)(days)),
                                  ref.view("i8")[[0, 1]] + 1)


def test_business_days_match_numpy():
    a = ["2024-03-01", "2024-03-08", "2024-12-20"]
    b = ["2024-04-01", "2024-03-09", "2025-01-10"]
    hol = ["2024-12-25", "2025-01-01"]
    _same(xnp.busday_count(a, b), np.busday_count(a, b))
    _same(xnp.busday_count(xnp.array(a, dtype="M8[D]"), b, holidays=hol),
          np.busday_count(np.array(a, dtype="M8[D]"), b, holidays=hol))
    for roll in ("forward", "backward", "modifiedfollowing"):
        _same(xnp.busday_offset(b, 3, roll=roll, holidays=hol),
              np.busday_offset(b, 3, roll=roll, holidays=hol))
    _same(xnp.is_busday(b, weekmask="1111100"), np.is_busday(b, weekmask="1111100"))
    cal = xnp.busdaycalendar(weekmask="Mon Tue Wed Thu", holidays=hol)
    ref_cal = np.busdaycalendar(weekmask="Mon Tue Wed Thu", holidays=hol)
    _same(xnp.busday_count(a, b, busdaycal=cal), np.busday_count(a, b, busdaycal=ref_cal))
    n = xnp.busday_count(a, b)
    assert type(n) is xnp.Array and int(xnp.jit(lambda k: k.sum())(n)) == int(
        np.busday_count(a, b).sum())


# --------------------------------------------------------------------------- longdouble


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8,
                    reason="NumPy's longdouble is float64 on this platform")
def test_longdouble_arithmetic_matches_numpy():
    vals = [1, 2, 3.25]
    x, ref = xnp.array(vals, dtype=xnp.longdouble), np.array(vals, dtype=np.longdouble)
    _same(x, ref)
    for op in (lambda m, v: v / 3, lambda m, v: m.sin(v), lambda m, v: m.sum(v),
               lambda m, v: m.cumsum(v), lambda m, v: v @ v, lambda m, v: m.sqrt(v) ** 2,
               lambda m, v: m.ones(3) + v, lambda m, v: v * m.ones(3), lambda m, v: -v,
               lambda m, v: m.mean(v), lambda m, v: m.fft.fft(v), lambda m, v: m.exp(v),
               lambda m, v: v.astype(np.float64), lambda m, v: m.clongdouble(1 + 2j) * v):
        _same(op(xnp, x), op(np, ref))
    assert xnp.finfo(xnp.longdouble).eps == np.finfo(np.longdouble).eps
    assert np.dtype(xnp.float128) == np.dtype(np.longdouble)
    assert repr(xnp.longdouble("0.1")) == repr(np.longdouble("0.1"))


# --------------------------------------------------------------------------- tracing


STR = xnp.array(["a", "bb"])
DATES = xnp.array(["2024-01-01"], dtype="datetime64[D]")
LONG = xnp.array([1.0, 2.0], dtype=xnp.longdouble)


def _raises_host(fn, *names):
    with pytest.raises(HostDtypeError) as info:
        fn()
    msg = str(info.value)
    assert "cannot be traced" in msg
    for n in names:
        assert n in msg, (n, msg)
    return msg


@pytest.mark.parametrize("value, name", [(STR, "<U2"), (DATES, "datetime64[D]"),
                                         (np.array(["x"]), "<U1"),
                                         (np.zeros(2, dtype=DT), "('name', '<U5')"),
                                         (LONG, str(np.dtype(np.longdouble)))])
def test_arguments_of_host_dtypes_raise_under_transformations(value, name):
    _raises_host(lambda: xnp.jit(lambda x: x)(value), name, "argument x", "xnp.jit")
    _raises_host(lambda: xnp.jit(lambda a, b: a)(1.0, b=value), name, "argument b")
    _raises_host(lambda: xnp.vmap(lambda x: x)(value), name, "argument x", "vmap")
    _raises_host(lambda: xnp.grad(lambda x: x)(value), name, "argument 0", "grad")
    _raises_host(lambda: xnp.make_jaxpr(lambda x: x)(value), name)


@pytest.mark.parametrize("transform", [xnp.jit, xnp.grad, xnp.vmap])
def test_closures_and_creations_of_host_dtypes_raise_under_transformations(transform):
    def run(body):
        return lambda: transform(lambda x: x + body())(xnp.ones(2) if transform is xnp.vmap
                                                       else 1.0)

    _raises_host(run(lambda: xnp.strings.str_len(STR)), "xnp.strings.str_len")
    _raises_host(run(lambda: STR == "a"), "<U2", "__eq__")
    _raises_host(run(lambda: xnp.isnat(DATES)), "xnp.isnat")
    _raises_host(run(lambda: xnp.sum(LONG)), str(np.dtype(np.longdouble)), "xnp.sum")
    _raises_host(run(lambda: LONG + 1), str(np.dtype(np.longdouble)))
    _raises_host(run(lambda: xnp.array(["a"])), "<U1", "xnp.array")
    _raises_host(run(lambda: xnp.zeros(2, dtype="U3")), "<U3")
    _raises_host(run(lambda: xnp.datetime64("2024-01-01")), "datetime64")
    _raises_host(run(lambda: xnp.char.upper("a")), "xnp.char.upper")
    with pytest.raises(TypeError):  # a traced value cannot meet a host array either
        transform(lambda x: STR + x)(xnp.ones(2) if transform is xnp.vmap else 1.0)


def test_host_values_still_work_eagerly_after_a_failed_trace():
    with pytest.raises(HostDtypeError):
        xnp.jit(lambda x: x)(STR)
    _same(STR == "a", np.array(["a", "bb"]) == "a")


# --------------------------------------------------------------------------- numbers


def test_numeric_fast_paths_and_signatures_are_kept():
    a = xnp.arange(3.0)
    assert type(a + a) is xnp.Array and type(xnp.sin(a)) is xnp.Array
    for f in (xnp.add, xnp.sin, xnp.sum, xnp.concatenate, xnp.where, xnp.asarray, xnp.zeros):
        fn = type(f).__call__ if isinstance(f, xnp.ufunc) else f
        assert hasattr(fn, "_fast_decorator"), f  # the fast path is still the outer layer
    assert inspect.signature(xnp.sort) == inspect.signature(xnp.numpy_api.sorting.sort)
    assert xnp.asarray(a) is a
    with pytest.raises(TypeError, match="must be a number"):
        xnp.arange(object())
    assert fastpath.with_full_path(xnp.numpy_api.sorting.sort, lambda f: f) is (
        xnp.numpy_api.sorting.sort)
