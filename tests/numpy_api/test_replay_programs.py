"""What the eager dispatch cache's recorded programs hold and return.

A call that returns its own argument arrays as they are (NumPy's ``squeeze(a) is a``) is
replayed: the replay returns the same objects, as the full path and NumPy do. A call that
binds nothing and returns anything else (a shape, a Python value) may have done what a
replay would not repeat, and keeps its full path, unless its function is declared to compute
from its arguments' metadata alone (``recording.metadata_function``: ``shape``,
``result_type``, ...), whose calls replay as their result. The complex parts as properties, and
``outer``'s kernel; a program that calls a kernel written in Python runs it with NumPy's
warnings named at the user's line (``Program.python_kernels``).
"""

from __future__ import annotations


import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp import ndarray_class
from xnp.numpy_api import _replay

# (name, call on a module, input) where NumPy returns the argument itself
RETURNS_ITS_ARGUMENT = [
    ("squeeze", lambda m, a: m.squeeze(a), np.arange(6.0).reshape(2, 3)),
    ("atleast_1d", lambda m, a: m.atleast_1d(a), np.arange(3, dtype=np.int32)),
    ("atleast_2d", lambda m, a: m.atleast_2d(a), np.arange(6.0).reshape(2, 3)),
    ("atleast_3d", lambda m, a: m.atleast_3d(a), np.ones((2, 1, 3), np.float32)),
    ("ascontiguousarray", lambda m, a: m.ascontiguousarray(a), np.arange(6.0).reshape(2, 3)),
    ("real", lambda m, a: m.real(a), np.arange(4.0)),
]


@pytest.mark.parametrize("name,call,value", RETURNS_ITS_ARGUMENT,
                         ids=[c[0] for c in RETURNS_ITS_ARGUMENT])
def test_a_call_returning_its_argument_replays_and_returns_it(name, call, value):
    assert call(np, value) is value  # the oracle: NumPy returns the argument itself
    _replay.clear()
    for _ in range(3):
        x = xnp.asarray(value.copy())
        out = call(xnp, x)
        assert out is x
        np.testing.assert_array_equal(np.asarray(out), value)
    assert _replay.stats(getattr(xnp, name)) == {"programs": 1, "refused": []}


def test_another_signature_of_the_same_function_is_its_own_call():
    # squeeze of a (3, 1) array removes an axis: a view, not the argument
    _replay.clear()
    for _ in range(3):
        x = xnp.asarray(np.arange(6.0).reshape(2, 3))
        assert xnp.squeeze(x) is x
        y = xnp.asarray(np.arange(3.0).reshape(3, 1))
        s = xnp.squeeze(y)
        assert s is not y and s.shape == (3,)
        assert np.shares_memory(np.asarray(s), np.asarray(y))
        np.testing.assert_array_equal(np.asarray(s), np.arange(3.0))


def test_a_tuple_of_its_arguments_replays_as_a_new_tuple():
    a, b = np.arange(3.0), np.arange(4, dtype=np.int64)
    want = np.atleast_1d(a, b)
    _replay.clear()
    outs = []
    for _ in range(3):
        x, y = xnp.asarray(a), xnp.asarray(b)
        got = xnp.atleast_1d(x, y)
        assert type(got) is type(want) and got[0] is x and got[1] is y
        outs.append(got)
    assert outs[1] is not outs[2]  # a new container each call
    assert _replay.stats(xnp.atleast_1d) == {"programs": 1, "refused": []}


_METADATA_CALLS = {
    "shape": lambda m, x: m.shape(x), "ndim": lambda m, x: m.ndim(x),
    "size": lambda m, x: m.size(x, 1), "iterable": lambda m, x: m.iterable(x),
    "isscalar": lambda m, x: m.isscalar(x), "iscomplexobj": lambda m, x: m.iscomplexobj(x),
    "isrealobj": lambda m, x: m.isrealobj(x), "isfortran": lambda m, x: m.isfortran(x),
    "result_type": lambda m, x: m.result_type(x, 1.5),
    "promote_types": lambda m, x: m.promote_types(x.dtype, m.int16),
    "can_cast": lambda m, x: m.can_cast(x, m.float32, "same_kind"),
    "issubdtype": lambda m, x: m.issubdtype(x.dtype, m.floating),
    "isdtype": lambda m, x: m.isdtype(x.dtype, "real floating"),
    "common_type": lambda m, x: m.common_type(x), "mintypecode": lambda m, x: m.mintypecode([x]),
    "broadcast_shapes": lambda m, x: m.broadcast_shapes(x.shape, (1,) + x.shape[1:]),
}


