"""Lowering rules of the sorting primitives: ``stablehlo.sort`` with an explicit
comparator region over integer keys.

NumPy's order is spelled out as keys instead of using XLA's ``TOTALORDER`` (which
orders ``-NaN`` first and ``-0.0 < 0.0``) or floating comparisons (XLA:CPU runs with
denormals-are-zero, so a comparison sees every subnormal as zero and a sort by it
returns subnormals out of order). A floating key becomes its bits as an integer,
ordered like the values (``_flip_negative``), with ``-0.0`` mapped to ``0.0``'s key
and every NaN to the largest key: NaN sorts last and ``-0.0``/``0.0`` tie (keeping
their input order under ``is_stable``), and subnormals sort by value. Complex keys
are ``(isnan(re), isnan(im), re, im)``, NumPy's order; several keys compare
lexicographically. The keys are computed once before the sort, which carries the
original operands along. A single floating operand without ``-0.0`` and non-canonical
NaNs (checked at run time) is sorted as its bits alone, which is exact and several
times faster on XLA:CPU. ``top_k`` is a stable sort of (values, iota) with the
mirrored comparator (NaN largest), cut to ``k`` (not ``chlo.top_k``, whose total
order would split ``-0.0``/``0.0`` ties; it is no faster on CPU). ``searchsorted`` is
a branchless binary search loop of gathers of the same keys.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import i64_array, lowering
from xnp.backends.xla.lowering.windowed import binop, compare, select
from xnp.lax import _kit as kit
from xnp.tracing.avals import ShapedArray

__all__: list = []

_INT_OF = {1: np.dtype(np.int8), 2: np.dtype(np.int16), 4: np.dtype(np.int32),
           8: np.dtype(np.int64)}


def _or(b, x, y):
    return binop(b, "stablehlo.or", x, y)


def _and(b, x, y):
    return binop(b, "stablehlo.and", x, y)


def _not(b, x):
    return b.op("stablehlo.not", [x], [x.aval])[0]


def _full_like(b, value, aval):
    c = b.constant(np.asarray(value, aval.dtype))
    if not aval.shape:
        return c
    return b.op("stablehlo.broadcast_in_dim", [c], [aval],
                "broadcast_dimensions = array<i64>")[0]


def _flip_negative(b, v, int_dtype):
    """``v ^ ((v >> (bits - 1)) & INT_MAX)``: float bits as integers ordered like the floats
    (an involution, so it also maps sorted keys back)."""
    bits = 8 * int_dtype.itemsize
    sign = binop(b, "stablehlo.shift_right_arithmetic", v, _full_like(b, bits - 1, v.aval))
    mask = binop(b, "stablehlo.and", sign, _full_like(b, np.iinfo(int_dtype).max, v.aval))
    return binop(b, "stablehlo.xor", v, mask)


def _float_key(b, x):
    """An integer array ordered (and tied) as NumPy sorts the floats ``x``: the ordered
    bits, ``-0.0`` as ``0.0``, every NaN as the largest integer. Exact for subnormals,
    which a floating comparison on XLA:CPU sees as zero."""
    it = _INT_OF[x.aval.dtype.itemsize]
    iaval = x.aval.update(dtype=it, weak_type=False)
    key = _flip_negative(b, b.op("stablehlo.bitcast_convert", [x], [iaval])[0], it)
    minus_zero = compare(b, key, _full_like(b, -1, iaval), "EQ")  # only -0.0 maps to -1
    key = select(b, minus_zero, _full_like(b, 0, iaval), key)
    return select(b, compare(b, x, x, "NE"), _full_like(b, np.iinfo(it).max, iaval), key)


def _order_keys(b, x):
    """Arrays whose lexicographic order (bool: False first) is NumPy's order of ``x``."""
    dt = x.aval.dtype
    if dt in kit.COMPLEX:
        # NumPy's complex order [R + Rj, R + nanj, nan + Rj, nan + nanj]: lexicographic in
        # (isnan(re), isnan(im), re, im), so -inf + nanj sorts after every non-NaN value
        part = x.aval.update(dtype=np.finfo(dt).dtype)
        re, im = (b.op(f"stablehlo.{p}", [x], [part])[0] for p in ("real", "imag"))
        return [compare(b, re, re, "NE"), compare(b, im, im, "NE"),
                _float_key(b, re), _float_key(b, im)]
    if dt in kit.FLOATING:
        return [_float_key(b, x)]
    return [x]


