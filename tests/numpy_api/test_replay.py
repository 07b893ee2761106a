"""The eager dispatch cache (xnp/numpy_api/_replay.py, xnp/tracing/recording.py): a
function's full path recorded once per argument signature and replayed must give what
the full path gives, for new values of the same signature, in every respect a user can
see (value, dtype, weak type, class, writeability, memory shared with the inputs); calls
whose full path reads values, warns or makes data from outside its arguments are never
replayed."""

from __future__ import annotations

import warnings


import numpy as np
import pytest

import xnp
from tests.helpers import python_frames
from xnp import config
from xnp.numpy_api import _replay
from xnp.tracing import recording
from tests.helpers import run_threads

pytestmark = pytest.mark.skipif(not recording.AVAILABLE,
                                reason="needs the C storage of arrays (value reads watched)")

RNG = np.random.default_rng(0)


def _data(shape, dtype):
    v = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind in "iu":
        v = np.abs(v).astype(dtype) + 1
    elif np.dtype(dtype).kind == "b":
        v = v > 0
    elif np.dtype(dtype).kind == "c":
        v = (v + 1j * RNG.standard_normal(shape)).astype(dtype)
    return xnp.asarray(np.asarray(v, dtype=dtype))


def _dominant(n, dtype):
    """A diagonally dominant (so invertible) ``n x n`` matrix of ``dtype``."""
    return xnp.asarray((np.asarray(_data((n, n), dtype)) + np.eye(n) * 100).astype(dtype))


def _fn(name):
    f = xnp
    for part in name.split("."):
        f = getattr(f, part)
    return f


#: (function, argument builder: dtype -> (args, kwargs)); each builds fresh values
CASES = [
    ("sin", lambda d: ((_data((3, 4), d),), {})),
    ("exp", lambda d: ((_data((5,), d),), {})),
    ("log10", lambda d: ((_data((2, 3), d),), {})),
    ("add", lambda d: ((_data((3, 4), d), _data((4,), "float32")), {})),
    ("maximum", lambda d: ((_data((3, 1), d), _data((3, 4), "int64")), {})),
    ("arctan2", lambda d: ((_data((3, 4), d), _data((3, 4), "float32")), {})),
    ("equal", lambda d: ((_data((3, 4), d), _data((3, 4), "int32")), {})),
    ("isnan", lambda d: ((_data((6,), d),), {})),
    ("square", lambda d: ((_data((2, 2), d),), {})),
    ("argmax", lambda d: ((_data((3, 4), d),), {"axis": 1})),
    ("cumsum", lambda d: ((_data((3, 4), d),), {"axis": 0})),
    ("diff", lambda d: ((_data((3, 5), d),), {})),
    ("expand_dims", lambda d: ((_data((3, 4), d), 0), {})),
    ("moveaxis", lambda d: ((_data((2, 3, 4), d), 0, -1), {})),
    ("flip", lambda d: ((_data((3, 4), d),), {})),
    ("tile", lambda d: ((_data((2, 3), d), (2, 1)), {})),
    ("outer", lambda d: ((_data((3,), d), _data((4,), d)), {})),
    ("cross", lambda d: ((_data((4, 3), d), _data((4, 3), d)), {})),
    ("astype", lambda d: ((_data((3, 4), d), np.float32), {})),
    ("stack", lambda d: (([_data((2, 3), d), _data((2, 3), d)],), {"axis": 1})),
    ("concatenate", lambda d: (((_data((2, 3), d), _data((1, 3), d)),), {})),
    ("clip", lambda d: ((_data((3, 4), d), 1, 2.5), {})),
    ("where", lambda d: ((_data((3, 4), "bool"), _data((3, 4), d), 0.5), {})),
    ("round", lambda d: ((_data((3, 4), d),), {"decimals": 1})),
    ("var", lambda d: ((_data((3, 4), d),), {"axis": 0, "ddof": 1})),
    ("std", lambda d: ((_data((3, 4), d),), {"axis": 1})),
    ("tril", lambda d: ((_data((4, 4), d),), {"k": -1})),
    ("triu", lambda d: ((_data((2, 3, 4), d),), {"k": 1})),
    ("eye", lambda d: ((4, 5), {"k": 1, "dtype": d})),
    ("tri", lambda d: ((3, 4), {"k": -1, "dtype": d})),
    # NumPy's read-only views (recording.native_call)
    ("diag", lambda d: ((_data((4, 4), d),), {})),
    ("diagonal", lambda d: ((_data((2, 3, 4), d),), {"offset": 1, "axis1": 2, "axis2": 0})),
    ("broadcast_to", lambda d: ((_data((4,), d), (3, 4)), {})),
    ("imag", lambda d: ((_data((3, 4), d),), {})),
    ("pad", lambda d: ((_data((2, 3), d), 1), {})),
    ("transpose", lambda d: ((_data((2, 3, 4), d), (1, 0, 2)), {})),
    ("reshape", lambda d: ((_data((2, 6), d), (3, 4)), {})),
    ("matmul", lambda d: ((_data((3, 4), d), _data((4, 2), d)), {})),
    ("einsum", lambda d: (("ij,kj->ik", _data((3, 4), d), _data((2, 4), d)), {})),
    ("fft.fft", lambda d: ((_data((4, 8), d),), {})),
    ("count_nonzero", lambda d: ((_data((3, 4), d),), {"axis": 0})),
    ("array", lambda d: (([1.5, 2.0, -3.0],), {"dtype": d})),
    ("linalg.norm", lambda d: ((_data((3, 4), d),), {"axis": 1})),
    # value checks as equations (lax.runtime_error), and entries taken by lax ops
    ("power", lambda d: ((_data((3, 4), d), _data((3, 4), d)), {})),
    ("linalg.solve", lambda d: ((_dominant(3, d), _data((3,), d)), {})),
    ("linalg.inv", lambda d: ((_dominant(3, d),), {})),
    ("trace", lambda d: ((_data((3, 4), d),), {"offset": 1})),
    ("interp", lambda d: ((_data((5,), d), xnp.asarray(np.arange(4.0)), _data((4,), d)), {})),
    ("polyval", lambda d: ((_data((3,), d), _data((2, 2), d)), {})),
]
DTYPES = ["float64", "float32", "int64", "int32"]


