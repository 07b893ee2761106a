"""Op-table records of the sorting primitives (``xnp.lax.sorting``).

References are written independently of the eager implementations: Python's
stable ``sorted`` with explicit keys (NaN last; ``-0.0 == 0.0``; complex by real
then imaginary part, each NaN last; ``top_k``: descending with NaN first, equal
values in index order). Samplers mix in NaN, +-inf, +-0 and many ties.
"""

import math

import ml_dtypes
import numpy as np

from tests.helpers import ALL, BOOL, FLOATING, INTEGER, SMALL_SHAPES, OpRecord, make_array
from xnp import lax

RANKED = [s for s in SMALL_SHAPES if s != ()] + [(20,), (3, 17)]
REAL_OR_BOOL = BOOL + INTEGER + FLOATING
_d = np.dtype
SOME = [_d(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float16, ml_dtypes.bfloat16,
                        np.float32, np.float64, np.complex128)]


def special(rng, shape, dtype):
    """Values with many ties, about a third NaN/+-inf/+-0 for floats (complex parts too)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iub":
        a = make_array(rng, shape, dtype)
        return (a // 4).astype(dtype) if dtype.kind in "iu" else a
    vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0])
    a = np.round(rng.standard_normal(shape))
    idx = rng.random(shape) < 0.35
    a = np.where(idx, rng.choice(vals, size=shape), a)
    if dtype.kind == "c":
        im = np.where(rng.random(shape) < 0.3, rng.choice(vals, size=shape),
                      np.round(rng.standard_normal(shape)))
        # parts set separately: a + 1j * im would turn an infinite im into a NaN real part
        # (1j * inf is nan+infj), with "invalid value encountered in multiply"
        c = np.empty(np.shape(a), np.complex128)
        c.real, c.imag = a, im
        a = c
    return np.asarray(a).astype(dtype)


def _float_key(v):
    v = float(v)
    return (1, 0.0) if math.isnan(v) else (0, v)  # -0.0 == 0.0 as a float key


def _key(v):
    if isinstance(v, (complex, np.complexfloating)):
        # NumPy's complex order: [R + Rj, R + nanj, nan + Rj, nan + nanj]
        re, im = float(v.real), float(v.imag)
        return (math.isnan(re), math.isnan(im), _float_key(re), _float_key(im))
    if isinstance(v, (np.floating, float)) or type(v).__module__.startswith("ml_dtypes"):
        return _float_key(v)
    return (0, int(v))


def _sorted_perm(keys_rows):
    """Stable ascending order of the rows' positions by the tuple of keys."""
    n = len(keys_rows[0])
    return sorted(range(n), key=lambda i: tuple(_key(k[i]) for k in keys_rows))


def _apply_along(fn, operands, axis):
    """``fn(list of 1-D rows) -> permutation`` applied to every 1-D slice along ``axis``."""
    moved = [np.moveaxis(o, axis, -1) for o in operands]
    outs = [np.empty_like(m) for m in moved]
    for idx in np.ndindex(*moved[0].shape[:-1]):
        perm = fn([m[idx] for m in moved])
        for o, m in zip(outs, moved):
            o[idx] = m[idx][perm]
    return [np.moveaxis(o, -1, axis) for o in outs]


def _np_sort(operands, axis, num_keys):
    return _apply_along(lambda rows: _sorted_perm(rows[:num_keys]), operands, axis)


def _desc_key(v):
    if isinstance(v, (np.floating, float)) or type(v).__module__.startswith("ml_dtypes"):
        f = float(v)
        return (0, 0.0) if math.isnan(f) else (1, -f)
    return (1, -int(v))


def _np_top_k(x, k):
    rows = int(np.prod(x.shape[:-1], dtype=np.int64))
    moved = x.reshape(rows, x.shape[-1])
    vals = np.empty((moved.shape[0], k), x.dtype)
    idxs = np.empty((moved.shape[0], k), np.int64)
    for r, row in enumerate(moved):
        perm = sorted(range(len(row)), key=lambda i: _desc_key(row[i]))[:k]
        vals[r], idxs[r] = row[perm], perm
    shape = x.shape[:-1] + (k,)
    return [vals.reshape(shape), idxs.reshape(shape)]


