"""``xnp.lib.stride_tricks``: ``as_strided`` (eager arrays) and ``sliding_window_view``.

Eagerly both are NumPy's views of the array's memory: writes through a writeable view
reach the array, as in NumPy. Under ``jit``/``vmap``/``grad`` an array has no memory
or strides: ``sliding_window_view`` is then computed by gathering the windows (the
same values, a new array), and ``as_strided`` raises.
"""

from __future__ import annotations

import numpy as np

from xnp.numpy_api import creation, indexing, manipulation
from xnp.tracing import core, errors

__all__ = ["as_strided", "sliding_window_view"]


def _host(a, writeable: bool) -> np.ndarray:
    return a._writable_value() if writeable else a._value


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of ``x``'s memory with the given shape and byte strides
    (``numpy.lib.stride_tricks.as_strided``).

    Parameters
    ----------
    x : array_like
        An eager array (a NumPy array or list is converted first, as ``xnp.asarray``
        does: a NumPy array's memory is shared).
    shape, strides : sequence of int, optional
        The view's shape and byte strides; default ``x``'s.
    subok : bool
        Accepted for NumPy's signature; xnp arrays have no subclasses, so it changes
        nothing.
    writeable : bool
        Whether writes through the view are allowed (they change ``x``). NumPy's
        warning applies: a view that reaches outside ``x``'s memory reads or writes
        garbage, or crashes.

    Returns
    -------
    Array
        A view sharing ``x``'s memory, with ``x``'s dtype.

    Raises
    ------
    xnp.errors.TracerArrayConversionError
        ``x`` is traced: a traced value has no memory to view. Use
        :func:`sliding_window_view`, indexing, ``reshape`` or ``broadcast_to``.
    """
    a = creation.asarray(x)
    if type(a) is not core.Array:
        raise errors.TracerArrayConversionError(
            f"xnp.lib.stride_tricks.as_strided needs an eager array, got a traced "
            f"{errors.aval_str(a.aval)}: a traced value has no memory or strides to view.\n"
            "  Fix: use xnp.lib.stride_tricks.sliding_window_view, indexing, reshape or "
            "broadcast_to, which are traced, or call as_strided outside the transformation.")
    view = np.lib.stride_tricks.as_strided(_host(a, writeable), shape=shape, strides=strides,
                                          writeable=writeable)
    return core.Array(view)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of ``window_shape`` over ``x``
    (``numpy.lib.stride_tricks.sliding_window_view``).

    Parameters
    ----------
    x : array_like
    window_shape : int or tuple of int
        Window length along each axis in ``axis``; static.
    axis : int or tuple of int, optional
        The axes the windows slide over (repeats allowed, as in NumPy); default all
        axes, with one ``window_shape`` entry each. Static.
    subok : bool
        Accepted for NumPy's signature; xnp arrays have no subclasses.
    writeable : bool
        Eagerly, the view is read-only unless True (then writes reach ``x``, with
        NumPy's caveat that overlapping windows share elements).

    Returns
    -------
    Array
        Shape ``x.shape`` with each windowed axis shortened to ``n - w + 1``, followed
        by ``window_shape``; ``x``'s dtype. Eagerly a view of ``x`` (as NumPy's);
        under a transformation a new array of the same values.

    Raises
    ------
    ValueError
        NumPy's: a negative window, a window longer than its axis, or ``window_shape``
        and ``axis`` of different lengths.
    numpy.exceptions.AxisError
        An axis is out of range.
    NotImplementedError
        ``writeable=True`` on a traced ``x`` (writes cannot reach it).
    """
    a = creation.asarray(x)
    if type(a) is core.Array:
        view = np.lib.stride_tricks.sliding_window_view(
            _host(a, writeable), window_shape, axis, writeable=writeable)
        return core.Array(view)
    if writeable:
        raise NotImplementedError(
            "xnp.lib.stride_tricks.sliding_window_view: writeable=True on a traced "
            f"{errors.aval_str(a.aval)}: writes through the windows cannot reach the array.\n"
            "  Fix: build the updated array with x.at[...].set(...), or leave writeable False.")
    # NumPy checks the arguments and gives the axes on a stand-in of x's shape (no data)
    window_shape = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    stand_in = np.broadcast_to(np.zeros((), np.int8), a.shape)
    np.lib.stride_tricks.sliding_window_view(stand_in, window_shape, axis)
    axes = (tuple(range(a.ndim)) if axis is None else
            np.lib.array_utils.normalize_axis_tuple(axis, a.ndim, allow_duplicate=True))
    for ax, w in zip(axes, window_shape):
        n = a.shape[ax]
        starts = np.arange(n - w + 1)[:, None] + np.arange(w)[None, :]
        a = manipulation.moveaxis(indexing.take(a, starts, axis=ax), ax + 1, -1)
    return a
