"""How big an array may be: the one check every shape goes through before it is allocated
or lowered.

Two limits, checked on static shapes (eagerly and under ``jit`` alike, before anything
reaches NumPy or XLA, whose size overflows abort the process):

* **int64.** NumPy's rule: the byte size, ``itemsize`` times the product of the non-zero
  dimensions, must fit in int64 (``2**63 - 1``); a negative dimension is never allowed.
  Otherwise ``ValueError`` (NumPy: "array is too big"). XLA counts sizes in int64 too.
* **memory.** An array of more bytes than the machine's memory (:func:`machine_memory`:
  physical RAM, or the cgroup limit of the process when that is lower) cannot be held:
  ``MemoryError``, where NumPy's allocation would fail. The limit is fixed for the process,
  so whether a shape passes does not depend on what else happens to be running.
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["MAX_ARRAY_BYTES", "check_array_size", "check_result_sizes", "machine_memory",
           "format_bytes"]

#: the largest byte size of an array (NumPy's ``intp`` and XLA's sizes are int64)
MAX_ARRAY_BYTES = 2**63 - 1

_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


def _read_machine_memory() -> int:
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: no memory check
        total = MAX_ARRAY_BYTES
    for path in _CGROUP_LIMITS:
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit():  # "max" means no limit
            total = min(total, int(text))
    return max(total, 1)


_MACHINE_MEMORY = _read_machine_memory()


def machine_memory() -> int:
    """Bytes of memory an array may take: the machine's physical RAM, or the memory limit
    of the process's cgroup when that is lower (read once, at import)."""
    return _MACHINE_MEMORY


def format_bytes(n: int) -> str:
    """``n`` bytes in binary units, as NumPy prints them: ``8.00 TiB``, ``512 B``."""
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"):
        n /= 1024
        if n < 1024 or unit == "YiB":
            return f"{n:.3g} {unit}" if n >= 100 else f"{n:.2f} {unit}"
    raise AssertionError("internal error in xnp: format_bytes")  # pragma: no cover


def _byte_count(shape, itemsize: int) -> int:
    """NumPy's count: ``itemsize`` times the non-zero dimensions (a zero-size array still
    must not have a shape whose other dimensions overflow)."""
    n = itemsize
    for d in shape:
        if d:
            n *= d
    return n


def check_array_size(fname: str, shape, dtype, *, argname: str | None = "shape",
                     allocates: bool = True) -> None:
    """Raise unless an array of ``shape`` and ``dtype`` can exist (and, with ``allocates``,
    fit in memory). ``fname`` is the public name (``"zeros"`` -> ``xnp.zeros``), ``argname``
    the argument that decided the shape (None: the result of primitive ``fname``); both
    appear in the message.

    Raises
    ------
    ValueError
        A negative dimension, or a byte size beyond int64 (:data:`MAX_ARRAY_BYTES`).
    MemoryError
        ``allocates`` and the array needs more than :func:`machine_memory` bytes.
    """
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    what = (f"the result of shape {shape} and dtype {dtype.name}" if argname is None else
            f"an array of shape {shape} and dtype {dtype.name} (from `{argname}`)")
    if any(d < 0 for d in shape):
        raise ValueError(f"xnp.{fname}: negative dimensions are not allowed, got {what}.")
    nbytes = _byte_count(shape, dtype.itemsize)
    if nbytes > MAX_ARRAY_BYTES:
        raise ValueError(
            f"xnp.{fname}: {what} is too big: {dtype.itemsize} bytes times the dimensions is "
            f"{nbytes} bytes, beyond the largest array size, 2**63 - 1 bytes (int64).")
    if allocates and nbytes > _MACHINE_MEMORY and 0 not in shape:
        raise MemoryError(
            f"xnp.{fname}: unable to allocate {format_bytes(nbytes)} for {what}: more than "
            f"this machine's {format_bytes(_MACHINE_MEMORY)} of memory.")


def check_result_sizes(name: str, avals, allocates: bool = True, staging=None) -> None:
    """:func:`check_array_size` on the result avals of primitive ``name`` (the shape rule's
    output, before the result is computed or staged). Cheap when every size is fine.

    ``staging`` (a function, called only for a result bigger than memory) says whether the
    result is being staged into a compiled program: then only the int64 limit applies,
    because XLA fuses intermediates it never allocates (``(x[:, None] * x).sum()``); what
    a compiled program does allocate is checked after compiling."""
    for aval in avals:
        n = aval.dtype.itemsize
        for d in aval.shape:
            if d > 0:
                n *= d
            elif d < 0:
                n = MAX_ARRAY_BYTES + 1
                break
        if n > (_MACHINE_MEMORY if allocates else MAX_ARRAY_BYTES):
            if allocates and n <= MAX_ARRAY_BYTES and staging is not None and staging():
                continue
            check_array_size(f"lax.{name}", aval.shape, aval.dtype, argname=None,
                             allocates=allocates)
