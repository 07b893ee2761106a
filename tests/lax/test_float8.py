"""float8 (``float8_e4m3fn``, ``float8_e5m2``) across xnp.

1. The op table with a float8 dtype substituted in every record that takes floats:
   eagerly (NumPy backend), under ``jit`` and in eager-XLA mode, against the
   record's NumPy reference computed in float32 and rounded to the float8 type.
   The primitives in ``REJECTS`` (LAPACK decompositions, RFFT, ``complex``, ...)
   must reject float8 with a ``TypeError`` naming ``xnp.lax``, eagerly and under jit.
2. Transfers of all 256 bit patterns of each type, bit for bit (NaNs, +-inf for
   e5m2, +-0, max finite, subnormals): into and out of ``jit``, closed-over constants
   (scalar literals and large constants), ``xnp.asarray``, ``np.asarray``,
   ``.tolist()``, ``.item()``, ``repr``, eager-XLA mode.
3. A few ``xnp`` functions (add, sin, sum, matmul, sort, indexing) vs NumPy + ml_dtypes.

Sampled to keep the file fast: per record one shape, both float8 types eagerly and
one each under jit and in eager-XLA mode; of the compiled cases of the records of one
primitive (records that differ only in their parameters), those that cover jit and
eager-XLA and both types; ``--full-grid`` runs every shape x type x mode.
"""

import collections
import random
import re
import zlib

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import FLOATING, assert_allclose, check_vs_numpy
from tests.lax.op_table import all_records
from xnp import lax

E4M3, E5M2 = np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2)
F8 = [E4M3, E5M2]
MODES = ["eager", "jit", "eager_xla"]

# the reference is exact on the float8 operands themselves (bit-level semantics)
DIRECT_REFERENCE = {"bitcast_to_signed", "nextafter"}
# primitives that reject float8 with a TypeError, as they reject float16 and bfloat16:
# no float8 (or any 8/16-bit float) LAPACK kernels or FFTs, no float8 complex type, and
# reduce_precision's record only runs float64 (its float8 rejection is in its errors)
REJECTS = re.compile(r"^(complex|cholesky|triangular_solve|lu|qr|eigh|svd|eig|fft\[RFFT"
                     r"|reduce_precision)\b")
# float8 gaps in code owned elsewhere: strict, so a fix shows up as XPASS
KNOWN_GAPS: dict[str, str] = {}
# min/max-family records: their identity (the value of an empty window) is the largest
# finite value for a type without infinities, where the float32 reference has inf
_MIN_MAX = re.compile(r"max|min")


# --------------------------------------------------------------------------- op table


def _float_records():
    return [r for r in all_records() if any(np.dtype(d) in FLOATING for d in r.dtypes)]


def _flat_dims(shape):
    return [d for s in (shape if shape and isinstance(shape[0], tuple) else [shape]) for d in s]


def _sampled(name, dtype, mode) -> bool:
    """Each record runs eagerly with one of the two types and one compiled path, chosen by
    a hash of its name: eager e5m2 and jit with e4m3fn, or eager e4m3fn and eager-XLA with
    e5m2 (all of them with --full-grid)."""
    if helpers.FULL_GRID[0]:
        return True
    jit = zlib.crc32(name.encode()) % 2 == 0
    if mode == "eager":
        return (dtype == E4M3) != jit
    return (mode == "jit") == jit and (dtype == E4M3) == jit


