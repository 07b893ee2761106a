"""Primitives, ``bind``, traces, tracers and eager arrays.

Trace discipline: one *current trace* per thread (``_STATE.trace``, changed only
by :func:`set_current_trace`, restored in ``finally``). ``Primitive.bind`` hands
the call to the calling thread's current trace:

* :class:`EvalTrace` (no transformation active) runs the eager backend's
  implementation of the primitive;
* a staging trace (``jit``/``make_jaxpr``, :mod:`xnp.tracing.partial_eval`)
  records a ``JaxprEqn`` and returns a tracer: every call is staged, even when
  all arguments are constants (omnistaging);
* later transformations (jvp, vmap) process the call with their rule and bind
  again on their parent trace.

A trace has an ``alive`` flag that is cleared when its transformation ends;
using one of its tracers afterwards raises ``UnexpectedTracerError`` naming
the line that created the tracer.

Threads: the trace state is per thread. A thread that traces (``jit``, ``grad``,
``vmap``) changes only its own current trace; every other thread keeps running
eagerly (or its own transformation) at the same time. A new thread starts with
no transformation active. A tracer handed to another thread still stages into the
trace that made it (and raises ``UnexpectedTracerError`` once that trace has ended).
"""

from __future__ import annotations

import itertools
import threading
from typing import Any, Callable

import numpy as np

from xnp import config as _config
from xnp._default_dtypes import PYTHON_SCALAR_TYPES, python_scalar_dtype
from xnp.tracing import errors
from xnp.tracing.annotations import Annotated
from xnp.tracing.avals import ShapedArray
from xnp.tracing.sizes import check_result_sizes
from xnp.tracing.state import Ref, RefAval, refuse_ref_operand
from xnp.tracing.source import SourceInfo, source_info

from xnp.tracing.array_base import ArrayBase as _ArrayBase
from xnp.tracing.array_base import subclass_hook as _subclass_hook

__all__ = [
    "Primitive", "for_primitive", "Trace", "EvalTrace", "Tracer", "Array", "SourceInfo",
    "current_trace", "set_current_trace", "register_eager_backend", "eager_backend",
    "source_info", "aval_of", "is_python_scalar",
]


# --------------------------------------------------------------------------- primitives


def _default_weak_type(*weak_types, **params) -> bool:
    return bool(weak_types) and all(weak_types)


