"""``jit``'s ``in_shardings``/``out_shardings``: matched to the flat arguments and results
of a traced entry and handed to the jit backend's ``lower`` on a cache miss.

The sharding objects (``xnp.sharding``'s) are opaque here: anything but None, a tuple
or a list is one sharding. The shardings belong to the jitted function, not to a
call, so they are not part of the cache key.
"""

from __future__ import annotations

from xnp.tracing.pytree import tree_leaves, tree_unflatten

__all__ = ["check_spec", "lower_kwargs"]


def _is_group(x) -> bool:
    return type(x) in (tuple, list)


def check_spec(name: str, spec) -> None:
    """``TypeError`` naming ``name`` (``in_shardings``/``out_shardings``) unless ``spec`` is
    None, one sharding, or a tuple/list of shardings and None."""
    if spec is None or not _is_group(spec):
        return
    for s in spec:
        if _is_group(s):
            raise TypeError(f"xnp.jit: `{name}` entries are a sharding or None (one per "
                            f"argument/result, applying to all of its leaves), got a nested "
                            f"{type(s).__name__}.")


def _per_group(spec, n: int, what: str, fun: str):
    if spec is None or not _is_group(spec):
        return [spec] * n
    if len(spec) != n:
        raise ValueError(f"xnp.jit of {fun}: `{what}` has {len(spec)} entries but the call "
                         f"has {n} {'positional arguments' if what == 'in_shardings' else 'outputs'}"
                         " (static ones excluded).")
    return list(spec)


def lower_kwargs(in_shardings, out_shardings, entry, in_tree, fun: str) -> dict:
    """The flat ``in_shardings``/``out_shardings`` keywords for the backend's ``lower`` of
    ``entry`` (empty when the function has neither): a sharding given for a positional
    argument (or an output) applies to every leaf of it; keyword arguments and arguments
    updated in place are unspecified."""
    if in_shardings is None and out_shardings is None:
        return {}
    n_in = len(entry.closed.in_avals)
    flat_in: list = [None] * n_in
    if in_shardings is not None and in_tree is not None:
        args, _ = tree_unflatten(in_tree, list(range(n_in)))
        for s, arg in zip(_per_group(in_shardings, len(args), "in_shardings", fun), args):
            for i in tree_leaves(arg):
                flat_in[i] = s
    flat_out: list = [None] * len(entry.closed.out_avals)
    if out_shardings is not None:
        outs = tree_unflatten(entry.out_tree, list(range(entry.n_out)))
        if _is_group(outs) and _is_group(out_shardings):
            groups = zip(_per_group(out_shardings, len(outs), "out_shardings", fun), outs)
        else:
            groups = [(out_shardings, outs)]
        for s, out in groups:
            for i in tree_leaves(out):
                flat_out[i] = s
    return {"in_shardings": flat_in, "out_shardings": flat_out}
