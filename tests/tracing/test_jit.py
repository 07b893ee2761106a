"""xnp.jit: cache keys and trace counts, static arguments, log_compiles, bounded cache,
donation, in-place updates of arguments, lower/compile/trace/eval_shape, nesting, errors."""

import functools

import numpy as np
import pytest

import xnp
from xnp import lax


class Count:
    def __init__(self):
        self.n = 0

    def hit(self):
        self.n += 1


def norm(text: str) -> str:
    return " ".join(text.split())


def counted(**jit_kwargs):
    c = Count()

    def deco(f):
        @functools.wraps(f)
        def body(*a, **k):
            c.hit()
            return f(*a, **k)

        return xnp.jit(body, **jit_kwargs), c

    return deco


# --------------------------------------------------------------------------- cache keys


def test_no_retrace_on_equal_avals():
    f, c = counted()(lambda x, y: lax.add(x, y))
    f(np.ones(3), np.ones(3))
    f(np.zeros(3), np.full(3, 2.0))  # new values, same avals
    f(xnp.asarray(np.ones(3)), np.ones(3))  # xnp array with the same aval
    out = f(np.ones(3), np.arange(3.0))
    assert c.n == 1 and f.trace_count == 1
    np.testing.assert_array_equal(np.asarray(out), [1.0, 2.0, 3.0])


def test_retrace_on_new_shape_dtype_weak_type():
    f, c = counted()(lambda x: lax.mul(x, x))
    f(np.ones(3))
    assert c.n == 1
    f(np.ones(4))  # shape
    assert c.n == 2
    f(np.ones(4, np.float32))  # dtype
    assert c.n == 3
    f(2.0)  # weak float64[]
    assert c.n == 4
    f(np.float64(2.0))  # strong float64[]: a different entry from the weak one
    assert c.n == 5
    f(3.0)
    f(np.float64(5.0))
    assert c.n == 5
    f(2)  # weak int64[]
    f(np.int64(2))
    assert c.n == 7


def test_float32_input_is_not_downcast_or_upcast():
    f = xnp.jit(lambda x: lax.add(x, x))
    assert f(np.ones(2, np.float32)).dtype == np.float32
    assert f(np.ones(2, np.float64)).dtype == np.float64
    assert f.trace_count == 2


def test_retrace_on_tree_structure():
    f, c = counted()(lambda t: t[0])
    f((np.ones(2), np.ones(2)))
    f((np.zeros(2), np.zeros(2)))
    assert c.n == 1
    f([np.ones(2), np.ones(2)])  # list instead of tuple
    assert c.n == 2
    f((np.ones(2), np.ones(2), np.ones(2)))  # arity
    assert c.n == 3
    g, cg = counted()(lambda d: d["a"])
    g({"a": np.ones(2), "b": np.ones(2)})
    g({"a": np.ones(2), "c": np.ones(2)})  # other key
    assert cg.n == 2


def test_static_value_compared_by_type_S16():
    f, c = counted(static_argnames="neg")(lambda x, neg: lax.neg(x) if neg else x)
    f(1.0, neg=True)
    f(1.0, neg=True)
    assert c.n == 1
    f(1.0, neg=1)  # True == 1 and hash equal, but a different type
    assert c.n == 2
    f(1.0, neg=1.0)
    assert c.n == 3


def test_new_static_value_retraces_S14():
    f, c = counted(static_argnums=(1,))(lambda x, neg: lax.neg(x) if neg else x)
    table = [((1, True), -1, 1), ((1, True), -1, 1), ((2, True), -2, 1), ((1, False), 1, 2),
             ((1, False), 1, 2), ((1.5, False), 1.5, 3)]
    for args, result, count in table:
        assert float(f(*args)) == result
        assert c.n == count, args


def test_keyword_and_positional_static_are_separate_entries():
    def g(x, neg):
        return lax.neg(x) if neg else x

    f, c = counted(static_argnums=1)(g)
    f(1.0, True)
    f(1.0, neg=True)
    assert c.n == 2
    f(1.0, neg=True)
    assert c.n == 2


