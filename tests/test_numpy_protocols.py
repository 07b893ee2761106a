"""NumPy's dispatch protocols on eager xnp arrays (NEP 13 ``__array_ufunc__``, NEP 18
``__array_function__``): NumPy calls run xnp's functions and return xnp arrays, what xnp
lacks falls back to NumPy on the host data with a one-time warning, and tracers keep
refusing NumPy (TracerArrayConversionError). Oracle: the same call on NumPy arrays."""

import warnings

import numpy as np
import pytest

import xnp
from xnp import numpy_protocols
from xnp.exceptions import NumpyFallbackWarning
from xnp.tracing import errors

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4))
B = RNG.standard_normal((3, 4))


def _check(res, expected):
    # an xnp array where NumPy gives an array, NumPy's scalar where it gives one
    if isinstance(expected, np.generic):
        assert type(res) is type(expected), type(res)
    else:
        assert type(res) is xnp.Array, type(res)
    assert res.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(np.asarray(res), expected, rtol=1e-13, atol=0)


@pytest.fixture(autouse=True)
def _fresh_warnings():
    numpy_protocols.reset_fallback_warnings()
    yield
    numpy_protocols.reset_fallback_warnings()


class _Strict:
    """Every NumpyFallbackWarning inside raises: the call must be served by xnp."""

    def __enter__(self):
        self.cm = warnings.catch_warnings()
        self.cm.__enter__()
        warnings.simplefilter("error", NumpyFallbackWarning)

    def __exit__(self, *exc):
        return self.cm.__exit__(*exc)


# --------------------------------------------------------------------------- ufuncs


@pytest.mark.parametrize("name", ["sin", "exp", "negative", "absolute", "isnan", "sqrt"])
def test_unary_ufunc_returns_xnp(name):
    x = xnp.asarray(np.abs(A))
    with _Strict():
        _check(getattr(np, name)(x), getattr(np, name)(np.abs(A)))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "true_divide", "maximum",
                                  "arctan2", "less", "hypot", "matmul"])
def test_binary_ufunc_mixed_with_numpy_gives_xnp(name):
    f = getattr(np, name)
    b = B.T if name == "matmul" else B
    with _Strict():
        _check(f(xnp.asarray(A), xnp.asarray(b)), f(A, b))
        _check(f(A, xnp.asarray(b)), f(A, b))  # NumPy first: still an xnp array
        _check(f(xnp.asarray(A), b), f(A, b))


def test_operators_with_numpy_operands_give_xnp():
    x = xnp.asarray(A)
    with _Strict():
        _check(A + x, A + A)
        _check(x + A, A + A)
        _check(np.float64(2.0) * x, 2.0 * A)
        _check(A == x, A == A)


def test_ufunc_out_xnp_is_written_in_place():
    x, y, z = xnp.asarray(A), xnp.asarray(B), xnp.zeros((3, 4))
    with _Strict():
        r = np.add(x, y, out=z)
    assert r is z
    np.testing.assert_array_equal(np.asarray(z), A + B)


def test_ufunc_out_numpy_is_written_and_returned():
    z = np.zeros((3, 4))
    with _Strict():
        r = np.multiply(xnp.asarray(A), xnp.asarray(B), out=z)
    assert r is z
    np.testing.assert_array_equal(z, A * B)
    n = A.copy()
    n += xnp.asarray(B)  # NumPy's in-place operator on a NumPy array keeps it NumPy
    assert type(n) is np.ndarray
    np.testing.assert_array_equal(n, A + B)


def test_two_output_ufunc_with_mixed_out():
    q, r = xnp.zeros((3, 4)), np.zeros((3, 4))
    with _Strict():
        res = np.divmod(xnp.asarray(A), 0.7, out=(q, r))
    assert res[0] is q and res[1] is r
    eq, er = np.divmod(A, 0.7)
    np.testing.assert_allclose(np.asarray(q), eq, rtol=1e-13)
    np.testing.assert_allclose(r, er, rtol=1e-12, atol=1e-15)
    fr, ex = np.frexp(xnp.asarray(A))
    _check(fr, np.frexp(A)[0])
    _check(ex, np.frexp(A)[1])


