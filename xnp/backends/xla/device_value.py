"""What the XLA backend keeps in an eager ``Array`` (:class:`xnp.tracing.core.Array`):
the value of a jitted call's output in its device buffer (``Array._dev``), and a device
buffer aliasing an eager array's host memory (``Array._host_memo``).

* ``Array._dev`` is a :class:`DeviceValue` (the live buffer), :data:`DONATED` once the
  buffer was donated to a jitted call, or None (the value is on the host only).
* ``Array._host_memo`` is the buffer aliasing the host memory, :data:`NO_ALIAS` once the
  runtime was found unable to alias it, or None (not tried yet).
"""

from __future__ import annotations

from xnp.backends.xla import client as _client
from xnp.tracing import core

__all__ = ["DeviceValue", "DONATED", "NO_ALIAS", "buffer_of", "device_array"]


class DeviceValue:
    """An array's value in the device buffer ``buf`` (``Array._dev``): its host value is a
    read-only view of the buffer (``client.to_host``), read when first needed."""

    __slots__ = ("buf",)

    def __init__(self, buf):
        self.buf = buf

    def host(self):
        return _client.to_host(self.buf)

    @property
    def aval(self):
        return self.buf.aval

    def block_until_ready(self) -> None:
        self.buf.block_until_ready()

    def __repr__(self):
        return f"DeviceValue({self.buf.aval})"


class _Donated:
    """``Array._dev`` of an array whose buffer was donated: it has no value any more."""

    __slots__ = ()
    aval = None

    def host(self):
        raise RuntimeError(
            "xnp: this array was donated to a jitted call (donate_argnums) and is no longer valid.")

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


def buffer_of(x):
    """The live device buffer holding ``x``'s value (an eager ``Array`` that a jitted call
    or ``device_put`` returned), or None (a host array, a donated one, a tracer)."""
    dev = getattr(x, "_dev", None)
    return dev.buf if type(dev) is DeviceValue else None


def device_array(buf, weak_type: bool = False, aval=None) -> core.Array:
    """An eager ``Array`` whose value is the device buffer ``buf`` (``aval``: its aval, if
    known)."""
    return core.Array(None, weak_type, DeviceValue(buf), aval)
