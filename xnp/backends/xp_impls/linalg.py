"""xp implementations of the linear-algebra primitives (``xnp.lax.linalg``).

``dot_general``: NumPy's own product where one has the same meaning (decided once per
dimension numbers and operand ranks, :func:`_form`): ``dot`` (N-D . 1-D or 2-D), or
``matmul``, ``matvec``, ``vecmat``, ``vecdot`` with the batch dimensions leading and in
order (as ``xnp.matmul`` and the vector products bind it; ``vecdot`` along any axis).
Otherwise, without batch dimensions it is ``tensordot`` (whose output
order, lhs free dims then rhs free dims, is XLA's); with batch dimensions the
operands are transposed to ``(batch, free, contracting)`` /
``(batch, contracting, free)``, flattened to 3-D and multiplied with ``matmul``.
Operands are cast to ``preferred_element_type`` first, so it is the accumulator.
A recorded program (the eager dispatch cache) calls :func:`dot_general_kernel`'s function
of the two operands instead, the same computation without the per-call steps.
"""

import functools
import math

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS

__all__ = []


_DOT, _MATMUL, _MATVEC, _VECMAT, _VECDOT = range(5)


@functools.lru_cache(maxsize=256)
def _form(dimension_numbers, lhs_ndim, rhs_ndim):
    """``(form, axis)``: which NumPy product computes ``dot_general`` with these dimension
    numbers on operands of these ranks (``axis``: ``vecdot``'s, None for the last), or
    ``(None, None)``."""
    (lc, rc), (lb, rb) = dimension_numbers
    if len(lc) != 1 or lb != rb:
        return None, None
    nb = len(lb)
    (c,), (d,) = lc, rc
    if not nb:
        if c == lhs_ndim - 1 and d == 0 and rhs_ndim <= 2:
            return _DOT, None  # numpy.dot's own case (N-D . 1-D or N-D . 2-D)
        if lhs_ndim == 1 and c == 0 and rhs_ndim > 2 and d == rhs_ndim - 2:
            return _MATMUL, None  # a vector times a stack of matrices
    if lhs_ndim == rhs_ndim == nb + 1 and c == d:  # no free dimensions: vecdot along c
        if lb == tuple(i for i in range(lhs_ndim) if i != c):
            return _VECDOT, (None if c == nb else c)
        return None, None
    if lb != tuple(range(nb)):
        return None, None
    if lhs_ndim == nb + 2 and c == nb + 1 and d == nb:
        if rhs_ndim == nb + 2:
            return _MATMUL, None
        if rhs_ndim == nb + 1:
            return _MATVEC, None
    if lhs_ndim == nb + 1 and rhs_ndim == nb + 2 and c == d == nb:
        return _VECMAT, None
    return None, None


def _vector_product(xp, form, axis, lhs, rhs):
    """``dot_general`` of the :func:`_form` ``form`` (``matvec``, ``vecmat``, ``vecdot``) by
    NumPy's (or CuPy's) own function, or None where ``xp`` has none. ``vecdot`` and
    ``vecmat`` conjugate their first operand, which a complex ``lhs`` undoes beforehand."""
    if form == _MATVEC:
        fn = getattr(xp, "matvec", None)
        return fn(lhs, rhs) if fn is not None else xp.matmul(lhs, rhs[..., None])[..., 0]
    fn = getattr(xp, "vecdot" if form == _VECDOT else "vecmat", None)
    if fn is None:
        return None
    if lhs.dtype.kind == "c":
        lhs = xp.conj(lhs)
    return fn(lhs, rhs) if axis is None else fn(lhs, rhs, axis=axis)


def _dot_general(xp, lhs, rhs, *, dimension_numbers, preferred_element_type, precision=None):
    if lhs.dtype != preferred_element_type:
        lhs = lhs.astype(preferred_element_type)
        rhs = rhs.astype(preferred_element_type)
    form, axis = _form(dimension_numbers, lhs.ndim, rhs.ndim)
    if form is not None:
        if form == _DOT:
            out = xp.dot(lhs, rhs)
        elif form == _MATMUL:
            out = xp.matmul(lhs, rhs)
        else:
            out = _vector_product(xp, form, axis, lhs, rhs)
        if out is not None:
            # (ml_dtypes' bfloat16 and float8 products other than dot return float32)
            return out.astype(preferred_element_type, copy=False)
    (lc, rc), (lb, rb) = dimension_numbers
    if not lc:
        # no contraction: the exact products, as numpy.outer computes them (BLAS adds each
        # product to a +0 accumulator, which turns -0.0 into +0.0)
        lfree = [i for i in range(lhs.ndim) if i not in lb]
        rfree = [i for i in range(rhs.ndim) if i not in rb]
        lt = xp.transpose(lhs, list(lb) + lfree)
        rt = xp.transpose(rhs, list(rb) + rfree)
        lt = lt.reshape(lt.shape + (1,) * len(rfree))
        rt = rt.reshape(rt.shape[:len(rb)] + (1,) * len(lfree) + rt.shape[len(rb):])
        return xp.multiply(lt, rt).astype(preferred_element_type, copy=False)
    if not lb:
        out = _contracted(xp, lhs, rhs, _contraction_plan(lhs.shape, rhs.shape, lc, rc))
        # (ml_dtypes' bfloat16 matmul returns float32: cast back)
        return out.astype(preferred_element_type, copy=False)
    lfree = [i for i in range(lhs.ndim) if i not in lc and i not in lb]
    rfree = [i for i in range(rhs.ndim) if i not in rc and i not in rb]
    batch_shape = [lhs.shape[i] for i in lb]
    lfree_shape = [lhs.shape[i] for i in lfree]
    rfree_shape = [rhs.shape[i] for i in rfree]
    k = math.prod(lhs.shape[i] for i in lc)
    b = math.prod(batch_shape)
    m = math.prod(lfree_shape)
    n = math.prod(rfree_shape)
    lt = xp.transpose(lhs, list(lb) + lfree + list(lc)).reshape(b, m, k)
    rt = xp.transpose(rhs, list(rb) + list(rc) + rfree).reshape(b, k, n)
    out = xp.matmul(lt, rt)
    out = out.reshape(batch_shape + lfree_shape + rfree_shape)
    return out.astype(preferred_element_type, copy=False)


