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
eager dispatch cache. Traced views of one array (``jit``) that NumPy writes without a buffer
(no ``where=``, no cast) are written in its element order, taken as C order; otherwise one
after the other.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
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
    kept = None if same or shared is not None else _traced_second_kept(
        outs, results, where, second_first)
    done = (_finish(fname, first, out1, where, casting),
            _finish(fname, second, out2, where if kept is None else kept, casting))
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


def _traced_second_kept(outs, results, where, second_first):
    """For two distinct traced views of one array that NumPy's loop writes directly (no
    ``where=``, outputs of the results' dtypes): where the second output keeps its element
    after that loop, which writes element ``i`` of both in C order (the second first when
    ``second_first``), written after the first output; else None."""
    if where is not True or not all(isinstance(o, core.Tracer) for o in outs) or any(
            core.aval_of(o).dtype != core.aval_of(r).dtype for o, r in zip(outs, results)):
        return None
    (root1, chain1), (root2, chain2) = (_view_chain(o) for o in outs)
    if root1 is not root2 or chain1 is None or chain2 is None:
        return None
    pos1, pos2 = (_positions(root1, chain) for chain in (chain1, chain2))
    n = core.aval_of(pos1).size
    i64 = np.dtype(np.int64)
    order = lax.iota(i64, (n,), 0)
    last = lax.broadcast_in_dim(M.scalar(-1, i64), (core.aval_of(root1).size,), ())
    # the last element of the first output written to each position of the array
    last = last.at[lax.reshape(pos1, (n,))].max(order)
    later = last[lax.reshape(pos2, (n,))]
    kept = lax.lt(later, order) if second_first else lax.le(later, order)
    return lax.reshape(kept, core.aval_of(outs[1]).shape)


def _view_chain(view):
    """``(root, chain)``: the traced array ``view`` is (a chain of views of), and the views'
    records from ``view`` up (None where a view cannot be read)."""
    chain = []
    rec = getattr(view, "view_of", None)
    while rec is not None:
        if rec.read is None:
            return view, None
        chain.append(rec)
        view = rec.base
        rec = getattr(view, "view_of", None)
    return view, chain


def _positions(root, chain):
    """The flat position in ``root`` of each element of the view ``chain`` reads."""
    shape = core.aval_of(root).shape
    pos = lax.reshape(lax.iota(np.dtype(np.int64), (int(np.prod(shape, dtype=np.int64)),), 0),
                      shape)
    for rec in reversed(chain):
        pos = rec.read(pos)
    return pos
