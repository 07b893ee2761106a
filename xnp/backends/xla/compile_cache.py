"""Compiled executables reused instead of compiled again.

Two levels, both keyed by the program, not by the jitted function object, so an
equal program staged by another ``jit`` wrapper (a lambda made again in a loop, a
second ``jit(f)``) reuses the executable:

* in memory: a bounded LRU dict (``executable_cache_size`` entries) keyed by
  (sha256 of the StableHLO text, serialized ``CompileOptions``, target). One
  compile per key: a thread asking for a key being compiled waits for it. The
  ``build`` of a key runs on the thread that asked first, which parses the module
  in its own MLIR context (``mlir.context`` is per thread), so different keys
  compile in parallel. An executable that a jit cache entry runs is *held* by it
  (:func:`hold`) only while this cache keeps it: evicting it releases every holder
  (the entry drops its executable, runners and result handlers, and compiles again,
  or loads from disk, on its next call), so ``executable_cache_size`` bounds the
  executables that jitted functions keep alive. Eviction is least recently used with
  a second chance: an executable whose holder was called since the last eviction
  pass (the holder's ``recently_used()``) is moved to the back once before it can go.
* on disk, when ``xnp.config`` option ``compilation_cache_dir`` is set: one file
  per program holding ``exe.serialize()`` behind a header (magic bytes, format
  version, entry key, payload length and sha256). Its key also covers the jaxlib
  and xnp versions, the target (platform, device kind, device ids) and
  ``XLA_FLAGS``. Files are written to a temporary name in the same directory and
  renamed into place, so concurrent processes never see a half-written entry; an
  entry that fails any header check, or that jaxlib refuses, is a miss and is
  overwritten. A directory that cannot be created, read or written costs a
  warning (once per directory) and compiling carries on without it.

This module calls no jaxlib function itself: ``client.Client.compile`` passes
the ``build`` and ``load`` callables, and only that module drives PJRT.

Programs with host callbacks: an executable is bound to the Python callables it
calls, so the in-memory key also holds the program's ``callbacks`` (compared by
identity: the same text calling another generator's draw is another key). The disk
entry of such a program is keyed by the program alone (its blob holds no callables:
each custom call names its callback by index); ``load`` binds the caller's
callbacks when it deserializes the blob.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import re
import struct
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable

from xnp import config

__all__ = ["get_or_compile", "hold", "stats", "reset_stats", "clear", "entry_path"]

_FORMAT_VERSION = 1
_MAGIC = b"XNPEXE\x00\x00"
# magic, format version, entry key (sha256), payload length, payload sha256
_HEADER = struct.Struct("<8sI32sQ32s")
_SUFFIX = ".xnpexe"

_LOCK = threading.Lock()  # guards everything below; never held while compiling or on file I/O
_MEMORY: collections.OrderedDict = collections.OrderedDict()  # key -> executable
_KEYS: dict = {}  # id(executable) -> its key in _MEMORY
_HOLDERS: dict = {}  # key in _MEMORY -> the holders of its executable (see ``hold``)
_PENDING: dict = {}  # key -> _Pending, while its first request compiles or loads it
_STAT_NAMES = ("compiles", "memory_hits", "disk_hits", "disk_misses", "disk_writes",
               "disk_errors")
_STATS = dict.fromkeys(_STAT_NAMES, 0)
_WARNED: set = set()  # directories already warned about (one warning each)
_UNWRITABLE: set = set()  # directories whose last write failed: no further writes tried
_PROCESS_KEY: list = [None]  # bytes: versions and XLA_FLAGS, fixed for the process


class _Identity:
    """A key part for one callback: equal only to another for the same object."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other):
        return type(other) is _Identity and other.obj is self.obj

    def __hash__(self):
        return id(self.obj)


class _Pending:
    """A key being compiled: waiters block on ``done``; ``exe`` is None if it failed."""

    __slots__ = ("done", "exe")

    def __init__(self):
        self.done = threading.Event()
        self.exe = None


