"""NumPy's index helpers: ``r_``, ``c_``, ``s_``, ``index_exp``, ``ndindex``,
``ndenumerate``, ``mask_indices`` and the ``broadcast`` object.

Each follows NumPy's ``numpy.lib._index_tricks_impl`` rules and builds its arrays with
xnp functions, so ``r_[x, 0, y]`` and ``ndenumerate(x)`` work on tracers under ``jit``
too (slices in ``r_`` and shapes are static). Elements come out as 0-d xnp arrays
(xnp's eager scalars), where NumPy gives NumPy scalars.
"""

from __future__ import annotations

import itertools
import numbers

import sys

import numpy as np

from xnp.numpy_api import creation as _cr
from xnp.numpy_api import dtypes as _dt
from xnp.numpy_api import ranges as _rg
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api.ndarray_internals import flatiter
from xnp.tracing import core

__all__ = ["r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate", "mask_indices",
           "broadcast"]

_SCALARS = (bool, int, float, complex, np.generic)


class AxisConcatenator:
    """``r_``/``c_``: ``obj[...]`` concatenates arrays, scalars and ``start:stop:step``
    ranges along ``axis`` after raising each to ``ndmin`` dimensions
    (``numpy.lib.index_tricks.AxisConcatenator``).

    A first string entry sets ``axis`` (``'1'``), ``axis,ndmin[,trans1d]``
    (``'0,2,0'``); a complex step ``a:b:nj`` means ``linspace(a, b, n)``. The result
    dtype is ``result_type`` of the entries (scalars are weak, as NumPy's).

    Raises
    ------
    TypeError
        A traced entry with a matrix directive (``'r'``/``'c'`` or a string key, which
        build a ``numpy.matrix`` with NumPy's own ``r_``/``c_``).
    ValueError
        A directive that is not the first entry, or an unknown one.
    """

    __slots__ = ("axis", "matrix", "ndmin", "trans1d")

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis, self.matrix, self.ndmin, self.trans1d = axis, matrix, ndmin, trans1d

    def _name(self):
        return "c_" if self.axis == -1 else "r_"

    def __getitem__(self, key):
        if isinstance(key, str) or self.matrix or (
                isinstance(key, tuple) and key and isinstance(key[0], str)
                and key[0] in ("r", "c")):
            return self._matrix(key)
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, type_objs = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                try:
                    if "," in item:
                        vec = [int(x) for x in item.split(",")]
                        if len(vec) not in (2, 3):
                            raise ValueError(item)
                        axis, ndmin = vec[:2]
                        trans1d = vec[2] if len(vec) == 3 else trans1d
                    else:
                        axis = int(item)
                except (ValueError, TypeError) as e:
                    raise ValueError(f"unknown special directive {item!r}") from e
                continue
            if isinstance(item, slice):
                new = self._range(item)
                if ndmin > 1:
                    new = _cr.array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = _mn.swapaxes(new, -1, trans1d)
                type_objs.append(core.aval_of(new).dtype)
            elif type(item) in _SCALARS or isinstance(item, _SCALARS):
                new = item
                type_objs.append(item)
            else:
                item_ndim = np.ndim(item) if not isinstance(item, core.Tracer) else item.ndim
                new = _cr.array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2, k1 = ndmin - item_ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(ndmin))
                    new = _mn.transpose(new, axes[:k1] + axes[k2:] + axes[k1:k2])
                type_objs.append(core.aval_of(new).dtype)
            objs.append(new)
        if type_objs:
            dt = _dt.result_type(*type_objs)
            objs = [_cr.array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        return _mn.concatenate(tuple(objs), axis=axis)

    def _matrix(self, key):
        """A string key (``'1 2; 3 4'``) or the ``'r'``/``'c'`` directive: NumPy's own
        ``r_``/``c_`` on the concrete entries, giving a ``numpy.matrix`` (``xnp.matrix``)."""
        if isinstance(key, str):  # names of the caller's arrays, as numpy.bmat reads them
            caller = sys._getframe(2)
            return np.bmat(key, caller.f_globals, caller.f_locals)
        entries = key if isinstance(key, tuple) else (key,)
        if any(isinstance(e, core.Tracer) for e in entries):
            raise TypeError(f"xnp.{self._name()}: a matrix directive builds a numpy.matrix from "
                            "concrete values; an entry is traced (inside jit/grad/vmap).")
        host = tuple(e._value if type(e) is core.Array else e for e in entries)
        return (np.c_ if self.axis == -1 else np.r_)[host]

    def _range(self, item: slice):
        start = 0 if item.start is None else item.start
        step = 1 if item.step is None else item.step
        if isinstance(step, (complex, np.complexfloating)):
            return _rg.linspace(start, item.stop, num=int(abs(step)))
        return _rg.arange(start, item.stop, step)

    def __len__(self):
        return 0

    def __repr__(self):
        return f"xnp.{self._name()}"


#: ``r_[...]``: concatenation along the first axis (``numpy.r_``)
r_ = AxisConcatenator(0)
#: ``c_[...]``: 1-D entries become columns, concatenated along the last axis (``numpy.c_``)
c_ = AxisConcatenator(-1, ndmin=2, trans1d=0)


class IndexExpression:
    """``s_[idx]`` / ``index_exp[idx]``: the index object itself (``index_exp`` always
    a tuple), for building indices to pass around (``numpy.s_``, ``numpy.index_exp``)."""

    __slots__ = ("maketuple",)

    def __init__(self, maketuple: bool):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item

    def __repr__(self):
        return "xnp.index_exp" if self.maketuple else "xnp.s_"


index_exp = IndexExpression(maketuple=True)
s_ = IndexExpression(maketuple=False)


def _shape_arg(fname, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    out = []
    for d in shape:
        if isinstance(d, core.Tracer) or not isinstance(d, numbers.Integral):
            raise TypeError(f"xnp.{fname}: the shape must be static integers, got {shape!r}")
        if d < 0:
            raise ValueError(f"xnp.{fname}: negative dimensions are not allowed, got {shape!r}")
        out.append(int(d))
    return tuple(out)


class ndindex:
    """Iterator over the N-d indices of ``shape`` in C order: tuples of ints
    (``numpy.ndindex``; ``ndindex(2, 3)`` or ``ndindex((2, 3))``; ``ndindex()`` yields
    ``()`` once)."""

    def __init__(self, *shape):
        self._shape = _shape_arg("ndindex", shape)
        self._it = itertools.product(*(range(d) for d in self._shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """Iterator of ``(index, element)`` pairs of ``arr`` in C order
    (``numpy.ndenumerate``): the index a tuple of ints, the element ``arr[index]`` (a
    0-d array; a tracer under ``jit``)."""

    def __init__(self, arr):
        self._arr = arr if isinstance(arr, (core.Array, core.Tracer)) else _cr.asarray(arr)
        self._idx = ndindex(self._arr.shape)

    def __iter__(self):
        return self

    def __next__(self):
        idx = next(self._idx)
        return idx, self._arr[idx]


def mask_indices(n, mask_func, k=0):
    """The indices ``nonzero(mask_func(ones((n, n), int), k) != 0)`` (``numpy.mask_indices``),
    e.g. ``mask_indices(3, xnp.triu)``: the upper triangle's (rows, columns), int arrays.

    ``n`` and ``k`` are static; ``mask_func`` (``xnp.triu``, ``xnp.tril``, ...) runs
    eagerly even under ``jit`` (the indices depend on ``n``, ``k`` only), so the result
    has a static size there.
    """
    from xnp.numpy_api import indexing as _ix  # noqa: PLC0415

    if isinstance(n, core.Tracer) or isinstance(k, core.Tracer):
        raise TypeError("xnp.mask_indices: `n` and `k` must be static, got a traced value")
    with core.set_current_trace(core._BASE_TRACE):
        m = _cr.ones((n, n), dtype=int)
        a = mask_func(m, k)
        return _ix.nonzero(_cr.asarray(a) != 0)


class broadcast:
    """The broadcast of ``args`` against each other (``numpy.broadcast``): ``shape``,
    ``ndim`` (and ``nd``), ``size``, ``numiter``, ``iters`` (one ``flatiter`` per
    argument over its broadcast view), ``index``; iterating yields tuples of elements
    in C order (0-d arrays), ``reset()`` goes back to the start. A ``broadcast`` given
    as an argument contributes its own arguments.

    Raises
    ------
    ValueError
        The shapes do not broadcast (NumPy's message), or more than 64 arguments.
    """

    def __init__(self, *args):
        arrays = []
        for a in args:
            if isinstance(a, broadcast):
                arrays.extend(a._arrays)
            else:
                arrays.append(a if isinstance(a, (core.Array, core.Tracer)) else _cr.asarray(a))
        if len(arrays) > 64:
            raise ValueError(f"Need at least 0 and at most 64 array objects, got {len(arrays)}.")
        self._arrays = arrays
        self.shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        views = [_mn.broadcast_to(a, self.shape) for a in arrays]
        self.iters = tuple(flatiter.of(v) for v in views)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    nd = ndim

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def numiter(self) -> int:
        return len(self.iters)

    @property
    def index(self) -> int:
        return self.iters[0].index if self.iters else 0

    def reset(self) -> None:
        for it in self.iters:
            it._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.size or not self.iters:
            raise StopIteration
        return tuple(next(it) for it in self.iters)
