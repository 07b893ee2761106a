"""NumPy's order of writing a result and raising a floating-point error, for the calls that
write into an argument: a ufunc's ``out=`` (:func:`xnp.numpy_api._ufunc.masked_call`),
``out=`` of the gufuncs (``matmul``, ``vecdot``, ``matvec``, ``vecmat``), ``dot``,
``outer``, ``sum``, ``prod``, ``mean``, ``ptp``, ``nansum``, ``nanprod``, ``nanmean``,
``cumsum``, ``cumprod``, ``cumulative_sum``, ``cumulative_prod``, ``nancumsum``,
``nancumprod`` and of the ufunc methods ``reduce``, ``accumulate`` and ``reduceat``, and
``ufunc.at`` (in-place operators and the functions that assign into an argument:
:mod:`xnp.numpy_api._inplace`, by the same rules).

NumPy's loops write their result and check the floating-point error flags afterwards:
under ``numpy.errstate`` 'raise' (or a warnings filter 'error' for NumPy's
``RuntimeWarning``) ``out`` holds the whole result when the error is raised. Eagerly xnp
computes the result before writing it, so a call that raises such an error
(:func:`xnp.tracing.fp_warnings.is_fp_error`) runs again with the floating-point errors
ignored and no warning issued (:func:`xnp.tracing.fp_warnings.ignoring_fp_errors`), writes,
and raises the error (:func:`call_writing_out`). The eager dispatch cache replays such a
call only as NumPy's own ufunc with ``out`` (``recording.write_result``), whose loop writes
and then raises; any other write fails the recording, so every call behaves so. As in
NumPy, nothing is written where

* ``out`` shares memory with an input of a gufunc (``matmul(a, b, out=a)``), a reduction
  (``sum(a, axis=0, out=a[0])``) or an elementwise ufunc other than element for element:
  NumPy computes into a temporary array, copied into ``out`` only after a clean loop;
* NumPy meets the error before its loop (a Python scalar operand that overflows the loop's
  dtype: ``add(float16_array, 1e5, out=...)``).

``mean`` and ``nanmean`` write ``out`` in NumPy's two steps: the sum (``add.reduce`` into
``out``), then the quotient; an error of the sum leaves the sum in ``out``, as NumPy's.

The errors are worded as NumPy's (:func:`xnp.tracing.fp_warnings.renamed_fp_error`): the
loop named is the method's (``reduce``, ``accumulate``, ``reduceat``; ``at`` or the ufunc,
as NumPy's ``ufunc.at`` names it, :func:`at_loop_name`), the function's (``matmul`` where
xnp's eager product is NumPy's ``dot``), or a ufunc's for the cast of its result into
``out``. Under ``jit`` nothing is checked (compiled code raises no floating-point
error)."""

from __future__ import annotations

import functools
import inspect

import numpy as np

from xnp.tracing import core
from xnp.tracing.fp_warnings import ignoring_fp_errors, is_fp_error
from xnp.tracing.fp_warnings import renamed_fp_error as renamed

__all__ = ["names_fp_errors", "writes_out", "call_writing_out", "shares_memory_with", "at_loop_name"]

def _host(x):
    """The NumPy array holding ``x``'s values (None for anything else, or a jit output
    whose values are still on the device)."""
    if type(x) is core.Array:
        return x._v
    return x if isinstance(x, np.ndarray) else None


def shares_memory_with(out, inputs, exact_ok: bool = False) -> bool:
    """Whether NumPy computes a call writing into ``out`` into a temporary array first:
    ``out`` shares memory with one of ``inputs`` (bounds overlap, as NumPy's
    ``NPY_ITER_COPY_IF_OVERLAP``). ``exact_ok``: an input that is ``out``'s memory element
    for element (same start, shape and strides), which an elementwise loop reads before it
    writes, needs no temporary."""
    o = _host(out)
    if o is None:
        return False
    for x in inputs:
        v = _host(x)
        if v is None or not np.may_share_memory(o, v):
            continue
        if exact_ok and v.shape == o.shape and v.strides == o.strides and (
                v.__array_interface__["data"][0] == o.__array_interface__["data"][0]):
            continue
        return True
    return False


