"""Where user code triggered an operation: the innermost stack frame outside xnp.

Staging traces record it on every equation (``JaxprEqn.source_info``) so that error
messages can name the user's line. Re-exported by :mod:`xnp.tracing.core`.
"""

from __future__ import annotations

import itertools
import os
import sys

__all__ = ["SourceInfo", "source_info", "outside_stacklevel"]

# (with the separator: a user's file named like the package, xnp_script.py, is outside it)
_XNP_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "")


class SourceInfo:
    """Where user code triggered an operation: file, line, 0-based column, function.

    The column of a :func:`source_info` result is found from the bytecode offset when it
    is first read (``col``, ``str``): recording one, on every traced operation, stays a
    frame walk."""

    __slots__ = ("file", "line", "_col", "function", "_code", "_lasti")

    def __init__(self, file: str, line: int, col: int | None, function: str):
        self.file = file
        self.line = line
        self._col = col
        self.function = function
        self._code = None

    @property
    def col(self) -> int | None:
        code = self._code
        if code is not None:
            self._code = None
            try:
                self._col = next(itertools.islice(code.co_positions(), self._lasti // 2, None))[2]
            except (StopIteration, AttributeError, ValueError):
                self._col = None
        return self._col

    def __str__(self):
        col = self.col
        col = f":{col}" if col is not None else ""
        return f"{self.file}:{self.line}{col} ({self.function})"


def outside_stacklevel(skip: int = 1) -> int:
    """The ``stacklevel`` that makes ``warnings.warn``, called by the function ``skip``
    frames above the caller of this (1: that caller itself), name the first frame
    outside the xnp package, as NumPy's warnings name the user's call."""
    level, f = 1, sys._getframe(skip)
    while f is not None and f.f_code.co_filename.startswith(_XNP_DIR):
        f = f.f_back
        level += 1
    return level


def _user_frame():
    f = sys._getframe(2)
    while f is not None and f.f_code.co_filename.startswith(_XNP_DIR):
        f = f.f_back
    return f


def source_info() -> SourceInfo | None:
    """The innermost stack frame outside the xnp package (None if there is none)."""
    f = _user_frame()
    if f is None:
        return None
    code = f.f_code
    info = SourceInfo(code.co_filename, f.f_lineno, None, code.co_name)
    info._code = code
    info._lasti = f.f_lasti
    return info
