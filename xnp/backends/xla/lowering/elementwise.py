"""Lowering rules of the elementwise primitives.

Where XLA's op differs from the semantics ``xnp.lax`` documents (and the eager
backends implement), the rule adds the fix-up and says why:

* integer ``div``/``rem`` by zero: XLA gives -1 (all ones) / the dividend; xnp
  gives 0 (NumPy's answer) by dividing by 1 there and selecting 0.
* ``abs``/``sign`` of unsigned integers: StableHLO has no unsigned abs/sign.
* ``convert_element_type`` to bool is ``x != 0`` (as NumPy; also for complex; on
  the bits, as XLA's CPU compare flushes subnormals), complex to real keeps the
  real part. Floating (or complex, via its real part) to integer follows NumPy's
  x86-64 cast, not XLA's saturating convert; see ``_float_to_int``.
* ``select_n`` with an int32 ``which`` and more than two cases is a tree of
  ``compare LT`` + ``select`` (out-of-range indices clamp, as eagerly).

* XLA:CPU runs every executable with denormals-are-zero and flush-to-zero set (README,
  "Subnormal numbers under jit"); ``cbrt`` and ``atan2`` read the bits of a subnormal
  operand as well and return unrelated values (``cbrt(1e-45)`` -5.6e-16 in float32,
  ``atan2(1e-310, -2.5)`` -pi, ``power(1e-45, 0.5)`` 2.6e-23), so their operands are
  flushed explicitly first (``flush_subnormals``) and they give what the flushed value
  gives; ``asin(x)`` is ``x`` for ``|x| < sqrt(eps)`` (``chlo.asin`` halves ``x`` on the
  way, which flushes the smallest normals).
* ``sign(-0.0)`` is ``0.0`` (XLA: -0.0); ``maximum``/``minimum`` of real floats are
  ``select(x > y or isnan(x), x, y)``: NaN propagates and a tie (``-0.0``/``0.0``) gives
  the second operand, as NumPy's loops on x86-64 (XLA's op orders ``-0.0 < 0.0``).
* ``sinh``/``cosh`` of float32/float64 with ``|x| > 1`` are ``e * e / 2 -+ 1 / (2 e * e)``
  with ``e = exp(|x| / 2)`` (``chlo.sinh`` adds ``log(1/2)`` to ``x``, which rounds: 460
  ulp off at 710); integer ``pow`` is square-and-multiply over every exponent bit (XLA's
  is wrong for large exponents: ``uint8(3) ** 254`` gave 0, ``int8(0) ** 64`` 1).

Everything else maps to one StableHLO (or CHLO) op; XLA's shifts already give 0 / the
sign fill for counts outside ``[0, bits)``, as NumPy.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import FLOAT8, LOWERINGS, comparison_type, lowering
from xnp.lax import _kit as kit

__all__ = ["flush_subnormals"]


def _nary(hlo_name):
    def rule(ctx, *xs, **params):
        return [ctx.op(hlo_name, ctx.broadcast_operands(*xs))]

    return rule


for _prim, _name in [
    (lax.add_p, "stablehlo.add"),
    (lax.sub_p, "stablehlo.subtract"),
    (lax.mul_p, "stablehlo.multiply"),
    (lax.neg_p, "stablehlo.negate"),
    (lax.floor_p, "stablehlo.floor"),
    (lax.ceil_p, "stablehlo.ceil"),
    (lax.is_finite_p, "stablehlo.is_finite"),
    (lax.and_p, "stablehlo.and"),
    (lax.or_p, "stablehlo.or"),
    (lax.xor_p, "stablehlo.xor"),
    (lax.not_p, "stablehlo.not"),
    (lax.shift_left_p, "stablehlo.shift_left"),
    (lax.shift_right_arithmetic_p, "stablehlo.shift_right_arithmetic"),
    (lax.shift_right_logical_p, "stablehlo.shift_right_logical"),
    (lax.exp_p, "stablehlo.exponential"),
    (lax.log_p, "stablehlo.log"),
    (lax.expm1_p, "stablehlo.exponential_minus_one"),
    (lax.sqrt_p, "stablehlo.sqrt"),
    (lax.rsqrt_p, "stablehlo.rsqrt"),
    (lax.tanh_p, "stablehlo.tanh"),
    (lax.sin_p, "stablehlo.sine"),
    (lax.cos_p, "stablehlo.cosine"),
    (lax.tan_p, "stablehlo.tan"),
    (lax.acos_p, "chlo.acos"),
    (lax.atan_p, "chlo.atan"),
    (lax.asinh_p, "chlo.asinh"),
    (lax.acosh_p, "chlo.acosh"),
    (lax.atanh_p, "chlo.atanh"),
    (lax.logistic_p, "stablehlo.logistic"),
    (lax.real_p, "stablehlo.real"),
    (lax.imag_p, "stablehlo.imag"),
    (lax.complex_p, "stablehlo.complex"),
]:
    lowering(_prim)(_nary(_name))


@lowering(lax.log1p_p)
def _lower_log1p(ctx, x):
    # XLA's float64 log1p is up to 128 ulp off for x in [-0.4143, -0.358] (its other
    # inputs are within 2 ulp). There: log(u) + (x - (u - 1)) / u with u = 1 + x, where
    # u - 1 is exact (u is in [1/2, 2]) and the quotient corrects u's rounding (1 ulp).
    w = ctx.op("stablehlo.log_plus_one", [x])
    if x.aval.dtype != np.float64:
        return [w]
    shape = x.aval.shape
    one = _full(ctx, 1.0, x.aval.dtype, shape)
    u = ctx.op("stablehlo.add", [x, one])
    err = ctx.op("stablehlo.subtract", [x, ctx.op("stablehlo.subtract", [u, one])])
    v = ctx.op("stablehlo.add", [ctx.op("stablehlo.log", [u]), ctx.op("stablehlo.divide", [err, u])])
    lo = _compare_values(ctx, x, _full(ctx, -0.42, x.aval.dtype, shape), "GE")
    hi = _compare_values(ctx, x, _full(ctx, -0.35, x.aval.dtype, shape), "LE")
    band = ctx.op("stablehlo.and", [lo, hi], lo.aval)
    return [_select(ctx, band, v, w)]


@lowering(lax.bitcast_convert_type_p)
def _lower_bitcast(ctx, x, *, new_dtype):
    # no broadcasting: another bit width adds or consumes the trailing axis
    return [ctx.op("stablehlo.bitcast_convert", [x])]


def _full(ctx, value, dtype, shape):
    """A constant of ``shape`` filled with ``value`` (a scalar constant, broadcast)."""
    return ctx.full(value, dtype, shape)


def _compare_values(ctx, x, y, direction):
    attrs = (f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
             f"compare_type = #stablehlo<comparison_type {comparison_type(x.aval.dtype)}>")
    out = x.aval.update(dtype=np.dtype(np.bool_), weak_type=False)
    return ctx.op("stablehlo.compare", [x, y], out, attrs=attrs)


def _select(ctx, pred, on_true, on_false):
    return ctx.op("stablehlo.select", [pred, on_true, on_false], on_true.aval)


def _compare(direction):
    def rule(ctx, x, y):
        x, y = ctx.broadcast_operands(x, y)
        return [_compare_values(ctx, x, y, direction)]

    return rule


for _prim, _dir in [(lax.eq_p, "EQ"), (lax.ne_p, "NE"), (lax.lt_p, "LT"), (lax.le_p, "LE"),
                    (lax.gt_p, "GT"), (lax.ge_p, "GE")]:
    lowering(_prim)(_compare(_dir))


def _int_division(hlo_name):
    # NumPy: integer x / 0 and x % 0 are 0; XLA alone gives -1 (all ones) / x.
    def rule(ctx, x, y):
        x, y = ctx.broadcast_operands(x, y)
        dt = x.aval.dtype
        if dt.kind not in "iu":
            if y.const:
                # XLA's simplifier rewrites x / c as x * (1 / c), which rounds twice (3 / 5
                # gives 0.6000000000000001); NumPy divides. The barrier hides the constant.
                y = ctx.op("stablehlo.optimization_barrier", [y], y.aval)
            return [ctx.op(hlo_name, [x, y])]
        shape = x.aval.shape
        zero = _full(ctx, 0, dt, shape)
        is_zero = _compare_values(ctx, y, zero, "EQ")
        safe_y = _select(ctx, is_zero, _full(ctx, 1, dt, shape), y)
        q = ctx.op(hlo_name, [x, safe_y])
        return [_select(ctx, is_zero, zero, q)]

    return rule


lowering(lax.div_p)(_int_division("stablehlo.divide"))
lowering(lax.rem_p)(_int_division("stablehlo.remainder"))


@lowering(lax.abs_p)
def _lower_abs(ctx, x):
    if x.aval.dtype.kind == "u":
        return [x]  # StableHLO has no unsigned abs; |x| == x
    return [ctx.op("stablehlo.abs", [x])]


@lowering(lax.sign_p)
def _lower_sign(ctx, x):
    dt = x.aval.dtype
    if dt.kind == "u":  # StableHLO has no unsigned sign: (x != 0) as 0/1
        zero = _full(ctx, 0, dt, x.aval.shape)
        return [_select(ctx, _compare_values(ctx, x, zero, "NE"),
                        _full(ctx, 1, dt, x.aval.shape), zero)]
    if dt.kind == "c":
        return [_complex_sign(ctx, x)]
    s = ctx.op("stablehlo.sign", [x])
    if dt.kind in "iu":
        return [s]
    zero = _full(ctx, 0, dt, x.aval.shape)  # sign(-0.0) is 0.0, as NumPy (XLA: -0.0)
    return [_select(ctx, _compare_values(ctx, x, zero, "EQ"), zero, s)]


def _complex_sign(ctx, x):
    # XLA: x / |x|, NaN when a part is infinite. NumPy: (sign(re), 0) when only re is
    # infinite, (0, sign(im)) when only im is, NaN when both are.
    part = x.aval.update(dtype=np.finfo(x.aval.dtype).dtype)
    shape = x.aval.shape
    s = ctx.op("stablehlo.sign", [x])
    re = ctx.op("stablehlo.real", [x], part)
    im = ctx.op("stablehlo.imag", [x], part)
    inf = _full(ctx, np.inf, part.dtype, shape)
    zero = _full(ctx, 0, part.dtype, shape)
    re_inf = _compare_values(ctx, ctx.op("stablehlo.abs", [re], part), inf, "EQ")
    im_inf = _compare_values(ctx, ctx.op("stablehlo.abs", [im], part), inf, "EQ")
    pred = re_inf.aval
    only_re = ctx.op("stablehlo.and", [re_inf, ctx.op("stablehlo.not", [im_inf], pred)], pred)
    only_im = ctx.op("stablehlo.and", [im_inf, ctx.op("stablehlo.not", [re_inf], pred)], pred)
    re_unit = ctx.op("stablehlo.complex", [ctx.op("stablehlo.sign", [re], part), zero])
    im_unit = ctx.op("stablehlo.complex", [zero, ctx.op("stablehlo.sign", [im], part)])
    return _select(ctx, only_re, re_unit, _select(ctx, only_im, im_unit, s))


@lowering(lax.round_p)
def _lower_round(ctx, x, *, rounding_method):
    name = "stablehlo.round_nearest_even" if rounding_method == 1 else "stablehlo.round_nearest_afz"
    return [ctx.op(name, [x])]


@lowering(lax.exp2_p)
def _lower_exp2(ctx, x):
    # No StableHLO exp2. Reals: 2 ** x through power (exact for integral x, unlike
    # exp(x * ln 2)). Complex: exp(x * ln 2) scaling both parts by the real ln 2 (XLA's
    # complex power gives NaN for an infinite exponent; NumPy gives inf + 0j).
    dt = x.aval.dtype
    if dt.kind != "c":
        return [ctx.op("stablehlo.power", [_full(ctx, 2, dt, x.aval.shape), x])]
    part = x.aval.update(dtype=np.finfo(dt).dtype)
    ln2 = _full(ctx, np.log(2.0), part.dtype, x.aval.shape)
    re = ctx.op("stablehlo.multiply", [ctx.op("stablehlo.real", [x], part), ln2], part)
    im = ctx.op("stablehlo.multiply", [ctx.op("stablehlo.imag", [x], part), ln2], part)
    return [ctx.op("stablehlo.exponential", [ctx.op("stablehlo.complex", [re, im])])]


def _log_base(inverse_ln):
    """log2/log10 (no StableHLO op): ``log(x)`` times ``1 / ln(base)`` rounded once.
    Real float32 and narrower inputs compute in the next wider type (float64 for float32,
    float32 for the 16-bit ones) and round once at the end; complex inputs scale both
    parts of the complex log (as NumPy: ``-inf + 0j`` stays so, no complex product)."""

    def rule(ctx, x):
        aval = ctx.avals_out[0]
        dt = np.dtype(aval.dtype)
        if dt.kind == "c":
            part = aval.update(dtype=np.finfo(dt).dtype, weak_type=False)
            w = LOWERINGS[lax.log_p](ctx, x)[0]  # the complex log with its special values
            c = _full(ctx, inverse_ln, part.dtype, aval.shape)
            re = ctx.op("stablehlo.multiply", [ctx.op("stablehlo.real", [w], part), c], part)
            im = ctx.op("stablehlo.multiply", [ctx.op("stablehlo.imag", [w], part), c], part)
            return [ctx.op("stablehlo.complex", [re, im], aval)]
        wide = np.dtype(np.float64) if dt.itemsize >= 4 else np.dtype(np.float32)
        wa = aval.update(dtype=wide, weak_type=False)
        y = x if dt == wide else ctx.op("stablehlo.convert", [x], wa)
        y = ctx.op("stablehlo.log", [y], wa)
        y = ctx.op("stablehlo.multiply", [y, _full(ctx, inverse_ln, wide, aval.shape)], wa)
        return [y if dt == wide else ctx.op("stablehlo.convert", [y], aval)]

    return rule


lowering(lax.log2_p)(_log_base(float(np.log2(np.e))))
lowering(lax.log10_p)(_log_base(float(np.log10(np.e))))


@lowering(lax.integer_pow_p)
def _lower_integer_pow(ctx, x, *, y):
    # repeated squaring: exact for integers; for floats a few roundings, like JAX
    n = -y if y < 0 else y
    acc = None
    base = x
    while n > 0:
        if n & 1:
            acc = base if acc is None else ctx.op("stablehlo.multiply", [acc, base])
        n >>= 1
        if n > 0:
            base = ctx.op("stablehlo.multiply", [base, base])
    if acc is None:
        acc = _full(ctx, 1, x.aval.dtype, x.aval.shape)
    if y < 0:
        acc = ctx.op("stablehlo.divide", [_full(ctx, 1, x.aval.dtype, x.aval.shape), acc])
    return [acc]


@lowering(lax.conj_p)
def _lower_conj(ctx, x):
    real_aval = x.aval.update(dtype=np.finfo(x.aval.dtype).dtype)
    re = ctx.op("stablehlo.real", [x], real_aval)
    im = ctx.op("stablehlo.imag", [x], real_aval)
    neg_im = ctx.op("stablehlo.negate", [im], real_aval)
    return [ctx.op("stablehlo.complex", [re, neg_im])]


@lowering(lax.convert_element_type_p)
def _lower_convert(ctx, x, *, new_dtype, weak_type):
    src = x.aval.dtype
    if src == new_dtype:
        return [x]
    if new_dtype.kind == "b":  # x != 0, as NumPy (XLA's convert would truncate first)
        return [_nonzero(ctx, x)]
    if src.kind == "b" and new_dtype.kind in "fcV":  # "V": bfloat16, float8 (ml_dtypes)
        # bool -> float as select(x, 1, 0): XLA's simplifier rewrites convert(pred) / y into
        # select(pred, 1 / y, 0), which gives 0 instead of NaN for 0 / 0.
        shape = x.aval.shape
        return [_select(ctx, x, _full(ctx, 1, new_dtype, shape), _full(ctx, 0, new_dtype, shape))]
    if src.kind == "c" and new_dtype.kind != "c":  # NumPy keeps the real part
        x = ctx.op("stablehlo.real", [x], x.aval.update(dtype=np.finfo(src).dtype))
    if new_dtype.kind in "iu" and x.aval.dtype.kind not in "iub":  # from floating
        return [_float_to_int(ctx, x, new_dtype)]
    return [ctx.op("stablehlo.convert", [x])]


def _nonzero(ctx, x):
    """``x != 0``. Floating values compare their bits without the sign bit: XLA's CPU
    compare flushes subnormals to zero, NumPy's does not (5e-324 -> True)."""
    dt, shape = x.aval.dtype, x.aval.shape
    if dt.kind == "c":
        part = x.aval.update(dtype=np.finfo(dt).dtype)
        re, im = (_nonzero(ctx, ctx.op(f"stablehlo.{p}", [x], part)) for p in ("real", "imag"))
        return ctx.op("stablehlo.or", [re, im], re.aval)
    if dt.kind in "iub":
        return _compare_values(ctx, x, _full(ctx, 0, dt, shape), "NE")
    bits = np.dtype(f"uint{8 * dt.itemsize}")
    x = ctx.op("stablehlo.bitcast_convert", [x], x.aval.update(dtype=bits, weak_type=False))
    magnitude = ctx.op("stablehlo.and", [x, _full(ctx, np.iinfo(bits).max >> 1, bits, shape)],
                       x.aval)
    return _compare_values(ctx, magnitude, _full(ctx, 0, bits, shape), "NE")


