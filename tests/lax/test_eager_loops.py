"""Eager ``while_loop``/``fori_loop``/``scan`` run their bodies as host programs (the eager
backend's kernels on NumPy values, ``xnp/tracing/host_eval.py``): the values, dtypes and
weak types of the equation-by-equation evaluation they replace, NumPy's own results for
the same Python loop, errors and warnings as NumPy's, at the user's line."""

from __future__ import annotations

import warnings

import sys

import numpy as np
import pytest

import xnp
from xnp.tracing import host_eval

lax = xnp.lax


def _by_equations(monkeypatch):
    """The loops evaluated equation by equation (no host program), as before."""
    # (xnp.lax.control_flow.scan is the function: the modules by their names)
    for name in ("xnp.lax.control_flow.scan", "xnp.lax.control_flow.while_loop"):
        monkeypatch.setattr(sys.modules[name], "host_program", lambda jaxpr: None)


def _leaves(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _same(a, b):
    for x, y in zip(_leaves(a), _leaves(b), strict=True):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape, (x.dtype, x.shape, y.dtype, y.shape)
        assert x.tobytes() == y.tobytes(), (x, y)  # bit for bit


# each: (name, xnp loop, the same loop in NumPy)
LOOPS = [
    ("fori f64[10]", lambda m, v: lax.fori_loop(0, 50, lambda i, c: c * 0.99 + 0.01 * m.sin(c),
                                                 v) if m is xnp else _np_fori(v),
     np.linspace(-1, 1, 10)),
    ("while doubling", lambda m, v: lax.while_loop(lambda c: c[0] < 1000.0,
                                                   lambda c: c * 2.0, v)
     if m is xnp else _np_while(v), np.array([1.5, 3.0])),
    ("scan cumulative", lambda m, v: lax.scan(lambda c, a: (c + a, c * a), 0.0, v)
     if m is xnp else _np_scan(v), np.arange(6.0)),
]


def _np_fori(v):
    for _ in range(50):
        v = v * 0.99 + 0.01 * np.sin(v)
    return v


def _np_while(v):
    while v[0] < 1000.0:
        v = v * 2.0
    return v


def _np_scan(xs):
    c, ys = 0.0, []
    for a in xs:
        ys.append(c * a)
        c = c + a
    return np.float64(c), np.array(ys)


@pytest.mark.parametrize("name,loop,value", LOOPS, ids=[c[0] for c in LOOPS])
def test_eager_loops_give_numpys_values(name, loop, value):
    _same(loop(xnp, xnp.asarray(value)), loop(np, value))


BODIES = [
    # (name, function of xnp arrays running a loop)
    ("f32 carry, Python float literals", lambda v: lax.fori_loop(
        0, 7, lambda i, c: c * 1.5 - 0.25, v.astype(np.float32))),
    ("int carry and counter", lambda v: lax.fori_loop(
        2, 9, lambda i, c: c * 3 + i.astype(np.int32), (v * 10).astype(np.int32))),
    ("several carries, a weak scalar", lambda v: lax.fori_loop(
        0, 4, lambda i, c: (c[0] + c[1].sum(), c[1] * 2), (1.0, v))),
    ("views in the body", lambda v: lax.fori_loop(
        0, 3, lambda i, c: (c.T * 2).T.reshape(c.shape), v.reshape(2, 5))),
    ("a literal result", lambda v: lax.scan(lambda c, a: (c + a, 2.0), v[0], v)),
    ("scan reversed, 2-d xs", lambda v: lax.scan(
        lambda c, a: (c + a.sum(), a * c), 0.0, v.reshape(5, 2), reverse=True)),
    ("scan of length 0", lambda v: lax.scan(lambda c, a: (c + a, a), v[0], v[:0])),
    ("while with consts", lambda v: lax.while_loop(
        lambda c: c[1] < v.shape[0], lambda c: (c[0] + v[c[1]], c[1] + 1), (0.0, 0))),
    ("bool carry", lambda v: lax.fori_loop(0, 3, lambda i, c: ~c, v > 0)),
    ("nested loop (equation by equation)", lambda v: lax.fori_loop(
        0, 3, lambda i, c: lax.fori_loop(0, 2, lambda j, d: d + 1.0, c), v)),
    ("complex carry", lambda v: lax.fori_loop(
        0, 5, lambda i, c: c * (1 + 0.5j) + 1, v.astype(np.complex128))),
]


@pytest.mark.parametrize("name,body", BODIES, ids=[b[0] for b in BODIES])
def test_host_programs_agree_with_the_equation_by_equation_evaluation(name, body,
                                                                       monkeypatch):
    v = xnp.asarray(np.linspace(-2, 3, 10))
    got = body(v)
    with monkeypatch.context() as m:
        _by_equations(m)
        want = body(v)
    _same(got, want)
    for g, w in zip(_leaves(got), _leaves(want)):
        assert type(g) is type(w) and getattr(g, "weak_type", None) == getattr(
            w, "weak_type", None)


def test_the_loop_runs_as_a_host_program(monkeypatch):
    calls = []
    real = host_eval.HostProgram.__call__

    def counting(self, *values):
        calls.append(len(values))
        return real(self, *values)

    monkeypatch.setattr(host_eval.HostProgram, "__call__", counting)
    lax.fori_loop(0, 6, lambda i, c: c + 1.0, xnp.zeros(3))
    assert len(calls) == 6
    calls.clear()
    lax.while_loop(lambda c: c < 4, lambda c: c + 1, 0)
    assert len(calls) == 4 + 5  # four bodies, five conditions


def test_a_nested_control_flow_body_is_evaluated_equation_by_equation():
    inner = lax.fori_loop(0, 2, lambda j, d: d + 1.0, xnp.zeros(()))  # (a host program)
    jaxpr = xnp.make_jaxpr(lambda c: lax.fori_loop(0, 2, lambda j, d: d + 1.0, c))(inner)
    assert host_eval.host_program(jaxpr) is None  # the scan has an impl of its own


def test_errors_and_warnings_of_the_body_are_numpys():
    v = np.array([1.0, 0.0, -1.0])
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        for _ in range(2):
            v = np.log(v)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        lax.fori_loop(0, 2, lambda i, c: xnp.log(c), xnp.asarray([1.0, 0.0, -1.0]))
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert {w.filename for w in got} == {__file__}  # the user's line, not xnp's
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError,
                                                    match="divide by zero"):
        lax.fori_loop(0, 2, lambda i, c: xnp.log(c), xnp.asarray([1.0, 0.0]))
    assert np.geterr()["divide"] == "warn"


