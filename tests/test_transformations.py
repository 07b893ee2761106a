"""API-level tests of the transformations: ``xnp.grad``, ``value_and_grad``, ``jvp``,
``vjp``, ``linearize``, ``vmap``, ``jacfwd``, ``jacrev``, ``hessian`` (behaviour, pytrees,
errors), their compositions with each other and with ``jit``, and which tracers each
transformation gives: their reprs, ``bool(x > 0)`` inside each, and what converts under
grad/jvp (``float()``/``complex()`` raise, since they would drop the tangent).

The test functions are built from primitives whose rules exist (shape ops, reductions,
``dot_general``); ``reduce_prod`` is the nonlinear workhorse. Where a test needs a rule of
another family (``add``'s rules for second derivatives, elementwise ops such as ``sin``)
it checks for it first or meets it while running, and skips with the reason
"<prim> has no <rule> rule yet (not implemented in xnp yet)" so the skip count shows it.
"""

from __future__ import annotations

import contextlib
import operator
import re

import numpy as np
import pytest

from tests.helpers import central_difference

import xnp
from xnp import errors, lax
from xnp.tracing import Primitive

PRIMS = {v.name: v for v in vars(lax).values() if isinstance(v, Primitive)}
_MISSING = re.compile(r"primitive '(\w+)'")
H = 1e-6


@contextlib.contextmanager
def missing_rules_are_skips():
    """NotImplementedError for a primitive that has no rule of that kind yet -> skip."""
    try:
        yield
    except NotImplementedError as e:
        msg = str(e)
        m = _MISSING.search(msg)
        rule = ("transpose" if "transpose rule" in msg else "batch" if "batching" in msg
                else "jvp")
        prim = PRIMS.get(m.group(1)) if m else None
        if prim is None or getattr(prim, rule) is not None:
            raise
        pytest.skip(f"{prim.name} has no {rule} rule yet (not implemented in xnp yet)")


def require(*prims, rules=("jvp", "transpose", "batch")):
    for p in prims:
        for rule in rules:
            if rule == "transpose" and p.name in ("sin", "cos"):
                continue  # nonlinear: no transpose rule by design
            if getattr(p, rule) is None:
                pytest.skip(f"{p.name} has no {rule} rule yet (not implemented in xnp yet)")


def prod(x):
    return lax.reduce_prod(x, tuple(range(x.ndim)))


A = np.array([[1.0, -2.0, 0.5], [0.3, 1.5, -1.0]])


def vecfun(x):
    """R^6 -> R^2, nonlinear: A @ (pairwise products of a transposed reshape of x)."""
    pairs = lax.reshape(lax.transpose(lax.reshape(x, (2, 3)), (1, 0)), (3, 2))
    return lax.dot_general(xnp.asarray(A), lax.reduce_prod(pairs, (1,)), (([1], [0]), ([], [])))


def vecfun_np(x):
    pairs = x.reshape(2, 3).T.reshape(3, 2)
    return A @ pairs.prod(1)


def fd_jacobian(f, x):
    """Central-difference Jacobian of a NumPy function, shape out.shape + x.shape."""
    x = np.asarray(x, np.float64)
    out = np.asarray(f(x))
    jac = np.zeros(out.shape + x.shape)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = H
        jac[(...,) + idx] = (np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * H)
    return jac


X = np.array([0.7, -1.3, 2.1, 0.4, -0.8, 1.6])
FD = dict(rtol=1e-6, atol=1e-6)  # central differences, h = 1e-6, float64


def close(a, b, **kw):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), **(kw or dict(rtol=1e-12,
                                                                             atol=1e-12)))


def prod_grad_np(x):
    x = np.asarray(x)
    return np.array([np.prod(np.delete(x, i)) for i in range(x.size)])


# --------------------------------------------------------------------------- grad


def test_grad_argnums_int_and_tuple():
    def f(a, b):
        return prod(lax.concatenate([a, b], 0))

    a, b = xnp.asarray([1.0, 2.0]), xnp.asarray([3.0, 4.0])
    full = prod_grad_np([1.0, 2.0, 3.0, 4.0])
    close(xnp.grad(f)(a, b), full[:2])
    close(xnp.grad(f, argnums=1)(a, b), full[2:])
    close(xnp.grad(f, argnums=-1)(a, b), full[2:])
    ga, gb = xnp.grad(f, argnums=(0, 1))(a, b)
    close(ga, full[:2])
    close(gb, full[2:])
    (only,) = xnp.grad(f, argnums=(1,))(a, b)
    close(only, full[2:])
    with pytest.raises(ValueError, match=r"argnums=2 is out of range for 2 positional"):
        xnp.grad(f, argnums=2)(a, b)


