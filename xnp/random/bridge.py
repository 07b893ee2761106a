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
  Under ``jit`` or ``make_jaxpr`` (and in the bodies of ``lax`` loops and branches), a
  call on a generator made outside the traced function is staged as a host callback
  (:mod:`xnp.random.staged`): every run of the compiled function calls NumPy's method
  on that generator with the run-time values of its arguments (traced parameters such
  as ``normal(loc=x)`` included), so it draws NumPy's next numbers and advances the
  generator exactly as the eager program would, in program order (once per iteration
  inside ``fori_loop``/``scan``). Calls that return no array (``get_state``, ``bytes``,
  ``spawn``), a traced ``size`` or a result shape that depends on a traced value raise
  :class:`StatefulRandomError`. A traced argument under ``grad`` or ``vmap`` alone also
  stages a callback: ``grad`` through it raises ``TypeError`` (NumPy's generators have
  no derivative; the key API's samplers do), and ``vmap`` calls the generator once per
  batch element, in order, as a Python loop over the batch would. Draws with concrete
  parameters under ``grad``/``vmap`` alone are ordinary eager draws (``vmap`` runs the
  function once: one draw for the whole batch).

  A generator made inside the traced function from a fixed seed (``default_rng(0)``,
  ``RandomState(0)``) draws there while tracing: the eager program makes it afresh on
  every call, so its numbers are the same on every call, as they are then (they become
  constants of the compiled function). From its first draw with a traced argument on,
  its state is data of the compiled program instead: that draw and every later one are
  callbacks that take the state (the generator pickled into a uint8 array,
  :func:`staged.state_bytes`; the trace-time state for the first) and return the state
  after the draw, so each call starts where the eager program's fresh generator would be
  and draws NumPy's numbers for the run-time values, however many of the stream they
  consume. A draw from it under ``grad``/``vmap`` inside that function raises (the
  state cannot pass through the inner transformation). One made inside from OS
  entropy or from a bit generator object raises: its numbers on each call cannot be
  reproduced; so does one used in a ``lax`` loop or branch body or a nested ``jit``
  inside the function that made it (the body would draw from the trace-time object on
  every call). A generator that escapes the trace it was made in (saved to a global)
  counts as an outside generator once that trace has ended, unless the trace drew from
  it with traced arguments: its state after those draws is data of the compiled
  function, so a later use of the escaped object raises instead of drawing from the
  stale trace-time state.
"""

from __future__ import annotations

import inspect
import weakref

import numpy as np

from xnp.random import staged
from xnp.random.summaries import SUMMARIES
from xnp.tracing import core, errors
from xnp.tracing.avals import SUPPORTED_DTYPES
from xnp.tracing.host_arrays import HostArray

__all__ = ["StatefulRandomError", "Spec", "forward", "method", "function", "staged_check",
           "home_trace", "numpy_call", "KEY_API_HINT"]

KEY_API_HINT = ("key = xnp.random.PRNGKey(seed); key, sub = xnp.random.split(key); "
                "xnp.random.normal(sub, shape) (the key passed in as an argument of the "
                "jitted function and returned split, for fresh numbers on every call)")

_PREFIXED = (ValueError, TypeError, OverflowError, IndexError)


class StatefulRandomError(TypeError):
    """A NumPy-style (stateful) ``xnp.random`` call that cannot run where it was made.

    Raised inside a traced function for what a host callback cannot reproduce: a call
    that returns no array (``get_state``, ``bytes``, ``spawn``), a traced ``size`` or a
    result shape that depends on a traced value, a traced seed, a draw under
    ``grad``/``vmap`` inside the traced function from a generator made in it, and any
    draw from one made inside it from OS entropy or a bit generator object. The
    message names the method and the argument and shows the key API.
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


def _inner_error(spec: Spec, args, kwargs) -> StatefulRandomError:
    """A draw under a transformation (``grad``, ``vmap``) inside the jitted function that
    made the generator, with a traced argument or once its state is traced."""
    try:
        named = spec.sig.bind_partial(*args, **kwargs).arguments
    except TypeError:
        named = {f"#{i}": a for i, a in enumerate(args)} | kwargs
    traced = [(k, v) for k, v in named.items() if _holds_tracer(v)]
    what = "a draw from it"
    if traced:
        argname, value = traced[0]
        tracer = _first_tracer(value)
        how = getattr(getattr(tracer, "_trace", None), "transformation", None) or "a transformation"
        what = (f"argument `{argname}` is a traced value ({errors.aval_str(tracer.aval)}, "
                f"under {how}), and this draw")
    return StatefulRandomError(
        f"{spec.where}: {what} runs under a transformation inside the traced function that "
        f"made this generator (from a fixed seed); its draws with traced values are host "
        f"callbacks of that function itself, with the generator's state as data, which a "
        f"transformation inside it cannot carry. Draw outside the inner transformation, make "
        f"the generator outside the traced function, or use the key API: {KEY_API_HINT}.")


def _staging_trace():
    """The innermost staging trace (jit, make_jaxpr) of this thread, or None."""
    t = core.current_trace()
    while t is not None and not t.staging:
        t = getattr(t, "parent", None)
    return t


class _Home:
    """Where a generator was made: a weak reference to the staging trace, whether from a
    fixed seed, and ``state``: None while its draws run while tracing, else its state
    (:func:`staged.state_bytes`) after its last draw, a value of that trace."""

    __slots__ = ("trace", "fixed", "state")

    def __init__(self, trace, fixed: bool):
        self.trace = weakref.ref(trace)
        self.fixed = fixed
        self.state = None

    def sibling(self) -> "_Home":
        """The home of another generator made in the same place (``spawn``'s children)."""
        return _Home(self.trace(), self.fixed) if self.trace() is not None else None


def home_trace(fixed: bool):
    """What a new generator records as its home: the staging trace it is made in (and
    whether it is made from a ``fixed`` seed), or None when it is made outside any."""
    trace = _staging_trace()
    return None if trace is None else _Home(trace, fixed)


def _at_home(owner, where: str):
    """``owner``'s home when its trace is the current trace or one it runs in; None when
    it was made outside any trace or escaped from one that ended.

    Raises :class:`StatefulRandomError` when its trace is still being traced but is not
    one the current trace runs in (a ``lax`` loop or branch body, or a nested ``jit``,
    inside the function that made it): the eager program makes the generator afresh on
    every call, which a callback in the body cannot reproduce."""
    home = owner._home
    trace = None if home is None else home.trace()
    if trace is None or not trace.alive:
        if home is not None and home.state is not None:
            raise StatefulRandomError(
                f"{where}: this generator was made inside a traced function that drew from "
                f"it with traced arguments, so its state after those draws is data of the "
                f"compiled function (different on each call), not of this Python object, "
                f"which escaped the function (saved to a global or returned). Make the "
                f"generator outside the jitted function (its draws then run on every call, "
                f"advancing it as the eager program does), or use the key API: "
                f"{KEY_API_HINT}.")
        return None
    t = core.current_trace()
    while t is not None:
        if t is trace:
            return home
        t = getattr(t, "parent", None)
    raise StatefulRandomError(
        f"{where}: this generator was made inside the traced function and is used inside a "
        f"body traced separately (a lax loop or branch, or a nested jit): the eager program "
        f"makes it afresh on every call, which the compiled body cannot reproduce. Make it "
        f"outside the jitted function (its draws then run on every call), pass its numbers "
        f"into the body, or use the key API: {KEY_API_HINT}.")


def _unfixed_error(where: str) -> StatefulRandomError:
    return StatefulRandomError(
        f"{where}: this generator was made inside the traced function from OS entropy or "
        f"from a bit generator object, so the numbers the eager program draws on each call "
        f"cannot be reproduced. Make it outside the jitted function (its draws then run on "
        f"every call, advancing it as the eager program does), or from a fixed seed (e.g. "
        f"xnp.random.default_rng(0), whose numbers are then the same on every call, as "
        f"eagerly), or use the key API: {KEY_API_HINT}.")


def staged_check(where: str, owner) -> None:
    """Raise :class:`StatefulRandomError` when a staging trace (``jit``, ``make_jaxpr``) is
    active and ``owner`` was not made inside it from a fixed seed: for the calls that a
    host callback cannot run (``get_bit_generator`` returns a Python object,
    ``set_bit_generator`` takes one, which the compiled function would keep)."""
    if not core.staging_active():
        return
    home = _at_home(owner, where)
    if home is not None and not home.fixed:
        raise _unfixed_error(where)
    if home is None:
        raise StatefulRandomError(
            f"{where}: a compiled function cannot get or set the bit generator of a "
            f"NumPy-style generator made outside it (a Python object, not an array). Call "
            f"it outside the jitted function, or use the key API: {KEY_API_HINT}.")


_PLAIN = frozenset([int, float, bool, complex, str, bytes, type(None), np.ndarray, type])


class _Traced(Exception):
    """An argument holds a tracer (turned into StatefulRandomError by :func:`forward`)."""


def _host(x):
    """An eager xnp array's NumPy data; anything else unchanged (NumPy converts it).

    Raises _Traced for a tracer, also inside a list, tuple or dict."""
    t = type(x)
    if t is core.Array:
        return x._value
    if t is HostArray:
        return x._val
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
    home = _at_home(owner, spec.where)
    if home is not None:
        if not home.fixed:
            raise _unfixed_error(spec.where)
        if home.state is None:
            try:
                return _call(owner, spec, args, kwargs)
            except _Traced:
                pass
        if core.current_trace() is not home.trace():
            raise _inner_error(spec, args, kwargs)
        if home.state is None:  # from here on its state is data of the compiled program
            home.state = core.lift(staged.state_bytes(owner._np))
        res, home.state = staged.stage(owner, spec, args, kwargs, call=numpy_call,
                                       error=StatefulRandomError, state=home.state)
        return res
    if core.staging_active() or _holds_tracer(args) or _holds_tracer(kwargs):
        return staged.stage(owner, spec, args, kwargs, call=numpy_call,
                            error=StatefulRandomError)
    return _call(owner, spec, args, kwargs)


def numpy_call(np_generator, spec: Spec, args, kwargs):
    """``np_generator``'s method ``spec.name`` on NumPy values, NumPy's errors prefixed
    with the method's public name (NumPy's own subclasses, such as ``AxisError``, keep
    their form)."""
    try:
        return getattr(np_generator, spec.name)(*args, **kwargs)
    except _PREFIXED as e:
        if type(e) not in _PREFIXED:
            raise
        raise type(e)(f"{spec.where}: {e}") from None


def _call(owner, spec: Spec, args: tuple, kwargs: dict):
    target = None
    if spec.write in kwargs:
        target = kwargs[spec.write]
    elif spec.write_pos is not None and len(args) > spec.write_pos:
        target = args[spec.write_pos]
    buf = (_writable(target) if type(target) is core.Array else
           target._val if type(target) is HostArray else None)
    host_args = [buf if buf is not None and a is target else _host(a) for a in args]
    host_kwargs = {k: buf if buf is not None and v is target else _host(v)
                   for k, v in kwargs.items()}
    res = numpy_call(owner._np, spec, host_args, host_kwargs)
    if type(res) is np.ndarray:
        # strings, dates, objects ... (choice, permutation of such an array) as HostArray
        return target if buf is not None and res is buf else (
            core.lift(res) if res.dtype in SUPPORTED_DTYPES else HostArray(res))
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
            f" Under ``jit`` it runs on every call of the compiled function (a host callback, "
            f":mod:`xnp.random.bridge`).{extra}\n\nRaises\n------\nStatefulRandomError\n"
            f"    Inside a traced function, for what a host callback cannot reproduce "
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
