"""What the XLA backend keeps in an eager ``Array`` (:class:`xnp.tracing.core.Array`):
the device buffer of a jitted call's output, and a device buffer aliasing an eager
array's host memory. The tracing layer holds them opaquely, as its protocol says:

* ``Array._dev`` is the array's live device buffer (a jaxlib ``ArrayImpl``; its host
  value is read with ``Array._read``, :func:`host_of`), :data:`DONATED` once the buffer
  was donated to a jitted call (read with :func:`_donated`, which raises), or None (the
  value is on the host only).
* ``Array._host_memo`` is the buffer aliasing the host memory, :data:`NO_ALIAS` once the
  runtime was found unable to alias it, or None (not tried yet); once the array is
  donated, its old host value (see :func:`mark_donated`).

The buffer is held as it is, not wrapped: a jitted call's outputs cost one object each.

A donated array's host value stays alive while other objects read it: NumPy views and
memoryviews hold the NumPy array, and :func:`mark_donated` keeps it in ``_host_memo`` as
long as the array lives, for those that hold the array (``numpy.frombuffer(a)``).
"""

from __future__ import annotations

from xnp.backends.xla import client as _client
from xnp.tracing import core, errors

__all__ = ["DONATED", "NO_ALIAS", "host_of", "buffer_of", "device_array", "mark_donated"]

#: The reader of a live buffer's host value (a read-only view on CPU).
host_of = _client.to_host


class _Donated:
    """``Array._dev`` of an array whose buffer was donated: it has no value any more."""

    __slots__ = ()
    aval = None

    def block_until_ready(self) -> None:
        pass

    def __repr__(self):
        return "<donated buffer>"


class _NoAlias:
    __slots__ = ()

    def __repr__(self):
        return "<host memory not aliasable>"


#: ``Array._dev`` of an array whose device buffer was donated to a jitted call.
DONATED = _Donated()
#: ``Array._host_memo`` of an eager array whose host memory a device buffer cannot alias.
NO_ALIAS = _NoAlias()


def _donated(dev):
    raise errors.DonatedArrayError(
        "xnp: this array was donated to a jitted call (donate_argnums) and is no longer valid.")


class _Kept:
    """``Array._host_memo`` of a donated array: its host value, kept as long as the array
    lives for the objects that read its memory through the array itself."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "<host memory of a donated array>"


def mark_donated(x: core.Array) -> None:
    """``x`` (an eager Array) gave its buffer to a jitted call: reading it now raises.

    Its host value, if it has one, stays alive with ``x``: a NumPy array's memory lives as
    long as the array, and the consumers of the buffer protocol that keep the exporter
    instead of the buffer (``numpy.frombuffer(x)`` and ``numpy.ndarray(buffer=x)``, whose
    ``base`` is ``x``) rely on it, as on NumPy's arrays."""
    v = x._v
    x._val = None
    x._dev = DONATED
    x._read = _donated
    x._host_memo = None if v is None else _Kept(v)


def buffer_of(x):
    """The live device buffer holding ``x``'s value (an eager ``Array`` that a jitted call
    or ``device_put`` returned), or None (a host array, a donated one, a tracer)."""
    dev = getattr(x, "_dev", None)
    return None if dev is None or dev is DONATED else dev


def device_array(buf, weak_type: bool = False, aval=None) -> core.Array:
    """An eager ``Array`` whose value is the device buffer ``buf`` (``aval``: its aval, if
    known)."""
    x = core.Array(None, weak_type, buf, aval)
    x._read = host_of
    return x
