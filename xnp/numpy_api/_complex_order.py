"""NumPy's order of complex numbers for ``max``/``min``/``argmax``/``argmin``.

NumPy compares complex numbers lexicographically (the real parts, then the imaginary
parts) and propagates NaN: a reduction's result is the first element with a NaN part, if
any, else the first greatest (least) one. :func:`arg_extremum` gives that element's index
along one axis from lax operations (so it is traced, differentiated through the gather
that reads the value, and batched like any other computation).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.tracing import core

__all__ = ["arg_extremum"]


def _full(value, shape, dtype):
    return lax.broadcast_in_dim(core.lift(np.asarray(value, dtype)), shape, ())


def _first(mask, axis, index_dtype):
    """Index of the first true element of ``mask`` along ``axis`` (0 where there is none)."""
    return lax.argmax(lax.convert_element_type(mask, np.dtype(np.int8)), axis, index_dtype)


def arg_extremum(x, axis: int, index_dtype=np.int64, *, kind: str):
    """Index along ``axis`` (of nonzero length) of the greatest (``kind="max"``) or least
    (``"min"``) element of the complex array ``x`` in NumPy's order: the first element with
    a NaN part where there is one, else the first of the extreme real parts with the extreme
    imaginary part among them. Shape: ``x``'s without ``axis``."""
    aval = core.aval_of(x)
    shape = aval.shape
    kept = tuple(d for d in range(len(shape)) if d != axis)
    re, im = lax.real(x), lax.imag(x)
    part = core.aval_of(re).dtype
    nan = lax.or_(lax.ne(re, re), lax.ne(im, im))
    worst = _full(-np.inf if kind == "max" else np.inf, shape, part)
    reduce = lax.reduce_max if kind == "max" else lax.reduce_min

    def best(values):
        return lax.broadcast_in_dim(reduce(values, (axis,)), shape, kept)

    re_c = lax.select(nan, worst, re)
    cand = lax.and_(lax.eq(re_c, best(re_c)), lax.not_(nan))
    im_c = lax.select(cand, im, worst)
    hit = lax.and_(cand, lax.eq(im_c, best(im_c)))
    return lax.select(lax.reduce_or(nan, (axis,)), _first(nan, axis, index_dtype),
                      _first(hit, axis, index_dtype))
