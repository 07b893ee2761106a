"""Counting and binning: ``bincount``, ``digitize``, ``histogram``,
``histogram_bin_edges``, ``histogram2d``, ``histogramdd`` and ``interp``.

Bins are located with a binary search (:func:`xnp.searchsorted`) and counted with
a scatter-add, so every function traces under ``jit`` when its output shape is
static: the number of bins (an int or an explicit edge array) is static, the
automatic range (``min``/``max`` of the data) may be traced. ``bincount`` needs
the xnp/JAX ``length=`` keyword under ``jit`` (its length is ``max(x) + 1``);
string bin estimators (``'auto'``, ``'sturges'``, ...) choose the bin count from
the data and work eagerly only. Checks NumPy makes on data (monotonic bins,
negative counts, finite ranges) run eagerly and are skipped on traced values.
"""

from __future__ import annotations

import builtins
import functools
import operator

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.numpy_api._host_calls import eager_host_call
from xnp.numpy_api._index_core import _concrete
from xnp.numpy_api._util import asarray_for, default_float, promote_to, result_dtype, warn
from xnp.numpy_api.sets import static_count
from xnp.numpy_api.sorting import searchsorted
from xnp.tracing import ShapedArray, core, errors, sizes

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges", "histogram2d",
           "histogramdd", "interp"]

_INDEX = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)


def _const(value, dtype):
    return core.lift(np.asarray(value, dtype=dtype))


def _ravel(x):
    aval = core.aval_of(x)
    return x if aval.ndim == 1 else lax.reshape(x, (aval.size,))


def _full(value, shape, dtype):
    return lax.broadcast_in_dim(_const(value, dtype), tuple(shape), ())


def _safe_cast(fname, x, dtype, argname, rule: str = "safe"):
    """``x`` cast to ``dtype`` under NumPy's ``rule`` (TypeError otherwise, worded as
    NumPy's, which names 'safe' also where it casts by 'same_kind': ``bincount``'s uint64
    input is cast, its values wrapped)."""
    src = core.aval_of(x).dtype
    if not np.can_cast(src, dtype, rule):
        raise TypeError(f"xnp.{fname}: Cannot cast array data from dtype('{src}') to "
                        f"dtype('{dtype}') according to the rule 'safe' (argument `{argname}`)")
    return promote_to(fname, x, dtype)


def _vector(fname, x, argname):
    """A 1-D operand (NumPy's 'object too deep / of too small depth' ValueErrors)."""
    nd = core.aval_of(x).ndim
    if nd != 1:
        raise ValueError(f"xnp.{fname}: object {'of too small depth' if nd == 0 else 'too deep'}"
                         f" for desired array (`{argname}` must be 1-D, got "
                         f"{errors.aval_str(core.aval_of(x))})")
    return x


def _scatter_add(n, idx, updates, dtype):
    """``zeros(n).at[idx].add(updates)`` dropping indices outside ``[0, n)``."""
    base = _full(0, (n,), dtype)
    if core.aval_of(idx).shape[0] == 0 or n == 0:
        return base
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    m = core.aval_of(idx).shape[0]
    return lax.scatter_add(base, lax.reshape(idx, (m, 1)), updates, dnums, mode="drop")


# --------------------------------------------------------------------------- bincount


