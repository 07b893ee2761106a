"""Private helpers shared by the ufunc modules (conversion, promotion, ``dtype=``,
``out=``/``where=`` handling). See :mod:`xnp.numpy_api.elementwise` for the conventions."""

from __future__ import annotations

import functools

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, binary_operands, broadcast_arrays, write_out
from xnp.tracing import core, errors
from xnp.tracing.avals import canonical_dtype
from xnp.numpy_api._fp_out import call_writing_out

__all__: list = []  # private helpers only

_PY_SCALARS = (int, float, complex, bool)
_BOOL = np.dtype(np.bool_)
_INT8 = np.dtype(np.int8)
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_NoValue = getattr(np, "_NoValue", None)
_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))


# =========================================================================== helpers


def _extras(fname, casting, order, subok, signature, dtype=None, operands=()):
    """Reject the ufunc keywords xnp cannot honour (see the module docstring), and with
    ``casting='no'``/``'equiv'`` (and no ``dtype=``) inputs that NumPy's loop would cast."""
    if casting not in ("same_kind", "unsafe", "safe", "equiv", "no"):
        raise ValueError(f"xnp.{fname}: casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe', got {casting!r}")
    if casting in ("no", "equiv") and dtype is None and operands:
        _check_loop_takes_inputs(fname, casting, operands)
    if order not in ("K", "A", "C", None):
        raise NotImplementedError(f"xnp.{fname}: `order={order!r}` is not supported: xnp "
                                  "results are always C-contiguous")
    if signature is not None:
        raise NotImplementedError(f"xnp.{fname}: `signature=` is not supported; use dtype= "
                                  "or cast the inputs")


_WEAK_TYPES = {"b": bool, "i": int, "u": int, "f": float, "c": complex}
# their loops take inputs of any dtype as bool without a cast, under every casting rule
_ANY_INPUT_LOOPS = ("logical_and", "logical_or", "logical_xor", "logical_not")
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


#: NumPy functions that are a ufunc under another name (``numpy.clip`` calls this one)
_UFUNC_OBJECTS = {"clip": np._core.umath.clip}


#: argument names of the functions whose operands are not x / x1, x2
_OPERAND_NAMES = {"clip": ("a", "min", "max")}


def _operand_names(n: int, fname: str = "") -> tuple:
    names = _OPERAND_NAMES.get(fname)
    if names is not None and len(names) == n:
        return names
    return ("x",) if n == 1 else tuple(f"x{i + 1}" for i in range(n))


def ufunc_loop(fname, operands):
    """``(dts, loop)``: each operand's dtype (the Python type of a Python scalar or of a
    weak value) and the dtypes of the loop NumPy's ufunc ``fname`` resolves for them, or
    ``loop`` None where NumPy has no such ufunc, no loop, or no array operand."""
    npu = _UFUNC_OBJECTS.get(fname) or getattr(np, fname, None)
    if not isinstance(npu, np.ufunc):
        return None, None
    names = _operand_names(len(operands), fname)
    dts, arrays = [], 0
    for i, v in enumerate(operands):
        if type(v) in _PY_SCALARS:
            scalar_type = type(v)
        else:
            v = asarray_for(fname, v, names[i])
            scalar_type = _WEAK_TYPES.get(_dtype_of(v).kind) if v.weak_type else None
        if scalar_type is None:
            dts.append(_dtype_of(v))
            arrays += 1
        else:
            dts.append(_BOOL if scalar_type is bool else scalar_type)
    if not arrays:
        return dts, None
    try:
        return dts, npu.resolve_dtypes((*dts, *(None,) * npu.nout), casting="unsafe")
    except TypeError:  # no loop for these dtypes: the function raises its own error
        return dts, None


