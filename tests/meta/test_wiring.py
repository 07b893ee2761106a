"""The layers above ``xnp.tracing`` are connected to it in one place, ``xnp._wiring.connect``.

(a) After ``import xnp`` every hook of the tracing layer holds what the layers above
    define (listed below), and no hook anywhere in ``xnp.tracing`` is still a
    ``not_connected`` stand-in.
(b) No module but ``xnp._wiring`` reaches a ``register_*`` function of ``xnp.tracing``
    from code that runs at import (module level, class bodies, decorators, defaults),
    directly or through the functions it calls (read with ``ast``): what an import does
    never depends on what was imported before. The public ``register_pytree_node`` and
    ``register_dataclass`` (a pytree registry for users' and xnp's classes, not a hook)
    are exempt.
(c) The tracing layer alone (the package ``xnp`` not initialised, so ``connect`` not run)
    raises ``RuntimeError`` naming the missing connection from each hook.
(d) Importing any one submodule first (``import xnp.lax``) connects everything, as
    ``import xnp`` does: Python initialises the package before its submodules.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

import pytest

import xnp
from xnp import _wiring, ndarray_class
from xnp.array import ArrayMethods
from xnp.backends import numpy as numpy_backend
from xnp.backends import xla as xla_backend
from xnp.backends.xla import eager as xla_eager
from xnp.lax import _transform_ops as transform_ops
from xnp.numpy_api import _fastpath, _views
from xnp.numpy_api._fast_tables import FAST_OPS
from xnp.tracing import ad, array_base, batching, core, errors, rebound

ROOT = pathlib.Path(xnp.__file__).resolve().parent
jit_module = sys.modules["xnp.tracing.jit"]  # ``xnp.tracing.jit`` is the function

# --------------------------------------------------------------------------- (a) connected

# hook -> (what it holds after import xnp, what it must be)
CONNECTIONS = {
    "core: eager backend 'numpy'": (lambda: core._EAGER_BACKENDS.get("numpy"),
                                    numpy_backend.BACKEND),
    "core: eager backend 'xla'": (lambda: core._EAGER_BACKENDS.get("xla"), xla_eager.BACKEND),
    "jit: jit backend": (lambda: type(jit_module._JIT_BACKEND[0]), xla_backend.XlaJitBackend),
    "ad: tangent add": (lambda: ad._OPS["add"], transform_ops.add_any),
    "ad: tangent zeros": (lambda: ad._OPS["zeros"], transform_ops.zeros),
    "ad: tangent convert": (lambda: ad._OPS["convert"], transform_ops.convert),
    "batching: moveaxis": (lambda: batching._OPS["moveaxis"], transform_ops.moveaxis),
    "batching: broadcast": (lambda: batching._OPS["broadcast"], transform_ops.broadcast_along),
    "batching: sum_axis": (lambda: batching._OPS["sum_axis"], transform_ops.sum_axis),
    "array_base: ndarray constructor": (lambda: array_base._CONSTRUCTOR[0],
                                        ndarray_class.construct),
    "array_base: subclass hook": (lambda: array_base._SUBCLASS_HOOK[0],
                                  ndarray_class.on_subclass),
    "Tracer: shared methods": (lambda: core.Tracer.sum, ArrayMethods.sum),
    "eager fast path on": (lambda: _fastpath._TABLE[0], FAST_OPS),
}


@pytest.mark.parametrize("hook", sorted(CONNECTIONS))
def test_every_hook_is_connected_after_import(hook):
    held, want = CONNECTIONS[hook]
    assert held() is want, f"{hook}: holds {held()!r}, want {want!r}"


def test_array_install_gives_both_classes_every_member_of_its_tables():
    # array.install is the one composition step of Array's and Tracer's behaviour (they
    # are defined in the tracing layer, below the methods they get): every shared member
    # is on Tracer as it is, and on Array (wrapped by fast paths, or, for the operators
    # served in C, removed so that ArrayBase's number slot is called); every eager
    # protocol is on Array
    array_module = sys.modules["xnp.array"]  # ``xnp.array`` is the function
    shared = array_module.shared_members()
    assert {"sum", "__add__", "__getitem__", "reshape", "T", "astype"} <= set(shared)
    native = set(_fastpath.NATIVE_OPERATORS) | {
        "__r" + n[2:] for n in _fastpath.NATIVE_OPERATORS}
    native_built = array_base.FastFunc is not None
    for name, member in shared.items():
        if name != "__hash__":  # Tracer's own, restored (assigning __eq__ unsets it)
            assert core.Tracer.__dict__.get(name) is member, name
        if native_built and name in native:
            assert name not in core.Array.__dict__ and getattr(core.Array, name) is getattr(
                array_base.ArrayBase, name), name
        else:
            assert name in core.Array.__dict__, name
    for name in array_module.EAGER_PROTOCOLS:
        assert name in core.Array.__dict__, name
    assert core.Tracer.device is not None and core.Tracer.to_device is not None


def test_the_eager_backends_are_those_the_option_accepts():
    assert sorted(core._EAGER_BACKENDS) == sorted(xnp.config.EAGER_BACKENDS)


def _values(obj):
    if isinstance(obj, dict):
        return list(obj.values())
    if isinstance(obj, (list, tuple)):
        return list(obj)
    return [obj]


def test_no_hook_of_the_tracing_layer_is_left_unconnected():
    modules = {n: m for n, m in sys.modules.items() if n.startswith("xnp.tracing.")}
    assert len(modules) > 15  # every module of the layer is imported by import xnp
    left = [f"{n}.{k}" for n, m in modules.items() for k, v in vars(m).items()
            if any(errors.is_unconnected(x) for x in _values(v))]
    assert not left, f"hooks still unconnected after import xnp: {left}"


def test_connect_runs_once():
    before = dict(core._EAGER_BACKENDS), ad._OPS["add"], core.Tracer.__add__
    _wiring.connect()  # a second call changes nothing (array.install would wrap again)
    assert (dict(core._EAGER_BACKENDS), ad._OPS["add"], core.Tracer.__add__) == before


# --------------------------------------------------------------------------- (b) the AST check

# public registries of xnp.tracing that are not hooks: calling them at import is fine
PUBLIC_REGISTRIES = {("xnp.tracing.pytree", "register_pytree_node"),
                     ("xnp.tracing.pytree", "register_dataclass")}
COMPOSITION_ROOT = "xnp._wiring"


def _module_name(root: pathlib.Path, path: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _Source:
    """The ``xnp`` package under ``root`` as ``ast`` trees, with the names each module
    binds at top level (its functions, and what it imports from other xnp modules)."""

    def __init__(self, root: pathlib.Path):
        self.trees = {_module_name(root, p): ast.parse(p.read_text(), str(p))
                      for p in sorted(root.rglob("*.py"))}
        self.packages = {_module_name(root, p) for p in root.rglob("__init__.py")}
        self.functions = {m: {n.name: n for n in t.body
                              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
                          for m, t in self.trees.items()}
        self.bindings = {m: self._bindings(m, t) for m, t in self.trees.items()}

    def _bindings(self, module, tree):
        """local name -> ("module", name) or ("attr", module, name), from top-level and
        function-level imports alike (a name imported in a function is bound there)."""
        package = module if module in self.packages else module.rpartition(".")[0]
        out = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("xnp"):
                        out[a.asname or a.name.partition(".")[0]] = (
                            ("module", a.name) if a.asname else ("module", "xnp"))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                if not (base == "xnp" or base.startswith("xnp.")):
                    continue
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    out[a.asname or a.name] = (("module", sub) if sub in self.trees
                                               else ("attr", base, a.name))
        return out

    def resolve(self, module, name, depth=0):
        """(module, function) that ``name`` in ``module`` is, or None."""
        if depth > 10 or module not in self.trees:
            return None
        if name in self.functions[module]:
            return module, name
        b = self.bindings[module].get(name)
        if b is None or b[0] == "module":
            return None
        return self.resolve(b[1], b[2], depth + 1)

    def resolve_call(self, module, func):
        """(module, function) a call's ``func`` expression names, or None."""
        if isinstance(func, ast.Name):
            return self.resolve(module, func.id)
        if isinstance(func, ast.Attribute):
            chain = []
            while isinstance(func, ast.Attribute):
                chain.append(func.attr)
                func = func.value
            if not isinstance(func, ast.Name):
                return None
            b = self.bindings[module].get(func.id)
            if b is None or b[0] != "module":
                return None
            target = b[1]
            for attr in reversed(chain[1:]):  # xnp.a.b.f(): walk the submodules
                if f"{target}.{attr}" not in self.trees:
                    return None
                target = f"{target}.{attr}"
            return self.resolve(target, chain[0])
        return None