def bincount(x, /, weights=None, minlength=0, *, length=None):
    """Number of occurrences of each value ``0..max(x)`` in the non-negative ints ``x``.

    Parameters
    ----------
    x : array_like, 1-D
        Non-negative integers (bool allowed); a dtype that does not cast safely to
        int64 (floats, uint64) raises ``TypeError``.
    weights : array_like, optional
        Same shape as ``x``; each occurrence adds its weight (cast to float64,
        complex raises ``TypeError``).
    minlength : int
        Minimum number of bins (static).
    length : int, optional
        xnp/JAX extension: the static number of bins, required under ``jit``;
        values ``>= length`` (and negative values) are then dropped.

    Returns
    -------
    Array
        int64 counts, or float64 sums of ``weights``; shape
        ``(max(max(x) + 1, minlength),)`` or ``(length,)``.

    Raises
    ------
    ValueError
        ``x`` is not 1-D, a concrete negative value, negative ``minlength``, or
        ``weights`` of another length.
    xnp.errors.ConcretizationTypeError
        ``x`` is traced and ``length`` is not given.
    """
    xs = asarray_for("bincount", x, "x")
    _vector("bincount", xs, "x")
    xs = _safe_cast("bincount", xs, _INDEX, "x", "same_kind")
    if minlength is None:
        raise TypeError("xnp.bincount: use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("xnp.bincount: 'minlength' must not be negative")
    n = core.aval_of(xs).shape[0]
    w = None
    if weights is not None:
        w = asarray_for("bincount", weights, "weights")
        if core.aval_of(w).shape != (n,):
            raise ValueError("xnp.bincount: The weights and list don't have the same length.")
        w = _safe_cast("bincount", w, _F64, "weights")
    if length is None:  # eagerly NumPy's bincount of the values (its length is theirs)
        out = eager_host_call(functools.partial(_host_bincount, minlength=minlength), xs,
                              *(() if w is None else (w,)), weak=False,
                              shaped_by_values=True)
        if out is not None:
            return out
    host = _concrete(xs)
    if host is not None and host.size and host.min() < 0:
        raise ValueError(_NEGATIVE)
    if length is None:
        top = lax.reduce_max(xs, (0,)) if n else _const(-1, _INDEX)
        length = builtins.max(static_count("bincount", top, None, "the number of bins "
                                           "(max(x) + 1)", "length") + 1, minlength)
    else:
        length = builtins.max(static_count("bincount", None, length, argname="length"),
                              minlength)
    if w is None or n == 0:  # NumPy: an empty x counts in int64 even with weights
        upd, dt = _full(1, (n,), _INDEX), _INDEX
    if w is not None:
        upd = w
        dt = _F64 if n else _INDEX
    idx = lax.select(lax.lt(xs, _const(0, _INDEX)), _full(length, (n,), _INDEX), xs) if n else xs
    return _scatter_add(length, idx, upd, dt)


_NEGATIVE = "xnp.bincount: 'list' argument must have no negative elements"


def _host_bincount(x, weights=None, *, minlength):
    """NumPy's bincount, with xnp's messages for a negative value and a size too big (one
    that may not exist or fit is refused before NumPy allocates it)."""
    length = builtins.max(int(np.maximum.reduce(x)) + 1 if x.size else 0, minlength)
    if length > 1 << 26:
        if x.size and np.minimum.reduce(x) < 0:
            raise ValueError(_NEGATIVE)
        sizes.check_array_size("bincount", (length,), _F64 if weights is not None and x.size
                               else _INDEX, argname="minlength" if length == minlength else "x")
    try:
        return np.bincount(x, weights, minlength)
    except ValueError as e:
        if x.size and np.minimum.reduce(x) < 0:
            raise ValueError(_NEGATIVE) from None
        raise e


# --------------------------------------------------------------------------- digitize


def digitize(x, bins, right=False):
    """Index of the bin of ``bins`` that each value of ``x`` falls in.

    For increasing ``bins``: ``i`` with ``bins[i-1] <= x < bins[i]`` (``right=False``)
    or ``bins[i-1] < x <= bins[i]`` (``right=True``); decreasing bins mirror this.
    Values below/above all bins give ``0``/``len(bins)``.

    Parameters
    ----------
    x : array_like
        Real values (complex raises ``TypeError``); any shape.
    bins : array_like, 1-D
        Monotonic (checked eagerly; a traced ``bins`` picks the direction from
        ``bins[0] <= bins[-1]``).
    right : bool
        Which side of a bin is closed (static).

    Returns
    -------
    Array
        int64 of ``x``'s shape.

    Raises
    ------
    TypeError
        Complex ``x``.
    ValueError
        ``bins`` is not 1-D, or concretely not monotonic.
    """
    xs = asarray_for("digitize", x, "x")
    b = asarray_for("digitize", bins, "bins")
    if core.aval_of(xs).dtype in kit.COMPLEX:
        raise TypeError("xnp.digitize: x may not be complex")
    if core.aval_of(b).ndim != 1:
        raise ValueError("xnp.digitize: object too deep for desired array (`bins` must be 1-D)")
    out = None if "V" in (core.aval_of(xs).dtype.kind, core.aval_of(b).dtype.kind) else \
        eager_host_call(functools.partial(_host_digitize, right=bool(right)), xs, b, weak=False)
    if out is not None:  # eagerly NumPy's digitize (its check of bins on every replay)
        return out
    side, n = "left" if right else "right", core.aval_of(b).shape[0]
    host = _concrete(b)
    inc = lambda: searchsorted(b, xs, side=side)  # noqa: E731
    dec = lambda: lax.sub(_const(n, _INDEX), searchsorted(lax.rev(b, (0,)), xs, side=side))  # noqa: E731
    if host is not None:
        d = np.diff(host)
        if np.all(d >= 0):
            return inc()
        if np.all(d <= 0):
            return dec()
        raise ValueError("xnp.digitize: bins must be monotonically increasing or decreasing")
    if n == 0:
        return inc()
    up = lax.le(b[0], b[-1])
    return lax.select(lax.broadcast_in_dim(up, core.aval_of(xs).shape, ()), inc(), dec())


def _host_digitize(x, bins, right):
    try:
        return np.digitize(x, bins, right).astype(_INDEX, copy=False)
    except ValueError as e:
        raise ValueError(f"xnp.digitize: {e}") from None


# --------------------------------------------------------------------------- edges


def _bin_dtype(dt):
    return dt if dt in kit.FLOATING else default_float()


def _outer_edges(fname, a, rng, dt):
    """``(first, last)`` as 0-d values of ``dt``: ``rng`` or the data's min/max, widened
    by 0.5 each way when equal (NumPy's ``_get_outer_edges``)."""
    if rng is not None:
        first, last = rng
        if isinstance(first, core.Tracer) or isinstance(last, core.Tracer):
            raise TypeError(f"xnp.{fname}: `range` must be static numbers")
        first, last = first + 0.0, last + 0.0  # (NumPy's: a NumPy scalar keeps its type)
        if first > last:
            raise ValueError(f"xnp.{fname}: max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"xnp.{fname}: supplied range of [{first}, {last}] is not finite")
        if first == last:
            first, last = first - 0.5, last + 0.5
        cdt = np.result_type(first, last)  # (float64 for Python numbers)
        return _const(first, cdt), _const(last, cdt)
    if core.aval_of(a).size == 0:
        return _const(0, _F64), _const(1, _F64)
    first = lax.convert_element_type(lax.reduce_min(a, (0,)), dt)
    last = lax.convert_element_type(lax.reduce_max(a, (0,)), dt)
    _check_values(functools.partial(_finite_range, fname), first, last)
    same = lax.eq(first, last)
    half = _const(0.5, dt)
    return (lax.select(same, lax.sub(first, half), first),
            lax.select(same, lax.add(last, half), last))


def _linspace(first, last, n, out_dt):
    """``n + 1`` evenly spaced edges from ``first`` to ``last`` (the last one exact),
    computed in their dtype (float64 for a static range, as NumPy) and cast to ``out_dt``."""
    dt = core.aval_of(first).dtype
    step = lax.div(lax.sub(last, first), _const(n, dt))
    edges = lax.add(lax.mul(lax.iota(dt, (n + 1,), 0), step), first)
    edges = lax.concatenate([edges[:n], lax.reshape(last, (1,))], 0)
    return edges if dt == out_dt else lax.convert_element_type(edges, out_dt)


_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _check_estimator(fname, name, weights) -> None:
    if weights is not None:
        raise TypeError(f"xnp.{fname}: Automated estimation of the number of bins is not "
                        "supported for weighted data")
    if name not in _ESTIMATORS:
        raise ValueError(f"xnp.{fname}: {name!r} is not a valid estimator for `bins`")


def _estimated_bins(fname, name, a, first, last, weights):
    """NumPy's string bin estimators: the bin count NumPy's ``histogram_bin_edges`` finds
    from the data over ``[first, last]`` (concrete values only)."""
    _check_estimator(fname, name, weights)
    host = _concrete(a)
    if host is None:
        static_count(fname, a, None, f"the number of bins chosen by bins={name!r}")
    rng = (float(_concrete(first)), float(_concrete(last)))
    return np.histogram_bin_edges(np.asarray(host), bins=name, range=rng).size - 1


def _host_estimated(fname, np_fn, a, bins, rng, weights, **kwargs):
    """NumPy's ``np_fn(a, bins=<estimator>, range=rng, **kwargs)`` for an eager ``a`` (a
    native call whose results' shapes the values decide: replayed with each call's data),
    or None (traced ``a``)."""
    _check_estimator(fname, bins, weights)
    return eager_host_call(functools.partial(np_fn, bins=bins, range=rng, **kwargs), a,
                           weak=False, multiple=np_fn is np.histogram, shaped_by_values=True)


def _edges(fname, a, bins, rng, weights=None, label="`bins`", dd=False):
    """The bin edges of the 1-D ``a`` (NumPy's ``_get_bin_edges``): of ``a``'s float dtype,
    or with a ``range`` of NumPy scalars their result dtype with ``a``'s (float64 for
    integers). ``dd`` (``histogramdd``'s edges, NumPy's ``linspace`` of the range): a
    ``range`` gives edges of its own dtype (float64 for Python numbers)."""
    dt = _bin_dtype(core.aval_of(a).dtype)
    if rng is not None and (dd or any(isinstance(v, np.generic) for v in rng)):
        dt = _bin_dtype(np.result_type(*(v + 0.0 for v in rng),
                                       1.0 if dd else core.aval_of(a).dtype))
    if isinstance(bins, str):
        first, last = _outer_edges(fname, a, rng, dt)
        n = _estimated_bins(fname, bins, a, first, last, weights)
        return _finite_sized(fname, n, _linspace(first, last, n, dt))
    if isinstance(bins, (int, np.integer)) or np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError(f"xnp.{fname}: {label} must be an integer, a string, or an "
                            "array") from None
        if n < 1:
            raise ValueError(f"xnp.{fname}: {label} must be positive, when an integer")
        first, last = _outer_edges(fname, a, rng, dt)
        return _finite_sized(fname, n, _linspace(first, last, n, dt))
    e = asarray_for(fname, bins, "bins")
    if core.aval_of(e).ndim != 1:
        raise ValueError(f"xnp.{fname}: {label} must be 1d, when an array")
    _check_values(functools.partial(_increasing, fname, label), e)
    return e


def _finite_sized(fname, n, edges):
    """``edges``, checked to increase strictly (NumPy's error for a range too narrow for
    ``n`` bins of its dtype, ``1e16`` split in 4 float64 bins, say)."""
    _check_values(functools.partial(_increasing_strictly, fname, n), edges)
    return edges


def _increasing_strictly(fname, n, edges):
    if np.any(edges[:-1] >= edges[1:]):
        raise ValueError(f"xnp.{fname}: Too many bins for data range. Cannot create {n} "
                         "finite-sized bins.")


def _finite_range(fname, first, last):
    if not (np.isfinite(first) and np.isfinite(last)):
        raise ValueError(f"xnp.{fname}: autodetected range of [{first}, {last}] is not finite")


def _increasing(fname, label, edges):
    if np.any(edges[:-1] > edges[1:]):
        raise ValueError(f"xnp.{fname}: {label} must increase monotonically, when an array")


def _check_values(check, *arrays):
    """``check(*values)``, which raises NumPy's error for bad values: for eager arrays as a
    native call (:func:`eager_host_call`), so the eager dispatch cache replays the check
    with each call's values; for concrete tracers at once; traced values are not checked
    (compiled code raises nothing)."""
    if eager_host_call(functools.partial(_checked, check), *arrays) is None:
        values = [_concrete(a) for a in arrays]
        if all(v is not None for v in values):
            check(*values)


def _checked(check, *values):
    check(*values)
    return np.zeros((), np.bool_)


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, core.Array, core.Tracer))


