"""``xnp.array_api.linalg``: the Array API standard's ``linalg`` extension, xnp's own
functions (``xnp.linalg``), except ``eig`` and ``eigvals``, which are always
complex as the standard requires (see :mod:`xnp.array_api`)."""

from xnp.array_api import _table

globals().update(_table.members("linalg"))
__all__ = list(_table.NAMES["linalg"])
del _table
