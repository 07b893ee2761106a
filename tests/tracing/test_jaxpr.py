"""The jaxpr IR: pretty-printer golden strings (JAX's token order and notation), variable naming,
literals, the type checker, and ``eval_jaxpr(make_jaxpr(f)) == f`` round trips."""

import functools

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xnp
from xnp import lax
from xnp.tracing import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, ShapedArray, Var, eval_jaxpr
from xnp.tracing.jaxpr import JaxprTypeError, pp_eqn, typecheck_jaxpr


def norm(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- printer


def test_golden_multiline_layout():
    j = xnp.make_jaxpr(lambda x: lax.neg(lax.reduce_sum(x, (0,))))(np.ones((3, 4), np.float32))
    assert str(j) == (
        "{ lambda ; a:f32[3,4]. let\n"
        "    b:f32[4] = reduce_sum[axes=(0,)] a\n"
        "    c:f32[4] = neg b\n"
        "  in (c,) }"
    )


def test_golden_no_equations():
    j = xnp.make_jaxpr(lambda x, y: (y, x))(np.ones(2), np.ones((), np.int32))
    assert str(j) == "{ lambda ; a:f64[2] b:i32[]. let  in (b, a) }"


def test_golden_constvars_before_semicolon():
    c = np.arange(3.0)
    j = xnp.make_jaxpr(lambda x: x + c)(np.ones(3))
    assert str(j) == "{ lambda a:f64[3]; b:f64[3]. let\n    c:f64[3] = add b a\n  in (c,) }"
    assert len(j.consts) == 1 and j.jaxpr.constvars[0].aval == ShapedArray((3,), np.float64)


def test_golden_several_outputs_and_params():
    def f(x):
        s = lax.reduce_sum(x, (0, 1))
        i = lax.convert_element_type(x, np.int32)
        return x, s, i

    j = xnp.make_jaxpr(f)(np.ones((2, 3)))
    assert str(j) == (
        "{ lambda ; a:f64[2,3]. let\n"
        "    b:f64[] = reduce_sum[axes=(0, 1)] a\n"
        "    c:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] a\n"
        "  in (a, b, c) }"
    )


def test_golden_long_equation_puts_params_on_lines():
    x = np.ones((3, 4))
    y = np.ones(4)
    j = xnp.make_jaxpr(lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ())),
                                                    preferred_element_type=np.float64))(x, y)
    assert str(j) == (
        "{ lambda ; a:f64[3,4] b:f64[4]. let\n"
        "    c:f64[3] = dot_general[\n"
        "      dimension_numbers=(([1], [0]), ([], []))\n"
        "      preferred_element_type=float64\n"
        "    ] a b\n"
        "  in (c,) }"
    )


def test_golden_nested_jit():
    inner = xnp.jit(lambda x: lax.mul(x, x))
    inner.__name__ = "sq"
    j = xnp.make_jaxpr(lambda x: lax.neg(inner(x)))(np.ones(2))
    assert str(j) == (
        "{ lambda ; a:f64[2]. let\n"
        "    b:f64[2] = jit[\n"
        "      name=<lambda>\n"
        "      jaxpr={ lambda ; a:f64[2]. let\n"
        "          b:f64[2] = mul a a\n"
        "        in (b,) }\n"
        "    ] a\n"
        "    c:f64[2] = neg b\n"
        "  in (c,) }"
    )


def test_var_names_run_past_z():
    def chain(x):
        for _ in range(30):
            x = lax.neg(x)
        return x

    j = xnp.make_jaxpr(chain)(1.0)
    names = [line.split(":")[0].strip() for line in str(j).splitlines()[1:-1]]
    expected = [chr(ord("b") + i) for i in range(25)] + ["ba", "bb", "bc", "bd", "be"]
    assert names == expected
    assert norm(str(j)).endswith("in (be,) }")


def test_dropped_output_prints_underscore():
    a = Var(ShapedArray((), np.float64))
    b = Var(ShapedArray((), np.float64))
    eqn = JaxprEqn(lax.neg_p, [a], {}, [b])
    jaxpr = Jaxpr([], [a], [eqn], [a])
    assert "b:f64[] = neg a" in str(jaxpr)
    eqn.outvars = [None]
    assert pp_eqn(eqn) == "_ = neg a"


