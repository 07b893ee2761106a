"""The NumPy surface and the lax layer issue their own warnings through
``numpy_api._util.warn`` (read with ``ast``; nothing is imported): a warning is an effect
the eager dispatch cache cannot replay, and ``warn`` tells the recording of the call
(``xnp/tracing/recording.py``), so a call that warns is never replayed silently. The one
other caller of ``warnings.warn`` is the eager rule of ``lax.runtime_warning``, a warning
that is an equation (replays run it), which tells the recording itself."""

from __future__ import annotations

import ast
import pathlib

import pytest

import xnp

ROOT = pathlib.Path(xnp.__file__).resolve().parent
PACKAGES = ("numpy_api", "lax", "backends/xp_impls", "backends/numpy")
RUNTIME_WARNING_RULE = "backends/xp_impls/checks.py"


def _direct_warns(path: pathlib.Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "warn" and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "warnings"):
            yield node.lineno


def test_surface_warnings_go_through_util_warn():
    found = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            found += [f"{rel}:{line}" for line in _direct_warns(path)
                      if rel not in ("numpy_api/_util.py", RUNTIME_WARNING_RULE)]
    assert not found, ("call numpy_api._util.warn instead of warnings.warn (the eager "
                       "dispatch cache must see the warning): " + ", ".join(found))


@pytest.mark.parametrize("path,name", [("numpy_api/_util.py", "warn"),
                                       (RUNTIME_WARNING_RULE, "_runtime_warning")])
def test_util_warn_tells_the_recording(path, name):
    src = (ROOT / path).read_text()
    fn = next(n for n in ast.walk(ast.parse(src))
              if isinstance(n, ast.FunctionDef) and n.name == name)
    calls = [ast.unparse(c.func) for c in ast.walk(fn) if isinstance(c, ast.Call)]
    assert "warnings.warn" in calls
    assert calls.index(calls[[c.endswith("note_effect") for c in calls].index(True)]) < (
        calls.index("warnings.warn"))
