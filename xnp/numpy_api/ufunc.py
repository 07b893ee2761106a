"""NumPy's ufunc objects: ``xnp.ufunc``, the ufunc instances of the main namespace
(``xnp.add``, ``xnp.sin``, ...) and ``xnp.frompyfunc``.

Every NumPy name whose object is a ``numpy.ufunc`` and that xnp implements becomes an
``xnp.ufunc`` wrapping xnp's elementwise function (one instance per function, so the
aliases ``xnp.abs``/``xnp.absolute`` are the same object, as in NumPy). The attributes
(``nin``, ``nout``, ``nargs``, ``ntypes``, ``types``, ``identity``, ``signature``) are
NumPy's; ``__doc__`` is xnp's docstring.

Calling the object is calling the wrapped function (the same keywords, results and
errors; the eager fast path is kept: each instance has its own subclass of
``xnp.ufunc`` whose ``__call__`` is the function itself, so a call adds no Python
frame), with NumPy's ``where=`` rules in front of its full path
(:func:`xnp.numpy_api._ufunc.masked_call`: the warning for ``where=`` without ``out=``,
and masked-out elements that raise no floating-point error). The gufuncs ``matmul``,
``vecdot``, ``matvec`` and ``vecmat`` also take NumPy's ``axes=``, ``axis=`` and
``keepdims=`` (the core axes are moved to the end, the function is called, and the
output's core axes are moved to their place).

The methods follow NumPy's rules and messages and are written on ``xnp.lax``, so they
run eagerly with NumPy's results and under ``jit``/``grad``/``vmap``:

* ``reduce``/``accumulate``/``reduceat`` take the loop dtype NumPy picks (``add`` and
  ``multiply`` widen small integers; ``divide`` of integers works in float64; a ufunc
  without a same-dtype loop, such as ``less``, raises NumPy's ``TypeError``). ``add``,
  ``multiply``, ``maximum``, ``minimum``, ``logical_and``/``logical_or`` reduce with
  ``sum``/``prod``/``max``/``min``/``all``/``any`` and the bitwise ufuncs and
  ``logical_xor`` with ``lax.reduce_and``/``reduce_or``/``reduce_xor``; the first four
  accumulate with the cumulative primitives. Every other ufunc is a left fold with
  ``lax.scan`` over the (merged) reduced axes, starting from the identity or
  ``initial`` when there is one, else from the first element: NumPy's order of
  operations, so non-associative ufuncs (``subtract``, ``power``, ``arctan2``, ...)
  give NumPy's values. Under a transformation ``hypot``, ``logaddexp(2)``, ``fmax``
  and ``fmin`` (reorderable) reduce with one tree-shaped ``lax.reduce`` instead (equal
  up to rounding order).
* ``reduceat`` needs concrete ``indices`` (they decide the output shape).
* ``at(a, indices, b)`` is unbuffered (a repeated index applies the ufunc again) and
  updates ``a`` in place: an eager array is overwritten, a traced one (a ``jit``
  argument, a value inside ``grad``/``vmap``) is rebound exactly as ``a[idx] += v`` is
  (views and jit write-back included). ``add``/``subtract``/``multiply``/
  ``minimum``/``maximum`` with the loop in ``a``'s dtype are one scatter; any other
  ufunc (and unary ones) is a ``lax.scan`` over the indexed positions in index order.
* ``outer(A, B)`` calls the ufunc on ``A`` reshaped to ``A.shape + (1,) * B.ndim``.

``xnp.frompyfunc`` (eager only) is in :mod:`xnp.numpy_api.pyufunc`.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from xnp import lax
from xnp.numpy_api import elementwise, logic, math_misc, products, rounding, transcendental
from xnp.numpy_api import manipulation as _mn
from xnp.numpy_api import _reduce_common as _rc
from xnp.numpy_api import reductions as _red
from xnp.numpy_api._index_at import AtIndexer
from xnp.numpy_api._inplace import assign, check_target
from xnp.numpy_api._fp_out import at_loop_name, call_writing_out
from xnp.numpy_api._ufunc import masked_call
from xnp.numpy_api._util import asarray_for, check_reduction_axis, normalize_axis, write_out
from xnp.tracing import core, errors
from xnp.numpy_api import _fastpath as fastpath
from xnp.tracing.avals import canonical_dtype

__all__ = ["ufunc"]

_NoValue = np._NoValue
_SOURCES = (elementwise, rounding, transcendental, logic, math_misc, products)
#: ufuncs NumPy lets reduce over several axes at once (associative and commutative)
_REORDERABLE = frozenset({
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "hypot", "logaddexp",
    "logaddexp2", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "gcd"})
_FAST_REDUCE = {"add": _red.sum, "multiply": _red.prod}
_FAST_EXTREMUM = {"maximum": _red.max, "minimum": _red.min}
_FAST_LOGICAL = {"logical_and": _red.all, "logical_or": _red.any}
#: order-independent integer/bool monoids: one lax reduction (no initial, no where)
_FAST_BITWISE = {"bitwise_and": lax.reduce_and, "bitwise_or": lax.reduce_or,
                 "bitwise_xor": lax.reduce_xor, "logical_xor": lax.reduce_xor}
#: (name, loop dtype is bool) -> cumulative primitive
_FAST_ACCUMULATE = {("add", False): lax.cumsum, ("multiply", False): lax.cumprod,
                    ("maximum", False): lax.cummax, ("minimum", False): lax.cummin,
                    ("maximum", True): lax.cummax, ("minimum", True): lax.cummin,
                    ("add", True): lax.cummax, ("multiply", True): lax.cummin,
                    ("logical_or", True): lax.cummax, ("logical_and", True): lax.cummin}
_FAST_AT = {"add": "add", "multiply": "multiply", "minimum": "min", "maximum": "max"}
#: reorderable ufuncs without a dedicated primitive -> a value that is an identity for
#: every element (NaN for fmax/fmin; hypot ignores signs): under a transformation they
#: reduce with one tree-shaped lax.reduce instead of the sequential fold. (Not gcd: its
#: body is a while loop, which XLA's CPU compiler cannot fuse into a reduction.)
_TREE_IDENTITY = {"hypot": 0, "logaddexp": -np.inf, "logaddexp2": -np.inf,
                  "fmax": np.nan, "fmin": np.nan}
#: gufunc name -> the number of distinct core dimensions in its signature
_GUFUNC_DIMS = {"matmul": 3, "vecdot": 1, "matvec": 2, "vecmat": 2}


# --------------------------------------------------------------------------- helpers


def _reraise(fname, exc):
    """NumPy's error from a dtype probe, raised again naming the xnp function."""
    cls = next(c for c in (OverflowError, TypeError, IndexError, ValueError)
               if isinstance(exc, c))
    raise cls(f"xnp.{fname}: {exc}") from None


