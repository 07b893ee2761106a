"""Oracles driven by the op table, for every primitive: eager (NumPy and XLA
backends) vs NumPy reference,
``jit(f)`` vs NumPy (no retrace on the second call), ``eval_jaxpr(make_jaxpr(f))``
vs NumPy, and every listed shape/dtype-rule error (eagerly and under jit)."""

import zlib

import numpy as np
import pytest

import xnp
from tests.helpers import FULL_GRID, assert_allclose, grid, make_array
from tests.lax.op_table import all_records
from xnp.tracing import eval_jaxpr

RECORDS = all_records()


def _cases(n):  # n shape x dtype cases per primitive (every case with --full-grid)
    out = []
    for rec in RECORDS:
        for i, case in enumerate(grid(n=n, seed=zlib.crc32(rec.name.encode()) % 1000,
                                      shape=rec.shapes, dtype=rec.dtypes)):
            out.append(pytest.param(rec, case, id=f"{rec.name}-{case}"))
    return out


def _inputs(rec, case, rng):
    shapes = case.shape if (case.shape and isinstance(case.shape[0], tuple)) else [case.shape] * rec.nargs
    sampler = rec.sampler or make_array
    return [sampler(rng, s, case.dtype) for s in shapes]


@pytest.mark.parametrize("rec,case", _cases(n=2))
def test_op_matches_numpy(rec, case):
    rng = np.random.default_rng(0)
    args = _inputs(rec, case, rng)
    with np.errstate(all="ignore"):
        expected = rec.reference(*args)
    msg = f"{rec.name} {case}"
    eager = rec.fun(*[xnp.asarray(a) for a in args])
    assert_allclose(eager, expected, kind=rec.kind, check_dtype=rec.check_dtype,
                    err_msg="eager " + msg, rtol=rec.rtol, atol=rec.atol)
    jf = xnp.jit(rec.fun)
    out = jf(*args)
    assert_allclose(out, expected, kind="reduction", check_dtype=rec.check_dtype,
                    err_msg="jit " + msg, rtol=rec.rtol, atol=rec.atol)
    jf(*args)
    assert jf.trace_count == 1
    closed = xnp.make_jaxpr(rec.fun)(*args)
    outs = eval_jaxpr(closed.jaxpr, closed.consts, *[xnp.asarray(a) for a in args])
    res = outs if isinstance(expected, (tuple, list)) else outs[0]
    assert_allclose(res, expected, kind=rec.kind, check_dtype=rec.check_dtype,
                    err_msg="eval_jaxpr " + msg, rtol=rec.rtol, atol=rec.atol)


# a smaller sample: every case compiles its own executable (the jit test above covers XLA
# too): half of the primitives, chosen by a hash of the name (all with --full-grid)
@pytest.mark.parametrize("rec,case", [c for c in _cases(n=1) if FULL_GRID[0] or zlib.crc32(
    c.values[0].name.encode()) % 2])
def test_op_eager_xla_matches_numpy(rec, case):
    """The eager XLA backend (one cached executable per primitive) against NumPy."""
    rng = np.random.default_rng(0)
    args = _inputs(rec, case, rng)
    with np.errstate(all="ignore"):
        expected = rec.reference(*args)
    with xnp.config.override(eager_backend="xla"):
        out = rec.fun(*[xnp.asarray(a) for a in args])
    assert_allclose(out, expected, kind="reduction", check_dtype=rec.check_dtype,
                    err_msg=f"eager xla {rec.name} {case}", rtol=rec.rtol, atol=rec.atol)


def _error_cases():
    return [pytest.param(rec, i, id=f"{rec.name}-err{i}") for rec in RECORDS
            for i in range(len(rec.errors))]


@pytest.mark.parametrize("rec,i", _error_cases())
def test_op_rule_errors(rec, i):
    args, exc, pattern = rec.errors[i]
    xargs = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(exc, match=pattern):
        rec.fun(*xargs)
    with pytest.raises(exc, match=pattern):
        xnp.jit(rec.fun)(*args)
