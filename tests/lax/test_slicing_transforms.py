"""Transformation rules of the slicing family (slice, dynamic_slice, dynamic_update_slice,
gather, scatter*): jvp vs central finite differences (float64), vjp vs jvp through
<u, J v> = <J^T u, v>, vmap vs a loop over slices for every batch-axis choice (incl. None
and negative axes, batched start indices / indices), each also under jit; then NumPy-level
indexing under grad/vmap. Cases cover strides, empty slices, clamped starts, duplicate and
out-of-bounds indices and every gather/scatter mode.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xnp
from tests.helpers import assert_allclose, covering_sample
from xnp import lax
from xnp.lax import GatherDimensionNumbers as GDN
from xnp.lax import ScatterDimensionNumbers as SDN

H = 1e-6
FD_TOL = 1e-6
B = 3

ROWS_G = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
ROWS_S = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
WIN_G = GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
WIN_S = SDN(update_window_dims=(1, 2), inserted_window_dims=(), scatter_dims_to_operand_dims=(0, 1))
# duplicates (1 twice) and an out-of-bounds row (7)
DUP_IDX = np.array([[1], [3], [1], [7]])
UNIQUE_IDX = np.array([[4], [0], [2]])
WIN_IDX = np.array([[0, 1], [2, 0], [1, 1], [5, 5]])


def _rng(*parts):
    return np.random.default_rng(abs(hash(parts)) % 2**32)


def _normal(rng, shape):
    return rng.standard_normal(shape)


# (name, fun, args): float args are differentiated, int args are indices
CASES = [
    ("slice", lambda x: lax.slice(x, (1, 0), (5, 3)), [(6, 4)]),
    ("slice_strided", lambda x: lax.slice(x, (1, 0), (6, 4), (2, 3)), [(6, 4)]),
    ("slice_empty", lambda x: lax.slice(x, (2, 1), (2, 3)), [(4, 3)]),
    ("dynamic_slice", lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 2)), [(5, 4), 1]),
    ("dynamic_slice_clamped", lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 2)), [(5, 4), 9]),
    ("dynamic_slice_1d_starts",
     lambda x, s: lax.dynamic_slice(x, s, (2, 3)), [(4, 5), np.array([1, 2], np.int32)]),
    ("dynamic_update_slice",
     lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 0)), [(5, 3), (2, 2), 2]),
    ("dynamic_update_slice_clamped",
     lambda x, u, i: lax.dynamic_update_slice(x, u, (i, -4)), [(5, 3), (2, 2), 7]),
    ("gather_rows_clip",
     lambda x, i: lax.gather(x, i, ROWS_G, (1, 3), mode="clip"), [(5, 3), DUP_IDX]),
    ("gather_rows_fill",
     lambda x, i: lax.gather(x, i, ROWS_G, (1, 3), mode="fill", fill_value=0.0),
     [(5, 3), DUP_IDX]),
    ("gather_windows",
     lambda x, i: lax.gather(x, i, WIN_G, (2, 2), mode="clip"), [(4, 3), WIN_IDX]),
    ("scatter_add_dups",
     lambda x, i, u: lax.scatter_add(x, i, u, ROWS_S), [(5, 3), DUP_IDX, (4, 3)]),
    ("scatter_add_clip",
     lambda x, i, u: lax.scatter_add(x, i, u, ROWS_S, mode="clip"), [(5, 3), DUP_IDX, (4, 3)]),
    ("scatter_add_windows",
     lambda x, i, u: lax.scatter_add(x, i, u, WIN_S), [(4, 3), WIN_IDX, (4, 2, 2)]),
    ("scatter_dups",
     lambda x, i, u: lax.scatter(x, i, u, ROWS_S), [(5, 3), DUP_IDX, (4, 3)]),
    ("scatter_windows_overlap",
     lambda x, i, u: lax.scatter(x, i, u, WIN_S, mode="clip"), [(4, 3), WIN_IDX, (4, 2, 2)]),
    ("scatter_unique",
     lambda x, i, u: lax.scatter(x, i, u, ROWS_S, unique_indices=True),
     [(5, 3), UNIQUE_IDX, (3, 3)]),
]
IDS = [c[0] for c in CASES]


def _args(spec, seed):
    rng = _rng(seed)
    out = []
    for s in spec:
        if isinstance(s, tuple):
            out.append(_normal(rng, s))
        elif isinstance(s, int):
            out.append(np.int64(s))
        else:
            out.append(np.asarray(s))
    return out


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _fd(fun, args, tangents):
    plus = [a + H * t if _is_float(a) else a for a, t in zip(args, tangents)]
    minus = [a - H * t if _is_float(a) else a for a, t in zip(args, tangents)]
    return (np.asarray(fun(*plus)) - np.asarray(fun(*minus))) / (2 * H)


def _tangents(args, seed):
    rng = _rng("t", seed)
    return [_normal(rng, np.shape(a)) if _is_float(a) else None for a in args]


def _jvp(fun, args, tangents, jit):
    fl = [i for i, a in enumerate(args) if _is_float(a)]

    def f(*floats):
        full = list(args)
        for i, v in zip(fl, floats):
            full[i] = v
        return fun(*full)

    g = lambda p, t: xnp.jvp(f, p, t)  # noqa: E731
    if jit:
        g = xnp.jit(g)
    out, tan = g(tuple(args[i] for i in fl), tuple(tangents[i] for i in fl))
    return f, fl, out, tan


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name,fun,spec", CASES, ids=IDS)
def test_jvp_matches_finite_differences(name, fun, spec, jit):
    args = _args(spec, name)
    ts = _tangents(args, name)
    _, _, out, tan = _jvp(fun, args, ts, jit)
    assert_allclose(np.asarray(out), np.asarray(fun(*args)))
    fd = _fd(fun, args, ts)
    tan = np.asarray(tan)
    assert tan.shape == fd.shape
    assert np.all(np.abs(tan - fd) <= FD_TOL * (1 + np.abs(fd))), (tan, fd)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name,fun,spec", CASES, ids=IDS)
def test_vjp_matches_jvp(name, fun, spec, jit):
    args = _args(spec, name)
    ts = _tangents(args, name)
    f, fl, out, tan = _jvp(fun, args, ts, False)
    u = _normal(_rng("u", name), np.shape(out))

    def pullback(*floats):
        _, vjp_fn = xnp.vjp(f, *floats)
        return vjp_fn(u)

    if jit:
        pullback = xnp.jit(pullback)
    cts = pullback(*[args[i] for i in fl])
    lhs = float(np.sum(u * np.asarray(tan)))
    rhs = sum(float(np.sum(np.asarray(c) * ts[i])) for c, i in zip(cts, fl))
    assert abs(lhs - rhs) <= 1e-10 * (1 + abs(lhs)), (lhs, rhs)


def _axis_choices(ndim):
    """None, 0, the last position and a negative one."""
    return sorted({None, 0, ndim, -1} - ({-1} if ndim == 0 else set()), key=str)


def _batched_arg(a, axis, k, name):
    """Batch member ``k`` of a batched version of ``a`` (ints vary, floats random)."""
    a = np.asarray(a)
    if _is_float(a):
        return _normal(_rng("b", name, k), a.shape)
    return (a + k) % 6 if a.ndim else np.int64((int(a) + 2 * k) % 7)


def _vmap_cases():
    for name, fun, spec in CASES:
        ranks = [len(s) if isinstance(s, tuple) else np.ndim(s) for s in spec]
        combos = list(itertools.product(*[_axis_choices(r) for r in ranks]))
        combos = [c for c in combos if any(d is not None for d in c)]
        # all operands batched at 0, each alone, and a few mixed placements
        picked = {tuple(0 for _ in ranks)}
        for i in range(len(ranks)):
            picked.add(tuple(None if j != i else -1 for j in range(len(ranks))))
        rng = np.random.default_rng(len(name))
        for j in rng.choice(len(combos), min(4, len(combos)), replace=False):
            picked.add(combos[j])
        for axes in sorted(picked, key=str):
            yield name, fun, spec, axes


def _vmap_jit_cases():
    """Eagerly every case; under jit (a compile each) a sample (all with --full-grid):
    each function with each set of batched operands, and every in_axes tuple."""
    cases = list(_vmap_cases())
    jitted = covering_sample([(c[0], c[3]) for c in cases], n=69, seed=3, labels=lambda c: [
        (c[0], tuple(d is not None for d in c[1])), ("in_axes", c[1])])
    for name, fun, spec, axes in cases:
        for jit in (False, True):
            if not jit or (name, axes) in jitted:
                yield pytest.param(name, fun, spec, axes, jit,
                                   id=f"{name}-{axes}-{'jit' if jit else 'eager'}")


@pytest.mark.parametrize("name,fun,spec,axes,jit", list(_vmap_jit_cases()))
def test_vmap_matches_loop(name, fun, spec, axes, jit):
    args = _args(spec, name)
    members = [[_batched_arg(a, d, k, name) if d is not None else a for a, d in zip(args, axes)]
               for k in range(B)]
    batched = []
    for i, (a, d) in enumerate(zip(args, axes)):
        if d is None:
            batched.append(a)
        else:
            batched.append(np.stack([np.asarray(m[i]) for m in members], axis=d))
    expected = np.stack([np.asarray(fun(*m)) for m in members])
    g = xnp.vmap(fun, in_axes=tuple(axes))
    if jit:
        g = xnp.jit(g)
    assert_allclose(np.asarray(g(*batched)), expected)


def test_vmap_of_vmap_and_grad_of_vmap_dynamic_slice():
    x = _normal(_rng("vv"), (2, 3, 5))
    i = np.array([[0, 4, 2], [1, 3, 9]])
    f = lambda x, i: lax.dynamic_slice(x, (i,), (2,))  # noqa: E731
    got = xnp.vmap(xnp.vmap(f))(x, i)
    want = np.stack([np.stack([np.asarray(f(x[a, b], i[a, b])) for b in range(3)])
                     for a in range(2)])
    assert_allclose(np.asarray(got), want)
    # gradient through the batched (gather) form: each row gets ones in its window
    g = xnp.grad(lambda x: xnp.vmap(f)(x, i[0]).sum())(x[0])
    want = np.zeros((3, 5))
    for r, s in enumerate(i[0]):
        s = min(max(s, 0), 3)
        want[r, s:s + 2] = 1
    assert_allclose(np.asarray(g), want)


def test_scatter_transpose_gives_only_winning_duplicate_the_cotangent():
    x = np.zeros((5, 3))
    u = np.arange(12.0).reshape(4, 3)
    ct = np.ones((5, 3))
    _, vjp_fn = xnp.vjp(lambda x, u: lax.scatter(x, DUP_IDX, u, ROWS_S), x, u)
    ct_x, ct_u = vjp_fn(ct)
    want_x = np.ones((5, 3))
    want_x[[1, 3]] = 0
    want_u = np.ones((4, 3))
    want_u[0] = 0  # overwritten by the later duplicate (row 2 of the updates)
    want_u[3] = 0  # out of bounds, dropped
    assert_allclose(np.asarray(ct_x), want_x)
    assert_allclose(np.asarray(ct_u), want_u)


@pytest.mark.parametrize("prim", ["scatter_mul", "scatter_min", "scatter_max"])
def test_scatter_mul_min_max_jvp_and_batch(prim):
    op = getattr(lax, prim)
    x, u = _normal(_rng(prim), (5, 3)), _normal(_rng(prim, 1), (4, 3))
    f = lambda x, u: op(x, DUP_IDX, u, ROWS_S)  # noqa: E731
    h = 1e-6  # jvp vs central differences (more in tests/lax/test_special_transforms.py)
    fd = (np.asarray(f(x + h * x, u + h * u)) - np.asarray(f(x - h * x, u - h * u))) / (2 * h)
    np.testing.assert_allclose(np.asarray(xnp.jvp(f, (x, u), (x, u))[1]), fd, rtol=1e-6,
                               atol=1e-6)
    xs = _normal(_rng(prim, 2), (B, 5, 3))
    got = xnp.vmap(f, in_axes=(0, None))(xs, u)
    assert_allclose(np.asarray(got), np.stack([np.asarray(f(xs[k], u)) for k in range(B)]))


def test_slice_transpose_pads_with_interior_zeros():
    x = np.arange(7.0)
    _, vjp_fn = xnp.vjp(lambda x: lax.slice(x, (1,), (6,), (2,)), x)
    (ct,) = vjp_fn(np.array([1.0, 2.0, 3.0]))
    assert_allclose(np.asarray(ct), np.array([0, 1, 0, 2, 0, 3, 0.0]))


# --------------------------------------------------------------------------- NumPy surface


def _need(*names, transpose=False):
    for n in names:
        p = getattr(lax, f"{n}_p")
        for rule in ("jvp", "transpose") if transpose else ("jvp",):
            if getattr(p, rule) is None:
                pytest.skip(f"{n} has no {rule} rule yet (not implemented in xnp yet)")


def test_grad_of_basic_slice_indexing():
    x = _normal(_rng("g1"), (4, 5))
    g = xnp.grad(lambda x: x[1:3, ::2].sum())(x)
    want = np.zeros((4, 5))
    want[1:3, ::2] = 1
    assert_allclose(np.asarray(g), want)
    g = xnp.jit(xnp.grad(lambda x: x[-1, 1:].sum()))(x)
    want = np.zeros((4, 5))
    want[-1, 1:] = 1
    assert_allclose(np.asarray(g), want)


def test_grad_of_slice_squared():
    _need("mul", transpose=True)
    if getattr(lax, "integer_pow_p", None) is not None:
        _need("integer_pow")
    x = _normal(_rng("g2"), (5,))
    g = xnp.grad(lambda x: (x[1:3] ** 2).sum())(x)
    want = np.zeros(5)
    want[1:3] = 2 * x[1:3]
    assert_allclose(np.asarray(g), want)


def test_grad_of_fancy_indexing_accumulates_duplicates():
    x = _normal(_rng("g3"), (4, 3))
    idx = np.array([0, 2, 0, 3])
    g = xnp.grad(lambda x: x[idx].sum())(x)
    want = np.zeros((4, 3))
    np.add.at(want, idx, 1.0)
    assert_allclose(np.asarray(g), want)


def test_grad_of_at_set_and_add():
    x = _normal(_rng("g4"), (5,))
    y = _normal(_rng("g5"), (2,))
    gx, gy = xnp.grad(lambda x, y: x.at[np.array([1, 3])].set(y).sum(), argnums=(0, 1))(x, y)
    assert_allclose(np.asarray(gx), np.array([1, 0, 1, 0, 1.0]))
    assert_allclose(np.asarray(gy), np.ones(2))
    gx, gy = xnp.grad(lambda x, y: x.at[np.array([1, 1])].add(y).sum(), argnums=(0, 1))(x, y)
    assert_allclose(np.asarray(gx), np.ones(5))
    assert_allclose(np.asarray(gy), np.ones(2))


def test_vmap_of_indexing_with_batched_index():
    x = _normal(_rng("v1"), (B, 6))
    i = np.array([0, 5, 2])
    got = xnp.vmap(lambda x, i: x[i])(x, i)
    assert_allclose(np.asarray(got), x[np.arange(B), i])
    row = xnp.asarray(x[0])
    got = xnp.jit(xnp.vmap(lambda i: row[i], in_axes=0))(i)
    assert_allclose(np.asarray(got), x[0][i])
    got = xnp.vmap(lambda x: x[1:4:2], in_axes=1, out_axes=1)(x.T)
    assert_allclose(np.asarray(got), x.T[1:4:2])
