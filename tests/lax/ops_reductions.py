"""Op-table records of the reduction primitives (``xnp.lax.reductions``).

Each reducer has an all-axes record (every shape, incl. rank 0 and empty shapes)
and a partial-axes record. max/min/argmax/argmin use a sampler with ties and NaN
(NumPy semantics: NaN propagates; the first NaN / first extremum wins), checked
eagerly and under jit. Error-only records (no shapes) check the rule errors.
"""

import numpy as np

from tests.helpers import BOOL, FLOATING, INTEGER, NUMERIC, SMALL_SHAPES, OpRecord, make_array
from xnp import lax
from xnp.lax.reductions import reduction_identity

REAL_OR_BOOL = BOOL + INTEGER + FLOATING
INT_OR_BOOL = BOOL + INTEGER
RANKED = [s for s in SMALL_SHAPES if s != ()]
NONEMPTY_LAST = [s for s in RANKED if s[-1] != 0]


def _all_axes(x):
    return tuple(range(np.ndim(x)))


def _some_axes(x):
    """(0,) for rank <= 2, (0, 2) above: partial reductions, incl. non-adjacent axes."""
    return (0,) if np.ndim(x) <= 2 else (0, 2)


def _ties_and_nan(rng, shape, dtype):
    """Data with repeated values (ties) and, for floats, NaN in about 1 of 6 elements."""
    x = make_array(rng, shape, dtype)
    dtype = np.dtype(dtype)
    if dtype in FLOATING and x.size:
        x = np.array(np.round(x.astype(np.float64) * 2), dtype=dtype)
        x[rng.random(shape) < 0.15] = np.nan
    return x


def _np_extremum(kind):
    fn = np.max if kind == "max" else np.min

    def ref(x, axes):
        if any(x.shape[a] == 0 for a in axes):
            shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
            return np.full(shape, reduction_identity(kind, x.dtype), x.dtype)
        return np.asarray(fn(x, axis=axes))

    return ref


_NP_REDUCE = {
    "reduce_sum": lambda x, axes: np.asarray(np.sum(x, axis=axes, dtype=x.dtype)),
    "reduce_prod": lambda x, axes: np.asarray(np.prod(x, axis=axes, dtype=x.dtype)),
    "reduce_max": _np_extremum("max"),
    "reduce_min": _np_extremum("min"),
    "reduce_and": lambda x, axes: np.asarray(np.bitwise_and.reduce(x, axis=axes, dtype=x.dtype)),
    "reduce_or": lambda x, axes: np.asarray(np.bitwise_or.reduce(x, axis=axes, dtype=x.dtype)),
    "reduce_xor": lambda x, axes: np.asarray(np.bitwise_xor.reduce(x, axis=axes, dtype=x.dtype)),
}

_DTYPES = {
    "reduce_sum": NUMERIC, "reduce_prod": NUMERIC, "reduce_max": REAL_OR_BOOL,
    "reduce_min": REAL_OR_BOOL, "reduce_and": INT_OR_BOOL, "reduce_or": INT_OR_BOOL,
    "reduce_xor": INT_OR_BOOL,
}


def _records_for(name):
    fn = getattr(lax, name)
    ref = _NP_REDUCE[name]
    sampler = _ties_and_nan if name in ("reduce_max", "reduce_min") else None
    bad_dtype = np.zeros(3, np.bool_) if name in ("reduce_sum", "reduce_prod") else (
        np.zeros(3, np.complex128))
    return [
        OpRecord(
            name=f"{name}-all", fun=lambda x: fn(x, _all_axes(x)),
            reference=lambda x: ref(x, _all_axes(x)), nargs=1, dtypes=_DTYPES[name],
            sampler=sampler, kind="reduction",
            errors=[([bad_dtype], TypeError, name)]),
        OpRecord(
            name=f"{name}-some", fun=lambda x: fn(x, _some_axes(x)),
            reference=lambda x: ref(x, _some_axes(x)), nargs=1, dtypes=_DTYPES[name],
            shapes=RANKED, sampler=sampler, kind="reduction",
            errors=[([np.zeros((), _DTYPES[name][-1])], ValueError, rf"{name}: axes=\(0,\)")]),
    ]