def _float_to_int(ctx, x, new_dtype):
    """NumPy's float -> integer cast as it behaves on x86-64 (on other platforms NumPy's
    own cast is platform-defined), instead of XLA's convert (which saturates, NaN -> 0).

    NumPy casts with C's ``(T)x``, which x86-64 compilers build from the truncating
    ``cvttsd2si``: NaN and values whose truncation is outside the instruction's 32- or
    64-bit signed range give that range's minimum (the "integer indefinite"). So:

    * a signed "carrier" of ``max(32, bits)`` bits (unsigned targets: one that holds the
      target's range, at most 64 bits) gets ``trunc(x)`` where ``-hi <= x < hi`` and
      ``INT_MIN`` elsewhere (also NaN); narrower targets then keep its low bits
      (XLA's integer convert wraps), e.g. 300.0 -> int8 44, -1.0 -> uint8 255;
    * uint64: ``x >= 2**63`` converts ``x - 2**63`` and flips the top bit (the
      compiler's unsigned sequence), e.g. NaN -> 2**63, -1.0 -> 2**64 - 1;
    * float8 sources (ml_dtypes' own casts): NaN -> 0 and +-inf saturate to the target's
      range; finite values as above.

    NumPy's contiguous float32/float64 -> uint32 loop is SIMD code that gives other
    results for NaN, -inf, x < -2**31 and x >= 2**32 (its strided, scalar and 0-d casts
    give these); everything else matches NumPy bit for bit. The selects are emitted
    only for float -> integer conversions. Sources narrower than float32 are widened
    to float32 first (exact), so the bounds are representable.
    """
    shape, src = x.aval.shape, x.aval.dtype
    bits = 8 * new_dtype.itemsize
    carrier = np.dtype(f"int{max(32, bits if new_dtype.kind == 'i' else min(64, 2 * bits))}")
    hi = 2.0 ** (8 * carrier.itemsize - 1)
    xf = ctx.convert(x, np.float32 if src.itemsize < 4 else src)
    fdt = xf.aval.dtype

    def truncate(v):  # cvttsd2si into ``carrier``: trunc(v), or INT_MIN out of range / NaN
        ok = ctx.op("stablehlo.and", [_compare_values(ctx, v, _full(ctx, -hi, fdt, shape), "GE"),
                                      _compare_values(ctx, v, _full(ctx, hi, fdt, shape), "LT")],
                    v.aval.update(dtype=np.dtype(np.bool_)))
        safe = ctx.convert(_select(ctx, ok, v, _full(ctx, 0, fdt, shape)), carrier)
        return _select(ctx, ok, safe, _full(ctx, np.iinfo(carrier).min, carrier, shape))

    out = truncate(xf)
    if new_dtype.kind == "u" and bits == 8 * carrier.itemsize:  # uint64
        shifted = ctx.op("stablehlo.subtract", [xf, _full(ctx, hi, fdt, shape)], xf.aval)
        top = ctx.op("stablehlo.xor", [truncate(shifted),
                                       _full(ctx, np.iinfo(carrier).min, carrier, shape)],
                     out.aval)
        out = _select(ctx, _compare_values(ctx, xf, _full(ctx, hi, fdt, shape), "GE"), top, out)
    out = ctx.convert(out, new_dtype)
    if src in FLOAT8:
        info = np.iinfo(new_dtype)
        for bound, value in ((np.inf, info.max), (-np.inf, info.min)):
            is_inf = _compare_values(ctx, xf, _full(ctx, bound, fdt, shape), "EQ")
            out = _select(ctx, is_inf, _full(ctx, value, new_dtype, shape), out)
        is_nan = _compare_values(ctx, xf, xf, "NE")
        out = _select(ctx, is_nan, _full(ctx, 0, new_dtype, shape), out)
    return out


