"""Pickling ``xnp.jit`` wrappers: a wrapper travels as its function and options.

A jitted function's cache holds compiled executables and locks, which do not pickle
and would mean nothing in another process. ``pickle``/``cloudpickle`` of a wrapper
therefore carry only what builds it again:

- a wrapper importable under its module and qualified name (``@xnp.jit`` on a
  module-level function of an importable module) pickles by reference, as a function
  does: the receiving process imports the module and uses the wrapper found there;
- any other wrapper (a lambda, a closure, one defined in ``__main__``) pickles as its
  function (by value where the pickler can, as cloudpickle does) plus its jit options
  and a token naming this wrapper. The receiving process builds the wrapper once per
  token and hands the same object back for every later unpickling of that token, so a
  process that receives it with many tasks (a Dask worker) traces and compiles it once
  per call signature. In the process that pickled it, the token maps back to the
  original wrapper.

Nothing compiled travels: the receiving process compiles on its first call.
"""

from __future__ import annotations

import collections
import sys
import threading
import uuid

__all__ = ["reduce_jitted", "rebuild_jitted"]

# token -> wrapper, newest last; bounded so that a process receiving many distinct
# wrappers does not keep all their executables alive
_MAX_KEPT = 256
_BY_TOKEN: collections.OrderedDict = collections.OrderedDict()
_LOCK = threading.Lock()


def _keep(token: str, wrapped) -> None:
    _BY_TOKEN[token] = wrapped
    _BY_TOKEN.move_to_end(token)
    while len(_BY_TOKEN) > _MAX_KEPT:
        _BY_TOKEN.popitem(last=False)


def _importable_as_itself(wrapped) -> bool:
    module_name = getattr(wrapped, "__module__", None)
    qualname = getattr(wrapped, "__qualname__", None)
    if not isinstance(module_name, str) or not isinstance(qualname, str):
        return False
    if module_name == "__main__" or "<" in qualname:
        return False
    obj = sys.modules.get(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj is wrapped


def reduce_jitted(wrapped, jit, fun, options: dict):
    """The ``__reduce__`` value of a jit wrapper.

    Parameters
    ----------
    wrapped : JitWrapped
        The wrapper being pickled.
    jit : callable
        ``xnp.jit`` itself (pickled by reference), called as ``jit(fun, **options)`` to
        build the wrapper again.
    fun : callable
        The wrapped Python function.
    options : dict
        ``jit``'s keyword arguments that rebuild an equivalent wrapper.

    Returns
    -------
    str or tuple
        The qualified name (pickle by reference) when the wrapper is importable as
        itself, else ``(rebuild_jitted, (token, jit, fun, options))``.
    """
    if _importable_as_itself(wrapped):
        return wrapped.__qualname__
    with _LOCK:
        token = wrapped.__dict__.get("_pickle_token")
        if token is None:
            token = uuid.uuid4().hex
            wrapped.__dict__["_pickle_token"] = token
        _keep(token, wrapped)
    return (rebuild_jitted, (token, jit, fun, options))


def rebuild_jitted(token: str, jit, fun, options: dict):
    """The wrapper named ``token`` in this process, built with ``jit(fun, **options)``
    the first time the token is seen (or after it was dropped from the bounded table of
    kept wrappers)."""
    with _LOCK:
        wrapped = _BY_TOKEN.get(token)
        if wrapped is None:
            wrapped = jit(fun, **options)
            wrapped.__dict__["_pickle_token"] = token
        _keep(token, wrapped)
    return wrapped
