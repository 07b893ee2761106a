"""Statistics: ``average``, ``median``, ``percentile``, ``quantile``, ``nanmedian``,
``nanpercentile``, ``nanquantile``, ``cov``, ``corrcoef``.

Order statistics sort along the reduced axes (moved last and merged) with
``xnp.sort`` and gather with ``take_along_axis``; the virtual indices and
interpolation weights of NumPy's thirteen ``method`` s are computed with lax
arithmetic, so ``q`` may be traced and the NaN-ignoring versions work with a
traced count of valid elements per slice (NaN sorts last). Gradients flow
through the gathered values (to the selected order statistics).

Each of ``nanmedian`` and the four quantile functions is one composite
(``xnp.lax.composite_general``) of that computation, with the axes, ``method``,
``keepdims`` and a ``q`` given as a number as static parameters, where NumPy's function is
the faster (``_kernel_pays``: up to 1024 elements; for the NaN-ignoring forms one slice):
eagerly, for integer and floating input, its kernel is NumPy's function of the same name
(``xnp/backends/xp_impls/composite.py``), whose "All-NaN slice encountered" names the
user's line; under ``jit`` and transformations the computation above (``median``'s
replayed computation beats NumPy's ``median`` eagerly: it has no kernel). The two give the
same values (the interpolation is NumPy's ``lerp``, its weight's complement and the
test ``t >= 0.5`` in the virtual indices' dtype, every operation in NumPy's order and
rounded as NumPy's also under ``jit``: ``_exact.rounded``). With ``keepdims`` a 0-d input
gives a 0-d array, as NumPy's. With ``weights`` the quantile functions are
``_weighted_quantile.py``'s computation (no composite).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.numpy_api import elementwise as _ew
from xnp.numpy_api import products as _la
from xnp.numpy_api import logic as _lg
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import nan_functions as _nf
from xnp.numpy_api import reductions as _rd
from xnp.numpy_api import _slice_warnings as _sw
from xnp.numpy_api import _weighted_quantile as _wq
from xnp.numpy_api._exact import rounded as _rounded
from xnp.numpy_api._signed_zeros import plus_zero
from xnp.numpy_api import sorting as _so
from xnp.numpy_api._util import (asarray_for, broadcast_to, check_reduction_axis,
                                 function_axes, is_xnp, normalize_axes, result_dtype,
                                 write_out)
from xnp.tracing import core, errors, recording
from xnp.tracing.avals import ShapedArray, canonical_dtype

__all__ = ["average", "median", "percentile", "quantile", "nanmedian", "nanpercentile",
           "nanquantile", "cov", "corrcoef"]

# Hyndman & Fan's (alpha, beta) of the continuous methods
_ALPHA_BETA = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3, 1 / 3),
               "normal_unbiased": (3 / 8, 3 / 8)}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest")


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype))


# --------------------------------------------------------------------------- average


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average over the given axes (``numpy.average``).

    Parameters
    ----------
    a : array_like
        Numeric or bool.
    axis : None, int or tuple of int
        Static; None means all axes.
    weights : array_like, optional
        Same shape as ``a``, or the shape of ``a`` along ``axis`` (then ``axis`` is
        required). None means equal weights (``mean``).
    returned : bool
        Also return the sum of the weights, broadcast to the result's shape.
    keepdims : bool
        Keep reduced axes with length 1.

    Returns
    -------
    Array or (Array, Array)
        Dtype: as :func:`xnp.mean` without weights; with weights the NumPy result type
        of ``a`` and ``weights`` (at least float64 for bool/integer ``a``).

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range (also of a 0-d ``a``), checked first, as NumPy.
    TypeError
        Shapes differ and ``axis`` is None.
    ValueError
        ``weights`` does not match ``a`` along ``axis``; a repeated axis.
    ZeroDivisionError
        Eagerly, when weights sum to zero (under ``jit`` the result is inf/NaN); without
        weights, when the result is empty (NumPy divides by its size).
    """
    x = _rd._asarray("average", a)
    aval = core.aval_of(x)
    # NumPy normalises the axes before anything else (errors name xnp.average, not mean)
    axis = function_axes("average", x, axis)
    axes = None if axis is None else tuple(sorted(axis))
    if weights is None:
        avg = _rd.mean(x, axis=axes, keepdims=keepdims)
        n_out = core.aval_of(avg).size
        if not n_out:  # NumPy's scale a.size / avg.size
            raise ZeroDivisionError(f"xnp.average: division by zero (the average of "
                                    f"{errors.aval_str(aval)} over axis {axis} is empty)")
        scl = aval.size / n_out
        if not returned:
            return avg
        adt = core.aval_of(avg).dtype
        return avg, lax.broadcast_in_dim(_const(scl, adt), core.aval_of(avg).shape, ())
    w = _rd._asarray("average", weights)
    waval = core.aval_of(w)
    if waval.shape != aval.shape:
        if axis is None:
            raise TypeError("xnp.average: Axis must be specified when shapes of a and weights "
                            "differ.")
        order = list(axis)
        if waval.shape != tuple(aval.shape[o] for o in order):
            raise ValueError("xnp.average: Shape of weights must be consistent with shape of a "
                             f"along specified axis (a {aval.shape}, weights {waval.shape}, "
                             f"axis={axis!r}).")
        w = _mn.transpose(w, tuple(int(i) for i in np.argsort(order)))
        w = _mn.reshape(w, tuple(s if i in axes else 1 for i, s in enumerate(aval.shape)))
    base, _ = result_dtype(aval.strip_weak_type(), core.aval_of(w).strip_weak_type())
    if aval.dtype in kit.INT_OR_BOOL:
        base = np.result_type(base, np.float64)
    scl = _rd.sum(w, axis=axes, dtype=base, keepdims=keepdims)
    lax.runtime_error(lax.eq(scl, _const(0, core.aval_of(scl).dtype)),
                      "xnp.average: Weights sum to zero, can't be normalized", ZeroDivisionError)
    num = _rd.sum(_ew.multiply(x, w, dtype=base), axis=axes, keepdims=keepdims)
    # NumPy divides the scalars of a full reduction ("in scalar divide"), else arrays
    scalar = not core.aval_of(num).shape and not keepdims
    avg = _sw.scalar_divide(num, scl) if scalar else _ew.divide(num, scl)
    if returned:
        return avg, broadcast_to(scl, core.aval_of(avg).shape)  # a new array, as NumPy's
    return avg


