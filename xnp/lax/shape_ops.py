"""Shape primitives: ``broadcast_in_dim``, ``reshape``, ``squeeze``, ``transpose``,
``iota``, ``rev``, ``copy`` and ``reduce_sum`` (the sum the broadcasts transpose to;
re-exported by :mod:`xnp.lax.reductions`); plus the wrapper
``expand_dims`` (a ``broadcast_in_dim`` that only inserts size-1 dimensions, as
in JAX) and :func:`canonicalize_shape`, the static-shape check shared with
``xnp.numpy_api``.

Strict, like all of lax: no dtype promotion, no implicit rank broadcasting.
Weak types pass through: the result is weak iff the operand is (all operands
for ``concatenate``; the operand, not the padding value, for ``pad``); ``iota``
is never weak. Params are canonical: tuples of Python ints, ``np.dtype``.

Eager results (backends/xp_impls/shape_ops.py) are NumPy views where NumPy
returns views (reshape, transpose, squeeze, rev, a ``broadcast_in_dim`` that
only inserts size-1 dims) and new writable arrays otherwise.

Transformation rules: every primitive here except ``iota`` is linear in its
array operands (``pad``: jointly in the operand and the padding value), so its
jvp applies the primitive to the tangents and its transpose maps the cotangent
back (sums for broadcasts, crops for ``concatenate``/``pad``, the inverse
permutation for ``transpose``). The transposes use only this family, reductions
and ``dot_general`` (crops are ``pad`` with negative edges), so they differentiate
again. Batching rules keep the batch axis in place where the parameters can be
shifted past it (``squeeze``, ``rev``, ``pad``, ``copy``) and move it to the
front otherwise.
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import _strides as view_rules
from xnp.tracing import Array, Primitive, ShapedArray, core, errors
from xnp.tracing.core import for_primitive
from xnp.tracing.batching import moveaxis

__all__ = [
    "broadcast_in_dim", "reshape", "squeeze", "expand_dims", "transpose", "iota",
    "rev", "copy", "reduce_sum",
    "broadcast_in_dim_p", "reshape_p", "squeeze_p", "transpose_p", "iota_p",
    "rev_p", "copy_p", "reduce_sum_p",
]

_SHAPE_PHRASE = "Shapes must be 1D sequences of concrete values of integer type"


# --------------------------------------------------------------------------- static shapes


def _concrete_entry(d):
    """A shape entry as a Python int; None if it is an abstract tracer."""
    if isinstance(d, core.Tracer):
        v = d.to_concrete_value()
        if v is None:
            return None
        d = np.asarray(v)
    elif type(d) is Array:
        d = d._value
    if isinstance(d, np.ndarray):
        if d.ndim != 0 or d.dtype.kind not in "iu":
            raise TypeError
        return int(d)
    if isinstance(d, (bool, np.bool_)):
        raise TypeError
    return operator.index(d)


def canonicalize_shape(fname: str, shape, *, argname: str = "shape",
                       allow_negative: bool = False) -> tuple[int, ...]:
    """A static shape as a tuple of Python ints.

    ``shape`` is an integer or a sequence of integers (Python ints, NumPy
    integers, concrete 0-d integer arrays). ``fname`` is the public name used
    in messages (``"zeros"`` -> ``xnp.zeros``; ``"lax.reshape"`` -> ``xnp.lax.reshape``).

    Raises
    ------
    xnp.errors.ConcretizationTypeError
        An entry is a traced value (message contains "Shapes must be 1D
        sequences of concrete values of integer type", the tracer and where
        it came from).
    TypeError
        An entry is not an integer.
    ValueError
        A negative entry (unless ``allow_negative``: ``reshape``'s -1).
    """
    seq = shape if isinstance(shape, (tuple, list)) else (shape,)
    if isinstance(shape, np.ndarray) and shape.ndim == 1:
        seq = tuple(shape.tolist())
    out = []
    for d in seq:
        try:
            v = _concrete_entry(d)
        except TypeError:
            raise TypeError(
                f"xnp.{fname}: expected a sequence of integers or a single integer for "
                f"`{argname}`, got {d!r} in {_shape_repr(shape)}.") from None
        if v is None:
            raise errors.ConcretizationTypeError(_traced_shape_message(fname, shape, d, argname))
        out.append(v)
    if not allow_negative and any(v < 0 for v in out):
        raise ValueError(
            f"xnp.{fname}: negative dimensions are not allowed, got {argname}={tuple(out)}.")
    return tuple(out)


def _shape_repr(shape) -> str:
    if isinstance(shape, list):
        return "[" + ", ".join(repr(d) for d in shape) + "]"
    if isinstance(shape, tuple):
        return "(" + ", ".join(repr(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    return repr(shape)


def _traced_shape_message(fname: str, shape, tracer, argname: str) -> str:
    lines = [
        f"xnp.{fname}: {_SHAPE_PHRASE}, got {_shape_repr(shape)}.",
        f"The `{argname}` argument must be static. If using `jit`, try using `static_argnums` "
        "or applying `jit` to smaller subfunctions; compute shapes with NumPy "
        "(np.prod(x.shape)) or from `x.shape`, which stay concrete under jit.",
    ]
    origin = tracer._origin_message()
    if origin:
        lines.append(origin)
    lines.append(errors.docs_pointer(errors.ConcretizationTypeError))
    return "\n".join(lines)


_int_tuple = kit.int_tuple


def _avals_str(*avals: ShapedArray) -> str:
    return ", ".join(errors.aval_str(a) for a in avals)


def _check_permutation(name: str, what: str, perm, ndim: int, aval: ShapedArray) -> None:
    if sorted(perm) != list(range(ndim)):
        raise ValueError(
            f"xnp.lax.{name}: `{what}`={perm} must be a permutation of {tuple(range(ndim))} "
            f"for operand {errors.aval_str(aval)}.")


def _sorted_dims(name: str, dims, aval: ShapedArray) -> tuple[int, ...]:
    """``dims`` with negative values counted from the end, sorted; repeats raise ValueError
    (range is checked by the shape rule)."""
    norm = [d + aval.ndim if -aval.ndim <= d < 0 else d for d in dims]
    if len(set(norm)) != len(norm):
        raise ValueError(
            f"xnp.lax.{name}: repeated dimension in {dims} for {errors.aval_str(aval)}.")
    return tuple(sorted(norm))


def _bind(prim: Primitive, *args, **params):
    """``prim.bind`` (every trace runs the shape/dtype rules; the eager one caches them per
    operand signature), kept as the family's single binding point."""
    return prim.bind(*args, **params)


def _same_weak_as_operand(*weak_types, **params) -> bool:
    return bool(weak_types[0])


# --------------------------------------------------------------------------- broadcast_in_dim


def _broadcast_in_dim_shape(x: ShapedArray, *, shape, broadcast_dimensions):
    name = "broadcast_in_dim"
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(
            f"xnp.lax.{name}: `broadcast_dimensions`={broadcast_dimensions} must have one entry "
            f"per operand dimension; operand {errors.aval_str(x)}, shape={shape}.")
    if any(d < 0 for d in shape):
        raise ValueError(f"xnp.lax.{name}: negative dimension in shape={shape}.")
    if any(d < 0 or d >= len(shape) for d in broadcast_dimensions) or any(
            a >= b for a, b in zip(broadcast_dimensions, broadcast_dimensions[1:])):
        raise ValueError(
            f"xnp.lax.{name}: `broadcast_dimensions`={broadcast_dimensions} must be strictly "
            f"increasing and in [0, {len(shape)}); operand {errors.aval_str(x)}, shape={shape}.")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] != 1 and x.shape[i] != shape[d]:
            raise TypeError(
                f"xnp.lax.{name}: operand dimension {i} has size {x.shape[i]}, which is neither 1 "
                f"nor shape[{d}]={shape[d]}; operand {errors.aval_str(x)}, shape={shape}, "
                f"broadcast_dimensions={broadcast_dimensions}.")
    return shape


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions):
    # Sum over the dims broadcast_in_dim created (new dims and stretched size-1 dims),
    # then restore the operand's size-1 dims.
    xshape = x.aval.shape
    created = set(range(len(shape))) - set(broadcast_dimensions)
    created |= {d for i, d in enumerate(broadcast_dimensions) if xshape[i] == 1 and shape[d] != 1}
    summed = reduce_sum(ct, tuple(sorted(created))) if created else ct
    if core.aval_of(summed).shape != xshape:
        summed = reshape(summed, xshape)
    return [summed]


