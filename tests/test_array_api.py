"""The Array API namespace of xnp: version, inspection namespace, dtype objects,
``__array_namespace__``, ``from_dlpack``, and the conformance harness's runner
(``array_api_tests/run.py``). NumPy's own Array API namespace is the oracle where
it has the same function."""

import importlib.util
import os
import pickle
import pathlib
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import xnp

ROOT = pathlib.Path(__file__).resolve().parent.parent
STANDARD_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                   "uint64", "float32", "float64", "complex64", "complex128"]
KINDS = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("bool", "complex floating"),
         ("signed integer", "unsigned integer")]


# ------------------------------------------------------------------ dtype objects


@pytest.mark.parametrize("name", STANDARD_DTYPES + ["float16", "bfloat16"])
@pytest.mark.parametrize("other", [None, "", "garbage", "format number 1 of \"x\"", "f8[",
                                   "(2,)f8", 3, 2.5, object(), [1], {"a": 1}, (1, 2), xnp])
def test_dtype_objects_compare_with_anything_without_raising(name, other):
    t = getattr(xnp, name)
    assert (t == other) is False
    assert (t != other) is True


@pytest.mark.parametrize("name", STANDARD_DTYPES)
def test_dtype_objects_equal_their_numpy_dtype_and_hash_alike(name):
    t = getattr(xnp, name)
    d = np.dtype(name)
    assert t == d and d == t and t == name and t == d.type
    assert not (t != d)
    assert {d: 1}[t] == 1 and {t: 1}[d] == 1
    others = [getattr(xnp, n) for n in STANDARD_DTYPES if n != name]
    assert all(t != o for o in others)
    assert xnp.asarray([1], dtype=t).dtype == t


def test_dtype_objects_inside_dict_lookups_of_mixed_keys():
    # the conformance suite looks up arbitrary objects in a dtype-keyed mapping
    table = {xnp.float64: "float64", "a string key": 1, None: 2}
    assert table["a string key"] == 1 and table[None] == 2
    assert table[np.dtype("float64")] == "float64"


# ------------------------------------------------------------------ namespace and version


def test_array_api_version():
    assert xnp.__array_api_version__ == "2025.12"
    with xnp.config.override(array_api_version="2024.12"):
        assert xnp.__array_api_version__ == "2024.12"
    assert xnp.__array_api_version__ == "2025.12"


def test_array_api_version_option_is_validated():
    with pytest.raises(ValueError, match="array_api_version"):
        xnp.config.update("array_api_version", "2025.13")
    assert xnp.__array_api_version__ == "2025.12"


@pytest.mark.parametrize("version", [None, "2021.12", "2022.12", "2023.12", "2024.12",
                                     "2025.12"])
def test_array_namespace_accepts_known_versions(version):
    x = xnp.ones(2)
    assert x.__array_namespace__(api_version=version) is xnp.array_api
    f = xnp.jit(lambda y: y.__array_namespace__(api_version=version).sin(y))
    np.testing.assert_array_equal(np.asarray(f(x)), np.sin(np.ones(2)))


@pytest.mark.parametrize("version", ["2020.10", "2025.13", "2026.12", "latest", 2024.12, ""])
def test_array_namespace_rejects_unknown_versions(version):
    with pytest.raises(ValueError, match=r"__array_namespace__: api_version=.*2025\.12"):
        xnp.ones(2).__array_namespace__(api_version=version)

    def f(y):
        return y.__array_namespace__(api_version=version)

    with pytest.raises(ValueError, match="api_version"):
        xnp.jit(f)(xnp.ones(2))


# ------------------------------------------------------------------ __array_namespace_info__


def test_info_capabilities():
    caps = xnp.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True,
                    "max dimensions": 64}
    # both are true eagerly: a boolean mask and unique work as in NumPy
    x = xnp.asarray([3, 1, 3, 2])
    np.testing.assert_array_equal(np.asarray(x[x > 1]), [3, 3, 2])
    np.testing.assert_array_equal(np.asarray(xnp.unique_values(x)), [1, 2, 3])
    assert xnp.zeros((1,) * 64).ndim == 64


