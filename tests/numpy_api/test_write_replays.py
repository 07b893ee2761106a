"""Eager calls that write their result into an argument -- the in-place operators
(``a += b``) and ufuncs with ``out=`` -- are replayed by the eager dispatch cache as NumPy's
ufunc with that argument as its ``out`` (``xnp.tracing.recording.write_result``), against
NumPy on this machine: the values written, the result's identity, NumPy's floating-point
errors after the write, NumPy's message for a read-only output, and one NumPy call per
replay, so that threads updating one small array lose no update (as with NumPy, whose
ufunc loop on a small array holds the GIL).
"""

from __future__ import annotations

import gc
import operator
import sys
import threading
import warnings

import numpy as np
import pytest

import xnp
from xnp.numpy_api import _fastpath, _replay

from tests.helpers import outcome

CALLS = 3  # the first call records, the others replay

_OPS = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
        "/=": operator.itruediv, "//=": operator.ifloordiv, "%=": operator.imod,
        "**=": operator.ipow, "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
        "<<=": operator.ilshift, ">>=": operator.irshift}


@pytest.fixture(autouse=True)
def _no_fast_path():
    """These tests are of the dispatch cache's programs that write (``out=``, ``a += b``):
    the eager fast path, which serves the same calls of one dtype by NumPy's own ``out=``
    once it has learnt their kernel (tests/numpy_api/test_fastpath.py), is off here."""
    table = _fastpath._TABLE[0]
    _fastpath._TABLE[0] = {}
    yield
    _fastpath._TABLE[0] = table


def _operand(m, kind, dtype):
    if kind == "array":
        return m.asarray(np.array([3, 1, 2, 5], dtype))
    if kind == "row":  # broadcast along the first axis
        return m.asarray(np.array([[2, 1, 3, 1]], dtype))
    return {"int": 2, "float": 1.5, "bool": True}[kind]


def _run(m, op, dtype, kind):
    a = m.asarray(np.array([[7, 2, 4, 9], [1, 0, 6, 3]], dtype))
    b = _operand(m, kind, dtype)
    kept = a
    try:
        a = _OPS[op](a, b)
    except Exception as e:  # noqa: BLE001  (NumPy decides the class)
        return e, kept
    assert a is kept  # the operator returns its left operand
    return a, kept


_DTYPES = ["float64", "float32", "float16", "int64", "int8", "uint8", "bool", "complex128"]


@pytest.mark.parametrize("kind", ["array", "row", "int", "float", "bool"])
@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("op", list(_OPS))
def test_in_place_operators_write_numpys_values_on_every_call(op, dtype, kind):
    """Each call of the same signature writes NumPy's values into the left operand (or
    raises NumPy's exception class), the recording and the replays alike."""
    _replay.clear()
    with np.errstate(all="ignore"):
        for _ in range(CALLS):
            want, _ = _run(np, op, dtype, kind)
            got, kept = _run(xnp, op, dtype, kind)
            if isinstance(want, Exception):  # the same public class (NumPy's
                # UFuncTypeError is a TypeError)
                public = next(c for c in type(want).__mro__ if c.__module__ == "builtins")
                assert isinstance(got, public), (got, want)
                continue
            assert not isinstance(got, Exception), (got, want)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "|="])
@pytest.mark.parametrize("kind", ["array", "row", "int"])
def test_same_dtype_in_place_operators_are_replayed(op, kind):
    """``a <op>= b`` of one dtype (a Python scalar is weak) is stored as a program: the
    signature replays instead of running the full path."""
    dtype = "int64" if op == "|=" else "float64"
    method = getattr(type(xnp.zeros(1)), f"__{_OPS[op].__name__}__")
    _replay.clear()
    for _ in range(CALLS):
        _run(xnp, op, dtype, kind)
    assert _replay.stats(method) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("call", [
    lambda m, x, o: m.log(x, out=o),
    lambda m, x, o: m.add(x, 1, out=o),
    lambda m, x, o: m.multiply(x, x, o),  # positional out
    lambda m, x, o: m.sqrt(x, out=(o,)),
    lambda m, x, o: m.maximum(x, 2.5, out=o),
], ids=["log", "add", "multiply-positional", "sqrt-tuple", "maximum"])
def test_ufunc_out_writes_numpys_values_and_returns_out(call):
    """``ufunc(..., out=o)`` returns ``o`` with NumPy's values on every call, and the
    signature is replayed (one program, nothing refused)."""
    _replay.clear()
    for i in range(CALLS):
        x = np.array([0.5, 4.0, 9.0 + i])
        o_np, o_x = np.zeros(3), xnp.zeros(3)
        want = call(np, x, o_np)
        got = call(xnp, xnp.asarray(x), o_x)
        assert want is o_np and got is o_x
        np.testing.assert_array_equal(np.asarray(o_x), o_np)
    fn = call.__code__.co_names[0]
    assert _replay.stats(getattr(xnp, fn))["programs"] >= 1


