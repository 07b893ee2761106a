"""Meta-tests: every primitive has its rules and a rule on every backend (or a
declared reason why not); every module declares ``__all__``; layering holds.

The rule kinds of a primitive and where a missing one is declared:

=============  =============================================  ===============================
rule           present when                                   declared reason otherwise
=============  =============================================  ===============================
abstract eval  ``abstract_eval`` or shape + dtype rules       (none: always required)
eager impl     ``prim.impl`` or the numpy backend's table     ``UNSUPPORTED`` of the backend
XLA lowering   ``LOWERINGS``                                  ``UNSUPPORTED`` of the lowering
jvp            ``prim.jvp``                                   ``differentiable="<reason>"``
transpose      ``prim.transpose``, exactly when ``linear``    (a non-linear primitive has none)
batching       ``prim.batch``                                 ``no_batch="<reason>"``
view           ``view=True``: the eager result is a view of   ``view=False`` (declared)
               the first operand (checked on a sample, and
               modelled by ``numpy_api._layout``)
=============  =============================================  ===============================

Every rule is part of the primitive's one declaration (a keyword of
:class:`xnp.tracing.Primitive` or :func:`xnp.lax._kit.primitive`, a rule that binds its
own primitive given as a ``for_primitive``), or one table entry per backend (``XP_IMPLS``,
``LOWERINGS``); ``test_rules_are_declared_not_patched`` finds assignments of rule
attributes anywhere else in the source.

``linear``, ``no_batch`` and ``view`` are fields of every lax declaration
(:func:`xnp.lax._kit.primitive`). ``test_declared_reasons`` prints the table of declared
reasons (``pytest -s`` or ``-rA`` shows it).
"""

import ast
import inspect
import pathlib

import numpy as np
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
# declared by xnp.tracing, not by a lax declaration: no `linear`/`no_batch` fields (the
# call primitive's transpose transposes its body)
TRACING_PRIMS = {jit_p}
LAX_PRIMS = [p for p in PRIMS if p not in TRACING_PRIMS]


