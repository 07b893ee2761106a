"""Where user code triggered an operation: the innermost stack frame outside xnp.

Staging traces record it on every equation (``JaxprEqn.source_info``) so that error
messages can name the user's line. Re-exported by :mod:`xnp.tracing.core`.
"""

from __future__ import annotations

import itertools
import os
import sys

__all__ = ["SourceInfo", "source_info"]

_XNP_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SourceInfo:
    """Where user code triggered an operation: file, line, 0-based column, function."""

    __slots__ = ("file", "line", "col", "function")

    def __init__(self, file: str, line: int, col: int | None, function: str):
        self.file = file
        self.line = line
        self.col = col
        self.function = function

    def __str__(self):
        col = f":{self.col}" if self.col is not None else ""
        return f"{self.file}:{self.line}{col} ({self.function})"


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
    col = None
    try:
        pos = next(itertools.islice(f.f_code.co_positions(), f.f_lasti // 2, None))
        col = pos[2]
    except (StopIteration, AttributeError, ValueError):
        pass
    return SourceInfo(f.f_code.co_filename, f.f_lineno, col, f.f_code.co_name)
