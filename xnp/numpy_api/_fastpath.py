"""Eager fast path: NumPy-style calls on plain eager arrays skip the dispatch layers.

An eager ``a + b`` normally runs ``numpy_api.add`` (conversion, NEP 50 promotion,
broadcasting) -> ``lax.add`` -> ``Primitive.bind`` -> ``EvalTrace`` -> the eager
backend. When no transformation is active and the operands are already in the
form all those layers would pass through unchanged (eager arrays of one dtype (NumPy
broadcasting is xnp's), or an eager array and a small Python scalar whose dtype the array's
dtype wins under NEP 50: :data:`SCALAR_FITS`), the result is the NumPy ufunc the full path
applies, called directly. Which ufunc serves which dtype is not written down anywhere: it
is learnt from the full path itself (:func:`learn`), from the eager dispatch cache's
recording of the first call of the function on arrays of that dtype, when that recording
is the ufunc alone (``FAST_OPS``: ``name -> FastUfunc``, :mod:`xnp.numpy_api._fast_tables`).
So fast == full holds by construction; until a dtype is learnt (the first call of each
function and dtype, and every call while the dispatch cache is off) the call takes the
full path. The fast path is in force while the eager backend computes with NumPy; with
another backend (the eager XLA mode) every call takes the full path.

Anything else -- a tracer, an active ``jit``/``grad``/``vmap`` (omnistaging must
record the operation), mixed dtypes or shapes, keyword arguments, a device buffer
not read to the host yet -- falls through to the full path, so the fast path
never changes a result, a dtype, a weak type or an error message. "Active" means in
the calling thread: every fast path tests ``not busy or state.trace is base``, where
``busy`` is ``core._TRACING_THREADS`` (empty while no thread transforms anything)
and ``state.trace`` the calling thread's current trace.

Besides the ufunc-like ``FAST_OPS``, the ``FAST_CALLS`` table serves NumPy's own view
functions (``reshape``/``transpose``/``.T``) and ``asarray``/``array`` of a NumPy array
through the decorators below; each serves only the argument forms listed in its docstring
(defaults for every other parameter) and falls through to the full path when NumPy
raises, so errors keep xnp's wording. Every other function (reductions, products,
``where``, ``concatenate``, sorts, creation) has no fast path: its repeated calls are
replays of its full path (:mod:`xnp.numpy_api._replay`).
"""

from __future__ import annotations

import functools
import sys
from typing import Callable


import numpy as np

from xnp import config
from xnp.tracing import core
from xnp.numpy_api._fast_tables import FAST_CALLS, FAST_OPS, FastOp
from xnp.numpy_api._util import result_dtype
from xnp.tracing.avals import SUPPORTED_DTYPES, ShapedArray
from xnp.tracing.array_base import FastFunc
from xnp.tracing.core import Array
from xnp.tracing.program import _OUT

__all__ = ["FastOp", "SCALAR_AWARE", "with_full_path", "binary", "unary", "inplace", "refresh",
           "reshape",
           "reshape_method", "transpose", "transpose_property", "transpose_method", "metadata",
           "asarray", "array", "NATIVE_OPERATORS", "install_native_operators"]


_STATE = core._STATE  # per thread: ``_STATE.trace`` is the calling thread's current trace
_EVAL = core._BASE_TRACE  # the base trace: eager evaluation, no transformation active
# the threads not on the base trace: while it is empty no thread transforms anything, and
# ``_STATE.trace`` (a per-thread lookup) need not be read
_TRACING_THREADS = core._TRACING_THREADS
_TABLE: list = [{}]  # FAST_OPS while the eager backend computes with NumPy, else {}
_CALLS: list = [{}]  # FAST_CALLS likewise
_WRAP: list = [None]  # the current eager backend's wrap_native
_NATIVE: list = [None]
_INEXACT_KINDS = frozenset("fc")


