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
"""

from __future__ import annotations

import operator

import numpy as np

from xnp.lax import _kit as kit
from xnp.tracing import Array, Primitive, ShapedArray, core, errors

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


def _int_tuple(name: str, what: str, values) -> tuple[int, ...]:
    """Canonical int tuple param; TypeError naming ``xnp.lax.<name>`` otherwise."""
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(
            f"xnp.lax.{name}: `{what}` must be a sequence of ints, got {values!r}") from None


def _avals_str(*avals: ShapedArray) -> str:
    return ", ".join(a.str_short() for a in avals)


def _check_permutation(name: str, what: str, perm, ndim: int, aval: ShapedArray) -> None:
    if sorted(perm) != list(range(ndim)):
        raise ValueError(
            f"xnp.lax.{name}: `{what}`={perm} must be a permutation of {tuple(range(ndim))} "
            f"for operand {aval.str_short()}.")


def _sorted_dims(name: str, dims, aval: ShapedArray) -> tuple[int, ...]:
    """``dims`` with negative values counted from the end, sorted; repeats raise ValueError
    (range is checked by the shape rule)."""
    norm = [d + aval.ndim if -aval.ndim <= d < 0 else d for d in dims]
    if len(set(norm)) != len(norm):
        raise ValueError(f"xnp.lax.{name}: repeated dimension in {dims} for {aval.str_short()}.")
    return tuple(sorted(norm))


def _bind(prim: Primitive, *args, **params):
    """``prim.bind``, running the shape/dtype rules first when evaluating eagerly (staging
    traces run them anyway), so direct lax callers get xnp's errors, not the library's."""
    if type(core.current_trace()) is core.EvalTrace:
        prim.abstract_eval(*[core.aval_of(a) for a in args], **params)
    return prim.bind(*args, **params)


def _same_weak_as_operand(*weak_types, **params) -> bool:
    return bool(weak_types[0])


# --------------------------------------------------------------------------- broadcast_in_dim


def _broadcast_in_dim_shape(x: ShapedArray, *, shape, broadcast_dimensions):
    name = "broadcast_in_dim"
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(
            f"xnp.lax.{name}: `broadcast_dimensions`={broadcast_dimensions} must have one entry "
            f"per operand dimension; operand {x.str_short()}, shape={shape}.")
    if any(d < 0 for d in shape):
        raise ValueError(f"xnp.lax.{name}: negative dimension in shape={shape}.")
    if any(d < 0 or d >= len(shape) for d in broadcast_dimensions) or any(
            a >= b for a, b in zip(broadcast_dimensions, broadcast_dimensions[1:])):
        raise ValueError(
            f"xnp.lax.{name}: `broadcast_dimensions`={broadcast_dimensions} must be strictly "
            f"increasing and in [0, {len(shape)}); operand {x.str_short()}, shape={shape}.")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] != 1 and x.shape[i] != shape[d]:
            raise TypeError(
                f"xnp.lax.{name}: operand dimension {i} has size {x.shape[i]}, which is neither 1 "
                f"nor shape[{d}]={shape[d]}; operand {x.str_short()}, shape={shape}, "
                f"broadcast_dimensions={broadcast_dimensions}.")
    return shape


broadcast_in_dim_p = Primitive(
    "broadcast_in_dim",
    shape=_broadcast_in_dim_shape,
    dtype=lambda x, **params: x.dtype,
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
                f"{ndim_out} (operand {aval.str_short()}).")
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
            f"xnp.lax.{name}: cannot reshape {x.str_short()} into shape {new_sizes}: "
            f"{x.size} elements vs {size}.")
    return new_sizes


reshape_p = Primitive("reshape", shape=_reshape_shape, dtype=lambda x, **params: x.dtype)


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
                f"(only size-1 dimensions can be removed); operand {x.str_short()}.")
    return tuple(n for i, n in enumerate(x.shape) if i not in dimensions)


squeeze_p = Primitive("squeeze", shape=_squeeze_shape, dtype=lambda x, **params: x.dtype)


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


transpose_p = Primitive("transpose", shape=_transpose_shape, dtype=lambda x, **params: x.dtype)


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


concatenate_p = Primitive("concatenate", shape=_concatenate_shape, dtype=_concatenate_dtype)


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


iota_p = Primitive("iota", shape=_iota_shape, dtype=_iota_dtype, weak_type=kit.never_weak,
                   differentiable="iota has no operands")


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


rev_p = Primitive("rev", shape=_rev_shape, dtype=lambda x, **params: x.dtype)


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
            f"xnp.lax.{name}: padding_value must be a scalar, got {pv.str_short()} "
            f"(operand {x.str_short()}).")
    if len(padding_config) != x.ndim:
        raise ValueError(
            f"xnp.lax.{name}: padding_config has {len(padding_config)} entries, operand "
            f"{x.str_short()} has rank {x.ndim}.")
    out = []
    for i, ((lo, hi, interior), n) in enumerate(zip(padding_config, x.shape)):
        if interior < 0:
            raise ValueError(
                f"xnp.lax.{name}: interior padding must be >= 0, got {interior} for dimension "
                f"{i} (padding_config={padding_config}, operand {x.str_short()}).")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(
                f"xnp.lax.{name}: dimension {i} would have negative size {size} "
                f"(padding_config={padding_config}, operand {x.str_short()}).")
        out.append(size)
    return tuple(out)


def _pad_dtype(x: ShapedArray, pv: ShapedArray, *, padding_config):
    return kit.same_dtype("pad", x, pv)


pad_p = Primitive("pad", shape=_pad_shape, dtype=_pad_dtype, weak_type=_same_weak_as_operand)


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

copy_p = Primitive("copy", shape=lambda x: x.shape, dtype=lambda x: x.dtype)


def copy(operand: Array) -> Array:
    """A copy of ``operand``: eagerly a new writable array that shares no memory.

    Under ``jit`` it is a distinct value (writes to it never reach the
    operand); XLA lowers it to nothing. Dtype, shape and weak type: the operand's.
    """
    return copy_p.bind(operand)
