"""Eager implementation of ``runtime_warning`` (:mod:`xnp.lax.checks`): NumPy's warning,
attributed to the first frame outside xnp (the user's call, as NumPy's own warnings are)."""

from __future__ import annotations

import os
import sys
import warnings

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.tracing.recording import note_effect

_XNP_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _stacklevel() -> int:
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_XNP_DIR):
        frame = frame.f_back
        level += 1
    return level


def _runtime_warning(xp, condition, *, message, each):
    n = int(xp.count_nonzero(condition))
    if n:
        # a call being recorded for the eager dispatch cache is then not stored, and is not
        # run again (the warning happened); a call that does not warn is, and its replays
        # run this check
        note_effect("issued a warning")
        level = _stacklevel()
        for _ in range(n if each else 1):
            warnings.warn(message, RuntimeWarning, stacklevel=level)
    return condition


XP_IMPLS[lax.runtime_warning_p] = _runtime_warning