_PROBES: dict = {}


def _probe(npu, method, fname, dt, dtype, out=None):
    """``(accumulator dtype, element dtype)`` of NumPy's ``npu.<method>`` loop for input
    dtype ``dt`` and ``dtype=`` (without it, the loop for ``out`` and the input together:
    ``_reduce_common.out_loop_dtype``), from a one-element host array (metadata only), or
    NumPy's error."""
    dtype = _rc.out_loop_dtype(npu, out, dt) if dtype is None else canonical_dtype(dtype)
    key = (npu, method, dt, dtype)
    hit = _PROBES.get(key)
    if hit is None:
        dummy = np.ones((1,), dt)
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if method == "reduceat":
                    res = npu.reduceat(dummy, [0], dtype=dtype)
                else:
                    res = getattr(npu, method)(dummy, dtype=dtype)
            acc = np.asarray(res).dtype
            hit = (acc, _element_dtype(npu, acc, dt if dtype is None else dtype))
        except (TypeError, ValueError) as exc:
            hit = exc
        _PROBES[key] = hit
    if isinstance(hit, Exception):
        _reraise(fname, hit)
    return hit


def _element_dtype(npu, acc, dt):
    """The dtype the reduced elements enter NumPy's loop in (the accumulator's, except
    for loops with a second input of another kind, such as ``ldexp``'s integer)."""
    try:
        return npu.resolve_dtypes((acc, np.dtype(dt), None))[1]
    except (TypeError, ValueError):
        return acc


def _strong(x, dt):
    """``x`` as a strongly typed value of dtype ``dt``."""
    a = core.aval_of(x)
    if a.dtype == dt and not a.weak_type:
        return x
    return lax.convert_element_type(x, dt, weak_type=False)


def _full(value, dt, shape):
    v = core.lift(np.asarray(value).astype(dt))
    return lax.broadcast_in_dim(v, tuple(shape), ()) if shape else v


def _operand(fname, x, argname):
    """An operand; Python scalars become strong default-dtype arrays (NumPy's methods
    convert them with ``asarray``)."""
    if core.is_python_scalar(x):
        return core.lift(np.asarray(x))
    return asarray_for(fname, x, argname)