def call_writing_out(fn, args, kwargs, out, inputs=(), *, where=None, only=None,
                     first=None, exact_ok=False, before=None):
    """``fn(*args, **kwargs)``, a call that writes into ``out`` (an array, or a tuple of
    arrays and None; None: the call as it is), with NumPy's order of writing and raising
    (module docstring). A floating-point error of the call is raised renamed to
    ``where`` (a loop's name, or a function of no argument giving it; ``only`` as
    :func:`renamed`'s). ``inputs``: the arrays read, checked with
    :func:`shares_memory_with` (``exact_ok`` as there): where every ``out`` shares memory
    with one, nothing is written. ``first``: NumPy's first written step, a function of the
    same arguments that writes before raising itself; when the call raises, ``first`` runs
    under the caller's settings, and an error it raises is the call's. ``before(error)``:
    whether NumPy meets the error before its loop (a Python scalar's conversion), which
    then propagates as it is and nothing is written."""
    if out is None:
        return fn(*args, **kwargs)
    try:
        return fn(*args, **kwargs)
    except (FloatingPointError, RuntimeWarning) as e:
        if not is_fp_error(e) or (before is not None and before(e)):
            raise
        error = e if where is None else renamed(e, where() if callable(where) else where, only)
    outs = [o for o in (out if type(out) is tuple else (out,)) if o is not None]
    if outs and all(shares_memory_with(o, inputs, exact_ok) for o in outs):
        raise error
    if first is not None:
        first(*args, **kwargs)
    ignoring_fp_errors(lambda: fn(*args, **kwargs))
    raise error


def names_fp_errors(where: str, only):
    """Decorator: the function's floating-point errors (a ``FloatingPointError``, or the
    ``RuntimeWarning`` under a warnings filter 'error') reported by the loop ``only`` are
    raised as the loop ``where``'s (``matmul``, computed with NumPy's ``dot``, reports
    "... in matmul" as NumPy's ``matmul`` does). It marks the function
    (``fp_errors_named``), so that the eager dispatch cache renames the errors of its
    replays too (``_replay.cached``); warnings under 'warn' keep the loop's name."""

    def deco(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except (FloatingPointError, RuntimeWarning) as e:
                new = renamed(e, where, only)
                if new is e:
                    raise
                raise new from None

        call.fp_errors_named = (where, only)
        return call

    return deco


def writes_out(where=None, only=None, first=None, temporary=True):
    """Decorator: a function with an ``out`` parameter, called with an ``out``, writes it
    before raising the floating-point error NumPy's loop would raise after writing
    (:func:`call_writing_out`; ``where``, ``only``, ``first`` as there). ``temporary``:
    NumPy computes into a temporary array where ``out`` shares memory with another
    argument (its gufuncs and reductions; not its accumulations, which write ``out`` as
    they go). Calls without ``out`` run as they are (the eager dispatch cache replays them,
    where no wrapper inside it would run; a call writing ``out`` is replayed only as
    NumPy's ufunc with ``out``, ``recording.write_result``)."""

    def deco(fn):
        position = list(inspect.signature(fn).parameters).index("out")

        @functools.wraps(fn)
        def call(*args, **kwargs):
            out = kwargs.get("out") if len(args) <= position else args[position]
            if out is None:
                return fn(*args, **kwargs)
            inputs = []
            if temporary:
                inputs = [a for i, a in enumerate(args) if i != position]
                inputs += [v for k, v in kwargs.items() if k != "out"]
            return call_writing_out(fn, args, kwargs, out, inputs, where=where, only=only,
                                    first=first)

        return call

    return deco


#: the ufuncs with NumPy's indexed loops for ``ufunc.at``, by dtype kind
_INDEXED_AT = {"add": "fc", "subtract": "fc", "multiply": "fc", "divide": "f",
               "floor_divide": "fiu", "maximum": "fiu", "minimum": "fiu", "fmax": "fiu",
               "fmin": "fiu"}


def at_loop_name(name: str, a, indices, b) -> str:
    """The loop NumPy's ``ufunc.at`` names in its floating-point errors for ufunc ``name``
    on the eager array ``a``, ``indices`` and operand ``b``: the ufunc where its indexed
    loop runs (``a`` 1-D, indexed by integers or a bool mask, not a slice; ``b`` as NumPy
    converts it, a Python float as float64 and an int as int64, at most 1-D, both of a
    dtype the loop computes in without a cast), else "at"."""
    adt = a.dtype
    if type(indices) is tuple and len(indices) == 1:
        indices = indices[0]
    if (adt.kind not in _INDEXED_AT.get(name, "") or a.ndim != 1 or type(indices) is tuple
            or indices is None or indices is Ellipsis or type(indices) is slice):
        return "at"
    if b is None:
        return name
    if not hasattr(b, "dtype") or core.is_python_scalar(b):  # (a list, a Python scalar)
        b = np.asarray(b)
    return name if np.dtype(b.dtype) == adt and b.ndim <= 1 else "at"
