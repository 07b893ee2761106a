"""``xnp.exceptions``: NumPy's exception and warning classes, the same objects.

xnp raises and warns with NumPy's classes where NumPy does (``AxisError`` for a bad
axis, ``ComplexWarning`` when a cast drops the imaginary part, ...), so an ``except``
clause or warning filter written for ``numpy.exceptions`` catches xnp's too. The
tracer errors, which NumPy has no counterpart for, are in :mod:`xnp.errors`.
"""

from numpy.exceptions import (AxisError, ComplexWarning, DTypePromotionError,
                              ModuleDeprecationWarning, RankWarning, TooHardError,
                              VisibleDeprecationWarning)

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning",
           "RankWarning", "TooHardError", "VisibleDeprecationWarning"]
