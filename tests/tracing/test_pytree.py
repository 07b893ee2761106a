"""Pytrees (xnp.tree_util): flatten/unflatten round trips, treedef equality and hashing,
paths, registration of dataclasses and custom nodes, errors."""

import collections
import dataclasses

import numpy as np
import pytest

import xnp
from xnp import tree_util as tu

Point = collections.namedtuple("Point", ["x", "y"])


@dataclasses.dataclass
class Params:
    w: object
    b: object
    name: str = "layer"


tu.register_dataclass(Params, data_fields=["w", "b"], meta_fields=["name"])


@tu.register_dataclass
@dataclasses.dataclass
class AllData:
    a: object
    b: object


class Box:
    """A custom node: children are ``items``, aux data is ``tag``."""

    def __init__(self, items, tag):
        self.items = list(items)
        self.tag = tag

    def __eq__(self, other):
        return type(other) is Box and self.items == other.items and self.tag == other.tag


tu.register_pytree_node(Box, lambda b: (b.items, b.tag), lambda tag, items: Box(items, tag))

TREES = [
    1,
    None,
    (),
    [],
    {},
    (1, 2),
    [1, (2, 3), [4]],
    {"b": 1, "a": (2, None), "c": [3, {"d": 4}]},
    Point(1, (2, 3)),
    Params(w=1, b=[2, 3], name="dense"),
    AllData(a=(1,), b={"k": 2}),
    Box([1, (2, 3)], tag="t"),
    [None, (None,), {"x": None}],
    collections.OrderedDict([("z", 1), ("a", 2)]),
]


@pytest.mark.parametrize("tree", TREES, ids=lambda t: repr(t)[:40])
def test_flatten_unflatten_round_trip(tree):
    leaves, td = tu.tree_flatten(tree)
    assert td.num_leaves == len(leaves)
    back = tu.tree_unflatten(td, leaves)
    assert back == tree and type(back) is type(tree)
    assert tu.tree_structure(back) == td
    assert tu.tree_leaves(tree) == leaves


def test_leaf_order():
    assert tu.tree_leaves({"b": 1, "a": 2, "c": (3, 4)}) == [2, 1, 3, 4]  # dict keys sorted
    assert tu.tree_leaves(collections.OrderedDict([("z", 1), ("a", 2)])) == [1, 2]  # insertion
    assert tu.tree_leaves(Point(y=2, x=1)) == [1, 2]  # field order
    assert tu.tree_leaves(Params(w=1, b=2, name="n")) == [1, 2]  # meta fields are not leaves
    assert tu.tree_leaves([None, 1, (None, 2)]) == [1, 2]  # None is an empty node
    a = np.ones(3)
    assert tu.tree_leaves([a])[0] is a  # arrays are leaves, not iterated


def test_treedef_equality_and_hash():
    t1 = tu.tree_structure({"a": 1, "b": (2, 3)})
    t2 = tu.tree_structure({"b": ("x", "y"), "a": 0.5})
    assert t1 == t2 and hash(t1) == hash(t2)
    different = [
        {"a": 1, "c": (2, 3)},  # other key
        {"a": 1, "b": [2, 3]},  # list vs tuple
        {"a": 1, "b": (2, 3, 4)},  # arity
        {"a": None, "b": (2, 3)},  # None vs leaf
        {"a": (1,), "b": (2, 3)},
    ]
    for other in different:
        assert tu.tree_structure(other) != t1
    assert tu.tree_structure(Point(1, 2)) != tu.tree_structure((1, 2))
    assert tu.tree_structure(Params(1, 2, "a")) != tu.tree_structure(Params(1, 2, "b"))  # meta
    assert tu.tree_structure(Params(1, 2, "a")) == tu.tree_structure(Params(3, 4, "a"))
    assert tu.tree_structure(Box([1], "t")) != tu.tree_structure(Box([1], "u"))
    assert len({tu.tree_structure(t) for t in ([1, 2], [3, 4], (1, 2))}) == 2
    assert t1 != "not a treedef"


