"""The RuntimeWarnings of reductions over empty, all-NaN or too-small slices ("Mean of empty
slice", "All-NaN slice encountered", "Degrees of freedom <= 0 for slice[.]") and of their
divisions, against NumPy's own: category, message, count and order eagerly (repeated calls
too: the eager dispatch cache must not skip them), NumPy's values and dtypes both eagerly
and under ``jit``, where nothing warns."""

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose
from xnp.numpy_api import _replay

NAN = np.nan
ROWS = np.array([[NAN, NAN, NAN], [1.0, NAN, 2.0], [NAN, NAN, NAN]])

CASES = {
    "mean empty": (lambda xp, x: xp.mean(x), np.zeros(0)),
    "mean empty int": (lambda xp, x: xp.mean(x), np.zeros(0, np.int32)),
    "mean empty complex": (lambda xp, x: xp.mean(x), np.zeros(0, np.complex128)),
    "mean empty float16": (lambda xp, x: xp.mean(x), np.zeros(0, np.float16)),
    "mean empty float32": (lambda xp, x: xp.mean(x), np.zeros(0, np.float32)),
    "mean empty axis": (lambda xp, x: xp.mean(x, axis=0), np.zeros((0, 3))),
    "mean empty keepdims": (lambda xp, x: xp.mean(x, keepdims=True), np.zeros(0)),
    "mean empty method": (lambda xp, x: x.mean(), np.zeros((2, 0))),
    "mean empty result": (lambda xp, x: xp.mean(x, axis=1), np.zeros((0, 3))),
    "mean where none": (lambda xp, x: xp.mean(x, where=x > 5), np.arange(3.0)),
    "mean where rows": (lambda xp, x: xp.mean(x, axis=1, where=x > 1), ROWS),
    "mean where some": (lambda xp, x: xp.mean(x, axis=1, where=x > 0.5), np.eye(2)),
    "average empty": (lambda xp, x: xp.average(x, axis=0), np.zeros((0, 2))),
    "median empty": (lambda xp, x: xp.median(x), np.zeros(0)),
    "var empty": (lambda xp, x: xp.var(x), np.zeros(0)),
    "std empty complex": (lambda xp, x: xp.std(x), np.zeros(0, np.complex64)),
    "var ddof n": (lambda xp, x: xp.var(x, ddof=2), np.array([1.0, 2.0])),
    "std ddof above n": (lambda xp, x: xp.std(x, ddof=3), np.array([1.0, 2.0])),
    "var ddof float": (lambda xp, x: xp.var(x, ddof=1.5), np.array([1.0])),
    "var ddof int": (lambda xp, x: xp.var(x, ddof=1), np.array([4], np.int64)),
    "var ddof keepdims": (lambda xp, x: xp.var(x, ddof=1, keepdims=True), np.array([1.0])),
    "var ddof axis": (lambda xp, x: xp.var(x, axis=0, ddof=2), np.ones((2, 3))),
    "var correction": (lambda xp, x: xp.var(x, correction=1), np.array([3.0])),
    "var where": (lambda xp, x: xp.var(x, axis=1, where=x > 1.5), np.eye(2) * 2),
    "var enough": (lambda xp, x: xp.var(x, ddof=1), np.array([1.0, 3.0])),
    "nanmean all-NaN": (lambda xp, x: xp.nanmean(x), np.array([NAN, NAN])),
    "nanmean rows": (lambda xp, x: xp.nanmean(x, axis=1), ROWS),
    "nanmean float32": (lambda xp, x: xp.nanmean(x, axis=0), ROWS.astype(np.float32)),
    "nanmean int empty": (lambda xp, x: xp.nanmean(x), np.zeros(0, np.int64)),
    "nanmax all-NaN": (lambda xp, x: xp.nanmax(x), np.array([NAN, NAN])),
    "nanmin rows": (lambda xp, x: xp.nanmin(x, axis=1), ROWS),
    "nanmax keepdims": (lambda xp, x: xp.nanmax(x, axis=0, keepdims=True), ROWS),
    "nanmax initial": (lambda xp, x: xp.nanmax(x, initial=0.5), np.array([NAN])),
    "nanmin int": (lambda xp, x: xp.nanmin(x, axis=0), np.ones((2, 3), np.int16)),
    "nanmax some NaN": (lambda xp, x: xp.nanmax(x), np.array([NAN, 1.0])),
    "nanvar all-NaN": (lambda xp, x: xp.nanvar(x), np.array([NAN, NAN])),
    "nanvar ddof": (lambda xp, x: xp.nanvar(x, ddof=3), np.array([1.0, 2.0, NAN])),
    "nanvar rows": (lambda xp, x: xp.nanvar(x, axis=1, ddof=1), ROWS),
    "nanstd rows": (lambda xp, x: xp.nanstd(x, axis=1), ROWS),
    "nanstd complex": (lambda xp, x: xp.nanstd(x, ddof=1), np.array([1 + 1j, NAN])),
    "nanmean complex rows": (lambda xp, x: xp.nanmean(x, axis=1), ROWS + 1j),
    "nanvar complex rows": (lambda xp, x: xp.nanvar(x, axis=1), ROWS * (1 + 1j)),
    "nanvar int": (lambda xp, x: xp.nanvar(x, ddof=1), np.array([3], np.int8)),
    "nanmedian all-NaN": (lambda xp, x: xp.nanmedian(x), np.array([NAN, NAN])),
    "nanmedian rows": (lambda xp, x: xp.nanmedian(x, axis=1), ROWS),
    "nanmedian empty": (lambda xp, x: xp.nanmedian(x), np.zeros(0)),
    "nanmedian empty rows": (lambda xp, x: xp.nanmedian(x, axis=0), np.zeros((0, 2))),
    "nanmedian no rows": (lambda xp, x: xp.nanmedian(x, axis=1), np.zeros((0, 2))),
    "nanquantile rows": (lambda xp, x: xp.nanquantile(x, [0.2, 0.5], axis=1), ROWS),
    "nanquantile cols": (lambda xp, x: xp.nanquantile(x, 0.5, axis=0), ROWS),
    "nanpercentile all-NaN": (lambda xp, x: xp.nanpercentile(x, 50), np.array([NAN])),
    "nanpercentile empty": (lambda xp, x: xp.nanpercentile(x, 50), np.zeros(0)),
    # NumPy's nanmedian/nanquantile/nanpercentile of an empty array are its nanmean's (no q
    # dimensions; integers warn of the division too)
    "nanmedian empty int keepdims": (lambda xp, x: xp.nanmedian(x, keepdims=True),
                                     np.zeros((0, 3), np.int64)),
    "nanmedian empty complex": (lambda xp, x: xp.nanmedian(x, axis=0),
                                np.zeros((0, 2), np.complex128)),
    "nanquantile empty int": (lambda xp, x: xp.nanquantile(x, [0.25, 0.5], axis=0),
                              np.zeros((0, 3), np.int32)),
    "nanpercentile empty rows": (lambda xp, x: xp.nanpercentile(x, [50, 90], axis=1,
                                                                method="lower"),
                                 np.zeros((0, 3), np.float32)),
}


