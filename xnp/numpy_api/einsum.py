"""Einstein summation: ``einsum`` and ``einsum_path``.

The subscripts are parsed on the host (static; both the string form and the
interleaved ``operand, sublist, ...`` form), the contraction order comes from
``opt_einsum`` (``optimize=True``/``'greedy'``/``'optimal'`` or an explicit
path; ``optimize=False`` contracts left to right), and every pairwise contraction
is one ``lax.dot_general`` (batch dims = labels shared and still needed,
contracting dims = labels shared and not needed any more), preceded by
diagonals (a label repeated in one operand) and sums (a label used by one
operand only) and followed by a transpose to the output order. Everything is
differentiable and batches under ``vmap`` through those primitives. The result has
NumPy's memory order (``order='K'``), which NumPy's own steps decide (its ``c_einsum``,
``bmm_einsum``): followed on the operands' layouts, a copy where xnp's differs.
"""

from __future__ import annotations

import math
import numbers
import string

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.lax import _matrix as M
from xnp.numpy_api import _util
from xnp.numpy_api import _layout
from xnp.numpy_api.products import _asarray, in_layout, iter_order
from xnp.numpy_api._signed_zeros import plus_zero, sum_from_zero
from xnp.numpy_api._util import asarray_for, check_unsupported, result_dtype, write_out
from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray, canonical_dtype

__all__ = ["einsum", "einsum_path"]

_LETTERS = string.ascii_letters  # NumPy's 52 subscript labels
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


# --------------------------------------------------------------------------- parsing


def _sublist_to_str(fname, sub) -> str:
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        elif isinstance(s, numbers.Integral) and not isinstance(s, bool) and 0 <= s < 52:
            out.append(_LETTERS[int(s)])
        else:
            raise ValueError(f"xnp.{fname}: subscript in a sublist must be Ellipsis or an int in "
                             f"[0, 52), got {s!r}")
    return "".join(out)


def _split_operands(fname, operands):
    """``(subscripts, operands)`` from the string form or the interleaved sublist form."""
    if not operands:
        raise ValueError(f"xnp.{fname}: no input operands")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    ops, subs = list(operands[0::2]), list(operands[1::2])
    out = None
    if len(ops) > len(subs):  # a trailing output sublist
        out = ops.pop()
    if len(ops) != len(subs):
        raise ValueError(f"xnp.{fname}: the interleaved form needs one sublist per operand")
    text = ",".join(_sublist_to_str(fname, s) for s in subs)
    if out is not None:
        text += "->" + _sublist_to_str(fname, out)
    return text, ops


def _expand_ellipsis(fname, term: str, ndim: int, ell: str, i: int) -> str:
    if "." in term:
        if term.count(".") != 3 or "..." not in term:
            raise ValueError(f"xnp.{fname}: invalid subscript '{term}': '.' must be part of "
                             "an ellipsis '...'")
        named = len(term) - 3
        k = ndim - named
        if k < 0:
            raise ValueError(f"xnp.{fname}: operand {i} has {ndim} dimensions, fewer than the "
                             f"{named} labels of '{term}'")
        return term.replace("...", ell[len(ell) - k:] if k else "")
    if len(term) != ndim:
        raise ValueError(f"xnp.{fname}: operand {i} has {ndim} dimensions but subscripts "
                         f"'{term}' name {len(term)} (einstein sum subscripts string contains "
                         "too many or too few subscripts for operand)")
    return term