def refuse_inplace_cast(name, target, other) -> None:
    """NumPy's ``TypeError`` for ``target <op>= other`` where the output of its ``name``
    loop does not cast 'same_kind' into ``target`` (NumPy checks that before computing,
    so it wins over a ``ValueError`` of the computation); nothing otherwise."""
    try:
        _, loop = ufunc_loop(name, (target, other))
    except (TypeError, ValueError):
        return
    dst = _dtype_of(target)
    if loop is not None and not np.can_cast(loop[-1], dst, "same_kind"):
        raise _numpy_cast_error(name, loop, dst) or TypeError(
            f"Cannot cast ufunc '{name}' output from {loop[-1]!r} to {dst!r} with casting "
            "rule 'same_kind'") from None


def _numpy_cast_error(name, loop, dst):
    """NumPy's own exception (its ``UFuncTypeError``) for the output of ufunc ``name``'s
    ``loop`` (input dtypes..., output dtype) not casting into ``dst``: raised by the ufunc
    on arrays of ones of the loop's dtypes (no floating-point error), or None."""
    ufunc = getattr(np, name, None)
    if not isinstance(ufunc, np.ufunc) or ufunc.nout != 1 or len(loop) != ufunc.nin + 1:
        return None
    shape = (1, 1) if ufunc.signature else ()
    try:
        ufunc(*[np.ones(shape, d) for d in loop[:-1]], out=np.ones(shape, dst))
    except TypeError as e:
        return e if type(e).__module__.startswith("numpy") else None
    return None


def _check_loop_takes_inputs(fname, casting, operands):
    """``TypeError`` where the loop NumPy resolves for the operands would cast an input
    under ``casting`` ('no' or 'equiv'), as NumPy checks them: a Python bool as a bool
    array; a Python int, float or complex not at all under 'no', and as its default dtype
    under 'equiv' (a Python int compared with an integer array: not at all)."""
    if fname in _ANY_INPUT_LOOPS:
        return
    dts, loop = ufunc_loop(fname, operands)
    if loop is None:
        return
    names = _operand_names(len(operands), fname)
    for i, src in enumerate(dts):
        if not isinstance(src, np.dtype):  # a Python int, float or complex
            if casting == "no" or (fname in _COMPARISONS and loop[i].kind in "iu"):
                continue
            if not np.can_cast(_default_dtypes.python_scalar_dtype(src(0)), loop[i], casting):
                raise TypeError(f"xnp.{fname}: cannot cast the Python {src.__name__} "
                                f"`{names[i]}` to {loop[i]} under the casting rule {casting!r}")
        elif not np.can_cast(src, loop[i], casting):
            raise TypeError(f"xnp.{fname}: cannot cast input {i} (`{names[i]}`) from {src} to "
                            f"{loop[i]} with casting rule {casting!r}")


def _dtype_of(x) -> np.dtype:
    return x.dtype


_FLOAT_DTYPES: dict = {}


def _float_dtype(dt: np.dtype) -> np.dtype:
    """The dtype NumPy's float functions compute in (bool -> float16, as NumPy)."""
    key = (dt, _util.default_float())
    out = _FLOAT_DTYPES.get(key)
    if out is None:
        out = _FLOAT_DTYPES[key] = _F16 if dt.kind == "b" else _util.to_inexact_dtype(dt)
    return out


def _cast(fname, x, dt, casting, i=0, argname=None, complex_input=None):
    """``x`` cast to ``dt`` for ``dtype=``, checking the ``casting`` rule as NumPy does;
    NumPy's ``ComplexWarning`` when the operand as given (``complex_input``; None: ``x``
    itself) is complex and ``dt`` real or integer."""
    src = _dtype_of(x)
    if src == dt:
        return x
    if not np.can_cast(src, dt, casting):
        which = f"input {i}" if argname is None else f"input {i} (`{argname}`)"
        raise TypeError(f"xnp.{fname}: cannot cast {which} from {src} to {dt} with casting "
                        f"rule {casting!r}")
    if (src.kind == "c" if complex_input is None else complex_input) and dt.kind not in "cb":
        _util.warn_complex_to_real()
    return lax.convert_element_type(x, dt, weak_type=False)


def _is_complex(x) -> bool:
    """Whether the operand ``x`` as given (an array, a scalar, a sequence) is complex."""
    if isinstance(x, (bool, int, float)):
        return False
    if isinstance(x, complex):
        return True
    dt = getattr(x, "dtype", None)
    return (np.dtype(dt) if dt is not None else np.asarray(x).dtype).kind == "c"


