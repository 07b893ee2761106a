"""``lax.runtime_warning`` and ``lax.runtime_error``: a value-dependent warning or exception
as an equation. Eagerly it warns as
its condition says (once, or once per true element), under ``jit`` it is the identity and
checks nothing; the eager dispatch cache replays it, so the reductions whose NumPy
warnings depend on values (``nanmax``'s all-NaN slices, ``mean`` with ``where=``) warn on
every call and still replay; ``runtime_error`` does the same for NumPy's value checks
(integer ``power``'s negative exponents, ``linalg``'s singular or non-convergent matrices)."""

import warnings

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.numpy_api import _replay


def _messages(fn, *args):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn(*args)
    return out, [(w.category, str(w.message)) for w in got]


@pytest.mark.parametrize("each", [False, True])
def test_eager_warns_as_the_condition_says(each):
    for cond in ([True, False, True], [False, False, False], [[True], [True]], True):
        c = np.asarray(cond)
        out, msgs = _messages(lambda v: lax.runtime_warning(v, "look", each=each),
                              xnp.asarray(c))
        np.testing.assert_array_equal(np.asarray(out), c)
        n = int(c.sum()) if each else int(c.any())
        assert msgs == [(RuntimeWarning, "look")] * n


def test_staged_it_is_the_identity_and_checks_nothing():
    c = xnp.asarray(np.array([True, False]))
    f = xnp.jit(lambda v: lax.runtime_warning(v, "look"))
    out, msgs = _messages(f, c)
    np.testing.assert_array_equal(np.asarray(out), [True, False])
    assert msgs == []
    jaxpr = str(xnp.make_jaxpr(lambda v: lax.runtime_warning(v, "look"))(c))
    assert "runtime_warning" in jaxpr and "look" in jaxpr


def test_under_vmap_and_grad():
    x = xnp.asarray(np.array([[np.nan, 1.0], [2.0, 3.0]]))
    _, msgs = _messages(xnp.vmap(lambda r: lax.runtime_warning(xnp.isnan(r), "nan", each=True)),
                        x)
    assert msgs == [(RuntimeWarning, "nan")]

    def f(v):
        lax.runtime_warning(v > 1.0, "big")
        return (v * v).sum()

    g, msgs = _messages(xnp.grad(f), xnp.asarray(np.array([0.5, 2.0])))
    np.testing.assert_allclose(np.asarray(g), [1.0, 4.0])
    assert msgs == [(RuntimeWarning, "big")]


def test_condition_must_be_boolean():
    with pytest.raises(TypeError, match="runtime_warning: the condition must be a boolean"):
        lax.runtime_warning(xnp.asarray(np.arange(3.0)), "x")
    with pytest.raises(TypeError, match="runtime_warning: the condition must be a boolean"):
        xnp.jit(lambda v: lax.runtime_warning(v, "x"))(np.arange(3))


@pytest.mark.parametrize("name,call", [
    ("nanmax", lambda v: xnp.nanmax(v, axis=1)),
    ("nanmin", lambda v: xnp.nanmin(v, axis=0)),
    ("nanmean", lambda v: xnp.nanmean(v, axis=1)),
    ("nanvar", lambda v: xnp.nanvar(v, axis=1)),
    ("mean", lambda v: xnp.mean(v, axis=1, where=~xnp.isnan(v))),
])
def test_value_dependent_reduction_warnings_replay_and_warn_every_call(name, call):
    np_call = {"nanmax": lambda v: np.nanmax(v, axis=1), "nanmin": lambda v: np.nanmin(v, axis=0),
               "nanmean": lambda v: np.nanmean(v, axis=1), "nanvar": lambda v: np.nanvar(v, axis=1),
               "mean": lambda v: np.mean(v, axis=1, where=~np.isnan(v))}[name]
    clean = np.arange(12.0).reshape(3, 4)
    holes = clean.copy()
    holes[1] = np.nan  # a slice of NaNs only (and column 0 of nanmin's has none)
    holes[:, 0] = np.nan
    fn = getattr(xnp, name)
    _replay.clear()
    for x in (clean, holes, clean, holes, holes):
        got, msgs = _messages(call, xnp.asarray(x))
        want, want_msgs = _messages(np_call, x)
        np.testing.assert_allclose(np.asarray(got), want, equal_nan=True, rtol=1e-14)
        assert msgs == want_msgs, (name, x is holes)
    # recorded from a call that did not warn; the calls after it (warning ones too) replay
    assert _replay.stats(fn) == {"programs": 1, "refused": []}


def test_runtime_error_raises_eagerly_and_is_the_identity_staged():
    for cond in ([False, True], [[True]], True):
        with pytest.raises(IndexError, match="^out$"):
            lax.runtime_error(xnp.asarray(np.asarray(cond)), "out", IndexError)
    ok = np.array([[False, False]])
    np.testing.assert_array_equal(np.asarray(lax.runtime_error(xnp.asarray(ok), "out")), ok)
    bad = np.array([False, True])
    f = xnp.jit(lambda c: lax.runtime_error(c, "out", IndexError))
    np.testing.assert_array_equal(np.asarray(f(bad)), bad)  # compiled code checks nothing
    # under vmap the batch is checked; under grad the primal values are
    with pytest.raises(IndexError):
        xnp.vmap(lambda c: lax.runtime_error(c, "out", IndexError))(xnp.asarray(np.eye(2) > 0))

    def g(v):
        lax.runtime_error(v > 1.0, "big")
        return (v * v).sum()

    np.testing.assert_allclose(np.asarray(xnp.grad(g)(xnp.asarray(np.array([0.5, 1.0])))),
                               [1.0, 2.0])  # the boundary 1.0 is not > 1.0
    with pytest.raises(ValueError, match="big"):
        xnp.grad(g)(xnp.asarray(np.array([0.5, 2.0])))
    with pytest.raises(TypeError, match="runtime_error: exception must be an exception class"):
        lax.runtime_error(xnp.asarray(bad), "out", "IndexError")
    with pytest.raises(TypeError, match="runtime_error: the condition must be a boolean"):
        lax.runtime_error(xnp.asarray(np.arange(2)), "out")


