"""Integer ``power``, ``nanmax``/``nanmin``/``nanargmax``/``nanargmin`` and the order
statistics (``quantile``, ``percentile``, their NaN-ignoring forms, ``nanmedian``) as one
composite each (xnp/backends/xp_impls/composite.py, ``FUNCTION_KERNELS``): eagerly NumPy's
own function (for the order statistics where it is the faster one), under jit the
decomposition (``median`` keeps its replayed decomposition, faster than NumPy's). Eagerly
the kernel and the decomposition (the kernels table emptied) give NumPy's values, dtypes,
warnings (naming the caller's line) and errors; jit gives the same values (and no checks);
a repeated eager call replays one equation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from xnp.backends.numpy import BACKEND
from xnp.numpy_api import _replay

_NAN = np.nan
_X = np.array([[1.5, _NAN, -2.0, 0.0, 4.0],
               [_NAN, _NAN, _NAN, _NAN, _NAN],
               [-0.0, 3.0, np.inf, -np.inf, 2.5]])
_Y = np.array([[1.5, 7.0, -2.0, 0.0, 4.0], [0.5, -1.0, 3.0, 2.0, 9.0],
               [-0.0, 3.0, 1.0, -4.0, 2.5]])


def _same(got, want, zeros_signed=True):
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert np.array_equal(got, want, equal_nan=True), (got, want)
    if zeros_signed and got.dtype.kind == "f":
        assert np.array_equal(np.signbit(got), np.signbit(want)), (got, want)


def _caught(call, *args):
    """``call(*args)`` (or its exception) and the warnings it issued: (category, message,
    file name)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = call(*args)
        except Exception as e:  # noqa: BLE001
            out = e
    return out, [(x.category, str(x.message), x.filename) for x in w]


def _ways(monkeypatch, call, x, jit=True):
    """The call's result on ``x`` eagerly with the kernels, eagerly with the
    decompositions and under jit (without the eager dispatch cache), with warnings."""
    out = {}
    with xnp.config.override(eager_dispatch_cache=False):
        out["kernel"] = _caught(call, xnp, xnp.asarray(x))
        kernels = BACKEND.kernels
        monkeypatch.setattr(BACKEND, "kernels", {})
        out["decomposition"] = _caught(call, xnp, xnp.asarray(x))
        monkeypatch.setattr(BACKEND, "kernels", kernels)
        if jit:
            out["jit"] = _caught(xnp.jit(lambda a: call(xnp, a)), xnp.asarray(x))
    return out


_NUMPY_FILE = np.__file__.rsplit("/", 1)[0]


def _check(monkeypatch, call, x, zeros_signed=True, jit=True):
    want, want_w = _caught(call, np, x)
    for way, (got, got_w) in _ways(monkeypatch, call, x, jit).items():
        _same(got, want, zeros_signed or way == "kernel")
        if way != "jit":  # NumPy's warnings; its own name the caller's line: so do xnp's
            assert [w[:2] for w in got_w] == [w[:2] for w in want_w], way
            assert all(f == __file__ for _, _, f in got_w if not f.startswith(_NUMPY_FILE))
        else:
            assert not got_w