def get_or_compile(text: str, options: bytes, target: tuple, *, build: Callable[[], object],
                   load: Callable[[bytes], object], callbacks: tuple = ()):
    """The executable for StableHLO ``text``: from memory, from disk, or built now.

    Parameters
    ----------
    text : str
        The StableHLO module as compiled (its sha256 is the program part of the key).
    options : bytes
        ``CompileOptions.SerializeAsString()`` of the options it is compiled with.
    target : tuple of str and int
        What the executable is bound to: jaxlib version, platform, platform
        version, device kind and device ids. Hashable and with a stable ``repr``.
    build : callable
        ``build()`` compiles and returns a loaded executable.
    load : callable
        ``load(blob)`` turns ``exe.serialize()`` bytes back into a loaded executable
        (bound to ``callbacks``).
    callbacks : tuple
        The host callbacks ``build``/``load`` bind (compared by identity; kept alive
        by the key while the executable is cached). Not part of the disk key.

    Returns
    -------
    The loaded executable, shared with every other caller of the same key.

    Raises
    ------
    Whatever ``build`` raises (a failed compile is not cached; a request waiting
    for it compiles again and raises its own error). Cache problems never raise.
    """
    digest = hashlib.sha256(text.encode()).digest()
    key = (digest, options, target, tuple(_Identity(c) for c in callbacks))
    while True:
        with _LOCK:
            exe = _MEMORY.get(key)
            if exe is not None:
                _MEMORY.move_to_end(key)
                _STATS["memory_hits"] += 1
                break
            pending = _PENDING.get(key)
            if pending is None:
                pending = _PENDING[key] = _Pending()
                exe = None
                owner = True
            else:
                owner = False
        if owner:
            released = ()
            try:
                exe = _load_or_build(text, digest, options, target, build, load)
            finally:
                with _LOCK:
                    del _PENDING[key]
                    if exe is not None:
                        released = _remember(key, exe)
                pending.exe = exe
                pending.done.set()
            _release(released)
            return exe
        pending.done.wait()
        if pending.exe is not None:
            exe = pending.exe
            with _LOCK:
                _STATS["memory_hits"] += 1
            break
    if config.get("log_compiles"):
        print(f"xnp: {_module_name(text)}: executable from the in-process cache, not compiled",
              file=sys.stderr)
    return exe


def _remember(key, exe) -> list:
    """Insert into the LRU dict and evict beyond the bound (``_LOCK`` held); returns the
    holders of the evicted executables, to release once ``_LOCK`` is no longer held."""
    limit = config.get("executable_cache_size")
    if limit <= 0:
        return []
    _MEMORY[key] = exe
    _KEYS[id(exe)] = key
    released: list = []
    passed = 0  # executables given their second chance in this pass
    while len(_MEMORY) > limit:
        oldest = next(iter(_MEMORY))
        if oldest == key or (passed < len(_MEMORY) and _recently_used(oldest)):
            _MEMORY.move_to_end(oldest)
            passed += 1
            continue
        released += _forget(oldest)
    return released


def _recently_used(key) -> bool:
    used = False
    for h in _HOLDERS.get(key, ()):
        used = h.recently_used() or used  # every holder asked, so each starts a new period
    return used


def _forget(key) -> list:
    """Drop ``key``'s executable (``_LOCK`` held); returns its holders."""
    _KEYS.pop(id(_MEMORY.pop(key)), None)
    return _HOLDERS.pop(key, [])


def _release(holders) -> None:
    """Release ``holders`` (outside ``_LOCK``: their executables are freed here)."""
    for h in holders:
        h.release()


def hold(exe, holder) -> bool:
    """Let ``holder`` keep ``exe`` (an executable returned by :func:`get_or_compile`)
    only while this cache keeps it.

    ``holder`` has three methods, called with the cache's lock held (so they only read
    and set attributes): ``alive()`` (False once it no longer uses ``exe``: dropped from
    the holder list), ``recently_used()`` (whether it ran ``exe`` since the last time
    it was asked) and ``release()`` (drop every reference to ``exe``; called once, when
    ``exe`` is evicted or :func:`clear` runs, without the lock).

    Returns
    -------
    bool
        False when the cache does not keep ``exe`` (``executable_cache_size`` is 0, or
        it was evicted already): the holder must not keep it beyond the current call.
    """
    with _LOCK:
        key = _KEYS.get(id(exe))
        if key is None or _MEMORY.get(key) is not exe:
            return False
        holders = _HOLDERS.get(key)
        if holders is None:
            holders = _HOLDERS[key] = []
        holders[:] = [h for h in holders if h.alive()]
        holders.append(holder)
        return True


def _load_or_build(text, digest, options, target, build, load):
    directory = config.get("compilation_cache_dir")
    if directory is None:
        return _build(build)
    entry_key = _entry_key(digest, options, target)
    path = os.path.join(directory, _file_name(text, entry_key))
    t0 = time.perf_counter()
    exe = _read_entry(path, entry_key, load)
    if exe is not None:
        _count("disk_hits")
        if config.get("log_compiles"):
            ms = (time.perf_counter() - t0) * 1e3
            print(f"xnp: {_module_name(text)}: executable loaded from the disk cache in "
                  f"{ms:.1f} ms, not compiled", file=sys.stderr)
        return exe
    _count("disk_misses")
    exe = _build(build)
    _write_entry(path, entry_key, exe)
    return exe


def _build(build):
    exe = build()
    _count("compiles")
    return exe


def _count(name: str) -> None:
    with _LOCK:
        _STATS[name] += 1


# -- disk entries


def _process_key() -> bytes:
    """Versions and flags that every disk key includes (read at the first lookup, when
    the runtime that parses ``XLA_FLAGS`` has already started)."""
    k = _PROCESS_KEY[0]
    if k is None:
        parts = [str(_FORMAT_VERSION), _xnp_version(), os.environ.get("XLA_FLAGS", "")]
        k = _PROCESS_KEY[0] = "\x00".join(parts).encode()
    return k


