"""How an eager array hands its memory to other code: ``__array__``, ``tobytes``, the buffer
protocol (``_buffer_memory``, exported by ``xnp/_native/array_base.c``; ``__bytes__``) and
DLPack. :func:`xnp.array.install` puts them on ``Array`` (``EAGER_PROTOCOLS``)."""

from __future__ import annotations

import numpy as np

__all__ = ["array", "tobytes", "buffer_memory", "to_bytes", "dlpack", "dlpack_device"]


def array(self, dtype=None, copy=None):
    v = self._value
    if dtype is not None and np.dtype(dtype) != v.dtype:
        if copy is False:  # NumPy's protocol: refuse what needs a copy
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return v.astype(dtype)
    if copy:  # (NumPy's copy keeps the memory order: a transpose's copy is F-ordered)
        return v.copy(order="K")
    return v


def tobytes(self, order="C"):
    return self._value.tobytes(order)


def buffer_memory(self, flags):
    # the NumPy array whose buffer the buffer protocol exports (xnp/_native/array_base.c):
    # writable (a jit output copied first) when the request asks for it (PyBUF_WRITABLE, 1);
    # a buffer format cannot carry a dtype's metadata, so with a format (PyBUF_FORMAT, 4) a
    # dtype with metadata is refused and NumPy's conversion falls back to __array__
    v = self._writable_value() if flags & 1 else self._value
    if flags & 4 and v.dtype.metadata is not None:
        raise BufferError(f"xnp.ndarray: an array of dtype {v.dtype!r} with metadata has no "
                          "buffer format that keeps it; use a.tobytes() or numpy.asarray(a)")
    return v


def to_bytes(self):
    # NumPy's bytes(a) of its array (the buffer's bytes in C order; its errors for a dtype
    # without a buffer), also for the dtypes whose buffer xnp does not export with a format
    return bytes(self._value)


def dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    kwargs = {}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is not None:
        kwargs["copy"] = copy
    value = self._value
    if (not value.flags.writeable and copy is None
            and (max_version is None or tuple(max_version) < (1, 0))):
        # A jit output's host view is read-only, which DLPack before 1.0 cannot say:
        # export a copy (copy=None allows it), as an eager array exports its memory.
        value = value.copy()
    return value.__dlpack__(**kwargs)


def dlpack_device(self):
    return self._value.__dlpack_device__()
