"""Smaller names of NumPy's main namespace: the floating-point error state, scalar-type
aliases, constants, ``show_config``/``show_runtime``/``info``, ``row_stack`` and
``__version__``.

The floating-point error state (``seterr``, ``geterr``, ``seterrcall``, ``geterrcall``,
and ``errstate`` in ``numpy_api/introspection.py``) and the ufunc buffer size
(``getbufsize``/``setbufsize``) are NumPy's own functions: xnp's eager arrays are
computed by NumPy, so NumPy's state decides what warns, raises or calls back, for
NumPy and xnp alike (``tests/test_namespace_extras.py`` checks it case by case).
Compiled code (``jit``) never checks floating-point errors, as XLA does not.

``matrix``, ``asmatrix``, ``bmat`` and ``memmap`` are NumPy's ndarray subclasses, used as
they are (host data, NumPy's semantics); xnp arrays meet them as NumPy arrays do (see
``xnp/numpy_protocols.py``: operators they reflect, NumPy's functions on both).
"""

from __future__ import annotations

import importlib.metadata
import sys
import warnings

import numpy as np
from numpy import (ScalarType, asmatrix, getbufsize, geterr, geterrcall, little_endian,
                   matrix, memmap, sctypeDict, setbufsize, seterr, seterrcall, typecodes)

from xnp import config
from xnp.numpy_api import dtypes as _dtypes
from xnp.numpy_api import manipulation
from xnp.tracing.core import Array

__all__ = [
    "seterr", "geterr", "seterrcall", "geterrcall", "getbufsize", "setbufsize",
    "ScalarType", "sctypeDict", "typecodes", "little_endian", "True_", "False_",
    "show_config", "show_runtime", "info", "row_stack", "matrix", "asmatrix", "bmat", "memmap",
    "byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong", "longlong",
    "ulonglong", "uint",
]

def bmat(obj, ldict=None, gdict=None):
    """NumPy's ``numpy.bmat``: a ``numpy.matrix`` built from a string, nested sequences or
    an array; an xnp array is read as its NumPy array (NumPy's bmat knows only ndarrays)."""
    if isinstance(obj, Array):
        obj = np.asarray(obj)
    return np.bmat(obj, ldict, gdict)


try:
    __version__ = importlib.metadata.version("xnp")
except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

#: NumPy's bool scalars themselves (what NumPy code compares with, ``x is np.True_``)
True_ = np.True_
False_ = np.False_

# C-named aliases of the sized scalar types: the xnp type of NumPy's dtype for the name
# on this platform (``long`` is int64 on Linux, int32 on Windows, as in NumPy)
_ALIASES = ("byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong",
            "longlong", "ulonglong", "uint")
_SIZED = tuple(getattr(_dtypes, n) for n in ("int8", "int16", "int32", "int64", "uint8",
                                             "uint16", "uint32", "uint64"))


def _sized_type(name: str):
    want = np.dtype(getattr(np, name))
    return next(t for t in _SIZED if t.dtype == want)


globals().update({name: _sized_type(name) for name in _ALIASES})


def _xnp_config() -> dict:
    def version(dist):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return None

    return {"version": __version__, "numpy": np.__version__, "jaxlib": version("jaxlib"),
            "ml_dtypes": version("ml_dtypes"), "python": sys.version.split()[0],
            "eager_backend": config.get("eager_backend"),
            "enable_x64": config.get("enable_x64"),
            "array_api_version": config.get("array_api_version")}


def show_config(mode="stdout"):
    """Show xnp's configuration, then NumPy's build configuration (``numpy.show_config``).

    Parameters
    ----------
    mode : {"stdout", "dicts"}
        ``"stdout"`` prints; ``"dicts"`` returns ``{"xnp": {...}, **numpy's dict}``, the
        ``"xnp"`` entry holding xnp's, NumPy's, jaxlib's and ml_dtypes' versions and the
        options of ``xnp.config`` that decide results (eager backend, x64, Array API
        version).

    Raises
    ------
    AttributeError
        An unknown ``mode``, as NumPy's.
    """
    if mode not in ("stdout", "dicts"):
        return np.show_config(mode)  # NumPy's error for an unknown mode
    if mode == "dicts":
        return {"xnp": _xnp_config(), **np.show_config(mode="dicts")}
    print("xnp:")
    for key, value in _xnp_config().items():
        print(f"  {key}: {value}")
    return np.show_config()


def show_runtime():
    """Print xnp's versions and options, then NumPy's runtime report
    (``numpy.show_runtime``: SIMD extensions, BLAS threading)."""
    print("xnp:", ", ".join(f"{k}={v}" for k, v in _xnp_config().items()))
    return np.show_runtime()


def info(object=None, maxwidth=76, output=None, toplevel="xnp"):  # noqa: A002 (NumPy's name)
    """Print the documentation of ``object`` (``numpy.info``), looking names up in xnp.

    Parameters
    ----------
    object : object or str, optional
        A function, class or module (its signature and docstring are printed), or a
        name looked up in the ``toplevel`` package and its submodules. None: help on
        ``info`` itself.
    maxwidth : int
        Printing width.
    output : file-like, optional
        Where to write; default ``sys.stdout``.
    toplevel : str
        The package searched for a name; ``"xnp"`` (NumPy's default is ``"numpy"``).
    """
    return np.info(info if object is None else object, maxwidth, output, toplevel)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """Deprecated alias of :func:`xnp.vstack` (as ``numpy.row_stack``, deprecated in
    NumPy 2.0): warns ``DeprecationWarning`` and stacks ``tup`` row-wise."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return manipulation.vstack(tup, dtype=dtype, casting=casting)