def refresh() -> None:
    """Turn the fast path on while the eager backend computes with NumPy
    (``computes_with_numpy``), off otherwise; run by ``xnp._wiring.connect`` and after
    each update of the ``eager_backend`` option (through ``config.watch``).

    The tables are emptied first and set last, so a thread running an eager call
    meanwhile takes the full path instead of pairing one backend's function with the
    other's array type. (Switching ``eager_backend`` while other threads compute is
    still racy for the calls in flight.)
    """
    _TABLE[0] = {}
    _CALLS[0] = {}
    try:
        backend = core.eager_backend()
    except ValueError:  # the option names a backend not imported yet: the full path
        return
    if not getattr(backend, "computes_with_numpy", False):
        return
    _WRAP[0] = backend.wrap_native
    _NATIVE[0] = backend.native_type
    _CALLS[0] = FAST_CALLS
    _TABLE[0] = FAST_OPS


config.watch("eager_backend", lambda name: refresh())  # first run by xnp._wiring.connect


#: which Python scalars keep an array's dtype, by dtype: bit 1 a float, bit 2 an int 0..127,
#: bit 4 an int -128..-1, for a strong array; the same bits shifted left by 3 for a weak one;
#: bit 64 (:data:`_WEAK_PAIR`): two weak arrays of the dtype keep it (NEP 50 promotes two
#: weak float32 arrays to the default float, as two Python floats).
#: A bit is set where the full path's NEP 50 rule (``_util.result_dtype``) keeps the dtype,
#: NumPy's own promotion treats the scalar alike (``numpy.result_type``: not so for a
#: Python float beside ml_dtypes' floats, which NumPy computes in a wider float) and every
#: int of the class converts to the dtype exactly, so that a ufunc given the Python scalar
#: computes what it computes given the full path's conversion of it. Derived by
#: :func:`refresh_fits` for every dtype, and read by the C operators
#: (xnp/_native/array_base.c) as well as by :func:`_scalar_fits`; an int outside the classes
#: takes the full path.
SCALAR_FITS: dict = {}
_FLOAT, _SMALL, _NEGATIVE, _WEAK_SHIFT, _WEAK_PAIR = 1, 2, 4, 3, 64


def _holds(dt, lo: int, hi: int) -> bool:
    """Whether every int in ``lo..hi`` converts to ``dt`` exactly."""
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return info.min <= lo and hi <= info.max
    return dt.kind in _INEXACT_KINDS or dt.kind == "V"  # 8-bit ints: exact in every float


def refresh_fits() -> None:
    """Fill :data:`SCALAR_FITS` under the current options (the default dtypes change
    what a Python scalar promotes to); run at import and after every option update.
    Updated in place: the C operators hold this dict."""
    fits = {}
    for dt in SUPPORTED_DTYPES:
        empty = np.zeros(0, dt)
        mask = 0
        for shift, weak in ((0, False), (_WEAK_SHIFT, True)):
            array = ShapedArray((), dt, weak)
            for bits, scalar in ((_FLOAT, 0.5), (_SMALL | _NEGATIVE, 1)):
                if result_dtype(array, core.aval_of(scalar)) != (dt, weak) or (
                        np.result_type(empty, scalar) != dt):
                    continue
                if bits == _FLOAT:
                    mask |= _FLOAT << shift
                else:
                    mask |= ((_SMALL if _holds(dt, 0, 127) else 0)
                             | (_NEGATIVE if _holds(dt, -128, -1) else 0)) << shift
        weak = ShapedArray((), dt, True)
        if result_dtype(weak, weak) == (dt, True):
            mask |= _WEAK_PAIR
        fits[dt] = mask
    SCALAR_FITS.update(fits)


def _scalar_fits(v, weak: bool, scalar) -> bool:
    """True when ``array(dtype=v.dtype, weak) op scalar`` keeps ``v.dtype`` and weakness
    (:data:`SCALAR_FITS`): a float, or an int of -128..127, that the full path would
    convert to that dtype exactly."""
    t = type(scalar)
    if t is float:
        bit = _FLOAT
    elif t is int and -128 <= scalar < 128:
        bit = _SMALL if scalar >= 0 else _NEGATIVE
    else:
        return False
    return bool(SCALAR_FITS.get(v.dtype, 0) & (bit << (_WEAK_SHIFT if weak else 0)))


#: the call forms (name, dtype, operand order, each operand's weak type and rank or Python
#: type) whose recording was no kernel (:class:`_Learner`): a form whose full path is not
#: one ufunc (an integer division, a float function of integers) is not recorded again
#: for the fast path's sake
_TRIED: set = set()


