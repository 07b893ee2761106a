"""Host callbacks: Python run from a compiled program, in program order (``io_callback``).

``io_callback(f, result_shape_dtypes, *args, **kwargs)`` calls ``f`` on the host with
the values of ``args``/``kwargs`` as NumPy arrays and returns its results as arrays of
the declared shapes and dtypes. Eagerly it calls ``f`` at once; under ``jit`` the call
is staged as one ``io_callback`` equation, and every run of the compiled program calls
``f`` once for that equation, with the run-time values.

The equation has an ordered side effect (``io_callback_p.effectful``): it is never
removed because its results are unused, never merged with an equal one, never
repeated, and the callbacks of one program run in program order, also across
``fori_loop``/``scan``/``while_loop`` iterations and ``cond`` branches (the XLA
backend threads a token through them, ``backends/xla/lowering/callback.py``).

Params of ``io_callback_p``: ``callback``, a :class:`HostCallback` (the function, its
argument and result structure and the declared result avals; hashed and compared by
identity). Its operands are the flat array arguments.

Transformations:

* **jvp / grad**: a callback has no derivative. Differentiating with respect to a value
  that flows into one raises ``TypeError`` naming the callback (``stop_gradient`` its
  arguments, or give the function a ``custom_jvp``/``custom_vjp``). Arguments that do
  not depend on the differentiated input are fine: the callback runs once, as the
  primal computation does.
* **vmap**: sequential. A callback with batched arguments is called once per batch
  element, in order of the batch index, each call seeing its element of the batched
  arguments (and the whole of the unbatched ones); the results are stacked along a new
  leading axis. A callback without batched arguments is called once for the batch.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.tracing import core
from xnp.tracing.ad import Zero
from xnp.tracing.avals import ShapedArray, canonical_dtype
from xnp.tracing.batching import moveaxis
from xnp.tracing.errors import aval_str
from xnp.tracing.pytree import tree_flatten, tree_unflatten

__all__ = ["io_callback", "io_callback_p", "HostCallback"]


class HostCallback:
    """One staged host callback: ``fun`` called with NumPy arrays rebuilt into the
    argument structure ``in_tree`` (``(args, kwargs)``), returning a pytree of structure
    ``out_tree`` whose leaves have exactly ``result_avals``' shapes and dtypes.

    Calling it (``cb(*flat_arrays)``) runs ``fun`` and returns the tuple of flat results
    as NumPy arrays. ``name`` names it in jaxprs and messages; ``no_derivative`` is the
    fix an error under ``grad`` suggests. Compared and hashed by identity.

    Raises (when called)
    ------
    TypeError
        ``fun`` returned another structure, a leaf that is not array-like, or a dtype
        other than the declared one (no conversion is made).
    ValueError
        A result's shape is not the declared one.
    """

    __slots__ = ("fun", "name", "in_tree", "out_tree", "result_avals", "no_derivative",
                 "__weakref__")

    def __init__(self, fun, name: str, in_tree, out_tree, result_avals, no_derivative=None):
        self.fun = fun
        self.name = name
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.result_avals = tuple(result_avals)
        self.no_derivative = no_derivative

    def __repr__(self):
        return self.name

    def __call__(self, *flat):
        args, kwargs = tree_unflatten(self.in_tree, [np.asarray(x) for x in flat])
        out = self.fun(*args, **kwargs)
        return check_results(self.name, out, self.out_tree, self.result_avals)


def _host_leaf(x):
    if type(x) is core.Array:
        return np.asarray(x._value)
    if isinstance(x, core.Tracer):
        raise TypeError("a traced value (a host callback computes on concrete values)")
    if isinstance(x, (np.ndarray, np.generic, bool, int, float, complex)):
        return np.asarray(x)
    raise TypeError(f"a {type(x).__name__}, not an array")


def check_results(name: str, out, out_tree, result_avals) -> tuple:
    """``out`` (what callback ``name`` returned) as a tuple of NumPy arrays, checked
    against the declared structure ``out_tree`` and ``result_avals`` (see
    :class:`HostCallback` for the errors)."""
    leaves, tree = tree_flatten(out)
    if tree != out_tree:
        raise TypeError(f"xnp.lax.io_callback: callback `{name}` returned {tree}, but its "
                        f"result_shape_dtypes declare {out_tree}.")
    res = []
    for i, (x, aval) in enumerate(zip(leaves, result_avals)):
        try:
            a = _host_leaf(x)
        except TypeError as e:
            raise TypeError(f"xnp.lax.io_callback: callback `{name}` returned {e} for result "
                            f"{i} (declared {aval_str(aval)}).") from None
        if a.dtype != aval.dtype:
            raise TypeError(
                f"xnp.lax.io_callback: callback `{name}` returned {a.dtype.name}"
                f"{list(a.shape)} for result {i}, declared {aval_str(aval)}: the dtype differs "
                f"(no conversion is made; return .astype(numpy.{aval.dtype.name}) or declare "
                f"{a.dtype.name}).")
        if a.shape != aval.shape:
            raise ValueError(
                f"xnp.lax.io_callback: callback `{name}` returned {a.dtype.name}"
                f"{list(a.shape)} for result {i}, declared {aval_str(aval)}: the shape differs.")
        res.append(a)
    return tuple(res)


def _abstract_eval(*avals, callback):
    return list(callback.result_avals)


def _jvp(primals, tangents, *, callback):
    live = [i for i, t in enumerate(tangents) if type(t) is not Zero]
    if not live:  # pragma: no cover  (the JVP trace binds the primal alone then)
        outs = io_callback_p.bind(*primals, callback=callback)
        return outs, [Zero(a.strip_weak_type()) for a in callback.result_avals]
    fix = callback.no_derivative or (
        "apply xnp.lax.stop_gradient to its arguments, or give the function that calls it "
        "a custom_jvp/custom_vjp rule")
    raise TypeError(
        f"xnp: cannot differentiate through host callback `{callback.name}` (its flat "
        f"argument {live[0]} depends on the value being differentiated): the callback runs "
        f"Python on the host and has no derivative. Fix: {fix}.")


class _Sequential:
    """The function of the batched callback: ``inner`` once per batch element."""

    __slots__ = ("inner", "dims", "size")

    def __init__(self, inner: HostCallback, dims, size: int):
        self.inner = inner
        self.dims = tuple(dims)
        self.size = size

    def __call__(self, *flat):
        per = []
        for i in range(self.size):
            one = [x if d is None else np.take(x, i, axis=d) for x, d in zip(flat, self.dims)]
            per.append(self.inner(*one))
        n = len(self.inner.result_avals)
        outs = []
        for k in range(n):
            aval = self.inner.result_avals[k]
            if per:
                outs.append(np.stack([p[k] for p in per]))
            else:
                outs.append(np.zeros((0,) + aval.shape, aval.dtype))
        return tuple(outs)


def _batch(vals, dims, *, callback):
    size = next(core.aval_of(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    flat_tree = tree_flatten((tuple(range(len(vals))), {}))[1]
    avals = [ShapedArray((size,) + a.shape, a.dtype, a.weak_type)
             for a in callback.result_avals]
    out_tree = tree_flatten(tuple(range(len(avals))))[1]
    batched = HostCallback(_Sequential(callback, dims, size), callback.name, flat_tree,
                           out_tree, avals, callback.no_derivative)
    outs = io_callback_p.bind(*vals, callback=batched)
    return outs, [0] * len(outs)



def _host(x):
    if type(x) is core.Array:
        return x._value
    return np.asarray(x)


def _io_callback_impl(*args, callback):
    """Eagerly: call the host function now, on the operands' host values (whatever the
    eager backend); each result, checked against the declared avals by the
    :class:`HostCallback`, comes back as a new eager array (a copy, so it never shares
    memory with an array the callback keeps or was given)."""
    outs = callback(*[_host(a) for a in args])
    return [core.Array(np.array(o, copy=True), a.weak_type)
            for o, a in zip(outs, callback.result_avals)]


io_callback_p = kit.primitive("io_callback", abstract_eval=_abstract_eval,
                              multiple_results=True, jvp=_jvp, batch=_batch,
                              allocates=False, impl=_io_callback_impl)
# an ordered side effect: see the module docstring (tracing.jaxpr.has_effects)
io_callback_p.effectful = True


def _result_avals(name, result_shape_dtypes):
    leaves, tree = tree_flatten(result_shape_dtypes)
    avals = []
    for i, s in enumerate(leaves):
        shape, dtype = getattr(s, "shape", None), getattr(s, "dtype", None)
        if shape is None or dtype is None:
            raise TypeError(f"xnp.lax.io_callback: `result_shape_dtypes` leaf {i} of callback "
                            f"`{name}` is a {type(s).__name__}; give objects with .shape and "
                            ".dtype (xnp.ShapeDtypeStruct, arrays).")
        dt = canonical_dtype(dtype, name="result_shape_dtypes")
        avals.append(ShapedArray(tuple(int(d) for d in shape), dt))
    return avals, tree


def io_callback(callback, result_shape_dtypes, *args, sharding=None, ordered=True, **kwargs):
    """Call the Python function ``callback`` on the host, also from compiled code.

    ``callback(*args, **kwargs)`` receives every array leaf of ``args``/``kwargs`` as a
    read-only NumPy array (Python scalars as 0-d arrays) and must return a pytree with
    the structure of ``result_shape_dtypes`` whose leaves are arrays of exactly the
    declared shapes and dtypes (xnp or NumPy arrays, NumPy scalars). Follows JAX's
    ``jax.experimental.io_callback`` with ``ordered=True``: eagerly ``callback`` runs
    at once; under ``jit`` once per run of the compiled program, in program order with
    the program's other callbacks (also once per iteration inside ``fori_loop``, ``scan``
    and ``while_loop``, and only in the branch ``cond`` takes). See the module
    docstring for ``grad`` (an error) and ``vmap`` (one call per batch element).

    Parameters
    ----------
    callback : callable
        The host function. Its name (``__name__``) names the equation.
    result_shape_dtypes : pytree of objects with ``.shape`` and ``.dtype``, or None
        The results' structure, shapes and dtypes (``xnp.ShapeDtypeStruct``, arrays);
        None when ``callback`` returns None.
    *args, **kwargs : pytrees of arrays and scalars
        Passed to ``callback`` (traced values become the run-time values).
    sharding : None
        JAX's parameter; only None (the callback runs on the host of the one device).
    ordered : bool
        JAX's parameter, accepted for portability: xnp's callbacks are always ordered
        (``ordered=False`` promises less, so the same program order is a valid answer).

    Returns
    -------
    A pytree like ``result_shape_dtypes`` of arrays (tracers under a transformation).

    Raises
    ------
    TypeError
        ``result_shape_dtypes`` has a leaf without shape/dtype, or a dtype xnp has no
        arrays for; an argument leaf is not array-like; differentiating through it;
        ``callback`` returned another structure or a wrong dtype.
    ValueError
        ``callback`` returned a result of another shape.
    Exception
        Whatever ``callback`` raises, eagerly and when a compiled program calls it.
    NotImplementedError
        Under ``jit`` of a program partitioned over several devices, or inside
        ``shard_map``.
    """
    if not callable(callback):
        raise TypeError(f"xnp.lax.io_callback: `callback` must be callable, got "
                        f"{type(callback).__name__}.")
    name = getattr(callback, "__name__", None) or type(callback).__name__
    if sharding is not None:
        raise NotImplementedError(f"xnp.lax.io_callback: `sharding` must be None (callback "
                                  f"`{name}`); callbacks run on the host of one device.")
    if type(ordered) is not bool:
        raise TypeError(f"xnp.lax.io_callback: `ordered` must be a bool, got {ordered!r}.")
    avals, out_tree = _result_avals(name, result_shape_dtypes)
    leaves, in_tree = tree_flatten((args, kwargs))
    for i, x in enumerate(leaves):
        try:
            core.aval_of(x)
        except TypeError:
            raise TypeError(f"xnp.lax.io_callback: argument leaf {i} of callback `{name}` is "
                            f"a {type(x).__name__}, not an array or scalar.") from None
    cb = HostCallback(callback, name, in_tree, out_tree, avals)
    outs = io_callback_p.bind(*leaves, callback=cb)
    return tree_unflatten(out_tree, outs)
