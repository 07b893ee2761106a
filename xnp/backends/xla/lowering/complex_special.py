"""Special values of the complex elementwise functions under ``jit``: NumPy's.

XLA's complex ``exp``/``log``/``sqrt``/trigonometric/hyperbolic functions (and
``abs``, ``sign``) are formulas that do not follow C99 Annex G at the special
values, which NumPy (the eager backend) and the Array API standard do:
``exp(inf + nan j)`` is ``nan + nan j`` in XLA (``inf + nan j`` eagerly),
``exp(-0j)`` loses the sign of the zero, ``acos(0 + nan j)`` gives ``nan`` for
the real part (``pi/2``), ``abs(inf + nan j)`` is ``nan`` (``inf``).

So each of these rules is wrapped: XLA computes the value, then every element
whose real and imaginary parts are both special (``+0``, ``-0``, ``+inf``,
``-inf``, ``nan``) gets the eager backend's value for that class of input, and
so does every element with one special part and a finite nonzero other part
where the eager value is the same for every finite value (``atanh(2 + nan j)``
is ``nan + nan j``); those depending on the finite part (``exp(inf + 2j)`` is
``inf * cis(2)``) keep XLA's value. The table of these values is computed once
per (primitive, dtype) from the eager implementation (``XP_IMPLS`` on NumPy), so
the jitted special values are the eager ones by construction; the fix-up is
written with lax functions and lowered inline.

Before that fix-up, some of XLA's values are replaced: ``sin``/``cos``/``sinh``/
``cosh``/``expm1`` are computed by the formulas NumPy's loops use (glibc's C99
``csinh``/``ccosh`` scaling, NumPy's ``expm1``), and ``atan``/``atanh``/``log1p``/
``exp``/``exp2``/``tan`` get the parts XLA loses (poles, signed zeros) patched in.
Complex division and power are NumPy's loops (Smith's division; ``npy_cpow`` with
glibc's ``cexp(y log x)`` and C99's product).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import LOWERINGS, lowering
from xnp.backends.xp_impls import XP_IMPLS
from xnp.lax import _matrix as M
from xnp.tracing import core
from xnp.tracing.jaxpr_transforms import trace_flat

__all__: list = []

_PRIMS = [lax.exp_p, lax.log_p, lax.log1p_p, lax.expm1_p, lax.sqrt_p, lax.sin_p, lax.cos_p,
          lax.tan_p, lax.sinh_p, lax.cosh_p, lax.tanh_p, lax.asin_p, lax.acos_p, lax.atan_p,
          lax.asinh_p, lax.acosh_p, lax.atanh_p, lax.sign_p, lax.abs_p, lax.exp2_p]

# classes of a real part: 0 +0, 1 -0, 2 +inf, 3 -inf, 4 nan, 5 finite nonzero
_SPECIAL = (0.0, -0.0, math.inf, -math.inf, math.nan)
_FINITE = (1.0, -1.0, 2.5, -2.5, 0.5, -0.75, 1e-3, 7.0)
_TABLES: dict = {}


def _same(a: np.ndarray) -> bool:
    """Whether the (real) values ``a`` are one value: NaN-ness, value and sign of zero."""
    a0 = a[0]
    if np.isnan(a0):
        return bool(np.isnan(a).all())
    return bool(np.all(a == a0) and np.all(np.signbit(a) == np.signbit(a0)))


def _table(prim, dtype: np.dtype) -> list:
    """``[(class index 6 * re_class + im_class, eager value)]`` of ``prim`` on ``dtype``."""
    key = (prim, dtype)
    if key in _TABLES:
        return _TABLES[key]
    impl = XP_IMPLS[prim]
    entries = []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for ci in range(6):
            for cj in range(6):
                if ci == 5 and cj == 5:
                    continue
                res = _FINITE if ci == 5 else (_SPECIAL[ci],)
                ims = _FINITE if cj == 5 else (_SPECIAL[cj],)
                z = np.array([complex(a, b) for a in res for b in ims], dtype=dtype)
                out = np.asarray(impl(np, z))
                parts = [out.real, out.imag] if out.dtype.kind == "c" else [out]
                if all(_same(np.asarray(p)) for p in parts):
                    entries.append((6 * ci + cj, out[0]))
    _TABLES[key] = entries
    return entries


def _classes(x):
    """The class (above) of each element of the real array ``x``, as int32."""
    a = core.aval_of(x)

    def c(v):
        return lax.broadcast_in_dim(M.scalar(v, np.int32), a.shape, ())

    zero = lax.select_n(_signbit(x), c(0), c(1))
    out = lax.select_n(lax.eq(x, _const(0.0, x)), c(5), zero)
    out = lax.select_n(lax.eq(x, _const(math.inf, x)), out, c(2))
    out = lax.select_n(lax.eq(x, _const(-math.inf, x)), out, c(3))
    return lax.select_n(lax.ne(x, x), out, c(4))


def _const(v, like):
    """``v`` broadcast to the shape and dtype of the (real) array ``like``."""
    a = core.aval_of(like)
    return lax.broadcast_in_dim(M.scalar(v, a.dtype), a.shape, ())


def _signbit(x):
    """Where the sign bit of the real array ``x`` is set (``-0.0`` included)."""
    a = core.aval_of(x)
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    return lax.lt(lax.bitcast_convert_type(x, ints),
                  lax.broadcast_in_dim(M.scalar(0, ints), a.shape, ()))


def _negative_zero(x):
    """Where the real array ``x`` is ``-0.0``."""
    return lax.and_(lax.eq(x, _const(0.0, x)), _signbit(x))


def _flip(pred, x):
    return lax.select(pred, lax.neg(x), x)


# XLA reads a signed zero on a branch cut as +0: f(x - 0j) comes out as f(x + 0j) (and
# asinh(-0 + yj) as asinh(+0 + yj)). The principal branches are symmetric, f(conj z) =
# conj(f(z)) (asinh also odd: asinh(-conj z) = -conj(asinh z)), which gives the other side.
_MIRRORS = {lax.sqrt_p: "conj", lax.asin_p: "conj", lax.acos_p: "conj", lax.acosh_p: "conj",
            lax.asinh_p: "neg_conj"}


def _mirror(kind, z, w):
    if kind == "conj":
        return lax.select_n(_negative_zero(lax.imag(z)), w, lax.conj(w))
    return lax.select_n(_negative_zero(lax.real(z)), w, lax.neg(lax.conj(w)))


# ---------------------------------------------------------------- formulas replacing XLA's
# XLA's complex sin/cos/sinh/cosh build sinh and cosh of one part from exp, which rounds a
# tiny part to 0 (sinh(1e-300 + 0j) was 0j) and overflows to inf * 0 = NaN (cos(1e300j)
# was inf + nanj). These are computed here as
# C99 Annex G implementations (glibc's, which NumPy calls) do; expm1 as NumPy's loop.

def _hyperbolic_parts(x, y, odd):
    """``(re, im)`` of ``sinh(x + iy)`` (``odd``) or ``cosh(x + iy)``.

    ``sinh(x) cos(y) + i cosh(x) sin(y)`` / ``cosh(x) cos(y) + i sinh(x) sin(y)`` with the
    real sinh/cosh (exact for tiny ``x``); past the overflow threshold of ``exp``, ``e^|x|/2``
    is applied as ``h * h / 2`` with ``h = exp(|x| / 2)`` after the cosine/sine factor, so
    a finite result does not overflow and a zero ``y`` keeps its (signed) zero.
    """
    dt = core.aval_of(x).dtype
    ax = lax.abs(x)
    neg = _signbit(x)
    s, c = lax.sin(y), lax.cos(y)
    if odd:  # sinh is odd in x: the sign of x goes on the cos(y) factor
        c = _flip(neg, c)
        re, im = lax.mul(lax.sinh(ax), c), lax.mul(lax.cosh(ax), s)
    else:
        s = _flip(neg, s)
        re, im = lax.mul(lax.cosh(ax), c), lax.mul(lax.sinh(ax), s)
    h = lax.exp(lax.mul(ax, _const(0.5, x)))
    half = _const(0.5, x)
    big = lax.gt(ax, _const(float(int((np.finfo(dt).maxexp - 1) * math.log(2.0))), x))
    re = lax.select(big, lax.mul(lax.mul(lax.mul(c, half), h), h), re)
    im = lax.select(big, lax.mul(lax.mul(lax.mul(s, half), h), h), im)
    return re, lax.select(lax.eq(y, _const(0.0, y)), s, im)


def _sinh(z):
    return lax.complex(*_hyperbolic_parts(lax.real(z), lax.imag(z), odd=True))


def _cosh(z):
    return lax.complex(*_hyperbolic_parts(lax.real(z), lax.imag(z), odd=False))


def _sin(z):  # sin z = -i sinh(iz), iz = -y + ix
    a, b = _hyperbolic_parts(lax.neg(lax.imag(z)), lax.real(z), odd=True)
    return lax.complex(b, lax.neg(a))


def _cos(z):  # cos z = cosh(iz)
    return lax.complex(*_hyperbolic_parts(lax.neg(lax.imag(z)), lax.real(z), odd=False))


def _expm1(z):
    """NumPy's complex expm1: ``expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)``."""
    x, y = lax.real(z), lax.imag(z)
    h = lax.sin(lax.mul(y, _const(0.5, y)))
    re = lax.sub(lax.mul(lax.expm1(x), lax.cos(y)), lax.mul(_const(2.0, x), lax.mul(h, h)))
    return lax.complex(re, lax.mul(lax.exp(x), lax.sin(y)))


