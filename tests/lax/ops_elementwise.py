"""Op-table records of the elementwise primitives (``xnp.lax.elementwise``).

References are written independently of the eager implementations where the lax
semantics are not a NumPy ufunc (truncating integer division, integer powers with
negative exponents, logical shifts, round-half-away-from-zero). Samplers mix in
special values (NaN, +-inf, +-0, integer extremes, zero divisors, shift counts
outside ``[0, bits)``) wherever the semantics differ between NumPy and bare XLA.
"""

import ml_dtypes
import numpy as np

from tests.helpers import (ALL, BOOL, COMPLEX, FLOATING, INEXACT, INTEGER, NUMERIC,
                           SIGNED, SMALL_SHAPES, UNSIGNED, OpRecord, make_array)
from xnp import lax

REAL = INTEGER + FLOATING
REAL_OR_BOOL = BOOL + REAL
F32_F64 = [np.dtype(np.float32), np.dtype(np.float64)]

BINARY_SHAPES = [(), (0,), (1,), (3,), (2, 3), (2, 0, 4), ((), (2, 3)), ((3,), ()),
                 ((3, 1), (3, 4)), ((3, 1), (1, 4)), ((1,), (5,))]
# representative dtype subsets for records whose lowering is one op (keeps the table fast)
_d = np.dtype
SOME_NUMERIC = [_d(t) for t in (np.int8, np.uint16, np.int64, np.uint64, np.float16,
                                ml_dtypes.bfloat16, np.float32, np.complex128)]
SOME_REAL_OR_BOOL = [_d(t) for t in (np.bool_, np.int8, np.uint32, np.int64, np.float16,
                                     ml_dtypes.bfloat16, np.float64)]
SOME_INT_OR_BOOL = [_d(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.uint64)]
BCAST = [((), (2, 3))]
FEW_SHAPES = [(), (2, 3)]
ONE_SHAPE = [(2, 3)]
FEW_BINARY = [(2, 3), ((), (2, 3))]
TERNARY_SHAPES = [(), (0,), (3,), (2, 3), ((), (2, 3), ()), ((3,), (), (3,)),
                  ((3, 1), (1, 4), (3, 4))]

I32 = np.ones(3, np.int32)
F32 = np.ones(3, np.float32)
F64 = np.ones(3, np.float64)
C64 = np.ones(3, np.complex64)
BOOLS = np.ones(3, np.bool_)


# --------------------------------------------------------------------------- samplers


def _specials(dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return [True, False]
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return [info.min, info.max, 0, 0, 1, -1 if dtype.kind == "i" else 2]
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5]
    if dtype.kind == "c":
        vals += [complex(np.nan, 1.0), complex(1.0, np.inf), complex(0.0, -0.0)]
    return vals


def special(rng, shape, dtype):
    """Random data with about half of the elements replaced by special values."""
    a = np.array(make_array(rng, shape, dtype))
    flat = a.reshape(-1)
    if flat.size:
        # built in ``dtype`` directly: through float64, uint64's max would not round-trip
        # (and NumPy warns "invalid value encountered in cast")
        vals = np.array(_specials(dtype), dtype=dtype)
        idx = rng.random(flat.size) < 0.5
        flat[idx] = rng.choice(vals, size=int(idx.sum()))
    return a


def finite_special(rng, shape, dtype):
    """Special values without NaN/inf (for conversions to integers)."""
    a = np.array(make_array(rng, shape, dtype))
    flat = a.reshape(-1)
    if flat.size and np.dtype(dtype).kind in "fc":
        vals = np.array([0.0, -0.0, 0.5, -0.5, 2.5, -2.5, 1.5]).astype(dtype)
        idx = rng.random(flat.size) < 0.5
        flat[idx] = rng.choice(vals, size=int(idx.sum()))
    return a


def positive(rng, shape, dtype):
    return make_array(rng, shape, dtype, kind="positive")


def unit(rng, shape, dtype):
    """Values in (-1, 1) (domain of asin/acos/atanh), plus the ends."""
    a = np.asarray(np.tanh(make_array(rng, shape, np.float64)) * 0.99)
    if np.dtype(dtype).kind == "c":
        a = a + 0.3j * np.asarray(make_array(rng, shape, np.float64))
    return a.astype(dtype)


def shift_counts(rng, shape, dtype):
    """Small values and counts outside ``[0, bits)`` (negative ones too for signed)."""
    dtype = np.dtype(dtype)
    bits = 8 * dtype.itemsize
    lo = -3 if dtype.kind == "i" else 0
    a = rng.integers(lo, bits + 3, size=shape)
    info = np.iinfo(dtype)
    a = np.where(rng.random(shape) < 0.2, info.min, a)
    return np.asarray(a).astype(dtype)