def parse(fname, subscripts: str, shapes) -> tuple[list[str], str]:
    """Input label strings (ellipses expanded to fresh labels) and the output labels."""
    subscripts = subscripts.replace(" ", "")
    explicit = "->" in subscripts
    lhs, rhs = subscripts.split("->", 1) if explicit else (subscripts, None)
    if rhs is not None and ("->" in rhs or "-" in rhs.replace("->", "") or ">" in rhs):
        raise ValueError(f"xnp.{fname}: subscripts '{subscripts}' contain more than one '->'")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"xnp.{fname}: {len(terms)} operand subscripts but {len(shapes)} "
                         "operands (more operands provided than specified in the subscripts "
                         "string, or fewer)")
    for ch in subscripts.replace("->", "").replace(",", "").replace(".", ""):
        if ch not in _LETTERS:
            raise ValueError(f"xnp.{fname}: invalid subscript '{ch}' in '{subscripts}': labels "
                             "are ASCII letters")
    used = set(subscripts)
    free = [c for c in _LETTERS if c not in used]
    n_ell = max([len(s) - (len(t) - 3) for t, s in zip(terms, shapes) if "..." in t] + [0])
    if n_ell > len(free):
        raise ValueError(f"xnp.{fname}: too many dimensions for the available labels")
    ell = "".join(free[:n_ell])
    inputs = [_expand_ellipsis(fname, t, len(s), ell, i)
              for i, (t, s) in enumerate(zip(terms, shapes))]
    if rhs is None:
        counts = {}
        for t in inputs:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        # (in character order, as NumPy's: upper case first)
        named = sorted(c for c, n in counts.items() if n == 1 and c not in ell)
        # NumPy's implicit mode puts the broadcast (ellipsis) dimensions first
        used_ell = [c for c in ell if c in counts]
        output = "".join(used_ell) + "".join(named)
    else:
        if "." in rhs and "..." not in rhs:
            raise ValueError(f"xnp.{fname}: invalid output subscript '{rhs}'")
        if "..." in rhs:
            present = [c for c in ell if any(c in t for t in inputs)]
            output = rhs.replace("...", "".join(present))
        else:
            output = rhs
        for c in output:
            if output.count(c) > 1:
                raise ValueError(f"xnp.{fname}: output subscript '{c}' appears more than once")
            if not any(c in t for t in inputs):
                raise ValueError(f"xnp.{fname}: output subscript '{c}' does not appear in the "
                                 "input subscripts")
    return inputs, output


def _sizes(fname, inputs, shapes) -> dict:
    """Label -> dimension size; sizes must agree or be 1 (broadcast), as in NumPy."""
    sizes: dict = {}
    for i, (t, s) in enumerate(zip(inputs, shapes)):
        for c, d in zip(t, s):
            old = sizes.get(c)
            if old is None or old == 1:
                sizes[c] = d
            elif d not in (1, old):
                raise ValueError(f"xnp.{fname}: size of label '{c}' for operand {i} ({d}) does "
                                 f"not match previous terms ({old}); shapes "
                                 + ", ".join(str(tuple(x)) for x in shapes))
    return sizes


# --------------------------------------------------------------------------- paths


def _path_kind(fname, optimize):
    """``(kind, memory_limit)`` from NumPy's ``optimize`` argument."""
    memory = None
    if isinstance(optimize, tuple) and len(optimize) == 2 and isinstance(optimize[0], str):
        optimize, memory = optimize
    if optimize is True:
        return "greedy", memory
    if optimize is False or optimize is None:
        return False, memory
    if isinstance(optimize, str):
        if optimize not in ("greedy", "optimal"):
            raise TypeError(f"xnp.{fname}: did not understand the path: {optimize!r} (use "
                            "False, True, 'greedy', 'optimal' or an explicit path)")
        return optimize, memory
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return list(optimize[1:]), memory
    raise TypeError(f"xnp.{fname}: did not understand the path: {optimize!r}")


def _compute_path(fname, inputs, output, sizes, kind, memory):
    """A list of operand-index tuples (opt_einsum's path format)."""
    n = len(inputs)
    if isinstance(kind, list):
        return [tuple(int(i) for i in step) for step in kind]
    if kind is False or n <= 2 or set("".join(inputs)) == set(output):
        return [tuple(range(n))]
    import opt_einsum  # noqa: PLC0415  (only needed when a path is searched)

    input_sets = [frozenset(t) for t in inputs]
    size_list = [int(np.prod([sizes[c] for c in t])) for t in inputs + [output]]
    limit = max(size_list) if memory is None else int(memory)
    fn = opt_einsum.paths.greedy if kind == "greedy" else opt_einsum.paths.optimal
    return [tuple(p) for p in fn(input_sets, frozenset(output), sizes, limit)]


