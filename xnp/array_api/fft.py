"""``xnp.array_api.fft``: the Array API standard's ``fft`` extension, xnp's own
functions (``xnp.fft``) (see :mod:`xnp.array_api`)."""

from xnp.array_api import _table

globals().update(_table.members("fft"))
__all__ = list(_table.NAMES["fft"])
del _table