def test_under_jit_and_grad_the_loops_are_unchanged():
    f = lambda v: lax.fori_loop(0, 5, lambda i, c: c * 0.5 + xnp.sin(c), v)  # noqa: E731
    v = np.linspace(0.1, 1.0, 4)
    eager = np.asarray(f(xnp.asarray(v)))
    np.testing.assert_allclose(np.asarray(xnp.jit(f)(xnp.asarray(v))), eager, rtol=1e-14)
    g = xnp.grad(lambda v: f(v).sum())(xnp.asarray(v))
    eps = 1e-6
    fd = [(f(xnp.asarray(v + eps * e)).sum() - f(xnp.asarray(v - eps * e)).sum()) / (2 * eps)
          for e in np.eye(4)]
    np.testing.assert_allclose(np.asarray(g), np.array([float(d) for d in fd]), rtol=1e-6)


@pytest.mark.parametrize("n", [0, 2])
def test_a_jit_output_as_the_carry_gives_a_writable_result(n):
    v = xnp.jit(lambda a: a * 2.0)(xnp.arange(3.0))
    out = lax.fori_loop(0, n, lambda i, c: c.T, v)  # (a view primitive in the body)
    out[0] = -1.0  # NumPy's arrays take writes; the jit output keeps its values
    assert float(out[0]) == -1.0
    np.testing.assert_array_equal(np.asarray(v)[1:], [2.0, 4.0])


@pytest.mark.parametrize("batch_size", [1, 3, 5, 10, 20])
def test_map_batch_size_gives_the_same_results(batch_size):
    # JAX's lax.map(..., batch_size=): batches of vmap(f) scanned, the rest by vmap(f)
    xs = np.linspace(-2.0, 2.0, 10)
    want = np.stack([x * 2 + np.sin(x) for x in xs])
    f = lambda x: x * 2 + xnp.sin(x)  # noqa: E731
    for run in (lambda: lax.map(f, xnp.asarray(xs), batch_size=batch_size),
                lambda: xnp.jit(lambda v: lax.map(f, v, batch_size=batch_size))(
                    xnp.asarray(xs))):
        np.testing.assert_allclose(np.asarray(run()), want, rtol=1e-14)
    d = {"a": np.arange(21.0).reshape(7, 3), "b": np.arange(7.0)}
    g = lambda t: {"s": t["a"].sum(), "p": t["a"] * t["b"]}  # noqa: E731
    got = lax.map(g, {k: xnp.asarray(v) for k, v in d.items()}, batch_size=batch_size)
    np.testing.assert_allclose(np.asarray(got["s"]), d["a"].sum(axis=1))
    np.testing.assert_allclose(np.asarray(got["p"]), d["a"] * d["b"][:, None])


@pytest.mark.parametrize("bad,cls", [(0, ValueError), (-2, ValueError), (2.0, TypeError),
                                     (True, TypeError)])
def test_map_batch_size_must_be_a_positive_int(bad, cls):
    with pytest.raises(cls, match="xnp.lax.map: batch_size must be a positive int"):
        lax.map(lambda x: x, xnp.arange(3.0), batch_size=bad)