def _bin_index(x, edges):
    """Bin of each value of the 1-D ``x`` for ``edges`` (last bin closed), or
    ``len(edges) - 1`` (one past the last bin) when outside or NaN."""
    nb = core.aval_of(edges).shape[0] - 1
    if nb < 0:  # (NumPy reads edges[-1])
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    n = core.aval_of(x).shape[0]
    dt, _ = result_dtype(core.aval_of(x), core.aval_of(edges))
    x, edges = promote_to("histogram", x, dt), promote_to("histogram", edges, dt)
    i = lax.sub(searchsorted(edges, x, side="right"), _const(1, _INDEX))
    last = lax.reshape(lax.slice_in_dim(edges, nb, nb + 1), ())
    on_edge = lax.eq(x, lax.broadcast_in_dim(last, (n,), ()))
    i = lax.select(on_edge, _full(nb - 1, (n,), _INDEX), i)
    bad = lax.or_(lax.lt(i, _full(0, (n,), _INDEX)), lax.ge(i, _full(nb, (n,), _INDEX)))
    return lax.select(bad, _full(nb, (n,), _INDEX), i)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The edges :func:`histogram` would use for ``a`` (flattened).

    ``bins``: an int (static count of equal bins over ``range`` or the data's
    min..max), a 1-D increasing array of edges, or a NumPy estimator name
    (``'auto'``, ``'fd'``, ``'doane'``, ``'scott'``, ``'rice'``, ``'sturges'``,
    ``'sqrt'``, ``'stone'``: NumPy's own function of the data, eager only). ``range``:
    static ``(lo, hi)``. Returns edges of ``a``'s float dtype (float64 for integer data;
    explicit edges keep theirs).

    Raises
    ------
    ValueError
        Non-positive ``bins``, non-monotonic edges, a bad or non-finite range.
    TypeError
        ``bins`` of another type; an estimator with ``weights``.
    """
    x = _ravel(_from_bool(asarray_for("histogram_bin_edges", a)))
    if isinstance(bins, str):
        edges = _host_estimated("histogram_bin_edges", np.histogram_bin_edges, x, bins, range,
                                weights)
        if edges is not None:
            return edges
    return _edges("histogram_bin_edges", x, bins, range, weights)


def _from_bool(x):
    """``x``, bool data as uint8 with NumPy's warning (its histograms count integers)."""
    if core.aval_of(x).dtype != np.bool_:
        return x
    warn(f"Converting input from {np.dtype(np.bool_)} to {np.uint8} for compatibility.",
         RuntimeWarning)
    return lax.convert_element_type(x, np.dtype(np.uint8))


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Histogram of ``a`` (flattened): counts per bin and the bin edges.

    Parameters
    ----------
    a : array_like
        Real data, any shape.
    bins, range :
        As in :func:`histogram_bin_edges`. Bins are half open ``[e[i], e[i+1])``
        except the last, which includes its right edge; values outside (and NaN)
        are not counted.
    density : bool, optional
        Return a probability density (float64) integrating to 1 over the range.
    weights : array_like, optional
        ``a``'s shape; each value adds its weight instead of 1.

    Returns
    -------
    (Array, Array)
        ``hist`` of shape ``(nbins,)`` -- int64 counts, ``weights``' dtype sums, or
        float64 densities -- and ``bin_edges`` of shape ``(nbins + 1,)``.

    Raises
    ------
    ValueError
        As :func:`histogram_bin_edges`; ``weights`` of another shape.
    """
    x = _from_bool(asarray_for("histogram", a))
    if weights is not None:
        w = asarray_for("histogram", weights, "weights")
        if core.aval_of(w).shape != core.aval_of(x).shape:
            raise ValueError("xnp.histogram: weights should have the same shape as a.")
        w = _ravel(w)
    x = _ravel(x)
    if isinstance(bins, str):
        out = _host_estimated("histogram", np.histogram, x, bins, range, weights,
                              density=density)
        if out is not None:
            return out
    edges = _edges("histogram", x, bins, range, weights)
    nb = core.aval_of(edges).shape[0] - 1
    if nb < 0:  # no edges: no bins (NumPy's empty counts)
        return lax.broadcast_in_dim(_const(0, _INDEX), (0,), ()), edges
    n = core.aval_of(x).shape[0]
    idx = _bin_index(x, edges)
    if weights is None:
        hist = _scatter_add(nb, idx, _full(1, (n,), _INDEX), _INDEX)
    else:
        hist = _scatter_add(nb, idx, w, core.aval_of(w).dtype)
    if density:
        widths = lax.convert_element_type(lax.sub(edges[1:], edges[:-1]), _F64)
        h = lax.convert_element_type(hist, _F64)
        total = lax.reduce_sum(h, (0,))
        hist = lax.div(lax.div(h, widths), lax.broadcast_in_dim(total, (nb,), ()))
    return hist, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Multidimensional histogram of ``N`` points in ``D`` dimensions.

    Parameters
    ----------
    sample : array_like
        ``(N, D)`` array, or a sequence of ``D`` 1-D arrays of length ``N``.
    bins : int, sequence of int, or sequence of 1-D edge arrays
        Per dimension (or one for all), as in :func:`histogram` (no estimators).
    range : sequence of (lo, hi) or None, optional
        One static entry per dimension.
    density : bool, optional
        Normalise to a density.
    weights : array_like, optional
        ``(N,)`` weights.

    Returns
    -------
    (Array, list of Array)
        float64 ``hist`` of shape ``(nbins_0, ..., nbins_{D-1})`` and the ``D``
        edge arrays.

    Raises
    ------
    ValueError
        ``bins`` or ``range`` of the wrong length, non-positive or non-monotonic bins.
    """
    fname = "histogramdd"
    if isinstance(sample, (list, tuple)):
        from xnp.numpy_api.manipulation import stack  # noqa: PLC0415

        s = stack([_ravel(asarray_for(fname, c, "sample")) for c in sample], axis=1)
    else:
        s = asarray_for(fname, sample, "sample")
        if core.aval_of(s).ndim < 2:
            s = lax.reshape(s, (core.aval_of(s).size, 1))
    return _histdd(fname, s, bins, range, density, weights)