# --------------------------------------------------------------------------- quantiles


def _virtual_index(method, n, q, ct):
    """``(index, gamma)`` of NumPy's method: ``index`` the lower order statistic (float),
    ``gamma`` the interpolation weight (None for the methods that pick one element). Each
    operation as NumPy's, in its order, rounded as NumPy's (``_exact.rounded``)."""
    one = _const(1, ct)
    nm1q = _rounded(lax.mul(lax.sub(n, one), q))
    if method == "linear":
        return nm1q, None
    if method == "lower":
        return lax.floor(nm1q), None
    if method == "higher":
        return lax.ceil(nm1q), None
    if method == "nearest":
        return lax.round(nm1q, 1), None
    if method == "midpoint":
        lo, hi = lax.floor(nm1q), lax.ceil(nm1q)
        g = lax.select_n(lax.eq(lo, hi), _const(0.5, ct), _const(0.0, ct))
        return _rounded(lax.mul(_const(0.5, ct), lax.add(lo, hi))), g
    nq = _rounded(lax.mul(n, q))
    # The discontinuous methods below test whether ``n*q - c`` is an integer on ``n*q``
    # itself (floor/ceil/compare), without rounding ``n*q - c``.
    zero = _const(0, ct)
    if method == "inverted_cdf":  # ceil(n q) - 1
        return lax.max(lax.sub(lax.ceil(nq), one), zero), None
    fl = lax.floor(nq)
    if method == "closest_observation":  # n q - 1.5, ties to the even order statistic
        mid = lax.add(fl, _const(0.5, ct))
        idx = lax.select_n(lax.gt(nq, mid), lax.sub(fl, one), fl)
        even = lax.eq(lax.rem(fl, _const(2, ct)), zero)
        tie = lax.select_n(even, fl, lax.sub(fl, one))
        return lax.max(lax.select_n(lax.eq(nq, mid), idx, tie), zero), None
    if method == "averaged_inverted_cdf":  # n q - 1; average neighbours at integers
        whole = lax.eq(nq, fl)
        idx = lax.add(lax.sub(fl, one), lax.select_n(whole, _const(0.5, ct), zero))
        return idx, lax.select_n(whole, one, _const(0.5, ct))
    alpha, beta = _ALPHA_BETA[method]  # NumPy: n*q + (alpha + q*(1 - alpha - beta)) - 1
    shift = lax.add(_const(alpha, ct), _rounded(lax.mul(q, _const(1 - alpha - beta, ct))))
    return lax.sub(_rounded(lax.add(nq, shift)), one), None


def _quantile_dtype(fname, xdt, q, qdt, method, scale=1):
    """NumPy's result dtype: ``a``'s dtype for the methods that pick elements, else the
    type of ``a`` combined with ``q`` (of dtype ``qdt``; a Python-number ``q`` takes a
    float ``a``'s dtype). Percentiles (``scale=100``) divide ``q`` by 100 first, as NumPy
    does, so an integer or boolean ``q`` becomes float64 there."""
    if core.is_python_scalar(q) and xdt in kit.FLOATING and not (
            scale != 1 and isinstance(q, bool)):  # True / float32(100) is float64
        qdt = xdt
    elif scale != 1 and qdt in kit.INT_OR_BOOL:  # numpy: q = np.true_divide(q, 100)
        qdt = np.dtype(np.float64)
    int_q = qdt in kit.INT_OR_BOOL
    if method in ("lower", "higher", "nearest", "inverted_cdf", "closest_observation") or (
            method == "linear" and int_q):
        return xdt, None
    out = np.result_type(xdt, qdt, *([np.float64] if int_q else []))
    if out in kit.BOOL:
        raise TypeError(f"xnp.{fname}: numpy boolean subtract is not supported")
    return out, out


