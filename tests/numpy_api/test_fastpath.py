"""The eager fast path (xnp.numpy_api._fastpath, its tables in _fast_tables) never changes a result: for every function
and operator it serves, fast and full path agree on value, dtype, weak type and error,
and both agree with NumPy; transformations still see every operation."""

import functools
import operator
import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp.array import ArrayMethods
from xnp.tracing import core
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api._fast_tables import FAST_OPS

FAST = sorted(FAST_OPS)
BINARY = [n for n in FAST if n in (
    "add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum",
    "bitwise_and", "bitwise_or", "bitwise_xor", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal")]
UNARY = [n for n in FAST if n not in BINARY]
DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint8, np.int32, np.uint64, np.int64,
                                np.float16, np.float32, np.float64, np.complex64,
                                np.complex128)] + [xnp.bfloat16]
SCALARS = [2.5, -1.0, 3, -7, 0, 127, 128, 300, -129, 2**40, True, 1j]


def _sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dt)
    x = rng.normal(0, 3, shape)
    if dt.kind == "c":
        x = x + 1j * rng.normal(0, 3, shape)
    x = x.astype(dt)
    if x.size:
        x.flat[0] = np.nan if dt.kind in "fc" or dt == xnp.bfloat16 else x.flat[0]
    return x


def _outcome(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn(*args)
        except Exception as e:  # noqa: BLE001  (the error itself is the outcome compared)
            return ("raise", type(e), str(e))
    # a NumPy scalar (NumPy's rule for a 0-d result, numpy_api/_scalars.py) is strong
    return ("ok", np.asarray(r), np.asarray(r).dtype, getattr(r, "weak_type", False),
            type(r))


def _same(fast, full):
    assert fast[0] == full[0], (fast, full)
    if fast[0] == "raise":
        assert fast[1:] == full[1:]
        return
    a, b = fast[1], full[1]
    if a.dtype == xnp.bfloat16:  # compared as float32: NaN == NaN for assert_array_equal
        a, b = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_array_equal(a, b)
    assert fast[2:] == full[2:], (fast, full)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_binary_fast_equals_full_path(name, dtype):
    fn = getattr(xnp, name)
    full = fn.__wrapped__
    x = xnp.asarray(_sample(dtype, (2, 3), 0))
    cases = [(x, xnp.asarray(_sample(dtype, (2, 3), 1))),   # same shape
             (x, xnp.asarray(_sample(dtype, (3,), 2))),     # broadcast
             (x, xnp.asarray(_sample(dtype, (), 3))),       # 0-d
             (x, xnp.asarray(_sample(dtype, (4,), 4))),     # does not broadcast
             (x, xnp.asarray(_sample(np.float32, (2, 3), 5)))]  # other dtype
    cases += [(x, s) for s in SCALARS] + [(s, x) for s in SCALARS]
    for a, b in cases:
        _same(_outcome(fn, a, b), _outcome(full, a, b))
        res = _outcome(fn, a, b)
        if res[0] == "ok":  # and NumPy agrees (bfloat16 has no NumPy oracle for every op)
            na = np.asarray(a) if isinstance(a, xnp.Array) else a
            nb = np.asarray(b) if isinstance(b, xnp.Array) else b
            if dtype != xnp.bfloat16:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ref = getattr(np, name)(na, nb)
                np.testing.assert_array_equal(res[1], ref)
                assert res[2] == np.asarray(ref).dtype


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_unary_fast_equals_full_path(name, dtype):
    fn = getattr(xnp, name)
    for shape in [(2, 3), (), (0,)]:
        x = xnp.asarray(_sample(dtype, shape, 0))
        _same(_outcome(fn, x), _outcome(fn.__wrapped__, x))


def test_weak_operands_keep_weak_type():
    w = xnp.jit(lambda t: t)(2.0)  # a weak 0-d array (a Python scalar through jit)
    assert w.weak_type
    for op in (operator.add, operator.mul, operator.sub, operator.truediv):
        r = op(w, w)
        assert r.weak_type and r.dtype == w.dtype
        assert op(w, 1.5).weak_type
        assert not op(w, xnp.asarray(1.0)).weak_type
    assert not (w < w).weak_type
    assert (-w).weak_type


OPERATORS = [("__add__", "add"), ("__radd__", "add"), ("__sub__", "subtract"),
             ("__rsub__", "subtract"), ("__mul__", "multiply"), ("__rmul__", "multiply"),
             ("__truediv__", "true_divide"), ("__rtruediv__", "true_divide"),
             ("__and__", "bitwise_and"), ("__or__", "bitwise_or"), ("__xor__", "bitwise_xor"),
             ("__eq__", "equal"), ("__ne__", "not_equal"), ("__lt__", "less"),
             ("__le__", "less_equal"), ("__gt__", "greater"), ("__ge__", "greater_equal")]


@pytest.mark.parametrize("meth,name", OPERATORS)
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64, np.complex64, np.bool_],
                         ids=str)
def test_operators_match_numpy(meth, name, dtype):
    a_np, b_np = _sample(dtype, (2, 3), 0), _sample(dtype, (3,), 1)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    for other, other_np in ((b, b_np), (3, 3), (2.5, 2.5)):
        fast = _outcome(getattr(xnp.Array, meth), a, other)
        full = _outcome(getattr(ArrayMethods, meth), a, other)
        _same(fast, full)
        if fast[0] == "ok":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = getattr(a_np, meth)(other_np)
            np.testing.assert_array_equal(fast[1], ref)
            assert fast[2] == np.asarray(ref).dtype