def test_info_capabilities_under_transformations():
    # a traced mask cannot index: libraries asking inside jit/vmap/grad take a where path
    def caps(x):
        c = xnp.__array_namespace_info__().capabilities()
        assert not c["boolean indexing"] and not c["data-dependent shapes"]
        assert c["max dimensions"] == 64
        return x * 2

    xnp.jit(caps)(1.0)
    xnp.vmap(caps)(xnp.ones(3))
    xnp.grad(caps)(1.0)
    assert xnp.__array_namespace_info__().capabilities()["boolean indexing"]


def test_info_devices():
    info = xnp.__array_namespace_info__()
    devices = info.devices()
    assert isinstance(devices, tuple) and devices == (xnp.ones(1).device,)
    assert info.default_device() in devices
    assert xnp.zeros(2, device=info.default_device()).device == info.default_device()
    with xnp.config.override(array_api_version="2024.12"):
        assert info.devices() == [info.default_device()]  # a list before 2025.12


def test_sequences_follow_the_presented_version():
    # meshgrid and broadcast_arrays return tuples (NumPy's; the standard's from 2025.12),
    # lists when xnp presents an older version
    a, b = xnp.arange(2.0), xnp.arange(3.0)
    calls = [lambda: xnp.meshgrid(a, b), lambda: xnp.broadcast_arrays(a, 1.0),
             lambda: xnp.broadcast_arrays(a), lambda: xnp.meshgrid(a, b, sparse=True),
             lambda: xnp.jit(lambda u, v: xnp.meshgrid(u, v))(a, b)]
    for call in calls:
        assert type(call()) is tuple
    with xnp.config.override(array_api_version="2024.12"):
        for call in calls[:4]:
            assert type(call()) is list
        with xnp.config.override(array_api_version="2025.12"):
            assert type(xnp.meshgrid(a, b)) is tuple
        # the option is part of jit's cache key: the cached tuple-returning trace is not reused
        assert type(xnp.jit(lambda u, v: xnp.meshgrid(u, v))(a, b)) is list
    np.testing.assert_array_equal(np.asarray(xnp.meshgrid(a, b)[0]), np.meshgrid(a, b)[0])


@pytest.mark.parametrize("x64", [True, False])
def test_info_default_dtypes(x64):
    info = xnp.__array_namespace_info__()
    with xnp.config.override(enable_x64=x64):
        d = info.default_dtypes()
        assert d == info.default_dtypes(device=info.default_device())
        assert d["real floating"] == xnp.asarray(1.0).dtype == xnp.ones(2).dtype
        assert d["complex floating"] == xnp.asarray(1j).dtype
        assert d["integral"] == xnp.asarray(1).dtype == xnp.arange(3).dtype
        assert d["indexing"] == xnp.argmax(xnp.ones(3)).dtype == xnp.nonzero(xnp.ones(3))[0].dtype
    wide = {"real floating": np.float64, "complex floating": np.complex128,
            "integral": np.int64, "indexing": np.int64}
    narrow = {"real floating": np.float32, "complex floating": np.complex64,
              "integral": np.int32, "indexing": np.int32}
    assert d == {k: np.dtype(v) for k, v in (wide if x64 else narrow).items()}
    if x64:
        assert d == np.__array_namespace_info__().default_dtypes()


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_info_dtypes_match_numpy(kind):
    info = xnp.__array_namespace_info__()
    ours = info.dtypes(kind=kind)
    theirs = np.__array_namespace_info__().dtypes(kind=kind)
    assert ours == theirs
    assert list(ours) == [n for n in STANDARD_DTYPES if n in theirs]
    assert info.dtypes(kind=kind, device=info.default_device()) == ours
    with xnp.config.override(enable_x64=False):  # 64-bit dtypes stay available
        assert info.dtypes(kind=kind) == ours


def test_info_rejects_unknown_devices_and_kinds():
    info = xnp.__array_namespace_info__()
    with pytest.raises(ValueError, match="dtypes: unknown device 'gpu:3'"):
        info.dtypes(device="gpu:3")
    with pytest.raises(ValueError, match="default_dtypes: unknown device"):
        info.default_dtypes(device="tpu")
    with pytest.raises(ValueError, match="unknown kind"):
        info.dtypes(kind="floating")