@pytest.mark.parametrize("method,args,kwargs", [
    ("reduce", (), {"axis": 0}),
    ("reduce", (), {"axis": None}),
    ("accumulate", (), {"axis": 1}),
    ("reduceat", ([0, 2, 3],), {"axis": 1}),
    ("outer", "second", {}),
])
def test_ufunc_methods_match_numpy(method, args, kwargs):
    x = xnp.asarray(A)
    if args == "second":
        res = getattr(np.add, method)(x, xnp.asarray(B[0]))
        expected = getattr(np.add, method)(A, B[0])
    else:
        res = getattr(np.add, method)(x, *args, **kwargs)
        expected = getattr(np.add, method)(A, *args, **kwargs)
    assert isinstance(res, xnp.Array) or type(res) is type(expected) is np.float64
    np.testing.assert_allclose(np.asarray(res), expected, rtol=1e-13)


def test_ufunc_at_adds_repeated_indices_in_place():
    x = xnp.zeros(3)
    res = np.add.at(x, [0, 0, 1], 1)
    assert res is None
    np.testing.assert_array_equal(np.asarray(x), [2.0, 1.0, 0.0])
    n = np.zeros(3)  # a NumPy target with xnp values: NumPy's array is updated
    np.add.at(n, [2, 2], xnp.asarray([1.0, 3.0]))
    np.testing.assert_array_equal(n, [0.0, 0.0, 4.0])


def test_ufunc_at_on_jit_output_writes_its_own_copy():
    x = xnp.jit(lambda v: v * 2)(xnp.ones(3))
    np.add.at(x, [1, 1], 5.0)
    np.testing.assert_array_equal(np.asarray(x), [2.0, 12.0, 2.0])


# --------------------------------------------------------------------------- array functions


def test_array_functions_dispatch_to_xnp():
    x, y = xnp.asarray(A), xnp.asarray(B)
    with _Strict():
        _check(np.concatenate([x, y]), np.concatenate([A, B]))
        _check(np.concatenate([x, B], axis=1), np.concatenate([A, B], axis=1))
        _check(np.mean(x, axis=0), np.mean(A, axis=0))
        _check(np.where(x > 0, x, y), np.where(A > 0, A, B))
        _check(np.stack((x, y), axis=-1), np.stack((A, B), axis=-1))
        _check(np.linalg.norm(x), np.linalg.norm(A))
        _check(np.linalg.norm(x, axis=1), np.linalg.norm(A, axis=1))
        _check(np.fft.fft(x), np.fft.fft(A))
        _check(np.linalg.inv(x[:, :3]), np.linalg.inv(A[:, :3]))
        assert np.shape(x) == (3, 4)


def test_array_function_out_numpy():
    out = np.zeros(4)
    with _Strict():
        r = np.sum(xnp.asarray(A), axis=0, out=out)
    assert r is out
    np.testing.assert_allclose(out, A.sum(axis=0), rtol=1e-13)