def test_static_argnames_and_argnums_inference():
    def g(x, neg):
        return lax.neg(x) if neg else x

    assert float(xnp.jit(g, static_argnums=1)(1.0, neg=True)) == -1.0
    assert float(xnp.jit(g, static_argnames="neg")(1.0, True)) == -1.0
    assert float(xnp.jit(g, static_argnums=-1)(1.0, True)) == -1.0
    with pytest.raises(xnp.errors.TracerBoolConversionError):
        xnp.jit(g, static_argnums=1, static_argnames=())(1.0, neg=True)
    with pytest.raises(xnp.errors.TracerBoolConversionError):
        xnp.jit(g, static_argnums=(), static_argnames="neg")(1.0, True)


def test_keyword_dynamic_arguments():
    f, c = counted()(lambda x, y: lax.sub(x, y))
    assert float(f(3.0, y=1.0)) == 2.0
    assert float(f(x=3.0, y=1.0)) == 2.0
    assert float(f(3.0, 1.0)) == 2.0
    assert c.n == 3  # three argument structures


# --------------------------------------------------------------------------- log_compiles


def test_log_compiles_prints_compile_and_retrace_reason(capsys):
    def body(x, y):
        return lax.mul(x, y)

    f = xnp.jit(body)
    with xnp.config.override(log_compiles=True):
        f(np.ones(3), np.ones(3))
        f(np.ones(3), np.ones(3))
        f(np.ones(4), np.ones(4))
        f(np.ones(4, np.float32), np.ones(4, np.float32))
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3, err
    assert "compiling body" in err[0] and "first call" in err[0] and "float64[3]" in err[0]
    assert "retrace" in err[1] and "argument x changed from float64[3] to float64[4]" in err[1]
    assert "argument y changed" in err[1]
    assert "float32[4]" in err[2]


def test_log_compiles_names_static_change(capsys):
    f = xnp.jit(lambda x, n: lax.mul(x, float(n)), static_argnums=1)
    with xnp.config.override(log_compiles=True):
        f(1.0, 2)
        f(1.0, 3)
    err = capsys.readouterr().err
    assert "static argument" in err and "from 2 to 3" in err


def test_log_compiles_off_prints_nothing(capsys):
    xnp.jit(lambda x: lax.neg(x))(np.ones(2))
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


# --------------------------------------------------------------------------- bounded cache


def test_bounded_cache():
    f, c = counted()(lambda x: lax.neg(x))
    with xnp.config.override(jit_cache_size=2):
        f(np.ones(1))
        f(np.ones(2))
        f(np.ones(1))
        f(np.ones(2))
        assert c.n == 2
        f(np.ones(3))  # evicts the least recently used entry (shape 1)
        assert c.n == 3
        f(np.ones(1))
        assert c.n == 4


# --------------------------------------------------------------------------- donation


def test_donated_array_becomes_invalid():
    f = xnp.jit(lambda x: lax.mul(x, 2.0), donate_argnums=0)
    a = xnp.asarray(np.ones(3))
    out = f(a)
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0, 2.0])
    with pytest.raises(RuntimeError, match="donated"):
        np.asarray(a)
    with pytest.raises(RuntimeError, match="donated"):
        a + 1
    # the result can itself be donated on
    out2 = f(out)
    np.testing.assert_array_equal(np.asarray(out2), [4.0, 4.0, 4.0])


def test_donated_numpy_argument_stays_valid():
    f = xnp.jit(lambda x: lax.mul(x, 2.0), donate_argnums=(0,))
    a = np.ones(3)
    f(a)
    np.testing.assert_array_equal(a, np.ones(3))


# --------------------------------------------------------------------------- in-place updates


def _set_first(x):
    x[0] = 5.0
    return x.sum()


@pytest.mark.parametrize("kind", ["xnp", "numpy"])
def test_inplace_update_of_argument_writes_back(kind):
    make = (lambda v: xnp.asarray(np.array(v))) if kind == "xnp" else (lambda v: np.array(v))
    eager_arg = make([1.0, 2.0, 3.0])
    eager = _set_first(eager_arg)
    jit_arg = make([1.0, 2.0, 3.0])
    out = xnp.jit(_set_first)(jit_arg)
    np.testing.assert_array_equal(np.asarray(jit_arg), np.asarray(eager_arg))
    np.testing.assert_array_equal(np.asarray(jit_arg), [5.0, 2.0, 3.0])
    assert float(out) == float(eager) == 10.0


def _add_one_in_place(x):
    xnp.add(x, 1.0, out=x)
    return lax.reduce_sum(x, (0,))


