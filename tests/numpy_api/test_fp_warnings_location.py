"""Floating-point warnings of eager calls name the caller's line, as NumPy's do: on the
first call of a signature (recorded), on its replays, on every call of a signature the
dispatch cache does not record (a write of a value that is not an argument, a Python
number that overflows the target's dtype), and with the caller's ``errstate`` (raise,
ignore) honoured."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from xnp import ndarray_class
from xnp.numpy_api import _replay

_CASES = {
    "int / 0": lambda m: m.asarray(np.arange(3)) / 0,
    "int / int array": lambda m: m.asarray([1, 0, 2]) / m.asarray([0, 0, 1]),
    "float % 0": lambda m: m.asarray([1.0, 0.0]) % 0,
    "float remainder of mixed dtypes": lambda m: m.remainder(
        m.asarray([1.0, 0.0]), m.asarray([0.0, 0.0], dtype=np.float32)),
    "power of a negative base": lambda m: m.power(m.asarray([-2.0]), m.asarray([0.5])),
    "float_power": lambda m: m.float_power(m.asarray([-2.0]), 0.5),
    "log of int": lambda m: m.log(m.asarray([-1, 0], dtype=np.int32)),
    "log of a transposed array": lambda m: m.log(m.asarray([[-1.0, 0.0]]).T),
    "mean of empty": lambda m: m.mean(m.asarray([])),
    # writes whose signature is not recorded, and writes served by C from a method's frame
    "in-place add overflowing float16": lambda m: m.ones(3, np.float16).__iadd__(1e10),
    "fill overflowing float32": lambda m: m.ones(3, np.float32).fill(1e300),
    "copyto an int16 unsafely": lambda m: m.copyto(
        m.ones(3, np.int16), m.asarray([1e10, 2.0, np.nan]), casting="unsafe"),
    "item assignment of a list": lambda m: m.ones(3, np.float32).__setitem__(
        slice(None), [1e300, 1, 1]),
    "in-place multiply of complex64": lambda m: m.full(2, 1e30, np.complex64).__imul__(1e30),
    # NumPy's functions on xnp arrays (NEP 13/18: xnp's implementation runs)
    "numpy.log of an xnp array": lambda m: np.log(m.zeros(3)),
    "numpy.add into an xnp out": lambda m: np.add(m.full(2, 1e308), m.full(2, 1e308),
                                                  out=m.zeros(2)),
    "numpy scalar / xnp 0-d": lambda m: np.float64(1) / m.asarray(0.0),
    "numpy.mean of an empty xnp array": lambda m: np.mean(m.asarray([]), axis=0),
    # a jit output not read yet (the program's run reads it): a fresh one each call
    "fresh jit output / 0": lambda m: (m.asarray([1.0, 0.0]) if m is np else xnp.jit(
        lambda a: a * 1.0)(xnp.asarray([1.0, 0.0]))) / 0,
    "divmod by 0 (several results)": lambda m: m.divmod(m.asarray([1.0, 0.0]), 0.0),
    # replays whose kernel is a Python function (dot_general's), a cached ufunc method,
    # reductions and products NumPy computes through Python frames of its own
    "inner (a kernel in Python)": lambda m: m.inner(m.asarray([1e308, 1e308]),
                                                    m.asarray([1e308, 1.0])),
    "tensordot": lambda m: m.tensordot(m.asarray([[1e308, 1e308]]), m.asarray([1e308, 1.0]),
                                       1),
    "ufunc.outer": lambda m: m.multiply.outer(m.asarray([1e308, 0.0]),
                                              m.asarray([np.inf, 10.0])),
    "ufunc.reduce": lambda m: m.add.reduce(m.asarray([1e308, 1e308])),
    "outer": lambda m: m.outer(m.asarray([1e308, 0.0]), m.asarray([np.inf, 10.0])),
    "kron": lambda m: m.kron(m.asarray([1e308, 0.0]), m.asarray([np.inf, 10.0])),
    "cumsum": lambda m: m.cumsum(m.asarray([1e308, 1e308])),
    "max over an axis with NaN": lambda m: m.sqrt(m.max(m.asarray([[-1.0, -2.0]]), axis=1)),
}


def _caught(call, mod):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        call(mod)  # the line every warning must name
    return [(w.category, str(w.message), w.filename) for w in got]


@pytest.mark.parametrize("name", sorted(_CASES))
def test_warnings_name_the_callers_line(name):
    call = _CASES[name]
    _replay.clear()
    want = [(c, m) for c, m, _ in _caught(call, np)]
    assert want, f"{name}: NumPy warns nothing, the case tests nothing"
    for _ in range(3):  # the recording, then replays
        got = _caught(call, xnp)
        assert [(c, m) for c, m, _ in got] == want
        if not ndarray_class._ACTIVE:  # (see test_ufunc_warning_names._SUBCLASS_FRAME)
            assert [f for _, _, f in got] == [__file__] * len(got), got


def _raises_as_numpy(call):
    """Under ``errstate(all='raise')`` ``call`` raises NumPy's FloatingPointError."""
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as np_error:
            call(np)
        with pytest.raises(FloatingPointError) as error:
            call(xnp)
    assert str(error.value) == str(np_error.value)


@pytest.mark.parametrize("name", ["int / 0", "float % 0", "power of a negative base",
                                  "mean of empty"])
def test_errstate_is_honoured(name):
    call = _CASES[name]
    _replay.clear()
    for _ in range(2):
        _raises_as_numpy(call)
        with np.errstate(all="ignore"):  # only NumPy's own warnings ("Mean of empty slice")
            assert [w[:2] for w in _caught(call, xnp)] == [w[:2] for w in _caught(call, np)]