def _arg_ref(fname):
    def ref(x):
        return np.asarray(getattr(np, fname)(x, axis=x.ndim - 1)).astype(np.int64)

    return ref


def _arg_records(fname):
    fn = getattr(lax, fname)
    return [
        OpRecord(
            name=f"{fname}-last", fun=lambda x: fn(x, x.ndim - 1, np.int64),
            reference=_arg_ref(fname), nargs=1, dtypes=REAL_OR_BOOL, shapes=NONEMPTY_LAST,
            sampler=_ties_and_nan,
            errors=[([np.zeros((2, 0))], ValueError, f"{fname}: the reduced axis 1 .* is empty"),
                    ([np.zeros(3, np.complex64)], TypeError, fname),
                    ([np.zeros(())], ValueError, fname)]),
        OpRecord(
            name=f"{fname}-int32-index", fun=lambda x: fn(x, 0, np.int32),
            reference=lambda x: np.asarray(getattr(np, fname)(x, axis=0)).astype(np.int32),
            nargs=1, dtypes=[np.dtype(np.float32), np.dtype(np.int16)],
            shapes=[(5,), (3, 4), (2, 3, 4)], sampler=_ties_and_nan),
        OpRecord(
            name=f"{fname}-float-index", fun=lambda x: fn(x, 0, np.float32), reference=None,
            nargs=1, dtypes=[], shapes=[],
            errors=[([np.zeros(3)], TypeError, "index_dtype")]),
    ]


def _nan_first_ref(fname):
    def ref(x):
        return np.asarray(getattr(np, fname)(x, axis=0)).astype(np.int64)

    return ref


# NaN placement cases that a naive (order-dependent) comparator gets wrong: several NaN,
# NaN before/after the extremum, NaN at the ends, -inf/inf ties.
_NAN_CASES = np.array([
    [np.nan, 1.0, np.nan, 5.0, 5.0, -np.inf, np.inf, 2.0],
    [1.0, 5.0, np.nan, 5.0, np.nan, 0.0, np.inf, np.inf],
    [-np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, np.nan],
    [np.inf, np.inf, -np.inf, -np.inf, 3.0, 3.0, 0.0, -0.0],
]).T  # (8, 4): reduce over axis 0


def _nan_sampler(rng, shape, dtype):
    return _NAN_CASES.astype(dtype)


RECORDS = [rec for name in _NP_REDUCE for rec in _records_for(name)]
RECORDS += _arg_records("argmax") + _arg_records("argmin")
RECORDS += [
    OpRecord(name=f"{fname}-nan-placement", fun=lambda x, f=fname: getattr(lax, f)(x, 0),
             reference=_nan_first_ref(fname), nargs=1,
             dtypes=[np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16)],
             shapes=[(8, 4)], sampler=_nan_sampler)
    for fname in ("argmax", "argmin")
]
RECORDS += [
    OpRecord(name=f"{name}-nan-placement", fun=lambda x, n=name: getattr(lax, n)(x, (0,)),
             reference=lambda x, n=name: _NP_REDUCE[n](x, (0,)), nargs=1,
             dtypes=[np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16)],
             shapes=[(8, 4)], sampler=_nan_sampler)
    for name in ("reduce_max", "reduce_min")
]
RECORDS += [
    OpRecord(name="reduce_sum-bad-axes", fun=lambda x: lax.reduce_sum(x, (0, 0)), reference=None,
             nargs=1, dtypes=[], shapes=[],
             errors=[([np.zeros((2, 3))], ValueError, "sorted, unique"),
                     ([np.zeros((2, 3))], ValueError, r"reduce_sum.*float64\[2,3\]")]),
    OpRecord(name="reduce_sum-axes-type", fun=lambda x: lax.reduce_sum(x, (0.5,)), reference=None,
             nargs=1, dtypes=[], shapes=[],
             errors=[([np.zeros((2, 3))], TypeError, "reduce_sum")]),
]
