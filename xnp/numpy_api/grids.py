"""Coordinate grids and index conversion: ``meshgrid``, ``indices``, ``ix_``,
``mgrid``/``ogrid``, ``unravel_index``, ``ravel_multi_index``, ``logspace``,
``geomspace`` and ``fromfunction``.

Shapes, slice bounds and ``num`` are static (a traced one raises
``xnp.errors.ConcretizationTypeError``); the coordinates themselves may be
traced where NumPy takes arrays (``meshgrid`` inputs, ``unravel_index``
indices, ``logspace`` endpoints ...). Index arrays are int64 (the default int).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from xnp import lax
from xnp.numpy_api import creation as _cr
from xnp.numpy_api import elementwise as _ew
from xnp.numpy_api import indexing as _ix
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import ranges as _rg
from xnp.numpy_api import transcendental as _tr
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._util import (api_sequence, asarray_for, check_unsupported, default_float,
                                 default_int, is_xnp, normalize_axis, static_int,
                                 broadcast_shapes)
from xnp.numpy_api.creation import _NO_LIKE
from xnp.tracing import core, errors
from xnp.tracing.avals import canonical_dtype

__all__ = ["meshgrid", "indices", "ix_", "mgrid", "ogrid", "unravel_index",
           "ravel_multi_index", "logspace", "geomspace", "fromfunction"]


def _const(value, dt):
    return core.lift(np.asarray(value, dt))


def _static_shape(fname, shape, argname="shape") -> tuple[int, ...]:
    if isinstance(shape, (numbers.Integral,)) or (is_xnp(shape) and core.aval_of(shape).ndim == 0):
        return (static_int(fname, shape, argname),)
    return tuple(static_int(fname, d, argname) for d in shape)


# --------------------------------------------------------------------------- grids


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate matrices from coordinate vectors (``numpy.meshgrid``).

    Parameters
    ----------
    *xi : array_like
        N coordinate arrays (flattened; any dtype, each keeps its own).
    copy : bool
        True (the default): new C-contiguous arrays, as NumPy's (a write into one
        changes one element). False: eagerly NumPy's views of the inputs (dense: the
        broadcast views of ``numpy.broadcast_arrays``, several elements sharing memory,
        whose writes warn ``DeprecationWarning`` as NumPy's; sparse: reshaped views).
    sparse : bool
        Return arrays of shape ``(1, .., n_i, .., 1)`` instead of the full grid.
    indexing : {'xy', 'ij'}
        'xy' (Cartesian): the first two output axes are swapped, so for 2-D
        inputs of lengths M, N the outputs have shape ``(N, M)``. 'ij': ``(M, N)``.

    Returns
    -------
    tuple of Array
        One array per input (an empty tuple without inputs); a list when xnp presents
        an Array API version before 2025.12 (the ``array_api_version`` option), and, as
        NumPy's, with ``sparse=True, copy=False``.

    Raises
    ------
    ValueError
        ``indexing`` is not 'xy' or 'ij'.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    out = []
    grid = [1] * nd  # the grid's shape
    for i, x in enumerate(xi):
        x = _mn._asarray("meshgrid", x, "xi")
        shape = [1] * nd
        shape[i] = grid[i] = core.aval_of(x).size
        if indexing == "xy" and nd > 1:
            shape[0], shape[1] = shape[1], shape[0]
        out.append(lax.reshape(x, tuple(shape)))
    if indexing == "xy" and nd > 1:
        grid[0], grid[1] = grid[1], grid[0]
    if not sparse and nd and copy:  # the grid as new arrays: broadcasts copied
        out = [lax.broadcast_in_dim(o, tuple(grid), tuple(range(nd))) for o in out]
    elif not sparse and nd:
        out = list(_mn.broadcast_arrays(*out))
    if copy:  # NumPy's x.copy(): C-contiguous, also where the view was not
        out = [_cr.copy(o, order="C") for o in out]
    elif sparse:  # NumPy's list of the reshaped views (a tuple in every other case)
        return list(out)
    return api_sequence(out)


def indices(dimensions, dtype=int, sparse=False):
    """The index grid of an array of shape ``dimensions`` (``numpy.indices``).

    ``dimensions`` is static. Dense: one array of shape ``(N,) + dimensions`` whose
    ``i``-th entry holds the ``i``-th coordinate; ``sparse``: a tuple of N arrays of
    shape ``(1, .., d_i, .., 1)``. ``dtype`` defaults to the default int (int64).
    """
    dims = _static_shape("indices", dimensions, "dimensions")
    dt = default_int() if dtype is int else canonical_dtype(dtype)
    nd = len(dims)
    if sparse:
        return tuple(lax.iota(dt, tuple(d if j == i else 1 for j, d in enumerate(dims)), i)
                     for i in range(nd))
    if nd == 0:
        return _cr.zeros((0,), dtype=dt)
    return lax.concatenate([lax.iota(dt, (1,) + dims, i + 1) for i in range(nd)], 0)


def ix_(*args):
    """Open mesh from 1-D sequences, for cross-product indexing ``a[ix_(rows, cols)]``.

    Each argument becomes an array of shape ``(1, .., n_i, .., 1)``. Boolean
    sequences are converted to the positions of their True entries (needs concrete
    data: a traced mask raises ``xnp.errors.ConcretizationTypeError``). An empty
    Python sequence gives an int64 array.

    Raises
    ------
    ValueError
        An argument is not 1-D.
    """
    nd = len(args)
    out = []
    for k, seq in enumerate(args):
        if not is_xnp(seq) and not isinstance(seq, np.ndarray):
            host = np.asarray(seq)
            seq = host.astype(default_int()) if host.size == 0 else host
        x = asarray_for("ix_", seq, "args")
        aval = core.aval_of(x)
        if aval.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if aval.dtype == np.bool_:
            (x,) = _ix.nonzero(seq)  # host data stays concrete under jit
        n = core.aval_of(x).shape[0]
        out.append(lax.reshape(x, (1,) * k + (n,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _slice_parts(key):
    """(start, stop, step, count, typ) of an ``mgrid`` slice, NumPy's rules."""
    start = 0 if key.start is None else key.start
    stop = key.stop
    step = 1 if key.step is None else key.step
    for v in (start, stop, step):
        if isinstance(v, core.Tracer) or type(v) is core.Array:
            raise errors.ConcretizationTypeError(
                "xnp.mgrid/ogrid: slice bounds must be static Python numbers.")
    if isinstance(step, (complex, np.complexfloating)):
        count = int(abs(step))
        step = (stop - start) / float(count - 1) if count != 1 else 1
        return start, stop, step, count, [start, stop, abs(key.step)]
    return start, stop, step, math.ceil((stop - start) / step), [start, stop, step]