def test_getitem_fast_path_keeps_numpy_views_and_errors():
    base = np.arange(12.0).reshape(3, 4)
    x = xnp.asarray(base.copy())
    v = x[1]
    v[2] = -1.0                           # a basic slice is a view: writes land in x
    assert float(x[1, 2]) == -1.0
    s = x[1, 2]                           # a full integer index is a 0-d copy
    assert s.shape == () and not np.shares_memory(np.asarray(s), np.asarray(x))
    np.testing.assert_array_equal(np.asarray(x[:, 1:3]), np.asarray(x)[:, 1:3])
    np.testing.assert_array_equal(np.asarray(x[-1, ::-2]), np.asarray(x)[-1, ::-2])
    for idx in [None, (None, 1), (Ellipsis, None), (1, Ellipsis), (slice(None), None, 0), ()]:
        fast, full = x[idx], ArrayMethods.__getitem__(x, idx)
        np.testing.assert_array_equal(np.asarray(fast), np.asarray(full))
        assert fast.shape == full.shape and fast.weak_type == full.weak_type
        assert np.shares_memory(np.asarray(fast), np.asarray(x)) == np.shares_memory(
            np.asarray(full), np.asarray(x))
    with pytest.raises(IndexError) as fast_err:
        x[..., ...]
    with pytest.raises(IndexError) as full_err:
        ArrayMethods.__getitem__(x, (Ellipsis, Ellipsis))
    assert str(fast_err.value) == str(full_err.value)
    with pytest.raises(IndexError) as fast_err:
        x[5]
    with pytest.raises(IndexError) as full_err:
        ArrayMethods.__getitem__(x, 5)
    assert str(fast_err.value) == str(full_err.value)
    with pytest.raises(IndexError):
        x[1, 2, 3]


_READ_INDICES = [0, -1, 5, (1, 2), (slice(None), 1), slice(None, None, -2), (None, 1),
                 (Ellipsis, 0), (1, Ellipsis, None), [0, 2], [2, 0, 2], ([0, 1], [3, 0]),
                 (slice(1, None), [1, 3]), [], [True, False, True], (0, [5]),
                 (slice(1.5, None),), (0, 0, 0), "idx-array", "mask", "idx-tuple"]


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_, np.complex64])
def test_getitem_fast_equals_full_path(dtype):
    # every index kind the fast path (C where built) serves or hands on, against the full
    # path and NumPy: value, dtype, scalar-or-array, view-or-copy, weak type and errors
    base = _sample(dtype, (3, 4), 5)
    full_path = xnp.Array.__getitem__.__wrapped__  # NumPy's scalar rule included
    for weak in (False, True):
        x = xnp.Array(base.copy(), weak)
        host = np.asarray(x)
        for idx in _READ_INDICES:
            if idx == "idx-array":
                idx, ref_idx = xnp.asarray([2, 0]), np.array([2, 0])
            elif idx == "mask":
                idx, ref_idx = xnp.asarray(base.real > 0), base.real > 0
            elif idx == "idx-tuple":
                idx, ref_idx = (xnp.asarray([1, 2]), slice(None, 2)), (np.array([1, 2]),
                                                                       slice(None, 2))
            else:
                ref_idx = idx
            fast = _outcome(lambda: x[idx])
            full = _outcome(lambda: full_path(x, idx))
            if fast[0] == "ok":
                got = x[idx]
                assert type(got) is type(full_path(x, idx))
                assert np.shares_memory(np.asarray(got), host) == np.shares_memory(
                    np.asarray(full_path(x, idx)), host)
                want = host[ref_idx]
                np.testing.assert_array_equal(fast[1], want)
                assert fast[2] == np.asarray(want).dtype
                assert type(got) is (type(want) if not isinstance(want, np.ndarray)
                                     else xnp.Array)
            _same(fast, full)


def test_getitem_on_jit_output_copies_before_view():
    y = xnp.jit(lambda a: a * 2.0)(xnp.arange(6.0))
    v = y[1:3]
    v[0] = 100.0                          # copy-on-write: the view writes into y's copy
    assert float(y[1]) == 100.0


def test_transformations_still_record_eager_operands():
    a, b = xnp.asarray(np.arange(3.0)), xnp.asarray(np.ones(3))
    jaxpr = xnp.make_jaxpr(lambda: (a + b, -a, a[1], a * 2.0))()
    text = str(jaxpr)
    for prim in ("add", "neg", "mul"):
        assert f" {prim} " in text or f"= {prim}" in text, text
    g = xnp.grad(lambda t: xnp.sum(t * t + a))(xnp.asarray(np.arange(3.0)))
    np.testing.assert_allclose(np.asarray(g), 2 * np.arange(3.0))
    bat = xnp.vmap(lambda t: t + a)(xnp.ones((2, 3)))
    np.testing.assert_allclose(np.asarray(bat), np.ones((2, 3)) + np.arange(3.0))


def test_eager_xla_backend_takes_the_full_path():
    with xnp.config.override(eager_backend="xla"):
        a = xnp.asarray(np.arange(3.0))
        r = a + a
        np.testing.assert_allclose(np.asarray(r), 2 * np.arange(3.0))
        assert fastpath._TABLE[0] == {}   # the XLA backend offers no fast ops
    assert core.eager_backend().name == "numpy" and fastpath._TABLE[0] is FAST_OPS
    assert (xnp.asarray(np.ones(2)) + 1.0).dtype == np.float64


NATIVE_OPS = [(operator.add, "add"), (operator.sub, "subtract"), (operator.mul, "multiply"),
              (operator.truediv, "true_divide"), (operator.and_, "bitwise_and"),
              (operator.or_, "bitwise_or"), (operator.xor, "bitwise_xor")]


