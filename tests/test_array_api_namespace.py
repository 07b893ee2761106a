"""``xnp.array_api``, the Array API namespace ``x.__array_namespace__()`` returns: the
standard's names (checked against the standard's signature stubs), xnp's functions with
their names, signatures and docstrings, ``linalg.eig``/``eigvals`` always complex (NumPy
is the oracle for the values), and the result hook that turns NumPy scalars into 0-d
arrays."""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pickle
import sys
import types

import numpy as np
import pytest

import xnp
from xnp.array_api import _table

ROOT = pathlib.Path(__file__).resolve().parent.parent
STUBS = ROOT.parent / "shared" / "array-api-tests" / "array-api" / "src"
_SYMMETRIC = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]])


def _stub_names(version: str) -> dict[str, set]:
    """{"": main names, "linalg": ..., "fft": ...} from the standard's stubs of ``version``:
    each module's ``__all__`` and the functions it defines (2025.12's linalg defines
    ``eig``/``eigvals`` without listing them)."""
    if not STUBS.is_dir():
        pytest.skip(f"the standard's signature stubs are not on this machine ({STUBS})")
    sys.path.insert(0, str(STUBS))
    try:
        pkg = f"array_api_stubs._{version.replace('.', '_')}"
        out: dict[str, set] = {"": set(), "linalg": set(), "fft": set()}
        for path in sorted((STUBS / pkg.replace(".", "/")).glob("*.py")):
            if path.stem.startswith("_") or path.stem == "array_object":
                continue
            mod = importlib.import_module(f"{pkg}.{path.stem}")
            names = set(getattr(mod, "__all__", ()))
            names |= {n for n, f in vars(mod).items() if isinstance(f, types.FunctionType)
                      and f.__module__ == mod.__name__ and not n.startswith("_")}
            if path.stem == "info":  # the inspection functions are methods of the info object
                names = {"__array_namespace_info__"}
            if path.stem == "data_types":  # the dtype objects' __eq__
                names = set()
            out.get(path.stem, out[""]).update(names)
    finally:
        sys.path.remove(str(STUBS))
    out[""] |= set(_table._DTYPES)  # dtype names, which the stubs describe in prose
    return out


def _public(module) -> set:
    return {n for n in dir(module) if not n.startswith("_")} | (
        {"__array_namespace_info__"} & set(dir(module)))


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2023.12", "2024.12", "2025.12"])
def test_every_standard_name_is_in_the_namespace(version):
    stubs = _stub_names(version)
    ns = xnp.array_api
    missing = sorted(stubs[""] - set(dir(ns)))
    assert not missing, missing
    for ext in ("linalg", "fft"):
        assert not sorted(stubs[ext] - set(dir(getattr(ns, ext)))), ext


def test_the_namespace_has_only_the_standards_names():
    stubs = _stub_names("2025.12")
    ns = xnp.array_api
    # and `special`, which SciPy reads from a namespace (no standard extension yet)
    assert _public(ns) == stubs[""] | {"linalg", "fft", "special"}
    assert _public(ns.special) == set(xnp.special.__all__)
    assert _public(ns.linalg) == stubs["linalg"]
    assert _public(ns.fft) == stubs["fft"]
    assert ns.__array_api_version__ == xnp.__array_api_version__ == "2025.12"
    with xnp.config.override(array_api_version="2024.12"):
        assert ns.__array_api_version__ == "2024.12"
    with pytest.raises(AttributeError, match="sort_complex.*standard's names"):
        ns.sort_complex  # noqa: B018


def test_array_namespace_is_the_standard_namespace_eagerly_and_under_jit():
    x = xnp.asarray([1.0, 2.0, 3.5])
    xp = x.__array_namespace__()
    assert xp is xnp.array_api
    s = xp.sum(x)
    assert type(s) is xnp.Array and s.shape == () and s.dtype == np.float64
    assert float(s) == 6.5
    m = xp.max(x)
    assert type(m) is xnp.Array and float(m) == 3.5
    f = xnp.jit(lambda y: y.__array_namespace__().sum(y * 2))
    out = f(x)
    assert type(out) is xnp.Array and float(out) == 13.0