@pytest.mark.parametrize("name", sorted(_METADATA_CALLS))
def test_metadata_functions_replay_their_result(name, no_check):
    """A function that computes from its arguments' metadata alone and has no effect
    (``recording.metadata_function``) replays a call that binds nothing as its result: one
    program per signature (shape, dtype, layout), NumPy's result each call, no Python
    frame of xnp's in a replay."""
    _replay.clear()
    call = _METADATA_CALLS[name]
    arrays = [np.ones((2, 3)), np.ones((4, 2), np.float32), np.ones((3, 2), np.int64, order="F"),
              np.ones((2, 2), np.complex64)]
    for a in arrays:
        x = xnp.asarray(a)
        for _ in range(3):
            assert call(xnp, x) == call(np, a), (name, a.dtype)
    assert _replay.stats(getattr(xnp, name)) == {"programs": len(arrays), "refused": []}
    x = xnp.asarray(arrays[0])
    out, frames = python_frames(lambda: call(xnp, x))
    assert out == call(np, arrays[0])
    assert [f for f in frames if f != "<lambda>"] == [], frames


def test_a_call_binding_nothing_keeps_its_full_path_unless_declared_metadata():
    """A call that binds nothing may have had an effect a replay would not repeat (here a
    Python side effect): it keeps its full path, every call running it."""
    _replay.clear()
    calls = []

    def with_effect(x):
        calls.append(x.shape)
        return x.shape

    cached = _replay.cached(with_effect)
    x = xnp.ones((2, 3))
    for _ in range(4):
        assert cached(x) == (2, 3)
    assert len(calls) == 4
    assert _replay.stats(cached)["refused"] == ["bound no primitive"]


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_a_replay_returning_its_argument_runs_no_python_frame_of_its_own(no_check):
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    for _ in range(3):
        xnp.ascontiguousarray(x)
    out, frames = python_frames(xnp.ascontiguousarray, x)
    assert out is x
    assert frames == [], frames


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128])
def test_real_and_imag_properties_replay_as_numpy(dtype):
    # the properties go through the dispatch cache as xnp.real/xnp.imag do: the real
    # part of a real array is the array itself, its imaginary part read-only zeros, and a
    # complex array's parts are views that see (and make) writes
    _replay.clear()
    for k in range(3):
        n = (np.arange(6) + k).astype(dtype).reshape(2, 3)
        if np.dtype(dtype).kind == "c":
            n = n + 1j * (n + 1)
        x = xnp.asarray(n.copy())
        for part in ("real", "imag"):
            got, want = getattr(x, part), getattr(n, part)
            assert (got is x) == (want is n)
            np.testing.assert_array_equal(np.asarray(got), want)
            assert np.asarray(got).dtype == want.dtype
            assert np.asarray(got).flags.writeable == want.flags.writeable
        if np.dtype(dtype).kind == "c":
            x.real[0, 0] = -5.0
            n.real[0, 0] = -5.0
            np.testing.assert_array_equal(np.asarray(x), n)
    fget = type(x).__dict__["real"].fget
    assert _replay.stats(fget)["programs"] >= 1


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_outer_replays_as_numpys_outer_product(no_check):
    a = np.array([1.5, -0.0, 2.0, np.inf])
    b = np.array([0.0, -3.0, np.nan])
    x, y = xnp.asarray(a), xnp.asarray(b)
    with np.errstate(invalid="ignore"):
        for _ in range(3):
            xnp.outer(x, y)
        want = np.outer(a, b)
        out, frames = python_frames(xnp.outer, x, y)
    assert frames == [], frames  # dot_general's kernel: NumPy's multiply.outer
    assert np.asarray(out).tobytes() == want.tobytes()  # bit for bit (signed zeros, NaN)
    # NumPy's warning (inf * 0) names this file's line, on the replay too
    for _ in range(2):
        with pytest.warns(RuntimeWarning, match="invalid value") as record:
            xnp.outer(x, y)
        assert record[0].filename == __file__