def _calls_at_import(tree):
    """The calls of code that runs when the module is imported: statements at module
    level and in class bodies, decorators, default values; not function bodies."""
    def calls(node):
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Call):
                yield n
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stack.extend(n.decorator_list)
                stack.extend(n.args.defaults)
                stack.extend(d for d in n.args.kw_defaults if d is not None)
                continue
            if isinstance(n, ast.Lambda):
                continue
            stack.extend(ast.iter_child_nodes(n))

    for stmt in tree.body:
        yield from calls(stmt)


def _calls_in(fn):
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call)]


def import_time_registrations(root: pathlib.Path):
    """``module:line -> ... -> register_x`` for every chain of calls from import-time code
    outside the composition root to a ``register_*`` function of ``xnp.tracing``."""
    src = _Source(root)
    registers = {(m, f) for m, fns in src.functions.items() if m.startswith("xnp.tracing")
                 for f in fns if f.startswith("register_")} - PUBLIC_REGISTRIES
    found = []
    for module, tree in src.trees.items():
        if module == COMPOSITION_ROOT:
            continue
        for call in _calls_at_import(tree):
            start = f"{module}:{call.lineno}"
            stack, seen = [(src.resolve_call(module, call.func), [start])], set()
            while stack:
                target, path = stack.pop()
                if target is None or target in seen or target[0] == COMPOSITION_ROOT:
                    continue
                seen.add(target)
                path = [*path, f"{target[0]}.{target[1]}"]
                if target in registers:
                    found.append(" -> ".join(path))
                    continue
                for inner in _calls_in(src.functions[target[0]][target[1]]):
                    stack.append((src.resolve_call(target[0], inner.func), path))
    return sorted(found)


