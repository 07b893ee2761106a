"""Op-table records of the shape primitives (``xnp.lax.shape_ops``).

Params that depend on the operand's shape are computed from it inside ``fun``
(shapes are static), so one record covers every shape in its list. Records
whose name has a ``[...]`` suffix exercise a second parameterisation or only
the rule errors.
"""

import numpy as np

from tests.helpers import ALL, EDGE_SHAPES, NUMERIC, SMALL_SHAPES, OpRecord
from xnp import lax

NONSCALAR = [s for s in SMALL_SHAPES if s != ()]


def _pad_reference(x, pv, config):
    """lax.pad semantics written independently: interior spacing, then edges (negative = crop)."""
    out = x
    for ax, (lo, hi, interior) in enumerate(config):
        n = out.shape[ax]
        size = n + max(n - 1, 0) * interior
        shape = list(out.shape)
        shape[ax] = size
        spaced = np.full(shape, pv, dtype=x.dtype)
        idx = [slice(None)] * out.ndim
        idx[ax] = slice(0, size, interior + 1)
        spaced[tuple(idx)] = out
        before = [(0, 0)] * out.ndim
        before[ax] = (max(lo, 0), max(hi, 0))
        spaced = np.pad(spaced, before, constant_values=pv)
        idx = [slice(None)] * out.ndim
        idx[ax] = slice(max(-lo, 0), spaced.shape[ax] - max(-hi, 0))
        out = spaced[tuple(idx)]
    return out


def _pad_config(x, lo, hi, interior):
    return tuple((lo, hi, interior) for _ in x.shape)


def _size1_to_3(shape):
    return tuple(3 if d == 1 else d for d in shape)


