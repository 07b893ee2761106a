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
log_transfers : bool (env ``XNP_LOG_TRANSFERS``, default False)
    Print a line whenever a jitted call copies an argument to the device instead of
    aliasing its host memory, with the reason (not contiguous, not 64-byte aligned,
    read-only, a dtype XLA stores differently).
jit_cache_size : int (default 4096)
    Traced entries kept per jitted function (least recently used dropped); their
    executables are kept as ``executable_cache_size`` says.
eager_backend : str (default "numpy")
    The backend that runs eager operations: "numpy", or "xla" (each primitive through
    a cached one-equation XLA executable, to test the compiled path). One of
    ``EAGER_BACKENDS``.
executable_cache_size : int (default 256)
    Compiled XLA executables kept in memory across all jitted functions (least
    recently called dropped), so an equal program staged by another ``jit`` wrapper
    is not compiled again. It bounds what jitted functions keep alive too: a jit
    cache entry whose executable is dropped keeps its trace and compiles again (or
    loads from ``compilation_cache_dir``) on its next call. 0 keeps none: every
    jitted call compiles.
compilation_cache_dir : str or None (env ``XNP_COMPILATION_CACHE_DIR``, default None)
    Directory of the persistent compilation cache: compiled executables are
    written there and loaded by later processes instead of compiling again.
    None turns it off. Entries are loaded as native code, so point it only at a
    directory that you and other trusted users write.
num_cpu_devices : int (env ``XNP_NUM_CPU_DEVICES``, default 1)
    How many CPU devices the XLA client has (``xnp.devices()``), for sharded programs
    (``xnp.sharding``) on one host. Read when the client is created (the first jitted
    call or ``xnp.devices()``); changing it afterwards raises ``RuntimeError``.
array_api_version : str (env ``XNP_ARRAY_API_VERSION``, default "2025.12")
    The Array API standard version xnp presents: ``xnp.__array_api_version__``
    and what ``xnp.__array_namespace_info__()`` returns where versions differ
    (``devices()`` is a list before 2025.12, a tuple from it). One of
    ``ARRAY_API_VERSIONS``.
eager_dispatch_cache : bool (env ``XNP_EAGER_DISPATCH_CACHE``, default True)
    Eager calls of xnp's NumPy functions replay what the function did for the same
    argument signature (dtypes, shapes, scalars) instead of running its Python layers
    again (``xnp/numpy_api/_replay.py``). False runs every call through its full path.

The snapshot of the options that can change what is traced (:func:`snapshot`) is
part of every jit cache key; options such as ``executable_cache_size`` and
``compilation_cache_dir``, which only say where compiled code is kept, are left out.

