"""Miscellaneous math (NumPy's "mathematical functions" and "logic" leftovers):
``heaviside``, ``sinc``, ``fix``, ``frexp``, ``ldexp``, ``modf``, ``gcd``, ``lcm``, ``spacing``, ``iscomplex``,
``isreal``, ``iscomplexobj``, ``isrealobj``, ``real_if_close``, ``unwrap``,
``gradient``, ``trapezoid``, ``cross``, ``kron``, ``matvec``, ``vecmat``.

Written on the existing ufuncs of :mod:`xnp.numpy_api` (so NEP 50 promotion and
broadcasting are theirs) and on lax for the bit-level functions.
``iscomplexobj``/``isrealobj`` only look at the dtype and return Python bools, also under
``jit``. The comparisons ``isclose``, ``allclose``, ``array_equal`` and ``array_equiv`` are
:mod:`xnp.numpy_api.closeness`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import cumulative as _cu
from xnp.numpy_api import elementwise as _ew
from xnp.numpy_api import products as _la
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import rounding as _rn
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api import transcendental as _tr
from xnp.numpy_api import _ufunc as _uf
from xnp.numpy_api import _util
from xnp.numpy_api._shared_outputs import finish_two
from xnp.numpy_api._ufunc import _binary, _binary_inexact, _extras, _finish, _inexact
from xnp.numpy_api._util import (asarray_for, broadcast_shapes, check_unsupported,
                                 normalize_axis, write_out)
from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray
from xnp.tracing.custom_derivatives import custom_jvp
from xnp.tracing.avals import canonical_dtype
from xnp.tracing.recording import metadata_function

__all__ = ["heaviside", "sinc", "fix",
           "frexp", "ldexp", "modf", "gcd", "lcm", "spacing", "iscomplex", "isreal",
           "iscomplexobj", "isrealobj", "real_if_close", "unwrap", "gradient", "trapezoid",
           "cross", "kron", "matvec", "vecmat"]


def _arr(fname, x, argname="a"):
    return _rd._asarray(fname, x) if argname == "a" else asarray_for(fname, x, argname)


def _dtype(x):
    return core.aval_of(x).dtype


def _shape(x):
    return core.aval_of(x).shape


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


# --------------------------------------------------------------------------- elementwise


def heaviside(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
    """Heaviside step: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where ``x1 > 0``,
    NaN where ``x1`` is NaN (``numpy.heaviside``, a ufunc; conventions as
    :mod:`xnp.numpy_api.elementwise`). Integer inputs compute in float as NumPy's loops
    (float16 for 8-bit, float64 for 64-bit). Complex raises ``TypeError``."""
    _extras("heaviside", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _uf.real_operands("heaviside", _binary_inexact, x1, x2, dtype, casting,
                                 "real inputs only")
    return _finish("heaviside", lax.composite("heaviside", _heaviside, a, b), out, where,
                   casting)


def _heaviside(a, b):
    dt = _dtype(a)
    zero, one = _const(0, dt), _const(1, dt)
    a, b = _util.broadcast_all("heaviside", a, b)
    shape = _shape(a)
    zeros, ones = (lax.broadcast_in_dim(c, shape, ()) for c in (zero, one))
    res = lax.select_n(lax.lt(a, zero), lax.select_n(lax.gt(a, zero), b, ones), zeros)
    return lax.select_n(lax.ne(a, a), res, a)  # NaN stays NaN


# sin(y)/y = sum_k (-1)^k y^2k / (2k+1)!, k = 0..8: below |y| = 1/2 the truncation is
# under 1e-19 relative, and the quotient rule's cancellation near 0 is avoided
_SINC_SERIES = tuple((-1) ** k / float(np.prod(np.arange(1, 2 * k + 2, dtype=np.float64)))
                     for k in range(9))


def sinc(x):
    """Normalised sinc ``sin(pi x) / (pi x)`` (``numpy.sinc``; 1 at 0). Integers and bool
    give float64 (``pi * x`` with NEP 50); complex allowed.

    Where ``|pi x| < 1/2`` it is evaluated as its Maclaurin series (within an ulp or two
    of NumPy's quotient), so derivatives are right at and near 0 (``sinc'(0) = 0``,
    ``sinc''(0) = -pi**2/3``); elsewhere ``sin(pi x) / (pi x)``. Each branch sees a safe
    argument where it is not taken, so neither turns the other's derivative into NaN.
    """
    v = _arr("sinc", x, "x")
    if _dtype(v).kind in "biu":  # (pi * v: the default float, NEP 50)
        v = _ew.multiply(v, 1.0)
    return lax.composite("sinc", _sinc, v)


def _sinc(v):
    y = _ew.multiply(np.pi, v)
    small = _lg.less(_ew.absolute(y), 0.5)
    y2 = _ew.square(_ew.where_weak(small, y, 0.0))
    series = _SINC_SERIES[-1]
    for c in _SINC_SERIES[-2::-1]:
        series = _ew.add(_ew.multiply(series, y2), c)
    big = _ew.where_weak(small, 1.0, y)
    return _ew.where_weak(small, series, _ew.divide(_tr.sin(big), big))


def fix(x, out=None):
    """Round towards zero (``numpy.fix``): ``floor`` for ``x >= 0``, ``ceil`` otherwise;
    dtype as those (integers stay integers)."""
    v = _arr("fix", x, "x")
    return write_out("fix", out, _ew.where_weak(_lg.greater_equal(v, 0), _rn.floor(v), _rn.ceil(v)))


def _float_operand(fname, x, dtype=None, casting="same_kind"):
    v = _inexact(fname, x, dtype, casting)
    if _dtype(v) in kit.COMPLEX:
        raise TypeError(f"xnp.{fname}: not supported for complex input")
    return v


def _uint(dt):
    return np.dtype(f"u{dt.itemsize}")


def _pow2(k, dt):
    """``2.0**k`` exactly for integer ``k`` within the normal exponent range of ``dt``."""
    info = ml_dtypes.finfo(dt)  # (NumPy's finfo has no bfloat16/float8)
    bias = -int(info.minexp) + 1
    ut = _uint(dt)
    bits = lax.shift_left(lax.convert_element_type(lax.add(k, _const(bias, _dtype(k))), ut),
                          _const(info.nmant, ut))
    return lax.bitcast_convert_type(bits, dt)


def frexp(x, out1=None, out2=None, /, *, out=(None, None), where=True, casting="same_kind",
          order="K", dtype=None, subok=True, signature=None):
    """Split ``x`` into mantissa and exponent, ``x = m * 2**e`` with ``0.5 <= |m| < 1``
    (``numpy.frexp``); exact, with integer operations on the bit pattern (subnormals
    included, also where XLA flushes subnormal floats to zero). 0, inf and NaN
    give ``(x, 0)``. Returns ``(mantissa, exponent)``: the float dtype of ``x`` (ints as
    NumPy's float loops) and int32. ``out1, out2`` (or ``out=(out1, out2)``) and ``where``
    as NumPy's ufuncs; ``dtype=`` raises ``TypeError``, as NumPy's (no loop gives both
    outputs one dtype)."""
    _extras("frexp", casting, order, subok, signature, dtype, (x,))
    outs = _uf.two_outs("frexp", out1, out2, out)
    if dtype is not None:
        raise TypeError(f"xnp.frexp: no loop for dtype={np.dtype(dtype)}: the mantissa is a "
                        "float and the exponent an int32 array")
    v = _float_operand("frexp", x)
    if isinstance(v, core.Tracer):  # the mantissa's derivative is 2**-e (custom jvp)
        m, e = _frexp_mantissa(v), _frexp(v)[1]
    else:
        m, e = lax.composite_multi("frexp", _frexp, v, out_dtypes=(_dtype(v), np.int32))
    return (_finish("frexp", m, outs[0], where, casting),
            _finish("frexp", e, outs[1], where, casting))


@custom_jvp
def _frexp_mantissa(v):
    return _frexp(v)[0]


@_frexp_mantissa.defjvp
def _frexp_mantissa_jvp(primals, tangents):
    """``d m = 2**-e dx`` (``m = x * 2**-e`` with ``e`` piecewise constant), the ratio
    ``m / x`` exact; at 0, infinities and NaN (``m = x``) the tangent passes through."""
    (v,), (t,) = primals, tangents
    m = _frexp_mantissa(v)
    dt = _dtype(v)
    plain = lax.or_(lax.eq(v, _const(0, dt)), lax.not_(lax.is_finite(v)))
    scale = lax.select_n(plain, lax.div(m, lax.select_n(plain, v, _const(1, dt))),
                         _const(1, dt))
    return m, lax.mul(t, scale)


def _frexp(v):
    dt = _dtype(v)
    info = ml_dtypes.finfo(dt)
    ut, i32 = _uint(dt), np.dtype(np.int32)
    nm, bias = int(info.nmant), -int(info.minexp) + 1
    width = dt.itemsize * 8
    bits = lax.bitcast_convert_type(v, ut)
    mask = (1 << (width - 1 - nm)) - 1  # exponent field
    frac_mask = (1 << nm) - 1
    field = lax.and_(lax.shift_right_logical(bits, _const(nm, ut)), _const(mask, ut))
    frac = lax.and_(bits, _const(frac_mask, ut))
    sign = lax.and_(bits, _const(1 << (width - 1), ut))
    # normal numbers: keep the fraction, set the exponent field to that of [0.5, 1)
    e_norm = lax.sub(lax.convert_element_type(field, i32), _const(bias - 1, i32))
    # subnormals (integer ops only, so no flush-to-zero): normalise by the bit length
    length = lax.sub(_const(width, i32), lax.convert_element_type(lax.clz(frac), i32))
    e_sub = lax.add(length, _const(1 - bias - nm, i32))
    shift = lax.convert_element_type(lax.sub(_const(nm + 1, i32), length), ut)
    frac_sub = lax.and_(lax.shift_left(frac, shift), _const(frac_mask, ut))
    tiny = lax.eq(field, _const(0, ut))
    e = lax.select_n(tiny, e_norm, e_sub)
    mbits = lax.or_(lax.or_(sign, lax.select_n(tiny, frac, frac_sub)),
                    _const((bias - 1) << nm, ut))
    m = lax.bitcast_convert_type(mbits, dt)
    special = lax.or_(lax.eq(v, _const(0, dt)), lax.not_(lax.is_finite(v)))
    m = lax.select_n(special, m, v)
    e = lax.select_n(special, e, lax.mul(e, _const(0, i32)))
    return m, e


def ldexp(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True, signature=None):
    """``x1 * 2**x2`` (``numpy.ldexp``), computed as three exact power-of-two products
    so large exponents neither overflow early nor lose bits. ``x2`` must be integer
    (``TypeError`` otherwise); the result has ``x1``'s float dtype (ints as NumPy's
    float loops), or ``dtype``, to which ``x1`` must cast safely (NumPy's loop search)."""
    _extras("ldexp", casting, order, subok, signature, dtype, (x1, x2))
    number = type(x1) is int or type(x1) is bool
    if not number:
        a = _ldexp_loop(x1, _float_operand("ldexp", x1), dtype)  # (its TypeError first)
        if type(x1) not in (float, complex) and \
                _dtype(asarray_for("ldexp", x1, "x1")) != np.bool_:  # (a bool array, or
            _check_exponent_range(x2)  # Python scalars only: NumPy's int64 loop, 'el')
    k = asarray_for("ldexp", x2, "x2")
    kt = _dtype(k)
    if kt == np.uint64 or (kt not in kit.INTEGER and kt != np.bool_):  # bool: int loop
        raise TypeError(f"xnp.ldexp: `x2` must be an integer array of a type that casts "
                        f"safely to int64 (NumPy's loops), got {kt}")
    if number:  # a Python int beside an integer exponent array is weak: NumPy's first
        # loop takes it, float16 ('ei', 'el'), or dtype=; beside a bool exponent, or with
        # a Python exponent, an int64 (float64); a Python bool is a bool (float16, dtype=)
        weak = type(x1) is int and type(x2) not in (int, bool) and kt != np.bool_
        if dtype is not None and (weak or type(x1) is bool):
            a = _float_operand("ldexp", float(x1), canonical_dtype(dtype), "unsafe")
        else:
            narrow = dtype is None and (type(x1) is bool or weak)
            a = _float_operand("ldexp", float(x1), np.float16 if narrow else None, "unsafe")
        a = _ldexp_loop(x1, a, dtype)
    dt = _dtype(a)
    i32 = np.dtype(np.int32)
    bias = -int(ml_dtypes.finfo(dt).minexp) + 1
    lim = 3 * (bias - 1)
    n = lax.convert_element_type(_ew.clip(k, -lim, lim), i32)
    (a, n), _ = _util.broadcast_arrays("ldexp", a, n)  # equal ranks (NumPy's ValueError)
    return _finish("ldexp", lax.composite("ldexp", _ldexp, a, n), out, where, casting)


def _ldexp_loop(x1, a, dtype):
    """``a`` (the mantissa in its float dtype) cast into ``dtype=``'s loop, or NumPy's
    ``TypeError`` where it has none (a float dtype ``a`` casts into safely)."""
    if dtype is None:
        return a
    dt = canonical_dtype(dtype)
    if dt.kind != "f" or not np.can_cast(_dtype(a), dt, "safe"):
        raise TypeError(f"xnp.ldexp: no loop for dtype={dt} with `x1` of dtype "
                        f"{_dtype(asarray_for('ldexp', x1, 'x1'))}")
    return lax.convert_element_type(a, dt, weak_type=False)


def _check_exponent_range(x2) -> None:
    """NumPy's loops take a Python int exponent as an int32: ``OverflowError`` out of its
    range. A weak 0-d eager integer array stands for a Python int (the eager dispatch
    cache's program for any value, ``numpy_api/_replay.py``): its value is read, so that
    program is not made and each value keeps this check."""
    if isinstance(x2, core.Array) and x2.ndim == 0 and x2.dtype.kind in "iu" and \
            core.aval_of(x2).weak_type:
        x2 = int(x2)
    if type(x2) is int and not -(2**31) <= x2 < 2**31:
        raise OverflowError(f"xnp.ldexp: Python integer {x2} out of bounds for int32 (the "
                            "exponent of NumPy's loops)")


@_uf.in_float32  # (so float16/bfloat16 results keep their subnormals under jit too)
def _ldexp(a, n):
    """``a * 2**n`` for an int32 ``n`` in the clipped range, as three exact products."""
    dt, i32 = _dtype(a), np.dtype(np.int32)
    a, n = _util.broadcast_all("ldexp", a, n)
    three, two = _const(3, i32), _const(2, i32)
    k1 = lax.div(n, three)
    k2 = lax.div(lax.sub(n, k1), two)
    k3 = lax.sub(lax.sub(n, k1), k2)
    return lax.mul(lax.mul(lax.mul(a, _pow2(k1, dt)), _pow2(k2, dt)), _pow2(k3, dt))


def modf(x, out1=None, out2=None, /, *, out=(None, None), where=True, casting="same_kind",
         order="K", dtype=None, subok=True, signature=None):
    """Fractional and integral parts, both with the sign of ``x`` (``numpy.modf``):
    ``(x - trunc(x), trunc(x))``; for ±inf ``(±0, ±inf)``. Float dtype as NumPy's loops.
    ``dtype=`` casts ``x`` (``casting`` checked); ``out1, out2`` (or ``out=(out1, out2)``)
    and ``where`` as NumPy's ufuncs. Outputs sharing memory hold what NumPy's loop leaves
    there (``_shared_outputs``): one array for both the fractional parts for its
    float32/float64 loops writing ``out``'s dtype, else the integral parts; views of one
    buffer NumPy's values at each address (under ``jit`` without ``where=`` or a cast)."""
    _extras("modf", casting, order, subok, signature, dtype, (x,))
    outs = _uf.two_outs("modf", out1, out2, out)
    v = _float_operand("modf", x, dtype, casting)
    dt = _dtype(v)
    frac, whole = lax.composite_multi("modf", _modf, v, out_dtypes=(dt, dt))
    # NumPy's float32/float64 loops store each integral part before the fractional one
    return finish_two("modf", np.modf, (v,), (frac, whole), outs, where, casting,
                      second_first=dt.char in "fd")


def _modf(v):
    whole = _rn.trunc(v)
    return _lg.copysign(_ew.where_weak(_lg.isinf(v), 0.0, _ew.subtract(v, whole)), v), whole


def _int_pair(fname, x1, x2, dtype, casting):
    loop = _uf.scalar_loop_dtype(fname, x1, x2, dtype)  # (an inexact loop: before any conversion)
    if loop is not None:
        _require_integer(fname, x1, x2, loop)
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    _require_integer(fname, x1, x2, dt)
    a, b = _util.broadcast_all(fname, a, b)
    return a, b, dt


def _require_integer(fname, x1, x2, dt) -> None:
    if dt not in kit.INTEGER:
        names = ", ".join(_uf.input_dtype_name(v) for v in (x1, x2))
        raise TypeError(f"xnp.{fname}: needs integer inputs, got inputs of dtypes ({names}), "
                        f"computed as {dt}")


def gcd(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Greatest common divisor of ``|x1|`` and ``|x2|`` (``numpy.gcd``); ``gcd(0, 0) = 0``.
    Integer inputs only (``TypeError`` otherwise). Euclid's algorithm in a
    ``lax.while_loop`` (not differentiable; batches under vmap)."""
    _extras("gcd", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _int_pair("gcd", x1, x2, dtype, casting)
    return _finish("gcd", lax.composite("gcd", _gcd, a, b), out, where, casting)


def _unsigned_abs(x, dt):
    """``|x|`` in the unsigned integer type of ``dt``'s width, as NumPy's gcd/lcm compute it
    (``|iinfo.min|`` is representable there: ``gcd(-2**63, 6)`` is 2)."""
    if dt.kind != "i":
        return x
    return lax.convert_element_type(lax.abs(x), np.dtype(f"uint{8 * dt.itemsize}"))


def _gcd(a, b):
    """Euclid's algorithm on ``|a|``, ``|b|`` in the unsigned type of their dtype's width
    (as NumPy's ``npy_gcd``); the result wraps back into that dtype."""
    dt = _dtype(a)
    u = np.dtype(f"uint{8 * dt.itemsize}")
    return lax.convert_element_type(_gcd_unsigned(_unsigned_abs(a, dt), _unsigned_abs(b, dt), u),
                                    dt)


def _gcd_unsigned(a, b, u):
    zero = _const(0, u)

    def cond(c):
        return _rd.any(lax.ne(c[1], zero))

    def body(c):
        x, y = c
        nz = lax.ne(y, zero)
        safe = lax.select_n(nz, _const(1, u), y)
        return lax.select_n(nz, x, y), lax.select_n(nz, y, lax.rem(x, safe))

    return lax.while_loop(cond, body, (a, b))[0]


def lcm(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
        subok=True, signature=None):
    """Least common multiple of ``|x1|`` and ``|x2|`` (``numpy.lcm``); 0 if either is 0.
    Integer inputs only; wraps around on overflow, as NumPy."""
    _extras("lcm", casting, order, subok, signature, dtype, (x1, x2))
    a, b, dt = _int_pair("lcm", x1, x2, dtype, casting)
    return _finish("lcm", lax.composite("lcm", _lcm, a, b), out, where, casting)


def _lcm(a, b):
    dt = _dtype(a)
    u = np.dtype(f"uint{8 * dt.itemsize}")
    ua, ub = _unsigned_abs(a, dt), _unsigned_abs(b, dt)
    g = _gcd_unsigned(ua, ub, u)
    zero = _const(0, u)
    nz = lax.ne(g, zero)
    q = lax.div(ua, lax.select_n(nz, _const(1, u), g))
    # NumPy: |a| / g * |b| in the unsigned type, wrapping around on overflow, then cast back
    return lax.convert_element_type(lax.select_n(nz, zero, lax.mul(q, ub)), dt)


def spacing(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
            subok=True, signature=None):
    """Distance from ``x`` to the next representable value away from zero
    (``numpy.spacing``): ``nextafter(x, -inf if x < 0 else inf) - x`` (so ``-0.0`` gives
    the smallest positive subnormal); NaN for inf/NaN. float16 gives
    ``nextafter(x, inf) - x`` (positive, towards +inf also for negative ``x``), as
    NumPy's half-precision loop does."""
    _extras("spacing", casting, order, subok, signature, dtype, (x,))
    v = _float_operand("spacing", x, dtype, casting)
    return _finish("spacing", lax.composite("spacing", _spacing_of, v), out, where, casting)


def _spacing_of(v):
    if _dtype(v) == np.float16:  # NumPy's half-precision spacing always steps towards +inf
        step = _ew.subtract(_lg.nextafter(v, np.inf), v)
        step = _ew.where_weak(_lg.isinf(v), np.nan, step)  # -inf too: NaN, as NumPy
    else:
        away = _ew.where_weak(_lg.less(v, 0), -np.inf, np.inf)  # -0.0 steps up, as NumPy
        step = _ew.subtract(_lg.nextafter(v, away), v)
    return step


# --------------------------------------------------------------------------- complex tests


def iscomplex(x):
    """Elementwise ``imag(x) != 0`` as bool (``numpy.iscomplex``); all False for real
    dtypes."""
    v = _arr("iscomplex", x, "x")
    return _lg.not_equal(_lg.imag(v), 0)


def isreal(x):
    """Elementwise ``imag(x) == 0`` as bool (``numpy.isreal``); all True for real dtypes."""
    v = _arr("isreal", x, "x")
    return _lg.equal(_lg.imag(v), 0)


@metadata_function
def iscomplexobj(x):
    """Whether ``x`` has a complex dtype (``numpy.iscomplexobj``): a Python bool from the
    dtype only (also under ``jit``)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = _dtype(asarray_for("iscomplexobj", x, "x"))
    return np.dtype(dt).kind == "c"


@metadata_function
def isrealobj(x):
    """Whether ``x`` has a non-complex dtype (``numpy.isrealobj``); Python bool."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """The real part of complex ``a`` if every imaginary part is below ``tol`` machine
    epsilons (``tol > 1``) or ``tol`` itself (``tol <= 1``); ``a`` unchanged otherwise
    (``numpy.real_if_close``).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        Under ``jit``/tracing with complex input: the result dtype depends on the data.
    """
    v = _arr("real_if_close", a, "a")
    dt = _dtype(v)
    if dt not in kit.COMPLEX:
        return v
    if tol > 1:
        tol = np.finfo(dt).eps * tol
    small = _rd.all(_lg.less(_ew.abs(_lg.imag(v)), tol))
    if isinstance(small, core.Tracer):
        known = small.to_concrete_value()
        if known is None:
            from xnp.tracing import errors  # noqa: PLC0415

            raise errors.ConcretizationTypeError(errors.concretization_message(
                small, "xnp.real_if_close chooses its result dtype from the data, which "
                "is unknown under tracing; use xnp.real(a) (or keep a complex)."))
    else:
        known = small._value
    return _lg.real(v) if bool(known) else v


# --------------------------------------------------------------------------- calculus


def unwrap(p, discont=None, axis=-1, *, period=6.283185307179586):
    """Unwrap phase jumps larger than ``discont`` (default ``period / 2``) along ``axis``
    by adding multiples of ``period`` (``numpy.unwrap``; same arithmetic, integer
    ``p`` with an integer ``period`` stays integer). ``axis`` is static."""
    x = _arr("unwrap", p, "p")
    ax = normalize_axis("unwrap", axis, max(len(_shape(x)), 1))
    dd = _cu.diff(x, axis=ax)
    if discont is None:
        discont = period / 2
    dt = np.result_type(_dtype(dd), period if not core.is_python_scalar(period) else
                        type(period)(0))
    if dt.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = _ew.add(_ew.mod(_ew.subtract(dd, low), period), low)
    if ambiguous:
        ddmod = _ew.where_weak(_lg.logical_and(_lg.equal(ddmod, low), _lg.greater(dd, 0)),
                          high, ddmod)
    correct = _ew.where_weak(_lg.less(_ew.abs(dd), discont), 0, _ew.subtract(ddmod, dd))
    head = lax.slice_in_dim(x, 0, 1, axis=ax)
    tail = _ew.add(lax.slice_in_dim(x, 1, _shape(x)[ax], axis=ax), _cu.cumsum(correct, axis=ax))
    up = _mn.concatenate([head, tail], axis=ax)
    return lax.convert_element_type(up, dt) if _dtype(up) != dt else up


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order one-sided
    differences at the edges (``numpy.gradient``) with uniform spacings.

    ``varargs``: none (spacing 1), one scalar for every axis, or per axis a scalar or
    a 1-D array of coordinates (NumPy's non-uniform formulas; coordinates found to be
    evenly spaced eagerly use the scalar path, as NumPy). Integer ``f`` gives float64.
    Returns one array for one axis, else a tuple.

    Raises
    ------
    ValueError
        An axis has fewer than ``edge_order + 1`` elements, ``edge_order`` is not 1 or 2,
        coordinates are not 1-D or not as long as their axis.
    TypeError
        The number of spacings does not match.
    """
    x = _arr("gradient", f, "f")
    nd = len(_shape(x))
    axes = tuple(range(nd)) if axis is None else tuple(
        normalize_axis("gradient", a, nd) for a in (axis if isinstance(axis, (tuple, list))
                                                    else (axis,)))
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        dx = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        dx = list(varargs)
    else:
        raise TypeError("xnp.gradient: invalid number of arguments")
    if edge_order not in (1, 2):
        raise ValueError("xnp.gradient: 'edge_order' greater than 2 not supported")
    if _dtype(x) in kit.INT_OR_BOOL:
        x = lax.convert_element_type(x, np.dtype(np.float64))
    outs = []
    for ax, h in zip(axes, dx):
        n = _shape(x)[ax]
        if n < edge_order + 1:
            raise ValueError("xnp.gradient: Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")

        def sl(lo, hi, ax=ax):
            return lax.slice_in_dim(x, lo, hi, axis=ax)

        h = _spacing(h, n)
        if np.ndim(h) != 0:
            outs.append(_gradient_coordinates(sl, h, n, ax, len(_shape(x)), edge_order))
            continue
        mid = _ew.divide(_ew.subtract(sl(2, n), sl(0, n - 2)), _ew.multiply(2.0, h))
        if edge_order == 1:
            first = _ew.divide(_ew.subtract(sl(1, 2), sl(0, 1)), h)
            last = _ew.divide(_ew.subtract(sl(n - 1, n), sl(n - 2, n - 1)), h)
        else:
            first = _ew.add(_ew.add(_ew.multiply(_ew.divide(-1.5, h), sl(0, 1)),
                                    _ew.multiply(_ew.divide(2.0, h), sl(1, 2))),
                            _ew.multiply(_ew.divide(-0.5, h), sl(2, 3)))
            last = _ew.add(_ew.add(_ew.multiply(_ew.divide(0.5, h), sl(n - 3, n - 2)),
                                   _ew.multiply(_ew.divide(-2.0, h), sl(n - 2, n - 1))),
                           _ew.multiply(_ew.divide(1.5, h), sl(n - 1, n)))
        outs.append(_mn.concatenate([first, mid, last], axis=ax))
    # f's dtype, as NumPy's output buffer (float64 spacings do not widen float32 f)
    outs = [g if _dtype(g) == _dtype(x) else lax.convert_element_type(g, _dtype(x)) for g in outs]
    return outs[0] if len(outs) == 1 else tuple(outs)


def _spacing(h, n):
    """A scalar spacing as given; coordinates as their float differences, or the common
    difference when they are concrete and evenly spaced (NumPy's shortcut)."""
    if np.ndim(h) == 0:
        return h
    d = _arr("gradient", h, "varargs")
    if len(_shape(d)) != 1:
        raise ValueError("xnp.gradient: distances must be either scalars or 1d")
    if _shape(d)[0] != n:
        raise ValueError("xnp.gradient: when 1d, distances must match the length of the "
                         "corresponding dimension")
    if _dtype(d) in kit.INT_OR_BOOL:
        d = lax.convert_element_type(d, np.dtype(np.float64))
    d = _ew.subtract(lax.slice_in_dim(d, 1, n), lax.slice_in_dim(d, 0, n - 1))
    host = d._value if type(d) is core.Array else None
    if host is not None and bool((np.asarray(host) == np.asarray(host)[0]).all()):
        return d[0]
    return d


def _gradient_coordinates(sl, dx, n, ax, nd, edge_order):
    """NumPy's non-uniform gradient along ``ax`` from the ``n - 1`` differences ``dx``."""
    def along(v):  # a 1-D coefficient array shaped to broadcast along ``ax``
        return _mn.reshape(v, tuple(-1 if i == ax else 1 for i in range(nd)))

    sub, add, mul, div = _ew.subtract, _ew.add, _ew.multiply, _ew.divide

    def combine(a, b, c, lo):  # a * f[lo] + b * f[lo + 1] + c * f[lo + 2], lo a slice start
        k = n - 2 if lo is None else 1
        lo = 0 if lo is None else lo
        return add(add(mul(along(a), sl(lo, lo + k)), mul(along(b), sl(lo + 1, lo + 1 + k))),
                   mul(along(c), sl(lo + 2, lo + 2 + k)))

    dx1, dx2 = dx[:-1], dx[1:]
    mid = combine(div(_ew.negative(dx2), mul(dx1, add(dx1, dx2))),
                  div(sub(dx2, dx1), mul(dx1, dx2)), div(dx1, mul(dx2, add(dx1, dx2))), None)
    if edge_order == 1:
        first = div(sub(sl(1, 2), sl(0, 1)), along(dx[:1]))
        last = div(sub(sl(n - 1, n), sl(n - 2, n - 1)), along(dx[-1:]))
    else:
        d1, d2 = dx[:1], dx[1:2]
        first = combine(_ew.negative(div(add(mul(2.0, d1), d2), mul(d1, add(d1, d2)))),
                        div(add(d1, d2), mul(d1, d2)),
                        _ew.negative(div(d1, mul(d2, add(d1, d2)))), 0)
        d1, d2 = dx[-2:-1], dx[-1:]
        last = combine(div(d2, mul(d1, add(d1, d2))),
                       _ew.negative(div(add(d2, d1), mul(d1, d2))),
                       div(add(mul(2.0, d2), d1), mul(d2, add(d1, d2))), n - 3)
    return _mn.concatenate([first, mid, last], axis=ax)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` along ``axis`` by the trapezoidal rule (``numpy.trapezoid``):
    sample points ``x`` (1-D along ``axis`` or broadcastable to ``y``) or the spacing
    ``dx``. Dtype: NumPy's promotion of ``dx``/``diff(x)`` with ``y`` (ints with the
    default ``dx`` give float64). Differentiable in ``y`` and ``x``. ``axis`` is static."""
    yv = _arr("trapezoid", y, "y")
    nd = len(_shape(yv))
    ax = normalize_axis("trapezoid", axis, nd)
    if x is None:
        d = dx
    else:
        xv = asarray_for("trapezoid", x, "x")
        if len(_shape(xv)) == 1:
            d = _cu.diff(xv)
            shape = [1] * nd
            shape[ax] = _shape(d)[0]
            d = _mn.reshape(d, tuple(shape))
        else:
            d = _cu.diff(xv, axis=ax)
    n = _shape(yv)[ax]
    s = _ew.add(lax.slice_in_dim(yv, 1, max(n, 1), axis=ax),
                lax.slice_in_dim(yv, 0, max(n - 1, 0), axis=ax))
    return _rd.sum(_ew.divide(_ew.multiply(d, s), 2.0), axis=ax)


# --------------------------------------------------------------------------- products


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 3-vectors (or 2-vectors) along the given axes (``numpy.cross``);
    other dimensions broadcast; the operands' promoted dtype (bool raises ``TypeError``,
    as NumPy's subtraction). A 2-vector's zero z is left out of the products as in
    NumPy's branches for them (``a1 * b2``, not ``a1 * b2 - 0 * b1``); two 2-vectors give
    the z component only, and warn ``DeprecationWarning`` as NumPy 2. Eagerly one call of
    NumPy's ``cross`` (see ``xnp.linalg.cross``).

    Raises
    ------
    ValueError
        A vector axis has a length other than 2 or 3, or the other dimensions do not
        broadcast.
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    from xnp.numpy_api import linalg_norms as _nl  # noqa: PLC0415

    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = asarray_for("cross", a, "a"), asarray_for("cross", b, "b")
    x = _nl.to_last(x, normalize_axis("cross", axisa, len(_shape(x)), "axisa"))
    y = _nl.to_last(y, normalize_axis("cross", axisb, len(_shape(y)), "axisb"))
    na, nb = _shape(x)[-1], _shape(y)[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("xnp.cross: incompatible dimensions for cross product\n(dimension "
                         "must be 2 or 3)")
    if na == 2 or nb == 2:  # NumPy's text, so warning filters written for NumPy match
        _util.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                   "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                   DeprecationWarning)
    c = _nl.vector_cross("cross", x, y)
    if na == 2 and nb == 2:
        return c
    return _nl.from_last(c, normalize_axis("cross", axisc, len(_shape(c)), "axisc"))


def kron(a, b):
    """Kronecker product (``numpy.kron``): blocks ``a[i, j] * b``; ranks are equalised by
    prepending 1s; shape ``a.shape * b.shape`` elementwise; dtype as ``multiply`` of the
    operands as ``numpy.asarray`` converts them (a Python scalar is an array of its default
    dtype, not weak: ``kron(int8_array, 100)`` is int64; an int from 2**63 is uint64)."""
    x, y = _la._asarray("kron", a, "a"), _la._asarray("kron", b, "b")
    nda, ndb = len(_shape(x)), len(_shape(y))
    if nda == 0 or ndb == 0:
        return _ew.multiply(x, y)
    nd = max(nda, ndb)
    x = _mn.reshape(x, (1,) * (nd - nda) + _shape(x))
    y = _mn.reshape(y, (1,) * (nd - ndb) + _shape(y))
    sa, sb = _shape(x), _shape(y)
    xa = _mn.expand_dims(x, tuple(range(1, 2 * nd, 2)))
    yb = _mn.expand_dims(y, tuple(range(0, 2 * nd, 2)))
    return _mn.reshape(_ew.multiply(xa, yb), tuple(p * q for p, q in zip(sa, sb)))


def _check_core_dims(fname, sig, x1, x2, need1, need2):
    """NumPy's gufunc check: each operand has at least its core dimensions."""
    for i, (v, need) in enumerate(((x1, need1), (x2, need2))):
        if len(_shape(v)) < need:
            raise ValueError(
                f"xnp.{fname}: Input operand {i} does not have enough dimensions (has "
                f"{len(_shape(v))}, gufunc core with signature {sig} requires {need}); "
                f"x1 is {errors.aval_str(core.aval_of(x1))}, x2 {errors.aval_str(core.aval_of(x2))}")


def _core_mismatch(fname, sig, sa, sb, n1, n2):
    """NumPy's gufunc error for core dimension sizes ``n1`` (of x1) and ``n2`` (of x2)."""
    if n1 != n2:
        raise ValueError(f"xnp.{fname}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {sig} (size {n2} is different from {n1}); "
                         f"shapes {sa} and {sb}")


def _vector_product_operands(name, sig, ranks, contracted, x1, x2, casting, dtype, subok,
                             signature, axes, axis):
    """The checks of ``matvec``/``vecmat`` (gufunc ``sig`` with core ranks ``ranks``, the
    contracted axes ``contracted``), their operands in the loop dtype and the result's
    aval: ``(x, y, aval)``."""
    check_unsupported(name, axes=(axes, None, "use moveaxis"),
                      axis=(axis, None, "use moveaxis"),
                      subok=(subok, True, "xnp has no array subclasses"),
                      signature=(signature, None, "loop signatures are NumPy-internal"))
    x, y, dt = _la._gufunc_operands(name, x1, x2, casting, dtype)
    _check_core_dims(name, sig, x, y, *ranks)
    sa, sb = _shape(x), _shape(y)
    _core_mismatch(name, sig, sa, sb, sa[contracted[0]], sb[contracted[1]])
    loop = broadcast_shapes(name, sa[:-ranks[0]], sb[:-ranks[1]])
    out = loop + ((sa[-2],) if ranks[0] == 2 else (sb[-1],))
    # (an operand NumPy's loop casts is a C-contiguous buffer there, as in matmul)
    x, y = _la._c_ordered_cast(x, x1), _la._c_ordered_cast(y, x2)
    return x, y, ShapedArray(out, dt)


def matvec(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
           signature=None, axes=None, axis=None):
    """Matrix-vector product over the last axes (``numpy.matvec``, a gufunc
    ``(m,n),(n)->(m)``): stacks broadcast; no conjugation. ``axes``/``axis`` raise
    ``NotImplementedError``; otherwise as :func:`xnp.matmul` (``dtype``, ``casting``
    and ``out`` included)."""
    x, y, aval = _vector_product_operands("matvec", "(m,n),(n)->(m)", (2, 1), (-1, -1), x1,
                                          x2, casting, dtype, subok, signature, axes, axis)
    # eagerly NumPy's matvec ufunc itself (its loop, its "... in matvec" errors); traced the
    # dot_general
    res = lax.composite_general("matvec", _matvec_steps, x, y, out_avals=(aval,))[0]
    return write_out("matvec", out, res, casting)


def _matvec_steps(x, y):
    return [_la._matvec_values(x, y)]


def _vecmat_steps(x, y):
    """``[numpy.vecmat(x, y)]``: ``x`` conjugated (complex), then the product."""
    if core.aval_of(x).dtype in kit.COMPLEX:
        x = _lg.conjugate(x)
    return [_la._vecmat_values(x, y)]


def vecmat(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
           signature=None, axes=None, axis=None):
    """Vector-matrix product ``conj(x1) @ x2`` over the last axes (``numpy.vecmat``, a
    gufunc ``(n),(n,m)->(m)``); stacks broadcast. The first operand is conjugated (in
    the loop dtype); ``dtype``, ``casting`` and ``out`` as :func:`xnp.matmul`."""
    x, y, aval = _vector_product_operands("vecmat", "(n),(n,m)->(m)", (1, 2), (-1, -2), x1,
                                          x2, casting, dtype, subok, signature, axes, axis)
    res = lax.composite_general("vecmat", _vecmat_steps, x, y, out_avals=(aval,))[0]
    return write_out("vecmat", out, res, casting)
