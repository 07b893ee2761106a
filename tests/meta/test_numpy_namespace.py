"""NumPy's public namespace against xnp's.

Every public name of ``numpy``, its submodules, ``numpy.random.Generator`` and
``numpy.ndarray`` either exists in xnp or is listed in ``xnp/_numpy_names_left_out.py``
with the reason it is left out; a name that exists must accept NumPy's parameters
(names and kinds, where ``inspect.signature`` can read NumPy's) or be listed there
with the reason it does not. Both lists must stay true: a listed name that xnp now
has, or whose signature now fits, fails the test.

``python tests/meta/test_numpy_namespace.py`` prints the counts per namespace.
"""

from __future__ import annotations

import inspect
import types

import numpy
import pytest

import xnp
from xnp._numpy_names_left_out import LEFT_OUT, SIGNATURE_DEVIATIONS

P = inspect.Parameter

# the namespaces walked: "" is the main namespace; classes are walked as namespaces too
NAMESPACES = [
    "", "random", "random.Generator", "ndarray", "linalg", "fft",
    "lib", "lib.array_utils", "lib.format", "lib.introspect", "lib.mixins", "lib.npyio",
    "lib.scimath", "lib.stride_tricks", "testing", "testing.overrides", "emath",
    "exceptions", "dtypes", "typing", "polynomial", "polynomial.polynomial",
    "polynomial.chebyshev", "polynomial.hermite", "polynomial.hermite_e",
    "polynomial.laguerre", "polynomial.legendre", "polynomial.polyutils", "ma", "char",
    "strings", "rec",
]

_MISSING = object()


def _get(root, dotted: str):
    obj = root
    for part in dotted.split(".") if dotted else ():
        obj = getattr(obj, part, _MISSING)
        if obj is _MISSING:
            return _MISSING
    return obj


def _qualified(ns: str, name: str) -> str:
    return f"{ns}.{name}" if ns else name


def _public_names(obj) -> list[str]:
    # dir() as a user sees it, less private names and modules that are not NumPy's
    out = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        value = getattr(obj, name, None)
        if isinstance(value, types.ModuleType) and not value.__name__.startswith("numpy"):
            continue
        out.append(name)
    return sorted(out)


def _covered_by_missing_parent(qualified: str) -> str | None:
    parts = qualified.split(".")
    for i in range(1, len(parts)):
        parent = ".".join(parts[:i])
        if parent in LEFT_OUT:
            return parent
    return None


def _walk():
    """(qualified name, NumPy's object, xnp's object or _MISSING) for every public
    NumPy name in a walked namespace that xnp has (namespaces xnp lacks are skipped)."""
    for ns in NAMESPACES:
        np_obj, x_obj = _get(numpy, ns), _get(xnp, ns)
        if np_obj is _MISSING or x_obj is _MISSING:
            continue
        for name in _public_names(np_obj):
            yield _qualified(ns, name), getattr(np_obj, name), getattr(x_obj, name, _MISSING)


ENTRIES = list(_walk())


def _signature(f):
    try:
        return inspect.signature(f)
    except (TypeError, ValueError):
        return None


def signature_problems(np_f, x_f) -> list[str]:
    """What of NumPy's call signature ``x_f`` does not accept; empty when it fits or
    when NumPy's signature cannot be read.

    NumPy's positional parameters must be accepted positionally and land on the
    parameter of the same name (positional-only ones: on any name); each of its
    keyword-capable parameters must exist in ``x_f`` by name as keyword-capable (or
    ``x_f`` takes ``**kwargs``); ``*args``/``**kwargs`` must exist when NumPy's has
    them; and a call with only NumPy's required arguments must bind.
    """
    ns, xs = _signature(np_f), _signature(x_f)
    if ns is None:
        return []
    if xs is None:
        return ["xnp's signature cannot be read"]
    out = []
    xparams = xs.parameters
    xkinds = {p.kind for p in xparams.values()}
    positional = [p for p in ns.parameters.values()
                  if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    marks = [object() for _ in positional]
    try:
        bound = xs.bind_partial(*marks).arguments
    except TypeError:
        out.append(f"does not take NumPy's {len(positional)} positional arguments")
    else:
        lands = {id(v): k for k, v in bound.items() if xparams[k].kind is not P.VAR_POSITIONAL}
        for p, mark in zip(positional, marks):
            got = lands.get(id(mark))
            if p.kind is P.POSITIONAL_OR_KEYWORD and got is not None and got != p.name:
                out.append(f"positional {p.name!r} lands on {got!r}")
    for p in ns.parameters.values():
        if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY):
            q = xparams.get(p.name)
            if q is None and P.VAR_KEYWORD not in xkinds:
                out.append(f"no parameter {p.name!r}")
            elif q is not None and q.kind not in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY):
                out.append(f"{p.name!r} is {q.kind.description}")
        elif p.kind not in xkinds and p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD):
            out.append(f"no {'*' if p.kind is P.VAR_POSITIONAL else '**'}{p.name}")
    required = [object() for p in positional if p.default is P.empty]
    required_kw = {p.name: 0 for p in ns.parameters.values()
                   if p.kind is P.KEYWORD_ONLY and p.default is P.empty}
    try:
        xs.bind(*required, **required_kw)
    except TypeError as exc:
        out.append(f"NumPy's required arguments alone do not bind: {exc}")
    return out


