"""Collectives over the named axes of a device mesh, for the body of ``xnp.shard_map``:
``psum``, ``pmean``, ``pmax``, ``pmin``, ``all_gather``, ``psum_scatter``, ``ppermute``
and ``axis_index`` (JAX's semantics).

Inside ``shard_map(f, mesh, ...)`` each device runs ``f`` on its own block; a collective
combines the blocks of the devices that differ only in the named mesh axes (one *group*
per combination of the other axes' coordinates). The axes a body may name are bound by
:func:`axis_env` while ``shard_map`` traces it; a collective elsewhere raises
``NameError`` naming the axis. Params carry the axes (a tuple of names, major first)
and, where shapes depend on it, ``axis_size`` (their product), so the rules hold when a
transformation re-binds the body outside the tracing of ``f``.

Transformation rules follow JAX's ``shard_map`` without replication checking
(``check_rep=False``): ``psum``'s transpose is ``psum`` of the cotangent, ``all_gather``
and ``psum_scatter`` transpose into each other, ``ppermute`` into the inverse permutation
(``shard_map``'s own transpose divides and sums cotangents of replicated values to match).
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.tracing import Array, ShapedArray, core
from xnp.tracing.errors import aval_str
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute",
           "axis_index", "axis_env", "axis_size", "psum_p", "pmax_p", "pmin_p",
           "all_gather_p", "psum_scatter_p", "ppermute_p", "axis_index_p"]


# --------------------------------------------------------------------------- the axis env

class _AxisEnv(threading.local):
    def __init__(self):
        self.frames: list[dict] = []


_ENV = _AxisEnv()


@contextlib.contextmanager
def axis_env(sizes: dict):
    """Bind mesh axis names to sizes (``{"x": 4}``) while the body runs (restored on exit)."""
    _ENV.frames.append(dict(sizes))
    try:
        yield
    finally:
        _ENV.frames.pop()


def _bound() -> dict:
    out: dict = {}
    for f in _ENV.frames:
        out.update(f)
    return out


def _axes(fun: str, axis_name) -> tuple[tuple[str, ...], int]:
    """``axis_name`` (a name or a tuple of names) as a tuple, and the product of sizes."""
    if isinstance(axis_name, str):
        names = (axis_name,)
    elif isinstance(axis_name, (tuple, list)):
        names = tuple(axis_name)
    else:
        names = (axis_name,)  # rejected below, with the function's name
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError(f"xnp.lax.{fun}: `axis_name` must be a mesh axis name or a tuple of "
                        f"names, got {axis_name!r}.")
    if len(set(names)) != len(names):
        raise ValueError(f"xnp.lax.{fun}: `axis_name` {axis_name!r} names an axis twice.")
    env = _bound()
    for n in names:
        if n not in env:
            where = (f"the axes bound here are {tuple(env)}" if env
                     else "no axis is bound here")
            raise NameError(f"xnp.lax.{fun}: axis name {n!r} is unbound ({where}). "
                            "Collectives run inside xnp.shard_map(f, mesh, ...), whose mesh "
                            "names the axes; call it from the function shard_map maps.")
    size = 1
    for n in names:
        size *= env[n]
    return names, size


def axis_size(axis_name) -> int:
    """The number of devices along the bound mesh axis (or axes) ``axis_name``."""
    return _axes("axis_size", axis_name)[1]


def _check_axes_param(name, axes):
    if not axes or not all(isinstance(a, str) for a in axes):
        raise TypeError(f"xnp.lax.{name}: `axes` must be a non-empty tuple of mesh axis "
                        f"names, got {axes!r}.")


# --------------------------------------------------------------------------- psum / pmax / pmin

def _reduce_shape(name):
    def shape(x: ShapedArray, *, axes):
        _check_axes_param(name, axes)
        return x.shape
    return shape


def _psum_transpose(ct, x, *, axes):
    return [psum_p.bind(ct, axes=axes)]


@R.for_primitive
def _same_dim_batch(prim):
    def batch(vals, dims, **params):
        return prim.bind(vals[0], **params), dims[0]
    return batch


def _dtype(name, accept):
    def rule(x, **params):
        kit.check_dtype(name, x, accept)
        return x.dtype
    return rule


psum_p = kit.primitive("psum", linear=True, shape=_reduce_shape("psum"),
                       dtype=_dtype("psum", kit.NUMERIC),
                       transpose=R.zero_ct_passthrough(_psum_transpose),
                       jvp=R.linear_unary_jvp, batch=_same_dim_batch)


@R.for_primitive
def _extremum_jvp(prim):
    # the tangent of the chosen element; ties share it equally (as reduce_max's jvp)
    def jvp(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        if type(t) is R.Zero:
            return out, R.Zero(R.aval(t))
        at = ew.convert_element_type(ew.eq(x, out), core.aval_of(t).dtype)
        num = psum_p.bind(ew.mul(t, at), axes=axes)
        return out, ew.div(num, psum_p.bind(at, axes=axes))
    return jvp


def _extremum(name):
    return kit.primitive(name, shape=_reduce_shape(name), dtype=_dtype(name, kit.REAL),
                         jvp=_extremum_jvp, batch=_same_dim_batch)


pmax_p = _extremum("pmax")
pmin_p = _extremum("pmin")


def _map_leaves(fun, x):
    leaves, tree = tree_flatten(x)
    return tree_unflatten(tree, [fun(leaf) for leaf in leaves])


def psum(x, axis_name):
    """Sum of ``x`` over the devices of each group along mesh axis (or axes) ``axis_name``;
    ``x`` may be a pytree. Every device of a group gets the sum. Dtype and shape: ``x``'s.
    A Python number ``c`` gives ``c`` times the group size (``psum(1, "x")`` is the axis's
    size). ``NameError`` outside a ``shard_map`` whose mesh has the axis."""
    axes, n = _axes("psum", axis_name)

    def one(leaf):
        if core.is_python_scalar(leaf):
            return leaf * n
        return psum_p.bind(leaf, axes=axes)
    return _map_leaves(one, x)


def pmean(x, axis_name):
    """``psum(x, axis_name)`` divided by the group size (inexact dtypes)."""
    axes, n = _axes("pmean", axis_name)

    def one(leaf):
        if core.is_python_scalar(leaf):
            return leaf
        a = core.aval_of(leaf)
        kit.check_dtype("pmean", a, kit.INEXACT)
        return ew.div(psum_p.bind(leaf, axes=axes), core.lift(np.asarray(n, a.dtype)))
    return _map_leaves(one, x)


def pmax(x, axis_name):
    """Elementwise maximum of ``x`` over each group along ``axis_name`` (NaN propagates,
    as ``numpy.maximum``); real dtypes. Differentiable (ties share the tangent)."""
    axes, _ = _axes("pmax", axis_name)
    return _map_leaves(lambda leaf: pmax_p.bind(leaf, axes=axes), x)


def pmin(x, axis_name):
    """Elementwise minimum of ``x`` over each group along ``axis_name``; see :func:`pmax`."""
    axes, _ = _axes("pmin", axis_name)
    return _map_leaves(lambda leaf: pmin_p.bind(leaf, axes=axes), x)


# --------------------------------------------------------------------------- all_gather / psum_scatter

def _all_gather_shape(x, *, axes, axis_size, axis, tiled):
    _check_axes_param("all_gather", axes)
    if tiled:
        if not 0 <= axis < x.ndim:
            raise ValueError(f"xnp.lax.all_gather: axis {axis} is out of range for a tiled "
                             f"gather of {aval_str(x)} (rank {x.ndim}).")
        return x.shape[:axis] + (x.shape[axis] * axis_size,) + x.shape[axis + 1:]
    if not 0 <= axis <= x.ndim:
        raise ValueError(f"xnp.lax.all_gather: axis {axis} is out of range for {aval_str(x)}"
                         f" (a new axis goes at 0..{x.ndim}).")
    return x.shape[:axis] + (axis_size,) + x.shape[axis:]


def _psum_scatter_shape(x, *, axes, axis_size, scatter_dimension, tiled):
    _check_axes_param("psum_scatter", axes)
    d = scatter_dimension
    if not 0 <= d < x.ndim:
        raise ValueError(f"xnp.lax.psum_scatter: scatter_dimension {d} is out of range for "
                         f"{aval_str(x)} (rank {x.ndim}).")
    if tiled:
        if x.shape[d] % axis_size:
            raise ValueError(f"xnp.lax.psum_scatter: dimension {d} of {aval_str(x)} (size "
                             f"{x.shape[d]}) is not divisible by the {axis_size} devices of "
                             f"axes {axes}.")
        return x.shape[:d] + (x.shape[d] // axis_size,) + x.shape[d + 1:]
    if x.shape[d] != axis_size:
        raise ValueError(f"xnp.lax.psum_scatter: dimension {d} of {aval_str(x)} has size "
                         f"{x.shape[d]}, but an untiled scatter over axes {axes} needs "
                         f"{axis_size} (one slice per device); pass tiled=True to split it.")
    return x.shape[:d] + x.shape[d + 1:]


def _all_gather_transpose(ct, x, *, axes, axis_size, axis, tiled):
    return [psum_scatter_p.bind(ct, axes=axes, axis_size=axis_size, scatter_dimension=axis,
                                tiled=tiled)]


def _psum_scatter_transpose(ct, x, *, axes, axis_size, scatter_dimension, tiled):
    return [all_gather_p.bind(ct, axes=axes, axis_size=axis_size, axis=scatter_dimension,
                              tiled=tiled)]


def _all_gather_batch(vals, dims, *, axis, **params):
    x = shape_ops.bdim_to_front(vals[0], dims[0], None)
    return all_gather_p.bind(x, axis=axis + 1, **params), 0


def _psum_scatter_batch(vals, dims, *, scatter_dimension, **params):
    x = shape_ops.bdim_to_front(vals[0], dims[0], None)
    return psum_scatter_p.bind(x, scatter_dimension=scatter_dimension + 1, **params), 0


all_gather_p = kit.primitive("all_gather", linear=True, shape=_all_gather_shape,
                             dtype=lambda x, **p: x.dtype,
                             transpose=R.zero_ct_passthrough(_all_gather_transpose),
                             batch=_all_gather_batch, jvp=R.linear_unary_jvp)

psum_scatter_p = kit.primitive("psum_scatter", linear=True, shape=_psum_scatter_shape,
                           dtype=_dtype("psum_scatter", kit.NUMERIC),
                           transpose=R.zero_ct_passthrough(_psum_scatter_transpose),
                           batch=_psum_scatter_batch, jvp=R.linear_unary_jvp)


def _axis_arg(fun, value, what) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"xnp.lax.{fun}: `{what}` must be an int, got {value!r}.")
    return int(value)


def all_gather(x, axis_name, *, axis: int = 0, tiled: bool = False):
    """Every device's block of ``x`` along ``axis_name``, on every device of the group:
    stacked along a new axis ``axis`` (size: the group size) or, with ``tiled=True``,
    concatenated along the existing ``axis``. Devices are ordered by their index along
    the axes (the first name major). ``x`` may be a pytree; any dtype."""
    axes, n = _axes("all_gather", axis_name)
    axis = _axis_arg("all_gather", axis, "axis")

    def one(leaf):
        nd = core.aval_of(leaf).ndim
        a = axis + (nd + (0 if tiled else 1)) if axis < 0 else axis
        return all_gather_p.bind(leaf, axes=axes, axis_size=n, axis=a, tiled=bool(tiled))
    return _map_leaves(one, x)


def psum_scatter(x, axis_name, *, scatter_dimension: int = 0, tiled: bool = False):
    """``psum(x, axis_name)`` split along ``scatter_dimension``: device ``i`` of the group
    gets slice ``i`` of the sum. Untiled, that dimension must have the group's size and is
    removed; with ``tiled=True`` it must be divisible by it and shrinks by that factor."""
    axes, n = _axes("psum_scatter", axis_name)
    d = _axis_arg("psum_scatter", scatter_dimension, "scatter_dimension")

    def one(leaf):
        nd = core.aval_of(leaf).ndim
        return psum_scatter_p.bind(leaf, axes=axes, axis_size=n,
                                   scatter_dimension=d + nd if d < 0 else d, tiled=bool(tiled))
    return _map_leaves(one, x)


# --------------------------------------------------------------------------- ppermute / axis_index

def _ppermute_shape(x, *, axes, axis_size, perm):
    _check_axes_param("ppermute", axes)
    srcs = [s for s, _ in perm]
    dsts = [d for _, d in perm]
    for i in srcs + dsts:
        if not 0 <= i < axis_size:
            raise ValueError(f"xnp.lax.ppermute: perm {list(perm)} has index {i}, outside the "
                             f"{axis_size} devices of axes {axes}.")
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"xnp.lax.ppermute: perm {list(perm)} repeats a source or a "
                         "destination (each device sends and receives at most once).")
    return x.shape


def _ppermute_transpose(ct, x, *, axes, axis_size, perm):
    inverse = tuple((d, s) for s, d in perm)
    return [ppermute_p.bind(ct, axes=axes, axis_size=axis_size, perm=inverse)]


ppermute_p = kit.primitive("ppermute", linear=True, shape=_ppermute_shape,
                           dtype=lambda x, **p: x.dtype,
                           transpose=R.zero_ct_passthrough(_ppermute_transpose),
                           jvp=R.linear_unary_jvp, batch=_same_dim_batch)


def ppermute(x, axis_name, perm):
    """Send each device's ``x`` along ``axis_name``: ``perm`` is a sequence of
    ``(source, destination)`` indices along the axis; a device that no pair sends to gets
    zeros. ``x`` may be a pytree; shape and dtype unchanged."""
    axes, n = _axes("ppermute", axis_name)
    try:
        pairs = tuple((int(s), int(d)) for s, d in perm)
    except (TypeError, ValueError):
        raise TypeError(f"xnp.lax.ppermute: `perm` must be (source, destination) pairs of "
                        f"ints, got {perm!r}.") from None
    return _map_leaves(lambda leaf: ppermute_p.bind(leaf, axes=axes, axis_size=n, perm=pairs), x)


axis_index_p = kit.primitive(
    "axis_index", shape=lambda *, axes: (_check_axes_param("axis_index", axes), ())[1],
    dtype=lambda *, axes: np.dtype(np.int32), differentiable="an integer index",
    no_batch="no operands: a batch axis never reaches it")


def axis_index(axis_name) -> Array:
    """This device's index along mesh axis ``axis_name`` (a tuple of names: the index in
    their row-major product, the first name major); an int32 scalar."""
    axes, _ = _axes("axis_index", axis_name)
    return axis_index_p.bind(axes=axes)