class for_primitive:
    """A rule made from the primitive it is declared for: ``Primitive(..., jvp=
    for_primitive(make))`` has ``make(prim)`` as its jvp (a rule that binds its own
    primitive again: the kits of ``xnp.lax._rules``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable):
        self.make = make


class Primitive:
    """A named operation; every interpretation of it is a rule keyed by this object.

    Parameters
    ----------
    name : str
        The jaxpr name (``add``, ``reduce_sum``).
    shape : callable(*avals, **params) -> tuple (or list of tuples if ``multiple_results``)
        Shape rule; raises ``TypeError``/``ValueError`` naming the primitive.
    dtype : callable(*avals, **params) -> np.dtype (or list)
        Dtype rule; strict (no promotion at the lax level).
    weak_type : callable(*weak_types, **params) -> bool, optional
        Default: the result is weak when every operand is weak.
    jvp, transpose, batch : callables (or :class:`for_primitive`), optional
        Transformation rules (used by the AD and batching traces).
    impl : callable(*args, **params), optional
        An eager rule on xnp values (call and control-flow primitives); without one,
        the eager backend's table runs the primitive on native arrays.
    multiple_results : bool
        ``bind`` returns a list.
    differentiable : bool or str
        False (or a reason string) for primitives whose outputs carry no tangent.
    allocates : bool or "eagerly"
        False for primitives whose eager result is a view needing no new memory
        (``broadcast_in_dim``; XLA fuses it into its consumers): their results are
        checked against int64 sizes only, not against the machine's memory.
        ``"eagerly"`` for elementwise primitives, whose staged results XLA fuses into
        their consumers (``(x[:, None] * x).sum()`` allocates no product): checked
        against memory only when not staged (a compiled program's allocations are
        checked after compiling).

    Every result aval passes :func:`xnp.tracing.sizes.check_result_sizes`, eagerly and
    when staged: ``ValueError`` for a size beyond int64, ``MemoryError`` beyond memory.

    Calling convention: array operands positional, static parameters as
    keywords (hashable, canonical: tuples of ints, ``np.dtype``).
    """

    def __init__(
        self,
        name: str,
        *,
        shape: Callable | None = None,
        dtype: Callable | None = None,
        weak_type: Callable | None = None,
        abstract_eval: Callable | None = None,
        jvp: Callable | None = None,
        transpose: Callable | None = None,
        batch: Callable | None = None,
        impl: Callable | None = None,
        multiple_results: bool = False,
        differentiable: bool | str = True,
        allocates: bool | str = True,
    ):
        self.name = name
        self.shape_rule = shape
        self.dtype_rule = dtype
        self.weak_type_rule = weak_type or _default_weak_type
        self._abstract_eval = abstract_eval
        self.jvp, self.transpose, self.batch, self.impl = [
            r.make(self) if type(r) is for_primitive else r for r in (jvp, transpose, batch, impl)]
        self.multiple_results = multiple_results
        self.differentiable = differentiable
        self.allocates = allocates

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        """Apply the primitive under the current trace (eager, staged or transformed)."""
        if _REBOUND_ON[0]:  # an eager array stands for a traced value (tracing/rebound.py)
            args = tuple([_RESOLVE[0](a) for a in args])
        return _STATE.trace.process_primitive(self, args, params)

    accepts_refs = False  # whether operands may be refs: the state primitives'

    def abstract_eval(self, *avals: ShapedArray, **params):
        """Output aval(s) from input avals: the shape, dtype and weak-type rules, each
        result's size checked (:func:`xnp.tracing.sizes.check_result_sizes`); a ref operand
        raises ``TypeError`` unless the primitive ``accepts_refs``."""
        if not self.accepts_refs and RefAval in map(type, avals):
            refuse_ref_operand(f"xnp.lax.{self.name}", avals)
        out = self.out_avals(*avals, **params)
        check_result_sizes(self.name, out if self.multiple_results else (out,),
                           bool(self.allocates),
                           staging_active if self.allocates == "eagerly" else None)
        return out

    def out_avals(self, *avals: ShapedArray, **params):
        """``abstract_eval`` without the size check (re-checking a staged jaxpr's types)."""
        if self._abstract_eval is not None:
            out = self._abstract_eval(*avals, **params)
        else:
            shape = self.shape_rule(*avals, **params)
            dtype = self.dtype_rule(*avals, **params)
            weak = self.weak_type_rule(*(a.weak_type for a in avals), **params)
            if self.multiple_results:
                out = [ShapedArray(s, d, weak) for s, d in zip(shape, dtype)]
            else:
                out = ShapedArray(shape, dtype, weak)
        return out


# --------------------------------------------------------------------------- traces


_LEVELS = itertools.count(1)


def next_level() -> int:
    """A level for a new trace: traces created later are nested inside live earlier ones."""
    return next(_LEVELS)


class Trace(Annotated):
    """Base of all traces. ``alive`` is cleared when the transformation ends.

    ``level`` orders live traces: a trace created later is nested inside every
    live trace created before it (dynamic scoping), so it has a higher level.
    """

    alive = True
    transformation = "eval"
    level = 0
    #: True for traces that record a jaxpr (jit, make_jaxpr, lax bodies): what runs under
    #: them runs once, while tracing, not on every call
    staging = False
    _annotations = None  # the dict of Annotated.annotations(), made on first use

    def process_primitive(self, prim: Primitive, args, params):  # pragma: no cover
        raise NotImplementedError


class _State(threading.local):
    """The calling thread's trace state: ``trace`` is its current trace.

    One object for the process (modules bind it once, as ``_STATE = core._STATE``),
    whose attributes are per thread: ``__init__`` runs once in every thread that
    reads it and starts that thread with the shared base :class:`EvalTrace` (eager
    evaluation; the eager fast paths compare against it by identity). No
    ``__slots__``: a slot would be one value shared by all threads.
    """

    def __init__(self):
        self.trace: Trace = _BASE_TRACE


#: Idents of the threads whose current trace is not the base trace, kept by
#: :class:`set_current_trace` (each thread adds and removes only its own ident). Empty,
#: the common case, means that every thread runs eagerly: the eager fast paths test
#: ``not _TRACING_THREADS or _STATE.trace is _BASE_TRACE`` and so skip the per-thread
#: lookup of ``_STATE.trace`` (tens of ns) while no thread traces. A thread's ident is
#: added before its trace leaves the base trace and removed after it is back, so an
#: empty set never hides a transformation of the calling thread.
_TRACING_THREADS: set = set()
_get_ident = threading.get_ident

#: :mod:`xnp.tracing.rebound`'s counters (functions run by grad/jvp/vmap, bindings of
#: arrays to cells) and its recorder of the arrays such a function makes (called where
#: eager arrays are made under a transformation: ``EvalTrace`` results and ``lift``)
_SCOPES_ON = [0]
_REBOUND_ON = [0]
_NOTE_CREATED: list = [lambda arr: None]
_RESOLVE: list = [lambda x: x]


class set_current_trace:
    """Context manager: make ``trace`` the calling thread's current trace; restores the
    previous one on exit, also when the body raises (other threads are not affected)."""

    __slots__ = ("new", "prev")

    def __init__(self, trace: Trace):
        self.new = trace

    def __enter__(self):
        new = self.new
        prev = self.prev = _STATE.trace
        _switch(prev, new)
        return new

    def __exit__(self, *exc):
        _switch(_STATE.trace, self.prev)
        return False


def _switch(old: Trace, new: Trace) -> None:
    """Replace the calling thread's current trace ``old`` by ``new``, keeping
    ``_TRACING_THREADS`` a superset of the threads that are not on the base trace."""
    if old is _BASE_TRACE and new is not _BASE_TRACE:
        _TRACING_THREADS.add(_get_ident())
        _STATE.trace = new
    elif new is _BASE_TRACE and old is not _BASE_TRACE:
        _STATE.trace = new
        _TRACING_THREADS.discard(_get_ident())
    else:
        _STATE.trace = new


def is_eager(trace: Trace) -> bool:  # the base trace, or one recording an eager call
    return type(trace) is EvalTrace


def current_trace() -> Trace:
    """The calling thread's current trace (the base ``EvalTrace`` when none is active)."""
    return _STATE.trace


def _holds_tracer(x) -> bool:
    if isinstance(x, Tracer):
        return True
    if isinstance(x, (tuple, list)):
        return any(_holds_tracer(v) for v in x)
    return False


def check_eager_write(aval, *values) -> None:
    """Before writing ``values`` (the new data, and any index) into an eager array of
    ``aval``: allowed with no transformation active, and under grad/jvp/vjp/vmap for
    constant values (an ordinary NumPy side effect, repeated on every call).

    Raises
    ------
    xnp.errors.ForeignWriteError
        A staging trace (jit, make_jaxpr) is active: the write would happen once, while
        tracing. Or a traced value is written under grad/jvp/vjp/vmap into an array that
        the transformed function did not make (those are rebound first, see
        :mod:`xnp.tracing.rebound`): the error carries that trace.
    """
    trace = _STATE.trace
    if type(trace) is EvalTrace:
        return
    if trace.staging:
        raise errors.ForeignWriteError(
            errors.eager_write_message(aval, trace.transformation, True))
    if _holds_tracer(values):
        raise errors.ForeignWriteError(
            errors.eager_write_message(aval, trace.transformation, False), trace)
    if staging_active(trace):
        raise errors.ForeignWriteError(
            errors.eager_write_message(aval, trace.transformation, True))


def staging_active(trace: Trace | None = None) -> bool:
    """Whether ``trace`` (default: the current one) or a trace it runs on is a staging
    trace, so that a Python side effect would happen once, while tracing."""
    t = _STATE.trace if trace is None else trace
    while t is not None:
        if t.staging:
            return True
        t = getattr(t, "parent", None)
    return False


# --------------------------------------------------------------------------- eager backends

_EAGER_BACKENDS: dict[str, Any] = {}
_OPTIONS = _config._OPTIONS  # "eager_backend" names the backend in use; read at each use


def register_eager_backend(backend) -> None:
    """Register an eager backend (``xnp._wiring.connect`` registers xnp's): an object with
    ``name``, ``impls`` (primitive -> callable on native arrays), ``view_prims``,
    ``native_type``/``native_types``, ``wrap_native(x)``, ``from_host(ndarray)``, and for
    operands that are not ``Array``s ``from_scalar(x)`` (a Python scalar, at its default
    dtype: ``_default_dtypes.python_scalar_dtype``) and ``asarray(x)`` (array-likes)."""
    _EAGER_BACKENDS[backend.name] = backend


def eager_backend(name: str | None = None):
    """The registered eager backend ``name`` (default: option ``eager_backend``'s).
    ``RuntimeError`` before any is registered, ``ValueError`` for an unknown name."""
    name = name or _OPTIONS["eager_backend"]
    try:
        return _EAGER_BACKENDS[name]
    except KeyError:
        if not _EAGER_BACKENDS:
            errors.not_connected("the eager backend", "core.register_eager_backend")()
        raise ValueError(f"xnp: unknown eager backend {name!r}; have {sorted(_EAGER_BACKENDS)}")


def is_python_scalar(x) -> bool:
    return type(x) in (int, float, complex, bool)


_PY_SCALAR_TYPES = frozenset(PYTHON_SCALAR_TYPES)


def aval_of(x) -> ShapedArray:
    """Aval of an xnp Array, tracer, ref, NumPy array/scalar or Python scalar
    (``TypeError`` when ``x`` is not array-like)."""
    t = type(x)
    if t is Array:
        return x.aval
    if isinstance(x, (Tracer, Ref)) or (isinstance(x, Array) and x._user_subclass):
        return x.aval
    if t in _PY_SCALAR_TYPES:
        dt = python_scalar_dtype(x)
        if t is int and not -(1 << 63) <= x < (1 << 64):
            raise OverflowError(f"Python int {x} too large to convert to {dt}")
        return ShapedArray((), dt, weak_type=t is not bool)
    if isinstance(x, (np.ndarray, np.generic, Array)):  # Array: a dtype XLA lacks
        from xnp.tracing.avals import canonical_dtype  # noqa: PLC0415

        if t is not np.ndarray and isinstance(x, (np.ma.MaskedArray, np.matrix)):
            lost, fix = (("its mask", "pass its data and mask as arrays (m.data, m.mask)")
                         if isinstance(x, np.ma.MaskedArray) else
                         ("matrix semantics", "pass numpy.asarray(m); write products with @"))
            raise TypeError(f"a {t.__module__}.{t.__name__} (shape {x.shape}, dtype "
                            f"{x.dtype.name}) cannot be traced: {lost} would be lost; {fix}.")
        return ShapedArray(np.shape(x), canonical_dtype(x.dtype))
    raise TypeError(f"xnp: value of type {t.__name__} is not an array: {x!r}")


class EvalTrace(Trace):
    """No transformation: run the eager backend's implementation now. One made with a
    ``recording`` (:mod:`xnp.tracing.recording`) hands each primitive to it instead."""

    recording = None

    def __init__(self, recording=None):
        self.recording = recording

    def process_primitive(self, prim, args, params):
        if self.recording is not None:
            return self.recording.process_primitive(prim, args, params)
        if prim.impl is not None:
            for a in args:
                if isinstance(a, Tracer):
                    top = find_top_trace(self, args)
                    if top is not self:
                        return top.process_primitive(prim, args, params)
            return prim.impl(*args, **params)
        try:
            backend = _EAGER_BACKENDS[_OPTIONS["eager_backend"]]
        except KeyError:
            backend = eager_backend()  # raises, naming what is missing
        vals = []
        weaks = []
        view_prim = prim in backend.view_prims
        for a in args:
            if type(a) is Array:
                v = a._v
                if v is None or (view_prim and a._dev is not None):
                    # a jit output: read it; before a view op copy it (writes through the
                    # view must land in the array, which a read-only buffer view cannot take)
                    v = a._writable_value() if view_prim else a._value
                vals.append(v)
                weaks.append(a._weak)
            else:
                t = type(a)
                if t in _PY_SCALAR_TYPES:  # at its default dtype, weak unless a bool
                    vals.append(backend.from_scalar(a))
                    weaks.append(t is not bool)
                elif isinstance(a, Tracer):
                    return find_top_trace(self, args).process_primitive(prim, args, params)
                else:
                    vals.append(backend.asarray(a))
                    weaks.append(False)
        impl = backend.impls.get(prim)
        if impl is None:
            raise NotImplementedError(
                f"xnp: eager backend '{backend.name}' has no rule for primitive '{prim.name}'."
            )
        if params:
            _check_rules(prim, vals, weaks, params)
            out = impl(*vals, **params)
        else:
            if len(vals) == 2:
                v0, v1 = vals
                key = (prim, v0.shape, v0.dtype, v1.shape, v1.dtype)
            elif len(vals) == 1:
                v0 = vals[0]
                key = (prim, v0.shape, v0.dtype)
            else:
                key = (prim, *[(v.shape, v.dtype) for v in vals])
            if key not in _CHECKED:
                _check_rules(prim, vals, weaks, params)
                _CHECKED.add(key)
            out = impl(*vals)
        rule = prim.weak_type_rule
        weak = (all(weaks) if weaks else False) if rule is _default_weak_type else rule(
            *weaks, **params)
        native = backend.native_type
        if prim.multiple_results:
            res = [Array(o if type(o) is native else backend.wrap_native(o), weak) for o in out]
            if _SCOPES_ON[0]:  # a function of grad/vmap runs: it may fill these arrays
                for r in res:
                    _NOTE_CREATED[0](r)
            return res
        res = Array(out if type(out) is native else backend.wrap_native(out), weak)
        if _SCOPES_ON[0]:
            _NOTE_CREATED[0](res)
        return res


#: every thread's current trace when no transformation is active in it (no state: shared)
_BASE_TRACE = EvalTrace()
_STATE = _State()
_CHECKED: set = set()


def _check_rules(prim, vals, weaks, params) -> None:
    """Run the shape/dtype rules once per (primitive, operand shapes/dtypes, params), so an
    eager call with bad operands raises the rule's error instead of reaching the backend."""
    key = (prim, tuple([(v.shape, v.dtype) for v in vals]), tuple(params.items()))
    try:
        if key in _CHECKED:
            return
    except TypeError:  # an unhashable param: check every time
        key = None
    prim.abstract_eval(*[ShapedArray(v.shape, v.dtype, w) for v, w in zip(vals, weaks)], **params)
    if key is not None:
        if len(_CHECKED) > 100_000:
            _CHECKED.clear()
        _CHECKED.add(key)


def find_top_trace(current: Trace, args) -> Trace:
    """The innermost trace among ``current`` and the traces of the tracer arguments (a
    tracer whose trace has ended raises ``UnexpectedTracerError``). Used when a trace
    receives a tracer of a trace nested inside it (e.g. tangents staged by ``linearize``
    while primals are computed on the enclosing trace)."""
    top = current
    for a in args:
        if isinstance(a, Tracer):
            a._check_alive()
            t = a._trace
            if t.level > top.level:
                top = t
    return top


#: the annotation (``Tracer.annotations``) of a tracer that :func:`lift` made from host
#: memory it borrows (a NumPy array shared, not copied): writing into it would have to
#: reach that memory, which a traced function cannot do
BORROWED = "borrowed_host_memory"


def lift(value, weak_type: bool = False, borrowed: bool = False):
    """Make a host value (NumPy array) an xnp value of the current trace: eagerly an
    ``Array``; while staging a tracer bound to a constvar (or a literal for scalars), so
    creation functions called under ``jit`` return tracers (omnistaging) without recording
    an equation.

    ``borrowed``: ``value`` is memory the caller shares with others (``asarray`` of a NumPy
    array): eagerly the array is that memory, as NumPy's; under a transformation it is not
    an array the transformed function made (a traced write into it is refused instead of
    silently not reaching the shared memory), and a tracer made of it carries the
    :data:`BORROWED` annotation."""
    t = _STATE.trace
    try:
        backend = _EAGER_BACKENDS[_OPTIONS["eager_backend"]]
    except KeyError:
        backend = eager_backend()  # raises, naming what is missing
    arr = Array(backend.from_host(value), weak_type)
    if _SCOPES_ON[0] and not borrowed:  # a function of grad/vmap runs: it may fill this array
        _NOTE_CREATED[0](arr)
    if getattr(t, "recording", None) is not None:  # a constant of the recorded call
        t.recording.lifted(arr)
    lift_fresh = getattr(t, "lift_fresh", None)
    if lift_fresh is not None:  # staging: a new array nothing else holds, so a constant
        out = lift_fresh(arr)
    else:
        to_tracer = getattr(t, "to_tracer", None)
        out = arr if to_tracer is None else to_tracer(arr)
    if borrowed and isinstance(out, Tracer):
        out.annotations()[BORROWED] = True
    return out


# --------------------------------------------------------------------------- tracers


class Tracer(Annotated):
    """A value under a transformation: knows its aval (shape, dtype, weak type), not its data.

    Reading metadata (``shape``, ``dtype``, ``ndim``, ``size``, ``len``) is free and
    static. Converting to a Python or NumPy value raises the matching
    ``xnp.errors`` class, unless the tracer is concrete (``to_concrete_value``).
    Operators and array methods are installed by :mod:`xnp.array`.

    A tracer is never changed: an in-place update (``x[idx] = v``, ``x += y``) binds it
    to a cell, a ref of its trace that holds its value from then on
    (:mod:`xnp.tracing.rebound`, :mod:`xnp.numpy_api._views`); ``view_of`` records the
    base of a traced view. Per-value state lives on the tracer: ``_annotations``
    (:mod:`xnp.tracing.annotations`; every tracer class sets it and ``view_of`` to None)
    and ``_scope_note`` (:mod:`xnp.tracing.rebound`: its bindings, and the scope of the
    ``grad``/``vmap`` function that made it).
    """

    __slots__ = ("_trace", "view_of", "_annotations", "_scope_note", "__weakref__")
    __array_priority__ = 100

    @property
    def aval(self) -> ShapedArray:  # pragma: no cover
        raise NotImplementedError

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def ndim(self):
        return self.aval.ndim

    @property
    def size(self):
        return self.aval.size

    @property
    def weak_type(self):
        return self.aval.weak_type

    def to_concrete_value(self):
        """The concrete value behind this tracer, or None when it is abstract."""
        return None

    def _origin_message(self) -> str:
        return ""

    def _check_alive(self, use: str = "a later xnp operation", cls: type | None = None):
        """A tracer whose trace has ended raises ``UnexpectedTracerError`` (also ``cls``, the
        error a conversion raises on a live tracer)."""
        if not self._trace.alive:
            raise errors.leaked_tracer_error(self, use, cls)

    def _leak_message(self) -> str:
        return errors.leak_message(self)

    @property
    def _type_name(self) -> str:
        """The tracer's kind as its repr and leak messages name it (``JitTracer``)."""
        return type(self).__name__

    def __len__(self):
        if not self.aval.shape:
            raise TypeError("len() of unsized object (a 0-d traced array)")
        return self.aval.shape[0]

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.aval.shape[0]))

    def __hash__(self):
        raise TypeError(f"unhashable type: '{type(self).__name__}' (traced array {self.aval})")

    def __bool__(self):
        self._check_alive("bool()", errors.TracerBoolConversionError)
        v = self.to_concrete_value()
        if v is None:
            raise errors.TracerBoolConversionError(errors.bool_conversion_message(self))
        return bool(v)

    def _convert_error(self, conversion: str, what: str = ""):
        self._check_alive(f"{conversion}()", errors.ConcretizationTypeError)
        return errors.ConcretizationTypeError(errors.concretization_message(
            self, what, conversion=None if what else conversion))

    def __int__(self):
        self._check_alive("int()", errors.ConcretizationTypeError)
        v = self.to_concrete_value()
        if v is None:
            raise self._convert_error("int")
        return int(v)

    def __float__(self):  # it would drop a concrete jvp tracer's tangent: always raise
        raise self._convert_error("float")

    def __complex__(self):
        raise self._convert_error("complex")

    def __index__(self):
        self._check_alive("__index__() (range(), a list index, operator.index())",
                          errors.TracerIntegerConversionError)
        v = self.to_concrete_value()
        if v is None or not np.issubdtype(self.aval.dtype, np.integer):
            raise errors.TracerIntegerConversionError(errors.index_conversion_message(self))
        return int(v)

    def __array__(self, dtype=None, copy=None):
        self._check_alive("numpy.asarray() (__array__)", errors.TracerArrayConversionError)
        raise errors.TracerArrayConversionError(errors.array_conversion_message(self))

    def item(self, *args):
        self._check_alive("item()", errors.ConcretizationTypeError)
        v = self.to_concrete_value()
        if v is None:
            raise self._convert_error("item", "This occurred in the item() method of xnp.Array")
        return np.asarray(v).item(*args)

    def _method_error(self, method: str):
        self._check_alive(method, errors.ConcretizationTypeError)
        return self._convert_error(method, errors.method_what(self, method))

    def tolist(self):
        raise self._method_error("tolist()")

    def tobytes(self, order="C"):
        raise self._method_error("tobytes()")

    def __dlpack__(self, *args, **kwargs):
        raise self._method_error("__dlpack__()")

    def __dlpack_device__(self):
        raise self._method_error("__dlpack_device__()")

    @property
    def committed(self):
        raise self._method_error("committed")

    def __getattr__(self, name):
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")


