"""Pytrees (``xnp.tree_util``): nested tuples, lists, dicts, namedtuples, None,
registered dataclasses and registered custom nodes, flattened to a list of
leaves and a hashable ``PyTreeDef``.

Dict keys are flattened in sorted order; ``None`` is an empty node (no leaf).
"""

from __future__ import annotations

import collections
import dataclasses
from typing import Any, Callable

__all__ = [
    "PyTreeDef",
    "tree_flatten",
    "tree_unflatten",
    "tree_leaves",
    "tree_structure",
    "tree_map",
    "tree_flatten_with_path",
    "register_pytree_node",
    "register_dataclass",
    "keystr",
]


class _NodeType:
    __slots__ = ("cls", "flatten", "unflatten", "keys")

    def __init__(self, cls, flatten, unflatten, keys=None):
        self.cls = cls
        self.flatten = flatten  # obj -> (children, aux)
        self.unflatten = unflatten  # (aux, children) -> obj
        self.keys = keys  # (obj, aux) -> list of path entries, or None


_REGISTRY: dict[type, _NodeType] = {}


def register_pytree_node(cls: type, flatten_func: Callable, unflatten_func: Callable) -> None:
    """Register ``cls`` as a pytree node.

    ``flatten_func(obj) -> (children, aux_data)`` (aux_data hashable);
    ``unflatten_func(aux_data, children) -> obj``.

    Raises
    ------
    ValueError
        ``cls`` is already registered.
    """
    if cls in _REGISTRY:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {cls}.")
    _REGISTRY[cls] = _NodeType(cls, flatten_func, unflatten_func)


def register_dataclass(cls=None, *, data_fields=None, meta_fields=None):
    """Register a dataclass: ``data_fields`` are children, ``meta_fields`` static aux data.

    Without field lists, every field is a data field. Usable as a decorator.
    """

    def register(c):
        if not dataclasses.is_dataclass(c):
            raise TypeError(f"register_dataclass: {c} is not a dataclass")
        data = list(data_fields) if data_fields is not None else [
            f.name for f in dataclasses.fields(c) if f.name not in (meta_fields or ())]
        meta = list(meta_fields or ())

        def flatten(obj):
            return [getattr(obj, n) for n in data], tuple(getattr(obj, n) for n in meta)

        def unflatten(aux, children):
            return c(**dict(zip(data, children)), **dict(zip(meta, aux)))

        if c in _REGISTRY:
            raise ValueError(f"Duplicate custom PyTreeDef type registration for {c}.")
        _REGISTRY[c] = _NodeType(c, flatten, unflatten,
                                 keys=lambda obj, aux: [f".{n}" for n in data])
        return c

    return register if cls is None else register(cls)


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


class PyTreeDef:
    """The structure of a pytree; hashable and comparable (usable in cache keys)."""

    __slots__ = ("_node", "_children", "_aux", "num_leaves", "_hash", "_builder")

    # _node: None for a leaf, else the node's type key
    def __init__(self, node, aux, children):
        self._node = node
        self._aux = aux
        self._children = tuple(children)
        self.num_leaves = 1 if node is None else sum(c.num_leaves for c in self._children)
        self._hash = hash((node, aux, self._children))
        self._builder = None

    def __eq__(self, other):
        return (isinstance(other, PyTreeDef) and self._node == other._node
                and self._aux == other._aux and self._children == other._children)

    def __hash__(self):
        return self._hash

    def unflatten(self, leaves):
        it = iter(leaves)
        out = self._build(it)
        rest = list(it)
        if rest:
            raise ValueError(f"Too many leaves for PyTreeDef; expected {self.num_leaves}.")
        return out

    def builder(self) -> Callable:
        """A function ``leaves -> tree`` equal to ``unflatten`` for a list of exactly
        ``num_leaves`` leaves (not checked), built once per treedef: trees of tuples,
        lists, dicts and None are rebuilt by one generated expression (the hot path of a
        cached jitted call returning a pytree); other nodes use ``unflatten``."""
        b = self._builder
        if b is None:
            consts: list = []
            expr = self._expr(iter(range(self.num_leaves)), consts)
            if expr is None:
                b = self.unflatten
            else:
                names = {f"_k{i}": c for i, c in enumerate(consts)}
                b = eval(f"lambda L: {expr}", names)  # noqa: S307  (built from indices only)
            self._builder = b
        return b

    def _expr(self, it, consts):
        """The Python expression rebuilding this node from ``L`` (None: not expressible)."""
        node = self._node
        if node is None:
            return f"L[{next(it)}]"
        if node == "none":
            return "None"
        kids = [c._expr(it, consts) for c in self._children]
        if any(k is None for k in kids):
            return None
        if node is tuple:
            return "(" + "".join(k + ", " for k in kids) + ")"
        if node is list:
            return "[" + ", ".join(kids) + "]"
        if node is dict:
            items = []
            for key, k in zip(self._aux, kids):
                consts.append(key)
                items.append(f"_k{len(consts) - 1}: {k}")
            return "{" + ", ".join(items) + "}"
        return None

    def _build(self, it):
        node = self._node
        if node is None:
            try:
                return next(it)
            except StopIteration:
                raise ValueError(f"Too few leaves for PyTreeDef; expected {self.num_leaves}.") from None
        children = [c._build(it) for c in self._children]
        if node == "none":
            return None
        if node is tuple:
            return tuple(children)
        if node is list:
            return children
        if node in (dict, collections.OrderedDict):
            return node(zip(self._aux, children))
        if node == "namedtuple":
            return self._aux(*children)
        return _REGISTRY[node].unflatten(self._aux, children)

    def __repr__(self):
        return f"PyTreeDef({self._repr()})"

    def _repr(self):
        node = self._node
        if node is None:
            return "*"
        inner = [c._repr() for c in self._children]
        if node == "none":
            return "None"
        if node is tuple:
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        if node is list:
            return "[" + ", ".join(inner) + "]"
        if node in (dict, collections.OrderedDict):
            return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(self._aux, inner)) + "}"
        name = self._aux.__name__ if node == "namedtuple" else node.__name__
        return f"{name}(" + ", ".join(inner) + ")"