def _same(full, rep, inputs):
    """``rep`` (replayed) is what ``full`` (the full path's result) is."""
    assert type(rep) is type(full)
    if isinstance(full, (tuple, list)):
        assert len(rep) == len(full)
        for f, r in zip(full, rep):
            _same(f, r, inputs)
        return
    if type(full) is xnp.Array:
        fv, rv = np.asarray(full), np.asarray(rep)
        assert rv.dtype == fv.dtype and rv.shape == fv.shape
        np.testing.assert_array_equal(rv, fv)
        assert rep.weak_type == full.weak_type
        assert rv.flags.writeable == fv.flags.writeable
        assert rv.flags.c_contiguous == fv.flags.c_contiguous
        assert rv.flags.f_contiguous == fv.flags.f_contiguous
        assert [rep is x for x in inputs[1]] == [full is x for x in inputs[0]]
        shares = [np.shares_memory(rv, np.asarray(x)) for x in inputs[1]]
        assert shares == [np.shares_memory(fv, np.asarray(x)) for x in inputs[0]]
        return
    if isinstance(full, np.generic):
        assert type(rep) is type(full) and rep.dtype == full.dtype
        np.testing.assert_array_equal(rep, full)
        return
    assert rep == full


def _arrays(args, kwargs):
    out = []
    for a in (*args, *kwargs.values()):
        if isinstance(a, (list, tuple)):
            out += [x for x in a if type(x) is xnp.Array]
        elif type(a) is xnp.Array:
            out.append(a)
    return out


def _copy_args(args):
    return tuple([type(a)(xnp.asarray(np.array(x)) for x in a)
                  if isinstance(a, (list, tuple)) and a and type(a[0]) is xnp.Array
                  else xnp.asarray(np.array(a)) if type(a) is xnp.Array else a for a in args])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,build", CASES, ids=[c[0] for c in CASES])
def test_replay_equals_full_path(name, build, dtype):
    fn = _fn(name)
    _replay.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's own warnings (log10 of 0, casts)
        try:
            build(dtype)
            args, kwargs = build(dtype)
            first = fn(*args, **kwargs)  # records the signature
        except (TypeError, ValueError) as e:  # not defined for this dtype: the same error twice
            with pytest.raises(type(e)):
                fn(*args, **kwargs)
            return
        _same(first, fn(*args, **kwargs), (_arrays(args, kwargs),) * 2)
        for _ in range(2):  # new values of the same signature: replayed
            args, kwargs = build(dtype)
            rep_args = _copy_args(args)
            rep = fn(*rep_args, **kwargs)
            with config.override(eager_dispatch_cache=False):
                full = fn(*args, **kwargs)
            _same(full, rep, (_arrays(args, kwargs), _arrays(rep_args, kwargs)))


#: functions whose common signatures must replay (the cache must not quietly refuse all)
REPLAYED = ["sin", "exp", "add", "maximum", "arctan2", "argmax", "cumsum", "diff",
            "expand_dims", "moveaxis", "tile", "outer", "cross", "astype", "fft.fft", "array",
            "power", "linalg.solve", "linalg.inv", "trace", "interp", "polyval", "tril", "triu",
            "eye", "tri", "diag", "diagonal", "broadcast_to", "imag"]


@pytest.mark.parametrize("name", REPLAYED)
def test_common_signatures_replay(name):
    _replay.clear()
    build = dict(CASES)[name]
    fn = _fn(name)
    ints = name in ("sin", "exp", "add", "maximum", "power")
    args, kwargs = build("int32" if ints else "float64")
    fn(*args, **kwargs)
    st = _replay.stats(fn)
    assert st["programs"] == 1, st


def test_read_only_views_replay_as_views():
    """diag/broadcast_to replay NumPy's read-only view of the new input: writing into it
    raises, later writes into the input show through it."""
    _replay.clear()
    for i in range(3):
        m = xnp.asarray(np.arange(16.0).reshape(4, 4))
        d, b = xnp.diag(m), xnp.broadcast_to(m[0], (3, 4))
        for view in (d, b):
            with pytest.raises(ValueError, match="read-only"):
                view[0] = 1.0
        m[0, 0] = 100.0 + i
        assert float(d[0]) == 100.0 + i and float(b[2, 0]) == 100.0 + i
    assert _replay.stats(xnp.diag) == {"programs": 1, "refused": []}
    j = xnp.jit(lambda a: a * 2)(m)  # a jit output's memory is made its own: not replayed
    assert np.shares_memory(np.asarray(xnp.diag(j)), np.asarray(j))
    assert _replay.stats(xnp.diag)["refused"] == ["took a view of a jit output"]


@pytest.mark.parametrize("call, calls", [
    (lambda m: xnp.tril(m), 3), (lambda m: xnp.triu(m, 1), 3), (lambda m: xnp.eye(4), 1),
    (lambda m: xnp.trace(m), 2), (lambda m: xnp.diag(m), 1)])
def test_short_programs_of_matrix_functions(call, calls):
    """Masks, zeros and eye are constants of the recording (a replay copies them), and the
    diagonal is NumPy's view: few backend calls per replay."""
    _replay.clear()
    m = xnp.asarray(np.arange(16.0).reshape(4, 4))
    call(m)
    programs = [p for c in _replay._CACHES for p in c.values()]
    assert len(programs) == 1 and len(programs[0].eqns) == calls