def _caught(fn, *args):
    """``fn(*args)`` (or the exception it raised) and its warnings as (category, message)
    pairs, in order, under NumPy's default floating-point settings."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with np.errstate(all="warn", under="ignore"):
            try:
                res = fn(*args)
            except Exception as e:  # noqa: BLE001  (compared with NumPy's)
                res = e
    return res, [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("name", list(CASES))
def test_eager_warnings_and_values_match_numpy(name):
    body, x = CASES[name]
    want, want_warnings = _caught(body, np, x)
    assert not isinstance(want, Exception), want
    for attempt in range(3):  # recorded, then each later call of the same signature
        got, got_warnings = _caught(body, xnp, xnp.asarray(x))
        assert got_warnings == want_warnings, (name, attempt)
        assert_allclose(got, want, kind="reduction", err_msg=name)


@pytest.mark.parametrize("name", list(CASES))
def test_jit_gives_numpy_values_without_warnings(name):
    body, x = CASES[name]
    want, _ = _caught(body, np, x)
    got, got_warnings = _caught(xnp.jit(lambda a: body(xnp, a)), xnp.asarray(x))
    assert got_warnings == []
    assert_allclose(got, want, kind="reduction", err_msg=name)


@pytest.mark.parametrize("name", ["mean empty", "mean where none", "var empty",
                                  "std ddof above n", "var ddof axis", "nanmean all-NaN",
                                  "nanvar ddof", "nanmean complex rows",
                                  "nanvar complex rows", "nanquantile empty int"])
@pytest.mark.parametrize("setting", ["raise", "ignore", "call"])
def test_division_errors_follow_errstate(name, setting):
    """The division of a degenerate slice meets NumPy's floating-point error under the
    caller's errstate: raised with NumPy's message, silent, or passed to the callback."""
    body, x = CASES[name]

    def run(xp, a):
        calls = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with np.errstate(all=setting, under="ignore"):
                old = np.seterrcall(lambda kind, flag: calls.append(kind))
                try:
                    res = body(xp, a)
                except FloatingPointError as e:
                    res = e
                finally:
                    np.seterrcall(old)
        return res, [(c.category, str(c.message)) for c in w], calls

    want, want_warnings, want_calls = run(np, x)
    got, got_warnings, got_calls = run(xnp, xnp.asarray(x))
    assert (got_warnings, got_calls) == (want_warnings, want_calls)
    if isinstance(want, FloatingPointError):
        assert type(got) is FloatingPointError and str(got) == str(want)
    else:
        assert_allclose(got, want, kind="reduction", err_msg=name)


def test_warnings_as_errors_raise_numpy_message():
    for fn, x in [(lambda xp, a: xp.nanmax(a), np.array([NAN])),
                  (lambda xp, a: xp.mean(a), np.zeros(0)),
                  (lambda xp, a: xp.nanvar(a), np.array([NAN]))]:
        raised = []
        for xp, a in ((np, x), (xnp, xnp.asarray(x))):
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)
                with pytest.raises(RuntimeWarning) as info:
                    fn(xp, a)
            raised.append(str(info.value))
        assert raised[0] == raised[1]


def test_plain_calls_still_replay():
    """Deciding from shapes reads no value: mean/var of non-empty data without ``where``
    are still replayed by the eager dispatch cache (``dtype=`` keeps mean's C fast path
    out of the way)."""
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    for fn in (xnp.mean, xnp.var, xnp.std):
        _replay.clear()
        for _ in range(2):
            fn(x, axis=1, dtype=np.float64)
        assert _replay.stats(fn) == {"programs": 1, "refused": []}, fn


@pytest.mark.parametrize("call", [
    lambda m, c: m.sum(c, dtype=np.float32), lambda m, c: m.prod(c, dtype=float),
    lambda m, c: m.mean(c, dtype=float), lambda m, c: m.cumsum(c, dtype=float),
    lambda m, c: m.nansum(c, dtype=float), lambda m, c: m.mean(c, dtype=int),
    lambda m, c: m.trace(m.diag(c), dtype=float), lambda m, c: m.sum(c, dtype=bool)])
def test_complex_reduced_in_a_real_dtype_warns_as_numpy(call):
    # ComplexWarning once (none for bool, which casts by truth), NumPy's values
    c = np.array([1 + 2j, 3j, -0.5 - 1j])
    seen = {}
    for mod in (np, xnp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            seen[mod] = (np.asarray(call(mod, mod.asarray(c))), [x.category for x in w])
    np.testing.assert_array_equal(seen[xnp][0], seen[np][0])
    assert seen[xnp][0].dtype == seen[np][0].dtype
    assert seen[xnp][1] == seen[np][1]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("case", ["empty", "masked"])
def test_mean_warnings_name_the_callers_line_on_every_call(case, keepdims):
    """The first call of a signature (its recording, which a mean of empty slices fails:
    the call sets its own warning settings), its later calls and NumPy all warn "Mean of
    empty slice" and "invalid value encountered in divide" at the caller's line."""
    _replay.clear()
    if case == "empty":
        x, kw = xnp.asarray(np.zeros((0, 3))), {"axis": 0}
    else:
        x, kw = xnp.asarray(np.ones((2, 3))), {"axis": 0, "where": np.zeros((2, 3), bool)}
    for _ in range(3):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            got = xnp.mean(x, keepdims=keepdims, **kw)
        assert [str(w.message) for w in record] == [
            "Mean of empty slice", "invalid value encountered in divide"]
        assert [w.filename for w in record] == [__file__] * 2
        assert np.isnan(np.asarray(got)).all() and np.asarray(got).shape == (
            (1, 3) if keepdims else (3,))


@pytest.mark.parametrize("fname", ["sum", "prod", "mean", "max", "min", "nansum"])
@pytest.mark.parametrize("dst", [np.float64, np.int32, np.bool_], ids=str)
def test_complex_result_into_a_real_out_warns_as_numpy(fname, dst):
    """A complex reduction written into a real or integer ``out`` (unsafe casting) warns
    NumPy's ``ComplexWarning`` at the caller's line, on every call; into bool, silently."""
    c = np.array([[1 + 2j, 3 - 1j], [-2 + 0.5j, 0.25 + 4j]])
    want = np.zeros(2, dst)
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        getattr(np, fname)(c, axis=0, out=want)
    x = xnp.asarray(c)
    for _ in range(3):
        out = xnp.zeros(2, dst)
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            assert getattr(xnp, fname)(x, axis=0, out=out) is out
        np.testing.assert_array_equal(np.asarray(out), want)
        assert {w.category for w in got_w} == {w.category for w in want_w}
        assert all(w.filename == __file__ for w in got_w)
