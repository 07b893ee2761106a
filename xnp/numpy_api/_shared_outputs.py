"""The two outputs of a two-output ufunc (``modf``) written where they share memory, as
NumPy's one loop writes them.

NumPy's loop writes both outputs element by element (for ``modf``'s float32/float64 loops
the integral part, then the fractional one; its float16 loop the other way round), so where
the two output arrays overlap, what the memory holds depends on that order: one array for
both holds the last of each element's two writes, and two views of one buffer at different
offsets hold, at each address, the later element's value. Outputs that NumPy casts are
written back in order, first then second. xnp writes its two results one after the other,
which is NumPy's answer for the cast outputs only: so the same array for both is written in
the loop's order, and eager outputs that otherwise share memory are written by NumPy's own
ufunc (its values are the kernel's) after xnp's checks. Such a call is not recorded by the
eager dispatch cache. Under ``jit`` distinct views of one traced array are written one after
the other.
"""

from __future__ import annotations

import numpy as np

from xnp.numpy_api._ufunc import _finish
from xnp.tracing import core
from xnp.tracing.recording import note_effect

__all__ = ["finish_two"]


def finish_two(fname: str, ufunc, operands, results, outs, where, casting, *,
               second_first: bool):
    """``(_finish(results[0], outs[0]), _finish(results[1], outs[1]))`` with NumPy's
    values where ``outs`` share memory (module docstring). ``ufunc``: NumPy's ufunc of
    ``fname`` on ``operands`` (xnp arrays, converted as its loop takes them), whose results
    ``results`` are; ``second_first``: the loop writes each element's second result
    before its first (``modf``'s float32/float64 loops)."""
    first, second = results
    out1, out2 = outs
    same = out1 is not None and out1 is out2 and all(
        core.aval_of(r).dtype == core.aval_of(out1).dtype for r in results)
    if same and second_first:
        second = _finish(fname, second, out2, where, casting)
        return _finish(fname, first, out1, where, casting), second
    shared = None if same else _shared_eager_memory(outs, operands, where)
    before = None if shared is None else [o.copy() for o in shared[1]]
    done = (_finish(fname, first, out1, where, casting),
            _finish(fname, second, out2, where, casting))
    if shared is not None:
        # (nothing a replay would repeat: the dispatch cache does not record the call)
        note_effect(f"wrote {fname}'s outputs, which share memory, with NumPy's loop")
        np_operands, np_outs, np_where = shared
        for o, old in zip(np_outs, before):  # the memory as NumPy's loop finds it
            o[...] = old
        with np.errstate(all="ignore"):  # (xnp's writes above met them already)
            ufunc(*np_operands, out=np_outs, where=np_where, casting=casting)
    return done


def _shared_eager_memory(outs, operands, where):
    """``(operands, outs, where)`` as NumPy arrays when the two outputs are distinct eager
    arrays sharing memory (operands and ``where`` eager or Python values), else None."""
    if not all(type(o) is core.Array for o in outs):
        return None
    views = [o._v for o in outs]  # (unwatched: only the memory bounds are compared)
    if any(v is None for v in views) or not np.shares_memory(*views):
        return None
    values = [*operands, where]
    if any(isinstance(v, core.Tracer) for v in values):
        return None
    np_values = [v._value if type(v) is core.Array else v for v in values]
    return tuple(np_values[:-1]), tuple(o._writable_value() for o in outs), np_values[-1]