_FORMULAS = {lax.sin_p: _sin, lax.cos_p: _cos, lax.sinh_p: _sinh, lax.cosh_p: _cosh,
             lax.expm1_p: _expm1}


# XLA's complex atanh overflows at its singular points (atanh(1 + 1e-300j) was inf;
# C99: (ln 2 - ln|y|) / 2) and loses the sign of a zero y past 16 / eps (atanh(1e300 - 0j)
# had imaginary part +pi/2), and gives -0 for the real part of atanh(-0 + 1j). These
# parts are replaced; atan z = -i atanh(iz) gets the same.

def _atanh_patch(z, w):
    x, y = lax.real(z), lax.imag(z)
    eps = float(np.finfo(core.aval_of(x).dtype).eps)
    ax, ay = lax.abs(x), lax.abs(y)
    huge = lax.or_(lax.ge(ax, _const(16 / eps, x)), lax.ge(ay, _const(16 / eps, x)))
    im = lax.select(huge, _flip(_signbit(y), _const(math.pi / 2, y)), lax.imag(w))
    pole = lax.and_(lax.eq(ax, _const(1.0, x)), lax.lt(ay, _const(eps * eps, x)))
    near = lax.mul(_flip(_signbit(x), _const(0.5, x)),
                   lax.sub(_const(math.log(2.0), x), lax.log(ay)))
    re = lax.select(pole, near, lax.real(w))
    # on the imaginary axis the real part is x's zero (atan(1 + 0j) had imaginary part -0)
    return lax.complex(lax.select(lax.eq(x, _const(0.0, x)), x, re), im)


