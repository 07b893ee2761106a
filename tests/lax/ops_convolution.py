"""Op-table records of ``conv_general_dilated`` (``xnp.lax.convolution``).

The reference is written from the definition, independently of the xp
implementation (which uses sliding windows + tensordot): for every output
position and kernel tap it maps the tap back to an input coordinate through the
stride, kernel dilation, padding and lhs dilation (skipping holes and padding),
and adds the per-group channel products, in a wide dtype (int64 / float64 /
complex128, cast back: integer results wrap as XLA's do). Configurations are a
seeded sample over strides, paddings (incl. negative and 'SAME'/'SAME_LOWER'),
dilations, feature/batch groups, dimension numbers and 1-3 spatial dims, plus
edge cases (empty batch/features/spatial, window larger than the input).
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from tests.helpers import NUMERIC, OpRecord
from xnp import lax
from xnp.lax import ConvDimensionNumbers

_WIDE = {"c": np.complex128, "f": np.float64, "V": np.float64, "i": np.int64, "u": np.int64}


def _dilated(n, d):
    return 0 if n == 0 else (n - 1) * d + 1


def _same_pads(sizes, window, strides, lower):
    pads = []
    for n, k, s in zip(sizes, window, strides):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        small, big = total // 2, total - total // 2
        pads.append((big, small) if lower else (small, big))
    return pads


def conv_reference(lhs, rhs, strides, padding, lhs_dil, rhs_dil, dn=None, groups=1,
                   batch_groups=1, out_dtype=None):
    """The convolution by its definition (see the module docstring)."""
    nd = lhs.ndim
    lspec, rspec, ospec = dn if dn is not None else (tuple(range(nd)),) * 3
    x = np.transpose(lhs, lspec)
    w = np.transpose(rhs, rspec)
    out_dtype = np.dtype(out_dtype or lhs.dtype)
    wide = _WIDE[out_dtype.kind]
    x, w = x.astype(wide), w.astype(wide)
    n_in, o_feat, i_feat = x.shape[0], w.shape[0], w.shape[1]
    in_sp, win = x.shape[2:], w.shape[2:]
    if isinstance(padding, str):
        eff = [_dilated(k, d) for k, d in zip(win, rhs_dil)]
        padding = ([(0, 0)] * len(win) if padding == "VALID"
                   else _same_pads(in_sp, eff, strides, padding == "SAME_LOWER"))
    out_sp = []
    for n, k, s, (lo, hi), ld, rd in zip(in_sp, win, strides, padding, lhs_dil, rhs_dil):
        span = _dilated(n, ld) + lo + hi - _dilated(k, rd)
        out_sp.append(span // s + 1 if span >= 0 else 0)
    nb = n_in // batch_groups
    n_groups = groups * batch_groups
    oq = o_feat // n_groups
    out = np.zeros((nb, o_feat) + tuple(out_sp), wide)
    for pos in itertools.product(*[range(m) for m in out_sp]):
        for tap in itertools.product(*[range(k) for k in win]):
            src = []
            for p, t, s, (lo, _), ld, rd, n in zip(pos, tap, strides, padding, lhs_dil,
                                                    rhs_dil, in_sp):
                q = p * s + t * rd - lo  # coordinate in the dilated, unpadded input
                if q < 0 or q % ld or q // ld >= n:
                    break
                src.append(q // ld)
            else:
                for g in range(n_groups):
                    if batch_groups > 1:
                        xs = x[g * nb:(g + 1) * nb, :, *src]
                    else:
                        xs = x[:, g * i_feat:(g + 1) * i_feat, *src]
                    ws = w[g * oq:(g + 1) * oq, :, *tap]
                    out[(slice(None), slice(g * oq, (g + 1) * oq)) + pos] += xs @ ws.T
    out = np.transpose(out, np.argsort(ospec))
    return out.astype(out_dtype)


def _rank_dn(kind, nsp):
    """Dimension numbers of a kind for ``nsp`` spatial dims, as given to the wrapper."""
    letters = "DHW"[3 - nsp:]
    if kind == "default":
        return None
    if kind == "channels_last":
        return ("N" + letters + "C", letters + "IO", "N" + letters + "C")
    if kind == "mixed":  # odd orders, spatial order taken from the kernel spec
        return ("C" + letters[::-1] + "N", "O" + letters + "I", letters + "NC")
    return kind


def _shapes(dn, n, c, sp, o, i, k):
    """lhs/rhs shapes of canonical sizes laid out by the (resolved) dimension numbers."""
    lhs = [0] * (2 + len(sp))
    rhs = [0] * (2 + len(sp))
    for d, v in zip(dn.lhs_spec, (n, c) + tuple(sp)):
        lhs[d] = v
    for d, v in zip(dn.rhs_spec, (o, i) + tuple(k)):
        rhs[d] = v
    return tuple(lhs), tuple(rhs)


def _record(name, nsp, *, strides=None, padding=None, lhs_dil=None, rhs_dil=None,
            dn_kind="default", groups=1, batch_groups=1, sizes=None, dtypes=None,
            preferred=None, errors=()):
    strides = strides or (1,) * nsp
    padding = padding if padding is not None else ((0, 0),) * nsp
    lhs_dil = lhs_dil or (1,) * nsp
    rhs_dil = rhs_dil or (1,) * nsp
    dn_arg = _rank_dn(dn_kind, nsp)
    dn = lax.conv_dimension_numbers((0,) * (nsp + 2), (0,) * (nsp + 2), dn_arg)
    shapes = [_shapes(dn, *s) for s in sizes]

    def fun(x, y):
        return lax.conv_general_dilated(x, y, strides, padding, lhs_dil, rhs_dil, dn_arg,
                                        feature_group_count=groups,
                                        batch_group_count=batch_groups,
                                        preferred_element_type=preferred)

    def reference(x, y):
        return conv_reference(x, y, strides, padding, lhs_dil, rhs_dil, dn, groups,
                              batch_groups, preferred)

    return OpRecord(name=f"conv_general_dilated-{name}", fun=fun, reference=reference,
                    nargs=2, dtypes=list(dtypes or NUMERIC), shapes=shapes, kind="reduction",
                    errors=list(errors))


def _sampled_configs(n=18, seed=7):
    """A seeded sample of the configuration grid (each with a few dtypes)."""
    r = random.Random(seed)
    out = []
    for idx in range(n):
        nsp = r.choice([1, 1, 2, 2, 2, 3])
        groups, batch_groups = r.choice([(1, 1), (1, 1), (2, 1), (1, 2), (3, 1)])
        strides = tuple(r.choice([1, 1, 2, 3]) for _ in range(nsp))
        lhs_dil = tuple(r.choice([1, 1, 2]) for _ in range(nsp))
        rhs_dil = tuple(r.choice([1, 1, 2]) for _ in range(nsp))
        pad_kind = r.choice(["pairs", "pairs", "negative", "SAME", "VALID", "SAME_LOWER"])
        if pad_kind == "pairs":
            padding = tuple((r.randint(0, 2), r.randint(0, 2)) for _ in range(nsp))
        elif pad_kind == "negative":
            padding = tuple((r.randint(-1, 1), r.randint(-2, 1)) for _ in range(nsp))
        else:
            padding = pad_kind
        dn_kind = r.choice(["default", "channels_last", "mixed"])
        sp = tuple(r.randint(3, 6 if nsp < 3 else 4) for _ in range(nsp))
        k = tuple(r.randint(1, 3) for _ in range(nsp))
        i = r.randint(1, 3)
        n = 2 * batch_groups
        c = i * groups
        o = 2 * groups * batch_groups
        dtypes = r.sample(NUMERIC, 3)
        name = (f"s{idx}-{nsp}d-st{strides}-pad{padding}-ld{lhs_dil}-rd{rhs_dil}-{dn_kind}"
                f"-g{groups}-b{batch_groups}").replace(" ", "")
        out.append(_record(name, nsp, strides=strides, padding=padding, lhs_dil=lhs_dil,
                           rhs_dil=rhs_dil, dn_kind=dn_kind, groups=groups,
                           batch_groups=batch_groups, sizes=[(n, c, sp, o, i, k)],
                           dtypes=dtypes))
    return out


F64 = [np.dtype(np.float64)]
_X = np.ones((2, 4, 5, 5))
_W = np.ones((6, 2, 3, 3))
_conv = lambda x, y, **kw: lax.conv_general_dilated(x, y, (1, 1), "VALID", **kw)  # noqa: E731

RECORDS = _sampled_configs() + [
    _record("2d-basic", 2, sizes=[(2, 3, (5, 6), 4, 3, (3, 2)), (1, 1, (1, 1), 1, 1, (1, 1))],
            errors=[([_X, np.ones((6, 3, 3, 3))], TypeError, "feature count mismatch"),
                    ([_X, np.ones((6, 4, 3, 3), np.float32)], TypeError, "equal dtypes"),
                    ([_X > 0, _W > 0], TypeError, "bool"),
                    ([_X, np.ones((6, 4, 3))], TypeError, "equal ranks")]),
    _record("0d-no-spatial", 0, groups=2, sizes=[(2, 4, (), 4, 2, ())],
            dtypes=F64 + [np.dtype(np.int8)]),
    _record("1d-all-dtypes", 1, strides=(2,), padding=((1, 2),), sizes=[(2, 2, (7,), 3, 2, (3,))],
            dtypes=NUMERIC),
    _record("3d-channels-last", 3, strides=(1, 2, 1), padding="SAME", rhs_dil=(1, 1, 2),
            dn_kind="channels_last", sizes=[(1, 2, (3, 4, 5), 2, 2, (2, 2, 2))],
            dtypes=[np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.complex128)]),
    _record("depthwise", 2, groups=4, padding="SAME", dn_kind="channels_last",
            sizes=[(2, 4, (5, 5), 8, 1, (3, 3))], dtypes=F64 + [np.dtype(np.float16)]),
    _record("batch-groups", 2, batch_groups=3, strides=(2, 1), padding=((1, 0), (0, 1)),
            sizes=[(6, 2, (4, 5), 3, 2, (2, 2))], dtypes=F64 + [np.dtype(np.int32)]),
    _record("transposed-conv", 2, lhs_dil=(2, 3), padding=((2, 2), (1, 1)),
            sizes=[(1, 2, (3, 3), 2, 2, (3, 2))], dtypes=F64 + [np.dtype(np.complex64)]),
    _record("empty", 2, padding=((1, 1), (0, 0)),
            sizes=[(0, 2, (4, 4), 3, 2, (2, 2)), (2, 0, (4, 4), 3, 0, (2, 2)),
                   (2, 2, (0, 4), 3, 2, (2, 2)), (2, 2, (4, 4), 0, 2, (2, 2))],
            dtypes=F64 + [np.dtype(np.int64)]),
    _record("window-too-large", 1, sizes=[(2, 2, (3,), 2, 2, (5,))], dtypes=F64,
            errors=[([np.ones((2, 2, 3)), np.ones((2, 2, 0))], ValueError,
                     r"kernel's spatial dimensions \(0,\)")]),
    _record("crop-everything", 1, padding=((-2, -2),), sizes=[(2, 2, (3,), 2, 2, (1,))],
            dtypes=F64),
    _record("preferred-int32", 1, padding=((1, 1),), preferred=np.int32,
            sizes=[(2, 3, (5,), 2, 3, (2,))], dtypes=[np.dtype(np.int8), np.dtype(np.int16)]),
    _record("preferred-f32", 1, preferred=np.float32, sizes=[(2, 3, (5,), 2, 3, (2,))],
            dtypes=[np.dtype(np.float16)],
            errors=[([np.ones((2, 3, 5)), np.ones((2, 3, 2))], TypeError,
                     "preferred_element_type")]),
    OpRecord(name="conv_general_dilated-lax.conv", nargs=2, dtypes=F64 + [np.dtype(np.int32)],
             shapes=[((2, 3, 6, 5), (4, 3, 3, 2))], kind="reduction",
             fun=lambda x, y: lax.conv(x, y, (2, 1), "SAME"),
             reference=lambda x, y: conv_reference(x, y, (2, 1), "SAME", (1, 1), (1, 1))),
    OpRecord(name="conv_general_dilated-lax.conv_with_general_padding", nargs=2, dtypes=F64,
             shapes=[((1, 2, 5), (3, 2, 2))], kind="reduction",
             fun=lambda x, y: lax.conv_with_general_padding(x, y, (1,), ((2, -1),), (2,), (3,)),
             reference=lambda x, y: conv_reference(x, y, (1,), ((2, -1),), (2,), (3,))),
    OpRecord(name="conv_general_dilated-groups", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: _conv(x, y, feature_group_count=3),
             errors=[([_X, np.ones((6, 2, 3, 3))], ValueError, "multiple of feature_group"),
                     ([np.ones((2, 6, 5, 5)), np.ones((4, 2, 3, 3))], ValueError,
                      "rhs output-feature dimension \\(size 4\\) must be a multiple")]),
    OpRecord(name="conv_general_dilated-batch-groups", reference=None, nargs=2, dtypes=[],
             shapes=[], fun=lambda x, y: _conv(x, y, batch_group_count=2),
             errors=[([np.ones((3, 2, 5, 5)), np.ones((4, 2, 3, 3))], ValueError,
                      "lhs batch dimension \\(size 3\\) must be a multiple"),
                     ([np.ones((2, 2, 5, 5)), np.ones((3, 2, 3, 3))], ValueError,
                      "rhs output-feature dimension \\(size 3\\)")]),
    OpRecord(name="conv_general_dilated-both-groups", reference=None, nargs=2, dtypes=[],
             shapes=[], fun=lambda x, y: _conv(x, y, feature_group_count=2, batch_group_count=2),
             errors=[([np.ones((2, 4, 5, 5)), np.ones((4, 2, 3, 3))], ValueError,
                      "at most one")]),
    OpRecord(name="conv_general_dilated-strides", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.conv_general_dilated(x, y, (1,), "VALID"),
             errors=[([_X, _W], ValueError, "one entry per spatial dimension")]),
    OpRecord(name="conv_general_dilated-zero-stride", reference=None, nargs=2, dtypes=[],
             shapes=[], fun=lambda x, y: lax.conv_general_dilated(x, y, (0, 1), "VALID"),
             errors=[([_X, _W], ValueError, "must be >= 1")]),
    OpRecord(name="conv_general_dilated-bad-dn", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.conv_general_dilated(x, y, (1, 1), "VALID",
                                                       dimension_numbers=("NCHW", "OIHW", "NCHX")),
             errors=[([_X, _W], TypeError, "same spatial")]),
    OpRecord(name="conv_general_dilated-bad-padding", reference=None, nargs=2, dtypes=[],
             shapes=[], fun=lambda x, y: lax.conv_general_dilated(x, y, (1, 1), "FULL"),
             errors=[([_X, _W], ValueError, "unknown padding")]),
    OpRecord(name="conv_general_dilated-bad-spec", reference=None, nargs=2, dtypes=[], shapes=[],
             fun=lambda x, y: lax.conv_general_dilated(
                 x, y, (1, 1), "VALID", dimension_numbers=ConvDimensionNumbers(
                     (0, 1, 2, 2), (0, 1, 2, 3), (0, 1, 2, 3))),
             errors=[([_X, _W], ValueError, "permutation")]),
]