def _histdd(fname, s, bins, rng, density, weights):
    n, d = core.aval_of(s).shape
    try:
        if len(bins) != d:
            raise ValueError(f"xnp.{fname}: The dimension of bins must be equal to the "
                             "dimension of the sample x.")
    except TypeError:
        bins = [bins] * d
    if rng is None:
        rng = (None,) * d
    elif len(rng) != d:
        raise ValueError(f"xnp.{fname}: range argument must have one entry per dimension")
    edges, flat, stride = [], _full(0, (n,), _INDEX), 1
    outside = _full(False, (n,), np.dtype(bool))
    nbins = [0] * d
    for i in reversed(builtins.range(d)):
        col = lax.reshape(lax.slice_in_dim(s, i, i + 1, axis=1), (n,))
        if isinstance(bins[i], str):
            raise TypeError(f"xnp.{fname}: `bins[{i}]` must be a scalar or 1d array")
        e = _edges(fname, col, bins[i], rng[i], label=f"`bins[{i}]`", dd=True)
        nb = core.aval_of(e).shape[0] - 1
        idx = _bin_index(col, e)
        outside = lax.or_(outside, lax.eq(idx, _full(nb, (n,), _INDEX)))
        flat = lax.add(flat, lax.mul(idx, _full(stride, (n,), _INDEX)))
        stride *= nb
        edges.insert(0, e)
        nbins[i] = nb
    flat = lax.select(outside, _full(stride, (n,), _INDEX), flat)
    if weights is None:
        upd = _full(1.0, (n,), _F64)
    else:
        upd = _safe_cast(fname, _ravel(asarray_for(fname, weights, "weights")), _F64, "weights")
    hist = lax.reshape(_scatter_add(stride, flat, upd, _F64), tuple(nbins))
    if density:
        total = lax.reduce_sum(hist, tuple(builtins.range(d)))
        for i, e in enumerate(edges):
            w = lax.convert_element_type(lax.sub(e[1:], e[:-1]), _F64)
            hist = lax.div(hist, lax.broadcast_in_dim(w, tuple(nbins), (i,)))
        hist = lax.div(hist, lax.broadcast_in_dim(total, tuple(nbins), ()))
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Two-dimensional histogram of the points ``(x[i], y[i])``.

    ``bins``: an int or ``[nx, ny]``, one edge array for both axes, or
    ``[xedges, yedges]``; ``range``: ``[[xlo, xhi], [ylo, yhi]]`` (static). Returns
    ``(hist, xedges, yedges)`` with a float64 ``hist`` of shape ``(nx, ny)``; see
    :func:`histogramdd` for the rest.
    """
    try:
        nbin = len(bins)
    except TypeError:
        nbin = 1
    if nbin not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# --------------------------------------------------------------------------- interp


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``.

    Parameters
    ----------
    x : array_like
        Real evaluation points, any shape.
    xp : array_like, 1-D
        Increasing sample positions (not checked, as in NumPy), unless ``period``.
    fp : array_like, 1-D
        Sample values, ``xp``'s length; real or complex.
    left, right : scalar, optional
        Value for ``x < xp[0]`` / ``x > xp[-1]``; default ``fp[0]`` / ``fp[-1]``.
    period : scalar, optional
        Period of periodic ``xp`` (static, non-zero); ``left``/``right`` are then
        ignored and ``xp`` may be in any order.

    Returns
    -------
    Array
        float64 (complex128 for complex ``fp``) of ``x``'s shape.

    Raises
    ------
    TypeError
        Complex ``x`` or ``xp``; complex ``left``/``right`` with real ``fp``.
    ValueError
        ``xp``/``fp`` not 1-D, of different lengths, empty, or ``period == 0``.

    Notes
    -----
    The values of NumPy's loop (``numpy.interp``): NaN at a NaN ``x`` (``NaN + 0j`` for
    complex ``fp``; ``fp[0]`` for one sample point, as NumPy), ``fp[j]`` where ``x`` is
    ``xp[j]`` (the last of equal sample points), and between sample points
    ``slope * (x - xp[j]) + fp[j]``, retried from ``xp[j + 1]`` where that is NaN, then
    ``fp[j]`` where the segment is flat (complex: each part so, with the slope's parts
    ``(fp[j+1] - fp[j]) * (1 / (xp[j+1] - xp[j]))``). Eagerly it is one call of
    ``numpy.interp`` (a general composite, ``xnp.lax.composite_general``); under ``jit``
    and transformations a binary search and these rules. For ``xp`` that is not
    increasing the two differ as NumPy's search differs from a binary search (NumPy's
    answer is then unspecified); the ``period`` form sorts ``xp`` stably in both.
    Differentiable in ``x``, ``fp`` and ``xp`` (the bracketing interval is piecewise
    constant; at a sample point the derivative in ``x`` is the next segment's slope);
    ``vmap`` over any argument works.
    """
    fname = "interp"
    xs = _safe_cast(fname, asarray_for(fname, x, "x"), _F64, "x")
    xq = _safe_cast(fname, asarray_for(fname, xp, "xp"), _F64, "xp")
    f = asarray_for(fname, fp, "fp")
    out_dt = _C128 if core.aval_of(f).dtype in kit.COMPLEX else _F64
    f = _safe_cast(fname, f, out_dt, "fp")
    if core.aval_of(xq).ndim != 1 or core.aval_of(f).ndim != 1:
        raise ValueError(f"xnp.{fname}: Data points must be 1-D sequences")
    m = core.aval_of(xq).shape[0]
    if core.aval_of(f).shape[0] != m:
        raise ValueError(f"xnp.{fname}: fp and xp are not of the same length.")
    if m == 0:
        raise ValueError(f"xnp.{fname}: array of sample points is empty")
    out = ShapedArray(core.aval_of(xs).shape, out_dt)
    if period is not None:
        if isinstance(period, core.Tracer):
            raise TypeError(f"xnp.{fname}: `period` must be a static number")
        period = abs(float(period))
        if period == 0:
            raise ValueError(f"xnp.{fname}: period must be a non-zero value")
        return lax.composite_general("interp_period", _interp_periodic, xs, xq, f,
                                     _const(period, _F64), out_avals=(out,))[0]
    bounds = [_bound(fname, v, name, out_dt) for v, name in ((left, "left"), (right, "right"))]
    if any(b is not None and core.aval_of(b).ndim for b in bounds):
        return _interp_steps(xs, xq, f, *bounds)  # (a bound that is not a scalar raises there)
    name, decomposition = _INTERP_FORMS[left is not None, right is not None]
    given = [b for b in bounds if b is not None]
    return lax.composite_general(name, decomposition, xs, xq, f, *given, out_avals=(out,))[0]