def test_grad_has_aux_and_value_and_grad():
    x = xnp.asarray([1.0, 2.0, 3.0])

    def f(v):
        return prod(v), {"max": lax.reduce_max(v, (0,)), "v": v}

    g, aux = xnp.grad(f, has_aux=True)(x)
    close(g, [6.0, 3.0, 2.0])
    assert set(aux) == {"max", "v"} and float(aux["max"]) == 3.0
    assert not isinstance(aux["v"], xnp.tracing.Tracer)
    (val, aux2), g2 = xnp.value_and_grad(f, has_aux=True)(x)
    assert float(val) == 6.0 and float(aux2["max"]) == 3.0
    close(g2, [6.0, 3.0, 2.0])
    val, g3 = xnp.value_and_grad(prod)(x)
    assert float(val) == 6.0 and type(val) is xnp.Array
    close(g3, [6.0, 3.0, 2.0])


def test_grad_of_pytree_argument():
    params = {"w": xnp.asarray([1.0, 2.0]), "b": (xnp.asarray([3.0]),)}

    def f(p):
        return prod(lax.concatenate([p["w"], p["b"][0]], 0))

    g = xnp.grad(f)(params)
    assert set(g) == {"w", "b"} and isinstance(g["b"], tuple)
    close(g["w"], [6.0, 3.0])
    close(g["b"][0], [2.0])


def test_grad_integer_input_error_and_allow_int():
    n = xnp.asarray([1, 2, 3])
    with pytest.raises(TypeError, match=r"xnp\.grad requires real- or complex-valued inputs.*"
                                        r"int64.*allow_int=True"):
        xnp.grad(lambda v: prod(v))(n)
    x = xnp.asarray([1.0, 2.0])
    gx, gn = xnp.grad(lambda a, m: prod(a), argnums=(0, 1), allow_int=True)(x, n)
    close(gx, [2.0, 1.0])
    assert np.asarray(gn).shape == (3,) and not np.any(np.asarray(gn))


def test_integer_inputs_carry_zero_tangents():
    n = xnp.asarray([3, 4])
    _, t = xnp.jvp(lambda m: lax.reduce_max(m, (0,)), (n,), (xnp.asarray([1, 1]),))
    assert not np.any(np.asarray(t))


def test_grad_non_scalar_output_error_names_shape():
    with pytest.raises(TypeError, match=r"xnp\.grad: .* must return a scalar.*\(2, 3\)"):
        xnp.grad(lambda v: lax.reshape(v, (2, 3)))(xnp.asarray(X))
    with pytest.raises(TypeError, match=r"must return a floating scalar, got int64"):
        xnp.grad(lambda v: lax.argmax(v, 0), allow_int=True)(xnp.asarray(X))


def test_grad_holomorphic():
    z = np.array([1 + 1j, 2.0, 3j])
    g = xnp.grad(prod, holomorphic=True)(xnp.asarray(z))
    close(g, prod_grad_np(z))
    with pytest.raises(TypeError, match=r"complex scalar; pass holomorphic=True"):
        xnp.grad(prod)(xnp.asarray(z))
    with pytest.raises(TypeError, match=r"holomorphic=True\) needs complex inputs.*float64"):
        xnp.grad(prod, holomorphic=True)(xnp.asarray(X))


def test_grad_python_control_flow_on_concrete_primal():
    def f(x):
        if lax.reduce_max(x, (0,)) > 2.0:
            return prod(x)
        return lax.reduce_sum(x, (0,))

    close(xnp.grad(f)(xnp.asarray([1.0, 3.0])), [3.0, 1.0])
    close(xnp.grad(f)(xnp.asarray([1.0, 1.5])), [1.0, 1.0])


# --------------------------------------------------------------------------- jvp / vjp / linearize


