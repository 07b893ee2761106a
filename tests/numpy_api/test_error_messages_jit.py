"""Bad input raises NumPy's exception type with a message naming the function, the
arguments, their shapes and full dtype names: the same message eagerly and under jit."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xnp


def _setitem(m, idx, value_shape, dtype="float64"):
    a = m.ones((2, 3))
    a[idx] = m.ones(value_shape, dtype=dtype)
    return a


CASES = [
    ("add", lambda m: m.add(m.ones((2, 3)), m.ones((4,), dtype=m.float32)),
     ["xnp.add", "could not be broadcast together with shapes (2, 3) (4,)",
      "x1: float64 of shape (2, 3)", "x2: float32 of shape (4,)"]),
    ("operator", lambda m: m.ones((2, 3), dtype=m.int32) * m.ones((4,), dtype=m.int16),
     ["xnp.multiply", "x1: int32 of shape (2, 3)", "x2: int16 of shape (4,)"]),
    ("matmul batch", lambda m: m.matmul(m.ones((2, 2, 3)), m.ones((3, 3, 4), dtype=m.float32)),
     ["xnp.matmul", "operands could not be broadcast together", "batch dimensions (2,) of x1",
      "dtype float64, shape (2,2,3)", "(3,) of x2", "dtype float32, shape (3,3,4)"]),
    ("solve vector", lambda m: m.linalg.solve(m.ones((3, 3)), m.ones((4,), dtype=m.float32)),
     ["xnp.linalg.solve", "(m,m),(m)->(m)", "size 4 is different from 3",
      "`b` (float32, shape (4,))", "`a` (float64, shape (3, 3))"]),
    ("solve matrix", lambda m: m.linalg.solve(m.ones((3, 3)), m.ones((4, 2))),
     ["xnp.linalg.solve", "(m,m),(m,n)->(m,n)", "`b` (float64, shape (4, 2))"]),
    ("solve batch", lambda m: m.linalg.solve(m.ones((2, 3, 3)), m.ones((5, 3, 1))),
     ["xnp.linalg.solve", "a: float64 of shape (2,)", "b: float64 of shape (5,)"]),
    ("float index", lambda m: m.ones(3)[m.asarray([0.5])],
     ["arrays used as indices must be of integer (or boolean) type",
      "an index of dtype float64 and shape (1,)"]),
    ("float 0-d index", lambda m: m.ones(3)[m.asarray(0.5, dtype=m.float32)],
     ["only integers, slices", "an index of dtype float32 and shape ()"]),
    ("setitem basic", lambda m: _setitem(m, slice(None), (4,)),
     ["could not broadcast input array from shape (4,) into shape (2,3)",
      "xnp.Array.__setitem__", "value of dtype float64 and shape (4,)",
      "array of dtype float64 and shape (2, 3)"]),
    ("setitem strided", lambda m: _setitem(m, (slice(None), slice(None, None, 2)), (3,), "int32"),
     ["could not broadcast input array from shape (3,) into shape (2,2)",
      "value of dtype int32 and shape (3,)"]),
    ("setitem advanced", lambda m: _setitem(m, [0, 1], (4,)),
     ["shape mismatch: value array of shape (4,) could not be broadcast to indexing result of "
      "shape (2,3)", "value of dtype float64 and shape (4,)"]),
]


def _raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.value


@pytest.mark.parametrize("name, fn, parts", CASES, ids=[c[0] for c in CASES])
def test_error_type_is_numpys_and_message_is_the_same_under_jit(name, fn, parts):
    expected = type(_raised(lambda: fn(np)))  # NumPy's own exception type is the oracle
    eager = _raised(lambda: fn(xnp))
    jitted = _raised(lambda: xnp.jit(lambda: fn(xnp))())
    assert type(eager) is expected, (name, eager)
    assert type(jitted) is expected, (name, jitted)
    assert str(eager) == str(jitted)
    for part in parts:
        assert part in str(eager), (part, str(eager))


def test_setitem_mismatch_keeps_numpys_message_as_its_start():
    for idx, shape in [(slice(None), (4,)), (slice(None), (1, 4)), ([0, 1], (4,)),
                       (0, (2,)), (Ellipsis, (3, 3))]:
        want = str(_raised(lambda: _setitem(np, idx, shape)))
        got = str(_raised(lambda: _setitem(xnp, idx, shape)))
        jitted = str(_raised(lambda: xnp.jit(lambda: _setitem(xnp, idx, shape))()))
        assert got.startswith(want + " (xnp.Array.__setitem__: "), (got, want)
        assert jitted == got
        assert re.search(r"value of dtype float64 and shape \(.*\) into an array of dtype "
                         r"float64 and shape \(2, 3\)", got)