#: the options (``config.snapshot()``) that :data:`SCALAR_FITS`, the learnt kernels and
#: :data:`_TRIED` hold for; and what they held for other options lately (restored when an
#: ``override`` ends): snapshot -> (fits, {name: (kernels, scalar kernels)}, tried)
_SNAPSHOT: list = [None]
_SAVED: dict = {}
_MAX_SAVED = 8


def _clear() -> None:
    _TRIED.clear()
    for op in FAST_OPS.values():
        if op.kernels or op.scalar_kernels:
            op.kernels.clear()
            op.scalar_kernels.clear()


def _options_changed(_value=None) -> None:
    """After an option update that changes ``config.snapshot()``: keep what was learnt
    under the old options, and take what was learnt under the new ones before (or nothing:
    a recording may depend on the options), with :data:`SCALAR_FITS` for them. The dicts
    are updated in place: the C operators hold them."""
    new, old = config.snapshot(), _SNAPSHOT[0]
    if new == old:
        return
    if old is not None:
        if len(_SAVED) >= _MAX_SAVED:
            _SAVED.clear()
        _SAVED[old] = (dict(SCALAR_FITS), {
            name: ({d: k for d, k in op.kernels.items() if type(k) is np.ufunc},
                   {d: k for d, k in op.scalar_kernels.items() if type(k) is np.ufunc})
            for name, op in FAST_OPS.items() if op.kernels or op.scalar_kernels}, set(_TRIED))
    saved = _SAVED.pop(new, None)
    _clear()
    if saved is None:
        refresh_fits()
    else:
        fits, kernels, tried = saved
        SCALAR_FITS.update(fits)
        for name, (k, sk) in kernels.items():
            op = FAST_OPS.get(name)
            if op is not None:
                op.kernels.update(k)
                op.scalar_kernels.update(sk)
        _TRIED.update(tried)
    _SNAPSHOT[0] = new


def forget() -> None:
    """Forget every learnt kernel, under every options (tests; the next call of each
    function and dtype is recorded again)."""
    _SAVED.clear()
    _clear()
    refresh_fits()
    _SNAPSHOT[0] = config.snapshot()


_options_changed()
for _name, _ in config.snapshot():  # the options that change what a call computes
    config.watch(_name, _options_changed)


#: ``Array``'s operators with a fast path: name -> (``FAST_OPS`` name, swap), ``swap``
#: for a reflected operator (``__radd__(self, o)`` is ``add(o, self)``)
OPERATOR_OPS = {
    "__add__": ("add", False), "__radd__": ("add", True),
    "__sub__": ("subtract", False), "__rsub__": ("subtract", True),
    "__mul__": ("multiply", False), "__rmul__": ("multiply", True),
    "__truediv__": ("true_divide", False), "__rtruediv__": ("true_divide", True),
    "__and__": ("bitwise_and", False), "__rand__": ("bitwise_and", True),
    "__or__": ("bitwise_or", False), "__ror__": ("bitwise_or", True),
    "__xor__": ("bitwise_xor", False), "__rxor__": ("bitwise_xor", True),
    "__eq__": ("equal", False), "__ne__": ("not_equal", False),
    "__lt__": ("less", False), "__le__": ("less_equal", False),
    "__gt__": ("greater", False), "__ge__": ("greater_equal", False),
    "__neg__": ("negative", False), "__abs__": ("absolute", False),
}