def test_value_dependent_call_is_not_replayed():
    # trim_zeros's view is decided by reading the values in Python: the signature keeps
    # the full path and every call decides again (nonzero's, unique's and histogram's with
    # a bin estimator results are NumPy's functions of the values, native calls each
    # replay repeats: tests/numpy_api/test_host_calls.py; allclose's Python bool is the
    # truth of its 0-d result, taken after each replay)
    _replay.clear()
    for v in ([0, 1, 2, 0], [3, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 9]):
        a, b = np.array(v, dtype=float), np.array([1.0, 1, 1, 1])
        got = xnp.allclose(xnp.asarray(a), xnp.asarray(b))
        assert type(got) is bool and got == np.allclose(a, b)
        got = xnp.array_equal(xnp.asarray(a), xnp.asarray(b))
        assert type(got) is bool and got == np.array_equal(a, b)
        hist, edges = xnp.histogram(xnp.asarray(a * np.arange(4)), bins="auto")
        want_hist, want_edges = np.histogram(a * np.arange(4), bins="auto")
        np.testing.assert_array_equal(np.asarray(hist), want_hist)
        np.testing.assert_array_equal(np.asarray(edges), want_edges)
        got = xnp.trim_zeros(xnp.asarray(a))
        np.testing.assert_array_equal(np.asarray(got), np.trim_zeros(a))
        got = xnp.unique(xnp.asarray(np.array(v)))
        np.testing.assert_array_equal(np.asarray(got), np.unique(np.array(v)))
        got = xnp.nonzero(xnp.asarray(np.array(v)))
        np.testing.assert_array_equal(np.asarray(got[0]), np.nonzero(np.array(v))[0])
    assert _replay.stats(xnp.trim_zeros)["refused"] == ["read or wrote an array's value"]
    assert _replay.stats(xnp.histogram) == {"programs": 1, "refused": []}
    assert _replay.stats(xnp.allclose) == {"programs": 1, "refused": []}
    assert _replay.stats(xnp.array_equal) == {"programs": 1, "refused": []}
    assert _replay.stats(xnp.nonzero) == {"programs": 1, "refused": []}
    assert _replay.stats(xnp.unique) == {"programs": 1, "refused": []}


def test_value_checks_replay_and_raise_on_every_call():
    # integer power raises for a negative exponent: the check is an equation
    # (lax.runtime_error), so the signature replays and each call checks again
    _replay.clear()
    a = xnp.asarray(np.arange(6))
    np.testing.assert_array_equal(np.asarray(xnp.power(a, xnp.asarray(np.arange(1, 7)))),
                                  np.arange(6) ** np.arange(1, 7))
    assert _replay.stats(xnp.power) == {"programs": 1, "refused": []}
    for _ in range(2):
        with pytest.raises(ValueError, match="negative integer powers"):
            xnp.power(a, xnp.asarray(np.arange(-1, 5)))
        np.testing.assert_array_equal(np.asarray(xnp.power(a, xnp.asarray(np.arange(6)))),
                                      np.arange(6) ** np.arange(6))
    assert _replay.stats(xnp.power) == {"programs": 1, "refused": []}