def _select_tree(ctx, which, cases, offset):
    """``cases[which - offset]``: a balanced tree of ``which < mid`` selects."""
    if len(cases) == 1:
        return cases[0]
    mid = len(cases) // 2
    bound = _full(ctx, offset + mid, which.aval.dtype, which.aval.shape)
    pred = _compare_values(ctx, which, bound, "LT")
    lo = _select_tree(ctx, which, cases[:mid], offset)
    hi = _select_tree(ctx, which, cases[mid:], offset + mid)
    return _select(ctx, pred, lo, hi)


@lowering(lax.select_n_p)
def _lower_select_n(ctx, which, *cases):
    which, *cases = ctx.broadcast_operands(which, *cases)
    if len(cases) == 1:
        return [cases[0]]
    if which.aval.dtype.kind == "b":
        return [_select(ctx, which, cases[1], cases[0])]
    return [_select_tree(ctx, which, cases, 0)]


@lowering(lax.clamp_p)
def _lower_clamp(ctx, lo, x, hi):
    return [ctx.op("stablehlo.clamp", [lo, x, hi])]


def flush_subnormals(ctx, x):
    """``x`` with every subnormal replaced by a zero of its sign, on the bits: what XLA:CPU's
    denormals-are-zero mode makes of it in arithmetic, for ops that also read the bits."""
    dt, shape = x.aval.dtype, x.aval.shape
    bits = np.dtype(f"uint{8 * dt.itemsize}")
    baval = x.aval.update(dtype=bits, weak_type=False)
    u = ctx.op("stablehlo.bitcast_convert", [x], baval)
    sign = _full(ctx, 1 << (8 * dt.itemsize - 1), bits, shape)
    magnitude = ctx.op("stablehlo.and", [u, _full(ctx, (1 << (8 * dt.itemsize - 1)) - 1, bits,
                                                       shape)], baval)
    tiny = np.asarray(np.finfo(dt).smallest_normal, dt).view(bits)
    subnormal = _compare_values(ctx, magnitude, _full(ctx, tiny, bits, shape), "LT")
    flushed = _select(ctx, subnormal, ctx.op("stablehlo.and", [u, sign], baval), u)
    return ctx.op("stablehlo.bitcast_convert", [flushed], x.aval)


