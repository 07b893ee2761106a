"""Op-table records of the body and window reductions (``xnp.lax.windowed``).

The window reference is a direct loop over output positions with explicit base
dilation, padding (filled with the identity) and window dilation, independent of
the strided-slice eager implementation. Bodies: a generic sum and max (lambdas,
so they are not mapped to the monoid primitives), a variadic (value, index)
argmax body, and a body with a non-elementwise equation (eagerly evaluated element
by element).
"""

import itertools

import numpy as np

from tests.helpers import SMALL_SHAPES, OpRecord, make_array
from xnp import lax
from xnp.lax.reductions import reduction_identity

_d = np.dtype
SOME_NUMERIC = [_d(t) for t in (np.int16, np.uint8, np.int64, np.float16, np.float32,
                                np.float64, np.complex128)]
SOME_REAL_OR_BOOL = [_d(t) for t in (np.bool_, np.int8, np.uint32, np.float16, np.float64)]
F64 = [_d(np.float64)]


def ties_and_nan(rng, shape, dtype):
    """Repeated values and, for floats, NaN in about 1 of 6 entries."""
    x = make_array(rng, shape, dtype)
    dtype = np.dtype(dtype)
    if dtype.kind == "f" and x.size:
        x = np.array(np.round(x.astype(np.float64) * 2), dtype=dtype)
        x[rng.random(shape) < 0.15] = np.nan
    return x


def _config(kind, nd):
    """Window params by name: ``basic`` (2-wide, VALID), ``strided`` (stride 2, padding
    (1, 1)), ``dilated`` (base and window dilation 2, padding (0, 1))."""
    if kind == "basic":
        return dict(window_dimensions=(2,) * nd, window_strides=(1,) * nd,
                    padding=((0, 0),) * nd, base_dilation=(1,) * nd, window_dilation=(1,) * nd)
    if kind == "strided":
        return dict(window_dimensions=(2,) * nd, window_strides=(2,) * nd,
                    padding=((1, 1),) * nd, base_dilation=(1,) * nd, window_dilation=(1,) * nd)
    return dict(window_dimensions=(2,) * nd, window_strides=(1,) * nd, padding=((0, 1),) * nd,
                base_dilation=(2,) * nd, window_dilation=(2,) * nd)


def np_reduce_window(x, fill, combine, window_dimensions, window_strides, padding,
                     base_dilation, window_dilation):
    """Loop reference: every output position folds ``combine`` over its window."""
    x = np.asarray(x)
    dil = [0 if n == 0 else (n - 1) * d + 1 for n, d in zip(x.shape, base_dilation)]
    full = np.full([lo + n + hi for n, (lo, hi) in zip(dil, padding)], fill, x.dtype)
    full[tuple(slice(lo, lo + n, d) for n, (lo, _), d in zip(dil, padding, base_dilation))] = x
    ext = [(w - 1) * d + 1 for w, d in zip(window_dimensions, window_dilation)]
    out_shape = [0 if p < e else (p - e) // s + 1
                 for p, e, s in zip(full.shape, ext, window_strides)]
    out = np.full(out_shape, fill, x.dtype)
    for pos in np.ndindex(*out_shape):
        acc = np.asarray(fill, x.dtype)
        for off in itertools.product(*[range(w) for w in window_dimensions]):
            idx = tuple(p * s + o * d for p, s, o, d in zip(pos, window_strides, off,
                                                            window_dilation))
            with np.errstate(all="ignore"):
                acc = combine(acc, full[idx])
        out[pos] = acc
    return out


def _monoid_ref(kind, combine):
    def ref(x, conf):
        return np_reduce_window(x, reduction_identity(kind, x.dtype), combine, **_config(conf,
                                                                                        x.ndim))

    return ref


_SUM = _monoid_ref("sum", np.add)
_MAX = _monoid_ref("max", np.maximum)
_MIN = _monoid_ref("min", np.minimum)


def _window_records(name, prim_fn, ref, dtypes, sampler):
    recs = []
    for conf in ("basic", "strided", "dilated"):
        recs.append(OpRecord(
            f"{name}[{conf}]",
            fun=lambda x, conf=conf: prim_fn(x, **_config(conf, x.ndim)),
            reference=lambda x, conf=conf: ref(x, conf), nargs=1,
            dtypes=dtypes if conf == "basic" else dtypes[-2:], sampler=sampler,
            shapes=SMALL_SHAPES if conf == "basic" else [(), (5,), (2, 3), (3, 0, 2)],
            kind="reduction"))
    return recs


def _generic_max(x, **params):
    fill = np.asarray(reduction_identity("max", x.dtype))
    return lax.reduce_window(x, fill, lambda a, b: lax.max(a, b), **params)


