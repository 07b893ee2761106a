"""Op-table records of the cumulative primitives (``xnp.lax.cumulative``).

References are NumPy's ``ufunc.accumulate`` in the operand dtype (integers wrap),
flipped for ``reverse``. Samplers mix in NaN, +-inf, +-0 and ties; shapes include
empty ones (the rank-0 case is a rule error: there is no axis).
"""

import ml_dtypes
import numpy as np

from tests.helpers import FLOATING, SMALL_SHAPES, OpRecord, make_array
from xnp import lax

RANKED = [s for s in SMALL_SHAPES if s != ()] + [(9,)]
_d = np.dtype
SOME_NUMERIC = [_d(t) for t in (np.int8, np.uint32, np.int64, np.float16, ml_dtypes.bfloat16,
                                np.float32, np.float64, np.complex64)]
SOME_REAL_OR_BOOL = [_d(t) for t in (np.bool_, np.int16, np.uint8, np.int64, np.float16,
                                     ml_dtypes.bfloat16, np.float64)]


def special(rng, shape, dtype):
    """Random data with about a third of the entries NaN, +-inf, +-0 or repeated values."""
    a = np.array(make_array(rng, shape, dtype))
    dtype = np.dtype(dtype)
    flat = a.reshape(-1)
    if flat.size and dtype.kind in "fcV":
        vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0]).astype(dtype)
        idx = rng.random(flat.size) < 0.35
        flat[idx] = rng.choice(vals, size=int(idx.sum()))
    return a


def small(rng, shape, dtype):
    """Values near 1 in magnitude (products stay finite), with +-0 and ties for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iub":
        return make_array(rng, shape, dtype)
    a = np.round(rng.uniform(-2, 2, shape) * 4) / 4
    if dtype.kind == "c":
        a = a + 0.5j * np.round(rng.uniform(-2, 2, shape) * 4) / 4
    return np.asarray(a).astype(dtype)


def _last(x):
    return np.ndim(x) - 1


def _np_accumulate(fn):
    def ref(x, axis, reverse):
        if reverse:
            x = np.flip(x, axis)
        with np.errstate(all="ignore"):
            out = fn(x, axis)
        return np.flip(out, axis) if reverse else out

    return ref


_REF = {
    "cumsum": _np_accumulate(lambda x, a: np.cumsum(x, axis=a, dtype=x.dtype)),
    "cumprod": _np_accumulate(lambda x, a: np.cumprod(x, axis=a, dtype=x.dtype)),
    "cummax": _np_accumulate(lambda x, a: np.maximum.accumulate(x, axis=a)),
    "cummin": _np_accumulate(lambda x, a: np.minimum.accumulate(x, axis=a)),
    "cumlogsumexp": _np_accumulate(lambda x, a: np.logaddexp.accumulate(x, axis=a)),
}
_DTYPES = {"cumsum": SOME_NUMERIC, "cumprod": SOME_NUMERIC, "cummax": SOME_REAL_OR_BOOL,
           "cummin": SOME_REAL_OR_BOOL, "cumlogsumexp": FLOATING}
_SAMPLER = {"cumsum": special, "cumprod": small, "cummax": special, "cummin": special,
            "cumlogsumexp": special}


def _records(name):
    fn, ref = getattr(lax, name), _REF[name]
    return [
        OpRecord(f"{name}[last]", fun=lambda x: fn(x, axis=-1),
                 reference=lambda x: ref(x, _last(x), False), nargs=1, dtypes=_DTYPES[name],
                 shapes=RANKED, sampler=_SAMPLER[name], kind="reduction"),
        OpRecord(f"{name}[first,reverse]", fun=lambda x: fn(x, axis=0, reverse=True),
                 reference=lambda x: ref(x, 0, True), nargs=1, dtypes=_DTYPES[name][-2:],
                 shapes=[(0,), (9,), (2, 3, 4)], sampler=_SAMPLER[name], kind="reduction"),
    ]


RECORDS = [r for name in _REF for r in _records(name)] + [
    OpRecord(
        "cumulative[errors]", fun=lambda x: lax.cumsum(x), reference=None, nargs=1, dtypes=[],
        shapes=[],
        errors=[
            ([np.float64(1.0)], ValueError, r"xnp\.lax\.cumsum: axis 0 is out of range for the "
                                            r"operand float64\[\]"),
            ([np.zeros(3, bool)], TypeError, r"xnp\.lax\.cumsum: operand dtype bool"),
        ]),
    OpRecord(
        "cummax[errors]", fun=lambda x: lax.cummax(x, axis=2), reference=None, nargs=1,
        dtypes=[], shapes=[],
        errors=[
            ([np.zeros((2, 3))], ValueError, r"axis 2 is out of range.*float64\[2,3\]"),
            ([np.zeros((2, 3, 1), np.complex64)], TypeError, r"cummax: operand dtype complex64"),
        ]),
    OpRecord(
        "cumlogsumexp[errors]", fun=lambda x: lax.cumlogsumexp(x), reference=None, nargs=1,
        dtypes=[], shapes=[],
        errors=[([np.zeros(3, np.int32)], TypeError, r"cumlogsumexp: operand dtype int32")]),
]