_FLUSHED = (np.dtype(np.float32), np.dtype(np.float64))


def _flushing(hlo_name):
    def rule(ctx, *xs):
        xs = ctx.broadcast_operands(*xs)
        if xs[0].aval.dtype in _FLUSHED:
            xs = [flush_subnormals(ctx, x) for x in xs]
        return [ctx.op(hlo_name, list(xs))]

    return rule


lowering(lax.cbrt_p)(_flushing("stablehlo.cbrt"))


@lowering(lax.asin_p)
def _lower_asin(ctx, x):
    # chlo.asin is 2 atan2(x, 1 + sqrt(1 - x * x)), whose x / 2 flushes to zero for the
    # smallest normals: asin(x) = x (to the last bit) for |x| < sqrt(eps)
    near = ctx.op("chlo.asin", [x])
    dt, shape = x.aval.dtype, x.aval.shape
    if dt not in _FLUSHED:
        return [near]
    tiny = _compare_values(ctx, ctx.op("stablehlo.abs", [x]),
                           _full(ctx, np.sqrt(np.finfo(dt).eps), dt, shape), "LT")
    return [_select(ctx, tiny, x, near)]
lowering(lax.atan2_p)(_flushing("stablehlo.atan2"))


def _extremum(hlo_name):
    def rule(ctx, x, y):
        # one op for every dtype: XLA's maximum/minimum propagate NaN for floats
        return [ctx.op(hlo_name, list(ctx.broadcast_operands(x, y)))]

    return rule


