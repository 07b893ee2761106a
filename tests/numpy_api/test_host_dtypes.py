"""Dtypes XLA has no type for (strings, bytes, structured, object, datetime64/timedelta64,
longdouble): eager xnp arrays with NumPy's semantics (NumPy is the oracle), and the
``HostDtypeError`` under jit/grad/vmap for an argument, a closure and a created value."""

from __future__ import annotations

import inspect
import pickle
import re

import numpy as np
import pytest

import xnp
from xnp.numpy_api import _fastpath as fastpath

HostDtypeError = xnp.errors.HostDtypeError


def _same(got, want):
    """``got`` (xnp) holds NumPy's ``want``: same dtype, shape and values; numeric results
    are ordinary xnp arrays, the others xnp arrays of NumPy's dtype; a NumPy scalar is
    the same NumPy scalar."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, np.generic):  # NumPy's scalar: xnp's is the same (README, "Scalars")
        assert type(got) is type(want), (type(got), type(want))
        g = np.asarray(got)
        want = np.asarray(want)
        assert g.dtype == want.dtype and g.tolist() == want.tolist() or (
            g.dtype.kind in "fc" and np.isnan(g) and np.isnan(want))
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
    for f in (xnp.add, xnp.sin, xnp.asarray, xnp.reshape, xnp.transpose):
        fn = type(f).__call__ if isinstance(f, xnp.ufunc) else f
        # NumPy's scalar rule (numpy_api/_scalars.py) is one frame around a Python fast path
        fn = getattr(fn, "_scalar_rule_of", fn)
        assert hasattr(fn, "_fast_decorator"), f  # the fast path is still the outer layer
    # the functions without a fast path: the dispatch cache around the host-dtype fallback
    for f in (xnp.sum, xnp.concatenate, xnp.where, xnp.zeros, xnp.sort, xnp.argsort):
        assert not hasattr(f, "_fast_decorator") and hasattr(f, "_replay_cache"), f
        assert np.asarray(f(*{xnp.where: (a > 1, a, a), xnp.zeros: (2,),
                               xnp.concatenate: ([a, a],)}.get(f, (a,)))).size
    assert inspect.signature(xnp.sort) == inspect.signature(xnp.numpy_api.sorting.sort)
    assert xnp.asarray(a) is a
    with pytest.raises(TypeError, match="must be a number"):
        xnp.arange(object())
    # a function without a fast path is the wrapper's result
    assert not hasattr(xnp.numpy_api.sorting.lexsort, "_fast_decorator")
    assert fastpath.with_full_path(xnp.numpy_api.sorting.lexsort, lambda f: f) is (
        xnp.numpy_api.sorting.lexsort)
    # their host-dtype arrays still run NumPy's function
    words = xnp.asarray(np.array(["b", "a"]))
    assert xnp.sort(words).tolist() == ["a", "b"]
    assert xnp.argsort(words).tolist() == [1, 0]


# --------------------------------------------------------------------------- other namespaces

POPULATIONS = {
    "str": np.array(WORDS),
    "datetime64": np.array(["2020-01-03", "NaT", "2021-05-01", "2019-12-31", "2020-01-01",
                            "2022-02-02"], dtype="M8[D]"),
    "object": np.array([3, "x", None, 1.5, [1], 2], dtype=object),
    "structured": np.array([(i, i / 2) for i in range(6)], dtype=[("a", "i4"), ("b", "f8")]),
    "longdouble": np.arange(6, dtype=np.longdouble) / 3,
}


@pytest.mark.parametrize("kind", list(POPULATIONS))
def test_numpy_style_random_draws_from_host_arrays_are_numpys(kind):
    ref = POPULATIONS[kind]
    for make in (np.random.default_rng, np.random.RandomState):
        xmake = getattr(xnp.random, make.__name__)
        _same(xmake(5).choice(xnp.asarray(ref.copy()), 4), make(5).choice(ref.copy(), 4))
        _same(xmake(5).permutation(xnp.asarray(ref.copy())), make(5).permutation(ref.copy()))
        h, want = xnp.asarray(ref.copy()), ref.copy()
        assert xmake(5).shuffle(h) is None
        make(5).shuffle(want)
        _same(h, want)  # shuffled in place, the caller's own object
    _same(xnp.random.default_rng(1).permuted(xnp.asarray(ref.copy())),
          np.random.default_rng(1).permuted(ref.copy()))


def test_numpy_style_random_refuses_what_numpy_refuses():
    with pytest.raises(TypeError, match="Generator.normal"):  # NumPy: no float128 -> float64
        xnp.random.default_rng(0).normal(xnp.asarray(POPULATIONS["longdouble"]))
    with pytest.raises(HostDtypeError):
        xnp.jit(lambda x: x + xnp.random.default_rng(0).choice(STR, 1))(1.0)


@pytest.mark.parametrize("kind", list(POPULATIONS))
def test_key_api_permutation_and_choice_gather_host_elements(kind):
    ref = POPULATIONS[kind]
    key = xnp.random.PRNGKey(3)
    pos = np.arange(ref.size)
    want = ref[np.asarray(xnp.random.permutation(key, pos))]
    _same(xnp.random.permutation(key, xnp.asarray(ref)), want)
    for kw in ({"shape": (4,)}, {"shape": (3,), "replace": False}):
        idx = np.asarray(xnp.random.choice(key, pos, **kw))
        _same(xnp.random.choice(key, xnp.asarray(ref), **kw), ref[idx])
    grid = ref.reshape(2, 3)
    idx = np.asarray(xnp.random.permutation(key, pos.reshape(2, 3), axis=1, independent=True))
    _same(xnp.random.permutation(key, xnp.asarray(grid), axis=1, independent=True),
          ref[idx])
    with pytest.raises(HostDtypeError):
        xnp.jit(lambda k: xnp.random.permutation(k, STR))(key)


def test_stride_tricks_scimath_and_array_utils_on_host_dtypes():
    dates = POPULATIONS["datetime64"]
    st = np.lib.stride_tricks
    _same(xnp.lib.stride_tricks.sliding_window_view(xnp.asarray(dates), 3),
          st.sliding_window_view(dates, 3))
    words = np.array(WORDS)
    h = xnp.asarray(words)
    view = xnp.lib.stride_tricks.as_strided(h, shape=(3,), strides=(2 * words.strides[0],))
    _same(view, st.as_strided(words, shape=(3,), strides=(2 * words.strides[0],)))
    view[1] = "zz"  # a writeable view of the same memory, as NumPy's
    assert h[2] == "zz" and words[2] == "zz"
    longs = POPULATIONS["longdouble"] - 0.5
    for name in ("sqrt", "log", "arcsin"):
        _same(getattr(xnp.emath, name)(xnp.asarray(longs)), getattr(np.emath, name)(longs))
    assert xnp.lib.array_utils.byte_bounds(h) == np.lib.array_utils.byte_bounds(words)
    with pytest.raises(HostDtypeError):
        xnp.jit(lambda x: x + xnp.lib.stride_tricks.sliding_window_view(STR, 1).size)(1.0)


def test_recfunctions_match_numpy():
    rfn = np.lib.recfunctions
    ref = POPULATIONS["structured"]
    x = xnp.asarray(ref.copy())
    _same(xnp.lib.recfunctions.structured_to_unstructured(x), rfn.structured_to_unstructured(ref))
    _same(xnp.lib.recfunctions.drop_fields(x, "a"), rfn.drop_fields(ref, "a"))
    _same(xnp.lib.recfunctions.rename_fields(x, {"a": "c"}), rfn.rename_fields(ref, {"a": "c"}))
    _same(xnp.lib.recfunctions.repack_fields(x), rfn.repack_fields(ref))
    _same(xnp.lib.recfunctions.unstructured_to_structured(xnp.ones((2, 2)), names=["p", "q"]),
          rfn.unstructured_to_structured(np.ones((2, 2)), names=["p", "q"]))
    assert xnp.lib.recfunctions.get_names(x.dtype) == rfn.get_names(ref.dtype)
    with pytest.raises(HostDtypeError, match="recfunctions.drop_fields"):
        xnp.jit(lambda v: xnp.lib.recfunctions.drop_fields(x, "a")["b"] + v)(1.0)


def test_special_functions_on_host_dtypes_are_scipys():
    scipy_special = pytest.importorskip("scipy.special")
    longs = POPULATIONS["longdouble"]
    for name in ("expit", "logit"):  # SciPy has long double loops for these
        _same(getattr(xnp.special, name)(xnp.asarray(longs)),
              getattr(scipy_special, name)(longs))
    for name, value in (("ndtr", longs), ("erf", np.array([0.5, 1.0], dtype=object)),
                        ("gammaln", np.array(WORDS))):
        with pytest.raises(TypeError, match=rf"xnp\.special\.{name}: .*not supported"):
            getattr(xnp.special, name)(xnp.asarray(value))
        with pytest.raises(TypeError):  # SciPy refuses them too
            getattr(scipy_special, name)(value)
    assert type(xnp.special.erf(xnp.arange(3.0))) is xnp.Array  # numbers: xnp's own


# --------------------------------------------------------------------------- h.at, h.base


def _at_oracle(ref, idx, kind, values):
    out = ref.copy()
    if kind == "set":
        out[idx] = values
    else:
        {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "min": np.minimum,
         "max": np.maximum}[kind].at(out, idx, values)
    return out


@pytest.mark.parametrize("kind, values, ops", [
    ("str", "Q", ["set", "add"]),
    ("datetime64", np.timedelta64(2, "D"), ["add", "subtract"]),
    ("datetime64", np.datetime64("2000-01-01"), ["set", "min", "max"]),
    ("object", 7, ["set", "add", "multiply"]),
    ("longdouble", np.longdouble(2) / 3, ["set", "add", "subtract", "multiply", "min", "max"]),
])
def test_at_updates_on_host_arrays_match_numpy_ufunc_at(kind, values, ops):
    ref = POPULATIONS[kind] if kind != "object" else np.array([1, 2.5, 3, 4, 5, 6], dtype=object)
    h = xnp.asarray(ref.copy())
    for op in ops:
        for idx in ([0, 2, 2], slice(1, 4), 3, xnp.asarray([5, 0])):
            got = getattr(h.at[idx], op)(values)
            want = _at_oracle(ref, np.asarray(idx) if isinstance(idx, xnp.ndarray) else idx,
                              op, values)
            _same(got, want)
            assert got is not h
    _same(h, ref)  # never modified
    _same(h.at[1:3].get(), ref[1:3])
    assert not np.shares_memory(np.asarray(h.at[1:3].get()), np.asarray(h))  # a copy


def test_at_modes_on_host_arrays():
    ref = np.array(WORDS)
    h = xnp.asarray(ref)
    _same(h.at[[1, 9, -2]].get(mode="clip"), ref[[1, 5, 4]])
    _same(h.at[[1, 9]].get(mode="fill"), np.array(["fig", ""], ref.dtype))
    _same(h.at[[1, 9]].get(mode="fill", fill_value="?"), np.array(["fig", "?"], ref.dtype))
    _same(h.at[[0, 9]].set("Q", mode="drop"), _at_oracle(ref, [0], "set", "Q"))
    _same(h.at[9].set("Q", mode="clip"), _at_oracle(ref, 5, "set", "Q"))
    _same(h.at[[0, -9]].add("!", mode="promise_in_bounds"), _at_oracle(ref, [0], "add", "!"))
    dates = POPULATIONS["datetime64"]
    _same(xnp.asarray(dates).at[7].get(mode="fill"), np.array("NaT", dates.dtype))
    grid = ref.reshape(2, 3)
    _same(xnp.asarray(grid).at[..., [0, 5]].get(mode="fill"),
          np.array([[grid[0, 0], ""], [grid[1, 0], ""]], ref.dtype))
    with pytest.raises(IndexError):  # mode None: NumPy's bounds check
        h.at[6].set("x")
    with pytest.raises(ValueError, match="unknown mode"):
        h.at[0].get(mode="wrap")


def test_at_on_host_arrays_refuses_what_numpy_refuses():
    d = xnp.asarray(POPULATIONS["datetime64"])
    with pytest.raises(TypeError, match=r"at\[\.\.\.\]\.min: .*<U5"):
        xnp.asarray(np.array(WORDS)).at[0].min("a")  # NumPy's minimum has no string loop
    with pytest.raises(TypeError, match=r"at\[\.\.\.\]\.add: .*datetime64\[D\]"):
        d.at[0].add(d[1])  # date + date
    with pytest.raises(TypeError, match=r"at\[\.\.\.\]\.multiply: .*datetime64\[D\]"):
        d.at[0].multiply(2)
    with pytest.raises(HostDtypeError, match="at"):
        xnp.jit(lambda v: STR.at[0].set("z").size + v)(1.0)


@pytest.mark.parametrize("kind", list(POPULATIONS))
def test_views_of_host_arrays_have_their_base_and_share_writes(kind):
    ref = POPULATIONS[kind].copy()
    h = xnp.asarray(ref.copy())
    v = h[1:]
    assert v.base is h and ref[1:].base is ref
    assert h.base is None
    assert h.reshape(2, 3).base is h and h[::2][1:].base is h  # NumPy's collapsed base
    v[0] = h[0]
    ref[1:][0] = ref[0]
    _same(h, ref)
    assert h.copy().base is None


# --------------------------------------------------------------------------- survey gaps


def test_in_place_writers_write_into_host_arrays():
    ref = np.array(WORDS)
    cases = [
        lambda m, a: m.copyto(a, ref[::-1]),
        lambda m, a: m.put(a, [0, 5], ["P", "Q"]),
        lambda m, a: m.putmask(a, ref == "fig", "F"),
        lambda m, a: m.place(a, ref == "", ["E"]),
        lambda m, a: m.put_along_axis(a, np.array([1]), "Z", axis=0),
    ]
    for case in cases:
        want = ref.copy()
        case(np, want)
        h = xnp.asarray(ref.copy())
        assert case(xnp, h) is None
        _same(h, want)
    grid, h = np.array([["a", "b"], ["c", "d"]]), xnp.asarray(np.array([["a", "b"], ["c", "d"]]))
    np.fill_diagonal(grid, "x")
    xnp.fill_diagonal(h, "x")
    _same(h, grid)


@pytest.mark.parametrize("fn, data", [(lambda v: v[:1], WORDS), (lambda v: str(v) * 2, [1, 22]),
                                      (len, WORDS), (lambda v: v + np.timedelta64(1, "D"),
                                                     POPULATIONS["datetime64"][[0, 2]])])
def test_vectorize_with_host_dtypes_is_numpys(fn, data):
    ref = np.asarray(data)
    _same(xnp.vectorize(fn)(xnp.asarray(ref)), np.vectorize(fn)(ref))
    with pytest.raises(HostDtypeError):
        xnp.jit(lambda v: v + xnp.vectorize(len)(STR))(1.0)


def test_format_of_host_elements_is_numpys():
    for data in (WORDS, [b"ab", b"c"], POPULATIONS["datetime64"], POPULATIONS["longdouble"]):
        ref = np.asarray(data)
        h = xnp.asarray(ref)
        assert f"{h[0]}" == f"{ref[0]}" and format(h[1], "") == format(ref[1], "")
    assert f"{xnp.asarray(np.array(WORDS))[0]:>8}" == f"{np.str_(WORDS[0]):>8}"


@pytest.mark.parametrize("name", ["sort", "argsort"])
@pytest.mark.parametrize("values", [np.array(["b", "a", "c"]), np.array([b"y", b"x"]),
                                    np.array(["2020-01-02", "2020-01-01"], dtype="datetime64[D]"),
                                    np.array([3, 1, 2], dtype=object)],
                         ids=["str", "bytes", "datetime64", "object"])
def test_sort_of_a_host_dtype_takes_xnps_descending_keyword(name, values):
    # NumPy sorts these dtypes; xnp's descending= at its default is left out of that call,
    # any other value is a clear TypeError (NumPy's sort has no such keyword)
    a = xnp.asarray(values)
    got = getattr(xnp, name)(a, descending=False)
    np.testing.assert_array_equal(np.asarray(got), getattr(np, name)(values))
    message = rf"xnp\.{name}: descending=True .*{re.escape(str(values.dtype))}"
    with pytest.raises(TypeError, match=message):
        getattr(xnp, name)(a, descending=True)
