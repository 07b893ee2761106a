"""Python ints as ``jit`` arguments and as constants in traced code: the same values,
dtypes and ``OverflowError`` s as eager xnp, with NumPy 2 (NEP 50) on this machine as the
oracle: a Python int combined with an integer array must fit that array's dtype
(``int8_array * 300`` raises), except in comparisons, ``clip`` and ``divide``, where NumPy
treats it mathematically. The check of an argument runs on every call of the cached
entry, and ints in ``[2**63, 2**64)`` are held as NumPy holds them (uint64)."""

import random

import numpy as np
import pytest

import xnp
from tests import helpers
from tests.helpers import grid

DTYPES = [np.int8, np.int16, np.uint8, np.uint32, np.int64, np.uint64]

# NEP 50 ufuncs whose NumPy result xnp follows for every Python int operand
OPS = {
    "multiply": lambda xp, x, s: xp.multiply(x, s),
    "add_reflected": lambda xp, x, s: xp.add(s, x),
    "less": lambda xp, x, s: xp.less(x, s),
    "equal_reflected": lambda xp, x, s: xp.equal(s, x),
    "greater_equal": lambda xp, x, s: xp.greater_equal(x, s),
    "divide": lambda xp, x, s: xp.divide(x, s),
    "clip_upper": lambda xp, x, s: xp.clip(x, None, s),
    "clip_lower": lambda xp, x, s: xp.clip(x, s, None),
    "maximum": lambda xp, x, s: xp.maximum(x, s),
}


def _values(dt):
    """In range, the boundaries, one past each, and the ends of int64/uint64."""
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    vals = [0, 7, lo, hi, hi + 1, lo - 1, 2**63 - 1, 2**63, 2**64 - 1, -(2**63)]
    return sorted({v for v in vals if -(2**63) <= v < 2**64})


def _x(dt):
    info = np.iinfo(dt)
    return np.array([info.min, 0, 1, info.max], dt)


def _outcome(fn):
    """``('value', ndarray)`` or ``('error', class, message)``; division by zero gives
    inf/NaN quietly."""
    try:
        with np.errstate(all="ignore"):
            return ("value", np.asarray(fn()))
    except (OverflowError, TypeError, ValueError) as e:
        return ("error", type(e), str(e))


def _same(a, b, what, exact_message=True):
    assert a[0] == b[0], f"{what}: {a} != {b}"
    if a[0] == "error":
        assert a[1] is b[1] and (a[2] == b[2] or not exact_message), f"{what}: {a} != {b}"
        return
    assert a[1].dtype == b[1].dtype, f"{what}: {a} != {b}"
    if a[1].dtype.kind == "f":  # XLA's division may differ from NumPy's in the last bit
        np.testing.assert_allclose(a[1], b[1], rtol=1e-15, err_msg=what)
    else:
        assert a[1].tolist() == b[1].tolist(), f"{what}: {a} != {b}"


def _check(numpy_out, eager_out, jit_out, what):
    _same(eager_out, jit_out, what + " (eager vs jit)")
    # NumPy's own message can differ (int64 overflow: "too large to convert to C long")
    _same(numpy_out, eager_out, what + " (numpy vs xnp)", exact_message=False)


def _constant_cases(n=36, seed=0):
    """(dtype, op, value) triples, sampled with a fixed seed (all with --full-grid)."""
    cases = [(dt, op, v) for dt in DTYPES for op in sorted(OPS) for v in _values(dt)]
    if not helpers.FULL_GRID[0]:
        cases = random.Random(seed).sample(cases, n)
    return cases


@pytest.mark.parametrize("case", grid(n=24, dt=DTYPES, op=sorted(OPS)), ids=repr)
def test_python_int_argument_matches_eager_and_numpy(case):
    # one jitted function for every value: in- and out-of-range values reuse its entry
    dt, fn = case.dt, OPS[case.op]
    x = _x(dt)
    jitted = xnp.jit(lambda x, s: fn(xnp, x, s))
    for v in _values(dt):
        numpy_out = _outcome(lambda: fn(np, x, v))
        _check(numpy_out, _outcome(lambda: fn(xnp, xnp.asarray(x), v)),
               _outcome(lambda: jitted(x, v)), f"{case.op}({np.dtype(dt).name}, {v})")
    # one entry for ints up to int64's maximum, one for those above it
    assert jitted.trace_count <= 2


