"""Diagonals, triangles and special matrices (NumPy's "building matrices" routines and
the diagonal/triangle index helpers): ``diag``, ``diagonal``, ``diagflat``, ``trace``,
``tri``, ``tril``, ``triu``, the ``*_indices`` functions, ``fill_diagonal``,
``vander`` and ``rot90``.

Offsets (``k``, ``offset``), sizes and axes are static (a traced one raises
``xnp.errors.ConcretizationTypeError``). Index helpers (``tril_indices`` ...)
depend only on static sizes and return int64 (default int) arrays. ``diagonal``
returns a new array where NumPy returns a read-only view. ``fill_diagonal``
writes in place: an eager array is modified, a tracer is rebound (docs/architecture.md, "In-place updates and views").
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from xnp import lax
from xnp.lax import _matrix as M
from xnp.numpy_api import _inplace
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api._host_calls import eager_host_write
from xnp.numpy_api._shape_views import read_only_view
from xnp.numpy_api._util import (check_unsupported, default_float, default_int,
                                 normalize_axis, static_int, warn_complex_to_real)
from xnp.numpy_api.creation import _NO_LIKE, _fill
from xnp.tracing import core, recording
from xnp.tracing.avals import canonical_dtype

__all__ = ["diag", "diagonal", "diagflat", "trace", "tri", "tril", "triu", "tril_indices",
           "tril_indices_from", "triu_indices", "triu_indices_from", "diag_indices",
           "diag_indices_from", "fill_diagonal", "vander", "rot90"]


def _shape(x):
    return core.aval_of(x).shape


def _index_arrays(*arrays):
    """Static NumPy index arrays as xnp values of the default int dtype: each a new
    C-contiguous array owning its memory, as NumPy's (``nonzero``'s are strided views)."""
    return tuple(core.lift(np.array(a, dtype=default_int(), order="C")) for a in arrays)


# --------------------------------------------------------------------------- diagonals


def _diag_matrix(v, k: int):
    """The square matrix with the 1-D ``v`` on diagonal ``k``: ``v`` spaced ``n + 1`` apart
    in the flattened matrix by interior padding (linear, so it differentiates)."""
    length = _shape(v)[0]
    n = length + abs(k)
    zero = core.lift(np.zeros((), core.aval_of(v).dtype))
    if length == 0:
        return lax.broadcast_in_dim(zero, (n, n), ())
    low = k if k >= 0 else -k * n
    high = n * n - low - length - (length - 1) * n
    return lax.reshape(lax.pad(v, zero, ((low, high, n),)), (n, n))


def diag(v, k=0):
    """Extract a diagonal of a 2-D array, or build a 2-D array with a 1-D input on a diagonal.

    Parameters
    ----------
    v : array_like
        1-D: the result is the square ``(len(v) + |k|)`` matrix with ``v`` on
        diagonal ``k`` and zeros elsewhere. 2-D: the result is ``diagonal(v, k)``.
    k : int
        Diagonal offset (static): > 0 above the main diagonal, < 0 below.

    Returns
    -------
    Array
        ``v``'s dtype. For 2-D input a read-only view (as :func:`diagonal`).

    Raises
    ------
    ValueError
        ``v`` is not 1-D or 2-D.
    xnp.errors.ConcretizationTypeError
        ``k`` is traced.
    """
    v = _mn._asarray("diag", v, "v")
    k = static_int("diag", k, "k")
    nd = core.aval_of(v).ndim
    if nd == 1:
        return _diag_matrix(v, k)
    if nd == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """The 2-D array with the flattened ``v`` on diagonal ``k`` (``numpy.diagflat``).

    Shape ``(v.size + |k|, v.size + |k|)``, ``v``'s dtype; ``k`` is static.
    """
    v = _mn._asarray("diagflat", v, "v")
    k = static_int("diagflat", k, "k")
    return _diag_matrix(lax.reshape(v, (core.aval_of(v).size,)), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset``-th diagonal of the 2-D sub-arrays spanned by ``axis1`` and ``axis2``.

    Parameters
    ----------
    a : array_like
        At least 2-D.
    offset : int
        Static; > 0 above the main diagonal (towards larger ``axis2`` index).
    axis1, axis2 : int
        The matrix axes (static, distinct).

    Returns
    -------
    Array
        ``a``'s dtype; shape: ``a.shape`` without ``axis1``/``axis2``, plus the
        diagonal's length last. As NumPy, a read-only view of ``a`` (writing into it
        raises ``ValueError``; under a transformation it sees later writes into ``a``).

    Raises
    ------
    ValueError
        ``a`` has fewer than 2 dimensions, or ``axis1 == axis2``.
    numpy.exceptions.AxisError
        An axis is out of range.

    Notes
    -----
    ``xnp.linalg.diagonal`` is the Array API form (last two axes, keyword ``offset``);
    both use one strided-slice implementation.
    """
    a, read, offset, ax1, ax2 = _diagonal_of("diagonal", a, offset, axis1, axis2)
    return read_only_view(a, read, operator.methodcaller("diagonal", offset, ax1, ax2))