@pytest.mark.parametrize("value,expected", [
    (1.0, "1.0:f64[]"),
    (2.5, "2.5:f64[]"),
    (2, "2:i64[]"),
    (True, "True:bool[]"),
    (1j, "1j:c128[]"),
    (np.float32(0.5), "0.5:f32[]"),
    (np.int8(-3), "-3:i8[]"),
    (np.uint32(7), "7:u32[]"),
])
def test_literals_carry_their_type(value, expected):
    # a test-only primitive, traced (never run): its operand is a scalar constant
    probe_p = xnp.tracing.Primitive("probe", shape=lambda x: x.shape, dtype=lambda x: x.dtype)
    j = xnp.make_jaxpr(lambda: probe_p.bind(value))()
    assert expected in str(j)
    lit = j.eqns[0].invars[0]
    assert type(lit) is Literal and str(lit) == expected
    typecheck_jaxpr(j.jaxpr)


def test_python_scalar_literals_in_arithmetic():
    assert norm(str(xnp.make_jaxpr(lambda x: x * 2)(3))) == (
        "{ lambda ; a:i64[]. let b:i64[] = mul a 2:i64[] in (b,) }")
    assert norm(str(xnp.make_jaxpr(lambda x: x + 1.0)(np.ones(2)))) == (
        "{ lambda ; a:f64[2]. let b:f64[2] = add a 1.0:f64[] in (b,) }")
    assert norm(str(xnp.make_jaxpr(lambda x: x > 0)(np.ones(2)))).startswith(
        "{ lambda ; a:f64[2]. let b:bool[2] = gt a ")


def test_closed_jaxpr_api():
    j = xnp.make_jaxpr(lambda x, y: lax.add(x, y))(np.ones(2), np.ones(2))
    assert type(j) is ClosedJaxpr and type(j.jaxpr) is Jaxpr
    assert str(j) == repr(j) == str(j.jaxpr)
    assert j.consts == []
    assert [e.primitive.name for e in j.eqns] == ["add"]
    assert repr(j.in_avals) == "[ShapedArray(float64[2]), ShapedArray(float64[2])]"
    assert repr(j.out_avals) == "[ShapedArray(float64[2])]"
    eqn = j.eqns[0]
    assert repr(eqn) == "a:f64[2] = add b c"  # an equation alone is named on its own


# --------------------------------------------------------------------------- typecheck


def _good_jaxpr():
    return xnp.make_jaxpr(lambda x: lax.neg(lax.add(x, x)))(np.ones(3)).jaxpr


def test_typecheck_accepts_traced_jaxprs():
    typecheck_jaxpr(_good_jaxpr())
    inner = xnp.jit(lambda x: lax.mul(x, 2.0))
    typecheck_jaxpr(xnp.make_jaxpr(lambda x: inner(x))(np.ones(3)).jaxpr)


def test_typecheck_wrong_output_type():
    j = _good_jaxpr()
    j.eqns[0].outvars[0].aval = ShapedArray((4,), np.float64)
    with pytest.raises(JaxprTypeError, match="add"):
        typecheck_jaxpr(j)


def test_typecheck_use_before_definition():
    j = _good_jaxpr()
    j.eqns.reverse()
    with pytest.raises(JaxprTypeError, match="before definition"):
        typecheck_jaxpr(j)


def test_typecheck_undefined_outvar():
    j = _good_jaxpr()
    j.outvars = [Var(ShapedArray((3,), np.float64))]
    with pytest.raises(JaxprTypeError, match="before definition"):
        typecheck_jaxpr(j)


def test_typecheck_double_binding():
    j = _good_jaxpr()
    j.eqns[1].outvars = list(j.eqns[0].outvars)
    with pytest.raises(JaxprTypeError, match="bound twice"):
        typecheck_jaxpr(j)


def test_typecheck_bad_literal():
    j = xnp.make_jaxpr(lambda x: lax.add(x, 1.0))(np.ones(3)).jaxpr
    lit = j.eqns[0].invars[1]
    j.eqns[0].invars[1] = Literal(np.asarray(1, np.int64), lit.aval)
    with pytest.raises(JaxprTypeError, match="literal"):
        typecheck_jaxpr(j)


def test_typecheck_rule_error_and_dtype_mismatch():
    a = Var(ShapedArray((3,), np.float64))
    b = Var(ShapedArray((3,), np.float32))
    c = Var(ShapedArray((3,), np.float64))
    j = Jaxpr([], [a, b], [JaxprEqn(lax.add_p, [a, b], {}, [c])], [c])
    with pytest.raises(TypeError, match="add"):
        typecheck_jaxpr(j)


