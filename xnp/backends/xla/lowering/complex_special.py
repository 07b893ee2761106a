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
          lax.asinh_p, lax.acosh_p, lax.atanh_p, lax.sign_p, lax.abs_p]

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
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]

    def c(v):
        return lax.broadcast_in_dim(M.scalar(v, np.int32), a.shape, ())

    def f(v):
        return lax.broadcast_in_dim(M.scalar(v, a.dtype), a.shape, ())

    neg = lax.lt(lax.bitcast_convert_type(x, ints),
                 lax.broadcast_in_dim(M.scalar(0, ints), a.shape, ()))
    zero = lax.select_n(neg, c(0), c(1))
    out = lax.select_n(lax.eq(x, f(0.0)), c(5), zero)
    out = lax.select_n(lax.eq(x, f(math.inf)), out, c(2))
    out = lax.select_n(lax.eq(x, f(-math.inf)), out, c(3))
    return lax.select_n(lax.ne(x, x), out, c(4))


def _negative_zero(x):
    """Where the real array ``x`` is ``-0.0``."""
    a = core.aval_of(x)
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    zero = lax.broadcast_in_dim(M.scalar(0, a.dtype), a.shape, ())
    return lax.and_(lax.eq(x, zero), lax.lt(lax.bitcast_convert_type(x, ints),
                                            lax.broadcast_in_dim(M.scalar(0, ints), a.shape, ())))


# XLA reads a signed zero on a branch cut as +0: f(x - 0j) comes out as f(x + 0j) (and
# asinh(-0 + yj) as asinh(+0 + yj)). The principal branches are symmetric, f(conj z) =
# conj(f(z)) (asinh also odd: asinh(-conj z) = -conj(asinh z)), which gives the other side.
_MIRRORS = {lax.sqrt_p: "conj", lax.asin_p: "conj", lax.acos_p: "conj", lax.acosh_p: "conj",
            lax.asinh_p: "neg_conj"}


def _mirror(kind, z, w):
    if kind == "conj":
        return lax.select_n(_negative_zero(lax.imag(z)), w, lax.conj(w))
    return lax.select_n(_negative_zero(lax.real(z)), w, lax.neg(lax.conj(w)))


def _fixup(entries, mirror=None):
    def fix(z, w):
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


def _wrap(prim):
    inner = LOWERINGS[prim]

    def rule(ctx, x, **params):
        outs = inner(ctx, x, **params)
        if x.aval.dtype.kind != "c":
            return outs
        entries = _table(prim, np.dtype(x.aval.dtype))
        closed = trace_flat(_fixup(entries, _MIRRORS.get(prim)), [x.aval.update(weak_type=False),
                                              outs[0].aval.update(weak_type=False)],
                            name=f"{prim.name}_special_values")
        consts = [ctx.constant(np.asarray(c._value if type(c) is core.Array else c))
                  for c in closed.consts]
        return ctx.lower_jaxpr(closed.jaxpr, consts, [x, outs[0]])

    lowering(prim)(rule)


for _prim in _PRIMS:
    _wrap(_prim)
