"""xnp.jit's cached-call path for pytree, keyword and static arguments (keyed by the
arguments' structure and leaf signatures): every call is compared with NumPy, the trace
count shows which calls hit, and a changed structure, leaf, static value or
configuration must miss."""

import numpy as np
import pytest

import xnp
from xnp.tracing.pytree import tree_flatten

CALLS = 4


def _counted(fun, **kw):
    counter = [0]

    def body(*a, **k):
        counter[0] += 1
        return fun(*a, **k)

    body.__name__ = fun.__name__
    return xnp.jit(body, **kw), counter


def _sgd(params, lr):
    w, b = params
    return (w - lr * 2.0 * w, b - lr), float(lr)


def test_tuple_of_arrays_fed_back_matches_numpy():
    def step(params):
        w, (b, c) = params
        return (w * 0.5 + b, (b - c.sum(), c * 2.0)), (w * w).sum()

    f, traces = _counted(step)
    p_np = (np.arange(3.0), (np.float64(1.5), np.linspace(0.0, 1.0, 2)))
    p = (xnp.asarray(p_np[0]), (xnp.asarray(p_np[1][0]), xnp.asarray(p_np[1][1])))
    for _ in range(CALLS):
        p, loss = f(p)
        p_np, loss_np = step(p_np)
        for got, want in zip(tree_flatten(p)[0], tree_flatten(p_np)[0]):
            np.testing.assert_array_equal(np.asarray(got), want)
        assert float(loss) == loss_np
    assert traces[0] == 1
    assert isinstance(p, tuple) and isinstance(p[1], tuple)


def test_keyword_and_dict_arguments_hit_and_keep_their_names():
    def fun(x, *, scale, extra):
        return {"y": x * scale, "z": extra["a"] - extra["b"]}

    f, traces = _counted(fun)
    x = xnp.asarray(np.arange(4.0))
    extra = {"b": xnp.asarray(np.ones(2)), "a": xnp.asarray(np.full(2, 3.0))}
    for i in range(CALLS):
        out = f(x, scale=float(i), extra=extra)
        np.testing.assert_array_equal(np.asarray(out["y"]), np.arange(4.0) * i)
        np.testing.assert_array_equal(np.asarray(out["z"]), np.full(2, 2.0))
        assert list(out) == ["y", "z"]
    assert traces[0] == 1


def test_static_argument_values_are_part_of_the_key():
    f, traces = _counted(lambda x, n: x * n + len(str(n)), static_argnums=1)
    x = xnp.asarray(np.arange(3.0))
    for _ in range(CALLS):
        for n in (2, 3, 2.0):
            np.testing.assert_array_equal(np.asarray(f(x, n)), np.arange(3.0) * n + len(str(n)))
    assert traces[0] == 3  # 2 and 2.0 differ by type


def test_changed_leaf_structure_or_weak_type_misses():
    f, traces = _counted(lambda t: t[0] + t[1])
    a = xnp.asarray(np.arange(3.0))
    cases = [((a, 1.0), np.arange(3.0) + 1.0, "float64"),
             ([a, 1.0], np.arange(3.0) + 1.0, "float64"),  # list, not tuple
             ((a, 2), np.arange(3.0) + 2, "float64"),  # weak int scalar
             ((a, xnp.asarray(np.float32(1.0))), np.arange(3.0) + np.float32(1.0), "float64"),
             ((a.astype("float32"), 1.0), np.arange(3.0, dtype=np.float32) + 1.0, "float32"),
             ((a[:2], np.ones(2)), np.arange(2.0) + 1.0, "float64")]  # NumPy leaf
    for _ in range(2):
        for args, want, dtype in cases:
            got = f(args)
            assert got.dtype == dtype
            np.testing.assert_array_equal(np.asarray(got), want)
    assert traces[0] == len(cases)


def test_config_change_misses_the_pytree_path():
    # the traced function's default integer dtype depends on enable_x64
    f, traces = _counted(lambda t: xnp.arange(3) + t[0])
    args = (xnp.asarray(np.ones(3, dtype=np.int8)),)
    for _ in range(CALLS):
        assert f(args).dtype == np.int64
    with xnp.config.override(enable_x64=False):
        for _ in range(CALLS):
            out = f(args)
            assert out.dtype == np.int32
            np.testing.assert_array_equal(np.asarray(out), np.arange(3) + 1)
    assert f(args).dtype == np.int64
    assert traces[0] == 2


def test_in_place_update_of_a_pytree_leaf_is_written_back_every_call():
    def bump(state):
        state["x"][0] += 1.0
        return state["x"] * 2.0

    f, traces = _counted(bump)
    x = xnp.asarray(np.zeros(3))
    x_np = np.zeros(3)
    for _ in range(CALLS):
        out = f({"x": x})
        x_np[0] += 1.0
        np.testing.assert_array_equal(np.asarray(x), x_np)
        np.testing.assert_array_equal(np.asarray(out), x_np * 2.0)
    assert traces[0] == 1


def test_donated_tuple_argument_is_consumed_on_the_pytree_path():
    f = xnp.jit(lambda t: (t[0] + 1.0, t[1] * 2.0), donate_argnums=0)
    for _ in range(CALLS):
        t = (xnp.asarray(np.zeros(4)), xnp.asarray(np.ones(4)))
        out = f(t)
        np.testing.assert_array_equal(np.asarray(out[0]), np.ones(4))
        np.testing.assert_array_equal(np.asarray(out[1]), np.full(4, 2.0))
        with pytest.raises(RuntimeError, match="donated"):
            np.asarray(t[0])


def test_unkeyable_leaves_take_the_general_path():
    class Box:
        pass

    f, traces = _counted(lambda t, s: t[0] + len(s), static_argnums=1)
    x = xnp.asarray(np.arange(2.0))
    for _ in range(CALLS):
        # a NumPy scalar leaf and an unhashable static value: neither keys the fast path
        np.testing.assert_array_equal(np.asarray(f((x, np.float64(1.0)), "ab")), np.arange(2.0) + 2)
    assert traces[0] == 1
    with pytest.raises(TypeError, match="Box"):
        f((x, Box()), "ab")


def test_grad_of_a_jitted_pytree_function_after_hot_calls():
    f = xnp.jit(lambda p: (p[0] ** 2).sum() + p[1])
    p = (xnp.asarray(np.arange(3.0)), xnp.asarray(1.0))
    for _ in range(CALLS):
        f(p)
    g = xnp.grad(f)(p)
    np.testing.assert_array_equal(np.asarray(g[0]), 2.0 * np.arange(3.0))
    assert float(g[1]) == 1.0


@pytest.mark.parametrize("tree", [((1, 2, 3, 4), 5), [1, {"b": 2, "a": (3, None)}], 7, (), {},
                                  (None,), {"a": [1, (2,)]}, {3: 1, 1: 2}])
def test_treedef_builder_equals_unflatten(tree):
    leaves, treedef = tree_flatten(tree)
    built = treedef.builder()(leaves)
    assert built == treedef.unflatten(leaves)
    assert type(built) is type(tree)


def test_treedef_builder_for_registered_nodes_falls_back_to_unflatten():
    import collections

    point = collections.namedtuple("Point", "x y")
    leaves, treedef = tree_flatten({"p": point(1, (2, 3))})
    assert treedef.builder()(leaves) == {"p": point(1, (2, 3))}
