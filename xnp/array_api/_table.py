"""The names of the Array API namespace and how each is made from xnp's own.

``NAMES`` is the one table: for each namespace (the main one, ``linalg``, ``fft``) the
standard's names (2025.12, which contains those of every earlier version), all taken
from the xnp namespace of the same name (``xnp``, ``xnp.linalg``, ``xnp.fft``; and
``special``: ``xnp.special``'s names, beyond the standard, read by SciPy), except
the few in ``STANDARD_FORMS``, where the standard and NumPy differ and xnp's
standard form is used. ``members`` turns one row into the namespace's attributes: each
function is wrapped by ``standard_function`` (the result hook ``_standard_result``),
every other object (dtypes, constants, ``finfo``/``iinfo``) is xnp's own.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from xnp import special as _special
from xnp.numpy_api import elementwise as _elementwise
from xnp.numpy_api import linalg as _np_linalg
from xnp.numpy_api import transcendental as _transcendental
from xnp.tracing.core import Array

__all__ = ["NAMES", "STANDARD_FORMS", "members", "standard_function"]

_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128")
_CONSTANTS = ("e", "inf", "nan", "newaxis", "pi")

NAMES: dict[str, tuple[str, ...]] = {
    "": _DTYPES + _CONSTANTS + (
        "__array_namespace_info__",
        # creation
        "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
        "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros",
        "zeros_like",
        # data types
        "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
        # elementwise
        "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh",
        "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or",
        "bitwise_right_shift", "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos",
        "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
        "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
        "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logical_and",
        "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
        "negative", "nextafter", "not_equal", "positive", "pow", "real", "reciprocal",
        "remainder", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square",
        "subtract", "tan", "tanh", "trunc",
        # indexing
        "take", "take_along_axis",
        # linear algebra
        "matmul", "matrix_transpose", "tensordot", "vecdot",
        # manipulation
        "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims",
        "flip", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze",
        "stack", "tile", "unstack",
        # searching
        "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where",
        # sets
        "isin", "unique_all", "unique_counts", "unique_inverse", "unique_values",
        # sorting
        "argsort", "sort",
        # statistics
        "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum",
        "var",
        # utility
        "all", "any", "diff",
    ),
    "linalg": (
        "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
        "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
        "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
        "vector_norm",
    ),
    "fft": (
        "fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
        "irfft", "irfftn", "rfft", "rfftfreq", "rfftn",
    ),
    # not (yet) in the standard: the `special` extension SciPy anticipates (with
    # SCIPY_ARRAY_API=1, scipy.special reads `xp.special.<name>` of the namespace), so
    # SciPy's special functions and the statistics on them run on xnp arrays under jit
    "special": tuple(_special.__all__),
}

# (namespace, name) -> the function used instead of xnp's: where NumPy's rule (which
# xnp's follows) and the standard's differ
STANDARD_FORMS = {
    # complex whatever the eigenvalues (numpy.linalg.eig is real when they all are)
    ("linalg", "eig"): _np_linalg.standard_eig,
    ("linalg", "eigvals"): _np_linalg.standard_eigvals,
    # the standard's complex special values (NumPy's C99 ones differ at a few)
    ("", "expm1"): _transcendental.standard_expm1,
    ("", "tanh"): _transcendental.standard_tanh,
    # clip(x, /, min=None, max=None): NumPy's second and third are a_min/a_max, both or none
    ("", "clip"): _elementwise.standard_clip,
}


def _standard_result(out):
    """A function's result as the standard has it: a NumPy scalar (``numpy.generic``)
    becomes a 0-d xnp array; tuples, lists and named tuples are converted elementwise;
    anything else (an xnp array, a tracer, a dtype, a Python scalar) is returned as is."""
    if isinstance(out, np.generic):
        return sys.modules["xnp"].asarray(out)
    t = type(out)
    if t is tuple or t is list:
        return t([_standard_result(o) for o in out])
    if isinstance(out, tuple) and hasattr(t, "_fields"):
        return t._make([_standard_result(o) for o in out])
    return out


def standard_function(fn, where: str | None = None, name: str | None = None):
    """``fn`` with ``_standard_result`` applied to its result. The wrapper keeps ``fn``'s
    name, docstring and signature (``__wrapped__``); an xnp array result is returned
    without calling the hook, so the wrapper is the one extra frame. ``where`` and
    ``name``, when given, are the module and name it is found under (so it pickles)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        if type(out) is Array:
            return out
        return _standard_result(out)

    if where is not None:
        wrapper.__module__, wrapper.__qualname__ = where, name
    return wrapper


def members(namespace: str) -> dict:
    """The attributes of the Array API namespace ``namespace`` ("" for the main one,
    "linalg", "fft", "special"): each name of ``NAMES[namespace]`` from xnp's namespace of that
    name (or ``STANDARD_FORMS``), functions wrapped by ``standard_function``."""
    xnp = sys.modules["xnp"]  # complete by now: xnp imports its Array API namespace last
    source = getattr(xnp, namespace) if namespace else xnp
    out = {}
    for name in NAMES[namespace]:
        value = STANDARD_FORMS.get((namespace, name)) or getattr(source, name)
        if callable(value) and not isinstance(value, type):
            value = standard_function(
                value, "xnp.array_api" + (f".{namespace}" if namespace else ""), name)
        out[name] = value
    return out
