"""How every NumPy-style ``xnp.random`` call reaches NumPy: one forwarding path.

:class:`xnp.random.Generator` and :class:`xnp.random.RandomState` each hold a NumPy
``Generator`` / ``RandomState`` (``_np``) and forward every method to it, so each
number is NumPy's own (the same seed and state give the same bits) and NumPy's
parameter checks apply. The module-level legacy functions (``xnp.random.rand``, ...)
forward to one global ``RandomState``. :func:`forward` is the path they share:

* **Arguments**: an eager xnp array becomes its NumPy data (no copy). An ``out``
  (``random``, ``standard_normal``, ``standard_exponential``, ``standard_gamma``,
  ``permuted``) or ``shuffle``'s ``x`` that is an xnp array is written in place, as
  NumPy writes its own arrays; the call then returns that xnp array.
* **Results**: a NumPy array comes back as an eager xnp array (sharing its memory);
  anything else as NumPy returns it: NumPy scalars and Python floats for ``size=None``
  (``default_rng(0).normal()`` is a Python ``float``, ``integers(5)`` a ``numpy.int64``),
  ``bytes``, ``None`` from ``shuffle``, NumPy's state tuples and dicts.
* **Errors**: NumPy's class (``ValueError``, ``TypeError``, ``OverflowError``,
  ``IndexError``), the message prefixed with the method's name
  (``xnp.random.Generator.normal: scale < 0``).
* **Transformations**: a stateful draw is never frozen into a compiled function.
  Under ``jit`` or ``make_jaxpr``, a call on a generator made outside the traced
  function raises :class:`StatefulRandomError`: it would run once, while tracing,
  and every call of the compiled function would repeat its numbers. A traced
  argument (a parameter computed from a ``jit``/``grad``/``vmap`` input) raises it
  too, naming the argument: NumPy draws on the host from concrete values. The
  error offers the key API (``PRNGKey``/``split``, pure functions that work under
  ``jit``). A generator made inside the traced function from a fixed seed
  (``default_rng(0)``, ``RandomState(0)``, not ``None`` entropy or a bit generator
  object) may draw there with concrete parameters: the eager program makes it
  afresh on every call, so its numbers are the same on every call, as they are
  then (they become constants of the compiled function). Under ``grad`` and
  ``vmap`` alone (no ``jit``) Python runs on every call, so draws with concrete
  parameters are ordinary eager draws (``vmap`` runs the function once: one draw
  for the whole batch). A generator that escapes the trace it was made in (saved
  to a global) counts as an outside generator in any other trace.

Why an error and not NumPy's numbers under ``jit``: XLA can call Python from a
compiled program (host callbacks, ``docs/xla-runtime.md`` section 6), which would
let each call of the compiled function run NumPy's generator and advance it as the
eager program does; xnp's compile path passes no host callbacks yet. When it does,
:func:`forward` is the one place to stage such a callback instead of raising.
"""

from __future__ import annotations

import inspect
import weakref

import numpy as np

from xnp.random.summaries import SUMMARIES
from xnp.tracing import core, errors

__all__ = ["StatefulRandomError", "Spec", "forward", "method", "function", "staged_check",
           "home_trace", "KEY_API_HINT"]

KEY_API_HINT = ("key = xnp.random.PRNGKey(seed); key, sub = xnp.random.split(key); "
                "xnp.random.normal(sub, shape) (the key passed in as an argument of the "
                "jitted function and returned split, for fresh numbers on every call)")

_PREFIXED = (ValueError, TypeError, OverflowError, IndexError)


class StatefulRandomError(TypeError):
    """A NumPy-style (stateful) ``xnp.random`` call that cannot run where it was made.

    Raised under ``jit``/``make_jaxpr`` for a draw from a generator made outside the
    traced function (the draw would run once, while tracing, and every call of the
    compiled function would return the same numbers), and for a traced argument of
    any NumPy-style call (NumPy draws from concrete values). The message names the
    method and the argument and shows the key API, which works under ``jit``.
    """


class Spec:
    """What :func:`forward` needs to know about one NumPy method, computed once.

    ``where`` is the public name (``xnp.random.Generator.normal``), ``sig`` the
    method's signature without ``self``, ``write`` the parameter written in place
    (``out``, or ``x`` for ``shuffle``; None when there is none) and ``write_pos``
    its position.
    """

    __slots__ = ("name", "where", "sig", "write", "write_pos")

    def __init__(self, np_class, name: str, where: str):
        self.name = name
        self.where = where
        params = list(inspect.signature(getattr(np_class, name)).parameters.values())[1:]
        self.sig = inspect.Signature(params)
        names = [p.name for p in params]
        self.write = "x" if name == "shuffle" else ("out" if "out" in names else None)
        self.write_pos = names.index(self.write) if self.write in names else None