def test_kernel_errors_repeat_on_every_replay():
    # integer floor division is NumPy's loop eagerly (lax.composite): a zero divisor warns
    # through NumPy's floating-point error state, on every call, replayed or not
    _replay.clear()
    a = xnp.asarray(np.arange(6))
    for _ in range(3):
        np.testing.assert_array_equal(
            np.asarray(xnp.floor_divide(a, xnp.asarray(np.arange(1, 7)))),
            np.arange(6) // np.arange(1, 7))
    assert _replay.stats(xnp.floor_divide) == {"programs": 1, "refused": []}
    for _ in range(3):
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in floor_divide"):
            out = xnp.floor_divide(a, xnp.asarray(np.arange(6)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(np.asarray(out), np.arange(6) // np.arange(6))
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        xnp.floor_divide(a, xnp.asarray(np.arange(6)))


def test_nonzero_output_shape_follows_values():
    _replay.clear()
    for v in ([0, 1, 0, 2], [3, 0, 0, 0], [1, 1, 1, 1]):
        (idx,) = xnp.nonzero(xnp.asarray(np.array(v)))
        np.testing.assert_array_equal(np.asarray(idx), np.nonzero(np.array(v))[0])


def test_warning_of_the_surface_repeats_on_every_call():
    _replay.clear()
    z = xnp.asarray(np.array([1 + 2j, 3 - 1j]))
    for _ in range(3):
        with pytest.warns(np.exceptions.ComplexWarning):
            out = xnp.astype(z, np.float64)
        np.testing.assert_array_equal(np.asarray(out), [1.0, 3.0])
    assert _replay.stats(xnp.astype)["refused"] == ["issued a warning"]


def test_replayed_constants_are_fresh_each_call():
    _replay.clear()
    outs = [xnp.array([1.0, 2.0, 3.0], dtype="float32") for _ in range(3)]
    assert _replay.stats(xnp.array)["programs"] == 1  # the list is a lifted constant
    outs[1][0] = 99.0
    outs[2][1] = -5.0
    np.testing.assert_array_equal(np.asarray(outs[0]), [1.0, 2.0, 3.0])
    again = xnp.array([1.0, 2.0, 3.0], dtype="float32")
    np.testing.assert_array_equal(np.asarray(again), [1.0, 2.0, 3.0])
    assert again.dtype == np.float32 and not np.shares_memory(np.asarray(again),
                                                              np.asarray(outs[0]))


def test_scalar_arguments_are_part_of_the_signature():
    _replay.clear()
    x = xnp.asarray(np.linspace(-3, 3, 7))
    for lo, hi in ((1, 2.5), (0.0, 1.0), (-0.0, 1.0), (-2, 0), (float("nan"), 1.0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(np.asarray(xnp.clip(x, lo, hi)),
                                          np.clip(np.asarray(x), lo, hi))
    neg = xnp.copysign(xnp.asarray(np.ones(2)), -0.0)
    pos = xnp.copysign(xnp.asarray(np.ones(2)), 0.0)
    np.testing.assert_array_equal(np.asarray(neg), [-1.0, -1.0])
    np.testing.assert_array_equal(np.asarray(pos), [1.0, 1.0])


def test_same_array_twice_is_its_own_signature():
    _replay.clear()
    a = xnp.asarray(np.arange(4.0))
    b = xnp.asarray(np.arange(4.0) + 1)
    for x, y in ((a, b), (a, a), (b, a), (b, b), (a, b)):
        np.testing.assert_array_equal(np.asarray(xnp.arctan2(x, y)),
                                      np.arctan2(np.asarray(x), np.asarray(y)))
    assert _replay.stats(xnp.arctan2)["programs"] == 2
    for parts in ([a, b, a], [a, a, b], [b, a, b]):
        np.testing.assert_array_equal(np.asarray(xnp.stack(parts)),
                                      np.stack([np.asarray(p) for p in parts]))


def test_writes_after_recording_are_seen():
    _replay.clear()
    a = xnp.asarray(np.arange(6.0))
    xnp.cumsum(a)
    a[2] = 100.0
    np.testing.assert_array_equal(np.asarray(xnp.cumsum(a)), np.cumsum(np.asarray(a)))


def test_views_and_jit_outputs_as_inputs():
    _replay.clear()
    base = xnp.asarray(np.arange(24.0).reshape(4, 6))
    v = base[:, ::2]  # non-contiguous view
    for _ in range(2):
        out = xnp.expand_dims(v, 0)
        np.testing.assert_array_equal(np.asarray(out), np.expand_dims(np.asarray(v), 0))
    out[0, 0, 0] = -1.0  # expand_dims is a view: the write reaches base, as in NumPy
    assert float(base[0, 0]) == -1.0
    y = xnp.jit(lambda t: t * 2)(base)  # a jit output (not read yet): the full path
    np.testing.assert_array_equal(np.asarray(xnp.cumsum(y)), np.cumsum(np.asarray(base) * 2))


def test_option_off_records_nothing():
    _replay.clear()
    with config.override(eager_dispatch_cache=False):
        xnp.arctan2(xnp.asarray(np.ones(3)), xnp.asarray(np.ones(3)))
        assert _replay.stats(xnp.arctan2) == {"programs": 0, "refused": []}


def test_option_change_clears_programs():
    _replay.clear()
    xnp.arctan2(xnp.asarray(np.ones(3)), xnp.asarray(np.ones(3)))
    assert _replay.stats(xnp.arctan2)["programs"] == 1
    with config.override(enable_x64=config.get("enable_x64")):
        pass
    assert _replay.stats(xnp.arctan2)["programs"] == 0


def test_inside_transformations_the_cache_is_not_used():
    _replay.clear()
    x = xnp.asarray(np.linspace(0.1, 1, 4))
    xnp.arctan2(x, x + 1)  # recorded eagerly
    g = xnp.grad(lambda t: xnp.arctan2(t, t + 1).sum())(x)
    t = np.asarray(x)
    np.testing.assert_allclose(np.asarray(g), 1 / ((t * t) / (t + 1) ** 2 + 1) / (t + 1) ** 2,
                               rtol=1e-12)
    out = xnp.jit(lambda t: xnp.arctan2(t, t + 1))(x)
    np.testing.assert_allclose(np.asarray(out), np.arctan2(t, t + 1), rtol=1e-15)


def test_recording_fails_on_value_read_and_on_filters():
    a = xnp.asarray(np.arange(3.0))

    def reads(x):
        return xnp.sin(x) if bool(x[0] == 0) else xnp.cos(x)

    out, program, why = recording.record(reads, (a,), {}, [a])
    assert program is None and why == "read or wrote an array's value"

    def filtered(x):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return xnp.sin(x)

    _, program, why = recording.record(filtered, (a,), {}, [a])
    assert program is None and "warning filters" in why

    def fine(x):
        return xnp.sin(x)

    _, program, why = recording.record(fine, (a,), {}, [a])
    assert why is None
    b = xnp.asarray(np.arange(3.0) + 5)
    np.testing.assert_array_equal(np.asarray(program.run([b])), np.sin(np.arange(3.0) + 5))


def test_threads_share_programs():
    _replay.clear()
    errors = []

    def work(seed):
        r = np.random.default_rng(seed)
        try:
            for _ in range(200):
                u, w = r.standard_normal(5), r.standard_normal(5)
                got = xnp.arctan2(xnp.asarray(u), xnp.asarray(w.astype(np.float32)))
                np.testing.assert_array_equal(np.asarray(got),
                                              np.arctan2(u, w.astype(np.float32)))
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append(e)

    run_threads(work, range(4))
    assert not errors, errors[0]


def test_check_mode_catches_a_replay_that_differs():
    # the suite runs with every replay compared with its full path (tests/conftest.py);
    # a program made to differ must be caught
    _replay.clear()
    xnp.sin(xnp.asarray(np.arange(4, dtype=np.int32)))
    cache = _find_cache(xnp.sin)
    ((key, program),) = cache.items()
    impl, params, ops, multiple = program.eqns[-1]
    program.eqns = program.eqns[:-1] + ((np.cos, params, ops, multiple),)
    program.single = program.single[:2] + (program.eqns,) + program.single[3:]
    try:
        with pytest.raises(AssertionError, match="replay differs from the full path"):
            xnp.sin(xnp.asarray(np.arange(4, dtype=np.int32) + 1))
    finally:
        _replay.clear()


def _find_cache(fn):
    seen = set()
    while fn is not None and id(fn) not in seen:
        seen.add(id(fn))
        cache = getattr(fn, "_replay_cache", None)
        if cache is not None:
            return cache
        fn = getattr(fn, "__wrapped__", None)
    raise AssertionError("no cache")


def test_jit_outputs_as_inputs():
    _replay.clear()
    f = xnp.jit(lambda t: t * 2)
    for k in range(3):
        base = np.arange(12.0).reshape(3, 4) + k
        y = f(xnp.asarray(base))  # a jit output, its host value not read yet
        np.testing.assert_array_equal(np.asarray(xnp.cumsum(y, axis=1)),
                                      np.cumsum(base * 2, axis=1))
        z = f(xnp.asarray(base))
        np.asarray(z)  # read: the host value is a read-only view of the output
        np.testing.assert_array_equal(np.asarray(xnp.arctan2(z, y)),
                                      np.arctan2(base * 2, base * 2))
    assert _replay.stats(xnp.cumsum)["programs"] == 1
    # a view of a jit output copies it first (writes through the view reach the array):
    # such calls keep the full path, and NumPy's view semantics hold
    for k in range(3):
        y = f(xnp.asarray(np.arange(6.0) + k))
        v = xnp.expand_dims(y, 0)
        v[0, 0] = -1.0
        assert float(y[0]) == -1.0
    assert _replay.stats(xnp.expand_dims)["refused"] == ["took a view (broadcast_in_dim) of a "
                                                         "jit output"]


def test_whole_array_views_are_new_objects():
    # NumPy's x[:], x.view(), split at the ends, flip over no axis: new array objects
    # viewing x (a recorded program that returned x itself would alias on every call)
    _replay.clear()
    for _ in range(3):
        x = xnp.asarray(np.arange(4.0))
        head, tail = xnp.split(x, [0])
        outs = [tail, x.view(), x[:], x[...], xnp.flip(x, axis=()), xnp.split(x, 1)[0],
                xnp.rot90(x.reshape(2, 2), 0), xnp.array_split(x, 1)[0]]
        for o in outs:
            assert o is not x and np.shares_memory(np.asarray(o), np.asarray(x))
        tail.shape = (2, 2)
        assert x.shape == (4,)


def test_a_recording_across_an_option_change_is_not_stored():
    _replay.clear()
    a = xnp.asarray(np.arange(3.0))
    calls = []

    def changing(x):  # an option changes (another thread) while the call is recorded
        calls.append(1)
        out = xnp.sin(x)
        _replay.clear()
        return out

    wrapped = _replay.cached(changing)
    check = _replay._CHECK[0]
    _replay.check_replays(False)  # (check mode would run each recorded call twice)
    try:
        for _ in range(3):
            np.testing.assert_array_equal(np.asarray(wrapped(a)), np.sin(np.arange(3.0)))
    finally:
        _replay.check_replays(check)
    assert len(calls) == 3 and not wrapped._replay_cache


def test_errors_of_a_replay_warn_and_call_back_once(no_check):
    _replay.clear()
    f = lambda x: xnp.log(x, dtype=np.float64)  # noqa: E731
    f(xnp.asarray(np.array([1.0, 2.0])))
    with warnings.catch_warnings(record=True) as w, np.errstate(divide="warn",
                                                                 invalid="raise"):
        warnings.simplefilter("always")
        with pytest.raises(FloatingPointError):
            f(xnp.asarray(np.array([0.0, -1.0])))
    assert [str(x.message) for x in w] == ["divide by zero encountered in log"]


def test_strided_constants_are_not_recorded():
    # triu_indices's two results view one constant: a copy per replay would change their
    # layout, so the call keeps its full path
    _replay.clear()
    first = xnp.triu_indices(3)
    for _ in range(2):
        again = xnp.triu_indices(3)
        for a, b in zip(first, again):
            assert a.strides == b.strides
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    np.testing.assert_array_equal(np.asarray(first[1]), np.triu_indices(3)[1])


def test_ever_new_signatures_skip_the_cache_for_a_while():
    # a loop over ever-new scalar values records only the first few of them (nan_to_num is
    # no ufunc: its Python floats are keyed by value; clip's share one program for any value)
    _replay.clear()
    a = np.linspace(-3, 3, 12)
    x = xnp.asarray(a)
    for k in range(40):
        np.testing.assert_array_equal(np.asarray(xnp.nan_to_num(x, nan=k * 0.1)),
                                      np.nan_to_num(a, nan=k * 0.1))
        np.testing.assert_array_equal(np.asarray(xnp.clip(x, k * 0.1, k * 0.1 + 1)),
                                      np.clip(a, k * 0.1, k * 0.1 + 1))
    st = _replay.stats(xnp.nan_to_num)
    assert st["programs"] + len(st["refused"]) == _replay.MISSES_IN_A_ROW
    assert _replay.stats(xnp.clip) == {"programs": 2, "refused": []}
    _replay.clear()  # counters reset: the next signature records again
    xnp.nan_to_num(x, nan=0.5)
    assert _replay.stats(xnp.nan_to_num)["programs"] == 1


def test_errstate_callback_and_warning_errors_of_a_replay_fire_once(no_check):
    _replay.clear()
    x = lambda: xnp.asarray(np.array([-1, 0, 1], np.int32))  # noqa: E731
    with np.errstate(all="ignore"):
        xnp.log(x(), dtype=np.float64)  # recorded
    calls = []

    def callback(kind, flag):
        calls.append(kind)
        raise ArithmeticError(kind)

    old = np.seterrcall(callback)
    try:
        with np.errstate(divide="call", invalid="ignore"), pytest.raises(ArithmeticError):
            xnp.log(x(), dtype=np.float64)
    finally:
        np.seterrcall(old)
    assert calls == ["divide by zero"]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        warnings.filterwarnings("error", message="invalid value")
        with pytest.raises(RuntimeWarning, match="invalid value"):
            xnp.log(x(), dtype=np.float64)
    assert [str(m.message) for m in w] == ["divide by zero encountered in log"]


def test_ufunc_methods_replay():
    _replay.clear()
    for k in range(3):
        v = np.arange(12.0).reshape(3, 4) + k
        a = xnp.asarray(v)
        np.testing.assert_array_equal(np.asarray(xnp.add.reduce(a, axis=1)),
                                      np.add.reduce(v, axis=1))
        np.testing.assert_array_equal(np.asarray(xnp.multiply.accumulate(a, axis=0)),
                                      np.multiply.accumulate(v, axis=0))
        np.testing.assert_array_equal(np.asarray(xnp.subtract.outer(a[0], a[1])),
                                      np.subtract.outer(v[0], v[1]))
    st = _replay.stats(xnp.ufunc.reduce)
    assert st["programs"] >= 1, st


def test_ufunc_methods_replay_once_subclasses_exist():
    """The first user subclass wraps the ufunc methods (to keep the subclass in results):
    the wrappers still lead to each method's cache, and results replay."""

    class Tagged(xnp.ndarray):
        pass

    t = xnp.asarray(np.arange(6.0).reshape(2, 3)).view(Tagged)
    assert type(xnp.add.reduce(t, axis=0)) is Tagged  # as NumPy's subclasses
    _replay.clear()
    for k in range(3):
        v = np.arange(12.0).reshape(3, 4) * (k + 1)
        out = xnp.add.reduce(xnp.asarray(v), axis=0)
        assert type(out) is xnp.Array
        np.testing.assert_array_equal(np.asarray(out), np.add.reduce(v, axis=0))
    st = _replay.stats(xnp.ufunc.reduce)
    assert st == {"programs": 1, "refused": []}, st


def _signature_cases():
    a = xnp.asarray(np.arange(6.0).reshape(2, 3))
    b = xnp.asarray(np.arange(3, dtype=np.int32))
    t = a.T  # strided
    y = xnp.jit(lambda v: v + 1)(a)  # a jit output, not read
    w = xnp.asarray(np.ones(3), dtype=np.float32) * 2.0
    return [
        ((a,), {}), ((a, b), {}), ((a, a), {}), ((a, b, a), {"out": None}),
        ((t,), {"axis": 1}), ((a,), {"axis": (0, 1), "keepdims": True}),
        ((a, 2.5), {}), ((a, -0.0), {}), ((a, float("nan")), {}), ((a, 3), {}),
        ((a, True), {}), ((a, 1 + 2j), {}), ((a, np.float32(1.5)), {}),
        ((a, "same"), {"dtype": np.dtype(np.float32)}), ((a, float), {}),
        (([a, b, a],), {}), (((a, t), 0), {}), ((y,), {}), ((y, a), {}), ((w, w), {}),
        ((a,), {"where": a}), ((xnp.add, a), {}),
        ((np.ones(3),), {}),  # a NumPy array: no signature
        ((a, [1.0] * (_replay.MAX_ITEMS + 1)), {}),  # too long a list: none
        ((a, object()), {}),
    ]


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_native_signature_is_the_python_one():
    """The C key (a Signature) tells two calls apart exactly when the Python key does,
    hashes equal keys alike, and collects the same leaves."""
    a = xnp.asarray(np.arange(6.0).reshape(2, 3))
    cases = _signature_cases() + [
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)),), {}),  # equal to the first case
        ((xnp.asarray(np.arange(6.0).reshape(3, 2)),), {}),  # another shape
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), 2.5), {}),  # a new array, same key
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), 2 ** 70), {}),  # a large int
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), 2 ** 70), {}),
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), 1), {}),  # 1 is not True
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), -1), {}),
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)),), {"axis": 1}),  # keyword vs position
        ((xnp.asarray(np.arange(6.0).reshape(2, 3)), 1), {"axis": 1}),
        ((a,), {"dtype": np.float32}), ((a,), {"dtype": np.dtype(np.float32)}),  # type, dtype
        ((a,), {"dtype": np.dtype("float32")}), ((a,), {"dtype": float}), ((a,), {"dtype": int}),
        ((a,), {"dtype": xnp.float32}), ((a,), {"dtype": xnp.float32}),  # xnp's scalar types
        ((a,), {"dtype": xnp.int64}), ((a, xnp.bfloat16), {}),
        ((a,), {"dtype": np.dtype(np.float64, metadata={"k": 1})}),
        ((a,), {"dtype": np.dtype(np.float64, metadata={"k": 1})}), ((a,), {"dtype": "f4"}),
        ((a, 1 + 2j), {}), ((a, complex(1, 2)), {}), ((a, complex(0.0, -0.0)), {}),
        ((a, 0j), {}), ((a, (0, 1)), {}), ((a, [0, 1]), {}), ((a, (0, (1, 2))), {}),
        ((a, ()), {}), ((a, []), {}), (([a, a],), {}), (((a, a),), {}), ((a, "x"), {}),
        ((a, ("x", None, 1.5)), {}), ((a, tuple(range(_replay.MAX_ITEMS))), {}),
        ((a, tuple(range(_replay.MAX_ITEMS + 1))), {}),
    ]
    keys = []
    for args, kwargs in cases:
        c_leaves, py_leaves = [], []
        c_key = _replay._signature(args, kwargs, c_leaves)
        py_key = _replay._py_signature(args, kwargs, py_leaves)
        assert (c_key is None) == (py_key is None), (args, kwargs)
        if c_key is not None:
            assert type(c_key).__name__ == "Signature"
            assert [id(x) for x in c_leaves] == [id(x) for x in py_leaves]
        keys.append((c_key, py_key))
    for i, (c1, p1) in enumerate(keys):
        for c2, p2 in keys[i:]:
            if c1 is None or c2 is None:
                continue
            assert (c1 == c2) == (p1 == p2), (p1, p2)
            if c1 == c2:
                assert hash(c1) == hash(c2)
    assert sum(c is not None and c == keys[0][0] for c, _ in keys) == 2  # itself, its copy


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_native_signature_dtypes_by_value():
    """A dtype object that is not NumPy's own descriptor of its type number is compared by
    value (two equal ones give one key); weak types are part of the key."""
    meta = np.dtype(np.float64, metadata={"unit": "m"})
    x1 = xnp.Array(np.ones(3, meta), False)
    x2 = xnp.Array(np.zeros(3, np.dtype(np.float64, metadata={"unit": "m"})), False)
    x3 = xnp.Array(np.ones(3, np.dtype(np.float64, metadata={"unit": "s"})), False)
    k1, k2, k3 = (_replay._signature((x,), {}, []) for x in (x1, x2, x3))
    assert k1 == k2 and hash(k1) == hash(k2)
    assert (k1 == k3) == (_replay._py_signature((x1,), {}, []) ==
                          _replay._py_signature((x3,), {}, []))
    strong = xnp.Array(np.ones(3), False)
    weak = xnp.Array(np.ones(3), True)
    assert _replay._signature((strong,), {}, []) != _replay._signature((weak,), {}, [])
    assert _replay._signature((weak,), {}, []) == _replay._signature(
        (xnp.Array(np.zeros(3), True),), {}, [])


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
def test_native_hit_path_serves_replays():
    full = xnp.argmax
    while hasattr(full, "__wrapped__"):  # the definition in numpy_api
        full = full.__wrapped__
    fn = _replay.cached(full)
    assert type(fn).__name__ == "Replay"
    _replay.clear()
    for k in range(4):
        v = np.arange(12.0).reshape(3, 4)[:, ::-1] + k
        out = fn(xnp.asarray(v), axis=1)
        np.testing.assert_array_equal(np.asarray(out), np.argmax(v, axis=1))
    assert _replay.stats(fn) == {"programs": 1, "refused": []}
    with pytest.raises(TypeError):  # the C object checks its arguments
        type(fn)(None, None, {}, object, ())


