"""Reshape-family views (transpose, squeeze, expand_dims, reshape, ravel) with NumPy's aliasing.

Eagerly the lax ops return NumPy views/copies exactly as NumPy does. Under a
transformation the result is registered as a view of its operand
(:func:`xnp.numpy_api._views.track_view`) with a read function (base -> view) and
an inverse write function (new view -> new base), so writes through it reach the
base and writes into the base are replayed into it:

* transposes, and reshapes that only insert/remove size-1 axes (squeeze,
  expand_dims), are always views;
* read-only views (broadcast_to, diagonal) see later writes into their base, and
  writing into them raises ``ValueError`` as NumPy's read-only arrays do;
* a general reshape is a view exactly when NumPy's would be, decided on the
  modelled layout (:mod:`xnp.numpy_api._layout`): a copy is a fresh contiguous
  array; when the layout is unknown the result is an *undecided* view and writes
  through it (or into its base while it is alive) raise ``NotImplementedError``.
"""

from __future__ import annotations

from xnp import lax
from xnp.numpy_api import _layout
from xnp.numpy_api._views import track_view
from xnp.tracing import core, recording

__all__ = ["transpose_view", "reshape_view", "squeeze_view", "expand_dims_view",
           "complex_part_view", "read_only_view"]


def _track(x, out, read, write, strides_of):
    if out is x or not isinstance(out, core.Tracer):
        return out
    st = _layout.layout(x)
    return track_view(x, out, None, read=read, write=write,
                      strides=None if st is None else strides_of(st))


def transpose_view(x, perm: tuple):
    """``lax.transpose(x, perm)``; a traced result is a view of ``x``."""
    perm = tuple(perm)
    inv = tuple(sorted(range(len(perm)), key=perm.__getitem__))
    return _track(x, lax.transpose(x, perm), lambda b: lax.transpose(b, perm),
                  lambda b, v: lax.transpose(v, inv), lambda st: tuple(st[p] for p in perm))


def _unit_view(x, out):
    """``out``: ``x`` with size-1 axes inserted/removed; a traced result is a view of ``x``."""
    old, new = core.aval_of(x).shape, core.aval_of(out).shape
    return _track(x, out, lambda b: lax.reshape(b, new), lambda b, v: lax.reshape(v, old),
                  lambda st: _layout.reshape_strides(old, st, new))


def squeeze_view(x, dims: tuple):
    """``lax.squeeze(x, dims)``; a traced result is a view of ``x``."""
    return _unit_view(x, lax.squeeze(x, dims))


def expand_dims_view(x, dims: tuple):
    """``lax.expand_dims(x, dims)``; a traced result is a view of ``x``."""
    return _unit_view(x, lax.expand_dims(x, dims))


def reshape_view(x, new: tuple):
    """``lax.reshape(x, new)``: a traced result is a view of ``x`` when NumPy's would be,
    a fresh array when NumPy copies, an undecided view when that cannot be told."""
    old = core.aval_of(x).shape
    out = lax.reshape(x, new)
    if out is x or not isinstance(out, core.Tracer):
        return out
    st = _layout.reshape_strides(old, _layout.layout(x), new)
    if st is False:  # NumPy copies: a fresh C-contiguous array, writes stay in it
        _layout.set_layout(out, _layout.c_strides(new))
        return out
    write = None if st is None else (lambda b, v: lax.reshape(v, old))
    return track_view(x, out, None, read=lambda b: lax.reshape(b, new), write=write, strides=st)


def complex_part_view(x, part: str):
    """``x.real`` or ``x.imag`` (``part``) of a complex ``x``: NumPy's view of one part,
    eagerly; a traced result is a view of ``x`` whose writes replace that part."""
    if part == "real":
        read, write = lax.real, (lambda b, v: lax.complex(v, lax.imag(b)))
    else:
        read, write = lax.imag, (lambda b, v: lax.complex(lax.real(b), v))
    return _track(x, read(x), read, write, lambda st: tuple(2 * s for s in st))


def _refuse_write(message: str):
    def write(base, new):
        raise ValueError(message)

    return write


def read_only_view(x, read, eager, message: str = "assignment destination is read-only"):
    """``read(x)`` as NumPy's read-only view of ``x`` (``broadcast_to``, ``diagonal``).

    Eagerly (and for a constant ``x`` under grad/vmap) NumPy's own view ``eager(ndarray)``,
    whose writes raise ``ValueError``; a constant ``read(x)`` of a traced ``x`` (under
    grad/vmap) is a read-only eager array. Traced, a view of ``x`` that sees later writes into
    ``x``; writing into it raises ``ValueError(message)``. ``eager=None``: no eager view
    (an eager ``x`` gives ``read(x)``). ``eager`` is a function of the value alone (the
    call's replays apply it to their inputs)."""
    if eager is not None and type(x) is core.Array and not core.staging_active():
        # (a jit output's host memory is made its own first, as before a view primitive, so
        # the view sees later writes into ``x``; the eager dispatch cache replays the call
        # as ``eager`` on its input's value)
        return recording.native_call(eager, x)
    out = read(x)
    if type(out) is core.Array and isinstance(x, core.Tracer):
        # a constant read of a traced `x` under grad/vmap (the imaginary zeros of a real
        # array): an eager array, read-only as NumPy's, so a write raises ValueError
        value = out._value.view()
        value.flags.writeable = False
        return core.Array(value, out.weak_type)
    return _track(x, out, read, _refuse_write(message), lambda st: None)
