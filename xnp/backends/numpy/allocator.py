"""64-byte aligned host memory for eager arrays.

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
"""

from __future__ import annotations

import os

__all__ = ["install", "uninstall", "available", "unavailable_reason", "is_installed",
           "ALIGNMENT"]

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


def _install_at_import() -> None:
    if os.environ.get("XNP_ALIGNED_ALLOCATOR", "1").strip().lower() in ("0", "false", "no", "off"):
        return
    install()


_install_at_import()