def _cases():
    rows = []
    for rec in _float_records():
        shapes = list(rec.shapes)
        if not helpers.FULL_GRID[0]:
            nonempty = [s for s in shapes if 0 not in _flat_dims(s)] or shapes
            shapes = [random.Random(rec.name).choice(nonempty)]
        marks = ([pytest.mark.xfail(raises=TypeError, strict=True, reason=KNOWN_GAPS[rec.name])]
                 if rec.name in KNOWN_GAPS else [])
        rows += [(rec, dt, shape, mode, marks) for shape in shapes for dt in F8 for mode in MODES
                 if _sampled(rec.name, dt, mode)]
    # a compile each: of a primitive's records (helpers.primitive_family), the compiled
    # cases that cover jit and eager-XLA and both types (all of them with --full-grid)
    by_primitive = collections.defaultdict(list)
    for i, (rec, _, _, mode, _) in enumerate(rows):
        if mode != "eager":
            by_primitive[helpers.primitive_family(rec.name)].append(i)
    compiled = {i for idx in by_primitive.values() for i in helpers.covering_sample(
        idx, n=1, labels=lambda i: [("mode", rows[i][3]), ("dtype", rows[i][1].name)])}
    return [pytest.param(rec, dt, shape, mode, marks=marks,
                         id=f"{rec.name}-{dt.name}-{shape}-{mode}")
            for i, (rec, dt, shape, mode, marks) in enumerate(rows)
            if mode == "eager" or i in compiled]


def _reference(rec, args, dtype):
    """The record's reference in float32, rounded to ``dtype`` where the result's dtype
    follows the operands' (found by also running it in float64)."""
    if rec.name in DIRECT_REFERENCE:
        return rec.reference(*args)

    def run(wide):
        up = [a.astype(wide) if a.dtype == dtype else a for a in args]
        with np.errstate(all="ignore"):
            return rec.reference(*up)

    narrow, wide = run(np.float32), run(np.float64)
    multi = isinstance(narrow, (tuple, list))
    saturate = _MIN_MAX.search(rec.name) is not None and dtype == E4M3
    out = [_round(n, w, dtype, saturate) for n, w in
           zip(narrow if multi else [narrow], wide if multi else [wide])]
    return out if multi else out[0]


def _round(narrow, wide, dtype, saturate):
    narrow = np.asarray(narrow)
    if narrow.dtype != np.float32 or np.asarray(wide).dtype != np.float64:
        return narrow  # a result dtype that does not follow the operands (bool, int, ...)
    if saturate:
        big = float(ml_dtypes.finfo(dtype).max)
        narrow = np.clip(narrow, -big, big)
    return narrow.astype(dtype)


def _run(rec, args, mode):
    if mode == "jit":
        return xnp.jit(rec.fun)(*args)
    if mode == "eager_xla":
        with xnp.config.override(eager_backend="xla"):
            return rec.fun(*[xnp.asarray(a) for a in args])
    return rec.fun(*[xnp.asarray(a) for a in args])


@pytest.mark.parametrize("rec,dtype,shape,mode", _cases())
def test_op_table_float8(rec, dtype, shape, mode):
    rng = np.random.default_rng(0)
    shapes = shape if (shape and isinstance(shape[0], tuple)) else [shape] * rec.nargs
    args = [(rec.sampler or helpers.make_array)(rng, s, dtype) for s in shapes]
    if REJECTS.match(rec.name):
        with pytest.raises(TypeError, match=r"xnp\.lax\."):
            _run(rec, args, mode)
        return
    expected = _reference(rec, args, dtype)
    out = _run(rec, args, mode)
    assert_allclose(out, expected, kind=rec.kind if mode == "eager" else "reduction",
                    check_dtype=rec.check_dtype, err_msg=f"{mode} {rec.name} {dtype} {shape}")


# --------------------------------------------------------------------------- transfers


def _all_codes(dtype):
    """Every bit pattern of the 8-bit type (NaNs, +-inf for e5m2, +-0, subnormals, max)."""
    return np.arange(256, dtype=np.uint8).view(dtype)


def _bits(a):
    a = np.asarray(a)
    assert a.dtype.itemsize == 1 and a.dtype != object, a.dtype
    return a.view(np.uint8)


def _assert_bits(actual, expected, what):
    a = np.asarray(actual)
    assert a.dtype == expected.dtype, f"{what}: dtype {a.dtype} != {expected.dtype}"
    np.testing.assert_array_equal(_bits(a), _bits(expected), err_msg=what)


def test_codes_cover_the_interesting_values():
    for dt in F8:
        x = _all_codes(dt).astype(np.float32)
        fi = ml_dtypes.finfo(dt)
        for v in (0.0, float(fi.max), -float(fi.max), float(fi.smallest_subnormal), float(fi.tiny)):
            assert (x == v).any()
        assert np.isnan(x).any() and np.signbit(_all_codes(dt)[128])  # -0
        assert np.isinf(x).any() == (dt == E5M2)