def _contraction_plan(lshape, rshape, lc, rc):
    """numpy.tensordot's steps for a contraction with no batch dimension: the operands'
    transpositions, their 2-D shapes and the result's shape."""
    lfree = [i for i in range(len(lshape)) if i not in lc]
    rfree = [i for i in range(len(rshape)) if i not in rc]
    lout, rout = [lshape[i] for i in lfree], [rshape[i] for i in rfree]
    k = math.prod(lshape[i] for i in lc)
    return (lfree + list(lc), (math.prod(lout), k), list(rc) + rfree, (k, math.prod(rout)),
            lout + rout)


def _contracted(xp, lhs, rhs, plan):
    """``numpy.tensordot``'s product along ``plan`` (:func:`_contraction_plan`), without
    its argument handling: the same ``dot`` of the same 2-D operands."""
    lperm, lshape, rperm, rshape, out_shape = plan
    return xp.dot(lhs.transpose(lperm).reshape(lshape),
                  rhs.transpose(rperm).reshape(rshape)).reshape(out_shape)


def dot_general_kernel(xp, operand=None, second=None, *, dimension_numbers,
                       preferred_element_type, precision=None):
    """``dot_general`` with these parameters as a function of its two operands alone, the
    call a recorded program makes (``kernel_of``; ``operand``: the recorded lhs, whose dtype
    the signature fixes, as the rhs's, equal to it): where the operands have the dtype
    ``preferred_element_type``, one of NumPy's own dtypes, with no contracting or batch
    dimension, NumPy's ``multiply.outer`` itself (the exact products, no Python frame);
    where :func:`_form` names NumPy's product for their ranks, that product and nothing
    else (with ``second``, the recorded rhs, of that dtype too: ``dot`` or ``matmul``
    itself, decided once); otherwise :func:`_dot_general`.
    """
    params = {"dimension_numbers": dimension_numbers,
              "preferred_element_type": preferred_element_type, "precision": precision}
    dot, matmul, matvec = xp.dot, xp.matmul, getattr(xp, "matvec", None)
    vecdot, vecmat = getattr(xp, "vecdot", None), getattr(xp, "vecmat", None)
    # (vecdot and vecmat conjugate their first operand: a complex one is conjugated first)
    conj = xp.conj if preferred_element_type.kind == "c" else None
    # (ml_dtypes' floats, kind 'V': its gufuncs return float32, which _dot_general casts)
    own = preferred_element_type if preferred_element_type.kind in "biufc" else None
    outer = getattr(xp.multiply, "outer", None)
    if (outer is not None and operand is not None and own is not None
            and operand.dtype == own and dimension_numbers == (((), ()), ((), ()))):
        return outer

    if (operand is not None and second is not None and own is not None
            and operand.dtype == own and second.dtype == own):
        form, _ = _form(dimension_numbers, operand.ndim, second.ndim)
        if form == _DOT:
            return dot
        if form == _MATMUL:
            return matmul

    contraction = bool(dimension_numbers[0][0]) and not dimension_numbers[1][0]
    plans: dict = {}

    def kernel(lhs, rhs):
        if lhs.dtype is own:
            form, axis = _form(dimension_numbers, lhs.ndim, rhs.ndim)
            if form == _DOT:
                return dot(lhs, rhs)
            if form == _MATMUL:
                return matmul(lhs, rhs)
            if form == _VECDOT and vecdot is not None:
                lhs = lhs if conj is None else conj(lhs)
                return vecdot(lhs, rhs) if axis is None else vecdot(lhs, rhs, axis=axis)
            if form == _MATVEC and matvec is not None:
                return matvec(lhs, rhs)
            if form == _VECMAT and vecmat is not None:
                return vecmat(lhs if conj is None else conj(lhs), rhs)
            if contraction:  # (a program serves one signature: one plan, made once)
                plan = plans.get((lhs.shape, rhs.shape))
                if plan is None:
                    plan = plans[(lhs.shape, rhs.shape)] = _contraction_plan(
                        lhs.shape, rhs.shape, *dimension_numbers[0])
                return _contracted(xp, lhs, rhs, plan)
        return _dot_general(xp, lhs, rhs, **params)

    return kernel


XP_IMPLS[lax.dot_general_p] = _dot_general