def test_python_hit_path_without_the_native_module(monkeypatch):
    """Where xnp/_native/replay.c is not built, the same cache runs in Python."""
    full = xnp.argmax
    while hasattr(full, "__wrapped__"):
        full = full.__wrapped__
    monkeypatch.setattr(_replay, "_native", None)
    fn = _replay.cached(full)
    assert type(fn).__name__ == "function"
    _replay.clear()
    for k in range(4):
        v = np.arange(12.0).reshape(3, 4)[:, ::-1] * (k - 1.5)
        out = fn(xnp.asarray(v), axis=1)
        np.testing.assert_array_equal(np.asarray(out), np.argmax(v, axis=1))
        assert _replay._signature((xnp.asarray(v),), {"axis": 1}, []) is not None
    assert _replay.stats(fn) == {"programs": 1, "refused": []}


@pytest.mark.parametrize("name", ["fft.rfft", "argmax", "expand_dims", "linalg.norm",
                                  "ufunc.reduce"])
def test_cached_functions_pickle_by_reference(name):
    import pickle  # noqa: PLC0415

    fn = _fn(name)
    assert pickle.loads(pickle.dumps(fn)) is fn


def test_programs_with_unread_jit_outputs():
    """A program with one new array as its result runs in the C hit path; an input that
    is a jit output not read yet (no host value) is read by Program.run instead, with the
    same result."""
    _replay.clear()
    double = xnp.jit(lambda t: t * 2.0)
    for k in range(3):
        v = np.arange(12.0).reshape(3, 4) - k
        e = xnp.asarray(v)
        np.testing.assert_array_equal(np.asarray(xnp.isnan(e)), np.isnan(v))
        y = double(e)  # its host value is read by the replay
        np.testing.assert_array_equal(np.asarray(xnp.isnan(y)), np.isnan(v * 2.0))
        np.testing.assert_array_equal(np.asarray(xnp.cumsum(y, axis=1)),
                                      np.cumsum(v * 2.0, axis=1))
    st = _replay.stats(xnp.isnan)
    assert st == {"programs": 2, "refused": []}, st
    fn = xnp.isnan
    cache = type(fn).__call__._replay_cache
    assert all(p.single is not None for p in cache.values())