class _Learner:
    """The ``learn`` hook (:func:`xnp.numpy_api._replay.cached`) of one fast path's full
    path: calling it learns from a program (:func:`learn`); :meth:`wants` tells the cache
    that a call would teach a kernel not learnt yet, so that it records it even while it
    skips recordings, is full or would replay a generic scalar program."""

    __slots__ = ("name", "op", "order", "inplace")

    def __init__(self, name: str, op, order: tuple, inplace: bool = False):
        self.name, self.op, self.order, self.inplace = name, op, order, inplace

    def _form(self, args, kwargs=None):
        """``(kernels dict, dtype, form key)`` of a call in the fast path's form (distinct
        eager arrays with host values, or one and Python floats and ints; no keyword but
        an eager array as ``out=``), else None."""
        op = self.op
        if len(args) != op.arity or _TABLE[0] is not FAST_OPS:
            return None
        out = None
        if kwargs:
            out = kwargs.get("out")
            out = out[0] if type(out) is tuple and len(out) == 1 else out
            if len(kwargs) != 1 or type(out) is not Array or out._v is None:
                return None
        arrays = [a for a in args if type(a) is Array]
        if not arrays or len(arrays) + sum(type(a) in (float, int) for a in args) != len(args):
            return None
        if any(a._v is None for a in arrays) or (len(arrays) == 2 and arrays[0] is arrays[1]):
            return None
        # (the ranks too: operands of different ranks are broadcast by a reshape first)
        kinds = tuple((a._weak, a._v.ndim) if type(a) is Array else type(a) for a in args)
        if out is not None:
            kinds += ("out", out._v.dtype)
        dtype = arrays[0]._v.dtype
        kernels = op.kernels if len(arrays) == op.arity else op.scalar_kernels
        return kernels, dtype, (self.name, dtype, self.order, self.inplace, kinds)

    def __call__(self, args, kwargs, leaves, program) -> None:
        learn(self.op, self.order, args, kwargs, leaves, program, self.inplace)
        self.mark(args, kwargs)

    def mark(self, args, kwargs=None) -> None:
        """Note the form of the call ``args``/``kwargs`` as recorded (:data:`_TRIED`)
        unless it taught a kernel."""
        form = self._form(args, kwargs)
        if form is not None and form[1] not in form[0]:
            _TRIED.add(form[2])  # (this form's full path is not one ufunc)

    def wants(self, args, kwargs=None) -> bool:
        """Whether the call is in the fast path's form for a dtype with no kernel yet,
        and no recording of that form has shown it is no kernel (:data:`_TRIED`)."""
        form = self._form(args, kwargs)
        return form is not None and form[1] not in form[0] and form[2] not in _TRIED


def learner(name: str, swap: bool = False, inplace: bool = False) -> "_Learner | None":
    """The ``learn`` hook of the full path of ``FAST_OPS[name]`` (``swap``: of a
    reflected operator, whose arguments ``(self, o)`` are the operands ``(o, self)``;
    ``inplace``: of an in-place operator, which writes into ``self``), or None when
    ``name`` has no fast path."""
    op = FAST_OPS.get(name)
    if op is None:
        return None
    order = tuple(range(op.arity))
    return _Learner(name, op, order[::-1] if swap else order, inplace)


#: ``Array``'s in-place operators with a fast path: name -> ``FAST_OPS`` name
INPLACE_OPS = {"__iadd__": "add", "__isub__": "subtract", "__imul__": "multiply",
               "__itruediv__": "true_divide", "__iand__": "bitwise_and",
               "__ior__": "bitwise_or", "__ixor__": "bitwise_xor"}


def inplace(name: str) -> Callable:
    """Decorator: the in-place operator ``slow`` (``Array.__iadd__``...) gets the fast
    path of ``FAST_OPS[name]`` writing into ``self`` (``a += b`` is NumPy's
    ``add(a, b, out=a)``; ``fast_out`` in xnp/_native/array_base.c). Without the C module
    nothing is served (no kernel is learnt then either)."""
    return functools.partial(_inplace, name)


def _inplace(name: str, slow: Callable) -> Callable:
    if FastFunc is None:
        return slow
    return _served(functools.partial(_inplace, name), slow,
                   FastFunc(name, 2, False, slow, kind="inplace"))


