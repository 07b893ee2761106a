"""Lowering as an interpreter over a jaxpr that writes StableHLO text.

A lowering rule takes a :class:`LoweringRuleContext` and the operand
:class:`Value`s and returns the list of result ``Value``s:

    @lowering(lax.add_p)
    def _lower_add(ctx, x, y):
        x, y = ctx.broadcast_operands(x, y)
        return [ctx.op("stablehlo.add", [x, y])]

Ops are written in MLIR's generic form (robust across StableHLO versions);
``Lowered.as_text()`` prints the parsed module in canonical syntax.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xnp.tracing import core
from xnp.tracing.avals import ShapedArray
from xnp.backends.xla.lowering._write_hazards import write_hazards
from xnp.tracing.jaxpr import Jaxpr, Literal

__all__ = ["Value", "Token", "TOKEN", "lowering", "LOWERINGS", "UNSUPPORTED",
           "LoweringRuleContext", "FunctionBuilder", "tensor_type", "element_type",
           "dense_attr", "lower_jaxpr_body", "comparison_type", "i64_array", "FLOAT8",
           "float8_via_float32"]

LOWERINGS: dict = {}
# primitive -> reason, for primitives the XLA backend cannot lower
UNSUPPORTED: dict = {}

_ELEMENT_TYPES = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "complex<f32>",
    np.dtype(np.complex128): "complex<f64>",
    np.dtype(ml_dtypes.float8_e4m3fn): "f8E4M3FN",
    np.dtype(ml_dtypes.float8_e5m2): "f8E5M2",
}


def lowering(prim):
    """Decorator registering a lowering rule for ``prim``."""

    def register(fn):
        LOWERINGS[prim] = fn
        return fn

    return register


FLOAT8 = frozenset(np.dtype(t) for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))
_F32 = np.dtype(np.float32)


def float8_via_float32(rule):
    """Wrap a lowering rule so that float8 operands are converted to float32, the rule
    lowers the float32 computation, and float8 results are rounded back (one rounding,
    as NumPy's ml_dtypes loops do). For ops XLA cannot expand for float8 types (CHLO's
    ``erfc``, ``bessel_i1e``: "failed to legalize"). Other dtypes pass through unchanged."""

    def widen(aval):
        return aval.update(dtype=_F32) if aval.dtype in FLOAT8 else aval

    def wrapped(ctx, *xs, **params):
        if not any(a.dtype in FLOAT8 for a in (*ctx.avals_in, *ctx.avals_out)):
            return rule(ctx, *xs, **params)
        sub = LoweringRuleContext(ctx.b, [widen(a) for a in ctx.avals_in],
                                  [widen(a) for a in ctx.avals_out])
        outs = rule(sub, *[ctx.convert(x, _F32) if x.aval.dtype in FLOAT8 else x for x in xs],
                    **params)
        return [ctx.convert(o, a.dtype) for o, a in zip(outs, ctx.avals_out)]

    return wrapped


def element_type(dtype) -> str:
    return _ELEMENT_TYPES[np.dtype(dtype)]


_TENSOR_TYPES: dict = {}  # (shape, dtype) -> type text: a module names few types, often


def tensor_type(aval: ShapedArray) -> str:
    key = (aval.shape, aval.dtype)
    text = _TENSOR_TYPES.get(key)
    if text is None:
        dims = "".join(f"{d}x" for d in aval.shape)
        text = f"tensor<{dims}{element_type(aval.dtype)}>"
        if len(_TENSOR_TYPES) < 4096:
            _TENSOR_TYPES[key] = text
    return text


def i64_array(values) -> str:
    """``array<i64: 0, 1>`` (dense i64 array attribute)."""
    vals = ", ".join(str(int(v)) for v in values)
    return f"array<i64: {vals}>" if vals else "array<i64>"


def comparison_type(dtype) -> str:
    dt = np.dtype(dtype)
    if dt == np.bool_ or dt.kind == "u":
        return "UNSIGNED"
    if dt.kind == "i":
        return "SIGNED"
    return "FLOAT"


def _scalar_text(v, dtype: np.dtype) -> str:
    if dtype == np.bool_:
        return "true" if bool(v) else "false"
    if dtype.kind in "iu":
        return str(int(v))
    # floats: exact bit pattern in hex
    bits = np.asarray(v, dtype).view(f"u{dtype.itemsize}")
    return "0x" + format(int(bits), f"0{dtype.itemsize * 2}X")


def _nested_bool(a: np.ndarray) -> str:
    if a.ndim == 0:
        return "true" if bool(a) else "false"
    return "[" + ", ".join(_nested_bool(x) for x in a) + "]"


def dense_attr(value: np.ndarray) -> str:
    """``dense<...>`` for a host array: splat, bool list, or little-endian hex bytes."""
    a = np.asarray(value)
    dt = a.dtype
    flat = a.reshape(-1)
    if dt.kind != "c" and flat.size > 0 and (flat.size == 1 or _is_splat(flat)):
        return f"dense<{_scalar_text(flat[0], dt)}>"
    if flat.size == 0:  # (any empty shape; a nested list of a bool (0, 4) would be "[]")
        return "dense<>"
    if dt == np.bool_:
        return f"dense<{_nested_bool(a)}>"
    data = np.ascontiguousarray(a).astype(dt.newbyteorder("<"), copy=False).tobytes()
    return f'dense<"0x{data.hex().upper()}">'


def _is_splat(flat: np.ndarray) -> bool:
    if flat.dtype.kind not in "biu":
        # floats by bit pattern (+-0, NaN payloads); ml_dtypes' floats have kind "V" or "f"
        bits = flat.view(f"u{flat.dtype.itemsize}")
        return bool((bits == bits[0]).all())
    return bool((flat == flat[0]).all())


class Value:
    """An SSA value in the function being written: its name and aval; ``const`` marks a
    ``stablehlo.constant`` or a value computed from constants only (XLA folds it into a
    constant, which its simplifier can see)."""

    __slots__ = ("name", "aval", "const")

    def __init__(self, name: str, aval: ShapedArray, const: bool = False):
        self.name = name
        self.aval = aval
        self.const = const

    @property
    def type(self) -> str:
        return tensor_type(self.aval)

    def __repr__(self):
        return f"{self.name}:{self.type}"


class _TokenAval:
    """The aval of a ``!stablehlo.token`` value (``TOKEN``): ordering, no data."""

    shape = ()
    dtype = None
    weak_type = False
    ndim = 0

    def __repr__(self):
        return "token"


TOKEN = _TokenAval()


class Token(Value):
    """A ``!stablehlo.token`` SSA value: threaded through the effectful ops (host
    callbacks) so XLA runs them in program order."""

    __slots__ = ()

    def __init__(self, name: str):
        super().__init__(name, TOKEN)

    @property
    def type(self) -> str:
        return "!stablehlo.token"


def _new_value(name: str, aval, const: bool = False) -> Value:
    return Token(name) if aval is TOKEN else Value(name, aval, const)


class FunctionBuilder:
    """Accumulates the body lines of one function; names are unique per module.

    ``token`` is the current ``!stablehlo.token`` of a function or region that runs
    effectful ops (None otherwise): each host callback takes it and replaces it with
    the token it returns, and regions of loops and branches receive and return it."""

    def __init__(self, module):
        self.module = module
        self.lines: list[str] = []
        self.indent = 4
        self.token = None
        # values this block already computes, reused by later ops of the block (SSA values
        # never change): 0-d constants by (dtype, bytes, weak type), broadcasts by
        # (operand, shape, dimensions)
        self.scalar_constants: dict = {}
        self.broadcasts: dict = {}

    def fresh(self) -> str:
        return self.module.fresh()

    def emit(self, line: str) -> None:
        self.lines.append(" " * self.indent + line)

    def op(self, name: str, operands, result_avals, attrs: str = "", regions=None) -> list[Value]:
        """Emit ``"name"(operands) ({regions}) {attrs} : (types) -> types``; returns results."""
        # a result computed from constants only is one XLA folds into a constant
        const = bool(operands) and all(v.const for v in operands)
        results = [_new_value("", a, const) for a in result_avals]
        lhs = ""
        if len(results) == 1:
            results[0].name = self.fresh()
            lhs = f"{results[0].name} = "
        elif results:
            base = self.fresh()
            for i, r in enumerate(results):
                r.name = f"{base}#{i}"
            lhs = f"{base}:{len(results)} = "
        ops = ", ".join(v.name for v in operands)
        in_t = ", ".join(v.type for v in operands)
        out_t = ", ".join(r.type for r in results)
        out_t = f"({out_t})" if len(results) != 1 else out_t
        attr = f" {{{attrs}}}" if attrs else ""
        if regions:
            self.emit(f'{lhs}"{name}"({ops}) ({{')
            for k, region in enumerate(regions):
                if k:
                    self.emit("}, {")
                for line in region:
                    self.emit("  " + line)
            self.emit(f"}}){attr} : ({in_t}) -> {out_t}")
        else:
            self.emit(f'{lhs}"{name}"({ops}){attr} : ({in_t}) -> {out_t}')
        return results

    def constant(self, value: np.ndarray, weak_type: bool = False) -> Value:
        value = np.asarray(value)
        key = None
        if value.ndim == 0:
            key = (value.dtype, value.tobytes(), weak_type)
            v = self.scalar_constants.get(key)
            if v is not None:
                return v
        aval = ShapedArray(value.shape, value.dtype, weak_type)
        v = Value(self.fresh(), aval, const=True)
        self.emit(f"{v.name} = stablehlo.constant {dense_attr(value)} : {v.type}")
        if key is not None:
            self.scalar_constants[key] = v
        return v

    def region(self, arg_avals, body) -> list[str]:
        """Lines of a one-block region: ``body(builder, *args) -> list[Value]`` is returned."""
        sub = FunctionBuilder(self.module)
        sub.indent = 2
        args = [_new_value(self.fresh(), a) for a in arg_avals]
        outs = body(sub, *args)
        head = ", ".join(f"{a.name}: {a.type}" for a in args)
        ret_ops = ", ".join(o.name for o in outs)
        ret_t = ", ".join(o.type for o in outs)
        sub.emit(f'"stablehlo.return"({ret_ops}) : ({ret_t}) -> ()')
        return [f"^bb0({head}):"] + sub.lines


class LoweringRuleContext:
    """What a lowering rule sees: the builder, the equation's avals and helpers."""

    __slots__ = ("b", "avals_in", "avals_out", "module", "write_hazard")

    def __init__(self, builder: FunctionBuilder, avals_in, avals_out, write_hazard=False):
        self.b = builder
        self.module = builder.module
        self.avals_in = avals_in
        self.avals_out = avals_out
        #: an in-place write XLA would get wrong (``_write_hazards.py``): lower it without
        self.write_hazard = write_hazard

    def op(self, name, operands, out_aval=None, attrs="", regions=None) -> Value:
        """One-result op; the result aval defaults to the equation's only output."""
        aval = out_aval if out_aval is not None else self.avals_out[0]
        return self.b.op(name, operands, [aval], attrs, regions)[0]

    def ops(self, name, operands, out_avals, attrs="", regions=None) -> list[Value]:
        return self.b.op(name, operands, out_avals, attrs, regions)

    def constant(self, value, dtype=None) -> Value:
        return self.b.constant(np.asarray(value, dtype=dtype))

    def full(self, value, dtype, shape) -> Value:
        """A constant of ``shape`` filled with ``value`` (a scalar constant, broadcast)."""
        return self.broadcast_in_dim(self.constant(value, dtype), shape, ())

    def broadcast_in_dim(self, x: Value, shape, dims) -> Value:
        shape = tuple(shape)
        if x.aval.shape == shape:
            return x
        dims = tuple(dims)
        key = (x.name, shape, dims)
        done = self.b.broadcasts.get(key)
        if done is not None:
            return done
        out = x.aval.update(shape=shape)
        done = self.b.broadcasts[key] = self.op("stablehlo.broadcast_in_dim", [x], out,
                                                f"broadcast_dimensions = {i64_array(dims)}")
        return done

    def broadcast_operands(self, *xs: Value) -> list[Value]:
        """Broadcast rank-0 and size-1 operands to the equation's output shape."""
        shape = self.avals_out[0].shape
        out = []
        for x in xs:
            if x.aval.shape == shape:
                out.append(x)
            elif x.aval.ndim == 0:
                out.append(self.broadcast_in_dim(x, shape, ()))
            else:
                out.append(self.broadcast_in_dim(x, shape, range(len(shape))))
        return out

    def convert(self, x: Value, dtype) -> Value:
        dtype = np.dtype(dtype)
        if x.aval.dtype == dtype:
            return x
        return self.op("stablehlo.convert", [x], x.aval.update(dtype=dtype, weak_type=False))

    def region(self, arg_avals, body):
        return self.b.region(arg_avals, body)

    def lower_jaxpr(self, jaxpr: Jaxpr, consts, args) -> list[Value]:
        """Inline ``jaxpr`` here (for call-like primitives); host constants (a closed
        jaxpr's NumPy consts) become ``stablehlo.constant``s, eager ``Array`` consts (arrays
        the function closes over) parameters of ``main`` read at each call."""
        consts = [c if isinstance(c, Value) else
                  self.b.module.live_value(c, v.aval) if type(c) is core.Array else
                  self.b.constant(np.asarray(c)) for v, c in zip(jaxpr.constvars, consts)]
        return lower_jaxpr_body(self.b, jaxpr, consts, args)


