"""NumPy's ``RuntimeWarning`` s about the slices of a reduction ("Mean of empty slice",
"Degrees of freedom <= 0 for slice", "All-NaN slice encountered") and the floating-point
error of a full reduction's final scalar division.

NumPy decides these from what it computed (the element count of each slice, which
``where=`` makes a value; the NaNs of a slice). A condition known from the shapes is
decided here; one that depends on values is a ``lax.runtime_warning`` equation on the
traced or eager condition, which warns eagerly (and for the concrete values of a
transformation run eagerly) and which the eager dispatch cache replays with every call.
Compiled code checks nothing: under ``jit`` the results are NumPy's and nothing warns.
"""

from __future__ import annotations

import math

import numpy as np

from xnp import lax
from xnp.numpy_api._index_core import _concrete
from xnp.tracing import core, fp_warnings

__all__ = ["known_now", "check", "check_counts", "warn_all_nan", "warn_empty_slices", "divide",
           "scalar_divide"]


def known_now(x) -> bool:
    """Whether ``x``'s value is known now (an eager array, or a tracer with a concrete
    value), without reading it."""
    if type(x) is core.Array:
        return True
    return isinstance(x, core.Tracer) and x.to_concrete_value() is not None


def check(condition, message: str, *, each: bool = False) -> None:
    """Warn ``message`` where ``condition`` holds (:func:`xnp.lax.runtime_warning`). A
    condition known from the shapes (NumPy bool data) warns only when true; an array of a
    value is checked by the equation, on every call."""
    if isinstance(condition, (np.ndarray, np.bool_)):
        if not condition.any():
            return
        condition = np.asarray(condition)
    lax.runtime_warning(condition, message, each=each)


def check_counts(x, axes, count, masked: bool, message: str, ddof=0, *, scalar: bool):
    """Warn ``message`` where a slice of ``x`` reduced over ``axes`` holds at most ``ddof``
    elements (NumPy's ``mean``: none): from the shape without a mask (``masked`` False),
    from ``count``, the traced count of each slice, with one. Returns :func:`divide`'s
    ``divisor``: NumPy's ``max(N - ddof, 0)`` as a NumPy scalar when ``scalar`` (NumPy's
    result is a scalar) and the count is known from the shape or now, else None.

    A masked reduction to a scalar reads the count now, where it is known (an eager call,
    not replayed by the dispatch cache): its division is NumPy's scalar division."""
    scalar = scalar and not core.aval_of(count).shape  # (a full reduction)
    if masked and not (scalar and known_now(count)):
        if core.aval_of(count).dtype.kind == "c":  # (a complex accumulator's count)
            count = lax.real(count)
        aval = core.aval_of(count)
        bound = lax.broadcast_in_dim(core.lift(np.asarray(ddof, aval.dtype)), aval.shape, ())
        check(lax.le(count, bound), message)
        return None
    if masked:
        n = _concrete(count).real.astype(np.intp)  # (a complex accumulator's count)
    else:
        n = np.intp(math.prod(core.aval_of(x).shape[a] for a in axes))
    few = np.bool_(n <= ddof)
    check(few, message)
    if scalar:
        return np.maximum(n - ddof, 0)[()]
    return None


def warn_all_nan(res) -> None:
    """NumPy's ``nanmax``/``nanmin`` check: "All-NaN slice encountered" where the result
    ``res`` (floating) is NaN."""
    check(lax.ne(res, res), "All-NaN slice encountered")


def warn_empty_slices(count) -> None:
    """NumPy's ``nanmedian``/``nanquantile`` check: "All-NaN slice encountered" once per
    slice whose count of non-NaN elements ``count`` is zero."""
    aval = core.aval_of(count)
    zero = lax.broadcast_in_dim(core.lift(np.zeros((), aval.dtype)), aval.shape, ())
    check(lax.eq(count, zero), "All-NaN slice encountered", each=True)


def divide(total, count, divisor=None, *, quiet: bool = False):
    """``lax.div(total, count)``, the last step of a mean or a variance.

    ``divisor``: NumPy's divisor when NumPy's result is a scalar (:func:`check_counts`),
    else None. NumPy then divides two NumPy scalars, whose floating-point error (a warning,
    or what ``numpy.errstate`` asks for) says "scalar divide": for a zero divisor xnp divides
    quietly and repeats NumPy's scalar division on the values to meet the same error; a
    complex 0-d total over a nonzero one is :func:`scalar_divide` (a float total over a
    count meets no error). ``quiet``: no floating-point error at all (NumPy's nan-functions).
    """
    if quiet:  # a slice of no elements is NaN, and no floating-point error (a complex
        # division by NaN would raise 'invalid': such a slice divides by one, then is NaN)
        real = lax.real(count) if core.aval_of(count).dtype.kind == "c" else count
        shape, dtype = core.aval_of(count).shape, core.aval_of(count).dtype
        zero = lax.broadcast_in_dim(core.lift(np.zeros((), core.aval_of(real).dtype)), shape, ())
        one = lax.broadcast_in_dim(core.lift(np.ones((), dtype)), shape, ())
        some = lax.gt(real, zero)
        if core.aval_of(total).dtype.kind == "c":
            # a complex division by the count meets 'invalid' for an infinite total (NumPy
            # divides under errstate 'ignore': inf+nanj, quietly); such a call is not
            # recorded (its primitive runs under other error settings than the caller's)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                quotient = lax.div(total, lax.select(some, count, one))
        else:
            quotient = lax.div(total, lax.select(some, count, one))
        q_dtype = core.aval_of(quotient).dtype
        nan = np.asarray(complex(np.nan, np.nan) if q_dtype.kind == "c" else np.nan, q_dtype)
        return lax.select(some, quotient, lax.broadcast_in_dim(core.lift(nan), shape, ()))
    if divisor is None or not known_now(total):
        return lax.div(total, count)
    if divisor:
        if core.aval_of(total).dtype.kind != "c" or core.aval_of(total).shape:
            return lax.div(total, count)
        # NumPy's complex scalar over its intp count (a complex64 one defers to the ufunc)
        return scalar_divide(total, lax.convert_element_type(lax.real(count), np.intp))
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = lax.div(total, count)
    # NumPy's scalar division: its error, as errstate says (a warning names the user's line)
    value = _concrete(total)[()]
    _ = fp_warnings.fp_warnings_at_user_line(lambda: value / divisor, np.geterr())
    return quotient


def scalar_divide(a, b):
    """``a / b`` of 0-d arrays as NumPy divides their NumPy scalars (a full reduction's
    result by its count or weight sum): eagerly NumPy's scalar division, whose floating-point
    error says "in scalar divide" (one composite, replayed with every call); under ``jit``
    ``lax.div``. ``b``: of ``a``'s (float or complex) dtype, or an integer count."""
    return lax.composite("scalar_divide", _divide_in_dtype_of_first, a, b)


def _divide_in_dtype_of_first(a, b):
    """:func:`scalar_divide`'s decomposition: ``a / b`` in NumPy's promoted dtype of the two
    (complex128 for a complex64 ``a`` over an integer ``b``), cast back to ``a``'s dtype."""
    dt = core.aval_of(a).dtype
    q = np.result_type(dt, core.aval_of(b).dtype)
    quotient = lax.div(lax.convert_element_type(a, q), lax.convert_element_type(b, q))
    return lax.convert_element_type(quotient, dt)