def _host_q(q):
    """``q`` as a NumPy array when it is host data (Python/NumPy numbers or lists of them),
    else None. Such a ``q`` is checked even under jit, where ``asarray_for`` stages it."""
    if isinstance(q, (core.Tracer, core.Array)):
        return None
    try:
        known = np.asarray(q)
    except Exception:  # e.g. a list holding tracers
        return None
    return known if known.dtype.kind in "biuf" else None


def _static_q(q):
    """``q`` when it is one host number that a kernel may take as it is (a Python int or
    float, a NumPy integer or floating scalar: part of the call's signature), else None."""
    t = type(q)
    if t is int or t is float or (isinstance(q, (np.integer, np.floating)) and (
            q.dtype in kit.FLOATING or q.dtype in kit.INT_OR_BOOL)):
        return q
    return None


def _check_q(fname, q, scale, static):
    """Convert ``q`` (None for a ``static`` one, which the composite takes as a parameter);
    raise NumPy's ValueError when a concrete ``q`` (eager, or host data under jit) is
    outside ``[0, scale]``. An xnp ``q`` is checked by the decomposition's equation; a
    traced ``q`` cannot be checked and is clamped."""
    known = _host_q(q)
    if known is not None and not np.all((known >= 0) & (known <= scale)):
        raise ValueError(_Q_RANGE[scale])
    return None if static is not None else asarray_for(fname, q, "q")


def _check_q_values(qv, scale):
    """NumPy's range check of an xnp ``qv``: an equation, checked eagerly (a replayed call
    checks again); not under jit."""
    if is_xnp(qv) and core.aval_of(qv).dtype.kind in "iuf":
        dt = core.aval_of(qv).dtype
        inside = lax.and_(lax.ge(qv, _const(0, dt)), lax.le(qv, _const(scale, dt)))
        lax.runtime_error(lax.not_(inside), _Q_RANGE[scale])


#: NumPy's messages for a ``q`` out of range
_Q_RANGE = {1: "Quantiles must be in the range [0, 1]",
            100: "Percentiles must be in the range [0, 100]"}
#: the quantile functions: (scale, ignore_nan)
_Q_FORMS = {"quantile": (1, False), "percentile": (100, False),
            "nanquantile": (1, True), "nanpercentile": (100, True)}


def _quantile(fname, a, q, axis, out, method, keepdims, weights):
    """The quantile function ``fname`` (``_Q_FORMS``): the checks, then one composite
    (eagerly NumPy's function, ``xnp/backends/xp_impls/composite.py``) of
    :func:`_quantile_steps`."""
    scale, ignore_nan = _Q_FORMS[fname]
    x = _rd._asarray(fname, a)
    aval = core.aval_of(x)
    # NumPy's order of checks: complex a, q's range, weights' method, the axes, the method
    if aval.dtype in kit.COMPLEX:
        raise TypeError(f"xnp.{fname}: a must be an array of real numbers")
    static = _static_q(q)
    qv = _check_q(fname, q, scale, static)
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"xnp.{fname}: Only method 'inverted_cdf' supports weights. "
                             f"Got: {method}.")
        qv = asarray_for(fname, q, "q") if qv is None else qv
        _check_q_values(qv, scale)
        return _wq.weighted_quantile(fname, x, qv, weights, axis, out, keepdims, scale,
                                     ignore_nan)
    if ignore_nan and aval.size == 0:
        check_reduction_axis(fname, axis)  # (NumPy's nanmean takes no list)
        normalize_axes(fname, axis, aval.ndim)  # AxisError for a 0-d input with an axis
        # NumPy's nan-quantiles of an empty array are its nanmean's (q is only checked):
        # dtype, shape without q's dimensions, and warnings
        return _nf.nanmean(x, axis=axis, out=out, keepdims=keepdims)
    axis = function_axes(fname, x, axis)
    axes = normalize_axes(fname, axis, aval.ndim)  # AxisError for a 0-d input with an axis
    if np.ndim(static) + (0 if qv is None else core.aval_of(qv).ndim) > 2:
        raise ValueError(f"xnp.{fname}: q must be a scalar or 1d")  # (NumPy's words)
    if method not in METHODS:
        raise ValueError(f"xnp.{fname}: '{method}' is not a valid method. Use one of: "
                         f"{METHODS}")
    qdt = np.asarray(static).dtype if qv is None else core.aval_of(qv).dtype
    rdt, _ = _quantile_dtype(fname, aval.dtype, q, qdt, method, scale)
    if aval.ndim and not int(np.prod([aval.shape[i] for i in axes])):
        # (the nan-forms' empty arrays went to nanmean above)
        raise IndexError(f"xnp.{fname}: cannot take a quantile of an empty slice (axis "
                         f"{axis!r} of {errors.aval_str(aval)}), as NumPy raises "
                         f"IndexError. Fix: use xnp.nan{fname}, which gives NaN there.")
    qshape = () if qv is None else core.aval_of(qv).shape
    keep = bool(keepdims)
    params = {"q": static, "axis": None if len(axes) == aval.ndim else axes,
              "method": method, "keepdims": keep}
    operands = (x,) if qv is None else (x, qv)
    if not _kernel_pays(aval, axes, ignore_nan):
        return write_out(fname, out, _QUANTILE_STEPS[fname](*operands, **params)[0])
    res = lax.composite_general(
        fname, _QUANTILE_STEPS[fname], *operands,
        out_avals=(ShapedArray(qshape + _reduced(aval.shape, axes, keep), rdt),),
        params=params)[0]
    return write_out(fname, out, _zero_d_kept(res, aval, keep))


