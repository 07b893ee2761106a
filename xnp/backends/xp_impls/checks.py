"""Eager implementations of ``runtime_warning`` and ``runtime_error`` (:mod:`xnp.lax.checks`):
NumPy's warning, attributed to the first frame outside xnp (the user's call, as NumPy's own
warnings are), and NumPy's exception."""

from __future__ import annotations

import warnings

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.tracing.recording import note_effect
from xnp.tracing.source import outside_stacklevel


def _runtime_warning(xp, condition, *, message, each):
    n = int(xp.count_nonzero(condition))
    if n:
        # a call being recorded for the eager dispatch cache is then not stored, and is not
        # run again (the warning happened); a call that does not warn is, and its replays
        # run this check
        note_effect("issued a warning")
        level = outside_stacklevel()
        for _ in range(n if each else 1):
            warnings.warn(message, RuntimeWarning, stacklevel=level)
    return condition


def _runtime_error(xp, condition, *, message, exception):
    if xp.count_nonzero(condition):  # (a fraction of xp.any's time on small arrays)
        raise exception(message)
    return condition


XP_IMPLS[lax.runtime_warning_p] = _runtime_warning
XP_IMPLS[lax.runtime_error_p] = _runtime_error

#: the checks, which read their condition on the host whatever the eager backend
HOST_CHECKS = (lax.runtime_warning_p, lax.runtime_error_p)
