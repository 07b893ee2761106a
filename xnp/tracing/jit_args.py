"""Argument handling of ``xnp.jit`` that runs when a function is wrapped or on a cache miss,
never on a cached call: static arguments (resolution of ``static_argnums`` and
``static_argnames`` against the signature, their cache-key wrapper), donation and the
avals of dynamic arguments. Every check rejects what does not exist, as JAX does:
``static_argnums``/``donate_argnums`` beyond the positional parameters, ``static_argnames``
the function does not take, an argument both static and donated.
"""

from __future__ import annotations

import inspect

import numpy as np

from xnp.tracing import core, errors, python_ints
from xnp.tracing.avals import ShapeDtypeStruct, ShapedArray

__all__ = ["Static", "resolve_static", "resolve_donate", "check_donate_call", "arg_aval"]


class Static:
    """A static argument in a cache key: compared by (type, value)."""

    __slots__ = ("value", "_hash")

    def __init__(self, value):
        self.value = value
        try:
            self._hash = hash((type(value), value))
        except TypeError as e:
            raise ValueError(
                "Non-hashable static arguments are not supported. An error occurred while "
                f"trying to hash an object of type {type(value)}, {value!r}. The error was:\n"
                f"TypeError: {e}") from None

    def __eq__(self, other):
        return type(other) is Static and type(self.value) is type(other.value) and (
            self.value == other.value) is True

    def __hash__(self):
        return self._hash


def _positional_param_count(sig):
    if sig is None:
        return None
    n = 0
    for p in sig.parameters.values():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            return None
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            n += 1
    return n


def _int_tuple(option: str, value) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    try:
        nums = tuple(value)
    except TypeError:
        raise TypeError(f"xnp.jit: {option} must be an int or a sequence of ints, got "
                        f"{type(value).__name__}: {value!r}") from None
    if not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in nums):
        raise TypeError(f"xnp.jit: {option} must be an int or a sequence of ints, got {value!r}")
    return tuple(int(i) for i in nums)


def _str_tuple(option: str, value) -> tuple[str, ...] | None:
    if value is None:
        return None
    try:
        names = (value,) if isinstance(value, str) else tuple(value)
    except TypeError:
        names = (value,)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"xnp.jit: {option} must be a str or a sequence of str, got {value!r}")
    return names


def resolve_static(fun, static_argnums, static_argnames):
    """``(signature, static positions, static names, number of positional parameters)``.

    Only ``static_argnums`` given: the names are inferred from the signature; only
    ``static_argnames``: the positions. Negative positions count from the end.

    Raises
    ------
    ValueError
        A position is beyond the positional parameters, or a name is not a parameter of
        ``fun`` (which takes no ``**kwargs``).
    """
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):
        sig = None
    nums = _int_tuple("static_argnums", static_argnums)
    names = _str_tuple("static_argnames", static_argnames)
    npos = _positional_param_count(sig)
    if nums is not None and npos is not None:
        for i in nums:
            if not -npos <= i < npos:
                raise ValueError(
                    f"Jitted function has static_argnums={nums}, but only accepts {npos} "
                    "positional arguments.")
    params = sig.parameters if sig is not None else {}
    if names and sig is not None and not any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        unknown = [n for n in names if n not in params
                   or params[n].kind is inspect.Parameter.VAR_POSITIONAL]
        if unknown:
            raise ValueError(
                f"Jitted function has invalid argnames {unknown} in static_argnames="
                f"{names}. Function does not take these args: its parameters are "
                f"{list(params)}.")
    positional = [p for p in params if params[p].kind in (
        inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    if nums is not None and names is None:
        names = tuple(positional[i] for i in nums if npos is not None and -npos <= i < npos)
    elif names is not None and nums is None:
        nums = tuple(positional.index(n) for n in names if n in positional)
    nums = tuple(i % npos if (i < 0 and npos) else i for i in (nums or ()))
    return sig, frozenset(nums), frozenset(names or ()), npos


def resolve_donate(donate_argnums, npos, static_nums) -> frozenset:
    """The donated positions (negative ones counted from the end when ``npos``, the
    number of positional parameters, is known).

    Raises
    ------
    ValueError
        A position is beyond the positional parameters, or an argument is both static
        and donated (a static argument has no buffer to donate).
    """
    nums = _int_tuple("donate_argnums", donate_argnums) or ()
    if npos is not None:
        for i in nums:
            if not -npos <= i < npos:
                raise ValueError(
                    f"Jitted function has donate_argnums={nums}, but only accepts {npos} "
                    "positional arguments.")
        nums = tuple(i % npos for i in nums)
    elif any(i < 0 for i in nums):
        raise ValueError(f"xnp.jit: donate_argnums={nums} has a negative position, but the "
                         "function takes *args, so there is no end to count from.")
    both = sorted(set(nums) & set(static_nums))
    if both:
        raise ValueError(f"xnp.jit: argument(s) {both} are both static (static_argnums/"
                         "static_argnames) and donated (donate_argnums); a static argument "
                         "has no device buffer to donate.")
    return frozenset(nums)


def check_donate_call(donate, nargs: int, fun_name: str) -> None:
    """On a cache miss: every donated position exists in this call (``*args`` functions,
    whose positions could not be checked when they were wrapped)."""
    missing = sorted(i for i in donate if i >= nargs)
    if missing:
        raise ValueError(
            f"xnp.jit: {fun_name} has donate_argnums={tuple(sorted(donate))}, but was called "
            f"with {nargs} positional arguments (no argument at position(s) {missing}).")


def arg_aval(x, path: str, fun_name: str) -> ShapedArray:
    """The aval of a dynamic argument (``path`` names it in messages); a Python int's
    depends on its value (``python_ints.arg_aval``)."""
    if isinstance(x, ShapeDtypeStruct):
        return ShapedArray(x.shape, x.dtype, x.weak_type)
    if type(x) is int:
        return python_ints.arg_aval(x, path, fun_name)
    if isinstance(x, (np.ndarray, np.generic)):
        try:
            return core.aval_of(x)
        except errors.HostDtypeError as e:
            raise errors.HostDtypeError(errors.host_dtype_message(
                f"xnp.jit: argument {path} of {fun_name}", e.dtype), e.dtype) from None
        except TypeError as e:
            raise TypeError(f"xnp.jit: argument {path} of {fun_name}: {e}") from None
    try:
        return core.aval_of(x)
    except errors.HostDtypeError as e:
        raise errors.HostDtypeError(errors.host_dtype_message(
            f"xnp.jit: argument {path} of {fun_name}", e.dtype), e.dtype) from None
    except TypeError:
        raise TypeError(
            f"Error interpreting argument to {fun_name} as an abstract array. The problematic "
            f"value is of type {type(x)} and was passed to the function at path {path}.\n"
            "This typically means that a jit-wrapped function was called with a non-array "
            "argument, and this argument was not marked as static using the static_argnums or "
            "static_argnames parameters of xnp.jit.") from None