def test_out_overlapping_its_input_gives_numpys_values():
    """``out`` a shifted view of the input: NumPy buffers the overlap, so does the replay."""
    for _ in range(CALLS):
        base_np = np.arange(8.0)
        base_x = xnp.asarray(base_np.copy())
        np.add(base_np[:-1], 1.0, out=base_np[1:])
        xnp.add(base_x[:-1], 1.0, out=base_x[1:])
        np.testing.assert_array_equal(np.asarray(base_x), base_np)


@pytest.mark.parametrize("setting", ["errstate", "filter"])
def test_overflow_writes_then_raises_as_numpy(setting):
    """Under ``numpy.errstate(over='raise')`` (or a warnings filter 'error') the overflowing
    product is written, then NumPy's error is raised, on the recorded call and the replays."""
    _replay.clear()

    def run(m):
        a = m.asarray([1e308, 2.0, 3.0])
        o = m.zeros(3)
        with warnings.catch_warnings():
            if setting == "filter":
                warnings.simplefilter("error", RuntimeWarning)
            with np.errstate(over="raise" if setting == "errstate" else "warn"):
                try:
                    a *= 10.0
                    raised = None
                except (FloatingPointError, RuntimeWarning) as e:
                    raised = e
                try:
                    m.multiply(a, 1e10, out=o)
                    raised_out = None
                except (FloatingPointError, RuntimeWarning) as e:
                    raised_out = e
        return np.asarray(a).copy(), np.asarray(o).copy(), raised, raised_out

    for _ in range(CALLS):
        want, got = run(np), run(xnp)
        for w, g in zip(want[:2], got[:2]):
            np.testing.assert_array_equal(g, w)
        for w, g in zip(want[2:], got[2:]):
            assert type(g) is type(w) and str(g) == str(w), (g, w)


@pytest.mark.parametrize("how", ["flag", "broadcast_to"])
def test_read_only_output_raises_numpys_error(how):
    """An in-place operator or ``out=`` into read-only memory raises NumPy's ValueError
    ("output array is read-only") before computing, on every call."""
    def target(m):
        if how == "flag":
            a = m.zeros(3)
            a.flags.writeable = False
            return a
        return m.broadcast_to(m.zeros(3), (2, 3))

    for _ in range(CALLS):
        for call in (lambda m, t: t.__iadd__(1.0), lambda m, t: m.add(t, 1.0, out=t),
                     lambda m, t: m.log(m.zeros(t.shape), out=t)):
            want, _ = outcome(lambda: call(np, target(np)))
            got, _ = outcome(lambda: call(xnp, target(xnp)))
            assert type(got) is type(want) is ValueError and str(got) == str(want)


def test_threads_updating_one_small_array_lose_no_update():
    """Four threads each add 1 to one small array 5000 times: NumPy's in-place add is one
    ufunc call under the GIL, and so is xnp's replay. The check mode of the tests (which
    runs the full path again after each replay) and the garbage collector (whose callbacks
    run Python code) are off while the threads run; the signature is recorded first."""
    def run(m):
        y = m.zeros(4)
        y += 1  # (xnp: the recording; the threads replay it)

        def work(_):
            nonlocal y
            for _ in range(5000):
                y += 1

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return np.asarray(y).copy()

    interval = sys.getswitchinterval()
    check = _replay._CHECK[0]
    _replay.check_replays(False)
    gc.disable()
    sys.setswitchinterval(1e-5)  # many thread switches
    try:
        _replay.clear()
        want, got = run(np), run(xnp)
    finally:
        sys.setswitchinterval(interval)
        gc.enable()
        _replay.check_replays(check)
    np.testing.assert_array_equal(got, want)


def test_check_mode_compares_written_values_with_the_full_path():
    """Check mode (on in the tests) runs the full path again from the values a replay
    overwrote: a replay that wrote other values than the full path is reported."""
    assert _replay._CHECK[0]
    _replay.clear()
    a = xnp.asarray([1.0, 2.0])
    for _ in range(CALLS):
        a += 1.0
    np.testing.assert_array_equal(np.asarray(a), [4.0, 5.0])  # each call added once
    fn = type(a).__iadd__
    while getattr(fn, "_replay_cache", None) is None:
        fn = fn.__wrapped__
    (program,) = fn._replay_cache.values()
    assert program.writes == (0,)
    _, params, ops, multiple = program.eqns[-1]
    program.eqns = program.eqns[:-1] + ((np.subtract, params, ops, multiple),)  # wrong
    try:
        with pytest.raises(AssertionError, match="wrote other values"):
            a += 1.0
    finally:
        _replay.clear()


