"""Transformation oracles driven by the op table (``tests/lax/op_table.py``), for every record whose
primitives have the needed rules:

(a) ``jvp`` vs central finite differences in float64;
(b) ``vjp`` vs ``jvp`` through <u, J v> = <J^T u, v>, per differentiable operand;
(c) ``vmap`` vs a Python loop over slices, stacked, for sampled batch-axis positions of
    each operand (None, non-negative and negative);
(d) the same checks under ``jit`` (``jit(jvp)``, ``jit(vjp)``, ``vjp(jit)``, ``jit(vmap)``)
    for a sample of records.

A record whose primitive lacks a rule (elementwise and slicing until their rules land)
is skipped with the reason "<prim> has no <rule> rule yet (not implemented in xnp yet)", so
it shows in the skip count. A missing rule of the shape_ops/padding/reductions/products families
is a failure. A derivative JAX does not have either (``NON_DIFFERENTIABLE`` in the
error: zeta in ``x``, polygamma in ``m``) is a skip with the error's reason. Then come rule-specific tests (ties in max/min, zeros in prod, dot_general
bookkeeping, pad/concatenate batching with unbatched operands).

Finite differences: step ``h = 1e-6`` along a random direction, in float64. The error
is about ``h**2 |f'''| + eps |f| / h`` (~1e-10 for the O(1) values used), so the check
is ``|jvp - fd| <= 1e-6 (1 + |fd|)``. Inputs are smooth: NaN/inf/tie-making samplers of
the table are replaced by normals (or positive/unit values where the op's domain
needs them: the first candidate whose values at ``x`` and ``x +- h v`` are finite).
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
import zlib

import numpy as np
import pytest

import xnp
from tests import tolerances
from tests.helpers import FULL_GRID, assert_allclose, make_array, primitive_family
from tests.lax.op_table import all_records
from xnp import lax
from xnp.lax import padding, products, reductions, shape_ops
from xnp.lax._rules import NON_DIFFERENTIABLE
from xnp.tracing import Primitive
from xnp.tracing.jit import jit_p

F64 = np.dtype(np.float64)
RECORDS = [r for r in all_records() if r.reference is not None and r.shapes and r.dtypes]
PRIMS = {v.name: v for v in vars(lax).values() if isinstance(v, Primitive)}
# the families whose rules this file must find complete: a missing rule there fails
OWN = {v for m in (shape_ops, padding, reductions, products) for v in vars(m).values()
       if isinstance(v, Primitive)}
H = 1e-6
FD_TOL = 1e-6
BATCH = 3


# --------------------------------------------------------------------------- helpers


def _seed(*parts) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def _shapes(rec, shape):
    if shape and isinstance(shape[0], tuple):
        return list(shape)
    return [shape] * rec.nargs


def _sample(items, n, seed):
    items = list(items)
    return items if len(items) <= n else random.Random(seed).sample(items, n)


def _jaxpr_prims(jaxpr, out):
    for eqn in jaxpr.eqns:
        out.add(eqn.primitive)
        for v in eqn.params.values():
            inner = getattr(v, "jaxpr", None)
            if inner is not None and hasattr(inner, "eqns"):
                _jaxpr_prims(inner, out)
    return out


def _prims_of(rec, args):
    closed = xnp.make_jaxpr(rec.fun)(*args)
    return _jaxpr_prims(closed.jaxpr, set()) - {jit_p}


def _skip_unless_rules(prims, rule):
    for p in sorted(prims, key=lambda p: p.name):
        if rule == "jvp" and p.differentiable is not True:
            continue
        if getattr(p, rule) is None:
            if p in OWN:
                pytest.fail(f"{p.name} (shape_ops/padding/reductions/products) has no {rule} rule")
            pytest.skip(f"{p.name} has no {rule} rule yet (not implemented in xnp yet)")


_MISSING = re.compile(r"primitive '(\w+)'")


@contextlib.contextmanager
def missing_rules_are_skips():
    """A rule missing in another family, met while transforming (e.g. ``add``'s batching
    rule, needed to accumulate cotangents under vmap), is a visible skip, not a failure."""
    try:
        yield
    except NotImplementedError as e:
        msg = str(e)
        if NON_DIFFERENTIABLE in msg:  # e.g. zeta in its exponent, as in JAX: the reason
            pytest.skip(msg)
        m = _MISSING.search(msg)
        rule = ("transpose" if "transpose rule" in msg else "batch" if "batching" in msg
                else "jvp")
        prim = PRIMS.get(m.group(1)) if m else None
        if prim is None or prim in OWN or getattr(prim, rule) is not None:
            raise
        pytest.skip(f"{prim.name} has no {rule} rule yet (not implemented in xnp yet)")


def _is_inexact(a) -> bool:
    dt = np.asarray(a).dtype
    return dt.kind in "fc" or dt.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def _positive(rng, shape, dtype):
    return (np.abs(rng.standard_normal(shape)) + 0.5).astype(dtype)


def _above_one(rng, shape, dtype):
    return (np.abs(rng.standard_normal(shape)) + 1.5).astype(dtype)


def _unit(rng, shape, dtype):
    return rng.uniform(-0.9, 0.9, shape).astype(dtype)


# samplers of the table that make non-smooth data (NaN, inf, ties, exact zeros)
_ROUGH = {"special", "finite_special", "_ties_and_nan", "_nan_sampler", "small_ints",
          "shift_counts", "<lambda>"}


def _smooth_candidates(rec):
    own = rec.sampler
    first = [own] if own is not None and own.__name__ not in _ROUGH else []
    return first + [make_array, _positive, _above_one, _unit]


def _np_out(x):
    return [np.asarray(v) for v in xnp.tree_util.tree_leaves(x)]


def _fd_inputs(rec, shapes, seed):
    """Smooth float64 inputs and a direction where f is finite at x and x +- h v (None if
    no candidate sampler gives that, e.g. the -inf of a max over an empty axis)."""
    for k, sampler in enumerate(_smooth_candidates(rec)):
        rng = np.random.default_rng(seed + k)
        args = [sampler(rng, s, _fd_dtype(rec)) for s in shapes]
        dirs = [rng.standard_normal(np.shape(a)) if _is_inexact(a) else np.zeros_like(a)
                for a in args]
        with np.errstate(all="ignore"):
            outs = [_np_out(rec.fun(*[xnp.asarray(a + c * d) if _is_inexact(a) else
                                      xnp.asarray(a) for a, d in zip(args, dirs)]))
                    for c in (0.0, H, -H)]
        if all(np.all(np.isfinite(o)) for out in outs for o in out if _is_inexact(o)) and all(
                np.all(np.isfinite(a)) for a in args if _is_inexact(a)):
            return args, dirs, outs
    return None


def _fd_dtype(rec):
    """float64 when the record lists it; a record listing only narrower real floating
    dtypes (to keep the table fast) is checked in float64 too: derivatives are checked in
    float64 only, where finite differences are accurate."""
    if F64 in rec.dtypes:
        return F64
    if any(d.kind == "f" for d in rec.dtypes):
        return F64
    pytest.skip(f"{rec.name}: no floating dtype in the table (integer/bool/complex only); "
                "derivatives are checked in float64")


def _fd_cases(rec, n):
    """Up to ``n`` sampled shapes with smooth float64 inputs: (shapes, args, dirs, outs)."""
    cases = []
    for shape in _sample(rec.shapes, len(rec.shapes), _seed(rec.name, "f64")):
        shapes = _shapes(rec, shape)
        try:
            found = _fd_inputs(rec, shapes, _seed(rec.name, shape))
        except TypeError as e:
            pytest.skip(f"{rec.name} rejects float64 operands: {e}")
        if found is not None:
            cases.append((shapes, *found))
        if len(cases) == n:
            break
    if not cases:
        pytest.skip(f"{rec.name}: no sampled shape gives finite values for finite differences")
    return cases


def _check_fd(rec, tangent_out, outs, msg):
    p0, plus, minus = outs
    t_leaves = _np_out(tangent_out)
    for t, y, a, b in zip(t_leaves, p0, plus, minus):
        if not _is_inexact(y):  # integer/bool outputs carry zero tangents
            assert not np.any(t), f"nonzero tangent of an integer output {msg}"
            continue
        if np.asarray(y).dtype not in (np.float64, np.complex128):
            pytest.skip(f"finite differences need float64 outputs ({np.asarray(y).dtype} cannot "
                        f"resolve a step of {H})")
        fd = (a - b) / (2 * H)
        assert t.shape == y.shape and t.dtype == y.dtype, (
            f"tangent {t.dtype}{list(t.shape)} for output {y.dtype}{list(y.shape)} {msg}")
        np.testing.assert_allclose(t, fd, rtol=FD_TOL, atol=FD_TOL, err_msg=msg)


def _tangents(args, dirs):
    return tuple(xnp.asarray(d) if _is_inexact(a) else xnp.asarray(np.zeros_like(a))
                 for a, d in zip(args, dirs))


def _records_with(pred=lambda rec: True):
    return [pytest.param(rec, id=rec.name) for rec in RECORDS if pred(rec)]


def _jit_sample(rec) -> bool:
    """The records checked under jit: a fixed half, chosen by a hash of the name (the other
    half runs ``vjp(jit(f))``), so compile time stays small."""
    return _seed(rec.name, "jit") % 4 < 2


def _jit_transform_sample(transform: str):
    """The records of the jit sample checked with ``jit(jvp)`` (``transform='jvp'``) or
    ``jit(vjp)`` ('vjp'): a record whose primitive has no other record in the jit sample
    runs both; the records of a primitive with several take turns, so each such primitive
    still runs both under jit (every record with --full-grid)."""
    by_primitive = {}
    for r in RECORDS:
        if _jit_sample(r):
            by_primitive.setdefault(primitive_family(r.name), []).append(r)

    def pred(rec) -> bool:
        if not _jit_sample(rec):
            return False
        if FULL_GRID[0]:
            return True
        fam = by_primitive[primitive_family(rec.name)]
        turn = next(i for i, r in enumerate(fam) if r is rec) % 2
        return len(fam) == 1 or turn == ("jvp", "vjp").index(transform)
    return pred


# --------------------------------------------------------------------------- (a) jvp vs FD


def _run_jvp_check(rec, jit: bool):
    for shapes, args, dirs, outs in _fd_cases(rec, n=1 if jit else (3 if FULL_GRID[0] else 2)):
        _skip_unless_rules(_prims_of(rec, args), "jvp")
        primals = tuple(xnp.asarray(a) for a in args)
        tangents = _tangents(args, dirs)
        with missing_rules_are_skips():
            if jit:
                y, t = xnp.jit(lambda p, t: xnp.jvp(rec.fun, p, t))(primals, tangents)
            else:
                y, t = xnp.jvp(rec.fun, primals, tangents)
        msg = f"{rec.name} shapes={shapes} jit={jit}"
        for got, want in zip(_np_out(y), outs[0]):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=msg)
        _check_fd(rec, t, outs, msg)


@pytest.mark.parametrize("rec", _records_with())
def test_jvp_matches_finite_differences(rec):
    _run_jvp_check(rec, jit=False)


@pytest.mark.parametrize("rec", _records_with(_jit_transform_sample("jvp")))
def test_jvp_matches_finite_differences_under_jit(rec):
    _run_jvp_check(rec, jit=True)


# --------------------------------------------------------------------------- (b) vjp vs jvp


def _partial(fun, args, i):
    def f_i(xi):
        full = list(args)
        full[i] = xi
        return fun(*full)

    return f_i


def _run_vjp_check(rec, mode: str):
    """mode: 'eager', 'jit' (jit of the vjp function) or 'inner' (vjp of jit(f))."""
    for shapes, args, dirs, _ in _fd_cases(rec, n=1 if mode != "eager" else 2):
        _skip_unless_rules(_prims_of(rec, args), "jvp")
        xargs = [xnp.asarray(a) for a in args]
        fun = xnp.jit(rec.fun) if mode == "inner" else rec.fun
        rng = np.random.default_rng(_seed(rec.name, shapes, "u"))
        for i, (a, v) in enumerate(zip(args, dirs)):
            if not _is_inexact(a):
                continue
            f_i = _partial(fun, xargs, i)
            with missing_rules_are_skips():
                jv = _np_out(xnp.jvp(f_i, (xargs[i],), (xnp.asarray(v),))[1])
                y = xnp.tree_util.tree_leaves(f_i(xargs[i]))
                us = [make_array(rng, np.shape(o), np.asarray(o).dtype) if _is_inexact(o)
                      else np.ones(np.shape(o), np.asarray(o).dtype) for o in y]
                u_tree = xnp.tree_util.tree_unflatten(
                    xnp.tree_util.tree_structure(f_i(xargs[i])), [xnp.asarray(u) for u in us])
                if mode == "jit":
                    (jtu,) = xnp.jit(lambda x, u: xnp.vjp(f_i, x)[1](u))(xargs[i], u_tree)
                else:
                    (jtu,) = xnp.vjp(f_i, xargs[i])[1](u_tree)
            jtu = np.asarray(jtu)
            msg = f"{rec.name} shapes={shapes} operand {i} mode={mode}"
            assert jtu.shape == np.shape(a) and jtu.dtype == np.asarray(a).dtype, msg
            # real parts of the bilinear pairings (outputs may be complex, inputs are real)
            lhs = sum(float(np.real(np.sum(u * t))) for u, t in zip(us, jv) if _is_inexact(u))
            rhs = float(np.real(np.sum(jtu * v)))
            scale = sum(float(np.sum(np.abs(u * t))) for u, t in zip(us, jv)
                        if _is_inexact(u)) + float(np.sum(np.abs(jtu * v)))
            # pairings are exact up to rounding in the narrowest output dtype (bf16 outputs
            # round J v to 8 bits of mantissa)
            tol = max([1e-10] + [tolerances.rtol(np.asarray(t).dtype, "reduction")
                                 for t in jv if _is_inexact(t)])
            assert abs(lhs - rhs) <= tol * scale + 1e-300, f"<u,Jv>={lhs} <J^T u,v>={rhs} {msg}"
            if not any(_is_inexact(o) for o in y):
                assert not np.any(jtu), f"nonzero cotangent through an integer output {msg}"


@pytest.mark.parametrize("rec", _records_with())
def test_vjp_matches_jvp(rec):
    _run_vjp_check(rec, "eager")


@pytest.mark.parametrize("rec", _records_with(_jit_transform_sample("vjp")))
def test_vjp_matches_jvp_under_jit(rec):
    _run_vjp_check(rec, "jit")


@pytest.mark.parametrize("rec", _records_with(lambda r: not _jit_sample(r)))
def test_vjp_of_jitted_function_matches_jvp(rec):
    _run_vjp_check(rec, "inner")


# --------------------------------------------------------------------------- (c) vmap


def _axes_combos(shapes, seed, n):
    """in_axes tuples: every operand batched at 0 first, then all other positions (None,
    non-negative and negative per operand) when there are at most ``n`` - 1 of them, else a
    seeded sample of ``n`` - 1. All-None (``axis_size`` given) is one of the positions."""
    choices = [[None] + list(range(-(len(s) + 1), len(s) + 1)) for s in shapes]
    first = (0,) * len(shapes)
    rest = [c for c in itertools.product(*choices) if c != first]
    return [first] + _sample(rest, n - 1, seed)


def _batched_arg(rng, sampler, shape, dtype, axis):
    if axis is None:
        return sampler(rng, shape, dtype)
    stacked = np.stack([sampler(rng, shape, dtype) for _ in range(BATCH)])
    return np.moveaxis(stacked, 0, axis % stacked.ndim)


def _run_vmap_check(rec, jit: bool):
    dtypes = [F64] if F64 in rec.dtypes else [rec.dtypes[0]]
    others = [d for d in rec.dtypes if d not in dtypes]
    dtypes += _sample(others, 0 if jit else 1, _seed(rec.name, "dtype"))
    shapes_list = _sample(rec.shapes, 1 if jit else 2, _seed(rec.name, "vshapes"))
    sampler = rec.sampler or make_array
    checked_rules = False
    for dtype, shape in itertools.product(dtypes, shapes_list):
        shapes = _shapes(rec, shape)
        rng = np.random.default_rng(_seed(rec.name, shape, dtype.name))
        if not checked_rules:
            probe = [sampler(rng, s, dtype) for s in shapes]
            _skip_unless_rules(_prims_of(rec, probe), "batch")
            checked_rules = True
        combos = _axes_combos(shapes, _seed(rec.name, shape, "axes"), 2 if jit else 10)
        if jit and not FULL_GRID[0]:  # one of the two, by a hash of the name (both with
            # --full-grid): all operands at 0 for half of the records, another placement
            # (negative, past the end, unbatched operands) for the others
            combos = combos[_seed(rec.name, "vmap-jit-axes") % len(combos):][:1]
        for axes in combos:
            args = [_batched_arg(rng, sampler, s, dtype, a) for s, a in zip(shapes, axes)]
            with np.errstate(all="ignore"):
                rows = []
                for b in range(BATCH):
                    sl = [a if ax is None else np.take(a, b, axis=ax) for a, ax in zip(args, axes)]
                    rows.append(_np_out(rec.fun(*[xnp.asarray(s) for s in sl])))
                expected = [np.stack(col) for col in zip(*rows)]
                vf = xnp.vmap(rec.fun, in_axes=axes, axis_size=BATCH)
                with missing_rules_are_skips():
                    got = _np_out((xnp.jit(vf) if jit else vf)(*[xnp.asarray(a) for a in args]))
            msg = f"{rec.name} dtype={dtype.name} shapes={shapes} in_axes={axes} jit={jit}"
            assert len(got) == len(expected), msg
            for g, e in zip(got, expected):
                assert_allclose(g, e, kind="reduction", check_dtype=True, err_msg=msg)


@pytest.mark.parametrize("rec", _records_with())
def test_vmap_matches_loop(rec):
    _run_vmap_check(rec, jit=False)


def _vmap_jit_sample(rec) -> bool:
    """Half of the jit sample for vmap under jit (all of it with --full-grid): batching
    rules are also checked eagerly for every record, by test_vmap_matches_loop."""
    return _jit_sample(rec) and (FULL_GRID[0] or _seed(rec.name, "vmap-jit") % 2 == 0)


@pytest.mark.parametrize("rec", _records_with(_vmap_jit_sample))
def test_vmap_matches_loop_under_jit(rec):
    _run_vmap_check(rec, jit=True)


# --------------------------------------------------------------------------- rule specifics


def _grad(f, x):
    return np.asarray(xnp.grad(f)(xnp.asarray(x)))


def test_reduce_max_min_jvp_splits_ties_equally():
    x = np.array([1.0, 5.0, 0.0, 5.0, 5.0])
    np.testing.assert_allclose(_grad(lambda v: lax.reduce_max(v, (0,)), x),
                               [0, 1 / 3, 0, 1 / 3, 1 / 3])
    np.testing.assert_allclose(_grad(lambda v: lax.reduce_min(v, (0,)), -x),
                               [0, 1 / 3, 0, 1 / 3, 1 / 3])
    m = np.array([[2.0, 2.0, 1.0], [0.0, 3.0, -1.0]])
    _, t = xnp.jvp(lambda v: lax.reduce_max(v, (1,)), (xnp.asarray(m),),
                   (xnp.asarray(np.arange(6.0).reshape(2, 3)),))
    np.testing.assert_allclose(np.asarray(t), [0.5, 4.0])  # mean of the tied tangents 0, 1


def test_reduce_max_jvp_of_nan_is_nan():
    with np.errstate(invalid="ignore"):  # the weights are 0/0
        _, t = xnp.jvp(lambda v: lax.reduce_max(v, (0,)), (xnp.asarray([1.0, np.nan]),),
                       (xnp.asarray([1.0, 1.0]),))
    assert np.isnan(np.asarray(t))


@pytest.mark.parametrize("x,expected", [
    ([1.0, 2.0, 0.0, 4.0, 5.0], [0.0, 0.0, 40.0, 0.0, 0.0]),  # one zero: exact, no 0/0
    ([1.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 0.0]),  # two zeros
    ([2.0, 3.0, 4.0], [12.0, 8.0, 6.0]),
    ([7.0], [1.0]),
])
def test_reduce_prod_grad_handles_zeros(x, expected):
    np.testing.assert_array_equal(_grad(lambda v: lax.reduce_prod(v, (0,)), np.array(x)),
                                  expected)


def test_reduce_prod_partial_axes_and_empty():
    x = np.array([[[1.0, 0.0], [2.0, 3.0], [4.0, 5.0]]])  # (1, 3, 2); reduce axes (0, 2)
    g = np.asarray(xnp.jacrev(lambda v: lax.reduce_prod(v, (0, 2)))(xnp.asarray(x)))
    expected = np.zeros((3, 1, 3, 2))
    for k in range(3):
        a, b = x[0, k]
        expected[k, 0, k] = [b, a]
    np.testing.assert_array_equal(g, expected)
    _, t = xnp.jvp(lambda v: lax.reduce_prod(v, (1,)), (xnp.zeros((2, 0)),), (xnp.ones((2, 0)),))
    np.testing.assert_array_equal(np.asarray(t), [0.0, 0.0])


def test_reduce_prod_hessian_at_zero():
    x = np.array([1.0, 0.0, 3.0])
    with missing_rules_are_skips():
        h = np.asarray(xnp.hessian(lambda v: lax.reduce_prod(v, (0,)))(xnp.asarray(x)))
    np.testing.assert_allclose(h, [[0, 3, 0], [3, 0, 1], [0, 1, 0]])


def test_non_differentiable_reductions_give_zero_tangents():
    x = xnp.asarray([3.0, 1.0, 2.0])
    _, t = xnp.jvp(lambda v: lax.argmax(v, 0), (x,), (xnp.ones(3),))
    assert np.asarray(t).dtype == np.int64 and not np.any(np.asarray(t))
    for prim in (lax.reduce_and_p, lax.reduce_or_p, lax.reduce_xor_p, lax.argmax_p,
                 lax.argmin_p, lax.iota_p):
        assert isinstance(prim.differentiable, str)


_DOT_CASES = [
    ("matmul", (([1], [0]), ([], [])), (3, 4), (4, 5)),
    ("batched", (([2], [1]), ([0], [0])), (2, 3, 4), (2, 4, 5)),
    ("permuted", (([2], [0]), ([1], [2])), (4, 2, 3), (3, 5, 2)),
    ("multi", (([1, 2], [1, 0]), ([], [])), (2, 3, 4), (4, 3, 5)),
    ("outer", (([], []), ([], [])), (2,), (3,)),
    ("batch-only", (([], []), ([1], [0])), (2, 3), (3, 4)),
]


@pytest.mark.parametrize("name,dn,ls,rs", _DOT_CASES, ids=[c[0] for c in _DOT_CASES])
def test_dot_general_transpose_matches_dense_jacobian(name, dn, ls, rs):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(ls), rng.standard_normal(rs)
    out = np.asarray(lax.dot_general(xnp.asarray(x), xnp.asarray(y), dn))
    u = rng.standard_normal(out.shape)
    # one operand at a time (the joint vjp also needs add's transpose rule)
    (gx,) = xnp.vjp(lambda a: lax.dot_general(a, xnp.asarray(y), dn), xnp.asarray(x))[1](
        xnp.asarray(u))
    (gy,) = xnp.vjp(lambda b: lax.dot_general(xnp.asarray(x), b, dn), xnp.asarray(y))[1](
        xnp.asarray(u))
    # dense reference: out is linear in each operand; J^T u through an explicit basis
    ex = np.zeros(ls)
    for idx in np.ndindex(ls):
        e = np.zeros(ls)
        e[idx] = 1
        ex[idx] = np.sum(u * np.asarray(lax.dot_general(xnp.asarray(e), xnp.asarray(y), dn)))
    ey = np.zeros(rs)
    for idx in np.ndindex(rs):
        e = np.zeros(rs)
        e[idx] = 1
        ey[idx] = np.sum(u * np.asarray(lax.dot_general(xnp.asarray(x), xnp.asarray(e), dn)))
    np.testing.assert_allclose(np.asarray(gx), ex, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(gy), ey, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name,dn,ls,rs", _DOT_CASES, ids=[c[0] for c in _DOT_CASES])
def test_dot_general_vmap_every_axis_pair(name, dn, ls, rs):
    rng = np.random.default_rng(1)
    f = lambda a, b: lax.dot_general(a, b, dn)  # noqa: E731
    for al in [None] + list(range(len(ls) + 1)):
        for ar in [None] + list(range(len(rs) + 1)):
            if al is None and ar is None:
                continue
            x = _batched_arg(rng, make_array, ls, F64, al)
            y = _batched_arg(rng, make_array, rs, F64, ar)
            rows = [np.asarray(f(xnp.asarray(x if al is None else np.take(x, b, al)),
                                 xnp.asarray(y if ar is None else np.take(y, b, ar))))
                    for b in range(BATCH)]
            got = np.asarray(xnp.vmap(f, in_axes=(al, ar))(xnp.asarray(x), xnp.asarray(y)))
            np.testing.assert_allclose(got, np.stack(rows), rtol=1e-12, atol=1e-12,
                                       err_msg=f"in_axes={(al, ar)}")


def test_dot_general_preferred_element_type_rules():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.standard_normal((4, 2)).astype(np.float32)
    f = lambda a, b: lax.dot_general(a, b, (([1], [0]), ([], [])),  # noqa: E731
                                     preferred_element_type=np.float64)
    u = xnp.asarray(rng.standard_normal((3, 2)))
    out, pull = xnp.vjp(lambda a: f(a, xnp.asarray(y)), xnp.asarray(x))
    assert np.asarray(out).dtype == np.float64
    (gx,) = pull(u)
    (gy,) = xnp.vjp(lambda b: f(xnp.asarray(x), b), xnp.asarray(y))[1](u)
    u = np.asarray(u)
    assert np.asarray(gx).dtype == np.float32 and np.asarray(gy).dtype == np.float32
    np.testing.assert_allclose(np.asarray(gx), u @ y.T.astype(np.float64), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(gy), x.T.astype(np.float64) @ u, rtol=1e-6)
    _, t = xnp.jvp(f, (xnp.asarray(x), xnp.asarray(y)), (xnp.asarray(x), xnp.zeros((4, 2),
                                                                                  np.float32)))
    assert np.asarray(t).dtype == np.float64


@pytest.mark.parametrize("config", [((1, 2, 1),), ((-1, 1, 2),), ((0, -2, 0),), ((2, 0, 3),)])
def test_pad_transpose_in_operand_and_padding_value(config):
    x = np.array([1.0, 2.0, 3.0, 4.0])
    f = lambda a, p: lax.pad(a, p, config)  # noqa: E731
    out = np.asarray(f(xnp.asarray(x), xnp.asarray(0.0)))
    u = np.random.default_rng(3).standard_normal(out.shape)
    _, pull = xnp.vjp(f, xnp.asarray(x), xnp.asarray(0.0))
    gx, gp = pull(xnp.asarray(u))
    # where each operand element lands (indicator padding with a marker value)
    marks = np.asarray(f(xnp.asarray(np.arange(1.0, 5.0)), xnp.asarray(0.0)))
    ex = np.array([u[marks == k].sum() for k in range(1, 5)])
    np.testing.assert_allclose(np.asarray(gx), ex)
    np.testing.assert_allclose(np.asarray(gp), u[marks == 0].sum())


def test_pad_and_concatenate_batch_with_unbatched_operands():
    xs = np.arange(6.0).reshape(2, 3)
    pv = np.array([7.0, 8.0])
    got = xnp.vmap(lambda x, p: lax.pad(x, p, ((1, 1, 1),)))(xnp.asarray(xs), xnp.asarray(pv))
    expected = [[7, 0, 7, 1, 7, 2, 7], [8, 3, 8, 4, 8, 5, 8]]
    np.testing.assert_array_equal(np.asarray(got), expected)
    got = xnp.vmap(lambda p: lax.pad(xnp.asarray([1.0, 2.0]), p, ((0, 1, 0),)))(xnp.asarray(pv))
    np.testing.assert_array_equal(np.asarray(got), [[1, 2, 7], [1, 2, 8]])
    got = xnp.vmap(lambda x: lax.concatenate([x, lax.iota(np.float64, (2,)), x], 0),
                   in_axes=1)(xnp.asarray(xs))
    np.testing.assert_array_equal(np.asarray(got), [[0, 3, 0, 1, 0, 3], [1, 4, 0, 1, 1, 4],
                                                    [2, 5, 0, 1, 2, 5]])


def test_broadcast_in_dim_transpose_sums_stretched_size1_dims():
    x = np.arange(3.0).reshape(3, 1)
    f = lambda v: lax.broadcast_in_dim(v, (2, 3, 4), (1, 2))  # noqa: E731
    _, pull = xnp.vjp(f, xnp.asarray(x))
    u = np.random.default_rng(4).standard_normal((2, 3, 4))
    (g,) = pull(xnp.asarray(u))
    np.testing.assert_allclose(np.asarray(g), u.sum(axis=(0, 2))[:, None])


def test_reducer_batch_keeps_batch_axis_in_place():
    x = xnp.asarray(np.arange(24.0).reshape(2, 3, 4))
    jaxpr = xnp.make_jaxpr(xnp.vmap(lambda v: lax.reduce_sum(v, (0,)), in_axes=1))(x)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["reduce_sum"]
    np.testing.assert_array_equal(
        np.asarray(xnp.vmap(lambda v: lax.reduce_sum(v, (0,)), in_axes=1)(x)),
        np.arange(24.0).reshape(2, 3, 4).sum(0))