def _xnp_version() -> str:
    """xnp's installed version, from the ``xnp-<version>.dist-info`` folder name on
    ``sys.path`` (importing ``importlib.metadata`` costs more than loading an entry)."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("xnp-") and name.endswith(".dist-info"):
                return name[len("xnp-"):-len(".dist-info")]
    from importlib import metadata  # noqa: PLC0415

    try:
        return metadata.version("xnp")
    except metadata.PackageNotFoundError:
        return "unknown"


def _entry_key(digest: bytes, options: bytes, target: tuple) -> bytes:
    h = hashlib.sha256()
    for part in (_process_key(), repr(target).encode(), digest, options):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def _module_name(text: str) -> str:
    m = re.match(r"\s*module @([\w$.-]+)", text)
    return m.group(1) if m else "module"


def _file_name(text: str, entry_key: bytes) -> str:
    return f"{_module_name(text)[:48]}-{entry_key.hex()}{_SUFFIX}"


def entry_path(directory: str, text: str, options: bytes, target: tuple) -> str:
    """Path of the disk entry for a program (exists only once it was written).

    Takes the same ``text``, ``options`` and ``target`` as :func:`get_or_compile`;
    for tests and tools that inspect the cache directory.
    """
    digest = hashlib.sha256(text.encode()).digest()
    return os.path.join(directory, _file_name(text, _entry_key(digest, options, target)))


def _read_entry(path: str, entry_key: bytes, load):
    """The executable stored at ``path``, or None (missing, unreadable, corrupt, foreign,
    or refused by jaxlib: all misses; only a missing file is not counted as an error)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        _disk_error(os.path.dirname(path), "read", e)
        return None
    payload = _verified_payload(data, entry_key)
    if payload is None:
        _count("disk_errors")
        return None
    try:
        return load(payload)
    except (RuntimeError, ValueError, TypeError):  # jaxlib refused the blob: recompile
        _count("disk_errors")
        return None


def _verified_payload(data: bytes, entry_key: bytes) -> bytes | None:
    if len(data) < _HEADER.size:
        return None
    magic, version, key, length, payload_hash = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if magic != _MAGIC or version != _FORMAT_VERSION or key != entry_key:
        return None
    if length != len(payload) or hashlib.sha256(payload).digest() != payload_hash:
        return None
    return payload


def _write_entry(path: str, entry_key: bytes, exe) -> None:
    directory = os.path.dirname(path)
    with _LOCK:
        if directory in _UNWRITABLE:
            return
    try:
        payload = exe.serialize()
    except RuntimeError as e:  # an executable the runtime cannot serialize: keep it in memory
        _disk_error(directory, "written", e)
        return
    header = _HEADER.pack(_MAGIC, _FORMAT_VERSION, entry_key, len(payload),
                          hashlib.sha256(payload).digest())
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=_SUFFIX, dir=directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(header)
                f.write(payload)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as e:
        with _LOCK:
            _UNWRITABLE.add(directory)
        _disk_error(directory, "written", e)
        return
    _count("disk_writes")


def _disk_error(directory: str, action: str, err: Exception) -> None:
    with _LOCK:
        _STATS["disk_errors"] += 1
        first = directory not in _WARNED
        _WARNED.add(directory)
    if first:
        warnings.warn(
            f"xnp: the compilation cache directory {directory!r} cannot be {action} ({err}); "
            "compiling without it. Fix: point xnp.config option 'compilation_cache_dir' "
            "(or XNP_COMPILATION_CACHE_DIR) at a writable directory, or set it to None.",
            RuntimeWarning, stacklevel=2)


# -- introspection


def stats() -> dict:
    """Counters since the last :func:`reset_stats`, plus the in-memory entry count.

    Returns
    -------
    dict
        ``compiles`` (executables built by XLA), ``memory_hits`` (taken from the
        in-process cache, or from a concurrent request's compile), ``disk_hits``,
        ``disk_misses``, ``disk_writes``, ``disk_errors`` (unreadable, corrupt or
        refused entries, failed writes), ``memory_entries`` (current size) and
        ``holders`` (jit cache entries running an in-memory executable).
    """
    with _LOCK:
        out = dict(_STATS)
        out["memory_entries"] = len(_MEMORY)
        out["holders"] = sum(h.alive() for hs in _HOLDERS.values() for h in hs)
    return out


def reset_stats() -> None:
    """Set every counter of :func:`stats` back to 0 (the cached entries stay)."""
    with _LOCK:
        _STATS.update(dict.fromkeys(_STAT_NAMES, 0))


def clear() -> None:
    """Drop every in-memory executable and forget failed cache directories (files on
    disk stay). Jitted functions compile again (or load from disk) on their next call;
    an executable stays alive only while a ``Compiled`` object of the caller holds it."""
    with _LOCK:
        released = [h for hs in _HOLDERS.values() for h in hs]
        _MEMORY.clear()
        _KEYS.clear()
        _HOLDERS.clear()
        _UNWRITABLE.clear()
        _WARNED.clear()
    _release(released)
