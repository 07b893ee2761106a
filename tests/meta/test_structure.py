"""Structural ratchets over the source of ``xnp`` (read with ``ast``; nothing is imported).

Three properties, each with the exceptions found when the test was written listed
explicitly below. Each list may only shrink: a new exception fails the test, and an
exception that went away fails it too, asking for the list to be updated, so that it
cannot grow back unnoticed. The target of every list is empty (docs/architecture.md,
"Known debts").

(a) No module over ``MAX_LINES`` lines; the modules over it today may not grow.
(b) Import cycles: the strongly connected components of the import graph of the
    ``xnp`` modules equal ``KNOWN_CYCLES``.
(c) Layer order: ``numpy_api`` -> ``lax`` -> ``tracing``; ``backends`` -> ``lax``,
    ``tracing``; ``tracing`` imports nothing from ``numpy_api``/``lax``/``backends``.
    The imports against it equal ``KNOWN_LAYER_VIOLATIONS``.

The import graph has one node per module (a package is its ``__init__.py``, named by
the package) and one edge per import statement anywhere in a module: at module level
and inside functions, methods and branches alike, since a function-level import only
defers a cycle to call time. ``import xnp.a.b`` and ``from xnp.a import b`` with
``xnp.a.b`` a module are edges to ``xnp.a.b``; ``from xnp.a import name`` with
``name`` not a module is an edge to the package ``xnp.a``. The parent packages that
Python initialises before a submodule are not edges (every submodule would otherwise
share a cycle with its package's ``__init__``).
"""

from __future__ import annotations

import ast
import pathlib

import xnp

ROOT = pathlib.Path(xnp.__file__).resolve().parent

# --------------------------------------------------------------------------- (a) file size

MAX_LINES = 800

# module path (relative to xnp/) -> its line count when listed; it may shrink, not grow
OVERSIZED = {
}

# --------------------------------------------------------------------------- (b) import cycles

# The target is none, and there is none today: a cycle would be a debt (rules attached
# from other modules, helpers imported back by the modules they serve, hook slots). Each
# entry is one strongly connected component of the import graph.
KNOWN_CYCLES: list = []

# --------------------------------------------------------------------------- (c) layer order

# Layers from the bottom. A module may import modules of its own layer and of lower
# layers; ``numpy_api`` and ``backends`` share a rank but may not import each other.
# ``base`` holds the leaf helpers every layer may use (options, the default dtypes, the
# native allocator); ``surface`` is everything else at the top of the package (``xnp`` itself,
# ``_wiring``, ``array``, ``array_api``, ``extend``, ``fft``, ``linalg``, ``random``).
LAYER_RANK = {"base": 0, "tracing": 1, "lax": 2, "numpy_api": 3, "backends": 3, "surface": 4}
BASE_MODULES = {"xnp.config", "xnp._native", "xnp._default_dtypes"}

# (importing module, imported module): imports against the layer order (none today)
KNOWN_LAYER_VIOLATIONS: set = set()


# --------------------------------------------------------------------------- the source model


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _source_files() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


FILES = _source_files()


def _is_xnp(name: str) -> bool:
    return name == "xnp" or name.startswith("xnp.")


def _import_statements(body):
    """Every import statement in ``body`` and the statement blocks nested in it (function
    and class bodies, branches, loops, ``try``/``with``/``match`` blocks); expressions,
    which cannot hold an import statement, are not visited (this keeps the test fast)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                yield from _import_statements(block)


def _imports(name: str, path: pathlib.Path) -> dict[str, int]:
    """The ``xnp`` modules ``name`` imports (anywhere in its source), each with the line
    of its first import."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: dict[str, int] = {}
    for node in _import_statements(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_xnp(alias.name):
                    out.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the importing module's package
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                module = ".".join(parts + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not _is_xnp(module):
                continue
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.setdefault(sub if sub in FILES else module, node.lineno)
    out.pop(name, None)
    return out


GRAPH = {name: _imports(name, path) for name, path in FILES.items()}


def _strongly_connected_components(graph: dict[str, dict]) -> list[frozenset]:
    """Tarjan's algorithm, iterative; only components of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set = set()
    stack: list = []
    out: list = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(frozenset(comp))
    return out


def _cycle_edges(comp) -> str:
    return "\n".join(f"      {v} -> {w} (line {line})" for v in sorted(comp)
                     for w, line in sorted(GRAPH[v].items()) if w in comp)


def _layer(name: str) -> str:
    if name in BASE_MODULES or name.rpartition(".")[0] in BASE_MODULES:  # or a module in one
        return "base"
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in LAYER_RANK:
        return parts[1]
    return "surface"


def _layer_violations() -> dict[tuple[str, str], int]:
    out = {}
    for v, targets in GRAPH.items():
        for w, line in targets.items():
            lv, lw = _layer(v), _layer(w)
            if lv != lw and LAYER_RANK[lw] >= LAYER_RANK[lv]:
                out[(v, w)] = line
    return out


# --------------------------------------------------------------------------- tests


def test_source_model_sees_the_package():
    # guards the tests below against passing vacuously on a wrong root
    assert {"xnp", "xnp.tracing.core", "xnp.lax.elementwise", "xnp.numpy_api.creation",
            "xnp.backends.xla.client"} <= set(FILES)
    assert "xnp.tracing.core" in GRAPH["xnp.lax.elementwise"] or "xnp.tracing" in GRAPH[
        "xnp.lax.elementwise"]


def test_no_module_over_max_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in FILES.values()}
    grown = [f"xnp/{f}: {sizes[f]} lines, listed at {n} (split it instead of growing it)"
             for f, n in sorted(OVERSIZED.items()) if sizes.get(f, 0) > n]
    new = [f"xnp/{f}: {n} lines" for f, n in sorted(sizes.items())
           if n > MAX_LINES and f not in OVERSIZED]
    stale = [f"xnp/{f}: now {sizes[f] if f in sizes else 'gone'}; remove it from OVERSIZED"
             for f in sorted(OVERSIZED) if sizes.get(f, 0) <= MAX_LINES]
    assert not grown and not new, (
        f"modules over {MAX_LINES} lines:\n  " + "\n  ".join(grown + new))
    assert not stale, "an oversized module was split, update the list:\n  " + "\n  ".join(stale)


def test_import_cycles_are_the_known_ones():
    actual = set(_strongly_connected_components(GRAPH))
    known = {frozenset(c) for c in KNOWN_CYCLES}
    worse = [c for c in actual - known if not any(c <= k for k in known)]
    assert not worse, "new or grown import cycles (the target is none):\n" + "\n".join(
        f"  {sorted(c)}\n{_cycle_edges(c)}" for c in sorted(worse, key=sorted))
    better = sorted((sorted(k) for k in known - actual))
    assert not better, (
        "import cycles shrank or went away: replace these KNOWN_CYCLES entries by the "
        "components found now:\n" + "\n".join(f"  {k}" for k in better)
        + "\n  found now: " + str(sorted(sorted(c) for c in actual - known)))


def test_imports_follow_the_layer_order():
    actual = _layer_violations()
    new = sorted(set(actual) - KNOWN_LAYER_VIOLATIONS)
    assert not new, "imports against the layer order:\n" + "\n".join(
        f"  {v} -> {w} (line {actual[(v, w)]}; {_layer(v)} may not import {_layer(w)})"
        for v, w in new)
    gone = sorted(KNOWN_LAYER_VIOLATIONS - set(actual))
    assert not gone, "layer violations fixed: remove them from KNOWN_LAYER_VIOLATIONS:\n" + (
        "\n".join(f"  {v} -> {w}" for v, w in gone))