@pytest.mark.parametrize("call", [
    lambda: xnp.full_like(xnp.zeros(3, dtype=np.float32), 1e40),
    lambda: xnp.asarray([1e40, 1.0], dtype=np.float32),
    lambda: xnp.full((2,), 1e300, dtype=np.float16),
])
def test_warnings_of_the_calls_own_conversions_are_not_lost(call, no_check):
    """A Python float that overflows its cast warns (or raises, under errstate) on every
    call, as NumPy's, not only the recorded one."""
    _replay.clear()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for _ in range(3):
            out = call()
    assert [str(m.message) for m in w] == ["overflow encountered in cast"] * 3
    assert np.isinf(np.asarray(out)).all() or np.isinf(np.asarray(out))[0]
    with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
        call()


def test_floating_point_errors_in_primitives_under_every_setting(no_check):
    """log of 0: each call warns, raises or is silent per the caller's errstate, whether
    the recording saw the error or not."""
    _replay.clear()
    zero = np.array([0.0, 1.0])
    values = (zero, zero + 1, zero, zero + 1, zero)
    with np.errstate(divide="ignore"):
        refs = [np.log(v) for v in values]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        # (dtype=: a call the fast path leaves to the full path, so replayed)
        outs = [np.asarray(xnp.log(xnp.asarray(v), dtype=np.float64)) for v in values]
    for out, ref in zip(outs, refs):
        np.testing.assert_array_equal(out, ref)
    assert [str(m.message) for m in w] == ["divide by zero encountered in log"] * 3
    assert _replay.stats(xnp.log) == {"programs": 1, "refused": []}
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        xnp.log(xnp.asarray(zero), dtype=np.float64)
    with np.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        xnp.log(xnp.asarray(zero), dtype=np.float64)