@pytest.mark.parametrize("op,name", NATIVE_OPS, ids=[n for _, n in NATIVE_OPS])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_operators_fast_equals_full_path(op, name, dtype):
    # ``a + b`` and the other arithmetic operators, in either order (served by the C
    # storage class's number slots where it is built, by fastpath.binary otherwise) agree
    # with the function's full path on value, dtype, weak type and error
    # the function's full path before NumPy's scalar rule (xnp.<name>.__wrapped__ has it):
    # operators of 0-d arrays keep arrays (README, "Scalars")
    full = getattr(xnp, name).__wrapped__.__wrapped__
    x = xnp.asarray(_sample(dtype, (2, 3), 0))
    resident = xnp.jit(lambda t: t)(_sample(dtype, (3,), 6))  # a device value, not read yet
    weak = xnp.jit(lambda t: t)(2.0)
    others = [xnp.asarray(_sample(dtype, (2, 3), 1)), xnp.asarray(_sample(dtype, (3,), 2)),
              xnp.asarray(_sample(dtype, (), 3)), xnp.asarray(_sample(dtype, (4,), 4)),
              xnp.asarray(_sample(np.float32, (2, 3), 5)), resident, weak,
              _sample(dtype, (3,), 7), np.float32(1.5), [1, 0, 1], *SCALARS]
    for other in others:
        for a, b in ((x, other), (other, x)):
            _same(_outcome(op, a, b), _outcome(full, a, b))
    _same(_outcome(op, weak, weak), _outcome(full, weak, weak))


def test_operators_are_served_without_a_python_frame_when_built():
    # with the C storage class the arithmetic operators are its number slots (nothing in
    # Array's own dict); without it, fastpath.binary's Python functions
    native = core.Array.__mro__[1].__module__ != "xnp.tracing.core"
    for name in fastpath.NATIVE_OPERATORS:
        assert (name in vars(xnp.Array)) is not native
        assert ("__r" + name[2:] in vars(xnp.Array)) is not native


def test_function_fast_paths_are_native_when_built_and_keep_the_call_protocol():
    # with the C module, fastpath.unary/binary are C callables (no Python frame when
    # served); either way they bind as methods, carry the full path as __wrapped__, and
    # hand every call they do not serve (keywords, extra arguments, too few) to it
    from xnp.tracing.array_base import FastFunc
    import inspect
    call = type(xnp.add).__call__
    if type(call) is not FastFunc and type(call.__wrapped__) is FastFunc:
        # once a test has defined an xnp.ndarray subclass, ufunc calls are wrapped to keep
        # the subclass in results (xnp/ndarray_class.py:_activate); the fast path is inside
        call = call.__wrapped__
    assert (type(call) is FastFunc) is (FastFunc is not None)
    assert call.__name__ == "add" and "add" in repr(call) and callable(call.__wrapped__)
    a_np, b_np = _sample(np.float64, (2, 3), 0), _sample(np.float64, (3,), 1)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    np.testing.assert_array_equal(np.asarray(a.__lt__(b)), a_np < b_np)  # bound
    np.testing.assert_array_equal(np.asarray(xnp.Array.__lt__(a, b)), a_np < b_np)
    np.testing.assert_array_equal(np.asarray(xnp.Array.__rsub__(a, b)), b_np - a_np)
    assert len(inspect.signature(xnp.Array.__lt__).parameters) == 2  # self and the other
    out = xnp.zeros((2, 3))
    assert xnp.add(a, b, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), a_np + b_np)
    assert xnp.add(a, 1.0, out) is out
    np.testing.assert_array_equal(np.asarray(out), a_np + 1.0)
    assert xnp.sin(a, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), np.sin(a_np))
    np.testing.assert_array_equal(np.asarray(xnp.add(a, b, where=a_np > 0, out=out)),
                                  np.add(a_np, b_np, where=a_np > 0, out=np.sin(a_np)))
    for bad in ((a,), (a, b, out, out, out)):
        with pytest.raises(TypeError) as fast_err:
            xnp.add(*bad)
        with pytest.raises(TypeError) as full_err:
            xnp.add.__wrapped__(*bad)
        assert str(fast_err.value) == str(full_err.value)


# --------------------------------------------------------------------------- temporaries

_N = 1 << 18  # 256 KiB of bool (2 MiB of float64): at the elision threshold (256 KiB)


def _elisions():
    from xnp._native import _array_base  # noqa: PLC0415

    return _array_base.elisions()


def _big(seed, dtype=np.float64, shape=(_N,)):
    return _sample(dtype, shape, seed)


def _learn_operators(dtype):
    """Run the operators once on small arrays of ``dtype`` (and a Python int), so that the
    fast path has learnt their kernels from the full path (``fastpath.learn``)."""
    s1, s2 = (xnp.asarray(_sample(dtype, (4,), k)) for k in (7, 8))
    for op in (operator.add, operator.sub, operator.mul, operator.and_, operator.or_):
        try:
            op(s1, s2)
            op(s1, 2)
            op(2, s1)
        except TypeError:  # (bitwise operators of inexact dtypes)
            pass


