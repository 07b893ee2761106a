"""Oracles driven by the op table, for every primitive: eager (NumPy and XLA
backends) vs NumPy reference,
``jit(f)`` vs NumPy (no retrace on the second call; for the cases that cover each record
and each primitive's dtype families and kinds of shape), ``eval_jaxpr(make_jaxpr(f))``
vs NumPy, and every listed shape/dtype-rule error (eagerly and under jit)."""

import collections
import zlib

import numpy as np
import pytest

import xnp
from tests.helpers import (
    FULL_GRID, assert_allclose, covering_sample, family, grid, make_array, primitive_family,
    shape_kind,
)
from tests.lax.op_table import all_records
from xnp.tracing import eval_jaxpr

RECORDS = all_records()


def _rows(n):  # n shape x dtype cases per record (every case with --full-grid)
    return [(rec, case) for rec in RECORDS
            for case in grid(n=n, seed=zlib.crc32(rec.name.encode()) % 1000,
                             shape=rec.shapes, dtype=rec.dtypes)]


def _per_primitive(rows, labels):
    """Positions of ``rows`` that cover, for each primitive (records that differ only in
    their parameters share one: ``tests.helpers.primitive_family``), every label its rows
    give (all of them with --full-grid)."""
    by_primitive = collections.defaultdict(list)
    for i, (rec, _) in enumerate(rows):
        by_primitive[primitive_family(rec.name)].append(i)
    return {i for idx in by_primitive.values()
            for i in covering_sample(idx, n=1, labels=lambda i: labels(*rows[i]))}


def _cases(n):
    """Every record with ``n`` cases, eagerly and through the jaxpr; under jit (a compile
    each) those that cover each record and, for each primitive, each dtype family and each
    kind of shape (empty, 0-d, n-d) of its records' cases (every case with --full-grid)."""
    rows = _rows(n)
    jitted = _per_primitive(rows, lambda rec, case: [
        ("record", id(rec)), ("dtype", family(case.dtype)), ("shape", shape_kind(case.shape))])
    return [pytest.param(rec, case, i in jitted, id=f"{rec.name}-{case}")
            for i, (rec, case) in enumerate(rows)]


def _inputs(rec, case, rng):
    shapes = case.shape if (case.shape and isinstance(case.shape[0], tuple)) else [case.shape] * rec.nargs
    sampler = rec.sampler or make_array
    return [sampler(rng, s, case.dtype) for s in shapes]


@pytest.mark.parametrize("rec,case,jit", _cases(n=2))
def test_op_matches_numpy(rec, case, jit):
    rng = np.random.default_rng(0)
    args = _inputs(rec, case, rng)
    with np.errstate(all="ignore"):
        expected = rec.reference(*args)
    msg = f"{rec.name} {case}"
    eager = rec.fun(*[xnp.asarray(a) for a in args])
    assert_allclose(eager, expected, kind=rec.kind, check_dtype=rec.check_dtype,
                    err_msg="eager " + msg, rtol=rec.rtol, atol=rec.atol)
    if jit:
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


def _eager_xla_cases():
    """A smaller sample: every case compiles its own executable (the jit test above covers
    XLA too): the records of half of the names, chosen by a hash, one case each; of the
    records of one primitive, those that cover each dtype family and each kind of shape of
    their cases (all of them with --full-grid)."""
    rows = [r for r in _rows(1) if FULL_GRID[0] or zlib.crc32(r[0].name.encode()) % 2]
    kept = _per_primitive(rows, lambda rec, case: [
        ("dtype", family(case.dtype)), ("shape", shape_kind(case.shape))])
    return [pytest.param(rec, case, id=f"{rec.name}-{case}")
            for i, (rec, case) in enumerate(rows) if i in kept]


@pytest.mark.parametrize("rec,case", _eager_xla_cases())
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