def test_a_signature_first_met_with_a_floating_point_error_replays(no_check):
    """power of a negative base: the first call of the signature meets 'invalid' in its
    primitive; it is recorded again quietly and stored, and every call (the first, run
    unrecorded, and the replays) warns once as NumPy's, raises or is silent as the caller's
    errstate says; a later call without the error replays the same program."""
    _replay.clear()
    neg, half = np.array([-1.0, 2.0]), np.array([0.5, 0.5])
    xneg, xhalf = xnp.asarray(neg), xnp.asarray(half)
    with np.errstate(invalid="ignore"):
        want = np.power(neg, half)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        outs = [np.asarray(xnp.power(xneg, xhalf)) for _ in range(3)]
    for out in outs:
        np.testing.assert_array_equal(out, want)
    assert [(m.category, str(m.message)) for m in w] == [
        (RuntimeWarning, "invalid value encountered in power")] * 3
    assert _replay.stats(xnp.power) == {"programs": 1, "refused": []}
    np.testing.assert_array_equal(np.asarray(xnp.power(xnp.asarray(half), xhalf)),
                                  np.power(half, half))
    assert _replay.stats(xnp.power) == {"programs": 1, "refused": []}
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError, match="invalid"):
        xnp.power(xneg, xhalf)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(np.asarray(xnp.power(xneg, xhalf)), want)


