"""The eager XLA backend: ``xnp.config.update("eager_backend", "xla")`` runs each
primitive through a cached one-equation executable, so the XLA path can be tested
on every primitive exactly like the NumPy backend.

Natives are NumPy arrays (copied out of the device buffers, so they are
writable). Unlike the NumPy backend, results never alias their inputs: eager
views (``b = a[1:3]; b[0] = 9`` changing ``a``) do not hold in this mode, which
exists to test the compiled path, not to replace the NumPy backend.
"""

from __future__ import annotations

import collections
import functools
import threading

import numpy as np

from xnp import config
from xnp._default_dtypes import scalar_to_ndarray
from xnp.backends.xp_impls import XP_IMPLS
from xnp.backends.xp_impls.checks import HOST_CHECKS
from xnp.backends.xla import client as _client
from xnp.backends.xla import compile_cache
from xnp.backends.xla.executable import Compiled
from xnp.backends.xla.lowering import LOWERINGS, UNSUPPORTED, lower_closed_jaxpr
from xnp.tracing import ShapedArray
from xnp.tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var

__all__ = ["XlaEagerBackend", "BACKEND"]


class _Impls:
    """A table view: ``get(prim)`` returns a runner for every primitive with a lowering."""

    def __init__(self, backend):
        self._backend = backend
        self._runners: dict = {}

    def get(self, prim, default=None):
        if prim not in LOWERINGS:
            return default
        r = self._runners.get(prim)
        if r is None:
            if prim in HOST_CHECKS:  # a check reads its condition (compiled, it is the identity)
                r = functools.partial(XP_IMPLS[prim], np)
            else:
                def r(*vals, **params):
                    return self._backend.run(prim, vals, params)
            self._runners[prim] = r
        return r

    def __contains__(self, prim):
        return prim in LOWERINGS


class _Hold:
    """The executable cache's hold on one eager executable (``compile_cache.hold``):
    its eviction drops the executable from the eager cache too."""

    __slots__ = ("backend", "key", "compiled", "used")

    def __init__(self, backend, key, compiled):
        self.backend, self.key, self.compiled = backend, key, compiled
        self.used = False  # set by each run, cleared when the executable cache asks

    def alive(self) -> bool:
        return self.backend._cache.get(self.key) is self

    def recently_used(self) -> bool:
        used, self.used = self.used, False
        return used

    def release(self) -> None:
        with self.backend._lock:
            if self.backend._cache.get(self.key) is self:
                del self.backend._cache[self.key]


class XlaEagerBackend:
    """Eager backend on XLA: one cached executable per (primitive, operand avals, params),
    the ``jit_cache_size`` most recently used kept, each only while the executable cache
    (``executable_cache_size``) keeps it."""

    name = "xla"
    native_type = np.ndarray
    native_types = (np.ndarray,)

    def __init__(self):
        self.impls = _Impls(self)
        self.unsupported = dict(UNSUPPORTED)
        self.view_prims = frozenset()
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()  # guards the LRU bookkeeping of _cache

    @staticmethod
    def wrap_native(x):
        return x if type(x) is np.ndarray else np.asarray(x)

    @staticmethod
    def from_host(x: np.ndarray) -> np.ndarray:
        return x

    #: operands that are not ``Array``s: a Python scalar at its default dtype, anything
    #: else (NumPy arrays and scalars, nested sequences) as NumPy converts it
    from_scalar = staticmethod(scalar_to_ndarray)
    asarray = staticmethod(np.asarray)

    def _compile(self, prim, avals, params):
        invars = [Var(a) for a in avals]
        out = prim.abstract_eval(*avals, **params)
        outs = out if prim.multiple_results else [out]
        outvars = [Var(a.strip_weak_type()) for a in outs]
        jaxpr = Jaxpr([], invars, [JaxprEqn(prim, invars, params, outvars)], outvars)
        return lower_closed_jaxpr(ClosedJaxpr(jaxpr, []), f"eager_{prim.name}")

    def run(self, prim, vals, params):
        avals = tuple(ShapedArray(v.shape, v.dtype) for v in vals)
        key = (prim, avals, tuple(params.items()))
        with self._lock:
            hold = self._cache.get(key)
            if hold is not None:
                self._cache.move_to_end(key)
                hold.used = True
        if hold is None:
            hold = _Hold(self, key, Compiled(self._compile(prim, list(avals), params)))
            with self._lock:
                self._cache[key] = hold
                while len(self._cache) > config.get("jit_cache_size"):
                    self._cache.popitem(last=False)
            if not compile_cache.hold(hold.compiled._exe, hold):
                hold.release()  # not kept by the executable cache: this call only
        entry = hold.compiled
        c = _client.get_client()
        bufs = [c.put(np.ascontiguousarray(v)) for v in vals]
        outs = c.execute(entry._exe, [*entry._const_bufs, *bufs], entry._handlers, entry._name)
        host = [np.array(_client.to_host(b)) for b in outs]
        return host if prim.multiple_results else host[0]


BACKEND = XlaEagerBackend()  # registered with xnp.tracing.core by xnp._wiring.connect
