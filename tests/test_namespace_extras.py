"""The smaller main-namespace names (xnp/_namespace_extras.py) against NumPy's: the
floating-point error state governing xnp's eager warnings, scalar-type aliases,
constants, show_config/show_runtime/info, row_stack, __version__."""

import io
import re
import warnings

import numpy as np
import pytest

import xnp

# eager computations that meet floating-point errors: (name, body(xp))
FP_CASES = [
    ("divide by zero", lambda m: m.divide(m.asarray(1.0), m.asarray(0.0))),
    ("array / array", lambda m: m.asarray([1.0, 0.0]) / m.asarray([0.0, 0.0])),
    ("array / scalar", lambda m: m.asarray([1.0]) / 0.0),
    ("log of 0", lambda m: m.log(m.asarray([0.0, 1.0]))),
    ("log10 of -1", lambda m: m.log10(m.asarray([-1.0]))),
    ("log1p of -1", lambda m: m.log1p(m.asarray([-1.0]))),
    ("sqrt of -1", lambda m: m.sqrt(m.asarray([-1.0]))),
    ("arcsin of 2", lambda m: m.arcsin(m.asarray([2.0]))),
    ("arctanh of 1", lambda m: m.arctanh(m.asarray([1.0]))),
    ("exp overflow", lambda m: m.exp(m.asarray([1000.0]))),
    ("float32 overflow", lambda m: m.asarray([3e38], dtype=m.float32) * m.asarray(
        [10.0], dtype=m.float32)),
    ("power overflow", lambda m: m.power(m.asarray([10.0]), m.asarray([400.0]))),
    ("underflow", lambda m: m.asarray([1e-300]) * m.asarray([1e-300])),
    ("inf - inf", lambda m: m.asarray([np.inf]) - m.asarray([np.inf])),
    ("fmod by 0", lambda m: m.fmod(m.asarray([1.0]), m.asarray([0.0]))),
    ("reciprocal of 0", lambda m: m.reciprocal(m.asarray([0.0]))),
    ("divmod by 0", lambda m: m.divmod(m.asarray([1.0]), m.asarray([0.0]))),
    ("floor_divide by 0", lambda m: m.asarray([1.0, 2.0]) // m.asarray([0.0, 1.0])),
    ("floor_divide 0 by 0", lambda m: m.floor_divide(m.asarray([0.0]), m.asarray([0.0]))),
    ("remainder by 0", lambda m: m.remainder(m.asarray([1.0]), m.asarray([0.0]))),
    ("int8 min // -1", lambda m: m.asarray([-128, 6], dtype=m.int8) // m.asarray(
        [-1, 4], dtype=m.int8)),
    ("int64 divmod(min, -1)", lambda m: m.divmod(m.asarray([-2 ** 63]), -1)),
    ("float_power 0 ** -1", lambda m: m.float_power(m.asarray([0.0]), m.asarray([-1.0]))),
    ("nan to int", lambda m: m.asarray([np.nan]).astype(m.int64)),
    ("no error", lambda m: m.add(m.asarray([1.0]), 1.0)),
]
FP_CASES = [pytest.param(body, id=name) for name, body in FP_CASES]

_CATEGORY = [("divide by zero", "divide"), ("overflow", "over"), ("underflow", "under"),
             ("invalid value", "invalid")]


def _category(message: str) -> str:
    return next(c for text, c in _CATEGORY if text in message)


def _outcome(m, body, **state):
    """(what was raised, the categories warned, the categories called back)"""
    called = []
    with warnings.catch_warnings(record=True) as caught, m.errstate(
            call=lambda kind, flag: called.append(kind), **state):
        warnings.simplefilter("always")
        try:
            body(m)
            raised = None
        except FloatingPointError as exc:
            raised = type(exc)
        warned = {_category(str(w.message)) for w in caught
                  if issubclass(w.category, RuntimeWarning)}
    return raised, warned, {re.sub(" .*", "", k) for k in called}