_LEAF = PyTreeDef(None, None, ())


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        raise ValueError(
            "xnp.tree_util: the keys of a dict pytree must be sortable (they are flattened in "
            f"sorted order); got keys {list(d)!r}. Use an OrderedDict to keep insertion order."
        ) from None


def _flatten(x, leaves, paths, path, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        if paths is not None:
            paths.append(path)
        return _LEAF
    t = type(x)
    if x is None:
        return PyTreeDef("none", None, ())
    if t is tuple or t is list:
        kids = [_flatten(c, leaves, paths, path + (f"[{i}]",), is_leaf) for i, c in enumerate(x)]
        return PyTreeDef(t, None, kids)
    if t is dict or t is collections.OrderedDict:
        keys = _sorted_keys(x) if t is dict else list(x)
        kids = [_flatten(x[k], leaves, paths, path + (f"[{k!r}]",), is_leaf) for k in keys]
        return PyTreeDef(t, tuple(keys), kids)
    if _is_namedtuple(x):
        kids = [_flatten(getattr(x, f), leaves, paths, path + (f".{f}",), is_leaf)
                for f in t._fields]
        return PyTreeDef("namedtuple", t, kids)
    node = _REGISTRY.get(t)
    if node is not None:
        children, aux = node.flatten(x)
        children = list(children)
        names = node.keys(x, aux) if node.keys else [f"[<flat index {i}>]" for i in range(len(children))]
        kids = [_flatten(c, leaves, paths, path + (n,), is_leaf) for c, n in zip(children, names)]
        return PyTreeDef(t, aux, kids)
    leaves.append(x)
    if paths is not None:
        paths.append(path)
    return _LEAF


def tree_flatten(tree: Any, is_leaf: Callable | None = None):
    """``(leaves, treedef)`` of ``tree``; anything not a registered node is a leaf."""
    leaves: list = []
    return leaves, _flatten(tree, leaves, None, (), is_leaf)


def tree_flatten_with_path(tree: Any, is_leaf: Callable | None = None):
    """``([(path, leaf), ...], treedef)``; a path is a tuple of strings like ``"[0]"``, ``".x"``."""
    leaves: list = []
    paths: list = []
    treedef = _flatten(tree, leaves, paths, (), is_leaf)
    return list(zip(paths, leaves)), treedef


def keystr(path) -> str:
    return "".join(path)


def tree_unflatten(treedef: PyTreeDef, leaves):
    return treedef.unflatten(leaves)


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def tree_map(f: Callable, tree, *rest, is_leaf=None):
    """Apply ``f`` leafwise over ``tree`` and ``rest`` (which must share its structure)."""
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = []
    for r in rest:
        lv, td = tree_flatten(r, is_leaf)
        if td != treedef:
            raise ValueError(f"tree_map: structures differ: {treedef} vs {td}")
        others.append(lv)
    return treedef.unflatten([f(*xs) for xs in zip(leaves, *others)])
