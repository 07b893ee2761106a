"""NumPy's ``RuntimeWarning`` s about the slices of a reduction ("Mean of empty slice",
"Degrees of freedom <= 0 for slice", "All-NaN slice encountered") and the floating-point
error of a full reduction's final scalar division.

NumPy decides these from what it computed (the element count of each slice, which
``where=`` makes a value; the NaNs of a slice), so xnp issues them where that is known
now: eagerly, and for the concrete values of a transformation run eagerly. Compiled code
checks nothing: under ``jit`` the results are NumPy's and nothing warns. A call that
warns, or reads a value to decide, is not replayed by the eager dispatch cache
(``_util.warn``, ``xnp.tracing.recording``); a call that decides from shapes alone and
does not warn still is.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._util import warn
from xnp.tracing import core

__all__ = ["known_now", "slice_counts", "warn_if", "check_counts", "warn_all_nan", "divide"]


def known_now(x) -> bool:
    """Whether ``x``'s value is known now (an eager array, or a tracer with a concrete
    value), without reading it."""
    if type(x) is core.Array:
        return True
    return isinstance(x, core.Tracer) and x.to_concrete_value() is not None


def slice_counts(x, axes, count, masked: bool):
    """NumPy's element count of each slice of ``x`` reduced over ``axes`` as NumPy data, or
    None when it is not known now: without a mask (``masked`` False) a ``numpy.intp`` from
    the shape (no value is read); with one, the value of ``count`` (the traced count)."""
    if not masked:
        if not known_now(x):
            return None
        shape = core.aval_of(x).shape
        return np.intp(math.prod(shape[a] for a in axes))
    value = _concrete(count)
    return None if value is None else value.astype(np.intp)


def warn_if(condition, message: str, *, each: bool = False) -> None:
    """Warn ``message`` (``RuntimeWarning``) where the NumPy bool data ``condition`` (None:
    not known) is true anywhere; ``each``: once per true element, as NumPy's
    ``nanmedian``/``nanquantile`` warn once per slice."""
    if condition is None:
        return
    n = int(np.count_nonzero(condition))
    for _ in range(n if each else min(n, 1)):
        warn(message, RuntimeWarning, stacklevel=4)


def check_counts(x, axes, count, masked: bool, message: str, ddof=0, *, scalar: bool):
    """Warn ``message`` when a slice (``slice_counts``) is known to hold at most ``ddof``
    elements (NumPy's ``mean``: none). Returns :func:`divide`'s ``divisor``: NumPy's
    ``max(N - ddof, 0)`` as a NumPy scalar when ``scalar`` (NumPy's result is a scalar) and
    the one slice has so few elements, else None."""
    n = slice_counts(x, axes, count, masked)
    if n is None:
        return None
    few = n <= ddof
    warn_if(few, message)
    if scalar and np.ndim(few) == 0 and few:
        return np.maximum(n - ddof, 0)[()]
    return None


def warn_all_nan(res) -> None:
    """NumPy's ``nanmax``/``nanmin`` check: "All-NaN slice encountered" when the result
    ``res`` (floating) is known now and NaN anywhere."""
    if known_now(res):
        warn_if(np.isnan(_concrete(res)), "All-NaN slice encountered")


def divide(total, count, divisor=None, *, quiet: bool = False):
    """``lax.div(total, count)``, the last step of a mean or a variance.

    ``divisor``: NumPy's divisor when it is known now to be zero and NumPy's result is a
    scalar (:func:`check_counts`), else None. NumPy then divides two NumPy scalars, whose
    floating-point error (a warning, or what ``numpy.errstate`` asks for) says "scalar
    divide"; xnp divides quietly and repeats NumPy's scalar division on the values to meet
    the same error. ``quiet``: no floating-point error at all (NumPy's nan-functions).
    """
    if quiet:
        with np.errstate(divide="ignore", invalid="ignore"):
            return lax.div(total, count)
    if divisor is None or not known_now(total):
        return lax.div(total, count)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = lax.div(total, count)
    _ = _concrete(total)[()] / divisor  # NumPy's scalar division: its error, as errstate says
    return quotient
