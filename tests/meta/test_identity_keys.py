"""No registry keyed by ``id()`` for per-value state (read with ``ast``; nothing is imported).

What xnp knows about one traced value or trace (its live views, its modelled memory
layout, the cell an array written in place is bound to) is kept on that object
(``xnp/tracing/annotations.py``, ``Tracer``/``Array._scope_note``), so it dies with it and
no reused ``id`` can make two objects share it. This test finds every ``id(...)`` used as
a key of a container: a subscript, the first argument of ``get``/``pop``/``setdefault``/
``add``/``discard``/``remove``, a key of a dict display or comprehension, an element of
a set comprehension, the left side of ``in``/``not in``, directly or through a local
name assigned from ``id(...)``. The uses found when the test was written are listed in
``ALLOWED`` with the reason each is safe; the list may only shrink (a new use fails, and
so does a listed one that went away). The modules of traced arrays' aliasing may have
none at all.
"""

from __future__ import annotations

import ast
import pathlib

import xnp

ROOT = pathlib.Path(xnp.__file__).resolve().parent

#: modules that keep per-value state of traced arrays: no ``id()`` key in them at all
NO_ID_KEYS = ("numpy_api/_views.py", "numpy_api/_layout.py", "tracing/rebound.py",
              "tracing/annotations.py")

_HELD = "the container holds every object it is keyed by, so no id is reused while it lives"
_LOCAL = "a local of one call, whose keyed objects the caller holds for the whole call"

#: (module relative to xnp/, enclosing function or <module>, container) -> why it is safe
ALLOWED = {
    ("numpy_api/_replay.py", "_py_signature", "first"): _LOCAL,
    ("tracing/recording.py", "Recording.__init__", "{id(...): ... for ...}"):
        "Recording.keep holds every array of slots (the call's inputs, each recorded result "
        "and constant) until the recording is dropped, so no id is reused while it lives",
    ("tracing/recording.py", "Recording._operands", "self.slots"): "as Recording.__init__",
    ("tracing/recording.py", "Recording._output", "self.slots"): "as Recording.__init__",
    ("tracing/recording.py", "Recording.lifted", "self.slots"): "as Recording.__init__",
    ("tracing/recording.py", "Recording.native_call", "self.slots"): "as Recording.__init__",
    ("tracing/recording.py", "Recording._slot", "self.slots"): "as Recording.__init__",
    ("tracing/recording.py", "Recording.process_primitive", "self.slots"):
        "as Recording.__init__",
    ("backends/xla/compile_cache.py", "_forget", "_KEYS"):
        "_KEYS maps an executable held in _MEMORY to its key and is popped with it (under "
        "_LOCK), so the executable, and its id, lives as long as the entry",
    ("backends/xla/compile_cache.py", "_remember", "_KEYS"): "as _forget",
    ("backends/xla/compile_cache.py", "hold", "_KEYS"): "as _forget",
    ("backends/xla/lowering/module.py", "_ModuleNames.live_value", "self.live"):
        _HELD + " (each entry keeps the array); one module's lowering",
    ("host_dispatch.py", "install", "done"): _LOCAL + " (namespace members at install)",
    ("host_dispatch.py", "install", "replaced"): _HELD + " (each entry keeps the object)",
    ("host_dispatch.py", "install_lazy", "replaced"): _HELD + " (each entry keeps the object)",
    ("ndarray_class.py", "_activate", "{id(...): ... for ...}"):
        "dedupes the module-level ufunc table, which holds every ufunc",
    ("numpy_api/_index_core.py", "_gather_plan", "adv_ids"): _LOCAL + " (index entries)",
    ("numpy_api/_index_core.py", "_gather_plan", "where"): _LOCAL + " (index entries)",
    ("numpy_api/_index_core.py", "_gather_plan", "{id(...) for ...}"): _LOCAL,
    ("numpy_api/iteration.py", "nditer.operands", "given"):
        _LOCAL + " (the iterator holds the given arrays)",
    ("numpy_api/iteration.py", "nditer.operands", "{id(...): ... for ...}"): "as given",
    ("numpy_api/ndarray_internals.py", "wrapper_of", "_WRAPPERS"):
        "a NumPy array takes no attributes and is not hashable, so the xnp Array wrapping "
        "one is found by id; the entry holds a weak reference (dropped by its callback) "
        "and is checked against the array (found._val is value) before use",
    ("numpy_api/ufunc.py", "_build", "made"):
        _HELD + " (each entry keeps the function it was made from)",
    ("numpy_protocols.py", "_from_numpy", "written"): _LOCAL + " (NumPy call's operands)",
    ("numpy_protocols.py", "_function_fallback", "written"): _LOCAL + " (the call's operands)",
    ("numpy_protocols.py", "_restore_out", "by_id"): _LOCAL + " (the call's out= arrays)",
    ("numpy_protocols.py", "_restore_out", "{id(...): ... for ...}"): "as by_id",
    ("numpy_protocols.py", "_ufunc_fallback", "written"): _LOCAL + " (the call's operands)",
    ("tracing/errors.py", "_holders", "{id(...): ... for ...}"):
        _LOCAL + " (sys.modules' namespaces, while a leak message is written)",
    ("tracing/errors.py", "_holders.named_slot", "modules"): "as _holders",
    ("tracing/partial_eval.py", "DynamicJaxprTrace._new_const", "self._const_ids"):
        "the trace keeps every constant in const_values for its lifetime, so no id is "
        "reused while the dict lives",
}