#: the largest input for which NumPy's quantile functions beat their replayed decomposition
#: (their partitions and interpolation cost more than a sort beyond it)
_KERNEL_SIZE = 1024


def _kernel_pays(aval, axes, ignore_nan: bool) -> bool:
    """Whether NumPy's function is the faster eager kernel for ``aval`` reduced over
    ``axes``: an input of at most ``_KERNEL_SIZE`` elements, and for the NaN-ignoring
    forms one slice (NumPy's run a Python loop over the slices)."""
    return aval.size <= _KERNEL_SIZE and not (
        ignore_nan and int(np.prod(_reduced(aval.shape, axes, False))) != 1)


def _reduced(shape, axes, keepdims):
    """``shape`` reduced over ``axes`` (kept as 1 with ``keepdims``)."""
    return tuple(1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes)


def _zero_d_kept(res, aval, keepdims):
    """``res``; where ``keepdims`` keeps a 0-d input's result 0-d, NumPy returns a 0-d
    array, not a scalar (the scalar rule keeps it: ``_scalars.KEEPDIMS_ARRAYS``). Such a
    call is not replayed by the eager dispatch cache, whose replays make 0-d results
    scalars."""
    if keepdims and aval.ndim == 0 and core.aval_of(res).ndim == 0:
        recording.note_effect("returned a 0-d array that is not a NumPy scalar")
    return res


def _quantile_steps(fname, x, qv, q, axis, method, keepdims):
    """The quantile function ``fname`` of ``x`` at ``q`` (a static number; ``qv`` None) or
    ``qv`` (an array), over ``axis`` (None, or sorted non-negative axes): NumPy's virtual
    indices and interpolation on ``x`` sorted along the reduced axes (module docstring)."""
    scale, ignore_nan = _Q_FORMS[fname]
    if qv is None:
        qv = asarray_for(fname, q, "q")
    else:
        q = qv
        _check_q_values(qv, scale)
    xdt = core.aval_of(x).dtype
    rdt, _ = _quantile_dtype(fname, xdt, q, core.aval_of(qv).dtype, method, scale)
    # NumPy computes the virtual indices in q's dtype (float64 for Python numbers)
    qdt = core.aval_of(qv).dtype
    ct = qdt if qdt in kit.FLOATING and qdt.itemsize >= 4 else np.dtype(np.float64)
    xs, axes = _wq.to_last(fname, x, axis)
    xs = _so.sort(xs, axis=-1)
    rest = core.aval_of(xs).shape[:-1]
    nfull = core.aval_of(xs).shape[-1]
    qa = lax.convert_element_type(qv, ct)
    if scale != 1:
        qa = lax.div(qa, _const(scale, ct))
    qshape = core.aval_of(qa).shape
    nanable = xdt in kit.INEXACT
    if ignore_nan and nanable:
        count = _rd.sum(_lg.logical_not(_lg.isnan(xs)), axis=-1, dtype=ct, keepdims=True)
        n = lax.reshape(count, rest + (1,) * len(qshape))
        _sw.warn_empty_slices(count)  # NumPy warns once per all-NaN slice
    else:
        n = _const(nfull, ct)
    qb = lax.reshape(qa, (1,) * len(rest) + qshape) if rest else qa
    idx, gamma = _virtual_index(method, n, qb, ct)
    last = lax.sub(n, _const(1, ct))
    flat_q = int(np.prod(qshape))

    def take(ix):
        ii = lax.min(lax.max(ix, _const(0, ct)), lax.max(last, _const(0, ct)))
        ii = lax.convert_element_type(ii, np.dtype(np.int64))
        ii = lax.broadcast_in_dim(ii, rest + qshape, tuple(range(len(rest) + len(qshape))))
        got = M.take_along(xs, lax.reshape(ii, rest + (flat_q,)), len(rest))  # (in bounds)
        return lax.reshape(got, rest + qshape)

    if method in _DISCRETE or (method == "linear" and rdt == xdt and xdt not in kit.FLOATING):
        res = take(idx)
    else:
        prev = lax.floor(idx)
        if gamma is None:
            gamma = lax.sub(idx, prev)
        above = lax.ge(idx, last)
        below = lax.lt(idx, _const(0, ct))
        prev = lax.select_n(above, prev, last)
        nxt = lax.select_n(above, lax.add(prev, _const(1, ct)), last)
        prev = lax.select_n(below, prev, _const(0, ct))
        nxt = lax.select_n(below, nxt, _const(0, ct))
        lo, hi = take(prev), take(nxt)
        diff = lax.convert_element_type(lax.sub(hi, lo), rdt)  # in a's dtype, as NumPy
        lo = lax.convert_element_type(lo, rdt)
        hi = lax.convert_element_type(hi, rdt)
        gamma = lax.broadcast_in_dim(gamma, rest + qshape,
                                     tuple(range(len(rest) + len(qshape))))
        # NumPy's lerp: the weight, its complement and the test t >= 0.5 in the virtual
        # indices' dtype, the products in the result's
        g = lax.convert_element_type(gamma, rdt)
        g1 = lax.convert_element_type(lax.sub(_const(1, ct), gamma), rdt)
        res = lax.select_n(lax.ge(gamma, _const(0.5, ct)),
                           lax.add(lo, _rounded(lax.mul(diff, g))),
                           lax.sub(hi, _rounded(lax.mul(diff, g1))))
    if nanable:
        top = lax.slice_in_dim(xs, nfull - 1, nfull, axis=len(rest))
        top = lax.reshape(top, rest + (1,) * len(qshape))
        if ignore_nan:  # all-NaN slices give NaN
            bad = lax.eq(n, _const(0, ct))
        else:  # any NaN gives NaN (it sorts last)
            bad = _lg.isnan(top)
        bad = lax.broadcast_in_dim(bad, rest + qshape, tuple(range(len(rest) + len(qshape))))
        res = lax.select_n(bad, res, lax.broadcast_in_dim(_const(np.nan, rdt), rest + qshape, ()))
    return [_wq.finish(res, qshape, axes, x, keepdims)]