def _argmax_body(a, b):
    (av, ai), (bv, bi) = a, b
    pick_a = lax.or_(lax.gt(av, bv), lax.and_(lax.eq(av, bv), lax.lt(ai, bi)))
    return lax.select(pick_a, av, bv), lax.select(pick_a, ai, bi)


def _variadic_argmax(x):
    idx = lax.iota(np.int32, x.shape, 0) if x.ndim else np.int32(0)
    v, i = lax.reduce((x, idx), (np.asarray(reduction_identity("max", x.dtype)), np.int32(0)),
                      _argmax_body, (0,) if x.ndim else ())
    return v, i


def _np_variadic_argmax(x):
    if x.ndim == 0:
        return x, np.int32(0)
    if x.shape[0] == 0:
        shape = x.shape[1:]
        return (np.full(shape, reduction_identity("max", x.dtype), x.dtype),
                np.zeros(shape, np.int32))
    return np.max(x, axis=0), np.argmax(x, axis=0).astype(np.int32)


def _no_nan(rng, shape, dtype):
    x = make_array(rng, shape, dtype)
    return np.round(x.astype(np.float64)).astype(dtype) if np.dtype(dtype).kind == "f" else x


RECORDS = (
    _window_records("reduce_window_sum", lax.reduce_window_sum, _SUM, SOME_NUMERIC, None)
    + _window_records("reduce_window_max", lax.reduce_window_max, _MAX, SOME_REAL_OR_BOOL,
                      ties_and_nan)
    + _window_records("reduce_window_min", lax.reduce_window_min, _MIN, [_d(np.bool_), F64[0]],
                      ties_and_nan)
    + [
        OpRecord("reduce_window[generic max]",
                 fun=lambda x: _generic_max(x, **_config("strided", x.ndim)),
                 reference=lambda x: _MAX(x, "strided"), nargs=1,
                 dtypes=[_d(np.int32), _d(np.float64)], sampler=ties_and_nan, kind="reduction"),
        OpRecord("reduce[generic sum]",
                 fun=lambda x: lax.reduce(x, np.zeros((), x.dtype), lambda a, b: a + b,
                                          tuple(range(x.ndim))),
                 reference=lambda x: np.asarray(np.sum(x, dtype=x.dtype)), nargs=1,
                 dtypes=[_d(np.int8), _d(np.uint32), _d(np.float32), _d(np.complex128)],
                 kind="reduction"),
        OpRecord("reduce[generic sum, partial]",
                 fun=lambda x: lax.reduce(x, np.zeros((), x.dtype), lambda a, b: a + b,
                                          (0,) if x.ndim else ()),
                 reference=lambda x: np.asarray(np.sum(x, axis=0 if x.ndim else (),
                                                       dtype=x.dtype)), nargs=1,
                 dtypes=F64, kind="reduction"),
        OpRecord("reduce[variadic argmax]", fun=_variadic_argmax, reference=_np_variadic_argmax,
                 nargs=1, dtypes=[_d(np.int64), _d(np.float32)], sampler=_no_nan,
                 kind="reduction"),
        OpRecord("reduce[non-elementwise body]",
                 fun=lambda x: lax.reduce(x, np.zeros((), x.dtype),
                                          lambda a, b: lax.reshape(lax.add(a, b), ()),
                                          tuple(range(x.ndim))),
                 reference=lambda x: np.asarray(np.sum(x, dtype=x.dtype)), nargs=1,
                 dtypes=[_d(np.int32)], shapes=[(), (0,), (3,), (2, 3)], kind="reduction"),
        OpRecord(
            "windowed[errors]", fun=lambda x: lax.reduce_window_sum(x, (2, 2)), reference=None,
            nargs=1, dtypes=[], shapes=[],
            errors=[
                ([np.zeros(3)], ValueError, r"reduce_window_sum: `window_dimensions`=\(2, 2\) "
                                            r"needs one entry per dimension of the operand "
                                            r"float64\[3\]"),
                ([np.zeros((2, 2), bool)], TypeError, r"reduce_window_sum: operand dtype bool"),
            ]),
        OpRecord(
            "reduce[errors]",
            fun=lambda x: lax.reduce(x, np.zeros((), np.int64), lambda a, b: a + b, (1,)),
            reference=None, nargs=1, dtypes=[], shapes=[],
            errors=[
                ([np.zeros(3, np.int64)], ValueError,
                 r"xnp\.lax\.reduce: dimensions=\(1,\) must be sorted, unique and in \[0, 1\)"),
                ([np.zeros((3, 2), np.float32)], TypeError,
                 r"xnp\.lax\.reduce: init values must be scalars of the operands' dtypes"),
            ]),
    ]
)
