"""``jitted.lower(*args).compile()`` is callable: with the jitted function's arguments less
its static ones (as JAX's ``Compiled``), giving the eager function's result, and a clear
``TypeError`` for arguments it was not lowered for."""

from __future__ import annotations

import numpy as np
import pytest

import xnp


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_compiled_call_equals_eager_result():
    def f(x, y):
        return xnp.sin(x) * y + 1.0

    x, y = xnp.asarray(np.linspace(0.0, 1.0, 5)), xnp.asarray(np.arange(5.0))
    compiled = xnp.jit(f).lower(x, y).compile()
    x2, y2 = xnp.asarray(np.linspace(-1.0, 2.0, 5)), xnp.asarray(np.arange(5.0) - 2)
    _same(compiled(x2, y2), f(x2, y2))
    _same(compiled(np.asarray(x2), np.asarray(y2)), np.sin(np.asarray(x2)) * np.asarray(y2) + 1)


def test_compiled_call_pytrees_statics_and_keywords():
    def f(d, n, *, scale, mode):
        out = d["a"] * n + d["b"][0] * scale
        return {"out": out if mode == "plain" else -out, "n": n}

    jf = xnp.jit(f, static_argnums=1, static_argnames="mode")
    d = {"a": xnp.ones(3), "b": (xnp.arange(3.0),)}
    compiled = jf.lower(d, 4, scale=2.0, mode="neg").compile()
    d2 = {"a": xnp.asarray([1.0, 2.0, 3.0]), "b": (xnp.asarray([0.5, 0.5, 0.5]),)}
    got = compiled(d2, scale=3.0)
    want = f({"a": d2["a"], "b": d2["b"]}, 4, scale=3.0, mode="neg")
    _same(got["out"], want["out"])
    _same(got["n"], np.asarray(4))
    assert jf.trace_count == 1


def test_compiled_call_writes_back_in_place_updates():
    def f(x):
        x += 1.0
        return x * 2.0

    a = xnp.zeros(3)
    compiled = xnp.jit(f).lower(a).compile()
    b = xnp.asarray([1.0, 2.0, 3.0])
    _same(compiled(b), np.array([4.0, 6.0, 8.0]))
    _same(b, np.array([2.0, 3.0, 4.0]))  # as the eager function leaves it


def test_compiled_call_sees_closed_over_array_writes():
    w = xnp.asarray([1.0, 2.0])
    compiled = xnp.jit(lambda x: x * w).lower(xnp.ones(2)).compile()
    w[0] = 5.0
    _same(compiled(xnp.ones(2)), np.array([5.0, 2.0]))


def test_compiled_call_python_scalar_argument():
    compiled = xnp.jit(lambda x, s: x * s).lower(xnp.ones(2), 2.0).compile()
    _same(compiled(xnp.asarray([1.0, 3.0]), 0.5), np.array([0.5, 1.5]))


@pytest.mark.parametrize("args, message", [
    ((xnp.ones(4), {"a": 1.0}), r"argument x of shape \(4,\) and dtype float64; it was lowered "
                                r"for shape \(3,\) and dtype float64"),
    ((xnp.ones(3, dtype=xnp.float32), {"a": 1.0}),
     r"argument x of shape \(3,\) and dtype float32; it was lowered for shape \(3,\) and "
     r"dtype float64"),
    ((xnp.ones(3), {"a": xnp.ones(2, dtype=xnp.int32)}),
     r"argument d\['a'\] of shape \(2,\) and dtype int32; it was lowered for shape \(\) and "
     r"dtype float64"),
    ((xnp.ones(3), 2, {"a": 1.0}), r"3 positional argument\(s\); it takes 2"),
    ((xnp.ones(3), {"b": 1.0}), r"arguments of structure"),
])
def test_compiled_call_signature_mismatch(args, message):
    f = xnp.jit(lambda x, n, d: x * n + d["a"], static_argnums=1)
    compiled = f.lower(xnp.ones(3), 2, {"a": 1.0}).compile()
    with pytest.raises(TypeError, match=r"xnp.jit\(<lambda>\).lower\(...\).compile\(\) called "
                                        r"with " + message):
        compiled(*args)


def test_compiled_call_refuses_static_keyword():
    f = xnp.jit(lambda x, *, n: x * n, static_argnames="n")
    compiled = f.lower(xnp.ones(2), n=3).compile()
    _same(compiled(xnp.ones(2)), np.array([3.0, 3.0]))
    with pytest.raises(TypeError, match=r"static argument 'n'"):
        compiled(xnp.ones(2), n=3)