# --------------------------------------------------------------------------- x[idx] = v

_INDEXES = {
    "int": lambda m: 1, "negative": lambda m: -1, "slice": lambda m: slice(1, 3),
    "step": lambda m: slice(None, None, 2), "int-slice": lambda m: (1, slice(0, 2)),
    "ellipsis": lambda m: (Ellipsis, 0), "newaxis": lambda m: (None, 0),
    "np-int": lambda m: np.int64(0), "array": lambda m: m.asarray([0, 2]),
    "array-tuple": lambda m: (m.asarray([1, 0]), slice(None)),
    "mask": lambda m: m.asarray([True, False, True]),
    "mask-2d": lambda m: m.asarray(np.arange(12).reshape(3, 4) % 3 == 0),
    "numpy-array": lambda m: np.array([2, 0]),
}
_VALUES = {
    "int": lambda m, dt: 3, "float": lambda m, dt: 2.75, "bool": lambda m, dt: True,
    "same": lambda m, dt: m.asarray(np.array([5, 6, 7, 8], dt)),
    "float64": lambda m, dt: m.asarray(np.array([1.5, -2.5, 3.5, 4.25])),
    "np-scalar": lambda m, dt: np.float32(1.25),
}


def _full_setitem():
    """``Array.__setitem__`` without its fast path (served in C for a basic index and a
    scalar or array value): the eager dispatch cache and the full path."""
    return type(xnp.zeros(1)).__setitem__.__wrapped__


def _set(m, dtype, index, value, full=False):
    a = m.asarray(np.arange(12).reshape(3, 4).astype(dtype))
    setitem = _full_setitem() if full else type(a).__setitem__
    try:
        setitem(a, _INDEXES[index](m), _VALUES[value](m, dtype))
    except Exception as e:  # noqa: BLE001  (NumPy decides the class)
        return e
    return np.asarray(a).copy()


@pytest.mark.parametrize("full", [False, True], ids=["served", "full-path"])
@pytest.mark.parametrize("value", list(_VALUES))
@pytest.mark.parametrize("index", list(_INDEXES))
@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint8", "bool", "complex128"])
def test_setitem_writes_numpys_values_on_every_call(dtype, index, value, full):
    """``a[idx] = v`` writes NumPy's values (casts included) or raises NumPy's exception
    class: through ``__setitem__`` (its C fast path where it serves) and through its full
    path (the recording, then the replays), alike."""
    _replay.clear()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(CALLS):
            want, got = _set(np, dtype, index, value), _set(xnp, dtype, index, value, full)
            if isinstance(want, Exception):
                assert isinstance(got, type(want)), (got, want)
                continue
            assert not isinstance(got, Exception), (got, want)
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("index", ["int", "slice", "int-slice", "ellipsis", "array",
                                   "array-tuple"])
def test_setitem_is_replayed(index):
    """A static index, or integer index arrays among the arguments, and an array or scalar
    value: the full path's signature is stored as a program."""
    _replay.clear()
    for _ in range(CALLS):
        _set(xnp, "float64", index, "np-scalar", full=True)
    assert _replay.stats(type(xnp.zeros(1)).__setitem__) == {"programs": 1, "refused": []}


def test_setitem_replay_raises_numpys_error_for_an_index_out_of_bounds():
    """The index array's values are not in the signature: a replay meets NumPy's own
    IndexError for one out of bounds."""
    _replay.clear()
    for idx in ([0, 1], [1, 2], [1, 7], [-8, 0]):
        a_np, a_x = np.zeros(5), xnp.zeros(5)
        want, _ = outcome(lambda: a_np.__setitem__(np.asarray(idx), 1.0))
        got, _ = outcome(lambda: a_x.__setitem__(xnp.asarray(idx), 1.0))
        if isinstance(want, Exception):
            assert type(got) is type(want) and str(got) == str(want), (got, want)
        else:
            np.testing.assert_array_equal(np.asarray(a_x), a_np)


def test_setitem_python_int_out_of_range_raises_numpys_error_every_call():
    for _ in range(CALLS):
        want, _ = outcome(lambda: np.zeros(3, np.int8).__setitem__(0, 300))
        got, _ = outcome(lambda: xnp.zeros(3, np.int8).__setitem__(0, 300))
        assert type(got) is type(want) is OverflowError and str(got) == str(want)