def _broadcast_in_dim_batch(vals, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    size = core.aval_of(x).shape[0]
    out_dims = (0,) + tuple(b + 1 for b in broadcast_dimensions)
    return broadcast_in_dim_p.bind(x, shape=(size,) + shape, broadcast_dimensions=out_dims), 0


broadcast_in_dim_p = kit.primitive(
    "broadcast_in_dim", view=view_rules.broadcast, linear=True,
    shape=_broadcast_in_dim_shape,
    dtype=lambda x, **params: x.dtype,
    transpose=R.zero_ct_passthrough(_broadcast_in_dim_transpose),
    batch=_broadcast_in_dim_batch,
    allocates=False,  # XLA fuses a broadcast into its consumers (NumPy: a view)
    jvp=R.linear_unary_jvp,
)


def broadcast_in_dim(operand: Array, shape, broadcast_dimensions) -> Array:
    """Broadcast ``operand`` to ``shape``; operand dim ``i`` goes to result dim
    ``broadcast_dimensions[i]``.

    Shape rule: ``len(broadcast_dimensions) == operand.ndim``; the dims are
    strictly increasing and in range; each operand dim is 1 or equal to the
    dim it maps to. Dtype: the operand's. Result weak iff the operand is weak.
    Eagerly the result is a view of the operand when the element count does
    not change (only size-1 dims inserted), and a new writable array otherwise.

    Raises
    ------
    TypeError, ValueError
        The rule above is violated (message names ``xnp.lax.broadcast_in_dim``
        and the operand's aval); ``ConcretizationTypeError`` for a traced shape.
    """
    shape = canonicalize_shape("lax.broadcast_in_dim", shape)
    dims = _int_tuple("broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
    return _bind(broadcast_in_dim_p, operand, shape=shape, broadcast_dimensions=dims)


def expand_dims(operand: Array, dimensions) -> Array:
    """Insert size-1 dimensions at the positions ``dimensions`` of the result.

    A wrapper over ``broadcast_in_dim`` (as in JAX), so the jaxpr shows a
    ``broadcast_in_dim``; eagerly the result is a view. ``dimensions`` are
    result positions; negative values count from the end of the result.

    Raises
    ------
    ValueError
        A dimension is out of range or repeated.
    """
    aval = core.aval_of(operand)
    dims = _int_tuple("expand_dims", "dimensions", dimensions)
    ndim_out = aval.ndim + len(dims)
    norm = []
    for d in dims:
        if not -ndim_out <= d < ndim_out:
            raise ValueError(
                f"xnp.lax.expand_dims: dimension {d} is out of range for a result of rank "
                f"{ndim_out} (operand {errors.aval_str(aval)}).")
        norm.append(d % ndim_out)
    if len(set(norm)) != len(norm):
        raise ValueError(f"xnp.lax.expand_dims: repeated dimension in {dims}.")
    kept = [i for i in range(ndim_out) if i not in norm]
    shape = [1] * ndim_out
    for i, d in zip(kept, aval.shape):
        shape[i] = d
    return _bind(broadcast_in_dim_p, operand, shape=tuple(shape), broadcast_dimensions=tuple(kept))


# --------------------------------------------------------------------------- reshape


def _reshape_shape(x: ShapedArray, *, new_sizes, dimensions):
    name = "reshape"
    if any(d < 0 for d in new_sizes):
        raise ValueError(f"xnp.lax.{name}: negative dimension in new_sizes={new_sizes}.")
    if dimensions is not None:
        _check_permutation(name, "dimensions", dimensions, x.ndim, x)
    size = 1
    for d in new_sizes:
        size *= d
    if size != x.size:
        raise TypeError(
            f"xnp.lax.{name}: cannot reshape {errors.aval_str(x)} into shape {new_sizes}: "
            f"{x.size} elements vs {size}.")
    return new_sizes


def _reshape_transpose(ct, x, *, new_sizes, dimensions):
    xshape = x.aval.shape
    if dimensions is None:
        return [reshape(ct, xshape)]
    permuted = reshape(ct, tuple(xshape[d] for d in dimensions))
    return [transpose(permuted, tuple(int(i) for i in np.argsort(dimensions)))]


def _reshape_batch(vals, dims, *, new_sizes, dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    size = core.aval_of(x).shape[0]
    perm = None if dimensions is None else (0,) + tuple(p + 1 for p in dimensions)
    return reshape(x, (size,) + new_sizes, perm), 0


reshape_p = kit.primitive("reshape", view=view_rules.reshaped, linear=True, shape=_reshape_shape,
                          dtype=lambda x, **params: x.dtype,
                          transpose=R.zero_ct_passthrough(_reshape_transpose), batch=_reshape_batch,
                          jvp=R.linear_unary_jvp)


def reshape(operand: Array, new_sizes, dimensions=None) -> Array:
    """Reshape ``operand`` (row-major) to ``new_sizes``, after transposing by ``dimensions``.

    ``dimensions`` (optional) is a permutation applied first (JAX's meaning);
    the identity permutation is stored as ``None``. Shape rule: the element
    counts match; no -1 entries (``xnp.reshape`` infers those). Dtype and weak
    type: the operand's. Eagerly a view when NumPy's reshape gives one.

    Raises
    ------
    TypeError
        Element counts differ (names both shapes); ``ConcretizationTypeError``
        for a traced size.
    ValueError
        A negative size or a bad permutation.
    """
    new_sizes = canonicalize_shape("lax.reshape", new_sizes, argname="new_sizes")
    if dimensions is not None:
        dimensions = _int_tuple("reshape", "dimensions", dimensions)
        if dimensions == tuple(range(len(dimensions))):
            dimensions = None
    return _bind(reshape_p, operand, new_sizes=new_sizes, dimensions=dimensions)


# --------------------------------------------------------------------------- squeeze


def _squeeze_shape(x: ShapedArray, *, dimensions):
    kit.check_axes("squeeze", x, dimensions, "dimensions")
    for d in dimensions:
        if x.shape[d] != 1:
            raise ValueError(
                f"xnp.lax.squeeze: cannot squeeze dimension {d} of size {x.shape[d]} "
                f"(only size-1 dimensions can be removed); operand {errors.aval_str(x)}.")
    return tuple(n for i, n in enumerate(x.shape) if i not in dimensions)


def _squeeze_transpose(ct, x, *, dimensions):
    return [reshape(ct, x.aval.shape)]


def _squeeze_batch(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    new_dims = R.shift_axes(dimensions, d)
    out_dim = d - sum(1 for a in new_dims if a < d)
    return squeeze_p.bind(x, dimensions=new_dims), out_dim


squeeze_p = kit.primitive("squeeze", view=view_rules.squeezed, linear=True, shape=_squeeze_shape,
                          dtype=lambda x, **params: x.dtype,
                          transpose=R.zero_ct_passthrough(_squeeze_transpose), batch=_squeeze_batch,
                          jvp=R.linear_unary_jvp)


def squeeze(operand: Array, dimensions) -> Array:
    """Remove the size-1 dimensions ``dimensions`` (negative values count from the end).

    Shape: the operand's without ``dimensions``. Eagerly a view.

    Raises
    ------
    ValueError
        A dimension is out of range, repeated, or not of size 1.
    """
    aval = core.aval_of(operand)
    dims = _int_tuple("squeeze", "dimensions", dimensions)
    return _bind(squeeze_p, operand, dimensions=_sorted_dims("squeeze", dims, aval))


# --------------------------------------------------------------------------- transpose


def _transpose_shape(x: ShapedArray, *, permutation):
    _check_permutation("transpose", "permutation", permutation, x.ndim, x)
    return tuple(x.shape[p] for p in permutation)


def _transpose_transpose(ct, x, *, permutation):
    return [transpose(ct, tuple(int(i) for i in np.argsort(permutation)))]


def _transpose_batch(vals, dims, *, permutation):
    (x,), (d,) = vals, dims
    perm = (d,) + R.shift_axes(permutation, d)
    return transpose_p.bind(x, permutation=perm), 0


transpose_p = kit.primitive("transpose", view=view_rules.permuted, linear=True, shape=_transpose_shape,
                            dtype=lambda x, **params: x.dtype,
                            transpose=R.zero_ct_passthrough(_transpose_transpose),
                            batch=_transpose_batch, jvp=R.linear_unary_jvp)


def transpose(operand: Array, permutation) -> Array:
    """Permute the dimensions: result dim ``i`` is operand dim ``permutation[i]``.

    Eagerly a view (``numpy.transpose``).

    Raises
    ------
    ValueError
        ``permutation`` is not a permutation of ``range(operand.ndim)``.
    """
    perm = _int_tuple("transpose", "permutation", permutation)
    return _bind(transpose_p, operand, permutation=perm)


# --------------------------------------------------------------------------- iota


def _iota_shape(*, dtype, shape, dimension):
    if not shape:
        raise ValueError("xnp.lax.iota: shape must have at least one dimension, got ().")
    if any(d < 0 for d in shape):
        raise ValueError(f"xnp.lax.iota: negative dimension in shape={shape}.")
    if not 0 <= dimension < len(shape):
        raise ValueError(f"xnp.lax.iota: dimension={dimension} is out of range for shape={shape}.")
    return shape


def _iota_dtype(*, dtype, shape, dimension):
    if dtype not in kit.NUMERIC:
        raise TypeError(f"xnp.lax.iota: dtype {dtype} is not accepted; needs a numeric dtype "
                        f"(shape={shape}).")
    return dtype


def _iota_batch(vals, dims, **params):
    # No operands, so nothing is ever batched (BatchTrace binds it directly); complete for
    # callers that batch every equation: the result is the same for every batch member.
    return iota_p.bind(**params), None


iota_p = kit.primitive("iota", shape=_iota_shape, dtype=_iota_dtype, weak_type=kit.never_weak,
                   differentiable="iota has no operands", batch=_iota_batch)


def iota(dtype, shape, dimension: int = 0) -> Array:
    """An array of ``shape`` whose entries are their index along ``dimension``.

    ``iota(int64, (3,))`` is ``[0, 1, 2]``. ``dtype`` is any numeric dtype
    (bool is rejected); never weakly typed. ``shape`` is an int or a tuple.

    Raises
    ------
    TypeError
        Non-numeric dtype; ``ConcretizationTypeError`` for a traced shape.
    ValueError
        Empty or negative shape, or ``dimension`` out of range.
    """
    shape = canonicalize_shape("lax.iota", shape)
    return _bind(iota_p, dtype=np.dtype(dtype), shape=shape, dimension=operator.index(dimension))


# --------------------------------------------------------------------------- rev


def _rev_shape(x: ShapedArray, *, dimensions):
    kit.check_axes("rev", x, dimensions, "dimensions")
    return x.shape


def _rev_transpose(ct, x, *, dimensions):
    return [rev_p.bind(ct, dimensions=dimensions)]


def _rev_batch(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    return rev_p.bind(x, dimensions=R.shift_axes(dimensions, d)), d


rev_p = kit.primitive("rev", view=view_rules.reversed_, linear=True, shape=_rev_shape,
                      dtype=lambda x, **params: x.dtype,
                      transpose=R.zero_ct_passthrough(_rev_transpose), batch=_rev_batch,
                      jvp=R.linear_unary_jvp)


def rev(operand: Array, dimensions) -> Array:
    """Reverse the order of elements along ``dimensions`` (unique; negative values
    count from the end).

    Eagerly a view (``numpy.flip``).

    Raises
    ------
    ValueError
        A dimension is out of range or repeated.
    """
    aval = core.aval_of(operand)
    dims = _int_tuple("rev", "dimensions", dimensions)
    return _bind(rev_p, operand, dimensions=_sorted_dims("rev", dims, aval))


# --------------------------------------------------------------------------- copy

copy_p = kit.primitive("copy", linear=True, shape=lambda x: x.shape, dtype=lambda x: x.dtype,
                   transpose=R.zero_ct_passthrough(lambda ct, x: [copy_p.bind(ct)]),
                   jvp=R.linear_unary_jvp, batch=R.unary_batch,
                   allocates="eagerly")  # staged, XLA fuses it (what a program allocates
                                         # is checked after compiling)


def copy(operand: Array) -> Array:
    """A copy of ``operand``: eagerly a new writable array that shares no memory.

    Under ``jit`` it is a distinct value (writes to it never reach the
    operand); XLA lowers it to nothing. Dtype, shape and weak type: the operand's.
    """
    return copy_p.bind(operand)


# --------------------------------------------------------------------------- reductions' kit


def _canonical_axes(name: str, axes) -> tuple[int, ...]:
    """``axes`` as a sorted tuple of Python ints (validated against the operand by the rule)."""
    if type(axes) is tuple and all(type(a) is int for a in axes):  # the common, fast case
        return axes if all(a < b for a, b in zip(axes, axes[1:])) else tuple(sorted(axes))
    if _is_int(axes):
        axes = (axes,)
    try:
        items = tuple(axes)
    except TypeError:
        items = None
    if items is None or not all(_is_int(a) for a in items):
        raise TypeError(f"xnp.lax.{name}: `axes` must be a tuple of ints, got {axes!r}")
    return tuple(sorted(int(a) for a in items))


def _is_int(a) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))


@functools.lru_cache(maxsize=1024)
def _reduced_shape(name: str, x: ShapedArray, axes: tuple[int, ...]) -> tuple[int, ...]:
    kit.check_axes(name, x, axes)
    return tuple(n for i, n in enumerate(x.shape) if i not in axes)


def _reducer(name: str, accept, differentiable=True, linear: bool = False, **rules) -> Primitive:
    """A reduction over ``axes`` whose result keeps the operand dtype (batching rule included;
    ``rules``: the other keywords of :func:`xnp.lax._kit.primitive`)."""

    def shape(x: ShapedArray, *, axes: tuple[int, ...]) -> tuple[int, ...]:
        return _reduced_shape(name, x, axes)

    def dtype(x: ShapedArray, *, axes: tuple[int, ...]) -> np.dtype:
        kit.check_dtype(name, x, accept)
        return x.dtype

    return kit.primitive(name, shape=shape, dtype=dtype, differentiable=differentiable,
                         linear=linear, batch=R.reducer_batch, **rules)


def _kept(ndim: int, axes) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i not in axes)


# --------------------------------------------------------------------------- reduce_sum

def _reduce_sum_transpose(ct, x, *, axes):
    # x is the linear placeholder (only x.aval is known); copy ct back along axes
    shape = x.aval.shape
    return [broadcast_in_dim(ct, shape, _kept(len(shape), axes))]


reduce_sum_p = _reducer("reduce_sum", kit.NUMERIC, linear=True,
                        jvp=R.linear_unary_jvp,
                        transpose=R.zero_ct_passthrough(_reduce_sum_transpose))


def reduce_sum(x: Array, axes) -> Array:
    """Sum of ``x`` over ``axes``.

    Strict: ``axes`` are non-negative and unique (they are sorted here); no dtype
    promotion and no accumulation upcast (``xnp.sum`` adds both). Shape:
    ``x.shape`` without ``axes``. Dtype: ``x.dtype`` (numeric; not bool).

    float16 sums in NumPy's order: the innermost run of reduced axes (in memory order;
    the trailing reduced axes of a C-contiguous array) in float32, rounded once, and
    each other reduced axis step by step with a rounding to float16 after each step
    (``reduce_prod`` likewise; ``backends/xla/lowering/float16.py``).

    Raises
    ------
    TypeError
        ``x`` has a bool dtype, or ``axes`` are not ints.
    ValueError
        An axis is repeated or out of range.
    """
    return _bind(reduce_sum_p, x, axes=_canonical_axes("reduce_sum", axes))


# --------------------------------------------------------------------------- rule kits
# Rule kits of the higher families that need the shape ops (lax's implicit size-1
# broadcasting, batch axes moved to the front).


def unbroadcast(ct, target_aval):
    """Sum ``ct`` down to ``target_aval``'s shape (the transpose of lax's implicit
    rank-0 and size-1 broadcasting in elementwise ops)."""
    ct_aval = core.aval_of(ct)
    shape = target_aval.shape
    if ct_aval.shape == shape:
        return ct
    if shape == ():
        return reduce_sum(ct, tuple(range(ct_aval.ndim)))
    axes = tuple(i for i, (a, b) in enumerate(zip(ct_aval.shape, shape)) if a != b)
    summed = reduce_sum(ct, axes)
    return reshape(summed, shape)


def bdim_to_front(x, d, size):
    """``x`` with its batch axis first (broadcast to ``size`` when unbatched, d is None)."""
    if d is None:
        a = core.aval_of(x)
        return broadcast_in_dim(x, (size,) + a.shape, tuple(range(1, a.ndim + 1)))
    return moveaxis(x, d, 0)


@for_primitive
def elementwise_batch(prim):
    """Batching of an n-ary elementwise primitive: batch axes moved to the front; unbatched
    operands get a leading size-1 axis (lax broadcasts size-1 and rank-0 operands)."""

    def batch(vals, dims, **params):
        size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        ranks = [core.aval_of(v).ndim - (0 if d is None else 1) for v, d in zip(vals, dims)]
        rank = max(ranks)
        out = []
        for v, d, r in zip(vals, dims, ranks):
            a = core.aval_of(v)
            if d is None:
                if r == 0:
                    out.append(v)
                else:
                    out.append(broadcast_in_dim(v, (1,) + a.shape, tuple(range(1, a.ndim + 1))))
                continue
            v = moveaxis(v, d, 0)
            if r < rank:  # a batched scalar next to rank-`rank` operands
                v = reshape(v, (size,) + (1,) * rank)
            out.append(v)
        return prim.bind(*out, **params), 0

    return batch