def _lexicographic(b, pairs, direction="LT"):
    """``(before, tie)`` of the integer or bool key tuples ``pairs``
    (``[(x_key, y_key), ...]``, the first the most significant)."""
    before, tie = None, None
    for x, y in reversed(pairs):
        b_k, t_k = compare(b, x, y, direction), compare(b, x, y, "EQ")
        if before is None:
            before, tie = b_k, t_k
        else:
            before, tie = _or(b, b_k, _and(b, t_k, before)), _and(b, t_k, tie)
    return before, tie


def _before_and_tie(b, x, y, direction="LT"):
    """``(x sorts before y, x ties with y)`` elementwise for values of one dtype in NumPy's
    order (``direction="GT"``: the descending order, NaN first)."""
    return _lexicographic(b, list(zip(_order_keys(b, x), _order_keys(b, y))), direction)


def _comparator(num_keys: int, direction: str = "LT"):
    def body(b, *args):
        pairs = [(args[2 * i], args[2 * i + 1]) for i in range(num_keys)]
        return [_lexicographic(b, pairs, direction)[0]]

    return body


def _sort_raw(b, operands, dimension, is_stable, num_keys, direction="LT"):
    """``stablehlo.sort`` by the first ``num_keys`` operands, integer or bool keys only."""
    scalars = []
    for v in operands:
        s = ShapedArray((), v.aval.dtype)
        scalars += [s, s]
    region = b.region(scalars, _comparator(num_keys, direction))
    stable = "true" if is_stable else "false"
    return b.op("stablehlo.sort", list(operands), [v.aval for v in operands],
                attrs=f"dimension = {dimension} : i64, is_stable = {stable}", regions=[region])


def _sort(b, operands, dimension, is_stable, num_keys, direction="LT"):
    """``stablehlo.sort`` emitted with the builder ``b`` (a function or region body) in
    NumPy's order of the first ``num_keys`` operands: inexact keys are replaced by their
    ``_order_keys`` and travel along as payloads."""
    keys, payloads, slots = [], [], []
    for i, v in enumerate(operands[:num_keys]):
        if v.aval.dtype in kit.INEXACT:
            keys += _order_keys(b, v)
            slots.append(("payload", len(payloads)))
            payloads.append(v)
        else:
            slots.append(("key", len(keys)))
            keys.append(v)
    rest = list(operands[num_keys:])
    out = _sort_raw(b, keys + rest + payloads, dimension, is_stable, len(keys), direction)
    first_payload = len(keys) + len(rest)
    picked = [out[i] if kind == "key" else out[first_payload + i] for kind, i in slots]
    return picked + out[len(keys):first_payload]