def _holds_tracer(x) -> bool:
    if isinstance(x, core.Tracer):
        return True
    if isinstance(x, (list, tuple)):
        return any(_holds_tracer(v) for v in x)
    if isinstance(x, dict):
        return any(_holds_tracer(v) for v in x.values())
    return False


def _first_tracer(x):
    if isinstance(x, core.Tracer):
        return x
    items = x.values() if isinstance(x, dict) else x
    return next(_first_tracer(v) for v in items if _holds_tracer(v))


def _traced_error(spec: Spec, args, kwargs) -> StatefulRandomError:
    try:
        named = spec.sig.bind_partial(*args, **kwargs).arguments
    except TypeError:
        named = {f"#{i}": a for i, a in enumerate(args)} | kwargs
    argname, value = next((k, v) for k, v in named.items() if _holds_tracer(v))
    tracer = _first_tracer(value)
    how = getattr(getattr(tracer, "_trace", None), "transformation", None) or "a transformation"
    return StatefulRandomError(
        f"{spec.where}: argument `{argname}` is a traced value ({errors.aval_str(tracer.aval)}, "
        f"under {how}); NumPy's generators draw on the host from concrete values. Pass a "
        f"concrete value (computed outside the transformation), or draw with the key API, "
        f"which takes traced parameters: {KEY_API_HINT}.")


def _staging_trace():
    """The innermost staging trace (jit, make_jaxpr) of this thread, or None."""
    t = core.current_trace()
    while t is not None and not t.staging:
        t = getattr(t, "parent", None)
    return t


def home_trace(fixed: bool):
    """What a new generator records as its home: a weak reference to the staging trace
    it is made in when it is made from a ``fixed`` seed inside one, else None."""
    trace = _staging_trace() if fixed else None
    return None if trace is None else weakref.ref(trace)


def _at_home(owner) -> bool:
    home = owner._home
    trace = None if home is None else home()
    t = core.current_trace()
    while trace is not None and t is not None:
        if t is trace:
            return True
        t = getattr(t, "parent", None)
    return False


def staged_check(where: str, owner) -> None:
    """Raise :class:`StatefulRandomError` when a staging trace (``jit``, ``make_jaxpr``)
    is active and ``owner`` was not made inside it (or a trace it runs in) from a fixed
    seed."""
    if core.staging_active() and not _at_home(owner):
        raise StatefulRandomError(
            f"{where}: a NumPy-style generator made outside the jitted function cannot be "
            f"used inside it: the call would run once, while tracing, and every call of the "
            f"compiled function would repeat its numbers (and the generator would not "
            f"advance). Draw outside and pass the numbers in as an argument, or use the key "
            f"API: {KEY_API_HINT}. (A generator made inside the jitted function from a fixed "
            f"seed, e.g. xnp.random.default_rng(0), may draw there: its numbers are the same "
            f"on every call, as in the eager program.)")


_PLAIN = frozenset([int, float, bool, complex, str, bytes, type(None), np.ndarray, type])


class _Traced(Exception):
    """An argument holds a tracer (turned into StatefulRandomError by :func:`forward`)."""


def _host(x):
    """An eager xnp array's NumPy data; anything else unchanged (NumPy converts it).

    Raises _Traced for a tracer, also inside a list, tuple or dict."""
    t = type(x)
    if t is core.Array:
        return x._value
    if t in _PLAIN:
        return x
    if _holds_tracer(x):
        raise _Traced
    return x


def _writable(x: core.Array):
    """The NumPy array that NumPy writes into for the in-place xnp argument ``x``."""
    core.check_eager_write(x.aval)
    return x._writable_value()


def forward(owner, spec: Spec, args: tuple, kwargs: dict):
    """Call ``owner._np``'s method ``spec.name`` with ``args``/``kwargs`` (see the module
    docstring for the conversions, the errors and the rule under transformations)."""
    staged_check(spec.where, owner)
    try:
        return _call(owner, spec, args, kwargs)
    except _Traced:
        raise _traced_error(spec, args, kwargs) from None


