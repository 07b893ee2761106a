"""Ufunc calls with Python float operands whose values change every call (a loop over a
parameter) replay one program for every value (``_replay._FloatGeneric``): the float is
NumPy's weak scalar, which the program takes as a weak 0-d float64 input.

Each call gives NumPy's result (values bit for bit, dtype, warnings, errors) whatever the
value, also values the program was not learnt from (overflow to inf in a narrow dtype,
NaN, -0.0, infinities), and the call that learns the program issues its warnings once.
Eager only: the dispatch cache serves eager calls; under ``jit`` a Python float is a weak
scalar of the trace, which nothing here changes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import python_frames, run_threads
from xnp import ndarray_class
from xnp.numpy_api import _replay

VALUES = [0.5, 1.5, -2.25, 3.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e-320, 7.0]
UFUNCS = ["hypot", "arctan2", "logaddexp", "fmod", "copysign", "nextafter", "heaviside",
          "fmax", "float_power", "power", "remainder", "floor_divide", "ldexp", "logical_and",
          "logical_xor", "less"]
ERRSTATES = [{}, {"under": "warn"}, {"all": "raise"}]


def _call(m, name, x, v, first):
    fn = getattr(m, name)
    if name == "ldexp":  # (its second operand is an integer)
        return fn(v, x) if first else None
    return fn(x, v) if first else fn(v, x)


def _outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as e:  # noqa: BLE001  (compared with NumPy's)
            return type(e), [str(w.message) for w in caught]
    return out, [str(w.message) for w in caught]


@pytest.mark.parametrize("errstate", ERRSTATES, ids=["default", "under warn", "raise"])
@pytest.mark.parametrize("first", [True, False], ids=["array first", "float first"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32, np.complex64])
@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_of_ever_new_floats_is_numpys(name, dtype, first, errstate):
    """Beside a narrow float (float32, float16, complex64) NumPy converts the Python float
    itself (no underflow signalled; a logical ufunc tests its truth): those calls keep
    their exact keys, and must match NumPy all the same."""
    if name == "ldexp" and (not first or np.dtype(dtype).kind != "i"):
        pytest.skip("ldexp takes the float first and an integer array")
    if np.dtype(dtype).kind == "c" and name not in ("logical_and", "logical_xor", "power"):
        pytest.skip("NumPy has no complex loop for it (or no order of complex numbers)")
    _replay.clear()
    a = np.array([-3, -1, 0, 2, 5], dtype) if np.dtype(dtype).kind == "i" else \
        np.array([-2.5, -0.0, 0.0, 1.5, np.inf], dtype)
    x = xnp.asarray(a)
    for v in VALUES + [1e-8, 5e-324, 1e-300]:
        with np.errstate(**errstate):
            want, want_warnings = _outcome(lambda: _call(np, name, a, v, first))
            got, got_warnings = _outcome(lambda: _call(xnp, name, x, v, first))
        if isinstance(want, type):
            assert got is want, (name, v, got)
        else:
            got = np.asarray(got)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (name, v, got)
        assert got_warnings == want_warnings, (name, v)


def test_one_program_serves_every_value():
    _replay.clear()
    x = xnp.asarray(np.linspace(0.0, 1.0, 7))
    for i in range(40):
        xnp.hypot(x, 0.25 * i + 0.5)
    st = _replay.stats(xnp.hypot)
    # the first value's own program and the program of any value; no refusal
    assert st == {"programs": 2, "refused": []}, st


def test_floating_point_errors_follow_the_callers_settings_on_generic_replays():
    _replay.clear()
    x = xnp.asarray(np.ones(3, np.float32))
    for v in (0.5, 1.5, 2.5):
        xnp.hypot(x, v)
    with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
        xnp.hypot(x, 1e300)  # (the float's cast into float32, as NumPy's)
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(np.asarray(xnp.hypot(x, 1e300))).all()


def test_with_the_xla_eager_backend_floats_keep_their_exact_keys():
    """The XLA eager backend flushes subnormals and issues no floating-point warnings,
    where NumPy's conversion of the Python float keeps and reports them."""
    _replay.clear()
    a = np.array([1.0, -2.0])
    with xnp.config.override(eager_backend="xla"):
        x = xnp.asarray(a)
        for v in (0.5, 1.5, 1e-320, 2.5):
            np.testing.assert_array_equal(np.asarray(xnp.copysign(v, x)), np.copysign(v, a))
        assert _replay.stats(xnp.copysign)["programs"] <= 4