@pytest.mark.parametrize("dtype", F8, ids=lambda d: d.name)
def test_transfers_are_bit_exact(dtype):
    x = _all_codes(dtype)
    _assert_bits(xnp.asarray(x), x, "xnp.asarray")
    _assert_bits(np.asarray(xnp.asarray(x)), x, "np.asarray")
    # into and out of jit: an argument, a strided argument, data movement only
    _assert_bits(xnp.jit(lambda a: a)(x), x, "jit identity")
    _assert_bits(xnp.jit(lambda a: lax.rev(a, (0,)))(x), x[::-1], "jit rev")
    _assert_bits(xnp.jit(lambda a: lax.reshape(a, (16, 16)))(x[::1]), x.reshape(16, 16),
                 "jit reshape")
    _assert_bits(xnp.jit(lambda a: a)(x[::3]), x[::3], "jit strided argument")
    # closed-over constants: a large one (dense hex) and splats of every code, and
    # scalar literals (each code once in the StableHLO text)
    _assert_bits(xnp.jit(lambda: xnp.asarray(x))(), x, "large constant")
    pairs = np.stack([x, x[::-1]], axis=1)  # not splats, even where +-0 or NaNs compare equal
    _assert_bits(xnp.jit(lambda: xnp.asarray(pairs))(), pairs, "pair constants")
    mixed = x[[0, 128, 0]]  # equal values, different bits: not a splat
    _assert_bits(xnp.jit(lambda: xnp.asarray(mixed))(), mixed, "+0/-0 constant")
    for i in (0, 128, 127, 255, 1, 129):  # +-0, NaN patterns, +-smallest subnormal
        splat = np.full(3, x[i])
        _assert_bits(xnp.jit(lambda s=splat: xnp.asarray(s))(), splat, f"splat of code {i}")
    fn = xnp.jit(lambda: xnp.stack([xnp.asarray(x[i]) for i in range(256)]))
    _assert_bits(fn(), x, "scalar literals")
    text = fn.lower().as_text()
    assert "f8E4M3FN" in text if dtype == E4M3 else "f8E5M2" in text


@pytest.mark.parametrize("dtype", F8, ids=lambda d: d.name)
@pytest.mark.parametrize("source", ["eager", "jit", "eager_xla"])
def test_host_views_of_results(dtype, source):
    """``np.asarray``, ``.tolist()``, ``.item()``, ``float()``, ``repr`` of an array the
    source produced (an eager NumPy-backed one, a jit output, an eager-XLA result)."""
    x = _all_codes(dtype)
    if source == "jit":
        a = xnp.jit(lambda v: lax.rev(lax.rev(v, (0,)), (0,)))(x)
    elif source == "eager_xla":
        with xnp.config.override(eager_backend="xla"):
            a = lax.rev(lax.rev(xnp.asarray(x), (0,)), (0,))
    else:
        a = xnp.asarray(x)
    _assert_bits(np.asarray(a), x, f"{source} np.asarray")
    # Python floats, as NumPy's (a NaN's payload does not survive a Python float)
    as_list = a.tolist()
    assert [type(v) for v in as_list] == [type(v) for v in x.tolist()]
    _assert_bits(np.array(as_list, dtype), np.array(x.tolist(), dtype), f"{source} tolist")
    picks = list(range(0, 256, 17)) + [255, 128, 127]
    items = [a[i].item() for i in picks]
    assert [type(v) for v in items] == [type(x[i].item()) for i in picks]
    _assert_bits(np.array(items, dtype), np.array([x[i].item() for i in picks], dtype), "item")
    assert np.signbit(float(a[128])) and np.isnan(float(a[255]))
    text = repr(a)
    assert text.startswith("array(") and dtype.name in text and "nan" in text and "-0" in text
    assert ("inf" in text) == (dtype == E5M2)
    assert text == repr(xnp.asarray(x))  # the same text whatever produced the array


