"""xnp's Array API namespace (``xnp.array_api``) with every function called through ``xnp.jit``.

``ARRAY_API_TESTS_MODULE=xnp_jit`` (``run.py --jit``) runs the conformance suite
against this module, so the suite checks that a jitted call gives what the eager
call gives, across the standard. Each namespace function (and each ``linalg`` and
``fft`` function) is replaced by a wrapper that

- takes the xnp arrays among its arguments, also those inside lists, tuples and
  dicts (``concat([x, y])``), as the jitted function's dynamic arguments;
- makes every other argument static: Python scalars, dtypes, devices, shapes,
  axes, ``None``, strings, slices; lists and tuples are kept apart (a list stays a
  list when the function is called) and floats are keyed by their bits, so
  ``0.0``/``-0.0``/``nan`` and ``1``/``1.0``/``True`` are distinct signatures;
- keeps one ``xnp.jit`` wrapper per (function, static signature) in ``_CACHE``,
  which ``jit`` then caches per argument shapes and dtypes.

What passes through, eagerly (``PASSTHROUGH``, with the reason for each):
the inspection and dtype functions (they return dtypes, bools, info objects, not
arrays: nothing to compile); and, when called without an xnp array argument
(``EAGER_WITHOUT_ARRAYS``), the creation functions (``asarray`` of Python data,
``zeros((2, 3))``: a jitted call would only turn their static arguments into a
constant, and Hypothesis builds every example with them) and ``from_dlpack`` of
another library's array (not a value ``jit`` takes). Constants, dtypes, ``finfo``/``iinfo`` and
``__array_api_version__`` are xnp's own objects.

The array type is not wrapped: a jitted call returns eager xnp arrays, so the
suite's operator and method tests (``x + y``, ``x[idx]``, ``x.__setitem__``,
``bool(x)``) run eagerly on them, as in the eager run.

``EXCLUDED`` lists the suite's tests that cannot pass under ``jit`` by the nature
of ``jit`` (a traced array's shape is fixed when it is traced), each with its
reason; ``run.py --jit`` writes it into the suite's skips file.
"""

from __future__ import annotations

import functools
import inspect
import threading
import types

import xnp
from xnp.tracing.core import Array

__all__ = ["EXCLUDED", "PASSTHROUGH", "EAGER_WITHOUT_ARRAYS", "jitted", "skips_text"]

# Functions called eagerly, whatever their arguments.
PASSTHROUGH = {
    "__array_namespace_info__": "returns the inspection namespace, not an array",
    "can_cast": "returns a bool decided by dtypes alone",
    "result_type": "returns a dtype decided by dtypes alone",
    "isdtype": "returns a bool decided by a dtype alone",
}

# Called eagerly when no xnp array is among their arguments, jitted otherwise
# (``asarray(x)``, ``from_dlpack(x)``): the creation functions, whose output is then
# a constant made of static arguments, and ``from_dlpack`` of another library's
# array, which is not a value ``jit`` takes (nor a hashable static).
EAGER_WITHOUT_ARRAYS = frozenset({
    "arange", "asarray", "empty", "eye", "full", "linspace", "ones", "zeros", "from_dlpack",
})

# The suite's tests that are inherently eager: test id (as in a skips file) -> reason.
EXCLUDED: dict[str, str] = {
    "array_api_tests/test_searching_functions.py::test_nonzero":
        "data-dependent output shape: the number of nonzero elements",
    "array_api_tests/test_set_functions.py::test_unique_all":
        "data-dependent output shape: the number of unique elements",
    "array_api_tests/test_set_functions.py::test_unique_counts":
        "data-dependent output shape: the number of unique elements",
    "array_api_tests/test_set_functions.py::test_unique_inverse":
        "data-dependent output shape: the number of unique elements",
    "array_api_tests/test_set_functions.py::test_unique_values":
        "data-dependent output shape: the number of unique elements",
    "array_api_tests/test_manipulation_functions.py::test_repeat":
        "data-dependent output shape: with an array `repeats` the length is sum(repeats) "
        "(the test draws array and integer repeats in one test)",
}

