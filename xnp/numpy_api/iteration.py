"""``nditer`` and ``nested_iters``: NumPy's multi-operand iterator over eager arrays.

NumPy's ``numpy.nditer`` runs over the NumPy arrays of the xnp operands (eager arrays
wrap NumPy arrays: docs/architecture.md, "Eager arrays have NumPy's semantics"), so every flag, ``op_flags``, ``op_dtypes``, buffering,
casting, ``op_axes`` and broadcasting rule is NumPy's own. What it yields (``value``,
``operands``, ``itviews``, ``it[i]``) are xnp arrays sharing the iterator's memory:
``x[...] = v`` on them writes into the operands as NumPy's does (into the buffer or
copy first, written back on ``iternext``/``close``/``with`` exit for buffered or
``updateifcopy`` operands, exactly when NumPy writes back). An ``allocate``d operand
comes back as an xnp array.

Tracers have no memory to iterate: ``TypeError`` (use ``xnp.vectorize`` or whole-array
operations under ``jit``).
"""

from __future__ import annotations

import numpy as np

from xnp.tracing import core, errors
from xnp.tracing.core import Array, Tracer

__all__ = ["nditer", "nested_iters"]

_WRITES = ("readwrite", "writeonly")


def _operand_list(op):
    if isinstance(op, (tuple, list)):
        return list(op), True
    return [op], False


def _host_operands(fname, ops, op_flags):
    """The NumPy arrays to iterate: an eager array's own (made writable first when it is
    written), anything else as NumPy takes it."""
    nop = len(ops)
    if op_flags is None:
        per = [()] * nop
    elif op_flags and isinstance(op_flags[0], str):
        per = [op_flags] * nop
    else:
        per = list(op_flags)
    out = []
    for i, op in enumerate(ops):
        if isinstance(op, Tracer):
            raise TypeError(
                f"xnp.{fname}: operand {i} is a traced array ({errors.aval_str(op.aval)}): "
                "nditer iterates over an eager array's memory, which a traced array does not "
                "have; use whole-array operations or xnp.vectorize under jit/vmap/grad.")
        if type(op) is Array:
            flags = per[i] if i < len(per) else ()
            if any(f in _WRITES for f in flags):
                core.check_eager_write(op.aval)
                op = op._writable_value()
            else:
                op = op._value
        out.append(op)
    return out


def _wrap(v):
    if isinstance(v, np.ndarray):
        return Array(v)
    if isinstance(v, tuple):
        return tuple(_wrap(e) for e in v)
    return v


class nditer:
    """NumPy's ``nditer`` over xnp arrays (module docstring): same constructor
    (``op, flags, op_flags, op_dtypes, order, casting, op_axes, itershape,
    buffersize``), attributes, methods and context-manager protocol; array results are
    xnp arrays sharing the iterator's memory.

    Raises
    ------
    TypeError
        An operand is a tracer.
    ValueError, TypeError
        NumPy's, for invalid flags, casts and shapes.
    """

    __slots__ = ("_it", "_multi", "_operands", "_given")

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", op_axes=None, itershape=None, buffersize=0, *, _it=None,
                 _multi=None):
        ops = []
        if _it is None:
            ops, multi = _operand_list(op)
            hosts = _host_operands("nditer", ops, op_flags)
            _it = np.nditer(hosts if multi else hosts[0], flags, op_flags, op_dtypes, order,
                            casting, op_axes, itershape, buffersize)
            _multi = multi
        self._it = _it
        self._multi = _multi
        self._operands = None
        self._given = ops  # the xnp operands, given back by `operands` as NumPy's are

    # array-valued results, as xnp arrays
    @property
    def value(self):
        return _wrap(self._it.value)

    @property
    def operands(self):
        if self._operands is None:
            given = {id(g._val): g for g in self._given if type(g) is Array}
            self._operands = tuple(given[id(o)] if id(o) in given else Array(o)
                                   for o in self._it.operands)
        return self._operands

    @property
    def itviews(self):
        return tuple(Array(v) for v in self._it.itviews)

    def __getitem__(self, i):
        return _wrap(self._it[i])

    def __setitem__(self, i, value):
        self._it[i] = np.asarray(value._value if type(value) is Array else value)

    def __len__(self):
        return len(self._it)

    def __iter__(self):
        return self

    def __next__(self):
        return _wrap(next(self._it))

    def copy(self):
        return nditer(None, _it=self._it.copy(), _multi=self._multi)

    def __enter__(self):
        self._it.__enter__()
        return self

    def __exit__(self, *exc):
        return self._it.__exit__(*exc)

    def __getattr__(self, name):
        # the rest (multi_index, index, iterindex, iternext, reset, close, finished,
        # shape, ndim, nop, dtypes, remove_axis, ...) is NumPy's as it is
        return getattr(self._it, name)

    def __repr__(self):
        return f"<xnp.nditer over {self._it.nop} operand(s), shape {self._it.shape}>"


def nested_iters(op, axes, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", buffersize=0):
    """NumPy's ``nested_iters`` over xnp arrays: one ``nditer`` per group of ``axes``,
    the inner ones restarting as the outer ones advance (``numpy.nested_iters``; results
    are xnp arrays sharing the operands' memory, as :class:`nditer`'s)."""
    ops, multi = _operand_list(op)
    hosts = _host_operands("nested_iters", ops, op_flags)
    its = np.nested_iters(hosts if multi else hosts[0], axes, flags, op_flags, op_dtypes,
                          order, casting, buffersize)
    return tuple(nditer(None, _it=it, _multi=multi) for it in its)