@pytest.mark.skipif(not hasattr(fastpath, "FastFunc") or fastpath.FastFunc is None,
                    reason="the C fast path is not built (optional extension)")
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128, np.bool_])
def test_operators_compute_into_a_temporary_operand(dtype):
    """``exp(a) * b + c``-style expressions: the product of an expression (a temporary
    only the interpreter holds) takes the next result in its memory, as NumPy's operators
    do; values, dtype and weak type equal NumPy's, and the named arrays are unchanged."""
    a_np, b_np, c_np = _big(1, dtype), _big(2, dtype), _big(3, dtype)
    a, b, c = xnp.asarray(a_np), xnp.asarray(b_np), xnp.asarray(c_np)
    _learn_operators(dtype)
    before = _elisions()
    if dtype is np.bool_:
        got, want = (a & b) | c, (a_np & b_np) | c_np
        expected = 1
    else:
        got, want = (a * b + c) * 2 - a, (a_np * b_np + c_np) * 2 - a_np
        expected = 3
    assert _elisions() - before == expected
    assert type(got) is type(a) and got.dtype == want.dtype and not got.weak_type
    np.testing.assert_array_equal(np.asarray(got), want)
    for x, x_np in ((a, a_np), (b, b_np), (c, c_np)):
        np.testing.assert_array_equal(np.asarray(x), x_np)


@pytest.mark.skipif(not hasattr(fastpath, "FastFunc") or fastpath.FastFunc is None,
                    reason="the C fast path is not built (optional extension)")
def test_operands_that_others_can_see_are_never_reused():
    """No elision where the operand is visible after the operation or cannot take the
    result: a name, a container, a view, a broadcast result, another dtype, a small array,
    a call by C code (operator.add, sum), a jit output; each result equals NumPy's."""
    a_np, b_np = _big(4), _big(5)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    m_np = _big(6, shape=(256, 256))
    m = xnp.asarray(m_np)
    row = xnp.asarray(m_np[0])
    jit_out = xnp.jit(lambda x: x * 2)
    cases = {
        "name": lambda: (lambda t: (t + 1, t))(a * 2),
        "list": lambda: (lambda ts: (ts[0] + 1, ts[0]))([a * 2]),
        "view": lambda: ((m * 2)[:128] + 1, None),
        "broadcast into the other": lambda: ((m * 2)[0] + m, None),
        "other dtype": lambda: ((a * 2) + xnp.asarray(b_np.astype(np.float32)), None),
        "small": lambda: ((a[:10] * 2) + 1, None),
        "operator.add": lambda: (operator.add(a * 2, b), None),
        "sum": lambda: (sum([a * 2, b]), None),
        "jit output": lambda: (jit_out(a) + 1, None),
    }
    wants = {
        "name": (a_np * 2 + 1, a_np * 2), "list": (a_np * 2 + 1, a_np * 2),
        "view": ((m_np * 2)[:128] + 1, None), "broadcast into the other": ((m_np * 2)[0] + m_np, None),
        "other dtype": (a_np * 2 + b_np.astype(np.float32), None),
        "small": (a_np[:10] * 2 + 1, None), "operator.add": (a_np * 2 + b_np, None),
        "sum": (0 + a_np * 2 + b_np, None), "jit output": (a_np * 2 + 1, None),
    }
    for name, case in cases.items():
        before = _elisions()
        got, kept = case()
        assert _elisions() == before, name
        want, want_kept = wants[name]
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=name)
        if want_kept is not None:
            np.testing.assert_array_equal(np.asarray(kept), want_kept, err_msg=name)
    # C code calling the operator inside the user's BINARY_OP, on an array it holds the
    # only reference to: NumPy's object-dtype loops, a slot that is a functools.partial
    objs = np.empty((2, 2), dtype=object)
    for i, v in enumerate((1.0, 2.0, 3.0, 4.0)):
        objs.flat[i] = xnp.full(_N, v)
    before = _elisions()
    got = [objs @ objs, objs + 1.0, 2.0 * objs, objs - objs]
    assert _elisions() == before
    np.testing.assert_array_equal([[float(t[0]) for t in row] for row in got[0]],
                                  [[7.0, 10.0], [15.0, 22.0]])
    assert [float(t[0]) for t in objs.flat] == [1.0, 2.0, 3.0, 4.0]
    assert [float(t[0]) for t in got[1].flat] == [2.0, 3.0, 4.0, 5.0]

    class Holder:
        __add__ = functools.partial(operator.add, xnp.full(_N, 5.0))

    assert float((Holder() + 1.0)[0]) == 6.0
    assert float(Holder.__add__.args[0][0]) == 5.0
    # an errstate callback's ValueError propagates once (no second run of the call)
    calls = []

    def callback(kind, flag):
        calls.append(kind)
        raise ValueError("overflow seen")

    big = xnp.asarray(np.full(_N, 1e308))
    with np.errstate(over="call", call=callback), pytest.raises(ValueError, match="seen"):
        (big * 1.0) + big  # noqa: B018
    assert calls == ["overflow"]
    # a row broadcast into a temporary of the result's shape is served (the temporary is
    # the one reused), and floating-point errors are NumPy's
    before = _elisions()
    got = row + m * 2
    assert _elisions() - before == 1
    np.testing.assert_array_equal(np.asarray(got), m_np[0] + m_np * 2)
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        (a * 0) / 0.0  # noqa: B018
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            (a * 0 + 1) / 0.0  # noqa: B018


def test_asarray_of_one_array_is_served_in_c():
    # xnp.asarray(ndarray) / xnp.asarray(xnp array): FastFunc(kind="asarray"), no Python
    # frame; other arguments go to the Python fast path, then the full path
    if fastpath.FastFunc is None:
        pytest.skip("the C module is not built")
    n = np.arange(6.0).reshape(2, 3)
    x, frames = python_frames(xnp.asarray, n)
    assert frames == [] and type(x) is xnp.Array and np.shares_memory(np.asarray(x), n)
    same, frames = python_frames(xnp.asarray, x)
    assert frames == [] and same is x
    out, frames = python_frames(xnp.asarray, [1.0, 2.0])  # Python data: the Python path
    assert frames and np.asarray(out).tolist() == [1.0, 2.0]
    big = np.ones(3, ">f8")  # a dtype outside the fast path's set: the full path
    assert xnp.asarray(big).dtype == np.asarray(xnp.asarray.__wrapped__(big)).dtype


