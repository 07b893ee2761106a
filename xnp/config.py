"""xnp's runtime options: read from the environment once, then changed only
through :func:`update` or the :func:`override` context manager.

Options
-------
enable_x64 : bool (env ``XNP_ENABLE_X64``, default True)
    Default dtypes are 64-bit (NumPy's). When False, Python scalars and
    default-dtype creation functions use 32-bit types; an explicitly requested
    64-bit dtype is still honoured, never silently narrowed.
log_compiles : bool (env ``XNP_LOG_COMPILES``, default False)
    Print one line per jit compilation, with the reason for a retrace.
jit_cache_size : int (default 4096)
    Compiled entries kept per jitted function (least recently used dropped).
eager_backend : str (default "numpy")
    The backend that runs eager operations.

The snapshot of all options (:func:`snapshot`) is part of every jit cache key.
"""

from __future__ import annotations

import contextlib
import os

__all__ = ["update", "get", "override", "snapshot"]


def _env_bool(name: str, default: bool) -> bool:
    v = os.environ.get(name)
    if v is None:
        return default
    return v.strip().lower() in ("1", "true", "yes", "on")


_OPTIONS = {
    "enable_x64": _env_bool("XNP_ENABLE_X64", True),
    "log_compiles": _env_bool("XNP_LOG_COMPILES", False),
    "jit_cache_size": 4096,
    "eager_backend": "numpy",
}
_TYPES = {"enable_x64": bool, "log_compiles": bool, "jit_cache_size": int, "eager_backend": str}
_SNAPSHOT = [None]


def get(name: str):
    """Current value of option ``name`` (``KeyError`` naming the known options if unknown)."""
    try:
        return _OPTIONS[name]
    except KeyError:
        raise KeyError(f"xnp.config: unknown option {name!r}; known: {sorted(_OPTIONS)}") from None


def update(name: str, value) -> None:
    """Set option ``name`` to ``value``.

    Raises
    ------
    KeyError
        Unknown option.
    TypeError
        ``value`` has the wrong type for the option.
    """
    get(name)
    if not isinstance(value, _TYPES[name]):
        raise TypeError(f"xnp.config: option {name!r} takes a {_TYPES[name].__name__}, got {value!r}")
    if name == "eager_backend":
        from xnp.tracing import core  # noqa: PLC0415

        core.eager_backend(value)  # validates
        core._DEFAULT_EAGER[0] = value
        from xnp.tracing import fastpath  # noqa: PLC0415

        fastpath.refresh()
    _OPTIONS[name] = value
    _SNAPSHOT[0] = None


def snapshot() -> tuple:
    """A hashable tuple of every option, for cache keys."""
    s = _SNAPSHOT[0]
    if s is None:
        s = _SNAPSHOT[0] = tuple(sorted(_OPTIONS.items()))
    return s


@contextlib.contextmanager
def override(**options):
    """Temporarily set options: ``with xnp.config.override(log_compiles=True): ...``."""
    old = {k: get(k) for k in options}
    try:
        for k, v in options.items():
            update(k, v)
        yield
    finally:
        for k, v in old.items():
            update(k, v)
