"""NumPy's scalar rule at xnp's public boundary: where NumPy returns a NumPy scalar, so
does xnp, eagerly.

NumPy's functions and ufuncs return a NumPy scalar (``np.float64``, ``np.int64``,
``np.bool``, ...) instead of a 0-d array when their result is 0-d: a full reduction
(``np.sum(a)``, ``a.mean()``), a ufunc of scalars or 0-d arrays (``np.add(1, 2)``,
``np.sqrt(a.sum())``), a product of vectors (``np.dot(v, v)``), an element
(``a[0]``, ``a[i, j]``, iteration over a 1-d array), a scalar-type call
(``np.float64(1.5)``). A few functions return a 0-d array instead (creation and shape
functions: ``asarray``, ``zeros(())``, ``reshape``, ``where``, ``squeeze``, ...), listed in
:data:`ARRAY_RESULTS` from NumPy's own behaviour.

xnp applies the same rule to the public functions of its namespace, ``xnp.linalg`` and
``xnp.special`` (:func:`install`), the reducing methods of ``Array`` and indexing: an
eager 0-d result becomes the NumPy scalar of its value and dtype. Everything else keeps
arrays:

* xnp's own code calls the unwrapped functions, so values stay xnp arrays inside it;
* tracers are never converted: under ``jit``/``grad``/``vmap`` a traced result stays a
  tracer, so staging is unchanged;
* the arithmetic operators of 0-d xnp arrays return 0-d xnp arrays (``xnp.zeros(()) + 1``
  is an ``Array``; NumPy's would be ``np.float64``), so state kept in a 0-d array stays
  an xnp array (also under ``jit``); NumPy scalars do their own arithmetic, and mix with
  xnp arrays through NumPy's dispatch protocols into xnp arrays;
* an explicit ``out=`` argument is returned as it is;
* the ``xnp.array_api`` namespace converts NumPy scalars back to 0-d arrays (the Array API
  has no scalars).

A Python-scalar-only call such as ``xnp.add(1, 2)`` is therefore ``np.int64(3)``, a
strong int64, eagerly (NumPy's); inside ``jit`` the same call is staged as a weak-typed
value, so ``xnp.add(1, 2) * int8_array`` is int64 eagerly and int8 under ``jit``.
"""

from __future__ import annotations

import functools

import numpy as np

from xnp.numpy_api import _fastpath
from xnp.tracing import core
from xnp.tracing.core import Array
from xnp.tracing.host_arrays import HostArray

try:  # the eager dispatch cache's C hit path (xnp/_native/replay.c)
    from xnp._native._replay import Replay as _Replay
except ImportError:  # pragma: no cover  (built without the extension)
    _Replay = None

__all__ = ["ARRAY_RESULTS", "NEVER_ZERO_D", "scalar_result", "scalar_function", "scalar_index",
           "install", "install_methods", "SCALAR_METHODS"]

#: NumPy functions whose 0-d results are 0-d arrays, not scalars (NumPy 2's behaviour on
#: 0-d inputs); every other public function's 0-d result is a scalar
ARRAY_RESULTS = frozenset("""
    array asanyarray asarray asarray_chkfinite ascontiguousarray asfortranarray astype
    block copy cov cross empty empty_like from_dlpack frombuffer full full_like i0 imag isin
    ones ones_like real real_if_close require roll squeeze transpose permute_dims
    trim_zeros zeros zeros_like where select piecewise broadcast_to broadcast_arrays
    reshape expand_dims moveaxis swapaxes rollaxis matrix_transpose tensordot
    atleast_1d atleast_2d atleast_3d copyto place put putmask fill_diagonal
    load loadtxt genfromtxt fromfile fromstring fromiter fromregex fromfunction
    apply_along_axis apply_over_axes
""".split())

#: public functions whose result is never 0-d (or never an array): they keep no wrapper
#: frame (the hot ones among the functions NumPy's rule cannot concern)
NEVER_ZERO_D = frozenset("""
    sort argsort concatenate concat stack hstack vstack dstack column_stack arange
    logspace geomspace eye identity tri tril triu meshgrid split array_split hsplit vsplit
    dsplit nonzero argwhere flatnonzero unique unique_all unique_counts unique_inverse
    unique_values cumsum cumprod nancumsum nancumprod cumulative_sum cumulative_prod diff
    ravel flatten shape ndim size result_type can_cast promote_types isdtype issubdtype
    broadcast_shapes save savez savez_compressed savetxt
""".split())

