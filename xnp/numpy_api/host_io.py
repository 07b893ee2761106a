"""Host-side I/O and construction from host data: ``save``/``load``, text files, buffers,
iterators, ``asarray_chkfinite`` and ``require``.

These functions are host-side by nature: they call NumPy on concrete data.

* Loading / creating functions (``load``, ``loadtxt``, ``genfromtxt``, ``fromfile``,
  ``frombuffer``, ``fromiter``, ``fromstring``) return xnp arrays. Under ``xnp.jit`` they run
  at trace time and their result is a constant of the trace (re-reading the file needs a
  retrace).
* Saving functions (``save``, ``savez``, ``savez_compressed``, ``savetxt``) need concrete
  values; given a traced array they raise ``xnp.errors.TracerArrayConversionError``.
* Data of a dtype XLA has no type for (strings, structured records, objects with
  ``allow_pickle=True``, dates) loads as xnp arrays with NumPy's semantics, eagerly
  (:mod:`xnp.tracing.host_arrays`); under a transformation that raises
  ``xnp.errors.HostDtypeError``.
* bfloat16 / float8 (ml_dtypes) arrays: NumPy writes them to ``.npy``/``.npz`` as raw void
  (``'|V2'`` / ``'|V1'``) because the header cannot name ml_dtypes types; ``load`` then gives
  that raw void array, as ``numpy.load`` (``x.view(ml_dtypes.bfloat16)`` reads it back, or
  save ``x.astype(xnp.float32)``). ``savetxt`` of bfloat16 works (values print as floats), but
  NumPy's text parser cannot produce bfloat16 (``loadtxt(..., dtype=bfloat16)`` raises
  NumPy's ``TypeError``): load as float32 and ``astype``. ``fromfile``/``frombuffer`` read
  raw bfloat16 bytes fine.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import creation as _cr
from xnp.numpy_api._util import check_unsupported
from xnp.numpy_api.host_format import _host, _host_scalar
from xnp.tracing import core, host_arrays, recording
from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = [
    "save", "load", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "fromfile",
    "frombuffer", "fromiter", "fromstring", "asarray_chkfinite", "require",
]

_NO_LIKE = _cr._NO_LIKE


def _to_xnp(fname: str, value, copy=None):
    """NumPy result -> xnp array (recursing through tuples/lists from ``unpack=True``); data
    of a dtype XLA lacks (strings, records, objects, dates, raw void) is a host array. The
    data comes from outside the call's arguments (a file, a buffer): never replayed."""
    recording.note_effect("read host data")
    if isinstance(value, (tuple, list)):
        return type(value)(_to_xnp(fname, v, copy) for v in value)
    value = np.asarray(value)
    if value.dtype not in SUPPORTED_DTYPES:
        return host_arrays.host_result(fname, value)
    return _cr.array(value) if copy else _cr.asarray(value)


# ------------------------------------------------------------------ binary .npy / .npz


