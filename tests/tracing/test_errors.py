"""Tracer errors: the class hierarchy (``TypeError``/``IndexError`` bases), what the messages
name (function, file:line, argument, the operations that made a value a tracer: Python
``if`` on a traced value, a traced reshape size, ``int()`` of a staged size, the conversion
table), and leaked tracers under jit and make_jaxpr (what a leaked tracer still allows,
leak checking)."""

import os

import numpy as np
import pytest

import xnp
from xnp import errors, lax
from xnp.tracing import partial_eval

HERE = os.path.basename(__file__)


def _line(fun, offset):
    """File:line of the line ``offset`` lines below ``fun``'s ``def``."""
    return f"{HERE}:{fun.__code__.co_firstlineno + offset}"


# --------------------------------------------------------------------------- hierarchy


@pytest.mark.parametrize("cls,bases,not_bases", [
    (errors.ConcretizationTypeError, [TypeError], []),
    (errors.TracerBoolConversionError, [errors.ConcretizationTypeError, TypeError], []),
    (errors.TracerIntegerConversionError, [TypeError], [errors.ConcretizationTypeError]),
    (errors.TracerArrayConversionError, [TypeError], [errors.ConcretizationTypeError]),
    (errors.UnexpectedTracerError, [TypeError], [errors.ConcretizationTypeError]),
    (errors.NonConcreteBooleanIndexError, [IndexError], [TypeError]),
])
def test_hierarchy_S44(cls, bases, not_bases):
    for b in bases:
        assert issubclass(cls, b)
    for b in not_bases:
        assert not issubclass(cls, b)
    assert cls.__doc__ and "fix" in cls.__doc__.lower()  # the docstring explains the fix


def test_error_names_are_public():
    for name in errors.__all__:
        assert getattr(xnp.errors, name) is getattr(errors, name)
    assert {"ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
            "TracerArrayConversionError", "UnexpectedTracerError",
            "NonConcreteBooleanIndexError"} <= set(errors.__all__)


# --------------------------------------------------------------------------- messages


def test_bool_message_names_function_line_argument_S13():
    def f(x, neg):
        return lax.neg(x) if neg else x

    with pytest.raises(errors.TracerBoolConversionError) as e:
        xnp.jit(f)(1, True)
    msg = str(e.value)
    assert "Attempted boolean conversion of traced array with shape bool[]" in msg
    assert f"tracing the function f at {_line(f, 0)} for jit" in msg
    assert "depends on the value of the argument neg" in msg
    assert "help(xnp.errors.TracerBoolConversionError)" in msg.splitlines()[-1]


def test_message_names_decorator_line():
    @xnp.jit
    def decorated(x):
        return x if x > 0 else x

    with pytest.raises(errors.TracerBoolConversionError) as e:
        decorated(1.0)
    # co_firstlineno of a decorated function is the decorator's line (as JAX reports)
    assert f"decorated at {_line(decorated.__wrapped__, 0)}" in str(e.value)


def test_message_under_make_jaxpr():
    def g(x, neg):
        return lax.neg(x) if neg else x

    with pytest.raises(errors.TracerBoolConversionError, match="argument neg"):
        xnp.make_jaxpr(g)(1.0, True)


def test_message_names_all_arguments_a_value_depends_on():
    def f(x, y, z):
        return x if lax.gt(lax.add(x, y), 0.0) else z

    with pytest.raises(errors.TracerBoolConversionError) as e:
        xnp.jit(f)(1.0, 2.0, 3.0)
    assert "the arguments x and y" in str(e.value)


def test_message_names_pytree_argument_path():
    def f(params, x):
        return x if params["w"][1] else x

    with pytest.raises(errors.TracerBoolConversionError) as e:
        xnp.jit(f)({"w": (1.0, True)}, 2.0)
    assert "argument params['w'][1]" in str(e.value)


def test_messages_show_dtype_without_weak_mark():
    # JAX prints `float64[]` (not `~float64[]`) in conversion errors, also for Python scalars
    def f(x):
        return int(x)

    with pytest.raises(errors.ConcretizationTypeError) as e:
        xnp.jit(f)(2.0)
    assert e.value.args[0].splitlines()[0] == (
        "Abstract tracer value encountered where concrete value is expected: traced array "
        "with shape float64[]")
    with pytest.raises(errors.TracerBoolConversionError) as e:
        xnp.jit(lambda x: bool(x))(2.0)
    assert str(e.value).splitlines()[0] == (
        "Attempted boolean conversion of traced array with shape float64[].")


def test_int_of_staged_size_shows_reduce_prod_provenance_S23():
    def ex1c(x):
        size = lax.reduce_prod(xnp.array(x.shape), (0,))
        return int(size)

    with pytest.raises(errors.ConcretizationTypeError) as e:
        xnp.jit(ex1c)(np.ones((3, 4)))
    msg = str(e.value)
    assert "Abstract tracer value encountered where concrete value is expected" in msg
    assert "int64[]" in msg and "the `int` function" in msg and "x.astype(int)" in msg
    assert f"tracing the function ex1c at {_line(ex1c, 0)} for jit" in msg
    assert "became a tracer due to xnp operations on these lines" in msg
    assert "operation a:i64[] = reduce_prod[axes=(0,)] b" in msg
    assert "from line " in msg and f"{_line(ex1c, 1)}:" in msg and "(ex1c)" in msg


