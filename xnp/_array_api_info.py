"""The Array API inspection namespace (``__array_namespace_info__``) and ``from_dlpack``.

``xnp.__array_api_version__`` is the version set by the ``array_api_version``
option (``xnp.config``; "2025.12" unless ``XNP_ARRAY_API_VERSION`` says otherwise).
"""

from __future__ import annotations

import numpy as np

from xnp import config
from xnp.numpy_api._util import api_sequence
from xnp.numpy_api.creation import _is_cpu_device, asarray
from xnp.numpy_api.dtypes import isdtype
from xnp.tracing import core

__all__ = ["Info", "__array_namespace_info__", "from_dlpack", "check_api_version", "CPU_DEVICE"]

# the standard's dtypes, in the standard's order (xnp has more: float16, bfloat16, float8)
_STANDARD_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                    "uint64", "float32", "float64", "complex64", "complex128")


class _Device:
    """The device an array lives on (``cpu:0`` for the NumPy backend)."""

    platform = "cpu"
    id = 0

    def __repr__(self):
        return "CpuDevice(id=0)"

    def __str__(self):
        return "cpu:0"

    def __eq__(self, other):
        # the host CPU: NumPy's arrays report it as the string "cpu", so an xnp array and
        # a NumPy array mixed by a library (scikit-learn's device checks) agree; and
        # xnp.devices()[0], the same device as an XLA device object
        if isinstance(other, str):
            return other in ("cpu", "cpu:0")
        return isinstance(other, _Device) or (getattr(other, "platform", None) == "cpu"
                                              and getattr(other, "id", None) == 0)

    def __hash__(self):
        return hash("cpu")


CPU_DEVICE = _Device()


def check_api_version(fname: str, api_version) -> None:
    """Raise ``ValueError`` unless ``api_version`` is None or a version xnp can present."""
    if api_version is not None and api_version not in config.ARRAY_API_VERSIONS:
        raise ValueError(
            f"{fname}: api_version={api_version!r} is not supported; xnp implements the "
            f"Array API standard versions {', '.join(config.ARRAY_API_VERSIONS)}")


def _check_device(fname: str, device) -> None:
    if device is not None and not _is_cpu_device(device):
        raise ValueError(f"xnp.__array_namespace_info__().{fname}: unknown device {device!r}; "
                         f"the only device is {CPU_DEVICE}")


class Info:
    """What ``xnp.__array_namespace_info__()`` returns: the Array API inspection functions.

    Eager xnp arrays are NumPy arrays on the CPU, so the CPU is the only device
    an array can live on (``jit`` compiles for the inputs' device).
    """

    __module__ = "xnp"

    def __reduce__(self):  # pickles as the call that makes it (it holds no state)
        return (__array_namespace_info__, ())

    def capabilities(self) -> dict:
        """The optional features xnp supports.

        Boolean indexing and data-dependent output shapes (``nonzero``,
        ``unique_*``, ``x[mask]``) work eagerly, as in NumPy; under ``jit`` they
        raise, since a traced array's shape must be known when it is traced. So both
        are reported False while a transformation (``jit``, ``vmap``, ``grad``) is
        tracing the caller: libraries that ask (array-api-extra's ``apply_where``,
        used by ``scipy.stats.pearsonr``) then take their ``where`` path.
        """
        eager = type(core.current_trace()) is core.EvalTrace
        return {"boolean indexing": eager, "data-dependent shapes": eager,
                "max dimensions": 64}

    def default_device(self):
        """The device new arrays are created on: the CPU."""
        return CPU_DEVICE

    def devices(self):
        """The devices arrays can live on (a tuple; a list before 2025.12): the CPU
        device 0, and the other devices of ``xnp.devices()`` when several are configured
        (``XNP_NUM_CPU_DEVICES``, ``xnp.distributed``)."""
        if config.get("num_cpu_devices") == 1:
            return api_sequence([CPU_DEVICE])
        from xnp import sharding  # noqa: PLC0415  (starts the XLA client)

        return api_sequence([CPU_DEVICE] + [d for d in sharding.devices() if d != CPU_DEVICE])

    def default_dtypes(self, *, device=None) -> dict:
        """The default dtypes: 64-bit, or 32-bit with ``enable_x64`` off.

        Keys are "real floating", "complex floating", "integral" and "indexing"
        (the dtype of ``argmax``, ``nonzero`` and ``arange`` results); values are
        ``numpy.dtype`` objects. ``ValueError`` for an unknown ``device``.
        """
        _check_device("default_dtypes", device)
        wide = config.get("enable_x64")
        return {
            "real floating": np.dtype(np.float64 if wide else np.float32),
            "complex floating": np.dtype(np.complex128 if wide else np.complex64),
            "integral": np.dtype(np.int64 if wide else np.int32),
            "indexing": np.dtype(np.int64 if wide else np.int32),
        }

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The standard's dtypes xnp supports, by name, optionally of one ``kind``.

        ``kind`` is None (all), a kind name ("bool", "signed integer",
        "unsigned integer", "integral", "real floating", "complex floating",
        "numeric") or a tuple of them, as in ``xnp.isdtype``. Every dtype is
        supported whatever ``enable_x64`` says (an explicitly requested 64-bit
        dtype is honoured). ``ValueError`` for an unknown ``device`` or kind.
        """
        _check_device("dtypes", device)
        out = {}
        for name in _STANDARD_DTYPES:
            dt = np.dtype(name)
            if kind is None or isdtype(dt, kind):
                out[name] = dt
        return out

    def __repr__(self):
        return "xnp.__array_namespace_info__()"


def __array_namespace_info__() -> Info:
    """The Array API inspection namespace: capabilities, devices and dtypes of xnp."""
    return Info()


def from_dlpack(x, /, *, device=None, copy=None):
    """An xnp array from any object with ``__dlpack__`` (NumPy, CuPy, torch, ... arrays).

    Parameters
    ----------
    x : object with ``__dlpack__`` and ``__dlpack_device__``
        An xnp array is returned as ``xnp.asarray(x, copy=copy)`` would.
    device : None or the CPU device
        Where the result lives; xnp arrays live on the CPU, so ``None`` means the
        CPU too: data on another device is copied there when its producer can
        (DLPack 1.0), otherwise ``BufferError``.
    copy : bool or None
        True: always copy. False: never copy (``BufferError`` if the producer
        cannot share its memory). None: share when possible.

    Returns
    -------
    Array
        Shape and dtype of ``x``; shares ``x``'s memory unless copied.

    Raises
    ------
    ValueError
        ``device`` is not the CPU.
    BufferError, TypeError
        From the producer, as ``numpy.from_dlpack`` raises them.
    """
    if device is not None and not _is_cpu_device(device):
        raise ValueError(f"xnp.from_dlpack: unknown device {device!r}; the only device is "
                         f"{CPU_DEVICE}")
    if type(x) is core.Array or isinstance(x, core.Tracer):
        return asarray(x, copy=copy)
    host = np.from_dlpack(x, device="cpu", copy=copy)
    return core.Array(host)