# --------------------------------------------------------------------------- contraction


def _sum_bool_aware(x, axes):
    if not axes:
        return x
    aval = core.aval_of(x)
    if aval.dtype in kit.BOOL:
        return lax.reduce_or(x, tuple(axes))
    res = lax.reduce_sum(x, tuple(axes))
    # (NumPy sums from +0.0; XLA compiles a sum of one element to the element itself)
    return _plus_zero(res) if math.prod(aval.shape[a] for a in axes) == 1 else res


def _dedupe(x, labels: str):
    """Take diagonals for labels repeated within one operand."""
    while True:
        rep = next((c for c in labels if labels.count(c) > 1), None)
        if rep is None:
            return x, labels
        i = labels.index(rep)
        j = labels.index(rep, i + 1)
        rest = [k for k in range(len(labels)) if k not in (i, j)]
        x = lax.transpose(x, tuple(rest + [i, j]))
        x = M.diagonal(x)
        labels = "".join(labels[k] for k in rest) + rep


def _squeeze_broadcast(x, labels: str, sizes: dict):
    """Drop size-1 dimensions whose label has a larger size elsewhere (NumPy broadcasts);
    also returns the dropped labels."""
    shape = core.aval_of(x).shape
    drop = [k for k, c in enumerate(labels) if shape[k] == 1 and sizes[c] != 1]
    if not drop:
        return x, labels, ""
    keep = [k for k in range(len(labels)) if k not in drop]
    x = lax.reshape(x, tuple(shape[k] for k in keep))
    return x, "".join(labels[k] for k in keep), "".join(labels[k] for k in drop)


def _sum_unused(x, labels: str, needed: set):
    axes = [k for k, c in enumerate(labels) if c not in needed]
    if not axes:
        return x, labels
    return _sum_bool_aware(x, axes), "".join(c for c in labels if c in needed)


def _contract_pair(a, la, b, lb, needed: set):
    """One ``dot_general``: shared labels still needed are batch dims, others contract."""
    shared = [c for c in la if c in lb]
    batch = [c for c in shared if c in needed]
    contract = [c for c in shared if c not in needed]
    dims = (([la.index(c) for c in contract], [lb.index(c) for c in contract]),
            ([la.index(c) for c in batch], [lb.index(c) for c in batch]))
    res = lax.dot_general(a, b, (tuple(map(tuple, dims[0])), tuple(map(tuple, dims[1]))))
    labels = "".join(batch) + "".join(c for c in la if c not in shared) + "".join(
        c for c in lb if c not in shared)
    return res, labels


# Signs of zero. NumPy's c_einsum (optimize=False, or a step of more than two operands)
# sums the products into a zeroed output, so its result is never -0.0 where it sums
# anything (one operand: where a label is not in the output; more: always). Along a path,
# its bmm_einsum contracts a pair with matmul (also summed from +0.0) where a label of size
# above 1 contracts, else multiplies the pair after a c_einsum of each operand that has a
# label outside the step's output (summed from +0.0 too; a product keeps -0.0). XLA
# compiles a sum of one product to the product itself, so these starts are restated where
# the sum is of one product; longer ones are the backend dot's.


def _plus_zero(x):
    return plus_zero(x) if core.aval_of(x).dtype in kit.INEXACT else x


def _one_product(a, la, lb, needed: set) -> bool:
    """Whether the :func:`_contract_pair` of ``a`` and ``b`` sums one product."""
    shape = core.aval_of(a).shape
    return math.prod(shape[la.index(c)] for c in la if c in lb and c not in needed) == 1


