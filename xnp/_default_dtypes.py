"""The default dtypes: NumPy's (float64, int64, complex128), or their 32-bit forms with
the ``enable_x64`` option off; those of Python scalars (weak in NEP 50 promotion, which
:mod:`xnp.numpy_api._util` implements) and of default-dtype creation functions.

It sits below every layer (it imports only :mod:`xnp.config`): the tracing layer takes a
Python scalar operand's aval from it, the NumPy surface its defaults, and the backends
the host value of a Python scalar argument.
"""

from __future__ import annotations

import numpy as np

from xnp import config

__all__ = ["PYTHON_SCALAR_TYPES", "default_float", "default_int", "default_complex",
           "python_scalar_dtype", "scalar_to_ndarray"]

#: The Python scalar types, in the order NumPy ranks their kinds.
PYTHON_SCALAR_TYPES = (bool, int, float, complex)

_OPTIONS = config._OPTIONS  # read on every call: enable_x64 may change at any time
_WIDE = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64),
         complex: np.dtype(np.complex128)}
_NARROW = {bool: np.dtype(np.bool_), int: np.dtype(np.int32), float: np.dtype(np.float32),
           complex: np.dtype(np.complex64)}


def default_float() -> np.dtype:
    """float64, or float32 with ``enable_x64`` off."""
    return _WIDE[float] if _OPTIONS["enable_x64"] else _NARROW[float]


def default_int() -> np.dtype:
    """int64, or int32 with ``enable_x64`` off."""
    return _WIDE[int] if _OPTIONS["enable_x64"] else _NARROW[int]


def default_complex() -> np.dtype:
    """complex128, or complex64 with ``enable_x64`` off."""
    return _WIDE[complex] if _OPTIONS["enable_x64"] else _NARROW[complex]


def python_scalar_dtype(x) -> np.dtype:
    """The dtype of Python scalar ``x`` (``bool``, ``int``, ``float``, ``complex``, not a
    subclass): bool, int64, float64, complex128, or int32/float32/complex64 with
    ``enable_x64`` off. ``KeyError`` for any other type."""
    return (_WIDE if _OPTIONS["enable_x64"] else _NARROW)[type(x)]


def scalar_to_ndarray(x, dtype: np.dtype | None = None) -> np.ndarray:
    """Python scalar ``x`` as a 0-d ndarray of ``dtype`` (default: its own,
    :func:`python_scalar_dtype`).

    Raises
    ------
    OverflowError
        ``x`` is an int out of ``dtype``'s range (NumPy's error, naming both).
    """
    dt = dtype or python_scalar_dtype(x)
    try:
        return np.asarray(x, dtype=dt)
    except OverflowError as e:
        raise OverflowError(f"Python integer {x} out of bounds for {dt}") from e