lowering(lax.max_p)(_extremum("stablehlo.maximum"))
lowering(lax.min_p)(_extremum("stablehlo.minimum"))


def _hyperbolic(chlo_name, odd):
    def rule(ctx, x):
        dt, shape = x.aval.dtype, x.aval.shape
        near = ctx.op(chlo_name, [x])
        if dt not in _FLUSHED:
            return [near]
        # |x| > 1: e = exp(|x| / 2) (x / 2 is exact); e * e / 2 -+ 1 / (2 e * e) stays
        # within a few ulp up to the overflow threshold (and overflows only past it)
        ax = ctx.op("stablehlo.abs", [x])
        e = ctx.op("stablehlo.exponential", [ctx.op("stablehlo.multiply",
                                                    [ax, _full(ctx, 0.5, dt, shape)])])
        half = _full(ctx, 0.5, dt, shape)
        big = ctx.op("stablehlo.multiply", [ctx.op("stablehlo.multiply", [half, e]), e])
        small = ctx.op("stablehlo.divide", [ctx.op("stablehlo.divide", [half, e]), e])
        far = ctx.op("stablehlo.subtract" if odd else "stablehlo.add", [big, small])
        if odd:
            negative = _compare_values(ctx, x, _full(ctx, 0, dt, shape), "LT")
            far = _select(ctx, negative, ctx.op("stablehlo.negate", [far]), far)
        use_far = _compare_values(ctx, ax, _full(ctx, 1, dt, shape), "GT")
        return [_select(ctx, use_far, far, near)]

    return rule