def learn(op, order: tuple, args: tuple, kwargs: dict, leaves: list, program,
          inplace: bool = False) -> None:
    """Learn ``op``'s kernel for a dtype from ``program``, the recording of its full path
    on ``args`` (``order``: the operands' positions among them).

    The call must be the fast path's form: distinct eager arrays with host values of one
    dtype, or (``scalar_kernels``) one such array and a Python float or int, which the
    program makes as a 0-d constant of that dtype; no keyword but ``out=``, an eager array
    of that dtype (not for a comparison). The program must be exactly one NumPy ufunc
    applied to the operands in order, giving one new array whose weak type is the fast
    path's (every array operand weak, and not a comparison), or writing into ``out`` as
    the ufunc's own ``out`` (``inplace``: into the first operand, ``a += b``). That ufunc
    then computes the function for that dtype as the full path does, for any shapes NumPy
    broadcasts (``_fast_tables`` docstring). Only while the fast path is on (the NumPy
    eager backend)."""
    out = out_slot = None
    if inplace:
        if kwargs or op.bool_out or type(args[0]) is not Array:
            return
        out, out_slot = args[0], 0
    elif kwargs:
        out = kwargs.get("out")
        if len(kwargs) != 1 or op.bool_out:
            return
        if type(out) is tuple and len(out) == 1:
            out = out[0]
        if type(out) is not Array or out._v is None:
            return
        out_slot = len(leaves) - 1
    if len(args) != op.arity or _TABLE[0] is not FAST_OPS:
        return
    eqns = program.eqns
    if not eqns or len(eqns) > op.arity:
        return
    kernel, params, ops, multiple = eqns[-1]
    if out is None:
        if program.single is None or program.writes or multiple:
            return
    elif multiple != _OUT or tuple(program.writes) != (out_slot,):
        return
    if params is not None or type(kernel) is not np.ufunc:
        return
    arrays = [a for a in args if type(a) is Array]
    given = arrays + [out] if out is not None and not inplace else arrays
    if len(leaves) != len(given) or not all(x is y for x, y in zip(given, leaves)):
        return
    dtype = arrays[0]._v.dtype if arrays and arrays[0]._v is not None else None
    constants = eqns[:-1]  # slots len(leaves), ...: the Python scalars, converted
    expected, leaf, const = [], 0, len(leaves)
    for pos in order:
        a = args[pos]
        if type(a) is Array:
            if a._v is None or a._v.dtype != dtype:
                return
            expected.append(leaf)
            leaf += 1
        elif type(a) in (float, int) and const - len(leaves) < len(constants):
            make, cparams, cops, _ = constants[const - len(leaves)]
            value = getattr(make, "__self__", None)
            if cparams is not None or cops or not isinstance(value, np.ndarray) or (
                    value.shape != () or value.dtype != dtype):
                return
            expected.append(const)
            const += 1
        else:
            return
    if out is not None:
        if out._v.dtype != dtype:
            return
        expected.append(out_slot)
    elif program.single[1] != (all(a._weak for a in arrays) and not op.bool_out):
        return
    if dtype is None or tuple(ops) != tuple(expected) or const - len(leaves) != len(constants):
        return
    (op.kernels if len(arrays) == op.arity else op.scalar_kernels)[dtype] = kernel


def _wrap(out, weak: bool) -> Array:
    return Array(out if type(out) is _NATIVE[0] else _WRAP[0](out), weak)


def _served(decorator: Callable, slow: Callable, fast: Callable) -> Callable:
    """``fast`` dressed as ``slow`` (``__wrapped__`` is ``slow``), remembering the
    ``decorator`` that made it so that :func:`with_full_path` can rebuild it."""
    fast = functools.wraps(slow)(fast)
    fast._fast_decorator = decorator
    return fast


def with_full_path(fn: Callable, wrapper: Callable) -> Callable:
    """``fn`` with its full path wrapped by ``wrapper`` (a function of the full-path
    function returning its replacement) and its fast path, if it has one, unchanged: the
    decorator that served ``fn`` is applied again around the wrapped full path, so the
    calls the fast path serves cost what they cost before."""
    decorator = getattr(fn, "_fast_decorator", None)
    if decorator is None:
        return wrapper(fn)
    return decorator(wrapper(fn.__wrapped__))


def binary(name: str, *, swap: bool = False) -> Callable:
    """Decorator: a NumPy-style binary function (or operator method) ``slow`` gets the
    fast path of ``FAST_OPS[name]``.

    ``swap`` serves reflected operators: ``__radd__(self, o)`` computes ``add(o, self)``.
    """
    return functools.partial(_binary, name, swap)