def small_ints(rng, shape, dtype):
    dtype = np.dtype(dtype)
    lo = -3 if dtype.kind == "i" else 0
    return np.asarray(rng.integers(lo, 4, size=shape)).astype(dtype)


# --------------------------------------------------------------------------- references


def _wrap(values, dtype):
    """Python ints reduced modulo 2**bits into ``dtype`` (two's complement)."""
    dtype = np.dtype(dtype)
    bits = 8 * dtype.itemsize
    out = []
    for v in values:
        v %= 1 << bits
        if dtype.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        out.append(v)
    return np.array(out, dtype=np.dtype(dtype)) if out else np.zeros(0, dtype)


def _int_elementwise(fn, x, y):
    x, y = np.broadcast_arrays(x, y)
    vals = [fn(int(a), int(b)) for a, b in zip(x.reshape(-1), y.reshape(-1))]
    return _wrap(vals, x.dtype).reshape(x.shape)


def _trunc_div(a, b):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _trunc_rem(a, b):
    return 0 if b == 0 else a - b * _trunc_div(a, b)


def _int_pow(a, b):
    if b >= 0:
        return pow(a, b, 1 << 64)  # wrapped into the dtype by _wrap
    if a == 1:
        return 1
    if a == -1:
        return -1 if b % 2 else 1
    return 0


def ref_div(x, y):
    if x.dtype.kind in "iu":
        return _int_elementwise(_trunc_div, x, y)
    return np.true_divide(x, y)


def ref_rem(x, y):
    if x.dtype.kind in "iu":
        return _int_elementwise(_trunc_rem, x, y)
    return np.fmod(x, y)


def ref_pow(x, y):
    if x.dtype.kind in "iu":
        return _int_elementwise(_int_pow, x, y)
    return np.power(x, y)


def ref_round_afz(x):
    t = np.trunc(x)
    r = np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)
    return np.asarray(r, dtype=x.dtype)


def ref_shift_right_logical(x, y):
    bits = 8 * x.dtype.itemsize

    def one(a, b):
        return 0 if not 0 <= b < bits else (a % (1 << bits)) >> b

    return _int_elementwise(one, x, y)


def ref_shift_right_arithmetic(x, y):
    bits = 8 * x.dtype.itemsize

    def one(a, b):
        a %= 1 << bits
        if a >= 1 << (bits - 1):
            a -= 1 << bits  # the bit pattern read as signed
        return a >> b if 0 <= b < bits else (-1 if a < 0 else 0)

    return _int_elementwise(one, x.astype(np.dtype(f"i{x.dtype.itemsize}")),
                            y.astype(np.dtype(f"i{y.dtype.itemsize}"))).view(x.dtype)


def ref_shift_left(x, y):
    bits = 8 * x.dtype.itemsize
    return _int_elementwise(lambda a, b: a << b if 0 <= b < bits else 0, x, y)


def ref_logistic(x):
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)))
                ).astype(x.dtype)


def ref_complex(x, y):
    dt = np.result_type(x.dtype, np.complex64)
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dt)
    out.real, out.imag = x, y
    return out


def ref_select_n_int(p, a, b):
    return np.choose(np.clip(p.astype(np.int32), 0, 2), [a, b, p])


# --------------------------------------------------------------------------- records


def _rec(name, fun, ref, nargs, dtypes, **kw):
    shapes = kw.pop("shapes", BINARY_SHAPES if nargs == 2 else SMALL_SHAPES)
    return OpRecord(name, fun, ref, nargs, list(dtypes), shapes=shapes, **kw)