def _diagonal_of(fname, a, offset, axis1, axis2):
    """``a`` as an xnp value, ``read`` (``read(a)`` computes the diagonal, not a view) and
    the checked ``offset``, ``axis1``, ``axis2`` of ``diagonal``'s arguments."""
    a = _mn._asarray(fname, a)
    nd = core.aval_of(a).ndim
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    offset = static_int(fname, offset, "offset")
    ax1 = normalize_axis(fname, axis1, nd, "axis1")
    ax2 = normalize_axis(fname, axis2, nd, "axis2")
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    perm = tuple(d for d in range(nd) if d not in (ax1, ax2)) + (ax1, ax2)

    def read(b):
        return M.diagonal(lax.transpose(b, perm) if perm != tuple(range(nd)) else b, offset)

    return a, read, offset, ax1, ax2


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (``numpy.trace``): ``sum(diagonal(a, offset, axis1, axis2), -1)``.

    Dtype as ``xnp.sum`` (bool and narrow ints widen to the default int) or ``dtype``;
    shape: ``a.shape`` without ``axis1``/``axis2`` (0-d for a matrix). ``out`` is
    written as in NumPy (rebound under jit). Raises as :func:`diagonal`.
    """
    a, read, offset, ax1, ax2 = _diagonal_of("trace", a, offset, axis1, axis2)
    if type(a) is core.Array and a._dev is None and core.is_eager(core.current_trace()):
        # eagerly NumPy's diagonal (a view: one call when replayed, as numpy.trace sums it)
        d = recording.native_call(operator.methodcaller("diagonal", offset, ax1, ax2), a)
    else:
        d = read(a)  # (no view needed)
    return _rd.sum(d, axis=-1, dtype=dtype, out=out)


# --------------------------------------------------------------------------- triangles


def _tri_mask(n: int, m: int, k: int):
    """bool ``(n, m)``: True where ``col <= row + k``."""
    it = default_int()
    rows = lax.iota(it, (n, m), 0)
    cols = lax.iota(it, (n, m), 1)
    return lax.le(cols, lax.add(rows, core.lift(np.asarray(k, it))))


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """Ones at and below diagonal ``k``, zeros above (``numpy.tri``).

    ``N``, ``M`` (default ``N``) and ``k`` are static. ``dtype`` defaults to
    float64 (the default float). Shape ``(N, M)``.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``N``, ``M`` or ``k`` is traced.
    NotImplementedError
        ``like`` is given.

    A negative ``N`` or ``M`` is an empty dimension and ``k`` may be a float of integral
    value, as in NumPy; a non-integral ``k`` raises ``TypeError``.
    """
    check_unsupported("tri", like=(like, None, _NO_LIKE))
    n = max(static_int("tri", N, "N"), 0)
    m = n if M is None else max(static_int("tri", M, "M"), 0)
    k = _diagonal_offset("tri", k)
    dt = default_float() if dtype is None or dtype is float else canonical_dtype(dtype)
    if core.is_eager(core.current_trace()) and (
            n * m * dt.itemsize <= recording.MAX_CONSTANT_BYTES):
        return core.lift(np.tri(n, m, k, dtype=dt))  # (eagerly a constant: replayed as a copy)
    return lax.convert_element_type(_tri_mask(n, m, k), dt)


def _diagonal_offset(fname: str, k) -> int:
    """A static diagonal offset: an integer, or a float of integral value, as NumPy takes
    it. A non-integral ``k`` raises ``TypeError``: NumPy's result for one follows from
    the steps of its integer ``arange(-k, M - k)`` and is not a defined diagonal."""
    if isinstance(k, (float, np.floating)):
        if not float(k).is_integer():
            raise TypeError(f"xnp.{fname}: `k` must be an integer or an integral float, got "
                            f"{k!r}")
        return int(k)
    return static_int(fname, k, "k")


def _triangle(fname: str, m, k, lower: bool):
    m = _mn._asarray(fname, m, "m")
    k = _diagonal_offset(fname, k)
    shape = _shape(m)
    if len(shape) == 0:
        raise TypeError(f"xnp.{fname}: `m` must be at least 1-D, got a 0-d array")
    if len(shape) == 1:  # as NumPy: the mask is (n, n) and broadcasts the row
        m = lax.broadcast_in_dim(m, (shape[0], shape[0]), (1,))
    return M.tril(m, k) if lower else M.triu(m, k)


def tril(m, k=0):
    """``m`` with the elements above diagonal ``k`` set to zero (``numpy.tril``).

    Works on the last two axes of any stack of matrices; a 1-D ``m`` is treated
    as a row repeated into a square matrix, as in NumPy. ``k`` is static.
    Dtype and shape of ``m`` (1-D: ``(n, n)``).

    Raises
    ------
    TypeError
        ``m`` is 0-d (as NumPy).
    """
    return _triangle("tril", m, k, True)


def triu(m, k=0):
    """``m`` with the elements below diagonal ``k`` set to zero (``numpy.triu``).

    Same conventions as :func:`tril`.
    """
    return _triangle("triu", m, k, False)


def _tri_indices(fname, n, k, m, lower: bool):
    n = static_int(fname, n, "n")
    k = static_int(fname, k, "k")
    m = n if m is None else static_int(fname, m, "m")
    if lower:
        mask = np.tri(n, m, k=k, dtype=bool)
    else:
        mask = ~np.tri(n, m, k=k - 1, dtype=bool)
    return _index_arrays(*np.nonzero(mask))  # static sizes only: no array data involved


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle (diagonal ``k`` and below) of an
    ``(n, m)`` array, row-major (``numpy.tril_indices``). All arguments are static;
    returns a tuple of two int64 (default int) arrays."""
    return _tri_indices("tril_indices", n, k, m, True)


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle (diagonal ``k`` and above) of an
    ``(n, m)`` array, row-major (``numpy.triu_indices``). All arguments are static."""
    return _tri_indices("triu_indices", n, k, m, False)


def _from_2d(fname, arr):
    shape = _shape(_mn._asarray(fname, arr, "arr"))
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr, k=0):
    """:func:`tril_indices` for ``arr``'s (static) 2-D shape; ``ValueError`` if not 2-D."""
    n, m = _from_2d("tril_indices_from", arr)
    return tril_indices(n, k=k, m=m)


