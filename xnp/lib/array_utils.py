"""``xnp.lib.array_utils``: ``byte_bounds`` of an eager array's memory, and NumPy's axis
normalisers (the same objects; they work on Python ints)."""

from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from xnp.numpy_api import creation
from xnp.tracing import core, errors

__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]


def byte_bounds(a):
    """The first and one-past-the-last byte addresses of ``a``'s memory
    (``numpy.lib.array_utils.byte_bounds``).

    ``a`` is an eager array (or anything ``xnp.asarray`` converts; a NumPy array keeps
    its memory). Returns a tuple of two Python ints.

    Raises
    ------
    xnp.errors.TracerArrayConversionError
        ``a`` is traced: it has no memory.
    """
    x = creation.asarray(a)
    if type(x) is not core.Array:
        raise errors.TracerArrayConversionError(
            f"xnp.lib.array_utils.byte_bounds needs an eager array, got a traced "
            f"{errors.aval_str(x.aval)}, which has no memory.\n"
            "  Fix: call it outside the transformation.")
    return np.lib.array_utils.byte_bounds(x._value)