def _atan_patch(z, w):
    # atan z = -i atanh(iz): with iz = -y + ix and atanh(iz) = i atan z = -im(w) + i re(w)
    x, y = lax.real(z), lax.imag(z)
    v = _atanh_patch(lax.complex(lax.neg(y), x), lax.complex(lax.neg(lax.imag(w)), lax.real(w)))
    return lax.complex(lax.imag(v), lax.neg(lax.real(v)))


def _log1p_patch(z, w):
    """XLA's complex log1p (``log1p(x (2 + x) + y^2) / 2``, accurate for small ``|z|``) is
    -inf at ``-1 + 1e-300j``, where ``y^2`` underflows: for ``|1 + z| < 1/2`` the real part
    is ``log|1 + z|`` (NumPy's formula, exact there)."""
    x, y = lax.real(z), lax.imag(z)
    r = lax.abs(lax.complex(lax.add(x, _const(1.0, x)), y))
    # for 0.75 <= |1 + z| <= 0.82, XLA's formula again, through xnp's real log1p: there
    # x (2 + x) + y^2 is in XLA's float64 log1p's bad band [-0.4143, -0.358] (128 ulp)
    mid = lax.and_(lax.ge(r, _const(0.75, r)), lax.le(r, _const(0.82, r)))
    d = lax.add(lax.mul(x, lax.add(x, _const(2.0, x))), lax.mul(y, y))
    re = lax.select(mid, lax.mul(_const(0.5, x), lax.log1p(d)), lax.real(w))
    re = lax.select(lax.lt(r, _const(0.5, r)), lax.log(r), re)
    return lax.complex(re, lax.imag(w))


def _veltkamp(a):
    """``a = hi + lo`` with both parts of at most half the significand (products exact)."""
    bits = (np.finfo(core.aval_of(a).dtype).nmant + 2) // 2
    t = lax.mul(a, _const(float(2 ** bits + 1), a))
    hi = lax.sub(t, lax.sub(t, a))
    return hi, lax.sub(a, hi)


