"""Dask arrays whose chunks are xnp arrays.

``dask.array.from_array(x, chunks, asarray=False)`` on an xnp array, or
``dask.array.map_blocks`` with an xnp (or ``xnp.jit``) function, gives a Dask array
whose chunks are xnp arrays. Dask's elementwise operations and reductions call NumPy
functions on the chunks, which reach xnp through NumPy's ``__array_ufunc__`` and
``__array_function__`` protocols; what Dask looks up in its own dispatch tables
instead (joining chunks in ``concatenate``, ``rechunk`` and ``compute()``,
``tensordot``/``@``, ``einsum``, ``take``, empty blocks, element counts of ``mean``
and ``var``, ``divide`` with a dtype, per-chunk percentiles) is registered here for
``xnp.Array``, which is also made one of Dask's chunk types (so that a Dask array
combined with an xnp array in arithmetic stays a Dask array), together with ``dask.sizeof`` (the chunk's ``nbytes``, for the
distributed scheduler's memory accounting) and ``dask.tokenize`` (by the array's
bytes, dtype, shape and weak type, as for a NumPy array).

Importing xnp does not import Dask. The registration runs when Dask is imported
(``dask`` for sizeof/tokenize, ``dask.array`` for the array dispatch), through an
import hook that :func:`install_import_hook` puts on ``sys.meta_path`` when xnp is
imported and that removes itself once both have run; if Dask was imported before xnp,
``import xnp`` registers at once. :func:`register` does the same explicitly.

Jitted functions and xnp arrays pickle (``xnp.tracing.jit_pickle``), so the same code
runs on ``dask.distributed`` process workers; each worker compiles a jitted function
once per call signature.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from xnp import host_dispatch
from xnp import numpy_api as _api
from xnp.tracing.core import Array
from xnp.tracing.host_arrays import HostArray

__all__ = ["register", "install_import_hook"]

_LOCK = threading.Lock()
_DONE: set = set()


# --------------------------------------------------------------------------- dispatch targets


def _concatenate(arrays, axis=0):
    arrays = list(arrays)
    if any(isinstance(a, HostArray) for a in arrays):  # records of arg reductions, strings
        return host_dispatch.numpy_call(np.concatenate, (arrays,), {"axis": axis})
    return _api.concatenate(arrays, axis=axis)


def _divide(x1, x2, out=None, dtype=None):
    return _api.divide(x1, x2, out=out, dtype=dtype)


def _percentile(a, q, method="linear"):
    # Dask's per-chunk step: (the chunk's percentiles, its length); None for an empty chunk
    n = len(a)
    if not n:
        return None, n
    if not np.issubdtype(a.dtype, np.number):
        method = "nearest"
    return _api.percentile(a, list(q), method=method), n


def _reduced_shape(shape, axis, keepdims):
    if axis is None:
        axes = tuple(range(len(shape)))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(a % len(shape) for a in axis)
    else:
        axes = (axis % len(shape),)
    kept = tuple(1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes)
    return axes, kept


def _numel(x, axis=None, keepdims=False, dtype=np.float64, **kwargs):
    # the number of elements each output element of a reduction over `axis` counts
    axes, out_shape = _reduced_shape(x.shape, axis, keepdims)
    count = 1
    for a in axes:
        count *= x.shape[a]
    return _api.full(out_shape, count, dtype=dtype)


def _nannumel(x, **kwargs):
    # the number of non-NaN elements, with the reduction's axis/keepdims/dtype keywords
    return _api.sum(~_api.isnan(x), **kwargs)


def _to_numpy(x, **kwargs):
    return np.asarray(x, **kwargs)


def _sizeof(x):
    return int(x.nbytes) + sys.getsizeof(x)


def _normalize_token(x):
    from dask.tokenize import normalize_token  # noqa: PLC0415

    return ("xnp.Array", bool(x._weak), normalize_token(np.asarray(x)))


# --------------------------------------------------------------------------- registration


def _register_core():
    from dask.sizeof import sizeof  # noqa: PLC0415
    from dask.tokenize import normalize_token  # noqa: PLC0415

    sizeof.register(Array, _sizeof)
    normalize_token.register(Array, _normalize_token)


def _register_array():
    from dask.array import dispatch  # noqa: PLC0415
    from dask.array.chunk_types import register_chunk_type  # noqa: PLC0415

    # a chunk type: Dask wraps xnp arrays in arithmetic (dask_array @ xnp_array is a Dask
    # array) instead of deferring to them as to an unknown NEP 13 type
    register_chunk_type(Array)
    dispatch.concatenate_lookup.register(Array, _concatenate)
    dispatch.take_lookup.register(Array, _api.take)
    dispatch.tensordot_lookup.register(Array, _api.tensordot)
    dispatch.einsum_lookup.register(Array, _api.einsum)
    dispatch.empty_lookup.register(Array, _api.empty)
    dispatch.divide_lookup.register(Array, _divide)
    dispatch.percentile_lookup.register(Array, _percentile)
    dispatch.numel_lookup.register(Array, _numel)
    dispatch.nannumel_lookup.register(Array, _nannumel)
    dispatch.to_numpy_dispatch.register(Array, _to_numpy)


# module whose import triggers a registration -> that registration
_REGISTRARS = {"dask": _register_core, "dask.array": _register_array}


def _run(name: str) -> None:
    with _LOCK:
        if name in _DONE:
            return
        _DONE.add(name)
    _REGISTRARS[name]()


def register() -> None:
    """Register xnp with Dask now (imports ``dask`` and ``dask.array``).

    Idempotent; normally not needed, since importing Dask after xnp registers through
    the import hook, and importing xnp after Dask registers at once.

    Raises
    ------
    ImportError
        Dask (with its array extra) is not installed.
    """
    import dask.array  # noqa: F401, PLC0415

    for name in _REGISTRARS:
        _run(name)


class _DaskImportHook:
    """A ``sys.meta_path`` finder that runs a registration after a watched module's code
    has run; it finds nothing itself (the other finders locate the module) and leaves
    ``sys.meta_path`` once every watched module was imported."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _REGISTRARS or fullname in _DONE:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None or not hasattr(loader, "__dict__"):
            return spec

        def exec_then_register(module):
            if module.__name__ != fullname:  # a loader shared with other modules
                return exec_module(module)
            try:
                exec_module(module)
            finally:
                # give the loader its own method back
                loader.__dict__.pop("exec_module", None)
            _run(fullname)
            if all(name in _DONE for name in _REGISTRARS):
                _uninstall(self)

        loader.exec_module = exec_then_register
        return spec


def _uninstall(hook) -> None:
    try:
        sys.meta_path.remove(hook)
    except ValueError:
        pass


def install_import_hook() -> None:
    """Arrange for :func:`register`'s work to happen when Dask is imported.

    Registers at once for what is already imported (``dask``, ``dask.array`` in
    ``sys.modules``) and puts a finder on ``sys.meta_path`` for the rest. Called by
    ``import xnp``; imports nothing from Dask itself.
    """
    for name in _REGISTRARS:
        if name in sys.modules:
            _run(name)
    if all(name in _DONE for name in _REGISTRARS):
        return
    if not any(isinstance(f, _DaskImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _DaskImportHook())
