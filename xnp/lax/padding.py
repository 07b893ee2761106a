"""``pad`` (edge padding, negative edges crop, and interior padding with a scalar) and
``concatenate`` (whose transpose crops the cotangent: a ``pad`` with negative edges).

Above :mod:`xnp.lax.shape_ops`, :mod:`xnp.lax.elementwise` and :mod:`xnp.lax.products`,
whose functions its rules use: ``pad`` is linear jointly in the operand and the
padding value; the operand's cotangent crops the cotangent back (``pad`` with negated
edges, then a reshape that drops the interior entries), the padding value's is a
full contraction of the cotangent with the 0/1 padding mask; a padding value per
batch member is selected at the padding positions.
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _rules as R
from xnp.lax import _kit as kit
from xnp.lax.products import dot_general
from xnp.lax.elementwise import select_n
from xnp.lax.shape_ops import (
    _avals_str, _bind, _same_weak_as_operand, bdim_to_front, broadcast_in_dim, reshape,
)
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.batching import moveaxis

__all__ = ["pad", "concatenate", "pad_p", "concatenate_p"]


# --------------------------------------------------------------------------- concatenate


def _concatenate_shape(*xs: ShapedArray, dimension):
    name = "concatenate"
    if not xs:
        raise TypeError(f"xnp.lax.{name}: needs at least one operand.")
    nd = xs[0].ndim
    if any(x.ndim != nd for x in xs):
        raise TypeError(f"xnp.lax.{name}: operands must have equal ranks, got {_avals_str(*xs)}.")
    if not 0 <= dimension < nd:
        raise ValueError(
            f"xnp.lax.{name}: dimension={dimension} is out of range for operands "
            f"{_avals_str(*xs)}.")
    for i in range(nd):
        if i != dimension and any(x.shape[i] != xs[0].shape[i] for x in xs):
            raise TypeError(
                f"xnp.lax.{name}: operand shapes must match except along dimension "
                f"{dimension}, got {_avals_str(*xs)}.")
    shape = list(xs[0].shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return tuple(shape)


def _concatenate_dtype(*xs: ShapedArray, dimension):
    return kit.same_dtype("concatenate", *xs)


def _crop(x, dimension: int, start: int, stop: int):
    """``x[..., start:stop, ...]`` along ``dimension``, as a ``pad`` with negative edges (so the
    transposes of this family need no other family and differentiate again)."""
    a = core.aval_of(x)
    config = [(0, 0, 0)] * a.ndim
    config[dimension] = (-start, stop - a.shape[dimension], 0)
    return pad(x, np.zeros((), a.dtype), tuple(config))


def _concatenate_transpose(ct, *xs, dimension):
    cts, start = [], 0
    for x in xs:
        stop = start + R.aval(x).shape[dimension]
        cts.append(_crop(ct, dimension, start, stop) if R.is_undefined(x) else None)
        start = stop
    return cts


def _concatenate_batch(vals, dims, *, dimension):
    size = R.batch_size(vals, dims)
    xs = [bdim_to_front(v, d, size) for v, d in zip(vals, dims)]
    return concatenate_p.bind(*xs, dimension=dimension + 1), 0


concatenate_p = kit.primitive("concatenate", linear=True, shape=_concatenate_shape,
                              dtype=_concatenate_dtype,
                              transpose=R.zero_ct_passthrough(_concatenate_transpose),
                              batch=_concatenate_batch, jvp=R.linear_nary_jvp)


def concatenate(operands, dimension: int) -> Array:
    """Join ``operands`` (equal dtypes and ranks >= 1) along ``dimension``.

    Shape: equal to the operands' except along ``dimension``, where the sizes
    add. Weak iff every operand is weak. Eagerly a new array.

    Raises
    ------
    TypeError
        Dtypes, ranks or the other dims differ (names all operand avals).
    ValueError
        ``dimension`` is out of range.
    """
    operands = list(operands)
    dim = operator.index(dimension)
    return _bind(concatenate_p, *operands, dimension=dim)



def _pad_shape(x: ShapedArray, pv: ShapedArray, *, padding_config):
    name = "pad"
    if pv.ndim != 0:
        raise TypeError(
            f"xnp.lax.{name}: padding_value must be a scalar, got {errors.aval_str(pv)} "
            f"(operand {errors.aval_str(x)}).")
    if len(padding_config) != x.ndim:
        raise ValueError(
            f"xnp.lax.{name}: padding_config has {len(padding_config)} entries, operand "
            f"{errors.aval_str(x)} has rank {x.ndim}.")
    out = []
    for i, ((lo, hi, interior), n) in enumerate(zip(padding_config, x.shape)):
        if interior < 0:
            raise ValueError(
                f"xnp.lax.{name}: interior padding must be >= 0, got {interior} for dimension "
                f"{i} (padding_config={padding_config}, operand {errors.aval_str(x)}).")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(
                f"xnp.lax.{name}: dimension {i} would have negative size {size} "
                f"(padding_config={padding_config}, operand {errors.aval_str(x)}).")
        out.append(size)
    return tuple(out)


def _pad_dtype(x: ShapedArray, pv: ShapedArray, *, padding_config):
    return kit.same_dtype("pad", x, pv)


def _unpad(ct, shape, padding_config):
    """The transpose of ``pad`` in the operand: the entries of ``ct`` at the operand's
    positions (zeros where ``pad`` cropped operand entries away)."""
    a = core.aval_of(ct)
    zero = np.zeros((), a.dtype)
    # 1. undo the edges: negated edge padding (an edge that cropped comes back as zeros)
    ct = pad(ct, zero, tuple((-lo, -hi, 0) for lo, hi, _ in padding_config))
    # 2. undo interior padding: each dim now has n + (n - 1) * interior entries; pad to
    # n * (interior + 1), split into (n, interior + 1) and keep column 0
    strided = [it > 0 and n > 1 for (_, _, it), n in zip(padding_config, shape)]
    if not any(strided):
        return ct
    grow, split, keep_first = [], [], []
    for (_, _, it), n, s in zip(padding_config, shape, strided):
        grow.append((0, it if s else 0, 0))
        split += [n, it + 1] if s else [n]
        keep_first += [(0, 0, 0), (0, -it, 0)] if s else [(0, 0, 0)]
    ct = pad(ct, zero, tuple(grow))
    ct = pad(reshape(ct, tuple(split)), zero, tuple(keep_first))
    return reshape(ct, shape)


def _pad_jvp(primals, tangents, *, padding_config):
    # linear jointly in (operand, padding_value); a zero padding-value tangent is a literal 0
    (x, pv), (tx, tpv) = primals, tangents
    out = pad_p.bind(x, pv, padding_config=padding_config)
    if type(tx) is R.Zero and type(tpv) is R.Zero:
        return out, R.zero_like(out)
    dt = core.aval_of(out).dtype
    tpv = np.zeros((), dt) if type(tpv) is R.Zero else tpv
    return out, pad_p.bind(R.instantiate(tx), tpv, padding_config=padding_config)


def _pad_transpose(ct, x, padding_value, *, padding_config):
    shape = R.aval(x).shape
    ct_x = _unpad(ct, shape, padding_config) if R.is_undefined(x) else None
    ct_pv = None
    if R.is_undefined(padding_value):
        # the padding value's cotangent is the sum of ct over the padding positions: a full
        # contraction with the 0/1 padding mask (linear in ct, no subtraction needed)
        dt = core.aval_of(ct).dtype
        mask = pad(broadcast_in_dim(np.zeros((), dt), shape, ()), np.ones((), dt), padding_config)
        every = tuple(range(len(shape)))
        ct_pv = dot_general(ct, mask, ((every, every), ((), ())))
    return [ct_x, ct_pv]


def _pad_batch(vals, dims, *, padding_config):
    (x, pv), (dx, dpv) = vals, dims
    if dpv is None:  # one padding value: pad the batch axis by nothing, in place
        config = padding_config[:dx] + ((0, 0, 0),) + padding_config[dx:]
        return pad_p.bind(x, pv, padding_config=config), dx
    # a padding value per batch member: pad with zeros, then select it at the padding positions
    size = R.batch_size(vals, dims)
    x = bdim_to_front(x, dx, size)
    a = core.aval_of(x)
    config = ((0, 0, 0),) + padding_config
    out = pad_p.bind(x, np.zeros((), a.dtype), padding_config=config)
    out_shape = core.aval_of(out).shape
    mask = pad(broadcast_in_dim(np.False_, a.shape[1:], ()), np.True_, padding_config)
    mask = broadcast_in_dim(mask, out_shape, tuple(range(1, len(out_shape))))
    pv = broadcast_in_dim(moveaxis(pv, dpv, 0), out_shape, (0,))
    return select_n(mask, out, pv), 0


pad_p = kit.primitive("pad", linear=True, shape=_pad_shape, dtype=_pad_dtype,
                      weak_type=_same_weak_as_operand, jvp=_pad_jvp,
                      transpose=R.zero_ct_passthrough(_pad_transpose), batch=_pad_batch)


def pad(operand: Array, padding_value: Array, padding_config) -> Array:
    """Pad ``operand`` with the scalar ``padding_value`` (same dtype).

    ``padding_config`` has one ``(low, high, interior)`` triple per dimension:
    ``low``/``high`` elements before/after (negative values remove elements),
    ``interior`` elements between neighbours (>= 0). Result dim size:
    ``low + high + n + max(n - 1, 0) * interior``. Weak iff the operand is
    weak. Eagerly a new array.

    Raises
    ------
    TypeError
        Non-scalar or differently typed ``padding_value``.
    ValueError
        Wrong number of triples, negative interior padding, or a negative
        result size.
    """
    try:
        config = tuple((operator.index(lo), operator.index(hi), operator.index(it))
                       for lo, hi, it in padding_config)
    except (TypeError, ValueError):
        raise TypeError(
            "xnp.lax.pad: `padding_config` must be a sequence of (low, high, interior) int "
            f"triples, got {padding_config!r}") from None
    return _bind(pad_p, operand, padding_value, padding_config=config)
