"""Public error classes (``xnp.errors``) and the builders of their messages.

Each class subclasses what NumPy code would catch (``TypeError``,
``IndexError``), as in the table of the acceptance catalogue (S-44). Every
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
    arrays computed from constants stay eager, so writing a traced value into one (a
    buffer the function fills) cannot be recorded; xnp then runs the transformed
    function under ``xnp.jit`` (every array it creates is traced there), and raises this
    error only when that is not possible. ``trace`` is that transformation's trace, or None.
    Fix: pass the array as an argument (jit writes updated arguments back), return a new
    value (``x.at[idx].set(v)``), or make the array from an argument (``zeros_like(x)``).
    """

    def __init__(self, message: str, trace=None):
        super().__init__(message)
        self.trace = trace


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


def concretization_message(tracer, what: str, *, conversion: str | None = None) -> str:
    """Message for ConcretizationTypeError: ``what`` explains which operation needed a value."""
    lines = [
        "Abstract tracer value encountered where concrete value is expected: "
        f"traced array with shape {_shape(tracer)}"
    ]
    if conversion is not None:
        lines.append(
            f"The problem arose with the `{conversion}` function. If trying to convert the "
            "data type of a value, try using `x.astype(int)` or `xnp.array(x, int)` instead."
        )
    if what:
        lines.append(what)
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(docs_pointer(ConcretizationTypeError))
    return "\n".join(lines)


def bool_conversion_message(tracer) -> str:
    lines = [f"Attempted boolean conversion of traced array with shape {_shape(tracer)}."]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(
        "Fix: make the argument static (static_argnums/static_argnames), or use "
        "xnp.where(cond, a, b) for values or xnp.lax.cond(pred, f, g, x) for work."
    )
    lines.append(docs_pointer(TracerBoolConversionError))
    return "\n".join(lines)


def index_conversion_message(tracer) -> str:
    lines = [f"The __index__() method was called on traced array with shape {_shape(tracer)}."]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
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
    lines.append(
        "NumPy functions need concrete data; use the xnp function instead (xnp.sin, xnp.sum, ...)."
    )
    lines.append(docs_pointer(TracerArrayConversionError))
    return "\n".join(lines)


def method_message(tracer, method: str) -> str:
    head = concretization_message(tracer, f"The {method} method was called on traced array "
                                          f"with shape {_shape(tracer)}.")
    return head


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
        "global or a closure, or was computed from constants only, so it cannot hold a "
        "value that depends on the transformed arguments. Fix: transform xnp.jit(f) (under "
        "jit every array the function creates is traced and can be written), create the "
        "array from an argument (e.g. xnp.zeros_like(x)), or return a new value "
        "(x.at[idx].set(v)).")


def staged_retry_message(first: ForeignWriteError, err: BaseException) -> str:
    """The text when running a function under ``jit`` after ``first`` failed too."""
    lines = str(err).strip().splitlines() or [""]
    return (f"{first}\nxnp ran the function again under xnp.jit so that the arrays it "
            f"creates are traced, and that failed: {type(err).__name__}: {lines[0]}")