def _bmm_operand(x, labels: str, dropped: str, other: str, needed: set):
    """An operand of NumPy's multiplied pair: from +0.0 where NumPy's c_einsum prepares it
    (a contracted label, or a dropped broadcast one outside the output)."""
    if any(c in other and c not in needed for c in labels) or any(
            c not in needed for c in dropped):
        return _plus_zero(x)
    return x


def _drop_contracted(x, labels: str, other: str, needed: set):
    """``x`` without its size-1 contracted dimensions: the pair's ``dot_general`` is then
    the exact products on every backend (a contraction of size 1 may be summed from +0.0
    or not)."""
    keep = [k for k, c in enumerate(labels) if c not in other or c in needed]
    if len(keep) == len(labels):
        return x, labels
    shape = core.aval_of(x).shape
    return lax.reshape(x, tuple(shape[k] for k in keep)), "".join(labels[k] for k in keep)


def _in_common_dtype(xs):
    """The operands in their NumPy result dtype (as the arrays they are: not weak)."""
    dt = result_dtype(*(core.aval_of(x).strip_weak_type() for x in xs))[0]
    return [x if core.aval_of(x).dtype == dt else lax.convert_element_type(x, dt) for x in xs]


def contract(fname, operands, inputs, output, path, sizes, one_sum=False, by_step=False):
    """Evaluate the parsed einsum with the given contraction path. ``one_sum``: the path
    is one step, evaluated as NumPy's ``c_einsum`` (``optimize=False``), not pairwise
    as its ``bmm_einsum``: their signs of zero differ. ``by_step``: each step in its
    operands' result dtype, as NumPy's path computes it (a pair's labels of one operand
    summed in that operand's own dtype first: a bool one's by logical OR)."""
    ops = [_squeeze_broadcast(*_dedupe(x, t), sizes) for x, t in zip(operands, inputs)]
    for step in path:
        step = sorted(step, reverse=True)
        picked = [ops.pop(i) for i in step][::-1]
        rest_labels = set(output).union(*[set(t) for _, t, _ in ops])
        step_one_sum = one_sum or len(picked) > 2
        if by_step and len(picked) > 2:  # (c_einsum: all in the common dtype first)
            xs = _in_common_dtype([x for x, _, _ in picked])
            picked = [(x,) + p[1:] for x, p in zip(xs, picked)]
        if len(picked) == 1 and any(c not in rest_labels for c in picked[0][2]):
            picked = [(_plus_zero(picked[0][0]),) + picked[0][1:]]
        while len(picked) > 1:
            (a, la, da), (b, lb, db) = picked[0], picked[1]
            needed = rest_labels.union(*[set(t) for _, t, _ in picked[2:]])
            a, la = _sum_unused(a, la, needed | set(lb))
            b, lb = _sum_unused(b, lb, needed | set(la))
            if by_step:
                a, b = _in_common_dtype([a, b])
            one = _one_product(a, la, lb, needed)
            if one and not step_one_sum:
                a, b = (_bmm_operand(a, la, da, lb, needed),
                        _bmm_operand(b, lb, db, la, needed))
            if one:
                (a, la), (b, lb) = (_drop_contracted(a, la, lb, needed),
                                    _drop_contracted(b, lb, la, needed))
            res, labels = _contract_pair(a, la, b, lb, needed)
            if one and step_one_sum and len(picked) == 2:
                res = _plus_zero(res)  # (a c_einsum's partial products' zeros do not show)
            picked = [(res, labels, "")] + picked[2:]
        x, t, _ = picked[0]
        x, t = _sum_unused(x, t, rest_labels)
        ops.append((x, t, ""))
    x, t, _ = ops[0]
    x, t = _sum_unused(x, t, set(output))
    if t != output:
        x = lax.transpose(x, tuple(t.index(c) for c in output))
    return x


# --------------------------------------------------------------------------- memory order