# ------------------------------------------------------------------ from_dlpack


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
def test_from_dlpack_numpy_input_shares_memory(dtype):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    x = xnp.from_dlpack(a)
    assert type(x) is xnp.Array and x.shape == (2, 3) and x.dtype == a.dtype
    np.testing.assert_array_equal(np.asarray(x), a)
    assert np.shares_memory(np.asarray(x), a)
    np.testing.assert_array_equal(np.asarray(x), np.from_dlpack(a))


def test_from_dlpack_copy_and_device():
    a = np.arange(4.0)
    copied = xnp.from_dlpack(a, copy=True)
    assert not np.shares_memory(np.asarray(copied), a)
    shared = xnp.from_dlpack(a, copy=False, device=xnp.ones(1).device)
    assert np.shares_memory(np.asarray(shared), a)
    assert np.shares_memory(np.asarray(xnp.from_dlpack(a, device="cpu")), a)
    with pytest.raises(ValueError, match="xnp.from_dlpack: unknown device 'cuda:0'"):
        xnp.from_dlpack(a, device="cuda:0")


def test_from_dlpack_xnp_input_and_under_jit():
    x = xnp.arange(3.0)
    y = xnp.from_dlpack(x)
    np.testing.assert_array_equal(np.asarray(y), [0.0, 1.0, 2.0])
    assert np.shares_memory(np.asarray(y), np.asarray(x))
    assert not np.shares_memory(np.asarray(xnp.from_dlpack(x, copy=True)), np.asarray(x))
    f = xnp.jit(lambda v: xnp.from_dlpack(v) * 2)
    np.testing.assert_array_equal(np.asarray(f(x)), [0.0, 2.0, 4.0])


def test_from_dlpack_array_api_strict_input():
    strict = pytest.importorskip("array_api_strict", reason="array-api-strict not installed")
    a = strict.asarray([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(xnp.from_dlpack(a)), [1.0, 2.0, 3.0])


# ------------------------------------------------------------------ the conformance runner


def _runner():
    spec = importlib.util.spec_from_file_location("xnp_array_api_run",
                                                  ROOT / "array_api_tests" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_runner_skips_without_the_suite(monkeypatch, tmp_path, capsys):
    run = _runner()
    monkeypatch.setenv("ARRAY_API_TESTS_DIR", str(tmp_path / "absent"))
    assert run.find_suite() is None
    assert run.main([]) == 0
    assert "skipped" in capsys.readouterr().out


def test_runner_command_is_reproducible_and_writes_nothing_into_the_suite(tmp_path):
    run = _runner()
    cmd = run.build_command(tmp_path, max_examples=20, seed=0,
                            extra=["array_api_tests/test_sorting_functions.py", "-x"])
    assert str(tmp_path / "array_api_tests/test_sorting_functions.py") in cmd
    assert str(tmp_path / "array_api_tests") not in cmd  # a selection replaces the default
    assert "--hypothesis-seed=0" in cmd and "--max-examples=20" in cmd
    assert f"--rootdir={tmp_path}" in cmd and "no:cacheprovider" in cmd and "-x" in cmd
    assert "--hypothesis-disable-deadline" in cmd  # timing is not conformance
    whole = run.build_command(tmp_path, max_examples=5, seed=1, extra=[], deadline=True)
    assert str(tmp_path / "array_api_tests") in whole and "--hypothesis-seed=1" in whole
    assert "--hypothesis-disable-deadline" not in whole


# ------------------------------------------------------------------ finfo / iinfo


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128",
                                  "bfloat16", "float8_e4m3fn"])
