"""Cumulative primitives along one axis: ``cumsum``, ``cumprod``, ``cummax``, ``cummin``
and ``cumlogsumexp`` (params ``axis``: a non-negative int, ``reverse``: bool), and
:func:`associative_scan`, the parallel prefix scan they are differentiated with.

Strict, like all of lax: the result has the operand's shape and dtype (no
accumulation upcast; ``xnp.cumsum`` decides the accumulator dtype). Semantics
follow NumPy's ``ufunc.accumulate`` (``numpy.cumsum``, ``numpy.maximum.accumulate``,
``numpy.logaddexp.accumulate``): integers wrap around, ``cummax``/``cummin``
propagate NaN from its first occurrence on. ``reverse=True`` accumulates from the
end (``flip(cum(flip(x)))``).

Transformation rules: ``cumsum`` is linear (its transpose is the cumsum in the
other direction). The others differentiate as JAX does: the jvp is an
:func:`associative_scan` over (primal, tangent) pairs with the tangent combine
written out (``cumprod``: ``ta * b + a * tb``, exact at zeros; ``cummax``/``cummin``:
the tangent at the running extremum, on ties the later position in scan order,
after a NaN the first NaN's; ``cumlogsumexp``: the softmax-weighted tangents, 1/2
each where the two values are equal, incl. both infinite). The scan uses
``pad``/``reshape``/``concatenate`` and elementwise ops, so the tangent is
transposable and batchable. Batching shifts ``axis`` past the batch axis.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.lax.padding import concatenate, pad
from xnp.lax.windowed import strided_window_slice
from xnp.tracing import Array, Primitive, ShapedArray, core, errors
from xnp.tracing.ad import Zero, instantiate, tangent_aval
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = [
    "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "associative_scan",
    "cumsum_p", "cumprod_p", "cummax_p", "cummin_p", "cumlogsumexp_p", "log_add_exp",
]


# --------------------------------------------------------------------------- associative scan


def _strided(x, axis: int, start: int, count: int, stride: int = 2):
    """``count`` elements of ``x`` along ``axis`` from ``start`` every ``stride``."""
    a = core.aval_of(x)
    starts = [0] * a.ndim
    strides = [1] * a.ndim
    counts = list(a.shape)
    starts[axis], strides[axis], counts[axis] = start, stride, count
    return strided_window_slice(x, tuple(starts), tuple(strides), tuple(counts))


def _interleave(even, odd, axis: int, n: int):
    """``even[0], odd[0], even[1], ...`` along ``axis`` (``n`` elements in all)."""
    a = core.aval_of(even)
    ne, no = a.shape[axis], core.aval_of(odd).shape[axis]
    if no < ne:  # odd n: one more even element; pad odd (the extra slot is cropped)
        config = [(0, 0, 0)] * a.ndim
        config[axis] = (0, 1, 0)
        odd = pad(odd, np.zeros((), a.dtype), tuple(config))
    split = a.shape[: axis + 1] + (1,) + a.shape[axis + 1:]
    both = concatenate([shape_ops.reshape(even, split), shape_ops.reshape(odd, split)],
                                 axis + 1)
    full = a.shape[:axis] + (2 * ne,) + a.shape[axis + 1:]
    out = shape_ops.reshape(both, full)
    if 2 * ne != n:
        config = [(0, 0, 0)] * a.ndim
        config[axis] = (0, n - 2 * ne, 0)
        out = pad(out, np.zeros((), a.dtype), tuple(config))
    return out


def _scan_lists(fn, elems: list, axis: int) -> list:
    n = core.aval_of(elems[0]).shape[axis]
    if n < 2:
        return elems
    half = n // 2
    reduced = fn([_strided(e, axis, 0, half) for e in elems],
                 [_strided(e, axis, 1, half) for e in elems])
    odd = _scan_lists(fn, reduced, axis)
    rest = (n + 1) // 2 - 1  # elements 2, 4, ...
    if n % 2 == 0:
        even = fn([_strided(e, axis, 0, rest, 1) for e in odd],
                  [_strided(e, axis, 2, rest) for e in elems])
    else:
        even = fn(odd, [_strided(e, axis, 2, rest) for e in elems])
    even = [concatenate([_strided(e, axis, 0, 1, 1), r], axis)
            for e, r in zip(elems, even)]
    return [_interleave(e, o, axis, n) for e, o in zip(even, odd)]


def associative_scan(fn, elems, reverse: bool = False, axis: int = 0):
    """Inclusive scan of ``elems`` along ``axis`` with the associative ``fn``.

    ``elems`` is an array or a pytree of arrays with equal length along ``axis``;
    ``fn(a, b)`` combines two pytrees like ``elems`` elementwise (``a`` holds the
    earlier elements) and must be associative. The work is O(n) in O(log n)
    levels (the Blelloch/Ladner-Fischer recursion JAX uses), written with
    ``pad``/``reshape``/``concatenate`` and ``fn`` only, so it has every
    transformation rule that ``fn`` has. ``reverse=True`` scans from the end.

    Raises
    ------
    ValueError
        The leaves differ in length along ``axis`` or ``axis`` is out of range.
    """
    leaves, tree = tree_flatten(elems)
    if not leaves:
        return elems
    nd = core.aval_of(leaves[0]).ndim
    if not -nd <= axis < nd:
        raise ValueError(f"xnp.lax.associative_scan: axis {axis} is out of range for rank {nd}.")
    axis = axis % nd
    lengths = {core.aval_of(x).shape[axis] for x in leaves}
    if len(lengths) != 1:
        raise ValueError(f"xnp.lax.associative_scan: the elements differ in length along axis "
                         f"{axis}: {sorted(lengths)}.")

    def flat_fn(a, b):
        out = fn(tree_unflatten(tree, a), tree_unflatten(tree, b))
        return tree_flatten(out)[0]

    if reverse:
        leaves = [shape_ops.rev(x, (axis,)) for x in leaves]
    out = _scan_lists(flat_fn, leaves, axis)
    if reverse:
        out = [shape_ops.rev(x, (axis,)) for x in out]
    return tree_unflatten(tree, out)


# --------------------------------------------------------------------------- the family


def _canonical_axis(name: str, x, axis) -> int:
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"xnp.lax.{name}: `axis` must be an int, got {axis!r}") from None
    nd = core.aval_of(x).ndim
    return axis + nd if -nd <= axis < 0 else axis


def _cumulative(name: str, accept, linear: bool = False, **rules) -> Primitive:
    def shape(x: ShapedArray, *, axis: int, reverse: bool):
        if not 0 <= axis < x.ndim:
            raise ValueError(f"xnp.lax.{name}: axis {axis} is out of range for the operand "
                             f"{errors.aval_str(x)} (needs 0 <= axis < {x.ndim}).")
        return x.shape

    def dtype(x: ShapedArray, *, axis: int, reverse: bool):
        kit.check_dtype(name, x, accept)
        return x.dtype

    def batch(vals, dims, *, axis: int, reverse: bool):
        (x,), (d,) = vals, dims
        return prim.bind(x, axis=axis + (d <= axis), reverse=reverse), d

    prim = kit.primitive(name, shape=shape, dtype=dtype, batch=batch, linear=linear, **rules)
    return prim


@R.rule_kit
def _scan_jvp(prim, combine):
    """jvp by an associative scan over (primal, tangent) pairs; ``combine(a, ta, b, tb)``
    returns ``(out, t_out)`` with ``t_out`` linear in ``ta``, ``tb``."""

    def jvp(primals, tangents, *, axis, reverse):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axis=axis, reverse=reverse)
        if type(t) is Zero:
            return out, Zero(tangent_aval(core.aval_of(out)))

        def fn(p, q):
            return combine(p[0], p[1], q[0], q[1])

        _, t_out = associative_scan(fn, (x, instantiate(t)), reverse=reverse, axis=axis)
        return out, t_out

    return jvp


# cumsum ---------------------------------------------------------------------------------


def _cumsum_transpose(ct, x, *, axis, reverse):
    return [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]


cumsum_p = _cumulative("cumsum", kit.NUMERIC, linear=True,
                       jvp=R.linear_unary_jvp, transpose=R.zero_ct_passthrough(_cumsum_transpose))


def cumsum(operand: Array, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative sum of ``operand`` along ``axis`` (negative counts from the end).

    Shape and dtype: the operand's (numeric; no accumulation upcast, integers wrap;
    float16 rounds after every step, as NumPy's ``add.accumulate``).
    ``reverse=True`` sums from the end.

    Raises
    ------
    TypeError
        Bool operand or non-int ``axis``.
    ValueError
        ``axis`` out of range (also for rank-0 operands).
    """
    return cumsum_p.bind(operand, axis=_canonical_axis("cumsum", operand, axis),
                         reverse=bool(reverse))