def _call(owner, spec: Spec, args: tuple, kwargs: dict):
    target = None
    if spec.write in kwargs:
        target = kwargs[spec.write]
    elif spec.write_pos is not None and len(args) > spec.write_pos:
        target = args[spec.write_pos]
    buf = None if type(target) is not core.Array else _writable(target)
    host_args = [buf if buf is not None and a is target else _host(a) for a in args]
    host_kwargs = {k: buf if buf is not None and v is target else _host(v)
                   for k, v in kwargs.items()}
    try:
        res = getattr(owner._np, spec.name)(*host_args, **host_kwargs)
    except _PREFIXED as e:
        if type(e) not in _PREFIXED:  # NumPy's own subclasses (AxisError) keep their form
            raise
        raise type(e)(f"{spec.where}: {e}") from None
    if type(res) is np.ndarray:
        return target if buf is not None and res is buf else core.lift(res)
    return res


def _docstring(np_class, spec: Spec, summary: str) -> str:
    cls = np_class.__name__
    extra = ""
    if spec.write == "out":
        extra = " An ``out`` that is an xnp array is written in place and returned."
    elif spec.write == "x":
        extra = " ``x`` may be an xnp array (shuffled in place, as a NumPy array is)."
    return (f"{summary}\n\nNumPy's ``numpy.random.{cls}.{spec.name}{spec.sig}``, computed by "
            f"NumPy: the same numbers for the same state, NumPy's parameter checks and "
            f"errors (the message prefixed with ``{spec.where}``). NumPy arrays in the result "
            f"come back as eager xnp arrays; scalars (``size=None``) as NumPy returns them."
            f"{extra}\n\nRaises\n------\nStatefulRandomError\n    Under ``jit``/``make_jaxpr`` "
            f"on a generator made outside the traced function, or a traced argument "
            f"(:mod:`xnp.random.bridge`).\n")


def method(np_class, owner_name: str, name: str, summary: str, module: str):
    """A method of the xnp class ``owner_name`` (in ``module``) forwarding to
    ``np_class``'s ``name`` (signature and a docstring made from ``summary``)."""
    spec = Spec(np_class, name, f"xnp.random.{owner_name}.{name}")

    def fn(self, *args, **kwargs):
        return forward(self, spec, args, kwargs)

    fn.__name__ = name
    fn.__qualname__ = f"{owner_name}.{name}"
    fn.__module__ = module
    fn.__signature__ = inspect.Signature([inspect.Parameter("self", inspect.Parameter
                                                            .POSITIONAL_OR_KEYWORD),
                                          *spec.sig.parameters.values()])
    fn.__doc__ = _docstring(np_class, spec, summary)
    return fn


def forwarding(np_class, names):
    """Class decorator: give the decorated xnp class one :func:`method` per name in
    ``names``, forwarding to ``np_class``'s method of that name, its docstring made from
    :data:`xnp.random.summaries.SUMMARIES`."""
    def decorate(cls):
        for name in names:
            setattr(cls, name, method(np_class, cls.__name__, name, SUMMARIES[name],
                                      cls.__module__))
        return cls
    return decorate


def function(name: str, summary: str, owner, np_name: str | None = None, jax_fn=None,
             module: str = "xnp.random.legacy"):
    """A module-level legacy function: ``owner()``'s (the global ``RandomState``'s)
    method ``np_name`` (default ``name``). With ``jax_fn``, a call whose first argument
    is key data (a uint32 array with last dimension 2) or that passes ``key=`` goes to
    the JAX-style ``jax_fn`` instead (see :mod:`xnp.random.legacy`)."""
    spec = Spec(np.random.RandomState, np_name or name, f"xnp.random.{name}")
    if jax_fn is None:
        def fn(*args, **kwargs):
            return forward(owner(), spec, args, kwargs)
    else:
        from xnp.random.keys import is_key  # noqa: PLC0415  (keys imports numpy_api)

        def fn(*args, **kwargs):
            if "key" in kwargs or (args and is_key(args[0])):
                return jax_fn(*args, **kwargs)
            return forward(owner(), spec, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = module
    fn.__signature__ = spec.sig
    doc = _docstring(np.random.RandomState, spec, summary)
    if jax_fn is not None:
        doc += (f"\nWith key data as the first argument (or ``key=``) this is the JAX-style "
                f":func:`{jax_fn.__module__}.{jax_fn.__name__}` instead.\n")
    fn.__doc__ = doc
    return fn
