"""Public error classes (``xnp.errors``) and the builders of their messages.

Each class subclasses what NumPy code would catch (``TypeError``,
``IndexError``): the conversion and concretization errors are ``TypeError``s,
``NonConcreteBooleanIndexError`` is an ``IndexError``. Every
message has three parts: what went wrong (with the aval, e.g. ``float64[3]``),
where (the traced function, its file:line, the transformation, the argument
the value depends on or the operations that made it a tracer) and how to fix
it; and ends with a pointer to this module's documentation.
"""

from __future__ import annotations

__all__ = [
    "XnpTypeError",
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "UnexpectedTracerError",
    "NonConcreteBooleanIndexError",
    "ForeignWriteError",
    "HostDtypeError",
    "DonatedArrayError",
]

_DOCS = "See the xnp.errors documentation: help(xnp.errors.{name})"


class XnpTypeError(TypeError):
    """Base of xnp's tracer-related ``TypeError`` subclasses."""


class ConcretizationTypeError(XnpTypeError):
    """A traced (abstract) value was used where a concrete Python value is needed.

    Under ``xnp.jit``, ``xnp.make_jaxpr``, ``xnp.vmap`` and in the bodies of
    ``lax`` control flow, arrays are abstract tracers: only shape and dtype are
    known. ``int(x)``, ``float(x)``, ``x.item()``, ``x.tolist()``, a traced shape,
    size or axis all need the value itself.

    Example::

        @xnp.jit
        def f(x, n):
            return xnp.zeros(n)      # n is traced: raises

    Fixes: mark the argument static (``xnp.jit(f, static_argnums=1)``), compute
    shapes with NumPy (``np.prod(x.shape)``) which stays concrete, or use
    ``xnp.where``/``xnp.lax.cond`` to select values on device.
    """


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` of a traced value, e.g. Python ``if x > 0:`` inside ``xnp.jit``.

    Fix: make the argument static, or use ``xnp.where(cond, a, b)`` for values
    and ``xnp.lax.cond(pred, true_fun, false_fun, x)`` to choose computations.
    """


class TracerIntegerConversionError(XnpTypeError):
    """``__index__()`` of a traced value: ``range(i)``, ``lst[i]``, ``hex(i)``.

    Fix: make the argument static, or keep the value on device and index
    arrays with it (``x[i]`` accepts traced integers).
    """


class TracerArrayConversionError(XnpTypeError):
    """A traced value was converted to a NumPy array (``np.asarray(x)``, ``np.sin(x)``).

    NumPy functions run at trace time on concrete data; a tracer has none.
    Fix: use the ``xnp`` function (``xnp.sin(x)``), which is traced and compiled.
    """


class UnexpectedTracerError(XnpTypeError):
    """A tracer was used after the transformation that created it had ended.

    This happens when a traced function stores an intermediate value in a
    global, a closure or an object attribute (a side effect), and the value is
    used later. Transformed functions must return every value they produce.
    Fix: return the value from the function instead of saving it.
    """


class NonConcreteBooleanIndexError(IndexError):
    """Boolean-mask indexing (``x[x > 0]``) on a traced mask.

    The result's size depends on the data, which is not known under ``jit``.
    Fix: ``xnp.where(mask, x, fill)`` keeps the shape; or make the mask static.
    """


class ForeignWriteError(NotImplementedError):
    """An in-place write (``x[idx] = v``, ``x += v``, ``out=x``, a jitted function updating
    its argument ``x``) into an array that the current transformation does not trace.

    Under ``jit``/``make_jaxpr`` such an ``x`` is a global or a closure: the write would be
    a side effect that happens once, while tracing. Under ``grad``/``jvp``/``vjp``/``vmap``
    arrays computed from constants stay eager; writing a traced value into one the
    transformed function made (a buffer it fills) binds it to a cell of the
    transformation (:mod:`xnp.tracing.rebound`), so this error is raised for an array made outside the
    function (a global or a closure). ``trace`` is that transformation's trace, or None.
    Fix: pass the array as an argument (jit writes updated arguments back), return a new
    value (``x.at[idx].set(v)``), or make the array inside the function.
    """

    def __init__(self, message: str, trace=None):
        super().__init__(message)
        self.trace = trace


class DonatedArrayError(RuntimeError):
    """An array whose buffer was donated to a jitted call (``donate_argnums``) is read:
    its memory now belongs to that call's output. Fix: use the output, or do not donate
    an array that is still needed."""


class HostDtypeError(TypeError):
    """A value of a dtype XLA has no type for reached a path that only numbers take.

    Strings and bytes (``<U5``, ``|S3``, ``StringDType``), structured and record dtypes,
    ``object``, ``datetime64``/``timedelta64`` and ``longdouble``/``clongdouble`` (and any
    other dtype that is not one of xnp's numeric dtypes) are NumPy arrays on the host:
    eagerly, an xnp function given one runs NumPy's function of the same name and an xnp
    array of such a dtype has NumPy's methods. Nothing of that can be traced: under
    ``jit``/``grad``/``vmap`` (an argument, a closed-over array, or a value created in the
    traced function) this error says which value and why. Fix: compute it outside the
    traced function and pass numeric results in (``xnp.char.str_len(names)``, the
    ``int64`` view of a ``datetime64`` array, the fields of a structured array).
    ``dtype`` is the NumPy dtype (None when not known).
    """

    def __init__(self, message: str, dtype=None):
        super().__init__(message)
        self.dtype = dtype


def host_dtype_kind(dtype) -> str:
    """A few words for what a dtype XLA has no type for holds (``strings``, ...)."""
    kind = getattr(dtype, "kind", "")
    if getattr(dtype, "names", None) is not None:
        return "structured records"
    if kind in "fc" and kind:
        if not getattr(dtype, "isnative", True):
            return "numbers in non-native byte order"
        return "extended-precision numbers" if dtype.itemsize > (8 if kind == "f" else 16) else (
            "numbers of a format XLA lacks")
    return {"U": "strings", "T": "strings", "S": "bytes", "V": "raw bytes",
            "O": "Python objects", "M": "dates and times", "m": "time differences"}.get(
                kind, "values of a type XLA lacks")


def host_dtype_message(what: str, dtype, transformation: str | None = None) -> str:
    """``HostDtypeError`` text: ``what`` (``xnp.jit: argument x of f``, ``xnp.add: argument
    `x2```) has ``dtype``; ``transformation`` names the one active, if known."""
    where = f" inside a function transformed by {transformation}" if transformation else ""
    return (f"{what}: dtype {dtype} ({host_dtype_kind(dtype)}) cannot be traced"
            f"{where}: XLA has no such type, so xnp keeps arrays of it on the host as NumPy "
            "arrays and computes with them eagerly only. Fix: compute with it outside the "
            "traced function and pass numeric results in (or pass it as a static argument).")


def _display_as(base: type):
    """Show a private subclass under its public base's name in tracebacks (NumPy's
    ``_display_as_base``): users catch and search for the base."""
    def deco(cls):
        cls.__name__, cls.__qualname__, cls.__module__ = (base.__name__, base.__qualname__,
                                                          base.__module__)
        return cls

    return deco


@_display_as(UnexpectedTracerError)
class _LeakedConcretizationError(UnexpectedTracerError, ConcretizationTypeError):
    """A leaked tracer converted with ``int()``/``float()``/``.item()``: both classes."""


@_display_as(UnexpectedTracerError)
class _LeakedBoolConversionError(UnexpectedTracerError, TracerBoolConversionError):
    """A leaked tracer converted with ``bool()``: both classes."""


@_display_as(UnexpectedTracerError)
class _LeakedIntegerConversionError(UnexpectedTracerError, TracerIntegerConversionError):
    """A leaked tracer used as an index (``range(t)``): both classes."""


@_display_as(UnexpectedTracerError)
class _LeakedArrayConversionError(UnexpectedTracerError, TracerArrayConversionError):
    """A leaked tracer converted with ``numpy.asarray``: both classes."""


_LEAKED = {
    ConcretizationTypeError: _LeakedConcretizationError,
    TracerBoolConversionError: _LeakedBoolConversionError,
    TracerIntegerConversionError: _LeakedIntegerConversionError,
    TracerArrayConversionError: _LeakedArrayConversionError,
}


def docs_pointer(cls: type) -> str:
    return _DOCS.format(name=cls.__name__)


def aval_str(aval) -> str:
    """An aval as messages show it: the full NumPy dtype name and the shape, ``float64[3]``
    (never the jaxpr printer's ``f64[3]``; no ``~`` weak-type mark, as in JAX)."""
    return f"{aval.dtype.name}[{','.join(str(d) for d in aval.shape)}]"


def avals_str(avals) -> str:
    """Several avals for a message: ``float64[3], int32[]``."""
    return ", ".join(aval_str(a) for a in avals)


def _shape(tracer) -> str:
    return aval_str(tracer.aval)


# --------------------------------------------------------------------------- the fix that applies


def _context(tracer):
    """``(trace, tracer)``: the trace whose debug info explains ``tracer`` (a staging trace,
    with its argument names, or a vmap trace), reached through the primals of jvp/grad
    tracers; ``(None, None)`` when there is none."""
    t = tracer
    for _ in range(64):
        tr = getattr(t, "_trace", None)
        if tr is None:
            return None, None
        if hasattr(tr, "_arg_dependencies") or getattr(tr, "transformation", "") == "vmap":
            return tr, t
        t = getattr(t, "primal", None)
    return None, None


def _static_hint(tracer) -> str | None:
    """The first fix for a value that must be concrete, where one applies: under ``jit``,
    ``make `n` static: xnp.jit(f, static_argnames='n')`` when ``tracer`` depends on 0-d
    arguments (Python numbers, which can be static), or computing it with NumPy when it
    depends on no argument (omnistaging traces xnp calls on constants too); else None."""
    tr, t = _context(tracer)
    if tr is None or not hasattr(tr, "_arg_dependencies") or not hasattr(t, "val"):
        return None
    deps = tr._arg_dependencies(t.val)
    if not deps:
        return ("compute it with NumPy (numpy.*) or from static shapes (x.shape), which stay "
                "concrete while tracing: xnp functions are traced even on constants")
    if tr.transformation != "jit":
        return None
    dbg = tr.debug_info
    names = list(dbg.arg_names or ())
    scalars = []
    for n in deps:
        i = names.index(n) if n in names else -1
        if n.isidentifier() and 0 <= i < len(tr.invars) and tr.invars[i].aval.ndim == 0:
            scalars.append(n)
    if not scalars:
        return None
    spec = repr(scalars[0]) if len(scalars) == 1 else repr(tuple(scalars))
    who = " and ".join(f"`{n}`" for n in scalars)
    return f"make {who} static: xnp.jit({dbg.func_name}, static_argnames={spec})"


def _fix_line(tracer, *fixes: str) -> str:
    """``Fix: <first fix>; or <fixes...>`` (the first, :func:`_static_hint`, where it applies)."""
    static = _static_hint(tracer)
    parts = ([static] if static else []) + list(fixes)
    return "Fix: " + "; or ".join(parts) + "."


_LOOP_FIX = ("for a loop with a traced trip count use xnp.lax.fori_loop(lower, upper, body_fun, "
             "init_val) or xnp.lax.while_loop(cond_fun, body_fun, init_val)")


def concretization_message(tracer, what: str, *, conversion: str | None = None,
                           fix: str | None = None) -> str:
    """Message for ConcretizationTypeError: ``what`` explains which operation needed a
    value; ``fix`` (optional) the fix specific to it, after making the argument static
    where that applies."""
    lines = [
        "Abstract tracer value encountered where concrete value is expected: "
        f"traced array with shape {_shape(tracer)}"
    ]
    if conversion is not None:
        kind = "int" if conversion == "int" else conversion
        lines.append(
            f"The problem arose with the `{conversion}` function. If trying to convert the "
            f"data type of a value, try using `x.astype({kind})` or `xnp.array(x, {kind})` "
            "instead."
        )
    if what:
        lines.append(what)
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    fixes = [fix] if fix else []
    if conversion == "int" and not fix:
        fixes.append(_LOOP_FIX)
    if fixes or _static_hint(tracer):
        lines.append(_fix_line(tracer, *fixes))
    lines.append(docs_pointer(ConcretizationTypeError))
    return "\n".join(lines)


def bool_conversion_message(tracer) -> str:
    lines = [f"Attempted boolean conversion of traced array with shape {_shape(tracer)}."]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(_fix_line(
        tracer, "use xnp.where(cond, a, b) to choose between values or "
        "xnp.lax.cond(pred, true_fun, false_fun, *operands) to choose between computations "
        "(a Python `while` on a traced condition is xnp.lax.while_loop)"))
    lines.append(docs_pointer(TracerBoolConversionError))
    return "\n".join(lines)


def index_conversion_message(tracer) -> str:
    """``range(n)``, ``lst[i]``, ``operator.index(i)`` of a traced value."""
    lines = [f"The __index__() method was called on traced array with shape {_shape(tracer)}."]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(_fix_line(
        tracer, _LOOP_FIX, "to index an array use x[i] or xnp.lax.dynamic_slice(x, starts, "
        "sizes), which accept traced integers"))
    lines.append(docs_pointer(TracerIntegerConversionError))
    return "\n".join(lines)


def array_conversion_message(tracer) -> str:
    lines = [
        "The numpy.ndarray conversion method __array__() was called on traced array "
        f"with shape {_shape(tracer)}"
    ]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(_fix_line(
        tracer, "use the xnp function instead of NumPy's (xnp.sin, xnp.sum, ...): NumPy "
        "functions need concrete data"))
    lines.append(docs_pointer(TracerArrayConversionError))
    return "\n".join(lines)


def method_what(tracer, method: str) -> str:
    return f"The {method} method was called on traced array with shape {_shape(tracer)}."


def method_message(tracer, method: str) -> str:
    return concretization_message(tracer, method_what(tracer, method))


def slice_bound_message(sl, pos: int, tracer) -> str:
    """``IndexError`` text for ``x[:n]`` with a traced bound ``n`` (``tracer``)."""
    lines = [f"Slice entries must be static integers. Got {sl} at position {pos}"]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(_fix_line(
        tracer, "for a slice of static size at a traced start use xnp.lax.dynamic_slice(x, "
        "starts, sizes) (or xnp.lax.dynamic_slice_in_dim)", "to zero out the elements past "
        "a traced bound keep the shape: xnp.where(xnp.arange(len(x)) < n, x, 0)"))
    return "\n".join(lines)


def boolean_mask_message(mask) -> str:
    """``NonConcreteBooleanIndexError`` text for ``x[mask]`` with a traced ``mask``."""
    lines = [f"Array boolean indices must be concrete; got {_shape(mask)}"]
    origin = mask._origin_message()
    if origin:
        lines.append(origin)
    lines.append(_fix_line(
        mask, "use xnp.where(mask, x, fill) to keep the shape (e.g. xnp.sum(xnp.where(mask, x, "
        "0)) for a masked sum)", "xnp.nonzero(mask, size=k, fill_value=...) gives a static "
        "number k of indices"))
    lines.append(docs_pointer(NonConcreteBooleanIndexError))
    return "\n".join(lines)


NONZERO_SIZE_FIX = ("pass `size=` (a static upper bound on the count; `fill_value=` pads the "
                    "rest), or keep the shape with xnp.where(cond, x, y)")


def eager_write_message(aval, transformation: str, staging: bool) -> str:
    """``ForeignWriteError`` text for writing into an eager array (``aval``) inside a
    function transformed by ``transformation``: ``x[idx] = v``, ``out=``, or a jitted
    function that updates that array argument in place. ``staging``: a jit/make_jaxpr
    trace is active (the array is then a global or a closure)."""
    if staging:
        return (
            f"xnp: writing into the eager array {aval_str(aval)} inside a function traced "
            f"by {transformation} is not supported: the array is a global or a closure "
            "(arrays created inside a traced function are traced), so the write would be a "
            "side effect that happens once, while tracing. Fix: pass the array as an "
            "argument (jit writes updated arguments back to the caller) or return a new "
            "value (x.at[idx].set(v)).")
    return (
        f"xnp: writing a traced value into the eager array {aval_str(aval)} inside a "
        f"function transformed by {transformation} is not supported: the array is a "
        "global or a closure (it was not made inside the transformed function, is a "
        "view of memory made outside it, or shares the memory of a NumPy array, as "
        "xnp.asarray(a) of one does), so it cannot hold a value that depends on the "
        "transformed arguments. Fix: make the array inside the function with xnp (arrays "
        "made there can be written with traced values; xnp.array(a) copies a NumPy array), "
        "pass it as an argument and return the new value, or return a new value "
        "(x.at[idx].set(v)).")


def borrowed_write_message(aval, transformation: str) -> str:
    """``ForeignWriteError`` text for writing into ``aval``, an array made inside a function
    traced by ``transformation`` that shares the memory of a NumPy array (``asarray`` does
    not copy one): the write would have to reach that array."""
    return (
        f"xnp: writing into the array {aval_str(aval)} inside a function traced by "
        f"{transformation} is not supported: it shares the memory of a NumPy array "
        "(xnp.asarray(a) and xnp.array(a, copy=False) do not copy a NumPy array), and the "
        "write would have to reach that array, which a traced function cannot do. Fix: "
        "copy it first (xnp.array(a)), make it with xnp (xnp.zeros, xnp.empty, ...), pass it "
        "as an argument (jit writes updated arguments back to the caller), or return a new "
        "value (x.at[idx].set(v)).")


def unmapped_write_message(aval, fun_name: str, batched: list, eager: bool) -> str:
    """``ForeignWriteError`` text for an in-place write (``x[idx] = value``, ``out=x``)
    inside a ``vmap`` of ``fun_name`` where ``x`` (``aval``) is not mapped (an argument
    with ``in_axes=None``, a global, a closure, or an array of an enclosing ``jit``) but
    the index or the value is: ``batched`` names those parts (``"the index (int64[] per
    example)"``); ``eager``: ``x`` is an eager array."""
    what = (f"the eager array {aval_str(aval)}, an array" if eager else
            f"{aval_str(aval)}, a traced array of an enclosing transformation")
    return (
        f"xnp.vmap({fun_name}): an in-place write (x[idx] = value, or out=x) inside the "
        f"function transformed by vmap into {what} that is not mapped "
        "(an argument with in_axes=None, a global or a closure), with "
        f"{' and '.join(batched)} batched: every example would write into the same array, "
        "which vmap cannot do in place. Fix: return a new array per example with "
        "x.at[idx].set(value) (a scatter into each example's copy of x) or the result "
        "itself instead of out=x, copy x inside the function first (x = x.copy(); "
        "x[idx] = value; return x), or map x too (in_axes=0, one copy per example).")


# --------------------------------------------------------------------------- leaked tracers


def leak_message(tracer) -> str:
    """The message for a tracer used after its transformation ended (jit, make_jaxpr,
    vmap, jvp, grad): its type, the traced function (the trace's ``debug_info`` for a
    staging trace, else its ``fun_where``/``fun_name``), the line that created it
    (``tracer.src``; None for an argument of the function) and, for a staging trace,
    how ``checking_leaks`` catches the leak when the trace ends."""
    tr = tracer._trace
    dbg = getattr(tr, "debug_info", None)
    if dbg is not None:
        where, transformation = dbg.where(), dbg.transformation
    else:
        where = getattr(tr, "fun_where", None) or getattr(tr, "fun_name", None)
        transformation = tr.transformation
    lines = [
        "Encountered an unexpected tracer. A function transformed by xnp had a side effect, "
        "allowing for a reference to an intermediate value with type "
        f"{aval_str(tracer.aval)} wrapped in a {tracer._type_name} to escape the scope of "
        "the transformation.",
        "xnp transformations require that functions explicitly return their outputs, and "
        "disallow saving intermediate values to global state.",
    ]
    if where:
        lines.append(f"The function being traced when the value leaked was {where} traced for "
                     f"{transformation}.")
    src = getattr(tracer, "src", None)
    if src is not None:
        lines.append("------------------------------")
        lines.append(f"The leaked intermediate value was created on line {src}.")
        lines.append("------------------------------")
    if tr.staging:
        lines.append(
            "To catch the leak earlier, trace inside `with xnp.checking_leaks():`, which raises "
            "when the transformation ends while one of its tracers is still referenced.")
    lines.append(docs_pointer(UnexpectedTracerError))
    return "\n".join(lines)


def leaked_tracer_error(tracer, use: str = "", conversion: type | None = None):
    """The ``UnexpectedTracerError`` for using ``tracer`` after its trace ended: the
    tracer's own message (type, the traced function, the line that created it) plus the
    ``use`` that found it and where the tracer is still stored (the side effect that
    leaked it). For a conversion (``conversion``: the class it raises on a live tracer,
    e.g. ``ConcretizationTypeError`` for ``float()``) the error is an instance of both
    classes, so ``except`` clauses written for either catch it."""
    lines = tracer._leak_message().split("\n")
    extra = []
    if use:
        extra.append(f"It was used by {use} after the transformation had ended.")
    holders = tracer.annotation(_HOLDERS)
    if holders is None:  # a walk of the whole heap: once per leaked tracer, reused by each use
        holders = tracer.annotations()[_HOLDERS] = _holders(tracer)
    if holders:
        extra.append("The side effect that leaked it: it is stored in " + "; and in ".join(
            holders) + ".")
    at = next((i for i, line in enumerate(lines) if line.startswith("To catch the leak")),
              len(lines) - 1)  # before the hint, or else before the docs pointer
    lines[at:at] = extra
    return _LEAKED.get(conversion, UnexpectedTracerError)("\n".join(lines))


#: the annotation (``Tracer.annotations``) keeping a leaked tracer's :func:`_holders`
_HOLDERS = "leak holders"


def _holders(tracer, limit: int = 3) -> list[str]:
    """Where ``tracer`` is referenced from, in the user's words (a global variable, an
    object attribute, a closure variable, or a list/dict held by one of those): found by
    walking the garbage collector's referrers, at error time only."""
    import gc  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import types  # noqa: PLC0415

    modules = {id(vars(m)): m.__name__ for m in list(sys.modules.values())
               if getattr(m, "__dict__", None) is not None}

    def named_slot(obj, container):
        """``obj`` (a dict or cell) holding ``container``, as a variable or attribute name."""
        if type(obj) is types.CellType:
            return _cell_owner(obj, gc)
        if type(obj) is not dict:
            attrs = getattr(obj, "__dict__", None)  # an object whose attributes are inline
            if type(attrs) is not dict or isinstance(obj, (type, types.ModuleType,
                                                           types.FunctionType)):
                return None
            keys = [k for k, v in attrs.items() if v is container]
            if not keys or _internal(type(obj).__module__):
                return None
            return f"the attribute `.{keys[0]}` of a {type(obj).__name__} object"
        keys = [k for k, v in obj.items() if v is container]
        if not keys:
            return None
        if id(obj) in modules:
            mod = modules[id(obj)]
            return None if _internal(mod) else f"the global variable `{keys[0]}` of module {mod}"
        for o in gc.get_referrers(obj):
            if getattr(o, "__dict__", None) is obj and not _internal(type(o).__module__):
                return f"the attribute `.{keys[0]}` of a {type(o).__name__} object"
        return None

    def slot_of(container):
        for r in gc.get_referrers(container):
            desc = named_slot(r, container)
            if desc:
                return desc
        return None

    found = []
    try:
        for r in gc.get_referrers(tracer):
            desc = named_slot(r, tracer)
            if desc is None and type(r) in (list, dict):
                if type(r) is dict and not any(v is tracer for v in r.values()):
                    continue
                held = slot_of(r)
                if held is not None:
                    desc = f"a {type(r).__name__} held by {held}"
            if desc and desc not in found:
                found.append(desc)
            if len(found) >= limit:
                break
    except Exception:  # noqa: BLE001  (a best-effort hint must never hide the error)
        pass
    return found


def _internal(module) -> bool:
    return module == "xnp" or str(module).startswith("xnp.")


def _cell_owner(cell, gc) -> str | None:
    """``the closure variable `box` of function f`` for a closure cell of a user function."""
    for tup in gc.get_referrers(cell):
        if type(tup) is not tuple:
            continue
        for fn in gc.get_referrers(tup):
            if getattr(fn, "__closure__", None) is tup and not _internal(fn.__module__):
                name = fn.__code__.co_freevars[tup.index(cell)]
                return f"the closure variable `{name}` of function {fn.__qualname__}"
    return None


def not_connected(what: str, setter: str):
    """A stand-in for the hook ``what`` of the tracing layer, which ``setter`` fills.

    The tracing layer imports nothing above it, so the layers above hand it what it calls
    (the eager and jit backends, the lax operations of the AD and batching traces, NumPy's
    aliasing rules): ``xnp._wiring.connect`` makes every connection, once, when the package
    ``xnp`` is imported, which Python does before any of its modules. Called before that,
    the stand-in raises ``RuntimeError`` naming what is missing."""
    def unconnected(*args, **kwargs):
        raise RuntimeError(f"xnp: {what} is not connected ({setter} has not been called); "
                           "`import xnp` connects it")

    unconnected.unconnected = what
    return unconnected


def is_unconnected(hook) -> bool:
    """Whether ``hook`` is a :func:`not_connected` stand-in."""
    return hasattr(hook, "unconnected")