def _reason(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _missing_rules(prim) -> dict[str, str]:
    """Rule kind -> the declared reason it is missing (a rule without a reason fails)."""
    out = {}
    if prim.jvp is None:
        out["jvp"] = prim.differentiable
    if prim.batch is None:
        out["batching"] = getattr(prim, "no_batch", None)
    if not (prim.impl is not None or prim in NUMPY_BACKEND.impls):
        out["eager impl"] = NUMPY_BACKEND.unsupported.get(prim)
    if prim not in LOWERINGS:
        out["XLA lowering"] = XLA_UNSUPPORTED.get(prim)
    return out


def test_primitive_set_is_not_empty():
    assert len(PRIMS) > 10


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_primitive_has_abstract_eval(prim):
    assert prim._abstract_eval is not None or (
        prim.shape_rule is not None and prim.dtype_rule is not None), prim.name


@pytest.mark.parametrize("prim", LAX_PRIMS, ids=lambda p: p.name)
def test_primitive_declares_its_fields(prim):
    assert type(getattr(prim, "linear", None)) is bool, (
        f"{prim.name}: declare it with xnp.lax._kit.primitive (field `linear`)")
    no_batch = getattr(prim, "no_batch", "missing")
    assert no_batch is None or _reason(no_batch), f"{prim.name}: no_batch={no_batch!r}"


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_primitive_has_jvp_or_reason(prim):
    if prim.jvp is None:
        assert _reason(prim.differentiable), (
            f"{prim.name} has no jvp rule and no reason (differentiable={prim.differentiable!r})")
    else:
        assert prim.differentiable is True, (
            f"{prim.name} has a jvp rule but declares differentiable={prim.differentiable!r}")


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_transpose_exactly_when_linear(prim):
    linear = True if prim in TRACING_PRIMS else prim.linear
    if linear:
        assert prim.transpose is not None, f"{prim.name} is declared linear but has no transpose"
        assert prim.jvp is not None, f"{prim.name} is declared linear but has no jvp"
    else:
        assert prim.transpose is None, (
            f"{prim.name} has a transpose rule but is not declared linear")


@pytest.mark.parametrize("prim", LAX_PRIMS, ids=lambda p: p.name)
def test_primitive_declares_view(prim):
    view = getattr(prim, "view", False)
    assert view is None or callable(view), (
        f"{prim.name}: declare whether its eager result is a view (view=None, or its "
        "layout rule from xnp.lax._strides)")


def test_view_primitives_are_the_declared_ones():
    from xnp.backends.xp_impls import VIEW_PRIMITIVES

    assert VIEW_PRIMITIVES == {p for p in LAX_PRIMS if p.view}


_REAL = np.arange(6.0).reshape(2, 3)
# (operand, one call) of each primitive declared a view (``view=<layout rule>``)
_VIEW_SAMPLES = {
    "broadcast_in_dim": (_REAL, lambda x: lax.broadcast_in_dim(x, (1, 2, 3), (1, 2))),
    "growing broadcast_in_dim": (_REAL, lambda x: lax.broadcast_in_dim(x, (4, 2, 3), (1, 2))),
    "reshape": (_REAL, lambda x: lax.reshape(x, (3, 2))),
    "squeeze": (_REAL.reshape(1, 2, 3), lambda x: lax.squeeze(x, (0,))),
    "transpose": (_REAL, lambda x: lax.transpose(x, (1, 0))),
    "rev": (_REAL, lambda x: lax.rev(x, (1,))),
    "slice": (_REAL, lambda x: lax.slice(x, (0, 1), (2, 3))),
    "strided slice": (_REAL, lambda x: lax.slice(x, (0, 0), (2, 3), (1, 2))),
    "dynamic_slice": (_REAL, lambda x: lax.dynamic_slice(x, (1, 1), (1, 2))),
    "stop_gradient": (_REAL, lambda x: lax.stop_gradient(x)),
    "real": (_REAL * (1 + 2j), lambda x: lax.real(x)),
    "imag": (_REAL * (1 + 2j), lambda x: lax.imag(x)),
}


# the sample operand (of any dtype) laid out in other ways NumPy's views keep
_LAYOUTS = {
    "C": lambda a: a,
    "reversed": lambda a: a[::-1],
    "Fortran": np.asfortranarray,
    "strided": lambda a: np.repeat(a, 2, axis=-1)[..., ::2],
}


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
@pytest.mark.parametrize("prim", [p for p in LAX_PRIMS if p.view], ids=lambda p: p.name)
def test_view_primitive_returns_a_view_with_its_declared_strides(prim, layout):
    # the layout rule (what numpy_api._layout models a traced value's memory with) gives
    # the strides of the NumPy view the eager backend returns, for operands of several layouts
    samples = [(k, v) for k, v in _VIEW_SAMPLES.items() if k.split()[-1] == prim.name]
    assert samples, f"add a sample call of {prim.name} to _VIEW_SAMPLES"
    for name, (operand, call) in samples:
        operand = _LAYOUTS[layout](operand)
        x = xnp.asarray(operand)
        # the memory xnp holds (NumPy's buffer export normalises a size-1 axis's stride)
        assert x.strides == operand.strides
        (eqn,) = [e for e in xnp.make_jaxpr(call)(x).jaxpr.eqns if e.primitive is prim]
        out = np.asarray(call(x))
        # a reshape NumPy cannot express as a view and a broadcast that grows an axis are
        # copies (the rule gives their strides)
        assert np.shares_memory(out, operand) or name.startswith("growing") or (
            layout != "C" and prim is lax.reshape_p), f"{name}: not a view"
        strides = tuple(s // operand.itemsize for s in operand.strides)
        got = prim.view(eqn.params, operand.shape, strides, eqn.outvars[0].aval.shape)
        want = tuple(s // out.itemsize for s in out.strides)
        keep = [d != 1 for d in out.shape]  # a size-1 axis's stride is arbitrary
        assert got is not None, (name, layout)
        assert [g for g, k in zip(got, keep) if k] == [w for w, k in zip(want, keep) if k], (
            name, layout, got, want)


RULE_ATTRS = ("jvp", "transpose", "batch", "impl", "weak_type_rule", "shape_rule",
              "dtype_rule", "differentiable", "linear", "no_batch", "view")


def test_rules_are_declared_not_patched():
    # no `<expr>.jvp = ...` (or any rule attribute) outside a constructor's own `self.`
    found = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for t in targets:
                if (isinstance(t, ast.Attribute) and t.attr in RULE_ATTRS
                        and not (isinstance(t.value, ast.Name) and t.value.id in ("self", "prim")
                                 and path.name == "_kit.py")
                        and not (isinstance(t.value, ast.Name) and t.value.id == "self")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "rule attributes assigned outside a declaration: " + ", ".join(found)


@pytest.mark.parametrize("prim", PRIMS, ids=lambda p: p.name)
def test_primitive_has_batching_or_reason(prim):
    if prim.batch is None:
        assert _reason(getattr(prim, "no_batch", None)), (
            f"{prim.name} has no batching rule and no no_batch reason")
    else:
        assert getattr(prim, "no_batch", None) is None, (
            f"{prim.name} has a batching rule but declares no_batch={prim.no_batch!r}")


def test_declared_reasons(capsys):
    rows = [(p.name, kind, why) for p in PRIMS for kind, why in _missing_rules(p).items()]
    unexplained = [f"{name}: {kind}" for name, kind, why in rows if not _reason(why)]
    assert not unexplained, "rules missing without a declared reason:\n  " + "\n  ".join(
        unexplained)
    with capsys.disabled():
        print(f"\n{len(rows)} rules declared missing, with their reasons:")
        for name, kind, why in rows:
            print(f"  {name:24} {kind:13} {why}")
    # the reasons in use today (a regression would show here): the collectives run only
    # inside shard_map (no eager impl), integer/bool/piecewise-constant outputs have no jvp
    assert any(kind == "jvp" for _, kind, _ in rows)
    assert all(kind != "abstract eval" for _, kind, _ in rows)


def test_nextafter_jvp_is_the_identity_in_x1():
    # nextafter(x1, x2) is x1 moved by one ulp: derivative 1 in x1, 0 in x2

    x1 = np.array([0.5, -2.0, 1e300, 0.0])
    x2 = np.array([1.0, -3.0, np.inf, -1.0])
    t1 = np.array([1.0, 2.0, -1.5, 4.0])
    t2 = np.array([7.0, 7.0, 7.0, 7.0])
    for f in (lambda a, b, u, v: xnp.jvp(lax.nextafter, (a, b), (u, v)),
              xnp.jit(lambda a, b, u, v: xnp.jvp(lax.nextafter, (a, b), (u, v)))):
        out, tan = f(x1, x2, t1, t2)
        np.testing.assert_array_equal(np.asarray(out), np.nextafter(x1, x2))
        np.testing.assert_array_equal(np.asarray(tan), t1)
    g = xnp.grad(lambda a, b: lax.nextafter(a, b), argnums=(0, 1))(3.0, 1.0)
    assert (float(g[0]), float(g[1])) == (1.0, 0.0)


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
        if isinstance(obj, xnp.ufunc):
            obj = obj._fn
        # a function with a NumPy counterpart is served through xnp.host_dispatch, which
        # wraps its full path (the wrappers keep the definition as __wrapped__)
        assert inspect.unwrap(obj) is inspect.unwrap(getattr(api, name)), name
