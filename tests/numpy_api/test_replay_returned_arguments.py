"""The eager dispatch cache on calls that bind no primitive.

A call that returns its own argument arrays as they are (NumPy's ``squeeze(a) is a``) is
replayed: the replay returns the same objects, as the full path and NumPy do. A call that
binds nothing and returns anything else (a shape, a Python value) may have done what a
replay would not repeat, and keeps its full path.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import xnp
from xnp.numpy_api import _replay

# (name, call on a module, input) where NumPy returns the argument itself
RETURNS_ITS_ARGUMENT = [
    ("squeeze", lambda m, a: m.squeeze(a), np.arange(6.0).reshape(2, 3)),
    ("atleast_1d", lambda m, a: m.atleast_1d(a), np.arange(3, dtype=np.int32)),
    ("atleast_2d", lambda m, a: m.atleast_2d(a), np.arange(6.0).reshape(2, 3)),
    ("atleast_3d", lambda m, a: m.atleast_3d(a), np.ones((2, 1, 3), np.float32)),
    ("ascontiguousarray", lambda m, a: m.ascontiguousarray(a), np.arange(6.0).reshape(2, 3)),
    ("real", lambda m, a: m.real(a), np.arange(4.0)),
]


@pytest.mark.parametrize("name,call,value", RETURNS_ITS_ARGUMENT,
                         ids=[c[0] for c in RETURNS_ITS_ARGUMENT])
def test_a_call_returning_its_argument_replays_and_returns_it(name, call, value):
    assert call(np, value) is value  # the oracle: NumPy returns the argument itself
    _replay.clear()
    for _ in range(3):
        x = xnp.asarray(value.copy())
        out = call(xnp, x)
        assert out is x
        np.testing.assert_array_equal(np.asarray(out), value)
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}


def test_another_signature_of_the_same_function_is_its_own_call():
    # squeeze of a (3, 1) array removes an axis: a view, not the argument
    _replay.clear()
    for _ in range(3):
        x = xnp.asarray(np.arange(6.0).reshape(2, 3))
        assert xnp.squeeze(x) is x
        y = xnp.asarray(np.arange(3.0).reshape(3, 1))
        s = xnp.squeeze(y)
        assert s is not y and s.shape == (3,)
        assert np.shares_memory(np.asarray(s), np.asarray(y))
        np.testing.assert_array_equal(np.asarray(s), np.arange(3.0))


def test_a_tuple_of_its_arguments_replays_as_a_new_tuple():
    a, b = np.arange(3.0), np.arange(4, dtype=np.int64)
    want = np.atleast_1d(a, b)
    _replay.clear()
    outs = []
    for _ in range(3):
        x, y = xnp.asarray(a), xnp.asarray(b)
        got = xnp.atleast_1d(x, y)
        assert type(got) is type(want) and got[0] is x and got[1] is y
        outs.append(got)
    assert outs[1] is not outs[2]  # a new container each call
    assert _replay.stats(xnp.atleast_1d) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name", ["shape", "ndim", "size"])
def test_a_call_binding_nothing_and_returning_a_value_keeps_its_full_path(name):
    _replay.clear()
    x = xnp.ones((2, 3))
    for _ in range(3):
        assert getattr(xnp, name)(x) == getattr(np, name)(np.ones((2, 3)))
    assert _replay.stats(getattr(xnp, name))["refused"] == ["bound no primitive"]


@pytest.fixture
def no_check():
    """Check mode off (it runs the full path again after each replay: more frames)."""
    was = _replay._CHECK[0]
    _replay.check_replays(False)
    yield
    _replay.check_replays(was)


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_a_replay_returning_its_argument_runs_no_python_frame_of_its_own(no_check):
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    for _ in range(3):
        xnp.ascontiguousarray(x)
    frames = []

    def profile(frame, event, arg):
        if event == "call":
            frames.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        out = xnp.ascontiguousarray(x)
    finally:
        sys.setprofile(None)
    assert out is x
    assert frames == [], frames
