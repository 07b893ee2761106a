"""Shape primitives: ``broadcast_in_dim``, ``reshape``, ``squeeze``, ``transpose``,
``concatenate``, ``iota``, ``rev``, ``pad`` and ``copy``; plus the wrapper
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

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.tracing import Array, Primitive, ShapedArray, core, errors
from xnp.tracing.batching import moveaxis

__all__ = [
    "broadcast_in_dim", "reshape", "squeeze", "expand_dims", "transpose", "concatenate", "iota",
    "rev", "pad", "copy",
    "broadcast_in_dim_p", "reshape_p", "squeeze_p", "transpose_p", "concatenate_p", "iota_p",
    "rev_p", "pad_p", "copy_p",
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
    from xnp.lax.reductions import reduce_sum  # noqa: PLC0415  (reductions imports this module)

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


broadcast_in_dim_p = Primitive(
    "broadcast_in_dim",
    shape=_broadcast_in_dim_shape,
    dtype=lambda x, **params: x.dtype,
    transpose=R.zero_ct_passthrough(_broadcast_in_dim_transpose),
    batch=_broadcast_in_dim_batch,
    allocates=False,  # XLA fuses a broadcast into its consumers (NumPy: a view)
)
broadcast_in_dim_p.jvp = R.linear_unary_jvp(broadcast_in_dim_p)


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


reshape_p = Primitive("reshape", shape=_reshape_shape, dtype=lambda x, **params: x.dtype,
                      transpose=R.zero_ct_passthrough(_reshape_transpose), batch=_reshape_batch)
reshape_p.jvp = R.linear_unary_jvp(reshape_p)


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


squeeze_p = Primitive("squeeze", shape=_squeeze_shape, dtype=lambda x, **params: x.dtype,
                      transpose=R.zero_ct_passthrough(_squeeze_transpose), batch=_squeeze_batch)
squeeze_p.jvp = R.linear_unary_jvp(squeeze_p)


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


transpose_p = Primitive("transpose", shape=_transpose_shape, dtype=lambda x, **params: x.dtype,
                        transpose=R.zero_ct_passthrough(_transpose_transpose),
                        batch=_transpose_batch)
transpose_p.jvp = R.linear_unary_jvp(transpose_p)


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


# --------------------------------------------------------------------------- concatenate


def _concatenate_shape(*xs: ShapedArray, dimension):
    name = "concatenate"
    if not xs:
        raise TypeError(f"xnp.lax.{name}: needs at least one operand.")
    nd = xs[0].ndim
    if any(x.ndim != nd for x in xs):
        raise TypeError(f"xnp.lax.{name}: operands must have equal ranks, got {_avals_str(*xs)}.")
    if not 0 <= dimension < nd:
        raise ValueError(
            f"xnp.lax.{name}: dimension={dimension} is out of range for operands "
            f"{_avals_str(*xs)}.")
    for i in range(nd):
        if i != dimension and any(x.shape[i] != xs[0].shape[i] for x in xs):
            raise TypeError(
                f"xnp.lax.{name}: operand shapes must match except along dimension "
                f"{dimension}, got {_avals_str(*xs)}.")
    shape = list(xs[0].shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return tuple(shape)


def _concatenate_dtype(*xs: ShapedArray, dimension):
    return kit.same_dtype("concatenate", *xs)


def _crop(x, dimension: int, start: int, stop: int):
    """``x[..., start:stop, ...]`` along ``dimension``, as a ``pad`` with negative edges (so the
    transposes of this family need no other family and differentiate again)."""
    a = core.aval_of(x)
    config = [(0, 0, 0)] * a.ndim
    config[dimension] = (-start, stop - a.shape[dimension], 0)
    return pad(x, np.zeros((), a.dtype), tuple(config))


def _concatenate_transpose(ct, *xs, dimension):
    cts, start = [], 0
    for x in xs:
        stop = start + R.aval(x).shape[dimension]
        cts.append(_crop(ct, dimension, start, stop) if R.is_undefined(x) else None)
        start = stop
    return cts


def _concatenate_batch(vals, dims, *, dimension):
    size = R.batch_size(vals, dims)
    xs = [R.bdim_to_front(v, d, size) for v, d in zip(vals, dims)]
    return concatenate_p.bind(*xs, dimension=dimension + 1), 0


concatenate_p = Primitive("concatenate", shape=_concatenate_shape, dtype=_concatenate_dtype,
                          transpose=R.zero_ct_passthrough(_concatenate_transpose),
                          batch=_concatenate_batch)
concatenate_p.jvp = R.linear_nary_jvp(concatenate_p)


def concatenate(operands, dimension: int) -> Array:
    """Join ``operands`` (equal dtypes and ranks >= 1) along ``dimension``.

    Shape: equal to the operands' except along ``dimension``, where the sizes
    add. Weak iff every operand is weak. Eagerly a new array.

    Raises
    ------
    TypeError
        Dtypes, ranks or the other dims differ (names all operand avals).
    ValueError
        ``dimension`` is out of range.
    """
    operands = list(operands)
    dim = operator.index(dimension)
    return _bind(concatenate_p, *operands, dimension=dim)


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


iota_p = Primitive("iota", shape=_iota_shape, dtype=_iota_dtype, weak_type=kit.never_weak,
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


rev_p = Primitive("rev", shape=_rev_shape, dtype=lambda x, **params: x.dtype,
                  transpose=R.zero_ct_passthrough(_rev_transpose), batch=_rev_batch)
rev_p.jvp = R.linear_unary_jvp(rev_p)


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


# --------------------------------------------------------------------------- pad


def _pad_shape(x: ShapedArray, pv: ShapedArray, *, padding_config):
    name = "pad"
    if pv.ndim != 0:
        raise TypeError(
            f"xnp.lax.{name}: padding_value must be a scalar, got {errors.aval_str(pv)} "
            f"(operand {errors.aval_str(x)}).")
    if len(padding_config) != x.ndim:
        raise ValueError(
            f"xnp.lax.{name}: padding_config has {len(padding_config)} entries, operand "
            f"{errors.aval_str(x)} has rank {x.ndim}.")
    out = []
    for i, ((lo, hi, interior), n) in enumerate(zip(padding_config, x.shape)):
        if interior < 0:
            raise ValueError(
                f"xnp.lax.{name}: interior padding must be >= 0, got {interior} for dimension "
                f"{i} (padding_config={padding_config}, operand {errors.aval_str(x)}).")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(
                f"xnp.lax.{name}: dimension {i} would have negative size {size} "
                f"(padding_config={padding_config}, operand {errors.aval_str(x)}).")
        out.append(size)
    return tuple(out)


def _pad_dtype(x: ShapedArray, pv: ShapedArray, *, padding_config):
    return kit.same_dtype("pad", x, pv)


def _unpad(ct, shape, padding_config):
    """The transpose of ``pad`` in the operand: the entries of ``ct`` at the operand's
    positions (zeros where ``pad`` cropped operand entries away)."""
    a = core.aval_of(ct)
    zero = np.zeros((), a.dtype)
    # 1. undo the edges: negated edge padding (an edge that cropped comes back as zeros)
    ct = pad(ct, zero, tuple((-lo, -hi, 0) for lo, hi, _ in padding_config))
    # 2. undo interior padding: each dim now has n + (n - 1) * interior entries; pad to
    # n * (interior + 1), split into (n, interior + 1) and keep column 0
    strided = [it > 0 and n > 1 for (_, _, it), n in zip(padding_config, shape)]
    if not any(strided):
        return ct
    grow, split, keep_first = [], [], []
    for (_, _, it), n, s in zip(padding_config, shape, strided):
        grow.append((0, it if s else 0, 0))
        split += [n, it + 1] if s else [n]
        keep_first += [(0, 0, 0), (0, -it, 0)] if s else [(0, 0, 0)]
    ct = pad(ct, zero, tuple(grow))
    ct = pad(reshape(ct, tuple(split)), zero, tuple(keep_first))
    return reshape(ct, shape)


def _pad_jvp(primals, tangents, *, padding_config):
    # linear jointly in (operand, padding_value); a zero padding-value tangent is a literal 0
    (x, pv), (tx, tpv) = primals, tangents
    out = pad_p.bind(x, pv, padding_config=padding_config)
    if type(tx) is R.Zero and type(tpv) is R.Zero:
        return out, R.zero_like(out)
    dt = core.aval_of(out).dtype
    tpv = np.zeros((), dt) if type(tpv) is R.Zero else tpv
    return out, pad_p.bind(R.instantiate(tx), tpv, padding_config=padding_config)


def _pad_transpose(ct, x, padding_value, *, padding_config):
    from xnp.lax.linalg import dot_general  # noqa: PLC0415  (linalg imports this module)

    shape = R.aval(x).shape
    ct_x = _unpad(ct, shape, padding_config) if R.is_undefined(x) else None
    ct_pv = None
    if R.is_undefined(padding_value):
        # the padding value's cotangent is the sum of ct over the padding positions: a full
        # contraction with the 0/1 padding mask (linear in ct, no subtraction needed)
        dt = core.aval_of(ct).dtype
        mask = pad(broadcast_in_dim(np.zeros((), dt), shape, ()), np.ones((), dt), padding_config)
        every = tuple(range(len(shape)))
        ct_pv = dot_general(ct, mask, ((every, every), ((), ())))
    return [ct_x, ct_pv]


def _pad_batch(vals, dims, *, padding_config):
    (x, pv), (dx, dpv) = vals, dims
    if dpv is None:  # one padding value: pad the batch axis by nothing, in place
        config = padding_config[:dx] + ((0, 0, 0),) + padding_config[dx:]
        return pad_p.bind(x, pv, padding_config=config), dx
    # a padding value per batch member: pad with zeros, then select it at the padding positions
    from xnp.lax.elementwise import select_n  # noqa: PLC0415

    size = R.batch_size(vals, dims)
    x = R.bdim_to_front(x, dx, size)
    a = core.aval_of(x)
    config = ((0, 0, 0),) + padding_config
    out = pad_p.bind(x, np.zeros((), a.dtype), padding_config=config)
    out_shape = core.aval_of(out).shape
    mask = pad(broadcast_in_dim(np.False_, a.shape[1:], ()), np.True_, padding_config)
    mask = broadcast_in_dim(mask, out_shape, tuple(range(1, len(out_shape))))
    pv = broadcast_in_dim(moveaxis(pv, dpv, 0), out_shape, (0,))
    return select_n(mask, out, pv), 0


pad_p = Primitive("pad", shape=_pad_shape, dtype=_pad_dtype, weak_type=_same_weak_as_operand,
                  jvp=_pad_jvp, transpose=R.zero_ct_passthrough(_pad_transpose),
                  batch=_pad_batch)


def pad(operand: Array, padding_value: Array, padding_config) -> Array:
    """Pad ``operand`` with the scalar ``padding_value`` (same dtype).

    ``padding_config`` has one ``(low, high, interior)`` triple per dimension:
    ``low``/``high`` elements before/after (negative values remove elements),
    ``interior`` elements between neighbours (>= 0). Result dim size:
    ``low + high + n + max(n - 1, 0) * interior``. Weak iff the operand is
    weak. Eagerly a new array.

    Raises
    ------
    TypeError
        Non-scalar or differently typed ``padding_value``.
    ValueError
        Wrong number of triples, negative interior padding, or a negative
        result size.
    """
    try:
        config = tuple((operator.index(lo), operator.index(hi), operator.index(it))
                       for lo, hi, it in padding_config)
    except (TypeError, ValueError):
        raise TypeError(
            "xnp.lax.pad: `padding_config` must be a sequence of (low, high, interior) int "
            f"triples, got {padding_config!r}") from None
    return _bind(pad_p, operand, padding_value, padding_config=config)


# --------------------------------------------------------------------------- copy

copy_p = Primitive("copy", shape=lambda x: x.shape, dtype=lambda x: x.dtype,
                   transpose=R.zero_ct_passthrough(lambda ct, x: [copy_p.bind(ct)]))
copy_p.jvp = R.linear_unary_jvp(copy_p)
copy_p.batch = R.unary_batch(copy_p)


def copy(operand: Array) -> Array:
    """A copy of ``operand``: eagerly a new writable array that shares no memory.

    Under ``jit`` it is a distinct value (writes to it never reach the
    operand); XLA lowers it to nothing. Dtype, shape and weak type: the operand's.
    """
    return copy_p.bind(operand)