def _float_sort(ctx, x, dimension):
    """One floating operand: when it holds no ``-0.0`` and only the canonical NaN (checked
    at run time), sorting the bits as integers (one compare per step, no stability needed
    since equal keys are identical) gives NumPy's order bit-exactly and is several times
    faster on XLA:CPU; otherwise the stable sort by ``_float_key`` runs."""
    aval = x.aval
    it = _INT_OF[aval.dtype.itemsize]
    iaval = aval.update(dtype=it, weak_type=False)
    b = ctx.b
    bits = b.op("stablehlo.bitcast_convert", [x], [iaval])[0]
    nan_bits = np.asarray(np.nan, aval.dtype).view(it)

    def full(value, dtype):
        c = b.constant(np.asarray(value, dtype))
        return ctx.broadcast_in_dim(c, aval.shape, ())

    neg_zero = compare(b, bits, full(np.iinfo(it).min, it), "EQ")
    is_nan = compare(b, x, x, "NE")
    odd_nan = _and(b, is_nan, compare(b, bits, full(nan_bits, it), "NE"))
    special = _or(b, neg_zero, odd_nan)
    scalar = ShapedArray((), np.bool_)
    any_region = b.region([scalar, scalar], lambda rb, p, q: [_or(rb, p, q)])
    any_special = b.op("stablehlo.reduce", [special, b.constant(np.asarray(False))], [scalar],
                       f"dimensions = {i64_array(range(aval.ndim))}", [any_region])[0]

    def exact(rb):
        return _sort(rb, [x], dimension, True, 1)

    def fast(rb):
        key = _flip_negative(rb, bits, it)
        (srt,) = _sort_raw(rb, [key], dimension, False, 1)
        back = _flip_negative(rb, srt, it)
        return [rb.op("stablehlo.bitcast_convert", [back], [aval])[0]]

    return b.op("stablehlo.if", [any_special], [aval],
                regions=[b.region([], exact), b.region([], fast)])


@lowering(lax.sort_p)
def _lower_sort(ctx, *operands, dimension, is_stable, num_keys):
    aval = operands[0].aval
    if aval.size == 0 or aval.shape[dimension] <= 1:
        return list(operands)
    if len(operands) == 1 and aval.dtype in kit.FLOATING and aval.dtype.itemsize in _INT_OF:
        return _float_sort(ctx, operands[0], dimension)
    if len(operands) == 1 and aval.dtype in kit.INT_OR_BOOL:
        is_stable = False  # equal integers are identical: stability is unobservable
    return _sort(ctx.b, operands, dimension, is_stable, num_keys)


@lowering(lax.top_k_p)
def _lower_top_k(ctx, x, *, k, index_dtype):
    aval = x.aval
    vals_aval, idx_aval = ctx.avals_out
    if vals_aval.size == 0:
        return [ctx.broadcast_in_dim(ctx.constant(np.zeros((), a.dtype)), a.shape, ())
                for a in ctx.avals_out]
    nd = aval.ndim
    index = ctx.op("stablehlo.iota", [], aval.update(dtype=index_dtype, weak_type=False),
                   attrs=f"iota_dimension = {nd - 1} : i64")
    vals, idx = _sort(ctx.b, [x, index], nd - 1, True, 1, direction="GT")
    if k == aval.shape[-1]:
        return [vals, idx]
    attrs = (f"start_indices = {i64_array([0] * nd)}, "
             f"limit_indices = {i64_array(aval.shape[:-1] + (k,))}, "
             f"strides = {i64_array([1] * nd)}")
    return [ctx.op("stablehlo.slice", [vals], vals_aval, attrs=attrs),
            ctx.op("stablehlo.slice", [idx], idx_aval, attrs=attrs)]


_UNROLLED_SEARCH_MAX = 64  # queries up to which searchsorted's steps are unrolled


