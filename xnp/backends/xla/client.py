"""The only module that drives jaxlib's PJRT runtime: client creation, compile,
host->device puts, execution and device->host reads (see xla-runtime facts).

jaxlib's Python surface moves between releases; version differences are
handled here and nowhere else.
"""

from __future__ import annotations

import gc
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import jaxlib  # noqa: E402
import jaxlib.cpu_feature_guard as _cpu_feature_guard  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jaxlib import _jax  # noqa: E402
from jaxlib import xla_client as xc  # noqa: E402

from xnp.backends.xla import mlir  # noqa: E402

__all__ = ["Client", "get_client", "JAXLIB_VERSION", "XlaRuntimeError"]

JAXLIB_VERSION = tuple(int(p) for p in jaxlib.__version__.split(".")[:3])
XlaRuntimeError = getattr(_jax, "XlaRuntimeError", RuntimeError)

# dtypes whose host view through the buffer protocol is wrong (object arrays)
_NEEDS_EXPLICIT_D2H = frozenset(np.dtype(t) for t in (
    ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))

if not hasattr(xc.SingleDeviceSharding, "_to_xla_hlo_sharding"):  # jaxlib 0.10.x only
    xc.SingleDeviceSharding._to_xla_hlo_sharding = lambda self, nd: xc.HloSharding.replicate()


class _PutAval:
    """The aval object jaxlib stores on a buffer (needs shape, dtype, weak_type)."""

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = weak_type


class Client:
    """A PJRT client for one platform (CPU now; GPU/TPU plugins when installed)."""

    def __init__(self, platform: str = "cpu"):
        if platform != "cpu":
            raise NotImplementedError(f"xnp: XLA platform {platform!r} is not wired up yet")
        _cpu_feature_guard.check_cpu_features()
        self.platform = platform
        self.client = xc.make_cpu_client()
        self.device = self.client.devices()[0]
        self.devices = xc.DeviceList((self.device,))
        self.sharding = xc.SingleDeviceSharding(self.device)
        gc.callbacks.append(_collect_garbage)
        self._handlers: dict = {}

    # -- compile
    def compile(self, module_text: str, compile_options=None):
        """Compile a StableHLO module (text) to a loaded executable."""
        module = mlir.parse(module_text)
        opts = compile_options or xc.CompileOptions()
        return self.client.compile_and_load(module, self.devices, opts)

    # -- transfers
    def put(self, x: np.ndarray):
        """Copy a host array to the device (the runtime's fast put path)."""
        return xc.batched_device_put(
            _PutAval(x.shape, x.dtype), self.sharding, [x], [self.device], True, False,
            xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL, enable_x64=True)

    def result_handler(self, aval):
        key = (aval.shape, aval.dtype, aval.weak_type)
        h = self._handlers.get(key)
        if h is None:
            pa = _PutAval(aval.shape, aval.dtype, aval.weak_type)
            if JAXLIB_VERSION < (0, 11, 0):
                h = xc.array_result_handler(pa, self.sharding, True, _skip_checks=True)
            else:
                h = xc.array_result_handler(pa, self.sharding, True)
            self._handlers[key] = h
        return h

    @staticmethod
    def execute(executable, buffers, handlers):
        return executable.execute_sharded(buffers).consume_with_handlers(handlers)


def to_host(buf) -> np.ndarray:
    """A read-only host view of a device buffer (zero-copy for standard dtypes on CPU).

    Raises
    ------
    RuntimeError
        The buffer was donated to a jitted call or deleted.
    """
    if buf is DONATED:
        raise RuntimeError(
            "xnp: this array was donated to a jitted call (donate_argnums) and is no longer valid.")
    if buf.is_deleted():
        raise RuntimeError("xnp: the device buffer behind this array has been deleted or donated.")
    if buf.aval.dtype in _NEEDS_EXPLICIT_D2H:
        if hasattr(buf, "_to_np_array_did_copy"):
            return buf._to_np_array_did_copy()[0]
        return buf._single_device_array_to_np_array_did_copy()[0]
    buf.block_until_ready()
    return np.asarray(buf)


class _Donated:
    def __repr__(self):
        return "<donated buffer>"


DONATED = _Donated()


def _collect_garbage(*_):
    _jax.collect_garbage()


_CLIENTS: dict = {}


def get_client(platform: str = "cpu") -> Client:
    c = _CLIENTS.get(platform)
    if c is None:
        c = _CLIENTS[platform] = Client(platform)
    return c


def compile_options(opt_level: int | None = None):
    o = xc.CompileOptions()
    if opt_level is not None:
        o.executable_build_options.debug_options.xla_backend_optimization_level = opt_level
    return o