_ARRAY = object()  # an array's place in an encoded argument structure
_CACHE: dict = {}
_LOCK = threading.Lock()


def _encode(v, arrays: list):
    """A hashable description of ``v`` with each xnp array replaced by a placeholder
    (appended to ``arrays``); ``_decode`` rebuilds ``v`` from it."""
    if isinstance(v, Array):
        arrays.append(v)
        return _ARRAY
    t = type(v)
    if t is list or t is tuple:
        return (t, tuple(_encode(e, arrays) for e in v))
    if t is dict:
        return (t, tuple((k, _encode(e, arrays)) for k, e in v.items()))
    if t is float:
        return (t, v.hex())  # 0.0 != -0.0 and nan == nan as keys
    if t is complex:
        return (t, v.real.hex(), v.imag.hex())
    if t is slice:
        return (t, _encode(v.start, arrays), _encode(v.stop, arrays), _encode(v.step, arrays))
    try:
        hash(v)
    except TypeError:
        raise TypeError(f"xnp_jit: argument {v!r} of type {t.__name__} is neither an xnp "
                        "array nor hashable, so it cannot be a static argument") from None
    return (t, v)


def _decode(e, arrays):
    if e is _ARRAY:
        return next(arrays)
    t = e[0]
    if t is list or t is tuple:
        return t(_decode(x, arrays) for x in e[1])
    if t is dict:
        return {k: _decode(x, arrays) for k, x in e[1]}
    if t is float:
        return float.fromhex(e[1])
    if t is complex:
        return complex(float.fromhex(e[1]), float.fromhex(e[2]))
    if t is slice:
        return slice(*(_decode(x, arrays) for x in e[1:]))
    return e[1]


def _jitted_call(fn, static):
    enc_args, enc_kwargs = static

    def call(*arrays):
        it = iter(arrays)
        args = _decode(enc_args, it)
        kwargs = _decode(enc_kwargs, it)
        return fn(*args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(fn, "__name__", "call")
    return xnp.jit(call)


def jitted(fn, name: str | None = None):
    """``fn`` called through ``xnp.jit``: xnp arrays dynamic, everything else static."""
    name = name or fn.__name__
    creation = name in EAGER_WITHOUT_ARRAYS

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        arrays: list = []
        static = (_encode(args, arrays), _encode(kwargs, arrays))
        if creation and not arrays:
            return fn(*args, **kwargs)
        key = (fn, static)
        f = _CACHE.get(key)
        if f is None:
            with _LOCK:
                f = _CACHE.setdefault(key, _jitted_call(fn, static))
        return f(*arrays)

    wrapper.__xnp_jit_wrapped__ = fn
    return wrapper


def _namespace(module, name: str) -> types.ModuleType:
    """A module whose functions are ``module``'s, wrapped by ``jitted``; other
    attributes are ``module``'s own."""
    ns = types.ModuleType(name, module.__doc__)
    wrapped: dict = {}

    def __getattr__(attr):
        try:
            return wrapped[attr]
        except KeyError:
            pass
        value = getattr(module, attr)
        if (inspect.isfunction(value) or isinstance(value, xnp.ufunc)) and (
                attr not in PASSTHROUGH):
            value = wrapped.setdefault(attr, jitted(value, attr))
        return value

    ns.__getattr__ = __getattr__
    ns.__dir__ = lambda: dir(module)
    return ns


linalg = _namespace(xnp.array_api.linalg, __name__ + ".linalg")
fft = _namespace(xnp.array_api.fft, __name__ + ".fft")
_top = _namespace(xnp.array_api, __name__)


def __getattr__(attr):
    return _top.__getattr__(attr)


def __dir__():
    return sorted(set(dir(xnp.array_api)) | set(globals()))


def skips_text() -> str:
    """``EXCLUDED`` as the suite's skips file: each id under a comment with its reason."""
    lines = ["# written by array_api_tests/run.py --jit from array_api_tests/xnp_jit.py:EXCLUDED",
             "# (tests that are inherently eager; the reason is above each)"]
    for test_id, reason in EXCLUDED.items():
        lines += [f"# {reason}", test_id]
    return "\n".join(lines) + "\n"