def test_inplace_update_writes_back_on_cached_calls():
    jf = xnp.jit(_set_first)
    for _ in range(3):  # the 2nd and 3rd calls hit the compiled cache
        a = np.array([1.0, 2.0, 3.0])
        assert float(jf(a)) == 10.0
        np.testing.assert_array_equal(a, [5.0, 2.0, 3.0])
    f = xnp.jit(_add_one_in_place)
    a = np.zeros(3)
    results = [float(f(a)) for _ in range(3)]
    assert results == [3.0, 6.0, 9.0]
    np.testing.assert_array_equal(a, [3.0, 3.0, 3.0])


def test_inplace_update_first_call_writes_back():
    f = xnp.jit(_add_one_in_place)
    a = xnp.asarray(np.zeros(3))
    assert float(f(a)) == 3.0
    np.testing.assert_array_equal(np.asarray(a), [1.0, 1.0, 1.0])
    b = np.zeros(3)
    assert float(f(b)) == 3.0
    np.testing.assert_array_equal(b, [1.0, 1.0, 1.0])


# --------------------------------------------------------------------------- lower / compile


def test_lower_compile_text_and_cost():
    f = xnp.jit(lambda x, y: lax.add(lax.mul(x, y), 1.0))
    lo = f.lower(np.ones(3), np.ones(3))
    text = lo.as_text()
    assert "func.func public @main" in text and "stablehlo.multiply" in text
    assert "stablehlo.add" in text and "tensor<3xf64>" in text
    compiled = lo.compile()
    hlo = compiled.as_text()
    assert "HloModule" in hlo and "f64[3]" in hlo
    cost = compiled.cost_analysis()
    assert isinstance(cost, dict) and cost.get("flops", 0) > 0
    assert f.trace_count == 1  # lowering traces once; calling reuses the trace
    f(np.ones(3), np.ones(3))
    assert f.trace_count == 1


def test_trace_jaxpr():
    f = xnp.jit(lambda x, y: lax.add(lax.mul(x, y), 1.0))
    traced = f.trace(np.ones(3), 2.0)
    assert norm(str(traced.jaxpr)) == (
        "{ lambda ; a:f64[3] b:f64[]. let c:f64[3] = mul a b d:f64[3] = add c 1.0:f64[] in (d,) }")
    assert "stablehlo.add" in traced.lower().as_text()


