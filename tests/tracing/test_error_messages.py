"""Error messages say enough: full NumPy dtype names (``float64[3]``,
never ``f64[3]``), the user's argument names and pytree paths, the fix that applies, and
leaked tracers reported as ``UnexpectedTracerError`` on every later use. Each case runs
eagerly and under ``jit`` where both apply."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xnp
from tests.helpers import covering_grid
from xnp import errors, lax

EAGER_AND_JIT = pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])


def _raises(cls, fn, *fragments):
    """``fn()`` raises ``cls``; its message holds every fragment and no short dtype name
    (outside the quoted jaxpr equations that made a value a tracer, which print as jaxprs)."""
    with pytest.raises(cls) as e:
        fn()
    msg = str(e.value)
    for frag in fragments:
        assert frag in msg, f"{frag!r} not in:\n{msg}"
    prose = [ln for ln in msg.splitlines() if not ln.lstrip().startswith("operation ")]
    assert not re.search(r"\b[fiuc](8|16|32|64|128)\[", "\n".join(prose)), msg  # jaxpr lines may
    return msg


# --------------------------------------------------------------------------- control flow


@EAGER_AND_JIT
def test_cond_branch_outputs_named_by_path_with_full_dtypes(wrap):
    def run(x):
        return lax.cond(True, lambda x: {"a": x, "b": (x, x)},
                        lambda x: {"a": x, "b": (x, x.astype(np.int32))}, x)

    _raises(TypeError, lambda: wrap(run)(xnp.ones(3)), "xnp.lax.cond",
            "output['b'][1]: true_fun output float64[3] vs false_fun output int32[3]",
            "dtypes differ", "Fix:", "false_fun", ".astype(xnp.float64)")


@EAGER_AND_JIT
def test_cond_branch_shapes_differ(wrap):
    _raises(TypeError, lambda: wrap(lambda x: lax.cond(True, lambda x: x, lambda x: x[:2], x))(
        xnp.ones(3)), "output: true_fun output float64[3] vs false_fun output float64[2]",
        "shapes differ", "xnp.where")


@EAGER_AND_JIT
def test_switch_branch_outputs(wrap):
    def run(x):
        return lax.switch(1, [lambda x: (x, x), lambda x: (x, x.astype(np.float32))], x)

    _raises(TypeError, lambda: wrap(run)(xnp.ones(3)),
            "output[1]: branch 0 output float64[3] vs branch 1 output float32[3]",
            "what branch 1 returns")


@EAGER_AND_JIT
def test_while_carry_leaf_named_by_path(wrap):
    def run(v):
        return lax.while_loop(lambda c: c[0] < 3,
                              lambda c: (c[0] + 1, {"v": c[1]["v"].astype(np.int32)}),
                              (0, {"v": v}))

    _raises(TypeError, lambda: wrap(run)(xnp.ones(3)), "xnp.lax.while_loop",
            "carry[1]['v']: input float64[3] vs output int32[3]", ".astype(xnp.float64)")


@EAGER_AND_JIT
@pytest.mark.parametrize("traced_bound", [False, True], ids=["static", "traced"])
def test_fori_carry_named_from_the_users_init_val(wrap, traced_bound):
    def run(v, n):
        hi = n if traced_bound else 3
        return lax.fori_loop(0, hi, lambda i, c: (c[0], {"v": c[1]["v"].astype(np.int32)}),
                             (1.0, {"v": v}))

    msg = _raises(TypeError, lambda: wrap(run)(xnp.ones(3), 3), "xnp.lax.fori_loop",
                  "carry[1]['v']: input float64[3] vs output int32[3]")
    assert "carry[1][1]" not in msg and "carry[2]" not in msg


@EAGER_AND_JIT
def test_scan_carry_dtype_and_shape(wrap):
    def dtype_bad(v):
        return lax.scan(lambda c, x: ((c[0], {"v": c[1]["v"].astype(np.int32)}), x),
                        (1.0, {"v": v}), xnp.arange(3.0))

    def shape_bad(v):
        return lax.scan(lambda c, x: (c[:2], x), v, xnp.arange(3.0))

    _raises(TypeError, lambda: wrap(dtype_bad)(xnp.ones(3)), "xnp.lax.scan",
            "carry[1]['v']: input float64[3] vs output int32[3]")
    _raises(TypeError, lambda: wrap(shape_bad)(xnp.ones(3)),
            "carry: input float64[3] vs output float64[2]", "shapes differ", "keeps its shape")


@EAGER_AND_JIT
def test_control_flow_scalar_checks_use_full_dtypes(wrap):
    _raises(TypeError, lambda: wrap(lambda x: lax.while_loop(lambda v: v, lambda v: v + 1, x))(
        0.0), "got float64[]")
    _raises(TypeError, lambda: wrap(lambda x: lax.switch(x, [lambda: 1.0]))(1.0),
            "index must be an integer, got float64[]")
    _raises(ValueError, lambda: wrap(lambda x: lax.scan(lambda c, x: (c, x), 0.0, (x, x[:2])))(
        xnp.ones(3)), "xs[0] float64[3], xs[1] float64[2]")


# --------------------------------------------------------------------------- vmap


def _add(x, y):
    return x + y


def _scale(params, x):
    return params["w"] * x


@EAGER_AND_JIT
def test_vmap_size_mismatch_names_parameters_and_paths(wrap):
    msg = _raises(ValueError, lambda: wrap(lambda a, b: xnp.vmap(_add)(a, b))(
        xnp.ones(3), xnp.ones(4)), "xnp.vmap", "_add",
        "x: axis 0 of float64[3] has size 3", "y: axis 0 of float64[4] has size 4",
        "in_axes=None")
    assert "leaf" not in msg
    _raises(ValueError, lambda: wrap(lambda w, v: xnp.vmap(_scale)({"w": w}, v))(
        xnp.ones(3), xnp.ones((4, 2), np.float32)),
        "params['w']: axis 0 of float64[3]", "x: axis 0 of float32[4,2] has size 4")


@EAGER_AND_JIT
def test_vmap_keyword_arguments_are_mapped_over_axis_0(wrap):
    a, b = np.arange(3.0), np.arange(6.0).reshape(3, 2)
    out = wrap(lambda a, b: xnp.vmap(lambda x, y: x * y[1])(a, y=b))(a, b)
    np.testing.assert_allclose(np.asarray(out), a * b[:, 1])
    c = np.arange(9.0).reshape(3, 3)
    out = wrap(lambda a, c: xnp.vmap(_add, in_axes=(None,))(a, y=c))(a, c)  # x unmapped
    np.testing.assert_allclose(np.asarray(out), a[None, :] + c)
    out = wrap(lambda w, b: xnp.vmap(_scale)(params={"w": w}, x=b))(a, b[:, 0])
    np.testing.assert_allclose(np.asarray(out), a * b[:, 0])
    _raises(ValueError, lambda: wrap(lambda a, b: xnp.vmap(_add)(a, y=b))(a, np.ones(4)),
            "y: axis 0 of float64[4] has size 4")
    _raises(ValueError, lambda: wrap(lambda a: xnp.vmap(_add)(a, y=2.0))(a),
            "keyword arguments are mapped over axis 0", "argument y of _add", "float64[]")


def test_vmap_pytree_argument_with_default_in_axes():
    out = xnp.vmap(_scale)({"w": xnp.arange(3.0)}, xnp.ones(3))
    np.testing.assert_allclose(np.asarray(out), np.arange(3.0))
    out = xnp.vmap(_scale, in_axes=({"w": None}, 0))({"w": xnp.asarray(2.0)}, xnp.arange(3.0))
    np.testing.assert_allclose(np.asarray(out), 2 * np.arange(3.0))
    _raises(ValueError, lambda: xnp.vmap(_scale, in_axes=({"q": 0}, 0))(
        {"w": xnp.ones(3)}, xnp.ones(3)), "in_axes", "does not match the structure")


@EAGER_AND_JIT
def test_vmap_in_axes_out_of_range_names_argument(wrap):
    _raises(ValueError, lambda: wrap(lambda a, b: xnp.vmap(_add, in_axes=(0, 2))(a, b))(
        xnp.ones(3), xnp.ones(3)), "in_axes 2 is out of range for argument y of _add",
        "float64[3]", "rank 1")


@EAGER_AND_JIT
def test_vmap_out_axes_beyond_the_output_rank(wrap):
    _raises(ValueError, lambda: wrap(lambda a: xnp.vmap(lambda x: x * 2, out_axes=3)(a))(
        xnp.ones(3)), "out_axes=3 is out of range for output of <lambda>", "float64[]",
        "rank 1", "[-1, 1)")
    _raises(ValueError, lambda: wrap(lambda a: xnp.vmap(lambda x: {"a": x, "b": x[0]},
                                                        out_axes={"a": 1, "b": -2})(a))(
        xnp.ones((3, 2))), "out_axes=-2 is out of range for output['b']")
    _raises(ValueError, lambda: wrap(lambda a: xnp.vmap(lambda x: 1.0, in_axes=None, out_axes=1,
                                                        axis_size=2)(a))(xnp.ones(3)),
            "out_axes=1 is out of range")
    out = wrap(lambda a: xnp.vmap(lambda x: x, out_axes=-1)(a))(xnp.ones((3, 2)))
    assert out.shape == (2, 3)
    out = wrap(lambda a: xnp.vmap(lambda x: {"a": x, "b": x[0]}, out_axes={"a": 2, "b": -1})(a))(
        xnp.ones((3, 2, 4)))
    assert out["a"].shape == (2, 4, 3) and out["b"].shape == (4, 3)


# --------------------------------------------------------------------------- conversions


def _loop(x, n):
    for _ in range(n):
        x = x + 1.0
    return x


def test_range_of_a_traced_int_offers_static_and_fori_loop():
    msg = _raises(errors.TracerIntegerConversionError, lambda: xnp.jit(_loop)(xnp.ones(3), 3),
                  "The __index__() method was called on traced array with shape int64[]",
                  "argument n", "Fix: make `n` static: xnp.jit(_loop, static_argnames='n')",
                  "xnp.lax.fori_loop", "xnp.lax.while_loop")
    assert msg.count("Fix:") == 1
    np.testing.assert_allclose(np.asarray(xnp.jit(_loop, static_argnames="n")(xnp.ones(3), 3)),
                               4.0)


@pytest.mark.parametrize("convert,kind", [(int, "int"), (float, "float"), (complex, "complex")])
def test_python_number_conversions_offer_static_and_astype(convert, kind):
    _raises(errors.ConcretizationTypeError, lambda: xnp.jit(lambda x, n: x * convert(n))(
        xnp.ones(3), 2), f"the `{kind}` function", f"x.astype({kind})",
        "static_argnames='n'")


def test_bool_of_a_traced_python_number_offers_static_where_and_cond():
    _raises(errors.TracerBoolConversionError,
            lambda: xnp.jit(lambda x, neg: -x if neg else x)(xnp.ones(3), True),
            "Attempted boolean conversion of traced array with shape bool[]", "argument neg",
            "static_argnames='neg'", "xnp.where(cond, a, b)", "xnp.lax.cond(")


def test_no_static_fix_for_array_arguments_or_loop_bodies():
    msg = _raises(errors.TracerIntegerConversionError,
                  lambda: xnp.jit(lambda x: _loop(x, x.sum().astype(int)))(xnp.ones(3)),
                  "argument x", "xnp.lax.fori_loop")
    assert "static_argnames" not in msg  # an array cannot be static
    msg = _raises(errors.TracerBoolConversionError, lambda: lax.cond(
        True, lambda v: v if v > 0 else -v, lambda v: v, 1.0), "for cond", "xnp.where")
    assert "static_argnames" not in msg
    msg = _raises(errors.TracerBoolConversionError, lambda: xnp.vmap(
        lambda v: v if v > 0 else -v)(xnp.ones(3)), "for vmap", "xnp.where")
    assert "static_argnames" not in msg


def test_values_computed_from_constants_suggest_numpy():
    _raises(errors.ConcretizationTypeError,
            lambda: xnp.jit(lambda x: x * int(xnp.sum(xnp.ones(3))))(1.0),
            "the `int` function", "compute it with NumPy", "x.shape")


def test_numpy_conversion_offers_the_xnp_function():
    _raises(errors.TracerArrayConversionError, lambda: xnp.jit(np.sin)(xnp.ones(3)),
            "__array__() was called on traced array with shape float64[3]",
            "use the xnp function")


# --------------------------------------------------------------------------- leaked tracers

_LEAKS: list = []


class _Holder:
    pass


def _leak_global(x):
    y = x + 1.0
    _LEAKS.append(y)
    return y * 2.0


def _leak_attribute(holder):
    def step(x):
        y = x + 1.0
        holder.saved = y
        return y
    return step


def _leak_closure():
    box = {}

    def step(x):
        y = x * 3.0
        box["kept"] = y
        return y
    return step, box


_USES = {
    "float": (lambda t: float(t), errors.ConcretizationTypeError, "float()"),
    "int": (lambda t: int(t), errors.ConcretizationTypeError, "int()"),
    "complex": (lambda t: complex(t), errors.ConcretizationTypeError, "complex()"),
    "bool": (lambda t: bool(t), errors.TracerBoolConversionError, "bool()"),
    "index": (lambda t: range(t), errors.TracerIntegerConversionError, "__index__()"),
    "asarray": (lambda t: np.asarray(t), errors.TracerArrayConversionError, "numpy.asarray()"),
    "item": (lambda t: t.item(), errors.ConcretizationTypeError, "item()"),
    "tolist": (lambda t: t.tolist(), errors.ConcretizationTypeError, "tolist()"),
    "arithmetic": (lambda t: t + 1, None, "a later xnp operation"),
    "eager array arithmetic": (lambda t: xnp.ones(()) * t, None, "a later xnp operation"),
    "xnp function": (lambda t: xnp.sin(t), None, "a later xnp operation"),
    "comparison": (lambda t: bool(t > 0), None, "a later xnp operation"),
    "jit argument": (lambda t: xnp.jit(lambda z: z * 2.0)(t), None, "a call of xnp.jit"),
    "jit closure": (lambda t: xnp.jit(lambda z: z * t)(1.0), None, ""),
    "make_jaxpr closure": (lambda t: xnp.make_jaxpr(lambda z: z * t)(1.0), None, ""),
    "grad closure": (lambda t: xnp.grad(lambda z: z * t)(1.0), None, ""),
    "vmap closure": (lambda t: xnp.vmap(lambda z: z * t)(xnp.ones(2)), None, ""),
}


@pytest.mark.parametrize("use", list(_USES))
def test_leaked_tracer_is_detected_on_every_later_use(use):
    _LEAKS.clear()
    assert float(xnp.jit(_leak_global)(1.0)) == 4.0
    fn, also, said = _USES[use]
    with pytest.raises(errors.UnexpectedTracerError) as e:
        fn(_LEAKS[0])
    if also is not None:  # `except` clauses written for the live-tracer error still catch it
        assert isinstance(e.value, also)
    assert type(e.value).__name__ == "UnexpectedTracerError"
    msg = str(e.value)
    line = _leak_global.__code__.co_firstlineno
    for frag in ("Encountered an unexpected tracer", "float64[]",
                 f"_leak_global at test_error_messages.py:{line} traced for jit",
                 f"created on line {__file__}:{line + 1}", "(_leak_global)",
                 "The side effect that leaked it: it is stored in", "global variable `_LEAKS`",
                 "checking_leaks", said):
        assert frag in msg, f"{frag!r} not in:\n{msg}"
    _LEAKS.clear()


# each transform of _leak_global at x = 1.0 and its closed-form result: 2 * (x + 1), d/dx = 2
_LEAK_TRANSFORMS = {
    "vmap": (lambda f: xnp.vmap(f)(xnp.ones(3)), np.full(3, 4.0), "VmapTracer"),
    "grad": (lambda f: xnp.grad(f)(1.0), 2.0, "GradTracer"),
    "jvp": (lambda f: xnp.jvp(f, (1.0,), (1.0,))[1], 2.0, "JVPTracer"),
}


# the kind of later use: a conversion to a Python/NumPy value, an xnp operation, a jit call
_USE_KIND = {"float": "conversion", "int": "conversion", "bool": "conversion",
             "asarray": "conversion", "arithmetic": "operation",
             "eager array arithmetic": "operation", "jit argument": "jit", "jit closure": "jit"}


# sampled (all with --full-grid): each error is costly (its hint walks the garbage
# collector's referrers, a walk of the whole heap, slow on a worker that has run many
# tests); every use of the test above (jit traces) with one of the transforms, and each
# transform with each kind of use (a conversion, an xnp operation, a jit call)
@pytest.mark.parametrize("transform,use", [
    pytest.param(c.transform, c.use, id=f"{c.transform}-{c.use}") for c in covering_grid(
        n=10, seed=3, transform=list(_LEAK_TRANSFORMS), use=list(_USE_KIND),
        labels=lambda c: [c.transform, c.use, (c.transform, _USE_KIND[c.use])])])
def test_tracer_leaked_from_vmap_grad_jvp_names_function_and_creation_line(transform, use):
    _LEAKS.clear()
    run, expected, kind = _LEAK_TRANSFORMS[transform]
    np.testing.assert_array_equal(np.asarray(run(_leak_global)), expected)
    fn, also, said = _USES[use]
    with pytest.raises(errors.UnexpectedTracerError) as e:
        fn(_LEAKS[0])
    if also is not None:
        assert isinstance(e.value, also)
    msg = str(e.value)
    line = _leak_global.__code__.co_firstlineno
    for frag in ("Encountered an unexpected tracer", f"float64[] wrapped in a {kind}",
                 f"_leak_global at test_error_messages.py:{line} traced for {transform}",
                 f"created on line {__file__}:{line + 1}", "(_leak_global)",
                 "global variable `_LEAKS`", said):
        assert frag in msg, f"{frag!r} not in:\n{msg}"
    assert "checking_leaks" not in msg  # it checks jit and make_jaxpr traces only
    _LEAKS.clear()


def test_tracer_updated_in_place_under_vmap_names_the_update_line():
    kept = []

    def f(x):
        y = x * 1.0
        y += 2.0
        kept.append(y)
        return y

    np.testing.assert_array_equal(np.asarray(xnp.vmap(f)(xnp.ones(2))), np.full(2, 3.0))
    line = f.__code__.co_firstlineno
    _raises(errors.UnexpectedTracerError, lambda: float(kept[0]),
            f"created on line {__file__}:{line + 2}", "(f)", "traced for vmap")


def test_leak_side_effect_names_attribute_and_closure():
    holder = _Holder()
    xnp.jit(_leak_attribute(holder))(1.0)
    msg = _raises(errors.UnexpectedTracerError, lambda: float(holder.saved),
                  "the attribute `.saved` of a _Holder object", "It was used by float()")
    step, box = _leak_closure()
    xnp.jit(step)(1.0)
    _raises(errors.UnexpectedTracerError, lambda: box["kept"] + 1,
            "a dict held by the closure variable `box` of function", "(step)")
    del msg


def test_leak_out_of_vmap_and_grad():
    kept = []

    def mapped(v):
        y = v * 2.0
        kept.append(y)
        return y

    xnp.vmap(mapped)(xnp.ones(3))
    _raises(errors.UnexpectedTracerError, lambda: float(kept[0]), "Encountered an unexpected "
            "tracer", "float64[]", "mapped at test_error_messages.py:", "traced for vmap")
    _raises(errors.UnexpectedTracerError, lambda: kept[0] + 1, "mapped")
    kept.clear()

    def scalar(v):
        y = v * 2.0
        kept.append(y)
        return y

    xnp.grad(scalar)(1.0)
    for use in (lambda: bool(kept[0]), lambda: float(kept[0]), lambda: kept[0] + 1):
        _raises(errors.UnexpectedTracerError, use, "Encountered an unexpected tracer",
                "scalar at test_error_messages.py:", "traced for grad")
    kept.clear()
    xnp.jvp(scalar, (1.0,), (1.0,))
    _raises(errors.UnexpectedTracerError, lambda: kept[0] * 2, "scalar at", "traced for jvp")


# --------------------------------------------------------------------------- jit arguments


def _two(x, y):
    return x + y


def test_jit_rejects_donate_argnums_out_of_range_at_wrap_time():
    _raises(ValueError, lambda: xnp.jit(_two, donate_argnums=5),
            "donate_argnums=(5,), but only accepts 2 positional arguments")
    _raises(ValueError, lambda: xnp.jit(_two, donate_argnums=(0, -3)), "donate_argnums=(0, -3)")
    _raises(ValueError, lambda: xnp.jit(_two, donate_argnums=1, static_argnums=1),
            "both static", "donated")
    _raises(TypeError, lambda: xnp.jit(_two, donate_argnums="x"), "donate_argnums must be")
    out = xnp.jit(_two, donate_argnums=-1)(xnp.ones(2), xnp.ones(2))  # counts from the end
    np.testing.assert_allclose(np.asarray(out), 2.0)


def test_jit_of_star_args_checks_donate_argnums_on_the_first_call():
    f = xnp.jit(lambda *a: a[0] * 2.0, donate_argnums=2)
    _raises(ValueError, lambda: f(xnp.ones(2)), "donate_argnums=(2,)",
            "called with 1 positional arguments")
    np.testing.assert_allclose(np.asarray(f(xnp.ones(2), 1.0, xnp.ones(2))), 2.0)


def test_jit_rejects_unknown_static_argnames():
    for make in (xnp.jit, xnp.make_jaxpr):
        _raises(ValueError, lambda: make(_two, static_argnames="z"),
                "invalid argnames ['z'] in static_argnames", "parameters are ['x', 'y']")
    _raises(ValueError, lambda: xnp.jit(_two, static_argnames=("y", "zz")), "['zz']")
    _raises(TypeError, lambda: xnp.jit(_two, static_argnames=3), "static_argnames must be")
    _raises(ValueError, lambda: xnp.jit(_two, static_argnums=2), "static_argnums=(2,)")
    f = xnp.jit(lambda x, **kw: x * kw["k"], static_argnames="k")  # **kwargs takes any name
    assert float(f(2.0, k=3)) == 6.0


# --------------------------------------------------------------------------- data-dependent shapes


def test_traced_slice_bound_offers_static_and_dynamic_slice():
    _raises(IndexError, lambda: xnp.jit(lambda x, n: x[:n])(xnp.ones(3), 2),
            "Slice entries must be static integers", "argument n",
            "static_argnames='n'", "xnp.lax.dynamic_slice", "xnp.where(")
    msg = _raises(IndexError, lambda: lax.fori_loop(  # a loop body: traced also eagerly
        0, 2, lambda i, x: x.at[0].set(x[:i].sum()), xnp.ones(3)), "xnp.lax.dynamic_slice")
    assert "static_argnames" not in msg


def test_nonzero_without_size_offers_size_and_where():
    _raises(errors.ConcretizationTypeError, lambda: xnp.jit(lambda x: xnp.nonzero(x))(
        xnp.ones(3)), "The size argument of xnp.nonzero must be statically specified",
            "argument x", "Fix: pass `size=`", "fill_value=", "xnp.where")


def test_boolean_mask_offers_where_and_nonzero_size():
    _raises(errors.NonConcreteBooleanIndexError, lambda: xnp.jit(lambda x: x[x > 0])(
        xnp.ones(3)), "Array boolean indices must be concrete; got bool[3]", "argument x",
            "xnp.where(mask, x, fill)", "size=")
    _raises(errors.NonConcreteBooleanIndexError, lambda: xnp.vmap(lambda x: x[x > 0])(
        xnp.ones((2, 3))), "got bool[3]", "for vmap")


# --------------------------------------------------------------------------- lax rule errors

_SHORT_DTYPE = re.compile(r"\b(f|i|u|c|bf)\d+\[|\bpred\[")


def _op_table_errors():
    from tests.lax.op_table import all_records

    return [pytest.param(rec, i, id=f"{rec.name}-err{i}") for rec in all_records()
            for i in range(len(rec.errors))]


@pytest.mark.parametrize("rec,i", _op_table_errors())
def test_lax_rule_errors_use_full_dtype_names(rec, i):
    """Every shape/dtype-rule error of the op table, eagerly and under jit, names avals with
    NumPy's dtype names (``float64[3]``), never the jaxpr printer's ``f64[3]``."""
    args, exc, _ = rec.errors[i]
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    runs = (("eager", lambda: rec.fun(*xargs)), ("jit", lambda: xnp.jit(rec.fun)(*args)))
    for label, run in runs:
        with pytest.raises(exc) as e:
            run()
        msg = str(e.value)
        assert not _SHORT_DTYPE.search(msg), f"{rec.name} ({label}): short dtype name in:\n{msg}"


def test_one_array_donated_and_passed_twice_is_a_clear_error():
    a = xnp.arange(4.0)
    for donate in ((0, 1), (0,), (1,)):
        _raises(ValueError, lambda: xnp.jit(lambda p, q: p + q, donate_argnums=donate)(a, a),
                "a donated buffer must be passed once")
    np.testing.assert_array_equal(np.asarray(a), np.arange(4.0))  # nothing was donated
    b = xnp.arange(4.0)
    out = xnp.jit(lambda p, q: p + q, donate_argnums=0)(b, b.copy())
    np.testing.assert_array_equal(np.asarray(out), 2 * np.arange(4.0))
    assert repr(b) == "Array(shape=(4,), dtype=float64, donated)"
    with pytest.raises(xnp.errors.DonatedArrayError, match="was donated"):
        np.asarray(b)