def test_jvp_matches_fd_and_returns_pytrees():
    x = xnp.asarray(X)
    v = np.linspace(-1, 1, 6)
    y, t = xnp.jvp(vecfun, (x,), (xnp.asarray(v),))
    close(y, vecfun_np(X))
    close(t, fd_jacobian(vecfun_np, X) @ v, **FD)

    def f(p):
        return {"p": prod(p["a"]), "r": lax.rev(p["a"], (0,))}

    y, t = xnp.jvp(f, ({"a": x},), ({"a": xnp.asarray(v)},))
    assert set(y) == set(t) == {"p", "r"}
    close(t["r"], v[::-1])
    close(t["p"], prod_grad_np(X) @ v)


def test_jvp_errors():
    x = xnp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"xnp\.jvp: primal 0 has shape \(3,\) but its tangent "
                                         r"has shape \(4,\)"):
        xnp.jvp(prod, (x,), (xnp.ones(4),))
    with pytest.raises(TypeError, match=r"primal 0 has dtype float64 but its tangent has dtype "
                                        r"float32"):
        xnp.jvp(prod, (x,), (xnp.ones(3, np.float32),))
    with pytest.raises(TypeError, match=r"structures differ"):
        xnp.jvp(prod, (x,), (x, x))
    with pytest.raises(TypeError, match=r"must be tuples or lists"):
        xnp.jvp(prod, x, x)


def test_vjp_with_pytrees_and_errors():
    def f(p, scale):
        w = p["w"]
        return {"prod": prod(w), "flip": (lax.rev(w, (0,)), lax.reduce_sum(scale, (0,)))}

    p = {"w": xnp.asarray([1.0, 2.0, 4.0])}
    s = xnp.asarray([1.0, 1.0])
    out, pull = xnp.vjp(f, p, s)
    assert float(out["prod"]) == 8.0
    ct = {"prod": xnp.asarray(1.0), "flip": (xnp.asarray([1.0, 0.0, 0.0]), xnp.asarray(2.0))}
    gp, gs = pull(ct)
    close(gp["w"], [8.0, 4.0, 2.0 + 1.0])
    close(gs, [2.0, 2.0])
    with pytest.raises(TypeError, match=r"cotangent structure .* differs from the output"):
        pull(xnp.asarray(1.0))
    _, pull1 = xnp.vjp(prod, p["w"])
    with pytest.raises(ValueError, match=r"cotangent 0 has shape \(2,\) but the output has "
                                         r"shape \(\)"):
        pull1(xnp.ones(2))
    out, pull2, aux = xnp.vjp(lambda w: (prod(w), w), p["w"], has_aux=True)
    assert float(out) == 8.0 and not isinstance(aux, xnp.tracing.Tracer)
    close(pull2(xnp.asarray(1.0))[0], [8.0, 4.0, 2.0])


def test_linearize_matches_jvp():
    x = xnp.asarray(X)
    y, f_jvp = xnp.linearize(vecfun, x)
    close(y, vecfun_np(X))
    for v in (np.ones(6), np.arange(6.0)):
        close(f_jvp(xnp.asarray(v)), xnp.jvp(vecfun, (x,), (xnp.asarray(v),))[1])
    with pytest.raises(TypeError, match=r"tangent structure"):
        f_jvp(xnp.asarray(np.ones(6)), xnp.asarray(np.ones(6)))


# --------------------------------------------------------------------------- vmap


def test_vmap_in_axes_ints_none_negative_tuples():
    x = np.arange(24.0).reshape(2, 3, 4)
    f = lambda v: lax.reduce_sum(v, (0,))  # noqa: E731
    close(xnp.vmap(f)(xnp.asarray(x)), x.sum(1))
    close(xnp.vmap(f, in_axes=1)(xnp.asarray(x)), x.sum(0))
    close(xnp.vmap(f, in_axes=-1)(xnp.asarray(x)), x.sum(0).T)
    close(xnp.vmap(f, in_axes=2, out_axes=-1)(xnp.asarray(x)), x.sum(0))
    g = lambda a, b: lax.dot_general(a, b, (([0], [0]), ([], [])))  # noqa: E731
    m = np.arange(12.0).reshape(3, 4)
    v = np.array([1.0, -1.0, 2.0])
    close(xnp.vmap(g, in_axes=(1, None))(xnp.asarray(m), xnp.asarray(v)), m.T @ v)
    rows = np.arange(12.0).reshape(4, 3)
    close(xnp.vmap(g, in_axes=(None, 0))(xnp.asarray(v), xnp.asarray(rows)), rows @ v)
    close(xnp.vmap(g, in_axes=(-1, -2))(xnp.asarray(m), xnp.asarray(rows)),
          np.einsum("ib,bi->b", m, rows))