def test_provenance_lists_the_chain_of_operations():
    def f(x):
        a = lax.reduce_sum(xnp.array(x.shape), (0,))
        b = lax.mul(a, 2)
        return bool(lax.gt(b, 3))

    with pytest.raises(errors.TracerBoolConversionError) as e:
        xnp.jit(f)(np.ones((3, 4)))
    msg = str(e.value)
    i_sum = msg.index("reduce_sum")
    i_mul = msg.index("= mul")
    i_gt = msg.index("= gt")
    assert i_sum < i_mul < i_gt
    for k in (1, 2, 3):
        assert _line(f, k) in msg


def test_index_message_S26():
    def f(x):
        return range(x.astype(np.int64))

    with pytest.raises(errors.TracerIntegerConversionError) as e:
        xnp.jit(f)(2.0)
    msg = str(e.value)
    assert msg.startswith("The __index__() method was called on traced array with shape int64[]")
    assert "argument x" in msg


def test_array_conversion_message_S26():
    def f(x):
        return np.sin(x)

    with pytest.raises(errors.TracerArrayConversionError) as e:
        xnp.jit(f)(2.0)
    msg = str(e.value)
    assert msg.startswith("The numpy.ndarray conversion method __array__() was called on traced "
                          "array with shape float64[]")
    assert f"tracing the function f at {_line(f, 0)} for jit" in msg and "argument x" in msg


def test_static_int_error_names_function_and_argument():
    from xnp.numpy_api._util import static_int

    def f(n):
        return static_int("zeros", n, "shape")

    with pytest.raises(errors.ConcretizationTypeError) as e:
        xnp.jit(f)(3)
    assert "xnp.zeros" in str(e.value) and "'shape'" in str(e.value)
    assert "argument n" in str(e.value)


# --------------------------------------------------------------------------- leaks


def _leak_under(transform):
    box = {}

    def f(x):
        y = lax.add(x, 1.0)
        box["leaked"] = y
        return lax.mul(y, 2.0)

    out = transform(f)(1.0)
    return box["leaked"], out, f


@pytest.mark.parametrize("transform", [xnp.jit, xnp.make_jaxpr], ids=["jit", "make_jaxpr"])
def test_leaked_tracer_detected_naming_creation_line_S39(transform):
    leaked, _, f = _leak_under(transform)
    with pytest.raises(errors.UnexpectedTracerError) as e:
        lax.neg(leaked)
    msg = str(e.value)
    assert "Encountered an unexpected tracer" in msg
    assert "side effect" in msg and "float64[]" in msg and "~float64" not in msg
    assert f"f at {_line(f, 0)}" in msg
    assert "The leaked intermediate value was created on line" in msg
    assert f"{_line(f, 1)}:" in msg and "(f)" in msg
    assert "checking_leaks" in msg


@pytest.mark.parametrize("transform", [xnp.jit, xnp.make_jaxpr], ids=["jit", "make_jaxpr"])
def test_leaked_tracer_metadata_and_uses_S40(transform):
    leaked, out, _ = _leak_under(transform)
    if transform is xnp.jit:
        assert float(out) == 4.0
    assert repr(leaked) == str(leaked) == "JitTracer(~float64[])"
    assert leaked.shape == () and leaked.dtype == np.float64 and leaked.ndim == 0
    uses = [
        lambda: leaked + 1,
        lambda: lax.neg(leaked),
        lambda: bool(leaked > 0),
        lambda: xnp.jit(lambda z: lax.mul(z, 2.0))(leaked),
        lambda: xnp.jit(lambda z: lax.mul(z, leaked))(1.0),
        lambda: xnp.make_jaxpr(lambda z: lax.mul(z, leaked))(1.0),
    ]
    for use in uses:
        with pytest.raises(errors.UnexpectedTracerError):
            use()
    with pytest.raises(errors.ConcretizationTypeError):
        float(leaked)
    with pytest.raises(errors.TracerArrayConversionError):
        np.asarray(leaked)


def test_checking_leaks_raises_at_trace_exit_S41():
    saved = []

    def f(x):
        y = lax.mul(x, 3.0)
        saved.append(y)
        return y

    with partial_eval.checking_leaks():
        assert float(xnp.jit(lambda x: lax.mul(x, 2.0))(1.0)) == 2.0  # no leak: fine
        with pytest.raises(errors.UnexpectedTracerError) as e:
            xnp.jit(f)(1.0)
        assert "created on line" in str(e.value) and f"{_line(f, 1)}:" in str(e.value)
        saved.clear()
        with pytest.raises(errors.UnexpectedTracerError):
            xnp.make_jaxpr(f)(1.0)
    saved.clear()
    xnp.jit(f)(2.0)  # outside the block: no check at trace exit
    assert len(saved) == 1


def test_checking_leaks_is_public():
    assert xnp.checking_leaks is partial_eval.checking_leaks