def _to_front(x, axes):
    """``x`` with ``axes`` merged into one leading axis: ``(n,) + kept shape``."""
    shape = core.aval_of(x).shape
    kept = [i for i in range(len(shape)) if i not in axes]
    if list(axes) + kept != list(range(len(shape))):
        x = lax.transpose(x, tuple(axes) + tuple(kept))
    n = 1
    for a in axes:
        n *= shape[a]
    kshape = tuple(shape[i] for i in kept)
    return lax.reshape(x, (n,) + kshape), n, kshape


def _fold(fn, dt, init, xs, mask, collect):
    """Left fold ``c = fn(c, xs[i])`` over the leading axis (skipping where ``mask`` is
    False); returns the carry, or every carry stacked when ``collect``."""

    def step(c, item):
        xi, mi = item
        new = _strong(fn(c, xi), dt)
        if mi is not None:
            new = lax.select_n(mi, c, new)
        return new, (new if collect else None)

    n = core.aval_of(xs).shape[0]
    if n == 0:
        return init, None
    if _eager(init, xs, mask):  # the same steps as a Python loop (no per-step scan dispatch)
        carry = init
        ys = lax.convert_element_type(xs, dt, weak_type=False) if collect else None  # a new array
        rows = ys._writable_value() if collect else None
        for i in range(n):
            carry, _ = step(carry, (xs[i], None if mask is None else mask[i]))
            if collect:
                rows[i] = carry._value
        return carry, ys
    carry, ys = lax.scan(step, init, (xs, mask))
    return carry, ys


def _eager(*values) -> bool:
    """No transformation is active and every value is an eager array."""
    return core.is_eager(core.current_trace()) and all(
        v is None or type(v) is core.Array for v in values)


# --------------------------------------------------------------------------- the class