def triu_indices_from(arr, k=0):
    """:func:`triu_indices` for ``arr``'s (static) 2-D shape; ``ValueError`` if not 2-D."""
    n, m = _from_2d("triu_indices_from", arr)
    return triu_indices(n, k=k, m=m)


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an ``n``-per-side, ``ndim``-dimensional array:
    the same ``arange(n)`` array ``ndim`` times (int64, the default int), as NumPy. Both
    arguments static."""
    n = static_int("diag_indices", n, "n")
    ndim = static_int("diag_indices", ndim, "ndim")
    return _index_arrays(np.arange(n)) * ndim  # one array ndim times, as NumPy


def diag_indices_from(arr):
    """:func:`diag_indices` for ``arr``, which must be at least 2-D with equal dims.

    Raises
    ------
    ValueError
        ``arr`` has fewer than 2 dimensions or unequal dimensions.
    """
    shape = _shape(_mn._asarray("diag_indices_from", arr, "arr"))
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


# --------------------------------------------------------------------------- fill_diagonal


def fill_diagonal(a, val, wrap=False):
    """Write ``val`` into the main diagonal of ``a``, in place (``numpy.fill_diagonal``).

    Parameters
    ----------
    a : Array
        At least 2-D; for more than 2 dimensions all must be equal. Eagerly
        modified in place; under a transformation the traced ``a`` is rebound
        (a jitted function's argument is written back to the caller).
    val : scalar or array_like
        Cast to ``a.dtype`` (unsafe cast, as NumPy's element assignment) and
        repeated cyclically along the diagonal (flattened). May be traced. Converted as
        NumPy's ``a.flat[...] = val`` converts it, also when ``a`` is empty and nothing
        is written: Python numbers and lists of them as NumPy converts them into
        ``a.dtype``, complex arrays and NumPy complex scalars into a real or integer ``a``
        with NumPy's ``ComplexWarning`` (at trace time under ``jit``).
    wrap : bool
        For tall 2-D matrices: continue the diagonal every ``N + 1`` rows (NumPy's
        "wrapped" diagonal).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        ``a`` has fewer than 2 dimensions, or unequal dimensions (more than 2-D). (An
        empty ``val`` writes nothing, as in NumPy.) NumPy's conversion errors of ``val``
        (a string that is not a number, NaN into an integer ``a``, a ragged list).
    OverflowError
        A Python int out of ``a.dtype``'s range, an infinity into an integer ``a``.
    TypeError
        ``a`` is not an xnp array; a Python complex into a real ``a`` (NumPy's).
    """
    _inplace.check_target("fill_diagonal", a)
    aval = core.aval_of(a)
    if aval.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if aval.ndim == 2:
        step = aval.shape[1] + 1
        if not wrap:
            end = aval.shape[1] * aval.shape[1]
    else:
        if len(set(aval.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(aval.shape[:-1]).sum())
    positions = np.arange(aval.size)[:end:step]
    if positions.size and type(a) is core.Array and (
            isinstance(val, (bool, int, float, np.generic)) or (
                type(val) is core.Array and core.aval_of(val).shape == positions.shape)):
        # NumPy's item assignment of a scalar, or of as many values as the diagonal has, at
        # its indices: a replay of the call repeats it with each call's values
        a[np.unravel_index(positions, aval.shape)] = val
        return None
    if eager_host_write(functools.partial(np.fill_diagonal, wrap=wrap), a, val):
        return None  # (an eager call: NumPy's fill_diagonal, which the rest computes traced)
    val = _diagonal_values(val, aval.dtype)
    if positions.size == 0:
        return None  # (`val` converted all the same, as NumPy's `a.flat[...] = val`)
    vals = _inplace.cycled("fill_diagonal", val, positions.size, aval.dtype)
    if vals is None:
        return None  # an empty `val` writes nothing, as in NumPy
    flat = lax.reshape(a, (aval.size,))
    new = flat.at[positions].set(vals)
    _inplace.assign(a, lax.reshape(new, aval.shape))
    return None


def _diagonal_values(val, dt):
    """``val`` converted for ``fill_diagonal`` into ``dt``, as NumPy's ``a.flat[...] = val``
    converts it, also when nothing is written (an empty ``a``): Python values as NumPy
    converts them into ``dt`` (its ``OverflowError``/``ValueError``/``TypeError``), anything
    else as an array (a dtype XLA has no type for: ``HostDtypeError``, so NumPy's function
    runs), cast to ``dt`` (its floating-point warnings); complex values into a real or
    integer ``dt`` with NumPy's ``ComplexWarning`` (into bool silently, as NumPy)."""
    # (NumPy's errors for Python values, in its words, as put/place/putmask give them)
    val = _inplace.python_values(val, dt)
    v = _mn._asarray("fill_diagonal", val, "val")
    if core.aval_of(v).dtype.kind == "c" and dt.kind not in "cb":
        warn_complex_to_real()
    if core.aval_of(v).dtype != dt:
        v = lax.convert_element_type(v, dt)
    return v


# --------------------------------------------------------------------------- vander, rot90


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D ``x``: column ``j`` is ``x ** (N - 1 - j)``
    (``x ** j`` when ``increasing``) (``numpy.vander``).

    Parameters
    ----------
    x : array_like
        1-D.
    N : int, optional
        Number of columns (static; default ``len(x)``).
    increasing : bool
        Powers increase left to right.

    Returns
    -------
    Array
        Shape ``(len(x), N)``; dtype ``promote_types(x.dtype, int64)`` (bool and
        small ints become int64, float32 becomes float64), as NumPy. Powers are
        running products, as in NumPy (integers wrap on overflow silently; a float
        overflow warns NumPy's "overflow encountered in accumulate" eagerly). Eagerly a
        new C-contiguous array, as NumPy's, whatever the memory order of ``x``.

    Raises
    ------
    ValueError
        ``x`` is not 1-D.
    """
    x = _mn._asarray("vander", x, "x")
    if core.aval_of(x).ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = _shape(x)[0]
    cols = n if N is None else static_int("vander", N, "N")
    if cols < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = np.promote_types(core.aval_of(x).dtype, default_int())
    x = lax.convert_element_type(x, dt)
    ones_ = _fill("vander", 1, (n, min(cols, 1)), dt)
    if cols <= 1:
        return ones_
    # the powers as one new array in NumPy's memory order (C, whatever the order of `x`
    # or of the columns): decreasing powers are the running product from the right
    powers = lax.cumprod(lax.broadcast_in_dim(x, (n, cols - 1), (0,)), 1,
                         reverse=not increasing)
    return lax.concatenate([ones_, powers] if increasing else [powers, ones_], 1)


def rot90(m, k=1, axes=(0, 1)):
    """Rotate ``m`` by 90 degrees ``k`` times in the plane of ``axes`` (``numpy.rot90``),
    from the first axis towards the second.

    ``k`` and ``axes`` are static. Same dtype; the two axes' lengths swap for odd
    ``k``. Eagerly a view where NumPy returns one (flips and transposes).

    Raises
    ------
    ValueError
        ``len(axes) != 2``, equal axes, or an axis out of range.
    """
    m = _mn._asarray("rot90", m, "m")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    nd = core.aval_of(m).ndim
    a0, a1 = (static_int("rot90", ax, "axes") for ax in axes)
    if a0 == a1 or abs(a0 - a1) == nd:
        raise ValueError("Axes must be different.")
    if a0 >= nd or a0 < -nd or a1 >= nd or a1 < -nd:
        raise ValueError(f"Axes={axes} out of range for array of dimension {nd}")
    k = static_int("rot90", k, "k") % 4
    if k == 0:
        return m[...]
    if k == 2:
        return _mn.flip(_mn.flip(m, a0), a1)
    perm = list(range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return _mn.transpose(_mn.flip(m, a1), perm)
    return _mn.flip(_mn.transpose(m, perm), a1)