def _quantile_of(fname):
    def steps(x, *qv, q, axis, method, keepdims):
        return _quantile_steps(fname, x, qv[0] if qv else None, q, axis, method, keepdims)

    steps.__name__ = steps.__qualname__ = f"_{fname}_steps"
    return steps


#: the quantile composites' decompositions, ``(x[, q], *, q, axis, method, keepdims)``
_QUANTILE_STEPS = {name: _quantile_of(name) for name in _Q_FORMS}


_Q_DOC = """

    Parameters
    ----------
    a : array_like
        Real numbers (bool only for the methods that pick elements).
    q : array_like of float
        Probabilities; the result gets ``q.shape`` as its leading dimensions. May be
        traced; the range check runs whenever ``q`` is concrete (eager, or Python/NumPy
        data under jit); a traced ``q`` is not checked and out-of-range values clamp.
    axis : None, int or tuple of int
        Static; None means all axes.
    out : Array, optional
        Written in place.
    overwrite_input : bool
        No effect (xnp never modifies ``a``).
    method : str
        One of NumPy's 13 methods: 'inverted_cdf', 'averaged_inverted_cdf',
        'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
        'linear' (default), 'median_unbiased', 'normal_unbiased', 'lower', 'higher',
        'midpoint', 'nearest'.
    keepdims : bool
        Keep reduced axes with length 1 (of a 0-d ``a`` and a scalar ``q``: a 0-d array,
        not a NumPy scalar, as NumPy).
    weights : array_like, optional
        Only with ``method='inverted_cdf'`` (NumPy 2's weighted quantile,
        ``xnp/numpy_api/_weighted_quantile.py``): ``a``'s shape, or ``a``'s shape along
        ``axis`` (in ``axis``'s order). Non-negative, each slice's total finite and
        positive (checked eagerly). The result has ``a``'s dtype; a 0-d result is a 0-d
        array (a NumPy scalar where it is NaN), as NumPy's. NumPy's NaN-ignoring forms
        raise IndexError for weights along ``axis`` of a multi-dimensional ``a`` (they
        index them unbroadcast); xnp gives the result of the broadcast weights.

    Returns
    -------
    Array
        ``a``'s dtype for the element-picking methods (and quantile's 'linear' with
        integer ``q``; percentiles divide ``q`` by 100 first, so integer ``q`` gives
        float64 there, as NumPy); otherwise the result type of ``a`` and ``q`` (float64 for integer
        ``a``; a Python-number ``q`` keeps a float ``a``'s dtype).

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range (also of a 0-d ``a``); its message names the function.
    ValueError
        ``q`` out of range (when concrete), ``weights`` with a method other than
        'inverted_cdf', an unknown method (checked after the axes, as NumPy), ``q`` of
        more than 2 dimensions; ``weights`` of the wrong shape along ``axis``, and eagerly
        negative weights or a slice's weights summing to zero, inf or NaN.
    TypeError
        Complex ``a``; ``weights`` of another shape than ``a`` without ``axis``.
    IndexError
        quantile/percentile over an empty slice, as NumPy. The NaN-ignoring forms of an
        empty ``a`` return :func:`xnp.nanmean` instead (no ``q`` dimensions), as NumPy's.
    """


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    return _quantile("quantile", a, q, axis, out, method, keepdims, weights)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    return _quantile("percentile", a, q, axis, out, method, keepdims, weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    return _quantile("nanquantile", a, q, axis, out, method, keepdims, weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    return _quantile("nanpercentile", a, q, axis, out, method, keepdims, weights)


# the position of ``keepdims``: its 0-d results are arrays (xnp/numpy_api/_scalars.py), as
# those of weighted quantiles (``_zero_d_array``)
for _f in (quantile, percentile, nanquantile, nanpercentile):
    _f._keepdims_position, _f._zero_d_array = 6, _wq.zero_d_array

quantile.__doc__ = ("The ``q``-th quantiles over the given axes (``numpy.quantile``); a NaN "
                    "in a slice gives NaN." + _Q_DOC)
percentile.__doc__ = ("The ``q``-th percentiles (``q`` in [0, 100]) over the given axes "
                      "(``numpy.percentile``); as :func:`quantile`." + _Q_DOC)
nanquantile.__doc__ = ("Quantiles ignoring NaN (``numpy.nanquantile``); an all-NaN slice "
                       "gives NaN." + _Q_DOC)
nanpercentile.__doc__ = ("Percentiles ignoring NaN (``numpy.nanpercentile``); as "
                         ":func:`nanquantile`." + _Q_DOC)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median over the given axes (``numpy.median``): the middle element, or the mean of
    the two middle ones, of each sorted slice.

    Dtype as :func:`xnp.mean` (float64 for bool/integers). A slice holding NaN gives
    NaN; an empty one gives NaN. ``overwrite_input`` has no effect. Axes are static.
    With ``keepdims`` a 0-d ``a`` gives a 0-d array, as NumPy.

    Raises
    ------
    numpy.exceptions.AxisError, ValueError
        Bad or repeated axes.
    """
    x = _rd._asarray("median", a)
    axis = function_axes("median", x, axis)
    return write_out("median", out, _median_composite("median", x, axis, keepdims))


def _median_composite(fname, x, axis, keepdims):
    """``median`` (or ``nanmedian`` of a floating ``x`` that is not empty) of ``x``: one
    composite, eagerly NumPy's function (``xnp/backends/xp_impls/composite.py``)."""
    aval = core.aval_of(x)
    axes = normalize_axes(fname, axis, aval.ndim)  # AxisError for a 0-d input with an axis
    keep = bool(keepdims)
    dt = aval.dtype if aval.dtype in kit.INEXACT else np.dtype(np.float64)
    params = {"axis": None if len(axes) == aval.ndim else axes, "keepdims": keep}
    if not aval.size or not _kernel_pays(aval, axes, True):  # (the mean of empty slices:
        # its warnings, and no kernel's; median's replayed decomposition beats NumPy's)
        return _zero_d_kept(_MEDIAN_STEPS[fname](x, **params)[0], aval, keep)
    res = lax.composite_general(
        fname, _MEDIAN_STEPS[fname], x,
        out_avals=(ShapedArray(_reduced(aval.shape, axes, keep), dt),), params=params)[0]
    return _zero_d_kept(res, aval, keep)


def _median_steps(x, *, axis, keepdims):
    """The median of ``x`` over ``axis`` (None, or sorted non-negative axes): the middle
    element, or the mean of the two middle ones, of each sorted slice; NaN where a slice
    holds one."""
    xs, axes = _wq.to_last("median", x, axis)
    n = core.aval_of(xs).shape[-1]
    xs = _so.sort(xs, axis=-1)
    lo, hi = max(n // 2 - 1 + n % 2, 0), n // 2 + (1 if n else 0)
    mid = lax.slice_in_dim(xs, lo, hi, axis=core.aval_of(xs).ndim - 1)
    res = _rd.mean(mid, axis=-1)
    if core.aval_of(x).dtype in kit.INEXACT and n:
        top = lax.slice_in_dim(xs, n - 1, n, axis=core.aval_of(xs).ndim - 1)
        bad = lax.reshape(_lg.isnan(top), core.aval_of(res).shape)
        res = lax.select_n(bad, res, lax.convert_element_type(
            lax.reshape(top, core.aval_of(res).shape), core.aval_of(res).dtype))
    return [_wq.finish(res, (), axes, x, keepdims)]


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median ignoring NaN (``numpy.nanmedian``): of each slice's non-NaN elements, the
    middle one, or the mean of the two middle ones (as :func:`median`: so ``[1, inf]``
    gives inf, ``[-inf, inf]`` NaN); :func:`median` for input that is not floating. An
    all-NaN slice gives NaN and warns "All-NaN slice encountered". Of an empty array it is
    :func:`xnp.nanmean`, as in NumPy (its dtype, shape and warnings).

    Complex input is ordered as NumPy sorts it (lexicographically; a NaN in either part
    makes the element NaN, ignored). Its all-NaN slice gives what NumPy's gives: the
    slice's last element when the result is one slice or the slices have 600 elements or
    more (NumPy's ``_nanmedian1d``), else ``nan+0j`` (its masked median).

    Raises
    ------
    numpy.exceptions.AxisError, ValueError, TypeError
        Bad or repeated axes (named for ``nanmedian`` also where it computes ``median``
        or ``nanmean``), checked first; of an empty array a list ``axis`` is TypeError, as
        NumPy's ``nanmean`` gives.
    """
    x = _rd._asarray("nanmedian", a)
    aval = core.aval_of(x)
    if aval.size == 0:
        check_reduction_axis("nanmedian", axis)  # (NumPy's nanmean takes no list)
        normalize_axes("nanmedian", axis, aval.ndim)  # its errors name nanmedian
        return _nf.nanmean(x, axis=axis, out=out, keepdims=keepdims)
    axis = function_axes("nanmedian", x, axis)  # errors name nanmedian, as the ones below
    fname = "nanmedian" if aval.dtype in kit.INEXACT else "median"  # (no NaN: the median)
    return write_out("nanmedian", out, _median_composite(fname, x, axis, keepdims))


def _nanmedian_steps(x, *, axis, keepdims):
    """The median of the non-NaN elements of each slice of a floating or complex ``x``
    over ``axis`` (None, or sorted non-negative axes); NaN (complex: as NumPy's, see
    :func:`nanmedian`) and "All-NaN slice encountered" for a slice of NaNs only."""
    given, axes = _wq.to_last("nanmedian", x, axis)
    xs = _so.sort(given, axis=-1)  # NaN last (complex: with a NaN in either part)
    last = core.aval_of(xs).ndim - 1
    i64 = np.dtype(np.int64)
    count = _rd.sum(_lg.logical_not(_lg.isnan(xs)), axis=-1, dtype=i64, keepdims=True)
    _sw.warn_empty_slices(count)  # NumPy warns once per all-NaN slice

    def const(v):
        return lax.broadcast_in_dim(_const(v, i64), core.aval_of(count).shape, ())

    hi = lax.div(count, const(2))  # the middle element(s): hi, and lo for even counts
    lo = lax.max(lax.sub(lax.sub(count, hi), const(1)), const(0))
    lo_hi = M.take_along(xs, lax.concatenate([lo, lax.max(hi, lo)], last), last)
    mean = _rd.mean(lo_hi, axis=-1)  # (an all-NaN slice: NaN)
    odd = lax.reshape(lax.ne(lax.rem(count, const(2)), const(0)), core.aval_of(mean).shape)
    middle = lax.reshape(lax.slice_in_dim(lo_hi, 1, 2, axis=last), core.aval_of(mean).shape)
    # NumPy's median of an odd count is the mean of the middle one, a sum from +0.0: -0.0
    # gives +0.0 (in each part of a complex number)
    middle = plus_zero(lax.convert_element_type(middle, core.aval_of(mean).dtype))
    res = lax.select_n(odd, mean, middle)
    shape, dt = core.aval_of(res).shape, core.aval_of(res).dtype
    if dt in kit.COMPLEX:  # an all-NaN slice: NumPy's _nanmedian1d gives its last element,
        # its masked median (more than one slice, under 600 elements each) nan+0j
        n = core.aval_of(xs).shape[-1]
        fill = (lax.reshape(lax.slice_in_dim(given, n - 1, n, axis=last), shape)
                if not shape or n >= 600 else
                lax.broadcast_in_dim(_const(complex(np.nan, 0), dt), shape, ()))
        res = lax.select_n(lax.reshape(lax.eq(count, const(0)), shape), res, fill)
    return [_wq.finish(res, (), axes, x, keepdims)]


#: the median composites' decompositions, ``(x, *, axis, keepdims)``
_MEDIAN_STEPS = {"median": _median_steps, "nanmedian": _nanmedian_steps}


median._keepdims_position = nanmedian._keepdims_position = 4


# --------------------------------------------------------------------------- cov / corrcoef


def _rows(fname, m, rowvar, dtype, argname):
    v = _rd._asarray(fname, m) if argname == "m" else asarray_for(fname, m, argname)
    aval = core.aval_of(v)
    if aval.ndim > 2:
        raise ValueError(f"xnp.{fname}: {argname} has more than 2 dimensions")
    v = lax.convert_element_type(v, dtype) if aval.dtype != dtype else v
    if aval.ndim < 2:
        v = lax.reshape(v, (1,) * (2 - aval.ndim) + aval.shape)
    if not rowvar and core.aval_of(v).shape[0] != 1:
        v = lax.transpose(v, (1, 0))
    return v


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the variables in the rows (``rowvar``) or columns of ``m``
    (``numpy.cov``).

    Parameters
    ----------
    m, y : array_like
        1-D or 2-D; ``y`` adds more variables (rows).
    rowvar : bool
        Rows are variables (default) or columns are.
    bias, ddof : bool, int
        Normalisation ``N - ddof`` (default ``ddof = 0 if bias else 1``); static.
    fweights, aweights : array_like, optional
        Integer frequency weights and observation weights, 1-D of length ``N``.
    dtype : dtype, optional
        Computation dtype; default the result type of ``m`` (and ``y``) and float64.

    Returns
    -------
    Array
        ``(V, V)`` for V variables; 0-d for one variable (NumPy squeezes).

    Raises
    ------
    ValueError
        More than 2 dimensions; weights of the wrong shape; eagerly, negative weights.
    TypeError
        Non-integer ``fweights``.
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("xnp.cov: ddof must be integer")
    mv = _rd._asarray("cov", m)
    avals = [core.aval_of(mv)]
    if y is not None:
        avals.append(core.aval_of(asarray_for("cov", y, "y")))
    if dtype is None:
        dt = np.result_type(*[a.dtype for a in avals], np.float64)
    else:
        dt = canonical_dtype(dtype, name="dtype")
    X = _rows("cov", mv, rowvar, dt, "m")
    if core.aval_of(X).shape[0] == 0:  # no variables: NumPy's empty result, nothing checked
        return core.lift(np.zeros((0, 0)))
    if y is not None:
        X = _mn.concatenate([X, _rows("cov", y, rowvar, dt, "y")], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    nobs = core.aval_of(X).shape[1]
    w = None
    if fweights is not None:
        fw = asarray_for("cov", fweights, "fweights")
        if core.aval_of(fw).dtype not in kit.INT_OR_BOOL:
            raise TypeError("xnp.cov: fweights must be integer")
        w = _check_weights("fweights", fw, nobs, dt)
    if aweights is not None:
        aw = _check_weights("aweights", asarray_for("cov", aweights, "aweights"), nobs, dt)
        w = aw if w is None else lax.mul(w, aw)
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    if w is None:
        fact = _const(nobs - ddof, dt)
    else:
        w_sum = lax.slice_in_dim(w_sum, 0, 1, axis=0) if core.aval_of(w_sum).shape[0] else \
            _const(0, dt)
        w_sum = lax.reshape(w_sum, ())
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = lax.sub(w_sum, _const(ddof, dt))
        else:
            fact = lax.sub(w_sum, lax.div(lax.mul(_const(ddof, dt), _rd.sum(lax.mul(w, aw))),
                                          w_sum))
    fact = lax.real(fact) if dt in kit.COMPLEX else fact
    # NumPy: "Degrees of freedom <= 0 for slice", then the result divides by 0
    _sw.check(np.bool_(nobs <= ddof) if w is None else
              lax.le(fact, _const(0, core.aval_of(fact).dtype)), "Degrees of freedom <= 0 for slice")
    fact = lax.max(fact, _const(0, core.aval_of(fact).dtype))
    Xc = lax.sub(X, lax.reshape(avg, (core.aval_of(avg).shape[0], 1)))
    XT = Xc if w is None else lax.mul(Xc, lax.reshape(w, (1, nobs)))
    c = _la.dot(Xc, _mn.transpose(_lg.conjugate(XT)))
    # NumPy: c *= true_divide(1, fact), the reciprocal a float64 scalar (its 'divide by
    # zero', then the product's 'invalid' for a zero entry times inf)
    f64 = np.dtype(np.float64)
    recip = lax.div(_const(1, f64), lax.convert_element_type(fact, f64))
    wide = np.dtype(np.complex128) if dt in kit.COMPLEX else f64
    c = lax.mul(lax.convert_element_type(c, wide), lax.convert_element_type(recip, wide))
    return _mn.squeeze(lax.convert_element_type(c, dt))


def _check_weights(name, wv, nobs, dt):
    aval = core.aval_of(wv)
    if aval.ndim > 1:
        raise RuntimeError(f"xnp.cov: cannot handle multidimensional {name}")
    if aval.shape[0] != nobs:
        raise RuntimeError(f"xnp.cov: incompatible numbers of samples and {name}")
    if aval.dtype.kind in "if":  # an equation: a replayed call checks again; not under jit
        lax.runtime_error(lax.lt(wv, _const(0, aval.dtype)),
                          f"xnp.cov: {name} cannot be negative")
    return lax.convert_element_type(wv, dt)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (``numpy.corrcoef``): :func:`cov` normalised by
    the standard deviations, real (and imaginary) parts clipped to [-1, 1].

    Returns
    -------
    Array
        ``(V, V)``; 0-d (``c / c``, NaN or 1) for a single variable.
    """
    c = cov(x, y, rowvar, dtype=dtype)
    aval = core.aval_of(c)
    if aval.ndim == 0:
        return lax.div(c, c)
    d = M.diagonal(c)
    sd = lax.sqrt(lax.real(d) if aval.dtype in kit.COMPLEX else d)
    sd = lax.convert_element_type(sd, aval.dtype)
    n = aval.shape[0]
    c = lax.div(lax.div(c, lax.reshape(sd, (n, 1))), lax.reshape(sd, (1, n)))
    if aval.dtype in kit.COMPLEX:
        return lax.complex(_ew.clip(lax.real(c), -1, 1), _ew.clip(lax.imag(c), -1, 1))
    return _ew.clip(c, -1, 1)