@pytest.mark.parametrize("dt,op,v", _constant_cases(),
                         ids=lambda c: np.dtype(c).name if isinstance(c, type) else str(c))
def test_python_int_constant_matches_eager_and_numpy(dt, op, v):
    fn = OPS[op]
    x = _x(dt)
    _check(_outcome(lambda: fn(np, x, v)), _outcome(lambda: fn(xnp, xnp.asarray(x), v)),
           _outcome(lambda: xnp.jit(lambda x: fn(xnp, x, v))(x)),
           f"{op}({np.dtype(dt).name}, constant {v})")


def test_int8_times_300_raises_eagers_message_under_jit():
    x = np.array([1, 2], np.int8)
    with pytest.raises(OverflowError) as eager:
        xnp.asarray(x) * 300
    with pytest.raises(OverflowError) as jitted:
        xnp.jit(lambda x, s: x * s)(x, 300)
    assert str(jitted.value) == str(eager.value) == "Python integer 300 out of bounds for int8"


def test_check_runs_on_every_cached_call():
    x = np.array([1, 2], np.int8)
    f = xnp.jit(lambda x, s: x * s)
    for v in (3, 3):  # the second call takes the last-hit path
        np.testing.assert_array_equal(np.asarray(f(x, v)), x * v)
    for bad in (1000, -129, 128):
        with pytest.raises(OverflowError, match=f"^Python integer {bad} out of bounds for int8$"):
            f(x, bad)
    np.testing.assert_array_equal(np.asarray(f(xnp.asarray(x), -128)), x * np.int8(-128))
    assert f.trace_count == 1
    # keyword and pytree arguments (the tree path) are checked too
    with pytest.raises(OverflowError, match="^Python integer 300 out of bounds for int8$"):
        f(x, s=300)
    g = xnp.jit(lambda d: d["x"] - d["s"])
    assert np.asarray(g({"x": x, "s": 1})).tolist() == [0, 1]
    with pytest.raises(OverflowError, match="^Python integer -200 out of bounds for int8$"):
        g({"x": x, "s": -200})


def test_unsigned_array_and_negative_int():
    x = np.array([1, 2], np.uint8)
    with pytest.raises(OverflowError) as eager:
        xnp.asarray(x) * -1
    with pytest.raises(OverflowError) as jitted:
        xnp.jit(lambda x, s: x * s)(x, -1)
    assert str(jitted.value) == str(eager.value) == "Python integer -1 out of bounds for uint8"


def test_ints_beyond_int64_are_uint64_arguments():
    u = np.array([1, 2], np.uint64)
    i = np.array([1, 2], np.int64)
    big = 2**63
    add = xnp.jit(lambda x, s: x + s)
    # uint64: the value NumPy computes
    got = add(u, big)
    assert got.dtype == np.uint64
    assert np.asarray(got).tolist() == (u + big).tolist()
    assert np.asarray(add(u, 2**64 - 2)).tolist() == (u + (2**64 - 2)).tolist()
    # int64: the eager error (NumPy raises OverflowError too, in its own words)
    for f_eager, f_jit in [(lambda: xnp.asarray(i) + big, lambda: add(i, big)),
                           (lambda: xnp.add(big, 1), lambda: xnp.jit(lambda s: s + 1)(big)),
                           (lambda: xnp.asarray(np.array([True])) + big,
                            lambda: add(np.array([True]), big))]:
        with pytest.raises(OverflowError) as eager:
            f_eager()
        with pytest.raises(OverflowError) as jitted:
            f_jit()
        assert str(jitted.value) == str(eager.value) == (
            "Python integer 9223372036854775808 out of bounds for int64")
    with pytest.raises(OverflowError):
        i + big  # the oracle agrees that this overflows
    # float: exact conversion of the int, as float(2**63)
    x = np.array([0.5], np.float64)
    assert np.asarray(add(x, big)).tolist() == (x + big).tolist()
    # returned as is: uint64, as numpy.asarray(2**63)
    ident = xnp.jit(lambda s: s)(big)
    assert ident.dtype == np.asarray(big).dtype == np.uint64 and int(ident) == big