class _Grid:
    """``mgrid`` (dense) / ``ogrid`` (open): ``grid[start:stop:step, ...]``.

    Slices are static. A real step spaces points like ``arange``; an imaginary
    step ``nj`` gives ``n`` points from start to stop inclusive (like ``linspace``).
    Dtype: NumPy's ``result_type`` of the bounds (int64 or float64). One slice
    gives a 1-D array; several give an ``(N, ...)`` array (``mgrid``) or a tuple of
    broadcastable arrays (``ogrid``).
    """

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, key):
        single = isinstance(key, slice)
        keys = (key,) if single else tuple(key)
        parts = [_slice_parts(k) for k in keys]
        typ = np.result_type(*(v for p in parts for v in p[4]))
        if single:
            typ = np.result_type(*parts[0][4]) if isinstance(key.step, complex) else typ
        typ = canonical_dtype(typ)
        counts = tuple(max(p[3], 0) for p in parts)
        nd = len(parts)
        axes = []
        for i, (start, _, step, _, _) in enumerate(parts):
            shape = counts if not self.sparse and not single else tuple(
                c if j == i else 1 for j, c in enumerate(counts))
            v = lax.iota(typ, shape, i)
            axes.append(lax.add(lax.mul(v, _const(step, typ)), _const(start, typ)))
        if single:
            return axes[0]
        if self.sparse:
            return tuple(axes)
        return lax.concatenate([lax.reshape(a, (1,) + counts) for a in axes], 0) if nd else (
            _cr.zeros((0,), dtype=typ))

    def __repr__(self):
        return "xnp.ogrid" if self.sparse else "xnp.mgrid"


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


# --------------------------------------------------------------------------- index conversion


def _int_indices(fname, x, argname):
    """``x`` as an integer xnp value of the default int dtype (float -> TypeError)."""
    x = asarray_for(fname, x, argname)
    if core.aval_of(x).dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    return lax.convert_element_type(x, default_int()) if core.aval_of(x).dtype != default_int() \
        else x