def _weak(dtype, seed):
    """A weak array of ``dtype`` (as a Python scalar passed through ``jit`` gives one)."""
    return xnp.Array(_sample(dtype, (2, 3), seed), True)


FIT_SCALARS = [0.5, -0.0, 0, 127, -1, -128, 128, -129, 2**40]


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != xnp.bfloat16], ids=str)
def test_scalar_operands_fast_equal_full_path_for_weak_arrays(dtype):
    """Which Python scalars the fast path serves beside an array is the full path's own
    promotion (``fastpath.SCALAR_FITS``), for weak arrays as for strong ones: the served
    result equals the full path's in value, dtype and weak type."""
    for x in (_weak(dtype, 0), xnp.asarray(_sample(dtype, (2, 3), 0))):
        for name in ("add", "multiply", "subtract", "less", "bitwise_and"):
            fn = getattr(xnp, name)
            for s in FIT_SCALARS:
                _same(_outcome(fn, x, s), _outcome(fn.__wrapped__, x, s))
                _same(_outcome(fn, s, x), _outcome(fn.__wrapped__, s, x))
        for op, name in (("__add__", "add"), ("__rsub__", "subtract"), ("__mul__", "multiply")):
            full = getattr(xnp, name).__wrapped__
            for s in FIT_SCALARS:
                args = (s, x) if op.startswith("__r") else (x, s)
                _same(_outcome(getattr(x, op), s), _outcome(full, *args))


def test_scalar_fits_follow_the_options(monkeypatch):
    """``x + 1.5`` with a weak float32 ``x`` is float64 with x64 on (a weak array and a
    Python float promote to the default float): the fast path leaves it to the full path;
    with x64 off it is float32 and served. A strong float32 array keeps float32 and is
    served under both."""
    calls = []

    def counting(a, b):
        calls.append(1)
        return np.add(a, b)

    op = FAST_OPS["add"]
    patched = type(op)({}, {}, op.bool_out, op.arity)
    monkeypatch.setitem(FAST_OPS, "add", patched)
    for x64, weak_served in ((True, False), (False, True)):
        with xnp.config.override(enable_x64=x64):
            patched.scalar_kernels[np.dtype(np.float32)] = counting  # (an option update
            w = _weak(np.float32, 0)                                  # forgets kernels)
            s = xnp.asarray(_sample(np.float32, (2, 3), 1))
            for x, served in ((w, weak_served), (s, True)):
                for call in (lambda: x + 1.5, lambda: xnp.add(1.5, x)):
                    del calls[:]
                    fast = _outcome(call)
                    assert bool(calls) == served, (x64, x.weak_type)
                    _same(fast, _outcome(xnp.add.__wrapped__, x, 1.5))
            r = w + 1.5
            assert r.dtype == (np.float64 if x64 else np.float32) and r.weak_type


def _fresh():
    """Forget the recorded programs and the learnt kernels (as an option update does)."""
    from xnp.numpy_api import _replay  # noqa: PLC0415

    _replay.clear()
    fastpath.forget()


_INTS = [np.dtype(t) for t in (np.int32, np.int64)]
_INEXACT = [np.dtype(t) for t in (np.float32, np.float64, np.complex128)]


def _served_dtypes(name):
    """The common dtypes whose full path is the NumPy ufunc itself (float functions of
    integers convert them first; bitwise functions take integers only)."""
    if name.startswith("bitwise_"):
        return _INTS
    if name in ("divide", "true_divide") or name not in BINARY + ["negative", "absolute"]:
        return _INEXACT
    if name in ("maximum", "minimum"):  # (complex: the full path is more than the ufunc)
        return _INTS + _INEXACT[:2]
    return _INTS + _INEXACT


