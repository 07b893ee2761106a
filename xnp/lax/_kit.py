"""Rule kits shared by the primitive families: named dtype categories, argument
checks, and constructors for whole families (``unary``, ``binary``, ``compare``)
so that each member is a line or two.

lax is strict: operands of an n-ary elementwise primitive have equal dtypes;
shapes are equal, except that rank-0 operands and size-1 dimensions broadcast
(never rank promotion: that is ``xnp``'s job, through ``broadcast_in_dim``).
"""

from __future__ import annotations

import operator

import ml_dtypes
import numpy as np

from xnp.lax import _rules as R
from xnp.tracing import Primitive, ShapedArray, errors
from xnp.tracing.avals import SUPPORTED_DTYPES

__all__ = [
    "BOOL", "SIGNED", "UNSIGNED", "INTEGER", "FLOATING", "COMPLEX", "INEXACT", "NUMERIC",
    "ALL", "INT_OR_BOOL", "check_dtype", "broadcast_shapes", "same_dtype", "unary", "binary",
    "compare", "check_axes", "normalize_dtype", "category_name", "zeros_like_aval", "int_tuple",
    "checked_bind", "primitive",
]

BOOL = frozenset({np.dtype(np.bool_)})
SIGNED = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
UNSIGNED = frozenset(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
INTEGER = SIGNED | UNSIGNED
FLOATING = frozenset(np.dtype(t) for t in (
    np.float16, np.float32, np.float64, ml_dtypes.bfloat16,
    ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))
COMPLEX = frozenset(np.dtype(t) for t in (np.complex64, np.complex128))
INEXACT = FLOATING | COMPLEX
NUMERIC = INTEGER | INEXACT
ALL = frozenset(SUPPORTED_DTYPES)
INT_OR_BOOL = INTEGER | BOOL
REAL = INTEGER | FLOATING  # ordered numeric types (no complex)
REAL_OR_BOOL = REAL | BOOL

_CATEGORY_NAMES = {
    BOOL: "bool", SIGNED: "signed integer", UNSIGNED: "unsigned integer", INTEGER: "integer",
    FLOATING: "floating", COMPLEX: "complex", INEXACT: "floating or complex",
    NUMERIC: "numeric", ALL: "any", INT_OR_BOOL: "integer or bool", REAL: "real (non-complex)",
    REAL_OR_BOOL: "real or bool",
}


def category_name(accept) -> str:
    return _CATEGORY_NAMES.get(frozenset(accept), "/".join(sorted(d.name for d in accept)))


def normalize_dtype(dtype) -> np.dtype:
    return np.dtype(dtype)


def check_dtype(name: str, aval: ShapedArray, accept, what: str = "operand") -> None:
    """``TypeError`` unless ``aval.dtype`` is in the category ``accept``."""
    if aval.dtype not in accept:
        raise TypeError(
            f"xnp.lax.{name}: {what} dtype {aval.dtype} is not accepted; "
            f"needs a {category_name(accept)} dtype (got {errors.aval_str(aval)}).")


def same_dtype(name: str, *avals: ShapedArray) -> np.dtype:
    """The common dtype of ``avals``; ``TypeError`` naming all of them if they differ."""
    dt = avals[0].dtype
    for a in avals[1:]:
        if a.dtype != dt:
            raise TypeError(
                f"xnp.lax.{name}: operands must have equal dtypes, got "
                f"{errors.avals_str(avals)}.")
    return dt


def broadcast_shapes(name: str, *avals: ShapedArray) -> tuple[int, ...]:
    """Shape of an elementwise result: equal ranks (or rank 0), each dim equal or 1."""
    shapes = [a.shape for a in avals if a.shape != ()]
    if not shapes:
        return ()
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes):
        raise TypeError(
            f"xnp.lax.{name}: operands must have equal ranks (or be scalars), got "
            f"{errors.avals_str(avals)}.")
    out = []
    for dims in zip(*shapes):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            raise TypeError(f"xnp.lax.{name}: incompatible shapes {errors.avals_str(avals)}.")
        out.append(big.pop() if big else 1)
    return tuple(out)


def check_axes(name: str, aval: ShapedArray, axes, what: str = "axes") -> None:
    """``axes`` sorted, unique and in ``[0, ndim)``, else ``ValueError``."""
    axes = tuple(axes)
    if any(not isinstance(a, (int, np.integer)) for a in axes):
        raise TypeError(f"xnp.lax.{name}: {what} must be ints, got {axes}")
    if list(axes) != sorted(set(axes)) or any(a < 0 or a >= aval.ndim for a in axes):
        raise ValueError(
            f"xnp.lax.{name}: {what}={axes} must be sorted, unique and in [0, {aval.ndim}) "
            f"for operand {errors.aval_str(aval)}.")