def test_vmap_axis_size_and_out_axes_none():
    c = xnp.asarray([1.0, 2.0])
    out = xnp.vmap(lambda v: lax.rev(v, (0,)), in_axes=None, axis_size=3)(c)
    close(out, [[2.0, 1.0]] * 3)
    out = xnp.vmap(lambda v, w: (lax.rev(v, (0,)), w), in_axes=(0, None),
                   out_axes=(0, None))(xnp.ones((3, 2)), c)
    close(out[1], c)
    with pytest.raises(ValueError, match=r"no argument of .* is mapped .* pass axis_size"):
        xnp.vmap(lambda v: v, in_axes=None)(c)
    with pytest.raises(ValueError, match=r"output of .* is batched but out_axes is None"):
        xnp.vmap(lambda v: v, out_axes=None)(c)
    with pytest.raises(ValueError, match=r"axis_size=5 but mapped axes have size 2"):
        xnp.vmap(lambda v: v, axis_size=5)(c)


def test_vmap_pytree_prefixes():
    d = {"a": xnp.asarray(np.arange(6.0).reshape(2, 3)), "b": xnp.asarray([[10.0], [20.0], [30.0]])}

    def f(p, s):
        return {"sum": lax.reduce_sum(p["a"], (0,)), "cat": lax.concatenate([p["b"], s], 0)}

    out = xnp.vmap(f, in_axes=({"a": 1, "b": 0}, None))(d, xnp.asarray([5.0]))
    close(out["sum"], [3.0, 5.0, 7.0])
    close(out["cat"], [[10.0, 5.0], [20.0, 5.0], [30.0, 5.0]])
    out = xnp.vmap(f, in_axes=({"a": 1, "b": 0}, None), out_axes={"sum": 0, "cat": 1})(
        d, xnp.asarray([5.0]))
    close(out["cat"], [[10.0, 20.0, 30.0], [5.0, 5.0, 5.0]])
    with pytest.raises(ValueError, match=r"in_axes .* does not match the structure"):
        xnp.vmap(f, in_axes=({"x": 0}, None))(d, xnp.asarray([5.0]))


def test_vmap_errors_name_shapes_and_lengths():
    with pytest.raises(ValueError, match=r"different sizes:\n  a: axis 0 of float64\[3\] has "
                                         r"size 3\n  b: axis 0 of float64\[4\] has size 4"):
        xnp.vmap(lambda a, b: a)(xnp.ones(3), xnp.ones(4))
    with pytest.raises(ValueError, match=r"in_axes has 1 entries but .* called with 2 positional"):
        xnp.vmap(lambda a, b: a, in_axes=(0,))(xnp.ones(3), xnp.ones(3))
    with pytest.raises(ValueError, match=r"in_axes 2 is out of range .* shape \(3,\)"):
        xnp.vmap(lambda a: a, in_axes=2)(xnp.ones(3))
    with pytest.raises(TypeError, match=r"in_axes must be an int, None or a tuple"):
        xnp.vmap(lambda a: a, in_axes=[0])(xnp.ones(3))


def test_nested_vmap():
    x = np.arange(24.0).reshape(2, 3, 4)
    f = lambda v: prod(v)  # noqa: E731
    close(xnp.vmap(xnp.vmap(f))(xnp.asarray(x)), x.prod(2))
    close(xnp.vmap(xnp.vmap(f), in_axes=2)(xnp.asarray(x)), x.transpose(2, 0, 1).prod(2))
    close(xnp.vmap(xnp.vmap(f, in_axes=1), in_axes=0)(xnp.asarray(x)), x.prod(1))
    m = np.arange(6.0).reshape(2, 3)
    outer = xnp.vmap(xnp.vmap(lambda a, b: lax.dot_general(a, b, (([], []), ([], []))),
                              in_axes=(None, 0)), in_axes=(0, None))
    close(outer(xnp.asarray(m[0]), xnp.asarray(m[1])), np.outer(m[0], m[1]))


# --------------------------------------------------------------------------- jacobians


