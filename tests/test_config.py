"""xnp.config: option validation, ``watch`` callbacks, and the eager-backend switch seen by
the layers that read the option (tracing.core's eager evaluation, the eager fast path)."""

import numpy as np
import pytest

import xnp
from xnp import config
from xnp.backends.numpy import BACKEND as NUMPY_BACKEND
from xnp.tracing import core
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api._fast_tables import FAST_OPS


def test_unknown_eager_backend_raises_and_changes_nothing():
    before = config.snapshot()
    with pytest.raises(ValueError, match=r"option 'eager_backend' must be one of "
                                         r"\('numpy', 'xla'\), got 'cupy'"):
        config.update("eager_backend", "cupy")
    assert config.get("eager_backend") == "numpy" and config.snapshot() is before
    assert core.eager_backend() is NUMPY_BACKEND and fastpath._TABLE[0] is FAST_OPS
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
    assert fastpath._TABLE[0] is FAST_OPS
    np.testing.assert_array_equal(np.asarray(x * 2.0 + 1.0), np.arange(4.0) * 2 + 1)


def test_default_dtypes_follow_numpy_and_enable_x64():
    from xnp import _default_dtypes as dd

    for x in (True, 3, 2.5, 1j):
        assert dd.python_scalar_dtype(x) == np.asarray(x).dtype  # NumPy's defaults
        assert dd.scalar_to_ndarray(x).dtype == np.asarray(x).dtype
    assert (dd.default_float(), dd.default_int(), dd.default_complex()) == (
        np.float64, np.int64, np.complex128)
    with config.override(enable_x64=False):
        assert [dd.python_scalar_dtype(x) for x in (True, 3, 2.5, 1j)] == [
            np.bool_, np.int32, np.float32, np.complex64]
        assert (dd.default_float(), dd.default_int(), dd.default_complex()) == (
            np.float32, np.int32, np.complex64)
        assert xnp.asarray(2.5).dtype == np.float32  # what the layers above take from it
        with pytest.raises(OverflowError, match="Python integer 4294967296 out of bounds for int32"):
            dd.scalar_to_ndarray(2**32)
        # Python data of asarray/array: int32 or NumPy's OverflowError naming the value, on
        # every call (the repeated ones are replays), never a wrapped value
        for fn in (xnp.asarray, xnp.array):
            for data, bad in (([2**40], 2**40), (2**31, 2**31), ([[1], [-2**31 - 1]], -2**31 - 1)):
                for _ in range(3):
                    with pytest.raises(OverflowError, match=f"xnp.{fn.__name__}: Python integer "
                                                            f"{bad} out of bounds for int32"):
                        fn(data)
            for _ in range(3):
                got = fn([2**31 - 1, -2**31])
                assert got.dtype == np.int32 and got.tolist() == [2**31 - 1, -2**31]
    with pytest.raises(KeyError):
        dd.python_scalar_dtype(np.float32(1))  # not a Python scalar