def _signature_entries():
    for qualified, np_obj, x_obj in ENTRIES:
        if x_obj is _MISSING or x_obj is np_obj or not callable(np_obj):
            continue
        if isinstance(np_obj, types.ModuleType):
            continue
        yield qualified, np_obj, x_obj


SIGNATURES = {q: signature_problems(a, b) for q, a, b in _signature_entries()}


# --------------------------------------------------------------------------- tests


def test_the_walk_sees_numpy():
    # guards against a vacuous pass (a walk that found nothing)
    assert len(ENTRIES) > 400
    assert {"sum", "random.default_rng", "ndarray.reshape"} <= {q for q, _, _ in ENTRIES}


def test_every_numpy_name_is_in_xnp_or_listed():
    missing = [q for q, _, x in ENTRIES if x is _MISSING and q not in LEFT_OUT]
    assert not missing, (
        f"{len(missing)} public NumPy names are neither in xnp nor in "
        "xnp/_numpy_names_left_out.py (add them, or list them with the reason):\n  "
        + " ".join(missing))


def test_listed_names_are_still_missing():
    present = {q for q, _, x in ENTRIES if x is not _MISSING}
    now_there = sorted(q for q in LEFT_OUT if q in present or (
        _get(xnp, q) is not _MISSING and _get(numpy, q) is not _MISSING))
    assert not now_there, (
        "xnp now has these listed names: remove them from xnp/_numpy_names_left_out.py:\n  "
        + " ".join(now_there))


def test_listed_names_are_numpy_names():
    qualified = {q for q, _, _ in ENTRIES}
    unknown = sorted(q for q in LEFT_OUT
                     if q not in qualified and _covered_by_missing_parent(q) is None)
    assert not unknown, f"listed names NumPy does not have: {unknown}"
    redundant = sorted(q for q in LEFT_OUT if _covered_by_missing_parent(q) is not None)
    assert not redundant, f"listed under a missing parent (list the parent only): {redundant}"


def test_signatures_accept_numpys_or_are_listed():
    bad = {q: p for q, p in SIGNATURES.items() if p and q not in SIGNATURE_DEVIATIONS}
    assert not bad, "signatures that do not accept NumPy's (fix, or list with a reason):\n" + (
        "\n".join(f"  {q}: {'; '.join(p)}" for q, p in sorted(bad.items())))


def test_listed_signature_deviations_are_still_deviations():
    fixed = sorted(q for q in SIGNATURE_DEVIATIONS if not SIGNATURES.get(q))
    assert not fixed, (
        "these listed signatures now accept NumPy's (or the name is gone): remove them "
        "from SIGNATURE_DEVIATIONS:\n  " + " ".join(fixed))


@pytest.mark.parametrize("np_f,x_f,ok", [
    (lambda a, axis=None, *, keepdims=False: 0, lambda a, axis=None, keepdims=False: 0, True),
    (lambda a, axis=None: 0, lambda a, b, axis=None: 0, False),        # requires more
    (lambda a, axis=None: 0, lambda a, /, axis=None: 0, False),        # `a` positional-only
    (lambda a, /, axis=None: 0, lambda x, /, axis=None: 0, True),      # any positional name
    (lambda a, b=None: 0, lambda a, c=None, b=None: 0, False),         # b lands on c
    (lambda *args, k=1: 0, lambda *xs, k=1, **kw: 0, True),
    (lambda *args: 0, lambda a: 0, False),
    (lambda a, **kw: 0, lambda a, *, k=None: 0, False),
])
def test_signature_rule(np_f, x_f, ok):
    assert (not signature_problems(np_f, x_f)) is ok, signature_problems(np_f, x_f)


def test_missing_attribute_names_the_reason():
    with pytest.raises(AttributeError, match="NumPy's C API"):
        xnp.get_include  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        xnp.no_such_name  # noqa: B018


def counts() -> dict[str, tuple[int, int, int]]:
    """namespace -> (NumPy names, present in xnp, listed); a namespace xnp lacks as a
    whole counts its names as listed."""
    out = {}
    for ns in NAMESPACES:
        np_obj = _get(numpy, ns)
        if np_obj is _MISSING:
            continue
        names = _public_names(np_obj)
        x_obj = _get(xnp, ns)
        present = 0 if x_obj is _MISSING else sum(hasattr(x_obj, n) for n in names)
        out[ns or "numpy"] = (len(names), present, len(names) - present)
    return out


if __name__ == "__main__":
    for ns, (total, present, listed) in counts().items():
        print(f"{ns:24} {total:4} names, {present:4} in xnp, {listed:4} listed")