def test_the_tracing_layer_is_connected_only_by_the_composition_root():
    found = import_time_registrations(ROOT)
    assert not found, ("import-time registrations outside xnp/_wiring.py (make them in "
                       "xnp._wiring.connect):\n  " + "\n  ".join(found))


def test_the_ast_check_finds_import_time_registrations(tmp_path):
    """The check above on a package written for it: a direct call, one through a local
    function, one through another module's function, one in a class body; and what it
    must not report (function bodies not called at import, the composition root, the
    public pytree registry)."""
    pkg = tmp_path / "xnp"
    (pkg / "tracing").mkdir(parents=True)
    files = {
        "__init__.py": "from xnp import _wiring, a, b\n_wiring.connect()\n",
        "tracing/__init__.py": "",
        "tracing/hooks.py": "def register_thing(fn):\n    pass\n",
        "tracing/pytree.py": "def register_pytree_node(cls, f, g):\n    pass\n",
        "_wiring.py": "from xnp.tracing.hooks import register_thing\n"
                      "def connect():\n    register_thing(print)\n",
        "a.py": "from xnp.tracing import hooks\nfrom xnp.tracing.pytree import "
                "register_pytree_node\nhooks.register_thing(len)\n"
                "register_pytree_node(int, len, len)\n"
                "def later():\n    hooks.register_thing(len)\n"
                "def install():\n    hooks.register_thing(len)\n",
        "b.py": "from xnp import a\nfrom xnp.tracing.hooks import register_thing as r\n"
                "def _setup():\n    a.install()\n_setup()\n"
                "class C:\n    r(len)\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(textwrap.dedent(text))
    assert import_time_registrations(pkg) == [
        "xnp.a:3 -> xnp.tracing.hooks.register_thing",
        "xnp.b:5 -> xnp.b._setup -> xnp.a.install -> xnp.tracing.hooks.register_thing",
        "xnp.b:7 -> xnp.tracing.hooks.register_thing",
    ]


# --------------------------------------------------------------------------- (c) unconnected

_UNCONNECTED_SCRIPT = r"""
import sys, types
import numpy as np
pkg = types.ModuleType("xnp")  # the package without its __init__: xnp._wiring.connect not run
pkg.__path__ = [ROOT]
sys.modules["xnp"] = pkg
import xnp.tracing
from xnp.tracing import ad, array_base, batching, core
from xnp.tracing.avals import ShapedArray
assert "xnp._wiring" not in sys.modules and "xnp.lax" not in sys.modules
jit = sys.modules["xnp.tracing.jit"]
aval = ShapedArray((2,), np.dtype(np.float32))
checks = {
    "the eager backend": [lambda: core.eager_backend(),
                          lambda: core.lift(np.ones(2))],
    "the jit backend": [lambda: xnp.tracing.jit(lambda x: (x, x))(np.ones(2))],
    "the tangent arithmetic of xnp.tracing.ad": [
        lambda: ad.zeros_like_aval(aval), lambda: ad.add_tangents(1, 2),
        lambda: ad.convert_tangent(1, aval)],
    "the batch-axis operations of xnp.tracing.batching": [
        lambda: batching.moveaxis(1, 0, 1), lambda: batching.broadcast_batched(1, 2, 0),
        lambda: batching.sum_batched(1, 0)],
    "NumPy's ndarray constructor and subclass protocol": [
        lambda: array_base.subclass_hook(type("Sub", (), {})),
        lambda: core.Array((2, 3)), lambda: core.Array([2]),
        lambda: core.Array(np.ones(2), dtype=np.float32)],
}
for what, calls in checks.items():
    for call in calls:
        try:
            call()
        except RuntimeError as e:
            msg = str(e)
            assert msg.startswith(f"xnp: {what} is not connected (") and msg.endswith(
                "`import xnp` connects it"), msg
        else:
            raise AssertionError(f"{what}: no error")
print("ok", len(checks))
"""


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=str(ROOT.parent))
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_each_hook_raises_naming_what_is_missing_when_unconnected():
    out = _run(_UNCONNECTED_SCRIPT.replace("[ROOT]", repr([str(ROOT)])))
    assert out.split() == ["ok", "5"]