class ufunc:
    """A NumPy universal function: an elementwise function with NumPy's ufunc attributes
    and the methods ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and ``at``.

    xnp makes the instances (``xnp.add``, ``xnp.sin``, ``xnp.frompyfunc(...)``);
    ``xnp.ufunc(...)`` raises ``TypeError``, as NumPy does. Calling one calls xnp's
    function of the same name (see its docstring and :mod:`xnp.numpy_api.elementwise`
    for the keywords). Each instance has its own private subclass (``type(xnp.add)``
    prints as ``xnp.ufunc`` but is not ``xnp.ufunc`` itself), so that calling it costs
    what calling the function costs; ``isinstance(f, xnp.ufunc)`` is the test to use.

    Attributes
    ----------
    nin, nout, nargs, ntypes, types, identity, signature
        NumPy's values for the ufunc of the same name.
    __name__, __qualname__
        NumPy's name (``xnp.abs.__name__ == "absolute"``).
    """

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'xnp.ufunc' instances")

    def __call__(self, *args, **kwargs):  # replaced by each instance's subclass
        raise TypeError("internal error in xnp: a ufunc without a function")

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__  # pickled by name, as NumPy's ufuncs

    # ------------------------------------------------------------------ checks

    def _needs(self, method, *, binary=True):
        """NumPy's errors for a method this ufunc does not have."""
        if self.signature is not None:
            if method == "outer":
                raise TypeError("method outer is not allowed in ufunc with non-trivial "
                                "signature")
            if method == "at":
                raise TypeError(f"{self.__name__}.at does not support ufunc with non-trivial "
                                f"signature: {self.__name__} has signature {self.signature}.")
            raise RuntimeError("Reduction not defined on ufunc with signature")
        if method == "at":
            if self.nout != 1:
                raise ValueError("Only single output ufuncs supported at this time")
            return
        if self.nin != 2 and binary:
            what = "outer product" if method == "outer" else method
            raise ValueError(f"{what} only supported for binary functions")
        if self.nout != 1 and method != "outer":
            raise ValueError(f"{method} only supported for functions returning a single value")

    # ------------------------------------------------------------------ reduce

    def reduce(self, array, /, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
               where=True):
        """Reduce ``array`` over ``axis`` by applying the ufunc repeatedly
        (``numpy.ufunc.reduce``).

        ``axis``: int, tuple of ints (reorderable ufuncs only) or None (all axes).
        ``dtype``: the loop dtype (default NumPy's for ``array.dtype``: small integers
        widen for ``add``/``multiply``). ``initial`` starts every reduction (default:
        the ufunc's identity, needed for empty reductions and for ``where``).
        ``where``: bool mask broadcast against ``array``; masked-out elements are
        skipped. Shape: ``array.shape`` without the reduced axes (kept as 1 when
        ``keepdims``).

        Raises
        ------
        ValueError
            A unary or two-output ufunc; several axes for a non-reorderable ufunc; an
            empty reduction or ``where=`` without identity and ``initial``; a repeated
            axis.
        TypeError
            NumPy has no loop for the dtype (``less.reduce``).
        numpy.exceptions.AxisError
            An axis is out of range.

        With ``out``, a floating-point error comes after ``out`` is written, as NumPy's
        (:mod:`xnp.numpy_api._fp_out`).
        """
        return call_writing_out(self._reduce, (array, axis, dtype, out, keepdims, initial,
                                               where), {}, out, (array, where), where="reduce",
                                only=self.__name__)

    def _reduce(self, array, axis, dtype, out, keepdims, initial, where):
        name = self.__name__
        fname = f"{name}.reduce"
        self._needs("reduce")
        x = _operand(fname, array, "array")
        shape = core.aval_of(x).shape
        axes = self._reduce_axes(fname, axis, len(shape))
        dt, et = _probe(self._np, "reduce", fname, core.aval_of(x).dtype, dtype, out)
        if len(axes) > 1 and name not in _REORDERABLE:
            raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                             "axis may be specified")
        has_initial = initial is not _NoValue and initial is not None
        n = 1
        for a in axes:
            n *= shape[a]
        if self.identity is None and not has_initial:
            if where is not True:
                raise ValueError(f"reduction operation '{name}' does not have an identity, so "
                                 "to use a where mask one has to specify 'initial'")
            out_size = 1
            for i, s in enumerate(shape):
                out_size *= 1 if i in axes else s
            if n == 0 and out_size:
                raise ValueError(f"zero-size array to reduction operation {name} which has no "
                                 "identity")
        init = initial if has_initial else None
        mask = None if where is True else where
        fast = _FAST_REDUCE.get(name)
        if fast is not None:
            return fast(x, axes, dt, out, keepdims, init, mask)
        fast = _FAST_EXTREMUM.get(name)
        if fast is not None and dt.kind != "c":  # (complex: the fold's lexicographic order)
            return fast(_strong(x, dt), axes, out, keepdims, init, mask)
        fast = _FAST_LOGICAL.get(name)
        if fast is not None and init is None:
            return fast(_strong(x, dt), axes, out, keepdims, where=mask)
        fast = _FAST_BITWISE.get(name)
        if fast is not None and init is None and mask is None and dt.kind in "biu":
            res = fast(_strong(x, dt), axes)
        else:
            res = self._fold_reduce(fname, _strong(x, et), axes, dt, init, mask)
        if keepdims and axes:
            res = lax.expand_dims(res, axes)
        return write_out(fname, out, res, "unsafe")

    def _reduce_axes(self, fname, axis, ndim):
        check_reduction_axis(fname, axis)
        if ndim == 0 and (axis is None or axis == () or (type(axis) is int and axis in (0, -1))):
            return ()
        if axis is None:
            axes = tuple(range(ndim))
        elif isinstance(axis, tuple):
            axes = tuple(normalize_axis(fname, a, ndim) for a in axis)
            if len(set(axes)) != len(axes):
                raise ValueError("duplicate value in 'axis'")
            axes = tuple(sorted(axes))
        else:
            axes = (normalize_axis(fname, axis, ndim),)
        return axes

    def _fold_reduce(self, fname, x, axes, dt, initial, where):
        shape = core.aval_of(x).shape
        xs, n, kshape = _to_front(x, axes)
        mask = None
        if where is not None:
            m = _rc._mask(fname, where, shape)
            m = lax.broadcast_in_dim(m, shape, tuple(range(len(shape)))) if core.aval_of(
                m).shape != shape else m
            mask, _, _ = _to_front(m, axes)
        tree = _TREE_IDENTITY.get(self.__name__)
        if tree is not None and tree != tree and dt.kind in "iu":  # fmax/fmin: NaN's role
            tree = np.iinfo(dt).min if self.__name__ == "fmax" else np.iinfo(dt).max
        if tree is not None and mask is None and n > 1 and dt.kind in "fiu" and not _eager(xs):
            # staged: one parallel lax.reduce (equal to the fold up to rounding order)
            fn = self._fn
            res = lax.reduce(xs, core.lift(np.asarray(tree).astype(dt)),
                             lambda a, b: _strong(fn(a, b), dt), (0,))
            if initial is not None:
                res = _strong(fn(self._initial(fname, initial, dt, kshape), res), dt)
            return res
        if initial is not None:
            start = self._initial(fname, initial, dt, kshape)
        elif self.identity is not None:
            start = _full(self.identity, dt, kshape)
        else:
            start = _strong(lax.index_in_dim(xs, 0, keepdims=False), dt)
            xs = lax.slice_in_dim(xs, 1, n, axis=0)
        res, _ = _fold(self._fn, dt, start, xs, mask, False)
        return res

    def _initial(self, fname, initial, dt, kshape):
        v = _rc._initial_value(fname, initial, dt)
        return lax.broadcast_in_dim(v, kshape, ()) if kshape else v

    # ------------------------------------------------------------------ accumulate

    def accumulate(self, array, /, axis=0, dtype=None, out=None):
        """Running results of the ufunc along one ``axis`` (``numpy.ufunc.accumulate``):
        ``out[0] = array[0]``, ``out[i] = ufunc(out[i-1], array[i])``.

        Shape: ``array.shape``; dtype: NumPy's loop dtype (``add``/``multiply`` widen
        small integers) or ``dtype``.

        Raises
        ------
        ValueError
            A unary or two-output ufunc, or several axes.
        TypeError
            A 0-d ``array``, or NumPy has no loop for the dtype.
        numpy.exceptions.AxisError
            ``axis`` is out of range.

        With ``out``: floating-point errors as :meth:`reduce`'s, also if it overlaps ``array``.
        """
        return call_writing_out(self._accumulate, (array, axis, dtype, out), {}, out,
                                where="accumulate", only=self.__name__)

    def _accumulate(self, array, axis, dtype, out):
        fname = f"{self.__name__}.accumulate"
        self._needs("accumulate")
        x = _operand(fname, array, "array")
        aval = core.aval_of(x)
        if aval.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                raise ValueError("accumulate does not allow multiple axes")
            (axis,) = axis
        if axis is None and aval.ndim > 1:  # None: every axis (NumPy's error)
            raise ValueError("accumulate does not allow multiple axes")
        ax = normalize_axis(fname, 0 if axis is None else axis, aval.ndim)
        dt, _ = _probe(self._np, "accumulate", fname, aval.dtype, dtype, out)
        x = _strong(x, dt)
        prim = _FAST_ACCUMULATE.get((self.__name__, dt.kind == "b"))
        if prim is not None and not (prim in (lax.cummax, lax.cummin) and dt.kind == "c"):
            res = prim(x, axis=ax)
        else:
            res = self._fold_accumulate(x, ax, dt)
        return write_out(fname, out, res, "unsafe")

    def _fold_accumulate(self, x, ax, dt):
        shape = core.aval_of(x).shape
        n = shape[ax]
        if n == 0:
            return x
        xs = _mn.moveaxis(x, ax, 0) if ax else x
        first = lax.index_in_dim(xs, 0, keepdims=True)
        _, ys = _fold(self._fn, dt, lax.index_in_dim(xs, 0, keepdims=False),
                      lax.slice_in_dim(xs, 1, n, axis=0), None, True)
        res = first if ys is None else lax.concatenate([first, ys], 0)
        return _mn.moveaxis(res, 0, ax) if ax else res

    # ------------------------------------------------------------------ reduceat

    def reduceat(self, array, /, indices, axis=0, dtype=None, out=None):
        """Reductions over the slices ``array[indices[i]:indices[i+1]]`` along ``axis``
        (``numpy.ufunc.reduceat``); the last slice runs to the end, and where
        ``indices[i] >= indices[i+1]`` the result is ``array[indices[i]]``.

        ``indices`` must be concrete (1-D integers, also under ``jit``: they decide the
        output shape). Shape: ``array.shape`` with ``axis`` of length ``len(indices)``.

        Raises
        ------
        IndexError
            An index outside ``[0, array.shape[axis])``.
        TypeError
            A 0-d ``array``; traced ``indices`` (``ConcretizationTypeError``); NumPy has
            no loop for the dtype.
        ValueError
            ``indices`` is not 1-D; a unary or two-output ufunc.
        """
        return call_writing_out(self._reduceat, (array, indices, axis, dtype, out), {}, out,
                                (array,), where="reduceat", only=(self.__name__, "reduce"))

    def _reduceat(self, array, indices, axis, dtype, out):
        name = self.__name__
        fname = f"{name}.reduceat"
        self._needs("reduceat")
        x = _operand(fname, array, "array")
        aval = core.aval_of(x)
        if aval.ndim == 0:
            raise TypeError("cannot reduceat on a scalar")
        idx = self._static_indices(fname, indices)
        ax = normalize_axis(fname, axis, aval.ndim)
        dt, _ = _probe(self._np, "reduceat", fname, aval.dtype, dtype, out)
        n = aval.shape[ax]
        for i in idx:
            if not 0 <= i < n:
                raise IndexError(f"index {i} out-of-bounds in {name}.reduceat [0, {n})")
        pieces = []
        for k, start in enumerate(idx):
            stop = idx[k + 1] if k + 1 < len(idx) else n
            if start < stop:
                seg = lax.slice_in_dim(x, start, stop, axis=ax)
                pieces.append(self.reduce(seg, ax, dt, None, True))
            else:
                pieces.append(lax.slice_in_dim(x, start, start + 1, axis=ax))
        if pieces:
            res = pieces[0] if len(pieces) == 1 else lax.concatenate(
                [_strong(p, dt) for p in pieces], ax)
        else:
            res = lax.slice_in_dim(x, 0, 0, axis=ax)
        return write_out(fname, out, _strong(res, dt), "unsafe")

    @staticmethod
    def _static_indices(fname, indices):
        if isinstance(indices, core.Tracer):
            v = indices.to_concrete_value()
            if v is None:
                raise errors.ConcretizationTypeError(errors.concretization_message(
                    indices, f"It arose in the xnp.{fname} argument 'indices', which must be "
                    "static (it decides the output shape)."))
            indices = v
        if type(indices) is core.Array:
            indices = indices._value
        idx = np.asarray(indices)
        if idx.ndim != 1:
            raise ValueError(f"xnp.{fname}: `indices` must be 1-D, got shape {idx.shape}")
        if idx.dtype.kind not in "iuf" and idx.size:
            raise TypeError(f"xnp.{fname}: `indices` must be integers, got dtype {idx.dtype}")
        return [int(i) for i in idx.astype(np.intp)]

    # ------------------------------------------------------------------ outer

    def outer(self, A, B, /, **kwargs):
        """``ufunc(a[i, j, ...], b[k, l, ...])`` for every pair (``numpy.ufunc.outer``):
        shape ``A.shape + B.shape``; keywords as for calling the ufunc."""
        fname = f"{self.__name__}.outer"
        self._needs("outer")
        a, b = _operand(fname, A, "A"), _operand(fname, B, "B")
        sa, nb = core.aval_of(a).shape, core.aval_of(b).ndim
        if nb:
            a = lax.reshape(a, sa + (1,) * nb)
        return type(self).__call__(a, b, **kwargs)

    # ------------------------------------------------------------------ at

    def at(self, a, indices, b=None, /):
        """Unbuffered in-place ``a[indices] = ufunc(a[indices], b)``
        (``numpy.ufunc.at``): an index given several times applies the ufunc once per
        occurrence. ``a`` must be an xnp array: an eager one is modified in place, a
        traced one is rebound (as ``a[idx] += v``). ``b`` broadcasts against
        ``a[indices]``; the result is cast back to ``a.dtype`` (``same_kind`` rule).
        Returns None.

        Raises
        ------
        ValueError
            ``b`` missing for a binary ufunc or given for a unary one; a two-output
            ufunc.
        TypeError
            ``a`` is not an xnp array; NumPy has no loop for the dtypes, or the result
            cannot be cast to ``a.dtype``.
        IndexError
            An index is out of range.

        A floating-point error comes after every update is written, as NumPy's
        (:mod:`xnp.numpy_api._fp_out`).
        """
        if type(a) is not core.Array:
            return self._at(a, indices, b)
        return call_writing_out(self._at, (a, indices, b), {}, a,
                                where=lambda: at_loop_name(self.__name__, a, indices, b))

    def _at(self, a, indices, b):
        fname = f"{self.__name__}.at"
        self._needs("at", binary=False)
        if self.nin == 2 and b is None:
            raise ValueError("second operand needed for ufunc")
        if self.nin == 1 and b is not None:
            raise ValueError("second operand provided when ufunc is unary")
        check_target(fname, a, "a")
        adt = core.aval_of(a).dtype
        bv = None if b is None else asarray_for(fname, b, "b")
        loop = self._at_loop(fname, adt, b, bv)
        kind = _FAST_AT.get(self.__name__)
        if self.__name__ == "subtract" and adt.kind not in "b":
            kind = "subtract"
        if kind is not None and loop == adt and adt.kind != "b":
            ref = AtIndexer(a)[indices]
            new = getattr(ref, kind)(_strong(bv, adt))
        else:
            new = self._at_fold(a, indices, bv, adt)
        assign(a, new)

    def _at_loop(self, fname, adt, b, bv):
        """NumPy's loop dtype for ``ufunc.at`` on these dtypes (its error otherwise)."""
        dummy = np.ones((1,), adt)
        if b is None:
            probe = ()
        elif core.is_python_scalar(b):
            probe = (b,)
        else:
            probe = (np.ones((1,), core.aval_of(bv).dtype),)
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._np.at(dummy.copy(), [0], *probe)
                return np.asarray(self._np(dummy, *probe)).dtype
        except (TypeError, ValueError, OverflowError) as exc:
            _reraise(fname, exc)

    def _at_fold(self, a, indices, bv, adt):
        shape = core.aval_of(a).shape
        size = 1
        for s in shape:
            size *= s
        pos = AtIndexer(lax.reshape(lax.iota(np.dtype(np.int64), (size,)), shape))[indices].get()
        pshape = core.aval_of(pos).shape
        m = 1
        for s in pshape:
            m *= s
        flat = lax.reshape(a, (max(size, 1),))
        pos = lax.reshape(pos, (m,))
        if bv is not None:
            bshape = core.aval_of(bv).shape
            if bshape != pshape:
                bv = _mn.broadcast_to(bv, pshape)
            bv = lax.reshape(bv, (m,))
        fn = self._fn

        def step(c, item):
            p, bk = item
            old = lax.dynamic_index_in_dim(c, p, keepdims=False)
            new = fn(old) if bk is None else fn(old, bk)
            new = lax.convert_element_type(new, adt, weak_type=False)
            return lax.dynamic_update_slice(c, lax.reshape(new, (1,)), (p,)), None

        if m and _eager(flat, pos, bv):  # in place on a copy, one element at a time
            work = lax.convert_element_type(flat, adt, weak_type=False)   # a new array
            vals = work._writable_value()
            for k, p in enumerate(pos._value.tolist()):
                new = fn(work[p]) if bv is None else fn(work[p], bv[k])
                vals[p] = lax.convert_element_type(new, adt, weak_type=False)._value
            flat = work
        elif m:
            flat, _ = lax.scan(step, _strong(flat, adt), (pos, bv))
        return lax.reshape(flat, shape)