#: of ARRAY_RESULTS, those that give NumPy's own result for a scalar argument (NumPy calls
#: the scalar's attribute or method: np.real(2.5) is the float 2.5, np.squeeze(np.float32(2))
#: the np.float32): eagerly the same NumPy function on it
SCALAR_KEEPING = frozenset("real imag squeeze transpose permute_dims reshape".split())

#: the ``Array`` methods that reduce (or may give a 0-d result) as NumPy's methods do;
#: ``@`` of two vectors is one (matmul takes no 0-d operand, so no 0-d array's state
#: is concerned)
SCALAR_METHODS = ("sum", "prod", "mean", "max", "min", "all", "any", "dot", "argmax",
                  "argmin", "clip", "var", "std", "round", "take", "trace", "searchsorted",
                  "ptp", "conj", "conjugate", "choose", "__matmul__", "__rmatmul__")

_REBOUND_ON, _RESOLVE = core._REBOUND_ON, core._RESOLVE


def scalar_result(out):
    """``out`` with NumPy's scalar rule applied: an eager 0-d ``Array`` (exactly that
    class, not a user subclass, nor an array standing for a traced value) becomes the
    NumPy scalar of its value (a ``HostArray`` of a dtype XLA lacks too); a tuple (or named
    tuple) elementwise; anything else as is."""
    t = type(out)
    if t is Array or t is HostArray:
        if out.ndim != 0 or (_REBOUND_ON[0] and _RESOLVE[0](out) is not out):
            return out
        return out._value[()]
    if t is tuple:
        return tuple([scalar_result(o) for o in out])
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return t(*[scalar_result(o) for o in out])
    return out


def _kept(args, kwargs, out) -> bool:
    """Whether a 0-d ``out`` is returned as it is: it is one of the call's own arguments
    (an ``out=`` array, given by keyword or position, alone or in the ``out`` tuple, or an
    input returned unchanged), or an argument is an instance of a user subclass of
    ``xnp.ndarray``, whose ``__array_wrap__`` decides (NumPy's subclass protocol,
    ``xnp/ndarray_class.py``)."""
    for a in (*args, *kwargs.values()):
        if a is out or (isinstance(a, Array) and a._user_subclass):
            return True
        if type(a) is tuple and any(o is out for o in a):
            return True
    return False


def _with_rule(fn):
    at = getattr(fn, "_keepdims_position", None)
    if at is not None:  # NumPy's median and quantiles: a 0-d array where keepdims keeps a
        # 0-d input's dimensions, or where fn._zero_d_array(kwargs, out) says NumPy gives
        # one (a replay never gives that result: see statistics.py)
        array_result = getattr(fn, "_zero_d_array", None)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            out = fn(*args, **kwargs)
            if kwargs["keepdims"] if "keepdims" in kwargs else len(args) > at and args[at]:
                return out
            if array_result is not None and array_result(kwargs, out):
                return out
            return _apply_rule(args, kwargs, out)

        call.__dict__.pop("_fast_decorator", None)
        return call

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return _apply_rule(args, kwargs, fn(*args, **kwargs))

    call.__dict__.pop("_fast_decorator", None)
    return call


def _apply_rule(args, kwargs, out):
    """The rule on ``out``, the result of a call with ``args`` and ``kwargs``."""
    if type(out) is Array:
        v = out._v  # (a host value's ndim without the property's frames)
        if (v.ndim if v is not None else out.ndim) != 0 or _kept(args, kwargs, out):
            return out
    if type(out) is tuple:  # several outputs (divmod, modf, frexp): each by the rule
        return tuple([o if type(o) is Array and o.ndim == 0 and _kept(args, kwargs, o)
                      else scalar_result(o) for o in out])
    return scalar_result(out)