def _as_dtype(fname, x, dt):
    """``x`` converted to ``dt`` keeping its weak type (promotion inside a function)."""
    if _dtype_of(x) == dt:
        return x
    return lax.convert_element_type(x, dt, weak_type=x.weak_type)


def _binary(fname, x1, x2, dtype, casting):
    """Promoted, rank-broadcast operands and their dtype (``dtype=`` applied)."""
    a, b, dt = binary_operands(fname, x1, x2)
    if dtype is not None:
        dt = canonical_dtype(dtype)
        # (a real operand promoted to complex with the other one drops no imaginary part)
        a, b = (_cast(fname, v, dt, casting, i, complex_input=_is_complex(x))
                for i, (v, x) in enumerate(((a, x1), (b, x2))))
    return a, b, dt


def scalar_loop_dtype(fname, x1, x2, dtype):
    """The dtype NumPy's loop computes in when an operand is a Python scalar, found before
    the scalar is converted (a value out of a narrow dtype's range warns in that cast, where
    NumPy raises a function's dtype error only); None when neither is one, or ``dtype=``
    is given."""
    if dtype is None and (type(x1) in _PY_SCALARS or type(x2) in _PY_SCALARS):
        # (a scalar's aval by its type: an int beyond int64 promotes as any other)
        avals = [core.aval_of(type(x)(0) if type(x) in _PY_SCALARS else
                              asarray_for(fname, x, name)) for x, name in ((x1, "x1"), (x2, "x2"))]
        return _util.result_dtype(*avals)[0]
    return None


def real_operands(fname, binary, x1, x2, dtype, casting, what):
    """``binary(fname, x1, x2, dtype, casting)`` (``_binary`` or ``_binary_inexact``) for a
    function with no complex loop: NumPy's ``TypeError`` (:func:`_reject`, saying ``what``)
    for complex operands, before a Python scalar is converted (a float beyond complex64's
    range would warn in that cast first, where NumPy only raises)."""
    loop = scalar_loop_dtype(fname, x1, x2, dtype)
    if loop is not None:
        _reject(fname, np.empty(0, loop), "c", what, inputs=(x1, x2))
    out = binary(fname, x1, x2, dtype, casting)
    _reject(fname, out[0], "c", what, inputs=(x1, x2))
    return out


def _unary(fname, x, dtype, casting):
    x = asarray_for(fname, x, "x")
    if dtype is not None:
        x = _cast(fname, x, canonical_dtype(dtype), casting)
    return x


def _inexact(fname, x, dtype=None, casting="same_kind", argname="x"):
    """``x`` in the dtype NumPy's float functions compute in (ints -> float)."""
    if type(x) in _PY_SCALARS and dtype is None:
        # convert on the host: a literal, like JAX (no convert equation)
        dt = _float_dtype(_default_dtypes.python_scalar_dtype(x))
        return core.lift(np.asarray(x, dt), weak_type=type(x) is not bool)
    x = asarray_for(fname, x, argname)
    if dtype is not None:
        dt = canonical_dtype(dtype)
        if dt.kind not in "fcV":
            raise TypeError(f"xnp.{fname}: no loop for dtype={dt}; it needs an inexact dtype")
        return _cast(fname, x, dt, casting)
    return _as_dtype(fname, x, _float_dtype(_dtype_of(x)))


