"""xnp.config: option validation, ``watch`` callbacks, and the eager-backend switch seen by
the layers that read the option (tracing.core's eager evaluation, the eager fast path)."""

import numpy as np
import pytest

import xnp
from xnp import config
from xnp.backends.numpy import BACKEND as NUMPY_BACKEND
from xnp.tracing import core, fastpath


def test_unknown_eager_backend_raises_and_changes_nothing():
    before = config.snapshot()
    with pytest.raises(ValueError, match=r"option 'eager_backend' must be one of "
                                         r"\('numpy', 'xla'\), got 'cupy'"):
        config.update("eager_backend", "cupy")
    assert config.get("eager_backend") == "numpy" and config.snapshot() is before
    assert core.eager_backend() is NUMPY_BACKEND and fastpath._TABLE[0] is NUMPY_BACKEND.fast_ops
    with pytest.raises(TypeError, match="takes a str"):
        config.update("eager_backend", 1)


def test_watch_is_called_after_each_update_with_the_new_value():
    seen = []
    config.watch("log_transfers", lambda v: seen.append((v, config.get("log_transfers"))))
    try:
        with config.override(log_transfers=True):
            assert seen == [(True, True)]
        assert seen == [(True, True), (False, False)]
        config.update("log_transfers", False)  # unchanged: still reported
        assert seen[-1] == (False, False) and len(seen) == 3
    finally:
        config._WATCHERS["log_transfers"].pop()
    with pytest.raises(KeyError, match="unknown option 'no_such_option'"):
        config.watch("no_such_option", print)


def test_eager_backend_switch_reaches_eager_evaluation_and_the_fast_path():
    x = xnp.asarray(np.arange(4.0))
    with config.override(eager_backend="xla"):
        assert core.eager_backend().name == "xla"
        assert fastpath._TABLE[0] == {}
        y = x * 2.0 + 1.0
        assert type(y._value) is np.ndarray
        np.testing.assert_array_equal(np.asarray(y), np.arange(4.0) * 2 + 1)
    assert core.eager_backend() is NUMPY_BACKEND
    assert fastpath._TABLE[0] is NUMPY_BACKEND.fast_ops
    np.testing.assert_array_equal(np.asarray(x * 2.0 + 1.0), np.arange(4.0) * 2 + 1)
