"""``xnp.emath`` (``xnp.lib.scimath``): functions whose result is complex where the real
one is not defined, as ``numpy.emath``.

``xnp.emath.sqrt(-1)`` is ``1j`` where ``xnp.sqrt(-1)`` is ``nan``. As in NumPy, a real
input is converted to complex only when some element is outside the real domain
(negative for ``sqrt``/``log*``/``power``'s base, ``|x| > 1`` for ``arccos``/``arcsin``/
``arctanh``), so the result dtype depends on the values: complex64 for float32, int8,
int16, uint8 and uint16 inputs, complex128 for the others; complex inputs keep their
dtype. The math is xnp's (``xnp.sqrt`` and friends), so every function is traced under
``jit``/``vmap``/``grad`` where the result dtype is known without the values: complex
inputs, and inputs whose dtype cannot hold an out-of-domain value (bool and unsigned
for the ``x < 0`` tests), NumPy and Python values (their values are known at trace
time, as every NumPy computation is). A traced real input raises
``xnp.errors.ConcretizationTypeError`` saying so; convert it to complex first
(``x.astype(complex)``) for NumPy's complex results.
"""

from __future__ import annotations

import numpy as np

from xnp.numpy_api import creation, elementwise, transcendental
from xnp.numpy_api._util import is_xnp
from xnp.tracing import core, errors

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's _tocomplex: these real (and complex) types become complex64, the rest complex128
_TO_COMPLEX64 = {np.dtype(t) for t in (np.float32, np.int8, np.int16, np.uint8, np.uint16,
                                       np.complex64)}


def _host_value(x):
    """``x``'s values if known now: a NumPy/Python value, an eager array, a concrete
    tracer (``grad``); None for an abstract tracer."""
    if not is_xnp(x):
        return np.asarray(x)
    if type(x) is core.Array:
        return x._value
    v = x.to_concrete_value()
    return None if v is None else np.asarray(v)


def _any_out_of_domain(fname, x, a, test: str) -> bool:
    """Whether NumPy's scimath would convert ``a`` (``xnp.asarray(x)``): some real element
    is < 0 (``test="neg"``) or has |value| > 1 (``test="abs1"``)."""
    kind = a.dtype.kind
    if kind == "c" or (test == "neg" and kind in "bu"):
        return False  # complex stays complex; bool/unsigned are never negative
    value = _host_value(x)
    if value is None:
        domain = "negative" if test == "neg" else "outside [-1, 1]"
        raise errors.ConcretizationTypeError(errors.concretization_message(
            a, f"xnp.emath.{fname}: the result dtype depends on the values (complex when an "
               f"element is {domain}, as in numpy.emath), and under a transformation it must "
               "be known at trace time.",
            fix=f"convert the input to complex first (x.astype(complex)) for complex results, "
                f"or call xnp.{fname} for real ones (NaN outside the domain)"))
    value = np.asarray(value)
    return bool(np.any(value < 0) if test == "neg" else np.any(np.abs(value) > 1))


def _fix(fname, x, test: str = "neg"):
    """NumPy's ``_fix_real_lt_zero`` / ``_fix_real_abs_gt_1``: ``x`` as an xnp array,
    complex when it has an element outside the real domain."""
    a = creation.asarray(x)
    if _any_out_of_domain(fname, x, a, test):
        a = a.astype(np.complex64 if a.dtype in _TO_COMPLEX64 else np.complex128)
    return a


def _fix_int(fname, p):
    """NumPy's ``_fix_int_lt_zero``: ``p`` as an xnp array, times 1.0 (integers become
    float64) when it has a negative real element."""
    a = creation.asarray(p)
    if a.dtype.kind == "i" and _any_out_of_domain(fname, p, a, "neg"):
        a = elementwise.multiply(a, 1.0)
    return a


def sqrt(x):
    """Square root, complex for negative real elements (``numpy.emath.sqrt``).

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array
        ``xnp.sqrt(x)``, computed in complex when a real element is negative: dtype as
        described in the module docstring. A 0-d Array for a scalar input.

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        ``x`` is a traced real (signed or floating) array.

    Examples
    --------
    >>> xnp.emath.sqrt([4, -1])
    Array([2.+0.j, 0.+1.j], dtype=complex128)
    """
    return transcendental.sqrt(_fix("sqrt", x))


def log(x):
    """Natural logarithm, complex for negative real elements (``numpy.emath.log``).

    ``log(-1)`` is ``pi*1j``; ``log(0)`` is ``-inf`` (with NumPy's divide warning).
    Dtype and errors as :func:`sqrt`.
    """
    return transcendental.log(_fix("log", x))


def log2(x):
    """Base-2 logarithm, complex for negative real elements (``numpy.emath.log2``).

    Dtype and errors as :func:`sqrt`.
    """
    return transcendental.log2(_fix("log2", x))


def log10(x):
    """Base-10 logarithm, complex for negative real elements (``numpy.emath.log10``).

    Dtype and errors as :func:`sqrt`.
    """
    return transcendental.log10(_fix("log10", x))


def logn(n, x):
    """Logarithm of ``x`` to base ``n``, ``log(x) / log(n)`` (``numpy.emath.logn``).

    Each of ``n`` and ``x`` is computed in complex when it has a negative real element;
    the result dtype is the promotion of the two logarithms'. Errors as :func:`sqrt`.
    """
    x = _fix("logn", x)
    n = _fix("logn", n)
    return elementwise.divide(transcendental.log(x), transcendental.log(n))


def power(x, p):
    """``x ** p``, complex for negative real ``x`` (``numpy.emath.power``).

    ``x`` is computed in complex when it has a negative real element, and an integer
    ``p`` with a negative element is taken as float64 (so ``power(2, -2)`` is ``0.25``);
    then ``xnp.power(x, p)`` with NumPy's promotion. Errors as :func:`sqrt`, for either
    argument.
    """
    x = _fix("power", x)
    p = _fix_int("power", p)
    return elementwise.power(x, p)


def arccos(x):
    """Inverse cosine, complex for real elements with ``|x| > 1`` (``numpy.emath.arccos``).

    Dtype and errors as :func:`sqrt` (the test is ``|x| > 1``).
    """
    return transcendental.arccos(_fix("arccos", x, "abs1"))


def arcsin(x):
    """Inverse sine, complex for real elements with ``|x| > 1`` (``numpy.emath.arcsin``).

    Dtype and errors as :func:`sqrt` (the test is ``|x| > 1``).
    """
    return transcendental.arcsin(_fix("arcsin", x, "abs1"))


def arctanh(x):
    """Inverse hyperbolic tangent, complex for real elements with ``|x| > 1``
    (``numpy.emath.arctanh``); ``arctanh(1)`` is ``inf``.

    Dtype and errors as :func:`sqrt` (the test is ``|x| > 1``).
    """
    return transcendental.arctanh(_fix("arctanh", x, "abs1"))