def _bound(fname, v, name, out_dt):
    """``left``/``right`` in the result's dtype (None: not given); a Python number is
    converted on the host, as NumPy's ``float()``/``complex()`` of it."""
    if v is None:
        return None
    if type(v) in (int, float) or (type(v) is complex and out_dt == _C128):
        return promote_to(fname, v, out_dt)
    v = asarray_for(fname, v, name)
    if out_dt == _F64 and core.aval_of(v).dtype in kit.COMPLEX:
        raise TypeError(f"xnp.{fname}: `{name}` must be real number, not complex (fp is real)")
    return promote_to(fname, v, out_dt)


def _interp_steps(xs, xq, f, lo, hi):
    """``interp`` of increasing ``xq`` with the bounds ``lo``/``hi`` (0-d, ``f``'s dtype;
    None: ``f[0]``/``f[-1]``): NumPy's loop (``interp``'s Notes), one binary search for
    every ``x``."""
    m = core.aval_of(xq).shape[0]
    shape = core.aval_of(xs).shape
    out_dt = core.aval_of(f).dtype

    def bc(v):
        return lax.broadcast_in_dim(v, shape, ())

    def at(v, i):  # entry i (static) of a 1-D v, computed (not an indexing of an eager array)
        return lax.index_in_dim(v, i, keepdims=False)

    def pick(v, idx):  # v[idx] for in-bounds int indices idx of any shape
        n = int(np.prod(shape))
        return lax.reshape(M.take_along(v, lax.reshape(idx, (n,)), 0), shape)

    lo = at(f, 0) if lo is None else lo
    hi = at(f, -1) if hi is None else hi
    if m == 1:  # (a NaN x gives fp[0], as NumPy's loop for one point)
        inside = lax.select(lax.gt(xs, bc(at(xq, 0))), bc(hi), bc(at(f, 0)))
        return lax.select(lax.lt(xs, bc(at(xq, 0))), bc(lo), inside)
    j = searchsorted(xq, xs, side="right")
    j = lax.clamp(_const(1, _INDEX), j, _const(m - 1, _INDEX))
    jm1 = lax.sub(j, _const(1, _INDEX))
    x0, x1 = pick(xq, jm1), pick(xq, j)
    f0, f1 = pick(f, jm1), pick(f, j)
    if out_dt == _C128:  # each part, with the slope times the reciprocal of the step
        inv = lax.div(_const(1.0, _F64), lax.sub(x1, x0))
        res = lax.complex(*[_segment(xs, x0, x1, part(f0), part(f1),
                                     lax.mul(lax.sub(part(f1), part(f0)), inv))
                            for part in (lax.real, lax.imag)])
    else:
        res = _segment(xs, x0, x1, f0, f1, lax.div(lax.sub(f1, f0), lax.sub(x1, x0)))
    # at a sample point fp[j]: selected only where the line's value is not it (a NaN of an
    # infinite slope, the sign of a zero), so the derivative in x stays the slope
    knot = lax.and_(lax.eq(xs, x0), lax.or_(lax.ne(res, f0), _negative_zero(f0)))
    res = lax.select(knot, f0, res)
    res = lax.select(lax.eq(xs, bc(at(xq, -1))), bc(at(f, -1)), res)
    res = lax.select(lax.lt(xs, bc(at(xq, 0))), bc(lo), res)
    res = lax.select(lax.gt(xs, bc(at(xq, -1))), bc(hi), res)
    return lax.select(lax.ne(xs, xs), _to(xs, out_dt), res)