@pytest.mark.parametrize("v", [2**64, -(2**63) - 1])
def test_ints_outside_uint64_and_int64_raise_naming_jit_and_argument(v):
    with pytest.raises(OverflowError):
        np.asarray(np.int64(0)) + v  # NumPy has no integer dtype for them either
    f = xnp.jit(lambda x, scale: x * scale)
    f(np.ones(2), 2)  # cached entry: the check still runs
    with pytest.raises(OverflowError, match=(
            rf"xnp.jit: argument scale of <lambda> is the Python int {v}, outside the range "
            r"of every NumPy integer dtype \[-9223372036854775808, 18446744073709551615\]")):
        f(np.ones(2), v)


def test_weak_array_argument_converts_as_eagerly():
    # only Python ints are checked: a weak Array wraps as it does eagerly
    x = np.array([1, 2], np.int8)
    w = xnp.jit(lambda: xnp.add(150, 150))()  # a weak 0-d array (eagerly: NumPy's int64)
    assert w.weak_type
    eager = xnp.asarray(x) * w
    np.testing.assert_array_equal(np.asarray(xnp.jit(lambda x, s: x * s)(x, w)), np.asarray(eager))
    assert np.asarray(eager).tolist() == (x * np.int64(300)).astype(np.int8).tolist()


def test_explicit_cast_wraps_as_eagerly():
    f = lambda s: xnp.asarray(s).astype(np.int8)  # noqa: E731
    assert int(xnp.jit(f)(300)) == int(f(300)) == int(np.asarray(300).astype(np.int8))


def test_vmap_grad_nested_jit_and_control_flow():
    x = np.array([1, 2], np.int8)

    def mul(x, s):
        return x * s

    inner = xnp.jit(mul)
    g = lambda w, s: (w * (xnp.arange(2, dtype=np.int8) * s)).sum()  # noqa: E731
    cases = {
        "jit(vmap)": lambda s: xnp.jit(xnp.vmap(mul, in_axes=(0, None)))(x, s),
        "vmap(jit)": lambda s: xnp.vmap(xnp.jit(mul), in_axes=(0, None))(x, s),
        "jit(grad)": lambda s: xnp.jit(xnp.grad(g))(np.ones(2), s),
        "grad(jit)": lambda s: xnp.grad(xnp.jit(g))(np.ones(2), s),
        "nested jit, traced int": lambda s: xnp.jit(lambda x, s: inner(x, s) + 1)(x, s),
        "nested jit, constant int": lambda s: xnp.jit(lambda x: inner(x, s) + 1)(x),
        "cond": lambda s: xnp.jit(lambda x, s: xnp.lax.cond(
            True, lambda x, s: x * s, lambda x, s: x, x, s))(x, s),
        "scan constant": lambda s: xnp.jit(lambda x, s: xnp.lax.fori_loop(
            0, 2, lambda i, c: c * s, x))(x, s),
        "while constant": lambda s: xnp.jit(lambda x, s: xnp.lax.while_loop(
            lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1] * s), (0, x))[1])(x, s),
    }
    wants = {"jit(grad)": [0.0, 3.0], "grad(jit)": [0.0, 3.0],
             "nested jit, traced int": [4, 7], "nested jit, constant int": [4, 7],
             "scan constant": [9, 18], "while constant": [9, 18]}
    for name, run in cases.items():
        assert np.asarray(run(3)).tolist() == wants.get(name, [3, 6]), name
        with pytest.raises(OverflowError, match="^Python integer 300 out of bounds for int8$"):
            run(300)


def test_number_subclass_arguments_are_numpys_scalars_of_them():
    # an IntEnum member or a float subclass is what NumPy makes of it (np.asarray: a strong
    # default-dtype value), eagerly and as a jit argument
    import enum

    class Level(enum.IntEnum):
        HIGH = 3

    class Meters(float):
        pass

    for x, s in ((np.ones(2, np.int8), Level.HIGH), (np.ones(2, np.float32), Meters(2.5))):
        want = x * s
        for got in (xnp.asarray(x) * s, xnp.jit(lambda a, b: a * b)(x, s),
                    xnp.jit(lambda a, b: a * b)(x, {"k": s}["k"])):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