def test_jacfwd_jacrev_match_finite_differences():
    x = xnp.asarray(X)
    expected = fd_jacobian(vecfun_np, X)
    jf = xnp.jacfwd(vecfun)(x)
    jr = xnp.jacrev(vecfun)(x)
    assert np.asarray(jf).shape == np.asarray(jr).shape == (2, 6)
    close(jf, expected, **FD)
    close(jr, expected, **FD)
    m = np.array([[1.0, 2.0], [0.5, -3.0]])
    jm = xnp.jacrev(lambda v: lax.reduce_prod(v, (1,)))(xnp.asarray(m))
    close(jm, fd_jacobian(lambda v: v.prod(1), m), **FD)
    close(xnp.jacfwd(lambda v: lax.reduce_max(v, (0,)))(xnp.asarray(X)),
          fd_jacobian(lambda v: v.max(0), X), **FD)
    close(xnp.jacrev(prod, argnums=0)(xnp.asarray(X)), fd_jacobian(np.prod, X), **FD)


def test_hessian_matches_finite_differences():
    x = np.array([0.5, -1.2, 2.0, 1.1])
    with missing_rules_are_skips():
        h = xnp.hessian(prod)(xnp.asarray(x))
    expected = fd_jacobian(lambda v: prod_grad_np(v), x)
    close(h, expected, **FD)


# --------------------------------------------------------------------------- compositions


def test_jit_of_grad_and_grad_of_jit():
    x = xnp.asarray(X)
    expected = prod_grad_np(X)
    close(xnp.jit(xnp.grad(prod))(x), expected)
    close(xnp.grad(xnp.jit(prod))(x), expected)
    close(xnp.jit(xnp.grad(xnp.jit(prod)))(x), expected)
    close(xnp.jit(xnp.jacrev(vecfun))(x), fd_jacobian(vecfun_np, X), **FD)
    close(xnp.jacfwd(xnp.jit(vecfun))(x), fd_jacobian(vecfun_np, X), **FD)


def test_vmap_of_grad_and_jit_of_vmap():
    xs = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]])
    expected = np.stack([prod_grad_np(r) for r in xs])
    close(xnp.vmap(xnp.grad(prod))(xnp.asarray(xs)), expected)
    close(xnp.vmap(xnp.grad(prod), in_axes=1)(xnp.asarray(xs.T)), expected)
    close(xnp.jit(xnp.vmap(prod))(xnp.asarray(xs)), xs.prod(1))
    close(xnp.jit(xnp.vmap(xnp.grad(prod)))(xnp.asarray(xs)), expected)
    close(xnp.vmap(xnp.jit(xnp.grad(prod)))(xnp.asarray(xs)), expected)
    close(xnp.vmap(xnp.jacrev(vecfun))(xnp.asarray(np.stack([X, X[::-1]]))),
          np.stack([fd_jacobian(vecfun_np, X), fd_jacobian(vecfun_np, X[::-1])]), **FD)


def test_grad_of_grad_and_jacfwd_of_jacrev():
    x = np.array([0.5, -1.2, 2.0])

    def f(s):  # s**3 as the product of [s, s, s] built with shape ops
        v = lax.concatenate([lax.broadcast_in_dim(s, (1,), ()),
                             lax.pad(lax.broadcast_in_dim(s, (2,), ()), np.float64(0.0),
                                     ((0, 0, 0),))], 0)
        return prod(v)  # s**3

    with missing_rules_are_skips():
        close(xnp.grad(xnp.grad(f))(1.5), 6 * 1.5)
        h = xnp.jacfwd(xnp.jacrev(prod))(xnp.asarray(x))
    close(h, fd_jacobian(prod_grad_np, x), **FD)


def test_compositions_with_elementwise_ops():
    require(lax.sin_p, lax.cos_p, lax.mul_p, lax.add_p, lax.neg_p, lax.sub_p)

    def f(x):
        return lax.reduce_sum(lax.sub(lax.mul(lax.sin(x), x), lax.neg(lax.cos(x))), (0,))

    def df(x):
        return np.sin(x) + x * np.cos(x) - np.sin(x)

    xs = np.array([0.3, -1.1, 2.0])
    close(xnp.grad(f)(xnp.asarray(xs)), df(xs))
    close(xnp.jit(xnp.grad(f))(xnp.asarray(xs)), df(xs))
    close(xnp.grad(xnp.jit(f))(xnp.asarray(xs)), df(xs))
    close(xnp.vmap(xnp.grad(f))(xnp.asarray(np.stack([xs, -xs]))), np.stack([df(xs), df(-xs)]))
    close(xnp.hessian(f)(xnp.asarray(xs)), np.diag(fd_jacobian(df, xs).diagonal()), **FD)