@pytest.mark.parametrize("name", FAST)
def test_kernels_are_learnt_from_the_full_path(name):
    """One call of a function on arrays of a dtype (and one with a Python scalar) teaches
    the fast path the kernel of that dtype: the NumPy ufunc the full path's recording
    applied. The common dtypes whose full path is that ufunc are then served."""
    _fresh()
    op = FAST_OPS[name]
    # (xnp.true_divide is xnp.divide, whose fast path is "divide"'s: "/" is true_divide's)
    fn = operator.truediv if name == "true_divide" else getattr(xnp, name)
    for dtype in _served_dtypes(name):
        xs = [xnp.asarray(_sample(dtype, (2, 3), k)) for k in range(op.arity)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                fn(*xs)
                if op.arity == 2:
                    fn(xs[0], 2)
            except TypeError:  # (a function NumPy does not define for the dtype)
                continue
        assert op.kernels.get(dtype) is getattr(np, name), (name, dtype)
        if op.arity == 2:
            assert op.scalar_kernels.get(dtype) is getattr(np, name), (name, dtype)


def test_dtypes_whose_full_path_is_not_one_kernel_are_never_served():
    """Integer true division converts first, the absolute value of an unsigned integer
    is its copy, bfloat16 over a Python float computes in a wider float in NumPy: no
    kernel is learnt for them, so the fast path leaves them to the full path."""
    _fresh()
    i = xnp.asarray(np.arange(6, dtype=np.int64))
    u = xnp.asarray(np.arange(6, dtype=np.uint8))
    b = xnp.asarray(np.arange(6).astype(xnp.bfloat16))
    for _ in range(2):
        i / xnp.asarray(np.arange(1, 7))
        xnp.absolute(u)
        b + 0.5
    assert np.dtype(np.int64) not in FAST_OPS["true_divide"].kernels
    assert np.dtype(np.uint8) not in FAST_OPS["absolute"].kernels
    assert not fastpath._scalar_fits(np.asarray(b), False, 0.5)
    _same(_outcome(lambda: b + 0.5), _outcome(xnp.add.__wrapped__, b, 0.5))


def test_kernels_are_learnt_while_the_dispatch_cache_skips_or_is_full():
    """A function that met many new signatures in a row (it skips recordings) or as many
    as its cache keeps still records the first call of a dtype it has no kernel for."""
    from xnp.numpy_api import _replay  # noqa: PLC0415

    _fresh()
    for n in range(1, _replay.MAX_SIGNATURES + 10):  # ever-new shapes: full, then skipping
        xnp.asarray(np.ones(n)) - xnp.asarray(np.ones(n))
    assert np.dtype(np.int16) not in FAST_OPS["subtract"].kernels
    a, b = (xnp.asarray(np.arange(5, dtype=np.int16)) for _ in range(2))
    np.testing.assert_array_equal(np.asarray(a - b), np.zeros(5, np.int16))
    assert FAST_OPS["subtract"].kernels[np.dtype(np.int16)] is np.subtract


def test_kernels_follow_the_options():
    """What is learnt under some options serves under them only: an update that changes
    the options starts from what was learnt under the new ones before (nothing at first),
    and what was learnt under the old ones comes back with them."""
    _fresh()
    f32 = np.dtype(np.float32)
    a, b = (xnp.asarray(np.ones(3, np.float32)) for _ in range(2))
    a * b
    assert FAST_OPS["multiply"].kernels == {f32: np.multiply}
    with xnp.config.override(enable_x64=False):
        assert not FAST_OPS["multiply"].kernels
        a - b
        assert FAST_OPS["subtract"].kernels == {f32: np.subtract}
    assert FAST_OPS["multiply"].kernels == {f32: np.multiply}
    assert not FAST_OPS["subtract"].kernels
    with xnp.config.override(enable_x64=False):
        assert FAST_OPS["subtract"].kernels == {f32: np.subtract}
    with xnp.config.override(enable_x64=True):  # (no change of the options: kept)
        assert FAST_OPS["multiply"].kernels == {f32: np.multiply}


def test_kernels_are_learnt_with_the_dispatch_cache_off():
    """The fast path does not depend on the eager dispatch cache: with it off, the first
    call of a function and dtype is still recorded once to learn the kernel (and kept
    nowhere), and the next calls are served."""
    _fresh()
    a, b = (xnp.asarray(np.arange(3, dtype=np.int16)) for _ in range(2))
    with xnp.config.override(eager_dispatch_cache=False):
        np.testing.assert_array_equal(np.asarray(a + b), [0, 2, 4])
        assert FAST_OPS["add"].kernels[np.dtype(np.int16)] is np.add
        if fastpath.FastFunc is not None:
            assert python_frames(lambda: a + b)[1] == ["<lambda>"]
        xnp.true_divide(a, b + 1)  # (int16 division converts first: no kernel, tried once)
        assert np.dtype(np.int16) not in FAST_OPS["divide"].kernels


def test_two_weak_arrays_promote_by_nep50_whatever_their_shapes():
    """Two weak float32 arrays (Python floats traced with x64 off) are two Python floats to
    NEP 50: float64 with x64 on, for equal or different shapes, by the fast path or not."""
    with xnp.config.override(enable_x64=False):
        w0 = xnp.jit(lambda t: t)(2.5)
        w6 = xnp.jit(lambda t: xnp.broadcast_to(t, (6,)))(1.5)
        v6 = xnp.jit(lambda t: xnp.broadcast_to(t, (6,)))(0.5)
    s, t = (xnp.asarray(np.ones(3, np.float32)) for _ in range(2))
    for _ in range(3):
        s + t  # (teaches add for float32)
        for x, y in ((w0, w6), (w6, v6), (w6, w6)):
            for r in (x + y, xnp.add(x, y), xnp.add.__wrapped__(x, y)):
                assert r.dtype == np.float64 and r.weak_type, (x.shape, y.shape, r.dtype)
    with xnp.config.override(enable_x64=False):
        assert (w6 + v6).dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.complex128],
                         ids=str)
def test_out_calls_fast_equal_full_path_and_numpy(dtype):
    """``xnp.log(x, out=o)``, ``xnp.add(x, y, out=o)``, ``xnp.add(x, 2, out=o)``...: served by
    the learnt kernel writing into ``o`` (NumPy's ``out=``) from the second call on. Every
    call (three of each) leaves ``o`` as NumPy leaves its array, and as the full path
    does, and raises where they raise, for each form: ``out`` of the operands' dtype or of
    another (a cast), broadcasting, ``out`` overlapping an operand, ``out`` as a tuple, a
    read-only ``out``."""
    x_np, y_np = _sample(dtype, (3, 4), 1), _sample(dtype, (3, 4), 2)
    if np.dtype(dtype).kind in "fc":
        x_np = np.abs(x_np) + 1  # (no NaN: log of a positive number)
    cases = [("add", lambda x, y: (x, y)), ("add", lambda x, y: (x, 2)),
             ("multiply", lambda x, y: (x, y[0])), ("subtract", lambda x, y: (3, x))]
    if np.dtype(dtype).kind in "fc":
        cases.append(("log", lambda x, y: (x,)))
    forms = [(dtype, "plain"), (dtype, "tuple"), (dtype, "overlap"), (dtype, "read-only"),
             (np.complex128, "plain")]
    for name, operands in cases:
        for out_dtype, form in forms:
            states = []
            for way in ("xnp", "numpy", "full path"):
                mod = np if way == "numpy" else xnp
                x, y = mod.asarray(x_np.copy()), mod.asarray(y_np.copy())
                o = x if form == "overlap" else mod.zeros((3, 4), out_dtype)
                if form == "read-only":  # (xnp.asarray shares a read-only NumPy array)
                    held = np.zeros((3, 4), out_dtype)
                    held.flags.writeable = False
                    o = mod.asarray(held)
                f = getattr(mod, name)
                f = f.__wrapped__ if way == "full path" else f
                out = (o,) if form == "tuple" else o
                for _ in range(3):  # (the first call teaches the kernel)
                    got = []
                    res = _outcome(lambda: got.append(f(*operands(x, y), out=out)))
                    assert not got or got[0] is o  # (NumPy's `out=` is returned as given)
                    states.append((way, res[0], res[1] if res[0] == "raise" else None,
                                   np.array(np.asarray(o))))
            for k, (way, kind, error, after) in enumerate(states):
                ref = states[3 + k % 3]  # NumPy's state after the same call
                assert kind == ref[1], (name, form, out_dtype, way, k, error, ref[2])
                np.testing.assert_array_equal(after, ref[3])