def test_typecheck_checks_sub_jaxprs():
    inner = xnp.jit(lambda x: lax.neg(x))
    j = xnp.make_jaxpr(lambda x: inner(x))(np.ones(3)).jaxpr
    sub = j.eqns[0].params["jaxpr"].jaxpr
    sub.eqns[0].outvars[0].aval = ShapedArray((3,), np.float32)
    with pytest.raises(JaxprTypeError, match="neg"):
        typecheck_jaxpr(j)


def test_typecheck_rejects_non_int_shape_entries():
    a = Var(ShapedArray((3,), np.float64))
    b = Var(ShapedArray((3,), np.float64))
    bad = xnp.tracing.Primitive("bad_shape", shape=lambda x: (np.int64(3),),
                                dtype=lambda x: x.dtype)
    j = Jaxpr([], [a], [JaxprEqn(bad, [a], {}, [b])], [b])
    with pytest.raises(JaxprTypeError, match="Python ints"):
        typecheck_jaxpr(j)


def test_eval_jaxpr_argument_count():
    j = xnp.make_jaxpr(lambda x: lax.neg(x))(np.ones(3))
    with pytest.raises(TypeError, match="expected 0 consts and 1 args"):
        eval_jaxpr(j.jaxpr, j.consts)


# --------------------------------------------------------------------------- round trips


def _f_arith(x, y):
    return lax.add(lax.mul(x, y), lax.neg(x)), lax.gt(x, y)


def _f_reduce(x, y):
    s = lax.reduce_sum(lax.sub(x, y), tuple(range(x.ndim)))
    return lax.mul(s, 2.0), lax.convert_element_type(lax.gt(x, 0.0), np.int32)


def _f_consts(x, y):
    c = np.full(x.shape, 3.0)
    return lax.add(lax.mul(x, c), xnp.asarray(c)), y


def _f_nested_jit(x, y):
    return xnp.jit(lambda a, b: lax.sub(a, b))(lax.neg(x), y)


FUNS = [_f_arith, _f_reduce, _f_consts, _f_nested_jit]

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)


@st.composite
def _two_arrays(draw):
    shape = draw(_shapes)
    elems = st.floats(-10, 10, allow_nan=False, width=64)
    x = draw(hnp.arrays(np.float64, shape, elements=elems))
    y = draw(hnp.arrays(np.float64, shape, elements=elems))
    return x, y


@pytest.mark.parametrize("fun", FUNS, ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(xy=_two_arrays())
def test_eval_jaxpr_round_trip(fun, xy):
    x, y = xy
    closed = xnp.make_jaxpr(fun)(x, y)
    typecheck_jaxpr(closed.jaxpr)
    got = eval_jaxpr(closed.jaxpr, closed.consts, xnp.asarray(x), xnp.asarray(y))
    expected = xnp.tree_util.tree_leaves(fun(xnp.asarray(x), xnp.asarray(y)))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g, e = np.asarray(g), np.asarray(e)
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-13, atol=1e-13)
    # the jaxpr re-traces: eval_jaxpr under make_jaxpr prints the same program
    again = xnp.make_jaxpr(functools.partial(eval_jaxpr, closed.jaxpr, closed.consts))(x, y)
    assert [e.primitive for e in again.eqns] == [e.primitive for e in closed.eqns]


def test_eval_jaxpr_keeps_weak_types_and_wraps_literal_outputs():
    j = xnp.make_jaxpr(lambda x: lax.mul(x, 2.0))(1.0)
    (out,) = eval_jaxpr(j.jaxpr, j.consts, 1.0)
    direct = lax.mul(1.0, 2.0)
    assert type(out) is xnp.Array and out.weak_type is True and direct.weak_type is True
    assert float(out) == 2.0
    j2 = xnp.make_jaxpr(lambda x: (x, 0.5, np.float32(2)))(1.0)
    _, half, two = eval_jaxpr(j2.jaxpr, j2.consts, 1.0)
    assert type(half) is xnp.Array and half.weak_type and half.dtype == np.float64
    assert type(two) is xnp.Array and not two.weak_type and two.dtype == np.float32
    # staged again, the literals stay literals
    again = xnp.make_jaxpr(lambda x: eval_jaxpr(j2.jaxpr, j2.consts, x))(1.0)
    assert norm(str(again)) == "{ lambda ; a:f64[]. let in (a, 0.5:f64[], 2.0:f32[]) }"