Code that keeps state derived from an option reads the option when it needs it, or
registers with :func:`watch` to be called after each change; this module imports no
other part of xnp.
"""

from __future__ import annotations

import contextlib
import os
import threading

__all__ = ["update", "get", "override", "snapshot", "freeze", "watch", "ARRAY_API_VERSIONS",
           "EAGER_BACKENDS"]

#: The Array API standard versions xnp can present (``array_api_version``), oldest first.
ARRAY_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
#: The eager backends (``eager_backend``).
EAGER_BACKENDS = ("numpy", "xla")


def _env_bool(name: str, default: bool) -> bool:
    v = os.environ.get(name)
    if v is None:
        return default
    return v.strip().lower() in ("1", "true", "yes", "on")


def _env_int(name: str, default: int) -> int:
    v = os.environ.get(name, "").strip()
    if not v:
        return default
    try:
        n = int(v)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"xnp.config: {name} must be a positive integer, got {v!r}")
    return n


def _env_path(name: str) -> str | None:
    v = os.environ.get(name, "").strip()
    return v or None


_OPTIONS = {
    "enable_x64": _env_bool("XNP_ENABLE_X64", True),
    "log_compiles": _env_bool("XNP_LOG_COMPILES", False),
    "log_transfers": _env_bool("XNP_LOG_TRANSFERS", False),
    "jit_cache_size": 4096,
    "eager_backend": "numpy",
    "executable_cache_size": 256,
    "compilation_cache_dir": _env_path("XNP_COMPILATION_CACHE_DIR"),
    "array_api_version": os.environ.get("XNP_ARRAY_API_VERSION", "").strip() or "2025.12",
    "num_cpu_devices": _env_int("XNP_NUM_CPU_DEVICES", 1),
    "eager_dispatch_cache": _env_bool("XNP_EAGER_DISPATCH_CACHE", True),
}
if _OPTIONS["array_api_version"] not in ARRAY_API_VERSIONS:
    raise ValueError(f"xnp.config: XNP_ARRAY_API_VERSION must be one of {ARRAY_API_VERSIONS}, "
                     f"got {_OPTIONS['array_api_version']!r}")
_TYPES = {"enable_x64": bool, "log_compiles": bool, "log_transfers": bool, "jit_cache_size": int,
          "eager_backend": str,
          "executable_cache_size": int, "compilation_cache_dir": (str, os.PathLike, type(None)),
          "array_api_version": str, "num_cpu_devices": int, "eager_dispatch_cache": bool}
# options that do not change what is traced: left out of snapshot()
_NOT_IN_SNAPSHOT = frozenset({"log_transfers", "executable_cache_size", "compilation_cache_dir",
                              "num_cpu_devices", "eager_dispatch_cache"})
# options read once by something already created (name -> what read it): fixed from then on
_FROZEN: dict = {}
# option name -> the callbacks registered with watch(), called after each update
_WATCHERS: dict = {}
_SNAPSHOT = [None]
_SNAPSHOT_LOCK = threading.Lock()


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
    ValueError
        ``executable_cache_size`` is negative, ``num_cpu_devices`` is below 1,
        ``array_api_version`` is not one of ``ARRAY_API_VERSIONS``, or ``eager_backend``
        not one of ``EAGER_BACKENDS``.
    RuntimeError
        ``num_cpu_devices`` is changed after the XLA client was created.
    """
    get(name)
    types = _TYPES[name]
    if not isinstance(value, types) or (types is int and isinstance(value, bool)):
        kinds = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise TypeError(f"xnp.config: option {name!r} takes a {kinds}, got {value!r}")
    if name == "executable_cache_size" and value < 0:
        raise ValueError(f"xnp.config: option {name!r} must be >= 0, got {value!r}")
    if name == "num_cpu_devices" and value < 1:
        raise ValueError(f"xnp.config: option {name!r} must be >= 1, got {value!r}")
    if name in _FROZEN and value != _OPTIONS[name]:
        raise RuntimeError(
            f"xnp.config: option {name!r} cannot change to {value!r}: {_FROZEN[name]} was "
            f"already created with {_OPTIONS[name]!r}. Set it before the first jitted call "
            f"or xnp.devices() (or in the environment, XNP_{name.upper()}).")
    if name == "array_api_version" and value not in ARRAY_API_VERSIONS:
        raise ValueError(f"xnp.config: option {name!r} must be one of {ARRAY_API_VERSIONS}, "
                         f"got {value!r}")
    if name == "eager_backend" and value not in EAGER_BACKENDS:
        raise ValueError(f"xnp.config: option {name!r} must be one of {EAGER_BACKENDS}, "
                         f"got {value!r}")
    if name == "compilation_cache_dir" and value is not None:
        value = os.fspath(value)
    _OPTIONS[name] = value
    if name not in _NOT_IN_SNAPSHOT:
        with _SNAPSHOT_LOCK:
            _SNAPSHOT[0] = None
    for callback in _WATCHERS.get(name, ()):
        callback(value)


def watch(name: str, callback) -> None:
    """Call ``callback(value)`` after every :func:`update` of option ``name`` (also one that
    leaves it unchanged), with the new value; ``callback`` reads any other state it needs
    itself. The callbacks of an option run in the order they were registered, and an
    exception from one propagates out of :func:`update` (the option is already set).

    Raises
    ------
    KeyError
        Unknown option.
    """
    get(name)
    _WATCHERS.setdefault(name, []).append(callback)


def freeze(name: str, by: str) -> None:
    """Fix option ``name`` from now on: ``by`` (e.g. "the XLA client") has read it;
    :func:`update` to another value raises ``RuntimeError`` naming it."""
    get(name)
    _FROZEN[name] = by


def snapshot() -> tuple:
    """A hashable tuple of the options that can change tracing, for jit cache keys (those
    in ``_NOT_IN_SNAPSHOT``, such as ``compilation_cache_dir``, are left out).

    The same object until an option in it changes (jit's cached-call paths compare it by
    identity): it is built under a lock, so threads asking at once get one object, and
    :func:`update` drops it under that lock after changing the option, so a snapshot
    built from the old value never outlives the change.
    """
    s = _SNAPSHOT[0]
    if s is None:
        with _SNAPSHOT_LOCK:
            s = _SNAPSHOT[0]
            if s is None:
                s = _SNAPSHOT[0] = tuple(sorted(
                    (k, v) for k, v in _OPTIONS.items() if k not in _NOT_IN_SNAPSHOT))
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
