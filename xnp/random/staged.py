"""NumPy-style draws inside traced functions: a host callback that runs the caller's
generator each time the compiled program runs.

:func:`stage` is what :func:`xnp.random.bridge.forward` does for a call on a generator
made outside the traced function while a staging trace (``jit``, ``make_jaxpr``, a
``lax`` loop or branch body) is active, or for a call with a traced argument (also under
``grad``/``vmap`` alone). It binds one :func:`xnp.lax.io_callback` equation whose
callback calls the generator's NumPy method with the run-time values of the traced
arguments (the concrete ones are kept as given), so each run of the compiled program
draws NumPy's next numbers and advances the generator exactly as the eager program's
call would, in program order with the program's other draws.

* **Operands**: tracers and eager xnp arrays anywhere in the arguments (also inside
  lists, tuples and dicts) are the callback's operands (0-d ones reach NumPy as NumPy
  scalars, as a Python scalar argument of the jitted function does eagerly); everything
  else (Python and NumPy values, dtypes) is passed to NumPy as given, on every call.
* **Result shape and dtype**: found at trace time by running the same method on a
  copy of the generator (the generator itself does not move) with stand-in values of
  the traced arguments' shapes and dtypes. NumPy's parameter checks need valid
  stand-ins, so up to four sets are tried (0.5 / ``i + 1``; ``i + 1.5`` / ``i + 2``;
  ``1/size`` / 1 for floats / integers, ``i`` the operand's position; identity
  matrices for square trailing dimensions, 1 elsewhere); when two sets
  succeed with different result shapes, the shape depends on a traced value (``rand(n)``,
  ``permutation(n)``) and :class:`~xnp.random.bridge.StatefulRandomError` is raised, as
  it is for a traced ``size`` and when no set is accepted. A result that is no array
  (``get_state``'s tuple, ``bytes``, ``spawn``'s generators) cannot leave a compiled
  function and raises too. A Python ``float``/``int``/``complex`` result (``size=None``)
  is a weakly typed 0-d array, as the Python scalar is in eager arithmetic.
* **In place**: an ``out`` array or ``shuffle``'s ``x`` that is traced is rebound to
  the result (``x[...] = result``), as a write into a traced array is; a NumPy array
  there is written by NumPy on every call, as eagerly.
* **Errors** NumPy raises at run time (``scale < 0`` for a traced ``scale``) are raised
  by the call of the compiled function, with the eager message.
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np

from xnp.lax.callback import HostCallback, io_callback_p
from xnp.tracing import core
from xnp.tracing.avals import ShapedArray, canonical_dtype
from xnp.tracing.pytree import tree_flatten

__all__ = ["stage", "state_bytes"]

_NO_DERIVATIVE = (
    "NumPy's generators have no derivative in their parameters: apply "
    "xnp.lax.stop_gradient to the parameters, or draw with the key API, whose samples are "
    "differentiable functions of them (e.g. loc + scale * xnp.random.normal(key, shape))")
_PY_SCALARS = {float: np.dtype(np.float64), int: np.dtype(np.int64),
               complex: np.dtype(np.complex128)}


class _Slot:
    """Where operand ``k`` goes in the argument template."""

    __slots__ = ("k",)

    def __init__(self, k: int):
        self.k = k


def _template(x, operands: list):
    """``x`` with each tracer or eager xnp array replaced by a :class:`_Slot` (appended to
    ``operands``), looking into lists, tuples and dicts."""
    if isinstance(x, core.Tracer) or type(x) is core.Array:
        operands.append(x)
        return _Slot(len(operands) - 1)
    if type(x) in (list, tuple):
        return type(x)(_template(v, operands) for v in x)
    if type(x) is dict:
        return {k: _template(v, operands) for k, v in x.items()}
    return x


def _fill(x, values):
    if type(x) is _Slot:
        return values[x.k]
    if type(x) in (list, tuple):
        return type(x)(_fill(v, values) for v in x)
    if type(x) is dict:
        return {k: _fill(v, values) for k, v in x.items()}
    return x


_ATTEMPTS = 4


def _stand_in(aval: ShapedArray, i: int, attempt: int) -> np.ndarray:
    dt = aval.dtype
    shape = aval.shape
    if dt == np.bool_:
        return np.ones(shape, dt)
    if attempt == 3 and len(shape) >= 2 and shape[-1] == shape[-2]:
        # identity matrices (a covariance NumPy can factor)
        return np.broadcast_to(np.eye(shape[-1], dtype=dt), shape).copy()
    if dt.kind in "iu":
        value = (i + 1, i + 2, 1, 1)[attempt]
    else:
        value = (0.5, i + 1.5, 1.0 / max(1, int(np.prod(shape))), 1.0)[attempt]
    return np.full(shape, value, dt)


class _Call:
    """One draw: the method, the argument template and the write target."""

    __slots__ = ("owner", "spec", "args", "kwargs", "target", "target_aval", "reads_target",
                 "call")

    def __copy__(self):
        new = _Call()
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def run(self, np_generator, values):
        """Call the method on ``np_generator`` with ``values`` for the operands; returns
        what NumPy returns, or the written target array."""
        # 0-d operands as NumPy scalars, as a Python scalar argument reaches NumPy eagerly
        values = [v[()] if v.ndim == 0 else v for v in values]
        if self.target is not None:
            k = self.target.k
            if self.reads_target:  # shuffle: NumPy shuffles a writable copy of x
                values[k] = np.array(values[k], copy=True)
            else:  # out: NumPy overwrites it
                values[k] = np.empty(self.target_aval.shape, self.target_aval.dtype)
        args = _fill(self.args, values)
        kwargs = _fill(self.kwargs, values)
        res = self.call(np_generator, self.spec, args, kwargs)
        return values[self.target.k] if self.target is not None else res


class _Draw:
    """The host function of the callback: the draw on the caller's generator, now."""

    __slots__ = ("call",)

    def __init__(self, call: _Call):
        self.call = call

    def __call__(self, *values):
        res = self.call.run(self.call.owner._np, values)
        return () if res is None else (res,)