# NumPy's memory order of the result (order='K'), followed step by step on (labels, shape,
# element strides) triples: optimize=False is one c_einsum of the operands, a path takes
# each step's operands in NumPy's order (the later operand first), contracts a pair with
# bmm_einsum and any other step with c_einsum, and labels an intermediate result by size
# then label. c_einsum returns a view of a single operand where nothing is summed, else a
# new array NumPy's iterator lays out over the output labels and then the summed ones (in
# character order); bmm_einsum's matmul result is row-major in its own label order
# (singletons, batch, first operand's, second operand's), transposed to the output, and
# its multiply (no contracted label) a new array the iterator lays out.


def _step_sizes(operands) -> dict:
    sizes: dict = {}
    for labels, shape, _ in operands:
        for c, d in zip(labels, shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = d
    return sizes


def _allocated(out, iter_labels, operands, sizes) -> tuple:
    """Strides of the new array of labels ``out`` NumPy's iterator over ``iter_labels``
    allocates for ``operands`` (each label once, a repeated one's strides summed)."""
    rows = []
    for labels, shape, st in operands:
        per = {}
        for c, d, x in zip(labels, shape, st):
            per[c] = per.get(c, 0) + (0 if d == 1 else x)
        rows.append([0 if sizes[c] == 1 else per.get(c, 0) for c in iter_labels])
    strides, step = {}, 1
    for i in iter_order(rows):
        c = iter_labels[i]
        if c in out:
            strides[c] = step
            step *= sizes[c]
    return tuple(strides[c] for c in out)


def _c_einsum_layout(operands, out):
    """``(strides, view)`` of NumPy's ``c_einsum`` of ``operands`` into the labels ``out``."""
    if len(operands) == 1 and set(operands[0][0]) <= set(out):
        labels, _, st = operands[0]
        return tuple(sum(x for c2, x in zip(labels, st) if c2 == c) for c in out), True
    sizes = _step_sizes(operands)
    summed = sorted(set("".join(t for t, _, _ in operands)) - set(out))
    return _allocated(out, out + "".join(summed), operands, sizes), False


def _bmm_layout(a, b, out):
    """Strides of NumPy's ``bmm_einsum`` of the pair ``a``, ``b`` into the labels ``out``."""
    sizes = _step_sizes([a, b])
    left = [c for c, d in zip(a[0], a[1]) if d != 1]
    right = [c for c, d in zip(b[0], b[1]) if d != 1]
    if not any(c in right and c not in out for c in left):  # multiply
        ops = []
        for labels, shape, st in (a, b):
            if not set(labels) <= set(out):  # (c_einsum sums the others out first)
                dims = dict(zip(labels, shape))
                want = "".join(c for c in out if c in labels)
                st, labels = _c_einsum_layout([(labels, shape, st)], want)[0], want
                shape = tuple(dims[c] for c in labels)
            ops.append((labels, shape, st))
        return _allocated(out, out, ops, sizes)
    left, right = list(dict.fromkeys(left)), list(dict.fromkeys(right))
    produced = ([c for c in out if sizes[c] == 1] + [c for c in left if c in right and c in out]
                + [c for c in left if c not in right and c in out]
                + [c for c in right if c not in left and c in out])
    strides = dict(zip(produced, _layout.c_strides(tuple(sizes[c] for c in produced))))
    return tuple(strides[c] for c in out)


def _numpy_layout(operands, inputs, output, path, one_sum):
    """``(strides, view)``: the element strides of NumPy's einsum result and whether it is
    a view of the one operand; None where an operand's layout is unknown (a ``jit``
    argument)."""
    ops = []
    for x, t in zip(operands, inputs):
        st = _layout.layout(x)
        if st is None:
            return None
        ops.append((t, tuple(core.aval_of(x).shape), st))
    if one_sum:
        return _c_einsum_layout(ops, output)
    sizes = _step_sizes(ops)
    for n, step in enumerate(path):
        picked = [ops.pop(i) for i in sorted(step, reverse=True)]
        if n == len(path) - 1:
            out = output
        else:
            keep = set(output).union(*[set(t) for t, _, _ in ops])
            out = "".join(sorted({c for t, _, _ in picked for c in t if c in keep},
                                 key=lambda c: (sizes[c], c)))
        if len(picked) == 2:
            st, view = _bmm_layout(picked[0], picked[1], out), False
        else:
            st, view = _c_einsum_layout(picked, out)
        ops.append((out, tuple(_step_sizes(picked)[c] for c in out), st))
    return ops[0][2], view


# --------------------------------------------------------------------------- public


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation over labelled axes (``numpy.einsum``).

    Parameters
    ----------
    *operands
        Either ``subscripts, a, b, ...`` with a subscripts string such as
        ``'ij,jk->ik'`` (ASCII letters, ``...`` for broadcast dimensions, implicit
        output = labels used once, alphabetically, after the ``...`` dimensions), or
        the interleaved form ``a, [0, 1], b, [1, 2], [0, 2]`` (ints in [0, 52) and
        ``Ellipsis``). A label repeated within one operand takes its diagonal;
        labels absent from the output are summed. Size-1 dimensions broadcast.
    out : Array, optional
        The result is written into it (its shape; the result's dtype cast to its dtype
        under ``casting``, NumPy's ``TypeError`` otherwise) and it is returned.
    dtype : dtype, optional
        Compute and result dtype; the operands are cast to it under ``casting``. Unused,
        as NumPy's, with one operand of which nothing is summed (NumPy returns a view
        of it: its own dtype).
    order : {'K', 'C', 'A'}
        ``'K'``: NumPy's memory order of the result, followed through its steps from the
        operands' layouts (``'ij,jk->ik'`` with ``optimize=True`` is column-major, as
        NumPy's transposed matmul result; left as computed where an operand's layout is
        unknown, a ``jit`` argument); ``'C'``: row-major (NumPy's view of a single operand
        of which nothing is summed aside); ``'A'``: as computed; ``'F'`` raises
        ``NotImplementedError``.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}
        Rule for each operand's cast to the compute dtype (``dtype``, or the operands'
        result dtype: ``'no'`` refuses operands of different dtypes), default ``'safe'``,
        as NumPy's; a complex operand cast to a real or integer ``dtype`` (``'unsafe'``)
        issues NumPy's ``ComplexWarning``.
    optimize : bool, str, list or tuple
        ``False``: contract left to right; ``True``/``'greedy'``/``'optimal'``: order
        found by ``opt_einsum`` (with NumPy's default memory limit, the largest
        operand/output size; ``(kind, limit)`` sets it); or an explicit path
        ``['einsum_path', (0, 1), ...]`` as returned by :func:`einsum_path`.
        The order changes rounding only.

    Returns
    -------
    Array
        Dtype: the NumPy result type of the operands (Python scalars are not weak),
        or ``dtype``. bool operands give bool (sums are logical OR). Shape: the
        output labels' sizes.

    Raises
    ------
    ValueError
        Malformed subscripts, a label count that does not match an operand's rank,
        mismatched label sizes, or an output label missing from the inputs.
    TypeError
        An operand does not cast to the compute dtype under ``casting`` (the message names
        the operand and both dtypes); an unknown ``optimize``.
    OverflowError
        ``enable_x64`` off and a Python int outside int32.

    Notes
    -----
    Subscripts, shapes and ``optimize`` are static under ``jit``. Integer sums wrap
    around in the operand dtype, as NumPy's do. Signs of zero are NumPy's: with
    ``optimize=False`` two or more operands are one sum of products from +0.0 (never
    -0.0, also where nothing is summed); along a path a pair contracting a label is
    summed from +0.0 (NumPy's matmul) and a pair contracting none is a product. Along a
    path without ``dtype``, each step is computed in its operands' result dtype, as
    NumPy's: two bool operands by logical OR, two int8 ones wrapping in int8, before a
    later step promotes (the path is ``opt_einsum``'s, which may differ from NumPy's own
    greedy choice where costs tie).
    """
    if isinstance(out, tuple):
        raise TypeError("xnp.einsum: `out` must be an array, got a tuple")
    out_dtype = None if out is None else getattr(out, "dtype", None)
    res = _einsum(operands, dtype, order, casting, optimize, out_dtype)
    return res if out is None else write_out("einsum", out, res, casting=casting)


def _einsum(operands, dtype, order, casting, optimize, out_dtype):
    """:func:`einsum`'s result; ``out_dtype``: its ``out``'s dtype, which NumPy computes in
    together with the operands' without ``optimize`` (two int8 operands into an int16
    ``out`` multiply and add in int16)."""
    if order not in ("K", "C", "A"):
        raise NotImplementedError(f"xnp.einsum: order={order!r} is not supported: results are "
                                  "in NumPy's 'K' order or C-contiguous")
    if casting not in _CASTINGS:
        raise ValueError(f"xnp.einsum: casting must be one of {_CASTINGS}, got {casting!r}")
    subscripts, ops = _split_operands("einsum", operands)
    # (numpy.asarray's conversion: a Python scalar is not weak, an int from 2**63 is uint64)
    xs = [_asarray("einsum", x, f"operands[{i}]") for i, x in enumerate(ops)]
    avals = [core.aval_of(x) for x in xs]
    shapes = [a.shape for a in avals]
    inputs, output = parse("einsum", subscripts, shapes)
    sizes = _sizes("einsum", inputs, shapes)
    view = len(xs) == 1 and set(inputs[0]) <= set(output)
    if view:
        # NumPy returns a view of the one operand where nothing is summed: of its own dtype,
        # `dtype` and `casting` unused
        dtype, casting = None, "unsafe"
    dt = (result_dtype(*(a.strip_weak_type() for a in avals))[0] if dtype is None
          else canonical_dtype(dtype, name="dtype"))
    # (NumPy's c_einsum, optimize=False; a path's steps keep their operands' dtypes, as
    # NumPy's tensordot steps do)
    widen = (dtype is None and out_dtype is not None and not view and optimize is False
             and np.result_type(dt, out_dtype) != dt)
    if widen:
        dt = np.result_type(dt, out_dtype)
    given = _cast_operands(xs, avals, dt, casting, cast=False)  # (the checks first)
    kind, memory = _path_kind("einsum", optimize)
    # (a path without dtype= computes each step in its operands' result dtype, as NumPy's)
    by_step = dtype is None and kind is not False and not widen
    if not by_step:
        xs = _cast_operands(xs, avals, dt, casting)
    path = _compute_path("einsum", inputs, output, sizes, kind, memory)
    if (kind is False and dtype is None and 2 <= len(xs) <= _KERNEL_OPERANDS
            and all(core.aval_of(x).dtype == dt for x in xs) and dt in _KERNEL_DTYPES):
        # (operands of other dtypes are cast to `dt` first, as NumPy's einsum casts them)
        # eagerly NumPy's own einsum (its sums of products: its values, signs of zero and
        # floating-point checks), replayed as one call; traced the one sum below
        text = ",".join(inputs) + "->" + output
        res = lax.composite_general(
            "einsum", _one_sum, *xs,
            out_avals=(ShapedArray(tuple(sizes[c] for c in output), dt),),
            params={"subscripts": text})[0]
    else:
        res = contract("einsum", xs, inputs, output, path, sizes, one_sum=kind is False,
                       by_step=by_step)
    if core.aval_of(res).dtype != dt:
        res = lax.convert_element_type(res, dt)
    # NumPy's memory order ('A' left as it is); a view of the one operand is xnp's too
    laid = None if order == "A" else _numpy_layout(given, inputs, output, path, kind is False)
    if laid is None or laid[1]:
        return res
    return in_layout(res, laid[0] if order == "K" else _layout.c_strides(res.shape))


#: the einsum calls NumPy's own einsum computes eagerly: ``optimize=False``, no ``dtype``,
#: 2 to this many operands, cast to their result dtype, one of these
#: (xnp/backends/xp_impls/composite.py)
_KERNEL_OPERANDS = 8
_KERNEL_DTYPES = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128))


def _one_sum(*xs, subscripts):
    """``[einsum(subscripts, *xs)]`` (``subscripts`` explicit, ``"ij,jk->ik"``) of operands
    of one dtype, as one sum of products (``optimize=False``)."""
    inputs, output = subscripts.split("->")
    inputs = inputs.split(",")
    shapes = [core.aval_of(x).shape for x in xs]
    sizes = _sizes("einsum", inputs, shapes)
    path = _compute_path("einsum", inputs, output, sizes, False, None)
    return [contract("einsum", list(xs), inputs, output, path, sizes, one_sum=True,
                     by_step=False)]


def _cast_operands(xs, avals, dt, casting, cast=True):
    """The operands in the compute dtype ``dt``, each cast checked under ``casting`` as
    NumPy's iterator checks it (also without ``dtype=``: ``'no'`` refuses operands of
    another dtype), with NumPy's ``ComplexWarning`` for each complex operand cast to a
    real or integer ``dt``. All checks come before any warning. ``cast=False``: the
    checks only, the operands as they are."""
    for i, a in enumerate(avals):
        if not np.can_cast(a.dtype, dt, casting):
            raise TypeError(f"xnp.einsum: cannot cast operand {i} (`operands[{i}]`, "
                            f"{errors.aval_str(a)}) from {a.dtype.name} to {dt.name} with "
                            f"casting rule {casting!r}")
    out = []
    for x, a in zip(xs, avals):
        if a.dtype != dt and cast:
            if a.dtype in kit.COMPLEX and dt not in kit.COMPLEX and dt not in kit.BOOL:
                _util.warn_complex_to_real()
            x = lax.convert_element_type(x, dt)
        out.append(x)
    return out


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """Contraction order for :func:`einsum` and a printable report (``numpy.einsum_path``).

    Parameters
    ----------
    *operands
        As for :func:`einsum`; only the shapes are used (arrays or anything with
        ``.shape``), so this also works on traced values.
    optimize : bool, str, list or tuple
        ``'greedy'`` (default) or ``True``, ``'optimal'``, ``False`` (one step with all
        operands), an explicit ``['einsum_path', ...]`` path, or ``(kind, memory_limit)``.
    einsum_call : bool
        NumPy-internal; ``True`` raises ``NotImplementedError``.

    Returns
    -------
    (list, str)
        ``['einsum_path', (i, j), ...]`` (pairs of positions in the shrinking operand
        list, as NumPy and opt_einsum number them) and a report of the scaling and
        FLOP counts computed by ``opt_einsum``.

    Raises
    ------
    ValueError, TypeError
        As :func:`einsum`.
    """
    check_unsupported("einsum_path", einsum_call=(einsum_call, False, "NumPy-internal flag"))
    subscripts, ops = _split_operands("einsum_path", operands)
    shapes = [tuple(core.aval_of(asarray_for("einsum_path", x, f"operands[{i}]")).shape)
              for i, x in enumerate(ops)]
    inputs, output = parse("einsum_path", subscripts, shapes)
    sizes = _sizes("einsum_path", inputs, shapes)
    kind, memory = _path_kind("einsum_path", optimize)
    path = _compute_path("einsum_path", inputs, output, sizes, kind, memory)
    import opt_einsum  # noqa: PLC0415

    text = ",".join(inputs) + "->" + output
    bshapes = [tuple(sizes[c] if d != 1 else 1 for c, d in zip(t, s))
               for t, s in zip(inputs, shapes)]
    try:
        _, info = opt_einsum.contract_path(text, *bshapes, shapes=True, optimize=path)
        report = str(info)
    except Exception:  # noqa: BLE001  (the report is informational)
        report = f"  Complete contraction:  {text}\n  Path: {path}"
    return ["einsum_path", *path], report