def test_a_surface_warning_then_a_floating_point_error_happen_once(no_check):
    """An effect the call has already had (its own warning) is not repeated when a
    floating-point error follows it in the same recorded call."""
    from xnp.numpy_api import _util  # noqa: PLC0415

    def full(x):
        _util.warn("a warning of the call's own", UserWarning)
        return xnp.log(x, dtype=np.float64)  # divide by zero on x == 0

    fn = _replay.cached(full)
    _replay.clear()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn(xnp.asarray(np.array([0.0, 1.0])))
    assert [str(m.message) for m in w] == ["a warning of the call's own",
                                           "divide by zero encountered in log"]


def test_a_user_class_argument_has_no_signature():
    """A class passed as a callable (fromfunction's function) may behave differently on
    each call: such calls are not replayed."""

    class F:
        scale = 1.0

        def __new__(cls, i, j):
            return i * cls.scale + j

    ref = lambda: np.fromfunction(lambda i, j: i * F.scale + j, (2, 2))  # noqa: E731
    _replay.clear()
    np.testing.assert_array_equal(np.asarray(xnp.fromfunction(F, (2, 2))), ref())
    F.scale = 10.0
    np.testing.assert_array_equal(np.asarray(xnp.fromfunction(F, (2, 2))), ref())
    assert _replay._signature((F, (2, 2)), {}, []) is None
    assert _replay._signature((np.float32, float, int, bool, complex), {}, []) is not None


def test_an_effect_then_a_floating_point_error_under_raise_happen_once(no_check):
    """Under errstate(divide="raise"), a call that warned and then meets a floating-point
    error raises it once, its warning issued once (the call is not run again)."""
    from xnp.numpy_api import _util  # noqa: PLC0415

    def full(x):
        _util.warn("a warning of the call's own", UserWarning)
        return xnp.log(x, dtype=np.float64)

    fn = _replay.cached(full)
    _replay.clear()
    with warnings.catch_warnings(record=True) as w, np.errstate(divide="raise"):
        warnings.simplefilter("always")
        with pytest.raises(FloatingPointError, match="divide by zero"):
            fn(xnp.asarray(np.array([0.0, 1.0])))
    assert [str(m.message) for m in w] == ["a warning of the call's own"]


def test_overflowing_conversions_under_jit_match_numpy():
    """The same conversions traced: the values NumPy gives (jit checks no errstate)."""
    x = xnp.zeros(3, dtype=np.float32)
    with np.errstate(over="ignore"):
        ref = np.full_like(np.zeros(3, np.float32), 1e40)
    with warnings.catch_warnings():  # (the cast warns once, while tracing)
        warnings.simplefilter("ignore", RuntimeWarning)
        out = xnp.jit(lambda t: xnp.full_like(t, 1e40))(x)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), ref)


@pytest.mark.parametrize("call", [
    lambda x: xnp.full_like(x, 3.0),
    lambda x: xnp.fmax(x, 2.5),
    lambda x: xnp.clip(x, 1.0, 4.0),
    lambda x: xnp.deg2rad(x) + 1,
    lambda x: xnp.copysign(x - 2, -1.0),
], ids=["full_like", "fmax", "clip", "deg2rad", "copysign"])
def test_replayed_constants_are_not_shared(call):
    """A program's scalar operands and constants are converted once and copied for each
    replay: writing into one call's result never changes the next call's."""
    _replay.clear()
    v = np.arange(6.0).reshape(2, 3)
    first = np.array(call(xnp.asarray(v)), copy=True)
    for _ in range(3):
        got = call(xnp.asarray(v))
        np.testing.assert_array_equal(np.asarray(got), first)
        got[...] = -99.0
    fn = call.__code__.co_names[-1]
    assert _replay.stats(getattr(xnp, fn))["programs"] == 1


@pytest.mark.skipif(_replay._native is None, reason="the C hit path is not built")
@pytest.mark.parametrize("call", [
    lambda m: m.ravel(), lambda m: m.argmax(), lambda m: m.argmin(axis=1),
    lambda m: m.squeeze(0), lambda m: xnp.flip(m, 1), lambda m: m.swapaxes(1, 2),
    lambda m: xnp.expand_dims(m, 0), lambda m: xnp.cumsum(m, axis=1), lambda m: m.copy(),
    lambda m: xnp.moveaxis(m, 0, -1),
], ids=["ravel", "argmax", "argmin1", "squeeze", "flip", "swapaxes", "expand_dims", "cumsum",
        "copy", "moveaxis"])
def test_replayed_views_and_reductions_run_no_python_frame(call, no_check):
    # their primitives' kernels are NumPy's methods, item access or ufunc reductions with
    # the parameters bound (backends/xp_impls PARAM_KERNELS): a replay calls them from C
    m_np = np.arange(12.0).reshape(1, 3, 4) % 5
    m = xnp.asarray(m_np)
    want = call(m_np)
    for _ in range(3):
        call(m)
    out, frames = python_frames(call, m)
    assert frames == ["<lambda>"], frames
    np.testing.assert_array_equal(np.asarray(out), want)
    assert np.asarray(out).dtype == np.asarray(want).dtype


def test_a_dtype_given_as_xnp_scalar_type_replays_without_python_frames(no_check):
    # xnp's scalar types hash and compare in Python (their metaclass, as NumPy's dtype);
    # the key holds them by address, so a replay runs none of it
    from tests.helpers import python_frames  # noqa: PLC0415

    x = xnp.asarray(np.arange(6.0))
    for dtype in (xnp.float32, xnp.int16, xnp.bool_):
        for _ in range(2):
            x.astype(dtype)
        out, frames = python_frames(x.astype, dtype)
        assert frames == [], frames
        assert np.asarray(out).dtype == np.dtype(dtype.dtype)
        np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).astype(dtype.dtype))
