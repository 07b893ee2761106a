"""Bit-level elementwise primitives: ``population_count``, ``clz`` (integers),
``nextafter`` (every real float, float8 included) and ``reduce_precision`` (IEEE floats:
float16, bfloat16, float32, float64), and ``bitcast_convert_type`` (a reinterpretation of
the bits as another real dtype of the same width). Shapes and dtypes as the (first)
operand; lax broadcasting rules (``_kit``).
"""

from __future__ import annotations

import operator

import ml_dtypes
import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import shape_ops
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.batching import moveaxis

__all__ = ["population_count", "clz", "nextafter", "reduce_precision", "bitcast_convert_type",
           "population_count_p", "clz_p", "nextafter_p", "reduce_precision_p",
           "bitcast_convert_type_p"]

# floats with IEEE-754 layout (sign, exponent, mantissa; inf and NaN encodings)
IEEE_FLOATS = frozenset(np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32,
                                              np.float64))

population_count_p = kit.unary("population_count", kit.INTEGER,
                               differentiable="population_count has integer outputs")
clz_p = kit.unary("clz", kit.INTEGER, differentiable="clz has integer outputs")


def _nextafter_jvp(primals, tangents):
    # nextafter(x1, x2) is x1 moved by at most one ulp: the identity in x1 plus a step of
    # one ulp whose size and direction are piecewise constant in x1 and x2 (zero derivative
    # almost everywhere), so the tangent is x1's
    (x1, x2), (t1, _) = primals, tangents
    out = nextafter_p.bind(x1, x2)
    if type(t1) is R.Zero:
        return out, R.zero_like(out)
    oa, ta = core.aval_of(out), core.aval_of(t1)
    if ta.shape != oa.shape:  # lax broadcasting of a rank-0 or size-1 x1
        dims = () if ta.ndim == 0 else tuple(range(oa.ndim))
        t1 = shape_ops.broadcast_in_dim(t1, oa.shape, dims)
    return out, t1


nextafter_p = kit.binary("nextafter", kit.FLOATING,
                         jvp=_nextafter_jvp, batch=shape_ops.elementwise_batch)


def population_count(x: Array) -> Array:
    """Number of set bits of each element (two's complement bits for signed integers).

    Integer ``x``; result of ``x``'s shape and dtype. ``TypeError`` otherwise.
    """
    return population_count_p.bind(x)


def clz(x: Array) -> Array:
    """Number of leading zero bits of each element (the bit width for 0, 0 for negative
    signed values). Integer ``x``; result of ``x``'s shape and dtype."""
    return clz_p.bind(x)


def nextafter(x1: Array, x2: Array) -> Array:
    """The next representable value after ``x1`` towards ``x2`` (``numpy.nextafter``).

    Real floating dtypes (float16, bfloat16, float32, float64, float8_e4m3fn,
    float8_e5m2), equal for both operands; lax broadcasting. ``x2`` where ``x1 == x2``
    (so ``nextafter(0.0, -0.0)`` is ``-0.0``), NaN if either is NaN; steps from ±0 to the
    smallest subnormal and from the largest finite value to inf, as NumPy (+ ml_dtypes
    for float8; float8_e4m3fn has no inf, so its largest finite value only steps
    towards a NaN ``x2``, giving NaN). Derivative: 1 in ``x1`` and 0 in ``x2`` (the
    one-ulp step is piecewise constant).
    """
    return nextafter_p.bind(x1, x2)


# --------------------------------------------------------------------------- bitcast_convert_type