# room left in a state buffer for a state that pickles longer later (a bit generator's
# integers take as many bytes as their values need)
_STATE_SLACK = 256


def state_bytes(np_generator, capacity: int | None = None) -> np.ndarray:
    """``np_generator`` (a NumPy ``Generator`` or ``RandomState``, with any cached
    values) as a uint8 array: its length in 4 bytes, then its pickle; ``capacity`` bytes
    in all (default: the pickle's length plus :data:`_STATE_SLACK`)."""
    blob = pickle.dumps(np_generator)
    cap = len(blob) + 4 + _STATE_SLACK if capacity is None else capacity
    if len(blob) + 4 > cap:
        raise RuntimeError(f"xnp.random: a generator's state grew to {len(blob)} bytes, more "
                           f"than the {cap - 4} its compiled function keeps")
    out = np.zeros(cap, np.uint8)
    out[:4] = np.frombuffer(np.uint32(len(blob)).tobytes(), np.uint8)
    out[4:4 + len(blob)] = np.frombuffer(blob, np.uint8)
    return out


def _from_state_bytes(buf: np.ndarray):
    n = int(np.frombuffer(buf[:4].tobytes(), np.uint32)[0])
    return pickle.loads(buf[4:4 + n].tobytes())  # noqa: S301  (bytes state_bytes made)


class _DrawFromState:
    """The host function of a callback whose generator state is an operand: the draw on
    the generator that state holds; returns the result and the state after it."""

    __slots__ = ("call",)

    def __init__(self, call: _Call):
        self.call = call

    def __call__(self, *values):
        *values, state = values
        np_generator = _from_state_bytes(state)
        res = self.call.run(np_generator, values)
        after = state_bytes(np_generator, state.shape[0])
        return (after,) if res is None else (res, after)


def _result_aval(where: str, res, error):
    """The aval of a dry-run result, or raise ``error`` for a non-array one."""
    t = type(res)
    if t in _PY_SCALARS:
        return ShapedArray((), _PY_SCALARS[t], weak_type=True)
    if t is bool:
        return ShapedArray((), np.dtype(np.bool_))
    if isinstance(res, (np.ndarray, np.generic)):
        try:
            return ShapedArray(res.shape, canonical_dtype(res.dtype))
        except TypeError:
            pass
    raise error(f"{where} returns a {t.__name__} object, not an array: a compiled function "
                f"cannot return it. Call it outside the jitted function.")


