"""Reduction primitives: ``reduce_sum``, ``reduce_prod``, ``reduce_max``, ``reduce_min``,
``reduce_and``, ``reduce_or``, ``reduce_xor`` (param ``axes``: a sorted tuple of
distinct non-negative ints) and the index reductions ``argmax`` / ``argmin``
(params ``axes``: a one-element tuple, ``index_dtype``).

Strict, like all of ``lax``: no dtype promotion and no accumulation upcast
(``xnp.sum`` and friends decide the accumulator dtype and convert first).
Semantics on NaN follow NumPy on every backend: ``reduce_max``/``reduce_min``
return NaN when a reduced element is NaN (``numpy.max``), and ``argmax``/``argmin``
return the index of the first NaN (``numpy.argmax``).

Transformation rules: ``reduce_sum`` is linear (its transpose broadcasts the
cotangent back). ``reduce_prod``'s jvp never divides by ``x``: it multiplies
pairs in a tree (``d(ab) = da b + a db`` per level), so zeros are exact.
``reduce_max``/``reduce_min``'s jvp gives the output the tangent at the
extremum; on ties the tangents of the tied elements are averaged (each gets
weight ``1/k``, JAX's choice), so ``grad(max)`` splits 1 equally among them; a NaN
extremum gives a NaN tangent. The bitwise reductions and ``argmax``/``argmin`` are
not differentiable. Every reduction batches by shifting ``axes`` past the batch axis.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise, shape_ops
from xnp.lax.products import dot_general
from xnp.lax.padding import pad
from xnp.lax.shape_ops import (  # reduce_sum is declared with the shape ops (their rules use it)
    _canonical_axes, _kept, _reducer, reduce_sum, reduce_sum_p,
)
from xnp.tracing import Array, Primitive, ShapedArray, core, errors

__all__ = [
    "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or",
    "reduce_xor", "argmax", "argmin",
    "reduce_sum_p", "reduce_prod_p", "reduce_max_p", "reduce_min_p", "reduce_and_p",
    "reduce_or_p", "reduce_xor_p", "argmax_p", "argmin_p",
]


checked_bind = kit.checked_bind


def reduction_identity(kind: str, dtype) -> np.ndarray:
    """The identity of a reduction as a 0-d array of ``dtype``.

    ``kind``: ``sum``/``or``/``xor`` -> 0, ``prod`` -> 1, ``and`` -> all bits set,
    ``max`` -> the lowest value (``-inf`` where the dtype has infinities, else its
    finite minimum; the minimum integer; ``False``), ``min`` -> the highest value.
    Used by the backends (initial values, empty reductions) and by ``xnp.max(where=)``.
    """
    dt = np.dtype(dtype)
    if kind in ("sum", "or", "xor"):
        return np.zeros((), dt)
    if kind == "prod":
        return np.ones((), dt)
    if kind == "and":
        if dt in kit.INT_OR_BOOL:
            return np.asarray(np.invert(np.zeros((), dt)))
        return np.ones((), dt)
    if kind not in ("max", "min"):
        raise ValueError(f"internal error in xnp: unknown reduction kind {kind!r}")
    sign = -1 if kind == "max" else 1
    if dt in kit.BOOL:
        return np.asarray(kind == "min")
    if dt in kit.INTEGER:
        info = np.iinfo(dt)
        return np.asarray(info.min if kind == "max" else info.max, dt)
    with np.errstate(invalid="ignore", over="ignore"):
        inf = np.asarray(sign * np.inf).astype(dt)
    if np.isinf(inf.astype(np.float64)):
        return inf
    info = ml_dtypes.finfo(dt)
    return np.asarray(info.min if kind == "max" else info.max, dt)


# --------------------------------------------------------------------------- reduce_prod

def _reduce_prod_jvp(primals, tangents, *, axes):
    """d prod(x) = sum_i t_i prod_{j != i} x_j, without dividing by x (exact at zeros).

    The reduced axes are flattened into one leading axis of length n; each level pairs
    neighbours (padding an odd length with a 1 and a zero tangent) and applies
    ``d(ab) = da b + a db`` as one contraction of the tangent pairs with the swapped
    primal pairs, so the work is O(size) and the tangent is linear in ``t`` through
    ``pad``/``reshape``/``dot_general`` only (all transposable).
    """
    (x,), (t,) = primals, tangents
    out = reduce_prod_p.bind(x, axes=axes)
    if not axes:
        return out, t
    a = core.aval_of(x)
    kept = _kept(a.ndim, axes)
    rest = tuple(a.shape[i] for i in kept)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    if n == 0:  # the empty product is the constant 1
        return out, R.zero_like(out)
    perm = tuple(axes) + kept
    if perm == tuple(range(a.ndim)) and a.shape == (n,) + rest:  # already (n, *rest)
        xs, ts = x, t
    else:
        xs = shape_ops.reshape(x, (n,) + rest, perm)
        ts = shape_ops.reshape(t, (n,) + rest, perm)
    one, zero = np.ones((), a.dtype), np.zeros((), a.dtype)
    batch = (0,) + tuple(range(2, 2 + len(rest)))
    while n > 1:
        if n % 2:
            grow = ((0, 1, 0),) + ((0, 0, 0),) * len(rest)
            xs, ts, n = pad(xs, one, grow), pad(ts, zero, grow), n + 1
        xs = shape_ops.reshape(xs, (n // 2, 2) + rest)
        ts = shape_ops.reshape(ts, (n // 2, 2) + rest)
        ts = dot_general(ts, shape_ops.rev(xs, (1,)), (((1,), (1,)), (batch, batch)))
        xs = reduce_prod_p.bind(xs, axes=(1,))
        n //= 2
    return out, shape_ops.reshape(ts, rest)


reduce_prod_p = _reducer("reduce_prod", kit.NUMERIC, jvp=_reduce_prod_jvp)


def reduce_prod(x: Array, axes) -> Array:
    """Product of ``x`` over ``axes``; the empty product is 1.

    Shape: ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (numeric; not bool).
    Integer products wrap around on overflow, as in NumPy.

    Raises
    ------
    TypeError, ValueError
        As :func:`reduce_sum`.
    """
    return checked_bind(reduce_prod_p, x, axes=_canonical_axes("reduce_prod", axes))


# --------------------------------------------------------------------------- reduce_max

@R.for_primitive
def _chooser_jvp(prim):
    """jvp of reduce_max/reduce_min: the tangent averaged over the locations of the extremum
    (weights 1/k on k ties, as JAX), a contraction of t with weights computed from x."""

    def jvp(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        if not axes:
            return out, t
        a = core.aval_of(x)
        kept = _kept(a.ndim, axes)
        at_extremum = elementwise.eq(x, shape_ops.broadcast_in_dim(out, a.shape, kept))
        weights = elementwise.convert_element_type(at_extremum, a.dtype)
        counts = reduce_sum_p.bind(weights, axes=axes)
        weights = elementwise.div(weights, shape_ops.broadcast_in_dim(counts, a.shape, kept))
        return out, dot_general(t, weights, ((axes, axes), (kept, kept)))

    return jvp


reduce_max_p = _reducer("reduce_max", kit.REAL_OR_BOOL, jvp=_chooser_jvp)


def reduce_max(x: Array, axes) -> Array:
    """Maximum of ``x`` over ``axes``, propagating NaN as ``numpy.max`` does.

    The maximum over an empty set is the dtype's lowest value (``-inf`` for floats
    with infinities, the minimum integer, ``False``); ``xnp.max`` raises instead, as
    NumPy does. Shape: ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (bool,
    integer or floating; complex is not ordered here).

    Raises
    ------
    TypeError
        ``x`` is complex.
    ValueError
        An axis is repeated or out of range.
    """
    return checked_bind(reduce_max_p, x, axes=_canonical_axes("reduce_max", axes))


# --------------------------------------------------------------------------- reduce_min

reduce_min_p = _reducer("reduce_min", kit.REAL_OR_BOOL, jvp=_chooser_jvp)


def reduce_min(x: Array, axes) -> Array:
    """Minimum of ``x`` over ``axes``, propagating NaN as ``numpy.min`` does.

    The minimum over an empty set is the dtype's highest value. Otherwise as
    :func:`reduce_max`.
    """
    return checked_bind(reduce_min_p, x, axes=_canonical_axes("reduce_min", axes))


# --------------------------------------------------------------------------- bitwise / logical

_BITWISE = "bitwise/logical reductions of integer or bool values have no tangents"

reduce_and_p = _reducer("reduce_and", kit.INT_OR_BOOL, differentiable=_BITWISE)


def reduce_and(x: Array, axes) -> Array:
    """Bitwise AND over ``axes`` (logical AND for bool); the empty AND has every bit set.

    Shape: ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (bool or integer).
    ``xnp.all`` converts to bool first.
    """
    return checked_bind(reduce_and_p, x, axes=_canonical_axes("reduce_and", axes))


reduce_or_p = _reducer("reduce_or", kit.INT_OR_BOOL, differentiable=_BITWISE)


def reduce_or(x: Array, axes) -> Array:
    """Bitwise OR over ``axes`` (logical OR for bool); the empty OR is 0 / ``False``.

    Shape: ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (bool or integer).
    """
    return checked_bind(reduce_or_p, x, axes=_canonical_axes("reduce_or", axes))


reduce_xor_p = _reducer("reduce_xor", kit.INT_OR_BOOL, differentiable=_BITWISE)


def reduce_xor(x: Array, axes) -> Array:
    """Bitwise XOR over ``axes`` (parity for bool); the empty XOR is 0 / ``False``.

    Shape: ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (bool or integer).
    """
    return checked_bind(reduce_xor_p, x, axes=_canonical_axes("reduce_xor", axes))


# --------------------------------------------------------------------------- argmax / argmin


def _index_reducer(name: str) -> Primitive:
    """``argmax``/``argmin``: one axis, an integer result of ``index_dtype``."""

    def shape(x: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype):
        if len(axes) != 1:
            raise ValueError(f"xnp.lax.{name}: `axes` must hold exactly one axis, got {axes}.")
        kit.check_axes(name, x, axes)
        if x.shape[axes[0]] == 0:
            raise ValueError(
                f"xnp.lax.{name}: the reduced axis {axes[0]} of {errors.aval_str(x)} is empty; "
                f"{name} needs at least one element.")
        return tuple(n for i, n in enumerate(x.shape) if i != axes[0])

    def dtype(x: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype):
        kit.check_dtype(name, x, kit.REAL_OR_BOOL)
        kit.check_dtype(name, ShapedArray((), index_dtype), kit.INTEGER, "index_dtype")
        return index_dtype

    return kit.primitive(name, shape=shape, dtype=dtype, weak_type=kit.never_weak,
                         differentiable="integer-valued index output", batch=R.reducer_batch)


argmax_p = _index_reducer("argmax")
argmin_p = _index_reducer("argmin")


def argmax(x: Array, axis: int, index_dtype=np.int64) -> Array:
    """Index of the maximum of ``x`` along ``axis`` (the first one on ties; the first NaN
    if there is one, as ``numpy.argmax``).

    Shape: ``x.shape`` without ``axis``. Dtype: ``index_dtype`` (an integer dtype).

    Raises
    ------
    TypeError
        ``x`` is complex, or ``index_dtype`` is not an integer dtype.
    ValueError
        ``axis`` is out of range or the axis is empty.
    """
    axes = _canonical_axes("argmax", axis)
    return checked_bind(argmax_p, x, axes=axes, index_dtype=np.dtype(index_dtype))


def argmin(x: Array, axis: int, index_dtype=np.int64) -> Array:
    """Index of the minimum of ``x`` along ``axis``; ties and NaN as :func:`argmax`."""
    axes = _canonical_axes("argmin", axis)
    return checked_bind(argmin_p, x, axes=axes, index_dtype=np.dtype(index_dtype))