def test_out_calls_are_served_and_return_out():
    """After one call has taught the kernel, ``xnp.add(x, y, out=o)`` calls the kernel with
    NumPy's ``out=`` (no Python frame of xnp) and returns ``o``; a jit output's buffer, a
    grad/vmap scope, a comparison and an ``out`` of another dtype take the full path."""
    _fresh()
    x, y = xnp.asarray(np.arange(4.0)), xnp.asarray(np.ones(4))
    o = xnp.zeros(4)
    xnp.add(x, y, out=o)  # (a call with out= teaches the kernel too)
    assert FAST_OPS["add"].kernels[np.dtype(np.float64)] is np.add
    assert xnp.add(x, y, out=o) is o and xnp.add(x, y, out=(o,)) is o
    np.testing.assert_array_equal(np.asarray(o), [1.0, 2.0, 3.0, 4.0])
    if fastpath.FastFunc is not None:  # (the C fast path: no Python frame of xnp)
        assert python_frames(lambda: xnp.add(x, y, out=o))[1] == ["<lambda>"]
    j = xnp.jit(lambda t: t * 1.0)(x)  # a jit output: its buffer is copied on write
    assert xnp.add(x, y, out=j) is j
    np.testing.assert_array_equal(np.asarray(j), [1.0, 2.0, 3.0, 4.0])
    w = xnp.jit(lambda t: t)(2.0)
    ow = xnp.Array(np.zeros(4), True)  # a weak out keeps its weak type
    xnp.multiply(x, w, out=ow)
    assert ow.weak_type
    np.testing.assert_array_equal(np.asarray(ow), [0.0, 2.0, 4.0, 6.0])

    def f(v):
        buf = xnp.zeros(4)
        xnp.add(v, y, out=buf)  # under grad: the buffer is bound to a cell
        return (buf * buf).sum()

    np.testing.assert_allclose(np.asarray(xnp.grad(f)(x)), 2 * (np.arange(4.0) + 1))
    with np.errstate(divide="raise"):  # NumPy writes, then raises; so does the fast path
        z = xnp.zeros(2)
        o2 = xnp.full(2, 7.0)
        for _ in range(2):
            with pytest.raises(FloatingPointError):
                xnp.log(z, out=o2)
        np.testing.assert_array_equal(np.asarray(o2), [-np.inf, -np.inf])


INPLACE = [("__iadd__", operator.iadd), ("__isub__", operator.isub),
           ("__imul__", operator.imul), ("__itruediv__", operator.itruediv),
           ("__iand__", operator.iand), ("__ior__", operator.ior), ("__ixor__", operator.ixor)]


@pytest.mark.parametrize("name,op", INPLACE)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.bool_,
                                   np.complex64], ids=str)
def test_inplace_operators_fast_equal_full_path_and_numpy(name, op, dtype):
    """``a += b`` and the other in-place operators, served from the second call on as
    NumPy's ``add(a, b, out=a)``: each call (three in a row) leaves ``a`` as NumPy leaves its
    array and as the full path (``Array.<name>.__wrapped__``) does, returns ``a`` itself,
    and raises where they raise, for another array of the dtype, a broadcast one, a view
    of ``a`` itself, Python scalars, another dtype, and a read-only ``a``."""
    a_np, b_np = _sample(dtype, (3, 4), 1), _sample(dtype, (3, 4), 2)
    others = [lambda m, a: m.asarray(b_np.copy()), lambda m, a: m.asarray(b_np[0].copy()),
              lambda m, a: a[::-1], lambda m, a: 2, lambda m, a: -1, lambda m, a: 1.5,
              lambda m, a: m.asarray(np.real(b_np).astype(np.float32))]
    for k, other in enumerate(others):
        for read_only in (False, True):
            states = []
            for way in ("xnp", "numpy", "full path"):
                m = np if way == "numpy" else xnp
                held = a_np.copy()
                held.flags.writeable = not read_only
                a = m.asarray(held)
                b = other(m, a)
                fn = op if way != "full path" else getattr(xnp.Array, name).__wrapped__
                for _ in range(3):  # (the first call teaches the kernel)
                    got = []
                    res = _outcome(lambda: got.append(fn(a, b)))
                    assert not got or got[0] is a
                    states.append((res[0], res[2] if res[0] == "raise" else None,
                                   np.array(np.asarray(a))))
            for j, (kind, error, after) in enumerate(states):
                ref = states[3 + j % 3]
                assert kind == ref[0], (name, dtype, k, read_only, j, error, ref[1])
                if dtype == np.float32 or dtype == np.complex64:
                    np.testing.assert_array_equal(after, ref[2])
                else:
                    np.testing.assert_array_equal(after, ref[2])