def _binary_inexact(fname, x1, x2, dtype, casting, *, default_float=False):
    """Promoted operands moved to the float dtype (ints -> float64 if ``default_float``).

    Otherwise the float dtype comes from each (non-weak) operand's own dtype, as NumPy
    picks its loop: int8 with uint8 computes in float16, not in float32 via int16.
    """
    if type(x1) not in _PY_SCALARS:
        x1 = asarray_for(fname, x1, "x1")
    if type(x2) not in _PY_SCALARS:
        x2 = asarray_for(fname, x2, "x2")
    if dtype is None and not default_float:
        x1, x2 = _to_loop_dtype(fname, x1, x2), _to_loop_dtype(fname, x2, x1)
    a, b, dt = _binary(fname, x1, x2, dtype, casting)
    if dt.kind in "biu":
        if dtype is not None:
            raise TypeError(f"xnp.{fname}: no loop for dtype={dt}; it needs an inexact dtype")
        if default_float:
            dt = _util.default_float()
        else:
            own = [_dtype_of(v) for v in (x1, x2)
                   if type(v) not in _PY_SCALARS and not v.weak_type]
            strong = [_float_dtype(d) for d in own]
            if len(own) < 2 and (not own or own[0] != dt):
                # a Python int beside a bool array is the default integer (NEP 50), which
                # picks the loop as an operand of its own: bool with int gives float64
                strong.append(_float_dtype(dt))
            dt = np.result_type(*strong)
        a, b = _as_dtype(fname, a, dt), _as_dtype(fname, b, dt)
    return a, b, dt


def _to_loop_dtype(fname, x, other):
    """An integer or bool array beside a Python int, moved to its float loop dtype first.

    NumPy picks the loop from the array (a bool array with the int as the default integer)
    and then converts the int to the loop's dtype, so uint8 with -1 computes in float16 and
    a bool array with ``2**70`` in float64, where integer promotion would overflow."""
    if type(other) is not int or type(x) in _PY_SCALARS or x.weak_type:
        return x
    dt = _dtype_of(x)
    if dt.kind == "b":
        return _as_dtype(fname, x, _float_dtype(_default_dtypes.python_scalar_dtype(other)))
    if dt.kind in "iu":
        return _as_dtype(fname, x, _float_dtype(dt))
    return x


def _finish(fname, res, out, where, casting="same_kind", warned=False):
    """Apply ``where=`` and ``out=`` to a result (``out`` an array, None, or a tuple of one
    of them, as NumPy's single-output ufuncs take it); ``warned``: the caller has issued
    the cast's ``ComplexWarning`` (:func:`warn_out_cast`) itself."""
    if type(out) is tuple and len(out) == 1:
        out = out[0]
    if where is not True and not (type(where) is np.bool_ and where):
        mask = asarray_for(fname, where, "where")
        if _dtype_of(mask) != _BOOL:
            mask = lax.ne(mask, _zero_like_dtype(mask))
        if out is None:
            # NumPy leaves the masked-out elements uninitialised (any value); xnp makes
            # them zero, the same eagerly and under jit
            (mask, res), _ = broadcast_arrays(fname, mask, res)
            return lax.select_n(mask, _zero_like_dtype(res), res)
        if not warned:
            warn_out_cast(res, out, mask, casting)
        res = _out_cast(fname, res, out, casting)
        (mask, old, new), _ = broadcast_arrays(fname, mask, out, res)
        res = lax.select_n(mask, old, new)
    elif out is None:
        return res
    elif casting != "same_kind":
        if not warned:
            warn_out_cast(res, out, None, casting)
        res = _out_cast(fname, res, out, casting)
    return write_out(fname, out, _to_out_shape(res, out))


# =========================================================================== where=

#: NumPy's warning for a ufunc called with ``where=`` and without ``out=`` (its text,
#: spelling included, so that warning filters written for NumPy match xnp's)
WHERE_WITHOUT_OUT = ("'where' used without 'out', expect unitialized memory in output. "
                     "If this is intentional, use out=None.")
#: per ufunc, the value each array operand takes where ``where=`` is False (default 1):
#: one at which the ufunc raises no floating-point error for any dtype (arctanh(1) divides
#: by zero; ldexp's exponent 0 cannot overflow beside a Python float)
_MASKED_OUT_VALUES = {"arctanh": (0,), "ldexp": (1, 0)}
#: ufuncs whose masked-out elements need no other value: their loops raise no
#: floating-point error for any operands (bool predicates) ...
_NO_FP_ERRORS = frozenset(("isnan", "isinf", "isfinite", "signbit", "logical_and",
                           "logical_or", "logical_xor", "logical_not"))
