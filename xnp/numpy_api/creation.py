"""Array creation."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.numpy_api._util import asarray_for, is_xnp
from xnp.tracing import core
from xnp.tracing.avals import canonical_dtype

__all__ = ["array", "asarray", "astype"]


def asarray(a, dtype=None, order=None, *, device=None, copy=None):
    x = asarray_for("asarray", a)
    if dtype is not None:
        x = astype(x, dtype)
    return x


def array(object, dtype=None, *, copy=True, order="K", ndmin=0):
    x = asarray_for("array", object)
    if dtype is not None:
        x = astype(x, dtype)
    return x


def astype(x, dtype, /, *, copy=True, device=None):
    dt = canonical_dtype(dtype)
    return lax.convert_element_type(x, dt)