RECORDS = [
    # arithmetic
    _rec("add", lax.add, np.add, 2, NUMERIC, sampler=special,
         errors=[([F32, F64], TypeError,
                  r"xnp\.lax\.add.*equal dtypes.*float32\[3\], float64\[3\]"),
                 ([F64, np.ones((2, 3))], TypeError, r"xnp\.lax\.add.*equal ranks"),
                 ([np.ones(3), np.ones(4)], TypeError, r"xnp\.lax\.add.*incompatible shapes"),
                 ([BOOLS, BOOLS], TypeError, r"xnp\.lax\.add.*bool")]),
    _rec("sub", lax.sub, np.subtract, 2, SOME_NUMERIC, sampler=special, shapes=BCAST,
         errors=[([I32, F32], TypeError, r"xnp\.lax\.sub")]),
    _rec("mul", lax.mul, np.multiply, 2, SOME_NUMERIC, sampler=special, shapes=BCAST),
    _rec("div", lax.div, ref_div, 2, NUMERIC, sampler=special),
    _rec("rem", lax.rem, ref_rem, 2, REAL, sampler=special,
         errors=[([C64, C64], TypeError, r"xnp\.lax\.rem")]),
    _rec("pow", lax.pow, ref_pow, 2, REAL, sampler=special,
         # float16/bfloat16: XLA computes pow in float32 and rounds once; the table's
         # elementwise rtol does not allow for the extra rounding of NumPy's half pow
         rtol=2e-2),
    _rec("pow_complex", lax.pow, np.power, 2, COMPLEX, shapes=FEW_BINARY),
    _rec("pow_small_ints", lax.pow, ref_pow, 2, INTEGER, sampler=small_ints, shapes=ONE_SHAPE),
    _rec("integer_pow_3", lambda x: lax.integer_pow(x, 3), lambda x: np.power(x, 3), 1,
         NUMERIC, sampler=special, rtol=2e-2),  # repeated squaring vs pow(): a few roundings
    _rec("integer_pow_-2", lambda x: lax.integer_pow(x, -2),
         lambda x: np.power(x, -2).astype(x.dtype), 1, INEXACT, shapes=ONE_SHAPE, rtol=2e-2),
    _rec("integer_pow_0", lambda x: lax.integer_pow(x, 0), lambda x: np.ones_like(x), 1,
         [_d(np.int8), _d(np.float32), _d(np.complex64)], shapes=[(0,), (2, 3)]),
    _rec("max", lax.max, np.maximum, 2, REAL_OR_BOOL, sampler=special,
         errors=[([C64, C64], TypeError, r"xnp\.lax\.max")]),
    _rec("min", lax.min, np.minimum, 2, SOME_REAL_OR_BOOL, sampler=special, shapes=BCAST),
    _rec("neg", lax.neg, np.negative, 1, SOME_NUMERIC, shapes=ONE_SHAPE, sampler=special,
         errors=[([BOOLS], TypeError, r"xnp\.lax\.neg.*bool")]),
    _rec("abs", lax.abs, np.absolute, 1, SOME_NUMERIC, shapes=ONE_SHAPE, sampler=special),
    _rec("sign", lax.sign, np.sign, 1, SOME_NUMERIC, shapes=ONE_SHAPE, sampler=special),
    _rec("floor", lax.floor, np.floor, 1, FLOATING, shapes=FEW_SHAPES, sampler=special,
         errors=[([I32], TypeError, r"xnp\.lax\.floor.*floating")]),
    _rec("ceil", lax.ceil, np.ceil, 1, FLOATING, shapes=FEW_SHAPES, sampler=special),
    _rec("round_afz", lambda x: lax.round(x, 0), ref_round_afz, 1, FLOATING, shapes=FEW_SHAPES,
         sampler=special),
    _rec("round_even", lambda x: lax.round(x, 1), np.rint, 1, FLOATING, shapes=FEW_SHAPES,
         sampler=special),
    _rec("is_finite", lax.is_finite, np.isfinite, 1, FLOATING, shapes=FEW_SHAPES, sampler=special),
    # comparisons
    _rec("eq", lax.eq, np.equal, 2, ALL, sampler=special,
         errors=[([F32, F64], TypeError, r"xnp\.lax\.eq")]),
    _rec("ne", lax.ne, np.not_equal, 2, SOME_NUMERIC, sampler=special, shapes=BCAST),
    _rec("lt", lax.lt, np.less, 2, REAL_OR_BOOL, sampler=special,
         errors=[([C64, C64], TypeError, r"xnp\.lax\.lt")]),
    _rec("le", lax.le, np.less_equal, 2, SOME_REAL_OR_BOOL, sampler=special, shapes=BCAST),
    _rec("gt", lax.gt, np.greater, 2, SOME_REAL_OR_BOOL, sampler=special, shapes=BCAST),
    _rec("ge", lax.ge, np.greater_equal, 2, SOME_REAL_OR_BOOL, sampler=special, shapes=BCAST),
    # logical / bitwise / shifts
    _rec("and", lax.and_, np.bitwise_and, 2, BOOL + INTEGER, sampler=special,
         errors=[([F32, F32], TypeError, r"xnp\.lax\.and")]),
    _rec("or", lax.or_, np.bitwise_or, 2, SOME_INT_OR_BOOL, sampler=special, shapes=BCAST),
    _rec("xor", lax.xor, np.bitwise_xor, 2, SOME_INT_OR_BOOL, sampler=special, shapes=BCAST),
    _rec("not", lax.not_, np.invert, 1, SOME_INT_OR_BOOL, shapes=FEW_SHAPES, sampler=special),
    _rec("shift_left", lax.shift_left, ref_shift_left, 2, INTEGER, sampler=shift_counts,
         errors=[([BOOLS, BOOLS], TypeError, r"xnp\.lax\.shift_left")]),
    _rec("shift_right_arithmetic", lax.shift_right_arithmetic, ref_shift_right_arithmetic, 2,
         INTEGER, sampler=shift_counts),
    _rec("shift_right_logical", lax.shift_right_logical, ref_shift_right_logical, 2, INTEGER,
         sampler=shift_counts),
    # transcendental
    _rec("exp", lax.exp, np.exp, 1, INEXACT, shapes=ONE_SHAPE, sampler=special,
         errors=[([I32], TypeError, r"xnp\.lax\.exp.*floating or complex")]),
    _rec("exp2", lax.exp2, np.exp2, 1, INEXACT, shapes=ONE_SHAPE, sampler=special),
    _rec("log", lax.log, np.log, 1, INEXACT, shapes=ONE_SHAPE, sampler=positive),
    _rec("log2", lax.log2, np.log2, 1, INEXACT, shapes=ONE_SHAPE, sampler=positive),
    _rec("log10", lax.log10, np.log10, 1, INEXACT, shapes=ONE_SHAPE, sampler=positive,
         errors=[([I32], TypeError, r"xnp\.lax\.log10.*floating or complex")]),
    _rec("log1p", lax.log1p, np.log1p, 1, INEXACT, shapes=ONE_SHAPE, sampler=positive),
    _rec("expm1", lax.expm1, np.expm1, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("sqrt", lax.sqrt, np.sqrt, 1, INEXACT, shapes=ONE_SHAPE, sampler=special),
    _rec("rsqrt", lax.rsqrt, lambda x: (1 / np.sqrt(x)).astype(x.dtype), 1, INEXACT,
         shapes=ONE_SHAPE,
         sampler=positive),
    _rec("cbrt", lax.cbrt, np.cbrt, 1, FLOATING, shapes=ONE_SHAPE, sampler=special,
         errors=[([C64], TypeError, r"xnp\.lax\.cbrt")]),
    _rec("tanh", lax.tanh, np.tanh, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("sin", lax.sin, np.sin, 1, INEXACT, shapes=ONE_SHAPE,
         errors=[([I32], TypeError, r"xnp\.lax\.sin.*int32\[3\]")]),
    _rec("cos", lax.cos, np.cos, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("tan", lax.tan, np.tan, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("asin", lax.asin, np.arcsin, 1, INEXACT, shapes=ONE_SHAPE, sampler=unit),
    _rec("acos", lax.acos, np.arccos, 1, INEXACT, shapes=ONE_SHAPE, sampler=unit),
    _rec("atan", lax.atan, np.arctan, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("atan2", lax.atan2, np.arctan2, 2, FLOATING, sampler=special, shapes=FEW_BINARY),
    _rec("sinh", lax.sinh, np.sinh, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("cosh", lax.cosh, np.cosh, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("asinh", lax.asinh, np.arcsinh, 1, INEXACT, shapes=ONE_SHAPE),
    _rec("acosh", lax.acosh, np.arccosh, 1, FLOATING, shapes=ONE_SHAPE,
         sampler=lambda r, s, d: positive(r, s, d) + 1),
    _rec("atanh", lax.atanh, np.arctanh, 1, INEXACT, shapes=ONE_SHAPE, sampler=unit),
    _rec("logistic", lax.logistic, ref_logistic, 1, INEXACT, shapes=ONE_SHAPE),
    # complex
    _rec("real", lax.real, np.real, 1, COMPLEX, shapes=FEW_SHAPES,
         errors=[([F32], TypeError, r"xnp\.lax\.real")]),
    _rec("imag", lax.imag, np.imag, 1, COMPLEX, shapes=FEW_SHAPES),
    _rec("conj", lax.conj, np.conjugate, 1, COMPLEX, shapes=FEW_SHAPES),
    _rec("complex", lax.complex, ref_complex, 2, F32_F64, sampler=special,
         errors=[([np.ones(3, np.float16)] * 2, TypeError, r"xnp\.lax\.complex")]),
    # conversions
    _rec("convert_to_f64", lambda x: lax.convert_element_type(x, np.float64),
         lambda x: (x.real if x.dtype.kind == "c" else x).astype(np.float64), 1, ALL,
         sampler=special),
    _rec("convert_to_bool", lambda x: lax.convert_element_type(x, np.bool_),
         lambda x: x != 0, 1, ALL, sampler=special),
    _rec("convert_to_i32", lambda x: lax.convert_element_type(x, np.int32),
         lambda x: x.astype(np.int32), 1, BOOL + SIGNED + FLOATING, sampler=finite_special),
    _rec("convert_to_u8", lambda x: lax.convert_element_type(x, np.uint8),
         lambda x: x.astype(np.uint8), 1, BOOL + UNSIGNED + FLOATING, sampler=positive),
    _rec("convert_to_c128", lambda x: lax.convert_element_type(x, np.complex128),
         lambda x: x.astype(np.complex128), 1, SOME_REAL_OR_BOOL + [_d(np.complex64)],
         sampler=special, shapes=ONE_SHAPE),
    _rec("convert_to_bf16", lambda x: lax.convert_element_type(x, ml_dtypes.bfloat16),
         lambda x: x.astype(ml_dtypes.bfloat16), 1, BOOL + FLOATING, sampler=special),
    _rec("bitcast_to_signed", lambda x: lax.bitcast_convert_type(x, f"i{x.dtype.itemsize}"),
         lambda x: x.view(f"i{x.dtype.itemsize}"), 1, SOME_REAL_OR_BOOL[1:] + [_d(np.float32)],
         shapes=[(3,)]),
    # selection
    _rec("select_n_bool", lambda p, a, b: lax.select_n(lax.gt(p, a), a, b),
         lambda p, a, b: np.where(p > a, b, a), 3, REAL, shapes=TERNARY_SHAPES,
         errors=[([I32, F32, F64], TypeError, r"xnp\.lax\.(select_n|gt)")]),
    _rec("select_n_int32", lambda p, a, b: lax.select_n(lax.convert_element_type(p, np.int32),
                                                        a, b, p),
         ref_select_n_int, 3, INTEGER, shapes=TERNARY_SHAPES, sampler=small_ints),
    _rec("select", lambda p, a, b: lax.select(lax.lt(p, a), a, b),
         lambda p, a, b: np.where(p < a, a, b), 3, SOME_REAL_OR_BOOL, shapes=[((), (2, 3), ())]),
    _rec("clamp", lambda lo, x, hi: lax.clamp(lo, x, hi),
         lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi), 3, REAL, sampler=special,
         shapes=[(), (0,), (3,), (2, 3), ((), (2, 3), ()), ((), (3,), (3,))]),
]

# select_n / clamp rule errors that need their own argument kinds
RECORDS.append(OpRecord(
    "select_n_errors", lambda w, a, b: lax.select_n(w, a, b), lambda w, a, b: a, 3, [], shapes=[],
    errors=[([F32, F32, F32], TypeError, r"xnp\.lax\.select_n.*bool or int32"),
            ([BOOLS, F32, F64], TypeError, r"xnp\.lax\.select_n.*equal dtypes"),
            ([BOOLS, np.ones(4, np.float32), F32], TypeError, r"xnp\.lax\.select_n")]))
RECORDS.append(OpRecord(
    "clamp_errors", lambda lo, x, hi: lax.clamp(lo, x, hi), lambda lo, x, hi: x, 3, [],
    shapes=[],
    errors=[([F32, np.ones((2, 3), np.float32), F32], TypeError, r"xnp\.lax\.clamp.*scalar"),
            ([C64, C64, C64], TypeError, r"xnp\.lax\.clamp")]))


def _errors_only(name, fun, nargs, errors):
    """A record that only lists rule errors (no value cases)."""
    return OpRecord(name, fun, lambda *a: a[0], nargs, [], shapes=[], errors=errors)


RECORDS += [
    _errors_only("integer_pow_errors", lambda x: lax.integer_pow(x, -1), 1,
                 [([I32], TypeError, r"xnp\.lax\.integer_pow.*negative power")]),
    _errors_only("round_errors", lambda x: lax.round(x, 2), 1,
                 [([F32], ValueError, r"xnp\.lax\.round.*rounding_method")]),
    _errors_only("bitcast_errors", lambda x: lax.bitcast_convert_type(x, np.int64), 1,
                 [([F32], TypeError, r"xnp\.lax\.bitcast_convert_type.*bit width"),
                  ([C64], TypeError, r"xnp\.lax\.bitcast_convert_type")]),
    _errors_only("convert_errors", lambda x: lax.convert_element_type(x, np.str_), 1,
                 [([F32], TypeError, r"xnp\.lax\.convert_element_type")]),
]
