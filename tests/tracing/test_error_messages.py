"""Error messages say enough (issue 13, item 4): full NumPy dtype names (``float64[3]``,
never ``f64[3]``), the user's argument names and pytree paths, the fix that applies, and
leaked tracers reported as ``UnexpectedTracerError`` on every later use. Each case runs
eagerly and under ``jit`` where both apply."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xnp
from xnp import errors, lax

EAGER_AND_JIT = pytest.mark.parametrize("wrap", [lambda f: f, xnp.jit], ids=["eager", "jit"])


def _raises(cls, fn, *fragments):
    """``fn()`` raises ``cls``; its message holds every fragment and no short dtype name."""
    with pytest.raises(cls) as e:
        fn()
    msg = str(e.value)
    for frag in fragments:
        assert frag in msg, f"{frag!r} not in:\n{msg}"
    assert not re.search(r"\b[fiuc](8|16|32|64|128)\[", msg), msg
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
