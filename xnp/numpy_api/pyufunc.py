"""``xnp.frompyfunc``: ufunc objects running a Python function on host values.

They are NumPy's own object ufunc (so broadcasting and the methods behave as NumPy's)
and return what it returns: object arrays, as xnp arrays of dtype ``object``
(:mod:`xnp.tracing.host_arrays`; ``.astype(int)`` makes a numeric one). They work eagerly
only and raise ``TypeError`` inside a transformation (``xnp.vectorize`` traces its
function with ``vmap`` instead).
"""

from __future__ import annotations

import numpy as np

from xnp.numpy_api._inplace import assign, check_target
from xnp.numpy_api._util import asarray_for
from xnp.numpy_api.ufunc import _strong, ufunc
from xnp.tracing import core, host_arrays
from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = ["frompyfunc"]

_NoValue = np._NoValue


def _host(fname, x):
    if isinstance(x, core.Tracer):
        raise TypeError(f"xnp.{fname}: a frompyfunc ufunc runs its Python function on host "
                        f"values and cannot be traced (got a traced {core.aval_of(x)} inside "
                        "a transformation). Use xnp.vectorize (traced with xnp.vmap) or "
                        "write the function with xnp operations.")
    if type(x) is core.Array:
        return x._value
    return x


def _check_eager(fname):
    if not core.is_eager(core.current_trace()):
        raise TypeError(f"xnp.{fname}: a frompyfunc ufunc runs its Python function on host "
                        "values and cannot be staged inside xnp.jit/grad/vmap. Use "
                        "xnp.vectorize (traced with xnp.vmap) or write the function with xnp "
                        "operations.")


def _typed(fname, res):
    """An object-array result as an xnp array of the dtype its values have (for writing
    back into a numeric array)."""
    arr = np.asarray(res.tolist())
    if arr.dtype not in SUPPORTED_DTYPES:
        raise TypeError(f"xnp.{fname}: the Python function returned values that do not form a "
                        f"numeric array (dtype {arr.dtype}) to write into a numeric array")
    return asarray_for(fname, arr)


def _host_method(fname, npu, method):
    def run(*args, **kwargs):
        _check_eager(fname)
        seen: list = []
        args = host_arrays.to_host([_host(fname, a) for a in args], seen)
        kwargs = {k: host_arrays.to_host(_host(fname, v), seen, writable=k == "out")
                  for k, v in kwargs.items()}
        return host_arrays.wrap(getattr(npu, method)(*args, **kwargs), seen)

    return run


class _pyufunc(ufunc):
    """A ufunc made by :func:`frompyfunc` (eager only; see the module docstring)."""

    __slots__ = ()

    def reduce(self, array, /, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
               where=True):
        kw = {} if initial is _NoValue else {"initial": initial}
        if where is not True:
            kw["where"] = _host(self.__name__, where)
        return _host_method(self.__name__, self._np, "reduce")(
            array, axis=axis, keepdims=keepdims, **kw, **_given(dtype=dtype, out=out))

    def accumulate(self, array, /, axis=0, dtype=None, out=None):
        return _host_method(self.__name__, self._np, "accumulate")(
            array, axis=axis, **_given(dtype=dtype, out=out))

    def reduceat(self, array, /, indices, axis=0, dtype=None, out=None):
        return _host_method(self.__name__, self._np, "reduceat")(
            array, indices, axis=axis, **_given(dtype=dtype, out=out))

    def outer(self, A, B, /, **kwargs):
        return _host_method(self.__name__, self._np, "outer")(A, B, **kwargs)

    def at(self, a, indices, b=None, /):
        fname = self.__name__
        _check_eager(fname)
        if type(a) is host_arrays.HostArray:  # an object array: written in place, as NumPy's
            extra = () if b is None else (host_arrays.to_host(b, []),)
            self._np.at(a._val, host_arrays.to_host(indices, []), *extra)
            return
        check_target(f"{fname}.at", a, "a")
        work = np.array(_host(fname, a), dtype=object)
        extra = () if b is None else (_host(fname, b),)
        self._np.at(work, indices, *extra)
        new = _typed(fname, work)
        assign(a, _strong(new, core.aval_of(a).dtype))


def _given(**kwargs):
    return {k: v for k, v in kwargs.items() if v is not None}


def frompyfunc(func, /, nin, nout, **kwargs):
    """A ufunc-like object running the Python function ``func`` elementwise
    (``numpy.frompyfunc``).

    ``func`` is called on the Python values of the broadcast inputs (through NumPy's
    object ufunc, so broadcasting, ``reduce``, ``accumulate``, ``reduceat``, ``outer``
    and ``at`` behave as NumPy's), and the results are NumPy's: object arrays, as xnp
    arrays of dtype ``object`` (a tuple for ``nout > 1``); ``at`` into a numeric array
    writes the values converted to its dtype. The keyword
    ``identity`` (the only one) is used by ``reduce`` for empty inputs.

    Eager only: a traced argument, or a call inside ``jit``/``grad``/``vmap``, raises
    ``TypeError`` (use ``xnp.vectorize``, which traces with ``vmap``).

    Raises
    ------
    TypeError
        ``func`` is not callable; ``at`` into a numeric array of values that do not form
        a numeric array; a traced input.
    ValueError
        ``nin``/``nout`` are invalid (NumPy's check).
    """
    if not callable(func):
        raise TypeError("function must be callable")
    unknown = set(kwargs) - {"identity"}
    if unknown:
        raise TypeError(f"xnp.frompyfunc: unexpected keyword argument {sorted(unknown)[0]!r}")
    npu = np.frompyfunc(func, nin, nout, **kwargs)
    name = npu.__name__
    run = _host_method(name, npu, "__call__")

    def call(*args, **kwargs):
        return run(*args, **kwargs)

    doc = f"{name}: the Python function {getattr(func, '__name__', func)!r} as an xnp ufunc " \
          "(eager only; see xnp.frompyfunc)."
    cls = type("ufunc", (_pyufunc,), {"__call__": staticmethod(call), "__doc__": doc,
                                      "__module__": "xnp", "__qualname__": "ufunc",
                                      "__slots__": ()})
    obj = object.__new__(cls)
    obj.__dict__.update(_fn=call, _np=npu, __name__=name, __qualname__=name, __doc__=doc,
                        nin=npu.nin, nout=npu.nout, nargs=npu.nargs, ntypes=npu.ntypes,
                        types=list(npu.types), identity=npu.identity, signature=npu.signature)
    return obj