def test_treedef_repr():
    assert repr(tu.tree_structure((1, [2, 3]))) == "PyTreeDef((*, [*, *]))"
    assert repr(tu.tree_structure((1,))) == "PyTreeDef((*,))"
    assert repr(tu.tree_structure({"a": 1, "b": None})) == "PyTreeDef({'a': *, 'b': None})"
    assert repr(tu.tree_structure(1)) == "PyTreeDef(*)"
    assert "Point" in repr(tu.tree_structure(Point(1, 2)))


def test_tree_map():
    tree = {"a": (1, 2), "b": [3, None], "c": Point(4, 5)}
    out = tu.tree_map(lambda x: x * 10, tree)
    assert out == {"a": (10, 20), "b": [30, None], "c": Point(40, 50)}
    assert tu.tree_map(lambda x, y: x + y, (1, [2]), (10, [20])) == (11, [22])
    with pytest.raises(ValueError, match="structure"):
        tu.tree_map(lambda x, y: x + y, (1, [2]), (10, (20,)))


def test_is_leaf():
    tree = [(1, 2), (3, 4)]
    leaves, td = tu.tree_flatten(tree, is_leaf=lambda x: isinstance(x, tuple))
    assert leaves == [(1, 2), (3, 4)]
    assert tu.tree_unflatten(td, ["a", "b"]) == ["a", "b"]
    assert tu.tree_map(lambda t: sum(t), tree, is_leaf=lambda x: isinstance(x, tuple)) == [3, 7]


def test_paths():
    tree = {"p": Params(w=1, b=(2, 3), name="n"), "q": [Point(4, 5)], "r": Box([6], "t")}
    pairs, _ = tu.tree_flatten_with_path(tree)
    paths = [tu.keystr(p) for p, _ in pairs]
    assert paths == ["['p'].w", "['p'].b[0]", "['p'].b[1]", "['q'][0].x", "['q'][0].y",
                     "['r'][<flat index 0>]"]
    assert [leaf for _, leaf in pairs] == [1, 2, 3, 4, 5, 6]


def test_unflatten_wrong_number_of_leaves():
    td = tu.tree_structure((1, (2, 3)))
    with pytest.raises(ValueError, match="Too few leaves"):
        tu.tree_unflatten(td, [1, 2])
    with pytest.raises(ValueError, match="Too many leaves"):
        tu.tree_unflatten(td, [1, 2, 3, 4])


def test_registration_errors():
    with pytest.raises(ValueError, match="Duplicate"):
        tu.register_pytree_node(Box, lambda b: ([], None), lambda a, c: Box([], a))
    with pytest.raises(ValueError, match="Duplicate"):
        tu.register_dataclass(Params, data_fields=["w", "b"], meta_fields=["name"])

    class NotADataclass:
        pass

    with pytest.raises(TypeError, match="not a dataclass"):
        tu.register_dataclass(NotADataclass)


def test_unregistered_objects_are_leaves():
    class Thing:
        pass

    t = Thing()
    leaves, td = tu.tree_flatten({"a": t})
    assert leaves == [t] and td.num_leaves == 1


def test_pytrees_through_jit():
    """jit flattens pytree arguments and rebuilds pytree outputs."""

    @xnp.jit
    def f(p, pt, box, d):
        return {"w": p.w * 2, "sum": (pt.x + pt.y, box.items[0] + d["k"]), "none": None}

    out = f(Params(np.ones(2), np.zeros(2), "n"), Point(1.0, 2.0), Box([3.0], "t"),
            {"k": np.float64(4.0)})
    assert set(out) == {"w", "sum", "none"} and out["none"] is None
    np.testing.assert_array_equal(np.asarray(out["w"]), [2.0, 2.0])
    assert float(out["sum"][0]) == 3.0 and float(out["sum"][1]) == 7.0
    assert isinstance(out["sum"], tuple)


def test_unsortable_dict_keys():
    with pytest.raises(ValueError, match="sortable"):
        tu.tree_flatten({1: "a", "b": 2})
    od = collections.OrderedDict([(1, "a"), ("b", 2)])  # insertion order: no sorting needed
    assert tu.tree_unflatten(*reversed(tu.tree_flatten(od))) == od
