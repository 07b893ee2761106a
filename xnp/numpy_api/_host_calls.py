"""NumPy's own function on eager arrays' host values, for the eager calls whose result is
NumPy's by definition and depends on the values beyond their signature: a bounds check
that raises (``take``), a result whose shape the values decide (``nonzero``,
``bincount``).

Such a call's full path would read the values in Python (to check them, or to size its
result), which the eager dispatch cache cannot replay, so every call paid the full path.
Through :func:`xnp.tracing.recording.native_call` the call is recorded as NumPy's function
of its inputs, and each replay calls it on the new values: NumPy's errors, NumPy's result.
Traced calls (``jit``, ``grad``, ``vmap``) keep their primitives.
"""

from __future__ import annotations

from xnp.tracing import core, recording

__all__ = ["eager_host_call"]

_ARRAY = core.Array


def eager_host_call(fn, *arrays, weak: bool | None = None, multiple: bool = False,
                    shaped_by_values: bool = False):
    """``fn(*host values)`` as an eager array (of the first array's weak type, or
    ``weak``; a tuple of them with ``multiple``), or None
    where it does not apply: an argument is not an eager array (a tracer, a grad/vmap
    buffer standing for one, a host-dtype array), a trace stages, or the eager backend
    computes with something other than NumPy. ``fn`` is a NumPy function of the values
    alone (its parameters bound), whose result is a new array (not a view);
    ``shaped_by_values``: its result's shape depends on the values (see
    :func:`xnp.tracing.recording.native_call`)."""
    for a in arrays:
        if type(a) is not _ARRAY:
            return None
    if core.staging_active() or not getattr(core.eager_backend(), "computes_with_numpy",
                                            False):
        return None
    return recording.native_call(fn, *arrays, view=False, weak=weak, multiple=multiple,
                                 shaped_by_values=shaped_by_values)