def _segment(xs, x0, x1, f0, f1, slope):
    """NumPy's value on the segment ``[x0, x1]`` (real parts): from ``x0``, from ``x1``
    where that is NaN, then ``f0`` where it is still NaN and the segment is flat."""
    res = lax.add(lax.mul(slope, lax.sub(xs, x0)), f0)
    alt = lax.add(lax.mul(slope, lax.sub(xs, x1)), f1)
    res = lax.select(lax.ne(res, res), alt, res)
    return lax.select(lax.and_(lax.ne(res, res), lax.eq(f0, f1)), f0, res)


def _negative_zero(v):
    """Where ``v`` (float64 or complex128) is ``-0.0`` (complex: either part)."""
    if core.aval_of(v).dtype == _C128:
        return lax.or_(_negative_zero(lax.real(v)), _negative_zero(lax.imag(v)))
    bits = lax.bitcast_convert_type(v, _INDEX)
    return lax.eq(bits, _const(np.float64(-0.0).view(_INDEX), _INDEX))


def _interp_points(xs, xq, f):
    return [_interp_steps(xs, xq, f, None, None)]


def _interp_left(xs, xq, f, lo):
    return [_interp_steps(xs, xq, f, lo, None)]


def _interp_right(xs, xq, f, hi):
    return [_interp_steps(xs, xq, f, None, hi)]