def save(file, arr, allow_pickle=True):
    """Save one array to a ``.npy`` file (``numpy.save``).

    ``arr`` must be concrete (``TracerArrayConversionError`` under ``jit``). The file is
    NumPy's format; bfloat16/float8 are written as raw void (see the module notes).
    """
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def _savez(writer, file, args, allow_pickle, kwds):
    writer(file, *(_host(a) for a in args), allow_pickle=allow_pickle,
           **{k: _host(v) for k, v in kwds.items()})


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into an uncompressed ``.npz`` archive (``numpy.savez``).

    Positional arrays are stored as ``arr_0``, ``arr_1``, ...; keyword arrays under their
    names. All must be concrete (``TracerArrayConversionError`` under ``jit``).
    """
    _savez(np.savez, file, args, allow_pickle, kwds)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """As :func:`savez`, with zip compression (``numpy.savez_compressed``)."""
    _savez(np.savez_compressed, file, args, allow_pickle, kwds)


class NpzFile(Mapping):
    """Read-only mapping over a ``.npz`` archive whose values are xnp arrays.

    Wraps ``numpy.lib.npyio.NpzFile``: ``files`` lists the names, ``close()`` / ``with``
    close the file; each lookup reads and converts the member.
    """

    def __init__(self, npz):
        self._npz = npz
        self.files = list(npz.files)

    def __getitem__(self, key):
        return _to_xnp("load", self._npz[key])

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"xnp NpzFile({self.files})"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """Load an array (``.npy``) or archive (``.npz``) (``numpy.load``).

    Returns
    -------
    Array or NpzFile
        A ``.npy`` file gives an xnp array (dtype as stored; with ``mmap_mode`` the array
        shares the mapped memory). A ``.npz`` file gives an :class:`NpzFile` mapping whose
        values are xnp arrays. Pickled non-array objects (``allow_pickle=True``) are
        returned as NumPy gives them. Under ``jit`` the result is a constant.

    Raises
    ------
    ValueError
        Pickled data with ``allow_pickle=False`` (NumPy's default, as here).
    xnp.errors.HostDtypeError
        Under a transformation, data of a dtype XLA has no type for (strings, records,
        objects, dates, raw void); eagerly such data is an xnp array with NumPy's semantics.
    """
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                  encoding=encoding, max_header_size=max_header_size)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    if isinstance(out, np.ndarray) and out.dtype.kind != "O":
        return _to_xnp("load", out)
    return out


# ------------------------------------------------------------------ text files


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0,
            usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *,
            quotechar=None, like=None):
    """Load numbers from a text file (``numpy.loadtxt``); same parameters and parsing.

    Returns an xnp array (a tuple of arrays with ``unpack=True``); a constant under ``jit``.
    ``TypeError`` for string/structured dtypes xnp cannot hold.
    """
    check_unsupported("loadtxt", like=(like, None, _NO_LIKE))
    return _to_xnp("loadtxt", np.loadtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter, converters=converters,
        skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
        max_rows=max_rows, quotechar=quotechar))


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0,
               converters=None, missing_values=None, filling_values=None, usecols=None,
               names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip=False, case_sensitive=True, defaultfmt="f%i", unpack=None,
               usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None, *,
               ndmin=0, like=None):
    """Load a text file with missing-value handling (``numpy.genfromtxt``).

    Same parameters and parsing as NumPy. Missing entries become ``filling_values``
    (default NaN for floats). Returns an xnp array (tuple with ``unpack=True``).

    Raises
    ------
    NotImplementedError
        ``usemask=True`` (xnp has no masked arrays) or ``like``.
    TypeError
        Structured results (``names=...`` or ``dtype=None`` with mixed columns).
    """
    check_unsupported("genfromtxt", like=(like, None, _NO_LIKE),
                      usemask=(usemask, False, "xnp has no masked arrays"))
    return _to_xnp("genfromtxt", np.genfromtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter, skip_header=skip_header,
        skip_footer=skip_footer, converters=converters, missing_values=missing_values,
        filling_values=filling_values, usecols=usecols, names=names, excludelist=excludelist,
        deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
        case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=unpack, loose=loose,
        invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding, ndmin=ndmin))


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="",
            comments="# ", encoding=None):
    """Write a 1-d or 2-d array to a text file (``numpy.savetxt``); same formatting.

    ``X`` must be concrete (``TracerArrayConversionError`` under ``jit``).
    """
    np.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline, header=header,
               footer=footer, comments=comments, encoding=encoding)


# ------------------------------------------------------------------ raw data / iterators


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """Read raw binary (``sep=''``) or separator-delimited text data (``numpy.fromfile``).

    Returns a 1-d xnp array of ``dtype`` (any xnp dtype incl. bfloat16); a constant under
    ``jit``. Files written by ``numpy.ndarray.tofile`` read back exactly.
    """
    check_unsupported("fromfile", like=(like, None, _NO_LIKE))
    return _to_xnp("fromfile", np.fromfile(file, dtype=dtype, count=count, sep=sep,
                                           offset=offset))


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """Interpret a bytes-like object as a 1-d array (``numpy.frombuffer``).

    Unlike NumPy (which returns a view of the buffer), the result is a copy, so later
    writes to a mutable buffer do not change the xnp array. ``ValueError`` (NumPy's) when
    the buffer size is not a multiple of the item size.
    """
    check_unsupported("frombuffer", like=(like, None, _NO_LIKE))
    return _to_xnp("frombuffer", np.frombuffer(buffer, dtype=dtype, count=count, offset=offset),
                   copy=True)


def fromiter(iter, dtype, count=-1, *, like=None):
    """A 1-d array from an iterable of scalars (``numpy.fromiter``); ``dtype`` is required.

    Items are consumed on the host (concrete values only; traced items raise
    ``TracerArrayConversionError``/``ConcretizationTypeError`` under ``jit``).
    """
    check_unsupported("fromiter", like=(like, None, _NO_LIKE))
    items = (_host_scalar(v) for v in iter)
    return _to_xnp("fromiter", np.fromiter(items, dtype=dtype, count=count))


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """A 1-d array from numbers in text separated by ``sep`` (``numpy.fromstring``).

    ``sep`` is required (NumPy 2 removed the binary mode: ``ValueError`` for ``sep=''``;
    use :func:`frombuffer` for bytes).
    """
    check_unsupported("fromstring", like=(like, None, _NO_LIKE))
    return _to_xnp("fromstring", np.fromstring(string, dtype=dtype, count=count, sep=sep))


# ------------------------------------------------------------------ checked conversions


def asarray_chkfinite(a, dtype=None, order=None):
    """Convert to an xnp array, raising if it contains NaN or infinity
    (``numpy.asarray_chkfinite``).

    Raises
    ------
    ValueError
        ``"array must not contain infs or NaNs"`` for an eager input with a non-finite
        value.

    Notes
    -----
    Under ``jit`` (and ``vmap``) the values are unknown at trace time, so the check is
    skipped and the input is returned converted; check with ``xnp.isfinite`` in the traced
    code if needed.
    """
    x = _cr.asarray(a, dtype=dtype, order=order)
    dt = np.dtype(x.dtype)
    if dt in kit.INEXACT:  # an equation: a replayed call checks again
        finite = (lax.and_(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
                  if dt in kit.COMPLEX else lax.is_finite(x))
        lax.runtime_error(lax.not_(finite), "array must not contain infs or NaNs")
    return x


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W",
                 "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """An xnp array of ``dtype`` satisfying ``requirements`` (``numpy.require``).

    Flags (NumPy's names, case-insensitive; a string is read character by character, as in
    NumPy, so ``"CA"`` means ``["C", "A"]``): ``'C'``/``'F'`` a C-/Fortran-contiguous
    array (copied in that order where ``a`` is not), ``'A'`` aligned, ``'W'`` writeable,
    ``'O'`` owning its memory (copied where any is missing, as NumPy), ``'E'`` an xnp array
    (always). A traced array has no memory to check: it is returned as converted.

    Raises
    ------
    KeyError
        An unknown flag (as NumPy).
    ValueError
        Both ``'C'`` and ``'F'`` (NumPy's message).
    """
    check_unsupported("require", like=(like, None, _NO_LIKE))
    if requirements is None:
        return _cr.asarray(a, dtype=dtype)
    flags = {_REQUIREMENTS[str(r).upper()] for r in requirements} - {"E"}
    if flags >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in flags else "F" if "F" in flags else "A"
    x = _cr.array(a, dtype=dtype, order=order, copy=None)
    if isinstance(x, core.Tracer):
        return x
    for flag in flags - {"C", "F"}:
        if not x.flags[flag]:
            return x.copy(order)
    return x