@pytest.mark.parametrize("name,call", [
    ("dot", lambda m, a, b: m.dot(a, b)), ("inner", lambda m, a, b: m.inner(a, b.T)),
    ("dot 2-D x 1-D", lambda m, a, b: m.dot(a, b[:, 0])),
    ("tensordot", lambda m, a, b: m.tensordot(a, b, 1)),
])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64], ids=str)
def test_products_replay_numpys_product_with_no_python_frame(no_check, name, call, dtype):
    """A replayed product whose form is NumPy's ``dot`` calls that function itself (decided
    once from the recorded operands): no Python frame of xnp's, NumPy's values. (``matmul``
    and ``@`` are NumPy's matmul as a composite kernel: tests/numpy_api/
    test_composite_kernels.py.)"""
    a = (np.arange(12) % 5 - 2).reshape(3, 4).astype(dtype)
    b = (np.arange(20) % 7 - 3).reshape(4, 5).astype(dtype)
    x, y = xnp.asarray(a), xnp.asarray(b)
    for _ in range(3):
        call(xnp, x, y)
    if name == "dot":
        out, frames = python_frames(lambda: call(xnp, x, y))
        # (this test's lambdas; numpy.dot's array-function dispatcher is NumPy's own frame;
        # a user subclass of xnp.ndarray, which other tests define, makes the ufunc objects
        # wrap their results: xnp/ndarray_class.py's frames, not the replay's)
        wrapping = {"wrapped", "_wrap", "_subclass_operands", "<listcomp>"} \
            if ndarray_class._ACTIVE else set()
        assert [f for f in frames if f != "<lambda>" and f not in wrapping] in (
            [], ["dot"]), frames
    got, want = call(xnp, x, y), call(np, a, b)
    assert np.asarray(got).dtype == want.dtype
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


_TAKE_INDEX = xnp.asarray([0, 1])  # (made once: asarray of a list is a replayed call too)
_ALONG_INDEX = xnp.asarray([[0], [1]])


@pytest.mark.parametrize("call,python", [
    (lambda x: xnp.hypot(x, x), False),  # a ufunc
    (lambda x: xnp.add.reduce(x, axis=0), False),  # a ufunc reduction, parameters bound
    (lambda x: xnp.take(x, _TAKE_INDEX), False),  # ndarray.take, bound
    (lambda x: xnp.inner(x[0], x[1]), True),  # dot_general's kernel, a Python function
    (lambda x: xnp.take_along_axis(x, _ALONG_INDEX, axis=1), True),
])
def test_programs_note_kernels_written_in_python(call, python):
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    _replay.clear()
    for _ in range(2):
        call(x)
    caches = [c for c in _replay._CACHES if c]
    programs = [p for c in caches for p in c.values() if type(p) is not _replay._Refused]
    assert len(programs) == 1, programs
    assert programs[0].python_kernels is python


def test_at_user_line_in_c_is_the_python_one():
    from xnp.tracing import fp_warnings

    if fp_warnings._native is None or not hasattr(fp_warnings._native, "at_user_line"):
        pytest.skip("the C module is not built")
    assert fp_warnings.at_user_line is fp_warnings._native.at_user_line

    def divide(a, b, *, out=None):  # a frame of this file: not xnp's
        return np.divide(a, b, out=out)

    before = np.geterr(), np.geterrcall()
    with pytest.warns(RuntimeWarning, match="divide by zero") as rec:
        got = fp_warnings.at_user_line(divide, np.ones(2), 0.0, out=np.empty(2))
    assert rec[0].filename == __file__ and np.isinf(got).all()
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        fp_warnings.at_user_line(divide, np.ones(2), 0.0)
    with pytest.raises(ZeroDivisionError):
        fp_warnings.at_user_line(lambda: 1 / 0)
    assert (np.geterr(), np.geterrcall()) == before  # restored after each
    with pytest.raises(TypeError, match="no fn"):
        fp_warnings.at_user_line()


# -- constants folded where a program is made (xnp/tracing/program.py:_folded)