_KEY_METHODS = {"get", "pop", "setdefault", "add", "discard", "remove"}


def _is_id(node, id_names) -> bool:
    if isinstance(node, ast.Name) and node.id in id_names:
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "id" and len(node.args) == 1)


def _id_key_uses(tree) -> set:
    """{(enclosing function qualname or '<module>', container source)} of ``id()`` keys."""
    found = set()

    def scan(body_owner, scope):
        # names assigned from id(...) in this scope (not in nested functions)
        id_names = set()
        nodes = []

        def collect(node):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    scan(child, f"{scope}.{child.name}" if scope != "<module>" else child.name)
                    continue
                nodes.append(child)
                collect(child)

        collect(body_owner)
        for n in nodes:
            if isinstance(n, ast.Assign) and _is_id(n.value, ()) and all(
                    isinstance(t, ast.Name) for t in n.targets):
                id_names.update(t.id for t in n.targets)
        for n in nodes:
            if isinstance(n, ast.Subscript) and _is_id(n.slice, id_names):
                found.add((scope, ast.unparse(n.value)))
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr in _KEY_METHODS and n.args and _is_id(n.args[0], id_names)):
                found.add((scope, ast.unparse(n.func.value)))
            elif isinstance(n, ast.Dict) and any(k is not None and _is_id(k, id_names)
                                                 for k in n.keys):
                found.add((scope, "{id(...): ...}"))
            elif isinstance(n, ast.DictComp) and _is_id(n.key, id_names):
                found.add((scope, "{id(...): ... for ...}"))
            elif isinstance(n, ast.SetComp) and _is_id(n.elt, id_names):
                found.add((scope, "{id(...) for ...}"))
            elif (isinstance(n, ast.Compare) and _is_id(n.left, id_names)
                  and any(isinstance(o, (ast.In, ast.NotIn)) for o in n.ops)):
                found.add((scope, ast.unparse(n.comparators[0])))

    scan(tree, "<module>")
    return found


def _all_uses() -> set:
    uses = set()
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for scope, container in _id_key_uses(ast.parse(path.read_text())):
            uses.add((rel, scope, container))
    return uses


def test_scanner_finds_id_keys():
    """The scanner sees each form of an id() key (so an empty result means none)."""
    src = '''
REG = {}
def f(x, d, s):
    REG[id(x)] = 1
    d.get(id(x))
    k = id(x)
    s.add(k)
    if k in d:
        pass
    return {id(x): 1}, {id(v): v for v in d}, {id(v) for v in d}
class C:
    def m(self, x):
        return self.t.pop(id(x), None)
def g(x, d):
    return d[x], x in d, repr(id(x))
'''
    got = _id_key_uses(ast.parse(src))
    assert got == {("f", "REG"), ("f", "d"), ("f", "s"), ("f", "{id(...): ...}"),
                   ("f", "{id(...): ... for ...}"), ("f", "{id(...) for ...}"),
                   ("C.m", "self.t")}, got


def test_aliasing_modules_have_no_id_keys():
    uses = {u for u in _all_uses() if u[0] in NO_ID_KEYS}
    assert not uses, f"id() keys in the modules of traced arrays' aliasing: {sorted(uses)}"
    for rel in NO_ID_KEYS:
        tree = ast.parse((ROOT / rel).read_text())
        calls = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == "id"]
        assert not calls, f"xnp/{rel} calls id() (lines {calls}): keep state on the object"
        for node in tree.body:  # no module-level dict at all (a registry would be one)
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            assert not isinstance(value, (ast.Dict, ast.DictComp)) and not (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id == "dict"), f"xnp/{rel}:{node.lineno}: a module-level dict"


def test_id_keys_are_the_allowed_ones():
    uses = _all_uses()
    new = sorted(uses - set(ALLOWED))
    gone = sorted(set(ALLOWED) - uses)
    assert not new, ("id() used as a container key (keep per-object state on the object, "
                     f"or list it in ALLOWED with the reason it is safe): {new}")
    assert not gone, f"listed in ALLOWED but no longer found (remove them): {gone}"
    assert all(isinstance(r, str) and r for r in ALLOWED.values())