# --------------------------------------------------------------------------- gufunc calls


def _gufunc_call(name, fn):
    """``fn`` with NumPy's gufunc ``axes``/``axis``/``keepdims`` keywords; ``matmul``
    keeps its eager fast path in front (no extra frame for plain calls)."""
    ndims = _GUFUNC_DIMS[name]
    sig = getattr(np, name).signature
    slow = fn.__wrapped__ if hasattr(fn, "_fast_decorator") else fn

    def call(x1, x2, /, *args, **kwargs):
        if not args and not kwargs:
            return slow(x1, x2)
        axes = kwargs.pop("axes", None)
        axis = kwargs.pop("axis", None)
        keepdims = kwargs.pop("keepdims", False)
        out = args[0] if args else kwargs.get("out")  # (its errors: _fp_out's rules)
        if axes is None and axis is None and not keepdims:
            return call_writing_out(slow, (x1, x2, *args), kwargs, out, (x1, x2), where=name,
                                    only="dot")
        kwargs.pop("out", None)
        return call_writing_out(_gufunc_axes, (name, slow, sig, ndims, x1, x2, out, axes, axis,
                                               keepdims, kwargs), {}, out, (x1, x2), where=name,
                                only="dot")

    call.__wrapped__ = slow
    return call


def _core_counts(name, n1, n2):
    if name == "matmul":
        c1, c2 = min(n1, 2), min(n2, 2)
        return (c1, c2), (c1 == 2) + (c2 == 2)
    return {"vecdot": ((1, 1), 0), "matvec": ((2, 1), 1), "vecmat": ((1, 2), 1)}[name]