FOLDED = [
    # (NumPy's empty_like leaves its memory as it is; xnp's fills it with zeros)
    ("empty_like", lambda m, x: m.empty_like(x) if m is xnp else np.zeros_like(x)),
    ("zeros_like", lambda m, x: m.zeros_like(x)),
    ("ones_like", lambda m, x: m.ones_like(x, dtype=np.float32)),
    ("full_like", lambda m, x: m.full_like(x, 2.5)),
    ("eye", lambda m, x: m.eye(4, 3, k=1)),
    ("identity", lambda m, x: m.identity(3, dtype=int)),
    ("tri", lambda m, x: m.tri(3, 4, -1)),
    ("arange", lambda m, x: m.arange(2, 11, 3)),
]


@pytest.mark.parametrize("name,call", FOLDED, ids=[c[0] for c in FOLDED])
def test_a_function_of_constants_is_one_constant_copied_by_each_replay(name, call):
    x = np.arange(12.0).reshape(3, 4)
    want = call(np, x)
    _replay.clear()
    results = []
    for _ in range(4):
        got = call(xnp, xnp.asarray(x))
        g = np.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape
        np.testing.assert_array_equal(g, want)
        assert g.flags.writeable
        results.append(got)
    results[1][...] = 7  # a replay's result is its own memory: the next one is not changed
    np.testing.assert_array_equal(np.asarray(call(xnp, xnp.asarray(x))), want)
    np.testing.assert_array_equal(np.asarray(results[2]), want)
    programs = [p for c in _replay._CACHES for p in c.values() if hasattr(p, "eqns")]
    kernels = [e[0] for p in programs for e in p.eqns]
    # the creation is one copy of its constant
    assert len(kernels) == 1 and getattr(kernels[0], "__name__", "") == "copy", kernels


def test_a_folded_constant_keeps_the_memory_order_and_size_limit():
    from xnp.tracing import program  # noqa: PLC0415

    big = program.MAX_CONSTANT_BYTES // 8 + 1  # float64 elements: just over the limit
    for shape, order in (((3, 4), "F"), ((big,), "C")):
        want = np.zeros(shape, order=order)
        _replay.clear()
        for _ in range(3):
            got = np.asarray(xnp.zeros_like(xnp.asarray(want)))
            np.testing.assert_array_equal(got, want)
            assert got.flags.f_contiguous == want.flags.f_contiguous
            assert got.flags.c_contiguous == want.flags.c_contiguous


def test_an_equation_of_constants_that_warns_is_not_folded():
    # log(0) warns on every call: the equation stays in the program (folding would run
    # it once, where the program is made)
    f = _replay.cached(lambda a: a + xnp.log(xnp.zeros(2)))
    for k in range(3):
        a = xnp.asarray(np.array([1.0, float(k)]))
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in log"):
            out = f(a)
        np.testing.assert_array_equal(np.asarray(out), [-np.inf, -np.inf])
    assert _replay.stats(f)["programs"] == 1


@pytest.mark.parametrize("call", [
    lambda o: xnp.add([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], out=o),
    lambda o: xnp.multiply((1.0, 2.0, 3.0), 2.0, out=(o,)),
    lambda o: xnp.sqrt([4.0, 9.0, 16.0], out=o),
    lambda o: xnp.clip([-1.0, 0.5, 9.0], 0.0, 1.0, out=o),
])
def test_a_write_of_constants_into_out_replays(call):
    # the ufunc of a write is not folded: each replay writes its result into `out`
    want = np.asarray(call(xnp.zeros(3))).copy()
    for _ in range(3):
        o = xnp.zeros(3)
        call(o)
        np.testing.assert_array_equal(np.asarray(o), want)


def test_folding_leaves_the_warning_filters_alone(no_check):
    # (the filters are the process's: a program made in one thread must not change what
    # another thread's warnings do, nor reset the once-per-line record of the default)
    filters = warnings.filters
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for k in range(6):
            np.log(np.array([-1.0]))  # one line: shown once
            xnp.linspace(0, k + 1, 5)  # a new signature each time: recorded and folded
            xnp.eye(3, k=k % 3)
    assert len(seen) == 1
    assert warnings.filters is filters


def test_a_constant_complex_cast_to_real_warns_on_every_replay():
    f = _replay.cached(lambda a: a + xnp.asarray(np.array([1 + 2j])).astype(np.float64))
    for k in range(3):
        with pytest.warns(np.exceptions.ComplexWarning):
            out = f(xnp.asarray(np.array([float(k)])))
        np.testing.assert_array_equal(np.asarray(out), [1.0 + k])