def test_finfo_fields_are_python_numbers_with_numpy_values(name):
    t = getattr(xnp, name)
    ref = ml_dtypes.finfo(np.dtype(t))  # numpy.finfo's values, and ml_dtypes' for its types
    real = {"complex64": np.dtype(np.float32), "complex128": np.dtype(np.float64)}.get(
        name, np.dtype(t))
    for arg in (t, np.dtype(t), name, xnp.asarray(1, dtype=t), xnp.asarray(1, dtype=t).dtype):
        info = xnp.finfo(arg)
        assert type(info.bits) is int and info.bits == ref.bits
        for field in ("eps", "max", "min", "smallest_normal", "smallest_subnormal",
                      "resolution", "epsneg", "tiny"):
            if not hasattr(ref, field):
                continue
            value, want = getattr(info, field), getattr(ref, field)
            assert isinstance(value, float), field  # the standard's type
            assert value == float(want), field
            # and NumPy's scalar's printing (numpy.finfo gives numpy.float32 for float32)
            assert (repr(value), str(value)) == (repr(want), str(want)), field
        for field in ("nmant", "maxexp", "minexp", "precision"):
            assert getattr(info, field) == getattr(ref, field)
        assert info.dtype == real and isinstance(info.dtype, np.dtype)
    x = xnp.ones(3, dtype=xnp.float32)
    assert (x * xnp.finfo(xnp.float32).eps).dtype == np.float32


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_limits_compute_and_promote_as_numpys_scalars(name):
    """Every operation with a limit gives NumPy's dtype with NumPy's own finfo limit."""
    ours, theirs = xnp.finfo(getattr(xnp, name)).eps, np.finfo(np.dtype(name)).eps
    cases = {
        "times 2": lambda e, m: e * 2, "2 minus": lambda e, m: 2.0 - e,
        "negated": lambda e, m: -e, "scalar plus": lambda e, m: m.float16(1) + e,
        "plus scalar": lambda e, m: e + m.float32(1),
        "float16 array times": lambda e, m: m.ones(3, m.float16) * e,
        "times float16 array": lambda e, m: e * m.ones(3, m.float16),
        "float64 array plus": lambda e, m: m.ones(3) + e, "sqrt": lambda e, m: m.sqrt(e),
        "asarray": lambda e, m: m.asarray(e), "full": lambda e, m: m.full(2, e),
        "maximum": lambda e, m: m.maximum(m.ones(2, m.float16), e),
    }
    for what, case in cases.items():
        want = case(theirs, np)
        # NumPy's own asarray/full read a float subclass as a float64: xnp's only
        libraries = (xnp,) if what in ("asarray", "full") else (xnp, np)
        for m in libraries:
            got = case(ours, m)
            assert np.asarray(got).dtype == np.asarray(want).dtype, (what, m.__name__)
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=what)
            if m is np:
                assert repr(got) == repr(want), what
    f = xnp.jit(lambda v: v * xnp.finfo(xnp.float32).eps)
    for dt in (np.float16, np.float32, np.float64):
        want = np.ones(2, dt) * np.finfo(np.float32).eps
        got = f(np.ones(2, dt))
        assert got.dtype == want.dtype and np.array_equal(np.asarray(got), want)
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert repr(pickle.loads(pickle.dumps(ours))) == repr(theirs)
    assert f"{ours:.3e}" == f"{theirs:.3e}"


def test_finfo_under_jit_and_of_integers():
    f = xnp.jit(lambda v: v + xnp.finfo(v).eps)
    assert np.asarray(f(np.ones(2, np.float32))).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(f(np.ones(2))), 1 + np.finfo(np.float64).eps)
    with pytest.raises(ValueError, match="xnp.finfo: data type int32 is not a floating"):
        xnp.finfo(xnp.int32)


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64"])
def test_iinfo_fields_are_python_ints(name):
    ref = np.iinfo(name)
    for arg in (getattr(xnp, name), name, xnp.asarray(1, dtype=name)):
        info = xnp.iinfo(arg)
        assert (type(info.bits), type(info.max), type(info.min)) == (int, int, int)
        assert (info.bits, info.max, info.min, info.dtype) == (ref.bits, ref.max, ref.min,
                                                                ref.dtype)


