"""Tensor products: the ``dot_general`` primitive and its wrapper ``dot``.

``dot_general(lhs, rhs, dimension_numbers)`` contracts ``lhs`` and ``rhs`` over
pairs of contracting dimensions and maps over pairs of batch dimensions. The
result's dimensions are, in order (XLA's convention): the batch dimensions, the
free (neither batch nor contracting) dimensions of ``lhs``, then those of ``rhs``.
With no contracting dimensions it is an outer product.

Transformation rules: the jvp is bilinear (``dot(dx, y) + dot(x, dy)``); the
transpose in either operand is a ``dot_general`` of the cotangent with the other
operand (contracting the other operand's free dims, keeping the batch dims)
followed by a ``transpose`` back to the operand's dimension order; the batching
rule turns a batch axis of both operands into a new leading batch dimension and a
batch axis of one operand into a free dimension (its position in the result is
returned, so no transpose is staged).
"""

from __future__ import annotations

import functools

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise, shape_ops
from xnp.tracing import Array, ShapedArray, core, errors

__all__ = ["DotDimensionNumbers", "dot_general", "dot", "dot_general_p", "PRECISIONS"]

PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")
_KINDS = (kit.SIGNED, kit.UNSIGNED, kit.FLOATING, kit.COMPLEX)


_int_tuple = kit.int_tuple