#: ... or for integer and bool operands into integer or bool outputs (integer arithmetic
#: wraps silently)
_NO_FP_ERRORS_ON_INTEGERS = frozenset((
    "add", "subtract", "multiply", "negative", "positive", "absolute", "square", "sign",
    "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
    "left_shift", "right_shift", "bitwise_count", "gcd", "lcm", "conjugate"))


def masked_call(fn, name: str, nin: int):
    """``fn``, the function of NumPy's ufunc ``name`` (``nin`` inputs), as the ufunc object
    ``xnp.<name>`` calls it: with NumPy's ``where=`` rules, which the function alone does
    not know (whether ``out`` was passed at all):

    * ``where=`` other than ``True`` without an ``out`` keyword (a positional ``None`` is
      no ``out``) warns NumPy's ``UserWarning`` (:data:`WHERE_WITHOUT_OUT`) on every call,
      eagerly and when traced;
    * a ``where`` array of a dtype other than bool raises NumPy's ``TypeError``; ``None``
      is False; anything else counts by the truth of its elements;
    * the array operands take a harmless value where ``where`` is False
      (:data:`_MASKED_OUT_VALUES`), so that, as in NumPy, the elements left out raise no
      floating-point warning or ``errstate`` error, and their derivative is 0 (the
      result's masked-out elements are ``out``'s, or 0, as before). A Python scalar
      operand is the same at every element and stays as it is; so do the arrays of a
      call that cannot raise one (:data:`_NO_FP_ERRORS`, and
      :data:`_NO_FP_ERRORS_ON_INTEGERS` on integers).

    With ``out`` given, a floating-point error that NumPy raises (``numpy.errstate``
    'raise', or its warning under a warnings filter 'error') is raised after ``out`` is
    written, where ``where`` holds, as NumPy's loop writes it first
    (:func:`xnp.numpy_api._fp_out.call_writing_out`), and an error of the cast into
    ``out`` names the ufunc, as NumPy's loop does; ``out`` is left as it was where NumPy
    computes into a temporary (``out`` overlaps an input other than element for element)
    or meets the error before its loop (a Python scalar operand that overflows the loop's
    dtype, :func:`scalar_cast_overflows`). Calls without ``where=`` or ``out`` go to
    ``fn`` as they are."""
    values = _MASKED_OUT_VALUES.get(name, (1, 1))
    exact = 2 if name in _NO_FP_ERRORS else int(name in _NO_FP_ERRORS_ON_INTEGERS)

    def written(operands, args, kwargs):
        inputs = args[:nin]
        return call_writing_out(
            fn, (*operands, *args[nin:]), kwargs, tuple(args[nin:]) or kwargs.get("out"),
            inputs, where=name, only="cast", exact_ok=True,
            before=lambda e: scalar_cast_overflows(name, inputs, e))

    @functools.wraps(fn)
    def call(*args, **kwargs):
        where = kwargs.get("where", True)
        if where is True:
            if len(args) > nin or kwargs.get("out") is not None:
                return written(args[:nin], args, kwargs)
            return fn(*args, **kwargs)
        warn = "out" not in kwargs and all(o is None for o in args[nin:])
        keep = exact if kwargs.get("dtype") is None else 0  # 1: if integers throughout
        if keep == 1 and not _integer_outs((kwargs.get("out"), *args[nin:])):
            keep = 0
        try:
            mask = _where_mask(name, where)
            operands = _masked_operands(name, args[:nin], mask, values, keep)
        except errors.HostDtypeError:  # NumPy's ufunc serves the call (it warns itself)
            return fn(*args, **kwargs)
        except _WhereDtypeError as e:
            if warn:
                _warn_where_without_out()
            raise TypeError(str(e)) from None
        except (TypeError, ValueError):  # the function raises its own error for these
            operands = None
        if warn:
            _warn_where_without_out()
        if operands is None:
            return fn(*args, **kwargs)
        if mask is not where:
            kwargs = {**kwargs, "where": mask}
        if warn:
            return fn(*operands, *args[nin:], **kwargs)
        return written(operands, args, kwargs)

    return call