def _gufunc_axes(name, fn, sig, ndims, x1, x2, out, axes, axis, keepdims, kwargs):
    xs = [asarray_for(name, x1, "x1"), asarray_for(name, x2, "x2")]
    nds = [core.aval_of(x).ndim for x in xs]
    cin, cout = _core_counts(name, *nds)
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        if ndims != 1:
            raise TypeError(f"{name}: axis can only be used with a single shared core "
                            f"dimension, not with the {ndims} distinct ones implied by "
                            f"signature {sig}.")
        axes = [(axis,), (axis,)]
    if keepdims and (cout != 0 or len(set(cin)) != 1):
        raise TypeError(f"{name} does not support keepdims: its signature {sig} requires output "
                        f"0 to have {cout} core dimensions, but keepdims can only be used when "
                        "all inputs have the same number of core dimensions and all outputs "
                        "have no core dimensions.")
    ncore_out = cin[0] if keepdims else cout
    if axes is None:
        axes = [tuple(range(-c, 0)) for c in cin]
    axes = list(axes)
    if len(axes) == 2 and ncore_out == 0:
        axes.append(())
    elif len(axes) == 2 and keepdims:
        axes.append(axes[0])
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; "
                         "entries for outputs can only be omitted if none of them has core axes.")
    norm = []
    for i, (entry, c) in enumerate(zip(axes, list(cin) + [ncore_out])):
        entry = (entry,) if isinstance(entry, (int, np.integer)) else tuple(entry)
        if len(entry) != c:
            raise ValueError(f"{name}: axes item {i} should be a tuple with {c} elements, got "
                             f"{entry!r}")
        norm.append(entry)
    moved = []
    for x, nd, entry in zip(xs, nds, norm[:2]):
        src = [normalize_axis(name, a, nd, "axes") for a in entry]
        dst = list(range(nd - len(src), nd))
        moved.append(_mn.moveaxis(x, src, dst) if src != dst else x)
    res = fn(moved[0], moved[1], **kwargs)
    rnd = core.aval_of(res).ndim
    if keepdims:
        res = lax.expand_dims(res, tuple(range(rnd, rnd + ncore_out)))
        rnd += ncore_out
    dst = [normalize_axis(name, a, rnd, "axes") for a in norm[2]]
    src = list(range(rnd - len(dst), rnd))
    if dst != src:
        res = _mn.moveaxis(res, src, dst)
    return write_out(name, out, res, kwargs.get("casting", "same_kind"))


