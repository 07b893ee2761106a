"""What the XLA backend keeps in an eager ``Array`` (:class:`xnp.tracing.core.Array`):
the device buffer of a jitted call's output, and a device buffer aliasing an eager
array's host memory. The tracing layer holds them opaquely, as its protocol says:

* ``Array._dev`` is the array's live device buffer (a jaxlib ``ArrayImpl``; its host
  value is read with ``Array._read``, :func:`host_of`), :data:`DONATED` once the buffer
  was donated to a jitted call (read with :func:`_donated`, which raises), or None (the
  value is on the host only).
* ``Array._host_memo`` is the buffer aliasing the host memory, :data:`NO_ALIAS` once the
  runtime was found unable to alias it, or None (not tried yet).

The buffer is held as it is, not wrapped: a jitted call's outputs cost one object each.
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


def mark_donated(x: core.Array) -> None:
    """``x`` (an eager Array) gave its buffer to a jitted call: reading it now raises."""
    x._val = None
    x._dev = DONATED
    x._read = _donated
    x._host_memo = None


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
