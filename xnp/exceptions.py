"""``xnp.exceptions``: NumPy's exception and warning classes, the same objects, and xnp's own.

xnp raises and warns with NumPy's classes where NumPy does (``AxisError`` for a bad
axis, ``ComplexWarning`` when a cast drops the imaginary part, ...), so an ``except``
clause or warning filter written for ``numpy.exceptions`` catches xnp's too. The
tracer errors, which NumPy has no counterpart for, are in :mod:`xnp.errors`.
"""

from numpy.exceptions import (AxisError, ComplexWarning, DTypePromotionError,
                              ModuleDeprecationWarning, RankWarning, TooHardError,
                              VisibleDeprecationWarning)

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning",
           "NumpyFallbackWarning", "RankWarning", "TooHardError", "VisibleDeprecationWarning"]


class NumpyFallbackWarning(UserWarning):
    """A NumPy function or ufunc method called on xnp arrays that xnp does not implement
    (or not for the arguments given) ran NumPy's implementation on the host data.

    Warned once per function (``numpy.add.reduceat``, ``numpy.busday_count``); the
    results are xnp arrays, and ``out=`` arrays are written in place, as NumPy does.
    ``warnings.simplefilter("error", NumpyFallbackWarning)`` makes every fallback raise.
    """

    __module__ = "xnp.exceptions"