# --------------------------------------------------------------------------- instances


def _make(name, fn, npu, call=None, *, doc=None):
    """A ufunc instance calling ``call`` (default ``fn``) with ``npu``'s attributes."""
    call = fn if call is None else call
    doc = getattr(fn, "__doc__", None) if doc is None else doc
    cls = type("ufunc", (ufunc,), {"__call__": staticmethod(call), "__doc__": doc,
                                   "__module__": "xnp", "__qualname__": "ufunc",
                                   "__slots__": ()})
    obj = object.__new__(cls)
    obj.__dict__.update(
             _fn=fn, _np=npu, __name__=npu.__name__, __qualname__=npu.__name__,
             __doc__=doc, __wrapped__=getattr(call, "__wrapped__", call),
             __signature__=_signature(fn, npu.signature is not None),
             nin=npu.nin, nout=npu.nout, nargs=npu.nargs, ntypes=npu.ntypes,
             types=list(npu.types), identity=npu.identity, signature=npu.signature)
    return obj


def _signature(fn, gufunc):
    """The call signature shown by ``inspect.signature`` (the function's; a gufunc's
    with the ``axes``/``axis``/``keepdims`` keywords)."""
    sig = inspect.signature(fn)
    if not gufunc:
        return sig
    P = inspect.Parameter
    params = [p for p in sig.parameters.values() if p.name not in ("axes", "axis", "keepdims")]
    params += [P("axes", P.KEYWORD_ONLY, default=None), P("axis", P.KEYWORD_ONLY, default=None),
               P("keepdims", P.KEYWORD_ONLY, default=False)]
    return sig.replace(parameters=params)