def _binary(name: str, swap: bool, slow: Callable, *, scalars: bool = False) -> Callable:
    # ``scalars``: a NumPy scalar result (0-d operands) is returned as it is, as NumPy's
    # function returns it (xnp's public functions, numpy_api._scalars), not as an Array
    decorator = functools.partial(_binary, name, swap, scalars=scalars)
    if FastFunc is not None:  # the rule below in C (xnp/_native/array_base.c)
        return _served(decorator, slow, FastFunc(name, 2, swap, slow, scalars))
    state, table, native, array, fits, base = _STATE, _TABLE, _NATIVE, Array, _scalar_fits, _EVAL
    busy = _TRACING_THREADS

    def fast(x1, x2, *args, **kwargs):
        # one flat body: this runs on every eager operator, so no helper calls
        if (not busy or state.trace is base) and not args and not kwargs:
            op = table[0].get(name)
            if op is not None:
                a, b = (x2, x1) if swap else (x1, x2)
                kernels, scalar_kernels, bool_out = op[0], op[1], op[2]
                ta, tb = type(a), type(b)
                va = vb = fn = None
                if ta is array:
                    va = a._v
                    if va is not None:
                        fn = (kernels if tb is array else scalar_kernels).get(va.dtype)
                    if fn is not None:
                        if tb is array:
                            vb = b._v
                            if vb is not None and vb.dtype is not va.dtype and (
                                    vb.dtype != va.dtype):
                                vb = None
                            weak = a._weak and b._weak
                            if weak and not SCALAR_FITS.get(va.dtype, 0) & _WEAK_PAIR:
                                vb = None
                        elif fits(va, a._weak, b):
                            vb, weak = b, a._weak
                elif tb is array:
                    vb = b._v
                    if vb is not None:
                        fn = scalar_kernels.get(vb.dtype)
                    if fn is not None and fits(vb, b._weak, a):
                        va, weak = a, b._weak
                    else:
                        vb = None
                if va is not None and vb is not None:
                    try:
                        out = fn(va, vb)
                    except ValueError:  # shapes do not broadcast: the full path words it
                        return slow(x1, x2)
                    if type(out) is not native[0] and scalars:
                        return out
                    return array(out if type(out) is native[0] else _WRAP[0](out),
                                 weak and not bool_out)
        return slow(x1, x2, *args, **kwargs)

    return _served(decorator, slow, fast)


def unary(name: str) -> Callable:
    """Decorator: a NumPy-style unary function (or operator method) ``slow`` gets the
    fast path of ``FAST_OPS[name]``."""
    return functools.partial(_unary, name)


def _unary(name: str, slow: Callable, *, scalars: bool = False) -> Callable:
    decorator = functools.partial(_unary, name, scalars=scalars)  # scalars: as _binary's
    if FastFunc is not None:  # the rule below in C (xnp/_native/array_base.c)
        return _served(decorator, slow, FastFunc(name, 1, False, slow, scalars))
    state, table, native, array, busy = _STATE, _TABLE, _NATIVE, Array, _TRACING_THREADS

    def fast(x, *args, **kwargs):
        if (not busy or state.trace is _EVAL) and not args and not kwargs and type(x) is array:
            op = table[0].get(name)
            v = x._v
            fn = None if op is None or v is None else op[0].get(v.dtype)
            if fn is not None:
                out = fn(v)
                if type(out) is not native[0] and scalars:
                    return out
                return array(out if type(out) is native[0] else _WRAP[0](out),
                             x._weak and not op[2])
        return slow(x, *args, **kwargs)

    return _served(decorator, slow, fast)


#: the fast-path makers that take ``scalars=`` (numpy_api._scalars rebuilds with it)
SCALAR_AWARE = (_binary, _unary)


# the operators whose fast path the C storage class can serve (xnp/_native/array_base.c)
NATIVE_OPERATORS = ("__add__", "__sub__", "__mul__", "__truediv__", "__and__", "__or__",
                    "__xor__")