# --------------------------------------------------------------------------- (d) one submodule

_SUBMODULE_SCRIPT = r"""
import sys
import numpy as np
import MODULE
xnp = sys.modules["xnp"]
assert sys.modules["xnp._wiring"]._CONNECTED[0]
from xnp.numpy_api import _fastpath
from xnp.numpy_api._fast_tables import FAST_OPS
assert _fastpath._TABLE[0] is FAST_OPS
l = sys.modules["xnp.lax"]
x = np.arange(4.0)
a = l.mul(xnp.asarray(x), 2.0)  # eager, through the NumPy backend
np.testing.assert_array_equal(np.asarray(a), x * 2.0)
f = xnp.jit(lambda v: l.sin(v) * v)
np.testing.assert_allclose(np.asarray(f(a)), np.sin(x * 2) * x * 2, rtol=1e-15)
g = xnp.grad(lambda v: l.reduce_sum(l.sin(v) * v, (0,)))(a)
np.testing.assert_allclose(np.asarray(g), np.sin(x * 2) + x * 2 * np.cos(x * 2), rtol=1e-15)
v = xnp.vmap(lambda r: l.reduce_sum(r, (0,)))(xnp.asarray(x.reshape(2, 2)))
np.testing.assert_array_equal(np.asarray(v), x.reshape(2, 2).sum(1))
b = xnp.zeros(3)
view = b[1:]
view[0] = 5.0  # NumPy's views (numpy_api) and the ndarray constructor (ndarray_class)
assert b.tolist() == [0.0, 5.0, 0.0] and xnp.ndarray((2,)).shape == (2,)
print("ok")
"""


@pytest.mark.parametrize("module", ["xnp.lax", "xnp.tracing.core", "xnp.backends.xla",
                                    "xnp.extend"])
def test_importing_one_submodule_first_connects_everything(module):
    assert _run(_SUBMODULE_SCRIPT.replace("MODULE", module)).split()[-1] == "ok"