def _host_of(x):
    """Concrete host data of ``x`` (Python/NumPy data stays concrete under jit), else None."""
    return _concrete(x) if is_xnp(x) else np.asarray(x)


def _check_order(order):
    if order not in ("C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def unravel_index(indices, shape, order="C"):
    """Flat indices -> a tuple of coordinate arrays for ``shape`` (``numpy.unravel_index``).

    Parameters
    ----------
    indices : array_like of int
        Any shape; may be traced.
    shape : tuple of int
        Static.
    order : {'C', 'F'}
        Row-major or column-major numbering.

    Returns
    -------
    tuple of Array
        ``len(shape)`` int64 arrays with ``indices``' shape.

    Raises
    ------
    TypeError
        Non-integer ``indices``.
    ValueError
        A concrete index outside ``[0, prod(shape))``. A traced index cannot be
        checked: it is clipped into range first (as JAX does).
    """
    _check_order(order)
    dims = _static_shape("unravel_index", shape)
    host = _host_of(indices)
    idx = _int_indices("unravel_index", indices, "indices")
    size = math.prod(dims)
    dt = default_int()
    if host is not None:
        bad = host[(host < 0) | (host >= size)]
        if bad.size:
            raise ValueError(f"index {bad.flat[0]} is out of bounds for array with size {size}")
    else:
        idx = lax.clamp(_const(0, dt), idx, _const(max(size - 1, 0), dt))
    out = [None] * len(dims)
    order_dims = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for d in order_dims:
        n = _const(max(dims[d], 1), dt)
        out[d] = lax.rem(idx, n)
        idx = lax.div(idx, n)
    return tuple(out)


def _apply_mode(idx, host, n, mode):
    dt = default_int()
    if mode == "raise":
        if host is not None:
            if ((host < 0) | (host >= n)).any():
                raise ValueError("invalid entry in coordinates array")
            return idx
        mode = "clip"  # a traced index cannot raise: clipped, documented
    if mode == "clip":
        return lax.clamp(_const(0, dt), idx, _const(max(n - 1, 0), dt))
    r = lax.rem(idx, _const(n, dt))
    return lax.select_n(lax.lt(r, _const(0, dt)), r, lax.add(r, _const(n, dt)))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of coordinate arrays into shape ``dims`` (``numpy.ravel_multi_index``).

    Parameters
    ----------
    multi_index : sequence of array_like of int
        One integer array per dimension; they broadcast together. May be traced.
    dims : tuple of int
        Static shape.
    mode : {'raise', 'wrap', 'clip'} or tuple of them
        Per dimension. 'raise': a concrete out-of-range coordinate raises
        ``ValueError``; a traced one cannot be checked and is clipped (documented
        difference). 'wrap': modulo the dimension. 'clip': clamped into range.
    order : {'C', 'F'}

    Returns
    -------
    Array
        int64 with the broadcast shape of ``multi_index``.

    Raises
    ------
    ValueError
        Wrong number of coordinate arrays, bad ``mode``, or a concrete
        out-of-range coordinate with ``mode='raise'``.
    TypeError
        Non-integer coordinates.
    """
    _check_order(order)
    dims = _static_shape("ravel_multi_index", dims, "dims")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    coords = list(multi_index)
    if len(coords) != len(dims) or len(modes) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    hosts = [_host_of(c) for c in coords]
    coords = [_int_indices("ravel_multi_index", c, "multi_index") for c in coords]
    coords = [_apply_mode(c, h, n, m) for c, h, n, m in zip(coords, hosts, dims, modes)]
    coords = _mn.broadcast_arrays(*coords)
    strides = np.ones(len(dims), dtype=np.int64)
    seq = range(len(dims) - 2, -1, -1) if order == "C" else range(1, len(dims))
    for d in seq:
        nxt = d + 1 if order == "C" else d - 1
        strides[d] = strides[nxt] * dims[nxt]
    dt = default_int()
    total = None
    for c, s in zip(coords, strides):
        term = lax.mul(c, _const(s, dt))
        total = term if total is None else lax.add(total, term)
    return total


# --------------------------------------------------------------------------- spaced numbers


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num, endpoint)`` (``numpy.logspace``).

    ``start``, ``stop`` and ``base`` may be arrays (they broadcast; ``base`` gets
    the new axis inserted at ``axis``) and traced; ``num``, ``endpoint`` and ``axis``
    are static. Dtype: that of ``power(base, y)`` (float64 for Python numbers),
    or ``dtype``.
    """
    if isinstance(base, (list, tuple)):
        base = _mn._asarray("logspace", base, "base")
    base_nd = core.aval_of(base).ndim if is_xnp(base) else np.ndim(base)
    if not isinstance(base, (float, int)) and base_nd:
        # as NumPy: an array base makes all three arrays (a Python number at its default
        # dtype, not weak) at the rank of their broadcast, and gets the new axis too
        ops = [_mn._asarray("logspace", np.asarray(v) if core.is_python_scalar(v) else v,
                            name) for v, name in ((start, "start"), (stop, "stop"),
                                                  (base, "base"))]
        nd = len(broadcast_shapes("logspace", *(core.aval_of(v).shape for v in ops)))
        start, stop, base = (
            lax.reshape(v, (1,) * (nd - core.aval_of(v).ndim) + core.aval_of(v).shape)
            for v in ops)
        base = _mn.expand_dims(base, axis)
    y = _rg.linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    res = _ew.power(base, y)
    return res if dtype is None else _cr.astype(res, canonical_dtype(dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from ``start`` to ``stop`` (``numpy.geomspace``).

    Negative and complex endpoints work as in NumPy (the sequence is computed for
    ``start`` rotated onto the positive real axis, then rotated back); the first
    and (with ``endpoint``) last values are exactly ``start`` and ``stop``.
    ``num``, ``endpoint`` and ``axis`` are static; the endpoints may be traced.
    Dtype: ``result_type(start, stop, default float)`` (NumPy's), or ``dtype``.

    Raises
    ------
    ValueError
        A zero in ``start`` or ``stop`` (eagerly, and under ``grad``/``vmap``). Under
        ``jit`` nothing is checked: a zero gives NaN/inf values instead.
    """
    for v in (start, stop):
        if not is_xnp(v) and (np.asarray(v) == 0).any():  # (host data: checked here)
            raise ValueError("Geometric sequence cannot include zero")
    start = _mn._asarray("geomspace", start, "start")
    stop = _mn._asarray("geomspace", stop, "stop")
    for v in (start, stop):  # (an equation: each replay of an eager call checks its values)
        lax.runtime_error(lax.eq(v, core.lift(np.zeros((), core.aval_of(v).dtype))),
                          "Geometric sequence cannot include zero")
    num = static_int("geomspace", num, "num")
    # (NumPy's: with a 0-d array of ``dtype``, the default float when None, so float32
    # endpoints compute in float64 unless dtype= says otherwise)
    dt = np.result_type(core.aval_of(start).dtype, core.aval_of(stop).dtype, 1.0,
                        np.zeros((), default_float() if dtype is None else
                                 canonical_dtype(dtype)))
    start = lax.convert_element_type(start, dt)
    stop = lax.convert_element_type(stop, dt)
    sign = _ew.sign(start)
    start = _ew.divide(start, sign)
    stop = _ew.divide(stop, sign)
    res = logspace(_tr.log10(start), _tr.log10(stop), num=num, endpoint=endpoint, base=10.0)
    res = lax.convert_element_type(res, dt) if core.aval_of(res).dtype != dt else res
    if num > 0:
        bshape = core.aval_of(res).shape[1:]
        res = res.at[0].set(_mn.broadcast_to(start, bshape))
        if num > 1 and endpoint:
            res = res.at[-1].set(_mn.broadcast_to(stop, bshape))
    res = _ew.multiply(res, sign)
    if axis != 0:
        res = _mn.moveaxis(res, 0, normalize_axis("geomspace", axis, core.aval_of(res).ndim))
    return res if dtype is None else _cr.astype(res, canonical_dtype(dtype))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype=dtype), **kwargs)`` (``numpy.fromfunction``).

    ``function`` is called once with N coordinate arrays (not once per element)
    and must work on xnp arrays; its return value is returned unchanged.
    ``shape`` is static; ``dtype`` defaults to the default float.
    """
    check_unsupported("fromfunction", like=(like, None, _NO_LIKE))
    dt = default_float() if dtype is float else canonical_dtype(dtype)
    coords = indices(shape, dtype=dt)
    n = len(_static_shape("fromfunction", shape))
    return function(*(coords[i] for i in range(n)), **kwargs)