def install_native_operators(cls, names: dict) -> bool:
    """Serve ``cls``'s binary operators in :data:`NATIVE_OPERATORS` by the number slots of
    the C storage class, with :func:`binary`'s rule and no Python frame; ``names`` maps
    each operator to its ``FAST_OPS`` name. Each operator's current method (and its
    reflected one) must be a :func:`binary` fast path: its full path (``__wrapped__``)
    becomes the C slot's fallback, and the method is removed from ``cls`` so the slot
    inherited from the base class is the one Python calls. False, and nothing changed,
    when the C module is not built (the Python fast paths stay)."""
    base = cls.__mro__[1]
    configure = getattr(sys.modules.get(base.__module__), "configure_operators", None)
    if configure is None:
        return False
    ops = {}
    for name in NATIVE_OPERATORS:
        rname = "__r" + name[2:]
        fwd, rev = cls.__dict__[name], cls.__dict__[rname]
        if not (hasattr(fwd, "_fast_decorator") and hasattr(rev, "_fast_decorator")):
            raise TypeError(f"install_native_operators: {cls.__name__}.{name} is not a "
                            "binary fast path")
        ops[name] = (names[name], fwd.__wrapped__, rev.__wrapped__)
    configure(cls, _TRACING_THREADS, _STATE, _EVAL, _TABLE, _NATIVE, _WRAP, ops, SCALAR_FITS)
    sys.modules[base.__module__].configure_calls(_CALLS)  # the view fast paths' table
    for name in NATIVE_OPERATORS:
        delattr(cls, name)
        delattr(cls, "__r" + name[2:])
    return True


# --------------------------------------------------------------------------- fast_calls
# Every decorator below serves one NumPy-style function from ``FAST_CALLS``
# table (``name -> FastOp(fn, dtypes)``). It runs ``fn`` on the host values only when no
# transformation is active, every array argument is an eager ``Array`` whose host value is
# there, its dtype is in ``dtypes`` and every other argument has its default; anything else,
# and any exception from ``fn``, goes to the full path (which raises xnp's own message).


def _int_tuple(t) -> bool:
    for i in t:
        if type(i) is not int:
            return False
    return True


def _view_value(a, name):
    """The host value of an eager ``a`` a view may be taken of (not a jit output's
    read-only buffer view, which the full path copies first), or None."""
    if (not _TRACING_THREADS or _STATE.trace is _EVAL) and type(a) is Array and a._dev is None:
        op = _CALLS[0].get(name)
        v = a._v
        if op is not None and v is not None and v.dtype in op[1]:
            return op[0], v
    return None


def _native_view(decorator: Callable, name: str, slow: Callable, arity: int):
    """The C fast path of a view function (``FastFunc(..., kind="view")``: the rule of the
    Python fast paths below, for ints and tuples of ints only) served for at most
    ``arity`` positional arguments (0: any number, a method's ``*shape``), or None where
    the C module is not built."""
    if FastFunc is None:
        return None
    return _served(decorator, slow, FastFunc(name, arity, False, slow, kind="view"))


def reshape(slow: Callable) -> Callable:
    """``reshape(a, shape, order="C", *, copy=None)`` served by ``FAST_CALLS["reshape"].fn``
    (NumPy's reshape: a view when NumPy gives one, as the full path) for an int or a
    tuple of ints ``shape``."""
    native = _native_view(reshape, "reshape", slow, 2)
    if native is not None:
        return native

    def fast(a, /, shape, order="C", *, copy=None):
        if copy is None and type(order) is str and order == "C" and (
                type(shape) is int or (type(shape) is tuple and _int_tuple(shape))):
            fv = _view_value(a, "reshape")
            if fv is not None:
                try:
                    out = fv[0](fv[1], shape)
                except ValueError:
                    return slow(a, shape, order, copy=copy)
                return Array(out, a._weak)
        return slow(a, shape, order, copy=copy)

    return _served(reshape, slow, fast)


def transpose(slow: Callable) -> Callable:
    """``transpose(a, axes=None)`` served by ``FAST_CALLS["transpose"].fn`` (NumPy's
    transpose, a view) for ``axes`` None or a tuple/list of ints (in C: omitted or a tuple
    of ints)."""
    native = _native_view(transpose, "transpose", slow, 2)
    if native is not None:
        return native

    def fast(a, axes=None):
        if axes is None or (type(axes) in (tuple, list) and _int_tuple(axes)):
            fv = _view_value(a, "transpose")
            if fv is not None:
                try:
                    out = fv[0](fv[1], axes)
                except (ValueError, TypeError):  # numpy.exceptions.AxisError included
                    return slow(a, axes)
                return Array(out, a._weak)
        return slow(a, axes)

    return _served(transpose, slow, fast)