def test_default_filter_shows_each_line_once():
    """With Python's default action (once per location), two lines that divide by zero each
    show their warning: the location is the caller's, not one line of xnp's."""
    _replay.clear()
    a = xnp.asarray(np.arange(3))
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("default")
        for _ in range(3):
            a / 0  # noqa: B018
        for _ in range(3):
            a / 0  # noqa: B018
    lines = sorted({w.lineno for w in got if "divide by zero" in str(w.message)})
    assert len(lines) == 2, [(w.filename, w.lineno) for w in got]


def test_a_warning_before_the_callers_raise_is_issued_first():
    # NumPy issues the 'warn' category's warning, then raises the 'raise' category's error
    _replay.clear()

    def call(m):
        return m.power(m.asarray([0.0, 10.0]), m.asarray([-1.0, 400.0]))

    for _ in range(2):
        seen = {}
        for mod in (np, xnp):
            with np.errstate(divide="warn", over="raise"), \
                    warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                with pytest.raises(FloatingPointError) as error:
                    call(mod)  # the line the warning names
            seen[mod] = (str(error.value), [str(w.message) for w in got],
                         [w.filename for w in got])
        assert seen[xnp][:2] == seen[np][:2]
        if not ndarray_class._ACTIVE:
            assert seen[xnp][2] == [__file__]


_WRITES = ["in-place add overflowing float16", "fill overflowing float32",
           "copyto an int16 unsafely", "item assignment of a list"]


@pytest.mark.parametrize("name", _WRITES)
def test_writes_honour_errstate_and_handlers_and_restore_them(name):
    # the calls that name the user's line through NumPy's 'log' handler: the caller's
    # 'raise' raises NumPy's error, a 'call' handler of the caller's is called as NumPy
    # calls it, and the caller's error state is as it was afterwards
    call = _CASES[name]
    _replay.clear()
    for _ in range(3):
        _raises_as_numpy(call)
        seen = {np: [], xnp: []}
        for mod in (np, xnp):
            with np.errstate(all="call", call=lambda kind, flag, m=mod: seen[m].append(kind)):
                assert [w[:2] for w in _caught(call, mod)] == []
                assert np.geterr() == {k: "call" for k in ("divide", "over", "under",
                                                          "invalid")}
        assert seen[xnp] == seen[np] and seen[np], seen
        before = (np.geterr(), np.geterrcall())
        _caught(call, xnp)
        assert (np.geterr(), np.geterrcall()) == before


def test_a_user_file_named_like_the_package_is_the_users():
    # a warning names the first frame outside the package directory: a file whose path
    # only starts with the package's (xnp_script.py beside xnp/) is the user's
    import os  # noqa: PLC0415

    fake = os.path.dirname(os.path.abspath(xnp.__file__)) + "_script.py"
    code = compile("x = m.asarray([1.0, 0.0]) / 0\n", fake, "exec")
    _replay.clear()
    for _ in range(3):
        seen = {}
        for mod in (np, xnp):
            with warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                exec(code, {"m": mod})  # noqa: S102
            seen[mod] = [(str(w.message), w.filename, w.lineno) for w in got]
        assert seen[xnp] == seen[np] and len(seen[np]) == 2, seen


class _Handler:
    """A caller's floating-point handler for both NumPy modes ('call' and 'log')."""

    def __init__(self):
        self.seen = []

    def __call__(self, kind, flag):
        self.seen.append(("call", kind))

    def write(self, message):
        self.seen.append(("log", message))


@pytest.mark.parametrize("settings", [
    {"over": "warn", "divide": "call", "invalid": "warn"},
    {"over": "log", "divide": "warn", "invalid": "call"},
    {"over": "warn", "divide": "log", "invalid": "log"},
], ids=["warn-call-warn", "log-warn-call", "warn-log-log"])
@pytest.mark.parametrize("name", _WRITES + ["int / 0", "float % 0", "log of int",
                                            "in-place multiply of complex64"])
def test_mixed_handlers_are_numpys_and_warnings_name_the_callers_line(name, settings):
    # categories set to 'warn' next to the caller's own 'call'/'log' handler: the handler
    # gets NumPy's calls and messages, the warnings name the caller's line, on every call
    call = _CASES[name]
    _replay.clear()
    seen = {}
    for mod in (np, xnp):
        handler = _Handler()
        with np.errstate(call=handler, **settings):
            got = [_caught(call, mod) for _ in range(3)]
        seen[mod] = ([[(c, m) for c, m, _ in g] for g in got], handler.seen)
        if mod is xnp and not ndarray_class._ACTIVE:
            assert all(f == __file__ for g in got for _, _, f in g), got
    assert seen[xnp] == seen[np]


@pytest.mark.parametrize("index", ["index array", "int", "mask"])
def test_an_assignment_refused_by_its_index_warns_as_numpy(index):
    # NumPy casts the value before it checks an index array (one warning, then its
    # IndexError); an int index is checked first (no warning); xnp's error, NumPy's warnings
    def call(m):
        x = m.ones(4, np.float16)
        idx = {"index array": m.asarray([0, 10]), "int": 10,
               "mask": m.asarray([True, False, True])}[index]
        with pytest.raises(IndexError):
            x[idx] = 1e10

    for _ in range(3):
        assert [w[:2] for w in _caught(call, xnp)] == [w[:2] for w in _caught(call, np)]
        handlers = {np: [], xnp: []}
        for mod in (np, xnp):
            with np.errstate(all="call", call=lambda k, f, m=mod: handlers[m].append(k)):
                call(mod)
        assert handlers[xnp] == handlers[np]
