"""xp implementations of the bit-level primitives (``xnp.lax.bits``), written with
integer operations on the unsigned view of the operand's bits."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS

__all__: list = []


def _unsigned(dtype) -> np.dtype:
    return np.dtype(f"u{np.dtype(dtype).itemsize}")


def _population_count(xp, x):
    return xp.bitwise_count(x.view(_unsigned(x.dtype))).astype(x.dtype)


def _clz(xp, x):
    # bit length by binary search over shifts (bits/2, bits/4, ..., 1); clz = bits - length
    u = x.view(_unsigned(x.dtype))
    bits = 8 * x.dtype.itemsize
    length = xp.zeros(u.shape, x.dtype)
    shift = bits // 2
    while shift:
        high = (u >> u.dtype.type(shift)) != 0
        u = xp.where(high, u >> u.dtype.type(shift), u)
        length = length + xp.where(high, x.dtype.type(shift), x.dtype.type(0))
        shift //= 2
    length = length + (u != 0).astype(x.dtype)
    return (x.dtype.type(bits) - length).astype(x.dtype)


def _reduce_precision(xp, x, *, exponent_bits, mantissa_bits):
    # XLA's ReducePrecision (xla/service/hlo_evaluator / elemental_ir_emitter), bit by bit
    udt = _unsigned(x.dtype)
    one = udt.type(1)
    bits = 8 * x.dtype.itemsize
    src_mant = int(ml_dtypes.finfo(x.dtype).nmant)
    src_exp = bits - src_mant - 1
    v = x.view(udt).copy()
    if mantissa_bits < src_mant:
        drop = udt.type(src_mant - mantissa_bits)
        last_bit = one << drop
        bias = (last_bit >> one) - one + ((v & last_bit) >> drop)
        v = (v + bias) & ~(last_bit - one)
    if exponent_bits < src_exp:
        sign = v & (one << udt.type(bits - 1))
        exp_mask = ((one << udt.type(src_exp)) - one) << udt.type(src_mant)
        src_bias = (1 << (src_exp - 1)) - 1
        red_bias = (1 << (exponent_bits - 1)) - 1
        exponent = v & exp_mask
        over = exponent > udt.type((src_bias + red_bias) << src_mant)
        under = exponent <= udt.type((src_bias - red_bias) << src_mant)
        v = xp.where(over, sign | exp_mask, xp.where(under, sign, v))
    with np.errstate(invalid="ignore"):  # signalling NaN bit patterns
        return xp.where(x != x, x, v.view(x.dtype)).astype(x.dtype, copy=False)


XP_IMPLS[lax.population_count_p] = _population_count
XP_IMPLS[lax.clz_p] = _clz


_C_RULE = np.dtype(np.float16)  # the one dtype whose NumPy loop does not follow C's rule


def _nextafter(xp, x1, x2):
    # C's nextafter gives x2 where x1 == x2 (nextafter(0.0, -0.0) is -0.0); NumPy's float16
    # loop gives x1 there: follow C (and XLA) for every dtype. The step from the largest
    # finite value to inf warns 'overflow' as NumPy's loop does.
    if x1.dtype == _C_RULE:
        return xp.where(x1 == x2, x2, xp.nextafter(x1, x2))
    return xp.nextafter(x1, x2)


XP_IMPLS[lax.nextafter_p] = _nextafter
# the ufunc itself where its loop follows C's rule: a replay runs no Python frame
PARAM_KERNELS[lax.nextafter_p] = lambda xp, x: None if x.dtype == _C_RULE else xp.nextafter
XP_IMPLS[lax.reduce_precision_p] = _reduce_precision