def _sum_of_squares_minus_one(m, n):
    """``m^2 + n^2 - 1`` to about one rounding of the result: the squares split into exact
    partial products, added to -1 in decreasing order with compensated (two-sum) steps."""
    (mh, ml), (nh, nl) = _veltkamp(m), _veltkamp(n)
    two = _const(2.0, m)
    terms = [lax.mul(mh, mh), lax.mul(nh, nh), lax.mul(two, lax.mul(mh, ml)),
             lax.mul(two, lax.mul(nh, nl)), lax.mul(ml, ml), lax.mul(nl, nl)]
    s, c = _const(-1.0, m), _const(0.0, m)
    for t in terms:
        total = lax.add(s, t)
        back = lax.sub(total, s)
        c = lax.add(c, lax.add(lax.sub(s, lax.sub(total, back)), lax.sub(t, back)))
        s = total
    return lax.add(s, c)


def _log_patch(z, w):
    """The real part of the complex log, ``log|z|``, where XLA's loses digits (up to 128 ulp
    at ``|z|`` near 0.77, 32 just below 1): as glibc's ``clog`` (NumPy's loop), with ``m, n``
    the larger and smaller of ``|x|, |y|``, ``log1p(m^2 + n^2 - 1) / 2`` for ``1/2 <= m < 1``
    and ``m^2 + n^2 >= 1/2`` (the sum formed without cancellation error) and
    ``log1p((m - 1)(m + 1) + n^2) / 2`` for ``1 <= m < 2``, ``n < 1``. complex64 forms it in
    float64. A zero imaginary part (a subnormal one reads as zero) gives ``atan2(+-0, x)``."""
    x, y = lax.real(z), lax.imag(z)
    part = core.aval_of(x).dtype
    if part == np.float32:
        x, y = (lax.convert_element_type(v, np.dtype(np.float64)) for v in (x, y))
    ax, ay = lax.abs(x), lax.abs(y)
    m, n = lax.max(ax, ay), lax.min(ax, ay)
    one, half = _const(1.0, m), _const(0.5, m)
    near = lax.and_(lax.and_(lax.ge(m, half), lax.lt(m, one)),
                    lax.ge(lax.add(lax.mul(m, m), lax.mul(n, n)), half))
    above = lax.and_(lax.and_(lax.ge(m, one), lax.lt(m, _const(2.0, m))), lax.lt(n, one))
    d_above = lax.add(lax.mul(lax.sub(m, one), lax.add(m, one)), lax.mul(n, n))
    d = lax.select(near, _sum_of_squares_minus_one(m, n), d_above)
    re = lax.mul(half, lax.log1p(d))
    if part == np.float32:
        re = lax.convert_element_type(re, part)
    # a zero (or, read as zero, subnormal) imaginary part: the argument is that of +-0 on
    # the side of y's sign bit (XLA gave -pi for -1 + 5e-324j)
    x, y = lax.real(z), lax.imag(z)
    side = lax.atan2(_const(0.0, y), x)
    im = lax.select(lax.eq(y, _const(0.0, y)), _flip(_signbit(y), side), lax.imag(w))
    return lax.complex(lax.select(lax.or_(near, above), re, lax.real(w)), im)


def _zero_part_kept(imaginary):
    """A patch giving the result's real (imaginary) part the input's zero where that part
    of the input is zero: ``exp(x - 0j)`` and ``tanh(x - 0j)`` have imaginary part ``-0``
    and ``tan(-0 + yj)`` has real part ``-0`` (XLA gives ``+0`` for each)."""
    def patch(z, w):
        if imaginary:
            y = lax.imag(z)
            return lax.complex(lax.real(w), lax.select(lax.eq(y, _const(0.0, y)), y, lax.imag(w)))
        x = lax.real(z)
        return lax.complex(lax.select(lax.eq(x, _const(0.0, x)), x, lax.real(w)), lax.imag(w))

    return patch


_PATCHES = {lax.atanh_p: _atanh_patch, lax.atan_p: _atan_patch, lax.log1p_p: _log1p_patch,
            lax.log_p: _log_patch,
            lax.exp_p: _zero_part_kept(imaginary=True), lax.exp2_p: _zero_part_kept(imaginary=True),
            lax.tan_p: _zero_part_kept(imaginary=False),
            lax.tanh_p: _zero_part_kept(imaginary=True)}


