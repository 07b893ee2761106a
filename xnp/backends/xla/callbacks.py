"""Host callbacks as XLA calls them, and their errors surfaced as xnp's.

XLA's CPU callback handler calls ``host_callbacks[index](token, *operands)`` with the
token as None and the operands as read-only NumPy arrays, and takes back
``(token, *results)``. It checks neither the number, the shapes nor the dtypes of the
results (a wrong dtype is read as garbage), and turns a Python exception into an
``XlaRuntimeError`` carrying the traceback as text. :func:`runtime_callables` wraps each
:class:`~xnp.lax.callback.HostCallback` (which checks its results against the declared
avals) so that an exception is kept here under a fresh id and XLA gets a short error
naming that id; :func:`pending_error` finds the id in the runtime error and returns the
original exception, which ``client.raise_runtime_error`` raises in place of the runtime
error (with a note naming the callback and the jitted function). So a callback that
raises ``ValueError`` under ``jit`` raises that ``ValueError``, as it does eagerly.
"""

from __future__ import annotations

import itertools
import re
import threading

__all__ = ["runtime_callables", "pending_error"]

_LOCK = threading.Lock()
_ERRORS: dict = {}  # id -> (exception, callback name), until the runtime error is raised
_IDS = itertools.count(1)
_MARK = "xnp host callback error #"
_FIND = re.compile(re.escape(_MARK) + r"(\d+)")
_KEPT = 64  # errors kept whose runtime error was never raised (oldest dropped first)


class _CallbackFailed(Exception):
    """What XLA sees when a callback raised: only the id of the kept exception."""


class _Runtime:
    """``callback`` as XLA calls it: drops the token, returns ``(None, *results)``."""

    __slots__ = ("callback",)

    def __init__(self, callback):
        self.callback = callback

    def __call__(self, token, *args):
        try:
            return (None, *self.callback(*args))
        except Exception as e:  # noqa: BLE001  (kept and raised again by the caller)
            with _LOCK:
                k = next(_IDS)
                _ERRORS[k] = (e, self.callback.name)
                while len(_ERRORS) > _KEPT:
                    del _ERRORS[next(iter(_ERRORS))]
            raise _CallbackFailed(f"{_MARK}{k}") from None


def runtime_callables(callbacks) -> list:
    """The callables to pass to XLA for a module's ``callbacks`` (in index order)."""
    return [_Runtime(cb) for cb in callbacks]


def pending_error(error: Exception):
    """``(exception, callback name)`` that made the runtime error ``error``, or None."""
    m = _FIND.search(str(error))
    if m is None:
        return None
    with _LOCK:
        return _ERRORS.pop(int(m.group(1)), None)