def test_eval_shape():
    def f(x, y):
        return {"s": lax.reduce_sum(x, (0,)), "p": (lax.mul(x, y), lax.gt(x, y))}

    f = xnp.jit(f)
    shapes = f.eval_shape(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
    S = xnp.ShapeDtypeStruct
    assert shapes == {"s": S((3,), np.float32),
                      "p": (S((2, 3), np.float32), S((2, 3), np.bool_))}


def test_eval_shape_accepts_shape_dtype_struct():
    f = xnp.jit(lambda x: xnp.multiply(x, 2.0))
    out = f.eval_shape(xnp.ShapeDtypeStruct((2, 3), np.float32))
    assert out == xnp.ShapeDtypeStruct((2, 3), np.float32)


# --------------------------------------------------------------------------- nesting, outputs


def test_nested_jit_is_one_equation():
    inner = xnp.jit(lambda x: lax.mul(x, lax.add(1, 1)))
    outer = xnp.jit(lambda x: lax.neg(inner(x)))
    j = outer.trace(3).jaxpr
    assert [e.primitive.name for e in j.eqns] == ["jit", "neg"]
    assert norm(str(j)) == norm("""
        { lambda ; a:i64[]. let
            b:i64[] = jit[
              name=<lambda>
              jaxpr={ lambda ; a:i64[]. let
                  c:i64[] = add 1:i64[] 1:i64[]
                  b:i64[] = mul a c
                in (b,) }
            ] a
            d:i64[] = neg b
          in (d,) }""")  # one naming context: the inner jaxpr used c
    assert int(outer(3)) == -6


def test_nested_jit_closing_over_outer_tracer():
    def outer(x, y):
        return xnp.jit(lambda z: lax.mul(z, y))(x)

    assert float(xnp.jit(outer)(2.0, 3.0)) == 6.0
    j = xnp.make_jaxpr(outer)(2.0, 3.0)
    assert [e.primitive.name for e in j.eqns] == ["jit"]


def test_scalar_outputs_are_0d_arrays():
    out = xnp.jit(lambda x: lax.mul(x, 2.0))(3.0)
    assert type(out) is xnp.Array and out.shape == () and out.dtype == np.float64
    assert float(out) == 6.0 and int(out) == 6 and bool(out)
    const = xnp.jit(lambda x: 0.0)(3.0)  # a Python float returned: still a 0-d array
    assert type(const) is xnp.Array and const.shape == () and float(const) == 0.0
    i = xnp.jit(lambda x: 7)(3.0)
    assert type(i) is xnp.Array and i.dtype == np.int64 and int(i) == 7


def test_pytree_outputs_and_none():
    out = xnp.jit(lambda x: (x, [lax.neg(x)], {"n": None}))(np.ones(2))
    assert isinstance(out, tuple) and isinstance(out[1], list) and out[2] == {"n": None}
    assert all(type(v) is xnp.Array for v in (out[0], out[1][0]))


def test_wrapped_and_no_arguments():
    def f():
        return lax.add(1.0, 2.0)

    jf = xnp.jit(f)
    assert jf.__wrapped__ is f and jf.__name__ == "f"
    assert float(jf()) == 3.0 and float(jf()) == 3.0
    assert jf.trace_count == 1


def test_jit_of_method():
    class M:
        def __init__(self, k):
            self.k = k

        @functools.partial(xnp.jit, static_argnums=0)
        def scale(self, x):
            return lax.mul(x, float(self.k))

        def __hash__(self):
            return hash(self.k)

        def __eq__(self, other):
            return type(other) is M and other.k == self.k

    assert float(M(3).scale(2.0)) == 6.0


def test_jit_rejects_non_callable():
    with pytest.raises(TypeError, match="callable"):
        xnp.jit(3)


# --------------------------------------------------------------------------- argument errors


def test_non_array_argument_names_path_S17():
    with pytest.raises(TypeError) as e:
        xnp.jit(lambda x, s: x)(1, "abc")
    msg = str(e.value)
    assert "path s" in msg and "str" in msg
    assert "static_argnums" in msg and "static_argnames" in msg
    with pytest.raises(TypeError, match=r"path s\['k'\]\[1\]"):
        xnp.jit(lambda x, s: x)(1, {"k": [np.ones(1), "abc"]})
    with pytest.raises(TypeError, match="path s"):
        xnp.jit(lambda x, s: x)(1, s=object())


@pytest.mark.parametrize("value,type_name", [([1], "list"), (np.ones(2), "numpy.ndarray"),
                                             ({"a": 1}, "dict")])
def test_unhashable_static_argument_S17(value, type_name):
    with pytest.raises(ValueError) as e:
        xnp.jit(lambda x, s: x, static_argnums=1)(1.0, value)
    assert "Non-hashable static arguments are not supported" in str(e.value)
    assert type_name in str(e.value)


def test_unhashable_xnp_array_static_argument_S17():
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        xnp.jit(lambda x, s: x, static_argnums=1)(1.0, xnp.asarray(np.ones(2)))


def test_static_argnums_out_of_range_S17():
    def f(x, neg):
        return x

    with pytest.raises(ValueError) as e:
        xnp.jit(f, static_argnums=5)(1.0, True)
    assert "static_argnums=(5,)" in str(e.value)
    assert "only accepts 2 positional arguments" in str(e.value)


def test_python_int_out_of_range_argument():
    with pytest.raises(OverflowError):
        xnp.jit(lambda x: x)(2**70)


def test_unsupported_dtype_argument_message_names_dtype():
    with pytest.raises(TypeError, match="dtype"):
        xnp.jit(lambda x: x)(np.array(["a"]))


def test_mutated_argument_aliasing_another_argument_raises():
    def f(a, b):
        a += 1
        return b

    a = xnp.zeros(3)
    with pytest.raises(NotImplementedError, match="shares memory"):
        xnp.jit(f)(a, a)
    np.testing.assert_array_equal(np.asarray(a), np.zeros(3))  # nothing was written
    base = xnp.zeros(4)
    with pytest.raises(NotImplementedError, match="shares memory"):
        xnp.jit(f)(base[:2], base[1:3])
    b, c = xnp.zeros(3), xnp.zeros(3)
    out = xnp.jit(f)(b, c)
    np.testing.assert_array_equal(np.asarray(b), np.ones(3))
    np.testing.assert_array_equal(np.asarray(out), np.zeros(3))