def transpose_property(slow: Callable) -> Callable:
    """The ``Array.T`` getter with the fast path of :func:`transpose`."""
    native = _native_view(transpose_property, "transpose", slow, 1)
    if native is not None:
        return native
    calls, state, array, busy = _CALLS, _STATE, Array, _TRACING_THREADS

    def fast(self):
        if (not busy or state.trace is _EVAL) and type(self) is array and self._dev is None:
            op = calls[0].get("transpose")
            v = self._v
            if op is not None and v is not None and v.dtype in op[1]:
                return array(op[0](v, None), self._weak)
        return slow(self)

    return _served(transpose_property, slow, fast)


def transpose_method(slow: Callable) -> Callable:
    """``Array.transpose(*axes)`` with the C fast path of :func:`transpose` (ints, or one
    tuple of ints), or ``slow`` where the C module is not built."""
    native = _native_view(transpose_method, "transpose", slow, 0)
    return slow if native is None else native


def reshape_method(slow: Callable) -> Callable:
    """``Array.reshape(*shape, order="C")`` with the fast path of :func:`reshape` for
    ints or one tuple of ints."""
    native = _native_view(reshape_method, "reshape", slow, 0)
    if native is not None:
        return native
    calls, state, array, busy = _CALLS, _STATE, Array, _TRACING_THREADS

    def fast(self, *shape, order="C", copy=None):
        if ((not busy or state.trace is _EVAL) and type(self) is array and self._dev is None
                and type(order) is str and order == "C" and copy is None):
            op = calls[0].get("reshape")
            v = self._v
            if op is not None and v is not None and v.dtype in op[1]:
                if len(shape) == 1 and type(shape[0]) is tuple:
                    shape = shape[0]
                if _int_tuple(shape):
                    try:
                        return array(op[0](v, shape), self._weak)
                    except ValueError:
                        pass
        return slow(self, *shape, order=order, copy=copy)

    return _served(reshape_method, slow, fast)


def metadata(name: str, slow: Callable) -> Callable:
    """``Array``'s ``shape``/``dtype``/``ndim``/``size`` getter (``name``) or ``__len__``
    (``"__len__"``) read from the host value in C (``FastFunc(..., kind="meta")``), else
    ``slow`` (which reads the same: a jit output's aval, or its value); ``slow`` itself
    where the C module is not built."""
    if FastFunc is None:
        return slow
    return _served(functools.partial(metadata, name), slow,
                   FastFunc(name, 1, False, slow, kind="meta"))


def asarray(slow: Callable) -> Callable:
    """``asarray(a)`` (no other argument) served for an eager ``Array`` (returned as is, as
    the full path does) and a NumPy array of a served dtype (shared, not copied). Python
    data takes the full path, whose repeated calls are replays (``_replay``)."""

    def fast(a, dtype=None, order=None, *, device=None, copy=None, like=None):
        if (dtype is None and order is None and device is None and copy is None
                and like is None):
            t = type(a)
            if t is Array or t is _NATIVE[0]:
                op = _CALLS[0].get("asarray")
                if (not _TRACING_THREADS or _STATE.trace is _EVAL) and op is not None:
                    if t is Array:
                        return a
                    if a.dtype in op[1]:
                        return Array(a, False)  # shared, as numpy.asarray (and the full path)
        return slow(a, dtype, order, device=device, copy=copy, like=like)

    if FastFunc is not None:  # its one-argument ndarray and Array cases in C (the same rule;
        # any other call is the full path's, whose repeats are replays)
        return _served(asarray, slow, FastFunc("asarray", 1, False, slow, kind="asarray"))
    return _served(asarray, slow, fast)


def array(slow: Callable) -> Callable:
    """``array(object)`` (no other argument) served for a NumPy array of a served dtype:
    ``FAST_CALLS["array"].fn(obj, True)``, a copy in its memory order (NumPy arrays have no
    dispatch-cache signature). Python data takes the full path, replayed."""

    def fast(object, dtype=None, *args, **kwargs):  # noqa: A002  (NumPy's parameter name)
        if (dtype is None and not args and not kwargs and type(object) is _NATIVE[0]
                and (not _TRACING_THREADS or _STATE.trace is _EVAL)):
            op = _CALLS[0].get("array")
            if op is not None and object.dtype in op[1]:
                return Array(op[0](object, True), False)
        return slow(object, dtype, *args, **kwargs)

    return _served(array, slow, fast)