@lowering(lax.searchsorted_p)
def _lower_searchsorted(ctx, a, v, *, side, index_dtype):
    """Branchless binary search with the same step for every query, as a
    ``stablehlo.while``: ``base`` starts at 0 and ``length`` at ``n``; each step probes
    ``base + length // 2`` and moves ``base`` there where the probed value is still on
    the query's left, then removes ``length // 2`` from ``length``, until one candidate is
    left; a last probe at ``base`` decides between it and the next index. Only ``base``
    is carried per query and each step is one gather: of the sorted values' order keys
    computed once before the loop (as are the queries'), or, for few queries into many
    values, of the values, keyed after the gather. A loop, not unrolled steps:
    XLA:CPU runs each unrolled step as its own fusions, while the loop's body is
    compiled once. Indices are int32 when ``n`` fits."""
    (out_aval,) = ctx.avals_out
    n = a.aval.shape[-1]
    nb = a.aval.ndim - 1
    i64 = np.dtype(np.int64)
    it = np.dtype(np.int32) if n < 2 ** 31 - 1 else i64
    iaval = out_aval.update(dtype=it, weak_type=False)
    if n == 0:
        return [ctx.convert(ctx.broadcast_in_dim(ctx.constant(0, it), iaval.shape, ()),
                            index_dtype)]
    batch = ", ".join(str(d) for d in range(nb))
    batching = (f"operand_batching_dims = [{batch}], start_indices_batching_dims = [{batch}], "
                if nb else "")
    attrs = (f"dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = "
             f"[{nb}], {batching}start_index_map = [{nb}], index_vector_dim = {nb + 1}>, "
             f"indices_are_sorted = false, slice_sizes = {i64_array([1] * (nb + 1))}")
    idx_aval = iaval.update(shape=iaval.shape + (1,))
    v_keys = _order_keys(ctx.b, v)
    m = max(1, v.aval.size // max(1, int(np.prod(a.aval.shape[:-1], dtype=np.int64))))
    # the sorted values' keys once (n values) or the probed values' at each step (m per
    # step), whichever is less work
    keyed = n <= m * (n.bit_length() + 1)
    a_keys = _order_keys(ctx.b, a) if keyed else [a]
    n_keys = len(a_keys)

    def left_of_query(b, at, *keys):
        """Where the sorted value at ``at`` is on the query's left: ``a[at] < v``
        (``side='left'``) or ``not v < a[at]`` (``'right'``)."""
        index = b.op("stablehlo.reshape", [at], [idx_aval])[0]
        at_keys = [b.op("stablehlo.gather", [k, index], [k.aval.update(shape=iaval.shape)],
                        attrs)[0] for k in keys[:n_keys]]
        if not keyed:
            at_keys = _order_keys(b, at_keys[0])
        mine = keys[n_keys:]
        if side == "left":
            return _lexicographic(b, list(zip(at_keys, mine)))[0]
        return _not(b, _lexicographic(b, list(zip(mine, at_keys)))[0])

    base = ctx.broadcast_in_dim(ctx.constant(0, it), iaval.shape, ())
    steps = (n - 1).bit_length()  # length n -> n - n // 2 until 1: ceil(log2(n)) steps
    state = [ctx.constant(0, it), ctx.constant(n, it), base, *a_keys, *v_keys]
    avals = [x.aval for x in state]

    def cond(b, step, *rest):
        return [compare(b, step, b.constant(np.asarray(steps, it)), "LT")]

    def body(b, step, length, base, *keys):
        one = b.constant(np.asarray(1, it))
        half = b.op("stablehlo.shift_right_logical", [length, one], [length.aval])[0]
        probe = binop(b, "stablehlo.add", base, b.op(
            "stablehlo.broadcast_in_dim", [half], [iaval], "broadcast_dimensions = array<i64>")[0])
        base = select(b, left_of_query(b, probe, *keys), probe, base)
        return [binop(b, "stablehlo.add", step, one),
                binop(b, "stablehlo.subtract", length, half), base, *keys]

    if v.aval.size <= _UNROLLED_SEARCH_MAX:
        # few queries: each step's work is less than a loop iteration's own cost, so the
        # steps are unrolled with their (static) lengths
        length = n
        while length > 1:
            half = length // 2
            probe = binop(ctx.b, "stablehlo.add", base,
                          ctx.broadcast_in_dim(ctx.constant(half, it), iaval.shape, ()))
            base = select(ctx.b, left_of_query(ctx.b, probe, *a_keys, *v_keys), probe, base)
            length -= half
    else:
        results = ctx.ops("stablehlo.while", state, avals,
                          regions=[ctx.region(avals, cond), ctx.region(avals, body)])
        base = results[2]
    after = left_of_query(ctx.b, base, *a_keys, *v_keys)
    step = ctx.b.op("stablehlo.convert", [after], [iaval])[0]
    return [ctx.convert(binop(ctx.b, "stablehlo.add", base, step), index_dtype)]