def _fixup(prim, entries):
    formula, patch, mirror = _FORMULAS.get(prim), _PATCHES.get(prim), _MIRRORS.get(prim)

    def fix(z, w):
        if formula is not None:
            w = formula(z)
        if patch is not None:
            w = patch(z, w)
        if mirror is not None:
            w = _mirror(mirror, z, w)
        aw = core.aval_of(w)
        idx = lax.add(lax.mul(_classes(lax.real(z)),
                              lax.broadcast_in_dim(M.scalar(6, np.int32), aw.shape, ())),
                      _classes(lax.imag(z)))
        for k, value in entries:
            hit = lax.eq(idx, lax.broadcast_in_dim(M.scalar(k, np.int32), aw.shape, ()))
            w = lax.select_n(hit, w, lax.broadcast_in_dim(M.scalar(value, aw.dtype),
                                                          aw.shape, ()))
        return [w]

    return fix


def _lower_traced(ctx, fun, args, name):
    """Lower ``fun`` (lax functions of ``args``' values, returning a list) inline."""
    closed = trace_flat(fun, [a.aval.update(weak_type=False) for a in args], name=name)
    consts = [ctx.constant(np.asarray(c._value if type(c) is core.Array else c))
              for c in closed.consts]
    return ctx.lower_jaxpr(closed.jaxpr, consts, list(args))


def _wrap(prim):
    inner = LOWERINGS[prim]

    def rule(ctx, x, **params):
        if x.aval.dtype.kind != "c":
            return inner(ctx, x, **params)
        # a formula replaces XLA's value: its op is not emitted (the formula's own real
        # ops lower through this table, never back into this rule)
        outs = [x] if prim in _FORMULAS else inner(ctx, x, **params)
        entries = _table(prim, np.dtype(x.aval.dtype))
        return _lower_traced(ctx, _fixup(prim, entries), [x, outs[0]],
                             f"{prim.name}_special_values")

    lowering(prim)(rule)


for _prim in _PRIMS:
    _wrap(_prim)


# ------------------------------------------------------------------------- complex division
# XLA's complex division gives 0 for 0 / (inf + infj) and inf for 1 / (1e-300 + 1e-300j)
# (NumPy: nan + nanj and 5e299 - 5e299j); this is NumPy's loop (Smith's algorithm, a zero
# divisor giving the quotients of the parts by +0).

def _complex_div(x, y):
    a, b, c, d = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
    ac, ad = lax.abs(c), lax.abs(d)
    first = lax.ge(ac, ad)  # |c| >= |d| (False where either is NaN)
    zero = lax.and_(lax.eq(ac, _const(0.0, c)), lax.eq(ad, _const(0.0, d)))
    p, q = lax.select(first, c, d), lax.select(first, d, c)  # |p| >= |q|
    rat = lax.div(q, p)
    scl = lax.div(_const(1.0, c), lax.add(p, lax.mul(q, rat)))
    # first: ((a + b rat) scl, (b - a rat) scl); else ((a rat + b) scl, (b rat - a) scl)
    re = lax.select(first, lax.add(a, lax.mul(b, rat)), lax.add(lax.mul(a, rat), b))
    im = lax.select(first, lax.sub(b, lax.mul(a, rat)), lax.sub(lax.mul(b, rat), a))
    re, im = lax.mul(re, scl), lax.mul(im, scl)
    return [lax.complex(lax.select(zero, lax.div(a, ac), re), lax.select(zero, lax.div(b, ac), im))]



# ---------------------------------------------------------------------------- complex power
# NumPy's complex power (npy_cpow) is 1 for a zero exponent; for a zero base 0 where the
# exponent's real part is positive, else nan + nanj; for an integral real exponent n with
# |n| < 100 repeated squaring with the plain product (1 / that for n < 0: n = 1, 2, 3
# unrolled); otherwise exp(y log x). XLA's power is exp(y log x) everywhere (0 ** (1 + 1j)
# was nan + nanj, (1 + 1j) ** 2 not exactly 2j).

def _cmul(x, y):
    a, b, c, d = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
    return lax.complex(lax.sub(lax.mul(a, c), lax.mul(b, d)), lax.add(lax.mul(a, d), lax.mul(b, c)))