@pytest.mark.parametrize("fn", ["nanmax", "nanmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, True), (0, False)])
def test_nan_extrema_are_numpys(monkeypatch, fn, axis, keepdims):
    x = _Y if fn.startswith("nanarg") and axis != 0 else _X[[0, 2]]  # (no all-NaN slice)
    _check(monkeypatch, lambda m, a: getattr(m, fn)(a, axis=axis, keepdims=keepdims), x,
           zeros_signed=False)  # (which zero the decomposition's extremum keeps varies)
    if fn.startswith("nanarg"):
        return
    x32 = _X.astype(np.float32)  # an all-NaN slice: NaN and NumPy's warning
    _check(monkeypatch, lambda m, a: getattr(m, fn)(a, axis=axis, keepdims=keepdims), x32,
           zeros_signed=False)


def test_nanargmax_of_an_all_nan_slice_raises_numpys_error(monkeypatch):
    for way, (got, _) in _ways(monkeypatch, lambda m, a: m.nanargmax(a, axis=1), _X).items():
        if way == "jit":  # compiled code checks nothing: -1 there
            _same(got, np.array([4, -1, 2]))
        else:
            assert type(got) is ValueError and str(got) == "All-NaN slice encountered"


_QUANTILE_CALLS = {
    "percentile 30": lambda m, a: m.percentile(a, 30),
    "quantile axis 1 hazen": lambda m, a: m.quantile(a, 0.3, axis=1, method="hazen"),
    "quantile float32 q, keepdims": lambda m, a: m.quantile(a, np.float32(0.75), axis=0,
                                                           keepdims=True),
    "percentile list q, lower": lambda m, a: m.percentile(a, [10, 90], axis=1, method="lower"),
    "nanpercentile": lambda m, a: m.nanpercentile(a, 40, axis=1),
    "nanquantile midpoint": lambda m, a: m.nanquantile(a, [0.2, 0.5], axis=(0, 1),
                                                       method="midpoint"),
    "median": lambda m, a: m.median(a, axis=1),
    "nanmedian": lambda m, a: m.nanmedian(a, axis=1),
    "nanmedian all": lambda m, a: m.nanmedian(a),
}


@pytest.mark.parametrize("name", list(_QUANTILE_CALLS))
def test_order_statistics_are_numpys(monkeypatch, name):
    call = _QUANTILE_CALLS[name]
    for k, x in enumerate((_X, _Y.astype(np.float32), (_Y * 3).astype(np.int64))):
        _check(monkeypatch, call, x, jit=k == 1)


def test_integer_power_raises_numpys_error(monkeypatch):
    a, b = np.array([[2, -3], [0, 5]]), np.array([[3, 2], [1, -1]])
    want = np.power(a, np.abs(b))
    for call in (lambda m, x, y: x ** y, lambda m, x, y: m.power(x, y)):
        for dt in (np.int8, np.int64):
            x, y = a.astype(dt), b.astype(dt)
            with pytest.raises(ValueError) as np_error:
                call(np, x, y)
            _replay.clear()
            for _ in range(3):  # recorded, then replayed
                with pytest.raises(ValueError) as error:
                    call(xnp, xnp.asarray(x), xnp.asarray(y))
                assert str(error.value) == str(np_error.value)
                _same(call(xnp, xnp.asarray(x), xnp.asarray(abs(y))), want.astype(dt))
            # under jit nothing is checked: x ** y rounded towards zero
            got = xnp.jit(lambda s, t: call(xnp, s, t))(xnp.asarray(x), xnp.asarray(y))
            _same(got, np.where(b < 0, 0, want).astype(dt))
    monkeypatch.setattr(BACKEND, "kernels", {})
    with xnp.config.override(eager_dispatch_cache=False), pytest.raises(ValueError) as error:
        xnp.asarray(a) ** xnp.asarray(b)
    assert str(error.value) == str(np_error.value)


def test_warnings_name_the_callers_line_on_replays():
    _replay.clear()
    clean, nans = xnp.asarray(_Y[0]), xnp.asarray(_X[1])
    for fn in (lambda a: xnp.nanmax(a), lambda a: xnp.nanmedian(a),
               lambda a: xnp.nanpercentile(a, 50), lambda a: xnp.nanmedian(a[None], axis=1)):
        fn(clean)  # recorded without a warning: the NaN call below is a replay
        for _ in range(2):
            _, got = _caught(fn, nans)
            assert [(c, m) for c, m, _ in got] == [(RuntimeWarning,
                                                   "All-NaN slice encountered")]
            assert got[0][2] == __file__


_Q = np.random.default_rng(5).standard_normal((3, 4))
#: (function, call, operands): each repeated eager call replays one equation
_REPLAYED = [
    (xnp.power, lambda m, a, b: m.power(a, b), ((_Q * 3).astype(np.int64) % 5,
                                               (_Q * 2).astype(np.int64) % 3)),
    (xnp.nanmax, lambda m, a: m.nanmax(a, axis=1), (_Q,)),
    (xnp.nanmin, lambda m, a: m.nanmin(a), (_Q,)),
    (xnp.nanargmax, lambda m, a: m.nanargmax(a, axis=1), (_Q,)),
    (xnp.nanargmin, lambda m, a: m.nanargmin(a), (_Q,)),
    (xnp.percentile, lambda m, a: m.percentile(a, 30), (_Q,)),
    (xnp.quantile, lambda m, a, q: m.quantile(a, q, axis=0), (_Q, np.array([0.1, 0.7]))),
    (xnp.nanpercentile, lambda m, a: m.nanpercentile(a, 30, keepdims=True), (_Q,)),
    (xnp.nanquantile, lambda m, a: m.nanquantile(a, 0.5, axis=0), (_Q[:, :1],)),
    (xnp.nanmedian, lambda m, a: m.nanmedian(a), (_Q,)),
]


@pytest.mark.parametrize("case", range(len(_REPLAYED)))
def test_eager_calls_replay_one_equation(case):
    fn, call, ops = _REPLAYED[case]
    _replay.clear()
    for k in range(3):  # the third call a replay, on new values of the first operand
        new = [ops[0] * (k + 1), *ops[1:]]
        _same(call(xnp, *[xnp.asarray(o) for o in new]), call(np, *new))
    assert _replay.stats(fn) == {"programs": 1, "refused": []}
    programs = [p for c in _replay._CACHES for p in c.values()]
    assert [len(p.eqns) for p in programs] == [1], programs


def test_operator_power_replays_one_equation():
    _replay.clear()
    a, b = xnp.asarray(np.array([[2, 3], [4, 5]])), xnp.asarray(np.array([[1, 0], [2, 3]]))
    for _ in range(3):
        _same(a ** b, np.array([[2, 1], [16, 125]]))
    programs = [p for c in _replay._CACHES for p in c.values()]
    assert [len(p.eqns) for p in programs] == [1]


@pytest.mark.parametrize("fn, args", [("median", ()), ("nanmedian", ()), ("quantile", (0.5,)),
                                      ("percentile", (20,)), ("nanquantile", (0.5,)),
                                      ("nanpercentile", (20,))])
def test_kept_dims_of_a_0d_input_are_a_0d_array(fn, args):
    a = np.array(2.5)
    _replay.clear()
    for _ in range(3):
        want = getattr(np, fn)(a, *args, keepdims=True)
        got = getattr(xnp, fn)(xnp.asarray(a), *args, keepdims=True)
        assert type(want) is np.ndarray and isinstance(got, xnp.ndarray)
        _same(got, want)
        assert type(getattr(xnp, fn)(xnp.asarray(a), *args)) is np.float64  # (NumPy's)