def _full_path(fn):
    """``fn`` with the rule applied to its results; its ``__wrapped__`` (the full path
    behind a fast path) gets the rule too, so the two still agree."""
    call = _with_rule(fn)
    call._scalar_rule_of = fn  # the function it applies the rule to (its fast path, if any)
    inner = getattr(fn, "__wrapped__", None)
    if inner is not None:
        call.__wrapped__ = _with_rule(inner)
    return call


def scalar_function(fn):
    """``fn`` (a public NumPy-style function) returning NumPy scalars for its eager 0-d
    results. A fast path that can return NumPy's scalar result itself (the C ``FastFunc``
    of the ufunc-like functions, the reductions' and products') is rebuilt so, adding no
    frame, and so is the C hit path of the dispatch cache (:func:`_replayed_with_rule`);
    any other function gets one."""
    if getattr(fn, "_python_bool", False):
        return _python_bool(fn)
    if _Replay is not None and type(fn) is _Replay:
        return _replayed_with_rule(fn)
    decorator = getattr(fn, "_fast_decorator", None)
    variant = getattr(decorator, "scalar_variant", None)
    if isinstance(decorator, functools.partial) and decorator.func in _fastpath.SCALAR_AWARE:
        variant = functools.partial(functools.partial, decorator.func, *decorator.args,
                                    **{**decorator.keywords, "scalars": True})
    if variant is None:
        return _full_path(fn)
    inner = fn.__wrapped__  # the full path behind the fast path: with the rule, and
    full = (_replayed_with_rule(inner, True) if _Replay is not None and type(inner) is _Replay
            else _with_rule(inner))  # (a Replay applies it in C)
    new = variant()(full)  # its __wrapped__: this full path
    new._scalar_rule_of = fn  # the function before the rule (subclasses wrap its results)
    return new


def _as_bool(out):
    """A Python bool for an eager 0-d result, anything else (a tracer) as it is."""
    return bool(out) if type(out) is Array else out