@pytest.mark.parametrize("src", STANDARD_DTYPES)
@pytest.mark.parametrize("dst", STANDARD_DTYPES)
def test_can_cast_follows_the_promotion_table(src, dst):
    # can_cast(a, b) is True where promoting a with some dtype gives b (the standard)
    # and agrees with NumPy's safe casting everywhere
    ours = xnp.can_cast(getattr(xnp, src), getattr(xnp, dst))
    assert ours == np.can_cast(src, dst)
    assert xnp.can_cast(xnp.zeros(1, dtype=src), dst) == ours
    promotes_to = any(np.result_type(src, o) == np.dtype(dst) for o in STANDARD_DTYPES
                      if (np.dtype(o).kind == "b") == (np.dtype(src).kind == "b"))
    if promotes_to and np.dtype(src).kind in "biuf" and np.dtype(dst).kind == np.dtype(src).kind:
        assert ours


# ------------------------------------------------------------------ what array-api-compat sees


def test_array_api_compat_on_tracers():
    compat = pytest.importorskip("array_api_compat", reason="test extra not installed")
    seen = {}

    def probe(v):
        seen["namespace"] = compat.array_namespace(v)
        seen["device"] = compat.device(v)
        seen["lazy"] = compat.is_lazy_array(v)
        seen["writeable"] = compat.is_writeable_array(v)
        return v

    a = xnp.ones(3)
    assert compat.is_lazy_array(a) is False and compat.is_writeable_array(a) is True
    xnp.jit(probe)(a)
    # under jit a tracer is lazy (bool() would need its value); it is writeable because
    # x[idx] = v is functionalized (a traced boolean mask included): array-api-compat
    # answers True for every array type it does not know, and True is right here
    assert seen == {"namespace": xnp.array_api, "device": a.device, "lazy": True,
                    "writeable": True}
    seen.clear()
    xnp.grad(lambda v: probe(v).sum())(a)  # a jvp tracer has a value: not lazy
    assert seen["lazy"] is False and seen["device"] == a.device


_SCIPY_UNDER_JIT = r"""
import numpy as np
import xnp
from scipy import integrate, signal, special, stats
from scipy._lib import array_api_extra as xpx
from scipy.cluster import vq

rng = np.random.default_rng(0)
x, y = rng.standard_normal((3, 5)), rng.standard_normal((3, 5))
calls = {
    "at_set": lambda v, w: xpx.at(v, v == xnp.max(v, axis=1, keepdims=True)).set(-xnp.inf,
                                                                                copy=True),
    "logsumexp": lambda v, w: special.logsumexp(v, axis=1),
    "softmax": lambda v, w: special.softmax(v, axis=1),
    "zscore": lambda v, w: stats.zscore(v, axis=1),
    "skew": lambda v, w: stats.skew(v, axis=1),
    "fftconvolve": lambda v, w: signal.fftconvolve(v, w),
    "whiten": lambda v, w: vq.whiten(v),
    "trapezoid": lambda v, w: integrate.trapezoid(v, axis=1),
}
for name, call in calls.items():
    want = call(x, y)  # NumPy inputs: SciPy's NumPy path is the oracle
    for got in (call(xnp.asarray(x), xnp.asarray(y)), xnp.jit(call)(x, y)):
        assert type(got) is xnp.Array, (name, type(got))
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-14,
                                   err_msg=name)
print("ok", len(calls))
"""


def test_scipy_functions_written_on_the_standard_run_under_jit():
    # SciPy reads SCIPY_ARRAY_API when it is imported, hence a fresh interpreter
    pytest.importorskip("scipy")
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    res = subprocess.run([sys.executable, "-c", _SCIPY_UNDER_JIT], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.split() == ["ok", "8"]


def test_isdtype_refuses_a_dtype_name_as_numpy():
    with pytest.raises(TypeError, match="dtype argument must be a NumPy dtype"):
        np.isdtype("float32", "real floating")
    with pytest.raises(TypeError, match=r"xnp\.isdtype: dtype argument must be a dtype"):
        xnp.isdtype("float32", "real floating")
    assert xnp.isdtype(xnp.float32, "real floating") and not xnp.isdtype(xnp.int8, "bool")