def _dry_run(call: _Call, operand_avals, owner, error):
    """The result aval (None for no result), from up to ``_ATTEMPTS`` runs on copies of
    the generator with stand-in operand values (stopping after two that succeed)."""
    results, last = [], None
    for attempt in range(_ATTEMPTS):
        values = [_stand_in(a, i, attempt) for i, a in enumerate(operand_avals)]
        try:
            with warnings.catch_warnings():  # stand-in values may be ill-conditioned
                warnings.simplefilter("ignore")
                res = call.run(copy.deepcopy(owner._np), values)
        except (ValueError, TypeError, OverflowError, IndexError) as e:
            last = e
            continue
        results.append(None if res is None else _result_aval(call.spec.where, res, error))
        if not operand_avals or len(results) == 2:
            break
    if not results and not operand_avals:
        raise last  # concrete arguments NumPy refuses: its error, as eagerly
    if not results:
        raise error(
            f"{call.spec.where}: the shape and dtype of the draw for the traced arguments "
            f"could not be determined (NumPy refused every stand-in value: {last}). Pass "
            f"concrete arguments, or use the key API.")
    if any(r != results[0] for r in results[1:]):
        raise error(
            f"{call.spec.where}: the shape of the draw depends on the value of a traced "
            f"argument (a compiled function's shapes are fixed when it is traced). Pass that "
            f"argument as a concrete value (a static argument of jit).")
    return results[0]


def stage(owner, spec, args: tuple, kwargs: dict, *, call, error, state=None):
    """Stage ``owner``'s method ``spec.name`` as a host callback (module docstring).

    ``call(np_generator, spec, args, kwargs)`` runs the NumPy method with xnp's error
    messages (:mod:`xnp.random.bridge`); ``error`` is the class raised for what cannot be
    staged (``StatefulRandomError``). Returns what the eager call returns, traced.

    ``state``: the generator is not ``owner._np`` but the one this uint8 array holds
    (:func:`state_bytes`; concrete or traced), and the result is ``(what the eager call
    returns, the state after the draw)``: a generator made inside the traced function,
    whose state on each call is data of the compiled program.
    """
    try:
        bound = spec.sig.bind(*args, **kwargs).arguments
    except TypeError as e:
        raise TypeError(f"{spec.where}: {e}") from None
    if _holds(bound.get("size")):
        raise error(f"{spec.where}: `size` is a traced value; it decides the shape of the "
                    f"draw, which a compiled function fixes when it is traced. Pass a "
                    f"concrete size (a static argument of jit, or x.shape).")
    operands: list = []
    c = _Call()
    c.owner, c.spec, c.call = owner, spec, call
    c.args = _template(args, operands)
    c.kwargs = _template(kwargs, operands)
    target = None
    if spec.write in kwargs:
        target = c.kwargs[spec.write]
    elif spec.write_pos is not None and len(args) > spec.write_pos:
        target = c.args[spec.write_pos]
    c.target = target if type(target) is _Slot else None
    c.reads_target = spec.write == "x"
    avals = [core.aval_of(x) for x in operands]
    c.target_aval = None if c.target is None else avals[c.target.k]
    dry = c
    if type(target) is np.ndarray:  # NumPy writes into it on every call, not in the dry run
        dry = copy.copy(c)
        dry.args = tuple(target.copy() if a is target else a for a in c.args)
        dry.kwargs = {k: target.copy() if v is target else v for k, v in c.kwargs.items()}
    res_aval = _dry_run(dry, avals, owner, error)
    out_avals = [] if res_aval is None else [res_aval]
    host = _Draw(c)
    if state is not None:
        operands.append(state)
        out_avals.append(core.aval_of(state).update(weak_type=False))
        host = _DrawFromState(c)
    in_tree = tree_flatten((tuple(range(len(operands))), {}))[1]
    out_tree = tree_flatten(tuple(range(len(out_avals))))[1]
    cb = HostCallback(host, spec.where, in_tree, out_tree, out_avals, _NO_DERIVATIVE)
    outs = io_callback_p.bind(*operands, callback=cb)
    after = None
    if state is not None:
        *outs, after = outs
    if c.target is None:
        res = outs[0] if outs else None
    else:
        written = operands[c.target.k]
        written[...] = outs[0]
        res = None if c.reads_target else written
    return res if state is None else (res, after)


def _holds(x) -> bool:
    if isinstance(x, core.Tracer):
        return True
    if isinstance(x, (list, tuple)):
        return any(_holds(v) for v in x)
    return False