def test_missing_function_falls_back_once_with_warning(monkeypatch):
    monkeypatch.delattr(xnp, "column_stack")
    x, y = xnp.asarray(A[0]), xnp.asarray(B[0])
    with pytest.warns(NumpyFallbackWarning, match="numpy.column_stack"):
        r = np.column_stack([x, y])  # xnp arrays inside a list
    _check(r, np.column_stack([A[0], B[0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumpyFallbackWarning)
        _check(np.column_stack((x, B[0])), np.column_stack([A[0], B[0]]))  # once only


def test_missing_ufunc_method_falls_back_in_place(monkeypatch):
    plain = xnp.add

    def add(*args, **kwargs):  # a plain function: no ufunc methods
        return plain(*args, **kwargs)

    monkeypatch.setattr(xnp, "add", add)
    x = xnp.zeros(3)
    with pytest.warns(NumpyFallbackWarning, match=r"numpy\.add\.at"):
        np.add.at(x, [0, 0, 1], 1)
    np.testing.assert_array_equal(np.asarray(x), [2.0, 1.0, 0.0])
    with pytest.warns(NumpyFallbackWarning, match=r"numpy\.add\.reduceat"):
        r = np.add.reduceat(xnp.asarray(A), [0, 2], axis=0)
    _check(r, np.add.reduceat(A, [0, 2], axis=0))
    with _Strict():
        _check(np.add(xnp.asarray(A), 1.0), A + 1.0)  # __call__ still xnp's


def test_missing_ufunc_falls_back_with_out(monkeypatch):
    monkeypatch.delattr(xnp, "hypot")
    z = xnp.zeros((3, 4))
    with pytest.warns(NumpyFallbackWarning, match="numpy.hypot"):
        r = np.hypot(xnp.asarray(A), B, out=z)
    assert r is z
    np.testing.assert_allclose(np.asarray(z), np.hypot(A, B), rtol=1e-13)


def test_not_implemented_in_xnp_falls_back():
    x = xnp.asarray(A)  # xnp.linalg.qr refuses mode='raw' (NotImplementedError)
    with pytest.warns(NumpyFallbackWarning, match="qr"):
        h, tau = np.linalg.qr(x, mode="raw")
    want_h, want_tau = np.linalg.qr(A, mode="raw")
    _check(h, want_h)
    _check(tau, want_tau)


def test_foreign_protocol_types_get_not_implemented():
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

        def __array_function__(self, func, types, args, kwargs):
            return "other"

    x = xnp.asarray(A)
    assert np.add(x, Other()) == "other"
    assert np.concatenate([x, Other()]) == "other"


# --------------------------------------------------------------------------- tracers


def test_numpy_on_tracers_raises_under_jit():
    c = xnp.asarray(A)
    for fn in (lambda t: np.sin(t), lambda t: np.add(c, t), lambda t: np.concatenate([c, t]),
               lambda t: np.linalg.norm(t), lambda t: np.add.at(c, [0], t[0, 0]),
               lambda t: np.add(c, c, out=t)):
        with pytest.raises(errors.TracerArrayConversionError):
            xnp.jit(fn)(A)


def test_numpy_on_constants_stays_static_under_transformations():
    c = xnp.asarray(A)
    jaxpr = xnp.make_jaxpr(lambda t: t + np.sum(c) + np.sin(c))(A)
    names = [e.primitive.name for e in jaxpr.eqns]
    assert "reduce_sum" not in names and "sin" not in names, names
    np.testing.assert_allclose(np.asarray(xnp.jit(lambda t: t + np.sum(c))(A)), A + A.sum(),
                               rtol=1e-13)
    g = xnp.grad(lambda s: s * np.sum(c))(2.0)
    np.testing.assert_allclose(float(g), A.sum(), rtol=1e-13)


class _OptsOut:
    """Opts out of NumPy's ufuncs (``__array_ufunc__ = None``): operators must defer."""

    __array_ufunc__ = None

    def __radd__(self, other):
        return ("radd", type(other).__name__)

    def __rmatmul__(self, other):
        return ("rmatmul", type(other).__name__)

    def __gt__(self, other):  # reflected form of other < self
        return ("gt", type(other).__name__)


class _OwnUfuncs:
    """Overrides ``__array_ufunc__`` (as Dask's arrays do) and records the reflected call."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("ufunc", ufunc.__name__)

    def __rmul__(self, other):
        return ("rmul", type(other).__name__)


def test_binary_operators_defer_to_ufunc_overrides():
    """As NumPy's operators: an operand with ``__array_ufunc__ = None`` or its own
    ``__array_ufunc__`` gets its reflected operator; plain operands are unaffected."""
    x = xnp.arange(3.0)
    assert x + _OptsOut() == ("radd", "ndarray")  # xnp's array class is named ndarray
    assert np.arange(3.0) + _OptsOut() == ("radd", "ndarray")  # NumPy's rule, the oracle
    assert x @ _OptsOut() == ("rmatmul", "ndarray")
    assert (x < _OptsOut()) == ("gt", "ndarray")
    assert (x * _OwnUfuncs()) == ("rmul", "ndarray")
    assert np.sin(_OwnUfuncs()) == ("ufunc", "sin")
    np.testing.assert_array_equal(np.asarray(x + np.ones(3)), np.arange(3.0) + 1)
    np.testing.assert_array_equal(np.asarray(x * np.float32(2)), np.arange(3.0) * 2)


@pytest.mark.parametrize("call", [
    lambda m, d: np.copyto(d, xnp.ones((2, 3)) if m is xnp else np.ones((2, 3))),
    lambda m, d: m.put(d, [0, 4], [5.0, 6.0]) if m is np else np.put(d, xnp.asarray([0, 4]),
                                                                     xnp.asarray([5.0, 6.0])),
    lambda m, d: np.fill_diagonal(d, xnp.asarray(2.0) if m is xnp else 2.0),
    lambda m, d: np.place(d, d > 2, xnp.asarray([9.0]) if m is xnp else [9.0]),
    lambda m, d: np.putmask(d, (xnp.asarray(d) if m is xnp else d) > 2, -1.0),
    lambda m, d: np.put_along_axis(d, (xnp.asarray if m is xnp else np.asarray)([[0], [1]]),
                                   7.0, axis=1),
], ids=["copyto", "put", "fill_diagonal", "place", "putmask", "put_along_axis"])
def test_numpy_functions_writing_into_a_numpy_array_from_xnp_operands(call):
    """The NumPy array given as the target is written in place, as NumPy writes it."""
    want, got = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    assert call(np, want) is None
    assert call(xnp, got) is None
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, want)