def _bitcast_shape(x, *, new_dtype):
    old, new = x.dtype.itemsize, new_dtype.itemsize
    if new <= old:
        return x.shape if new == old else x.shape + (old // new,)
    ratio = new // old
    if not x.shape or x.shape[-1] != ratio:
        raise TypeError(
            f"xnp.lax.bitcast_convert_type: new_dtype {new_dtype} has {ratio} times the bit "
            f"width of the operand {errors.aval_str(x)} ({8 * old} bits), so the operand's "
            f"last axis must have size {ratio}.")
    return x.shape[:-1]


def _bitcast_dtype(x, *, new_dtype):
    kit.check_dtype("bitcast_convert_type", x, kit.REAL)
    kit.check_dtype("bitcast_convert_type", ShapedArray((), new_dtype), kit.REAL, "new_dtype")
    return new_dtype


def _bitcast_batch(vals, dims, *, new_dtype):
    # a wider new_dtype consumes the last axis: keep the batch axis off it
    (x,), (d,) = vals, dims
    if new_dtype.itemsize > x.dtype.itemsize and d == len(x.shape) - 1:
        x, d = moveaxis(x, d, 0), 0
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), d


bitcast_convert_type_p = kit.primitive(
    "bitcast_convert_type", shape=_bitcast_shape, dtype=_bitcast_dtype, weak_type=kit.never_weak,
    differentiable="bit reinterpretation has no derivative", batch=_bitcast_batch)


def bitcast_convert_type(x: Array, new_dtype) -> Array:
    """Reinterpret the bits of ``x`` as ``new_dtype`` (real dtypes).

    Equal bit widths keep the shape. A narrower ``new_dtype`` adds a trailing axis of the
    width ratio (``float64[3] -> uint16[3,4]``); a wider one consumes a trailing axis of
    that size (``uint8[3,4] -> float32[3]``), as JAX's ``lax.bitcast_convert_type`` and
    StableHLO's ``bitcast_convert``. Bytes are in the machine's (little-endian) order.

    Raises
    ------
    TypeError
        A bool or complex dtype, or a wider ``new_dtype`` whose ratio is not the size of
        ``x``'s last axis.
    """
    return bitcast_convert_type_p.bind(x, new_dtype=np.dtype(new_dtype))


# --------------------------------------------------------------------------- reduce_precision


def _reduce_precision_dtype(x, *, exponent_bits, mantissa_bits):
    kit.check_dtype("reduce_precision", x, IEEE_FLOATS)
    return x.dtype


reduce_precision_p = kit.primitive("reduce_precision", linear=True,
                                   shape=lambda x, **params: x.shape,
                                   dtype=_reduce_precision_dtype,
                                   jvp=R.linear_unary_jvp, batch=R.unary_batch,
                                   # rounding is applied to the tangent too (JAX's deflinear)
                                   transpose=R.zero_ct_passthrough(lambda ct, x, **params: [
                                       reduce_precision_p.bind(ct, **params)]))


def _bits_param(name: str, value, minimum: int) -> int:
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"xnp.lax.reduce_precision: `{name}` must be an int, got "
                        f"{value!r}") from None
    if v < minimum:
        raise ValueError(f"xnp.lax.reduce_precision: `{name}` must be >= {minimum}, got {v}")
    return v


def reduce_precision(x: Array, exponent_bits: int, mantissa_bits: int) -> Array:
    """``x`` rounded to a float format with ``exponent_bits`` exponent and
    ``mantissa_bits`` explicit mantissa bits, stored back in ``x``'s dtype (XLA's
    ReducePrecision): round to nearest even; values above the format's largest finite
    value become ±inf; values at or below its smallest normal exponent become ±0 (the
    format has no subnormals); NaN stays NaN (for ``mantissa_bits == 0``, which has no
    NaN encoding, NaN becomes inf, as in XLA). Widths at least ``x``'s own leave that
    part unchanged.

    IEEE floating ``x`` (float16, bfloat16, float32, float64); result of ``x``'s shape
    and dtype. ``exponent_bits >= 1`` and ``mantissa_bits >= 0`` are Python ints.

    Raises
    ------
    TypeError
        Non-IEEE-float ``x``; non-int widths.
    ValueError
        Widths out of range.
    """
    return reduce_precision_p.bind(x, exponent_bits=_bits_param("exponent_bits", exponent_bits, 1),
                                   mantissa_bits=_bits_param("mantissa_bits", mantissa_bits, 0))