class DotDimensionNumbers(tuple):
    """``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``, each a tuple of ints.

    Hashable and canonical (a jaxpr param); prints as JAX does:
    ``(([1], [0]), ([], []))``.
    """

    __slots__ = ()

    def __new__(cls, dimension_numbers):
        if type(dimension_numbers) is cls:
            return dimension_numbers
        return _canonical_dimension_numbers(cls, dimension_numbers)

    @property
    def contracting(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self[0]

    @property
    def batch(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self[1]

    def __repr__(self):
        (lc, rc), (lb, rb) = self
        return f"(({list(lc)}, {list(rc)}), ({list(lb)}, {list(rb)}))"

    __str__ = __repr__


def _canonical_dimension_numbers(cls, dimension_numbers):
    try:
        (lc, rc), (lb, rb) = dimension_numbers
    except (TypeError, ValueError):
        raise TypeError(
            "xnp.lax.dot_general: `dimension_numbers` must be "
            "((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), got "
            f"{dimension_numbers!r}") from None
    what = ("lhs contracting dims", "rhs contracting dims", "lhs batch dims", "rhs batch dims")
    lc, rc, lb, rb = (_int_tuple("dot_general", w, d) for w, d in zip(what, (lc, rc, lb, rb)))
    return tuple.__new__(cls, ((lc, rc), (lb, rb)))


def _check_dims(name, aval, dims, what):
    for d in dims:
        if not 0 <= d < aval.ndim:
            raise ValueError(
                f"xnp.lax.{name}: {what} {dims} out of range for operand {errors.aval_str(aval)}.")
    if len(set(dims)) != len(dims):
        raise ValueError(f"xnp.lax.{name}: {what} {dims} repeat a dimension.")


def _dot_general_shape(lhs: ShapedArray, rhs: ShapedArray, *, dimension_numbers,
                       preferred_element_type=None, precision=None) -> tuple[int, ...]:
    return _dot_shape(lhs, rhs, dimension_numbers)


@functools.lru_cache(maxsize=1024)
def _dot_shape(lhs: ShapedArray, rhs: ShapedArray, dimension_numbers) -> tuple[int, ...]:
    (lc, rc), (lb, rb) = dimension_numbers
    name = "dot_general"
    if len(lc) != len(rc):
        raise ValueError(
            f"xnp.lax.{name}: {len(lc)} lhs contracting dims {list(lc)} vs {len(rc)} rhs "
            f"contracting dims {list(rc)}; they must pair up.")
    if len(lb) != len(rb):
        raise ValueError(
            f"xnp.lax.{name}: {len(lb)} lhs batch dims {list(lb)} vs {len(rb)} rhs batch dims "
            f"{list(rb)}; they must pair up.")
    _check_dims(name, lhs, lc, "lhs contracting dims")
    _check_dims(name, rhs, rc, "rhs contracting dims")
    _check_dims(name, lhs, lb, "lhs batch dims")
    _check_dims(name, rhs, rb, "rhs batch dims")
    if set(lc) & set(lb):
        raise ValueError(f"xnp.lax.{name}: lhs dims {sorted(set(lc) & set(lb))} are both "
                         "contracting and batch dims.")
    if set(rc) & set(rb):
        raise ValueError(f"xnp.lax.{name}: rhs dims {sorted(set(rc) & set(rb))} are both "
                         "contracting and batch dims.")
    for kind, ld, rd in (("contracting", lc, rc), ("batch", lb, rb)):
        for i, j in zip(ld, rd):
            if lhs.shape[i] != rhs.shape[j]:
                raise TypeError(
                    f"xnp.lax.{name}: {kind} dims must have equal sizes, but lhs dim {i} has "
                    f"size {lhs.shape[i]} and rhs dim {j} has size {rhs.shape[j]} "
                    f"({errors.aval_str(lhs)} and {errors.aval_str(rhs)}).")
    batch = tuple(lhs.shape[i] for i in lb)
    lfree = tuple(n for i, n in enumerate(lhs.shape) if i not in lc and i not in lb)
    rfree = tuple(n for i, n in enumerate(rhs.shape) if i not in rc and i not in rb)
    return batch + lfree + rfree


def _dot_general_dtype(lhs: ShapedArray, rhs: ShapedArray, *, dimension_numbers,
                       preferred_element_type=None, precision=None) -> np.dtype:
    dt = kit.same_dtype("dot_general", lhs, rhs)
    kit.check_dtype("dot_general", lhs, kit.NUMERIC | kit.BOOL)
    if preferred_element_type is None:
        return dt
    pref = np.dtype(preferred_element_type)
    kit.check_dtype("dot_general", ShapedArray((), pref), kit.NUMERIC | kit.BOOL,
                    "preferred_element_type")
    same_kind = any(dt in cat and pref in cat for cat in _KINDS)
    if pref != dt and not (same_kind and pref.itemsize >= dt.itemsize) and dt not in kit.BOOL:
        raise TypeError(
            f"xnp.lax.dot_general: preferred_element_type={pref.name} must be the operand dtype "
            f"{dt.name} or a wider dtype of the same kind "
            f"({errors.avals_str((lhs, rhs))}).")
    return pref


def _dot_general_jvp_lhs(t, lhs, rhs, **params):
    return dot_general_p.bind(t, rhs, **params)


def _dot_general_jvp_rhs(t, lhs, rhs, **params):
    return dot_general_p.bind(lhs, t, **params)


def _consecutive(*groups):
    """Consecutive index ranges of the lengths of ``groups``: ``(0..n0), (n0..n0+n1), ...``."""
    out, start = [], 0
    for g in groups:
        out.append(tuple(range(start, start + len(g))))
        start += len(g)
    return out


def _free(ndim, contracting, batch):
    return tuple(i for i in range(ndim) if i not in contracting and i not in batch)


def _dot_transpose_operand(ct, x_aval, y, dimension_numbers, params, swap_ans):
    """Cotangent of the operand ``x`` of ``dot_general(x, y)`` (``swap_ans``: of
    ``dot_general(y, x)``; ``dimension_numbers`` are then given with x's first)."""
    (xc, yc), (xb, yb) = dimension_numbers
    y_aval = core.aval_of(y)
    x_free = _free(x_aval.ndim, xc, xb)
    y_free = _free(y_aval.ndim, yc, yb)
    if swap_ans:  # ct dims: batch, y's free dims, x's free dims
        ct_batch, ct_y, _ = _consecutive(xb, y_free, x_free)
    else:  # ct dims: batch, x's free dims, y's free dims
        ct_batch, _, ct_y = _consecutive(xb, x_free, y_free)
    # contract ct with y over y's free dims, keep the batch dims: the result has x's batch
    # dims, x's free dims, then x's contracting dims ordered as y's contracting dims are
    dims = ((ct_y, y_free), (ct_batch, yb))
    x_contract_by_y = tuple(xc[i] for i in np.argsort(yc))
    perm = tuple(int(i) for i in np.argsort(tuple(xb) + x_free + x_contract_by_y))
    ct_dtype = core.aval_of(ct).dtype
    if y_aval.dtype != ct_dtype:  # preferred_element_type widened the result
        y = elementwise.convert_element_type(y, ct_dtype)
    out = dot_general_p.bind(ct, y, **dict(params, dimension_numbers=DotDimensionNumbers(dims),
                                           preferred_element_type=ct_dtype))
    if perm != tuple(range(len(perm))):
        out = shape_ops.transpose(out, perm)
    if ct_dtype != x_aval.dtype:
        out = elementwise.convert_element_type(out, x_aval.dtype)
    return out


def _dot_general_transpose(ct, lhs, rhs, *, dimension_numbers, **params):
    (lc, rc), (lb, rb) = dimension_numbers
    if R.is_undefined(lhs) and R.is_undefined(rhs):
        raise AssertionError("internal error in xnp: dot_general transposed in both operands")
    if R.is_undefined(lhs):
        return [_dot_transpose_operand(ct, lhs.aval, rhs, dimension_numbers, params, False),
                None]
    swapped = ((rc, lc), (rb, lb))
    return [None, _dot_transpose_operand(ct, rhs.aval, lhs, swapped, params, True)]


def _dot_general_batch(vals, dims, *, dimension_numbers, **params):
    (lhs, rhs), (dl, dr) = vals, dims
    (lc, rc), (lb, rb) = dimension_numbers
    if dl is not None and dr is not None:  # a new (leading) batch dimension
        dn = ((R.shift_axes(lc, dl), R.shift_axes(rc, dr)),
              ((dl,) + R.shift_axes(lb, dl), (dr,) + R.shift_axes(rb, dr)))
        out_dim = 0
    elif dl is not None:  # a new free dim of lhs
        lc, lb = R.shift_axes(lc, dl), R.shift_axes(lb, dl)
        dn = ((lc, rc), (lb, rb))
        out_dim = len(lb) + _free(core.aval_of(lhs).ndim, lc, lb).index(dl)
    else:  # a new free dim of rhs
        rc, rb = R.shift_axes(rc, dr), R.shift_axes(rb, dr)
        dn = ((lc, rc), (lb, rb))
        n_lhs_free = len(_free(core.aval_of(lhs).ndim, lc, lb))
        out_dim = len(rb) + n_lhs_free + _free(core.aval_of(rhs).ndim, rc, rb).index(dr)
    out = dot_general_p.bind(lhs, rhs, dimension_numbers=DotDimensionNumbers(dn), **params)
    return out, out_dim


dot_general_p = kit.primitive(
    "dot_general", linear=True,
    shape=_dot_general_shape,
    dtype=_dot_general_dtype,
    weak_type=kit.never_weak,
    transpose=R.zero_ct_passthrough(_dot_general_transpose),
    batch=_dot_general_batch,
    jvp=R.defjvp(_dot_general_jvp_lhs, _dot_general_jvp_rhs),
)


def _canonical_precision(precision):
    if precision is None:
        return None
    pair = (precision, precision) if isinstance(precision, str) else tuple(precision)
    if len(pair) != 2 or any(not isinstance(p, str) or p.upper() not in PRECISIONS for p in pair):
        raise ValueError(
            f"xnp.lax.dot_general: `precision` must be None, one of {PRECISIONS} or a pair of "
            f"them, got {precision!r}")
    return tuple(p.upper() for p in pair)


def dot_general(lhs: Array, rhs: Array, dimension_numbers, precision=None,
                preferred_element_type=None) -> Array:
    """General tensor contraction (XLA's DotGeneral).

    ``dimension_numbers = ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``.

    Shape: batch dims, then ``lhs`` free dims, then ``rhs`` free dims (each in
    operand order). Dtype: operands must have equal dtypes (``xnp.dot`` promotes);
    the result has ``preferred_element_type`` (default: the operand dtype, recorded
    explicitly; it may be a wider dtype of the same kind, which is then the
    accumulator, or any dtype for bool operands). Bool operands
    give a bool result (OR of ANDs, as ``numpy.dot``). ``precision`` is None (full
    float precision, the only mode the NumPy-exact backends need), a name in
    ``PRECISIONS`` or a pair of names; it is only passed on to XLA.

    Raises
    ------
    TypeError
        Operand dtypes differ, contracting/batch sizes differ, or
        ``preferred_element_type`` would narrow the result.
    ValueError
        Dimension numbers are out of range, repeated, or do not pair up.
    """
    if preferred_element_type is None:
        preferred_element_type = core.aval_of(lhs).dtype
    params = {"dimension_numbers": DotDimensionNumbers(dimension_numbers),
              "preferred_element_type": np.dtype(preferred_element_type)}
    if precision is not None:  # absent when None, so jaxprs print as JAX's do
        params["precision"] = _canonical_precision(precision)
    return kit.checked_bind(dot_general_p, lhs, rhs, **params)


def dot(lhs: Array, rhs: Array, precision=None, preferred_element_type=None) -> Array:
    """Vector-vector, matrix-vector, vector-matrix or matrix-matrix product (JAX's
    ``lax.dot``): a :func:`dot_general` contracting the last dimension of ``lhs`` with
    the first of ``rhs``.

    ``lhs`` and ``rhs`` have rank 1 or 2 and equal dtypes (no promotion: ``xnp.dot``
    promotes and takes any rank). Shape: ``lhs.shape[:-1] + rhs.shape[1:]``. Dtype and
    ``precision``/``preferred_element_type``: as :func:`dot_general`.

    Raises
    ------
    TypeError
        A rank outside 1..2, contracted sizes that differ (naming both avals), or what
        :func:`dot_general` raises.
    """
    la, ra = core.aval_of(lhs), core.aval_of(rhs)
    if not (1 <= la.ndim <= 2 and 1 <= ra.ndim <= 2) or la.shape[-1] != ra.shape[0]:
        raise TypeError(
            f"xnp.lax.dot: incompatible shapes {errors.avals_str((la, ra))}: operands need "
            "rank 1 or 2 and lhs.shape[-1] == rhs.shape[0] (xnp.dot or dot_general for "
            "other ranks).")
    return dot_general(lhs, rhs, (((la.ndim - 1,), (0,)), ((), ())), precision=precision,
                       preferred_element_type=preferred_element_type)
