"""``lax.runtime_warning``: a value-dependent warning as an equation. Eagerly it warns as
its condition says (once, or once per true element), under ``jit`` it is the identity and
checks nothing; the eager dispatch cache replays it, so the reductions whose NumPy
warnings depend on values (``nanmax``'s all-NaN slices, ``mean`` with ``where=``) warn on
every call and still replay."""

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