def _np_searchsorted(side):
    def ref(a, v):
        a = np.asarray(_np_sort([a], -1, 1)[0])
        a32, v32 = (a.astype(np.float32), v.astype(np.float32)) if a.dtype.kind == "V" else (a, v)
        out = np.empty(v.shape, np.int64)
        for idx in np.ndindex(*a.shape[:-1]):
            out[idx] = np.searchsorted(a32[idx], v32[idx], side=side)
        return out

    return ref


def _search_shapes():
    return [((0,), (3,)), ((1,), (4,)), ((7,), (5,)), ((2, 9), (2, 4)), ((3, 0), (3, 2)),
            ((16,), (0,)), ((2, 3, 5), (2, 3, 6))]


def _k(x):
    return min(2, x.shape[-1])


def _pairs(shape):
    return (shape, shape)


RECORDS = [
    OpRecord("sort[last]", fun=lambda x: lax.sort(x),
             reference=lambda x: _np_sort([x], -1, 1)[0], nargs=1, dtypes=ALL, shapes=RANKED,
             sampler=special),
    OpRecord("sort[first]", fun=lambda x: lax.sort(x, dimension=0),
             reference=lambda x: _np_sort([x], 0, 1)[0], nargs=1, dtypes=SOME, shapes=RANKED,
             sampler=special),
    OpRecord("sort[key,val]", fun=lambda k, v: lax.sort((k, v), dimension=0, num_keys=1),
             reference=lambda k, v: tuple(_np_sort([k, v], 0, 1)), nargs=2, dtypes=SOME,
             shapes=[_pairs(s) for s in [(0,), (20,), (3, 17)]], sampler=special),
    OpRecord("sort[2keys]", fun=lambda a, b: lax.sort([a, b], num_keys=2),
             reference=lambda a, b: list(_np_sort([a, b], -1, 2)), nargs=2, dtypes=SOME,
             shapes=[_pairs(s) for s in [(1,), (20,), (2, 0, 4), (3, 17)]], sampler=special),
    OpRecord("top_k", fun=lambda x: lax.top_k(x, _k(x)), reference=lambda x: _np_top_k(x, _k(x)),
             nargs=1, dtypes=REAL_OR_BOOL, shapes=RANKED, sampler=special),
    OpRecord("searchsorted[left]",
             fun=lambda a, v: lax.searchsorted(lax.sort(a), v),
             reference=_np_searchsorted("left"), nargs=2, dtypes=SOME, shapes=_search_shapes(),
             sampler=special),
    OpRecord("searchsorted[right]",
             fun=lambda a, v: lax.searchsorted(lax.sort(a), v, side="right"),
             reference=_np_searchsorted("right"), nargs=2, dtypes=SOME[-3:],
             shapes=_search_shapes()[1:4], sampler=special),
    OpRecord(
        "searchsorted[errors]", fun=lambda a, v: lax.searchsorted(a, v), reference=None,
        nargs=2, dtypes=[], shapes=[],
        errors=[([np.zeros((2, 3)), np.zeros((3, 3))], TypeError, r"equal leading dimensions"),
                ([np.zeros(3), np.zeros(3, np.float32)], TypeError, r"equal dtypes")]),
    OpRecord(
        "sorting[errors]", fun=lambda x: lax.sort(x), reference=None, nargs=1, dtypes=[],
        shapes=[],
        errors=[([np.float64(1.0)], ValueError,
                 r"xnp\.lax\.sort: dimension -1 is out of range for operands float64\[\]")]),
    OpRecord(
        "sort[errors,shapes]", fun=lambda a, b: lax.sort((a, b)), reference=None, nargs=2,
        dtypes=[], shapes=[],
        errors=[([np.zeros(3), np.zeros(4)], TypeError,
                 r"equal shapes, got float64\[3\], float64\[4\]")]),
    OpRecord(
        "top_k[errors]", fun=lambda x: lax.top_k(x, 4), reference=None, nargs=1, dtypes=[],
        shapes=[],
        errors=[([np.zeros((2, 3))], ValueError, r"k=4 must be in \[0, 3\].*float64\[2,3\]"),
                ([np.zeros(5, np.complex64)], TypeError, r"top_k: operand dtype complex64")]),
]
