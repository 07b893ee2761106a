"""Sorting primitives: ``sort`` (several operands of one shape sorted together along
``dimension`` by the first ``num_keys`` of them, lexicographically) and ``top_k``
(the ``k`` largest entries along the last axis, with their indices).

Order (NumPy's, on every backend): ascending; NaN sorts after every number (all
NaNs are equal, whatever their sign or payload); ``-0.0`` and ``0.0`` are equal
(a stable sort keeps their input order); complex numbers order by real part, then
imaginary part, each with NaN last; ``False < True``. ``sort`` with
``is_stable=True`` keeps the input order of equal keys (eagerly every sort is
stable). ``top_k`` is the first ``k`` entries of the stable *descending* order:
NaN counts as the largest value and equal values keep their index order, so
``top_k`` is ``numpy.argsort(-x, kind='stable')[..., :k]`` with NaN first.
``searchsorted`` finds insertion points of queries in sorted rows in that order
(``numpy.searchsorted``).

Transformation rules: ``sort`` is linear in its non-key operands for fixed keys:
its jvp sorts the tangents along with the keys (the same stable permutation), and
its transpose applies the inverse permutation (a sort keyed by the permutation,
which a sort of an ``iota`` gives). ``top_k``'s jvp sorts the tangent by the
descending keys and keeps the first ``k``; ``searchsorted`` has an integer output.
Batching moves the batch axis out of the sorted one.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.lax.padding import pad
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.ad import Zero, instantiate, tangent_aval
from xnp.tracing.batching import moveaxis

__all__ = ["sort", "sort_key_val", "top_k", "searchsorted", "sort_p", "top_k_p",
           "searchsorted_p"]


def _avals_str(*avals: ShapedArray) -> str:
    return ", ".join(errors.aval_str(a) for a in avals)


def _iota_dtype(n: int) -> np.dtype:
    return np.dtype(np.int32 if n < 2**31 - 1 else np.int64)


# --------------------------------------------------------------------------- sort


def _sort_shape(*operands: ShapedArray, dimension: int, is_stable: bool, num_keys: int):
    if not operands:
        raise TypeError("xnp.lax.sort: needs at least one operand.")
    shape = operands[0].shape
    if any(o.shape != shape for o in operands[1:]):
        raise TypeError(f"xnp.lax.sort: operands must have equal shapes, got "
                        f"{_avals_str(*operands)}.")
    if not 0 <= dimension < len(shape):
        raise ValueError(f"xnp.lax.sort: dimension {dimension} is out of range for operands "
                         f"{_avals_str(*operands)} (needs 0 <= dimension < {len(shape)}).")
    if not 1 <= num_keys <= len(operands):
        raise ValueError(f"xnp.lax.sort: num_keys={num_keys} must be in [1, {len(operands)}] "
                         f"(the number of operands).")
    return [o.shape for o in operands]


def _sort_dtype(*operands: ShapedArray, dimension: int, is_stable: bool, num_keys: int):
    return [o.dtype for o in operands]


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    # the primal is sorted stably, so that the tangents' (stable) sort permutes alike
    outs = sort_p.bind(*primals, dimension=dimension, is_stable=True, num_keys=num_keys)
    nonzero = [i for i, t in enumerate(tangents) if type(t) is not Zero]
    t_outs = [Zero(tangent_aval(core.aval_of(o))) for o in outs]
    if nonzero:
        keys = primals[:num_keys]
        moved = sort_p.bind(*keys, *[tangents[i] for i in nonzero], dimension=dimension,
                            is_stable=True, num_keys=num_keys)[num_keys:]
        for i, t in zip(nonzero, moved):
            t_outs[i] = t
    return outs, t_outs


def _sort_transpose(cts, *operands, dimension, is_stable, num_keys):
    keys = operands[:num_keys]
    if any(R.is_undefined(k) for k in keys):
        raise NotImplementedError("xnp.lax.sort: the transpose needs concrete keys (sort is "
                                  "linear only in its non-key operands).")
    linear = [i for i in range(num_keys, len(operands)) if R.is_undefined(operands[i])]
    res = [None] * len(operands)
    if not linear:
        return res
    shape = R.aval(keys[0]).shape
    index = shape_ops.iota(_iota_dtype(shape[dimension]), shape, dimension)
    perm = sort_p.bind(*keys, index, dimension=dimension, is_stable=True,
                       num_keys=num_keys)[-1]
    # out[i] = t[perm[i]]: the cotangent goes back to position perm[i], which sorting the
    # cotangent by the key perm does
    cts_in = [instantiate(cts[i]) for i in linear]
    back = sort_p.bind(perm, *cts_in, dimension=dimension, is_stable=True, num_keys=1)[1:]
    for i, c in zip(linear, back):
        res[i] = c
    return res


def _sort_batch(vals, dims, *, dimension, is_stable, num_keys):
    batched = {d for d in dims if d is not None}
    if len(batched) == 1 and None not in dims:
        (d,) = batched
        new_dim = dimension + (d <= dimension)
        outs = sort_p.bind(*vals, dimension=new_dim, is_stable=is_stable, num_keys=num_keys)
        return outs, [d] * len(vals)
    size = R.batch_size(vals, dims)
    xs = [shape_ops.bdim_to_front(v, d, size) for v, d in zip(vals, dims)]
    outs = sort_p.bind(*xs, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return outs, [0] * len(vals)


sort_p = kit.primitive("sort", linear=True, shape=_sort_shape, dtype=_sort_dtype, jvp=_sort_jvp,
                   transpose=_sort_transpose, batch=_sort_batch, multiple_results=True)


def _canonical_dimension(name: str, aval: ShapedArray, dimension) -> int:
    try:
        dimension = operator.index(dimension)
    except TypeError:
        raise TypeError(f"xnp.lax.{name}: `dimension` must be an int, got {dimension!r}") from None
    nd = aval.ndim
    return dimension + nd if -nd <= dimension < 0 else dimension


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """Sort ``operand`` along ``dimension`` (negative counts from the end).

    ``operand`` is an array or a tuple/list of arrays of one shape; the first
    ``num_keys`` are the keys (compared lexicographically, in NumPy's order: NaN
    last, ``-0.0 == 0.0``; see the module docstring) and every operand is permuted
    alike. Returns the same structure. Any dtype; dtypes may differ between operands.

    Raises
    ------
    TypeError
        Operand shapes differ.
    ValueError
        ``dimension`` or ``num_keys`` out of range (rank-0 operands have no dimension).
    """
    multi = isinstance(operand, (tuple, list))
    xs = list(operand) if multi else [operand]
    if not xs:
        raise TypeError("xnp.lax.sort: needs at least one operand.")
    dim = _canonical_dimension("sort", core.aval_of(xs[0]), dimension)
    outs = sort_p.bind(*xs, dimension=dim, is_stable=bool(is_stable),
                       num_keys=operator.index(num_keys))
    return tuple(outs) if multi else outs[0]


def sort_key_val(keys: Array, values: Array, dimension: int = -1, is_stable: bool = True):
    """``(sorted keys, values permuted alike)``: :func:`sort` with one key and one value."""
    return sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)


# --------------------------------------------------------------------------- top_k


def _descending_keys(x) -> list:
    """Keys whose ascending lexicographic order is ``x``'s descending order with NaN first
    (real or bool ``x``): ``[x == x, -x]`` for floats, ``[~x]`` for integers and bool."""
    if core.aval_of(x).dtype in kit.FLOATING:
        return [ew.eq(x, x), ew.neg(x)]
    return [ew.not_(x)]


def _top_k_shape(x: ShapedArray, *, k: int, index_dtype):
    if x.ndim == 0:
        raise ValueError(
            f"xnp.lax.top_k: the operand must have rank >= 1, got {errors.aval_str(x)}.")
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(f"xnp.lax.top_k: k={k} must be in [0, {x.shape[-1]}] (the last "
                         f"dimension of {errors.aval_str(x)}).")
    out = x.shape[:-1] + (k,)
    return [out, out]


def _top_k_dtype(x: ShapedArray, *, k: int, index_dtype):
    kit.check_dtype("top_k", x, kit.REAL_OR_BOOL)
    kit.check_dtype("top_k", ShapedArray((), index_dtype), kit.INTEGER, "index_dtype")
    return [x.dtype, index_dtype]


def _top_k_jvp(primals, tangents, *, k, index_dtype):
    (x,), (t,) = primals, tangents
    vals, idx = top_k_p.bind(x, k=k, index_dtype=index_dtype)
    idx_zero = Zero(tangent_aval(core.aval_of(idx)))
    if type(t) is Zero:
        return [vals, idx], [Zero(tangent_aval(core.aval_of(vals))), idx_zero]
    a = core.aval_of(x)
    keys = _descending_keys(x)
    moved = sort_p.bind(*keys, t, dimension=a.ndim - 1, is_stable=True,
                        num_keys=len(keys))[-1]
    config = ((0, 0, 0),) * (a.ndim - 1) + ((0, k - a.shape[-1], 0),)
    return [vals, idx], [pad(moved, np.zeros((), a.dtype), config), idx_zero]


def _top_k_batch(vals, dims, *, k, index_dtype):
    (x,), (d,) = vals, dims
    if d == core.aval_of(x).ndim - 1:
        x, d = moveaxis(x, d, 0), 0
    return top_k_p.bind(x, k=k, index_dtype=index_dtype), [d, d]


top_k_p = kit.primitive("top_k", shape=_top_k_shape, dtype=_top_k_dtype, weak_type=kit.never_weak,
                    jvp=_top_k_jvp, batch=_top_k_batch, multiple_results=True)


def top_k(operand: Array, k: int, index_dtype=np.int64):
    """``(values, indices)`` of the ``k`` largest entries along the last axis.

    Descending order; NaN counts as the largest value; equal values come in index
    order (the first ``k`` of a stable descending sort). Shapes:
    ``operand.shape[:-1] + (k,)``; dtypes: the operand's (real or bool) and
    ``index_dtype`` (default int64, xnp's default integer; JAX returns int32).

    Raises
    ------
    TypeError
        Complex operand, non-integer ``index_dtype``.
    ValueError
        Rank-0 operand or ``k`` outside ``[0, operand.shape[-1]]``.
    """
    return top_k_p.bind(operand, k=operator.index(k), index_dtype=np.dtype(index_dtype))


# --------------------------------------------------------------------------- searchsorted


def _searchsorted_shape(a: ShapedArray, v: ShapedArray, *, side: str, index_dtype):
    if a.ndim == 0 or v.ndim == 0 or a.shape[:-1] != v.shape[:-1]:
        raise TypeError(
            f"xnp.lax.searchsorted: needs sorted rows (..., n) and queries (..., m) with equal "
            f"leading dimensions, got {_avals_str(a, v)}.")
    if side not in ("left", "right"):
        raise ValueError(f"xnp.lax.searchsorted: side must be 'left' or 'right', got {side!r}.")
    return v.shape


def _searchsorted_dtype(a: ShapedArray, v: ShapedArray, *, side: str, index_dtype):
    kit.same_dtype("searchsorted", a, v)
    kit.check_dtype("searchsorted", ShapedArray((), index_dtype), kit.INTEGER, "index_dtype")
    return index_dtype


def _searchsorted_batch(vals, dims, *, side, index_dtype):
    size = R.batch_size(vals, dims)
    a, v = (shape_ops.bdim_to_front(x, d, size) for x, d in zip(vals, dims))
    return searchsorted_p.bind(a, v, side=side, index_dtype=index_dtype), 0


searchsorted_p = kit.primitive("searchsorted", shape=_searchsorted_shape, dtype=_searchsorted_dtype,
                           weak_type=kit.never_weak, batch=_searchsorted_batch,
                           differentiable="integer-valued index output")


def searchsorted(sorted_arr: Array, query: Array, side: str = "left", index_dtype=np.int64):
    """Insertion points of ``query`` in the sorted last axis of ``sorted_arr``.

    ``sorted_arr`` has shape ``(..., n)`` sorted ascending in NumPy's order (NaN
    last), ``query`` shape ``(..., m)`` with the same leading dimensions and the
    same dtype. ``side='left'`` gives the first index ``i`` with
    ``query <= sorted_arr[..., i]``, ``'right'`` the first with ``query <
    sorted_arr[..., i]`` (``numpy.searchsorted`` per row). Shape: ``query.shape``;
    dtype ``index_dtype`` (default int64). Under XLA: a branchless binary search
    loop, ``ceil(log2(n)) + 1`` vectorised gathers.

    Raises
    ------
    TypeError
        Shapes or dtypes do not match.
    ValueError
        ``side`` is not ``'left'``/``'right'``.
    """
    return searchsorted_p.bind(sorted_arr, query, side=side, index_dtype=np.dtype(index_dtype))