# --------------------------------------------------------------------------- eager arrays

_COPY_ON_WRITE = threading.RLock()  # a jit output's first read and write (Array._value)


class Array(_ArrayBase):
    """An eager xnp array: wraps the eager backend's native array (a NumPy ndarray on CPU).

    Eager code has NumPy's semantics, views and in-place updates included. Three slots
    belong to the backend that ran a jitted call; this class only follows their protocol:

    * ``_dev``: None, or the backend's value object holding the array's value off the
      host (for XLA, its device buffer), so the next jitted call needs no transfer. It
      has ``aval`` (shape and dtype, or None) and ``block_until_ready()``. While it is
      set the host value ``_val`` is absent or read-only: read on first use, as
      ``_read(_dev)``, and copied on the first write (copy-on-write), which drops ``_dev``.
    * ``_read``: the backend's reader of ``_dev``'s host value (it raises when the value is
      gone, e.g. donated), set with ``_dev``; unset otherwise (free to make an array).
    * ``_host_memo``: what a backend remembers about the host memory (for XLA, a device
      buffer aliasing it); reset to None whenever the memory is replaced.

    Operators and methods are installed by :mod:`xnp.array`.
    """

    # the slots (``_val`` (``_v``: read unwatched, see tracing/recording.py), ``_dev``,
    # ``_read``, ``_weak``, ``_aval``: the cached aval, which in-place writes never change;
    # ``_host_memo``) and ``__init__(value, weak_type=False, dev=None, aval=None)`` are the
    # base class's; ``_scope_note`` is as Tracer's (unset on arrays never noted)
    __slots__ = ("_scope_note",)
    __array_priority__ = 100
    #: True on the subclasses users derive from ``xnp.ndarray`` (see ``__init_subclass__``)
    _user_subclass = False

    def __init_subclass__(cls, internal: bool = False, **kwargs):  # xnp/ndarray_class.py
        super().__init_subclass__(**kwargs)
        if not internal:
            cls._user_subclass = True
            _subclass_hook(cls)

    def _plain(self) -> "Array":
        """A plain ``Array`` sharing this (user subclass instance's) memory."""
        return Array(self._writable_value(), self._weak)

    @property
    def _value(self):
        v = self._val
        if v is None:
            with _COPY_ON_WRITE:  # not over another thread's copy-on-write
                v = self._val = self._read(self._dev) if self._val is None else self._val
        return v

    def _writable_value(self):
        """The native array, copied first if it is a read-only view of a backend's value (a
        read-only array of another kind, ``broadcast_to``'s view, is returned as it is)."""
        if self._dev is None:  # (read first: another thread's copy sets _val, then _dev)
            return self._value
        with _COPY_ON_WRITE:  # threads writing into one jit output share one copy
            v = self._value
            if self._dev is not None and not v.flags.writeable:
                v = self._val = v.copy()
                self._host_memo = None
            self._dev = None
        return v

    def _meta(self):
        v = self._v
        if v is not None:
            return v
        a = self._aval
        if a is None:
            a = self._dev.aval
        return a if a is not None else self._value

    @property
    def aval(self) -> ShapedArray:
        a = self._aval
        if a is None:
            m = self._meta()
            a = self._aval = ShapedArray(m.shape, m.dtype, self._weak)
        return a

    @property
    def weak_type(self) -> bool:
        return self._weak

    @property
    def shape(self):
        return self._meta().shape

    @property
    def dtype(self):
        return self._meta().dtype

    @property
    def ndim(self):
        return len(self._meta().shape)

    @property
    def size(self):
        m = self._meta()
        return m.size if type(m) is np.ndarray else int(np.prod(m.shape, dtype=np.int64))

    def block_until_ready(self):
        """Wait for a pending device computation behind this array; returns self."""
        dev = self._dev
        if dev is not None:
            dev.block_until_ready()
        return self
