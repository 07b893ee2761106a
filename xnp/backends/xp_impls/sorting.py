"""xp implementations of the sorting primitives (``xnp.lax.sorting``).

``is_stable=True`` sorts with ``kind="stable"`` (or ``lexsort``, always stable);
``is_stable=False`` with NumPy's default kind, so eager results are NumPy's own
(equal elements, e.g. ``-0.0``/``0.0``, in NumPy's order). NumPy's order is the
lax order (NaN last, ``-0.0 == 0.0``, complex lexicographic) for its own dtypes;
ml_dtypes floats (bfloat16, float8), whose NumPy sort does not order NaN, are
sorted by their float32 values (an exact, order-preserving conversion).
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS

__all__ = ["stable_argsort", "RADIX_SORTED"]


def _foreign(dtype) -> bool:
    """A dtype NumPy does not sort natively (ml_dtypes' floats)."""
    return dtype.type.__module__.startswith("ml_dtypes")


def _orderable(xp, key):
    if _foreign(key.dtype):
        return key.astype(np.float32)
    return key


#: dtypes whose values NumPy's default sort can misplace: NumPy 2.4's AVX-512 (x86-simd-sort)
#: float16 sort leaves some -0.0 before -1.0 in ties with NaN and -inf (its argsort and its
#: stable sort are right), so float16 values are sorted with kind="stable" (the same
#: sorted values; only the order of -0.0 and 0.0 among themselves may differ)
UNSAFE_DEFAULT_SORT = frozenset({np.dtype(np.float16)})


#: dtypes whose stable sort in NumPy is a radix sort, faster than any other of its sorts
RADIX_SORTED = frozenset(np.dtype(t) for t in (np.bool_, np.int8, np.uint8, np.int16,
                                               np.uint16))


def stable_argsort(xp, v, axis: int):
    """``argsort(v, axis, kind="stable")`` of a real NumPy array (ints, bool, floats),
    computed with NumPy's (vectorised) quicksort: a sorted order keeps equal elements
    together, so only the indices inside each run of equal values (NaN equal to NaN,
    ``-0.0`` to ``0.0``: the lax order) need ordering, and when there are runs they are
    ordered by one more sort of ``run * n + index``, unique keys (``n`` the axis length).
    NumPy's own stable sort where it is as fast: a radix sort (:data:`RADIX_SORTED`), fewer
    than 2048 elements, or an array module other than NumPy."""
    if xp is not np or v.dtype in RADIX_SORTED or v.size < 2048 or v.dtype.kind not in "biuf":
        return xp.argsort(v, axis=axis, kind="stable")
    perm = np.argsort(v, axis)
    n = v.shape[axis]
    if n < 2:
        return perm
    p = np.moveaxis(perm, axis, -1)
    s = np.take_along_axis(np.moveaxis(v, axis, -1), p, -1)
    tie = s[..., 1:] == s[..., :-1]
    if s.dtype.kind == "f":
        nan = np.isnan(s)
        tie |= nan[..., 1:] & nan[..., :-1]
    if not tie.any():
        return perm
    run = np.zeros(p.shape, np.int64)
    np.cumsum(~tie, axis=-1, out=run[..., 1:])
    key = run * n + p  # run < n: below n * n, int64 for n < 3e9
    key.sort(axis=-1)
    return np.moveaxis(key % n, -1, axis)


def _sort(xp, *operands, dimension, is_stable, num_keys):
    # an unstable sort is NumPy's default kind, so eager results equal NumPy's own
    kind = "stable" if is_stable or operands[0].dtype in UNSAFE_DEFAULT_SORT else None
    if len(operands) == 1 and not _foreign(operands[0].dtype):
        return [xp.sort(operands[0], axis=dimension, kind=kind)]
    keys = [_orderable(xp, k) for k in operands[:num_keys]]
    if num_keys == 1 and is_stable:
        perm = stable_argsort(xp, keys[0], dimension % keys[0].ndim)
    elif num_keys == 1:
        perm = xp.argsort(keys[0], axis=dimension, kind=kind)
    else:
        perm = xp.lexsort(keys[::-1], axis=dimension)  # lexsort's primary key is the last
    if len(operands) == 1:  # a sorted copy in the operand's memory order, as numpy.sort's
        out = xp.empty_like(operands[0])
        out[...] = xp.take_along_axis(operands[0], perm, axis=dimension)
        return [out]
    return [xp.take_along_axis(o, perm, axis=dimension) for o in operands]


def _top_k(xp, x, *, k, index_dtype):
    key = _orderable(xp, x)
    if key.dtype.kind == "f":
        keys = [-key, key == key]  # primary (last): NaN first; then descending values
    else:
        keys = [~key]  # order-reversing for ints (no overflow) and bool
    perm = xp.lexsort(keys, axis=-1)[..., :k]
    return [xp.take_along_axis(x, perm, axis=-1), perm.astype(index_dtype)]


def _searchsorted(xp, a, v, *, side, index_dtype):
    a, v = _orderable(xp, a), _orderable(xp, v)
    if a.ndim == 1:
        return xp.searchsorted(a, v, side=side).astype(index_dtype)
    out = xp.empty(v.shape, index_dtype)
    for idx in np.ndindex(*a.shape[:-1]):
        out[idx] = xp.searchsorted(a[idx], v[idx], side=side)
    return out


XP_IMPLS[lax.sort_p] = _sort
XP_IMPLS[lax.top_k_p] = _top_k
XP_IMPLS[lax.searchsorted_p] = _searchsorted


# -- the kernels a recorded program calls (``_table.PARAM_KERNELS``): the implementations
# above with their decisions taken once, for operands of the recorded call's dtypes and shapes


def _sort_kernel(xp, x, *, dimension, is_stable, num_keys):
    """``_sort`` for operands whose first is like ``x``: one frame, the sorted copy of a
    single operand, else the keys' permutation applied to every operand by one fancy index
    (``take_along_axis``'s result, without its Python frames)."""
    if _foreign(x.dtype):
        return None
    kind = "stable" if is_stable or x.dtype in UNSAFE_DEFAULT_SORT else None
    grid = list(np.ix_(*(np.arange(n) for n in x.shape)))

    def kernel(*operands):
        if len(operands) == 1:
            out = operands[0].copy(order="K")  # numpy.sort's copy
            out.sort(axis=dimension, kind=kind)
            return [out]
        keys = operands[:num_keys]
        if num_keys == 1:
            perm = keys[0].argsort(axis=dimension, kind=kind)
        else:
            for k in keys:  # (inline: no Python frame per key)
                if k.dtype.type.__module__.startswith("ml_dtypes"):
                    return _sort(xp, *operands, dimension=dimension, is_stable=is_stable,
                                 num_keys=num_keys)
            perm = xp.lexsort(keys[::-1], axis=dimension)
        index = grid.copy()
        index[dimension] = perm
        return list(map(operator.itemgetter(tuple(index)), operands))

    return kernel


def _searchsorted_kernel(xp, a, *, side, index_dtype):
    """``_searchsorted`` of a 1-d sorted ``a`` of NumPy's own dtype with intp indices: the
    array method, no Python frame."""
    if a.ndim != 1 or _foreign(a.dtype) or np.dtype(index_dtype) != np.intp:
        return None
    return functools.partial(xp.ndarray.searchsorted, side=side)


PARAM_KERNELS[lax.sort_p] = _sort_kernel
PARAM_KERNELS[lax.searchsorted_p] = _searchsorted_kernel