def int_tuple(name: str, what: str, values) -> tuple[int, ...]:
    """A canonical tuple-of-ints param; ``TypeError`` naming ``xnp.lax.<name>`` otherwise
    (bools and floats are rejected; NumPy integers are accepted)."""
    try:
        out = tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(
            f"xnp.lax.{name}: `{what}` must be a sequence of ints, got {values!r}") from None
    if any(isinstance(v, (bool, np.bool_)) for v in values):
        raise TypeError(f"xnp.lax.{name}: `{what}` must be a sequence of ints, got {values!r}")
    return out


def checked_bind(prim: Primitive, *args, **params):
    """``prim.bind`` (kept for callers; every trace, the eager one included, runs the
    shape/dtype rules: EvalTrace checks them once per operand signature)."""
    return prim.bind(*args, **params)


def zeros_like_aval(aval: ShapedArray):
    return np.zeros(aval.shape, aval.dtype)


# --------------------------------------------------------------------------- declarations


def primitive(name: str, *, linear: bool = False, no_batch: str | None = None,
              view=None, **rules) -> Primitive:
    """A lax primitive: :class:`xnp.tracing.Primitive` (``rules`` are its keywords: shape,
    dtype, weak_type, abstract_eval, jvp, transpose, batch, multiple_results,
    differentiable, allocates, impl) with the three declaration fields lax adds.

    ``linear``: the primitive is linear in some of its operands and has a transpose rule.
    A rule that names the primitive is given as a :class:`~xnp.tracing.core.for_primitive`.
    ``no_batch``: the reason it has no batching rule (None: it has one). ``view``: its
    eager result is a view of its first operand, as NumPy's corresponding operation's is
    (the xp backends copy a read-only jit output before such a primitive); the value is
    the view's layout rule (:mod:`xnp.lax._strides`), from which ``numpy_api._layout``
    models its strides. None: the result is a new array.
    A missing jvp is declared by ``differentiable=<reason>``. ``tests/meta/
    test_completeness.py`` holds every primitive to its declaration.
    """
    prim = Primitive(name, **rules)
    prim.linear = linear
    prim.no_batch = no_batch
    prim.view = view
    return prim


# --------------------------------------------------------------------------- family kits


def _linear_rules(name: str, jvp, transpose, linear: bool, derived_jvp):
    """The jvp of a family primitive: a linear one (which takes a transpose) derives it
    unless it is given (``mul``: linear in each operand, not jointly)."""
    if not linear:
        return jvp
    if transpose is None:
        raise TypeError(f"internal error in xnp: linear primitive {name} takes a transpose rule")
    return derived_jvp if jvp is None else jvp


def unary(name: str, accept, *, out_dtype=None, weak_type=None, jvp=None, linear=False,
          transpose=None, differentiable=True, batch=R.unary_batch, view=None) -> Primitive:
    """An elementwise one-operand primitive; ``out_dtype(dtype) -> dtype`` if it changes.

    Batching keeps the batch axis in place. ``linear=True`` (with ``transpose``): without
    ``jvp``, the jvp applies the primitive to the tangent."""

    def shape(x):
        return x.shape

    def dtype(x):
        check_dtype(name, x, accept)
        return out_dtype(x.dtype) if out_dtype is not None else x.dtype

    return primitive(name, shape=shape, dtype=dtype, weak_type=weak_type,
                     jvp=_linear_rules(name, jvp, transpose, linear, R.linear_unary_jvp),
                     transpose=transpose, batch=batch, differentiable=differentiable,
                     allocates="eagerly", linear=linear, view=view)


def binary(name: str, accept, *, batch, out_dtype=None, weak_type=None, jvp=None, linear=False,
           transpose=None, differentiable=True) -> Primitive:
    """An elementwise two-operand primitive with equal operand dtypes.

    ``linear=True`` (with ``transpose``): without ``jvp``, linear in both operands jointly
    and the jvp applies the primitive to the tangents. The batching rule, which needs the
    shape ops, is given by the declaring module (``shape_ops.elementwise_batch``)."""

    def shape(x, y):
        return broadcast_shapes(name, x, y)

    def dtype(x, y):
        dt = same_dtype(name, x, y)
        check_dtype(name, x, accept)
        return out_dtype(dt) if out_dtype is not None else dt

    return primitive(name, shape=shape, dtype=dtype, weak_type=weak_type,
                     jvp=_linear_rules(name, jvp, transpose, linear, R.linear_nary_jvp),
                     transpose=transpose, batch=batch, differentiable=differentiable,
                     allocates="eagerly", linear=linear)


def _never_weak(*weak_types, **params) -> bool:
    return False


def compare(name: str, accept=ALL, *, batch) -> Primitive:
    """A comparison: bool result, never weak, not differentiable."""
    return binary(name, accept, out_dtype=lambda dt: np.dtype(np.bool_), weak_type=_never_weak,
                  differentiable="comparisons have boolean outputs", batch=batch)


never_weak = _never_weak
