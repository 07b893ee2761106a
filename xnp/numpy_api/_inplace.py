"""Whole-array in-place writes for the NumPy functions that modify an argument
(``fill_diagonal``, ``place``, ``put``, ``putmask``, ``copyto``), and the in-place
operators of ``Array`` and of tracers (``operator_method``: ``a += b``, ...).

The new value is computed functionally; then an eager ``Array`` is overwritten
in place (as NumPy does) and a tracer's cell is written (:func:`xnp.numpy_api._views.rebind`,
so views and a jitted function's written-back arguments see the update).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import tiling as _tiling
from xnp.numpy_api._index_core import setitem
from xnp.numpy_api._fp_out import shares_memory_with
from xnp.numpy_api._ufunc import refuse_inplace_cast, scalar_cast_overflows
from xnp.numpy_api._util import (check_writable, is_xnp, raise_host_dtype,
                                  unmapped_write_error, write_whole)
from xnp.numpy_api._views import adopt, rebind, rebind_traced
from xnp.tracing import core, errors, rebound
from xnp.tracing.fp_warnings import ignoring_fp_errors, is_fp_error, renamed_fp_error
from xnp.tracing.recording import write_result

__all__ = ["check_target", "assign", "cycled", "python_values", "operator_method"]


def check_target(fname: str, a, argname: str = "a"):
    """``a`` must be an xnp array (it is modified in place); ``TypeError`` otherwise (an
    array of a dtype XLA has no type for raises ``HostDtypeError``: NumPy's function
    then writes into it, eagerly)."""
    if isinstance(a, core.Array) and type(a) is not core.Array:
        raise_host_dtype(fname, argname, a.dtype)
    if not is_xnp(a):
        raise TypeError(f"xnp.{fname}: argument `{argname}` must be an xnp array (it is "
                        f"modified in place), got {type(a).__name__}")
    return a


def assign(target, new, where=None) -> None:
    """Overwrite ``target`` (eager: in place; traced: rebind) with ``new``, which has
    ``target``'s shape, where the bool mask ``where`` (None: everywhere; of
    ``target``'s shape) holds; ``new`` is cast to ``target``'s dtype (unsafe, as NumPy's
    element assignment; only the elements written: a floating-point error of their cast
    that NumPy's settings raise comes after the write, as NumPy's).

    Raises
    ------
    NotImplementedError
        ``target`` is an eager array inside a transformation (see ``setitem``), or a
        tracer of an enclosing transformation.
    """
    taval, naval = core.aval_of(target), core.aval_of(new)
    assert taval.shape == naval.shape, "internal error in xnp: assign shape mismatch"
    fp_error = None
    if where is not None and naval.dtype != taval.dtype:  # (elements left out: no cast)
        new = lax.select_n(where, core.lift(np.zeros((), naval.dtype), naval.weak_type), new)
    if naval.dtype != taval.dtype or naval.weak_type != taval.weak_type:
        try:
            new = lax.convert_element_type(new, taval.dtype, weak_type=taval.weak_type)
        except (FloatingPointError, RuntimeWarning) as e:
            if type(target) is not core.Array or not is_fp_error(e):
                raise
            # NumPy's cast writes every element, then raises the error it met
            fp_error = e
            new = ignoring_fp_errors(lambda: lax.convert_element_type(
                new, taval.dtype, weak_type=taval.weak_type))
    if where is not None:
        new = lax.select_n(where, target, new)
    if type(target) is core.Array:
        setitem(target, Ellipsis, new)
    else:
        rebind(target, new)
    if fp_error is not None:
        raise fp_error


_PY_SCALARS = (bool, int, float, complex)


def _python_data(val) -> bool:
    """Whether ``val`` is a Python scalar or a (nested) list or tuple of them."""
    if type(val) in _PY_SCALARS:
        return True
    return type(val) in (list, tuple) and all(_python_data(v) for v in val)


def python_values(val, dt):
    """``val`` as NumPy converts the values of ``put``, ``putmask`` and ``place`` into the
    target's dtype ``dt`` when they are Python scalars or lists of them (a Python number
    out of an integer dtype's range raises NumPy's OverflowError, a float rounds toward
    zero); anything else (arrays, NumPy scalars) as it is, cast later like an array."""
    return np.array(val, dtype=dt) if _python_data(val) else val


def cycled(fname: str, val, count: int, dt):
    """``ravel(val)`` cast to ``dt`` (unsafe, as NumPy's element assignment; Python values
    as NumPy converts them, :func:`python_values`) and repeated cyclically to ``count``
    elements (NumPy's ``a.flat[idx] = val`` rule); None when ``val`` is empty."""
    v = _mn._asarray(fname, python_values(val, dt), "val")
    v = lax.reshape(v, (core.aval_of(v).size,))
    if core.aval_of(v).dtype != dt:
        v = lax.convert_element_type(v, dt)
    nv = core.aval_of(v).shape[0]
    if nv == 0:
        return None
    if nv == count:
        return v
    return lax.slice(_tiling.tile(v, -(-count // nv)), (0,), (count,))


def operator_method(name: str, op):
    """The in-place operator ``__i<op>__`` of the ufunc ``name``: ``op(a, b)`` (the value
    of ``a <op> b``) written into ``a`` under NumPy's 'same_kind' rule. An eager array is
    overwritten; a traced one, or one rebound inside ``grad``/``vmap``, is rebound."""
    array, tracer = core.Array, core.Tracer

    def method(self, other):
        target = rebound.resolve(self)  # an array bound to a cell: its current value
        bound = target is not self
        if not bound and type(self) is array:
            check_writable(self)  # (NumPy checks its output, then the output's cast,
            refuse_inplace_cast(name, self, other)  # before it computes anything)
        fp_error = None
        try:
            res = op(target, other)
        except ValueError:  # NumPy refuses the cast into `self` before it computes
            refuse_inplace_cast(name, target, other)
            raise
        except (FloatingPointError, RuntimeWarning) as e:
            if (type(self) is not array or bound or not is_fp_error(e)
                    or name == "matmul" or shares_memory_with(self, (other,), True)
                    or scalar_cast_overflows(name, (self, other), e)):
                # (NumPy computes `a @= b`, or an operand overlapping `self` other than
                # element for element, into a temporary it copies only after a clean loop;
                # a Python scalar that overflows the loop's dtype raises before the loop)
                raise
            # NumPy's loop writes `self` and then raises the floating-point error it met
            # (numpy.errstate 'raise', or its warning under a warnings filter 'error')
            fp_error = e
            res = ignoring_fp_errors(op, target, other)
        if not bound and type(self) is array and isinstance(res, tracer):
            bound = adopt(self, (res,))  # made by the running grad/vmap function
        if bound:
            rebind_traced(self, res, name)
            return self
        if type(self) is array:
            if isinstance(res, tracer):  # the error of `self[...] = res` (vmap's when batched)
                trace = core.current_trace()
                err = errors.ForeignWriteError(errors.eager_write_message(
                    self.aval, trace.transformation, core.staging_active(trace)))
                raise unmapped_write_error(err, self, other)
            ra = core.aval_of(res)
            if ra.shape != self.shape:
                raise ValueError(
                    f"non-broadcastable output operand with shape {self.shape} doesn't match "
                    f"the broadcast shape {ra.shape}")
            if not np.can_cast(ra.dtype, self.dtype, "same_kind"):
                raise TypeError(
                    f"Cannot cast ufunc '{name}' output from {ra.dtype!r} to {self.dtype!r} "
                    "with casting rule 'same_kind'")
            if ra.dtype != self.dtype:  # the loop's cast into `self`, after which NumPy
                try:  # raises its floating-point error naming the ufunc
                    res = lax.convert_element_type(res, self.dtype)
                except (FloatingPointError, RuntimeWarning) as e:
                    if not is_fp_error(e):
                        raise
                    fp_error = fp_error or renamed_fp_error(e, name)
                    res = ignoring_fp_errors(lax.convert_element_type, res, self.dtype)
            write_result(self, res, write_whole)
            if fp_error is not None:
                raise fp_error
            return self
        return rebind_traced(self, res, name)

    method.__name__ = f"__i{name}__"
    return method