def test_runtime_error_with_the_eager_xla_backend():
    with xnp.config.override(eager_backend="xla"):
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            xnp.linalg.inv(xnp.asarray(np.ones((2, 2))))
        np.testing.assert_allclose(np.asarray(xnp.linalg.inv(xnp.asarray(np.eye(2) * 2))),
                                   np.eye(2) / 2)


@pytest.mark.parametrize("name,good,bad,message", [
    ("solve", np.eye(3) * 2, np.ones((3, 3)), "Singular matrix"),
    ("inv", np.eye(3) * 2, np.ones((3, 3)), "Singular matrix"),
    ("cholesky", np.eye(3) * 2, -np.eye(3), "Matrix is not positive definite"),
    ("eigvalsh", np.eye(3) * 2, np.full((3, 3), np.inf), "Eigenvalues did not converge"),
])
def test_linalg_checks_replay_and_raise_on_every_call(name, good, bad, message):
    fn = getattr(xnp.linalg, name)
    call = (lambda m: fn(m, xnp.asarray(np.ones(3)))) if name == "solve" else fn
    np_call = (lambda m: np.linalg.solve(m, np.ones(3))) if name == "solve" else \
        getattr(np.linalg, name)
    _replay.clear()
    for m in (good, bad, good, bad):
        if m is bad:
            with pytest.raises(np.linalg.LinAlgError, match=message):
                np_call(m)
            with pytest.raises(np.linalg.LinAlgError, match=message):
                call(xnp.asarray(m))
        else:
            np.testing.assert_allclose(np.asarray(call(xnp.asarray(m))), np_call(m),
                                       rtol=1e-12)
    assert _replay.stats(fn) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name,call,good,bad,exc,message", [
    ("percentile", lambda xp, q: xp.percentile(xp.asarray(np.arange(6.0)), q),
     np.array([10.0, 90.0]), np.array([10.0, 190.0]), ValueError, "range \\[0, 100\\]"),
    ("quantile", lambda xp, q: xp.quantile(xp.asarray(np.arange(6.0)), q),
     np.array(0.5), np.array(np.nan), ValueError, "range \\[0, 1\\]"),
    ("average", lambda xp, w: xp.average(xp.asarray(np.arange(3.0)), weights=w),
     np.array([1.0, 2.0, 0.0]), np.array([1.0, -1.0, 0.0]), ZeroDivisionError,
     "Weights sum to zero"),
    ("cov", lambda xp, w: xp.cov(xp.asarray(np.arange(6.0).reshape(2, 3)), aweights=w),
     np.array([1.0, 2.0, 0.5]), np.array([1.0, -2.0, 0.5]), ValueError, "cannot be negative"),
])
def test_statistics_checks_replay_and_raise_on_every_call(name, call, good, bad, exc, message):
    _replay.clear()
    for v in (good, bad, good, bad):
        if v is bad:
            with pytest.raises(exc, match=message):
                call(np, v)
            with pytest.raises(exc, match=message):
                call(xnp, xnp.asarray(v))
        else:
            np.testing.assert_allclose(np.asarray(call(xnp, xnp.asarray(v))), call(np, v),
                                       rtol=1e-12)
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name,call,good,bad,message", [
    ("nanargmax", lambda xp, v: xp.nanargmax(v, axis=1), [[1.0, np.nan], [2.0, 3.0]],
     [[1.0, np.nan], [np.nan, np.nan]], "All-NaN slice encountered"),
    ("asarray_chkfinite", lambda xp, v: xp.asarray_chkfinite(v), [1.0, 2.0], [1.0, np.inf],
     "must not contain infs or NaNs"),
])
def test_value_errors_replay_and_raise_on_every_call(name, call, good, bad, message):
    _replay.clear()
    for k, v in enumerate((good, bad, good, bad)):
        v = np.array(v)
        if k % 2:
            with pytest.raises(ValueError, match=message):
                call(np, v)
            with pytest.raises(ValueError, match=message):
                call(xnp, xnp.asarray(v))
        else:
            np.testing.assert_array_equal(np.asarray(call(xnp, xnp.asarray(v))), call(np, v))
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}


def test_vmap_over_no_batch_member_checks_nothing():
    """A function vmapped over an empty batch runs for no member: its checks of values that
    do not depend on the batch neither raise nor warn; over a batch of one they do."""
    bad = xnp.asarray(np.array([True]))

    def f(b):
        lax.runtime_error(bad, "unbatched", IndexError)
        lax.runtime_warning(bad, "unbatched")
        return b + 1

    for run in (xnp.vmap(f), xnp.jit(xnp.vmap(f)), xnp.vmap(xnp.vmap(f))):
        out, msgs = _messages(run, xnp.zeros((0, 2)))
        assert out.shape == (0, 2) and msgs == []
    with pytest.raises(IndexError, match="unbatched"):
        xnp.vmap(f)(xnp.zeros((1, 2)))