# cumprod --------------------------------------------------------------------------------


def _prod_combine(a, ta, b, tb):
    return ew.mul(a, b), ew.add(ew.mul(ta, b), ew.mul(a, tb))


cumprod_p = _cumulative("cumprod", kit.NUMERIC, jvp=_scan_jvp(_prod_combine))


def cumprod(operand: Array, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative product along ``axis``; as :func:`cumsum` otherwise (integers wrap)."""
    return cumprod_p.bind(operand, axis=_canonical_axis("cumprod", operand, axis),
                          reverse=bool(reverse))


# cummax / cummin ------------------------------------------------------------------------


def _chooser_combine(kind: str):
    pick = ew.max if kind == "max" else ew.min
    better = ew.gt if kind == "max" else ew.lt

    def combine(a, ta, b, tb):
        keep_a = better(a, b)
        if core.aval_of(a).dtype in kit.INEXACT:
            keep_a = ew.or_(keep_a, ew.ne(a, a))  # the earlier NaN is the one that propagates
        return pick(a, b), ew.select(keep_a, ta, tb)

    return combine


cummax_p = _cumulative("cummax", kit.REAL_OR_BOOL, jvp=_scan_jvp(_chooser_combine("max")))
cummin_p = _cumulative("cummin", kit.REAL_OR_BOOL, jvp=_scan_jvp(_chooser_combine("min")))


def cummax(operand: Array, axis: int = 0, reverse: bool = False) -> Array:
    """Running maximum along ``axis`` (real or bool); NaN propagates from its first
    occurrence on, as ``numpy.maximum.accumulate``. Shape and dtype: the operand's."""
    return cummax_p.bind(operand, axis=_canonical_axis("cummax", operand, axis),
                         reverse=bool(reverse))


def cummin(operand: Array, axis: int = 0, reverse: bool = False) -> Array:
    """Running minimum along ``axis``; as :func:`cummax` otherwise."""
    return cummin_p.bind(operand, axis=_canonical_axis("cummin", operand, axis),
                         reverse=bool(reverse))


# cumlogsumexp ---------------------------------------------------------------------------


def log_add_exp(a, b, log1p_pow=None):
    """``log_B(B**a + B**b)`` (strict lax: equal dtypes, real floating) from
    ``log1p_pow(t) = log_B(1 + B**t)`` (default ``log1p(exp(t))``, base e); NumPy's
    algorithm, also used by ``xnp.logaddexp``/``xnp.logaddexp2``.

    ``a + log1p_pow(b - a)`` where ``a >= b``, else ``b + log1p_pow(a - b)``: each branch
    is exact for all ``a, b``, so at a tie (where the first is taken) derivatives of
    every order are right (``d/da = 1/2``, second ``ln(B)/4``). The branch not taken
    gets the exponent 0 (double where), so ``B**t`` overflowing there cannot turn the
    cotangent into NaN; equal infinities (``b - a`` NaN) take ``(a + b) / 2``, so
    their derivative splits 1/2 : 1/2 as at every other tie. NaN gives NaN.
    """
    if log1p_pow is None:
        def log1p_pow(t):
            return ew.log1p(ew.exp(t))
    dt = core.aval_of(a).dtype
    zero, half = np.asarray(0, dt), np.asarray(0.5, dt)
    first = ew.ge(a, b)  # False where either is NaN
    d = ew.sub(b, a)
    number = ew.eq(d, d)  # not NaN: no NaN operand and not inf - inf
    d1 = ew.select(ew.and_(first, number), d, zero)
    d2 = ew.select(first, zero, ew.neg(d))
    top = ew.select(number, a, ew.add(ew.mul(a, half), ew.mul(b, half)))
    return ew.select(first, ew.add(top, log1p_pow(d1)), ew.add(b, log1p_pow(d2)))


def _logaddexp_combine(a, ta, b, tb):
    # weights logistic(a - b), logistic(b - a): 1/2 each at a tie (also of equal
    # infinities), and differentiable again (second derivative 1/4 at a tie)
    dt = core.aval_of(a).dtype
    d = ew.sub(a, b)
    d = ew.select(ew.and_(ew.eq(a, b), ew.ne(d, d)), np.asarray(0, dt), d)
    out = log_add_exp(a, b)
    return out, ew.add(ew.mul(ta, ew.logistic(d)), ew.mul(tb, ew.logistic(ew.neg(d))))


cumlogsumexp_p = _cumulative("cumlogsumexp", kit.FLOATING, jvp=_scan_jvp(_logaddexp_combine))


def cumlogsumexp(operand: Array, axis: int = 0, reverse: bool = False) -> Array:
    """``log(cumsum(exp(operand)))`` along ``axis`` without overflow (floating), as
    ``numpy.logaddexp.accumulate``. Shape and dtype: the operand's."""
    return cumlogsumexp_p.bind(operand, axis=_canonical_axis("cumlogsumexp", operand, axis),
                               reverse=bool(reverse))
