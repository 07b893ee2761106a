"""Host memory for eager arrays and for XLA's CPU buffers: 64-byte alignment, and reuse of
large blocks.

jaxlib's CPU client hands a host array to compiled code without a copy only when
the array's data is 64-byte aligned; NumPy's default data allocator gives 16-byte
alignment (large blocks come from ``mmap`` at 16 bytes past a page boundary, so
they are never aligned). xnp therefore installs a NumPy data-memory handler
(``xnp._native._aligned_alloc``, NumPy's per-context ``PyDataMem_SetHandler``
mechanism) that returns 64-byte aligned blocks and gives large blocks the same
huge-page advice as NumPy's own handler.

Scope: NumPy's handler is per Python context, and a new thread starts in a fresh
context, so the handler covers arrays allocated (by NumPy or by xnp) in the thread
that imported xnp, or any thread that calls :func:`install`. An array from another
thread, a view that starts at an unaligned offset, a non-contiguous array or a
read-only one is copied when it is passed to a jitted function (the copy is
reported when the ``log_transfers`` option is on). The handler is left out when
the environment sets ``XNP_ALIGNED_ALLOCATOR=0`` or when the native helper was not
built (no C compiler at install time); eager semantics are the same either way.

Reuse of large blocks: XLA's CPU runtime allocates each output buffer with
``malloc`` on one of its worker threads. glibc serves a large request from a
fresh ``mmap`` there (a thread's arena cannot hold it) and unmaps it on free, so
every call of a jitted function on big arrays pays one page fault per 4 KiB of
output (about 20,000 for 10^7 float64), while NumPy's own big arrays get huge
pages. At import xnp therefore asks glibc (``mallopt``) to serve every thread from
the main arena, to take blocks below 1 GiB from the heap instead of ``mmap`` and
to keep up to 1 GiB of freed memory at the top of the heap: a buffer of the same
size in the next call reuses mapped pages and faults nothing. The price is that
memory freed by big arrays goes back to the operating system later (or not at
all, below that 1 GiB). ``XNP_REUSE_HOST_MEMORY=0`` in the environment leaves
glibc's defaults; other C libraries are left alone.
"""

from __future__ import annotations

import ctypes
import os
import platform

__all__ = ["install", "uninstall", "available", "unavailable_reason", "is_installed",
           "ALIGNMENT", "host_memory_reuse"]

ALIGNMENT = 64

try:
    from xnp._native import _aligned_alloc as _native
except ImportError as _e:  # built optionally: see setup.py
    _native = None
    _REASON = f"the native helper xnp._native._aligned_alloc is not built ({_e})"
else:
    _REASON = None

_PREVIOUS: list = []  # handlers replaced by install(), restored by uninstall()


def available() -> bool:
    """Whether the aligned handler can be installed in this build."""
    return _native is not None


def unavailable_reason() -> str | None:
    """Why :func:`available` is False, or None."""
    return _REASON


def is_installed() -> bool:
    """Whether NumPy allocates through the aligned handler in the current context."""
    from numpy._core.multiarray import get_handler_name  # noqa: PLC0415  (private home)

    return get_handler_name() == "xnp_aligned64"


def install() -> bool:
    """Make the aligned handler NumPy's data allocator in the current context (thread).

    Returns True when it is installed afterwards, False when the native helper is
    unavailable. Installing twice is harmless. Arrays allocated before keep the
    handler that allocated them (NumPy frees each block with its own handler).
    """
    if _native is None:
        return False
    if not is_installed():
        _PREVIOUS.append(_native.install())
    return True


def uninstall() -> None:
    """Restore the handler that :func:`install` replaced in this context (if any)."""
    if _native is not None and _PREVIOUS and is_installed():
        _native.restore(_PREVIOUS.pop())


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_REUSE_LIMIT = 1 << 30
_REUSE: list = [False]


def host_memory_reuse() -> bool:
    """Whether glibc was set up at import to reuse large freed blocks (see the module notes)."""
    return _REUSE[0]


def _set_up_reuse() -> None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    ok = libc.mallopt(_M_MMAP_THRESHOLD, _REUSE_LIMIT) and libc.mallopt(_M_TRIM_THRESHOLD,
                                                                         _REUSE_LIMIT)
    _REUSE[0] = bool(ok)


def _off(name: str) -> bool:
    return os.environ.get(name, "1").strip().lower() in ("0", "false", "no", "off")


def _set_up_at_import() -> None:
    if not _off("XNP_REUSE_HOST_MEMORY"):
        _set_up_reuse()
    if not _off("XNP_ALIGNED_ALLOCATOR"):
        install()


_set_up_at_import()