lowering(lax.sinh_p)(_hyperbolic("chlo.sinh", odd=True))
lowering(lax.cosh_p)(_hyperbolic("chlo.cosh", odd=False))


@lowering(lax.pow_p)
def _lower_pow(ctx, x, y):
    x, y = ctx.broadcast_operands(x, y)
    dt, shape = x.aval.dtype, x.aval.shape
    if dt in _FLUSHED:  # XLA's power reads a subnormal x's bits (1e-45 ** 0.5 was 2.6e-23)
        return [ctx.op("stablehlo.power", [flush_subnormals(ctx, x), flush_subnormals(ctx, y)])]
    if dt.kind not in "iu":
        return [ctx.op("stablehlo.power", [x, y])]
    # XLA's integer power is wrong for large exponents (3 ** 32767 in int16, 0 ** 64 is 1;
    # unsigned exponents with the top bit set read as negative): square-and-multiply over
    # every bit of y, wrapping as NumPy. Signed y < 0 keeps XLA's x ** y rounded towards
    # zero (as lax; NumPy raises).
    one = _full(ctx, 1, dt, shape)
    acc, base, rest = one, x, y
    for i in range(8 * dt.itemsize - (dt.kind == "i")):
        if i:
            base = ctx.op("stablehlo.multiply", [base, base])
            rest = ctx.op("stablehlo.shift_right_logical", [rest, one])
        bit = _compare_values(ctx, ctx.op("stablehlo.and", [rest, one]),
                              _full(ctx, 0, dt, shape), "NE")
        acc = _select(ctx, bit, ctx.op("stablehlo.multiply", [acc, base]), acc)
    if dt.kind == "u":
        return [acc]
    negative = _compare_values(ctx, y, _full(ctx, 0, dt, shape), "LT")
    return [_select(ctx, negative, ctx.op("stablehlo.power", [x, y]), acc)]