# --------------------------------------------------------------------------- tracers of each transformation


def _recorder():
    seen = []

    def probe(x):
        seen.append(repr(x))
        return x

    return probe, seen


@pytest.mark.parametrize("run,expected", [
    (lambda p: xnp.vmap(p)(xnp.ones((5, 3))), "VmapTracer(aval=float64[3], batched=float64[5,3])"),
    (lambda p: xnp.grad(p)(1.0), "GradTracer(primal=1.0, typeof(tangent)=f64[])"),
    (lambda p: xnp.jvp(p, (1.0,), (1.0,)), "JVPTracer(primal=1.0, tangent=1.0)"),
    (lambda p: xnp.jit(xnp.grad(p))(1.0),
     "GradTracer(primal=JitTracer(~float64[]), typeof(tangent)=f64[])"),
    (lambda p: xnp.vmap(xnp.grad(p))(xnp.ones(3)),
     "GradTracer(primal=VmapTracer(aval=float64[], batched=float64[3]), typeof(tangent)=f64[])"),
    (lambda p: xnp.vjp(p, 2.0), "GradTracer(primal=2.0, typeof(tangent)=f64[])"),
    (lambda p: xnp.value_and_grad(p)(2.0), "GradTracer(primal=2.0, typeof(tangent)=f64[])"),
    (lambda p: xnp.linearize(p, 2.0), "GradTracer(primal=2.0, typeof(tangent)=f64[])"),
    (lambda p: xnp.jacrev(p)(2.0), "GradTracer(primal=2.0, typeof(tangent)=f64[])"),
    (lambda p: xnp.grad(xnp.jit(p))(2.0), "JitTracer(~float64[])"),
], ids=["vmap", "grad", "jvp", "jit-grad", "vmap-grad", "vjp", "value_and_grad", "linearize",
        "jacrev", "grad-jit"])
def test_S30_tracer_reprs(run, expected):
    probe, seen = _recorder()
    run(probe)
    assert seen == [expected]


def test_S28_jacfwd_and_hessian_reprs():
    # JAX prints a weak basis (VmapTracer(aval=~float64[], ...)); the class prefixes and
    # avals are checked here, with the weak mark optional.
    probe, seen = _recorder()
    xnp.jacfwd(probe)(2.0)
    assert re.fullmatch(r"JVPTracer\(primal=2\.0, tangent=VmapTracer\(aval=~?float64\[\], "
                        r"batched=~?float64\[1\]\)\)", seen[0]), seen
    probe, seen = _recorder()
    xnp.hessian(probe)(2.0)
    assert re.fullmatch(r"GradTracer\(primal=JVPTracer\(primal=2\.0, tangent=VmapTracer\(.*\)\), "
                        r"typeof\(tangent\)=f64\[\]\)", seen[0]), seen


def test_S30_repr_of_an_op_result_under_grad():
    seen = []

    def f(x):
        y = lax.reduce_max(lax.broadcast_in_dim(x, (2,), ()), (0,))
        seen.append(repr(y))
        return y

    xnp.grad(f)(1.0)
    assert seen == ["GradTracer(primal=1.0, typeof(tangent)=f64[])"]
    if lax.sin_p.jvp is not None:
        seen.clear()
        xnp.grad(lambda x: f(lax.sin(x)))(1.0)
        assert seen == ["GradTracer(primal=0.8414709848078965, typeof(tangent)=f64[])"]


def _bool_probe():
    seen = []

    def probe(x):
        try:
            seen.append(bool(x > 0))
        except Exception as e:  # record the error's class
            seen.append(type(e))
        return x

    return probe, seen


