"""``runtime_warning`` and ``runtime_error``: a warning or an exception decided from values,
as an equation of the program.

NumPy warns about what it computed (``RuntimeWarning: All-NaN slice encountered`` when a
slice of ``nanmax`` is all NaN, "Mean of empty slice" for a ``where=`` mask that leaves a
slice empty). ``runtime_warning(condition, message)`` states such a check as a primitive:
eagerly the backend warns ``message`` when ``condition`` (a boolean array) holds anywhere,
or once per element where it holds (``each=True``), and returns ``condition``; it is an
equation like any other, so the eager dispatch cache replays the check with each call
instead of refusing to record a call that reads a value. Staged (``jit``), it is the
identity and checks nothing: compiled code does not warn, as documented for the
floating-point errors. Under ``grad`` it has no derivative (booleans), under ``vmap`` it
checks the whole batch (a ``vmap`` over no batch member checks nothing, as NumPy's stacked
call over an empty stack).

``runtime_error(condition, message, exception)`` is the same for an exception: eagerly the
backend raises ``exception(message)`` when ``condition`` holds anywhere (NumPy's
``ValueError`` for an integer to a negative integer power, ``LinAlgError("Singular
matrix")``, ``IndexError`` for an index out of bounds), so a call whose full path checks a
value replays the check. Staged, it is the identity: compiled code does not raise (what it
computes instead is documented by each function that uses it).
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.tracing import Array
from xnp.tracing.errors import aval_str

__all__ = ["runtime_warning", "runtime_warning_p", "runtime_error", "runtime_error_p"]


def _condition_dtype(name):
    def dtype(c, **params):
        if c.dtype != np.bool_:
            raise TypeError(f"xnp.lax.{name}: the condition must be a boolean array, got "
                            f"{aval_str(c)}")
        return c.dtype
    return dtype


def _check_primitive(name):
    return kit.primitive(
        name,
        shape=lambda c, **params: c.shape,
        dtype=_condition_dtype(name),
        differentiable="its operand and result are booleans",
        batch=R.unary_batch,
    )


runtime_warning_p = _check_primitive("runtime_warning")
runtime_error_p = _check_primitive("runtime_error")
# under a vmap over no batch member they check nothing (xnp/tracing/batching.py)
runtime_warning_p.checks_values = runtime_error_p.checks_values = True


def runtime_warning(condition: Array, message: str, *, each: bool = False) -> Array:
    """Warn ``RuntimeWarning(message)`` eagerly where the boolean array ``condition`` is
    true: once if it is true anywhere, or once per true element (``each=True``). Returns
    ``condition``. Under ``jit`` nothing is checked (the identity).

    Raises
    ------
    TypeError
        ``condition`` is not a boolean array.
    """
    return runtime_warning_p.bind(condition, message=str(message), each=bool(each))


def runtime_error(condition: Array, message: str, exception: type = ValueError) -> Array:
    """Raise ``exception(message)`` eagerly if the boolean array ``condition`` is true
    anywhere. Returns ``condition``. Under ``jit`` nothing is checked (the identity); under
    ``vmap`` the whole batch is checked (nothing for an empty batch).

    Raises
    ------
    TypeError
        ``condition`` is not a boolean array, or ``exception`` is not an exception class.
    exception
        Eagerly, where ``condition`` holds.
    """
    if not (isinstance(exception, type) and issubclass(exception, Exception)):
        raise TypeError(f"xnp.lax.runtime_error: exception must be an exception class, got "
                        f"{exception!r}")
    return runtime_error_p.bind(condition, message=str(message), exception=exception)