def scalar_cast_overflows(name, operands, error) -> bool:
    """Whether ``error``, a floating-point error of NumPy's ufunc ``name`` on ``operands``,
    is the overflow NumPy meets converting a Python scalar operand to its loop's dtype
    (``float16`` array + ``1e5``): NumPy raises it before its loop, so before writing."""
    if not str(error).startswith("overflow"):
        return False
    scalars = [i for i, v in enumerate(operands) if type(v) in (int, float, complex)]
    if not scalars:
        return False
    try:
        _, loop = ufunc_loop(name, operands)
    except (TypeError, ValueError):
        return False
    if loop is None:
        return False
    with np.errstate(all="ignore"):
        for i in scalars:
            value, dtype = operands[i], loop[i]
            if dtype.kind in "fc":
                try:
                    if np.isfinite(value) and not np.isfinite(np.asarray(value, dtype)):
                        return True
                except OverflowError:  # an int beyond float64: inf in every float dtype
                    return True
    return False


class _WhereDtypeError(TypeError):
    """A ``where`` array of a dtype other than bool (raised as NumPy's ``TypeError``)."""


def _where_mask(fname, where):
    """``where`` as a bool mask, converted as NumPy's ufuncs convert it (see
    :func:`masked_call`)."""
    if where is None:
        where = False
    if _util.is_xnp(where) or isinstance(where, np.ndarray):
        if where.dtype != _BOOL:
            raise _WhereDtypeError(
                f"xnp.{fname}: Cannot cast array data from {np.dtype(where.dtype)!r} to "
                "dtype('bool') according to the rule 'safe' (`where` must be a bool array)")
    mask = asarray_for(fname, where, "where")
    return mask if _dtype_of(mask) == _BOOL else lax.ne(mask, _zero_like_dtype(mask))


def _integer_outs(outs) -> bool:
    """Whether each output given (None: none) has an integer or bool dtype."""
    for o in outs:
        for t in (o if type(o) is tuple else (o,)):
            if t is not None and getattr(getattr(t, "dtype", None), "kind", "f") not in "biu":
                return False
    return True


def _masked_operands(fname, operands, mask, values, keep=0) -> list:
    """``operands`` with each array's elements where ``mask`` is False replaced by its
    value in ``values`` (the array broadcast against ``mask``); Python scalars as they are.
    ``keep`` 2: the arrays as they are; 1: so if every operand is integer or bool."""
    names = ("x",) if len(operands) == 1 else ("x1", "x2")
    operands = [x if type(x) in _PY_SCALARS else asarray_for(fname, x, names[i])
                for i, x in enumerate(operands)]
    if keep == 2 or (keep == 1 and all(
            (type(x) is int or type(x) is bool) if type(x) in _PY_SCALARS
            else _dtype_of(x).kind in "biu" for x in operands)):
        return operands
    mshape = core.aval_of(mask).shape
    out, made = [], {}
    for x, value in zip(operands, values):
        if type(x) not in _PY_SCALARS:
            aval = core.aval_of(x)
            m = mask
            if aval.shape != mshape:
                (m, x), _ = broadcast_arrays(fname, mask, x)
            key = (value, aval.dtype, aval.weak_type)
            safe = made.get(key)
            if safe is None:
                safe = made[key] = core.lift(np.asarray(value, aval.dtype),
                                             weak_type=aval.weak_type)
            x = lax.select_n(m, safe, x)
        out.append(x)
    return out


def _warn_where_without_out() -> None:
    """:data:`WHERE_WITHOUT_OUT`, attributed to the first frame outside xnp (the user's
    call, as NumPy's is); ``_util.warn``: a call that warns is never replayed by the eager
    dispatch cache, so every call warns."""
    _util.warn(WHERE_WITHOUT_OUT, UserWarning)


