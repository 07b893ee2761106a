"""Op-table records of ``dot_general`` (``xnp.lax.products``).

The reference is an independent ``numpy.einsum`` in a wide dtype (int64 /
float64 / complex128, cast back; bool as counts != 0), so it checks the
tensordot/matmul implementation and the XLA lowering alike, incl. empty
contracting dimensions (a zero result), outer products and batch dimensions.
"""

import numpy as np

from tests.helpers import ALL, OpRecord
from xnp import lax

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _einsum_spec(lhs_ndim, rhs_ndim, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    lhs = list(_LETTERS[:lhs_ndim])
    rhs = list(_LETTERS[lhs_ndim:lhs_ndim + rhs_ndim])
    for i, j in list(zip(lc, rc)) + list(zip(lb, rb)):
        rhs[j] = lhs[i]
    batch = [lhs[i] for i in lb]
    lfree = [lhs[i] for i in range(lhs_ndim) if i not in lc and i not in lb]
    rfree = [rhs[j] for j in range(rhs_ndim) if j not in rc and j not in rb]
    return f"{''.join(lhs)},{''.join(rhs)}->{''.join(batch + lfree + rfree)}"


def _wide(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return np.complex128
    if dtype.kind in "biu":
        return np.int64
    return np.float64


def _reference(dimension_numbers, out_dtype=None):
    def ref(x, y):
        spec = _einsum_spec(x.ndim, y.ndim, dimension_numbers)
        wide = _wide(x.dtype)
        out = np.einsum(spec, x.astype(wide), y.astype(wide))
        dt = np.dtype(out_dtype or x.dtype)
        return np.asarray(out != 0) if dt == np.bool_ else np.asarray(out).astype(dt)

    return ref


def _record(name, dimension_numbers, shapes, dtypes=ALL, preferred=None, errors=()):
    return OpRecord(
        name=f"dot_general-{name}",
        fun=lambda x, y: lax.dot_general(x, y, dimension_numbers,
                                         preferred_element_type=preferred),
        reference=_reference(dimension_numbers, preferred), nargs=2, dtypes=list(dtypes),
        shapes=shapes, kind="reduction", errors=list(errors))


MATMUL = (([1], [0]), ([], []))

RECORDS = [
    _record("matmul", MATMUL, [((3, 4), (4, 5)), ((0, 4), (4, 2)), ((3, 0), (0, 2)),
                               ((1, 1), (1, 1)), ((2, 3), (3, 0))],
            errors=[([np.ones((3, 4)), np.ones((5, 2))], TypeError,
                     r"lhs dim 1 has size 4 and rhs dim 0 has size 5 "
                     r"\(float64\[3,4\] and float64\[5,2\]\)"),
                    ([np.ones((3, 4)), np.ones((4, 2), np.float32)], TypeError, "equal dtypes"),
                    ([np.ones(4), np.ones(4)], ValueError, "out of range")]),
    _record("vector", (([0], [0]), ([], [])), [((4,), (4,)), ((0,), (0,)), ((1,), (1,))]),
    _record("batched", (([2], [1]), ([0], [0])),
            [((2, 3, 4), (2, 4, 5)), ((0, 3, 4), (0, 4, 2)), ((2, 3, 4), (2, 4, 0)),
             ((2, 3, 0), (2, 0, 5))],
            errors=[([np.ones((2, 3, 4)), np.ones((3, 4, 5))], TypeError, "batch dims")]),
    _record("outer", (([], []), ([], [])), [((3,), (2,)), ((), (3,)), ((), ()), ((2, 0), (3,))]),
    _record("permuted", (([2], [0]), ([1], [2])), [((4, 2, 3), (3, 5, 2)), ((1, 1, 1), (1, 1, 1))]),
    _record("multi-contract", (([1, 2], [0, 1]), ([], [])),
            [((2, 3, 4), (3, 4, 5)), ((2, 0, 4), (0, 4, 5))]),
    _record("preferred-int32", MATMUL, [((3, 4), (4, 5))],
            dtypes=[np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.bool_)],
            preferred=np.int32),
    _record("preferred-f32", MATMUL, [((3, 4), (4, 5))], dtypes=[np.dtype(np.float16)],
            preferred=np.float32,
            errors=[([np.ones((3, 4)), np.ones((4, 5))], TypeError, "preferred_element_type")]),
    OpRecord(name="dot_general-unpaired", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.dot_general(x, y, (([0, 1], [0]), ([], []))),
             errors=[([np.ones((2, 2)), np.ones((2, 2))], ValueError, "must pair up")]),
    OpRecord(name="dot_general-overlap", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.dot_general(x, y, (([0], [0]), ([0], [1]))),
             errors=[([np.ones((2, 2)), np.ones((2, 2))], ValueError,
                      "both contracting and batch")]),
    OpRecord(name="dot_general-repeated", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.dot_general(x, y, (([0, 0], [0, 1]), ([], []))),
             errors=[([np.ones((2, 2)), np.ones((2, 2))], ValueError, "repeat")]),
    OpRecord(name="dot_general-bad-numbers", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.dot_general(x, y, ([1], [0])),
             errors=[([np.ones((2, 2)), np.ones((2, 2))], TypeError, "dimension_numbers")]),
]