@pytest.mark.parametrize("dtype", F8, ids=lambda d: d.name)
def test_eager_xla_round_trip(dtype):
    x = _all_codes(dtype)
    with xnp.config.override(eager_backend="xla"):
        a = xnp.asarray(x)
        _assert_bits(np.asarray(a), x, "eager-XLA asarray")
        moved = lax.reshape(lax.rev(a, (0,)), (16, 16))
        _assert_bits(moved, x[::-1].reshape(16, 16), "eager-XLA rev+reshape")
        _assert_bits(xnp.jit(lambda v: v)(moved), x[::-1].reshape(16, 16), "device into jit")


# --------------------------------------------------------------------------- numpy_api


def _finite(rng, shape, dtype, lo=-4.0, hi=4.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def _f32_then_round(fn):
    """NumPy's answer computed in float32 and rounded (ml_dtypes' own reductions and sort
    round each step or misplace NaN)."""

    def ref(xp, *args):
        if xp is not np:
            return fn(xp, *args)
        dt = args[0].dtype
        return np.asarray(fn(np, *[a.astype(np.float32) for a in args])).astype(dt)

    return ref


@pytest.mark.parametrize("dtype", F8, ids=lambda d: d.name)
def test_numpy_api_float8(dtype):
    rng = np.random.default_rng(1)
    x, y = _finite(rng, (3, 4), dtype), _finite(rng, (3, 4), dtype)
    check_vs_numpy(lambda xp, a, b: xp.add(a, b), x, y)
    check_vs_numpy(lambda xp, a, b: a * b - a, x, y)
    check_vs_numpy(lambda xp, a: xp.sin(a), x)
    check_vs_numpy(lambda xp, a: xp.maximum(a, 0), x)
    check_vs_numpy(lambda xp, a, b: xp.where(a > b, a, b), x, y)
    check_vs_numpy(_f32_then_round(lambda xp, a: xp.sum(a, axis=1)), x, kind="reduction")
    check_vs_numpy(_f32_then_round(lambda xp, a: xp.sum(a)), x, kind="reduction")
    check_vs_numpy(_f32_then_round(lambda xp, a, b: xp.matmul(a, b.T)), x, y, kind="reduction")
    with_nan = x.copy()
    with_nan[1, 2] = np.nan
    check_vs_numpy(_f32_then_round(lambda xp, a: xp.sort(a, axis=-1)), with_nan)
    check_vs_numpy(lambda xp, a: xp.argsort(a.reshape(-1), stable=True), x)
    check_vs_numpy(lambda xp, a: a[1:, ::-2], x)
    check_vs_numpy(lambda xp, a: a[np.array([2, 0]), 1], x)
    check_vs_numpy(lambda xp, a: a[a > 0], x, jit=False, jaxpr=False)  # data-dependent shape
    check_vs_numpy(lambda xp, a: a.astype(np.float32), x)
    # steps computed in float32 (as NumPy), whatever ml_dtypes' kind letter of the type
    check_vs_numpy(lambda xp: xp.arange(-3, 300, 7.5, dtype=dtype), rtol=0, atol=0)
    check_vs_numpy(lambda xp: xp.arange(0, 10, 0.3, dtype=dtype), rtol=0, atol=0)
    check_vs_numpy(lambda xp, a: xp.pad(a, 1, constant_values=np.asarray(2, dtype)), x)


@pytest.mark.parametrize("dtype", F8, ids=lambda d: d.name)
def test_index_update_float8(dtype):
    """``.at[].set`` keeps the bits of finite values (XLA's CPU scatter, like its
    concatenate/select/pad, turns e5m2 NaN payloads into the canonical NaN: not
    compared here; NaN stays NaN)."""
    codes = _all_codes(dtype)
    x = codes[:8]
    v = codes[[130, 3, 5, 250]]

    def body(a, b):
        return a.at[np.array([1, 3, 5, 7])].set(b)

    want = x.copy()
    want[[1, 3, 5, 7]] = v
    _assert_bits(body(xnp.asarray(x), xnp.asarray(v)), want, "eager .at[].set")
    _assert_bits(xnp.jit(body)(x, v), want, "jit .at[].set")