def _to_out_shape(res, out):
    """``res`` broadcast to ``out``'s shape where it broadcasts there (NumPy's ufuncs take
    the output into their broadcasting: ``np.sin(0-d, out=zeros(2))`` fills ``out``);
    otherwise unchanged, for ``write_out`` to word the mismatch."""
    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    shape = getattr(target, "shape", None)
    rshape = core.aval_of(res).shape
    if shape is None or tuple(shape) == rshape:
        return res
    try:
        if np.broadcast_shapes(rshape, tuple(shape)) != tuple(shape):
            return res
    except ValueError:
        return res
    return lax.broadcast_in_dim(res, tuple(shape),
                                tuple(range(len(shape) - len(rshape), len(shape))))


def warn_out_cast(res, out, mask=None, casting="same_kind"):
    """NumPy's ``ComplexWarning`` for a complex result ``res`` cast into a real or integer
    ``out`` (an array, a tuple of one, or None). Returns the ``out`` array when the cast is
    one NumPy makes (the dtypes differ, ``casting`` allows it and the shapes of ``res``,
    ``out`` and the ``where=`` ``mask``, None: none, fit), else None and warns nothing (the
    caller raises NumPy's error)."""
    target = out[0] if type(out) is tuple and len(out) == 1 else out
    if not (_util.is_xnp(target) or isinstance(target, np.ndarray)):
        return None
    src, dst = core.aval_of(res).dtype, np.dtype(target.dtype)
    if src == dst or not np.can_cast(src, dst, casting):
        return None
    shapes = [core.aval_of(res).shape, tuple(target.shape)]
    if mask is not None:
        shapes.append(core.aval_of(mask).shape)
    try:
        if np.broadcast_shapes(*shapes) != tuple(target.shape):
            return None
    except ValueError:
        return None
    if src.kind == "c" and dst.kind not in "cb":
        _util.warn_complex_to_real()
    return target


def _out_cast(fname, res, out, casting):
    if not (_util.is_xnp(out) or isinstance(out, (np.ndarray, core.Array))):
        raise TypeError(f"xnp.{fname}: `out` must be an array, got {type(out).__name__}")
    src, dst = _dtype_of(res), np.dtype(out.dtype)
    if src == dst:
        return res
    if not np.can_cast(src, dst, casting):
        raise TypeError(f"xnp.{fname}: cannot cast the result from {src} to `out` dtype {dst} "
                        f"with casting rule {casting!r}")
    return lax.convert_element_type(res, dst)


def _zero_like_dtype(x):
    """A 0-d zero of ``x``'s dtype (broadcasts in lax ops)."""
    return core.lift(np.zeros((), _dtype_of(x)))


def _scalar(value, dt):
    """A 0-d constant of dtype ``dt``."""
    return core.lift(np.asarray(value, dt))


def _copy(x):
    """A new array equal to ``x`` (NumPy's ufuncs never alias their input); no-op when traced."""
    if isinstance(x, core.Tracer):
        return x
    return lax.convert_element_type(x, _dtype_of(x), weak_type=x.weak_type)


def _zeros_like(x):
    """Zeros with ``x``'s shape and dtype."""
    z = _zero_like_dtype(x)
    if x.shape == ():
        return z
    return lax.broadcast_in_dim(z, x.shape, ())


def _is_nan(x):
    return lax.ne(x, x)


def _not_nan(x):
    return lax.eq(x, x)


def input_dtype_name(v) -> str:
    """The dtype name of an operand as it was passed (a Python scalar's default dtype, as
    a jitted function sees it)."""
    if type(v) in _PY_SCALARS:
        return np.dtype(_default_dtypes.python_scalar_dtype(v)).name
    dt = getattr(v, "dtype", None)
    try:
        return np.dtype(dt if dt is not None else np.asarray(v).dtype).name
    except Exception:  # noqa: BLE001  (not array-like: its type)
        return type(v).__name__


def _reject(fname, x, kinds, what, inputs=None):
    """``TypeError`` (NumPy's class) if the dtype kind of ``x`` is in ``kinds``; the
    message names ``x``'s dtype, and the dtypes of ``inputs`` (a binary function's operands
    as passed) when given."""
    dt = _dtype_of(x)
    if dt.kind in kinds:
        if inputs is None:
            raise TypeError(f"xnp.{fname}: not supported for {dt} input ({what})")
        names = ", ".join(input_dtype_name(v) for v in inputs)
        raise TypeError(f"xnp.{fname}: not supported for inputs of dtypes ({names}), computed "
                        f"as {dt} ({what})")