def test_functions_are_xnps_with_their_names_signatures_and_docstrings():
    ns = xnp.array_api
    for section, names in _table.NAMES.items():
        own = getattr(xnp, section) if section else xnp
        module = getattr(ns, section) if section else ns
        for name in names:
            got = getattr(module, name)
            if (section, name) in _table.STANDARD_FORMS:
                want = _table.STANDARD_FORMS[section, name]
            else:
                want = getattr(own, name)
            if isinstance(want, type) or not callable(want):  # dtypes, constants, finfo
                assert got is want, (section, name)
                continue
            assert got is not want and got.__wrapped__ is want, (section, name)
            assert got.__name__ == want.__name__  # abs is xnp.absolute, as in NumPy
            assert got.__doc__ == want.__doc__ and got.__doc__
            assert inspect.signature(got) == inspect.signature(want), (section, name)
            assert got.__module__ == module.__name__ and got.__qualname__ == name
            assert pickle.loads(pickle.dumps(got)) is got


@pytest.mark.parametrize("jit", [False, True])
def test_standard_eig_is_complex_where_numpys_is_real(jit):
    a = xnp.asarray(_SYMMETRIC)
    ns = xnp.array_api.linalg
    nw = np.linalg.eigvals(_SYMMETRIC)
    assert nw.dtype == np.float64 and xnp.linalg.eig(a).eigenvalues.dtype == np.float64
    eig = xnp.jit(ns.eig) if jit else ns.eig
    eigvals = xnp.jit(ns.eigvals) if jit else ns.eigvals
    w, v = eig(a)
    assert w.dtype == v.dtype == np.complex128
    np.testing.assert_allclose(np.sort_complex(np.asarray(w)), np.sort(nw), atol=1e-12)
    np.testing.assert_allclose(_SYMMETRIC @ np.asarray(v), np.asarray(v) * np.asarray(w),
                               atol=1e-12)
    ev = eigvals(a)
    assert ev.dtype == np.complex128
    np.testing.assert_allclose(np.sort_complex(np.asarray(ev)), np.sort(nw), atol=1e-12)
    w32 = eig(xnp.asarray(_SYMMETRIC, dtype=xnp.float32)).eigenvalues
    assert w32.dtype == np.complex64
    assert xnp.linalg.eig(xnp.asarray(_SYMMETRIC, dtype=xnp.float32)).eigenvalues.dtype == \
        np.float32


def test_result_hook_turns_numpy_scalars_into_0d_arrays():
    hook = _table._standard_result
    s = hook(np.float32(1.5))
    assert type(s) is xnp.Array and s.shape == () and s.dtype == np.float32 and float(s) == 1.5
    pair = hook((np.int8(2), [np.bool_(True), 3]))
    assert type(pair) is tuple and type(pair[1]) is list
    assert type(pair[0]) is xnp.Array and pair[0].dtype == np.int8 and int(pair[0]) == 2
    assert type(pair[1][0]) is xnp.Array and pair[1][0].dtype == np.bool_
    assert pair[1][1] == 3 and type(pair[1][1]) is int
    res = hook(xnp.linalg.EighResult(np.float64(1.0), xnp.ones(2)))
    assert type(res) is xnp.linalg.EighResult and type(res.eigenvalues) is xnp.Array
    for same in (xnp.ones(2), np.dtype("float32"), 2.5, None, "x"):
        assert hook(same) is same


def test_wrapped_function_applies_the_hook_in_one_frame():
    depths = []

    def reduce_like(x, /, *, axis=None):
        """A function returning a NumPy scalar, as an eager reduction may."""
        depths.append(len(inspect.stack(0)))
        return np.float64(x) * 2

    wrapped = _table.standard_function(reduce_like)
    out = wrapped(1.5)
    assert type(out) is xnp.Array and out.shape == () and float(out) == 3.0
    reduce_like(1.5)
    assert depths[0] == depths[1] + 1  # the wrapper is the only frame added
    assert wrapped.__name__ == "reduce_like" and wrapped.__doc__ == reduce_like.__doc__
    assert str(inspect.signature(wrapped)) == "(x, /, *, axis=None)"


def test_inspection_object_pickles():
    for info in (xnp.__array_namespace_info__(), xnp.array_api.__array_namespace_info__()):
        back = pickle.loads(pickle.dumps(info))
        assert type(back) is type(info)
        assert back.default_dtypes() == info.default_dtypes()
        assert back.capabilities() == info.capabilities()