def test_a_positional_out_keeps_the_exact_path():
    """``hypot(x, v, x)`` writes into ``x``: never run twice to learn a program."""
    _replay.clear()
    a = np.arange(3.0)
    x = xnp.asarray(a.copy())
    for v in (0.5, 1.5, 2.5, 3.5):
        xnp.hypot(x, v, x)
        np.hypot(a, v, a)
        np.testing.assert_array_equal(np.asarray(x), a)


def test_generic_replays_in_threads_are_numpys():
    _replay.clear()
    a = np.linspace(-1.0, 1.0, 5)
    x = xnp.asarray(a)

    bad = []

    def work(k):
        for i in range(50):
            v = 0.37 * i - k
            if np.asarray(xnp.arctan2(x, v)).tobytes() != np.arctan2(a, v).tobytes():
                bad.append((k, v))

    run_threads(work, range(4))
    assert not bad


def test_generic_replays_run_no_python_frame(no_check):
    """The program for any float is found from C (the key of the arguments with each float
    0.0) and its float input made there: no Python frame of xnp."""
    _replay.clear()
    x = xnp.asarray(np.linspace(0.0, 1.0, 5))
    for i in range(4):
        xnp.hypot(x, 0.5 + i)
    out, frames = python_frames(xnp.hypot, x, 7.25)
    np.testing.assert_array_equal(np.asarray(out), np.hypot(np.linspace(0.0, 1.0, 5), 7.25))
    # (a user subclass of xnp.ndarray, which other tests define, makes every ufunc object
    # wrap its results: xnp/ndarray_class.py's frames, not the replay's)
    wrapping = {"wrapped", "_wrap", "_subclass_operands", "<listcomp>"} \
        if ndarray_class._ACTIVE else set()
    assert [f for f in frames if f not in wrapping] == [], frames


def test_generic_programs_are_bounded_and_not_kept_across_an_option_change(monkeypatch):
    """At most MAX_SIGNATURES generic programs per ufunc (a loop over ever-new shapes keeps
    no more), and one learnt while an option changes (enable_x64: the caches are cleared)
    is dropped: the next call is NumPy's under the new option."""
    _replay.clear()
    src = np.linspace(0.0, 1.0, _replay.MAX_SIGNATURES + 20)
    for n in range(1, _replay.MAX_SIGNATURES + 20):
        xn = xnp.asarray(src[:n])
        xnp.arctan2(xn, 0.5)
        xnp.arctan2(xn, 1.5)
    # (the exact keys and the generic ones: at most MAX_SIGNATURES each)
    assert _replay.stats(xnp.arctan2)["programs"] <= 2 * _replay.MAX_SIGNATURES

    _replay.clear()
    x = xnp.asarray(np.arange(3, dtype=np.int32))
    learn = _replay._FloatGeneric._learn

    def learn_then_change(self, *args):
        out = learn(self, *args)
        xnp.config.update("enable_x64", False)  # (clears every cache)
        return out

    monkeypatch.setattr(_replay._FloatGeneric, "_learn", learn_then_change)
    try:
        xnp.add(x, 0.5)
        xnp.add(x, 1.5)  # learns, and the option changes meanwhile
        assert np.asarray(xnp.add(x, 2.5)).dtype == np.float32  # (x64 off: float32)
    finally:
        xnp.config.update("enable_x64", True)


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ufuncs_of_a_signalling_nan_replay_as_their_full_path(name):
    """A logical ufunc tests a Python float's truth itself (no loop sees the float), so
    its calls keep their exact keys: a signalling NaN (bits 0x7ff0000000000001), whose
    cast in a loop signals 'invalid', gives on every call what the full path gives."""
    snan = np.frombuffer(np.array([0x7FF0000000000001], np.uint64).tobytes(), np.float64)[0]
    snan = float(snan)
    x = xnp.asarray(np.array([1.0, 0.0, 2.0]))

    def run():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = np.asarray(getattr(xnp, name)(x, snan))
        return out.tolist(), [str(w.message) for w in caught]

    with xnp.config.override(eager_dispatch_cache=False):
        want = run()
    _replay.clear()
    for v in (0.5, 1.5, 2.5):
        getattr(xnp, name)(x, v)
    for _ in range(2):
        assert run() == want
