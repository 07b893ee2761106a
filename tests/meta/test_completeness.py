"""Meta-tests: every primitive has its rules and a rule on every backend (or a
declared reason why not); every module declares ``__all__``; layering holds."""

import ast
import pathlib

import pytest

import xnp
from xnp import lax
from xnp.backends.numpy import BACKEND as NUMPY_BACKEND
from xnp.backends.xla.lowering import LOWERINGS
from xnp.backends.xla.lowering import UNSUPPORTED as XLA_UNSUPPORTED
from xnp.tracing import Primitive
from xnp.tracing.jit import jit_p

ROOT = pathlib.Path(xnp.__file__).parent


def _primitives():
    prims = {v for v in vars(lax).values() if isinstance(v, Primitive)}
    prims.add(jit_p)
    return sorted(prims, key=lambda p: p.name)


PRIMS = _primitives()


def test_primitive_set_is_not_empty():
    assert len(PRIMS) > 10


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_primitive_has_abstract_eval(prim):
    assert prim._abstract_eval is not None or (
        prim.shape_rule is not None and prim.dtype_rule is not None), prim.name


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_numpy_backend_covers_primitive(prim):
    assert (prim.impl is not None or prim in NUMPY_BACKEND.impls
            or prim in NUMPY_BACKEND.unsupported), f"numpy backend has no rule for {prim.name}"


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_xla_backend_covers_primitive(prim):
    assert prim in LOWERINGS or prim in XLA_UNSUPPORTED, f"no lowering for {prim.name}"


def _modules():
    return sorted(p for p in ROOT.rglob("*.py") if p.name != "__init__.py" or p.parent != ROOT)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_declares_all(path):
    tree = ast.parse(path.read_text())
    names = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
             if isinstance(t, ast.Name)}
    if path.name.startswith("_") and path.name != "__init__.py":
        return  # private modules may omit __all__
    if not any(isinstance(n, ast.FunctionDef) and not n.name.startswith("_") for n in tree.body):
        return  # registration-only modules define no public names
    assert "__all__" in names, f"{path} has public functions but no __all__"


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_no_jax_import_and_jaxlib_only_in_xla_backend():
    for path in ROOT.rglob("*.py"):
        for m in _imports(path):
            top = m.split(".")[0]
            assert top != "jax", f"{path} imports jax"
            if top == "jaxlib":
                assert "backends/xla" in str(path), f"{path} imports jaxlib"


@pytest.mark.parametrize("package,forbidden", [
    ("numpy_api", ("xnp.backends",)),
    ("lax", ("xnp.backends", "xnp.numpy_api", "xnp.array")),
    ("tracing", ("xnp.backends", "xnp.numpy_api", "xnp.lax", "xnp.array")),
])
def test_imports_point_one_way(package, forbidden):
    for path in (ROOT / package).rglob("*.py"):
        for m in _imports(path):
            assert not m.startswith(forbidden), f"{path} imports {m}"


def test_top_level_exports_every_numpy_api_name():
    import xnp.numpy_api as api

    missing = sorted(set(api.__all__) - set(xnp.__all__))
    assert not missing, f"xnp/__init__.py does not import {missing}; regenerate its import list"
    for name in api.__all__:
        obj = getattr(xnp, name)  # NumPy's ufunc names are xnp.ufunc objects wrapping the function
        assert obj is getattr(api, name) or (
            isinstance(obj, xnp.ufunc) and obj._fn is getattr(api, name)), name