def _interp_bounded(xs, xq, f, lo, hi):
    return [_interp_steps(xs, xq, f, lo, hi)]


#: (left given, right given) -> the composite's name (its kernel: xnp/backends/xp_impls/
#: composite.py) and decomposition
_INTERP_FORMS = {(False, False): ("interp", _interp_points),
                 (True, False): ("interp_left", _interp_left),
                 (False, True): ("interp_right", _interp_right),
                 (True, True): ("interp_left_right", _interp_bounded)}


def _interp_periodic(xs, xq, f, period):
    """``interp`` of ``period``-periodic sample points (``period`` a positive 0-d float64):
    everything reduced modulo the period, ``xq`` sorted stably and extended by one point
    on each side (NumPy's steps)."""
    from xnp.numpy_api.elementwise import remainder  # noqa: PLC0415
    from xnp.numpy_api.sorting import argsort  # noqa: PLC0415

    xs = remainder(xs, period)
    xq = remainder(xq, period)
    order = argsort(xq, kind="stable")
    xq, f = xq[order], f[order]
    xq = lax.concatenate([lax.sub(xq[-1:], period), xq, lax.add(xq[:1], period)], 0)
    f = lax.concatenate([f[-1:], f, f[:1]], 0)
    return [_interp_steps(xs, xq, f, None, None)]


def _to(x, dt):
    return x if core.aval_of(x).dtype == dt else lax.convert_element_type(x, dt)
