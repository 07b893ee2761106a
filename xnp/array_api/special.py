"""``xnp.array_api.special``: ``xnp.special``'s SciPy-named special functions, not in the
Array API standard but read by SciPy (``scipy.special`` with ``SCIPY_ARRAY_API=1`` looks
up ``xp.special.<name>``), with the namespace's result hook (see :mod:`xnp.array_api`)."""

from xnp.array_api import _table

globals().update(_table.members("special"))
__all__ = list(_table.NAMES["special"])
del _table