def _bool_of(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return _as_bool(fn(*args, **kwargs))

    return call


def _python_bool(fn):
    """``fn`` (marked by ``_util.returns_python_bool``) returning ``bool(result)`` for an eager
    result. A cached function (a C ``Replay``) is rebuilt with the rule ``bool``, applied
    by its replays in C (xnp/_native/replay.c), sharing ``fn``'s cache; its other calls,
    and any other ``fn``, through :func:`_bool_of`."""
    if _Replay is None or type(fn) is not _Replay:
        return _bool_of(fn)
    new = _Replay(_bool_of(fn._replay_slow), _bool_of(fn._replay_full), fn._replay_cache,
                  fn._replay_refused, fn._replay_ctx, bool, generic=fn._replay_generic)
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = _bool_of(fn.__wrapped__)
    return new


def _replayed_with_rule(fn, behind_fast_path: bool = False):
    """The cached function ``fn`` (a C ``Replay``) with the rule: its replays apply it
    themselves (a new 0-d array becomes its NumPy scalar in C, any other result goes
    through :func:`_apply_rule`), its other calls through :func:`_with_rule`. It shares
    ``fn``'s cache. Its ``__wrapped__`` is what :func:`_with_rule` (``fn``, when it is the
    full path behind a fast path) or :func:`_full_path` (its full path with the rule) would
    give."""
    new = _Replay(_with_rule(fn._replay_slow), _with_rule(fn._replay_full), fn._replay_cache,
                  fn._replay_refused, fn._replay_ctx, _apply_rule, generic=fn._replay_generic)
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn if behind_fast_path else _with_rule(fn.__wrapped__)
    new._scalar_rule_of = fn  # the function before the rule (subclasses wrap its results)
    return new


_PY_NUMBERS = (bool, int, float, complex)


def _keeping_scalars(fn, np_fn):
    """``fn``, but NumPy's ``np_fn`` on a Python or NumPy scalar first argument eagerly."""

    @functools.wraps(fn)
    def call(x, *args, **kwargs):
        if (type(x) in _PY_NUMBERS or isinstance(x, np.generic)) and (
                not _TRACING[0] or core.is_eager(core._STATE.trace)):
            return np_fn(x, *args, **kwargs)
        return fn(x, *args, **kwargs)

    call._scalar_rule = True
    call._scalar_rule_of = fn
    return call


_TRACING = [core._TRACING_THREADS]


def _named(new, fn, module: str, name: str):
    new.__module__ = module
    if getattr(fn, "__qualname__", name) != name:
        new.__qualname__ = name  # reached under this name (an alias): pickle finds it here
    return new


def install(namespace: dict, names, reference=None, *,
            skip=ARRAY_RESULTS | NEVER_ZERO_D) -> None:
    """Replace each public function of ``names`` in ``namespace`` (a module's globals)
    that ``reference`` (the NumPy module it stands for; None: every name) also has, but
    those in ``skip``, by its :func:`scalar_function`; an ``xnp.ufunc``'s call and its
    ``reduce``/``outer`` likewise (once per object, aliases share it). Classes, NumPy's
    own objects, non-callables and xnp's own names (``jit``, ``grad``, ...) are left
    alone."""
    from xnp.numpy_api.ufunc import ufunc  # noqa: PLC0415  (the ufunc module imports this one)

    for name in SCALAR_KEEPING & set(names):
        obj = namespace.get(name)
        if obj is not None and not getattr(obj, "_scalar_rule", False) and (
                reference is not None and hasattr(reference, name)):
            namespace[name] = _named(_keeping_scalars(obj, getattr(reference, name)), obj,
                                     namespace["__name__"], name)
    done: dict = {}  # a function -> its replacement, shared by its aliases
    module = namespace["__name__"]
    for name in names:
        obj = namespace.get(name)
        if name in skip or obj is None or isinstance(obj, type) or not callable(obj) or (
                reference is not None and not hasattr(reference, name)):
            continue
        if isinstance(obj, ufunc):
            if not obj.__dict__.get("_scalar_rule"):
                cls = type(obj)
                cls.__call__ = staticmethod(scalar_function(cls.__call__))
                obj.__dict__.update(__wrapped__=cls.__call__.__wrapped__, _scalar_rule=True)
            continue
        if getattr(obj, "__module__", "") in ("numpy", None) or obj is getattr(np, name, None):
            continue
        if obj not in done:
            done[obj] = _named(scalar_function(obj), obj, module, name)
        namespace[name] = done[obj]
    for method in ("reduce", "outer"):
        full = vars(ufunc)[method]
        if not getattr(full, "_scalar_rule", False):
            new = scalar_function(full)  # (a cached method: its replays apply it in C)
            new._scalar_rule = True
            setattr(ufunc, method, new)


def install_methods(cls) -> None:
    """``cls``'s reducing methods (:data:`SCALAR_METHODS`) with NumPy's scalar rule."""
    for name in SCALAR_METHODS:
        m = getattr(cls, name, None)
        if m is not None and not getattr(m, "_scalar_rule", False):
            new = scalar_function(m)
            new._scalar_rule = True
            setattr(cls, name, new)


_INTEGER_TYPES = (int, np.integer)


def scalar_index(idx, ndim: int) -> bool:
    """Whether ``a[idx]`` on an ``ndim``-d array is one element by NumPy's rule (a NumPy
    scalar): one integer (a Python or NumPy int, or a 0-d integer array) per dimension,
    nothing else (``a[()]`` of a 0-d array included; ``a[0, ...]`` or a bool is an array).
    An integer of another class (``__index__``) counts as one; a tuple subclass (a named
    tuple) is a tuple of indices."""
    entries = idx if isinstance(idx, tuple) else (idx,)
    if len(entries) != ndim:
        return False
    for i in entries:
        if isinstance(i, bool) or isinstance(i, np.bool_):
            return False
        if isinstance(i, _INTEGER_TYPES):
            continue
        if isinstance(i, (Array, np.ndarray)):
            if i.ndim == 0 and i.dtype.kind in "iu":
                continue
            return False
        if isinstance(i, (list, tuple, range, slice)) or i is None or i is Ellipsis or \
                not hasattr(type(i), "__index__"):
            return False
    return True


def scalar_getitem(slow):
    """``Array.__getitem__``'s full path with NumPy's scalar rule for one element."""

    @functools.wraps(slow)
    def getitem(self, idx):
        out = slow(self, idx)
        if type(out) is Array and out.ndim == 0 and scalar_index(idx, self.ndim):
            return scalar_result(out)
        return out

    return getitem
