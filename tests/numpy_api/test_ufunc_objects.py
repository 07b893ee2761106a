"""xnp's ufunc objects (xnp.numpy_api.ufunc, pyufunc) against NumPy's: attributes, calls,
reduce/accumulate/reduceat/outer/at eagerly and under jit, grad/vmap, gufunc axes,
frompyfunc and the methods NumPy rejects."""

from __future__ import annotations

import functools
import inspect
import pickle
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, grid
from xnp.numpy_api.ufunc import UFUNCS

NAMES = sorted(UFUNCS)
BINARY = sorted(n for n, u in UFUNCS.items()
                if u.nin == 2 and u.nout == 1 and u.signature is None and u.__name__ == n)
UNARY = sorted(n for n, u in UFUNCS.items() if u.nin == 1 and u.nout == 1 and u.__name__ == n)
F64, I32, BOOL = np.dtype(np.float64), np.dtype(np.int32), np.dtype(np.bool_)


def _data(shape, dtype, seed=0):
    """Small positive values (no overflow in power/shifts/ldexp), or random bools."""
    rng = np.random.default_rng(seed)
    if dtype == BOOL:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(1, 4, shape).astype(dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


def _public(exc_cls):
    """The builtin class a NumPy exception is checked as (UFuncTypeError -> TypeError)."""
    if issubclass(exc_cls, np.exceptions.AxisError):
        return np.exceptions.AxisError
    for c in (IndexError, TypeError, ValueError, RuntimeError, OverflowError):
        if issubclass(exc_cls, c):
            return c
    return exc_cls


def _outcome(fn):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return "ok", fn()
        except Exception as e:  # noqa: BLE001  (the oracle decides the class)
            return "err", e


def _fold_is_broken(u) -> bool:
    """Whether NumPy's ``u.reduce`` on this machine differs from the left fold its
    documentation defines (``r = u(r, a[i])`` in order). NumPy 2.4's float64 ``power``,
    ``arctan2`` and ``ldexp`` loops return other values for a contiguous reduction on
    some x86-64 CPUs (``arctan2.reduce([1., 2., 3.])`` gave ``arctan2(1, 3)``)."""
    for dt in (F64, I32):
        a = np.asarray([3, 2, 5, 7, 1, 2], dt)
        try:
            with np.errstate(all="ignore"):
                got, fold = u.reduce(a), functools.reduce(u, a[1:], a[0])
        except (TypeError, ValueError, RuntimeError):  # no reduction of this ufunc/dtype
            continue
        if not np.allclose(got, fold, rtol=1e-12, equal_nan=True):
            return True
    return False


class _Folded:
    """``u`` with a ``reduce`` that is the documented left fold of ``u``'s binary loop along
    one axis, for the arguments the tests use (``axis``, ``keepdims``, ``initial``,
    ``where``); other arguments, and every other attribute, are NumPy's."""

    def __init__(self, u):
        self._u = u

    def __getattr__(self, name):
        return getattr(self._u, name)

    def __call__(self, *args, **kwargs):
        return self._u(*args, **kwargs)

    def reduce(self, a, axis=0, keepdims=False, initial=np._NoValue, where=True, **kw):
        a = np.asarray(a)
        one_axis = isinstance(axis, int) or (axis is None and a.ndim == 1)
        if kw or not one_axis or not a.size or (where is not True and initial is np._NoValue):
            return self._u.reduce(a, axis=axis, keepdims=keepdims, initial=initial,
                                  where=where, **kw)  # errors, identities: NumPy's own
        axis = 0 if axis is None else axis % a.ndim
        rows = np.moveaxis(a, axis, 0)
        mask = np.moveaxis(np.broadcast_to(where, a.shape), axis, 0)
        if initial is np._NoValue:  # the first row, in the loop's result dtype
            r = rows[0].astype(self._u(rows[0], rows[0]).dtype)
        else:
            r = np.full(rows.shape[1:], initial)
        for i in range(0 if initial is not np._NoValue else 1, len(rows)):
            r = np.where(mask[i], self._u(r, rows[i]), r)
        return np.expand_dims(r, axis) if keepdims else r


class _Oracle:
    """NumPy, with the ufuncs whose reduction is broken on this machine (``_fold_is_broken``)
    replaced by ``_Folded``: the tests compare with NumPy's documented semantics."""

    def __getattr__(self, name):
        value = getattr(np, name)
        if isinstance(value, np.ufunc) and value.nin == 2 and value in _BROKEN_FOLDS:
            return _Folded(value)
        return value


_BROKEN_FOLDS = {u for u in vars(np).values()
                 if isinstance(u, np.ufunc) and u.nin == 2 and u.nout == 1 and _fold_is_broken(u)}
ORACLE = _Oracle()


def check(body, *args, jit=True, kind="reduction", static_kw=None):
    """``body(xp, *args)`` with NumPy (``ORACLE``) and xnp (eagerly and under jit): equal
    values and dtypes, or the same public error class."""
    status, expected = _outcome(lambda: body(ORACLE, *args))
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    runs = [("eager", lambda: body(xnp, *xargs))]
    if jit:
        runs.append(("jit", lambda: xnp.jit(lambda *a: body(xnp, *a))(*xargs)))
    for label, run in runs:
        if status == "err":
            with pytest.raises(_public(type(expected))):
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    run()
        else:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                got = run()
            assert_allclose(got, expected, kind=kind, err_msg=f"{label}: {body} {args}")
    return status


# --------------------------------------------------------------------------- attributes


@pytest.mark.parametrize("name", NAMES)
def test_attributes_match_numpy(name):
    u, nu = getattr(xnp, name), getattr(np, name)
    assert u is UFUNCS[name] and isinstance(u, xnp.ufunc)
    for attr in ("nin", "nout", "nargs", "ntypes", "types", "signature", "__name__",
                 "__qualname__"):
        assert getattr(u, attr) == getattr(nu, attr), attr
    assert (u.identity == nu.identity) or (u.identity is None and nu.identity is None)
    assert repr(u) == repr(nu)
    fn = u._fn
    assert u.__doc__ and u.__doc__.startswith(fn.__doc__.rstrip())   # xnp's own docstring
    assert ("gufunc rules" in u.__doc__) is (nu.signature is not None)
    assert inspect.signature(u).parameters.keys() >= {"out", "dtype"}
    assert pickle.loads(pickle.dumps(u)) is u
    assert getattr(xnp, nu.__name__) is u   # aliases are one object, as in NumPy


def test_every_numpy_ufunc_xnp_has_is_wrapped():
    for n in dir(np):
        if isinstance(getattr(np, n), np.ufunc) and hasattr(xnp, n) and n != "isnat":
            assert isinstance(getattr(xnp, n), xnp.ufunc), n
    # isnat takes only datetime64/timedelta64, which XLA has no type for: NumPy's ufunc
    # run on the host values (xnp.host_dispatch.host_function), not an xnp.ufunc
    assert xnp.isnat(xnp.array(["NaT", "2024-01-01"], dtype="M8[D]")).tolist() == [True, False]
    with pytest.raises(TypeError, match="cannot create"):
        xnp.ufunc()


def test_call_is_the_function_and_keywords_work():
    x = xnp.asarray([1.0, -2.0, 3.0])
    call = type(xnp.add).__call__  # the function's fast path, around its full path
    assert inspect.unwrap(call) is inspect.unwrap(xnp.numpy_api.add)
    deco, fn_deco = call._fast_decorator, xnp.numpy_api.add._fast_decorator
    assert (deco.func, deco.args) == (fn_deco.func, fn_deco.args)   # no extra frame
    out = xnp.zeros(3)
    r = xnp.add(x, 1.0, out=out, where=xnp.asarray([True, False, True]))
    assert r is out
    np.testing.assert_array_equal(np.asarray(out), [2.0, 0.0, 4.0])
    assert_allclose(xnp.add(x, x, dtype=np.float32), np.add(np.asarray(x), np.asarray(x),
                                                            dtype=np.float32))
    # where= without out=: the masked-out element is 0 (NumPy leaves it uninitialised)
    with pytest.warns(UserWarning, match="'where' used without 'out'"):
        r = xnp.add(x, x, where=xnp.asarray([True, False, True]))
    np.testing.assert_array_equal(np.asarray(r), [2.0, 0.0, 6.0])
    assert_allclose(xnp.jit(lambda a: xnp.sin(a))(x), np.sin(np.asarray(x)), kind="jit")
    assert np.asarray(xnp.divmod(x, 2.0)[0]).tolist() == np.divmod(np.asarray(x), 2.0)[0].tolist()


# --------------------------------------------------------------------------- where=


def _warned(fn, *args):
    """``fn(*args)``'s result and its warnings as (category, message, file, line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    return out, [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


M = np.array([True, False, True])
WHERE_CALLS = {  # NumPy 2.4 warns when `where` is given without an `out` keyword
    "no out": lambda xp, a, m: xp.add(a, a, where=m),
    "out=None": lambda xp, a, m: xp.add(a, a, where=m, out=None),
    "out=(None,)": lambda xp, a, m: xp.sin(a, where=m, out=(None,)),
    "positional None": lambda xp, a, m: xp.add(a, a, None, where=m),
    "where=True": lambda xp, a, m: xp.add(a, a, where=True),
    "where=np.True_": lambda xp, a, m: xp.multiply(a, 2.0, where=np.True_),
    "where=False": lambda xp, a, m: xp.negative(a, where=False, out=xp.ones(3)),
    "divmod": lambda xp, a, m: xp.divmod(a, 2.0, where=m),
    "divmod out": lambda xp, a, m: xp.divmod(a, 2.0, out=(None, None), where=m),
    "outer": lambda xp, a, m: xp.add.outer(a, a, where=m),
    "outer out=None": lambda xp, a, m: xp.add.outer(a, a, where=m, out=None),
    "reduce": lambda xp, a, m: xp.add.reduce(a, where=m),
}


@pytest.mark.parametrize("name", sorted(WHERE_CALLS))
def test_where_without_out_warns_as_numpy(name):
    fn, a = WHERE_CALLS[name], np.array([1.0, 2.0, 3.0])
    want, want_warned = _warned(fn, np, a, M)
    for _ in range(3):  # every call warns, also those the eager dispatch cache serves
        got, warned = _warned(fn, xnp, xnp.asarray(a), xnp.asarray(M))
        assert warned == want_warned  # NumPy's text, class, and the caller's line
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        kept = np.broadcast_to(M, np.shape(w)) if np.ndim(w) else ...  # NumPy's defined ones
        np.testing.assert_array_equal(np.asarray(g)[kept], np.asarray(w)[kept])


def test_where_without_out_warns_when_traced_and_masked_out_elements_are_zero():
    f = xnp.jit(lambda a, m: WHERE_CALLS["no out"](xnp, a, m))
    a, m = xnp.asarray([1.0, 2.0, 3.0]), xnp.asarray(M)
    got, warned = _warned(f, a, m)   # at trace time, pointing at the traced function
    _, want = _warned(WHERE_CALLS["no out"], np, np.ones(3), M)
    assert warned == want and _warned(f, a, m)[1] == []
    for r in (got, xnp.add(a, a, where=m, out=None)):
        assert np.asarray(r).tolist() == [2.0, 0.0, 6.0]   # NumPy leaves them uninitialised


FP_CASES = {  # masked-out elements that would raise; NumPy never computes them
    "divide": (lambda xp, a, m: xp.divide(1.0, a, out=xp.full(4, 7.0), where=m), [0, 2, 0, -1]),
    "log": (lambda xp, a, m: xp.log(a, out=xp.zeros(4), where=m), [-1, 2, 0, 3]),
    "arccos": (lambda xp, a, m: xp.arccos(a, out=xp.zeros(4), where=m), [2, 0.5, -3, 1]),
    "int floor_divide": (lambda xp, a, m: xp.floor_divide(
        a.astype(np.int64), a.astype(np.int64) - 2, out=xp.zeros(4, np.int64), where=m),
        [2, 3, 2, 5]),
    "divmod": (lambda xp, a, m: xp.divmod(a, a, out=(xp.zeros(4), xp.zeros(4)), where=m),
               [0, 2, np.inf, 4]),
    "overflow": (lambda xp, a, m: xp.multiply(a, 1e300, out=xp.zeros(4), where=m),
                 [1e10, 2, 1e300, 3]),
    "cast to out": (lambda xp, a, m: xp.add(a, 1.0, out=xp.zeros(4, np.float32), where=m,
                                            casting="unsafe"), [1e300, 2, 1e300, 3]),
    "masked-in error": (lambda xp, a, m: xp.divide(1.0, a, out=xp.zeros(4), where=m),
                        [0, 0, 0, 1]),   # element 1 is computed: NumPy's warning
    "int add": (lambda xp, a, m: xp.add(a.astype(np.int8), np.int8(100), out=xp.zeros(
        4, np.int8), where=m), [100, 1, 2, 3]),  # (integers wrap, and never warn)
    "isnan": (lambda xp, a, m: xp.isnan(a, out=xp.ones(4, bool), where=m), [1, 0, 2, 3]),
}


@pytest.mark.parametrize("name", sorted(FP_CASES))
def test_where_masked_out_elements_raise_no_floating_point_errors(name):
    fn, data = FP_CASES[name]
    a, m = np.array(data, np.float64), np.array([False, True, False, True])
    want, want_warned = _warned(fn, np, a, m)
    got, warned = _warned(fn, xnp, xnp.asarray(a), xnp.asarray(m))
    assert [w[:2] for w in warned] == [w[:2] for w in want_warned]
    assert_allclose(got, want, check_dtype=False)
    assert_allclose(xnp.jit(lambda a, m: fn(xnp, a, m))(a, m), want, check_dtype=False)
    for xp, x, mask in ((np, a, m), (xnp, xnp.asarray(a), xnp.asarray(m))):
        with np.errstate(all="raise"):  # only the masked-in error raises
            if want_warned:
                pytest.raises(FloatingPointError, fn, xp, x, mask)
            else:
                fn(xp, x, mask)


def test_where_mask_conversion_and_replayed_masked_calls():
    from xnp.numpy_api import _replay
    from xnp.tracing import recording

    a = np.array([1.0, 2.0, 3.0])
    for where in (None, [1.5, 0.0, 2.0], "", np.float64(0.0)):  # truth values; None is False
        want = np.add(a, a, out=np.zeros(3), where=where)
        assert np.asarray(xnp.add(xnp.asarray(a), a, out=xnp.zeros(3), where=where)).tolist() \
            == want.tolist()
    for where in (np.array([1, 0, 1]), xnp.asarray([1.0, 0.0, 1.0])):  # NumPy's TypeError
        with pytest.raises(TypeError, match="Cannot cast array data from dtype"):
            xnp.add(a, a, out=xnp.zeros(3), where=where)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype"):
        np.add(a, a, out=np.zeros(3), where=np.array([1, 0, 1]))
    _replay.clear()  # out=None: no warning, and the masked call replays without its errors
    x, m = xnp.asarray([0.0, 4.0, -1.0]), xnp.asarray([False, True, False])
    for _ in range(3):
        got, warned = _warned(lambda: xnp.sqrt(x, where=m, out=None))
        assert warned == [] and np.asarray(got).tolist() == [0.0, 2.0, 0.0]
    assert _replay.stats(xnp.sqrt)["programs"] == int(recording.AVAILABLE)
    g = xnp.grad(lambda x: xnp.sum(xnp.log(x, where=x > 0, out=xnp.zeros(3))))(x)
    assert np.asarray(g).tolist() == [0.0, 0.25, 0.0]   # no NaN from the masked-out ones


# --------------------------------------------------------------------------- reduce


REDUCE_CASES = [((2, 3), 0), ((2, 3), 1), ((2, 3), None), ((2, 3), (0, 1)), ((2, 3), ()),
                ((4,), 0), ((), None), ((0, 3), 0), ((3, 0), 0), ((2, 3), -1)]


@pytest.mark.parametrize("dtype", [F64, I32, BOOL], ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_reduce_matches_numpy_eagerly(name, dtype):
    for i, (shape, axis) in enumerate(REDUCE_CASES):
        x = _data(shape, dtype, i)
        keepdims = bool(i % 2)
        check(lambda xp, a: getattr(xp, name).reduce(a, axis=axis, keepdims=keepdims), x,
              jit=False)


@pytest.mark.parametrize("case", grid(n=14, seed=1, name=BINARY, dtype=[F64, I32],
                                      shape_axis=REDUCE_CASES[:6]))
def test_reduce_under_jit(case):
    shape, axis = case.shape_axis
    x = _data(shape, case.dtype, 3)
    check(lambda xp, a: getattr(xp, case.name).reduce(a, axis=axis), x)


@pytest.mark.parametrize("name", ["hypot", "logaddexp", "logaddexp2", "fmax", "fmin"])
def test_reorderable_reduce_under_jit_is_one_lax_reduce(name):
    dtype = F64
    x = _data((3, 4, 5), dtype, 5)
    if name in ("fmax", "fmin"):
        x[0, 1, 2] = np.nan
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=(0, 2), keepdims=True), x)
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=1, initial=3), x)
    text = str(xnp.make_jaxpr(lambda a: getattr(xnp, name).reduce(a, axis=None))(x))
    assert "reduce[" in text and "scan" not in text
    if name in ("hypot", "logaddexp"):
        g = xnp.jit(xnp.grad(lambda a: getattr(xnp, name).reduce(a, axis=None)))(x[0])
        eps, v = 1e-6, x[0].copy()
        v[1, 1] += eps
        up = getattr(np, name).reduce(v, axis=None)
        v[1, 1] -= 2 * eps
        down = getattr(np, name).reduce(v, axis=None)
        np.testing.assert_allclose(float(g[1, 1]), (up - down) / (2 * eps), rtol=1e-5,
                                   atol=1e-8)


def test_reduce_initial_where_dtype_out():
    x = np.asarray([[5.0, 1.0, 2.0], [3.0, -4.0, 0.5]])
    w = np.asarray([True, False, True])
    for k, name in enumerate(("add", "subtract", "maximum", "multiply", "hypot", "logaddexp",
                              "fmax", "logical_or", "power")):
        jit = k % 3 == 1   # a sample under jit (each compiles)
        check(lambda xp, a: getattr(xp, name).reduce(a, axis=1, initial=10.0), x, jit=jit)
        check(lambda xp, a: getattr(xp, name).reduce(a, axis=1, initial=2.0, where=w), x,
              jit=jit)
        check(lambda xp, a: getattr(xp, name).reduce(a, axis=0, where=w), x,  # identity or error
              jit=jit)
        check(lambda xp, a: getattr(xp, name).reduce(a[:, :0], axis=1), x, jit=False)  # empty
        check(lambda xp, a: getattr(xp, name).reduce(a, axis=None), x, jit=False)  # reorderable?
    ints = np.asarray([1, 2, 3], np.int8)
    check(lambda xp, a: xp.add.reduce(a), ints)                   # widens to int64
    check(lambda xp, a: xp.add.reduce(a, dtype=np.int8), ints)
    check(lambda xp, a: xp.add.reduce(a, dtype=np.float32), ints)
    check(lambda xp, a: xp.divide.reduce(a), ints)                # int loop -> float64
    check(lambda xp, a: xp.less.reduce(a), ints)                  # no same-dtype loop
    check(lambda xp, a: xp.add.reduce(a, axis=(0, 0)), ints)      # duplicate axis
    check(lambda xp, a: xp.add.reduce(a, axis=1), ints)           # AxisError
    check(lambda xp, a: xp.add.reduce([[1, 2], [3, 4]]), ints)    # nested lists
    assert_allclose(xnp.add.reduce(-0.0 * xnp.ones(1)), np.add.reduce(-0.0 * np.ones(1)))
    z = np.asarray([1 + 2j, 3 - 1j, 3 + 0j, 2 + 5j])     # lexicographic complex order
    for name in ("maximum", "minimum"):
        check(lambda xp, a: getattr(xp, name).reduce(a), z)
        check(lambda xp, a: getattr(xp, name).accumulate(a), z, jit=False)
    for dt in (np.float16, xnp.bfloat16):
        h = np.asarray([1.5, 2.25, 3.0], dt)
        check(lambda xp, a: xp.subtract.accumulate(a), h, jit=False)
        check(lambda xp, a: xp.add.reduce(a), h, jit=False)
    out = xnp.zeros(3)
    assert xnp.add.reduce(xnp.asarray(x), axis=0, out=out) is out
    np.testing.assert_allclose(np.asarray(out), x.sum(0))


# --------------------------------------------------------------------------- accumulate


@pytest.mark.parametrize("dtype", [F64, I32, BOOL], ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_accumulate_matches_numpy(name, dtype):
    x = _data((3, 4), dtype, 1)
    for axis in (0, 1, -1):
        check(lambda xp, a: getattr(xp, name).accumulate(a, axis=axis), x, jit=False)
    check(lambda xp, a: getattr(xp, name).accumulate(a[:0]), x, jit=False)


@pytest.mark.parametrize("case", grid(n=8, seed=2, name=BINARY, dtype=[F64, I32]))
def test_accumulate_under_jit(case):
    check(lambda xp, a: getattr(xp, case.name).accumulate(a, axis=1), _data((2, 5), case.dtype))


def test_accumulate_edges():
    x = np.arange(1.0, 7.0).reshape(2, 3)
    check(lambda xp, a: xp.add.accumulate(a, axis=(1,)), x)
    check(lambda xp, a: xp.add.accumulate(a, axis=(0, 1)), x)
    check(lambda xp, a: xp.add.accumulate(a, axis=None), x)     # None on 2-d: ValueError
    check(lambda xp, a: xp.add.accumulate(a[0], axis=None), x)  # None on 1-d: axis 0
    check(lambda xp, a: xp.add.accumulate(a[0, 0]), x)                    # 0-d
    check(lambda xp, a: xp.add.accumulate(a.astype(np.int32)), x)         # widens
    check(lambda xp, a: xp.multiply.accumulate(a, dtype=np.float32), x)
    check(lambda xp, a: xp.maximum.accumulate(a > 3, axis=1), x)
    out = xnp.zeros((2, 3))
    assert xnp.subtract.accumulate(xnp.asarray(x), axis=1, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), np.subtract.accumulate(x, axis=1))


# --------------------------------------------------------------------------- reduceat


@pytest.mark.parametrize("name", ["add", "maximum", "subtract"])
def test_reduceat_edge_cases(name):
    x = np.arange(1.0, 9.0)
    m = np.arange(1.0, 25.0).reshape(3, 8)
    for k, idx in enumerate(([0, 4, 1, 5], [0, 3, 3, 7], [7], [5, 2], [0], [0, 1, 2, 3, 4, 5],
                             [], [0, 8], [-1], [2.0, 5.0])):
        check(lambda xp, a: getattr(xp, name).reduceat(a, idx), x, jit=False)
        if k % 3 == 0:
            check(lambda xp, a: getattr(xp, name).reduceat(a, idx, axis=1), m, jit=False)
    check(lambda xp, a: getattr(xp, name).reduceat(a, [0, 4, 1, 5], axis=1), m)
    check(lambda xp, a: getattr(xp, name).reduceat(a.astype(np.int32), [0, 2]), x)
    check(lambda xp, a: getattr(xp, name).reduceat(a, [[0, 1]]), x, jit=False)
    check(lambda xp, a: getattr(xp, name).reduceat(a[0], [0]), x, jit=False)


def test_reduceat_traced_indices_raise():
    with pytest.raises(xnp.errors.ConcretizationTypeError, match="indices"):
        xnp.jit(lambda a, i: xnp.add.reduceat(a, i))(xnp.arange(4.0), xnp.asarray([0, 2]))


# --------------------------------------------------------------------------- outer


@pytest.mark.parametrize("name", BINARY[::3] + ["divmod"])
def test_outer(name):
    a, b = _data((2, 3), F64, 0), _data((4,), F64, 1)
    check(lambda xp, x, y: getattr(xp, name).outer(x, y), a, b, jit=name in BINARY[:9:3])
    check(lambda xp, x: getattr(xp, name).outer(x, 1.5), a.astype(np.float32), jit=False)
    check(lambda xp, x: getattr(xp, name).outer(2, x), b, jit=False)


# --------------------------------------------------------------------------- at


def _at_case(xp, name, a, idx, b):
    arr = xp.array(a)
    if b is None:
        getattr(xp, name).at(arr, idx)
    else:
        getattr(xp, name).at(arr, idx, b)
    return arr


AT_INDICES = [[0, 0, 1], [3, 1, 3, 3], (np.array([0, 1, 1]), np.array([2, 2, 2])), slice(1, 3),
              [-1, -1]]


@pytest.mark.parametrize("name", BINARY)
def test_at_binary_matches_numpy(name):
    start = BINARY.index(name) % 2
    for k, idx in list(enumerate(AT_INDICES))[start::2]:   # half of them per ufunc
        a = _data((4, 3), F64, k) if k in (2,) else _data((4,), F64, k)
        if k == 3:
            a = _data((4,), I32, k)
        b = 1.5 if k != 3 else 2
        check(lambda xp, arr: _at_case(xp, name, arr, idx, b), a, jit=False)
    check(lambda xp, arr: _at_case(xp, name, arr, [0, 0, 2], np.asarray([1.0, 2.0, 3.0])),
          _data((3,), F64, 9))


@pytest.mark.parametrize("name", UNARY[::2])
def test_at_unary_matches_numpy(name):
    check(lambda xp, arr: _at_case(xp, name, arr, [0, 0, 2], None), _data((3,), F64, 4),
          jit=False)


def test_at_repeated_indices_and_in_place():
    a = xnp.zeros(3)
    view = a[1:]
    assert xnp.add.at(a, [0, 0, 1], 1) is None
    np.testing.assert_array_equal(np.asarray(a), [2.0, 1.0, 0.0])
    np.testing.assert_array_equal(np.asarray(view), [1.0, 0.0])   # a view sees the update
    n = np.asarray([2.0, 3.0, 4.0])
    a = xnp.asarray(n.copy())
    xnp.negative.at(a, [0, 0, 1])
    np.negative.at(n, [0, 0, 1])
    np.testing.assert_array_equal(np.asarray(a), n)
    i, ni = xnp.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    xnp.add.at(i, [0, 0], 1.5)                      # the result is cast back unsafely
    np.add.at(ni, [0, 0], 1.5)
    assert_allclose(i, ni)
    with pytest.raises(ValueError, match="second operand needed"):
        xnp.add.at(a, [0])
    with pytest.raises(ValueError, match="second operand provided"):
        xnp.negative.at(a, [0], 1.0)
    with pytest.raises(TypeError, match="xnp array"):
        xnp.add.at(np.zeros(3), [0], 1.0)
    with pytest.raises(IndexError):
        xnp.add.at(a, [5], 1.0)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "power", "negative"])
def test_at_under_jit_functionalized_and_written_back(name):
    n = np.asarray([1.5, 2.0, 3.0, 0.5])
    idx = np.asarray([0, 0, 3, 1])
    unary = xnp.__dict__[name].nin == 1
    ref = n.copy()
    getattr(np, name).at(ref, idx, *(() if unary else (2.0,)))

    def f(a, i):
        getattr(xnp, name).at(a, i, *(() if unary else (2.0,)))
        return a * 1.0

    x = xnp.asarray(n.copy())
    out = xnp.jit(f)(x, xnp.asarray(idx))
    np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(x), ref, rtol=1e-13)   # the argument was updated

    def g(a):
        b = a * 1.0
        getattr(xnp, name).at(b, idx, *(() if unary else (2.0,)))
        return b

    np.testing.assert_allclose(np.asarray(xnp.jit(g)(xnp.asarray(n))), ref, rtol=1e-13)
    glob = xnp.asarray(n.copy())
    with pytest.raises(Exception, match="(?i)write|eager|side effect"):   # a global array
        xnp.jit(lambda t: getattr(xnp, name).at(glob, [0], *(() if unary else (t,))) or t)(
            xnp.asarray(1.0))


# --------------------------------------------------------------------------- grad / vmap


def test_grad_and_vmap_of_the_methods():
    x = np.asarray([1.5, 2.0, 3.0])
    eps = 1e-6

    def fd(f, v):
        g = np.zeros_like(v)
        for k in range(v.size):
            d = np.zeros_like(v)
            d[k] = eps
            g[k] = (f(v + d) - f(v - d)) / (2 * eps)
        return g

    fns = {
        "reduce_subtract": (lambda t, xp: xp.subtract.reduce(t)),
        "reduce_hypot": (lambda t, xp: xp.hypot.reduce(t)),
        "reduce_max": (lambda t, xp: xp.maximum.reduce(t)),
        "accumulate_power": (lambda t, xp: xp.power.accumulate(t).sum()),
        "accumulate_multiply": (lambda t, xp: xp.multiply.accumulate(t).sum()),
        "outer_arctan2": (lambda t, xp: xp.arctan2.outer(t, t).sum()),
    }
    for name, f in fns.items():
        g = xnp.grad(lambda t: f(t, xnp))(xnp.asarray(x))
        np.testing.assert_allclose(np.asarray(g), fd(lambda v: f(v, np), x), rtol=1e-6,
                                   err_msg=name)
        batch = np.stack([x, x[::-1], x * 2])
        got = xnp.vmap(lambda t: f(t, xnp))(xnp.asarray(batch))
        np.testing.assert_allclose(np.asarray(got), [f(r, np) for r in batch], rtol=1e-12,
                                   err_msg=name)

    def at_fn(t, xp):
        b = t * 1.0
        xp.multiply.at(b, [0, 0, 2], t[1])
        xp.add.at(b, [1, 1], t[0])
        xp.power.at(b, [2, 0, 2], 1.5)             # the generic (scan) path
        return (b * b).sum()

    def at_np(v):
        return at_fn(v.copy(), np)

    g = xnp.grad(lambda t: at_fn(t, xnp))(xnp.asarray(x))
    np.testing.assert_allclose(np.asarray(g), fd(at_np, x), rtol=1e-6)
    batch = np.stack([x, x + 1])
    np.testing.assert_allclose(np.asarray(xnp.vmap(lambda t: at_fn(t, xnp))(xnp.asarray(batch))),
                               [at_np(r) for r in batch], rtol=1e-12)


# --------------------------------------------------------------------------- gufuncs


GUFUNC_CASES = [
    ("matmul", (3, 2, 5), (5, 3, 2), {"axes": [(0, 2), (0, 1), (1, 2)]}),
    ("matmul", (3,), (3, 4), {"axes": [(0,), (0, 1), (0,)]}),
    ("matmul", (3,), (3, 4), {"axes": [0, (0, 1), 0]}),
    ("matmul", (2, 3, 4), (4, 2), {"axes": [(0, 1), (0, 1)]}),
    ("matmul", (2, 3, 4), (4, 2), {"axis": 0}),
    ("matmul", (2, 3, 4), (4, 2), {"keepdims": True}),
    ("vecdot", (3, 4), (3, 4), {"axis": 0}),
    ("vecdot", (3, 4), (3, 4), {"axis": 0, "keepdims": True}),
    ("vecdot", (3, 4), (3, 4), {"axes": [0, 0]}),
    ("vecdot", (3, 4), (3, 4), {"axes": [0, 0, 1], "keepdims": True}),
    ("vecdot", (3, 4), (3, 4), {"axes": [0, 0], "axis": 0}),
    ("vecdot", (3, 4), (1, 4), {"axis": -1, "keepdims": True}),
    ("matvec", (2, 3, 4), (3, 2), {"axes": [(1, 2), (0,), (0,)]}),
    ("matvec", (2, 4, 3), (3, 2), {"axes": [(1, 2), (0,), (0,)]}),
    ("matvec", (2, 4, 3), (3,), {"keepdims": True}),
    ("vecmat", (3, 2), (2, 3, 4), {"axes": [(0,), (1, 2), (0,)]}),
]


@pytest.mark.parametrize("case", GUFUNC_CASES, ids=lambda c: f"{c[0]}-{c[3]}")
def test_gufunc_axes_axis_keepdims(case):
    name, sa, sb, kw = case
    if not hasattr(np, name):
        pytest.skip(f"this NumPy has no {name}")
    a, b = _data(sa, F64, 0), _data(sb, F64, 1)
    check(lambda xp, x, y: getattr(xp, name)(x, y, **kw), a, b)


def test_gufunc_out_and_method_errors():
    a, b = _data((3, 4), F64, 0), _data((3, 4), F64, 1)
    out = xnp.zeros((1, 4))
    assert xnp.vecdot(xnp.asarray(a), xnp.asarray(b), out=out, axis=0, keepdims=True) is out
    np.testing.assert_allclose(np.asarray(out), np.vecdot(a, b, axis=0, keepdims=True))
    for name in ("matmul", "vecdot", "matvec", "vecmat"):
        for method, call in (("reduce", lambda u: u.reduce(a)),
                             ("accumulate", lambda u: u.accumulate(a)),
                             ("reduceat", lambda u: u.reduceat(a, [0])),
                             ("outer", lambda u: u.outer(a, b)),
                             ("at", lambda u: u.at(xnp.asarray(a), [0], b[0]))):
            status, err = _outcome(lambda: call(getattr(np, name)))
            assert status == "err"
            with pytest.raises(_public(type(err))) as info:
                call(getattr(xnp, name))
            assert str(info.value).split(":")[0] == str(err).split(":")[0], (name, method)


# --------------------------------------------------------------------------- rejections


@pytest.mark.parametrize("name", UNARY + ["divmod", "frexp", "modf"])
def test_methods_numpy_rejects(name):
    u, nu = getattr(xnp, name), getattr(np, name)
    x = np.ones(3)
    for call in (lambda f: f.reduce(x), lambda f: f.accumulate(x),
                 lambda f: f.reduceat(x, [0]), lambda f: f.outer(x, x)):
        status, err = _outcome(lambda: call(nu))
        if status == "ok":
            continue
        with pytest.raises(type(err), match=str(err)):
            call(u)
    if nu.nout == 2:
        with pytest.raises(ValueError, match="Only single output"):
            u.at(xnp.ones(3), [0])


# --------------------------------------------------------------------------- frompyfunc


def test_frompyfunc_eagerly_matches_numpy():
    def f(a, b):
        return a * 10 + b

    u, nu = xnp.frompyfunc(f, 2, 1), np.frompyfunc(f, 2, 1)
    assert isinstance(u, xnp.ufunc) and (u.nin, u.nout, u.types, u.identity) == (
        nu.nin, nu.nout, nu.types, nu.identity)
    assert u.__name__ == nu.__name__
    a, b = np.asarray([[1, 2], [3, 4]]), np.asarray([5, 6])
    for call in (lambda g, x, y: g(x, y), lambda g, x, y: g.outer(x, y),
                 lambda g, x, y: g.reduce(x, axis=1), lambda g, x, y: g.accumulate(x),
                 lambda g, x, y: g.reduceat(x[0], [0, 1])):
        ref = call(nu, a, b)
        got = call(u, xnp.asarray(a), xnp.asarray(b))
        assert isinstance(got, xnp.ndarray) and got.dtype == ref.dtype == object  # NumPy's
        assert got.tolist() == ref.tolist()
        assert_allclose(got.astype(np.int64), np.asarray(ref.tolist()))
    arr, ref = xnp.asarray([1, 2, 3]), np.asarray([1, 2, 3], dtype=object)
    u.at(arr, [0, 0, 2], 1)
    nu.at(ref, [0, 0, 2], 1)
    assert np.asarray(arr).tolist() == ref.tolist()
    two = xnp.frompyfunc(divmod, 2, 2)
    q, r = two(xnp.asarray([7, 8]), 3)
    assert np.asarray(q).tolist() == [2, 2] and np.asarray(r).tolist() == [1, 2]
    ident = xnp.frompyfunc(f, 2, 1, identity=0)
    assert ident.identity == 0 and float(ident.reduce(xnp.zeros(0))) == 0.0
    strs = xnp.frompyfunc(str, 1, 1)(xnp.asarray([1, 2]))
    assert strs.dtype == object and strs.tolist() == ["1", "2"]
    with pytest.raises(TypeError, match="numeric"):
        xnp.frompyfunc(str, 1, 1).at(xnp.asarray([1, 2]), [0])
    objs = xnp.asarray(np.array([1, "a"], dtype=object))
    xnp.frompyfunc(lambda v: v * 2, 1, 1).at(objs, [1])
    assert objs.tolist() == [1, "aa"]
    with pytest.raises(TypeError, match="callable"):
        xnp.frompyfunc(3, 1, 1)


def test_frompyfunc_under_jit_raises():
    u = xnp.frompyfunc(lambda a: a + 1, 1, 1)
    with pytest.raises(TypeError, match="cannot be (traced|staged)"):
        xnp.jit(lambda x: u(x))(xnp.ones(2))
    with pytest.raises(TypeError, match="cannot be (traced|staged)"):
        xnp.jit(lambda x: u.reduce(x))(xnp.ones(2))
    with pytest.raises(TypeError, match="cannot be (traced|staged)"):
        xnp.vmap(lambda x: u(x))(xnp.ones(2))


# --------------------------------------------------------------------------- vectorize


def test_vectorize_keywords_match_numpy():
    def f(a, b, c=1):
        return a * b + c

    x, y = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    for xp in (np, xnp):
        v = xp.vectorize(f, otypes=[np.float32], excluded={"c"})
        r = v(x if xp is np else xnp.asarray(x), y, c=2)
        if xp is np:
            ref = r
        else:
            assert_allclose(r, ref)
    sig = "(n),(n)->()"
    ref = np.vectorize(lambda a, b: (a * b).sum(), signature=sig)(x, y)
    got = xnp.vectorize(lambda a, b: (a * b).sum(), signature=sig)(xnp.asarray(x), y)
    assert_allclose(got, ref)
    got = xnp.jit(lambda t: xnp.vectorize(lambda a, b: (a * b).sum(), signature=sig)(t, y))(
        xnp.asarray(x))
    assert_allclose(got, ref, kind="reduction")
