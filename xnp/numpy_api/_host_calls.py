"""NumPy's own function on eager arrays' host values, for the eager calls whose result is
NumPy's by definition and depends on the values beyond their signature: a bounds check
that raises (``take``), a result whose shape the values decide (``nonzero``,
``bincount``).

Such a call's full path would read the values in Python (to check them, or to size its
result), which the eager dispatch cache cannot replay, so every call paid the full path.
Through :func:`xnp.tracing.recording.native_call` the call is recorded as NumPy's function
of its inputs, and each replay calls it on the new values: NumPy's errors, NumPy's result.
Traced calls (``jit``, ``grad``, ``vmap``) keep their primitives. The same for the
functions that write computed values into an argument (``put``, ``fill_diagonal``):
:func:`eager_host_write` is NumPy's function writing into the eager array's memory, each
replay on the new values.
"""

from __future__ import annotations

import functools

from xnp.tracing import core, recording

__all__ = ["eager_host_call", "eager_host_write"]

_ARRAY = core.Array


def eager_host_call(fn, *arrays, weak: bool | None = None, multiple: bool = False,
                    shaped_by_values: bool = False):
    """``fn(*host values)`` as an eager array (of the first array's weak type, or
    ``weak``; a tuple of them with ``multiple``), or None
    where it does not apply: an argument is not an eager array (a tracer, a grad/vmap
    buffer standing for one, a host-dtype array), ``fn`` binds an xnp array among its
    parameters (a flag given as an array: a replay would keep its first value), a trace
    stages, or the eager backend computes with something other than NumPy. ``fn`` is a
    NumPy function of the values
    alone (its parameters bound), whose result is a new array (not a view);
    ``shaped_by_values``: its result's shape depends on the values (see
    :func:`xnp.tracing.recording.native_call`)."""
    for a in arrays:
        if type(a) is not _ARRAY:
            return None
    if type(fn) is functools.partial and (any(_holds_xnp(a) for a in fn.args) or any(
            _holds_xnp(v) for v in fn.keywords.values())):
        return None  # (an xnp array bound in fn: a replay would keep its first value)
    if core.staging_active() or not getattr(core.eager_backend(), "computes_with_numpy",
                                            False):
        return None
    return recording.native_call(fn, *arrays, view=False, weak=weak, multiple=multiple,
                                 shaped_by_values=shaped_by_values)


def eager_host_write(fn, target, *args) -> bool:
    """``fn(target's writable host value, *args)`` with each eager array of ``args`` as its
    host value: NumPy's function that writes into its first argument (``numpy.put``),
    noted by a recording as a write its replays repeat on the new values
    (:func:`xnp.tracing.recording.native_write`). The other ``args`` are part of the call's
    signature (numbers, strings, lists of them, NumPy's arrays, with which a call has
    none). False, writing nothing, where it does not apply: as :func:`eager_host_call`, an
    argument holds xnp arrays inside a list, the target is a ``broadcast_arrays`` result,
    and while a function of ``grad``/``vmap`` runs (its arrays may stand for traced
    values). NumPy's floating-point warnings name the user's line."""
    if not getattr(core.eager_backend(), "computes_with_numpy", False) or any(
            type(a) is not _ARRAY and _holds_xnp(a) for a in args):
        return False
    v = target._v if type(target) is _ARRAY else None  # (unwatched: its flags only)
    if v is not None and v.flags.num < 0:  # a broadcast_arrays result (NumPy's write
        return False  # warning, which the full path issues at the user's line)
    where = [i for i, a in enumerate(args) if type(a) is _ARRAY]

    def write(t, *values):
        full = list(args)
        for i, v in zip(where, values):
            full[i] = v
        fn(t, *full)

    return recording.native_write(write, target, *[args[i] for i in where])


def _holds_xnp(a) -> bool:
    if isinstance(a, (core.Array, core.Tracer)):
        return True
    return type(a) in (list, tuple) and any(_holds_xnp(x) for x in a)