def lower_jaxpr_body(builder: FunctionBuilder, jaxpr: Jaxpr, consts, args) -> list[Value]:
    """Emit the equations of ``jaxpr`` with ``constvars``/``invars`` bound to Values."""
    env: dict = {}

    def read(v):
        if type(v) is Literal:
            return builder.constant(v.val, v.aval.weak_type)
        return env[v]

    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    hazards = write_hazards(jaxpr)
    for eqn in jaxpr.eqns:
        rule = LOWERINGS.get(eqn.primitive)
        if rule is None:
            reason = UNSUPPORTED.get(eqn.primitive, "no lowering rule")
            raise NotImplementedError(
                f"xnp: the XLA backend cannot lower primitive '{eqn.primitive.name}' ({reason}).")
        ins = [read(v) for v in eqn.invars]
        ctx = LoweringRuleContext(builder, [v.aval for v in eqn.invars],
                                  [v.aval for v in eqn.outvars], eqn in hazards)
        outs = rule(ctx, *ins, **eqn.params)
        if len(outs) != len(eqn.outvars):
            raise AssertionError(f"internal error in xnp: lowering of {eqn.primitive.name} "
                                 f"returned {len(outs)} values for {len(eqn.outvars)} outputs")
        for v, o in zip(eqn.outvars, outs):
            # keep the jaxpr's aval (weak type) on the value; the tensor type is the same
            env[v] = Value(o.name, v.aval, o.const)
    return [read(v) for v in jaxpr.outvars]
