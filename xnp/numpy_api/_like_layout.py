"""NumPy's memory layout of a new array made like another (``PyArray_NewLikeArray``: the
``*_like`` functions, ``copy``, ``ndarray.astype``, a new array of ``array``): 'C' and 'F'
row- and column-major, with NumPy's strides also for length-1 axes, and

* 'A': column-major when the prototype is Fortran-contiguous and not C-contiguous, else
  row-major (whatever the new shape);
* 'K': row-major when the prototype is C-contiguous, has at most one axis, is empty or has
  another number of axes than the new shape; column-major when it is Fortran-contiguous;
  otherwise the prototype's axes ordered by their strides (the largest absolute stride
  outermost, ties by axis number), each contiguous in that order: a strided slice of a
  column-major array gives a column-major result, a transposed slice the transposed one.

Eagerly the result is laid out so (NumPy's own copy where it is not already); traced,
its layout is recorded for the later view-or-copy rules (:mod:`xnp.numpy_api._layout`).
A traced prototype whose layout is unknown (a ``jit`` argument, or a value computed from
one) leaves the result as it is, with the same values: a copy or cast of it has an
unknown layout too, a ``*_like`` fill is taken as row-major. A jitted function's outputs
are row-major XLA buffers whatever the model says.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api import _layout
from xnp.numpy_api._util import is_xnp
from xnp.tracing import core, recording

__all__ = ["like_layout", "laid_out", "kept_strides"]


def kept_strides(shape, strides) -> tuple:
    """Element strides NumPy's 'K' gives a new array of ``shape`` made like a non-contiguous
    array of the same rank with ``strides`` (in bytes or elements: only their order counts)."""
    axes = sorted(range(len(shape)), key=lambda i: (-abs(strides[i]), i))
    out, step = [0] * len(shape), 1
    for i in reversed(axes):
        out[i] = step
        step *= shape[i]
    return tuple(out)


def _target(order, x, source):
    """The element strides ``order`` asks of ``x`` made like ``source``, or None where
    ``x`` stays as it is (row-major, or an unknown prototype layout)."""
    shape = tuple(x.shape)
    if order in ("C", "F"):
        return _layout.c_strides(shape) if order == "C" else _layout.f_strides(shape)
    if not (is_xnp(source) or isinstance(source, np.ndarray)):
        return None
    src_shape, st = tuple(np.shape(source)), _layout.layout(source)
    if st is None or 0 in src_shape:
        return None
    c = _layout._matches(src_shape, st, _layout.c_strides(src_shape))
    fortran = not c and _layout._matches(src_shape, st, _layout.f_strides(src_shape))
    if order == "A":
        return _layout.f_strides(shape) if fortran else _layout.c_strides(shape)
    if c or len(src_shape) <= 1 or len(shape) != len(src_shape):
        return None
    return _layout.f_strides(shape) if fortran else kept_strides(shape, st)


def _relaid(v: np.ndarray, want: tuple, axes: tuple, dims: tuple) -> np.ndarray:
    """``v``'s values in a new array of element strides ``want`` that owns its memory, as
    NumPy's new arrays do: NumPy's own ``empty_like(order='K')`` of a prototype with those
    strides (``as_strided`` of one element: nothing of it is read), else (strides NumPy's
    'K' orders otherwise) a transposed view of a copy whose axes ``axes`` (outermost first)
    are contiguous."""
    item = v.itemsize
    proto = np.lib.stride_tricks.as_strided(np.empty(1, v.dtype), v.shape,
                                            tuple(s * item for s in want))
    if want in (_layout.c_strides(v.shape), _layout.f_strides(v.shape)):
        out = np.empty(v.shape, v.dtype, order="C" if want == _layout.c_strides(v.shape) else "F")
    else:
        out = np.empty_like(proto, order="K")
    if out.strides != proto.strides:
        out = np.empty(dims, v.dtype).transpose(np.argsort(axes))
    out[...] = v
    return out


def like_layout(x, order: str, source, *, fresh: bool = False):
    """``x`` (a new array: ``source``'s values or a fill) laid out as NumPy's ``order``
    ('C', 'F', 'K' or 'A') lays out a new array made like ``source`` (module docstring;
    'C'/'F' give exactly NumPy's strides, also of length-1 axes). ``fresh``: a traced
    ``x`` is a value this call made (a copy or a cast), whose layout may be recorded as it
    is instead of copying it."""
    if x is source and order == "K":  # no new array (astype with copy=False): as it is
        return x
    want = _target(order, x, source)
    if want is None:
        return x
    return laid_out(x, want, source, fresh=fresh)


def laid_out(x, want: tuple, source=None, *, fresh: bool = False):
    """``x`` with the element strides ``want`` (those of a new NumPy array, e.g. of
    :func:`kept_strides`): eagerly ``x`` itself where it has them, else a copy laid out
    so; traced, ``x`` (``fresh``: a value the caller made) or a copy, with ``want``
    recorded as its layout. ``source``: the array ``x`` was made like (``x`` itself where
    it is that array and already contiguous as asked)."""
    if 0 in x.shape:
        return x
    shape = tuple(x.shape)
    if x is source and _layout._matches(shape, _layout.layout(x), want):
        return x  # contiguous as asked (NumPy's flags: length-1 axes aside)
    if type(x) is core.Array:
        v = x._v  # unwatched: the layout follows from shape and strides (as _layout's)
        if v is None:
            v = x._value
        if _layout._eager_strides(v) == want:
            return x
        # outermost first; of equal strides the length-1 axes are the inner ones
        axes = tuple(sorted(range(len(shape)), key=lambda i: (-want[i], shape[i] == 1, i)))
        dims = tuple(shape[i] for i in axes)
        return recording.native_call(lambda a: _relaid(a, want, axes, dims), x)
    if fresh and x is not source:
        _layout.set_layout(x, want)
        return x
    if _layout._matches(shape, _layout.layout(x), want):
        return x
    out = lax.copy(x)
    _layout.set_layout(out, want)
    return out
