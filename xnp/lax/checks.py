"""``runtime_warning``: a warning decided from values, as an equation of the program.

NumPy warns about what it computed (``RuntimeWarning: All-NaN slice encountered`` when a
slice of ``nanmax`` is all NaN, "Mean of empty slice" for a ``where=`` mask that leaves a
slice empty). ``runtime_warning(condition, message)`` states such a check as a primitive:
eagerly the backend warns ``message`` when ``condition`` (a boolean array) holds anywhere,
or once per element where it holds (``each=True``), and returns ``condition``; it is an
equation like any other, so the eager dispatch cache replays the check with each call
instead of refusing to record a call that reads a value. Staged (``jit``), it is the
identity and checks nothing: compiled code does not warn, as documented for the
floating-point errors. Under ``grad`` it has no derivative (booleans), under ``vmap`` it
checks the whole batch.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.tracing import Array
from xnp.tracing.errors import aval_str

__all__ = ["runtime_warning", "runtime_warning_p"]


def _dtype(c, *, message, each):
    if c.dtype != np.bool_:
        raise TypeError(f"xnp.lax.runtime_warning: the condition must be a boolean array, got "
                        f"{aval_str(c)}")
    return c.dtype


runtime_warning_p = kit.primitive(
    "runtime_warning",
    shape=lambda c, **params: c.shape,
    dtype=_dtype,
    differentiable="its operand and result are booleans",
    batch=R.unary_batch,
)


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