def test_S28_bool_under_grad_jvp_and_vmap():
    for run in (lambda p: xnp.grad(p)(2.0), lambda p: xnp.jvp(p, (2.0,), (1.0,)),
                lambda p: xnp.vjp(p, 2.0), lambda p: xnp.jacrev(p)(2.0)):
        probe, seen = _bool_probe()
        run(probe)
        assert seen == [True]
    for run in (lambda p: xnp.jit(xnp.grad(p))(2.0), lambda p: xnp.grad(xnp.jit(p))(2.0)):
        probe, seen = _bool_probe()
        run(probe)
        assert seen == [errors.TracerBoolConversionError]
    require(lax.gt_p, rules=("batch",))
    for run in (lambda p: xnp.vmap(p)(xnp.asarray([1.0, 2.0])),
                lambda p: xnp.vmap(xnp.grad(p))(xnp.asarray([1.0, 2.0]))):
        probe, seen = _bool_probe()
        run(probe)
        assert seen == [errors.TracerBoolConversionError]


@pytest.mark.parametrize("run", [
    lambda f: xnp.grad(f)(2.5), lambda f: xnp.jvp(f, (2.5,), (1.0,)), lambda f: xnp.vjp(f, 2.5)],
    ids=["grad", "jvp", "vjp"])
def test_S31_D5_conversions_of_concrete_primals(run):
    seen = {}

    def f(x):
        seen["int"] = int(x)
        seen["bool"] = bool(x)
        seen["item"] = x.item()
        if lax.convert_element_type_p.jvp is not None:  # astype binds convert_element_type
            seen["index"] = operator.index(x.astype(np.int64))
            seen["astype"] = x.astype(float)
        for name, conv in (("float", float), ("complex", complex)):
            with pytest.raises(errors.ConcretizationTypeError):
                conv(x)
            seen[name] = "raised"
        with pytest.raises(errors.TracerArrayConversionError):
            np.asarray(x)
        return x

    run(f)
    assert seen["int"] == 2 and type(seen["int"]) is int
    assert seen["bool"] is True and seen["item"] == 2.5 and type(seen["item"]) is float
    assert seen["float"] == seen["complex"] == "raised"
    require(lax.convert_element_type_p, rules=("jvp",))
    assert seen["index"] == 2
    assert isinstance(seen["astype"], xnp.tracing.Tracer)  # x.astype(float) stays a tracer


def test_stop_gradient_blocks_derivatives_eagerly_and_under_jit():
    x = xnp.asarray([1.0, 2.0, 3.0])

    def f(v):
        return xnp.sum(v * xnp.stop_gradient(v))

    np.testing.assert_allclose(np.asarray(xnp.grad(f)(x)), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(xnp.jit(xnp.grad(f))(x)), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(xnp.stop_gradient(x)), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(xnp.vmap(xnp.stop_gradient)(x)), [1.0, 2.0, 3.0])
    _, t = xnp.jvp(xnp.stop_gradient, (x,), (xnp.ones(3),))
    np.testing.assert_allclose(np.asarray(t), [0.0, 0.0, 0.0])


def test_jacobians_of_pytrees_with_tuple_argnums_and_aux_match_finite_differences():
    a0, b0 = np.array([1.0, 2.0]), np.array([3.0, -1.0, 0.5])

    def f(a, b):
        return {"s": xnp.sum(xnp.sin(a)) * xnp.sum(b), "v": xnp.concatenate([a * 2.0, b ** 2])}

    for jac in (xnp.jacfwd(f, argnums=(0, 1)), xnp.jacrev(f, argnums=(0, 1))):
        J = jac(xnp.asarray(a0), xnp.asarray(b0))
        for k, (x0, other) in enumerate(((a0, b0), (b0, a0))):
            for name in ("s", "v"):
                for i in range(x0.size):
                    e = np.zeros_like(x0)
                    e[i] = 1.0

                    def col(v, k=k, name=name):
                        args = (v, xnp.asarray(other)) if k == 0 else (xnp.asarray(other), v)
                        return f(*args)[name]

                    fd = central_difference(col, x0, e)
                    block = np.asarray(J[name][k])
                    np.testing.assert_allclose(block[..., i], fd, rtol=1e-6, atol=1e-8)

    calls = []

    def with_aux(v):
        calls.append(None)
        return xnp.sum(v ** 2), {"first": v[0]}

    for jac in (xnp.jacfwd(with_aux, has_aux=True), xnp.jacrev(with_aux, has_aux=True)):
        del calls[:]
        J, aux = jac(xnp.asarray(a0))
        np.testing.assert_allclose(np.asarray(J), 2 * a0)
        assert isinstance(aux["first"], xnp.Array) and float(aux["first"]) == 1.0
        assert len(calls) == 1  # the aux comes from the one traced call, not a rerun