@pytest.mark.parametrize("state", [
    {"all": "warn"}, {"all": "ignore"}, {"all": "call"},
    {"divide": "ignore", "over": "warn", "under": "ignore", "invalid": "warn"},
    {"divide": "warn", "over": "ignore", "under": "warn", "invalid": "ignore"},
], ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("body", FP_CASES)
def test_errstate_governs_eager_warnings_as_numpys(body, state):
    assert _outcome(xnp, body, **state) == _outcome(np, body, **state)


@pytest.mark.parametrize("body", FP_CASES)
@pytest.mark.parametrize("category", ["divide", "over", "under", "invalid"])
def test_errstate_raise_raises_where_numpy_does(body, category):
    state = {"all": "ignore", category: "raise"}
    assert _outcome(xnp, body, **state)[0] is _outcome(np, body, **state)[0]


@pytest.mark.parametrize("fname", ["floor_divide", "remainder", "fmod", "divmod"])
@pytest.mark.parametrize("mode", ["warn", "raise", "ignore"])
def test_integer_division_by_zero_warns_as_numpys(fname, mode):
    def body(m):
        return getattr(m, fname)(m.asarray([1, 2], dtype=m.uint8), m.asarray([0, 1], m.uint8))

    def nonzero(m):
        return getattr(m, fname)(m.asarray([1, 2]), m.asarray([3, 1]))

    assert _outcome(xnp, body, all=mode) == _outcome(np, body, all=mode)
    assert _outcome(xnp, nonzero, all=mode) == _outcome(np, nonzero, all=mode)
    # compiled code reports no floating-point errors (XLA checks none); values are NumPy's
    a, b = np.asarray([7, -2]), np.asarray([0, 3])
    with np.errstate(all="raise"):
        got = xnp.jit(getattr(xnp, fname))(xnp.asarray(a), xnp.asarray(b))
    with np.errstate(all="ignore"):
        want = getattr(np, fname)(a, b)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_seterr_geterr_seterrcall_are_numpys_state():
    for name in ("seterr", "geterr", "seterrcall", "geterrcall", "getbufsize", "setbufsize",
                 "errstate"):
        assert getattr(xnp, name) is getattr(np, name)
    old = xnp.seterr(divide="raise")
    try:
        assert xnp.geterr()["divide"] == "raise" == np.geterr()["divide"]
        with pytest.raises(FloatingPointError, match="divide by zero"):
            xnp.log(xnp.asarray(0.0))
    finally:
        xnp.seterr(**old)
    seen = []
    old_call = xnp.seterrcall(lambda kind, flag: seen.append(kind))
    old = xnp.seterr(all="call")
    try:
        xnp.sqrt(xnp.asarray([-1.0]))
    finally:
        xnp.seterr(**old)
        xnp.seterrcall(old_call)
    assert seen == ["invalid value"]


def test_compiled_code_checks_no_floating_point_errors():
    with warnings.catch_warnings(), xnp.errstate(all="raise"):
        warnings.simplefilter("error")
        out = xnp.jit(lambda v: xnp.log(v) / v)(np.array([0.0]))
    assert np.asarray(out)[0] == -np.inf


# --------------------------------------------------------------------------- scalar aliases

ALIASES = ["byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong", "longlong",
           "ulonglong", "uint", "intp", "uintp", "half", "single", "double", "csingle",
           "cdouble", "int_", "bool_"]


@pytest.mark.parametrize("name", ALIASES)
def test_scalar_type_aliases_are_numpys_dtypes(name):
    t = getattr(xnp, name)
    assert np.dtype(t) == np.dtype(getattr(np, name))
    assert t == getattr(np, name)
    assert xnp.zeros(2, dtype=t).dtype == np.zeros(2, dtype=getattr(np, name)).dtype
    x = t(3)  # NumPy's scalar (README, "Scalars")
    assert x == getattr(np, name)(3) and isinstance(x, np.generic)
    assert x.dtype == np.dtype(getattr(np, name))
    assert xnp.jit(lambda v: v.astype(t))(np.ones(2)).dtype == np.dtype(getattr(np, name))


def test_constants_are_numpys():
    assert xnp.True_ is np.True_ and xnp.False_ is np.False_
    for name in ("ScalarType", "sctypeDict", "typecodes", "little_endian"):
        assert getattr(xnp, name) is getattr(np, name)
    assert isinstance(np.float64(1.0), xnp.ScalarType)
    assert bool(xnp.asarray([1, 2]).any() == xnp.True_)


# --------------------------------------------------------------------------- the rest


def test_version():
    import importlib.metadata  # noqa: PLC0415

    assert xnp.__version__ == importlib.metadata.version("xnp")
    assert xnp.lib.NumpyVersion(xnp.__version__).version == xnp.__version__


def test_show_config(capsys):
    d = xnp.show_config(mode="dicts")
    assert d["xnp"]["version"] == xnp.__version__ and d["xnp"]["numpy"] == np.__version__
    assert set(np.show_config(mode="dicts")) <= set(d)
    xnp.show_config()
    out = capsys.readouterr().out
    assert out.startswith("xnp:") and "eager_backend: numpy" in out
    with pytest.raises(AttributeError):
        xnp.show_config(mode="nonsense")
    with pytest.raises(AttributeError):
        np.show_config(mode="nonsense")


def test_show_runtime(capsys):
    xnp.show_runtime()
    out = capsys.readouterr().out
    assert out.startswith("xnp:") and f"version={xnp.__version__}" in out


def test_info():
    buf = io.StringIO()
    xnp.info(xnp.emath.sqrt, output=buf)
    assert "sqrt(x)" in buf.getvalue() and "complex" in buf.getvalue()
    buf = io.StringIO()
    xnp.info("sliding_window_view", output=buf)
    assert "Found in xnp" in buf.getvalue()


@pytest.mark.parametrize("tup", [([1, 2], [3, 4]), (np.ones((2, 3)), np.zeros((1, 3))),
                                 (np.arange(3), np.arange(3.0))])
def test_row_stack_is_deprecated_vstack(tup):
    with pytest.warns(DeprecationWarning, match="row_stack") as w:
        got = xnp.row_stack(tuple(xnp.asarray(t) for t in tup))
    with pytest.warns(DeprecationWarning, match="row_stack") as e:
        expected = np.row_stack(tup)
    assert str(w[0].message) == str(e[0].message)
    np.testing.assert_array_equal(np.asarray(got), expected)
    assert got.dtype == expected.dtype
    with pytest.warns(DeprecationWarning):
        out = xnp.jit(lambda *a: xnp.row_stack(a, dtype=np.float32))(*tup)
    assert out.dtype == np.float32
