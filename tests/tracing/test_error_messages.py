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