def _c99_mul(x, y):
    """``x * y`` as C99 Annex G's ``__muldc3`` (glibc's ``cpow`` multiplies ``y log x`` so):
    the plain product, recomputed where both parts are NaN and an operand or a partial
    product is infinite, with infinities as +-1 and NaNs as +-0, times inf."""
    a, b, c, d = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
    ac, bd, ad, bc = lax.mul(a, c), lax.mul(b, d), lax.mul(a, d), lax.mul(b, c)
    re, im = lax.sub(ac, bd), lax.add(ad, bc)

    def isnan(v):
        return lax.ne(v, v)

    def isinf(v):
        return lax.eq(lax.abs(v), _const(math.inf, v))

    def unit(v):  # copysign(isinf(v) ? 1 : 0, v)
        return _flip(_signbit(v), lax.select(isinf(v), _const(1.0, v), _const(0.0, v)))

    def nan_to_zero(v, pred):  # copysign(0, v) where pred and v is NaN
        return lax.select(lax.and_(pred, isnan(v)), _flip(_signbit(v), _const(0.0, v)), v)

    x_inf = lax.or_(isinf(a), isinf(b))
    y_inf = lax.or_(isinf(c), isinf(d))
    a, b = lax.select(x_inf, unit(a), a), lax.select(x_inf, unit(b), b)
    c, d = nan_to_zero(c, x_inf), nan_to_zero(d, x_inf)
    c, d = lax.select(y_inf, unit(c), c), lax.select(y_inf, unit(d), d)
    a, b = nan_to_zero(a, y_inf), nan_to_zero(b, y_inf)
    part_inf = lax.and_(lax.not_(lax.or_(x_inf, y_inf)),
                        lax.or_(lax.or_(isinf(ac), isinf(bd)), lax.or_(isinf(ad), isinf(bc))))
    a, b, c, d = (nan_to_zero(v, part_inf) for v in (a, b, c, d))
    again = lax.and_(lax.and_(isnan(re), isnan(im)),
                     lax.or_(lax.or_(x_inf, y_inf), part_inf))
    inf = _const(math.inf, re)
    re2 = lax.mul(inf, lax.sub(lax.mul(a, c), lax.mul(b, d)))
    im2 = lax.mul(inf, lax.add(lax.mul(a, d), lax.mul(b, c)))
    return lax.complex(lax.select(again, re2, re), lax.select(again, im2, im))


def _complex_pow(x, y):
    a, b, c, d = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
    zero = _const(0.0, c)
    one = lax.complex(_const(1.0, c), zero)
    general = lax.exp(_c99_mul(y, lax.log(x)))
    n = lax.abs(c)
    integral = lax.and_(lax.and_(lax.eq(d, zero), lax.eq(lax.floor(c), c)),
                        lax.lt(n, _const(100.0, c)))
    n = lax.convert_element_type(lax.select(integral, n, zero), np.dtype(np.int32))
    acc, p = one, x
    for bit in range(7):  # |n| < 100 < 2 ** 7
        if bit:
            p = _cmul(p, p)
        on = lax.ne(lax.and_(n, _const(1 << bit, n)), _const(0, n))
        acc = lax.select(on, _cmul(acc, p), acc)
    x2 = _cmul(x, x)
    for k, value in ((1, x), (2, x2), (3, _cmul(x, x2))):
        acc = lax.select(lax.eq(n, _const(k, n)), value, acc)
    acc = lax.select(lax.lt(c, zero), _complex_div(one, acc)[0], acc)
    out = lax.select(integral, acc, general)
    nan = _const(math.nan, c)
    at_zero = lax.select(lax.gt(c, zero), lax.complex(zero, zero), lax.complex(nan, nan))
    out = lax.select(lax.and_(lax.eq(a, zero), lax.eq(b, zero)), at_zero, out)
    return [lax.select(lax.and_(lax.eq(c, zero), lax.eq(d, zero)), one, out)]


def _wrap_binary(prim, fun):
    """Lower complex ``prim`` as ``fun`` (real operands keep the existing rule)."""
    inner = LOWERINGS[prim]

    def rule(ctx, x, y):
        if x.aval.dtype.kind != "c":
            return inner(ctx, x, y)
        return _lower_traced(ctx, fun, ctx.broadcast_operands(x, y), f"complex_{prim.name}")

    lowering(prim)(rule)


_wrap_binary(lax.div_p, _complex_div)
_wrap_binary(lax.pow_p, _complex_pow)
