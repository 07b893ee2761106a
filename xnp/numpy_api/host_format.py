"""Printing and formatting (print options, ``array2string``, float/int formatting) and
dtype metadata helpers (``common_type``, ``min_scalar_type``, ``mintypecode``, ``typename``).

xnp's ``Array.__repr__``/``__str__`` format the NumPy value with ``numpy.array2string``, so
NumPy's print options apply directly: ``set_printoptions``, ``get_printoptions`` and
``printoptions`` are NumPy's own functions, re-exported (they change NumPy's printing too).
Formatting needs concrete values: a traced array raises
``xnp.errors.TracerArrayConversionError``. The metadata helpers only read dtypes, so they
work on traced arrays too (except ``min_scalar_type`` of a 0-d array, which reads its value).
"""

from __future__ import annotations

import numpy as np

from xnp.numpy_api import creation as _cr
from xnp.numpy_api._util import is_xnp
from xnp.tracing.recording import metadata_function

__all__ = [
    "set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
    "array_str", "format_float_positional", "format_float_scientific", "base_repr",
    "binary_repr", "common_type", "min_scalar_type", "mintypecode", "typename",
]

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions
typename = np.typename  # pure metadata: a type character -> its description


def _host(a):
    """NumPy value of a concrete array-like (TracerArrayConversionError for a tracer)."""
    return np.asarray(a)


def _host_scalar(x):
    return np.asarray(x)[()] if is_xnp(x) else x


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", *, formatter=None, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, suffix="", legacy=None):
    """String of the array's values (``numpy.array2string`` on the concrete value).

    Same parameters and output as NumPy; ``None`` options use the current print options.
    ``TracerArrayConversionError`` for a traced array.
    """
    return np.array2string(_host(a), max_line_width=max_line_width, precision=precision,
                           suppress_small=suppress_small, separator=separator, prefix=prefix,
                           formatter=formatter, threshold=threshold, edgeitems=edgeitems,
                           sign=sign, floatmode=floatmode, suffix=suffix, legacy=legacy)


def _options(max_line_width, precision, suppress_small):
    given = {"linewidth": max_line_width, "precision": precision, "suppress": suppress_small}
    return np.printoptions(**{k: v for k, v in given.items() if v is not None})


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """``repr`` of an xnp array with these print options applied (``numpy.array_repr``:
    eager xnp arrays print as NumPy's, ``array([...])``, a 0-d one as its NumPy scalar).
    ``TracerArrayConversionError`` for a traced array."""
    x = _cr.asarray(arr)
    with _options(max_line_width, precision, suppress_small):
        return repr(_cr.asarray(_host(x)))


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """``str`` of the array's values with these print options (``numpy.array_str``).
    ``TracerArrayConversionError`` for a traced array."""
    with _options(max_line_width, precision, suppress_small):
        return str(_host(a))


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k",
                            sign=False, pad_left=None, pad_right=None, min_digits=None):
    """Positional (non-exponent) text of a float scalar (``numpy.format_float_positional``).

    ``x``: a Python/NumPy float or a concrete 0-d xnp array (incl. float16/bfloat16).
    """
    return np.format_float_positional(
        _host_scalar(x), precision=precision, unique=unique, fractional=fractional, trim=trim,
        sign=sign, pad_left=pad_left, pad_right=pad_right, min_digits=min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """Scientific-notation text of a float scalar (``numpy.format_float_scientific``).

    ``x``: a Python/NumPy float or a concrete 0-d xnp array.
    """
    return np.format_float_scientific(
        _host_scalar(x), precision=precision, unique=unique, trim=trim, sign=sign,
        pad_left=pad_left, exp_digits=exp_digits, min_digits=min_digits)


def base_repr(number, base=2, padding=0):
    """Text of an integer in ``base`` (2..36) (``numpy.base_repr``); ``number`` may be a
    concrete 0-d integer xnp array. ``ValueError`` for a base outside 2..36."""
    return np.base_repr(_host_scalar(number), base=base, padding=padding)


def binary_repr(num, width=None):
    """Two's-complement binary text of an integer (``numpy.binary_repr``); ``num`` may be a
    concrete 0-d integer xnp array."""
    return np.binary_repr(_host_scalar(num), width=width)


def _dtype_of(a) -> np.dtype:
    if isinstance(a, (np.dtype, type)):
        return np.dtype(a)
    return np.dtype(a.dtype) if hasattr(a, "dtype") else np.asarray(a).dtype


@metadata_function
def common_type(*arrays):
    """The inexact scalar type common to the arrays (``numpy.common_type``): integers count
    as float64; result ``numpy.float16/32/64`` or ``complex64/128``. Metadata only (works on
    traced arrays). ``TypeError`` for dtypes NumPy has no precision for (bool, bfloat16)."""
    return np.common_type(*(np.empty((0,), _dtype_of(a)) for a in arrays))


@metadata_function
def min_scalar_type(a, /):
    """Smallest dtype holding ``a`` (``numpy.min_scalar_type``).

    For an array of rank >= 1, its dtype (metadata; works on traced arrays). For a scalar or
    0-d array, the smallest dtype of the same kind holding its value, which needs a concrete
    value (``TracerArrayConversionError`` under ``jit``).
    """
    if is_xnp(a) and a.ndim > 0:
        return np.dtype(a.dtype)
    return np.min_scalar_type(_host(a) if is_xnp(a) else a)


@metadata_function
def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """Type character of the smallest safe type in ``typeset`` for ``typechars``
    (``numpy.mintypecode``). ``typechars`` holds type characters or arrays/dtypes (only
    their dtype is read, so traced arrays are fine)."""
    chars = [t if isinstance(t, str) else _dtype_of(t).char for t in typechars]
    return np.mintypecode(chars, typeset=typeset, default=default)