RECORDS = [
    OpRecord(
        "broadcast_in_dim",
        fun=lambda x: lax.broadcast_in_dim(x, (2,) + x.shape, tuple(range(1, x.ndim + 1))),
        reference=lambda x: np.broadcast_to(x, (2,) + x.shape),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "broadcast_in_dim[size1]",
        fun=lambda x: lax.broadcast_in_dim(x, _size1_to_3(x.shape), tuple(range(x.ndim))),
        reference=lambda x: np.broadcast_to(x, _size1_to_3(x.shape)),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "broadcast_in_dim[errors]",
        fun=lambda x: lax.broadcast_in_dim(x, (5,), (0,)),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3)], TypeError, r"xnp\.lax\.broadcast_in_dim: operand dimension 0 has size 3"
                                       r".*float64\[3\]"),
            ([np.zeros((2, 1))], TypeError,
             r"one entry per operand dimension; operand float64\[2,1\]"),
        ],
    ),
    OpRecord(
        "expand_dims",
        fun=lambda x: lax.expand_dims(x, (0, x.ndim + 1)),
        reference=lambda x: np.expand_dims(x, (0, x.ndim + 1)),
        nargs=1, dtypes=ALL,
        errors=[],
    ),
    OpRecord(
        "reshape",
        fun=lambda x: lax.reshape(x, x.shape[::-1]),
        reference=lambda x: np.reshape(x, x.shape[::-1]),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "reshape[dimensions]",
        fun=lambda x: lax.reshape(x, (x.size,), tuple(reversed(range(x.ndim)))),
        reference=lambda x: np.transpose(x).reshape(-1),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "reshape[errors]",
        fun=lambda x: lax.reshape(x, (4, 2)),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(6)], TypeError, r"xnp\.lax\.reshape: cannot reshape float64\[6\] into shape "
                                       r"\(4, 2\)"),
        ],
    ),
    OpRecord(
        "squeeze",
        fun=lambda x: lax.squeeze(x, tuple(i for i, d in enumerate(x.shape) if d == 1)),
        reference=lambda x: np.squeeze(x, tuple(i for i, d in enumerate(x.shape) if d == 1)),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "squeeze[errors]",
        fun=lambda x: lax.squeeze(x, (0,)),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros((2, 3))], ValueError, r"xnp\.lax\.squeeze: cannot squeeze dimension 0 of "
                                             r"size 2.*float64\[2,3\]"),
            ([np.zeros(())], ValueError, r"xnp\.lax\.squeeze: dimensions=\(0,\)"),
        ],
    ),
    OpRecord(
        "transpose",
        fun=lambda x: lax.transpose(x, tuple(reversed(range(x.ndim)))),
        reference=lambda x: np.transpose(x),
        nargs=1, dtypes=ALL,
    ),
    OpRecord(
        "transpose[errors]",
        fun=lambda x: lax.transpose(x, (0, 0)),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros((2, 3))], ValueError, r"xnp\.lax\.transpose: `permutation`=\(0, 0\).*"
                                             r"float64\[2,3\]"),
        ],
    ),
    OpRecord(
        "concatenate",
        fun=lambda x, y: lax.concatenate([x, y], 0),
        reference=lambda x, y: np.concatenate([x, y], 0),
        nargs=2, dtypes=ALL,
        shapes=[((2, 3), (4, 3)), ((0,), (3,)), ((1,), (1,)), ((2, 0, 4), (2, 0, 4)),
                ((3, 1), (0, 1)), ((1, 2, 3), (2, 2, 3))],
        errors=[
            ([np.zeros(2), np.zeros(2, np.float32)], TypeError,
             r"xnp\.lax\.concatenate: operands must have equal dtypes, got float64\[2\], "
             r"float32\[2\]"),
            ([np.zeros((2, 3)), np.zeros((2, 4))], TypeError,
             r"xnp\.lax\.concatenate: operand shapes must match except along dimension 0"),
            ([np.zeros((2,)), np.zeros((2, 3))], TypeError,
             r"equal ranks, got float64\[2\], float64\[2,3\]"),
            ([np.zeros(()), np.zeros(())], ValueError, r"dimension=0 is out of range"),
        ],
    ),
    OpRecord(
        "concatenate[3 operands, last dim]",
        fun=lambda x, y, z: lax.concatenate([x, y, z], x.ndim - 1),
        reference=lambda x, y, z: np.concatenate([x, y, z], x.ndim - 1),
        nargs=3, dtypes=NUMERIC,
        shapes=[((2, 3), (2, 1), (2, 0)), ((3,), (0,), (2,)), ((2, 0, 1), (2, 0, 4), (2, 0, 0))],
    ),
    OpRecord(
        "iota",
        fun=lambda x: lax.iota(x.dtype, x.shape, x.ndim - 1),
        reference=lambda x: np.broadcast_to(
            np.arange(x.shape[-1]).astype(x.dtype).reshape((1,) * (x.ndim - 1) + (-1,)), x.shape),
        nargs=1, dtypes=NUMERIC, shapes=NONSCALAR,
    ),
    OpRecord(
        "iota[errors]",
        fun=lambda x: lax.iota(x.dtype, x.shape, 0),
        reference=None, nargs=1, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3, bool)], TypeError, r"xnp\.lax\.iota: dtype bool is not accepted"),
            ([np.zeros(())], ValueError, r"xnp\.lax\.iota: shape must have at least one dimension"),
        ],
    ),
    OpRecord(
        "rev",
        fun=lambda x: lax.rev(x, tuple(range(x.ndim))),
        reference=lambda x: np.flip(x, tuple(range(x.ndim))),
        nargs=1, dtypes=ALL,
        errors=[],
    ),
    OpRecord(
        "rev[first, errors]",
        fun=lambda x: lax.rev(x, (0,)),
        reference=lambda x: np.flip(x, 0),
        nargs=1, dtypes=ALL, shapes=NONSCALAR,
        errors=[
            ([np.zeros(())], ValueError, r"xnp\.lax\.rev: dimensions=\(0,\).*float64\[\]"),
        ],
    ),
    OpRecord(
        "pad",
        fun=lambda x, pv: lax.pad(x, pv, _pad_config(x, 1, 2, 1)),
        reference=lambda x, pv: _pad_reference(x, pv, _pad_config(x, 1, 2, 1)),
        nargs=2, dtypes=ALL,
        shapes=[(s, ()) for s in SMALL_SHAPES],
        errors=[
            ([np.zeros(3), np.zeros(2)], TypeError, r"xnp\.lax\.pad: padding_value must be a "
                                                    r"scalar, got float64\[2\]"),
            ([np.zeros(3), np.float32(0)], TypeError, r"xnp\.lax\.pad: operands must have equal "
                                                      r"dtypes, got float64\[3\], float32\[\]"),
        ],
    ),
    OpRecord(
        "pad[negative]",
        fun=lambda x, pv: lax.pad(x, pv, _pad_config(x, -1, 1, 1)),
        reference=lambda x, pv: _pad_reference(x, pv, _pad_config(x, -1, 1, 1)),
        nargs=2, dtypes=NUMERIC,
        shapes=[(s, ()) for s in SMALL_SHAPES],
    ),
    OpRecord(
        "pad[errors]",
        fun=lambda x, pv: lax.pad(x, pv, ((0, 0, -1),)),
        reference=None, nargs=2, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3), np.float64(0)], ValueError, r"xnp\.lax\.pad: interior padding must be "
                                                       r">= 0.*float64\[3\]"),
            ([np.zeros((2, 3)), np.float64(0)], ValueError, r"padding_config has 1 entries, "
                                                            r"operand float64\[2,3\] has rank 2"),
        ],
    ),
    OpRecord(
        "pad[crop to nothing]",
        fun=lambda x, pv: lax.pad(x, pv, ((-2, -2, 0),)),
        reference=None, nargs=2, dtypes=[], shapes=[],
        errors=[
            ([np.zeros(3), np.float64(0)], ValueError, r"dimension 0 would have negative size -1"),
        ],
    ),
    OpRecord(
        "copy",
        fun=lambda x: lax.copy(x),
        reference=lambda x: np.copy(x),
        nargs=1, dtypes=ALL, shapes=EDGE_SHAPES + [(2, 3)],
    ),
]