def test_inplace_operators_are_served():
    """After one ``a += b`` has taught the kernel, the next runs no Python frame of xnp;
    arrays a grad/vmap function fills keep their rules (tested elsewhere), and a jit
    output is copied before it is written."""
    _fresh()
    a, b = xnp.asarray(np.zeros(4)), xnp.asarray(np.arange(4.0))
    a += b
    assert FAST_OPS["add"].kernels[np.dtype(np.float64)] is np.add
    if fastpath.FastFunc is not None:
        def step():
            nonlocal a
            a += b

        assert python_frames(step)[1] == ["step"]
    np.testing.assert_array_equal(np.asarray(a), 2 * np.arange(4.0))
    j = xnp.jit(lambda t: t * 1.0)(b)
    j += b
    np.testing.assert_array_equal(np.asarray(j), 2 * np.arange(4.0))
    np.testing.assert_array_equal(np.asarray(b), np.arange(4.0))


def test_out_errors_after_numpys_write_are_raised_once():
    """An errstate callback (or a warnings filter) raising after NumPy's loop wrote its
    output: ``xnp.sqrt(x, out=x)`` and ``a /= b`` leave what NumPy leaves and raise its
    exception, once, on every call (the fast path calls NumPy only where NumPy takes the
    output, so no exception it raises is a refusal to retry by the full path)."""
    def handler(kind, flag):
        calls.append(kind)
        raise ValueError(kind)

    t = xnp.ones(2)
    xnp.sqrt(xnp.ones(2), out=t)  # (teach the kernels: the full path's first call differs,
    t /= xnp.ones(2)  # writing nothing before the callback's error)
    for m in (np, xnp, xnp):
        calls = []
        x = m.asarray(np.array([4.0, -1.0, 16.0]))
        a, b = m.asarray(np.array([1.0, 2.0, 4.0])), m.asarray(np.array([0.0, 2.0, 2.0]))
        with np.errstate(all="call", call=handler):
            with pytest.raises(ValueError, match="invalid value"):
                m.sqrt(x, out=x)
            with pytest.raises(ValueError, match="divide by zero"):
                a /= b
        np.testing.assert_array_equal(np.asarray(x), [2.0, np.nan, 4.0])
        np.testing.assert_array_equal(np.asarray(a), [np.inf, 1.0, 2.0])
        assert calls == ["invalid value", "divide by zero"], (m, calls)


def test_warnings_name_the_callers_line_with_the_dispatch_cache_off():
    z, o = xnp.zeros(2), xnp.zeros(2)
    with xnp.config.override(eager_dispatch_cache=False):
        for _ in range(3):
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                xnp.log(z, out=o)
                z // z
            assert [w.filename for w in seen] == [__file__, __file__], seen


def test_out_calls_teach_while_the_dispatch_cache_skips():
    """A function that met many new signatures in a row skips recordings; a call with
    ``out=`` of a dtype whose kernel is not learnt is still recorded to learn it."""
    from xnp.numpy_api import _replay  # noqa: PLC0415

    _fresh()
    for n in range(1, _replay.MISSES_IN_A_ROW + 4):  # (ever-new shapes: skipping)
        xnp.multiply(xnp.asarray(np.ones(n)), 2.0)
    x, o = xnp.asarray(np.arange(3, dtype=np.int32)), xnp.zeros(3, np.int32)
    xnp.multiply(x, x[::-1].copy(), out=o)
    assert FAST_OPS["multiply"].kernels[np.dtype(np.int32)] is np.multiply
    np.testing.assert_array_equal(np.asarray(o), [0, 1, 0])


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # (inf - inf: by design)
def test_learnt_kernels_leave_traced_writes_to_the_transformations():
    """Kernels taught eagerly (operators, ``out=``, ``a += b``) do not serve traced calls:
    the same function under ``jit`` and ``grad`` gives NumPy's values and derivatives
    (central differences), writes its updated argument back as NumPy does, and eager
    calls after it are still NumPy's."""
    def f(m, a, b):
        o = m.zeros(3)
        m.multiply(a, b, out=o)
        a += o
        a *= 0.5
        return (a * a + b).sum()

    a_np, b_np = np.array([0.0, -0.0, 2.5]), np.array([1.0, 5e-324, -np.inf])
    _fresh()
    x, y = xnp.asarray(a_np.copy()), xnp.asarray(b_np.copy())
    for _ in range(2):  # (teach the kernels)
        f(xnp, xnp.asarray(a_np.copy()), xnp.asarray(b_np.copy()))
    assert FAST_OPS["multiply"].kernels and FAST_OPS["add"].kernels
    want_a = a_np.copy()
    want = f(np, want_a, b_np)
    got = xnp.jit(lambda a, b: f(xnp, a, b))(x, y)
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(x), want_a)  # (written back, signed zero kept)
    assert np.signbit(np.asarray(x)[1]) == np.signbit(want_a[1])
    b_fin = np.array([1.0, 0.0, 2.0])
    g = xnp.grad(lambda a: f(xnp, a, xnp.asarray(b_fin)))(xnp.asarray(a_np.copy()))
    h = 1e-6
    fd = [(f(np, a_np + h * e, b_fin) - f(np, a_np - h * e, b_fin)) / (2 * h)
          for e in np.eye(3)]
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-8)
    z = xnp.asarray(a_np.copy())
    np.testing.assert_array_equal(np.asarray(f(xnp, z, xnp.asarray(b_np.copy()))), want)