def test_setitem_cast_overflow_warns_at_the_callers_line():
    """A float64 value too large for a float32 target: NumPy's "overflow encountered in
    cast", naming this file (while no subclass of xnp.ndarray exists in the process: see
    test_ufunc_warning_names), on the full path (a call that meets it is not recorded) and
    on replays of a signature recorded without it."""
    from xnp import ndarray_class  # noqa: PLC0415

    _replay.clear()
    for values in ([1.0, 2.0], [1e300, 1.0], [1e300, 1.0], [2.0, 1e300]):
        big = xnp.asarray(values)
        a = xnp.zeros(4, np.float32)
        want_a = np.zeros(4, np.float32)
        _, want = outcome(lambda: want_a.__setitem__(slice(0, 2), np.asarray(big)))
        _, got = outcome(lambda: a.__setitem__(slice(0, 2), big))
        assert [str(w.message) for w in got] == [str(w.message) for w in want]
        np.testing.assert_array_equal(np.asarray(a), want_a)
        if not ndarray_class._ACTIVE:
            assert [w.filename for w in got] == [__file__] * len(got)


def test_setitem_in_a_loop_over_indices_and_values_writes_numpys_values():
    """``a[i] = x`` and ``a[i] += x`` for every ``i`` with new values each time (each call a
    new cache signature: the fast path of ``__setitem__`` serves them), for float64, int8
    (Python ints in and out of range) and float32 (Python floats: the full path)."""
    for dtype, values in (("float64", [0.5, -1e300, np.inf, 2.0]),
                          ("int8", [1, 127, -128, 300]), ("float32", [1.5, 1e300, -2.0, 0.1])):
        got, want = xnp.zeros(4, dtype), np.zeros(4, dtype)
        for i, x in enumerate(values):
            for arr in (got, want):
                out = outcome(lambda: arr.__setitem__(i, x))
                if isinstance(out[0], Exception):
                    continue
                with np.errstate(all="ignore"):
                    arr[i] += arr[i]
            w, g = outcome(lambda: want.__setitem__(-i - 1, x)), outcome(
                lambda: got.__setitem__(-i - 1, x))
            assert type(w[0]) is type(g[0]) and [str(m.message) for m in w[1]] == [
                str(m.message) for m in g[1]]
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("case", [
    ("/=", "bool", "int8"), ("/=", "int64", "int64"), ("+=", "int64", "float"),
    ("+=", "uint8", "np-int8"), ("**=", "int8", "float64"), ("//=", "bool", "float32"),
])
def test_in_place_cast_refused_before_computing_as_numpy(case):
    """An in-place operator whose result does not cast 'same_kind' into the target raises
    NumPy's own exception (its UFuncTypeError, the same message) before computing: no
    warning of the computation (``int_array /= zeros`` warned "divide by zero" first)."""
    op, target, other = case

    def run(m):
        a = m.asarray(np.array([1, 0, 2], target))
        b = {"float": 1.5, "np-int8": np.int8(-1)}.get(other)
        if b is None:
            b = m.asarray(np.array([0, 1, 0], other))
        return outcome(lambda: _OPS[op](a, b))

    for _ in range(CALLS):
        (want, want_w), (got, got_w) = run(np), run(xnp)
        assert type(got) is type(want) and str(got) == str(want), (got, want)
        assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w] == []


def _program_of(method):
    fn = method
    while getattr(fn, "_replay_cache", None) is None:
        fn = fn.__wrapped__
    (program,) = fn._replay_cache.values()
    return program


@pytest.mark.parametrize("runner", ["c", "python"])
def test_write_programs_run_alike_in_c_and_in_python(runner, monkeypatch):
    """The Python runner of programs (used where the C module is not built) runs a fused
    ufunc write (``out`` keyword) and an item write as the C one: NumPy's values."""
    from xnp.tracing import program  # noqa: PLC0415

    if runner == "python":
        monkeypatch.setattr(program, "run_eqns", program._py_run_eqns)
    _replay.clear()
    y, z = xnp.asarray([1.0, 2.0]), xnp.asarray([0.5, 0.25])
    y += z  # recorded
    program = _program_of(type(y).__iadd__)
    assert program.writes == (0,)
    out = program.run([y, z])  # the program itself, by the runner under test
    assert out is y
    np.testing.assert_array_equal(np.asarray(y), [2.0, 2.5])

    _replay.clear()
    a, i, v = xnp.zeros(4), xnp.asarray([3, 1]), xnp.asarray([7.0, 8.0])
    _full_setitem()(a, i, v)  # recorded (the full path: index arrays are in the key)
    program = _program_of(type(a).__setitem__)
    b = xnp.zeros(4)
    program.run([b, xnp.asarray([0, 2]), xnp.asarray([5.0, 6.0])])
    np.testing.assert_array_equal(np.asarray(b), [5.0, 0.0, 6.0, 0.0])
    _replay.clear()