def _build() -> dict:
    """name -> ufunc for every NumPy ufunc name xnp implements (aliases share one)."""
    funcs = {}
    for mod in _SOURCES:
        for n in mod.__all__:
            funcs.setdefault(n, getattr(mod, n))
    made: dict = {}
    out = {}
    for n in dir(np):
        npu = getattr(np, n, None)
        if not isinstance(npu, np.ufunc) or n not in funcs:
            continue
        fn = funcs[n]
        obj = made.get(id(fn))
        if obj is None:
            call = doc = None
            if npu.signature is not None:
                call = _gufunc_call(npu.__name__, fn)
                doc = (fn.__doc__ or "").rstrip() + (
                    f"\n\n    As the ufunc object ``xnp.{npu.__name__}``: ``axes``, ``axis`` and "
                    "``keepdims`` follow NumPy's\n    gufunc rules (signature "
                    f"``{npu.signature}``; see :mod:`xnp.numpy_api.ufunc`).\n")
            else:  # NumPy's where= rules, behind the fast path (which takes no keywords)
                call = fastpath.with_full_path(
                    fn, functools.partial(masked_call, name=npu.__name__, nin=npu.nin))
            obj = made[id(fn)] = (_make(npu.__name__, fn, npu, call, doc=doc), fn)
        out[n] = obj[0]
    return out


#: every wrapped name (aliases included) -> its ufunc
UFUNCS = _build()