def _bool_to_int8(fname, a, b, dt, dtype=None):
    """NumPy has no bool loop for some integer ufuncs: bool computes in int8, and
    ``dtype=bool`` finds no loop (``TypeError``)."""
    _no_bool_loop(fname, dtype)
    if dt.kind == "b":
        return _as_dtype(fname, a, _INT8), _as_dtype(fname, b, _INT8), _INT8
    return a, b, dt


def in_float32(fn):
    """``fn`` (a function whose first operand is a float, and whose result has that
    float's dtype) computed in float32 for the floats narrower than float32 (float16,
    bfloat16, float8): the operands of that dtype converted, the result rounded once to it
    (weak when every operand is), as NumPy's half loops and ml_dtypes' loops compute."""

    def narrow(*xs):
        dt = core.aval_of(xs[0]).dtype
        if dt.itemsize >= 4 or dt not in kit.FLOATING:
            return fn(*xs)
        res = fn(*[lax.convert_element_type(x, _F32) if core.aval_of(x).dtype == dt else x
                   for x in xs])
        weak = all(core.aval_of(x).weak_type for x in xs)
        return lax.convert_element_type(res, dt, weak_type=weak)

    return functools.wraps(fn)(narrow)


def _no_bool_loop(fname, dtype) -> None:
    if dtype is not None and canonical_dtype(dtype) == _BOOL:
        raise TypeError(f"xnp.{fname}: no loop matching dtype=bool (NumPy's {fname} has no "
                        "bool loop; bool inputs compute in int8)")


# =========================================================================== arithmetic


def _copysign(x, s):
    """``|x|`` with the sign bit of ``s`` (floating; equal dtypes)."""
    ax = lax.abs(x)
    return lax.select(_signbit_float(s), lax.neg(ax), ax)


def _complex_ge(a, b, strict):
    """NumPy's lexicographic complex order (``CGE``/``CGT``): reals first, then imaginary
    parts; a NaN imaginary part makes the real-part comparison fail."""
    ar, ai, br, bi = lax.real(a), lax.imag(a), lax.real(b), lax.imag(b)
    first = lax.and_(lax.gt(ar, br), lax.and_(_not_nan(ai), _not_nan(bi)))
    second = lax.and_(lax.eq(ar, br), lax.gt(ai, bi) if strict else lax.ge(ai, bi))
    return lax.or_(first, second)


def _complex_has_nan(z):
    return lax.or_(_is_nan(lax.real(z)), _is_nan(lax.imag(z)))


def _truth(x):
    """``x != 0`` as bool (bool input unchanged)."""
    if _dtype_of(x).kind == "b":
        return x
    return lax.ne(x, _zero_like_dtype(x))


def _signbit_float(x):
    """The sign bit of a floating ``x`` (True for -0.0 and negative NaNs), via its bits."""
    bits = lax.bitcast_convert_type(x, np.dtype(f"i{_dtype_of(x).itemsize}"))
    return lax.lt(bits, _zero_like_dtype(bits))


def two_outs(fname: str, out1, out2, out):
    """The two outputs of a two-output ufunc: NumPy's positional ``out1, out2`` or the
    keyword ``out=(out1, out2)`` (``None`` entries: new arrays); ``TypeError`` for both
    forms at once or a malformed ``out``."""
    if out is None:
        out = (None, None)
    if out1 is not None or out2 is not None:
        if not isinstance(out, tuple) or any(o is not None for o in out):
            raise TypeError(f"xnp.{fname}: cannot specify 'out' as both a positional and "
                            "keyword argument")
        out = (out1, out2)
    if not isinstance(out, tuple) or len(out) != 2:
        raise TypeError(f"xnp.{fname}: `out` must be a tuple of two arrays (or None)")
    return out
